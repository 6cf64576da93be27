//! The world's step, as Box2D v3's `b2UpdateBroadPhasePairs` and `b2Collide`: new
//! pairs from the proxies whose fat box changed, then the narrow phase on the pairs
//! of the shapes that moved, then the events.
//!
//! - **Broad phase.** Static and moving shapes sit in two dynamic trees. A moved
//!   moving proxy is queried against both trees, a moved static one against the
//!   moving tree only, so static–static pairs never exist. When at least one in
//!   [`MOVING_SET_SHARE`] moving proxies moved, the moving set (a 4-wide BVH mirror
//!   of the moving tree, refitted, rebuilt when its shapes change or its boxes grew:
//!   `world::moving_set`) is traversed against itself instead of their queries of the
//!   moving tree (same pairs, less work). A pair found is added to the persistent
//!   [`PairCache`](super::pairs) unless cached.
//!   A moving shape that leaves its fat box keeps its leaf: `set_pose` enlarges the
//!   leaf's ancestors (Box2D v3's `b2DynamicTree_EnlargeProxy`), and the update first
//!   refits them ([`DynamicTree::refit`](crate::broad::DynamicTree::refit)). Once as
//!   many leaves were inserted into a tree since its last rebuild as it holds, the
//!   update rebuilds it by SAH
//!   ([`DynamicTree::rebuild`](crate::broad::DynamicTree::rebuild)); once its leaves
//!   moved in place [`REBUILD_DRIFT`] times as often, by midpoint splits
//!   ([`DynamicTree::rebuild_quick`](crate::broad::DynamicTree::rebuild_quick)).
//! - **Narrow phase.** Only the pairs of *dirty* shapes (inserted, moved, refiltered)
//!   and the new pairs are visited: a pair whose fat boxes parted, or whose filters
//!   or exclusion now forbid it, is dropped; the others get
//!   [`dispatch::contact_cached`](crate::query::dispatch::contact_cached) (or
//!   [`dispatch::contact_manifold_cached`](crate::query::dispatch::contact_manifold_cached),
//!   with a composite's further normals as
//!   [`dispatch::contact_manifolds_by_normal`](crate::query::dispatch::contact_manifolds_by_normal))
//!   when their tight boxes, grown by half the prediction each, overlap: the uncached
//!   answer, warm-started from the pair's [`ContactCache`] (the SAT axis or GJK
//!   direction that separated it at its last query,
//!   [`dispatch::warm`](crate::query::dispatch::warm)). A pair of two unmoved shapes
//!   keeps its contact without a query. With the `parallel` feature the queries run
//!   on rayon's pool; results are written back in visit order, so the answers and
//!   their order equal the serial run's.
//! - **Events.** A pair that starts or stops touching is reported once, sorted.
//!
//! Phase times are measured only with the `timing` feature (`std::time::Instant`
//! is missing on some targets, e.g. `wasm32-unknown-unknown`).

use super::{Entry, Handle, World};
use crate::algo::gjk::GjkVector;
use crate::hint::prefetch;
use crate::query::dispatch::{ContactCache, DispatchShape};
use crate::query::manifold::Manifold;
use crate::query::Contact;
use core::time::Duration;

pub use super::pairs::PairContact;

/// Fewest (re)insertions since the last rebuild for [`World::update`] to rebuild a
/// tree: small worlds keep their incremental tree.
pub const REBUILD_MIN_INSERTIONS: usize = 64;

/// Moves in place per leaf after which [`World::update`] rebuilds the moving tree.
/// A moved shape keeps its leaf (its ancestors are enlarged, then refitted), so the
/// tree's shape ages as shapes drift from their neighbours; in a scene where every
/// shape moves every frame, this rebuilds every second or third frame. Chosen by
/// measurement (ARCHITECTURE.md, "The world's broad phase").
pub const REBUILD_DRIFT: usize = 2;

/// The moving proxies' pairs come from the moving set's 4-wide BVH
/// (`world::moving_set`) when at least one in `MOVING_SET_SHARE` of them moved (a
/// refit and one self-traversal of every box), else from a query of the moving tree
/// per moved proxy. Chosen by measurement (ARCHITECTURE.md, session 17).
pub const MOVING_SET_SHARE: usize = 8;

