//! Binned SAH construction of the 4-wide [`Bvh`](super::Bvh) (I. Wald, "On fast
//! construction of SAH-based bounding volume hierarchies", 2007; the wide-node
//! collapse as in Wald et al., "Embree", 2014).
//!
//! A binary split sorts the primitives' centroids into [`BINS`] equal bins
//! ([`LARGE_RANGE_BINS`] for ranges of [`LARGE_RANGE`] items or more) along the
//! longest axis of their bounds, sweeps the bins to evaluate the surface area heuristic
//! `area(L)·|L| + area(R)·|R|` at every bin boundary, and partitions at the cheapest (two
//! passes per split; the bins span the range's bounds, and give both sides' bounds). The
//! partition puts an item on the left exactly when the binning put it in a bin left of
//! the split (one function computes the bin for both passes), so the sides' bounds are
//! always their items' bounds, whatever the rounding (subnormal or huge extents
//! included). The partition writes from one buffer of primitives into a second one and
//! the next split reads from there (ping-pong, no copy back); each range knows which
//! buffer holds it. A 4-wide node starts with its whole range as one child and splits
//! the child of largest surface until it has four, so every node over four or more
//! items is full. When all centroids fall in one bin (or the bins cannot be scaled to
//! the range) a range is halved at the object median; from binary depth
//! [`SAH_DEPTH_LIMIT`] on, ranges are halved at the object median, which bounds the
//! depth of the tree whatever the input. Leaves hold one item each. Work is kept on an
//! explicit stack.
//!
//! Boxes are kept as two rows of four lanes (`lo`, `hi`; axes past the dimension are
//! zero) and item indices in a parallel array, so that merging a box into a bin is a
//! lane-wise min / max that compiles to SIMD instructions. No tolerances.

use super::simd::{Boxes4, LANES};
use crate::math::{Real, Vector};
use crate::shape::Aabb;

/// Bins per binned SAH split.
pub(super) const BINS: usize = 12;
/// Ranges of at least this many items are binned into [`LARGE_RANGE_BINS`] bins.
pub(super) const LARGE_RANGE: usize = 4096;
/// Bins per split of a range of [`LARGE_RANGE`] items or more.
pub(super) const LARGE_RANGE_BINS: usize = 8;
/// Ranges of at most this many items are split exactly (sorted), not binned.
pub(super) const SMALL_RANGE: usize = 16;
/// Binary split depth from which splits fall back to the object median.
pub(super) const SAH_DEPTH_LIMIT: u32 = 64;
/// Child slot holding nothing.
pub(super) const EMPTY_SLOT: u32 = u32::MAX;
/// Bit marking a child slot that holds an item (leaf) rather than a node index.
pub(super) const LEAF_BIT: u32 = 1 << 31;
/// Items with an index at or above this are not stored (their slot code would collide).
pub(super) const MAX_ITEMS: usize = (LEAF_BIT - 1) as usize;

/// A node: four child boxes (structure of arrays) and four child slot codes, aligned to
/// a cache line so that it never straddles more lines than it must.
#[derive(Copy, Clone, Debug)]
#[repr(C, align(128))]
pub(super) struct Node4<S: Real> {
    pub(super) boxes: Boxes4<S>,
    /// [`EMPTY_SLOT`], `LEAF_BIT | item`, or a node index (always larger than this
    /// node's own index).
    pub(super) child: [u32; LANES],
    /// Bit `l` set when slot `l` holds an item (kept in the padding of the cache
    /// line, so that a walk tests items without decoding the codes).
    pub(super) items: u32,
}

impl<S: Real> Node4<S> {
    pub(super) const EMPTY: Self = Self {
        boxes: Boxes4::EMPTY,
        child: [EMPTY_SLOT; LANES],
        items: 0,
    };
}

/// A box as two rows of four lanes; lanes past the dimension are zero in primitives
/// (and stay neutral in merges). Also the mesh ray tree's build's box
/// (`shape/trimesh/ray_build.rs`).
#[derive(Copy, Clone)]
#[repr(C, align(16))]
pub(crate) struct Rows<S: Real> {
    pub(crate) lo: [S; LANES],
    pub(crate) hi: [S; LANES],
}

impl<S: Real> Rows<S> {
    /// `lo = +∞`, `hi = −∞`: neutral for [`merge`](Self::merge).
    pub(crate) const EMPTY: Self = Self {
        lo: [S::INFINITY; LANES],
        hi: [S::NEG_INFINITY; LANES],
    };

