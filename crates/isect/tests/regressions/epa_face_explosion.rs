//! Found by the `cast` fuzz target (a libFuzzer timeout, 3D f64): a point at the
//! centre of a rotated cylinder 1.9e-6 across made EPA's polytope grow without
//! bound within its 64 iterations (faces whose normal could not be computed were
//! skipped, leaving holes, so the horizon stopped closing and each expansion
//! multiplied the faces): one `contact` ran for 12 s in release, 18 s in the test profile. Fixed by the named cap
//! `EPA_MAX_FACES` (then the best bound so far is returned with `MaxIterations`).

use isect::d3_f64::{DQuat, DVec3};
use isect::math::Pose3;
use isect::query::dispatch;
use isect::shape::shape_3d::Shape;
use isect::shape::{Ball, Cylinder};
use std::sync::mpsc;
use std::time::Duration;

/// The queries must return; wait at most this long for them.
const WATCHDOG_SECONDS: u64 = 5;

#[test]
fn point_in_tiny_cylinder_returns() {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let point: Shape<f64> = Ball::new(DVec3::ZERO, 0.0).expect("finite").into();
        let h = 1.8823529411764707e-6;
        let cyl: Shape<f64> = Cylinder::new(h, h).expect("finite").into();
        let q = DQuat::from_xyzw(-0.9839859468739369, -0.0, -0.0, -0.17824605564949209);
        let (pa, pb) = (
            Pose3::new(DVec3::ZERO, DQuat::IDENTITY),
            Pose3::new(DVec3::ZERO, q),
        );
        let hit = dispatch::cast_shapes(
            &pa,
            DVec3::ZERO,
            &point,
            &pb,
            DVec3::ZERO,
            &cyl,
            f64::INFINITY,
        );
        let c = dispatch::contact(&pb, &cyl, &pa, &point, 0.0);
        let _ = tx.send((hit.map(|h| h.time), c.map(|c| c.depth)));
    });
    let answer = rx.recv_timeout(Duration::from_secs(WATCHDOG_SECONDS));
    let Ok((time, depth)) = answer else {
        panic!("cast / contact did not return within {WATCHDOG_SECONDS} s");
    };
    // The point is inside: overlap at time 0, a contact of depth at most the radius.
    assert_eq!(time, Some(0.0));
    assert!(
        depth.is_some_and(|d| (0.0..=1.9e-6).contains(&d)),
        "depth {depth:?}"
    );
}
