//! `distance` and `closest_points` for any pair of convex shapes with a support
//! map (GJK, see [`crate::algo::gjk`]), and the analytic kernels for balls and
//! capsules (segment–segment closest points, Ericson 5.1.9) and capsules and boxes
//! (segment–box, [`closest_point_segment_aabb`]: an exact minimisation over the
//! segment, as Ericson 5.1.3's point–box clamp applied piece by piece).
//!
//! Every function takes `(pose_a, &a, pose_b, &b)`, works in A's frame
//! (`pose_ab = pose_a⁻¹ · pose_b`) and answers in world space. Tolerance:
//! [`SEGMENT_PARALLEL_ULPS`].

// `!(x > y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
use crate::algo::gjk::{self, GjkCache, GjkResult, GjkVector, MinkowskiDiff, Status};
use crate::algo::support::SupportMap;
use crate::math::tolerance::eps;
use crate::math::{Isometry, Real, Vector};
use crate::query::project_point::ProjectPoint;
use crate::shape::{Aabb, Ball, Capsule, Segment};

/// Two segments count as parallel in [`closest_points_segment_segment`] when the
/// squared sine of their angle is below `SEGMENT_PARALLEL_ULPS · ε`.
pub const SEGMENT_PARALLEL_ULPS: f64 = 16.0;

/// The closest points of two shapes, in world space.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ClosestPoints<V: Vector> {
    /// Distance between the shapes: 0 when they touch or overlap, NaN for NaN poses.
    pub distance: V::Scalar,
    /// Point of A closest to B (when overlapping: a point common to both).
    pub point_a: V,
    /// Point of B closest to A (when overlapping: a point common to both).
    pub point_b: V,
    /// GJK's status (`Degenerate` for NaN poses).
    pub status: Status,
    /// GJK iterations.
    pub iterations: u32,
}

impl<V: Vector> ClosestPoints<V> {
    /// The answer of a closed form (no GJK): `Converged`, no iterations.
    ///
    /// ```
    /// use isect::d2::*;
    /// use isect::query::distance::ClosestPoints;
    ///
    /// let cp = ClosestPoints::closed_form(1.0, Vec2::ZERO, Vec2::X);
    /// assert_eq!((cp.iterations, cp.point_b), (0, Vec2::X));
    /// ```
    pub fn closed_form(distance: V::Scalar, point_a: V, point_b: V) -> Self {
        Self {
            distance,
            point_a,
            point_b,
            status: Status::Converged,
            iterations: 0,
        }
    }
}

/// Closest points of two convex shapes placed at `pose_a` and `pose_b`.
///
/// Edge cases: touching or overlapping shapes give distance 0 and a common point;
/// NaN poses give a NaN distance with `Status::Degenerate`.
///
/// ```
/// use isect::d2::*;
/// use isect::query::closest_points;
///
/// # fn main() -> Result<(), ShapeError> {
/// let square = Obb::from_angle(Vec2::ZERO, Vec2::ONE, 0.0)?; // [-1, 1]²
/// let ball = Ball::new(Vec2::ZERO, 1.0)?;
/// let at = Pose::from_translation(Vec2::new(0.0, 5.0));
/// let cp = closest_points(&Pose::IDENTITY, &square, &at, &ball);
/// assert!((cp.distance - 3.0).abs() < 1e-4);
/// assert!((cp.point_b - Vec2::new(0.0, 4.0)).length() < 1e-4);
/// assert!((cp.point_a.y - 1.0).abs() < 1e-4); // on the square's top edge
/// # Ok(())
/// # }
/// ```
pub fn closest_points<V, A, B>(pose_a: &V::Pose, a: &A, pose_b: &V::Pose, b: &B) -> ClosestPoints<V>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    closest_points_impl(pose_a, a, pose_b, b, None)
}

