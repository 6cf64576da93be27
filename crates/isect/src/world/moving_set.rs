//! The pair finder of the moving shapes for updates in which many of them moved: a
//! 4-wide [`Bvh`] over the moving tree's fat boxes, refitted at each such update and
//! rebuilt when the moving shapes change or when refitting has let its boxes grow, as
//! rapier's broad phase keeps its BVH (parry's `Bvh::refit` and its rebuild of a
//! degraded tree) and as Box2D v3 rebuilds its moving tree every step
//! (`b2BroadPhase_RebuildTrees`). Its self-traversal ([`Bvh::for_each_pair`]: SIMD
//! boxes, four children a node, nodes laid out depth first) finds a frame's pairs two
//! to three times faster than the dynamic tree's (BENCHMARKS.md, session 15, "The
//! broad phase alone"), and the refit reads the boxes in one pass.
//!
//! The dynamic tree stays the world's structure for everything else (scene queries
//! between updates, moving–static pairs, shapes coming and going one at a time): this
//! set only mirrors it, item `i` being the tree's proxy `proxies[i]`.
//!
//! Only pairs with a moved proxy are reported: a pair of two unmoved proxies was
//! there at the last update already (the per-proxy queries rely on the same fact), so
//! the answer is the one of the queries it replaces.

use crate::broad::{Bvh, DynamicTree, ProxyId};
use crate::math::{Real, Vector};
use crate::shape::Aabb;

/// A refitted moving set is rebuilt once the summed surface of its BVH's inner boxes
/// exceeds this many times its value just after its build
/// (the surface area heuristic's measure of the tree's quality). Chosen by
/// measurement (ARCHITECTURE.md, session 17): under the bench's random motion this
/// rebuilds every few frames.
pub const MOVING_SET_REBUILD_GROWTH: f64 = 1.3;

/// The moving set's traversal is cut into at least this many tasks (enough for rayon
/// to balance a few cores; a handful of node pairs each is still far more work than
/// the cut).
const PAIR_TASKS: usize = 64;

/// The 4-wide BVH mirror of the moving tree (see the module docs).
#[derive(Clone, Debug, Default)]
pub(super) struct MovingSet<V: Vector> {
    bvh: Bvh<V>,
    /// The tree's proxy of each item.
    proxies: Vec<ProxyId>,
    /// Each item's fat box at the last update (the BVH's input).
    boxes: Vec<Aabb<V>>,
    /// Each item's proxy's user data (the world's slot index).
    slots: Vec<u32>,
    /// Whether each item's proxy was in the tree's moved buffer at the last update.
    moved: Vec<bool>,
    /// The tree's membership count at the last build; `None` before any or after
    /// [`invalidate`](Self::invalidate).
    membership: Option<u64>,
    /// [`Bvh::inner_surface`] just after the last build.
    built_surface: f64,
    /// Builds so far (statistics for tests).
    pub builds: usize,
    /// Refits so far (statistics for tests).
    pub refits: usize,
}

impl<V: Vector> MovingSet<V> {
    /// Forgets the mirrored tree: the next [`update`](Self::update) rebuilds (for a
    /// tree replaced by another).
    pub fn invalidate(&mut self) {
        self.membership = None;
    }

    /// Brings the set up to date with `tree`'s fat boxes and moved marks: rebuilt when
    /// the tree's proxies changed since the last build, else refitted, and rebuilt
    /// after all when the refit grew the inner boxes beyond
    /// [`MOVING_SET_REBUILD_GROWTH`] times their surface at build.
    pub fn update(&mut self, tree: &DynamicTree<V>) {
        if self.membership != Some(tree.membership()) {
            self.proxies.clear();
            self.proxies.extend(tree.proxies());
            self.gather(tree);
            self.build(tree);
            return;
        }
        self.gather(tree);
        self.bvh.refit(&self.boxes);
        self.refits += 1;
        if self.bvh.inner_surface() > MOVING_SET_REBUILD_GROWTH * self.built_surface {
            self.build(tree);
        }
    }

    /// Reads every item's fat box, slot and moved mark from the tree (a proxy missing
    /// from it, which a membership check rules out, gets an empty box).
    fn gather(&mut self, tree: &DynamicTree<V>) {
        self.boxes.clear();
        self.slots.clear();
        self.moved.clear();
        let empty = Aabb {
            min: V::splat(V::Scalar::INFINITY),
            max: V::splat(V::Scalar::NEG_INFINITY),
        };
        for &p in &self.proxies {
            let (aabb, slot, moved) = tree.leaf_state(p).unwrap_or((&empty, u32::MAX, false));
            self.boxes.push(*aabb);
            self.slots.push(slot);
            self.moved.push(moved);
        }
    }

    fn build(&mut self, tree: &DynamicTree<V>) {
        self.bvh = Bvh::build(&self.boxes);
        self.built_surface = self.bvh.inner_surface();
        self.membership = Some(tree.membership());
        self.builds += 1;
    }

