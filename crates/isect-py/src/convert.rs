//! Python values in and out: vectors, poses and numpy arrays, with the package's
//! errors (`TypeError` for a wrong type, shape or dtype; `ValueError` for a bad value).

use glam::{DMat3, DQuat, DVec2, DVec3};
use isect::math::{Pose2, Pose3, ROTATION_KEEP_ULPS};
use numpy::{
    AllowTypeChange, PyArray1, PyArrayLike1, PyArrayLike2, PyArrayMethods, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyFloat, PyInt, PyList, PyTuple, PyType};

/// How far a quaternion's length or a matrix's rotation may be from a rotation before
/// it is refused; within it the binding normalises (float32 data round-trip safely).
pub const ROTATION_TOLERANCE: f64 = 1e-6;

/// A `(rows, columns)` float64 matrix from any array-like (lists, integer arrays),
/// checking the column count. `what` names the argument in the error.
pub fn matrix(obj: &Bound<'_, PyAny>, columns: usize, what: &str) -> PyResult<Vec<f64>> {
    Ok(flat(&*matrix_array(obj, columns, what)?))
}

/// [`matrix`] left where numpy keeps it (converted to float64 only when it was not).
pub fn matrix_array<'py>(
    obj: &Bound<'py, PyAny>,
    columns: usize,
    what: &str,
) -> PyResult<PyArrayLike2<'py, f64, AllowTypeChange>> {
    not_numeric(obj, what)?;
    let array: PyArrayLike2<'_, f64, AllowTypeChange> = obj.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "{what}: expected a 2D array of numbers with {columns} columns"
        ))
    })?;
    let shape = array.shape();
    if shape[1] != columns {
        return Err(PyTypeError::new_err(format!(
            "{what}: expected shape (n, {columns}), got ({}, {})",
            shape[0], shape[1]
        )));
    }
    Ok(array)
}

/// The elements of an array in row-major order: one copy when it is contiguous (a
/// per-element walk of a dynamic-rank view cost ~10 ns an element).
pub fn flat<D: numpy::ndarray::Dimension>(array: &numpy::PyReadonlyArray<'_, f64, D>) -> Vec<f64> {
    match c_order(array) {
        Some(slice) => slice.to_vec(),
        None => array.as_array().iter().copied().collect(),
    }
}

/// The elements in place when they are stored row-major (numpy's `as_slice` also
/// takes a Fortran-order array, whose memory is column-major).
pub fn c_order<'a, D: numpy::ndarray::Dimension>(
    array: &'a numpy::PyReadonlyArray<'_, f64, D>,
) -> Option<&'a [f64]> {
    if array.is_c_contiguous() {
        array.as_slice().ok()
    } else {
        None
    }
}

