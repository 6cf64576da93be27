//! The binary tree the mesh's ray tree is collapsed from: a binned SAH build over the
//! triangles' padded boxes with leaves of up to four triangles, the width of the leaf
//! kernel (I. Wald, "On fast construction of SAH-based bounding volume hierarchies",
//! 2007; leaves priced in blocks of four as Embree's `triangle4` builds, Wald et al.,
//! "Embree", 2014).
//!
//! Each split bins the range's doubled centroids into [`BINS`] equal bins (fewer for a
//! range of fewer triangles) on all three axes at once, sweeps each axis for the
//! cheapest boundary by the surface area heuristic `area(L)·⌈|L|/4⌉ +
//! area(R)·⌈|R|/4⌉` (the bins carry their boxes for the areas), and partitions the
//! range in place at it, gathering each side's centroid bounds on the way (the next
//! split's bins). A range of at most [`LEAF_SIZE`]
//! triangles is a leaf. A range whose centroids share one bin on every axis, or any
//! range from binary depth [`DEPTH_LIMIT`] on, is halved as it lies, which bounds the
//! depth (and the collapse's recursion) whatever the input.
//!
//! The heuristic works on `f32` boxes of four lanes (one SIMD min and max a merge),
//! the mesh's coordinates taken relative to its centre and scaled by a power of two
//! into `f32`'s range: it only chooses the shape of the tree. The boxes the walk tests
//! are computed afterwards, bottom up, as the exact unions of the triangles' own boxes
//! in the mesh's scalar, so no tolerance enters here.
//!
//! Against the mesh's shared [`Bvh`](crate::broad::Bvh) (one axis, one triangle a
//! leaf) the tree of this build, collapsed greedily, took 16% fewer node tests a ray
//! on the Stanford bunny and 28% fewer on a soup of 100,000 triangles (BENCHMARKS.md,
//! session 29); [`WidePlan`] collapses it with fewer still.

use super::ray_tree::WIDE;
use crate::broad::Rows;
use crate::math::{Real, Vector};
use crate::shape::Aabb;

/// Triangles in a leaf: the lanes of the leaf kernel.
pub(super) const LEAF_SIZE: usize = 4;
/// Bins per axis of a split (16 and 64 made trees within 1% of 32 in node tests a ray).
const BINS: usize = 16;
/// Binary depth from which ranges are halved as they lie.
const DEPTH_LIMIT: u32 = 64;
/// The scaled coordinates' bound: `f32` keeps areas and centroid sums finite.
const SCALED_REACH: f64 = (1u64 << 40) as f64;

/// A node of the binary tree: the union of its triangles' boxes and what it holds.
#[derive(Copy, Clone, Debug)]
pub(super) struct BinaryNode<V: Vector> {
    pub(super) aabb: Aabb<V>,
    pub(super) kind: Kind,
}

/// What a binary node holds.
#[derive(Copy, Clone, Debug)]
pub(super) enum Kind {
    /// Two children, by node index (always above the node's own).
    Inner([u32; 2]),
    /// The triangles `items[start..start + len]` of the [`BinaryTree`].
    Leaf { start: u32, len: u32 },
}

/// The binary tree: its nodes (the root first) and the triangles in leaf order.
pub(super) struct BinaryTree<V: Vector> {
    pub(super) nodes: Vec<BinaryNode<V>>,
    pub(super) items: Vec<u32>,
}

/// A box in scaled `f32` coordinates, as two rows of four lanes (the fourth zero):
/// the shared builder's, whose merge is one SIMD min and max.
type Box4 = Rows<f32>;

/// The point at the doubled centroid of `b`.
#[inline(always)]
fn centroid2(b: &Box4) -> Box4 {
    let c = core::array::from_fn(|lane| b.lo[lane] + b.hi[lane]);
    Box4 { lo: c, hi: c }
}

/// A range of triangles with the bounds of their doubled centroids.
#[derive(Copy, Clone)]
struct Range {
    start: usize,
    end: usize,
    centroids: Box4,
}

/// A bin: its triangles' count and bounds.
#[derive(Copy, Clone)]
struct Bin {
    count: usize,
    bounds: Box4,
}

impl Bin {
    const EMPTY: Self = Self {
        count: 0,
        bounds: Box4::EMPTY,
    };

    #[inline(always)]
    fn merge(&mut self, other: &Self) {
        self.count += other.count;
        self.bounds.merge(&other.bounds);
    }
}

