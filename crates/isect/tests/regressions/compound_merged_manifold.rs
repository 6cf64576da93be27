//! Issue 13: a composite's per-part manifolds repeat the points where parts meet
//! (a box across two floor parts gets the shared corner twice) and together exceed
//! what a solver takes. Added `query::merge_manifolds`: one manifold from the
//! per-part ones, duplicates dropped, reduced to the widest support.
//!
//! The class: a box or a flat-bottomed polygon resting on a flat compound of 1 to 5
//! adjacent boxes (random break points, the shape across one or more of them,
//! overhanging its ends too), both orders of the pair, f32 and f64, scales 1e-3 to
//! 1e5: the merged manifold has the two ends of the supported bottom edge, each as
//! deep as the sink. (Polylines: their box–segment pairs still give one point a
//! part, open in issue 13.)

use crate::rng::Rng;
use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose2, Real, Vector, Vector2};
use isect::query::merge_manifolds;
use isect::shape::shape_2d::{AnyShape, Shape};
use isect::shape::{Aabb, Compound, ConvexPolygon};

/// The scales of the sweep.
const SCALES: [f64; 6] = [1e-3, 0.1, 1.0, 10.0, 1e3, 1e5];

fn v2<R: Real>(x: f64, y: f64) -> R::V2 {
    R::V2::new(R::from_f64(x), R::from_f64(y))
}

/// A regular `k`-gon of circumradius `r` with one edge facing `−y`, the half width of
/// that edge and the distance from the centre to it.
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

fn on_compound<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let mut rng = Rng(0x0901_111e);
    for s in SCALES {
        for case in 0..150 {
            let (top, hw, hh) = if case % 2 == 0 {
                let (hw, hh) = (rng.range(0.2, 1.0) * s, rng.range(0.2, 1.0) * s);
                (
                    Shape::Cuboid(Aabb::from_center(R::V2::ZERO, v2::<R>(hw, hh)).unwrap()),
                    hw,
                    hh,
                )
            } else {
                let (g, hw, hh) = flat_bottom::<R>(3 + rng.below(6), rng.range(0.3, 1.0) * s);
                (Shape::Polygon(g), hw, hh)
            };
            let x = rng.range(-1.0, 1.0) * (5.0 * s + hw - 0.1 * s);
            let mut xs: Vec<f64> = (0..1 + rng.below(4))
                .map(|_| rng.range(-4.0, 4.0) * s)
                .collect();
            // Break points near the shape's ends leave slivers touching its sides.
            xs.retain(|b| (b - (x - hw)).abs() > 0.02 * s && (b - (x + hw)).abs() > 0.02 * s);
            xs.extend([-5.0 * s, 5.0 * s]);
            xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
            xs.dedup_by(|a, b| (*a - *b).abs() < 1e-3 * s);
            // Flat slabs of half height s between the break points, top at y = 0.
            let slabs = xs
                .windows(2)
                .map(|w| {
                    let centre = v2::<R>((w[0] + w[1]) / 2.0, -s);
                    let half = v2::<R>((w[1] - w[0]) / 2.0, s);
                    let slab = Shape::Cuboid(Aabb::from_center(R::V2::ZERO, half).unwrap());
                    (Pose2::<R>::from_translation(centre), slab)
                })
                .collect();
            let line = Compound::new(slabs).unwrap();
            let base = v2::<R>(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)) * R::from_f64(s);
            let sink = 0.01 * s;
            let pl = Pose2::<R>::from_translation(base);
            let pt = Pose2::<R>::from_translation(base + v2::<R>(x, hh - sink));
            let (ground, top) = (AnyShape::from(line), AnyShape::from(top));
            let (lo, hi) = ((x - hw).max(-5.0 * s), (x + hw).min(5.0 * s));
            let t = R::EPSILON.to_f64() * 4096.0 * 10.0 * s;
            let what = format!("scale {s} case {case} breaks {xs:?}");
            for swap in [false, true] {
                let parts = if swap {
                    AnyShape::contact_manifolds(&pt, &top, &pl, &ground, R::ZERO)
                } else {
                    AnyShape::contact_manifolds(&pl, &ground, &pt, &top, R::ZERO)
                };
                let m = merge_manifolds(parts.iter().map(|p| &p.manifold))
                    .unwrap_or_else(|| panic!("{what}: resting, no manifold"));
                let m = if swap { m.flipped() } else { m };
                assert_eq!(m.points().len(), 2, "{what} swap {swap}: {m:?}");
                assert!((m.normal.y().to_f64() - 1.0).abs() <= 1e-6, "{what}: {m:?}");
                let mut got: Vec<f64> = m
                    .points()
                    .iter()
                    .map(|p| (p.point_a - base).x().to_f64())
                    .collect();
                got.sort_by(|a, b| a.partial_cmp(b).unwrap());
                assert!(
                    (got[0] - lo).abs() <= t && (got[1] - hi).abs() <= t,
                    "{what} swap {swap}: {got:?} vs [{lo}, {hi}]"
                );
                for p in m.points() {
                    assert!((p.depth.to_f64() - sink).abs() <= t, "{what}: {p:?}");
                }
            }
        }
    }
}

#[test]
fn on_compound_f32() {
    on_compound::<f32>();
}

#[test]
fn on_compound_f64() {
    on_compound::<f64>();
}
