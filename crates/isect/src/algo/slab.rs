//! The slab test: a ray or segment against an axis-aligned box (seed 000,
//! `isectSegAABB`; Ericson, *Real-Time Collision Detection*, 5.3.3; Williams et al.,
//! "An efficient and robust ray–box intersection algorithm", 2005), made
//! conservative as in T. Ize, "Robust BVH Ray Traversal" (JCGT 2013).
//!
//! Per axis the ray `origin + t·dir` crosses the two slab planes at
//! `t = (min − origin) / dir` and `(max − origin) / dir`; the ray is in the box on the
//! intersection of the per-axis intervals, clipped to `[0, max_t]`.
//!
//! No parallel epsilon (the seed's `|d| < 1e-6` "parallel" test is the trap this
//! avoids): the inverse direction is IEEE's, so a zero component gives `±∞` and
//! that slab either holds the whole line or none of it. The one NaN, `0·∞`, arises
//! only when the origin lies exactly on a slab plane of an axis the ray does not move
//! along; that slab then holds the line, so the NaN is replaced by the infinity it
//! stands for (IEEE `maxNum`/`minNum` against `∓∞`, see `axis_interval`). A `−0.0`
//! direction component is made `+0.0` (so `1/dir` is never `−∞`). Every step is a
//! min or max instruction: no step branches on the data.
//!
//! Boxes are closed, and the test is conservative: each plane's `t` is three
//! roundings away from the exact one (the subtraction, the rounded `1/dir`, the
//! product), so a ray through an edge or a corner can compute an entry an ulp or two
//! beyond its exit and miss the box it touches. The exit is therefore compared grown
//! by [`SLAB_EXIT_ULPS`] (`t_enter ≤ t_exit·(1 + 2γ₃)`, Ize's rule, see [`widen`]):
//! every box the exact ray meets within `[0, max_t]` is hit, and a ray passing
//! outside an edge or corner by less than that relative margin of its `t` counts as
//! touching it. A hit's entry is at most `max_t`.

use crate::math::tolerance::eps;
use crate::math::{Real, Vector};
use crate::shape::{Aabb, Ray, Segment};

/// The slab test's tolerance `2γ₃` in machine epsilons (`γₙ = nε / (1 − nε)`, ε the
/// machine epsilon, `2⁻²³` in `f32`): a box is hit when `t_enter ≤ t_exit·(1 + 6ε)`.
///
/// Why it suffices: each computed plane parameter is its exact value times three
/// factors in `[1 − u, 1 + u]` (`u = ε/2`; no underflow), so for a ray that touches
/// the box (exact `t_enter ≤ t_exit`, both `≥ 0`) the computed entry is at most
/// `t_enter·(1 + u)³` and the computed exit at least `t_exit·(1 − u)³`; the product
/// with `1 + 6ε` rounds down by at most one more `(1 − u)`, and
/// `(1 − u)⁴·(1 + 12u) ≥ (1 + u)³`. (`1 + 7u` would do; pbrt's `1 + 2γ₃` with `u` for
/// ε, `1 + 6u`, is one rounding short in the worst case.) `max_t` is compared grown
/// alike, so a box entered exactly at `max_t` is hit. The test is exact for zero
/// direction components (infinite plane parameters) and does not cover subnormal
/// plane parameters, whose rounding is absolute.
pub const SLAB_EXIT_ULPS: f64 = 6.0;

/// `t` grown by the slab test's tolerance, `t·(1 + `[`SLAB_EXIT_ULPS`]`·ε)`, and kept
/// at most the largest finite value (a NaN stays NaN, `−∞` stays `−∞`). A box is hit
/// when its computed entry is at most `widen` of its computed exit (and of `max_t`);
/// traversals compare the entries of pending nodes with `widen(max_t)` after `max_t`
/// shrank, so that a box entered exactly at the new `max_t` (an equal-`t` hit) is
/// still visited. Never `+∞`: an entry at `+∞` (a still ray outside a slab, or an
/// empty slot) is never within it.
#[inline(always)]
pub fn widen<S: Real>(t: S) -> S {
    let grown = t * (S::ONE + eps::<S>(SLAB_EXIT_ULPS));
    // `>` (not `min`): a NaN clip stays NaN, a miss.
    if grown > S::MAX {
        S::MAX
    } else {
        grown
    }
}