    #[inline]
    fn from_aabb<V: Vector<Scalar = S>>(b: &Aabb<V>) -> Self {
        let mut rows = Self {
            lo: [S::ZERO; LANES],
            hi: [S::ZERO; LANES],
        };
        for axis in 0..V::DIM {
            rows.lo[axis] = b.min.get(axis);
            rows.hi[axis] = b.max.get(axis);
        }
        rows
    }

    /// Finite with `lo ≤ hi` in every lane; `&`, not `&&`, so that the lanes are
    /// tested by a few vector instructions.
    #[inline(always)]
    fn is_valid(&self) -> bool {
        let mut ok = true;
        for lane in 0..LANES {
            let (lo, hi) = (self.lo[lane], self.hi[lane]);
            ok &= lo.is_finite() & hi.is_finite() & (lo <= hi);
        }
        ok
    }

    /// Grows `self` to hold `other`: lane-wise, written as comparisons so that each
    /// row is one SIMD min / max.
    #[inline(always)]
    pub(crate) fn merge(&mut self, other: &Self) {
        for lane in 0..LANES {
            let (lo, hi) = (other.lo[lane], other.hi[lane]);
            self.lo[lane] = if lo < self.lo[lane] {
                lo
            } else {
                self.lo[lane]
            };
            self.hi[lane] = if hi > self.hi[lane] {
                hi
            } else {
                self.hi[lane]
            };
        }
    }

    /// Half the surface measure over the first `dim` axes (perimeter in 2D, area in
    /// 3D): the SAH weight, up to a constant factor.
    #[inline]
    pub(crate) fn half_area(&self, dim: usize) -> S {
        let e = |axis: usize| self.hi[axis] - self.lo[axis];
        if dim == 2 {
            e(0) + e(1)
        } else {
            e(0) * e(1) + e(1) * e(2) + e(2) * e(0)
        }
    }

    /// The axis of largest extent among the first `dim` (the first on ties).
    #[inline]
    fn longest_axis(&self, dim: usize) -> usize {
        let mut best = 0;
        for axis in 1..dim {
            if self.hi[axis] - self.lo[axis] > self.hi[best] - self.lo[best] {
                best = axis;
            }
        }
        best
    }

    /// Twice the centroid's coordinate on `axis` (the halving changes no comparison).
    #[inline(always)]
    fn centroid2(&self, axis: usize) -> S {
        self.lo[axis] + self.hi[axis]
    }
}

/// A range of primitives with its bounds; `buf` names the buffer that holds them.
#[derive(Copy, Clone)]
struct Range<S: Real> {
    start: usize,
    end: usize,
    buf: usize,
    bounds: Rows<S>,
}

impl<S: Real> Range<S> {
    #[inline]
    fn len(&self) -> usize {
        self.end - self.start
    }
}

/// Builds the nodes over every valid box of `boxes` (finite, `min ≤ max`, index below
/// [`MAX_ITEMS`]), and the number of items stored; node 0 is the root. Empty when no
/// box is valid.
pub(super) fn build<V: Vector>(boxes: &[Aabb<V>]) -> (Vec<Node4<V::Scalar>>, usize) {
    let mut prims = Vec::with_capacity(boxes.len());
    let mut items = Vec::with_capacity(boxes.len());
    let mut bounds = Rows::EMPTY;
    for (i, b) in boxes.iter().take(MAX_ITEMS).enumerate() {
        let rows = Rows::from_aabb(b);
        if rows.is_valid() {
            bounds.merge(&rows);
            prims.push(rows);
            items.push(i as u32);
        }
    }
    let len = prims.len();
    if len == 0 {
        return (Vec::new(), 0);
    }
    let root = Range {
        start: 0,
        end: len,
        buf: 0,
        bounds,
    };
    let mut builder = Builder::<V> {
        prims: [prims.clone(), prims],
        items: [items.clone(), items],
        scratch: Vec::new(),
        bins: [Bins::EMPTY; 2],
        // Full 4-wide nodes would need ⌈(n − 1) / 3⌉; SAH splits leave some nodes with
        // two or three children, and about n / 2 nodes are typical.
        nodes: Vec::with_capacity(len / 2 + 1),
    };
    builder.run(root);
    let mut nodes = builder.nodes;
    // The estimate is usually close; copying the nodes to save a few percent is not
    // worth it then.
    if nodes.capacity() - nodes.len() > nodes.len() / 8 {
        nodes.shrink_to_fit();
    }
    (nodes, len)
}

