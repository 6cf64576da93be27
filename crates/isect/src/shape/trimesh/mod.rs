//! [`TriMesh`]: a 3D triangle mesh under its own [`Bvh`], open (a two-sided surface)
//! or solid (a closed, consistently oriented surface enclosing volume).
//!
//! - Ray casts: the tree's near-first walk with a watertight ray–triangle kernel whose
//!   per-ray setup is done once (module `ray`).
//! - Closest point: Ericson 5.1.5 per triangle, nearest triangle by the tree's
//!   branch-and-bound walk ([`closest`]).
//! - Inside test of solid meshes: the sign of `(p − q) · N` where `q` is the closest
//!   point and `N` the angle-weighted pseudo-normal of the feature `q` lies on
//!   (J. A. Bærentzen and H. Aanæs, "Signed distance computation using the angle
//!   weighted pseudonormal", IEEE TVCG 2005): exact for closed, consistently oriented
//!   meshes, whichever face, edge or vertex is nearest, with no ray to graze an edge.
//!   A solid mesh of no volume (within [`VOLUME_ULPS`]) contains only its surface.
//! - Internal edges: see [`internal_edges`].
//! - Topology (edge adjacency, the bend of every edge, the triangles around each
//!   vertex, vertex pseudo-normals): matched by a counting sort of the edges under
//!   their smaller vertex (module `topology`), no hashing. A solid mesh builds it in
//!   the constructor (its closedness check matches the edges anyway, and its inside
//!   test reads it); an open mesh builds it on first use (the first contact with
//!   internal-edge correction, or [`TriMesh::adjacent_triangles`]) through a
//!   [`OnceLock`], so that meshes only cast at or projected onto never pay for it, and
//!   [`TriMesh::prepare_topology`] builds it ahead (say before a frame that must not
//!   stall). Answers are the same either way.
//!
//! Tolerances: those of [`internal_edges`], [`BOX_PADDING_ULPS`] on the tree's boxes
//! (conservative culling) and [`VOLUME_ULPS`] for "no volume"; the rest is exact on
//! the stored floats.

#[cfg(target_arch = "x86_64")]
mod avx;
mod batch;
pub mod closest;
pub mod internal_edges;
pub(crate) mod ray;
mod ray_build;
mod ray_tree;
#[cfg(target_arch = "x86_64")]
mod sse;
mod topology;

use self::closest::{closest_on_triangle, nearest_item, on_surface, Feature};
use self::internal_edges::{classify, correct, correct_at, Bend, EdgeInfo, RingVisitor};
use self::ray::{KernelBounds, ShearedRay};
use self::ray_tree::{Kernels, Leaf, LeafVisit, RayTree, WithKernels};
use self::topology::{check_closed, match_edges, vertex_rings, NO_NEIGHBOUR};
use crate::algo::gjk::GjkVector;
use crate::broad::{lanes, Bvh};
use crate::math::tolerance::eps;
use crate::math::{Isometry, Pose3, Real, Vector, Vector3};
use crate::query::{PointProjection, ProjectPoint, RayCast};
use crate::shape::composite::Composite;
use crate::shape::error::check_coord_list;
use crate::shape::shape_3d::Shape;
use crate::shape::{Aabb, Ray, RayHit, ShapeError, Triangle};
use std::sync::OnceLock;

/// How a [`TriMesh`] is built.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TriMeshFlags {
    /// The mesh encloses volume: it must be closed and consistently oriented with
    /// outward normals (counter-clockwise seen from outside), or the constructor
    /// refuses it. Solid meshes contain points, and rays starting inside hit at
    /// `t = 0`.
    pub solid: bool,
}

impl TriMeshFlags {
    /// An open, two-sided surface.
    pub const OPEN: Self = Self { solid: false };
    /// A closed surface enclosing volume.
    pub const SOLID: Self = Self { solid: true };
}

/// A triangle mesh in 3D, generic over the scalar.
///
/// Built once: validation, face normals and the [`Bvh`] over the triangles; with
/// [`TriMeshFlags::SOLID`] also the closedness check and the topology (edge adjacency
/// and the bend of every edge for internal-edge correction, vertex pseudo-normals for
/// the inside test). An open mesh builds its topology on first use (see
/// [`prepare_topology`](Self::prepare_topology)). Triangle `i` is part `i` of the
/// [`Composite`] impl and item `i` of the tree.
///
/// Edge behaviour: flat (zero-area) triangles are kept; rays never hit them (their
/// edges belong to their neighbours), they still take part in closest points. Edges
/// shared by three or more triangles have no neighbour (they are treated as real
/// edges). Self-intersecting solid meshes are not detected: their inside test answers
/// for the nearest surface.
#[derive(Clone, Debug)]
pub struct TriMesh<R: Real> {
    vertices: Vec<R::V3>,
    indices: Vec<[u32; 3]>,
    /// The three corners of each triangle, copied for the ray kernel.
    corners: Vec<[R::V3; 3]>,
    /// Unit face normals (zero for flat triangles).
    normals: Vec<R::V3>,
    /// Set by the constructor for solid meshes, on first use for open ones.
    topology: OnceLock<Topology<R::V3>>,
    /// The shared tree over the padded triangle boxes (one triangle a leaf) that the
    /// point, shape and composite queries walk: built on first use, so that a mesh
    /// only cast at pays for its ray tree alone.
    bvh: OnceLock<Bvh<R::V3>>,
    /// The tree the ray casts walk: its own build, leaves of four triangles.
    ray_tree: RayTree<R>,
    /// The corners' bounds, which choose the ray kernel's scale ([`ShearedRay::within`]).
    kernel_bounds: KernelBounds<R::V3>,
    aabb: Aabb<R::V3>,
    solid: bool,
    /// False for a solid mesh of no volume (a triangle and its reverse, a flattened
    /// box): it contains only its surface.
    encloses_volume: bool,
}

