//! Dynamic AABB tree: a binary tree of "fat" boxes that follows moving objects.
//!
//! References: Box2D v3 `dynamic_tree.c` and Bullet's `btDbvt` (the structure), E. Catto,
//! "Dynamic Bounding Volume Hierarchies", GDC 2019 (SAH insertion, rotations), Ericson,
//! *Real-Time Collision Detection*, 6.5.
//!
//! - Each proxy is a leaf holding a *fat* box: the tight box grown by the tree's `margin`
//!   and, optionally, stretched along the predicted displacement. Moving a proxy whose
//!   tight box still fits in its fat box costs nothing. Otherwise, when the new fat box
//!   fits in the leaf's grandparent, the leaf stays and its ancestors are refitted
//!   (Bullet's look-ahead update); else the leaf is removed and reinserted.
//! - Insertion picks the sibling with the smallest surface-area-heuristic cost: the area
//!   of the new parent plus the growth of every ancestor, by a greedy descent that stops
//!   when a lower bound on the cost below a node exceeds the best cost found
//!   (branch-and-bound). On the way back up, each ancestor tries the rotations (swaps of
//!   a child with a grandchild) that shrink the surface of its children most.
//! - Nodes live in one pool (`Vec`) with a free list: no allocation per node.
//! - A proxy may instead be *enlarged* ([`DynamicTree::enlarge_proxy`], Box2D v3's
//!   `b2DynamicTree_EnlargeProxy`): the leaf stays where it is, takes its new fat box,
//!   and only the ancestors that do not hold it yet grow, so a move costs a short walk
//!   up and no restructuring. [`DynamicTree::refit`] later shrinks the grown ancestors
//!   back to their children's unions, and [`DynamicTree::rebuild`] restores the tree's
//!   shape once the leaves have drifted (see `enlargements_since_rebuild`). This is how
//!   a world in which most shapes move every frame keeps its tree cheaply.
//! - Proxies created, reinserted or enlarged are recorded as *moved*; pair finding for
//!   moved proxies (Box2D's `UpdatePairs`) only queries those.
//!
//! Boxes are compared exactly (closed boxes; touching overlaps); ray walks use the
//! conservative slab test of [`PreparedRay`], whose one tolerance
//! ([`SLAB_EXIT_ULPS`](crate::algo::slab::SLAB_EXIT_ULPS)) makes a ray through an edge
//! or corner of a box meet it.

use super::stack::Stack;
use super::{check_aabb, finite_max_t, Defect, ProxyId};
use crate::algo::slab::{widen, PreparedRay};
use crate::math::{Real, Vector};
use crate::shape::{Aabb, Ray, ShapeError};

/// Bins of a binned SAH split in [`DynamicTree::rebuild`].
const REBUILD_BINS: usize = 16;
/// Split depth from which [`DynamicTree::rebuild`] halves ranges at the median (bounds
/// the depth of the tree and of the recursion whatever the boxes).
const REBUILD_SAH_DEPTH: u32 = 48;

/// How many times the surface of every other leaf a leaf must have for
/// [`DynamicTree::rebuild`] to hang it apart (see `lone_giant`).
const GIANT_RATIO: f64 = 4.0;

/// Index of no node.
const NULL: u32 = u32::MAX;
/// Height marking a node on the free list.
const FREE: u16 = u16::MAX;
/// A fat box is re-fattened (shrunk) when it is larger than the tight box grown by this
/// many margins (plus the predicted displacement): Box2D v2.4's `MoveProxy` rule, so a
/// proxy that once moved fast does not keep a huge box.
const SHRINK_MARGINS: f64 = 4.0;

#[derive(Copy, Clone, Debug)]
struct Node<V: Vector> {
    aabb: Aabb<V>,
    /// Parent; for a free node, the next free node.
    parent: u32,
    /// First child, `NULL` for a leaf.
    child1: u32,
    /// Second child, `NULL` for a leaf.
    child2: u32,
    /// The proxy's user data (leaves only).
    user: u32,
    /// 0 for a leaf, 1 + the larger child height otherwise, [`FREE`] on the free list.
    height: u16,
    /// True while the proxy is in the moved buffer.
    moved: bool,
}

impl<V: Vector> Node<V> {
    #[inline]
    fn is_leaf(&self) -> bool {
        self.child1 == NULL
    }
}

/// A dynamic AABB tree over proxies (boxes with a `u32` of user data), generic over the
/// vector type (2D/3D, `f32`/`f64`). See the module docs for the algorithms.
///
/// Edge behaviour: boxes with NaN or infinite coordinates, or `min > max`, are rejected
/// with the [`ShapeError`] of [`Aabb::new`]; stale handles are answered with `None` or
/// an error. Queries with NaN boxes or rays find nothing. Zero-size boxes and identical
/// boxes are fine (their pairs are reported: closed boxes touch).
#[derive(Clone, Debug)]
pub struct DynamicTree<V: Vector> {
    nodes: Vec<Node<V>>,
    root: u32,
    free: u32,
    proxy_count: usize,
    margin: V::Scalar,
    moved: Vec<ProxyId>,
    /// Leaves inserted or reinserted since the last rebuild (or since creation).
    insertions: usize,
    /// Proxies enlarged since the last rebuild (or since creation).
    enlargements: usize,
    /// True while some inner box may be larger than its children's union (after
    /// [`enlarge_proxy`](DynamicTree::enlarge_proxy), until [`refit`](DynamicTree::refit)).
    loose: bool,
    /// True while boxes grown before a
    /// [`clear_moved_leaving_slack`](DynamicTree::clear_moved_leaving_slack) may still
    /// be larger than their children's union (until the next rebuild).
    slack: bool,
    /// Counts insertions and removals (never reset): a structure built over the
    /// proxies knows from it whether they are still the same.
    membership: u64,
}

impl<V: Vector> Default for DynamicTree<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Vector> DynamicTree<V> {
    /// An empty tree with zero margin (fat boxes equal tight boxes).
    pub fn new() -> Self {
        Self {
            nodes: Vec::new(),
            root: NULL,
            free: NULL,
            proxy_count: 0,
            margin: V::Scalar::ZERO,
            moved: Vec::new(),
            insertions: 0,
            enlargements: 0,
            loose: false,
            slack: false,
            membership: 0,
        }
    }

