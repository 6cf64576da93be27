//! Random 3D directions and poses, and a shape's extent along a direction, in any
//! precision: the helpers of the curved-kernel tests (`ball_curved.rs`,
//! `capsule_cylinder.rs`).
#![allow(dead_code)]

use super::rng::Rng;
use isect::algo::support::SupportMap;
use isect::math::{Isometry, Pose3, Real, Rotation3, Vector, Vector3};

/// The vector `(x, y, z)` in `R`.
pub fn v3<R: Real>(x: f64, y: f64, z: f64) -> R::V3 {
    R::V3::new(R::from_f64(x), R::from_f64(y), R::from_f64(z))
}

/// A random unit vector (rejection from the cube).
pub fn unit3<R: Real>(rng: &mut Rng) -> R::V3 {
    loop {
        let u = v3::<R>(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        );
        if let Some(u) = u.try_normalize() {
            return u;
        }
    }
}

/// A random pose: translation within `reach` on each axis, any rotation.
pub fn pose3<R: Real>(rng: &mut Rng, reach: f64) -> Pose3<R> {
    let t = v3::<R>(
        rng.range(-reach, reach),
        rng.range(-reach, reach),
        rng.range(-reach, reach),
    );
    let axis = unit3::<R>(rng);
    let angle = R::from_f64(rng.range(-3.1, 3.1));
    Pose3::new(t, R::Quat::from_axis_angle(axis, angle))
}

/// `max n·x` over `shape` placed at `pose`.
pub fn support_along<R: Real, S: SupportMap<R::V3>>(shape: &S, pose: &Pose3<R>, n: R::V3) -> f64 {
    let local = shape.local_support(pose.inverse_transform_vector(n));
    n.dot(pose.transform_point(local)).to_f64()
}