/// How a range's doubled centroids map to its `count` bins (at most [`BINS`], and no
/// more than the range has triangles: small ranges sweep fewer): bin `(c − lo)·scale`
/// rounded, on each axis, clamped to the bins (NaN, on an axis with no extent, to
/// bin 0). The binning and the partition both use this, so they always
/// agree.
struct BinMap {
    lo: [f32; 4],
    scale: [f32; 4],
    count: usize,
}

impl BinMap {
    fn new(range: &Range) -> Self {
        let (lo, hi) = (range.centroids.lo, range.centroids.hi);
        let count = (range.end - range.start).min(BINS);
        Self {
            lo,
            scale: core::array::from_fn(|a| count as f32 / (hi[a] - lo[a])),
            count,
        }
    }

    /// The bin of centroid `c` on `axis`: clamped in `f32` (`max` takes the number
    /// over NaN), then rounded by adding `2^23` and read from the low bits, so no
    /// conversion (with its range fix-ups) is needed. Rounding rather than flooring
    /// only moves bin boundaries by half a bin.
    #[inline(always)]
    fn bin(&self, c: &Box4, axis: usize) -> usize {
        let x = ((c.lo[axis] - self.lo[axis]) * self.scale[axis]).max(0.0);
        ((x.min((self.count - 1) as f32) + 8_388_608.0).to_bits() & 0xff) as usize
    }
}

/// A split: the axis, the first bin of the right side, and the count left of it.
struct Split {
    axis: usize,
    bin: usize,
    left: usize,
}

/// The tree over triangles `items` (indices into `boxes`, which hold every triangle's
/// padded box); empty when `items` is.
pub(super) fn build<V: Vector>(boxes: &[Aabb<V>], items: Vec<u32>) -> BinaryTree<V> {
    build_to_depth(boxes, items, DEPTH_LIMIT)
}

/// [`build`] with splits by the heuristic down to binary depth `depth_limit`.
fn build_to_depth<V: Vector>(
    boxes: &[Aabb<V>],
    items: Vec<u32>,
    depth_limit: u32,
) -> BinaryTree<V> {
    let mut tree = BinaryTree {
        nodes: Vec::with_capacity(items.len() / 2 + 1),
        items,
    };
    if tree.items.is_empty() {
        return tree;
    }
    let mut prims = scaled_boxes(boxes, &tree.items);
    let root = Range {
        start: 0,
        end: prims.len(),
        centroids: centroid_bounds(&prims),
    };
    let leaf = |range: &Range| Kind::Leaf {
        start: range.start as u32,
        len: (range.end - range.start) as u32,
    };
    let mut kinds = vec![leaf(&root)];
    let mut work = vec![(0, root, 0)];
    while let Some((index, range, depth)) = work.pop() {
        if range.end - range.start <= LEAF_SIZE {
            kinds[index] = leaf(&range);
            continue;
        }
        let split = (depth < depth_limit)
            .then(|| best_split(&prims[range.start..range.end], &range))
            .flatten();
        let sides = match split {
            Some(split) => partition(&mut prims, &mut tree.items, &range, &split),
            None => halves(&prims, &range),
        };
        let child = kinds.len();
        kinds[index] = Kind::Inner([child as u32, child as u32 + 1]);
        let [left, right] = sides;
        kinds.extend([leaf(&left), leaf(&right)]);
        work.push((child + 1, right, depth + 1));
        work.push((child, left, depth + 1));
    }
    tree.nodes = exact_boxes(&kinds, boxes, &tree.items);
    tree
}

/// The boxes of `items` in scaled `f32` coordinates: relative to the centre of their
/// bounds, times the power of two that brings the largest offset near
/// [`SCALED_REACH`] (rounding may widen or shift them a little: they only guide the
/// splits).
fn scaled_boxes<V: Vector>(boxes: &[Aabb<V>], items: &[u32]) -> Vec<Box4> {
    let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    for &i in items {
        let b = &boxes[i as usize];
        for a in 0..3 {
            lo[a] = lo[a].min(b.min.get(a).to_f64());
            hi[a] = hi[a].max(b.max.get(a).to_f64());
        }
    }
    let centre: [f64; 3] = core::array::from_fn(|a| 0.5 * lo[a] + 0.5 * hi[a]);
    let reach = (0..3).map(|a| hi[a] - centre[a]).fold(0.0, f64::max);
    // A power of two, so scaling is exact; 1 for a point-like mesh.
    let scale = match reach > 0.0 {
        true => 2f64.powi((SCALED_REACH / reach).log2().floor().clamp(-1000.0, 1000.0) as i32),
        false => 1.0,
    };
    let scaled = |x: V::Scalar, a: usize| ((x.to_f64() - centre[a]) * scale) as f32;
    items
        .iter()
        .map(|&i| {
            let b = &boxes[i as usize];
            let row = |v: V| {
                [
                    scaled(v.get(0), 0),
                    scaled(v.get(1), 1),
                    scaled(v.get(2), 2),
                    0.0,
                ]
            };
            Box4 {
                lo: row(b.min),
                hi: row(b.max),
            }
        })
        .collect()
}