    /// An empty tree whose fat boxes are the tight boxes grown by `margin` on every side.
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] / [`ShapeError::Negative`] for a bad `margin`.
    pub fn with_margin(margin: V::Scalar) -> Result<Self, ShapeError> {
        let margin = crate::shape::error::check_non_negative("DynamicTree", "margin", margin)?;
        Ok(Self {
            margin,
            ..Self::new()
        })
    }

    /// The fattening margin.
    pub fn margin(&self) -> V::Scalar {
        self.margin
    }

    /// Number of proxies.
    pub fn len(&self) -> usize {
        self.proxy_count
    }

    /// True when the tree holds no proxy.
    pub fn is_empty(&self) -> bool {
        self.proxy_count == 0
    }

    /// Height of the tree: 0 for a single leaf or an empty tree.
    pub fn height(&self) -> usize {
        self.node(self.root).map_or(0, |n| n.height as usize)
    }

    /// Bytes of heap memory held by the node pool and the moved buffer.
    pub fn heap_bytes(&self) -> usize {
        self.nodes.capacity() * core::mem::size_of::<Node<V>>()
            + self.moved.capacity() * core::mem::size_of::<ProxyId>()
    }

    /// Sum of the surface measures of the internal nodes divided by the root's: the SAH
    /// cost of the tree, a quality figure (lower is better). 0 for fewer than two leaves.
    pub fn area_ratio(&self) -> f64 {
        let Some(root) = self.node(self.root).filter(|n| !n.is_leaf()) else {
            return 0.0;
        };
        let inner: f64 = self
            .nodes
            .iter()
            .filter(|n| n.height != FREE && !n.is_leaf())
            .map(|n| n.aabb.surface_measure().to_f64())
            .sum();
        inner / root.aabb.surface_measure().to_f64()
    }

    /// Leaves inserted, or reinserted by [`move_proxy`](Self::move_proxy), since the last
    /// [`rebuild`](Self::rebuild): each one placed by the greedy insertion, so a figure
    /// near [`len`](Self::len) or above says most of the tree was grown incrementally
    /// and a rebuild may pay.
    pub fn insertions_since_rebuild(&self) -> usize {
        self.insertions
    }

    /// Proxies moved by [`enlarge_proxy`](Self::enlarge_proxy) since the last
    /// [`rebuild`](Self::rebuild) (each one counted per move that changed its fat box):
    /// enlarged leaves stay where they were inserted, so a figure of a few times
    /// [`len`](Self::len) says the leaves have drifted from their neighbours and a
    /// rebuild may pay.
    pub fn enlargements_since_rebuild(&self) -> usize {
        self.enlargements
    }

    /// The fat box of a live proxy.
    pub fn fat_aabb(&self, id: ProxyId) -> Option<&Aabb<V>> {
        self.leaf(id).map(|n| &n.aabb)
    }

    /// The user data of a live proxy.
    pub fn user_data(&self, id: ProxyId) -> Option<u32> {
        self.leaf(id).map(|n| n.user)
    }

    /// Proxies created or reinserted since the last [`clear_moved`](Self::clear_moved).
    pub fn moved(&self) -> &[ProxyId] {
        &self.moved
    }

    /// Records a live proxy as moved without changing its box, so that the next pair
    /// update queries it again (after a change of what it may pair with); `false` for
    /// a stale handle.
    pub fn touch(&mut self, id: ProxyId) -> bool {
        let live = self.leaf(id).is_some();
        if live {
            self.mark_moved(id.0);
        }
        live
    }

    /// Empties the moved buffer (after the caller has processed the moved pairs),
    /// first refitting what [`enlarge_proxy`](Self::enlarge_proxy) grew.
    pub fn clear_moved(&mut self) {
        self.refit();
        self.forget_moved();
    }

    /// Empties the moved buffer without refitting: the inner boxes that
    /// [`enlarge_proxy`](Self::enlarge_proxy) grew stay grown until the next
    /// [`rebuild`](Self::rebuild) or [`rebuild_quick`](Self::rebuild_quick). They still
    /// hold their leaves, so every query keeps its answers and only visits more nodes.
    /// For a tree whose pairs come from elsewhere while most of its leaves move (the
    /// world's moving tree beside its moving set), where a refit would walk up from
    /// each moved leaf every step for a shape no step reads.
    pub fn clear_moved_leaving_slack(&mut self) {
        self.slack |= self.loose;
        self.loose = false;
        self.forget_moved();
    }

    fn forget_moved(&mut self) {
        for id in self.moved.drain(..) {
            self.nodes[id.index()].moved = false;
        }
    }

    #[inline]
    fn node(&self, i: u32) -> Option<&Node<V>> {
        self.nodes.get(i as usize).filter(|n| n.height != FREE)
    }

    #[inline]
    /// Counts the insertions and removals so far: unchanged while the set of proxies
    /// is (moves, refits and rebuilds leave it).
    pub(crate) fn membership(&self) -> u64 {
        self.membership
    }

    /// The live proxies, in pool order (deterministic for the same calls).
    pub(crate) fn proxies(&self) -> impl Iterator<Item = ProxyId> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.height == 0)
            .map(|(i, _)| ProxyId(i as u32))
    }

    /// A live proxy's fat box, user data and whether it is in the moved buffer, read
    /// together (one node).
    #[inline]
    pub(crate) fn leaf_state(&self, id: ProxyId) -> Option<(&Aabb<V>, u32, bool)> {
        self.leaf(id).map(|n| (&n.aabb, n.user, n.moved))
    }

    fn leaf(&self, id: ProxyId) -> Option<&Node<V>> {
        self.node(id.0).filter(|n| n.is_leaf())
    }

    /// Inserts a proxy whose tight box is `aabb`; its fat box is `aabb` grown by the margin.
    /// The new proxy is recorded as moved.
    ///
    /// # Errors
    /// The [`ShapeError`] of [`Aabb::new`] for a non-finite or inverted box;
    /// [`ShapeError::OutOfRange`] when the pool would exceed `u32` indices.
    pub fn insert(&mut self, aabb: Aabb<V>, user: u32) -> Result<ProxyId, ShapeError> {
        check_aabb(&aabb)?;
        let leaf = self.allocate()?;
        if self.root != NULL {
            // Reserve the new parent now, so that insert_leaf cannot run out of indices.
            match self.allocate() {
                Ok(spare) => self.release(spare),
                Err(e) => {
                    self.release(leaf);
                    return Err(e);
                }
            }
        }
        self.nodes[leaf as usize] = Node {
            aabb: aabb.loosened(self.margin),
            parent: NULL,
            child1: NULL,
            child2: NULL,
            user,
            height: 0,
            moved: false,
        };
        self.insert_leaf(leaf);
        self.proxy_count += 1;
        self.membership += 1;
        self.mark_moved(leaf);
        Ok(ProxyId(leaf))
    }

    /// Removes a proxy and returns its user data; `None` for a stale handle.
    pub fn remove(&mut self, id: ProxyId) -> Option<u32> {
        let user = self.leaf(id)?.user;
        if self.nodes[id.index()].moved {
            if let Some(pos) = self.moved.iter().position(|&m| m == id) {
                self.moved.swap_remove(pos);
            }
        }
        self.remove_leaf(id.0);
        self.release(id.0);
        self.proxy_count -= 1;
        self.membership += 1;
        Some(user)
    }

    /// Moves a proxy to the tight box `aabb`, expecting it to move by about `displacement`
    /// next (pass zero for no prediction). When `aabb` still fits in the fat box, and the
    /// fat box is not much too large, nothing changes and `Ok(false)` is returned.
    /// Otherwise the fat box becomes `aabb` grown by the margin and stretched by
    /// `displacement` on its side, the leaf is reinserted, recorded as moved, and
    /// `Ok(true)` is returned.
    ///
    /// # Errors
    /// The [`ShapeError`] of [`Aabb::new`] for a bad box, [`ShapeError::NotFinite`] for a
    /// non-finite displacement, [`ShapeError::OutOfRange`] for a stale handle.
    pub fn move_proxy(
        &mut self,
        id: ProxyId,
        aabb: Aabb<V>,
        displacement: V,
    ) -> Result<bool, ShapeError> {
        let Some(new_fat) = self.new_fat_box(id, &aabb, displacement)? else {
            return Ok(false);
        };
        if self.grandparent_contains(id.0, &new_fat) {
            // A small move: keep the leaf in place and refit the few ancestors it changes.
            self.nodes[id.index()].aabb = new_fat;
            self.refit_while_changed(self.nodes[id.index()].parent);
        } else {
            self.remove_leaf(id.0);
            self.nodes[id.index()].aabb = new_fat;
            self.insert_leaf(id.0);
        }
        self.mark_moved(id.0);
        Ok(true)
    }

    /// Moves a proxy as [`move_proxy`](Self::move_proxy) does, without restructuring the
    /// tree: when the fat box must change, the leaf takes the new one in place and its
    /// ancestors grow until one already holds it (Box2D v3's `EnlargeProxy`). The tree
    /// stays valid for every query (each box holds its children's); inner boxes may be
    /// larger than needed until [`refit`](Self::refit). Returns whether the fat box
    /// changed (the proxy is then recorded as moved).
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let mut tree = DynamicTree::new();
    /// let a = tree.insert(Aabb::new(Vec2::ZERO, Vec2::ONE)?, 0)?;
    /// tree.insert(Aabb::new(Vec2::splat(10.0), Vec2::splat(11.0))?, 1)?;
    /// let far = Aabb::new(Vec2::splat(20.0), Vec2::splat(21.0))?;
    /// assert!(tree.enlarge_proxy(a, far, Vec2::ZERO)?);
    /// let mut found = Vec::new();
    /// tree.query(&far, |_, user| { found.push(user); true });
    /// assert_eq!(found, [0]);
    /// tree.refit();
    /// assert!(tree.validate().is_ok());
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    /// As [`move_proxy`](Self::move_proxy).
    pub fn enlarge_proxy(
        &mut self,
        id: ProxyId,
        aabb: Aabb<V>,
        displacement: V,
    ) -> Result<bool, ShapeError> {
        let Some(new_fat) = self.new_fat_box(id, &aabb, displacement)? else {
            return Ok(false);
        };
        Ok(self.enlarge_to(id, new_fat))
    }

    /// [`enlarge_proxy`](Self::enlarge_proxy) for a caller whose boxes and
    /// displacements are finite and ordered by construction (the world's, from checked
    /// poses): the same move without their checks. `None` for a stale handle.
    #[inline]
    pub(crate) fn enlarge_proxy_trusted(
        &mut self,
        id: ProxyId,
        aabb: &Aabb<V>,
        displacement: V,
    ) -> Option<bool> {
        let fat = self.leaf(id)?.aabb;
        match self.fat_box_for(&fat, aabb, displacement) {
            Some(new_fat) => Some(self.enlarge_to(id, new_fat)),
            None => Some(false),
        }
    }

    /// Gives leaf `id` the fat box `new_fat` and grows its ancestors until one holds
    /// it; records the proxy as moved. Returns `true`.
    fn enlarge_to(&mut self, id: ProxyId, new_fat: Aabb<V>) -> bool {
        self.nodes[id.index()].aabb = new_fat;
        let mut i = self.nodes[id.index()].parent;
        while let Some(node) = self.nodes.get_mut(i as usize) {
            if node.aabb.contains(&new_fat) {
                break;
            }
            node.aabb = node.aabb.merged(&new_fat);
            i = node.parent;
        }
        self.loose = true;
        self.enlargements += 1;
        self.mark_moved(id.0);
        true
    }

    /// Shrinks the boxes that [`enlarge_proxy`](Self::enlarge_proxy) grew back to their
    /// children's unions: from each moved leaf up, until a box comes out unchanged (an
    /// unchanged box is exact, so the ones above it owe nothing to this leaf). Cheap
    /// when little moved; a no-op when nothing was enlarged. Call it before
    /// [`clear_moved`](Self::clear_moved).
    pub fn refit(&mut self) {
        if !self.loose {
            return;
        }
        for k in 0..self.moved.len() {
            let leaf = self.moved[k].index();
            self.refit_while_changed(self.nodes[leaf].parent);
        }
        self.loose = false;
    }

    /// The fat box a proxy moved to the tight box `aabb` must take, or `None` when its
    /// present one still holds `aabb` and is not much too large (see
    /// [`move_proxy`](Self::move_proxy)).
    fn new_fat_box(
        &self,
        id: ProxyId,
        aabb: &Aabb<V>,
        displacement: V,
    ) -> Result<Option<Aabb<V>>, ShapeError> {
        check_aabb(aabb)?;
        crate::shape::error::check_finite("DynamicTree", "displacement", displacement)?;
        let fat = self.leaf(id).ok_or(ShapeError::OutOfRange {
            shape: "DynamicTree",
            field: "proxy",
            value: f64::from(id.0),
            range: "live proxy handles",
        })?;
        Ok(self.fat_box_for(&fat.aabb, aabb, displacement))
    }

    /// The fat box replacing `fat` for the tight box `aabb` moving by `displacement`,
    /// or `None` when `fat` holds `aabb` and is not much too large.
    #[inline]
    fn fat_box_for(&self, fat: &Aabb<V>, aabb: &Aabb<V>, displacement: V) -> Option<Aabb<V>> {
        let shrink_margin = self.margin * V::Scalar::from_f64(SHRINK_MARGINS);
        let largest = stretched(&aabb.loosened(shrink_margin), displacement);
        if fat.contains(aabb) && largest.contains(fat) {
            return None;
        }
        Some(stretched(&aabb.loosened(self.margin), displacement))
    }

    /// Rebuilds the inner nodes from the leaves, top down: each range of leaves is split
    /// where the surface area heuristic is cheapest among 16 bins of their
    /// box centres along the axis where the centres spread most (binned SAH, Wald 2007),
    /// or at the median of the centres when they all fall in one bin. Proxies keep
    /// their handles, fat boxes and moved marks; only the shape of the tree changes.
    /// Incremental insertion keeps a tree good for objects that come and go one at a
    /// time, but a tree loaded in bulk in a spatial order (a level, a grid) grows deep: a
    /// rebuild after a bulk load gives a shallower tree of smaller SAH cost. O(n log n)
    /// for balanced splits; from split depth 48 on, ranges are halved at the median,
    /// which bounds the depth of the tree and of the recursion whatever the boxes.
    pub fn rebuild(&mut self) {
        self.rebuild_with(Split::Sah);
    }

    /// Rebuilds the inner nodes as [`rebuild`](Self::rebuild) does, splitting each range
    /// of leaves at the middle of its box centres along their widest axis (Box2D v3's
    /// `b2PartitionMid`; the median when one side would be empty) instead of by the
    /// surface area heuristic: several times faster, for a slightly costlier tree, so
    /// that a tree whose leaves all move can be rebuilt every frame.
    pub fn rebuild_quick(&mut self) {
        self.rebuild_with(Split::Midpoint);
    }

    fn rebuild_with(&mut self, how: Split) {
        self.insertions = 0;
        self.enlargements = 0;
        self.loose = false;
        self.slack = false;
        let mut leaves = Vec::with_capacity(self.proxy_count);
        let mut inner = Vec::with_capacity(self.proxy_count);
        for (i, node) in self.nodes.iter().enumerate() {
            match node.height {
                FREE => {}
                0 => leaves.push(RebuildLeaf {
                    centre: node.aabb.min + node.aabb.max,
                    aabb: node.aabb,
                    index: i as u32,
                }),
                _ => inner.push(i as u32),
            }
        }
        self.root = match leaves.len() {
            0 => NULL,
            _ => self.build_subtree(&mut leaves, &mut inner, (how, 0)).0,
        };
        if let Some(root) = self.nodes.get_mut(self.root as usize) {
            root.parent = NULL;
        }
    }

    /// The subtree over `leaves` (non-empty), its inner nodes taken from `spare` (a tree
    /// over `n` leaves has `n − 1` of them, so `spare` never runs out); returns its root,
    /// the root's box and height. Boxes come from `leaves` and the children's answers,
    /// so that no leaf node is read (they lie scattered: a read each was most of a
    /// rebuild's time).
    fn build_subtree(
        &mut self,
        leaves: &mut [RebuildLeaf<V>],
        spare: &mut Vec<u32>,
        (how, depth): (Split, u32),
    ) -> (u32, Aabb<V>, u16) {
        let (Some(parent), true) = (spare.last().copied(), leaves.len() > 1) else {
            return (leaves[0].index, leaves[0].aabb, 0);
        };
        spare.pop();
        let mid = split(leaves, how, depth);
        let (left, right) = leaves.split_at_mut(mid);
        let (c1, box1, height1) = self.build_subtree(left, spare, (how, depth + 1));
        let (c2, box2, height2) = self.build_subtree(right, spare, (how, depth + 1));
        let aabb = box1.merged(&box2);
        let height = 1 + height1.max(height2);
        self.nodes[parent as usize] = Node {
            aabb,
            parent: NULL,
            child1: c1,
            child2: c2,
            user: 0,
            height,
            moved: false,
        };
        self.nodes[c1 as usize].parent = parent;
        self.nodes[c2 as usize].parent = parent;
        (parent, aabb, height)
    }

    /// True when the leaf has a grandparent whose box holds `fat`: refitting the leaf in
    /// place then changes no box above the grandparent except by shrinking, and the tree
    /// keeps its shape (Bullet's `btDbvt::update` with a look-ahead of two levels).
    fn grandparent_contains(&self, leaf: u32, fat: &Aabb<V>) -> bool {
        let parent = self.nodes[leaf as usize].parent;
        let grand = match self.nodes.get(parent as usize) {
            Some(p) => p.parent,
            None => return false,
        };
        self.nodes
            .get(grand as usize)
            .is_some_and(|g| g.aabb.contains(fat))
    }

    /// Refits from `index` upwards until a node's box comes out unchanged.
    fn refit_while_changed(&mut self, mut index: u32) {
        while index != NULL {
            let before = self.nodes[index as usize].aabb;
            self.refit_node(index);
            if self.nodes[index as usize].aabb == before {
                return;
            }
            index = self.nodes[index as usize].parent;
        }
    }

    fn mark_moved(&mut self, leaf: u32) {
        let node = &mut self.nodes[leaf as usize];
        if !node.moved {
            node.moved = true;
            self.moved.push(ProxyId(leaf));
        }
    }

    fn allocate(&mut self) -> Result<u32, ShapeError> {
        if self.free != NULL {
            let i = self.free;
            self.free = self.nodes[i as usize].parent;
            return Ok(i);
        }
        let i = u32::try_from(self.nodes.len())
            .ok()
            .filter(|&i| i != NULL)
            .ok_or(ShapeError::OutOfRange {
                shape: "DynamicTree",
                field: "node count",
                value: self.nodes.len() as f64,
                range: "below u32::MAX",
            })?;
        self.nodes.push(Node {
            aabb: Aabb {
                min: V::ZERO,
                max: V::ZERO,
            },
            parent: NULL,
            child1: NULL,
            child2: NULL,
            user: 0,
            height: FREE,
            moved: false,
        });
        Ok(i)
    }

    fn release(&mut self, i: u32) {
        let node = &mut self.nodes[i as usize];
        node.height = FREE;
        node.parent = self.free;
        node.child1 = NULL;
        node.child2 = NULL;
        node.moved = false;
        self.free = i;
    }

    fn insert_leaf(&mut self, leaf: u32) {
        self.insertions += 1;
        if self.root == NULL {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL;
            return;
        }
        let leaf_box = self.nodes[leaf as usize].aabb;
        let sibling = self.find_best_sibling(&leaf_box);
        let old_parent = self.nodes[sibling as usize].parent;
        // A free node is waiting: insert reserved one, or remove_leaf released one.
        let new_parent = match self.allocate() {
            Ok(i) => i,
            Err(_) => return,
        };
        let sibling_node = self.nodes[sibling as usize];
        self.nodes[new_parent as usize] = Node {
            aabb: leaf_box.merged(&sibling_node.aabb),
            parent: old_parent,
            child1: sibling,
            child2: leaf,
            user: 0,
            height: sibling_node.height + 1,
            moved: false,
        };
        self.nodes[sibling as usize].parent = new_parent;
        self.nodes[leaf as usize].parent = new_parent;
        if old_parent == NULL {
            self.root = new_parent;
        } else {
            self.replace_child(old_parent, sibling, new_parent);
        }
        self.refit_ancestors(new_parent, true);
    }

    /// Greedy branch-and-bound descent for the sibling of a new leaf `d` of least SAH cost.
    fn find_best_sibling(&self, d: &Aabb<V>) -> u32 {
        let area_d = d.surface_measure();
        let root = &self.nodes[self.root as usize];
        let mut best = self.root;
        let mut best_cost = root.aabb.merged(d).surface_measure();
        // Growth of the ancestors (so far: the root) when the leaf goes below them.
        let mut inherited = best_cost - root.aabb.surface_measure();
        let mut index = self.root;
        while !self.nodes[index as usize].is_leaf() {
            let node = &self.nodes[index as usize];
            let (c1, c2) = (node.child1, node.child2);
            let (cost1, lower1, grow1) = self.child_costs(c1, d, inherited, area_d);
            let (cost2, lower2, grow2) = self.child_costs(c2, d, inherited, area_d);
            if cost1 < best_cost && cost1 <= cost2 {
                best = c1;
                best_cost = cost1;
            } else if cost2 < best_cost {
                best = c2;
                best_cost = cost2;
            }
            if lower1 >= best_cost && lower2 >= best_cost {
                break;
            }
            (index, inherited) = if lower1 <= lower2 {
                (c1, inherited + grow1)
            } else {
                (c2, inherited + grow2)
            };
        }
        best
    }

    /// For child `c`: the cost of making it the sibling, a lower bound on the cost of any
    /// sibling below it (`∞` for a leaf), and its growth when the new leaf goes below it.
    #[inline]
    fn child_costs(
        &self,
        c: u32,
        d: &Aabb<V>,
        inherited: V::Scalar,
        area_d: V::Scalar,
    ) -> (V::Scalar, V::Scalar, V::Scalar) {
        let node = &self.nodes[c as usize];
        let direct = node.aabb.merged(d).surface_measure();
        let grow = direct - node.aabb.surface_measure();
        let lower = if node.is_leaf() {
            V::Scalar::INFINITY
        } else {
            inherited + grow + area_d
        };
        (direct + inherited, lower, grow)
    }

    fn replace_child(&mut self, parent: u32, old: u32, new: u32) {
        let p = &mut self.nodes[parent as usize];
        if p.child1 == old {
            p.child1 = new;
        } else {
            p.child2 = new;
        }
    }

    fn remove_leaf(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NULL;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let p = self.nodes[parent as usize];
        let sibling = if p.child1 == leaf { p.child2 } else { p.child1 };
        self.nodes[sibling as usize].parent = p.parent;
        if p.parent == NULL {
            self.root = sibling;
        } else {
            self.replace_child(p.parent, parent, sibling);
            self.refit_ancestors(p.parent, false);
        }
        self.release(parent);
        self.nodes[leaf as usize].parent = NULL;
    }

    /// Recomputes boxes and heights from `index` up to the root, rotating on the way when
    /// `rotate` is set.
    fn refit_ancestors(&mut self, mut index: u32, rotate: bool) {
        while index != NULL {
            self.refit_node(index);
            if rotate {
                self.rotate(index);
            }
            index = self.nodes[index as usize].parent;
        }
    }

    #[inline]
    fn refit_node(&mut self, i: u32) {
        let n = self.nodes[i as usize];
        let (a, b) = (
            &self.nodes[n.child1 as usize],
            &self.nodes[n.child2 as usize],
        );
        let aabb = a.aabb.merged(&b.aabb);
        let height = 1 + a.height.max(b.height);
        let node = &mut self.nodes[i as usize];
        node.aabb = aabb;
        node.height = height;
    }

    #[inline]
    fn area(&self, i: u32) -> V::Scalar {
        self.nodes[i as usize].aabb.surface_measure()
    }

    #[inline]
    fn union_area(&self, i: u32, j: u32) -> V::Scalar {
        let (a, b) = (&self.nodes[i as usize].aabb, &self.nodes[j as usize].aabb);
        a.merged(b).surface_measure()
    }

    /// Tries the swaps of a child of `a` with a grandchild (and of two grandchildren)
    /// and applies the one that shrinks the children's total surface most, if any.
    fn rotate(&mut self, a: u32) {
        let node = self.nodes[a as usize];
        let (b, c) = (node.child1, node.child2);
        let (bn, cn) = (self.nodes[b as usize], self.nodes[c as usize]);
        let (area_b, area_c) = (self.area(b), self.area(c));
        let zero = V::Scalar::ZERO;
        // (gain, x, y): swap subtree x with subtree y.
        let mut best = (zero, NULL, NULL);
        let mut consider = |gain: V::Scalar, x: u32, y: u32| {
            if gain > best.0 {
                best = (gain, x, y);
            }
        };
        if !cn.is_leaf() {
            let (f, g) = (cn.child1, cn.child2);
            consider(area_c - self.union_area(b, g), b, f);
            consider(area_c - self.union_area(b, f), b, g);
        }
        if !bn.is_leaf() {
            let (d, e) = (bn.child1, bn.child2);
            consider(area_b - self.union_area(c, e), c, d);
            consider(area_b - self.union_area(c, d), c, e);
            if !cn.is_leaf() {
                let (f, g) = (cn.child1, cn.child2);
                let both = area_b + area_c;
                consider(both - self.union_area(f, e) - self.union_area(d, g), d, f);
                consider(both - self.union_area(g, e) - self.union_area(f, d), d, g);
            }
        }
        let (_, x, y) = best;
        if x != NULL {
            self.swap_subtrees(x, y);
            let (px, py) = (self.nodes[x as usize].parent, self.nodes[y as usize].parent);
            // Refit the lower parents first, then `a`.
            for p in [px, py] {
                if p != a {
                    self.refit_node(p);
                }
            }
            self.refit_node(a);
        }
    }

    /// Exchanges the positions of two subtrees with different parents.
    fn swap_subtrees(&mut self, x: u32, y: u32) {
        let (px, py) = (self.nodes[x as usize].parent, self.nodes[y as usize].parent);
        self.replace_child(px, x, y);
        self.replace_child(py, y, x);
        self.nodes[x as usize].parent = py;
        self.nodes[y as usize].parent = px;
    }
}

