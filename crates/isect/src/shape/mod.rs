//! Shapes, one file each. Dimension-independent shapes are generic over the vector
//! type `V`; 2D-only and 3D-only shapes live in `_2d` / `_3d` files and are generic
//! over the scalar `R`. Every constructor validates and returns `Result<_, ShapeError>`.

mod aabb;
mod ball;
pub mod convex_polygon;
mod convex_polyhedron;
pub mod error;
pub mod obb_2d;
pub mod obb_3d;
mod plane;
mod ray;
mod sector;
mod triangle;

pub use aabb::Aabb;
pub use ball::Ball;
pub use convex_polygon::ConvexPolygon;
pub use convex_polyhedron::{ConvexPolyhedron, PolyhedronFace, POLYHEDRON_PLANE_ULPS};
pub use error::ShapeError;
pub use plane::Plane;
pub use ray::{Ray, RayHit, Segment};
pub use sector::Sector;
pub use triangle::Triangle;
