//! Rays, segments and ray hits.

use super::error::{check_coord, check_finite, ShapeError};
use crate::math::{Real, Vector};

/// The ray `origin + t · dir`. `dir` need not be unit; `t` is in units of `dir`.
/// Every ray query also takes a `max_t` (which may be infinite).
///
/// A zero `dir` is allowed: such a ray hits a solid shape at `t = 0` when its origin
/// is inside, and nothing otherwise.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Ray<V: Vector> {
    /// Where the ray starts (`t = 0`).
    pub origin: V,
    /// Direction; its length is the unit of `t`.
    pub dir: V,
}

impl<V: Vector> Ray<V> {
    /// The ray from `origin` along `dir`.
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] when `origin` or `dir` holds NaN or infinity.
    pub fn new(origin: V, dir: V) -> Result<Self, ShapeError> {
        Ok(Self {
            origin: check_finite("Ray", "origin", origin)?,
            dir: check_finite("Ray", "dir", dir)?,
        })
    }

    /// The point at parameter `t`.
    #[inline]
    pub fn point_at(&self, t: V::Scalar) -> V {
        self.origin + self.dir * t
    }

    /// True when origin and direction are finite (rays built with the public fields
    /// may not be; queries answer "no hit" for those).
    #[inline]
    pub fn is_finite(&self) -> bool {
        // One test for every component: `x · 0` is `±0` for a finite `x` and NaN for
        // an infinite or NaN one, so the sum is zero exactly when all are finite (a few
        // multiply-adds instead of a compare and branch per component).
        self.origin.dot(V::ZERO) + self.dir.dot(V::ZERO) == V::Scalar::ZERO
    }
}

/// The closed segment from `a` to `b`. As a ray it is `(a, b − a)` with `max_t = 1`.
/// A segment with `a == b` is a point.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Segment<V: Vector> {
    /// Start point.
    pub a: V,
    /// End point.
    pub b: V,
}

impl<V: Vector> Segment<V> {
    /// The segment from `a` to `b`.
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] when an end point holds NaN or infinity,
    /// [`ShapeError::TooLarge`] for a value beyond
    /// [`Real::MAX_COORD`](crate::math::Real::MAX_COORD).
    pub fn new(a: V, b: V) -> Result<Self, ShapeError> {
        Ok(Self {
            a: check_coord("Segment", "a", a)?,
            b: check_coord("Segment", "b", b)?,
        })
    }

    /// The segment as the ray `(a, b − a)`, to be cast with `max_t = 1`.
    #[inline]
    pub fn as_ray(&self) -> Ray<V> {
        Ray {
            origin: self.a,
            dir: self.b - self.a,
        }
    }

    /// `b − a`.
    #[inline]
    pub fn direction(&self) -> V {
        self.b - self.a
    }

    /// Length.
    #[inline]
    pub fn length(&self) -> V::Scalar {
        self.a.distance(self.b)
    }

    /// The point of the segment closest to `p` and its parameter in `[0, 1]`.
    /// A degenerate segment answers its start point with parameter 0.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let s = Segment::new(Vec2::ZERO, Vec2::new(4.0, 0.0))?;
    /// assert_eq!(s.closest_point(Vec2::new(1.0, 3.0)), (Vec2::new(1.0, 0.0), 0.25));
    /// assert_eq!(s.closest_point(Vec2::new(9.0, 1.0)), (Vec2::new(4.0, 0.0), 1.0)); // clamped
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn closest_point(&self, p: V) -> (V, V::Scalar) {
        let d = self.direction();
        let len2 = d.length_squared();
        if len2 <= V::Scalar::ZERO {
            return (self.a, V::Scalar::ZERO);
        }
        let t = ((p - self.a).dot(d) / len2).clamp_to(V::Scalar::ZERO, V::Scalar::ONE);
        (self.a + d * t, t)
    }
}

/// Where a ray meets a surface.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RayHit<V: Vector> {
    /// Ray parameter of the hit, in `[0, max_t]`.
    pub t: V::Scalar,
    /// The hit point, `origin + t · dir`.
    pub point: V,
    /// Unit surface normal at the hit, facing the ray (`normal · dir ≤ 0`).
    /// Zero when the ray starts inside a solid shape (`t = 0`): no surface was crossed.
    pub normal: V,
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    // A NaN origin is refused by name.
    #[test]
    fn rejects_nan() {
        let err = Ray::new(Vec3::new(f32::NAN, 0.0, 0.0), Vec3::X).unwrap_err();
        assert!(err.to_string().contains("origin"));
        assert!(Segment::new(Vec3::ZERO, Vec3::splat(f32::INFINITY)).is_err());
    }

    // is_finite: every component of origin and direction, in 2D and 3D, f32 and f64,
    // for +∞, −∞ and NaN; ±0, huge and tiny finite values are finite.
    #[test]
    fn is_finite_sees_every_component() {
        fn check<V: Vector>() {
            let ok = Ray {
                origin: V::splat(V::Scalar::MAX),
                dir: V::splat(-V::Scalar::ZERO).with(0, V::Scalar::EPSILON),
            };
            assert!(ok.is_finite());
            let bad = [
                V::Scalar::INFINITY,
                V::Scalar::NEG_INFINITY,
                V::Scalar::ZERO / V::Scalar::ZERO,
            ];
            for i in 0..V::DIM {
                for x in bad {
                    let mut r = ok;
                    r.origin = r.origin.with(i, x);
                    assert!(!r.is_finite());
                    let mut r = ok;
                    r.dir = r.dir.with(i, x);
                    assert!(!r.is_finite());
                }
            }
        }
        check::<glam::Vec2>();
        check::<Vec3>();
        check::<glam::DVec2>();
        check::<glam::DVec3>();
    }

    // Closest point clamps to the ends and survives a zero-length segment.
    #[test]
    fn segment_closest_point() {
        let s = Segment::new(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0)).unwrap();
        assert_eq!(s.closest_point(Vec3::new(1.0, 5.0, 0.0)), (Vec3::X, 0.5));
        assert_eq!(s.closest_point(Vec3::new(-3.0, 0.0, 0.0)).1, 0.0);
        assert_eq!(s.closest_point(Vec3::new(9.0, 0.0, 0.0)).1, 1.0);
        let p = Segment::new(Vec3::ONE, Vec3::ONE).unwrap();
        assert_eq!(p.closest_point(Vec3::ZERO), (Vec3::ONE, 0.0));
        assert_eq!(s.as_ray().point_at(1.0), s.b);
    }
}
