//! The separating-axis test in 2D (seed 001; Ericson, *Real-Time Collision
//! Detection*, 4.4.1 for boxes and 5.2.1 / 9.2 for the axes of convex polygons).
//!
//! Two convex polygons are disjoint iff some edge normal of either one separates
//! their projections. With unit normals the projections give the signed gap along
//! each axis; the largest one is the minimum penetration (seed 001) when it is ≤ 0.
//! A box needs only its two axes, so OBB–OBB tests four.
//!
//! Conventions: pairs are posed (`pose_a, &a, pose_b, &b`) and work in A's frame; the
//! axis of a result is unit, in world space, and points from A to B. Exactly touching
//! shapes (largest gap `0`) overlap with depth `0`. No tolerance is applied: the
//! answer is exact up to the rounding of the pose and of the dot products.
//!
//! When the polygons are apart, the largest gap over the edge normals is only a lower
//! bound of their distance (two vertices can be the closest features), so
//! [`polygon_polygon`] then computes the exact distance from the vertex–edge pairs of
//! both polygons: disjoint convex polygons always have a closest pair made of a vertex
//! of one and an edge of the other.

use crate::math::{Isometry, Pose2, Real, Vector, Vector2};
use crate::shape::obb_2d::Obb;
use crate::shape::ConvexPolygon;

/// Minimum translation vector: moving B by `depth` along `axis` makes the shapes touch.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Mtv<V: Vector> {
    /// Unit axis, world space, from A to B.
    pub axis: V,
    /// Penetration depth, ≥ 0 (0 when exactly touching).
    pub depth: V::Scalar,
}

/// The answer of a separating-axis query that measures both sides of contact.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum SatResult<V: Vector> {
    /// The shapes are disjoint.
    Separated {
        /// Euclidean distance between the shapes, > 0 (NaN for non-finite poses).
        distance: V::Scalar,
        /// Unit direction, world space, from A's closest point to B's (zero for
        /// non-finite poses).
        axis: V,
    },
    /// The shapes touch or overlap.
    Overlapping {
        /// Minimum penetration depth, ≥ 0.
        depth: V::Scalar,
        /// Unit axis, world space, from A to B, along which B moves out by `depth`.
        axis: V,
    },
}

impl<V: Vector> SatResult<V> {
    /// True for [`SatResult::Overlapping`] (touching included).
    #[inline]
    pub fn is_overlapping(&self) -> bool {
        matches!(self, Self::Overlapping { .. })
    }

    /// The result's axis (from A to B).
    #[inline]
    pub fn axis(&self) -> V {
        match *self {
            Self::Separated { axis, .. } | Self::Overlapping { axis, .. } => axis,
        }
    }

    /// Distance when separated, minus the depth when overlapping.
    #[inline]
    pub fn signed_distance(&self) -> V::Scalar {
        match *self {
            Self::Separated { distance, .. } => distance,
            Self::Overlapping { depth, .. } => -depth,
        }
    }

    /// The minimum translation vector when overlapping.
    #[inline]
    pub fn mtv(&self) -> Option<Mtv<V>> {
        match *self {
            Self::Overlapping { depth, axis } => Some(Mtv { axis, depth }),
            Self::Separated { .. } => None,
        }
    }
}

/// The four gaps of an OBB pair along A's and B's axes, each with its world axis
/// oriented from A to B. A gap > 0 separates.
#[inline(always)]
fn obb_gaps<R: Real>(a: &Obb<R>, b: &Obb<R>) -> [(R, R::V2); 4] {
    let (aa, ba) = (a.axes(), b.axes());
    let (ha, hb) = (a.half_extents(), b.half_extents());
    let d = b.center() - a.center();
    // r[i][j] = a_i · b_j: B's axes in A's frame.
    let r = [
        [aa[0].dot(ba[0]), aa[0].dot(ba[1])],
        [aa[1].dot(ba[0]), aa[1].dot(ba[1])],
    ];
    let gap_a = |i: usize| {
        let t = aa[i].dot(d);
        let reach = ha.get(i) + hb.x() * r[i][0].abs() + hb.y() * r[i][1].abs();
        (t.abs() - reach, aa[i] * R::ONE.copysign(t))
    };
    let gap_b = |j: usize| {
        let t = ba[j].dot(d);
        let reach = hb.get(j) + ha.x() * r[0][j].abs() + ha.y() * r[1][j].abs();
        (t.abs() - reach, ba[j] * R::ONE.copysign(t))
    };
    [gap_a(0), gap_a(1), gap_b(0), gap_b(1)]
}

