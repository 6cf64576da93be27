//! Triangle meshes from files: Wavefront OBJ ([`tobj`], in `f64`), STL ASCII and
//! binary (read here) and glTF 2.0 ([`gltf`](::gltf)), each behind its feature, read
//! into plain [`MeshData`] and built into the library's [`TriMesh`] through its
//! validating constructor. Every reader merges vertices at the same position (`-0`
//! and `0` alike). Errors name the file and where in it the problem is (the OBJ line,
//! the STL facet and line, the glTF node, mesh and primitive, the vertex, the
//! triangle), never panic or hang on a truncated or malformed file.

#[cfg(feature = "gltf")]
mod gltf;
#[cfg(feature = "obj")]
mod obj;
#[cfg(feature = "stl")]
mod stl;

#[cfg(feature = "gltf")]
pub use self::gltf::{parse_gltf, read_gltf};
#[cfg(feature = "obj")]
pub use self::obj::{parse_obj, read_obj};
#[cfg(feature = "stl")]
pub use self::stl::{parse_stl, read_stl};

use crate::error::{Error, Location};
use isect::math::{Real, Vector};
use isect::shape::{ShapeError, TriMesh, TriMeshFlags};
#[cfg(any(feature = "obj", feature = "stl", feature = "gltf"))]
use std::collections::HashMap;
use std::path::Path;

/// A mesh as read from a file: vertices (in `f64`, as the file gives them, widened
/// from `f32` where the format stores that) and triangles as vertex index triples.
/// Every reader merges vertices at the same position (compared bit for bit, with
/// `-0` and `0` the same), so a closed surface written with separate vertices per
/// face, as exporters write it, becomes a connected (possibly closed) mesh.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshData {
    /// Vertex positions.
    pub vertices: Vec<[f64; 3]>,
    /// Triangles, indices into `vertices`.
    pub triangles: Vec<[u32; 3]>,
    /// Where each vertex was read (its OBJ line, STL facet, glTF mesh and primitive),
    /// for the messages; empty when unknown.
    pub vertex_locations: Vec<Location>,
    /// Where each triangle was read (its OBJ face line, STL facet, glTF node, mesh,
    /// primitive and triangle of the primitive), for the messages; empty when unknown.
    pub triangle_locations: Vec<Location>,
}

/// The key merging vertices: the bits of the position, `-0` read as `0`.
#[cfg(any(feature = "obj", feature = "stl", feature = "gltf"))]
pub(crate) fn position_key(p: [f64; 3]) -> [u64; 3] {
    // -0.0 + 0.0 is +0.0; every other value is unchanged.
    p.map(|c| (c + 0.0).to_bits())
}

/// Adds vertices to a [`MeshData`], merging those at the same position.
#[cfg(any(feature = "obj", feature = "stl", feature = "gltf"))]
#[derive(Default)]
pub(crate) struct Welder {
    index: HashMap<[u64; 3], u32>,
}

#[cfg(any(feature = "obj", feature = "stl", feature = "gltf"))]
impl Welder {
    /// The index of the vertex at `p` in `mesh`, added (with its location `at`) if
    /// it is the first at that position.
    pub(crate) fn add(
        &mut self,
        mesh: &mut MeshData,
        p: [f64; 3],
        at: impl FnOnce() -> Location,
    ) -> u32 {
        *self.index.entry(position_key(p)).or_insert_with(|| {
            mesh.vertices.push(p.map(|c| c + 0.0));
            mesh.vertex_locations.push(at());
            (mesh.vertices.len() - 1) as u32
        })
    }
}