/// [`closest_points`] warm-started from (and updating) `cache`: for frame-to-frame
/// queries of the same pair, pass the same cache every frame.
///
/// ```
/// use isect::d3::*;
/// use isect::algo::gjk::GjkCache;
/// use isect::query::distance::closest_points_cached;
///
/// # fn main() -> Result<(), ShapeError> {
/// let (a, b) = (Ball::new(Vec3::ZERO, 1.0)?, Ball::new(Vec3::ZERO, 0.5)?);
/// let mut cache = GjkCache::new();
/// // The same pair over three frames, B drifting away along x.
/// for (frame, x) in [4.0_f32, 4.5, 5.0].into_iter().enumerate() {
///     let at = Pose::from_translation(Vec3::new(x, 0.0, 0.0));
///     let cp = closest_points_cached(&Pose::IDENTITY, &a, &at, &b, &mut cache);
///     assert!((cp.distance - (x - 1.5)).abs() < 1e-4, "frame {frame}");
/// }
/// # Ok(())
/// # }
/// ```
pub fn closest_points_cached<V, A, B>(
    pose_a: &V::Pose,
    a: &A,
    pose_b: &V::Pose,
    b: &B,
    cache: &mut GjkCache<V>,
) -> ClosestPoints<V>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    closest_points_impl(pose_a, a, pose_b, b, Some(cache))
}

/// Distance between two convex shapes (0 when they touch or overlap; NaN for NaN
/// poses). See [`closest_points`] for the witness points and GJK's status.
///
/// ```
/// use isect::d3::*;
/// use isect::query::distance;
///
/// # fn main() -> Result<(), ShapeError> {
/// let a = Ball::new(Vec3::ZERO, 1.0)?;
/// let b = Ball::new(Vec3::ZERO, 2.0)?;
/// let at = Pose::from_translation(Vec3::new(0.0, 6.0, 0.0));
/// assert!((distance(&Pose::IDENTITY, &a, &at, &b) - 3.0).abs() < 1e-4);
/// assert_eq!(distance(&Pose::IDENTITY, &a, &Pose::IDENTITY, &b), 0.0); // overlapping
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn distance<V, A, B>(pose_a: &V::Pose, a: &A, pose_b: &V::Pose, b: &B) -> V::Scalar
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if !(pose_a.is_finite() && pose_b.is_finite()) {
        return V::Scalar::from_f64(f64::NAN);
    }
    // No witness points needed: skip their transforms.
    let diff = MinkowskiDiff::new(a, b, pose_a.inv_mul(pose_b));
    let result = gjk::closest_points(&diff, None);
    (result.distance - diff.margin()).max(V::Scalar::ZERO)
}

/// Boolean GJK test: true when the shapes touch or overlap (stops at the first
/// separating plane, so cheaper than [`distance`]). False for NaN poses.
///
/// ```
/// use isect::d2::*;
/// use isect::query::distance::intersects;
///
/// # fn main() -> Result<(), ShapeError> {
/// let square = Obb::from_angle(Vec2::ZERO, Vec2::ONE, 0.0)?; // [-1, 1]²
/// let ball = Ball::new(Vec2::ZERO, 1.0)?;
/// // A unit ball at (1.9, 0) reaches x = 0.9 and overlaps; at (1.9, 1.9) it is
/// // 0.9·√2 ≈ 1.27 from the corner (1, 1) and misses.
/// let near = Pose::from_translation(Vec2::new(1.9, 0.0));
/// let diagonal = Pose::from_translation(Vec2::new(1.9, 1.9));
/// assert!(intersects(&Pose::IDENTITY, &square, &near, &ball));
/// assert!(!intersects(&Pose::IDENTITY, &square, &diagonal, &ball));
/// # Ok(())
/// # }
/// ```
pub fn intersects<V, A, B>(pose_a: &V::Pose, a: &A, pose_b: &V::Pose, b: &B) -> bool
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    pose_a.is_finite()
        && pose_b.is_finite()
        && gjk::intersects(&MinkowskiDiff::new(a, b, pose_a.inv_mul(pose_b)))
}

fn closest_points_impl<V, A, B>(
    pose_a: &V::Pose,
    a: &A,
    pose_b: &V::Pose,
    b: &B,
    cache: Option<&mut GjkCache<V>>,
) -> ClosestPoints<V>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if !(pose_a.is_finite() && pose_b.is_finite()) {
        let nan = V::splat(V::Scalar::from_f64(f64::NAN));
        return ClosestPoints {
            distance: V::Scalar::from_f64(f64::NAN),
            point_a: nan,
            point_b: nan,
            status: Status::Degenerate,
            iterations: 0,
        };
    }
    let diff = MinkowskiDiff::new(a, b, pose_a.inv_mul(pose_b));
    let result = gjk::closest_points(&diff, cache);
    let local = grow_by_margins(&result, a.margin(), b.margin());
    ClosestPoints {
        point_a: pose_a.transform_point(local.point_a),
        point_b: pose_a.transform_point(local.point_b),
        ..local
    }
}

