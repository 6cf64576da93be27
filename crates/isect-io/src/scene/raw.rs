//! The file's structures as serde reads them. Each shape is deserialized raw and
//! then built by the library's validating constructor inside `Deserialize`, so a
//! semantic error (negative radius, non-convex polygon) gets serde_json's position
//! and serde_path_to_error's field path like a syntax error does.

use super::{referenced, Scene, SceneRay, SceneShape, SceneSpace as Space, D2, D3};
use glam::{DQuat, DVec2, DVec3};
use isect::algo::gjk::GjkVector;
use isect::math::{Pose2, Pose3, ROTATION_UNIT_ULPS};
use isect::query::dispatch::DispatchShape;
use isect::shape::error::check_pose;
use isect::shape::{heightfield_2d, heightfield_3d};
use isect::shape::{shape_2d, shape_3d, Aabb, Ball, Capsule, Ray, Rounded, Segment, Triangle};
use isect::shape::{Compound, ConcavePolygon, Polyline, TriMesh, TriMeshFlags};
use isect::shape::{Cone, ConvexPolygon, ConvexPolyhedron, Cylinder, ShapeError};
use serde::de::{DeserializeOwned, Deserializer, Error};
use serde::Deserialize;

type P2 = [f64; 2];
type P3 = [f64; 3];

/// The first pass: only the dimension (other fields are read by the second pass).
#[derive(Deserialize)]
pub struct Header {
    /// 2 or 3.
    pub dim: Dim,
}

/// The `dim` field: 2 or 3, anything else is refused where it stands.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Dim(u8);

impl<'de> Deserialize<'de> for Dim {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match u8::deserialize(d)? {
            v @ (2 | 3) => Ok(Self(v)),
            v => Err(D::Error::custom(format!("dim is {v}, must be 2 or 3"))),
        }
    }
}

/// The dimension's number.
impl From<Dim> for u8 {
    fn from(d: Dim) -> u8 {
        d.0
    }
}

/// A shape list whose ids are unique.
pub struct Shapes<E>(Vec<E>);

/// An entry with an optional id.
pub trait HasId {
    /// The id the file gives, if any.
    fn id(&self) -> Option<&str>;
}

impl<'de, E: Deserialize<'de> + HasId> Deserialize<'de> for Shapes<E> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let list = Vec::<E>::deserialize(d)?;
        duplicate_id(&list).map_or(Ok(Self(list)), |msg| Err(D::Error::custom(msg)))
    }
}

/// The message for the first id two entries share, counting an entry without `id`
/// as named by its index (its default id, `"0"`, `"1"`, ...), so that every output
/// names each shape apart.
fn duplicate_id<E: HasId>(list: &[E]) -> Option<String> {
    use std::borrow::Cow;
    let mut seen = std::collections::HashMap::new();
    for (i, e) in list.iter().enumerate() {
        let id = e
            .id()
            .map_or_else(|| Cow::Owned(i.to_string()), Cow::Borrowed);
        let Some(first) = seen.insert(id.clone(), i) else {
            continue;
        };
        let default = |k: usize| {
            let given = list[k].id().is_some();
            (!given).then(|| format!("shape {k} has no `id` and is named by its index"))
        };
        let why: Vec<String> = [default(first), default(i)].into_iter().flatten().collect();
        return Some(if why.is_empty() {
            format!("duplicate id `{id}` (shapes {first} and {i})")
        } else {
            format!(
                "duplicate id `{id}` (shapes {first} and {i}): {}; give the shapes distinct ids",
                why.join(", ")
            )
        });
    }
    None
}

/// `Err` naming `field` when one of `values` is NaN or beyond [`Real::MAX_COORD`]
/// (in `f64`), the library's limit on coordinates, sizes and translations: a value
/// farther out could not be placed, queried or drawn without overflow or a wrong
/// answer. The message is the library's own (`ShapeError::TooLarge`).
///
/// [`Real::MAX_COORD`]: isect::math::Real::MAX_COORD
pub fn within_limit(field: &str, values: &[f64]) -> Result<(), String> {
    use isect::math::Real;
    let limit = <f64 as Real>::MAX_COORD;
    match values
        .iter()
        .map(|v| v.abs())
        .find(|v| v.is_nan() || *v > limit)
    {
        None => Ok(()),
        Some(v) => Err(format!(
            "`{field}` has magnitude {v:e}, beyond the limit {limit:e} of its scalar type \
             (Real::MAX_COORD)"
        )),
    }
}

