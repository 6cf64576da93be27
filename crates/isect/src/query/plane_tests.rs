//! Plane tests of seed 002: AABB against a plane (static and moving) and the point
//! where three planes meet (3D Math Primer ch. 13; Ericson 5.2.3 and 5.4.5).
//!
//! Tolerance: [`THREE_PLANES_PARALLEL_ULPS`] for the three-plane determinant. The box
//! tests need none: they compare exact dot products with `d`.

use crate::math::tolerance::eps;
use crate::math::{Real, Vector, Vector3};
use crate::shape::{Aabb, Plane};

/// Where a box lies relative to a plane.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PlaneSide {
    /// Entirely in front (`normal · p > d` for every point).
    Front,
    /// Entirely behind (`normal · p < d` for every point).
    Back,
    /// On both sides, or touching the plane.
    Straddling,
}

/// The smallest and largest `normal · p` over the box (seed 002's corner trick: per
/// axis the sign of the normal's component picks `min` or `max`).
#[inline]
fn projected_range<V: Vector>(aabb: &Aabb<V>, normal: V) -> (V::Scalar, V::Scalar) {
    let zero = V::Scalar::ZERO;
    let (mut lo, mut hi) = (zero, zero);
    for i in 0..V::DIM {
        let n = normal.get(i);
        let (near, far) = if n >= zero {
            (aabb.min.get(i), aabb.max.get(i))
        } else {
            (aabb.max.get(i), aabb.min.get(i))
        };
        lo += n * near;
        hi += n * far;
    }
    (lo, hi)
}

/// Static AABB–plane test (seed 002). A box touching the plane is
/// [`PlaneSide::Straddling`]. Works in 2D (a line) and 3D.
///
/// Returns `None` when the box holds NaN (possible through its public fields).
///
/// ```
/// use isect::d3::*;
/// use isect::query::plane_tests::{aabb_plane_side, PlaneSide};
///
/// # fn main() -> Result<(), ShapeError> {
/// let floor = Plane::new(Vec3::Y, 0.0)?; // y = 0, front side up
/// let crate_above = Aabb::new(Vec3::new(0.0, 0.5, 0.0), Vec3::new(1.0, 1.5, 1.0))?;
/// let sunk = Aabb::new(Vec3::new(0.0, -0.5, 0.0), Vec3::new(1.0, 0.5, 1.0))?;
/// assert_eq!(aabb_plane_side(&crate_above, &floor), Some(PlaneSide::Front));
/// assert_eq!(aabb_plane_side(&sunk, &floor), Some(PlaneSide::Straddling));
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn aabb_plane_side<V: Vector>(aabb: &Aabb<V>, plane: &Plane<V>) -> Option<PlaneSide> {
    let (lo, hi) = projected_range(aabb, plane.normal());
    let d = plane.d();
    if lo.is_nan() || hi.is_nan() {
        None
    } else if lo > d {
        Some(PlaneSide::Front)
    } else if hi < d {
        Some(PlaneSide::Back)
    } else {
        Some(PlaneSide::Straddling)
    }
}

