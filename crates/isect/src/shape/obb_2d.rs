//! Oriented box in 2D (seed 001: the oriented box perception systems report).

use super::error::{check_coord, check_finite, ShapeError};
use super::{Aabb, Ray, RayHit};
use crate::algo::slab::ray_aabb;
use crate::algo::support::SupportMap;
use crate::math::{Real, Rot2, Vector, Vector2};
use crate::query::RayCast;

/// A solid oriented rectangle: `center`, `half_extents` along its own axes, and the
/// `rotation` that turns the x/y axes into the box axes. Closed: the boundary belongs
/// to it. A zero half-extent gives a segment or a point; queries stay defined.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Obb<R: Real> {
    center: R::V2,
    half_extents: R::V2,
    rotation: Rot2<R>,
}

impl<R: Real> Obb<R> {
    /// The box at `center` with `half_extents`, rotated by `rotation` (rescaled to unit
    /// length).
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] for a non-finite field, [`ShapeError::Negative`] for a
    /// negative half-extent, [`ShapeError::ZeroVector`] for a zero rotation,
    /// [`ShapeError::TooLarge`] for a coordinate beyond [`Real::MAX_COORD`].
    pub fn new(center: R::V2, half_extents: R::V2, rotation: Rot2<R>) -> Result<Self, ShapeError> {
        check_coord("Obb", "center", center)?;
        check_coord("Obb", "half_extents", half_extents)?;
        Self::placed(center, half_extents, rotation)
    }

    /// [`new`](Self::new) without the magnitude limit (finite values only): for the
    /// world boxes the dispatch builds from placed cuboids, whose centres reach a few
    /// `MAX_COORD`.
    pub(crate) fn placed(
        center: R::V2,
        half_extents: R::V2,
        rotation: Rot2<R>,
    ) -> Result<Self, ShapeError> {
        check_finite("Obb", "center", center)?;
        check_finite("Obb", "half_extents", half_extents)?;
        check_half_extents::<R::V2>(half_extents)?;
        if !rotation.is_finite() {
            return Err(ShapeError::NotFinite {
                shape: "Obb",
                field: "rotation",
            });
        }
        let unit = R::V2::new(rotation.cos, rotation.sin)
            .try_normalize()
            .ok_or(ShapeError::ZeroVector {
                shape: "Obb",
                field: "rotation",
            })?;
        Ok(Self {
            center,
            half_extents,
            rotation: Rot2 {
                cos: unit.x(),
                sin: unit.y(),
            },
        })
    }

    /// The box rotated by `angle` radians.
    ///
    /// # Errors
    /// As [`Obb::new`].
    pub fn from_angle(center: R::V2, half_extents: R::V2, angle: R) -> Result<Self, ShapeError> {
        Self::new(center, half_extents, Rot2::from_angle(angle))
    }

    /// Centre.
    #[inline]
    pub fn center(&self) -> R::V2 {
        self.center
    }

    /// Half-widths along the box axes (each ≥ 0).
    #[inline]
    pub fn half_extents(&self) -> R::V2 {
        self.half_extents
    }

    /// Unit rotation from the world axes to the box axes.
    #[inline]
    pub fn rotation(&self) -> Rot2<R> {
        self.rotation
    }

    /// The two unit box axes in world space.
    #[inline]
    pub fn axes(&self) -> [R::V2; 2] {
        self.rotation.axes()
    }

    /// The four corners, counter-clockwise from `(-x, -y)` in the box frame.
    pub fn corners(&self) -> [R::V2; 4] {
        let [ax, ay] = self.axes();
        let (ex, ey) = (ax * self.half_extents.x(), ay * self.half_extents.y());
        let c = self.center;
        [c - ex - ey, c + ex - ey, c + ex + ey, c - ex + ey]
    }

    /// The smallest world-axis-aligned box around it.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A 2 × 2 square turned 45°: its box has half-width √2.
    /// let b = Obb::from_angle(Vec2::ZERO, Vec2::ONE, std::f32::consts::FRAC_PI_4)?;
    /// assert!((b.aabb().max - Vec2::splat(2f32.sqrt())).length() < 1e-6);
    /// # Ok(())
    /// # }
    /// ```
    pub fn aabb(&self) -> Aabb<R::V2> {
        let [ax, ay] = self.axes();
        let reach = ax.abs() * self.half_extents.x() + ay.abs() * self.half_extents.y();
        Aabb {
            min: self.center - reach,
            max: self.center + reach,
        }
    }

    /// True when `p` is in the closed box; false for a NaN point.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A 4 × 2 box turned 90°: it now spans 2 along x and 4 along y.
    /// let b = Obb::from_angle(Vec2::ZERO, Vec2::new(2.0, 1.0), std::f32::consts::FRAC_PI_2)?;
    /// assert!(b.contains_point(Vec2::new(0.5, 1.8)));
    /// assert!(!b.contains_point(Vec2::new(1.5, 0.0)));
    /// # Ok(())
    /// # }
    /// ```
    pub fn contains_point(&self, p: R::V2) -> bool {
        let local = self.to_local(p).abs();
        local.all_le(self.half_extents)
    }

    /// `p` in the box frame (centre at the origin, axes along x and y).
    #[inline]
    pub fn to_local(&self, p: R::V2) -> R::V2 {
        self.rotation.inverse_rotate(p - self.center)
    }
}

