//! Rings that touch at single points (OGC Simple Features, *Simple Feature Access*
//! 6.1.11.1: a hole may touch the outer ring or another hole at a point, the interior
//! must stay connected, no ring may touch itself).
//!
//! At each [`Contact`] of the sweep (`crossings.rs`) the rings' rays are sorted round
//! the point. Each ring element bounds a non-solid sector (the outer ring's outside,
//! a hole's inside) from its incoming ray counter-clockwise to its outgoing ray; the
//! contact is valid when no such sector holds another ray, that is when, round the
//! point, each element's incoming ray is followed by its own outgoing ray. A ray of
//! another ring inside a sector means the rings cross there (one ray inside) or that
//! one lies on the wrong side of the other (both rays inside). The rings and their
//! contact points form a graph that must be a forest: a cycle (a hole touching the
//! outer ring twice, or a chain of holes from the ring back to it) cuts the interior.
//!
//! [`assemble`] then joins the rings into curves: a vertex on another ring's edge is
//! inserted into that edge, and at every contact point the vertices are relinked so
//! that each copy of the point bounds one solid sector (the curve runs in along the
//! ray before the sector and out along the ray after it). The curves are weakly
//! simple: a point may repeat, its copies' sectors do not overlap. No tolerances.

use core::cmp::Ordering;

use super::crossings::{in_sector, Contact, Element, Layout, CROSSES, OVERLAPS, SHAPE, TOUCHES};
use super::geometry::orient;
use super::sweep::{sweep_cmp, sweep_order};
use crate::math::{Real, Vector2};
use crate::shape::error::ShapeError;

/// Every contact must be between different rings, without crossing, with the rings'
/// sides right, and the contacts must not close a cycle of rings.
pub(super) fn check<V: Vector2>(
    lay: &Layout<V>,
    contacts: &[Contact<V>],
    offsets: &[usize],
) -> Result<(), ShapeError> {
    for c in contacts {
        check_self_touch(lay, c)?;
    }
    for c in contacts {
        check_sectors(lay, c, offsets)?;
    }
    check_connected(lay, contacts)
}

/// A ring present twice at one point touches itself.
fn check_self_touch<V: Vector2>(lay: &Layout<V>, c: &Contact<V>) -> Result<(), ShapeError> {
    for (i, a) in c.elements.iter().enumerate() {
        if let Some(b) = c.elements[i + 1..]
            .iter()
            .find(|b| b.ring(lay) == a.ring(lay))
        {
            let name = |e: &Element| match *e {
                Element::Vertex(g) | Element::Edge(g) => lay.names[g as usize],
            };
            let (x, y) = (name(a), name(b));
            return Err(ShapeError::SelfIntersecting {
                shape: SHAPE,
                edge_a: x.min(y),
                edge_b: x.max(y),
                relation: TOUCHES,
            });
        }
    }
    Ok(())
}

/// One ray at a contact point: its far point, its edge's input name, its element, and
/// whether it is the element's incoming ray.
#[derive(Copy, Clone)]
struct Ray<V> {
    to: V,
    name: usize,
    element: usize,
    into: bool,
}

/// Counter-clockwise order of the directions `a − p` and `b − p`, from the `+x` axis.
fn angle_cmp<V: Vector2>(p: V, a: V, b: V) -> Ordering {
    let half = |q: V| !(q.y() > p.y() || (q.y() == p.y() && q.x() > p.x()));
    half(a).cmp(&half(b)).then_with(|| {
        orient(p, a, b)
            .partial_cmp(&V::Scalar::ZERO)
            .unwrap_or(Ordering::Equal)
            .reverse()
    })
}

/// The contact's rays sorted counter-clockwise.
fn sorted_rays<V: Vector2>(lay: &Layout<V>, c: &Contact<V>) -> Vec<Ray<V>> {
    let mut rays = Vec::with_capacity(2 * c.elements.len());
    for (element, el) in c.elements.iter().enumerate() {
        let ((to_in, name_in), (to_out, name_out)) = el.rays(lay);
        rays.push(Ray {
            to: to_in,
            name: name_in,
            element,
            into: true,
        });
        rays.push(Ray {
            to: to_out,
            name: name_out,
            element,
            into: false,
        });
    }
    rays.sort_by(|a, b| angle_cmp(c.at, a.to, b.to));
    rays
}

/// Round the point, every incoming ray is followed by its element's outgoing ray.
fn check_sectors<V: Vector2>(
    lay: &Layout<V>,
    c: &Contact<V>,
    offsets: &[usize],
) -> Result<(), ShapeError> {
    let rays = sorted_rays(lay, c);
    let n = rays.len();
    let edges = |r: &Ray<V>, s: &Ray<V>, relation| ShapeError::SelfIntersecting {
        shape: SHAPE,
        edge_a: r.name.min(s.name),
        edge_b: r.name.max(s.name),
        relation,
    };
    for k in 0..n {
        let (r, s) = (&rays[k], &rays[(k + 1) % n]);
        if angle_cmp(c.at, r.to, s.to) == Ordering::Equal {
            return Err(edges(r, s, OVERLAPS));
        }
    }
    for k in 0..n {
        let (r, s) = (&rays[k], &rays[(k + 1) % n]);
        if !r.into || s.element == r.element {
            continue;
        }
        // `s` lies inside `r`'s element's non-solid sector: is its partner there too?
        let out = rays
            .iter()
            .find(|q| q.element == r.element && !q.into)
            .map_or(r.to, |q| q.to);
        let partner = rays
            .iter()
            .find(|q| q.element == s.element && q.into != s.into)
            .map_or(s.to, |q| q.to);
        let sign = |x: V| {
            let o = orient(c.at, x, partner);
            (o > V::Scalar::ZERO) as i8 - (o < V::Scalar::ZERO) as i8
        };
        if !in_sector(orient(c.at, r.to, out), sign(r.to), sign(out)) {
            return Err(edges(r, s, CROSSES));
        }
        let (outer, inner) = (
            c.elements[r.element].ring(lay),
            c.elements[s.element].ring(lay),
        );
        return Err(wrong_side(outer, inner, offsets));
    }
    Ok(())
}

