//! The 3D convex enum in the shared dispatch table ([`super::table`]): its kinds,
//! box–box SAT on oriented boxes (15 axes), the polyhedron manifold, ball–cylinder
//! and ball–cone contacts by the centre's closed-form projection, and capsule–cylinder
//! distance and contact by the segment's ([`crate::query::capsule_cylinder`]).

use super::table::{self, dispatch_by_table, shared_convex_hooks, ConvexEnum, Kind};
use super::*;
use crate::algo::sat_3d;
use crate::algo::witness::{witness_boxes_3d, PlacedBox};
use crate::math::{Pose3, Rotation3};
use crate::query::capsule_cylinder::{contact_capsule_cylinder_apart, distance_capsule_cylinder};
use crate::query::capsule_triangle::contact_capsule_triangle;
use crate::query::contact::contact_ball_projected_finite;
use crate::query::manifold::{contact_manifold_obb_3d, contact_manifold_polyhedra};
use crate::shape::obb_3d::Obb;
use crate::shape::shape_3d::Shape;

/// The world OBB of a local box placed at `pose` (`None` for a non-finite pose).
#[inline]
fn world_obb<R: Real>(pose: &Pose3<R>, b: &Aabb<R::V3>) -> Option<Obb<R>> {
    Obb::placed_or_none(
        pose.transform_point(b.center()),
        b.half_extents(),
        pose.rotation,
    )
}

/// The witnesses of two boxes' contact of normal `n` and depth `depth`
/// ([`witness_boxes_3d`]: their support sets from the normal's side of each box axis).
fn box_witness_3d<R: Real>(
    pa: &Pose3<R>,
    a: &Aabb<R::V3>,
    pb: &Pose3<R>,
    b: &Aabb<R::V3>,
    n: R::V3,
    depth: R,
) -> (R::V3, R::V3) {
    let placed = |pose: &Pose3<R>, b: &Aabb<R::V3>| {
        let (c, h) = (b.center(), b.half_extents());
        let axes = pose.rotation.matrix_columns();
        PlacedBox {
            centre: pose.translation + axes[0] * c.get(0) + axes[1] * c.get(1) + axes[2] * c.get(2),
            axes,
            half: [h.get(0), h.get(1), h.get(2)],
        }
    };
    witness_boxes_3d(&placed(pa, a), &placed(pb, b), n, depth)
}

