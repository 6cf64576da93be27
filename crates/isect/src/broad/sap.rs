//! Incremental sweep-and-prune (sort and sweep) along one axis.
//!
//! References: Baraff, "Dynamic simulation of non-penetrating rigid bodies" (1992), the
//! coherence argument; Ericson, *Real-Time Collision Detection*, 7.5.2.
//!
//! The two endpoints (min and max) of every box on the chosen axis are kept in one array
//! sorted by `(value, min before max)`, so touching intervals count as overlapping. Each
//! [`update`](SweepAndPrune::update) refreshes the endpoint values and re-sorts them by
//! insertion sort, which is linear when objects moved little since the last frame (at
//! most [`INSERTION_SHIFTS_PER_ENDPOINT`] shifts per endpoint on average, else it falls
//! back to a full sort). The sweep then copies the boxes, in the order of their min
//! endpoints, into one contiguous array and tests each box only against the boxes that
//! follow it while their min is at most its max on the axis (Terdiman's "box pruning":
//! a linear scan without the indirections of an active list); the new pair list is
//! compared with the previous one to report the pairs that started and stopped
//! overlapping. No tolerances.

use super::{check_aabb, Defect, ProxyId};
use crate::math::{Real, Vector};
use crate::shape::{Aabb, ShapeError};

/// Average number of shifts per endpoint the insertion sort may make before the update
/// switches to a full sort (a scene that changed too much for coherence to pay).
pub const INSERTION_SHIFTS_PER_ENDPOINT: usize = 8;

#[derive(Copy, Clone, Debug)]
struct Endpoint<S> {
    value: S,
    /// `proxy << 1 | is_max`.
    code: u32,
}

impl<S: PartialOrd> Endpoint<S> {
    /// Strict order: by value, then min endpoints before max endpoints.
    #[inline]
    fn before(&self, other: &Self) -> bool {
        self.value < other.value
            || (self.value == other.value && (self.code & 1) < (other.code & 1))
    }
}

/// Sweep-and-prune over boxes identified by [`ProxyId`]s.
///
/// Edge behaviour: non-finite or inverted boxes are rejected with the [`ShapeError`] of
/// [`Aabb::new`]; stale handles give `false` / an error. Zero-size and identical boxes
/// are ordinary (touching boxes overlap). Changes made by `insert`, `remove` and
/// `set_aabb` show in the pair lists after the next `update`.
#[derive(Clone, Debug)]
pub struct SweepAndPrune<V: Vector> {
    axis: usize,
    boxes: Vec<Option<Aabb<V>>>,
    live: usize,
    free: Vec<u32>,
    /// Handles removed since the last update: their endpoints are dropped there.
    removed: Vec<u32>,
    endpoints: Vec<Endpoint<V::Scalar>>,
    pairs: Vec<(ProxyId, ProxyId)>,
    started: Vec<(ProxyId, ProxyId)>,
    stopped: Vec<(ProxyId, ProxyId)>,
    /// Sweep scratch: live boxes in the order of their min endpoints, and their handles.
    sweep_boxes: Vec<Aabb<V>>,
    sweep_ids: Vec<u32>,
}

impl<V: Vector> Default for SweepAndPrune<V> {
    fn default() -> Self {
        Self {
            axis: 0,
            boxes: Vec::new(),
            live: 0,
            free: Vec::new(),
            removed: Vec::new(),
            endpoints: Vec::new(),
            pairs: Vec::new(),
            started: Vec::new(),
            stopped: Vec::new(),
            sweep_boxes: Vec::new(),
            sweep_ids: Vec::new(),
        }
    }
}

impl<V: Vector> SweepAndPrune<V> {
    /// An empty structure sweeping along `axis` (0 = x, 1 = y, 2 = z): pick the axis
    /// along which the objects are most spread out.
    ///
    /// # Errors
    /// [`ShapeError::OutOfRange`] when `axis ≥ V::DIM`.
    pub fn new(axis: usize) -> Result<Self, ShapeError> {
        if axis >= V::DIM {
            return Err(ShapeError::OutOfRange {
                shape: "SweepAndPrune",
                field: "axis",
                value: axis as f64,
                range: "0..DIM",
            });
        }
        Ok(Self {
            axis,
            ..Self::default()
        })
    }

    /// Number of live boxes.
    pub fn len(&self) -> usize {
        self.live
    }

