//! `Serialize` and `Deserialize` for every shape and pose (feature `serde`).
//!
//! A shape writes its *defining data* only (a polygon's vertices, a mesh's vertices,
//! triangles and `solid` flag, a heightfield's heights and scale), never what its
//! constructor derives from them (normals, hulls, decompositions, trees). Reading
//! goes through the same validating constructor a program would call, so bad data
//! (NaN, a negative radius, a non-convex outline, an index past the vertices) is a
//! serde error carrying the [`ShapeError`] message, never a panic or a shape that
//! breaks an invariant. This is serde's `try_from`/`into` pattern, written as one
//! plain "repr" struct a type: the repr is the file format.
//!
//! Vectors and quaternions use glam's serde format (`[x, y]`, `[x, y, z]`,
//! `[x, y, z, w]`). Poses are `{ "translation": [..], "rotation": .. }` with a 2D
//! rotation as `{ "cos": c, "sin": s }` and a 3D one as a quaternion `[x, y, z, w]`;
//! reading one checks it as [`Compound::new`] checks a part's pose (finite, rotation
//! of unit length within [`ROTATION_UNIT_ULPS`](crate::math::ROTATION_UNIT_ULPS),
//! nearer ones normalised). The shape enums and `AnyShape` use serde's default
//! externally tagged form: `{ "Ball": { "center": [0, 0], "radius": 1 } }`.
//!
//! Round trips are exact (the constructors keep the vertices they are given, once
//! deduplicated; a plane keeps its unit normal bit for bit), except
//! [`ConvexPolyhedron`], which is rebuilt from its hull vertices and may list its faces
//! in another order (same solid, same answers). With `serde_json`, exact means its
//! `float_roundtrip` feature: without it, serde_json parses some decimals one ulp off
//! (a shape read back then differs in its last bit).

use std::borrow::Cow;

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::algo::gjk::GjkVector;
use crate::math::{Isometry, Pose2, Pose3, Real, Rot2, Vector};
use crate::query::dispatch::DispatchShape;
use crate::shape::error::check_pose;
use crate::shape::{
    heightfield_2d, heightfield_3d, obb_2d, obb_3d, Aabb, Ball, Capsule, Compound, ConcavePolygon,
    Cone, ConvexPolygon, ConvexPolyhedron, Cylinder, HalfSpace, Plane, Polyline, Ray, Rounded,
    Sector, Segment, ShapeError, TriMesh, TriMeshFlags, Triangle,
};

/// A scalar serde can read and write as a number (`f32`, `f64`).
pub trait SerdeScalar: Serialize + DeserializeOwned {}
impl<T: Serialize + DeserializeOwned> SerdeScalar for T {}

/// A vector type serde covers (glam's, with its `serde` feature).
pub trait SerdeVector: Vector<Scalar: SerdeScalar> + Serialize + DeserializeOwned {}
impl<V: Vector<Scalar: SerdeScalar> + Serialize + DeserializeOwned> SerdeVector for V {}

/// A [`Real`] whose vectors and quaternion serde covers (`f32`, `f64`).
pub trait SerdeReal:
    Real<V2: SerdeVector, V3: SerdeVector, Quat: Serialize + DeserializeOwned> + SerdeScalar
{
}
impl<R> SerdeReal for R where
    R: Real<V2: SerdeVector, V3: SerdeVector, Quat: Serialize + DeserializeOwned> + SerdeScalar
{
}

/// `Serialize` through the repr `$repr` built from `self` by `$to`, `Deserialize`
/// by reading the repr and handing it to the fallible constructor `$from`.
macro_rules! via_repr {
    (
        [$($gen:tt)*] $ty:ty, repr $repr:ty,
        to |$s:ident| $to:expr,
        from |$r:ident| $from:expr $(,)?
    ) => {
        impl<$($gen)*> Serialize for $ty {
            fn serialize<Z: Serializer>(&self, z: Z) -> Result<Z::Ok, Z::Error> {
                let $s = self;
                let repr: $repr = $to;
                repr.serialize(z)
            }
        }

        impl<'de, $($gen)*> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let $r = <$repr>::deserialize(d)?;
                let built: Result<Self, ShapeError> = $from;
                built.map_err(D::Error::custom)
            }
        }
    };
}

