//! Math foundation: the [`Real`] scalar, the [`Vector`] trait over glam's four
//! vector types, rotations, poses and tolerances.

pub mod exact;
mod pose;
mod real;
mod rotation;
pub mod tolerance;
mod vector;

pub use pose::{Isometry, Pose2, Pose3};
pub use real::{within_query_reach, Real, QUERY_REACH};
pub use rotation::{Rot2, Rotation3, RotationError, ROTATION_KEEP_ULPS, ROTATION_UNIT_ULPS};
pub use vector::{Vector, Vector2, Vector3};

/// The scalar type of a vector type `V`.
pub type Scalar<V> = <V as Vector>::Scalar;
