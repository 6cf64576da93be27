//! [`ConcavePolygon`]: a simple 2D polygon, optionally with holes, split into convex
//! pieces (seed 001: "concave polygons must first be split into convex pieces").
//!
//! Pipeline, O(n log n) throughout: validate the rings (repeats dropped; crossings,
//! touching points and hole placement by one plane sweep, Shamos–Hoey 1976, in
//! `crossings.rs`; touching points judged by OGC Simple Features rules in
//! `contacts.rs`; windings normalised), triangulate by a monotone partition and the
//! stack triangulation of each monotone piece (de Berg et al., *Computational
//! Geometry*, 3.2–3.3; holes need no bridges, `triangulate.rs`), merge the triangles
//! into convex pieces by Hertel–Mehlhorn (1983; O'Rourke, *Computational Geometry in
//! C*, 2.5), and put a [`Bvh`] over the pieces. Point and ray queries answer on the
//! boundary rings (a [`Polyline`](super::Polyline)-style segment set with its own
//! tree), pair queries run through the pieces ([`Composite`]).
//!
//! Holes may touch the outer ring or each other at single points (a vertex on a
//! vertex, or a vertex inside an edge, which then gains that vertex): the rings are
//! relinked there into weakly simple curves whose copies of the point bound
//! non-overlapping solid sectors, and decomposed as such; no piece reaches across a
//! hole.
//!
//! Tolerances: [`ZERO_AREA_ULPS`] (a flat ring), [`PIECES_AREA_ULPS`] (pieces that do
//! not cover the polygon), [`FLAT_VERTEX_ULPS`] (when a normal lies
//! in a normal cone, when a ray crossing is away from an edge's ends) and
//! [`ON_SEGMENT_ULPS`](super::polyline::ON_SEGMENT_ULPS) (when a point lies on the
//! boundary). Validation, triangulation and merging use exact orientation signs
//! (Shewchuk's adaptive predicate, `geometry.rs`); a polygon so small that products
//! in its scalar type underflow (extent `s` with `s² · ε` subnormal) is refused, as
//! its pieces and queries compute in that type.

mod contacts;
mod crossings;
pub(crate) mod geometry;
mod merge;
mod sweep;
mod triangulate;
mod validate;

pub use validate::ZERO_AREA_ULPS;

/// The convex pieces' total area may differ from the polygon's by this many machine
/// epsilons of it (2^16: 0.8 % in `f32`, 1.5e-11 in `f64`) before the polygon is
/// refused (see [`ConcavePolygon::new`]).
pub const PIECES_AREA_ULPS: f64 = 65536.0;

use super::polyline::{SegmentSet, FLAT_VERTEX_ULPS};
use crate::algo::gjk::GjkVector;
use crate::broad::Bvh;
use crate::math::tolerance::eps;
use crate::math::{Isometry, Pose2, Real, Vector, Vector2};
use crate::query::project_point::{PointProjection, ProjectPoint};
use crate::query::RayCast;
use crate::shape::composite::Composite;
use crate::shape::error::ShapeError;
use crate::shape::shape_2d::Shape;
use crate::shape::{Aabb, ConvexPolygon, Ray, RayHit, Segment};
use geometry::{crosses_right, orient, ring_twice_area};

/// A solid simple polygon with optional holes, with its convex decomposition.
///
/// The boundary belongs to the polygon (closed set). Rings are stored normalised: the
/// outer ring counter-clockwise, holes clockwise, so the solid lies left of every
/// boundary edge. Pieces are convex polygons in the polygon's frame that cover it
/// exactly (their areas add up to [`area`](Self::area)); pieces flatter than
/// [`ConvexPolygon`]'s zero-area tolerance are dropped (they hold no area).
#[derive(Clone, Debug)]
pub struct ConcavePolygon<R: Real> {
    rings: Vec<Vec<R::V2>>,
    boundary: SegmentSet<R>,
    pieces: Vec<ConvexPolygon<R>>,
    parts: Vec<Shape<R>>,
    /// Per piece: its vertex indices (into the boundary's vertices), collinear ones kept.
    piece_ids: Vec<Vec<u32>>,
    /// Per piece: the outward normals of its edges that are boundary edges.
    piece_normals: Vec<Vec<R::V2>>,
    /// Per vertex: the boundary there.
    corners: Vec<Corner<R::V2>>,
    bvh: Bvh<R::V2>,
    area: R,
}

