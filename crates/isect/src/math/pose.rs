//! Rigid transforms (rotation, then translation). Pair queries take one pose per
//! shape and work in A's frame, `pose_ab = pose_a⁻¹ · pose_b`, as parry and Box2D do.

use super::real::Real;
use super::rotation::{Rot2, Rotation3, RotationError};
use super::vector::{Vector, Vector2, Vector3};

/// A rigid transform of points of type `V`: rotate, then translate.
pub trait Isometry<V: Vector>: Copy + core::fmt::Debug + PartialEq + Send + Sync + 'static {
    /// The transform that changes nothing.
    const IDENTITY: Self;
    /// A pure translation.
    fn from_translation(t: V) -> Self;
    /// The translation part.
    fn translation(&self) -> V;
    /// This pose's rotation with the translation `t`.
    fn with_translation(&self, t: V) -> Self;
    /// True when the two rotations are the same numbers (whatever the translations).
    #[inline]
    fn same_rotation(&self, other: &Self) -> bool {
        self.with_translation(V::ZERO) == other.with_translation(V::ZERO)
    }
    /// Rotates a direction (no translation).
    fn transform_vector(&self, v: V) -> V;
    /// Rotates a direction by the inverse rotation.
    fn inverse_transform_vector(&self, v: V) -> V;
    /// The inverse transform.
    fn inverse(&self) -> Self;
    /// `self · other`: applies `other` first.
    fn mul(&self, other: &Self) -> Self;
    /// True when every number in it is finite.
    fn is_finite(&self) -> bool;
    /// The pose with its rotation checked and made unit (see
    /// [`Rotation3::to_unit`]); the translation is not checked.
    ///
    /// # Errors
    /// The [`RotationError`] of a non-finite, zero or far-off rotation.
    fn with_unit_rotation(&self) -> Result<Self, RotationError>;
    /// True when the rotation is unit to rounding, so that
    /// [`Isometry::with_unit_rotation`] returns it unchanged (false for NaN): the
    /// cheap test of poses entering a query.
    fn rotation_kept_unit(&self) -> bool;

    /// The rotation in the form cheapest to apply many times: the columns of its
    /// matrix in 3D (a quaternion rotation costs about twice a matrix product), the
    /// rotation itself in 2D.
    type Matrix: Copy + core::fmt::Debug + Send + Sync;
    /// This pose's rotation as a [`Isometry::Matrix`].
    fn matrix(&self) -> Self::Matrix;
    /// `v` rotated by `m` (equal to [`Isometry::transform_vector`] up to rounding).
    fn rotate_by(m: &Self::Matrix, v: V) -> V;
    /// `v` rotated by the inverse of `m` (its transpose).
    fn inverse_rotate_by(m: &Self::Matrix, v: V) -> V;

    /// Maps a point from the local frame to the world frame.
    #[inline]
    fn transform_point(&self, p: V) -> V {
        self.transform_vector(p) + self.translation()
    }
    /// Maps a point from the world frame to the local frame.
    #[inline]
    fn inverse_transform_point(&self, p: V) -> V {
        self.inverse_transform_vector(p - self.translation())
    }
    /// `self⁻¹ · other`: `other` expressed in `self`'s frame.
    #[inline]
    fn inv_mul(&self, other: &Self) -> Self {
        self.inverse().mul(other)
    }
}

/// A 2D rigid transform.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Pose2<R: Real> {
    /// Rotation, applied first.
    pub rotation: Rot2<R>,
    /// Translation, applied second.
    pub translation: R::V2,
}

impl<R: Real> Pose2<R> {
    /// Rotation by `angle` radians about the origin, then translation by `translation`.
    #[inline]
    pub fn new(translation: R::V2, angle: R) -> Self {
        Self {
            rotation: Rot2::from_angle(angle),
            translation,
        }
    }
}

impl<R: Real> Default for Pose2<R> {
    fn default() -> Self {
        <Self as Isometry<R::V2>>::IDENTITY
    }
}

impl<R: Real> Isometry<R::V2> for Pose2<R> {
    const IDENTITY: Self = Self {
        rotation: Rot2::IDENTITY,
        translation: <R::V2 as Vector>::ZERO,
    };
    type Matrix = Rot2<R>;
    #[inline]
    fn matrix(&self) -> Rot2<R> {
        self.rotation
    }
    #[inline]
    fn rotate_by(m: &Rot2<R>, v: R::V2) -> R::V2 {
        m.rotate(v)
    }
    #[inline]
    fn inverse_rotate_by(m: &Rot2<R>, v: R::V2) -> R::V2 {
        m.inverse_rotate(v)
    }
    #[inline]
    fn from_translation(translation: R::V2) -> Self {
        Self {
            rotation: Rot2::IDENTITY,
            translation,
        }
    }
    #[inline]
    fn translation(&self) -> R::V2 {
        self.translation
    }
    #[inline]
    fn with_translation(&self, translation: R::V2) -> Self {
        Self {
            translation,
            ..*self
        }
    }
    #[inline]
    fn transform_vector(&self, v: R::V2) -> R::V2 {
        self.rotation.rotate(v)
    }
    #[inline]
    fn inverse_transform_vector(&self, v: R::V2) -> R::V2 {
        self.rotation.inverse_rotate(v)
    }
    #[inline]
    fn inverse(&self) -> Self {
        let rotation = self.rotation.inverse();
        Self {
            rotation,
            translation: -rotation.rotate(self.translation),
        }
    }
    #[inline]
    fn mul(&self, other: &Self) -> Self {
        Self {
            rotation: self.rotation.compose(other.rotation),
            translation: self.transform_point(other.translation),
        }
    }
    #[inline]
    fn is_finite(&self) -> bool {
        // `x · 0` is 0 for a finite `x` and NaN otherwise: one comparison for the four
        // numbers, no branch per number (every 2D query starts here).
        let (r, t, zero) = (self.rotation, self.translation, R::ZERO);
        r.cos * zero + r.sin * zero + t.x() * zero + t.y() * zero == zero
    }
    #[inline]
    fn with_unit_rotation(&self) -> Result<Self, RotationError> {
        Ok(Self {
            rotation: self.rotation.to_unit()?,
            ..*self
        })
    }
    #[inline]
    fn rotation_kept_unit(&self) -> bool {
        let r = self.rotation;
        super::rotation::kept_unit(r.cos * r.cos + r.sin * r.sin)
    }
}