/// An entry whose shape has a finite bounding box at its pose (the world refuses
/// others), checked where the entry stands in the file.
pub struct Placed<E>(E);

/// An entry that can tell whether its pose is valid and its shape's box at its pose is
/// finite.
pub trait HasBox {
    /// The shape's world box has finite corners.
    fn finite_box(&self) -> bool;
    /// The entry's pose, for the library's one pose check
    /// ([`check_pose`](isect::shape::error::check_pose): rotation, translation within
    /// `Real::MAX_COORD`).
    fn entry_pose(&self) -> Result<(), ShapeError>;
    /// The entry's other numbers (its angle, its velocity) within the same limit.
    fn entry_numbers(&self) -> Result<(), String>;
}

impl<'de, E: Deserialize<'de> + HasBox> Deserialize<'de> for Placed<E> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let e = E::deserialize(d)?;
        e.entry_pose()
            .map_err(|e| D::Error::custom(e.to_string()))?;
        e.entry_numbers()
            .map_err(|e| D::Error::custom(format!("entry: {e}")))?;
        if !e.finite_box() {
            let msg = "the shape's bounding box at this pose is not finite (coordinates overflow)";
            return Err(D::Error::custom(msg));
        }
        Ok(Self(e))
    }
}

impl<E: HasId> HasId for Placed<E> {
    fn id(&self) -> Option<&str> {
        self.0.id()
    }
}

/// Whether both corners of `b` are finite.
fn finite<V: isect::math::Vector>(b: &Aabb<V>) -> bool {
    b.min.is_finite() && b.max.is_finite()
}

/// The id of entry `i`: its own, or its index.
fn id_or_index(id: Option<String>, i: usize) -> String {
    id.unwrap_or_else(|| i.to_string())
}

/// Maps a constructor's error into serde's.
fn built<T, E: Error>(r: Result<T, ShapeError>) -> Result<T, E> {
    r.map_err(|e| E::custom(e.to_string()))
}

/// A ray: origin, direction, optional longest `t` (at least 0).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRay<P> {
    from: P,
    dir: P,
    max_t: Option<f64>,
}

/// Checks a ray's `max_t` and builds it.
fn ray<V: isect::math::Vector<Scalar = f64>, E: Error>(
    from: V,
    dir: V,
    max_t: Option<f64>,
) -> Result<(Ray<V>, f64), E> {
    let max_t = max_t.unwrap_or(f64::INFINITY);
    if max_t < 0.0 {
        return Err(E::custom(format!("max_t is {max_t}, must not be negative")));
    }
    let ray = built(Ray::new(from, dir))?;
    check_ray(&ray).map_err(E::custom)?;
    Ok((ray, max_t))
}

/// `Err` when the ray's origin or direction is beyond [`Real::MAX_COORD`] (its hits
/// could not be told apart), or its direction is zero (it would go nowhere).
///
/// [`Real::MAX_COORD`]: isect::math::Real::MAX_COORD
fn check_ray<V: isect::math::Vector<Scalar = f64>>(ray: &Ray<V>) -> Result<(), String> {
    let coords = |v: V| (0..V::DIM).map(|i| v.get(i)).collect::<Vec<f64>>();
    let (from, dir) = (coords(ray.origin), coords(ray.dir));
    within_limit("from", &from)?;
    within_limit("dir", &dir)?;
    if dir.iter().all(|&c| c == 0.0) {
        return Err("`dir` is zero: a ray needs a direction".to_string());
    }
    Ok(())
}

/// What the file reads in one dimension.
trait FileSpace: Space {
    /// A point or vector as the file writes it: the array of its coordinates.
    type Array: DeserializeOwned;
    /// The dimension's shapes as the file spells them.
    type Raw: DeserializeOwned;
    /// The dimension's convex shapes (a compound's parts).
    type Convex;
    /// The vector of the file's array.
    fn vector(a: Self::Array) -> Self::V;
    /// Builds `raw` through the library's validating constructors.
    fn build<E: Error>(raw: Self::Raw) -> Result<Self::S, E>;
    /// The convex shape `s` is, or the name of its composite kind.
    fn convex(s: Self::S) -> Result<Self::Convex, &'static str>;
}

/// A ray, checked.
struct CheckedRay<Sp: Space>(Ray<Sp::V>, f64);

