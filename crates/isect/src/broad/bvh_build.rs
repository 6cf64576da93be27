//! Binned SAH construction of the 4-wide [`Bvh`](super::Bvh) (I. Wald, "On fast
//! construction of SAH-based bounding volume hierarchies", 2007).
//!
//! Each 4-wide node is made by two levels of binary splits. A binary split sorts the
//! primitives' centroids into [`BINS`] equal bins along the longest axis of their
//! bounds, sweeps the bins to evaluate the surface area heuristic
//! `area(L)·|L| + area(R)·|R|` at every bin boundary, and partitions at the cheapest.
//! When all centroids coincide the range is halved by count; below binary depth
//! [`SAH_DEPTH_LIMIT`] ranges are halved at the object median, which bounds the depth of
//! the tree whatever the input. Leaves hold one item each. Work is kept on an explicit
//! stack (no recursion).

use super::simd::{Boxes4, LANES};
use crate::math::{Real, Vector};
use crate::shape::Aabb;

/// Bins per binned SAH split.
pub(super) const BINS: usize = 16;
/// Binary split depth after which splits fall back to the object median.
pub(super) const SAH_DEPTH_LIMIT: u32 = 64;
/// Child slot holding nothing.
pub(super) const EMPTY_SLOT: u32 = u32::MAX;
/// Bit marking a child slot that holds an item (leaf) rather than a node index.
pub(super) const LEAF_BIT: u32 = 1 << 31;
/// Items with an index at or above this are not stored (their slot code would collide).
pub(super) const MAX_ITEMS: usize = (LEAF_BIT - 1) as usize;

/// A node: four child boxes (structure of arrays) and four child slot codes.
#[derive(Copy, Clone, Debug)]
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

/// A finished sub-range of a split: its end (exclusive) and its bounds.
type Part<V> = (usize, Aabb<V>);

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
    let mut nodes = Vec::with_capacity(prims.len() / 2 + 1);
    nodes.push(Node4::EMPTY);
    // (node, start, end, binary depth): fill `node` with the items of prims[start..end].
    let mut tasks = vec![(0usize, 0usize, prims.len(), 0u32)];
    while let Some((node, start, end, depth)) = tasks.pop() {
        let range = &mut prims[start..end];
        let (parts, count) = split4(range, depth);
        let mut lo = 0;
        for (slot, &(hi, bounds)) in parts[..count].iter().enumerate() {
            nodes[node].boxes.set(slot, &bounds);
            nodes[node].child[slot] = if hi - lo == 1 {
                LEAF_BIT | prims[start + lo].item
            } else {
                nodes.push(Node4::EMPTY);
                tasks.push((nodes.len() - 1, start + lo, start + hi, depth + 2));
                (nodes.len() - 1) as u32
            };
            lo = hi;
        }
    }
    nodes
}

/// Splits `prims` into up to four consecutive parts by two levels of binary splits.
fn split4<V: Vector>(prims: &mut [Prim<V>], depth: u32) -> ([Part<V>; LANES], usize) {
    let mut parts = [(0, empty_box::<V>()); LANES];
    if prims.len() == 1 {
        parts[0] = (1, prims[0].aabb);
        return (parts, 1);
    }
    let mut count = 0;
    let (mid, left, right) = split2(prims, depth);
    for (lo, hi, bounds) in [(0, mid, left), (mid, prims.len(), right)] {
        if hi - lo == 1 {
            parts[count] = (hi, bounds);
            count += 1;
        } else {
            let (m, l, r) = split2(&mut prims[lo..hi], depth + 1);
            parts[count] = (lo + m, l);
            parts[count + 1] = (hi, r);
            count += 2;
        }
    }
    (parts, count)
}

/// One binary split of `prims` (at least two): `(mid, bounds of [..mid], bounds of
/// [mid..])`, with both parts non-empty.
fn split2<V: Vector>(prims: &mut [Prim<V>], depth: u32) -> (usize, Aabb<V>, Aabb<V>) {
    let (c_min, c_max) = centroid_bounds(prims);
    let axis = (c_max - c_min).max_axis();
    let extent = c_max.get(axis) - c_min.get(axis);
    if depth >= SAH_DEPTH_LIMIT || !(extent > V::Scalar::ZERO) {
        return median_split(prims, axis, extent > V::Scalar::ZERO);
    }
    let scale = V::Scalar::from_f64(BINS as f64) / extent;
    let bin_of = |p: &Prim<V>| -> usize {
        let x = ((p.centroid2().get(axis) - c_min.get(axis)) * scale).to_f64();
        (x as usize).min(BINS - 1)
    };
    let mut bins = [(empty_box::<V>(), 0usize); BINS];
    for p in prims.iter() {
        let bin = &mut bins[bin_of(p)];
        bin.0 = bin.0.merged(&p.aabb);
        bin.1 += 1;
    }
    let (split, left, right) = best_bin_split(&bins);
    let mid = partition(prims, |p| bin_of(p) < split);
    (mid, left, right)
}

/// The cheapest bin boundary `k` (bins `[0, k)` left) and the two sides' bounds.
fn best_bin_split<V: Vector>(bins: &[(Aabb<V>, usize); BINS]) -> (usize, Aabb<V>, Aabb<V>) {
    // Right-side cost and bounds for each boundary, swept from the right.
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
        // Both sides must be non-empty: an empty side costs nothing but splits nothing.
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
    axis: usize,
    sort: bool,
) -> (usize, Aabb<V>, Aabb<V>) {
    let mid = prims.len() / 2;
    if sort {
        prims.select_nth_unstable_by(mid, |a, b| {
            let (ca, cb) = (a.centroid2().get(axis), b.centroid2().get(axis));
            ca.to_f64().total_cmp(&cb.to_f64())
        });
    }
    (mid, bounds(&prims[..mid]), bounds(&prims[mid..]))
}

fn centroid_bounds<V: Vector>(prims: &[Prim<V>]) -> (V, V) {
    let first = prims[0].centroid2();
    prims.iter().fold((first, first), |(lo, hi), p| {
        (lo.min(p.centroid2()), hi.max(p.centroid2()))
    })
}

fn bounds<V: Vector>(prims: &[Prim<V>]) -> Aabb<V> {
    prims.iter().fold(empty_box(), |acc, p| acc.merged(&p.aabb))
}

/// The box with `min = +∞`, `max = −∞`: neutral for `merged`.
#[inline]
pub(super) fn empty_box<V: Vector>() -> Aabb<V> {
    Aabb {
        min: V::splat(V::Scalar::INFINITY),
        max: V::splat(V::Scalar::NEG_INFINITY),
    }
}

/// In-place partition: items satisfying `left` first; returns how many do.
fn partition<T>(items: &mut [T], left: impl Fn(&T) -> bool) -> usize {
    let mut mid = 0;
    for i in 0..items.len() {
        if left(&items[i]) {
            items.swap(mid, i);
            mid += 1;
        }
    }
    mid
}
