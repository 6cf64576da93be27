//! 3D contact clipping: the SAT axis with the feature that produced it (a face of A,
//! a face of B, or an edge pair), Sutherland–Hodgman clipping of the incident face
//! against the reference face's side planes, and the reduction of the clipped polygon
//! to at most four points.
//!
//! References: Ericson, *Real-Time Collision Detection*, 4.4.1 (box SAT) and 8.3.4
//! (Sutherland–Hodgman); D. Gregorius, "The Separating Axis Test between Convex
//! Polyhedra", GDC 2013 (Gauss-map pruning of edge pairs); Box2D v3 `manifold.c` and
//! Jolt `ManifoldBetweenTwoFaces` / `PruneContactPoints` (deepest point first, then the
//! points that span the largest area).
//!
//! Tolerances: an edge axis whose squared length is below
//! `eps(`[`EDGE_PARALLEL_ULPS`]`)` times the edges' squared lengths is skipped (the face
//! axes decide parallel edges). Feature preference, which keeps the reference face
//! stable from frame to frame: B's face replaces A's only when its separation is larger
//! by [`REFERENCE_BIAS`] times the shapes' size, and an edge pair replaces a face by
//! [`EDGE_BIAS`] times the size (as Box2D and Bullet prefer face contacts). Reduced
//! points closer than `eps(`[`DUPLICATE_ULPS`]`)` times the size (or spanning less
//! area) are dropped. Separations up to `eps(`[`TOUCH_ULPS`]`)` times the shapes'
//! size and offset count as touching.

// `!(x > y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
use crate::algo::sat_3d::EDGE_AXIS_ULPS;
use crate::math::tolerance::eps;
use crate::math::{Isometry, Pose3, Real, Rotation3, Vector, Vector3};
use crate::shape::{ConvexPolyhedron, PolyhedronEdge};

/// Edge axes shorter than this many machine epsilons (relative) are skipped.
pub const EDGE_PARALLEL_ULPS: f64 = EDGE_AXIS_ULPS;
/// B's face is the reference only when it separates more than A's best by this
/// fraction of the shapes' size (hysteresis for stable feature ids).
pub const REFERENCE_BIAS: f64 = 1e-3;
/// An edge pair is chosen over the best face only when it separates more by this
/// fraction of the shapes' size.
pub const EDGE_BIAS: f64 = 1e-3;
/// Reduced manifold points closer than this many machine epsilons of the size count
/// as one.
pub const DUPLICATE_ULPS: f64 = 256.0;

/// [`reduce_to_four`] treats distances and areas within this fraction of the largest
/// as ties (broken by the smallest id): a choice between near-equal points does not
/// flip with tiny motions. (Depths tie only within rounding: the deepest point is
/// always kept.)
pub const REDUCE_BAND: f64 = 1e-3;

/// Shapes whose separation is within this many machine epsilons of their size (and
/// of their distance from the reference frame's origin) count as touching: rounding of
/// the poses alone cannot turn a resting contact into a miss.
pub const TOUCH_ULPS: f64 = 64.0;

/// `prediction` widened by [`TOUCH_ULPS`] of `scale`.
#[inline]
pub fn touch_limit<R: Real>(prediction: R, scale: R) -> R {
    prediction + eps::<R>(TOUCH_ULPS) * scale
}

/// Bit set in a clipped vertex's id: `CLIPPED_3D | plane << 12 | edge`, with `edge`
/// the label of the incident edge it lies on (a vertex index, or
/// [`ALONG_PLANE`]` | plane` for a piece of an earlier side plane).
pub const CLIPPED_3D: u32 = 1 << 31;
/// Edge label of a clipped polygon's edge that lies on a side plane.
pub const ALONG_PLANE: u32 = 1 << 11;

/// The feature pair that gives the SAT axis.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Feature {
    /// Face `face` of shape A is the reference.
    FaceA(usize),
    /// Face `face` of shape B is the reference.
    FaceB(usize),
    /// Edge `a` of A against edge `b` of B.
    Edges(usize, usize),
}

/// The chosen SAT axis: its separation (`< 0` overlapping), unit normal in A's frame
/// pointing from A to B, and feature.
#[derive(Copy, Clone, Debug)]
pub struct Axis<V: Vector> {
    /// Separation along `normal` (negative penetration depth).
    pub separation: V::Scalar,
    /// Unit normal from A to B, in A's frame.
    pub normal: V,
    /// The feature pair.
    pub feature: Feature,
}

/// Picks among the best face of A, face of B and edge pair with the biases of the
/// module docs (`size` scales them). `None` when any of them separates the shapes by
/// more than `prediction` (or is NaN).
pub fn choose_axis<V: Vector>(
    face_a: Axis<V>,
    face_b: Axis<V>,
    edge: Option<Axis<V>>,
    size: V::Scalar,
    prediction: V::Scalar,
) -> Option<Axis<V>> {
    let edge_sep = edge.map_or(V::Scalar::NEG_INFINITY, |e| e.separation);
    if !(face_a.separation.max(face_b.separation).max(edge_sep) <= prediction) {
        return None;
    }
    let rel = |bias: f64| V::Scalar::from_f64(bias) * size;
    let face = if face_b.separation > face_a.separation + rel(REFERENCE_BIAS) {
        face_b
    } else {
        face_a
    };
    Some(match edge {
        Some(e) if e.separation > face.separation + rel(EDGE_BIAS) => e,
        _ => face,
    })
}

