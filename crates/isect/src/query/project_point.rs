//! `project_point`: the point of a shape nearest to a given point, and whether the
//! given point is inside. Convex shapes answer by their own kernels or by GJK against
//! the point (Ericson 5.1 and 9.5); composites by a best-first walk of their tree.
//!
//! `solid` chooses what "nearest" means for a point inside a shape with volume: with
//! `solid = true` the point projects onto itself (`is_inside = true`, `point = p`);
//! with `solid = false` it projects onto the boundary (`is_inside = true`, `point` on
//! the surface). Shapes without interior (segments, triangles, open meshes, polylines,
//! heightfields) always project onto themselves and report `is_inside = false` unless
//! the point lies on them. A NaN point or pose gives a NaN `point` with
//! `is_inside = false`.

use crate::math::{Isometry, Real, Vector};

/// The answer of [`ProjectPoint`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PointProjection<V: Vector> {
    /// The projected point (world space for posed queries, local otherwise).
    pub point: V,
    /// True when the query point lies inside the shape or on its boundary.
    pub is_inside: bool,
}

impl<V: Vector> PointProjection<V> {
    /// The answer for NaN input: a NaN point, not inside.
    pub fn nan() -> Self {
        Self {
            point: V::splat(V::Scalar::from_f64(f64::NAN)),
            is_inside: false,
        }
    }
}

/// Point projection onto one shape.
pub trait ProjectPoint<V: Vector> {
    /// Projects `p`, given in the shape's local frame; the answer is local too.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let square = Aabb::new(Vec2::ZERO, Vec2::splat(2.0))?;
    /// let outside = square.project_local_point(Vec2::new(5.0, 1.0), true);
    /// assert_eq!((outside.point, outside.is_inside), (Vec2::new(2.0, 1.0), false));
    /// // Inside: solid keeps the point, hollow pushes it to the nearest side.
    /// let p = Vec2::new(1.5, 1.0);
    /// assert_eq!(square.project_local_point(p, true).point, p);
    /// assert_eq!(square.project_local_point(p, false).point, Vec2::new(2.0, 1.0));
    /// # Ok(())
    /// # }
    /// ```
    fn project_local_point(&self, p: V, solid: bool) -> PointProjection<V>;

    /// The distance from `p` (local) to the solid shape: 0 inside, NaN for a NaN
    /// point. The solid projection's distance unless a kind answers more cheaply.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A can of radius 1 and height 2: (4, 5, 0) is 3 beyond the side, 4 above the top.
    /// let can = Cylinder::new(1.0, 1.0)?;
    /// assert!((can.distance_to_local_point(Vec3::new(4.0, 5.0, 0.0)) - 5.0).abs() < 1e-6);
    /// assert_eq!(can.distance_to_local_point(Vec3::new(0.5, 0.0, 0.0)), 0.0);
    /// # Ok(())
    /// # }
    /// ```
    fn distance_to_local_point(&self, p: V) -> V::Scalar {
        let projection = self.project_local_point(p, true);
        match projection.is_inside {
            true => V::Scalar::ZERO,
            false => projection.point.distance(p),
        }
    }

    /// Projects the world point `p` onto the shape placed at `pose`; the answer is in
    /// world space.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A unit ball placed at (0, 0, 10); the point (0, 0, 13) projects to (0, 0, 11).
    /// let ball = Ball::new(Vec3::ZERO, 1.0)?;
    /// let pose = Pose::from_translation(Vec3::new(0.0, 0.0, 10.0));
    /// let proj = ball.project_point(&pose, Vec3::new(0.0, 0.0, 13.0), true);
    /// assert!(!proj.is_inside);
    /// assert!((proj.point - Vec3::new(0.0, 0.0, 11.0)).length() < 1e-6);
    /// # Ok(())
    /// # }
    /// ```
    fn project_point(&self, pose: &V::Pose, p: V, solid: bool) -> PointProjection<V> {
        if !pose.is_finite() || p.is_nan() {
            return PointProjection::nan();
        }
        let local = self.project_local_point(pose.inverse_transform_point(p), solid);
        PointProjection {
            point: pose.transform_point(local.point),
            is_inside: local.is_inside,
        }
    }
}
