//! The mesh's tree for rays: its [`Bvh`] with every bottom node (one whose slots are
//! all triangles) turned into a leaf of up to four triangles stored side by side and
//! tested together by the 4-lane watertight kernel ([`ShearedRay::hit4`]), as in
//! Embree's BVH4 with `triangle4` leaves (Wald et al., "Embree: a kernel framework for
//! efficient CPU ray tracing", 2014; the kernel is Woop, Benthin and Wald's,
//! "Watertight Ray/Triangle Intersection", JCGT 2013).
//!
//! A walk tests the four child boxes of a node with the shared slab kernel
//! ([`ray_boxes4_mask`]) and treats leaves and inner nodes alike: the nearest hit child
//! is visited next, the others are pushed farthest first with their entry parameter
//! (pruned when popped after the best hit shrank the ray). A leaf costs one 4-lane
//! kernel call where the shared tree tested four triangle boxes and then each
//! triangle alone, and the walk skips the bottom level of nodes. The boxes are the
//! shared tree's (the padded triangle boxes and their unions), so culling is the same
//! and the hits are those of the per-triangle kernel. Flat triangles are left out of
//! the leaves: rays never hit them.

use super::ray::{ShearedRay, Triangles4};
use crate::algo::slab::PreparedRay;
#[cfg(doc)]
use crate::broad::simd::ray_boxes4_mask;
use crate::broad::simd::{Boxes4, LANES};
use crate::broad::{finite_max_t, sort_lanes, Bvh, Slot, Stack};
use crate::math::{Real, Vector};
use crate::shape::Ray;

/// Child code bit marking a leaf (the rest is the leaf's index).
const LEAF_BIT: u32 = 1 << 31;
/// Child code of an empty slot.
const EMPTY: u32 = u32::MAX;

/// Rows of a node's boxes: `rows[axis]` holds the four lower bounds on `axis`,
/// `rows[3 + axis]` the upper ones, so that a ray picks its near and far plane of each
/// axis by index ([`OctantRay`]).
pub(super) type Rows<S> = [[S; LANES]; 6];

/// An inner node: four child boxes as [`Rows`] and their codes (a node index,
/// `LEAF_BIT | leaf` or [`EMPTY`]), on two cache lines for `f32`.
#[derive(Copy, Clone, Debug)]
#[repr(C, align(64))]
struct RayNode<S: Real> {
    rows: Rows<S>,
    child: [u32; LANES],
}

/// A ray prepared for [`slab4`]: origin and inverse direction, each coordinate repeated
/// in four lanes, and for each axis where in [`Rows`] the plane it meets first (`near`)
/// and last (`far`) lies, chosen once by the sign of the inverse direction as Embree
/// does (its `nearX`/`farX` offsets; Wald et al., "Embree: a kernel framework for
/// efficient CPU ray tracing", 2014). `PreparedRay` never makes `1/dir = −∞`, so a zero
/// component (`+∞`) takes the lower bound as near, as the min/max ordering of the
/// shared kernel does, NaN (`0·∞`) included. The places are byte offsets into
/// [`Rows`] (a whole row each), which the SSE kernel adds to the node's address
/// without scaling.
#[derive(Copy, Clone, Debug)]
pub(super) struct OctantRay<S: Real> {
    pub(super) origin: [[S; LANES]; 3],
    pub(super) inv_dir: [[S; LANES]; 3],
    near: [usize; 3],
    far: [usize; 3],
}

/// The size of a row of [`Rows`] in bytes.
const fn row_bytes<S>() -> usize {
    core::mem::size_of::<[S; LANES]>()
}

impl<S: Real> OctantRay<S> {
    /// From a [`PreparedRay`] (its `max_t` is passed to [`slab4`] separately).
    #[inline(always)]
    pub(super) fn new<V: Vector<Scalar = S>>(ray: &PreparedRay<V>) -> Self {
        let mut out = Self::default();
        for axis in 0..3 {
            let inv = ray.inv_dir.get(axis);
            out.origin[axis] = [ray.origin.get(axis); LANES];
            out.inv_dir[axis] = [inv; LANES];
            let flip = usize::from(inv < S::ZERO) * 3;
            out.near[axis] = (axis + flip) * row_bytes::<S>();
            out.far[axis] = (axis + 3 - flip) * row_bytes::<S>();
        }
        out
    }

