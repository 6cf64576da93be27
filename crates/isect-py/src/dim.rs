//! What differs between 2D and 3D in the bindings, behind one trait, so that every query
//! and batch function is written once and instantiated for [`D2`] and [`D3`].

use crate::convert::{self, python_shape};
use crate::pose::{self, Form};
use crate::shape::{Shape, Shape2d};
use glam::{DQuat, DVec2, DVec3};
use isect::algo::gjk::GjkVector;
use isect::math::{Pose2, Pose3};
use isect::query::dispatch::{self, DispatchShape};
use isect::query::ProjectPoint;
use isect::shape::error::pose_passes_as_is;
use numpy::ndarray::s;
use numpy::{AllowTypeChange, PyArrayLike2, PyArrayLikeDyn, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::ops::Range;

/// One dimension of the package: its vector, pose and shape enum, and how they cross
/// the Python boundary.
pub trait Dim: Sized + 'static {
    /// The vector (`DVec2` or `DVec3`).
    type V: GjkVector<Scalar = f64, Pose = Self::Pose> + Send + Sync;
    /// The pose.
    type Pose: Copy + Send + Sync;
    /// The shape enum every query dispatches on.
    type Shape: DispatchShape<Self::V> + ProjectPoint<Self::V> + Send + Sync + Clone;
    /// The number of vector components.
    const N: usize;
    /// The columns of one row of a flat pose array: `x, y, z, qx, qy, qz, qw` in 3D,
    /// `x, y, angle` in 2D.
    const POSE_COLUMNS: usize;
    /// The columns of a pose row, named for errors.
    const ROW_NAMES: &'static str;
    /// The pair form of one pose, named for errors.
    const PAIR_NAME: &'static str;

    /// The shape behind a Python shape of this dimension, if it is one.
    fn shape<'a>(obj: &'a Bound<'_, PyAny>) -> Option<&'a Self::Shape>;
    /// A vector from a sequence of `N` numbers.
    fn vector(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Self::V>;
    /// A vector from `N` components.
    fn from_slice(values: &[f64]) -> Self::V;
    /// The components of a vector, appended to `out`.
    fn extend(out: &mut Vec<f64>, v: Self::V);
    /// A vector as a Python tuple.
    fn to_py(py: Python<'_>, v: Self::V) -> PyResult<Py<PyAny>>;
    /// A pose argument (`None`, a tuple, or a homogeneous matrix).
    fn pose(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Self::Pose>;
    /// A pose argument as the pair queries take it ([`dispatch::entering_pose`]): an
    /// `isect.Pose` was entered once when it was built, any other form is here.
    fn entered_pose(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Self::Pose>;
    /// A pose from one row of a flat pose array.
    fn pose_from_row(row: &[f64], what: &str) -> PyResult<Self::Pose>;
    /// [`pose_from_row`](Self::pose_from_row) without building its error: `None`
    /// where it refuses the row (a batch parses each row with it on the workers).
    fn pose_from_row_or_none(row: &[f64]) -> Option<Self::Pose>;
    /// A row's pose as the pair queries take it: `Some(Some(pose))` entered
    /// ([`dispatch::entered_pose`]), `Some(None)` for a pose they answer with their
    /// miss, `None` for a row [`pose_from_row_or_none`](Self::pose_from_row_or_none)
    /// refuses.
    #[inline]
    fn entered_row(row: &[f64]) -> Option<Option<Self::Pose>> {
        Self::pose_from_row_or_none(row).map(|p| dispatch::entered_pose::<Self::V>(&p))
    }
    /// A pose from a row-major homogeneous matrix.
    fn pose_from_matrix(m: &[f64], what: &str) -> PyResult<Self::Pose>;
    /// A pose as the tuple `pose` reads: `(translation, quaternion xyzw)` or
    /// `(translation, angle)`.
    fn pose_to_py(py: Python<'_>, pose: &Self::Pose) -> PyResult<Py<PyAny>>;

    /// `n` vectors from an `(n, N)` array.
    fn vectors(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Self::V>> {
        let (array, mut buffer) = (VectorArray::<Self>::new(obj, what)?, Vec::new());
        let rows = array.copy_rows(0..array.len(), &mut buffer);
        Ok((0..array.len()).map(|k| rows.get(k)).collect())
    }

    /// Poses from an `(n, POSE_COLUMNS)` array or an `(n, N+1, N+1)` array of matrices.
    fn poses(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Self::Pose>> {
        let array = PoseArray::<Self>::new(obj, what)?;
        let width = array.width;
        each_row(array.flat(), width, what, |row, w| {
            pose_of::<Self>(width, row, w)
        })
    }
}

/// An array's numbers as float64 in row-major order, copied while the GIL is held: a
/// batch then reads them on every core with the GIL released, and no Python thread
/// can write them meanwhile (numpy's buffer itself could change under the workers).
pub struct Numbers {
    flat: Vec<f64>,
}

impl Numbers {
    /// The numbers of `obj` and its shape; a `TypeError` (saying `expected`) for
    /// anything numpy does not read as an array of numbers.
    fn new(obj: &Bound<'_, PyAny>, what: &str, expected: &str) -> PyResult<(Self, Vec<usize>)> {
        crate::convert::not_numeric(obj, what)?;
        let array: PyArrayLikeDyn<'_, f64, AllowTypeChange> = obj
            .extract()
            .map_err(|_| PyTypeError::new_err(format!("{what}: expected {expected}")))?;
        let shape = array.shape().to_vec();
        let flat = crate::convert::flat(&array);
        Ok((Self { flat }, shape))
    }

    /// The numbers, row-major.
    pub fn flat(&self) -> &[f64] {
        &self.flat
    }
}

/// A pose array's numbers ([`Numbers`]).
pub struct PoseArray<D: Dim> {
    numbers: Numbers,
    /// Numbers a pose: `POSE_COLUMNS` for rows, `(N+1)²` for matrices.
    pub width: usize,
    dim: std::marker::PhantomData<D>,
}

impl<D: Dim> PoseArray<D> {
    /// An `(n, POSE_COLUMNS)` array of rows or an `(n, N+1, N+1)` array of matrices;
    /// a `TypeError` for anything else.
    pub fn new(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Self> {
        let (numbers, shape) = Numbers::new(obj, what, "an array of poses")?;
        let k = D::N + 1;
        let width = match shape.as_slice() {
            [_, c] if *c == D::POSE_COLUMNS => D::POSE_COLUMNS,
            [_, r, c] if *r == k && *c == k => k * k,
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "{what}: expected shape (n, {}) or (n, {k}, {k}), got {}",
                    D::POSE_COLUMNS,
                    python_shape(&shape)
                )))
            }
        };
        Ok(Self {
            numbers,
            width,
            dim: std::marker::PhantomData,
        })
    }

    /// The numbers, row-major.
    pub fn flat(&self) -> &[f64] {
        self.numbers.flat()
    }

    /// The number of poses.
    pub fn len(&self) -> usize {
        self.flat().len() / self.width
    }
}

/// An `(n, N)` array of vectors, left where numpy keeps it: its rows are copied, a
/// block at a time, while the GIL is held ([`VectorArray::copy_rows`]), so a batch
/// reads its own copy on the workers and never numpy's buffer.
pub struct VectorArray<'py, D: Dim> {
    array: PyArrayLike2<'py, f64, AllowTypeChange>,
    dim: std::marker::PhantomData<D>,
}

impl<'py, D: Dim> VectorArray<'py, D> {
    /// The vectors of an `(n, N)` array; a `TypeError` for anything else.
    pub fn new(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Self> {
        Ok(Self {
            array: convert::matrix_array(obj, D::N, what)?,
            dim: std::marker::PhantomData,
        })
    }

    /// The number of vectors.
    pub fn len(&self) -> usize {
        self.array.shape()[0]
    }

    /// The vectors `rows`, copied into `buffer` (whose old contents are dropped).
    pub fn copy_rows<'b>(&self, rows: Range<usize>, buffer: &'b mut Vec<f64>) -> VectorRows<'b, D> {
        buffer.clear();
        match convert::c_order(&self.array) {
            Some(flat) => buffer.extend_from_slice(&flat[rows.start * D::N..rows.end * D::N]),
            None => buffer.extend(self.array.as_array().slice(s![rows, ..]).iter().copied()),
        }
        VectorRows {
            flat: buffer,
            dim: std::marker::PhantomData,
        }
    }
}

/// Vectors copied from a [`VectorArray`].
#[derive(Copy, Clone)]
pub struct VectorRows<'a, D: Dim> {
    flat: &'a [f64],
    dim: std::marker::PhantomData<D>,
}

impl<D: Dim> VectorRows<'_, D> {
    /// Vector `k`.
    pub fn get(&self, k: usize) -> D::V {
        D::from_slice(&self.flat[k * D::N..(k + 1) * D::N])
    }
}

