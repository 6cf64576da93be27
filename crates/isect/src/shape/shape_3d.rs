//! [`Shape`]: every convex 3D shape in one enum, so that a collection (a world, a
//! scene file) can hold mixed shapes and ask any pair any query through
//! [`crate::query::dispatch`].

pub use super::any_shape_3d::AnyShape;

use crate::algo::gjk::GjkVector;
use crate::algo::support::SupportMap;
use crate::math::{Real, Vector};
use crate::query::RayCast;
use crate::shape::shape_common::{aabb_by_support, convex_enum_impls, ray_cast_by_support};
use crate::shape::{
    Aabb, Ball, Capsule, Cone, ConvexPolyhedron, Cylinder, Ray, RayHit, Rounded, Segment, Triangle,
};

/// A convex 3D shape of any kind, in its local frame (a pose places it in the world).
///
/// `Cuboid` is an [`Aabb`] of the local frame: a box centred at the pose is
/// `Aabb::from_center(ZERO, half_extents)`; an off-centre box is allowed (the pose's
/// rotation turns it about the local origin). `Segment` and `Triangle` have no
/// volume; `Cylinder` and `Cone` are along the local y axis (see their types);
/// `RoundedCuboid` is a Minkowski sum with a ball. Every variant is validated by its
/// own constructor, so a `Shape` holds no NaN.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(bound = "R: crate::serial::SerdeReal")
)]
#[derive(Clone, Debug, PartialEq)]
pub enum Shape<R: Real> {
    /// A sphere.
    Ball(Ball<R::V3>),
    /// A box given as a box of the local frame.
    Cuboid(Aabb<R::V3>),
    /// A capsule (segment grown by a radius).
    Capsule(Capsule<R::V3>),
    /// A segment (no volume).
    Segment(Segment<R::V3>),
    /// A triangle (no volume).
    Triangle(Triangle<R::V3>),
    /// A convex polyhedron.
    Polyhedron(ConvexPolyhedron<R>),
    /// A cylinder.
    Cylinder(Cylinder<R>),
    /// A cone.
    Cone(Cone<R>),
    /// A box with rounded edges and corners.
    RoundedCuboid(Rounded<Aabb<R::V3>, R>),
}

/// Analytic kernels for the ball, box, triangle, polyhedron, capsule, cylinder and
/// cone; the GJK point cast for the segment and the rounded box (within
/// [`SUPPORT_CAST_SQRT_ULPS`](crate::query::cast_ray::SUPPORT_CAST_SQRT_ULPS)). Conventions of
/// [`RayCast`]: solid kinds hit at `t = 0` with a zero normal when the origin is
/// inside; the triangle is hit from either side; a segment (no volume) is hit only by
/// a ray through it, up to the cast's tolerance.
impl<R: Real> RayCast<R::V3> for Shape<R>
where
    R::V3: GjkVector,
{
    fn cast_ray(&self, ray: &Ray<R::V3>, max_t: R) -> Option<RayHit<R::V3>> {
        match self {
            Self::Ball(s) => s.cast_ray(ray, max_t),
            Self::Cuboid(s) => s.cast_ray(ray, max_t),
            Self::Triangle(s) => s.cast_ray(ray, max_t),
            Self::Polyhedron(s) => s.cast_ray(ray, max_t),
            Self::Capsule(s) => s.cast_ray(ray, max_t),
            Self::Cylinder(s) => s.cast_ray(ray, max_t),
            Self::Cone(s) => s.cast_ray(ray, max_t),
            Self::Segment(s) => ray_cast_by_support(s, ray, max_t),
            Self::RoundedCuboid(s) => ray_cast_by_support(s, ray, max_t),
        }
    }
}

convex_enum_impls!(
    V3;
    Ball(Ball<R::V3>),
    Cuboid(Aabb<R::V3>),
    Capsule(Capsule<R::V3>),
    Segment(Segment<R::V3>),
    Triangle(Triangle<R::V3>),
    Polyhedron(ConvexPolyhedron<R>),
    Cylinder(Cylinder<R>),
    Cone(Cone<R>),
    RoundedCuboid(Rounded<Aabb<R::V3>, R>)
);

impl<R: Real> crate::algo::feature::FeatureMap<R::V3> for Shape<R> {
    fn support_feature(&self, dir: R::V3) -> crate::algo::feature::SupportFeature<R::V3> {
        use crate::algo::feature::{self as f, SupportFeature};
        match self {
            Shape::Ball(s) => SupportFeature::point(s.local_support(dir), 0),
            Shape::Cuboid(s) => f::box_3d(s, dir),
            Shape::Capsule(s) => f::capsule_3d(s, dir),
            Shape::Segment(s) => f::segment_3d(s),
            Shape::Triangle(s) => f::triangle_3d(s, dir),
            Shape::Polyhedron(s) => f::convex_polyhedron(s, dir),
            Shape::Cylinder(s) => f::cylinder(s, dir),
            Shape::Cone(s) => f::cone(s, dir),
            Shape::RoundedCuboid(s) => f::rounded(f::box_3d(s.inner(), dir), s.radius(), dir),
        }
    }
}
