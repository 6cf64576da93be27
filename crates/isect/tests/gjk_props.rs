//! Property tests (proptest) of GJK/EPA queries on random boxes and capsules:
//! swapping A and B mirrors the answer; one rigid motion of both changes nothing;
//! `intersects ⇔ distance ≤ tol`; witness points lie on the shapes.

mod gjk_common;

use gjk_common::{f, r, Rng, TestVector};
use isect::algo::gjk::{self, MinkowskiDiff, Status};
use isect::algo::support::SupportMap;
use isect::math::{Isometry, Real, Vector};
use isect::query::contact::contact;
use isect::query::distance::closest_points;
use isect::shape::{Aabb, Capsule, Segment};
use proptest::prelude::*;

/// A random box and a random capsule at random poses, from one seed.
struct Scene<V: TestVector> {
    bx: Aabb<V>,
    cap: Capsule<V>,
    pose_box: V::Pose,
    pose_cap: V::Pose,
    motion: V::Pose,
}

fn scene<V: TestVector>(seed: u64) -> Scene<V> {
    let mut rng = Rng(seed);
    let half = gjk_common::rand_vec::<V>(&mut rng, 1.0).abs() + V::splat(r::<V>(0.05));
    let (a, b) = (
        gjk_common::rand_vec::<V>(&mut rng, 1.0),
        gjk_common::rand_vec::<V>(&mut rng, 1.0),
    );
    Scene {
        bx: Aabb::from_center(V::ZERO, half).unwrap(),
        cap: Capsule::new(a, b, r::<V>(rng.range(0.0, 0.5))).unwrap(),
        pose_box: V::pose_in(&mut rng, 1.0),
        pose_cap: V::pose_in(&mut rng, 1.0),
        motion: V::pose_in(&mut rng, 50.0),
    }
}

fn tol<V: Vector>() -> f64 {
    if f(V::Scalar::EPSILON) > 1e-10 {
        5e-4
    } else {
        1e-9
    }
}

/// Swapping A and B: same distance and depth, reversed normal, swapped points.
fn swap_mirrors<V: TestVector>(seed: u64) -> Result<(), TestCaseError> {
    let s = scene::<V>(seed);
    let ab = closest_points(&s.pose_box, &s.bx, &s.pose_cap, &s.cap);
    let ba = closest_points(&s.pose_cap, &s.cap, &s.pose_box, &s.bx);
    prop_assert!((f(ab.distance) - f(ba.distance)).abs() <= tol::<V>() * 4.0);
    let c1 = contact(&s.pose_box, &s.bx, &s.pose_cap, &s.cap, r::<V>(10.0)).unwrap();
    let c2 = contact(&s.pose_cap, &s.cap, &s.pose_box, &s.bx, r::<V>(10.0)).unwrap();
    prop_assert!(
        (f(c1.depth) - f(c2.depth)).abs() <= tol::<V>() * 4.0,
        "{:?} {:?}",
        c1,
        c2
    );
    // The normal is unique when separated; when penetrating, two directions may tie.
    if f(c1.depth) < -tol::<V>() * 10.0 {
        prop_assert!(f((c1.normal + c2.normal).length()) <= tol::<V>() * 10.0);
        prop_assert!(f(c1.point_a.distance(c2.point_b)) <= tol::<V>() * 10.0);
    }
    Ok(())
}

/// Moving both shapes by one rigid motion moves the answer with them.
fn rigid_motion_invariance<V: TestVector>(seed: u64) -> Result<(), TestCaseError> {
    let s = scene::<V>(seed);
    let (moved_box, moved_cap) = (s.motion.mul(&s.pose_box), s.motion.mul(&s.pose_cap));
    let before = closest_points(&s.pose_box, &s.bx, &s.pose_cap, &s.cap);
    let after = closest_points(&moved_box, &s.bx, &moved_cap, &s.cap);
    // Translations up to 50 cost a few ulps of 50 in the comparison.
    let t = tol::<V>() * 100.0;
    prop_assert!((f(before.distance) - f(after.distance)).abs() <= t);
    let c1 = contact(&s.pose_box, &s.bx, &s.pose_cap, &s.cap, r::<V>(10.0)).unwrap();
    let c2 = contact(&moved_box, &s.bx, &moved_cap, &s.cap, r::<V>(10.0)).unwrap();
    prop_assert!((f(c1.depth) - f(c2.depth)).abs() <= t, "{:?} {:?}", c1, c2);
    if f(c1.depth) < -t {
        prop_assert!(f(s.motion.transform_vector(c1.normal).distance(c2.normal)) <= t);
    }
    Ok(())
}

