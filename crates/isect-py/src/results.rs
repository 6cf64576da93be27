//! The small answer objects of the single queries. Points and normals are tuples of
//! floats (`np.asarray` takes them as they are); the batch functions answer in arrays.

use crate::dim::Dim;
use isect::math::Vector;
use isect::query::cast_shapes::ShapeCastHit as LibCastHit;
use isect::query::contact::Contact as LibContact;
use isect::query::manifold::Manifold as LibManifold;
use isect::query::project_point::PointProjection as LibProjection;
use pyo3::prelude::*;

/// The closest points of two shapes.
#[pyclass(frozen, get_all, module = "isect")]
pub struct ClosestPoints {
    /// The distance (0 when touching or overlapping).
    pub distance: f64,
    /// The closest point on A.
    pub point_a: Py<PyAny>,
    /// The closest point on B.
    pub point_b: Py<PyAny>,
}

impl ClosestPoints {
    /// From the library's answer.
    pub fn new<D: Dim>(py: Python<'_>, distance: f64, a: D::V, b: D::V) -> PyResult<Self> {
        Ok(Self {
            distance,
            point_a: D::to_py(py, a)?,
            point_b: D::to_py(py, b)?,
        })
    }
}

#[pymethods]
impl ClosestPoints {
    fn __repr__(&self) -> String {
        format!(
            "ClosestPoints(distance={}, point_a={}, point_b={})",
            self.distance, self.point_a, self.point_b
        )
    }
}

/// A contact: `point_a - point_b = depth * normal`, the normal pointing from A to B.
#[pyclass(frozen, get_all, module = "isect")]
pub struct Contact {
    /// Unit normal from A to B.
    pub normal: Py<PyAny>,
    /// Penetration depth (negative when apart within the prediction).
    pub depth: f64,
    /// The contact point on A.
    pub point_a: Py<PyAny>,
    /// The contact point on B.
    pub point_b: Py<PyAny>,
}

impl Contact {
    /// From the library's answer.
    pub fn new<D: Dim>(py: Python<'_>, c: &LibContact<D::V>) -> PyResult<Self> {
        Ok(Self {
            normal: D::to_py(py, c.normal)?,
            depth: c.depth,
            point_a: D::to_py(py, c.point_a)?,
            point_b: D::to_py(py, c.point_b)?,
        })
    }
}

#[pymethods]
impl Contact {
    fn __repr__(&self) -> String {
        format!(
            "Contact(depth={}, normal={}, point_a={}, point_b={})",
            self.depth, self.normal, self.point_a, self.point_b
        )
    }
}

/// One point of a manifold.
#[pyclass(frozen, get_all, module = "isect")]
pub struct ManifoldPoint {
    /// The point on A.
    pub point_a: Py<PyAny>,
    /// The point on B.
    pub point_b: Py<PyAny>,
    /// Penetration depth at this point.
    pub depth: f64,
    /// `(reference_is_b, reference, incident)`: the touching features, stable from frame
    /// to frame while the same features touch (for warm starting).
    pub feature_id: (bool, u32, u32),
}

/// A contact manifold.
#[pyclass(frozen, get_all, module = "isect")]
pub struct Manifold {
    /// Unit normal from A to B, shared by the points.
    pub normal: Py<PyAny>,
    /// The points (`ManifoldPoint`), at most 2 in 2D and 4 in 3D.
    pub points: Vec<Py<ManifoldPoint>>,
}

impl Manifold {
    /// From the library's answer.
    pub fn new<D: Dim>(py: Python<'_>, m: &LibManifold<D::V>) -> PyResult<Self> {
        let point =
            |p: &isect::query::manifold::ManifoldPoint<D::V>| -> PyResult<Py<ManifoldPoint>> {
                let id = (p.id.reference_is_b, p.id.reference, p.id.incident);
                let value = ManifoldPoint {
                    point_a: D::to_py(py, p.point_a)?,
                    point_b: D::to_py(py, p.point_b)?,
                    depth: p.depth,
                    feature_id: id,
                };
                Py::new(py, value)
            };
        Ok(Self {
            normal: D::to_py(py, m.normal)?,
            points: m.points().iter().map(point).collect::<PyResult<_>>()?,
        })
    }
}

