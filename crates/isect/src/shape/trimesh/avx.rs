//! The node test of the mesh's ray walk with AVX: one ray against a node's eight `f32`
//! boxes (whatever the mesh's scalar) in 8-lane registers, on `x86_64` processors that
//! have AVX (found at run time when the tree is built; the walk around
//! it is compiled for AVX too, see [`RayTree::run`](super::ray_tree::RayTree::run));
//! the `f64` leaf test of four triangles in one 4-lane register, and the narrowing of
//! an `f64` ray's three axes in another (both passed down by the walks compiled for
//! AVX as their kernels' type, and inlined there). The same steps as the portable
//! kernels (`slab8_portable`, [`ShearedRay::hit4_portable`], `narrow_portable`)
//! and as [`sse`](super::sse)'s kernels, each one instruction of the same IEEE
//! operation: `vminps(a, b)` / `vminpd(a, b)` is `if a < b { a } else { b }` and
//! `vmaxps(a, b)` / `vmaxpd(a, b)` is `if a > b { a } else { b }` (both give `b` when
//! either is NaN), the comparisons are the ordered ones (false on NaN), negation flips
//! the sign bit and `abs` clears it, so entries, masks and hits are bit for bit the
//! portable kernels', no tolerance (the tests below compare them wherever the processor
//! has AVX; a leaf's `t` where it is NaN may differ only in the NaN's payload);
//! conversions to `f32` round to nearest, as `as f32` does.
//!
//! Safety: the kernels may run only where AVX is present (their callers check); their
//! loads are unaligned 32-byte reads of the ray's eight-lane rows, of whole rows of a
//! node (at the offsets `OctantRay` makes), of a leaf's four-lane `f64` rows and of
//! the four-lane arrays of a `Narrowing`.

use super::ray::{ShearedRay, Triangles4, EDGE_SIGN_ULPS, SLIVER_CANCELLATION};
use super::ray_tree::{
    Narrowing, OctantRay, Rows, FAR_KERNEL_ULPS, NARROW_LIMIT, NODE_PAD_REL, WIDE,
};
use crate::broad::simd::LANES;
use core::arch::x86_64::*;
use glam::DVec3;

/// The node test (see `slab8_portable`, and `Kernels::slab` for `PADDED`): the entry
/// parameters and the mask of the lanes hit within `[0, max_t]` (`max_t` finite).
///
/// # Safety
/// The processor must have AVX.
#[target_feature(enable = "avx")]
#[inline]
pub(super) unsafe fn slab8<const PADDED: bool>(
    ray: &OctantRay,
    rows: &Rows,
    max_t: f32,
) -> ([f32; WIDE], u32) {
    let (near, far) = (ray.near(), ray.far());
    let base = rows.as_ptr().cast::<u8>();
    let mut t = [0.0; WIDE];
    // SAFETY: AVX is present (the caller's contract); each offset is a whole row of
    // `rows` (`OctantRay` makes them so and nothing else writes them), so the 32-byte
    // loads read within `rows`; the ray's rows and `t` are eight lanes long.
    unsafe {
        let row = |offset: usize| {
            debug_assert!(offset + 32 <= core::mem::size_of::<Rows>());
            _mm256_loadu_ps(base.add(offset).cast::<f32>())
        };
        let mut enter = _mm256_setzero_ps();
        let mut exit = _mm256_set1_ps(max_t);
        for axis in 0..3 {
            let o = _mm256_loadu_ps(ray.origin[axis].as_ptr());
            let inv = _mm256_loadu_ps(ray.inv_dir[axis].as_ptr());
            let (o_far, inv_far) = match PADDED {
                true => (
                    _mm256_loadu_ps(ray.origin_far[axis].as_ptr()),
                    _mm256_loadu_ps(ray.inv_far[axis].as_ptr()),
                ),
                false => (o, inv),
            };
            let t_near = _mm256_mul_ps(_mm256_sub_ps(row(near[axis]), o), inv);
            let t_far = _mm256_mul_ps(_mm256_sub_ps(row(far[axis]), o_far), inv_far);
            enter = _mm256_max_ps(t_near, enter);
            exit = _mm256_min_ps(t_far, exit);
        }
        _mm256_storeu_ps(t.as_mut_ptr(), enter);
        let hit = _mm256_cmp_ps::<_CMP_LE_OQ>(enter, exit);
        (t, _mm256_movemask_ps(hit) as u32)
    }
}

