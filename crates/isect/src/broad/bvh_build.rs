//! Binned SAH construction of the 4-wide [`Bvh`](super::Bvh) (I. Wald, "On fast
//! construction of SAH-based bounding volume hierarchies", 2007; the wide-node
//! collapse as in Wald et al., "Embree", 2014).
//!
//! A binary split sorts the primitives' centroids into [`BINS`] equal bins
//! ([`LARGE_RANGE_BINS`] for ranges of [`LARGE_RANGE`] items or more) along the
//! longest axis of their bounds, sweeps the bins to evaluate the surface area heuristic
//! `area(L)·|L| + area(R)·|R|` at every bin boundary, and partitions at the cheapest (two
//! passes per split; the bins span the range's bounds, and give both sides' bounds). The
//! partition writes from one buffer of primitives into a second one and the next split
//! reads from there (ping-pong, no copy back); each range knows which buffer holds it. A
//! 4-wide node starts with its whole range as one child and splits the child of largest
//! surface until it has four, so every node over four or more items is full. When all
//! centroids fall in one bin a range is halved at the object median; from binary depth [`SAH_DEPTH_LIMIT`]
//! on, ranges are halved at the object median, which bounds the depth of the tree
//! whatever the input. Leaves hold one item each. Work is kept on an explicit stack.

use super::simd::{Boxes4, LANES};
use crate::math::{Real, Vector};
use crate::shape::Aabb;

/// Bins per binned SAH split.
pub(super) const BINS: usize = 12;
/// Ranges of at least this many items are binned into [`LARGE_RANGE_BINS`] bins.
pub(super) const LARGE_RANGE: usize = 4096;
/// Bins per split of a range of [`LARGE_RANGE`] items or more.
pub(super) const LARGE_RANGE_BINS: usize = 8;
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
}

impl<S: Real> Node4<S> {
    pub(super) const EMPTY: Self = Self {
        boxes: Boxes4::EMPTY,
        child: [EMPTY_SLOT; LANES],
    };
}

/// A box and its item, padded to an aligned size so that swaps move whole registers.
#[derive(Copy, Clone)]
#[repr(C, align(16))]
struct Prim<V: Vector> {
    aabb: Aabb<V>,
    item: u32,
}

impl<V: Vector> Prim<V> {
    /// Twice the centroid (the halving does not change any comparison).
    #[inline]
    fn centroid2(&self) -> V {
        self.aabb.min + self.aabb.max
    }
}

/// A range of primitives with its bounds; `buf` names the buffer of [`Buffers`] that
/// holds them.
#[derive(Copy, Clone)]
struct Range<V: Vector> {
    start: usize,
    end: usize,
    buf: usize,
    bounds: Aabb<V>,
}

/// The primitives and a second buffer of the same length: a partition reads a range
/// from one and writes it to the other (ping-pong), so no pass copies it back.
struct Buffers<V: Vector>([Vec<Prim<V>>; 2]);

impl<V: Vector> Buffers<V> {
    /// Buffer `src` to read and the other one to write.
    #[inline]
    fn src_dst(&mut self, src: usize) -> (&mut [Prim<V>], &mut [Prim<V>]) {
        let [a, b] = &mut self.0;
        if src == 0 {
            (a, b)
        } else {
            (b, a)
        }
    }
}

impl<V: Vector> Range<V> {
    #[inline]
    fn len(&self) -> usize {
        self.end - self.start
    }
}

/// Builds the nodes over every valid box of `boxes` (finite, `min ≤ max`, index below
/// [`MAX_ITEMS`]), and the number of items stored; node 0 is the root. Empty when no
/// box is valid.
pub(super) fn build<V: Vector>(boxes: &[Aabb<V>]) -> (Vec<Node4<V::Scalar>>, usize) {
    let prims: Vec<Prim<V>> = boxes
        .iter()
        .take(MAX_ITEMS)
        .enumerate()
        .filter(|(_, b)| b.min.is_finite() && b.max.is_finite() && b.min.all_le(b.max))
        .map(|(i, b)| Prim {
            aabb: *b,
            item: i as u32,
        })
        .collect();
    if prims.is_empty() {
        return (Vec::new(), 0);
    }
    let len = prims.len();
    let root = measure(&prims, 0, 0, len);
    // Full 4-wide nodes would need ⌈(n − 1) / 3⌉; SAH splits leave some nodes with two or
    // three children, and about n / 2 nodes are typical.
    let mut nodes: Vec<Node4<V::Scalar>> = Vec::with_capacity(prims.len() / 2 + 1);
    // (parent node and slot to link, range, binary depth). Nodes are numbered when
    // popped, and children are pushed last slot first: the layout is depth-first
    // preorder with each node's first inner child right after it, so that a descent
    // reads memory forwards.
    let mut tasks = vec![(None::<(usize, usize)>, root, 0u32)];
    let mut bufs = Buffers([prims.clone(), prims]);
    while let Some((link, range, depth)) = tasks.pop() {
        let node = nodes.len();
        nodes.push(Node4::EMPTY);
        if let Some((parent, slot)) = link {
            nodes[parent].child[slot] = node as u32;
        }
        let (children, count) = split_wide(&mut bufs, range, depth);
        for (slot, child) in children[..count].iter().enumerate().rev() {
            nodes[node].boxes.set(slot, &child.bounds);
            if child.len() == 1 {
                nodes[node].child[slot] = LEAF_BIT | bufs.0[child.buf][child.start].item;
            } else {
                tasks.push((Some((node, slot)), *child, depth + 2));
            }
        }
    }
    // The estimate is usually close; copying the nodes to save a few percent is not
    // worth it then.
    if nodes.capacity() - nodes.len() > nodes.len() / 8 {
        nodes.shrink_to_fit();
    }
    (nodes, len)
}

