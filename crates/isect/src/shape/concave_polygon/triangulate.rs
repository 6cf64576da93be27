//! Triangulation of a polygon with holes in O(n log n): a plane sweep splits it into
//! y-monotone pieces with diagonals from every split and merge vertex, then each piece
//! is triangulated in linear time with a stack (de Berg, Cheong, van Kreveld and
//! Overmars, *Computational Geometry*, 3rd ed., 3.2 "Partitioning a polygon into
//! monotone pieces" and 3.3 "Triangulating a monotone polygon"; after Lee and
//! Preparata 1977 and Garey, Johnson, Preparata and Tarjan 1978).
//!
//! The input is a set of closed curves given by each vertex's successor, the solid on
//! the left of every edge (outer rings counter-clockwise, holes clockwise). Holes need
//! no bridges: the sweep sees all curves at once. Points where rings touch appear as
//! several vertices at one place whose solid sectors do not overlap (`contacts.rs`);
//! coincident vertices are handled as one event in three phases (edges ending there
//! leave the status, the region left of the point is updated, edges starting there
//! enter), so no diagonal ever joins two copies of one point. The sweep order breaks
//! ties by `x` (a tilted sweep line) and then by index. When no rings touch, the
//! validation sweep (`crossings.rs`) has already met every vertex in this order and
//! found the edge left of it, which is all the partition asks of its status: the
//! helpers are then kept per edge, with no second search tree. Exact orientation
//! signs, no tolerances; collinear vertices are never cut off as flat triangles by the
//! stack.

use core::cmp::Ordering;

use super::crossings::NO_EDGE;
use super::geometry::orient;
use super::sweep::{after, sweep_cmp, sweep_order, Key, Status};
use crate::math::{Real, Vector2};

/// What the validation sweep already found (`crossings.rs`), numbered as the
/// triangulation's input: the vertices in sweep order, and per vertex the nearest edge
/// strictly left of it at its event (`NO_EDGE` when none). Only for curves with no
/// contacts (distinct points, one vertex per event).
pub(super) struct Swept {
    pub order: Vec<u32>,
    pub left: Vec<u32>,
}

/// Triangles (counter-clockwise, vertex indices into `points`) of the solid left of
/// the curves `next` (the successor of each vertex). `None` when the sweep finds the
/// curves inconsistent (never for validated input). `swept`: the validation sweep's
/// findings when they carry over (the partition then needs no sweep status of its own).
pub(super) fn triangulate<V: Vector2>(
    points: &[V],
    next: &[u32],
    swept: Option<Swept>,
) -> Option<Vec<[u32; 3]>> {
    let mut prev = vec![0u32; next.len()];
    for (v, &w) in next.iter().enumerate() {
        prev[w as usize] = v as u32;
    }
    let kinds: Vec<Kind> = (0..next.len())
        .map(|v| kind(points, prev[v], v as u32, next[v]))
        .collect();
    let diagonals = match swept {
        Some(Swept { order, left }) => {
            let status = KnownLeft {
                left: &left,
                helper: vec![NO_EDGE; next.len()],
            };
            monotone_diagonals(points, &prev, &kinds, &order, status)
        }
        None => {
            let status = SearchedLeft {
                points,
                next,
                status: Status::new(),
            };
            monotone_diagonals(points, &prev, &kinds, &sweep_order(points), status)
        }
    }?;
    let mut triangles = Vec::with_capacity(next.len());
    for face in faces(points, next, &prev, &diagonals)? {
        triangulate_monotone(points, &face, &mut triangles);
    }
    Some(triangles)
}

/// A vertex's kind for the sweep (de Berg 3.2), by where its neighbours lie and
/// whether its solid sector is convex.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// Both neighbours later, convex.
    Start,
    /// Both neighbours later, reflex.
    Split,
    /// Both neighbours earlier, convex.
    End,
    /// Both neighbours earlier, reflex.
    Merge,
    /// On a chain going down with the solid to its right.
    LeftChain,
    /// On a chain going up with the solid to its left.
    RightChain,
}