#[pymethods]
impl Manifold {
    fn __len__(&self) -> usize {
        self.points.len()
    }
    fn __repr__(&self) -> String {
        format!(
            "Manifold(normal={}, {} points)",
            self.normal,
            self.points.len()
        )
    }
}

/// A ray hit.
#[pyclass(frozen, get_all, module = "isect")]
pub struct RayHit {
    /// The ray parameter of the hit (in units of the ray's direction).
    pub t: f64,
    /// The hit point.
    pub point: Py<PyAny>,
    /// The unit surface normal (zero for a hit from inside a solid at `t = 0`).
    pub normal: Py<PyAny>,
    /// The triangle or part hit inside a composite, when known.
    pub part: Option<u32>,
}

impl RayHit {
    /// From the library's answer.
    pub fn new<D: Dim>(
        py: Python<'_>,
        h: &isect::shape::RayHit<D::V>,
        part: Option<u32>,
    ) -> PyResult<Self> {
        Ok(Self {
            t: h.t,
            point: D::to_py(py, h.point)?,
            normal: D::to_py(py, h.normal)?,
            part,
        })
    }
}

#[pymethods]
impl RayHit {
    fn __repr__(&self) -> String {
        format!(
            "RayHit(t={}, point={}, normal={})",
            self.t, self.point, self.normal
        )
    }
}

/// The first contact of two moving shapes.
#[pyclass(frozen, get_all, module = "isect")]
pub struct ShapeCastHit {
    /// The time of first contact.
    pub time: f64,
    /// Unit normal from A to B at that time.
    pub normal: Py<PyAny>,
    /// The contact point on A at that time.
    pub point_a: Py<PyAny>,
    /// The contact point on B at that time.
    pub point_b: Py<PyAny>,
    /// The depth at that time (positive only when they already overlapped at the start).
    pub depth: f64,
}

impl ShapeCastHit {
    /// From the library's answer.
    pub fn new<D: Dim>(py: Python<'_>, h: &LibCastHit<D::V>) -> PyResult<Self> {
        Ok(Self {
            time: h.time,
            normal: D::to_py(py, h.normal)?,
            point_a: D::to_py(py, h.point_a)?,
            point_b: D::to_py(py, h.point_b)?,
            depth: h.depth,
        })
    }
}

#[pymethods]
impl ShapeCastHit {
    fn __repr__(&self) -> String {
        format!("ShapeCastHit(time={}, normal={})", self.time, self.normal)
    }
}

/// A point's projection onto a shape.
#[pyclass(frozen, get_all, module = "isect")]
pub struct PointProjection {
    /// The projected point.
    pub point: Py<PyAny>,
    /// True when the query point was inside the shape.
    pub is_inside: bool,
    /// The distance from the query point to `point`.
    pub distance: f64,
}

impl PointProjection {
    /// From the library's answer for the query point `p`.
    pub fn new<D: Dim>(py: Python<'_>, p: D::V, q: &LibProjection<D::V>) -> PyResult<Self> {
        Ok(Self {
            point: D::to_py(py, q.point)?,
            is_inside: q.is_inside,
            distance: (q.point - p).length(),
        })
    }
}

#[pymethods]
impl PointProjection {
    fn __repr__(&self) -> String {
        format!(
            "PointProjection(point={}, is_inside={}, distance={})",
            self.point, self.is_inside, self.distance
        )
    }
}

/// Every answer class, for the module to register.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ClosestPoints>()?;
    m.add_class::<Contact>()?;
    m.add_class::<ManifoldPoint>()?;
    m.add_class::<Manifold>()?;
    m.add_class::<RayHit>()?;
    m.add_class::<ShapeCastHit>()?;
    m.add_class::<PointProjection>()?;
    Ok(())
}
