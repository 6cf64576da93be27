//! Convex polyhedron in 3D, from outward planes or from points (via quickhull).
//!
//! Flat: a hull of coplanar points (within [`crate::algo::hull_3d::HULL_3D_FLAT_ULPS`]
//! of a plane) is a flat polyhedron ([`ConvexPolyhedron::is_flat`]): two faces, the
//! polygon facing each way (their planes the outermost points' offsets, so the
//! polyhedron is a slab as thick as the points' spread), and one side plane per
//! polygon edge in [`ConvexPolyhedron::planes`] after the two faces (perpendicular to
//! the polygon, through the edge), so that containment, ray casts and the plane-based
//! queries see the polygon's outline. Its volume is zero. Every support-map query
//! (GJK, EPA, distances) works on its vertices unchanged.
//!
//! From planes: every vertex is the meeting point of three planes (seed 002) that lies
//! behind all the others; the region must be bounded (checked on the extreme rays of
//! its recession cone, each the cross product of two normals) and solid. From points:
//! the triangles of [`crate::algo::hull_3d::convex_hull_3d`], merged into polygons.
//! Point containment is seed 003's plane test, in [`crate::query::polyhedron_tests`].
//!
//! Tolerance: [`POLYHEDRON_PLANE_ULPS`] machine epsilons of the largest coordinate,
//! for "this vertex is on that plane".

use super::error::{check_coord_list, ShapeError};
use super::plane::Plane;
use crate::algo::hull_2d::convex_hull_2d_indices;
use crate::algo::hull_3d::{accurate_cross, convex_hull_3d_linked, HULL_3D_FLAT_ULPS};
use crate::algo::support::{PointBlocks, SupportMap};
use crate::math::tolerance::eps;
use crate::math::{Real, Vector, Vector2, Vector3};
use crate::query::plane_tests::three_planes_point;
use std::sync::OnceLock;

/// On-plane tolerance, in machine epsilons of the polyhedron's largest absolute
/// coordinate (or plane offset): vertices closer than this to a plane lie on it.
pub const POLYHEDRON_PLANE_ULPS: f64 = 64.0;

/// A face: its outward plane and its vertices, counter-clockwise seen from outside.
#[derive(Clone, Debug, PartialEq)]
pub struct PolyhedronFace<R: Real> {
    plane: Plane<R::V3>,
    vertices: Vec<usize>,
}

impl<R: Real> PolyhedronFace<R> {
    /// The face's plane; its unit normal points out of the polyhedron.
    #[inline]
    pub fn plane(&self) -> &Plane<R::V3> {
        &self.plane
    }

    /// Outward unit normal.
    #[inline]
    pub fn normal(&self) -> R::V3 {
        self.plane.normal()
    }

    /// Indices into [`ConvexPolyhedron::vertices`], counter-clockwise from outside.
    #[inline]
    pub fn vertex_indices(&self) -> &[usize] {
        &self.vertices
    }
}

/// An edge of a polyhedron: its end vertices and the two planes (of
/// [`ConvexPolyhedron::planes`]) that meet at it, in the order the SAT's edge tests
/// use (see [`ConvexPolyhedron::edges`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PolyhedronEdge {
    /// The end vertices (indices into [`ConvexPolyhedron::vertices`]).
    pub vertices: [u32; 2],
    /// The planes meeting at the edge (indices into [`ConvexPolyhedron::planes`]):
    /// the earlier face first.
    pub planes: [u32; 2],
}

/// A bounded convex polyhedron: solid (at least four non-coplanar vertices), or flat
/// (a convex polygon in 3D, from coplanar points; see the module documentation).
/// Closed: its boundary belongs to it.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexPolyhedron<R: Real> {
    vertices: Vec<R::V3>,
    /// The vertices again, in blocks of four stored coordinate by coordinate, for
    /// the support map (see [`PointBlocks`]).
    blocks: PointBlocks<R::V3>,
    faces: Vec<PolyhedronFace<R>>,
    planes: Vec<Plane<R::V3>>,
    flat: bool,
    /// Built once, on first use: the manifold's edge–edge tests read it on every
    /// call, and shapes that never meet a polyhedron need not pay for it.
    edge_graph: EdgeCache,
}

/// The lazily built [`EdgeGraph`]. Equal to any other: it follows from the faces,
/// so whether it is built yet must not make two equal polyhedra differ. Boxed: the
/// polyhedron stays small (it is a variant of the shape enums), and the graph is
/// fetched once per query.
#[derive(Clone, Debug, Default)]
struct EdgeCache(OnceLock<Box<EdgeGraph>>);

impl PartialEq for EdgeCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// The edges of a polyhedron and the edges at each vertex.
#[derive(Clone, Debug, PartialEq)]
struct EdgeGraph {
    edges: Vec<PolyhedronEdge>,
    /// Those of vertex `v` are `vertex_edges[vertex_edge_start[v]..vertex_edge_start[v
    /// + 1]]` (solid only).
    vertex_edge_start: Vec<u32>,
    vertex_edges: Vec<u32>,
    /// Each entry of `vertex_edges` with its edge's other end and planes: a walk
    /// around a vertex reads one record per edge, not the edge list.
    vertex_arcs: Vec<VertexArc>,
}