/// What internal-edge correction, the adjacency query and the inside test read.
#[derive(Clone, Debug)]
struct Topology<V> {
    /// The triangle across each edge, or [`NO_NEIGHBOUR`].
    neighbours: Vec<[u32; 3]>,
    bends: Vec<[Bend; 3]>,
    /// Angle-weighted vertex pseudo-normals (solid meshes only).
    vertex_normals: Vec<V>,
    /// The triangles using each vertex `v`: `ring[ring_start[v]..ring_start[v + 1]]`
    /// (the one-ring of the contact-normal correction).
    ring_start: Vec<usize>,
    ring: Vec<u32>,
}

const SHAPE: &str = "TriMesh";

/// Triangle counts from this on are refused: the tree stores item indices below it.
const MAX_TRIANGLES: usize = (1 << 31) - 1;

impl<R: Real> TriMesh<R> {
    /// The mesh with these vertices and triangles (indices into `vertices`).
    ///
    /// # Errors
    /// - [`ShapeError::Degenerate`]: no triangles, or a solid mesh enclosing negative
    ///   volume (inward normals: reverse its triangles).
    /// - [`ShapeError::NotFiniteAt`]: `vertices[i]` holds NaN or infinity.
    /// - [`ShapeError::TooLarge`]: a coordinate of `vertices[i]` beyond
    ///   [`Real::MAX_COORD`].
    /// - [`ShapeError::IndexOutOfRange`]: triangle `t` refers to a missing vertex.
    /// - [`ShapeError::OutOfRange`]: `2³¹ − 1` triangles or more.
    /// - [`ShapeError::NotClosed`]: `flags.solid` and an edge is a boundary, shared by
    ///   more than two triangles, or run in the same direction by both of its
    ///   triangles, or a triangle repeats a vertex.
    pub fn new(
        vertices: Vec<R::V3>,
        indices: Vec<[u32; 3]>,
        flags: TriMeshFlags,
    ) -> Result<Self, ShapeError> {
        validate(&vertices, &indices)?;
        let edges = flags.solid.then(|| match_edges(vertices.len(), &indices));
        if let Some(edges) = &edges {
            check_closed(SHAPE, &indices, edges)?;
        }
        let corners: Vec<[R::V3; 3]> = indices
            .iter()
            .map(|t| t.map(|i| vertices[i as usize]))
            .collect();
        let volume = if flags.solid {
            signed_volume(&corners)
        } else {
            R::ZERO
        };
        let no_volume = eps::<R>(VOLUME_ULPS) * R::from_f64(corners.len() as f64);
        if volume < -no_volume {
            return Err(ShapeError::Degenerate {
                shape: SHAPE,
                reason: "the solid mesh encloses negative volume (inward normals): reverse its triangles",
            });
        }
        let normals: Vec<R::V3> = corners.iter().map(unit_normal).collect();
        let boxes: Vec<Aabb<R::V3>> = corners.iter().map(triangle_box).collect();
        let aabb = boxes.iter().skip(1).fold(boxes[0], |a, b| a.merged(b));
        let mesh = Self {
            ray_tree: RayTree::new(&corners, &normals),
            kernel_bounds: KernelBounds::new(aabb.min, aabb.max),
            bvh: OnceLock::new(),
            vertices,
            indices,
            corners,
            normals,
            topology: OnceLock::new(),
            aabb,
            solid: flags.solid,
            encloses_volume: flags.solid && volume > no_volume,
        };
        if let Some(edges) = edges {
            // Cannot fail: the lock was made empty just above.
            let _ = mesh.topology.set(mesh.build_topology(edges.neighbours));
        }
        Ok(mesh)
    }

    /// Builds the topology now if it is not built yet (a solid mesh's always is):
    /// edge adjacency, the bend of every edge and the triangles around each vertex,
    /// which the internal-edge correction of contacts and
    /// [`adjacent_triangles`](Self::adjacent_triangles) read. Without this call the
    /// first of those builds it (`O(n log n)` at worst, about as long as the
    /// constructor); answers do not depend on when it is built.
    pub fn prepare_topology(&self) {
        self.topology();
    }

    /// Builds the mesh's shared tree now if it is not built yet: the tree over its
    /// triangles that point projections, distances, contacts and shape casts walk. The
    /// constructor builds only the ray tree (closest, any and all hits, batches), so a
    /// mesh only cast at never pays for the other; without this call the first query
    /// that needs it builds it (about as long as the constructor). Answers do not
    /// depend on when it is built.
    ///
    /// ```
    /// use glam::Vec3;
    /// use isect::shape::{TriMesh, TriMeshFlags};
    ///
    /// let v = vec![Vec3::ZERO, Vec3::X, Vec3::Y];
    /// let mesh = TriMesh::<f32>::new(v, vec![[0, 1, 2]], TriMeshFlags::OPEN)?;
    /// mesh.prepare_bvh(); // e.g. before a real-time loop's first contact
    /// # Ok::<(), isect::ShapeError>(())
    /// ```
    pub fn prepare_bvh(&self) {
        self.shared_bvh();
    }