/// The state of one build: both primitive buffers with their item indices (ping-pong),
/// scratch space for median splits, and the nodes made so far.
struct Builder<V: Vector> {
    prims: [Vec<Rows<V::Scalar>>; 2],
    items: [Vec<u32>; 2],
    scratch: Vec<(f64, u32)>,
    /// Even and odd bins of the current split.
    bins: [Bins<V::Scalar>; 2],
    nodes: Vec<Node4<V::Scalar>>,
}

/// One split's binning: bin `k` of a primitive is `⌊(c − origin)·scale⌋` clamped to
/// `[0, last]`, `c` its doubled centroid on `axis`.
#[derive(Copy, Clone)]
struct BinMap<S: Real> {
    axis: usize,
    origin: S,
    scale: S,
    last: i32,
}

impl<S: Real> BinMap<S> {
    /// The bin of `p`; NaN (from overflowing coordinates) lands in bin 0. The binning
    /// and the partition both call this, so they always agree.
    #[inline(always)]
    fn bin(&self, p: &Rows<S>) -> usize {
        let x = (p.centroid2(self.axis) - self.origin) * self.scale;
        (x.to_f64() as i32).clamp(0, self.last) as usize
    }

    /// `self.bin(p) < split` for `1 ≤ split ≤ last`, without the conversion: for
    /// `x ≥ 0` truncation below an integer `split` means `x < split`, a negative `x`
    /// is in bin 0 and so is NaN, which `!(x ≥ split)` sends left too.
    // `!(x >= split)` is deliberate: it is also true for NaN, as the binning's bin 0.
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    #[inline(always)]
    fn left_of(&self, p: &Rows<S>, split: usize) -> bool {
        let x = (p.centroid2(self.axis) - self.origin) * self.scale;
        !(x >= S::from_f64(split as f64))
    }
}

/// Bins of one split, structure of arrays: lower rows, upper rows and counts.
#[derive(Copy, Clone)]
struct Bins<S: Real> {
    lo: [[S; LANES]; BINS],
    hi: [[S; LANES]; BINS],
    count: [u32; BINS],
}

impl<S: Real> Bins<S> {
    const EMPTY: Self = Self {
        lo: [[S::INFINITY; LANES]; BINS],
        hi: [[S::NEG_INFINITY; LANES]; BINS],
        count: [0; BINS],
    };

    /// Empties the first `n` bins.
    #[inline(always)]
    fn reset(&mut self, n: usize) {
        self.lo[..n].fill([S::INFINITY; LANES]);
        self.hi[..n].fill([S::NEG_INFINITY; LANES]);
        self.count[..n].fill(0);
    }

    #[inline(always)]
    fn add(&mut self, bin: usize, p: &Rows<S>) {
        let (lo, hi) = (&mut self.lo[bin], &mut self.hi[bin]);
        for lane in 0..LANES {
            lo[lane] = if p.lo[lane] < lo[lane] {
                p.lo[lane]
            } else {
                lo[lane]
            };
            hi[lane] = if p.hi[lane] > hi[lane] {
                p.hi[lane]
            } else {
                hi[lane]
            };
        }
        self.count[bin] += 1;
    }

    /// Bin `k` as a box.
    #[inline(always)]
    fn rows(&self, k: usize) -> Rows<S> {
        Rows {
            lo: self.lo[k],
            hi: self.hi[k],
        }
    }

    /// Merges the first `n` of `other`'s bins into these, lane by lane over whole rows.
    #[inline(always)]
    fn absorb(&mut self, other: &Self, n: usize) {
        let lo = self.lo[..n].as_flattened_mut().iter_mut();
        for (a, &b) in lo.zip(other.lo[..n].as_flattened()) {
            *a = if b < *a { b } else { *a };
        }
        let hi = self.hi[..n].as_flattened_mut().iter_mut();
        for (a, &b) in hi.zip(other.hi[..n].as_flattened()) {
            *a = if b > *a { b } else { *a };
        }
        for (a, b) in self.count[..n].iter_mut().zip(&other.count[..n]) {
            *a += b;
        }
    }
}