/// The cheapest split of `prims` (the range `range`) by the surface area heuristic;
/// `None` when the centroids share one bin on every axis.
fn best_split(prims: &[Box4], range: &Range) -> Option<Split> {
    let map = BinMap::new(range);
    let mut bins = [[Bin::EMPTY; BINS]; 3];
    for p in prims {
        let c = centroid2(p);
        for (a, bins) in bins.iter_mut().enumerate() {
            let bin = &mut bins[map.bin(&c, a)];
            bin.count += 1;
            bin.bounds.merge(p);
        }
    }
    // The heuristic's price of a side: its area times its blocks of four.
    let price = |side: &Bin| side.bounds.half_area(3) * side.count.div_ceil(LEAF_SIZE) as f32;
    let mut best: Option<(f32, Split)> = None;
    for (axis, bins) in bins.iter().enumerate() {
        // `right[k]` holds bins `k..`.
        let (mut right, mut acc) = ([Bin::EMPTY; BINS], Bin::EMPTY);
        for k in (1..map.count).rev() {
            acc.merge(&bins[k]);
            right[k] = acc;
        }
        let mut left = Bin::EMPTY;
        for k in 1..map.count {
            // Past an empty bin both sides are those of the boundary before it, whose
            // cost (kept on ties) is known.
            if bins[k - 1].count == 0 {
                continue;
            }
            left.merge(&bins[k - 1]);
            if right[k].count == 0 {
                continue;
            }
            let cost = price(&left) + price(&right[k]);
            if best.as_ref().is_none_or(|(b, _)| cost < *b) {
                let left = left.count;
                best = Some((cost, Split { axis, bin: k, left }));
            }
        }
    }
    best.map(|(_, split)| split)
}

/// Moves the triangles of `range` left of `split` to its front (the boxes and their
/// items together) and returns both sides, with the centroid bounds gathered on the
/// way.
fn partition(prims: &mut [Box4], items: &mut [u32], range: &Range, split: &Split) -> [Range; 2] {
    let map = BinMap::new(range);
    let mut centroids = [Box4::EMPTY; 2];
    let mut mid = range.start;
    for i in range.start..range.end {
        let c = centroid2(&prims[i]);
        let left = map.bin(&c, split.axis) < split.bin;
        centroids[usize::from(!left)].merge(&c);
        if left {
            prims.swap(i, mid);
            items.swap(i, mid);
            mid += 1;
        }
    }
    debug_assert_eq!(mid - range.start, split.left);
    [
        (range.start, mid, centroids[0]),
        (mid, range.end, centroids[1]),
    ]
    .map(|(start, end, centroids)| Range {
        start,
        end,
        centroids,
    })
}

/// `range` cut in two halves as it lies.
fn halves(prims: &[Box4], range: &Range) -> [Range; 2] {
    let mid = range.start + (range.end - range.start) / 2;
    [(range.start, mid), (mid, range.end)].map(|(start, end)| Range {
        start,
        end,
        centroids: centroid_bounds(&prims[start..end]),
    })
}

/// The bounds of the doubled centroids of `prims`.
fn centroid_bounds(prims: &[Box4]) -> Box4 {
    let mut bounds = Box4::EMPTY;
    for p in prims {
        bounds.merge(&centroid2(p));
    }
    bounds
}

/// The nodes of `kinds` with their exact boxes: a leaf's the union of its triangles'
/// `boxes`, an inner node's the union of its children's (children come after their
/// parent, so one pass from the back has them ready).
fn exact_boxes<V: Vector>(kinds: &[Kind], boxes: &[Aabb<V>], items: &[u32]) -> Vec<BinaryNode<V>> {
    let first = boxes[items[0] as usize];
    let mut nodes: Vec<BinaryNode<V>> = kinds
        .iter()
        .map(|&kind| BinaryNode { aabb: first, kind })
        .collect();
    for i in (0..nodes.len()).rev() {
        nodes[i].aabb = match nodes[i].kind {
            Kind::Leaf { start, len } => items[start as usize..(start + len) as usize]
                .iter()
                .map(|&k| boxes[k as usize])
                .reduce(|a, b| a.merged(&b))
                .unwrap_or(first),
            Kind::Inner([l, r]) => nodes[l as usize].aabb.merged(&nodes[r as usize].aabb),
        };
    }
    nodes
}

