//! Edge adjacency of a triangle mesh: for every triangle edge the one triangle across
//! it (when exactly one other edge runs between the same two vertices), the check that
//! a mesh is closed and consistently oriented (every edge shared by exactly two
//! triangles that run along it in opposite directions), and the triangles around each
//! vertex. No tolerances.
//!
//! Method: no hashing and no allocation per edge. Every edge (a half-edge `3·t + k`,
//! from corner `k` of triangle `t` to corner `k + 1`) is filed under its smaller vertex
//! by a counting sort (two passes over the triangles, one array); each vertex's few
//! edges are then sorted by their other vertex, so the edges between the same two
//! vertices end up next to each other. `O(n)` for meshes of bounded vertex degree,
//! `O(n log n)` whatever the input (a fan around one vertex sorts its bucket).

use crate::shape::ShapeError;

/// No neighbour across an edge: a boundary edge, an edge shared by three or more
/// triangles, or an edge of a triangle that repeats a vertex.
pub(crate) const NO_NEIGHBOUR: u32 = u32::MAX;

/// The edges of a mesh matched up.
pub(crate) struct EdgeMatch {
    /// The triangles across each edge `k` (from corner `k` to corner `k + 1`).
    pub(crate) neighbours: Vec<[u32; 3]>,
    /// The first half-edge (`3·t + k`) where the mesh is not closed and consistently
    /// oriented, and why.
    defect: Option<(usize, &'static str)>,
}

/// Matches every edge of `indices` (vertices below `vertex_count`) with the edges
/// between the same two vertices.
pub(crate) fn match_edges(vertex_count: usize, indices: &[[u32; 3]]) -> EdgeMatch {
    let (start, edges) = edges_by_low_vertex(vertex_count, indices);
    let mut neighbours = vec![[NO_NEIGHBOUR; 3]; indices.len()];
    let mut defect: Option<(usize, &'static str)> = None;
    let mut note = |e: &Filed, reason| {
        if defect.is_none_or(|(h, _)| e.half() < h) {
            defect = Some((e.half(), reason));
        }
    };
    for bucket in start.windows(2) {
        for run in edges[bucket[0]..bucket[1]].chunk_by(|x, y| x.other == y.other) {
            match run {
                [x, y] => {
                    neighbours[x.triangle as usize][x.k as usize] = y.triangle;
                    neighbours[y.triangle as usize][y.k as usize] = x.triangle;
                    if x.upward == y.upward {
                        note(x, "its two triangles are oriented inconsistently");
                    }
                }
                [x] => note(x, "a boundary edge (one triangle uses it)"),
                _ => note(&run[0], "more than two triangles share it"),
            }
        }
    }
    EdgeMatch { neighbours, defect }
}

/// One edge filed under its smaller vertex.
#[derive(Copy, Clone)]
struct Filed {
    /// The larger vertex.
    other: u32,
    /// The triangle.
    triangle: u32,
    /// The edge of the triangle (from corner `k` to corner `k + 1`).
    k: u8,
    /// True when the triangle runs the edge from the smaller vertex to the larger.
    upward: bool,
}

impl Filed {
    /// The half-edge's number, `3·t + k`.
    fn half(&self) -> usize {
        3 * self.triangle as usize + self.k as usize
    }
}

/// Every edge with two distinct vertices, filed under its smaller vertex `v` at
/// `edges[start[v]..start[v + 1]]` and sorted there by the larger vertex, then by
/// half-edge (so the order does not depend on the sort).
fn edges_by_low_vertex(vertex_count: usize, indices: &[[u32; 3]]) -> (Vec<usize>, Vec<Filed>) {
    let each_edge = || {
        indices.iter().zip(0u32..).flat_map(|(tri, t)| {
            (0..3u8).filter_map(move |k| {
                let (a, b) = (tri[k as usize], tri[(k as usize + 1) % 3]);
                (a != b).then_some((t, k, a, b))
            })
        })
    };
    let mut start = vec![0usize; vertex_count + 1];
    for (_, _, a, b) in each_edge() {
        start[a.min(b) as usize + 1] += 1;
    }
    for v in 0..vertex_count {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let blank = Filed {
        other: 0,
        triangle: 0,
        k: 0,
        upward: false,
    };
    let mut edges = vec![blank; start[vertex_count]];
    for (triangle, k, a, b) in each_edge() {
        let slot = &mut fill[a.min(b) as usize];
        edges[*slot] = Filed {
            other: a.max(b),
            triangle,
            k,
            upward: a < b,
        };
        *slot += 1;
    }
    for bucket in start.windows(2) {
        let bucket = &mut edges[bucket[0]..bucket[1]];
        if bucket.len() > 1 {
            bucket.sort_unstable_by_key(|e| (e.other, e.triangle, e.k));
        }
    }
    (start, edges)
}

/// `Ok` when every edge is shared by exactly two triangles running it in opposite
/// directions and no triangle repeats a vertex.
///
/// # Errors
/// [`ShapeError::NotClosed`] naming the first offending triangle and edge (a
/// triangle repeating a vertex first).
pub(crate) fn check_closed(
    shape: &'static str,
    indices: &[[u32; 3]],
    edges: &EdgeMatch,
) -> Result<(), ShapeError> {
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
    match edges.defect {
        Some((half, reason)) => {
            let (t, k) = (half / 3, half % 3);
            let edge = [indices[t][k], indices[t][(k + 1) % 3]];
            Err(not_closed(t, edge, reason))
        }
        None => Ok(()),
    }
}

/// The triangles using each vertex, as offsets into one list (compressed rows):
/// vertex `v`'s are `ring[start[v]..start[v + 1]]`, in triangle order.
pub(crate) fn vertex_rings(count: usize, indices: &[[u32; 3]]) -> (Vec<usize>, Vec<u32>) {
    let mut start = vec![0usize; count + 1];
    for &v in indices.iter().flatten() {
        start[v as usize + 1] += 1;
    }
    for v in 0..count {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let mut ring = vec![0u32; indices.len() * 3];
    for (tri, t) in indices.iter().zip(0u32..) {
        for &v in tri {
            ring[fill[v as usize]] = t;
            fill[v as usize] += 1;
        }
    }
    (start, ring)
}