/// Two end points (a segment, or a box's corners).
#[derive(Serialize, Deserialize)]
struct AabbRepr<V> {
    min: V,
    max: V,
}

/// Centre and radius.
#[derive(Serialize, Deserialize)]
struct BallRepr<V, S> {
    center: V,
    radius: S,
}

/// Segment end points and radius.
#[derive(Serialize, Deserialize)]
struct CapsuleRepr<V, S> {
    a: V,
    b: V,
    radius: S,
}

/// Segment end points.
#[derive(Serialize, Deserialize)]
struct SegmentRepr<V> {
    a: V,
    b: V,
}

/// Ray origin and direction.
#[derive(Serialize, Deserialize)]
struct RayRepr<V> {
    origin: V,
    dir: V,
}

/// Triangle corners.
#[derive(Serialize, Deserialize)]
struct TriangleRepr<V> {
    a: V,
    b: V,
    c: V,
}

/// Plane `normal · p = d`.
#[derive(Serialize, Deserialize)]
struct PlaneRepr<V, S> {
    normal: V,
    d: S,
}

/// A half-space bounded by its plane.
#[derive(Serialize, Deserialize)]
struct HalfSpaceRepr<P> {
    plane: P,
}

/// The inner shape and the rounding radius.
#[derive(Serialize, Deserialize)]
struct RoundedRepr<S, R> {
    inner: S,
    radius: R,
}

/// Half height along y and radius (cylinder, cone).
#[derive(Serialize, Deserialize)]
struct AxialRepr<R> {
    half_height: R,
    radius: R,
}

/// A circular sector.
#[derive(Serialize, Deserialize)]
struct SectorRepr<V, R> {
    center: V,
    radius: R,
    start_angle: R,
    span: R,
}

/// An oriented box.
#[derive(Serialize, Deserialize)]
struct ObbRepr<V, Q> {
    center: V,
    half_extents: V,
    rotation: Q,
}

/// A 2D rotation as its unit complex number.
#[derive(Serialize, Deserialize)]
struct Rot2Repr<R> {
    cos: R,
    sin: R,
}

/// A rigid transform.
#[derive(Serialize, Deserialize)]
struct PoseRepr<V, Q> {
    translation: V,
    rotation: Q,
}

/// A vertex list (convex polygon, convex polyhedron).
#[derive(Serialize, Deserialize)]
#[serde(bound = "V: Clone + Serialize + DeserializeOwned")]
struct PointsRepr<'a, V: Clone> {
    vertices: Cow<'a, [V]>,
}

/// Outer ring and holes.
#[derive(Serialize, Deserialize)]
#[serde(bound = "V: Clone + Serialize + DeserializeOwned")]
struct ConcaveRepr<'a, V: Clone> {
    outer: Cow<'a, [V]>,
    holes: Cow<'a, [Vec<V>]>,
}

/// Vertices and segments as index pairs.
#[derive(Serialize, Deserialize)]
#[serde(bound = "V: Clone + Serialize + DeserializeOwned")]
struct PolylineRepr<'a, V: Clone> {
    vertices: Cow<'a, [V]>,
    segments: Cow<'a, [[u32; 2]]>,
}

/// Vertices, triangles as index triples and the `solid` flag.
#[derive(Serialize, Deserialize)]
#[serde(bound = "V: Clone + Serialize + DeserializeOwned")]
struct TriMeshRepr<'a, V: Clone> {
    vertices: Cow<'a, [V]>,
    indices: Cow<'a, [[u32; 3]]>,
    #[serde(default)]
    solid: bool,
}

/// Heights along x and the scale of the 2D heightfield.
#[derive(Serialize, Deserialize)]
#[serde(bound = "R: Clone + Serialize + DeserializeOwned, V: Serialize + DeserializeOwned")]
struct HeightField2Repr<'a, R: Clone, V> {
    heights: Cow<'a, [R]>,
    scale: V,
}

/// Row-major heights (`nrows` along z, `ncols` along x) and the scale.
#[derive(Serialize, Deserialize)]
#[serde(bound = "R: Clone + Serialize + DeserializeOwned, V: Serialize + DeserializeOwned")]
struct HeightField3Repr<'a, R: Clone, V> {
    heights: Cow<'a, [R]>,
    nrows: usize,
    ncols: usize,
    scale: V,
}

