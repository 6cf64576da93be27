//! Wavefront OBJ through [`tobj`] (faces triangulated as fans, every object and group
//! merged into one mesh, materials, texture coordinates and normals ignored).
//! Coordinates are parsed in `f64` (tobj's `use_f64` feature), so an `f64` scene keeps
//! them as written (`1000000.01` stays apart from `1000000`); an `f32` mesh rounds
//! them when it is built. Vertices at the same position (bit for bit, `-0` and `0`
//! the same) are merged, so that objects sharing vertices, or faces written with
//! their own copies of them, form one connected (possibly closed) surface.
//!
//! tobj reports errors without a position, and accepts some input wrongly (a polyline
//! `l` of three points becomes a triangle; a texture coordinate index of 0 overflows),
//! so every line is checked first, and errors name the line and quote it: a `v` line
//! needs three finite numbers, then nothing, a non-zero weight `w` (which divides
//! them, as tobj does) or three colour values; `vt` needs two numbers and `vn` three;
//! an `f` line needs three or more corners `v`, `v/vt`, `v//vn` or `v/vt/vn` whose
//! indices name an element defined before the face (from 1, or negative counting back
//! from the last). A `#` starts a comment to the end of the line, and a line ending
//! in `\` continues on the next (errors name its first line). tobj then reads only
//! the `v`, `vt`, `vn` and `f` statements (others, such as `o`, `g`, `l`, `usemtl`,
//! are ignored), so it cannot refuse what was checked. Errors about the built mesh
//! name the line of the face (a triangle) or of the vertex.

use super::{position_key, MeshData, Welder};
use crate::error::{read_text, Error, Location};
use std::collections::HashMap;
use std::path::Path;

/// Reads the OBJ file at `path`.
///
/// # Errors
/// The file cannot be read, or an [`Error`] naming the line of a bad statement.
pub fn read_obj(path: &Path) -> Result<MeshData, Error> {
    parse_obj(&read_text(path)?, path)
}

/// How tobj reads the checked text.
const OPTIONS: tobj::LoadOptions = tobj::LoadOptions {
    triangulate: true,
    single_index: false,
    ignore_points: true,
    ignore_lines: true,
};

/// Parses OBJ `text`; `path` names it in the messages.
///
/// # Errors
/// As [`read_obj`].
pub fn parse_obj(text: &str, path: &Path) -> Result<MeshData, Error> {
    let text = crate::error::strip_bom(text);
    let checked = check_lines(text).map_err(|(line, statement, msg)| {
        Error::new(
            path,
            Location::line(line),
            format!("{msg}: `{}`", quote(&statement)),
        )
    })?;
    let (models, _materials) = load(&checked.text).map_err(|e| {
        // Not expected (the lines were checked for everything tobj refuses); the
        // smallest failing prefix of the text gives the line.
        match first_failing_line(&checked.text) {
            Some(line) => {
                let statement = text.lines().nth(line - 1).unwrap_or_default();
                let msg = format!("OBJ: {e}: `{}`", quote(statement));
                Error::new(path, Location::line(line), msg)
            }
            None => Error::file(path, format!("OBJ: {e}")),
        }
    })?;
    let mut mesh = MeshData::default();
    let mut welder = Welder::default();
    for model in &models {
        let ids: Vec<u32> = model
            .mesh
            .positions
            .chunks_exact(3)
            .map(|c| {
                let p = [c[0], c[1], c[2]];
                welder.add(&mut mesh, p, || {
                    let line = checked.vertex_lines.get(&position_key(p));
                    line.map(|&l| Location::line(l)).unwrap_or_default()
                })
            })
            .collect();
        let corners: Vec<u32> = model
            .mesh
            .indices
            .iter()
            .map(|&i| ids[i as usize])
            .collect();
        mesh.triangles
            .extend(corners.chunks_exact(3).map(|t| [t[0], t[1], t[2]]));
    }
    if mesh.triangles.len() == checked.triangle_lines.len() {
        mesh.triangle_locations = checked
            .triangle_lines
            .iter()
            .map(|&l| Location::line(l))
            .collect();
    }
    Ok(mesh)
}