/// True when the closed oriented rectangles share a point (touching counts).
///
/// Both boxes are in world space (each carries its pose). Exact up to rounding.
#[inline]
pub fn intersects_obb_obb<R: Real>(a: &Obb<R>, b: &Obb<R>) -> bool {
    obb_gaps(a, b).iter().all(|&(gap, _)| gap <= R::ZERO)
}

/// The minimum translation vector of two overlapping (or touching) oriented
/// rectangles, or `None` when they are disjoint. Agrees with [`intersects_obb_obb`].
/// For concentric boxes the axis is the `+` side of the least-penetrated box axis.
#[inline]
pub fn obb_obb_mtv<R: Real>(a: &Obb<R>, b: &Obb<R>) -> Option<Mtv<R::V2>> {
    let gaps = obb_gaps(a, b);
    let (gap, axis) = gaps[1..]
        .iter()
        .fold(gaps[0], |best, &g| if g.0 > best.0 { g } else { best });
    (gap <= R::ZERO).then_some(Mtv { axis, depth: -gap })
}

/// In the polygon SAT, the other polygon's vertices are scanned by rotating calipers
/// when it has at least this many, by a plain scan otherwise (measured: on 3–8
/// vertices the calipers' unpredictable loop exits cost more than the products they
/// save).
pub const CALIPERS_MIN_VERTICES: usize = 16;

/// The largest gap between `p` and `q` along `p`'s edge normals, and the edge giving
/// it; with `stop_when_apart`, stops at the first positive gap (a separating axis: the
/// pair is apart). `pose_pq` maps `q`'s frame into `p`'s.
///
/// `q`'s vertex nearest along each normal is found by rotating calipers (Shamos
/// 1978; Toussaint, "Solving geometric problems with the rotating calipers", 1983):
/// `p`'s normals turn counter-clockwise, so the vertex of `q` that minimises them
/// moves counter-clockwise around `q` too, and walking on from the last one while
/// the product decreases finds it. One full scan for the first normal, then
/// `O(|p| + |q|)` products in all instead of `|p|·|q|`. The walk stops where the
/// products stop decreasing, which on a convex polygon is the minimum up to the
/// rounding of two nearly equal products. Below [`CALIPERS_MIN_VERTICES`] vertices
/// of `q` a full scan is faster (its loop has no data-dependent exit).
#[inline(always)]
fn max_edge_gap<R: Real>(
    p: &ConvexPolygon<R>,
    q: &ConvexPolygon<R>,
    pose_pq: &Pose2<R>,
    stop_when_apart: bool,
) -> (R, usize) {
    let t = pose_pq.translation;
    let w = q.vertices();
    let mut best = (R::NEG_INFINITY, 0);
    let mut nearest_vertex = None;
    for (i, (&n, &v)) in p.normals().iter().zip(p.vertices()).enumerate() {
        // n · (R·w + t − v) = (Rᵀn) · w + n · (t − v): rotate the normal, not q.
        let n_q = pose_pq.rotation.inverse_rotate(n);
        let nearest = if w.len() < CALIPERS_MIN_VERTICES {
            // A branch-free scan: the walk's data-dependent exit mispredicts.
            w.iter().fold(R::INFINITY, |m, &x| {
                let d = n_q.dot(x);
                if d < m {
                    d
                } else {
                    m
                }
            })
        } else {
            let (nearest, j) = match nearest_vertex {
                None => extreme(w, n_q),
                Some(j) => walk_to_nearest(w, n_q, j),
            };
            nearest_vertex = Some(j);
            nearest
        };
        let gap = nearest + n.dot(t - v);
        if gap > best.0 {
            best = (gap, i);
            if stop_when_apart && gap > R::ZERO {
                break;
            }
        }
    }
    best
}

/// From vertex `start`, walks counter-clockwise around `w` while `dir · w` decreases
/// (at most one lap); the smallest product found and its vertex.
#[inline(always)]
fn walk_to_nearest<V: Vector>(w: &[V], dir: V, start: usize) -> (V::Scalar, usize) {
    let (mut j, mut d) = (start, dir.dot(w[start]));
    for _ in 1..w.len() {
        let next = if j + 1 == w.len() { 0 } else { j + 1 };
        let d_next = dir.dot(w[next]);
        // Also stops on NaN.
        if d_next < d {
            (j, d) = (next, d_next);
        } else {
            break;
        }
    }
    (d, j)
}

