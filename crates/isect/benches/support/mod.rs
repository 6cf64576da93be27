//! What the benchmarks share: the seeded generator with its vector and rotation
//! draws, the cycling of the cases (one per iteration), conversions to parry's types,
//! and the thread-CPU-time measurement. Each bench includes it with `mod support;` and
//! uses a part of it.
#![allow(dead_code)]

use std::hint::black_box;

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use glam::{Quat, Vec3};
use isect::math::Pose3;
use isect::shape::heightfield_3d::HeightField;
use isect::shape::{Aabb, Ray};

#[path = "../../tests/support/rng.rs"]
mod rng;
pub use rng::Rng;

/// Seeded cases per benchmark, cycled through one per iteration. A power of two: the
/// cycle wraps with a mask, not a division, so that the loop costs the same everywhere.
pub const CASES: usize = 8192;

impl Rng {
    /// Each coordinate uniform in `[lo, hi)`, drawn in the order x, y, z.
    pub fn vec3(&mut self, lo: f32, hi: f32) -> Vec3 {
        Vec3::new(
            self.uniform(lo, hi),
            self.uniform(lo, hi),
            self.uniform(lo, hi),
        )
    }

    /// A unit vector: a sample of `[-1, 1)³` normalised, drawn again only when zero
    /// (directions lean toward the cube's corners; the cases are seeded, not uniform).
    pub fn unit_vec3(&mut self) -> Vec3 {
        loop {
            if let Some(u) = self.vec3(-1.0, 1.0).try_normalize() {
                return u;
            }
        }
    }

    /// A turn by an angle of `[-3.1, 3.1)` about a `unit_vec3` axis.
    pub fn rotation(&mut self) -> Quat {
        let axis = self.unit_vec3();
        Quat::from_axis_angle(axis, self.uniform(-3.1, 3.1))
    }

    /// A turn by an angle of `[0, 6.3)` about a sample of `[-1, 1)³` normalised (about
    /// z when the sample is zero).
    pub fn turn(&mut self) -> Quat {
        let axis = self.vec3(-1.0, 1.0).try_normalize().unwrap_or(Vec3::Z);
        Quat::from_axis_angle(axis, self.uniform(0.0, 6.3))
    }

    /// The poses of shapes A and B, ours and parry's: A turned and within 0.1 of the
    /// origin, B turned and `offset` away from A.
    pub fn pose_pair(&mut self, offset: f32) -> PosePair {
        let (ra, rb) = (self.rotation(), self.rotation());
        let ta = self.unit_vec3() * 0.1;
        let tb = ta + self.unit_vec3() * offset;
        (
            (Pose3::new(ta, ra), Pose3::new(tb, rb)),
            (
                parry3d::math::Pose::from_parts(ta, ra),
                parry3d::math::Pose::from_parts(tb, rb),
            ),
        )
    }
}

/// Poses of A and B: ours, then parry's.
pub type PosePair = (
    (Pose3<f32>, Pose3<f32>),
    (parry3d::math::Pose, parry3d::math::Pose),
);

/// A closure that runs `f` on the next case at each call, wrapping after the last
/// (`cases` holds `CASES` of them).
pub fn cycled<'a, T, R>(cases: &'a [T], mut f: impl FnMut(&T) -> R + 'a) -> impl FnMut() -> R + 'a {
    let mut i = 0;
    move || {
        i = (i + 1) & (CASES - 1);
        f(black_box(&cases[i]))
    }
}

/// Benchmarks `f` over the cases in a cycle, one case per iteration, under the id
/// `name/answer` (`answer`: what it computes, so that the table pairs like with like).
pub fn cycle<M: Measurement, T, R>(
    g: &mut BenchmarkGroup<'_, M>,
    name: &str,
    answer: &str,
    cases: &[T],
    mut f: impl FnMut(&T) -> R,
) {
    g.bench_function(BenchmarkId::new(name, answer), |b| {
        b.iter(cycled(cases, &mut f))
    });
}

/// `cycle` under the plain id `name`.
pub fn cycle_named<M: Measurement, T, R>(
    g: &mut BenchmarkGroup<'_, M>,
    name: &str,
    cases: &[T],
    mut f: impl FnMut(&T) -> R,
) {
    g.bench_function(name, |b| b.iter(cycled(cases, &mut f)));
}

/// Our ray as parry's.
#[inline]
pub fn parry_ray(r: &Ray<Vec3>) -> parry3d::query::Ray {
    parry3d::query::Ray::new(r.origin, r.dir)
}

/// Our box as parry's.
#[inline]
pub fn parry_aabb(b: &Aabb<Vec3>) -> parry3d::bounding_volume::Aabb {
    parry3d::bounding_volume::Aabb::new(b.min, b.max)
}

/// A 256 × 256 terrain 10 units across (130,050 triangles): gentle waves plus seeded
/// noise of ±0.01, ours and parry's.
pub fn terrain(rng: &mut Rng) -> (HeightField<f32>, parry3d::shape::HeightField) {
    let n = 256;
    let heights: Vec<f32> = (0..n * n)
        .map(|k| {
            let (i, j) = ((k / n) as f32, (k % n) as f32);
            0.05 * (0.1 * i).sin() * (0.13 * j).cos() + rng.uniform(-0.01, 0.01)
        })
        .collect();
    // Parry reads the heights column-major.
    let column_major = (0..n * n).map(|k| heights[(k % n) * n + k / n]).collect();
    let scale = Vec3::new(10.0, 10.0, 10.0);
    let ours = HeightField::new(heights, n, n, scale).unwrap();
    let theirs =
        parry3d::shape::HeightField::new(parry3d::utils::Array2::new(n, n, column_major), scale);
    (ours, theirs)
}

/// Criterion measuring the thread's CPU time: the benchmark machines are shared by
/// several jobs, and wall time there mostly measures the other tenants.
pub fn cpu_time_config() -> Criterion<CpuTime> {
    Criterion::default().with_measurement(CpuTime)
}

/// Thread CPU time in nanoseconds, as a criterion measurement.
pub struct CpuTime;

/// `clock_gettime(CLOCK_THREAD_CPUTIME_ID)` on Linux (nanosecond resolution; the
/// `/proc` counters only move at scheduler ticks), wall time elsewhere.
#[cfg(target_os = "linux")]
pub fn cpu_nanos() -> u64 {
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut ts = Timespec { sec: 0, nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; libc is linked by std on Linux.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime failed");
    ts.sec as u64 * 1_000_000_000 + ts.nsec as u64
}

#[cfg(not(target_os = "linux"))]
pub fn cpu_nanos() -> u64 {
    use std::sync::OnceLock;
    static START: OnceLock<std::time::Instant> = OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_nanos() as u64
}

impl Measurement for CpuTime {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        cpu_nanos()
    }
    fn end(&self, start: u64) -> u64 {
        cpu_nanos().saturating_sub(start)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &NanosFormatter
    }
}

struct NanosFormatter;

impl ValueFormatter for NanosFormatter {
    fn scale_values(&self, ns: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = match ns {
            x if x < 1e3 => (1.0, "ns"),
            x if x < 1e6 => (1e-3, "µs"),
            x if x < 1e9 => (1e-6, "ms"),
            _ => (1e-9, "s"),
        };
        values.iter_mut().for_each(|v| *v *= factor);
        unit
    }
    fn scale_throughputs(&self, _: f64, _: &Throughput, _: &mut [f64]) -> &'static str {
        "ns"
    }
    fn scale_for_machines(&self, _: &mut [f64]) -> &'static str {
        "ns"
    }
}