impl MeshData {
    /// The [`TriMesh`] of this data in precision `R`, through [`TriMesh::new`].
    ///
    /// # Errors
    /// The constructor's [`ShapeError`] as an [`Error`] naming `path` and, where the
    /// error names a vertex or triangle, its location in the file (for an edge that
    /// is not closed, the triangle's location, and the edge's two vertices by their
    /// coordinates and locations).
    pub fn to_trimesh<R: Real>(
        &self,
        path: &Path,
        flags: TriMeshFlags,
    ) -> Result<TriMesh<R>, Error> {
        let vertices: Vec<R::V3> = self
            .vertices
            .iter()
            .map(|p| {
                R::V3::ZERO
                    .with(0, R::from_f64(p[0]))
                    .with(1, R::from_f64(p[1]))
                    .with(2, R::from_f64(p[2]))
            })
            .collect();
        TriMesh::new(vertices, self.triangles.clone(), flags)
            .map_err(|e| Error::new(path, self.locate(&e), self.explain(&e)))
    }

    /// Where the shape error `e` points in the file, as far as it names a vertex or a
    /// triangle.
    fn locate(&self, e: &ShapeError) -> Location {
        let vertex = match *e {
            ShapeError::NotFiniteAt { index, .. } => Some(index),
            ShapeError::TooLarge {
                index: Some(index), ..
            } => Some(index),
            _ => None,
        };
        let triangle = match *e {
            ShapeError::IndexOutOfRange { triangle, .. }
            | ShapeError::NotClosed { triangle, .. } => Some(triangle),
            _ => None,
        };
        if let Some(at) = triangle.and_then(|t| self.triangle_locations.get(t)) {
            return at.clone();
        }
        let mut at = vertex
            .and_then(|v| self.vertex_locations.get(v).cloned())
            .unwrap_or_default();
        if at.triangle.is_none() {
            at.triangle = triangle;
        }
        if at.vertex.is_none() && at.line.is_none() {
            at.vertex = vertex;
        }
        at
    }

    /// The message of `e`, with the edge of a [`ShapeError::NotClosed`] in the
    /// file's terms (the mesh's vertex indices are those after merging).
    fn explain(&self, e: &ShapeError) -> String {
        let ShapeError::NotClosed { edge, .. } = *e else {
            return e.to_string();
        };
        let vertex = |v: u32| {
            let Some(p) = self.vertices.get(v as usize) else {
                return format!("vertex {v}");
            };
            match self.vertex_locations.get(v as usize) {
                Some(at) if !at.is_empty() => format!("({}, {}, {}) ({at})", p[0], p[1], p[2]),
                _ => format!("({}, {}, {})", p[0], p[1], p[2]),
            }
        };
        format!(
            "{e}; in the file, the edge from {} to {}",
            vertex(edge[0]),
            vertex(edge[1])
        )
    }
}

/// Reads the mesh file at `path`, its format from its extension (`obj`, `stl`,
/// `gltf`, `glb`, any case).
///
/// # Errors
/// An unknown extension, a format whose feature is off, or the reader's error.
pub fn read_mesh(path: &Path) -> Result<MeshData, Error> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    match ext.as_str() {
        #[cfg(feature = "obj")]
        "obj" => read_obj(path),
        #[cfg(feature = "stl")]
        "stl" => read_stl(path),
        #[cfg(feature = "gltf")]
        "gltf" | "glb" => read_gltf(path),
        _ => Err(Error::file(
            path,
            format!(
                "unknown mesh format `.{ext}`: this build reads {}",
                MESH_FORMATS.join(", ")
            ),
        )),
    }
}

/// The mesh extensions of this build.
const MESH_FORMATS: &[&str] = &[
    #[cfg(feature = "obj")]
    ".obj",
    #[cfg(feature = "stl")]
    ".stl",
    #[cfg(feature = "gltf")]
    ".gltf, .glb",
];

/// Reads the mesh file at `path` (as [`read_mesh`]) into a [`TriMesh`] of precision `R`.
///
/// # Errors
/// As [`read_mesh`] and [`MeshData::to_trimesh`].
pub fn load_trimesh<R: Real>(path: &Path, flags: TriMeshFlags) -> Result<TriMesh<R>, Error> {
    read_mesh(path)?.to_trimesh(path, flags)
}
