//! 3D convex hull by quickhull (Barber, Dobkin, Huhdanpaa, "The Quickhull Algorithm
//! for Convex Hulls", ACM TOMS 1996; D. Gregorius, "Implementing Quickhull", GDC 2014).
//!
//! Start from a tetrahedron of extreme points; each face keeps the points above it
//! (its conflict list). Repeatedly take a face's farthest point (the eye), find the
//! faces it sees by flooding across edges, replace them by a fan of triangles from the
//! horizon to the eye, and hand the orphaned points to the new faces.
//!
//! Robustness: a point is "above" a face only when its distance exceeds the thick-plane
//! tolerance `HULL_3D_PLANE_ULPS · ε · scale` (`scale` = largest absolute coordinate),
//! so duplicate, collinear and coplanar points are absorbed instead of creating
//! slivers. A point dropped that way can end up outside once a nearly coplanar
//! neighbour face is replaced, so after the main loop every input point that is not a
//! hull vertex is checked against the finished faces, and the loop resumes for those
//! still outside (at most [`HULL_3D_MAX_PASSES`] passes). The main loop runs at most
//! once per input point (each eye is consumed), the hull is checked to be a closed
//! 2-manifold with Euler characteristic 2, and any inconsistency is an error rather
//! than a broken mesh. A face's normal is the cross product of its two shorter edges
//! (at the corner opposite its longest edge), so sliver faces keep accurate planes.
//! Repeated points are considered once (their first copy): a repeat of a hull vertex
//! is on the hull, and letting it be an eye only folded the hull over itself.

use std::collections::{HashMap, VecDeque};

use crate::math::tolerance::eps;
use crate::math::{Real, Vector3};
use crate::shape::concave_polygon::geometry::exact_orient_value;
use crate::shape::error::check_finite;
use crate::shape::ShapeError;

/// Thick-plane tolerance in machine epsilons, relative to the largest absolute
/// coordinate of the input: points closer than this to a face count as on it.
pub const HULL_3D_PLANE_ULPS: f64 = 32.0;

/// Cap on the passes of the main loop: after each, every input point is checked
/// against the finished faces and the loop resumes if one is still outside.
pub const HULL_3D_MAX_PASSES: usize = 4;

/// A triangulated convex hull: the hull's vertices (a subset of the input) and its
/// triangles as indices into `vertices`, counter-clockwise seen from outside.
/// Coplanar faces are split into several triangles. An input point lying on a face
/// or edge (within the thick-plane tolerance) is normally absorbed, but can remain a
/// vertex when it was added before the points that make it coplanar; the surface is
/// still the hull. [`crate::shape::ConvexPolyhedron::from_points`] removes such
/// vertices when it merges the triangles into polygons.
#[derive(Clone, Debug, PartialEq)]
pub struct Hull3d<V> {
    /// The input points that are hull vertices.
    pub vertices: Vec<V>,
    /// Outward-facing triangles, indices into `vertices`.
    pub triangles: Vec<[usize; 3]>,
}

/// One hull triangle during construction.
struct Face<V: Vector3> {
    v: [usize; 3],
    normal: V,
    outside: Vec<usize>,
    alive: bool,
}

/// Construction state: input points, faces, and the directed-edge → face map.
struct Builder<'a, V: Vector3> {
    points: &'a [V],
    tol: V::Scalar,
    faces: Vec<Face<V>>,
    edges: HashMap<(usize, usize), usize>,
    /// Faces that received conflict points when created (some may be dead since),
    /// oldest first: old faces are large, so their eyes are the hull's extreme points.
    pending: VecDeque<usize>,
}

fn degenerate(reason: &'static str) -> ShapeError {
    ShapeError::Degenerate {
        shape: "ConvexHull3d",
        reason,
    }
}

