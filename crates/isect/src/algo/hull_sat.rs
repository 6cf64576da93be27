//! The separating-axis test of two convex polyhedra for their contact manifold
//! ([`crate::query::manifold::contact_manifold_polyhedra`]): the face axes of both,
//! then the edge pairs whose Gauss-map arcs cross (Gregorius, GDC 2013), walking B's
//! Gauss map along each arc of A as [`clip_3d::hull_edge_axis`] does.
//!
//! Speed, without changing the answers of [`clip_3d::hull_face_axis`] and
//! [`clip_3d::hull_edge_axis`] beyond rounding-level ties:
//! - each shape's vertices are mapped into the other's frame once per call and kept
//!   in blocks of four, coordinate by coordinate ([`MappedPoints`]): a face's
//!   separation is then a minimum of vectorised dot products, where a support query
//!   per face maps the direction and then the support point;
//! - B's plane normals are mapped into A's frame once, and only when the edge pairs
//!   are reached;
//! - a face of B is left as soon as a point of A lies deeper below it than A's best
//!   face separates (it can neither be the reference nor matter to the edges);
//! - the edge graphs are fetched once ([`EdgeGraphView`]), and the walks read one
//!   record per edge around a vertex of B ([`crate::shape::VertexArc`]);
//! - no edge pair can be chosen unless it separates more than the best face (the
//!   biases of [`clip_3d::choose_axis`]), so an arc of A along which B's support
//!   vertex already bounds the separation below that (`arc_surely_below`) is
//!   neither walked nor paired, and a pair that cannot beat it (or the best pair so
//!   far) is dropped before its axis is normalised, on squared quantities; margins
//!   ([`ARC_MARGIN`], [`PRUNE_ULPS`]) keep rounding from dropping a pair that wins;
//! - hulls of up to [`INLINE_POINTS`] vertices and planes use stack buffers.

// `!(x > y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
use crate::algo::clip_3d::{
    self, insertion_sort, vertex_centroid, ArcA, Axis, Feature, IdList, EDGE_PARALLEL_ULPS,
};
use crate::math::tolerance::eps;
use crate::math::{Isometry, Pose3, Real, Vector, Vector3};
use crate::shape::{ConvexPolyhedron, EdgeGraphView, Plane, PolyhedronEdge, PolyhedronFace};

/// Points (or planes) a hull may have for the per-call copies to stay on the stack.
pub const INLINE_POINTS: usize = 64;

/// The margin, in machine epsilons of the shapes' size and offset, by which an edge
/// pair must fall short of the separation to beat before it is dropped unnormalised:
/// it covers the rounding of the normalised separation and of the squared test.
pub const PRUNE_ULPS: f64 = 1024.0;

/// The margin, as a fraction of the shapes' size, of the test that drops a whole
/// arc of A (`arc_surely_below`): beyond rounding, it covers pairs of nearly
/// parallel edges, whose rounded axis may stray from the arcs' crossing.
pub const ARC_MARGIN: f64 = 4.0 * clip_3d::REFERENCE_BIAS;

/// Up to `N` values on the stack, more on the heap.
struct Scratch<T: Copy, const N: usize> {
    inline: [T; N],
    heap: Vec<T>,
    len: usize,
}

impl<T: Copy, const N: usize> Scratch<T, N> {
    /// `len` copies of `fill`.
    #[inline]
    fn filled(len: usize, fill: T) -> Self {
        let heap = if len > N { vec![fill; len] } else { Vec::new() };
        Self {
            inline: [fill; N],
            heap,
            len,
        }
    }

    /// The `len` values.
    #[inline]
    fn as_slice(&self) -> &[T] {
        if self.len > N {
            &self.heap
        } else {
            &self.inline[..self.len]
        }
    }

    /// The `len` values, to fill.
    #[inline]
    fn as_mut_slice(&mut self) -> &mut [T] {
        if self.len > N {
            &mut self.heap
        } else {
            &mut self.inline[..self.len]
        }
    }
}

/// Scalars of [`INLINE_POINTS`] points in blocks of four, three coordinates each.
const INLINE_COORDS: usize = 3 * INLINE_POINTS;