/// An edge seen from one of its ends (see [`EdgeGraphView::vertex_arcs`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct VertexArc {
    /// The edge (an index into [`ConvexPolyhedron::edges`]).
    pub edge: u32,
    /// The edge's other end.
    pub other: u32,
    /// The edge's planes, as [`PolyhedronEdge::planes`].
    pub planes: [u32; 2],
}

/// A polyhedron's edge graph, fetched once ([`ConvexPolyhedron::edge_graph_view`]):
/// the lists are built lazily behind a lock, and a query that reads them in a loop
/// should not pass the lock on every read.
#[derive(Copy, Clone, Debug)]
pub struct EdgeGraphView<'a> {
    /// The edges, as [`ConvexPolyhedron::edges`].
    pub edges: &'a [PolyhedronEdge],
    start: &'a [u32],
    ids: &'a [u32],
    arcs: &'a [VertexArc],
}

impl<'a> EdgeGraphView<'a> {
    /// The indices (into [`Self::edges`]) of the edges at vertex `v`; empty for a
    /// flat polyhedron.
    #[inline]
    pub fn vertex_edges(&self, v: usize) -> &'a [u32] {
        match self.start.get(v..v + 2) {
            Some(&[start, end]) => &self.ids[start as usize..end as usize],
            _ => &[],
        }
    }

    /// The edges at vertex `v` as [`VertexArc`]s, in the order of
    /// [`Self::vertex_edges`]`(v)`; empty for a flat polyhedron.
    #[inline]
    pub fn vertex_arcs(&self, v: usize) -> &'a [VertexArc] {
        match self.start.get(v..v + 2) {
            Some(&[start, end]) => &self.arcs[start as usize..end as usize],
            _ => &[],
        }
    }
}

fn degenerate(reason: &'static str) -> ShapeError {
    ShapeError::Degenerate {
        shape: "ConvexPolyhedron",
        reason,
    }
}

impl<R: Real> ConvexPolyhedron<R> {
    /// The intersection of the half-spaces behind `planes` (normals point out).
    /// Redundant planes (touching in an edge, a vertex or not at all) are dropped.
    /// O(n⁴) in the number of planes.
    ///
    /// # Errors
    /// [`ShapeError::TooLarge`] when a vertex lies beyond [`Real::MAX_COORD`];
    /// [`ShapeError::TooFewPoints`] for fewer than 4 planes; [`ShapeError::Degenerate`]
    /// when the region is unbounded, empty, or flat. "Unbounded" uses the on-plane
    /// tolerance on unit normals, so a region more than about
    /// `1 / (POLYHEDRON_PLANE_ULPS · ε)` times longer than it is wide (≈ 1.3e5 in `f32`)
    /// is refused as unbounded too.
    pub fn from_planes(planes: &[Plane<R::V3>]) -> Result<Self, ShapeError> {
        if planes.len() < 4 {
            return Err(ShapeError::TooFewPoints {
                shape: "ConvexPolyhedron",
                needed: 4,
                got: planes.len(),
            });
        }
        if is_unbounded(planes) {
            return Err(degenerate("planes bound an unbounded region"));
        }
        let max_d = planes.iter().fold(R::ZERO, |m, p| m.max(p.d().abs()));
        let vertices = plane_vertices(planes, max_d);
        if vertices.len() < 4 {
            return Err(degenerate("planes bound an empty or flat region"));
        }
        check_coord_list("ConvexPolyhedron", "vertices", &vertices)?;
        let tol = eps::<R>(POLYHEDRON_PLANE_ULPS) * (max_d + max_coordinate(&vertices));
        let candidates = planes
            .iter()
            .map(|&plane| {
                let on = (0..vertices.len())
                    .filter(|&i| plane.signed_distance(vertices[i]).abs() <= tol)
                    .collect();
                (plane, on)
            })
            .collect();
        Self::from_candidate_faces(vertices, candidates)
    }

