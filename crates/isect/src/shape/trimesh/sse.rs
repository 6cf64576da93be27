//! The kernels of the mesh's ray walk without run-time features, the slab test of a
//! node's eight boxes and the watertight test of a leaf's four triangles, written with
//! SSE instructions (two 4-lane halves of a node's `f32` boxes, whatever the mesh's
//! scalar; four `f32` triangles) and SSE2 instructions (two 2-lane halves of an `f64`
//! leaf) on `x86_64` (SSE and SSE2 are part of that target's baseline, so no run-time
//! detection is needed). Every other target uses the portable kernels ([`ray_tree`](super::ray_tree)'s
//! `slab8_portable`, [`ShearedRay::hit4_portable`]), which the compiler vectorises only
//! in part (for `f64` not at all: every lane a branch); processors with AVX test nodes,
//! and `f64` leaves, with [`avx`](super::avx)'s kernels.
//!
//! Each step is the instruction that computes exactly what the portable kernel's
//! line computes: `minps(a, b)` / `minpd(a, b)` is `if a < b { a } else { b }` and
//! `maxps(a, b)` / `maxpd(a, b)` is `if a > b { a } else { b }` (both give `b` when
//! either is NaN), `≤` and `<` are the ordered comparisons (false on NaN), negation
//! flips the sign bit and `abs` clears it, so the results are bit for bit those of the
//! portable kernels (no tolerance; a leaf's `t` where it is NaN may differ only in the
//! NaN's payload); the tests below compare them on random and on edge-case lanes, for
//! the exact node test of `f32` trees and the padded one of `f64` trees, and for leaves
//! in both precisions.
//!
//! Safety: the intrinsics need SSE and SSE2, which every `x86_64` processor has (the
//! target enables them by default); the loads and stores are the unaligned forms on
//! references to `[f32; 4]` (16 valid bytes each), within `[f64; 4]` rows (two lanes at
//! lane 0 or 2) or within a node's rows (at whole-row offsets, see `slab8`). Nothing
//! else is unsafe here.

use super::ray::{ShearedRay, Triangles4, EDGE_SIGN_ULPS, SLIVER_CANCELLATION};
use super::ray_tree::{OctantRay, Rows, WIDE};
use crate::broad::simd::LANES;
use core::arch::x86_64::*;
use glam::{DVec3, Vec3};

/// The row `r` in a register.
#[inline(always)]
fn load(r: &[f32; LANES]) -> __m128 {
    // SAFETY: `r` is 16 readable bytes; `loadu` has no alignment requirement; SSE is
    // in the x86_64 baseline.
    unsafe { _mm_loadu_ps(r.as_ptr()) }
}

/// The register as a row.
#[inline(always)]
fn store(v: __m128) -> [f32; LANES] {
    let mut r = [0.0; LANES];
    // SAFETY: `r` is 16 writable bytes; `storeu` has no alignment requirement.
    unsafe { _mm_storeu_ps(r.as_mut_ptr(), v) };
    r
}

