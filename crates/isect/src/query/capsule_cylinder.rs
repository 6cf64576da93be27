//! Capsule–cylinder distance and contact without GJK (issue 13 item 5): the capsule's
//! segment against the solid cylinder, in the cylinder's frame.
//!
//! The distance from a point to a convex solid is convex along a segment (Ericson
//! 5.1.3's argument for the box), so it is minimised piece by piece:
//!
//! - inside the cylinder's slab (`|y| ≤ h`) it is the radial distance less the
//!   radius: the minimum of a quadratic, in closed form. The same minimum decides
//!   whether the segment pierces the cylinder.
//! - beyond a cap it is the distance to that cap's disc. Its rim is a circle, whose
//!   closest point to a line has no closed form (a quartic), so the derivative's root
//!   is found by a safeguarded secant (Illinois) on the bracket the slab piece leaves.
//!
//! A capsule's distance to a shape is its segment's less the radius; its contact is
//! the segment's closest points pushed out by the radius (the same Minkowski argument
//! as [`crate::query::contact::contact_capsule_capsule`]). A segment through the
//! cylinder (the capsule's core inside it) has no closest points and goes to GJK /
//! EPA, as does a segment that only touches it (no normal there).
//!
//! Tolerance: the secant stops once its bracket is within [`SECANT_ULPS`] `ε` of the
//! segment's parameter range, or after [`SECANT_STEPS`] steps.

// `!(x > y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
use crate::algo::gjk::{GjkVector, Status};
use crate::algo::root::illinois;
use crate::math::{Isometry, Real, Vector, Vector3};
use crate::query::contact::{contact, Contact};
use crate::query::distance::world_segment;
use crate::query::project_convex::hypot;
use crate::shape::{Capsule, Cylinder};

/// The secant on a cap's piece stops when its bracket is narrower than this many `ε`.
pub const SECANT_ULPS: f64 = 8.0;
/// At most this many secant steps on a cap's piece (it converges in a handful).
pub const SECANT_STEPS: usize = 64;

/// How a segment lies against a solid cylinder (in the cylinder's frame).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum SegmentCylinder<V> {
    /// Apart: the segment's point nearest the cylinder and the cylinder's nearest it.
    Apart {
        /// The point of the segment nearest the cylinder.
        on_segment: V,
        /// The point of the cylinder nearest the segment.
        on_cylinder: V,
    },
    /// The segment touches or goes through the cylinder (or an input is NaN).
    Meets,
}

/// The closest points of the segment `p0 p1` and the solid cylinder `c`, all in the
/// cylinder's frame, or [`SegmentCylinder::Meets`] when they share a point.
///
/// ```
/// use isect::d3::*;
/// use isect::query::capsule_cylinder::{segment_cylinder, SegmentCylinder};
///
/// # fn main() -> Result<(), ShapeError> {
/// // A can of radius 1 and height 2; a segment lying along z at x = 3 is 2 from it.
/// let can = Cylinder::new(1.0, 1.0)?;
/// let SegmentCylinder::Apart { on_segment, on_cylinder } =
///     segment_cylinder(&can, Vec3::new(3.0, 0.0, -1.0), Vec3::new(3.0, 0.0, 1.0))
/// else {
///     panic!("apart");
/// };
/// assert!((on_segment - on_cylinder).length() - 2.0 < 1e-6);
/// assert!((on_cylinder - Vec3::X).length() < 1e-6);
/// # Ok(())
/// # }
/// ```
pub fn segment_cylinder<R: Real>(c: &Cylinder<R>, p0: R::V3, p1: R::V3) -> SegmentCylinder<R::V3> {
    if p0.is_nan() || p1.is_nan() {
        return SegmentCylinder::Meets;
    }
    let d = p1 - p0;
    let (h, r) = (c.half_height(), c.radius());
    let cap_piece = |lo: R, hi: R, side: R| {
        let t = cap_minimum(c, p0, d, lo, hi, side);
        apart(p0 + d * t, disc_point(p0 + d * t, h.copysign(side), r))
    };
    let Some((lo, hi)) = slab_interval(p0.get(1), d.get(1), h) else {
        // Wholly beyond one cap.
        return cap_piece(R::ZERO, R::ONE, p0.get(1));
    };
    let t = radial_minimum(p0, d, lo, hi);
    let p = p0 + d * t;
    let radial = hypot(p.get(0), p.get(2));
    if !(radial > r) {
        return SegmentCylinder::Meets;
    }
    // The side piece's minimum is the segment's unless it sits where the segment
    // leaves the slab towards a cap: then the cap's piece holds a lower one.
    let leaving = |end: R, toward: R| t == end && end != toward && d.get(1) != R::ZERO;
    match (leaving(lo, R::ZERO), leaving(hi, R::ONE)) {
        // A slab crossed at one parameter (a disc, `h = 0`, or a crossing that
        // rounds to a point): the side piece is that point and says nothing about
        // which way the distance falls, so both caps' pieces are asked.
        (true, true) => nearer(
            cap_piece(R::ZERO, lo, p0.get(1)),
            cap_piece(hi, R::ONE, p1.get(1)),
        ),
        (true, false) => cap_piece(R::ZERO, lo, p0.get(1)),
        (false, true) => cap_piece(hi, R::ONE, p1.get(1)),
        (false, false) => apart(p, side_point(p, radial, r)),
    }
}

