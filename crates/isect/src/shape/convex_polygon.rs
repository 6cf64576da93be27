//! Convex polygon in 2D (seed 001: the shape the separating-axis test works on).
//!
//! Construction tolerances (in machine epsilons, relative to the edge lengths):
//! [`COLLINEAR_ULPS`] decides when a middle vertex is collinear (and dropped) and
//! when a turn counts as a reflex turn; [`ZERO_AREA_ULPS`] decides when the area is
//! zero (relative to the squared size of the bounding box). `contains_point` accepts
//! points up to [`BOUNDARY_ULPS`] times the polygon's coordinate scale from an edge
//! (corners rounded, not mitred), so points computed on the boundary count as inside. The bounding circle's radius is
//! widened by [`CIRCLE_ULPS`] (relative to the radius and the centre's coordinates).

use super::error::{check_coord_list, ShapeError};
use super::{Aabb, Ray, RayHit, Segment};
use crate::algo::clip::cast_ray_half_spaces;
use crate::algo::support::{support_of_points, SupportMap};
use crate::math::tolerance::eps;
use crate::math::{Isometry, Pose2, Real, Vector, Vector2};
use crate::query::RayCast;

/// A turn whose cross product is within this many epsilons of `|e1|·|e2|` is straight.
pub const COLLINEAR_ULPS: f64 = 16.0;
/// An area within this many epsilons of the bounding box's area is zero.
pub const ZERO_AREA_ULPS: f64 = 64.0;
/// `contains_point` slack, in epsilons of the largest vertex coordinate.
pub const BOUNDARY_ULPS: f64 = 8.0;

/// Relative widening of the bounding circle's radius, in machine epsilons.
pub const CIRCLE_ULPS: f64 = 16.0;

/// Segment intersection tests in the error path run at most this many edge pairs.
const MAX_CROSSING_CHECKS: usize = 1 << 20;

/// A solid convex polygon: vertices counter-clockwise, no duplicates, no collinear
/// middle vertices, and the unit outward normal of each edge `vertices[i] → vertices[i+1]`.
#[derive(Clone, PartialEq)]
pub struct ConvexPolygon<R: Real> {
    /// The vertices, then the edge normals: one allocation, so a query reads one
    /// block of memory (a contact manifold of two polygons missed the cache on two).
    vertices_normals: Vec<R::V2>,
    scale: R,
    center: R::V2,
    radius: R,
}

impl<R: Real> core::fmt::Debug for ConvexPolygon<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ConvexPolygon")
            .field("vertices", &self.vertices())
            .field("normals", &self.normals())
            .field("scale", &self.scale)
            .field("center", &self.center)
            .field("radius", &self.radius)
            .finish()
    }
}

impl<R: Real> ConvexPolygon<R> {
    /// The polygon through `points`, in either winding. Consecutive duplicates (also
    /// last-to-first) and collinear middle vertices are removed.
    ///
    /// # Errors
    /// - [`ShapeError::NotFinite`] for a NaN or infinite point;
    /// - [`ShapeError::TooLarge`] for a coordinate beyond [`Real::MAX_COORD`];
    /// - [`ShapeError::TooFewPoints`] for fewer than 3 distinct vertices;
    /// - [`ShapeError::SelfIntersecting`] when two edges cross (a bow-tie, or a star
    ///   that turns the same way at every vertex), naming the input index of each edge's first vertex;
    /// - [`ShapeError::NotConvex`] naming the input index of a reflex vertex (or a spike that doubles back);
    /// - [`ShapeError::Degenerate`] for a zero-area outline (all points on one line).
    pub fn new(points: &[R::V2]) -> Result<Self, ShapeError> {
        Self::build(points, false)
    }

    /// [`ConvexPolygon::new`] for an outline known not to wind more than once (a
    /// piece of a planar decomposition, whose edges do not cross): the winding test,
    /// an `atan2` per vertex, is skipped.
    pub(crate) fn from_simple_outline(points: &[R::V2]) -> Result<Self, ShapeError> {
        Self::build(points, true)
    }

