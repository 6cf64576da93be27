//! 3D convex hull by quickhull (Barber, Dobkin, Huhdanpaa, "The Quickhull Algorithm
//! for Convex Hulls", ACM TOMS 1996; D. Gregorius, "Implementing Quickhull", GDC 2014),
//! with exact orientation signs (J. R. Shewchuk, "Adaptive Precision Floating-Point
//! Arithmetic and Fast Robust Geometric Predicates", 1997).
//!
//! Start from a tetrahedron of extreme points; each face keeps the points strictly
//! above it (its conflict list; every point is in at most one). Repeatedly take a
//! face's farthest point (the eye), flood across edges to the faces it sees, replace
//! them by a fan of triangles from the horizon to the eye, and hand the visible faces'
//! points to the new faces only, each to the first new face it is strictly above
//! (any such face is right, the signs being exact; the farthest-face rule cost three
//! times as many tests). Faces are popped depth-first (a stack); dead faces' slots and
//! conflict lists are reused, so nothing is allocated per face once the hull stops
//! growing. O(n log n) expected: 100k points on a sphere in about 0.12 s
//! (`examples/hull_timing.rs`).
//!
//! Robustness: "strictly above" is the exact sign of the orientation determinant (a
//! floating-point filter with a proven error bound, then an exact expansion sum), so
//! the hull is the exact convex hull of the input: no thick plane, no fold, no point
//! dropped outside. The visible region of an eye strictly outside is a disc, its new
//! faces are never degenerate, and a point that is above no new face is inside (the
//! quickhull invariant holds exactly). Coplanar input keeps coplanar triangles
//! (merged into polygons by [`crate::shape::ConvexPolyhedron::from_points`]); a point
//! exactly on a face or an edge is a vertex only when it was added before the points
//! that make it so (it is on the hull). A final pass checks that the surface is
//! closed, oriented, locally convex at every edge (exactly, and without flat folds)
//! with Euler characteristic 2; a failure (not seen) is `Degenerate`, never a wrong
//! hull.
//!
//! Signs are exact while every product of three coordinates is a normal `f64` (all
//! `f32` input; `f64` coordinates between about 1e-100 and 1e100 in magnitude).
//!
//! Flat input: when every point is within [`HULL_3D_FLAT_ULPS`] machine epsilons (of
//! the input's largest coordinate) of the plane of three extreme points, the hull is
//! the flat convex polygon of the points' projections ([`Hull3d::flat_normal`]).
//! Collinear input (all within that tolerance of a line) is refused.

use crate::algo::hull_2d::convex_hull_2d_indices;
use crate::math::exact::{dekker_product, grow_expansion, two_sum};
use crate::math::tolerance::eps;
use crate::math::{Real, Vector3};
use crate::shape::error::check_finite;
use crate::shape::ShapeError;

/// Containment tolerance of the triangles' rounded planes, in machine epsilons of the
/// input's largest absolute coordinate: the hull is exact, so every input point is on
/// or under every hull triangle exactly, and under its plane evaluated in floating
/// point (normal by an accurate cross product) within this tolerance.
pub const HULL_3D_PLANE_ULPS: f64 = 32.0;

/// Flatness tolerance, in machine epsilons of the input's largest absolute
/// coordinate: point sets within this distance of a plane give a flat hull, within it
/// of a line are refused. Four times [`crate::shape::POLYHEDRON_PLANE_ULPS`], so that
/// a solid hull is never so thin that its top and bottom merge into one face.
pub const HULL_3D_FLAT_ULPS: f64 = 256.0;

/// Error bound of the orientation filter, in `f64` epsilons of the determinant's
/// permanent (Shewchuk's `o3derrboundA` is 7 ε): beyond it the rounded sign is right.
pub const HULL_3D_FILTER_ULPS: f64 = 8.0;

