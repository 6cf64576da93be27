//! Cylinder (3D only): axis along the local y axis, centred on the origin.

use super::error::{check_extent, ShapeError};
use crate::algo::support::SupportMap;
use crate::math::{Real, Vector, Vector3};

/// A solid cylinder centred on the origin with its axis along local `y`, from
/// `y = -half_height` to `y = +half_height`, of `radius`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Cylinder<R: Real> {
    half_height: R,
    radius: R,
}

impl<R: Real> Cylinder<R> {
    /// The cylinder of `half_height` and `radius`. Zero values are allowed (a disc,
    /// a segment, a point).
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`], [`ShapeError::Negative`] or [`ShapeError::TooLarge`]
    /// (beyond [`Real::MAX_COORD`]) naming the bad field.
    pub fn new(half_height: R, radius: R) -> Result<Self, ShapeError> {
        Ok(Self {
            half_height: check_extent("Cylinder", "half_height", half_height)?,
            radius: check_extent("Cylinder", "radius", radius)?,
        })
    }

    /// Half the height along local `y`.
    #[inline]
    pub fn half_height(&self) -> R {
        self.half_height
    }

    /// Radius of the circular cross-section.
    #[inline]
    pub fn radius(&self) -> R {
        self.radius
    }

    /// Point in cylinder: the boundary counts as inside; false for NaN.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let can = Cylinder::new(1.0, 0.5)?; // y in [-1, 1], radius 0.5 about the y axis
    /// assert!(can.contains_point(Vec3::new(0.3, 0.9, 0.3))); // 0.42 from the axis
    /// assert!(!can.contains_point(Vec3::new(0.4, 0.0, 0.4)));
    /// assert!(!can.contains_point(Vec3::new(0.0, 1.1, 0.0)));
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn contains_point(&self, p: R::V3) -> bool {
        let radial = p.get(0) * p.get(0) + p.get(2) * p.get(2);
        p.get(1).abs() <= self.half_height && radial <= self.radius * self.radius
    }

    /// The farthest point along `dir` (a support mapping): the rim point in the
    /// radial direction of `dir` on the cap facing `dir`. When `dir` is parallel to
    /// the axis the cap's centre is returned.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let can = Cylinder::new(1.0, 0.5)?;
    /// let p = can.support_point(Vec3::new(1.0, 1.0, 0.0));
    /// assert!((p - Vec3::new(0.5, 1.0, 0.0)).length() < 1e-6); // the top rim towards +x
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn support_point(&self, dir: R::V3) -> R::V3 {
        let y = self.half_height.copysign(dir.get(1));
        let (x, z) = radial_offset(dir, self.radius);
        R::V3::new(x, y, z)
    }
}

/// The point at distance `radius` from the y axis in the xz-direction of `dir`, or
/// the axis itself when `dir` has no xz part.
#[inline]
pub(crate) fn radial_offset<V: Vector3>(dir: V, radius: V::Scalar) -> (V::Scalar, V::Scalar) {
    let len = (dir.get(0) * dir.get(0) + dir.get(2) * dir.get(2)).sqrt();
    let scale = radius / len;
    if len > V::Scalar::ZERO && scale.is_finite() {
        (dir.get(0) * scale, dir.get(2) * scale)
    } else {
        (V::Scalar::ZERO, V::Scalar::ZERO)
    }
}

impl<R: Real> SupportMap<R::V3> for Cylinder<R> {
    #[inline]
    fn local_support(&self, dir: R::V3) -> R::V3 {
        self.support_point(dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec3, Vec3};

    // Negative and NaN dimensions are refused by name.
    #[test]
    fn rejects_bad_input() {
        let err = Cylinder::<f32>::new(1.0, -2.0).unwrap_err();
        assert!(err.to_string().contains("radius"));
        assert!(Cylinder::<f64>::new(f64::NAN, 1.0).is_err());
    }

    // Support points: a rim point on the facing cap; a zero direction stays finite.
    #[test]
    fn support_points() {
        let c = Cylinder::<f64>::new(2.0, 1.0).unwrap();
        let p = c.support_point(DVec3::new(3.0, 1.0, 4.0));
        assert!((p - DVec3::new(0.6, 2.0, 0.8)).length() < 1e-12);
        assert_eq!(c.support_point(DVec3::new(0.0, -1.0, 0.0)).y, -2.0);
        assert!(Cylinder::<f32>::new(1.0, 1.0)
            .unwrap()
            .support_point(Vec3::ZERO)
            .is_finite());
        assert!(c.contains_point(DVec3::new(1.0, 2.0, 0.0)));
        assert!(!c.contains_point(DVec3::new(0.8, 0.0, 0.8)));
    }
}
