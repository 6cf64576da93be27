//! The 3D parts of GJK: the simplex solver (segment: Ericson 5.1.2; triangle: the
//! signed-area solver of Montanari et al. 2017, see [`triangle_weights`];
//! tetrahedron: Ericson 5.1.6) and pose interpolation (quaternion slerp) for time of impact. See [`super::gjk`].

// `!(x > y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
use super::gjk::{
    best_edge_weights, segment_weights, solver_points, solver_scale, Simplex,
    SIMPLEX_DEGENERATE_ULPS,
};
use crate::math::tolerance::eps;
use crate::math::{Pose3, Real, Vector, Vector3};

/// Reduces a 3D simplex to the part nearest the origin; true when a tetrahedron
/// encloses the origin (then the weights are the origin's barycentric coordinates).
#[inline]
pub(crate) fn reduce_simplex<R: Real>(simplex: &mut Simplex<R::V3>) -> bool {
    match simplex.len {
        2 => {
            let [s, t] = segment_weights(simplex.points[0].w, simplex.points[1].w);
            simplex.weights[..2].copy_from_slice(&[s, t]);
        }
        3 => {
            let w = [0, 1, 2].map(|i| simplex.points[i].w);
            let nearest = nearest_on_triangle::<R>(w);
            simplex.weights[..3].copy_from_slice(&nearest.weights);
            simplex.compact();
            nearest.record(simplex);
            return false;
        }
        4 => return reduce_tetrahedron::<R>(simplex),
        _ => {
            simplex.weights[0] = R::ONE;
            simplex.len = 1;
        }
    }
    simplex.compact();
    simplex.set_weighted_nearest();
    false
}

/// The point of a triangle nearest the origin: its barycentric weights, and the
/// point itself when it is the plane projection of the interior case.
struct TriangleNearest<R: Real> {
    weights: [R; 3],
    plane_point: Option<R::V3>,
}

impl<R: Real> TriangleNearest<R> {
    /// Stores the nearest point in `simplex`, whose weights are already set.
    fn record(&self, simplex: &mut Simplex<R::V3>) {
        match self.plane_point {
            Some(p) => simplex.set_nearest(p),
            None => simplex.set_weighted_nearest(),
        }
    }

    /// Squared distance of the nearest point of the triangle `w` to the origin.
    fn distance_squared(&self, w: [R::V3; 3]) -> R {
        let p = self.plane_point.unwrap_or_else(|| {
            w[0] * self.weights[0] + w[1] * self.weights[1] + w[2] * self.weights[2]
        });
        p.length_squared()
    }
}

/// [`triangle_weights`] on the triangle `w` rescaled for the solver
/// ([`solver_scale`]), with the plane point scaled back (by a power of two: exact).
fn nearest_on_triangle<R: Real>(w: [R::V3; 3]) -> TriangleNearest<R> {
    let factor = solver_scale(&w);
    let [a, b, c] = w.map(|p| p * factor);
    let (weights, plane_point) = triangle_weights::<R>(a, b, c);
    TriangleNearest {
        weights,
        plane_point: plane_point.map(|p| p * factor.recip()),
    }
}

