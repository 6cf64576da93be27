//! The manifolds' normals for [`super::merge_manifolds`] and
//! [`super::merge_manifolds_by_normal`]: which manifolds lie within
//! [`MERGE_NORMAL_COS`] of which, without comparing every pair.
//!
//! A composite pair gives one manifold per pair of parts within the prediction (13,000
//! for two 320-triangle spheres half sunk into each other, 48,000 for two 30 × 30
//! heightfields at a prediction of 0.5), and the merges asked, for each manifold, how
//! many others share its normal: all pairs, and again for every further normal the
//! by-normal merge took (17 s and minutes). Here:
//!
//! - manifolds with the same normal (bit for bit) form one *group*: parts touched along
//!   one face's normal, as most are, share one. The test `o · m ≥ cos` is the same for
//!   every manifold of a group, so a group's count is the sum of its neighbouring
//!   groups' sizes;
//! - groups sit in a grid of cells as wide as the chord of the merge's angle, so a
//!   group's neighbours lie in the 27 cells around its own; the test itself is the
//!   merges' own dot product, so the answers are unchanged. A normal far from unit
//!   length or not finite (none from a query) is compared with every group.
//!
//! Tolerance: unit normals within [`UNIT_SLACK`] of length one squared go in the grid.

use super::{Manifold, MERGE_NORMAL_COS};
use crate::math::{Real, Vector};

/// Normals whose squared length is within this of 1 go in the grid (the cell width
/// allows for it); others are compared with every group.
const UNIT_SLACK: f64 = 1e-3;

/// Groups of manifolds of equal normals, and a grid of the groups' normals.
pub(super) struct Normals<V: Vector> {
    /// One normal a group.
    normals: Vec<V>,
    /// The manifolds of each group (indices into the caller's list, ascending), as
    /// `members[starts[g]..starts[g + 1]]`.
    starts: Vec<usize>,
    members: Vec<usize>,
    /// Each group's manifold index → group.
    group: Vec<usize>,
    /// The grid: cells a side, and the groups of each cell as
    /// `in_cell[cell_starts[c]..cell_starts[c + 1]]`; `cell[g]` (`None`: off-grid).
    side: usize,
    cell_starts: Vec<usize>,
    in_cell: Vec<usize>,
    cell: Vec<Option<usize>>,
    /// The groups off the grid.
    odd: Vec<usize>,
}

impl<V: Vector> Normals<V> {
    /// The groups of `manifolds`' normals.
    pub(super) fn new(manifolds: &[&Manifold<V>]) -> Self {
        let (normals, group) = groups(manifolds);
        let (starts, members) = by_key(normals.len(), &group);
        // Cell width: the chord of the merge's angle between normals of squared length
        // up to `1 + UNIT_SLACK`, with a margin for rounding.
        let width = (2.0 * (1.0 + UNIT_SLACK) - 2.0 * MERGE_NORMAL_COS).sqrt() * 1.01;
        let side = (2.0 * (1.0 + UNIT_SLACK).sqrt() / width).ceil() as usize + 1;
        let cell: Vec<Option<usize>> = normals.iter().map(|&n| cell_of(n, width, side)).collect();
        let odd = (0..normals.len()).filter(|&g| cell[g].is_none()).collect();
        let keys: Vec<usize> = cell
            .iter()
            .map(|c| c.unwrap_or(side * side * side))
            .collect();
        let (mut cell_starts, in_cell) = by_key(side * side * side + 1, &keys);
        cell_starts.truncate(side * side * side + 1);
        Self {
            normals,
            starts,
            members,
            group,
            side,
            cell_starts,
            in_cell,
            cell,
            odd,
        }
    }

    /// How many groups.
    pub(super) fn len(&self) -> usize {
        self.normals.len()
    }

    /// The group of manifold `i`.
    pub(super) fn group_of(&self, i: usize) -> usize {
        self.group[i]
    }

    /// The manifolds of group `g`, ascending.
    pub(super) fn members(&self, g: usize) -> &[usize] {
        &self.members[self.starts[g]..self.starts[g + 1]]
    }

    /// Calls `f(h)` for every group `h` with `normal(h) · normal(g) ≥ MERGE_NORMAL_COS`
    /// (`g` itself included when its normal passes).
    pub(super) fn for_each_near(&self, g: usize, mut f: impl FnMut(usize)) {
        let cos = V::Scalar::from_f64(MERGE_NORMAL_COS);
        let n = self.normals[g];
        let mut test = |h: usize| {
            if self.normals[h].dot(n) >= cos {
                f(h);
            }
        };
        let Some(c) = self.cell[g] else {
            (0..self.len()).for_each(test);
            return;
        };
        let s = self.side;
        let (x, y, z) = (c / (s * s), c / s % s, c % s);
        for i in x.saturating_sub(1)..(x + 2).min(s) {
            for j in y.saturating_sub(1)..(y + 2).min(s) {
                for k in z.saturating_sub(1)..(z + 2).min(s) {
                    let cell = (i * s + j) * s + k;
                    let groups = &self.in_cell[self.cell_starts[cell]..self.cell_starts[cell + 1]];
                    groups.iter().for_each(|&h| test(h));
                }
            }
        }
        self.odd.iter().for_each(|&h| test(h));
    }
}