/// Closest points of the shapes (in A's frame) from GJK's answer for their cores.
pub(crate) fn grow_by_margins<V: Vector>(
    r: &GjkResult<V>,
    margin_a: V::Scalar,
    margin_b: V::Scalar,
) -> ClosestPoints<V> {
    let zero = V::Scalar::ZERO;
    let base = ClosestPoints {
        distance: zero,
        point_a: r.point_a,
        point_b: r.point_b,
        status: r.status,
        iterations: r.iterations,
    };
    let normal = (r.point_b - r.point_a).try_normalize();
    match normal {
        Some(n) if !r.overlapping => {
            if r.distance > margin_a + margin_b {
                ClosestPoints {
                    distance: r.distance - margin_a - margin_b,
                    point_a: r.point_a + n * margin_a,
                    point_b: r.point_b - n * margin_b,
                    ..base
                }
            } else {
                // The grown shapes overlap: a point within both margins.
                let common = r.point_a + n * margin_a.min(r.distance);
                ClosestPoints {
                    point_a: common,
                    point_b: common,
                    ..base
                }
            }
        }
        _ => base,
    }
}

/// Distance between two balls (0 when they touch or overlap).
///
/// ```
/// use isect::d2::*;
/// use isect::query::distance::distance_ball_ball;
///
/// # fn main() -> Result<(), ShapeError> {
/// let ball = Ball::new(Vec2::ZERO, 1.0)?;
/// let at = Pose::from_translation(Vec2::new(3.0, 4.0)); // centres 5 apart
/// assert!((distance_ball_ball(&Pose::IDENTITY, &ball, &at, &ball) - 3.0).abs() < 1e-6);
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn distance_ball_ball<V: Vector>(
    pose_a: &V::Pose,
    a: &Ball<V>,
    pose_b: &V::Pose,
    b: &Ball<V>,
) -> V::Scalar {
    let ca = pose_a.transform_point(a.center());
    let cb = pose_b.transform_point(b.center());
    (ca.distance(cb) - a.radius() - b.radius()).max(V::Scalar::ZERO)
}

/// Distance between a ball and a capsule (0 when they touch or overlap): the
/// ball's centre against the capsule's segment.
///
/// ```
/// use isect::d3::*;
/// use isect::query::distance::distance_ball_capsule;
///
/// # fn main() -> Result<(), ShapeError> {
/// let capsule = Capsule::new(Vec3::new(0.0, -1.0, 0.0), Vec3::new(0.0, 1.0, 0.0), 0.5)?;
/// let ball = Ball::new(Vec3::new(0.0, 4.0, 0.0), 1.0)?; // 3 above the top of the axis
/// let d = distance_ball_capsule(&Pose::IDENTITY, &ball, &Pose::IDENTITY, &capsule);
/// assert!((d - 1.5).abs() < 1e-6);
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn distance_ball_capsule<V: Vector>(
    pose_a: &V::Pose,
    a: &Ball<V>,
    pose_b: &V::Pose,
    b: &Capsule<V>,
) -> V::Scalar {
    let ca = pose_a.transform_point(a.center());
    let (cb, _) = world_segment(pose_b, b).closest_point(ca);
    (ca.distance(cb) - a.radius() - b.radius()).max(V::Scalar::ZERO)
}

