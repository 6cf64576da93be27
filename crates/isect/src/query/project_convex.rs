//! [`ProjectPoint`] for every convex shape and the shape enums: analytic for the ball
//! and the box (Ericson 5.1.3 for the closest point on a box), GJK against the point
//! for every other support map (Ericson 9.5), with EPA giving the nearest boundary
//! point of a point inside a hollow projection. Conventions in
//! [`project_point`](crate::query::project_point). Tolerances are those of GJK and EPA.

use crate::algo::gjk::GjkVector;
use crate::algo::support::SupportMap;
use crate::math::{Isometry, Real, Vector};
use crate::query::contact::contact;
use crate::query::distance::closest_points;
use crate::query::project_point::{PointProjection, ProjectPoint};
use crate::shape::{obb_2d, obb_3d, shape_2d, shape_3d, Aabb, Ball, Capsule, Segment, Triangle};
use crate::shape::{Cone, ConvexPolygon, ConvexPolyhedron, Cylinder, Rounded};

/// Projection of `p` onto a convex support map in its local frame: GJK's closest
/// point outside; inside, `p` itself (`solid`) or the boundary point EPA finds
/// (the point where the shortest push out of the shape leaves it).
pub fn project_by_support<V: GjkVector, S: SupportMap<V> + ?Sized>(
    shape: &S,
    p: V,
    solid: bool,
) -> PointProjection<V> {
    let Ok(point) = Ball::new(p, V::Scalar::ZERO) else {
        return PointProjection::nan();
    };
    let id = V::Pose::IDENTITY;
    let cp = closest_points(&id, shape, &id, &point);
    if cp.distance.is_nan() {
        return PointProjection::nan();
    }
    if cp.distance > V::Scalar::ZERO {
        return PointProjection {
            point: cp.point_a,
            is_inside: false,
        };
    }
    let point = match solid {
        true => p,
        false => {
            contact(&id, shape, &id, &point, V::Scalar::ZERO).map_or(p, |c| p + c.normal * c.depth)
        }
    };
    PointProjection {
        point,
        is_inside: true,
    }
}

/// Solid or hollow projection onto the ball; the centre projects (hollow) onto the
/// point of the sphere along `+x`, a conventional choice.
impl<V: Vector> ProjectPoint<V> for Ball<V> {
    fn project_local_point(&self, p: V, solid: bool) -> PointProjection<V> {
        if p.is_nan() {
            return PointProjection::nan();
        }
        let offset = p - self.center();
        let d = offset.length();
        let is_inside = d <= self.radius();
        if is_inside && solid {
            return PointProjection {
                point: p,
                is_inside,
            };
        }
        let dir = offset.try_normalize().unwrap_or(V::unit_axis(0));
        PointProjection {
            point: self.center() + dir * self.radius(),
            is_inside,
        }
    }
}

/// Solid or hollow projection onto the box; a point inside projects (hollow) onto
/// the nearest face (the lowest axis, then the minimum side, on ties).
impl<V: Vector> ProjectPoint<V> for Aabb<V> {
    fn project_local_point(&self, p: V, solid: bool) -> PointProjection<V> {
        if p.is_nan() {
            return PointProjection::nan();
        }
        let is_inside = self.contains_point(p);
        if !is_inside || solid {
            let point = if is_inside { p } else { self.closest_point(p) };
            return PointProjection { point, is_inside };
        }
        let (mut best, mut point) = (V::Scalar::INFINITY, p);
        for k in 0..V::DIM {
            let to_min = p.get(k) - self.min.get(k);
            let to_max = self.max.get(k) - p.get(k);
            if to_min < best {
                (best, point) = (to_min, p.with(k, self.min.get(k)));
            }
            if to_max < best {
                (best, point) = (to_max, p.with(k, self.max.get(k)));
            }
        }
        PointProjection { point, is_inside }
    }
}

/// Analytic for `Ball` and `Cuboid`, [`project_by_support`] for the other kinds.
impl<R: Real> ProjectPoint<R::V2> for shape_2d::Shape<R>
where
    R::V2: GjkVector,
{
    fn project_local_point(&self, p: R::V2, solid: bool) -> PointProjection<R::V2> {
        match self {
            Self::Ball(s) => s.project_local_point(p, solid),
            Self::Cuboid(s) => s.project_local_point(p, solid),
            _ => project_by_support(self, p, solid),
        }
    }
}

/// Analytic for `Ball` and `Cuboid`, [`project_by_support`] for the other kinds.
impl<R: Real> ProjectPoint<R::V3> for shape_3d::Shape<R>
where
    R::V3: GjkVector,
{
    fn project_local_point(&self, p: R::V3, solid: bool) -> PointProjection<R::V3> {
        match self {
            Self::Ball(s) => s.project_local_point(p, solid),
            Self::Cuboid(s) => s.project_local_point(p, solid),
            _ => project_by_support(self, p, solid),
        }
    }
}

/// [`ProjectPoint`] by [`project_by_support`] for shapes generic over the vector.
macro_rules! by_support_v {
    ($($ty:ident),*) => {$(
        /// Projection by GJK / EPA ([`project_by_support`]).
        impl<V: GjkVector> ProjectPoint<V> for $ty<V> {
            fn project_local_point(&self, p: V, solid: bool) -> PointProjection<V> {
                project_by_support(self, p, solid)
            }
        }
    )*};
}
by_support_v!(Capsule, Segment, Triangle);

/// [`ProjectPoint`] by [`project_by_support`] for shapes of one dimension.
macro_rules! by_support_r {
    ($v:ident: $($ty:ty),*) => {$(
        /// Projection by GJK / EPA ([`project_by_support`]).
        impl<R: Real> ProjectPoint<R::$v> for $ty
        where
            R::$v: GjkVector,
        {
            fn project_local_point(&self, p: R::$v, solid: bool) -> PointProjection<R::$v> {
                project_by_support(self, p, solid)
            }
        }
    )*};
}
by_support_r!(V2: ConvexPolygon<R>, obb_2d::Obb<R>);
by_support_r!(V3: ConvexPolyhedron<R>, obb_3d::Obb<R>, Cylinder<R>, Cone<R>);

/// Projection of a rounded shape by GJK / EPA ([`project_by_support`]).
impl<V: GjkVector, S: SupportMap<V>> ProjectPoint<V> for Rounded<S, V::Scalar> {
    fn project_local_point(&self, p: V, solid: bool) -> PointProjection<V> {
        project_by_support(self, p, solid)
    }
}
