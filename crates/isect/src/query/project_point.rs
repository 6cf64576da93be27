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
    fn project_local_point(&self, p: V, solid: bool) -> PointProjection<V>;

    /// Projects the world point `p` onto the shape placed at `pose`; the answer is in
    /// world space.
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