    /// The convex hull of `points` (exact quickhull, [`crate::algo::hull_3d::convex_hull_3d`]); coplanar
    /// triangles (edge-connected, facing the same way, within [`POLYHEDRON_PLANE_ULPS`]
    /// of one plane) become one face. Coplanar input gives a flat polyhedron.
    /// O(n log n) expected.
    ///
    /// # Errors
    /// [`ShapeError::TooLarge`] for a coordinate beyond [`Real::MAX_COORD`]; as
    /// [`crate::algo::hull_3d::convex_hull_3d`]: NaN points, or all points within its
    /// flatness tolerance of one line (`TooFewPoints`, `got` 0 to 2); `Degenerate` if
    /// the merged faces cannot bound a solid (not seen).
    pub fn from_points(points: &[R::V3]) -> Result<Self, ShapeError> {
        check_coord_list("ConvexPolyhedron", "points", points)?;
        let (hull, adjacent) = convex_hull_3d_linked(points)?;
        if let Some(normal) = hull.flat_normal {
            return Self::flat(hull.vertices, normal);
        }
        let tol = eps::<R>(POLYHEDRON_PLANE_ULPS) * max_coordinate(&hull.vertices);
        let (patches, members) = coplanar_patches(&hull.vertices, &hull.triangles, &adjacent, tol);
        let mut faces = Vec::with_capacity(patches.len());
        for (plane, range) in patches {
            let patch = &members[range];
            let polygon = patch_outline(&hull.triangles, patch).or_else(|| {
                let mut on: Vec<usize> = patch.iter().flat_map(|&t| hull.triangles[t]).collect();
                on.sort_unstable();
                on.dedup();
                face_polygon::<R>(&hull.vertices, &on, plane.normal())
            });
            if let Some(polygon) = polygon {
                faces.push(PolyhedronFace {
                    plane,
                    vertices: polygon,
                });
            }
        }
        drop_straight_vertices(&hull.vertices, &mut faces, tol);
        Self::from_faces(hull.vertices, faces)
    }

    /// The flat polyhedron of the convex polygon `ring` (counter-clockwise around the
    /// unit `normal`): two faces and one side plane per edge, each plane's offset the
    /// largest over the ring's vertices near it (the ring is only flat within the
    /// hull's flatness tolerance).
    fn flat(ring: Vec<R::V3>, normal: R::V3) -> Result<Self, ShapeError> {
        let k = ring.len();
        let offset = |n: R::V3, ids: &mut dyn Iterator<Item = usize>| {
            ids.fold(R::NEG_INFINITY, |m, i| m.max(n.dot(ring[i])))
        };
        let top = Plane::new(normal, offset(normal, &mut (0..k)))?;
        let bottom = Plane::new(-normal, offset(-normal, &mut (0..k)))?;
        let mut planes = vec![top, bottom];
        for j in 0..k {
            let edge = ring[(j + 1) % k] - ring[j];
            let side = edge
                .cross(normal)
                .try_normalize()
                .ok_or(degenerate("flat polyhedron edge without a direction"))?;
            // The edge's ends and their neighbours: the side normal of a short edge
            // is rounded, and the plane must keep the vertices next to it behind it.
            let near = &mut [j + k - 1, j, j + 1, j + 2].into_iter().map(|i| i % k);
            planes.push(Plane::new(side, offset(side, near))?);
        }
        let faces = vec![
            PolyhedronFace {
                plane: top,
                vertices: (0..k).collect(),
            },
            PolyhedronFace {
                plane: bottom,
                vertices: (0..k).rev().collect(),
            },
        ];
        Ok(Self {
            blocks: PointBlocks::new(&ring),
            vertices: ring,
            faces,
            planes,
            flat: true,
            edge_graph: EdgeCache::default(),
        })
    }

    /// True for a flat polyhedron (from coplanar points): two opposite faces, and side
    /// planes after them in [`Self::planes`].
    #[inline]
    pub fn is_flat(&self) -> bool {
        self.flat
    }

    /// Builds the faces from candidate `(plane, vertices on it)` pairs: each with at
    /// least three non-collinear vertices becomes the convex polygon of those vertices,
    /// unless an earlier face with the same orientation already holds them all; then
    /// drops vertices that are no face polygon's corner.
    fn from_candidate_faces(
        vertices: Vec<R::V3>,
        candidates: Vec<(Plane<R::V3>, Vec<usize>)>,
    ) -> Result<Self, ShapeError> {
        let mut faces: Vec<PolyhedronFace<R>> = Vec::new();
        // The vertex sets of the accepted faces, to recognise repeated planes.
        let mut face_sets: Vec<Vec<usize>> = Vec::new();
        for (plane, on) in candidates {
            let duplicate = faces.iter().zip(&face_sets).any(|(f, set)| {
                f.normal().dot(plane.normal()) > R::ZERO && on.iter().all(|i| set.contains(i))
            });
            if on.len() < 3 || duplicate {
                continue;
            }
            if let Some(polygon) = face_polygon::<R>(&vertices, &on, plane.normal()) {
                faces.push(PolyhedronFace {
                    plane,
                    vertices: polygon,
                });
                face_sets.push(on);
            }
        }
        Self::from_faces(vertices, faces)
    }

    /// A solid polyhedron from its faces: at least four; drops unused vertices.
    fn from_faces(
        vertices: Vec<R::V3>,
        mut faces: Vec<PolyhedronFace<R>>,
    ) -> Result<Self, ShapeError> {
        if faces.len() < 4 {
            return Err(degenerate("fewer than four faces"));
        }
        let vertices = compact(vertices, &mut faces);
        let planes = faces.iter().map(|f| f.plane).collect();
        Ok(Self {
            blocks: PointBlocks::new(&vertices),
            vertices,
            faces,
            planes,
            flat: false,
            edge_graph: EdgeCache::default(),
        })
    }

    /// The vertices.
    #[inline]
    pub fn vertices(&self) -> &[R::V3] {
        &self.vertices
    }