impl<V: Vector> Builder<V> {
    /// Makes the nodes of the tree over `root`.
    fn run(&mut self, root: Range<V::Scalar>) {
        // (parent node and slot to link, range, binary depth). Nodes are numbered when
        // popped, and children are pushed last slot first: the layout is depth-first
        // preorder with each node's first inner child right after it, so that a descent
        // reads memory forwards.
        let mut tasks = vec![(None::<(usize, usize)>, root, 0u32)];
        while let Some((link, range, depth)) = tasks.pop() {
            let node = self.nodes.len();
            self.nodes.push(Node4::EMPTY);
            if let Some((parent, slot)) = link {
                self.nodes[parent].child[slot] = node as u32;
            }
            let (children, count) = self.split_wide(range, depth);
            for (slot, child) in children[..count].iter().enumerate().rev() {
                let boxes = &mut self.nodes[node].boxes;
                for axis in 0..V::DIM {
                    boxes.min[axis][slot] = child.bounds.lo[axis];
                    boxes.max[axis][slot] = child.bounds.hi[axis];
                }
                if child.len() == 1 {
                    let item = self.items[child.buf][child.start];
                    self.nodes[node].child[slot] = LEAF_BIT | item;
                    self.nodes[node].items |= 1 << slot;
                } else {
                    tasks.push((Some((node, slot)), *child, depth + 2));
                }
            }
        }
    }

    /// Splits `range` into up to four children: the child of largest surface among
    /// those holding two or more items is split until there are four.
    fn split_wide(
        &mut self,
        range: Range<V::Scalar>,
        depth: u32,
    ) -> ([Range<V::Scalar>; LANES], usize) {
        let mut children = [range; LANES];
        if range.len() <= LANES {
            for (k, child) in children.iter_mut().take(range.len()).enumerate() {
                let at = range.start + k;
                child.start = at;
                child.end = at + 1;
                child.bounds = self.prims[range.buf][at];
            }
            return (children, range.len());
        }
        let mut count = 1;
        while count < LANES {
            let mut widest = None::<(usize, V::Scalar)>;
            for (k, child) in children[..count].iter().enumerate() {
                let area = child.bounds.half_area(V::DIM);
                if child.len() > 1 && widest.is_none_or(|(_, best)| area > best) {
                    widest = Some((k, area));
                }
            }
            let Some((k, _)) = widest else {
                break;
            };
            let (left, right) = self.split2(children[k], depth);
            children[k] = left;
            children[count] = right;
            count += 1;
        }
        (children, count)
    }

    /// One binary split of a range of two or more items into two non-empty ranges. The
    /// bins span the range's bounds on their longest axis (centroids lie inside them, so
    /// no separate pass gathers centroid bounds).
    fn split2(
        &mut self,
        range: Range<V::Scalar>,
        depth: u32,
    ) -> (Range<V::Scalar>, Range<V::Scalar>) {
        let b = &range.bounds;
        let axis = b.longest_axis(V::DIM);
        // Doubled coordinates, like the doubled centroids.
        let origin = b.lo[axis] * V::Scalar::TWO;
        let extent = (b.hi[axis] - b.lo[axis]) * V::Scalar::TWO;
        // Fewer bins for small ranges (the fixed cost of the sweep dominates there) and
        // for large ones (binning dominates, and a coarse split near the root is refined
        // below).
        let bins_used = if range.len() >= LARGE_RANGE {
            LARGE_RANGE_BINS
        } else {
            BINS.min(range.len())
        };
        let scale = V::Scalar::from_f64(bins_used as f64) / extent;
        // A zero, subnormal or overflowing extent cannot be binned.
        if depth >= SAH_DEPTH_LIMIT || !(extent > V::Scalar::ZERO && scale.is_finite()) {
            return self.median_split(range, axis);
        }
        if range.len() <= SMALL_RANGE {
            return self.sorted_split(range, axis);
        }
        let map = BinMap {
            axis,
            origin,
            scale,
            last: bins_used as i32 - 1,
        };
        self.bin_range(&range, &map);
        let Some(best) = best_bin_split(&self.bins[0], bins_used, V::DIM) else {
            // Every centroid fell in one bin.
            return self.median_split(range, axis);
        };
        let (split, left, right) = (best.split, best.left, best.right);
        self.partition(&range, best.left_count, |p| map.left_of(p, split));
        let mid = range.start + best.left_count;
        let buf = 1 - range.buf;
        (
            Range {
                start: range.start,
                end: mid,
                buf,
                bounds: left,
            },
            Range {
                start: mid,
                end: range.end,
                buf,
                bounds: right,
            },
        )
    }