/// A hull's vertices mapped into the other hull's frame, in blocks of four stored
/// coordinate by coordinate (`x0..x3, y0..y3, z0..z3`), the last block padded with
/// copies of vertex 0 (which never changes a minimum or the first index of one).
pub struct MappedPoints<R: Real> {
    coords: Scratch<R, INLINE_COORDS>,
}

impl<R: Real> MappedPoints<R> {
    /// `points` mapped by `pose`, each exactly as `pose.transform_point` maps it.
    /// Inlined, so that the buffer is filled where it is kept, not copied there.
    #[inline(always)]
    pub fn new(points: &[R::V3], pose: &Pose3<R>) -> Self {
        let blocks = points.len().div_ceil(4);
        let mut coords = Scratch::filled(12 * blocks, R::ZERO);
        let out = coords.as_mut_slice();
        for (k, &p) in points.iter().enumerate() {
            let q = pose.transform_point(p);
            let base = 12 * (k / 4) + k % 4;
            out[base] = q.get(0);
            out[base + 4] = q.get(1);
            out[base + 8] = q.get(2);
        }
        for k in points.len()..4 * blocks {
            let base = 12 * (k / 4) + k % 4;
            for axis in 0..3 {
                out[base + 4 * axis] = out[4 * axis];
            }
        }
        Self { coords }
    }

    /// Mapped point `k`.
    #[inline]
    pub fn point(&self, k: usize) -> R::V3 {
        block_point::<R>(self.coords.as_slice(), k)
    }

    /// The smallest `n · p` over the points (`+∞` when every product is NaN).
    #[inline]
    pub fn min_dot(&self, n: R::V3) -> R {
        let mut low = [R::INFINITY; 4];
        for block in self.coords.as_slice().chunks_exact(12) {
            lower(&mut low, block_dots(block, n));
        }
        lowest(low)
    }

    /// [`Self::min_dot`], or some product below `stop` as soon as one is found.
    #[inline]
    pub fn min_dot_or_below(&self, n: R::V3, stop: R) -> R {
        let mut low = [R::INFINITY; 4];
        for block in self.coords.as_slice().chunks_exact(12) {
            lower(&mut low, block_dots(block, n));
            if low.iter().any(|&x| x < stop) {
                break;
            }
        }
        lowest(low)
    }

    /// The first point whose `n · p` is `value` (a result of [`Self::min_dot`] for
    /// the same `n`: the products are recomputed in the same order, so bit-identical);
    /// 0 when none is.
    #[inline]
    pub fn first_with_dot(&self, n: R::V3, value: R) -> usize {
        for (k, block) in self.coords.as_slice().chunks_exact(12).enumerate() {
            let d = block_dots(block, n);
            let hits = (0..4).fold(0u32, |m, lane| m | (u32::from(d[lane] == value) << lane));
            if hits != 0 {
                return 4 * k + hits.trailing_zeros() as usize;
            }
        }
        0
    }
}

/// Lowers each lane of `low` to that of `d` (NaN products never win).
#[inline(always)]
fn lower<R: Real>(low: &mut [R; 4], d: [R; 4]) {
    for lane in 0..4 {
        low[lane] = if d[lane] < low[lane] {
            d[lane]
        } else {
            low[lane]
        };
    }
}

/// The smallest of four lanes.
#[inline(always)]
fn lowest<R: Real>(low: [R; 4]) -> R {
    (1..4).fold(low[0], |m, lane| if low[lane] < m { low[lane] } else { m })
}

/// Point `k` of blocked coordinates `coords` (see [`MappedPoints`]).
#[inline(always)]
fn block_point<R: Real>(coords: &[R], k: usize) -> R::V3 {
    let base = 12 * (k / 4) + k % 4;
    R::V3::new(coords[base], coords[base + 4], coords[base + 8])
}

/// The four dot products of one block with `n`, summed in the order of
/// `Vector::dot` (x, y, z), so that each equals `n.dot(p)` exactly.
#[inline(always)]
fn block_dots<R: Real>(block: &[R], n: R::V3) -> [R; 4] {
    let (x, y, z) = (&block[0..4], &block[4..8], &block[8..12]);
    let (nx, ny, nz) = (n.get(0), n.get(1), n.get(2));
    let mut d = [R::ZERO; 4];
    for lane in 0..4 {
        d[lane] = nx * x[lane] + ny * y[lane] + nz * z[lane];
    }
    d
}

