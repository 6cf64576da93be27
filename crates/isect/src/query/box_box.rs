//! Box–box distance proven by a pair of points (3D), without GJK for most pairs.
//!
//! A point `p` of A and a point `q` of B give an upper bound `|q − p|` on the
//! distance, and the support planes of the boxes normal to `n = q − p` a lower bound:
//! `(min over B of n·x − max over A of n·x) / |n|` (every separating plane does; a
//! box's extreme along `n` is its centre's plus `Σ h_k |n·axis_k|`). When the bounds
//! meet to rounding, `|q − p|` is the distance (the duality of the minimum-distance
//! problem; Gilbert, Johnson and Keerthi 1988 stop on the same gap). The pair comes
//! from alternating projections between the boxes (each a clamp in the box's frame),
//! started at A's point nearest B's centre: they reach a vertex over a face, a vertex
//! by an edge or two vertices in a step or two, and a point the boxes share (distance
//! 0) when they overlap.
//!
//! Two crossing edges are reached by projections only slowly, so then the separating
//! axes decide (Gottschalk, Lin and Manocha 1996, "OBBTree"; Ericson, *Real-Time
//! Collision Detection*, 4.4.1): each of the 15 gives a lower bound, the gap between
//! the boxes' projections, and the widest attains the distance when the closest
//! points of the two support edges' lines lie within both edges (edge axis), or the
//! support vertex projects onto the face (face axis). Anything else (edges within
//! [`PARALLEL_SIN2`] of parallel, a support that is not a vertex or an edge because an
//! axis is exactly level) answers `None`, and the caller runs GJK.
//!
//! Tolerances: two points prove the distance when the bounds are within
//! [`PROOF_ULPS`] `ε` of the largest coordinate (the centres' offset, the half
//! extents), and a point pair within that distance proves an overlap; the axis gaps
//! carry a few `ε` of it. A feature check that passes by rounding, where the exact
//! closest point lies just past a face's border or an edge's end, moves the distance
//! by at most that rounding. Boxes whose largest coordinate lies outside
//! `[MIN_SIZE, MAX_SIZE]` go to GJK.

// `!(x > y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
use crate::math::{Isometry, Pose3, Real, Vector};
use crate::shape::Aabb;

/// Alternating projections tried when no axis proves the distance.
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
/// answer. The poses are finite with unit rotations.
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
    let pair = BoxPair::new(pose_a, a, pose_b, b);
    let size = pair.size();
    if !(size >= R::from_f64(MIN_SIZE) && size <= R::from_f64(MAX_SIZE)) {
        return None;
    }
    if let Some(d) = pair.projections_attain(pair.onto_a(pair.t), size) {
        return Some(d);
    }
    let (face, face_gap) = pair.widest_face_gap();
    if let Some((i, j, edge_gap)) = pair.widest_edge_gap(face_gap) {
        return pair.edges_attain(i, j).then_some(edge_gap);
    }
    (face_gap > R::ZERO && pair.vertex_over_face(face)).then_some(face_gap)
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

/// `Σ_k x_k · y_k` over three components.
#[inline]
fn dot3<R: Real>(x: impl Fn(usize) -> R, y: impl Fn(usize) -> R) -> R {
    x(0) * y(0) + x(1) * y(1) + x(2) * y(2)
}

