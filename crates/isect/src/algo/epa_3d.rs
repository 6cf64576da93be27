//! EPA in 3D: a convex polytope grown from GJK's tetrahedron, the face nearest the
//! origin found by a scan of the live faces; each new support point removes the faces it
//! sees and is joined to their horizon. Every face knows its three neighbours, so the
//! horizon is found by a depth-first walk from the face being expanded (which sees
//! the new point) over the faces that see it (the silhouette walk of van den Bergen,
//! *Collision Detection in Interactive 3D Environments*, 2003, 4.3.4): the cost is
//! that of the removed region, not of the whole polytope. See [`super::epa`] for the
//! reference, tolerances and the fallback.

use std::cell::RefCell;

use super::epa::{epa_rel_tolerance, Fallback, Penetration, EPA_BLOW_UP_ULPS, EPA_MAX_ITERATIONS};
use super::gjk::{triangle_weights, unit_scaled, MinkowskiDiff, Simplex, Status, SupportPoint};
use super::support::SupportMap;
use crate::math::tolerance::eps;
use crate::math::{Isometry, Real, Vector, Vector3};

/// Cap on the faces the polytope ever creates (live and removed). Every expansion
/// replaces the faces that see the new point by a fan over the horizon, so the count
/// stays far below the cap on any input that converges; past it (degenerate,
/// rounding-driven growth) EPA stops and returns its best bound with `MaxIterations`.
pub const EPA_MAX_FACES: usize = 4096;

/// A triangular face, counter-clockwise seen from outside. Edge `e` runs from
/// `vertices[e]` to `vertices[(e + 1) % 3]`; `adjacent[e]` names the neighbour across
/// it and that neighbour's edge (the same two vertices, reversed), packed by
/// [`pack`]. Indices are `u32` to keep a face small (it is copied on every visit).
#[derive(Copy, Clone, Debug)]
struct Face<V: Vector> {
    vertices: [u32; 3],
    adjacent: [u32; 3],
    normal: V,
    /// `normal · vertex`; `+∞` for a zero-area face, which then never sees a point
    /// and is never the nearest.
    dist: V::Scalar,
    alive: bool,
}

impl<V: Vector> Face<V> {
    /// True when the point `w` is strictly in front of the face's plane (false for NaN
    /// and for zero-area faces).
    #[inline]
    fn sees(&self, w: V) -> bool {
        self.normal.dot(w) > self.dist
    }
}

/// No neighbour yet (only while a face is being linked); unpacks to a face index
/// past any real one.
const UNLINKED: u32 = u32::MAX;

/// `(face, edge)` packed in one `u32` (the polytope holds far fewer than 2³⁰ faces).
#[inline]
const fn pack(face: usize, edge: usize) -> u32 {
    (face * 4 + edge) as u32
}

/// The tetrahedron's faces, counter-clockwise seen from outside when vertex 3 lies
/// behind face `0 1 2` (a negative signed volume).
const TETRAHEDRON: [[usize; 3]; 4] = [[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]];
/// The same faces for a positive signed volume: each one reversed.
const REVERSED_TETRAHEDRON: [[usize; 3]; 4] = reversed(TETRAHEDRON);
const TETRAHEDRON_LINKS: [[u32; 3]; 4] = links(TETRAHEDRON);
const REVERSED_TETRAHEDRON_LINKS: [[u32; 3]; 4] = links(REVERSED_TETRAHEDRON);

/// `faces` with each face's orientation reversed (`i j k` to `i k j`).
const fn reversed(faces: [[usize; 3]; 4]) -> [[usize; 3]; 4] {
    let mut out = faces;
    let mut f = 0;
    while f < 4 {
        out[f] = [faces[f][0], faces[f][2], faces[f][1]];
        f += 1;
    }
    out
}

/// Each edge's neighbour across it (see [`Face::adjacent`]) in a closed set of four
/// faces: the edge running the other way.
const fn links(faces: [[usize; 3]; 4]) -> [[u32; 3]; 4] {
    let mut out = [[UNLINKED; 3]; 4];
    let mut f = 0;
    while f < 4 {
        let mut e = 0;
        while e < 3 {
            let (a, b) = (faces[f][e], faces[f][(e + 1) % 3]);
            let mut g = 0;
            while g < 4 {
                let mut k = 0;
                while k < 3 {
                    if faces[g][k] == b && faces[g][(k + 1) % 3] == a {
                        out[f][e] = pack(g, k);
                    }
                    k += 1;
                }
                g += 1;
            }
            e += 1;
        }
        f += 1;
    }
    out
}