/// True when the bounding circles of `a` and `b` (B mapped by `pose_ab`) are more than
/// `margin` apart: a cheap coarse reject that reads no vertex (each radius already
/// covers its rounding).
#[inline(always)]
pub(crate) fn circles_apart<R: Real>(
    a: &ConvexPolygon<R>,
    b: &ConvexPolygon<R>,
    pose_ab: &Pose2<R>,
    margin: R,
) -> bool {
    let ((ca, ra), (cb, rb)) = (a.bounding_circle(), b.bounding_circle());
    let reach = ra + rb + margin;
    pose_ab.transform_point(cb).distance_squared(ca) > reach * reach
}

/// The largest gap over both polygons' edge normals and its axis (A's frame, from A to
/// B). With `stop_when_apart`, returns at the first positive gap.
#[inline(always)]
fn largest_gap<R: Real>(
    a: &ConvexPolygon<R>,
    b: &ConvexPolygon<R>,
    pose_ab: &Pose2<R>,
    stop_when_apart: bool,
) -> (R, R::V2) {
    let (gap_a, edge_a) = max_edge_gap(a, b, pose_ab, stop_when_apart);
    if stop_when_apart && gap_a > R::ZERO {
        return (gap_a, a.normals()[edge_a]);
    }
    let (gap_b, edge_b) = max_edge_gap(b, a, &pose_ab.inverse(), stop_when_apart);
    if gap_a >= gap_b {
        (gap_a, a.normals()[edge_a])
    } else {
        (gap_b, -pose_ab.rotation.rotate(b.normals()[edge_b]))
    }
}

/// True when the posed convex polygons share a point (touching counts). False when a
/// pose is not finite. Bounding circles reject far pairs first; then SAT with an
/// early exit at the first separating edge normal.
#[inline]
pub fn intersects_polygon_polygon<R: Real>(
    pose_a: &Pose2<R>,
    a: &ConvexPolygon<R>,
    pose_b: &Pose2<R>,
    b: &ConvexPolygon<R>,
) -> bool {
    polygon_polygon_mtv(pose_a, a, pose_b, b).is_some()
}

/// The minimum translation vector of two posed convex polygons that touch or overlap,
/// or `None` when they are apart (or a pose is not finite). Agrees with
/// [`intersects_polygon_polygon`]; cheaper than [`polygon_polygon`] when the distance
/// of separated pairs is not needed.
#[inline]
pub fn polygon_polygon_mtv<R: Real>(
    pose_a: &Pose2<R>,
    a: &ConvexPolygon<R>,
    pose_b: &Pose2<R>,
    b: &ConvexPolygon<R>,
) -> Option<Mtv<R::V2>> {
    if !(pose_a.is_finite() && pose_b.is_finite()) {
        return None;
    }
    let pose_ab = pose_a.inv_mul(pose_b);
    if circles_apart(a, b, &pose_ab, R::ZERO) {
        return None;
    }
    let (gap, axis) = largest_gap(a, b, &pose_ab, true);
    (gap <= R::ZERO).then(|| Mtv {
        axis: pose_a.rotation.rotate(axis),
        depth: -gap,
    })
}

/// Separating-axis test of two posed convex polygons, with the minimum penetration
/// when they overlap and the exact distance when they are apart (see the module docs).
///
/// Edge behaviour: touching gives `Overlapping { depth: 0 }`; containment gives the
/// depth that pushes the inner polygon out through the nearest edge; non-finite poses
/// give `Separated { distance: NaN, axis: 0 }`.
pub fn polygon_polygon<R: Real>(
    pose_a: &Pose2<R>,
    a: &ConvexPolygon<R>,
    pose_b: &Pose2<R>,
    b: &ConvexPolygon<R>,
) -> SatResult<R::V2> {
    if !(pose_a.is_finite() && pose_b.is_finite()) {
        return SatResult::Separated {
            distance: R::from_f64(f64::NAN),
            axis: R::V2::ZERO,
        };
    }
    let pose_ab = pose_a.inv_mul(pose_b);
    // The largest gap (not just the first positive one): when the pair is apart its
    // axis gives the strongest bounds for pruning the exact distance search.
    let (gap, axis) = largest_gap(a, b, &pose_ab, false);
    if gap <= R::ZERO {
        return SatResult::Overlapping {
            depth: -gap,
            axis: pose_a.rotation.rotate(axis),
        };
    }
    // Rounding can put every vertex behind every edge it faces when the gap is a few
    // ulps; the separating gap (a lower bound, within rounding of the truth) stands in.
    let (distance, closest_axis) = match exact_distance(a, b, &pose_ab, axis) {
        (d, Some(dir)) if d.is_finite() => (d, dir),
        _ => (gap, axis),
    };
    SatResult::Separated {
        distance,
        axis: pose_a.rotation.rotate(closest_axis),
    }
}

