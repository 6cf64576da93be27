//! Queries, one module a verb. Each verb is a trait implemented per shape (single-shape
//! queries) or a set of pair kernels.

pub mod ball_tests;
pub mod box_box;
pub mod box_box_2d;
pub mod capsule_box;
pub mod capsule_cylinder;
pub mod capsule_triangle;
pub mod cast_options;
pub mod cast_ray;
pub mod cast_shapes;
pub mod composite;
pub mod contact;
pub mod dispatch;
pub mod distance;
pub mod manifold;
pub mod pipeline;
pub mod plane_tests;
pub mod polyhedron_tests;
pub mod project_convex;
pub mod project_point;
pub mod project_polytope;
pub mod sector_tests;

pub use cast_options::{cast_shapes_with, time_of_impact_with, ShapeCastOptions};
pub use cast_ray::RayCast;
pub use cast_shapes::{cast_shapes, time_of_impact, ShapeCastHit, Sweep};
pub use contact::{contact, Contact};
pub use distance::{closest_points, distance, ClosestPoints};
pub use manifold::{
    contact_manifold_convex, contact_manifold_obb_2d, contact_manifold_obb_3d,
    contact_manifold_obb_polygon, contact_manifold_polygons, contact_manifold_polyhedra,
    merge_manifolds, merge_manifolds_by_normal, FeatureId, Manifold, ManifoldPoint,
};
pub use project_point::{PointProjection, ProjectPoint};