/// The `(face, edge)` of [`pack`].
#[inline]
fn unpack(link: u32) -> (usize, usize) {
    ((link / 4) as usize, (link % 4) as usize)
}

/// Vertex `i` of `face` as an index.
#[inline]
fn vertex<V: Vector>(face: &Face<V>, i: usize) -> usize {
    face.vertices[i] as usize
}

/// The expanding polytope.
pub(crate) struct Polytope<V: Vector> {
    vertices: Vec<SupportPoint<V>>,
    faces: Vec<Face<V>>,
    /// The faces that may be nearest: alive (until a scan drops them) and with a normal.
    live: Vec<u32>,
    /// Horizon edges of the current expansion, as `(face, edge)` of the faces kept.
    horizon: Vec<(usize, usize)>,
    /// The silhouette walk's stack of `(face, edge)` to enter.
    stack: Vec<(usize, usize)>,
}

impl<V: Vector3> Polytope<V> {
    /// An empty polytope with room for a typical expansion.
    fn with_capacity() -> Self {
        let capacity = 4 + EPA_MAX_ITERATIONS as usize;
        Self {
            vertices: Vec::with_capacity(capacity),
            faces: Vec::with_capacity(2 * capacity),
            live: Vec::with_capacity(2 * capacity),
            horizon: Vec::with_capacity(16),
            stack: Vec::with_capacity(32),
        }
    }

    /// Restarts from the tetrahedron `points`, faces oriented outward and linked to
    /// each other (the buffers keep their capacity). One orientation test for the
    /// whole tetrahedron (its signed volume), so the faces always agree and their
    /// links come from a table.
    fn reset(&mut self, points: [SupportPoint<V>; 4]) {
        self.vertices.clear();
        self.faces.clear();
        self.live.clear();
        self.horizon.clear();
        self.vertices.extend_from_slice(&points);
        let w = points.map(|p| p.w);
        let volume = (w[1] - w[0]).dot((w[2] - w[0]).cross(w[3] - w[0]));
        // A positive volume puts vertex 3 in front of face `0 1 2`: reverse them all.
        let (faces, links) = if volume > V::Scalar::ZERO {
            (&REVERSED_TETRAHEDRON, &REVERSED_TETRAHEDRON_LINKS)
        } else {
            (&TETRAHEDRON, &TETRAHEDRON_LINKS)
        };
        for ([i, j, k], adjacent) in faces.iter().zip(links) {
            let face = self.add_face(*i, *j, *k);
            self.faces[face].adjacent = *adjacent;
        }
    }

    /// Adds the face `i j k`, unlinked; a zero-area face (no normal) is kept for the
    /// topology but never queued.
    #[inline(always)]
    fn add_face(&mut self, i: usize, j: usize, k: usize) -> usize {
        let [wi, wj, wk] = [i, j, k].map(|v| self.vertices[v].w);
        let index = self.faces.len();
        let (normal, dist) = match (wj - wi).cross(wk - wi).try_normalize() {
            Some(n) => {
                let dist = n.dot(wi);
                self.live.push(index as u32);
                (n, dist)
            }
            None => (V::ZERO, V::Scalar::INFINITY),
        };
        self.faces.push(Face {
            vertices: [i, j, k].map(|v| v as u32),
            adjacent: [UNLINKED; 3],
            normal,
            dist,
            alive: true,
        });
        index
    }

    /// The nearest live face and its index, removed from the live list. One scan,
    /// which also drops the faces removed since the last one: the list holds about
    /// twice as many faces as the polytope has vertices, and a binary heap's pushes
    /// and pops cost more than the scan on the small polytopes EPA usually builds.
    fn pop_nearest(&mut self) -> Option<(usize, Face<V>)> {
        let mut kept = 0;
        let mut nearest: Option<(V::Scalar, usize)> = None;
        for read in 0..self.live.len() {
            let f = self.live[read];
            let face = &self.faces[f as usize];
            if !face.alive {
                continue;
            }
            // NaN distances never win (unless every distance is NaN).
            if nearest.is_none_or(|(d, _)| face.dist < d) {
                nearest = Some((face.dist, kept));
            }
            self.live[kept] = f;
            kept += 1;
        }
        self.live.truncate(kept);
        let (_, at) = nearest?;
        let f = self.live.swap_remove(at) as usize;
        Some((f, self.faces[f]))
    }

