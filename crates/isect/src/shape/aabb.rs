//! Axis-aligned bounding box, in 2D or 3D.

use super::error::{check_coord, check_finite, ShapeError};
use crate::math::{Real, Vector};

/// An axis-aligned box `[min, max]`, closed: its boundary belongs to it.
///
/// Fields are public for speed in broad-phase loops; [`Aabb::new`] is the validating
/// constructor. Queries on a box whose `min > max` on some axis treat it as empty.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Aabb<V: Vector> {
    /// Lower corner.
    pub min: V,
    /// Upper corner.
    pub max: V,
}

impl<V: Vector> Aabb<V> {
    /// The box `[min, max]`.
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] for NaN or infinite corners,
    /// [`ShapeError::TooLarge`] for a coordinate beyond
    /// [`Real::MAX_COORD`](crate::math::Real::MAX_COORD),
    /// [`ShapeError::MinAboveMax`] when `min[i] > max[i]` on some axis.
    pub fn new(min: V, max: V) -> Result<Self, ShapeError> {
        check_coord("Aabb", "min", min)?;
        check_coord("Aabb", "max", max)?;
        Self::ordered(min, max)
    }

    /// The box `[min, max]` of finite corners, of any magnitude: bounding boxes of
    /// placed shapes reach beyond `MAX_COORD` (the broad phase checks them with this).
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] for NaN or infinite corners,
    /// [`ShapeError::MinAboveMax`] when `min[i] > max[i]` on some axis.
    pub fn ordered(min: V, max: V) -> Result<Self, ShapeError> {
        // The common case in one branch (the broad phase checks every moved box).
        if min.is_finite() & max.is_finite() && min.all_le(max) {
            return Ok(Self { min, max });
        }
        check_finite("Aabb", "min", min)?;
        check_finite("Aabb", "max", max)?;
        if let Some(axis) = (0..V::DIM).find(|&i| min.get(i) > max.get(i)) {
            return Err(ShapeError::MinAboveMax {
                shape: "Aabb",
                axis,
                min: min.get(axis).to_f64(),
                max: max.get(axis).to_f64(),
            });
        }
        Ok(Self { min, max })
    }

    /// The box centred on `center` with half-widths `half_extents`.
    ///
    /// # Errors
    /// As [`Aabb::new`]; a negative half-extent is [`ShapeError::MinAboveMax`].
    pub fn from_center(center: V, half_extents: V) -> Result<Self, ShapeError> {
        check_finite("Aabb", "center", center)?;
        check_finite("Aabb", "half_extents", half_extents)?;
        Self::new(center - half_extents, center + half_extents)
    }

    /// The smallest box holding every point.
    ///
    /// # Errors
    /// [`ShapeError::TooFewPoints`] for an empty slice, [`ShapeError::NotFinite`]
    /// for a non-finite point, [`ShapeError::TooLarge`] for one beyond
    /// [`Real::MAX_COORD`](crate::math::Real::MAX_COORD).
    pub fn from_points(points: &[V]) -> Result<Self, ShapeError> {
        let (first, rest) = points.split_first().ok_or(ShapeError::TooFewPoints {
            shape: "Aabb",
            needed: 1,
            got: 0,
        })?;
        let mut aabb = Self {
            min: check_coord("Aabb", "points", *first)?,
            max: *first,
        };
        for &p in rest {
            check_coord("Aabb", "points", p)?;
            aabb.min = aabb.min.min(p);
            aabb.max = aabb.max.max(p);
        }
        Ok(aabb)
    }

    /// Centre point.
    #[inline]
    pub fn center(&self) -> V {
        (self.min + self.max) * V::Scalar::HALF
    }

    /// Half-widths along each axis.
    #[inline]
    pub fn half_extents(&self) -> V {
        (self.max - self.min) * V::Scalar::HALF
    }

    /// Full widths along each axis.
    #[inline]
    pub fn extents(&self) -> V {
        self.max - self.min
    }

    /// Point in the box (seed 003): the boundary counts as inside. False for NaN.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let room = Aabb::new(Vec3::ZERO, Vec3::new(4.0, 3.0, 5.0))?;
    /// assert!(room.contains_point(Vec3::new(4.0, 1.0, 2.0))); // on a wall counts
    /// assert!(!room.contains_point(Vec3::new(2.0, 3.5, 2.0)));
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn contains_point(&self, p: V) -> bool {
        self.min.all_le(p) && p.all_le(self.max)
    }

    /// AABB–AABB overlap (seeds 001 and 003): true when the closed boxes share a
    /// point, so touching faces, edges or corners count. False when either box holds NaN.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let a = Aabb::new(Vec2::ZERO, Vec2::ONE)?;
    /// assert!(a.intersects(&Aabb::new(Vec2::new(1.0, 0.5), Vec2::new(2.0, 2.0))?)); // touching
    /// assert!(!a.intersects(&Aabb::new(Vec2::new(1.5, 0.0), Vec2::new(2.0, 1.0))?));
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn intersects(&self, other: &Self) -> bool {
        // Non-short-circuit `&`: random overlap tests mispredict branches.
        (0..V::DIM).fold(true, |ok, i| {
            ok & (self.min.get(i) <= other.max.get(i)) & (other.min.get(i) <= self.max.get(i))
        })
    }

    /// True when `other` lies inside `self` (boundaries may touch).
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let outer = Aabb::new(Vec2::ZERO, Vec2::splat(10.0))?;
    /// assert!(outer.contains(&Aabb::new(Vec2::ONE, Vec2::splat(2.0))?));
    /// assert!(!outer.contains(&Aabb::new(Vec2::splat(9.0), Vec2::splat(11.0))?)); // sticks out
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn contains(&self, other: &Self) -> bool {
        self.min.all_le(other.min) && other.max.all_le(self.max)
    }

    /// The smallest box holding both.
    #[inline]
    pub fn merged(&self, other: &Self) -> Self {
        Self {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// The box moved by `offset`.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// let b = Aabb::new(Vec2::ZERO, Vec2::ONE).unwrap();
    /// assert_eq!(b.shifted(Vec2::new(2.0, -1.0)).max, Vec2::new(3.0, 0.0));
    /// ```
    #[inline]
    pub fn shifted(&self, offset: V) -> Self {
        Self {
            min: self.min + offset,
            max: self.max + offset,
        }
    }

    /// The box grown by `margin` on every side (shrunk when negative; a shrink past
    /// the centre leaves an empty box, which intersects nothing).
    #[inline]
    pub fn loosened(&self, margin: V::Scalar) -> Self {
        let m = V::splat(margin);
        Self {
            min: self.min - m,
            max: self.max + m,
        }
    }

    /// The point of the box closest to `p` (seed 002's "closest point" by clamping).
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let b = Aabb::new(Vec3::ZERO, Vec3::ONE)?;
    /// assert_eq!(b.closest_point(Vec3::new(3.0, 0.5, -2.0)), Vec3::new(1.0, 0.5, 0.0));
    /// assert_eq!(b.closest_point(Vec3::splat(0.25)), Vec3::splat(0.25)); // inside: itself
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn closest_point(&self, p: V) -> V {
        p.max(self.min).min(self.max)
    }

    /// Squared distance from `p` to the box; zero inside.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let b = Aabb::new(Vec2::ZERO, Vec2::ONE)?;
    /// assert_eq!(b.distance_squared_to_point(Vec2::new(4.0, 5.0)), 25.0); // (3, 4) off the corner
    /// assert_eq!(b.distance_squared_to_point(Vec2::splat(0.5)), 0.0);
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn distance_squared_to_point(&self, p: V) -> V::Scalar {
        self.closest_point(p).distance_squared(p)
    }

    /// Distance between the closed boxes: 0 when they touch or overlap, else the
    /// length of the gap between them (per axis, the larger of the two one-sided
    /// gaps). Boxes with NaN give an unspecified value.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let a = Aabb::new(Vec2::ZERO, Vec2::ONE)?;
    /// let b = Aabb::new(Vec2::new(4.0, 5.0), Vec2::new(6.0, 6.0))?;
    /// assert_eq!(a.distance_to_aabb(&b), 5.0); // a 3-by-4 gap
    /// assert_eq!(a.distance_to_aabb(&a), 0.0);
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn distance_to_aabb(&self, other: &Self) -> V::Scalar {
        self.distance_squared_to_aabb(other).sqrt()
    }

    /// The square of [`distance_to_aabb`](Self::distance_to_aabb), without its root
    /// (for comparisons).
    #[inline]
    pub fn distance_squared_to_aabb(&self, other: &Self) -> V::Scalar {
        let zero = V::Scalar::ZERO;
        (0..V::DIM).fold(zero, |acc, axis| {
            let gap = (self.min.get(axis) - other.max.get(axis))
                .max(other.min.get(axis) - self.max.get(axis))
                .max(zero);
            acc + gap * gap
        })
    }

    /// Area in 2D, volume in 3D.
    #[inline]
    pub fn measure(&self) -> V::Scalar {
        let e = self.extents();
        (0..V::DIM).fold(V::Scalar::ONE, |acc, i| acc * e.get(i))
    }

    /// Perimeter in 2D, surface area in 3D: the cost measure of SAH trees.
    #[inline]
    pub fn surface_measure(&self) -> V::Scalar {
        let e = self.extents();
        let two = V::Scalar::TWO;
        if V::DIM == 2 {
            two * (e.get(0) + e.get(1))
        } else {
            two * (e.get(0) * e.get(1) + e.get(1) * e.get(2) + e.get(2) * e.get(0))
        }
    }

    /// The corners of the box, `2^DIM` of them; corner `k` takes `max` on axis `i`
    /// when bit `i` of `k` is set.
    pub fn corners(&self) -> impl Iterator<Item = V> + '_ {
        (0..1usize << V::DIM).map(move |k| {
            (0..V::DIM).fold(self.min, |c, i| {
                if k & (1 << i) != 0 {
                    c.with(i, self.max.get(i))
                } else {
                    c
                }
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec3, Vec2, Vec3};

    // Constructor rejects min > max and names the axis.
    #[test]
    fn rejects_inverted_box() {
        let err = Aabb::new(Vec2::new(0.0, 1.0), Vec2::new(1.0, 0.0)).unwrap_err();
        assert_eq!(
            err,
            ShapeError::MinAboveMax {
                shape: "Aabb",
                axis: 1,
                min: 1.0,
                max: 0.0
            }
        );
        assert!(err.to_string().contains("axis 1"));
    }

    // NaN and infinity are rejected with the field name.
    #[test]
    fn rejects_non_finite() {
        let err = Aabb::new(Vec3::splat(f32::NAN), Vec3::ONE).unwrap_err();
        assert!(err.to_string().contains("`min`"));
        assert!(Aabb::new(Vec3::ZERO, Vec3::splat(f32::INFINITY)).is_err());
        assert!(Aabb::<Vec3>::from_points(&[]).is_err());
    }

    // Touching faces count as overlap; a gap of one ulp does not.
    #[test]
    fn touching_boxes_intersect() {
        let a = Aabb::new(DVec3::ZERO, DVec3::ONE).unwrap();
        let b = Aabb::new(DVec3::new(1.0, 0.0, 0.0), DVec3::splat(2.0)).unwrap();
        assert!(a.intersects(&b) && b.intersects(&a));
        let gap = 1.0f64.next_up();
        let c = Aabb::new(DVec3::new(gap, 0.0, 0.0), DVec3::splat(2.0)).unwrap();
        assert!(!a.intersects(&c));
    }

    // Boundary points are inside; NaN is not.
    #[test]
    fn point_on_boundary_is_inside() {
        let a = Aabb::new(Vec2::ZERO, Vec2::ONE).unwrap();
        assert!(a.contains_point(Vec2::new(1.0, 0.5)));
        assert!(a.contains_point(Vec2::ZERO));
        assert!(!a.contains_point(Vec2::new(1.0001, 0.5)));
        assert!(!a.contains_point(Vec2::new(f32::NAN, 0.5)));
    }

    // Eight distinct corners in 3D, four in 2D.
    #[test]
    fn corners_and_measures() {
        let a = Aabb::new(Vec3::ZERO, Vec3::new(1.0, 2.0, 3.0)).unwrap();
        let corners: Vec<_> = a.corners().collect();
        assert_eq!(corners.len(), 8);
        assert!(corners.contains(&Vec3::new(1.0, 2.0, 0.0)));
        assert_eq!(a.measure(), 6.0);
        assert_eq!(a.surface_measure(), 22.0);
        let b = Aabb::new(Vec2::ZERO, Vec2::new(2.0, 3.0)).unwrap();
        assert_eq!(b.corners().count(), 4);
        assert_eq!(b.surface_measure(), 10.0);
    }
}
