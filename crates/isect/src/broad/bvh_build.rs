//! Binned SAH construction of the 4-wide [`Bvh`](super::Bvh) (I. Wald, "On fast
//! construction of SAH-based bounding volume hierarchies", 2007; the wide-node
//! collapse as in Wald et al., "Embree", 2014).
//!
//! A binary split sorts the primitives' centroids into [`BINS`] equal bins along the
//! longest axis of their bounds, sweeps the bins to evaluate the surface area heuristic
//! `area(L)·|L| + area(R)·|R|` at every bin boundary, and partitions at the cheapest,
//! gathering the centroid bounds of both sides on the way (two passes per split). A
//! 4-wide node starts with its whole range as one child and splits the child of largest
//! surface until it has four, so every node over four or more items is full. When all
//! centroids coincide a range is halved by count; from binary depth [`SAH_DEPTH_LIMIT`]
//! on, ranges are halved at the object median, which bounds the depth of the tree
//! whatever the input. Leaves hold one item each. Work is kept on an explicit stack.

use super::simd::{Boxes4, LANES};
use crate::math::{Real, Vector};
use crate::shape::Aabb;

/// Bins per binned SAH split.
pub(super) const BINS: usize = 16;
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
#[repr(C, align(64))]
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

#[derive(Copy, Clone)]
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

/// A range of primitives with its bounds and the bounds of its (doubled) centroids.
#[derive(Copy, Clone)]
struct Range<V: Vector> {
    start: usize,
    end: usize,
    bounds: Aabb<V>,
    centroids: Aabb<V>,
}

impl<V: Vector> Range<V> {
    #[inline]
    fn len(&self) -> usize {
        self.end - self.start
    }
}

/// Builds the nodes over every valid box of `boxes` (finite, `min ≤ max`, index below
/// [`MAX_ITEMS`]); node 0 is the root. Empty when no box is valid.
pub(super) fn build<V: Vector>(boxes: &[Aabb<V>]) -> Vec<Node4<V::Scalar>> {
    let mut prims: Vec<Prim<V>> = boxes
        .iter()
        .take(MAX_ITEMS)
        .enumerate()
        .filter(|(_, b)| super::check_aabb(b).is_ok())
        .map(|(i, b)| Prim {
            aabb: *b,
            item: i as u32,
        })
        .collect();
    if prims.is_empty() {
        return Vec::new();
    }
    let root = measure(&prims, 0, prims.len());
    // A tree over n ≥ 2 single-item leaves with full 4-wide nodes has ⌈(n − 1) / 3⌉ nodes.
    let mut nodes = Vec::with_capacity(prims.len().div_ceil(3) + 1);
    nodes.push(Node4::EMPTY);
    let mut tasks = vec![(0usize, root, 0u32)];
    while let Some((node, range, depth)) = tasks.pop() {
        let (children, count) = split_wide(&mut prims, range, depth);
        for (slot, child) in children[..count].iter().enumerate() {
            nodes[node].boxes.set(slot, &child.bounds);
            nodes[node].child[slot] = if child.len() == 1 {
                LEAF_BIT | prims[child.start].item
            } else {
                nodes.push(Node4::EMPTY);
                tasks.push((nodes.len() - 1, *child, depth + 2));
                (nodes.len() - 1) as u32
            };
        }
    }
    nodes.shrink_to_fit();
    nodes
}

/// Splits `range` into up to four children: the child of largest surface among those
/// holding two or more items is split until there are four.
fn split_wide<V: Vector>(
    prims: &mut [Prim<V>],
    range: Range<V>,
    depth: u32,
) -> ([Range<V>; LANES], usize) {
    let mut children = [range; LANES];
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
        let (left, right) = split2(prims, children[k], depth);
        children[k] = left;
        children[count] = right;
        count += 1;
    }
    (children, count)
}

