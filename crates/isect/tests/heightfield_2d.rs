//! 2D HeightField: validation, layout, ray casts against brute force over the segments
//! and against parry2d's HeightField, projection, and the internal-vertex correction.

#[path = "support/rng.rs"]
mod rng;

use isect::algo::gjk::GjkVector;
use isect::math::{Pose2, Real, Vector, Vector2};
use isect::query::project_point::ProjectPoint;
use isect::query::RayCast;
use isect::shape::heightfield_2d::HeightField;
use isect::shape::{Composite, Ray, ShapeError};
use rng::Rng;

fn v<R: Real>(x: f64, y: f64) -> R::V2 {
    R::V2::new(R::from_f64(x), R::from_f64(y))
}

fn heights<R: Real>(rng: &mut Rng, n: usize) -> Vec<R> {
    (0..n).map(|_| R::from_f64(rng.range(-1.0, 1.0))).collect()
}

fn bad_inputs<R: Real>() {
    let s = v::<R>(1.0, 1.0);
    assert!(matches!(
        HeightField::<R>::new(vec![R::ONE], s),
        Err(ShapeError::TooFewPoints {
            needed: 2,
            got: 1,
            ..
        })
    ));
    let nan = R::from_f64(f64::NAN);
    assert!(matches!(
        HeightField::<R>::new(vec![R::ONE, R::ZERO, nan], s),
        Err(ShapeError::InvalidVertex { vertex: 2, .. })
    ));
    for x in [0.0, -1.0] {
        assert!(matches!(
            HeightField::<R>::new(vec![R::ONE, R::ZERO], v::<R>(x, 1.0)),
            Err(ShapeError::OutOfRange { .. })
        ));
    }
    assert!(matches!(
        HeightField::<R>::new(vec![R::ONE, R::ZERO], v::<R>(1.0, f64::INFINITY)),
        Err(ShapeError::NotFinite { .. })
    ));
    // A zero y scale flattens the field; that is allowed.
    assert!(HeightField::<R>::new(vec![R::ONE, R::ZERO], v::<R>(1.0, 0.0)).is_ok());
}

#[test]
fn validation_errors() {
    bad_inputs::<f32>();
    bad_inputs::<f64>();
}

// Samples span [−w/2, w/2]; height_at interpolates and refuses x outside or NaN.
#[test]
fn layout_and_height_at() {
    let field = HeightField::<f64>::new(vec![0.0, 1.0, 0.5], glam::DVec2::new(4.0, 2.0)).unwrap();
    let xs: Vec<f64> = field.vertices().iter().map(|p| p.x).collect();
    assert_eq!(xs, vec![-2.0, 0.0, 2.0]);
    assert_eq!(field.height_at(-1.0), Some(1.0));
    assert_eq!(field.height_at(2.0), Some(1.0));
    assert_eq!(field.height_at(1.0), Some(1.5));
    assert_eq!(field.height_at(2.0001), None);
    assert_eq!(field.height_at(f64::NAN), None);
    assert_eq!(field.segment(1).unwrap().b, glam::DVec2::new(2.0, 1.0));
    assert!(field.segment(2).is_none());
}

/// Rays from above and below against brute force over the segments.
fn rays_vs_brute<R: Real>(k: f64, tol: f64) {
    let mut rng = Rng(8);
    let (mut hits, mut total) = (0, 0);
    for _ in 0..20 {
        let field = HeightField::<R>::new(heights::<R>(&mut rng, 64), v::<R>(10.0 * k, k)).unwrap();
        for _ in 0..100 {
            let o = v::<R>(rng.range(-6.0, 6.0) * k, rng.range(-3.0, 3.0) * k);
            let t = v::<R>(rng.range(-6.0, 6.0) * k, rng.range(-3.0, 3.0) * k);
            let ray = Ray {
                origin: o,
                dir: t - o,
            };
            let max_t = R::from_f64(0.5);
            let brute = (0..63)
                .filter_map(|i| field.segment(i).unwrap().cast_ray(&ray, max_t))
                .map(|h| h.t.to_f64())
                .fold(f64::INFINITY, f64::min);
            total += 1;
            match field.cast_ray(&ray, max_t) {
                Some(h) => {
                    hits += 1;
                    assert!((h.t.to_f64() - brute).abs() <= tol);
                    assert!(h.normal.dot(ray.dir) <= R::ZERO);
                }
                None => assert!(brute.is_infinite()),
            }
            let all = field.cast_ray_all(&ray, max_t);
            assert!(all.windows(2).all(|w| w[0].1.t <= w[1].1.t));
        }
    }
    let rate = hits as f64 / total as f64;
    assert!((0.3..=0.7).contains(&rate), "hit rate {rate}");
}

// 2,000 rays per type and scale (1e-3, 1, 1e4).
#[test]
fn ray_casts_vs_brute_force() {
    for k in [1e-3, 1.0, 1e4] {
        rays_vs_brute::<f64>(k, 1e-12);
        rays_vs_brute::<f32>(k, 1e-5);
    }
}

