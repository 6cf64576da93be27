//! Cone (3D only): axis along the local y axis, apex up, centred on the origin.

use super::cylinder_3d::radial_offset;
use super::error::{check_extent, ShapeError};
use crate::algo::support::SupportMap;
use crate::math::{Real, Vector, Vector3};

/// A solid cone with its apex at `(0, half_height, 0)` and its base disc of
/// `radius` in the plane `y = -half_height`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Cone<R: Real> {
    half_height: R,
    radius: R,
}

impl<R: Real> Cone<R> {
    /// The cone of `half_height` and base `radius`. Zero values are allowed (a
    /// disc, a segment, a point).
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`], [`ShapeError::Negative`] or [`ShapeError::TooLarge`]
    /// (beyond [`Real::MAX_COORD`]) naming the bad field.
    pub fn new(half_height: R, radius: R) -> Result<Self, ShapeError> {
        Ok(Self {
            half_height: check_extent("Cone", "half_height", half_height)?,
            radius: check_extent("Cone", "radius", radius)?,
        })
    }

    /// Half the height along local `y`.
    #[inline]
    pub fn half_height(&self) -> R {
        self.half_height
    }

    /// Radius of the base disc.
    #[inline]
    pub fn radius(&self) -> R {
        self.radius
    }

    /// Point in cone: the boundary counts as inside; false for NaN.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // Base of radius 1 at y = -1, apex at y = 1: radius 0.5 at y = 0.
    /// let cone = Cone::new(1.0, 1.0)?;
    /// assert!(cone.contains_point(Vec3::new(0.0, 0.0, 0.5)));
    /// assert!(!cone.contains_point(Vec3::new(0.0, 0.0, 0.6)));
    /// # Ok(())
    /// # }
    /// ```
    pub fn contains_point(&self, p: R::V3) -> bool {
        let h = self.half_height;
        let y = p.get(1);
        if !(y >= -h && y <= h) {
            return false;
        }
        // The radius shrinks linearly from `radius` at the base to 0 at the apex.
        let r_at_y = if h > R::ZERO {
            self.radius * (h - y) / (h + h)
        } else {
            self.radius
        };
        p.get(0) * p.get(0) + p.get(2) * p.get(2) <= r_at_y * r_at_y
    }

    /// The farthest point along `dir` (a support mapping): the apex or the base
    /// rim point in the radial direction of `dir`, whichever reaches farther
    /// (the apex on ties).
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let cone = Cone::new(1.0, 1.0)?;
    /// assert_eq!(cone.support_point(Vec3::Y), Vec3::new(0.0, 1.0, 0.0)); // the apex
    /// let rim = cone.support_point(Vec3::new(0.0, -1.0, 1.0));
    /// assert!((rim - Vec3::new(0.0, -1.0, 1.0)).length() < 1e-6); // the base rim
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn support_point(&self, dir: R::V3) -> R::V3 {
        let h = self.half_height;
        let apex = R::V3::new(R::ZERO, h, R::ZERO);
        let (x, z) = radial_offset(dir, self.radius);
        let rim = R::V3::new(x, -h, z);
        if rim.dot(dir) > apex.dot(dir) {
            rim
        } else {
            apex
        }
    }
}

impl<R: Real> SupportMap<R::V3> for Cone<R> {
    #[inline]
    fn local_support(&self, dir: R::V3) -> R::V3 {
        self.support_point(dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    // Negative and NaN dimensions are refused by name.
    #[test]
    fn rejects_bad_input() {
        assert!(Cone::<f32>::new(-1.0, 1.0)
            .unwrap_err()
            .to_string()
            .contains("half_height"));
        assert!(Cone::<f64>::new(1.0, f64::INFINITY).is_err());
    }

    // Apex upward, rim sideways and downward.
    #[test]
    fn support_points() {
        let c = Cone::<f64>::new(1.0, 1.0).unwrap();
        assert_eq!(c.support_point(DVec3::Y), DVec3::Y);
        assert_eq!(
            c.support_point(DVec3::new(1.0, -0.1, 0.0)),
            DVec3::new(1.0, -1.0, 0.0)
        );
        assert_eq!(c.support_point(-DVec3::Y).y, -1.0);
        assert!(c.contains_point(DVec3::new(0.5, 0.0, 0.0)));
        assert!(!c.contains_point(DVec3::new(0.5, 0.5, 0.0)));
    }
}