/// The pose of a row of `width` numbers of a [`PoseArray`] ([`Dim::pose_from_row`] or
/// [`Dim::pose_from_matrix`]); needs no GIL.
pub fn pose_of<D: Dim>(width: usize, row: &[f64], what: &str) -> PyResult<D::Pose> {
    if width == D::POSE_COLUMNS {
        D::pose_from_row(row, what)
    } else {
        D::pose_from_matrix(row, what)
    }
}

/// `parse` of every row of `width` numbers in `flat`, into a vector sized once (a
/// collected `Result` grows it by reallocation, a tenth of a cheap batch's time).
fn each_row<T>(
    flat: &[f64],
    width: usize,
    what: &str,
    parse: impl Fn(&[f64], &str) -> PyResult<T>,
) -> PyResult<Vec<T>> {
    let mut out = Vec::with_capacity(flat.len() / width);
    for (i, row) in flat.chunks_exact(width).enumerate() {
        out.push(named_row(i, what, |w| parse(row, w))?);
    }
    Ok(out)
}

/// `parse(what)`, whose error names row `i` (`what[i]`). The name is only formatted
/// on an error: formatting it for every row cost more than the query of a row.
fn named_row<T>(i: usize, what: &str, parse: impl Fn(&str) -> PyResult<T>) -> PyResult<T> {
    parse(what).or_else(|_| parse(&format!("{what}[{i}]")))
}