/// A leaf of [`DynamicTree::rebuild`]: its box, the box's centre (doubled) and its node.
struct RebuildLeaf<V: Vector> {
    centre: V,
    aabb: Aabb<V>,
    index: u32,
}

/// How [`DynamicTree::rebuild_with`] splits a range of leaves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Split {
    /// The cheapest of [`REBUILD_BINS`] binned SAH cuts.
    Sah,
    /// The middle of the centres' extent.
    Midpoint,
}

/// Reorders `leaves` (two or more) into the two sides of a split (`how`, or the median
/// from depth [`REBUILD_SAH_DEPTH`] on or when no cut separates them) along the axis
/// where their centres spread most, and returns the size of the first side (in
/// `1..len`).
fn split<V: Vector>(leaves: &mut [RebuildLeaf<V>], how: Split, depth: u32) -> usize {
    let (lo, hi) = leaves.iter().fold(
        (
            V::splat(V::Scalar::INFINITY),
            V::splat(V::Scalar::NEG_INFINITY),
        ),
        |(lo, hi), l| (lo.min(l.centre), hi.max(l.centre)),
    );
    let axis = (hi - lo).max_axis();
    let (lo, width) = (lo.get(axis), hi.get(axis) - lo.get(axis));
    let scale = V::Scalar::from_f64(REBUILD_BINS as f64) / width;
    let bin = |l: &RebuildLeaf<V>| {
        let last = V::Scalar::from_f64((REBUILD_BINS - 1) as f64);
        ((l.centre.get(axis) - lo) * scale)
            .clamp_to(V::Scalar::ZERO, last)
            .to_f64() as usize
    };
    let splits = depth < REBUILD_SAH_DEPTH && scale.is_finite();
    let cut = match how {
        Split::Sah if splits => lone_giant(leaves)
            .or_else(|| cheapest_cut(leaves, &bin).map(|cut| partition(leaves, |l| bin(l) < cut))),
        Split::Midpoint if splits => {
            let middle = lo + width * V::Scalar::HALF;
            let k = partition(leaves, |l| l.centre.get(axis) < middle);
            (k > 0 && k < leaves.len()).then_some(k)
        }
        _ => None,
    };
    cut.unwrap_or_else(|| {
        let mid = leaves.len() / 2;
        leaves.select_nth_unstable_by(mid, |a, b| {
            let (ca, cb) = (a.centre.get(axis), b.centre.get(axis));
            ca.partial_cmp(&cb).unwrap_or(core::cmp::Ordering::Equal)
        });
        mid
    })
}