/// A `TypeError` for an array, or a list numpy reads as an array, of a non-numeric
/// dtype (strings, objects such as `None`), which numpy would convert to numbers.
pub fn not_numeric(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<()> {
    let array = if obj.hasattr("dtype")? {
        obj.clone()
    } else {
        let numpy = obj.py().import("numpy")?;
        match numpy.call_method1("asarray", (obj,)) {
            Ok(a) => a,
            Err(_) => return Ok(()), // ragged or not array-like: numpy's extraction says so
        }
    };
    if numeric_dtype(&array) {
        return Ok(());
    }
    Err(PyTypeError::new_err(format!(
        "{what}: expected numbers, got an array of dtype {}",
        array.getattr("dtype")?
    )))
}

/// A 1D float64 array from any array-like.
pub fn vector_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<f64>> {
    not_numeric(obj, what)?;
    let array: PyArrayLike1<'_, f64, AllowTypeChange> = obj
        .extract()
        .map_err(|_| PyTypeError::new_err(format!("{what}: expected a 1D array of numbers")))?;
    Ok(flat(&array))
}

/// Exactly `N` numbers. Tuples and lists are read item by item (a numpy conversion
/// costs more than most queries, and would turn `None` into NaN and `"1"` into 1); a
/// contiguous float64 array of `N` is read in place (the general path's dtype check
/// and conversion cost about 0.7 µs); anything else goes through numpy (numeric
/// dtypes only).
pub fn fixed<const N: usize>(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<[f64; N]> {
    if let Ok(t) = obj.cast::<PyTuple>() {
        return numbers::<N, _>(t.len(), t.iter_borrowed().map(|x| number(&x)), what);
    }
    if let Ok(l) = obj.cast::<PyList>() {
        return numbers::<N, _>(l.len(), l.iter().map(|x| number(&x)), what);
    }
    if let Some(values) = float64_array::<N>(obj) {
        return Ok(values);
    }
    let values = vector_of(obj, what)?;
    values.try_into().map_err(|v: Vec<f64>| {
        PyTypeError::new_err(format!("{what}: expected {N} numbers, got {}", v.len()))
    })
}

/// The `N` numbers of a contiguous 1D float64 array; `None` for anything else (other
/// dtypes, lengths, strides and array-likes take the general path, which also words
/// the errors).
fn float64_array<const N: usize>(obj: &Bound<'_, PyAny>) -> Option<[f64; N]> {
    let array = obj.cast::<PyArray1<f64>>().ok()?.readonly();
    c_order(&array)?.try_into().ok()
}

/// `numpy.float64` when it is a subclass of `float` (`None` when it is not), looked up
/// once numpy is loaded.
static NUMPY_FLOAT64: PyOnceLock<Option<Py<PyType>>> = PyOnceLock::new();

/// One number as Python's `float()` reads it. A `float` and a `numpy.float64` (what
/// indexing a float64 array gives) are read directly: `PyFloat_AsDouble` would walk
/// numpy's seven-class MRO to find `float`, about 50 instructions a number.
#[inline]
fn number(item: &Bound<'_, PyAny>) -> PyResult<f64> {
    if let Ok(f) = item.cast_exact::<PyFloat>() {
        return Ok(f.value());
    }
    // Exact ints skip the look-up: they are the other usual item.
    if !item.is_exact_instance_of::<PyInt>() && is_numpy_float64(item) {
        // SAFETY: `numpy.float64` subclasses `float` (checked in `float64_of`), so its
        // instances are laid out as `PyFloatObject`s.
        return Ok(unsafe { pyo3::ffi::PyFloat_AS_DOUBLE(item.as_ptr()) });
    }
    item.extract()
}

/// True when `item`'s type is exactly `numpy.float64`. Nothing is imported here (an
/// import could run Python code that calls back into the package): until numpy is
/// loaded no item can be one of its scalars, and the type is looked up, outside the
/// once-lock, the first time it is.
fn is_numpy_float64(item: &Bound<'_, PyAny>) -> bool {
    let py = item.py();
    let float64 = match NUMPY_FLOAT64.get(py) {
        Some(found) => found,
        None => {
            let Some(numpy) = loaded_module(py, pyo3::intern!(py, "numpy")) else {
                return false;
            };
            let found = float64_of(&numpy);
            NUMPY_FLOAT64.get_or_init(py, || found)
        }
    };
    float64
        .as_ref()
        .is_some_and(|t| std::ptr::eq(item.get_type_ptr(), t.as_ptr().cast()))
}

/// The module `name` if it is in `sys.modules`, without importing it.
fn loaded_module<'py>(
    py: Python<'py>,
    name: &Bound<'py, pyo3::types::PyString>,
) -> Option<Bound<'py, PyAny>> {
    // SAFETY: `PyImport_GetModule` returns a new reference, or NULL when the module is
    // not loaded (or the lookup failed, whose error is cleared below).
    let module =
        unsafe { Bound::from_owned_ptr_or_opt(py, pyo3::ffi::PyImport_GetModule(name.as_ptr())) };
    if module.is_none() {
        drop(PyErr::take(py));
    }
    module
}

/// `numpy.float64` when it is a type and a subclass of `float`.
fn float64_of(numpy: &Bound<'_, PyAny>) -> Option<Py<PyType>> {
    let t = numpy.getattr("float64").ok()?.cast_into::<PyType>().ok()?;
    t.is_subclass_of::<PyFloat>().ok()?.then(|| t.unbind())
}

/// A sequence's `len` items, read as floats (Python's `float()` protocol: numbers and
/// numpy scalars pass, strings and `None` do not), as exactly `N` numbers.
fn numbers<const N: usize, E>(
    len: usize,
    items: impl Iterator<Item = Result<f64, E>>,
    what: &str,
) -> PyResult<[f64; N]> {
    if len != N {
        return Err(PyTypeError::new_err(format!(
            "{what}: expected {N} numbers, got {len}"
        )));
    }
    let mut out = [0.0; N];
    for (k, (slot, item)) in out.iter_mut().zip(items).enumerate() {
        *slot =
            item.map_err(|_| PyTypeError::new_err(format!("{what}: item {k} is not a number")))?;
    }
    Ok(out)
}

