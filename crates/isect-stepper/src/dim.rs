//! The two dimensions the stepper runs in, behind one trait, so that the bodies and
//! the solver are written once: [`D3`] (angular quantities are vectors, inertia a
//! 3×3 matrix) and [`D2`] (angular quantities and inertia are scalars).

use crate::mass::{self, MassProperties};
use glam::{DMat3, DQuat, DVec2, DVec3};
use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose2, Pose3, Rot2};
use isect::query::dispatch::DispatchShape;
use isect::shape::{shape_2d, shape_3d};
use std::fmt::Debug;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A dimension: its vectors, angular quantities, poses, inertia and shapes, and the
/// few operations the solver needs on them. All in `f64`.
pub trait Dim: Copy + Debug + Send + Sync + 'static {
    /// Positions, linear velocities and impulses.
    type V: GjkVector<Scalar = f64, Pose = Self::Pose>;
    /// Angular velocities and angular impulses: a vector in 3D, a scalar in 2D.
    type Ang: Copy
        + Debug
        + Default
        + PartialEq
        + Add<Output = Self::Ang>
        + Sub<Output = Self::Ang>
        + Neg<Output = Self::Ang>
        + Mul<f64, Output = Self::Ang>
        + AddAssign
        + SubAssign;
    /// A rigid transform.
    type Pose: Isometry<Self::V>;
    /// An inertia tensor (or its inverse): a 3×3 matrix in 3D, a scalar in 2D.
    type Inertia: Copy + Debug;
    /// The shape enum of the dimension (convex kinds and composites).
    type Shape: DispatchShape<Self::V> + Debug;
    /// Friction directions a contact point has: 2 in 3D, 1 in 2D.
    const TANGENTS: usize;

    /// The world's up direction, `+y` (gravity points the other way).
    fn up() -> Self::V;
    /// The angular impulse of the linear impulse `v` applied at offset `r`: `r × v`.
    fn cross(r: Self::V, v: Self::V) -> Self::Ang;
    /// The velocity at offset `r` of a body turning at `w`: `w × r`.
    fn ang_cross(w: Self::Ang, r: Self::V) -> Self::V;
    /// Dot product of two angular quantities.
    fn ang_dot(a: Self::Ang, b: Self::Ang) -> f64;
    /// `inertia · a`.
    fn apply(inertia: Self::Inertia, a: Self::Ang) -> Self::Ang;
    /// The zero inertia (the inverse inertia of a static body).
    fn zero_inertia() -> Self::Inertia;
    /// The inverse of an inertia tensor (zero for a singular one).
    fn invert(inertia: Self::Inertia) -> Self::Inertia;
    /// A body-frame tensor seen in the world: `R · I · Rᵀ` for `pose`'s rotation `R`.
    fn world_inertia(local: Self::Inertia, pose: &Self::Pose) -> Self::Inertia;
    /// Unit directions orthogonal to the unit `n` and to each other; the first
    /// [`TANGENTS`](Self::TANGENTS) of them are used.
    fn tangents(n: Self::V) -> [Self::V; 2];
    /// The pose after `dt` of a body whose centre of mass (at `local_center` in its
    /// frame) moves at `v` and which turns at `w` about that centre: the centre moves
    /// by `v·dt` and the rotation is composed with the exact turn by `w·dt`.
    fn integrate(
        pose: &Self::Pose,
        local_center: Self::V,
        v: Self::V,
        w: Self::Ang,
        dt: f64,
    ) -> Self::Pose;
    /// Mass, centre of mass and inertia of `shape` at `density`; `None` for a kind
    /// the stepper has no formula for (see [`crate::mass`]).
    fn mass_properties(shape: &Self::Shape, density: f64) -> Option<MassProperties<Self>>;
    /// The angle (rad, in `[0, π]`) of the rotation taking `a`'s orientation to `b`'s.
    fn turn(a: &Self::Pose, b: &Self::Pose) -> f64;
    /// The kind of `shape` (`"Cuboid"`, `"TriMesh"`, ...).
    fn kind_name(shape: &Self::Shape) -> &'static str;

    /// The angular direction of a turn about the unit `n` (3D: `n`); `None` in 2D,
    /// where no turn is about a direction of the plane.
    fn twist_axis(n: Self::V) -> Option<Self::Ang>;

    /// The length of an angular quantity (the speed of a turn).
    fn ang_length(a: Self::Ang) -> f64 {
        Self::ang_dot(a, a).sqrt()
    }
}

/// Three dimensions, y up.
#[derive(Copy, Clone, Debug)]
pub struct D3;

/// Two dimensions, y up.
#[derive(Copy, Clone, Debug)]
pub struct D2;

impl Dim for D3 {
    type V = DVec3;
    type Ang = DVec3;
    type Pose = Pose3<f64>;
    type Inertia = DMat3;
    type Shape = shape_3d::AnyShape<f64>;
    const TANGENTS: usize = 2;