/// Moves a leaf whose box has at least half the surface of all `leaves`' union and
/// [`GIANT_RATIO`] times that of any other leaf (a floor under a level) to the front
/// and returns 1, so that it hangs next to the subtree of the others; `None` when no
/// leaf is that large. Binned by its centre, such a box would land deep in one side
/// and widen every ancestor on its way down to the whole range, so that every query
/// would descend along it; the SAH's greedy cost does not see that (20k boxes on a
/// floor: 37 boxes tested a query, 28 with the floor apart). The second condition
/// keeps piles of like boxes from becoming chains.
fn lone_giant<V: Vector>(leaves: &mut [RebuildLeaf<V>]) -> Option<usize> {
    let zero = V::Scalar::ZERO;
    let (mut giant, mut first, mut second) = (0, zero, zero);
    let mut all = leaves[0].aabb;
    for (k, l) in leaves.iter().enumerate() {
        let m = l.aabb.surface_measure();
        if m > first {
            (giant, first, second) = (k, m, first);
        } else if m > second {
            second = m;
        }
        all = all.merged(&l.aabb);
    }
    let large = first + first >= all.surface_measure();
    let lone = first >= V::Scalar::from_f64(GIANT_RATIO) * second;
    (large && lone).then(|| {
        leaves.swap(0, giant);
        1
    })
}