/// Distance between a ball (A) and any shape with a closed-form point projection (a
/// box, cylinder, cone, capsule, polygon...): the ball's centre taken into B's frame,
/// its distance to the solid shape ([`ProjectPoint::distance_to_local_point`]) less
/// the radius. 0 when they touch or overlap, NaN for a NaN pose.
///
/// ```
/// use isect::d3::*;
/// use isect::query::distance::distance_ball_shape;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A ball of radius 0.5 centred 2 beside a can of radius 1: 0.5 apart.
/// let can = Cylinder::new(1.0, 1.0)?;
/// let ball = Ball::new(Vec3::ZERO, 0.5)?;
/// let at = Pose::from_translation(Vec3::new(2.0, 0.0, 0.0));
/// assert!((distance_ball_shape(&at, &ball, &Pose::IDENTITY, &can) - 0.5).abs() < 1e-6);
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn distance_ball_shape<V: Vector, S: ProjectPoint<V>>(
    pose_a: &V::Pose,
    a: &Ball<V>,
    pose_b: &V::Pose,
    b: &S,
) -> V::Scalar {
    // A ball about its frame's origin (the usual case) needs no rotation by A's pose.
    let centre = match a.center() == V::ZERO {
        true => pose_a.translation(),
        false => pose_a.transform_point(a.center()),
    };
    let d = b.distance_to_local_point(pose_b.inverse_transform_point(centre)) - a.radius();
    match d.is_nan() {
        true => d,
        false => d.max(V::Scalar::ZERO),
    }
}

/// Distance between two capsules (0 when they touch or overlap), from the closest
/// points of their segments.
///
/// ```
/// use isect::d2::*;
/// use isect::query::distance::distance_capsule_capsule;
///
/// # fn main() -> Result<(), ShapeError> {
/// // Two parallel horizontal capsules of radius 0.5, axes 3 apart.
/// let a = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.5)?;
/// let above = Pose::from_translation(Vec2::new(0.5, 3.0));
/// let d = distance_capsule_capsule(&Pose::IDENTITY, &a, &above, &a);
/// assert!((d - 2.0).abs() < 1e-6);
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn distance_capsule_capsule<V: Vector>(
    pose_a: &V::Pose,
    a: &Capsule<V>,
    pose_b: &V::Pose,
    b: &Capsule<V>,
) -> V::Scalar {
    let (_, _, pa, pb) =
        closest_points_segment_segment(&world_segment(pose_a, a), &world_segment(pose_b, b));
    (pa.distance(pb) - a.radius() - b.radius()).max(V::Scalar::ZERO)
}

/// The point of the segment `s` nearest to the box `b` (both in one frame): `(t,
/// d²)`, the point `s.a + t·(s.b − s.a)` and its squared distance to the box (0 when
/// the segment meets it). Exact up to rounding: the squared distance from a point
/// moving along the segment to the box is convex and piecewise quadratic in `t`, its
/// pieces split where the segment crosses a face's plane; on each piece the set of
/// clamped axes is fixed, so its minimum is that of one quadratic, evaluated by the
/// point–box clamp (Ericson 5.1.3). At most `2·DIM + 1` pieces. NaN input gives a
/// NaN distance.
///
/// ```
/// use isect::d3::*;
/// use isect::query::distance::closest_point_segment_aabb;
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let unit = Aabb::new(Vec3::ZERO, Vec3::ONE)?;
/// // A segment passing 2 above the box's top, parallel to it.
/// let s = Segment::new(Vec3::new(-5.0, 3.0, 0.5), Vec3::new(5.0, 3.0, 0.5))?;
/// let (t, d2) = closest_point_segment_aabb(&s, &unit);
/// assert_eq!(d2, 4.0);
/// assert!((0.5..=0.6).contains(&t));
/// # Ok(())
/// # }
/// ```
pub fn closest_point_segment_aabb<V: Vector>(
    s: &Segment<V>,
    b: &Aabb<V>,
) -> (V::Scalar, V::Scalar) {
    let (zero, one) = (V::Scalar::ZERO, V::Scalar::ONE);
    let d = s.b - s.a;
    if let Some(t) = segment_meets_aabb(s.a, d, b) {
        return (t, zero);
    }
    // Piece ends: 0, 1 and the crossings of the faces' planes inside (0, 1).
    let mut ends = [one; 8];
    let mut n = 1;
    ends[0] = zero;
    for axis in 0..V::DIM {
        let (p, di) = (s.a.get(axis), d.get(axis));
        for plane in [b.min.get(axis), b.max.get(axis)] {
            let t = (plane - p) / di;
            if t > zero && t < one {
                ends[n] = t;
                n += 1;
            }
        }
    }
    n += 1; // the final 1
    ends[..n].sort_unstable_by(|x, y| x.partial_cmp(y).unwrap_or(core::cmp::Ordering::Equal));
    let at = |t: V::Scalar| b.distance_squared_to_point(s.a + d * t);
    let mut best = (zero, at(zero));
    for piece in ends[..n].windows(2) {
        let t = piece_minimum(s.a, d, b, piece[0], piece[1]);
        let d2 = at(t);
        if d2 < best.1 {
            best = (t, d2);
        }
        // Convexity: a minimum before the piece's end is the global one.
        if t < piece[1] {
            break;
        }
    }
    best
}