impl<'de, Sp: FileSpace> Deserialize<'de> for CheckedRay<Sp> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let r = RawRay::<Sp::Array>::deserialize(d)?;
        let (ray, max_t) = ray(Sp::vector(r.from), Sp::vector(r.dir), r.max_t)?;
        Ok(Self(ray, max_t))
    }
}

/// A validated convex shape (a compound's part): composite kinds are refused.
struct Convex<Sp: FileSpace>(Sp::Convex);

impl<'de, Sp: FileSpace> Deserialize<'de> for Convex<Sp> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Sp::convex(Sp::build(Sp::Raw::deserialize(d)?)?) {
            Ok(s) => Ok(Self(s)),
            Err(kind) => Err(not_convex_part(kind)),
        }
    }
}

/// A validated shape.
struct Built<Sp: Space>(Sp::S);

impl<'de, Sp: FileSpace> Deserialize<'de> for Built<Sp> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Sp::build(Sp::Raw::deserialize(d)?).map(Self)
    }
}

/// The scene of the file's shape entries (`place` makes entry `i` a scene shape) and
/// rays.
fn scene<Sp: Space, E>(
    shapes: Shapes<Placed<E>>,
    rays: Vec<CheckedRay<Sp>>,
    place: impl Fn(E, usize) -> SceneShape<Sp>,
) -> Scene<Sp> {
    let shapes = shapes.0.into_iter().enumerate();
    let rays = rays.into_iter().map(|r| SceneRay {
        ray: r.0,
        max_t: r.1,
    });
    Scene {
        shapes: shapes.map(|(i, Placed(e))| place(e, i)).collect(),
        rays: rays.collect(),
        // Filled in by `parse`, which saw every file named.
        files: Vec::new(),
    }
}

/// A compound of its parts (at least one).
fn compound<V: GjkVector, S: DispatchShape<V>, E: Error>(
    parts: Vec<(V::Pose, S)>,
) -> Result<Compound<V, S>, E> {
    if parts.is_empty() {
        return Err(no_parts());
    }
    built(Compound::new(parts))
}

// ---------------------------------------------------------------- 2D

/// The whole file of a 2D scene.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene2 {
    #[serde(rename = "dim")]
    _dim: Dim,
    shapes: Shapes<Placed<Entry2>>,
    #[serde(default)]
    rays: Vec<CheckedRay<D2>>,
}

/// A 2D shape entry.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry2 {
    id: Option<String>,
    shape: Built<D2>,
    #[serde(default)]
    position: P2,
    #[serde(default)]
    angle: f64,
    velocity: Option<P2>,
}

impl HasId for Entry2 {
    fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }
}

impl Entry2 {
    fn pose(&self) -> Pose2<f64> {
        Pose2::new(DVec2::from(self.position), self.angle)
    }
}

impl HasBox for Entry2 {
    fn finite_box(&self) -> bool {
        finite(&self.shape.0.world_aabb(&self.pose()))
    }
    fn entry_pose(&self) -> Result<(), ShapeError> {
        check_pose("entry", "angle", "position", &self.pose()).map(|_| ())
    }
    fn entry_numbers(&self) -> Result<(), String> {
        within_limit("angle", &[self.angle])?;
        within_limit(
            "velocity",
            self.velocity.as_ref().map_or(&[][..], |v| &v[..]),
        )
    }
}

/// A 2D shape as the file spells it, tagged by `type`.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum RawShape2 {
    Ball {
        radius: f64,
    },
    Cuboid {
        half_extents: P2,
    },
    RoundedCuboid {
        half_extents: P2,
        border_radius: f64,
    },
    Capsule {
        half_height: Option<f64>,
        a: Option<P2>,
        b: Option<P2>,
        radius: f64,
    },
    Segment {
        a: P2,
        b: P2,
    },
    Triangle {
        a: P2,
        b: P2,
        c: P2,
    },
    ConvexPolygon {
        points: Vec<P2>,
    },
    RoundedPolygon {
        points: Vec<P2>,
        border_radius: f64,
    },
    ConcavePolygon {
        outer: Vec<P2>,
        #[serde(default)]
        holes: Vec<Vec<P2>>,
    },
    Polyline {
        vertices: Vec<P2>,
        closed: Option<bool>,
        segments: Option<Vec<[u32; 2]>>,
    },
    Heightfield {
        heights: Vec<f64>,
        scale: P2,
    },
    /// A polygon read from a GeoJSON or WKT file.
    PolygonFile {
        path: String,
        index: Option<usize>,
    },
    Compound {
        parts: Vec<Part2>,
    },
}

