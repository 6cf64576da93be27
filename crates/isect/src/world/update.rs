//! The world's step: broad phase (tree pairs, filters, tight boxes), narrow phase
//! (dispatch contacts, optionally in parallel), and the pair events.
//!
//! The broad phase is incremental, as Box2D's `b2UpdatePairs`: the world keeps the
//! pairs whose fat boxes overlap, and each update re-queries only the proxies whose
//! fat box changed (the tree's *moved* buffer); pairs of two unmoved proxies keep
//! their overlap. When more than half the proxies moved, one traversal of the tree
//! against itself replaces the queries (same pairs, less work). With a broad-phase margin
//! ([`set_broad_margin`](World::set_broad_margin)) a shape that moves less than the
//! margin does not move its fat box at all. Once as many leaves were inserted or
//! reinserted into the tree since its last rebuild as it holds (a bulk load, or a
//! scene that churned through it), the update first rebuilds the tree top down
//! ([`DynamicTree::rebuild`](crate::broad::DynamicTree::rebuild)): handles, fat boxes
//! and pairs stay, the tree gets shallower, at O(log n) per insertion amortised.

use super::{Entry, Handle, World};
use crate::algo::gjk::GjkVector;
use crate::query::dispatch::{self, DispatchShape};
use crate::query::Contact;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// Fewest (re)insertions since the last rebuild for [`World::update`] to rebuild the
/// tree: small worlds keep their incremental tree.
pub const REBUILD_MIN_INSERTIONS: usize = 64;

/// What the last [`update`](World::update) did, and how long its phases took.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct UpdateStats {
    /// Time in the broad phase (pair maintenance, filters, tight boxes).
    pub broad: Duration,
    /// Time in the narrow phase (one contact query per candidate pair).
    pub narrow: Duration,
    /// Shapes whose fat box changed (inserted, or moved out of it) and were re-queried.
    pub moved: usize,
    /// Pairs whose fat boxes overlap.
    pub broad_pairs: usize,
    /// Candidate pairs handed to the narrow phase (filters allow them, tight boxes
    /// grown by the prediction overlap).
    pub candidates: usize,
    /// Touching pairs found.
    pub contacts: usize,
}

/// The contact of a touching pair of a [`World`], `a < b`; the normal points from
/// `a` to `b`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PairContact<V: crate::math::Vector> {
    /// The smaller handle.
    pub a: Handle,
    /// The larger handle.
    pub b: Handle,
    /// The contact from `a` to `b`, in world space.
    pub contact: Contact<V>,
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

impl<V: GjkVector, S: DispatchShape<V> + Sync> World<V, S> {
    /// Finds every touching pair: candidate pairs from the tree's fat boxes whose
    /// filters allow each other and whose tight boxes, grown by half the prediction
    /// each, overlap, then the narrow phase
    /// ([`dispatch::contact`] within the world's prediction) on each, in parallel
    /// with the `parallel` feature (same answers, same order). Returns the pairs that
    /// started and stopped touching; the contacts are in [`contacts`](Self::contacts).
    pub fn update(&mut self) -> UpdateEvents {
        let start = Instant::now();
        self.rebuild_tree_if_grown();
        let moved = self.tree.moved().len();
        self.refresh_broad_pairs();
        let candidates = self.candidate_pairs();
        let broad_done = Instant::now();
        let contacts = self.narrow_phase(&candidates);
        self.stats = UpdateStats {
            broad: broad_done - start,
            narrow: broad_done.elapsed(),
            moved,
            broad_pairs: self.broad_pairs.len(),
            candidates: candidates.len(),
            contacts: contacts.len(),
        };
        let old: BTreeSet<(Handle, Handle)> = self
            .contacts
            .iter()
            .map(|c| (c.a, c.b))
            .chain(std::mem::take(&mut self.removed_pairs))
            .collect();
        let new: BTreeSet<(Handle, Handle)> = contacts.iter().map(|c| (c.a, c.b)).collect();
        self.contacts = contacts;
        self.tree.clear_moved();
        UpdateEvents {
            started: new.difference(&old).copied().collect(),
            stopped: old.difference(&new).copied().collect(),
        }
    }

    /// The touching pairs of the last [`update`](Self::update) with their contacts,
    /// sorted by `(a, b)`. Removing a shape drops its pairs at once.
    pub fn contacts(&self) -> &[PairContact<V>] {
        &self.contacts
    }