/// The bin boundary (in `1..REBUILD_BINS`) of least SAH cost `area(L)·|L| +
/// area(R)·|R|` with both sides non-empty, or `None` when no boundary splits.
fn cheapest_cut<V: Vector>(
    leaves: &[RebuildLeaf<V>],
    bin: &impl Fn(&RebuildLeaf<V>) -> usize,
) -> Option<usize> {
    let empty = Aabb {
        min: V::splat(V::Scalar::INFINITY),
        max: V::splat(V::Scalar::NEG_INFINITY),
    };
    let mut bins = [(0usize, empty); REBUILD_BINS];
    for l in leaves {
        let b = &mut bins[bin(l)];
        b.0 += 1;
        b.1 = b.1.merged(&l.aabb);
    }
    // Costs of the right sides, swept from the right.
    let mut right = [V::Scalar::INFINITY; REBUILD_BINS];
    let (mut count, mut aabb) = (0usize, empty);
    for cut in (1..REBUILD_BINS).rev() {
        count += bins[cut].0;
        aabb = aabb.merged(&bins[cut].1);
        right[cut] = aabb.surface_measure() * V::Scalar::from_f64(count as f64);
    }
    let (mut count, mut aabb) = (0usize, empty);
    let mut best: Option<(V::Scalar, usize)> = None;
    for cut in 1..REBUILD_BINS {
        count += bins[cut - 1].0;
        aabb = aabb.merged(&bins[cut - 1].1);
        if count == 0 || count == leaves.len() {
            continue;
        }
        let cost = aabb.surface_measure() * V::Scalar::from_f64(count as f64) + right[cut];
        if best.is_none_or(|(c, _)| cost < c) {
            best = Some((cost, cut));
        }
    }
    best.map(|(_, cut)| cut)
}

/// Moves the items for which `left` holds to the front and returns their count.
fn partition<T>(items: &mut [T], left: impl Fn(&T) -> bool) -> usize {
    let mut split = 0;
    for k in 0..items.len() {
        if left(&items[k]) {
            items.swap(split, k);
            split += 1;
        }
    }
    split
}

/// `fat` stretched along `displacement`: the side the proxy moves towards moves out.
fn stretched<V: Vector>(fat: &Aabb<V>, displacement: V) -> Aabb<V> {
    let zero = V::ZERO;
    Aabb {
        min: fat.min + displacement.min(zero),
        max: fat.max + displacement.max(zero),
    }
}

