//! The plane sweep shared by validation (`crossings.rs`) and triangulation
//! (`triangulate.rs`): events in sweep order, and the sweep status, an ordered map of
//! the edges that cross the sweep line (de Berg, Cheong, van Kreveld and Overmars,
//! *Computational Geometry*, 3rd ed., 2.1 and 3.2).
//!
//! The sweep runs from top to bottom: `p` comes before `q` when `p.y > q.y`, or
//! `p.y = q.y` and `p.x < q.x` (a sweep line tilted by an infinitesimal angle, so that
//! horizontal edges need no special case). Edges are compared by exact orientation
//! signs only (`geometry::orient`): two edges in the status do not cross, so the one
//! that entered later lies wholly left or right of the other; when its upper end lies
//! on the other (a shared vertex), its lower end decides. A point beside a slanted
//! edge's whole `x` range, level with it, takes that side without the determinant (the
//! same sign, read off the coordinates). No tolerances.

use core::cmp::Ordering;
use std::collections::BTreeMap;

use super::geometry::orient;
use crate::math::{Real, Vector2};

/// True when `p` comes after `q` in the sweep (below it, or level with it and right of it).
#[inline]
pub(super) fn after<V: Vector2>(p: V, q: V) -> bool {
    p.y() < q.y() || (p.y() == q.y() && p.x() > q.x())
}

/// The sweep order of two points (`Less` when `p` comes first).
#[inline]
pub(super) fn sweep_cmp<V: Vector2>(p: V, q: V) -> Ordering {
    if after(q, p) {
        Ordering::Less
    } else if after(p, q) {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

/// Vertex indices in sweep order (ties, coincident vertices, by index). Points are finite.
pub(super) fn sweep_order<V: Vector2>(points: &[V]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..points.len() as u32).collect();
    order.sort_by(|&a, &b| sweep_cmp(points[a as usize], points[b as usize]).then(a.cmp(&b)));
    order
}

/// A status key: an edge (its upper and lower end in sweep order, and an id), or a
/// probe point used to locate a point among the edges.
#[derive(Copy, Clone, Debug)]
pub(super) enum Key<V> {
    /// An edge crossing the sweep line.
    Edge {
        /// The end that comes first in the sweep.
        upper: V,
        /// The end that comes last.
        lower: V,
        /// The edge's id (unique in the status).
        id: u32,
    },
    /// A point; edges through it count as right of it (`right = false`) or left of it.
    Probe {
        /// The point.
        at: V,
        /// Whether the probe sits just right of the edges through the point.
        right: bool,
    },
}

impl<V: Vector2> Key<V> {
    /// The edge `a`–`b` with id `id`, its ends ordered by the sweep.
    pub(super) fn edge(a: V, b: V, id: u32) -> Self {
        let (upper, lower) = if after(b, a) { (a, b) } else { (b, a) };
        Key::Edge { upper, lower, id }
    }

    /// The edge's id (`u32::MAX` for a probe).
    pub(super) fn id(&self) -> u32 {
        match *self {
            Key::Edge { id, .. } => id,
            Key::Probe { .. } => u32::MAX,
        }
    }
}

/// Sign of `orient(a, b, p)`: positive when `p` is right of the downward edge `a → b`.
/// A point level with part of a slanted edge and beyond both ends' `x` lies on that
/// side of it (the edge crosses the point's level between its ends' `x`): most
/// comparisons in a wide status, answered without the determinant.
#[inline]
fn side<V: Vector2>(a: V, b: V, p: V) -> Ordering {
    if b.y() < a.y() && b.y() <= p.y() && p.y() <= a.y() {
        if p.x() < a.x() && p.x() < b.x() {
            return Ordering::Less;
        }
        if p.x() > a.x() && p.x() > b.x() {
            return Ordering::Greater;
        }
    }
    orient(a, b, p)
        .partial_cmp(&V::Scalar::ZERO)
        .unwrap_or(Ordering::Equal)
}

/// Order of two edges of the status, `(upper, lower, id)`: the one that entered later
/// is tested against the other, by its upper end, or by its lower end when the upper
/// one lies on the other. Ends by reference: the status compares millions of times.
#[inline]
fn edge_cmp<V: Vector2>(e: (&V, &V, u32), f: (&V, &V, u32)) -> Ordering {
    if e.2 == f.2 {
        return Ordering::Equal;
    }
    let (later, earlier, swapped) = if after(*f.0, *e.0) {
        (f, e, true)
    } else {
        (e, f, false)
    };
    // `later` entered at or after `earlier`'s upper end.
    let (a, b) = (*earlier.0, *earlier.1);
    let s = side(a, b, *later.0).then_with(|| side(a, b, *later.1));
    // Positive side: `later` lies right of `earlier`. Collinear overlap (refused
    // input): by id.
    let s = s.then(later.2.cmp(&earlier.2));
    if swapped {
        s.reverse()
    } else {
        s
    }
}

/// Order of an edge and a probe: the edge is less than the probe when the point lies
/// right of it; an edge through the point by the probe's side.
#[inline]
fn edge_probe_cmp<V: Vector2>(upper: V, lower: V, at: V, right: bool) -> Ordering {
    side(upper, lower, at).reverse().then(if right {
        Ordering::Less
    } else {
        Ordering::Greater
    })
}

impl<V: Vector2> Ord for Key<V> {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (
                Key::Edge {
                    upper: u1,
                    lower: l1,
                    id: i1,
                },
                Key::Edge {
                    upper: u2,
                    lower: l2,
                    id: i2,
                },
            ) => edge_cmp((u1, l1, *i1), (u2, l2, *i2)),
            (Key::Edge { upper, lower, .. }, &Key::Probe { at, right }) => {
                edge_probe_cmp(*upper, *lower, at, right)
            }
            (&Key::Probe { at, right }, Key::Edge { upper, lower, .. }) => {
                edge_probe_cmp(*upper, *lower, at, right).reverse()
            }
            (Key::Probe { .. }, Key::Probe { .. }) => Ordering::Equal,
        }
    }
}