/// The distinct normals (bit for bit, in order of first use) and each manifold's.
fn groups<V: Vector>(manifolds: &[&Manifold<V>]) -> (Vec<V>, Vec<usize>) {
    let mut seen = std::collections::HashMap::new();
    let mut normals = Vec::new();
    let group = manifolds
        .iter()
        .map(|m| {
            let n = m.normal;
            let key: [u64; 3] = core::array::from_fn(|i| {
                if i < V::DIM {
                    n.get(i).to_f64().to_bits()
                } else {
                    0
                }
            });
            *seen.entry(key).or_insert_with(|| {
                normals.push(n);
                normals.len() - 1
            })
        })
        .collect();
    (normals, group)
}

/// Items `0..keys.len()` sorted by their key below `count`, as `(starts, items)`:
/// key `k`'s items are `items[starts[k]..starts[k + 1]]`, ascending (a counting sort).
fn by_key(count: usize, keys: &[usize]) -> (Vec<usize>, Vec<usize>) {
    let mut starts = vec![0; count + 1];
    for &k in keys {
        starts[k + 1] += 1;
    }
    for k in 0..count {
        starts[k + 1] += starts[k];
    }
    let mut next = starts.clone();
    let mut items = vec![0; keys.len()];
    for (i, &k) in keys.iter().enumerate() {
        items[next[k]] = i;
        next[k] += 1;
    }
    (starts, items)
}

