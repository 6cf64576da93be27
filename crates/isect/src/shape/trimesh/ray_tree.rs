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
use crate::broad::simd::{Boxes4, SoaRay, LANES};
use crate::broad::{finite_max_t, sort_lanes, Bvh, Slot, Stack};
use crate::math::{Real, Vector};
use crate::shape::Ray;

/// Child code bit marking a leaf (the rest is the leaf's index).
const LEAF_BIT: u32 = 1 << 31;
/// Child code of an empty slot.
const EMPTY: u32 = u32::MAX;

/// An inner node: four child boxes and their codes (a node index, `LEAF_BIT | leaf`
/// or [`EMPTY`]), on two cache lines for `f32`.
#[derive(Copy, Clone, Debug)]
#[repr(C, align(64))]
struct RayNode<S: Real> {
    boxes: Boxes4<S>,
    child: [u32; LANES],
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
        boxes: *boxes,
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
    ray: SoaRay<S>,
    max_t: S,
    current: u32,
    stack: Stack<(u32, S)>,
}

impl<S: Real> TreeWalk<S> {
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Self {
            ray: SoaRay::default(),
            max_t: S::NEG_INFINITY,
            current: 0,
            stack: Stack::new((0, S::ZERO)),
        }
    }

    /// Starts a walk of `ray` over `t ∈ [0, max_t]` from the root; false when there is
    /// nothing to walk (an empty tree, a non-finite ray, a NaN or negative `max_t`).
    #[inline(always)]
    pub(crate) fn start<V: Vector<Scalar = S>>(
        &mut self,
        tree: &RayTree<S>,
        ray: &Ray<V>,
        max_t: S,
    ) -> bool {
        let prepared = PreparedRay::new(ray, finite_max_t(max_t));
        self.max_t = prepared.max_t;
        self.ray = SoaRay::new(&prepared);
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
            return self.pop();
        }
        let node = &tree.nodes[self.current as usize];
        let (t, hit) = slab4(&self.ray, &node.boxes, self.max_t);
        if hit & hit.wrapping_sub(1) == 0 {
            // At most one child hit: nothing to order.
            if hit == 0 {
                return self.pop();
            }
            self.current = node.child[hit.trailing_zeros() as usize];
        } else if hit.count_ones() == 2 {
            let (a, b) = (
                hit.trailing_zeros() as usize,
                31 - hit.leading_zeros() as usize,
            );
            let (near, far) = if t[b] < t[a] { (b, a) } else { (a, b) };
            self.stack.push((node.child[far], t[far]));
            self.current = node.child[near];
        } else {
            let mut sorted = [(S::INFINITY, EMPTY); LANES];
            for lane in 0..LANES {
                if hit & (1 << lane) != 0 {
                    sorted[lane] = (t[lane], node.child[lane]);
                }
            }
            sort_lanes(&mut sorted);
            // Lanes outside the mask sort last at +∞ and are never pushed.
            for &(t_enter, code) in sorted[1..].iter().rev() {
                if t_enter <= self.max_t {
                    self.stack.push((code, t_enter));
                }
            }
            self.current = sorted[0].1;
        }
        true
    }

    /// Makes the nearest pending child that still starts within `max_t` current;
    /// false when none is left.
    #[inline(always)]
    fn pop(&mut self) -> bool {
        while let Some((code, t_enter)) = self.stack.pop() {
            if t_enter <= self.max_t {
                self.current = code;
                return true;
            }
        }
        false
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
            core::hint::black_box((node.boxes.min[0][0], node.child[0]));
        }
    }
}

/// [`ray_boxes4_mask`] in 3D: the SSE kernel for `f32` on `x86_64`, else the portable
/// one (the type test is resolved at compile time).
#[inline(always)]
fn slab4<S: Real>(ray: &SoaRay<S>, boxes: &Boxes4<S>, max_t: S) -> ([S; LANES], u32) {
    #[cfg(target_arch = "x86_64")]
    if let Some(out) = slab4_sse(ray, boxes, max_t) {
        return out;
    }
    slab4_portable(ray, boxes, [max_t; LANES])
}

/// [`slab4`] by the SSE kernel when `S` is `f32`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn slab4_sse<S: Real>(ray: &SoaRay<S>, boxes: &Boxes4<S>, max_t: S) -> Option<([S; LANES], u32)> {
    use core::any::Any;
    let ray = (ray as &dyn Any).downcast_ref::<SoaRay<f32>>()?;
    let boxes = (boxes as &dyn Any).downcast_ref::<Boxes4<f32>>()?;
    let max_t = *(&max_t as &dyn Any).downcast_ref::<f32>()?;
    let (t, hit) = super::sse::slab4(ray, boxes, max_t);
    let mut out = [S::ZERO; LANES];
    *(&mut out as &mut dyn Any).downcast_mut::<[f32; LANES]>()? = t;
    Some((out, hit))
}

/// [`ray_boxes4_mask`] in 3D with `max_t` given as a row: the same arithmetic, the
/// same answers (the shared kernel's docs tell why it is robust). Out of line and with
/// the clip as a row, the compiler keeps every step in vector registers; inlined into
/// the walk, with the clip as one number, it split steps into per-lane branches.
#[inline(never)]
pub(super) fn slab4_portable<S: Real>(
    ray: &SoaRay<S>,
    boxes: &Boxes4<S>,
    max_t: [S; LANES],
) -> ([S; LANES], u32) {
    crate::broad::simd::ray_boxes4_mask_rows(ray, boxes, 3, max_t)
}

/// Rays walked at once by [`RayTree::walk_batch`]: enough to overlap the node reads of
/// a few rays, few enough that the walks' states stay in the first-level cache.
const IN_FLIGHT: usize = 8;

impl<S: Real> RayTree<S> {
    /// Walks `ray` to the end: `leaf(leaf, max_t)` as in [`TreeWalk::step`].
    #[inline(always)]
    pub(crate) fn walk<V: Vector<Scalar = S>>(
        &self,
        ray: &Ray<V>,
        max_t: S,
        mut leaf: impl FnMut(&Leaf<S>, S) -> Option<S>,
    ) {
        let mut walk = TreeWalk::new();
        if walk.start(self, ray, max_t) {
            while walk.step(self, &mut leaf) {}
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
