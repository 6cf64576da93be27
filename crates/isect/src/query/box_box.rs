//! Box–box distance proven by a pair of points (3D), without GJK for almost every
//! pair.
//!
//! A point `p` of A and a point `q` of B give an upper bound `|q − p|` on the
//! distance, and the support planes of the boxes normal to `n = q − p` a lower bound:
//! `(min over B of n·x − max over A of n·x) / |n|` (a box's extreme along `n` is its
//! centre's plus `Σ h_k |n·axis_k|`). When the bounds meet to rounding, `|q − p|` is
//! the distance (the duality of the minimum-distance problem; Gilbert, Johnson and
//! Keerthi 1988 stop GJK on the same gap), and points within rounding of each other
//! prove an overlap. The candidate pairs, in order of cost:
//!
//! 1. alternating projections between the boxes (each a clamp in the box's frame),
//!    from A's point nearest B's centre: they reach a corner over a face, a corner by
//!    an edge, two corners or a shared point in a step or two. When both points lie
//!    on edges, the closest points of the edges' lines are tried at once (projections
//!    between crossing edges converge only geometrically);
//! 2. the separating axes (Gottschalk, Lin and Manocha 1996, "OBBTree"; Ericson,
//!    *Real-Time Collision Detection*, 4.4.1): when all 15 overlap by more than
//!    rounding the boxes overlap; otherwise the widest attains the distance when the
//!    closest points of the two support edges' lines lie within both edges (edge
//!    axis), or the support corner projects onto the face (face axis);
//! 3. the corner of either box nearest the other box, with that box's point nearest
//!    it (exact whenever the nearest features include a corner).
//!
//! The few pairs none of these proves (edges within [`PARALLEL_SIN2`] of parallel, a
//! support that is not a corner or an edge because an axis is exactly level) answer
//! `None`, and the caller runs GJK.
//!
//! Tolerances: a pair proves the distance when its bounds are within [`PROOF_ULPS`]
//! `ε` of the largest coordinate (the centres' offset, the half extents), and an
//! overlap when its points are; the axis gaps carry a few `ε` of it. A feature check
//! that passes by rounding, where the exact closest point lies just past a face's
//! border or an edge's end, moves the distance by at most that rounding. Boxes whose
//! largest coordinate lies outside `[MIN_SIZE, MAX_SIZE]` go to GJK.

// `!(x > y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
use crate::math::{Isometry, Pose3, Real, Rotation3, Vector};
use crate::shape::Aabb;

/// Steps of alternating projections (step 1 of the module docs) before the axes.
pub const PROJECTION_STEPS: usize = 4;

/// A pair of points proves the distance when it exceeds the gap between the support
/// planes normal to it by at most this many `ε` of the largest coordinate.
pub const PROOF_ULPS: f64 = 16.0;

/// The proofs run only when the largest coordinate (the centres' offset, the half
/// extents) lies within `[MIN_SIZE, MAX_SIZE]`, where squares of distances neither
/// overflow nor lose precision to underflow in `f32`; other pairs go to GJK, which
/// rescales.
pub const MIN_SIZE: f64 = 1e-15;
/// See [`MIN_SIZE`].
pub const MAX_SIZE: f64 = 1e15;

/// Edge pairs whose directions have `sin²` of their angle below this are left to the
/// projections and GJK (about 14.5°): the closest points of their lines carry rounding
/// amplified by `1 / sin²`, at most 16 here.
pub const PARALLEL_SIN2: f64 = 1.0 / 16.0;

