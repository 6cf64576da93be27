//! The 3D dispatch table: one `match` per query over the pair of kinds. Pairs
//! without an analytic kernel take the generic path with the enum itself as the
//! support map (one support `match` per call: one compiled copy of GJK / EPA per
//! dimension instead of one per pair of kinds).

use super::ball_flat::{contact_ball_flat, distance_ball_flat, intersects_ball_flat};
use super::*;
use crate::algo::sat_3d;
use crate::math::Pose3;
use crate::query::{cast_shapes as generic_cast, contact as generic_contact, distance as gd};
use crate::shape::obb_3d::Obb;
use crate::shape::shape_3d::Shape;

/// The world OBB of a local box placed at `pose` (`None` for a non-finite pose).
#[inline]
fn world_obb<R: Real>(pose: &Pose3<R>, b: &Aabb<R::V3>) -> Option<Obb<R>> {
    Obb::new(
        pose.transform_point(b.center()),
        b.half_extents(),
        pose.rotation,
    )
    .ok()
}

/// Box–box SAT, or `None` when a pose is not finite.
#[inline]
fn obb_pair<R: Real>(
    pa: &Pose3<R>,
    a: &Aabb<R::V3>,
    pb: &Pose3<R>,
    b: &Aabb<R::V3>,
) -> Option<(Obb<R>, Obb<R>)> {
    Some((world_obb(pa, a)?, world_obb(pb, b)?))
}