/// The narrowing of an `f64` ray's three axes (see `narrow_portable`) in one 4-lane
/// register, each step the instruction of the portable line's operation (and the `f32`
/// steps of `f32_above` and `f32_below` in one 4-lane register), so the rows are the
/// same bit for bit. The sign test of the scaled inverse direction is made on its `f32`
/// rounding, which keeps its sign: every scaled component is at least 1 in magnitude
/// (or infinite), never a tiny value that would round to a signed zero. The fourth lane
/// is computed and dropped. Always inlined, into the walks compiled for AVX (see
/// [`hit4_f64_inlined`]).
///
/// # Safety
/// The processor must have AVX.
#[inline(always)]
pub(super) unsafe fn narrow(n: &Narrowing) -> Option<[[[f32; 3]; 2]; 2]> {
    // SAFETY: AVX is present (the caller's contract); the loads read the four-lane
    // arrays of `n`, the stores write four-lane arrays of this frame.
    unsafe {
        let abs64 = |v| _mm256_and_pd(v, _mm256_castsi256_pd(_mm256_set1_epi64x(i64::MAX)));
        let abs32 = |v| _mm_and_ps(v, _mm_castsi128_ps(_mm_set1_epi32(i32::MAX)));
        let (origin, dir) = (
            _mm256_loadu_pd(n.origin.as_ptr()),
            _mm256_loadu_pd(n.dir.as_ptr()),
        );
        let (inv, centre) = (
            _mm256_loadu_pd(n.inv.as_ptr()),
            _mm256_loadu_pd(n.centre.as_ptr()),
        );
        let scaled = _mm256_mul_pd(inv, _mm256_set1_pd(n.t_scale));
        let step = _mm256_mul_pd(dir, _mm256_set1_pd(n.t_start));
        let error = _mm256_mul_pd(
            _mm256_add_pd(
                abs64(origin),
                _mm256_mul_pd(_mm256_set1_pd(FAR_KERNEL_ULPS), abs64(step)),
            ),
            _mm256_set1_pd(f64::EPSILON),
        );
        let relative = _mm256_sub_pd(_mm256_add_pd(origin, step), centre);
        let limit = _mm256_set1_pd(NARROW_LIMIT);
        let infinite = _mm256_cmp_pd::<_CMP_EQ_OQ>(abs64(inv), _mm256_set1_pd(f64::INFINITY));
        let scaled_within = _mm256_cmp_pd::<_CMP_LE_OQ>(abs64(scaled), limit);
        let relative_within = _mm256_cmp_pd::<_CMP_LE_OQ>(abs64(relative), limit);
        let narrowable = _mm256_and_pd(_mm256_or_pd(infinite, scaled_within), relative_within);
        if _mm256_movemask_pd(narrowable) & 0b111 != 0b111 {
            return None;
        }
        // `y ± (|y|·ε + MIN_POSITIVE)` of `y` the `f32` rounding (`f32_above`, `f32_below`).
        let widening = |y| {
            let scaled = _mm_mul_ps(abs32(y), _mm_set1_ps(f32::EPSILON));
            _mm_add_ps(scaled, _mm_set1_ps(f32::MIN_POSITIVE))
        };
        let above = _mm256_cvtpd_ps(_mm256_add_pd(relative, error));
        let below = _mm256_cvtpd_ps(_mm256_sub_pd(relative, error));
        let (up, down) = (
            _mm_add_ps(above, widening(above)),
            _mm_sub_ps(below, widening(below)),
        );
        let negative = _mm_cmplt_ps(_mm256_cvtpd_ps(scaled), _mm_setzero_ps());
        let near = _mm_blendv_ps(up, down, negative);
        let far = _mm_blendv_ps(down, up, negative);
        let shrunk = _mm256_mul_pd(scaled, _mm256_set1_pd(1.0 - NODE_PAD_REL));
        let grown = _mm256_mul_pd(scaled, _mm256_set1_pd(1.0 + NODE_PAD_REL));
        let rows = [near, far, _mm256_cvtpd_ps(shrunk), _mm256_cvtpd_ps(grown)].map(|v| {
            let mut row = [0.0_f32; 4];
            _mm_storeu_ps(row.as_mut_ptr(), v);
            [row[0], row[1], row[2]]
        });
        Some([[rows[0], rows[1]], [rows[2], rows[3]]])
    }
}

/// `ShearedRay::hit4` for `f64` (see `hit4_portable`): `(t, hit, undecided)`, the
/// four lanes in one register; [`hit4_f64_inlined`] compiled for AVX on its own (the
/// tests' entry).
///
/// # Safety
/// The processor must have AVX.
#[cfg(test)]
#[target_feature(enable = "avx")]
#[inline]
pub(super) unsafe fn hit4_f64(
    ray: &ShearedRay<DVec3>,
    tris: &Triangles4<f64>,
    valid: u32,
) -> ([f64; LANES], u32, u32) {
    // SAFETY: AVX is present (the caller's contract) and this function is compiled
    // for it.
    unsafe { hit4_f64_inlined(ray, tris, valid) }
}

