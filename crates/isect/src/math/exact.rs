//! Error-free transformations (Knuth's TwoSum, the fused multiply-add product of
//! Ogita, Rump and Oishi 2005, "Accurate sum and dot product") and the one
//! double-length kernel built on them: the cross product of two edge vectors given by
//! their end points, each difference kept exact as a pair `hi + lo`. A triangle's
//! normal computed this way is accurate to a few units in the last place of its own
//! length, however thin the triangle; the plain cross product loses `ε · L² / (2A)`
//! of it (`L` its longest edge, `A` its area). Beside them, two helpers of the
//! precise closest-point kernels: [`nearer`] compares distances without squaring
//! them, [`pow2_scale`] keeps products of coordinates in range. No tolerance.

use super::real::Real;
use super::vector::Vector;

/// `a + b = s + e` exactly (Knuth's TwoSum), barring overflow.
#[inline]
pub fn two_sum<R: Real>(a: R, b: R) -> (R, R) {
    let s = a + b;
    let b_part = s - a;
    let e = (a - (s - b_part)) + (b - b_part);
    (s, e)
}

/// `a · b = p + e` exactly (by one fused multiply-add), barring overflow and underflow.
#[inline]
pub fn two_prod<R: Real>(a: R, b: R) -> (R, R) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

/// `x · y = p + e` exactly in `f64` by Dekker's split into 26-bit halves, barring
/// overflow and underflow: the exact predicates' product, which needs no hardware
/// fused multiply-add.
#[inline]
pub(crate) fn dekker_product(x: f64, y: f64) -> (f64, f64) {
    const SPLITTER: f64 = 134_217_729.0; // 2^27 + 1
    let split = |v: f64| {
        let c = SPLITTER * v;
        let hi = c - (c - v);
        (hi, v - hi)
    };
    let p = x * y;
    let ((xh, xl), (yh, yl)) = (split(x), split(y));
    (p, xl * yl - (((p - xh * yh) - xl * yh) - xh * yl))
}

/// Adds `part` to the non-overlapping expansion `e[..len]` (increasing magnitude,
/// zeros dropped) and returns the new length (Shewchuk's grow-expansion); a
/// component that would not fit in `e` is dropped, which callers size against.
pub(crate) fn grow_expansion(e: &mut [f64], len: usize, part: f64) -> usize {
    let mut q = part;
    let mut out = 0;
    for k in 0..len {
        let (s, err) = two_sum(q, e[k]);
        q = s;
        if err != 0.0 {
            e[out] = err;
            out += 1;
        }
    }
    if q != 0.0 && out < e.len() {
        e[out] = q;
        out += 1;
    }
    out
}

/// A double-length number `hi + lo`, `|lo|` at most half an ulp of `hi` after
/// [`renorm`].
type Pair<R> = (R, R);

/// `hi + lo` renormalised so that `hi` is the rounded sum.
#[inline]
fn renorm<R: Real>(hi: R, lo: R) -> Pair<R> {
    two_sum(hi, lo)
}

/// The product of two pairs, to about twice the working precision.
#[inline]
fn mul<R: Real>(a: Pair<R>, b: Pair<R>) -> Pair<R> {
    let (p, e) = two_prod(a.0, b.0);
    renorm(p, e + (a.0 * b.1 + a.1 * b.0))
}

/// `a − b` of two pairs, to about twice the working precision.
#[inline]
fn sub<R: Real>(a: Pair<R>, b: Pair<R>) -> Pair<R> {
    let (s, e) = two_sum(a.0, -b.0);
    renorm(s, e + (a.1 - b.1))
}

/// `(b − a) × (c − a)` for 3D points given as coordinate arrays, each scaled by
/// `factor` (a power of two, to keep the products in range; exact), rounded once
/// per coordinate at the end.
pub fn cross_of_edges<R: Real>(a: [R; 3], b: [R; 3], c: [R; 3], factor: R) -> [R; 3] {
    let edge = |p: [R; 3], k: usize| {
        let (hi, lo) = two_sum(p[k], -a[k]);
        (hi * factor, lo * factor)
    };
    let (u, v) = (
        [edge(b, 0), edge(b, 1), edge(b, 2)],
        [edge(c, 0), edge(c, 1), edge(c, 2)],
    );
    let component = |i: usize, j: usize| {
        let (hi, lo) = sub(mul(u[i], v[j]), mul(u[j], v[i]));
        hi + lo
    };
    [component(1, 2), component(2, 0), component(0, 1)]
}

/// `|p − x| < |p − y|`, decided as `(x − y)·((p − x) + (p − y)) > 0`: the difference of
/// the squared distances without forming them, so that two candidates far from `p`
/// whose squared distances round alike are still told apart.
#[inline]
pub fn nearer<V: Vector>(p: V, x: V, y: V) -> bool {
    (x - y).dot((p - x) + (p - y)) > V::Scalar::ZERO
}

/// The power of two nearest `1 / max(sizes)` when that maximum is outside
/// `[2^-16, 2^16]` (so products of two rescaled coordinates neither overflow nor
/// underflow), else 1; 1 for zero or non-finite sizes. The power is kept within the
/// type's normal range: a size below `1 / R::MAX` (a subnormal) is scaled by the
/// largest power short of overflow instead (about `2^1021` in `f64`), which still
/// brings it far above the underflow of its square.
pub fn pow2_scale<R: Real, const N: usize>(sizes: [R; N]) -> R {
    let size = sizes.iter().fold(R::ZERO, |m, &s| m.max(s));
    let limit = R::from_f64(65536.0);
    if size <= limit && size * limit >= R::ONE || !(size > R::ZERO && size.is_finite()) {
        return R::ONE;
    }
    let top = R::MAX.to_f64().log2().floor() - 2.0;
    R::from_f64((-size.to_f64().log2().round()).clamp(-top, top).exp2())
}

#[cfg(test)]
mod tests {
    use super::*;

    // TwoSum and TwoProd are exact: 1 + 2^-60 keeps its tail, (1 + 2^-30)² its square.
    #[test]
    fn error_free() {
        let tiny = (-60.0f64).exp2();
        assert_eq!(two_sum(1.0, tiny), (1.0, tiny));
        let x = 1.0 + (-30.0f64).exp2();
        assert_eq!(two_prod(x, x), (1.0 + (-29.0f64).exp2(), (-60.0f64).exp2()));
    }

    // A sliver whose plain cross product cancels: (0,0,0), (2^30 + 3, 1, 5),
    // (2^31 + 6, 2 + 2^-22, 10), almost on one line.
    #[test]
    fn sliver_cross_is_exact() {
        let big = 30.0f64.exp2();
        let a = [0.0, 0.0, 0.0];
        let b = [big + 3.0, 1.0, 5.0];
        let c = [2.0 * big + 6.0, 2.0 + (-22.0f64).exp2(), 10.0];
        let n = cross_of_edges(a, b, c, 1.0);
        // b × c worked out by hand: x = 10 − 5 (2 + 2^-22), z = (2^30 + 3)(2 + 2^-22)
        // − (2^31 + 6); both exact in f64, while the plain products round.
        let tail = (-22.0f64).exp2();
        assert_eq!(n, [-5.0 * tail, 0.0, 256.0 + 3.0 * tail]);
    }
}
