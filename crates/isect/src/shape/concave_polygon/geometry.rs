//! Exact-sign predicates shared by validation, triangulation and merging (Ericson
//! 3.1.6 for the orientation determinant, 5.1.9.1 for segment intersection). No
//! tolerances: every test is a sign test on the orientation determinant, whose sign is
//! exact (J. R. Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast Robust
//! Geometric Predicates", 1997: a floating-point filter, then the determinant as an
//! exact sum of products, Dekker's product and Knuth's two-sum, in `f64`).

use crate::math::exact::{dekker_product, grow_expansion};
use crate::math::{Real, Vector2};

/// Twice the signed area of the triangle `a, b, c`: positive for a left turn, zero
/// exactly when the three points are collinear. The sign is exact (see
/// [`exact_orient`]); the value is the exact determinant rounded (to the smallest
/// subnormal of its sign when it is too small for the scalar type).
#[inline]
pub(crate) fn orient<V: Vector2>(a: V, b: V, c: V) -> V::Scalar {
    if a == c || b == c || a == b {
        // Exactly zero; the sweeps compare edges at shared vertices all the time, and
        // the filter below would send every such case to the exact sum.
        return V::Scalar::ZERO;
    }
    let f = |v: V| [v.x().to_f64(), v.y().to_f64()];
    let d = exact_orient(f(a), f(b), f(c));
    let r = V::Scalar::from_f64(d);
    if r == V::Scalar::ZERO && d != 0.0 {
        // Below the scalar's subnormals (f32): keep the sign.
        let tiniest = V::Scalar::MIN_POSITIVE * V::Scalar::EPSILON;
        return if d > 0.0 { tiniest } else { -tiniest };
    }
    r
}

/// `(b − a) × (c − a)` in `f64` with an exact sign. A filter (Shewchuk's
/// `orient2d` stage A) answers with the difference form when it clears its error
/// bound; otherwise the determinant is taken as `a×b + b×c + c×a`, its six products
/// split exactly (Dekker) and summed exactly (two-sum expansion), and the expansion's
/// largest component gives the sign. Exact for every `f32` input (their products are
/// exact in `f64`); for `f64` input exact unless a product underflows (coordinates
/// whose product is below about 1e-292) or a coordinate exceeds about 1e300 (the
/// split overflows). The value is as accurate as the difference form's, or exact.
/// Inlined: the sweeps call it millions of times, and the filter nearly always answers.
#[inline]
fn exact_orient(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    let left = (a[0] - c[0]) * (b[1] - c[1]);
    let right = (a[1] - c[1]) * (b[0] - c[0]);
    let det = left - right;
    // Stage A's bound (3 + 16 ε) ε of the products' sizes, rounded up; the smallest
    // normal covers absolute underflow errors.
    let bound = 4.0 * f64::EPSILON * (left.abs() + right.abs()) + f64::MIN_POSITIVE;
    if det.abs() > bound || !bound.is_finite() {
        return det;
    }
    exact_orient_value(a, b, c)
}

/// `(b − a) × (c − a)`, exact then rounded (within two ulps): the six products of
/// `a×b + b×c + c×a` split exactly (Dekker) and summed exactly (two-sum expansion).
/// Exact under the conditions of [`exact_orient`]. Also the exact components of 3D
/// cross products (`algo::hull_3d::accurate_cross`).
pub(crate) fn exact_orient_value(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    let products = [
        (a[0], b[1]),
        (-a[1], b[0]),
        (b[0], c[1]),
        (-b[1], c[0]),
        (c[0], a[1]),
        (-c[1], a[0]),
    ];
    let mut expansion = [0.0f64; 12];
    let mut len = 0;
    for &(x, y) in &products {
        let (hi, lo) = dekker_product(x, y);
        for part in [lo, hi] {
            len = grow_expansion(&mut expansion, len, part);
        }
    }
    // Non-overlapping components in increasing magnitude: summing from the smallest
    // leaves the largest's sign.
    expansion[..len].iter().fold(0.0, |acc, &e| acc + e)
}

