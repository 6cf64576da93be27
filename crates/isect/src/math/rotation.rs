//! Rotations: a unit complex number in 2D ([`Rot2`]), glam's unit quaternion in 3D
//! (through [`Rotation3`]).
//!
//! Both store four (or two) free numbers, and the rotation formulas are only rigid for
//! unit length: a quaternion of length 2 rotates *and scales by 4*. So rotations are
//! checked where poses enter (the collision world, the pair queries of
//! [`dispatch`](crate::query::dispatch), the `isect` command's scene files) by
//! [`Rotation3::to_unit`] / [`Rot2::to_unit`]: a rotation whose squared length is 1
//! to within [`ROTATION_KEEP_ULPS`] is kept bit for bit, one whose length is within
//! [`ROTATION_UNIT_ULPS`] of 1 is normalised, and a zero, non-finite or farther-off
//! one is refused ([`RotationError`]), never silently rescaled: a length of 2 or 0.5
//! means the caller built the wrong thing (a scaled quaternion, an unnormalised
//! interpolation), and guessing would hide it.

use core::fmt;

use super::real::Real;
use super::tolerance::eps;
use super::vector::{Vector, Vector2};

/// How far from 1 the length of a rotation (a quaternion's norm, `hypot(cos, sin)` in
/// 2D) may be, in ulps (machine epsilons of its scalar), for it to be normalised where
/// poses enter rather than refused. 4096 ulps is `4.9e-4` in `f32` (about Box2D's
/// tolerance on its rotations) and `9.1e-13` in `f64`: thousands of compositions of
/// unit rotations drift less, and the largest accepted error scales a shape by less
/// than 0.1 % before normalisation.
pub const ROTATION_UNIT_ULPS: f64 = 4096.0;

/// A rotation whose squared length is within this many ulps of 1 is already unit to
/// rounding and is kept bit for bit (normalising it would not make it more unit).
pub const ROTATION_KEEP_ULPS: f64 = 4.0;

/// Why a rotation was refused (see [`Rotation3::to_unit`]).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum RotationError {
    /// A component is NaN or infinite.
    NotFinite,
    /// The length is 0 or off 1 by more than [`ROTATION_UNIT_ULPS`].
    NotUnit {
        /// The rotation's length (infinite when its square overflows).
        length: f64,
    },
}

impl fmt::Display for RotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotFinite => write!(f, "the rotation has a NaN or infinite component"),
            Self::NotUnit { length } => write!(
                f,
                "the rotation has length {length}, must be 1 within {ROTATION_UNIT_ULPS} ulps \
                 (zero and far-off rotations are refused, not normalised)"
            ),
        }
    }
}

impl std::error::Error for RotationError {}

/// The factor that makes a rotation of squared length `length2` unit: `None` to keep
/// it as it is (unit to [`ROTATION_KEEP_ULPS`]), else `1 / length`.
///
/// # Errors
/// [`RotationError`] when `finite` is false or the length is off by more than
/// [`ROTATION_UNIT_ULPS`] (zero included).
fn unit_factor<R: Real>(finite: bool, length2: R) -> Result<Option<R>, RotationError> {
    if !finite {
        return Err(RotationError::NotFinite);
    }
    if kept_unit(length2) {
        return Ok(None);
    }
    let length = length2.sqrt();
    if (length - R::ONE).abs() <= eps::<R>(ROTATION_UNIT_ULPS) {
        return Ok(Some(length.recip()));
    }
    Err(RotationError::NotUnit {
        length: length.to_f64(),
    })
}