/// Splits `range` into up to four children: the child of largest surface among those
/// holding two or more items is split until there are four.
fn split_wide<V: Vector>(
    bufs: &mut Buffers<V>,
    range: Range<V>,
    depth: u32,
) -> ([Range<V>; LANES], usize) {
    let mut children = [range; LANES];
    if range.len() <= LANES {
        for (k, child) in children.iter_mut().take(range.len()).enumerate() {
            let at = range.start + k;
            *child = measure(&bufs.0[range.buf], range.buf, at, at + 1);
        }
        return (children, range.len());
    }
    let mut count = 1;
    while count < LANES {
        let widest = (0..count)
            .filter(|&k| children[k].len() > 1)
            .max_by(|&a, &b| {
                let (sa, sb) = (
                    children[a].bounds.surface_measure(),
                    children[b].bounds.surface_measure(),
                );
                sa.partial_cmp(&sb).unwrap_or(core::cmp::Ordering::Equal)
            });
        let Some(k) = widest else {
            break;
        };
        let (left, right) = split2(bufs, children[k], depth);
        children[k] = left;
        children[count] = right;
        count += 1;
    }
    (children, count)
}

/// One bin: bounds of its boxes and their count.
#[derive(Copy, Clone)]
struct Bin<V: Vector> {
    bounds: Aabb<V>,
    count: usize,
}

impl<V: Vector> Bin<V> {
    /// No boxes: empty bounds (neutral for merging) and a zero count.
    #[inline]
    fn empty() -> Self {
        Self {
            bounds: empty_box(),
            count: 0,
        }
    }

    #[inline]
    fn merged(&self, other: &Self) -> Self {
        Self {
            bounds: self.bounds.merged(&other.bounds),
            count: self.count + other.count,
        }
    }
}

/// One binary split of a range of two or more items into two non-empty ranges. The
/// bins span the range's bounds on their longest axis (centroids lie inside them, so no
/// separate pass gathers centroid bounds).
fn split2<V: Vector>(bufs: &mut Buffers<V>, range: Range<V>, depth: u32) -> (Range<V>, Range<V>) {
    let (src, dst) = bufs.src_dst(range.buf);
    let b = range.bounds;
    let axis = b.extents().max_axis();
    // Doubled coordinates, like the doubled centroids.
    let origin = b.min.get(axis) * V::Scalar::TWO;
    let extent = (b.max.get(axis) - b.min.get(axis)) * V::Scalar::TWO;
    if depth >= SAH_DEPTH_LIMIT || extent <= V::Scalar::ZERO {
        return median_split(src, range, axis);
    }
    let items = &src[range.start..range.end];
    // Fewer bins for small ranges (the fixed cost of the sweep dominates there) and for
    // large ones (binning dominates, and a coarse split near the root is refined below).
    let bins_used = if items.len() >= LARGE_RANGE {
        LARGE_RANGE_BINS
    } else {
        BINS.min(items.len())
    };
    // The largest centroid maps to `bins_used` at most; the clamp puts it in the last bin.
    let scale = V::Scalar::from_f64(bins_used as f64) / extent;
    let bin_of = |p: &Prim<V>| -> usize {
        let c = p.aabb.min.get(axis) + p.aabb.max.get(axis);
        (((c - origin) * scale).to_f64() as usize).min(bins_used - 1)
    };
    // Two sets of bins, for even and odd items: neighbours often share a bin, and one
    // set would chain each merge to the store of the previous one.
    let mut sets = [[Bin::<V>::empty(); BINS]; 2];
    let mut add = |set: usize, p: &Prim<V>| {
        let bin = &mut sets[set][bin_of(p)];
        bin.bounds = bin.bounds.merged(&p.aabb);
        bin.count += 1;
    };
    let mut pairs = items.chunks_exact(2);
    for pair in &mut pairs {
        add(0, &pair[0]);
        add(1, &pair[1]);
    }
    if let [last] = pairs.remainder() {
        add(0, last);
    }
    let mut bins = sets[0];
    for (bin, odd) in bins.iter_mut().zip(&sets[1]) {
        *bin = bin.merged(odd);
    }
    let Some((split, left, right)) = best_bin_split(&bins[..bins_used]) else {
        // Every centroid fell in one bin.
        return median_split(src, range, axis);
    };
    // `bin_of(p) < split` without the integer conversion: for x ≥ 0 and an integer
    // split ≤ bins_used − 1, ⌊x⌋ (clamped) < split ⟺ x < split.
    let threshold = V::Scalar::from_f64(split as f64);
    let mid = range.start
        + partition(items, &mut dst[range.start..range.end], |p| {
            let c = p.aabb.min.get(axis) + p.aabb.max.get(axis);
            (c - origin) * scale < threshold
        });
    (
        Range {
            start: range.start,
            end: mid,
            buf: 1 - range.buf,
            bounds: left.bounds,
        },
        Range {
            start: mid,
            end: range.end,
            buf: 1 - range.buf,
            bounds: right.bounds,
        },
    )
}