/// The distance between box `a` at `pose_a` and box `b` at `pose_b` (each a box of
/// its own frame) when a pair of support features proves it (module docs), 0 when
/// the boxes share a point to rounding; `None` when neither is found, for GJK to
/// answer, as for a NaN or infinite pose and a rotation that is not unit to rounding
/// (within [`ROTATION_KEEP_ULPS`](crate::math::ROTATION_KEEP_ULPS); a zero one, say).
///
/// ```
/// use isect::d3::*;
/// use isect::query::box_box::certified_distance;
///
/// # fn main() -> Result<(), ShapeError> {
/// let cube = Aabb::new(Vec3::splat(-1.0), Vec3::splat(1.0))?;
/// // Turned 45° about x and lifted: its lowest edge lies 0.5 above the top face.
/// let up = 1.5 + std::f32::consts::SQRT_2;
/// let turned = Pose::new(Vec3::new(0.0, 0.0, up), Quat::from_rotation_x(std::f32::consts::FRAC_PI_4));
/// let d = certified_distance(&Pose::IDENTITY, &cube, &turned, &cube).expect("an edge over a face");
/// assert!((d - 0.5).abs() < 1e-5);
/// // Overlapping boxes: a shared point is found.
/// let above = Pose::from_translation(Vec3::new(0.0, 0.0, 1.0));
/// assert_eq!(certified_distance(&Pose::IDENTITY, &cube, &above, &cube), Some(0.0));
/// # Ok(())
/// # }
/// ```
pub fn certified_distance<R: Real>(
    pose_a: &Pose3<R>,
    a: &Aabb<R::V3>,
    pose_b: &Pose3<R>,
    b: &Aabb<R::V3>,
) -> Option<R> {
    rotations_unit(pose_a, pose_b).then(|| proven_distance(pose_a, a, pose_b, b))?
}

/// [`certified_distance`] for poses whose rotations are known unit (the dispatch's,
/// checked where they entered).
#[inline]
pub(crate) fn proven_distance<R: Real>(
    pose_a: &Pose3<R>,
    a: &Aabb<R::V3>,
    pose_b: &Pose3<R>,
    b: &Aabb<R::V3>,
) -> Option<R> {
    BoxPair::new(pose_a, a, pose_b, b)
        .proof()
        .map(|proof| proof.distance)
}

/// Both rotations unit to rounding: the proofs read them as rotation matrices.
fn rotations_unit<R: Real>(pose_a: &Pose3<R>, pose_b: &Pose3<R>) -> bool {
    pose_a.rotation_kept_unit() && pose_b.rotation_kept_unit()
}

/// [`certified_distance`] with a closest point of each box (world space): `(distance,
/// point_a, point_b)`, where `point_b − point_a` is along the distance; for an overlap,
/// points within rounding of each other in both boxes. `None` where
/// [`certified_distance`] has no proof, and for an overlap proven by the separating
/// axes alone (no common point is found then).
///
/// ```
/// use isect::d3::*;
/// use isect::query::box_box::certified_closest_points;
///
/// # fn main() -> Result<(), ShapeError> {
/// let cube = Aabb::new(Vec3::splat(-1.0), Vec3::splat(1.0))?;
/// let beside = Pose::from_translation(Vec3::new(3.0, 0.5, 0.0));
/// let (d, on_a, on_b) = certified_closest_points(&Pose::IDENTITY, &cube, &beside, &cube)
///     .expect("two faces facing each other");
/// assert!((d - 1.0).abs() < 1e-6);
/// assert!((on_a.x - 1.0).abs() < 1e-6 && (on_b.x - 2.0).abs() < 1e-6);
/// # Ok(())
/// # }
/// ```
pub fn certified_closest_points<R: Real>(
    pose_a: &Pose3<R>,
    a: &Aabb<R::V3>,
    pose_b: &Pose3<R>,
    b: &Aabb<R::V3>,
) -> Option<(R, R::V3, R::V3)> {
    rotations_unit(pose_a, pose_b).then(|| proven_closest_points(pose_a, a, pose_b, b))?
}

/// [`certified_closest_points`] for poses whose rotations are known unit (the
/// dispatch's, checked where they entered).
#[inline]
pub(crate) fn proven_closest_points<R: Real>(
    pose_a: &Pose3<R>,
    a: &Aabb<R::V3>,
    pose_b: &Pose3<R>,
    b: &Aabb<R::V3>,
) -> Option<(R, R::V3, R::V3)> {
    let proof = BoxPair::new(pose_a, a, pose_b, b).proof()?;
    let (p, q) = proof.points?;
    // From A's frame centred on A to the world.
    let world = |x: [R; 3]| {
        let local = R::V3::ZERO.with(0, x[0]).with(1, x[1]).with(2, x[2]) + a.center();
        pose_a.transform_point(local)
    };
    Some((proof.distance, world(p), world(q)))
}

