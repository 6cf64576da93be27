//! Structure-of-arrays kernels: one ray, or one box, against four boxes at once.
//!
//! Four boxes are stored axis by axis (`min[axis][lane]`), so each step of the slab test
//! (Ericson, *Real-Time Collision Detection*, 5.3.3; Williams et al. 2005) is one
//! operation on four lanes. The code is portable Rust over `[S; 4]` arrays written so
//! that LLVM turns each lane loop into SIMD instructions (`f32`: one SSE/NEON register
//! per row; `f64`: two), with no `unsafe` and no target-specific intrinsics, except
//! for [`lane_boxes4`] (a pair walk's inner test), which has an SSE path on `x86_64`
//! (module `sse`) that gives the portable code's masks.
//!
//! Robustness follows [`PreparedRay`] exactly, without its NaN fix-up step. Per axis
//! the ray crosses the two slab planes at `t0` (min) and `t1` (max); the near one is
//! `if t1 < t0 { t1 } else { t0 }` and the far one `if t0 > t1 { t0 } else { t1 }` (one
//! SIMD min and max, no per-node choice of rows by the direction's sign). For a valid
//! box and a finite inverse direction the comparison orders them as the sign of `1/dir`
//! does (rounding is monotonic), and `PreparedRay` never makes `1/dir = −∞`; the only
//! NaN, `0·∞` for an origin on a slab plane of an axis the ray does not move along (where
//! `1/dir = +∞`), lands in both picks so that the running interval, updated with
//! `if t > enter { t } else { enter }` (and the mirror for exit), stays unchanged: the
//! neutral value `PreparedRay` substitutes. Boxes are closed; an empty lane (min `+∞`,
//! max `−∞`) is missed by every ray (its inverted first axis is tested) and overlaps no
//! box. The ray kernels are conservative as [`PreparedRay`] is: a lane is hit when its
//! entry is at most the exit grown by [`SLAB_EXIT_ULPS`] (Ize's `1 + 2γ₃`, see
//! [`widen`]), so a ray through an edge or a corner of a box hits it; that costs one
//! product and one minimum a call. The box kernels are exact comparisons.

#[cfg(doc)]
use crate::algo::slab::SLAB_EXIT_ULPS;
use crate::algo::slab::{widen, PreparedRay};
use crate::math::{Real, Vector};
use crate::shape::Aabb;

/// Number of lanes in one structure-of-arrays group.
pub const LANES: usize = 4;

/// Four boxes, stored axis by axis: `min[axis][lane]`, `max[axis][lane]`. In 2D the
/// third row is unused (kept so one type serves both dimensions).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Boxes4<S: Real> {
    /// Lower corners, `min[axis][lane]`.
    pub min: [[S; LANES]; 3],
    /// Upper corners, `max[axis][lane]`.
    pub max: [[S; LANES]; 3],
}

impl<S: Real> Boxes4<S> {
    /// Four empty lanes (`min = +∞`, `max = −∞`): hit by no ray, overlapping no box.
    pub const EMPTY: Self = Self {
        min: [[S::INFINITY; LANES]; 3],
        max: [[S::NEG_INFINITY; LANES]; 3],
    };

    /// Stores `aabb` in `lane` (`lane < 4`).
    #[inline]
    pub fn set<V: Vector<Scalar = S>>(&mut self, lane: usize, aabb: &Aabb<V>) {
        for axis in 0..V::DIM {
            self.min[axis][lane] = aabb.min.get(axis);
            self.max[axis][lane] = aabb.max.get(axis);
        }
    }

    /// The box in `lane` (`lane < 4`).
    #[inline]
    pub fn get<V: Vector<Scalar = S>>(&self, lane: usize) -> Aabb<V> {
        let mut aabb = Aabb {
            min: V::ZERO,
            max: V::ZERO,
        };
        for axis in 0..V::DIM {
            aabb.min = aabb.min.with(axis, self.min[axis][lane]);
            aabb.max = aabb.max.with(axis, self.max[axis][lane]);
        }
        aabb
    }

    /// The smallest box holding every non-empty lane (an empty box, `min > max`, when all
    /// lanes are empty).
    #[inline]
    pub fn bounds<V: Vector<Scalar = S>>(&self) -> Aabb<V> {
        let mut aabb = Aabb {
            min: V::splat(S::INFINITY),
            max: V::splat(S::NEG_INFINITY),
        };
        for axis in 0..V::DIM {
            let lo = self.min[axis].iter().fold(S::INFINITY, |a, &b| a.min(b));
            let hi = self.max[axis]
                .iter()
                .fold(S::NEG_INFINITY, |a, &b| a.max(b));
            aabb.min = aabb.min.with(axis, lo);
            aabb.max = aabb.max.with(axis, hi);
        }
        aabb
    }
}

