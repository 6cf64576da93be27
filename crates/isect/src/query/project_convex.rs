//! [`ProjectPoint`] for every convex shape and the shape enums, in closed form: the
//! ball, the box (Ericson 5.1.3 for the closest point on a box) and the oriented box
//! (the same in its frame), the triangle (Ericson 5.1.5), the segment (5.1.2), the
//! capsule (the ball about the segment's closest point), the cylinder (clamping in
//! its frame, as for the box), the cone (its profile triangle in the half-plane of the
//! axis and the point) and the rounded shapes (the ball about their core's closest
//! point); polygons and polyhedra in `project_polytope`. GJK against the point
//! ([`project_by_support`], Ericson 9.5, with EPA for the hollow projection of a point
//! inside) remains for a point on a rounded core's boundary. Conventions in
//! [`project_point`](crate::query::project_point). The closed forms have no
//! tolerances; they are within a few `ε` of the problem's scale of the exact point
//! (`regressions/point_closest_points.rs`), which GJK is not on curved shapes (it stops
//! at its relative tolerance: the witness of a point 1e-2 off a cone's side was
//! 1e6 `ε` off) nor on slivers (`regressions/triangle_sliver_projection.rs`).

use crate::algo::gjk::GjkVector;
use crate::algo::support::SupportMap;
use crate::math::{Isometry, Real, Rotation3, Vector, Vector3};
use crate::query::contact::contact;
use crate::query::dispatch::FlatPart;
use crate::query::distance::closest_points;
use crate::query::project_point::{PointProjection, ProjectPoint};
use crate::shape::{obb_2d, obb_3d, shape_2d, shape_3d, Aabb, Ball, Capsule, Segment, Triangle};
use crate::shape::{Cone, Cylinder, Rounded};

