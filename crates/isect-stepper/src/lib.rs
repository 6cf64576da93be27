//! A small rigid-body stepper that judges isect's contact manifolds as a user would:
//! by stacking things on them. Used by this crate's tests and by the `isect stack`
//! pictures; not library API (`publish = false`).
//!
//! Rigid bodies ([`Body`]: a shape of isect's `AnyShape`, a pose, linear and angular
//! velocity, mass and inertia from [`mass`]) in 3D ([`D3`]) and 2D ([`D2`]), in
//! `f64`.

#![warn(missing_docs)]

pub mod body;
pub mod dim;
pub mod mass;

pub use body::{Body, UnsupportedShape};
pub use dim::{Dim, D2, D3};