    /// The byte offsets in [`Rows`] of the near planes: whole rows, the last ending
    /// within `Rows` (the SSE kernel relies on it).
    #[inline(always)]
    pub(super) fn near(&self) -> &[usize; 3] {
        &self.near
    }

    /// The byte offsets in [`Rows`] of the far planes (as [`near`](Self::near)).
    #[inline(always)]
    pub(super) fn far(&self) -> &[usize; 3] {
        &self.far
    }

    /// The row of `rows` at byte offset `offset` (portable kernel).
    #[inline(always)]
    fn row<'a>(rows: &'a Rows<S>, offset: usize) -> &'a [S; LANES] {
        &rows[offset / row_bytes::<S>()]
    }
}

impl<S: Real> Default for OctantRay<S> {
    /// A ray at the origin with a zero inverse direction (a placeholder to overwrite).
    fn default() -> Self {
        Self {
            origin: [[S::ZERO; LANES]; 3],
            inv_dir: [[S::ZERO; LANES]; 3],
            near: [0, 1, 2].map(|a| a * row_bytes::<S>()),
            far: [3, 4, 5].map(|a| a * row_bytes::<S>()),
        }
    }
}

/// Up to four triangles: their corners side by side, their indices in the mesh, and
/// the mask of the lanes in use.
#[derive(Copy, Clone, Debug)]
#[repr(C, align(64))]
pub(crate) struct Leaf<S: Real> {
    tris: Triangles4<S>,
    pub(crate) ids: [u32; LANES],
    pub(crate) lanes: u32,
}

impl<S: Real> Leaf<S> {
    /// The kernel over the leaf's lanes (see [`ShearedRay::hit4`]).
    #[inline(always)]
    pub(crate) fn hit4<V: Vector<Scalar = S>>(
        &self,
        ray: &ShearedRay<V>,
    ) -> ([S; LANES], u32, u32) {
        ray.hit4(&self.tris, self.lanes)
    }
}

/// The ray tree of a mesh (see the module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct RayTree<S: Real> {
    nodes: Vec<RayNode<S>>,
    leaves: Vec<Leaf<S>>,
}

impl<S: Real> RayTree<S> {
    /// The tree of the mesh whose triangles have these corners and unit normals (zero
    /// for flat ones), from the mesh's `bvh` over the triangles.
    pub(crate) fn new<V: Vector<Scalar = S>>(
        bvh: &Bvh<V>,
        corners: &[[V; 3]],
        normals: &[V],
    ) -> Self {
        let mut tree = Self::default();
        if bvh.node_count() > 0 {
            let add_leaf = |items: &[u32]| {
                let mut kept = [0; LANES];
                let mut n = 0;
                for &i in items.iter().filter(|&&i| normals[i as usize] != V::ZERO) {
                    kept[n] = i;
                    n += 1;
                }
                tree_leaf(&kept[..n], corners)
            };
            // Every node of `bvh` but the bottom ones becomes a node; leaves hold about
            // two triangles on average.
            tree.nodes.reserve(bvh.node_count());
            let mut leaves = Vec::with_capacity(bvh.len() / 2 + 1);
            let nodes = &mut tree.nodes;
            add_node(bvh, 0, nodes, &mut |items| {
                leaves.push(add_leaf(items));
                LEAF_BIT | (leaves.len() - 1) as u32
            });
            tree.leaves = leaves;
        }
        tree
    }
}