fn kind<V: Vector2>(points: &[V], u: u32, v: u32, w: u32) -> Kind {
    let p = |i: u32| points[i as usize];
    let (a, b, c) = (p(u), p(v), p(w));
    let convex = orient(a, b, c) > V::Scalar::ZERO;
    match (after(a, b), after(c, b)) {
        (true, true) if convex => Kind::Start,
        (true, true) => Kind::Split,
        (false, false) if convex => Kind::End,
        (false, false) => Kind::Merge,
        (false, true) => Kind::LeftChain,
        (true, false) => Kind::RightChain,
    }
}

/// The monotone partition's sweep status: the edges going down (the solid on their
/// right) that cross the sweep line, each with its helper vertex; an edge is named by
/// its first vertex.
trait HelperStatus<V> {
    /// Edge `e` enters with helper `h`.
    fn insert(&mut self, e: u32, h: u32);
    /// Edge `e` leaves: its helper; `None` when it was not in the status.
    fn remove(&mut self, e: u32) -> Option<u32>;
    /// The helper of the nearest edge left of vertex `v` (at point `p`), edges through
    /// `p` excluded.
    fn left_helper(&mut self, v: u32, p: V) -> Option<&mut u32>;
}

/// The status searched: an ordered map of the edges (any curves).
struct SearchedLeft<'a, V> {
    points: &'a [V],
    next: &'a [u32],
    status: Status<V, u32>,
}

impl<V: Vector2> SearchedLeft<'_, V> {
    fn key(&self, e: u32) -> Key<V> {
        let p = |i: u32| self.points[i as usize];
        Key::edge(p(e), p(self.next[e as usize]), e)
    }
}

impl<V: Vector2> HelperStatus<V> for SearchedLeft<'_, V> {
    fn insert(&mut self, e: u32, h: u32) {
        self.status.insert(self.key(e), h);
    }

    fn remove(&mut self, e: u32) -> Option<u32> {
        self.status.remove(&self.key(e))
    }

    fn left_helper(&mut self, _: u32, p: V) -> Option<&mut u32> {
        self.status.left_of(p).map(|(_, h)| h)
    }
}

/// The status known from the validation sweep ([`Swept`]): each vertex's left edge
/// given, the helpers kept per edge (`NO_EDGE`: not in the status).
struct KnownLeft<'a> {
    left: &'a [u32],
    helper: Vec<u32>,
}

impl<V> HelperStatus<V> for KnownLeft<'_> {
    fn insert(&mut self, e: u32, h: u32) {
        self.helper[e as usize] = h;
    }

    fn remove(&mut self, e: u32) -> Option<u32> {
        let h = core::mem::replace(&mut self.helper[e as usize], NO_EDGE);
        (h != NO_EDGE).then_some(h)
    }

    fn left_helper(&mut self, v: u32, _: V) -> Option<&mut u32> {
        // The region left of a vertex that asks is solid, so its nearest edge goes
        // down: one of this status's edges, unless the curves are inconsistent.
        let e = *self.left.get(v as usize)?;
        let h = self.helper.get_mut(e as usize)?;
        (*h != NO_EDGE).then_some(h)
    }
}

/// The diagonals that split the solid into y-monotone pieces, coincident vertices
/// handled as one event; `status` holds the edges going down with their helpers.
fn monotone_diagonals<V: Vector2, S: HelperStatus<V>>(
    points: &[V],
    prev: &[u32],
    kinds: &[Kind],
    order: &[u32],
    mut status: S,
) -> Option<Vec<(u32, u32)>> {
    let mut diagonals = Vec::new();
    let mut k = 0;
    while k < order.len() {
        let p = points[order[k] as usize];
        let mut end = k + 1;
        while end < order.len() && points[order[end] as usize] == p {
            end += 1;
        }
        let group = &order[k..end];
        for &v in group {
            if matches!(kinds[v as usize], Kind::End | Kind::Merge | Kind::LeftChain) {
                let h = status.remove(prev[v as usize])?;
                if kinds[h as usize] == Kind::Merge {
                    diagonals.push((v, h));
                }
            }
        }
        for &v in group {
            let kv = kinds[v as usize];
            if matches!(kv, Kind::Split | Kind::Merge | Kind::RightChain) {
                let helper = status.left_helper(v, p)?;
                if kv == Kind::Split || kinds[*helper as usize] == Kind::Merge {
                    diagonals.push((v, *helper));
                }
                *helper = v;
            }
        }
        for &v in group {
            if matches!(
                kinds[v as usize],
                Kind::Start | Kind::Split | Kind::LeftChain
            ) {
                status.insert(v, v);
            }
        }
        k = end;
    }
    Some(diagonals)
}

