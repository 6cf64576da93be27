//! [`Polyline`]: 2D segments over shared vertices (an open chain, a closed loop or any
//! list of segments) under a [`Bvh`], and the segment core it shares with
//! [`HeightField`](super::heightfield_2d::HeightField) and the boundary of
//! [`ConcavePolygon`](super::ConcavePolygon).
//!
//! References: the tree is the static [`Bvh`] (Ericson 6.2);
//! closest points on segments follow Ericson 5.1.2; the internal-vertex normal
//! correction follows the idea of Box2D's chain shapes (ghost vertices, Catto 2010,
//! "Ghost vertices"): at a vertex where the surface is flat or concave the only real
//! normal is the segment's own, while a convex vertex owns the cone between the normals
//! of its two segments. With the contact's witness point known (`correct_normal_at`,
//! what the composite queries use) the feature is read from the point, as the 3D
//! meshes do: inside a segment its own normal, at a vertex that vertex's cone. A point
//! that is not a deepest point of its segment along the normal was found for another
//! normal (the second correction of a pair of composites) and leaves the decision to
//! the normal's lean.
//!
//! Tolerances: [`FLAT_VERTEX_ULPS`] (sine of the turn below which a vertex is flat, and
//! of the lean below which a normal is the segment's own), [`ON_SEGMENT_ULPS`]
//! (distance, relative to the coordinates, within which a point lies on a segment) and
//! `√ε` of a segment's length (plus that rounding: the distance from an end within
//! which a witness lies at the vertex, the precision of a witness from GJK/EPA).

use crate::algo::gjk::GjkVector;
use crate::broad::Bvh;
use crate::math::tolerance::eps;
use crate::math::{Isometry, Pose2, Real, Vector, Vector2};
use crate::query::project_point::{PointProjection, ProjectPoint};
use crate::query::RayCast;
use crate::shape::composite::Composite;
use crate::shape::error::{check_coord_list, ShapeError};
use crate::shape::shape_2d::Shape;
use crate::shape::{Aabb, Ray, RayHit, Segment};

/// A vertex whose turn has a sine below this many epsilons is flat; a normal whose
/// component along its segment is below it is the segment's own normal.
pub const FLAT_VERTEX_ULPS: f64 = 64.0;
/// A point within this many epsilons of the coordinates' magnitude from a segment lies
/// on it (point projection's `is_inside`, the boundary of concave polygons).
pub const ON_SEGMENT_ULPS: f64 = 8.0;

/// Segments over shared vertices, each with its unit left normal and the normals of
/// its neighbours, under a [`Bvh`]. Input is validated by the owning shape.
#[derive(Clone, Debug)]
pub(crate) struct SegmentSet<R: Real> {
    vertices: Vec<R::V2>,
    segments: Vec<[u32; 2]>,
    /// Unit left normal (`perp` of the direction) of each segment.
    normals: Vec<R::V2>,
    /// Per segment, at end `a` and end `b`: the left normal of the one other segment
    /// meeting it there, flipped to the orientation of a chain that continues this
    /// segment. `None` at free ends and where three or more segments meet.
    neighbours: Vec<[Option<R::V2>; 2]>,
    bvh: Bvh<R::V2>,
    /// Largest absolute coordinate (the tolerances' scale).
    scale: R,
}

impl<R: Real> SegmentSet<R> {
    /// Builds the set; `vertices` are finite, indices in range, segments not zero-length.
    pub(crate) fn new(vertices: Vec<R::V2>, segments: Vec<[u32; 2]>) -> Self {
        let seg = |s: &[u32; 2]| (vertices[s[0] as usize], vertices[s[1] as usize]);
        let normals: Vec<R::V2> = segments
            .iter()
            .map(|s| {
                let (a, b) = seg(s);
                (b - a).perp().try_normalize().unwrap_or(R::V2::ZERO)
            })
            .collect();
        let boxes: Vec<Aabb<R::V2>> = segments
            .iter()
            .map(|s| {
                let (a, b) = seg(s);
                Aabb {
                    min: a.min(b),
                    max: a.max(b),
                }
            })
            .collect();
        let scale = vertices
            .iter()
            .fold(R::ZERO, |m, v| m.max(v.abs().max_element()));
        let neighbours = neighbour_normals(vertices.len(), &segments, &normals);
        Self {
            bvh: Bvh::build(&boxes),
            vertices,
            segments,
            normals,
            neighbours,
            scale,
        }
    }

