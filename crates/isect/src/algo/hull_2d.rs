//! 2D convex hull by Andrew's monotone chain (A. M. Andrew, "Another efficient
//! algorithm for convex hulls in two dimensions", 1979; de Berg et al.,
//! *Computational Geometry*, 1.1).
//!
//! Points are sorted by `(x, y)`; the lower and upper chains are built by popping
//! every point that does not make a strict left turn, by the exact sign of the
//! orientation determinant (Shewchuk's predicate, `shape::concave_polygon::geometry`):
//! the exact convex hull. Then nearly collinear vertices are dropped: a vertex whose
//! turn has a sine below [`HULL_2D_COLLINEAR_ULPS`] machine epsilons (cross product
//! over the product of the two edge lengths), provided every vertex dropped between
//! its neighbours stays within that relative distance of their chord, so the hull is
//! strictly convex with margin and input points lie outside it by at most that
//! relative amount. (Popping nearly collinear points in the chains themselves dropped
//! an extreme point when a nearly collinear run is not sorted along its line, as on a
//! nearly vertical line: `tests/regressions/hull_nearly_flat_offset.rs`.)
//! O(n log n); every loop is bounded by the input length.

use core::cmp::Ordering;

use crate::math::tolerance::eps;
use crate::math::{Real, Vector2};
use crate::shape::concave_polygon::geometry::orient;
use crate::shape::ShapeError;

/// Sine of the smallest turn the hull keeps, in machine epsilons: smaller turns are
/// treated as collinear and their middle point is dropped.
pub const HULL_2D_COLLINEAR_ULPS: f64 = 16.0;

/// The convex hull of `points`, counter-clockwise, starting at the point of least
/// `(x, y)`, with no repeated and no collinear vertices: ready to build a convex
/// polygon.
///
/// # Errors
/// [`ShapeError::NotFinite`] for a NaN or infinite point,
/// [`ShapeError::TooFewPoints`] when fewer than 3 affinely independent points are
/// given (`got` counts them: 0, 1 or 2, so collinear input gives 2).
pub fn convex_hull_2d<V: Vector2>(points: &[V]) -> Result<Vec<V>, ShapeError> {
    Ok(convex_hull_2d_indices(points)?
        .into_iter()
        .map(|i| points[i])
        .collect())
}

/// As [`convex_hull_2d`], as indices into `points` (of the first copy of each
/// repeated point). O(n log n).
///
/// # Errors
/// As [`convex_hull_2d`].
pub fn convex_hull_2d_indices<V: Vector2>(points: &[V]) -> Result<Vec<usize>, ShapeError> {
    for &p in points {
        crate::shape::error::check_finite("ConvexHull2d", "points", p)?;
    }
    // Finite points compare totally with partial_cmp; unlike total_cmp it puts −0 and
    // +0 together, so that `dedup` sees them as the duplicates they are. Ties go to
    // the lower index: the first copy of a repeated point stays. The points are
    // sorted with their indices (not the indices alone) so that the sort and the
    // chains read memory in order: a million points took 0.5 s, sorted indices
    // comparing scattered points.
    let cmp = |a: V::Scalar, b: V::Scalar| a.partial_cmp(&b).unwrap_or(Ordering::Equal);
    let mut sorted: Vec<(V, usize)> = points.iter().copied().zip(0..).collect();
    sorted.sort_unstable_by(|(a, i), (b, j)| {
        cmp(a.x(), b.x()).then(cmp(a.y(), b.y())).then(i.cmp(j))
    });
    sorted.dedup_by(|a, b| a.0 == b.0);
    let too_few = |got| ShapeError::TooFewPoints {
        shape: "ConvexHull2d",
        needed: 3,
        got,
    };
    if sorted.len() < 3 {
        return Err(too_few(sorted.len()));
    }
    let mut hull = half_hull(&sorted, 0..sorted.len());
    let upper = half_hull(&sorted, (0..sorted.len()).rev());
    // Each chain ends where the other starts.
    hull.pop();
    hull.extend_from_slice(&upper[..upper.len() - 1]);
    if hull.len() < 3 {
        return Err(too_few(2));
    }
    let hull = drop_nearly_collinear(&sorted, &hull);
    if hull.len() < 3 {
        return Err(too_few(2));
    }
    Ok(hull.into_iter().map(|k| sorted[k].1).collect())
}

/// One monotone chain (positions in `sorted`): keeps only strict left turns (exact
/// sign).
fn half_hull<V: Vector2>(sorted: &[(V, usize)], order: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut chain: Vec<usize> = Vec::new();
    for i in order {
        while chain.len() >= 2 {
            let (a, b) = (chain[chain.len() - 2], chain[chain.len() - 1]);
            if orient(sorted[a].0, sorted[b].0, sorted[i].0) > V::Scalar::ZERO {
                break;
            }
            chain.pop();
        }
        chain.push(i);
    }
    chain
}

/// Most vertices dropped in a row between two kept ones (each drop checks them all
/// against the new chord): bounds the work on long, nearly straight runs.
const MAX_DROPPED_RUN: usize = 64;