/// True when the 2D segments `a0 a1` and `b0 b1` cross or touch (Ericson 5.1.9.1 on
/// the exact signs of [`orient`]), collinear pairs excepted: those answer `false`,
/// left to the caller's own treatment of parallel segments.
pub(crate) fn segments_cross<V: Vector2>(a0: V, a1: V, b0: V, b1: V) -> bool {
    let sign = |p: V, q: V, r: V| {
        let o = orient(p, q, r);
        (o > V::Scalar::ZERO) as i8 - (o < V::Scalar::ZERO) as i8
    };
    let (o1, o2) = (sign(a0, a1, b0), sign(a0, a1, b1));
    let (o3, o4) = (sign(b0, b1, a0), sign(b0, b1, a1));
    let collinear = o1 == 0 && o2 == 0;
    !collinear && o1 * o2 <= 0 && o3 * o4 <= 0
}

/// Twice the signed area of a ring (shoelace about its first vertex): positive when
/// counter-clockwise.
pub(super) fn ring_twice_area<V: Vector2>(ring: &[V]) -> V::Scalar {
    let o = ring[0];
    (1..ring.len().saturating_sub(1)).fold(V::Scalar::ZERO, |acc, i| {
        acc + orient(o, ring[i], ring[i + 1])
    })
}

/// True when the edge `a → b` crosses the horizontal ray from `p` toward `+x`, with the
/// half-open rule (an end point exactly at `p.y` counts for the edge going up from it).
#[inline]
pub(super) fn crosses_right<V: Vector2>(a: V, b: V, p: V) -> bool {
    if (a.y() > p.y()) == (b.y() > p.y()) {
        return false;
    }
    let o = orient(a, b, p);
    if b.y() > a.y() {
        o > V::Scalar::ZERO
    } else {
        o < V::Scalar::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, Vec2};

    /// SplitMix64, for seeded integer points.
    fn next(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Integer points `a`, `b` and `c` near the line through them (`c = a + k (b − a)`
    /// moved by −1, 0 or 1), scaled by `2^shift`: the exact sign is the integer
    /// determinant's, which the naive rounded formula often misses at 2^50 in `f64`
    /// and 2^24 in `f32`.
    fn near_collinear(state: &mut u64, bits: u32) -> [[i64; 2]; 3] {
        let mut r = |m: u64| (next(state) % m) as i64;
        let span = 1u64 << (bits - 2);
        let a = [r(span), r(span)];
        let b = [r(span), r(span)];
        let k = 1 + r(2);
        let c = [
            a[0] + k * (b[0] - a[0]) + r(3) - 1,
            a[1] + k * (b[1] - a[1]) + r(3) - 1,
        ];
        [a, b, c]
    }

    fn exact_sign([a, b, c]: [[i64; 2]; 3]) -> i128 {
        let d = |p: [i64; 2], q: [i64; 2]| [(q[0] - p[0]) as i128, (q[1] - p[1]) as i128];
        let (u, v) = (d(a, b), d(a, c));
        (u[0] * v[1] - u[1] * v[0]).signum()
    }

    fn sign(x: f64) -> i128 {
        if x > 0.0 {
            1
        } else if x < 0.0 {
            -1
        } else {
            0
        }
    }

    // 20,000 near-collinear triples per type, at scales 2^-60 and 2^20 times the integers.
    #[test]
    fn orient_sign_is_exact() {
        let mut state = 7;
        for _ in 0..10_000 {
            for scale in [(-60f64).exp2(), 20f64.exp2()] {
                let t = near_collinear(&mut state, 50);
                let p = |q: [i64; 2]| DVec2::new(q[0] as f64 * scale, q[1] as f64 * scale);
                let got = orient(p(t[0]), p(t[1]), p(t[2]));
                assert_eq!(sign(got), exact_sign(t), "{t:?} at {scale}");
                let t = near_collinear(&mut state, 24);
                let p = |q: [i64; 2]| Vec2::new(q[0] as f32, q[1] as f32) * scale as f32;
                let got = orient(p(t[0]), p(t[1]), p(t[2]));
                assert_eq!(sign(got as f64), exact_sign(t), "{t:?} at {scale}");
            }
        }
    }

    // A determinant too small for f32 (2^-160) keeps its sign.
    #[test]
    fn orient_below_f32_subnormals_keeps_its_sign() {
        let tiny = (-80f32).exp2();
        let (a, b) = (Vec2::ZERO, Vec2::new(tiny, 0.0));
        assert!(orient(a, b, Vec2::new(0.0, tiny)) > 0.0);
        assert!(orient(a, b, Vec2::new(0.0, -tiny)) < 0.0);
        assert_eq!(orient(a, b, Vec2::new(2.0 * tiny, 0.0)), 0.0);
    }
}
