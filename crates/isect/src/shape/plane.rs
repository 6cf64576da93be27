//! Plane (a line in 2D) in the textbook form `normal · p = d` of seeds 000 and 002,
//! with an explicit conversion from the PhysX form `n · p + w = 0` of seed 004.

use super::error::{check_finite, check_finite_scalar, ShapeError};
use crate::math::{Real, Vector, Vector3};

/// The plane `normal · p = d` with a unit `normal`: `d` is the signed distance from
/// the origin. It is also a half-space: the solid side is where
/// `normal · p − d ≤ 0` (behind the plane), the front side where it is positive.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Plane<V: Vector> {
    normal: V,
    d: V::Scalar,
}

impl<V: Vector> Plane<V> {
    /// The plane `normal · p = d`. A non-unit `normal` is normalised, and `d`
    /// divided by its length, so that the set of points is unchanged.
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] for NaN or infinite input (or an offset that
    /// overflows once divided by a tiny normal's length), [`ShapeError::ZeroVector`]
    /// for a zero normal.
    pub fn new(normal: V, d: V::Scalar) -> Result<Self, ShapeError> {
        check_finite("Plane", "normal", normal)?;
        check_finite_scalar("Plane", "d", d)?;
        // Divided by its largest component first, the normal's squared length
        // neither underflows (tiny normals) nor overflows (huge ones).
        let largest = normal.abs().max_element();
        if largest == V::Scalar::ZERO {
            return Err(ShapeError::ZeroVector {
                shape: "Plane",
                field: "normal",
            });
        }
        let scaled = normal / largest;
        let len = scaled.length();
        Ok(Self {
            normal: scaled / len,
            d: check_finite_scalar("Plane", "d", d / largest / len)?,
        })
    }

    /// [`Plane::new`], but a `normal` already unit to rounding (squared length within
    /// [`ROTATION_KEEP_ULPS`](crate::math::ROTATION_KEEP_ULPS) of 1) is kept bit for
    /// bit, as poses keep such rotations: a plane read back from a file is the plane
    /// written (normalising again could move the normal by an ulp).
    ///
    /// # Errors
    /// As [`Plane::new`].
    #[cfg(feature = "serde")]
    pub(crate) fn new_keeping_unit(normal: V, d: V::Scalar) -> Result<Self, ShapeError> {
        let plane = Self::new(normal, d)?;
        let keep = V::Scalar::from_f64(crate::math::ROTATION_KEEP_ULPS) * V::Scalar::EPSILON;
        if (normal.length_squared() - V::Scalar::ONE).abs() <= keep {
            return Ok(Self { normal, d });
        }
        Ok(plane)
    }

    /// The plane through `point` with normal `normal` (normalised).
    ///
    /// # Errors
    /// As [`Plane::new`].
    pub fn from_point_normal(point: V, normal: V) -> Result<Self, ShapeError> {
        check_finite("Plane", "point", point)?;
        let unit = Self::new(normal, V::Scalar::ZERO)?.normal;
        Self::new(unit, unit.dot(point))
    }

    /// The PhysX form `n · p + w = 0` (seed 004), converted: `d = −w`.
    ///
    /// # Errors
    /// As [`Plane::new`].
    pub fn from_physx(n: V, w: V::Scalar) -> Result<Self, ShapeError> {
        Self::new(n, -w)
    }

    /// The unit normal; it points to the front (empty) side.
    #[inline]
    pub fn normal(&self) -> V {
        self.normal
    }

    /// The offset `d` of `normal · p = d`.
    #[inline]
    pub fn d(&self) -> V::Scalar {
        self.d
    }

    /// The PhysX offset `w` of `n · p + w = 0`: `−d`.
    #[inline]
    pub fn physx_w(&self) -> V::Scalar {
        -self.d
    }

    /// Signed distance `normal · p − d`: positive in front, negative behind.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let floor = Plane::new(Vec3::Y, 2.0)?; // y = 2
    /// assert_eq!(floor.signed_distance(Vec3::new(5.0, 7.0, 1.0)), 5.0);
    /// assert_eq!(floor.signed_distance(Vec3::new(0.0, -1.0, 0.0)), -3.0); // behind
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn signed_distance(&self, p: V) -> V::Scalar {
        self.normal.dot(p) - self.d
    }

    /// The point of the plane closest to `p`.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let wall = Plane::new(Vec2::X, 3.0)?; // x = 3
    /// assert_eq!(wall.project_point(Vec2::new(7.0, 2.0)), Vec2::new(3.0, 2.0));
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn project_point(&self, p: V) -> V {
        p - self.normal * self.signed_distance(p)
    }

    /// Seed 004's `contains`: `|signed_distance(p)| ≤ tolerance` (tolerance in units of
    /// length). False for NaN.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let floor = Plane::new(Vec3::Y, 0.0)?;
    /// assert!(floor.contains_point(Vec3::new(3.0, 1e-4, 2.0), 1e-3));
    /// assert!(!floor.contains_point(Vec3::new(3.0, 1e-2, 2.0), 1e-3));
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn contains_point(&self, p: V, tolerance: V::Scalar) -> bool {
        self.signed_distance(p).abs() <= tolerance
    }

    /// The same plane facing the other way.
    #[inline]
    pub fn flipped(&self) -> Self {
        Self {
            normal: -self.normal,
            d: -self.d,
        }
    }
}

