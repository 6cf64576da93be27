//! Walks of the [`Bvh`] for the composite queries, beside the general ones of
//! `bvh.rs`:
//!
//! - [`Bvh::nearest`]: the nearest item to a point. A depth-first walk that visits
//!   the items of a node nearest box first, then its inner children nearest first,
//!   and prunes every box farther than the best item found so far (branch and bound,
//!   as in Ericson, *Real-Time Collision Detection*, 6.5.2; the closest-point search
//!   of parry's `TriMesh` works the same way).
//! - [`Bvh::nearest_to_aabb`]: the same walk for the item nearest to a box (lower
//!   bounds: box-to-box distances), for the composite distance queries.
//! - [`Bvh::overlapping`]: every item whose box overlaps a box, in exactly the order
//!   of [`Bvh::query`], but branch-light — the four box tests combine flags instead
//!   of branching per comparison, lanes come from bit masks — and with a small
//!   traversal stack, for the many small trees of compounds and the per-part lookups
//!   of composite pairs (compound–ball contact: the tree walk went from about 90 to
//!   25 ns).
//!
//! Both keep the next node to visit in a register instead of a round trip through
//! the stack. No tolerances.

use super::{lanes, Bvh};
use crate::broad::bvh_build::{EMPTY_SLOT, LEAF_BIT};
use crate::broad::simd::{Boxes4, LANES};
use crate::broad::stack::Stack;
use crate::math::{Real, Vector};
use crate::shape::Aabb;

/// Per lane, whether the closed boxes `aabb` and lane's share a point (false for
/// NaN): the test of [`aabb_boxes4`](crate::broad::simd::aabb_boxes4) with
/// non-short-circuit `&`, so that it compiles to flag arithmetic, not a branch per
/// comparison (the lanes' outcomes are unpredictable).
#[inline(always)]
fn overlap4<V: Vector>(aabb: &Aabb<V>, boxes: &Boxes4<V::Scalar>) -> [bool; LANES] {
    let mut hit = [true; LANES];
    for axis in 0..V::DIM {
        let (lo, hi) = (aabb.min.get(axis), aabb.max.get(axis));
        for (lane, hit) in hit.iter_mut().enumerate() {
            *hit &= (boxes.min[axis][lane] <= hi) & (lo <= boxes.max[axis][lane]);
        }
    }
    hit
}

/// Bit masks of the lanes flagged in `hit` that hold an item, and an inner node
/// (empty slots are in neither).
#[inline(always)]
fn split_masks(hit: [bool; LANES], child: &[u32; LANES]) -> (u32, u32) {
    let (mut items, mut inner) = (0, 0);
    for lane in 0..LANES {
        let live = u32::from(hit[lane] & (child[lane] != EMPTY_SLOT));
        let is_item = u32::from(child[lane] & LEAF_BIT != 0);
        items |= (live & is_item) << lane;
        inner |= (live & (1 - is_item)) << lane;
    }
    (items, inner)
}

/// Squared distances from `p` to the four boxes (`+∞` for empty lanes), per lane
/// the same arithmetic as [`Aabb::distance_squared_to_point`].
#[inline(always)]
fn distances4<V: Vector>(boxes: &Boxes4<V::Scalar>, p: V) -> [V::Scalar; LANES] {
    let zero = V::Scalar::ZERO;
    let mut d2 = [zero; LANES];
    for axis in 0..V::DIM {
        let x = p.get(axis);
        for (lane, d2) in d2.iter_mut().enumerate() {
            let q = x.max(boxes.min[axis][lane]).min(boxes.max[axis][lane]);
            let d = q - x;
            *d2 += d * d;
        }
    }
    d2
}

/// The four lanes of a node as `(squared distance, slot code)`, nearest first: a
/// five-exchange sorting network whose exchanges compile to conditional moves (the
/// order of the distances is unpredictable, a branchy sort mispredicts).
#[inline(always)]
fn sorted_lanes<S: Real>(d2: [S; LANES], child: &[u32; LANES]) -> [(S, u32); LANES] {
    let mut out = [
        (d2[0], child[0]),
        (d2[1], child[1]),
        (d2[2], child[2]),
        (d2[3], child[3]),
    ];
    super::sort_lanes(&mut out);
    out
}

/// Squared distances from `region` to the four boxes (`+∞` for empty lanes), per
/// lane the squared length of the gap vector `max(a.min − b.max, b.min − a.max, 0)`.
#[inline(always)]
fn box_distances4<V: Vector>(boxes: &Boxes4<V::Scalar>, region: &Aabb<V>) -> [V::Scalar; LANES] {
    let zero = V::Scalar::ZERO;
    let mut d2 = [zero; LANES];
    for axis in 0..V::DIM {
        let (lo, hi) = (region.min.get(axis), region.max.get(axis));
        for (lane, d2) in d2.iter_mut().enumerate() {
            let gap = (lo - boxes.max[axis][lane])
                .max(boxes.min[axis][lane] - hi)
                .max(zero);
            *d2 += gap * gap;
        }
    }
    d2
}

