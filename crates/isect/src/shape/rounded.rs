//! Rounded shapes: a convex shape grown by a ball (a Minkowski sum).

use super::error::{check_extent, ShapeError};
use crate::algo::support::SupportMap;
use crate::math::Real;
use crate::math::Vector;

/// The convex shape `inner` grown by `radius` in every direction: the Minkowski
/// sum of `inner` and a ball of `radius` (a rounded box, a rounded polygon...).
/// `R` is the scalar of the shape's vector type (`f32` or `f64`).
///
/// Queries treat `inner` as the core and the radius as a margin: GJK runs on the
/// core and the radius is added afterwards, which is exact for Minkowski sums.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rounded<S, R: Real = f32> {
    inner: S,
    radius: R,
}

impl<S, R: Real> Rounded<S, R> {
    /// `inner` grown by `radius`.
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`], [`ShapeError::Negative`] or [`ShapeError::TooLarge`]
    /// (beyond [`Real::MAX_COORD`]) for a bad radius.
    pub fn new(inner: S, radius: R) -> Result<Self, ShapeError> {
        Ok(Self {
            inner,
            radius: check_extent("Rounded", "radius", radius)?,
        })
    }

    /// The shape before rounding.
    #[inline]
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// The rounding radius (≥ 0).
    #[inline]
    pub fn radius(&self) -> R {
        self.radius
    }
}

impl<V: Vector, S: SupportMap<V>> SupportMap<V> for Rounded<S, V::Scalar> {
    #[inline]
    fn local_support(&self, dir: V) -> V {
        let core = self.inner.local_support(dir);
        match dir.try_normalize() {
            Some(unit) => core + unit * self.radius,
            None => core,
        }
    }
    #[inline]
    fn margin(&self) -> V::Scalar {
        self.inner.margin() + self.radius
    }
    #[inline]
    fn local_core_support(&self, dir: V) -> V {
        self.inner.local_core_support(dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Aabb;
    use glam::Vec2;

    // A negative rounding radius is refused by name.
    #[test]
    fn rejects_negative_radius() {
        let b = Aabb::new(Vec2::ZERO, Vec2::ONE).unwrap();
        assert!(Rounded::new(b, -0.5f32)
            .unwrap_err()
            .to_string()
            .contains("radius"));
        let r = Rounded::new(b, 0.5f32).unwrap();
        assert_eq!((*r.inner(), r.radius()), (b, 0.5));
    }
}