    /// True when no box is live.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Bytes of heap memory held (boxes, endpoints, pair lists, scratch).
    pub fn heap_bytes(&self) -> usize {
        use core::mem::size_of;
        let pair = size_of::<(ProxyId, ProxyId)>();
        self.boxes.capacity() * size_of::<Option<Aabb<V>>>()
            + (self.free.capacity() + self.removed.capacity()) * 4
            + self.endpoints.capacity() * size_of::<Endpoint<V::Scalar>>()
            + (self.pairs.capacity() + self.started.capacity() + self.stopped.capacity()) * pair
            + self.sweep_boxes.capacity() * size_of::<Aabb<V>>()
            + self.sweep_ids.capacity() * 4
    }

    /// The box of a live handle.
    pub fn aabb(&self, id: ProxyId) -> Option<&Aabb<V>> {
        self.boxes.get(id.index())?.as_ref()
    }

    /// Adds a box.
    ///
    /// # Errors
    /// The [`ShapeError`] of [`Aabb::new`] for a bad box; [`ShapeError::OutOfRange`]
    /// when handles would exceed `2³¹`.
    pub fn insert(&mut self, aabb: Aabb<V>) -> Result<ProxyId, ShapeError> {
        check_aabb(&aabb)?;
        let id = match self.free.pop() {
            Some(id) => id,
            None => {
                let id = u32::try_from(self.boxes.len())
                    .ok()
                    .filter(|&i| i < 1 << 31)
                    .ok_or(ShapeError::OutOfRange {
                        shape: "SweepAndPrune",
                        field: "box count",
                        value: self.boxes.len() as f64,
                        range: "below 2^31",
                    })?;
                self.boxes.push(None);
                id
            }
        };
        self.boxes[id as usize] = Some(aabb);
        self.live += 1;
        let value = V::Scalar::ZERO; // refreshed by update
        self.endpoints.push(Endpoint {
            value,
            code: id << 1,
        });
        self.endpoints.push(Endpoint {
            value,
            code: id << 1 | 1,
        });
        Ok(ProxyId(id))
    }

    /// Removes a box; `false` for a stale handle.
    pub fn remove(&mut self, id: ProxyId) -> bool {
        match self.boxes.get_mut(id.index()) {
            Some(slot @ Some(_)) => {
                *slot = None;
                self.live -= 1;
                self.removed.push(id.0);
                true
            }
            _ => false,
        }
    }

    /// Replaces the box of a live handle.
    ///
    /// # Errors
    /// The [`ShapeError`] of [`Aabb::new`] for a bad box; [`ShapeError::OutOfRange`] for
    /// a stale handle.
    pub fn set_aabb(&mut self, id: ProxyId, aabb: Aabb<V>) -> Result<(), ShapeError> {
        check_aabb(&aabb)?;
        match self.boxes.get_mut(id.index()) {
            Some(Some(b)) => {
                *b = aabb;
                Ok(())
            }
            _ => Err(ShapeError::OutOfRange {
                shape: "SweepAndPrune",
                field: "proxy",
                value: f64::from(id.0),
                range: "live proxy handles",
            }),
        }
    }

    /// Every overlapping pair `(a, b)`, `a < b`, sorted, as of the last update.
    pub fn pairs(&self) -> &[(ProxyId, ProxyId)] {
        &self.pairs
    }

    /// Pairs that overlap now and did not before the last update, sorted.
    pub fn started(&self) -> &[(ProxyId, ProxyId)] {
        &self.started
    }

    /// Pairs that overlapped before the last update and do not now (including pairs of
    /// removed boxes), sorted.
    pub fn stopped(&self) -> &[(ProxyId, ProxyId)] {
        &self.stopped
    }

    /// Re-sorts the endpoints, sweeps, and refreshes [`pairs`](Self::pairs),
    /// [`started`](Self::started) and [`stopped`](Self::stopped).
    pub fn update(&mut self) {
        self.drop_removed();
        self.refresh_endpoints();
        self.sort_endpoints();
        let mut pairs = Vec::with_capacity(self.pairs.len());
        self.sweep(&mut pairs);
        pairs.sort_unstable();
        diff_sorted(&pairs, &self.pairs, &mut self.started);
        diff_sorted(&self.pairs, &pairs, &mut self.stopped);
        self.pairs = pairs;
    }

    fn drop_removed(&mut self) {
        if self.removed.is_empty() {
            return;
        }
        let boxes = &self.boxes;
        self.endpoints
            .retain(|e| boxes[(e.code >> 1) as usize].is_some());
        // Handles become reusable only now, once their old endpoints are gone.
        self.free.append(&mut self.removed);
    }

