//! Incremental sweep-and-prune (sort and sweep) along one axis.
//!
//! References: Baraff, "Dynamic simulation of non-penetrating rigid bodies" (1992), the
//! coherence argument; Ericson, *Real-Time Collision Detection*, 7.5.2.
//!
//! The min endpoint of every box on the chosen axis is kept in one array sorted by value
//! (the sweep needs no max endpoints). Each [`update`](SweepAndPrune::update) refreshes
//! the values and re-sorts them by insertion sort, which is linear when objects moved
//! little since the last frame (at most [`INSERTION_SHIFTS_PER_ENDPOINT`] shifts per
//! endpoint on average, else it falls back to a full sort on integer keys). The sweep
//! then copies the boxes, in that order, into contiguous arrays, one per cell of a grid
//! across the other axes ([`Cells`]), and in each cell tests each box only against the
//! boxes that
//! follow it while their min is at most its max on the axis (Terdiman's "box pruning":
//! a linear scan without the indirections of an active list; touching intervals are
//! scanned, so touching boxes overlap); the new pair list is compared with the previous
//! one to report the pairs that started and stopped overlapping. No tolerances.

use super::{check_aabb, Defect, ProxyId};
use crate::math::{Real, Vector};
use crate::shape::{Aabb, ShapeError};

/// Average number of shifts per endpoint the insertion sort may make before the update
/// switches to a full sort (a scene that changed too much for coherence to pay).
pub const INSERTION_SHIFTS_PER_ENDPOINT: usize = 32;

/// The min endpoint of a box on the sweep axis.
#[derive(Copy, Clone, Debug)]
struct Endpoint<S> {
    value: S,
    proxy: u32,
}