    /// The shared tree, built on first use.
    fn shared_bvh(&self) -> &Bvh<R::V3> {
        self.bvh
            .get_or_init(|| Bvh::build(&padded_boxes(&self.corners)))
    }

    /// The topology, built on first use.
    fn topology(&self) -> &Topology<R::V3> {
        self.topology.get_or_init(|| {
            let edges = match_edges(self.vertices.len(), &self.indices);
            self.build_topology(edges.neighbours)
        })
    }

    /// The topology over the matched edges.
    fn build_topology(&self, neighbours: Vec<[u32; 3]>) -> Topology<R::V3> {
        let (corners, normals) = (&self.corners, &self.normals);
        let count = self.vertices.len();
        let vertex_normals = match self.solid {
            true => vertex_pseudo_normals(count, &self.indices, corners, normals),
            false => Vec::new(),
        };
        let (ring_start, ring) = vertex_rings(count, &self.indices);
        Topology {
            bends: edge_bends(corners, normals, &neighbours),
            neighbours,
            vertex_normals,
            ring_start,
            ring,
        }
    }

    /// The vertices.
    pub fn vertices(&self) -> &[R::V3] {
        &self.vertices
    }

    /// The triangles, as indices into [`vertices`](Self::vertices).
    pub fn indices(&self) -> &[[u32; 3]] {
        &self.indices
    }

    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.indices.len()
    }

    /// Triangle `i`, or `None` past the end.
    pub fn triangle(&self, i: usize) -> Option<Triangle<R::V3>> {
        self.corners.get(i).map(|&[a, b, c]| Triangle { a, b, c })
    }

    /// The unit normal of triangle `i` (by the right-hand rule over its corners; zero
    /// for a flat triangle), or `None` past the end.
    pub fn face_normal(&self, i: usize) -> Option<R::V3> {
        self.normals.get(i).copied()
    }

    /// The triangles across the three edges of triangle `i` (edge `k` runs from corner
    /// `k` to corner `k + 1`); `None` where an edge has no single neighbour. Builds
    /// the topology on first use (see [`prepare_topology`](Self::prepare_topology)).
    pub fn adjacent_triangles(&self, i: usize) -> Option<[Option<u32>; 3]> {
        self.topology()
            .neighbours
            .get(i)
            .map(|n| n.map(|j| (j != NO_NEIGHBOUR).then_some(j)))
    }

    /// True for a solid (closed) mesh.
    pub fn is_solid(&self) -> bool {
        self.solid
    }

    /// The box around every vertex used by a triangle.
    pub fn aabb(&self) -> Aabb<R::V3> {
        self.aabb
    }

    /// Every hit of the ray within `t ∈ [0, max_t]`, sorted by `t` (then by triangle),
    /// with normals facing the ray. A ray through an edge or vertex shared by several
    /// triangles reports one hit per triangle, at the same `t`. Only surface crossings
    /// are reported: a ray starting inside a solid mesh gets no `t = 0` hit here
    /// (unless it starts on the surface). A NaN or infinite ray, or a NaN or negative
    /// `max_t`, gives no hits.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn cube(h: f32) -> Result<TriMesh, ShapeError> {
    /// #     let corner = |i: u32| Vec3::new(h * ((i & 1) as f32 * 2.0 - 1.0), h * ((i >> 1 & 1) as f32 * 2.0 - 1.0), h * ((i >> 2 & 1) as f32 * 2.0 - 1.0));
    /// #     let quads = [[0, 4, 6, 2], [1, 3, 7, 5], [0, 1, 5, 4], [2, 6, 7, 3], [0, 2, 3, 1], [4, 5, 7, 6]];
    /// #     let triangles = quads.iter().flat_map(|&[a, b, c, d]| [[a, b, c], [a, c, d]]).collect();
    /// #     TriMesh::new((0..8).map(corner).collect(), triangles, TriMeshFlags::SOLID)
    /// # }
    /// # fn main() -> Result<(), ShapeError> {
    /// // A ray through a solid cube mesh [-1, 1]³ crosses its surface twice, in and out.
    /// let cube = cube(1.0)?;
    /// let ray = Ray::new(Vec3::new(-5.0, 0.25, 0.5), Vec3::X)?;
    /// let ts: Vec<f32> = cube.cast_ray_all(&ray, 100.0).iter().map(|h| h.t).collect();
    /// assert_eq!(ts, [4.0, 6.0]);
    /// // From inside, only the way out is a crossing.
    /// let inside = Ray::new(Vec3::new(0.0, 0.25, 0.5), Vec3::X)?;
    /// assert_eq!(cube.cast_ray_all(&inside, 100.0).len(), 1);
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_ray_all(&self, ray: &Ray<R::V3>, max_t: R) -> Vec<RayHit<R::V3>> {
        // The ray tree's walk, never clipped: its node test covers the kernel's error
        // at any distance (`ray_tree`). The shared tree's boxes, padded by a few ulps of
        // the mesh's size, lost crossings the kernel finds from a hundred mesh sizes
        // away.
        let mut hits = self.ray_tree.run(AllJob {
            mesh: self,
            ray,
            max_t,
        });
        hits.sort_by(|a, b| {
            a.0.partial_cmp(&b.0)
                .unwrap_or(core::cmp::Ordering::Equal)
                .then(a.1.cmp(&b.1))
        });
        hits.into_iter()
            .map(|(t, i)| self.hit_at(ray, t, i))
            .collect()
    }

    /// The ray prepared for the kernel, scaled for the mesh's bounds where its
    /// products would underflow or overflow ([`ShearedRay::within`]); `None` for a zero
    /// direction.
    #[inline(always)]
    pub(crate) fn sheared(&self, ray: &Ray<R::V3>) -> Option<ShearedRay<R::V3>> {
        ShearedRay::within(ray, &self.kernel_bounds)
    }

    /// The hit record on triangle `i` at `t`, normal facing the ray.
    fn hit_at(&self, ray: &Ray<R::V3>, t: R, i: u32) -> RayHit<R::V3> {
        let n = self.normals[i as usize];
        RayHit {
            t,
            point: ray.point_at(t),
            normal: if n.dot(ray.dir) > R::ZERO { -n } else { n },
        }
    }

    /// [`RayCast::cast_ray`]'s answer from the closest surface crossing `hit` of a
    /// valid ray: open meshes report the crossing; a solid mesh reports `t = 0` with a
    /// zero normal for a ray starting inside.
    fn solid_answer(&self, ray: &Ray<R::V3>, hit: Option<(R, u32)>) -> Option<RayHit<R::V3>> {
        if !self.solid {
            return hit.map(|(t, i)| self.hit_at(ray, t, i));
        }
        // A first crossing through a front face proves the origin outside; a back face
        // or no crossing is confirmed by the inside test (a ray touching a silhouette
        // edge from outside meets a back face at the same t as a front face).
        let inside = match hit {
            Some((_, i)) if self.normals[i as usize].dot(ray.dir) < R::ZERO => false,
            _ => self.inside(ray.origin),
        };
        if inside {
            return Some(RayHit {
                t: R::ZERO,
                point: ray.origin,
                normal: R::V3::ZERO,
            });
        }
        hit.map(|(t, i)| self.hit_at(ray, t, i))
    }

    /// The closest hit `(t, triangle)` on the surface.
    fn closest_surface_hit(&self, ray: &Ray<R::V3>, max_t: R) -> Option<(R, u32)> {
        self.with_closest_surface_hit(ray, max_t, |hit| hit)
    }

    /// The closest hit `(t, triangle)` on the surface, handed to `then`: the ray's
    /// set-up, walk and answer in one function compiled with the walk's kernels
    /// ([`RayTree::run`]; the call from baseline code into the walk, and the set-up
    /// there, were a fifth of a ray's instructions outside the walk on the bunny).
    #[inline(always)]
    fn with_closest_surface_hit<T>(
        &self,
        ray: &Ray<R::V3>,
        max_t: R,
        then: impl FnOnce(Option<(R, u32)>) -> T,
    ) -> T {
        self.ray_tree.run(ClosestJob {
            mesh: self,
            ray,
            max_t,
            then,
        })
    }

    /// [`closest_surface_hit`](Self::closest_surface_hit) with the walk's kernels `K`.
    #[inline(always)]
    fn closest_with<K: Kernels>(&self, ray: &Ray<R::V3>, max_t: R) -> Option<(R, u32)> {
        let sheared = self.sheared(ray)?;
        if sheared.scaled() {
            return self.closest_scaled(ray, max_t, &sheared);
        }
        let mut visit = Closest {
            mesh: self,
            sheared: &sheared,
            best: None,
        };
        self.ray_tree.walk_with::<K, _>(ray, max_t, 0, &mut visit);
        visit.best
    }

    /// [`closest_with`](Self::closest_with) for a scaled ray (a tiny or huge mesh):
    /// the walk with the `Scaled` kernels ([`batch::scaled_walk`]), out of the way of
    /// the others.
    #[cold]
    #[inline(never)]
    pub(super) fn closest_scaled(
        &self,
        ray: &Ray<R::V3>,
        max_t: R,
        sheared: &ShearedRay<R::V3>,
    ) -> Option<(R, u32)> {
        let mut visit = Closest {
            mesh: self,
            sheared,
            best: None,
        };
        batch::scaled_walk(&self.ray_tree, ray, max_t, &mut visit);
        visit.best
    }

    /// Updates `best` with the nearest crossing of a leaf's triangles that is within
    /// `max_t` and, when there is a best hit already, nearer, or as near with a lower
    /// index; returns the best `t`, the walk's new `max_t`.
    ///
    /// The tie rule makes the answer the least `(t, triangle)` over all crossings,
    /// whatever order the walk meets them in: a triangle crossed at the best `t` lies in
    /// boxes the ray enters at or before that `t`, which the walk never prunes (it
    /// keeps entries equal to its `max_t`).
    #[inline(always)]
    fn leaf_closest<K: Kernels>(
        &self,
        sheared: &ShearedRay<R::V3>,
        leaf: &Leaf<R>,
        max_t: R,
        best: &mut Option<(R, u32)>,
    ) -> Option<R> {
        let (t, hit, undecided) = leaf.hit4::<K, _>(sheared);
        let mut accept = |t: R, id: u32| {
            let nearer = match *best {
                Some((best_t, best_id)) => t < best_t || (t == best_t && id < best_id),
                None => t <= max_t,
            };
            if nearer {
                *best = Some((t, id));
            }
        };
        for lane in lanes(hit) {
            accept(t[lane], leaf.ids[lane]);
        }
        for lane in lanes(undecided) {
            let id = leaf.ids[lane];
            if let Some(t) = sheared.hit(&self.corners[id as usize]) {
                accept(t, id);
            }
        }
        best.map(|(t, _)| t)
    }

    /// Whether a leaf has a triangle crossed within `max_t`.
    #[inline(always)]
    fn leaf_crossed<K: Kernels>(
        &self,
        sheared: &ShearedRay<R::V3>,
        leaf: &Leaf<R>,
        max_t: R,
    ) -> bool {
        let (t, hit, undecided) = leaf.hit4::<K, _>(sheared);
        lanes(hit).any(|lane| t[lane] <= max_t)
            || lanes(undecided).any(|lane| {
                let corners = &self.corners[leaf.ids[lane] as usize];
                sheared.hit(corners).is_some_and(|t| t <= max_t)
            })
    }

    /// The triangle nearest to `p`, its closest point, the feature it lies on, and the
    /// squared distance.
    fn nearest(&self, p: R::V3) -> Option<(u32, R::V3, Feature, R)> {
        let (i, d2) = nearest_item(self.shared_bvh(), p, |item| {
            closest_on_triangle(&self.corners[item as usize], p)
                .0
                .distance_squared(p)
        })?;
        let (q, feature) = closest_on_triangle(&self.corners[i as usize], p);
        Some((i, q, feature, d2))
    }

    /// The pseudo-normal of `feature` on triangle `i` (solid meshes).
    fn pseudo_normal(&self, i: u32, feature: Feature) -> R::V3 {
        let i = i as usize;
        match feature {
            Feature::Face => self.normals[i],
            Feature::Edge(k) => {
                let j = self.topology().neighbours[i][k];
                let across = self.normals.get(j as usize).copied().unwrap_or(R::V3::ZERO);
                self.normals[i] + across
            }
            Feature::Vertex(k) => self.topology().vertex_normals[self.indices[i][k] as usize],
        }
    }

    /// Inside-or-on test: false for open meshes and NaN.
    fn inside(&self, p: R::V3) -> bool {
        if !self.solid || !self.aabb.contains_point(p) {
            return false;
        }
        match self.nearest(p) {
            Some((i, q, feature, _)) => self.inside_near(p, q, i, feature),
            None => false,
        }
    }

    /// Whether `p`, whose nearest surface point is `q` on `feature` of triangle `i`, is
    /// inside or on the mesh: on the surface, or (solid meshes) inside the box and
    /// behind the feature's pseudo-normal. A mesh of no volume, the box and a zero
    /// pseudo-normal (an edge between two opposite faces) rule a point out: without
    /// them a flat solid's outside points, even beyond its box, read inside (the
    /// pseudo-normal test needs a volume to be on one side of).
    fn inside_near(&self, p: R::V3, q: R::V3, i: u32, feature: Feature) -> bool {
        if on_surface(p, q) {
            return true;
        }
        if !self.encloses_volume || !self.aabb.contains_point(p) {
            return false;
        }
        let pseudo = self.pseudo_normal(i, feature);
        pseudo != R::V3::ZERO && (p - q).dot(pseudo) <= R::ZERO
    }
}