/// `d < bound`, or `d ≤ bound` when `INCLUSIVE` (false for NaN either way).
#[inline(always)]
fn within<const INCLUSIVE: bool, S: Real>(d: S, bound: S) -> bool {
    if INCLUSIVE {
        d <= bound
    } else {
        d < bound
    }
}

impl<V: Vector> Bvh<V> {
    /// The item nearest to `p`: `leaf(item, best)` returns the exact squared distance
    /// from `p` to the item (or `None` to skip it), given the best squared distance so
    /// far; items whose box is farther than the best are never passed. Returns the
    /// item and its squared distance (the first found among equals). An empty tree or
    /// a NaN or infinite `p` finds nothing.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // The nearest of three points (as zero-size boxes) to (4, 1): (5, 1), at distance² 1.
    /// let points = [Vec2::ZERO, Vec2::new(5.0, 1.0), Vec2::new(-3.0, 7.0)];
    /// let boxes: Vec<Aabb> = points.iter().map(|&p| Aabb::new(p, p)).collect::<Result<_, _>>()?;
    /// let bvh = Bvh::build(&boxes);
    /// let q = Vec2::new(4.0, 1.0);
    /// let nearest = bvh.nearest(q, |i, _| Some(points[i as usize].distance_squared(q)));
    /// assert_eq!(nearest, Some((1, 1.0)));
    /// # Ok(())
    /// # }
    /// ```
    pub fn nearest(
        &self,
        p: V,
        leaf: impl FnMut(u32, V::Scalar) -> Option<V::Scalar>,
    ) -> Option<(u32, V::Scalar)> {
        if !p.is_finite() {
            return None;
        }
        self.branch_and_bound::<false>(|b| distances4(b, p), V::Scalar::INFINITY, leaf)
    }

    /// The item nearest to the box `region` closer than `upper` (`∞` for no bound):
    /// as [`nearest`](Self::nearest), with distances (not squared) between `region`
    /// and the items' boxes as the lower bounds; `leaf(item, best)` returns the exact
    /// distance to the item. Overlapping boxes are at distance 0, so a leaf answering
    /// 0 ends the search. A NaN box or `upper` finds nothing.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // The unit box nearest to a query box: the one at x = 5 is 2 from [1, 3] × [0, 1].
    /// let boxes: Vec<Aabb> = [-4.0, 5.0, 9.0].iter().map(|&x| Aabb::new(Vec2::new(x, 0.0), Vec2::new(x + 1.0, 1.0))).collect::<Result<_, _>>()?;
    /// let bvh = Bvh::build(&boxes);
    /// let region = Aabb::new(Vec2::new(1.0, 0.0), Vec2::new(3.0, 1.0))?;
    /// // The exact distance here is the box distance itself.
    /// let gap = |b: &Aabb| (b.min.x - region.max.x).max(region.min.x - b.max.x).max(0.0);
    /// let nearest = bvh.nearest_to_aabb(&region, f32::INFINITY, |i, _| Some(gap(&boxes[i as usize])));
    /// assert_eq!(nearest, Some((1, 2.0)));
    /// # Ok(())
    /// # }
    /// ```
    pub fn nearest_to_aabb(
        &self,
        region: &Aabb<V>,
        upper: V::Scalar,
        mut leaf: impl FnMut(u32, V::Scalar) -> Option<V::Scalar>,
    ) -> Option<(u32, V::Scalar)> {
        if region.min.is_nan() || region.max.is_nan() || upper.is_nan() {
            return None;
        }
        // The walk compares squared box distances (no square root per lane) with the
        // square of the best exact distance, which is kept here unsquared.
        let mut found: Option<(u32, V::Scalar)> = None;
        let mut best = upper;
        self.branch_and_bound::<false>(
            |b| box_distances4(b, region),
            upper * upper,
            |i, _| {
                let d = leaf(i, best).filter(|&d| d < best)?;
                best = d;
                found = Some((i, d));
                Some(d * d)
            },
        );
        found
    }

