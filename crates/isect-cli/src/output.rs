//! Writing results: numbers for JSON and text, and output files written to a
//! temporary name in the same folder and renamed, so none is ever half-written.

use crate::error::CliError;
use std::io::Write;
use std::path::Path;

/// `(x, y[, z])` for text output, each component to 7 significant digits of the
/// largest (so that rounding noise in a unit normal prints as `0`, and a vector of
/// tiny components keeps its digits).
pub fn text_vec(c: &[f64]) -> String {
    let scale = c.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let parts: Vec<String> = c.iter().map(|x| num_against(*x, scale)).collect();
    format!("({})", parts.join(", "))
}

/// A number for text output: 6 decimals, or more for a number below 1, enough for 7
/// significant digits (`1e-9` is not `0`); in scientific notation below `1e-4`;
/// without trailing zeros (`-0` printed as `0`).
pub fn text_num(x: f64) -> String {
    num_against(x, x.abs())
}

/// `x` to 7 significant digits of `scale` (at least 6 decimals).
fn num_against(x: f64, scale: f64) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    let lead = if scale > 0.0 && scale.is_finite() {
        scale.log10().floor() as i32
    } else {
        0
    };
    let s = if lead >= -4 {
        let decimals = (6 - lead).max(6) as usize;
        trim_zeros(&format!("{x:.decimals$}"))
    } else {
        // Rounded to the scale's 7th digit, then written with its own exponent.
        let quantum = 10f64.powi(lead - 6);
        let r = (x / quantum).round() * quantum;
        if r == 0.0 {
            "0".to_string()
        } else {
            let e = format!("{r:.6e}");
            let (mantissa, exponent) = e.split_once('e').unwrap_or((&e, "0"));
            format!("{}e{exponent}", trim_zeros(mantissa))
        }
    };
    if s == "-0" {
        "0".to_string()
    } else {
        s
    }
}

/// A decimal without its trailing zeros (and dot).
fn trim_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// Writes `contents` to `path` atomically: into a temporary file beside it, then
/// renamed over it. On failure the temporary file is removed and `path` untouched.
///
/// # Errors
/// Exit code 1 with a message naming the path and the system's reason.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), CliError> {
    let fail =
        |e: std::io::Error| CliError::output(format!("cannot write {}: {e}", path.display()));
    let name = path.file_name().ok_or_else(|| {
        CliError::output(format!("cannot write {}: not a file name", path.display()))
    })?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".tmp{}", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let written = std::fs::File::create(&tmp).and_then(|mut f| {
        f.write_all(contents)?;
        f.sync_all()
    });
    let renamed = written.and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = renamed {
        // The temporary file may not exist (creation failed); nothing else to undo.
        let _ = std::fs::remove_file(&tmp);
        return Err(fail(e));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numbers of 1 and more print as before (6 decimals); smaller ones keep 7
    /// significant digits, in scientific notation below 1e-4; noise in a vector is
    /// rounded against its largest component.
    #[test]
    fn small_numbers_keep_their_digits() {
        assert_eq!(text_num(0.0), "0");
        assert_eq!(text_num(-0.0), "0");
        assert_eq!(text_num(4.0), "4");
        assert_eq!(text_num(12.3456789), "12.345679");
        assert_eq!(text_num(0.5), "0.5");
        assert_eq!(text_num(0.000123456789), "0.0001234568");
        assert_eq!(text_num(4e-9), "4e-9");
        assert_eq!(text_num(-1.23456789e-300), "-1.234568e-300");
        assert_eq!(text_vec(&[1.0, 6.123e-17]), "(1, 0)");
        assert_eq!(text_vec(&[1e-6, -2.5e-7, 1e-30]), "(1e-6, -2.5e-7, 0)");
        assert_eq!(text_vec(&[0.0, 0.0]), "(0, 0)");
    }
}
