//! Found by a review (helper, session 33): the slab test missed a ray through an edge
//! of a box. Box (140, 573, −1)–(141, 574, 1), ray from 0 along (10, 41, 0), exactly on
//! the edge x = 140, y = 574 at t = 14: the rounded `1/dir` put the entry an ulp beyond
//! the exit, so `Aabb::cast_ray` and `Bvh::cast_ray_any` missed (7% of exact `f32`
//! corner grazes in 2D, 0.9% of `f64` edge grazes). Fixed: every slab kernel compares
//! the entry with the exit grown by `SLAB_EXIT_ULPS` (Ize, "Robust BVH Ray Traversal").

use isect::broad::{Bvh, DynamicTree};
use isect::d3::Vec3;
use isect::query::RayCast;
use isect::shape::{Aabb, Ray};

#[test]
fn ray_through_a_box_edge_hits() {
    let bx = Aabb::new(Vec3::new(140.0, 573.0, -1.0), Vec3::new(141.0, 574.0, 1.0)).unwrap();
    let r = Ray::new(Vec3::ZERO, Vec3::new(10.0, 41.0, 0.0)).unwrap();
    for max_t in [f32::INFINITY, 14.0] {
        assert_eq!(bx.cast_ray(&r, max_t).map(|h| h.t), Some(14.0));
        assert!(bx.intersects_ray(&r, max_t));
        assert_eq!(Bvh::build(&[bx]).cast_ray_any(&r, max_t, |_| true), Some(0));
        let mut tree = DynamicTree::new();
        tree.insert(bx, 0).unwrap();
        assert!(tree.cast_ray_any(&r, max_t, |_, _| true).is_some());
    }
}