impl<R: Real> BoxPair<R> {
    fn new(pose_a: &Pose3<R>, a: &Aabb<R::V3>, pose_b: &Pose3<R>, b: &Aabb<R::V3>) -> Self {
        let pose_ab = pose_a.inv_mul(pose_b);
        let m = pose_ab.matrix();
        let centre_b = pose_ab.transform_point(b.center()) - a.center();
        let r: [[R; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|k| m[k].get(i)));
        let t: [R; 3] = std::array::from_fn(|i| centre_b.get(i));
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

    /// True when the other box's support vertex toward `face` projects onto the face
    /// (then the face's gap is the distance); false when the support is not one
    /// vertex (a level axis).
    fn vertex_over_face(&self, face: Face) -> bool {
        match face {
            Face::A(i) => {
                let Some(s) = sign(self.t[i]) else {
                    return false;
                };
                // B's vertex: t − Σ σ_k h_k f_k, σ_k the sign of s·(e_i·f_k).
                let mut lever = [R::ZERO; 3];
                for (k, l) in lever.iter_mut().enumerate() {
                    let Some(sigma) = sign(s * self.r[i][k]) else {
                        return false;
                    };
                    *l = sigma * self.half_b[k];
                }
                (0..3).all(|row| {
                    let v = self.t[row] - dot3(|k| lever[k], |k| self.r[row][k]);
                    row == i || v.abs() <= self.half_a[row]
                })
            }
            Face::B(k) => {
                let Some(s) = sign(self.t_b[k]) else {
                    return false;
                };
                // A's vertex: −Σ σ_i h_i e_i, σ_i the sign of s·(e_i·f_k), seen from B.
                let mut u = [R::ZERO; 3];
                for (i, c) in u.iter_mut().enumerate() {
                    let Some(sigma) = sign(s * self.r[i][k]) else {
                        return false;
                    };
                    *c = -sigma * self.half_a[i];
                }
                (0..3).all(|m| {
                    let v = dot3(|i| self.r[i][m], |i| u[i] - self.t[i]);
                    m == k || v.abs() <= self.half_b[m]
                })
            }
        }
    }

    /// The edge axis `e_i × f_j` (A's axis `i`, B's axis `j`, each with the next two
    /// axes in cyclic order) of largest positive gap,
    /// when that gap exceeds `face_gap` and the axis is not within [`PARALLEL_SIN2`] of
    /// degenerate. Gaps are compared squared; one square root for the answer.
    fn widest_edge_gap(&self, face_gap: R) -> Option<([usize; 3], [usize; 3], R)> {
        let mut best: Option<([usize; 3], [usize; 3], R)> = None;
        for [i, i1, i2] in CYCLIC {
            for [j, j1, j2] in CYCLIC {
                // n = e_i × f_j has A-frame components (i1, i2) = (−r[i2][j], r[i1][j]).
                let sin2 = self.r[i1][j] * self.r[i1][j] + self.r[i2][j] * self.r[i2][j];
                if !(sin2 >= R::from_f64(PARALLEL_SIN2)) {
                    continue;
                }
                let along = self.t[i2] * self.r[i1][j] - self.t[i1] * self.r[i2][j];
                let reach_a =
                    self.half_a[i1] * self.r[i2][j].abs() + self.half_a[i2] * self.r[i1][j].abs();
                let reach_b =
                    self.half_b[j1] * self.r[i][j2].abs() + self.half_b[j2] * self.r[i][j1].abs();
                let excess = along.abs() - reach_a - reach_b;
                if excess > R::ZERO {
                    let gap2 = excess * excess / sin2;
                    if best.is_none_or(|(_, _, g)| gap2 > g) {
                        best = Some(([i, i1, i2], [j, j1, j2], gap2));
                    }
                }
            }
        }
        let (i, j, gap2) = best?;
        let gap = gap2.sqrt();
        (gap > face_gap).then_some((i, j, gap))
    }

    /// True when the closest points of the lines of A's and B's support edges along
    /// the axis `e_i × f_j` (A's toward B) lie within both edges.
    fn edges_attain(&self, [i, i1, i2]: [usize; 3], [j, j1, j2]: [usize; 3]) -> bool {
        let r = &self.r;
        let Some(s) = sign(self.t[i2] * r[i1][j] - self.t[i1] * r[i2][j]) else {
            return false;
        };
        // A's edge: along e_i through the corner farthest along s·n.
        let (Some(a1), Some(a2)) = (sign(-s * r[i2][j]), sign(s * r[i1][j])) else {
            return false;
        };
        let mut a0 = [R::ZERO; 3];
        a0[i1] = a1 * self.half_a[i1];
        a0[i2] = a2 * self.half_a[i2];
        // B's edge: along f_j through the corner farthest along −s·n; n·f_{j1} =
        // r[i][j2] and n·f_{j2} = −r[i][j1].
        let (Some(b1), Some(b2)) = (sign(-s * r[i][j2]), sign(s * r[i][j1])) else {
            return false;
        };
        let b0: [R; 3] = std::array::from_fn(|row| {
            self.t[row] + b1 * self.half_b[j1] * r[row][j1] + b2 * self.half_b[j2] * r[row][j2]
        });
        // Closest points of a0 + u·e_i and b0 + w·f_j (unit directions, cosine r[i][j]).
        let d: [R; 3] = std::array::from_fn(|row| a0[row] - b0[row]);
        let d_on_f = dot3(|row| d[row], |row| r[row][j]);
        let c = r[i][j];
        let sin2 = r[i1][j] * r[i1][j] + r[i2][j] * r[i2][j];
        let u = (c * d_on_f - d[i]) / sin2;
        let w = d_on_f + u * c;
        u.abs() <= self.half_a[i] && w.abs() <= self.half_b[j]
    }

    /// Alternating projections between the boxes from `p` (a point of A), each pair
    /// `(p, q)` checked against the support planes normal to `q − p`: the distance when
    /// the planes prove `|q − p|` to rounding, or 0 when the points coincide to
    /// rounding (the boxes share a point).
    fn projections_attain(&self, mut p: [R; 3], size: R) -> Option<R> {
        let tolerance = crate::math::tolerance::eps::<R>(PROOF_ULPS) * size;
        for _ in 0..PROJECTION_STEPS {
            let q = self.onto_b(p);
            let n: [R; 3] = std::array::from_fn(|i| q[i] - p[i]);
            let upper = dot3(|i| n[i], |i| n[i]).sqrt();
            if upper <= tolerance {
                return Some(R::ZERO);
            }
            if upper - self.plane_gap(&n) / upper <= tolerance {
                return Some(upper);
            }
            p = self.onto_a(q);
        }
        None
    }

    /// The point of A nearest `x` (A's frame, centred).
    fn onto_a(&self, x: [R; 3]) -> [R; 3] {
        std::array::from_fn(|i| x[i].max(-self.half_a[i]).min(self.half_a[i]))
    }

    /// The point of B nearest `x` (A's frame, centred on A).
    fn onto_b(&self, x: [R; 3]) -> [R; 3] {
        let y: [R; 3] = std::array::from_fn(|k| {
            let along = dot3(|i| self.r[i][k], |i| x[i] - self.t[i]);
            along.max(-self.half_b[k]).min(self.half_b[k])
        });
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