/// The nearer of two answers for the pieces of one segment (`Meets` when either
/// meets the cylinder).
fn nearer<V: Vector>(x: SegmentCylinder<V>, y: SegmentCylinder<V>) -> SegmentCylinder<V> {
    match (x, y) {
        (
            SegmentCylinder::Apart {
                on_segment: p,
                on_cylinder: q,
            },
            SegmentCylinder::Apart {
                on_segment: s,
                on_cylinder: u,
            },
        ) => match s.distance_squared(u) < p.distance_squared(q) {
            true => y,
            false => x,
        },
        _ => SegmentCylinder::Meets,
    }
}

/// `Apart` unless the two points coincide (touching: no normal).
fn apart<V: Vector>(on_segment: V, on_cylinder: V) -> SegmentCylinder<V> {
    match on_segment == on_cylinder {
        true => SegmentCylinder::Meets,
        false => SegmentCylinder::Apart {
            on_segment,
            on_cylinder,
        },
    }
}

/// The parameters `[lo, hi] ⊂ [0, 1]` where `|y0 + t·dy| ≤ h`, or `None`.
fn slab_interval<R: Real>(y0: R, dy: R, h: R) -> Option<(R, R)> {
    if dy == R::ZERO {
        return (y0.abs() <= h).then_some((R::ZERO, R::ONE));
    }
    let (a, b) = ((-h - y0) / dy, (h - y0) / dy);
    let (lo, hi) = (a.min(b).max(R::ZERO), a.max(b).min(R::ONE));
    (lo <= hi).then_some((lo, hi))
}

/// The minimiser over `[lo, hi]` of the squared radial distance `x² + z²` of
/// `p0 + t·d`; its middle when that is constant (a segment along the axis), so a
/// solver gets the middle of the side-by-side stretch.
fn radial_minimum<V: Vector>(p0: V, d: V, lo: V::Scalar, hi: V::Scalar) -> V::Scalar {
    let quad = d.get(0) * d.get(0) + d.get(2) * d.get(2);
    if !(quad > V::Scalar::ZERO) {
        return (lo + hi) * V::Scalar::from_f64(0.5);
    }
    let lin = p0.get(0) * d.get(0) + p0.get(2) * d.get(2);
    (-lin / quad).clamp_to(lo, hi)
}

/// The minimiser over `[lo, hi]` of the distance from `p0 + t·d` to the cap disc on
/// the `side` of the slab (its sign): the root of the distance's derivative, whose
/// sign is that of `(p − disc point) · d`, nondecreasing in `t` by convexity.
fn cap_minimum<R: Real>(c: &Cylinder<R>, p0: R::V3, d: R::V3, lo: R, hi: R, side: R) -> R {
    let cap_y = c.half_height().copysign(side);
    let slope = |t: R| {
        let p = p0 + d * t;
        (p - disc_point(p, cap_y, c.radius())).dot(d)
    };
    let (fa, fb) = (slope(lo), slope(hi));
    if !(fa < R::ZERO) {
        return lo;
    }
    if !(fb > R::ZERO) {
        return hi;
    }
    illinois(slope, (lo, fa), (hi, fb), SECANT_STEPS, SECANT_ULPS)
}

/// The point of the disc of radius `r` at height `cap_y` nearest `p`.
fn disc_point<R: Real>(p: R::V3, cap_y: R, r: R) -> R::V3 {
    let radial = hypot(p.get(0), p.get(2));
    match radial > r {
        true => R::V3::new(p.get(0) / radial * r, cap_y, p.get(2) / radial * r),
        false => R::V3::new(p.get(0), cap_y, p.get(2)),
    }
}

/// The point of the side (radius `r`) nearest `p`, which lies in the slab at radial
/// distance `radial > r`.
fn side_point<R: Real>(p: R::V3, radial: R, r: R) -> R::V3 {
    let k = r / radial;
    R::V3::new(p.get(0) * k, p.get(1), p.get(2) * k)
}

/// The capsule's segment taken into the cylinder's frame, against the cylinder.
fn capsule_in_cylinder<R: Real>(
    pose_a: &<R::V3 as Vector>::Pose,
    a: &Capsule<R::V3>,
    pose_b: &<R::V3 as Vector>::Pose,
    b: &Cylinder<R>,
) -> SegmentCylinder<R::V3> {
    let s = world_segment(pose_a, a);
    let local = |p| pose_b.inverse_transform_point(p);
    segment_cylinder(b, local(s.a), local(s.b))
}

