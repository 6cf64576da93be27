//! `cast_ray`: the first point where a ray meets a shape.
//!
//! One kernel a shape, in `cast_ray/`: [`Aabb`](crate::shape::Aabb) by the slab test,
//! [`Ball`](crate::shape::Ball) by the cancellation-free quadratic,
//! [`Plane`](crate::shape::Plane) (a surface) and [`HalfSpace`](crate::shape::HalfSpace) (its solid side),
//! [`Triangle`](crate::shape::Triangle) in 3D by the watertight test and
//! [`Segment`](crate::shape::Segment) in 2D, and the curved solids in closed form:
//! [`Cylinder`](crate::shape::Cylinder) and [`Cone`](crate::shape::Cone) in 3D and
//! [`Capsule`](crate::shape::Capsule) in 2D and 3D (`curved`). Each module names its
//! reference.

mod aabb;
mod ball;
mod curved;
mod plane;
mod segment;
mod triangle;

pub use ball::NORMAL_UNIT_ULPS;

/// Accuracy of the generic ray cast by support points (the GJK point cast of
/// [`cast_shapes`](fn@crate::query::cast_shapes), used for the kinds without a closed
/// form: 3D segments, rounded boxes and polygons, 2D triangles), in units of `√ε`: a
/// hit lies within `SUPPORT_CAST_SQRT_ULPS · √ε · L` of the surface and nothing of
/// the ray before it is deeper inside, and a ray passing farther than that from the
/// shape misses, `L` the larger of the shape's size (its bounding radius about the
/// local origin) and the ray origin's distance from the local origin. The `√ε` is
/// GJK's floor on curved cores and rounded corners (see
/// [`GJK_REL_ULPS`](crate::algo::gjk::GJK_REL_ULPS)). Checked by
/// `tests/regressions/curved_ray_casts.rs`.
pub const SUPPORT_CAST_SQRT_ULPS: f64 = 4.0;

use crate::algo::support::SupportMap;
use crate::math::{Isometry, Real, Vector};
use crate::shape::{Ray, RayHit};

/// Ray casts against a shape in its local frame.
///
/// Conventions for every implementation: the ray is `origin + t·dir` for
/// `t ∈ [0, max_t]`; solid shapes hit at `t = 0` when the origin is inside (with a
/// zero normal); the normal is unit and faces the ray; a ray holding NaN or
/// infinity, or a NaN or negative `max_t`, misses.
pub trait RayCast<V: Vector> {
    /// The first hit with `t ∈ [0, max_t]`, or `None`.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let b = Aabb::new(Vec2::new(4.0, -1.0), Vec2::new(6.0, 1.0))?;
    /// let ray = Ray::new(Vec2::ZERO, Vec2::X)?;
    /// let hit = b.cast_ray(&ray, 100.0).expect("the ray points at the box");
    /// assert_eq!((hit.t, hit.point, hit.normal), (4.0, Vec2::new(4.0, 0.0), -Vec2::X));
    /// assert!(b.cast_ray(&ray, 3.0).is_none()); // max_t stops short of it
    /// # Ok(())
    /// # }
    /// ```
    fn cast_ray(&self, ray: &Ray<V>, max_t: V::Scalar) -> Option<RayHit<V>>;

    /// True when the ray hits for some `t ∈ [0, max_t]`. Implementations may answer
    /// faster than [`RayCast::cast_ray`].
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let ball = Ball::new(Vec3::new(0.0, 0.0, -10.0), 1.0)?;
    /// let down_the_axis = Ray::new(Vec3::ZERO, -Vec3::Z)?;
    /// let offset = Ray::new(Vec3::new(1.5, 0.0, 0.0), -Vec3::Z)?;
    /// assert!(ball.intersects_ray(&down_the_axis, 20.0));
    /// assert!(!ball.intersects_ray(&offset, 20.0));
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    fn intersects_ray(&self, ray: &Ray<V>, max_t: V::Scalar) -> bool {
        self.cast_ray(ray, max_t).is_some()
    }

