//! Where a witness point lies against a 3D capsule, box or triangle, and a shape's
//! extent along a direction: the contract checks of the contact tests
//! (`capsule_box_contact.rs`, `triangle_contacts.rs`, `closed_form_contact_edges.rs`).
//! The including file also declares `poses3`.
#![allow(dead_code)]

use super::poses3::support_along;
use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose3, Real, Vector};
use isect::query::project_point::ProjectPoint;
use isect::shape::shape_3d::Shape;

/// `max n·x` over `a` (a capsule, box or triangle) placed at `pose`.
pub fn along<R: Real>(a: &Shape<R>, pose: &Pose3<R>, n: R::V3) -> f64 {
    match a {
        Shape::Capsule(c) => support_along(c, pose, n),
        Shape::Cuboid(b) => support_along(b, pose, n),
        Shape::Triangle(t) => support_along(t, pose, n),
        _ => unreachable!("capsules, boxes and triangles only"),
    }
}

/// The signed distance from world point `p` to the surface of `a` placed at `pose`
/// (negative inside; a triangle's is the unsigned distance).
pub fn off_surface<R: Real>(pose: &Pose3<R>, a: &Shape<R>, p: R::V3) -> f64
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let local = pose.inverse_transform_point(p);
    match a {
        Shape::Capsule(c) => {
            let (nearest, _) = c.segment().closest_point(local);
            (local - nearest).length().to_f64() - c.radius().to_f64()
        }
        Shape::Cuboid(b) => {
            let outside = b.distance_squared_to_point(local).to_f64().sqrt();
            if outside > 0.0 {
                return outside;
            }
            -(0..3)
                .map(|i| {
                    let x = local.get(i).to_f64();
                    (x - b.min.get(i).to_f64()).min(b.max.get(i).to_f64() - x)
                })
                .fold(f64::INFINITY, f64::min)
        }
        Shape::Triangle(t) => (t.project_local_point(local, true).point - local)
            .length()
            .to_f64(),
        _ => unreachable!("capsules, boxes and triangles only"),
    }
}