/// Queries.
impl<V: Vector> DynamicTree<V> {
    /// Calls `f(proxy, user)` for every proxy whose fat box overlaps `aabb` (closed boxes),
    /// until `f` returns `false`. A NaN box finds nothing.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // Ten unit boxes along x, user data = their index: a box over x ∈ [2.5, 4.5]
    /// // meets boxes 2, 3 and 4 (no margin: fat boxes are the tight ones).
    /// let mut tree = DynamicTree::new();
    /// for i in 0..10u32 {
    ///     let x = i as f32;
    ///     tree.insert(Aabb::new(Vec2::new(x, 0.0), Vec2::new(x + 1.0, 1.0))?, i)?;
    /// }
    /// let mut found = Vec::new();
    /// tree.query(&Aabb::new(Vec2::new(2.5, 0.0), Vec2::new(4.5, 1.0))?, |_, user| {
    ///     found.push(user);
    ///     true // keep going
    /// });
    /// found.sort();
    /// assert_eq!(found, [2, 3, 4]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn query(&self, aabb: &Aabb<V>, mut f: impl FnMut(ProxyId, u32) -> bool) {
        if !self
            .node(self.root)
            .is_some_and(|r| r.aabb.intersects(aabb))
        {
            return;
        }
        // Children are tested before they are pushed: only overlapping nodes take a
        // push and a pop (about half of those tested in a query of a few leaves).
        let mut stack = Stack::new();
        stack.push(self.root);
        while let Some(i) = stack.pop() {
            let node = &self.nodes[i as usize];
            if node.is_leaf() {
                if !f(ProxyId(i), node.user) {
                    return;
                }
                continue;
            }
            for child in [node.child1, node.child2] {
                if self.nodes[child as usize].aabb.intersects(aabb) {
                    stack.push(child);
                }
            }
        }
    }

    /// Branch and bound (Ericson, *Real-Time Collision Detection*, 6.5.2): visits
    /// every proxy whose fat box's lower bound `bound(box)` is at most the cutoff,
    /// the child with the smaller bound first. `leaf(proxy, user, cutoff)` may return
    /// a new cutoff; the smaller of the two prunes the rest of the walk. Returns the
    /// final cutoff. A box whose bound is NaN is never visited; so a NaN `cutoff`
    /// visits nothing.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // The nearest of three boxes to the point (0, 0), by squared box distance.
    /// let mut tree = DynamicTree::new();
    /// for (user, x) in [(0, 4.0), (1, -2.0), (2, 9.0)] {
    ///     tree.insert(Aabb::from_center(Vec2::new(x, 0.0), Vec2::splat(0.5))?, user)?;
    /// }
    /// let p = Vec2::ZERO;
    /// let mut nearest = None;
    /// tree.branch_and_bound(|b| b.distance_squared_to_point(p), f32::INFINITY, |id, user, _| {
    ///     let d2 = tree.fat_aabb(id)?.distance_squared_to_point(p);
    ///     nearest = Some(user);
    ///     Some(d2)
    /// });
    /// assert_eq!(nearest, Some(1)); // the box at x = −2
    /// # Ok(())
    /// # }
    /// ```
    // `!(lower <= cutoff)` is deliberate: it is also true for NaN.
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    pub fn branch_and_bound(
        &self,
        bound: impl Fn(&Aabb<V>) -> V::Scalar,
        mut cutoff: V::Scalar,
        mut leaf: impl FnMut(ProxyId, u32, V::Scalar) -> Option<V::Scalar>,
    ) -> V::Scalar {
        let Some(root) = self.node(self.root) else {
            return cutoff;
        };
        let mut stack = Stack::new();
        stack.push((self.root, bound(&root.aabb)));
        while let Some((i, lower)) = stack.pop() {
            if !(lower <= cutoff) {
                continue;
            }
            let node = &self.nodes[i as usize];
            if node.is_leaf() {
                if let Some(c) = leaf(ProxyId(i), node.user, cutoff) {
                    cutoff = cutoff.min(c);
                }
                continue;
            }
            let near = (node.child1, bound(&self.nodes[node.child1 as usize].aabb));
            let far = (node.child2, bound(&self.nodes[node.child2 as usize].aabb));
            let (near, far) = if far.1 < near.1 {
                (far, near)
            } else {
                (near, far)
            };
            // Pushed far then near, so the near child pops first.
            stack.push(far);
            stack.push(near);
        }
        cutoff
    }

    /// Closest hit: casts `ray` over `t ∈ [0, max_t]`. For each proxy whose fat box the
    /// ray reaches before the best hit so far, `leaf(proxy, user, best_t)` returns the
    /// exact hit parameter of the object (or `None` for a miss); a value `≤ best_t` clips
    /// the ray. Returns the proxy and `t` of the closest hit. Children are visited near
    /// first. A non-finite ray, or a NaN or negative `max_t`, hits nothing; `max_t = ∞` is
    /// allowed.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // Unit balls along x at 3, 6 and 9, their boxes in the tree; the leaf test is the
    /// // exact ray cast of the ball the proxy's user data names.
    /// let balls: Vec<Ball> = [9.0, 3.0, 6.0].iter().map(|&x| Ball::new(Vec2::new(x, 0.0), 1.0)).collect::<Result<_, _>>()?;
    /// let mut tree = DynamicTree::new();
    /// for (i, b) in balls.iter().enumerate() {
    ///     tree.insert(Aabb::from_center(b.center(), Vec2::ONE)?, i as u32)?;
    /// }
    /// let ray = Ray::new(Vec2::ZERO, Vec2::X)?;
    /// let (_, t) = tree
    ///     .cast_ray(&ray, 100.0, |_, user, best_t| balls[user as usize].cast_ray(&ray, best_t).map(|h| h.t))
    ///     .expect("a ball is hit");
    /// assert_eq!(t, 2.0); // the ball at x = 3
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_ray(
        &self,
        ray: &Ray<V>,
        max_t: V::Scalar,
        mut leaf: impl FnMut(ProxyId, u32, V::Scalar) -> Option<V::Scalar>,
    ) -> Option<(ProxyId, V::Scalar)> {
        let mut prepared = PreparedRay::new(ray, finite_max_t(max_t));
        let mut best = None;
        self.ray_walk(&mut prepared, |id, user, t| {
            if let Some(hit) = leaf(id, user, t).filter(|&hit| hit <= t) {
                best = Some((id, hit));
                return Some(hit);
            }
            None
        });
        best
    }

    /// Any hit: the first proxy (in traversal order) for which `leaf(proxy, user)`
    /// confirms a hit among those whose fat box the ray reaches within `max_t`.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let ball = Ball::new(Vec2::new(5.0, 0.0), 1.0)?;
    /// let mut tree = DynamicTree::new();
    /// let id = tree.insert(Aabb::from_center(ball.center(), Vec2::ONE)?, 0)?;
    /// let ahead = Ray::new(Vec2::ZERO, Vec2::X)?;
    /// assert_eq!(tree.cast_ray_any(&ahead, 10.0, |_, _| ball.intersects_ray(&ahead, 10.0)), Some(id));
    /// // This ray crosses a corner of the ball's box but passes 1.27 from its centre.
    /// let by = Ray::new(Vec2::new(3.2, 0.0), Vec2::ONE)?;
    /// assert_eq!(tree.cast_ray_any(&by, 10.0, |_, _| ball.intersects_ray(&by, 10.0)), None);
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_ray_any(
        &self,
        ray: &Ray<V>,
        max_t: V::Scalar,
        mut leaf: impl FnMut(ProxyId, u32) -> bool,
    ) -> Option<ProxyId> {
        let mut prepared = PreparedRay::new(ray, finite_max_t(max_t));
        let mut found = None;
        self.ray_walk(&mut prepared, |id, user, _| {
            if leaf(id, user) {
                found = Some(id);
                // Clipping to −∞ ends the walk.
                return Some(V::Scalar::NEG_INFINITY);
            }
            None
        });
        found
    }

    /// All hits: calls `f(proxy, user, t_enter)` for every proxy whose fat box the ray
    /// meets within `max_t` (`t_enter` is the entry into the fat box), until `f` returns
    /// `false`.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // Three unit boxes along x at 2, 5, 8: the ray enters each box's fat box at its
    /// // left side.
    /// let mut tree = DynamicTree::new();
    /// for (i, x) in [2.0, 5.0, 8.0].into_iter().enumerate() {
    ///     tree.insert(Aabb::new(Vec2::new(x, -0.5), Vec2::new(x + 1.0, 0.5))?, i as u32)?;
    /// }
    /// let mut entries = Vec::new();
    /// tree.cast_ray_all(&Ray::new(Vec2::ZERO, Vec2::X)?, 100.0, |_, user, t| {
    ///     entries.push((user, t));
    ///     true
    /// });
    /// entries.sort_by(|a, b| a.1.total_cmp(&b.1));
    /// assert_eq!(entries, [(0, 2.0), (1, 5.0), (2, 8.0)]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_ray_all(
        &self,
        ray: &Ray<V>,
        max_t: V::Scalar,
        mut f: impl FnMut(ProxyId, u32, V::Scalar) -> bool,
    ) {
        let prepared = PreparedRay::new(ray, finite_max_t(max_t));
        if self.root == NULL {
            return;
        }
        let mut stack = Stack::new();
        stack.push(self.root);
        while let Some(i) = stack.pop() {
            let node = &self.nodes[i as usize];
            let Some((t_enter, _)) = prepared.interval(&node.aabb) else {
                continue;
            };
            if node.is_leaf() {
                if !f(ProxyId(i), node.user, t_enter) {
                    return;
                }
            } else {
                stack.push(node.child1);
                stack.push(node.child2);
            }
        }
    }

    /// Near-first walk; `visit(proxy, user, max_t)` may return a new, smaller `max_t`.
    /// Pending nodes are pruned when their entry lies beyond [`widen`]`(max_t)`, as the
    /// slab test compares entries with the clip: a box entered at the clip itself (an
    /// equal-`t` hit) is visited whatever the rounding of its entry.
    fn ray_walk(
        &self,
        ray: &mut PreparedRay<V>,
        mut visit: impl FnMut(ProxyId, u32, V::Scalar) -> Option<V::Scalar>,
    ) {
        let Some(root) = self.node(self.root) else {
            return;
        };
        let Some((t_root, _)) = ray.interval(&root.aabb) else {
            return;
        };
        let mut stack = Stack::new();
        stack.push((self.root, t_root));
        while let Some((i, t_enter)) = stack.pop() {
            if t_enter > widen(ray.max_t) {
                continue;
            }
            let node = &self.nodes[i as usize];
            if node.is_leaf() {
                if let Some(t) = visit(ProxyId(i), node.user, ray.max_t) {
                    ray.max_t = t;
                }
                continue;
            }
            let hit1 = ray.interval(&self.nodes[node.child1 as usize].aabb);
            let hit2 = ray.interval(&self.nodes[node.child2 as usize].aabb);
            let near_first = match (hit1, hit2) {
                (Some(a), Some(b)) if b.0 < a.0 => [(node.child1, a.0), (node.child2, b.0)],
                (Some(a), Some(b)) => [(node.child2, b.0), (node.child1, a.0)],
                (Some(a), None) => [(NULL, a.0), (node.child1, a.0)],
                (None, Some(b)) => [(NULL, b.0), (node.child2, b.0)],
                (None, None) => continue,
            };
            // Pushed far then near, so the near child pops first.
            for (child, t) in near_first {
                if child != NULL {
                    stack.push((child, t));
                }
            }
        }
    }

    /// Calls `f(a, b)` once for every pair of distinct proxies whose fat boxes overlap,
    /// with `a < b`, by a traversal of the tree against itself.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // Boxes [0, 1], [0.5, 1.5] and [3, 4] along x: one overlapping pair.
    /// let mut tree = DynamicTree::new();
    /// let a = tree.insert(Aabb::new(Vec2::ZERO, Vec2::ONE)?, 0)?;
    /// let b = tree.insert(Aabb::new(Vec2::new(0.5, 0.0), Vec2::new(1.5, 1.0))?, 1)?;
    /// tree.insert(Aabb::new(Vec2::new(3.0, 0.0), Vec2::new(4.0, 1.0))?, 2)?;
    /// let mut pairs = Vec::new();
    /// tree.for_each_pair(|p, q| pairs.push((p, q)));
    /// assert_eq!(pairs, [(a.min(b), a.max(b))]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn for_each_pair(&self, mut f: impl FnMut(ProxyId, ProxyId)) {
        if self.root == NULL {
            return;
        }
        let mut stack = Stack::new();
        stack.push((self.root, self.root));
        self.walk_self_pairs(&mut stack, &mut f);
    }

    /// Empties `stack`, reporting the pairs below each task on it: `(i, i)` stands for
    /// the pairs inside subtree i, `(i, j)` for those between subtrees i and j.
    fn walk_self_pairs(&self, stack: &mut Stack<(u32, u32)>, f: &mut impl FnMut(ProxyId, ProxyId)) {
        while let Some((i, j)) = stack.pop() {
            self.expand_self_task(i, j, stack, f);
        }
    }

    /// One step of [`walk_self_pairs`](Self::walk_self_pairs) on task `(i, j)`.
    #[inline]
    fn expand_self_task(
        &self,
        i: u32,
        j: u32,
        stack: &mut Stack<(u32, u32)>,
        f: &mut impl FnMut(ProxyId, ProxyId),
    ) {
        if i == j {
            let a = &self.nodes[i as usize];
            if !a.is_leaf() {
                stack.push((a.child1, a.child1));
                stack.push((a.child2, a.child2));
                stack.push((a.child1, a.child2));
            }
            return;
        }
        self.descend_pair(i, j, stack, |x, y| f(x.min(y), x.max(y)));
    }

    /// One step of a tree-vs-tree traversal: reports `(i, j)` when both are leaves with
    /// overlapping boxes, else pushes the pairs of the larger node's children.
    #[inline]
    fn descend_pair(
        &self,
        i: u32,
        j: u32,
        stack: &mut Stack<(u32, u32)>,
        mut f: impl FnMut(ProxyId, ProxyId),
    ) {
        self.descend_pair_with(self, i, j, stack, &mut f);
    }

    #[inline]
    fn descend_pair_with(
        &self,
        other: &Self,
        i: u32,
        j: u32,
        stack: &mut Stack<(u32, u32)>,
        f: &mut impl FnMut(ProxyId, ProxyId),
    ) {
        let (a, b) = (&self.nodes[i as usize], &other.nodes[j as usize]);
        if !a.aabb.intersects(&b.aabb) {
            return;
        }
        match (a.is_leaf(), b.is_leaf()) {
            (true, true) => f(ProxyId(i), ProxyId(j)),
            (false, true) => {
                stack.push((a.child1, j));
                stack.push((a.child2, j));
            }
            (true, false) => {
                stack.push((i, b.child1));
                stack.push((i, b.child2));
            }
            (false, false) if a.aabb.surface_measure() >= b.aabb.surface_measure() => {
                stack.push((a.child1, j));
                stack.push((a.child2, j));
            }
            (false, false) => {
                stack.push((i, b.child1));
                stack.push((i, b.child2));
            }
        }
    }

    /// Calls `f(a, b)` for every pair of overlapping fat boxes where `a` is in `self` and
    /// `b` in `other`.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A tree of walls and a tree of movers: only the mover overlapping a wall pairs.
    /// let (mut walls, mut movers) = (DynamicTree::new(), DynamicTree::new());
    /// let wall = walls.insert(Aabb::new(Vec2::ZERO, Vec2::new(0.5, 10.0))?, 0)?;
    /// let near = movers.insert(Aabb::new(Vec2::new(0.25, 1.0), Vec2::new(1.25, 2.0))?, 0)?;
    /// movers.insert(Aabb::new(Vec2::new(5.0, 1.0), Vec2::new(6.0, 2.0))?, 1)?;
    /// let mut pairs = Vec::new();
    /// walls.for_each_pair_with(&movers, |w, m| pairs.push((w, m)));
    /// assert_eq!(pairs, [(wall, near)]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn for_each_pair_with(&self, other: &Self, mut f: impl FnMut(ProxyId, ProxyId)) {
        if self.root == NULL || other.root == NULL {
            return;
        }
        let mut stack = Stack::new();
        stack.push((self.root, other.root));
        while let Some((i, j)) = stack.pop() {
            self.descend_pair_with(other, i, j, &mut stack, &mut f);
        }
    }

    /// Box2D's pair update: calls `f(a, b)` (with `a < b`) once for every pair of
    /// overlapping fat boxes in which at least one proxy is in the moved buffer. Call
    /// [`clear_moved`](Self::clear_moved) afterwards.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // Two far-apart boxes; after clearing the insertions, one moves onto the other:
    /// // the moved pair is reported once.
    /// let mut tree = DynamicTree::new();
    /// let a = tree.insert(Aabb::new(Vec2::ZERO, Vec2::ONE)?, 0)?;
    /// let b = tree.insert(Aabb::new(Vec2::splat(10.0), Vec2::splat(11.0))?, 1)?;
    /// tree.clear_moved();
    /// let mut pairs = Vec::new();
    /// tree.for_each_moved_pair(|p, q| pairs.push((p, q)));
    /// assert!(pairs.is_empty());
    /// tree.move_proxy(b, Aabb::new(Vec2::splat(0.5), Vec2::splat(1.5))?, Vec2::ZERO)?;
    /// tree.for_each_moved_pair(|p, q| pairs.push((p, q)));
    /// assert_eq!(pairs, [(a.min(b), a.max(b))]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn for_each_moved_pair(&self, mut f: impl FnMut(ProxyId, ProxyId)) {
        for &id in &self.moved {
            self.moved_pairs_of(id, &mut f);
        }
    }

    /// The pairs [`for_each_moved_pair`](Self::for_each_moved_pair) reports for the
    /// moved proxy `id`.
    fn moved_pairs_of(&self, id: ProxyId, f: &mut impl FnMut(ProxyId, ProxyId)) {
        let fat = self.nodes[id.index()].aabb;
        self.query(&fat, |other, _| {
            // A pair of two moved proxies is reported by the larger handle only.
            let skip = other == id || (self.nodes[other.index()].moved && other > id);
            if !skip {
                f(id.min(other), id.max(other));
            }
            true
        });
    }
}

