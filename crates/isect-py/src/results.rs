//! The small answer objects of the single queries. Points and normals are tuples of
//! floats (`np.asarray` takes them as they are); the batch functions answer in arrays.
//! Every answer is a plain record ([`record!`]): built from its fields in order
//! (`Contact(normal, depth, point_a, point_b)`), equal to another of its class with
//! equal fields, pickled through its fields, and shown as Python shows a constructor
//! call, every value in its Python `repr`.

use crate::dim::Dim;
use isect::math::Vector;
use isect::query::cast_shapes::ShapeCastHit as LibCastHit;
use isect::query::contact::Contact as LibContact;
use isect::query::manifold::Manifold as LibManifold;
use isect::query::project_point::PointProjection as LibProjection;
use pyo3::prelude::*;

/// `name(field=value, ...)` with each value's Python `repr`.
pub fn call_repr(name: &str, fields: &[(&str, Bound<'_, PyAny>)]) -> PyResult<String> {
    let parts = fields
        .iter()
        .map(|(field, value)| Ok(format!("{field}={}", value.repr()?)))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(format!("{name}({})", parts.join(", ")))
}

/// A frozen answer class with public fields, read-only attributes, a constructor
/// taking the fields in order, `==` by fields, pickling through the constructor and a
/// Pythonic `repr` (see the module's documentation).
macro_rules! record {
    (
        $(#[$doc:meta])*
        $name:ident {
            $( $(#[$fdoc:meta])* $field:ident : $ty:ty ),* $(,)?
        }
        $( methods { $($method:item)* } )?
    ) => {
        $(#[$doc])*
        #[pyclass(frozen, get_all, module = "isect")]
        pub struct $name {
            $( $(#[$fdoc])* pub $field: $ty, )*
        }

        #[pymethods]
        impl $name {
            #[new]
            #[pyo3(signature = ($($field),*))]
            #[allow(clippy::too_many_arguments)] // one argument a field
            fn py_new($($field: $ty),*) -> Self {
                Self { $($field),* }
            }

            fn __reduce__<'py>(
                slf: &Bound<'py, Self>,
            ) -> PyResult<(Bound<'py, ::pyo3::types::PyType>, Bound<'py, ::pyo3::types::PyTuple>)> {
                Ok((slf.get_type(), slf.get().py_fields(slf.py())?))
            }

            fn __eq__(&self, py: Python<'_>, other: &Self) -> PyResult<bool> {
                self.py_fields(py)?.eq(other.py_fields(py)?)
            }

            fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
                let values = self.py_fields(py)?;
                let names = [$(stringify!($field)),*];
                let fields: Vec<_> = names.into_iter().zip(values.iter()).collect();
                $crate::results::call_repr(stringify!($name), &fields)
            }

            $( $($method)* )?
        }

        impl $name {
            /// The fields as a Python tuple, in order.
            fn py_fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, ::pyo3::types::PyTuple>> {
                                ::pyo3::types::PyTuple::new(py, [$( ::pyo3::IntoPyObjectExt::into_bound_py_any(&self.$field, py)? ),*])
            }
        }
    };
}
pub(crate) use record;

record! {
    /// The closest points of two shapes.
    ClosestPoints {
        /// The distance (0 when touching or overlapping).
        distance: f64,
        /// The closest point on A.
        point_a: Py<PyAny>,
        /// The closest point on B.
        point_b: Py<PyAny>,
    }
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

record! {
    /// A contact: `point_a - point_b = depth * normal`, the normal pointing from A to B.
    Contact {
        /// Unit normal from A to B.
        normal: Py<PyAny>,
        /// Penetration depth (negative when apart within the prediction).
        depth: f64,
        /// The contact point on A.
        point_a: Py<PyAny>,
        /// The contact point on B.
        point_b: Py<PyAny>,
    }
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

record! {
    /// One point of a manifold.
    ManifoldPoint {
        /// The point on A.
        point_a: Py<PyAny>,
        /// The point on B.
        point_b: Py<PyAny>,
        /// Penetration depth at this point.
        depth: f64,
        /// `(reference_is_b, reference, incident)`: the touching features, stable from
        /// frame to frame while the same features touch (for warm starting).
        feature_id: (bool, u32, u32),
    }
}

record! {
    /// A contact manifold.
    Manifold {
        /// Unit normal from A to B, shared by the points.
        normal: Py<PyAny>,
        /// The points (`ManifoldPoint`), at most 2 in 2D and 4 in 3D.
        points: Vec<Py<ManifoldPoint>>,
    }
    methods {
        fn __len__(&self) -> usize {
            self.points.len()
        }
    }
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

record! {
    /// A ray hit.
    RayHit {
        /// The ray parameter of the hit (in units of the ray's direction).
        t: f64,
        /// The hit point.
        point: Py<PyAny>,
        /// The unit surface normal (zero for a hit from inside a solid at `t = 0`).
        normal: Py<PyAny>,
        /// The part of a composite shape hit: a mesh's or heightfield's triangle, a
        /// compound's part, a polyline's segment, a polygon's convex piece; `None` for
        /// a convex shape and for a ray starting inside a solid mesh.
        part: Option<u32>,
    }
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

record! {
    /// The first contact of two moving shapes.
    ShapeCastHit {
        /// The time of first contact.
        time: f64,
        /// Unit normal from A to B at that time.
        normal: Py<PyAny>,
        /// The contact point on A at that time.
        point_a: Py<PyAny>,
        /// The contact point on B at that time.
        point_b: Py<PyAny>,
        /// The depth at that time (positive only when they already overlapped at the start).
        depth: f64,
    }
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

record! {
    /// A point's projection onto a shape.
    PointProjection {
        /// The projected point.
        point: Py<PyAny>,
        /// True when the query point was inside the shape.
        is_inside: bool,
        /// The distance from the query point to `point`.
        distance: f64,
    }
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
