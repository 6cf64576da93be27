//! Queries, one module a verb. Each verb is a trait implemented per shape (single-shape
//! queries) or a set of pair kernels.

pub mod ball_tests;
pub mod cast_ray;
pub mod cast_shapes;
pub mod contact;
pub mod dispatch;
pub mod distance;
pub mod pipeline;
pub mod plane_tests;
pub mod polyhedron_tests;
pub mod sector_tests;

pub use cast_ray::{HalfSpace, RayCast};
pub use cast_shapes::{cast_shapes, time_of_impact, ShapeCastHit, Sweep};
pub use contact::{contact, Contact};
pub use distance::{closest_points, distance, ClosestPoints};