/// `ShearedRay::hit4` for `f64` (see `hit4_portable`): `(t, hit, undecided)`, the
/// four lanes in one register. Always inlined, for the walks compiled for AVX (a
/// `#[target_feature]` function cannot be forced inline, and the compiler kept one out
/// of line: a call per leaf); its intrinsics are inlined only into a caller compiled
/// for AVX (elsewhere each is a call: the same results, slowly).
///
/// # Safety
/// The processor must have AVX.
#[inline(always)]
pub(super) unsafe fn hit4_f64_inlined(
    ray: &ShearedRay<DVec3>,
    tris: &Triangles4<f64>,
    valid: u32,
) -> ([f64; LANES], u32, u32) {
    let (axes, origin, [sx, sy, sz]) = ray.frame();
    let mut t = [0.0; LANES];
    // SAFETY: AVX is present (the caller's contract); the loads read whole four-lane
    // rows of `tris` and the store writes the four lanes of `t`.
    unsafe {
        // Macros, not closures: a closure is a function of its own, not compiled for
        // AVX, so its intrinsics would be calls.
        macro_rules! load {
            ($r:expr) => {
                _mm256_loadu_pd($r.as_ptr())
            };
        }
        let (sx, sy, sz) = (_mm256_set1_pd(sx), _mm256_set1_pd(sy), _mm256_set1_pd(sz));
        let (ox, oy, oz) = (
            _mm256_set1_pd(origin[0]),
            _mm256_set1_pd(origin[1]),
            _mm256_set1_pd(origin[2]),
        );
        macro_rules! sheared {
            ($corner:expr) => {{
                let corner = $corner;
                let x = _mm256_sub_pd(load!(corner[axes[0]]), ox);
                let y = _mm256_sub_pd(load!(corner[axes[1]]), oy);
                let z = _mm256_sub_pd(load!(corner[axes[2]]), oz);
                [
                    _mm256_sub_pd(x, _mm256_mul_pd(sx, z)),
                    _mm256_sub_pd(y, _mm256_mul_pd(sy, z)),
                    _mm256_mul_pd(sz, z),
                ]
            }};
        }
        let (a, b, c) = (
            sheared!(&tris.corner[0]),
            sheared!(&tris.corner[1]),
            sheared!(&tris.corner[2]),
        );
        let magnitude = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fff_ffff_ffff_ffff));
        let sign = _mm256_set1_pd(-0.0);
        macro_rules! abs {
            ($x:expr) => {
                _mm256_and_pd($x, magnitude)
            };
        }
        macro_rules! neg {
            ($x:expr) => {
                _mm256_xor_pd($x, sign)
            };
        }
        macro_rules! edge {
            ($u:expr, $v:expr) => {{
                let (u, v) = ($u, $v);
                let (p, q) = (_mm256_mul_pd(u[0], v[1]), _mm256_mul_pd(u[1], v[0]));
                (_mm256_sub_pd(p, q), _mm256_add_pd(abs!(p), abs!(q)))
            }};
        }
        let ((e0, m0), (e1, m1), (e2, m2)) = (edge!(&c, &b), edge!(&a, &c), edge!(&b, &a));
        let k = _mm256_set1_pd(EDGE_SIGN_ULPS * f64::EPSILON);
        macro_rules! sure {
            ($e:expr, $m:expr) => {{
                let certain = _mm256_cmp_pd::<_CMP_GT_OQ>(abs!($e), _mm256_mul_pd($m, k));
                _mm256_and_pd(certain, $e)
            }};
        }
        let (c0, c1, c2) = (sure!(e0, m0), sure!(e1, m1), sure!(e2, m2));
        let low = _mm256_min_pd(c2, _mm256_min_pd(c1, c0));
        let high = _mm256_max_pd(c2, _mm256_max_pd(c1, c0));
        let det = _mm256_add_pd(_mm256_add_pd(e0, e1), e2);
        let num = _mm256_add_pd(
            _mm256_add_pd(_mm256_mul_pd(e0, a[2]), _mm256_mul_pd(e1, b[2])),
            _mm256_mul_pd(e2, c[2]),
        );
        let t_lanes = _mm256_div_pd(num, det);
        let sliver = _mm256_set1_pd(SLIVER_CANCELLATION);
        let cancel = _mm256_sub_pd(
            _mm256_add_pd(_mm256_add_pd(m0, m1), m2),
            _mm256_mul_pd(abs!(det), sliver),
        );
        let agreeing = _mm256_max_pd(neg!(high), low);
        let disagreeing = _mm256_min_pd(high, neg!(low));
        let kept = _mm256_min_pd(t_lanes, neg!(cancel));
        let zero = _mm256_setzero_pd();
        macro_rules! mask {
            ($m:expr) => {
                _mm256_movemask_pd($m) as u32
            };
        }
        let crossed = mask!(_mm256_cmp_pd::<_CMP_LT_OQ>(zero, agreeing));
        let agree = !mask!(_mm256_cmp_pd::<_CMP_LT_OQ>(zero, disagreeing));
        let cancels = mask!(_mm256_cmp_pd::<_CMP_LT_OQ>(zero, cancel));
        let hit = crossed & mask!(_mm256_cmp_pd::<_CMP_LE_OQ>(zero, kept));
        let undecided = agree & (!crossed | cancels);
        _mm256_storeu_pd(t.as_mut_ptr(), t_lanes);
        (t, hit & valid, undecided & valid)
    }
}