/// The parts of a compound, each a pose and a shape.
#[derive(Serialize, Deserialize)]
#[serde(bound = "P: Clone + Serialize + DeserializeOwned, S: Clone + Serialize + DeserializeOwned")]
struct CompoundRepr<'a, P: Clone, S: Clone> {
    parts: Cow<'a, [(P, S)]>,
}

via_repr!([V: SerdeVector] Aabb<V>, repr AabbRepr<V>,
    to |s| AabbRepr { min: s.min, max: s.max },
    from |r| Aabb::new(r.min, r.max));

via_repr!([V: SerdeVector] Ball<V>, repr BallRepr<V, V::Scalar>,
    to |s| BallRepr { center: s.center(), radius: s.radius() },
    from |r| Ball::new(r.center, r.radius));

via_repr!([V: SerdeVector] Capsule<V>, repr CapsuleRepr<V, V::Scalar>,
    to |s| CapsuleRepr { a: s.segment().a, b: s.segment().b, radius: s.radius() },
    from |r| Capsule::new(r.a, r.b, r.radius));

via_repr!([V: SerdeVector] Segment<V>, repr SegmentRepr<V>,
    to |s| SegmentRepr { a: s.a, b: s.b },
    from |r| Segment::new(r.a, r.b));

via_repr!([V: SerdeVector] Ray<V>, repr RayRepr<V>,
    to |s| RayRepr { origin: s.origin, dir: s.dir },
    from |r| Ray::new(r.origin, r.dir));

via_repr!([V: SerdeVector] Triangle<V>, repr TriangleRepr<V>,
    to |s| TriangleRepr { a: s.a, b: s.b, c: s.c },
    from |r| Triangle::new(r.a, r.b, r.c));

via_repr!([V: SerdeVector] Plane<V>, repr PlaneRepr<V, V::Scalar>,
    to |s| PlaneRepr { normal: s.normal(), d: s.d() },
    from |r| Plane::new_keeping_unit(r.normal, r.d));

via_repr!([V: SerdeVector] HalfSpace<V>, repr HalfSpaceRepr<Plane<V>>,
    to |s| HalfSpaceRepr { plane: s.plane },
    from |r| Ok(HalfSpace::new(r.plane)));

via_repr!([S: Clone + Serialize + DeserializeOwned, R: SerdeReal] Rounded<S, R>,
    repr RoundedRepr<S, R>,
    to |s| RoundedRepr { inner: s.inner().clone(), radius: s.radius() },
    from |r| Rounded::new(r.inner, r.radius));

via_repr!([R: SerdeReal] Cylinder<R>, repr AxialRepr<R>,
    to |s| AxialRepr { half_height: s.half_height(), radius: s.radius() },
    from |r| Cylinder::new(r.half_height, r.radius));

via_repr!([R: SerdeReal] Cone<R>, repr AxialRepr<R>,
    to |s| AxialRepr { half_height: s.half_height(), radius: s.radius() },
    from |r| Cone::new(r.half_height, r.radius));

via_repr!([R: SerdeReal] Sector<R>, repr SectorRepr<R::V2, R>,
    to |s| SectorRepr {
        center: s.center(),
        radius: s.radius(),
        start_angle: s.start_angle(),
        span: s.span(),
    },
    from |r| Sector::new(r.center, r.radius, r.start_angle, r.span));

via_repr!([R: SerdeReal] obb_2d::Obb<R>, repr ObbRepr<R::V2, Rot2<R>>,
    to |s| ObbRepr { center: s.center(), half_extents: s.half_extents(), rotation: s.rotation() },
    from |r| obb_2d::Obb::new(r.center, r.half_extents, r.rotation));

via_repr!([R: SerdeReal] obb_3d::Obb<R>, repr ObbRepr<R::V3, R::Quat>,
    to |s| ObbRepr { center: s.center(), half_extents: s.half_extents(), rotation: s.rotation() },
    from |r| obb_3d::Obb::new(r.center, r.half_extents, r.rotation));

