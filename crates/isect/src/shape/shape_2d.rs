//! [`Shape`]: every convex 2D shape in one enum, so that a collection (a world, a
//! scene file) can hold mixed shapes and ask any pair any query through
//! [`crate::query::dispatch`].

pub use super::any_shape_2d::AnyShape;

use crate::algo::gjk::GjkVector;
use crate::algo::support::SupportMap;
use crate::math::{Real, Vector};
use crate::query::RayCast;
use crate::shape::shape_common::{aabb_by_support, convex_enum_impls, ray_cast_by_support};
use crate::shape::{Aabb, Ball, Capsule, ConvexPolygon, Ray, RayHit, Rounded, Segment, Triangle};

/// A convex 2D shape of any kind, in its local frame (a pose places it in the world).
///
/// `Cuboid` is an [`Aabb`] of the local frame: a rectangle centred at the pose is
/// `Aabb::from_center(ZERO, half_extents)`; an off-centre box is allowed (the pose's
/// rotation turns it about the local origin). `Segment` and `Triangle` are the
/// segment and the solid triangle; the `Rounded*` variants are Minkowski sums with a
/// disc. Every variant is validated by its own constructor, so a `Shape` holds no NaN.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(bound = "R: crate::serial::SerdeReal")
)]
#[derive(Clone, Debug, PartialEq)]
pub enum Shape<R: Real> {
    /// A disc.
    Ball(Ball<R::V2>),
    /// A rectangle given as a box of the local frame.
    Cuboid(Aabb<R::V2>),
    /// A stadium (segment grown by a radius).
    Capsule(Capsule<R::V2>),
    /// A segment (no area).
    Segment(Segment<R::V2>),
    /// A solid triangle (may be flat).
    Triangle(Triangle<R::V2>),
    /// A convex polygon.
    Polygon(ConvexPolygon<R>),
    /// A rectangle with rounded corners.
    RoundedCuboid(Rounded<Aabb<R::V2>, R>),
    /// A convex polygon with rounded corners.
    RoundedPolygon(Rounded<ConvexPolygon<R>, R>),
}

/// Analytic kernels for the disc, box, segment, polygon and capsule; the GJK point
/// cast for the triangle and rounded kinds (within
/// [`SUPPORT_CAST_SQRT_ULPS`](crate::query::cast_ray::SUPPORT_CAST_SQRT_ULPS)). Conventions of [`RayCast`]: solid kinds
/// hit at `t = 0` with a zero normal when the origin is inside; the segment is hit
/// only where the ray crosses it.
impl<R: Real> RayCast<R::V2> for Shape<R>
where
    R::V2: GjkVector,
{
    fn cast_ray(&self, ray: &Ray<R::V2>, max_t: R) -> Option<RayHit<R::V2>> {
        match self {
            Self::Ball(s) => s.cast_ray(ray, max_t),
            Self::Cuboid(s) => s.cast_ray(ray, max_t),
            Self::Segment(s) => s.cast_ray(ray, max_t),
            Self::Polygon(s) => s.cast_ray(ray, max_t),
            Self::Capsule(s) => s.cast_ray(ray, max_t),
            Self::Triangle(s) => ray_cast_by_support(s, ray, max_t),
            Self::RoundedCuboid(s) => ray_cast_by_support(s, ray, max_t),
            Self::RoundedPolygon(s) => ray_cast_by_support(s, ray, max_t),
        }
    }
}

convex_enum_impls!(
    V2;
    Ball(Ball<R::V2>),
    Cuboid(Aabb<R::V2>),
    Capsule(Capsule<R::V2>),
    Segment(Segment<R::V2>),
    Triangle(Triangle<R::V2>),
    Polygon(ConvexPolygon<R>),
    RoundedCuboid(Rounded<Aabb<R::V2>, R>),
    RoundedPolygon(Rounded<ConvexPolygon<R>, R>)
);

impl<R: Real> crate::algo::feature::FeatureMap<R::V2> for Shape<R> {
    fn support_feature(&self, dir: R::V2) -> crate::algo::feature::SupportFeature<R::V2> {
        use crate::algo::feature::{self as f, SupportFeature};
        match self {
            Shape::Ball(s) => SupportFeature::point(s.local_support(dir), 0),
            Shape::Cuboid(s) => f::box_2d(s, dir),
            Shape::Capsule(s) => f::capsule_2d(s, dir),
            Shape::Segment(s) => f::segment_2d(s, dir),
            Shape::Triangle(s) => f::triangle_2d(s, dir),
            Shape::Polygon(s) => f::convex_polygon(s, dir),
            Shape::RoundedCuboid(s) => f::rounded(f::box_2d(s.inner(), dir), s.radius(), dir),
            Shape::RoundedPolygon(s) => {
                f::rounded(f::convex_polygon(s.inner(), dir), s.radius(), dir)
            }
        }
    }
}
