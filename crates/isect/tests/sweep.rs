//! The fuzz targets' drivers (`tests/support/fuzz_drivers.rs`, shared with `fuzz/`) run
//! on seeded random words: a bounded number of cases per query family, so every
//! change is checked against the same contracts the fuzzer checks (no panic, no hang,
//! finite or documented answers). A failing case prints its seed; rerun it with
//! `SWEEP_SEED=<seed> cargo test --test integration sweep::`; replay a fuzz artifact
//! with `SWEEP_ARTIFACT=<path> cargo test --test integration sweep::sweep_<family>`.
//!
//! A soak run (RELIABILITY.md) takes more cases, beyond the regular ones:
//! `SWEEP_CASES=10000000 SWEEP_FIRST=20000 cargo test --release --test integration sweep::`.
//!
//! Hangs: each family runs on a worker thread watched by the test thread; a case that
//! makes no progress for [`HANG_SECONDS`] fails the test with its seed. This bound is a
//! watchdog against an endless loop, not a speed claim.

#[path = "support/fuzz_drivers.rs"]
mod fuzz_drivers;
#[path = "support/rng.rs"]
mod rng;

use fuzz_drivers::{drive, reached_count, ByteSource, Source, Target};
use rng::Rng;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// Cases per family in the regular test run.
const CASES: u64 = 20000;
/// Cases of the `World<V, AnyShape>` family: each runs up to a dozen world
/// operations over composites and brute-force scans, about 8 times a pair case.
const WORLD_ANY_CASES: u64 = 8000;
/// Cases of the world distance family: each builds a world of up to 30 shapes and
/// checks up to eighteen queries against brute force over every shape.
const WORLD_DISTANCE_CASES: u64 = 2000;
/// At least this fraction of the cases must reach their query (the rest are refused
/// by a constructor, which is checked too): the sweep must test the queries.
const MIN_REACHED: f64 = 0.2;
/// The composite family needs two accepted composites, each built from many random
/// values that are refused when one is non-finite: a lower floor (about 18 % reach).
const MIN_REACHED_COMPOSITE: f64 = 0.15;
/// A run stops after this many failing cases and lists their seeds.
const MAX_FAILURES: usize = 10;
/// A case silent for this long is a hang.
const HANG_SECONDS: u64 = 20;

impl Source for Rng {
    fn next_u64(&mut self) -> u64 {
        Rng::next_u64(self)
    }
}

/// The seed of case `i` of `target`.
fn seed(target: Target, i: u64) -> u64 {
    (target as u64) << 48 ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The first case and the number of cases of `target`: `CASES` from 0, or
/// `SWEEP_CASES` from `SWEEP_FIRST` for a soak run.
fn case_range(target: Target) -> (u64, u64) {
    let env = |name: &str| {
        let v = std::env::var(name).ok()?;
        Some(
            v.parse::<u64>()
                .unwrap_or_else(|_| panic!("{name}={v} is not a count")),
        )
    };
    let regular = match target {
        Target::WorldAny => WORLD_ANY_CASES,
        Target::WorldDistance => WORLD_DISTANCE_CASES,
        _ => CASES,
    };
    (
        env("SWEEP_FIRST").unwrap_or(0),
        env("SWEEP_CASES").unwrap_or(regular),
    )
}

/// Runs `CASES` cases of `target` (or the one of `SWEEP_SEED`) on a worker thread;
/// fails with the seeds of the cases that panic (up to [`MAX_FAILURES`]) or hang.
fn sweep(target: Target) {
    if let Ok(path) = std::env::var("SWEEP_ARTIFACT") {
        let bytes = std::fs::read(&path).expect("a readable fuzz artifact");
        drive(target, &mut ByteSource::new(&bytes));
        return;
    }
    let seeds: Box<dyn Iterator<Item = u64> + Send> = match std::env::var("SWEEP_SEED") {
        Ok(s) => {
            let s = u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex seed");
            Box::new(std::iter::once(s))
        }
        Err(_) => {
            let (first, n) = case_range(target);
            Box::new((first..first + n).map(move |i| seed(target, i)))
        }
    };
    let start = std::time::Instant::now();
    let current = Arc::new(AtomicU64::new(0));
    let (tx, rx) = mpsc::channel::<()>();
    let worker_seed = Arc::clone(&current);
    let worker = std::thread::spawn(move || {
        let (mut n, mut failed) = (0u64, Vec::new());
        for s in seeds {
            worker_seed.store(s, Ordering::SeqCst);
            n += 1;
            let ok = std::panic::catch_unwind(|| drive(target, &mut Rng(s))).is_ok();
            let _ = tx.send(());
            if !ok {
                failed.push(s);
                if failed.len() == MAX_FAILURES {
                    break;
                }
            }
        }
        (n, reached_count(), failed)
    });
    loop {
        match rx.recv_timeout(Duration::from_secs(HANG_SECONDS)) {
            Ok(()) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let s = current.load(Ordering::SeqCst);
                panic!("{target:?}: case seed {s:#x} hangs (> {HANG_SECONDS} s)");
            }
        }
    }
    let (n, reached, failed) = worker.join().expect("the worker counts its cases");
    assert!(
        failed.is_empty(),
        "{target:?}: {} case(s) panicked (seeds {failed:#x?})",
        failed.len()
    );
    let secs = start.elapsed().as_secs_f64();
    println!("{target:?}: {n} cases, {reached} reached the query, {secs:.1} s");
    let floor = if target == Target::Composite {
        MIN_REACHED_COMPOSITE
    } else {
        MIN_REACHED
    };
    let enough = reached as f64 >= floor * n as f64;
    assert!(
        n == 1 || enough,
        "{target:?}: only {reached} of {n} cases reached the query"
    );
}

#[test]
fn sweep_constructors() {
    sweep(Target::Constructors);
}

#[test]
fn sweep_ray() {
    sweep(Target::Ray);
}

#[test]
fn sweep_pair() {
    sweep(Target::Pair);
}

#[test]
fn sweep_cast() {
    sweep(Target::Cast);
}

#[test]
fn sweep_manifold() {
    sweep(Target::Manifold);
}

#[test]
fn sweep_hull() {
    sweep(Target::Hull);
}

#[test]
fn sweep_broad() {
    sweep(Target::Broad);
}

#[test]
fn sweep_world() {
    sweep(Target::World);
}

#[test]
fn sweep_composite() {
    sweep(Target::Composite);
}

#[test]
fn sweep_decomposition() {
    sweep(Target::Decomposition);
}

#[test]
fn sweep_composite_queries() {
    sweep(Target::CompositeQueries);
}

#[test]
fn sweep_world_any() {
    sweep(Target::WorldAny);
}

#[test]
fn sweep_world_distance() {
    sweep(Target::WorldDistance);
}