    /// Adds vertex `p`, seen by face `seen`: removes the connected region of faces
    /// that see it and joins the region's boundary (the horizon) to it.
    fn expand(&mut self, seen: usize, p: SupportPoint<V>) {
        let new = self.vertices.len();
        self.vertices.push(p);
        self.silhouette(seen, p.w);
        let first = self.faces.len();
        for h in 0..self.horizon.len() {
            let (g, k) = self.horizon[h];
            let kept = &self.faces[g];
            // The kept face's edge runs a → b; the new face runs b → a → new.
            let (a, b) = (vertex(kept, k), vertex(kept, (k + 1) % 3));
            let face = self.add_face(b, a, new);
            self.faces[face].adjacent[0] = pack(g, k);
            self.faces[g].adjacent[k] = pack(face, 0);
        }
        self.link_fan(first);
    }

    /// Links the fan of new faces `b → a → new` (from `first` on) around the new
    /// vertex: face `i`'s edge `a → new` is face `j`'s edge `new → b` when `b_j = a_i`.
    /// The silhouette walk lists the horizon in order around the hole, so the match
    /// is usually the next face of the fan; the search is the fallback.
    fn link_fan(&mut self, first: usize) {
        let end = self.faces.len();
        for i in first..end {
            let a = self.faces[i].vertices[1];
            let next = if i + 1 < end { i + 1 } else { first };
            let j = if self.faces[next].vertices[0] == a {
                Some(next)
            } else {
                (first..end).find(|&j| self.faces[j].vertices[0] == a)
            };
            if let Some(j) = j {
                self.faces[i].adjacent[1] = pack(j, 2);
                self.faces[j].adjacent[2] = pack(i, 1);
            }
        }
    }

    /// The depth-first walk over the faces that see `w`, from `seen` (which does):
    /// entering face `f` across its edge `edge`, either records that edge as horizon
    /// (`f` does not see `w`) or removes `f` and walks on across its two other edges.
    /// The walk keeps its own stack (children pushed in reverse, so the order is the
    /// recursive one and the horizon comes out in order around the hole). Each face
    /// is removed at most once, so the walk ends.
    fn silhouette(&mut self, seen: usize, w: V) {
        self.horizon.clear();
        self.stack.clear();
        self.faces[seen].alive = false;
        let adjacent = self.faces[seen].adjacent;
        self.stack
            .extend(adjacent.iter().rev().map(|&link| unpack(link)));
        while let Some((f, edge)) = self.stack.pop() {
            let Some(face) = self.faces.get_mut(f) else {
                continue;
            };
            if !face.alive {
                continue;
            }
            if !face.sees(w) {
                self.horizon.push((f, edge));
                continue;
            }
            face.alive = false;
            let adjacent = face.adjacent;
            for step in [2, 1] {
                self.stack.push(unpack(adjacent[(edge + step) % 3]));
            }
        }
    }

    /// The answer from the converged face: the origin's projection `q` on its plane,
    /// split into the witness points of A and B by its barycentric coordinates in the
    /// face of the polytope that holds `q` (see [`Polytope::face_holding`]), so that
    /// `point_a − point_b = q = depth · normal`.
    fn answer(&self, face: &Face<V>, iterations: u32) -> Penetration<V> {
        let q = face.normal * face.dist;
        let holder = self.face_holding(face, q);
        let points = holder.vertices.map(|v| self.vertices[v as usize]);
        let (answer, _) = face_answer(points, face.normal, face.dist, iterations);
        answer
    }
}

/// The penetration `dist` along the unit `normal` of a face through `points`: the
/// origin's projection `q = dist · normal` split into A's and B's witness points by
/// its barycentric coordinates in the triangle, so that
/// `point_a − point_b = q`. The flag is true when `q` is inside the triangle (else
/// the witnesses are those of the triangle's point nearest `q`).
fn face_answer<V: Vector3>(
    points: [SupportPoint<V>; 3],
    normal: V,
    dist: V::Scalar,
    iterations: u32,
) -> (Penetration<V>, bool) {
    let q = normal * dist;
    let [i, j, k] = points;
    let [a, b, c] = unit_scaled([i.w - q, j.w - q, k.w - q]);
    let (l, interior) = triangle_weights(a, b, c);
    let answer = Penetration {
        depth: dist,
        normal,
        point_a: i.a * l[0] + j.a * l[1] + k.a * l[2],
        point_b: i.b * l[0] + j.b * l[1] + k.b * l[2],
        status: Status::Converged,
        iterations,
    };
    (answer, interior)
}