// parry2d's HeightField with the same heights and scale: same hits and projections.
#[test]
fn parry_differential() {
    use parry2d::query::{PointQuery, Ray as PRay, RayCast as PRayCast};
    let mut rng = Rng(21);
    let (mut hits, mut total) = (0, 0);
    for _ in 0..20 {
        let h = heights::<f32>(&mut rng, 50);
        let scale = glam::Vec2::new(20.0, 3.0);
        let ours = HeightField::<f32>::new(h.clone(), scale).unwrap();
        let theirs = parry2d::shape::HeightField::new(h, scale);
        for _ in 0..100 {
            let o = glam::Vec2::new(rng.uniform(-12.0, 12.0), rng.uniform(-6.0, 6.0));
            let t = glam::Vec2::new(rng.uniform(-12.0, 12.0), rng.uniform(-6.0, 6.0));
            let a = ours.cast_ray(
                &Ray {
                    origin: o,
                    dir: t - o,
                },
                0.5,
            );
            // parry2d 0.31's 2D height field can answer beyond max_t: drop those.
            let p = theirs
                .cast_local_ray_and_get_normal(&PRay::new(o, t - o), 0.5, true)
                .filter(|p| p.time_of_impact <= 0.5);
            total += 1;
            match (a, p) {
                (Some(a), Some(p)) => {
                    hits += 1;
                    assert!(
                        (a.t - p.time_of_impact).abs() < 1e-4,
                        "{} vs {}",
                        a.t,
                        p.time_of_impact
                    );
                }
                (None, None) => {}
                (a, p) => panic!("ours {a:?} parry {p:?}"),
            }
            let da = ours.project_local_point(o, true).point.distance(o);
            let dp = theirs.project_local_point(o, true).point.distance(o);
            assert!((da - dp).abs() <= 1e-4 * (1.0 + dp), "{da} vs {dp}");
        }
    }
    let rate = hits as f64 / total as f64;
    assert!((0.3..=0.7).contains(&rate), "hit rate {rate}");
}

fn close<R: Real>(a: R::V2, b: R::V2) -> bool {
    a.distance(b).to_f64() < 1e-6
}

fn sample_normals<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let unit = |x: f64, y: f64| v::<R>(x, y).try_normalize().unwrap();
    // Flat ground: a normal leaning over an interior sample is the ground's.
    let flat = HeightField::<R>::new(vec![R::ZERO; 5], v::<R>(4.0, 1.0)).unwrap();
    assert!(close::<R>(
        flat.correct_normal(1, unit(0.6, 0.8)),
        v::<R>(0.0, 1.0)
    ));
    assert!(close::<R>(
        flat.correct_normal(2, unit(-0.6, 0.8)),
        v::<R>(0.0, 1.0)
    ));
    // The field's ends are free.
    assert_eq!(flat.correct_normal(3, unit(0.6, 0.8)), unit(0.6, 0.8));
    // A ridge at sample 1 (heights 0, 1, 0): convex from above keeps its cone.
    let ridge = HeightField::<R>::new(vec![R::ZERO, R::ONE, R::ZERO], v::<R>(2.0, 1.0)).unwrap();
    assert_eq!(ridge.correct_normal(0, unit(0.0, 1.0)), unit(0.0, 1.0));
    // A valley from above: leaning over it gives the segment's own normal.
    let valley = HeightField::<R>::new(vec![R::ONE, R::ZERO, R::ONE], v::<R>(2.0, 1.0)).unwrap();
    assert!(close::<R>(
        valley.correct_normal(0, unit(0.8, 0.6)),
        unit(1.0, 1.0)
    ));
    // Leaning toward the free end instead: kept.
    assert_eq!(valley.correct_normal(0, unit(0.6, 0.8)), unit(0.6, 0.8));
    // Composite view: parts are segments.
    assert_eq!(flat.part_count(), 4);
    flat.with_part(2, |_, part| assert_eq!(part.kind_name(), "Segment"));
}

#[test]
fn correct_normal() {
    sample_normals::<f32>();
    sample_normals::<f64>();
}

// NaN rays, NaN max_t and NaN points give the documented misses.
#[test]
fn nan_inputs() {
    let field = HeightField::<f64>::new(vec![0.0, 1.0], glam::DVec2::ONE).unwrap();
    let nan = Ray {
        origin: glam::DVec2::NAN,
        dir: glam::DVec2::Y,
    };
    assert!(field.cast_ray(&nan, 1.0).is_none());
    let up = Ray {
        origin: glam::DVec2::new(0.0, -1.0),
        dir: glam::DVec2::Y,
    };
    assert!(field.cast_ray(&up, f64::NAN).is_none());
    assert!(field.cast_ray(&up, 10.0).is_some());
    assert!(field
        .project_local_point(glam::DVec2::NAN, true)
        .point
        .is_nan());
}
