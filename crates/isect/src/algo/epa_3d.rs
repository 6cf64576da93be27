//! EPA in 3D: a convex polytope grown from GJK's tetrahedron, its faces in a
//! min-heap by distance to the origin; each new support point removes the faces it
//! sees and is joined to their horizon. See [`super::epa`] for the reference,
//! tolerances and the fallback.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::epa::{epa_rel_tolerance, Fallback, Penetration, EPA_BLOW_UP_ULPS, EPA_MAX_ITERATIONS};
use super::gjk::{triangle_weights, MinkowskiDiff, Simplex, Status, SupportPoint};
use super::support::SupportMap;
use crate::math::tolerance::eps;
use crate::math::{Real, Vector, Vector3};

/// Cap on the live faces of the polytope. A face whose normal cannot be computed is
/// skipped, which leaves a hole; on degenerate input the horizon then stops closing
/// and each expansion can multiply the faces. Past the cap EPA stops and returns its
/// best bound with `MaxIterations`.
pub const EPA_MAX_FACES: usize = 1024;

/// A triangular face, counter-clockwise seen from outside.
#[derive(Copy, Clone, Debug)]
struct Face<V: Vector> {
    vertices: [usize; 3],
    normal: V,
    dist: V::Scalar,
    alive: bool,
}

/// A heap entry: the nearest face comes out first.
#[derive(Copy, Clone, Debug)]
struct Nearest<R: Real> {
    dist: R,
    face: usize,
}

impl<R: Real> PartialEq for Nearest<R> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl<R: Real> Eq for Nearest<R> {}
impl<R: Real> PartialOrd for Nearest<R> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<R: Real> Ord for Nearest<R> {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap. NaN distances compare equal.
        other
            .dist
            .partial_cmp(&self.dist)
            .unwrap_or(Ordering::Equal)
    }
}

/// The expanding polytope.
struct Polytope<V: Vector> {
    vertices: Vec<SupportPoint<V>>,
    faces: Vec<Face<V>>,
    heap: BinaryHeap<Nearest<V::Scalar>>,
    horizon: Vec<[usize; 2]>,
    /// Indices of the live faces (the visibility scan skips removed ones).
    live: Vec<usize>,
}

impl<V: Vector3> Polytope<V> {
    /// The tetrahedron `points`, faces oriented outward.
    fn from_tetrahedron(points: [SupportPoint<V>; 4]) -> Self {
        let capacity = 4 + EPA_MAX_ITERATIONS as usize;
        let mut polytope = Self {
            vertices: Vec::with_capacity(capacity),
            faces: Vec::with_capacity(2 * capacity),
            heap: BinaryHeap::with_capacity(2 * capacity),
            horizon: Vec::with_capacity(16),
            live: Vec::with_capacity(2 * capacity),
        };
        polytope.vertices.extend_from_slice(&points);
        for [i, j, k, opposite] in [[0, 1, 2, 3], [0, 3, 1, 2], [0, 2, 3, 1], [1, 3, 2, 0]] {
            let w = |v: usize| polytope.vertices[v].w;
            let n = (w(j) - w(i)).cross(w(k) - w(i));
            if n.dot(w(opposite) - w(i)) > V::Scalar::ZERO {
                polytope.add_face(i, k, j);
            } else {
                polytope.add_face(i, j, k);
            }
        }
        polytope
    }

    /// Adds the face `i j k` (skipped when its area is zero: it has no normal).
    fn add_face(&mut self, i: usize, j: usize, k: usize) {
        let w = |v: usize| self.vertices[v].w;
        let Some(normal) = (w(j) - w(i)).cross(w(k) - w(i)).try_normalize() else {
            return;
        };
        let dist = normal.dot(w(i));
        self.heap.push(Nearest {
            dist,
            face: self.faces.len(),
        });
        self.live.push(self.faces.len());
        self.faces.push(Face {
            vertices: [i, j, k],
            normal,
            dist,
            alive: true,
        });
    }

    /// The nearest live face, removed from the heap.
    fn pop_nearest(&mut self) -> Option<Face<V>> {
        while let Some(entry) = self.heap.pop() {
            let face = self.faces[entry.face];
            if face.alive {
                return Some(face);
            }
        }
        None
    }