/// Two boxes in A's frame, centred on A's centre.
struct BoxPair<R: Real> {
    /// `r[i][k]`: A's axis `i` dotted with B's axis `k`.
    r: [[R; 3]; 3],
    /// B's centre less A's, in A's frame.
    t: [R; 3],
    /// A's centre less B's, in B's frame.
    t_b: [R; 3],
    half_a: [R; 3],
    half_b: [R; 3],
}

/// A proven distance and, unless an overlap was proven by the axes alone, a closest
/// point of each box (A's frame, centred on A).
#[derive(Copy, Clone)]
struct Proof<R: Real> {
    distance: R,
    points: Option<([R; 3], [R; 3])>,
}

/// A face axis: A's axis `i` (`Face::A(i)`) or B's axis `k` (`Face::B(k)`).
#[derive(Copy, Clone)]
enum Face {
    A(usize),
    B(usize),
}

/// Each axis with the next two in cyclic order (`e_i × e_{i1} = e_{i2}`).
const CYCLIC: [[usize; 3]; 3] = [[0, 1, 2], [1, 2, 0], [2, 0, 1]];

/// `x`'s sign as ±1, `None` for zero (a level axis: the support is not one vertex or
/// edge) or NaN.
#[inline]
fn sign<R: Real>(x: R) -> Option<R> {
    if x > R::ZERO {
        Some(R::ONE)
    } else if x < R::ZERO {
        Some(-R::ONE)
    } else {
        None
    }
}

/// The one axis of three where `inside` holds, `None` when it holds for none or
/// several.
#[inline]
fn single_inside(inside: impl Fn(usize) -> bool) -> Option<usize> {
    match (inside(0), inside(1), inside(2)) {
        (true, false, false) => Some(0),
        (false, true, false) => Some(1),
        (false, false, true) => Some(2),
        _ => None,
    }
}

/// `Σ_k x_k · y_k` over three components.
#[inline]
fn dot3<R: Real>(x: impl Fn(usize) -> R, y: impl Fn(usize) -> R) -> R {
    x(0) * y(0) + x(1) * y(1) + x(2) * y(2)
}

impl<R: Real> BoxPair<R> {
    fn new(pose_a: &Pose3<R>, a: &Aabb<R::V3>, pose_b: &Pose3<R>, b: &Aabb<R::V3>) -> Self {
        // B's axes in A's frame from the relative rotation (one quaternion product and
        // one matrix), A's axes to bring the centres' offset into A's frame.
        let axes_b = pose_a
            .rotation
            .inverse()
            .mul(pose_b.rotation)
            .matrix_columns();
        let axes_a = pose_a.rotation.matrix_columns();
        let r: [[R; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|k| axes_b[k].get(i)));
        let offset = pose_b.translation - pose_a.translation;
        let (centre_a, centre_b) = (a.center(), b.center());
        let t: [R; 3] = std::array::from_fn(|i| {
            axes_a[i].dot(offset) + dot3(|k| r[i][k], |k| centre_b.get(k)) - centre_a.get(i)
        });
        let t_b = std::array::from_fn(|k| -dot3(|i| r[i][k], |i| t[i]));
        let (ha, hb) = (a.half_extents(), b.half_extents());
        Self {
            r,
            t,
            t_b,
            half_a: std::array::from_fn(|i| ha.get(i)),
            half_b: std::array::from_fn(|k| hb.get(k)),
        }
    }

