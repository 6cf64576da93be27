//! Times `ConcavePolygon::new` on noisy circles (1k, 20k, 50k vertices, `f64`), the
//! input of issue 18 (a coastline-like ring: radii with 5 % noise, angles jittered in
//! their slots), and prints the best wall-clock time of several runs.
//!
//! `cargo run --release --example concave_timing [vertices ...]`

use std::time::Instant;

use glam::DVec2;
use isect::shape::ConcavePolygon;

#[path = "../tests/support/rng.rs"]
mod rng;

/// A circle of radius 100 with `n` vertices, angles jittered in their slots.
fn noisy_circle(n: usize, seed: u64) -> Vec<DVec2> {
    let mut r = rng::Rng(seed);
    (0..n)
        .map(|k| {
            let a = (k as f64 + r.range(0.2, 0.8)) / n as f64 * std::f64::consts::TAU;
            DVec2::from_angle(a) * 100.0 * r.range(0.95, 1.0)
        })
        .collect()
}

fn main() {
    println!("| vertices | pieces | best of runs (ms) |");
    println!("|---|---|---|");
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if args.is_empty() {
        vec![1_000, 20_000, 50_000]
    } else {
        args
    };
    // `RUNS=1` for an instruction count under callgrind.
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(10);
    for n in sizes {
        let ring = noisy_circle(n, 0x18);
        let mut best = f64::INFINITY;
        let mut pieces = 0;
        for _ in 0..runs {
            let input = ring.clone();
            let t = Instant::now();
            let polygon = ConcavePolygon::<f64>::new(input, vec![]).expect("a simple ring");
            best = best.min(t.elapsed().as_secs_f64() * 1e3);
            pieces = polygon.pieces().len();
        }
        println!("| {n} | {pieces} | {best:.1} |");
    }
}