/// A vertex of the polygon being clipped, in the reference frame.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ClipVertex<V> {
    /// Position.
    pub point: V,
    /// Stable id: an incident vertex index, or a [`CLIPPED_3D`] code.
    pub id: u32,
    /// Label of the edge from this vertex to the next (see [`CLIPPED_3D`]).
    pub edge: u32,
}

/// Storage for the polygon being clipped: a `Vec`, or a [`FixedClipBuffer`] when the
/// polygon's size is bounded (box faces).
pub trait ClipBuffer<V>: core::ops::Deref<Target = [ClipVertex<V>]> {
    /// Removes every vertex.
    fn clear(&mut self);
    /// Appends a vertex.
    fn push(&mut self, v: ClipVertex<V>);
    /// Keeps the vertices for which `keep` holds, in order.
    fn retain(&mut self, keep: impl FnMut(&ClipVertex<V>) -> bool);
}

impl<V> ClipBuffer<V> for Vec<ClipVertex<V>> {
    fn clear(&mut self) {
        Vec::clear(self);
    }
    fn push(&mut self, v: ClipVertex<V>) {
        Vec::push(self, v);
    }
    fn retain(&mut self, keep: impl FnMut(&ClipVertex<V>) -> bool) {
        Vec::retain(self, keep);
    }
}

/// A clip buffer of at most `N` vertices on the stack. Pushes beyond `N` are dropped:
/// use it only where the bound holds (an `n`-gon clipped by `k` planes has at most
/// `n + k` vertices).
#[derive(Copy, Clone, Debug)]
pub struct FixedClipBuffer<V, const N: usize> {
    items: [ClipVertex<V>; N],
    len: usize,
}

impl<V: Vector, const N: usize> Default for FixedClipBuffer<V, N> {
    fn default() -> Self {
        let v = ClipVertex {
            point: V::ZERO,
            id: 0,
            edge: 0,
        };
        Self {
            items: [v; N],
            len: 0,
        }
    }
}

impl<V, const N: usize> core::ops::Deref for FixedClipBuffer<V, N> {
    type Target = [ClipVertex<V>];
    fn deref(&self) -> &[ClipVertex<V>] {
        &self.items[..self.len]
    }
}

impl<V: Copy, const N: usize> ClipBuffer<V> for FixedClipBuffer<V, N> {
    fn clear(&mut self) {
        self.len = 0;
    }
    fn push(&mut self, v: ClipVertex<V>) {
        if self.len < N {
            self.items[self.len] = v;
            self.len += 1;
        }
    }
    fn retain(&mut self, mut keep: impl FnMut(&ClipVertex<V>) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            if keep(&self.items[i]) {
                self.items[kept] = self.items[i];
                kept += 1;
            }
        }
        self.len = kept;
    }
}

/// Clips the convex polygon `poly` (in place) by the side planes of the reference
/// face `face` (counter-clockwise seen from outside, outward normal `normal`):
/// Sutherland–Hodgman, one plane at a time, with `scratch` as the second buffer.
/// Points on a side plane are kept. A polygon that misses the face ends empty.
pub fn clip_to_face<V: Vector3, B: ClipBuffer<V>>(
    poly: &mut B,
    scratch: &mut B,
    face: &[V],
    normal: V,
) {
    // Swap the roles of the buffers, not their contents; copy back once at the end.
    let (mut src, mut dst) = (&mut *poly, &mut *scratch);
    let mut in_scratch = false;
    for k in 0..face.len() {
        let (v, w) = (face[k], face[(k + 1) % face.len()]);
        let side = (w - v).cross(normal);
        dst.clear();
        clip_by_plane(src, dst, |p| side.dot(p - v), k as u32);
        core::mem::swap(&mut src, &mut dst);
        in_scratch = !in_scratch;
        if src.is_empty() {
            break;
        }
    }
    if in_scratch {
        core::mem::swap(poly, scratch);
    }
}

/// One Sutherland–Hodgman pass: keeps `outside(p) ≤ 0`.
fn clip_by_plane<V: Vector>(
    input: &[ClipVertex<V>],
    out: &mut impl ClipBuffer<V>,
    outside: impl Fn(V) -> V::Scalar,
    plane: u32,
) {
    let zero = V::Scalar::ZERO;
    let Some(&last) = input.last() else { return };
    let (mut prev, mut d_prev) = (last, outside(last.point));
    for &cur in input {
        let d_cur = outside(cur.point);
        if (d_prev > zero) != (d_cur > zero) {
            let t = d_prev / (d_prev - d_cur);
            let point = prev.point.lerp(cur.point, t);
            // A cut this near the outside vertex is still that vertex (see
            // `clip_2d::SNAP_FRACTION`): it keeps the vertex's id.
            let snap = V::Scalar::from_f64(crate::algo::clip_2d::SNAP_FRACTION);
            let id = match d_cur > zero {
                true if V::Scalar::ONE - t < snap => cur.id,
                false if t < snap => prev.id,
                _ => CLIPPED_3D | plane << 12 | (prev.edge & 0xfff),
            };
            // Entering keeps running along prev's edge; leaving runs along the plane.
            let edge = if d_cur > zero {
                ALONG_PLANE | plane
            } else {
                prev.edge
            };
            out.push(ClipVertex { point, id, edge });
        }
        if d_cur <= zero {
            out.push(cur);
        }
        (prev, d_prev) = (cur, d_cur);
    }
}