/// Vertices finite, at least one triangle, indices in range.
fn validate<V: Vector>(vertices: &[V], indices: &[[u32; 3]]) -> Result<(), ShapeError> {
    if indices.is_empty() {
        return Err(ShapeError::Degenerate {
            shape: SHAPE,
            reason: "the mesh has no triangles",
        });
    }
    if indices.len() >= MAX_TRIANGLES {
        return Err(ShapeError::OutOfRange {
            shape: SHAPE,
            field: "indices.len()",
            value: indices.len() as f64,
            range: "below 2³¹ − 1 triangles",
        });
    }
    if let Some(index) = vertices.iter().position(|v| !v.is_finite()) {
        return Err(ShapeError::NotFiniteAt {
            shape: SHAPE,
            field: "vertices",
            index,
        });
    }
    check_coord_list(SHAPE, "vertices", vertices)?;
    for (triangle, tri) in indices.iter().enumerate() {
        if let Some(&index) = tri.iter().find(|&&i| i as usize >= vertices.len()) {
            return Err(ShapeError::IndexOutOfRange {
                shape: SHAPE,
                triangle,
                index,
                vertex_count: vertices.len(),
            });
        }
    }
    Ok(())
}

/// The unit normal of a triangle, zero when flat. The edges of a tiny (or huge)
/// triangle are first multiplied by a power of two ([`ray::size_scale`]), so that their
/// cross product does not underflow (a triangle 1e-20 wide in `f32`, 1e-160 in `f64`,
/// read as flat and was never hit); within range the factor is 1 and changes no bit.
pub(crate) fn unit_normal<V: Vector3>(t: &[V; 3]) -> V {
    let (u, w) = (t[1] - t[0], t[2] - t[0]);
    let k = ray::size_scale(u.abs().max(w.abs()).max_element());
    (u * k).cross(w * k).try_normalize().unwrap_or(V::ZERO)
}