/// Distance between a capsule and a cylinder (0 when they touch or overlap, NaN for a
/// NaN pose), from the capsule's segment in the cylinder's frame
/// ([`segment_cylinder`]).
///
/// ```
/// use isect::d3::*;
/// use isect::query::capsule_cylinder::distance_capsule_cylinder;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A capsule of radius 0.5 lying along z, its axis 3 from a can of radius 1.
/// let can = Cylinder::new(1.0, 1.0)?;
/// let log = Capsule::new(Vec3::new(3.0, 0.0, -1.0), Vec3::new(3.0, 0.0, 1.0), 0.5)?;
/// let d = distance_capsule_cylinder(&Pose::IDENTITY, &log, &Pose::IDENTITY, &can);
/// assert!((d - 1.5).abs() < 1e-6);
/// # Ok(())
/// # }
/// ```
pub fn distance_capsule_cylinder<R: Real>(
    pose_a: &<R::V3 as Vector>::Pose,
    a: &Capsule<R::V3>,
    pose_b: &<R::V3 as Vector>::Pose,
    b: &Cylinder<R>,
) -> R {
    if !(pose_a.is_finite() && pose_b.is_finite()) {
        return R::from_f64(f64::NAN);
    }
    match capsule_in_cylinder(pose_a, a, pose_b, b) {
        SegmentCylinder::Apart {
            on_segment,
            on_cylinder,
        } => (on_segment.distance(on_cylinder) - a.radius()).max(R::ZERO),
        SegmentCylinder::Meets => R::ZERO,
    }
}

/// Contact of a capsule (A) and a cylinder (B) without GJK while the capsule's segment
/// is apart from the cylinder: the segment's closest points ([`segment_cylinder`]),
/// the normal along them, `depth = radius − gap`, `point_a` on the capsule's surface
/// and `point_b` on the cylinder's, so `point_a − point_b = depth · normal`. A segment
/// that meets the cylinder (a capsule sunk past its radius) takes the general path
/// ([`contact`]). `None` beyond `prediction` or for a non-finite pose.
///
/// ```
/// use isect::d3::*;
/// use isect::query::capsule_cylinder::contact_capsule_cylinder;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A log of radius 0.5 lying across the top of a can (radius 1, top at y = 1),
/// // its axis at y = 1.25: sunk 0.25, pushed off along −y (from the log to the can).
/// let can = Cylinder::new(1.0, 1.0)?;
/// let log = Capsule::new(Vec3::new(-2.0, 1.25, 0.0), Vec3::new(2.0, 1.25, 0.0), 0.5)?;
/// let c = contact_capsule_cylinder(&Pose::IDENTITY, &log, &Pose::IDENTITY, &can, 0.0)
///     .expect("they overlap");
/// assert!((c.depth - 0.25).abs() < 1e-6);
/// assert!((c.normal + Vec3::Y).length() < 1e-6);
/// # Ok(())
/// # }
/// ```
pub fn contact_capsule_cylinder<R: Real>(
    pose_a: &<R::V3 as Vector>::Pose,
    a: &Capsule<R::V3>,
    pose_b: &<R::V3 as Vector>::Pose,
    b: &Cylinder<R>,
    prediction: R,
) -> Option<Contact<R::V3>>
where
    R::V3: GjkVector,
{
    contact_capsule_cylinder_apart(pose_a, a, pose_b, b, prediction)
        .unwrap_or_else(|| contact(pose_a, a, pose_b, b, prediction))
}

/// [`contact_capsule_cylinder`] while the segment is apart from the cylinder; the
/// outer `None` when it meets it (the caller asks GJK / EPA).
pub(crate) fn contact_capsule_cylinder_apart<R: Real>(
    pose_a: &<R::V3 as Vector>::Pose,
    a: &Capsule<R::V3>,
    pose_b: &<R::V3 as Vector>::Pose,
    b: &Cylinder<R>,
    prediction: R,
) -> Option<Option<Contact<R::V3>>> {
    if !(pose_a.is_finite() && pose_b.is_finite()) || prediction.is_nan() {
        return Some(None);
    }
    let SegmentCylinder::Apart {
        on_segment,
        on_cylinder,
    } = capsule_in_cylinder(pose_a, a, pose_b, b)
    else {
        return None;
    };
    let offset = on_cylinder - on_segment;
    let gap = offset.length();
    let normal = offset.try_normalize()?;
    let depth = a.radius() - gap;
    if !(-depth <= prediction) {
        return Some(None);
    }
    Some(Some(Contact {
        normal: pose_b.transform_vector(normal),
        depth,
        point_a: pose_b.transform_point(on_segment + normal * a.radius()),
        point_b: pose_b.transform_point(on_cylinder),
        status: Status::Converged,
    }))
}
