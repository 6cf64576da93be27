//! The point of a triangle closest to a point, with the feature (face, edge, vertex)
//! it lies on: Ericson, *Real-Time Collision Detection*, 5.1.5 (Voronoi regions tested
//! by barycentric sign checks). A flat (zero-area) triangle, where the face formula
//! divides by zero, is answered as the nearest of its three edges. Tolerance:
//! [`ON_SURFACE_ULPS`] decides when a point is on the surface.
//!
//! Also the nearest-triangle search over a [`Bvh`] shared by the meshes and
//! heightfields.

use crate::broad::Bvh;
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

/// The point of segment `a → b` closest to `p`, its feature on the triangle (`k` is
/// the edge index, `a = v_k`), and its squared distance.
fn on_edge<V: Vector>(a: V, b: V, k: usize, p: V) -> (V, Feature, V::Scalar) {
    let ab = b - a;
    let len2 = ab.length_squared();
    let s = (p - a).dot(ab);
    let (q, f) = if s <= V::Scalar::ZERO || len2 == V::Scalar::ZERO {
        (a, Feature::Vertex(k))
    } else if s >= len2 {
        (b, Feature::Vertex((k + 1) % 3))
    } else {
        (a + ab * (s / len2), Feature::Edge(k))
    };
    (q, f, q.distance_squared(p))
}

/// The closest point of the closed triangle `t` to `p` and its feature (Ericson 5.1.5).
pub(crate) fn closest_on_triangle<V: Vector>(t: &[V; 3], p: V) -> (V, Feature) {
    let zero = V::Scalar::ZERO;
    let [a, b, c] = *t;
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= zero && d2 <= zero {
        return (a, Feature::Vertex(0));
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= zero && d4 <= d3 {
        return (b, Feature::Vertex(1));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= zero && d5 <= d6 {
        return (c, Feature::Vertex(2));
    }
    let vc = d1 * d4 - d3 * d2;
    let vb = d5 * d2 - d1 * d6;
    let va = d3 * d6 - d5 * d4;
    let denom = va + vb + vc;
    if vc <= zero && d1 >= zero && d3 <= zero && d1 - d3 > zero {
        return (a + ab * (d1 / (d1 - d3)), Feature::Edge(0));
    }
    if va <= zero && d4 - d3 >= zero && d5 - d6 >= zero && (d4 - d3) + (d5 - d6) > zero {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return (b + (c - b) * w, Feature::Edge(1));
    }
    if vb <= zero && d2 >= zero && d6 <= zero && d2 - d6 > zero {
        return (a + ac * (d2 / (d2 - d6)), Feature::Edge(2));
    }
    if denom > zero && denom.is_finite() {
        let inv = denom.recip();
        return (a + ab * (vb * inv) + ac * (vc * inv), Feature::Face);
    }
    nearest_edge(t, p)
}

/// The nearest of the three edges (for flat triangles).
fn nearest_edge<V: Vector>(t: &[V; 3], p: V) -> (V, Feature) {
    let mut best = on_edge(t[0], t[1], 0, p);
    for k in 1..3 {
        let e = on_edge(t[k], t[(k + 1) % 3], k, p);
        if e.2 < best.2 {
            best = e;
        }
    }
    (best.0, best.1)
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