/// A part of a 2D compound: a convex shape and its pose in the compound's frame.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Part2 {
    shape: Convex<D2>,
    #[serde(default)]
    position: P2,
    #[serde(default)]
    angle: f64,
}

impl FileSpace for D2 {
    type Array = P2;
    type Raw = RawShape2;
    type Convex = shape_2d::Shape<f64>;
    fn vector(a: P2) -> DVec2 {
        DVec2::from(a)
    }
    fn build<E: Error>(raw: RawShape2) -> Result<shape_2d::AnyShape<f64>, E> {
        raw.build()
    }
    fn convex(s: shape_2d::AnyShape<f64>) -> Result<shape_2d::Shape<f64>, &'static str> {
        match s {
            shape_2d::AnyShape::Convex(s) => Ok(s),
            other => Err(other.kind_name()),
        }
    }
}

impl RawShape2 {
    fn build<E: Error>(self) -> Result<shape_2d::AnyShape<f64>, E> {
        use shape_2d::AnyShape as A;
        use shape_2d::Shape as S;
        let v = DVec2::from;
        let vecs = |p: Vec<P2>| -> Vec<DVec2> { p.into_iter().map(v).collect() };
        Ok(A::Convex(match self {
            Self::Ball { radius } => S::Ball(built(Ball::new(DVec2::ZERO, radius))?),
            Self::Cuboid { half_extents } => S::Cuboid(cuboid(v(half_extents))?),
            Self::RoundedCuboid {
                half_extents,
                border_radius,
            } => S::RoundedCuboid(built(Rounded::new(
                cuboid(v(half_extents))?,
                border_radius,
            ))?),
            Self::Capsule {
                half_height,
                a,
                b,
                radius,
            } => S::Capsule(capsule(half_height, a.map(v), b.map(v), radius)?),
            Self::Segment { a, b } => S::Segment(built(Segment::new(v(a), v(b)))?),
            Self::Triangle { a, b, c } => S::Triangle(built(Triangle::new(v(a), v(b), v(c)))?),
            Self::ConvexPolygon { points } => S::Polygon(polygon(&points)?),
            Self::RoundedPolygon {
                points,
                border_radius,
            } => S::RoundedPolygon(built(Rounded::new(polygon(&points)?, border_radius))?),
            Self::ConcavePolygon { outer, holes } => {
                let holes = holes.into_iter().map(vecs).collect();
                return Ok(A::from(built(ConcavePolygon::new(vecs(outer), holes))?));
            }
            Self::Polyline {
                vertices,
                closed,
                segments,
            } => return polyline(vecs(vertices), closed, segments).map(A::from),
            Self::PolygonFile { path, index } => return polygon_file(&path, index).map(A::from),
            Self::Heightfield { heights, scale } => {
                let field = heightfield_2d::HeightField::new(heights, v(scale));
                return Ok(A::from(built(field)?));
            }
            Self::Compound { parts } => return compound_2d(parts).map(A::from),
        }))
    }
}

/// A 2D compound of its parts (at least one).
fn compound_2d<E: Error>(parts: Vec<Part2>) -> Result<Compound<DVec2, shape_2d::Shape<f64>>, E> {
    for (i, p) in parts.iter().enumerate() {
        within_limit("angle", &[p.angle])
            .map_err(|e| E::custom(format!("Compound: parts[{i}]: {e}")))?;
    }
    let parts = parts.into_iter().map(|p| {
        let pose = Pose2::new(DVec2::from(p.position), p.angle);
        (pose, p.shape.0)
    });
    compound(parts.collect())
}

/// A polyline from its vertices and either `closed` (a chain, open by default) or
/// explicit `segments`; giving both is an error.
fn polyline<E: Error>(
    vertices: Vec<DVec2>,
    closed: Option<bool>,
    segments: Option<Vec<[u32; 2]>>,
) -> Result<Polyline<f64>, E> {
    match (closed, segments) {
        (_, None) => built(Polyline::new(vertices, closed.unwrap_or(false))),
        (None, Some(segments)) => built(Polyline::with_segments(vertices, segments)),
        (Some(_), Some(_)) => Err(E::custom(
            "polyline takes either `closed` or `segments`, not both",
        )),
    }
}