/// Padding of the triangles' boxes in the trees, in machine epsilons of the largest
/// coordinate of the mesh. A tree's slab test rounds, and the watertight kernel's
/// decision is exact only for the rounded sheared corners: a ray through a vertex (a
/// box's corner) could miss the box of the triangle the kernel gives the vertex to.
/// The padding covers that error from within a few mesh sizes (about `4.5ε` of a
/// triangle's extent plus `3.5ε` of the ray's travel, module `ray`); it is the shared
/// tree's, which the generic composite queries walk. The mesh's own ray casts walk the
/// ray tree, whose node test widens every slab by a relative `2^-20` of `t` for the
/// part that grows with the travel and whose boxes are padded by `2^8` epsilons of
/// each triangle's own extent (`ray_tree::RAY_BOX_ULPS`) for the rest: exact at any
/// distance.
pub const BOX_PADDING_ULPS: f64 = 16.0;

/// A solid mesh whose enclosed volume, relative to the cube of its size, is within
/// this many epsilons per triangle of zero (the rounding of the divergence sum)
/// encloses none: it contains only its surface. A negative volume beyond it is
/// refused (inward normals).
pub const VOLUME_ULPS: f64 = 64.0;

/// The box of a triangle.
pub(crate) fn triangle_box<V: Vector>(t: &[V; 3]) -> Aabb<V> {
    Aabb {
        min: t[0].min(t[1]).min(t[2]),
        max: t[0].max(t[1]).max(t[2]),
    }
}

