//! Found by the `broad` fuzz target (3D f64): `Bvh::build` over boxes whose extent is
//! subnormal (corners at -1e-310 and 0) built a tree that its own validator refused
//! ("node 0 slot 0: box is not its child's bounds"): the bin scale `bins / extent`
//! overflowed to infinity, the binning put the `0·∞ = NaN` centroids in bin 0 and the
//! partition put them right. Fixed: an extent whose scale is not finite is split at
//! the median, and the partition's test agrees with the binning for every value,
//! NaN included.

use isect::broad::Bvh;
use isect::d3_f64::DVec3;
use isect::shape::Aabb;

// 21 boxes of subnormal extent (one spanning [-1e-310, 0] on x and y, the others
// degenerate points at its min corner): the tree validates and finds every box.
#[test]
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
    assert_eq!(bvh.len(), 21);
    let mut found = Vec::new();
    bvh.query(&boxes[0], |i| {
        found.push(i);
        true
    });
    found.sort_unstable();
    assert_eq!(found, (0..21).collect::<Vec<u32>>());
    // The same shape scaled into the normal range, and far beyond: huge coordinates
    // whose centroid sums overflow.
    for t in [-1e-300, -1e300, -1.7e308] {
        let mut big = vec![Aabb {
            min: DVec3::new(t, t, 0.0),
            max: DVec3::new(-t, 0.0, 0.0),
        }];
        big.extend((0..20).map(|k| Aabb {
            min: DVec3::new(-t * (k as f64 / 20.0), t, 0.0),
            max: DVec3::new(-t, t, 0.0),
        }));
        let bvh = Bvh::build(&big);
        assert!(bvh.validate().is_ok(), "t = {t}: {:?}", bvh.validate());
        assert_eq!(bvh.len(), 21);
    }
}