    /// Bins the items of `range` into `self.bins[0]` (its first `map.last + 1` bins).
    fn bin_range(&mut self, range: &Range<V::Scalar>, map: &BinMap<V::Scalar>) {
        let n = map.last as usize + 1;
        let items = &self.prims[range.buf][range.start..range.end];
        // Two sets of bins, for even and odd items: neighbours often share a bin, and
        // one set would chain each merge to the store of the previous one.
        let [even, odd] = &mut self.bins;
        even.reset(n);
        odd.reset(n);
        let mut pairs = items.chunks_exact(2);
        for pair in &mut pairs {
            even.add(map.bin(&pair[0]), &pair[0]);
            odd.add(map.bin(&pair[1]), &pair[1]);
        }
        if let [last] = pairs.remainder() {
            even.add(map.bin(last), last);
        }
        even.absorb(odd, n);
    }

    /// Partition of `range` into the other buffer: the `left_count` items satisfying
    /// `left` first, in order, then the others. Branch-free: each item is stored at the
    /// cursor its side selects (the classification is unpredictable, so a branchy loop
    /// would mispredict often).
    fn partition(
        &mut self,
        range: &Range<V::Scalar>,
        left_count: usize,
        left: impl Fn(&Rows<V::Scalar>) -> bool,
    ) {
        let r = range.start..range.end;
        let [p0, p1] = &mut self.prims;
        let [i0, i1] = &mut self.items;
        let (src, dst, src_items, dst_items) = if range.buf == 0 {
            (
                &p0[r.clone()],
                &mut p1[r.clone()],
                &i0[r.clone()],
                &mut i1[r],
            )
        } else {
            (
                &p1[r.clone()],
                &mut p0[r.clone()],
                &i1[r.clone()],
                &mut i0[r],
            )
        };
        // `left` holds for exactly `left_count` items (the bins counted them with the
        // same arithmetic), so neither cursor passes its side's end.
        let (mut lo, mut hi) = (0, left_count);
        for (p, &item) in src.iter().zip(src_items) {
            let is_left = left(p);
            let at = if is_left { lo } else { hi };
            dst[at] = *p;
            dst_items[at] = item;
            lo += usize::from(is_left);
            hi += usize::from(!is_left);
        }
    }

    /// The SAH-best binary split of a range of at most [`SMALL_RANGE`] items, exact:
    /// the items are sorted by centroid along `axis` (insertion sort) and every
    /// boundary between them is costed, then written in that order to the other
    /// buffer. Cheaper than binning for so few items, and never worse.
    fn sorted_split(
        &mut self,
        range: Range<V::Scalar>,
        axis: usize,
    ) -> (Range<V::Scalar>, Range<V::Scalar>) {
        let (src, dst) = (range.buf, 1 - range.buf);
        let r = range.start..range.end;
        let prims = &self.prims[src][r.clone()];
        let n = prims.len().min(SMALL_RANGE);
        // Insertion sort of (key, position); keys are never NaN (a sum of two finite
        // coordinates with lo ≤ hi).
        let mut keys = [V::Scalar::ZERO; SMALL_RANGE];
        let mut order = [0u8; SMALL_RANGE];
        for (k, p) in prims.iter().take(n).enumerate() {
            let key = p.centroid2(axis);
            let mut at = k;
            while at > 0 && key < keys[at - 1] {
                keys[at] = keys[at - 1];
                order[at] = order[at - 1];
                at -= 1;
            }
            keys[at] = key;
            order[at] = k as u8;
        }
        // Written in sorted order to the other buffer, and costed there.
        {
            let [p0, p1] = &mut self.prims;
            let (from, to) = if src == 0 { (&*p0, p1) } else { (&*p1, p0) };
            let (from, to) = (&from[r.clone()], &mut to[r.clone()]);
            for (slot, &at) in to.iter_mut().zip(&order[..n]) {
                *slot = from[usize::from(at)];
            }
            let [i0, i1] = &mut self.items;
            let (from, to) = if src == 0 { (&*i0, i1) } else { (&*i1, i0) };
            let (from, to) = (&from[r.clone()], &mut to[r.clone()]);
            for (slot, &at) in to.iter_mut().zip(&order[..n]) {
                *slot = from[usize::from(at)];
            }
        }
        let sorted = &self.prims[dst][r][..n];
        // Right-side costs by a backward sweep: right_cost[k] for items [k, n).
        let mut right_cost = [V::Scalar::ZERO; SMALL_RANGE];
        let mut acc = Rows::EMPTY;
        for k in (1..n).rev() {
            acc.merge(&sorted[k]);
            right_cost[k] = side_cost(&acc, (n - k) as u32, V::DIM);
        }
        let mut left = Rows::EMPTY;
        let mut best = (V::Scalar::ZERO, 0, Rows::EMPTY);
        for k in 1..n {
            left.merge(&sorted[k - 1]);
            let cost = side_cost(&left, k as u32, V::DIM) + right_cost[k];
            if best.1 == 0 || cost < best.0 {
                best = (cost, k, left);
            }
        }
        let (_, split, left) = best;
        let mut right = Rows::EMPTY;
        for p in &sorted[split..] {
            right.merge(p);
        }
        let mid = range.start + split;
        (
            Range {
                start: range.start,
                end: mid,
                buf: dst,
                bounds: left,
            },
            Range {
                start: mid,
                end: range.end,
                buf: dst,
                bounds: right,
            },
        )
    }