/// The faces cut out by the curves and the diagonals, each as its vertices in
/// counter-clockwise order (a doubly connected edge list walked face by face: at each
/// vertex the walk leaves by the edge next clockwise from the one it came in by).
fn faces<V: Vector2>(
    points: &[V],
    next: &[u32],
    prev: &[u32],
    diagonals: &[(u32, u32)],
) -> Option<Vec<Vec<u32>>> {
    let n = next.len();
    // Per vertex: its diagonals, counter-clockwise from its outgoing curve edge, each
    // with a flag "walked"; and a flag for the curve edge.
    let mut diag: Vec<Vec<(u32, bool)>> = vec![Vec::new(); n];
    for &(a, b) in diagonals {
        diag[a as usize].push((b, false));
        diag[b as usize].push((a, false));
    }
    for (v, list) in diag.iter_mut().enumerate() {
        let (p, r) = (points[v], points[next[v] as usize]);
        let half = |q: u32| orient(p, r, points[q as usize]) <= V::Scalar::ZERO;
        list.sort_by(|a, b| {
            half(a.0).cmp(&half(b.0)).then_with(|| {
                let o = orient(p, points[a.0 as usize], points[b.0 as usize]);
                o.partial_cmp(&V::Scalar::ZERO)
                    .unwrap_or(Ordering::Equal)
                    .reverse()
            })
        });
    }
    let mut walked = vec![false; n];
    let mut out = Vec::new();
    let cap = n + 2 * diagonals.len();
    for v in 0..n as u32 {
        if !walked[v as usize] {
            out.push(walk(
                v,
                next[v as usize],
                next,
                prev,
                &mut diag,
                &mut walked,
                cap,
            )?);
        }
        for j in 0..diag[v as usize].len() {
            let (w, done) = diag[v as usize][j];
            if !done {
                out.push(walk(v, w, next, prev, &mut diag, &mut walked, cap)?);
            }
        }
    }
    Some(out)
}

/// The face left of the edge `a → b`, marking its edges walked. `None` past `cap` steps.
fn walk(
    a: u32,
    b: u32,
    next: &[u32],
    prev: &[u32],
    diag: &mut [Vec<(u32, bool)>],
    walked: &mut [bool],
    cap: usize,
) -> Option<Vec<u32>> {
    let mut face = Vec::new();
    let (mut u, mut v) = (a, b);
    for _ in 0..=cap {
        if next[u as usize] == v {
            walked[u as usize] = true;
        } else {
            diag[u as usize].iter_mut().find(|d| d.0 == v)?.1 = true;
        }
        face.push(u);
        // Leave `v` by the edge next clockwise from `v → u`.
        let list = &diag[v as usize];
        let w = if prev[v as usize] == u {
            list.last().map_or(next[v as usize], |d| d.0)
        } else {
            let j = list.iter().position(|d| d.0 == u)?;
            if j == 0 {
                next[v as usize]
            } else {
                list[j - 1].0
            }
        };
        (u, v) = (v, w);
        if (u, v) == (a, b) {
            return Some(face);
        }
    }
    None
}