/// Indices of at most four of `points` that keep the deepest one (by `depth`) and then
/// the ones spanning the largest area in the plane normal to `normal`. Four or fewer
/// points are all kept, less duplicates. Returns the indices and their count; an empty
/// input gives zero.
pub fn reduce_to_four<V: Vector3>(
    points: &[ClipVertex<V>],
    depth: impl Fn(V) -> V::Scalar,
    normal: V,
    size: V::Scalar,
) -> ([usize; 4], usize) {
    if points.is_empty() {
        return ([0; 4], 0);
    }
    let tiny = eps::<V::Scalar>(DUPLICATE_ULPS) * size;
    if points.len() <= 4 {
        return distinct(points, tiny);
    }
    // Among the points within `tol` of the maximum, the one of smallest id (a shape's
    // own vertex before a clipped point): neither rounding (e.g. between A–B and B–A)
    // nor a sub-micrometre motion changes the choice among near-ties, so the points,
    // and a solver's warm start, stay from frame to frame.
    let argmax = |f: &dyn Fn(V) -> V::Scalar, tol: V::Scalar| {
        let best = points
            .iter()
            .fold(V::Scalar::NEG_INFINITY, |m, v| m.max(f(v.point)));
        let near = (0..points.len()).filter(|&i| f(points[i].point) >= best - tol);
        (best, near.min_by_key(|&i| points[i].id).unwrap_or(0))
    };
    let band = V::Scalar::from_f64(REDUCE_BAND);
    let first = argmax(&|p| depth(p), tiny).1;
    let p0 = points[first].point;
    let reach = points.iter().fold(V::Scalar::ZERO, |m, v| {
        m.max((v.point - p0).length_squared())
    });
    let (far, second) = argmax(
        &|p| (p - p0).length_squared(),
        (tiny * size).max(band * reach),
    );
    if !(far > tiny * tiny) {
        return ([first, 0, 0, 0], 1);
    }
    let (p1, area_tol) = (points[second].point, tiny * far.sqrt());
    let widest = points.iter().fold(V::Scalar::ZERO, |m, v| {
        m.max(normal.dot((p1 - p0).cross(v.point - p0)).abs())
    });
    let area_band = area_tol.max(band * widest);
    let mut out = ([first, second, 0, 0], 2);
    let area = |p: V| normal.dot((p1 - p0).cross(p - p0));
    // The largest triangle on each side of the line p0–p1.
    for sign in [V::Scalar::ONE, -V::Scalar::ONE] {
        let (a, i) = argmax(&|p| area(p) * sign, area_band);
        if a > area_tol {
            out.0[out.1] = i;
            out.1 += 1;
        }
    }
    out
}

/// The best face of A, the best face of B and the best edge pair, if any.
pub type CandidateAxes<V> = (Axis<V>, Axis<V>, Option<Axis<V>>);

/// The indices of the points of a polygon of at most four that are not within `tiny`
/// of an earlier one.
fn distinct<V: Vector>(points: &[ClipVertex<V>], tiny: V::Scalar) -> ([usize; 4], usize) {
    let mut out = ([0; 4], 0);
    for (i, v) in points.iter().enumerate().take(4) {
        let near = |&k: &usize| points[k].point.distance_squared(v.point) <= tiny * tiny;
        if !out.0[..out.1].iter().any(near) {
            out.0[out.1] = i;
            out.1 += 1;
        }
    }
    out
}

