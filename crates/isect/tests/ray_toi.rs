//! The t-only ray casts `Ball::ray_toi`, `Plane::ray_toi` and `HalfSpace::ray_toi`:
//! - on seeded random world-placed cases, the same `Option<t>` as `cast_ray` (bit for
//!   bit: the same arithmetic), in 2D and 3D, f32 and f64;
//! - differential against parry2d / parry3d 0.31's local kernels (`cast_local_ray`,
//!   solid) on exactly their inputs (ball at the origin, plane through it), 10,000
//!   cases each, with a guard that 30–70% of the cases hit.
//!
//! Tolerances: `T_REL`: hit parameters agree within `T_REL · max(1, t)`;
//! `GRAZE_MARGIN` (absolute length, scenes are O(10)): a case whose answer flips when
//! the ball's radius or the plane's offset moves by this much is near-grazing, where
//! the libraries may round differently, and is skipped (at most `MAX_SKIPPED`).

use glam::{DVec2, DVec3, Vec2, Vec3};
use isect::math::{Real, Vector};
use isect::query::RayCast;
use isect::shape::{Ball, HalfSpace, Plane, Ray};

const CASES: usize = 10_000;
const T_REL: f32 = 2e-4;
const GRAZE_MARGIN: f32 = 1e-3;
const MAX_SKIPPED: usize = CASES / 20;

#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

impl Rng {
    fn vec<V: Vector>(&mut self, lo: f64, hi: f64) -> V {
        (0..V::DIM).fold(V::ZERO, |acc, i| {
            acc.with(i, V::Scalar::from_f64(self.range(lo, hi)))
        })
    }

    /// A ray from [-8, 8]ᴰ aimed near `target` with a non-unit direction.
    fn ray_toward<V: Vector>(&mut self, target: V, spread: f64) -> Ray<V> {
        let origin = self.vec::<V>(-8.0, 8.0);
        let aim = target + self.vec::<V>(-spread, spread);
        let scale = V::Scalar::from_f64(self.range(0.2, 2.0));
        Ray {
            origin,
            dir: (aim - origin) * scale,
        }
    }

    /// Half the time infinite, else in [0, 8].
    fn max_t<S: Real>(&mut self) -> S {
        if self.next_u64() & 1 == 0 {
            S::INFINITY
        } else {
            S::from_f64(self.range(0.0, 8.0))
        }
    }
}

/// Seeded world-placed balls, planes and half-spaces: `ray_toi` is `cast_ray`'s `t`.
fn agrees_with_cast_ray<V: Vector>() {
    let mut rng = Rng(0x7017);
    let mut hits = 0;
    for _ in 0..CASES {
        let c = rng.vec::<V>(-3.0, 3.0);
        let ball = Ball::new(c, V::Scalar::from_f64(rng.range(0.2, 3.0))).unwrap();
        let ray = rng.ray_toward(c, 2.5);
        let max_t = rng.max_t::<V::Scalar>();
        let t = ball.ray_toi(&ray, max_t);
        assert_eq!(t, ball.cast_ray(&ray, max_t).map(|h| h.t), "{ray:?}");
        hits += t.is_some() as usize;
        let plane = Plane::new(
            rng.vec::<V>(-1.0, 1.0),
            V::Scalar::from_f64(rng.range(-2.0, 2.0)),
        );
        let Ok(plane) = plane else { continue };
        assert_eq!(
            plane.ray_toi(&ray, max_t),
            plane.cast_ray(&ray, max_t).map(|h| h.t)
        );
        let solid = HalfSpace::new(plane);
        assert_eq!(
            solid.ray_toi(&ray, max_t),
            solid.cast_ray(&ray, max_t).map(|h| h.t)
        );
    }
    assert!((3_000..7_000).contains(&hits), "{hits} ball hits");
}