impl<V: Vector3> Plane<V> {
    /// The plane through three points, with normal `(b − a) × (c − a)` (counter-clockwise
    /// seen from the front).
    ///
    /// # Errors
    /// [`ShapeError::ZeroVector`] when the points are collinear or coincide.
    pub fn from_points(a: V, b: V, c: V) -> Result<Self, ShapeError> {
        check_finite("Plane", "a", a)?;
        check_finite("Plane", "b", b)?;
        check_finite("Plane", "c", c)?;
        Self::from_point_normal(a, (b - a).cross(c - a))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec3, Vec2, Vec3};

    // Normalisation keeps the point set: 2x = 4 is x = 2.
    #[test]
    fn normalises_normal_and_offset() {
        let p = Plane::new(Vec3::new(2.0, 0.0, 0.0), 4.0).unwrap();
        assert_eq!(p.normal(), Vec3::X);
        assert_eq!(p.d(), 2.0);
        assert_eq!(p.signed_distance(Vec3::new(5.0, 1.0, 1.0)), 3.0);
    }

    // The PhysX form n·p + w = 0 with w = -2 is the plane n·p = 2.
    #[test]
    fn physx_form_converts_sign() {
        let p = Plane::from_physx(DVec3::Y, -2.0).unwrap();
        assert_eq!(p.d(), 2.0);
        assert_eq!(p.physx_w(), -2.0);
        assert!(p.contains_point(DVec3::new(7.0, 2.0, -1.0), 0.0));
    }

    // Zero normals and collinear points are refused.
    #[test]
    fn rejects_degenerate() {
        assert!(matches!(
            Plane::new(Vec2::ZERO, 1.0),
            Err(ShapeError::ZeroVector { .. })
        ));
        assert!(Plane::from_points(Vec3::ZERO, Vec3::X, Vec3::X * 2.0).is_err());
        assert!(Plane::new(Vec2::X, f32::NAN).is_err());
        // A normal whose squared length overflows is still a direction; an offset
        // that overflows once divided by a tiny normal's length is refused.
        let huge = Plane::new(Vec2::splat(f32::MAX), 0.0).expect("a direction");
        assert!((huge.normal().length() - 1.0).abs() <= 2.0 * f32::EPSILON);
        assert!(Plane::new(Vec2::splat(1e-30), 1e10).is_err());
    }

    // Plane through three points faces by the right-hand rule.
    #[test]
    fn from_points_orientation() {
        let p = Plane::from_points(Vec3::Z, Vec3::Z + Vec3::X, Vec3::Z + Vec3::Y).unwrap();
        assert_eq!(p.normal(), Vec3::Z);
        assert_eq!(p.d(), 1.0);
        assert_eq!(
            p.project_point(Vec3::new(1.0, 2.0, 9.0)),
            Vec3::new(1.0, 2.0, 1.0)
        );
    }
}