/// The error for a compound without parts (the library's own message speaks of
/// points).
fn no_parts<E: Error>() -> E {
    E::custom("Compound: `parts` is empty, needs at least one part")
}

/// The index of the first height whose product with `scale_y` is not finite.
fn scaled_overflow(heights: &[f64], scale_y: f64) -> Option<usize> {
    heights.iter().position(|h| !(h * scale_y).is_finite())
}

/// The error for a composite kind given as a compound's part.
fn not_convex_part<E: Error>(kind: &str) -> E {
    E::custom(format!(
        "a compound part must be a convex shape, not a {kind}"
    ))
}

fn polygon<E: Error>(points: &[P2]) -> Result<ConvexPolygon<f64>, E> {
    let points: Vec<DVec2> = points.iter().map(|&p| DVec2::from(p)).collect();
    built(ConvexPolygon::new(&points))
}

impl From<Scene2> for Scene<D2> {
    fn from(s: Scene2) -> Self {
        scene(s.shapes, s.rays, |e: Entry2, i| SceneShape {
            pose: e.pose(),
            id: id_or_index(e.id, i),
            shape: e.shape.0,
            velocity: e.velocity.map(DVec2::from),
        })
    }
}

// ---------------------------------------------------------------- shared

/// A box centred on the origin.
fn cuboid<V: isect::math::Vector<Scalar = f64>, E: Error>(half: V) -> Result<Aabb<V>, E> {
    built(Aabb::from_center(V::ZERO, half))
}

/// A capsule from `half_height` (along local y) or from both end points `a`, `b`.
fn capsule<V: isect::math::Vector<Scalar = f64>, E: Error>(
    half_height: Option<f64>,
    a: Option<V>,
    b: Option<V>,
    radius: f64,
) -> Result<Capsule<V>, E> {
    match (half_height, a, b) {
        (Some(h), None, None) => built(Capsule::aligned(1, h, radius)),
        (None, Some(a), Some(b)) => built(Capsule::new(a, b, radius)),
        _ => Err(E::custom(
            "capsule needs either `half_height` or both `a` and `b`",
        )),
    }
}

// ---------------------------------------------------------------- 3D

/// The whole file of a 3D scene.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene3 {
    #[serde(rename = "dim")]
    _dim: Dim,
    shapes: Shapes<Placed<Entry3>>,
    #[serde(default)]
    rays: Vec<CheckedRay<D3>>,
}

/// A 3D shape entry.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry3 {
    id: Option<String>,
    shape: Built<D3>,
    #[serde(default)]
    position: P3,
    #[serde(default)]
    rotation: Rotation,
    velocity: Option<P3>,
}

impl HasId for Entry3 {
    fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }
}

impl Entry3 {
    fn pose(&self) -> Pose3<f64> {
        Pose3::new(DVec3::from(self.position), self.rotation.0)
    }
}

impl HasBox for Entry3 {
    fn finite_box(&self) -> bool {
        finite(&self.shape.0.world_aabb(&self.pose()))
    }
    fn entry_pose(&self) -> Result<(), ShapeError> {
        check_pose("entry", "rotation", "position", &self.pose()).map(|_| ())
    }
    fn entry_numbers(&self) -> Result<(), String> {
        within_limit(
            "velocity",
            self.velocity.as_ref().map_or(&[][..], |v| &v[..]),
        )
    }
}

/// A 3D rotation: `{"axis": [x, y, z], "angle": radians}` or
/// `{"quat": [x, y, z, w]}`, normalised here when its length is within
/// [`QUAT_TEXT_TOLERANCE`] of 1, refused beyond (and when zero or not finite).
#[derive(Default)]
struct Rotation(DQuat);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRotation {
    axis: Option<P3>,
    angle: Option<f64>,
    quat: Option<[f64; 4]>,
}

impl<'de> Deserialize<'de> for Rotation {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let r = RawRotation::deserialize(d)?;
        let q = match (r.axis, r.angle, r.quat) {
            (Some(axis), Some(angle), None) => {
                within_limit("rotation.axis", &axis).map_err(D::Error::custom)?;
                within_limit("rotation.angle", &[angle]).map_err(D::Error::custom)?;
                let axis = DVec3::from(axis).try_normalize();
                let axis = axis.ok_or_else(|| D::Error::custom("rotation axis is zero"))?;
                DQuat::from_axis_angle(axis, angle)
            }
            (None, None, Some(q)) => DQuat::from_vec4(unit_quat(q).map_err(D::Error::custom)?),
            _ => {
                let msg = "rotation needs either `axis` and `angle`, or `quat` [x, y, z, w]";
                return Err(D::Error::custom(msg));
            }
        };
        Ok(Self(q))
    }
}