    fn build(points: &[R::V2], simple: bool) -> Result<Self, ShapeError> {
        if points.iter().any(|p| !p.is_finite()) {
            return Err(ShapeError::NotFinite {
                shape: "ConvexPolygon",
                field: "points",
            });
        }
        check_coord_list("ConvexPolygon", "points", points)?;
        if simple {
            if let Some(polygon) = Self::counter_clockwise(points) {
                return Ok(polygon);
            }
        }
        let ring = dedup_ring(points);
        if ring.len() < 3 {
            return Err(too_few(ring.len()));
        }
        let pts: Vec<R::V2> = ring.iter().map(|&i| points[i]).collect();
        let scale = pts
            .iter()
            .fold(R::ZERO, |m, p| m.max(p.abs().max_element()));
        let turns = turn_signs(&pts);
        let winding = classify_turns(&pts, &turns, &ring, simple)?;
        let mut kept: Vec<usize> = (0..pts.len()).filter(|&i| turns[i] != 0).collect();
        if winding < 0 {
            kept.reverse();
        }
        let vertices: Vec<R::V2> = kept.iter().map(|&i| pts[i]).collect();
        if vertices.len() < 3 {
            return Err(too_few(vertices.len()));
        }
        let normals = edge_normals(&vertices);
        let (center, radius) = bounding_circle(&vertices);
        Ok(Self {
            vertices_normals: [vertices, normals].concat(),
            scale,
            center,
            radius,
        })
    }

    /// The common case of [`build`](Self::build) for a simple outline, without its
    /// scratch lists (the pieces of a concave polygon, by the tens of thousands): no
    /// repeated neighbours and every turn a left turn beyond [`COLLINEAR_ULPS`], with a
    /// positive area that passes [`ZERO_AREA_ULPS`]. `None` otherwise (the general
    /// path then decides, with the same tests).
    fn counter_clockwise(points: &[R::V2]) -> Option<Self> {
        let n = points.len();
        if n < 3 {
            return None;
        }
        let left_turns = (0..n).all(|i| {
            let e1 = points[i] - points[(i + n - 1) % n];
            let e2 = points[(i + 1) % n] - points[i];
            let tol = e1.length() * e2.length() * eps::<R>(COLLINEAR_ULPS);
            e1 != R::V2::ZERO && e1.perp_dot(e2) > tol
        });
        if !left_turns || check_area(points).is_err() || twice_area(points) <= R::ZERO {
            return None;
        }
        let vertices = points.to_vec();
        let scale = vertices
            .iter()
            .fold(R::ZERO, |m, p| m.max(p.abs().max_element()));
        let normals = edge_normals(&vertices);
        let (center, radius) = bounding_circle(&vertices);
        Some(Self {
            vertices_normals: [vertices, normals].concat(),
            scale,
            center,
            radius,
        })
    }

    /// Vertices, counter-clockwise.
    #[inline]
    pub fn vertices(&self) -> &[R::V2] {
        &self.vertices_normals[..self.vertices_normals.len() / 2]
    }

    /// Unit outward normals; `normals()[i]` belongs to edge `vertices[i] → vertices[i+1]`.
    #[inline]
    pub fn normals(&self) -> &[R::V2] {
        &self.vertices_normals[self.vertices_normals.len() / 2..]
    }

    /// The largest absolute vertex coordinate (the scale tolerances refer to).
    #[inline]
    pub fn scale(&self) -> R {
        self.scale
    }

    /// A circle holding the polygon: centre (the vertex mean) and radius (the farthest
    /// vertex, widened by [`CIRCLE_ULPS`] so rounding never leaves a vertex outside).
    #[inline]
    pub fn bounding_circle(&self) -> (R::V2, R) {
        (self.center, self.radius)
    }