/// Copies node `i` of `bvh` (and, depth first, its inner descendants) into `nodes`;
/// `leaf(items)` stores a leaf and returns its code. Returns the node's index.
fn add_node<V: Vector>(
    bvh: &Bvh<V>,
    i: usize,
    nodes: &mut Vec<RayNode<V::Scalar>>,
    leaf: &mut impl FnMut(&[u32]) -> u32,
) -> u32 {
    let (boxes, slots) = bvh.node(i);
    let index = nodes.len();
    nodes.push(RayNode {
        rows: rows(boxes),
        child: [EMPTY; LANES],
    });
    for (lane, slot) in slots.into_iter().enumerate() {
        let code = match slot {
            Slot::Empty => EMPTY,
            Slot::Item(item) => leaf(&[item]),
            Slot::Node(c) => match bottom_items(bvh, c) {
                Some((items, n)) => leaf(&items[..n]),
                None => add_node(bvh, c, nodes, leaf),
            },
        };
        nodes[index].child[lane] = code;
    }
    index as u32
}

/// The boxes as [`Rows`]: lower bounds first.
pub(super) fn rows<S: Real>(boxes: &Boxes4<S>) -> Rows<S> {
    [
        boxes.min[0],
        boxes.min[1],
        boxes.min[2],
        boxes.max[0],
        boxes.max[1],
        boxes.max[2],
    ]
}

/// The items of node `i` when all its slots are items (or empty).
/// Returned as an array and the count of items in it.
fn bottom_items<V: Vector>(bvh: &Bvh<V>, i: usize) -> Option<([u32; LANES], usize)> {
    let (mut items, mut n) = ([0; LANES], 0);
    for slot in bvh.node(i).1 {
        match slot {
            Slot::Item(item) => {
                items[n] = item;
                n += 1;
            }
            Slot::Node(_) => return None,
            Slot::Empty => {}
        }
    }
    Some((items, n))
}

/// The leaf of triangles `items` (at most four).
fn tree_leaf<V: Vector>(items: &[u32], corners: &[[V; 3]]) -> Leaf<V::Scalar> {
    let zero = V::Scalar::ZERO;
    let mut leaf = Leaf {
        tris: Triangles4 {
            corner: [[[zero; LANES]; 3]; 3],
        },
        ids: [0; LANES],
        lanes: 0,
    };
    for (lane, &item) in items.iter().enumerate() {
        for (c, p) in corners[item as usize].iter().enumerate() {
            for axis in 0..3 {
                leaf.tris.corner[c][axis][lane] = p.get(axis);
            }
        }
        leaf.ids[lane] = item;
        leaf.lanes |= 1 << lane;
    }
    leaf
}

/// The state of one ray's near-first walk of a [`RayTree`]: the ray, the current clip
/// `max_t`, the child (node or leaf code) to visit next and the pending children with
/// their entry parameters.
pub(crate) struct TreeWalk<S: Real> {
    ray: OctantRay<S>,
    max_t: S,
    current: u32,
    stack: Stack<(u32, S)>,
}

impl<S: Real> TreeWalk<S> {
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Self {
            ray: OctantRay::default(),
            max_t: S::NEG_INFINITY,
            current: 0,
            stack: Stack::new((0, S::ZERO)),
        }
    }

    /// Starts a walk of `ray` over `t ∈ [0, max_t]` from the root; false when there is
    /// nothing to walk (an empty tree, a non-finite ray, a NaN or negative `max_t`).
    /// The clip is made finite ([`finite_max_t`]), as [`slab4`] requires.
    #[inline(always)]
    pub(crate) fn start<V: Vector<Scalar = S>>(
        &mut self,
        tree: &RayTree<S>,
        ray: &Ray<V>,
        max_t: S,
    ) -> bool {
        let prepared = PreparedRay::new(ray, finite_max_t(max_t));
        self.max_t = prepared.max_t;
        self.ray = OctantRay::new(&prepared);
        self.current = 0;
        self.stack.clear();
        !tree.nodes.is_empty() && self.max_t >= S::ZERO
    }

    /// Visits the current child and moves to the next one; false when the walk is
    /// over. `leaf(leaf, max_t)` tests a leaf and may return a smaller `max_t` (`−∞`
    /// ends the walk).
    #[inline(always)]
    pub(crate) fn step(
        &mut self,
        tree: &RayTree<S>,
        leaf: &mut impl FnMut(&Leaf<S>, S) -> Option<S>,
    ) -> bool {
        if self.current & LEAF_BIT != 0 {
            if let Some(max_t) = leaf(
                &tree.leaves[(self.current & !LEAF_BIT) as usize],
                self.max_t,
            ) {
                self.max_t = max_t;
            }
        } else if let Some(next) =
            descend(tree, &self.ray, self.current, self.max_t, &mut self.stack)
        {
            self.current = next;
            return true;
        }
        match pop(&mut self.stack, self.max_t) {
            Some(next) => {
                self.current = next;
                true
            }
            None => false,
        }
    }

    /// Reads a word of each cache line of the current child (a node's two, a leaf's
    /// three for `f32`) so that its next step finds it in cache (see
    /// [`RayTree::walk_batch`]).
    #[inline(always)]
    fn touch(&self, tree: &RayTree<S>) {
        if self.current & LEAF_BIT != 0 {
            let leaf = &tree.leaves[(self.current & !LEAF_BIT) as usize];
            let c = &leaf.tris.corner;
            core::hint::black_box((c[0][0][0], c[1][1][0], leaf.ids[0]));
        } else {
            let node = &tree.nodes[self.current as usize];
            core::hint::black_box((node.rows[0][0], node.child[0]));
        }
    }
}

