//! [`AnyShape`]: any 2D shape, convex or composite, for worlds and scenes that mix
//! them (parry's `SharedShape` plays this role). Composite kinds are held in an
//! `Arc`. To add a composite kind, add one line to the list below.

use super::any_shape::any_shape;
use crate::math::Pose2;
use crate::shape::heightfield_2d::HeightField;
use crate::shape::shape_2d::Shape;
use crate::shape::{Compound, ConcavePolygon, Polyline};

any_shape! {
    /// Any 2D shape: a convex [`Shape`] or a composite (compound, concave polygon, polyline, heightfield). Every pair of
    /// kinds answers every query through [`crate::query::dispatch`]; swapping A and B
    /// mirrors the answer.
    #[cfg_attr(
        feature = "serde",
        derive(serde::Serialize, serde::Deserialize),
        serde(bound = "R: crate::serial::SerdeReal, R::V2: crate::algo::gjk::GjkVector<Pose = Pose2<R>>")
    )]
    AnyShape<R> over R::V2, pose Pose2<R>, convex Shape<R>;
    manifolds example "```
use isect::d2::*;

# fn main() -> Result<(), ShapeError> {
// A unit square (a convex polygon) resting 0.1 deep on a two-segment floor
// (a polyline), across the joint at x = 0: one manifold per floor segment.
let floor: AnyShape = Polyline::new(vec![Vec2::new(-5.0, 0.0), Vec2::ZERO, Vec2::new(5.0, 0.0)], false)?.into();
let square: AnyShape = Shape::Cuboid(Aabb::new(Vec2::splat(-0.5), Vec2::splat(0.5))?).into();
let at = Pose::from_translation(Vec2::new(0.0, 0.4));
let ms = AnyShape::contact_manifolds(&Pose::IDENTITY, &floor, &at, &square, 0.0);
let parts: Vec<Option<u32>> = ms.iter().map(|m| m.part_a).collect();
assert_eq!(parts, [Some(0), Some(1)]);
assert!(ms.iter().all(|m| (m.manifold.max_depth() - 0.1).abs() < 1e-5));
# Ok(())
# }
```";
    /// Convex parts with poses ([`Compound`]).
    Compound(Compound<R::V2, Shape<R>>),
    /// A simple polygon, possibly concave and with holes ([`ConcavePolygon`]).
    ConcavePolygon(ConcavePolygon<R>),
    /// A chain or soup of segments ([`Polyline`]).
    Polyline(Polyline<R>),
    /// A heightfield ([`HeightField`]).
    HeightField(HeightField<R>),
}