/// A ray prepared for [`ray_boxes4`]: origin and inverse direction, axis by axis,
/// each coordinate repeated in four lanes so that a traversal loads them as rows
/// instead of broadcasting them again at every node.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SoaRay<S: Real> {
    origin: [[S; LANES]; 3],
    inv_dir: [[S; LANES]; 3],
}

impl<S: Real> Default for SoaRay<S> {
    /// A ray at the origin with a zero inverse direction (a placeholder to overwrite).
    fn default() -> Self {
        Self {
            origin: [[S::ZERO; LANES]; 3],
            inv_dir: [[S::ZERO; LANES]; 3],
        }
    }
}

impl<S: Real> SoaRay<S> {
    /// The origin's coordinate on `axis`, in four lanes.
    #[inline(always)]
    pub fn origin(&self, axis: usize) -> &[S; LANES] {
        &self.origin[axis]
    }

    /// The inverse direction's coordinate on `axis`, in four lanes.
    #[inline(always)]
    pub fn inv_dir(&self, axis: usize) -> &[S; LANES] {
        &self.inv_dir[axis]
    }

    /// From a [`PreparedRay`] (same origin and inverse direction; its `max_t` is passed
    /// to [`ray_boxes4`] separately so traversals can shrink it).
    #[inline]
    pub fn new<V: Vector<Scalar = S>>(ray: &PreparedRay<V>) -> Self {
        let mut soa = Self::default();
        for axis in 0..V::DIM {
            soa.origin[axis] = [ray.origin.get(axis); LANES];
            soa.inv_dir[axis] = [ray.inv_dir.get(axis); LANES];
        }
        soa
    }
}

/// Ray against four boxes: per lane, the entry parameter `t_enter ∈ [0, max_t]` of the
/// closed box, or `+∞` when the ray misses it within `[0, max_t]`. `dim` is the number
/// of axes in use (2 or 3). Gives the same hits and entry values as
/// [`PreparedRay::interval`] with the same `max_t` (conservative: a ray through an
/// edge or corner hits); a NaN `max_t` or one below zero misses everything.
///
/// ```
/// use isect::d2::*;
/// use isect::algo::slab::PreparedRay;
/// use isect::broad::simd::{ray_boxes4, Boxes4, SoaRay};
///
/// # fn main() -> Result<(), ShapeError> {
/// // Unit boxes at x = 2, 5 and off the ray at y = 3, and an empty lane.
/// let mut boxes = Boxes4::<f32>::EMPTY;
/// boxes.set(0, &Aabb::new(Vec2::new(2.0, -0.5), Vec2::new(3.0, 0.5))?);
/// boxes.set(1, &Aabb::new(Vec2::new(5.0, -0.5), Vec2::new(6.0, 0.5))?);
/// boxes.set(2, &Aabb::new(Vec2::new(2.0, 3.0), Vec2::new(3.0, 4.0))?);
/// let ray = SoaRay::new(&PreparedRay::new(&Ray::new(Vec2::ZERO, Vec2::X)?, 100.0));
/// assert_eq!(ray_boxes4(&ray, &boxes, 2, 100.0), [2.0, 5.0, f32::INFINITY, f32::INFINITY]);
/// assert_eq!(ray_boxes4(&ray, &boxes, 2, 4.0)[1], f32::INFINITY); // beyond max_t
/// # Ok(())
/// # }
/// ```
#[inline(always)]
pub fn ray_boxes4<S: Real>(ray: &SoaRay<S>, boxes: &Boxes4<S>, dim: usize, max_t: S) -> [S; LANES] {
    let (enter, hit) = ray_boxes4_mask(ray, boxes, dim, max_t);
    let mut out = [S::INFINITY; LANES];
    for lane in 0..LANES {
        if hit & (1 << lane) != 0 {
            // A grazing hit may enter beyond max_t by the tolerance.
            out[lane] = if enter[lane] > max_t {
                max_t
            } else {
                enter[lane]
            };
        }
    }
    out
}