    /// The proven distance (module docs: projections, axes, nearest corner), `None` for
    /// a pair none of them proves, a NaN or infinite pose (a non-finite centres'
    /// offset; `size` skips a NaN) or a size out of `[MIN_SIZE, MAX_SIZE]`.
    fn proof(&self) -> Option<Proof<R>> {
        let size = self.size();
        let offset_finite = (self.t[0] + self.t[1] + self.t[2]).is_finite();
        if !(offset_finite && size >= R::from_f64(MIN_SIZE) && size <= R::from_f64(MAX_SIZE)) {
            return None;
        }
        let tolerance = crate::math::tolerance::eps::<R>(PROOF_ULPS) * size;
        self.projections_attain(self.onto_a(self.t), tolerance)
            .or_else(|| self.axes_attain(tolerance))
            .or_else(|| self.nearest_vertex_attains(tolerance))
    }

    /// Step 2 of the module docs: 0 when no axis of the 15 separates the boxes by
    /// more than rounding; the widest axis's gap when its support features attain it.
    fn axes_attain(&self, tolerance: R) -> Option<Proof<R>> {
        let (face, face_gap) = self.widest_face_gap();
        if face_gap < -tolerance && self.edge_axes_overlap(tolerance) {
            return Some(Proof {
                distance: R::ZERO,
                points: None,
            });
        }
        let points = match self.widest_edge_gap(face_gap) {
            Some((i, j, edge_gap)) => self.edges_attain(i, j).map(|pq| (edge_gap, pq)),
            None if face_gap > R::ZERO => self.face_attains(face).map(|pq| (face_gap, pq)),
            None => None,
        };
        points.map(|(distance, pq)| Proof {
            distance,
            points: Some(pq),
        })
    }

    /// The face axis of largest gap between the projections, and that gap.
    fn widest_face_gap(&self) -> (Face, R) {
        let mut best = (Face::A(0), R::NEG_INFINITY);
        for i in 0..3 {
            let reach_b = dot3(|k| self.r[i][k].abs(), |k| self.half_b[k]);
            let gap = self.t[i].abs() - reach_b - self.half_a[i];
            if gap > best.1 {
                best = (Face::A(i), gap);
            }
        }
        for k in 0..3 {
            let reach_a = dot3(|i| self.r[i][k].abs(), |i| self.half_a[i]);
            let gap = self.t_b[k].abs() - reach_a - self.half_b[k];
            if gap > best.1 {
                best = (Face::B(k), gap);
            }
        }
        best
    }

    /// The other box's support vertex toward `face` (B's for a face of A, A's for a
    /// face of B), in A's frame; `None` when the support is not one vertex (a level
    /// axis).
    fn support_vertex(&self, face: Face) -> Option<[R; 3]> {
        match face {
            Face::A(i) => {
                let s = sign(self.t[i])?;
                // B's coordinates −σ_k h_k, σ_k the sign of s·(e_i·f_k).
                let mut corner = [R::ZERO; 3];
                for (k, c) in corner.iter_mut().enumerate() {
                    *c = -sign(s * self.r[i][k])? * self.half_b[k];
                }
                Some(self.b_to_a(corner))
            }
            Face::B(k) => {
                let s = sign(self.t_b[k])?;
                // −Σ σ_i h_i e_i, σ_i the sign of s·(e_i·f_k).
                let mut u = [R::ZERO; 3];
                for (i, c) in u.iter_mut().enumerate() {
                    *c = -sign(s * self.r[i][k])? * self.half_a[i];
                }
                Some(u)
            }
        }
    }

    /// The support vertex toward `face` and its projection onto the face's plane, as
    /// (point of A, point of B), when the projection lies within the face: then the
    /// face's gap is the distance.
    fn face_attains(&self, face: Face) -> Option<([R; 3], [R; 3])> {
        let vertex = self.support_vertex(face)?;
        match face {
            Face::A(i) => {
                let within = (0..3).all(|row| row == i || vertex[row].abs() <= self.half_a[row]);
                let mut on_face = vertex;
                on_face[i] = sign(self.t[i])? * self.half_a[i];
                within.then_some((on_face, vertex))
            }
            Face::B(k) => {
                // The vertex in B's frame, its coordinate k moved onto the face.
                let mut y = self.a_to_b(vertex);
                let within = (0..3).all(|m| m == k || y[m].abs() <= self.half_b[m]);
                y[k] = sign(self.t_b[k])? * self.half_b[k];
                within.then_some((vertex, self.b_to_a(y)))
            }
        }
    }