impl<R: Real> ConcavePolygon<R> {
    /// The polygon bounded by `outer`, minus the `holes`; either winding is accepted for
    /// every ring. Rings as GIS formats write them are accepted: a ring that repeats
    /// its first vertex at the end (GeoJSON, WKT) and runs of repeated consecutive
    /// vertices are read with the repeats dropped. Holes may touch the outer ring or
    /// each other at single points, as OGC Simple Features allows: a hole vertex on an
    /// outer ring vertex, on another hole's vertex, or inside an edge of another ring
    /// (that edge is then split there: [`outer`](Self::outer) and
    /// [`holes`](Self::holes) hold the point as a vertex), as long as the touching
    /// rings form no closed chain (which would cut the interior in two). O(n log n)
    /// in the number of vertices.
    ///
    /// # Errors
    /// Vertex indices count through `outer`, then each hole in order, as given
    /// (repeats included); an edge is named by its first vertex (the last of a run of
    /// repeats).
    /// - [`ShapeError::TooFewPoints`]: a ring with fewer than 3 distinct vertices;
    /// - [`ShapeError::InvalidVertex`]: a non-finite vertex; a hole outside the outer
    ///   ring or inside another hole, touching it or not (naming the hole's first
    ///   vertex); a point where rings touch in a closed chain (a hole touching the
    ///   outer ring twice, or touching holes leading from the ring back to it: the
    ///   interior would be cut in two);
    /// - [`ShapeError::Degenerate`]: a ring of zero area (all points on one line,
    ///   within [`ZERO_AREA_ULPS`]), a sliver so thin that no convex piece of its
    ///   decomposition can be built, or a decomposition whose pieces' areas do not add
    ///   up to the polygon's within [`PIECES_AREA_ULPS`] (part of it too thin for a
    ///   convex piece), or a spike too thin for a convex piece (a vertex in no piece,
    ///   farther than the boundary's on-segment tolerance from the chord of its ring
    ///   neighbours);
    /// - [`ShapeError::SelfIntersecting`], naming two edges and how they meet: two
    ///   edges that cross inside both, or rings that cross at a shared point (one ring
    ///   passing from the other's solid side to its empty side there): `"crosses"`; a
    ///   ring touching itself at a point (a vertex on another of its vertices or
    ///   edges): `"touches"`; collinear edges sharing a stretch (also across rings, and
    ///   neighbour edges folding back onto each other): `"overlaps (touches along a
    ///   stretch of)"`.
    /// - [`ShapeError::TooLarge`] (field `points`, the index counting through the rings
    ///   in order): a coordinate beyond [`Real::MAX_COORD`];
    /// - [`ShapeError::OutOfRange`] (field `outer`, the value its extent): an outer ring
    ///   whose bounding box's longer side `s` has `s² · ε` below the smallest normal
    ///   number (`s < 3.1e-16` in `f32`, `s < 1.0e-146` in `f64`): orientation products
    ///   at that scale are subnormal, and the pieces' own checks and the queries,
    ///   which compute in the scalar type, would read rounding noise.
    pub fn new(outer: Vec<R::V2>, holes: Vec<Vec<R::V2>>) -> Result<Self, ShapeError> {
        let mut input = Vec::with_capacity(holes.len() + 1);
        input.push(outer);
        input.extend(holes);
        check_rings_magnitude(&input)?;
        let validate::Validated { rings, next, swept } = validate::validate_rings(&input)?;
        let points: Vec<R::V2> = rings.iter().flatten().copied().collect();
        let triangles =
            triangulate::triangulate(&points, &next, swept).ok_or(ShapeError::Degenerate {
                shape: "ConcavePolygon",
                reason: "the triangulation sweep found the rings inconsistent",
            })?;
        let merged = merge::merge_triangles(&points, &triangles);
        let boundary = SegmentSet::new(points.clone(), ring_edges(&next));
        let (pieces, piece_ids) = build_pieces::<R>(&points, merged);
        let area = rings
            .iter()
            .map(|r| ring_twice_area(r))
            .fold(R::ZERO, |a, b| a + b)
            * R::HALF;
        check_pieces_cover(&pieces, area)?;
        check_no_lost_spike(&points, &next, &piece_ids, &boundary)?;
        if pieces.is_empty() {
            // Every piece too thin for `ConvexPolygon::new`: no part to query.
            return Err(ShapeError::Degenerate {
                shape: "ConcavePolygon",
                reason: "no convex piece could be built (the polygon is too thin)",
            });
        }
        let piece_normals = piece_edge_normals(&points, &next, &piece_ids);
        let corners = corners(&points, &next);
        let parts: Vec<Shape<R>> = pieces.iter().cloned().map(Shape::Polygon).collect();
        let identity = <Pose2<R> as Isometry<R::V2>>::IDENTITY;
        let boxes: Vec<Aabb<R::V2>> = pieces.iter().map(|p| p.aabb(&identity)).collect();
        let bvh = Bvh::build(&boxes);
        Ok(Self {
            rings,
            boundary,
            pieces,
            parts,
            piece_ids,
            piece_normals,
            corners,
            bvh,
            area,
        })
    }