/// The triangles' boxes padded by [`box_padding`]: the shared tree's boxes (the ray
/// tree pads each by its own extent, `ray_tree::ray_boxes`).
fn padded_boxes<V: Vector>(corners: &[[V; 3]]) -> Vec<Aabb<V>> {
    padded(corners.iter().map(triangle_box).collect())
}

/// `boxes` grown by [`box_padding`].
fn padded<V: Vector>(mut boxes: Vec<Aabb<V>>) -> Vec<Aabb<V>> {
    let pad = box_padding(&boxes);
    for b in &mut boxes {
        *b = b.loosened(pad);
    }
    boxes
}

/// The padding of the tree's boxes: [`BOX_PADDING_ULPS`] of the largest coordinate
/// among them.
pub(crate) fn box_padding<V: Vector>(boxes: &[Aabb<V>]) -> V::Scalar {
    let largest = boxes.iter().fold(V::Scalar::ZERO, |m, b| {
        m.max(b.min.abs().max_element())
            .max(b.max.abs().max_element())
    });
    largest * eps::<V::Scalar>(BOX_PADDING_ULPS)
}

/// Six times the signed volume enclosed (divergence theorem) over the cube of the
/// mesh's size (its corners' largest offset from the first corner, about which the
/// sum is taken so that far-off meshes do not lose it to rounding): a unit cube's is
/// 6, a flat mesh's a rounding error of a few ε per triangle.
fn signed_volume<V: Vector3>(corners: &[[V; 3]]) -> V::Scalar {
    let o = corners[0][0];
    let size = corners
        .iter()
        .flatten()
        .fold(V::Scalar::ZERO, |m, &p| m.max((p - o).abs().max_element()));
    if size == V::Scalar::ZERO {
        return V::Scalar::ZERO;
    }
    // Offsets divided by the size (cubes of coordinates up to `MAX_COORD` overflow).
    let k = V::Scalar::ONE / size;
    corners.iter().fold(V::Scalar::ZERO, |s, t| {
        let [a, b, c] = t.map(|p| (p - o) * k);
        s + a.dot(b.cross(c))
    })
}

/// The bend of every edge of every triangle.
fn edge_bends<V: Vector3>(
    corners: &[[V; 3]],
    normals: &[V],
    neighbours: &[[u32; 3]],
) -> Vec<[Bend; 3]> {
    corners
        .iter()
        .zip(normals)
        .zip(neighbours)
        .map(|((t, &n), across)| {
            core::array::from_fn(|k| {
                let j = across[k] as usize;
                if across[k] == NO_NEIGHBOUR {
                    return Bend::Open;
                }
                classify(n, t[k], normals[j], apex(&corners[j], t[k], t[(k + 1) % 3]))
            })
        })
        .collect()
}

/// The corner of `t` that is neither `a` nor `b` (the first such; `a` when none).
fn apex<V: Vector>(t: &[V; 3], a: V, b: V) -> V {
    t.iter().copied().find(|&p| p != a && p != b).unwrap_or(a)
}

/// Angle-weighted vertex normals (Bærentzen and Aanæs 2005).
fn vertex_pseudo_normals<V: Vector3>(
    count: usize,
    indices: &[[u32; 3]],
    corners: &[[V; 3]],
    normals: &[V],
) -> Vec<V> {
    let mut out = vec![V::ZERO; count];
    for ((tri, t), &n) in indices.iter().zip(corners).zip(normals) {
        for k in 0..3 {
            let (u, w) = (t[(k + 1) % 3] - t[k], t[(k + 2) % 3] - t[k]);
            // Scaled as `unit_normal` does: a tiny triangle's products underflow.
            let scale = ray::size_scale(u.abs().max(w.abs()).max_element());
            let (u, w) = (u * scale, w * scale);
            let angle = u.cross(w).length().atan2(u.dot(w));
            out[tri[k] as usize] += n * angle;
        }
    }
    out.iter()
        .map(|v| v.try_normalize().unwrap_or(V::ZERO))
        .collect()
}

