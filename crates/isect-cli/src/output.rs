//! Writing results: numbers for JSON and text, and output files written to a
//! temporary name in the same folder and renamed, so none is ever half-written.

use crate::error::CliError;
use std::io::Write;
use std::path::Path;

/// `(x, y[, z])` with up to 6 significant decimals, for text output.
pub fn text_vec(c: &[f64]) -> String {
    let parts: Vec<String> = c.iter().map(|x| text_num(*x)).collect();
    format!("({})", parts.join(", "))
}

/// A number rounded to 6 decimals, without trailing zeros (`-0` printed as `0`).
pub fn text_num(x: f64) -> String {
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
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