/// [`ray_boxes4`] for traversals: the per-lane entry parameters (meaningful only in hit
/// lanes) and the bit mask of the lanes hit within `[0, max_t]` (bit `l` for lane `l`),
/// which the compiler forms with one vector comparison. A hit lane's entry is at most
/// [`widen`]`(max_t)`, not clipped to `max_t` (a traversal compares it with its own
/// widened clip).
///
/// ```
/// use isect::d3::*;
/// use isect::algo::slab::PreparedRay;
/// use isect::broad::simd::{ray_boxes4_mask, Boxes4, SoaRay};
///
/// # fn main() -> Result<(), ShapeError> {
/// // Lanes 0 and 2 hold unit cubes on the ray's path, lane 1 one beside it.
/// let mut boxes = Boxes4::<f32>::EMPTY;
/// for (lane, y) in [(0, 0.0), (1, 5.0), (2, 0.0)] {
///     let x = 3.0 * (lane + 1) as f32;
///     boxes.set(lane, &Aabb::from_center(Vec3::new(x, y, 0.0), Vec3::splat(0.5))?);
/// }
/// let ray = SoaRay::new(&PreparedRay::new(&Ray::new(Vec3::ZERO, Vec3::X)?, 100.0));
/// let (t, mask) = ray_boxes4_mask(&ray, &boxes, 3, 100.0);
/// assert_eq!(mask, 0b0101);
/// assert_eq!((t[0], t[2]), (2.5, 8.5));
/// # Ok(())
/// # }
/// ```
#[inline(always)]
pub fn ray_boxes4_mask<S: Real>(
    ray: &SoaRay<S>,
    boxes: &Boxes4<S>,
    dim: usize,
    max_t: S,
) -> ([S; LANES], u32) {
    slab_lanes::<S, true>(ray, boxes, dim, [max_t; LANES])
}

/// [`ray_boxes4_mask`] with a `max_t` per lane, without the tolerance: a lane is hit
/// when its computed entry is at most its computed exit, so a ray through an edge or a
/// corner can miss the box by an ulp. The mesh ray tree's `f32` node kernels, exact
/// slab tests on padded boxes, are checked against it bit for bit.
#[cfg(test)]
#[inline(always)]
pub(crate) fn ray_boxes4_mask_rows<S: Real>(
    ray: &SoaRay<S>,
    boxes: &Boxes4<S>,
    dim: usize,
    max_t: [S; LANES],
) -> ([S; LANES], u32) {
    slab_lanes::<S, false>(ray, boxes, dim, max_t)
}

/// The slab test on four lanes: the entries and the mask of the lanes hit within
/// `max_t`, with the exit grown by [`widen`] when `ROBUST`.
#[inline(always)]
fn slab_lanes<S: Real, const ROBUST: bool>(
    ray: &SoaRay<S>,
    boxes: &Boxes4<S>,
    dim: usize,
    max_t: [S; LANES],
) -> ([S; LANES], u32) {
    let mut enter = [S::ZERO; LANES];
    let mut exit = max_t;
    for axis in 0..dim {
        let (lo, hi) = (&boxes.min[axis], &boxes.max[axis]);
        let (o, inv) = (&ray.origin[axis], &ray.inv_dir[axis]);
        for lane in 0..LANES {
            let t0 = (lo[lane] - o[lane]) * inv[lane];
            let t1 = (hi[lane] - o[lane]) * inv[lane];
            // Where a NaN (0·∞) is picked, the other plane is at ±∞ or NaN too: both
            // updates below fail and leave the interval as it was (module docs).
            let t_near = if t1 < t0 { t1 } else { t0 };
            let t_far = if t0 > t1 { t0 } else { t1 };
            enter[lane] = if t_near > enter[lane] {
                t_near
            } else {
                enter[lane]
            };
            exit[lane] = if t_far < exit[lane] {
                t_far
            } else {
                exit[lane]
            };
        }
    }
    if ROBUST {
        for e in &mut exit {
            // Kept finite: an entry at +∞ (a still ray outside a slab) stays a miss
            // when the clip is `S::MAX`. A NaN `max_t` stays NaN (a miss).
            *e = widen(*e);
        }
    }
    let mut hit = 0;
    for lane in 0..LANES {
        // Valid boxes have min ≤ max on every axis; empty lanes are inverted on all.
        let valid = boxes.min[0][lane] <= boxes.max[0][lane];
        hit |= u32::from(valid & (enter[lane] <= exit[lane])) << lane;
    }
    (enter, hit)
}

