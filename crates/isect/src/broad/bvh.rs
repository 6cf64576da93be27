//! The static 4-wide BVH: built once by binned SAH ([`bvh_build`](super::bvh_build)),
//! refitted when its boxes move, queried with the structure-of-arrays kernels of
//! [`simd`](super::simd).
//!
//! References: I. Wald, "On fast construction of SAH-based bounding volume hierarchies"
//! (2007); multi-branching BVHs as in Embree (Wald et al. 2014, "Embree: a kernel
//! framework for efficient CPU ray tracing"); Ericson, *Real-Time Collision Detection*,
//! 6.2 and 6.3.
//!
//! Each node stores the boxes of its four children side by side, so one kernel call
//! tests a ray (or a box) against all four. Leaves are single items, stored as slots of
//! their parent: an item's box is tested inside its parent's kernel call. Nodes are
//! cache-line aligned and laid out depth first (a node's first inner child follows it),
//! since traversals are bound by memory latency more than by arithmetic. A node takes
//! 128 bytes in 3D `f32` (about 64 bytes per item); there is no per-item storage
//! beyond it. Ray walks are conservative as the slab test is
//! ([`SLAB_EXIT_ULPS`](crate::algo::slab::SLAB_EXIT_ULPS)): a ray through an edge or
//! corner of a box meets it, and a pending node or item entered within that margin of
//! the clip is still visited.

use core::marker::PhantomData;

mod nearest;

use super::bvh_build::{build, empty_box, Node4, EMPTY_SLOT, LEAF_BIT};
use super::simd::{aabb_boxes4, lane_boxes4, ray_boxes4_mask, Boxes4, SoaRay, LANES};
use super::stack::Stack;
use super::{finite_max_t, Defect};
use crate::algo::slab::{widen, PreparedRay};
use crate::math::{Real, Vector};
use crate::shape::{Aabb, Ray};

/// A static bounding volume hierarchy over a slice of boxes; items are the boxes'
/// indices in that slice.
///
/// Edge behaviour: boxes that are not finite or have `min > max` are left out of the
/// tree (never reported); so are indices from `2³¹ − 1` on. An empty slice gives an
/// empty tree, which finds nothing. NaN query boxes and non-finite rays find nothing.
/// Zero-size and identical boxes are stored and reported like any other.
#[derive(Clone, Debug)]
pub struct Bvh<V: Vector> {
    nodes: Vec<Node4<V::Scalar>>,
    len: usize,
    _vector: PhantomData<V>,
}

impl<V: Vector> Default for Bvh<V> {
    fn default() -> Self {
        Self {
            nodes: Vec::new(),
            len: 0,
            _vector: PhantomData,
        }
    }
}

/// A child slot: a leaf item, an inner node, or nothing.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Slot {
    /// A leaf: the item's index.
    Item(u32),
    /// An inner node: its index.
    Node(usize),
    /// Nothing.
    Empty,
}

#[inline]
fn slot(code: u32) -> Slot {
    if code == EMPTY_SLOT {
        Slot::Empty
    } else if code & LEAF_BIT != 0 {
        Slot::Item(code & !LEAF_BIT)
    } else {
        Slot::Node(code as usize)
    }
}

impl<V: Vector> Bvh<V> {
    /// Builds the tree over `boxes` by binned SAH (see the module docs).
    pub fn build(boxes: &[Aabb<V>]) -> Self {
        let (nodes, len) = build(boxes);
        Self {
            nodes,
            len,
            _vector: PhantomData,
        }
    }

    /// Number of items stored.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no item is stored.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of 4-wide nodes.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Bytes of heap memory held by the nodes.
    pub fn heap_bytes(&self) -> usize {
        self.nodes.capacity() * core::mem::size_of::<Node4<V::Scalar>>()
    }

    /// The box holding every item (`None` when empty).
    pub fn root_aabb(&self) -> Option<Aabb<V>> {
        self.nodes.first().map(|n| n.boxes.bounds())
    }

