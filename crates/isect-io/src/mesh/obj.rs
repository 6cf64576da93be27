//! Wavefront OBJ through [`tobj`] (faces triangulated as fans, every object and group
//! merged into one mesh, materials ignored). tobj gives each object its own copy of
//! the vertices it uses; copies equal bit for bit are welded back into one vertex, so
//! that objects sharing vertices form one connected (possibly closed) surface. tobj reports parse errors without a
//! position, so the text is checked first, line by line, for what tobj would refuse
//! or accept wrongly: a `v` line without three finite numbers, an `f` line with fewer
//! than three corners or an index outside the vertices defined so far.

use super::MeshData;
use crate::error::{read_text, Error, Location};
use std::collections::HashMap;
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
    let mut welded: HashMap<[u32; 3], u32> = HashMap::new();
    for model in &models {
        let ids: Vec<u32> = model
            .mesh
            .positions
            .chunks_exact(3)
            .map(|c| {
                let key = [c[0].to_bits(), c[1].to_bits(), c[2].to_bits()];
                *welded.entry(key).or_insert_with(|| {
                    mesh.vertices.push([c[0], c[1], c[2]].map(f64::from));
                    let line = vertex_lines.get(&key).copied();
                    mesh.vertex_locations
                        .push(line.map(Location::line).unwrap_or_default());
                    (mesh.vertices.len() - 1) as u32
                })
            })
            .collect();
        let corners = model.mesh.indices.iter().map(|&i| ids[i as usize]);
        let corners: Vec<u32> = corners.collect();
        mesh.triangles
            .extend(corners.chunks_exact(3).map(|t| [t[0], t[1], t[2]]));
    }
    Ok(mesh)
}

/// The first line (from 1) of each vertex position (as tobj reads it, in `f32`, bit
/// for bit), or the first bad line and why.
fn check_lines(text: &str) -> Result<HashMap<[u32; 3], usize>, (usize, String)> {
    let mut vertex_lines = HashMap::new();
    let mut defined = 0;
    for (i, line) in text.lines().enumerate() {
        let mut tokens = line.split_whitespace();
        match tokens.next() {
            Some("v") => {
                let p = check_vertex(tokens).map_err(|msg| (i + 1, msg))?;
                vertex_lines.entry(p.map(f32::to_bits)).or_insert(i + 1);
                defined += 1;
            }
            Some("f") => check_face(tokens, defined).map_err(|msg| (i + 1, msg))?,
            _ => {}
        }
    }
    Ok(vertex_lines)
}

/// Three finite coordinates (a fourth, the weight, is allowed), as `f32` like tobj.
fn check_vertex<'a>(tokens: impl Iterator<Item = &'a str>) -> Result<[f32; 3], String> {
    let coords: Vec<&str> = tokens.take(3).collect();
    if coords.len() < 3 {
        return Err(format!("vertex has {} coordinates, needs 3", coords.len()));
    }
    let mut p = [0.0f32; 3];
    for (axis, c) in coords.iter().enumerate() {
        p[axis] = match c.parse::<f32>() {
            Ok(x) if x.is_finite() => x,
            Ok(_) => {
                return Err(format!(
                    "vertex coordinate {axis} is `{c}`, not finite in f32"
                ))
            }
            Err(_) => return Err(format!("vertex coordinate {axis} is `{c}`, not a number")),
        };
    }
    Ok(p)
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
