//! The world's persistent pair cache, as Box2D v3's contact arrays (`b2ContactSim`,
//! `b2ShapePairKey` in a hash set): a pair lives from the update whose broad phase
//! finds its fat boxes overlapping to the update that sees them apart (or a shape
//! removed), keeps its contact in between, and is recomputed only when one of its two
//! shapes moved. Touching pairs sit in a dense array (swap-removed), so reading the
//! contacts costs what is touching, and no set or sort is rebuilt over all pairs.

use super::Handle;
use crate::math::{Real, Vector};
use crate::query::dispatch::ContactCache;
use crate::query::manifold::{FeatureId, Manifold, MAX_MANIFOLD_POINTS, MAX_MERGED_MANIFOLDS};
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
    /// The smaller handle (slot index [`NONE`] in a free record).
    pub a: Handle,
    /// The larger handle (slot index [`NONE`] in a free record).
    pub b: Handle,
    /// Index of its first entry in the touching array, or [`NONE`].
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
    /// Touching entries, one a manifold (a pair touching along several normals has
    /// one each, chained from its `touching` through `next`): contact, owning pair,
    /// next entry of the same pair, impulses (four aligned arrays).
    contacts: Vec<PairContact<V>>,
    owners: Vec<u32>,
    next: Vec<u32>,
    impulses: Vec<Impulses<V>>,
}

impl<V: Vector> PairCache<V> {
    /// Number of live pairs.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Starts loading pair `id`'s record (a hint: [`prefetch`](crate::hint::prefetch)).
    #[inline(always)]
    pub fn prefetch_record(&self, id: u32) {
        if let Some(pair) = self.pairs.get(id as usize) {
            crate::hint::prefetch(pair);
        }
    }

    /// Starts loading the first contact entry of pair `id` (its record read), if it
    /// touches.
    #[inline(always)]
    pub fn prefetch_entry(&self, id: u32) {
        let Some(pair) = self.pairs.get(id as usize) else {
            return;
        };
        let k = pair.touching as usize;
        if let (Some(contact), Some(impulses)) = (self.contacts.get(k), self.impulses.get(k)) {
            crate::hint::prefetch(contact);
            crate::hint::prefetch(impulses);
        }
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
        // A free record names no slot, so that a pass over the records skips it.
        self.pairs[id as usize].a.index = NONE;
        self.pairs[id as usize].b.index = NONE;
        (pair.touching != NONE).then(|| {
            self.untouch(id);
            (pair.a, pair.b)
        })
    }

    /// Calls `f` with the id of every live pair (in id order) one of whose shapes'
    /// slots is marked in `marks` and whose stamp is not `stamp`, after stamping it.
    pub fn visit_marked(&mut self, marks: &[bool], stamp: u32, mut f: impl FnMut(u32)) {
        let marked = |h: Handle| marks.get(h.index()).copied().unwrap_or(false);
        for (id, pair) in self.pairs.iter_mut().enumerate() {
            if pair.stamp != stamp && (marked(pair.a) || marked(pair.b)) {
                pair.stamp = stamp;
                f(id as u32);
            }
        }
    }

    /// Stores the contact and manifold of pair `id` (or its end when `None`; a missing
    /// manifold is the contact's single point, built here rather than carried
    /// through the narrow phase's results), and the manifolds of the other normals it
    /// touches along (`more`: one entry each, after the first); returns whether the
    /// pair started (`Some(true)`) or stopped (`Some(false)`) touching. Impulses of
    /// points whose feature id persists in the pair are carried over; new points
    /// start at zero.
    #[inline]
    pub fn set_contact(
        &mut self,
        id: u32,
        found: Option<(&Contact<V>, Option<&Manifold<V>>)>,
        more: &[Manifold<V>],
    ) -> Option<bool> {
        // The two cases of nearly every pair every frame stay inline at the caller:
        // still apart, and one manifold before and after (updated in place).
        let first = self.pairs[id as usize].touching;
        match (found, first) {
            (None, NONE) => None,
            (Some((contact, manifold)), k) if k != NONE && more.is_empty() => {
                let k = k as usize;
                if self.next[k] != NONE {
                    return self.change_contact(id, found, more);
                }
                let manifold = match manifold {
                    Some(m) => *m,
                    None => Manifold::single(contact, FeatureId::SINGLE),
                };
                let old = (&self.contacts[k].manifold, &self.impulses[k]);
                self.impulses[k] = carried(core::iter::once(old), &manifold);
                self.contacts[k].contact = *contact;
                self.contacts[k].manifold = manifold;
                None
            }
            _ => self.change_contact(id, found, more),
        }
    }