/// True when an entry `t_enter` and an exit `t_exit` (already clipped to `max_t`) of
/// the slab test mean a hit: `t_enter ≤ widen(t_exit)` (so `t_enter` is finite).
#[inline(always)]
fn touches<S: Real>(t_enter: S, t_exit: S) -> bool {
    t_enter <= widen(t_exit)
}

/// A ray with its inverse direction precomputed, for testing it against many boxes.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PreparedRay<V: Vector> {
    /// Ray origin.
    pub origin: V,
    /// Component-wise `1 / dir`, `+∞` where `dir` is `+0` or `−0` (never `−∞`: the
    /// slab ordering relies on it).
    pub inv_dir: V,
    /// Largest `t` of interest; `−∞` for a ray with NaN or infinite input, which then
    /// hits nothing.
    pub max_t: V::Scalar,
}

impl<V: Vector> PreparedRay<V> {
    /// Prepares `ray` for tests over `t ∈ [0, max_t]` (`max_t` may be `+∞`).
    /// A non-finite ray, or a NaN or negative `max_t`, gives a ray that hits nothing.
    #[inline]
    pub fn new(ray: &Ray<V>, max_t: V::Scalar) -> Self {
        let valid = ray.is_finite() && max_t >= V::Scalar::ZERO;
        Self {
            origin: ray.origin,
            // `+ 0` turns a `−0` component into `+0`, so its inverse is `+∞`.
            inv_dir: (ray.dir + V::ZERO).recip(),
            max_t: if valid {
                max_t
            } else {
                V::Scalar::NEG_INFINITY
            },
        }
    }

    /// The interval `[t_enter, t_exit] ⊆ [0, max_t]` during which the ray is inside the
    /// closed box, or `None` when it misses. `t_enter = 0` when the origin is inside.
    /// Conservative (module docs): a ray grazing an edge or corner within
    /// [`SLAB_EXIT_ULPS`] of its `t` hits, with `t_enter = t_exit` when the rounded
    /// entry lies beyond the rounded exit.
    #[inline]
    pub fn interval(&self, aabb: &Aabb<V>) -> Option<(V::Scalar, V::Scalar)> {
        self.hit_interval(self.raw_interval(aabb))
    }

    /// The interval of a [`raw_interval`](Self::raw_interval) that touches the box
    /// (module docs): the entry kept at most `max_t`, the exit at least the entry.
    #[inline(always)]
    fn hit_interval(
        &self,
        (t_enter, t_exit): (V::Scalar, V::Scalar),
    ) -> Option<(V::Scalar, V::Scalar)> {
        touches(t_enter, t_exit).then(|| {
            let t_enter = t_enter.min(self.max_t);
            (t_enter, t_exit.max(t_enter))
        })
    }

    /// The largest slab entry (at least 0) and the smallest slab exit (at most
    /// `max_t`), as computed: the entry may exceed the exit by rounding.
    #[inline(always)]
    fn raw_interval(&self, aabb: &Aabb<V>) -> (V::Scalar, V::Scalar) {
        let mut t_enter = V::Scalar::ZERO;
        let mut t_exit = self.max_t;
        for i in 0..V::DIM {
            let (near, far) = self.axis_interval(aabb, i);
            t_enter = t_enter.max(near);
            t_exit = t_exit.min(far);
        }
        (t_enter, t_exit)
    }

    /// True when the ray meets the closed box for some `t ∈ [0, max_t]`.
    #[inline]
    pub fn hits(&self, aabb: &Aabb<V>) -> bool {
        self.interval(aabb).is_some()
    }