// A bare rotation has no invariant of its own (its fields are public): the shapes and
// poses holding one check it.
via_repr!([R: SerdeReal] Rot2<R>, repr Rot2Repr<R>,
    to |s| Rot2Repr { cos: s.cos, sin: s.sin },
    from |r| Ok(Rot2 { cos: r.cos, sin: r.sin }));

via_repr!([R: SerdeReal] Pose2<R>, repr PoseRepr<R::V2, Rot2<R>>,
    to |s| PoseRepr { translation: s.translation, rotation: s.rotation },
    from |r| checked_pose::<R::V2, _>(Pose2 { translation: r.translation, rotation: r.rotation }));

via_repr!([R: SerdeReal] Pose3<R>, repr PoseRepr<R::V3, R::Quat>,
    to |s| PoseRepr { translation: s.translation, rotation: s.rotation },
    from |r| checked_pose::<R::V3, _>(Pose3 { translation: r.translation, rotation: r.rotation }));

via_repr!([R: SerdeReal] ConvexPolygon<R>, repr PointsRepr<'_, R::V2>,
    to |s| PointsRepr { vertices: Cow::Borrowed(s.vertices()) },
    from |r| ConvexPolygon::new(&r.vertices));

via_repr!([R: SerdeReal] ConvexPolyhedron<R>, repr PointsRepr<'_, R::V3>,
    to |s| PointsRepr { vertices: Cow::Borrowed(s.vertices()) },
    from |r| ConvexPolyhedron::from_points(&r.vertices));

via_repr!([R: SerdeReal] ConcavePolygon<R>, repr ConcaveRepr<'_, R::V2>,
    to |s| ConcaveRepr { outer: Cow::Borrowed(s.outer()), holes: Cow::Borrowed(s.holes()) },
    from |r| ConcavePolygon::new(r.outer.into_owned(), r.holes.into_owned()));

via_repr!([R: SerdeReal] Polyline<R>, repr PolylineRepr<'_, R::V2>,
    to |s| PolylineRepr {
        vertices: Cow::Borrowed(s.vertices()),
        segments: Cow::Borrowed(s.segments()),
    },
    from |r| Polyline::with_segments(r.vertices.into_owned(), r.segments.into_owned()));

via_repr!([R: SerdeReal] TriMesh<R>, repr TriMeshRepr<'_, R::V3>,
to |s| TriMeshRepr {
    vertices: Cow::Borrowed(s.vertices()),
    indices: Cow::Borrowed(s.indices()),
    solid: s.is_solid(),
},
from |r| TriMesh::new(
    r.vertices.into_owned(),
    r.indices.into_owned(),
    if r.solid { TriMeshFlags::SOLID } else { TriMeshFlags::OPEN },
));

via_repr!([R: SerdeReal] heightfield_2d::HeightField<R>, repr HeightField2Repr<'_, R, R::V2>,
    to |s| HeightField2Repr { heights: Cow::Borrowed(s.heights()), scale: s.scale() },
    from |r| heightfield_2d::HeightField::new(r.heights.into_owned(), r.scale));

via_repr!([R: SerdeReal] heightfield_3d::HeightField<R>, repr HeightField3Repr<'_, R, R::V3>,
    to |s| HeightField3Repr {
        heights: Cow::Borrowed(s.heights()),
        nrows: s.nrows(),
        ncols: s.ncols(),
        scale: s.scale(),
    },
    from |r| heightfield_3d::HeightField::new(r.heights.into_owned(), r.nrows, r.ncols, r.scale));

via_repr!(
    [V: GjkVector<Pose: Serialize + DeserializeOwned>, S: DispatchShape<V> + Serialize + DeserializeOwned]
    Compound<V, S>, repr CompoundRepr<'_, V::Pose, S>,
    to |s| CompoundRepr { parts: Cow::Borrowed(s.parts()) },
    from |r| Compound::new(r.parts.into_owned()));

/// A pose read from a file, checked as a compound's part pose is.
fn checked_pose<V: Vector, P: Isometry<V>>(pose: P) -> Result<P, ShapeError> {
    if !pose.is_finite() {
        return Err(ShapeError::NotFinite {
            shape: "Pose",
            field: "translation or rotation",
        });
    }
    check_pose("Pose", "rotation", "translation", &pose)
}
