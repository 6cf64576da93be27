//! Queries shared by the shape enums ([`shape_2d::Shape`](super::shape_2d::Shape),
//! [`shape_3d::Shape`](super::shape_3d::Shape)) that any support map answers: the
//! bounding box from `2·DIM` support points, and a ray cast by the GJK shape cast of
//! a point (van den Bergen 2004, "Ray casting against general convex objects"), for
//! shapes without an analytic ray kernel. Tolerances are those of
//! [`cast_shapes`](crate::query::cast_shapes).

use crate::algo::gjk::GjkVector;
use crate::algo::support::SupportMap;
use crate::math::{Isometry, Real, Vector};
use crate::query::cast_shapes::cast_shapes;
use crate::shape::{Aabb, Ball, Ray, RayHit};

/// The world box of `shape` placed at `pose`: along each axis, the supports in `+e_i`
/// and `−e_i`. Exact for exact support maps; a non-finite pose gives non-finite bounds.
pub(crate) fn aabb_by_support<V: Vector, S: SupportMap<V> + ?Sized>(
    shape: &S,
    pose: &V::Pose,
) -> Aabb<V> {
    let (mut min, mut max) = (V::ZERO, V::ZERO);
    for i in 0..V::DIM {
        let axis = V::unit_axis(i);
        max = max.with(i, shape.support(pose, axis).get(i));
        min = min.with(i, shape.support(pose, -axis).get(i));
    }
    Aabb { min, max }
}

/// The first hit of `ray` on the solid convex `shape` (local frame), by casting a
/// point along the ray against the shape. Follows the [`RayCast`](crate::query::RayCast)
/// conventions: an origin inside (or on) the shape hits at `t = 0` with a zero
/// normal; a non-finite ray or a NaN or negative `max_t` misses; a zero direction hits
/// only when the origin is in the shape.
pub(crate) fn ray_cast_by_support<V: GjkVector, S: SupportMap<V> + ?Sized>(
    shape: &S,
    ray: &Ray<V>,
    max_t: V::Scalar,
) -> Option<RayHit<V>> {
    if !(ray.is_finite() && max_t >= V::Scalar::ZERO) {
        return None;
    }
    let point = Ball::new(V::ZERO, V::Scalar::ZERO).ok()?;
    let at_origin = V::Pose::from_translation(ray.origin);
    let hit = cast_shapes(
        &V::Pose::IDENTITY,
        V::ZERO,
        shape,
        &at_origin,
        ray.dir,
        &point,
        max_t,
    )?;
    if hit.time <= V::Scalar::ZERO {
        return Some(RayHit {
            t: V::Scalar::ZERO,
            point: ray.origin,
            normal: V::ZERO,
        });
    }
    // The cast's normal (from the last GJK direction) can face along the ray when the
    // core's gap ends just above the cast tolerance; a hit from outside faces the ray.
    let normal = if hit.normal.dot(ray.dir) > V::Scalar::ZERO {
        -hit.normal
    } else {
        hit.normal
    };
    Some(RayHit {
        t: hit.time,
        point: ray.point_at(hit.time),
        normal,
    })
}

/// The impls every convex enum shares, generated from its list of kinds: the kind's
/// name, the support-point bounding box, the [`SupportMap`] forwarding one `match`
/// per call to the concrete shape (monomorphic support calls), and `From` for each
/// kind.
macro_rules! convex_enum_impls {
    ($V:ident; $($kind:ident($ty:ty)),* $(,)?) => {
        impl<R: Real> Shape<R> {
            /// The kind's name (`"Ball"`, `"Cuboid"`, ...), for messages and test reports.
            pub fn kind_name(&self) -> &'static str {
                match self {
                    $(Self::$kind(_) => stringify!($kind),)*
                }
            }

            /// The world bounding box of the shape placed at `pose` (tight for every
            /// kind: from the support points along `±` each axis). A non-finite pose
            /// gives a box with non-finite bounds.
            ///
            /// ```
            /// use isect::d2::*;
            ///
            /// # fn main() -> Result<(), ShapeError> {
            /// // A capsule from (-1, 0) to (1, 0) of radius 0.5, turned a quarter turn: its box
            /// // is 1 wide and 3 tall.
            /// let capsule = Shape::Capsule(Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.5)?);
            /// let b = capsule.aabb(&Pose::new(Vec2::ZERO, std::f32::consts::FRAC_PI_2));
            /// assert!((b.max - Vec2::new(0.5, 1.5)).length() < 1e-5);
            /// assert!((b.min + Vec2::new(0.5, 1.5)).length() < 1e-5);
            /// # Ok(())
            /// # }
            /// ```
            pub fn aabb(&self, pose: &<R::$V as Vector>::Pose) -> Aabb<R::$V> {
                match self {
                    $(Self::$kind(s) => aabb_by_support(s, pose),)*
                }
            }
        }

        impl<R: Real> SupportMap<R::$V> for Shape<R> {
            #[inline]
            fn local_support(&self, dir: R::$V) -> R::$V {
                match self {
                    $(Self::$kind(s) => s.local_support(dir),)*
                }
            }
            #[inline]
            fn margin(&self) -> R {
                match self {
                    $(Self::$kind(s) => s.margin(),)*
                }
            }
            #[inline]
            fn local_core_support(&self, dir: R::$V) -> R::$V {
                match self {
                    $(Self::$kind(s) => s.local_core_support(dir),)*
                }
            }
        }

        $(impl<R: Real> From<$ty> for Shape<R> {
            #[inline]
            fn from(s: $ty) -> Self {
                Self::$kind(s)
            }
        })*

        // Each convex kind converts straight into the enum of every kind, so that
        // `world.insert(ball, ..)` works on the preludes' `World` too.
        $(impl<R: Real> From<$ty> for AnyShape<R> {
            #[inline]
            fn from(s: $ty) -> Self {
                Self::Convex(Shape::$kind(s))
            }
        })*
    };
}
pub(crate) use convex_enum_impls;