    /// Recomputes every node box bottom-up from `boxes` (the same indexing as at build
    /// time), keeping the topology: O(n), for objects that moved a little. An item whose
    /// new box is missing, non-finite or inverted becomes an empty slot that nothing hits
    /// (until the next refit gives it a valid box).
    pub fn refit(&mut self, boxes: &[Aabb<V>]) {
        // Children have larger indices than their parents: a reverse sweep is bottom-up.
        for i in (0..self.nodes.len()).rev() {
            for lane in 0..LANES {
                let code = self.nodes[i].child[lane];
                let aabb = match slot(code) {
                    Slot::Item(item) => boxes
                        .get(item as usize)
                        .filter(|b| b.min.is_finite() && b.max.is_finite() && b.min.all_le(b.max))
                        .copied()
                        .unwrap_or_else(empty_box),
                    Slot::Node(child) => union_of_lanes(&self.nodes[child].boxes),
                    Slot::Empty => continue,
                };
                self.nodes[i].boxes.set(lane, &aabb);
            }
        }
    }

    /// The summed surface measure ([`Aabb::surface_measure`]) of the boxes of every
    /// inner node below the root: the part of the surface area heuristic's cost that
    /// the topology decides (the items' own boxes add the same whatever the tree). A
    /// refitted tree whose leaves drifted apart sees it grow; compared with its value
    /// just after [`build`](Self::build), it tells when a rebuild pays.
    pub(crate) fn inner_surface(&self) -> f64 {
        let mut sum = 0.0;
        for node in &self.nodes {
            for lane in 0..LANES {
                let code = node.child[lane];
                if code != EMPTY_SLOT && code & LEAF_BIT == 0 {
                    sum += node.boxes.get::<V>(lane).surface_measure().to_f64();
                }
            }
        }
        sum
    }

