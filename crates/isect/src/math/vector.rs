//! One small trait over glam's `Vec2`, `Vec3`, `DVec2` and `DVec3`, so that
//! every dimension-independent algorithm is written once.

use core::fmt::Debug;
use core::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

use super::pose::Isometry;
use super::real::Real;

/// A 2D or 3D glam vector of `f32` or `f64`.
pub trait Vector:
    Copy
    + Debug
    + Default
    + PartialEq
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Neg<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Mul<<Self as Vector>::Scalar, Output = Self>
    + Div<<Self as Vector>::Scalar, Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign<<Self as Vector>::Scalar>
{
    /// The component type.
    type Scalar: Real;
    /// The rigid transform (rotation then translation) of this dimension.
    type Pose: Isometry<Self>;
    /// Number of components: 2 or 3.
    const DIM: usize;
    /// A contact manifold's point storage: room for 2 points in 2D, 4 in 3D (a 2D
    /// [`Manifold`](crate::query::manifold::Manifold) is then about half the bytes to
    /// write and copy).
    type ManifoldSlots: crate::query::manifold::ManifoldSlots<Self>;
    /// All zeros.
    const ZERO: Self;

    /// Every component set to `s`.
    fn splat(s: Self::Scalar) -> Self;
    /// The unit vector along axis `i` (`i < DIM`).
    fn unit_axis(i: usize) -> Self;
    /// Dot product.
    fn dot(self, other: Self) -> Self::Scalar;
    /// Component-wise minimum.
    fn min(self, other: Self) -> Self;
    /// Component-wise maximum.
    fn max(self, other: Self) -> Self;
    /// Component-wise absolute value.
    fn abs(self) -> Self;
    /// Component `i` (`i < DIM`).
    fn get(self, i: usize) -> Self::Scalar;
    /// `self` with component `i` replaced by `v`.
    fn with(self, i: usize, v: Self::Scalar) -> Self;
    /// Smallest component.
    fn min_element(self) -> Self::Scalar;
    /// Largest component.
    fn max_element(self) -> Self::Scalar;
    /// True when every component is finite.
    fn is_finite(self) -> bool;
    /// True when any component is NaN.
    fn is_nan(self) -> bool;
    /// True when `self[i] <= other[i]` for every `i` (false with NaN).
    fn all_le(self, other: Self) -> bool;

    /// Squared length.
    #[inline]
    fn length_squared(self) -> Self::Scalar {
        self.dot(self)
    }
    /// Length. A vector whose squared length overflows (components beyond about
    /// `√MAX`: 1.8e19 in `f32`, 1.3e154 in `f64`) is first divided by its largest
    /// component, so its length is right up to `MAX` (then `+∞`); NaN stays NaN.
    #[inline]
    fn length(self) -> Self::Scalar {
        let len_sq = self.length_squared();
        if len_sq.is_finite() || !self.is_finite() {
            return len_sq.sqrt();
        }
        let largest = self.abs().max_element();
        largest * (self / largest).length_squared().sqrt()
    }
    /// True when `|self| ≤ r`, without overflow: the squares when both are finite,
    /// else the lengths. False for NaN.
    #[inline]
    fn length_at_most(self, r: Self::Scalar) -> bool {
        let (len_sq, r_sq) = (self.length_squared(), r * r);
        match len_sq.is_finite() && r_sq.is_finite() {
            true => len_sq <= r_sq,
            false => self.length() <= r,
        }
    }
    /// Distance to `other`.
    #[inline]
    fn distance(self, other: Self) -> Self::Scalar {
        (self - other).length()
    }
    /// Squared distance to `other`.
    #[inline]
    fn distance_squared(self, other: Self) -> Self::Scalar {
        (self - other).length_squared()
    }
    /// `self` scaled to unit length, or `None` when it is zero or not finite.
    /// Vectors whose squared length would underflow (below about `ε`) or overflow are
    /// first divided by their largest component, so the result is unit for them too.
    #[inline]
    fn try_normalize(self) -> Option<Self> {
        let eps = Self::Scalar::EPSILON;
        let len_sq = self.length_squared();
        if len_sq > eps * eps && len_sq.is_finite() {
            return Some(self * len_sq.sqrt().recip());
        }
        let largest = self.abs().max_element();
        if !(largest > Self::Scalar::ZERO && self.is_finite()) {
            return None;
        }
        let scaled = self / largest;
        Some(scaled / scaled.length())
    }
    /// Linear interpolation: `self` at `t = 0`, `other` at `t = 1`.
    #[inline]
    fn lerp(self, other: Self, t: Self::Scalar) -> Self {
        self + (other - self) * t
    }
    /// Component-wise `1 / self` (infinite where a component is zero).
    #[inline]
    fn recip(self) -> Self {
        Self::splat(Self::Scalar::ONE) / self
    }
    /// Index of the largest component.
    #[inline]
    fn max_axis(self) -> usize {
        (1..Self::DIM).fold(0, |best, i| {
            if self.get(i) > self.get(best) {
                i
            } else {
                best
            }
        })
    }
}