/// False for an object whose numpy dtype is not numeric (strings, objects): numpy
/// would convert those (`"1"` to 1, `None` to NaN) where a wrong type is an error.
/// True for objects without a dtype.
fn numeric_dtype(obj: &Bound<'_, PyAny>) -> bool {
    let Ok(kind) = obj.getattr("dtype").and_then(|d| d.getattr("kind")) else {
        return true;
    };
    kind.extract::<String>()
        .is_ok_and(|k| matches!(k.as_str(), "b" | "i" | "u" | "f"))
}

/// A 3D point or direction.
pub fn vec3(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<DVec3> {
    Ok(DVec3::from_array(fixed::<3>(obj, what)?))
}

/// A 2D point or direction.
pub fn vec2(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<DVec2> {
    Ok(DVec2::from_array(fixed::<2>(obj, what)?))
}

/// The two items of a `(translation, rotation)` pair: a tuple or a list of two items
/// (no homogeneous matrix has two rows); `None` for anything else.
#[inline]
fn pose_pair<'py>(
    obj: &Bound<'py, PyAny>,
) -> PyResult<Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)>> {
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        if tuple.len() == 2 {
            return Ok(Some((tuple.get_item(0)?, tuple.get_item(1)?)));
        }
    } else if let Ok(list) = obj.cast::<PyList>() {
        if list.len() == 2 {
            return Ok(Some((list.get_item(0)?, list.get_item(1)?)));
        }
    }
    Ok(None)
}

/// True for a `(translation, rotation)` pair: a tuple or list of two items.
pub fn is_pose_pair(obj: &Bound<'_, PyAny>) -> bool {
    matches!(pose_pair(obj), Ok(Some(_)))
}

/// The shape of `obj` as numpy reads it, when it reads it as an array of numbers.
pub fn array_shape(obj: &Bound<'_, PyAny>) -> Option<Vec<usize>> {
    if !numeric_dtype(obj) {
        return None;
    }
    let array = obj
        .py()
        .import("numpy")
        .ok()?
        .call_method1("asarray", (obj,))
        .ok()?;
    if !numeric_dtype(&array) {
        return None;
    }
    array.getattr("shape").ok()?.extract().ok()
}

/// What a refused argument is, for an error: its array shape when numpy reads it as
/// an array of numbers, else its type.
pub fn describe(obj: &Bound<'_, PyAny>) -> String {
    match array_shape(obj) {
        Some(shape) => format!("shape {}", python_shape(&shape)),
        None => obj
            .get_type()
            .name()
            .map_or_else(|_| "an object".to_owned(), |n| format!("a {n}")),
    }
}

/// An array shape as Python prints it: `(3,)`, `(4, 2)`.
pub fn python_shape(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => {
            let parts: Vec<String> = shape.iter().map(usize::to_string).collect();
            format!("({})", parts.join(", "))
        }
    }
}

/// A 3D pose: `None` (identity), `(translation, quaternion)` with the quaternion in
/// scalar-last order `(x, y, z, w)`, or a 4×4 homogeneous matrix.
pub fn pose3(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Pose3<f64>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Pose3::new(DVec3::ZERO, DQuat::IDENTITY));
    };
    if let Some(pose) = crate::pose::as_pose3(obj, what, crate::pose::Form::Placed) {
        return pose;
    }
    if let Some((t, q)) = pose_pair(obj)? {
        let t = vec3(&t, what)?;
        let q = fixed::<4>(&q, what)?;
        return pose3_from_parts(t, q, what);
    }
    match matrix(obj, 4, what) {
        Ok(m) if m.len() == 16 => pose3_from_matrix(&m, what),
        _ => Err(PyTypeError::new_err(format!(
            "{what}: expected None, an isect.Pose, (translation, quaternion xyzw) or a 4x4 \
             matrix, got {}",
            describe(obj)
        ))),
    }
}

/// A 3D pose from a translation and a scalar-last quaternion.
pub fn pose3_from_parts(t: DVec3, q: [f64; 4], what: &str) -> PyResult<Pose3<f64>> {
    let q = DQuat::from_array(q);
    Ok(Pose3::new(t, unit_quaternion(q, what)?))
}

/// A finite quaternion unit to rounding ([`ROTATION_KEEP_ULPS`]) is kept as it is; one
/// within [`ROTATION_TOLERANCE`] of unit length is normalised; a
/// farther one is refused; a non-finite one passes, and the queries answer it with
/// their documented miss.
fn unit_quaternion(q: DQuat, what: &str) -> PyResult<DQuat> {
    unit_quaternion_or_none(q).ok_or_else(|| {
        let length = q.length();
        PyValueError::new_err(format!(
            "{what}: quaternion length {length} is not 1 (components are x, y, z, w)"
        ))
    })
}