/// Triangles of the y-monotone face `face` (counter-clockwise), appended to `out`
/// (de Berg 3.3: vertices in sweep order, a stack of the reflex chain not yet cut).
fn triangulate_monotone<V: Vector2>(points: &[V], face: &[u32], out: &mut Vec<[u32; 3]>) {
    let m = face.len();
    if m < 3 {
        return;
    }
    let p = |i: usize| points[face[i] as usize];
    let cmp = |a: &usize, b: &usize| sweep_cmp(p(*a), p(*b)).then(face[*a].cmp(&face[*b]));
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(cmp);
    let (top, bottom) = (order[0], order[m - 1]);
    // The left chain runs forward (counter-clockwise) from the top to the bottom.
    let mut left = vec![false; m];
    let mut i = (top + 1) % m;
    while i != bottom {
        left[i] = true;
        i = (i + 1) % m;
    }
    // A fan triangle of `u` and stack neighbours `a` (later) and `b`, counter-clockwise.
    let fan = |out: &mut Vec<[u32; 3]>, u: usize, a: usize, b: usize| {
        out.push(if left[a] {
            [face[u], face[b], face[a]]
        } else {
            [face[u], face[a], face[b]]
        });
    };
    let mut stack = vec![order[0], order[1]];
    for j in 2..m - 1 {
        let u = order[j];
        let last = *stack.last().unwrap_or(&u);
        if left[u] != left[last] {
            while stack.len() >= 2 {
                let a = stack.pop().unwrap_or(u);
                fan(out, u, a, *stack.last().unwrap_or(&u));
            }
            stack.clear();
            stack.push(order[j - 1]);
        } else {
            let mut last = stack.pop().unwrap_or(u);
            while let Some(&s) = stack.last() {
                let (a, b, c) = if left[u] { (s, last, u) } else { (u, last, s) };
                if orient(p(a), p(b), p(c)) <= V::Scalar::ZERO {
                    break;
                }
                out.push([face[a], face[b], face[c]]);
                last = s;
                stack.pop();
            }
            stack.push(last);
        }
        stack.push(u);
    }
    let u = order[m - 1];
    while stack.len() >= 2 {
        let a = stack.pop().unwrap_or(u);
        fan(out, u, a, *stack.last().unwrap_or(&u));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::concave_polygon::geometry::ring_twice_area;
    use glam::DVec2;

    /// Successors of rings given as index lists.
    fn successors(rings: &[Vec<u32>]) -> Vec<u32> {
        let mut next = vec![0; rings.iter().map(Vec::len).sum()];
        for r in rings {
            for k in 0..r.len() {
                next[r[k] as usize] = r[(k + 1) % r.len()];
            }
        }
        next
    }

    fn area_of(points: &[DVec2], triangles: &[[u32; 3]]) -> f64 {
        triangles
            .iter()
            .map(|t| ring_twice_area(&t.map(|i| points[i as usize])) / 2.0)
            .sum()
    }

    // A 4×4 square with a clockwise 2×2 hole: n + 2h − 2 = 8 triangles, all
    // counter-clockwise, covering area 12.
    #[test]
    fn square_with_hole() {
        let points: Vec<DVec2> = [
            (0., 0.),
            (4., 0.),
            (4., 4.),
            (0., 4.),
            (1., 1.),
            (1., 3.),
            (3., 3.),
            (3., 1.),
        ]
        .map(|(x, y)| DVec2::new(x, y))
        .to_vec();
        let tris = triangulate(
            &points,
            &successors(&[vec![0, 1, 2, 3], vec![4, 5, 6, 7]]),
            None,
        )
        .unwrap();
        assert_eq!(tris.len(), 8);
        assert!(tris
            .iter()
            .all(|t| ring_twice_area(&t.map(|i| points[i as usize])) > 0.0));
        assert!((area_of(&points, &tris) - 12.0).abs() < 1e-12);
    }

    // A square whose edges carry collinear vertices: n − 2 triangles, total area exact.
    #[test]
    fn collinear_vertices() {
        let points: Vec<DVec2> = [
            (0., 0.),
            (1., 0.),
            (2., 0.),
            (2., 1.),
            (2., 2.),
            (1., 2.),
            (0., 2.),
            (0., 1.),
        ]
        .map(|(x, y)| DVec2::new(x, y))
        .to_vec();
        let tris = triangulate(&points, &successors(&[(0..8).collect()]), None).unwrap();
        assert_eq!(tris.len(), 6);
        assert!((area_of(&points, &tris) - 4.0).abs() < 1e-12);
    }
}
