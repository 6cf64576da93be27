//! [`ProjectPoint`] for every convex shape and the shape enums: analytic for the ball,
//! the box (Ericson 5.1.3 for the closest point on a box), the triangle (Ericson
//! 5.1.5) and the segment (5.1.2), GJK against the point for every other support map
//! (Ericson 9.5), with EPA giving the nearest boundary point of a point inside a
//! hollow projection. Conventions in [`project_point`](crate::query::project_point).
//! Tolerances are those of GJK and EPA; the closed forms have none. The triangle and
//! segment take the closed form because GJK stops far from the answer on slivers
//! (`regressions/triangle_sliver_projection.rs`).

use crate::algo::gjk::GjkVector;
use crate::algo::support::SupportMap;
use crate::math::{Isometry, Real, Vector};
use crate::query::contact::contact;
use crate::query::dispatch::FlatPart;
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

/// Projection onto a triangle or segment by its closed-form closest point `q`;
/// `on_part` says whether `p` belongs to the part. Only a 2D triangle has an interior
/// whose hollow projection is a boundary point, which EPA gives as for the other solids.
fn project_flat<V: GjkVector, F: FlatPart<V>>(
    part: &F,
    p: V,
    q: V,
    on_part: bool,
    solid: bool,
) -> PointProjection<V> {
    if p.is_nan() {
        return PointProjection::nan();
    }
    if !on_part {
        return PointProjection {
            point: q,
            is_inside: false,
        };
    }
    if solid || V::DIM == 3 {
        return PointProjection {
            point: p,
            is_inside: true,
        };
    }
    project_by_support(part, p, solid)
}

/// `a × b` of the first two coordinates (the 2D cross product).
#[inline]
fn cross_2d<V: Vector>(a: V, b: V) -> V::Scalar {
    a.get(0) * b.get(1) - a.get(1) * b.get(0)
}

/// True when `p` lies in the 2D triangle (boundary included), by exact orientation
/// signs: the closed-form closest point of an interior point is rebuilt from
/// barycentric weights and may differ from `p` in the last bit. A flat triangle
/// has no interior: `None`, and the caller compares the closest point instead.
fn in_triangle_2d<V: Vector>(t: &Triangle<V>, p: V) -> Option<bool> {
    let zero = V::Scalar::ZERO;
    if cross_2d(t.b - t.a, t.c - t.a) == zero {
        return None;
    }
    let s = [
        cross_2d(t.b - t.a, p - t.a),
        cross_2d(t.c - t.b, p - t.b),
        cross_2d(t.a - t.c, p - t.c),
    ];
    Some(s.iter().all(|&x| x >= zero) || s.iter().all(|&x| x <= zero))
}

/// Closed-form projection (Ericson 5.1.5); a 2D triangle's interior by exact orientation
/// signs, its hollow projection by EPA.
impl<V: GjkVector> ProjectPoint<V> for Triangle<V>
where
    Triangle<V>: SupportMap<V>,
{
    fn project_local_point(&self, p: V, solid: bool) -> PointProjection<V> {
        let q = self.closest_to(p);
        let interior = (V::DIM == 2).then(|| in_triangle_2d(self, p)).flatten();
        project_flat(self, p, q, interior.unwrap_or(q == p), solid)
    }
}