    /// Calls `f(item)` for every item whose box overlaps `aabb` (closed boxes), until `f`
    /// returns `false`. A NaN box finds nothing.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A 10 × 10 grid of unit boxes on the floor: a box over [2.5, 4.5] × [2.5, 3.5] in
    /// // x and z meets 3 × 2 of them.
    /// let boxes: Vec<Aabb> = (0..100)
    ///     .map(|i| { let (x, z) = ((i % 10) as f32, (i / 10) as f32);
    ///         Aabb::new(Vec3::new(x, 0.0, z), Vec3::new(x + 1.0, 1.0, z + 1.0)) })
    ///     .collect::<Result<_, _>>()?;
    /// let bvh = Bvh::build(&boxes);
    /// let mut found = Vec::new();
    /// bvh.query(&Aabb::new(Vec3::new(2.5, 0.0, 2.5), Vec3::new(4.5, 1.0, 3.5))?, |i| { found.push(i); true });
    /// found.sort();
    /// assert_eq!(found, [22, 23, 24, 32, 33, 34]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn query(&self, aabb: &Aabb<V>, mut f: impl FnMut(u32) -> bool) {
        if self.nodes.is_empty() {
            return;
        }
        let mut stack = Stack::new();
        stack.push(0);
        while let Some(i) = stack.pop() {
            let node = &self.nodes[i];
            let hits = aabb_boxes4(aabb, &node.boxes);
            for (&hit, &code) in hits.iter().zip(&node.child) {
                if !hit {
                    continue;
                }
                match slot(code) {
                    Slot::Item(item) => {
                        if !f(item) {
                            return;
                        }
                    }
                    Slot::Node(child) => stack.push(child),
                    Slot::Empty => {}
                }
            }
        }
    }

    /// Closest hit over `t ∈ [0, max_t]`: for each item whose box the ray reaches before
    /// the best hit so far (or at the same `t`: boxes are closed and the slab test
    /// conservative), `leaf(item, best_t)` returns the exact hit parameter of the
    /// object (or `None`); a value `≤ best_t` clips the ray. Nodes are visited near first.
    /// Returns the item and `t` of the closest hit. A non-finite ray or a NaN or negative
    /// `max_t` hits nothing; `max_t = ∞` is allowed.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // Unit balls at x = 3, 6, 9 with their boxes in a BVH; the leaf test is exact.
    /// let balls: Vec<Ball> = [6.0, 9.0, 3.0].iter().map(|&x| Ball::new(Vec2::new(x, 0.0), 1.0)).collect::<Result<_, _>>()?;
    /// let boxes: Vec<Aabb> = balls.iter().map(|b| Aabb::from_center(b.center(), Vec2::ONE)).collect::<Result<_, _>>()?;
    /// let bvh = Bvh::build(&boxes);
    /// let ray = Ray::new(Vec2::ZERO, Vec2::X)?;
    /// let hit = bvh.cast_ray(&ray, 100.0, |i, best_t| balls[i as usize].cast_ray(&ray, best_t).map(|h| h.t));
    /// assert_eq!(hit, Some((2, 2.0))); // item 2, the ball at x = 3
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_ray(
        &self,
        ray: &Ray<V>,
        max_t: V::Scalar,
        mut leaf: impl FnMut(u32, V::Scalar) -> Option<V::Scalar>,
    ) -> Option<(u32, V::Scalar)> {
        let mut best = None;
        self.ray_walk(ray, max_t, |item, _, best_t| {
            let hit = leaf(item, best_t).filter(|&t| t <= best_t)?;
            best = Some((item, hit));
            Some(hit)
        });
        best
    }

    /// Any hit: the first item (in traversal order) for which `leaf(item)` confirms a hit
    /// among those whose box the ray meets within `max_t`.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // Shadow ray: any box between the light at (10, 0) and the point (0, 0)?
    /// let boxes = [Aabb::new(Vec2::new(4.0, 2.0), Vec2::new(5.0, 3.0))?, Aabb::new(Vec2::new(6.0, -1.0), Vec2::new(7.0, 1.0))?];
    /// let bvh = Bvh::build(&boxes);
    /// let to_light = Ray::new(Vec2::ZERO, Vec2::new(10.0, 0.0))?;
    /// assert_eq!(bvh.cast_ray_any(&to_light, 1.0, |_| true), Some(1));
    /// let high = Ray::new(Vec2::new(0.0, 5.0), Vec2::new(10.0, 0.0))?;
    /// assert_eq!(bvh.cast_ray_any(&high, 1.0, |_| true), None);
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_ray_any(
        &self,
        ray: &Ray<V>,
        max_t: V::Scalar,
        mut leaf: impl FnMut(u32) -> bool,
    ) -> Option<u32> {
        let mut found = None;
        self.ray_walk(ray, max_t, |item, _, _| {
            if leaf(item) {
                found = Some(item);
                return Some(V::Scalar::NEG_INFINITY);
            }
            None
        });
        found
    }

    /// All hits: calls `f(item, t_enter)` for every item whose box the ray meets within
    /// `max_t` (`t_enter ≤ max_t` is the entry into the box), until `f` returns `false`.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // Three unit cubes along z at 2, 5 and 8: the ray enters each at its near face.
    /// let boxes: Vec<Aabb> = [8.0, 2.0, 5.0].iter().map(|&z| Aabb::new(Vec3::new(-0.5, -0.5, z), Vec3::new(0.5, 0.5, z + 1.0))).collect::<Result<_, _>>()?;
    /// let bvh = Bvh::build(&boxes);
    /// let mut entries = Vec::new();
    /// bvh.cast_ray_all(&Ray::new(Vec3::ZERO, Vec3::Z)?, 100.0, |i, t| { entries.push((i, t)); true });
    /// entries.sort_by(|a, b| a.1.total_cmp(&b.1));
    /// assert_eq!(entries, [(1, 2.0), (2, 5.0), (0, 8.0)]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_ray_all(
        &self,
        ray: &Ray<V>,
        max_t: V::Scalar,
        mut f: impl FnMut(u32, V::Scalar) -> bool,
    ) {
        self.ray_walk(ray, max_t, |item, t_enter, clip| {
            // A grazing entry may lie beyond the clip by the slab tolerance.
            (!f(item, t_enter.min(clip))).then_some(V::Scalar::NEG_INFINITY)
        });
    }

    /// Batch closest hits: `leaf(ray_index, item, best_t)` is the per-item exact test.
    /// Result `k` is the hit of `rays[k]`, exactly as [`cast_ray`](Self::cast_ray) would
    /// find it.
    ///
    /// The rays are walked eight at a time, one node step each in turn: a walk
    /// is a chain of dependent memory reads, and the next node of one ray is read ahead
    /// (`touch`) while the others take their steps, so the reads of several rays overlap
    /// instead of waiting one after another (interleaved traversal, as in Kocberber et
    /// al., "Asynchronous memory access chaining", VLDB 2015). Rays start in the order
    /// given (sorting them by origin measured slower: the caller's per-ray data is then
    /// read out of order). `leaf` sees the rays interleaved; each ray's own calls come
    /// in the order `cast_ray` makes them.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A wall of boxes at x ∈ [5, 6] with a gap at y ∈ [2, 3]; rays along +x at
    /// // heights 0.5 .. 4.5: the one through the gap misses.
    /// let boxes: Vec<Aabb> = [0.0, 1.0, 3.0, 4.0].iter().map(|&y| Aabb::new(Vec2::new(5.0, y), Vec2::new(6.0, y + 1.0))).collect::<Result<_, _>>()?;
    /// let bvh = Bvh::build(&boxes);
    /// let rays: Vec<Ray> = (0..5).map(|k| Ray { origin: Vec2::new(0.0, k as f32 + 0.5), dir: Vec2::X }).collect();
    /// // The boxes are the objects: the exact test is the box's own ray cast.
    /// let hits = bvh.cast_rays(&rays, 100.0, |k, i, best_t| boxes[i as usize].cast_ray(&rays[k], best_t).map(|h| h.t));
    /// let ts: Vec<Option<f32>> = hits.iter().map(|h| h.map(|(_, t)| t)).collect();
    /// assert_eq!(ts, [Some(5.0), Some(5.0), None, Some(5.0), Some(5.0)]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_rays(
        &self,
        rays: &[Ray<V>],
        max_t: V::Scalar,
        mut leaf: impl FnMut(usize, u32, V::Scalar) -> Option<V::Scalar>,
    ) -> Vec<Option<(u32, V::Scalar)>> {
        let mut out = vec![None; rays.len()];
        let mut queue = 0..rays.len();
        let mut flight: Vec<(usize, RayWalk<V::Scalar>)> = Vec::with_capacity(IN_FLIGHT);
        // Starts the next ray that has anything to walk in `walk`.
        let mut start =
            |walk: &mut RayWalk<V::Scalar>| queue.find(|&k| walk.start(self, &rays[k], max_t));
        while flight.len() < IN_FLIGHT {
            let mut walk = RayWalk::new();
            let Some(k) = start(&mut walk) else { break };
            flight.push((k, walk));
        }
        let mut i = 0;
        while !flight.is_empty() {
            i = if i >= flight.len() { 0 } else { i };
            let (k, walk) = &mut flight[i];
            let ray = *k;
            let best = &mut out[ray];
            let mut visit = |item, _, best_t| {
                let hit = leaf(ray, item, best_t).filter(|&t| t <= best_t)?;
                *best = Some((item, hit));
                Some(hit)
            };
            if walk.step(&self.nodes, V::DIM, &mut visit) {
                touch(&self.nodes[walk.current as usize]);
                i += 1;
            } else if let Some(next) = start(walk) {
                *k = next;
            } else {
                flight.swap_remove(i);
            }
        }
        out
    }

    /// Near-first walk of one ray (see [`RayWalk`]). `visit(item, t_enter, max_t)` may
    /// return a new, smaller `max_t` (`−∞` ends the walk).
    fn ray_walk(
        &self,
        ray: &Ray<V>,
        max_t: V::Scalar,
        mut visit: impl FnMut(u32, V::Scalar, V::Scalar) -> Option<V::Scalar>,
    ) {
        let mut walk = RayWalk::new();
        if walk.start(self, ray, max_t) {
            while walk.step(&self.nodes, V::DIM, &mut visit) {}
        }
    }
}