/// Projection of `p` onto a convex support map in its local frame: GJK's closest
/// point outside; inside, `p` itself (`solid`) or the boundary point EPA finds
/// (the point where the shortest push out of the shape leaves it). A point beyond
/// [`QUERY_REACH`](crate::math::QUERY_REACH) gets the NaN projection (refused: GJK's
/// squared distances would overflow).
///
/// ```
/// use isect::d3::*;
/// use isect::query::project_convex::project_by_support;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A cylinder of radius 1 and height 4 about the y axis; (3, 0, 0) projects onto
/// // its side at (1, 0, 0).
/// let c = Cylinder::new(2.0, 1.0)?;
/// let proj = project_by_support(&c, Vec3::new(3.0, 0.0, 0.0), true);
/// assert!(!proj.is_inside);
/// assert!((proj.point - Vec3::X).length() < 1e-4);
/// # Ok(())
/// # }
/// ```
pub fn project_by_support<V: GjkVector, S: SupportMap<V> + ?Sized>(
    shape: &S,
    p: V,
    solid: bool,
) -> PointProjection<V> {
    if !crate::math::within_query_reach(p) {
        return PointProjection::nan();
    }
    let Ok(point) = Ball::placed(p, V::Scalar::ZERO) else {
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

/// Solid or hollow projection onto the cylinder in closed form: the axial coordinate
/// clamps to the caps and the radial part to the radius. A point inside projects
/// (hollow) onto the nearer of the cap it faces and the side (the cap on ties); a point
/// on the axis reaches the side along `+x`, a conventional choice. GJK stopped short
/// of proving a point inside a needle-thin cylinder
/// (`regressions/triangle_sliver_projection.rs`).
impl<R: Real> ProjectPoint<R::V3> for Cylinder<R> {
    fn project_local_point(&self, p: R::V3, solid: bool) -> PointProjection<R::V3> {
        if p.is_nan() {
            return PointProjection::nan();
        }
        let (h, r) = (self.half_height(), self.radius());
        let (x, y, z) = (p.get(0), p.get(1), p.get(2));
        let radial = hypot(x, z);
        let is_inside = y.abs() <= h && radial <= r;
        // (x, z) scaled to length `r` (on the axis: along +x).
        let on_rim = || match radial > R::ZERO {
            true => (x / radial * r, z / radial * r),
            false => (r, R::ZERO),
        };
        let point = match (is_inside, solid) {
            (true, true) => p,
            (true, false) if h - y.abs() <= r - radial => p.with(1, h.copysign(y)),
            (true, false) => {
                let (px, pz) = on_rim();
                R::V3::new(px, y, pz)
            }
            (false, _) => {
                let (px, pz) = if radial > r { on_rim() } else { (x, z) };
                R::V3::new(px, y.clamp_to(-h, h), pz)
            }
        };
        PointProjection { point, is_inside }
    }

    /// In closed form: the radial and axial excesses' hypotenuse (coordinates are
    /// within [`Real::MAX_COORD`], whose squares do not overflow).
    #[inline]
    fn distance_to_local_point(&self, p: R::V3) -> R {
        if p.is_nan() {
            return R::from_f64(f64::NAN);
        }
        let (x, y, z) = (p.get(0), p.get(1), p.get(2));
        let radial = (x * x + z * z).sqrt() - self.radius();
        let axial = y.abs() - self.half_height();
        // Beside the side or over a cap one excess is the distance: no second root.
        match (radial > R::ZERO, axial > R::ZERO) {
            (true, true) => (radial * radial + axial * axial).sqrt(),
            (true, false) => radial,
            (false, true) => axial,
            (false, false) => R::ZERO,
        }
    }
}

/// `√(a² + b²)` without overflow or underflow in the squares.
pub(crate) fn hypot<R: Real>(a: R, b: R) -> R {
    let (a, b) = (a.abs(), b.abs());
    let big = a.max(b);
    // Squares of these neither overflow nor underflow in `f32`: no divisions.
    if big >= R::from_f64(1e-15) && big <= R::from_f64(1e15) {
        return (a * a + b * b).sqrt();
    }
    if big == R::ZERO || !big.is_finite() {
        return big;
    }
    let (a, b) = (a / big, b / big);
    big * (a * a + b * b).sqrt()
}

/// Closed form for every kind (the rounded ones from their cores' projections).
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
            Self::Polygon(s) => s.project_local_point(p, solid),
            Self::Capsule(s) => s.project_local_point(p, solid),
            Self::RoundedCuboid(s) => s.project_local_point(p, solid),
            Self::RoundedPolygon(s) => s.project_local_point(p, solid),
        }
    }

    #[inline]
    fn distance_to_local_point(&self, p: R::V2) -> R {
        match self {
            Self::Ball(s) => s.distance_to_local_point(p),
            Self::Cuboid(s) => s.distance_to_local_point(p),
            Self::Triangle(s) => s.distance_to_local_point(p),
            Self::Segment(s) => s.distance_to_local_point(p),
            Self::Polygon(s) => s.distance_to_local_point(p),
            Self::Capsule(s) => s.distance_to_local_point(p),
            Self::RoundedCuboid(s) => s.distance_to_local_point(p),
            Self::RoundedPolygon(s) => s.distance_to_local_point(p),
        }
    }
}

/// Closed form for every kind (the rounded one from its core's projection).
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
            Self::Cylinder(s) => s.project_local_point(p, solid),
            Self::Polyhedron(s) => s.project_local_point(p, solid),
            Self::Capsule(s) => s.project_local_point(p, solid),
            Self::Cone(s) => s.project_local_point(p, solid),
            Self::RoundedCuboid(s) => s.project_local_point(p, solid),
        }
    }

    #[inline]
    fn distance_to_local_point(&self, p: R::V3) -> R {
        match self {
            Self::Ball(s) => s.distance_to_local_point(p),
            Self::Cuboid(s) => s.distance_to_local_point(p),
            Self::Triangle(s) => s.distance_to_local_point(p),
            Self::Segment(s) => s.distance_to_local_point(p),
            Self::Cylinder(s) => s.distance_to_local_point(p),
            Self::Polyhedron(s) => s.distance_to_local_point(p),
            Self::Capsule(s) => s.distance_to_local_point(p),
            Self::Cone(s) => s.distance_to_local_point(p),
            Self::RoundedCuboid(s) => s.distance_to_local_point(p),
        }
    }
}