    /// Branch and bound from the box `region` with an inclusive cutoff, for the
    /// world's distance queries: every item whose box's *squared* distance to
    /// `region` is at most the cutoff is passed to `leaf(item, cutoff)`, nearer boxes
    /// of a node first; a returned value below the cutoff becomes the new cutoff.
    /// Items tied with the cutoff are still visited, so that a caller can break ties
    /// its own way. A NaN box or cutoff visits nothing.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // Two unit boxes tied at distance 2 from the query box, one farther at 5.
    /// let at = |x: f32, y: f32| Aabb::from_center(Vec2::new(x, y), Vec2::splat(0.5));
    /// let bvh = Bvh::build(&[at(3.0, 0.0)?, at(-3.0, 0.0)?, at(6.0, 0.0)?]);
    /// let mut seen = Vec::new();
    /// bvh.branch_and_bound_from_aabb(&at(0.0, 0.0)?, f32::INFINITY, |item, _| {
    ///     seen.push(item);
    ///     Some(4.0) // squared distance 2², so the box at 5 is pruned
    /// });
    /// seen.sort();
    /// assert_eq!(seen, [0, 1]); // both tied items, not the third
    /// # Ok(())
    /// # }
    /// ```
    pub fn branch_and_bound_from_aabb(
        &self,
        region: &Aabb<V>,
        cutoff: V::Scalar,
        leaf: impl FnMut(u32, V::Scalar) -> Option<V::Scalar>,
    ) {
        if region.min.is_nan() || region.max.is_nan() || cutoff.is_nan() {
            return;
        }
        self.branch_and_bound::<true>(|b| box_distances4(b, region), cutoff, leaf);
    }

    /// The walk of [`nearest`](Self::nearest): `keys(boxes)` gives the lower bounds of
    /// a node's four lanes, `bound` the initial bound (exclusive).
    #[inline(always)]
    fn branch_and_bound<const INCLUSIVE: bool>(
        &self,
        keys: impl Fn(&Boxes4<V::Scalar>) -> [V::Scalar; LANES],
        mut bound: V::Scalar,
        mut leaf: impl FnMut(u32, V::Scalar) -> Option<V::Scalar>,
    ) -> Option<(u32, V::Scalar)> {
        if self.nodes.is_empty() {
            return None;
        }
        let mut best: Option<(u32, V::Scalar)> = None;
        let mut stack = Stack::new();
        let mut current = 0u32;
        loop {
            let node = &self.nodes[current as usize];
            let sorted = sorted_lanes(keys(&node.boxes), &node.child);
            // Items nearest first (each may shrink the bound).
            for &(d, code) in &sorted {
                if code != EMPTY_SLOT && code & LEAF_BIT != 0 && within::<INCLUSIVE, _>(d, bound) {
                    let item = code & !LEAF_BIT;
                    if let Some(exact) = leaf(item, bound).filter(|&e| e < bound) {
                        bound = exact;
                        best = Some((item, exact));
                    }
                }
            }
            // Inner children: the nearest is next, the others wait farthest first.
            let mut next = None;
            for &(d, code) in sorted.iter().rev() {
                if code & LEAF_BIT == 0 && within::<INCLUSIVE, _>(d, bound) {
                    if let Some(pending) = next.replace((code, d)) {
                        stack.push(pending);
                    }
                }
            }
            current = match next {
                Some((code, _)) => code,
                None => loop {
                    match stack.pop() {
                        Some((i, d)) if within::<INCLUSIVE, _>(d, bound) => break i,
                        Some(_) => continue,
                        None => return best,
                    }
                },
            };
        }
    }