/// True when a rotation of squared length `length2` is unit to
/// [`ROTATION_KEEP_ULPS`] (kept as it is); false for NaN.
#[inline]
pub(crate) fn kept_unit<R: Real>(length2: R) -> bool {
    (length2 - R::ONE).abs() <= eps::<R>(ROTATION_KEEP_ULPS)
}

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

    /// `(cos, sin)` of unit length: kept when unit to rounding
    /// ([`ROTATION_KEEP_ULPS`]), normalised within [`ROTATION_UNIT_ULPS`].
    ///
    /// # Errors
    /// [`RotationError::NotFinite`] for NaN or infinite components,
    /// [`RotationError::NotUnit`] for a zero or farther-off pair.
    pub fn to_unit(self) -> Result<Self, RotationError> {
        let length2 = self.cos * self.cos + self.sin * self.sin;
        Ok(match unit_factor(self.is_finite(), length2)? {
            None => self,
            Some(k) => Self {
                cos: self.cos * k,
                sin: self.sin * k,
            },
        })
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
    /// 0 when every component is finite, NaN otherwise: the sum of `c · 0` over the
    /// components, for a branch-free check of several numbers at once.
    fn zero_if_finite(self) -> R;
    /// `self` rescaled to unit length, or `None` when its length is zero or not finite.
    fn try_normalize(self) -> Option<Self>;
    /// The squared length (the quaternion's norm squared).
    fn length_squared(self) -> R;
    /// Every component times `k`.
    fn scaled(self, k: R) -> Self;

    /// `self` of unit length: kept when unit to rounding ([`ROTATION_KEEP_ULPS`]),
    /// normalised within [`ROTATION_UNIT_ULPS`].
    ///
    /// # Errors
    /// [`RotationError::NotFinite`] for NaN or infinite components,
    /// [`RotationError::NotUnit`] for a zero or farther-off quaternion.
    #[inline]
    fn to_unit(self) -> Result<Self, RotationError> {
        Ok(
            match unit_factor(self.is_finite(), self.length_squared())? {
                None => self,
                Some(k) => self.scaled(k),
            },
        )
    }

    /// Rotates `v` by the inverse rotation.
    #[inline]
    fn inverse_rotate(self, v: R::V3) -> R::V3 {
        self.inverse().rotate(v)
    }
    /// The rotated x, y and z axes (the columns of the rotation matrix).
    #[inline]
    fn axes(self) -> [R::V3; 3] {
        // Written out: `[0, 1, 2].map` was not always inlined.
        let axis = |i| self.rotate(R::V3::unit_axis(i));
        [axis(0), axis(1), axis(2)]
    }
    /// The columns of the rotation matrix from the quaternion's products (for a
    /// unit quaternion; cheaper than [`Rotation3::axes`], equal up to rounding).
    fn matrix_columns(self) -> [R::V3; 3];
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
            fn zero_if_finite(self) -> $s {
                self.x * 0.0 + self.y * 0.0 + self.z * 0.0 + self.w * 0.0
            }
            #[inline]
            fn length_squared(self) -> $s {
                <$q>::length_squared(self)
            }
            #[inline]
            fn scaled(self, k: $s) -> Self {
                self * k
            }
            #[inline]
            fn try_normalize(self) -> Option<Self> {
                let len = self.length();
                (len > 0.0 && len.is_finite()).then(|| self * len.recip())
            }
            #[inline]
            fn matrix_columns(self) -> [$v; 3] {
                let (x, y, z, w) = (self.x, self.y, self.z, self.w);
                let (x2, y2, z2) = (x + x, y + y, z + z);
                let (xx, xy, xz) = (x * x2, x * y2, x * z2);
                let (yy, yz, zz) = (y * y2, y * z2, z * z2);
                let (wx, wy, wz) = (w * x2, w * y2, w * z2);
                [
                    <$v>::new(1.0 - (yy + zz), xy + wz, xz - wy),
                    <$v>::new(xy - wz, 1.0 - (xx + zz), yz + wx),
                    <$v>::new(xz + wy, yz - wx, 1.0 - (xx + yy)),
                ]
            }
        }
    };
}

impl_rotation3!(glam::Quat, f32, glam::Vec3);
impl_rotation3!(glam::DQuat, f64, glam::DVec3);