impl<V: Vector3> Polytope<V> {
    /// The face whose triangle holds `q`, the origin's projection on the nearest
    /// face's plane. Faces of `A − B` are often split into coplanar triangles (boxes,
    /// polyhedra), and the nearest one popped may be a neighbour of the one holding
    /// `q` (all share one distance): walk across the edge where `q`'s barycentric
    /// coordinate is most negative until none is, at most once per face.
    fn face_holding<'p>(&'p self, nearest: &'p Face<V>, q: V) -> &'p Face<V> {
        let mut face = nearest;
        for _ in 0..self.faces.len() {
            let [a, b, c] = face.vertices.map(|v| self.vertices[v as usize].w - q);
            // Twice the signed areas of q's sub-triangles opposite each vertex.
            let areas = [
                face.normal.dot(b.cross(c)),
                face.normal.dot(c.cross(a)),
                face.normal.dot(a.cross(b)),
            ];
            let worst = (1..3).fold(0, |w, i| if areas[i] < areas[w] { i } else { w });
            // Inside (or NaN): stop here.
            if areas[worst] >= V::Scalar::ZERO || areas[worst].is_nan() {
                break;
            }
            // The edge opposite vertex `worst` is edge `worst + 1`.
            let (g, _) = unpack(face.adjacent[(worst + 1) % 3]);
            match self.faces.get(g) {
                Some(next) if next.alive && next.dist.is_finite() => face = next,
                _ => break,
            }
        }
        face
    }
}

/// Per-thread polytope buffers, reused from one EPA call to the next so that a
/// call allocates nothing once the buffers have grown (they keep the capacity of the
/// largest expansion, at most [`EPA_MAX_FACES`] faces). A re-entrant call (a support
/// map that itself runs EPA) finds the buffers in use and takes fresh ones.
pub(crate) trait PolytopeBuffers: Vector3 {
    /// Runs `f` on this thread's polytope (or a fresh one when it is in use).
    fn with_polytope<T>(f: impl FnMut(&mut Polytope<Self>) -> T) -> T;
}

macro_rules! impl_polytope_buffers {
    ($v:ty) => {
        impl PolytopeBuffers for $v {
            #[inline]
            fn with_polytope<T>(mut f: impl FnMut(&mut Polytope<Self>) -> T) -> T {
                thread_local! {
                    static BUFFERS: RefCell<Polytope<$v>> = RefCell::new(Polytope::with_capacity());
                }
                // Fresh buffers when this thread's are in use or already destroyed.
                BUFFERS
                    .try_with(|cell| cell.try_borrow_mut().ok().map(|mut p| f(&mut p)))
                    .ok()
                    .flatten()
                    .unwrap_or_else(|| f(&mut Polytope::with_capacity()))
            }
        }
    };
}

impl_polytope_buffers!(glam::Vec3);
impl_polytope_buffers!(glam::DVec3);

/// Penetration of the cores, from a GJK simplex that encloses or touches the origin.
pub(crate) fn penetration<R, A, B>(
    diff: &MinkowskiDiff<'_, R::V3, A, B>,
    simplex: &Simplex<R::V3>,
) -> Penetration<R::V3>
where
    R: Real,
    R::V3: PolytopeBuffers,
    A: SupportMap<R::V3> + ?Sized,
    B: SupportMap<R::V3> + ?Sized,
{
    let tetrahedron = match blow_up::<R, A, B>(diff, simplex) {
        Ok(t) => t,
        Err(answer) => return answer,
    };
    R::V3::with_polytope(|polytope| expand_to_boundary::<R, A, B>(diff, polytope, tetrahedron))
}

