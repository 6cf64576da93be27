//! Validation of a polygon's rings (outer ring and holes): finite, no repeated
//! consecutive vertices, non-zero area, no two edges touching except neighbours at
//! their shared vertex, holes inside the outer ring and outside each other. Then the
//! windings are normalised: outer counter-clockwise, holes clockwise, so the solid is
//! on the left of every edge.
//!
//! Edge pairs are found by a sweep over `x` (sort the edges by their smallest `x`,
//! compare each with the active ones whose `x` range reaches it): Ericson 7.5.3's
//! sort and sweep, one axis. Tolerance: [`ZERO_AREA_ULPS`]; the crossing tests are exact
//! sign tests. Scale floor: the outer ring's extent `s` must keep `s² · ε` a normal
//! number (see [`check_scale`]).

use super::geometry::{orient, ring_contains, ring_twice_area, segments_touch};
use crate::math::tolerance::eps;
use crate::math::{Real, Vector2};
use crate::shape::error::ShapeError;

/// A ring whose area is within this many epsilons of its bounding box's area is flat.
pub const ZERO_AREA_ULPS: f64 = 64.0;

const SHAPE: &str = "ConcavePolygon";

/// Checks the rings (outer first) and returns them with normalised windings.
/// Vertex indices in errors count through the outer ring, then each hole in order.
pub(super) fn validate_rings<V: Vector2>(rings: &[Vec<V>]) -> Result<Vec<Vec<V>>, ShapeError> {
    let offsets = ring_offsets(rings);
    for (ring, &offset) in rings.iter().zip(&offsets) {
        check_ring(ring, offset)?;
    }
    check_scale(&rings[0])?;
    // A ring on one line folds back on itself: call it flat before calling it crossed.
    for ring in rings {
        if on_one_line(ring) {
            check_area(ring, ring.as_ptr() == rings[0].as_ptr())?;
        }
    }
    check_crossings(rings, &offsets)?;
    for (ring, &offset) in rings.iter().zip(&offsets) {
        check_area(ring, offset == 0)?;
    }
    check_hole_placement(rings, &offsets)?;
    Ok(rings
        .iter()
        .enumerate()
        .map(|(k, ring)| {
            let ccw = ring_twice_area(ring) > V::Scalar::ZERO;
            let mut out = ring.clone();
            // The outer ring runs counter-clockwise, holes clockwise.
            if ccw != (k == 0) {
                out.reverse();
            }
            out
        })
        .collect())
}

/// Global index of each ring's first vertex.
pub(super) fn ring_offsets<V>(rings: &[Vec<V>]) -> Vec<usize> {
    let mut offsets = Vec::with_capacity(rings.len());
    let mut next = 0;
    for ring in rings {
        offsets.push(next);
        next += ring.len();
    }
    offsets
}

/// Count, finiteness, repeats and area of one ring.
fn check_ring<V: Vector2>(ring: &[V], offset: usize) -> Result<(), ShapeError> {
    if ring.len() < 3 {
        return Err(ShapeError::TooFewPoints {
            shape: SHAPE,
            needed: 3,
            got: ring.len(),
        });
    }
    if let Some(i) = ring.iter().position(|v| !v.is_finite()) {
        return Err(invalid(offset + i, "is not finite"));
    }
    let n = ring.len();
    if let Some(i) = (1..n).find(|&i| ring[i] == ring[i - 1]) {
        return Err(invalid(offset + i, "repeats the vertex before it"));
    }
    if ring[n - 1] == ring[0] {
        return Err(invalid(
            offset + n - 1,
            "repeats the ring's first vertex (rings close themselves)",
        ));
    }
    Ok(())
}

