//! The point of a triangle closest to a point, with the feature (face, edge, vertex)
//! it lies on: Ericson, *Real-Time Collision Detection*, 5.1.5 (Voronoi regions tested
//! by barycentric sign checks). A flat (zero-area) triangle, where the face formula
//! divides by zero, is answered as the nearest of its three edges. Tolerance:
//! [`ON_SURFACE_ULPS`] decides when a point is on the surface.
//!
//! Also the nearest-triangle search over a [`Bvh`] shared by the meshes and
//! heightfields.

use crate::broad::Bvh;
use crate::math::exact::{nearer, pow2_scale};
use crate::math::tolerance::eps;
use crate::math::{Real, Vector};

/// Where a closest point lies on a triangle `[v0, v1, v2]`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Feature {
    /// On vertex `k`.
    Vertex(usize),
    /// On edge `k`, from vertex `k` to vertex `(k + 1) % 3`, strictly between its ends.
    Edge(usize),
    /// Inside the face.
    Face,
}

/// The point of segment `a → b` closest to `p` and its feature on the triangle (`k`
/// is the edge index, `a = v_k`); a NaN `p` gives a NaN point.
fn on_edge<V: Vector>(a: V, b: V, k: usize, p: V) -> (V, Feature) {
    let t = segment_fraction(a, b, p);
    if t <= V::Scalar::ZERO {
        (a, Feature::Vertex(k))
    } else if t >= V::Scalar::ONE {
        (b, Feature::Vertex((k + 1) % 3))
    } else {
        (a + (b - a) * t, Feature::Edge(k))
    }
}

/// The point of segment `a → b` closest to `p` (Ericson 5.1.2); NaN for a NaN `p`.
pub(crate) fn on_segment<V: Vector>(a: V, b: V, p: V) -> V {
    let t = segment_fraction(a, b, p);
    if t <= V::Scalar::ZERO {
        a
    } else if t >= V::Scalar::ONE {
        b
    } else {
        a + (b - a) * t
    }
}

/// The fraction along `a → b` of the foot of `p` (unclamped; 0 for a point segment).
/// Measured along the unit direction, so no squared length overflows or underflows at
/// extreme scales; the rounding of the direction's length cancels in the ratio.
fn segment_fraction<V: Vector>(a: V, b: V, p: V) -> V::Scalar {
    match (b - a).try_normalize() {
        Some(dir) => (p - a).dot(dir) / (b - a).dot(dir),
        None => V::Scalar::ZERO,
    }
}

/// The closest point of the closed triangle `t` to `p` and its feature (Ericson 5.1.5,
/// computed as a projection onto the plane, then onto the boundary). The answer is
/// within a few ulps of the exact point times the problem's scale (the largest of
/// `|p|` and the vertices), for thin and far-away triangles too, and independent of
/// the order of the vertices: they are first put in a canonical order.
pub(crate) fn closest_on_triangle<V: Vector>(t: &[V; 3], p: V) -> (V, Feature) {
    let perm = canonical_order(t);
    let sorted = perm.map(|i| t[i]);
    let (q, feature) = match plane_projection(&sorted, p) {
        Some((q0, true)) => (q0, Feature::Face),
        Some((q0, false)) => nearest_edge(&sorted, q0),
        None => nearest_edge(&sorted, p),
    };
    (q, unpermute(feature, perm))
}

/// `a < b` in lexicographic order of the coordinates.
fn lex_less<V: Vector>(a: V, b: V) -> bool {
    for k in 0..V::DIM {
        if a.get(k) != b.get(k) {
            return a.get(k) < b.get(k);
        }
    }
    false
}

/// The indices of `t` sorted lexicographically by coordinates: entry `k` is the given
/// index of the `k`-th vertex of the canonical order.
fn canonical_order<V: Vector>(t: &[V; 3]) -> [usize; 3] {
    let mut perm = [0, 1, 2];
    for (i, j) in [(0, 1), (1, 2), (0, 1)] {
        if lex_less(t[perm[j]], t[perm[i]]) {
            perm.swap(i, j);
        }
    }
    perm
}

