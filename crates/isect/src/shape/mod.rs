//! Shapes, one file each. Dimension-independent shapes are generic over the vector
//! type `V`; 2D-only and 3D-only shapes live in `_2d` / `_3d` files and are generic
//! over the scalar `R`. Every constructor validates and returns `Result<_, ShapeError>`.

mod aabb;
mod any_shape;
mod any_shape_2d;
mod any_shape_3d;
mod ball;
mod capsule;
pub mod composite;
mod compound;
pub mod concave_polygon;
mod cone_3d;
pub mod convex_polygon;
mod convex_polyhedron;
mod cylinder_3d;
pub mod error;
mod half_space;
pub mod heightfield_2d;
pub mod heightfield_3d;
pub mod obb_2d;
pub mod obb_3d;
mod plane;
pub mod polyline;
mod ray;
mod rounded;
mod sector;
pub mod shape_2d;
pub mod shape_3d;
pub(crate) mod shape_common;
mod triangle;
pub mod trimesh;

pub use aabb::Aabb;
pub use ball::Ball;
pub use capsule::Capsule;
pub use composite::Composite;
pub use compound::{Compound, SCAN_PARTS};
pub use concave_polygon::ConcavePolygon;
pub use cone_3d::Cone;
pub use convex_polygon::ConvexPolygon;
pub use convex_polyhedron::{
    ConvexPolyhedron, EdgeGraphView, PolyhedronEdge, PolyhedronFace, VertexArc,
    POLYHEDRON_PLANE_ULPS,
};
pub use cylinder_3d::Cylinder;
pub use error::ShapeError;
pub use half_space::HalfSpace;
pub use plane::Plane;
pub use polyline::Polyline;
pub use ray::{Ray, RayHit, Segment};
pub use rounded::Rounded;
pub use sector::Sector;
pub use triangle::Triangle;
pub use trimesh::{TriMesh, TriMeshFlags};