    /// The faces, each with its outward unit normal.
    #[inline]
    pub fn faces(&self) -> &[PolyhedronFace<R>] {
        &self.faces
    }

    /// The outward face planes, in face order; for a flat polyhedron followed by its
    /// side planes (one per edge of its first face, in order).
    #[inline]
    pub fn planes(&self) -> &[Plane<R::V3>] {
        &self.planes
    }

    /// The edges, each once. Solid: its vertices in increasing order, its planes the
    /// two faces that share it (the earlier face first), listed in the order in which
    /// the faces' outlines close them (face by face, an edge where its second face
    /// walks it). Flat: two entries per edge of the first face, in order, the quarter
    /// arcs of its Gauss map: from the top face to the edge's side plane, then from
    /// there to the bottom face (the half circle between the faces is ambiguous).
    #[inline]
    pub fn edges(&self) -> &[PolyhedronEdge] {
        &self.edge_graph().edges
    }

    /// The indices (into [`Self::edges`]) of the edges at vertex `v`; empty for a flat
    /// polyhedron.
    #[inline]
    pub fn vertex_edges(&self, v: usize) -> &[u32] {
        self.edge_graph_view().vertex_edges(v)
    }

    /// The edges and the edges at each vertex, built on first use and fetched once.
    #[inline]
    pub fn edge_graph_view(&self) -> EdgeGraphView<'_> {
        let g = self.edge_graph();
        EdgeGraphView {
            edges: &g.edges,
            start: &g.vertex_edge_start,
            ids: &g.vertex_edges,
            arcs: &g.vertex_arcs,
        }
    }

    /// The edge graph, built on first use.
    fn edge_graph(&self) -> &EdgeGraph {
        self.edge_graph.0.get_or_init(|| {
            if self.flat {
                let k = self.faces[0].vertices.len();
                return Box::new(EdgeGraph {
                    edges: flat_edges(k),
                    vertex_edge_start: Vec::new(),
                    vertex_edges: Vec::new(),
                    vertex_arcs: Vec::new(),
                });
            }
            let edges = solid_edges(&self.faces, self.vertices.len());
            let (vertex_edge_start, vertex_edges) = edges_by_vertex(self.vertices.len(), &edges);
            let vertex_arcs = arcs_by_vertex(&vertex_edge_start, &vertex_edges, &edges);
            Box::new(EdgeGraph {
                edges,
                vertex_edge_start,
                vertex_edges,
                vertex_arcs,
            })
        })
    }

    /// Point in polyhedron (seed 003): outside iff `(P − Pᵢ)·Nᵢ > 0` for some face,
    /// beyond a slack of [`POLYHEDRON_PLANE_ULPS`] epsilons of the largest coordinate
    /// (of the vertices or `p`), so that the vertices, whose face planes are rounded,
    /// count as inside. A flat polyhedron holds the points within its flatness
    /// tolerance of its plane (twice [`HULL_3D_FLAT_ULPS`], the plane itself being
    /// one of the input's planes through three extreme points), so that it contains
    /// every point it was built from. The boundary is inside; NaN is outside.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // The tetrahedron x, y, z ≥ 0, x + y + z ≤ 1.
    /// let tet = ConvexPolyhedron::from_points(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z])?;
    /// assert!(tet.contains_point(Vec3::splat(0.25)));
    /// assert!(!tet.contains_point(Vec3::splat(0.4))); // x + y + z = 1.2
    /// # Ok(())
    /// # }
    /// ```
    pub fn contains_point(&self, p: R::V3) -> bool {
        let scale = max_coordinate(&self.vertices).max(p.abs().max_element());
        let ulps = if self.flat {
            2.0 * HULL_3D_FLAT_ULPS
        } else {
            POLYHEDRON_PLANE_ULPS
        };
        let slack = eps::<R>(ulps) * scale;
        self.planes.iter().all(|pl| pl.signed_distance(p) <= slack)
    }

    /// The largest signed distance of `p` to a face plane: ≤ 0 inside, the distance
    /// to the surface for points beyond one face.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let corners: Vec<Vec3> = (0..8)
    ///     .map(|i| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32))
    ///     .collect();
    /// let cube = ConvexPolyhedron::from_points(&corners)?;
    /// assert!((cube.max_face_distance(Vec3::new(0.5, 3.0, 0.5)) - 2.0).abs() < 1e-6);
    /// assert!((cube.max_face_distance(Vec3::splat(0.5)) + 0.5).abs() < 1e-6); // inside
    /// # Ok(())
    /// # }
    /// ```
    pub fn max_face_distance(&self, p: R::V3) -> R {
        self.planes
            .iter()
            .fold(R::NEG_INFINITY, |m, pl| m.max(pl.signed_distance(p)))
    }

    /// Volume, by the divergence theorem over fan-triangulated faces; zero when flat.
    pub fn volume(&self) -> R {
        if self.flat {
            return R::ZERO;
        }
        let origin = self.vertices[0];
        let mut six_v = R::ZERO;
        for f in &self.faces {
            let v = &f.vertices;
            for k in 1..v.len() - 1 {
                let [a, b, c] = [v[0], v[k], v[k + 1]].map(|i| self.vertices[i] - origin);
                six_v += a.dot(b.cross(c));
            }
        }
        six_v / R::from_f64(6.0)
    }
}

