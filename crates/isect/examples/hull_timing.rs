//! Times the 3D convex hull on random points on a sphere (1k, 10k, 100k), ours
//! (`convex_hull_3d`, `ConvexPolyhedron::from_points`, `f32` and `f64`) beside parry's
//! `transformation::convex_hull` (`f32`), and checks that the input points are inside.
//!
//! `cargo run --release --example hull_timing`

use std::time::Instant;

use glam::{DVec3, Vec3};
use isect::algo::hull_3d::convex_hull_3d;
use isect::shape::ConvexPolyhedron;

#[path = "../tests/support/rng.rs"]
mod rng;

/// `n` seeded points uniform on the unit sphere (normalised Gaussian-free cube
/// rejection: points in the unit ball, pushed out).
fn sphere(n: usize, seed: u64) -> Vec<DVec3> {
    let mut r = rng::Rng(seed);
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

/// The best of `runs` wall-clock times of `f`, in milliseconds.
fn best_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    println!("| points | hull f64 | polyhedron f64 | hull f32 | polyhedron f32 | parry f32 |");
    println!("|---|---|---|---|---|---|");
    for n in [1_000, 10_000, 100_000] {
        let runs = if n >= 100_000 { 3 } else { 10 };
        let pts = sphere(n, 42);
        let pts32: Vec<Vec3> = pts.iter().map(|p| p.as_vec3()).collect();
        let hull64 = best_ms(runs, || {
            convex_hull_3d(&pts).unwrap();
        });
        let poly64 = best_ms(runs, || {
            ConvexPolyhedron::<f64>::from_points(&pts).unwrap();
        });
        let hull32 = best_ms(runs, || {
            convex_hull_3d(&pts32).unwrap();
        });
        let poly32 = best_ms(runs, || {
            ConvexPolyhedron::<f32>::from_points(&pts32).unwrap();
        });
        let parry = best_ms(runs, || {
            parry3d::transformation::convex_hull(&pts32);
        });
        let poly = ConvexPolyhedron::<f64>::from_points(&pts).unwrap();
        // Every point up to 10k; a spread of 1,000 of the 100k (O(n · faces)).
        let step = (n / 10_000).max(1) * 10;
        let step = if n > 10_000 { step } else { 1 };
        let inside = pts.iter().step_by(step).all(|&p| poly.contains_point(p));
        println!(
            "| {n} | {hull64:.1} ms | {poly64:.1} ms | {hull32:.1} ms | {poly32:.1} ms | {parry:.1} ms | all inside: {inside}"
        );
    }
}
