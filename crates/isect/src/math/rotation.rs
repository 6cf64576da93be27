//! Rotations: a unit complex number in 2D ([`Rot2`]), glam's unit quaternion in 3D
//! (through [`Rotation3`]).

use super::real::Real;
use super::vector::{Vector, Vector2};

/// A 2D rotation stored as the unit complex number `cos + i·sin`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rot2<R: Real> {
    /// Cosine of the angle.
    pub cos: R,
    /// Sine of the angle.
    pub sin: R,
}

impl<R: Real> Default for Rot2<R> {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<R: Real> Rot2<R> {
    /// No rotation.
    pub const IDENTITY: Self = Self {
        cos: R::ONE,
        sin: R::ZERO,
    };

    /// The counter-clockwise rotation by `angle` radians.
    #[inline]
    pub fn from_angle(angle: R) -> Self {
        Self {
            cos: angle.cos(),
            sin: angle.sin(),
        }
    }

    /// The angle in `(-π, π]`.
    #[inline]
    pub fn angle(self) -> R {
        self.sin.atan2(self.cos)
    }

    /// Rotates `v`.
    #[inline]
    pub fn rotate(self, v: R::V2) -> R::V2 {
        R::V2::new(
            self.cos * v.x() - self.sin * v.y(),
            self.sin * v.x() + self.cos * v.y(),
        )
    }

    /// Rotates `v` by the inverse rotation.
    #[inline]
    pub fn inverse_rotate(self, v: R::V2) -> R::V2 {
        R::V2::new(
            self.cos * v.x() + self.sin * v.y(),
            -self.sin * v.x() + self.cos * v.y(),
        )
    }

    /// The inverse rotation.
    #[inline]
    pub fn inverse(self) -> Self {
        Self {
            cos: self.cos,
            sin: -self.sin,
        }
    }

    /// `self` after `other`: rotates by `other` first.
    #[inline]
    pub fn compose(self, other: Self) -> Self {
        Self {
            cos: self.cos * other.cos - self.sin * other.sin,
            sin: self.sin * other.cos + self.cos * other.sin,
        }
    }

    /// The rotated x and y axes (the columns of the rotation matrix).
    #[inline]
    pub fn axes(self) -> [R::V2; 2] {
        [
            R::V2::new(self.cos, self.sin),
            R::V2::new(-self.sin, self.cos),
        ]
    }

    /// True when both components are finite.
    #[inline]
    pub fn is_finite(self) -> bool {
        self.cos.is_finite() && self.sin.is_finite()
    }
}

/// glam's unit quaternions `Quat` and `DQuat`, seen through one trait.
pub trait Rotation3<R: Real>: Copy + core::fmt::Debug + PartialEq + Send + Sync + 'static {
    /// No rotation.
    const IDENTITY: Self;
    /// Rotation by `angle` radians about the unit `axis`.
    fn from_axis_angle(axis: R::V3, angle: R) -> Self;
    /// Rotates `v`.
    fn rotate(self, v: R::V3) -> R::V3;
    /// The inverse rotation (the conjugate).
    fn inverse(self) -> Self;
    /// `self` after `other`.
    fn mul(self, other: Self) -> Self;
    /// True when every component is finite.
    fn is_finite(self) -> bool;
    /// `self` rescaled to unit length, or `None` when its length is zero or not finite.
    fn try_normalize(self) -> Option<Self>;

    /// Rotates `v` by the inverse rotation.
    #[inline]
    fn inverse_rotate(self, v: R::V3) -> R::V3 {
        self.inverse().rotate(v)
    }
    /// The rotated x, y and z axes (the columns of the rotation matrix).
    #[inline]
    fn axes(self) -> [R::V3; 3] {
        [0, 1, 2].map(|i| self.rotate(R::V3::unit_axis(i)))
    }
}

macro_rules! impl_rotation3 {
    ($q:ty, $s:ty, $v:ty) => {
        impl Rotation3<$s> for $q {
            const IDENTITY: Self = <$q>::IDENTITY;
            #[inline]
            fn from_axis_angle(axis: $v, angle: $s) -> Self {
                <$q>::from_axis_angle(axis, angle)
            }
            #[inline]
            fn rotate(self, v: $v) -> $v {
                self * v
            }
            #[inline]
            fn inverse(self) -> Self {
                self.conjugate()
            }
            #[inline]
            fn mul(self, other: Self) -> Self {
                self * other
            }
            #[inline]
            fn is_finite(self) -> bool {
                <$q>::is_finite(self)
            }
            #[inline]
            fn try_normalize(self) -> Option<Self> {
                let len = self.length();
                (len > 0.0 && len.is_finite()).then(|| self * len.recip())
            }
        }
    };
}

impl_rotation3!(glam::Quat, f32, glam::Vec3);
impl_rotation3!(glam::DQuat, f64, glam::DVec3);