    /// The slot pairs of overlapping fat boxes at least one of which moved: the
    /// traversal cut into [`PAIR_TASKS`] tasks ([`Bvh::pair_tasks`]), run on rayon's
    /// pool with the `parallel` feature and concatenated in task order (without it, run
    /// one after the other into one list), so the order is the same serial, parallel
    /// and for any thread count.
    pub fn moved_pairs(&self) -> Vec<(u32, u32)> {
        let mut found = Vec::with_capacity(self.expected_pairs());
        let tasks = self
            .bvh
            .pair_tasks(PAIR_TASKS, |i, j| self.keep_moved(i, j, &mut found));
        #[cfg(feature = "parallel")]
        {
            let of_task = |&task: &crate::broad::PairTask| {
                let mut pairs = Vec::new();
                self.bvh
                    .for_each_pair_of(task, |i, j| self.keep_moved(i, j, &mut pairs));
                pairs
            };
            found.extend(super::map_in_order(&tasks, of_task).into_iter().flatten());
        }
        // One after the other, the tasks' pairs go straight to the list (no list per
        // task to concatenate): the same order.
        #[cfg(not(feature = "parallel"))]
        for task in tasks {
            self.bvh
                .for_each_pair_of(task, |i, j| self.keep_moved(i, j, &mut found));
        }
        found
    }

    /// Room for a frame's pairs: about one per item in a crowded scene (a guess for
    /// the list's first allocation; it grows as needed).
    fn expected_pairs(&self) -> usize {
        self.boxes.len()
    }

    /// Pushes the slots of items `i` and `j` when one of them moved.
    #[inline]
    fn keep_moved(&self, i: u32, j: u32, out: &mut Vec<(u32, u32)>) {
        let (i, j) = (i as usize, j as usize);
        if self.moved[i] || self.moved[j] {
            out.push((self.slots[i], self.slots[j]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    /// A small deterministic generator (xorshift), uniform in `[lo, hi)`.
    struct Gen(u64);

    impl Gen {
        fn uniform(&mut self, lo: f32, hi: f32) -> f32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            lo + (hi - lo) * ((self.0 >> 40) as f32 / (1u64 << 24) as f32)
        }

        fn point(&mut self, half: f32) -> Vec3 {
            Vec3::new(
                self.uniform(-half, half),
                self.uniform(-half, half),
                self.uniform(-half, half),
            )
        }
    }

    fn cube(at: Vec3, h: f32) -> Aabb<Vec3> {
        Aabb {
            min: at - Vec3::splat(h),
            max: at + Vec3::splat(h),
        }
    }

    /// The pairs the set reports against brute force over the tree's fat boxes (pairs
    /// with a moved proxy), both sorted.
    fn check(set: &MovingSet<Vec3>, tree: &DynamicTree<Vec3>) {
        let mut found: Vec<_> = set
            .moved_pairs()
            .into_iter()
            .map(|(a, b)| (a.min(b), a.max(b)))
            .collect();
        found.sort_unstable();
        let leaves: Vec<_> = tree.proxies().filter_map(|p| tree.leaf_state(p)).collect();
        let mut brute = Vec::new();
        for (i, (x, a, ma)) in leaves.iter().enumerate() {
            for (y, b, mb) in &leaves[i + 1..] {
                if (*ma || *mb) && x.intersects(y) {
                    brute.push((*a.min(b), *a.max(b)));
                }
            }
        }
        brute.sort_unstable();
        assert_eq!(found, brute);
    }

    // Answers equal brute force through the build, refit, growth-rebuild and
    // membership-rebuild paths.
    #[test]
    fn pairs_equal_brute_force_through_refits_and_rebuilds() {
        let mut g = Gen(0x9E37_79B9_7F4A_7C15);
        let mut tree = DynamicTree::with_margin(0.05).unwrap();
        let mut at: Vec<Vec3> = (0..600).map(|_| g.point(8.0)).collect();
        let mut ids: Vec<ProxyId> = at
            .iter()
            .enumerate()
            .map(|(i, &p)| tree.insert(cube(p, 0.4), i as u32).unwrap())
            .collect();
        let mut set = MovingSet::default();
        set.update(&tree);
        check(&set, &tree);
        assert_eq!((set.builds, set.refits), (1, 0));
        tree.clear_moved();
        // Small moves: refits only, with some proxies unmoved.
        for frame in 0..6 {
            for (k, (p, &id)) in at.iter_mut().zip(&ids).enumerate() {
                if (k + frame) % 3 != 0 {
                    *p += g.point(0.02);
                    tree.enlarge_proxy(id, cube(*p, 0.4), Vec3::ZERO).unwrap();
                }
            }
            tree.refit();
            set.update(&tree);
            check(&set, &tree);
            tree.clear_moved();
        }
        assert_eq!(set.builds, 1);
        assert_eq!(set.refits, 6);
        // Every box scattered afresh: the refitted tree's boxes grow, and it rebuilds.
        for (p, &id) in at.iter_mut().zip(&ids) {
            *p = g.point(8.0);
            tree.enlarge_proxy(id, cube(*p, 0.4), Vec3::ZERO).unwrap();
        }
        tree.refit();
        set.update(&tree);
        check(&set, &tree);
        assert_eq!(set.builds, 2);
        tree.clear_moved();
        // Removals and insertions: rebuilt for the new membership.
        for id in ids.drain(..100) {
            tree.remove(id);
        }
        for i in 0..50 {
            ids.push(tree.insert(cube(g.point(8.0), 0.3), 1000 + i).unwrap());
        }
        set.update(&tree);
        check(&set, &tree);
        assert_eq!(set.builds, 3);
        // Invalidated: rebuilt though nothing changed.
        tree.clear_moved();
        set.invalidate();
        set.update(&tree);
        check(&set, &tree);
        assert_eq!(set.builds, 4);
    }
}
