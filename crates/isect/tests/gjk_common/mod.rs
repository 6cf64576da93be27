//! Shared helpers of the `gjk_*` tests: a seeded PRNG, random vectors and poses
//! for each of the four vector types, and brute-force references.
#![allow(dead_code)]

use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose2, Pose3, Real, Vector};

#[path = "../support/rng.rs"]
mod rng;
pub use rng::Rng;

/// Random test inputs for one vector type.
pub trait TestVector: GjkVector {
    /// A random rotation (any angle) with translation `t`.
    fn random_pose(rng: &mut Rng, t: Self) -> Self::Pose;
    /// A random rotation with a translation uniform in `[-half, half]^DIM`.
    fn pose_in(rng: &mut Rng, half: f64) -> Self::Pose {
        let t = rand_vec(rng, half);
        Self::random_pose(rng, t)
    }
    /// The same rotation and translation as f64 components (angle in 2D, quaternion xyzw in 3D).
    fn pose_parts(pose: &Self::Pose) -> (Vec<f64>, Vec<f64>);
}

pub fn rand_vec<V: Vector>(rng: &mut Rng, half: f64) -> V {
    (0..V::DIM).fold(V::ZERO, |v, i| {
        v.with(i, V::Scalar::from_f64(rng.range(-half, half)))
    })
}

pub fn r<V: Vector>(x: f64) -> V::Scalar {
    V::Scalar::from_f64(x)
}

pub fn f<R: Real>(x: R) -> f64 {
    x.to_f64()
}

macro_rules! impl_test_vector_2d {
    ($v:ty, $r:ty) => {
        impl TestVector for $v {
            fn random_pose(rng: &mut Rng, t: Self) -> Self::Pose {
                Pose2::new(t, rng.range(-3.2, 3.2) as $r)
            }
            fn pose_parts(pose: &Self::Pose) -> (Vec<f64>, Vec<f64>) {
                let tr = pose.translation();
                (
                    vec![pose.rotation.angle() as f64],
                    vec![tr.x as f64, tr.y as f64],
                )
            }
        }
    };
}

macro_rules! impl_test_vector_3d {
    ($v:ty, $r:ty, $q:ty) => {
        impl TestVector for $v {
            fn random_pose(rng: &mut Rng, t: Self) -> Self::Pose {
                let axis = loop {
                    let a: Self = rand_vec(rng, 1.0);
                    if let Some(u) = a.try_normalize() {
                        break u;
                    }
                };
                Pose3::new(t, <$q>::from_axis_angle(axis, rng.range(-3.2, 3.2) as $r))
            }
            fn pose_parts(pose: &Self::Pose) -> (Vec<f64>, Vec<f64>) {
                let q = pose.rotation;
                let tr = pose.translation();
                (
                    vec![q.x as f64, q.y as f64, q.z as f64, q.w as f64],
                    vec![tr.x as f64, tr.y as f64, tr.z as f64],
                )
            }
        }
    };
}

impl_test_vector_2d!(glam::Vec2, f32);
impl_test_vector_2d!(glam::DVec2, f64);
impl_test_vector_3d!(glam::Vec3, f32, glam::Quat);
impl_test_vector_3d!(glam::DVec3, f64, glam::DQuat);

/// Asserts that the fraction of hits is in `[0.3, 0.7]`, so the random cases test
/// both answers.
pub fn assert_hit_rate(hits: usize, total: usize, what: &str) {
    let rate = hits as f64 / total as f64;
    assert!(
        (0.3..=0.7).contains(&rate),
        "{what}: hit rate {rate} outside [0.3, 0.7]"
    );
}

/// Relative tolerance of a comparison in the precision of `V`: loose for f32.
pub fn tol<V: Vector>() -> f64 {
    if V::Scalar::EPSILON.to_f64() > 1e-10 {
        2e-3
    } else {
        1e-8
    }
}
