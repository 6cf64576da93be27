//! Exact-sign predicates shared by validation, triangulation and merging (Ericson
//! 3.1.6 for the orientation determinant, 5.1.9.1 for segment intersection). No
//! tolerances: every test is a sign test on the determinant computed in floating point.

use crate::math::{Real, Vector2};

/// Twice the signed area of the triangle `a, b, c`: positive for a left turn.
#[inline]
pub(super) fn orient<V: Vector2>(a: V, b: V, c: V) -> V::Scalar {
    (b - a).perp_dot(c - a)
}

/// Twice the signed area of a ring (shoelace about its first vertex): positive when
/// counter-clockwise.
pub(super) fn ring_twice_area<V: Vector2>(ring: &[V]) -> V::Scalar {
    let o = ring[0];
    (1..ring.len().saturating_sub(1)).fold(V::Scalar::ZERO, |acc, i| {
        acc + orient(o, ring[i], ring[i + 1])
    })
}

/// Even-odd test of `p` against a ring (a horizontal ray to `+x`, half-open in `y`).
/// Points on the ring may answer either way.
pub(super) fn ring_contains<V: Vector2>(ring: &[V], p: V) -> bool {
    let n = ring.len();
    (0..n).fold(false, |inside, i| {
        inside ^ crosses_right(ring[i], ring[(i + 1) % n], p)
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

/// True when the closed segments `ab` and `cd` share a point.
pub(super) fn segments_touch<V: Vector2>(a: V, b: V, c: V, d: V) -> bool {
    let zero = V::Scalar::ZERO;
    let (o1, o2) = (orient(a, b, c), orient(a, b, d));
    let (o3, o4) = (orient(c, d, a), orient(c, d, b));
    if o1 == zero && o2 == zero {
        // Collinear: do the projections on the line overlap?
        let dir = b - a;
        let (s0, s1) = ((c - a).dot(dir), (d - a).dot(dir));
        return s0.min(s1) <= dir.dot(dir) && s0.max(s1) >= zero;
    }
    let straddle =
        |p: V::Scalar, q: V::Scalar| (p <= zero && q >= zero) || (p >= zero && q <= zero);
    straddle(o1, o2) && straddle(o3, o4)
}

/// True when `p` is inside or on the counter-clockwise triangle `a, b, c`.
#[inline]
pub(super) fn in_triangle<V: Vector2>(a: V, b: V, c: V, p: V) -> bool {
    let zero = V::Scalar::ZERO;
    orient(a, b, p) >= zero && orient(b, c, p) >= zero && orient(c, a, p) >= zero
}