impl<R: Real> TriMesh<R> {
    /// The three edges of triangle `i` (in range) as the correction needs them.
    fn edge_infos(&self, i: usize) -> [EdgeInfo<R::V3>; 3] {
        let topology = self.topology();
        let (t, across) = (&self.corners[i], &topology.neighbours[i]);
        core::array::from_fn(|k| {
            let j = across[k] as usize;
            match topology.bends[i][k] {
                Bend::Open => EdgeInfo::OPEN,
                bend => EdgeInfo {
                    bend,
                    neighbour_normal: self.normals[j],
                    neighbour_apex: apex(&self.corners[j], t[k], t[(k + 1) % 3]),
                },
            }
        })
    }
}

impl<R: Real> Composite<R::V3> for TriMesh<R>
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    type Part = Shape<R>;

    fn bvh(&self) -> &Bvh<R::V3> {
        self.shared_bvh()
    }

    fn part_count(&self) -> usize {
        self.corners.len()
    }

    fn two_sided(&self) -> bool {
        !self.is_solid()
    }

    /// The closest crossing by the mesh's ray tree, as
    /// [`cast_ray_indexed`](TriMesh::cast_ray_indexed) and the batches find it (the
    /// default's walk of the parts could take another triangle of an exact tie, at a
    /// shared edge or vertex, than the lowest index).
    fn cast_ray_boundary(&self, ray: &Ray<R::V3>, max_t: R) -> Option<RayHit<R::V3>> {
        self.cast_ray_indexed(ray, max_t).map(|(_, hit)| hit)
    }

    /// The triangle of the ray tree's first crossing when it lies at `t` (within
    /// [`PART_HIT_ULPS`](crate::query::composite::PART_HIT_ULPS)): the triangle whose
    /// normal the hit carries, ties included. A solid mesh's hit from inside lies on
    /// none (its first crossing is farther).
    fn part_of_hit(&self, ray: &Ray<R::V3>, t: R, _solid: bool) -> Option<u32> {
        crate::query::composite::part_of_own_hit(ray, t, |max_t| {
            self.cast_ray_indexed(ray, max_t).map(|(i, hit)| (i, hit.t))
        })
    }

    /// # Panics
    /// When `i` is not below [`part_count`](Composite::part_count).
    fn with_part<T>(&self, i: u32, f: impl FnOnce(&Pose3<R>, &Shape<R>) -> T) -> T {
        let [a, b, c] = self.corners[i as usize];
        f(
            &Pose3::<R>::IDENTITY,
            &Shape::Triangle(Triangle { a, b, c }),
        )
    }

    /// Internal-edge correction (see [`internal_edges`]); `i` past the end keeps the
    /// normal.
    fn correct_normal(&self, i: u32, normal: R::V3) -> R::V3 {
        let i = i as usize;
        let Some(t) = self.corners.get(i) else {
            return normal;
        };
        let edges = self.edge_infos(i);
        // A solid mesh's corner pseudo-normals tell a shape round a convex corner.
        let vertex_normals = &self.topology().vertex_normals;
        let corner_normals = match vertex_normals.is_empty() {
            true => [R::V3::ZERO; 3],
            false => self.indices[i].map(|v| vertex_normals[v as usize]),
        };
        correct(t, self.normals[i], &edges, corner_normals, normal)
    }

    /// Internal-edge correction at a known contact point (see
    /// [`internal_edges`]): at a vertex, the triangles using it decide.
    fn correct_normal_at(&self, i: u32, point: R::V3, normal: R::V3) -> R::V3 {
        let Some(t) = self.corners.get(i as usize) else {
            return normal;
        };
        let edges = self.edge_infos(i as usize);
        let topology = self.topology();
        let ring = |k: usize, f: RingVisitor<'_, R::V3>| {
            let v = self.indices[i as usize][k] as usize;
            let (lo, hi) = (topology.ring_start[v], topology.ring_start[v + 1]);
            for &j in &topology.ring[lo..hi] {
                f(&self.corners[j as usize], self.normals[j as usize]);
            }
        };
        correct_at(t, self.normals[i as usize], &edges, point, normal, ring)
    }

    /// Solid meshes: the pseudo-normal test (points on the surface are inside). Open
    /// meshes contain nothing. NaN is outside.
    fn contains_local_point(&self, p: R::V3) -> bool {
        self.inside(p)
    }

    /// Solid meshes: the nearest triangle and surface point, and the direction from
    /// `p` to it (the pseudo-normal when `p` is on the surface).
    fn exit_from_inside(&self, p: R::V3) -> Option<(u32, R::V3, R::V3)> {
        if !self.solid || !self.aabb.contains_point(p) {
            return None;
        }
        let (i, q, feature, _) = self.nearest(p)?;
        if !self.inside_near(p, q, i, feature) {
            return None;
        }
        let pseudo = self.pseudo_normal(i, feature);
        let out = (q - p).try_normalize().or_else(|| pseudo.try_normalize())?;
        Some((i, q, out))
    }

    /// The vertices, each with the first triangle of its ring (vertices no triangle
    /// uses are skipped).
    fn for_each_sample_point(&self, mut f: impl FnMut(u32, R::V3)) {
        let topology = self.topology();
        for (v, &p) in self.vertices.iter().enumerate() {
            if let Some(&t) =
                topology.ring[topology.ring_start[v]..topology.ring_start[v + 1]].first()
            {
                f(t, p);
            }
        }
    }
}