/// The face of `faces` whose plane the `other` points lie farthest beyond: the
/// axis of [`clip_3d::hull_face_axis`] (ties to the first face), `feature` naming
/// face `f`. Stops at the first face separating by more than `limit` (the caller
/// then reports no contact). `supports[f]`, when `supports` is not empty, receives
/// the first point deepest below face `f` (the edge walks start there).
pub fn face_axis<R: Real>(
    faces: &[PolyhedronFace<R>],
    other: &MappedPoints<R>,
    limit: R,
    supports: &mut [u32],
    feature: impl Fn(usize) -> Feature,
) -> Axis<R::V3> {
    let mut best = clip_3d::empty_axis();
    for (f, face) in faces.iter().enumerate() {
        let n = face.normal();
        let low = other.min_dot(n);
        if let Some(s) = supports.get_mut(f) {
            *s = other.first_with_dot(n, low) as u32;
        }
        let sep = low - face.plane().d();
        if sep > best.separation {
            best = Axis {
                separation: sep,
                normal: n,
                feature: feature(f),
            };
            if sep > limit {
                break;
            }
        }
    }
    best
}

/// The best face of B, as [`face_axis`] finds it, when its separation exceeds `bar`
/// (A's best): a face whose points reach `bar` below its plane is left as soon as
/// one does (it can neither be the reference nor raise the edge test's floor).
/// Otherwise the empty axis, or a face within rounding of `bar`.
pub fn face_axis_above<R: Real>(
    faces: &[PolyhedronFace<R>],
    other: &MappedPoints<R>,
    bar: R,
    limit: R,
) -> Axis<R::V3> {
    let mut best = clip_3d::empty_axis();
    for (f, face) in faces.iter().enumerate() {
        let n = face.normal();
        let d = face.plane().d();
        let sep = other.min_dot_or_below(n, bar + d) - d;
        if sep > best.separation {
            best = Axis {
                separation: sep,
                normal: n,
                feature: Feature::FaceB(f),
            };
            if sep > limit {
                break;
            }
        }
    }
    best
}

/// The frames of the edge test: B's vertices and negated plane normals (its
/// Gauss map, as seen from A) in A's frame, and both edge graphs, each fetched once.
pub struct EdgeFrames<'a, R: Real> {
    a: &'a ConvexPolyhedron<R>,
    graph_a: EdgeGraphView<'a>,
    graph_b: EdgeGraphView<'a>,
    /// `−n` for each plane `n` of B, mapped into A's frame.
    gauss_b: Scratch<R::V3, INLINE_POINTS>,
    /// B's vertices in A's frame, blocked (see [`MappedPoints`]).
    vb: &'a [R],
    walkable: bool,
}

impl<'a, R: Real> EdgeFrames<'a, R> {
    /// The frames of `a` and `b` (`pose_ab` maps B's frame into A's; `vb` holds B's
    /// vertices mapped by it). Inlined, as [`MappedPoints::new`].
    #[inline(always)]
    pub fn new(
        a: &'a ConvexPolyhedron<R>,
        b: &'a ConvexPolyhedron<R>,
        pose_ab: &Pose3<R>,
        vb: &'a MappedPoints<R>,
    ) -> Self {
        let mut gauss_b = Scratch::filled(b.planes().len(), R::V3::ZERO);
        for (g, p) in gauss_b.as_mut_slice().iter_mut().zip(b.planes()) {
            *g = -pose_ab.transform_vector(p.normal());
        }
        Self {
            a,
            graph_a: a.edge_graph_view(),
            graph_b: b.edge_graph_view(),
            gauss_b,
            vb: vb.coords.as_slice(),
            walkable: !a.is_flat() && !b.is_flat(),
        }
    }
}

/// The edge test's inputs as plain slices (no buffer checks in the loops).
#[derive(Copy, Clone)]
struct EdgeLists<'a, R: Real> {
    edges_a: &'a [PolyhedronEdge],
    planes_a: &'a [Plane<R::V3>],
    vertices_a: &'a [R::V3],
    graph_b: EdgeGraphView<'a>,
    gauss_b: &'a [R::V3],
    vb: &'a [R],
}

