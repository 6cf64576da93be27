//! The mesh's tree for rays: its [`Bvh`] collapsed into nodes of up to eight children
//! (BVH8, as Embree builds for AVX), with every bottom node of the shared tree (one
//! whose slots are all triangles) turned into a leaf of up to four triangles stored side
//! by side and tested together by the 4-lane watertight kernel
//! ([`ShearedRay::hit4`]), as Embree's `triangle4` leaves (Wald et al., "Embree: a
//! kernel framework for efficient CPU ray tracing", 2014; the kernel is Woop, Benthin
//! and Wald's, "Watertight Ray/Triangle Intersection", JCGT 2013).
//!
//! Collapsing: a node starts with its four slots and repeatedly opens the inner child
//! of largest surface area (replacing it by its own slots) while the children fit in
//! eight; leaves are never opened. Sibling leaves (single triangles and bottom nodes)
//! are then merged, the pair whose union box gains most first, while the union's
//! surface area is below the two boxes' sum and the triangles fit in four lanes: the
//! shared tree's nodes hold two or three slots on average, so its leaves averaged two
//! triangles. Half as many levels means about half as many node
//! tests per ray, each testing eight boxes: with AVX (found at run time when the tree
//! is built) one 8-lane kernel for `f32` or two 4-lane halves for `f64`, the walk
//! compiled for AVX around it; otherwise on `x86_64` two 4-lane SSE halves for `f32`
//! or four 2-lane SSE2 quarters for `f64`, or the portable kernel (other targets). All
//! give the same entries and masks bit for bit (tested).
//!
//! A walk tests a node's boxes with the near and far plane of each axis chosen once per
//! ray by its octant ([`OctantRay`]) and treats leaves and inner nodes alike: the
//! nearest hit child is visited next, the others are pushed farthest first with their
//! entry parameter (pruned when popped after the best hit shrank the ray). The boxes
//! are the shared tree's (the padded triangle boxes and their unions), so culling is
//! the same and the hits are those of the per-triangle kernel. Flat triangles are left
//! out of the leaves: rays never hit them.

use super::ray::{ShearedRay, Triangles4};
use crate::algo::slab::PreparedRay;
#[cfg(doc)]
use crate::broad::simd::ray_boxes4_mask;
use crate::broad::simd::LANES;
use crate::broad::{finite_max_t, lanes, Bvh, Slot, Stack};
use crate::math::{Real, Vector};
use crate::shape::{Aabb, Ray};

/// Child code bit marking a leaf (the rest is the leaf's index).
const LEAF_BIT: u32 = 1 << 31;
/// Child code of an empty slot.
const EMPTY: u32 = u32::MAX;
/// Children of a node of the ray tree.
pub(super) const WIDE: usize = 8;

/// Rows of a node's boxes: `rows[axis]` holds the eight lower bounds on `axis`,
/// `rows[3 + axis]` the upper ones, so that a ray picks its near and far plane of each
/// axis by place ([`OctantRay`]). Empty lanes have lower bounds `+∞`, upper `−∞`.
pub(super) type Rows<S> = [[S; WIDE]; 6];

/// An inner node: eight child boxes as [`Rows`] and their codes (a node index,
/// `LEAF_BIT | leaf` or [`EMPTY`]), on four cache lines for `f32`.
#[derive(Copy, Clone, Debug)]
#[repr(C, align(64))]
struct RayNode<S: Real> {
    rows: Rows<S>,
    child: [u32; WIDE],
}

/// A ray prepared for the node kernels: origin and inverse direction, each coordinate
/// repeated in eight lanes, and for each axis where in [`Rows`] the plane it meets
/// first (`near`) and last (`far`) lies, chosen once by the sign of the inverse
/// direction as Embree does (its `nearX`/`farX` offsets). `PreparedRay` never makes
/// `1/dir = −∞`, so a zero component (`+∞`) takes the lower bound as near, as the
/// min/max ordering of the shared kernel does, NaN (`0·∞`) included. The places are
/// byte offsets into [`Rows`] (a whole row each), which the SIMD kernels add to the
/// node's address without scaling.
#[derive(Copy, Clone, Debug)]
pub(super) struct OctantRay<S: Real> {
    pub(super) origin: [[S; WIDE]; 3],
    pub(super) inv_dir: [[S; WIDE]; 3],
    near: [usize; 3],
    far: [usize; 3],
}

/// The size of a row of [`Rows`] in bytes.
const fn row_bytes<S>() -> usize {
    core::mem::size_of::<[S; WIDE]>()
}

impl<S: Real> OctantRay<S> {
    /// From a [`PreparedRay`] (its `max_t` is passed to the kernels separately).
    #[inline(always)]
    pub(super) fn new<V: Vector<Scalar = S>>(ray: &PreparedRay<V>) -> Self {
        let mut out = Self::default();
        for axis in 0..3 {
            let inv = ray.inv_dir.get(axis);
            out.origin[axis] = [ray.origin.get(axis); WIDE];
            out.inv_dir[axis] = [inv; WIDE];
            let flip = usize::from(inv < S::ZERO) * 3;
            out.near[axis] = (axis + flip) * row_bytes::<S>();
            out.far[axis] = (axis + 3 - flip) * row_bytes::<S>();
        }
        out
    }

    /// The byte offsets in [`Rows`] of the near planes: whole rows, so each row read
    /// from one lies within `Rows` (the SIMD kernels rely on it).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn near(&self) -> &[usize; 3] {
        &self.near
    }

    /// The byte offsets in [`Rows`] of the far planes (as [`near`](Self::near)).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn far(&self) -> &[usize; 3] {
        &self.far
    }

    /// The row of `rows` at byte offset `offset` (portable kernel).
    #[inline(always)]
    fn row(rows: &Rows<S>, offset: usize) -> &[S; WIDE] {
        &rows[offset / row_bytes::<S>()]
    }
}

