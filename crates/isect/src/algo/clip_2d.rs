//! 2D contact clipping for convex polygons: the reference edge is the edge normal of
//! largest separation (the SAT axis, Ericson, *Real-Time Collision Detection*, 4.4;
//! Box2D v3 `manifold.c`, `b2FindMaxSeparation` and `b2ClipPolygons`), the incident
//! edge is the other polygon's edge most anti-parallel to it, and the incident edge is
//! clipped to the reference edge's slab (its two side lines).
//!
//! No tolerances of its own: a point exactly on a side line is kept, and a point is
//! kept when its depth below the reference edge is at least `−prediction`.

// `!(x <= y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
use crate::math::{Isometry, Pose2, Real, Vector};

/// Bit set in a [`ClipPoint::id`] when the point was moved onto a side line of the
/// reference edge; the low bit then says which side (0: the edge's first vertex).
pub const CLIPPED_2D: u32 = 1 << 31;

/// A convex polygon as its counter-clockwise vertices and the outward unit normal of
/// each edge `vertices[i] → vertices[i + 1]`, in its own frame.
#[derive(Copy, Clone, Debug)]
pub struct PolygonFeatures<'a, V> {
    /// Counter-clockwise vertices (at least one).
    pub vertices: &'a [V],
    /// Outward unit edge normals, one per vertex.
    pub normals: &'a [V],
}

/// A clipped point of the incident edge, in the reference polygon's frame.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ClipPoint<V: Vector> {
    /// The point, on the incident polygon's boundary.
    pub point: V,
    /// Depth below the reference edge's line (`> 0` penetrating).
    pub depth: V::Scalar,
    /// The incident vertex index, or [`CLIPPED_2D`] | side for a clipped end.
    pub id: u32,
}

/// Two polygons' largest separations along A's and along B's edge normals, with the
/// edges that give them (`pose_ab` maps B's frame into A's); `None` once one exceeds
/// `limit` (or for NaN). A small B is moved into A's frame once (Box2D's
/// `b2CollidePolygons`); a larger one is met edge by edge in its own frame. In `f32`
/// on x86_64, polygons of 2 to 8 points take the SSE lanes of
/// `sat_lanes_2d` instead, which give the same answer (up
/// to the sign of a zero separation).
#[inline]
#[allow(clippy::type_complexity)]
pub fn separations<R: Real>(
    fa: PolygonFeatures<'_, R::V2>,
    fb: PolygonFeatures<'_, R::V2>,
    pose_ab: &Pose2<R>,
    limit: R,
) -> Option<((R, usize), (R, usize))>
where
    R::V2: Vector<Pose = Pose2<R>>,
{
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if let Some(found) = crate::algo::sat_lanes_2d::separations_of(&fa, &fb, pose_ab, limit) {
        return found;
    }
    if let Some((buf, len)) = placed(fb.vertices, pose_ab) {
        let b_in_a = &buf[..len];
        let along_a = max_separation_in_frame(fa.vertices, fa.normals, |n| n, b_in_a, limit);
        if !(along_a.0 <= limit) {
            return None;
        }
        let turn = |n| pose_ab.transform_vector(n);
        let along_b = max_separation_in_frame(b_in_a, fb.normals, turn, fa.vertices, limit);
        return (along_b.0 <= limit).then_some((along_a, along_b));
    }
    let along_a = max_separation(fa, fb, pose_ab, limit);
    if !(along_a.0 <= limit) {
        return None;
    }
    let along_b = max_separation(fb, fa, &pose_ab.inverse(), limit);
    (along_b.0 <= limit).then_some((along_a, along_b))
}

/// The largest separation of polygon 2 from polygon 1 along 1's edge normals, and
/// the edge that gives it. `pose_12` maps polygon 2's frame into polygon 1's. Stops at
/// the first edge whose separation exceeds `stop_above` (the polygons are then apart
/// by more than that). A NaN pose gives a NaN separation (the caller rejects it first).
#[inline]
pub fn max_separation<R: Real>(
    p1: PolygonFeatures<'_, R::V2>,
    p2: PolygonFeatures<'_, R::V2>,
    pose_12: &Pose2<R>,
    stop_above: R,
) -> (R, usize) {
    let (mut best, mut best_i) = (R::NEG_INFINITY, 0);
    for (i, (&v, &n)) in p1.vertices.iter().zip(p1.normals).enumerate() {
        // Polygon 1's edge seen from polygon 2's frame: no transform of 2's vertices.
        let n2 = pose_12.inverse_transform_vector(n);
        let offset = n2.dot(pose_12.inverse_transform_point(v));
        let sep = min_dot(n2, p2.vertices) - offset;
        (best, best_i) = larger((best, best_i), (sep, i));
        if best > stop_above {
            break;
        }
    }
    (best, best_i)
}