/// A convex hull: its vertices (a subset of the input) and its triangles as indices
/// into `vertices`, counter-clockwise seen from outside.
///
/// Solid hull (`flat_normal` is `None`): a closed triangulated surface (Euler
/// characteristic 2); coplanar faces are split into several triangles, and a vertex
/// may lie on a face or an edge of the hull. Flat hull (`flat_normal` is the
/// unit normal of the points' plane): `vertices` is the convex polygon,
/// counter-clockwise seen from the side `flat_normal` points to, and `triangles` holds
/// a fan facing `flat_normal` followed by the same fan facing away (a closed "pillow"
/// of zero volume).
#[derive(Clone, Debug, PartialEq)]
pub struct Hull3d<V> {
    /// The input points that are hull vertices.
    pub vertices: Vec<V>,
    /// Outward-facing triangles, indices into `vertices`.
    pub triangles: Vec<[usize; 3]>,
    /// The unit normal of a flat hull's plane, `None` for a solid hull.
    pub flat_normal: Option<V>,
}

type P = [f64; 3];

/// Marks an unset face or vertex link.
const NONE: u32 = u32::MAX;

fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: P, b: P) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: P, b: P) -> P {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// One hull triangle during construction.
struct Face {
    /// Corners, counter-clockwise from outside.
    v: [u32; 3],
    /// `adj[k]`: the face across the edge `v[k] → v[k + 1]`.
    adj: [u32; 3],
    /// The coordinates of `v[0]` (copied: the conflict tests read no other record).
    origin: P,
    /// `(v1 − v0) × (v2 − v0)`, rounded.
    normal: P,
    /// Per component, the permanent of that cross product (for the filter's bound).
    perm: P,
    /// Conflict points, strictly above.
    outside: Vec<u32>,
    /// The farthest conflict point (its height in `eye_height`).
    eye: u32,
    /// `(eye − v0) · normal`: the eye's height times `|normal|`, enough to rank the
    /// points of one face.
    eye_height: f64,
    alive: bool,
    /// Flood stamps: last eye that found the face visible / hidden.
    seen_visible: u32,
    seen_hidden: u32,
}

/// Construction state: the input in `f64`, the faces and reusable scratch space.
struct Builder<'a> {
    pts: &'a [P],
    faces: Vec<Face>,
    /// Slots of dead faces, reused by new faces.
    free_faces: Vec<u32>,
    /// Emptied conflict lists of dead faces, reused (no allocation per new face).
    free_lists: Vec<Vec<u32>>,
    /// The cone of the current eye, in horizon order.
    new_faces: Vec<u32>,
    /// The conflict points of the current eye's visible faces.
    orphans: Vec<u32>,
    pending: Vec<u32>,
    stamp: u32,
    /// Per vertex: the new face whose horizon edge starts there, and its stamp.
    start_of: Vec<(u32, u32)>,
    visible: Vec<u32>,
    horizon: Vec<(u32, u32, u32)>,
}

fn degenerate(reason: &'static str) -> ShapeError {
    ShapeError::Degenerate {
        shape: "ConvexHull3d",
        reason,
    }
}

/// The convex hull of `points` (exact; see the module documentation).
///
/// # Errors
/// [`ShapeError::NotFinite`] for a NaN or infinite point; [`ShapeError::TooFewPoints`]
/// with `got` 0, 1 or 2 when the points are empty, all within the flatness tolerance
/// of one point, or of one line (collinear); [`ShapeError::Degenerate`] if the final
/// check fails (not seen: the signs are exact), instead of returning a wrong hull.
pub fn convex_hull_3d<V: Vector3>(points: &[V]) -> Result<Hull3d<V>, ShapeError> {
    Ok(convex_hull_3d_linked(points)?.0)
}