/// The SAT axes of two boxes with half extents `ha`, `hb`; `pose_ab` maps B's box frame
/// into A's. Face indices are `2·axis + (1 for the − face)`; edge indices
/// `4·axis + sign bits of the two other coordinates`. Returns the best face of A, the
/// best face of B and the best non-parallel edge pair; `None` as soon as a face axis
/// separates by more than `prediction` (the other axes are then skipped).
pub fn box_box_axes<R: Real>(
    ha: R::V3,
    hb: R::V3,
    pose_ab: &Pose3<R>,
    prediction: R,
) -> Option<CandidateAxes<R::V3>> {
    let cols = pose_ab.rotation.axes();
    let t = pose_ab.translation;
    // abs_c[j].get(i) = |a_i · b_j|.
    let abs_c = cols.map(|c| c.abs());
    let reach_a = ha + abs_c[0] * hb.get(0) + abs_c[1] * hb.get(1) + abs_c[2] * hb.get(2);
    let (mut face_a, mut face_b) = (empty_axis(), empty_axis());
    // A's faces first: on separated pairs they usually end the test early.
    for i in 0..3 {
        let (along, dir) = (t.get(i), R::V3::unit_axis(i));
        consider(&mut face_a, along, reach_a.get(i), dir, |neg| {
            Feature::FaceA(2 * i + neg)
        });
        if face_a.separation > prediction {
            return None;
        }
    }
    for i in 0..3 {
        let reach = hb.get(i) + ha.dot(abs_c[i]);
        // B's face normal facing A is −sign(along)·b_i; its index uses that sign.
        consider(&mut face_b, cols[i].dot(t), reach, cols[i], |neg| {
            Feature::FaceB(2 * i + 1 - neg)
        });
        if face_b.separation > prediction {
            return None;
        }
    }
    // An edge pair wins in `choose_axis` only above this separation.
    let size = ha.max_element().max(hb.max_element());
    let floor =
        face_a.separation.max(face_b.separation) + R::from_f64(EDGE_BIAS - REFERENCE_BIAS) * size;
    let edge = box_edge_axis(ha, hb, &cols, &abs_c, t, prediction, floor);
    Some((face_a, face_b, edge))
}

/// The best of the nine edge axes `a_i × b_j` (None when all are parallel); stops at
/// the first one that separates by more than `prediction`. Axes whose separation is
/// below a negative `floor` are skipped before normalising (they cannot be chosen).
#[inline(always)]
fn box_edge_axis<R: Real>(
    ha: R::V3,
    hb: R::V3,
    cols: &[R::V3; 3],
    abs_c: &[R::V3; 3],
    t: R::V3,
    prediction: R,
    floor: R,
) -> Option<Axis<R::V3>> {
    // (i + 1) % 3 and (i + 2) % 3 without divisions.
    const NEXT: [usize; 3] = [1, 2, 0];
    const PREV: [usize; 3] = [2, 0, 1];
    let mut best = empty_axis();
    for k in 0..9 {
        let (i, j) = (k / 3, k - 3 * (k / 3));
        let axis = R::V3::unit_axis(i).cross(cols[j]);
        let len_sq = axis.length_squared();
        if len_sq <= eps::<R>(EDGE_PARALLEL_ULPS) {
            continue;
        }
        let (i1, i2, j1, j2) = (NEXT[i], PREV[i], NEXT[j], PREV[j]);
        let reach = ha.get(i1) * abs_c[j].get(i2)
            + ha.get(i2) * abs_c[j].get(i1)
            + hb.get(j1) * abs_c[j2].get(i)
            + hb.get(j2) * abs_c[j1].get(i);
        let along = axis.dot(t);
        let gap = along.abs() - reach;
        // gap / len ≤ floor < 0, without the square root.
        if gap < R::ZERO && floor < R::ZERO && gap * gap >= floor * floor * len_sq {
            continue;
        }
        let inv = len_sq.sqrt().recip();
        consider(&mut best, along * inv, reach * inv, axis * inv, |_| {
            Feature::Edges(i, j)
        });
        if best.separation > prediction {
            break;
        }
    }
    (best.separation > R::NEG_INFINITY).then_some(best)
}

/// An axis that loses to any real one.
pub(crate) fn empty_axis<V: Vector>() -> Axis<V> {
    Axis {
        separation: V::Scalar::NEG_INFINITY,
        normal: V::ZERO,
        feature: Feature::FaceA(0),
    }
}

/// Keeps the axis `dir` (offset `along`, projected radius `reach`) in `best` when it
/// separates more; `feature(neg)` names it, `neg` = 1 when the normal is `−dir`.
#[inline(always)]
fn consider<V: Vector>(
    best: &mut Axis<V>,
    along: V::Scalar,
    reach: V::Scalar,
    dir: V,
    feature: impl Fn(usize) -> Feature,
) {
    let sep = along.abs() - reach;
    if sep > best.separation {
        let neg = usize::from(along < V::Scalar::ZERO);
        *best = Axis {
            separation: sep,
            normal: if neg == 1 { -dir } else { dir },
            feature: feature(neg),
        };
    }
}

/// The box edge `index` (see [`box_box_axes`]) as its two end points.
pub fn box_edge<V: Vector3>(h: V, index: usize) -> (V, V) {
    let (axis, bits) = (index / 4, index % 4);
    let mut mid = V::ZERO;
    for (b, k) in [(axis + 1) % 3, (axis + 2) % 3].into_iter().enumerate() {
        let s = if bits >> b & 1 == 1 {
            h.get(k)
        } else {
            -h.get(k)
        };
        mid = mid.with(k, s);
    }
    let half = V::unit_axis(axis) * h.get(axis);
    (mid - half, mid + half)
}

/// The edge of a box with half extents `h` along `axis` that is farthest along `dir`.
pub fn box_support_edge<V: Vector3>(axis: usize, dir: V) -> usize {
    let bit = |k: usize| usize::from(!(dir.get(k) < V::Scalar::ZERO));
    4 * axis + bit((axis + 1) % 3) + 2 * bit((axis + 2) % 3)
}