/// Barycentric weights of the point of the 3D triangle `a b c` nearest the origin,
/// accurate on slivers (the Minkowski faces of a long thin box or triangle), and
/// that point when it is interior.
///
/// Ericson 5.1.5 finds the interior weights as differences of products of dot
/// products (`d1·d4 − d3·d2`, ...), which on a sliver cancel to nothing: a
/// triangle 530 long and 30 wide gave, in `f32`, a point 1.77 from the origin where
/// its plane lies 0.027 away (issue 18). Here, as in the signed-volume solver of
/// Montanari, Petrinic and Barbieri (2017, "Improving the GJK algorithm for faster
/// and more reliable distance queries between convex objects"):
///
/// 1. the normal `n` is the cross product of the two shortest edges (its rounding
///    error is `ε` times their lengths, not the two longest);
/// 2. the origin projects onto the plane at `p = n (n·a) / |n|²`, with `a` the vertex
///    nearest the origin; this `p` is the answer of the interior case: its
///    direction is `n`'s, which a weighted sum of the vertices would turn by their
///    rounding (`ε |w|`) over the distance;
/// 3. each weight is the signed area `n·((w_j − p) × e_i) / |n|²`, `e_i` the edge
///    opposite vertex `i` and `w_j` one of its ends, refined once with the residual
///    `Σ λ_i (w_i − p)` (iterative refinement: the weights, which give the witness
///    points, then reproduce `p` to about `ε` of the triangle's size);
/// 4. when a weight is negative the nearest point is on the boundary: the best of
///    the edges opposite a negative weight (Ericson 5.1.2).
///
/// A triangle whose `|n|` is at most `SIMPLEX_DEGENERATE_ULPS · ε` times the product
/// of its two short edges' lengths is flat and answers its best edge: it is then at
/// most that many `ε` of its shortest edge wide, so the edge is as near as the
/// interior. (Near that limit the normal is poorly known only about the long axis,
/// and that rotation moves the plane's offset at the vertex by at most the width.)
pub(crate) fn triangle_weights<R: Real>(a: R::V3, b: R::V3, c: R::V3) -> ([R; 3], Option<R::V3>) {
    let w = [a, b, c];
    // e[i] is the edge opposite vertex i: e[0] + e[1] + e[2] = 0, so every
    // e[i] × e[i + 1] is the normal (b − a) × (c − a).
    let e = [c - b, a - c, b - a];
    let len2 = e.map(|x| x.length_squared());
    let apex = if len2[0] >= len2[1] && len2[0] >= len2[2] {
        0
    } else if len2[1] >= len2[2] {
        1
    } else {
        2
    };
    let (j, k) = ((apex + 1) % 3, (apex + 2) % 3);
    let n = e[j].cross(e[k]);
    let nn = n.length_squared();
    let flat = eps::<R>(SIMPLEX_DEGENERATE_ULPS);
    if !(nn > flat * flat * len2[j] * len2[k]) {
        return (best_edge_weights(a, b, c), None);
    }
    let p = n * (n.dot(nearest_vertex(w)) / nn);
    let l = refined_weights::<R>(w, e, n, p);
    if l.iter().all(|&x| x >= R::ZERO) {
        return (l, Some(p));
    }
    (best_negative_edge::<R>(w, l), None)
}

/// The vertex nearest the origin: `n·w` is the same for the three, and rounds least
/// for the shortest `w`.
fn nearest_vertex<V: Vector>(w: [V; 3]) -> V {
    let d = w.map(|x| x.length_squared());
    if d[0] <= d[1] && d[0] <= d[2] {
        w[0]
    } else if d[1] <= d[2] {
        w[1]
    } else {
        w[2]
    }
}

/// The barycentric weights of the plane point `p` in the triangle `w` (edges `e`,
/// normal `n`), by signed areas, refined once by the residual of the weighted sum.
fn refined_weights<R: Real>(w: [R::V3; 3], e: [R::V3; 3], n: R::V3, p: R::V3) -> [R; 3] {
    let area = |i: usize| n.dot((w[(i + 1) % 3] - p).cross(e[i]));
    let raw = [area(0), area(1), area(2)];
    let sum = raw[0] + raw[1] + raw[2];
    if !(sum > R::ZERO) {
        return raw;
    }
    let l = raw.map(|x| x / sum);
    // The weights reproduce p + r; the weights of p are λ(p + r) − ∇λ · r, with
    // ∇λ_i · r = −n·(r × e_i) / |n|² (the areas are affine in the point).
    let r = (w[0] - p) * l[0] + (w[1] - p) * l[1] + (w[2] - p) * l[2];
    let nn = n.length_squared();
    [0, 1, 2].map(|i| l[i] + n.dot(r.cross(e[i])) / nn)
}

/// The nearest to the origin of the edges opposite a negative weight `l[i]`, as
/// triangle weights.
fn best_negative_edge<R: Real>(w: [R::V3; 3], l: [R; 3]) -> [R; 3] {
    let mut best = ([R::ONE, R::ZERO, R::ZERO], R::INFINITY);
    for (i, &weight) in l.iter().enumerate() {
        // `>=` would let a NaN weight through: only a proven negative weight counts.
        if weight.is_nan() || weight >= R::ZERO {
            continue;
        }
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        let [s, t] = segment_weights(w[j], w[k]);
        let d = (w[j] * s + w[k] * t).length_squared();
        if d < best.1 {
            let mut out = [R::ZERO; 3];
            out[j] = s;
            out[k] = t;
            best = (out, d);
        }
    }
    best.0
}

/// Each face of the tetrahedron `0 1 2 3` and the vertex opposite it.
const FACES: [[usize; 4]; 4] = [[0, 1, 2, 3], [0, 3, 1, 2], [0, 2, 3, 1], [1, 3, 2, 0]];