/// An update picks the pairs of its dirty shapes by one pass over the pair cache when
/// at least one in `DIRTY_SCAN_SHARE` as many shapes as there are pairs are dirty,
/// else from the dirty shapes' pair lists. Chosen by measurement (ARCHITECTURE.md,
/// session 23).
pub const DIRTY_SCAN_SHARE: usize = 8;

/// What the last [`update`](World::update) did, and how long its phases took.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct UpdateStats {
    /// Time in the broad phase (tree upkeep, new pairs, the pairs to visit); zero
    /// without the `timing` feature.
    pub broad: Duration,
    /// Time in the narrow phase (each visited pair's fat boxes, filters and pair boxes
    /// checked, one contact query per pair whose pair boxes meet, and the results
    /// stored in the pair cache); zero without the `timing` feature.
    pub narrow: Duration,
    /// Proxies whose fat box changed (inserted, moved out of it, refiltered) and were
    /// queried for new pairs.
    pub moved: usize,
    /// Pairs in the cache (overlapping fat boxes, allowed by filters) after the update.
    pub broad_pairs: usize,
    /// Narrow-phase queries run: pairs of dirty shapes whose tight boxes, grown by
    /// the prediction, overlap.
    pub candidates: usize,
    /// Entries of [`World::contacts`] after the update: touching pairs, plus one for
    /// each further normal a pair with a composite touches along.
    pub contacts: usize,
}

/// What changed in an [`update`](World::update): pairs (`a < b`, sorted) that
/// started or stopped touching since the previous update. A removed shape's pairs
/// are in `stopped`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UpdateEvents {
    /// Pairs touching now and not at the previous update.
    pub started: Vec<(Handle, Handle)>,
    /// Pairs touching at the previous update and not now.
    pub stopped: Vec<(Handle, Handle)>,
}

/// What a visited pair needs, with its query's answer `T` when it was queried.
enum Outcome<V: GjkVector, T> {
    /// Drop it: a shape is gone, the fat boxes parted, or it may no longer pair.
    Gone,
    /// Keep it without contact: the pair boxes are apart.
    Apart,
    /// Queried: the answer and the pair's warm start after the query.
    Near(Option<T>, ContactCache<V>),
}

/// A query's answer as the pair cache stores it: the world without manifolds asks
/// for single points (the manifold of one point is built when stored, so answers stay
/// small), with manifolds for a [`Found`].
trait Answer<V: GjkVector> {
    /// The deepest point, the manifold if any, and the manifolds of the further
    /// normals a composite touches along.
    fn parts(&self) -> (&Contact<V>, Option<&Manifold<V>>, &[Manifold<V>]);
}

impl<V: GjkVector> Answer<V> for Contact<V> {
    fn parts(&self) -> (&Contact<V>, Option<&Manifold<V>>, &[Manifold<V>]) {
        (self, None, &[])
    }
}

/// A manifold query's answer: the deepest point, the manifold, and the manifolds of
/// a composite's parts touching along other normals.
type Found<V> = (Contact<V>, Manifold<V>, Vec<Manifold<V>>);

impl<V: GjkVector> Answer<V> for Found<V> {
    fn parts(&self) -> (&Contact<V>, Option<&Manifold<V>>, &[Manifold<V>]) {
        (&self.0, Some(&self.1), &self.2)
    }
}

/// A kept pair's outcome as the update applies it.
struct Step<'a, V: GjkVector> {
    /// The contact as the pair cache stores it: the deepest point and, with manifolds
    /// on, the manifold (see `PairCache::set_contact`); `None` for no contact.
    found: Option<(&'a Contact<V>, Option<&'a Manifold<V>>)>,
    /// The manifolds of the further normals a composite touches along.
    more: &'a [Manifold<V>],
    /// The pair's warm start after its query (`None`: not queried).
    warm: Option<&'a ContactCache<V>>,
}

