//! The 2D convex enum in the shared dispatch table ([`super::table`]): its kinds,
//! box–box SAT on oriented rectangles, the polygon–polygon SAT kernels and the
//! box–polygon manifold.

use super::table::{self, dispatch_by_table, shared_convex_hooks, ConvexEnum, Kind};
use super::*;
use crate::algo::sat_2d::{self, SatResult};
use crate::math::Pose2;
use crate::query::manifold::{
    contact_manifold_obb_2d, contact_manifold_obb_polygon, contact_manifold_polygons,
};
use crate::shape::obb_2d::Obb;
use crate::shape::shape_2d::Shape;

/// The world OBB of a local box placed at `pose` (`None` for a non-finite pose).
#[inline]
fn world_obb<R: Real>(pose: &Pose2<R>, b: &Aabb<R::V2>) -> Option<Obb<R>> {
    Obb::placed(
        pose.transform_point(b.center()),
        b.half_extents(),
        pose.rotation,
    )
    .ok()
}

impl<R: Real> ConvexEnum<R::V2> for Shape<R>
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    shared_convex_hooks!(
        V2,
        Pose2,
        sat_2d,
        contact_manifold_obb_2d,
        crate::algo::witness::witness_2d
    );

    fn hull_vertices(&self) -> Option<&[R::V2]> {
        match self {
            Shape::Polygon(s) => Some(s.vertices()),
            _ => None,
        }
    }

    fn has_polytope_core(&self) -> bool {
        true
    }

    fn own_intersects(pa: &Pose2<R>, a: &Self, pb: &Pose2<R>, b: &Self) -> Option<bool> {
        match (a, b) {
            (Shape::Polygon(x), Shape::Polygon(y)) => {
                Some(sat_2d::intersects_polygon_polygon(pa, x, pb, y))
            }
            _ => None,
        }
    }

    fn own_contact(
        pa: &Pose2<R>,
        a: &Self,
        pb: &Pose2<R>,
        b: &Self,
        prediction: R,
    ) -> Option<Option<Contact<R::V2>>> {
        let (Shape::Polygon(x), Shape::Polygon(y)) = (a, b) else {
            return None;
        };
        Some(match sat_2d::polygon_polygon(pa, x, pb, y) {
            SatResult::Overlapping { depth, axis } if -depth <= prediction => {
                let va = x.vertices().iter().map(|&v| pa.transform_point(v));
                let vb = y.vertices().iter().map(|&v| pb.transform_point(v));
                let w = crate::algo::witness::witness_2d(va, vb, axis, depth);
                Some(contact_from_mtv(Mtv { axis, depth }, w))
            }
            SatResult::Separated { distance, .. } if distance <= prediction => {
                crate::query::contact(pa, x, pb, y, prediction)
            }
            _ => None,
        })
    }

    fn feature_manifold(
        pa: &Pose2<R>,
        a: &Self,
        pb: &Pose2<R>,
        b: &Self,
        c: &Contact<R::V2>,
        prediction: R,
    ) -> Manifold<R::V2> {
        crate::query::manifold::features::manifold_2d(pa, a, pb, b, c, prediction)
    }

    fn own_manifold(
        pa: &Pose2<R>,
        a: &Self,
        pb: &Pose2<R>,
        b: &Self,
        prediction: R,
    ) -> Option<Option<Manifold<R::V2>>> {
        let id = Pose2::default();
        match (a, b) {
            (Shape::Polygon(x), Shape::Polygon(y)) => {
                Some(contact_manifold_polygons(pa, x, pb, y, prediction))
            }
            (Shape::Cuboid(x), Shape::Polygon(y)) => Some(
                world_obb(pa, x)
                    .and_then(|o| contact_manifold_obb_polygon(&id, &o, pb, y, prediction)),
            ),
            (Shape::Polygon(x), Shape::Cuboid(y)) => Some(
                world_obb(pb, y)
                    .and_then(|o| contact_manifold_obb_polygon(&id, &o, pa, x, prediction))
                    .map(|m| m.flipped()),
            ),
            _ => None,
        }
    }

    fn own_distance(pa: &Pose2<R>, a: &Self, pb: &Pose2<R>, b: &Self) -> Option<R> {
        let (Shape::Polygon(x), Shape::Polygon(y)) = (a, b) else {
            return None;
        };
        Some(match sat_2d::polygon_polygon(pa, x, pb, y) {
            SatResult::Separated { distance, .. } => distance,
            SatResult::Overlapping { .. } => R::ZERO,
        })
    }
}

dispatch_by_table!(V2, Pose2);
