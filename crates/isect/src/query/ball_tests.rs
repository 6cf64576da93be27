//! Ball (circle / sphere) tests of seed 002: ball–ball static and moving, ball–AABB
//! overlap and contact. Generic over `V`, so one source serves 2D circles and 3D
//! spheres (Ericson 4.3.1, 5.2.5, 5.5.5; 3D Math Primer ch. 13).
//!
//! No tolerances: the moving test uses the factored forms `(|e| − r)(|e| + r)` and
//! `r² − |e⊥|²` (Haines et al., "Precision Improvements for Ray/Sphere
//! Intersection", *Ray Tracing Gems* ch. 7) instead of the seed's cancelling
//! `r² − e·e + a²`, and the stable root `c / (−b + √disc)`.

use crate::algo::gjk::Status;
use crate::math::{Real, Vector};
use crate::query::contact::{contact_points, Contact};
use crate::shape::{Aabb, Ball};

/// Ball–ball overlap (seed 002), with squared distances and no square root (lengths
/// when the squares overflow).
/// Touching counts. Balls are validated, so no NaN reaches this test.
///
/// ```
/// use isect::d2::*;
/// use isect::query::ball_tests::ball_ball_intersects;
///
/// # fn main() -> Result<(), ShapeError> {
/// let a = Ball::new(Vec2::ZERO, 1.0)?;
/// assert!(ball_ball_intersects(&a, &Ball::new(Vec2::new(3.0, 0.0), 2.0)?)); // touching
/// assert!(!ball_ball_intersects(&a, &Ball::new(Vec2::new(3.1, 0.0), 2.0)?));
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn ball_ball_intersects<V: Vector>(a: &Ball<V>, b: &Ball<V>) -> bool {
    (b.center() - a.center()).length_at_most(a.radius() + b.radius())
}

/// Ball–ball contact: `None` when separated (the squared test of
/// [`ball_ball_intersects`], so touching counts). Concentric balls have no preferred
/// direction: they report the first coordinate axis as normal, as parry does, with
/// [`Status::Degenerate`].
///
/// ```
/// use isect::d3::*;
/// use isect::query::ball_tests::ball_ball_contact;
///
/// # fn main() -> Result<(), ShapeError> {
/// let a = Ball::new(Vec3::ZERO, 1.0)?;
/// let b = Ball::new(Vec3::new(0.0, 1.5, 0.0), 1.0)?;
/// let c = ball_ball_contact(&a, &b).expect("they overlap");
/// assert_eq!(c.normal, Vec3::Y);
/// assert!((c.depth - 0.5).abs() < 1e-6);
/// assert!((c.point_a - Vec3::Y).length() < 1e-6);
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn ball_ball_contact<V: Vector>(a: &Ball<V>, b: &Ball<V>) -> Option<Contact<V>> {
    let (ca, cb) = (a.center(), b.center());
    let offset = cb - ca;
    let dist_sq = offset.length_squared();
    let r = a.radius() + b.radius();
    // Validated balls have finite centres: `dist_sq` is never NaN (at worst `+∞`).
    if !offset.length_at_most(r) {
        return None;
    }
    let eps = V::Scalar::EPSILON;
    if dist_sq <= eps * eps {
        // Coincident centres, or a distance whose square underflows: the general
        // helper rescales the offset before normalising it (and falls back to +x).
        return contact_points(
            ca,
            a.radius(),
            cb,
            b.radius(),
            V::Scalar::INFINITY,
            V::unit_axis(0),
        );
    }
    // One square root for both the distance and the unit normal (the same values as
    // `length()` and `try_normalize()` give, without computing them twice).
    let dist = offset.length();
    let normal = offset * dist.recip();
    Some(Contact {
        normal,
        depth: r - dist,
        point_a: ca + normal * a.radius(),
        point_b: cb - normal * b.radius(),
        status: Status::Converged,
    })
}