/// Closed-form projection onto the capsule: the ball of its radius about the closest
/// point `q` of its segment (Ericson 5.1.2). A point on the segment projects (hollow)
/// across the segment, along the first coordinate axis least aligned with it.
impl<V: GjkVector> ProjectPoint<V> for Capsule<V> {
    fn project_local_point(&self, p: V, solid: bool) -> PointProjection<V> {
        if p.is_nan() {
            return PointProjection::nan();
        }
        let segment = self.segment();
        let (q, _) = segment.closest_point(p);
        let r = self.radius();
        if p != q || solid {
            return Ball::new(q, r).map_or_else(
                |_| PointProjection::nan(),
                |b| b.project_local_point(p, solid),
            );
        }
        let across = perpendicular(segment.b - segment.a);
        PointProjection {
            point: q + across * r,
            is_inside: true,
        }
    }
}

/// A unit vector perpendicular to `d` (any unit vector for a zero `d`): the coordinate
/// axis least aligned with `d`, with its part along `d` removed.
fn perpendicular<V: Vector>(d: V) -> V {
    let k = (1..V::DIM).fold(0, |k, i| {
        if d.get(i).abs() < d.get(k).abs() {
            i
        } else {
            k
        }
    });
    let axis = V::unit_axis(k);
    match d.try_normalize() {
        Some(u) => (axis - u * u.dot(axis)).try_normalize().unwrap_or(axis),
        None => axis,
    }
}

/// Closed-form projection onto the box in its frame ([`Aabb`]'s), rotated back.
impl<R: Real> ProjectPoint<R::V3> for obb_3d::Obb<R> {
    fn project_local_point(&self, p: R::V3, solid: bool) -> PointProjection<R::V3> {
        let he = self.half_extents();
        let local = Aabb { min: -he, max: he }.project_local_point(self.to_local(p), solid);
        PointProjection {
            point: self.center() + self.rotation().rotate(local.point),
            ..local
        }
    }
}

/// Closed-form projection onto the box in its frame ([`Aabb`]'s), rotated back.
impl<R: Real> ProjectPoint<R::V2> for obb_2d::Obb<R> {
    fn project_local_point(&self, p: R::V2, solid: bool) -> PointProjection<R::V2> {
        let he = self.half_extents();
        let local = Aabb { min: -he, max: he }.project_local_point(self.to_local(p), solid);
        PointProjection {
            point: self.center() + self.rotation().rotate(local.point),
            ..local
        }
    }
}

/// Closed-form projection onto the cone: in the half-plane of the axis and `p`
/// (coordinates `ρ`, the distance from the axis, and `y`) the cone is the right
/// triangle `(0, h)`, `(r, −h)`, `(0, −h)`; outside, the nearer of the closest points
/// of its slant side and its base (Ericson 5.1.2); inside (hollow), the foot on the
/// nearer of them. The answer turns back about the axis (a point on the axis: toward
/// `+x`, a conventional choice).
impl<R: Real> ProjectPoint<R::V3> for Cone<R> {
    fn project_local_point(&self, p: R::V3, solid: bool) -> PointProjection<R::V3> {
        if p.is_nan() {
            return PointProjection::nan();
        }
        let is_inside = self.contains_point(p);
        if is_inside && solid {
            return PointProjection {
                point: p,
                is_inside,
            };
        }
        let (x, y, z) = (p.get(0), p.get(1), p.get(2));
        let radial = hypot(x, z);
        let (rho, y) = cone_profile_point(self.half_height(), self.radius(), radial, y, is_inside);
        let (px, pz) = match radial > R::ZERO {
            true => (x / radial * rho, z / radial * rho),
            false => (rho, R::ZERO),
        };
        PointProjection {
            point: R::V3::new(px, y, pz),
            is_inside,
        }
    }
}