/// The four corners of box face `face` (see [`box_box_axes`]), counter-clockwise seen
/// from outside, with their corner indices (bit `k` set when coordinate `k` is `+`).
pub fn box_face<V: Vector3>(h: V, face: usize) -> ([V; 4], [u32; 4]) {
    // Signs along (u, w) = (axis + 1, axis + 2), counter-clockwise about +axis.
    const ORDER: [(u32, u32); 4] = [(1, 1), (0, 1), (0, 0), (1, 0)];
    const NEXT: [usize; 3] = [1, 2, 0];
    const PREV: [usize; 3] = [2, 0, 1];
    let (axis, neg) = (face / 2, face % 2 == 1);
    let (u, w) = (NEXT[axis], PREV[axis]);
    let (mut pts, mut ids) = ([V::ZERO; 4], [0u32; 4]);
    for k in 0..4 {
        let (pu, pw) = ORDER[if neg { 3 - k } else { k }];
        let bits = u32::from(!neg) << axis | pu << u | pw << w;
        let coord = |c: usize| {
            let x = h.get(c);
            if bits >> c & 1 == 1 {
                x
            } else {
                -x
            }
        };
        pts[k] = V::new(coord(0), coord(1), coord(2));
        ids[k] = bits;
    }
    (pts, ids)
}

/// The face of a box most anti-parallel to `n` (in the box's frame).
pub fn box_incident_face<V: Vector>(n: V) -> usize {
    let axis = n.abs().max_axis();
    2 * axis + usize::from(!(n.get(axis) < V::Scalar::ZERO))
}

/// The end points of `hull`'s edge `i` (see [`ConvexPolyhedron::edges`]), mapped by
/// `pose`.
pub fn hull_edge_ends<R: Real>(
    hull: &ConvexPolyhedron<R>,
    i: usize,
    pose: &Pose3<R>,
) -> (R::V3, R::V3) {
    let [u, v] = hull.edges()[i].vertices;
    let vs = hull.vertices();
    (
        pose.transform_point(vs[u as usize]),
        pose.transform_point(vs[v as usize]),
    )
}

/// The best face axis of `a` against `b` (`pose_ab` maps b's frame into a's): for each
/// face, the separation of b's support point along its normal. `b_is_reference`
/// names the feature as a face of B (then `normal` still points from A to B only after
/// the caller flips it). `on_support(face, vertex)` hears b's support vertex of each
/// face (the edge tests start their walks there).
pub fn hull_face_axis<R: Real>(
    a: &ConvexPolyhedron<R>,
    b: &ConvexPolyhedron<R>,
    pose_ab: &Pose3<R>,
    b_is_reference: bool,
    mut on_support: impl FnMut(usize, u32),
) -> Axis<R::V3> {
    let mut best = empty_axis();
    for (i, face) in a.faces().iter().enumerate() {
        let n = face.normal();
        let dir = pose_ab.inverse_transform_vector(-n);
        let k = b.support_index(dir);
        on_support(i, k as u32);
        let s = pose_ab.transform_point(b.vertices()[k]);
        let sep = face.plane().signed_distance(s);
        if sep > best.separation {
            let feature = if b_is_reference {
                Feature::FaceB(i)
            } else {
                Feature::FaceA(i)
            };
            best = Axis {
                separation: sep,
                normal: n,
                feature,
            };
        }
    }
    best
}

/// Most edges a walk over B's Gauss map may collect or visit before the edge test
/// falls back to trying every edge of B (a walk crosses a few regions).
const WALK_CAPACITY: usize = 32;

/// A short list of indices, on the stack.
pub(crate) struct IdList {
    pub(crate) ids: [u32; WALK_CAPACITY],
    pub(crate) len: usize,
}

impl IdList {
    pub(crate) fn new() -> Self {
        Self {
            ids: [0; WALK_CAPACITY],
            len: 0,
        }
    }

    /// False when full.
    pub(crate) fn push(&mut self, id: u32) -> bool {
        if self.len == WALK_CAPACITY {
            return false;
        }
        self.ids[self.len] = id;
        self.len += 1;
        true
    }
}

/// One of A's edges in A's frame: its plane normals (the ends of its Gauss-map arc)
/// and their cross product (the arc's pole).
#[derive(Copy, Clone)]
pub(crate) struct ArcA<V> {
    pub(crate) a: V,
    pub(crate) b: V,
    pub(crate) b_x_a: V,
}

impl<V: Vector3> ArcA<V> {
    /// True when B's (negated) arc `c–d` crosses this arc: [`is_minkowski_face`],
    /// after its cheapest half (do `c` and `d` lie on opposite sides of this arc's
    /// great circle?), which fails for most pairs.
    #[inline]
    pub(crate) fn crosses(&self, c: V, d: V) -> bool {
        let (cba, dba) = (c.dot(self.b_x_a), d.dot(self.b_x_a));
        cba * dba < V::Scalar::ZERO && is_minkowski_face(self.a, self.b, c, d)
    }
}