/// The first `t ∈ [0, 1]` at which `p + t·d` is in `b`, if any (the slab test,
/// Ericson 5.3.3), for finite input. The pieces of [`closest_point_segment_aabb`]
/// alone find a crossing at a piece's end, a plane crossing that rounding may put
/// just outside the box: a segment through the box (or through a flat box) came out
/// a rounding error apart instead of at 0 (`tests/regressions/capsule_box_crossing.rs`).
#[inline]
pub(crate) fn segment_meets_aabb<V: Vector>(p: V, d: V, b: &Aabb<V>) -> Option<V::Scalar> {
    segment_in_aabb(p, d, b).map(|(lo, _)| lo)
}

/// The interval `[t0, t1] ⊆ [0, 1]` over which `p + t·d` is in `b`, if any (the slab
/// test, Ericson 5.3.3), for finite input.
#[allow(clippy::neg_cmp_op_on_partial_ord)]
pub(crate) fn segment_in_aabb<V: Vector>(
    p: V,
    d: V,
    b: &Aabb<V>,
) -> Option<(V::Scalar, V::Scalar)> {
    if !(p.is_finite() && d.is_finite()) {
        return None;
    }
    let (mut lo, mut hi) = (V::Scalar::ZERO, V::Scalar::ONE);
    for axis in 0..V::DIM {
        let (pi, di) = (p.get(axis), d.get(axis));
        let (min, max) = (b.min.get(axis), b.max.get(axis));
        if di == V::Scalar::ZERO {
            if pi < min || pi > max {
                return None;
            }
            continue;
        }
        let (t0, t1) = ((min - pi) / di, (max - pi) / di);
        let (t0, t1) = if t0 <= t1 { (t0, t1) } else { (t1, t0) };
        lo = lo.max(t0);
        hi = hi.min(t1);
        // Also false for NaN (an infinite or NaN box).
        if !(lo <= hi) {
            return None;
        }
    }
    Some((lo, hi))
}

/// The minimiser over `[t0, t1]` of the squared distance from `p + t·d` to `b`, on a
/// piece where each axis stays below, inside or above the box: the vertex of the
/// quadratic `Σ (p + t·d − bound)²` over the clamped axes, clamped to the piece.
fn piece_minimum<V: Vector>(p: V, d: V, b: &Aabb<V>, t0: V::Scalar, t1: V::Scalar) -> V::Scalar {
    let zero = V::Scalar::ZERO;
    let mid = (t0 + t1) * V::Scalar::from_f64(0.5);
    let (mut quad, mut lin) = (zero, zero);
    for axis in 0..V::DIM {
        let (pi, di) = (p.get(axis), d.get(axis));
        let x = pi + mid * di;
        let bound = if x < b.min.get(axis) {
            b.min.get(axis)
        } else if x > b.max.get(axis) {
            b.max.get(axis)
        } else {
            continue;
        };
        quad += di * di;
        lin += di * (pi - bound);
    }
    if quad > zero {
        (-lin / quad).max(t0).min(t1)
    } else {
        t0
    }
}

/// Distance between a capsule and a box (0 when they touch or overlap), from the
/// capsule's segment taken into the box's frame ([`closest_point_segment_aabb`]).
#[inline]
pub fn distance_capsule_cuboid<V: Vector>(
    pose_a: &V::Pose,
    a: &Capsule<V>,
    pose_b: &V::Pose,
    b: &Aabb<V>,
) -> V::Scalar {
    let d = closest_point_segment_aabb(&segment_in(pose_a, a, pose_b), b)
        .1
        .sqrt();
    if d.is_nan() {
        return d;
    }
    (d - a.radius()).max(V::Scalar::ZERO)
}

