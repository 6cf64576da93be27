//! A deterministic driver for instruction counts of hull–hull `contact` with a
//! prediction distance (0.1), on the pose mix of the `contact_hull_*` benches: 16
//! seeded hulls of `n` points on an ellipsoid, 256 poses, a quarter each separated
//! beyond the prediction, within it, touching and penetrating (found by bisection on
//! our `distance`). The timed kernel is `run_contacts`, for callgrind:
//!
//! `valgrind --tool=callgrind --toggle-collect='*run_contacts*' target/release/examples/hull_contact_count 8 [class]`
//!
//! (`n` of 8, 32 or 256; `class` 0 to 3 runs one quarter, nothing runs them all;
//! `REPEAT=k` runs the kernel `k` times, for a sampling profiler).

use glam::{Quat, Vec3};
use isect::math::Pose3;
use isect::query::contact::contact;
use isect::query::distance::distance;
use isect::shape::ConvexPolyhedron;

#[path = "../tests/support/rng.rs"]
mod rng;
use rng::Rng;

/// A unit vector: a sample of `[-1, 1)³` normalised (drawn again when zero).
fn unit(rng: &mut Rng) -> Vec3 {
    loop {
        let v = Vec3::new(
            rng.uniform(-1.0, 1.0),
            rng.uniform(-1.0, 1.0),
            rng.uniform(-1.0, 1.0),
        );
        if let Some(u) = v.try_normalize() {
            return u;
        }
    }
}

/// One pair: A's and B's poses and hull indices.
struct Case {
    pa: Pose3<f32>,
    pb: Pose3<f32>,
    a: usize,
    b: usize,
}

/// The hulls and the pose mix for `n` points per hull.
fn setup(n: usize) -> (Vec<ConvexPolyhedron<f32>>, Vec<Case>) {
    let mut rng = Rng(1000 + n as u64);
    let hulls: Vec<_> = (0..16)
        .map(|_| {
            let s = Vec3::new(
                rng.uniform(0.6, 1.0),
                rng.uniform(0.6, 1.0),
                rng.uniform(0.6, 1.0),
            );
            let pts: Vec<Vec3> = (0..n).map(|_| unit(&mut rng) * s).collect();
            ConvexPolyhedron::from_points(&pts).expect("hull")
        })
        .collect();
    let cases = (0..256)
        .map(|k| {
            let (a, b) = (rng.below(16), rng.below(16));
            let ra = Quat::from_axis_angle(unit(&mut rng), rng.uniform(-3.1, 3.1));
            let rb = Quat::from_axis_angle(unit(&mut rng), rng.uniform(-3.1, 3.1));
            let dir = unit(&mut rng);
            let pa = Pose3::new(Vec3::ZERO, ra);
            let target = match k % 4 {
                0 => rng.uniform(0.15, 0.6),
                1 => rng.uniform(0.01, 0.09),
                _ => 0.0,
            };
            // The largest offset along `dir` with distance ≤ target.
            let (mut lo, mut hi) = (0.0f32, 4.0f32);
            for _ in 0..40 {
                let mid = 0.5 * (lo + hi);
                let pb = Pose3::new(dir * mid, rb);
                if distance(&pa, &hulls[a], &pb, &hulls[b]) > target {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            let t = if k % 4 == 3 {
                lo - rng.uniform(0.05, 0.5)
            } else {
                lo
            };
            let pb = Pose3::new(dir * t, rb);
            Case { pa, pb, a, b }
        })
        .collect();
    (hulls, cases)
}

/// The measured kernel: `contact` on the cases of `class` (4: all); the count found.
#[inline(never)]
fn run_contacts(hulls: &[ConvexPolyhedron<f32>], cases: &[Case], class: usize) -> usize {
    cases
        .iter()
        .enumerate()
        .filter(|(k, _)| class == 4 || k % 4 == class)
        .filter(|(_, c)| contact(&c.pa, &hulls[c.a], &c.pb, &hulls[c.b], 0.1).is_some())
        .count()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let sizes = args
        .next()
        .map_or(vec![8, 32, 256], |s| vec![s.parse().expect("size")]);
    let class = args.next().map_or(4, |s| s.parse().expect("class 0..3"));
    // REPEAT=k runs the kernel k times (for sampling profilers).
    let repeat = std::env::var("REPEAT").map_or(1, |s| s.parse().expect("REPEAT"));
    for n in sizes {
        let (hulls, cases) = setup(n);
        let mut found = 0;
        for _ in 0..repeat {
            found = run_contacts(&hulls, &cases, class);
        }
        println!("n {n}: {found} contacts");
    }
}
