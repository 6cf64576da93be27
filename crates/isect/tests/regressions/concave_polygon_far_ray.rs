//! Found by the session-8 soak of `world_any` (seed `0xc1b0ff4bb9c7b954`, 2D `f32`): a
//! concave polygon 5e-4 across "hit" at `t = 0` a ray starting 2,112 away, because its
//! ray cast read the side of the first unbounded boundary crossing as the origin's
//! side, and that crossing was a near miss (0.008 from the polygon, within the
//! segments' tolerance, which grows with the origin's magnitude). An origin outside the
//! polygon's box is now outside. The class: rays from far outside small polygons,
//! aimed to pass near them, at distances from 1 to 1e7 of the polygon's size, `f32`
//! and `f64`: never a `t = 0` hit, and any hit lies on the boundary's box.

use glam::{DVec2, Vec2};
use isect::math::{Real, Vector2};
use isect::query::RayCast;
use isect::shape::{ConcavePolygon, Ray};

use crate::rng::Rng;

fn to<V: Vector2>(p: DVec2) -> V {
    V::new(V::Scalar::from_f64(p.x), V::Scalar::from_f64(p.y))
}

#[test]
fn soak_case_is_a_miss() {
    let ring = vec![
        Vec2::new(-0.0002324555, -0.0),
        Vec2::new(-1.6035004e-20, -0.00026187152),
        Vec2::new(0.00028454923, -3.4847232e-20),
        Vec2::new(3.356012e-20, 0.00018269278),
    ];
    let poly = ConcavePolygon::<f32>::new(ring, vec![]).expect("valid polygon");
    let ray = Ray {
        origin: Vec2::new(622.1207, 2018.8566),
        dir: Vec2::new(-898.29803, -2915.084),
    };
    assert_eq!(poly.cast_ray(&ray, 0.0240959), None);
}

fn check_far_rays<R: Real>(seed: u64) {
    let mut rng = Rng(seed);
    for _ in 0..400 {
        let size = 10f64.powf(rng.range(-4.0, 2.0));
        // A concave "L" of that size.
        let ring: Vec<R::V2> = [
            (0.0, 0.0),
            (2.0, 0.0),
            (2.0, 1.0),
            (1.0, 1.0),
            (1.0, 2.0),
            (0.0, 2.0),
        ]
        .iter()
        .map(|&(x, y)| to::<R::V2>(DVec2::new(x, y) * size * 0.5))
        .collect();
        let poly = ConcavePolygon::<R>::new(ring, vec![]).expect("valid polygon");
        let far = size * 10f64.powf(rng.range(0.5, 7.0));
        let angle = rng.range(0.0, std::f64::consts::TAU);
        let origin = DVec2::new(angle.cos(), angle.sin()) * far;
        // Aim within a few sizes of the polygon, so that some rays pass just beside it.
        let aim = DVec2::new(rng.range(-2.0, 3.0), rng.range(-2.0, 3.0)) * size;
        let ray = Ray {
            origin: to::<R::V2>(origin),
            dir: to::<R::V2>(aim - origin),
        };
        let max_t = R::from_f64(rng.range(0.0, 1.5));
        if let Some(hit) = poly.cast_ray(&ray, max_t) {
            assert!(
                hit.t > R::ZERO,
                "t = 0 from {origin} ({far:e} away, size {size:e}): {hit:?}"
            );
        }
    }
}

#[test]
fn far_origins_are_outside() {
    for k in 0..8 {
        check_far_rays::<f32>(0xfa7 + k);
        check_far_rays::<f64>(0xfa7 + k);
    }
}
