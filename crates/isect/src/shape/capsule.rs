//! Capsule: a segment swept by a ball (a stadium in 2D).

use super::error::{check_extent, ShapeError};
use super::ray::Segment;
use crate::algo::support::SupportMap;
use crate::math::{Real, Vector};

/// The set of points within `radius` of the segment `a → b`: a stadium in 2D, a
/// capsule in 3D. A zero-length segment is a ball; a zero radius is a segment.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Capsule<V: Vector> {
    segment: Segment<V>,
    radius: V::Scalar,
}

impl<V: Vector> Capsule<V> {
    /// The capsule of `radius` around the segment `a → b`.
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] for a non-finite end point or radius,
    /// [`ShapeError::Negative`] for a negative radius, [`ShapeError::TooLarge`] for a value beyond
    /// [`Real::MAX_COORD`](crate::math::Real::MAX_COORD).
    pub fn new(a: V, b: V, radius: V::Scalar) -> Result<Self, ShapeError> {
        let segment = Segment::new(a, b).map_err(|e| match e {
            ShapeError::TooLarge {
                field,
                index,
                value,
                limit,
                ..
            } => ShapeError::TooLarge {
                shape: "Capsule",
                field,
                index,
                value,
                limit,
            },
            _ => ShapeError::NotFinite {
                shape: "Capsule",
                field: "segment",
            },
        })?;
        Ok(Self {
            segment,
            radius: check_extent("Capsule", "radius", radius)?,
        })
    }

    /// The capsule centred on the origin whose segment runs along axis `axis`
    /// (`0` = x, `1` = y, `2` = z) from `-half_height` to `+half_height`.
    ///
    /// # Errors
    /// As [`Capsule::new`], plus [`ShapeError::Negative`] for a negative half-height
    /// and [`ShapeError::OutOfRange`] for `axis >= DIM`.
    pub fn aligned(
        axis: usize,
        half_height: V::Scalar,
        radius: V::Scalar,
    ) -> Result<Self, ShapeError> {
        if axis >= V::DIM {
            return Err(ShapeError::OutOfRange {
                shape: "Capsule",
                field: "axis",
                value: axis as f64,
                range: "[0, DIM)",
            });
        }
        let h = check_extent("Capsule", "half_height", half_height)?;
        let tip = V::unit_axis(axis) * h;
        Self::new(-tip, tip, radius)
    }

    /// The core segment.
    #[inline]
    pub fn segment(&self) -> Segment<V> {
        self.segment
    }

    /// The radius (≥ 0).
    #[inline]
    pub fn radius(&self) -> V::Scalar {
        self.radius
    }

    /// Point in capsule: the boundary counts as inside; false for NaN.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let c = Capsule::new(Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0), 0.5)?;
    /// assert!(c.contains_point(Vec2::new(0.0, 1.5))); // the top of the upper cap
    /// assert!(c.contains_point(Vec2::new(0.4, 0.0)));
    /// assert!(!c.contains_point(Vec2::new(0.4, 1.4))); // beside the cap
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn contains_point(&self, p: V) -> bool {
        let (q, _) = self.segment.closest_point(p);
        q.distance_squared(p) <= self.radius * self.radius
    }

    /// The midpoint of the core segment.
    #[inline]
    pub fn center(&self) -> V {
        (self.segment.a + self.segment.b) * V::Scalar::HALF
    }
}

impl<V: Vector> SupportMap<V> for Capsule<V> {
    #[inline]
    fn local_support(&self, dir: V) -> V {
        let core = self.local_core_support(dir);
        match dir.try_normalize() {
            Some(unit) => core + unit * self.radius,
            None => core,
        }
    }
    #[inline]
    fn margin(&self) -> V::Scalar {
        self.radius
    }
    #[inline]
    fn local_core_support(&self, dir: V) -> V {
        self.segment.local_support(dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, Vec3};

    // A negative radius and a NaN end point are refused by name.
    #[test]
    fn rejects_bad_input() {
        let err = Capsule::new(Vec3::ZERO, Vec3::X, -1.0).unwrap_err();
        assert!(err.to_string().contains("radius"));
        assert!(Capsule::new(Vec3::NAN, Vec3::X, 1.0).is_err());
        assert!(Capsule::<Vec3>::aligned(3, 1.0, 1.0).is_err());
    }

    // The rounded ends and the boundary belong to the capsule.
    #[test]
    fn contains_boundary() {
        let c = Capsule::<DVec2>::aligned(0, 1.0, 0.5).unwrap();
        assert!(c.contains_point(DVec2::new(1.5, 0.0)));
        assert!(c.contains_point(DVec2::new(0.0, 0.5)));
        assert!(!c.contains_point(DVec2::new(1.5, 0.1)));
        assert!(!c.contains_point(DVec2::new(f64::NAN, 0.0)));
        assert_eq!(c.center(), DVec2::ZERO);
    }
}