    pub(crate) fn vertices(&self) -> &[R::V2] {
        &self.vertices
    }

    pub(crate) fn segments(&self) -> &[[u32; 2]] {
        &self.segments
    }

    pub(crate) fn bvh(&self) -> &Bvh<R::V2> {
        &self.bvh
    }

    /// Unit left normal of segment `i`.
    pub(crate) fn normal(&self, i: u32) -> R::V2 {
        self.normals[i as usize]
    }

    /// Segment `i`. Panics when `i` is out of range (callers pass tree items).
    #[inline]
    pub(crate) fn segment(&self, i: u32) -> Segment<R::V2> {
        let [a, b] = self.segments[i as usize];
        Segment {
            a: self.vertices[a as usize],
            b: self.vertices[b as usize],
        }
    }

    /// Bounding box of every segment (`None` when there is none).
    pub(crate) fn local_aabb(&self) -> Option<Aabb<R::V2>> {
        self.bvh.root_aabb()
    }

    /// The first hit and the segment it is on.
    pub(crate) fn cast_ray_indexed(
        &self,
        ray: &Ray<R::V2>,
        max_t: R,
    ) -> Option<(u32, RayHit<R::V2>)> {
        let (i, t) = self.bvh.cast_ray(ray, max_t, |i, best| {
            Some(self.segment(i).cast_ray(ray, best)?.t)
        })?;
        Some((i, self.segment(i).cast_ray(ray, t)?))
    }

    /// Every hit with `t ∈ [0, max_t]`, by `t`, then segment index.
    pub(crate) fn cast_ray_all(&self, ray: &Ray<R::V2>, max_t: R) -> Vec<(u32, RayHit<R::V2>)> {
        let mut hits = Vec::new();
        self.bvh.cast_ray_all(ray, max_t, |i, _| {
            if let Some(hit) = self.segment(i).cast_ray(ray, max_t) {
                hits.push((i, hit));
            }
            true
        });
        hits.sort_by(|a, b| {
            a.1.t
                .partial_cmp(&b.1.t)
                .unwrap_or(core::cmp::Ordering::Equal)
                .then(a.0.cmp(&b.0))
        });
        hits
    }

    /// Calls `f(i)` for every segment whose box overlaps `region`.
    pub(crate) fn query(&self, region: &Aabb<R::V2>, mut f: impl FnMut(u32)) {
        self.bvh.query(region, |i| {
            f(i);
            true
        });
    }

    /// The segment nearest to `p`, its closest point and the squared distance; `None`
    /// for a non-finite `p` or an empty set. The tree's branch-and-bound walk
    /// ([`Bvh::nearest`]) on squared distances; among equally near segments the
    /// first the walk reaches wins (they share the distance).
    pub(crate) fn nearest(&self, p: R::V2) -> Option<(u32, R::V2, R)> {
        let (i, d2) = self.bvh.nearest(p, |i, _| {
            Some(self.segment(i).closest_point(p).0.distance_squared(p))
        })?;
        Some((i, self.segment(i).closest_point(p).0, d2))
    }

    /// Distance below which a point counts as on a segment near `p`.
    pub(crate) fn on_segment_tolerance(&self, p: R::V2) -> R {
        self.scale.max(p.abs().max_element()) * eps::<R>(ON_SEGMENT_ULPS)
    }

    /// The projection onto the segments; `is_inside` when `p` lies on one.
    pub(crate) fn project(&self, p: R::V2) -> PointProjection<R::V2> {
        match self.nearest(p) {
            Some((_, q, d2)) => {
                let tol = self.on_segment_tolerance(p);
                PointProjection {
                    point: q,
                    is_inside: d2 <= tol * tol,
                }
            }
            None => PointProjection::nan(),
        }
    }

    /// The two-sided internal-vertex correction (see [`Polyline::correct_normal`]).
    pub(crate) fn correct_normal(&self, i: u32, n: R::V2) -> R::V2 {
        let Some((left, side)) = self.normal_and_side(i, n) else {
            return n;
        };
        let face = left * side;
        let dir = R::V2::new(left.y(), -left.x());
        let along = n.dot(dir);
        let tol = eps::<R>(FLAT_VERTEX_ULPS);
        if along.abs() <= tol {
            return n;
        }
        let (end, out) = if along > R::ZERO { (1, dir) } else { (0, -dir) };
        let Some(other) = self.neighbours[i as usize][end] else {
            return n; // A free end: its whole half-disc of normals is real.
        };
        let other = other * side;
        if other.dot(out) > tol {
            // Convex on this side: the cone from `face` to `other` is real surface.
            if n.dot(face) >= other.dot(face) {
                n
            } else {
                other
            }
        } else {
            face // Flat or concave: only the segment's own normal is real.
        }
    }