/// Pair finding for the world, in an order that does not depend on the thread count:
/// a query per moved proxy, in chunks walked on rayon's pool with the `parallel`
/// feature, the pairs concatenated in buffer order. (The all-pairs traversal cut into
/// tasks that was here gave way to the world's 4-wide moving set, session 17.)
impl<V: Vector + Send + Sync> DynamicTree<V> {
    /// The pairs of [`for_each_moved_pair`](Self::for_each_moved_pair), in its order
    /// (moved proxies in buffer order).
    pub(crate) fn collect_moved_pairs(&self) -> Vec<(ProxyId, ProxyId)> {
        self.for_moved_chunks(|id, out| self.moved_pairs_of(id, &mut |a, b| out.push((a, b))))
    }

    /// The pairs `(user data of a moved proxy, user data found)` of a query per moved
    /// proxy, in buffer order: `query(fat box, report)` reports the other side's user
    /// data overlapping the moved proxy's fat box. Cheaper than a traversal of two
    /// trees when the moved proxies are few or spread out (a hundred balls rolling
    /// over a level of 20k boxes: 28% fewer instructions per frame).
    pub(crate) fn collect_moved_against(
        &self,
        query: impl Fn(&Aabb<V>, &mut dyn FnMut(u32)) + Sync,
    ) -> Vec<(u32, u32)> {
        self.for_moved_chunks(|id, out| {
            let node = &self.nodes[id.index()];
            query(&node.aabb, &mut |other| out.push((node.user, other)));
        })
    }