/// True when some direction `d ≠ 0` has `nᵢ · d ≤ 0` for every plane: the region
/// recedes along it forever. Such extreme rays are cross products of two normals.
fn is_unbounded<V: Vector3>(planes: &[Plane<V>]) -> bool {
    let tol = eps::<V::Scalar>(POLYHEDRON_PLANE_ULPS);
    let recedes = |d: V| planes.iter().all(|p| p.normal().dot(d) <= tol);
    for (i, a) in planes.iter().enumerate() {
        for b in &planes[i + 1..] {
            if let Some(d) = a.normal().cross(b.normal()).try_normalize() {
                if recedes(d) || recedes(-d) {
                    return true;
                }
            }
        }
    }
    false
}

/// Groups hull triangles into flat patches: starting from the largest unassigned
/// triangle (its normal is the most accurate), flood across edges to neighbours that
/// face the same way (positive dot product of the normals) and whose vertices are
/// within `tol` of its plane. Returns each patch's plane and triangles. Only
/// edge-connected triangles merge, so a vertex that merely lies near the plane of a
/// distant face never joins it; the facing rule keeps the top and bottom of a very
/// thin hull apart (merging them lost the vertex 4e5 above a nearly flat bottom,
/// `fuzz_artifacts::hull_5ea869e6`).
fn coplanar_patches<V: Vector3>(
    vertices: &[V],
    triangles: &[[usize; 3]],
    adjacent: &[[usize; 3]],
    tol: V::Scalar,
) -> PlanePatches<V> {
    let corners = |t: usize| triangles[t].map(|i| vertices[i]);
    let near = |plane: &Plane<V>, n: usize| {
        triangles[n]
            .iter()
            .all(|&i| plane.signed_distance(vertices[i]).abs() <= tol)
    };
    // In the hull's order (neighbours mostly close in memory): each triangle's area,
    // plane, and which neighbours are near that plane. A seed with none is a patch of
    // one, found without touching its neighbours again (most triangles of a curved
    // hull).
    let mut order: Vec<(f64, usize, Option<Plane<V>>, u8)> = (0..triangles.len())
        .map(|t| {
            let [a, b, c] = corners(t);
            let area = (b - a).cross(c - a).length().to_f64();
            let plane = triangle_plane([a, b, c]).ok();
            let mask = plane.map_or(0, |pl| {
                (0..3).fold(0u8, |m, k| m | (u8::from(near(&pl, adjacent[t][k])) << k))
            });
            (area, t, plane, mask)
        })
        .collect();
    // Largest area first (areas are not negative: their bits sort as they do), then
    // the lower index.
    order.sort_unstable_by_key(|x| (!x.0.to_bits(), x.1));
    let mut assigned = vec![false; triangles.len()];
    let mut patches = Vec::new();
    let mut members = Vec::with_capacity(triangles.len());
    let mut stack = Vec::new();
    for (_, seed, plane, mask) in order {
        if assigned[seed] {
            continue;
        }
        let Some(plane) = plane else {
            continue; // a sliver: its neighbours' patches cover its corners
        };
        assigned[seed] = true;
        let first = members.len();
        members.push(seed);
        if mask != 0 {
            stack.push(seed);
        }
        while let Some(t) = stack.pop() {
            for (k, n) in adjacent[t].into_iter().enumerate() {
                if assigned[n] {
                    continue;
                }
                let is_near = if t == seed {
                    mask & (1 << k) != 0
                } else {
                    near(&plane, n)
                };
                let flat = is_near && {
                    let [a, b, c] = corners(n);
                    accurate_cross(a, b, c).dot(plane.normal()) > V::Scalar::ZERO
                };
                if flat {
                    assigned[n] = true;
                    stack.push(n);
                    members.push(n);
                }
            }
        }
        patches.push((plane, first..members.len()));
    }
    (patches, members)
}

/// Flat patches of hull triangles: each patch's plane and its range in the second
/// vector, the triangles of all patches one after another.
type PlanePatches<V> = (Vec<(Plane<V>, std::ops::Range<usize>)>, Vec<usize>);