/// A 3D rigid transform.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Pose3<R: Real> {
    /// Rotation (unit quaternion), applied first.
    pub rotation: R::Quat,
    /// Translation, applied second.
    pub translation: R::V3,
}

impl<R: Real> Pose3<R> {
    /// Rotation `rotation`, then translation by `translation`.
    #[inline]
    pub fn new(translation: R::V3, rotation: R::Quat) -> Self {
        Self {
            rotation,
            translation,
        }
    }
}

impl<R: Real> Default for Pose3<R> {
    fn default() -> Self {
        <Self as Isometry<R::V3>>::IDENTITY
    }
}

impl<R: Real> Isometry<R::V3> for Pose3<R> {
    const IDENTITY: Self = Self {
        rotation: <R::Quat as Rotation3<R>>::IDENTITY,
        translation: <R::V3 as Vector>::ZERO,
    };
    type Matrix = [R::V3; 3];
    #[inline]
    fn matrix(&self) -> [R::V3; 3] {
        self.rotation.matrix_columns()
    }
    #[inline]
    fn rotate_by(m: &[R::V3; 3], v: R::V3) -> R::V3 {
        m[0] * v.get(0) + m[1] * v.get(1) + m[2] * v.get(2)
    }
    #[inline]
    fn inverse_rotate_by(m: &[R::V3; 3], v: R::V3) -> R::V3 {
        <R::V3 as Vector3>::new(m[0].dot(v), m[1].dot(v), m[2].dot(v))
    }
    #[inline]
    fn from_translation(translation: R::V3) -> Self {
        Self {
            rotation: R::Quat::IDENTITY,
            translation,
        }
    }
    #[inline]
    fn translation(&self) -> R::V3 {
        self.translation
    }
    #[inline]
    fn with_translation(&self, translation: R::V3) -> Self {
        Self {
            translation,
            ..*self
        }
    }
    #[inline]
    fn transform_vector(&self, v: R::V3) -> R::V3 {
        self.rotation.rotate(v)
    }
    #[inline]
    fn inverse_transform_vector(&self, v: R::V3) -> R::V3 {
        self.rotation.inverse_rotate(v)
    }
    #[inline]
    fn inverse(&self) -> Self {
        let rotation = self.rotation.inverse();
        Self {
            rotation,
            translation: -rotation.rotate(self.translation),
        }
    }
    #[inline]
    fn mul(&self, other: &Self) -> Self {
        Self {
            rotation: self.rotation.mul(other.rotation),
            translation: self.transform_point(other.translation),
        }
    }
    #[inline]
    fn is_finite(&self) -> bool {
        // As in 2D: one comparison for the seven numbers, no branch per number.
        let (t, zero) = (self.translation, R::ZERO);
        self.rotation.zero_if_finite() + t.get(0) * zero + t.get(1) * zero + t.get(2) * zero == zero
    }
    #[inline]
    fn with_unit_rotation(&self) -> Result<Self, RotationError> {
        Ok(Self {
            rotation: self.rotation.to_unit()?,
            ..*self
        })
    }
    #[inline]
    fn rotation_kept_unit(&self) -> bool {
        super::rotation::kept_unit(self.rotation.length_squared())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DQuat, DVec2, DVec3};

    /// Every number of a pose, one at a time, made NaN, ±∞ or the largest finite value:
    /// only the non-finite ones make the pose non-finite (the branch-free `x · 0` check
    /// must not overflow on large finite numbers).
    #[test]
    fn is_finite_checks_every_number() {
        for bad in [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            -f64::MAX,
        ] {
            for k in 0..7 {
                let mut v = [0.0, 0.0, 0.0, 1.0, 1.0, 2.0, 3.0];
                v[k] = bad;
                let q = DQuat::from_xyzw(v[0], v[1], v[2], v[3]);
                let pose = Pose3::<f64>::new(DVec3::new(v[4], v[5], v[6]), q);
                assert_eq!(pose.is_finite(), bad.is_finite(), "number {k} = {bad}");
            }
            for k in 0..4 {
                let mut v = [1.0, 0.0, 1.0, 2.0];
                v[k] = bad;
                let pose = Pose2::<f64> {
                    rotation: Rot2 {
                        cos: v[0],
                        sin: v[1],
                    },
                    translation: DVec2::new(v[2], v[3]),
                };
                assert_eq!(pose.is_finite(), bad.is_finite(), "2D number {k} = {bad}");
            }
        }
    }
}