    /// [`set_contact`](Self::set_contact) for a pair that starts or stops touching or
    /// whose number of entries may change.
    #[inline(never)]
    fn change_contact(
        &mut self,
        id: u32,
        found: Option<(&Contact<V>, Option<&Manifold<V>>)>,
        more: &[Manifold<V>],
    ) -> Option<bool> {
        let first = self.pairs[id as usize].touching;
        let Some((contact, manifold)) = found else {
            if first == NONE {
                return None;
            }
            self.untouch(id);
            return Some(false);
        };
        let manifold = match manifold {
            Some(m) => *m,
            None => Manifold::single(contact, FeatureId::SINGLE),
        };
        if first == NONE {
            self.push_entry(id, contact, manifold);
            self.push_more(id, more);
            return Some(true);
        }
        self.replace_entries(id, contact, manifold, more);
        None
    }

    /// Rewrites the entries of touching pair `id` in place, in chain order (so other
    /// pairs' entries keep their places unless the count changes): the first from
    /// `contact` and `manifold`, one for each of `more` with a point (at most
    /// [`MAX_MERGED_MANIFOLDS`] in all), then entries pushed or dropped at the tail;
    /// impulses carried by feature id across all of the pair's old points.
    fn replace_entries(
        &mut self,
        id: u32,
        contact: &Contact<V>,
        manifold: Manifold<V>,
        more: &[Manifold<V>],
    ) {
        let first = self.pairs[id as usize].touching as usize;
        let mut old = [(self.contacts[first].manifold, self.impulses[first]); MAX_MERGED_MANIFOLDS];
        let mut old_len = 0;
        for (slot, k) in old.iter_mut().zip(self.entries_of(id)) {
            *slot = (self.contacts[k].manifold, self.impulses[k]);
            old_len += 1;
        }
        let old = &old[..old_len];
        let mut count = 0;
        for (contact, manifold) in core::iter::once((*contact, manifold)).chain(further(more)) {
            let impulses = carried(old.iter().map(|(m, i)| (m, i)), &manifold);
            let existing = self.entries_of(id).nth(count);
            let k = existing.unwrap_or_else(|| {
                self.push_entry(id, &contact, manifold);
                self.contacts.len() - 1
            });
            self.contacts[k].contact = contact;
            self.contacts[k].manifold = manifold;
            self.impulses[k] = impulses;
            count += 1;
        }
        loop {
            let Some(k) = self.entries_of(id).nth(count) else {
                break;
            };
            self.remove_entry(k as u32);
        }
    }

    /// Appends an entry of pair `id` at the end of the touching array and of the
    /// pair's chain, with zero impulses.
    fn push_entry(&mut self, id: u32, contact: &Contact<V>, manifold: Manifold<V>) {
        let pair = self.pairs[id as usize];
        let k = self.contacts.len() as u32;
        *self.link_to(id, NONE) = k;
        self.contacts.push(PairContact {
            a: pair.a,
            b: pair.b,
            contact: *contact,
            manifold,
        });
        self.owners.push(id);
        self.next.push(NONE);
        self.impulses.push([V::Scalar::ZERO; MAX_MANIFOLD_POINTS]);
    }

    /// Appends an entry of pair `id` for each of `more` with a point (a pair keeps at
    /// most [`MAX_MERGED_MANIFOLDS`] entries).
    fn push_more(&mut self, id: u32, more: &[Manifold<V>]) {
        for (c, m) in further(more) {
            self.push_entry(id, &c, m);
        }
    }