/// [`unit_quaternion`] without building its error (a batch's rows: `None` is refused).
#[inline]
pub fn unit_quaternion_or_none(q: DQuat) -> Option<DQuat> {
    if !q.is_finite() {
        return Some(q);
    }
    let length_squared = q.length_squared();
    if (length_squared - 1.0).abs() <= ROTATION_KEEP_ULPS * f64::EPSILON {
        // Unit to rounding: kept bit for bit, as the library keeps such a rotation.
        return Some(q);
    }
    let length = length_squared.sqrt();
    ((length - 1.0).abs() <= ROTATION_TOLERANCE).then(|| q / length)
}

/// A 3D pose from a row-major 4×4 homogeneous matrix.
pub fn pose3_from_matrix(m: &[f64], what: &str) -> PyResult<Pose3<f64>> {
    let row = |r: usize| &m[4 * r..4 * r + 4];
    if row(3) != [0.0, 0.0, 0.0, 1.0] && m.iter().all(|x| x.is_finite()) {
        return Err(PyValueError::new_err(format!(
            "{what}: the last row of a pose matrix must be (0, 0, 0, 1)"
        )));
    }
    let rotation = DMat3::from_cols_array(&[m[0], m[4], m[8], m[1], m[5], m[9], m[2], m[6], m[10]]);
    let t = DVec3::new(m[3], m[7], m[11]);
    if !rotation.is_finite() {
        return Ok(Pose3::new(t, DQuat::from_array([f64::NAN; 4])));
    }
    check_orthonormal(&rotation, what)?;
    Ok(Pose3::new(t, DQuat::from_mat3(&rotation).normalize()))
}

fn check_orthonormal(r: &DMat3, what: &str) -> PyResult<()> {
    let off = (r.transpose() * *r - DMat3::IDENTITY).to_cols_array();
    let worst = off.iter().fold(0.0f64, |w, x| w.max(x.abs()));
    if worst > ROTATION_TOLERANCE || r.determinant() < 0.0 {
        return Err(PyValueError::new_err(format!(
            "{what}: the upper-left 3x3 block is not a rotation (off by {worst:.3e})"
        )));
    }
    Ok(())
}

/// A 2D pose: `None` (identity), `(translation, angle)` (radians, counter-clockwise), or
/// a 3×3 homogeneous matrix.
pub fn pose2(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Pose2<f64>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Pose2::new(DVec2::ZERO, 0.0));
    };
    if let Some(pose) = crate::pose::as_pose2(obj, what, crate::pose::Form::Placed) {
        return pose;
    }
    if let Some((t, angle)) = pose_pair(obj)? {
        let t = vec2(&t, what)?;
        let angle: f64 = angle
            .extract()
            .map_err(|_| PyTypeError::new_err(format!("{what}: the angle must be a number")))?;
        return Ok(Pose2::new(t, angle));
    }
    match matrix(obj, 3, what) {
        Ok(m) if m.len() == 9 => pose2_from_matrix(&m, what),
        _ => Err(PyTypeError::new_err(format!(
            "{what}: expected None, an isect.Pose, (translation, angle) or a 3x3 matrix, \
             got {}",
            describe(obj)
        ))),
    }
}

/// A 2D pose from a row-major 3×3 homogeneous matrix.
pub fn pose2_from_matrix(m: &[f64], what: &str) -> PyResult<Pose2<f64>> {
    let t = DVec2::new(m[2], m[5]);
    if !m.iter().all(|x| x.is_finite()) {
        return Ok(Pose2::new(t, f64::NAN));
    }
    let rotation = DMat3::from_cols_array(&[m[0], m[3], 0.0, m[1], m[4], 0.0, 0.0, 0.0, 1.0]);
    if m[6..9] != [0.0, 0.0, 1.0] {
        return Err(PyValueError::new_err(format!(
            "{what}: the last row of a pose matrix must be (0, 0, 1)"
        )));
    }
    check_orthonormal(&rotation, what)?;
    Ok(Pose2::new(t, m[3].atan2(m[0])))
}

/// A vector as a Python tuple.
pub fn tuple3(py: Python<'_>, v: DVec3) -> PyResult<Py<PyAny>> {
    Ok(PyTuple::new(py, v.to_array())?.into_any().unbind())
}

/// A vector as a Python tuple.
pub fn tuple2(py: Python<'_>, v: DVec2) -> PyResult<Py<PyAny>> {
    Ok(PyTuple::new(py, v.to_array())?.into_any().unbind())
}