/// First contact time of two moving balls (seed 002, dynamic): ball `a` moves by
/// `motion_a · t` and `b` by `motion_b · t` for `t ∈ [0, 1]`. Returns the smallest
/// `t` at which they touch.
///
/// - Already touching or overlapping at `t = 0`: `Some(0)`.
/// - No relative motion, moving apart, or passing by: `None`.
/// - NaN or infinite motion: `None`.
///
/// In `a`'s frame, `b`'s centre moves along `d = motion_b − motion_a` and meets the
/// ball of radius `r = r_a + r_b` around `a`'s centre when `|e + t·d| = r`.
///
/// ```
/// use isect::d2::*;
/// use isect::query::ball_tests::ball_ball_first_contact;
///
/// # fn main() -> Result<(), ShapeError> {
/// // Unit circles 10 apart closing at 16 in total: they touch when 2 apart, t = 0.5.
/// let a = Ball::new(Vec2::ZERO, 1.0)?;
/// let b = Ball::new(Vec2::new(10.0, 0.0), 1.0)?;
/// let t = ball_ball_first_contact(&a, Vec2::new(8.0, 0.0), &b, Vec2::new(-8.0, 0.0));
/// assert!((t.expect("they meet") - 0.5).abs() < 1e-6);
/// // Moving apart: no contact.
/// assert_eq!(ball_ball_first_contact(&a, -Vec2::X, &b, Vec2::X), None);
/// # Ok(())
/// # }
/// ```
pub fn ball_ball_first_contact<V: Vector>(
    a: &Ball<V>,
    motion_a: V,
    b: &Ball<V>,
    motion_b: V,
) -> Option<V::Scalar> {
    let zero = V::Scalar::ZERO;
    if !(motion_a.is_finite() && motion_b.is_finite()) {
        return None;
    }
    let e = b.center() - a.center();
    let d = motion_b - motion_a;
    let r = a.radius() + b.radius();
    let dist = e.length();
    // c = |e|² − r², factored so a near-touching start keeps its sign and digits.
    let c = (dist - r) * (dist + r);
    if c <= zero {
        return Some(zero);
    }
    let dd = d.length_squared();
    let b_half = e.dot(d);
    let approaching = b_half < zero && dd > zero;
    if !approaching {
        return None;
    }
    // disc/dd = r² − |e⊥|², e⊥ = e − d (e·d)/|d|²: the line's miss distance.
    let miss = (e - d * (b_half / dd)).length();
    let h = (r - miss) * (r + miss);
    let line_meets_ball = h >= zero;
    if !line_meets_ball {
        return None;
    }
    let t = c / (-b_half + (dd * h).sqrt());
    (t <= V::Scalar::ONE).then_some(t)
}

/// Ball–AABB overlap (seed 002): clamp the centre to the box to get its closest
/// point, then compare squared distance with `r²`. Touching counts. A box holding
/// NaN (through its public fields) gives `false`.
///
/// ```
/// use isect::d3::*;
/// use isect::query::ball_tests::ball_aabb_intersects;
///
/// # fn main() -> Result<(), ShapeError> {
/// let cube = Aabb::new(Vec3::ZERO, Vec3::ONE)?;
/// // The cube's corner (1, 1, 1) is √3 ≈ 1.732 from (2, 2, 2).
/// assert!(ball_aabb_intersects(&Ball::new(Vec3::splat(2.0), 1.75)?, &cube));
/// assert!(!ball_aabb_intersects(&Ball::new(Vec3::splat(2.0), 1.7)?, &cube));
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn ball_aabb_intersects<V: Vector>(ball: &Ball<V>, aabb: &Aabb<V>) -> bool {
    let r = ball.radius();
    aabb.distance_squared_to_point(ball.center()) <= r * r
}

/// Ball–AABB contact, normal from the ball (A) to the box (B); `None` when
/// separated or when the box holds NaN. [`ball_aabb_contact_predicted`] with a zero
/// prediction.
///
/// ```
/// use isect::d2::*;
/// use isect::query::ball_tests::ball_aabb_contact;
///
/// # fn main() -> Result<(), ShapeError> {
/// let ground = Aabb::new(Vec2::new(-10.0, -1.0), Vec2::new(10.0, 0.0))?;
/// let ball = Ball::new(Vec2::new(3.0, 0.75), 1.0)?;
/// let c = ball_aabb_contact(&ball, &ground).expect("the ball sinks 0.25 into the ground");
/// assert_eq!(c.normal, -Vec2::Y); // from the ball to the box
/// assert!((c.depth - 0.25).abs() < 1e-6);
/// assert_eq!(c.point_b, Vec2::new(3.0, 0.0));
/// # Ok(())
/// # }
/// ```
pub fn ball_aabb_contact<V: Vector>(ball: &Ball<V>, aabb: &Aabb<V>) -> Option<Contact<V>> {
    ball_aabb_contact_predicted(ball, aabb, V::Scalar::ZERO)
}