/// Box against four boxes: per lane, whether the closed boxes share a point. False for
/// empty lanes and whenever a coordinate is NaN.
///
/// ```
/// use isect::d2::*;
/// use isect::broad::simd::{aabb_boxes4, Boxes4};
///
/// # fn main() -> Result<(), ShapeError> {
/// let mut boxes = Boxes4::<f32>::EMPTY;
/// boxes.set(0, &Aabb::new(Vec2::ZERO, Vec2::ONE)?);
/// boxes.set(1, &Aabb::new(Vec2::new(1.0, 0.0), Vec2::new(2.0, 1.0))?); // touches at x = 1
/// boxes.set(2, &Aabb::new(Vec2::new(3.0, 0.0), Vec2::new(4.0, 1.0))?);
/// let query = Aabb::new(Vec2::new(0.5, 0.5), Vec2::new(1.0, 2.0))?;
/// assert_eq!(aabb_boxes4(&query, &boxes), [true, true, false, false]);
/// # Ok(())
/// # }
/// ```
#[inline(always)]
pub fn aabb_boxes4<V: Vector>(aabb: &Aabb<V>, boxes: &Boxes4<V::Scalar>) -> [bool; LANES] {
    let mut hit = [true; LANES];
    for axis in 0..V::DIM {
        let lo = aabb.min.get(axis);
        let hi = aabb.max.get(axis);
        for (lane, hit) in hit.iter_mut().enumerate() {
            // `&`, not `&&`: no branch, so the lanes become one vector comparison.
            *hit &= (boxes.min[axis][lane] <= hi) & (lo <= boxes.max[axis][lane]);
        }
    }
    hit
}

/// Lane `lane` of `a` against the four boxes of `b`, over the first `dim` axes: bit `l`
/// of the result is set when the closed boxes share a point. Empty lanes overlap
/// nothing; a NaN coordinate fails its comparisons.
///
/// ```
/// use isect::d2::*;
/// use isect::broad::simd::{lane_boxes4, Boxes4};
///
/// # fn main() -> Result<(), ShapeError> {
/// // Lane 0 of `a`, the box [0, 2]², against the four lanes of `b`.
/// let mut a = Boxes4::<f32>::EMPTY;
/// a.set(0, &Aabb::new(Vec2::ZERO, Vec2::splat(2.0))?);
/// let mut b = Boxes4::<f32>::EMPTY;
/// b.set(0, &Aabb::new(Vec2::splat(1.0), Vec2::splat(3.0))?);
/// b.set(1, &Aabb::new(Vec2::splat(5.0), Vec2::splat(6.0))?);
/// b.set(3, &Aabb::new(Vec2::new(2.0, 0.0), Vec2::new(3.0, 1.0))?); // touches x = 2
/// assert_eq!(lane_boxes4(&a, 0, &b, 2), 0b1001);
/// # Ok(())
/// # }
/// ```
#[inline(always)]
pub fn lane_boxes4<S: Real>(a: &Boxes4<S>, lane: usize, b: &Boxes4<S>, dim: usize) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if let Some(hits) = sse::lane_boxes4(a, lane, b, dim) {
        return hits;
    }
    lane_boxes4_portable(a, lane, b, dim)
}

/// [`lane_boxes4`] in portable Rust (LLVM vectorises it only in part: a pair walk
/// spent two thirds of its instructions here).
#[inline(always)]
fn lane_boxes4_portable<S: Real>(a: &Boxes4<S>, lane: usize, b: &Boxes4<S>, dim: usize) -> u32 {
    let mut hit = [true; LANES];
    for axis in 0..dim {
        let lo = a.min[axis][lane];
        let hi = a.max[axis][lane];
        for (l, hit) in hit.iter_mut().enumerate() {
            *hit &= (b.min[axis][l] <= hi) & (lo <= b.max[axis][l]);
        }
    }
    hit.iter()
        .enumerate()
        .fold(0, |mask, (l, &h)| mask | (u32::from(h) << l))
}

