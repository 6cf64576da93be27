//! Edge crossings, touching points and ring placement in one plane sweep, O(n log n)
//! (M. I. Shamos and D. Hoey, "Geometric intersection problems", 1976: only edges
//! next to each other in the sweep status need a test; de Berg et al. 2.1).
//!
//! Events are the vertices, coincident ones handled together. At each event point `p`:
//! the edges ending at `p` leave the status; the edges passing through `p` (a vertex
//! on another edge) are found by locating `p`; the edges starting at `p` enter; then
//! every pair of neighbours around `p` is tested. Two edges that cross inside both, or
//! share a stretch, stop the sweep with an error; a point shared by two rings (a vertex
//! on a vertex or on an edge) is recorded as a [`Contact`], judged after the sweep
//! (`contacts.rs`). The nearest edge left of `p` also says whether the region left of
//! `p` is solid; that must agree with the rings at `p`, otherwise a hole lies outside
//! the outer ring or inside another hole. That edge is kept per vertex for the
//! triangulation's monotone partition (`triangulate.rs`). Exact orientation signs, no
//! tolerances.

use core::cmp::Ordering;

use super::geometry::orient;
use super::sweep::{after, sweep_order, Key, Status};
use crate::math::{Real, Vector2};
use crate::shape::error::ShapeError;

pub(super) const SHAPE: &str = "ConcavePolygon";

/// Words of [`ShapeError::SelfIntersecting`]: edges crossing inside both.
pub(super) const CROSSES: &str = "crosses";
/// Words of [`ShapeError::SelfIntersecting`]: edges sharing one point.
pub(super) const TOUCHES: &str = "touches";
/// Words of [`ShapeError::SelfIntersecting`]: collinear edges sharing a stretch.
pub(super) const OVERLAPS: &str = "overlaps (touches along a stretch of)";

/// The cleaned rings (repeats dropped, input windings), numbered through.
pub(super) struct Layout<V> {
    /// Every ring's vertices, outer ring first.
    pub points: Vec<V>,
    /// The ring of each vertex.
    pub ring_of: Vec<u32>,
    /// Index of each ring's first vertex, and the total at the end.
    pub start: Vec<usize>,
    /// Per vertex, its index in the input (the last of a run of repeats): the edge
    /// from it is named by this index.
    pub names: Vec<usize>,
    /// Per ring, whether the solid lies left of its edges as given (the outer ring
    /// counter-clockwise, a hole clockwise).
    pub solid_left: Vec<bool>,
}

impl<V: Vector2> Layout<V> {
    /// The vertex after `g` in its ring.
    pub(super) fn next(&self, g: u32) -> u32 {
        let r = self.ring_of[g as usize] as usize;
        if g as usize + 1 == self.start[r + 1] {
            self.start[r] as u32
        } else {
            g + 1
        }
    }

    /// The vertex before `g` in its ring.
    pub(super) fn prev(&self, g: u32) -> u32 {
        let r = self.ring_of[g as usize] as usize;
        if g as usize == self.start[r] {
            self.start[r + 1] as u32 - 1
        } else {
            g - 1
        }
    }

    #[inline]
    pub(super) fn point(&self, g: u32) -> V {
        self.points[g as usize]
    }

    /// Edge `g`: from vertex `g` to the next one.
    pub(super) fn edge(&self, g: u32) -> (V, V) {
        (self.point(g), self.point(self.next(g)))
    }

    fn ring(&self, g: u32) -> u32 {
        self.ring_of[g as usize]
    }
}

/// One ring's presence at a contact point: a vertex there, or an edge through it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(super) enum Element {
    Vertex(u32),
    Edge(u32),
}

impl Element {
    pub(super) fn ring<V: Vector2>(self, lay: &Layout<V>) -> u32 {
        match self {
            Element::Vertex(g) | Element::Edge(g) => lay.ring(g),
        }
    }

    /// The two rays at the point, the solid counter-clockwise from `out` to `into`:
    /// `(into, out)`, each as the far point and the input name of its edge.
    pub(super) fn rays<V: Vector2>(self, lay: &Layout<V>) -> ((V, usize), (V, usize)) {
        let (before, after) = match self {
            Element::Vertex(g) => {
                let u = lay.prev(g);
                (
                    (lay.point(u), lay.names[u as usize]),
                    (lay.point(lay.next(g)), lay.names[g as usize]),
                )
            }
            Element::Edge(g) => {
                let (a, b) = lay.edge(g);
                let name = lay.names[g as usize];
                ((a, name), (b, name))
            }
        };
        if lay.solid_left[self.ring(lay) as usize] {
            (before, after)
        } else {
            (after, before)
        }
    }
}

/// A point where two or more ring elements meet (one ring twice: the ring touches itself).
#[derive(Clone, Debug)]
pub(super) struct Contact<V> {
    pub at: V,
    pub elements: Vec<Element>,
}

