//! The scalar type: `f32` or `f64`, chosen by the vector type in use.

use core::fmt::{Debug, Display};
use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use super::rotation::Rotation3;
use super::vector::{Vector2, Vector3};

/// A floating-point scalar (`f32` or `f64`) with the glam types built on it.
///
/// Every generic algorithm in the crate is written once against this trait and
/// [`Vector`](super::Vector); the four glam vector types pick the scalar.
pub trait Real:
    Copy
    + Debug
    + Display
    + Default
    + PartialEq
    + PartialOrd
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
    + DivAssign
{
    /// The 2D vector over this scalar (`Vec2` or `DVec2`).
    type V2: Vector2<Scalar = Self>;
    /// The 3D vector over this scalar (`Vec3` or `DVec3`).
    type V3: Vector3<Scalar = Self>;
    /// The unit quaternion over this scalar (`Quat` or `DQuat`).
    type Quat: Rotation3<Self>;

    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// 2.
    const TWO: Self;
    /// 0.5.
    const HALF: Self;
    /// Positive infinity.
    const INFINITY: Self;
    /// Negative infinity.
    const NEG_INFINITY: Self;
    /// Machine epsilon (the gap between 1 and the next representable value).
    const EPSILON: Self;
    /// The largest finite value.
    const MAX: Self;
    /// The smallest positive normal value (below it, products lose relative precision).
    const MIN_POSITIVE: Self;
    /// The largest magnitude a shape's coordinate, extent or radius, or a pose's
    /// translation component, may have: `2^27` (1.3e8) in `f32`, `2^251` (3.6e75) in
    /// `f64`, that is `MAX^(1/4) / 32`. Constructors and the places where poses enter
    /// refuse larger values ([`ShapeError::TooLarge`](crate::shape::ShapeError::TooLarge)).
    ///
    /// Why the fourth root: the kernels form products of up to four lengths of the
    /// Minkowski difference of two placed shapes (each coordinate at most a few
    /// `MAX_COORD`): squared lengths of cross products (face normals of EPA and of the
    /// hull, the closed-form ray casts of curved solids), 3D determinants times a
    /// length. Those stay finite with `2^20` to spare (the sweep of every kind at every
    /// magnitude found a depth wrong at `1.5 · 2^28` in `f32` when the limit was
    /// `2^28`). At the `f32` limit the spacing of representable coordinates is already 16 units: larger worlds need `f64`.
    /// See [`QUERY_REACH`](crate::math::QUERY_REACH) for query input.
    const MAX_COORD: Self;
    /// π.
    const PI: Self;
    /// 2π.
    const TAU: Self;

    /// Converts from `f64`, rounding to nearest for `f32`.
    fn from_f64(v: f64) -> Self;
    /// Converts to `f64` exactly.
    fn to_f64(self) -> f64;
    /// Square root (NaN for negative input).
    fn sqrt(self) -> Self;
    /// Absolute value.
    fn abs(self) -> Self;
    /// Smaller of two values; if one is NaN, the other.
    fn min(self, other: Self) -> Self;
    /// Larger of two values; if one is NaN, the other.
    fn max(self, other: Self) -> Self;
    /// Sine (radians).
    fn sin(self) -> Self;
    /// Cosine (radians).
    fn cos(self) -> Self;
    /// Four-quadrant arc tangent of `self / x`, in `(-π, π]`.
    fn atan2(self, x: Self) -> Self;
    /// True unless NaN or infinite.
    fn is_finite(self) -> bool;
    /// True for NaN.
    fn is_nan(self) -> bool;
    /// `self` with the sign of `sign`.
    fn copysign(self, sign: Self) -> Self;
    /// `1 / self`.
    fn recip(self) -> Self;
    /// `self * a + b` with one rounding.
    fn mul_add(self, a: Self, b: Self) -> Self;

    /// Clamps to `[lo, hi]` without panicking; NaN stays NaN.
    #[inline]
    fn clamp_to(self, lo: Self, hi: Self) -> Self {
        if self < lo {
            lo
        } else if self > hi {
            hi
        } else {
            self
        }
    }
}