    /// Adds vertex `p`: removes every face that sees it and joins the horizon
    /// (the boundary of the removed region) to it.
    fn expand(&mut self, p: SupportPoint<V>) {
        let new = self.vertices.len();
        self.vertices.push(p);
        self.horizon.clear();
        let (faces, horizon) = (&mut self.faces, &mut self.horizon);
        self.live.retain(|&f| {
            let face = &mut faces[f];
            // `dist` is `normal · (any vertex)`: the plane test needs no vertex lookup.
            if face.normal.dot(p.w) <= face.dist {
                return true;
            }
            face.alive = false;
            let [a, b, c] = face.vertices;
            for edge in [[a, b], [b, c], [c, a]] {
                // An edge shared by two removed faces appears once each way: drop both.
                match horizon.iter().position(|&e| e == [edge[1], edge[0]]) {
                    Some(k) => {
                        horizon.swap_remove(k);
                    }
                    None => horizon.push(edge),
                }
            }
            false
        });
        for k in 0..self.horizon.len() {
            let [a, b] = self.horizon[k];
            self.add_face(a, b, new);
        }
    }

    /// The answer from the converged face: the origin's projection on it, split into
    /// the witness points of A and B.
    fn answer(&self, face: &Face<V>, iterations: u32) -> Penetration<V> {
        let [i, j, k] = face.vertices.map(|v| self.vertices[v]);
        let q = face.normal * face.dist;
        let (l, _) = triangle_weights(i.w - q, j.w - q, k.w - q);
        Penetration {
            depth: face.dist,
            normal: face.normal,
            point_a: i.a * l[0] + j.a * l[1] + k.a * l[2],
            point_b: i.b * l[0] + j.b * l[1] + k.b * l[2],
            status: Status::Converged,
            iterations,
        }
    }
}

/// Penetration of the cores, from a GJK simplex that encloses or touches the origin.
pub(crate) fn penetration<R, A, B>(
    diff: &MinkowskiDiff<'_, R::V3, A, B>,
    simplex: &Simplex<R::V3>,
) -> Penetration<R::V3>
where
    R: Real,
    A: SupportMap<R::V3> + ?Sized,
    B: SupportMap<R::V3> + ?Sized,
{
    let tetrahedron = match blow_up::<R, A, B>(diff, simplex) {
        Ok(t) => t,
        Err(answer) => return answer,
    };
    let mut size = tetrahedron.iter().fold(R::ZERO, |m, p| m.max(p.w.length()));
    let mut polytope = Polytope::from_tetrahedron(tetrahedron);
    let mut fallback: Option<Fallback<R::V3>> = None;
    for iteration in 1..=EPA_MAX_ITERATIONS {
        let Some(face) = polytope.pop_nearest() else {
            break;
        };
        let p = diff.support(face.normal);
        fallback
            .get_or_insert(Fallback::new(face.normal, p))
            .offer(face.normal, p);
        size = size.max(p.w.length());
        if face.normal.dot(p.w) - face.dist <= epa_rel_tolerance::<R>() * size {
            return polytope.answer(&face, iteration);
        }
        polytope.expand(p);
        if polytope.live.len() > EPA_MAX_FACES {
            break;
        }
    }
    match fallback {
        Some(fb) => fb.answer(Status::MaxIterations, EPA_MAX_ITERATIONS),
        None => degenerate_point::<R, A, B>(diff),
    }
}

/// Grows GJK's simplex into a tetrahedron with volume, or answers directly when
/// `A − B` is a point, a segment or a flat polygon (no unique normal).
fn blow_up<R, A, B>(
    diff: &MinkowskiDiff<'_, R::V3, A, B>,
    simplex: &Simplex<R::V3>,
) -> Result<[SupportPoint<R::V3>; 4], Penetration<R::V3>>
where
    R: Real,
    A: SupportMap<R::V3> + ?Sized,
    B: SupportMap<R::V3> + ?Sized,
{
    let mut s = *simplex;
    s.len = s.len.clamp(1, 4);
    if s.len < 4 {
        let tol = eps::<R>(EPA_BLOW_UP_ULPS) * axis_size::<R, A, B>(diff);
        if s.len == 1 {
            add_off_point::<R, A, B>(diff, &mut s, tol)?;
        }
        if s.len == 2 {
            add_off_line::<R, A, B>(diff, &mut s, tol)?;
        }
        if s.len == 3 {
            add_off_plane::<R, A, B>(diff, &mut s, tol)?;
        }
    }
    Ok([s.points[0], s.points[1], s.points[2], s.points[3]])
}