    /// The touching-array indices of pair `id`'s entries, first to last.
    fn entries_of(&self, id: u32) -> impl Iterator<Item = usize> + '_ {
        let first = self.pairs[id as usize].touching;
        core::iter::successors((first != NONE).then_some(first), |&k| {
            let n = self.next[k as usize];
            (n != NONE).then_some(n)
        })
        .map(|k| k as usize)
    }

    /// The link of pair `id`'s chain that holds `entry` (the pair's own `touching` or
    /// the previous entry's `next`); with [`NONE`], the chain's empty end.
    fn link_to(&mut self, id: u32, entry: u32) -> &mut u32 {
        let mut at = self.pairs[id as usize].touching;
        if at == entry {
            return &mut self.pairs[id as usize].touching;
        }
        while self.next[at as usize] != entry {
            at = self.next[at as usize];
        }
        &mut self.next[at as usize]
    }

    /// Removes every entry of pair `id` from the touching array.
    fn untouch(&mut self, id: u32) {
        while self.pairs[id as usize].touching != NONE {
            self.remove_entry(self.pairs[id as usize].touching);
        }
    }

    /// Removes entry `k` of the touching array: unlinked from its pair's chain, the
    /// last entry takes its place (and its link follows it).
    fn remove_entry(&mut self, k: u32) {
        let after = self.next[k as usize];
        *self.link_to(self.owners[k as usize], k) = after;
        let last = (self.contacts.len() - 1) as u32;
        if k != last {
            *self.link_to(self.owners[last as usize], last) = k;
        }
        let k = k as usize;
        self.contacts.swap_remove(k);
        self.owners.swap_remove(k);
        self.next.swap_remove(k);
        self.impulses.swap_remove(k);
    }

    /// Every touching-array entry of the pair of `a` and `b`, first to last (none for
    /// a stale handle whose slot another shape took).
    pub fn contacts_of(&self, a: Handle, b: Handle) -> impl Iterator<Item = &PairContact<V>> + '_ {
        let id = self.find(a, b).filter(|&id| {
            let pair = &self.pairs[id as usize];
            (pair.a, pair.b) == (a.min(b), a.max(b))
        });
        id.into_iter()
            .flat_map(|id| self.entries_of(id))
            .map(|k| &self.contacts[k])
    }

    pub fn contacts(&self) -> &[PairContact<V>] {
        &self.contacts
    }

    pub fn impulses_mut(&mut self) -> &mut [Impulses<V>] {
        &mut self.impulses
    }

    /// Checks the touching entries: each pair's chain holds entries naming its
    /// handles and owned by it, and the chains hold every entry once (validator).
    pub fn check_entries(&self) -> Result<(), String> {
        let mut seen = 0;
        for id in self.ids() {
            let pair = &self.pairs[id as usize];
            for k in self.entries_of(id) {
                let c = &self.contacts[k];
                if self.owners[k] != id
                    || (c.a, c.b) != (pair.a, pair.b)
                    || seen > self.contacts.len()
                {
                    return Err(format!("pair {id}: entry {k} of another pair"));
                }
                seen += 1;
            }
        }
        if seen != self.contacts.len() {
            return Err(format!("{seen} chained entries of {}", self.contacts.len()));
        }
        Ok(())
    }

    /// Every live pair id (for the validator and full sweeps).
    pub fn ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.index.values().copied()
    }
}

/// The entries `more` adds after a pair's first: each manifold with a point, with its
/// deepest point, at most [`MAX_MERGED_MANIFOLDS`] − 1.
fn further<V: Vector>(
    more: &[Manifold<V>],
) -> impl Iterator<Item = (Contact<V>, Manifold<V>)> + '_ {
    more.iter()
        .filter_map(|m| Some((m.deepest_contact()?, *m)))
        .take(MAX_MERGED_MANIFOLDS - 1)
}

