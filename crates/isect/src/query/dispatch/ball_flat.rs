//! Ball against a shape without volume in 3D (triangle, segment) or a 2D triangle /
//! segment: the closest point of B to the ball's centre (Ericson 5.1.5 for triangles,
//! 5.1.2 for segments) answers `intersects`, `distance` and `contact` directly, which
//! is what meshes, polylines and heightfields ask of their parts most. When the centre
//! lies on B (no direction from the closest point, up to [`ON_PART_ULPS`]), the
//! general GJK/EPA path answers: there the closest point is rounding noise away from
//! the centre, and in 2D a centre inside a triangle needs the depth to its edges.

// `!(x > y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use crate::algo::gjk::GjkVector;
use crate::algo::support::SupportMap;
use crate::math::tolerance::eps;
use crate::math::{Isometry, Real, Vector};
use crate::query::contact::{contact, contact_points, Contact};
use crate::shape::trimesh::closest::closest_on_triangle;
use crate::shape::{Ball, Segment, Triangle};

/// A ball centre within this many machine epsilons (of the larger coordinate of the
/// centre and its closest point, or the radius) of the part counts as on it.
pub const ON_PART_ULPS: f64 = 64.0;

/// A part the ball kernels handle: it knows its closest point to a point of its frame.
pub(crate) trait FlatPart<V: Vector>: SupportMap<V> {
    /// The closest point of the closed part to `p`.
    fn closest_to(&self, p: V) -> V;
}

impl<V: Vector> FlatPart<V> for Triangle<V>
where
    Triangle<V>: SupportMap<V>,
{
    #[inline]
    fn closest_to(&self, p: V) -> V {
        closest_on_triangle(&self.vertices(), p).0
    }
}

impl<V: Vector> FlatPart<V> for Segment<V>
where
    Segment<V>: SupportMap<V>,
{
    #[inline]
    fn closest_to(&self, p: V) -> V {
        self.closest_point(p).0
    }
}

/// The ball's centre in B's frame and B's closest point to it.
#[inline]
fn points<V: Vector, F: FlatPart<V>>(
    pose_a: &V::Pose,
    a: &Ball<V>,
    pose_b: &V::Pose,
    b: &F,
) -> (V, V) {
    let c = pose_b.inverse_transform_point(pose_a.transform_point(a.center()));
    (c, b.closest_to(c))
}

/// Ball (A) – part (B) overlap, closed; false for NaN poses.
#[inline]
pub(crate) fn intersects_ball_flat<V: Vector, F: FlatPart<V>>(
    pose_a: &V::Pose,
    a: &Ball<V>,
    pose_b: &V::Pose,
    b: &F,
) -> bool {
    let (c, q) = points(pose_a, a, pose_b, b);
    let r = a.radius();
    c.distance_squared(q) <= r * r
}

/// Ball (A) – part (B) distance; NaN for NaN poses.
#[inline]
pub(crate) fn distance_ball_flat<V: Vector, F: FlatPart<V>>(
    pose_a: &V::Pose,
    a: &Ball<V>,
    pose_b: &V::Pose,
    b: &F,
) -> V::Scalar {
    let (c, q) = points(pose_a, a, pose_b, b);
    let d = c.distance(q);
    if d.is_nan() {
        return d;
    }
    (d - a.radius()).max(V::Scalar::ZERO)
}

/// Ball (A) – part (B) contact: normal from the centre toward B's closest point,
/// `point_b` that closest point. A centre on B goes to GJK/EPA.
#[inline]
pub(crate) fn contact_ball_flat<V: GjkVector, F: FlatPart<V>>(
    pose_a: &V::Pose,
    a: &Ball<V>,
    pose_b: &V::Pose,
    b: &F,
    prediction: V::Scalar,
) -> Option<Contact<V>> {
    let (c, q) = points(pose_a, a, pose_b, b);
    let scale = c.abs().max(q.abs()).max_element().max(a.radius());
    if !(c.distance(q) > eps::<V::Scalar>(ON_PART_ULPS) * scale) {
        return contact(pose_a, a, pose_b, b, prediction);
    }
    let local = contact_points(c, a.radius(), q, V::Scalar::ZERO, prediction, V::ZERO)?;
    Some(local.transformed(pose_b))
}