    /// The outer ring, counter-clockwise: the input's vertices without repeats, plus
    /// any point where a hole touches the inside of one of its edges.
    #[inline]
    pub fn outer(&self) -> &[R::V2] {
        &self.rings[0]
    }

    /// The holes, each clockwise (stored as [`outer`](Self::outer) is).
    #[inline]
    pub fn holes(&self) -> &[Vec<R::V2>] {
        &self.rings[1..]
    }

    /// The convex decomposition.
    #[inline]
    pub fn pieces(&self) -> &[ConvexPolygon<R>] {
        &self.pieces
    }

    /// The area: the outer ring's minus the holes'.
    #[inline]
    pub fn area(&self) -> R {
        self.area
    }

    /// The bounding box in the polygon's frame.
    pub fn local_aabb(&self) -> Aabb<R::V2> {
        self.boundary.local_aabb().unwrap_or(Aabb {
            min: R::V2::ZERO,
            max: R::V2::ZERO,
        })
    }

    /// True when `p` (polygon frame) is inside or on the boundary: on the boundary
    /// within [`ON_SEGMENT_ULPS`](super::polyline::ON_SEGMENT_ULPS), else by the even-odd rule over the boundary edges
    /// (a horizontal ray, half-open in `y`, edges found by the boundary tree).
    /// `false` for a non-finite point.
    ///
    /// ```
    /// use isect::d2_f64::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A 10 × 10 block with a 4 × 4 courtyard (the hole, clockwise).
    /// let block = vec![DVec2::ZERO, DVec2::new(10.0, 0.0), DVec2::splat(10.0), DVec2::new(0.0, 10.0)];
    /// let yard = vec![DVec2::splat(3.0), DVec2::new(3.0, 7.0), DVec2::splat(7.0), DVec2::new(7.0, 3.0)];
    /// let building = ConcavePolygon::new(block, vec![yard])?;
    /// assert!(building.contains_point(DVec2::new(1.0, 5.0)));
    /// assert!(!building.contains_point(DVec2::new(5.0, 5.0))); // in the courtyard
    /// assert!(building.contains_point(DVec2::new(3.0, 5.0))); // on the courtyard's wall
    /// assert!((building.area() - 84.0).abs() < 1e-9);
    /// # Ok(())
    /// # }
    /// ```
    pub fn contains_point(&self, p: R::V2) -> bool {
        if !p.is_finite() {
            return false;
        }
        let tol = self.boundary.on_segment_tolerance(p);
        let near = Aabb {
            min: p - R::V2::splat(tol),
            max: p + R::V2::splat(tol),
        };
        let mut on_boundary = false;
        self.boundary.query(&near, |i| {
            let q = self.boundary.segment(i).closest_point(p).0;
            on_boundary |= q.distance_squared(p) <= tol * tol;
        });
        if on_boundary {
            return true;
        }
        let right = self.local_aabb().max.x();
        if p.x() > right {
            return false;
        }
        let ray = Aabb {
            min: p,
            max: R::V2::new(right, p.y()),
        };
        let mut inside = false;
        self.boundary.query(&ray, |i| {
            let s = self.boundary.segment(i);
            inside ^= crosses_right(s.a, s.b, p);
        });
        inside
    }

