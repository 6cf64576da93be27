//! The separating-axis test of a triangle against a box (Ericson, *Real-Time Collision
//! Detection*, 5.2.9: the box's 3 face normals, the triangle's normal and the 9 cross
//! products of their edges), for the triangle–box manifold: when a face axis gives the
//! least penetration, its normal starts the feature manifold
//! ([`super::features`]) without GJK and EPA; an edge axis leaves the pair to them.
//!
//! Tolerances: an edge cross product shorter than `√ε` of the edges' lengths is
//! skipped (the face axes decide parallel edges); an edge axis wins only when it
//! separates more than the best face axis by [`clip_3d::EDGE_BIAS`] of the size, as
//! the SAT manifolds prefer faces.

use crate::algo::clip_3d;
use crate::math::{Isometry, Pose3, Real, Rotation3, Vector, Vector3};
use crate::shape::{Aabb, Triangle};

/// What the separating-axis test found.
pub(crate) enum TriangleBoxAxis<V: Vector> {
    /// An axis separates the shapes by more than the prediction.
    Apart,
    /// A face axis (the triangle's or the box's) gives the least penetration (up to
    /// the edge bias): the unit normal from the triangle to the box (world), the
    /// separation along it (negative when they overlap), and whether no edge axis
    /// separates more and none was skipped as near-parallel (then it is the least
    /// overlap over all axes, unbiased).
    Face(V, <V as Vector>::Scalar, bool),
    /// An edge of each, crossing inside both, overlaps: the points on the triangle's
    /// edge and on the box's (world), the unit normal from the triangle to the box
    /// (world), the depth, and the edges' indices (the triangle's `i` for
    /// `v[i] → v[i + 1]`, the box's as [`clip_3d::box_edge`] numbers them).
    Edges(V, V, V, <V as Vector>::Scalar, [u32; 2]),
    /// Another edge pair (ends, apart within the prediction): GJK and EPA answer.
    Edge,
}

/// The separating-axis test of the triangle `t` at `pose_t` against the box `b` at
/// `pose_b`, within `prediction`.
pub(crate) fn triangle_box_axis<R: Real>(
    pose_t: &Pose3<R>,
    t: &Triangle<R::V3>,
    pose_b: &Pose3<R>,
    b: &Aabb<R::V3>,
    prediction: R,
) -> TriangleBoxAxis<R::V3> {
    // The triangle in the box's frame, centred on the box.
    let to_box = pose_b.inv_mul(pose_t);
    let c = b.center();
    let v = t.vertices().map(|p| to_box.transform_point(p) - c);
    let h = b.half_extents();
    let size = h
        .max_element()
        .max(v.iter().fold(R::ZERO, |m, p| m.max(p.abs().max_element())));
    let prediction = clip_3d::touch_limit(prediction, size);
    // The separation along unit `u` and the sign that turns `u` from triangle to box.
    let separation = |u: R::V3| {
        let (d0, d1, d2) = (u.dot(v[0]), u.dot(v[1]), u.dot(v[2]));
        let (lo, hi) = (d0.min(d1).min(d2), d0.max(d1).max(d2));
        let r = h.get(0) * u.get(0).abs() + h.get(1) * u.get(1).abs() + h.get(2) * u.get(2).abs();
        // Triangle above the box (`lo − r`) or below it (`−r − hi`).
        if lo - r > -r - hi {
            (lo - r, -R::ONE)
        } else {
            (-r - hi, R::ONE)
        }
    };
    let mut best: Option<(R, R::V3)> = None;
    let consider = |u: R::V3, best: &mut Option<(R, R::V3)>| -> bool {
        let (s, sign) = separation(u);
        if !(s <= prediction) {
            return false;
        }
        if best.is_none_or(|(b, _)| s > b) {
            *best = Some((s, u * sign));
        }
        true
    };
    for k in 0..3 {
        if !consider(R::V3::unit_axis(k), &mut best) {
            return TriangleBoxAxis::Apart;
        }
    }
    let edges = [v[1] - v[0], v[2] - v[1], v[0] - v[2]];
    if let Some(n) = edges[0].cross(edges[1]).try_normalize() {
        if !consider(n, &mut best) {
            return TriangleBoxAxis::Apart;
        }
    }
    let Some((face_sep, face_normal)) = best else {
        return TriangleBoxAxis::Edge;
    };
    let tiny = R::EPSILON.sqrt();
    // The best edge axis: its separation, unit normal (triangle to box) and edges.
    let mut edge: Option<(R, R::V3, usize, usize)> = None;
    // A near-parallel edge pair skipped here may still be the least translation.
    let mut skipped = false;
    for (i, e) in edges.into_iter().enumerate() {
        for k in 0..3 {
            let axis = e.cross(R::V3::unit_axis(k));
            let len = axis.length();
            if !(len > tiny * e.length()) {
                skipped |= len > R::ZERO;
                continue;
            }
            let (s, sign) = separation(axis / len);
            if !(s <= prediction) {
                return TriangleBoxAxis::Apart;
            }
            if edge.is_none_or(|(m, ..)| s > m) {
                edge = Some((s, axis / len * sign, i, k));
            }
        }
    }
    let bias = R::from_f64(clip_3d::EDGE_BIAS) * size;
    let to_world = |p: R::V3| pose_b.transform_point(p + c);
    match edge {
        Some((s, n, i, k)) if s > face_sep + bias => {
            match crossing_edges((&v, i), (h, k), n, s, size) {
                Some((pt, pb, j)) => {
                    let n = pose_b.rotation.rotate(n);
                    TriangleBoxAxis::Edges(to_world(pt), to_world(pb), n, -s, [i as u32, j])
                }
                None => TriangleBoxAxis::Edge,
            }
        }
        _ => {
            let least = !skipped && edge.is_none_or(|(s, ..)| s <= face_sep);
            TriangleBoxAxis::Face(pose_b.rotation.rotate(face_normal), face_sep, least)
        }
    }
}

/// The closest points of triangle edge `i` (`v[i] → v[i + 1]`) and the box edge along
/// axis `k` that supports `−n`, when they are the shapes' touching features along `n`
/// (the triangle's third vertex no farther along `n`, the closest points inside both
/// edges) and overlap by `−s`: the point on the triangle `−s` beyond the box's along
/// `n`, the point on the box's edge, and the box edge's index. Box frame, centred.
fn crossing_edges<V: Vector3>(
    (v, i): (&[V; 3], usize),
    (h, k): (V, usize),
    n: V,
    s: V::Scalar,
    size: V::Scalar,
) -> Option<(V, V, u32)> {
    let (a, b, other) = (v[i], v[(i + 1) % 3], v[(i + 2) % 3]);
    let slack = V::Scalar::EPSILON.sqrt() * size;
    if !(s <= V::Scalar::ZERO) || other.dot(n) > a.dot(n).max(b.dot(n)) + slack {
        return None;
    }
    let j = clip_3d::box_support_edge(k, -n);
    let (p, q) = clip_3d::box_edge(h, j);
    let tri_edge = crate::shape::Segment { a, b };
    let box_edge = crate::shape::Segment { a: p, b: q };
    let (t, u, _, on_box) =
        crate::query::distance::closest_points_segment_segment(&tri_edge, &box_edge);
    let inside = |x: V::Scalar| x > V::Scalar::ZERO && x < V::Scalar::ONE;
    (inside(t) && inside(u)).then(|| (on_box + n * -s, on_box, j as u32))
}