impl<V: Vector2> PartialOrd for Key<V> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<V: Vector2> PartialEq for Key<V> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<V: Vector2> Eq for Key<V> {}

/// The sweep status: edges crossing the sweep line, left to right, each with a value.
pub(super) struct Status<V, T> {
    map: BTreeMap<Key<V>, T>,
}

impl<V: Vector2, T> Status<V, T> {
    pub(super) fn new() -> Self {
        Self {
            map: BTreeMap::new(),
        }
    }

    pub(super) fn insert(&mut self, key: Key<V>, value: T) {
        self.map.insert(key, value);
    }

    pub(super) fn remove(&mut self, key: &Key<V>) -> Option<T> {
        self.map.remove(key)
    }

    /// The nearest edge strictly left of `p` (edges through `p` excluded).
    pub(super) fn left_of(&mut self, p: V) -> Option<(&Key<V>, &mut T)> {
        let probe = Key::Probe {
            at: p,
            right: false,
        };
        self.map.range_mut(..probe).next_back()
    }

    /// The nearest edge strictly right of `p`.
    #[cfg(test)]
    pub(super) fn right_of(&self, p: V) -> Option<&Key<V>> {
        let probe = Key::Probe { at: p, right: true };
        self.map.range(probe..).next().map(|(k, _)| k)
    }

    /// The edges through `p`, left to right.
    #[cfg(test)]
    pub(super) fn through(&self, p: V) -> impl Iterator<Item = &Key<V>> {
        let lo = Key::Probe {
            at: p,
            right: false,
        };
        let hi = Key::Probe { at: p, right: true };
        self.map.range(lo..hi).map(|(k, _)| k)
    }

    /// The edges through `p` and then the nearest edge right of `p`, left to right
    /// (one search): `(through, right)`, appended to `ids`; returns whether a right
    /// neighbour was found.
    pub(super) fn through_and_right(&self, p: V, ids: &mut Vec<u32>) -> bool {
        let lo = Key::Probe {
            at: p,
            right: false,
        };
        let hi = Key::Probe { at: p, right: true };
        for (k, _) in self.map.range(lo..) {
            ids.push(k.id());
            if *k > hi {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec2;

    // Three edges crossing y = 0 at x = -1, 0 (through the probe) and 2; a horizontal
    // edge is ordered by the tilted sweep line.
    #[test]
    fn locates_points_among_edges() {
        let mut s: Status<DVec2, u32> = Status::new();
        let e = |a: (f64, f64), b: (f64, f64), id| Key::edge(DVec2::from(a), DVec2::from(b), id);
        s.insert(e((-1.0, 1.0), (-1.0, -1.0), 0), 0);
        s.insert(e((0.0, 1.0), (0.0, -1.0), 1), 1);
        s.insert(e((2.0, 1.0), (2.0, -1.0), 2), 2);
        let p = DVec2::ZERO;
        assert_eq!(s.left_of(p).map(|(k, _)| k.id()), Some(0));
        assert_eq!(s.right_of(p).map(Key::id), Some(2));
        assert_eq!(s.through(p).map(Key::id).collect::<Vec<_>>(), vec![1]);
        // An edge from the origin going down-left lies left of the vertical one.
        s.insert(e((0.0, 0.0), (-0.5, -1.0), 3), 3);
        let ids: Vec<u32> = s.map.keys().map(Key::id).collect();
        assert_eq!(ids, vec![0, 3, 1, 2]);
        assert_eq!(
            sweep_order(&[DVec2::ZERO, DVec2::Y, DVec2::X]),
            vec![1, 0, 2]
        );
    }
}