    /// The entry and exit `t` of axis `i`'s slab (`±∞` for a slab that holds the
    /// whole line; never NaN for a finite origin and box).
    #[inline(always)]
    fn axis_interval(&self, aabb: &Aabb<V>, i: usize) -> (V::Scalar, V::Scalar) {
        let o = self.origin.get(i);
        let inv = self.inv_dir.get(i);
        let t_min = (aabb.min.get(i) - o) * inv;
        let t_max = (aabb.max.get(i) - o) * inv;
        // With `inv` never −∞, `t_min` is NaN (`0·∞`) only for an origin on the min plane
        // with `inv = +∞`, and `t_max` only on the max plane: the slab holds the line,
        // so the NaN stands for −∞ (resp. +∞). IEEE maxNum/minNum against those put
        // them in (one maxss/minss each); with no NaN left, the ordering is two plain
        // min/max instructions. (Ordering by one compare, or by the sign of `inv`,
        // compiles to a branch that a random ray mispredicts half the time.)
        let t_min = t_min.max(V::Scalar::NEG_INFINITY);
        let t_max = t_max.min(V::Scalar::INFINITY);
        (t_min.min(t_max), t_min.max(t_max))
    }
}

/// What the slab test found: the interval in the box and the face the ray entered by.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SlabHit<V: Vector> {
    /// First `t` in the box (0 when the origin is inside or on the boundary).
    pub t_enter: V::Scalar,
    /// Last `t` in the box, at most `max_t`.
    pub t_exit: V::Scalar,
    /// Outward unit normal of the face entered at `t_enter`; zero when the ray starts
    /// strictly inside the box (or on its boundary moving outward), so crosses no face.
    pub normal: V,
}

/// Ray (or, with `max_t = 1`, segment) against a box: the entry/exit interval of seed
/// 000's 3D version, and the entry normal.
///
/// Edge behaviour: zero direction components, origins exactly on a slab plane and
/// infinite `max_t` are exact (see the module docs); a ray touching a face, edge or
/// corner hits, and so does one passing outside an edge or corner within
/// [`SLAB_EXIT_ULPS`] of its `t` (the entry is then at most `max_t`, and the normal
/// that of the face of the larger entry). A ray starting inside hits at
/// `t_enter = 0` with a zero normal; a ray starting on a face and moving inward hits at
/// `0` with that face's normal. NaN or infinite rays, and NaN or negative `max_t`, miss.
#[inline]
pub fn ray_aabb<V: Vector>(ray: &Ray<V>, aabb: &Aabb<V>, max_t: V::Scalar) -> Option<SlabHit<V>> {
    let prepared = PreparedRay::new(ray, max_t);
    let raw = prepared.raw_interval(aabb);
    let (t_enter, t_exit) = prepared.hit_interval(raw)?;
    let raw_enter = raw.0;
    // The entry face: a moving axis whose slab entry is t_enter (an origin on a face
    // moving inward has entry 0 there). Lane-wise selects with constant indices, so
    // the unpredictable axis costs no branch; the last such axis wins a tie.
    let mut normal = V::ZERO;
    let mut found = false;
    for i in (0..V::DIM).rev() {
        let (near, _) = prepared.axis_interval(aabb, i);
        let dir = ray.dir.get(i);
        let here = (near == raw_enter) & (dir != V::Scalar::ZERO) & !found;
        found |= here;
        let face = V::Scalar::ONE.copysign(-dir);
        normal = normal.with(i, if here { face } else { V::Scalar::ZERO });
    }
    Some(SlabHit {
        t_enter,
        t_exit,
        normal,
    })
}

/// Seed 000's 3D `isectSegAABB` (and, one source, its 2D form): the parameter interval
/// `[t_enter, t_exit] ⊆ [0, 1]` of the closed segment `a → b` inside the closed box,
/// or `None` when they do not meet. The segment is the ray `(a, b − a)` with
/// `max_t = 1`; a zero-length segment is a point (interval `[0, 1]` when inside).
/// Segments built with non-finite public fields miss.
#[inline]
pub fn segment_aabb_interval<V: Vector>(
    segment: &Segment<V>,
    aabb: &Aabb<V>,
) -> Option<(V::Scalar, V::Scalar)> {
    PreparedRay::new(&segment.as_ray(), V::Scalar::ONE).interval(aabb)
}