    /// The edge axis `e_i × f_j` (A's axis `i`, B's axis `j`, each with the next two
    /// axes in cyclic order) of largest positive gap,
    /// when that gap exceeds `face_gap` and the axis is not within [`PARALLEL_SIN2`] of
    /// degenerate. The nine squared gaps are worked out as one array and their largest
    /// taken after: a branch per axis on signs as good as random mispredicted more
    /// than the arithmetic costs (session 28). One square root for the answer.
    fn widest_edge_gap(&self, face_gap: R) -> Option<([usize; 3], [usize; 3], R)> {
        let parallel = R::from_f64(PARALLEL_SIN2);
        let gap2: [R; 9] = std::array::from_fn(|n| {
            let (i, j) = (CYCLIC[n / 3], CYCLIC[n % 3]);
            let sin2 = self.edge_sin2(i, j);
            let excess = self.edge_axis_excess(i, j).max(R::ZERO);
            // 0 for an axis within PARALLEL_SIN2 of degenerate, or NaN.
            let kept = R::from_f64(f64::from(u8::from(sin2 >= parallel)));
            excess * excess * kept / sin2.max(parallel)
        });
        let widest = gap2.iter().fold(R::ZERO, |m, &g| m.max(g));
        let n = gap2.iter().position(|&g| g == widest)?;
        let gap = widest.sqrt();
        (widest > R::ZERO && gap > face_gap).then_some((CYCLIC[n / 3], CYCLIC[n % 3], gap))
    }

    /// True when the boxes' projections on every edge axis `e_i × f_j` overlap by more
    /// than `tolerance` (times the axis's length, at most 1); an axis of exactly
    /// parallel edges is no axis (the face axes then decide).
    fn edge_axes_overlap(&self, tolerance: R) -> bool {
        CYCLIC.iter().all(|&i| {
            CYCLIC.iter().all(|&j| {
                self.edge_sin2(i, j) == R::ZERO || self.edge_axis_excess(i, j) < -tolerance
            })
        })
    }

    /// `sin²` of the angle between A's axis `i` and B's axis `j`: `|e_i × f_j|²`, from
    /// the two components of `f_j` across `e_i` (no cancellation).
    #[inline(always)]
    fn edge_sin2(&self, [_, i1, i2]: [usize; 3], [j, ..]: [usize; 3]) -> R {
        self.r[i1][j] * self.r[i1][j] + self.r[i2][j] * self.r[i2][j]
    }

    /// `n·t` for the edge axis `n = e_i × f_j`: B's centre along it, from A's.
    #[inline(always)]
    fn edge_along(&self, [_, i1, i2]: [usize; 3], [j, ..]: [usize; 3]) -> R {
        self.t[i2] * self.r[i1][j] - self.t[i1] * self.r[i2][j]
    }

    /// The gap between the boxes' projections on the edge axis `n = e_i × f_j`, times
    /// `|n|`: `|n·t|` less both boxes' reach along `n` (A-frame components of `n`:
    /// `(−r[i2][j], r[i1][j])` at `i1, i2`; `n·f_{j1} = r[i][j2]`, `n·f_{j2} =
    /// −r[i][j1]`).
    #[inline(always)]
    fn edge_axis_excess(&self, [i, i1, i2]: [usize; 3], [j, j1, j2]: [usize; 3]) -> R {
        let r = &self.r;
        let along = self.edge_along([i, i1, i2], [j, j1, j2]);
        let reach_a = self.half_a[i1] * r[i2][j].abs() + self.half_a[i2] * r[i1][j].abs();
        let reach_b = self.half_b[j1] * r[i][j2].abs() + self.half_b[j2] * r[i][j1].abs();
        along.abs() - reach_a - reach_b
    }