impl<R: Real> EdgeLists<'_, R> {
    /// B's edge `j` as a Gauss-map arc (its faces' normals, negated, in A's frame).
    #[inline(always)]
    fn arc_b(&self, j: u32) -> [R::V3; 2] {
        self.gauss(self.graph_b.edges[j as usize].planes)
    }

    /// The Gauss-map points (negated normals, A's frame) of B's planes `[f, g]`.
    #[inline(always)]
    fn gauss(&self, [f, g]: [u32; 2]) -> [R::V3; 2] {
        [self.gauss_b[f as usize], self.gauss_b[g as usize]]
    }

    /// A's edge `i` with its arc, in A's frame.
    #[inline(always)]
    fn edge_a(&self, i: usize) -> EdgeA<R::V3> {
        let e = &self.edges_a[i];
        let p = self.planes_a[e.planes[0] as usize].normal();
        let q = self.planes_a[e.planes[1] as usize].normal();
        let u = self.vertices_a[e.vertices[0] as usize];
        let v = self.vertices_a[e.vertices[1] as usize];
        EdgeA {
            start: u,
            dir: v - u,
            arc: ArcA {
                a: p,
                b: q,
                b_x_a: q.cross(p),
            },
            mid: p + q,
        }
    }
}

/// One of A's edges: its first end, direction and Gauss-map arc (A's frame).
struct EdgeA<V> {
    start: V,
    dir: V,
    arc: ArcA<V>,
    /// The sum of the arc's ends: its mid direction, which orients the axis.
    mid: V,
}

/// The best edge-pair axis, as [`clip_3d::hull_edge_axis`] with `supports` (B's
/// support vertex below each face of A, from [`face_axis`]), except that pairs whose
/// separation cannot exceed `floor` (the best face separation: no pair at or below
/// it is chosen) are dropped; `None` when no pair is left. `margin` and
/// `arc_margin` are the slacks of the pairs' and the arcs' drops (see
/// [`PRUNE_ULPS`], [`ARC_MARGIN`]). Returns as soon as an axis separates by more
/// than `prediction`.
pub fn edge_axis<R: Real>(
    frames: &EdgeFrames<'_, R>,
    supports: &[u32],
    floor: R,
    margin: R,
    arc_margin: R,
    prediction: R,
) -> Option<Axis<R::V3>> {
    let a = frames.a;
    let mut pairs = Pairs {
        lists: EdgeLists {
            edges_a: frames.graph_a.edges,
            planes_a: a.planes(),
            vertices_a: a.vertices(),
            graph_b: frames.graph_b,
            gauss_b: frames.gauss_b.as_slice(),
            vb: frames.vb,
        },
        best: clip_3d::empty_axis(),
        floor,
        margin,
        arc_bar: floor - arc_margin,
    };
    let walkable = frames.walkable && supports.len() == a.faces().len();
    let mut crossed = IdList::new();
    for i in 0..pairs.lists.edges_a.len() {
        pairs.edge(i, supports, walkable, &mut crossed);
        if pairs.best.separation > prediction {
            break;
        }
    }
    (pairs.best.separation > R::NEG_INFINITY).then_some(pairs.best)
}

/// The best edge pair so far, and what a pair must beat to replace it.
struct Pairs<'a, R: Real> {
    lists: EdgeLists<'a, R>,
    best: Axis<R::V3>,
    floor: R,
    margin: R,
    /// What an arc of A must be able to beat to be walked at all.
    arc_bar: R,
}