impl<R: Real> ConvexEnum<R::V3> for Shape<R>
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    shared_convex_hooks!(V3, Pose3, sat_3d, contact_manifold_obb_3d, box_witness_3d);

    fn hull_vertices(&self) -> Option<&[R::V3]> {
        match self {
            Shape::Polyhedron(s) => Some(s.vertices()),
            _ => None,
        }
    }

    fn has_polytope_core(&self) -> bool {
        !matches!(self, Shape::Cylinder(_) | Shape::Cone(_))
    }

    fn boxes_mtv_warm(
        pa: &Pose3<R>,
        a: &Aabb<R::V3>,
        pb: &Pose3<R>,
        b: &Aabb<R::V3>,
        distance: R,
        axis: &mut u32,
    ) -> Option<Option<Mtv<R::V3>>> {
        match (world_obb(pa, a), world_obb(pb, b)) {
            (Some(p), Some(q)) => sat_3d::obb_obb_mtv_warm(&p, &q, distance, axis),
            _ => Some(None),
        }
    }

    fn boxes_apart_along(
        pa: &Pose3<R>,
        a: &Aabb<R::V3>,
        pb: &Pose3<R>,
        b: &Aabb<R::V3>,
        k: u32,
        distance: R,
    ) -> bool {
        match (world_obb(pa, a), world_obb(pb, b)) {
            (Some(p), Some(q)) => sat_3d::obb_axis_separates(&p, &q, k, distance),
            _ => false,
        }
    }

    fn boxes_separating_axis(
        pa: &Pose3<R>,
        a: &Aabb<R::V3>,
        pb: &Pose3<R>,
        b: &Aabb<R::V3>,
    ) -> Option<u32> {
        sat_3d::obb_separating_axis(&world_obb(pa, a)?, &world_obb(pb, b)?)
    }

    fn own_contact(
        pa: &Pose3<R>,
        a: &Self,
        pb: &Pose3<R>,
        b: &Self,
        prediction: R,
    ) -> Option<Option<Contact<R::V3>>> {
        let flipped = |c: Option<Option<Contact<R::V3>>>| c.map(|c| c.map(|c| c.flipped()));
        match (a, b) {
            (Shape::Ball(x), Shape::Cylinder(y)) => {
                contact_ball_projected_finite(pa, x, pb, y, prediction)
            }
            (Shape::Cylinder(x), Shape::Ball(y)) => {
                flipped(contact_ball_projected_finite(pb, y, pa, x, prediction))
            }
            (Shape::Ball(x), Shape::Cone(y)) => {
                contact_ball_projected_finite(pa, x, pb, y, prediction)
            }
            (Shape::Cone(x), Shape::Ball(y)) => {
                flipped(contact_ball_projected_finite(pb, y, pa, x, prediction))
            }
            (Shape::Capsule(x), Shape::Cylinder(y)) => {
                contact_capsule_cylinder_apart(pa, x, pb, y, prediction)
            }
            (Shape::Capsule(x), Shape::Triangle(y)) => {
                contact_capsule_triangle(pa, x, pb, y, prediction)
            }
            (Shape::Triangle(x), Shape::Capsule(y)) => {
                flipped(contact_capsule_triangle(pb, y, pa, x, prediction))
            }
            (Shape::Triangle(x), Shape::Cuboid(y)) => {
                triangle_box_contact((pa, a, x), (pb, b, y), prediction)
            }
            (Shape::Cuboid(y), Shape::Triangle(x)) => {
                flipped(triangle_box_contact((pb, b, x), (pa, a, y), prediction))
            }
            (Shape::Cylinder(x), Shape::Capsule(y)) => {
                flipped(contact_capsule_cylinder_apart(pb, y, pa, x, prediction))
            }
            _ => None,
        }
    }

    fn own_closest_points(
        pa: &Pose3<R>,
        a: &Self,
        pb: &Pose3<R>,
        b: &Self,
    ) -> Option<ClosestPoints<R::V3>> {
        let (Shape::Cuboid(x), Shape::Cuboid(y)) = (a, b) else {
            return None;
        };
        let (distance, point_a, point_b) =
            crate::query::box_box::proven_closest_points(pa, x, pb, y)?;
        Some(ClosestPoints::closed_form(distance, point_a, point_b))
    }

    fn own_distance(pa: &Pose3<R>, a: &Self, pb: &Pose3<R>, b: &Self) -> Option<R> {
        match (a, b) {
            (Shape::Capsule(x), Shape::Cylinder(y)) => {
                Some(distance_capsule_cylinder(pa, x, pb, y))
            }
            (Shape::Cylinder(x), Shape::Capsule(y)) => {
                Some(distance_capsule_cylinder(pb, y, pa, x))
            }
            (Shape::Cuboid(x), Shape::Cuboid(y)) => {
                crate::query::box_box::proven_distance(pa, x, pb, y)
            }
            _ => None,
        }
    }

    fn feature_manifold(
        pa: &Pose3<R>,
        a: &Self,
        pb: &Pose3<R>,
        b: &Self,
        c: &Contact<R::V3>,
        prediction: R,
    ) -> Manifold<R::V3> {
        crate::query::manifold::features::manifold_3d(pa, a, pb, b, c, prediction)
    }

    fn own_manifold(
        pa: &Pose3<R>,
        a: &Self,
        pb: &Pose3<R>,
        b: &Self,
        prediction: R,
    ) -> Option<Option<Manifold<R::V3>>> {
        match (a, b) {
            (Shape::Polyhedron(x), Shape::Polyhedron(y)) => {
                Some(contact_manifold_polyhedra(pa, x, pb, y, prediction))
            }
            (Shape::Triangle(x), Shape::Cuboid(y)) => {
                triangle_box_manifold((pa, a, x), (pb, b, y), prediction)
            }
            (Shape::Cuboid(y), Shape::Triangle(x)) => {
                triangle_box_manifold((pb, b, x), (pa, a, y), prediction)
                    .map(|m| m.map(|m| m.flipped()))
            }
            _ => None,
        }
    }
}

