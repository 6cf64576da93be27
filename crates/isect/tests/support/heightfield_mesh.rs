//! A 3D heightfield's surface as a `TriMesh` of the same triangles, in the same order
//! (triangle `i` of the mesh is the field's triangle `i`): the reference its queries
//! are checked against.

use isect::math::Real;
use isect::shape::heightfield_3d::HeightField;
use isect::shape::{TriMesh, TriMeshFlags};

/// The same surface as a TriMesh built from the heightfield's own triangles (same
/// indices).
pub fn as_mesh<R: Real>(hf: &HeightField<R>) -> TriMesh<R> {
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    for i in 0..hf.triangle_count() {
        let t = hf.triangle(i).unwrap();
        let k = vertices.len() as u32;
        vertices.extend([t.a, t.b, t.c]);
        indices.push([k, k + 1, k + 2]);
    }
    TriMesh::new(vertices, indices, TriMeshFlags::OPEN).unwrap()
}