impl<R: Real> Pairs<'_, R> {
    /// A's edge `i` against B's edges: none when its arc cannot beat the faces or
    /// lies in one region of B's Gauss map, those the walk finds, or (flat hulls, a
    /// failed walk) every edge of B whose arc crosses its arc.
    #[inline(always)]
    fn edge(&mut self, i: usize, supports: &[u32], walkable: bool, crossed: &mut IdList) {
        let [f, g] = self.lists.edges_a[i].planes;
        // B's support vertices below the arc's ends (none for a flat hull's side plane).
        let (v0, v1) = (supports.get(f as usize), supports.get(g as usize));
        if walkable && v0 == v1 {
            return; // both ends in one region of B's Gauss map: no arc crossed
        }
        let edge = self.lists.edge_a(i);
        let vb = self.lists.vb;
        let below = |v: Option<&u32>| {
            v.is_some_and(|&v| {
                arc_surely_below(&edge, block_point::<R>(vb, v as usize), self.arc_bar)
            })
        };
        if below(v0) || below(v1) {
            return; // no axis on the arc can beat the faces: no walk, no pair
        }
        crossed.len = 0;
        let walked = match (walkable, v0, v1) {
            (true, Some(&v0), Some(&v1)) => arcs_crossed(&self.lists, &edge.arc, v0, v1, crossed),
            _ => false,
        };
        if walked {
            let found = &mut crossed.ids[..crossed.len];
            insertion_sort(found);
            found.iter().for_each(|&j| self.known(i, &edge, j));
        } else {
            self.all(i, &edge);
        }
    }

    /// A's edge `i` against every edge of B whose arc crosses its arc (the walk's
    /// fallback).
    fn all(&mut self, i: usize, edge: &EdgeA<R::V3>) {
        for j in 0..self.lists.graph_b.edges.len() as u32 {
            let [c, d] = self.lists.arc_b(j);
            if edge.arc.crosses(c, d) {
                self.known(i, edge, j);
            }
        }
    }

    /// A's edge `i` against B's edge `j`, whose arcs cross.
    #[inline(always)]
    fn known(&mut self, i: usize, edge: &EdgeA<R::V3>, j: u32) {
        let beat = self.best.separation.max(self.floor) - self.margin;
        if let Some((sep, normal)) = pair_axis(&self.lists, edge, j, beat) {
            if sep > self.best.separation {
                self.best = Axis {
                    separation: sep,
                    normal,
                    feature: Feature::Edges(i, j as usize),
                };
            }
        }
    }
}

/// Collects into `crossed` the arcs of B that `arc` crosses, from the regions `v0`
/// and `v1` (distinct) of B's Gauss map that hold its ends: their shared arc when
/// they are neighbours and it crosses, else a walk ([`walk_crossed_arcs`]). False
/// when the walk fails (the caller tries every arc).
#[inline]
fn arcs_crossed<R: Real>(
    lists: &EdgeLists<'_, R>,
    arc: &ArcA<R::V3>,
    v0: u32,
    v1: u32,
    crossed: &mut IdList,
) -> bool {
    let arcs = lists.graph_b.vertex_arcs(v0 as usize);
    if let Some(e) = arcs.iter().find(|e| e.other == v1) {
        let [c, d] = lists.gauss(e.planes);
        if arc.crosses(c, d) {
            return crossed.push(e.edge);
        }
    }
    walk_crossed_arcs(lists, arc, v0, v1, crossed)
}

/// Collects into `crossed` the arcs of B that `arc` crosses, walking from region
/// `v0` to region `v1` of B's Gauss map: out of each region through the first
/// crossed arc other than the one it came in by (a convex region has one exit).
/// False when the walk strays (no exit before `v1`, or more than the list holds).
fn walk_crossed_arcs<R: Real>(
    lists: &EdgeLists<'_, R>,
    arc: &ArcA<R::V3>,
    v0: u32,
    v1: u32,
    crossed: &mut IdList,
) -> bool {
    let (mut v, mut came_by) = (v0, u32::MAX);
    while v != v1 {
        let exit = lists.graph_b.vertex_arcs(v as usize).iter().find(|e| {
            let [c, d] = lists.gauss(e.planes);
            e.edge != came_by && arc.crosses(c, d)
        });
        let Some(e) = exit else {
            return false;
        };
        if !crossed.push(e.edge) {
            return false;
        }
        came_by = e.edge;
        v = e.other;
    }
    true
}