    /// Calls `f(item)` for every item whose box overlaps `aabb` (closed boxes), until
    /// `f` returns `false`: the items and the order of [`Bvh::query`] (a NaN box finds
    /// nothing), with the walk described in the module docs.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // Stop at the first overlapping item: is any box under the point (2.5, 0.5)?
    /// let boxes: Vec<Aabb> = (0..8).map(|i| Aabb::new(Vec2::new(i as f32, 0.0), Vec2::new(i as f32 + 1.0, 1.0))).collect::<Result<_, _>>()?;
    /// let bvh = Bvh::build(&boxes);
    /// let p = Vec2::new(2.5, 0.5);
    /// let mut hit = None;
    /// bvh.overlapping(&Aabb::new(p, p)?, |i| { hit = Some(i); false });
    /// assert_eq!(hit, Some(2));
    /// # Ok(())
    /// # }
    /// ```
    pub fn overlapping(&self, aabb: &Aabb<V>, mut f: impl FnMut(u32) -> bool) {
        if self.nodes.is_empty() {
            return;
        }
        let mut stack = Stack::new();
        let mut current = 0u32;
        loop {
            let node = &self.nodes[current as usize];
            let (items, inner) = split_masks(overlap4(aabb, &node.boxes), &node.child);
            for lane in lanes(items) {
                if !f(node.child[lane] & !LEAF_BIT) {
                    return;
                }
            }
            // `query` pushes the inner children in lane order and pops the last: visit
            // that one now and push the others.
            let next = match inner {
                0 => stack.pop(),
                _ => {
                    let last = 31 - inner.leading_zeros();
                    for lane in lanes(inner & !(1 << last)) {
                        stack.push(node.child[lane]);
                    }
                    Some(node.child[last as usize])
                }
            };
            match next {
                Some(i) => current = i,
                None => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::broad::Bvh;
    use crate::shape::Aabb;
    use glam::Vec3;

    /// A seeded generator of points in `[0, k)³` (a small LCG: the tests need no crate).
    fn seeded_points(mut state: u64) -> impl FnMut(f32) -> Vec3 {
        let mut unit = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 40) as f32 / (1u64 << 24) as f32
        };
        move |k: f32| Vec3::new(unit() * k, unit() * k, unit() * k)
    }

    // 500 seeded boxes and 500 query points: the nearest box by the walk equals the
    // brute-force nearest (distance to the box itself as the exact distance); an
    // empty tree and NaN find nothing.
    #[test]
    fn matches_brute_force() {
        let mut v = seeded_points(0x1234_5678_u64);
        let boxes: Vec<Aabb<Vec3>> = (0..500)
            .map(|_| {
                let c = v(100.0);
                Aabb::from_center(c, v(2.0)).unwrap()
            })
            .collect();
        let bvh = Bvh::build(&boxes);
        for _ in 0..500 {
            let p = v(120.0) - Vec3::splat(10.0);
            let d2 = |i: u32| boxes[i as usize].distance_squared_to_point(p);
            let (_, found) = bvh.nearest(p, |i, _| Some(d2(i))).unwrap();
            let brute = (0..500).map(d2).fold(f32::INFINITY, f32::min);
            assert_eq!(found, brute);
        }
        assert!(Bvh::<Vec3>::build(&[])
            .nearest(Vec3::ZERO, |_, _| Some(0.0))
            .is_none());
        assert!(bvh.nearest(Vec3::NAN, |_, _| Some(0.0)).is_none());
    }

    // 300 seeded boxes and 300 query boxes (some overlapping items, some far): the
    // nearest item by `nearest_to_aabb` is at the brute-force smallest box-to-box
    // distance; an `upper` below it finds nothing; a NaN box finds nothing.
    #[test]
    fn nearest_to_aabb_matches_brute_force() {
        let mut v = seeded_points(0x5555_1234_u64);
        let boxes: Vec<Aabb<Vec3>> = (0..300)
            .map(|_| Aabb::from_center(v(100.0), v(2.0)).unwrap())
            .collect();
        let bvh = Bvh::build(&boxes);
        let gap = |a: &Aabb<Vec3>, b: &Aabb<Vec3>| {
            (a.min - b.max).max(b.min - a.max).max(Vec3::ZERO).length()
        };
        for _ in 0..300 {
            let q = Aabb::from_center(v(140.0) - Vec3::splat(20.0), v(5.0)).unwrap();
            let d = |i: u32| gap(&boxes[i as usize], &q);
            let brute = (0..300).map(d).fold(f32::INFINITY, f32::min);
            let (_, found) = bvh
                .nearest_to_aabb(&q, f32::INFINITY, |i, _| Some(d(i)))
                .unwrap();
            assert_eq!(found, brute);
            if brute > 0.0 {
                assert!(bvh.nearest_to_aabb(&q, brute, |i, _| Some(d(i))).is_none());
            }
        }
        let nan = Aabb {
            min: Vec3::NAN,
            max: Vec3::NAN,
        };
        assert!(bvh
            .nearest_to_aabb(&nan, f32::INFINITY, |_, _| Some(0.0))
            .is_none());
    }

    // `overlapping` reports exactly the items of `query`, in the same order, for
    // boxes from empty to all-covering, an infinite box (which also meets the empty
    // lanes' inverted boxes) and a NaN box; stopping early stops both alike.
    #[test]
    fn overlapping_matches_query_order() {
        let mut state = 0x9876_5432_u64;
        let mut unit = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 40) as f32 / (1u64 << 24) as f32
        };
        let mut v = |k: f32| Vec3::new(unit() * k, unit() * k, unit() * k);
        for n in [1usize, 3, 5, 17, 700] {
            let boxes: Vec<Aabb<Vec3>> = (0..n)
                .map(|_| Aabb::from_center(v(100.0), v(3.0)).unwrap())
                .collect();
            let bvh = Bvh::build(&boxes);
            let mut regions: Vec<Aabb<Vec3>> = (0..200)
                .map(|_| Aabb::from_center(v(110.0), v(40.0)).unwrap())
                .collect();
            let inf = Vec3::splat(f32::INFINITY);
            regions.push(Aabb {
                min: -inf,
                max: inf,
            });
            regions.push(Aabb {
                min: Vec3::NAN,
                max: Vec3::NAN,
            });
            for (k, r) in regions.iter().enumerate() {
                let stop = k % 7;
                let (mut a, mut b) = (Vec::new(), Vec::new());
                bvh.query(r, |i| {
                    a.push(i);
                    a.len() != stop
                });
                bvh.overlapping(r, |i| {
                    b.push(i);
                    b.len() != stop
                });
                assert_eq!(a, b);
            }
        }
    }
}