/// The state of one ray's near-first walk: the ray, the current clip `max_t` and its
/// [`widen`]ed value `reach`, the node to visit next and the stack of pending nodes
/// with their entry parameters.
///
/// At each node one kernel call gives the entry parameters and the hit mask of the four
/// slots; hit items are visited, and of the hit inner children the nearest is visited
/// next without a round trip through the stack while the others are pushed farthest
/// first with their entry parameter, which prunes them when popped after `max_t` shrank.
/// Entries are compared with `reach`, as the kernel compares them: a box entered at
/// the clip itself (an equal-`t` hit) is never pruned by the rounding of its entry.
struct RayWalk<S: Real> {
    ray: SoaRay<S>,
    max_t: S,
    reach: S,
    current: u32,
    stack: Stack<(u32, S)>,
}

impl<S: Real> RayWalk<S> {
    #[inline(always)]
    fn new() -> Self {
        Self {
            ray: SoaRay::default(),
            max_t: S::NEG_INFINITY,
            reach: S::NEG_INFINITY,
            current: 0,
            stack: Stack::new(),
        }
    }

    /// Starts a walk of `ray` from the root; false when there is nothing to walk (an
    /// empty tree, a non-finite ray, a NaN or negative `max_t`).
    #[inline(always)]
    fn start<V: Vector<Scalar = S>>(&mut self, bvh: &Bvh<V>, ray: &Ray<V>, max_t: S) -> bool {
        let prepared = PreparedRay::new(ray, finite_max_t(max_t));
        // PreparedRay made a NaN or negative max_t (or a non-finite ray) −∞.
        self.clip(prepared.max_t);
        self.ray = SoaRay::new(&prepared);
        self.current = 0;
        self.stack.clear();
        !bvh.nodes.is_empty() && self.max_t >= S::ZERO
    }