/// The best edge-pair axis (Gregorius: only pairs whose arcs cross on the Gauss map
/// build a face of the Minkowski difference), in A's frame (`pose_ab` maps B's into
/// it). The normal is oriented along A's arc (the crossing lies on it), or away from
/// A's vertex centroid when it is perpendicular to the arc's mid direction. Ties go to
/// the first pair in the order (A's edge, B's edge). Returns as soon as an axis
/// separates by more than `prediction` (the caller then reports no contact).
///
/// `supports[f]`, when given for each face `f` of A, is B's support vertex along
/// `−nᶠ`: the region of B's Gauss map (negated) that holds the start of A's arcs. The
/// arcs of B that an arc of A crosses then bound the regions it passes through, found
/// by walking from that region to the one of its end (O(E) instead of O(E²) pairs);
/// an unexpected walk (flat hulls, a rounding-level crossing elsewhere, too many
/// regions) falls back to all of B's edges for that arc.
pub fn hull_edge_axis<R: Real>(
    a: &ConvexPolyhedron<R>,
    b: &ConvexPolyhedron<R>,
    pose_ab: &Pose3<R>,
    supports: &[u32],
    prediction: R,
) -> Option<Axis<R::V3>> {
    // B's plane normals in A's frame, once: each is an end of several arcs.
    let nb: Vec<R::V3> = b
        .planes()
        .iter()
        .map(|p| pose_ab.transform_vector(p.normal()))
        .collect();
    // B's vertices too: an edge pair needs both ends of B's edge.
    let vb: Vec<R::V3> = b
        .vertices()
        .iter()
        .map(|&p| pose_ab.transform_point(p))
        .collect();
    let walkable = !a.is_flat() && !b.is_flat() && supports.len() == a.faces().len();
    let mut best = empty_axis();
    for (i, ea) in a.edges().iter().enumerate() {
        let [p, q] = ea.planes.map(|k| a.planes()[k as usize].normal());
        let arc = ArcA {
            a: p,
            b: q,
            b_x_a: q.cross(p),
        };
        let mut crossed = IdList::new();
        let walked = walkable && {
            let [v0, v1] = ea.planes.map(|f| supports[f as usize]);
            arcs_crossed(&arc, b, &nb, v0, v1, &mut crossed)
        };
        // `known`: the walk has already seen the arcs cross.
        let mut test = |j: usize, known: bool| {
            let eb = &b.edges()[j];
            let [c, d] = gauss_arc(eb, &nb);
            if !known && !arc.crosses(c, d) {
                return;
            }
            let ends_b = (vb[eb.vertices[0] as usize], vb[eb.vertices[1] as usize]);
            if let Some((sep, normal)) = edge_pair_axis(a, i, &arc, ends_b) {
                if sep > best.separation {
                    best = Axis {
                        separation: sep,
                        normal,
                        feature: Feature::Edges(i, j),
                    };
                }
            }
        };
        if walked {
            let found = &mut crossed.ids[..crossed.len];
            insertion_sort(found);
            found.iter().for_each(|&j| test(j as usize, true));
        } else {
            (0..b.edges().len()).for_each(|j| test(j, false));
        }
        if best.separation > prediction {
            break;
        }
    }
    (best.separation > R::NEG_INFINITY).then_some(best)
}

/// B's edge `e` as an arc of the Minkowski difference's Gauss map: its two faces'
/// normals (`nb`, in A's frame) negated.
#[inline]
fn gauss_arc<V: Vector3>(e: &PolyhedronEdge, nb: &[V]) -> [V; 2] {
    e.planes.map(|f| -nb[f as usize])
}

/// Collects into `crossed` the arcs of B (edges, `nb` its plane normals in A's frame)
/// that `arc` crosses, from the regions of B's Gauss map (vertices) of its ends, `v0`
/// and `v1`. The regions are convex and the arc shorter than a half circle, so it
/// crosses nothing when both ends lie in one region, and only their shared edge when
/// the regions are neighbours (the common cases); otherwise it walks. Only a crossing
/// that rounding alone makes (arcs that touch) can be missed, whose axis is then a
/// face's. False when the walk fails (the caller tries every arc).
#[inline]
fn arcs_crossed<R: Real>(
    arc: &ArcA<R::V3>,
    b: &ConvexPolyhedron<R>,
    nb: &[R::V3],
    v0: u32,
    v1: u32,
    crossed: &mut IdList,
) -> bool {
    if v0 == v1 {
        return true;
    }
    let shared = b.vertex_edges(v0 as usize).iter().copied().find(|&j| {
        let [u, w] = b.edges()[j as usize].vertices;
        u == v1 || w == v1
    });
    if let Some(j) = shared {
        let [c, d] = gauss_arc(&b.edges()[j as usize], nb);
        if arc.crosses(c, d) {
            return crossed.push(j);
        }
    }
    walk_crossed_arcs(arc, b, nb, v0, v1, crossed)
}