/// The manifold of a triangle (A) and a box (B) when the separating-axis test finds
/// them apart (`Some(None)`) or in a face contact (clipped from the features along the
/// face's normal); `None` leaves an edge contact to GJK and EPA.
fn triangle_box_manifold<R: Real>(
    (pt, t_shape, t): (&Pose3<R>, &Shape<R>, &crate::shape::Triangle<R::V3>),
    (pb, b_shape, b): (&Pose3<R>, &Shape<R>, &Aabb<R::V3>),
    prediction: R,
) -> Option<Option<Manifold<R::V3>>>
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    use crate::query::manifold::triangle_box::{triangle_box_axis, TriangleBoxAxis};
    let normal = match triangle_box_axis(pt, t, pb, b, prediction) {
        TriangleBoxAxis::Apart => return Some(None),
        TriangleBoxAxis::Edge => return None,
        TriangleBoxAxis::Edges(point_a, point_b, normal, depth, [i, j]) => {
            let c = Contact {
                normal,
                depth,
                point_a,
                point_b,
                status: crate::algo::gjk::Status::Converged,
            };
            let id = FeatureId::new(false, i, j, crate::query::manifold::EDGE_EDGE);
            return Some(Some(Manifold::single(&c, id)));
        }
        TriangleBoxAxis::Face(n, ..) => n,
    };
    crate::query::manifold::features::face_manifold_3d(pt, t_shape, pb, b_shape, normal, prediction)
        .map(Some)
}

/// The contact of a triangle (A) and a box (B) from their separating-axis test when
/// it decides the least translation exactly: an overlapping face axis that no edge
/// axis beats, whose face manifold's deepest point lies at the test's depth (its
/// witnesses are then in both support sets), or two crossing edges. `None` (GJK and
/// EPA) otherwise: apart within the prediction (the distance needs closest points,
/// which a face axis does not give), an edge axis within the manifold's edge bias,
/// or a deepest point clipped away. Agreement within [`TRIANGLE_BOX_DEPTH_ULPS`].
fn triangle_box_contact<R: Real>(
    (pt, t_shape, t): (&Pose3<R>, &Shape<R>, &crate::shape::Triangle<R::V3>),
    (pb, b_shape, b): (&Pose3<R>, &Shape<R>, &Aabb<R::V3>),
    prediction: R,
) -> Option<Option<Contact<R::V3>>>
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    use crate::query::manifold::features::face_manifold_3d;
    use crate::query::manifold::triangle_box::{triangle_box_axis, TriangleBoxAxis};
    let (normal, separation) = match triangle_box_axis(pt, t, pb, b, prediction) {
        TriangleBoxAxis::Apart => return Some(None),
        TriangleBoxAxis::Edges(point_a, point_b, normal, depth, _) if depth >= R::ZERO => {
            let status = crate::algo::gjk::Status::Converged;
            return Some(Some(Contact {
                normal,
                depth,
                point_a,
                point_b,
                status,
            }));
        }
        TriangleBoxAxis::Face(n, s, true) if s <= R::ZERO => (n, s),
        _ => return None,
    };
    let m = face_manifold_3d(pt, t_shape, pb, b_shape, normal, prediction)?;
    let c = m.deepest_contact()?;
    // Rounding follows the manifold's world coordinates and the box's size.
    let size = c.point_a.abs().max_element() + b.half_extents().max_element();
    let tol = crate::math::tolerance::eps::<R>(TRIANGLE_BOX_DEPTH_ULPS) * size;
    ((c.depth + separation).abs() <= tol).then_some(Some(c))
}

/// How far (in machine epsilons of the contact's coordinates and the box's size) the
/// deepest point of a triangle–box face manifold may lie from the separating-axis depth and
/// still be the contact.
pub const TRIANGLE_BOX_DEPTH_ULPS: f64 = 256.0;

dispatch_by_table!(V3, Pose3);