/// The error for ring `inner` lying on the non-solid side of ring `outer`.
fn wrong_side(outer: u32, inner: u32, offsets: &[usize]) -> ShapeError {
    let (hole, reason) = if outer == 0 {
        (inner, "belongs to a hole outside the outer ring")
    } else if inner == 0 {
        (outer, "belongs to a hole outside the outer ring")
    } else {
        (inner, "belongs to a hole inside another hole")
    };
    ShapeError::InvalidVertex {
        shape: SHAPE,
        vertex: offsets[hole as usize],
        reason,
    }
}

/// Union–find root of `i`, halving the path.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// The graph of rings and contact points must have no cycle (the interior stays connected).
fn check_connected<V: Vector2>(lay: &Layout<V>, contacts: &[Contact<V>]) -> Result<(), ShapeError> {
    let rings = lay.start.len() - 1;
    let mut parent: Vec<usize> = (0..rings + contacts.len()).collect();
    for (k, c) in contacts.iter().enumerate() {
        let node = rings + k;
        for el in &c.elements {
            let (a, b) = (
                root(&mut parent, node),
                root(&mut parent, el.ring(lay) as usize),
            );
            if a == b {
                let vertex = c
                    .elements
                    .iter()
                    .find_map(|e| match *e {
                        Element::Vertex(g) => Some(lay.names[g as usize]),
                        Element::Edge(_) => None,
                    })
                    .unwrap_or(0);
                return Err(ShapeError::InvalidVertex {
                    shape: SHAPE,
                    vertex,
                    reason: "is where holes and the outer ring touch in a closed chain (a hole touching the ring twice, or touching holes from the ring back to it): the interior would be cut in two",
                });
            }
            parent[a] = b;
        }
    }
    Ok(())
}

/// The rings as stored (outer counter-clockwise, holes clockwise, with every vertex
/// that lies on another ring's edge inserted into that edge), and the successor of
/// each vertex along the relinked curves.
pub(super) fn assemble<V: Vector2>(
    lay: &Layout<V>,
    contacts: &[Contact<V>],
) -> (Vec<Vec<V>>, Vec<u32>) {
    let rings = with_inserted_vertices(lay, contacts);
    let rings: Vec<Vec<V>> = rings
        .into_iter()
        .enumerate()
        .map(|(r, mut ring)| {
            if !lay.solid_left[r] {
                ring.reverse();
            }
            ring
        })
        .collect();
    let next = relinked(&rings, !contacts.is_empty());
    (rings, next)
}

/// The cleaned rings (input windings) with each contact on an edge's inside inserted
/// into that edge, in order along it.
fn with_inserted_vertices<V: Vector2>(lay: &Layout<V>, contacts: &[Contact<V>]) -> Vec<Vec<V>> {
    let mut on_edge: Vec<(u32, V)> = contacts
        .iter()
        .flat_map(|c| {
            c.elements.iter().filter_map(move |e| match *e {
                Element::Edge(g) => Some((g, c.at)),
                Element::Vertex(_) => None,
            })
        })
        .collect();
    // Along edge `g`: by the sweep order, reversed when the edge runs up.
    on_edge.sort_by(|a, b| {
        a.0.cmp(&b.0).then_with(|| {
            let (s, t) = lay.edge(a.0);
            let o = sweep_cmp(a.1, b.1);
            if sweep_cmp(s, t) == Ordering::Less {
                o
            } else {
                o.reverse()
            }
        })
    });
    let mut k = 0;
    (0..lay.start.len() - 1)
        .map(|r| {
            let mut ring = Vec::with_capacity(lay.start[r + 1] - lay.start[r]);
            for g in lay.start[r]..lay.start[r + 1] {
                ring.push(lay.points[g]);
                while k < on_edge.len() && on_edge[k].0 as usize == g {
                    ring.push(on_edge[k].1);
                    k += 1;
                }
            }
            ring
        })
        .collect()
}

/// Successors along the rings, relinked (when `shared`) at every point the rings share: round the
/// point, the copy whose outgoing ray comes before a solid sector takes as predecessor
/// the vertex whose ray closes that sector.
fn relinked<V: Vector2>(rings: &[Vec<V>], shared: bool) -> Vec<u32> {
    let points: Vec<V> = rings.iter().flatten().copied().collect();
    let mut next = Vec::with_capacity(points.len());
    let mut prev = Vec::with_capacity(points.len());
    let mut first = 0u32;
    for ring in rings {
        let n = ring.len() as u32;
        next.extend((0..n).map(|k| first + (k + 1) % n));
        prev.extend((0..n).map(|k| first + (k + n - 1) % n));
        first += n;
    }
    if !shared {
        return next;
    }
    let order = sweep_order(&points);
    let mut k = 0;
    while k < order.len() {
        let p = points[order[k] as usize];
        let mut end = k + 1;
        while end < order.len() && points[order[end] as usize] == p {
            end += 1;
        }
        if end - k >= 2 {
            let mut copies = order[k..end].to_vec();
            copies.sort_by(|&a, &b| {
                angle_cmp(
                    p,
                    points[prev[a as usize] as usize],
                    points[prev[b as usize] as usize],
                )
            });
            let m = copies.len();
            for i in 0..m {
                next[prev[copies[(i + 1) % m] as usize] as usize] = copies[i];
            }
        }
        k = end;
    }
    next
}