/// A `u64` ordered as the finite value `v` (the IEEE bits of `v` as `f64`, negatives
/// flipped), for the fallback sort.
#[inline]
fn order_key<S: Real>(v: S) -> u64 {
    let bits = v.to_f64().to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
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
    /// Sweep scratch: the same boxes dealt into cells (see [`Cells`]).
    dealt: Dealt<V>,
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
            dealt: Dealt::default(),
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
            + self.dealt.heap_bytes()
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
        self.endpoints.push(Endpoint {
            value: aabb.min.get(self.axis),
            proxy: id,
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
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // Sweep along x: boxes [0, 1] and [0.5, 1.5] overlap; moving the second away ends it.
    /// let mut sap = SweepAndPrune::new(0)?;
    /// let a = sap.insert(Aabb::new(Vec2::ZERO, Vec2::ONE)?)?;
    /// let b = sap.insert(Aabb::new(Vec2::new(0.5, 0.0), Vec2::new(1.5, 1.0))?)?;
    /// sap.insert(Aabb::new(Vec2::new(5.0, 0.0), Vec2::new(6.0, 1.0))?)?;
    /// sap.update();
    /// assert_eq!(sap.pairs(), [(a, b)]);
    /// assert_eq!(sap.started(), [(a, b)]);
    /// sap.set_aabb(b, Aabb::new(Vec2::new(2.0, 0.0), Vec2::new(3.0, 1.0))?)?;
    /// sap.update();
    /// assert!(sap.pairs().is_empty());
    /// assert_eq!(sap.stopped(), [(a, b)]);
    /// # Ok(())
    /// # }
    /// ```
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
        self.endpoints.retain(|e| boxes[e.proxy as usize].is_some());
        // Handles become reusable only now, once their old endpoints are gone.
        self.free.append(&mut self.removed);
    }

    fn refresh_endpoints(&mut self) {
        for e in &mut self.endpoints {
            if let Some(b) = &self.boxes[e.proxy as usize] {
                e.value = b.min.get(self.axis);
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
            while j > 0 && key.value < e[j - 1].value {
                e[j] = e[j - 1];
                j -= 1;
                shifts += 1;
            }
            e[j] = key;
            if shifts > cap {
                e.sort_unstable_by_key(|e| order_key(e.value));
                return;
            }
        }
    }

    /// Every pair whose intervals overlap on the axis, tested on the other axes too:
    /// the boxes (in min order) are dealt into the cells of a grid across the other axes
    /// and each cell is swept on its own (see [`Cells`]).
    fn sweep(&mut self, pairs: &mut Vec<(ProxyId, ProxyId)>) {
        self.collect_in_min_order();
        let cells = Cells::fit(&self.sweep_boxes, self.axis);
        cells.deal(&self.sweep_boxes, &self.sweep_ids, &mut self.dealt);
        let (boxes, ids) = (&self.dealt.boxes, &self.dealt.ids);
        for (cell, range) in self.dealt.ranges().enumerate() {
            let (boxes, ids) = (&boxes[range.clone()], &ids[range]);
            for (k, bk) in boxes.iter().enumerate() {
                let hi = bk.max.get(self.axis);
                for (j, bj) in boxes.iter().enumerate().skip(k + 1) {
                    // Sorted by min: a box whose min equals this max (touching) is
                    // still scanned.
                    if bj.min.get(self.axis) > hi {
                        break;
                    }
                    if bk.intersects(bj) && cells.owns(cell, bk, bj) {
                        let (p, q) = (ids[k], ids[j]);
                        pairs.push((ProxyId(p.min(q)), ProxyId(p.max(q))));
                    }
                }
            }
        }
    }

    /// Fills the sweep scratch with the live boxes in the order of their min endpoints.
    fn collect_in_min_order(&mut self) {
        self.sweep_boxes.clear();
        self.sweep_ids.clear();
        for e in &self.endpoints {
            if let Some(b) = &self.boxes[e.proxy as usize] {
                self.sweep_boxes.push(*b);
                self.sweep_ids.push(e.proxy);
            }
        }
    }

    /// Checks that every live box has exactly one endpoint, in sorted order, with the
    /// current value (valid right after [`update`](Self::update)), and that the pair list
    /// is sorted without repeats.
    ///
    /// # Errors
    /// A [`Defect`] describing the first broken invariant.
    pub fn validate(&self) -> Result<(), Defect> {
        let mut seen = vec![false; self.boxes.len()];
        for (k, e) in self.endpoints.iter().enumerate() {
            let p = e.proxy as usize;
            let b = self.boxes.get(p).and_then(|b| b.as_ref());
            let b = b.ok_or_else(|| Defect(format!("endpoint {k} of a dead box {p}")))?;
            if e.value != b.min.get(self.axis) || k > 0 && e.value < self.endpoints[k - 1].value {
                return Err(Defect(format!("endpoint {k} stale or out of order")));
            }
            if core::mem::replace(&mut seen[p], true) {
                return Err(Defect(format!("box {p} has two endpoints")));
            }
        }
        for (p, b) in self.boxes.iter().enumerate() {
            if b.is_some() != seen[p] {
                return Err(Defect(format!("box {p} lacks an endpoint")));
            }
        }
        if self.pairs.windows(2).any(|w| w[0] >= w[1]) {
            return Err(Defect("pair list not strictly sorted".into()));
        }
        Ok(())
    }
}

/// A grid of cells across the axes other than the sweep axis (one in 2D, two in 3D),
/// each cell about [`CELL_EXTENTS`] mean box extents wide on each of them: every box
/// is dealt into each cell its box meets and every cell is swept on its own, so a box is
/// tested only against the boxes near it on every axis instead of one (as PhysX's
/// multi-box pruning splits a scene into regions, each pruned on its own). A pair that
/// meets several cells is reported only by the cell holding the low corner of their
/// overlap (the largest min on each grid axis), which lies in both boxes' cells. The
/// cell row of a value is monotonic in the value (one rounding of a multiplication, then
/// a clamp), so the boxes of a cell keep their min order and no overlap is lost to
/// rounding.
#[derive(Copy, Clone, Debug)]
struct Cells<S> {
    rows: [GridAxis<S>; 2],
}

/// One axis of [`Cells`]: `count` rows of equal width from `origin`.
#[derive(Copy, Clone, Debug)]
struct GridAxis<S> {
    axis: usize,
    origin: S,
    per_unit: S,
    count: usize,
}

/// Cell width, in mean box extents along the grid axis: narrower cells cut the tests
/// of each cell but deal more boxes into several cells.
const CELL_EXTENTS: f64 = 2.0;

/// Fewest boxes per cell on average (sparse scenes sweep in fewer cells).
const MIN_BOXES_PER_CELL: usize = 8;

/// Most rows along one grid axis.
const MAX_ROWS: usize = 1024;

impl<S: Real> GridAxis<S> {
    /// A single row: everything in cell row 0.
    const ONE: Self = Self {
        axis: 0,
        origin: S::ZERO,
        per_unit: S::ZERO,
        count: 1,
    };

    /// Rows along `axis` for `boxes` (finite), at most `most`.
    fn fit<V: Vector<Scalar = S>>(boxes: &[Aabb<V>], axis: usize, most: usize) -> Self {
        let origin = boxes
            .iter()
            .fold(S::INFINITY, |m, b| m.min(b.min.get(axis)));
        let top = boxes
            .iter()
            .fold(S::NEG_INFINITY, |m, b| m.max(b.max.get(axis)));
        let range = top - origin;
        let extents = boxes.iter().fold(0.0, |sum, b| {
            sum + (b.max.get(axis) - b.min.get(axis)).to_f64()
        });
        let mean = extents / boxes.len().max(1) as f64;
        let wanted = range.to_f64() / (CELL_EXTENTS * mean);
        // NaN (no boxes, or zero extents over a zero range) takes one row; ∞ the most.
        let count = if wanted >= 2.0 {
            (wanted as usize).min(most)
        } else {
            1
        };
        if count == 1 {
            return Self::ONE;
        }
        Self {
            axis,
            origin,
            // A range that overflowed to ∞ gives 0: every value in row 0.
            per_unit: S::from_f64(count as f64) / range,
            count,
        }
    }

    /// The row of coordinate `v`.
    #[inline]
    fn row(&self, v: S) -> usize {
        let last = S::from_f64((self.count - 1) as f64);
        ((v - self.origin) * self.per_unit)
            .clamp_to(S::ZERO, last)
            .to_f64() as usize
    }

    /// The rows `aabb` meets.
    #[inline]
    fn span<V: Vector<Scalar = S>>(&self, aabb: &Aabb<V>) -> core::ops::RangeInclusive<usize> {
        self.row(aabb.min.get(self.axis))..=self.row(aabb.max.get(self.axis))
    }
}

impl<S: Real> Cells<S> {
    /// Cells for `boxes` (finite) swept along `sweep_axis`.
    fn fit<V: Vector<Scalar = S>>(boxes: &[Aabb<V>], sweep_axis: usize) -> Self {
        let mut rows = [GridAxis::ONE; 2];
        let grid_axes = (0..V::DIM).filter(|&a| a != sweep_axis);
        let dims = V::DIM - 1;
        // Rows per axis so that the cells average at least MIN_BOXES_PER_CELL boxes.
        let cells = (boxes.len() / MIN_BOXES_PER_CELL).max(1) as f64;
        let most = (cells.powf(1.0 / dims as f64) as usize).clamp(1, MAX_ROWS);
        for (row, axis) in rows.iter_mut().zip(grid_axes) {
            *row = GridAxis::fit(boxes, axis, most);
        }
        Self { rows }
    }

    /// Number of cells.
    fn count(&self) -> usize {
        self.rows[0].count * self.rows[1].count
    }

    /// Calls `f(cell)` for every cell `aabb` meets.
    #[inline]
    fn for_each_cell<V: Vector<Scalar = S>>(&self, aabb: &Aabb<V>, mut f: impl FnMut(usize)) {
        let width = self.rows[0].count;
        for r1 in self.rows[1].span(aabb) {
            for r0 in self.rows[0].span(aabb) {
                f(r0 + width * r1);
            }
        }
    }

    /// Whether `cell` reports the pair `a`, `b` (overlapping boxes).
    #[inline]
    fn owns<V: Vector<Scalar = S>>(&self, cell: usize, a: &Aabb<V>, b: &Aabb<V>) -> bool {
        let row = |g: &GridAxis<S>| g.row(a.min.get(g.axis).max(b.min.get(g.axis)));
        row(&self.rows[0]) + self.rows[0].count * row(&self.rows[1]) == cell
    }

    /// Deals `boxes` (with their `ids`) into `out`, cell by cell, keeping their order.
    fn deal<V: Vector<Scalar = S>>(&self, boxes: &[Aabb<V>], ids: &[u32], out: &mut Dealt<V>) {
        out.starts.clear();
        out.starts.resize(self.count() + 1, 0);
        for b in boxes {
            self.for_each_cell(b, |cell| out.starts[cell + 1] += 1);
        }
        for cell in 0..self.count() {
            out.starts[cell + 1] += out.starts[cell];
        }
        let total = out.starts[self.count()];
        out.boxes.clear();
        out.ids.clear();
        let Some(first) = boxes.first() else { return };
        out.boxes.resize(total, *first);
        out.ids.resize(total, 0);
        let mut next = out.starts.clone();
        for (b, &id) in boxes.iter().zip(ids) {
            self.for_each_cell(b, |cell| {
                out.boxes[next[cell]] = *b;
                out.ids[next[cell]] = id;
                next[cell] += 1;
            });
        }
    }
}

/// Boxes dealt into cells: cell `i` holds `boxes[starts[i]..starts[i + 1]]`.
#[derive(Clone, Debug)]
struct Dealt<V: Vector> {
    boxes: Vec<Aabb<V>>,
    ids: Vec<u32>,
    starts: Vec<usize>,
}

impl<V: Vector> Default for Dealt<V> {
    fn default() -> Self {
        Self {
            boxes: Vec::new(),
            ids: Vec::new(),
            starts: Vec::new(),
        }
    }
}

impl<V: Vector> Dealt<V> {
    /// The index range of each cell.
    fn ranges(&self) -> impl Iterator<Item = core::ops::Range<usize>> + '_ {
        self.starts.windows(2).map(|w| w[0]..w[1])
    }

    fn heap_bytes(&self) -> usize {
        self.boxes.capacity() * core::mem::size_of::<Aabb<V>>()
            + self.ids.capacity() * 4
            + self.starts.capacity() * core::mem::size_of::<usize>()
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