/// tobj's reading of `text` (no material file is opened).
fn load(text: &str) -> tobj::LoadResult {
    tobj::load_obj_buf(&mut text.as_bytes(), &OPTIONS, |_| {
        Err(tobj::LoadError::OpenFileFailed)
    })
}

/// The first line (from 1) of `text` whose prefix tobj refuses, if tobj refuses it.
fn first_failing_line(text: &str) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let fails = |k: usize| load(&lines[..k].join("\n")).is_err();
    if !fails(lines.len()) {
        return None;
    }
    // fails(lo) is false (no lines), fails(hi) true.
    let (mut lo, mut hi) = (0, lines.len());
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if fails(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// A statement for a message: trimmed, long ones cut.
fn quote(statement: &str) -> String {
    const MAX: usize = 80;
    let s = statement.trim();
    match s.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &s[..cut]),
        None => s.to_string(),
    }
}

/// The checked file: the text tobj reads (the same lines, holding only checked `v`,
/// `vt`, `vn` and `f` statements), where each vertex position was first defined, and
/// the line of each triangle.
struct Checked {
    text: String,
    vertex_lines: HashMap<[u64; 3], usize>,
    triangle_lines: Vec<usize>,
}

/// Elements defined so far, for the face indices.
#[derive(Default)]
struct Defined {
    vertices: usize,
    texcoords: usize,
    normals: usize,
}

/// Checks every statement of `text`; the first bad one's line (from 1), text and
/// what is wrong with it.
fn check_lines(text: &str) -> Result<Checked, (usize, String, String)> {
    let mut out: Vec<String> = Vec::new();
    let mut vertex_lines = HashMap::new();
    let mut triangle_lines = Vec::new();
    let mut defined = Defined::default();
    // A statement continued with `\`: its first line and text so far.
    let mut pending: Option<(usize, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        // One line of `out` for each of `text`; a statement goes on its first line.
        out.push(String::new());
        let content = raw.split('#').next().unwrap_or_default();
        let (first, mut statement) = pending.take().unwrap_or((i + 1, String::new()));
        if let Some(part) = content.trim_end().strip_suffix('\\') {
            statement.push_str(part);
            statement.push(' ');
            pending = Some((first, statement));
            continue;
        }
        statement.push_str(content);
        let checked = check_statement(&statement, &mut defined)
            .map_err(|msg| (first, statement.clone(), msg))?;
        out[first - 1] = match checked {
            Statement::Vertex(p, kept) => {
                vertex_lines.entry(position_key(p)).or_insert(first);
                kept
            }
            Statement::Face(corners) => {
                triangle_lines.extend(std::iter::repeat_n(first, corners - 2));
                statement.trim().to_string()
            }
            Statement::Keep => statement.trim().to_string(),
            Statement::Ignore => String::new(),
        };
    }
    if let Some((first, statement)) = pending {
        let msg = "the file ends inside a statement continued with `\\`".to_string();
        return Err((first, statement, msg));
    }
    Ok(Checked {
        text: out.join("\n"),
        vertex_lines,
        triangle_lines,
    })
}

/// What a checked statement is for tobj.
enum Statement {
    /// A vertex at this position (after its weight), and the statement tobj reads.
    Vertex([f64; 3], String),
    /// A face of this many corners.
    Face(usize),
    /// Kept as written (`vt`, `vn`).
    Keep,
    /// Not read.
    Ignore,
}

/// Checks one statement (comments and continuations removed).
fn check_statement(statement: &str, defined: &mut Defined) -> Result<Statement, String> {
    let mut tokens = statement.split_whitespace();
    match tokens.next() {
        Some("v") => {
            let values: Vec<&str> = tokens.collect();
            let p = check_vertex(&values)?;
            defined.vertices += 1;
            // Colour values are dropped: tobj would refuse a face using a vertex
            // without colour once any vertex has one.
            let kept = if values.len() == 6 {
                &values[..3]
            } else {
                &values[..]
            };
            Ok(Statement::Vertex(p, format!("v {}", kept.join(" "))))
        }
        Some("vt") => {
            check_numbers(tokens, 2, "texture coordinate")?;
            defined.texcoords += 1;
            Ok(Statement::Keep)
        }
        Some("vn") => {
            check_numbers(tokens, 3, "normal")?;
            defined.normals += 1;
            Ok(Statement::Keep)
        }
        Some("f") => check_face(tokens, defined).map(Statement::Face),
        _ => Ok(Statement::Ignore),
    }
}