/// The convex hull of `points`.
///
/// # Errors
/// [`ShapeError::NotFinite`] for a NaN or infinite point; [`ShapeError::TooFewPoints`]
/// when fewer than 4 affinely independent points are given (`got` is how many were
/// found: 0 to 3, so coplanar input gives 3); [`ShapeError::Degenerate`] if rounding
/// made the hull inconsistent (not seen in tests, reported instead of a broken mesh).
pub fn convex_hull_3d<V: Vector3>(points: &[V]) -> Result<Hull3d<V>, ShapeError> {
    for &p in points {
        check_finite("ConvexHull3d", "points", p)?;
    }
    let scale = points
        .iter()
        .fold(V::Scalar::ZERO, |m, p| m.max(p.abs().max_element()));
    let tol = eps::<V::Scalar>(HULL_3D_PLANE_ULPS) * scale;
    let simplex = initial_simplex(points, tol)?;
    let mut b = Builder {
        points,
        tol,
        faces: Vec::new(),
        edges: HashMap::new(),
        pending: VecDeque::new(),
    };
    b.add_simplex(simplex)?;
    // Repeats of a point are never candidates: on the hull with their first copy,
    // they could only re-enter as eyes of faces that rounding tilted past them.
    let first = first_copies(points);
    let simplex_pos = simplex.map(|i| points[i]);
    b.assign(
        (0..points.len()).filter(|&i| first[i] && !simplex_pos.contains(&points[i])),
        0,
    );
    let mut eyes = 0;
    for _ in 0..HULL_3D_MAX_PASSES {
        b.add_pending_eyes(&mut eyes)?;
        // A point dropped inside a face's thick plane can stand well outside once a
        // nearly coplanar neighbour is replaced: hand every point that is not a hull
        // vertex to the final faces.
        let on_hull = b.vertex_mask();
        b.assign((0..points.len()).filter(|&i| first[i] && !on_hull[i]), 0);
        if b.pending.is_empty() {
            return b.finish();
        }
    }
    Err(degenerate("points still outside after the last pass"))
}

/// Per point, whether it is the first (lowest index) of the points at its position.
fn first_copies<V: Vector3>(points: &[V]) -> Vec<bool> {
    let key = |i: &usize| {
        let p = points[*i];
        [p.get(0), p.get(1), p.get(2)]
    };
    let mut order: Vec<usize> = (0..points.len()).collect();
    // Stable: within a run of equal points the lowest index comes first.
    order.sort_by(|a, b| {
        key(a)
            .partial_cmp(&key(b))
            .unwrap_or(core::cmp::Ordering::Equal)
    });
    let mut first = vec![true; points.len()];
    for w in order.windows(2) {
        if points[w[0]] == points[w[1]] {
            first[w[1]] = false;
        }
    }
    first
}

/// Four affinely independent extreme points, or how many independent ones exist.
fn initial_simplex<V: Vector3>(points: &[V], tol: V::Scalar) -> Result<[usize; 4], ShapeError> {
    let too_few = |got| ShapeError::TooFewPoints {
        shape: "ConvexHull3d",
        needed: 4,
        got,
    };
    let farthest = |score: &dyn Fn(V) -> V::Scalar| {
        let mut best = (0, V::Scalar::NEG_INFINITY);
        for (i, &p) in points.iter().enumerate() {
            let s = score(p);
            if s > best.1 {
                best = (i, s);
            }
        }
        best
    };
    if points.is_empty() {
        return Err(too_few(0));
    }
    let i0 = farthest(&|p| -p.get(0)).0;
    let p0 = points[i0];
    let (i1, d1) = farthest(&|p| p.distance(p0));
    let independent = d1 > tol; // false for NaN too
    if !independent {
        return Err(too_few(1));
    }
    let axis = (points[i1] - p0) / d1;
    let (i2, d2) = farthest(&|p| (p - p0).cross(axis).length());
    let independent = d2 > tol;
    if !independent {
        return Err(too_few(2));
    }
    let normal = (points[i1] - p0).cross(points[i2] - p0).try_normalize();
    let normal = normal.ok_or(too_few(2))?;
    let (i3, d3) = farthest(&|p| normal.dot(p - p0).abs());
    let independent = d3 > tol;
    if !independent {
        return Err(too_few(3));
    }
    Ok([i0, i1, i2, i3])
}

