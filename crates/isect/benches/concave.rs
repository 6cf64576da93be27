//! 2D non-convex shapes beside parry2d: ray casts and point projection on a 1,024-vertex
//! random walk polyline (ours beside `parry2d::shape::Polyline`), and ray casts on a
//! 1,024-vertex star-shaped concave polygon (ours, solid, beside parry's `Polyline` of
//! its boundary and beside a parry `Compound` of our own convex pieces, which answers
//! the same solid question), and ray casts on a 1,024-sample height field beside parry's
//! `HeightField` (which walks the cells; ours uses the tree). 8,192 seeded cases cycled.
//!
//! Ids pair like with like by their last part: `…/hit` is the first hit with its
//! normal, `…/point` the projected point. The decomposition itself (validation, monotone
//! triangulation, Hertel–Mehlhorn, trees) is timed alone in `concave_build`, on the star and
//! on noisy circles of 1k, 20k and 50k vertices (`f64`): parry2d's only decomposition is
//! the voxel-based VHACD, an approximation that answers another question.
//!
//! Run: `cargo bench -p isect --bench concave -- --warm-up-time 1 --measurement-time 2`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use glam::{DVec2, Vec2};
use isect::query::project_point::ProjectPoint;
use isect::query::RayCast;
use isect::shape::heightfield_2d::HeightField;
use isect::shape::{ConcavePolygon, Polyline, Ray};
use parry2d::query::{PointQuery, Ray as PRay, RayCast as PRayCast};

const VERTICES: usize = 1024;

mod support;
use support::{cycle, Rng, CASES};

/// A random walk along `x` of `VERTICES` vertices.
fn walk(rng: &mut Rng) -> Vec<Vec2> {
    let (mut x, mut y) = (0.0f32, 0.0f32);
    (0..VERTICES)
        .map(|_| {
            x += rng.uniform(0.1, 1.0);
            y += rng.uniform(-1.0, 1.0);
            Vec2::new(x, y)
        })
        .collect()
}

/// A star-shaped ring of `VERTICES` vertices, radii in `[0.5, 1] · 100`.
fn star(rng: &mut Rng) -> Vec<Vec2> {
    (0..VERTICES)
        .map(|i| {
            let a = i as f32 / VERTICES as f32 * std::f32::consts::TAU;
            Vec2::from_angle(a) * rng.uniform(50.0, 100.0)
        })
        .collect()
}

/// Rays between random points of `[lo, hi]`, `max_t = 1`.
fn rays(rng: &mut Rng, lo: Vec2, hi: Vec2) -> Vec<Ray<Vec2>> {
    let mut p = || Vec2::new(rng.uniform(lo.x, hi.x), rng.uniform(lo.y, hi.y));
    (0..CASES)
        .map(|_| {
            let (o, t) = (p(), p());
            Ray {
                origin: o,
                dir: t - o,
            }
        })
        .collect()
}

fn polyline(c: &mut Criterion) {
    let mut rng = Rng(0x9017);
    let verts = walk(&mut rng);
    let ours = Polyline::<f32>::new(verts.clone(), false).unwrap();
    let theirs = parry2d::shape::Polyline::new(verts, None);
    let b = ours.local_aabb();
    let span = Vec2::new(0.0, 30.0);
    let cases = rays(&mut rng, b.min - span, b.max + span);
    let mut g = c.benchmark_group("polyline_ray");
    cycle(&mut g, "isect", "hit", &cases, |r| ours.cast_ray(r, 1.0));
    cycle(&mut g, "parry", "hit", &cases, |r| {
        theirs.cast_local_ray_and_get_normal(&PRay::new(r.origin, r.dir), 1.0, true)
    });
    g.finish();
    let mut g = c.benchmark_group("polyline_project");
    cycle(&mut g, "isect", "point", &cases, |r| {
        ours.project_local_point(r.origin, true)
    });
    cycle(&mut g, "parry", "point", &cases, |r| {
        theirs.project_local_point(r.origin, true)
    });
    g.finish();
}

fn concave(c: &mut Criterion) {
    let mut rng = Rng(0xC0C4);
    let ring = star(&mut rng);
    let ours = ConcavePolygon::<f32>::new(ring.clone(), vec![]).unwrap();
    let n = ring.len() as u32;
    let loop_indices: Vec<[u32; 2]> = (0..n).map(|i| [i, (i + 1) % n]).collect();
    let boundary = parry2d::shape::Polyline::new(ring.clone(), Some(loop_indices));
    let parts: Vec<_> = ours
        .pieces()
        .iter()
        .filter_map(|p| {
            let shape = parry2d::shape::SharedShape::convex_polyline(p.vertices().to_vec())?;
            Some((parry2d::math::Pose::IDENTITY, shape))
        })
        .collect();
    let compound = parry2d::shape::Compound::new(parts);
    let cases = rays(&mut rng, Vec2::splat(-150.0), Vec2::splat(150.0));
    let mut g = c.benchmark_group("concave_ray");
    cycle(&mut g, "isect", "hit", &cases, |r| ours.cast_ray(r, 1.0));
    cycle(&mut g, "parry_polyline", "hit", &cases, |r| {
        boundary.cast_local_ray_and_get_normal(&PRay::new(r.origin, r.dir), 1.0, true)
    });
    cycle(&mut g, "parry_compound", "hit", &cases, |r| {
        compound.cast_local_ray_and_get_normal(&PRay::new(r.origin, r.dir), 1.0, true)
    });
    g.finish();
    let mut g = c.benchmark_group("concave_build");
    g.bench_function(BenchmarkId::new("isect", "decompose"), |b| {
        b.iter(|| ConcavePolygon::<f32>::new(black_box(ring.clone()), vec![]))
    });
    for n in [1_000, 20_000, 50_000] {
        let circle = noisy_circle(&mut rng, n);
        g.bench_function(
            BenchmarkId::new("isect", format!("noisy_circle_{n}")),
            |b| b.iter(|| ConcavePolygon::<f64>::new(black_box(circle.clone()), vec![])),
        );
    }
    g.finish();
}

/// A circle of radius 100 with `n` vertices, angles jittered in their slots, radii
/// with 5 % noise (issue 18's input: 20k vertices took 1.0 s, 50k 5.9 s by ear clipping).
fn noisy_circle(rng: &mut Rng, n: usize) -> Vec<DVec2> {
    (0..n)
        .map(|k| {
            let a = (k as f64 + rng.range(0.2, 0.8)) / n as f64 * std::f64::consts::TAU;
            DVec2::from_angle(a) * 100.0 * rng.range(0.95, 1.0)
        })
        .collect()
}

fn heightfield(c: &mut Criterion) {
    let mut rng = Rng(0x4F1E);
    let heights: Vec<f32> = (0..VERTICES).map(|_| rng.uniform(-1.0, 1.0)).collect();
    let scale = Vec2::new(100.0, 5.0);
    let ours = HeightField::<f32>::new(heights.clone(), scale).unwrap();
    let theirs = parry2d::shape::HeightField::new(heights, scale);
    let cases = rays(&mut rng, Vec2::new(-60.0, -15.0), Vec2::new(60.0, 15.0));
    let mut g = c.benchmark_group("heightfield_ray");
    cycle(&mut g, "isect", "hit", &cases, |r| ours.cast_ray(r, 1.0));
    cycle(&mut g, "parry", "hit", &cases, |r| {
        theirs.cast_local_ray_and_get_normal(&PRay::new(r.origin, r.dir), 1.0, true)
    });
    g.finish();
}

criterion_group!(benches, polyline, concave, heightfield);
criterion_main!(benches);