/// The cheapest bin boundary `k` (bins `[0, k)` left, both sides non-empty) and the two
/// sides as merged bins; `None` when all items share one bin.
fn best_bin_split<V: Vector>(bins: &[Bin<V>]) -> Option<(usize, Bin<V>, Bin<V>)> {
    let n = bins.len();
    // Suffix merges: right[k] holds bins [k, n).
    let mut right = [Bin::<V>::empty(); BINS];
    let mut acc = Bin::empty();
    for k in (1..n).rev() {
        acc = acc.merged(&bins[k]);
        right[k] = acc;
    }
    let mut left = Bin::empty();
    let mut best: Option<(V::Scalar, usize, Bin<V>)> = None;
    for k in 1..n {
        left = left.merged(&bins[k - 1]);
        if left.count == 0 || right[k].count == 0 {
            continue;
        }
        let total = cost(&left.bounds, left.count) + cost(&right[k].bounds, right[k].count);
        if best.is_none_or(|b| total < b.0) {
            best = Some((total, k, left));
        }
    }
    best.map(|(_, k, left)| (k, left, right[k]))
}

/// SAH cost of one side: surface measure times item count (0 when empty).
#[inline]
fn cost<V: Vector>(bounds: &Aabb<V>, count: usize) -> V::Scalar {
    if count == 0 {
        V::Scalar::ZERO
    } else {
        bounds.surface_measure() * V::Scalar::from_f64(count as f64)
    }
}

/// Halves by count at the object median along `axis` (centroids may coincide: any
/// halving is then as good).
fn median_split<V: Vector>(
    prims: &mut [Prim<V>],
    range: Range<V>,
    axis: usize,
) -> (Range<V>, Range<V>) {
    let mid = range.len() / 2;
    prims[range.start..range.end].select_nth_unstable_by(mid, |a, b| {
        let (ca, cb) = (a.centroid2().get(axis), b.centroid2().get(axis));
        ca.to_f64().total_cmp(&cb.to_f64())
    });
    let mid = range.start + mid;
    (
        measure(prims, range.buf, range.start, mid),
        measure(prims, range.buf, mid, range.end),
    )
}

/// The range `[start, end)` with its bounds, by one pass.
fn measure<V: Vector>(prims: &[Prim<V>], buf: usize, start: usize, end: usize) -> Range<V> {
    let bounds = prims[start..end]
        .iter()
        .fold(empty_box::<V>(), |b, p| b.merged(&p.aabb));
    Range {
        start,
        end,
        buf,
        bounds,
    }
}

/// The box with `min = +∞`, `max = −∞`: neutral for `merged`.
#[inline]
pub(super) fn empty_box<V: Vector>() -> Aabb<V> {
    Aabb {
        min: V::splat(V::Scalar::INFINITY),
        max: V::splat(V::Scalar::NEG_INFINITY),
    }
}

/// Branch-free partition of `items` into `out` (as long): items satisfying `left`
/// first; returns how many do. Each item is written at both cursors (the next left
/// slot, the next right slot from the end) and only the cursor its side names moves
/// on; a slot written for the wrong side is overwritten before the cursors meet. No
/// load waits on a store, unlike an in-place swap loop, and the classification is
/// unpredictable, so a branchy loop would mispredict often.
fn partition<V: Vector>(
    items: &[Prim<V>],
    out: &mut [Prim<V>],
    left: impl Fn(&Prim<V>) -> bool,
) -> usize {
    let out = &mut out[..items.len()];
    let (mut lo, mut hi) = (0, out.len());
    for p in items {
        // Before every write lo < hi: lo + (len − hi) items were placed, fewer than len.
        let is_left = left(p);
        out[lo] = *p;
        out[hi - 1] = *p;
        lo += usize::from(is_left);
        hi -= usize::from(!is_left);
    }
    lo
}
