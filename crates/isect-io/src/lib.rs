//! File formats for the [`isect`] collision library.
//!
//! - [`mesh`]: OBJ, STL and glTF triangle meshes → [`TriMesh`](isect::shape::TriMesh)
//!   (features `obj`, `stl`, `gltf`);
//! - [`polygon`]: GeoJSON and WKT polygons and multipolygons →
//!   [`ConcavePolygon`](isect::shape::ConcavePolygon) with holes (features `geojson`,
//!   `wkt`), and conversions from and to `geo-types` (feature `geo`);
//! - [`scene`]: the JSON scene format of the `isect` command, whose shape entries may
//!   reference a mesh or polygon file (a path relative to the scene file).
//!
//! Every reader refuses bad input with an [`Error`] naming the file, the position in
//! it (line, feature, ring, vertex, facet, as the format has them) and a clear
//! message; none panics on a truncated or malformed file. Shapes are built through
//! the library's validating constructors, so a file never yields a broken shape.
//!
//! ```no_run
//! use isect::shape::TriMeshFlags;
//! use std::path::Path;
//! # fn main() -> Result<(), isect_io::Error> {
//! let bunny = isect_io::mesh::load_trimesh::<f32>(Path::new("bunny.obj"), TriMeshFlags::SOLID)?;
//! let lakes = isect_io::polygon::load_polygons::<f64>(Path::new("lakes.geojson"))?;
//! # Ok(())
//! # }
//! ```

pub mod error;
pub mod mesh;
pub mod polygon;
pub mod scene;

pub use error::{Error, Location};