/// One step of the near-first order at inner node `index`: tests its four boxes,
/// pushes the hit children but the nearest, farthest first, with their entry
/// parameters, and returns the nearest (`None` when no box is hit within `max_t`).
/// Three or four hit children are ordered by [`sort_lanes`]'s network (ties in the
/// network's order).
#[inline(always)]
fn descend<S: Real>(
    tree: &RayTree<S>,
    ray: &OctantRay<S>,
    index: u32,
    max_t: S,
    stack: &mut Stack<(u32, S)>,
) -> Option<u32> {
    let node = &tree.nodes[index as usize];
    let (t, hit) = slab4(ray, &node.rows, max_t);
    if hit & hit.wrapping_sub(1) == 0 {
        // At most one child hit: nothing to order.
        return (hit != 0).then(|| node.child[hit.trailing_zeros() as usize]);
    }
    if hit.count_ones() == 2 {
        let (a, b) = (
            hit.trailing_zeros() as usize,
            31 - hit.leading_zeros() as usize,
        );
        let (near, far) = if t[b] < t[a] { (b, a) } else { (a, b) };
        stack.push((node.child[far], t[far]));
        return Some(node.child[near]);
    }
    // Missed lanes sort last at +∞ (every hit lane's entry is within the finite
    // `max_t`) and are never pushed, so their codes need no masking.
    let mut sorted = [(S::INFINITY, EMPTY); LANES];
    for lane in 0..LANES {
        let t = if hit & (1 << lane) != 0 {
            t[lane]
        } else {
            S::INFINITY
        };
        sorted[lane] = (t, node.child[lane]);
    }
    sort_lanes(&mut sorted);
    for &(t_enter, code) in sorted[1..hit.count_ones() as usize].iter().rev() {
        stack.push((code, t_enter));
    }
    Some(sorted[0].1)
}

/// The nearest pending child that still starts within `max_t`, taken off the stack;
/// `None` when none is left.
#[inline(always)]
fn pop<S: Real>(stack: &mut Stack<(u32, S)>, max_t: S) -> Option<u32> {
    while let Some((code, t_enter)) = stack.pop() {
        if t_enter <= max_t {
            return Some(code);
        }
    }
    None
}

/// The slab test of a node's four boxes ([`ray_boxes4_mask`]'s, with the planes
/// ordered by the ray's octant): the SSE kernel for `f32` on `x86_64`, else the
/// portable one (the type test is resolved at compile time). `max_t` must be finite.
#[inline(always)]
fn slab4<S: Real>(ray: &OctantRay<S>, rows: &Rows<S>, max_t: S) -> ([S; LANES], u32) {
    #[cfg(target_arch = "x86_64")]
    if let Some(out) = slab4_sse(ray, rows, max_t) {
        return out;
    }
    slab4_portable(ray, rows, [max_t; LANES])
}