/// `(b − a) × (c − a)`, each component within 16 ε of the result's largest one: the
/// rounded cross product (in `f64`) when its error bound (the stage-A bound of
/// Shewchuk's predicates, 4 ε of the products' sizes, per component) allows it, else
/// each component as the exact 2×2 orientation determinant of the points' projections
/// ([`exact_orient_value`]). A needle triangle (three points within 3.5e-10 of a line
/// 0.35 long) had its rounded normal tilted enough to put its own vertex 60 slacks off
/// its plane (`tests/regressions/hull_sliver_face_normal.rs`).
pub(crate) fn accurate_cross<V: Vector3>(a: V, b: V, c: V) -> V {
    let f = |v: V| [0, 1, 2].map(|i| v.get(i).to_f64());
    let (a, b, c) = (f(a), f(b), f(c));
    let (u, w) = (
        [0, 1, 2].map(|i| b[i] - a[i]),
        [0, 1, 2].map(|i| c[i] - a[i]),
    );
    let axes = [(1, 2), (2, 0), (0, 1)];
    let rounded = axes.map(|(i, j)| {
        (
            u[i] * w[j] - u[j] * w[i],
            (u[i] * w[j]).abs() + (u[j] * w[i]).abs(),
        )
    });
    let largest = rounded.iter().fold(0.0f64, |m, r| m.max(r.0.abs()));
    let sure = rounded.iter().all(|r| r.1 <= 4.0 * largest);
    let n = if sure || !largest.is_finite() {
        rounded.map(|r| r.0)
    } else {
        axes.map(|(i, j)| exact_orient_value([a[i], a[j]], [b[i], b[j]], [c[i], c[j]]))
    };
    let s = V::Scalar::from_f64;
    V::new(s(n[0]), s(n[1]), s(n[2]))
}

/// The triangle `v` rotated (keeping its orientation) so that `v[0]` is the corner
/// opposite its longest edge. The face normal is the cross product of the two edges at
/// `v[0]` and heights are measured from it: at that corner the edges are the two
/// shorter ones, never two long, almost parallel edges whose cross product cancels (a
/// face 3.6e5 long and 8.6e-3 wide tilted by 1e-8 rad put an input point 4.7e-7
/// outside the hull, `tests/regressions/fuzz_artifacts.rs::hull_b913de95`).
fn sliver_safe_corner<V: Vector3>(v: [usize; 3], points: &[V]) -> [usize; 3] {
    let [a, b, c] = v.map(|i| points[i]);
    let opposite = [
        b.distance_squared(c),
        c.distance_squared(a),
        a.distance_squared(b),
    ];
    if opposite[1] > opposite[0] && opposite[1] >= opposite[2] {
        [v[1], v[2], v[0]]
    } else if opposite[2] > opposite[0] && opposite[2] > opposite[1] {
        [v[2], v[0], v[1]]
    } else {
        v
    }
}