    /// Visits the current node and moves to the next one; false when the walk is over.
    #[inline(always)]
    fn step(
        &mut self,
        nodes: &[Node4<S>],
        dim: usize,
        visit: &mut impl FnMut(u32, S, S) -> Option<S>,
    ) -> bool {
        let node = &nodes[self.current as usize];
        let (t, hit) = ray_boxes4_mask(&self.ray, &node.boxes, dim, self.max_t);
        for lane in lanes(hit & node.items) {
            // max_t may have shrunk since the kernel ran.
            if t[lane] <= self.reach {
                if let Some(new_max) = visit(node.child[lane] & !LEAF_BIT, t[lane], self.max_t) {
                    self.clip(new_max);
                }
            }
        }
        // Empty slots are never hit: the other hit slots are inner nodes.
        let inner = hit & !node.items;
        let next = if inner & inner.wrapping_sub(1) == 0 {
            // At most one inner child: nothing to order.
            let lane = inner.trailing_zeros() as usize;
            (inner != 0).then(|| (t[lane], node.child[lane]))
        } else if inner.count_ones() == 2 {
            let (a, b) = (
                inner.trailing_zeros() as usize,
                31 - inner.leading_zeros() as usize,
            );
            let (near, far) = if t[b] < t[a] { (b, a) } else { (a, b) };
            self.push(t[far], node.child[far]);
            Some((t[near], node.child[near]))
        } else {
            let sorted = nearest_first(&t, &node.child, inner);
            for &(t_enter, code) in sorted[1..].iter().rev() {
                self.push(t_enter, code);
            }
            Some(sorted[0])
        };
        match next {
            Some((t_enter, code)) if t_enter <= self.reach => {
                self.current = code;
                true
            }
            _ => self.pop(),
        }
    }

    /// Sets the clip to `max_t` (`−∞` ends the walk).
    #[inline(always)]
    fn clip(&mut self, max_t: S) {
        self.max_t = max_t;
        self.reach = widen(max_t);
    }

    /// Pushes a pending child (pruned at once when it starts beyond the clip).
    #[inline(always)]
    fn push(&mut self, t_enter: S, code: u32) {
        if t_enter <= self.reach {
            self.stack.push((code, t_enter));
        }
    }

    /// Makes the nearest pending node that still starts within the clip current; false
    /// when none is left.
    #[inline(always)]
    fn pop(&mut self) -> bool {
        while let Some((code, t_enter)) = self.stack.pop() {
            if t_enter <= self.reach {
                self.current = code;
                return true;
            }
        }
        false
    }
}

/// Rays walked at once by [`Bvh::cast_rays`]: enough to overlap the node reads of a few
/// rays, few enough that the walks' states stay in the first-level cache.
const IN_FLIGHT: usize = 8;