    /// Segment `i`'s left normal and the side of it `n` points to (`±1`), or `None`
    /// when there is nothing to correct (no such segment, a non-finite normal).
    fn normal_and_side(&self, i: u32, n: R::V2) -> Option<(R::V2, R)> {
        let &left = self.normals.get(i as usize)?;
        if !n.is_finite() {
            return None;
        }
        let side = if n.dot(left) >= R::ZERO {
            R::ONE
        } else {
            -R::ONE
        };
        Some((left, side))
    }

    /// The point-aware correction (see [`Polyline::correct_normal_at`]): the end of
    /// segment `i` that `point` lies at decides, not the normal's lean.
    pub(crate) fn correct_normal_at(&self, i: u32, point: R::V2, n: R::V2) -> R::V2 {
        let Some((left, side)) = self.normal_and_side(i, n) else {
            return n;
        };
        if !point.is_finite() {
            return self.correct_normal(i, n);
        }
        let dir = R::V2::new(left.y(), -left.x());
        let tol = eps::<R>(FLAT_VERTEX_ULPS);
        // The segment's own normal (on either side, or a degenerate segment's zero
        // normal): nothing to correct.
        if n.dot(dir).abs() <= tol {
            return n;
        }
        let face = left * side;
        let seg = self.segment(i);
        let reach = self.witness_reach(&seg, point);
        // A witness is a deepest point of the segment along `n`. One that is not (by
        // more than its precision) was found for another normal, e.g. before the other
        // composite of a pair corrected it: the normal's lean tells the feature then.
        if seg.a.dot(n).max(seg.b.dot(n)) - point.dot(n) > reach {
            return self.correct_normal(i, n);
        }
        let Some(end) = end_at(&seg, point, reach) else {
            return face; // Inside the segment: only its own normal is real.
        };
        let out = if end == 1 { dir } else { -dir };
        match self.neighbours[i as usize][end] {
            Some(other) => vertex_cone(face, other * side, out, n, tol),
            None => n, // A free end: its whole half-disc of normals is real.
        }
    }

    /// The precision of a contact's witness `p` on segment `s`: `√ε` of the segment's
    /// length (GJK/EPA witnesses) plus the coordinates' rounding
    /// ([`on_segment_tolerance`](Self::on_segment_tolerance)).
    fn witness_reach(&self, s: &Segment<R::V2>, p: R::V2) -> R {
        s.a.distance(s.b) * R::EPSILON.sqrt() + self.on_segment_tolerance(p)
    }
}

/// The end of segment `s` (0 for `a`, 1 for `b`) that `p` lies at, or `None` when `p`
/// is inside the segment. Only `p`'s position along the segment counts (a witness lies
/// on its part); an end claims the points within `reach` of it and every point beyond
/// it.
fn end_at<V: Vector2>(s: &Segment<V>, p: V, reach: V::Scalar) -> Option<usize> {
    let e = s.b - s.a;
    let length = e.length();
    let from_a = (p - s.a).dot(e) / length;
    if from_a <= reach {
        Some(0)
    } else if length - from_a <= reach {
        Some(1)
    } else {
        None
    }
}

/// `n` mapped into the normals of a vertex shared by two segments, seen from the
/// side of `face` (this segment's unit normal on that side): `other` is the other
/// segment's unit normal on the same side, `out` the unit direction leaving this
/// segment through the vertex. At a convex vertex (`other` leans toward `out` beyond
/// `tol`) `n` is kept inside the cone from `face` to `other` and clamped to the nearer
/// bound outside it; at a flat vertex it becomes `face`; at a concave vertex the nearer
/// of `face` and `other` (`face` on a tie).
fn vertex_cone<V: Vector2>(face: V, other: V, out: V, n: V, tol: V::Scalar) -> V {
    let turn = other.dot(out);
    if turn > tol {
        // The cone spans the angles 0 (`face`) to θ (`other`), θ in (0, π), in the
        // frame (`face`, `out`): a lean back over the segment is nearer `face`, one
        // past `other` nearer `other`.
        if n.dot(out) < V::Scalar::ZERO {
            face
        } else if n.dot(face) >= other.dot(face) {
            n
        } else {
            other
        }
    } else if turn >= -tol || n.dot(face) >= n.dot(other) {
        face
    } else {
        other
    }
}

