//! Half-space: the solid side of a plane.

use super::Plane;
use crate::math::{Real, Vector};

/// The closed solid half-space behind a plane: the points with `n · p ≤ d`
/// (`signed_distance ≤ 0`). Its surface is the plane; its outward normal is the plane's.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct HalfSpace<V: Vector> {
    /// The boundary plane; the solid lies behind it.
    pub plane: Plane<V>,
}

impl<V: Vector> HalfSpace<V> {
    /// The solid side behind `plane`.
    #[inline]
    pub fn new(plane: Plane<V>) -> Self {
        Self { plane }
    }

    /// Point in half-space: the plane itself counts as inside. False for NaN.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // The solid below the line y = 1 (behind its normal +y).
    /// let ground = HalfSpace::new(Plane::new(Vec2::Y, 1.0)?);
    /// assert!(ground.contains_point(Vec2::new(50.0, -3.0)));
    /// assert!(ground.contains_point(Vec2::new(0.0, 1.0))); // the boundary
    /// assert!(!ground.contains_point(Vec2::new(0.0, 1.5)));
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn contains_point(&self, p: V) -> bool {
        self.plane.signed_distance(p) <= V::Scalar::ZERO
    }
}