/// Adds a support point along a coordinate axis that differs from the only vertex.
fn add_off_point<R, A, B>(
    diff: &MinkowskiDiff<'_, R::V3, A, B>,
    s: &mut Simplex<R::V3>,
    tol: R,
) -> Result<(), Penetration<R::V3>>
where
    R: Real,
    A: SupportMap<R::V3> + ?Sized,
    B: SupportMap<R::V3> + ?Sized,
{
    let first = s.points[0].w;
    let found = [0, 1, 2]
        .map(R::V3::unit_axis)
        .into_iter()
        .flat_map(|d| [d, -d])
        .map(|d| diff.support(d))
        .find(|p| p.w.distance(first) > tol);
    match found {
        Some(p) => {
            s.push(p);
            Ok(())
        }
        None => Err(degenerate_point::<R, A, B>(diff)),
    }
}

/// Adds a support point off the line of the two vertices.
fn add_off_line<R, A, B>(
    diff: &MinkowskiDiff<'_, R::V3, A, B>,
    s: &mut Simplex<R::V3>,
    tol: R,
) -> Result<(), Penetration<R::V3>>
where
    R: Real,
    A: SupportMap<R::V3> + ?Sized,
    B: SupportMap<R::V3> + ?Sized,
{
    let (w0, w1) = (s.points[0].w, s.points[1].w);
    let Some(axis) = (w1 - w0).try_normalize() else {
        return Err(degenerate_point::<R, A, B>(diff));
    };
    let (u, v) = axis.orthonormal_basis();
    let mut fallback: Option<Fallback<R::V3>> = None;
    for d in [u, -u, v, -v] {
        let p = diff.support(d);
        let off = p.w - w0;
        if (off - axis * off.dot(axis)).length() > tol {
            s.push(p);
            return Ok(());
        }
        fallback.get_or_insert(Fallback::new(d, p)).offer(d, p);
    }
    // `A − B` is a segment through the origin: touching, no unique normal.
    Err(fallback.map_or_else(
        || degenerate_point::<R, A, B>(diff),
        |fb| fb.answer(Status::Degenerate, 6),
    ))
}

/// The unit normal of the simplex's first three vertices, `None` when they are
/// collinear or their cross product overflows.
fn plane_normal<V: Vector3>(s: &Simplex<V>) -> Option<V> {
    let w0 = s.points[0].w;
    (s.points[1].w - w0)
        .cross(s.points[2].w - w0)
        .try_normalize()
}

/// Adds a support point off the plane of the three vertices.
fn add_off_plane<R, A, B>(
    diff: &MinkowskiDiff<'_, R::V3, A, B>,
    s: &mut Simplex<R::V3>,
    tol: R,
) -> Result<(), Penetration<R::V3>>
where
    R: Real,
    A: SupportMap<R::V3> + ?Sized,
    B: SupportMap<R::V3> + ?Sized,
{
    let Some(n) = plane_normal(s) else {
        // Collinear: retry once as a segment. A second failure means the edges' cross
        // product is not representable (it overflows): no normal can be measured.
        s.len = 2;
        add_off_line::<R, A, B>(diff, s, tol)?;
        if plane_normal(s).is_none() {
            return Err(degenerate_point::<R, A, B>(diff));
        }
        return add_off_plane::<R, A, B>(diff, s, tol);
    };
    let w0 = s.points[0].w;
    let (up, down) = (diff.support(n), diff.support(-n));
    let (h_up, h_down) = (n.dot(up.w - w0), -n.dot(down.w - w0));
    if h_up.max(h_down) <= tol {
        // `A − B` is flat and holds the origin: touching along a plane, normal ±n.
        let mut fb = Fallback::new(n, up);
        fb.offer(-n, down);
        return Err(fb.answer(Status::Degenerate, 8));
    }
    s.push(if h_up >= h_down { up } else { down });
    Ok(())
}

/// `A − B` is a single point (e.g. coincident ball centres): no normal is defined;
/// answer along +x with `Status::Degenerate`.
fn degenerate_point<R, A, B>(diff: &MinkowskiDiff<'_, R::V3, A, B>) -> Penetration<R::V3>
where
    R: Real,
    A: SupportMap<R::V3> + ?Sized,
    B: SupportMap<R::V3> + ?Sized,
{
    let n = R::V3::unit_axis(0);
    Penetration::from_support(n, &diff.support(n), Status::Degenerate, 1)
}

/// The size of `A − B` along the axes: the scale of the blow-up tolerance.
fn axis_size<R, A, B>(diff: &MinkowskiDiff<'_, R::V3, A, B>) -> R
where
    R: Real,
    A: SupportMap<R::V3> + ?Sized,
    B: SupportMap<R::V3> + ?Sized,
{
    (0..3).fold(R::ZERO, |m, i| {
        let d = R::V3::unit_axis(i);
        m.max(diff.support(d).w.abs().max_element())
            .max(diff.support(-d).w.abs().max_element())
    })
}