    /// The first hit of a world-space ray on this shape placed at `pose`, in world space.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A unit ball in its own frame, placed at (5, 0): the ray from the origin along
    /// // +x hits it at t = 4, reported in world space.
    /// let ball = Ball::new(Vec2::ZERO, 1.0)?;
    /// let pose = Pose::from_translation(Vec2::new(5.0, 0.0));
    /// let hit = ball.cast_ray_posed(&pose, &Ray::new(Vec2::ZERO, Vec2::X)?, 10.0).unwrap();
    /// assert!((hit.t - 4.0).abs() < 1e-6);
    /// assert!((hit.point - Vec2::new(4.0, 0.0)).length() < 1e-6);
    /// # Ok(())
    /// # }
    /// ```
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

/// A world-space ray cast on a shape placed at `pose`: `local` casts the ray in the
/// shape's frame; the hit comes back in world space.
#[inline]
pub(crate) fn posed_hit<V: Vector>(
    pose: &V::Pose,
    ray: &Ray<V>,
    local: impl FnOnce(&Ray<V>) -> Option<RayHit<V>>,
) -> Option<RayHit<V>> {
    let ray = Ray {
        origin: pose.inverse_transform_point(ray.origin),
        dir: pose.inverse_transform_vector(ray.dir),
    };
    local(&ray).map(|hit| RayHit {
        t: hit.t,
        point: pose.transform_point(hit.point),
        normal: pose.transform_vector(hit.normal),
    })
}

/// The ray cast of a convex shape with a `solid` switch (parry's `solid` flag). `solid
/// = true`: [`RayCast::cast_ray`] (an origin inside hits at `t = 0` with a zero
/// normal). `solid = false`: an origin inside hits the boundary where the ray leaves,
/// its normal facing the ray (the inward normal there), `None` when that is beyond
/// `max_t` or the direction is zero. The exit is found by casting back from the
/// plane of the shape's support point along the ray (every point of a convex shape
/// lies before it), so it costs one support call and one more ray cast; its accuracy
/// is the kind's ray cast at a distance of the shape's extent along the ray.
///
/// ```
/// use isect::d3::*;
/// use isect::query::cast_ray::cast_ray_convex_solid;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A ray from inside a ball of radius 2: solid, it hits at once; hollow, it hits
/// // where it leaves, with the normal facing the ray.
/// let ball = Ball::new(Vec3::ZERO, 2.0)?;
/// let ray = Ray::new(Vec3::ZERO, Vec3::Y)?;
/// assert_eq!(cast_ray_convex_solid(&ball, &ray, 10.0, true).unwrap().t, 0.0);
/// let exit = cast_ray_convex_solid(&ball, &ray, 10.0, false).expect("it leaves at y = 2");
/// assert!((exit.t - 2.0).abs() < 1e-5);
/// assert!((exit.normal + Vec3::Y).length() < 1e-5);
/// # Ok(())
/// # }
/// ```
pub fn cast_ray_convex_solid<V, S>(
    shape: &S,
    ray: &Ray<V>,
    max_t: V::Scalar,
    solid: bool,
) -> Option<RayHit<V>>
where
    V: Vector,
    S: RayCast<V> + SupportMap<V> + ?Sized,
{
    let hit = shape.cast_ray(ray, max_t)?;
    let inside = hit.t == V::Scalar::ZERO && hit.normal == V::ZERO;
    if solid || !inside {
        return Some(hit);
    }
    let d = ray.dir;
    let dd = d.dot(d);
    // A finite ray (it hit): `dd` is not NaN; zero never leaves.
    if dd == V::Scalar::ZERO {
        return None;
    }
    // The support plane along `d`: `t_far` is where the ray crosses it.
    let t_far = ((shape.local_support(d) - ray.origin).dot(d) / dd).max(V::Scalar::ZERO);
    let back = Ray {
        origin: ray.origin + d * t_far,
        dir: -d,
    };
    let exit = match shape.cast_ray(&back, t_far) {
        // The far point is inside by rounding: the exit is on the support plane.
        Some(h) if h.normal != V::ZERO => RayHit {
            t: t_far - h.t,
            point: h.point,
            normal: -h.normal,
        },
        _ => RayHit {
            t: t_far,
            point: back.origin,
            normal: facing_dir(d),
        },
    };
    (exit.t <= max_t).then_some(exit)
}

/// True when a query may proceed: a finite ray and `max_t ≥ 0` (false for NaN).
#[inline]
fn is_valid_query<V: Vector>(ray: &Ray<V>, max_t: V::Scalar) -> bool {
    ray.is_finite() && max_t >= V::Scalar::ZERO
}

/// `-dir` as a unit vector (the normal reported where the ray meets a surface
/// end-on), or zero when `dir` is too small to normalise.
#[inline]
fn facing_dir<V: Vector>(dir: V) -> V {
    (-dir).try_normalize().unwrap_or(V::ZERO)
}

/// `normal` flipped, if needed, so that it faces the ray (`normal · dir ≤ 0`).
#[inline]
fn face_the_ray<V: Vector>(normal: V, dir: V) -> V {
    if normal.dot(dir) > V::Scalar::ZERO {
        -normal
    } else {
        normal
    }
}

/// Shared test helpers: one generic body run for every vector type.
#[cfg(test)]
pub(crate) mod test_util {
    use crate::math::{Real, Vector};
    use crate::shape::Ray;