/// The 2D vectors `Vec2` and `DVec2`.
pub trait Vector2: Vector {
    /// Builds from components.
    fn new(x: Self::Scalar, y: Self::Scalar) -> Self;
    /// The x component.
    fn x(self) -> Self::Scalar;
    /// The y component.
    fn y(self) -> Self::Scalar;
    /// `self` rotated by +90°: `(-y, x)`.
    #[inline]
    fn perp(self) -> Self {
        Self::new(-self.y(), self.x())
    }
    /// 2D cross product `self.x * other.y - self.y * other.x`: positive when
    /// `other` is counter-clockwise of `self`.
    #[inline]
    fn perp_dot(self, other: Self) -> Self::Scalar {
        self.x() * other.y() - self.y() * other.x()
    }
}

/// The 3D vectors `Vec3` and `DVec3`.
pub trait Vector3: Vector {
    /// Builds from components.
    fn new(x: Self::Scalar, y: Self::Scalar, z: Self::Scalar) -> Self;
    /// Cross product.
    fn cross(self, other: Self) -> Self;
    /// Two unit vectors that, with unit `self`, form a right-handed orthonormal basis.
    fn orthonormal_basis(self) -> (Self, Self);
}

macro_rules! impl_vector {
    ($v:ty, $s:ty, $pose:ty, $dim:expr) => {
        impl Vector for $v {
            type Scalar = $s;
            type Pose = $pose;
            const DIM: usize = $dim;
            type ManifoldSlots =
                [crate::query::manifold::ManifoldPoint<$v>; if $dim == 2 { 2 } else { 4 }];
            const ZERO: Self = <$v>::ZERO;

            #[inline]
            fn splat(s: $s) -> Self {
                <$v>::splat(s)
            }
            #[inline]
            fn unit_axis(i: usize) -> Self {
                let mut v = <$v>::ZERO;
                v[i] = 1.0;
                v
            }
            #[inline]
            fn dot(self, other: Self) -> $s {
                <$v>::dot(self, other)
            }
            #[inline]
            fn min(self, other: Self) -> Self {
                <$v>::min(self, other)
            }
            #[inline]
            fn max(self, other: Self) -> Self {
                <$v>::max(self, other)
            }
            #[inline]
            fn abs(self) -> Self {
                <$v>::abs(self)
            }
            #[inline]
            fn get(self, i: usize) -> $s {
                self[i]
            }
            #[inline]
            fn with(mut self, i: usize, v: $s) -> Self {
                self[i] = v;
                self
            }
            #[inline]
            fn min_element(self) -> $s {
                <$v>::min_element(self)
            }
            #[inline]
            fn max_element(self) -> $s {
                <$v>::max_element(self)
            }
            #[inline]
            fn is_finite(self) -> bool {
                <$v>::is_finite(self)
            }
            #[inline]
            fn is_nan(self) -> bool {
                <$v>::is_nan(self)
            }
            #[inline]
            fn all_le(self, other: Self) -> bool {
                self.cmple(other).all()
            }
        }
    };
}

impl_vector!(glam::Vec2, f32, super::pose::Pose2<f32>, 2);
impl_vector!(glam::DVec2, f64, super::pose::Pose2<f64>, 2);
impl_vector!(glam::Vec3, f32, super::pose::Pose3<f32>, 3);
impl_vector!(glam::DVec3, f64, super::pose::Pose3<f64>, 3);

macro_rules! impl_vector2 {
    ($v:ty, $s:ty) => {
        impl Vector2 for $v {
            #[inline]
            fn new(x: $s, y: $s) -> Self {
                <$v>::new(x, y)
            }
            #[inline]
            fn x(self) -> $s {
                self.x
            }
            #[inline]
            fn y(self) -> $s {
                self.y
            }
        }
    };
}

impl_vector2!(glam::Vec2, f32);
impl_vector2!(glam::DVec2, f64);

macro_rules! impl_vector3 {
    ($v:ty, $s:ty) => {
        impl Vector3 for $v {
            #[inline]
            fn new(x: $s, y: $s, z: $s) -> Self {
                <$v>::new(x, y, z)
            }
            #[inline]
            fn cross(self, other: Self) -> Self {
                <$v>::cross(self, other)
            }
            #[inline]
            fn orthonormal_basis(self) -> (Self, Self) {
                self.any_orthonormal_pair()
            }
        }
    };
}

impl_vector3!(glam::Vec3, f32);
impl_vector3!(glam::DVec3, f64);