// Every type: ray_toi is cast_ray's t on the same cases.
#[test]
fn ray_toi_is_cast_ray_t() {
    agrees_with_cast_ray::<Vec2>();
    agrees_with_cast_ray::<Vec3>();
    agrees_with_cast_ray::<DVec2>();
    agrees_with_cast_ray::<DVec3>();
}

/// Compares `ours` and `theirs` unless `grazing`; returns (hit, skipped) counts.
fn compare(ours: Option<f32>, theirs: Option<f32>, grazing: bool, what: &str) -> (usize, usize) {
    match (ours, theirs) {
        (Some(a), Some(b)) => {
            assert!(
                (a - b).abs() <= T_REL * b.abs().max(1.0),
                "{what}: {a} vs {b}"
            );
            (1, 0)
        }
        (None, None) => (0, 0),
        _ if grazing => (0, 1),
        _ => panic!("{what}: ours {ours:?}, parry {theirs:?}"),
    }
}

fn check_tally(hits: usize, skipped: usize, what: &str) {
    assert!((3_000..7_000).contains(&hits), "{what}: {hits} hits");
    assert!(skipped <= MAX_SKIPPED, "{what}: {skipped} skipped");
}

macro_rules! differential {
    ($name:ident, $parry:ident, $V:ty) => {
        mod $name {
            use super::*;
            use $parry::query::{Ray as PRay, RayCast as PRayCast};
            use $parry::shape::{Ball as PBall, HalfSpace as PHalfSpace};

            // Balls at the origin, as parry's local kernel has them.
            #[test]
            fn ball_ray_toi_matches_cast_local_ray() {
                let mut rng = Rng(0xB0A1);
                let (mut hits, mut skipped) = (0, 0);
                for _ in 0..CASES {
                    let r = rng.uniform(0.2, 3.0);
                    let ray = rng.ray_toward(<$V>::ZERO, 2.5);
                    let max_t = rng.max_t::<f32>();
                    let ball = |r: f32| Ball::new(<$V>::ZERO, r).unwrap();
                    let ours = ball(r).ray_toi(&ray, max_t);
                    let grazing = ball(r + GRAZE_MARGIN).ray_toi(&ray, max_t).is_some()
                        != ball(r - GRAZE_MARGIN).ray_toi(&ray, max_t).is_some();
                    let theirs =
                        PBall::new(r).cast_local_ray(&PRay::new(ray.origin, ray.dir), max_t, true);
                    let (h, s) = compare(ours, theirs, grazing, "ball");
                    (hits, skipped) = (hits + h, skipped + s);
                }
                check_tally(hits, skipped, "ball");
            }

            // Half-spaces through the origin, as parry's local kernel has them.
            #[test]
            fn half_space_ray_toi_matches_cast_local_ray() {
                let mut rng = Rng(0x4A1F);
                let (mut hits, mut skipped) = (0, 0);
                for _ in 0..CASES {
                    let Ok(plane) = Plane::new(rng.vec::<$V>(-1.0, 1.0), 0.0) else {
                        continue;
                    };
                    let ray = rng.ray_toward(plane.normal() * 8.0, 6.0);
                    let max_t = rng.max_t::<f32>();
                    let solid = |d: f32| HalfSpace::new(Plane::new(plane.normal(), d).unwrap());
                    let ours = solid(0.0).ray_toi(&ray, max_t);
                    let grazing = solid(GRAZE_MARGIN).ray_toi(&ray, max_t).is_some()
                        != solid(-GRAZE_MARGIN).ray_toi(&ray, max_t).is_some();
                    let theirs = PHalfSpace::new(plane.normal()).cast_local_ray(
                        &PRay::new(ray.origin, ray.dir),
                        max_t,
                        true,
                    );
                    let (h, s) = compare(ours, theirs, grazing, "half-space");
                    (hits, skipped) = (hits + h, skipped + s);
                }
                check_tally(hits, skipped, "half-space");
            }
        }
    };
}

differential!(parry_2d, parry2d, Vec2);
differential!(parry_3d, parry3d, Vec3);