/// The boolean GJK test agrees with the distance.
fn intersects_iff_distance<V: TestVector>(seed: u64) -> Result<(), TestCaseError> {
    let s = scene::<V>(seed);
    let diff = MinkowskiDiff::new(&s.bx, &s.cap, s.pose_box.inv_mul(&s.pose_cap));
    let hit = gjk::intersects(&diff);
    prop_assert_eq!(
        hit,
        isect::query::distance::intersects(&s.pose_box, &s.bx, &s.pose_cap, &s.cap)
    );
    let d = f(closest_points(&s.pose_box, &s.bx, &s.pose_cap, &s.cap).distance);
    if d > tol::<V>() {
        prop_assert!(!hit, "intersects at distance {d}");
    }
    if d == 0.0 {
        prop_assert!(hit, "no intersection at distance 0");
    }
    Ok(())
}

/// Witness points lie on the shapes (within the tolerance), `distance` apart, and
/// a contact's points are `depth` apart along its normal.
fn witnesses_on_shapes<V: TestVector>(seed: u64) -> Result<(), TestCaseError> {
    let s = scene::<V>(seed);
    let cp = closest_points(&s.pose_box, &s.bx, &s.pose_cap, &s.cap);
    prop_assert_ne!(cp.status, Status::Degenerate);
    let local = s.pose_box.inverse_transform_point(cp.point_a);
    let off_box = f(s.bx.closest_point(local).distance(local));
    let seg = s.cap.segment();
    let world = Segment {
        a: s.pose_cap.transform_point(seg.a),
        b: s.pose_cap.transform_point(seg.b),
    };
    let off_cap = f(world.closest_point(cp.point_b).0.distance(cp.point_b)) - f(s.cap.radius());
    let t = tol::<V>() * 10.0;
    prop_assert!(off_box <= t && off_cap <= t, "off {off_box} {off_cap}");
    if f(cp.distance) > 0.0 {
        prop_assert!(off_cap >= -t, "point_b inside the capsule");
        prop_assert!((f(cp.point_a.distance(cp.point_b)) - f(cp.distance)).abs() <= t);
    }
    let c = contact(&s.pose_box, &s.bx, &s.pose_cap, &s.cap, r::<V>(10.0)).unwrap();
    let gap = c.point_a - c.point_b;
    prop_assert!((f(gap.dot(c.normal)) - f(c.depth)).abs() <= t, "{:?}", c);
    // The contact points are each on their shape's surface: support along the normal.
    let reach_a = s
        .pose_box
        .transform_point(s.bx.local_support(s.pose_box.inverse_transform_vector(c.normal)));
    prop_assert!((f(reach_a.dot(c.normal)) - f(c.point_a.dot(c.normal))).abs() <= t);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn swap_mirrors_vec3(seed in any::<u64>()) { swap_mirrors::<glam::Vec3>(seed)?; }
    #[test]
    fn swap_mirrors_dvec2(seed in any::<u64>()) { swap_mirrors::<glam::DVec2>(seed)?; }
    #[test]
    fn swap_mirrors_dvec3(seed in any::<u64>()) { swap_mirrors::<glam::DVec3>(seed)?; }
    #[test]
    fn rigid_motion_dvec3(seed in any::<u64>()) { rigid_motion_invariance::<glam::DVec3>(seed)?; }
    #[test]
    fn rigid_motion_vec2(seed in any::<u64>()) { rigid_motion_invariance::<glam::Vec2>(seed)?; }
    #[test]
    fn rigid_motion_dvec2(seed in any::<u64>()) { rigid_motion_invariance::<glam::DVec2>(seed)?; }
    #[test]
    fn intersects_vec3(seed in any::<u64>()) { intersects_iff_distance::<glam::Vec3>(seed)?; }
    #[test]
    fn intersects_dvec2(seed in any::<u64>()) { intersects_iff_distance::<glam::DVec2>(seed)?; }
    #[test]
    fn witnesses_vec3(seed in any::<u64>()) { witnesses_on_shapes::<glam::Vec3>(seed)?; }
    #[test]
    fn witnesses_dvec3(seed in any::<u64>()) { witnesses_on_shapes::<glam::DVec3>(seed)?; }
    #[test]
    fn witnesses_vec2(seed in any::<u64>()) { witnesses_on_shapes::<glam::Vec2>(seed)?; }
}