/// [`lane_boxes4`] in SSE registers for `f32` (one register a row) and `f64` (two):
/// the same comparisons, lane by lane, so the same masks.
///
/// Safety: SSE and SSE2 are part of every `x86_64` target (the module is compiled
/// only where the target enables them); the loads are unaligned reads of one row of
/// four scalars, inside the `Boxes4` they are read from; a `&Boxes4<S>` is read as a
/// `&Boxes4<f32>` or `&Boxes4<f64>` only after a `TypeId` test found `S` to be that
/// type.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse {
    use super::{Boxes4, Real};
    use core::any::TypeId;
    use core::arch::x86_64::*;

    /// `a` and `b` as boxes of `T` when `S` is `T`.
    #[inline(always)]
    fn cast<'a, S: Real, T: Real>(
        a: &'a Boxes4<S>,
        b: &'a Boxes4<S>,
    ) -> Option<(&'a Boxes4<T>, &'a Boxes4<T>)> {
        (TypeId::of::<S>() == TypeId::of::<T>()).then(|| {
            // SAFETY: `S` is `T` (the test above), so the two types are one.
            unsafe {
                (
                    &*(a as *const Boxes4<S>).cast::<Boxes4<T>>(),
                    &*(b as *const Boxes4<S>).cast::<Boxes4<T>>(),
                )
            }
        })
    }

    /// The mask of [`super::lane_boxes4`], or `None` for a scalar other than `f32`
    /// and `f64`.
    #[inline(always)]
    pub(super) fn lane_boxes4<S: Real>(
        a: &Boxes4<S>,
        lane: usize,
        b: &Boxes4<S>,
        dim: usize,
    ) -> Option<u32> {
        if let Some((a, b)) = cast::<S, f32>(a, b) {
            return Some(lanes_f32(a, lane, b, dim));
        }
        cast::<S, f64>(a, b).map(|(a, b)| lanes_f64(a, lane, b, dim))
    }

    #[inline(always)]
    fn lanes_f32(a: &Boxes4<f32>, lane: usize, b: &Boxes4<f32>, dim: usize) -> u32 {
        // SAFETY: SSE on registers and row reads inside `b` (module docs).
        unsafe {
            let mut hit = _mm_castsi128_ps(_mm_set1_epi32(-1));
            for axis in 0..dim {
                let (lo, hi) = (
                    _mm_set1_ps(a.min[axis][lane]),
                    _mm_set1_ps(a.max[axis][lane]),
                );
                let b_min = _mm_loadu_ps(b.min[axis].as_ptr());
                let b_max = _mm_loadu_ps(b.max[axis].as_ptr());
                let meet = _mm_and_ps(_mm_cmple_ps(b_min, hi), _mm_cmple_ps(lo, b_max));
                hit = _mm_and_ps(hit, meet);
            }
            _mm_movemask_ps(hit) as u32
        }
    }

    #[inline(always)]
    fn lanes_f64(a: &Boxes4<f64>, lane: usize, b: &Boxes4<f64>, dim: usize) -> u32 {
        // SAFETY: SSE2 on registers and row reads inside `b` (module docs).
        unsafe {
            let all = _mm_castsi128_pd(_mm_set1_epi32(-1));
            let (mut low, mut high) = (all, all);
            for axis in 0..dim {
                let (lo, hi) = (
                    _mm_set1_pd(a.min[axis][lane]),
                    _mm_set1_pd(a.max[axis][lane]),
                );
                let (b_min, b_max) = (b.min[axis].as_ptr(), b.max[axis].as_ptr());
                let meet = |k: usize| {
                    let (min, max) = (_mm_loadu_pd(b_min.add(k)), _mm_loadu_pd(b_max.add(k)));
                    _mm_and_pd(_mm_cmple_pd(min, hi), _mm_cmple_pd(lo, max))
                };
                low = _mm_and_pd(low, meet(0));
                high = _mm_and_pd(high, meet(2));
            }
            (_mm_movemask_pd(low) | (_mm_movemask_pd(high) << 2)) as u32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Ray;
    use glam::{Vec2, Vec3};

    fn four_boxes() -> (Boxes4<f32>, [Aabb<Vec3>; 4]) {
        let boxes = [
            Aabb::new(Vec3::ZERO, Vec3::ONE).unwrap(),
            Aabb::new(Vec3::new(2.0, 0.0, 0.0), Vec3::new(3.0, 1.0, 1.0)).unwrap(),
            Aabb::new(Vec3::new(0.0, 2.0, 0.0), Vec3::new(1.0, 3.0, 1.0)).unwrap(),
            Aabb::new(Vec3::splat(-1.0), Vec3::splat(-0.5)).unwrap(),
        ];
        let mut soa = Boxes4::EMPTY;
        for (lane, b) in boxes.iter().enumerate() {
            soa.set(lane, b);
        }
        (soa, boxes)
    }

    // Rays along +x at the height of a face (origin on the y = 0 and z = 1 slab planes,
    // with ±0 direction there) agree lane by lane with the scalar slab test.
    #[test]
    fn matches_prepared_ray_on_slab_planes() {
        let (soa, boxes) = four_boxes();
        for dir in [
            Vec3::X,
            Vec3::new(1.0, -0.0, 0.0),
            Vec3::new(1.0, 0.0, -0.0),
            -Vec3::X,
        ] {
            let ray = Ray::new(Vec3::new(-5.0, 0.0, 1.0), dir).unwrap();
            let prepared = PreparedRay::new(&ray, 100.0);
            let got = ray_boxes4(&SoaRay::new(&prepared), &soa, 3, 100.0);
            for lane in 0..4 {
                let want = prepared
                    .interval(&boxes[lane])
                    .map_or(f32::INFINITY, |i| i.0);
                assert_eq!(got[lane], want, "lane {lane} dir {dir:?}");
            }
        }
    }

    // A zero-direction ray hits only the box holding its origin, at t = 0, even with an
    // infinite max_t clipped by the caller; empty lanes are never hit.
    #[test]
    fn zero_direction_and_empty_lanes() {
        let mut soa = Boxes4::<f32>::EMPTY;
        soa.set(0, &Aabb::new(Vec2::ZERO, Vec2::ONE).unwrap());
        soa.set(1, &Aabb::new(Vec2::splat(2.0), Vec2::splat(3.0)).unwrap());
        let ray = Ray::new(Vec2::splat(0.5), Vec2::ZERO).unwrap();
        let soa_ray = SoaRay::new(&PreparedRay::new(&ray, f32::MAX));
        let got = ray_boxes4(&soa_ray, &soa, 2, f32::MAX);
        assert_eq!(got, [0.0, f32::INFINITY, f32::INFINITY, f32::INFINITY]);
    }

    // Touching boxes overlap; a NaN query box overlaps nothing.
    #[test]
    fn box_overlap_lanes() {
        let (soa, _) = four_boxes();
        let q = Aabb::new(Vec3::new(1.0, 0.5, 0.5), Vec3::new(2.0, 0.6, 0.6)).unwrap();
        assert_eq!(aabb_boxes4(&q, &soa), [true, true, false, false]);
        let nan = Aabb {
            min: Vec3::NAN,
            max: Vec3::NAN,
        };
        assert_eq!(aabb_boxes4(&nan, &soa), [false; 4]);
        let mut query = Boxes4::EMPTY;
        query.set(2, &q);
        assert_eq!(lane_boxes4(&query, 2, &soa, 3), 0b0011);
        // An empty lane meets nothing, not even itself.
        assert_eq!(lane_boxes4(&query, 0, &query, 3), 0);
        let all: Aabb<Vec3> = soa.bounds();
        assert_eq!(all.min, Vec3::splat(-1.0));
        assert_eq!(all.max, Vec3::new(3.0, 3.0, 1.0));
    }

    /// Four lanes of small integer coordinates (so that boxes touch often), some
    /// empty, some NaN, some inverted.
    fn random_lanes<S: Real>(seed: &mut u64) -> Boxes4<S> {
        let mut next = || {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed
        };
        let mut boxes = Boxes4::<S>::EMPTY;
        for lane in 0..LANES {
            let kind = next() % 8;
            if kind == 0 {
                continue;
            }
            for axis in 0..3 {
                let lo = (next() % 5) as f64;
                let hi = lo + (next() % 3) as f64 - f64::from(kind == 1);
                boxes.min[axis][lane] = S::from_f64(lo);
                boxes.max[axis][lane] = S::from_f64(if kind == 2 { f64::NAN } else { hi });
            }
        }
        boxes
    }

    fn sse_path_gives_the_portable_masks<S: Real>() {
        let mut seed = 0x2545_F491_4F6C_DD1D_u64;
        let mut hits = 0;
        for _ in 0..2000 {
            let (a, b) = (random_lanes::<S>(&mut seed), random_lanes::<S>(&mut seed));
            for dim in [2, 3] {
                for lane in 0..LANES {
                    let want = lane_boxes4_portable(&a, lane, &b, dim);
                    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                    assert_eq!(sse::lane_boxes4(&a, lane, &b, dim), Some(want));
                    assert_eq!(lane_boxes4(&a, lane, &b, dim), want);
                    hits += want.count_ones();
                }
            }
        }
        assert!(hits > 5000, "{hits}");
    }

    #[test]
    fn lane_masks_equal_portable_f32() {
        sse_path_gives_the_portable_masks::<f32>();
    }

    #[test]
    fn lane_masks_equal_portable_f64() {
        sse_path_gives_the_portable_masks::<f64>();
    }
}