/// Per segment end, the oriented left normal of the single other segment there.
fn neighbour_normals<V: Vector2>(
    vertex_count: usize,
    segments: &[[u32; 2]],
    normals: &[V],
) -> Vec<[Option<V>; 2]> {
    // Up to two (segment, end) incidences per vertex and their count.
    let mut incident = vec![[(0u32, 0usize); 2]; vertex_count];
    let mut count = vec![0usize; vertex_count];
    for (i, s) in segments.iter().enumerate() {
        for (end, &v) in s.iter().enumerate() {
            let v = v as usize;
            if count[v] < 2 {
                incident[v][count[v]] = (i as u32, end);
            }
            count[v] += 1;
        }
    }
    segments
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut out = [None, None];
            for (end, &v) in s.iter().enumerate() {
                let v = v as usize;
                if count[v] != 2 {
                    continue;
                }
                let (j, j_end) = incident[v]
                    .into_iter()
                    .find(|&(j, e)| (j as usize, e) != (i, end))
                    .unwrap_or(incident[v][0]);
                // A chain continuing segment i enters it by the other end.
                let same_way = j_end != end;
                let n = normals[j as usize];
                out[end] = Some(if same_way { n } else { -n });
            }
            out
        })
        .collect()
}

/// A set of 2D segments over shared vertices: an open chain, a closed loop or any
/// segment list, with a [`Bvh`] over the segments. Segments are two-sided surfaces: a
/// polyline has no interior, and may cross itself.
#[derive(Clone, Debug)]
pub struct Polyline<R: Real> {
    set: SegmentSet<R>,
}

impl<R: Real> Polyline<R> {
    /// The chain `vertices[0] → vertices[1] → …`, closed back to `vertices[0]` when
    /// `closed`.
    ///
    /// # Errors
    /// - [`ShapeError::TooFewPoints`]: fewer than 2 vertices (3 for a closed loop);
    /// - [`ShapeError::InvalidVertex`] naming the first non-finite vertex, or a vertex
    ///   equal to the one before it (for a closed loop also the last equal to the first);
    /// - [`ShapeError::TooLarge`]: a coordinate beyond [`Real::MAX_COORD`].
    pub fn new(vertices: Vec<R::V2>, closed: bool) -> Result<Self, ShapeError> {
        let needed = if closed { 3 } else { 2 };
        if vertices.len() < needed {
            return Err(ShapeError::TooFewPoints {
                shape: "Polyline",
                needed,
                got: vertices.len(),
            });
        }
        check_vertices_finite("Polyline", &vertices)?;
        let n = vertices.len() as u32;
        let count = if closed { n } else { n - 1 };
        let segments: Vec<[u32; 2]> = (0..count).map(|i| [i, (i + 1) % n]).collect();
        check_segment_lengths(&vertices, &segments)?;
        Ok(Self {
            set: SegmentSet::new(vertices, segments),
        })
    }

    /// The segments `vertices[s[0]] → vertices[s[1]]` for each `s` of `segments`.
    /// Segments sharing a vertex index are neighbours (for
    /// [`correct_normal`](Composite::correct_normal)); a vertex used by three or more
    /// segments is treated as a free end of each.
    ///
    /// # Errors
    /// - [`ShapeError::Degenerate`]: no segment;
    /// - [`ShapeError::InvalidVertex`]: a non-finite vertex, or the end vertex of a
    ///   zero-length segment;
    /// - [`ShapeError::OutOfRange`]: an index not below `vertices.len()`;
    /// - [`ShapeError::TooLarge`]: a coordinate beyond [`Real::MAX_COORD`].
    pub fn with_segments(
        vertices: Vec<R::V2>,
        segments: Vec<[u32; 2]>,
    ) -> Result<Self, ShapeError> {
        if segments.is_empty() {
            return Err(ShapeError::Degenerate {
                shape: "Polyline",
                reason: "no segments",
            });
        }
        check_vertices_finite("Polyline", &vertices)?;
        if let Some(&bad) = segments
            .iter()
            .flatten()
            .find(|&&k| k as usize >= vertices.len())
        {
            return Err(ShapeError::OutOfRange {
                shape: "Polyline",
                field: "segments",
                value: f64::from(bad),
                range: "[0, vertex count)",
            });
        }
        check_segment_lengths(&vertices, &segments)?;
        Ok(Self {
            set: SegmentSet::new(vertices, segments),
        })
    }

