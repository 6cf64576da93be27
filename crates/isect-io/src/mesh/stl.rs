//! STL, ASCII or binary. Vertices at the same position are merged (`-0` and `0` are
//! the same position), so a closed surface becomes a connected mesh (a solid
//! [`TriMesh`](isect::shape::TriMesh) needs shared edges).
//!
//! The two forms are told apart by size first: a binary file is an 80-byte header,
//! a triangle count `n` and `n` records of 50 bytes, so a file of exactly
//! `84 + 50·n` bytes is binary, whatever its header says (many binary headers start
//! with `solid`). Otherwise a file starting with `solid` (any case, after an
//! optional byte order mark and white space) followed by white space or its end,
//! and holding no NUL byte, is ASCII; any other file is a binary one whose size
//! disagrees with its count, refused with both numbers.
//!
//! ASCII keywords are read in any case, the solid's name may be missing, and every
//! `solid … endsolid` of the file is read, in order. ASCII coordinates are read in
//! `f64` as written, binary ones are `f32` widened. Errors name the facet (and the
//! line of an ASCII file).

use super::{MeshData, Welder};
use crate::error::{read_bytes, Error, Location};
use std::path::Path;

/// Bytes of a binary STL header (80) and triangle count (4).
const HEADER: u64 = 84;
/// Bytes of a binary STL triangle record: normal, three corners, attribute count.
const RECORD: u64 = 50;

/// Reads the STL file at `path`.
///
/// # Errors
/// The file cannot be read, is truncated or malformed (naming the facet and, for
/// ASCII, the line), is binary with a size that disagrees with its triangle count,
/// or holds a NaN or infinite coordinate (naming the facet and its corner).
pub fn read_stl(path: &Path) -> Result<MeshData, Error> {
    parse_stl(&read_bytes(path)?, path)
}

/// Parses STL `bytes`; `path` names them in the messages.
///
/// # Errors
/// As [`read_stl`].
pub fn parse_stl(bytes: &[u8], path: &Path) -> Result<MeshData, Error> {
    let count = bytes
        .get(80..84)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    let expected = count.map(|n| HEADER + RECORD * u64::from(n));
    if expected == Some(bytes.len() as u64) {
        return parse_binary(bytes, path);
    }
    let ascii = starts_with_solid(bytes);
    if ascii && !bytes.contains(&0) {
        return parse_ascii(&String::from_utf8_lossy(bytes), path);
    }
    let len = bytes.len() as u64;
    let hint = if ascii {
        " (it starts with `solid` but holds binary data: a binary STL whose header starts with `solid`)"
    } else {
        ""
    };
    let (Some(n), Some(expected)) = (count, expected) else {
        return Err(Error::file(
            path,
            format!(
                "STL: {len} bytes: too short for a binary STL (an 84-byte header) and not \
                 ASCII (which starts with `solid`){hint}"
            ),
        ));
    };
    let triangles = if n == 1 { "triangle" } else { "triangles" };
    let says = format!(
        "the header says {n} {triangles} (84 + 50·{n} = {expected} bytes), the file has {len} bytes"
    );
    if len < expected {
        let facet = ((len - HEADER) / RECORD) as usize;
        let where_ = if (len - HEADER) % RECORD == 0 {
            "before"
        } else {
            "inside"
        };
        let at = Location {
            triangle: Some(facet),
            ..Location::default()
        };
        Err(Error::new(
            path,
            at,
            format!("STL: the file ends {where_} this facet (truncated): {says}{hint}"),
        ))
    } else {
        let extra = len - expected;
        Err(Error::file(
            path,
            format!("STL: {says}, {extra} more: the count or the file is wrong{hint}"),
        ))
    }
}