    /// The closest points of A's line `a0 + u·e_i` (`a0[i] = 0`) and B's line
    /// `b0 + w·f_j` (unit directions, cosine `r[i][j]`, `sin²` of their angle `sin2`),
    /// when they lie within both edges (`|u| ≤ h_i`, `|w| ≤ h_j`).
    #[inline(always)]
    fn edge_lines_attain(
        &self,
        (mut a0, i): ([R; 3], usize),
        (b0, j): ([R; 3], usize),
        sin2: R,
    ) -> Option<([R; 3], [R; 3])> {
        let r = &self.r;
        let d: [R; 3] = std::array::from_fn(|row| a0[row] - b0[row]);
        let d_on_f = dot3(|row| d[row], |row| r[row][j]);
        let c = r[i][j];
        let u = (c * d_on_f - d[i]) / sin2;
        let w = d_on_f + u * c;
        if !(u.abs() <= self.half_a[i] && w.abs() <= self.half_b[j]) {
            return None;
        }
        a0[i] = u;
        Some((a0, std::array::from_fn(|row| b0[row] + w * r[row][j])))
    }

    /// The closest points of the lines of A's and B's support edges along the axis
    /// `e_i × f_j` (A's toward B), when they lie within both edges.
    fn edges_attain(
        &self,
        [i, i1, i2]: [usize; 3],
        [j, j1, j2]: [usize; 3],
    ) -> Option<([R; 3], [R; 3])> {
        let r = &self.r;
        let s = sign(self.edge_along([i, i1, i2], [j, j1, j2]))?;
        // A's edge: along e_i through the corner farthest along s·n.
        let (a1, a2) = (sign(-s * r[i2][j])?, sign(s * r[i1][j])?);
        let mut a0 = [R::ZERO; 3];
        a0[i1] = a1 * self.half_a[i1];
        a0[i2] = a2 * self.half_a[i2];
        // B's edge: along f_j through the corner farthest along −s·n; n·f_{j1} =
        // r[i][j2] and n·f_{j2} = −r[i][j1].
        let mut y = [R::ZERO; 3];
        y[j1] = sign(-s * r[i][j2])? * self.half_b[j1];
        y[j2] = sign(s * r[i][j1])? * self.half_b[j2];
        let sin2 = self.edge_sin2([i, i1, i2], [j, j1, j2]);
        self.edge_lines_attain((a0, i), (self.b_to_a(y), j), sin2)
    }

    /// The corner of either box nearest the other box, with that box's point nearest
    /// it, checked as [`Self::projections_attain`] checks its pairs: the distance when
    /// the nearest features include a corner (a corner over a face, by an edge, or at
    /// a corner), which the projections may approach slowly.
    fn nearest_vertex_attains(&self, tolerance: R) -> Option<Proof<R>> {
        let mut best = ([R::ZERO; 3], [R::ZERO; 3], R::INFINITY);
        for corner in 0..8 {
            let sign_of = |k: usize| {
                if corner & (1 << k) == 0 {
                    -R::ONE
                } else {
                    R::ONE
                }
            };
            // B's corner in A's frame, and A's point nearest it.
            let v = self.b_to_a(std::array::from_fn(|k| sign_of(k) * self.half_b[k]));
            let p = self.onto_a(v);
            let d2 = dot3(|i| v[i] - p[i], |i| v[i] - p[i]);
            if d2 < best.2 {
                best = (p, v, d2);
            }
            // A's corner, and B's point nearest it.
            let u: [R; 3] = std::array::from_fn(|i| sign_of(i) * self.half_a[i]);
            let (q, _) = self.onto_b(u);
            let d2 = dot3(|i| q[i] - u[i], |i| q[i] - u[i]);
            if d2 < best.2 {
                best = (u, q, d2);
            }
        }
        let (p, q, _) = best;
        self.pair_attains(&p, &q, tolerance)
    }

    /// Alternating projections between the boxes from `p` (a point of A), each pair
    /// `(p, q)` checked against the support planes normal to `q − p`: the distance when
    /// the planes prove `|q − p|` to rounding, or 0 when the points coincide to
    /// rounding (the boxes share a point).
    fn projections_attain(&self, mut p: [R; 3], tolerance: R) -> Option<Proof<R>> {
        for _ in 0..PROJECTION_STEPS {
            let (q, y) = self.onto_b(p);
            if let Some(d) = self.pair_attains(&p, &q, tolerance) {
                return Some(d);
            }
            // Two edges: their lines' closest points at once (projections between
            // crossing edges converge only geometrically).
            if let Some(d) = self
                .edge_pair(&p, &y)
                .and_then(|(pe, qe)| self.pair_attains(&pe, &qe, tolerance))
            {
                return Some(d);
            }
            p = self.onto_a(q);
        }
        None
    }

