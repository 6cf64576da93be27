//! The shape classes: `Shape` (3D) and `Shape2d` (2D) hold the library's shape enums;
//! one subclass per kind gives the constructor Python users call (`isect.Sphere(0.5)`).
//! Every constructor validates through the library's (a bad shape is a `ValueError`
//! carrying its message); shapes are immutable, pickle through the `serde` form, and
//! round-trip through `to_json` / `shape_from_json`.

use crate::convert;
use crate::dim::{Dim, D2, D3};
use glam::{DVec2, DVec3};
use isect::query::dispatch::DispatchShape;
use isect::shape::ShapeError;
use isect::{d2_f64 as d2, d3_f64 as d3};
use numpy::{AllowTypeChange, PyArrayLike2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// A shape error as the `ValueError` Python code expects.
pub fn shape_error(e: ShapeError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A 3D shape. Build one with a subclass (`Sphere`, `Box`, `TriMesh`, ...); every query
/// of the package takes any of them.
#[pyclass(subclass, frozen, module = "isect")]
pub struct Shape {
    /// The library's shape.
    pub inner: d3::AnyShape,
}

/// A 2D shape. Build one with a subclass (`Circle`, `Polygon`, ...).
#[pyclass(subclass, frozen, module = "isect")]
pub struct Shape2d {
    /// The library's shape.
    pub inner: d2::AnyShape,
}

/// The methods both base classes share, written once over the dimension.
macro_rules! shape_methods {
    ($base:ident, $dim:ty, $tag:literal, $repr:ident) => {
        #[pymethods]
        impl $base {
            /// The kind's name (`"Ball"`, `"Cuboid"`, `"TriMesh"`, ...).
            #[getter]
            fn kind(&self) -> &'static str {
                self.inner.kind_name()
            }

            /// The world bounding box `(min, max)` of the shape placed at `pose`.
            #[pyo3(signature = (pose=None))]
            fn aabb(
                &self,
                py: Python<'_>,
                pose: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
                let b = self.inner.world_aabb(&<$dim>::pose(pose, "pose")?);
                Ok((<$dim>::to_py(py, b.min)?, <$dim>::to_py(py, b.max)?))
            }

            /// The shape's defining data as JSON (read back by `shape_from_json`).
            fn to_json(&self) -> PyResult<String> {
                serde_json::to_string(&self.inner).map_err(|e| PyValueError::new_err(e.to_string()))
            }

            fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
                let rebuild = py.import("isect")?.getattr("shape_from_json")?.unbind();
                Ok((rebuild, (format!("{}{}", $tag, self.to_json()?),)))
            }

            /// A constructor call for the kinds built from a few numbers
            /// (`Sphere(radius=1.0)`), a summary for the others (`<isect.TriMesh: 8
            /// vertices, 12 triangles>`); numbers as Python writes them.
            fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
                $repr(&Numbers(py), &self.inner)
            }
        }
    };
}
shape_methods!(Shape, D3, "3", repr3);
shape_methods!(Shape2d, D2, "2", repr2);

/// Numbers and vectors as Python's `repr` writes them (`1.0`, `1e+300`, `(0.0, 1.0)`).
struct Numbers<'py>(Python<'py>);

impl Numbers<'_> {
    fn f(&self, x: f64) -> PyResult<String> {
        Ok(pyo3::types::PyFloat::new(self.0, x).repr()?.to_string())
    }
    fn v3(&self, v: DVec3) -> PyResult<String> {
        Ok(PyTuple::new(self.0, v.to_array())?.repr()?.to_string())
    }
    fn v2(&self, v: DVec2) -> PyResult<String> {
        Ok(PyTuple::new(self.0, v.to_array())?.repr()?.to_string())
    }
}

/// `n thing` or `n things`.
fn count(n: usize, thing: &str) -> String {
    match n {
        1 => format!("1 {thing}"),
        _ => format!("{n} {thing}s"),
    }
}

/// `n vertex` or `n vertices`.
fn vertices(n: usize) -> String {
    match n {
        1 => "1 vertex".to_owned(),
        _ => format!("{n} vertices"),
    }
}