/// The axis of A's `edge` and B's edge `j`, whose arcs cross: its separation and
/// unit normal from A to B, as [`clip_3d::hull_edge_axis`] computes them. `None`
/// for (nearly) parallel edges, whose axis the face axes cover, and for pairs that
/// surely separate by no more than `beat` (tested before normalising).
#[inline(always)]
fn pair_axis<R: Real>(
    lists: &EdgeLists<'_, R>,
    edge: &EdgeA<R::V3>,
    j: u32,
    beat: R,
) -> Option<(R, R::V3)> {
    let [k0, k1] = lists.graph_b.edges[j as usize].vertices;
    let w0 = block_point::<R>(lists.vb, k0 as usize);
    let db = block_point::<R>(lists.vb, k1 as usize) - w0;
    let axis = edge.dir.cross(db);
    let len_sq = axis.length_squared();
    let to_b = w0 - edge.start;
    if surely_at_most(axis.dot(to_b), axis.dot(edge.mid), len_sq, beat) {
        return None;
    }
    if len_sq <= eps::<R>(EDGE_PARALLEL_ULPS) * edge.dir.length_squared() * db.length_squared() {
        return None;
    }
    let mut n = axis * len_sq.sqrt().recip();
    // The axis is where the arcs cross: on A's arc, so on the side of the arc's mid
    // direction (which a flat hull's quarter arcs need: its centre lies in the edge's
    // plane). The centre decides only if that is zero.
    let along_arc = n.dot(edge.mid);
    let outward = if along_arc != R::ZERO {
        along_arc
    } else {
        n.dot(edge.start - vertex_centroid(lists.vertices_a))
    };
    if outward < R::ZERO {
        n = -n;
    }
    Some((n.dot(to_b), n))
}

/// True when no axis on `edge`'s arc separates by more than `bar < 0`, judged by
/// B's vertex `w`: along any unit `n`, B reaches back at least to `w`, so the
/// separation is at most `n · (w − u)` (`u` A's edge). Along an arc shorter than a
/// half circle that sinusoid, when negative at both ends, is largest at an end.
#[inline(always)]
fn arc_surely_below<V: Vector3>(edge: &EdgeA<V>, w: V, bar: V::Scalar) -> bool {
    let to_w = w - edge.start;
    bar < V::Scalar::ZERO && edge.arc.a.dot(to_w) <= bar && edge.arc.b.dot(to_w) <= bar
}

/// True when the separation `s / √len_sq` (oriented by the sign of `along`, the
/// axis against A's arc) is surely at most `beat`, compared squared. False when the
/// orientation is in doubt (`along` within rounding of zero) or for NaN.
#[inline]
fn surely_at_most<R: Real>(s: R, along: R, len_sq: R, beat: R) -> bool {
    // |along| ≤ 2|axis| (the arc's ends are unit vectors); 16 epsilons of that bound
    // keep the rounded normal's orientation the same as this one.
    let doubt = eps::<R>(32.0);
    if !(along * along > doubt * doubt * len_sq) {
        return false;
    }
    let s = if along < R::ZERO { -s } else { s };
    let (s_sq, bound_sq) = (s * s, beat * beat * len_sq);
    if beat >= R::ZERO {
        s <= R::ZERO || s_sq <= bound_sq
    } else {
        s < R::ZERO && s_sq >= bound_sq
    }
}