/// Seed 000's 2D `checkOverlapSegment` (and, one source, its 3D form): true when the
/// closed segment `a → b` touches the closed box. Touching a face, edge or corner
/// counts; non-finite segments give `false`.
#[inline]
pub fn segment_overlaps_aabb<V: Vector>(segment: &Segment<V>, aabb: &Aabb<V>) -> bool {
    PreparedRay::new(&segment.as_ray(), V::Scalar::ONE).hits(aabb)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec3, Vec2, Vec3};

    fn unit_box() -> Aabb<Vec3> {
        Aabb::new(Vec3::ZERO, Vec3::ONE).unwrap()
    }

    // A ray along +x through the box centre enters at x = 0 through the -x face.
    #[test]
    fn straight_hit_reports_interval_and_normal() {
        let ray = Ray::new(Vec3::new(-1.0, 0.5, 0.5), Vec3::X).unwrap();
        let hit = ray_aabb(&ray, &unit_box(), f32::INFINITY).unwrap();
        assert_eq!((hit.t_enter, hit.t_exit), (1.0, 2.0));
        assert_eq!(hit.normal, -Vec3::X);
    }

    // Origin exactly on the y = 0 plane, moving along x only: 0·∞ must not poison it.
    #[test]
    fn origin_on_slab_plane_with_zero_direction() {
        let ray = Ray::new(Vec3::new(-1.0, 0.0, 0.5), Vec3::X).unwrap();
        assert_eq!(ray_aabb(&ray, &unit_box(), 10.0).unwrap().t_enter, 1.0);
        let ray = Ray::new(Vec3::new(-1.0, 1.0, 1.0), Vec3::X).unwrap();
        assert!(PreparedRay::new(&ray, 10.0).hits(&unit_box()));
        let neg_zero = Ray::new(Vec3::new(-1.0, 1.0, 1.0), Vec3::new(1.0, -0.0, -0.0)).unwrap();
        assert!(PreparedRay::new(&neg_zero, 10.0).hits(&unit_box()));
    }

    // Origin on the min or the max plane of a slab it moves along with +0 or −0, and
    // on a flat (min = max) slab: never constrains t, in every precision and dimension.
    #[test]
    fn on_plane_zero_direction_every_sign() {
        fn check<V: Vector>() {
            let (zero, one, two) = (V::Scalar::ZERO, V::Scalar::ONE, V::Scalar::TWO);
            let unit = Aabb::new(V::ZERO, V::splat(one)).unwrap();
            let flat = Aabb::new(V::ZERO, V::splat(one).with(1, zero)).unwrap();
            for y in [zero, one] {
                for dir_y in [zero, -zero] {
                    let origin = V::splat(V::Scalar::HALF).with(0, -one).with(1, y);
                    let dir = V::splat(zero).with(0, one).with(1, dir_y);
                    let ray = Ray::new(origin, dir).unwrap();
                    let prepared = PreparedRay::new(&ray, V::Scalar::INFINITY);
                    assert_eq!(prepared.interval(&unit), Some((one, two)));
                    assert!(prepared.hits(&unit));
                    let hit = ray_aabb(&ray, &unit, V::Scalar::INFINITY).unwrap();
                    assert_eq!(hit.normal, V::ZERO.with(0, -one));
                    let on_flat = Ray::new(origin.with(1, zero), dir).unwrap();
                    assert!(PreparedRay::new(&on_flat, two).hits(&flat));
                }
            }
        }
        check::<Vec2>();
        check::<Vec3>();
        check::<glam::DVec2>();
        check::<DVec3>();
    }

    // A tiny but non-zero direction is not "parallel" (seed 000's trap).
    #[test]
    fn tiny_direction_is_not_parallel() {
        let ray = Ray::new(Vec3::new(0.5, -1e-7, 0.5), Vec3::new(0.0, 1e-7, 0.0)).unwrap();
        let hit = ray_aabb(&ray, &unit_box(), 2.0).unwrap();
        assert!((hit.t_enter - 1.0).abs() < 1e-6);
        assert_eq!(hit.normal, -Vec3::Y);
    }

    // Origin inside: t = 0, zero normal, exit at the far face.
    #[test]
    fn origin_inside() {
        let ray = Ray::new(DVec3::splat(0.5), DVec3::new(0.0, 0.0, -2.0)).unwrap();
        let aabb = Aabb::new(DVec3::ZERO, DVec3::ONE).unwrap();
        let hit = ray_aabb(&ray, &aabb, f64::INFINITY).unwrap();
        assert_eq!((hit.t_enter, hit.t_exit), (0.0, 0.25));
        assert_eq!(hit.normal, DVec3::ZERO);
    }

    // Misses: pointing away, beyond max_t, NaN ray, parallel outside the slab.
    #[test]
    fn misses() {
        let b = unit_box();
        let away = Ray::new(Vec3::new(-1.0, 0.5, 0.5), -Vec3::X).unwrap();
        assert!(ray_aabb(&away, &b, f32::INFINITY).is_none());
        let short = Ray::new(Vec3::new(-1.0, 0.5, 0.5), Vec3::X).unwrap();
        assert!(ray_aabb(&short, &b, 0.99).is_none());
        let nan = Ray {
            origin: Vec3::NAN,
            dir: Vec3::X,
        };
        assert!(ray_aabb(&nan, &b, 1.0).is_none());
        assert!(!PreparedRay::new(&nan, 1.0).hits(&b));
        let outside = Ray::new(Vec3::new(-1.0, 2.0, 0.5), Vec3::X).unwrap();
        assert!(ray_aabb(&outside, &b, f32::INFINITY).is_none());
        // Parallel below the slab (origin < min on a zero-direction axis), either sign of zero.
        for dir in [Vec3::X, Vec3::new(1.0, -0.0, 0.0)] {
            let below = Ray::new(Vec3::new(-1.0, -2.0, 0.5), dir).unwrap();
            assert!(ray_aabb(&below, &b, f32::INFINITY).is_none());
            assert!(!PreparedRay::new(&below, f32::INFINITY).hits(&b));
        }
    }

    // 2D segment grazing a corner touches the closed box (max_t = 1).
    #[test]
    fn segment_grazes_corner_2d() {
        let b = Aabb::new(Vec2::ZERO, Vec2::ONE).unwrap();
        let seg = Ray::new(Vec2::new(0.0, 2.0), Vec2::new(2.0, -2.0)).unwrap();
        let hit = ray_aabb(&seg, &b, 1.0).unwrap();
        assert_eq!(hit.t_enter, 0.5);
        assert_eq!(hit.t_exit, 0.5);
    }

    // Segments (seed 000): inside, crossing, touching a corner, short of the box, a point.
    #[test]
    fn segment_helpers() {
        let b2 = Aabb::new(Vec2::ZERO, Vec2::ONE).unwrap();
        let cross = Segment::new(Vec2::new(-1.0, 0.5), Vec2::new(3.0, 0.5)).unwrap();
        assert_eq!(segment_aabb_interval(&cross, &b2), Some((0.25, 0.5)));
        let corner = Segment::new(Vec2::new(0.0, 2.0), Vec2::new(2.0, 0.0)).unwrap();
        assert!(segment_overlaps_aabb(&corner, &b2));
        let short = Segment::new(Vec2::new(-1.0, 0.5), Vec2::new(-1e-5, 0.5)).unwrap();
        assert!(!segment_overlaps_aabb(&short, &b2));
        // Short of it by less than the tolerance (6 ε of its length): touching.
        let grazing = Segment::new(Vec2::new(-1.0, 0.5), Vec2::new(-1e-7, 0.5)).unwrap();
        assert!(segment_overlaps_aabb(&grazing, &b2));
        let b3 = Aabb::new(DVec3::ZERO, DVec3::ONE).unwrap();
        let point = Segment::new(DVec3::splat(0.5), DVec3::splat(0.5)).unwrap();
        assert_eq!(segment_aabb_interval(&point, &b3), Some((0.0, 1.0)));
        let inside = Segment::new(DVec3::splat(0.25), DVec3::splat(0.75)).unwrap();
        assert_eq!(segment_aabb_interval(&inside, &b3), Some((0.0, 1.0)));
        // A short segment with a tiny, non-parallel component still reaches the box.
        let tiny = Segment::new(DVec3::new(0.5, -1e-9, 0.5), DVec3::new(0.5, 1e-9, 0.5)).unwrap();
        let (t0, t1) = segment_aabb_interval(&tiny, &b3).unwrap();
        assert!((t0 - 0.5).abs() < 1e-12 && t1 == 1.0);
        let nan = Segment {
            a: DVec3::NAN,
            b: DVec3::ONE,
        };
        assert!(!segment_overlaps_aabb(&nan, &b3));
    }
}