#[cfg(test)]
mod tests {
    use super::super::ray_tree::slab8_portable;
    use super::super::ray_tree::tests::exact_octant;
    use super::super::sse::tests::{
        random_leaf_f64, random_narrowed_case, random_ray, random_rows, shared_kernel, Lcg,
    };
    use super::*;
    use crate::algo::slab::PreparedRay;
    use crate::broad::finite_max_t;

    /// [`narrow`] compiled for AVX on its own (the tests' entry).
    #[target_feature(enable = "avx")]
    unsafe fn narrow_avx(n: &Narrowing) -> Option<[[[f32; 3]; 2]; 2]> {
        // SAFETY: this function is compiled for AVX, and its caller checked for it.
        unsafe { narrow(n) }
    }

    /// A seeded `f64` of any scale, sign and kind the narrowing meets: zero, small
    /// integers, and mantissas at powers of ten up to `1e±5`, `1e±40` and `1e±300`.
    fn any_scale(rng: &mut Lcg) -> f64 {
        let mantissa = f64::from(rng.coord());
        let power = |rng: &mut Lcg, p: u64| 10f64.powi(rng.below(2 * p + 1) as i32 - p as i32);
        match rng.below(4) {
            0 => mantissa,
            1 => mantissa * power(rng, 5),
            2 => mantissa * power(rng, 40),
            _ => mantissa * power(rng, 300),
        }
    }

    // Where the processor has AVX, the AVX narrowing of an `f64` ray gives the portable
    // one's rows bit for bit, and refuses the same rays: zero direction components
    // (infinite inverses), origins and centres of every scale (beyond `NARROW_LIMIT`
    // too), starts at 0 and far along, inverse directions of both signs.
    #[test]
    fn avx_narrowing_matches_portable() {
        if !std::arch::is_x86_feature_detected!("avx") {
            return;
        }
        let mut rng = Lcg(29);
        let (mut narrowed, mut refused) = (0, 0);
        for case in 0..100_000 {
            let dir: [f64; 3] = std::array::from_fn(|_| any_scale(&mut rng));
            let inv = dir.map(|d| 1.0 / (d + 0.0));
            // As `node_ray` scales them.
            let Some(t_scale) = super::super::ray_tree::t_scale(&inv) else {
                continue;
            };
            let lanes = |x: [f64; 3]| [x[0], x[1], x[2], 0.0];
            let n = Narrowing {
                origin: lanes(std::array::from_fn(|_| any_scale(&mut rng))),
                dir: lanes(dir),
                inv: lanes(inv),
                centre: lanes(std::array::from_fn(|_| any_scale(&mut rng))),
                t_start: [0.0, 0.0, 1.5, any_scale(&mut rng).abs()][case % 4],
                t_scale,
            };
            let portable = super::super::ray_tree::narrow_portable(&n);
            // SAFETY: AVX was detected above.
            let avx = unsafe { narrow_avx(&n) };
            let bits = |r: Option<[[[f32; 3]; 2]; 2]>| {
                r.map(|r| r.map(|a| a.map(|b| b.map(f32::to_bits))))
            };
            assert_eq!(bits(avx), bits(portable), "case {case}");
            match portable {
                Some(_) => narrowed += 1,
                None => refused += 1,
            }
        }
        assert!(
            narrowed > 10_000 && refused > 10_000,
            "{narrowed} narrowed, {refused} refused"
        );
        // At the limit exactly (narrowed) and one step beyond it (refused), on the
        // origin's offset and on the scaled inverse direction.
        let (at, beyond) = (NARROW_LIMIT, NARROW_LIMIT.next_up());
        for (offset, inv, narrows) in [
            (at, 1.0, true),
            (-at, -1.0, true),
            (beyond, 1.0, false),
            (-beyond, 1.0, false),
            (1.0, at, true),
            (1.0, -at, true),
            (1.0, beyond, false),
            (1.0, -beyond, false),
        ] {
            let n = Narrowing {
                origin: [offset + 1.0, 1.0, 1.0, 0.0],
                dir: [1.0, 1.0 / inv, 1.0, 0.0],
                inv: [1.0, inv, 1.0, 0.0],
                centre: [1.0; 4],
                t_start: 0.0,
                t_scale: 1.0,
            };
            let portable = super::super::ray_tree::narrow_portable(&n);
            // SAFETY: AVX was detected above.
            let avx = unsafe { narrow_avx(&n) };
            assert_eq!(portable.is_some(), narrows, "{offset} {inv}");
            assert_eq!(avx, portable, "{offset} {inv}");
        }
    }