    /// Runs the generic `check::<V>(k)` for `Vec2`, `Vec3`, `DVec2` and `DVec3` at the
    /// scales `k` = 1e-5, 1 and 1e6.
    macro_rules! every_type_and_scale {
        ($check:ident) => {
            for k in [1e-5, 1.0, 1e6] {
                $check::<glam::Vec2>(k);
                $check::<glam::Vec3>(k);
                $check::<glam::DVec2>(k);
                $check::<glam::DVec3>(k);
            }
        };
    }
    pub(crate) use every_type_and_scale;

    /// A ray from finite test input.
    pub fn ray<V: Vector>(o: V, d: V) -> Ray<V> {
        Ray::new(o, d).unwrap()
    }

    /// Rays the constructor refuses, built through the public fields: a NaN origin
    /// moving along `dir`, and from `origin` an infinite direction along axis `axis`.
    pub fn non_finite_rays<V: Vector>(origin: V, dir: V, axis: usize) -> [Ray<V>; 2] {
        [
            Ray {
                origin: V::splat(s::<V>(f64::NAN)),
                dir,
            },
            Ray {
                origin,
                dir: V::ZERO.with(axis, V::Scalar::INFINITY),
            },
        ]
    }

    /// `|a − b| ≤ tol · max(1, |a|, |b|)`.
    pub fn close<R: Real>(a: R, b: R, tol: f64) -> bool {
        let scale = R::ONE.max(a.abs()).max(b.abs());
        (a - b).abs() <= R::from_f64(tol) * scale
    }

    /// `close` for every component.
    pub fn close_v<V: Vector>(a: V, b: V, tol: f64) -> bool {
        (0..V::DIM).all(|i| close(a.get(i), b.get(i), tol))
    }

    /// Scalar from `f64`.
    pub fn s<V: Vector>(x: f64) -> V::Scalar {
        V::Scalar::from_f64(x)
    }

    /// The vector `x·e0 + y·e1 (+ z·e2 in 3D)`.
    pub fn v<V: Vector>(x: f64, y: f64, z: f64) -> V {
        let mut out = V::ZERO.with(0, s::<V>(x)).with(1, s::<V>(y));
        if V::DIM == 3 {
            out = out.with(2, s::<V>(z));
        }
        out
    }
}