impl<V: GjkVector, T: Answer<V>> Outcome<V, T> {
    /// The outcome as the update applies it; `None` to drop the pair.
    fn step(&self) -> Option<Step<'_, V>> {
        let (found, more, warm) = match self {
            Outcome::Gone => return None,
            Outcome::Apart => (None, &[][..], None),
            Outcome::Near(None, warm) => (None, &[][..], Some(warm)),
            Outcome::Near(Some(answer), warm) => {
                let (contact, manifold, more) = answer.parts();
                (Some((contact, manifold)), more, Some(warm))
            }
        };
        Some(Step { found, more, warm })
    }
}

/// How many pairs ahead the update's pair loops start loading a pair's shapes (and
/// twice as far its record): enough to cover a miss with a few pairs' work.
const PREFETCH_AHEAD: usize = 8;

impl<V: GjkVector, S: DispatchShape<V> + Sync> World<V, S> {
    /// Brings the contacts up to date with the poses set since the last update (see
    /// the module docs of `world::update` for the pipeline) and returns the pairs that
    /// started and stopped touching; the contacts are in [`contacts`](Self::contacts).
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // Two unit balls 1.5 apart start touching; moved 3 apart they stop.
    /// let mut world = World::new();
    /// let a = world.insert(Shape::Ball(Ball::new(Vec2::ZERO, 1.0)?), Pose::IDENTITY, Filter::ALL)?;
    /// let b = world.insert(Shape::Ball(Ball::new(Vec2::ZERO, 1.0)?), Pose::from_translation(Vec2::new(1.5, 0.0)), Filter::ALL)?;
    /// let events = world.update();
    /// assert_eq!(events.started, [(a, b)]);
    /// let depth = world.contact(a, b).expect("touching").contact.depth;
    /// assert!((depth - 0.5).abs() < 1e-6);
    /// world.set_pose(b, Pose::from_translation(Vec2::new(3.0, 0.0)))?;
    /// assert_eq!(world.update().stopped, [(a, b)]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn update(&mut self) -> UpdateEvents {
        let clock = Clock::start();
        self.stamp = self.stamp.wrapping_add(1);
        let use_set = self.uses_moving_set();
        self.rebuild_trees_if_grown(use_set);
        if use_set {
            self.moving_set.update(&self.trees[1]);
        }
        let moved = self.trees[0].moved().len() + self.trees[1].moved().len();
        let mut events = UpdateEvents {
            started: Vec::new(),
            stopped: std::mem::take(&mut self.removed_pairs),
        };
        let mut visit = self.find_new_pairs(use_set);
        self.collect_dirty_pairs(&mut visit);
        let broad = clock.elapsed();
        let candidates = self.narrow_phase(&visit, &mut events);
        let narrow = clock.elapsed().saturating_sub(broad);
        events.started.sort_unstable();
        events.stopped.sort_unstable();
        self.stats = UpdateStats {
            broad,
            narrow,
            moved,
            broad_pairs: self.pairs.len(),
            candidates,
            contacts: self.pairs.contacts().len(),
        };
        events
    }

    /// The touching pairs after the last [`update`](Self::update), with their contacts
    /// (`a < b`): one entry a pair, except that with manifolds on
    /// ([`set_manifolds`](Self::set_manifolds)) a pair with a composite whose parts
    /// touch along several normals (a box in the corner of a floor mesh and a wall)
    /// has one entry for each, in the order of
    /// [`dispatch::contact_manifolds_by_normal`](crate::query::dispatch::contact_manifolds_by_normal)
    /// (a solver takes each entry as one constraint). The order is deterministic (the
    /// same calls give the same order, serial or parallel) but not sorted: entries
    /// join at the end when they appear and the last one takes the place of one that
    /// goes. Removing a shape drops its pairs at once.
    pub fn contacts(&self) -> &[PairContact<V>] {
        self.pairs.contacts()
    }

    /// The contact of the pair of `a` and `b` when it touched at the last update: its
    /// first entry of [`contacts`](Self::contacts) (all of them:
    /// [`contacts_between`](Self::contacts_between)).
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // A unit cube resting 0.1 deep on a floor: with manifolds on, its contact after
    /// // an update has 4 points (the cube's bottom corners).
    /// let mut world = World::new();
    /// world.set_manifolds(true);
    /// let floor = world.insert_static(Shape::Cuboid(Aabb::new(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 0.0, 5.0))?), Pose::IDENTITY, Filter::ALL)?;
    /// let cube = Shape::Cuboid(Aabb::new(Vec3::splat(-0.5), Vec3::splat(0.5))?);
    /// let c = world.insert(cube, Pose::from_translation(Vec3::new(0.0, 0.4, 0.0)), Filter::ALL)?;
    /// world.update();
    /// let pair = world.contact(floor, c).expect("resting");
    /// assert_eq!(pair.manifold.points().len(), 4);
    /// assert!((pair.contact.depth - 0.1).abs() < 1e-5);
    /// # Ok(())
    /// # }
    /// ```
    pub fn contact(&self, a: Handle, b: Handle) -> Option<&PairContact<V>> {
        let pair = self.pairs.get(self.pairs.find(a, b)?);
        let c = self.pairs.contacts().get(pair.touching as usize)?;
        (c.a == a.min(b) && c.b == a.max(b)).then_some(c)
    }

    /// Every entry of [`contacts`](Self::contacts) of the pair of `a` and `b` (either
    /// order), first to last: one a normal the pair touches along (see
    /// [`contacts`](Self::contacts)); none when it did not touch at the last update
    /// or a handle is stale (its shape removed, even if another took its slot).
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // A box in the corner of an L-shaped chain: one entry for the floor, one for the wall.
    /// let mut world = World::new();
    /// world.set_manifolds(true);
    /// let l = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(1.0, 4.0)], false)?;
    /// let corner = world.insert_static(l, Pose::IDENTITY, Filter::ALL)?;
    /// let crate_ = Shape::Cuboid(Aabb::new(Vec2::splat(-0.5), Vec2::splat(0.5))?);
    /// let c = world.insert(crate_, Pose::from_translation(Vec2::new(0.55, 0.4)), Filter::ALL)?;
    /// world.update();
    /// let normals: Vec<Vec2> = world.contacts_between(corner, c).map(|e| e.manifold.normal).collect();
    /// assert_eq!(normals.len(), 2);
    /// assert!((normals[0] - Vec2::Y).length() < 1e-5 && (normals[1] + Vec2::X).length() < 1e-5);
    /// assert_eq!(world.contacts().len(), 2);
    /// # Ok(())
    /// # }
    /// ```
    pub fn contacts_between(
        &self,
        a: Handle,
        b: Handle,
    ) -> impl Iterator<Item = &PairContact<V>> + '_ {
        self.pairs.contacts_of(a, b)
    }

    /// A solver's accumulated impulses, one array per entry of
    /// [`contacts`](Self::contacts) (same index), one value per manifold point. The
    /// world keeps them while the pair touches and carries each to the next frame's
    /// point with the same [`FeatureId`](crate::query::manifold::FeatureId); points new in a frame start at zero.
    pub fn impulses_mut(&mut self) -> &mut [super::Impulses<V>] {
        self.pairs.impulses_mut()
    }

    /// Phase times and counts of the last [`update`](Self::update) (zero before the
    /// first).
    pub fn update_stats(&self) -> UpdateStats {
        self.stats
    }

    /// The two handles of pair `id`.
    fn pair_handles(&self, id: u32) -> (Handle, Handle) {
        let p = self.pairs.get(id);
        (p.a, p.b)
    }

    /// Refits each tree (what [`set_pose`](Self::set_pose) enlarged), then rebuilds it
    /// when it has grown by insertion as much as it holds (a SAH rebuild) or its
    /// leaves have moved in place [`REBUILD_DRIFT`] times as often as it holds leaves
    /// (a quick rebuild); never below [`REBUILD_MIN_INSERTIONS`] of either. When the
    /// moving pairs come from the moving set (`use_set`), the moving tree is not
    /// refitted: no part of the update walks it, and its enlarged boxes, which still
    /// hold their leaves, wait for its next rebuild
    /// ([`DynamicTree::clear_moved_leaving_slack`]).
    fn rebuild_trees_if_grown(&mut self, use_set: bool) {
        for (k, tree) in self.trees.iter_mut().enumerate() {
            if !(use_set && k == 1) {
                tree.refit();
            }
            let floor = tree.len().max(REBUILD_MIN_INSERTIONS);
            if tree.insertions_since_rebuild() >= floor {
                tree.rebuild();
            } else if tree.enlargements_since_rebuild() >= REBUILD_DRIFT * floor {
                tree.rebuild_quick();
            }
        }
    }

    /// Adds the pairs the moved proxies' fat boxes now overlap (moving–moving and
    /// moving–static) and returns the new pairs' ids. With the `parallel` feature the
    /// trees are walked on rayon's pool, in the same order.
    fn find_new_pairs(&mut self, use_set: bool) -> Vec<u32> {
        let found = self.overlapping_slots(use_set);
        self.trees[0].clear_moved();
        match use_set {
            true => self.trees[1].clear_moved_leaving_slack(),
            false => self.trees[1].clear_moved(),
        }
        found
            .into_iter()
            .filter_map(|(a, b)| self.create_pair(a, b))
            .collect()
    }

    /// True when this update's moving pairs come from the moving set: at least one
    /// in [`MOVING_SET_SHARE`] of the moving proxies moved.
    fn uses_moving_set(&self) -> bool {
        let moving = &self.trees[1];
        !moving.moved().is_empty() && MOVING_SET_SHARE * moving.moved().len() >= moving.len()
    }

    /// The slot pairs (moving shape first when one is static) of overlapping fat boxes
    /// with a moved proxy: the moving set's traversal when `use_set` (many moving
    /// proxies moved, [`uses_moving_set`](Self::uses_moving_set), decided once per
    /// update with the set brought up to date), else a query of the moving tree
    /// per moved proxy; a query of the other tree per moved proxy for the
    /// moving–static pairs. The order does not depend on the `parallel` feature or the
    /// thread count (the moving set's tasks and the queries are concatenated in their
    /// order, see `MovingSet::moved_pairs` and `DynamicTree::collect_moved_pairs`).
    fn overlapping_slots(&self, use_set: bool) -> Vec<(u32, u32)> {
        let [fixed, moving] = &self.trees;
        let mut found: Vec<(u32, u32)> = Vec::new();
        if use_set {
            found = self.moving_set.moved_pairs();
        } else {
            found.extend(
                moving
                    .collect_moved_pairs()
                    .into_iter()
                    .filter_map(|(p, q)| Some((moving.user_data(p)?, moving.user_data(q)?))),
            );
        }
        if fixed.is_empty() {
            return found;
        }
        found.extend(moving.collect_moved_against(|fat, report| {
            fixed.query(fat, |_, slot| {
                report(slot);
                true
            })
        }));
        // Moved static proxies meet the moving tree (static–static pairs never exist).
        let flipped = fixed.collect_moved_against(|fat, report| {
            moving.query(fat, |_, slot| {
                report(slot);
                true
            })
        });
        found.extend(flipped.into_iter().map(|(q, p)| (p, q)));
        found
    }

    /// Caches the pair of slots `a` and `b` when it is new and their shapes may meet;
    /// returns its id, stamped as visited. A cached pair is looked up by its slots
    /// alone (most pairs found are cached already: their shapes' entries stay cold).
    fn create_pair(&mut self, a: u32, b: u32) -> Option<u32> {
        if self.pairs.contains_slots(a, b) {
            return None;
        }
        let ((ha, ea), (hb, eb)) = (self.handle_at(a)?, self.handle_at(b)?);
        if !self.may_pair(ha, ea, hb, eb) {
            return None;
        }
        let id = self.pairs.create(ha, hb)?;
        self.pairs.get_mut(id).stamp = self.stamp;
        for slot in [a, b] {
            if let Some(e) = self.slots[slot as usize].entry.as_mut() {
                e.pairs.push(id);
            }
        }
        Some(id)
    }

    /// True when two live shapes may form a pair: distinct, not both static, filters
    /// allowing each other, not excluded.
    fn may_pair(&self, ha: Handle, ea: &Entry<V, S>, hb: Handle, eb: &Entry<V, S>) -> bool {
        use super::Motion::Static;
        ha != hb
            && !(ea.motion == Static && eb.motion == Static)
            && ea.filter.allows(&eb.filter)
            && (self.excluded.is_empty() || !self.excluded.contains(&super::pair_key(ha, hb)))
    }

    /// Appends the pairs of the dirty shapes not visited yet in this update, stamped,
    /// and empties the dirty list (it keeps its room for the next frame's moves). When
    /// at least one in [`DIRTY_SCAN_SHARE`] as many shapes as pairs are dirty (most
    /// shapes moved), one pass over the pair cache in id order picks the pairs with a
    /// dirty shape by the dense marks; else each dirty shape's list is read (its
    /// entry, its list and its pairs' records are cold: a few misses a shape).
    fn collect_dirty_pairs(&mut self, visit: &mut Vec<u32>) {
        if DIRTY_SCAN_SHARE * self.dirty.len() >= self.pairs.len() {
            self.dirty_pairs_by_scan(visit);
        } else {
            self.dirty_pairs_by_lists(visit);
        }
        for &slot in &self.dirty {
            self.dirty_marks[slot as usize] = false;
        }
        self.dirty.clear();
    }

    /// The unvisited pairs with a dirty shape, stamped, from one pass over the pair
    /// cache in id order.
    fn dirty_pairs_by_scan(&mut self, visit: &mut Vec<u32>) {
        visit.reserve(self.pairs.len());
        self.pairs
            .visit_marked(&self.dirty_marks, self.stamp, |id| visit.push(id));
    }

    /// The unvisited pairs with a dirty shape, stamped, from the dirty shapes' lists
    /// in dirty-list order.
    fn dirty_pairs_by_lists(&mut self, visit: &mut Vec<u32>) {
        for &slot in &self.dirty {
            let Some(e) = self.slots[slot as usize].entry.as_ref() else {
                continue;
            };
            for &id in &e.pairs {
                let pair = self.pairs.get_mut(id);
                if pair.stamp != self.stamp {
                    pair.stamp = self.stamp;
                    visit.push(id);
                }
            }
        }
    }

    /// Starts loading what the pair pass will read of the pairs after the `i`-th of
    /// `visit`: the record of the pair `2·AHEAD` places on and the slots of both shapes
    /// of the pair `AHEAD` places on (its record loaded by then).
    #[inline(always)]
    fn prefetch_pairs_ahead(&self, visit: &[u32], i: usize) {
        self.prefetch_record_ahead(visit, i);
        if let Some(&near) = visit.get(i + PREFETCH_AHEAD) {
            let (a, b) = self.pair_handles(near);
            for h in [a, b] {
                if let Some(slot) = self.slots.get(h.index()) {
                    prefetch(slot);
                }
            }
        }
    }

    /// Starts loading the record of the pair `2·AHEAD` places after the `i`-th of
    /// `visit` (the first stage of both prefetching loops).
    #[inline(always)]
    fn prefetch_record_ahead(&self, visit: &[u32], i: usize) {
        if let Some(&far) = visit.get(i + 2 * PREFETCH_AHEAD) {
            self.pairs.prefetch_record(far);
        }
    }

    /// Starts loading the contact entry of the pair `AHEAD` places after the `k`-th of
    /// `visit` (its record loaded by then), which storing its result touches.
    #[inline(always)]
    fn prefetch_entry_ahead(&self, visit: &[u32], k: usize) {
        if let Some(&near) = visit.get(k + PREFETCH_AHEAD) {
            self.pairs.prefetch_entry(near);
        }
    }

    /// Queries the pairs of `visit` and stores their results (see
    /// [`apply_step`](Self::apply_step)); returns the number of pairs queried. Each
    /// pair is dropped (a shape gone, fat boxes parted, filters or exclusion now
    /// forbidding it), kept without contact (pair boxes apart), or queried
    /// ([`pair_outcome`](Self::pair_outcome)). Never inlined, so that a profiler can
    /// select the phase by its name (`examples/narrow_phase.rs`).
    #[inline(never)]
    fn narrow_phase(&mut self, visit: &[u32], events: &mut UpdateEvents) -> usize {
        let p = self.prediction;
        // The poses were checked on their way in (`unit_pose`): the trait methods
        // take them as they are, without the free functions' second check.
        if self.manifolds {
            self.query_and_apply(visit, events, |a, b, warm| {
                let mut more = Vec::new();
                let (pa, pb) = (&a.pose, &b.pose);
                let m = S::contact_manifolds_pair_cached(
                    pa, &a.shape, pb, &b.shape, p, warm, &mut more,
                )?;
                Some((m.deepest_contact()?, m, more))
            })
        } else {
            self.query_and_apply(visit, events, |a, b, warm| {
                S::contact_pair_cached(&a.pose, &a.shape, &b.pose, &b.shape, p, warm)
            })
        }
    }

    /// [`narrow_phase`](Self::narrow_phase) with `query(a, b, warm)` answering a
    /// pair to query from a copy of its warm start: each pair's outcome stored as soon
    /// as it is known (no list of outcomes, whose writing and reading showed).
    #[cfg(not(feature = "parallel"))]
    fn query_and_apply<T: Answer<V>>(
        &mut self,
        visit: &[u32],
        events: &mut UpdateEvents,
        query: impl Fn(&Entry<V, S>, &Entry<V, S>, &mut ContactCache<V>) -> Option<T>,
    ) -> usize {
        let mut queried = 0;
        for (i, &id) in visit.iter().enumerate() {
            self.prefetch_pairs_ahead(visit, i);
            self.prefetch_entry_ahead(visit, i);
            let outcome = self.pair_outcome(id, &query);
            queried += usize::from(self.apply_step(id, outcome.step(), events));
        }
        queried
    }

    /// [`narrow_phase`](Self::narrow_phase) on rayon's pool: the outcomes in visit
    /// order (the queries read the pairs, shapes and trees only), then stored in that
    /// order, so the answers are the serial ones.
    #[cfg(feature = "parallel")]
    fn query_and_apply<T: Answer<V> + Send>(
        &mut self,
        visit: &[u32],
        events: &mut UpdateEvents,
        query: impl Fn(&Entry<V, S>, &Entry<V, S>, &mut ContactCache<V>) -> Option<T> + Sync,
    ) -> usize {
        let outcomes = super::map_indexed_in_order(visit, |i, &id| {
            self.prefetch_pairs_ahead(visit, i);
            self.pair_outcome(id, &query)
        });
        let mut queried = 0;
        for (k, (&id, outcome)) in visit.iter().zip(&outcomes).enumerate() {
            self.prefetch_record_ahead(visit, k);
            self.prefetch_entry_ahead(visit, k);
            queried += usize::from(self.apply_step(id, outcome.step(), events));
        }
        queried
    }

    /// What pair `id` needs: dropped, kept apart, or the query's answer and the pair's
    /// warm start after it.
    #[inline(always)]
    fn pair_outcome<T>(
        &self,
        id: u32,
        query: &impl Fn(&Entry<V, S>, &Entry<V, S>, &mut ContactCache<V>) -> Option<T>,
    ) -> Outcome<V, T> {
        let pair = self.pairs.get(id);
        let (Some(ea), Some(eb)) = (self.entry(pair.a), self.entry(pair.b)) else {
            return Outcome::Gone;
        };
        if !self.fat_boxes_meet(ea, eb) || !self.may_pair(pair.a, ea, pair.b, eb) {
            return Outcome::Gone;
        }
        if !ea.pair_box.intersects(&eb.pair_box) {
            return Outcome::Apart;
        }
        let mut warm = pair.warm;
        let found = query(ea, eb, &mut warm);
        Outcome::Near(found, warm)
    }

    /// True when the fat boxes of two live shapes overlap (their pair stays cached).
    #[inline]
    fn fat_boxes_meet(&self, ea: &Entry<V, S>, eb: &Entry<V, S>) -> bool {
        ea.fat.intersects(&eb.fat)
    }

    /// Stores pair `id`'s outcome: drops the pair (`None`), ends its contact when kept
    /// apart, or stores its warm start and contact (read in place: a manifold is large,
    /// and copies of it showed); pushes a pair that started or stopped touching on
    /// `events`. Returns whether the pair was queried.
    #[inline(always)]
    fn apply_step(
        &mut self,
        id: u32,
        step: Option<Step<'_, V>>,
        events: &mut UpdateEvents,
    ) -> bool {
        let Some(Step { found, more, warm }) = step else {
            if let Some(ended) = self.destroy_pair(id) {
                events.stopped.push(ended);
            }
            return false;
        };
        if let Some(warm) = warm {
            self.pairs.get_mut(id).warm = *warm;
        }
        match self.pairs.set_contact(id, found, more) {
            Some(true) => events.started.push(self.pair_handles(id)),
            Some(false) => events.stopped.push(self.pair_handles(id)),
            None => {}
        }
        warm.is_some()
    }
}