/// The node test of the ray walk (see `slab8_portable`, and `Kernels::slab` for
/// `PADDED`): the entry parameters and the mask of the lanes hit within `[0, max_t]`
/// (`max_t` finite), the near and far plane of each axis read from the rows the ray's
/// octant picks, lanes 0–3 and 4–7 as two 4-lane halves.
#[inline(always)]
pub(super) fn slab8<const PADDED: bool>(
    ray: &OctantRay,
    rows: &Rows,
    max_t: f32,
) -> ([f32; WIDE], u32) {
    let (near, far) = (ray.near(), ray.far());
    let base = rows.as_ptr().cast::<u8>();
    let mut t = [0.0; WIDE];
    let mut mask = 0;
    for half in 0..2 {
        // SAFETY: SSE arithmetic on registers only (module docs); each offset is a
        // whole row of `rows` (`OctantRay` makes them so and nothing else writes
        // them), so the 16-byte loads at it and 16 bytes further read within `rows`;
        // the ray's rows are eight lanes long.
        unsafe {
            let row = |offset: usize| {
                debug_assert!(offset + 32 <= core::mem::size_of::<Rows>());
                _mm_loadu_ps(base.add(offset + 16 * half).cast::<f32>())
            };
            let mut enter = _mm_setzero_ps();
            let mut exit = _mm_set1_ps(max_t);
            for axis in 0..3 {
                let o = _mm_loadu_ps(ray.origin[axis].as_ptr());
                let inv = _mm_loadu_ps(ray.inv_dir[axis].as_ptr());
                let (o_far, inv_far) = match PADDED {
                    true => (
                        _mm_loadu_ps(ray.origin_far[axis].as_ptr()),
                        _mm_loadu_ps(ray.inv_far[axis].as_ptr()),
                    ),
                    false => (o, inv),
                };
                let t_near = _mm_mul_ps(_mm_sub_ps(row(near[axis]), o), inv);
                let t_far = _mm_mul_ps(_mm_sub_ps(row(far[axis]), o_far), inv_far);
                enter = _mm_max_ps(t_near, enter);
                exit = _mm_min_ps(t_far, exit);
            }
            _mm_storeu_ps(t.as_mut_ptr().add(4 * half), enter);
            mask |= (_mm_movemask_ps(_mm_cmple_ps(enter, exit)) as u32) << (4 * half);
        }
    }
    (t, mask)
}

/// `ShearedRay::hit4` (see `hit4_portable`): `(t, hit, undecided)`.
#[inline(always)]
pub(super) fn hit4(
    ray: &ShearedRay<Vec3>,
    tris: &Triangles4<f32>,
    valid: u32,
) -> ([f32; LANES], u32, u32) {
    let (axes, origin, [sx, sy, sz]) = ray.frame();
    // SAFETY: SSE arithmetic on registers only (module docs).
    unsafe {
        let (sx, sy, sz) = (_mm_set1_ps(sx), _mm_set1_ps(sy), _mm_set1_ps(sz));
        let (ox, oy, oz) = (
            _mm_set1_ps(origin[0]),
            _mm_set1_ps(origin[1]),
            _mm_set1_ps(origin[2]),
        );
        // No `array::map` here: it is not always inlined.
        let sheared = |corner: &[[f32; LANES]; 3]| {
            let x = _mm_sub_ps(load(&corner[axes[0]]), ox);
            let y = _mm_sub_ps(load(&corner[axes[1]]), oy);
            let z = _mm_sub_ps(load(&corner[axes[2]]), oz);
            [
                _mm_sub_ps(x, _mm_mul_ps(sx, z)),
                _mm_sub_ps(y, _mm_mul_ps(sy, z)),
                _mm_mul_ps(sz, z),
            ]
        };
        let (a, b, c) = (
            sheared(&tris.corner[0]),
            sheared(&tris.corner[1]),
            sheared(&tris.corner[2]),
        );
        let magnitude = _mm_castsi128_ps(_mm_set1_epi32(0x7fff_ffff));
        let abs = |x: __m128| _mm_and_ps(x, magnitude);
        let neg = |x: __m128| _mm_xor_ps(x, _mm_set1_ps(-0.0));
        let edge = |u: &[__m128; 3], v: &[__m128; 3]| {
            let (p, q) = (_mm_mul_ps(u[0], v[1]), _mm_mul_ps(u[1], v[0]));
            (_mm_sub_ps(p, q), _mm_add_ps(abs(p), abs(q)))
        };
        let ((e0, m0), (e1, m1), (e2, m2)) = (edge(&c, &b), edge(&a, &c), edge(&b, &a));
        let k = _mm_set1_ps((EDGE_SIGN_ULPS as f32) * f32::EPSILON);
        let sure = |e: __m128, m: __m128| _mm_and_ps(_mm_cmpgt_ps(abs(e), _mm_mul_ps(m, k)), e);
        let (c0, c1, c2) = (sure(e0, m0), sure(e1, m1), sure(e2, m2));
        let low = _mm_min_ps(c2, _mm_min_ps(c1, c0));
        let high = _mm_max_ps(c2, _mm_max_ps(c1, c0));
        let det = _mm_add_ps(_mm_add_ps(e0, e1), e2);
        let num = _mm_add_ps(
            _mm_add_ps(_mm_mul_ps(e0, a[2]), _mm_mul_ps(e1, b[2])),
            _mm_mul_ps(e2, c[2]),
        );
        let t = _mm_div_ps(num, det);
        let sliver = _mm_set1_ps(SLIVER_CANCELLATION as f32);
        let cancel = _mm_sub_ps(
            _mm_add_ps(_mm_add_ps(m0, m1), m2),
            _mm_mul_ps(abs(det), sliver),
        );
        let agreeing = _mm_max_ps(neg(high), low);
        let disagreeing = _mm_min_ps(high, neg(low));
        let kept = _mm_min_ps(t, neg(cancel));
        let zero = _mm_setzero_ps();
        let mask = |m: __m128| _mm_movemask_ps(m) as u32;
        let crossed = mask(_mm_cmplt_ps(zero, agreeing));
        let agree = !mask(_mm_cmplt_ps(zero, disagreeing));
        let cancels = mask(_mm_cmplt_ps(zero, cancel));
        let hit = crossed & mask(_mm_cmple_ps(zero, kept));
        let undecided = agree & (!crossed | cancels);
        (store(t), hit & valid, undecided & valid)
    }
}