    /// Every crossing of the ray with the boundary, `t ∈ [0, max_t]`, ordered by `t`
    /// then boundary edge index, with the edge's index (edge `k` starts at vertex `k`
    /// of the stored rings, [`outer`](Self::outer) then each of [`holes`](Self::holes))
    /// and its normal facing the ray. An origin inside is not a hit here (the list holds
    /// boundary points only). Non-finite rays and NaN or negative `max_t` give none.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A ray across a 10 × 10 block with a 4 × 4 courtyard crosses four walls: in, into
    /// // the courtyard, out of it, out.
    /// let block = vec![Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::splat(10.0), Vec2::new(0.0, 10.0)];
    /// let yard = vec![Vec2::splat(3.0), Vec2::new(3.0, 7.0), Vec2::splat(7.0), Vec2::new(7.0, 3.0)];
    /// let building = ConcavePolygon::new(block, vec![yard])?;
    /// let ray = Ray::new(Vec2::new(-1.0, 5.0), Vec2::X)?;
    /// let ts: Vec<f32> = building.cast_ray_all(&ray, 100.0).iter().map(|(_, h)| h.t).collect();
    /// assert_eq!(ts, [1.0, 4.0, 8.0, 11.0]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_ray_all(&self, ray: &Ray<R::V2>, max_t: R) -> Vec<(u32, RayHit<R::V2>)> {
        self.boundary.cast_ray_all(ray, max_t)
    }

    /// The boundary point nearest to `p` (polygon frame); `None` for a non-finite `p`.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // From (5, 4) in the 4 × 4 courtyard of a 10 × 10 block, the nearest wall is
    /// // the courtyard's south wall, 1 away.
    /// let block = vec![Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::splat(10.0), Vec2::new(0.0, 10.0)];
    /// let yard = vec![Vec2::splat(3.0), Vec2::new(3.0, 7.0), Vec2::splat(7.0), Vec2::new(7.0, 3.0)];
    /// let building = ConcavePolygon::new(block, vec![yard])?;
    /// let q = building.closest_boundary_point(Vec2::new(5.0, 4.0)).unwrap();
    /// assert!((q - Vec2::new(5.0, 3.0)).length() < 1e-6);
    /// # Ok(())
    /// # }
    /// ```
    pub fn closest_boundary_point(&self, p: R::V2) -> Option<R::V2> {
        self.boundary.nearest(p).map(|(_, q, _)| q)
    }
}

/// Every boundary edge `v → next[v]`, numbered by `v`.
fn ring_edges(next: &[u32]) -> Vec<[u32; 2]> {
    next.iter()
        .enumerate()
        .map(|(v, &w)| [v as u32, w])
        .collect()
}

/// The predecessor of each vertex along the curves `next`.
fn predecessors(next: &[u32]) -> Vec<u32> {
    let mut prev = vec![0u32; next.len()];
    for (v, &w) in next.iter().enumerate() {
        prev[w as usize] = v as u32;
    }
    prev
}