    /// The vertices.
    #[inline]
    pub fn vertices(&self) -> &[R::V2] {
        self.set.vertices()
    }

    /// The segments as pairs of vertex indices.
    #[inline]
    pub fn segments(&self) -> &[[u32; 2]] {
        self.set.segments()
    }

    /// Segment `i`, or `None` when `i` is out of range.
    pub fn segment(&self, i: u32) -> Option<Segment<R::V2>> {
        ((i as usize) < self.set.segments().len()).then(|| self.set.segment(i))
    }

    /// The bounding box of the polyline in its local frame.
    pub fn local_aabb(&self) -> Aabb<R::V2> {
        // Validation leaves at least one finite segment, so the tree has a root.
        self.set.local_aabb().unwrap_or(Aabb {
            min: R::V2::ZERO,
            max: R::V2::ZERO,
        })
    }

    /// Every point where the ray meets a segment with `t ∈ [0, max_t]`, with the
    /// segment index, ordered by `t` then index. A ray through a shared vertex reports
    /// it once per segment; a ray along a segment reports its first point on it.
    /// Non-finite rays and NaN or negative `max_t` give no hit.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A zigzag fence crossed by a horizontal ray at y = 0.5: one hit per slat.
    /// let fence = Polyline::new(vec![Vec2::ZERO, Vec2::new(1.0, 1.0), Vec2::new(2.0, 0.0), Vec2::new(3.0, 1.0)], false)?;
    /// let hits = fence.cast_ray_all(&Ray::new(Vec2::new(-1.0, 0.5), Vec2::X)?, 10.0);
    /// let at: Vec<(u32, f32)> = hits.iter().map(|(i, h)| (*i, h.t)).collect();
    /// assert_eq!(at, [(0, 1.5), (1, 2.5), (2, 3.5)]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_ray_all(&self, ray: &Ray<R::V2>, max_t: R) -> Vec<(u32, RayHit<R::V2>)> {
        self.set.cast_ray_all(ray, max_t)
    }

    /// The first hit and the index of its segment (see [`RayCast::cast_ray`]).
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // The first slat of a zigzag fence that a ray from the right meets is the last one.
    /// let fence = Polyline::new(vec![Vec2::ZERO, Vec2::new(1.0, 1.0), Vec2::new(2.0, 0.0), Vec2::new(3.0, 1.0)], false)?;
    /// let (slat, hit) = fence.cast_ray_indexed(&Ray::new(Vec2::new(5.0, 0.5), -Vec2::X)?, 10.0).unwrap();
    /// assert_eq!(slat, 2);
    /// assert!((hit.t - 2.5).abs() < 1e-6);
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_ray_indexed(&self, ray: &Ray<R::V2>, max_t: R) -> Option<(u32, RayHit<R::V2>)> {
        self.set.cast_ray_indexed(ray, max_t)
    }
}

/// [`ShapeError::InvalidVertex`] for the first non-finite vertex.
pub(crate) fn check_vertices_finite<V: Vector>(
    shape: &'static str,
    vertices: &[V],
) -> Result<(), ShapeError> {
    match vertices.iter().position(|v| !v.is_finite()) {
        Some(vertex) => Err(ShapeError::InvalidVertex {
            shape,
            vertex,
            reason: "is not finite",
        }),
        None => check_coord_list(shape, "vertices", vertices),
    }
}

/// [`ShapeError::InvalidVertex`] naming the end of the first zero-length segment.
fn check_segment_lengths<V: Vector>(
    vertices: &[V],
    segments: &[[u32; 2]],
) -> Result<(), ShapeError> {
    match segments
        .iter()
        .find(|s| vertices[s[0] as usize] == vertices[s[1] as usize])
    {
        Some(s) => Err(ShapeError::InvalidVertex {
            shape: "Polyline",
            vertex: s[1] as usize,
            reason: "repeats the vertex before it on a segment (zero-length segment)",
        }),
        None => Ok(()),
    }
}