/// The boundary of a patch of triangles (counter-clockwise from outside, as they
/// are) as one loop of vertex indices, or `None` when it is not one simple loop. The
/// faces of neighbouring patches then share their boundary vertices, so the polygon
/// faces close up (no T-junction) and `V − E + F = 2`.
fn patch_outline(triangles: &[[usize; 3]], patch: &[usize]) -> Option<Vec<usize>> {
    if let [t] = patch {
        return Some(triangles[*t].to_vec());
    }
    // Sorted edge lists, not hash sets: patches are small and many (a sphere's hull
    // in `f32` merges tens of thousands), and sorting allocates once and hashes nothing.
    let mut edges: Vec<(usize, usize)> = patch
        .iter()
        .flat_map(|&t| (0..3).map(move |k| (triangles[t][k], triangles[t][(k + 1) % 3])))
        .collect();
    edges.sort_unstable();
    edges.dedup();
    // The boundary: edges whose reverse is not in the patch, sorted by their start.
    let boundary: Vec<(usize, usize)> = edges
        .iter()
        .copied()
        .filter(|&(a, b)| edges.binary_search(&(b, a)).is_err())
        .collect();
    if boundary.windows(2).any(|w| w[0].0 == w[1].0) {
        return None; // a vertex where the boundary pinches
    }
    let next = |a: usize| {
        let i = boundary.binary_search_by_key(&a, |e| e.0).ok()?;
        Some(boundary[i].1)
    };
    let start = boundary.first()?.0;
    let mut outline = vec![start];
    let mut at = next(start)?;
    while at != start {
        if outline.len() == boundary.len() {
            return None; // more than one loop
        }
        outline.push(at);
        at = next(at)?;
    }
    (outline.len() == boundary.len()).then_some(outline)
}

/// Drops the vertices that are straight (within `tol`, the faces' on-plane
/// tolerance, of the line through their neighbours, between them) in every face that
/// uses them: points on an edge of the hull, kept by the exact hull when they were
/// added before the corners that make them collinear. Dropped from every face at
/// once, so the faces still close up.
fn drop_straight_vertices<R: Real>(vertices: &[R::V3], faces: &mut Vec<PolyhedronFace<R>>, tol: R) {
    let mut corner = vec![false; vertices.len()];
    for f in faces.iter() {
        let ids = &f.vertices;
        let k = ids.len();
        for j in 0..k {
            let [a, b, c] = [ids[(j + k - 1) % k], ids[j], ids[(j + 1) % k]].map(|i| vertices[i]);
            let (u, w, chord) = (b - a, c - b, c - a);
            let straight = u.dot(w) > R::ZERO && u.cross(chord).length() <= tol * chord.length();
            corner[ids[j]] |= !straight;
        }
    }
    for f in faces.iter_mut() {
        f.vertices.retain(|&i| corner[i]);
    }
    faces.retain(|f| f.vertices.len() >= 3);
}

/// The plane of a triangle through the corner opposite its longest edge, its normal
/// [`accurate_cross`]: for a sliver with one very short edge, the rounded cross product
/// of the two long, almost parallel edges would cancel (a 2.7e-11 edge beside two 100
/// long edges put a hull vertex 3e-5 outside the plane,
/// `tests/regressions/polyhedron_sliver_loses_point.rs`), and for a needle (three
/// points near one line) any rounded cross product tilts
/// (`tests/regressions/hull_sliver_face_normal.rs`).
fn triangle_plane<V: Vector3>([a, b, c]: [V; 3]) -> Result<Plane<V>, ShapeError> {
    let opposite = [b.distance(c), c.distance(a), a.distance(b)];
    let corner = if opposite[1] > opposite[0] && opposite[1] >= opposite[2] {
        b
    } else if opposite[2] > opposite[0] && opposite[2] > opposite[1] {
        c
    } else {
        a
    };
    // Needles (three points near one line) need the accurate cross product.
    Plane::from_point_normal(corner, accurate_cross(a, b, c))
}

/// The largest absolute coordinate of the points: the scale of their rounding errors.
fn max_coordinate<V: Vector>(points: &[V]) -> V::Scalar {
    points
        .iter()
        .fold(V::Scalar::ZERO, |m, p| m.max(p.abs().max_element()))
}