    /// True when `p` is inside or on the boundary (within [`BOUNDARY_ULPS`]); false
    /// for a non-finite point. The slack rounds the corners: a point outside an edge line by
    /// at most the slack counts as inside only when it lies within the slack of an
    /// edge. Widening each edge line by the slack would push a vertex `θ` sharp out
    /// by `slack / sin(θ/2)`: an `f32` needle 9e5 long and a few units wide accepted
    /// a point 13,395 beyond its tip (`regressions/concave_polygon_needles.rs`; the
    /// bounding circle, tested first, only rejects points beyond the far vertex,
    /// `regressions/fuzz_artifacts.rs`, `decomposition_2651cb86`).
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let tri = ConvexPolygon::new(&[Vec2::ZERO, Vec2::new(4.0, 0.0), Vec2::new(0.0, 4.0)])?;
    /// assert!(tri.contains_point(Vec2::new(2.0, 2.0))); // on the hypotenuse
    /// assert!(!tri.contains_point(Vec2::new(2.5, 2.0)));
    /// # Ok(())
    /// # }
    /// ```
    pub fn contains_point(&self, p: R::V2) -> bool {
        if !p.is_finite() {
            return false;
        }
        let slack = self.scale.max(p.abs().max_element()) * eps::<R>(BOUNDARY_ULPS);
        let reach = self.radius + slack;
        if p.distance_squared(self.center) > reach * reach {
            return false;
        }
        let mut in_band = false;
        for (&v, &n) in self.vertices().iter().zip(self.normals()) {
            let out = n.dot(p - v);
            if out > slack {
                return false;
            }
            in_band |= out > R::ZERO;
        }
        !in_band || self.near_edge(p, slack)
    }

    /// True when `p` lies within `slack` of an edge.
    fn near_edge(&self, p: R::V2, slack: R) -> bool {
        let n = self.vertices().len();
        (0..n).any(|i| {
            let edge = Segment {
                a: self.vertices()[i],
                b: self.vertices()[(i + 1) % n],
            };
            edge.closest_point(p).0.distance_squared(p) <= slack * slack
        })
    }

    /// The world-space bounding box of the polygon placed at `pose`.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let tri = ConvexPolygon::new(&[Vec2::ZERO, Vec2::new(4.0, 0.0), Vec2::new(0.0, 2.0)])?;
    /// let b = tri.aabb(&Pose::from_translation(Vec2::new(1.0, 1.0)));
    /// assert_eq!((b.min, b.max), (Vec2::ONE, Vec2::new(5.0, 3.0)));
    /// # Ok(())
    /// # }
    /// ```
    pub fn aabb(&self, pose: &Pose2<R>) -> Aabb<R::V2> {
        let first = pose.transform_point(self.vertices()[0]);
        self.vertices()[1..].iter().fold(
            Aabb {
                min: first,
                max: first,
            },
            |b, &v| {
                let w = pose.transform_point(v);
                Aabb {
                    min: b.min.min(w),
                    max: b.max.max(w),
                }
            },
        )
    }
}

/// Vertex mean and the largest distance from it, widened by [`CIRCLE_ULPS`].
fn bounding_circle<V: Vector>(vertices: &[V]) -> (V, V::Scalar) {
    let sum = vertices.iter().fold(V::ZERO, |acc, &v| acc + v);
    let center = sum / V::Scalar::from_f64(vertices.len() as f64);
    let far = vertices
        .iter()
        .fold(V::Scalar::ZERO, |m, &v| m.max(v.distance(center)));
    let slack = eps::<V::Scalar>(CIRCLE_ULPS) * (far + center.abs().max_element());
    (center, far + slack)
}

fn too_few(got: usize) -> ShapeError {
    ShapeError::TooFewPoints {
        shape: "ConvexPolygon",
        needed: 3,
        got,
    }
}

/// Input indices of the points left after dropping consecutive duplicates, last-to-first included.
fn dedup_ring<V: Vector>(points: &[V]) -> Vec<usize> {
    let mut ring: Vec<usize> = Vec::with_capacity(points.len());
    for (i, &p) in points.iter().enumerate() {
        if ring.last().is_none_or(|&j| points[j] != p) {
            ring.push(i);
        }
    }
    while ring.len() > 1 && points[ring[0]] == points[ring[ring.len() - 1]] {
        ring.pop();
    }
    ring
}

/// Twice the signed area (shoelace), positive for counter-clockwise.
fn twice_area<V: Vector2>(pts: &[V]) -> V::Scalar {
    let o = pts[0];
    (1..pts.len() - 1).fold(V::Scalar::ZERO, |acc, i| {
        acc + (pts[i] - o).perp_dot(pts[i + 1] - o)
    })
}

