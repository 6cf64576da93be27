//! Triangle meshes from files: Wavefront OBJ ([`tobj`]), STL ASCII and binary
//! ([`stl_io`]) and glTF 2.0 ([`gltf`](::gltf)), each behind its feature, read into plain
//! [`MeshData`] and built into the library's [`TriMesh`] through its validating
//! constructor. Errors name the file and where in it the problem is (the OBJ line,
//! the STL facet, the glTF mesh and primitive, the vertex), never panic on a
//! truncated or malformed file.

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
use std::path::Path;

/// A mesh as read from a file: vertices (in `f64`, as the file gives them, widened
/// from `f32` where the format stores that) and triangles as vertex index triples.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshData {
    /// Vertex positions.
    pub vertices: Vec<[f64; 3]>,
    /// Triangles, indices into `vertices`.
    pub triangles: Vec<[u32; 3]>,
    /// Where each vertex was read (its OBJ line, STL facet, glTF mesh and primitive),
    /// for the messages; empty when unknown.
    pub vertex_locations: Vec<Location>,
}

impl MeshData {
    /// The [`TriMesh`] of this data in precision `R`, through [`TriMesh::new`].
    ///
    /// # Errors
    /// The constructor's [`ShapeError`] as an [`Error`] naming `path` and, where the
    /// error names a vertex or triangle, its location.
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
            .map_err(|e| Error::new(path, self.locate(&e), e.to_string()))
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