/// The segment of capsule `c` placed at `pose` seen from the frame `frame`. A frame
/// that does not turn (one box at the identity, as a batch of a capsule's poses
/// against it often has) skips its inverse rotation: turning finite numbers by the
/// identity quaternion multiplies them by 1 and adds zeros, so the answer is the same.
#[inline]
pub(crate) fn segment_in<V: Vector>(pose: &V::Pose, c: &Capsule<V>, frame: &V::Pose) -> Segment<V> {
    let s = c.segment();
    if s.a == -s.b {
        // Centred (the usual capsule): its centre and half axis, three rotations for four.
        return centred_segment_in(origin_in(pose, frame), pose, s.b, frame);
    }
    let to_frame = |p: V| into_frame(frame, pose.transform_point(p) - frame.translation());
    Segment {
        a: to_frame(s.a),
        b: to_frame(s.b),
    }
}

/// The origin of `pose`'s frame (a centred capsule's centre) seen from `frame`, as
/// [`segment_in`] computes it.
#[inline]
pub(crate) fn origin_in<V: Vector>(pose: &V::Pose, frame: &V::Pose) -> V {
    into_frame(frame, pose.translation() - frame.translation())
}

/// The segment `centre ± half_axis` of a centred capsule at `pose`, seen from `frame`
/// (`centre` from [`origin_in`]), as [`segment_in`] computes it.
#[inline]
pub(crate) fn centred_segment_in<V: Vector>(
    centre: V,
    pose: &V::Pose,
    half_axis: V,
    frame: &V::Pose,
) -> Segment<V> {
    let half = into_frame(frame, pose.transform_vector(half_axis));
    Segment {
        a: centre - half,
        b: centre + half,
    }
}

/// World vector `v` in `frame`'s axes; a frame that does not turn keeps it as it is.
#[inline]
fn into_frame<V: Vector>(frame: &V::Pose, v: V) -> V {
    if frame.same_rotation(&V::Pose::IDENTITY) {
        v
    } else {
        frame.inverse_transform_vector(v)
    }
}

/// A capsule's segment in world space.
#[inline]
pub(crate) fn world_segment<V: Vector>(pose: &V::Pose, c: &Capsule<V>) -> Segment<V> {
    let s = c.segment();
    if s.a == -s.b {
        // Centred on its frame's origin (the usual capsule): one rotation, and the
        // same bits as two, since rotating is linear and exact under negation.
        let (t, half) = (pose.translation(), pose.transform_vector(s.b));
        return Segment {
            a: t - half,
            b: t + half,
        };
    }
    Segment {
        a: pose.transform_point(s.a),
        b: pose.transform_point(s.b),
    }
}