/// The outer ring's extent `s` (its bounding box's longer side) must keep `s² · ε` at
/// or above the smallest normal number (`s ≥ 3.1e-16` in `f32`, `s ≥ 1.0e-146` in `f64`).
/// Below that, the rounding unit of an area product at the polygon's own scale is
/// subnormal: the orientation signs of the decomposition stay exact, but
/// [`ConvexPolygon::new`](crate::shape::ConvexPolygon::new) on the pieces, the area
/// checks and the queries compute in the scalar type and read underflow noise (an
/// `f32` ring 1e-22 across gave a reflex piece). Such a ring is refused with
/// [`ShapeError::OutOfRange`] naming its extent.
fn check_scale<V: Vector2>(outer: &[V]) -> Result<(), ShapeError> {
    let (lo, hi) = outer
        .iter()
        .fold((outer[0], outer[0]), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    let extent = (hi - lo).max_element();
    if extent * extent * V::Scalar::EPSILON >= V::Scalar::MIN_POSITIVE {
        return Ok(());
    }
    Err(ShapeError::OutOfRange {
        shape: SHAPE,
        field: "outer (extent of the ring's bounding box)",
        value: extent.to_f64(),
        range: "[√(MIN_POSITIVE / ε), ∞): at least 3.1e-16 in f32, 1.0e-146 in f64",
    })
}

/// True when every vertex lies on the line through the first vertex and the one
/// farthest from it, within [`ZERO_AREA_ULPS`] (relative to the lengths involved).
fn on_one_line<V: Vector2>(ring: &[V]) -> bool {
    let o = ring[0];
    let far = ring
        .iter()
        .copied()
        .max_by(|a, b| {
            a.distance_squared(o)
                .partial_cmp(&b.distance_squared(o))
                .unwrap_or(core::cmp::Ordering::Equal)
        })
        .unwrap_or(o);
    let (axis, tol) = (far - o, eps::<V::Scalar>(ZERO_AREA_ULPS));
    ring.iter()
        .all(|&p| orient(o, far, p).abs() <= axis.length() * (p - o).length() * tol)
}

fn check_area<V: Vector2>(ring: &[V], outer: bool) -> Result<(), ShapeError> {
    let (lo, hi) = ring
        .iter()
        .fold((ring[0], ring[0]), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    let size = hi - lo;
    let tol = eps::<V::Scalar>(ZERO_AREA_ULPS);
    let flat = size.min_element() <= size.max_element() * tol;
    if flat || ring_twice_area(ring).abs() <= size.x() * size.y() * tol {
        return Err(ShapeError::Degenerate {
            shape: SHAPE,
            reason: if outer {
                "zero area: the outer ring's points lie on one line"
            } else {
                "zero area: a hole's points lie on one line"
            },
        });
    }
    Ok(())
}

fn invalid(vertex: usize, reason: &'static str) -> ShapeError {
    ShapeError::InvalidVertex {
        shape: SHAPE,
        vertex,
        reason,
    }
}

/// One edge for the sweep: its ring, its first vertex in the ring, its `x` range.
#[derive(Copy, Clone)]
struct SweepEdge<S> {
    ring: usize,
    index: usize,
    min_x: S,
    max_x: S,
}

/// Any two edges that touch, other than neighbours meeting at their shared vertex.
fn check_crossings<V: Vector2>(rings: &[Vec<V>], offsets: &[usize]) -> Result<(), ShapeError> {
    let mut edges: Vec<SweepEdge<V::Scalar>> = Vec::new();
    for (ring, pts) in rings.iter().enumerate() {
        for index in 0..pts.len() {
            let (a, b) = edge(pts, index);
            edges.push(SweepEdge {
                ring,
                index,
                min_x: a.x().min(b.x()),
                max_x: a.x().max(b.x()),
            });
        }
    }
    edges.sort_by(|a, b| {
        a.min_x
            .partial_cmp(&b.min_x)
            .unwrap_or(core::cmp::Ordering::Equal)
    });
    let mut active: Vec<SweepEdge<V::Scalar>> = Vec::new();
    for e in edges {
        active.retain(|a| a.max_x >= e.min_x);
        for a in &active {
            if edges_conflict(rings, a, &e) {
                let (first, second) = if (a.ring, a.index) < (e.ring, e.index) {
                    (a, &e)
                } else {
                    (&e, a)
                };
                return Err(ShapeError::SelfIntersecting {
                    shape: SHAPE,
                    edge_a: offsets[first.ring] + first.index,
                    edge_b: offsets[second.ring] + second.index,
                });
            }
        }
        active.push(e);
    }
    Ok(())
}

/// Edge `i` of a ring: `ring[i] → ring[i + 1]`, wrapping.
#[inline]
fn edge<V: Copy>(ring: &[V], i: usize) -> (V, V) {
    (ring[i], ring[(i + 1) % ring.len()])
}

/// True when the two edges share a point they may not share.
fn edges_conflict<V: Vector2, S>(rings: &[Vec<V>], e: &SweepEdge<S>, f: &SweepEdge<S>) -> bool {
    let (a, b) = edge(&rings[e.ring], e.index);
    let (c, d) = edge(&rings[f.ring], f.index);
    let n = rings[e.ring].len();
    if e.ring == f.ring {
        if (e.index + 1) % n == f.index {
            return doubles_back(a, b, d);
        }
        if (f.index + 1) % n == e.index {
            return doubles_back(c, d, b);
        }
    }
    segments_touch(a, b, c, d)
}

/// Neighbour edges `p → q → r` overlap beyond `q` when they are collinear and turn back.
fn doubles_back<V: Vector2>(p: V, q: V, r: V) -> bool {
    orient(p, q, r) == V::Scalar::ZERO && (q - p).dot(r - q) < V::Scalar::ZERO
}

/// Every hole lies inside the outer ring and outside the other holes. Edges do not
/// touch (checked before), so one vertex decides for the whole hole.
fn check_hole_placement<V: Vector2>(rings: &[Vec<V>], offsets: &[usize]) -> Result<(), ShapeError> {
    for k in 1..rings.len() {
        let v = rings[k][0];
        if !ring_contains(&rings[0], v) {
            return Err(invalid(
                offsets[k],
                "belongs to a hole outside the outer ring",
            ));
        }
        if (1..rings.len()).any(|j| j != k && ring_contains(&rings[j], v)) {
            return Err(invalid(offsets[k], "belongs to a hole inside another hole"));
        }
    }
    Ok(())
}
