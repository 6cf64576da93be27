//! Found by the manifold sweep (case seed 0x83bc96d3f2c608da, 3D f32): EPA's blow-up
//! of a flat simplex recursed forever between `add_off_plane` and `add_off_line`
//! when the cross product of the simplex's edges overflowed (a triangle vertex at
//! 1.5e37, a cone of radius 1.5e12): the "collinear, retry as a segment" branch never
//! found a normal. Fixed by retrying once, then answering `Degenerate`.

use isect::d3::{Quat, Vec3};
use isect::math::Pose3;
use isect::query;
use isect::shape::shape_3d::Shape;
use isect::shape::{Cone, Triangle};
use std::sync::mpsc;
use std::time::Duration;

/// The query must return (its answer is unspecified for such magnitudes, but finite
/// time is not): run it on a thread and wait at most this long.
const WATCHDOG_SECONDS: u64 = 20;

#[test]
fn contact_with_overflowing_simplex_returns() {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let (a, b, c) = (
            Vec3::new(4.0, -2099.1248, -1.4550878e37),
            Vec3::new(-1e-40, 991.71063, -0.14642262),
            Vec3::new(0.00080064207, 0.0, 1.918909e-6),
        );
        // The constructors now refuse these magnitudes (`Real::MAX_COORD`); the
        // triangle's public fields still let a caller build it, so the query must
        // still return. The cone gets the largest accepted radius.
        let tri = Triangle { a, b, c };
        let cone = Cone::new(1.0, <f32 as isect::math::Real>::MAX_COORD).expect("at the limit");
        let (a, b): (Shape<f32>, Shape<f32>) = (tri.into(), cone.into());
        let pa = Pose3::new(
            Vec3::new(1.9103795e-6, 0.72916377, -0.0009270502),
            Quat::from_xyzw(6.7141295e-18, -5.664279e-11, 0.9779623, 0.20878156),
        );
        let pb = Pose3::new(
            Vec3::new(3.489699e-5, -9.478057e-5, 0.0),
            Quat::from_xyzw(-0.34373912, 0.93359876, -0.0, 0.101176724),
        );
        let m = query::contact_manifold_convex(&pa, &a, &pb, &b, f32::INFINITY);
        let c = query::contact(&pb, &b, &pa, &a, f32::INFINITY);
        let _ = tx.send((m.is_some(), c.is_some()));
    });
    let answered = rx.recv_timeout(Duration::from_secs(WATCHDOG_SECONDS));
    assert!(
        answered.is_ok(),
        "contact did not return within {WATCHDOG_SECONDS} s"
    );
}