/// Collects into `crossed` the arcs of B (edges, `nb` its plane normals in A's
/// frame) that `arc` crosses, walking from region `v0` to region `v1` of B's Gauss
/// map: out of each region through the first crossed arc other than the one it came
/// in by (a convex region has one exit). False when the walk strays (no exit before
/// `v1`, or more than [`WALK_CAPACITY`] steps): the caller then tries every arc.
fn walk_crossed_arcs<R: Real>(
    arc: &ArcA<R::V3>,
    b: &ConvexPolyhedron<R>,
    nb: &[R::V3],
    v0: u32,
    v1: u32,
    crossed: &mut IdList,
) -> bool {
    let (mut v, mut came_by) = (v0, u32::MAX);
    while v != v1 {
        let exit = b.vertex_edges(v as usize).iter().copied().find(|&j| {
            let [c, d] = gauss_arc(&b.edges()[j as usize], nb);
            j != came_by && arc.crosses(c, d)
        });
        let Some(j) = exit else {
            return false;
        };
        if !crossed.push(j) {
            return false;
        }
        let e = &b.edges()[j as usize];
        v = e.vertices[usize::from(e.vertices[0] == v)];
        came_by = j;
    }
    true
}

/// Sorts a handful of ids (a walk crosses few arcs: the general sort's setup costs
/// more than the sorting).
pub(crate) fn insertion_sort(ids: &mut [u32]) {
    for k in 1..ids.len() {
        let mut m = k;
        while m > 0 && ids[m - 1] > ids[m] {
            ids.swap(m - 1, m);
            m -= 1;
        }
    }
}

/// The axis of A's edge `i` (Gauss-map `arc`) and B's edge with ends `ends_b` (A's
/// frame), whose arcs cross: its separation and unit normal from A to B. `None` for
/// (nearly) parallel edges, whose axis the face axes cover.
#[inline]
fn edge_pair_axis<R: Real>(
    a: &ConvexPolyhedron<R>,
    i: usize,
    arc: &ArcA<R::V3>,
    ends_b: (R::V3, R::V3),
) -> Option<(R, R::V3)> {
    let [u, v] = a.edges()[i].vertices.map(|k| a.vertices()[k as usize]);
    let (da, db) = (v - u, ends_b.1 - ends_b.0);
    let axis = da.cross(db);
    let len_sq = axis.length_squared();
    if len_sq <= eps::<R>(EDGE_PARALLEL_ULPS) * da.length_squared() * db.length_squared() {
        return None;
    }
    let mut n = axis * len_sq.sqrt().recip();
    // The axis is where the arcs cross: on A's arc, so on the side of the arc's mid
    // direction (which a flat hull's quarter arcs need: its centre lies in the edge's
    // plane). The centre decides only if that is zero.
    let along_arc = n.dot(arc.a + arc.b);
    let outward = if along_arc != R::ZERO {
        along_arc
    } else {
        n.dot(u - vertex_centroid(a.vertices()))
    };
    if outward < R::ZERO {
        n = -n;
    }
    Some((n.dot(ends_b.0 - u), n))
}

/// The mean of `points`: a point inside their hull.
pub(crate) fn vertex_centroid<V: Vector>(points: &[V]) -> V {
    points.iter().fold(V::ZERO, |s, &v| s + v) * V::Scalar::from_f64(points.len() as f64).recip()
}

