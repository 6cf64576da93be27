//! Found by the `ray` and `constructors` fuzz targets: a ray with a zero direction,
//! its origin a hair outside a box (on a posed `Cuboid`, the inverse pose leaves a
//! rounding residue), and `max_t = ∞` "hit" at `t = ∞` with a NaN point: the slab
//! entry `(min − o) · (1/0) = ∞` passed the test `t_enter ≤ t_exit = ∞`. Fixed in
//! `PreparedRay::interval`: an entry at `t = ∞` is a miss.

use isect::math::{Real, Vector};
use isect::query::RayCast;
use isect::shape::{Aabb, Ray};

/// A still ray just outside a box, for every axis side: no hit for any `max_t`.
fn still_ray_outside<V: Vector>() {
    let s = |x: f64| V::Scalar::from_f64(x);
    let b = Aabb::new(V::ZERO, V::splat(s(1.0))).expect("finite");
    for axis in 0..V::DIM {
        for o in [s(-1e-30), s(1.0) + s(1.0) * V::Scalar::EPSILON * s(2.0)] {
            let ray = Ray {
                origin: V::splat(s(0.5)).with(axis, o),
                dir: V::ZERO,
            };
            for max_t in [V::Scalar::INFINITY, s(1.0), V::Scalar::MAX] {
                let hit = b.cast_ray(&ray, max_t);
                assert!(hit.is_none(), "{ray:?} max_t {max_t:?}: {hit:?}");
                assert!(!b.intersects_ray(&ray, max_t), "{ray:?} intersects");
            }
        }
    }
    // Still and inside (or on the boundary): a hit at t = 0.
    let inside = Ray {
        origin: V::ZERO,
        dir: V::ZERO,
    };
    let hit = b
        .cast_ray(&inside, V::Scalar::INFINITY)
        .expect("on the boundary");
    assert_eq!(hit.t, V::Scalar::ZERO);
}

#[test]
fn still_ray_outside_a_box_misses() {
    still_ray_outside::<isect::d2::Vec2>();
    still_ray_outside::<isect::d3::Vec3>();
    still_ray_outside::<isect::d2_f64::DVec2>();
    still_ray_outside::<isect::d3_f64::DVec3>();
}