/// How the collapse into nodes of up to [`WIDE`] children treats each binary node, chosen
/// to minimise the summed surface area of the wide nodes (each is one node test for
/// every ray that meets its box; the leaves are the same whatever the choice): the
/// optimal collapse by dynamic programming over "this subtree as at most `k` roots"
/// (Ylitie, Karras and Laine, "Efficient incoherent ray traversal on GPUs through
/// compressed wide BVHs", 2017, without their leaf-size choice).
pub(super) struct WidePlan {
    /// For an inner node and a budget of `k` roots: `[0, 0]` when the node is itself
    /// a root (a wide node), else the budgets of its two children.
    opened: Vec<[[u8; 2]; WIDE + 1]>,
    /// For an inner node that is a wide node: its two children's budgets.
    own: Vec<[u8; 2]>,
}

impl WidePlan {
    /// The plan for `tree`.
    pub(super) fn new<V: Vector>(tree: &BinaryTree<V>) -> Self {
        let n = tree.nodes.len();
        // `cost[i][k]`: least summed area of the wide nodes below and at `i` when `i`'s
        // subtree hangs from its parent as at most `k` roots.
        let mut cost = vec![[0.0f64; WIDE + 1]; n];
        let mut plan = Self {
            opened: vec![[[0, 0]; WIDE + 1]; n],
            own: vec![[0, 0]; n],
        };
        for i in (0..n).rev() {
            let Kind::Inner([l, r]) = tree.nodes[i].kind else {
                continue;
            };
            let (l, r) = (l as usize, r as usize);
            // `split[k]`: the least cost of the two children's subtrees as at most `k`
            // roots together, and how the budget is shared.
            let mut split = [(f64::INFINITY, [0u8, 0u8]); WIDE + 1];
            for k in 2..=WIDE {
                for kl in 1..k {
                    let c = cost[l][kl] + cost[r][k - kl];
                    if c < split[k].0 {
                        split[k] = (c, [kl as u8, (k - kl) as u8]);
                    }
                }
                if split[k - 1].0 <= split[k].0 {
                    split[k] = split[k - 1];
                }
            }
            let as_node = area_f64(&tree.nodes[i].aabb) + split[WIDE].0;
            plan.own[i] = split[WIDE].1;
            cost[i][1] = as_node;
            for k in 2..=WIDE {
                (cost[i][k], plan.opened[i][k]) = match split[k].0 < as_node {
                    true => split[k],
                    false => (as_node, [0, 0]),
                };
            }
        }
        plan
    }

    /// The children of the wide node at binary node `i`, in tree order, into `kids`;
    /// returns their count (at most [`WIDE`]). A leaf at the root is its one child.
    pub(super) fn children<V: Vector>(
        &self,
        tree: &BinaryTree<V>,
        i: usize,
        kids: &mut [u32; WIDE],
    ) -> usize {
        let Kind::Inner([l, r]) = tree.nodes[i].kind else {
            kids[0] = i as u32;
            return 1;
        };
        let [kl, kr] = self.own[i];
        let n = self.roots(tree, l as usize, kl as usize, kids, 0);
        self.roots(tree, r as usize, kr as usize, kids, n)
    }

    /// Appends to `kids[n..]` the roots of binary node `i` given a budget of `k`;
    /// returns the new count.
    fn roots<V: Vector>(
        &self,
        tree: &BinaryTree<V>,
        i: usize,
        k: usize,
        kids: &mut [u32; WIDE],
        n: usize,
    ) -> usize {
        match tree.nodes[i].kind {
            Kind::Inner([l, r]) if self.opened[i][k] != [0, 0] => {
                let [kl, kr] = self.opened[i][k];
                let n = self.roots(tree, l as usize, kl as usize, kids, n);
                self.roots(tree, r as usize, kr as usize, kids, n)
            }
            _ => {
                kids[n] = i as u32;
                n + 1
            }
        }
    }
}