impl<R: Real> DispatchShape<R::V3> for Shape<R>
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    #[inline]
    fn world_aabb(&self, pose: &Pose3<R>) -> Aabb<R::V3> {
        let analytic = match self {
            Shape::Ball(b) => analytic_world_aabb(Some(b), None, pose),
            Shape::Cuboid(b) => analytic_world_aabb(None, Some(b), pose),
            _ => None,
        };
        analytic.unwrap_or_else(|| self.aabb(pose))
    }

    #[inline]
    fn contains_point(&self, pose: &Pose3<R>, p: R::V3) -> bool {
        support_contains_point(self, pose, p)
    }

    #[inline]
    fn intersects_aabb(&self, pose: &Pose3<R>, region: &Aabb<R::V3>) -> bool {
        support_intersects_aabb(self, pose, region)
    }

    fn intersects_pair(pa: &Pose3<R>, a: &Self, pb: &Pose3<R>, b: &Self) -> bool {
        use Shape::*;
        // Huge radii square to ∞, which the analytic kernels would compare with an
        // infinite offset: refuse non-finite poses first.
        if !(pa.is_finite() && pb.is_finite()) {
            return false;
        }
        match (a, b) {
            (Ball(x), Ball(y)) => intersects_ball_ball(pa, x, pb, y),
            (Ball(x), Capsule(y)) => intersects_ball_capsule(pa, x, pb, y),
            (Capsule(x), Ball(y)) => intersects_ball_capsule(pb, y, pa, x),
            (Capsule(x), Capsule(y)) => intersects_capsule_capsule(pa, x, pb, y),
            (Ball(x), Cuboid(y)) => intersects_ball_cuboid(pa, x, pb, y),
            (Cuboid(x), Ball(y)) => intersects_ball_cuboid(pb, y, pa, x),
            (Ball(x), Triangle(y)) => intersects_ball_flat(pa, x, pb, y),
            (Triangle(x), Ball(y)) => intersects_ball_flat(pb, y, pa, x),
            (Ball(x), Segment(y)) => intersects_ball_flat(pa, x, pb, y),
            (Segment(x), Ball(y)) => intersects_ball_flat(pb, y, pa, x),
            (Cuboid(x), Cuboid(y)) => {
                obb_pair(pa, x, pb, y).is_some_and(|(p, q)| sat_3d::intersects_obb_obb(&p, &q))
            }
            _ => gd::intersects(pa, a, pb, b),
        }
    }

    fn contact_pair(
        pa: &Pose3<R>,
        a: &Self,
        pb: &Pose3<R>,
        b: &Self,
        prediction: R,
    ) -> Option<Contact<R::V3>> {
        use crate::query::contact::{
            contact_ball_ball, contact_ball_capsule, contact_capsule_capsule,
        };
        use Shape::*;
        if !(pa.is_finite() && pb.is_finite()) {
            return None;
        }
        match (a, b) {
            (Ball(x), Ball(y)) => contact_ball_ball(pa, x, pb, y, prediction),
            (Ball(x), Capsule(y)) => contact_ball_capsule(pa, x, pb, y, prediction),
            (Capsule(x), Ball(y)) => flip_contact(contact_ball_capsule(pb, y, pa, x, prediction)),
            (Capsule(x), Capsule(y)) => contact_capsule_capsule(pa, x, pb, y, prediction),
            (Ball(x), Cuboid(y)) => contact_ball_cuboid(pa, x, pb, y, prediction),
            (Cuboid(x), Ball(y)) => flip_contact(contact_ball_cuboid(pb, y, pa, x, prediction)),
            (Ball(x), Triangle(y)) => contact_ball_flat(pa, x, pb, y, prediction),
            (Triangle(x), Ball(y)) => flip_contact(contact_ball_flat(pb, y, pa, x, prediction)),
            (Ball(x), Segment(y)) => contact_ball_flat(pa, x, pb, y, prediction),
            (Segment(x), Ball(y)) => flip_contact(contact_ball_flat(pb, y, pa, x, prediction)),
            (Cuboid(x), Cuboid(y)) => match obb_pair(pa, x, pb, y) {
                Some((p, q)) => match sat_3d::obb_obb_mtv(&p, &q) {
                    Some(mtv) if -mtv.depth <= prediction => Some(contact_from_mtv(pa, x, mtv)),
                    _ if prediction > R::ZERO => generic_contact(pa, x, pb, y, prediction),
                    _ => None,
                },
                None => None,
            },
            _ => generic_contact(pa, a, pb, b, prediction),
        }
    }

    fn contact_manifold_pair(
        pa: &Pose3<R>,
        a: &Self,
        pb: &Pose3<R>,
        b: &Self,
        prediction: R,
    ) -> Option<Manifold<R::V3>> {
        use crate::query::manifold::{contact_manifold_obb_3d, contact_manifold_polyhedra};
        use Shape::*;
        let single = |c: Contact<R::V3>| Manifold::single(&c, FeatureId::SINGLE);
        match (a, b) {
            (Cuboid(x), Cuboid(y)) => {
                let (p, q) = obb_pair(pa, x, pb, y)?;
                let id = Pose3::default();
                contact_manifold_obb_3d(&id, &p, &id, &q, prediction)
            }
            (Polyhedron(x), Polyhedron(y)) => contact_manifold_polyhedra(pa, x, pb, y, prediction),
            _ => Self::contact_pair(pa, a, pb, b, prediction).map(single),
        }
    }

    fn distance_pair(pa: &Pose3<R>, a: &Self, pb: &Pose3<R>, b: &Self) -> R {
        use Shape::*;
        if !(pa.is_finite() && pb.is_finite()) {
            return R::from_f64(f64::NAN);
        }
        match (a, b) {
            (Ball(x), Ball(y)) => gd::distance_ball_ball(pa, x, pb, y),
            (Ball(x), Capsule(y)) => distance_ball_capsule(pa, x, pb, y),
            (Capsule(x), Ball(y)) => distance_ball_capsule(pb, y, pa, x),
            (Capsule(x), Capsule(y)) => gd::distance_capsule_capsule(pa, x, pb, y),
            (Ball(x), Cuboid(y)) => distance_ball_cuboid(pa, x, pb, y),
            (Cuboid(x), Ball(y)) => distance_ball_cuboid(pb, y, pa, x),
            (Ball(x), Triangle(y)) => distance_ball_flat(pa, x, pb, y),
            (Triangle(x), Ball(y)) => distance_ball_flat(pb, y, pa, x),
            (Ball(x), Segment(y)) => distance_ball_flat(pa, x, pb, y),
            (Segment(x), Ball(y)) => distance_ball_flat(pb, y, pa, x),
            _ => gd::distance(pa, a, pb, b),
        }
    }

    fn closest_points_pair(
        pa: &Pose3<R>,
        a: &Self,
        pb: &Pose3<R>,
        b: &Self,
    ) -> ClosestPoints<R::V3> {
        // No analytic kernel gives witness points cheaper than GJK does here.
        gd::closest_points(pa, a, pb, b)
    }

    fn cast_pair(
        pa: &Pose3<R>,
        vel_a: R::V3,
        a: &Self,
        pb: &Pose3<R>,
        vel_b: R::V3,
        b: &Self,
        max_t: R,
    ) -> Option<ShapeCastHit<R::V3>> {
        generic_cast(pa, vel_a, a, pb, vel_b, b, max_t)
    }
}