/// What the sweep found short of an error: the contacts, and the first ring found on
/// the wrong side of another (the ring, and whether the other one is a hole).
pub(super) struct Report<V> {
    pub contacts: Vec<Contact<V>>,
    pub misplaced: Option<(u32, bool)>,
    /// The vertices in sweep order.
    pub order: Vec<u32>,
    /// Per vertex, the nearest edge strictly left of it at its event ([`NO_EDGE`] when
    /// none): without contacts, the monotone partition's helper edge
    /// (`triangulate.rs`), which then needs no sweep of its own.
    pub left: Vec<u32>,
}

/// [`Report::left`] of a vertex with no edge to its left.
pub(super) const NO_EDGE: u32 = u32::MAX;

/// Sweeps the rings: `Err` for two edges that cross or share a stretch.
pub(super) fn sweep<V: Vector2>(lay: &Layout<V>) -> Result<Report<V>, ShapeError> {
    let order = sweep_order(&lay.points);
    let mut status: Status<V, ()> = Status::new();
    let mut report = Report {
        contacts: Vec::new(),
        misplaced: None,
        order: Vec::new(),
        left: vec![NO_EDGE; lay.points.len()],
    };
    let (mut k, mut line) = (0, Vec::new());
    while k < order.len() {
        let p = lay.point(order[k]);
        let mut end = k + 1;
        while end < order.len() && lay.point(order[end]) == p {
            end += 1;
        }
        event(lay, &mut status, p, &order[k..end], &mut report, &mut line)?;
        k = end;
    }
    report.order = order;
    Ok(report)
}

/// The edges of the vertices at `p`, each with whether it ends at `p`.
fn incident<'a, V: Vector2>(
    lay: &'a Layout<V>,
    p: V,
    group: &'a [u32],
) -> impl Iterator<Item = (Key<V>, bool)> + 'a {
    group.iter().flat_map(move |&v| {
        [lay.prev(v), v].map(|e| {
            let (a, b) = lay.edge(e);
            let other = if e == v { b } else { a };
            (Key::edge(a, b, e), after(p, other))
        })
    })
}

/// One event: the vertices `group`, all at `p`. `line` is scratch space.
fn event<V: Vector2>(
    lay: &Layout<V>,
    status: &mut Status<V, ()>,
    p: V,
    group: &[u32],
    report: &mut Report<V>,
    line: &mut Vec<u32>,
) -> Result<(), ShapeError> {
    for (key, ends) in incident(lay, p, group) {
        if ends && status.remove(&key).is_none() {
            return Err(lost_edge());
        }
    }
    for (key, ends) in incident(lay, p, group) {
        if !ends {
            status.insert(key, ());
        }
    }
    // The edges through `p` (new ones from `p`, and any passing through it) lie
    // between the nearest ones left and right of `p`.
    let left = status.left_of(p).map(|(k, _)| k.id());
    for &v in group {
        report.left[v as usize] = left.unwrap_or(NO_EDGE);
    }
    line.clear();
    line.extend(left);
    let right = status.through_and_right(p, line);
    let block = &line[usize::from(left.is_some())..line.len() - usize::from(right)];
    let mut passing = block.iter().copied().filter(|&e| {
        let (a, b) = lay.edge(e);
        a != p && b != p
    });
    let through = passing.next();
    if let (Some(e), Some(f)) = (through, passing.next()) {
        return Err(conflict(lay, e, f).unwrap_or_else(lost_edge));
    }
    if group.len() == 1 && through.is_none() {
        // No contact (the common case): only the placement test, without allocating.
        if report.misplaced.is_none() {
            report.misplaced = misplaced(lay, p, left, &[Element::Vertex(group[0])]);
        }
        return check_line(lay, line);
    }
    let mut elements: Vec<Element> = group.iter().map(|&v| Element::Vertex(v)).collect();
    elements.extend(through.map(Element::Edge));
    if report.misplaced.is_none() {
        report.misplaced = misplaced(lay, p, left, &elements);
    }
    report.contacts.push(Contact { at: p, elements });
    check_line(lay, line)
}

/// Neighbours in the status (the edges `line`, left to right) must not cross or overlap.
fn check_line<V: Vector2>(lay: &Layout<V>, line: &[u32]) -> Result<(), ShapeError> {
    for w in line.windows(2) {
        if let Some(err) = conflict(lay, w[0], w[1]) {
            return Err(err);
        }
    }
    Ok(())
}

/// The status lost an edge: only possible if two edges crossed unnoticed.
fn lost_edge() -> ShapeError {
    ShapeError::Degenerate {
        shape: SHAPE,
        reason: "the rings could not be swept (edges crossing at a point the sweep missed)",
    }
}