/// Half the surface area of `aabb`, in `f64`.
fn area_f64<V: Vector>(aabb: &Aabb<V>) -> f64 {
    let d: [f64; 3] = core::array::from_fn(|a| aabb.max.get(a).to_f64() - aabb.min.get(a).to_f64());
    d[0] * d[1] + d[1] * d[2] + d[2] * d[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec3, Vec3};

    /// A seeded stream of numbers uniform in `[0, 1)` (a 64-bit LCG's top bits).
    fn uniform(seed: u64) -> impl FnMut() -> f64 {
        let mut state = seed;
        move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// Unit boxes at `centres`, as `f64` vectors.
    fn boxes_at(centres: impl Iterator<Item = DVec3>) -> Vec<Aabb<DVec3>> {
        centres
            .map(|c| Aabb {
                min: c - 0.5,
                max: c + 0.5,
            })
            .collect()
    }

    /// Checks the tree's shape and returns its binary depth: every item in one leaf of
    /// at most [`LEAF_SIZE`], every node's box the exact union of its items' boxes.
    fn checked_depth<V: Vector>(tree: &BinaryTree<V>, boxes: &[Aabb<V>], n: usize) -> u32 {
        let mut items = tree.items.clone();
        items.sort_unstable();
        assert_eq!(items, (0..n as u32).collect::<Vec<_>>());
        let mut depth = 0;
        let mut stack = vec![(0, 0, 0..n)];
        while let Some((i, d, range)) = stack.pop() {
            depth = depth.max(d);
            let node = &tree.nodes[i];
            let union = tree.items[range.clone()]
                .iter()
                .map(|&k| boxes[k as usize])
                .reduce(|a, b| a.merged(&b))
                .unwrap();
            assert_eq!((node.aabb.min, node.aabb.max), (union.min, union.max));
            match node.kind {
                Kind::Leaf { start, len } => {
                    assert_eq!(start as usize..(start + len) as usize, range);
                    assert!((1..=LEAF_SIZE).contains(&(len as usize)));
                }
                Kind::Inner([l, r]) => {
                    let mid = range.start + leaf_count(tree, l as usize);
                    assert!(range.start < mid && mid < range.end);
                    stack.push((l as usize, d + 1, range.start..mid));
                    stack.push((r as usize, d + 1, mid..range.end));
                }
            }
        }
        depth
    }

    /// Items under binary node `i`.
    fn leaf_count<V: Vector>(tree: &BinaryTree<V>, i: usize) -> usize {
        match tree.nodes[i].kind {
            Kind::Leaf { len, .. } => len as usize,
            Kind::Inner([l, r]) => leaf_count(tree, l as usize) + leaf_count(tree, r as usize),
        }
    }

    // A scattered cloud of boxes gives a balanced tree of full leaves whose node boxes
    // are exact unions, in `f32` and in `f64`.
    #[test]
    fn scattered_boxes_give_full_leaves_and_exact_boxes() {
        let mut unit = uniform(7);
        let n = 5000;
        let boxes: Vec<Aabb<DVec3>> =
            boxes_at((0..n).map(|_| DVec3::new(unit(), unit(), unit()) * 100.0 + 1e6));
        let tree = build(&boxes, (0..n as u32).collect());
        let depth = checked_depth(&tree, &boxes, n);
        assert!(depth < 20, "depth {depth}");
        let leaves = tree
            .nodes
            .iter()
            .filter(|n| matches!(n.kind, Kind::Leaf { .. }))
            .count();
        assert!(leaves * 3 < n, "{leaves} leaves for {n} boxes");
        let boxes32: Vec<Aabb<Vec3>> = boxes
            .iter()
            .map(|b| Aabb {
                min: b.min.as_vec3(),
                max: b.max.as_vec3(),
            })
            .collect();
        let tree32 = build(&boxes32, (0..n as u32).collect());
        checked_depth(&tree32, &boxes32, n);
    }

    // Boxes with one centroid cannot be binned apart: they are halved, so the tree
    // stays shallow.
    #[test]
    fn coincident_centroids_are_halved() {
        let n = 1000;
        let boxes = boxes_at((0..n).map(|_| DVec3::splat(3.0)));
        let tree = build(&boxes, (0..n as u32).collect());
        assert_eq!(checked_depth(&tree, &boxes, n), 8);
    }

    // Nested boxes shrinking geometrically toward the mesh's centre (each split peels a
    // few of the largest off) make a deep tree; from the depth limit on ranges are
    // halved, so the depth is bounded. Extreme coordinates, tiny and `2^250`, keep every
    // box exact.
    #[test]
    fn geometric_spreads_stay_within_the_depth_limit() {
        let n = 200usize;
        let mut boxes: Vec<Aabb<DVec3>> = (0..n - 1)
            .map(|i| Aabb {
                min: DVec3::ZERO,
                max: DVec3::splat(2.0 * 1.5f64.powi(-(i as i32))),
            })
            .collect();
        boxes.push(Aabb {
            min: DVec3::splat(-2.0),
            max: DVec3::ZERO,
        });
        let tree = build(&boxes, (0..n as u32).collect());
        let depth = checked_depth(&tree, &boxes, n);
        assert!((30..DEPTH_LIMIT).contains(&depth), "depth {depth}");
        let tree = build_to_depth(&boxes, (0..n as u32).collect(), 8);
        let depth = checked_depth(&tree, &boxes, n);
        assert!(
            (8..8 + 8).contains(&depth),
            "depth {depth} from a limit of 8"
        );
        let extreme: Vec<Aabb<DVec3>> = (0..n)
            .map(|i| {
                let c = DVec3::new(2f64.powi(250) * (i % 7) as f64, 1e-300 * i as f64, 0.0);
                Aabb {
                    min: c,
                    max: c + DVec3::new(0.0, 1e-300, 2f64.powi(250)),
                }
            })
            .collect();
        let tree = build(&extreme, (0..n as u32).collect());
        checked_depth(&tree, &extreme, n);
    }

    /// The wide nodes of a collapse (`children` of a wide node, by binary index),
    /// checked to reach every leaf once: their summed area and the leaves' count.
    fn collapse_cost(
        tree: &BinaryTree<DVec3>,
        children: impl Fn(usize) -> Vec<u32>,
    ) -> (f64, usize) {
        let (mut cost, mut leaves, mut wide) = (0.0, 0, vec![0]);
        while let Some(i) = wide.pop() {
            cost += area_f64(&tree.nodes[i].aabb);
            let kids = children(i);
            assert!((1..=8).contains(&kids.len()), "{} children", kids.len());
            for k in kids {
                match tree.nodes[k as usize].kind {
                    Kind::Inner(_) => wide.push(k as usize),
                    Kind::Leaf { .. } => leaves += 1,
                }
            }
        }
        (cost, leaves)
    }

    /// The greedy collapse: open the inner child of largest area while one more fits.
    fn greedy(tree: &BinaryTree<DVec3>, i: usize) -> Vec<u32> {
        let Kind::Inner(pair) = tree.nodes[i].kind else {
            return vec![i as u32];
        };
        let mut kids = pair.to_vec();
        while kids.len() < 8 {
            let widest = (0..kids.len())
                .filter(|&k| matches!(tree.nodes[kids[k] as usize].kind, Kind::Inner(_)))
                .max_by(|&a, &b| {
                    let area = |k: usize| area_f64(&tree.nodes[kids[k] as usize].aabb);
                    area(a).total_cmp(&area(b))
                });
            let Some(k) = widest else { break };
            let Kind::Inner([l, r]) = tree.nodes[kids[k] as usize].kind else {
                break;
            };
            kids.splice(k..=k, [l, r]);
        }
        kids
    }

    // The planned collapse reaches every leaf once with at most eight children a node,
    // and its wide nodes' summed area is never above the greedy collapse's (it is the
    // least possible); on scattered boxes it is lower.
    #[test]
    fn wide_plan_beats_the_greedy_collapse() {
        let mut unit = uniform(11);
        let mut lower = 0;
        for n in [1, 4, 5, 9, 40, 300, 3000] {
            let boxes = boxes_at((0..n).map(|_| DVec3::new(unit(), unit(), 0.3 * unit()) * 50.0));
            let tree = build(&boxes, (0..n as u32).collect());
            let leaves = tree
                .nodes
                .iter()
                .filter(|x| matches!(x.kind, Kind::Leaf { .. }))
                .count();
            let plan = WidePlan::new(&tree);
            let planned = collapse_cost(&tree, |i| {
                let mut kids = [0; 8];
                let k = plan.children(&tree, i, &mut kids);
                kids[..k].to_vec()
            });
            let greedy = collapse_cost(&tree, |i| greedy(&tree, i));
            assert_eq!((planned.1, greedy.1), (leaves, leaves), "{n} boxes");
            assert!(
                planned.0 <= greedy.0 * (1.0 + 1e-12),
                "{n}: {} > {}",
                planned.0,
                greedy.0
            );
            lower += usize::from(planned.0 < greedy.0 * 0.999);
        }
        assert!(lower >= 2, "lower on {lower} clouds");
    }
}
