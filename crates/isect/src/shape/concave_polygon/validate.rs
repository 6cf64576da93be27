//! Validation of a polygon's rings (outer ring and holes): enough finite vertices
//! (repeats dropped: a ring may close itself, GeoJSON and WKT style), non-zero area,
//! no edges crossing or sharing a stretch, no ring touching itself, holes inside the
//! outer ring and outside each other; holes may touch the outer ring or each other at
//! single points, as long as the interior stays connected (OGC Simple Features).
//! Then the windings are normalised: outer counter-clockwise, holes clockwise, so the
//! solid is on the left of every edge.
//!
//! Crossings, contacts and placement come from one plane sweep, O(n log n)
//! (`crossings.rs`); contacts are judged in `contacts.rs`. Tolerance:
//! [`ZERO_AREA_ULPS`]; the crossing tests are exact sign tests. Scale floor: the outer
//! ring's extent `s` must keep `s² · ε` a normal number (see [`check_scale`]).

use super::contacts;
use super::crossings::{self, Layout, NO_EDGE};
use super::geometry::{orient, ring_twice_area};
use super::triangulate::Swept;
use crate::math::tolerance::eps;
use crate::math::{Real, Vector2};
use crate::shape::error::ShapeError;

/// A ring whose area is within this many epsilons of its bounding box's area is flat.
pub const ZERO_AREA_ULPS: f64 = 64.0;

const SHAPE: &str = "ConcavePolygon";

/// The validated rings: normalised windings, a vertex that lies on another ring's
/// edge inserted into that edge; and the successor of every vertex (numbered through
/// the rings) along the curves relinked at the points where rings touch.
pub(super) struct Validated<V> {
    pub rings: Vec<Vec<V>>,
    pub next: Vec<u32>,
    /// What the validation sweep found that the triangulation needs (the sweep order,
    /// each vertex's left edge), when it carries over: no contacts, so the same
    /// distinct points, some rings reversed. `None` otherwise.
    pub swept: Option<Swept>,
}

/// Checks the rings (outer first) as given to [`ConcavePolygon::new`](super::ConcavePolygon::new).
/// Vertex indices in errors count through the input rings.
pub(super) fn validate_rings<V: Vector2>(input: &[Vec<V>]) -> Result<Validated<V>, ShapeError> {
    let offsets = ring_offsets(input);
    let mut kept = Vec::with_capacity(input.len());
    for (ring, &offset) in input.iter().zip(&offsets) {
        kept.push(clean_ring(ring, offset)?);
    }
    let rings: Vec<Vec<V>> = kept
        .iter()
        .zip(input)
        .zip(&offsets)
        .map(|((k, ring), &o)| k.iter().map(|&i| ring[i - o]).collect())
        .collect();
    check_scale(&rings[0])?;
    // A ring on one line folds back on itself: call it flat before calling it crossed.
    for (k, ring) in rings.iter().enumerate() {
        if on_one_line(ring) {
            check_area(ring, k == 0)?;
        }
    }
    let lay = layout(rings, kept);
    let report = crossings::sweep(&lay)?;
    for r in 0..lay.start.len() - 1 {
        check_area(&lay.points[lay.start[r]..lay.start[r + 1]], r == 0)?;
    }
    contacts::check(&lay, &report.contacts, &offsets)?;
    if let Some((ring, inside_hole)) = report.misplaced {
        return Err(invalid(
            offsets[ring as usize],
            if inside_hole {
                "belongs to a hole inside another hole"
            } else {
                "belongs to a hole outside the outer ring"
            },
        ));
    }
    let (rings, next) = contacts::assemble(&lay, &report.contacts);
    let swept = report
        .contacts
        .is_empty()
        .then(|| renumbered_sweep(&lay, report.order, &report.left));
    Ok(Validated { rings, next, swept })
}

/// The cleaned rings numbered through, with their names and which side is solid.
fn layout<V: Vector2>(rings: Vec<Vec<V>>, kept: Vec<Vec<usize>>) -> Layout<V> {
    let mut start = vec![0];
    let mut ring_of = Vec::new();
    for (r, ring) in rings.iter().enumerate() {
        start.push(start[r] + ring.len());
        ring_of.extend(std::iter::repeat_n(r as u32, ring.len()));
    }
    let solid_left = rings
        .iter()
        .enumerate()
        .map(|(r, ring)| (ring_twice_area(ring) > V::Scalar::ZERO) == (r == 0))
        .collect();
    Layout {
        points: rings.into_iter().flatten().collect(),
        ring_of,
        start,
        names: kept.into_iter().flatten().collect(),
        solid_left,
    }
}

/// The sweep order and left edges of the layout's vertices renumbered as
/// [`contacts::assemble`] numbers them without contacts: a ring whose solid is on the
/// right is reversed, its vertex `g` becoming `first + last − g`, and its edge
/// `g → next(g)` the edge from the image of `next(g)`.
fn renumbered_sweep<V: Vector2>(lay: &Layout<V>, mut order: Vec<u32>, left: &[u32]) -> Swept {
    let renumber = |g: u32| {
        let r = lay.ring_of[g as usize] as usize;
        if lay.solid_left[r] {
            g
        } else {
            (lay.start[r] + lay.start[r + 1] - 1) as u32 - g
        }
    };
    for g in &mut order {
        *g = renumber(*g);
    }
    let mut renumbered_left = vec![NO_EDGE; left.len()];
    for (g, &e) in left.iter().enumerate() {
        renumbered_left[renumber(g as u32) as usize] = match e {
            NO_EDGE => NO_EDGE,
            e if lay.solid_left[lay.ring_of[e as usize] as usize] => e,
            e => renumber(lay.next(e)),
        };
    }
    Swept {
        order,
        left: renumbered_left,
    }
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

/// The global input indices of the vertices kept: every vertex not equal to the one
/// after it (the last of each run of repeats, the closing repeat of the first vertex
/// included). Errors: fewer than 3 distinct vertices, a non-finite vertex.
fn clean_ring<V: Vector2>(ring: &[V], offset: usize) -> Result<Vec<usize>, ShapeError> {
    if let Some(i) = ring.iter().position(|v| !v.is_finite()) {
        return Err(invalid(offset + i, "is not finite"));
    }
    let n = ring.len();
    let kept: Vec<usize> = (0..n)
        .filter(|&i| ring[i] != ring[(i + 1) % n])
        .map(|i| offset + i)
        .collect();
    if kept.len() < 3 {
        return Err(ShapeError::TooFewPoints {
            shape: SHAPE,
            needed: 3,
            got: kept.len().max(n.min(1)),
        });
    }
    Ok(kept)
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