fn repr3(n: &Numbers<'_>, shape: &d3::AnyShape) -> PyResult<String> {
    use d3::{AnyShape as A, Shape as S};
    let y_axis = |h: f64| (DVec3::new(0.0, -h, 0.0), DVec3::new(0.0, h, 0.0));
    Ok(match shape {
        A::Convex(S::Ball(b)) if b.center() == DVec3::ZERO => {
            format!("Sphere(radius={})", n.f(b.radius())?)
        }
        A::Convex(S::Ball(b)) => format!(
            "<isect.Sphere: radius={}, center={}>",
            n.f(b.radius())?,
            n.v3(b.center())?
        ),
        A::Convex(S::Cuboid(b)) if b.center() == DVec3::ZERO => {
            format!("Box(half_extents={})", n.v3(b.half_extents())?)
        }
        A::Convex(S::Cuboid(b)) => format!(
            "<isect.Box: half_extents={}, center={}>",
            n.v3(b.half_extents())?,
            n.v3(b.center())?
        ),
        A::Convex(S::Capsule(c)) => {
            let (a, b) = (c.segment().a, c.segment().b);
            match (a, b) == y_axis(b.y) && b.y >= 0.0 {
                true => format!(
                    "Capsule(half_height={}, radius={})",
                    n.f(b.y)?,
                    n.f(c.radius())?
                ),
                false => format!(
                    "Capsule.from_segment({}, {}, radius={})",
                    n.v3(a)?,
                    n.v3(b)?,
                    n.f(c.radius())?
                ),
            }
        }
        A::Convex(S::Cylinder(c)) => format!(
            "Cylinder(half_height={}, radius={})",
            n.f(c.half_height())?,
            n.f(c.radius())?
        ),
        A::Convex(S::Cone(c)) => format!(
            "Cone(half_height={}, radius={})",
            n.f(c.half_height())?,
            n.f(c.radius())?
        ),
        A::Convex(S::RoundedCuboid(r)) if r.inner().center() == DVec3::ZERO => format!(
            "RoundedBox(half_extents={}, radius={})",
            n.v3(r.inner().half_extents())?,
            n.f(r.radius())?
        ),
        A::Convex(S::RoundedCuboid(r)) => format!(
            "<isect.RoundedBox: half_extents={}, radius={}, center={}>",
            n.v3(r.inner().half_extents())?,
            n.f(r.radius())?,
            n.v3(r.inner().center())?
        ),
        A::Convex(S::Polyhedron(p)) => {
            format!("<isect.ConvexHull: {}>", vertices(p.vertices().len()))
        }
        A::Convex(S::Triangle(t)) => {
            format!("Triangle({}, {}, {})", n.v3(t.a)?, n.v3(t.b)?, n.v3(t.c)?)
        }
        A::Convex(S::Segment(s)) => format!("Segment({}, {})", n.v3(s.a)?, n.v3(s.b)?),
        A::TriMesh(m) => format!(
            "<isect.TriMesh: {}, {}{}>",
            vertices(m.vertices().len()),
            count(m.triangle_count(), "triangle"),
            if m.is_solid() { ", solid" } else { "" }
        ),
        A::HeightField(h) => format!(
            "<isect.HeightField: {}x{} heights, scale={}>",
            h.nrows(),
            h.ncols(),
            n.v3(h.scale())?
        ),
        A::Compound(c) => format!("<isect.Compound: {}>", count(c.len(), "part")),
    })
}

fn repr2(n: &Numbers<'_>, shape: &d2::AnyShape) -> PyResult<String> {
    use d2::{AnyShape as A, Shape as S};
    Ok(match shape {
        A::Convex(S::Ball(b)) if b.center() == DVec2::ZERO => {
            format!("Circle(radius={})", n.f(b.radius())?)
        }
        A::Convex(S::Ball(b)) => format!(
            "<isect.Circle: radius={}, center={}>",
            n.f(b.radius())?,
            n.v2(b.center())?
        ),
        A::Convex(S::Cuboid(b)) if b.center() == DVec2::ZERO => {
            format!("Rectangle(half_extents={})", n.v2(b.half_extents())?)
        }
        A::Convex(S::Cuboid(b)) => format!(
            "<isect.Rectangle: half_extents={}, center={}>",
            n.v2(b.half_extents())?,
            n.v2(b.center())?
        ),
        A::Convex(S::Capsule(c)) => {
            let (a, b) = (c.segment().a, c.segment().b);
            match a == DVec2::new(0.0, -b.y) && b.x == 0.0 && b.y >= 0.0 {
                true => format!(
                    "Capsule2d(half_height={}, radius={})",
                    n.f(b.y)?,
                    n.f(c.radius())?
                ),
                false => format!(
                    "<isect.Capsule2d: a={}, b={}, radius={}>",
                    n.v2(a)?,
                    n.v2(b)?,
                    n.f(c.radius())?
                ),
            }
        }
        A::Convex(S::Polygon(p)) => {
            format!("<isect.ConvexPolygon: {}>", vertices(p.vertices().len()))
        }
        A::Convex(S::Triangle(t)) => {
            format!("Triangle2d({}, {}, {})", n.v2(t.a)?, n.v2(t.b)?, n.v2(t.c)?)
        }
        A::Convex(S::Segment(s)) => format!("Segment2d({}, {})", n.v2(s.a)?, n.v2(s.b)?),
        A::Convex(_) => format!("<isect.Shape2d: {}>", shape.kind_name()),
        A::ConcavePolygon(p) => format!(
            "<isect.Polygon: {}, {}>",
            vertices(p.outer().len()),
            count(p.holes().len(), "hole")
        ),
        A::Polyline(l) => {
            let closed = l.segments().len() == l.vertices().len() && l.vertices().len() > 2;
            format!(
                "<isect.Polyline: {}, {}>",
                vertices(l.vertices().len()),
                if closed { "closed" } else { "open" }
            )
        }
        A::HeightField(h) => format!(
            "<isect.HeightField2d: {}, scale={}>",
            count(h.heights().len(), "height"),
            n.v2(h.scale())?
        ),
        A::Compound(c) => format!("<isect.Compound2d: {}>", count(c.len(), "part")),
    })
}

