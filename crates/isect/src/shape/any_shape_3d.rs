//! [`AnyShape`]: any 3D shape, convex or composite, for worlds and scenes that mix
//! them (parry's `SharedShape` plays this role). Composite kinds are held in an
//! `Arc`. To add a composite kind, add one line to the list below.

use super::any_shape::any_shape;
use crate::math::Pose3;
use crate::shape::heightfield_3d::HeightField;
use crate::shape::shape_3d::Shape;
use crate::shape::{Compound, TriMesh};

any_shape! {
    /// Any 3D shape: a convex [`Shape`] or a composite (compound, ...). Every pair of
    /// kinds answers every query through [`crate::query::dispatch`]; swapping A and B
    /// mirrors the answer.
    #[cfg_attr(
        feature = "serde",
        derive(serde::Serialize, serde::Deserialize),
        serde(bound = "R: crate::serial::SerdeReal, R::V3: crate::algo::gjk::GjkVector<Pose = Pose3<R>>")
    )]
    AnyShape<R> over R::V3, pose Pose3<R>, convex Shape<R>;
    manifolds example "```
use isect::d3::*;

# fn main() -> Result<(), ShapeError> {
// A unit cube resting 0.1 deep on a floor of two triangles, across their shared
// diagonal: one manifold per floor triangle.
let corners = [(-5.0, -5.0), (5.0, -5.0), (5.0, 5.0), (-5.0, 5.0)].map(|(x, z)| Vec3::new(x, 0.0, z));
let floor: AnyShape = TriMesh::new(corners.to_vec(), vec![[0, 2, 1], [0, 3, 2]], TriMeshFlags::OPEN)?.into();
let cube: AnyShape = Shape::Cuboid(Aabb::new(Vec3::splat(-0.5), Vec3::splat(0.5))?).into();
let at = Pose::from_translation(Vec3::new(0.0, 0.4, 0.0));
let ms = AnyShape::contact_manifolds(&Pose::IDENTITY, &floor, &at, &cube, 0.0);
let parts: Vec<Option<u32>> = ms.iter().map(|m| m.part_a).collect();
assert_eq!(parts, [Some(0), Some(1)]);
assert!(ms.iter().all(|m| (m.manifold.max_depth() - 0.1).abs() < 1e-5));
# Ok(())
# }
```";
    /// Convex parts with poses ([`Compound`]).
    Compound(Compound<R::V3, Shape<R>>),
    /// A triangle mesh ([`TriMesh`]), open or solid.
    TriMesh(TriMesh<R>),
    /// A heightfield ([`HeightField`]).
    HeightField(HeightField<R>),
}
