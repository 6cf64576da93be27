//! The world's step: broad phase (tree pairs, filters, tight boxes), narrow phase
//! (dispatch contacts, optionally in parallel), and the pair events.

use super::{Entry, Handle, World};
use crate::algo::gjk::GjkVector;
use crate::query::dispatch::{self, DispatchShape};
use crate::query::Contact;
use std::collections::BTreeSet;

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
        let candidates = self.candidate_pairs();
        let contacts = self.narrow_phase(&candidates);
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

    /// The broad phase's pairs, `a < b`, sorted.
    fn candidate_pairs(&self) -> Vec<(Handle, Handle)> {
        let mut pairs = Vec::new();
        self.tree.for_each_pair(|p, q| {
            let (Some(ua), Some(ub)) = (self.tree.user_data(p), self.tree.user_data(q)) else {
                return;
            };
            if let (Some((ha, ea)), Some((hb, eb))) = (self.handle_at(ua), self.handle_at(ub)) {
                let boxes_meet = self.pair_box(&ea.aabb).intersects(&self.pair_box(&eb.aabb));
                if ea.filter.allows(&eb.filter) && boxes_meet {
                    pairs.push((ha.min(hb), ha.max(hb)));
                }
            }
        });
        pairs.sort_unstable();
        pairs
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