/// Rejects an outline whose area is zero relative to its bounding box.
fn check_area<V: Vector2>(pts: &[V]) -> Result<(), ShapeError> {
    let (lo, hi) = pts
        .iter()
        .fold((pts[0], pts[0]), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    let size = hi - lo;
    let box_area = size.x() * size.y();
    let flat = size.min_element() <= size.max_element() * eps::<V::Scalar>(ZERO_AREA_ULPS);
    if flat || twice_area(pts).abs() <= box_area * eps::<V::Scalar>(ZERO_AREA_ULPS) {
        return Err(ShapeError::Degenerate {
            shape: "ConvexPolygon",
            reason: "zero area: the points lie on one line",
        });
    }
    Ok(())
}

/// Per vertex: +1 left turn, −1 right turn, 0 straight on, 2 doubling back (a spike).
fn turn_signs<V: Vector2>(pts: &[V]) -> Vec<i8> {
    let n = pts.len();
    (0..n)
        .map(|i| {
            let e1 = pts[i] - pts[(i + n - 1) % n];
            let e2 = pts[(i + 1) % n] - pts[i];
            let cross = e1.perp_dot(e2);
            let tol = e1.length() * e2.length() * eps::<V::Scalar>(COLLINEAR_ULPS);
            if cross > tol {
                1
            } else if cross < -tol {
                -1
            } else if e1.dot(e2) > V::Scalar::ZERO {
                0
            } else {
                2
            }
        })
        .collect()
}

/// The winding (+1 counter-clockwise, −1 clockwise) of a convex outline, or the
/// reason it is not one: crossing edges first, then zero area, then a reflex vertex. `ring[i]` is the input index of `pts[i]`.
/// A `simple` outline (known not to wind more than once) skips the winding test.
fn classify_turns<V: Vector2>(
    pts: &[V],
    turns: &[i8],
    ring: &[usize],
    simple: bool,
) -> Result<i8, ShapeError> {
    let mixed = turns.contains(&2) || (turns.contains(&1) && turns.contains(&-1));
    if mixed {
        if let Some(crossing) = find_crossing(pts, ring) {
            return Err(crossing);
        }
    }
    check_area(pts)?;
    let winding: i8 = if twice_area(pts) > V::Scalar::ZERO {
        1
    } else {
        -1
    };
    if let Some(vertex) = turns.iter().position(|&t| t == -winding || t == 2) {
        return Err(ShapeError::NotConvex {
            shape: "ConvexPolygon",
            vertex: ring[vertex],
        });
    }
    // Every turn goes the same way: the outline is simple iff it winds once.
    if !simple && total_turning(pts, turns).abs() > V::Scalar::PI * V::Scalar::from_f64(3.0) {
        return Err(find_crossing(pts, ring).unwrap_or(ShapeError::Degenerate {
            shape: "ConvexPolygon",
            reason: "outline winds more than once",
        }));
    }
    Ok(winding)
}

/// Sum of the signed exterior angles: ±2π for a simple convex outline, ±2πk for a star.
fn total_turning<V: Vector2>(pts: &[V], turns: &[i8]) -> V::Scalar {
    let n = pts.len();
    (0..n)
        .filter(|&i| turns[i] != 0)
        .map(|i| {
            let e1 = pts[i] - pts[(i + n - 1) % n];
            let e2 = pts[(i + 1) % n] - pts[i];
            e1.perp_dot(e2).atan2(e1.dot(e2))
        })
        .fold(V::Scalar::ZERO, |a, b| a + b)
}

/// The first pair of non-adjacent edges that cross or touch, as a
/// [`ShapeError::SelfIntersecting`] with input indices.
fn find_crossing<V: Vector2>(pts: &[V], ring: &[usize]) -> Option<ShapeError> {
    let n = pts.len();
    let pairs = (0..n).flat_map(|i| (i + 2..n).map(move |j| (i, j)));
    pairs
        .filter(|&(i, j)| (j + 1) % n != i)
        .take(MAX_CROSSING_CHECKS)
        .find_map(|(i, j)| {
            let relation = segments_meet(pts[i], pts[(i + 1) % n], pts[j], pts[(j + 1) % n])?;
            Some(ShapeError::SelfIntersecting {
                shape: "ConvexPolygon",
                edge_a: ring[i],
                edge_b: ring[j],
                relation,
            })
        })
}

/// How the closed segments `ab` and `cd` meet (orientation test): `"crosses"` inside
/// both, `"touches"` at an end point, `"overlaps (touches along a stretch of)"` when
/// collinear; `None` when apart.
fn segments_meet<V: Vector2>(a: V, b: V, c: V, d: V) -> Option<&'static str> {
    let zero = V::Scalar::ZERO;
    let o1 = (b - a).perp_dot(c - a);
    let o2 = (b - a).perp_dot(d - a);
    let o3 = (d - c).perp_dot(a - c);
    let o4 = (d - c).perp_dot(b - c);
    let straddle =
        |p: V::Scalar, q: V::Scalar| (p <= zero && q >= zero) || (p >= zero && q <= zero);
    if o1 == zero && o2 == zero {
        // Collinear: overlap of the projections on the line.
        let dir = b - a;
        let (s0, s1) = ((c - a).dot(dir), (d - a).dot(dir));
        let (lo, hi) = (s0.min(s1), s0.max(s1));
        return if lo < dir.dot(dir) && hi > zero {
            Some("overlaps (touches along a stretch of)")
        } else if lo <= dir.dot(dir) && hi >= zero {
            Some("touches")
        } else {
            None
        };
    }
    if !(straddle(o1, o2) && straddle(o3, o4)) {
        return None;
    }
    let inside = [o1, o2, o3, o4].iter().all(|&o| o != zero);
    Some(if inside { "crosses" } else { "touches" })
}