/// As [`convex_hull_3d`], with the links of a solid hull's triangles: `adjacent[t][k]`
/// is the triangle across the edge `triangles[t][k] → triangles[t][k + 1]` (empty
/// for a flat hull).
pub(crate) fn convex_hull_3d_linked<V: Vector3>(
    points: &[V],
) -> Result<(Hull3d<V>, Vec<[usize; 3]>), ShapeError> {
    for &p in points {
        check_finite("ConvexHull3d", "points", p)?;
    }
    let pts: Vec<P> = points
        .iter()
        .map(|p| [p.get(0), p.get(1), p.get(2)].map(|x| x.to_f64()))
        .collect();
    let scale = pts
        .iter()
        .fold(0.0f64, |m, p| p.iter().fold(m, |m, x| m.max(x.abs())));
    let tol = eps::<V::Scalar>(HULL_3D_FLAT_ULPS).to_f64() * scale;
    let start = match initial_simplex(&pts, tol)? {
        Simplex::Solid(s) => s,
        Simplex::Flat(i0, normal) => return Ok((flat_hull(points, &pts, i0, normal)?, Vec::new())),
    };
    let mut b = Builder {
        pts: &pts,
        // A closed triangulation of n vertices has at most 2n − 4 faces; slots are reused.
        faces: Vec::with_capacity(2 * pts.len()),
        free_faces: Vec::new(),
        free_lists: Vec::new(),
        new_faces: Vec::new(),
        orphans: Vec::new(),
        pending: Vec::new(),
        stamp: 0,
        start_of: vec![(NONE, 0); pts.len()],
        visible: Vec::new(),
        horizon: Vec::new(),
    };
    b.add_simplex(start);
    b.orphans = (0..pts.len() as u32)
        .filter(|i| !start.contains(&(*i as usize)))
        .collect();
    b.new_faces = vec![0, 1, 2, 3];
    b.assign();
    b.run()?;
    b.verify()?;
    Ok(b.output(points))
}

/// Four extreme points in general position, or a flat set's first point and normal.
enum Simplex {
    Solid([usize; 4]),
    Flat(usize, P),
}

/// The index and score of the point with the largest `score`.
fn farthest(pts: &[P], score: impl Fn(P) -> f64) -> (usize, f64) {
    let mut best = (0, f64::NEG_INFINITY);
    for (i, &p) in pts.iter().enumerate() {
        let s = score(p);
        if s > best.1 {
            best = (i, s);
        }
    }
    best
}

/// Extreme points spanning the cloud: the lowest `x`, the point farthest from it, the
/// point farthest from their line, the point farthest from their plane. Distances
/// within `tol` count as zero.
fn initial_simplex(pts: &[P], tol: f64) -> Result<Simplex, ShapeError> {
    let too_few = |got| ShapeError::TooFewPoints {
        shape: "ConvexHull3d",
        needed: 4,
        got,
    };
    if pts.is_empty() {
        return Err(too_few(0));
    }
    let i0 = farthest(pts, |p| -p[0]).0;
    let p0 = pts[i0];
    let (i1, d1) = farthest(pts, |p| dot(sub(p, p0), sub(p, p0)).sqrt());
    if d1.is_nan() || d1 <= tol {
        return Err(too_few(1));
    }
    let axis = sub(pts[i1], p0).map(|x| x / d1);
    let (i2, d2) = farthest(pts, |p| {
        let c = cross(sub(p, p0), axis);
        dot(c, c).sqrt()
    });
    if d2.is_nan() || d2 <= tol {
        return Err(too_few(2));
    }
    let n = cross(sub(pts[i1], p0), sub(pts[i2], p0));
    let len = dot(n, n).sqrt();
    if len.is_nan() || len <= 0.0 {
        return Err(too_few(2));
    }
    let normal = n.map(|x| x / len);
    let (i3, d3) = farthest(pts, |p| dot(normal, sub(p, p0)).abs());
    if d3.is_nan() || d3 <= tol {
        return Ok(Simplex::Flat(i0, normal));
    }
    Ok(Simplex::Solid([i0, i1, i2, i3]))
}

/// The hull of a flat set: the 2D hull of the points projected on the plane through
/// `pts[i0]` with the unit `normal`, as a polygon and two opposite fans.
fn flat_hull<V: Vector3>(
    points: &[V],
    pts: &[P],
    i0: usize,
    normal: P,
) -> Result<Hull3d<V>, ShapeError> {
    let s = V::Scalar::from_f64;
    let n = V::new(s(normal[0]), s(normal[1]), s(normal[2]));
    let (e1, e2) = glam::DVec3::from_array(normal).any_orthonormal_pair();
    let (e1, e2) = (e1.to_array(), e2.to_array());
    let projected: Vec<glam::DVec2> = pts
        .iter()
        .map(|&p| {
            let w = sub(p, pts[i0]);
            glam::DVec2::new(dot(w, e1), dot(w, e2))
        })
        .collect();
    let mut ring = convex_hull_2d_indices(&projected).map_err(|_| ShapeError::TooFewPoints {
        shape: "ConvexHull3d",
        needed: 4,
        got: 2,
    })?;
    // Counter-clockwise in (e1, e2) is counter-clockwise around e1 × e2.
    if dot(cross(e1, e2), normal) < 0.0 {
        ring.reverse();
    }
    let k = ring.len();
    let top = (1..k - 1).map(|j| [0, j, j + 1]);
    let bottom = (1..k - 1).map(|j| [0, j + 1, j]);
    Ok(Hull3d {
        vertices: ring.iter().map(|&i| points[i]).collect(),
        triangles: top.chain(bottom).collect(),
        flat_normal: Some(n),
    })
}

