//! Ear-clipping triangulation of a polygon with holes (Eberly, "Triangulation by ear
//! clipping", Geometric Tools 2002; Ericson 12.5.1). Holes are first bridged into the
//! outer ring, rightmost hole first: each hole's rightmost vertex `m` is joined to the
//! nearest ring vertex `v` whose segment `m v` leaves both vertices into the solid and
//! touches no edge — a visibility test, O(n) per candidate, in place of Eberly's
//! ray-cast shortcut, so collinear and touching configurations need no special case.
//! The bridged ring visits `m` and `v` twice; vertices are compared by index, so
//! the two copies never block each other's ears.
//!
//! Ears are strictly convex vertices whose triangle holds no other ring vertex (on
//! its boundary included). Collinear vertices are never ears; when a full turn of the
//! ring finds no ear (only collinear or rounding-blocked vertices are left), the
//! first flat vertex is cut off as a zero-area triangle, else the first convex one,
//! so the loop ends after at most `n` cuts. No tolerances: sign tests only.

use super::geometry::{in_triangle, orient, segments_touch};
use crate::math::{Real, Vector2};

/// Triangles (counter-clockwise, vertex indices into `points`) of the polygon whose
/// rings (outer counter-clockwise first, then clockwise holes) are `rings`, given as
/// index lists. `None` when a hole cannot be bridged (never for validated input).
pub(super) fn triangulate<V: Vector2>(points: &[V], rings: &[Vec<u32>]) -> Option<Vec<[u32; 3]>> {
    let ring = bridge_holes(points, rings)?;
    Some(clip_ears(points, ring))
}

/// The outer ring with every hole spliced in through a bridge.
fn bridge_holes<V: Vector2>(points: &[V], rings: &[Vec<u32>]) -> Option<Vec<u32>> {
    let mut ring = rings.first()?.clone();
    let mut holes: Vec<(u32, &Vec<u32>)> = rings[1..]
        .iter()
        .map(|h| (rightmost(points, h), h))
        .collect();
    holes.sort_by(|a, b| {
        let (xa, xb) = (points[a.0 as usize].x(), points[b.0 as usize].x());
        xb.partial_cmp(&xa).unwrap_or(core::cmp::Ordering::Equal)
    });
    for k in 0..holes.len() {
        let (m, hole) = holes[k];
        let others: Vec<&Vec<u32>> = holes[k..].iter().map(|h| h.1).collect();
        let pos = bridge_target(points, &ring, hole, m, &others)?;
        let start = hole.iter().position(|&i| i == m)?;
        let mut spliced = Vec::with_capacity(ring.len() + hole.len() + 2);
        spliced.extend_from_slice(&ring[..=pos]);
        spliced.extend(hole[start..].iter().chain(&hole[..=start]));
        spliced.extend_from_slice(&ring[pos..]);
        ring = spliced;
    }
    Some(ring)
}

/// The hole vertex with the largest `x` (then the largest `y`).
fn rightmost<V: Vector2>(points: &[V], hole: &[u32]) -> u32 {
    let key = |i: &u32| {
        let p = points[*i as usize];
        (p.x(), p.y())
    };
    *hole
        .iter()
        .max_by(|a, b| {
            key(a)
                .partial_cmp(&key(b))
                .unwrap_or(core::cmp::Ordering::Equal)
        })
        .unwrap_or(&hole[0])
}

/// Position in `ring` of the nearest vertex that `m` sees through the solid.
fn bridge_target<V: Vector2>(
    points: &[V],
    ring: &[u32],
    hole: &[u32],
    m: u32,
    holes: &[&Vec<u32>],
) -> Option<usize> {
    let pm = points[m as usize];
    let mut order: Vec<usize> = (0..ring.len()).collect();
    let dist = |pos: &usize| points[ring[*pos] as usize].distance_squared(pm);
    order.sort_by(|a, b| {
        dist(a)
            .partial_cmp(&dist(b))
            .unwrap_or(core::cmp::Ordering::Equal)
    });
    let hole_pos = hole.iter().position(|&i| i == m)?;
    order.into_iter().find(|&pos| {
        let v = ring[pos];
        opens_into(points, ring, pos, pm)
            && opens_into(points, hole, hole_pos, points[v as usize])
            && clear_of_edges(points, ring, m, v)
            && holes.iter().all(|h| clear_of_edges(points, h, m, v))
    })
}

/// True when the direction from `ring[pos]` toward `target` leaves the vertex strictly
/// inside its solid angle (the solid lies left of the ring's edges).
fn opens_into<V: Vector2>(points: &[V], ring: &[u32], pos: usize, target: V) -> bool {
    let n = ring.len();
    let p = |k: usize| points[ring[k] as usize];
    let (prev, v, next) = (p((pos + n - 1) % n), p(pos), p((pos + 1) % n));
    let zero = V::Scalar::ZERO;
    let left_of_in = orient(prev, v, target) > zero;
    let left_of_out = orient(v, next, target) > zero;
    if orient(prev, v, next) > zero {
        left_of_in && left_of_out
    } else {
        left_of_in || left_of_out
    }
}