/// Distance between disjoint polygons, in A's frame, from the vertex–edge pairs of
/// both; with the unit direction from A's closest point to B's (None when they meet).
///
/// `axis` (A's frame, unit, from A to B) separates them; a vertex's offset along it
/// beyond the other polygon's extreme is a lower bound of its distance, so vertices
/// whose bound exceeds the best distance so far are skipped.
fn exact_distance<R: Real>(
    a: &ConvexPolygon<R>,
    b: &ConvexPolygon<R>,
    pose_ab: &Pose2<R>,
    axis: R::V2,
) -> (R, Option<R::V2>) {
    let pose_ba = pose_ab.inverse();
    let axis_b = pose_ba.rotation.rotate(axis);
    let (neg_a_top, a_first) = extreme(a.vertices(), -axis);
    let (b_bottom, b_first) = extreme(b.vertices(), axis_b);
    // B's vertices against A's edges (in A's frame): bound axis·p − max(axis·A).
    let none = (R::INFINITY, R::V2::ZERO, R::V2::ZERO);
    let from_b = closest_vertex_edge(b, pose_ab, b_first, a, (axis, neg_a_top), none);
    // A's vertices against B's edges (in B's frame): bound b_bottom − axis_b·p.
    let seed = (from_b.0, R::V2::ZERO, R::V2::ZERO);
    let from_a = closest_vertex_edge(a, &pose_ba, a_first, b, (-axis_b, b_bottom), seed);
    let (dist_sq, on_a, on_b) = if from_a.0 < from_b.0 {
        (
            from_a.0,
            pose_ab.transform_point(from_a.1),
            pose_ab.transform_point(from_a.2),
        )
    } else {
        (from_b.0, from_b.2, from_b.1)
    };
    (dist_sq.sqrt(), (on_b - on_a).try_normalize())
}

/// The smallest `dir · v` over `points` and the index of the vertex giving it.
#[inline]
fn extreme<V: Vector>(points: &[V], dir: V) -> (V::Scalar, usize) {
    let mut best = (V::Scalar::INFINITY, 0);
    for (i, &p) in points.iter().enumerate() {
        let d = dir.dot(p);
        if d < best.0 {
            best = (d, i);
        }
    }
    best
}

/// The vertex of `v_poly` (mapped into `e_poly`'s frame by `v_pose`) nearest to an edge
/// of `e_poly`, if nearer than `best`: squared distance, the vertex, and the nearest
/// point of the edge. `bound = (dir, offset)` gives the lower bound `dir·p + offset` of
/// a vertex's distance, to skip vertices that cannot win; starting at the vertex
/// `first` nearest to the other polygon along the axis makes the skips frequent. An
/// edge whose line is farther from the vertex than the best distance so far is
/// skipped. Edges the vertex lies just behind are kept: for polygons touching within
/// rounding the nearest edge can have a height of `−ε`
/// (`regressions/polygon_sat_touching_gap.rs`), and every vertex–edge pair is a true
/// pair of points, so extra candidates never overstate the distance.
fn closest_vertex_edge<R: Real>(
    v_poly: &ConvexPolygon<R>,
    v_pose: &Pose2<R>,
    first: usize,
    e_poly: &ConvexPolygon<R>,
    bound: (R::V2, R),
    mut best: (R, R::V2, R::V2),
) -> (R, R::V2, R::V2) {
    let (edges, normals) = (e_poly.vertices(), e_poly.normals());
    let n = edges.len();
    let (tail, head) = v_poly.vertices().split_at(first);
    for &w in head.iter().chain(tail) {
        let p = v_pose.transform_point(w);
        let lower = bound.0.dot(p) + bound.1;
        if lower > R::ZERO && lower * lower >= best.0 {
            continue;
        }
        for i in 0..n {
            let height = normals[i].dot(p - edges[i]);
            if height * height >= best.0 {
                continue;
            }
            let next = if i + 1 == n { 0 } else { i + 1 };
            let q = closest_on_edge(edges[i], edges[next], normals[i], height, p);
            let d = p.distance_squared(q);
            if d < best.0 {
                best = (d, p, q);
            }
        }
    }
    best
}