impl<V: Vector3> Builder<'_, V> {
    /// Which input points are vertices of a live face.
    fn vertex_mask(&self) -> Vec<bool> {
        let mut mask = vec![false; self.points.len()];
        for face in self.faces.iter().filter(|f| f.alive) {
            for &v in &face.v {
                mask[v] = true;
            }
        }
        mask
    }

    /// Adds the eyes of the pending faces until none has conflict points. Each face
    /// is pushed on `pending` once, when created with conflict points, and each eye
    /// is consumed: `eyes` (counted over all passes) stays within the input's length.
    fn add_pending_eyes(&mut self, eyes: &mut usize) -> Result<(), ShapeError> {
        while let Some(f) = self.pending.pop_front() {
            if !self.faces[f].alive || self.faces[f].outside.is_empty() {
                continue;
            }
            if *eyes == self.points.len() {
                return Err(degenerate("more eye points than input points"));
            }
            *eyes += 1;
            self.add_eye(f)?;
        }
        Ok(())
    }

    /// Signed distance of point `i` above face `f`.
    fn height(&self, f: usize, i: usize) -> V::Scalar {
        let face = &self.faces[f];
        face.normal.dot(self.points[i] - self.points[face.v[0]])
    }

    /// Adds the triangle `a, b, c` (counter-clockwise from outside), rotated so that
    /// its first corner is the one opposite its longest edge (see [`sliver_safe_corner`]).
    fn add_face(&mut self, v: [usize; 3]) -> Result<usize, ShapeError> {
        let v = sliver_safe_corner(v, self.points);
        let [a, b, c] = v.map(|i| self.points[i]);
        let normal = accurate_cross(a, b, c)
            .try_normalize()
            .ok_or(degenerate("flat hull triangle"))?;
        let id = self.faces.len();
        for k in 0..3 {
            let key = (v[k], v[(k + 1) % 3]);
            if self.edges.insert(key, id).is_some() {
                return Err(degenerate("edge used twice"));
            }
        }
        self.faces.push(Face {
            v,
            normal,
            outside: Vec::new(),
            alive: true,
        });
        Ok(id)
    }

    /// The four faces of the start tetrahedron, oriented away from its fourth vertex.
    fn add_simplex(&mut self, s: [usize; 4]) -> Result<(), ShapeError> {
        let [a, b, c, d] = s;
        let n = (self.points[b] - self.points[a]).cross(self.points[c] - self.points[a]);
        let (b, c) = if n.dot(self.points[d] - self.points[a]) > V::Scalar::ZERO {
            (c, b)
        } else {
            (b, c)
        };
        // Now d is below a-b-c; the other three faces follow from it.
        for tri in [[a, b, c], [a, d, b], [b, d, c], [c, d, a]] {
            self.add_face(tri)?;
        }
        Ok(())
    }

    /// Hands each point to the face (from index `first_face`) it is farthest above,
    /// or drops it when it is above none.
    fn assign(&mut self, candidates: impl Iterator<Item = usize>, first_face: usize) {
        for i in candidates {
            let mut best = (usize::MAX, self.tol);
            for f in first_face..self.faces.len() {
                if self.faces[f].alive {
                    let h = self.height(f, i);
                    if h > best.1 {
                        best = (f, h);
                    }
                }
            }
            if best.0 != usize::MAX {
                self.faces[best.0].outside.push(i);
            }
        }
        let with_conflicts =
            (first_face..self.faces.len()).filter(|&f| !self.faces[f].outside.is_empty());
        self.pending.extend(with_conflicts.collect::<Vec<_>>());
    }

    /// Adds the farthest conflict point of face `f` to the hull.
    fn add_eye(&mut self, f: usize) -> Result<(), ShapeError> {
        let outside = &self.faces[f].outside;
        let mut eye = outside[0];
        for &i in outside {
            if self.height(f, i) > self.height(f, eye) {
                eye = i;
            }
        }
        let (visible, horizon) = self.visible_region(f, eye)?;
        let mut orphans = Vec::new();
        for &g in &visible {
            let face = &mut self.faces[g];
            face.alive = false;
            orphans.append(&mut face.outside);
            let v = face.v;
            for k in 0..3 {
                self.edges.remove(&(v[k], v[(k + 1) % 3]));
            }
        }
        let first_new = self.faces.len();
        for (a, b) in horizon {
            self.add_face([a, b, eye])?;
        }
        self.assign(orphans.into_iter().filter(|&i| i != eye), first_new);
        Ok(())
    }

    /// Faces seen from `eye` (flooded from `start`) and the horizon edges around them.
    /// The horizon must be one simple loop, else the region is not a disc.
    #[allow(clippy::type_complexity)]
    fn visible_region(
        &self,
        start: usize,
        eye: usize,
    ) -> Result<(Vec<usize>, Vec<(usize, usize)>), ShapeError> {
        let mut visible = vec![start];
        let mut seen = vec![start];
        let mut horizon = Vec::new();
        let mut k = 0;
        while k < visible.len() {
            let v = self.faces[visible[k]].v;
            k += 1;
            for e in 0..3 {
                let (a, b) = (v[e], v[(e + 1) % 3]);
                let g = *self
                    .edges
                    .get(&(b, a))
                    .ok_or(degenerate("open hull edge"))?;
                if seen.contains(&g) {
                    continue;
                }
                if self.height(g, eye) > self.tol {
                    seen.push(g);
                    visible.push(g);
                } else {
                    horizon.push((a, b));
                }
            }
        }
        let mut starts: Vec<usize> = horizon.iter().map(|e| e.0).collect();
        starts.sort_unstable();
        starts.dedup();
        if starts.len() != horizon.len() {
            return Err(degenerate("horizon is not a simple loop"));
        }
        Ok((visible, horizon))
    }

    /// Compacts the live faces into a [`Hull3d`] after checking it is closed.
    fn finish(self) -> Result<Hull3d<V>, ShapeError> {
        let live: Vec<[usize; 3]> = self.faces.iter().filter(|f| f.alive).map(|f| f.v).collect();
        for tri in &live {
            for k in 0..3 {
                if !self.edges.contains_key(&(tri[(k + 1) % 3], tri[k])) {
                    return Err(degenerate("open hull edge"));
                }
            }
        }
        let mut remap = vec![usize::MAX; self.points.len()];
        let mut vertices = Vec::new();
        let triangles: Vec<[usize; 3]> = live
            .iter()
            .map(|tri| {
                tri.map(|i| {
                    if remap[i] == usize::MAX {
                        remap[i] = vertices.len();
                        vertices.push(self.points[i]);
                    }
                    remap[i]
                })
            })
            .collect();
        // Closed triangulated sphere: V − E + F = 2 with E = 3F/2.
        if 2 * vertices.len() != triangles.len() + 4 {
            return Err(degenerate("hull is not a topological sphere"));
        }
        Ok(Hull3d {
            vertices,
            triangles,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec3, Vec3};

    /// Cube corners with duplicates, face centres, edge midpoints and the centre, at
    /// scale `k` around `offset`: the hull has exactly the 8 corners and 12 triangles.
    fn cluttered_cube<V: Vector3>(k: f64, offset: f64) {
        let s = |v: f64| V::Scalar::from_f64(v);
        let p = |x: f64, y: f64, z: f64| {
            V::new(s(x * k + offset), s(y * k + offset), s(z * k + offset))
        };
        let mut pts = Vec::new();
        for x in [0.0, 0.5, 1.0] {
            for y in [0.0, 0.5, 1.0] {
                for z in [0.0, 0.5, 1.0] {
                    pts.push(p(x, y, z));
                    pts.push(p(x, y, z)); // duplicate
                }
            }
        }
        let hull = convex_hull_3d(&pts).unwrap();
        assert_eq!(hull.vertices.len(), 8);
        assert_eq!(hull.triangles.len(), 12);
        // Each triangle faces away from the centre.
        let centre = p(0.5, 0.5, 0.5);
        for t in &hull.triangles {
            let [a, b, c] = t.map(|i| hull.vertices[i]);
            assert!((b - a).cross(c - a).dot(a - centre) > V::Scalar::ZERO);
        }
    }

    // Cube with duplicate, coplanar and interior points; scales, offsets, f32 and f64.
    #[test]
    fn cube_with_clutter() {
        for (k, offset) in [(1.0, 0.0), (1e5, 0.0), (1e-4, 0.0), (1.0, 1e3)] {
            cluttered_cube::<Vec3>(k, offset);
            cluttered_cube::<DVec3>(k, offset);
        }
    }

    // Fewer than four independent points: empty, coincident, collinear, coplanar, NaN.
    #[test]
    fn degenerate_input() {
        let got = |pts: &[DVec3]| match convex_hull_3d(pts) {
            Err(ShapeError::TooFewPoints { got, needed: 4, .. }) => got,
            other => panic!("{other:?}"),
        };
        assert_eq!(got(&[]), 0);
        assert_eq!(got(&[DVec3::ONE; 6]), 1);
        assert_eq!(
            got(&[DVec3::ZERO, DVec3::X, DVec3::X * 2.0, DVec3::X * 3.0]),
            2
        );
        let square = [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::ONE.with_z(0.0)];
        assert_eq!(got(&square), 3);
        let err = convex_hull_3d(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::NAN]).unwrap_err();
        assert!(matches!(err, ShapeError::NotFinite { .. }));
    }

    // Many points on a sphere: every input point is inside or on every face.
    #[test]
    fn sphere_points_are_enclosed() {
        let mut pts = Vec::new();
        for i in 0..40 {
            for j in 0..20 {
                let (a, b) = (i as f64 * 0.157, j as f64 * 0.157 - 1.5);
                pts.push(DVec3::new(a.cos() * b.cos(), a.sin() * b.cos(), b.sin()));
            }
        }
        let hull = convex_hull_3d(&pts).unwrap();
        for t in &hull.triangles {
            let [a, b, c] = t.map(|i| hull.vertices[i]);
            let n = (b - a).cross(c - a).normalize();
            assert!(pts.iter().all(|&p| n.dot(p - a) <= 1e-12));
        }
    }
}