/// The exact sign (−1, 0 or 1) of `(p − a) · ((b − a) × (c − a))`: positive when `p`
/// is above the plane of the triangle `a, b, c` (counter-clockwise seen from above),
/// zero when the four points are coplanar. A filter (rounded determinant against
/// [`HULL_3D_FILTER_ULPS`] epsilons of its permanent), then the exact expansion; exact
/// under the conditions of the module documentation.
pub fn orient_3d(a: [f64; 3], b: [f64; 3], c: [f64; 3], p: [f64; 3]) -> f64 {
    let (u, w, x) = (sub(b, a), sub(c, a), sub(p, a));
    let det = dot(cross(u, w), x);
    let perm = [
        (u[1] * w[2]).abs() + (u[2] * w[1]).abs(),
        (u[2] * w[0]).abs() + (u[0] * w[2]).abs(),
        (u[0] * w[1]).abs() + (u[1] * w[0]).abs(),
    ];
    let bound = HULL_3D_FILTER_ULPS * f64::EPSILON * dot(perm, x.map(f64::abs));
    if det > bound {
        1.0
    } else if det < -bound {
        -1.0
    } else {
        exact_orient(a, b, c, p)
    }
}

/// Appends `sign · det(p, q, r)` (rows) as the exact terms of its six triple
/// products, four each; see [`exact_orient`].
fn det3_terms(p: P, q: P, r: P, sign: f64, parts: &mut Vec<f64>) {
    let terms = [
        (1.0, p[0], q[1], r[2]),
        (-1.0, p[0], q[2], r[1]),
        (1.0, p[1], q[2], r[0]),
        (-1.0, p[1], q[0], r[2]),
        (1.0, p[2], q[0], r[1]),
        (-1.0, p[2], q[1], r[0]),
    ];
    for (s, x, y, z) in terms {
        let (xy, xy_err) = dekker_product(x, y);
        let (a, a_err) = dekker_product(xy, z);
        let (b, b_err) = dekker_product(xy_err, z);
        let s = s * sign;
        parts.extend_from_slice(&[s * a, s * a_err, s * b, s * b_err]);
    }
}

/// The sign of `(p − a) · ((b − a) × (c − a))`, exactly (as −1, 0 or 1): the
/// differences when all nine are exact in `f64` (then six triple products), else the
/// cofactor expansion `det(b, c, p) − det(a, c, p) + det(a, b, p) − det(a, b, c)`
/// (24 triple products). Each triple product is split exactly into four terms
/// (Dekker's product) and the terms summed exactly (Knuth's two-sum, Shewchuk's
/// growing expansion); the largest component of the sum has its sign.
fn exact_orient(a: P, b: P, c: P, p: P) -> f64 {
    let mut parts = Vec::with_capacity(96);
    let diffs = [b, c, p].map(|q| [0, 1, 2].map(|i| two_sum(q[i], -a[i])));
    if diffs.iter().flatten().all(|d| d.1 == 0.0) {
        let [u, v, w] = diffs.map(|d| d.map(|x| x.0));
        det3_terms(u, v, w, 1.0, &mut parts);
    } else {
        det3_terms(b, c, p, 1.0, &mut parts);
        det3_terms(a, c, p, -1.0, &mut parts);
        det3_terms(a, b, p, 1.0, &mut parts);
        det3_terms(a, b, c, -1.0, &mut parts);
    }
    let mut e = [0.0; 96];
    let mut len = 0;
    for part in parts {
        len = grow_expansion(&mut e, len, part);
    }
    if len == 0 {
        0.0
    } else {
        e[len - 1].signum()
    }
}

