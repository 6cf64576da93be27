//! Convex hull construction beside parry3d's, in one criterion group:
//!
//! - `hull_build`: `ConvexPolyhedron::from_points` (`f64` and `f32`: the exact
//!   quickhull, then its coplanar triangles merged into polygon faces) beside parry's
//!   `transformation::convex_hull` (`f32`, the dev-dependency `parry3d`; triangles
//!   only), on 1k, 10k and 100k seeded points uniform on the unit sphere (every point
//!   is a hull vertex: the hardest case for the face count). Thread CPU time.
//!
//! Run: `cargo bench -p isect --bench hull -- --warm-up-time 1 --measurement-time 3`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use glam::{DVec3, Vec3};
use isect::shape::ConvexPolyhedron;

mod support;
use support::{cpu_time_config, CpuTime, Rng};

/// `n` seeded points uniform on the unit sphere (ball samples pushed out).
fn sphere(n: usize, seed: u64) -> Vec<DVec3> {
    let mut r = Rng(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let p = DVec3::new(r.range(-1.0, 1.0), r.range(-1.0, 1.0), r.range(-1.0, 1.0));
        let len = p.length();
        if len > 1e-3 && len <= 1.0 {
            out.push(p / len);
        }
    }
    out
}

fn hull_build(c: &mut Criterion<CpuTime>) {
    let mut g = c.benchmark_group("hull_build");
    g.sample_size(10);
    for n in [1_000, 10_000, 100_000] {
        let pts = sphere(n, 42);
        let pts32: Vec<Vec3> = pts.iter().map(|p| p.as_vec3()).collect();
        g.bench_with_input(
            BenchmarkId::new("isect from_points f64", n),
            &pts,
            |b, p| b.iter(|| ConvexPolyhedron::<f64>::from_points(p).unwrap()),
        );
        g.bench_with_input(
            BenchmarkId::new("isect from_points f32", n),
            &pts32,
            |b, p| b.iter(|| ConvexPolyhedron::<f32>::from_points(p).unwrap()),
        );
        g.bench_with_input(
            BenchmarkId::new("parry convex_hull f32", n),
            &pts32,
            |b, p| b.iter(|| parry3d::transformation::convex_hull(p)),
        );
    }
    g.finish();
}

criterion_group! {
    name = build;
    config = cpu_time_config();
    targets = hull_build
}
criterion_main!(build);
