//! The world's persistent pair cache, as Box2D v3's contact arrays (`b2ContactSim`,
//! `b2ShapePairKey` in a hash set): a pair lives from the update whose broad phase
//! finds its fat boxes overlapping to the update that sees them apart (or a shape
//! removed), keeps its contact in between, and is recomputed only when one of its two
//! shapes moved. Touching pairs sit in a dense array (swap-removed), so reading the
//! contacts costs what is touching, and no set or sort is rebuilt over all pairs.

use super::Handle;
use crate::math::{Real, Vector};
use crate::query::dispatch::ContactCache;
use crate::query::manifold::{FeatureId, Manifold, MAX_MANIFOLD_POINTS};
use crate::query::Contact;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// No index (a pair that is not touching, a free pair slot).
pub(super) const NONE: u32 = u32::MAX;

/// Accumulated impulses a solver stores per manifold point (see
/// [`World::impulses_mut`](super::World::impulses_mut)).
pub type Impulses<V> = [<V as Vector>::Scalar; MAX_MANIFOLD_POINTS];

/// The contact of a touching pair of a [`World`](super::World), `a < b`; the normal
/// points from `a` to `b`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PairContact<V: Vector> {
    /// The smaller handle.
    pub a: Handle,
    /// The larger handle.
    pub b: Handle,
    /// The deepest point, from `a` to `b`, in world space.
    pub contact: Contact<V>,
    /// The contact manifold (one point, [`FeatureId::SINGLE`](crate::query::manifold::FeatureId::SINGLE), unless the world
    /// computes manifolds: [`World::set_manifolds`](super::World::set_manifolds)).
    pub manifold: Manifold<V>,
}

/// One pair of the cache.
#[derive(Copy, Clone, Debug)]
pub(super) struct Pair<V: Vector> {
    pub a: Handle,
    pub b: Handle,
    /// Index in the touching array, or [`NONE`].
    pub touching: u32,
    /// The last update that visited the pair (visits it once per update).
    pub stamp: u32,
    /// The narrow phase's warm start: what separated the pair at its last query
    /// ([`ContactCache`]).
    pub warm: ContactCache<V>,
}

/// A multiplicative hasher for the pair keys (two slot indices in a `u64`): keys are
/// small dense integers, for which SipHash's attack resistance buys nothing.
#[derive(Default)]
pub(super) struct PairKeyHasher(u64);

impl Hasher for PairKeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    #[inline]
    fn write_u64(&mut self, key: u64) {
        // Fibonacci hashing; the high bits mix both slot indices.
        self.0 = (self.0 ^ key)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
}

/// The key of the pair of two shapes: their slots, smaller first.
#[inline]
pub(super) fn pair_key(a: Handle, b: Handle) -> u64 {
    slot_key(a.index, b.index)
}

/// The key of the pair of two slots, smaller first.
#[inline]
fn slot_key(a: u32, b: u32) -> u64 {
    (u64::from(a.min(b)) << 32) | u64::from(a.max(b))
}

/// Pairs with overlapping fat boxes, and the touching ones with their contacts.
#[derive(Clone, Debug, Default)]
pub(super) struct PairCache<V: Vector> {
    pairs: Vec<Pair<V>>,
    free: Vec<u32>,
    index: HashMap<u64, u32, BuildHasherDefault<PairKeyHasher>>,
    /// Touching pairs: contact, owning pair, impulses (three aligned arrays).
    contacts: Vec<PairContact<V>>,
    owners: Vec<u32>,
    impulses: Vec<Impulses<V>>,
}