/// The convex polygons of the merged index lists, with the index lists themselves. A
/// list that [`ConvexPolygon::new`] refuses (rounding made it reflex or flat) is split
/// into its fan triangles, and flat triangles are dropped. Each list is built once.
fn build_pieces<R: Real>(
    points: &[R::V2],
    merged: Vec<Vec<u32>>,
) -> (Vec<ConvexPolygon<R>>, Vec<Vec<u32>>) {
    let mut pieces = Vec::with_capacity(merged.len());
    let mut ids_of = Vec::with_capacity(merged.len());
    let mut scratch = Vec::new();
    for ids in merged {
        if let Some(piece) = convex_of::<R>(points, &ids, &mut scratch) {
            pieces.push(piece);
            ids_of.push(ids);
            continue;
        }
        for k in 1..ids.len().saturating_sub(1) {
            let fan = vec![ids[0], ids[k], ids[k + 1]];
            if let Some(piece) = convex_of::<R>(points, &fan, &mut scratch) {
                pieces.push(piece);
                ids_of.push(fan);
            }
        }
    }
    (pieces, ids_of)
}

/// The pieces' areas must add up to the polygon's within [`PIECES_AREA_ULPS`]: a piece
/// too thin for [`ConvexPolygon::new`] yet holding area (a long sliver in `f32`), or a
/// triangulation that rounding led across a hole, would leave queries answering for
/// another shape. Such input is refused rather than answered wrongly.
fn check_pieces_cover<R: Real>(pieces: &[ConvexPolygon<R>], area: R) -> Result<(), ShapeError> {
    let covered = pieces
        .iter()
        .map(|p| ring_twice_area(p.vertices()))
        .fold(R::ZERO, |a, b| a + b)
        * R::HALF;
    if (covered - area).abs() <= area.abs() * eps::<R>(PIECES_AREA_ULPS) {
        return Ok(());
    }
    Err(ShapeError::Degenerate {
        shape: "ConcavePolygon",
        reason: "its convex pieces do not add up to its area (a part too thin to build, or a hole crossed by rounding)",
    })
}

/// Every ring vertex must be a vertex of some piece, or lie within the boundary's
/// on-segment tolerance of the segment joining its ring neighbours. Otherwise every
/// piece holding it was too thin for [`ConvexPolygon::new`] and dropped, and the
/// pieces lose a spike that the boundary keeps: an `f32` ring with a spike 235,000
/// long and 0.85 wide put a point 83,381 from the polygon and 208,566 from its pieces
/// (`tests/regressions/fuzz_artifacts.rs::composite_queries_3ff43420`), while the lost
/// area (1e-5 of the polygon's) passed [`PIECES_AREA_ULPS`].
fn check_no_lost_spike<R: Real>(
    points: &[R::V2],
    next: &[u32],
    piece_ids: &[Vec<u32>],
    boundary: &SegmentSet<R>,
) -> Result<(), ShapeError> {
    let mut kept = vec![false; points.len()];
    for &i in piece_ids.iter().flatten() {
        kept[i as usize] = true;
    }
    let prev = predecessors(next);
    for v in (0..points.len()).filter(|&v| !kept[v]) {
        let p = |i: u32| points[i as usize];
        let chord = Segment {
            a: p(prev[v]),
            b: p(next[v]),
        };
        let off = chord.closest_point(points[v]).0.distance(points[v]);
        if off > boundary.on_segment_tolerance(points[v]) || off.is_nan() {
            return Err(ShapeError::Degenerate {
                shape: "ConcavePolygon",
                reason: "a spike too thin for a convex piece would be lost by the decomposition",
            });
        }
    }
    Ok(())
}

/// The convex polygon of the points `ids`, built through `scratch` (reused).
fn convex_of<R: Real>(
    points: &[R::V2],
    ids: &[u32],
    scratch: &mut Vec<R::V2>,
) -> Option<ConvexPolygon<R>> {
    scratch.clear();
    scratch.extend(ids.iter().map(|&i| points[i as usize]));
    ConvexPolygon::from_simple_outline(scratch).ok()
}