/// The first `n` tokens are numbers (more are allowed, as tobj reads them).
fn check_numbers<'a>(
    tokens: impl Iterator<Item = &'a str>,
    n: usize,
    what: &str,
) -> Result<(), String> {
    let values: Vec<&str> = tokens.take(n).collect();
    if values.len() < n {
        return Err(format!("{what} has {} values, needs {n}", values.len()));
    }
    for (axis, c) in values.iter().enumerate() {
        if c.parse::<f64>().is_err() {
            return Err(format!("{what} value {axis} is `{c}`, not a number"));
        }
    }
    Ok(())
}

/// Three finite coordinates, then nothing, a weight `w` (the coordinates divided by
/// it, as tobj does) or three colour values; the position.
fn check_vertex(values: &[&str]) -> Result<[f64; 3], String> {
    if values.len() < 3 {
        return Err(format!("vertex has {} coordinates, needs 3", values.len()));
    }
    let mut p = [0.0f64; 3];
    for (axis, c) in values[..3].iter().enumerate() {
        p[axis] = match c.parse::<f64>() {
            Ok(x) if x.is_finite() => x,
            Ok(_) => {
                return Err(format!(
                    "vertex coordinate {axis} is `{c}`, not finite in f32 or f64"
                ))
            }
            Err(_) => return Err(format!("vertex coordinate {axis} is `{c}`, not a number")),
        };
    }
    match values.len() {
        3 => Ok(p),
        4 => {
            let w_text = values[3];
            let w: f64 = w_text
                .parse()
                .map_err(|_| format!("vertex weight w is `{w_text}`, not a number"))?;
            if w == 0.0 {
                return Err(format!(
                    "vertex weight w is `{w_text}`: the coordinates are divided by w, which must not be 0"
                ));
            }
            let q = p.map(|c| c / w);
            if !q.iter().all(|c| c.is_finite()) {
                return Err(format!(
                    "vertex divided by its weight w = `{w_text}` is {q:?}, not finite"
                ));
            }
            Ok(q)
        }
        6 => {
            for (k, c) in values[3..].iter().enumerate() {
                if c.parse::<f64>().is_err() {
                    return Err(format!("vertex colour value {k} is `{c}`, not a number"));
                }
            }
            Ok(p)
        }
        n => Err(format!(
            "vertex has {n} values: 3 coordinates, then none, a weight w or 3 colour values"
        )),
    }
}

/// At least three corners, each naming a vertex (and texture coordinate and normal,
/// where given) defined before the face (from 1, or negative counting back from the
/// last); the number of corners.
fn check_face<'a>(
    tokens: impl Iterator<Item = &'a str>,
    defined: &Defined,
) -> Result<usize, String> {
    let corners: Vec<&str> = tokens.collect();
    if corners.len() < 3 {
        return Err(format!(
            "face has {} corners, needs at least 3",
            corners.len()
        ));
    }
    for c in &corners {
        let parts: Vec<&str> = c.split('/').collect();
        if parts.iter().skip(3).any(|p| !p.is_empty()) {
            return Err(format!(
                "face corner `{c}` has more than 3 indices (vertex/texture coordinate/normal)"
            ));
        }
        let index: i64 = parts[0]
            .parse()
            .map_err(|_| format!("face corner `{c}` does not start with a vertex index"))?;
        let n = defined.vertices as i64;
        if index == 0 || index > n || index < -n {
            return Err(format!(
                "face corner `{c}` names vertex {index}, but {} vertices are defined before it",
                defined.vertices
            ));
        }
        for (part, what, count) in [
            (1, "texture coordinate", defined.texcoords),
            (2, "normal", defined.normals),
        ] {
            let Some(text) = parts.get(part).filter(|t| !t.is_empty()) else {
                continue;
            };
            let index: i64 = text
                .parse()
                .map_err(|_| format!("face corner `{c}`: {what} index `{text}` is not a number"))?;
            let n = count as i64;
            if index == 0 || index > n || index < -n {
                return Err(format!(
                    "face corner `{c}` names {what} {index}, but {count} are defined before it"
                ));
            }
        }
    }
    Ok(corners.len())
}