/// True when the Gauss-map arcs `a–b` and `c–d` cross (Gregorius 2013).
fn is_minkowski_face<V: Vector3>(a: V, b: V, c: V, d: V) -> bool {
    let (bxa, dxc) = (b.cross(a), d.cross(c));
    let (cba, dba) = (c.dot(bxa), d.dot(bxa));
    let (adc, bdc) = (a.dot(dxc), b.dot(dxc));
    let zero = V::Scalar::ZERO;
    cba * dba < zero && adc * bdc < zero && cba * bdc > zero
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use glam::DVec3;

    fn square(h: f64, angle: f64, z: f64) -> Vec<ClipVertex<DVec3>> {
        (0..4)
            .map(|i| {
                let t = angle + f64::from(i) * core::f64::consts::FRAC_PI_2;
                let point = DVec3::new(h * t.cos(), h * t.sin(), z);
                ClipVertex {
                    point,
                    id: i,
                    edge: i,
                }
            })
            .collect()
    }

    // A square turned 45° over a square of the same area clips to an octagon with
    // eight distinct ids; reduction keeps 4 points spanning the largest quadrilateral.
    #[test]
    fn octagon_then_four() {
        let face: Vec<DVec3> = square(2f64.sqrt(), core::f64::consts::FRAC_PI_4, 0.0)
            .iter()
            .map(|v| v.point)
            .collect();
        let mut poly = square(2f64.sqrt(), 0.0, -0.1);
        clip_to_face(&mut poly, &mut Vec::new(), &face, DVec3::Z);
        assert_eq!(poly.len(), 8);
        let mut ids: Vec<u32> = poly.iter().map(|v| v.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 8);
        assert!(poly
            .iter()
            .all(|v| v.point.x.abs() <= 1.0 + 1e-12 && v.point.y.abs() <= 1.0 + 1e-12));
        let (idx, n) = reduce_to_four(&poly, |p| -p.z, DVec3::Z, 1.0);
        assert_eq!(n, 4);
        let p: Vec<DVec3> = idx.iter().map(|&i| poly[i].point).collect();
        // Diagonals p0–p1 and p2–p3 (the last two lie on either side of the first);
        // the largest quadrilateral in this octagon (alternate vertices) has area 2.343.
        let area = 0.5 * ((p[1] - p[0]).cross(p[3] - p[2])).length();
        assert!(
            area > 2.34,
            "area {area} of the octagon's {}",
            8.0 * (2f64.sqrt() - 1.0)
        );
    }

    // A polygon entirely outside one side plane clips to nothing; one on a side plane
    // is kept (touching counts).
    #[test]
    fn outside_and_touching() {
        let face: Vec<DVec3> = square(1.0, 0.0, 0.0).iter().map(|v| v.point).collect();
        let mut far = square(0.1, 0.0, 0.0);
        far.iter_mut().for_each(|v| v.point.x += 5.0);
        clip_to_face(&mut far, &mut Vec::new(), &face, DVec3::Z);
        assert!(far.is_empty());
        let mut on = vec![ClipVertex {
            point: DVec3::new(1.0, 0.0, 0.0),
            id: 7,
            edge: 7,
        }];
        clip_to_face(&mut on, &mut Vec::new(), &face, DVec3::Z);
        assert_eq!(on.len(), 1);
    }

    // Face corners wind counter-clockwise seen from outside, for all six faces.
    #[test]
    fn box_faces_wind_outward() {
        let h = DVec3::new(1.0, 2.0, 3.0);
        for f in 0..6 {
            let (c, _) = box_face(h, f);
            let n = (c[1] - c[0]).cross(c[2] - c[1]);
            let sign = if f % 2 == 1 { -1.0 } else { 1.0 };
            assert!(n.dot(DVec3::AXES[f / 2] * sign) > 0.0, "face {f}");
        }
    }

    /// A small seeded generator (splitmix64) in `[0, 1)`, for this module's tests and
    /// `hull_sat`'s.
    pub(crate) fn unit(state: &mut u64) -> f64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) as f64 / u64::MAX as f64
    }

    /// `n` random points on an ellipsoid of semi-axes 0.6, 0.45, 0.5.
    pub(crate) fn ellipsoid(state: &mut u64, n: usize) -> Vec<DVec3> {
        (0..n)
            .map(|_| {
                let [x, y, z] = [0, 1, 2].map(|_| unit(state) * 2.0 - 1.0);
                DVec3::new(x, y, z).normalize_or(DVec3::X) * DVec3::new(0.6, 0.45, 0.5)
            })
            .collect()
    }

    /// The corners of a cube of half side `h` centred on the origin.
    pub(crate) fn cube_corners(h: f64) -> Vec<DVec3> {
        (0..8)
            .map(|i| DVec3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
            .map(|c| (c - 0.5) * 2.0 * h)
            .collect()
    }

    fn random_hull(state: &mut u64, n: usize) -> ConvexPolyhedron<f64> {
        ConvexPolyhedron::from_points(&ellipsoid(state, n)).unwrap()
    }

    fn cube(h: f64) -> ConvexPolyhedron<f64> {
        ConvexPolyhedron::from_points(&cube_corners(h)).unwrap()
    }

    // The walk over B's Gauss map finds the same best edge axis as trying every pair
    // (the walk's shortcut must not change answers), for random hulls in random poses
    // and for cubes, also aligned (arcs through Gauss-map vertices: the fallback).
    #[test]
    fn edge_walk_matches_all_pairs() {
        let mut state = 7u64;
        let shapes = [
            random_hull(&mut state, 24),
            random_hull(&mut state, 60),
            random_hull(&mut state, 8),
            cube(0.5),
        ];
        for a in &shapes {
            for b in &shapes {
                for case in 0..200 {
                    let t = DVec3::new(unit(&mut state), unit(&mut state), unit(&mut state)) - 0.5;
                    let q = if case % 10 == 0 {
                        glam::DQuat::IDENTITY
                    } else {
                        let axis = DVec3::new(unit(&mut state), unit(&mut state), unit(&mut state));
                        glam::DQuat::from_axis_angle(
                            (axis - 0.5).normalize_or(DVec3::Z),
                            unit(&mut state) * 6.3,
                        )
                    };
                    let pose_ab = Pose3::new(t, q);
                    let mut supports = Vec::new();
                    hull_face_axis(a, b, &pose_ab, false, |_, v| supports.push(v));
                    let walk = hull_edge_axis(a, b, &pose_ab, &supports, f64::INFINITY);
                    let all = hull_edge_axis(a, b, &pose_ab, &[], f64::INFINITY);
                    let key = |x: Option<Axis<DVec3>>| {
                        x.map(|x| (x.separation.to_bits(), x.normal.to_array(), x.feature))
                    };
                    assert_eq!(key(walk), key(all), "case {case}");
                }
            }
        }
    }
}