    /// Halves `range` by count at the object median along `axis` into the other buffer
    /// (centroids may coincide: any halving is then as good), with both halves' bounds.
    fn median_split(
        &mut self,
        range: Range<V::Scalar>,
        axis: usize,
    ) -> (Range<V::Scalar>, Range<V::Scalar>) {
        let (src, dst) = (range.buf, 1 - range.buf);
        self.scratch.clear();
        self.scratch.extend(
            (range.start..range.end)
                .map(|at| (self.prims[src][at].centroid2(axis).to_f64(), at as u32)),
        );
        let half = range.len() / 2;
        self.scratch
            .select_nth_unstable_by(half, |a, b| a.0.total_cmp(&b.0));
        let mut sides = [Rows::EMPTY; 2];
        for (k, &(_, at)) in self.scratch.iter().enumerate() {
            let p = self.prims[src][at as usize];
            sides[usize::from(k >= half)].merge(&p);
            self.prims[dst][range.start + k] = p;
            self.items[dst][range.start + k] = self.items[src][at as usize];
        }
        let mid = range.start + half;
        (
            Range {
                start: range.start,
                end: mid,
                buf: dst,
                bounds: sides[0],
            },
            Range {
                start: mid,
                end: range.end,
                buf: dst,
                bounds: sides[1],
            },
        )
    }
}

/// A binned split: bins `[0, split)` go left.
struct BinSplit<S: Real> {
    split: usize,
    left: Rows<S>,
    right: Rows<S>,
    left_count: usize,
}

/// The cheapest bin boundary (both sides non-empty) among the first `n` bins, with the
/// bounds and the count of the sides; `None` when all items share one bin.
fn best_bin_split<S: Real>(bins: &Bins<S>, n: usize, dim: usize) -> Option<BinSplit<S>> {
    // Right sides by a backward sweep: right[k] holds bins [k, n).
    let mut right = [(Rows::<S>::EMPTY, S::ZERO); BINS];
    let mut acc = Rows::<S>::EMPTY;
    let mut count = 0u32;
    for k in (1..n).rev() {
        acc.merge(&bins.rows(k));
        count += bins.count[k];
        right[k] = (acc, side_cost(&acc, count, dim));
    }
    let total = count + bins.count[0];
    let mut left = Rows::<S>::EMPTY;
    let mut left_count = 0u32;
    let mut best: Option<(S, BinSplit<S>)> = None;
    for (k, &(right_bounds, right_cost)) in right.iter().enumerate().take(n).skip(1) {
        left.merge(&bins.rows(k - 1));
        left_count += bins.count[k - 1];
        if left_count == 0 || left_count == total {
            continue;
        }
        let cost = side_cost(&left, left_count, dim) + right_cost;
        if best.as_ref().is_none_or(|b| cost < b.0) {
            let split = BinSplit {
                split: k,
                left,
                right: right_bounds,
                left_count: left_count as usize,
            };
            best = Some((cost, split));
        }
    }
    best.map(|b| b.1)
}

/// SAH cost of one side: half its surface measure times its item count.
#[inline(always)]
fn side_cost<S: Real>(bounds: &Rows<S>, count: u32, dim: usize) -> S {
    bounds.half_area(dim) * S::from_f64(f64::from(count))
}

/// The box with `min = +∞`, `max = −∞`: neutral for `merged`.
#[inline]
pub(super) fn empty_box<V: Vector>() -> Aabb<V> {
    Aabb {
        min: V::splat(V::Scalar::INFINITY),
        max: V::splat(V::Scalar::NEG_INFINITY),
    }
}