/// The error for edges `e` and `f` when they cross or share a stretch; `None` when
/// they are apart or share single points only (judged as contacts).
fn conflict<V: Vector2>(lay: &Layout<V>, e: u32, f: u32) -> Option<ShapeError> {
    let err = |relation| {
        let (a, b) = (lay.names[e as usize], lay.names[f as usize]);
        Some(ShapeError::SelfIntersecting {
            shape: SHAPE,
            edge_a: a.min(b),
            edge_b: a.max(b),
            relation,
        })
    };
    for (x, y) in [(e, f), (f, e)] {
        if lay.next(x) == y {
            // Ring neighbours: they only meet elsewhere by folding back onto each other.
            let (a, b) = lay.edge(x);
            let c = lay.point(lay.next(y));
            let zero = V::Scalar::ZERO;
            let folds = orient(a, b, c) == zero && (b - a).dot(c - b) < zero;
            return if folds { err(OVERLAPS) } else { None };
        }
    }
    let ((a, b), (c, d)) = (lay.edge(e), lay.edge(f));
    let s = |o: V::Scalar| o.partial_cmp(&V::Scalar::ZERO).unwrap_or(Ordering::Equal) as i8;
    let (o1, o2) = (s(orient(a, b, c)), s(orient(a, b, d)));
    if o1 == 0 && o2 == 0 {
        return if collinear_overlap(a, b, c, d) {
            err(OVERLAPS)
        } else {
            None
        };
    }
    let (o3, o4) = (s(orient(c, d, a)), s(orient(c, d, b)));
    if o1 * o2 < 0 && o3 * o4 < 0 {
        return err(CROSSES);
    }
    None
}

/// True when the collinear segments `ab` and `cd` share more than a point.
fn collinear_overlap<V: Vector2>(a: V, b: V, c: V, d: V) -> bool {
    let lex = |p: V, q: V| (p.x(), p.y()) < (q.x(), q.y());
    let lo = |p: V, q: V| if lex(p, q) { p } else { q };
    let hi = |p: V, q: V| if lex(p, q) { q } else { p };
    let start = if lex(lo(a, b), lo(c, d)) {
        lo(c, d)
    } else {
        lo(a, b)
    };
    let end = if lex(hi(a, b), hi(c, d)) {
        hi(a, b)
    } else {
        hi(c, d)
    };
    lex(start, end)
}

/// Sign of `orient(p, x, q)` for the direction `q` along the sweep line to the left of
/// `p`: `(−1, −ε)`, just below the horizontal (the sweep line is tilted so).
fn side_of_leftward<V: Vector2>(p: V, x: V) -> i8 {
    let sign = |d: V::Scalar| {
        if d > V::Scalar::ZERO {
            1
        } else if d < V::Scalar::ZERO {
            -1
        } else {
            0
        }
    };
    if x.y() != p.y() {
        sign(x.y() - p.y())
    } else {
        sign(p.x() - x.x())
    }
}

/// True when a direction lies strictly inside the counter-clockwise sector from
/// `from` to `to` about `p`; `turn` is `orient(p, from, to)`, `s_from` and `s_to` the
/// signs of `orient(p, from, q)` and `orient(p, to, q)` for the direction `q`.
pub(super) fn in_sector<S: Real>(turn: S, s_from: i8, s_to: i8) -> bool {
    if turn > S::ZERO {
        s_from > 0 && s_to < 0
    } else if turn < S::ZERO {
        !(s_to >= 0 && s_from <= 0)
    } else {
        s_from > 0
    }
}

/// The ring on the wrong side of another at `p`, if any: the region just left of
/// `p` is solid by the nearest edge `left` exactly when it is by the rings at `p`.
fn misplaced<V: Vector2>(
    lay: &Layout<V>,
    p: V,
    left: Option<u32>,
    elements: &[Element],
) -> Option<(u32, bool)> {
    let face_solid = left.is_some_and(|e| {
        let (a, b) = lay.edge(e);
        after(b, a) == lay.solid_left[lay.ring(e) as usize]
    });
    let here_solid = elements.iter().all(|el| {
        let ((into, _), (out, _)) = el.rays(lay);
        in_sector(
            orient(p, out, into),
            side_of_leftward(p, out),
            side_of_leftward(p, into),
        )
    });
    if face_solid == here_solid {
        return None;
    }
    let here = elements
        .iter()
        .map(|el| el.ring(lay))
        .find(|&r| r != 0)
        .unwrap_or(0);
    let there = left.map(|e| lay.ring(e));
    // The ring whose side is wrong: the one at `p` when the region left of it is not
    // solid, the one left of it otherwise; the outer ring is never the one to move.
    let culprit = if here_solid {
        (here != 0).then_some(here).or(there)
    } else {
        there.filter(|&r| r != 0).or(Some(here))
    }?;
    let other = if culprit == here { there } else { Some(here) };
    (culprit != 0).then_some((culprit, other.is_some_and(|r| r != 0)))
}