/// The boundary at one vertex: the outward unit normals of the ring edges before and
/// after it, and whether the ring turns left there (a convex corner of the polygon).
#[derive(Copy, Clone, Debug)]
struct Corner<V> {
    before: V,
    after: V,
    convex: bool,
}

impl<V: Vector2> Corner<V> {
    /// `normal` mapped into this corner's normal cone: kept inside a convex corner's
    /// cone, otherwise the nearer of the two edges' normals.
    fn clamp(&self, normal: V, tol: V::Scalar) -> V {
        if self.convex && in_cone(self.before, self.after, normal, tol) {
            normal
        } else {
            nearer(self.before, self.after, normal)
        }
    }
}

/// The corner of every vertex along the curves `next`, by vertex index.
fn corners<V: Vector2>(points: &[V], next: &[u32]) -> Vec<Corner<V>> {
    let prev = predecessors(next);
    (0..points.len())
        .map(|v| {
            let p = |i: u32| points[i as usize];
            let (u, w) = (p(prev[v]), p(next[v]));
            Corner {
                before: outward_normal(u, points[v]),
                after: outward_normal(points[v], w),
                convex: orient(u, points[v], w) > V::Scalar::ZERO,
            }
        })
        .collect()
}

/// Outward unit normal of the boundary edge `a → b` (the solid is on its left).
fn outward_normal<V: Vector2>(a: V, b: V) -> V {
    let e = b - a;
    V::new(e.y(), -e.x()).try_normalize().unwrap_or(V::ZERO)
}

/// Per piece, the outward normals of its edges that are boundary edges.
fn piece_edge_normals<V: Vector2>(points: &[V], next: &[u32], pieces: &[Vec<u32>]) -> Vec<Vec<V>> {
    pieces
        .iter()
        .map(|ids| {
            let n = ids.len();
            (0..n)
                .map(|k| (ids[k], ids[(k + 1) % n]))
                .filter(|&(u, v)| next[u as usize] == v)
                .map(|(u, v)| outward_normal(points[u as usize], points[v as usize]))
                .collect()
        })
        .collect()
}

/// True when the unit `n` lies in the counter-clockwise cone from `from` to `to`
/// (narrower than a half-turn), within `tol` (a sine).
fn in_cone<V: Vector2>(from: V, to: V, n: V, tol: V::Scalar) -> bool {
    from.perp_dot(n) >= -tol && n.perp_dot(to) >= -tol && n.dot(from + to) > V::Scalar::ZERO
}

/// Of `a` and `b`, the one nearer in angle to `n`.
fn nearer<V: Vector>(a: V, b: V, n: V) -> V {
    if b.dot(n) > a.dot(n) {
        b
    } else {
        a
    }
}

impl<R: Real> RayCast<R::V2> for ConcavePolygon<R> {
    /// Solid polygon: an origin inside (or on the boundary, moving out or along it)
    /// hits at `t = 0` with a zero normal; an origin on the boundary moving inward hits
    /// at `t = 0` with that edge's outward normal; otherwise the first boundary crossing
    /// with its outward normal. A zero direction hits only from inside. Non-finite rays
    /// and NaN or negative `max_t` miss.
    ///
    /// An origin outside the bounding box (widened by the on-segment tolerance) is
    /// outside: the first crossing within `max_t` answers. Otherwise the ray is cast
    /// once, unbounded, against the boundary: a clean first crossing (inside an edge,
    /// not at `t = 0`) says whether the origin is outside (the ray enters) or inside
    /// (it leaves). Other cases (an origin on
    /// the boundary, a crossing through a vertex, a zero direction) decide by
    /// [`contains_point`](ConcavePolygon::contains_point).
    fn cast_ray(&self, ray: &Ray<R::V2>, max_t: R) -> Option<RayHit<R::V2>> {
        if !(ray.is_finite() && max_t >= R::ZERO) {
            return None;
        }
        let inside_hit = RayHit {
            t: R::ZERO,
            point: ray.origin,
            normal: R::V2::ZERO,
        };
        if !self.near_boundary_box(ray.origin) {
            // Outside the box, so outside: the first crossing within `max_t` enters. (A
            // far origin's unbounded crossing may be a near miss within the segments'
            // tolerance, whose side says nothing about the origin.)
            return self
                .boundary
                .cast_ray_indexed(ray, max_t)
                .map(|(_, hit)| hit);
        }
        if ray.dir != R::V2::ZERO {
            match self.boundary.cast_ray_indexed(ray, R::INFINITY) {
                // No crossing, the origin within the box's tolerance: decided below.
                None => {}
                Some((i, hit)) => {
                    let across = ray.dir.dot(-self.boundary.normal(i));
                    if hit.t > R::ZERO && across != R::ZERO && self.inside_edge(i, hit.point) {
                        return if across > R::ZERO {
                            Some(inside_hit)
                        } else {
                            (hit.t <= max_t).then_some(hit)
                        };
                    }
                }
            }
        }
        self.cast_ray_slow(ray, max_t, inside_hit)
    }
}