/// The candidate `(separation, edge)` with the larger separation, the first on a tie,
/// by selects rather than a branch: which edge wins is a coin toss on random pairs, and
/// a mispredicted branch cost more than the whole dot product loop.
#[inline(always)]
fn larger<S: PartialOrd>(best: (S, usize), candidate: (S, usize)) -> (S, usize) {
    let better = candidate.0 > best.0;
    let sep = if better { candidate.0 } else { best.0 };
    let i = if better { candidate.1 } else { best.1 };
    (sep, i)
}

/// [`max_separation`] with both polygons in one frame, as Box2D's
/// `b2CollidePolygons` works (polygon 2 moved into 1's frame once, not each of 1's
/// edges into 2's): polygon 1's vertices, its normals as `turn` maps them into the
/// frame, and polygon 2's vertices.
#[inline]
pub fn max_separation_in_frame<V: Vector>(
    vertices1: &[V],
    normals1: &[V],
    turn: impl Fn(V) -> V,
    vertices2: &[V],
    stop_above: V::Scalar,
) -> (V::Scalar, usize) {
    let (mut best, mut best_i) = (V::Scalar::NEG_INFINITY, 0);
    for (i, (&v, &n)) in vertices1.iter().zip(normals1).enumerate() {
        let n = turn(n);
        let sep = min_dot(n, vertices2) - n.dot(v);
        (best, best_i) = larger((best, best_i), (sep, i));
        if best > stop_above {
            break;
        }
    }
    (best, best_i)
}

/// Most vertices of a polygon [`placed`] moves into another's frame (on the stack).
pub const PLACED_MAX: usize = 8;

/// `vertices` mapped by `pose` into a stack buffer, and their count; `None` beyond
/// [`PLACED_MAX`] vertices.
#[inline]
pub fn placed<R: Real>(
    vertices: &[R::V2],
    pose: &Pose2<R>,
) -> Option<([R::V2; PLACED_MAX], usize)> {
    if vertices.len() > PLACED_MAX {
        return None;
    }
    let mut out = [R::V2::ZERO; PLACED_MAX];
    for (o, v) in out.iter_mut().zip(vertices) {
        *o = pose.transform_point(*v);
    }
    Some((out, vertices.len()))
}

/// `min n · w` over `points` (`+∞` for none), with two running minima so that each
/// comparison does not wait for the one before.
#[inline]
fn min_dot<V: Vector>(n: V, points: &[V]) -> V::Scalar {
    let (mut even, mut odd) = (V::Scalar::INFINITY, V::Scalar::INFINITY);
    let mut pairs = points.chunks_exact(2);
    for pair in &mut pairs {
        let (d0, d1) = (n.dot(pair[0]), n.dot(pair[1]));
        even = if d0 < even { d0 } else { even };
        odd = if d1 < odd { d1 } else { odd };
    }
    for &w in pairs.remainder() {
        let d = n.dot(w);
        even = if d < even { d } else { even };
    }
    if odd < even {
        odd
    } else {
        even
    }
}

/// The incident edge's index: the edge of `inc` whose normal is most anti-parallel to
/// the reference normal `n_inc` (given in `inc`'s frame). Ties keep the lower index.
pub fn incident_edge<V: Vector>(inc: PolygonFeatures<'_, V>, n_inc: V) -> usize {
    let (mut best, mut best_j) = (V::Scalar::INFINITY, 0);
    for (j, &m) in inc.normals.iter().enumerate() {
        let d = n_inc.dot(m);
        // Selects rather than branches, as in `max_separation`.
        let better = d < best;
        best = if better { d } else { best };
        best_j = if better { j } else { best_j };
    }
    best_j
}

