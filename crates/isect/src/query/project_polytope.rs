//! [`ProjectPoint`] for convex polytopes in closed form, not by GJK: GJK stops when the
//! *distance* is known to its relative tolerance, which leaves the *point* far off along
//! a face seen from afar (a vertex 0.94 from the true face point, 4,096 units away).
//!
//! Outside (Ericson 5.1, by features): the foot of `p` on the plane of a face `p` lies
//! beyond is the answer when it falls in that face (nothing of a convex polytope is
//! nearer than that plane); otherwise the answer lies on an edge of such a face, the
//! nearest one by [`nearer`] (distances compared without squaring them). Inside: `p`
//! itself (solid) or its foot on the nearest face plane (hollow), which for a convex
//! polytope lies on that face. Every answer is within a few ulps of the exact point
//! times the problem's scale; containment keeps the shapes' own slack
//! ([`crate::shape::POLYHEDRON_PLANE_ULPS`], the polygon's
//! `BOUNDARY_ULPS`). No other tolerance.

use crate::math::exact::{nearer, pow2_scale};
use crate::math::{Real, Vector};
use crate::query::project_convex::project_by_support;
use crate::query::project_point::{PointProjection, ProjectPoint};
use crate::shape::trimesh::closest::{closest_on_triangle, on_segment};
use crate::shape::{ConvexPolygon, ConvexPolyhedron};

/// Closed-form projection onto the polyhedron (see the module documentation).
impl<R: Real> ProjectPoint<R::V3> for ConvexPolyhedron<R>
where
    R::V3: crate::algo::gjk::GjkVector,
{
    fn project_local_point(&self, p: R::V3, solid: bool) -> PointProjection<R::V3> {
        if p.is_nan() {
            return PointProjection::nan();
        }
        if self.contains_point(p) {
            let point = match solid {
                true => p,
                false => nearest_plane_foot(
                    self.planes()
                        .iter()
                        .map(|pl| (pl.normal(), pl.signed_distance(p))),
                    p,
                ),
            };
            return PointProjection {
                point,
                is_inside: true,
            };
        }
        match outside_polyhedron(self, p) {
            Some(point) => PointProjection {
                point,
                is_inside: false,
            },
            // Outside by the slack only, beyond no face plane: GJK decides.
            None => project_by_support(self, p, solid),
        }
    }
}

/// `p` moved onto the plane it is least deep behind, from `(normal, signed distance)`.
fn nearest_plane_foot<V: Vector>(planes: impl Iterator<Item = (V, V::Scalar)>, p: V) -> V {
    let mut best = (V::ZERO, V::Scalar::NEG_INFINITY);
    for (n, h) in planes {
        if h > best.1 {
            best = (n, h);
        }
    }
    p - best.0 * best.1
}

/// The closest point of the polyhedron to `p` outside it; `None` when `p` lies beyond
/// no face plane (outside by the containment slack only).
fn outside_polyhedron<R: Real>(poly: &ConvexPolyhedron<R>, p: R::V3) -> Option<R::V3> {
    let verts = poly.vertices();
    let mut best: Option<R::V3> = None;
    for face in poly.faces() {
        let (idx, n) = (face.vertex_indices(), face.normal());
        let height = n.dot(p - verts[idx[0]]);
        if height.is_nan() || height <= R::ZERO {
            continue;
        }
        if in_face(verts, idx, n, p - n * height) {
            return Some(on_face(verts, idx, p));
        }
        for (i, &k) in idx.iter().enumerate() {
            let c = on_segment(verts[k], verts[idx[(i + 1) % idx.len()]], p);
            if best.is_none_or(|b| nearer(p, c, b)) {
                best = Some(c);
            }
        }
    }
    best
}

/// The closest point of face `idx` to `p`, whose foot lies in it: the nearest over
/// the face's fan of triangles by [`closest_on_triangle`], whose normal is exact
/// however thin the triangle (the stored face normal of a sliver face is not).
fn on_face<V: Vector>(verts: &[V], idx: &[usize], p: V) -> V {
    let origin = verts[idx[0]];
    let mut best = closest_on_triangle(&[origin, verts[idx[1]], verts[idx[2]]], p).0;
    for k in 2..idx.len() - 1 {
        let c = closest_on_triangle(&[origin, verts[idx[k]], verts[idx[k + 1]]], p).0;
        if nearer(p, c, best) {
            best = c;
        }
    }
    best
}

/// True when `q`, on the plane of the face `idx` (counter-clockwise about its outward
/// normal `n`), lies in the face: left of (or on) every edge. Coordinates are rescaled
/// by a power of two so that the products stay in range.
fn in_face<V: Vector>(verts: &[V], idx: &[usize], n: V, q: V) -> bool {
    let origin = verts[idx[0]];
    let extent = idx.iter().fold((q - origin).abs().max_element(), |m, &k| {
        m.max((verts[k] - origin).abs().max_element())
    });
    let f = pow2_scale([extent]);
    (0..idx.len()).all(|i| {
        let (a, b) = (verts[idx[i]], verts[idx[(i + 1) % idx.len()]]);
        n.dot(cross((b - a) * f, (q - a) * f)) >= V::Scalar::ZERO
    })
}

/// The 3D cross product through the generic component access.
fn cross<V: Vector>(a: V, b: V) -> V {
    let c = |i: usize, j: usize| a.get(i) * b.get(j) - a.get(j) * b.get(i);
    V::ZERO.with(0, c(1, 2)).with(1, c(2, 0)).with(2, c(0, 1))
}

/// Closed-form projection onto the polygon: outside, the nearest point of its edges;
/// inside, `p` (solid) or its foot on the nearest edge line (hollow).
impl<R: Real> ProjectPoint<R::V2> for ConvexPolygon<R> {
    fn project_local_point(&self, p: R::V2, solid: bool) -> PointProjection<R::V2> {
        if p.is_nan() {
            return PointProjection::nan();
        }
        let (verts, normals) = (self.vertices(), self.normals());
        if self.contains_point(p) {
            let lines = verts.iter().zip(normals).map(|(&v, &n)| (n, n.dot(p - v)));
            let point = if solid {
                p
            } else {
                nearest_plane_foot(lines, p)
            };
            return PointProjection {
                point,
                is_inside: true,
            };
        }
        let mut best = verts[0];
        for (i, &a) in verts.iter().enumerate() {
            let c = on_segment(a, verts[(i + 1) % verts.len()], p);
            if nearer(p, c, best) {
                best = c;
            }
        }
        PointProjection {
            point: best,
            is_inside: false,
        }
    }
}