/// Meeting points of plane triples that lie behind every plane (within the rounding
/// of `|p| + max_d`), without duplicates.
fn plane_vertices<V: Vector3>(planes: &[Plane<V>], max_d: V::Scalar) -> Vec<V> {
    let n = planes.len();
    let mut out: Vec<V> = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let Some(p) = three_planes_point(&planes[i], &planes[j], &planes[k]) else {
                    continue;
                };
                let tol = eps::<V::Scalar>(POLYHEDRON_PLANE_ULPS) * (max_d + p.abs().max_element());
                let inside = planes.iter().all(|pl| pl.signed_distance(p) <= tol);
                if inside && !out.iter().any(|&q| q.distance(p) <= tol) {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// The extreme vertices among those `on` a face, counter-clockwise seen from the
/// side `normal` points to, or `None` when they are collinear (the plane only touches
/// an edge). Uses the 2D monotone chain in the plane, so vertices that quickhull kept
/// inside a face or on an edge (coplanar input) are dropped.
fn face_polygon<R: Real>(vertices: &[R::V3], on: &[usize], normal: R::V3) -> Option<Vec<usize>> {
    let (e1, e2) = normal.orthonormal_basis();
    let origin = vertices[on[0]];
    let project = |i: usize| {
        let w = vertices[i] - origin;
        R::V2::new(w.dot(e1), w.dot(e2))
    };
    let projected: Vec<R::V2> = on.iter().map(|&i| project(i)).collect();
    let hull = convex_hull_2d_indices(&projected).ok()?;
    Some(hull.into_iter().map(|k| on[k]).collect())
}

/// The edges of a solid's faces, each once (see [`ConvexPolyhedron::edges`]). The
/// half-edges are bucketed by their lower vertex (a counting sort: linear, one pass,
/// no hashing) and paired within the bucket, a few per vertex. An edge walked by more
/// than two faces (not seen) pairs its walks in face order.
fn solid_edges<R: Real>(faces: &[PolyhedronFace<R>], vertex_count: usize) -> Vec<PolyhedronEdge> {
    // Half-edges in face order: (lower vertex, upper vertex, face).
    let mut halves: Vec<[u32; 3]> = Vec::new();
    for (f, face) in faces.iter().enumerate() {
        let ids = &face.vertices;
        for k in 0..ids.len() {
            let (a, b) = (ids[k] as u32, ids[(k + 1) % ids.len()] as u32);
            halves.push([a.min(b), a.max(b), f as u32]);
        }
    }
    let (start, by_lower) = bucket_by(vertex_count, halves.iter().map(|h| h[0]));
    let mut partner = vec![u32::MAX; halves.len()];
    for v in 0..vertex_count {
        let bucket = &by_lower[start[v] as usize..start[v + 1] as usize];
        for (k, &h) in bucket.iter().enumerate() {
            if partner[h as usize] != u32::MAX {
                continue;
            }
            let upper = halves[h as usize][1];
            let twin = bucket[k + 1..]
                .iter()
                .copied()
                .find(|&g| partner[g as usize] == u32::MAX && halves[g as usize][1] == upper);
            if let Some(g) = twin {
                partner[h as usize] = g;
                partner[g as usize] = h;
            }
        }
    }
    // Each edge where its second walk comes: the order of the edge ids before.
    (0..halves.len())
        .filter(|&h| partner[h] < h as u32)
        .map(|h| {
            let [lower, upper, face] = halves[h];
            PolyhedronEdge {
                vertices: [lower, upper],
                planes: [halves[partner[h] as usize][2], face],
            }
        })
        .collect()
}

/// The quarter-arc edges of a flat polyhedron whose ring has `k` vertices (see
/// [`ConvexPolyhedron::edges`]): plane 0 the top face, 1 the bottom, `2 + j` the
/// side of ring edge `j`.
fn flat_edges(k: usize) -> Vec<PolyhedronEdge> {
    (0..k)
        .flat_map(|j| {
            let vertices = [j as u32, ((j + 1) % k) as u32];
            let side = (2 + j) as u32;
            [
                PolyhedronEdge {
                    vertices,
                    planes: [0, side],
                },
                PolyhedronEdge {
                    vertices,
                    planes: [side, 1],
                },
            ]
        })
        .collect()
}

/// The edges at each vertex, as `(start, ids)`: vertex `v`'s are
/// `ids[start[v]..start[v + 1]]`.
fn edges_by_vertex(vertex_count: usize, edges: &[PolyhedronEdge]) -> (Vec<u32>, Vec<u32>) {
    let (start, ends) = bucket_by(vertex_count, edges.iter().flat_map(|e| e.vertices));
    // `ends` numbers edge ends, two per edge.
    (start, ends.into_iter().map(|k| k / 2).collect())
}

/// Each entry of the per-vertex edge lists `(start, ids)` as a [`VertexArc`].
fn arcs_by_vertex(start: &[u32], ids: &[u32], edges: &[PolyhedronEdge]) -> Vec<VertexArc> {
    let mut out = Vec::with_capacity(ids.len());
    for v in 0..start.len().saturating_sub(1) {
        for &j in &ids[start[v] as usize..start[v + 1] as usize] {
            let e = &edges[j as usize];
            let [u, w] = e.vertices;
            out.push(VertexArc {
                edge: j,
                other: if u == v as u32 { w } else { u },
                planes: e.planes,
            });
        }
    }
    out
}

/// A counting sort of item numbers by `keys` (each below `bucket_count`): returns
/// `(start, items)`, bucket `b` being `items[start[b]..start[b + 1]]`, each bucket in
/// item order.
fn bucket_by(bucket_count: usize, keys: impl Iterator<Item = u32> + Clone) -> (Vec<u32>, Vec<u32>) {
    let mut start = vec![0u32; bucket_count + 1];
    for k in keys.clone() {
        start[k as usize + 1] += 1;
    }
    for b in 0..bucket_count {
        start[b + 1] += start[b];
    }
    let mut fill = start.clone();
    let mut items = vec![0u32; start[bucket_count] as usize];
    for (item, k) in keys.enumerate() {
        items[fill[k as usize] as usize] = item as u32;
        fill[k as usize] += 1;
    }
    (start, items)
}

/// Drops the vertices no face uses and renumbers the faces' indices.
fn compact<R: Real>(vertices: Vec<R::V3>, faces: &mut [PolyhedronFace<R>]) -> Vec<R::V3> {
    let mut remap = vec![usize::MAX; vertices.len()];
    let mut kept = Vec::new();
    for face in faces.iter_mut() {
        for i in face.vertices.iter_mut() {
            if remap[*i] == usize::MAX {
                remap[*i] = kept.len();
                kept.push(vertices[*i]);
            }
            *i = remap[*i];
        }
    }
    kept
}

impl<R: Real> ConvexPolyhedron<R> {
    /// The index of the vertex farthest along `dir` (the first of ties; the first
    /// vertex for a zero or NaN `dir`).
    #[inline]
    pub fn support_index(&self, dir: R::V3) -> usize {
        self.blocks.support_index(dir)
    }
}

impl<R: Real> SupportMap<R::V3> for ConvexPolyhedron<R> {
    /// The vertex farthest along `dir` (the first of ties; the first vertex for a
    /// zero or NaN `dir`), by the blocked scan of [`PointBlocks::support_index`].
    #[inline]
    fn local_support(&self, dir: R::V3) -> R::V3 {
        self.vertices[self.blocks.support_index(dir)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;
    use std::collections::BTreeMap;

    /// Each face's outline edges, by unordered vertex pair: the faces that walk it.
    fn face_edges(h: &ConvexPolyhedron<f64>) -> BTreeMap<(u32, u32), Vec<u32>> {
        let mut map: BTreeMap<(u32, u32), Vec<u32>> = BTreeMap::new();
        for (f, face) in h.faces().iter().enumerate() {
            let ids = face.vertex_indices();
            for k in 0..ids.len() {
                let (a, b) = (ids[k] as u32, ids[(k + 1) % ids.len()] as u32);
                map.entry((a.min(b), a.max(b))).or_default().push(f as u32);
            }
        }
        map
    }

    /// The stored edges of a solid are its faces' edges, each once, with the two
    /// faces that share it (earlier first); each vertex lists exactly its edges.
    fn check_solid_edges(h: &ConvexPolyhedron<f64>) {
        let expected = face_edges(h);
        assert_eq!(h.edges().len(), expected.len());
        for (i, e) in h.edges().iter().enumerate() {
            let [u, v] = e.vertices;
            assert!(u < v, "edge {i}");
            assert_eq!(expected[&(u, v)], e.planes.to_vec(), "edge {i}");
            for (w, other) in [(u, v), (v, u)] {
                let view = h.edge_graph_view();
                let k = view
                    .vertex_edges(w as usize)
                    .iter()
                    .position(|&j| j == i as u32);
                let arc = view.vertex_arcs(w as usize)[k.unwrap()];
                assert_eq!(
                    (arc.edge, arc.other, arc.planes),
                    (i as u32, other, e.planes)
                );
            }
        }
        let listed: usize = (0..h.vertices().len())
            .map(|v| h.vertex_edges(v).len())
            .sum();
        assert_eq!(listed, 2 * h.edges().len());
        // Euler: V − E + F = 2.
        assert_eq!(h.vertices().len() + h.faces().len(), h.edges().len() + 2);
    }

    #[test]
    fn edges_of_cube_and_random_hulls() {
        let corners: Vec<DVec3> = (0..8)
            .map(|i| DVec3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
            .collect();
        let cube = ConvexPolyhedron::from_points(&corners).unwrap();
        let fresh = cube.clone();
        assert_eq!(cube.edges().len(), 12);
        assert_eq!(cube, fresh, "the built edge cache does not change equality");
        check_solid_edges(&cube);
        let mut state = 3u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        for n in [4, 24, 200] {
            let points: Vec<DVec3> = (0..n).map(|_| DVec3::new(next(), next(), next())).collect();
            check_solid_edges(&ConvexPolyhedron::from_points(&points).unwrap());
        }
        let planes: Vec<Plane<DVec3>> = DVec3::AXES
            .iter()
            .flat_map(|&a| [Plane::new(a, 1.0).unwrap(), Plane::new(-a, 1.0).unwrap()])
            .collect();
        check_solid_edges(&ConvexPolyhedron::from_planes(&planes).unwrap());
    }

    // A flat hull lists each ring edge twice: top face to side plane, side plane to
    // bottom face.
    #[test]
    fn edges_of_flat_hull() {
        let square = [DVec3::ZERO, DVec3::X, DVec3::new(1.0, 1.0, 0.0), DVec3::Y];
        let h = ConvexPolyhedron::<f64>::from_points(&square).unwrap();
        assert!(h.is_flat());
        let ring = h.faces()[0].vertex_indices();
        assert_eq!(h.edges().len(), 2 * ring.len());
        for (j, pair) in h.edges().chunks(2).enumerate() {
            let ends = [ring[j] as u32, ring[(j + 1) % ring.len()] as u32];
            let side = (2 + j) as u32;
            assert_eq!(pair[0].vertices, ends);
            assert_eq!(pair[1].vertices, ends);
            assert_eq!(pair[0].planes, [0, side]);
            assert_eq!(pair[1].planes, [side, 1]);
        }
        assert!(h.vertex_edges(0).is_empty());
    }
}
