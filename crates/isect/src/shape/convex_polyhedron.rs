//! Convex polyhedron in 3D, from outward planes or from points (via quickhull).
//!
//! From planes: every vertex is the meeting point of three planes (seed 002) that lies
//! behind all the others; the region must be bounded (checked on the extreme rays of
//! its recession cone, each the cross product of two normals) and solid. From points:
//! the triangles of [`crate::algo::hull_3d::convex_hull_3d`], merged into polygons.
//! Point containment is seed 003's plane test, in [`crate::query::polyhedron_tests`].
//!
//! Tolerance: [`POLYHEDRON_PLANE_ULPS`] machine epsilons of the largest coordinate,
//! for "this vertex is on that plane".

use super::error::ShapeError;
use super::plane::Plane;
use crate::algo::hull_3d::convex_hull_3d;
use crate::algo::support::{support_of_points, SupportMap};
use crate::math::tolerance::eps;
use crate::math::{Real, Vector, Vector3};
use crate::query::plane_tests::three_planes_point;

/// On-plane tolerance, in machine epsilons of the polyhedron's largest absolute
/// coordinate (or plane offset): vertices closer than this to a plane lie on it.
pub const POLYHEDRON_PLANE_ULPS: f64 = 256.0;

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

/// A bounded convex polyhedron with at least four non-coplanar vertices. Closed: its
/// boundary belongs to it.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexPolyhedron<R: Real> {
    vertices: Vec<R::V3>,
    faces: Vec<PolyhedronFace<R>>,
    planes: Vec<Plane<R::V3>>,
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
    /// [`ShapeError::TooFewPoints`] for fewer than 4 planes; [`ShapeError::Degenerate`]
    /// when the region is unbounded, empty, or flat.
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
        let tol = eps::<R>(POLYHEDRON_PLANE_ULPS) * (max_d + max_coordinate(&vertices));
        Self::from_vertices_and_planes(vertices, planes.to_vec(), tol)
    }

    /// The convex hull of `points` (quickhull); coplanar triangles become one face.
    ///
    /// # Errors
    /// As [`convex_hull_3d`]: NaN points, or fewer than 4 affinely independent points.
    pub fn from_points(points: &[R::V3]) -> Result<Self, ShapeError> {
        let hull = convex_hull_3d(points)?;
        let tol = eps::<R>(POLYHEDRON_PLANE_ULPS) * max_coordinate(&hull.vertices);
        let mut tris: Vec<(R, Plane<R::V3>)> = Vec::new();
        for t in &hull.triangles {
            let [a, b, c] = t.map(|i| hull.vertices[i]);
            let area = (b - a).cross(c - a).length();
            if let Ok(plane) = Plane::from_points(a, b, c) {
                tris.push((area, plane));
            }
        }
        // Largest triangles first: their normals are the most accurate.
        tris.sort_by(|x, y| y.0.to_f64().total_cmp(&x.0.to_f64()));
        let planes = tris.into_iter().map(|(_, p)| p).collect();
        Self::from_vertices_and_planes(hull.vertices, planes, tol)
    }

    /// Builds the faces: each distinct plane with at least three non-collinear
    /// vertices on it, vertices sorted counter-clockwise around the normal.
    fn from_vertices_and_planes(
        vertices: Vec<R::V3>,
        planes: Vec<Plane<R::V3>>,
        tol: R,
    ) -> Result<Self, ShapeError> {
        let mut faces: Vec<PolyhedronFace<R>> = Vec::new();
        for plane in planes {
            let on: Vec<usize> = (0..vertices.len())
                .filter(|&i| plane.signed_distance(vertices[i]).abs() <= tol)
                .collect();
            let duplicate = faces.iter().any(|f| {
                f.normal().dot(plane.normal()) > R::ZERO && on.iter().all(|i| f.vertices.contains(i))
            });
            if on.len() >= 3 && !duplicate {
                if let Some(sorted) = sort_around(&vertices, &on, plane.normal()) {
                    faces.push(PolyhedronFace {
                        plane,
                        vertices: sorted,
                    });
                }
            }
        }
        if faces.len() < 4 {
            return Err(degenerate("fewer than four faces"));
        }
        let planes = faces.iter().map(|f| f.plane).collect();
        Ok(Self {
            vertices,
            faces,
            planes,
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

    /// The outward face planes, in face order.
    #[inline]
    pub fn planes(&self) -> &[Plane<R::V3>] {
        &self.planes
    }

    /// Point in polyhedron (seed 003): outside iff `(P − Pᵢ)·Nᵢ > 0` for some face.
    /// The boundary is inside; NaN is outside.
    #[inline]
    pub fn contains_point(&self, p: R::V3) -> bool {
        crate::query::polyhedron_tests::point_in_half_spaces(&self.planes, p)
    }

    /// The largest signed distance of `p` to a face plane: ≤ 0 inside, the distance
    /// to the surface for points beyond one face.
    pub fn max_face_distance(&self, p: R::V3) -> R {
        self.planes
            .iter()
            .fold(R::NEG_INFINITY, |m, pl| m.max(pl.signed_distance(p)))
    }

    /// Volume, by the divergence theorem over fan-triangulated faces.
    pub fn volume(&self) -> R {
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

/// The vertices `on` a face sorted counter-clockwise around `normal`, or `None` when
/// they are collinear (the plane only touches an edge).
fn sort_around<V: Vector3>(vertices: &[V], on: &[usize], normal: V) -> Option<Vec<usize>> {
    let count = V::Scalar::from_f64(on.len() as f64);
    let centre = on.iter().fold(V::ZERO, |s, &i| s + vertices[i]) / count;
    let (e1, e2) = normal.orthonormal_basis();
    let angle = |i: usize| {
        let w = vertices[i] - centre;
        w.dot(e2).atan2(w.dot(e1)).to_f64()
    };
    let mut sorted = on.to_vec();
    sorted.sort_by(|&a, &b| angle(a).total_cmp(&angle(b)));
    let area = (1..sorted.len() - 1).fold(V::ZERO, |s, k| {
        let [a, b, c] = [sorted[0], sorted[k], sorted[k + 1]].map(|i| vertices[i]);
        s + (b - a).cross(c - a)
    });
    (area.dot(normal) > V::Scalar::ZERO).then_some(sorted)
}

impl<R: Real> SupportMap<R::V3> for ConvexPolyhedron<R> {
    /// The vertex farthest along `dir` (the first vertex for a zero or NaN `dir`).
    #[inline]
    fn local_support(&self, dir: R::V3) -> R::V3 {
        support_of_points(&self.vertices, dir)
    }
}