/// The EPA loop on `polytope`, restarted from `tetrahedron`.
fn expand_to_boundary<R, A, B>(
    diff: &MinkowskiDiff<'_, R::V3, A, B>,
    polytope: &mut Polytope<R::V3>,
    tetrahedron: [SupportPoint<R::V3>; 4],
) -> Penetration<R::V3>
where
    R: Real,
    A: SupportMap<R::V3> + ?Sized,
    B: SupportMap<R::V3> + ?Sized,
{
    let mut size = tetrahedron.iter().fold(R::ZERO, |m, p| m.max(p.w.length()));
    polytope.reset(tetrahedron);
    let mut fallback: Option<Fallback<R::V3>> = None;
    for iteration in 1..=EPA_MAX_ITERATIONS {
        let Some((index, face)) = polytope.pop_nearest() else {
            break;
        };
        let p = diff.support(face.normal);
        let best = fallback.get_or_insert(Fallback::new(face.normal, p));
        best.offer(face.normal, p);
        size = size.max(p.w.length());
        let tol = epa_rel_tolerance::<R>() * size;
        if face.normal.dot(p.w) - face.dist <= tol {
            return polytope.answer(&face, iteration);
        }
        // Curved differences converge slowly in the sense above; stop once the best
        // proven upper bound brackets the face's distance, and answer with that bound
        // (pushing by it separates the shapes).
        if best.brackets(face.dist, tol) {
            return best.answer(Status::Converged, iteration);
        }
        polytope.expand(index, p);
        if polytope.faces.len() > EPA_MAX_FACES {
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
    let gjk_triangle = s.len == 3;
    if s.len < 4 {
        let tol = eps::<R>(EPA_BLOW_UP_ULPS) * rounding_size::<R, A, B>(diff, &s);
        if s.len == 1 {
            add_off_point::<R, A, B>(diff, &mut s, tol)?;
        }
        if s.len == 2 {
            add_off_line::<R, A, B>(diff, &mut s, tol)?;
        }
        if s.len == 3 {
            add_off_plane::<R, A, B>(diff, &mut s, tol, gjk_triangle)?;
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
    through_origin: bool,
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
        return add_off_plane::<R, A, B>(diff, s, tol, false);
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
    let (far, near, outward) = if h_up >= h_down {
        (up, down, -n)
    } else {
        (down, up, n)
    };
    if through_origin {
        if let Some(answer) = supporting_face::<R>(s, near, far, outward) {
            return Err(answer);
        }
    }
    s.push(far);
    Ok(())
}

/// EPA's first iteration on GJK's final triangle, which passes through the origin
/// (the cores touch, or overlap by rounding): when the support point on the near
/// side (`near`, along the triangle's `outward` normal) lies within EPA's tolerance
/// of the triangle's plane, that plane supports `A − B`, no face of the polytope is
/// nearer than the triangle (at distance about 0), and EPA would answer from it.
/// `None` when the plane is not confirmed, or the origin's projection is outside the
/// triangle: EPA then runs from the tetrahedron with `far`.
fn supporting_face<R: Real>(
    s: &Simplex<R::V3>,
    near: SupportPoint<R::V3>,
    far: SupportPoint<R::V3>,
    outward: R::V3,
) -> Option<Penetration<R::V3>> {
    let points = [s.points[0], s.points[1], s.points[2]];
    let size = points
        .iter()
        .chain([&near, &far])
        .fold(R::ZERO, |m, p| m.max(p.w.length()));
    let tol = epa_rel_tolerance::<R>() * size;
    let dist = outward.dot(points[0].w);
    if !(dist.abs() <= tol && outward.dot(near.w) - dist <= tol) {
        return None;
    }
    let (answer, interior) = face_answer(points, outward, dist, 1);
    interior.then_some(answer)
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

/// The scale of the blow-up tolerance: the largest coordinate of the simplex's
/// support points on A and B (in A's frame) and of B's offset, the magnitudes whose
/// rounding the vertices `w = a − b` and their distances to a line or plane carry.
/// (It was the extent of `A − B` along the six axis directions: six support calls
/// more on every touching pair, a sixth of the touching hull contacts' cost.)
fn rounding_size<R, A, B>(diff: &MinkowskiDiff<'_, R::V3, A, B>, s: &Simplex<R::V3>) -> R
where
    R: Real,
    A: SupportMap<R::V3> + ?Sized,
    B: SupportMap<R::V3> + ?Sized,
{
    let offset = diff.pose_ab.translation().abs().max_element();
    s.points[..s.len].iter().fold(offset, |m, p| {
        m.max(p.a.abs().max_element()).max(p.b.abs().max_element())
    })
}

#[cfg(test)]
mod tests {
    use super::super::epa::EPA_REL_FLOOR;
    use super::super::gjk::{closest_points, GjkVector};
    use super::*;
    use crate::math::Pose3;
    use crate::shape::{Cone, Cylinder};
    use glam::{DQuat, DVec3, Quat, Vec3};

    // The tables link every edge of both tetrahedron orientations to the same two
    // vertices running the other way, and the links are mutual.
    #[test]
    fn tetrahedron_links_pair_reversed_edges() {
        for (faces, links) in [
            (TETRAHEDRON, TETRAHEDRON_LINKS),
            (REVERSED_TETRAHEDRON, REVERSED_TETRAHEDRON_LINKS),
        ] {
            for f in 0..4 {
                for e in 0..3 {
                    let (g, k) = unpack(links[f][e]);
                    assert!(g < 4 && k < 3, "face {f} edge {e} unlinked");
                    let edge = (faces[f][e], faces[f][(e + 1) % 3]);
                    assert_eq!((faces[g][(k + 1) % 3], faces[g][k]), edge);
                    assert_eq!(links[g][k], pack(f, e));
                }
            }
        }
    }

    /// A seeded LCG in [0, 1).
    fn next(seed: &mut u64) -> f64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Seeded cylinder–cone pairs (the curved rims of both meet in `A − B`), B's
    /// pose in A's frame, for the pairs whose cores overlap.
    fn curved_pairs(count: usize) -> Vec<(Cylinder<f64>, Cone<f64>, Pose3<f64>)> {
        let mut seed = 5;
        let mut s = move |lo: f64, hi: f64| lo + (hi - lo) * next(&mut seed);
        (0..count)
            .map(|_| {
                let a = Cylinder::new(s(0.2, 0.6), s(0.2, 0.6)).unwrap();
                let b = Cone::new(s(0.2, 0.6), s(0.2, 0.6)).unwrap();
                let axis = DVec3::new(s(-1.0, 1.0), s(-1.0, 1.0), s(-1.0, 1.0));
                let rotation = DQuat::from_axis_angle(axis.normalize(), s(-3.0, 3.0));
                let t = DVec3::new(s(-0.6, 0.6), s(-0.6, 0.6), s(-0.6, 0.6));
                (a, b, Pose3::new(t, rotation))
            })
            .filter(|(a, b, pose)| {
                closest_points(&MinkowskiDiff::new(a, b, *pose), None).overlapping
            })
            .collect()
    }

    // Curved pairs converge (the old 1e-9 floor left 0.8% at the cap): at most 1 in
    // 200 ends at the cap, in f64 and f32, every answer within the iteration cap with
    // a unit normal and a finite depth ≥ 0.
    #[test]
    fn curved_pairs_converge() {
        let pairs = curved_pairs(1500);
        assert!(pairs.len() > 600, "{} overlapping pairs", pairs.len());
        let (mut capped_64, mut capped_32) = (0, 0);
        for (a, b, pose) in &pairs {
            let diff = MinkowskiDiff::new(a, b, *pose);
            let p = DVec3::penetration(&diff, &closest_points(&diff, None).simplex);
            assert!(p.iterations <= EPA_MAX_ITERATIONS);
            assert!(p.depth.is_finite() && p.depth >= 0.0);
            assert!((p.normal.length() - 1.0).abs() < 1e-9);
            capped_64 += usize::from(p.status == Status::MaxIterations);
            let (a32, b32) = (
                Cylinder::new(a.half_height() as f32, a.radius() as f32).unwrap(),
                Cone::new(b.half_height() as f32, b.radius() as f32).unwrap(),
            );
            let q = pose.rotation.as_quat();
            let pose32 = Pose3::new(
                pose.translation.as_vec3(),
                Quat::from_xyzw(q.x, q.y, q.z, q.w),
            );
            let diff32 = MinkowskiDiff::new(&a32, &b32, pose32);
            let p32 = Vec3::penetration(&diff32, &closest_points(&diff32, None).simplex);
            assert!(p32.depth.is_finite() && p32.iterations <= EPA_MAX_ITERATIONS);
            capped_32 += usize::from(p32.status == Status::MaxIterations);
        }
        assert!(capped_64 * 200 <= pairs.len(), "f64: {capped_64} capped");
        assert!(capped_32 * 200 <= pairs.len(), "f32: {capped_32} capped");
    }

    // The depth is the minimum translation: moving B out along the normal by the
    // depth plus the tolerance (EPA_REL_FLOOR times a size below 2) separates the
    // cores, by 0.1% less does not.
    #[test]
    fn curved_depth_is_minimal() {
        for (a, b, pose) in curved_pairs(400) {
            let diff = MinkowskiDiff::new(&a, &b, pose);
            let p = DVec3::penetration(&diff, &closest_points(&diff, None).simplex);
            let moved = |s: f64| {
                let mut shifted = pose;
                shifted.translation += p.normal * s;
                closest_points(&MinkowskiDiff::new(&a, &b, shifted), None).overlapping
            };
            assert!(!moved(p.depth + 2.0 * EPA_REL_FLOOR), "{p:?}");
            if p.status == Status::Converged && p.depth > 1e-3 {
                assert!(moved(p.depth * (1.0 - 1e-3)), "{p:?}");
            }
        }
    }
}