impl<V: Vector> PairCache<V> {
    /// Number of live pairs.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    pub fn get(&self, id: u32) -> &Pair<V> {
        &self.pairs[id as usize]
    }

    pub fn get_mut(&mut self, id: u32) -> &mut Pair<V> {
        &mut self.pairs[id as usize]
    }

    /// The id of the pair of `a` and `b`, if cached.
    pub fn find(&self, a: Handle, b: Handle) -> Option<u32> {
        self.index.get(&pair_key(a, b)).copied()
    }

    /// True when the pair of the shapes in slots `a` and `b` is cached (a pair is keyed
    /// by its slots: a removed shape's pairs leave with it).
    pub fn contains_slots(&self, a: u32, b: u32) -> bool {
        self.index.contains_key(&slot_key(a, b))
    }

    /// Adds the pair of `a` and `b` (ordered) unless cached; returns its id when new.
    pub fn create(&mut self, a: Handle, b: Handle) -> Option<u32> {
        let key = pair_key(a, b);
        if self.index.contains_key(&key) {
            return None;
        }
        let pair = Pair {
            a: a.min(b),
            b: a.max(b),
            touching: NONE,
            stamp: 0,
            warm: ContactCache::new(),
        };
        let id = match self.free.pop() {
            Some(id) => {
                self.pairs[id as usize] = pair;
                id
            }
            None => {
                self.pairs.push(pair);
                (self.pairs.len() - 1) as u32
            }
        };
        self.index.insert(key, id);
        Some(id)
    }

    /// Drops pair `id`; returns its two handles when it was touching.
    pub fn destroy(&mut self, id: u32) -> Option<(Handle, Handle)> {
        let pair = self.pairs[id as usize];
        self.index.remove(&pair_key(pair.a, pair.b));
        self.free.push(id);
        self.pairs[id as usize].touching = NONE;
        (pair.touching != NONE).then(|| {
            self.untouch(pair.touching);
            (pair.a, pair.b)
        })
    }

    /// Stores the contact and manifold of pair `id` (or its end when `None`; a missing
    /// manifold is the contact's single point, built here rather than carried
    /// through the narrow phase's results); returns whether the pair started
    /// (`Some(true)`) or stopped (`Some(false)`) touching. Impulses of points whose
    /// feature id persists are carried over; new points start at zero.
    pub fn set_contact(
        &mut self,
        id: u32,
        found: Option<(&Contact<V>, Option<&Manifold<V>>)>,
    ) -> Option<bool> {
        let pair = self.pairs[id as usize];
        let found = found.map(|(contact, manifold)| {
            let manifold = match manifold {
                Some(m) => *m,
                None => Manifold::single(contact, FeatureId::SINGLE),
            };
            (contact, manifold)
        });
        match (found, pair.touching) {
            (None, NONE) => None,
            (None, k) => {
                self.untouch(k);
                self.pairs[id as usize].touching = NONE;
                Some(false)
            }
            (Some((contact, manifold)), NONE) => {
                let (a, b) = (pair.a, pair.b);
                self.pairs[id as usize].touching = self.contacts.len() as u32;
                self.contacts.push(PairContact {
                    a,
                    b,
                    contact: *contact,
                    manifold,
                });
                self.owners.push(id);
                self.impulses.push([V::Scalar::ZERO; MAX_MANIFOLD_POINTS]);
                Some(true)
            }
            (Some((contact, manifold)), k) => {
                let k = k as usize;
                self.impulses[k] =
                    carried(&self.contacts[k].manifold, &manifold, &self.impulses[k]);
                self.contacts[k].contact = *contact;
                self.contacts[k].manifold = manifold;
                None
            }
        }
    }

    /// Removes entry `k` of the touching array (the last one takes its place).
    fn untouch(&mut self, k: u32) {
        let k = k as usize;
        self.contacts.swap_remove(k);
        self.owners.swap_remove(k);
        self.impulses.swap_remove(k);
        if let Some(&moved) = self.owners.get(k) {
            self.pairs[moved as usize].touching = k as u32;
        }
    }

    pub fn contacts(&self) -> &[PairContact<V>] {
        &self.contacts
    }

    pub fn impulses_mut(&mut self) -> &mut [Impulses<V>] {
        &mut self.impulses
    }

    /// Every live pair id (for the validator and full sweeps).
    pub fn ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.index.values().copied()
    }
}

/// The impulses of `new`'s points: each takes the impulse of `old`'s point with the
/// same feature id (a single-point manifold matches the previous single point).
fn carried<V: Vector>(old: &Manifold<V>, new: &Manifold<V>, impulses: &Impulses<V>) -> Impulses<V> {
    let mut out = [V::Scalar::ZERO; MAX_MANIFOLD_POINTS];
    for (slot, p) in out.iter_mut().zip(new.points()) {
        if let Some(j) = old.points().iter().position(|q| q.id == p.id) {
            *slot = impulses[j];
        }
    }
    out
}
