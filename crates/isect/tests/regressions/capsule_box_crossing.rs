//! Found by the seeded sweep (`sweep_world_distance`, seeds 0xa586f58f2902f2c0 and
//! 0x83da48a62e99a3e3, 2D f64): a zero-radius capsule whose segment crosses a box
//! (a flat one, of zero width, in the second case). The analytic capsule–box
//! distance found the crossing at the end of a piece of the segment, a plane
//! crossing that rounding put just outside the box, and answered a rounding error
//! (not 0), so the world's signed queries took the pair for apart (distance ≈ 0)
//! instead of its contact depth (−9.99 and −5818 here), and picked a shallower
//! shape. Fixed in `query/distance.rs`: a segment that meets the box (the slab
//! test) is at 0.

use glam::DVec2;
use isect::math::{Pose2, Rot2};
use isect::query::dispatch;
use isect::query::distance::{closest_point_segment_aabb, distance_capsule_cuboid};
use isect::shape::{shape_2d::Shape, Aabb, Capsule, Segment};
use isect::world::{Filter, World};

fn pose(cos: f64, sin: f64, x: f64, y: f64) -> Pose2<f64> {
    Pose2 {
        rotation: Rot2 { cos, sin },
        translation: DVec2::new(x, y),
    }
}

/// (segment, its pose, box min, box max, the box's pose, the contact depth).
type Case = (DVec2, DVec2, Pose2<f64>, DVec2, DVec2, Pose2<f64>, f64);

fn cases() -> [Case; 2] {
    [
        (
            DVec2::new(14.734994183737717, 0.0),
            DVec2::new(-15.295875068415938, -12.388336492665266),
            pose(
                -0.9710823908834022,
                -0.2387446127479641,
                -317.3495793484457,
                2084.3279497898434,
            ),
            DVec2::new(-12.401880085194447, -18.96044571970979),
            DVec2::new(-6.2077118388618135, 18.96044571970979),
            pose(
                -0.9990096588655477,
                0.04449383657701323,
                -321.70702638919914,
                2099.1494660711787,
            ),
            9.0,
        ),
        (
            DVec2::new(-4761.727871998911, -7142.591807998366),
            DVec2::new(16568.725547739694, -14986.17729734664),
            pose(
                0.2659579159094741,
                -0.9639846404196952,
                -49284.96679181752,
                1541428.7165835989,
            ),
            DVec2::new(-15988.000404924285, -10401.497991145721),
            DVec2::new(-15988.000404924285, 24686.681607142455),
            pose(
                0.5201823702632666,
                0.8540552099643733,
                -51665.830727816974,
                1542338.5859268731,
            ),
            5000.0,
        ),
    ]
}

#[test]
fn a_segment_through_a_box_is_at_zero() {
    for (a, b, pa, min, max, pb, _) in cases() {
        let capsule = Capsule::new(a, b, 0.0).unwrap();
        let cuboid = Aabb::new(min, max).unwrap();
        assert_eq!(distance_capsule_cuboid(&pa, &capsule, &pb, &cuboid), 0.0);
        let (c, k) = (Shape::<f64>::Capsule(capsule), Shape::<f64>::Cuboid(cuboid));
        assert_eq!(dispatch::distance(&pa, &c, &pb, &k), 0.0);
        assert_eq!(dispatch::distance(&pb, &k, &pa, &c), 0.0);
        // In the box's frame.
        let local = |p: DVec2| {
            let w = isect::math::Isometry::transform_point(&pa, p);
            isect::math::Isometry::inverse_transform_point(&pb, w)
        };
        let segment = Segment {
            a: local(a),
            b: local(b),
        };
        assert_eq!(closest_point_segment_aabb(&segment, &cuboid).1, 0.0);
    }
}

#[test]
fn the_world_signs_a_segment_through_a_box_by_its_depth() {
    for (a, b, pa, min, max, pb, depth) in cases() {
        let mut world = World::<DVec2, Shape<f64>>::new();
        let cuboid = Shape::<f64>::Cuboid(Aabb::new(min, max).unwrap());
        world.insert(cuboid, pb, Filter::ALL).unwrap();
        let capsule = Shape::<f64>::Capsule(Capsule::new(a, b, 0.0).unwrap());
        let d = world
            .signed_distance_to_shape(&pa, &capsule, f64::INFINITY, Filter::ALL)
            .unwrap();
        assert!(d.distance < -depth, "{d:?}");
    }
}