/// Moving AABB against a fixed plane (seed 002, dynamic): the box translates by
/// `motion · t` for `t ∈ [0, max_t]` (`motion` need not be unit; with a unit motion
/// `max_t` is the seed's length `L`). Returns the first `t` at which it touches.
///
/// - Already touching or straddling at `t = 0`: `Some(0)`.
/// - `front_only`: only a box starting in front and moving backwards counts (the
///   seed's "front-side collisions only"); a box starting behind gives `None`.
/// - Motion parallel to the plane (`normal · motion = 0`) never touches: `None`.
/// - NaN or infinite box or motion, or a NaN or negative `max_t`: `None`.
///
/// ```
/// use isect::d2::*;
/// use isect::query::plane_tests::aabb_plane_first_contact;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A unit box 3 above the line y = 0, falling at 2 a second: it lands at t = 1.5.
/// let ground = Plane::new(Vec2::Y, 0.0)?;
/// let b = Aabb::new(Vec2::new(0.0, 3.0), Vec2::new(1.0, 4.0))?;
/// let t = aabb_plane_first_contact(&b, &ground, Vec2::new(0.0, -2.0), 10.0, true);
/// assert!((t.expect("it lands") - 1.5).abs() < 1e-6);
/// assert_eq!(aabb_plane_first_contact(&b, &ground, Vec2::new(0.0, -2.0), 1.0, true), None);
/// # Ok(())
/// # }
/// ```
pub fn aabb_plane_first_contact<V: Vector>(
    aabb: &Aabb<V>,
    plane: &Plane<V>,
    motion: V,
    max_t: V::Scalar,
    front_only: bool,
) -> Option<V::Scalar> {
    let zero = V::Scalar::ZERO;
    let finite = aabb.min.is_finite() && aabb.max.is_finite() && motion.is_finite();
    let valid = finite && max_t >= zero;
    if !valid {
        return None;
    }
    let (lo, hi) = projected_range(aabb, plane.normal());
    let (gap_front, gap_back) = (lo - plane.d(), plane.d() - hi);
    let speed = plane.normal().dot(motion);
    let t = if gap_front <= zero && gap_back <= zero {
        zero
    } else if gap_front > zero && speed < zero {
        // In front: the corner of smallest dot product touches first.
        gap_front / -speed
    } else if gap_back > zero && speed > zero && !front_only {
        gap_back / speed
    } else {
        return None;
    };
    (t <= max_t).then_some(t)
}

/// Tolerance for [`three_planes_point`]: the planes meet in one point only when
/// `|(n₁ × n₂) · n₃| > THREE_PLANES_PARALLEL_ULPS · ε` for their unit normals. The
/// determinant is the volume spanned by the normals, at most 1; below this bound the
/// point's error (`≈ ε·|d| / det`) exceeds a thousandth of `|d|` in the worst case.
pub const THREE_PLANES_PARALLEL_ULPS: f64 = 1024.0;