/// Lanes `2 * half` and `2 * half + 1` of the row `r` in a register (`half` is 0 or 1).
#[inline(always)]
fn load_half(r: &[f64; LANES], half: usize) -> __m128d {
    debug_assert!(half < 2);
    // SAFETY: `r` is 32 readable bytes and the 16 read start at byte `16 * half ≤ 16`;
    // `loadu` has no alignment requirement; SSE2 is in the x86_64 baseline.
    unsafe { _mm_loadu_pd(r.as_ptr().add(2 * (half & 1))) }
}

/// `ShearedRay::hit4` for `f64` (see `hit4_portable`): `(t, hit, undecided)`, lanes
/// 0–1 and 2–3 as two 2-lane halves, their masks joined as the `f32` kernel's.
#[inline(always)]
pub(super) fn hit4_f64(
    ray: &ShearedRay<DVec3>,
    tris: &Triangles4<f64>,
    valid: u32,
) -> ([f64; LANES], u32, u32) {
    let (axes, origin, [sx, sy, sz]) = ray.frame();
    let mut t = [0.0; LANES];
    // Masks of the lanes where `0 < agreeing`, `0 < disagreeing`, `0 < cancel` and
    // `0 ≤ kept` (see `hit4_portable`).
    let (mut crossed, mut disagree, mut cancels, mut kept_mask) = (0, 0, 0, 0);
    for half in 0..2 {
        // SAFETY: SSE2 arithmetic on registers only (module docs); the store is at
        // lane `2 * half ≤ 2` of the four of `t`.
        unsafe {
            let (sx, sy, sz) = (_mm_set1_pd(sx), _mm_set1_pd(sy), _mm_set1_pd(sz));
            let (ox, oy, oz) = (
                _mm_set1_pd(origin[0]),
                _mm_set1_pd(origin[1]),
                _mm_set1_pd(origin[2]),
            );
            // No `array::map` here: it is not always inlined.
            let sheared = |corner: &[[f64; LANES]; 3]| {
                let x = _mm_sub_pd(load_half(&corner[axes[0]], half), ox);
                let y = _mm_sub_pd(load_half(&corner[axes[1]], half), oy);
                let z = _mm_sub_pd(load_half(&corner[axes[2]], half), oz);
                [
                    _mm_sub_pd(x, _mm_mul_pd(sx, z)),
                    _mm_sub_pd(y, _mm_mul_pd(sy, z)),
                    _mm_mul_pd(sz, z),
                ]
            };
            let (a, b, c) = (
                sheared(&tris.corner[0]),
                sheared(&tris.corner[1]),
                sheared(&tris.corner[2]),
            );
            let magnitude = _mm_castsi128_pd(_mm_set1_epi64x(0x7fff_ffff_ffff_ffff));
            let abs = |x: __m128d| _mm_and_pd(x, magnitude);
            let neg = |x: __m128d| _mm_xor_pd(x, _mm_set1_pd(-0.0));
            let edge = |u: &[__m128d; 3], v: &[__m128d; 3]| {
                let (p, q) = (_mm_mul_pd(u[0], v[1]), _mm_mul_pd(u[1], v[0]));
                (_mm_sub_pd(p, q), _mm_add_pd(abs(p), abs(q)))
            };
            let ((e0, m0), (e1, m1), (e2, m2)) = (edge(&c, &b), edge(&a, &c), edge(&b, &a));
            let k = _mm_set1_pd(EDGE_SIGN_ULPS * f64::EPSILON);
            let sure =
                |e: __m128d, m: __m128d| _mm_and_pd(_mm_cmpgt_pd(abs(e), _mm_mul_pd(m, k)), e);
            let (c0, c1, c2) = (sure(e0, m0), sure(e1, m1), sure(e2, m2));
            let low = _mm_min_pd(c2, _mm_min_pd(c1, c0));
            let high = _mm_max_pd(c2, _mm_max_pd(c1, c0));
            let det = _mm_add_pd(_mm_add_pd(e0, e1), e2);
            let num = _mm_add_pd(
                _mm_add_pd(_mm_mul_pd(e0, a[2]), _mm_mul_pd(e1, b[2])),
                _mm_mul_pd(e2, c[2]),
            );
            let t_half = _mm_div_pd(num, det);
            let sliver = _mm_set1_pd(SLIVER_CANCELLATION);
            let cancel = _mm_sub_pd(
                _mm_add_pd(_mm_add_pd(m0, m1), m2),
                _mm_mul_pd(abs(det), sliver),
            );
            let agreeing = _mm_max_pd(neg(high), low);
            let disagreeing = _mm_min_pd(high, neg(low));
            let kept = _mm_min_pd(t_half, neg(cancel));
            let zero = _mm_setzero_pd();
            let mask = |m: __m128d| (_mm_movemask_pd(m) as u32) << (2 * half);
            crossed |= mask(_mm_cmplt_pd(zero, agreeing));
            disagree |= mask(_mm_cmplt_pd(zero, disagreeing));
            cancels |= mask(_mm_cmplt_pd(zero, cancel));
            kept_mask |= mask(_mm_cmple_pd(zero, kept));
            _mm_storeu_pd(t.as_mut_ptr().add(2 * half), t_half);
        }
    }
    let hit = crossed & kept_mask;
    let undecided = !disagree & (!crossed | cancels);
    (t, hit & valid, undecided & valid)
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::ray_tree::slab8_portable;
    use super::super::ray_tree::tests::{exact_octant, narrowed};
    use super::*;
    use crate::algo::slab::PreparedRay;
    use crate::broad::finite_max_t;
    use crate::broad::simd::{ray_boxes4_mask_rows, Boxes4, SoaRay};
    use crate::shape::{Aabb, Ray};

    /// Eight random boxes (a fifth of them empty) as two shared-kernel halves and as
    /// node rows.
    pub(in super::super) fn random_rows(rng: &mut Lcg) -> ([Boxes4<f32>; 2], Rows) {
        let mut boxes = [Boxes4::<f32>::EMPTY; 2];
        let mut rows = [[f32::INFINITY; WIDE]; 6];
        rows[3..].fill([f32::NEG_INFINITY; WIDE]);
        for lane in 0..WIDE {
            if rng.below(5) > 0 {
                let (p, q) = (rng.point(), rng.point());
                let aabb = Aabb {
                    min: p.min(q),
                    max: p.max(q),
                };
                boxes[lane / 4].set(lane % 4, &aabb);
                for axis in 0..3 {
                    rows[axis][lane] = aabb.min[axis];
                    rows[3 + axis][lane] = aabb.max[axis];
                }
            }
        }
        (boxes, rows)
    }

    /// A random ray, a quarter of them with a zero direction component of either sign.
    pub(in super::super) fn random_ray(rng: &mut Lcg) -> Ray<Vec3> {
        let mut dir = rng.point();
        if rng.below(4) == 0 {
            dir[rng.below(3) as usize] = if rng.below(2) == 0 { 0.0 } else { -0.0 };
        }
        Ray {
            origin: rng.point(),
            dir,
        }
    }

    /// The shared min/max kernel's mask over both halves, after checking that `t`
    /// holds its entries bit for bit in the hit lanes.
    pub(in super::super) fn shared_kernel(
        prepared: &PreparedRay<Vec3>,
        boxes: &[Boxes4<f32>; 2],
        t: &[f32; WIDE],
    ) -> u32 {
        let soa = SoaRay::new(prepared);
        let mut mask = 0;
        for half in 0..2 {
            let (want_t, hit) =
                ray_boxes4_mask_rows(&soa, &boxes[half], 3, [prepared.max_t; LANES]);
            for lane in (0..LANES).filter(|l| hit & (1 << l) != 0) {
                assert_eq!(t[4 * half + lane].to_bits(), want_t[lane].to_bits());
            }
            mask |= hit << (4 * half);
        }
        mask
    }

    /// A seeded generator of small integers and grid coordinates: values on a coarse
    /// grid make rays through vertices and edges, zero direction components and
    /// origins on slab planes common.
    pub(in super::super) struct Lcg(pub(in super::super) u64);

    impl Lcg {
        pub(in super::super) fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
        pub(in super::super) fn coord(&mut self) -> f32 {
            match self.below(4) {
                0 => self.below(5) as f32 - 2.0,
                _ => (self.below(2001) as f32 - 1000.0) / 250.0,
            }
        }
        pub(in super::super) fn point(&mut self) -> Vec3 {
            Vec3::new(self.coord(), self.coord(), self.coord())
        }
    }

    // The SSE node kernel gives the portable kernel's mask and entries, and both give
    // the shared min/max kernel's mask and its entries in the hit lanes bit for bit,
    // on empty lanes, zero direction components (of either sign), origins on slab
    // planes and every kind of max_t (made finite, as the walk does).
    #[test]
    fn slab_matches_portable() {
        let mut rng = Lcg(7);
        let mut hits = 0;
        for case in 0..40_000 {
            let (boxes, rows) = random_rows(&mut rng);
            let ray = random_ray(&mut rng);
            let max_t = [f32::INFINITY, 1.0, 0.0, -1.0, f32::NAN, f32::MAX][case % 6];
            let prepared = PreparedRay::new(&ray, finite_max_t(max_t));
            let octant = exact_octant(&prepared);
            let (t, hit) = slab8::<false>(&octant, &rows, prepared.max_t);
            let (port_t, port_hit) =
                slab8_portable::<false>(&octant, &rows, [prepared.max_t; WIDE]);
            let want_hit = shared_kernel(&prepared, &boxes, &t);
            assert_eq!((hit, port_hit), (want_hit, want_hit), "case {case}");
            hits += hit.count_ones();
            for lane in 0..WIDE {
                assert_eq!(t[lane].to_bits(), port_t[lane].to_bits(), "case {case}");
            }
        }
        assert!(hits > 10_000, "{hits} hits");
    }

    // The SSE triangle kernel decides the lanes the portable kernel decides, with the
    // same t bit for bit, on triangles with grid corners (rays through their vertices
    // and edges), flat ones and unused lanes.
    #[test]
    fn triangles_match_portable() {
        let mut rng = Lcg(11);
        let (mut hits, mut undecideds) = (0, 0);
        for case in 0..20_000 {
            let mut tris = Triangles4 {
                corner: [[[0.0; LANES]; 3]; 3],
            };
            for lane in 0..LANES {
                let mut corners = [rng.point(), rng.point(), rng.point()];
                if rng.below(8) == 0 {
                    corners[2] = corners[0] * 2.0 - corners[1]; // flat
                }
                for (c, p) in corners.iter().enumerate() {
                    for axis in 0..3 {
                        tris.corner[c][axis][lane] = p[axis];
                    }
                }
            }
            let valid = rng.below(16) as u32;
            // Aimed at a corner or an edge point of lane 0 half of the time.
            let origin = rng.point();
            let corner = Vec3::from_array([0, 1, 2].map(|a| tris.corner[0][a][0]));
            let target = if rng.below(2) == 0 {
                corner
            } else {
                rng.point()
            };
            let Some(ray) = ShearedRay::new(&Ray {
                origin,
                dir: target - origin,
            }) else {
                continue;
            };
            let (t, hit, undecided) = hit4(&ray, &tris, valid);
            let (want_t, want_hit, want_undecided) = ray.hit4_portable(&tris, valid);
            assert_eq!((hit, undecided), (want_hit, want_undecided), "case {case}");
            hits += hit.count_ones();
            undecideds += undecided.count_ones();
            for lane in (0..LANES).filter(|l| hit & (1 << l) != 0) {
                assert_eq!(t[lane].to_bits(), want_t[lane].to_bits(), "case {case}");
            }
        }
        // Both kinds of lanes were met.
        assert!(
            hits > 1000 && undecideds > 100,
            "{hits} hits, {undecideds} undecided"
        );
    }

    /// An `f64` tree's node and narrowed ray for case `case` (`None` for a refused
    /// ray): [`random_rows`]' boxes and [`random_ray`]'s ray in `f64`, every coordinate
    /// scaled by a third in half the cases (off the `f32` grid) and moved `5e6` away in a
    /// third (a mesh far from the origin), every kind of `max_t` (made finite, as the
    /// walk does).
    pub(in super::super) fn random_narrowed_case(
        rng: &mut Lcg,
        case: usize,
    ) -> Option<(OctantRay, Rows, f32)> {
        let (boxes32, _) = random_rows(rng);
        let ray32 = random_ray(rng);
        let scale = if case % 2 == 0 { 1.0 } else { 1.0 / 3.0 };
        let offset = if case % 3 == 0 {
            DVec3::new(5e6, -2e6, 1e6)
        } else {
            DVec3::ZERO
        };
        let boxes: [Option<Aabb<DVec3>>; WIDE] = std::array::from_fn(|lane| {
            let b = boxes32[lane / 4].get::<Vec3>(lane % 4);
            // Empty lanes hold the empty box (lower bounds above upper ones).
            (b.min.x <= b.max.x).then(|| Aabb {
                min: b.min.as_dvec3() * scale + offset,
                max: b.max.as_dvec3() * scale + offset,
            })
        });
        // A fifth of the rays from far away (1e4 times the boxes' spread).
        let far = if case % 5 == 0 { 1e4 } else { 1.0 };
        let ray = Ray {
            origin: ray32.origin.as_dvec3() * scale * far + offset,
            dir: ray32.dir.as_dvec3() * scale,
        };
        let max_t = [f64::INFINITY, 1.0, 0.0, -1.0, f64::NAN, f64::MAX, 0.5][case % 7];
        let (rows, node_ray) = narrowed(&boxes, &ray, max_t);
        let (octant, clip, ..) = node_ray?;
        Some((octant, rows, clip))
    }

    // The SSE node kernel of an `f64` tree (padded, narrowed rays) gives the portable
    // kernel's mask and entries bit for bit on empty lanes, zero direction components
    // (of either sign), values off the `f32` grid, boxes far from the origin and every
    // kind of max_t.
    #[test]
    fn padded_slab_matches_portable() {
        let mut rng = Lcg(17);
        let mut hits = 0;
        for case in 0..40_000 {
            let Some((octant, rows, clip)) = random_narrowed_case(&mut rng, case) else {
                continue;
            };
            let (t, hit) = slab8::<true>(&octant, &rows, clip);
            let (port_t, port_hit) = slab8_portable::<true>(&octant, &rows, [clip; WIDE]);
            assert_eq!(hit, port_hit, "case {case}");
            hits += hit.count_ones();
            for lane in 0..WIDE {
                assert_eq!(t[lane].to_bits(), port_t[lane].to_bits(), "case {case}");
            }
        }
        assert!(hits > 10_000, "{hits} hits");
    }

    /// An `f64` ray, leaf and lane mask for case `case` (`None` for a zero direction):
    /// triangles with grid corners, scaled by a third in half the cases (off the `f32`
    /// grid), an eighth of them flat and a sixteenth with a NaN corner, the ray aimed at
    /// a corner of lane 0, at an edge point of lane 1 or anywhere.
    pub(in super::super) fn random_leaf_f64(
        rng: &mut Lcg,
        case: usize,
    ) -> Option<(ShearedRay<DVec3>, Triangles4<f64>, u32)> {
        let scale = if case % 2 == 0 { 1.0 } else { 1.0 / 3.0 };
        let point = |rng: &mut Lcg| rng.point().as_dvec3() * scale;
        let mut tris = Triangles4 {
            corner: [[[0.0; LANES]; 3]; 3],
        };
        for lane in 0..LANES {
            let mut corners = [point(rng), point(rng), point(rng)];
            match rng.below(16) {
                0 | 1 => corners[2] = corners[0] * 2.0 - corners[1], // flat
                2 => corners[1][rng.below(3) as usize] = f64::NAN,
                _ => {}
            }
            for (c, p) in corners.iter().enumerate() {
                for axis in 0..3 {
                    tris.corner[c][axis][lane] = p[axis];
                }
            }
        }
        let valid = rng.below(16) as u32;
        let origin = point(rng);
        let corner =
            |c: usize, lane: usize| DVec3::from_array([0, 1, 2].map(|a| tris.corner[c][a][lane]));
        let target = match rng.below(3) {
            0 => corner(0, 0),
            1 => (corner(0, 1) + corner(2, 1)) * 0.5,
            _ => point(rng),
        };
        let ray = ShearedRay::new(&Ray {
            origin,
            dir: target - origin,
        })?;
        Some((ray, tris, valid))
    }

    // The SSE2 `f64` triangle kernel decides the lanes the portable kernel decides,
    // with the same t bit for bit in every lane (any NaN where the portable t is NaN:
    // the payload of a NaN operand is not part of the contract), on the cases of
    // [`random_leaf_f64`]: rays through vertices and edges, corners off the grid, flat
    // triangles, NaN corners and unused lanes.
    #[test]
    fn triangles_f64_match_portable() {
        let mut rng = Lcg(19);
        let (mut hits, mut undecideds) = (0, 0);
        for case in 0..40_000 {
            let Some((ray, tris, valid)) = random_leaf_f64(&mut rng, case) else {
                continue;
            };
            let (t, hit, undecided) = hit4_f64(&ray, &tris, valid);
            let (want_t, want_hit, want_undecided) = ray.hit4_portable(&tris, valid);
            assert_eq!((hit, undecided), (want_hit, want_undecided), "case {case}");
            hits += hit.count_ones();
            undecideds += undecided.count_ones();
            for lane in 0..LANES {
                let (got, want) = (t[lane], want_t[lane]);
                let same = got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan());
                assert!(same, "case {case} lane {lane}: {got} against {want}");
            }
        }
        // Both kinds of lanes were met.
        assert!(
            hits > 2000 && undecideds > 100,
            "{hits} hits, {undecideds} undecided"
        );
    }
}
