//! The 3D parts of GJK: the tetrahedron case of the simplex solver (Ericson 5.1.6)
//! and pose interpolation (quaternion slerp) for time of impact. See [`super::gjk`].

// `!(x > y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
use super::gjk::{
    reduce_up_to_triangle, solver_points, triangle_weights, Simplex, SIMPLEX_DEGENERATE_ULPS,
};
use crate::math::tolerance::eps;
use crate::math::{Pose3, Real, Vector, Vector3};

/// Reduces a 3D simplex to the part nearest the origin; true when a tetrahedron
/// encloses the origin (then the weights are the origin's barycentric coordinates).
#[inline]
pub(crate) fn reduce_simplex<R: Real>(simplex: &mut Simplex<R::V3>) -> bool {
    if simplex.len < 4 {
        reduce_up_to_triangle(simplex);
        return false;
    }
    reduce_tetrahedron::<R>(simplex)
}

/// Each face of the tetrahedron `0 1 2 3` and the vertex opposite it.
const FACES: [[usize; 4]; 4] = [[0, 1, 2, 3], [0, 3, 1, 2], [0, 2, 3, 1], [1, 3, 2, 0]];

/// Ericson 5.1.6: the origin is outside a face when it lies on the other side of
/// the face's plane from the opposite vertex; the closest point is on the nearest
/// such face. A flat tetrahedron tests every face and never encloses the origin.
fn reduce_tetrahedron<R: Real>(simplex: &mut Simplex<R::V3>) -> bool {
    let w: [R::V3; 4] = solver_points(&simplex.points);
    let size2 = (1..4).fold(R::ZERO, |m, i| m.max(w[i].distance_squared(w[0])));
    let volume = (w[1] - w[0]).dot((w[2] - w[0]).cross(w[3] - w[0]));
    let flat = !(volume.abs() > eps::<R>(SIMPLEX_DEGENERATE_ULPS) * size2 * size2.sqrt());
    let mut best: Option<(R, [usize; 3], [R; 3])> = None;
    let mut barycentric = [R::ZERO; 4];
    for [i, j, k, opposite] in FACES {
        let n = (w[j] - w[i]).cross(w[k] - w[i]);
        let origin_side = -n.dot(w[i]);
        let opposite_side = n.dot(w[opposite] - w[i]);
        if !flat && origin_side * opposite_side >= R::ZERO {
            barycentric[opposite] = origin_side / opposite_side;
            continue;
        }
        let (weights, _) = triangle_weights(w[i], w[j], w[k]);
        let closest = w[i] * weights[0] + w[j] * weights[1] + w[k] * weights[2];
        let d2 = closest.length_squared();
        if best.is_none_or(|(b, _, _)| d2 < b) {
            best = Some((d2, [i, j, k], weights));
        }
    }
    match best {
        None => {
            simplex.weights = barycentric;
            true
        }
        Some((_, face, weights)) => {
            let points = face.map(|i| simplex.points[i]);
            simplex.points[..3].copy_from_slice(&points);
            simplex.weights[..3].copy_from_slice(&weights);
            simplex.len = 3;
            simplex.compact();
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
