//! Ball: a circle in 2D, a sphere in 3D.

use super::error::{check_coord, check_extent, check_finite, check_non_negative, ShapeError};
use crate::math::{Isometry, Vector};

/// A solid ball (circle in 2D, sphere in 3D). A zero radius is a point.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Ball<V: Vector> {
    center: V,
    radius: V::Scalar,
}

impl<V: Vector> Ball<V> {
    /// The ball of `radius` around `center`.
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] for a non-finite centre or radius,
    /// [`ShapeError::Negative`] for a negative radius, [`ShapeError::TooLarge`] for a
    /// centre coordinate or radius beyond
    /// [`Real::MAX_COORD`](crate::math::Real::MAX_COORD).
    pub fn new(center: V, radius: V::Scalar) -> Result<Self, ShapeError> {
        Ok(Self {
            center: check_coord("Ball", "center", center)?,
            radius: check_extent("Ball", "radius", radius)?,
        })
    }

    /// The ball without the magnitude limit of [`new`](Self::new) (a finite centre, a
    /// radius neither negative nor NaN): for the balls the queries build from placed
    /// shapes and query points, whose coordinates reach a few `MAX_COORD`.
    pub(crate) fn placed(center: V, radius: V::Scalar) -> Result<Self, ShapeError> {
        Ok(Self {
            center: check_finite("Ball", "center", center)?,
            radius: check_non_negative("Ball", "radius", radius)?,
        })
    }

    /// Centre.
    #[inline]
    pub fn center(&self) -> V {
        self.center
    }

    /// The centre placed at `pose`: the pose's translation for a ball centred on its
    /// frame's origin (the usual one), which saves the kernels a rotation.
    #[inline]
    pub(crate) fn centre_at(&self, pose: &V::Pose) -> V {
        match self.center == V::ZERO {
            true => pose.translation(),
            false => pose.transform_point(self.center),
        }
    }

    /// Radius (≥ 0).
    #[inline]
    pub fn radius(&self) -> V::Scalar {
        self.radius
    }

    /// The same ball moved by `offset`.
    #[inline]
    pub fn translated(&self, offset: V) -> Self {
        Self {
            center: self.center + offset,
            radius: self.radius,
        }
    }

    /// Point in ball: the boundary counts as inside. False for NaN.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let ball = Ball::new(Vec3::new(1.0, 2.0, 3.0), 2.0)?;
    /// assert!(ball.contains_point(Vec3::new(1.0, 4.0, 3.0))); // on the surface
    /// assert!(!ball.contains_point(Vec3::new(2.5, 3.5, 3.0))); // 1.5·√2 ≈ 2.12 away
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn contains_point(&self, p: V) -> bool {
        p.distance_squared(self.center) <= self.radius * self.radius
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, Vec3};

    // A negative radius is refused with its value.
    #[test]
    fn rejects_negative_radius() {
        let err = Ball::new(Vec3::ZERO, -1.0).unwrap_err();
        assert_eq!(
            err,
            ShapeError::Negative {
                shape: "Ball",
                field: "radius",
                value: -1.0
            }
        );
        assert!(Ball::new(Vec3::ZERO, f32::NAN).is_err());
        assert!(Ball::new(Vec3::new(f32::INFINITY, 0.0, 0.0), 1.0).is_err());
    }

    // Boundary is inside; a zero-radius ball holds only its centre.
    #[test]
    fn contains_boundary_point() {
        let b = Ball::new(DVec2::ZERO, 2.0).unwrap();
        assert!(b.contains_point(DVec2::new(2.0, 0.0)));
        assert!(!b.contains_point(DVec2::new(2.0, 1e-6)));
        let p = Ball::new(DVec2::ONE, 0.0).unwrap();
        assert!(p.contains_point(DVec2::ONE));
        assert!(!p.contains_point(DVec2::new(f64::NAN, 1.0)));
    }
}