/// The impulses of `new`'s points: each takes the impulse of the first of `old`'s
/// points with the same feature id (a single-point manifold matches the previous
/// single point).
fn carried<'a, V: Vector + 'a>(
    old: impl Iterator<Item = (&'a Manifold<V>, &'a Impulses<V>)> + Clone,
    new: &Manifold<V>,
) -> Impulses<V> {
    let mut out = [V::Scalar::ZERO; MAX_MANIFOLD_POINTS];
    for (slot, p) in out.iter_mut().zip(new.points()) {
        let same = old.clone().find_map(|(m, impulses)| {
            let j = m.points().iter().position(|q| q.id == p.id)?;
            Some(impulses[j])
        });
        if let Some(impulse) = same {
            *slot = impulse;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    /// A one-point manifold along `normal` whose depth and feature id are `tag`.
    fn tagged(tag: f32, normal: Vec3) -> Manifold<Vec3> {
        let c = Contact {
            normal,
            depth: tag,
            point_a: Vec3::ZERO,
            point_b: Vec3::ZERO,
            status: crate::algo::gjk::Status::Converged,
        };
        let mut id = FeatureId::SINGLE;
        id.point = tag as u32;
        Manifold::single(&c, id)
    }

    /// The pair cache against a model (pair id → its entries' tags, in chain order)
    /// under random creates, destroys and contacts of 0 to 4 manifolds: chains, owners
    /// and the entry count agree, and each entry's impulse is carried from an old
    /// point of the same id (a solver wrote each point's tag) or starts at zero.
    #[test]
    fn chains_and_impulses_follow_a_model() {
        let mut seed = 12345u64;
        let mut rnd = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let mut cache = PairCache::<Vec3>::default();
        let h = |index: u32| Handle {
            index,
            generation: 0,
        };
        let mut model: HashMap<u32, Vec<f32>> = HashMap::default();
        let (mut ids, mut fresh) = (Vec::new(), 0u32);
        let normals = [Vec3::Y, Vec3::X, Vec3::Z, -Vec3::X];
        for step in 0..20_000 {
            let op = rnd(10);
            if op == 0 || ids.is_empty() {
                let (a, b) = (rnd(30) as u32, 30 + rnd(30) as u32);
                ids.extend(cache.create(h(a), h(b)));
            } else if op == 1 {
                let id = ids.swap_remove(rnd(ids.len() as u64) as usize);
                assert_eq!(cache.destroy(id).is_some(), model.remove(&id).is_some());
            } else {
                let id = ids[rnd(ids.len() as u64) as usize];
                let n = rnd(5) as usize;
                if n == 0 {
                    let had = model.remove(&id).is_some();
                    assert_eq!(cache.set_contact(id, None, &[]), had.then_some(false));
                } else {
                    fresh += 1;
                    let old = model.get(&id).cloned().unwrap_or_default();
                    let tags: Vec<f32> = (0..n)
                        .map(|e| match old.get(e) {
                            Some(&t) if rnd(2) == 0 => t,
                            _ => (fresh * 8 + e as u32) as f32,
                        })
                        .collect();
                    let ms: Vec<_> = tags
                        .iter()
                        .zip(normals)
                        .map(|(&t, n)| tagged(t, n))
                        .collect();
                    for k in 0..cache.contacts.len() {
                        cache.impulses[k][0] = cache.contacts[k].manifold.points()[0].depth;
                    }
                    let c = ms[0].deepest_contact().unwrap();
                    let started = cache.set_contact(id, Some((&c, Some(&ms[0]))), &ms[1..]);
                    let was = model.insert(id, tags.clone()).is_some();
                    assert_eq!(started, (!was).then_some(true));
                    for (j, k) in cache.entries_of(id).enumerate() {
                        let want = if old.contains(&tags[j]) { tags[j] } else { 0.0 };
                        assert_eq!(cache.impulses[k][0], want, "step {step}");
                    }
                }
            }
            cache
                .check_entries()
                .unwrap_or_else(|e| panic!("step {step}: {e}"));
            assert_eq!(
                cache.contacts.len(),
                model.values().map(Vec::len).sum::<usize>()
            );
            for (&id, tags) in &model {
                let got: Vec<f32> = cache
                    .entries_of(id)
                    .map(|k| cache.contacts[k].manifold.points()[0].depth)
                    .collect();
                assert_eq!(&got, tags, "step {step}: pair {id}");
            }
        }
    }
}