impl Builder<'_> {
    /// The rounded `(p − v0) · normal` of face `f` and its error bound: beyond the
    /// bound its sign is exact (the filter of [`orient_3d`], on the face's cached
    /// cross product).
    #[inline]
    fn filtered(&self, f: u32, p: u32) -> (f64, f64) {
        let face = &self.faces[f as usize];
        let w = sub(self.pts[p as usize], face.origin);
        let det = dot(face.normal, w);
        let bound = HULL_3D_FILTER_ULPS
            * f64::EPSILON
            * (face.perm[0] * w[0].abs() + face.perm[1] * w[1].abs() + face.perm[2] * w[2].abs());
        (det, bound)
    }

    /// The exact sign (−1, 0 or 1) of `orient_3d` of face `f`'s corners and point `p`.
    fn side(&self, f: u32, p: u32) -> f64 {
        let (det, bound) = self.filtered(f, p);
        if det > bound {
            1.0
        } else if det < -bound {
            -1.0
        } else {
            let [a, b, c] = self.faces[f as usize].v.map(|k| self.pts[k as usize]);
            exact_orient(a, b, c, self.pts[p as usize])
        }
    }

    /// The height of point `p` above face `f` times `|normal|` (rounded; it ranks the
    /// points of one face) when `p` is strictly above it (exact sign), else `None`.
    #[inline]
    fn above(&self, f: u32, p: u32) -> Option<f64> {
        let (det, bound) = self.filtered(f, p);
        if det > bound {
            Some(det)
        } else if det < -bound {
            None
        } else {
            (self.side(f, p) > 0.0).then_some(det.max(0.0))
        }
    }

    /// Adds the triangle `v` (counter-clockwise from outside) with no links yet, in a
    /// dead face's slot when there is one.
    fn push_face(&mut self, v: [u32; 3]) -> u32 {
        let [a, b, c] = v.map(|i| self.pts[i as usize]);
        let (u, w) = (sub(b, a), sub(c, a));
        let normal = cross(u, w);
        let perm = [
            (u[1] * w[2]).abs() + (u[2] * w[1]).abs(),
            (u[2] * w[0]).abs() + (u[0] * w[2]).abs(),
            (u[0] * w[1]).abs() + (u[1] * w[0]).abs(),
        ];
        let face = Face {
            v,
            adj: [NONE; 3],
            origin: a,
            normal,
            perm,
            outside: self.free_lists.pop().unwrap_or_default(),
            eye: NONE,
            eye_height: f64::NEG_INFINITY,
            alive: true,
            seen_visible: 0,
            seen_hidden: 0,
        };
        match self.free_faces.pop() {
            Some(f) => {
                self.faces[f as usize] = face;
                f
            }
            None => {
                self.faces.push(face);
                (self.faces.len() - 1) as u32
            }
        }
    }

    /// The four faces of the start tetrahedron, oriented away from its fourth vertex,
    /// and their links.
    fn add_simplex(&mut self, s: [usize; 4]) {
        let [a, b, c, d] = s.map(|i| i as u32);
        let (pa, pb, pc, pd) = (
            self.pts[a as usize],
            self.pts[b as usize],
            self.pts[c as usize],
            self.pts[d as usize],
        );
        // d must be strictly below a-b-c (it is far from that plane: not flat).
        let (b, c) = if exact_orient(pa, pb, pc, pd) > 0.0 {
            (c, b)
        } else {
            (b, c)
        };
        for tri in [[a, b, c], [a, d, b], [b, d, c], [c, d, a]] {
            self.push_face(tri);
        }
        self.link_all();
    }

    /// Links every face to its neighbours by matching opposite directed edges (the
    /// start tetrahedron only: four faces).
    fn link_all(&mut self) {
        let n = self.faces.len();
        for f in 0..n {
            for k in 0..3 {
                let (a, b) = (self.faces[f].v[k], self.faces[f].v[(k + 1) % 3]);
                let g = (0..n).find(|&g| {
                    let v = self.faces[g].v;
                    (0..3).any(|j| v[j] == b && v[(j + 1) % 3] == a)
                });
                self.faces[f].adj[k] = g.map_or(NONE, |g| g as u32);
            }
        }
    }

    /// Hands each orphan to the first new face it is strictly above (exact sign), or
    /// drops it (inside) when it is above none; each face's eye is its farthest
    /// conflict point. Queues the new faces that got points.
    fn assign(&mut self) {
        let orphans = std::mem::take(&mut self.orphans);
        let new_faces = std::mem::take(&mut self.new_faces);
        for &p in &orphans {
            let found = new_faces
                .iter()
                .find_map(|&f| self.above(f, p).map(|h| (f, h)));
            if let Some((f, h)) = found {
                let face = &mut self.faces[f as usize];
                face.outside.push(p);
                if h > face.eye_height {
                    face.eye = p;
                    face.eye_height = h;
                }
            }
        }
        for &f in &new_faces {
            if !self.faces[f as usize].outside.is_empty() {
                self.pending.push(f);
            }
        }
        self.orphans = orphans;
        self.new_faces = new_faces;
    }

    /// Adds eyes until no face has conflict points. Each point is an eye at most
    /// once (it leaves every conflict list), so the loop runs at most `n` times.
    fn run(&mut self) -> Result<(), ShapeError> {
        let mut eyes = 0;
        while let Some(f) = self.pending.pop() {
            let face = &self.faces[f as usize];
            if !face.alive || face.outside.is_empty() {
                continue;
            }
            if eyes == self.pts.len() {
                return Err(degenerate("more eye points than input points"));
            }
            eyes += 1;
            self.add_eye(f)?;
        }
        Ok(())
    }

    /// Adds the farthest conflict point of face `f` to the hull: the faces it sees
    /// die (their slots and lists are reused), the cone from the horizon takes their
    /// conflict points.
    fn add_eye(&mut self, f: u32) -> Result<(), ShapeError> {
        let eye = self.faces[f as usize].eye;
        self.stamp += 1;
        self.find_visible(f, eye)?;
        self.orphans.clear();
        for k in 0..self.visible.len() {
            let g = self.visible[k];
            let face = &mut self.faces[g as usize];
            face.alive = false;
            self.orphans
                .extend(face.outside.iter().filter(|&&p| p != eye));
            let mut list = std::mem::take(&mut face.outside);
            list.clear();
            self.free_lists.push(list);
            self.free_faces.push(g);
        }
        self.build_cone(eye)?;
        self.assign();
        Ok(())
    }

    /// Floods from `start` to the faces `eye` is strictly above (`self.visible`) and
    /// records the horizon edges `(a, b, hidden neighbour)` (`self.horizon`).
    fn find_visible(&mut self, start: u32, eye: u32) -> Result<(), ShapeError> {
        let stamp = self.stamp;
        self.visible.clear();
        self.horizon.clear();
        self.visible.push(start);
        self.faces[start as usize].seen_visible = stamp;
        let mut k = 0;
        while k < self.visible.len() {
            let f = self.visible[k] as usize;
            k += 1;
            for e in 0..3 {
                let g = self.faces[f].adj[e];
                if g == NONE || !self.faces[g as usize].alive {
                    return Err(degenerate("open hull edge"));
                }
                let gf = &self.faces[g as usize];
                if gf.seen_visible == stamp {
                    continue;
                }
                let hidden = gf.seen_hidden == stamp || self.above(g, eye).is_none();
                let gf = &mut self.faces[g as usize];
                if hidden {
                    gf.seen_hidden = stamp;
                    let v = self.faces[f].v;
                    self.horizon.push((v[e], v[(e + 1) % 3], g));
                } else {
                    gf.seen_visible = stamp;
                    self.visible.push(g);
                }
            }
        }
        Ok(())
    }

    /// One new face `(a, b, eye)` per horizon edge (`self.new_faces`), linked to the
    /// hidden neighbour across `a → b` and to the new faces on both sides. The horizon
    /// must be one simple loop (each vertex starts one edge).
    fn build_cone(&mut self, eye: u32) -> Result<(), ShapeError> {
        let stamp = self.stamp;
        self.new_faces.clear();
        for k in 0..self.horizon.len() {
            let (a, b, g) = self.horizon[k];
            let nf = self.push_face([a, b, eye]);
            self.new_faces.push(nf);
            self.faces[nf as usize].adj[0] = g;
            let gv = self.faces[g as usize].v;
            let j = (0..3)
                .find(|&j| gv[j] == b && gv[(j + 1) % 3] == a)
                .ok_or(degenerate("horizon edge not in its neighbour"))?;
            self.faces[g as usize].adj[j] = nf;
            if self.start_of[a as usize].1 == stamp {
                return Err(degenerate("horizon is not a simple loop"));
            }
            self.start_of[a as usize] = (nf, stamp);
        }
        for k in 0..self.new_faces.len() {
            let nf = self.new_faces[k] as usize;
            let b = self.faces[nf].v[1];
            let (m, s) = self.start_of[b as usize];
            if s != stamp {
                return Err(degenerate("horizon is not closed"));
            }
            self.faces[nf].adj[1] = m;
            self.faces[m as usize].adj[2] = nf as u32;
        }
        Ok(())
    }

    /// The final check: every live face's links are mutual, every edge is convex
    /// (the neighbour's far corner is not strictly above, exactly; the same
    /// determinant from either side, so tested once per edge) and not a flat fold
    /// (coplanar neighbours face the same way, [`Self::facing_alike`]), and
    /// `2V − F = 4`. O(F).
    fn verify(&self) -> Result<(), ShapeError> {
        let mut live = 0usize;
        let mut is_vertex = vec![false; self.pts.len()];
        for (f, face) in self.faces.iter().enumerate().filter(|(_, x)| x.alive) {
            live += 1;
            for k in 0..3 {
                is_vertex[face.v[k] as usize] = true;
                let g = face.adj[k];
                let gf = &self.faces[g as usize];
                if !gf.alive || !gf.adj.contains(&(f as u32)) {
                    return Err(degenerate("hull links are not mutual"));
                }
                // Both sides of an edge give the same determinant: test it once.
                if (g as usize) < f {
                    continue;
                }
                let far = gf.v.iter().copied().find(|x| !face.v.contains(x));
                let far = far.ok_or(degenerate("two faces on the same corners"))?;
                let side = self.side(f as u32, far);
                if side > 0.0 || (side == 0.0 && !self.facing_alike(f, g as usize)) {
                    return Err(degenerate("hull is not convex at an edge"));
                }
            }
        }
        let vertices = is_vertex.iter().filter(|&&x| x).count();
        if 2 * vertices != live + 4 {
            return Err(degenerate("hull is not a topological sphere"));
        }
        Ok(())
    }

    /// True when the coplanar faces `f` and `g` face the same way, by their
    /// [`accurate_cross`] normals: a sliver's rounded cross product can point anywhere
    /// (three nearly collinear points of a flat region; a folded-looking but valid
    /// hull was refused, `tests/regressions/hull_nearly_flat_offset.rs`).
    fn facing_alike(&self, f: usize, g: usize) -> bool {
        let normal = |f: usize| {
            let [a, b, c] = self.faces[f]
                .v
                .map(|i| glam::DVec3::from_array(self.pts[i as usize]));
            accurate_cross(a, b, c)
        };
        normal(f).dot(normal(g)) > 0.0
    }

    /// Compacts the live faces into a [`Hull3d`] of the original points, with each
    /// triangle's neighbours (indices into its `triangles`).
    fn output<V: Vector3>(&self, points: &[V]) -> (Hull3d<V>, Vec<[usize; 3]>) {
        let mut vertex_of = vec![u32::MAX; self.pts.len()];
        let mut triangle_of = vec![u32::MAX; self.faces.len()];
        let mut vertices = Vec::new();
        let mut triangles = Vec::new();
        for (f, face) in self.faces.iter().enumerate().filter(|(_, x)| x.alive) {
            triangle_of[f] = triangles.len() as u32;
            triangles.push(face.v.map(|i| {
                let i = i as usize;
                if vertex_of[i] == u32::MAX {
                    vertex_of[i] = vertices.len() as u32;
                    vertices.push(points[i]);
                }
                vertex_of[i] as usize
            }));
        }
        let adjacent = self
            .faces
            .iter()
            .filter(|x| x.alive)
            .map(|face| face.adj.map(|g| triangle_of[g as usize] as usize))
            .collect();
        let hull = Hull3d {
            vertices,
            triangles,
            flat_normal: None,
        };
        (hull, adjacent)
    }
}