/// Ball–AABB contact, also for a ball at most `prediction` away (negative depth).
///
/// Centre outside the box: the normal points from the centre to the closest point
/// (touching by the squared test counts, with depth ≥ 0). Centre inside (or on the
/// boundary): the ball leaves through the nearest face, so the normal is minus that
/// face's outward normal and the depth is the radius plus the centre's distance to
/// that face. Ties between faces go to the lowest axis, min side first. A NaN box or
/// `prediction` gives `None`.
///
/// ```
/// use isect::d2::*;
/// use isect::query::ball_tests::ball_aabb_contact_predicted;
///
/// # fn main() -> Result<(), ShapeError> {
/// let ground = Aabb::new(Vec2::new(-10.0, -1.0), Vec2::new(10.0, 0.0))?;
/// let ball = Ball::new(Vec2::new(0.0, 1.5), 1.0)?; // 0.5 above the ground
/// let c = ball_aabb_contact_predicted(&ball, &ground, 1.0).expect("within the prediction");
/// assert!((c.depth + 0.5).abs() < 1e-6); // a gap is a negative depth
/// assert!(ball_aabb_contact_predicted(&ball, &ground, 0.25).is_none());
/// # Ok(())
/// # }
/// ```
pub fn ball_aabb_contact_predicted<V: Vector>(
    ball: &Ball<V>,
    aabb: &Aabb<V>,
    prediction: V::Scalar,
) -> Option<Contact<V>> {
    let (c, r) = (ball.center(), ball.radius());
    let closest = aabb.closest_point(c);
    let contact = match (closest - c).try_normalize() {
        Some(normal) => Contact {
            normal,
            depth: outside_depth(r, closest.distance_squared(c)),
            point_a: c + normal * r,
            point_b: closest,
            status: Status::Converged,
        },
        None => inside_contact(aabb, c, r),
    };
    (-contact.depth <= prediction).then_some(contact)
}

/// `r − dist`, never negative when the squared test says the ball touches.
#[inline]
fn outside_depth<S: Real>(r: S, dist_sq: S) -> S {
    let depth = r - dist_sq.sqrt();
    if dist_sq <= r * r {
        depth.max(S::ZERO)
    } else {
        depth
    }
}

/// Contact of a ball whose centre `c` is inside (or on) the box: out by the nearest face.
fn inside_contact<V: Vector>(aabb: &Aabb<V>, c: V, r: V::Scalar) -> Contact<V> {
    let (axis, face_value, outward) = nearest_face(aabb, c);
    let normal = -outward;
    Contact {
        normal,
        depth: r + (face_value - c.get(axis)).abs(),
        point_a: c + normal * r,
        point_b: c.with(axis, face_value),
        status: Status::Converged,
    }
}