/// The point of edge `s → e` (unit outward normal `normal`, `p` at `height` above its
/// line) nearest to `p`: the foot of the perpendicular when it falls on the edge, else
/// the nearer end. No division.
#[inline]
fn closest_on_edge<V: Vector>(s: V, e: V, normal: V, height: V::Scalar, p: V) -> V {
    let dir = e - s;
    let along = (p - s).dot(dir);
    if along <= V::Scalar::ZERO {
        s
    } else if along >= dir.dot(dir) {
        e
    } else {
        p - normal * height
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rot2;

    fn square<R: Real>(half: R) -> ConvexPolygon<R> {
        let h = half;
        let pts = [(-h, -h), (h, -h), (h, h), (-h, h)].map(|(x, y)| R::V2::new(x, y));
        ConvexPolygon::new(&pts).unwrap()
    }

    fn at<R: Real>(x: f64, y: f64, angle: f64) -> Pose2<R> {
        Pose2::new(
            R::V2::new(R::from_f64(x), R::from_f64(y)),
            R::from_f64(angle),
        )
    }

    fn close<R: Real>(a: R, b: f64, tol: f64) -> bool {
        (a.to_f64() - b).abs() <= tol
    }

    fn polygon_edges<R: Real>(tol: f64) {
        let s = square::<R>(R::ONE);
        // Edge to edge, exactly touching: overlapping with depth 0 along +x.
        let r = polygon_polygon(&at(0.0, 0.0, 0.0), &s, &at(2.0, 0.5, 0.0), &s);
        assert_eq!(
            r,
            SatResult::Overlapping {
                depth: R::ZERO,
                axis: R::V2::new(R::ONE, R::ZERO)
            }
        );
        assert!(intersects_polygon_polygon(
            &at(0.0, 0.0, 0.0),
            &s,
            &at(2.0, 0.5, 0.0),
            &s
        ));
        // Vertex to vertex, exactly touching at (1, 1).
        assert!(polygon_polygon(&at(0.0, 0.0, 0.0), &s, &at(2.0, 2.0, 0.0), &s).is_overlapping());
        // Separated diagonally: the closest features are two vertices, distance √2·0.5, not 0.5.
        let r = polygon_polygon(&at(0.0, 0.0, 0.0), &s, &at(2.5, 2.5, 0.0), &s);
        assert!(close(r.signed_distance(), 0.5 * 2f64.sqrt(), tol));
        assert!(close(r.axis().x(), 0.5f64.sqrt(), tol) && close(r.axis().y(), 0.5f64.sqrt(), tol));
        // Deep overlap: B shifted 0.5 along -y.
        let r = polygon_polygon(&at(0.0, 0.0, 0.0), &s, &at(0.0, -0.5, 0.0), &s);
        assert!(close(r.mtv().unwrap().depth, 1.5, tol));
        assert!(close(r.axis().y(), -1.0, tol));
        // Identical shapes at one pose: depth is the full width.
        assert!(close(
            polygon_polygon(&at(3.0, 4.0, 0.3), &s, &at(3.0, 4.0, 0.3), &s)
                .mtv()
                .unwrap()
                .depth,
            2.0,
            tol
        ));
        // Containment: a small square inside a big one, pushed out through the nearest edge.
        let big = square::<R>(R::from_f64(4.0));
        let r = polygon_polygon(&at(0.0, 0.0, 0.0), &big, &at(2.5, 0.0, 0.0), &s);
        assert!(close(r.mtv().unwrap().depth, 2.5, tol) && close(r.axis().x(), 1.0, tol));
        // Rotated 45°: B's corner touches the middle of A's right edge, then sits 1 away.
        let quarter = core::f64::consts::FRAC_PI_4;
        let r = polygon_polygon(
            &at(0.0, 0.0, 0.0),
            &s,
            &at(1.0 + 2f64.sqrt(), 0.0, quarter),
            &s,
        );
        assert!(close(r.signed_distance(), 0.0, tol * 4.0));
        let r = polygon_polygon(
            &at(0.0, 0.0, 0.0),
            &s,
            &at(2.0 + 2f64.sqrt(), 0.0, quarter),
            &s,
        );
        assert!(close(r.signed_distance(), 1.0, tol * 4.0) && close(r.axis().x(), 1.0, tol));
    }

    // Touching, vertex–vertex distance, deep, identical, contained and rotated pairs, f32 and f64.
    #[test]
    fn polygon_edge_cases() {
        polygon_edges::<f32>(1e-5);
        polygon_edges::<f64>(1e-12);
    }

    fn polygon_scaled<R: Real>(s: f64, tol: f64) {
        let sq = square::<R>(R::from_f64(s));
        let id = at::<R>(0.0, 0.0, 0.0);
        // Touching edge to edge, overlapping by s/2, apart by s/2, and a 30°-turned B.
        let touch = polygon_polygon(&id, &sq, &at(2.0 * s, 0.3 * s, 0.0), &sq);
        assert!(touch.is_overlapping() && close(touch.signed_distance(), 0.0, tol));
        let deep = polygon_polygon(&id, &sq, &at(1.5 * s, 0.0, 0.0), &sq);
        assert!(close(deep.signed_distance(), -0.5 * s, tol));
        let apart = polygon_polygon(&id, &sq, &at(0.0, -2.5 * s, 0.0), &sq);
        assert!(
            close(apart.signed_distance(), 0.5 * s, tol) && close(apart.axis().y(), -1.0, 1e-5)
        );
        let corner = s * (1.0 + (30f64.to_radians().cos() + 30f64.to_radians().sin()));
        let turned = polygon_polygon(
            &id,
            &sq,
            &at(corner + 0.25 * s, 0.0, 30f64.to_radians()),
            &sq,
        );
        assert!(close(turned.signed_distance(), 0.25 * s, tol));
    }

    // Polygon SAT at huge (1e5) and tiny (1e-4) scales, f32 and f64.
    #[test]
    fn polygon_scales() {
        for s in [1e5, 1e-4] {
            polygon_scaled::<f32>(s, 1e-5 * s);
            polygon_scaled::<f64>(s, 1e-12 * s);
        }
    }

    // A one-ulp gap between parallel edges separates; zero gap touches.
    #[test]
    fn one_ulp_gap() {
        let s = square::<f64>(1.0);
        let x = 2.0f64 + 2.0 * f64::EPSILON;
        let r = polygon_polygon(&at(0.0, 0.0, 0.0), &s, &at(x, 0.0, 0.0), &s);
        assert!(
            matches!(r, SatResult::Separated { distance, .. } if distance > 0.0 && distance < 1e-15)
        );
        let obb = |cx: f32| {
            Obb::<f32>::new(glam::Vec2::new(cx, 0.0), glam::Vec2::ONE, Rot2::IDENTITY).unwrap()
        };
        let next = f32::from_bits(2.0f32.to_bits() + 1);
        assert!(!intersects_obb_obb(&obb(0.0), &obb(next)));
        assert_eq!(obb_obb_mtv(&obb(0.0), &obb(2.0)).unwrap().depth, 0.0);
    }

    // Non-finite poses: false and a NaN distance, never a panic.
    /// The largest edge-normal gap by the plain double loop.
    fn brute_gap<R: Real>(p: &ConvexPolygon<R>, q: &ConvexPolygon<R>, pose_pq: &Pose2<R>) -> R {
        let mut best = R::NEG_INFINITY;
        for (&n, &v) in p.normals().iter().zip(p.vertices()) {
            let nearest = q
                .vertices()
                .iter()
                .map(|&w| n.dot(pose_pq.transform_point(w) - v))
                .fold(R::INFINITY, |m, d| if d < m { d } else { m });
            best = best.max(nearest);
        }
        best
    }

    /// A convex polygon of `k` vertices on an ellipse, from a seeded sequence.
    fn ellipse_polygon<R: Real>(k: usize, seed: &mut u64) -> ConvexPolygon<R> {
        let mut next = || {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (*seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let (rx, ry) = (0.3 + 2.0 * next(), 0.3 + 2.0 * next());
        let mut angles: Vec<f64> = (0..k).map(|_| next() * std::f64::consts::TAU).collect();
        angles.sort_by(f64::total_cmp);
        let pts: Vec<R::V2> = angles
            .iter()
            .map(|a| R::V2::new(R::from_f64(rx * a.cos()), R::from_f64(ry * a.sin())))
            .collect();
        ConvexPolygon::new(&pts).unwrap_or_else(|_| square(R::ONE))
    }

    // The rotating-calipers walk finds the same gap as the double loop on random
    // polygons of 3 to 40 vertices (the same vertex, or one whose product is equal
    // within rounding), and the same SAT verdict.
    fn calipers_match_double_loop<R: Real>(tol: f64) {
        let mut seed = 11;
        for case in 0..600 {
            let (a, b) = (
                ellipse_polygon::<R>(3 + case % 38, &mut seed),
                ellipse_polygon::<R>(3 + (case * 7) % 38, &mut seed),
            );
            let x = (case % 13) as f64 * 0.3 - 1.8;
            let pose = at::<R>(x, 1.0 - (case % 5) as f64 * 0.5, case as f64 * 0.37);
            let (gap, _) = max_edge_gap(&a, &b, &pose, false);
            let brute = brute_gap(&a, &b, &pose);
            assert!(
                close(gap, brute.to_f64(), tol),
                "case {case}: {gap:?} vs {brute:?}"
            );
            let (early, _) = max_edge_gap(&a, &b, &pose, true);
            assert_eq!(early > R::ZERO, brute > R::ZERO, "case {case}");
        }
    }

    #[test]
    fn calipers_every_precision() {
        calipers_match_double_loop::<f32>(1e-5);
        calipers_match_double_loop::<f64>(1e-12);
    }

    #[test]
    fn nan_pose() {
        let s = square::<f32>(1.0);
        let bad = Pose2::new(glam::Vec2::NAN, 0.0);
        assert!(!intersects_polygon_polygon(&bad, &s, &Pose2::default(), &s));
        let r = polygon_polygon(&Pose2::default(), &s, &bad, &s);
        assert!(r.signed_distance().is_nan() && !r.is_overlapping());
    }

    fn obb_edges<R: Real>(scale: f64, tol: f64) {
        let obb = |x: f64, y: f64, hx: f64, hy: f64, ang: f64| {
            let v = |a: f64, b: f64| R::V2::new(R::from_f64(a * scale), R::from_f64(b * scale));
            Obb::<R>::from_angle(v(x, y), v(hx, hy), R::from_f64(ang)).unwrap()
        };
        let a = obb(0.0, 0.0, 2.0, 1.0, 0.0);
        // Edge to edge touching along y.
        let m = obb_obb_mtv(&a, &obb(0.5, 2.0, 1.0, 1.0, 0.0)).unwrap();
        assert!(close(m.depth, 0.0, tol) && close(m.axis.y(), 1.0, 1e-6));
        // Parallel edges overlapping by 0.25.
        assert!(close(
            obb_obb_mtv(&a, &obb(2.75, 0.3, 1.0, 0.5, 0.0))
                .unwrap()
                .depth,
            0.25 * scale,
            tol
        ));
        // Rotated 45° diamond whose corner is 0.1 short of A's right edge.
        let d = obb(
            1.9 + 2f64.sqrt(),
            0.0,
            1.0,
            1.0,
            core::f64::consts::FRAC_PI_4,
        );
        assert!(close(obb_obb_mtv(&a, &d).unwrap().depth, 0.1 * scale, tol));
        // Zero-extent box (a point) on A's corner, and just off it.
        assert!(intersects_obb_obb(&a, &obb(2.0, 1.0, 0.0, 0.0, 0.0)));
        assert!(!intersects_obb_obb(&a, &obb(2.0, 1.001, 0.0, 0.0, 0.0)));
        // Far apart.
        assert!(obb_obb_mtv(&a, &obb(10.0, 0.0, 1.0, 1.0, 0.3)).is_none());
    }

    // OBB–OBB at unit, huge (1e5) and tiny (1e-4) scales, f32 and f64.
    #[test]
    fn obb_edge_cases() {
        for scale in [1.0, 1e5, 1e-4] {
            obb_edges::<f32>(scale, 1e-5 * scale);
            obb_edges::<f64>(scale, 1e-12 * scale);
        }
    }
}