/// The boundary point of the cone's profile triangle `(0, h)`, `(r, −h)`, `(0, −h)`
/// nearest `(rho, y)` (`rho ≥ 0`): for a point outside, the nearer of the closest
/// points of the slant side and the base; inside, the foot on the nearer of them.
fn cone_profile_point<R: Real>(h: R, r: R, rho: R, y: R, inside: bool) -> (R, R) {
    let base = (rho.clamp_to(R::ZERO, r), -h);
    // The slant side from the apex (0, h) along e = (r, −2h).
    let (ex, ey) = (r, -(h + h));
    let e2 = ex * ex + ey * ey;
    let (dx, dy) = (rho, y - h);
    let t = match e2 > R::ZERO {
        true => ((dx * ex + dy * ey) / e2).clamp_to(R::ZERO, R::ONE),
        false => R::ZERO,
    };
    let slant = (ex * t, h + ey * t);
    let far = |q: (R, R)| (q.0 - rho) * (q.0 - rho) + (q.1 - y) * (q.1 - y);
    // False for NaN too: the base is the safe answer.
    let slant_nearer = far(slant) < far(base);
    match inside {
        // Inside, the feet lie on both pieces (the angles at the base are acute
        // or right): the nearer foot is the nearer piece.
        true if far(base) <= far(slant) => base,
        false if !slant_nearer => base,
        _ => slant,
    }
}

