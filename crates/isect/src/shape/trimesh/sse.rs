//! The kernels of the mesh's ray walk without run-time features, the slab test of a
//! node's eight boxes (two 4-lane halves) and the watertight test of a leaf's four
//! triangles, written with SSE instructions for `f32` on `x86_64` (SSE and SSE2 are
//! part of that target's baseline, so no run-time detection is needed). Every other
//! target and `f64` use the portable kernels ([`ray_tree`](super::ray_tree)'s
//! `slab8_portable`, [`ShearedRay::hit4_portable`]), which the compiler vectorises only
//! in part; processors with AVX test nodes with [`avx`](super::avx)'s kernel.
//!
//! Each step is the instruction that computes exactly what the portable kernel's
//! line computes: `minps(a, b)` is `if a < b { a } else { b }` and `maxps(a, b)` is
//! `if a > b { a } else { b }` (both give `b` when either is NaN), so the results are
//! bit for bit those of the portable kernels; the tests below compare them on random
//! and on edge-case lanes.
//!
//! Safety: the intrinsics need SSE and SSE2, which every `x86_64` processor has (the
//! target enables them by default); the loads and stores are the unaligned forms on
//! references to `[f32; 4]` (16 valid bytes each) or within a node's rows (at whole-row
//! offsets, see `slab8`). Nothing else is unsafe here.

use super::ray::{ShearedRay, Triangles4, EDGE_SIGN_ULPS, SLIVER_CANCELLATION};
use super::ray_tree::{OctantRay, Rows, WIDE};
use crate::broad::simd::LANES;
use core::arch::x86_64::*;
use glam::Vec3;

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

/// The node test of the ray walk (see `slab8_portable`): the entry parameters and the
/// mask of the lanes hit within `[0, max_t]` (`max_t` finite), the near and far plane
/// of each axis read from the rows the ray's octant picks, lanes 0–3 and 4–7 as two
/// 4-lane halves.
#[inline(always)]
pub(super) fn slab8(ray: &OctantRay<f32>, rows: &Rows<f32>, max_t: f32) -> ([f32; WIDE], u32) {
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
                debug_assert!(offset + 32 <= core::mem::size_of::<Rows<f32>>());
                _mm_loadu_ps(base.add(offset + 16 * half).cast::<f32>())
            };
            let mut enter = _mm_setzero_ps();
            let mut exit = _mm_set1_ps(max_t);
            for axis in 0..3 {
                let o = _mm_loadu_ps(ray.origin[axis].as_ptr());
                let inv = _mm_loadu_ps(ray.inv_dir[axis].as_ptr());
                let t_near = _mm_mul_ps(_mm_sub_ps(row(near[axis]), o), inv);
                let t_far = _mm_mul_ps(_mm_sub_ps(row(far[axis]), o), inv);
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

#[cfg(test)]
pub(super) mod tests {
    use super::super::ray_tree::slab8_portable;
    use super::*;
    use crate::algo::slab::PreparedRay;
    use crate::broad::finite_max_t;
    use crate::broad::simd::{ray_boxes4_mask_rows, Boxes4, SoaRay};
    use crate::shape::{Aabb, Ray};

    /// Eight random boxes (a fifth of them empty) as two shared-kernel halves and as
    /// node rows.
    pub(in super::super) fn random_rows(rng: &mut Lcg) -> ([Boxes4<f32>; 2], Rows<f32>) {
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
            let octant = OctantRay::new(&prepared);
            let (t, hit) = slab8(&octant, &rows, prepared.max_t);
            let (port_t, port_hit) = slab8_portable(&octant, &rows, [prepared.max_t; WIDE]);
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
}
