//! STL, ASCII or binary, through [`stl_io`]'s triangle reader. Facets are read one by
//! one so that an error names its facet; vertices equal bit for bit are merged, so a
//! closed surface becomes a connected mesh (a solid [`TriMesh`](isect::shape::TriMesh)
//! needs shared edges).

use super::MeshData;
use crate::error::{read_bytes, Error, Location};
use std::collections::HashMap;
use std::io::Cursor;
use std::path::Path;

/// Reads the STL file at `path`.
///
/// # Errors
/// The file cannot be read, is truncated or malformed (naming the facet), or holds a
/// NaN or infinite coordinate (naming the facet and its corner).
pub fn read_stl(path: &Path) -> Result<MeshData, Error> {
    parse_stl(&read_bytes(path)?, path)
}

/// Parses STL `bytes`; `path` names them in the messages.
///
/// # Errors
/// As [`read_stl`].
pub fn parse_stl(bytes: &[u8], path: &Path) -> Result<MeshData, Error> {
    let mut cursor = Cursor::new(bytes);
    let reader = stl_io::create_stl_reader(&mut cursor)
        .map_err(|e| Error::file(path, format!("STL: {e}")))?;
    let mut mesh = MeshData::default();
    let mut index: HashMap<[u32; 3], u32> = HashMap::new();
    for (facet, triangle) in reader.enumerate() {
        let at = |vertex: Option<usize>| Location {
            triangle: Some(facet),
            vertex,
            ..Location::default()
        };
        let triangle = triangle.map_err(|e| Error::new(path, at(None), stl_message(&e)))?;
        let mut corners = [0u32; 3];
        for (k, v) in triangle.vertices.iter().enumerate() {
            if !v.0.iter().all(|c| c.is_finite()) {
                let msg = format!("corner {k} is {:?}, not finite", v.0);
                return Err(Error::new(path, at(Some(k)), msg));
            }
            let key = v.0.map(f32::to_bits);
            corners[k] = *index.entry(key).or_insert_with(|| {
                mesh.vertices.push(v.0.map(f64::from));
                mesh.vertex_locations.push(at(Some(k)));
                (mesh.vertices.len() - 1) as u32
            });
        }
        mesh.triangles.push(corners);
    }
    Ok(mesh)
}

/// The message of a facet that cannot be read: a truncated file says so.
fn stl_message(e: &std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        format!("STL: the file ends inside this facet (truncated): {e}")
    } else {
        format!("STL: {e}")
    }
}