/// Phase timing with the `timing` feature; a clock that reads zero without it.
struct Clock {
    #[cfg(feature = "timing")]
    start: std::time::Instant,
}

impl Clock {
    fn start() -> Self {
        Self {
            #[cfg(feature = "timing")]
            start: std::time::Instant::now(),
        }
    }

    fn elapsed(&self) -> Duration {
        #[cfg(feature = "timing")]
        {
            self.start.elapsed()
        }
        #[cfg(not(feature = "timing"))]
        {
            Duration::ZERO
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Isometry, Pose2};
    use crate::shape::shape_2d::Shape;
    use crate::shape::Ball;
    use crate::world::Filter;
    use glam::Vec2;

    /// Both ways of collecting the dirty shapes' pairs give the same pairs, each once
    /// and stamped, whichever shapes are dirty (one, a few, half, all, one removed,
    /// one inserted), on a crowded 2D world of discs.
    #[test]
    fn dirty_pairs_by_scan_equal_by_lists() {
        let mut world = World::<Vec2, Shape<f32>>::new();
        let ball = |r| Shape::Ball(Ball::new(Vec2::ZERO, r).unwrap());
        let handles: Vec<Handle> = (0..120)
            .map(|k| {
                let at = Vec2::new((k % 12) as f32 * 0.7, (k / 12) as f32 * 0.7);
                let pose = Pose2::from_translation(at);
                world.insert(ball(0.5), pose, Filter::ALL).unwrap()
            })
            .collect();
        world.update();
        let pairs = world.pairs.len();
        assert!(pairs > 200, "{pairs} pairs");
        for (case, movers) in [1usize, 3, 60, 120].into_iter().enumerate() {
            let mut w = world.clone();
            for &h in handles.iter().skip(case).step_by(120 / movers) {
                let p = *w.pose(h).unwrap();
                w.set_pose(h, p.with_translation(p.translation + Vec2::splat(0.01)))
                    .unwrap();
            }
            if case == 2 {
                w.remove(handles[7]).unwrap();
                let pose = Pose2::from_translation(Vec2::splat(1.0));
                w.insert(ball(0.6), pose, Filter::ALL).unwrap();
            }
            let (mut by_scan, mut by_lists) = (w.clone(), w);
            let (mut scanned, mut listed) = (Vec::new(), Vec::new());
            by_scan.stamp += 1;
            by_lists.stamp += 1;
            by_scan.dirty_pairs_by_scan(&mut scanned);
            by_lists.dirty_pairs_by_lists(&mut listed);
            assert!(!listed.is_empty());
            for (w, ids) in [(&by_scan, &scanned), (&by_lists, &listed)] {
                assert!(ids.iter().all(|&id| w.pairs.get(id).stamp == w.stamp));
            }
            let (n_scanned, n_listed) = (scanned.len(), listed.len());
            scanned.sort_unstable();
            listed.sort_unstable();
            scanned.dedup();
            assert_eq!(scanned.len(), n_scanned, "a pair twice");
            assert_eq!(scanned, listed, "case {case}");
            assert_eq!(n_listed, listed.len());
        }
    }
}