/// Reads one word of each cache line of `node` and discards it: the read starts the
/// node's fetch now, so the walk that visits it next finds it in cache.
#[inline(always)]
fn touch<S: Real>(node: &Node4<S>) {
    core::hint::black_box((node.boxes.min[0][0], node.child[0]));
}

/// The slots of `inner` (a mask of three or four lanes) as `(t_enter, code)`, nearest
/// first; lanes outside the mask sort last with `t = +∞` (never within the clip). A
/// five-exchange sorting network of conditional moves: the order is unpredictable, a
/// branchy sort would mispredict.
#[inline(always)]
fn nearest_first<S: Real>(t: &[S; LANES], child: &[u32; LANES], inner: u32) -> [(S, u32); LANES] {
    let mut out = [(S::INFINITY, EMPTY_SLOT); LANES];
    for lane in 0..LANES {
        if inner & (1 << lane) != 0 {
            out[lane] = (t[lane], child[lane]);
        }
    }
    sort_lanes(&mut out);
    out
}

/// Sorts four `(key, child)` lanes by key with a five-compare sorting network
/// (branch-free selects: the order of the lanes is data the predictor cannot learn).
#[inline(always)]
pub(crate) fn sort_lanes<S: PartialOrd + Copy>(out: &mut [(S, u32); LANES]) {
    for (i, j) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
        let (a, b) = (out[i], out[j]);
        let swap = b.0 < a.0;
        out[i] = if swap { b } else { a };
        out[j] = if swap { a } else { b };
    }
}

/// The set bits of `mask`, lowest first.
#[inline(always)]
pub(crate) fn lanes(mut mask: u32) -> impl Iterator<Item = usize> {
    core::iter::from_fn(move || {
        (mask != 0).then(|| {
            let lane = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            lane
        })
    })
}

impl<V: Vector> Bvh<V> {
    /// Calls `f(a, b)` (with `a < b`) once for every pair of distinct items whose boxes
    /// overlap (closed boxes), by a traversal of the tree against itself.
    ///
    /// Two overlapping inner nodes are descended together: each child box of one is
    /// tested against the four child boxes of the other by one 4-wide kernel call (a 4×4
    /// test). An item meeting an inner node is finished at once by a box query of that
    /// subtree, which keeps the item's box in registers and the subtree in cache.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // Unit boxes at x = 0, 0.5, 3, 3.9: two overlapping pairs.
    /// let boxes: Vec<Aabb> = [0.0, 0.5, 3.0, 3.9].iter().map(|&x| Aabb::new(Vec2::new(x, 0.0), Vec2::new(x + 1.0, 1.0))).collect::<Result<_, _>>()?;
    /// let mut pairs = Vec::new();
    /// Bvh::build(&boxes).for_each_pair(|a, b| pairs.push((a.min(b), a.max(b))));
    /// pairs.sort();
    /// assert_eq!(pairs, [(0, 1), (2, 3)]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn for_each_pair(&self, f: impl FnMut(u32, u32)) {
        if !self.nodes.is_empty() {
            self.for_each_pair_of(PairTask::ROOT, f);
        }
    }

    /// Cuts [`for_each_pair`](Self::for_each_pair) into at least `at_least`
    /// independent tasks (fewer when the tree runs out of overlapping nodes first), for
    /// threads: the node pairs are expanded breadth first, the item pairs met on the way
    /// go to `f` (`a < b`), and the tasks left are returned. `f`'s pairs and those of
    /// every task ([`for_each_pair_of`](Self::for_each_pair_of)) are together the pairs
    /// of `for_each_pair`, each once.
    pub fn pair_tasks(&self, at_least: usize, mut f: impl FnMut(u32, u32)) -> Vec<PairTask> {
        let mut queue = std::collections::VecDeque::new();
        if !self.nodes.is_empty() {
            queue.push_back(PairTask::ROOT);
        }
        let mut walk = self.pair_walk(|a: u32, b: u32| f(a.min(b), a.max(b)));
        while queue.len() < at_least {
            let Some(task) = queue.pop_front() else {
                break;
            };
            walk.run_one(task);
            while let Some(t) = walk.tasks.pop() {
                queue.push_back(t);
            }
        }
        queue.into()
    }

    /// Calls `f(a, b)` (with `a < b`) for the pairs of one task of
    /// [`pair_tasks`](Self::pair_tasks), depth first as [`for_each_pair`](Self::for_each_pair).
    pub fn for_each_pair_of(&self, task: PairTask, mut f: impl FnMut(u32, u32)) {
        let mut walk = self.pair_walk(|a: u32, b: u32| f(a.min(b), a.max(b)));
        walk.tasks.push(task);
        while let Some(t) = walk.tasks.pop() {
            walk.run_one(t);
        }
    }

    fn pair_walk<F: FnMut(u32, u32)>(&self, report: F) -> PairWalk<'_, V, F> {
        PairWalk {
            nodes: &self.nodes,
            tasks: Stack::new(),
            query: Stack::new(),
            report,
        }
    }
}