    fn refresh_endpoints(&mut self) {
        for e in &mut self.endpoints {
            if let Some(b) = &self.boxes[(e.code >> 1) as usize] {
                e.value = if e.code & 1 == 0 {
                    b.min.get(self.axis)
                } else {
                    b.max.get(self.axis)
                };
            }
        }
    }

    /// Insertion sort, capped; a full sort when the cap is reached.
    fn sort_endpoints(&mut self) {
        let cap = INSERTION_SHIFTS_PER_ENDPOINT * self.endpoints.len();
        let mut shifts = 0usize;
        let e = &mut self.endpoints;
        for i in 1..e.len() {
            let key = e[i];
            let mut j = i;
            while j > 0 && key.before(&e[j - 1]) {
                e[j] = e[j - 1];
                j -= 1;
                shifts += 1;
            }
            e[j] = key;
            if shifts > cap {
                e.sort_unstable_by(|a, b| {
                    let order = a.value.partial_cmp(&b.value);
                    order
                        .unwrap_or(core::cmp::Ordering::Equal)
                        .then((a.code & 1).cmp(&(b.code & 1)))
                });
                return;
            }
        }
    }

    /// Every pair whose intervals overlap on the axis, tested on the other axes too.
    fn sweep(&mut self, pairs: &mut Vec<(ProxyId, ProxyId)>) {
        self.collect_in_min_order();
        let (boxes, ids) = (&self.sweep_boxes, &self.sweep_ids);
        for (k, bk) in boxes.iter().enumerate() {
            let hi = bk.max.get(self.axis);
            for (j, bj) in boxes.iter().enumerate().skip(k + 1) {
                // Sorted by min, min before max on ties: touching intervals are scanned.
                if bj.min.get(self.axis) > hi {
                    break;
                }
                if bk.intersects(bj) {
                    let (p, q) = (ids[k], ids[j]);
                    pairs.push((ProxyId(p.min(q)), ProxyId(p.max(q))));
                }
            }
        }
    }

    /// Fills the sweep scratch with the live boxes in the order of their min endpoints.
    fn collect_in_min_order(&mut self) {
        self.sweep_boxes.clear();
        self.sweep_ids.clear();
        for e in self.endpoints.iter().filter(|e| e.code & 1 == 0) {
            let p = e.code >> 1;
            if let Some(b) = &self.boxes[p as usize] {
                self.sweep_boxes.push(*b);
                self.sweep_ids.push(p);
            }
        }
    }

    /// Checks that every live box has exactly its two endpoints, in sorted order, with
    /// the current values (valid right after [`update`](Self::update)), and that the
    /// pair list is sorted without repeats.
    ///
    /// # Errors
    /// A [`Defect`] describing the first broken invariant.
    pub fn validate(&self) -> Result<(), Defect> {
        let mut seen = vec![0u8; self.boxes.len()];
        for (k, e) in self.endpoints.iter().enumerate() {
            let p = (e.code >> 1) as usize;
            let b = self.boxes.get(p).and_then(|b| b.as_ref());
            let b = b.ok_or_else(|| Defect(format!("endpoint {k} of a dead box {p}")))?;
            let want = if e.code & 1 == 0 { b.min } else { b.max }.get(self.axis);
            if e.value != want || k > 0 && e.before(&self.endpoints[k - 1]) {
                return Err(Defect(format!("endpoint {k} stale or out of order")));
            }
            seen[p] |= 1 << (e.code & 1);
        }
        for (p, b) in self.boxes.iter().enumerate() {
            if b.is_some() != (seen[p] == 3) {
                return Err(Defect(format!("box {p} lacks an endpoint")));
            }
        }
        if self.pairs.windows(2).any(|w| w[0] >= w[1]) {
            return Err(Defect("pair list not strictly sorted".into()));
        }
        Ok(())
    }
}

/// `out = a \ b` for sorted, repeat-free lists.
fn diff_sorted(
    a: &[(ProxyId, ProxyId)],
    b: &[(ProxyId, ProxyId)],
    out: &mut Vec<(ProxyId, ProxyId)>,
) {
    out.clear();
    let mut j = 0;
    for x in a {
        while j < b.len() && b[j] < *x {
            j += 1;
        }
        if j >= b.len() || b[j] != *x {
            out.push(*x);
        }
    }
}