/// Projection onto a rounded shape from its core's projection `q` (solid): outside the
/// core, the ball of the rounding radius about `q`; inside it, `p` (solid) or the
/// core's hollow projection pushed out by the radius along the way there. A point on
/// the core's boundary projects (hollow) by GJK / EPA ([`project_by_support`]).
impl<V: GjkVector, S: SupportMap<V> + ProjectPoint<V>> ProjectPoint<V> for Rounded<S, V::Scalar> {
    fn project_local_point(&self, p: V, solid: bool) -> PointProjection<V> {
        if p.is_nan() {
            return PointProjection::nan();
        }
        let core = self.inner().project_local_point(p, true);
        let r = self.radius();
        if !core.is_inside {
            return Ball::new(core.point, r).map_or_else(
                |_| PointProjection::nan(),
                |b| b.project_local_point(p, solid),
            );
        }
        if solid {
            return core;
        }
        let out = self.inner().project_local_point(p, false).point - p;
        match out.try_normalize() {
            Some(n) => PointProjection {
                point: p + out + n * r,
                is_inside: true,
            },
            None => project_by_support(self, p, solid),
        }
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

    /// The cylinder's closed form against the analytic answer for the cylinder of
    /// half height 2 and radius 1: outside beside the side, beyond a cap, beyond the rim
    /// (the rim point), on the axis; inside nearer the side or a cap (hollow), on the
    /// axis (hollow: along +x); on the boundary; at scales 1e-6 and 1e6; degenerate
    /// cylinders (a disc, a segment, a point); NaN.
    #[test]
    fn cylinder_closed_form_edges() {
        for scale in [1.0, 1e-6, 1e6] {
            let c = Cylinder::<f64>::new(2.0 * scale, scale).unwrap();
            let v = |x: f64, y: f64, z: f64| DVec3::new(x, y, z) * scale;
            let cases = [
                (v(3.0, 0.5, 0.0), false, v(1.0, 0.5, 0.0), false),
                (v(0.0, 5.0, 0.5), false, v(0.0, 2.0, 0.5), false),
                (v(3.0, -4.0, 4.0), false, v(0.6, -2.0, 0.8), false),
                (v(0.0, -9.0, 0.0), false, v(0.0, -2.0, 0.0), false),
                (v(0.0, 0.25, 0.75), false, v(0.0, 0.25, 1.0), true),
                (v(0.6, 1.9, 0.0), false, v(0.6, 2.0, 0.0), true),
                (v(0.0, 0.0, 0.0), false, v(1.0, 0.0, 0.0), true),
                (v(0.0, 0.5, 0.75), true, v(0.0, 0.5, 0.75), true),
                (v(0.6, 2.0, 0.8), true, v(0.6, 2.0, 0.8), true),
            ];
            for (p, solid, want, inside) in cases {
                let got = c.project_local_point(p, solid);
                assert_eq!(got.is_inside, inside, "{p} at scale {scale}");
                assert!(
                    got.point.distance(want) <= 1e-12 * scale,
                    "{p}: {} vs {want}",
                    got.point
                );
            }
        }
        let disc = Cylinder::<f64>::new(0.0, 1.0).unwrap();
        let q = disc.project_local_point(DVec3::new(2.0, 3.0, 0.0), true);
        assert_eq!((q.point, q.is_inside), (DVec3::new(1.0, 0.0, 0.0), false));
        let needle = Cylinder::<f64>::new(1.0, 0.0).unwrap();
        let q = needle.project_local_point(DVec3::new(0.0, 0.5, 3.0), false);
        assert_eq!((q.point, q.is_inside), (DVec3::new(0.0, 0.5, 0.0), false));
        let dot = Cylinder::<f64>::new(0.0, 0.0).unwrap();
        assert!(dot.project_local_point(DVec3::ZERO, true).is_inside);
        let nan = c_nan();
        assert!(nan.point.is_nan() && !nan.is_inside);
    }

    fn c_nan() -> PointProjection<DVec3> {
        let c = Cylinder::<f64>::new(1.0, 1.0).unwrap();
        c.project_local_point(DVec3::new(f64::NAN, 0.0, 0.0), true)
    }

    /// On seeded random points around cylinders of moderate proportions, the closed
    /// form agrees with GJK / EPA (`project_by_support`), solid and hollow, on whether
    /// the point is inside, and finds a boundary point at least as near as GJK's
    /// (which stops at its relative tolerance: up to 2e-4 off on a cylinder's side) and
    /// as near as EPA's to 1e-3 (EPA's point lies on an inscribed polytope).
    #[test]
    fn cylinder_closed_form_matches_gjk() {
        let mut state = 0x5eed_c71du64;
        let mut unit = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut inside = 0;
        for _ in 0..2000 {
            let c = Cylinder::<f64>::new(0.5 + 2.0 * unit(), 0.5 + 2.0 * unit()).unwrap();
            let p = DVec3::new(unit(), unit(), unit()) * 5.0 - DVec3::splat(2.5);
            for solid in [true, false] {
                let got = c.project_local_point(p, solid);
                let gjk = project_by_support(&c, p, solid);
                assert_eq!(got.is_inside, gjk.is_inside, "{p} in {c:?}");
                let (q, theirs) = (got.point, p.distance(gjk.point));
                // Outside, GJK's point lies in the shape: ours is at most as far. Inside,
                // EPA's lies on an inscribed polytope: ours is about as far (1e-3).
                let near = match got.is_inside {
                    false => p.distance(q) <= theirs + 1e-12,
                    true => (p.distance(q) - theirs).abs() <= 1e-3,
                };
                assert!(near, "{p} in {c:?}: {q} vs {}", gjk.point);
                let radial = (q.x * q.x + q.z * q.z).sqrt();
                let on_side = (radial - c.radius()).abs() <= 1e-12;
                let on_cap = (q.y.abs() - c.half_height()).abs() <= 1e-12;
                let kept = solid && got.is_inside && q == p;
                assert!(c.contains_point(q) || on_side, "{q} on {c:?}");
                assert!(kept || on_side || on_cap, "{q} on the boundary of {c:?}");
            }
            inside += usize::from(c.contains_point(p));
        }
        assert!((200..1800).contains(&inside), "{inside} of 2000 inside");
    }
}
