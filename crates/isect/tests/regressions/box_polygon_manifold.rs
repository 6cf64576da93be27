//! Issue 13: a 2D box resting on a polygon (or a polygon on a box) got a one-point
//! manifold, where box–box and polygon–polygon get two: a solver tips it over. Fixed
//! in `query/manifold.rs` (`contact_manifold_obb_polygon`: the box clipped as a
//! four-sided polygon) and the 2D dispatch.
//!
//! The class: a box on a polygon ground and a flat-bottomed polygon on a box ground,
//! both orders of the pair, f32 and f64, scales 1e-3 to 1e5, seeded offsets along
//! the ground (overhanging its ends too): two points at the ends of the overlap of
//! the bottom edge and the ground's top, each as deep as the sink, on both surfaces.

use crate::rng::Rng;
use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose2, Real, Vector, Vector2};
use isect::query::dispatch;
use isect::shape::shape_2d::Shape;
use isect::shape::{Aabb, ConvexPolygon};

/// The scales of the sweep.
const SCALES: [f64; 6] = [1e-3, 0.1, 1.0, 10.0, 1e3, 1e5];

fn v2<R: Real>(x: f64, y: f64) -> R::V2 {
    R::V2::new(R::from_f64(x), R::from_f64(y))
}

/// A regular `k`-gon of circumradius `r` with one edge facing `−y`: the shape, the
/// half width of that edge and the distance from the centre to it.
fn flat_bottom<R: Real>(k: usize, r: f64) -> (ConvexPolygon<R>, f64, f64) {
    let step = std::f64::consts::TAU / k as f64;
    let phase = -std::f64::consts::FRAC_PI_2 - step / 2.0;
    let pts: Vec<R::V2> = (0..k)
        .map(|i| {
            let a = phase + step * i as f64;
            v2::<R>(r * a.cos(), r * a.sin())
        })
        .collect();
    let half = step / 2.0;
    (
        ConvexPolygon::new(&pts).unwrap(),
        r * half.sin(),
        r * half.cos(),
    )
}

fn resting<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let mut rng = Rng(0x00b0_9017);
    for s in SCALES {
        for case in 0..200 {
            let rect = [(-5.0, -1.0), (5.0, -1.0), (5.0, 1.0), (-5.0, 1.0)]
                .map(|(x, y)| v2::<R>(x * s, y * s));
            // Even cases: a box on a polygon ground; odd: a polygon on a box ground.
            let (ground, top, hw, hh) = if case % 2 == 0 {
                let (hw, hh) = (rng.range(0.2, 1.0) * s, rng.range(0.2, 1.0) * s);
                let b = Aabb::from_center(R::V2::ZERO, v2::<R>(hw, hh)).unwrap();
                let g = Shape::Polygon(ConvexPolygon::new(&rect).unwrap());
                (g, Shape::Cuboid(b), hw, hh)
            } else {
                let (g, hw, hh) = flat_bottom::<R>(3 + rng.below(6), rng.range(0.3, 1.0) * s);
                let b = Aabb::from_center(R::V2::ZERO, v2::<R>(5.0 * s, s)).unwrap();
                (Shape::Cuboid(b), Shape::Polygon(g), hw, hh)
            };
            let x = rng.range(-1.0, 1.0) * (5.0 * s + hw - 0.1 * s);
            let base = v2::<R>(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)) * R::from_f64(s);
            let sink = 0.01 * s;
            let pg = Pose2::<R>::from_translation(base);
            let pt = Pose2::<R>::from_translation(base + v2::<R>(x, s + hh - sink));
            let (lo, hi) = ((x - hw).max(-5.0 * s), (x + hw).min(5.0 * s));
            let t = R::EPSILON.to_f64() * 4096.0 * 10.0 * s;
            let what = format!("scale {s} case {case}");
            for swap in [false, true] {
                let m = if swap {
                    dispatch::contact_manifold(&pt, &top, &pg, &ground, R::ZERO)
                        .map(|m| m.flipped())
                } else {
                    dispatch::contact_manifold(&pg, &ground, &pt, &top, R::ZERO)
                };
                let m = m.unwrap_or_else(|| panic!("{what}: resting, no manifold"));
                assert_eq!(m.points().len(), 2, "{what} swap {swap}: {m:?}");
                assert!((m.normal.y().to_f64() - 1.0).abs() <= 1e-6, "{what}: {m:?}");
                let mut xs: Vec<f64> = m
                    .points()
                    .iter()
                    .map(|p| (p.point_a - base).x().to_f64())
                    .collect();
                xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
                assert!(
                    (xs[0] - lo).abs() <= t && (xs[1] - hi).abs() <= t,
                    "{what}: {xs:?} vs [{lo}, {hi}]"
                );
                for p in m.points() {
                    assert!((p.depth.to_f64() - sink).abs() <= t, "{what}: {p:?}");
                    let ya = (p.point_a - base).y().to_f64();
                    assert!((ya - s).abs() <= t, "{what}: point_a off the ground {p:?}");
                    let gap = p.point_a - p.point_b - m.normal * p.depth;
                    assert!(gap.length().to_f64() <= t, "{what}: {p:?}");
                }
            }
        }
    }
}

#[test]
fn resting_f32() {
    resting::<f32>();
}

#[test]
fn resting_f64() {
    resting::<f64>();
}