/// The SAT axis of two polyhedra in A's frame (`pose_ab` maps B's frame into A's,
/// `pose_ba` back), chosen by [`clip_3d::choose_axis`] among the best face of each
/// and the best edge pair: the choice of [`clip_3d::hull_face_axis`] and
/// [`clip_3d::hull_edge_axis`]. `None` when an axis separates them by more than
/// `prediction`. `size` and `offset` scale the biases and the rounding margins.
pub fn polyhedra_axis<R: Real>(
    a: &ConvexPolyhedron<R>,
    b: &ConvexPolyhedron<R>,
    pose_ab: &Pose3<R>,
    pose_ba: &Pose3<R>,
    size: R,
    offset: R,
    prediction: R,
) -> Option<Axis<R::V3>> {
    let vb = MappedPoints::new(b.vertices(), pose_ab);
    let mut supports = Scratch::<u32, INLINE_POINTS>::filled(a.faces().len(), 0);
    let fa = face_axis(
        a.faces(),
        &vb,
        prediction,
        supports.as_mut_slice(),
        Feature::FaceA,
    );
    // `>`, so that a NaN separation still reaches `choose_axis`, which refuses it.
    if fa.separation > prediction {
        return None;
    }
    let va = MappedPoints::new(a.vertices(), pose_ba);
    let mut fb = face_axis_above(b.faces(), &va, fa.separation, prediction);
    fb.normal = -pose_ab.transform_vector(fb.normal);
    if fb.separation > prediction {
        return None;
    }
    let frames = EdgeFrames::new(a, b, pose_ab, &vb);
    let floor = fa.separation.max(fb.separation);
    let margin = eps::<R>(PRUNE_ULPS) * (size + offset);
    let arc_margin = R::from_f64(ARC_MARGIN) * size + margin;
    let edge = edge_axis(
        &frames,
        supports.as_slice(),
        floor,
        margin,
        arc_margin,
        prediction,
    );
    clip_3d::choose_axis(fa, fb, edge, size, prediction)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::clip_3d::tests::{cube_corners as cube, ellipsoid, unit};
    use glam::{DQuat, DVec3};

    fn hexagon() -> Vec<DVec3> {
        (0..6)
            .map(|k| {
                let t = f64::from(k) * core::f64::consts::FRAC_PI_3;
                DVec3::new(0.5 * t.cos(), 0.5 * t.sin(), 0.0)
            })
            .collect()
    }

    /// A pose: random, aligned (one in ten) or turned by a quarter about an axis
    /// (one in ten): aligned and quarter-turned boxes have parallel edges and faces.
    fn pose(state: &mut u64, case: usize) -> (DVec3, DQuat) {
        let t = (DVec3::new(unit(state), unit(state), unit(state)) - 0.5) * 1.4;
        let q = match case % 10 {
            0 => DQuat::IDENTITY,
            1 => DQuat::from_axis_angle(DVec3::AXES[case / 10 % 3], core::f64::consts::FRAC_PI_2),
            _ => {
                let axis = DVec3::new(unit(state), unit(state), unit(state)) - 0.5;
                DQuat::from_axis_angle(axis.normalize_or(DVec3::Z), unit(state) * 6.3)
            }
        };
        (t, q)
    }

    /// The axis of the previous version: every face's support query, every edge pair
    /// whose arcs cross (no walk, no pruning), [`clip_3d::choose_axis`].
    fn brute_force_axis<R: Real>(
        a: &ConvexPolyhedron<R>,
        b: &ConvexPolyhedron<R>,
        pose_ab: &Pose3<R>,
        size: R,
        prediction: R,
    ) -> Option<Axis<R::V3>> {
        let fa = clip_3d::hull_face_axis(a, b, pose_ab, false, |_, _| {});
        if fa.separation > prediction {
            return None;
        }
        let mut fb = clip_3d::hull_face_axis(b, a, &pose_ab.inverse(), true, |_, _| {});
        fb.normal = -pose_ab.transform_vector(fb.normal);
        if fb.separation > prediction {
            return None;
        }
        let edge = clip_3d::hull_edge_axis(a, b, pose_ab, &[], prediction);
        clip_3d::choose_axis(fa, fb, edge, size, prediction)
    }

    /// Compares [`polyhedra_axis`] with [`brute_force_axis`] on every pair of
    /// `shapes` in each of `poses` (B's in A's frame), with and without a prediction
    /// of 0.05: the same feature, separations and normals within `tol`. Returns the
    /// comparisons, the contacts, and the edge contacts among them.
    fn compare<R: Real>(
        shapes: &[ConvexPolyhedron<R>],
        poses: &[Pose3<R>],
        tol: f64,
    ) -> (usize, usize, usize) {
        let (mut compared, mut contacts, mut edges) = (0, 0, 0);
        let tol = R::from_f64(tol);
        for a in shapes {
            for b in shapes {
                for (case, pose_ab) in poses.iter().enumerate() {
                    let pose_ba = pose_ab.inverse();
                    let size = sat_size(a).max(sat_size(b));
                    let offset = pose_ab.translation.abs().max_element();
                    let wanted = R::from_f64(0.05 * (case % 2) as f64);
                    let prediction = clip_3d::touch_limit(wanted, size + offset);
                    let fast = polyhedra_axis(a, b, pose_ab, &pose_ba, size, offset, prediction);
                    let slow = brute_force_axis(a, b, pose_ab, size, prediction);
                    compared += 1;
                    match (fast, slow) {
                        (None, None) => {}
                        (Some(f), Some(s)) => {
                            contacts += 1;
                            edges += usize::from(matches!(f.feature, Feature::Edges(..)));
                            assert_eq!(f.feature, s.feature, "case {case}");
                            assert!((f.separation - s.separation).abs() < tol, "case {case}");
                            assert!((f.normal - s.normal).length() < tol, "case {case}");
                        }
                        _ => panic!("case {case}: {fast:?} against {slow:?}"),
                    }
                }
            }
        }
        (compared, contacts, edges)
    }

    /// The size the manifold scales its biases by: the largest vertex coordinate.
    fn sat_size<R: Real>(h: &ConvexPolyhedron<R>) -> R {
        h.vertices()
            .iter()
            .fold(R::ZERO, |m, p| m.max(p.abs().max_element()))
    }

    // The fast SAT chooses the feature the brute-force one chooses, with the same
    // separation and normal (up to rounding), in `f64` and `f32`, each on 7,200 seeded
    // poses of ellipsoid hulls, cubes and a flat hexagon, touching or not: the face
    // scans, the walk and the pruning of arcs and pairs must not change answers.
    #[test]
    fn matches_brute_force() {
        let mut state = 11u64;
        let point_sets = [
            ellipsoid(&mut state, 8),
            ellipsoid(&mut state, 24),
            ellipsoid(&mut state, 70),
            cube(0.4),
            hexagon(),
        ];
        let poses: Vec<(DVec3, DQuat)> = (0..288).map(|case| pose(&mut state, case)).collect();
        let shapes: Vec<ConvexPolyhedron<f64>> = point_sets
            .iter()
            .map(|p| ConvexPolyhedron::from_points(p).unwrap())
            .collect();
        let poses_f64: Vec<Pose3<f64>> = poses.iter().map(|&(t, q)| Pose3::new(t, q)).collect();
        let (compared, contacts, edges) = compare(&shapes, &poses_f64, 1e-12);
        assert_eq!(compared, 7200);
        assert!(
            contacts > 2000 && edges > 100,
            "{contacts} contacts, {edges} edges"
        );
        let shapes: Vec<ConvexPolyhedron<f32>> = point_sets
            .iter()
            .map(|p| {
                let p: Vec<glam::Vec3> = p.iter().map(|v| v.as_vec3()).collect();
                ConvexPolyhedron::from_points(&p).unwrap()
            })
            .collect();
        let poses_f32: Vec<Pose3<f32>> = poses
            .iter()
            .map(|&(t, q)| Pose3::new(t.as_vec3(), q.as_quat()))
            .collect();
        let (compared, contacts, edges) = compare(&shapes, &poses_f32, 1e-5);
        assert_eq!(compared, 7200);
        assert!(
            contacts > 2000 && edges > 100,
            "{contacts} contacts, {edges} edges"
        );
    }

    // The blocked scan's minimum and its first index are those of a plain scan, for
    // every padding length (1 to 9 points).
    #[test]
    fn mapped_points_scan() {
        let mut state = 5u64;
        for n in 1..=9 {
            let points: Vec<DVec3> = (0..n)
                .map(|_| DVec3::new(unit(&mut state), unit(&mut state), unit(&mut state)))
                .collect();
            let pose = Pose3::new(DVec3::new(0.5, -1.0, 2.0), DQuat::from_rotation_y(0.7));
            let mapped = MappedPoints::new(&points, &pose);
            let dir = DVec3::new(0.3, -0.8, 0.5);
            let dots: Vec<f64> = points
                .iter()
                .map(|&p| dir.dot(pose.transform_point(p)))
                .collect();
            let low = dots.iter().copied().fold(f64::INFINITY, f64::min);
            assert_eq!(mapped.min_dot(dir), low);
            let first = dots.iter().position(|&d| d == low).unwrap();
            assert_eq!(mapped.first_with_dot(dir, low), first);
            assert_eq!(mapped.point(n - 1), pose.transform_point(points[n - 1]));
            assert!(mapped.min_dot_or_below(dir, f64::INFINITY) < f64::INFINITY);
        }
    }
}