/// Closed-form projection (Ericson 5.1.2); a segment has no interior.
impl<V: GjkVector> ProjectPoint<V> for Segment<V>
where
    Segment<V>: SupportMap<V>,
{
    fn project_local_point(&self, p: V, _solid: bool) -> PointProjection<V> {
        let q = self.closest_to(p);
        project_flat(self, p, q, q == p, true)
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

/// Analytic for `Ball`, `Cuboid`, `Triangle` and `Segment`, [`project_by_support`] for
/// the other kinds.
impl<R: Real> ProjectPoint<R::V2> for shape_2d::Shape<R>
where
    R::V2: GjkVector,
{
    fn project_local_point(&self, p: R::V2, solid: bool) -> PointProjection<R::V2> {
        match self {
            Self::Ball(s) => s.project_local_point(p, solid),
            Self::Cuboid(s) => s.project_local_point(p, solid),
            Self::Triangle(s) => s.project_local_point(p, solid),
            Self::Segment(s) => s.project_local_point(p, solid),
            _ => project_by_support(self, p, solid),
        }
    }
}

/// Analytic for `Ball`, `Cuboid`, `Triangle` and `Segment`, [`project_by_support`] for
/// the other kinds.
impl<R: Real> ProjectPoint<R::V3> for shape_3d::Shape<R>
where
    R::V3: GjkVector,
{
    fn project_local_point(&self, p: R::V3, solid: bool) -> PointProjection<R::V3> {
        match self {
            Self::Ball(s) => s.project_local_point(p, solid),
            Self::Cuboid(s) => s.project_local_point(p, solid),
            Self::Triangle(s) => s.project_local_point(p, solid),
            Self::Segment(s) => s.project_local_point(p, solid),
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
by_support_v!(Capsule);

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

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, DVec3, Vec2};

    fn tri2(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> Triangle<DVec2> {
        Triangle {
            a: DVec2::from(a),
            b: DVec2::from(b),
            c: DVec2::from(c),
        }
    }

    // A point inside a 2D triangle (either winding) is inside; solid keeps it, hollow
    // moves it to the nearest edge.
    #[test]
    fn inside_2d_triangle_solid_and_hollow() {
        for t in [
            tri2([0.0, 0.0], [4.0, 0.0], [0.0, 4.0]),
            tri2([0.0, 0.0], [0.0, 4.0], [4.0, 0.0]),
        ] {
            let p = DVec2::new(1.0, 0.25);
            let solid = t.project_local_point(p, true);
            assert!(solid.is_inside && solid.point == p);
            let hollow = t.project_local_point(p, false);
            assert!(hollow.is_inside);
            assert!((hollow.point - DVec2::new(1.0, 0.0)).length() < 1e-9);
        }
    }

    // Interior points whose barycentric rebuild is inexact still count as inside (f32,
    // a thin triangle 1e4 long).
    #[test]
    fn inside_thin_f32_triangle_is_exactly_inside() {
        let t = Triangle {
            a: Vec2::new(0.0, 0.0),
            b: Vec2::new(1e4, 0.0),
            c: Vec2::new(0.0, 1e-2),
        };
        for i in 1..100 {
            let p = Vec2::new(i as f32 * 97.0, 1e-5);
            let r = t.project_local_point(p, true);
            assert!(r.is_inside && r.point == p, "{p}");
        }
    }

    // Outside: the closest point, on an edge or a vertex; on the boundary: inside.
    #[test]
    fn outside_and_boundary_2d() {
        let t = tri2([0.0, 0.0], [4.0, 0.0], [0.0, 4.0]);
        let r = t.project_local_point(DVec2::new(2.0, -3.0), true);
        assert!(!r.is_inside && r.point == DVec2::new(2.0, 0.0));
        let r = t.project_local_point(DVec2::new(-1.0, -1.0), true);
        assert!(!r.is_inside && r.point == DVec2::ZERO);
        let r = t.project_local_point(DVec2::new(2.0, 0.0), true);
        assert!(r.is_inside && r.point == DVec2::new(2.0, 0.0));
    }

    // A flat (collinear) triangle: points of its span are on it, points beyond are
    // not, although every orientation sign is zero there.
    #[test]
    fn flat_2d_triangle() {
        let t = tri2([0.0, 0.0], [1.0, 0.0], [2.0, 0.0]);
        assert!(t.project_local_point(DVec2::new(1.5, 0.0), true).is_inside);
        let r = t.project_local_point(DVec2::new(5.0, 0.0), true);
        assert!(!r.is_inside && r.point == DVec2::new(2.0, 0.0));
    }

    // 3D triangle and segment: the closed-form closest point; NaN gives NaN.
    #[test]
    fn triangle_3d_and_segment() {
        let t = Triangle {
            a: DVec3::ZERO,
            b: DVec3::X * 2.0,
            c: DVec3::Y * 2.0,
        };
        let r = t.project_local_point(DVec3::new(0.5, 0.5, 3.0), false);
        assert!(!r.is_inside && r.point == DVec3::new(0.5, 0.5, 0.0));
        let s = Segment {
            a: DVec3::ZERO,
            b: DVec3::X,
        };
        let r = s.project_local_point(DVec3::new(2.0, 1.0, 0.0), true);
        assert!(!r.is_inside && r.point == DVec3::X);
        assert!(s.project_local_point(DVec3::X * 0.5, false).is_inside);
        assert!(t.project_local_point(DVec3::NAN, true).point.is_nan());
    }
}