/// One binary split of a range of two or more items into two non-empty ranges.
fn split2<V: Vector>(prims: &mut [Prim<V>], range: Range<V>, depth: u32) -> (Range<V>, Range<V>) {
    let c = range.centroids;
    let axis = c.extents().max_axis();
    let extent = c.max.get(axis) - c.min.get(axis);
    if depth >= SAH_DEPTH_LIMIT || !(extent > V::Scalar::ZERO) {
        return median_split(prims, range, axis, extent > V::Scalar::ZERO);
    }
    let items = &mut prims[range.start..range.end];
    let origin = c.min.get(axis);
    // The largest centroid maps to BINS exactly; the clamp puts it in the last bin.
    let scale = V::Scalar::from_f64(BINS as f64) / extent;
    let bin_of = |p: &Prim<V>| -> usize {
        let x = ((p.centroid2().get(axis) - origin) * scale).to_f64();
        (x as usize).min(BINS - 1)
    };
    let mut bins = [(empty_box::<V>(), 0usize); BINS];
    for p in items.iter() {
        let bin = &mut bins[bin_of(p)];
        bin.0 = bin.0.merged(&p.aabb);
        bin.1 += 1;
    }
    let (split, left_bounds, right_bounds) = best_bin_split(&bins);
    let (mid, left_c, right_c) = partition(items, |p| bin_of(p) < split);
    let mid = range.start + mid;
    (
        Range {
            start: range.start,
            end: mid,
            bounds: left_bounds,
            centroids: left_c,
        },
        Range {
            start: mid,
            end: range.end,
            bounds: right_bounds,
            centroids: right_c,
        },
    )
}

/// The cheapest bin boundary `k` (bins `[0, k)` left, both sides non-empty) and the two
/// sides' bounds.
fn best_bin_split<V: Vector>(bins: &[(Aabb<V>, usize); BINS]) -> (usize, Aabb<V>, Aabb<V>) {
    // Right-side cost, bounds and count for each boundary, swept from the right.
    let mut right = [(V::Scalar::ZERO, empty_box::<V>(), 0usize); BINS];
    let (mut acc, mut count) = (empty_box::<V>(), 0usize);
    for k in (1..BINS).rev() {
        acc = acc.merged(&bins[k].0);
        count += bins[k].1;
        right[k] = (cost(&acc, count), acc, count);
    }
    let (mut acc, mut count) = (empty_box::<V>(), 0usize);
    let mut best = (V::Scalar::INFINITY, 1, empty_box::<V>());
    for k in 1..BINS {
        acc = acc.merged(&bins[k - 1].0);
        count += bins[k - 1].1;
        let total = cost(&acc, count) + right[k].0;
        if count > 0 && right[k].2 > 0 && total < best.0 {
            best = (total, k, acc);
        }
    }
    (best.1, best.2, right[best.1].1)
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

/// Halves by count: at the object median along `axis` when `sort` is set, else as is
/// (all centroids coincide, so every split is as good).
fn median_split<V: Vector>(
    prims: &mut [Prim<V>],
    range: Range<V>,
    axis: usize,
    sort: bool,
) -> (Range<V>, Range<V>) {
    let mid = range.len() / 2;
    if sort {
        prims[range.start..range.end].select_nth_unstable_by(mid, |a, b| {
            let (ca, cb) = (a.centroid2().get(axis), b.centroid2().get(axis));
            ca.to_f64().total_cmp(&cb.to_f64())
        });
    }
    let mid = range.start + mid;
    (
        measure(prims, range.start, mid),
        measure(prims, mid, range.end),
    )
}

/// The range `[start, end)` with its bounds and centroid bounds, by one pass.
fn measure<V: Vector>(prims: &[Prim<V>], start: usize, end: usize) -> Range<V> {
    let (mut bounds, mut centroids) = (empty_box::<V>(), empty_box::<V>());
    for p in &prims[start..end] {
        bounds = bounds.merged(&p.aabb);
        centroids = grow(&centroids, p.centroid2());
    }
    Range {
        start,
        end,
        bounds,
        centroids,
    }
}

#[inline]
fn grow<V: Vector>(b: &Aabb<V>, p: V) -> Aabb<V> {
    Aabb {
        min: b.min.min(p),
        max: b.max.max(p),
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

/// Two-pointer partition: items satisfying `left` first. Returns how many do and the
/// centroid bounds of both sides.
fn partition<V: Vector>(
    items: &mut [Prim<V>],
    left: impl Fn(&Prim<V>) -> bool,
) -> (usize, Aabb<V>, Aabb<V>) {
    let (mut lc, mut rc) = (empty_box::<V>(), empty_box::<V>());
    let (mut i, mut j) = (0, items.len());
    loop {
        while i < j && left(&items[i]) {
            lc = grow(&lc, items[i].centroid2());
            i += 1;
        }
        while i < j && !left(&items[j - 1]) {
            rc = grow(&rc, items[j - 1].centroid2());
            j -= 1;
        }
        if i >= j {
            return (i, lc, rc);
        }
        items.swap(i, j - 1);
    }
}
