//! Wavefront OBJ through [`tobj`] (faces triangulated as fans, every object and group
//! merged into one mesh, materials ignored). tobj reports parse errors without a
//! position, so the text is checked first, line by line, for what tobj would refuse
//! or accept wrongly: a `v` line without three finite numbers, an `f` line with fewer
//! than three corners or an index outside the vertices defined so far.

use super::MeshData;
use crate::error::{read_text, Error, Location};
use std::path::Path;

/// Reads the OBJ file at `path`.
///
/// # Errors
/// The file cannot be read, or an [`Error`] naming the line of a bad vertex or face.
pub fn read_obj(path: &Path) -> Result<MeshData, Error> {
    parse_obj(&read_text(path)?, path)
}

/// Parses OBJ `text`; `path` names it in the messages.
///
/// # Errors
/// As [`read_obj`].
pub fn parse_obj(text: &str, path: &Path) -> Result<MeshData, Error> {
    let vertex_lines =
        check_lines(text).map_err(|(line, msg)| Error::new(path, Location::line(line), msg))?;
    let options = tobj::LoadOptions {
        triangulate: true,
        single_index: false,
        ignore_points: true,
        ignore_lines: true,
    };
    let (models, _materials) = tobj::load_obj_buf(&mut text.as_bytes(), &options, |_| {
        Err(tobj::LoadError::OpenFileFailed)
    })
    .map_err(|e| Error::file(path, format!("OBJ: {e}")))?;
    let mut mesh = MeshData::default();
    for model in &models {
        let base = mesh.vertices.len() as u32;
        let p = &model.mesh.positions;
        mesh.vertices.extend(
            p.chunks_exact(3)
                .map(|c| [f64::from(c[0]), f64::from(c[1]), f64::from(c[2])]),
        );
        mesh.triangles.extend(
            model
                .mesh
                .indices
                .chunks_exact(3)
                .map(|t| [base + t[0], base + t[1], base + t[2]]),
        );
    }
    // tobj keeps each model's vertices in file order, so with one model the vertex
    // index is the `v` statement's; with several the line is not known.
    if models.len() == 1 && mesh.vertices.len() == vertex_lines.len() {
        mesh.vertex_locations = vertex_lines.into_iter().map(Location::line).collect();
    }
    Ok(mesh)
}

/// The line (from 1) of every `v` statement, or the first bad line and why.
fn check_lines(text: &str) -> Result<Vec<usize>, (usize, String)> {
    let mut vertex_lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut tokens = line.split_whitespace();
        match tokens.next() {
            Some("v") => {
                check_vertex(tokens).map_err(|msg| (i + 1, msg))?;
                vertex_lines.push(i + 1);
            }
            Some("f") => check_face(tokens, vertex_lines.len()).map_err(|msg| (i + 1, msg))?,
            _ => {}
        }
    }
    Ok(vertex_lines)
}

/// Three finite coordinates (a fourth, the weight, is allowed).
fn check_vertex<'a>(tokens: impl Iterator<Item = &'a str>) -> Result<(), String> {
    let coords: Vec<&str> = tokens.take(3).collect();
    if coords.len() < 3 {
        return Err(format!("vertex has {} coordinates, needs 3", coords.len()));
    }
    for (axis, c) in coords.iter().enumerate() {
        match c.parse::<f64>() {
            Ok(x) if x.is_finite() => {}
            Ok(_) => return Err(format!("vertex coordinate {axis} is `{c}`, not finite")),
            Err(_) => return Err(format!("vertex coordinate {axis} is `{c}`, not a number")),
        }
    }
    Ok(())
}

/// At least three corners, each naming a vertex defined before the face (1-based, or
/// negative counting back from the last).
fn check_face<'a>(tokens: impl Iterator<Item = &'a str>, defined: usize) -> Result<(), String> {
    let corners: Vec<&str> = tokens.collect();
    if corners.len() < 3 {
        return Err(format!(
            "face has {} corners, needs at least 3",
            corners.len()
        ));
    }
    for c in corners {
        let first = c.split('/').next().unwrap_or_default();
        let index: i64 = first
            .parse()
            .map_err(|_| format!("face corner `{c}` does not start with a vertex index"))?;
        let n = defined as i64;
        if index == 0 || index > n || index < -n {
            return Err(format!(
                "face corner `{c}` names vertex {index}, but {defined} vertices are defined before it"
            ));
        }
    }
    Ok(())
}
