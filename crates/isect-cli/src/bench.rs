//! `isect bench`: a quick built-in benchmark. Each query kind runs on 8,192 seeded
//! cases, cycled for a fixed time, and its throughput is printed. Queries are in
//! `f32` (the library's common case); the world update is the demo's scene in `f64`.

use crate::demo::{populate, run_frame, Stats};
use crate::demo_shapes::DemoSpace;
use crate::error::CliError;
use crate::rng::Rng;
use crate::space::{D2, D3};
use clap::Args;
use glam::{Quat, Vec3};
use isect::algo::sat_3d::intersects_obb_obb;
use isect::math::Pose3;
use isect::query::ball_tests::ball_ball_intersects;
use isect::query::{distance, RayCast};
use isect::shape::obb_3d::Obb;
use isect::shape::{Aabb, Ball, Cone, Cylinder, Ray};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Seeded cases per query kind, cycled.
const CASES: usize = 8192;

/// Options of `isect bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Seconds spent on each query kind.
    #[arg(long, default_value_t = 0.3)]
    pub seconds: f64,
    /// Shapes in the world-update benchmark.
    #[arg(long, default_value_t = 2000)]
    pub shapes: usize,
}

/// Runs `isect bench`.
///
/// # Errors
/// Exit code 2 for a time that is not a positive number of seconds.
pub fn run(args: &BenchArgs) -> Result<(), CliError> {
    if !(args.seconds > 0.0 && args.seconds <= 60.0) {
        let msg = format!("--seconds is {}, must be in (0, 60]", args.seconds);
        return Err(CliError::input(msg));
    }
    let budget = Duration::from_secs_f64(args.seconds);
    let mut rng = Rng::new(7);
    out!(
        "{:<44} {:>14} {:>10}",
        "query (f32, 8192 seeded cases)",
        "queries/s",
        "ns/query"
    );
    ray_box(&mut rng, budget);
    ball_ball(&mut rng, budget);
    box_box(&mut rng, budget);
    gjk_distance(&mut rng, budget);
    world_update::<D2>(args.shapes, budget)?;
    world_update::<D3>(args.shapes, budget)?;
    Ok(())
}

/// Runs `query(i)` for `i = 0, 1, ...` (cycling the cases) until `budget` is spent;
/// prints the throughput. `query` returns something to keep the work alive.
fn measure<T>(name: &str, budget: Duration, mut query: impl FnMut(usize) -> T) {
    let start = Instant::now();
    let mut done = 0usize;
    while start.elapsed() < budget {
        // Batches of 1024 keep the clock out of the measurement.
        for _ in 0..1024 {
            black_box(query(done % CASES));
            done += 1;
        }
    }
    report(name, done as f64, start.elapsed());
}

fn report(name: &str, count: f64, time: Duration) {
    let per_s = count / time.as_secs_f64();
    out!("{name:<44} {per_s:>14.0} {:>10.1}", 1e9 / per_s);
}

fn v3(rng: &mut Rng, lo: f64, hi: f64) -> Vec3 {
    let mut c = || rng.range(lo, hi) as f32;
    Vec3::new(c(), c(), c())
}

fn rotation(rng: &mut Rng) -> Quat {
    let axis = v3(rng, -1.0, 1.0).try_normalize().unwrap_or(Vec3::X);
    Quat::from_axis_angle(axis, rng.range(0.0, std::f64::consts::TAU) as f32)
}

fn ray_box(rng: &mut Rng, budget: Duration) {
    let cases: Vec<(Ray<Vec3>, Aabb<Vec3>)> = (0..CASES)
        .filter_map(|_| {
            let b = Aabb::from_center(v3(rng, -1.0, 1.0), v3(rng, 0.2, 1.0)).ok()?;
            let from = v3(rng, -4.0, 4.0);
            Some((Ray::new(from, v3(rng, -1.0, 1.0) - from).ok()?, b))
        })
        .collect();
    measure("ray-box (slab)", budget, |i| {
        let (ray, b) = &cases[i % cases.len()];
        b.cast_ray(ray, f32::INFINITY)
    });
}

fn ball_ball(rng: &mut Rng, budget: Duration) {
    let ball = |rng: &mut Rng| Ball::new(v3(rng, -2.0, 2.0), rng.range(0.2, 1.0) as f32).ok();
    let cases: Vec<(Ball<Vec3>, Ball<Vec3>)> = (0..CASES)
        .filter_map(|_| Some((ball(rng)?, ball(rng)?)))
        .collect();
    measure("ball-ball intersection", budget, |i| {
        let (a, b) = &cases[i % cases.len()];
        ball_ball_intersects(a, b)
    });
}

fn box_box(rng: &mut Rng, budget: Duration) {
    let obb =
        |rng: &mut Rng| Obb::<f32>::new(v3(rng, -2.0, 2.0), v3(rng, 0.2, 1.0), rotation(rng)).ok();
    let cases: Vec<(Obb<f32>, Obb<f32>)> = (0..CASES)
        .filter_map(|_| Some((obb(rng)?, obb(rng)?)))
        .collect();
    measure("box-box intersection (3D OBB SAT)", budget, |i| {
        let (a, b) = &cases[i % cases.len()];
        intersects_obb_obb(a, b)
    });
}

fn gjk_distance(rng: &mut Rng, budget: Duration) {
    let (Ok(cylinder), Ok(cone)) = (Cylinder::<f32>::new(0.8, 0.5), Cone::<f32>::new(0.8, 0.6))
    else {
        return;
    };
    let pose = |rng: &mut Rng| Pose3::new(v3(rng, -2.0, 2.0), rotation(rng));
    let cases: Vec<(Pose3<f32>, Pose3<f32>)> = (0..CASES).map(|_| (pose(rng), pose(rng))).collect();
    measure("cylinder-cone distance (GJK)", budget, |i| {
        let (pa, pb) = &cases[i % cases.len()];
        distance(pa, &cylinder, pb, &cone)
    });
}

/// Frames of the demo's moving scene (every kind, with its composites, `f64`) for
/// `budget`.
fn world_update<Sp: DemoSpace>(shapes: usize, budget: Duration) -> Result<(), CliError> {
    let mut rng = Rng::new(1);
    let half = crate::demo::box_half::<Sp>(shapes);
    let (mut world, mut bodies) = populate::<Sp>(&mut rng, shapes, half)?;
    let mut stats = Stats::default();
    let start = Instant::now();
    while start.elapsed() < budget {
        run_frame(&mut world, &mut bodies, half, &mut stats)?;
    }
    let per_s = stats.frames as f64 / start.elapsed().as_secs_f64();
    let composites = bodies.len() - shapes;
    let name = format!(
        "world frame ({}D, {shapes} + {composites} composites)",
        Sp::DIM
    );
    out!(
        "{name:<44} {per_s:>10.1} frames/s {:>8.3} ms/frame",
        1e3 / per_s
    );
    Ok(())
}
