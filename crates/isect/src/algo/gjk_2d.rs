//! The 2D parts of GJK: the simplex solver (point, segment, triangle; Ericson 5.1.2
//! and 5.1.5) and pose interpolation for time of impact. See [`super::gjk`].

use super::gjk::{reduce_up_to_triangle, Simplex};
use crate::math::{Pose2, Real, Rot2, Vector, Vector2};

/// Reduces a 2D simplex to the part nearest the origin; true when a triangle
/// encloses the origin.
#[inline]
pub(crate) fn reduce_simplex<R: Real>(simplex: &mut Simplex<R::V2>) -> bool {
    simplex.len = simplex.len.min(3);
    // In 2D the triangle's "interior" Voronoi region is the triangle itself.
    reduce_up_to_triangle(simplex)
}

/// Linear translation, rotation angle interpolated along the shorter arc.
#[inline]
pub(crate) fn interpolate_pose<R: Real>(start: &Pose2<R>, end: &Pose2<R>, t: R) -> Pose2<R> {
    let delta = start.rotation.inverse().compose(end.rotation).angle();
    Pose2 {
        rotation: start.rotation.compose(Rot2::from_angle(delta * t)),
        translation: start.translation + (end.translation - start.translation) * t,
    }
}

/// The absolute angle of the shorter rotation from `start` to `end`.
#[inline]
pub(crate) fn rotation_angle<R: Real>(start: &Pose2<R>, end: &Pose2<R>) -> R {
    start.rotation.inverse().compose(end.rotation).angle().abs()
}

/// The unit perpendicular of a segment simplex.
#[inline]
pub(crate) fn facet_normal<R: Real>(simplex: &Simplex<R::V2>) -> Option<R::V2> {
    if simplex.len != 2 {
        return None;
    }
    (simplex.points[1].w - simplex.points[0].w)
        .perp()
        .try_normalize()
}

/// The closest point of a reduced 2D simplex by projection on a segment's unit
/// perpendicular (see `GjkVector::precise_closest`).
#[inline]
pub(crate) fn precise_closest<R: Real>(simplex: &Simplex<R::V2>) -> R::V2 {
    let w0 = simplex.points[0].w;
    facet_normal::<R>(simplex).map_or_else(|| simplex.closest(), |n| n * n.dot(w0))
}