/// Unit outward normals of a counter-clockwise outline: the edge turned by −90°.
fn edge_normals<V: Vector2>(vertices: &[V]) -> Vec<V> {
    let n = vertices.len();
    (0..n)
        .map(|i| {
            let e = vertices[(i + 1) % n] - vertices[i];
            let outward = V::new(e.y(), -e.x());
            // Edges have non-zero length (duplicates removed), and `try_normalize`
            // rescales tiny ones (their squared length underflows): never `None`.
            outward.try_normalize().unwrap_or(V::ZERO)
        })
        .collect()
}

impl<R: Real> SupportMap<R::V2> for ConvexPolygon<R> {
    /// The vertex farthest along `dir` (the first vertex for a zero or NaN `dir`).
    #[inline]
    fn local_support(&self, dir: R::V2) -> R::V2 {
        support_of_points(self.vertices(), dir)
    }
}

impl<R: Real> RayCast<R::V2> for ConvexPolygon<R> {
    /// Cyrus–Beck clipping ([`cast_ray_half_spaces`]) against each edge's half-plane. An origin on an
    /// edge moving inward hits at `t = 0` with that edge's normal; an origin inside hits
    /// at `0` with a zero normal; a ray along an edge's line outside the polygon misses,
    /// on the line it grazes.
    fn cast_ray(&self, ray: &Ray<R::V2>, max_t: R) -> Option<RayHit<R::V2>> {
        let edges = self.vertices().iter().zip(self.normals());
        cast_ray_half_spaces(edges.map(|(&v, &n)| (n, n.dot(v))), ray, max_t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, Vec2};

    fn poly(points: &[(f64, f64)]) -> Result<ConvexPolygon<f64>, ShapeError> {
        let pts: Vec<DVec2> = points.iter().map(|&(x, y)| DVec2::new(x, y)).collect();
        ConvexPolygon::new(&pts)
    }

    // Clockwise input with duplicates and a collinear middle vertex becomes a CCW square.
    #[test]
    fn normalises_outline() {
        let p = poly(&[
            (0.0, 0.0),
            (0.0, 1.0),
            (0.0, 1.0),
            (1.0, 1.0),
            (1.0, 0.5),
            (1.0, 0.0),
            (0.0, 0.0),
        ])
        .unwrap();
        assert_eq!(p.vertices().len(), 4);
        assert!(twice_area(p.vertices()) > 0.0);
        for (i, n) in p.normals().iter().enumerate() {
            assert!((n.length() - 1.0).abs() < 1e-15);
            let c = DVec2::splat(0.5);
            assert!(n.dot(p.vertices()[i] - c) > 0.0, "normal {i} not outward");
        }
    }

    // Each bad input gets its own named error.
    #[test]
    fn rejects_bad_outlines() {
        assert!(matches!(
            poly(&[(0.0, 0.0), (1.0, 0.0), (1.0, 0.0)]),
            Err(ShapeError::TooFewPoints { got: 2, .. })
        ));
        assert!(matches!(
            poly(&[(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)]),
            Err(ShapeError::Degenerate { .. })
        ));
        assert!(matches!(
            poly(&[(0.0, f64::NAN), (1.0, 0.0), (0.0, 1.0)]),
            Err(ShapeError::NotFinite { .. })
        ));
        // An arrowhead: reflex at input vertex 2.
        let arrow = poly(&[(0.0, 0.0), (2.0, 0.0), (1.0, 0.5), (2.0, 2.0), (0.0, 2.0)]);
        assert_eq!(
            arrow,
            Err(ShapeError::NotConvex {
                shape: "ConvexPolygon",
                vertex: 2
            })
        );
        // A bow-tie: edge 0→1 crosses edge 2→3.
        let bow = poly(&[(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0)]);
        assert_eq!(
            bow,
            Err(ShapeError::SelfIntersecting {
                shape: "ConvexPolygon",
                edge_a: 0,
                edge_b: 2,
                relation: "crosses"
            })
        );
        // A pentagram turns left at every vertex but winds twice.
        let star: Vec<(f64, f64)> = (0..5)
            .map(|k| {
                let a = core::f64::consts::TAU * (2 * k) as f64 / 5.0;
                (a.cos(), a.sin())
            })
            .collect();
        assert!(matches!(
            poly(&star),
            Err(ShapeError::SelfIntersecting { .. })
        ));
    }

    // Boundary points are inside, points a hair outside are not, NaN is not.
    #[test]
    fn contains_point_boundary() {
        let tri =
            ConvexPolygon::<f32>::new(&[Vec2::ZERO, Vec2::new(3.0, 0.0), Vec2::new(0.0, 3.0)])
                .unwrap();
        assert!(tri.contains_point(Vec2::new(1.5, 1.5)));
        assert!(tri.contains_point(Vec2::ZERO));
        assert!(tri.contains_point(Vec2::new(1.0, 0.0)));
        assert!(!tri.contains_point(Vec2::new(1.0, -1e-4)));
        assert!(!tri.contains_point(Vec2::new(1.51, 1.51)));
        assert!(!tri.contains_point(Vec2::NAN));
    }

    // Rays: entering an edge, starting inside, grazing along an edge line, NaN.
    #[test]
    fn ray_cast() {
        let sq = poly(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]).unwrap();
        let hit = sq
            .cast_ray(&Ray::new(DVec2::new(-1.0, 0.5), DVec2::X).unwrap(), 10.0)
            .unwrap();
        assert_eq!((hit.t, hit.normal), (1.0, -DVec2::X));
        let inside = sq
            .cast_ray(&Ray::new(DVec2::splat(0.5), DVec2::Y).unwrap(), 10.0)
            .unwrap();
        assert_eq!((inside.t, inside.normal), (0.0, DVec2::ZERO));
        let graze = sq.cast_ray(&Ray::new(DVec2::new(-1.0, 1.0), DVec2::X).unwrap(), 10.0);
        assert_eq!(graze.map(|h| h.t), Some(1.0));
        let above = sq.cast_ray(&Ray::new(DVec2::new(-1.0, 1.5), DVec2::X).unwrap(), 10.0);
        assert!(above.is_none());
        let nan = Ray {
            origin: DVec2::NAN,
            dir: DVec2::X,
        };
        assert!(sq.cast_ray(&nan, 10.0).is_none());
    }
}