/// Whether `bytes` start as an ASCII STL: `solid` in any case (after an optional
/// UTF-8 byte order mark and white space), then white space or the end.
fn starts_with_solid(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    let rest = &bytes[start..];
    rest.len() >= 5
        && rest[..5].eq_ignore_ascii_case(b"solid")
        && rest.get(5).is_none_or(|b| b.is_ascii_whitespace())
}

/// The triangles of a binary STL whose size matches its count.
fn parse_binary(bytes: &[u8], path: &Path) -> Result<MeshData, Error> {
    let mut mesh = MeshData::default();
    let mut welder = Welder::default();
    for (facet, record) in bytes[HEADER as usize..]
        .chunks_exact(RECORD as usize)
        .enumerate()
    {
        let at = |vertex: Option<usize>| Location {
            triangle: Some(facet),
            vertex,
            ..Location::default()
        };
        let f = |i: usize| {
            let b = &record[i * 4..i * 4 + 4];
            f32::from_le_bytes([b[0], b[1], b[2], b[3]])
        };
        let mut corners = [0u32; 3];
        for (k, corner) in corners.iter_mut().enumerate() {
            let v = [f(3 + 3 * k), f(4 + 3 * k), f(5 + 3 * k)];
            if !v.iter().all(|c| c.is_finite()) {
                let msg = format!("corner {k} is {v:?}, not finite");
                return Err(Error::new(path, at(Some(k)), msg));
            }
            *corner = welder.add(&mut mesh, v.map(f64::from), || at(Some(k)));
        }
        mesh.triangles.push(corners);
        mesh.triangle_locations.push(at(None));
    }
    Ok(mesh)
}

/// The words of a text with their lines (from 1), read as they are asked for.
struct Words<'a> {
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    /// The line of `current`.
    line: usize,
    current: std::str::SplitWhitespace<'a>,
    peeked: Option<(usize, &'a str)>,
    /// The line of the last word taken.
    last: usize,
}

impl<'a> Words<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            lines: text.lines().enumerate(),
            line: 0,
            current: "".split_whitespace(),
            peeked: None,
            last: 1,
        }
    }

    /// The next word of the text.
    fn read(&mut self) -> Option<(usize, &'a str)> {
        loop {
            if let Some(w) = self.current.next() {
                return Some((self.line, w));
            }
            let (i, line) = self.lines.next()?;
            self.line = i + 1;
            self.current = line.split_whitespace();
        }
    }

    /// The next word and its line, without taking it.
    fn peek(&mut self) -> Option<(usize, &'a str)> {
        if self.peeked.is_none() {
            self.peeked = self.read();
        }
        self.peeked
    }

    /// Takes the next word.
    fn take(&mut self) -> Option<(usize, &'a str)> {
        let w = self.peeked.take().or_else(|| self.read())?;
        self.last = w.0;
        Some(w)
    }

    /// Skips the rest of line `line`.
    fn skip_line(&mut self, line: usize) {
        while self.peek().is_some_and(|(l, _)| l == line) {
            self.take();
        }
    }

    /// The line of the last word taken (for an error at the end of the file).
    fn last_line(&self) -> usize {
        self.last
    }
}