    // Where the processor has AVX, the AVX node kernel gives the portable kernel's mask
    // and entries bit for bit, and the shared min/max kernel's mask and hit entries.
    #[test]
    fn avx_slab_matches_portable() {
        if !std::arch::is_x86_feature_detected!("avx") {
            return;
        }
        let mut rng = Lcg(13);
        let mut hits = 0;
        for case in 0..40_000 {
            let (boxes, rows) = random_rows(&mut rng);
            let ray = random_ray(&mut rng);
            let max_t = [f32::INFINITY, 1.0, 0.0, -1.0, f32::NAN, f32::MAX][case % 6];
            let prepared = PreparedRay::new(&ray, finite_max_t(max_t));
            let octant = exact_octant(&prepared);
            // SAFETY: AVX was detected above.
            let (t, hit) = unsafe { slab8::<false>(&octant, &rows, prepared.max_t) };
            let (port_t, port_hit) =
                slab8_portable::<false>(&octant, &rows, [prepared.max_t; WIDE]);
            assert_eq!(hit, port_hit, "case {case}");
            assert_eq!(hit, shared_kernel(&prepared, &boxes, &t), "case {case}");
            hits += hit.count_ones();
            for lane in 0..WIDE {
                assert_eq!(t[lane].to_bits(), port_t[lane].to_bits(), "case {case}");
            }
        }
        assert!(hits > 10_000, "{hits} hits");
    }

    // Where the processor has AVX, the AVX node kernel of an `f64` tree (padded,
    // narrowed rays) gives the portable kernel's mask and entries bit for bit (the
    // cases of the SSE kernel's test).
    #[test]
    fn avx_padded_slab_matches_portable() {
        if !std::arch::is_x86_feature_detected!("avx") {
            return;
        }
        let mut rng = Lcg(23);
        let mut hits = 0;
        for case in 0..40_000 {
            let Some((octant, rows, clip)) = random_narrowed_case(&mut rng, case) else {
                continue;
            };
            // SAFETY: AVX was detected above.
            let (t, hit) = unsafe { slab8::<true>(&octant, &rows, clip) };
            let (port_t, port_hit) = slab8_portable::<true>(&octant, &rows, [clip; WIDE]);
            assert_eq!(hit, port_hit, "case {case}");
            hits += hit.count_ones();
            for lane in 0..WIDE {
                assert_eq!(t[lane].to_bits(), port_t[lane].to_bits(), "case {case}");
            }
        }
        assert!(hits > 10_000, "{hits} hits");
    }

    // Where the processor has AVX, the AVX `f64` triangle kernel gives the portable
    // kernel's decisions and t (the cases of the SSE2 kernel's test).
    #[test]
    fn avx_triangles_f64_match_portable() {
        if !std::arch::is_x86_feature_detected!("avx") {
            return;
        }
        let mut rng = Lcg(29);
        let (mut hits, mut undecideds) = (0, 0);
        for case in 0..40_000 {
            let Some((ray, tris, valid)) = random_leaf_f64(&mut rng, case) else {
                continue;
            };
            // SAFETY: AVX was detected above.
            let (t, hit, undecided) = unsafe { hit4_f64(&ray, &tris, valid) };
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
        assert!(
            hits > 2000 && undecideds > 100,
            "{hits} hits, {undecideds} undecided"
        );
    }
}