/// A feature of the sorted triangle as a feature of the given one.
fn unpermute(feature: Feature, perm: [usize; 3]) -> Feature {
    match feature {
        Feature::Face => Feature::Face,
        Feature::Vertex(k) => Feature::Vertex(perm[k]),
        Feature::Edge(k) => {
            let (i, j) = (perm[k], perm[(k + 1) % 3]);
            Feature::Edge(if (i + 1) % 3 == j { i } else { j })
        }
    }
}

/// The nearest of the three edges to `p` (for flat triangles, and for points whose
/// projection onto the plane falls outside the triangle).
fn nearest_edge<V: Vector>(t: &[V; 3], p: V) -> (V, Feature) {
    let mut best = on_edge(t[0], t[1], 0, p);
    for k in 1..3 {
        let e = on_edge(t[k], t[(k + 1) % 3], k, p);
        if nearer(p, e.0, best.0) {
            best = e;
        }
    }
    best
}

/// The projection `q0` of `p` onto the triangle's plane (`p` itself in 2D) and whether
/// it lies strictly inside the triangle; `None` for a flat triangle.
fn plane_projection<V: Vector>(t: &[V; 3], p: V) -> Option<(V, bool)> {
    let [a, b, c] = *t;
    if V::DIM == 2 {
        let area = cross_2d(b - a, c - a);
        if !(area != V::Scalar::ZERO) {
            return None;
        }
        let side = |u: V, v: V| cross_2d(v - u, p - u) * area > V::Scalar::ZERO;
        return Some((p, side(a, b) && side(b, c) && side(c, a)));
    }
    let n = unit_normal(t)?;
    let q0 = p - n * n.dot(p - a);
    let factor = pow2_scale([b - a, c - a, q0 - a].map(|v| v.abs().max_element()));
    let side = |u: V, v: V| n.dot(cross_3d((v - u) * factor, (q0 - u) * factor)) > V::Scalar::ZERO;
    Some((q0, side(a, b) && side(b, c) && side(c, a)))
}

/// A flat triangle's plain cross product is trusted when it is at least this fraction of
/// the product of its two edges' lengths (the sine of the angle between them): its
/// direction is then within a few ulps. Thinner triangles take the exact cross product
/// ([`crate::math::exact::cross_of_edges`]).
pub const PLAIN_NORMAL_MIN_SINE: f64 = 0.5;

/// The triangle's unit normal (the orientation of `(b − a) × (c − a)`), accurate to a
/// few ulps however thin the triangle; `None` when it is flat or not finite. Computed
/// at the vertex opposite the longest edge (the smallest product of edge lengths), in
/// coordinates rescaled by a power of two.
fn unit_normal<V: Vector>(t: &[V; 3]) -> Option<V> {
    let edges = [t[1] - t[0], t[2] - t[1], t[0] - t[2]];
    let factor = pow2_scale(edges.map(|e| e.abs().max_element()));
    let e = edges.map(|e| e * factor);
    let len2 = e.map(|e| e.length_squared());
    // Vertex k is opposite edge (k + 1) % 3; its edges are e[k] and −e[(k + 2) % 3].
    let k = (0..3).max_by(|&i, &j| {
        len2[(i + 1) % 3]
            .partial_cmp(&len2[(j + 1) % 3])
            .unwrap_or(core::cmp::Ordering::Equal)
    })?;
    let (u, w) = (e[k], -e[(k + 2) % 3]);
    let plain = cross_3d(u, w);
    let sine = V::Scalar::from_f64(PLAIN_NORMAL_MIN_SINE);
    let n = match plain.length_squared() >= sine * sine * len2[k] * len2[(k + 2) % 3] {
        true => plain,
        false => exact_normal([t[k], t[(k + 1) % 3], t[(k + 2) % 3]], factor),
    };
    n.try_normalize()
}