/// The box face nearest to an inside point `p`: its axis, coordinate and outward normal.
fn nearest_face<V: Vector>(aabb: &Aabb<V>, p: V) -> (usize, V::Scalar, V) {
    let mut best = (0, aabb.min.get(0), -V::unit_axis(0));
    let mut best_gap = V::Scalar::INFINITY;
    for i in 0..V::DIM {
        let to_min = p.get(i) - aabb.min.get(i);
        let to_max = aabb.max.get(i) - p.get(i);
        if to_min < best_gap {
            best_gap = to_min;
            best = (i, aabb.min.get(i), -V::unit_axis(i));
        }
        if to_max < best_gap {
            best_gap = to_max;
            best = (i, aabb.max.get(i), V::unit_axis(i));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, DVec3, Vec2, Vec3};

    /// Unit, ≈1e5 and ≈1e-4 scales; powers of two keep expected answers exact.
    const SCALES: [f64; 3] = [1.0, 65536.0, 1.0 / 8192.0];

    fn ball<V: Vector>(c: V, r: f64) -> Ball<V> {
        Ball::new(c, V::Scalar::from_f64(r)).unwrap()
    }

    /// Static and contact: touching, separated by an ulp, deep, concentric.
    fn static_cases<V: Vector>(k: f64)
    where
        V::Scalar: NextUp,
    {
        let s = |v: f64| V::Scalar::from_f64(v * k);
        let x = V::unit_axis(0);
        let a = ball(V::ZERO, k);
        let touching = ball(x * s(3.0), 2.0 * k);
        assert!(ball_ball_intersects(&a, &touching));
        let contact = ball_ball_contact(&a, &touching).unwrap();
        assert_eq!((contact.normal, contact.depth), (x, V::Scalar::ZERO));
        assert_eq!(contact.point_a, contact.point_b);
        let apart = ball(x * s(3.0).next_up_generic(), 2.0 * k);
        assert!(!ball_ball_intersects(&a, &apart));
        assert!(ball_ball_contact(&a, &apart).is_none());
        let concentric = ball_ball_contact(&a, &ball(V::ZERO, k)).unwrap();
        assert_eq!((concentric.normal, concentric.depth), (x, s(2.0)));
        assert_eq!(concentric.status, Status::Degenerate);
        // Centres ε²·k apart (squared distance below ε²): still a unit normal along
        // the offset, by the rescaling fallback.
        let eps = V::Scalar::EPSILON;
        let near = ball_ball_contact(&a, &ball(x * (eps * eps * s(1.0)), k)).unwrap();
        assert_eq!((near.normal, near.status), (x, Status::Converged));
        // Overlapping off-axis: unit normal along the offset, points on the surfaces.
        let off = V::splat(s(0.5));
        let c = ball_ball_contact(&a, &ball(off, k)).unwrap();
        let tol = eps * s(4.0);
        assert!((c.normal.length() - V::Scalar::ONE).abs() <= eps * V::Scalar::TWO);
        assert!(c.normal.dot(off) > V::Scalar::ZERO);
        assert!((c.depth - (s(2.0) - off.length())).abs() <= tol);
        assert!((c.point_a - c.normal * s(1.0)).length() <= tol);
        assert!((c.point_b - (off - c.normal * s(1.0))).length() <= tol);
    }

    /// Moving: head-on time, already touching, grazing, receding, too far, NaN.
    fn dynamic_cases<V: Vector>(k: f64)
    where
        V::Scalar: NextUp,
    {
        let s = |v: f64| V::Scalar::from_f64(v * k);
        let (x, y) = (V::unit_axis(0), V::unit_axis(1));
        let a = ball(V::ZERO, k);
        let b = ball(x * s(10.0), k);
        // Closing speed 16k per unit t, gap 8k: contact at t = 0.5, either ball moving.
        let half = V::Scalar::HALF;
        assert_eq!(
            ball_ball_first_contact(&a, x * s(8.0), &b, -x * s(8.0)),
            Some(half)
        );
        assert_eq!(
            ball_ball_first_contact(&a, x * s(16.0), &b, V::ZERO),
            Some(half)
        );
        assert_eq!(ball_ball_first_contact(&a, V::ZERO, &b, -x * s(7.0)), None);
        assert_eq!(ball_ball_first_contact(&a, -x, &b, x), None); // receding
        let touching = ball(x * s(2.0), k);
        let zero = V::Scalar::ZERO;
        assert_eq!(ball_ball_first_contact(&a, -x, &touching, x), Some(zero));
        assert_eq!(ball_ball_first_contact(&a, V::ZERO, &b, V::ZERO), None);
        // b passes a at exactly distance 2k (grazing): touches at t where x = 0.
        let grazing = ball(x * s(10.0) + y * s(2.0), k);
        let t = ball_ball_first_contact(&a, V::ZERO, &grazing, -x * s(20.0)).unwrap();
        assert!((t - half).abs() <= V::Scalar::from_f64(1e-6));
        let nan = V::splat(V::Scalar::from_f64(f64::NAN));
        assert_eq!(ball_ball_first_contact(&a, nan, &b, V::ZERO), None);
    }

    /// Ball–AABB: outside near a face and a corner, touching, centre inside.
    fn aabb_cases<V: Vector>(k: f64)
    where
        V::Scalar: NextUp,
    {
        let s = |v: f64| V::Scalar::from_f64(v * k);
        let x = V::unit_axis(0);
        let aabb = Aabb::new(V::ZERO, V::splat(s(4.0))).unwrap();
        let touching = ball(V::splat(s(2.0)) - x * s(3.0), k);
        assert!(ball_aabb_intersects(&touching, &aabb));
        let c = ball_aabb_contact(&touching, &aabb).unwrap();
        assert_eq!((c.normal, c.depth), (x, V::Scalar::ZERO));
        let apart = ball(V::splat(s(2.0)) - x * s(3.0).next_up_generic(), k);
        assert!(!ball_aabb_intersects(&apart, &aabb));
        // Diagonal off a corner: within r per axis but not in Euclidean distance.
        let corner = ball(-V::splat(s(0.9)), k);
        assert!(!ball_aabb_intersects(&corner, &aabb));
        // Centre inside, nearest face x = 4k at distance k: normal is minus that face's.
        let inside = ball(V::splat(s(2.0)) + x * s(1.0), k);
        let c = ball_aabb_contact(&inside, &aabb).unwrap();
        assert_eq!((c.normal, c.depth), (-x, s(2.0)));
        assert_eq!(c.point_b.get(0), s(4.0));
    }

    trait NextUp {
        fn next_up_generic(self) -> Self;
    }
    impl NextUp for f32 {
        fn next_up_generic(self) -> Self {
            self.next_up()
        }
    }
    impl NextUp for f64 {
        fn next_up_generic(self) -> Self {
            self.next_up()
        }
    }

    macro_rules! for_all_types {
        ($name:ident, $body:ident) => {
            #[test]
            fn $name() {
                for k in SCALES {
                    $body::<Vec2>(k);
                    $body::<Vec3>(k);
                    $body::<DVec2>(k);
                    $body::<DVec3>(k);
                }
            }
        };
    }

    for_all_types!(ball_ball_static_and_contact, static_cases);
    for_all_types!(ball_ball_moving, dynamic_cases);
    for_all_types!(ball_aabb, aabb_cases);
}