/// How far from 1 a scene file's quaternion's length may be:
/// [`ROTATION_UNIT_ULPS`] ulps of `f32` (4.9e-4), the library's tolerance for
/// single precision, since quaternions written as text carry few digits
/// (`[0, 0, 0.7071, 0.7071]` is off by 1e-5).
pub const QUAT_TEXT_TOLERANCE: f64 = ROTATION_UNIT_ULPS * f32::EPSILON as f64;

/// `q` normalised, or why it is refused: a NaN or infinite component, a zero length or
/// one off 1 by more than [`QUAT_TEXT_TOLERANCE`].
fn unit_quat(q: [f64; 4]) -> Result<glam::DVec4, String> {
    let q = glam::DVec4::from(q);
    if !q.is_finite() {
        return Err("quaternion has a NaN or infinite component".to_string());
    }
    let length = q.length();
    // A finite quaternion's length is finite or (squares overflowing) infinite.
    if (length - 1.0).abs() > QUAT_TEXT_TOLERANCE {
        return Err(format!(
            "quaternion has length {length}, must be 1 within {QUAT_TEXT_TOLERANCE:.1e} \
             (write it normalised, or give `axis` and `angle`)"
        ));
    }
    Ok(q / length)
}

/// A 3D shape as the file spells it, tagged by `type`.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum RawShape3 {
    Ball {
        radius: f64,
    },
    Cuboid {
        half_extents: P3,
    },
    RoundedCuboid {
        half_extents: P3,
        border_radius: f64,
    },
    Capsule {
        half_height: Option<f64>,
        a: Option<P3>,
        b: Option<P3>,
        radius: f64,
    },
    Segment {
        a: P3,
        b: P3,
    },
    Triangle {
        a: P3,
        b: P3,
        c: P3,
    },
    ConvexPolyhedron {
        points: Vec<P3>,
    },
    Cylinder {
        half_height: f64,
        radius: f64,
    },
    Cone {
        half_height: f64,
        radius: f64,
    },
    Trimesh {
        vertices: Vec<P3>,
        triangles: Vec<[u32; 3]>,
        #[serde(default)]
        solid: bool,
    },
    /// A mesh read from an OBJ, STL or glTF file.
    MeshFile {
        path: String,
        #[serde(default)]
        solid: bool,
    },
    Heightfield {
        rows: usize,
        cols: usize,
        heights: Vec<f64>,
        scale: P3,
    },
    Compound {
        parts: Vec<Part3>,
    },
}

/// A part of a 3D compound: a convex shape and its pose in the compound's frame.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Part3 {
    shape: Convex<D3>,
    #[serde(default)]
    position: P3,
    #[serde(default)]
    rotation: Rotation,
}

impl FileSpace for D3 {
    type Array = P3;
    type Raw = RawShape3;
    type Convex = shape_3d::Shape<f64>;
    fn vector(a: P3) -> DVec3 {
        DVec3::from(a)
    }
    fn build<E: Error>(raw: RawShape3) -> Result<shape_3d::AnyShape<f64>, E> {
        raw.build()
    }
    fn convex(s: shape_3d::AnyShape<f64>) -> Result<shape_3d::Shape<f64>, &'static str> {
        match s {
            shape_3d::AnyShape::Convex(s) => Ok(s),
            other => Err(other.kind_name()),
        }
    }
}