/// The grid cell of a normal of squared length within [`UNIT_SLACK`] of 1 (2D normals
/// take the middle layer of the third axis), `None` for others.
fn cell_of<V: Vector>(n: V, width: f64, side: usize) -> Option<usize> {
    let len2 = n.dot(n).to_f64();
    if !((len2 - 1.0).abs() <= UNIT_SLACK) {
        return None;
    }
    let reach = (1.0 + UNIT_SLACK).sqrt();
    let index = |i: usize| {
        let x = if i < V::DIM { n.get(i).to_f64() } else { 0.0 };
        (((x + reach) / width).floor() as usize).min(side - 1)
    };
    Some((index(0) * side + index(1)) * side + index(2))
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use crate::math::Vector;
    use glam::{DVec2, DVec3, Vec3};

    /// The merge as it was before the groups and the grid (every pair compared), the
    /// reference the new one must equal.
    fn plain_merge<'a, V: Vector>(
        manifolds: impl IntoIterator<Item = &'a Manifold<V>>,
    ) -> Option<Manifold<V>> {
        let all: Vec<&Manifold<V>> = manifolds.into_iter().collect();
        let cos = V::Scalar::from_f64(MERGE_NORMAL_COS);
        let sharing =
            |m: &Manifold<V>| all.iter().filter(|o| o.normal.dot(m.normal) >= cos).count();
        let reference = all
            .iter()
            .copied()
            .filter(|m| !m.points().is_empty())
            .map(|m| (sharing(m), m))
            .fold(
                None,
                |best: Option<(usize, &Manifold<V>)>, (k, m)| match best {
                    Some((bk, b)) if k < bk || (k == bk && !(m.max_depth() > b.max_depth())) => {
                        Some((bk, b))
                    }
                    _ => Some((k, m)),
                },
            )?
            .1;
        let points: Vec<ManifoldPoint<V>> = all
            .iter()
            .filter(|m| m.normal.dot(reference.normal) >= cos)
            .flat_map(|m| m.points().iter().copied())
            .collect();
        let magnitude = points
            .iter()
            .fold(V::Scalar::ZERO, |s, p| s.max(p.point_b.abs().max_element()));
        let tiny = crate::math::tolerance::eps::<V::Scalar>(MERGE_DUPLICATE_ULPS) * magnitude;
        let cap = if V::DIM == 2 { 2 } else { MAX_MANIFOLD_POINTS };
        let mut m = Manifold::new(reference.normal, reference.status);
        for i in spread_points(&points, cap, tiny) {
            let p = points[i];
            m.push(p.point_a, p.point_b, p.depth, p.id);
        }
        (!m.points().is_empty()).then_some(m)
    }

    /// The by-normal merge as it was (the plain merge again and again).
    fn plain_by_normal<'a, V: Vector>(
        manifolds: impl IntoIterator<Item = &'a Manifold<V>>,
    ) -> Vec<Manifold<V>> {
        let cos = V::Scalar::from_f64(MERGE_NORMAL_COS);
        let mut left: Vec<&Manifold<V>> = manifolds
            .into_iter()
            .filter(|m| !m.points().is_empty())
            .collect();
        let mut merged = Vec::new();
        while let Some(m) = plain_merge(left.iter().copied()) {
            let before = left.len();
            left.retain(|o| !(o.normal.dot(m.normal) >= cos));
            merged.push(m);
            if left.len() == before {
                break;
            }
        }
        if let Some(rest) = merged.get_mut(1..) {
            rest.sort_by(|x, y| {
                y.max_depth()
                    .partial_cmp(&x.max_depth())
                    .unwrap_or(core::cmp::Ordering::Equal)
            });
        }
        merged.truncate(MAX_MERGED_MANIFOLDS);
        merged
    }

    /// A seeded generator (xorshift).
    struct Rng(u64);

    impl Rng {
        fn unit(&mut self) -> f64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }

        fn below(&mut self, n: usize) -> usize {
            ((self.unit() * n as f64) as usize).min(n - 1)
        }
    }

    /// A random set of manifolds whose normals repeat (a palette), cluster within and
    /// around the merge's angle, or are odd (NaN, zero, long); some have no point, some
    /// points repeat, depths tie.
    fn manifolds<V: Vector>(rng: &mut Rng, count: usize) -> Vec<Manifold<V>> {
        let vec = |rng: &mut Rng, k: f64| {
            V::unit_axis(0) * V::Scalar::from_f64(k * (2.0 * rng.unit() - 1.0))
                + V::unit_axis(1) * V::Scalar::from_f64(k * (2.0 * rng.unit() - 1.0))
                + V::unit_axis(V::DIM - 1)
                    * V::Scalar::from_f64(if V::DIM == 3 {
                        k * (2.0 * rng.unit() - 1.0)
                    } else {
                        0.0
                    })
        };
        let unit = |rng: &mut Rng| loop {
            if let Some(u) = vec(rng, 1.0).try_normalize() {
                return u;
            }
        };
        let palette: Vec<V> = (0..1 + rng.below(6)).map(|_| unit(rng)).collect();
        let spread = [0.0, 0.02, 0.06, 0.09, 0.3][rng.below(5)];
        (0..count)
            .map(|_| {
                let normal = match rng.below(20) {
                    0 => V::splat(V::Scalar::from_f64(f64::NAN)),
                    1 => V::ZERO,
                    2 => palette[0] * V::Scalar::from_f64(3.0),
                    3..=6 => unit(rng),
                    _ => {
                        let p = palette[rng.below(palette.len())];
                        (p + vec(rng, spread)).try_normalize().unwrap_or(p)
                    }
                };
                let mut m = Manifold::new(normal, Status::Converged);
                let anchor = vec(rng, 2.0);
                for k in 0..rng.below(5) {
                    let at = match rng.below(3) {
                        0 => anchor,
                        _ => anchor + vec(rng, 1.0),
                    };
                    let depth = match rng.below(8) {
                        0 => f64::NAN,
                        1..=3 => 0.1,
                        _ => (rng.unit() * 4.0).round() / 8.0 - 0.2,
                    };
                    let depth = V::Scalar::from_f64(depth);
                    let id = FeatureId::new(false, k as u32, rng.below(3) as u32, 0);
                    m.push(at + normal * depth, at, depth, id);
                }
                m
            })
            .collect()
    }

    fn same_merges<V: Vector>(seed: u64) {
        let mut rng = Rng(seed);
        for case in 0..300 {
            let count = [0, 1, 2, 5, 40, 200][case % 6];
            let all = manifolds::<V>(&mut rng, count);
            assert_eq!(
                format!("{:?}", merge_manifolds(&all)),
                format!("{:?}", plain_merge(&all)),
                "merge, case {case}"
            );
            assert_eq!(
                format!("{:?}", merge_manifolds_by_normal(&all)),
                format!("{:?}", plain_by_normal(&all)),
                "by normal, case {case}"
            );
        }
    }

    // The groups and the grid change no answer: every case against the plain merges,
    // 2D and 3D, f32 and f64.
    #[test]
    fn merges_answer_as_the_plain_ones() {
        same_merges::<DVec3>(0x51);
        same_merges::<Vec3>(0x52);
        same_merges::<DVec2>(0x53);
        same_merges::<glam::Vec2>(0x54);
    }

    // A group's neighbours are exactly the groups within the merge's angle, found in
    // the cells around it: against every pair, on normals near the cells' edges.
    #[test]
    fn neighbours_are_every_group_within_the_angle() {
        let mut rng = Rng(0x55);
        let cos = MERGE_NORMAL_COS;
        let all: Vec<Manifold<DVec3>> = (0..3000)
            .map(|_| {
                let k = 1.0 + (rng.unit() - 0.5) * 1.8e-3;
                let n = DVec3::new(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5)
                    .normalize()
                    * k;
                Manifold::new(n, Status::Converged)
            })
            .collect();
        let refs: Vec<&Manifold<DVec3>> = all.iter().collect();
        let normals = Normals::new(&refs);
        for g in 0..normals.len() {
            let mut found = Vec::new();
            normals.for_each_near(g, |h| found.push(h));
            found.sort_unstable();
            let n = all[normals.members(g)[0]].normal;
            let want: Vec<usize> = (0..normals.len())
                .filter(|&h| all[normals.members(h)[0]].normal.dot(n) >= cos)
                .collect();
            assert_eq!(found, want, "group {g}");
        }
    }
}