impl<R: Real> RayCast<R::V3> for TriMesh<R> {
    /// The closest hit. Open meshes are two-sided: each triangle is hit from either
    /// side, the normal facing the ray. Solid meshes: a ray starting inside (or on the
    /// surface, leaving it) hits at `t = 0` with a zero normal; otherwise as open
    /// meshes. Edges and vertices hit (watertight: a ray through a shared edge never
    /// slips between its triangles); flat triangles are never hit. A zero direction
    /// hits only a solid mesh it starts inside. NaN or infinite rays and NaN or
    /// negative `max_t` miss.
    fn cast_ray(&self, ray: &Ray<R::V3>, max_t: R) -> Option<RayHit<R::V3>> {
        self.with_closest_surface_hit(ray, max_t, |hit| {
            // A crossing proves the ray and `max_t` valid (the walk starts none for a
            // non-finite ray or a NaN or negative `max_t`); the inside test of a ray
            // without one needs the check (`max_t >= 0` is false for NaN too).
            if hit.is_none() && !(ray.is_finite() && max_t >= R::ZERO) {
                return None;
            }
            self.solid_answer(ray, hit)
        })
    }
}

impl<R: Real> ProjectPoint<R::V3> for TriMesh<R> {
    /// The closest point of the surface. Solid meshes report `is_inside` by the
    /// pseudo-normal test, and with `solid = true` an inside point projects onto
    /// itself. Open meshes report `is_inside` only for points on the surface (within
    /// [`ON_SURFACE_ULPS`](closest::ON_SURFACE_ULPS)). NaN gives
    /// [`PointProjection::nan`].
    fn project_local_point(&self, p: R::V3, solid: bool) -> PointProjection<R::V3> {
        let Some((i, q, feature, _)) = self.nearest(p) else {
            return PointProjection::nan();
        };
        let inside = self.inside_near(p, q, i, feature);
        PointProjection {
            point: if inside && solid && self.solid { p } else { q },
            is_inside: inside,
        }
    }
}

/// [`TriMesh::with_closest_surface_hit`]'s work: the closest hit of `ray`, handed to
/// `then`.
struct ClosestJob<'a, R: Real, F> {
    mesh: &'a TriMesh<R>,
    ray: &'a Ray<R::V3>,
    max_t: R,
    then: F,
}

impl<R: Real, T, F: FnOnce(Option<(R, u32)>) -> T> WithKernels<R> for ClosestJob<'_, R, F> {
    type Output = T;

    #[inline(always)]
    fn run<K: Kernels>(self, _: &RayTree<R>) -> T {
        (self.then)(self.mesh.closest_with::<K>(self.ray, self.max_t))
    }
}

/// The leaf test of a closest-hit walk: the best `(t, triangle)` so far.
struct Closest<'a, R: Real> {
    mesh: &'a TriMesh<R>,
    sheared: &'a ShearedRay<R::V3>,
    best: Option<(R, u32)>,
}

impl<R: Real> LeafVisit<R> for Closest<'_, R> {
    #[inline(always)]
    fn visit<K: Kernels>(&mut self, _: usize, leaf: &Leaf<R>, max_t: R) -> Option<R> {
        self.mesh
            .leaf_closest::<K>(self.sheared, leaf, max_t, &mut self.best)
    }
}

/// [`TriMesh::cast_ray_all`]'s walk: every crossing `(t, triangle)` within `max_t`.
struct AllJob<'a, R: Real> {
    mesh: &'a TriMesh<R>,
    ray: &'a Ray<R::V3>,
    max_t: R,
}

impl<R: Real> WithKernels<R> for AllJob<'_, R> {
    type Output = Vec<(R, u32)>;

    #[inline(always)]
    fn run<K: Kernels>(self, tree: &RayTree<R>) -> Vec<(R, u32)> {
        let Some(sheared) = self.mesh.sheared(self.ray) else {
            return Vec::new();
        };
        let mut visit = AllHits {
            mesh: self.mesh,
            sheared: &sheared,
            hits: Vec::new(),
        };
        match sheared.scaled() {
            true => batch::scaled_walk(tree, self.ray, self.max_t, &mut visit),
            false => tree.walk_with::<K, _>(self.ray, self.max_t, 0, &mut visit),
        }
        visit.hits
    }
}

/// The leaf test of an all-hits walk: every crossing of a leaf within `max_t`; never
/// clips the walk.
struct AllHits<'a, R: Real> {
    mesh: &'a TriMesh<R>,
    sheared: &'a ShearedRay<R::V3>,
    hits: Vec<(R, u32)>,
}

impl<R: Real> LeafVisit<R> for AllHits<'_, R> {
    #[inline(always)]
    fn visit<K: Kernels>(&mut self, _: usize, leaf: &Leaf<R>, max_t: R) -> Option<R> {
        let (t, hit, undecided) = leaf.hit4::<K, _>(self.sheared);
        for lane in lanes(hit).filter(|&lane| t[lane] <= max_t) {
            self.hits.push((t[lane], leaf.ids[lane]));
        }
        for lane in lanes(undecided) {
            let id = leaf.ids[lane];
            if let Some(t) = self.sheared.hit(&self.mesh.corners[id as usize]) {
                if t <= max_t {
                    self.hits.push((t, id));
                }
            }
        }
        None
    }
}
