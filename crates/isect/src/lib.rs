//! # isect
//!
//! Collision detection for 2D and 3D, in `f32` and `f64`, from one source.
//!
//! Start with `use isect::d3::*;` (or `d2`, `d2_f64`, `d3_f64`): each prelude
//! names the shapes of its dimension and precision.
//!
//! ```
//! use isect::d2::*;
//! use isect::algo::sat_2d;
//!
//! let a = Obb::from_angle(Vec2::ZERO, Vec2::new(2.0, 1.0), 0.0)?;
//! let b = Obb::from_angle(Vec2::new(3.0, 0.0), Vec2::ONE, 0.0)?;
//! let mtv = sat_2d::obb_obb_mtv(&a, &b).expect("they touch");
//! assert_eq!((mtv.axis, mtv.depth), (Vec2::X, 0.0)); // touching counts
//! # Ok::<(), ShapeError>(())
//! ```
//!
//! ## Shapes × queries
//!
//! Every shape with a support map answers the generic convex queries
//! [`query::distance()`], [`query::closest_points()`], [`query::contact()`] (GJK, then EPA
//! when overlapping), [`query::cast_shapes()`] (linear motion) and
//! [`query::time_of_impact()`] (with rotation) against every other one, in 2D and 3D.
//! Specialised kernels exist where a benchmark shows they are faster.
//!
//! | shape | dim | `contains_point` | `cast_ray` | support map | specialised pair kernels |
//! |---|---|---|---|---|---|
//! | [`shape::Aabb`] | 2D, 3D | ✓ | ✓ slab | ✓ | AABB, ball, plane (static, moving) |
//! | [`shape::Ball`] | 2D, 3D | ✓ | ✓ | ✓ | ball (static, moving, contact), AABB, capsule |
//! | [`shape::Capsule`] | 2D, 3D | ✓ | – | ✓ | ball, capsule (distance, contact) |
//! | [`shape::Plane`], [`shape::HalfSpace`] | 2D, 3D | ✓ | ✓ | – | AABB, three planes |
//! | [`shape::Segment`] | 2D, 3D | – | ✓ (2D) | ✓ | AABB (seed 000), segment closest points, ball |
//! | [`shape::Triangle`] | 2D, 3D | – | ✓ (3D) | ✓ | ball (closest point, Ericson 5.1.5) |
//! | `Obb` ([`shape::obb_2d`], [`shape::obb_3d`]) | 2D, 3D | ✓ | ✓ | ✓ | OBB (SAT, MTV) |
//! | [`shape::ConvexPolygon`] | 2D | ✓ | ✓ | ✓ | polygon (SAT, MTV, distance), pipeline |
//! | [`shape::ConvexPolyhedron`] | 3D | ✓ | ✓ | ✓ | – |
//! | [`shape::Cylinder`], [`shape::Cone`] | 3D | – | – | ✓ | – |
//! | [`shape::Rounded`] | 2D, 3D | – | – | ✓ | – |
//! | [`shape::Sector`] | 2D | ✓ (three methods) | ✓ | – | – |
//!
//! The shape enums [`shape::shape_2d::Shape`] and [`shape::shape_3d::Shape`] answer every
//! query for every pair of kinds through [`query::dispatch`] (one exhaustive `match` a
//! query); [`query::manifold`] gives contact manifolds of up to 2 (2D) or 4 (3D) points
//! with stable feature ids.
//!
//! ### Composite (non-convex) shapes
//!
//! | shape | dim | inside test | `cast_ray`, `cast_ray_all` | parts | internal edges |
//! |---|---|---|---|---|---|
//! | [`shape::ConcavePolygon`] (holes allowed) | 2D | ✓ exact | ✓ | convex pieces (ear clipping + Hertel–Mehlhorn) | ✓ |
//! | [`shape::Polyline`] | 2D | – | ✓ | segments | ✓ |
//! | `HeightField` ([`shape::heightfield_2d`], [`shape::heightfield_3d`]) | 2D, 3D | – | ✓ grid walk (3D) | segments / triangles | ✓ |
//! | [`shape::TriMesh`] (open or solid) | 3D | ✓ solid meshes | ✓ watertight; also any hit and batches (`cast_ray_any`, `cast_rays`) | triangles | ✓ |
//! | [`shape::Compound`] | 2D, 3D | ✓ | ✓ | convex shapes with poses | – |
//!
//! Every composite implements [`shape::Composite`] (a BVH over its parts) and
//! [`query::ProjectPoint`]; [`query::composite`] answers `intersects`, `contact`,
//! `contact_manifolds`, `distance`, `closest_points` and `cast_shapes` between a
//! composite and a convex shape and between two composites, part by part through the
//! convex dispatch, with internal-edge normal correction. The enums
//! `shape_2d::AnyShape` / `shape_3d::AnyShape` mix convex and composite kinds; they
//! answer every query for every pair of kinds, so a [`world::World`] can hold both.
//!
//! Broad phase ([`broad`]): a dynamic AABB tree, a 4-wide binned-SAH BVH with refit and
//! batch ray casts, and sweep-and-prune, each with a validator. [`world`] puts shapes,
//! poses and filters behind handles and runs broad and narrow phase and scene queries.
//!
//! ## Modules
//! - [`math`]: the scalar and vector traits, rotations, poses, tolerances.
//! - [`shape`]: one file a shape; [`ShapeError`] is every constructor's error.
//! - [`algo`]: the named algorithms (slab, SAT, clipping, hulls, support maps, GJK, EPA).
//! - [`query`]: one module a query verb, and the seed kernels.
//! - [`broad`]: broad-phase structures.
//! - [`world`]: the collision world.
//! - [`character`]: a kinematic character controller (move and slide, slopes, steps,
//!   snapping, platforms) on the world's shape casts.
#![warn(missing_docs)]

pub mod algo;
pub mod broad;
pub mod character;
mod hint;
pub mod math;
mod prelude;
pub mod query;
#[cfg(feature = "serde")]
pub mod serial;
pub mod shape;
pub mod world;

/// The tests' seeded generator, shared with the integration tests.
#[cfg(test)]
#[path = "../tests/support/rng.rs"]
mod test_rng;

pub use prelude::{d2, d2_f64, d3, d3_f64};
pub use shape::ShapeError;

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