/// The exact hull `ring` (positions in `sorted`, counter-clockwise, strictly convex)
/// without its nearly collinear vertices, starting at its least `(x, y)` vertex. A
/// vertex is dropped when [`is_nearly_on_chord`] holds for it and for every vertex
/// already dropped between the same kept neighbours. Dropping a vertex only widens the
/// turns at its neighbours, so a vertex with the ring's largest turn (at least 2π / k)
/// is kept: the walk starts there and goes once around.
fn drop_nearly_collinear<V: Vector2>(sorted: &[(V, usize)], ring: &[usize]) -> Vec<usize> {
    let k = ring.len();
    let at = |j: usize| sorted[ring[j % k]].0;
    let turn = |j: usize| {
        let (a, b, c) = (at(j + k - 1), at(j), at(j + 1));
        let (ab, bc) = (b - a, c - b);
        ab.perp_dot(bc).to_f64() / (ab.length() * bc.length()).to_f64()
    };
    let start = (0..k)
        .max_by(|&i, &j| turn(i).partial_cmp(&turn(j)).unwrap_or(Ordering::Equal))
        .unwrap_or(0);
    // Kept positions in `ring` order from `start`, with the length of `dropped` when
    // each was pushed (the vertices dropped after it).
    let mut kept: Vec<(usize, usize)> = vec![(start, 0)];
    let mut dropped: Vec<usize> = Vec::new();
    for j in start + 1..=start + k {
        let c = at(j);
        while kept.len() >= 2 {
            let (a, from) = kept[kept.len() - 2];
            let (b, _) = kept[kept.len() - 1];
            let between = &dropped[from..];
            let straight = between.len() < MAX_DROPPED_RUN
                && is_nearly_on_chord(at(a), c, at(b))
                && between.iter().all(|&d| is_nearly_on_chord(at(a), c, at(d)));
            if !straight {
                break;
            }
            kept.pop();
            dropped.push(b);
        }
        if j < start + k {
            kept.push((j, dropped.len()));
        }
    }
    let mut out: Vec<usize> = kept.into_iter().map(|(j, _)| ring[j % k]).collect();
    // Start at the least (x, y) vertex, as the chains do.
    let first = (0..out.len()).min_by_key(|&i| out[i]).unwrap_or(0);
    out.rotate_left(first);
    out
}

/// True when `p` lies within [`HULL_2D_COLLINEAR_ULPS`] machine epsilons, relative to
/// `|p − a|`, of the line through `a` and `c`, and projects between them: the sine of
/// the angle at `a` between `c` and `p` is that small.
#[inline]
fn is_nearly_on_chord<V: Vector2>(a: V, c: V, p: V) -> bool {
    let (ac, ap) = (c - a, p - a);
    let cross = ac.perp_dot(ap).abs();
    let between = ac.dot(ap) >= V::Scalar::ZERO && ac.dot(c - p) >= V::Scalar::ZERO;
    between && cross <= eps::<V::Scalar>(HULL_2D_COLLINEAR_ULPS) * ac.length() * ap.length()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Real;
    use glam::{DVec2, Vec2};

    /// A square with its centre, edge midpoints and duplicated corners, at scale `k`.
    fn square_with_clutter<V: Vector2>(k: f64) {
        let p = |x: f64, y: f64| V::new(V::Scalar::from_f64(x * k), V::Scalar::from_f64(y * k));
        let points = [
            p(1.0, 1.0),
            p(0.0, 0.0),
            p(0.5, 0.5),
            p(1.0, 0.0),
            p(0.5, 0.0), // on an edge
            p(0.0, 1.0),
            p(1.0, 1.0), // duplicate
            p(0.0, 0.5),
        ];
        let hull = convex_hull_2d(&points).unwrap();
        assert_eq!(
            hull,
            vec![p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0)]
        );
    }

    // Square with interior, edge and duplicate points; scales 1, 1e5, 1e-4; f32 and f64.
    #[test]
    fn square_hull() {
        for k in [1.0, 1e5, 1e-4] {
            square_with_clutter::<Vec2>(k);
            square_with_clutter::<DVec2>(k);
        }
    }

    // Degenerate input: empty, one point repeated, collinear points, NaN.
    #[test]
    fn degenerate_input() {
        let err = |pts: &[Vec2]| convex_hull_2d(pts).unwrap_err();
        assert!(matches!(err(&[]), ShapeError::TooFewPoints { got: 0, .. }));
        assert!(matches!(
            err(&[Vec2::ONE; 5]),
            ShapeError::TooFewPoints { got: 1, .. }
        ));
        let line: Vec<Vec2> = (0..10).map(|i| Vec2::splat(i as f32 * 0.1)).collect();
        assert!(matches!(
            err(&line),
            ShapeError::TooFewPoints { got: 2, .. }
        ));
        assert!(matches!(
            err(&[Vec2::ZERO, Vec2::X, Vec2::new(f32::NAN, 1.0)]),
            ShapeError::NotFinite { .. }
        ));
    }

    // Signed zeros are one point: (−0, 0) and (0, 0) must not break the sort order.
    #[test]
    fn signed_zero_duplicates() {
        let pts = [
            Vec2::ZERO,
            Vec2::new(-0.0, 0.0),
            Vec2::new(0.5, 0.0),
            Vec2::new(0.0, 0.5),
            Vec2::new(0.0, -1.0),
        ];
        let hull = convex_hull_2d(&pts).unwrap();
        assert_eq!(hull, vec![pts[4], pts[2], pts[3]]);
    }

    // A thin triangle far from the origin keeps its three vertices in CCW order.
    #[test]
    fn thin_far_triangle() {
        let o = DVec2::new(1e5, -1e5);
        let pts = [o, o + DVec2::new(1.0, 1e-6), o + DVec2::new(2.0, 0.0)];
        let hull = convex_hull_2d(&pts).unwrap();
        assert_eq!(hull, vec![pts[0], pts[2], pts[1]]);
    }
}
