//! The four preludes `d2`, `d3`, `d2_f64`, `d3_f64`: type aliases that fix the
//! dimension and precision, so a user writes `use isect::d3::*;`.

/// Aliases shared by every dimension.
macro_rules! common_aliases {
    ($v:ty, $r:ty) => {
        /// The scalar of this prelude.
        pub type Real = $r;
        /// The vector of this prelude.
        pub type Vector = $v;
        /// Rigid transform of this dimension.
        pub type Pose = <$v as $crate::math::Vector>::Pose;
        /// See [`crate::shape::Aabb`].
        pub type Aabb = $crate::shape::Aabb<$v>;
        /// See [`crate::shape::Ball`].
        pub type Ball = $crate::shape::Ball<$v>;
        /// See [`crate::shape::HalfSpace`].
        pub type HalfSpace = $crate::shape::HalfSpace<$v>;
        /// See [`crate::shape::Capsule`].
        pub type Capsule = $crate::shape::Capsule<$v>;
        /// See [`crate::query::Contact`].
        pub type Contact = $crate::query::Contact<$v>;
        /// See [`crate::query::Manifold`].
        pub type Manifold = $crate::query::Manifold<$v>;
        /// See [`crate::shape::Plane`].
        pub type Plane = $crate::shape::Plane<$v>;
        /// See [`crate::shape::Ray`].
        pub type Ray = $crate::shape::Ray<$v>;
        /// See [`crate::shape::RayHit`].
        pub type RayHit = $crate::shape::RayHit<$v>;
        /// See [`crate::shape::Segment`].
        pub type Segment = $crate::shape::Segment<$v>;
        /// See [`crate::shape::Triangle`].
        pub type Triangle = $crate::shape::Triangle<$v>;
        /// See [`crate::broad::DynamicTree`].
        pub type DynamicTree = $crate::broad::DynamicTree<$v>;
        /// See [`crate::broad::Bvh`].
        pub type Bvh = $crate::broad::Bvh<$v>;
        /// See [`crate::broad::SweepAndPrune`].
        pub type SweepAndPrune = $crate::broad::SweepAndPrune<$v>;
        /// See [`crate::world::WorldDistance`].
        pub type WorldDistance = $crate::world::WorldDistance<$v>;
        /// See [`crate::world::ConfigurationCheck`].
        pub type ConfigurationCheck = $crate::world::ConfigurationCheck<$v>;
        pub use $crate::math::{Isometry, Real as _, Vector as _};
        pub use $crate::query::{ProjectPoint, RayCast};
        pub use $crate::shape::Composite;
        pub use $crate::shape::ShapeError;
        pub use $crate::world::{Filter, Handle, Motion, QueryFilter, WorldError};
    };
}

/// Aliases of 2D-only shapes.
macro_rules! aliases_2d {
    ($r:ty) => {
        common_aliases!(<$r as $crate::math::Real>::V2, $r);
        /// See [`crate::shape::Sector`].
        pub type Sector = $crate::shape::Sector<$r>;
        /// See [`crate::shape::obb_2d::Obb`].
        pub type Obb = $crate::shape::obb_2d::Obb<$r>;
        /// See [`crate::shape::ConvexPolygon`].
        pub type ConvexPolygon = $crate::shape::ConvexPolygon<$r>;
        /// See [`crate::shape::shape_2d::Shape`].
        pub type Shape = $crate::shape::shape_2d::Shape<$r>;
        /// See [`crate::shape::shape_2d::AnyShape`]: convex or composite.
        pub type AnyShape = $crate::shape::shape_2d::AnyShape<$r>;
        /// See [`crate::shape::Compound`]: convex 2D parts with poses.
        pub type Compound = $crate::shape::Compound<<$r as $crate::math::Real>::V2, Shape>;
        /// See [`crate::shape::ConcavePolygon`].
        pub type ConcavePolygon = $crate::shape::ConcavePolygon<$r>;
        /// See [`crate::shape::Polyline`].
        pub type Polyline = $crate::shape::Polyline<$r>;
        /// See [`crate::shape::heightfield_2d::HeightField`].
        pub type HeightField = $crate::shape::heightfield_2d::HeightField<$r>;
        /// See [`crate::world::World`]: a world of 2D shapes, convex and composite
        /// ([`AnyShape`]; a [`Shape`] converts into it, so `world.insert(shape, ..)`
        /// takes either).
        pub type World = $crate::world::World<<$r as $crate::math::Real>::V2, AnyShape>;
        /// See [`crate::world::World`]: a world of convex 2D [`Shape`]s only, a little
        /// faster to dispatch than [`World`].
        pub type ConvexWorld = $crate::world::World<<$r as $crate::math::Real>::V2, Shape>;
    };
}

/// Aliases of 3D-only shapes.
macro_rules! aliases_3d {
    ($r:ty) => {
        common_aliases!(<$r as $crate::math::Real>::V3, $r);
        /// See [`crate::shape::ConvexPolyhedron`].
        pub type ConvexPolyhedron = $crate::shape::ConvexPolyhedron<$r>;
        /// See [`crate::shape::obb_3d::Obb`].
        pub type Obb = $crate::shape::obb_3d::Obb<$r>;
        /// See [`crate::shape::Cylinder`].
        pub type Cylinder = $crate::shape::Cylinder<$r>;
        /// See [`crate::shape::Cone`].
        pub type Cone = $crate::shape::Cone<$r>;
        /// See [`crate::shape::shape_3d::Shape`].
        pub type Shape = $crate::shape::shape_3d::Shape<$r>;
        /// See [`crate::shape::shape_3d::AnyShape`]: convex or composite.
        pub type AnyShape = $crate::shape::shape_3d::AnyShape<$r>;
        /// See [`crate::shape::Compound`]: convex 3D parts with poses.
        pub type Compound = $crate::shape::Compound<<$r as $crate::math::Real>::V3, Shape>;
        /// See [`crate::shape::TriMesh`].
        pub type TriMesh = $crate::shape::TriMesh<$r>;
        pub use $crate::shape::TriMeshFlags;
        /// See [`crate::shape::heightfield_3d::HeightField`].
        pub type HeightField = $crate::shape::heightfield_3d::HeightField<$r>;
        /// See [`crate::world::World`]: a world of 3D shapes, convex and composite
        /// ([`AnyShape`]; a [`Shape`] converts into it, so `world.insert(shape, ..)`
        /// takes either).
        pub type World = $crate::world::World<<$r as $crate::math::Real>::V3, AnyShape>;
        /// See [`crate::world::World`]: a world of convex 3D [`Shape`]s only, a little
        /// faster to dispatch than [`World`].
        pub type ConvexWorld = $crate::world::World<<$r as $crate::math::Real>::V3, Shape>;
    };
}

/// 2D, `f32`.
pub mod d2 {
    aliases_2d!(f32);
    pub use glam::Vec2;
}

/// 3D, `f32`.
pub mod d3 {
    aliases_3d!(f32);
    pub use glam::{Quat, Vec3};
}

/// 2D, `f64`.
pub mod d2_f64 {
    aliases_2d!(f64);
    pub use glam::DVec2;
}

/// 3D, `f64`.
pub mod d3_f64 {
    aliases_3d!(f64);
    pub use glam::{DQuat, DVec3};
}
