//! Times the convex hulls. 3D: `ConvexPolyhedron::from_points` (and the bare
//! `convex_hull_3d`, `f64`) on seeded point sets of 1k, 10k and 100k points: on a
//! sphere (beside parry's `transformation::convex_hull`, `f32`), in a ball, on a cube's
//! surface, on a grid, in clusters of near-duplicates; each checked to contain its
//! input. 2D: `convex_hull_2d` then `ConvexPolygon::new` on 10k, 100k and 1M points in
//! a square and on a circle.
//!
//! Times are the best of several runs, in thread CPU time.
//!
//! `cargo run --release --example hull_timing` (an argument `sphere` limits it to the
//! sphere rows).

use glam::{DVec2, DVec3, Vec3};
use isect::algo::hull_2d::convex_hull_2d;
use isect::algo::hull_3d::convex_hull_3d;
use isect::shape::{ConvexPolygon, ConvexPolyhedron};

#[path = "../tests/support/rng.rs"]
mod rng;

/// A point uniform in the unit ball.
fn in_ball(r: &mut rng::Rng) -> DVec3 {
    loop {
        let p = DVec3::new(r.range(-1.0, 1.0), r.range(-1.0, 1.0), r.range(-1.0, 1.0));
        if p.length_squared() <= 1.0 {
            return p;
        }
    }
}

/// `n` seeded points uniform on the unit sphere (ball points pushed out).
fn sphere(n: usize, seed: u64) -> Vec<DVec3> {
    let mut r = rng::Rng(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let p = in_ball(&mut r);
        if p.length() > 1e-3 {
            out.push(p.normalize());
        }
    }
    out
}

/// `n` seeded points uniform in the unit ball (most of them interior).
fn ball(n: usize, seed: u64) -> Vec<DVec3> {
    let mut r = rng::Rng(seed);
    (0..n).map(|_| in_ball(&mut r)).collect()
}

/// `n` seeded points on the surface of the cube `[-1, 1]³`, on a 1/64 lattice, so
/// that many are exactly coplanar and collinear.
fn cube_surface(n: usize, seed: u64) -> Vec<DVec3> {
    let mut r = rng::Rng(seed);
    (0..n)
        .map(|_| {
            let mut p = [0.0; 3].map(|_| (r.below(129) as f64 - 64.0) / 64.0);
            p[r.below(3)] = if r.below(2) == 0 { -1.0 } else { 1.0 };
            DVec3::from_array(p)
        })
        .collect()
}

/// About `n` points on a cubic grid of unit spacing.
fn grid(n: usize) -> Vec<DVec3> {
    let k = (n as f64).cbrt().round() as usize;
    let mut out = Vec::with_capacity(k * k * k);
    for x in 0..k {
        for y in 0..k {
            for z in 0..k {
                out.push(DVec3::new(x as f64, y as f64, z as f64));
            }
        }
    }
    out
}

/// `n` points in 100 clusters of near-duplicates (within 1e-9) around points on the
/// unit sphere.
fn clusters(n: usize, seed: u64) -> Vec<DVec3> {
    let centres = sphere(100, seed);
    let mut r = rng::Rng(seed ^ 0x5555);
    (0..n)
        .map(|_| centres[r.below(centres.len())] + in_ball(&mut r) * 1e-9)
        .collect()
}

/// This thread's CPU time in seconds (`CLOCK_THREAD_CPUTIME_ID`; the machine may be
/// shared, so wall time would count other processes' turns).
#[cfg(target_os = "linux")]
fn cpu_seconds() -> f64 {
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
    }
    let mut ts = Timespec { sec: 0, nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; 3 is CLOCK_THREAD_CPUTIME_ID.
    unsafe { clock_gettime(3, &mut ts) };
    ts.sec as f64 + ts.nsec as f64 * 1e-9
}

/// Wall time elsewhere.
#[cfg(not(target_os = "linux"))]
fn cpu_seconds() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// The best of `runs` CPU times of `f` (this thread), in milliseconds.
fn best_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    (0..runs)
        .map(|_| {
            let t = cpu_seconds();
            f();
            (cpu_seconds() - t) * 1e3
        })
        .fold(f64::INFINITY, f64::min)
}

/// One table row for the 3D set `pts`: hull and polyhedron times, parry's for the
/// sphere, the face count and whether every input point is inside.
fn row_3d(name: &str, pts: &[DVec3], with_parry: bool) {
    let n = pts.len();
    let runs = if n >= 100_000 { 3 } else { 7 };
    let hull = best_ms(runs, || {
        convex_hull_3d(pts).unwrap();
    });
    let poly = best_ms(runs, || {
        ConvexPolyhedron::<f64>::from_points(pts).unwrap();
    });
    let parry = if with_parry {
        let pts32: Vec<Vec3> = pts.iter().map(|p| p.as_vec3()).collect();
        let ms = best_ms(runs, || {
            parry3d::transformation::convex_hull(&pts32);
        });
        format!("{ms:.1} ms")
    } else {
        "–".into()
    };
    let p = ConvexPolyhedron::<f64>::from_points(pts).unwrap();
    // Containment by the faces' planes (O(n · faces)): a spread of about 2,000 points.
    let step = (n / 2_000).max(1);
    let inside = pts.iter().step_by(step).all(|&q| p.contains_point(q));
    println!(
        "| {name} | {n} | {hull:.1} ms | {poly:.1} ms | {parry} | {} faces | inside: {inside} |",
        p.faces().len()
    );
}

/// One table row for the 2D set `pts`: hull then polygon.
fn row_2d(name: &str, pts: &[DVec2]) {
    let runs = if pts.len() >= 1_000_000 { 3 } else { 7 };
    let mut vertices = 0;
    let ms = best_ms(runs, || {
        let hull = convex_hull_2d(pts).unwrap();
        vertices = ConvexPolygon::<f64>::new(&hull).unwrap().vertices().len();
    });
    println!(
        "| {name} | {} | {ms:.2} ms | {vertices} vertices |",
        pts.len()
    );
}

fn main() {
    let only_sphere = std::env::args().any(|a| a == "sphere");
    println!("| set | points | hull f64 | polyhedron f64 | parry f32 | faces | check |");
    println!("|---|---|---|---|---|---|---|");
    for n in [1_000, 10_000, 100_000] {
        row_3d("sphere", &sphere(n, 42), true);
    }
    if only_sphere {
        return;
    }
    for n in [1_000, 10_000, 100_000] {
        row_3d("ball", &ball(n, 7), false);
        row_3d("cube surface", &cube_surface(n, 9), false);
        row_3d("grid", &grid(n), false);
        row_3d("clusters", &clusters(n, 11), false);
    }
    println!();
    println!("| 2D set | points | hull + polygon f64 | size |");
    println!("|---|---|---|---|");
    for n in [10_000, 100_000, 1_000_000] {
        let mut r = rng::Rng(3);
        let square: Vec<DVec2> = (0..n)
            .map(|_| DVec2::new(r.range(-1.0, 1.0), r.range(-1.0, 1.0)))
            .collect();
        row_2d("square", &square);
        let circle: Vec<DVec2> = (0..n)
            .map(|_| DVec2::from_angle(r.range(0.0, std::f64::consts::TAU)))
            .collect();
        row_2d("circle", &circle);
    }
}
