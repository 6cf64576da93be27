//! # isect
//!
//! Collision detection for 2D and 3D, in `f32` and `f64`, from one source.
//!
//! Start with `use isect::d3::*;` (or `d2`, `d2_f64`, `d3_f64`): each prelude
//! names the shapes of its dimension and precision.
#![warn(missing_docs)]

pub mod math;
pub mod shape;

pub use shape::ShapeError;
mod prelude;

pub use prelude::{d2, d2_f64, d3, d3_f64};
pub mod algo;
pub mod broad;
pub mod query;
pub mod world;