/// Rejects a negative component of `half_extents`, naming its value.
pub(super) fn check_half_extents<V: Vector>(half_extents: V) -> Result<(), ShapeError> {
    match (0..V::DIM).find(|&i| half_extents.get(i) < V::Scalar::ZERO) {
        Some(i) => Err(ShapeError::Negative {
            shape: "Obb",
            field: "half_extents",
            value: half_extents.get(i).to_f64(),
        }),
        None => Ok(()),
    }
}

impl<R: Real> SupportMap<R::V2> for Obb<R> {
    /// The corner farthest along `dir` (the centre's side for zero components).
    #[inline]
    fn local_support(&self, dir: R::V2) -> R::V2 {
        let [ax, ay] = self.axes();
        let sx = self.half_extents.x().copysign(ax.dot(dir));
        let sy = self.half_extents.y().copysign(ay.dot(dir));
        self.center + ax * sx + ay * sy
    }
}

impl<R: Real> RayCast<R::V2> for Obb<R> {
    /// Slab test in the box frame ([`ray_aabb`]); edge behaviour as there.
    fn cast_ray(&self, ray: &Ray<R::V2>, max_t: R) -> Option<RayHit<R::V2>> {
        let local = Ray {
            origin: self.to_local(ray.origin),
            dir: self.rotation.inverse_rotate(ray.dir),
        };
        let bounds = Aabb {
            min: -self.half_extents,
            max: self.half_extents,
        };
        let hit = ray_aabb(&local, &bounds, max_t)?;
        Some(RayHit {
            t: hit.t_enter,
            point: ray.point_at(hit.t_enter),
            normal: self.rotation.rotate(hit.normal),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, Vec2};

    // Negative, NaN half-extents and a zero rotation are refused by name.
    #[test]
    fn rejects_bad_input() {
        let r = Rot2::<f32>::IDENTITY;
        assert!(matches!(
            Obb::<f32>::new(Vec2::ZERO, Vec2::new(1.0, -2.0), r),
            Err(ShapeError::Negative { value, .. }) if value == -2.0
        ));
        assert!(matches!(
            Obb::<f32>::new(Vec2::ZERO, Vec2::new(f32::NAN, 1.0), r),
            Err(ShapeError::NotFinite {
                field: "half_extents",
                ..
            })
        ));
        let zero = Rot2 { cos: 0.0, sin: 0.0 };
        assert!(matches!(
            Obb::<f64>::new(DVec2::ZERO, DVec2::ONE, zero),
            Err(ShapeError::ZeroVector {
                field: "rotation",
                ..
            })
        ));
    }

    // A non-unit rotation is rescaled; a zero-extent box is a point that contains its centre.
    #[test]
    fn normalises_rotation_and_accepts_zero_extent() {
        let obb = Obb::<f64>::new(DVec2::ONE, DVec2::ZERO, Rot2 { cos: 3.0, sin: 4.0 }).unwrap();
        assert!((obb.rotation().cos - 0.6).abs() < 1e-15);
        assert!(obb.contains_point(DVec2::ONE));
        assert!(!obb.contains_point(DVec2::new(1.0, 1.0 + 1e-12)));
        assert!(!obb.contains_point(DVec2::NAN));
    }

    // A 45° box: its corner on the x axis is inside (boundary), a point just past is not.
    #[test]
    fn rotated_contains_and_support() {
        let obb =
            Obb::<f64>::from_angle(DVec2::ZERO, DVec2::ONE, core::f64::consts::FRAC_PI_4).unwrap();
        let s = obb.local_support(DVec2::X);
        assert!((s - DVec2::new(2f64.sqrt(), 0.0)).length() < 1e-12);
        assert!(obb.contains_point(DVec2::new(1.414, 0.0)));
        assert!(!obb.contains_point(DVec2::new(1.415, 0.0)));
        let aabb = obb.aabb();
        assert!((aabb.max.x - 2f64.sqrt()).abs() < 1e-12);
    }

    // A ray into a 45° box hits its corner region with a unit normal facing the ray.
    #[test]
    fn ray_cast_rotated() {
        let obb =
            Obb::<f32>::from_angle(Vec2::new(5.0, 0.0), Vec2::ONE, core::f32::consts::FRAC_PI_4)
                .unwrap();
        let ray = Ray::new(Vec2::new(0.0, 0.5), Vec2::X).unwrap();
        let hit = obb.cast_ray(&ray, f32::INFINITY).unwrap();
        assert!((hit.t - (5.0 - 2f32.sqrt() + 0.5)).abs() < 1e-5);
        assert!((hit.normal.length() - 1.0).abs() < 1e-6 && hit.normal.dot(ray.dir) < 0.0);
        assert!(obb
            .cast_ray(&Ray::new(Vec2::new(0.0, 3.0), Vec2::X).unwrap(), 100.0)
            .is_none());
    }
}