/// `(b − a) × (c − a)` of `[a, b, c]` by the exact kernel, times `factor²`.
fn exact_normal<V: Vector>(t: [V; 3], factor: V::Scalar) -> V {
    let coords = t.map(|v| [v.get(0), v.get(1), v.get(2)]);
    let n = crate::math::exact::cross_of_edges(coords[0], coords[1], coords[2], factor);
    V::ZERO.with(0, n[0]).with(1, n[1]).with(2, n[2])
}

/// The 2D cross product of the first two coordinates.
#[inline]
fn cross_2d<V: Vector>(a: V, b: V) -> V::Scalar {
    a.get(0) * b.get(1) - a.get(1) * b.get(0)
}

/// The 3D cross product through the generic component access.
#[inline]
fn cross_3d<V: Vector>(a: V, b: V) -> V {
    let (x, y) = (|v: V| v.get(0), |v: V| v.get(1));
    let z = |v: V| v.get(2);
    V::ZERO
        .with(0, y(a) * z(b) - z(a) * y(b))
        .with(1, z(a) * x(b) - x(a) * z(b))
        .with(2, x(a) * y(b) - y(a) * x(b))
}

/// A query point within this many machine epsilons of its largest coordinate from its
/// closest point counts as on the surface (the closest point itself is rounded).
pub const ON_SURFACE_ULPS: f64 = 8.0;

/// True when `p` is on the surface at its closest point `q` (see [`ON_SURFACE_ULPS`]).
pub(crate) fn on_surface<V: Vector>(p: V, q: V) -> bool {
    let scale = p.abs().max_element();
    (p - q).abs().max_element() <= scale * eps::<V::Scalar>(ON_SURFACE_ULPS)
}

/// The item of `bvh` nearest to `p` by `dist2(item)` (a squared distance to the
/// item's geometry), with that squared distance: the tree's branch-and-bound walk
/// ([`Bvh::nearest`]). `None` for an empty tree or a non-finite `p`.
pub(crate) fn nearest_item<V: Vector>(
    bvh: &Bvh<V>,
    p: V,
    mut dist2: impl FnMut(u32) -> V::Scalar,
) -> Option<(u32, V::Scalar)> {
    bvh.nearest(p, |item, _| Some(dist2(item)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    // The unit right triangle in z = 0: every Voronoi region, and a flat triangle.
    #[test]
    fn regions() {
        let t = [DVec3::ZERO, DVec3::X, DVec3::Y];
        let at = |x, y, z| closest_on_triangle(&t, DVec3::new(x, y, z));
        let (q, f) = at(0.2, 0.2, 1.0);
        assert!(q.distance(DVec3::new(0.2, 0.2, 0.0)) < 1e-15 && f == Feature::Face);
        assert_eq!(at(-1.0, -1.0, 0.0), (DVec3::ZERO, Feature::Vertex(0)));
        assert_eq!(at(2.0, -0.5, 0.0), (DVec3::X, Feature::Vertex(1)));
        assert_eq!(at(-0.5, 2.0, 0.0), (DVec3::Y, Feature::Vertex(2)));
        assert_eq!(
            at(0.5, -1.0, 0.0),
            (DVec3::new(0.5, 0.0, 0.0), Feature::Edge(0))
        );
        assert_eq!(
            at(1.0, 1.0, 0.0),
            (DVec3::new(0.5, 0.5, 0.0), Feature::Edge(1))
        );
        assert_eq!(
            at(-1.0, 0.5, 0.0),
            (DVec3::new(0.0, 0.5, 0.0), Feature::Edge(2))
        );
        // A flat triangle (all on the x axis) answers as its longest edge.
        let flat = [DVec3::ZERO, DVec3::X, DVec3::X * 2.0];
        let (q, _) = closest_on_triangle(&flat, DVec3::new(1.5, 1.0, 0.0));
        assert_eq!(q, DVec3::new(1.5, 0.0, 0.0));
    }
}
