//! Edge adjacency of a triangle mesh, computed once: for every triangle edge the one
//! triangle across it (when exactly one shares it), and the check that a mesh is
//! closed and consistently oriented (every edge shared by exactly two triangles that
//! run along it in opposite directions). No tolerances.

use std::collections::HashMap;

use crate::shape::ShapeError;

/// No neighbour across an edge: a boundary edge, an edge shared by three or more
/// triangles, or an edge of a triangle that repeats a vertex.
pub(crate) const NO_NEIGHBOUR: u32 = u32::MAX;

/// The triangles across each edge `k` (from corner `k` to corner `k + 1`).
pub(crate) fn neighbours(indices: &[[u32; 3]]) -> Vec<[u32; 3]> {
    let edges = edge_map(indices);
    indices
        .iter()
        .enumerate()
        .map(|(t, tri)| {
            core::array::from_fn(|k| {
                let key = undirected(tri[k], tri[(k + 1) % 3]);
                match edges.get(&key).map(Vec::as_slice) {
                    Some(&[(x, _), (y, _)]) if tri[k] != tri[(k + 1) % 3] => {
                        if x as usize == t {
                            y
                        } else {
                            x
                        }
                    }
                    _ => NO_NEIGHBOUR,
                }
            })
        })
        .collect()
}

/// `(min, max)` of an edge's vertex indices.
fn undirected(a: u32, b: u32) -> (u32, u32) {
    (a.min(b), a.max(b))
}

/// Every undirected edge with the triangles using it and whether each runs it from
/// the smaller index to the larger.
fn edge_map(indices: &[[u32; 3]]) -> HashMap<(u32, u32), Vec<(u32, bool)>> {
    let mut edges: HashMap<(u32, u32), Vec<(u32, bool)>> =
        HashMap::with_capacity(indices.len() * 2);
    for (t, tri) in indices.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            edges
                .entry(undirected(a, b))
                .or_default()
                .push((t as u32, a < b));
        }
    }
    edges
}

/// `Ok` when every edge is shared by exactly two triangles running it in opposite
/// directions and no triangle repeats a vertex.
///
/// # Errors
/// [`ShapeError::NotClosed`] naming the first offending triangle and edge.
pub(crate) fn check_closed(shape: &'static str, indices: &[[u32; 3]]) -> Result<(), ShapeError> {
    let not_closed = |triangle: usize, edge: [u32; 2], reason| ShapeError::NotClosed {
        shape,
        triangle,
        edge,
        reason,
    };
    for (t, tri) in indices.iter().enumerate() {
        if tri[0] == tri[1] || tri[1] == tri[2] || tri[2] == tri[0] {
            return Err(not_closed(
                t,
                [tri[0], tri[1]],
                "the triangle repeats a vertex",
            ));
        }
    }
    let edges = edge_map(indices);
    for (t, tri) in indices.iter().enumerate() {
        for k in 0..3 {
            let edge = [tri[k], tri[(k + 1) % 3]];
            let users = &edges[&undirected(edge[0], edge[1])];
            match users.as_slice() {
                [_] => {
                    return Err(not_closed(
                        t,
                        edge,
                        "a boundary edge (one triangle uses it)",
                    ))
                }
                [(_, x), (_, y)] if x == y => {
                    return Err(not_closed(
                        t,
                        edge,
                        "its two triangles are oriented inconsistently",
                    ))
                }
                [_, _] => {}
                _ => return Err(not_closed(t, edge, "more than two triangles share it")),
            }
        }
    }
    Ok(())
}