/// `RayCast`, `ProjectPoint` and `Composite` for a 2D shape that is a [`SegmentSet`]
/// in a field `set` (the polyline and the 2D heightfield), each with its own docs.
macro_rules! segment_set_shape {
    (
        $ty:ident,
        cast: $cast:literal,
        project: $project:literal,
        correct: $correct:literal,
        correct_at: $correct_at:literal
    ) => {
        impl<R: Real> RayCast<R::V2> for $ty<R> {
            #[doc = $cast]
            fn cast_ray(&self, ray: &Ray<R::V2>, max_t: R) -> Option<RayHit<R::V2>> {
                self.set.cast_ray_indexed(ray, max_t).map(|(_, hit)| hit)
            }
        }

        impl<R: Real> ProjectPoint<R::V2> for $ty<R> {
            #[doc = $project]
            fn project_local_point(&self, p: R::V2, _solid: bool) -> PointProjection<R::V2> {
                self.set.project(p)
            }
        }

        impl<R: Real> Composite<R::V2> for $ty<R>
        where
            R::V2: GjkVector<Pose = Pose2<R>>,
        {
            type Part = Shape<R>;

            fn bvh(&self) -> &Bvh<R::V2> {
                self.set.bvh()
            }

            fn part_count(&self) -> usize {
                self.set.segments().len()
            }

            fn two_sided(&self) -> bool {
                true
            }

            fn with_part<T>(&self, i: u32, f: impl FnOnce(&Pose2<R>, &Shape<R>) -> T) -> T {
                f(
                    &<Pose2<R> as Isometry<R::V2>>::IDENTITY,
                    &Shape::Segment(self.set.segment(i)),
                )
            }

            #[doc = $correct]
            fn correct_normal(&self, i: u32, normal: R::V2) -> R::V2 {
                self.set.correct_normal(i, normal)
            }

            #[doc = $correct_at]
            fn correct_normal_at(&self, i: u32, point: R::V2, normal: R::V2) -> R::V2 {
                self.set.correct_normal_at(i, point, normal)
            }
        }
    };
}
pub(crate) use segment_set_shape;

segment_set_shape!(
    Polyline,
    cast: "The nearest segment hit, both sides, with that segment's normal facing the ray \
        (the conventions of [`Segment`]'s cast: a ray along a segment hits its near end \
        with `−dir / |dir|`). Non-finite rays and NaN or negative `max_t` miss.",
    project: "The nearest point on a segment (`solid` does not matter: a polyline has no \
        interior); `is_inside` when `p` lies on a segment within [`ON_SEGMENT_ULPS`]. \
        A non-finite `p` gives [`PointProjection::nan`].",
    correct: "Two-sided internal-vertex correction. The side of segment `i` is the one \
        `normal` points to; a normal leaning toward an end of the segment (beyond \
        [`FLAT_VERTEX_ULPS`]) is kept at a free end; at a vertex shared with one other \
        segment it becomes the segment's normal when the vertex is flat or concave on \
        that side (the neighbour's surface continues there: no ghost collision), is kept \
        inside the convex corner's cone and is clamped to the neighbour's normal beyond \
        it. Non-finite normals and indices out of range come back unchanged.",
    correct_at: "The internal-vertex correction knowing the contact's witness `point` on \
        segment `i` (what the composite queries use): the feature the point lies on \
        decides, not the normal's lean. A normal within [`FLAT_VERTEX_ULPS`] of the \
        segment's own is kept. A `point` that is not a deepest point of the segment \
        along `normal` (within the witness precision below) was found for another \
        normal (a pair of composites corrects the pair's normal once per side): the \
        normal's lean decides then, as in [`correct_normal`](Composite::correct_normal). \
        Inside the segment the normal becomes the segment's \
        normal on the side `normal` points to (a shape sliding along a chain of \
        collinear segments gets the surface normal everywhere: no ghost bumps). At an \
        end (within `√ε` of the segment's length plus the coordinates' rounding, \
        [`ON_SEGMENT_ULPS`]; a point beyond an end counts as at it) the vertex decides: \
        a free end (an open chain's end, or a vertex of three or more segments) keeps \
        any normal; a vertex shared with one other segment that is convex on that side \
        keeps the normal inside the cone between the two segments' normals and clamps \
        it to the nearer bound outside it; a flat vertex gives the segment's normal; a \
        concave one the nearer of the two segments' normals. Only the normal changes \
        (the queries re-measure the depth along it). A non-finite `point` falls back \
        to [`correct_normal`](Composite::correct_normal); non-finite normals and \
        indices out of range come back unchanged."
);