/// A task of the self traversal: the pairs inside one node's subtree (`a == b`) or
/// between the subtrees of two overlapping nodes. It names nodes of the tree that gave
/// it ([`Bvh::pair_tasks`]) and holds for that tree until its next build (a refit keeps
/// the nodes); another tree's task walks the wrong nodes or panics on an index.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PairTask {
    a: u32,
    b: u32,
}

impl PairTask {
    /// The whole tree: the pairs inside the root's subtree.
    const ROOT: PairTask = PairTask { a: 0, b: 0 };
}

/// The state of [`Bvh::for_each_pair`].
struct PairWalk<'a, V: Vector, F> {
    nodes: &'a [Node4<V::Scalar>],
    tasks: Stack<PairTask>,
    query: Stack<u32>,
    report: F,
}

impl<V: Vector, F: FnMut(u32, u32)> PairWalk<'_, V, F> {
    /// Visits one node pair: reports its item pairs, pushes its inner node pairs.
    fn run_one(&mut self, PairTask { a, b }: PairTask) {
        if a == b {
            self.inside(a as usize);
        } else {
            self.between(a as usize, b as usize);
        }
    }

    /// The pairs among the children of node `i`, and the tasks for its inner children.
    fn inside(&mut self, i: usize) {
        let node = &self.nodes[i];
        for a in 0..LANES {
            let code_a = node.child[a];
            if code_a == EMPTY_SLOT {
                continue;
            }
            if code_a & LEAF_BIT == 0 {
                self.tasks.push(PairTask {
                    a: code_a,
                    b: code_a,
                });
            }
            let hits = lane_boxes4(&node.boxes, a, &node.boxes, V::DIM);
            // Lanes after `a` only: each sibling pair once.
            let later = hits & !((2u32 << a) - 1);
            for b in lanes(later) {
                self.slots(code_a, &node.boxes, a, node.child[b], &node.boxes, b);
            }
        }
    }

    /// The pairs between the subtrees of two distinct inner nodes whose boxes overlap:
    /// every child of `a` against every child of `b`.
    fn between(&mut self, a: usize, b: usize) {
        let (node_a, node_b) = (&self.nodes[a], &self.nodes[b]);
        for la in 0..LANES {
            let code_a = node_a.child[la];
            if code_a == EMPTY_SLOT {
                continue;
            }
            let hits = lane_boxes4(&node_a.boxes, la, &node_b.boxes, V::DIM);
            for lb in lanes(hits) {
                self.slots(
                    code_a,
                    &node_a.boxes,
                    la,
                    node_b.child[lb],
                    &node_b.boxes,
                    lb,
                );
            }
        }
    }

    /// Two overlapping non-empty slots (`la` of `boxes_a`, `lb` of `boxes_b`).
    #[inline]
    fn slots(
        &mut self,
        code_a: u32,
        boxes_a: &Boxes4<V::Scalar>,
        la: usize,
        code_b: u32,
        boxes_b: &Boxes4<V::Scalar>,
        lb: usize,
    ) {
        match (code_a & LEAF_BIT != 0, code_b & LEAF_BIT != 0) {
            (true, true) => (self.report)(code_a & !LEAF_BIT, code_b & !LEAF_BIT),
            (true, false) => self.item_subtree(code_a & !LEAF_BIT, boxes_a, la, code_b),
            (false, true) => self.item_subtree(code_b & !LEAF_BIT, boxes_b, lb, code_a),
            (false, false) => self.tasks.push(PairTask {
                a: code_a,
                b: code_b,
            }),
        }
    }

    /// Reports `item` (its box in lane `lane` of `boxes`) with every item of the subtree
    /// of node `root` whose box overlaps it.
    fn item_subtree(&mut self, item: u32, boxes: &Boxes4<V::Scalar>, lane: usize, root: u32) {
        self.query.push(root);
        while let Some(i) = self.query.pop() {
            let node = &self.nodes[i as usize];
            let hits = lane_boxes4(boxes, lane, &node.boxes, V::DIM);
            for l in lanes(hits) {
                let code = node.child[l];
                if code & LEAF_BIT != 0 {
                    (self.report)(item, code & !LEAF_BIT);
                } else {
                    self.query.push(code);
                }
            }
        }
    }
}