impl<S: Real> Default for OctantRay<S> {
    /// A ray at the origin with a zero inverse direction (a placeholder to overwrite).
    fn default() -> Self {
        Self {
            origin: [[S::ZERO; WIDE]; 3],
            inv_dir: [[S::ZERO; WIDE]; 3],
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
    /// The kernel over the leaf's lanes (see [`ShearedRay::hit4`]), `K`'s: the walk's.
    #[inline(always)]
    pub(super) fn hit4<K: Kernels, V: Vector<Scalar = S>>(
        &self,
        ray: &ShearedRay<V>,
    ) -> ([S; LANES], u32, u32) {
        K::hit4(ray, &self.tris, self.lanes)
    }
}

/// The leaf test of a walk, a trait rather than a closure so that its body is inlined
/// into the walk compiled for AVX (a closure's body was called out of line there).
pub(super) trait LeafVisit<S: Real> {
    /// Tests `leaf` for ray `k` of the batch (0 for a single walk) clipped at `max_t`,
    /// with the walk's kernels `K` ([`Leaf::hit4`]); may return a smaller `max_t`
    /// (`−∞` ends the ray's walk).
    fn visit<K: Kernels>(&mut self, k: usize, leaf: &Leaf<S>, max_t: S) -> Option<S>;
}

impl<S: Real, L: LeafVisit<S>> LeafVisit<S> for &mut L {
    #[inline(always)]
    fn visit<K: Kernels>(&mut self, k: usize, leaf: &Leaf<S>, max_t: S) -> Option<S> {
        (**self).visit::<K>(k, leaf, max_t)
    }
}

/// The ray tree of a mesh (see the module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct RayTree<S: Real> {
    nodes: Vec<RayNode<S>>,
    leaves: Vec<Leaf<S>>,
    /// The processor has AVX: walks run `RayTree::walk_avx` and its batch twin (read
    /// on `x86_64` only).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    avx: bool,
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
        #[cfg(target_arch = "x86_64")]
        {
            tree.avx = std::arch::is_x86_feature_detected!("avx");
        }
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
            // Leaves hold about two triangles on average.
            tree.nodes.reserve(bvh.node_count() / 2 + 1);
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

    /// The tree without AVX, whatever the processor has (tests of the other path).
    #[cfg(test)]
    pub(crate) fn without_avx(mut self) -> Self {
        self.avx = false;
        self
    }
}

/// Twice the surface area of a box (the SAH's measure of how often rays meet it).
fn area<V: Vector>(aabb: &Aabb<V>) -> V::Scalar {
    let d = aabb.max - aabb.min;
    let (x, y, z) = (d.get(0), d.get(1), d.get(2));
    x * y + y * z + z * x
}

/// Copies node `i` of `bvh` into `nodes` as a node of up to eight children (see the
/// module docs for how the four-wide nodes are opened), and, depth first, its inner
/// descendants; `leaf(items)` stores a leaf and returns its code. Returns the node's
/// index.
fn add_node<V: Vector>(
    bvh: &Bvh<V>,
    i: usize,
    nodes: &mut Vec<RayNode<V::Scalar>>,
    leaf: &mut impl FnMut(&[u32]) -> u32,
) -> u32 {
    // The children so far (`kids[..n]`), each with, for an inner node that is not a
    // bottom one, the measure and the slot count by which it may be opened. A fixed
    // array: a heap buffer per node doubled the tree's build time.
    type Kid<V> = (Aabb<V>, Slot, Option<(<V as Vector>::Scalar, usize)>);
    let children = |c: usize| -> ([Kid<V>; LANES], usize) {
        let (boxes, slots) = bvh.node(c);
        let none = (
            Aabb {
                min: V::ZERO,
                max: V::ZERO,
            },
            Slot::Empty,
            None,
        );
        let (mut out, mut n) = ([none; LANES], 0);
        for (lane, &slot) in slots.iter().enumerate() {
            if slot == Slot::Empty {
                continue;
            }
            let aabb = boxes.get::<V>(lane);
            let open = match slot {
                Slot::Node(c) if bottom_items(bvh, c).is_none() => {
                    let k = bvh.node(c).1.iter().filter(|&&s| s != Slot::Empty).count();
                    Some((area(&aabb), k))
                }
                _ => None,
            };
            out[n] = (aabb, slot, open);
            n += 1;
        }
        (out, n)
    };
    let (first, mut n) = children(i);
    let mut kids = [first[0]; WIDE];
    kids[..n].copy_from_slice(&first[..n]);
    loop {
        let mut best: Option<(usize, V::Scalar)> = None;
        for (k, &(_, _, open)) in kids[..n].iter().enumerate() {
            let Some((a, m)) = open else { continue };
            if n - 1 + m <= WIDE && best.is_none_or(|(_, b)| a > b) {
                best = Some((k, a));
            }
        }
        let Some((k, _)) = best else { break };
        let Slot::Node(c) = kids[k].1 else { break };
        // The opened child's slots take its place, the later children move up.
        let (inner, m) = children(c);
        kids.copy_within(k + 1..n, k + m);
        kids[k..k + m].copy_from_slice(&inner[..m]);
        n += m - 1;
    }
    // The children that become leaves, as their triangles; sibling leaves whose union
    // box has less area than the two boxes together are merged while they fit in four
    // lanes (the surface area heuristic with one leaf test costing the same for one
    // to four triangles).
    let mut groups: [([u32; LANES], usize); WIDE] = [([0; LANES], 0); WIDE];
    for (k, &(_, slot, _)) in kids[..n].iter().enumerate() {
        groups[k] = match slot {
            Slot::Item(item) => ([item, 0, 0, 0], 1),
            Slot::Node(c) => bottom_items(bvh, c).unwrap_or(([0; LANES], 0)),
            Slot::Empty => ([0; LANES], 0),
        };
    }
    loop {
        let mut best: Option<(usize, usize, V::Scalar)> = None;
        for a in 0..n {
            for b in a + 1..n {
                let (ga, gb) = (groups[a].1, groups[b].1);
                if ga == 0 || gb == 0 || ga + gb > LANES {
                    continue;
                }
                let (x, y) = (&kids[a].0, &kids[b].0);
                let union = Aabb {
                    min: x.min.min(y.min),
                    max: x.max.max(y.max),
                };
                let gain = area(&union) - area(x) - area(y);
                if gain < V::Scalar::ZERO && best.is_none_or(|(_, _, g)| gain < g) {
                    best = Some((a, b, gain));
                }
            }
        }
        let Some((a, b, _)) = best else { break };
        let (ga, gb) = (groups[a].1, groups[b].1);
        let moved = groups[b].0;
        groups[a].0[ga..ga + gb].copy_from_slice(&moved[..gb]);
        groups[a].1 += gb;
        let y = kids[b].0;
        let x = &mut kids[a].0;
        *x = Aabb {
            min: x.min.min(y.min),
            max: x.max.max(y.max),
        };
        kids.copy_within(b + 1..n, b);
        groups.copy_within(b + 1..n, b);
        n -= 1;
    }
    let index = nodes.len();
    let zero = V::Scalar::ZERO;
    nodes.push(RayNode {
        rows: [[zero; WIDE]; 6],
        child: [EMPTY; WIDE],
    });
    let mut rows = [[V::Scalar::INFINITY; WIDE]; 6];
    rows[3..].fill([V::Scalar::NEG_INFINITY; WIDE]);
    let mut child = [EMPTY; WIDE];
    for (lane, &(aabb, slot, _)) in kids[..n].iter().enumerate() {
        for axis in 0..3 {
            rows[axis][lane] = aabb.min.get(axis);
            rows[3 + axis][lane] = aabb.max.get(axis);
        }
        let (items, count) = groups[lane];
        child[lane] = match slot {
            Slot::Node(c) if count == 0 => add_node(bvh, c, nodes, leaf),
            Slot::Empty => EMPTY,
            _ => leaf(&items[..count]),
        };
    }
    nodes[index] = RayNode { rows, child };
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

/// The kernels of a walk, compiled with the features the walk was compiled for: the
/// node test and the leaf test. Passed down to the leaf test as a type, so that the
/// AVX walk calls the AVX leaf kernel directly, inlined, with no feature check.
pub(super) trait Kernels {
    /// The node test: the entry parameters of a node's eight boxes `rows` (meaningful
    /// in hit lanes) and the mask of the boxes `ray` meets within `[0, max_t]` (`max_t`
    /// finite).
    fn slab<S: Real>(ray: &OctantRay<S>, rows: &Rows<S>, max_t: S) -> ([S; WIDE], u32);

    /// The leaf test, [`ShearedRay::hit4`] of `tris`' lanes in `valid`.
    fn hit4<V: Vector>(
        ray: &ShearedRay<V>,
        tris: &Triangles4<V::Scalar>,
        valid: u32,
    ) -> ([V::Scalar; LANES], u32, u32);
}

/// The kernel without run-time features: on `x86_64` two SSE halves for `f32` and four
/// SSE2 quarters for `f64` (both in that target's baseline), else the portable kernel.
pub(super) struct Baseline;

impl Kernels for Baseline {
    #[inline(always)]
    fn slab<S: Real>(ray: &OctantRay<S>, rows: &Rows<S>, max_t: S) -> ([S; WIDE], u32) {
        #[cfg(target_arch = "x86_64")]
        if let Some(out) = as_scalar(ray, rows, max_t, super::sse::slab8) {
            return out;
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(out) = as_scalar(ray, rows, max_t, super::sse::slab8_f64) {
            return out;
        }
        slab8_portable(ray, rows, [max_t; WIDE])
    }

    #[inline(always)]
    fn hit4<V: Vector>(
        ray: &ShearedRay<V>,
        tris: &Triangles4<V::Scalar>,
        valid: u32,
    ) -> ([V::Scalar; LANES], u32, u32) {
        ray.hit4(tris, valid)
    }
}

/// The AVX kernels for `f32` and `f64` (else [`Baseline`]'s): used only inside
/// [`RayTree::walk_avx`] and [`RayTree::walk_batch_avx`], which run only when the tree
/// found AVX on the processor.
#[cfg(target_arch = "x86_64")]
struct Avx;

#[cfg(target_arch = "x86_64")]
impl Kernels for Avx {
    #[inline(always)]
    fn slab<S: Real>(ray: &OctantRay<S>, rows: &Rows<S>, max_t: S) -> ([S; WIDE], u32) {
        // SAFETY: `Avx` runs only in walks started when the processor has AVX (its docs).
        let avx = |ray: &OctantRay<f32>, rows: &Rows<f32>, max_t| unsafe {
            super::avx::slab8(ray, rows, max_t)
        };
        if let Some(out) = as_scalar(ray, rows, max_t, avx) {
            return out;
        }
        // SAFETY: as above.
        let avx_f64 = |ray: &OctantRay<f64>, rows: &Rows<f64>, max_t| unsafe {
            super::avx::slab8_f64(ray, rows, max_t)
        };
        if let Some(out) = as_scalar(ray, rows, max_t, avx_f64) {
            return out;
        }
        Baseline::slab(ray, rows, max_t)
    }

    /// The `f64` leaf kernel in AVX, called directly: inside the AVX walks it is
    /// inlined (no call, no feature check per leaf); `f32` as [`Baseline`].
    #[inline(always)]
    fn hit4<V: Vector>(
        ray: &ShearedRay<V>,
        tris: &Triangles4<V::Scalar>,
        valid: u32,
    ) -> ([V::Scalar; LANES], u32, u32) {
        use core::any::Any;
        let (any_ray, any_tris) = (ray as &dyn Any, tris as &dyn Any);
        if let (Some(r), Some(t)) = (any_ray.downcast_ref(), any_tris.downcast_ref()) {
            // SAFETY: `Avx` runs only in walks started when the processor has AVX (its
            // docs).
            let (t, hit, undecided) = unsafe { super::avx::hit4_f64_inlined(r, t, valid) };
            if let Some(t) = super::ray::as_row(t) {
                return (t, hit, undecided);
            }
        }
        Baseline::hit4(ray, tris, valid)
    }
}

/// `kernel` on the ray and rows when `S` is `T` (`None` otherwise; the type test is
/// resolved at compile time).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn as_scalar<S: Real, T: Real>(
    ray: &OctantRay<S>,
    rows: &Rows<S>,
    max_t: S,
    kernel: impl FnOnce(&OctantRay<T>, &Rows<T>, T) -> ([T; WIDE], u32),
) -> Option<([S; WIDE], u32)> {
    use core::any::Any;
    let ray = (ray as &dyn Any).downcast_ref::<OctantRay<T>>()?;
    let rows = (rows as &dyn Any).downcast_ref::<Rows<T>>()?;
    let max_t = *(&max_t as &dyn Any).downcast_ref::<T>()?;
    let (t, hit) = kernel(ray, rows, max_t);
    let mut out = [S::ZERO; WIDE];
    *(&mut out as &mut dyn Any).downcast_mut::<[T; WIDE]>()? = t;
    Some((out, hit))
}

/// The portable node test, with `max_t` given as a row: per lane the entry parameter
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
pub(super) fn slab8_portable<S: Real>(
    ray: &OctantRay<S>,
    rows: &Rows<S>,
    max_t: [S; WIDE],
) -> ([S; WIDE], u32) {
    let mut enter = [S::ZERO; WIDE];
    let mut exit = max_t;
    for axis in 0..3 {
        let near = OctantRay::row(rows, ray.near[axis]);
        let far = OctantRay::row(rows, ray.far[axis]);
        let (o, inv) = (&ray.origin[axis], &ray.inv_dir[axis]);
        for lane in 0..WIDE {
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
    for lane in 0..WIDE {
        hit |= u32::from(enter[lane] <= exit[lane]) << lane;
    }
    (enter, hit)
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
    /// The clip is made finite ([`finite_max_t`]), as the node kernels require.
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
    /// over. `leaf.visit(k, leaf, max_t)` tests a leaf for ray `k` and may return a
    /// smaller `max_t` (`−∞` ends the walk).
    #[inline(always)]
    fn step<K: Kernels>(
        &mut self,
        tree: &RayTree<S>,
        k: usize,
        leaf: &mut impl LeafVisit<S>,
    ) -> bool {
        if self.current & LEAF_BIT != 0 {
            let test = &tree.leaves[(self.current & !LEAF_BIT) as usize];
            if let Some(max_t) = leaf.visit::<K>(k, test, self.max_t) {
                self.max_t = max_t;
            }
        } else if let Some(next) =
            descend::<K, S>(tree, &self.ray, self.current, self.max_t, &mut self.stack)
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

    /// Reads a word of each cache line of the current child (a node's four, a leaf's
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
            let r = &node.rows;
            core::hint::black_box((r[0][0], r[2][0], r[4][0], node.child[0]));
        }
    }
}

/// The pending children of a walk, `(code, entry t)`, newest last.
trait Pending<S: Real> {
    /// Adds an entry.
    fn push(&mut self, entry: (u32, S));
    /// Takes the newest entry off.
    fn pop(&mut self) -> Option<(u32, S)>;
}

impl<S: Real> Pending<S> for Stack<(u32, S)> {
    #[inline(always)]
    fn push(&mut self, entry: (u32, S)) {
        Stack::push(self, entry);
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<(u32, S)> {
        Stack::pop(self)
    }
}

/// Entries a single-ray walk holds inline ([`LocalStack`]): a walk pushes at most seven
/// a level, so six levels of eight-wide nodes fit whatever the order.
const LOCAL_INLINE: usize = 48;

/// A single-ray walk's stack as references to three separate locals, so that only the
/// spill buffer's address reaches the (out of line) growth call and the length can stay
/// in a register (as one struct, every push and pop stored the length to memory).
struct LocalStack<'a, S: Real> {
    inline: &'a mut [(u32, S); LOCAL_INLINE],
    len: &'a mut usize,
    spill: &'a mut Vec<(u32, S)>,
}

impl<S: Real> Pending<S> for LocalStack<'_, S> {
    #[inline(always)]
    fn push(&mut self, entry: (u32, S)) {
        match self.inline.get_mut(*self.len) {
            Some(slot) => *slot = entry,
            None => self.spill.push(entry),
        }
        *self.len += 1;
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<(u32, S)> {
        *self.len = self.len.checked_sub(1)?;
        match self.inline.get(*self.len) {
            Some(&entry) => Some(entry),
            None => self.spill.pop(),
        }
    }
}

/// One step of the near-first order at inner node `index`: tests its boxes, pushes
/// the hit children but the nearest, farthest first, with their entry parameters, and
/// returns the nearest (`None` when no box is hit within `max_t`). Children are
/// ordered by entry, ties by lane (a stable insertion sort).
#[inline(always)]
fn descend<K: Kernels, S: Real>(
    tree: &RayTree<S>,
    ray: &OctantRay<S>,
    index: u32,
    max_t: S,
    stack: &mut impl Pending<S>,
) -> Option<u32> {
    let node = &tree.nodes[index as usize];
    let (t, hit) = K::slab(ray, &node.rows, max_t);
    let first = hit.trailing_zeros() as usize;
    let rest = hit & hit.wrapping_sub(1);
    if rest == 0 {
        // At most one child hit: nothing to order.
        return (hit != 0).then(|| node.child[first]);
    }
    if rest & rest.wrapping_sub(1) == 0 {
        let second = rest.trailing_zeros() as usize;
        let (near, far) = if t[second] < t[first] {
            (second, first)
        } else {
            (first, second)
        };
        stack.push((node.child[far], t[far]));
        return Some(node.child[near]);
    }
    let mut sorted = [(S::ZERO, EMPTY); WIDE];
    let mut n = 0;
    for lane in lanes(hit) {
        let entry = (t[lane], node.child[lane]);
        let mut j = n;
        while j > 0 && entry.0 < sorted[j - 1].0 {
            sorted[j] = sorted[j - 1];
            j -= 1;
        }
        sorted[j] = entry;
        n += 1;
    }
    // Every hit lane's entry is within `max_t`.
    for &(t_enter, code) in sorted[1..n].iter().rev() {
        stack.push((code, t_enter));
    }
    Some(sorted[0].1)
}

/// The nearest pending child that still starts within `max_t`, taken off the stack;
/// `None` when none is left.
#[inline(always)]
fn pop<S: Real>(stack: &mut impl Pending<S>, max_t: S) -> Option<u32> {
    while let Some((code, t_enter)) = stack.pop() {
        if t_enter <= max_t {
            return Some(code);
        }
    }
    None
}

/// Rays walked at once by [`RayTree::walk_batch`]: enough to overlap the node reads of
/// a few rays, few enough that the walks' states stay in the first-level cache.
const IN_FLIGHT: usize = 8;

/// The tree size (nodes and leaves, in bytes) from which [`RayTree::walk_batch`]
/// interleaves its rays: a megabyte, the second-level cache of a core of current
/// server and desktop processors (Zen 4, recent Intel cores: 1 to 2 MB). The `f64`
/// bunny's tree (0.54 MB: 440 nodes, 1,335 leaves) was interleaved at the former half
/// megabyte: walked one ray at a time it takes 14% fewer instructions and 4% less time
/// (Python, one thread).
const INTERLEAVE_BYTES: usize = 1024 * 1024;

impl<S: Real> RayTree<S> {
    /// Walks `ray` to the end: `leaf.visit(0, leaf, max_t)` tests a leaf and may return
    /// a smaller `max_t` (`−∞` ends the walk). With AVX the walk is compiled for it.
    #[inline(always)]
    pub(crate) fn walk<V: Vector<Scalar = S>>(
        &self,
        ray: &Ray<V>,
        max_t: S,
        leaf: impl LeafVisit<S>,
    ) {
        #[cfg(target_arch = "x86_64")]
        if self.avx {
            // SAFETY: `avx` is set only when the processor has AVX.
            return unsafe { self.walk_avx(ray, max_t, leaf) };
        }
        self.walk_with::<Baseline, V>(ray, max_t, 0, leaf);
    }

    /// [`walk`](Self::walk) compiled for AVX, with its kernels.
    ///
    /// # Safety
    /// The processor must have AVX.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    unsafe fn walk_avx<V: Vector<Scalar = S>>(
        &self,
        ray: &Ray<V>,
        max_t: S,
        leaf: impl LeafVisit<S>,
    ) {
        self.walk_with::<Avx, V>(ray, max_t, 0, leaf);
    }

    /// [`walk`](Self::walk) with kernels `K` for ray `k` of a batch, the leaf
    /// calls in the order [`TreeWalk::step`] makes them. Inner nodes are descended in a
    /// loop of their own, so that the ray's rows can stay in registers between nodes.
    #[inline(always)]
    fn walk_with<K: Kernels, V: Vector<Scalar = S>>(
        &self,
        ray: &Ray<V>,
        max_t: S,
        k: usize,
        mut leaf: impl LeafVisit<S>,
    ) {
        let prepared = PreparedRay::new(ray, finite_max_t(max_t));
        let mut max_t = prepared.max_t;
        // `PreparedRay` made a bad ray's or clip's `max_t` −∞ (never NaN).
        if self.nodes.is_empty() || max_t < S::ZERO {
            return;
        }
        let ray = OctantRay::new(&prepared);
        let mut current = 0;
        let (mut inline, mut len, mut spill) = ([(0, S::ZERO); LOCAL_INLINE], 0, Vec::new());
        let mut stack = LocalStack {
            inline: &mut inline,
            len: &mut len,
            spill: &mut spill,
        };
        loop {
            while current & LEAF_BIT == 0 {
                current = match descend::<K, S>(self, &ray, current, max_t, &mut stack) {
                    Some(next) => next,
                    None => match pop(&mut stack, max_t) {
                        Some(next) => next,
                        None => return,
                    },
                };
            }
            let test = &self.leaves[(current & !LEAF_BIT) as usize];
            if let Some(t) = leaf.visit::<K>(k, test, max_t) {
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
    /// chaining", VLDB 2015). `leaf.visit(k, leaf, max_t)` tests a leaf for `rays[k]`; each
    /// ray's own calls come in the order [`walk`](Self::walk) makes them.
    pub(crate) fn walk_batch<V: Vector<Scalar = S>>(
        &self,
        rays: &[Ray<V>],
        max_t: S,
        leaf: impl LeafVisit<S>,
    ) {
        #[cfg(target_arch = "x86_64")]
        if self.avx {
            // SAFETY: `avx` is set only when the processor has AVX.
            return unsafe { self.walk_batch_avx(rays, max_t, leaf) };
        }
        self.walk_batch_with::<Baseline, V>(rays, max_t, leaf);
    }

    /// [`walk_batch`](Self::walk_batch) compiled for AVX, with its kernels.
    ///
    /// # Safety
    /// The processor must have AVX.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    unsafe fn walk_batch_avx<V: Vector<Scalar = S>>(
        &self,
        rays: &[Ray<V>],
        max_t: S,
        leaf: impl LeafVisit<S>,
    ) {
        self.walk_batch_with::<Avx, V>(rays, max_t, leaf);
    }

    /// [`walk_batch`](Self::walk_batch) with kernels `K`. A tree small enough to
    /// stay in the second-level cache ([`INTERLEAVE_BYTES`]) is walked one ray at a
    /// time: its reads hit the cache, so interleaving would only add its bookkeeping
    /// (15% slower on the 3,674-triangle `f32` bunny, 4% on the `f64` one). Either
    /// way each ray's leaf calls are those of [`walk`](Self::walk).
    #[inline(always)]
    fn walk_batch_with<K: Kernels, V: Vector<Scalar = S>>(
        &self,
        rays: &[Ray<V>],
        max_t: S,
        mut leaf: impl LeafVisit<S>,
    ) {
        let bytes = self.nodes.len() * core::mem::size_of::<RayNode<S>>()
            + self.leaves.len() * core::mem::size_of::<Leaf<S>>();
        if bytes < INTERLEAVE_BYTES {
            for (k, ray) in rays.iter().enumerate() {
                self.walk_with::<K, V>(ray, max_t, k, &mut leaf);
            }
            return;
        }
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
            if walk.step::<K>(self, ray, &mut leaf) {
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
    use crate::broad::simd::{ray_boxes4_mask_rows, Boxes4, SoaRay};
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

    // The portable node kernel (the `f64` and non-x86 path) gives the shared min/max
    // kernel's mask and, in hit lanes, its entries bit for bit.
    #[test]
    fn octant_kernel_matches_shared_f64() {
        let mut state = 3;
        let mut hits = 0;
        for case in 0..20_000 {
            let mut p = || DVec3::new(coord(&mut state), coord(&mut state), coord(&mut state));
            let mut boxes = [Boxes4::<f64>::EMPTY; 2];
            let mut rows = [[f64::INFINITY; WIDE]; 6];
            rows[3..].fill([f64::NEG_INFINITY; WIDE]);
            for lane in [0, 1, 2, 4, 5, 7] {
                let (a, b) = (p(), p());
                let aabb = Aabb {
                    min: a.min(b),
                    max: a.max(b),
                };
                boxes[lane / 4].set(lane % 4, &aabb);
                for axis in 0..3 {
                    rows[axis][lane] = aabb.min[axis];
                    rows[3 + axis][lane] = aabb.max[axis];
                }
            }
            let mut dir = p();
            if case % 3 == 0 {
                dir[case % 9 / 3] = if case % 2 == 0 { 0.0 } else { -0.0 };
            }
            let ray = Ray { origin: p(), dir };
            let max_t = finite_max_t([f64::INFINITY, 2.0, 0.0][case % 3]);
            let prepared = PreparedRay::new(&ray, max_t);
            let (t, hit) = slab8_portable(&OctantRay::new(&prepared), &rows, [max_t; WIDE]);
            let soa = SoaRay::new(&prepared);
            for half in 0..2 {
                let (want_t, want_hit) =
                    ray_boxes4_mask_rows(&soa, &boxes[half], 3, [max_t; LANES]);
                assert_eq!((hit >> (4 * half)) & 15, want_hit, "case {case}");
                for lane in (0..LANES).filter(|l| want_hit & (1 << l) != 0) {
                    let got = t[4 * half + lane];
                    assert_eq!(got.to_bits(), want_t[lane].to_bits(), "case {case}");
                }
            }
            hits += hit.count_ones();
        }
        assert!(hits > 2_000, "{hits} hits");
    }

    /// A seeded soup of small triangles (some flat) as corners and unit normals.
    fn soup(n: usize) -> (Vec<[glam::Vec3; 3]>, Vec<glam::Vec3>) {
        use glam::Vec3;
        let mut state = 5;
        let mut corners = Vec::new();
        for i in 0..n {
            let c = DVec3::new(coord(&mut state), coord(&mut state), coord(&mut state)).as_vec3();
            let e = |s: &mut u64| Vec3::new(coord(s) as f32, coord(s) as f32, 1.0) * 0.05;
            let (u, v) = (e(&mut state), e(&mut state));
            let w = if i % 17 == 0 {
                u * 2.0
            } else {
                Vec3::new(v.z, v.x, v.y)
            };
            corners.push([c, c + u, c + w]);
        }
        let normals = corners
            .iter()
            .map(|[a, b, c]| (*b - *a).cross(*c - *a).normalize_or_zero())
            .collect();
        (corners, normals)
    }

    /// The ray tree of the corners over their shared tree.
    fn tree(
        corners: &[[glam::Vec3; 3]],
        normals: &[glam::Vec3],
    ) -> (Bvh<glam::Vec3>, RayTree<f32>) {
        let boxes: Vec<Aabb<glam::Vec3>> = corners
            .iter()
            .map(|[a, b, c]| Aabb {
                min: a.min(*b).min(*c),
                max: a.max(*b).max(*c),
            })
            .collect();
        let bvh = Bvh::build(&boxes);
        let tree = RayTree::new(&bvh, corners, normals);
        (bvh, tree)
    }

    // Past its inline entries the single walk's stack spills and still pops in LIFO
    // order, the inline entries last.
    #[test]
    fn local_stack_spills_in_order() {
        let (mut inline, mut len, mut spill) = ([(0, 0.0f32); LOCAL_INLINE], 0, Vec::new());
        let mut stack = LocalStack {
            inline: &mut inline,
            len: &mut len,
            spill: &mut spill,
        };
        for i in 0..200u32 {
            stack.push((i, i as f32));
        }
        for i in (0..200u32).rev() {
            assert_eq!(stack.pop(), Some((i, i as f32)));
        }
        assert_eq!(stack.pop(), None);
        assert!(spill.capacity() >= 200 - LOCAL_INLINE);
    }

    // Collapsing keeps every non-flat triangle in exactly one leaf, gives nodes of at
    // most eight children and roughly halves the levels of the shared tree.
    #[test]
    fn collapse_keeps_every_triangle_once() {
        let (corners, normals) = soup(3000);
        let (bvh, tree) = tree(&corners, &normals);
        let mut seen = vec![0; corners.len()];
        for leaf in &tree.leaves {
            for lane in lanes(leaf.lanes) {
                seen[leaf.ids[lane] as usize] += 1;
            }
        }
        for (i, n) in normals.iter().enumerate() {
            assert_eq!(seen[i], usize::from(*n != glam::Vec3::ZERO), "triangle {i}");
        }
        let children: usize = tree
            .nodes
            .iter()
            .map(|n| n.child.iter().filter(|&&c| c != EMPTY).count())
            .sum();
        assert_eq!(children, tree.nodes.len() - 1 + tree.leaves.len());
        assert!(
            tree.nodes.len() * 2 < bvh.node_count(),
            "{} nodes",
            tree.nodes.len()
        );
    }

    /// Records the leaves a walk visits, per ray, and shrinks `max_t` at every third
    /// one so that pruning is exercised.
    struct Record(Vec<Vec<(u32, u32)>>);

    impl<S: Real> LeafVisit<S> for Record {
        fn visit<K: Kernels>(&mut self, k: usize, leaf: &Leaf<S>, max_t: S) -> Option<S> {
            let seen = &mut self.0[k];
            seen.push((leaf.ids[0], leaf.lanes));
            (seen.len() % 3 == 0).then_some(max_t * S::from_f64(0.75))
        }
    }

    /// Asserts that `avx`'s walk and the same tree's baseline walk record the same
    /// leaves and clips for each of `rays`, one ray at a time and in batches, at each of
    /// `max_ts`; the leaves visited.
    fn assert_walks_agree<S: Real>(avx: &RayTree<S>, rays: &[Ray<S::V3>], max_ts: [S; 2]) -> usize {
        let baseline = avx.clone().without_avx();
        let mut visited = 0;
        for max_t in max_ts {
            let one = |tree: &RayTree<S>| {
                let mut record = Record(vec![Vec::new(); rays.len()]);
                for (k, ray) in rays.iter().enumerate() {
                    let mut single = Record(vec![Vec::new()]);
                    tree.walk(ray, max_t, &mut single);
                    record.0[k] = single.0.pop().unwrap_or_default();
                }
                record.0
            };
            let batch = |tree: &RayTree<S>| {
                let mut record = Record(vec![Vec::new(); rays.len()]);
                tree.walk_batch(rays, max_t, &mut record);
                record.0
            };
            let want = one(&baseline);
            visited += want.iter().map(Vec::len).sum::<usize>();
            assert_eq!(one(avx), want);
            assert_eq!(batch(avx), want);
            assert_eq!(batch(&baseline), want);
        }
        visited
    }

    /// Records, per ray, every leaf a walk visits with the walk's leaf kernel's answer
    /// (`t` bits in decided hit lanes, the hit and undecided masks) and the portable
    /// kernel's; never clips.
    struct LeafAnswers<V: Vector> {
        sheared: Vec<Option<ShearedRay<V>>>,
        seen: Vec<Vec<LeafAnswer>>,
    }

    /// A leaf's first triangle, the `t` bits of its hit lanes, its hit and undecided
    /// masks.
    type LeafAnswer = (u32, Vec<u64>, u32, u32);

    impl<V: Vector> LeafVisit<V::Scalar> for LeafAnswers<V> {
        fn visit<K: Kernels>(
            &mut self,
            k: usize,
            leaf: &Leaf<V::Scalar>,
            _: V::Scalar,
        ) -> Option<V::Scalar> {
            let ray = self.sheared[k].as_ref()?;
            let (t, hit, undecided) = leaf.hit4::<K, V>(ray);
            let (want_t, want_hit, want_undecided) = ray.hit4_portable(&leaf.tris, leaf.lanes);
            assert_eq!((hit, undecided), (want_hit, want_undecided));
            let bits: Vec<u64> = lanes(hit).map(|l| t[l].to_f64().to_bits()).collect();
            let want: Vec<u64> = lanes(hit).map(|l| want_t[l].to_f64().to_bits()).collect();
            assert_eq!(bits, want);
            self.seen[k].push((leaf.ids[0], bits, hit, undecided));
            None
        }
    }

    /// Asserts that `avx`'s walks and the same tree's baseline walks (single and batch)
    /// get the same answers from their leaf kernels, each the portable kernel's; the hit
    /// lanes seen.
    fn assert_leaf_kernels_agree<V: Vector>(avx: &RayTree<V::Scalar>, rays: &[Ray<V>]) -> u32 {
        let baseline = avx.clone().without_avx();
        let answers = |tree: &RayTree<V::Scalar>, batch: bool| {
            let mut record = LeafAnswers {
                sheared: rays.iter().map(ShearedRay::new).collect(),
                seen: vec![Vec::new(); rays.len()],
            };
            if batch {
                tree.walk_batch(rays, V::Scalar::INFINITY, &mut record);
            } else {
                for (k, ray) in rays.iter().enumerate() {
                    let mut single = LeafAnswers {
                        sheared: vec![ShearedRay::new(ray)],
                        seen: vec![Vec::new()],
                    };
                    tree.walk(ray, V::Scalar::INFINITY, &mut single);
                    record.seen[k] = single.seen.pop().unwrap_or_default();
                }
            }
            record.seen
        };
        let want = answers(&baseline, false);
        for (tree, batch) in [(avx, false), (avx, true), (&baseline, true)] {
            assert_eq!(answers(tree, batch), want, "batch {batch}");
        }
        want.iter()
            .flatten()
            .map(|(_, _, hit, _)| hit.count_ones())
            .sum()
    }

    /// The `f64` copy of an `f32` soup (exact) and its ray tree.
    #[allow(clippy::type_complexity)]
    fn tree_f64(
        corners: &[[glam::Vec3; 3]],
        normals: &[glam::Vec3],
    ) -> (Vec<[DVec3; 3]>, RayTree<f64>) {
        let corners: Vec<[DVec3; 3]> = corners.iter().map(|c| c.map(|p| p.as_dvec3())).collect();
        let normals: Vec<DVec3> = normals.iter().map(|n| n.as_dvec3()).collect();
        let boxes: Vec<Aabb<DVec3>> = corners
            .iter()
            .map(|[a, b, c]| Aabb {
                min: a.min(*b).min(*c),
                max: a.max(*b).max(*c),
            })
            .collect();
        let tree = RayTree::new(&Bvh::build(&boxes), &corners, &normals);
        (corners, tree)
    }

    // The leaf test of the walks compiled for AVX (the AVX `f64` kernel inlined where the
    // processor has AVX) and of the baseline walks give the portable kernel's answers on
    // every leaf visited, in both precisions, one ray at a time and in batches.
    #[test]
    fn avx_and_baseline_leaf_kernels_agree() {
        let (corners, normals) = soup(12_000);
        let tree32 = tree(&corners, &normals).1;
        let (corners64, tree64) = tree_f64(&corners, &normals);
        let mut state = 31;
        // Half the rays aimed at a triangle's centre (through its leaf).
        let rays: Vec<Ray<DVec3>> = (0..1500)
            .map(|k| {
                let mut p = || DVec3::new(coord(&mut state), coord(&mut state), coord(&mut state));
                let (o, d) = (p() * 2.0, p());
                let [a, b, c] = corners64[k * 7 % corners64.len()];
                let d = if k % 2 == 0 { (a + b + c) / 3.0 - o } else { d };
                Ray { origin: o, dir: d }
            })
            .collect();
        let rays32: Vec<Ray<glam::Vec3>> = rays
            .iter()
            .map(|r| Ray {
                origin: r.origin.as_vec3(),
                dir: r.dir.as_vec3(),
            })
            .collect();
        let hits =
            assert_leaf_kernels_agree(&tree64, &rays) + assert_leaf_kernels_agree(&tree32, &rays32);
        assert!(hits > 500, "{hits} hits");
    }

    // The walk compiled for AVX (where the processor has it) and the baseline walk visit
    // the same leaves in the same order with the same clips, one ray at a time and in
    // batches.
    #[test]
    fn avx_and_baseline_walks_agree() {
        // 3,000 triangles make a tree batches walk one ray at a time, 12,000 one they
        // interleave.
        let mut interleaved = [false; 2];
        let mut visited = 0;
        for (size, n) in [3000, 12_000].into_iter().enumerate() {
            let (corners, normals) = soup(n);
            let (_, avx) = tree(&corners, &normals);
            let bytes = avx.nodes.len() * core::mem::size_of::<RayNode<f32>>()
                + avx.leaves.len() * core::mem::size_of::<Leaf<f32>>();
            interleaved[size] = bytes >= INTERLEAVE_BYTES;
            let mut state = 9;
            let rays: Vec<Ray<glam::Vec3>> = (0..3000)
                .map(|_| {
                    let mut p =
                        || DVec3::new(coord(&mut state), coord(&mut state), coord(&mut state));
                    let (o, d) = (p() * 2.0, p());
                    Ray {
                        origin: o.as_vec3(),
                        dir: d.as_vec3(),
                    }
                })
                .collect();
            visited += assert_walks_agree(&avx, &rays, [f32::INFINITY, 2.0]);
        }
        assert_eq!(interleaved, [false, true]);
        assert!(visited > 1000, "{visited} leaves");
    }

    // The `f64` walk compiled for AVX (AVX node kernel, where the processor has it) and
    // the baseline walk (SSE2 node kernel on x86_64) visit the same leaves in the same
    // order with the same clips, one ray at a time and in batches (interleaved: the
    // `f64` tree of 12,000 triangles is past `INTERLEAVE_BYTES`).
    #[test]
    fn avx_and_baseline_walks_agree_f64() {
        let (corners, normals) = soup(12_000);
        let avx = tree_f64(&corners, &normals).1;
        let bytes = avx.nodes.len() * core::mem::size_of::<RayNode<f64>>()
            + avx.leaves.len() * core::mem::size_of::<Leaf<f64>>();
        assert!(bytes >= INTERLEAVE_BYTES, "{bytes} bytes");
        let mut state = 21;
        let rays: Vec<Ray<DVec3>> = (0..3000)
            .map(|_| {
                let mut p = || DVec3::new(coord(&mut state), coord(&mut state), coord(&mut state));
                let (o, d) = (p() * 2.0, p());
                Ray { origin: o, dir: d }
            })
            .collect();
        let visited = assert_walks_agree(&avx, &rays, [f64::INFINITY, 2.0]);
        assert!(visited > 1000, "{visited} leaves");
    }
}
