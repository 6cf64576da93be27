//! EPA in 3D: a convex polytope grown from GJK's tetrahedron, its faces in a
//! min-heap by distance to the origin; each new support point removes the faces it
//! sees and is joined to their horizon. Every face knows its three neighbours, so the
//! horizon is found by a depth-first walk from the face being expanded (which sees
//! the new point) over the faces that see it (the silhouette walk of van den Bergen,
//! *Collision Detection in Interactive 3D Environments*, 2003, 4.3.4): the cost is
//! that of the removed region, not of the whole polytope. See [`super::epa`] for the
//! reference, tolerances and the fallback.

use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

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

/// No neighbour yet (only while a face is being linked); unpacks to a face index
/// past any real one.
const UNLINKED: u32 = u32::MAX;

/// `(face, edge)` packed in one `u32` (the polytope holds far fewer than 2³⁰ faces).
#[inline]
fn pack(face: usize, edge: usize) -> u32 {
    (face * 4 + edge) as u32
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
    heap: BinaryHeap<Nearest<V::Scalar>>,
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
            heap: BinaryHeap::with_capacity(2 * capacity),
            horizon: Vec::with_capacity(16),
            stack: Vec::with_capacity(32),
        }
    }

    /// Restarts from the tetrahedron `points`, faces oriented outward and linked to
    /// each other (the buffers keep their capacity).
    fn reset(&mut self, points: [SupportPoint<V>; 4]) {
        self.vertices.clear();
        self.faces.clear();
        self.heap.clear();
        self.horizon.clear();
        self.vertices.extend_from_slice(&points);
        for [i, j, k, opposite] in [[0, 1, 2, 3], [0, 3, 1, 2], [0, 2, 3, 1], [1, 3, 2, 0]] {
            let w = |v: usize| self.vertices[v].w;
            let n = (w(j) - w(i)).cross(w(k) - w(i));
            if n.dot(w(opposite) - w(i)) > V::Scalar::ZERO {
                self.add_face(i, k, j);
            } else {
                self.add_face(i, j, k);
            }
        }
        self.link_by_vertices(0);
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
                self.heap.push(Nearest { dist, face: index });
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

    /// Links every unlinked edge of the faces from `first` on to the edge running
    /// the other way among those faces (the tetrahedron's four faces).
    fn link_by_vertices(&mut self, first: usize) {
        for f in first..self.faces.len() {
            for e in 0..3 {
                if self.faces[f].adjacent[e] != UNLINKED {
                    continue;
                }
                let v = self.faces[f].vertices;
                let (a, b) = (v[e], v[(e + 1) % 3]);
                let twin = (first..self.faces.len()).find_map(|g| {
                    let u = self.faces[g].vertices;
                    (0..3)
                        .find(|&k| (u[k], u[(k + 1) % 3]) == (b, a))
                        .map(|k| (g, k))
                });
                if let Some((g, k)) = twin {
                    self.faces[f].adjacent[e] = pack(g, k);
                    self.faces[g].adjacent[k] = pack(f, e);
                }
            }
        }
    }

    /// The nearest live face and its index, removed from the heap.
    fn pop_nearest(&mut self) -> Option<(usize, Face<V>)> {
        while let Some(entry) = self.heap.pop() {
            let face = self.faces[entry.face];
            if face.alive {
                return Some((entry.face, face));
            }
        }
        None
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
        let [i, j, k] = holder.vertices.map(|v| self.vertices[v as usize]);
        let [a, b, c] = unit_scaled([i.w - q, j.w - q, k.w - q]);
        let (l, _) = triangle_weights(a, b, c);
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
    if s.len < 4 {
        let tol = eps::<R>(EPA_BLOW_UP_ULPS) * rounding_size::<R, A, B>(diff, &s);
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