/// The point where three planes `nᵢ · p = dᵢ` meet (seed 002):
/// `p = (d₁(n₂×n₃) + d₂(n₃×n₁) + d₃(n₁×n₂)) / ((n₁×n₂)·n₃)`.
///
/// `None` when two planes are parallel or nearly so, or when all three normals are
/// (nearly) coplanar, e.g. three faces of a prism: then there is no single point.
/// "Nearly" is [`THREE_PLANES_PARALLEL_ULPS`] machine epsilons of the determinant.
///
/// ```
/// use isect::d3::*;
/// use isect::query::plane_tests::three_planes_point;
///
/// # fn main() -> Result<(), ShapeError> {
/// let (x, y, z) = (Plane::new(Vec3::X, 1.0)?, Plane::new(Vec3::Y, 2.0)?, Plane::new(Vec3::Z, 3.0)?);
/// let p = three_planes_point(&x, &y, &z).expect("three independent normals");
/// assert!((p - Vec3::new(1.0, 2.0, 3.0)).length() < 1e-6);
/// // Two parallel planes: no single point.
/// assert_eq!(three_planes_point(&x, &Plane::new(Vec3::X, 5.0)?, &z), None);
/// # Ok(())
/// # }
/// ```
pub fn three_planes_point<V: Vector3>(a: &Plane<V>, b: &Plane<V>, c: &Plane<V>) -> Option<V> {
    let (n1, n2, n3) = (a.normal(), b.normal(), c.normal());
    let n12 = n1.cross(n2);
    let det = n12.dot(n3);
    let single_point = det.abs() > eps::<V::Scalar>(THREE_PLANES_PARALLEL_ULPS);
    if !single_point {
        return None;
    }
    let sum = n2.cross(n3) * a.d() + n3.cross(n1) * b.d() + n12 * c.d();
    let p = sum / det;
    p.is_finite().then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, DVec3, Vec2, Vec3};

    /// Unit, huge (2¹⁶ ≈ 1e5) and tiny (2⁻¹³ ≈ 1e-4) scales; powers of two keep the
    /// expected answers exact.
    const SCALES: [f64; 3] = [1.0, 65536.0, 1.0 / 8192.0];

    /// One body for 2D/3D, f32/f64: a unit box at `k` scale against planes `x = c`.
    fn static_cases<V: Vector>(k: f64) {
        let s = |v: f64| V::Scalar::from_f64(v * k);
        let aabb = Aabb::new(V::ZERO, V::splat(s(1.0))).unwrap();
        let x_plane = |c: f64| Plane::new(V::unit_axis(0), s(c)).unwrap();
        assert_eq!(
            aabb_plane_side(&aabb, &x_plane(-0.5)),
            Some(PlaneSide::Front)
        );
        assert_eq!(aabb_plane_side(&aabb, &x_plane(1.5)), Some(PlaneSide::Back));
        assert_eq!(
            aabb_plane_side(&aabb, &x_plane(0.5)),
            Some(PlaneSide::Straddling)
        );
        // Touching at a face, on either side, straddles.
        assert_eq!(
            aabb_plane_side(&aabb, &x_plane(1.0)),
            Some(PlaneSide::Straddling)
        );
        assert_eq!(
            aabb_plane_side(&aabb, &x_plane(0.0)),
            Some(PlaneSide::Straddling)
        );
        // Flipped plane swaps the sides.
        let flipped = x_plane(-0.5).flipped();
        assert_eq!(aabb_plane_side(&aabb, &flipped), Some(PlaneSide::Back));
        let nan = Aabb {
            min: V::splat(V::Scalar::from_f64(f64::NAN)),
            max: aabb.max,
        };
        assert_eq!(aabb_plane_side(&nan, &x_plane(0.5)), None);
    }

    // Static test: front, back, straddling, touching both faces, NaN; all scales and types.
    #[test]
    fn static_aabb_plane() {
        for k in SCALES {
            static_cases::<Vec2>(k);
            static_cases::<Vec3>(k);
            static_cases::<DVec2>(k);
            static_cases::<DVec3>(k);
        }
    }

    /// A unit box at `k` scale moving along ±x toward the plane `x = 3k`.
    fn dynamic_cases<V: Vector>(k: f64) {
        let s = |v: f64| V::Scalar::from_f64(v * k);
        let aabb = Aabb::new(V::ZERO, V::splat(s(1.0))).unwrap();
        let plane = Plane::new(-V::unit_axis(0), s(-3.0)).unwrap(); // x = 3k, front at x < 3k
        let x = V::unit_axis(0) * s(1.0);
        let t = aabb_plane_first_contact(&aabb, &plane, x, V::Scalar::from_f64(5.0), true);
        assert_eq!(t, Some(V::Scalar::from_f64(2.0)));
        // Too short a motion, moving away, parallel motion.
        let one = V::Scalar::ONE;
        assert_eq!(aabb_plane_first_contact(&aabb, &plane, x, one, false), None);
        assert_eq!(
            aabb_plane_first_contact(&aabb, &plane, -x, one, false),
            None
        );
        let along = V::unit_axis(1) * s(1.0);
        assert_eq!(
            aabb_plane_first_contact(&aabb, &plane, along, one, false),
            None
        );
        // Touching at the end of the motion counts.
        let two = V::Scalar::TWO;
        assert_eq!(
            aabb_plane_first_contact(&aabb, &plane, x, two, true),
            Some(two)
        );
        // Starting behind: only without front_only.
        let flipped = plane.flipped();
        assert_eq!(
            aabb_plane_first_contact(&aabb, &flipped, x, two, true),
            None
        );
        assert_eq!(
            aabb_plane_first_contact(&aabb, &flipped, x, two, false),
            Some(two)
        );
        // Already touching at t = 0, even with zero motion.
        let touching = Plane::new(V::unit_axis(0), s(1.0)).unwrap();
        let zero = V::Scalar::ZERO;
        assert_eq!(
            aabb_plane_first_contact(&aabb, &touching, V::ZERO, zero, true),
            Some(zero)
        );
        // NaN motion and NaN max_t.
        let nan = V::Scalar::from_f64(f64::NAN);
        assert_eq!(
            aabb_plane_first_contact(&aabb, &plane, V::splat(nan), one, false),
            None
        );
        assert_eq!(aabb_plane_first_contact(&aabb, &plane, x, nan, false), None);
    }

    // Dynamic test: contact time, short motion, parallel, behind, touching, NaN.
    #[test]
    fn dynamic_aabb_plane() {
        for k in SCALES {
            dynamic_cases::<Vec2>(k);
            dynamic_cases::<Vec3>(k);
            dynamic_cases::<DVec2>(k);
            dynamic_cases::<DVec3>(k);
        }
    }

    /// The three coordinate planes shifted to `(1, 2, 3)·k` meet there; tilted ones too.
    fn three_plane_cases<V: Vector3>(k: f64) {
        let s = |v: f64| V::Scalar::from_f64(v * k);
        let px = Plane::new(V::unit_axis(0), s(1.0)).unwrap();
        let py = Plane::new(V::unit_axis(1), s(2.0)).unwrap();
        let pz = Plane::new(V::unit_axis(2), s(3.0)).unwrap();
        let p = three_planes_point(&px, &py, &pz).unwrap();
        assert_eq!(p, V::new(s(1.0), s(2.0), s(3.0)));
        let target = V::new(s(0.5), s(-1.0), s(2.0));
        let tilted = [
            V::new(s(1.0), s(1.0), s(0.0)),
            V::new(s(0.0), s(1.0), s(1.0)),
        ];
        let pa = Plane::from_point_normal(target, tilted[0]).unwrap();
        let pb = Plane::from_point_normal(target, tilted[1]).unwrap();
        let pc = Plane::from_point_normal(target, V::unit_axis(0)).unwrap();
        let q = three_planes_point(&pa, &pb, &pc).unwrap();
        let tol = V::Scalar::from_f64(1e-5 * k);
        assert!(q.distance(target) <= tol, "{q:?} vs {target:?}");
        // Parallel pair, coincident pair, and three planes through one line.
        let px2 = Plane::new(V::unit_axis(0), s(5.0)).unwrap();
        assert_eq!(three_planes_point(&px, &px2, &pz), None);
        assert_eq!(three_planes_point(&px, &px, &pz), None);
        let diag = Plane::new(V::new(s(1.0), s(1.0), s(0.0)), s(0.0)).unwrap();
        assert_eq!(three_planes_point(&px, &py, &diag), None);
    }

    // Three planes: exact axis case, tilted, parallel, coincident, prism; scales, types.
    #[test]
    fn three_planes() {
        for k in SCALES {
            three_plane_cases::<Vec3>(k);
            three_plane_cases::<DVec3>(k);
        }
    }

    // Nearly parallel: a tilt of 1e-14 rad is rejected in f64 (1e-6 in f32), 1e-2 is not.
    #[test]
    fn nearly_parallel_planes() {
        let a32 = Plane::new(Vec3::X, 0.0).unwrap();
        let b32 = Plane::new(Vec3::new(1.0, 1e-6, 0.0), 1.0).unwrap();
        let c32 = Plane::new(Vec3::Z, 0.0).unwrap();
        assert_eq!(three_planes_point(&a32, &b32, &c32), None);
        let a = Plane::new(DVec3::X, 0.0).unwrap();
        let b = Plane::new(DVec3::new(1.0, 1e-14, 0.0), 1.0).unwrap();
        let c = Plane::new(DVec3::Z, 0.0).unwrap();
        assert_eq!(three_planes_point(&a, &b, &c), None);
        let b = Plane::new(DVec3::new(1.0, 1e-2, 0.0), 1.0).unwrap();
        assert!(three_planes_point(&a, &b, &c).is_some());
    }
}