/// True when the segment `m v` meets no edge of `ring` except at `m` or `v` themselves.
fn clear_of_edges<V: Vector2>(points: &[V], ring: &[u32], m: u32, v: u32) -> bool {
    let (pm, pv) = (points[m as usize], points[v as usize]);
    let n = ring.len();
    (0..n).all(|k| {
        let (i, j) = (ring[k], ring[(k + 1) % n]);
        let (a, b) = (points[i as usize], points[j as usize]);
        let shares = [i, j].iter().any(|&e| e == m || e == v);
        if !shares {
            return !segments_touch(pm, pv, a, b);
        }
        // An edge from m or v may still run along the bridge.
        let far = if i == m || i == v { b } else { a };
        let end = if [i, j].contains(&m) { pm } else { pv };
        let other = if end == pm { pv } else { pm };
        orient(pm, pv, far) != V::Scalar::ZERO || (far - end).dot(other - end) <= V::Scalar::ZERO
    })
}

/// Ear clipping of a (weakly) simple counter-clockwise ring of vertex indices.
fn clip_ears<V: Vector2>(points: &[V], ring: Vec<u32>) -> Vec<[u32; 3]> {
    let n = ring.len();
    let mut next: Vec<usize> = (0..n).map(|k| (k + 1) % n).collect();
    let mut prev: Vec<usize> = (0..n).map(|k| (k + n - 1) % n).collect();
    let mut triangles = Vec::with_capacity(n.saturating_sub(2));
    let (mut remaining, mut cur, mut misses) = (n, 0usize, 0usize);
    while remaining > 3 {
        let cut = if is_ear(points, &ring, &next, &prev, cur) {
            Some(cur)
        } else if misses > remaining {
            Some(forced_cut(points, &ring, &next, &prev, cur))
        } else {
            None
        };
        match cut {
            Some(k) => {
                triangles.push([ring[prev[k]], ring[k], ring[next[k]]]);
                next[prev[k]] = next[k];
                prev[next[k]] = prev[k];
                cur = prev[k];
                remaining -= 1;
                misses = 0;
            }
            None => {
                cur = next[cur];
                misses += 1;
            }
        }
    }
    if remaining == 3 {
        triangles.push([ring[prev[cur]], ring[cur], ring[next[cur]]]);
    }
    triangles
}

/// True when the vertex at position `k` is strictly convex and its triangle holds no
/// other vertex of the ring (by index: copies of its own vertices do not count).
fn is_ear<V: Vector2>(
    points: &[V],
    ring: &[u32],
    next: &[usize],
    prev: &[usize],
    k: usize,
) -> bool {
    let (ia, ib, ic) = (ring[prev[k]], ring[k], ring[next[k]]);
    let (a, b, c) = (
        points[ia as usize],
        points[ib as usize],
        points[ic as usize],
    );
    if orient(a, b, c) <= V::Scalar::ZERO {
        return false;
    }
    let (lo, hi) = (a.min(b).min(c), a.max(b).max(c));
    let mut q = next[next[k]];
    while q != prev[k] {
        let iq = ring[q];
        let p = points[iq as usize];
        let near = lo.all_le(p) && p.all_le(hi);
        if near && iq != ia && iq != ib && iq != ic && in_triangle(a, b, c, p) {
            return false;
        }
        q = next[q];
    }
    true
}

/// The cut made when a full turn found no ear: the first flat vertex (a zero-area
/// triangle), else the first strictly convex one, else `start`.
fn forced_cut<V: Vector2>(
    points: &[V],
    ring: &[u32],
    next: &[usize],
    prev: &[usize],
    start: usize,
) -> usize {
    let turn = |k: usize| {
        let p = |q: usize| points[ring[q] as usize];
        orient(p(prev[k]), p(k), p(next[k]))
    };
    let walk = || {
        let mut k = start;
        core::iter::from_fn(move || {
            let out = k;
            k = next[k];
            Some(out)
        })
    };
    let count = {
        let mut c = 1;
        let mut k = next[start];
        while k != start {
            c += 1;
            k = next[k];
        }
        c
    };
    walk()
        .take(count)
        .find(|&k| turn(k) == V::Scalar::ZERO)
        .or_else(|| walk().take(count).find(|&k| turn(k) > V::Scalar::ZERO))
        .unwrap_or(start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::concave_polygon::geometry::ring_twice_area;
    use glam::DVec2;

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
        let tris = triangulate(&points, &[vec![0, 1, 2, 3], vec![4, 5, 6, 7]]).unwrap();
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
        let tris = triangulate(&points, &[(0..8).collect()]).unwrap();
        assert_eq!(tris.len(), 6);
        assert!((area_of(&points, &tris) - 4.0).abs() < 1e-12);
    }
}