/// Clips the incident edge `incident` of `inc` against the slab of reference edge
/// `reference` of `rf` and keeps the points with depth `≥ −prediction`. `pose_ri`
/// maps `inc`'s frame into `rf`'s. Returns up to two points (in `rf`'s frame) and
/// their count; zero when the incident edge misses the slab, one when only one end is
/// deep enough or the incident edge has zero length.
#[inline]
pub fn clip_incident_edge<R: Real>(
    rf: PolygonFeatures<'_, R::V2>,
    reference: usize,
    inc: PolygonFeatures<'_, R::V2>,
    incident: usize,
    pose_ri: &Pose2<R>,
    prediction: R,
) -> ([ClipPoint<R::V2>; 2], usize) {
    let next = |i: usize, len: usize| if i + 1 == len { 0 } else { i + 1 };
    let j2 = next(incident, inc.vertices.len());
    let mut ends = [
        (
            pose_ri.transform_point(inc.vertices[incident]),
            incident as u32,
        ),
        (pose_ri.transform_point(inc.vertices[j2]), j2 as u32),
    ];
    let v1 = rf.vertices[reference];
    let v2 = rf.vertices[next(reference, rf.vertices.len())];
    let normal = rf.normals[reference];
    let depth = |(point, id): (R::V2, u32)| ClipPoint {
        point,
        depth: normal.dot(v1 - point),
        id,
    };
    if !clip_to_slab(&mut ends, v1, v2) {
        return ([depth(ends[0]); 2], 0);
    }
    let (first, second) = (depth(ends[0]), depth(ends[1]));
    let keep_first = first.depth >= -prediction;
    // A zero-length incident edge (a degenerate box) gives its point once.
    let repeated = keep_first && first.point.distance_squared(second.point) == R::ZERO;
    let keep_second = second.depth >= -prediction && !repeated;
    // Selects rather than branches; a slot past the count is never read.
    let out = if keep_first {
        [first, second]
    } else {
        [second, second]
    };
    (out, keep_first as usize + keep_second as usize)
}

/// Clips the segment `ends` (in place) to the slab of the edge `v1 → v2`: side 0 keeps
/// `t·(p − v1) ≥ 0`, side 1 keeps `t·(v2 − p) ≥ 0` with `t = v2 − v1`; a moved end
/// takes the id `CLIPPED_2D | side`. False when the whole segment is outside. Works in
/// 2D and 3D (the slab of a line).
#[inline]
pub fn clip_to_slab<V: Vector>(ends: &mut [(V, u32); 2], v1: V, v2: V) -> bool {
    let t = v2 - v1;
    clip_to_side(ends, |p| t.dot(p - v1), CLIPPED_2D)
        && clip_to_side(ends, |p| t.dot(v2 - p), CLIPPED_2D | 1)
}

/// Clips the segment `ends` to `{p : inside(p) ≥ 0}`; a moved end takes `id`, unless
/// it moved by less than [`SNAP_FRACTION`] of the segment (it is still the vertex, and
/// keeps its id while it rounds to either side of the line). False when the whole
/// segment is outside.
fn clip_to_side<V: Vector>(
    ends: &mut [(V, u32); 2],
    inside: impl Fn(V) -> V::Scalar,
    id: u32,
) -> bool {
    let (d0, d1) = (inside(ends[0].0), inside(ends[1].0));
    let zero = V::Scalar::ZERO;
    if d0 < zero && d1 < zero {
        return false;
    }
    let snap = V::Scalar::from_f64(SNAP_FRACTION);
    let cut = |(a, ia): (V, u32), b: V, da: V::Scalar, db: V::Scalar| {
        let f = da / (da - db);
        (a.lerp(b, f), if f < snap { ia } else { id })
    };
    if d0 < zero {
        ends[0] = cut(ends[0], ends[1].0, d0, d1);
    } else if d1 < zero {
        ends[1] = cut(ends[1], ends[0].0, d1, d0);
    }
    true
}

/// A clipped point within this fraction of its segment from the vertex it replaces
/// keeps the vertex's id: a corner exactly on a side line stays the same contact
/// point from frame to frame whichever side rounding puts it.
pub const SNAP_FRACTION: f64 = 1e-6;

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec2;

    fn square(h: f64) -> ([DVec2; 4], [DVec2; 4]) {
        let v = [(-h, -h), (h, -h), (h, h), (-h, h)].map(|(x, y)| DVec2::new(x, y));
        (v, [DVec2::NEG_Y, DVec2::X, DVec2::Y, DVec2::NEG_X])
    }

    // A wide incident edge over a narrow reference edge is cut at both side lines;
    // the cut ends carry the side ids.
    #[test]
    fn wide_incident_edge_is_cut() {
        let (rv, rn) = square(0.5);
        let (iv, inn) = square(2.0);
        let rf = PolygonFeatures {
            vertices: &rv,
            normals: &rn,
        };
        let inc = PolygonFeatures {
            vertices: &iv,
            normals: &inn,
        };
        // B sits on top of A's +y edge (index 2), 0.1 deep.
        let pose = Pose2::<f64>::new(DVec2::new(0.0, 2.4), 0.0);
        let j = incident_edge(inc, pose.inverse_transform_vector(rn[2]));
        assert_eq!(j, 0);
        let (pts, len) = clip_incident_edge(rf, 2, inc, j, &pose, 0.0);
        assert_eq!(len, 2);
        for p in &pts[..len] {
            assert!((p.depth - 0.1).abs() < 1e-12 && p.point.x.abs() == 0.5);
            assert_eq!(p.id & CLIPPED_2D, CLIPPED_2D);
        }
    }
}