    /// The pair as a proof of the distance `|q − p|` when the support planes normal to
    /// `q − p` prove it to `tolerance`, of 0 when the points are within `tolerance`
    /// (the boxes share a point to rounding); `None` otherwise. `p` is a point of A,
    /// `q` of B. Inlined, with the edge checks, into the projections' loop: a tenth of
    /// the bench's box–box time (session 28).
    #[inline(always)]
    fn pair_attains(&self, p: &[R; 3], q: &[R; 3], tolerance: R) -> Option<Proof<R>> {
        let n: [R; 3] = std::array::from_fn(|i| q[i] - p[i]);
        let n_len2 = dot3(|i| n[i], |i| n[i]);
        let upper = n_len2.sqrt();
        let distance = if upper <= tolerance {
            R::ZERO
        } else if n_len2 - self.plane_gap(&n) <= tolerance * upper {
            // |n| − gap / |n| ≤ tolerance, without the division.
            upper
        } else {
            return None;
        };
        Some(Proof {
            distance,
            points: Some((*p, *q)),
        })
    }

    /// When `p` lies on an edge of A (one coordinate strictly inside, axis `i`) and the
    /// point of B with B-frame coordinates `y` on an edge of B (axis `j`), not within
    /// [`PARALLEL_SIN2`] of parallel: the closest points of the two edges' lines, when
    /// they lie within both edges.
    #[inline(always)]
    fn edge_pair(&self, p: &[R; 3], y: &[R; 3]) -> Option<([R; 3], [R; 3])> {
        let i = single_inside(|k| p[k].abs() < self.half_a[k])?;
        let j = single_inside(|k| y[k].abs() < self.half_b[k])?;
        let sin2 = self.edge_sin2(CYCLIC[i], CYCLIC[j]);
        if !(sin2 >= R::from_f64(PARALLEL_SIN2)) {
            return None;
        }
        let mut a0 = *p;
        a0[i] = R::ZERO;
        let mut y0 = *y;
        y0[j] = R::ZERO;
        self.edge_lines_attain((a0, i), (self.b_to_a(y0), j), sin2)
    }

    /// The point of A nearest `x` (A's frame, centred).
    fn onto_a(&self, x: [R; 3]) -> [R; 3] {
        std::array::from_fn(|i| x[i].max(-self.half_a[i]).min(self.half_a[i]))
    }

    /// The point of B nearest `x` (A's frame, centred on A), and its coordinates in B's
    /// frame (centred on B).
    fn onto_b(&self, x: [R; 3]) -> ([R; 3], [R; 3]) {
        let in_b = self.a_to_b(x);
        let y = std::array::from_fn(|k| in_b[k].max(-self.half_b[k]).min(self.half_b[k]));
        (self.b_to_a(y), y)
    }

    /// `x` (A's frame, centred on A) in B's frame, centred on B.
    #[inline(always)]
    fn a_to_b(&self, x: [R; 3]) -> [R; 3] {
        let d: [R; 3] = std::array::from_fn(|i| x[i] - self.t[i]);
        std::array::from_fn(|k| dot3(|i| self.r[i][k], |i| d[i]))
    }

    /// `y` (B's frame, centred on B) in A's frame, centred on A.
    #[inline(always)]
    fn b_to_a(&self, y: [R; 3]) -> [R; 3] {
        std::array::from_fn(|i| self.t[i] + dot3(|k| self.r[i][k], |k| y[k]))
    }