/// The union of a node's four lanes, as [`Boxes4::bounds`] but by plain compares:
/// a refitted tree holds no NaN (a bad item box becomes an empty lane), and the
/// NaN-aware `min` and `max` cost more.
#[inline]
fn union_of_lanes<V: Vector>(boxes: &Boxes4<V::Scalar>) -> Aabb<V> {
    let lower = |a: V::Scalar, b: V::Scalar| if a < b { a } else { b };
    let upper = |a: V::Scalar, b: V::Scalar| if a > b { a } else { b };
    let mut aabb = empty_box::<V>();
    for axis in 0..V::DIM {
        let (mins, maxs) = (&boxes.min[axis], &boxes.max[axis]);
        let lo = lower(lower(mins[0], mins[1]), lower(mins[2], mins[3]));
        let hi = upper(upper(maxs[0], maxs[1]), upper(maxs[2], maxs[3]));
        aabb.min = aabb.min.with(axis, lo);
        aabb.max = aabb.max.with(axis, hi);
    }
    aabb
}

impl<V: Vector> Bvh<V> {
    /// Checks the structure: every node reached once from the root, children after
    /// parents, every inner slot's box equal to the union of its child's slots, every
    /// item stored once and flagged as an item, and the item count.
    ///
    /// # Errors
    /// A [`Defect`] describing the first broken invariant.
    pub fn validate(&self) -> Result<(), Defect> {
        let mut reached = vec![false; self.nodes.len()];
        let mut items = std::collections::HashSet::new();
        for (i, node) in self.nodes.iter().enumerate() {
            for lane in 0..LANES {
                let is_item = matches!(slot(node.child[lane]), Slot::Item(_));
                if is_item != (node.items & (1 << lane) != 0) {
                    return Err(Defect(format!("node {i} slot {lane}: wrong item flag")));
                }
                match slot(node.child[lane]) {
                    Slot::Item(item) if !items.insert(item) => {
                        return Err(Defect(format!("item {item} stored twice")));
                    }
                    Slot::Node(c) => self.validate_child(i, lane, c, &mut reached)?,
                    _ => {}
                }
            }
        }
        if reached.iter().skip(1).any(|r| !r) {
            return Err(Defect("a node is not reachable from the root".into()));
        }
        if items.len() != self.len {
            return Err(Defect(format!(
                "{} items stored, len {}",
                items.len(),
                self.len
            )));
        }
        Ok(())
    }

    fn validate_child(
        &self,
        i: usize,
        lane: usize,
        c: usize,
        reached: &mut [bool],
    ) -> Result<(), Defect> {
        if c <= i || c >= self.nodes.len() || reached[c] {
            return Err(Defect(format!(
                "node {i} slot {lane}: bad or shared child {c}"
            )));
        }
        reached[c] = true;
        let slot_box: Aabb<V> = self.nodes[i].boxes.get(lane);
        if slot_box != self.nodes[c].boxes.bounds() {
            return Err(Defect(format!(
                "node {i} slot {lane}: box is not its child's bounds"
            )));
        }
        Ok(())
    }
}
