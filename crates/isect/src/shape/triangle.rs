//! Triangle, in 2D or 3D.

use super::error::{check_coord, ShapeError};
use crate::math::{Real, Vector, Vector3};

/// The closed triangle `a, b, c`. Degenerate (flat) triangles are allowed: meshes
/// have them, and every query answers for them as for the segment or point they are.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Triangle<V: Vector> {
    /// First vertex.
    pub a: V,
    /// Second vertex.
    pub b: V,
    /// Third vertex.
    pub c: V,
}

impl<V: Vector> Triangle<V> {
    /// The triangle `a, b, c`.
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] when a vertex holds NaN or infinity,
    /// [`ShapeError::TooLarge`] for a value beyond
    /// [`Real::MAX_COORD`](crate::math::Real::MAX_COORD).
    pub fn new(a: V, b: V, c: V) -> Result<Self, ShapeError> {
        Ok(Self {
            a: check_coord("Triangle", "a", a)?,
            b: check_coord("Triangle", "b", b)?,
            c: check_coord("Triangle", "c", c)?,
        })
    }

    /// The three vertices.
    #[inline]
    pub fn vertices(&self) -> [V; 3] {
        [self.a, self.b, self.c]
    }

    /// Centroid.
    #[inline]
    pub fn centroid(&self) -> V {
        (self.a + self.b + self.c) / V::splat(V::Scalar::from_f64(3.0))
    }
}

impl<V: Vector3> Triangle<V> {
    /// `(b − a) × (c − a)`: normal scaled by twice the area (zero when flat).
    #[inline]
    pub fn scaled_normal(&self) -> V {
        (self.b - self.a).cross(self.c - self.a)
    }

    /// Unit normal by the right-hand rule, or `None` for a flat triangle.
    #[inline]
    pub fn normal(&self) -> Option<V> {
        self.scaled_normal().try_normalize()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    // A flat triangle is accepted but has no normal.
    #[test]
    fn flat_triangle_has_no_normal() {
        let t = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::X * 2.0).unwrap();
        assert_eq!(t.normal(), None);
        let u = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y).unwrap();
        assert_eq!(u.normal(), Some(Vec3::Z));
        assert_eq!(u.centroid(), Vec3::new(1.0 / 3.0, 1.0 / 3.0, 0.0));
        assert!(Triangle::new(Vec3::ZERO, Vec3::X, Vec3::NAN).is_err());
    }
}