/// Closest points of two segments (Ericson 5.1.9): `(s, t, p, q)` with
/// `p = s1.a + s·(s1.b − s1.a)` and `q = s2.a + t·(s2.b − s2.a)`, `s, t ∈ [0, 1]`.
/// Zero-length segments are points; for parallel segments one of the closest pairs
/// is returned.
///
/// ```
/// use isect::d3::*;
/// use isect::query::distance::closest_points_segment_segment;
///
/// # fn main() -> Result<(), ShapeError> {
/// // Skew segments: along x at z = 0, along y at z = 2, crossing over (1, 0).
/// let s1 = Segment::new(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0))?;
/// let s2 = Segment::new(Vec3::new(1.0, -1.0, 2.0), Vec3::new(1.0, 1.0, 2.0))?;
/// let (s, t, p, q) = closest_points_segment_segment(&s1, &s2);
/// assert!((s - 0.5).abs() < 1e-6 && (t - 0.5).abs() < 1e-6);
/// assert!((p - Vec3::new(1.0, 0.0, 0.0)).length() < 1e-6);
/// assert!(((q - p).length() - 2.0).abs() < 1e-6);
/// # Ok(())
/// # }
/// ```
pub fn closest_points_segment_segment<V: Vector>(
    s1: &Segment<V>,
    s2: &Segment<V>,
) -> (V::Scalar, V::Scalar, V, V) {
    let zero = V::Scalar::ZERO;
    let one = V::Scalar::ONE;
    let (d1, d2, r) = (s1.b - s1.a, s2.b - s2.a, s1.a - s2.a);
    let (a, e, f) = (d1.length_squared(), d2.length_squared(), d2.dot(r));
    let (s, t) = if !(a > zero) && !(e > zero) {
        (zero, zero)
    } else if !(a > zero) {
        (zero, (f / e).clamp_to(zero, one))
    } else {
        let c = d1.dot(r);
        if !(e > zero) {
            ((-c / a).clamp_to(zero, one), zero)
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let parallel = !(denom > eps::<V::Scalar>(SEGMENT_PARALLEL_ULPS) * a * e);
            let s = if parallel {
                zero
            } else {
                ((b * f - c * e) / denom).clamp_to(zero, one)
            };
            let t = (b * s + f) / e;
            if t < zero {
                ((-c / a).clamp_to(zero, one), zero)
            } else if t > one {
                (((b - c) / a).clamp_to(zero, one), one)
            } else {
                (s, t)
            }
        }
    };
    let (p1, p2) = (s1.a + d1 * s, s2.a + d2 * t);
    if V::DIM == 2 && p1 != p2 && near_crossing(s1, s2, p1, p2) {
        // Crossing 2D segments meet: the parameters above round them ulps apart, which
        // made two crossing zero-radius capsules "apart" by 1e-6.
        return (s, t, p1, p1);
    }
    (s, t, p1, p2)
}

/// True when the 2D segments, whose computed closest points `p1`, `p2` are within
/// `√ε` of their size apart (what rounding can leave of a crossing; cheap to rule
/// out first), cross by the exact orientation predicate.
fn near_crossing<V: Vector>(s1: &Segment<V>, s2: &Segment<V>, p1: V, p2: V) -> bool {
    let size = [s1.a, s1.b, s2.a, s2.b]
        .iter()
        .fold(V::Scalar::ZERO, |m, p| m.max(p.abs().max_element()));
    let near = V::Scalar::EPSILON * size * size;
    // In f64: exact for f32 and f64 coordinates alike.
    let xy = |p: V| glam::DVec2::new(p.get(0).to_f64(), p.get(1).to_f64());
    p1.distance_squared(p2) <= near
        && crate::shape::concave_polygon::geometry::segments_cross(
            xy(s1.a),
            xy(s1.b),
            xy(s2.a),
            xy(s2.b),
        )
}

#[cfg(test)]
mod tests {
    use super::segment_in;
    use crate::math::{Isometry, Pose3};
    use crate::shape::Capsule;
    use glam::{DQuat, DVec3};

    /// `segment_in` skips the inverse rotation of a frame that does not turn; its
    /// ends are the numbers that rotation gives, for centred and off-centre capsules.
    #[test]
    fn an_unturned_frame_gives_the_general_formulas_numbers() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 11) as f64 / (1u64 << 53) as f64 * 4.0 - 2.0
        };
        let frames = [DQuat::IDENTITY, DQuat::from_xyzw(-0.0, -0.0, -0.0, 1.0)];
        for k in 0..2_000 {
            let v = DVec3::new(next(), next(), next());
            let q = DQuat::from_xyzw(next(), next(), next(), next()).normalize();
            let pose = Pose3::new(v * 3.0, q);
            let frame = Pose3::new(DVec3::new(next(), next(), next()), frames[k % 2]);
            let (a, b) = if k % 3 == 0 { (v, v * -0.5) } else { (-v, v) };
            let capsule = Capsule::new(a, b, 0.25).unwrap();
            let local = segment_in::<DVec3>(&pose, &capsule, &frame);
            let expected = if a == -b {
                // Centred: the centre and the half axis, each turned into the frame.
                let centre = frame.inverse_transform_point(pose.translation());
                let half = frame.inverse_transform_vector(pose.transform_vector(b));
                (centre - half, centre + half)
            } else {
                let general = |p| frame.inverse_transform_point(pose.transform_point(p));
                (general(a), general(b))
            };
            assert_eq!((local.a, local.b), expected, "case {k}");
        }
    }
}
