//! Found by a review (helper, session 33), fixed in session 34 (the class is tested in
//! `tests/contact_relation.rs`): a cylinder sunk into a turned box got a face contact
//! whose normal was 0.3° off the box's face, so `point_a − point_b` differed from
//! `depth · normal` by about 1e-2. The witnesses now lie on both surfaces along the
//! contact normal (`query/dispatch/witnesses.rs`).

use isect::math::Pose3;
use isect::query::dispatch;
use isect::shape::shape_3d::Shape;
use isect::shape::{Aabb, Cylinder};

#[test]
fn cylinder_into_a_turned_box_keeps_the_relation() {
    let cylinder: Shape<f64> = Shape::Cylinder(Cylinder::new(0.5, 0.5).unwrap());
    let cube: Shape<f64> =
        Shape::Cuboid(Aabb::new(glam::DVec3::splat(-0.5), glam::DVec3::splat(0.5)).unwrap());
    let turn = glam::DQuat::from_xyzw(0.070036, -0.169082, -0.360423, 0.914659).normalize();
    let at = Pose3::new(glam::DVec3::new(0.3, -0.9, -0.4), turn);
    for (pa, a, pb, b) in [
        (&Pose3::default(), &cylinder, &at, &cube),
        (&at, &cube, &Pose3::default(), &cylinder),
    ] {
        let c = dispatch::contact(pa, a, pb, b, 0.0).expect("they overlap");
        assert!(c.depth > 0.0, "{c:?}");
        let gap = (c.point_a - c.point_b - c.normal * c.depth).length();
        assert!(gap < 1e-9, "gap {gap:e}: {c:?}");
        assert!((c.normal.length() - 1.0).abs() < 1e-12);
    }
}