/// [`slab4`] by the SSE kernel when `S` is `f32`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn slab4_sse<S: Real>(ray: &OctantRay<S>, rows: &Rows<S>, max_t: S) -> Option<([S; LANES], u32)> {
    use core::any::Any;
    let ray = (ray as &dyn Any).downcast_ref::<OctantRay<f32>>()?;
    let rows = (rows as &dyn Any).downcast_ref::<Rows<f32>>()?;
    let max_t = *(&max_t as &dyn Any).downcast_ref::<f32>()?;
    let (t, hit) = super::sse::slab4(ray, rows, max_t);
    let mut out = [S::ZERO; LANES];
    *(&mut out as &mut dyn Any).downcast_mut::<[f32; LANES]>()? = t;
    Some((out, hit))
}

/// The portable [`slab4`], with `max_t` given as a row: per lane the entry parameter
/// (meaningful in hit lanes) and the mask of the boxes met within `[0, max_t]`.
///
/// It gives [`ray_boxes4_mask`]'s mask and, in hit lanes, its entries bit for bit
/// (the tests compare them). For a valid box the near plane of an axis is the one the
/// min/max ordering picks: rounding is monotonic, so `(lo − o)·inv ≤ (hi − o)·inv`
/// when `inv > 0` and the reverse when `inv < 0`; with `inv = +∞` the lower plane is
/// taken as near, NaN included, as there. Equal values can differ only in the sign of
/// a zero, which no comparison sees. An empty lane (lower bounds `+∞`, upper `−∞`)
/// enters at `+∞` on every axis whichever the octant, so with a finite `max_t` it is
/// missed without the validity test of the shared kernel. Out of line and with the
/// clip as a row, the compiler keeps every step in vector registers.
#[inline(never)]
pub(super) fn slab4_portable<S: Real>(
    ray: &OctantRay<S>,
    rows: &Rows<S>,
    max_t: [S; LANES],
) -> ([S; LANES], u32) {
    let mut enter = [S::ZERO; LANES];
    let mut exit = max_t;
    for axis in 0..3 {
        let near = OctantRay::row(rows, ray.near[axis]);
        let far = OctantRay::row(rows, ray.far[axis]);
        let (o, inv) = (&ray.origin[axis], &ray.inv_dir[axis]);
        for lane in 0..LANES {
            let t_near = (near[lane] - o[lane]) * inv[lane];
            let t_far = (far[lane] - o[lane]) * inv[lane];
            // A NaN (0·∞) fails both comparisons and leaves the interval as it was.
            enter[lane] = if t_near > enter[lane] {
                t_near
            } else {
                enter[lane]
            };
            exit[lane] = if t_far < exit[lane] {
                t_far
            } else {
                exit[lane]
            };
        }
    }
    let mut hit = 0;
    for lane in 0..LANES {
        hit |= u32::from(enter[lane] <= exit[lane]) << lane;
    }
    (enter, hit)
}

/// Rays walked at once by [`RayTree::walk_batch`]: enough to overlap the node reads of
/// a few rays, few enough that the walks' states stay in the first-level cache.
const IN_FLIGHT: usize = 8;

impl<S: Real> RayTree<S> {
    /// Walks `ray` to the end: `leaf(leaf, max_t)` as in [`TreeWalk::step`], the calls
    /// in the order `step` makes them. Inner nodes are descended in a loop of their
    /// own, so that the ray's rows stay in registers between nodes (the leaf kernel
    /// needs them all).
    #[inline(always)]
    pub(crate) fn walk<V: Vector<Scalar = S>>(
        &self,
        ray: &Ray<V>,
        max_t: S,
        mut leaf: impl FnMut(&Leaf<S>, S) -> Option<S>,
    ) {
        let mut walk = TreeWalk::new();
        if !walk.start(self, ray, max_t) {
            return;
        }
        let TreeWalk {
            ray,
            mut max_t,
            mut current,
            mut stack,
        } = walk;
        loop {
            while current & LEAF_BIT == 0 {
                current = match descend(self, &ray, current, max_t, &mut stack) {
                    Some(next) => next,
                    None => match pop(&mut stack, max_t) {
                        Some(next) => next,
                        None => return,
                    },
                };
            }
            if let Some(t) = leaf(&self.leaves[(current & !LEAF_BIT) as usize], max_t) {
                // `−∞` (any-hit found one): every pending entry is at `t ≥ 0`.
                if t < S::ZERO {
                    return;
                }
                max_t = t;
            }
            current = match pop(&mut stack, max_t) {
                Some(next) => next,
                None => return,
            };
        }
    }

