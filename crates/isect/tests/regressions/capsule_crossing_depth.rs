//! Found by the invariants (`tests/invariants.rs`: "swap: depth" and "motion: depth",
//! 2D f32 and f64): two capsules whose core segments cross. The analytic kernel
//! answered `r_a + r_b − |p_a − p_b|` from the segments' closest points, which for
//! crossing segments come out a rounding error apart along an arbitrary direction:
//! depth `r_a + r_b`, while the true depth is larger (the segments must be uncrossed
//! too). Swapping A and B, or moving both, flipped between that and EPA's answer
//! (0.6305 against 0.6349 here). Fixed in `query/contact.rs`: cores closer than
//! `CAPSULE_CORE_ULPS` epsilons of their coordinates go to the general path.

use glam::DVec2;
use isect::math::{Pose2, Rot2};
use isect::query::dispatch;
use isect::shape::{shape_2d::Shape, Capsule};

#[test]
fn crossing_capsules_depth_is_symmetric_and_deeper_than_the_radii() {
    let a = Capsule::new(
        DVec2::new(0.4124038924345427, -0.3429304942899907),
        DVec2::new(-0.23266305290301492, -0.2815384960296281),
        0.3574076505655901,
    )
    .expect("valid");
    let b = Capsule::new(
        DVec2::new(0.13845703335372228, -0.4589048968417),
        DVec2::new(0.052935285095583984, -0.4186166203130084),
        0.27313314469584116,
    )
    .expect("valid");
    let pa = Pose2 {
        rotation: Rot2 {
            cos: 0.8416260904173017,
            sin: 0.540060666896681,
        },
        translation: DVec2::new(0.3571936707072476, 0.13371708596913223),
    };
    let pb = Pose2 {
        rotation: Rot2 {
            cos: -0.8669483776053545,
            sin: 0.49839794398396514,
        },
        translation: DVec2::new(0.4340329779705425, -0.47719813748077966),
    };
    let radii = a.radius() + b.radius();
    let (a, b): (Shape<f64>, Shape<f64>) = (Shape::Capsule(a), Shape::Capsule(b));
    let ab: isect::query::Contact<DVec2> =
        dispatch::contact(&pa, &a, &pb, &b, 0.0).expect("overlapping");
    let ba: isect::query::Contact<DVec2> =
        dispatch::contact(&pb, &b, &pa, &a, 0.0).expect("overlapping");
    assert!((ab.depth - ba.depth).abs() <= 1e-9, "{ab:?} vs {ba:?}");
    assert!(
        ab.depth > radii + 1e-6,
        "depth {} of crossing cores, radii {radii}",
        ab.depth
    );
}