impl<R: Real> ConcavePolygon<R> {
    /// True when `p` lies in the bounding box widened by the on-segment tolerance.
    fn near_boundary_box(&self, p: R::V2) -> bool {
        let tol = self.boundary.on_segment_tolerance(p);
        self.local_aabb().loosened(tol).contains_point(p)
    }

    /// True when `p` (on boundary edge `i`) is away from the edge's end points.
    fn inside_edge(&self, i: u32, p: R::V2) -> bool {
        let s = self.boundary.segment(i);
        let e = s.direction();
        let u = (p - s.a).dot(e) / e.length_squared();
        let tol = eps::<R>(FLAT_VERTEX_ULPS);
        u > tol && u < R::ONE - tol
    }

    /// The ray cast decided by a containment test of the origin.
    fn cast_ray_slow(
        &self,
        ray: &Ray<R::V2>,
        max_t: R,
        inside_hit: RayHit<R::V2>,
    ) -> Option<RayHit<R::V2>> {
        if !self.contains_point(ray.origin) {
            return self
                .boundary
                .cast_ray_indexed(ray, max_t)
                .map(|(_, hit)| hit);
        }
        let entering = self
            .boundary
            .cast_ray_indexed(ray, R::ZERO)
            .filter(|(i, hit)| hit.normal.dot(-self.boundary.normal(*i)) > R::ZERO);
        Some(entering.map_or(inside_hit, |(_, hit)| hit))
    }
}

impl<R: Real> ProjectPoint<R::V2> for ConcavePolygon<R> {
    /// Solid (`solid = true`): a point inside projects onto itself. Otherwise the
    /// nearest boundary point; `is_inside` as [`contains_point`](ConcavePolygon::contains_point).
    /// A non-finite `p` gives [`PointProjection::nan`].
    fn project_local_point(&self, p: R::V2, solid: bool) -> PointProjection<R::V2> {
        if !p.is_finite() {
            return PointProjection::nan();
        }
        let is_inside = self.contains_point(p);
        if is_inside && solid {
            return PointProjection {
                point: p,
                is_inside,
            };
        }
        match self.closest_boundary_point(p) {
            Some(point) => PointProjection { point, is_inside },
            None => PointProjection::nan(),
        }
    }
}