/// `(b − a) × (c − a)`, each component within 16 ε of the result's largest one: the
/// rounded cross product (in `f64`) when its error bound (the stage-A bound of
/// Shewchuk's predicates, 4 ε of the products' sizes, per component) allows it, else
/// each component as the exact 2×2 orientation determinant of the points' projections
/// ([`exact_orient_value`]). A needle triangle (three points within 3.5e-10 of a line
/// 0.35 long) had its rounded normal tilted enough to put its own vertex 60 slacks off
/// its plane (`tests/regressions/hull_sliver_face_normal.rs`).
///
/// [`exact_orient_value`]: crate::shape::concave_polygon::geometry::exact_orient_value
pub(crate) fn accurate_cross<V: Vector3>(a: V, b: V, c: V) -> V {
    use crate::shape::concave_polygon::geometry::exact_orient_value;
    let f = |v: V| [0, 1, 2].map(|i| v.get(i).to_f64());
    let (a, b, c) = (f(a), f(b), f(c));
    let (u, w) = (sub(b, a), sub(c, a));
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

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec3, Vec3};

    /// Cube corners with duplicates, face centres, edge midpoints and the centre, at
    /// scale `k` around `offset`: the hull has the 8 corners, and is closed.
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
        // The 8 corners, and perhaps edge or face points added before the corners
        // that make them coplanar; never the centre.
        let corners = hull
            .vertices
            .iter()
            .filter(|v| (0..3).all(|i| v.get(i) == s(offset) || v.get(i) == s(k + offset)));
        assert_eq!(corners.count(), 8);
        assert!(!hull.vertices.contains(&p(0.5, 0.5, 0.5)));
        assert_eq!(2 * hull.vertices.len(), hull.triangles.len() + 4);
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

    // Fewer than three independent points: empty, coincident, collinear; NaN.
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
        let err = convex_hull_3d(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::NAN]).unwrap_err();
        assert!(matches!(err, ShapeError::NotFinite { .. }));
    }

    // A coplanar square with its centre is a flat hull: the four corners, CCW around
    // the normal, and two opposite fans.
    #[test]
    fn coplanar_square_is_flat() {
        let square = [
            DVec3::ZERO,
            DVec3::X,
            DVec3::Y,
            DVec3::new(1.0, 1.0, 0.0),
            DVec3::new(0.5, 0.5, 0.0),
        ];
        let hull = convex_hull_3d(&square).unwrap();
        let n = hull.flat_normal.expect("flat");
        assert_eq!(n.abs(), DVec3::Z);
        assert_eq!(hull.vertices.len(), 4);
        assert_eq!(hull.triangles.len(), 4);
        let [a, b, c] = hull.triangles[0].map(|i| hull.vertices[i]);
        assert!((b - a).cross(c - a).dot(n) > 0.0);
    }

    // The exact orientation sign on points one ulp off a plane far from the origin,
    // where the rounded determinant is noise.
    #[test]
    fn exact_orient_sees_one_ulp() {
        let o = 1e8f64;
        let (a, b, c) = ([o, o, o], [o + 1.0, o, o], [o, o + 1.0, o]);
        let up = f64::from_bits(o.to_bits() + 1);
        assert_eq!(exact_orient(a, b, c, [o + 0.5, o + 0.5, up]), 1.0);
        let down = f64::from_bits(o.to_bits() - 1);
        assert_eq!(exact_orient(a, b, c, [o + 0.5, o + 0.5, down]), -1.0);
        assert_eq!(exact_orient(a, b, c, [o + 0.5, o + 3.0, o]), 0.0);
        // Inexact differences (tiny beside huge) take the cofactor expansion.
        let (a, b, c) = ([1.0; 3], [1e20, 1.0, 1.0], [1.0, 1e20, 1.0]);
        assert_eq!(exact_orient(a, b, c, [0.5, 0.3, 1.0]), 0.0);
        let up = 1.0 + f64::EPSILON;
        assert_eq!(exact_orient(a, b, c, [0.5, 0.3, up]), 1.0);
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