/// Ericson 5.1.6: the origin is outside a face when it lies on the other side of
/// the face's plane from the opposite vertex; the closest point is on the nearest
/// such face ([`nearest_on_triangle`]), and it is the first such face the origin
/// projects inside, when there is one. A flat tetrahedron tests every face and never
/// encloses the origin.
fn reduce_tetrahedron<R: Real>(simplex: &mut Simplex<R::V3>) -> bool {
    let w: [R::V3; 4] = solver_points(&simplex.points);
    let size2 = (1..4).fold(R::ZERO, |m, i| m.max(w[i].distance_squared(w[0])));
    let volume = (w[1] - w[0]).dot((w[2] - w[0]).cross(w[3] - w[0]));
    let flat = !(volume.abs() > eps::<R>(SIMPLEX_DEGENERATE_ULPS) * size2 * size2.sqrt());
    let mut best: Option<(R, [usize; 3], TriangleNearest<R>)> = None;
    let mut barycentric = [R::ZERO; 4];
    for [i, j, k, opposite] in FACES {
        let n = (w[j] - w[i]).cross(w[k] - w[i]);
        let origin_side = -n.dot(w[i]);
        let opposite_side = n.dot(w[opposite] - w[i]);
        if !flat && origin_side * opposite_side >= R::ZERO {
            barycentric[opposite] = origin_side / opposite_side;
            continue;
        }
        let face = [i, j, k].map(|v| simplex.points[v].w);
        let nearest = nearest_on_triangle::<R>(face);
        // The origin is beyond this face's plane and projects inside the face: the
        // projection is the tetrahedron's nearest point (every other point lies
        // behind that plane), so the remaining faces need no test.
        let projects_inside = !flat && nearest.plane_point.is_some();
        let d2 = nearest.distance_squared(face);
        if projects_inside || best.as_ref().is_none_or(|(b, _, _)| d2 < *b) {
            best = Some((d2, [i, j, k], nearest));
        }
        if projects_inside {
            break;
        }
    }
    match best {
        None => {
            simplex.weights = barycentric;
            simplex.set_weighted_nearest();
            true
        }
        Some((_, face, nearest)) => {
            let points = face.map(|i| simplex.points[i]);
            simplex.points[..3].copy_from_slice(&points);
            simplex.weights[..3].copy_from_slice(&nearest.weights);
            simplex.len = 3;
            simplex.compact();
            nearest.record(simplex);
            false
        }
    }
}

/// Quaternion operations that `Rotation3` does not expose.
pub(crate) trait Slerp<R: Real>: Copy {
    /// Spherical interpolation along the shorter arc.
    fn slerp_to(self, end: Self, t: R) -> Self;
    /// Angle in `[0, π]` of the shortest rotation from `self` to `other`.
    fn angle_to(self, other: Self) -> R;
}

macro_rules! impl_slerp {
    ($q:ty, $r:ty) => {
        impl Slerp<$r> for $q {
            #[inline]
            fn slerp_to(self, end: Self, t: $r) -> Self {
                self.slerp(end, t)
            }
            #[inline]
            fn angle_to(self, other: Self) -> $r {
                self.angle_between(other)
            }
        }
    };
}

impl_slerp!(glam::Quat, f32);
impl_slerp!(glam::DQuat, f64);

/// Linear translation, quaternion slerp along the shorter arc.
#[inline]
pub(crate) fn interpolate_pose<R: Real>(start: &Pose3<R>, end: &Pose3<R>, t: R) -> Pose3<R>
where
    R::Quat: Slerp<R>,
{
    Pose3 {
        rotation: start.rotation.slerp_to(end.rotation, t),
        translation: start.translation + (end.translation - start.translation) * t,
    }
}

/// The angle of the shortest rotation from `start` to `end`.
#[inline]
pub(crate) fn rotation_angle<R: Real>(start: &Pose3<R>, end: &Pose3<R>) -> R
where
    R::Quat: Slerp<R>,
{
    start.rotation.angle_to(end.rotation)
}

/// The unit normal of a triangle simplex (cross product of two edges).
#[inline]
pub(crate) fn facet_normal<R: Real>(simplex: &Simplex<R::V3>) -> Option<R::V3> {
    if simplex.len != 3 {
        return None;
    }
    let [a, b, c] = [0, 1, 2].map(|i| simplex.points[i].w);
    (b - a).cross(c - a).try_normalize()
}

/// The closest point of a reduced 3D simplex by projection: off a segment's unit
/// direction (twice, Gram–Schmidt style), or on a triangle's unit normal (see `GjkVector::precise_closest`).
#[inline]
pub(crate) fn precise_closest<R: Real>(simplex: &Simplex<R::V3>) -> R::V3 {
    let w0 = simplex.points[0].w;
    let projected = match simplex.len {
        2 => (simplex.points[1].w - w0).try_normalize().map(|e| {
            // Twice: the first pass leaves `ε |w₀|` along `e`, which tilts a short
            // `v` off the segment's normal plane; the second removes it.
            let v = w0 - e * e.dot(w0);
            v - e * e.dot(v)
        }),
        3 => facet_normal::<R>(simplex).map(|n| n * n.dot(w0)),
        _ => None,
    };
    projected.unwrap_or_else(|| simplex.closest())
}