macro_rules! impl_real {
    ($t:ident, $v2:ty, $v3:ty, $q:ty, $max_coord:expr) => {
        impl Real for $t {
            type V2 = $v2;
            type V3 = $v3;
            type Quat = $q;
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const TWO: Self = 2.0;
            const HALF: Self = 0.5;
            const INFINITY: Self = $t::INFINITY;
            const NEG_INFINITY: Self = $t::NEG_INFINITY;
            const EPSILON: Self = $t::EPSILON;
            const MAX: Self = $t::MAX;
            const MIN_POSITIVE: Self = $t::MIN_POSITIVE;
            const MAX_COORD: Self = $max_coord;
            const PI: Self = core::$t::consts::PI;
            const TAU: Self = core::$t::consts::TAU;

            #[inline]
            fn from_f64(v: f64) -> Self {
                v as $t
            }
            #[inline]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline]
            fn sqrt(self) -> Self {
                $t::sqrt(self)
            }
            #[inline]
            fn abs(self) -> Self {
                $t::abs(self)
            }
            #[inline]
            fn min(self, other: Self) -> Self {
                $t::min(self, other)
            }
            #[inline]
            fn max(self, other: Self) -> Self {
                $t::max(self, other)
            }
            #[inline]
            fn sin(self) -> Self {
                $t::sin(self)
            }
            #[inline]
            fn cos(self) -> Self {
                $t::cos(self)
            }
            #[inline]
            fn atan2(self, x: Self) -> Self {
                $t::atan2(self, x)
            }
            #[inline]
            fn is_finite(self) -> bool {
                $t::is_finite(self)
            }
            #[inline]
            fn is_nan(self) -> bool {
                $t::is_nan(self)
            }
            #[inline]
            fn copysign(self, sign: Self) -> Self {
                $t::copysign(self, sign)
            }
            #[inline]
            fn recip(self) -> Self {
                $t::recip(self)
            }
            #[inline]
            fn mul_add(self, a: Self, b: Self) -> Self {
                $t::mul_add(self, a, b)
            }
        }
    };
}

// 2^27 and 2^251: MAX^(1/4) is just below 2^32 and 2^256.
impl_real!(f32, glam::Vec2, glam::Vec3, glam::Quat, 134_217_728.0);
impl_real!(f64, glam::DVec2, glam::DVec3, glam::DQuat, MAX_COORD_F64);

/// `2^251`, built from its bits (exponent field `251 + 1023`).
const MAX_COORD_F64: f64 = f64::from_bits(((251 + 1023) as u64) << 52);

/// Query input (ray origins and directions, query points, shape-cast velocities) is
/// answered while its components are within `QUERY_REACH · MAX_COORD`: placed valid
/// shapes reach no farther than a few `MAX_COORD` (a compound part's pose, the part,
/// the compound's pose), so a point beyond this reach is outside every shape. Beyond
/// it, the queries of the shape enums and the world give their documented refusal
/// (no hit, `false`, a NaN projection) instead of an answer that overflowed.
pub const QUERY_REACH: f64 = 16.0;

/// True when every component of `v` is within `QUERY_REACH · MAX_COORD` (false for NaN).
#[inline]
pub fn within_query_reach<V: super::Vector>(v: V) -> bool {
    let reach = V::Scalar::MAX_COORD * V::Scalar::from_f64(QUERY_REACH);
    v.abs().max_element() <= reach
}

#[cfg(test)]
mod tests {
    use super::*;

    // The limits are the documented powers of two; fourth powers of 16 times them are
    // finite (with room left), of 32 times them not.
    #[test]
    fn max_coord_is_a_power_of_two_below_the_fourth_root_of_max() {
        assert_eq!(f32::MAX_COORD, 2f32.powi(27));
        assert_eq!(f64::MAX_COORD, 2f64.powi(251));
        assert!((f32::MAX_COORD * 16.0).powi(4).is_finite());
        assert!((f64::MAX_COORD * 16.0).powi(4).is_finite());
        assert!(!(f32::MAX_COORD * 32.0).powi(4).is_finite());
    }
}