impl<R: Real> Composite<R::V2> for ConcavePolygon<R>
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    type Part = Shape<R>;

    fn bvh(&self) -> &Bvh<R::V2> {
        &self.bvh
    }

    fn part_count(&self) -> usize {
        self.parts.len()
    }

    fn with_part<T>(&self, i: u32, f: impl FnOnce(&Pose2<R>, &Shape<R>) -> T) -> T {
        f(
            &<Pose2<R> as Isometry<R::V2>>::IDENTITY,
            &self.parts[i as usize],
        )
    }

    /// The first crossing of the outline ([`cast_ray_all`](Self::cast_ray_all)): the
    /// convex pieces' shared diagonals are not boundary.
    fn cast_ray_boundary(&self, ray: &Ray<R::V2>, max_t: R) -> Option<RayHit<R::V2>> {
        self.cast_ray_all(ray, max_t).first().map(|(_, hit)| *hit)
    }

    /// The pieces' internal edges and vertices are not surface. A normal of piece `i`
    /// equal (within [`FLAT_VERTEX_ULPS`]) to the normal of one of the piece's boundary
    /// edges is kept. Otherwise the other shape sits at the piece's support vertex `v`
    /// in the direction of `normal` (the piece's vertex farthest along it), and the
    /// normal is mapped into the boundary's normal cone at `v`: kept inside a convex
    /// corner's cone (between its two edges' normals) and clamped to the nearer bound
    /// outside it; at a flat or reflex vertex (no cone) it becomes the nearer of its two
    /// edges' normals. So a shape sliding along a boundary edge across the seam of two
    /// pieces gets the edge's normal, never the seam's. A non-finite normal and an index
    /// out of range keep the normal.
    fn correct_normal(&self, i: u32, normal: R::V2) -> R::V2 {
        let (Some(ids), Some(edge_normals)) = (
            self.piece_ids.get(i as usize),
            self.piece_normals.get(i as usize),
        ) else {
            return normal;
        };
        if !normal.is_finite() {
            return normal;
        }
        let tol = eps::<R>(FLAT_VERTEX_ULPS);
        if edge_normals.iter().any(|&e| in_cone(e, e, normal, tol)) {
            return normal;
        }
        let points = self.boundary.vertices();
        let reach = |v: u32| points[v as usize].dot(normal);
        let Some(top) = ids.iter().map(|&v| reach(v)).reduce(R::max) else {
            return normal;
        };
        // A normal off an internal edge ties that edge's two ends for the support (up
        // to rounding): each end maps the normal into its cone and the smallest change
        // wins, so a shape on a flat top across a seam keeps the top's normal.
        let tie = tol * (R::ONE + top.abs());
        ids.iter()
            .filter(|&&v| reach(v) >= top - tie)
            .map(|&v| self.corners[v as usize].clamp(normal, tol))
            .reduce(|a, b| if b.dot(normal) > a.dot(normal) { b } else { a })
            .unwrap_or(normal)
    }

    /// [`correct_normal`](Self::correct_normal) knowing the contact point: a point
    /// on one of the piece's boundary vertices (within the boundary's on-segment
    /// tolerance) maps the normal into that vertex's normal cone; elsewhere, or for a
    /// non-finite point, the support-vertex rule of `correct_normal` answers.
    fn correct_normal_at(&self, i: u32, point: R::V2, normal: R::V2) -> R::V2 {
        let Some(ids) = self.piece_ids.get(i as usize) else {
            return normal;
        };
        if !(point.is_finite() && normal.is_finite()) {
            return self.correct_normal(i, normal);
        }
        let reach = self.boundary.on_segment_tolerance(point);
        let points = self.boundary.vertices();
        match ids
            .iter()
            .find(|&&v| points[v as usize].distance(point) <= reach)
        {
            Some(&v) => self.corners[v as usize].clamp(normal, eps::<R>(FLAT_VERTEX_ULPS)),
            None => self.correct_normal(i, normal),
        }
    }

    fn contains_local_point(&self, p: R::V2) -> bool {
        self.contains_point(p)
    }
}

/// [`ShapeError::TooLarge`] for the first finite point of the rings (counted through
/// them in order) with a coordinate beyond [`Real::MAX_COORD`].
fn check_rings_magnitude<V: Vector>(rings: &[Vec<V>]) -> Result<(), ShapeError> {
    let mut index = 0;
    for ring in rings {
        for &p in ring {
            crate::shape::error::check_coord_magnitude("ConcavePolygon", "points", Some(index), p)?;
            index += 1;
        }
    }
    Ok(())
}