/// Declares one subclass per kind.
macro_rules! kinds {
    ($base:ident: $( $(#[$doc:meta])* $name:ident ),* $(,)?) => {
        $(
            $(#[$doc])*
            #[pyclass(extends = $base, frozen, module = "isect")]
            pub struct $name;
        )*
    };
}

kinds!(Shape:
    /// A sphere: `Sphere(radius)`, centred on the origin.
    Sphere,
    /// A box: `Box(half_extents)`, centred on the origin (half the side lengths).
    Box,
    /// A capsule: `Capsule(half_height, radius)`, its segment along local y from
    /// `-half_height` to `half_height`; `Capsule.from_segment(a, b, radius)` for any segment.
    Capsule,
    /// A cylinder: `Cylinder(half_height, radius)`, axis along local y.
    Cylinder,
    /// A cone: `Cone(half_height, radius)`, axis along local y, apex at `+half_height`.
    Cone,
    /// A box with rounded edges: `RoundedBox(half_extents, radius)` (the radius is added).
    RoundedBox,
    /// The convex hull of points: `ConvexHull(points)`, an `(n, 3)` array.
    ConvexHull,
    /// A triangle (no volume): `Triangle(a, b, c)`.
    Triangle,
    /// A segment (no volume): `Segment(a, b)`.
    Segment,
    /// A triangle mesh: `TriMesh(vertices, faces, solid=False)`, vertices an `(n, 3)`
    /// array and faces an `(m, 3)` integer array; a solid mesh must be closed and is
    /// filled. `TriMesh(mesh, solid=False)` takes any object with `vertices` and
    /// `faces` arrays (a `trimesh.Trimesh`).
    TriMesh,
    /// A heightfield: `HeightField(heights, scale)`, heights an `(nrows, ncols)` array
    /// over x (columns) and z (rows), scaled by `scale = (sx, sy, sz)`, centred on the origin.
    HeightField,
    /// Convex parts with poses: `Compound([(shape, pose), ...])`.
    Compound,
);

kinds!(Shape2d:
    /// A disc: `Circle(radius)`, centred on the origin.
    Circle,
    /// A rectangle: `Rectangle(half_extents)`, centred on the origin.
    Rectangle,
    /// A stadium: `Capsule2d(half_height, radius)`, its segment along local y.
    Capsule2d,
    /// A convex polygon through `points` (either winding): `ConvexPolygon(points)`.
    ConvexPolygon,
    /// A polygon, concave and with holes: `Polygon(exterior, holes=())`, rings as
    /// `(n, 2)` arrays, a closing vertex equal to the first accepted.
    /// `Polygon(polygon)` takes any object with `exterior.coords` and `interiors` (a
    /// shapely `Polygon`, whose holes come with it: other `holes` are then refused).
    Polygon,
    /// A chain of segments: `Polyline(points, closed=False)`; `closed=True` joins the
    /// last point to the first (a closing point equal to the first is accepted, as
    /// `Polygon` accepts it).
    Polyline,
    /// A 2D heightfield: `HeightField2d(heights, scale)`, heights along x scaled by `scale = (sx, sy)`.
    HeightField2d,
    /// Convex 2D parts with poses: `Compound2d([(shape, pose), ...])`.
    Compound2d,
    /// A triangle: `Triangle2d(a, b, c)`.
    Triangle2d,
    /// A segment: `Segment2d(a, b)`.
    Segment2d,
);

fn base3(inner: impl Into<d3::AnyShape>) -> PyClassInitializer<Shape> {
    Shape {
        inner: inner.into(),
    }
    .into()
}

fn base2(inner: impl Into<d2::AnyShape>) -> PyClassInitializer<Shape2d> {
    Shape2d {
        inner: inner.into(),
    }
    .into()
}

fn centred_box3(half_extents: &Bound<'_, PyAny>) -> PyResult<d3::Aabb> {
    d3::Aabb::from_center(DVec3::ZERO, convert::vec3(half_extents, "half_extents")?)
        .map_err(shape_error)
}

fn centred_box2(half_extents: &Bound<'_, PyAny>) -> PyResult<d2::Aabb> {
    d2::Aabb::from_center(DVec2::ZERO, convert::vec2(half_extents, "half_extents")?)
        .map_err(shape_error)
}

fn capsule_along_y<D: Dim>(
    half_height: f64,
    radius: f64,
) -> Result<isect::shape::Capsule<D::V>, ShapeError> {
    let mut axis = vec![0.0; D::N];
    axis[1] = half_height;
    let top = D::from_slice(&axis);
    isect::shape::Capsule::new(-top, top, radius)
}

#[pymethods]
impl Sphere {
    #[new]
    fn new(radius: f64) -> PyResult<PyClassInitializer<Self>> {
        let ball = d3::Ball::new(DVec3::ZERO, radius).map_err(shape_error)?;
        Ok(base3(d3::Shape::Ball(ball)).add_subclass(Self))
    }
}

#[pymethods]
impl Box {
    #[new]
    fn new(half_extents: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        Ok(base3(d3::Shape::Cuboid(centred_box3(half_extents)?)).add_subclass(Self))
    }
}

#[pymethods]
impl Capsule {
    #[new]
    fn new(half_height: f64, radius: f64) -> PyResult<PyClassInitializer<Self>> {
        let capsule = capsule_along_y::<D3>(half_height, radius).map_err(shape_error)?;
        Ok(base3(d3::Shape::Capsule(capsule)).add_subclass(Self))
    }

    /// A capsule around the segment `a`–`b`.
    #[staticmethod]
    fn from_segment(
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        radius: f64,
    ) -> PyResult<Py<PyAny>> {
        let (a, b) = (convert::vec3(a, "a")?, convert::vec3(b, "b")?);
        let capsule = d3::Capsule::new(a, b, radius).map_err(shape_error)?;
        wrap3(py, d3::Shape::Capsule(capsule).into())
    }
}

#[pymethods]
impl Cylinder {
    #[new]
    fn new(half_height: f64, radius: f64) -> PyResult<PyClassInitializer<Self>> {
        let cylinder = d3::Cylinder::new(half_height, radius).map_err(shape_error)?;
        Ok(base3(d3::Shape::Cylinder(cylinder)).add_subclass(Self))
    }
}

#[pymethods]
impl Cone {
    #[new]
    fn new(half_height: f64, radius: f64) -> PyResult<PyClassInitializer<Self>> {
        let cone = d3::Cone::new(half_height, radius).map_err(shape_error)?;
        Ok(base3(d3::Shape::Cone(cone)).add_subclass(Self))
    }
}

#[pymethods]
impl RoundedBox {
    #[new]
    fn new(half_extents: &Bound<'_, PyAny>, radius: f64) -> PyResult<PyClassInitializer<Self>> {
        let rounded =
            isect::shape::Rounded::new(centred_box3(half_extents)?, radius).map_err(shape_error)?;
        Ok(base3(d3::Shape::RoundedCuboid(rounded)).add_subclass(Self))
    }
}

#[pymethods]
impl ConvexHull {
    #[new]
    fn new(points: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let points = D3::vectors(points, "points")?;
        let hull = d3::ConvexPolyhedron::from_points(&points).map_err(shape_error)?;
        Ok(base3(d3::Shape::Polyhedron(hull)).add_subclass(Self))
    }
}

#[pymethods]
impl Triangle {
    #[new]
    fn new(
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        c: &Bound<'_, PyAny>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let [a, b, c] = [(a, "a"), (b, "b"), (c, "c")].map(|(v, n)| convert::vec3(v, n));
        let triangle = d3::Triangle::new(a?, b?, c?).map_err(shape_error)?;
        Ok(base3(d3::Shape::Triangle(triangle)).add_subclass(Self))
    }
}

#[pymethods]
impl Segment {
    #[new]
    fn new(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let segment = d3::Segment::new(convert::vec3(a, "a")?, convert::vec3(b, "b")?)
            .map_err(shape_error)?;
        Ok(base3(d3::Shape::Segment(segment)).add_subclass(Self))
    }
}

/// Triangle indices from an `(m, 3)` array of integers (signed or unsigned), each in
/// `0..2³²`. Any other dtype is a `TypeError`: numpy would truncate float indices
/// (0.9 to 0) and turn NaN into a huge negative number.
fn faces(obj: &Bound<'_, PyAny>) -> PyResult<Vec<[u32; 3]>> {
    let array = match obj.hasattr("dtype")? {
        true => obj.clone(),
        false => obj
            .py()
            .import("numpy")?
            .call_method1("asarray", (obj,))
            .map_err(|_| PyTypeError::new_err("faces: expected an (m, 3) array of integers"))?,
    };
    let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
    let shape: Vec<usize> = array.getattr("shape")?.extract()?;
    if !matches!(kind.as_str(), "i" | "u") {
        return Err(PyTypeError::new_err(format!(
            "faces: expected an (m, 3) array of integers, got dtype {}",
            array.getattr("dtype")?
        )));
    }
    if !matches!(shape.as_slice(), [_, 3]) {
        return Err(PyTypeError::new_err(format!(
            "faces: expected shape (m, 3), got {}",
            convert::python_shape(&shape)
        )));
    }
    let bad = |i: usize, x: &dyn std::fmt::Display| {
        PyValueError::new_err(format!(
            "faces[{}][{}]: index {x} is not a vertex index (0 to 2**32 - 1)",
            i / 3,
            i % 3
        ))
    };
    let flat: Vec<u32> = if kind == "u" {
        let array: PyArrayLike2<'_, u64, AllowTypeChange> = array.extract()?;
        let values = array.as_array();
        let indexed = values.iter().enumerate();
        indexed
            .map(|(i, &x)| u32::try_from(x).map_err(|_| bad(i, &x)))
            .collect::<PyResult<_>>()?
    } else {
        let array: PyArrayLike2<'_, i64, AllowTypeChange> = array.extract()?;
        let values = array.as_array();
        let indexed = values.iter().enumerate();
        indexed
            .map(|(i, &x)| u32::try_from(x).map_err(|_| bad(i, &x)))
            .collect::<PyResult<_>>()?
    };
    Ok(flat.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect())
}

#[pymethods]
impl TriMesh {
    #[new]
    #[pyo3(signature = (vertices, faces=None, solid=false))]
    fn new(
        vertices: &Bound<'_, PyAny>,
        faces: Option<&Bound<'_, PyAny>>,
        solid: bool,
    ) -> PyResult<PyClassInitializer<Self>> {
        // A mesh object (`trimesh.Trimesh`, anything with `vertices` and `faces`).
        let (vertices, faces) = match faces {
            Some(f) => (vertices.clone(), f.clone()),
            None if vertices.hasattr("vertices")? && vertices.hasattr("faces")? => {
                (vertices.getattr("vertices")?, vertices.getattr("faces")?)
            }
            None => {
                return Err(PyTypeError::new_err(format!(
                    "TriMesh: faces are required (an (m, 3) integer array) unless the first \
                     argument is a mesh object with vertices and faces (a trimesh.Trimesh), \
                     got {} and no faces",
                    convert::describe(vertices)
                )))
            }
        };
        let (vertices, faces) = (&vertices, &faces);
        let vertices = D3::vectors(vertices, "vertices")?;
        let flags = if solid {
            d3::TriMeshFlags::SOLID
        } else {
            d3::TriMeshFlags::OPEN
        };
        let mesh = d3::TriMesh::new(vertices, self::faces(faces)?, flags).map_err(shape_error)?;
        Ok(base3(mesh).add_subclass(Self))
    }
}

#[pymethods]
impl HeightField {
    #[new]
    fn new(
        heights: &Bound<'_, PyAny>,
        scale: &Bound<'_, PyAny>,
    ) -> PyResult<PyClassInitializer<Self>> {
        crate::convert::not_numeric(heights, "heights")?;
        let array: PyArrayLike2<'_, f64, AllowTypeChange> = heights
            .extract()
            .map_err(|_| PyTypeError::new_err("heights: expected a 2D array of numbers"))?;
        let (nrows, ncols) = (array.shape()[0], array.shape()[1]);
        let heights: Vec<f64> = crate::convert::flat(&array);
        let scale = convert::vec3(scale, "scale")?;
        let field = d3::HeightField::new(heights, nrows, ncols, scale).map_err(shape_error)?;
        Ok(base3(field).add_subclass(Self))
    }
}

/// `[(shape, pose), ...]` as convex parts of dimension `D`.
fn parts<D: Dim, C>(
    list: &Bound<'_, PyAny>,
    convex: impl Fn(&D::Shape) -> Option<C>,
) -> PyResult<Vec<(D::Pose, C)>> {
    let mut out = Vec::new();
    for (i, item) in list.try_iter()?.enumerate() {
        let item = item?;
        let pair = item
            .cast::<PyTuple>()
            .ok()
            .filter(|t| t.len() == 2)
            .ok_or_else(|| {
                PyTypeError::new_err(format!("parts[{i}]: expected a (shape, pose) tuple"))
            })?;
        let shape = pair.get_item(0)?;
        let part = D::shape(&shape).and_then(&convex).ok_or_else(|| {
            PyTypeError::new_err(format!(
                "parts[{i}]: a compound's parts are convex shapes of its dimension"
            ))
        })?;
        out.push((
            D::pose(Some(&pair.get_item(1)?), &format!("parts[{i}] pose"))?,
            part,
        ));
    }
    Ok(out)
}

#[pymethods]
impl Compound {
    #[new]
    fn new(parts: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let convex = |s: &d3::AnyShape| match s {
            d3::AnyShape::Convex(c) => Some(c.clone()),
            _ => None,
        };
        let compound =
            d3::Compound::new(self::parts::<D3, _>(parts, convex)?).map_err(shape_error)?;
        Ok(base3(compound).add_subclass(Self))
    }
}

#[pymethods]
impl Circle {
    #[new]
    fn new(radius: f64) -> PyResult<PyClassInitializer<Self>> {
        let ball = d2::Ball::new(DVec2::ZERO, radius).map_err(shape_error)?;
        Ok(base2(d2::Shape::Ball(ball)).add_subclass(Self))
    }
}

#[pymethods]
impl Rectangle {
    #[new]
    fn new(half_extents: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        Ok(base2(d2::Shape::Cuboid(centred_box2(half_extents)?)).add_subclass(Self))
    }
}

#[pymethods]
impl Capsule2d {
    #[new]
    fn new(half_height: f64, radius: f64) -> PyResult<PyClassInitializer<Self>> {
        let capsule = capsule_along_y::<D2>(half_height, radius).map_err(shape_error)?;
        Ok(base2(d2::Shape::Capsule(capsule)).add_subclass(Self))
    }
}

#[pymethods]
impl ConvexPolygon {
    #[new]
    fn new(points: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let polygon =
            d2::ConvexPolygon::new(&D2::vectors(points, "points")?).map_err(shape_error)?;
        Ok(base2(d2::Shape::Polygon(polygon)).add_subclass(Self))
    }
}

/// A ring's vertices, without a closing vertex equal to the first.
fn ring(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<DVec2>> {
    let mut points = D2::vectors(obj, what)?;
    if points.len() > 1 && points.first() == points.last() {
        points.pop();
    }
    Ok(points)
}

#[pymethods]
impl Polygon {
    #[new]
    #[pyo3(signature = (exterior, holes=None))]
    fn new(
        exterior: &Bound<'_, PyAny>,
        holes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        if exterior.hasattr("interiors")? {
            let no_holes = |h: &Bound<'_, PyAny>| h.is_none() || h.len().is_ok_and(|n| n == 0);
            if holes.is_some_and(|h| !no_holes(h)) {
                return Err(PyTypeError::new_err(
                    "holes: a shapely polygon brings its own holes (its interiors); pass \
                     holes only with an exterior ring",
                ));
            }
            return from_shapely(exterior);
        }
        let outer = ring(exterior, "exterior")?;
        let mut inner = Vec::new();
        if let Some(holes) = holes {
            for (i, hole) in holes.try_iter()?.enumerate() {
                inner.push(ring(&hole?, &format!("holes[{i}]"))?);
            }
        }
        let polygon = d2::ConcavePolygon::new(outer, inner).map_err(shape_error)?;
        Ok(base2(polygon).add_subclass(Self))
    }
}

/// A polygon from a shapely-like object: `exterior.coords` and `interiors[i].coords`
/// (a z column is dropped).
fn from_shapely(polygon: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Polygon>> {
    let coords = |ring: Bound<'_, PyAny>, what: &str| -> PyResult<Vec<DVec2>> {
        let flat = xy_columns(&ring.getattr("coords")?, what)?;
        let mut points: Vec<DVec2> = flat.chunks_exact(2).map(DVec2::from_slice).collect();
        if points.len() > 1 && points.first() == points.last() {
            points.pop();
        }
        Ok(points)
    };
    let outer = coords(polygon.getattr("exterior")?, "exterior")?;
    let mut inner = Vec::new();
    for (i, hole) in polygon.getattr("interiors")?.try_iter()?.enumerate() {
        inner.push(coords(hole?, &format!("interiors[{i}]"))?);
    }
    let polygon = d2::ConcavePolygon::new(outer, inner).map_err(shape_error)?;
    Ok(base2(polygon).add_subclass(Polygon))
}

/// The x and y columns of an `(n, 2)` or `(n, 3)` coordinate array, flattened.
fn xy_columns(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<f64>> {
    crate::convert::not_numeric(obj, what)?;
    let array: PyArrayLike2<'_, f64, AllowTypeChange> = obj
        .extract()
        .map_err(|_| PyTypeError::new_err(format!("{what}: expected (n, 2) coordinates")))?;
    let columns = array.shape()[1];
    if !(2..=3).contains(&columns) {
        return Err(PyTypeError::new_err(format!(
            "{what}: expected (n, 2) or (n, 3) coordinates, got {columns} columns"
        )));
    }
    Ok(array
        .as_array()
        .rows()
        .into_iter()
        .flat_map(|r| [r[0], r[1]])
        .collect())
}

#[pymethods]
impl Polyline {
    #[new]
    #[pyo3(signature = (points, closed=false))]
    fn new(points: &Bound<'_, PyAny>, closed: bool) -> PyResult<PyClassInitializer<Self>> {
        let mut points = D2::vectors(points, "points")?;
        if closed && points.len() > 2 && points.first() == points.last() {
            points.pop();
        }
        let line = d2::Polyline::new(points, closed).map_err(shape_error)?;
        Ok(base2(line).add_subclass(Self))
    }
}

#[pymethods]
impl HeightField2d {
    #[new]
    fn new(
        heights: &Bound<'_, PyAny>,
        scale: &Bound<'_, PyAny>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let heights = convert::vector_of(heights, "heights")?;
        let field =
            d2::HeightField::new(heights, convert::vec2(scale, "scale")?).map_err(shape_error)?;
        Ok(base2(field).add_subclass(Self))
    }
}

#[pymethods]
impl Compound2d {
    #[new]
    fn new(parts: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let convex = |s: &d2::AnyShape| match s {
            d2::AnyShape::Convex(c) => Some(c.clone()),
            _ => None,
        };
        let compound =
            d2::Compound::new(self::parts::<D2, _>(parts, convex)?).map_err(shape_error)?;
        Ok(base2(compound).add_subclass(Self))
    }
}

#[pymethods]
impl Triangle2d {
    #[new]
    fn new(
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        c: &Bound<'_, PyAny>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let [a, b, c] = [(a, "a"), (b, "b"), (c, "c")].map(|(v, n)| convert::vec2(v, n));
        let triangle = d2::Triangle::new(a?, b?, c?).map_err(shape_error)?;
        Ok(base2(d2::Shape::Triangle(triangle)).add_subclass(Self))
    }
}

#[pymethods]
impl Segment2d {
    #[new]
    fn new(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let segment = d2::Segment::new(convert::vec2(a, "a")?, convert::vec2(b, "b")?)
            .map_err(shape_error)?;
        Ok(base2(d2::Shape::Segment(segment)).add_subclass(Self))
    }
}

/// A 3D shape as an instance of its kind's class.
pub fn wrap3(py: Python<'_>, inner: d3::AnyShape) -> PyResult<Py<PyAny>> {
    use d3::{AnyShape as A, Shape as S};
    let init = PyClassInitializer::from(Shape {
        inner: inner.clone(),
    });
    let object = match inner {
        A::Convex(S::Ball(_)) => Py::new(py, init.add_subclass(Sphere))?.into_any(),
        A::Convex(S::Cuboid(_)) => Py::new(py, init.add_subclass(Box))?.into_any(),
        A::Convex(S::Capsule(_)) => Py::new(py, init.add_subclass(Capsule))?.into_any(),
        A::Convex(S::Cylinder(_)) => Py::new(py, init.add_subclass(Cylinder))?.into_any(),
        A::Convex(S::Cone(_)) => Py::new(py, init.add_subclass(Cone))?.into_any(),
        A::Convex(S::RoundedCuboid(_)) => Py::new(py, init.add_subclass(RoundedBox))?.into_any(),
        A::Convex(S::Polyhedron(_)) => Py::new(py, init.add_subclass(ConvexHull))?.into_any(),
        A::Convex(S::Triangle(_)) => Py::new(py, init.add_subclass(Triangle))?.into_any(),
        A::Convex(S::Segment(_)) => Py::new(py, init.add_subclass(Segment))?.into_any(),
        A::TriMesh(_) => Py::new(py, init.add_subclass(TriMesh))?.into_any(),
        A::HeightField(_) => Py::new(py, init.add_subclass(HeightField))?.into_any(),
        A::Compound(_) => Py::new(py, init.add_subclass(Compound))?.into_any(),
    };
    Ok(object)
}

/// A 2D shape as an instance of its kind's class (rounded kinds, which have no class of
/// their own, as `Shape2d`).
pub fn wrap2(py: Python<'_>, inner: d2::AnyShape) -> PyResult<Py<PyAny>> {
    use d2::{AnyShape as A, Shape as S};
    let init = PyClassInitializer::from(Shape2d {
        inner: inner.clone(),
    });
    let object = match inner {
        A::Convex(S::Ball(_)) => Py::new(py, init.add_subclass(Circle))?.into_any(),
        A::Convex(S::Cuboid(_)) => Py::new(py, init.add_subclass(Rectangle))?.into_any(),
        A::Convex(S::Capsule(_)) => Py::new(py, init.add_subclass(Capsule2d))?.into_any(),
        A::Convex(S::Polygon(_)) => Py::new(py, init.add_subclass(ConvexPolygon))?.into_any(),
        A::Convex(S::Triangle(_)) => Py::new(py, init.add_subclass(Triangle2d))?.into_any(),
        A::Convex(S::Segment(_)) => Py::new(py, init.add_subclass(Segment2d))?.into_any(),
        A::Convex(_) => Py::new(py, init)?.into_any(),
        A::ConcavePolygon(_) => Py::new(py, init.add_subclass(Polygon))?.into_any(),
        A::Polyline(_) => Py::new(py, init.add_subclass(Polyline))?.into_any(),
        A::HeightField(_) => Py::new(py, init.add_subclass(HeightField2d))?.into_any(),
        A::Compound(_) => Py::new(py, init.add_subclass(Compound2d))?.into_any(),
    };
    Ok(object)
}

/// Reads a shape written by `Shape.to_json` (or pickled): a 3D shape from JSON, or
/// the pickled form, which prefixes the dimension (`"3{...}"` / `"2{...}"`).
#[pyfunction]
pub fn shape_from_json(py: Python<'_>, text: &str) -> PyResult<Py<PyAny>> {
    let bad = |e: serde_json::Error| PyValueError::new_err(format!("shape_from_json: {e}"));
    match text.as_bytes().first() {
        Some(b'2') => wrap2(py, serde_json::from_str(&text[1..]).map_err(bad)?),
        Some(b'3') => wrap3(py, serde_json::from_str(&text[1..]).map_err(bad)?),
        _ => {
            let e3 = match serde_json::from_str::<d3::AnyShape>(text) {
                Ok(shape) => return wrap3(py, shape),
                Err(e) => e,
            };
            let e2 = match serde_json::from_str::<d2::AnyShape>(text) {
                Ok(shape) => return wrap2(py, shape),
                Err(e) => e,
            };
            // Neither dimension reads it: the error of the one the text was meant for.
            // That is the one that read the whole structure and refused a value (a 3D
            // ball with a negative radius: serde gives such errors no position), else
            // the one that got farther.
            let reach = |e: &serde_json::Error| match e.line() {
                0 => (usize::MAX, 0),
                line => (line, e.column()),
            };
            let (e, dim) = match reach(&e2) > reach(&e3) {
                true => (e2, "2D"),
                false => (e3, "3D"),
            };
            Err(PyValueError::new_err(format!(
                "shape_from_json: not a shape of either dimension; as a {dim} shape: {e}"
            )))
        }
    }
}

/// Every shape class, for the module to register.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Shape>()?;
    m.add_class::<Shape2d>()?;
    m.add_class::<Sphere>()?;
    m.add_class::<Box>()?;
    m.add_class::<Capsule>()?;
    m.add_class::<Cylinder>()?;
    m.add_class::<Cone>()?;
    m.add_class::<RoundedBox>()?;
    m.add_class::<ConvexHull>()?;
    m.add_class::<Triangle>()?;
    m.add_class::<Segment>()?;
    m.add_class::<TriMesh>()?;
    m.add_class::<HeightField>()?;
    m.add_class::<Compound>()?;
    m.add_class::<Circle>()?;
    m.add_class::<Rectangle>()?;
    m.add_class::<Capsule2d>()?;
    m.add_class::<ConvexPolygon>()?;
    m.add_class::<Polygon>()?;
    m.add_class::<Polyline>()?;
    m.add_class::<HeightField2d>()?;
    m.add_class::<Compound2d>()?;
    m.add_class::<Triangle2d>()?;
    m.add_class::<Segment2d>()?;
    m.add_function(wrap_pyfunction!(shape_from_json, m)?)?;
    Ok(())
}
