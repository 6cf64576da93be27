//! Hertel–Mehlhorn convex decomposition (S. Hertel and K. Mehlhorn, "Fast
//! triangulation of simple polygons", 1983; O'Rourke, *Computational Geometry in C*,
//! 2.5): start from a triangulation and remove each diagonal whose two end points stay
//! convex in the merged piece. The result has at most four times the minimum number of
//! convex pieces. No tolerances: a vertex stays convex when its turn is a left turn or
//! straight on (sign test).

use std::collections::HashMap;

use super::geometry::orient;
use crate::math::{Real, Vector2};

/// Convex pieces (counter-clockwise vertex index lists) from counter-clockwise triangles.
pub(super) fn merge_triangles<V: Vector2>(points: &[V], triangles: &[[u32; 3]]) -> Vec<Vec<u32>> {
    let mut pieces: Vec<Vec<u32>> = triangles.iter().map(|t| t.to_vec()).collect();
    let mut owner: HashMap<(u32, u32), usize> = HashMap::with_capacity(triangles.len() * 3);
    for (p, t) in triangles.iter().enumerate() {
        for k in 0..3 {
            owner.insert((t[k], t[(k + 1) % 3]), p);
        }
    }
    let mut diagonals: Vec<(u32, u32)> = owner
        .keys()
        .filter(|&&(u, v)| u < v && owner.contains_key(&(v, u)))
        .copied()
        .collect();
    // HashMap order is random: sort so that the decomposition is reproducible.
    diagonals.sort_unstable();
    for (u, v) in diagonals {
        let (Some(&a), Some(&b)) = (owner.get(&(u, v)), owner.get(&(v, u))) else {
            continue;
        };
        if a == b {
            continue;
        }
        if let Some(merged) = try_merge(points, &pieces[a], &pieces[b], u, v) {
            for k in 0..pieces[b].len() {
                let piece = &pieces[b];
                owner.insert((piece[k], piece[(k + 1) % piece.len()]), a);
            }
            owner.remove(&(u, v));
            owner.remove(&(v, u));
            pieces[a] = merged;
            pieces[b].clear();
        }
    }
    pieces.retain(|p| !p.is_empty());
    pieces
}

/// `a` (holding the edge `u → v`) and `b` (holding `v → u`) joined across that edge,
/// when `u` and `v` stay convex; `None` otherwise.
fn try_merge<V: Vector2>(points: &[V], a: &[u32], b: &[u32], u: u32, v: u32) -> Option<Vec<u32>> {
    // a from v round to u, b from u round to v: the merged ring without the diagonal.
    let a_path = rotate_from(a, v, u)?;
    let b_path = rotate_from(b, u, v)?;
    let p = |i: u32| points[i as usize];
    let convex = |prev: u32, at: u32, next: u32| {
        let turn = orient(p(prev), p(at), p(next));
        turn > V::Scalar::ZERO
            || (turn == V::Scalar::ZERO && (p(at) - p(prev)).dot(p(next) - p(at)) > V::Scalar::ZERO)
    };
    let (na, nb) = (a_path.len(), b_path.len());
    if !convex(a_path[na - 2], u, b_path[1]) || !convex(b_path[nb - 2], v, a_path[1]) {
        return None;
    }
    let mut merged = a_path;
    merged.extend_from_slice(&b_path[1..nb - 1]);
    Some(merged)
}

/// `piece` read from `start` round to `end`, when `end → start` is one of its edges.
fn rotate_from(piece: &[u32], start: u32, end: u32) -> Option<Vec<u32>> {
    let n = piece.len();
    let s = piece.iter().position(|&i| i == start)?;
    if piece[(s + n - 1) % n] != end {
        return None;
    }
    Some((0..n).map(|k| piece[(s + k) % n]).collect())
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