/// Three dimensions.
pub struct D3;
/// Two dimensions.
pub struct D2;

impl Dim for D3 {
    type V = DVec3;
    type Pose = Pose3<f64>;
    type Shape = isect::d3_f64::AnyShape;
    const N: usize = 3;
    const POSE_COLUMNS: usize = 7;
    const ROW_NAMES: &'static str = "x, y, z, qx, qy, qz, qw";
    const PAIR_NAME: &'static str = "(translation, quaternion xyzw)";

    fn shape<'a>(obj: &'a Bound<'_, PyAny>) -> Option<&'a Self::Shape> {
        obj.cast::<Shape>().ok().map(|s| &s.get().inner)
    }
    fn vector(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<DVec3> {
        convert::vec3(obj, what)
    }
    fn from_slice(values: &[f64]) -> DVec3 {
        DVec3::from_slice(values)
    }
    fn extend(out: &mut Vec<f64>, v: DVec3) {
        out.extend_from_slice(&v.to_array());
    }
    fn to_py(py: Python<'_>, v: DVec3) -> PyResult<Py<PyAny>> {
        convert::tuple3(py, v)
    }
    fn pose(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Self::Pose> {
        convert::pose3(obj, what)
    }
    #[inline]
    fn entered_pose(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Self::Pose> {
        if let Some(pose) = obj.and_then(|o| pose::as_pose3(o, what, Form::Entered)) {
            return pose;
        }
        Ok(dispatch::entering_pose::<DVec3>(&Self::pose(obj, what)?))
    }
    fn pose_from_row(row: &[f64], what: &str) -> PyResult<Self::Pose> {
        let t = DVec3::from_slice(&row[..3]);
        convert::pose3_from_parts(t, [row[3], row[4], row[5], row[6]], what)
    }
    #[inline]
    fn entered_row(row: &[f64]) -> Option<Option<Self::Pose>> {
        // The usual row (unit to rounding, in range) passes the one check both steps
        // would make of it.
        let pose = Pose3::new(
            DVec3::new(row[0], row[1], row[2]),
            DQuat::from_array([row[3], row[4], row[5], row[6]]),
        );
        if pose_passes_as_is(&pose) {
            return Some(Some(pose));
        }
        Self::pose_from_row_or_none(row).map(|p| dispatch::entered_pose::<DVec3>(&p))
    }
    #[inline]
    fn pose_from_row_or_none(row: &[f64]) -> Option<Self::Pose> {
        let q = DQuat::from_array([row[3], row[4], row[5], row[6]]);
        let q = convert::unit_quaternion_or_none(q)?;
        Some(Pose3::new(DVec3::new(row[0], row[1], row[2]), q))
    }
    fn pose_from_matrix(m: &[f64], what: &str) -> PyResult<Self::Pose> {
        convert::pose3_from_matrix(m, what)
    }
    fn pose_to_py(py: Python<'_>, pose: &Self::Pose) -> PyResult<Py<PyAny>> {
        let q = PyTuple::new(py, pose.rotation.to_array())?;
        Ok((convert::tuple3(py, pose.translation)?, q)
            .into_pyobject(py)?
            .into_any()
            .unbind())
    }
}

impl Dim for D2 {
    type V = DVec2;
    type Pose = Pose2<f64>;
    type Shape = isect::d2_f64::AnyShape;
    const N: usize = 2;
    const POSE_COLUMNS: usize = 3;
    const ROW_NAMES: &'static str = "x, y, angle";
    const PAIR_NAME: &'static str = "(translation, angle)";

    fn shape<'a>(obj: &'a Bound<'_, PyAny>) -> Option<&'a Self::Shape> {
        obj.cast::<Shape2d>().ok().map(|s| &s.get().inner)
    }
    fn vector(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<DVec2> {
        convert::vec2(obj, what)
    }
    fn from_slice(values: &[f64]) -> DVec2 {
        DVec2::from_slice(values)
    }
    fn extend(out: &mut Vec<f64>, v: DVec2) {
        out.extend_from_slice(&v.to_array());
    }
    fn to_py(py: Python<'_>, v: DVec2) -> PyResult<Py<PyAny>> {
        convert::tuple2(py, v)
    }
    fn pose(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Self::Pose> {
        convert::pose2(obj, what)
    }
    #[inline]
    fn entered_pose(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Self::Pose> {
        if let Some(pose) = obj.and_then(|o| pose::as_pose2(o, what, Form::Entered)) {
            return pose;
        }
        Ok(dispatch::entering_pose::<DVec2>(&Self::pose(obj, what)?))
    }
    fn pose_from_row(row: &[f64], _what: &str) -> PyResult<Self::Pose> {
        Ok(Pose2::new(DVec2::new(row[0], row[1]), row[2]))
    }
    #[inline]
    fn pose_from_row_or_none(row: &[f64]) -> Option<Self::Pose> {
        Some(Pose2::new(DVec2::new(row[0], row[1]), row[2]))
    }
    fn pose_from_matrix(m: &[f64], what: &str) -> PyResult<Self::Pose> {
        convert::pose2_from_matrix(m, what)
    }
    fn pose_to_py(py: Python<'_>, pose: &Self::Pose) -> PyResult<Py<PyAny>> {
        let angle = pose.rotation.angle();
        Ok((convert::tuple2(py, pose.translation)?, angle)
            .into_pyobject(py)?
            .into_any()
            .unbind())
    }
}