/// The triangles of every `solid … endsolid` of an ASCII STL.
fn parse_ascii(text: &str, path: &Path) -> Result<MeshData, Error> {
    let text = crate::error::strip_bom(text);
    let mut words = Words::new(text);
    let mut mesh = MeshData::default();
    let mut welder = Welder::default();
    let fail = |line: usize, facet: Option<usize>, msg: String| {
        let at = Location {
            line: Some(line),
            triangle: facet,
            ..Location::default()
        };
        Error::new(path, at, format!("STL: {msg}"))
    };
    while let Some((line, word)) = words.take() {
        if !word.eq_ignore_ascii_case("solid") {
            let msg = format!("expected `solid` (or the end of the file), found `{word}`");
            return Err(fail(line, None, msg));
        }
        // The solid's name is the rest of its line.
        words.skip_line(line);
        loop {
            let facet = mesh.triangles.len();
            let Some((line, word)) = words.take() else {
                let msg = "the file ends before `endsolid` (truncated)".to_string();
                return Err(fail(words.last_line(), Some(facet), msg));
            };
            if word.eq_ignore_ascii_case("endsolid") {
                words.skip_line(line);
                break;
            }
            if !word.eq_ignore_ascii_case("facet") {
                let msg = format!("expected `facet` or `endsolid`, found `{word}`");
                return Err(fail(line, Some(facet), msg));
            }
            let (vertices, lines) = read_facet(&mut words)
                .map_err(|(l, msg)| fail(l.unwrap_or(words.last_line()), Some(facet), msg))?;
            let mut corners = [0u32; 3];
            for (k, corner) in corners.iter_mut().enumerate() {
                let at = Location {
                    line: Some(lines[k]),
                    triangle: Some(facet),
                    vertex: Some(k),
                    ..Location::default()
                };
                if !vertices[k].iter().all(|c| c.is_finite()) {
                    let msg = format!("corner {k} is {:?}, not finite", vertices[k]);
                    return Err(Error::new(path, at, msg));
                }
                *corner = welder.add(&mut mesh, vertices[k], || at);
            }
            mesh.triangles.push(corners);
            mesh.triangle_locations.push(Location {
                line: Some(line),
                triangle: Some(facet),
                ..Location::default()
            });
        }
    }
    Ok(mesh)
}

/// The three corners of a facet and their lines.
type Facet = ([[f64; 3]; 3], [usize; 3]);

/// After `facet`: `normal x y z`, `outer loop`, three `vertex x y z`, `endloop`,
/// `endfacet`; the three corners and their lines, or the line (none at the end of
/// the file) and what is wrong.
fn read_facet(words: &mut Words) -> Result<Facet, (Option<usize>, String)> {
    expect(words, "normal")?;
    // The normal is read (it must be three numbers) but not used: the winding gives it.
    read_numbers(words, "normal")?;
    expect(words, "outer")?;
    expect(words, "loop")?;
    let mut vertices = [[0.0; 3]; 3];
    let mut lines = [0; 3];
    for (k, v) in vertices.iter_mut().enumerate() {
        match words.take() {
            Some((l, w)) if w.eq_ignore_ascii_case("vertex") => lines[k] = l,
            Some((l, w)) => {
                let msg = format!("expected `vertex` (corner {k}), found `{w}`");
                return Err((Some(l), msg));
            }
            None => {
                let msg = format!("the file ends inside this facet, before corner {k} (truncated)");
                return Err((None, msg));
            }
        }
        *v = read_numbers(words, "vertex")?;
    }
    expect(words, "endloop")?;
    expect(words, "endfacet")?;
    Ok((vertices, lines))
}

/// The next word, which must be `keyword` (in any case).
fn expect(words: &mut Words, keyword: &str) -> Result<(), (Option<usize>, String)> {
    match words.take() {
        Some((_, w)) if w.eq_ignore_ascii_case(keyword) => Ok(()),
        Some((l, w)) => Err((Some(l), format!("expected `{keyword}`, found `{w}`"))),
        None => {
            let msg = format!("the file ends inside this facet, before `{keyword}` (truncated)");
            Err((None, msg))
        }
    }
}

/// Three numbers after a `normal` or `vertex` keyword.
fn read_numbers(words: &mut Words, what: &str) -> Result<[f64; 3], (Option<usize>, String)> {
    let mut p = [0.0; 3];
    for (axis, c) in p.iter_mut().enumerate() {
        let Some((l, w)) = words.take() else {
            let msg = format!("the file ends inside this facet, in a `{what}` (truncated)");
            return Err((None, msg));
        };
        *c = w.parse().map_err(|_| {
            let msg = format!("{what} coordinate {axis} is `{w}`, not a number");
            (Some(l), msg)
        })?;
    }
    Ok(p)
}