    /// Runs `each` on every moved proxy in buffer order, collecting what it pushes
    /// (chunks of 64 proxies on rayon's pool with the `parallel` feature).
    fn for_moved_chunks<T: Send>(&self, each: impl Fn(ProxyId, &mut Vec<T>) + Sync) -> Vec<T> {
        let chunk = |ids: &[ProxyId]| {
            let mut out = Vec::new();
            for &id in ids {
                each(id, &mut out);
            }
            out
        };
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            let found: Vec<_> = self.moved.par_chunks(64).map(chunk).collect();
            found.into_iter().flatten().collect()
        }
        #[cfg(not(feature = "parallel"))]
        {
            chunk(&self.moved)
        }
    }
}

/// The validator.
impl<V: Vector> DynamicTree<V> {
    /// Checks every structural invariant: parent links, each internal box equal to the
    /// union of its children's (holding them, while enlarged proxies await a
    /// [`refit`](Self::refit)), heights, the leaf count, the free list (every node is
    /// either reachable from the root or free, exactly once) and the moved buffer.
    ///
    /// # Errors
    /// A [`Defect`] describing the first broken invariant.
    pub fn validate(&self) -> Result<(), Defect> {
        let reached = self.validate_reachable()?;
        let free = self.validate_free_list()?;
        if reached + free != self.nodes.len() {
            return Err(Defect(format!(
                "{reached} reachable + {free} free nodes != pool size {}",
                self.nodes.len()
            )));
        }
        self.validate_moved()
    }

    /// Walks from the root; returns the number of nodes reached.
    fn validate_reachable(&self) -> Result<usize, Defect> {
        if self.root == NULL {
            return if self.proxy_count == 0 {
                Ok(0)
            } else {
                Err(Defect(format!(
                    "empty root with {} proxies",
                    self.proxy_count
                )))
            };
        }
        if self.node(self.root).map(|n| n.parent) != Some(NULL) {
            return Err(Defect("root is free or has a parent".into()));
        }
        let (mut reached, mut leaves) = (0usize, 0usize);
        let mut stack = vec![self.root];
        while let Some(i) = stack.pop() {
            reached += 1;
            if reached > self.nodes.len() {
                return Err(Defect("cycle: more nodes reached than exist".into()));
            }
            let node = self
                .node(i)
                .ok_or_else(|| Defect(format!("node {i} reached from the root is free")))?;
            if node.is_leaf() {
                leaves += 1;
                self.validate_leaf(i, node)?;
            } else {
                self.validate_inner(i, node)?;
                stack.extend([node.child1, node.child2]);
            }
        }
        if leaves != self.proxy_count {
            return Err(Defect(format!(
                "{leaves} leaves, {} proxies",
                self.proxy_count
            )));
        }
        Ok(reached)
    }

    fn validate_leaf(&self, i: u32, node: &Node<V>) -> Result<(), Defect> {
        if node.height != 0 || node.child2 != NULL {
            return Err(Defect(format!(
                "leaf {i} has height {} or a child",
                node.height
            )));
        }
        Ok(())
    }

    fn validate_inner(&self, i: u32, node: &Node<V>) -> Result<(), Defect> {
        let children = [node.child1, node.child2];
        let mut union: Option<Aabb<V>> = None;
        let mut height = 0;
        for c in children {
            let child = self
                .node(c)
                .ok_or_else(|| Defect(format!("node {i} has a free or missing child {c}")))?;
            if child.parent != i {
                return Err(Defect(format!(
                    "child {c} of {i} names parent {}",
                    child.parent
                )));
            }
            if !node.aabb.contains(&child.aabb) {
                return Err(Defect(format!("node {i} does not enclose child {c}")));
            }
            union = Some(union.map_or(child.aabb, |u| u.merged(&child.aabb)));
            height = height.max(child.height + 1);
        }
        if union != Some(node.aabb) && !self.loose && !self.slack {
            return Err(Defect(format!(
                "box of node {i} is not its children's union"
            )));
        }
        if node.height != height {
            return Err(Defect(format!(
                "node {i} height {} != {height}",
                node.height
            )));
        }
        Ok(())
    }

    /// Walks the free list; returns its length.
    fn validate_free_list(&self) -> Result<usize, Defect> {
        let mut count = 0;
        let mut i = self.free;
        while i != NULL {
            count += 1;
            let node = self
                .nodes
                .get(i as usize)
                .ok_or_else(|| Defect(format!("free list points outside the pool: {i}")))?;
            if node.height != FREE || count > self.nodes.len() {
                return Err(Defect(format!("free list holds live node {i} or loops")));
            }
            i = node.parent;
        }
        Ok(count)
    }

    fn validate_moved(&self) -> Result<(), Defect> {
        for (k, id) in self.moved.iter().enumerate() {
            if !self.leaf(*id).is_some_and(|n| n.moved) || self.moved[..k].contains(id) {
                return Err(Defect(format!(
                    "moved buffer entry {id:?} is stale or repeated"
                )));
            }
        }
        let flagged = self
            .nodes
            .iter()
            .filter(|n| n.height != FREE && n.moved)
            .count();
        if flagged != self.moved.len() {
            return Err(Defect(format!(
                "{flagged} nodes flagged moved, buffer holds {}",
                self.moved.len()
            )));
        }
        Ok(())
    }
}