impl RawShape3 {
    fn build<E: Error>(self) -> Result<shape_3d::AnyShape<f64>, E> {
        use shape_3d::AnyShape as A;
        use shape_3d::Shape as S;
        let v = DVec3::from;
        Ok(A::Convex(match self {
            Self::Ball { radius } => S::Ball(built(Ball::new(DVec3::ZERO, radius))?),
            Self::Cuboid { half_extents } => S::Cuboid(cuboid(v(half_extents))?),
            Self::RoundedCuboid {
                half_extents,
                border_radius,
            } => S::RoundedCuboid(built(Rounded::new(
                cuboid(v(half_extents))?,
                border_radius,
            ))?),
            Self::Capsule {
                half_height,
                a,
                b,
                radius,
            } => S::Capsule(capsule(half_height, a.map(v), b.map(v), radius)?),
            Self::Segment { a, b } => S::Segment(built(Segment::new(v(a), v(b)))?),
            Self::Triangle { a, b, c } => S::Triangle(built(Triangle::new(v(a), v(b), v(c)))?),
            Self::ConvexPolyhedron { points } => {
                let points: Vec<DVec3> = points.into_iter().map(v).collect();
                S::Polyhedron(built(ConvexPolyhedron::from_points(&points))?)
            }
            Self::Cylinder {
                half_height,
                radius,
            } => S::Cylinder(built(Cylinder::new(half_height, radius))?),
            Self::Cone {
                half_height,
                radius,
            } => S::Cone(built(Cone::new(half_height, radius))?),
            Self::Trimesh {
                vertices,
                triangles,
                solid,
            } => {
                let vertices = vertices.into_iter().map(v).collect();
                let flags = TriMeshFlags { solid };
                return Ok(A::from(built(TriMesh::new(vertices, triangles, flags))?));
            }
            Self::Heightfield {
                rows,
                cols,
                heights,
                scale,
            } => return heightfield_3d(heights, rows, cols, v(scale)).map(A::from),
            Self::MeshFile { path, solid } => return mesh_file(&path, solid).map(A::from),
            Self::Compound { parts } => return compound_3d(parts).map(A::from),
        }))
    }
}

/// A 3D heightfield, also refusing heights whose product with `scale.y` overflows
/// (the library checks heights and scale apart).
fn heightfield_3d<E: Error>(
    heights: Vec<f64>,
    rows: usize,
    cols: usize,
    scale: DVec3,
) -> Result<heightfield_3d::HeightField<f64>, E> {
    let overflow = scaled_overflow(&heights, scale.y);
    let field = built(heightfield_3d::HeightField::new(heights, rows, cols, scale))?;
    match overflow {
        Some(i) => Err(E::custom(format!(
            "HeightField: heights[{i}] × scale.y is not finite"
        ))),
        None => Ok(field),
    }
}

/// A 3D compound of its parts (at least one).
fn compound_3d<E: Error>(parts: Vec<Part3>) -> Result<Compound<DVec3, shape_3d::Shape<f64>>, E> {
    let parts = parts.into_iter().map(|p| {
        let pose = Pose3::new(DVec3::from(p.position), p.rotation.0);
        (pose, p.shape.0)
    });
    compound(parts.collect())
}

impl From<Scene3> for Scene<D3> {
    fn from(s: Scene3) -> Self {
        scene(s.shapes, s.rays, |e: Entry3, i| SceneShape {
            pose: e.pose(),
            id: id_or_index(e.id, i),
            shape: e.shape.0,
            velocity: e.velocity.map(DVec3::from),
        })
    }
}

// ---------------------------------------------------------------- referenced files

/// The mesh of the file at `path` (relative to the scene), its errors as the entry's.
fn mesh_file<E: Error>(path: &str, solid: bool) -> Result<TriMesh<f64>, E> {
    let file = referenced(path);
    let data = crate::mesh::read_mesh(&file).map_err(|e| E::custom(e.to_string()))?;
    data.to_trimesh(&file, TriMeshFlags { solid })
        .map_err(|e| E::custom(e.to_string()))
}

/// Polygon `index` of the file at `path` (relative to the scene); without `index`
/// the file must hold exactly one polygon.
fn polygon_file<E: Error>(path: &str, index: Option<usize>) -> Result<ConcavePolygon<f64>, E> {
    let file = referenced(path);
    let polygons = crate::polygon::read_polygons(&file).map_err(|e| E::custom(e.to_string()))?;
    let n = polygons.len();
    let chosen = match index {
        Some(i) if i < n => &polygons[i],
        Some(i) => {
            let msg = format!(
                "{}: index {i}, but the file holds {n} polygon(s)",
                file.display()
            );
            return Err(E::custom(msg));
        }
        None if n == 1 => &polygons[0],
        None => {
            let msg = format!(
                "{}: holds {n} polygons; give `index` to pick one",
                file.display()
            );
            return Err(E::custom(msg));
        }
    };
    chosen
        .to_polygon(&file)
        .map_err(|e| E::custom(e.to_string()))
}