    /// Phase times and counts of the last [`update`](Self::update) (zero before the
    /// first).
    pub fn update_stats(&self) -> UpdateStats {
        self.stats
    }

    /// Rebuilds the tree when at least as many leaves were (re)inserted since its last
    /// rebuild as it holds, and at least [`REBUILD_MIN_INSERTIONS`].
    fn rebuild_tree_if_grown(&mut self) {
        let grown = self.tree.insertions_since_rebuild();
        if grown >= self.tree.len().max(REBUILD_MIN_INSERTIONS) {
            self.tree.rebuild();
        }
    }

    /// Brings the fat-box pairs up to date: pairs with a moved or removed shape are
    /// dropped, and the moved proxies' pairs are queried again. The result is the set
    /// of all pairs with overlapping fat boxes, sorted, as a full traversal would give.
    fn refresh_broad_pairs(&mut self) {
        if 2 * self.tree.moved().len() > self.tree.len() {
            // Most proxies moved: one traversal of the tree against itself is cheaper
            // than a query per moved proxy, and gives the same pairs.
            return self.all_broad_pairs();
        }
        let mut moved = vec![false; self.slots.len()];
        for &id in self.tree.moved() {
            if let Some(user) = self.tree.user_data(id) {
                moved[user as usize] = true;
            }
        }
        let mut pairs = std::mem::take(&mut self.broad_pairs);
        pairs.retain(|&(a, b)| {
            !moved[a.index()]
                && !moved[b.index()]
                && self.entry(a).is_some()
                && self.entry(b).is_some()
        });
        self.tree.for_each_moved_pair(|p, q| {
            let (Some(ua), Some(ub)) = (self.tree.user_data(p), self.tree.user_data(q)) else {
                return;
            };
            if let (Some((ha, _)), Some((hb, _))) = (self.handle_at(ua), self.handle_at(ub)) {
                pairs.push((ha.min(hb), ha.max(hb)));
            }
        });
        pairs.sort_unstable();
        self.broad_pairs = pairs;
    }

    /// Every pair of overlapping fat boxes, by a traversal of the tree against itself.
    fn all_broad_pairs(&mut self) {
        let mut pairs = std::mem::take(&mut self.broad_pairs);
        pairs.clear();
        self.tree.for_each_pair(|p, q| {
            let (Some(ua), Some(ub)) = (self.tree.user_data(p), self.tree.user_data(q)) else {
                return;
            };
            if let (Some((ha, _)), Some((hb, _))) = (self.handle_at(ua), self.handle_at(ub)) {
                pairs.push((ha.min(hb), ha.max(hb)));
            }
        });
        pairs.sort_unstable();
        self.broad_pairs = pairs;
    }

    /// The fat-box pairs whose filters allow each other and whose tight boxes, grown
    /// by half the prediction each, overlap; sorted.
    fn candidate_pairs(&self) -> Vec<(Handle, Handle)> {
        let meet = |&&(a, b): &&(Handle, Handle)| {
            let (Some(ea), Some(eb)) = (self.entry(a), self.entry(b)) else {
                return false;
            };
            let boxes_meet = self.pair_box(&ea.aabb).intersects(&self.pair_box(&eb.aabb));
            ea.filter.allows(&eb.filter) && boxes_meet
        };
        self.broad_pairs.iter().filter(meet).copied().collect()
    }

    /// The contact of each candidate pair, kept when there is one (order kept).
    fn narrow_phase(&self, candidates: &[(Handle, Handle)]) -> Vec<PairContact<V>> {
        let one = |&(a, b): &(Handle, Handle)| -> Option<PairContact<V>> {
            let (ea, eb) = (self.entry(a)?, self.entry(b)?);
            pair_contact(ea, eb, self.prediction).map(|contact| PairContact { a, b, contact })
        };
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            candidates.par_iter().filter_map(one).collect()
        }
        #[cfg(not(feature = "parallel"))]
        {
            candidates.iter().filter_map(one).collect()
        }
    }
}

/// The contact of two entries, from `a` to `b`.
#[inline]
fn pair_contact<V: GjkVector, S: DispatchShape<V>>(
    a: &Entry<V, S>,
    b: &Entry<V, S>,
    prediction: V::Scalar,
) -> Option<Contact<V>> {
    dispatch::contact(&a.pose, &a.shape, &b.pose, &b.shape, prediction)
}
