//! Oriented box in 3D (seed 001; Ericson, *Real-Time Collision Detection*, 4.4).

use super::error::{check_coord, check_finite, ShapeError};
use super::obb_2d::check_half_extents;
use super::{Aabb, Ray, RayHit};
use crate::algo::slab::ray_aabb;
use crate::algo::support::SupportMap;
use crate::math::{Real, Rotation3, Vector};
use crate::query::RayCast;

/// A solid oriented box: `center`, `half_extents` along its own axes, and the unit
/// quaternion `rotation` that turns the world axes into the box axes. Closed. A zero
/// half-extent gives a rectangle, segment or point; queries stay defined.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Obb<R: Real> {
    center: R::V3,
    half_extents: R::V3,
    rotation: R::Quat,
}

impl<R: Real> Obb<R> {
    /// The box at `center` with `half_extents`, rotated by `rotation` (rescaled to unit
    /// length).
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] for a non-finite field, [`ShapeError::Negative`] for a
    /// negative half-extent, [`ShapeError::ZeroVector`] for a zero quaternion,
    /// [`ShapeError::TooLarge`] for a coordinate beyond [`Real::MAX_COORD`].
    pub fn new(center: R::V3, half_extents: R::V3, rotation: R::Quat) -> Result<Self, ShapeError> {
        check_coord("Obb", "center", center)?;
        check_coord("Obb", "half_extents", half_extents)?;
        Self::placed(center, half_extents, rotation)
    }

    /// [`new`](Self::new) without the magnitude limit (finite values only): for the
    /// world boxes the dispatch builds from placed cuboids, whose centres reach a few
    /// `MAX_COORD`.
    pub(crate) fn placed(
        center: R::V3,
        half_extents: R::V3,
        rotation: R::Quat,
    ) -> Result<Self, ShapeError> {
        check_finite("Obb", "center", center)?;
        check_finite("Obb", "half_extents", half_extents)?;
        check_half_extents::<R::V3>(half_extents)?;
        if !rotation.is_finite() {
            return Err(ShapeError::NotFinite {
                shape: "Obb",
                field: "rotation",
            });
        }
        let rotation = rotation.try_normalize().ok_or(ShapeError::ZeroVector {
            shape: "Obb",
            field: "rotation",
        })?;
        Ok(Self {
            center,
            half_extents,
            rotation,
        })
    }

    /// [`placed`](Self::placed) as an `Option`, for the dispatch's hot box pairs: the
    /// same boxes accepted and the same rotation made unit, the four checks folded
    /// into one branch and no error built.
    #[inline]
    pub(crate) fn placed_or_none(
        center: R::V3,
        half_extents: R::V3,
        rotation: R::Quat,
    ) -> Option<Self> {
        let valid = center.is_finite()
            & half_extents.is_finite()
            & (half_extents.min_element() >= R::ZERO)
            & rotation.is_finite();
        if !valid {
            return None;
        }
        Some(Self {
            center,
            half_extents,
            rotation: rotation.try_normalize()?,
        })
    }

    /// Centre.
    #[inline]
    pub fn center(&self) -> R::V3 {
        self.center
    }

    /// Half-widths along the box axes (each ≥ 0).
    #[inline]
    pub fn half_extents(&self) -> R::V3 {
        self.half_extents
    }

    /// Unit rotation from the world axes to the box axes.
    #[inline]
    pub fn rotation(&self) -> R::Quat {
        self.rotation
    }

    /// The three unit box axes in world space.
    #[inline]
    pub fn axes(&self) -> [R::V3; 3] {
        self.rotation.axes()
    }

    /// The smallest world-axis-aligned box around it.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let b = Obb::new(Vec3::new(5.0, 0.0, 0.0), Vec3::new(2.0, 1.0, 1.0), Quat::from_rotation_y(std::f32::consts::FRAC_PI_2))?;
    /// let bb = b.aabb(); // turned about y: the long side now along z
    /// assert!((bb.min - Vec3::new(4.0, -1.0, -2.0)).length() < 1e-6);
    /// assert!((bb.max - Vec3::new(6.0, 1.0, 2.0)).length() < 1e-6);
    /// # Ok(())
    /// # }
    /// ```
    pub fn aabb(&self) -> Aabb<R::V3> {
        let axes = self.axes();
        let reach = (0..3).fold(R::V3::ZERO, |acc, i| {
            acc + axes[i].abs() * self.half_extents.get(i)
        });
        Aabb {
            min: self.center - reach,
            max: self.center + reach,
        }
    }

    /// True when `p` is in the closed box; false for a NaN point.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A 2 × 2 × 2 cube turned 45° about z: its corners reach √2 ≈ 1.41 along x,
    /// // and the old corner (1, 1, 0) is now √2 out along a face normal.
    /// let b = Obb::new(Vec3::ZERO, Vec3::ONE, Quat::from_rotation_z(std::f32::consts::FRAC_PI_4))?;
    /// assert!(b.contains_point(Vec3::new(1.3, 0.0, 0.0)));
    /// assert!(!b.contains_point(Vec3::new(1.0, 1.0, 0.0)));
    /// # Ok(())
    /// # }
    /// ```
    pub fn contains_point(&self, p: R::V3) -> bool {
        self.to_local(p).abs().all_le(self.half_extents)
    }

    /// `p` in the box frame (centre at the origin, axes along x, y, z).
    #[inline]
    pub fn to_local(&self, p: R::V3) -> R::V3 {
        self.rotation.inverse_rotate(p - self.center)
    }
}

