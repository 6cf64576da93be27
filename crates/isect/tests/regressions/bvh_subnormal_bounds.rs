//! Found by the `broad` fuzz target (3D f64): `Bvh::build` over boxes whose extent is
//! subnormal (corners at -1e-310 and 0) builds a tree that its own validator refuses
//! ("node 0 slot 0: box is not its child's bounds"): the binned split's side bounds
//! are not those of the items it assigns to each side when the range's extent is
//! subnormal. Not fixed yet: the fuzz drivers validate only trees over boxes of
//! normal-range coordinates (see RELIABILITY.md).

use isect::broad::Bvh;
use isect::d3_f64::DVec3;
use isect::shape::Aabb;

#[test]
#[ignore = "open: Bvh::build over boxes of subnormal extent fails its own validator"]
fn subnormal_boxes_build_a_valid_tree() {
    let t = -1e-310;
    let mut boxes = vec![Aabb {
        min: DVec3::new(t, t, 0.0),
        max: DVec3::ZERO,
    }];
    boxes.extend((0..20).map(|_| Aabb {
        min: DVec3::new(t, t, 0.0),
        max: DVec3::new(t, t, 0.0),
    }));
    let bvh = Bvh::build(&boxes);
    assert!(bvh.validate().is_ok(), "{:?}", bvh.validate());
}