    fn up() -> DVec3 {
        DVec3::Y
    }
    fn cross(r: DVec3, v: DVec3) -> DVec3 {
        r.cross(v)
    }
    fn ang_cross(w: DVec3, r: DVec3) -> DVec3 {
        w.cross(r)
    }
    fn ang_dot(a: DVec3, b: DVec3) -> f64 {
        a.dot(b)
    }
    fn apply(inertia: DMat3, a: DVec3) -> DVec3 {
        inertia * a
    }
    fn zero_inertia() -> DMat3 {
        DMat3::ZERO
    }
    fn invert(inertia: DMat3) -> DMat3 {
        if inertia.determinant() > 0.0 {
            inertia.inverse()
        } else {
            DMat3::ZERO
        }
    }
    fn world_inertia(local: DMat3, pose: &Pose3<f64>) -> DMat3 {
        let r = DMat3::from_quat(pose.rotation);
        r * local * r.transpose()
    }
    /// The branchless basis of Duff et al., "Building an Orthonormal Basis,
    /// Revisited" (JCGT 2017).
    fn tangents(n: DVec3) -> [DVec3; 2] {
        let sign = 1.0_f64.copysign(n.z);
        let a = -1.0 / (sign + n.z);
        let b = n.x * n.y * a;
        [
            DVec3::new(1.0 + sign * n.x * n.x * a, sign * b, -sign * n.x),
            DVec3::new(b, sign + n.y * n.y * a, -n.y),
        ]
    }
    fn integrate(
        pose: &Pose3<f64>,
        local_center: DVec3,
        v: DVec3,
        w: DVec3,
        dt: f64,
    ) -> Pose3<f64> {
        let center = pose.transform_point(local_center) + v * dt;
        let rotation = (DQuat::from_scaled_axis(w * dt) * pose.rotation).normalize();
        Pose3::new(center - rotation * local_center, rotation)
    }
    fn mass_properties(shape: &Self::Shape, density: f64) -> Option<MassProperties<Self>> {
        mass::mass_properties_3d(shape, density)
    }
    fn kind_name(shape: &Self::Shape) -> &'static str {
        shape.kind_name()
    }
    fn twist_axis(n: DVec3) -> Option<DVec3> {
        Some(n)
    }
    fn turn(a: &Pose3<f64>, b: &Pose3<f64>) -> f64 {
        a.rotation.angle_between(b.rotation)
    }
}

impl Dim for D2 {
    type V = DVec2;
    type Ang = f64;
    type Pose = Pose2<f64>;
    type Inertia = f64;
    type Shape = shape_2d::AnyShape<f64>;
    const TANGENTS: usize = 1;

    fn up() -> DVec2 {
        DVec2::Y
    }
    fn cross(r: DVec2, v: DVec2) -> f64 {
        r.perp_dot(v)
    }
    fn ang_cross(w: f64, r: DVec2) -> DVec2 {
        r.perp() * w
    }
    fn ang_dot(a: f64, b: f64) -> f64 {
        a * b
    }
    fn apply(inertia: f64, a: f64) -> f64 {
        inertia * a
    }
    fn zero_inertia() -> f64 {
        0.0
    }
    fn invert(inertia: f64) -> f64 {
        if inertia > 0.0 {
            1.0 / inertia
        } else {
            0.0
        }
    }
    fn world_inertia(local: f64, _pose: &Pose2<f64>) -> f64 {
        local
    }
    fn tangents(n: DVec2) -> [DVec2; 2] {
        [-n.perp(), DVec2::ZERO]
    }
    fn integrate(pose: &Pose2<f64>, local_center: DVec2, v: DVec2, w: f64, dt: f64) -> Pose2<f64> {
        let center = pose.transform_point(local_center) + v * dt;
        // From the angle, so that the rotation stays exactly unit over many steps.
        let rotation = Rot2::from_angle(pose.rotation.angle() + w * dt);
        Pose2 {
            rotation,
            translation: center - rotation.rotate(local_center),
        }
    }
    fn mass_properties(shape: &Self::Shape, density: f64) -> Option<MassProperties<Self>> {
        mass::mass_properties_2d(shape, density)
    }
    fn kind_name(shape: &Self::Shape) -> &'static str {
        shape.kind_name()
    }
    fn twist_axis(_n: DVec2) -> Option<f64> {
        None
    }
    fn turn(a: &Pose2<f64>, b: &Pose2<f64>) -> f64 {
        a.rotation.inverse().compose(b.rotation).angle().abs()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tangents_3d_are_an_orthonormal_basis_with_the_normal() {
        let normals = [DVec3::Y, -DVec3::Z, DVec3::new(0.3, -0.8, 0.52).normalize()];
        for n in normals {
            let [t1, t2] = D3::tangents(n);
            for (a, b) in [(t1, t2), (t1, n), (t2, n)] {
                assert!(a.dot(b).abs() < 1e-12, "{a} · {b}");
            }
            assert!((t1.length() - 1.0).abs() < 1e-12 && (t2.length() - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn turning_about_an_offset_centre_keeps_the_centre_in_place() {
        // A body whose centre of mass sits 1 above its origin, spun a quarter turn.
        let c = DVec3::new(0.0, 1.0, 0.0);
        let w = DVec3::new(0.0, 0.0, std::f64::consts::FRAC_PI_2);
        let p = D3::integrate(&Pose3::IDENTITY, c, DVec3::ZERO, w, 1.0);
        assert!((p.transform_point(c) - c).length() < 1e-12);
        assert!((p.transform_vector(DVec3::X) - DVec3::Y).length() < 1e-12);
        let p2 = D2::integrate(&Pose2::IDENTITY, DVec2::Y, DVec2::X, 1.0, 0.5);
        assert!((p2.transform_point(DVec2::Y) - DVec2::new(0.5, 1.0)).length() < 1e-12);
    }
}
