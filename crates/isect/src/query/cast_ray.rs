//! `cast_ray`: the first point where a ray meets a shape.

use crate::math::{Isometry, Vector};
use crate::shape::{Ray, RayHit};

/// Ray casts against a shape in its local frame.
///
/// Conventions for every implementation: the ray is `origin + t·dir` for
/// `t ∈ [0, max_t]`; solid shapes hit at `t = 0` when the origin is inside (with a
/// zero normal); the normal is unit and faces the ray; a ray holding NaN or
/// infinity, or a NaN or negative `max_t`, misses.
pub trait RayCast<V: Vector> {
    /// The first hit with `t ∈ [0, max_t]`, or `None`.
    fn cast_ray(&self, ray: &Ray<V>, max_t: V::Scalar) -> Option<RayHit<V>>;

    /// True when the ray hits for some `t ∈ [0, max_t]`. Implementations may answer
    /// faster than [`RayCast::cast_ray`].
    #[inline]
    fn intersects_ray(&self, ray: &Ray<V>, max_t: V::Scalar) -> bool {
        self.cast_ray(ray, max_t).is_some()
    }

    /// The first hit of a world-space ray on this shape placed at `pose`, in world space.
    #[inline]
    fn cast_ray_posed(&self, pose: &V::Pose, ray: &Ray<V>, max_t: V::Scalar) -> Option<RayHit<V>> {
        let local = Ray {
            origin: pose.inverse_transform_point(ray.origin),
            dir: pose.inverse_transform_vector(ray.dir),
        };
        self.cast_ray(&local, max_t).map(|hit| RayHit {
            t: hit.t,
            point: pose.transform_point(hit.point),
            normal: pose.transform_vector(hit.normal),
        })
    }
}