    /// `min over B of n·x − max over A of n·x`: the gap between the boxes' support
    /// planes normal to `n`, times `|n|`.
    fn plane_gap(&self, n: &[R; 3]) -> R {
        let reach_a = dot3(|i| n[i].abs(), |i| self.half_a[i]);
        let reach_b = dot3(
            |k| dot3(|i| n[i], |i| self.r[i][k]).abs(),
            |k| self.half_b[k],
        );
        dot3(|i| n[i], |i| self.t[i]) - reach_b - reach_a
    }

    /// The largest coordinate: the centres' offset and the half extents.
    fn size(&self) -> R {
        (0..3).fold(R::ZERO, |m, i| {
            m.max(self.t[i].abs())
                .max(self.half_a[i])
                .max(self.half_b[i])
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DQuat, DVec3};

    /// The widest edge axis by a plain search, one axis after the other (the first of
    /// equal gaps, as the array search keeps).
    fn plain_widest(pair: &BoxPair<f64>, face_gap: f64) -> Option<([usize; 3], [usize; 3], f64)> {
        let mut best: Option<([usize; 3], [usize; 3], f64)> = None;
        for i in CYCLIC {
            for j in CYCLIC {
                let sin2 = pair.edge_sin2(i, j);
                let excess = pair.edge_axis_excess(i, j);
                if sin2 >= PARALLEL_SIN2 && excess > 0.0 {
                    let gap2 = excess * excess / sin2;
                    if best.is_none_or(|(_, _, g)| gap2 > g) {
                        best = Some((i, j, gap2));
                    }
                }
            }
        }
        best.map(|(i, j, g)| (i, j, g.sqrt()))
            .filter(|&(_, _, gap)| gap > face_gap)
    }

    /// The branch-free search finds the plain search's axis and gap, bit for bit: random
    /// poses, turns about one axis (three edge pairs exactly parallel, others level),
    /// axis-aligned boxes (every edge pair parallel or square), near-parallel edges on
    /// both sides of `PARALLEL_SIN2`, and NaN rotations (no axis).
    #[test]
    fn widest_edge_gap_matches_the_plain_search() {
        let a = Aabb::new(DVec3::new(-0.5, -0.3, -0.4), DVec3::new(0.5, 0.3, 0.4)).unwrap();
        let b = Aabb::new(DVec3::new(-0.4, -0.25, -0.6), DVec3::new(0.4, 0.25, 0.6)).unwrap();
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let limit = PARALLEL_SIN2.sqrt().asin();
        let mut rotations = vec![DQuat::IDENTITY, DQuat::from_xyzw(f64::NAN, 0.0, 0.0, 1.0)];
        for angle in [
            0.3,
            1.0,
            std::f64::consts::FRAC_PI_2,
            limit,
            limit * (1.0 - 1e-12),
            limit * (1.0 + 1e-12),
        ] {
            rotations.extend([
                DQuat::from_rotation_x(angle),
                DQuat::from_rotation_y(angle),
                DQuat::from_rotation_z(angle),
            ]);
        }
        let (mut compared, mut found) = (0, 0);
        for k in 0..4000 {
            let random = DQuat::from_xyzw(next(), next(), next(), next()).normalize();
            let rotation = if k % 2 == 0 {
                random
            } else {
                rotations[k / 2 % rotations.len()]
            };
            let offset = DVec3::new(next(), next(), next()) * 2.0;
            let pose_b = crate::d3_f64::Pose::new(offset, rotation);
            let pair = BoxPair::new(&crate::d3_f64::Pose::IDENTITY, &a, &pose_b, &b);
            for face_gap in [f64::NEG_INFINITY, 0.0, pair.widest_face_gap().1] {
                let ours = pair.widest_edge_gap(face_gap);
                let plain = plain_widest(&pair, face_gap);
                assert_eq!(
                    ours.map(|(i, j, g)| (i, j, g.to_bits())),
                    plain.map(|(i, j, g)| (i, j, g.to_bits())),
                    "rotation {rotation:?} offset {offset:?} face gap {face_gap}"
                );
                compared += 1;
                found += usize::from(ours.is_some());
            }
        }
        assert!(
            found > compared / 4 && found < compared,
            "{found} of {compared}"
        );
    }
}