    /// Walks every ray to the end, eight at a time, one step each in turn: a walk is a
    /// chain of dependent memory reads, and the next child of one ray is read ahead
    /// while the others take their steps, so the reads of several rays overlap
    /// (interleaved traversal, as in Kocberber et al., "Asynchronous memory access
    /// chaining", VLDB 2015). `leaf(k, leaf, max_t)` tests a leaf for `rays[k]`; each
    /// ray's own calls come in the order [`walk`](Self::walk) makes them.
    pub(crate) fn walk_batch<V: Vector<Scalar = S>>(
        &self,
        rays: &[Ray<V>],
        max_t: S,
        mut leaf: impl FnMut(usize, &Leaf<S>, S) -> Option<S>,
    ) {
        let mut queue = 0..rays.len();
        let mut flight: Vec<(usize, TreeWalk<S>)> = Vec::with_capacity(IN_FLIGHT);
        let mut start = |walk: &mut TreeWalk<S>| queue.find(|&k| walk.start(self, &rays[k], max_t));
        while flight.len() < IN_FLIGHT {
            let mut walk = TreeWalk::new();
            let Some(k) = start(&mut walk) else { break };
            flight.push((k, walk));
        }
        let mut i = 0;
        while !flight.is_empty() {
            i = if i >= flight.len() { 0 } else { i };
            let (k, walk) = &mut flight[i];
            let ray = *k;
            if walk.step(self, &mut |l: &Leaf<S>, max_t| leaf(ray, l, max_t)) {
                walk.touch(self);
                i += 1;
            } else if let Some(next) = start(walk) {
                *k = next;
            } else {
                flight.swap_remove(i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad::simd::{ray_boxes4_mask_rows, SoaRay};
    use crate::shape::Aabb;
    use glam::DVec3;

    /// Seeded grid coordinates: rays through box corners and along faces, zero
    /// direction components and origins on slab planes are common.
    fn coord(state: &mut u64) -> f64 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let k = (*state >> 33) % 41;
        (k as f64 - 20.0) / 4.0
    }

    // The portable octant kernel (the `f64` and non-x86 path) gives the shared min/max
    // kernel's mask and, in hit lanes, its entries bit for bit.
    #[test]
    fn octant_kernel_matches_shared_f64() {
        let mut state = 3;
        let mut hits = 0;
        for case in 0..20_000 {
            let mut p = || DVec3::new(coord(&mut state), coord(&mut state), coord(&mut state));
            let mut boxes = Boxes4::<f64>::EMPTY;
            for lane in 0..3 {
                let (a, b) = (p(), p());
                boxes.set(
                    lane,
                    &Aabb {
                        min: a.min(b),
                        max: a.max(b),
                    },
                );
            }
            let mut dir = p();
            if case % 3 == 0 {
                dir[case % 9 / 3] = if case % 2 == 0 { 0.0 } else { -0.0 };
            }
            let ray = Ray { origin: p(), dir };
            let max_t = finite_max_t([f64::INFINITY, 2.0, 0.0][case % 3]);
            let prepared = PreparedRay::new(&ray, max_t);
            let (t, hit) =
                slab4_portable(&OctantRay::new(&prepared), &rows(&boxes), [max_t; LANES]);
            let (want_t, want_hit) =
                ray_boxes4_mask_rows(&SoaRay::new(&prepared), &boxes, 3, [max_t; LANES]);
            assert_eq!(hit, want_hit, "case {case}");
            hits += hit.count_ones();
            for lane in (0..LANES).filter(|l| hit & (1 << l) != 0) {
                assert_eq!(t[lane].to_bits(), want_t[lane].to_bits(), "case {case}");
            }
        }
        assert!(hits > 2_000, "{hits} hits");
    }
}
