//! Queries, one module a verb. Each verb is a trait implemented per shape (single-shape
//! queries) or a set of pair kernels.

pub mod cast_ray;
pub mod pipeline;

pub use cast_ray::RayCast;