impl<R: Real> SupportMap<R::V3> for Obb<R> {
    /// The corner farthest along `dir` (the `+` side for zero components).
    #[inline]
    fn local_support(&self, dir: R::V3) -> R::V3 {
        let axes = self.axes();
        (0..3).fold(self.center, |p, i| {
            p + axes[i] * self.half_extents.get(i).copysign(axes[i].dot(dir))
        })
    }
}

impl<R: Real> RayCast<R::V3> for Obb<R> {
    /// Slab test in the box frame ([`ray_aabb`]); edge behaviour as there.
    fn cast_ray(&self, ray: &Ray<R::V3>, max_t: R) -> Option<RayHit<R::V3>> {
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
    use glam::{DQuat, DVec3, Quat, Vec3};

    // Zero and NaN quaternions, negative half-extents are refused by name.
    #[test]
    fn rejects_bad_input() {
        let zero = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
        assert!(matches!(
            Obb::<f32>::new(Vec3::ZERO, Vec3::ONE, zero),
            Err(ShapeError::ZeroVector {
                field: "rotation",
                ..
            })
        ));
        assert!(matches!(
            Obb::<f32>::new(
                Vec3::ZERO,
                Vec3::ONE,
                Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0)
            ),
            Err(ShapeError::NotFinite {
                field: "rotation",
                ..
            })
        ));
        assert!(matches!(
            Obb::<f64>::new(DVec3::ZERO, DVec3::new(1.0, 1.0, -0.5), DQuat::IDENTITY),
            Err(ShapeError::Negative { value, .. }) if value == -0.5
        ));
    }

    // A non-unit quaternion is rescaled; a flat (zero-z) box still contains its face.
    #[test]
    fn normalises_and_flat_box() {
        let q = DQuat::from_xyzw(0.0, 0.0, 2.0, 2.0);
        let obb = Obb::<f64>::new(DVec3::ZERO, DVec3::new(2.0, 1.0, 0.0), q).unwrap();
        assert!((obb.rotation().length() - 1.0).abs() < 1e-15);
        // Rotated 90° about z: the long axis is now y.
        assert!(obb.contains_point(DVec3::new(0.5, 1.9, 0.0)));
        assert!(!obb.contains_point(DVec3::new(0.5, 1.9, 1e-9)));
        assert!(!obb.contains_point(DVec3::NAN));
    }

    // A ray along -z onto a rotated box hits its top face, normal +z.
    #[test]
    fn ray_cast_top_face() {
        let q = Quat::from_rotation_z(0.3);
        let obb = Obb::<f32>::new(Vec3::ZERO, Vec3::ONE, q).unwrap();
        let ray = Ray::new(Vec3::new(0.1, 0.2, 5.0), -Vec3::Z).unwrap();
        let hit = obb.cast_ray(&ray, 10.0).unwrap();
        assert!((hit.t - 4.0).abs() < 1e-5);
        assert!((hit.normal - Vec3::Z).length() < 1e-5);
        let s = obb.local_support(Vec3::new(0.0, 0.0, 1.0));
        assert!((s.z - 1.0).abs() < 1e-6);
        assert!(obb.aabb().contains_point(s));
    }
}
