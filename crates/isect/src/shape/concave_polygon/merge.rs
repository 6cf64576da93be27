//! Hertel–Mehlhorn convex decomposition (S. Hertel and K. Mehlhorn, "Fast
//! triangulation of simple polygons", 1983; O'Rourke, *Computational Geometry in C*,
//! 2.5): start from a triangulation and remove each diagonal whose two end points stay
//! convex in the merged piece. The result has at most four times the minimum number of
//! convex pieces. No tolerances: a vertex stays convex when its turn is a left turn or
//! straight on (sign test).

use super::geometry::orient;
use crate::math::{Real, Vector2};

/// Convex pieces (counter-clockwise vertex index lists) from counter-clockwise triangles.
pub(super) fn merge_triangles<V: Vector2>(points: &[V], triangles: &[[u32; 3]]) -> Vec<Vec<u32>> {
    let mut pieces: Vec<Vec<u32>> = triangles.iter().map(|t| t.to_vec()).collect();
    let mut owners = EdgeOwners::new(points.len(), triangles);
    // In order of the first vertex, then of the triangles: reproducible.
    let diagonals: Vec<(u32, u32)> = owners
        .edges()
        .filter(|&(u, v)| u < v && owners.get(v, u).is_some())
        .collect();
    for (u, v) in diagonals {
        let (Some(a), Some(b)) = (owners.get(u, v), owners.get(v, u)) else {
            continue;
        };
        if a == b {
            continue;
        }
        if let Some(merged) = try_merge(points, &pieces[a], &pieces[b], u, v) {
            let piece = &pieces[b];
            for k in 0..piece.len() {
                owners.set(piece[k], piece[(k + 1) % piece.len()], a as u32);
            }
            owners.set(u, v, NONE);
            owners.set(v, u, NONE);
            pieces[a] = merged;
            pieces[b].clear();
        }
    }
    pieces.retain(|p| !p.is_empty());
    pieces
}

const NONE: u32 = u32::MAX;

/// The piece holding each directed edge `u → v` of the triangles: per vertex `u`, its
/// outgoing edges in a compressed row (a handful each), so a look-up scans a few.
struct EdgeOwners {
    start: Vec<u32>,
    to: Vec<u32>,
    owner: Vec<u32>,
}

impl EdgeOwners {
    fn new(vertices: usize, triangles: &[[u32; 3]]) -> Self {
        let mut start = vec![0u32; vertices + 1];
        for t in triangles {
            for &u in t {
                start[u as usize + 1] += 1;
            }
        }
        for i in 0..vertices {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut to = vec![0; 3 * triangles.len()];
        let mut owner = vec![NONE; 3 * triangles.len()];
        for (p, t) in triangles.iter().enumerate() {
            for k in 0..3 {
                let slot = &mut fill[t[k] as usize];
                to[*slot as usize] = t[(k + 1) % 3];
                owner[*slot as usize] = p as u32;
                *slot += 1;
            }
        }
        Self { start, to, owner }
    }

    fn slot(&self, u: u32, v: u32) -> Option<usize> {
        let range = self.start[u as usize] as usize..self.start[u as usize + 1] as usize;
        range.into_iter().find(|&k| self.to[k] == v)
    }

    fn get(&self, u: u32, v: u32) -> Option<usize> {
        let o = self.owner[self.slot(u, v)?];
        (o != NONE).then_some(o as usize)
    }

    fn set(&mut self, u: u32, v: u32, piece: u32) {
        if let Some(k) = self.slot(u, v) {
            self.owner[k] = piece;
        }
    }

    /// Every directed edge, by first vertex.
    fn edges(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..self.start.len() - 1).flat_map(move |u| {
            let range = self.start[u] as usize..self.start[u + 1] as usize;
            range.map(move |k| (u as u32, self.to[k]))
        })
    }
}

/// `a` (holding the edge `u → v`) and `b` (holding `v → u`) joined across that edge,
/// when `u` and `v` stay convex; `None` otherwise. Indices only until the merge is
/// known to succeed: most diagonals stay, and they allocate nothing.
fn try_merge<V: Vector2>(points: &[V], a: &[u32], b: &[u32], u: u32, v: u32) -> Option<Vec<u32>> {
    // `a` read from `v` round to `u`, then `b` from after `u` round to before `v`: the
    // merged ring without the diagonal.
    let (na, nb) = (a.len(), b.len());
    let sa = edge_end(a, u, v)?;
    let sb = edge_end(b, v, u)?;
    let at = |piece: &[u32], k: usize| piece[k % piece.len()];
    let p = |i: u32| points[i as usize];
    let convex = |prev: u32, at: u32, next: u32| {
        let turn = orient(p(prev), p(at), p(next));
        turn > V::Scalar::ZERO
            || (turn == V::Scalar::ZERO && (p(at) - p(prev)).dot(p(next) - p(at)) > V::Scalar::ZERO)
    };
    // Around `u`: its predecessor in `a`, its successor in `b`; around `v` likewise.
    if !convex(at(a, sa + na - 2), u, at(b, sb + 1))
        || !convex(at(b, sb + nb - 2), v, at(a, sa + 1))
    {
        return None;
    }
    let mut merged = Vec::with_capacity(na + nb - 2);
    merged.extend((0..na).map(|k| at(a, sa + k)));
    merged.extend((1..nb - 1).map(|k| at(b, sb + k)));
    Some(merged)
}

/// The position of `end` in `piece` when `start → end` is one of its edges.
fn edge_end(piece: &[u32], start: u32, end: u32) -> Option<usize> {
    let n = piece.len();
    let s = piece.iter().position(|&i| i == end)?;
    (piece[(s + n - 1) % n] == start).then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec2;

    // Two triangles of a square merge into one piece; an L's four triangles into two.
    #[test]
    fn merges_while_convex() {
        let square = [DVec2::ZERO, DVec2::X, DVec2::ONE, DVec2::Y];
        let pieces = merge_triangles(&square, &[[0, 1, 2], [0, 2, 3]]);
        assert_eq!(pieces.len(), 1);
        assert_eq!(pieces[0].len(), 4);
        // The L (0,0) (2,0) (2,1) (1,1) (1,2) (0,2): reflex at vertex 3.
        let l: Vec<DVec2> = [(0., 0.), (2., 0.), (2., 1.), (1., 1.), (1., 2.), (0., 2.)]
            .map(|(x, y)| DVec2::new(x, y))
            .to_vec();
        let pieces = merge_triangles(&l, &[[0, 1, 2], [0, 2, 3], [0, 3, 4], [0, 4, 5]]);
        assert_eq!(pieces.len(), 2);
        assert!(pieces.iter().all(|p| p.contains(&3)));
    }
}
