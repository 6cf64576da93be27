//! `isect.Pose`: a pose checked and converted once, for code that calls the queries
//! in a loop. Every query takes it wherever it takes a pose; a tuple or matrix is
//! parsed again on every call, which costs more than most queries.

use glam::{DQuat, DVec2, DVec3};
use isect::math::{Pose2, Pose3};
use isect::query::dispatch;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::convert;

/// The pose of either dimension.
#[derive(Clone, Copy)]
enum Placed {
    D2(Pose2<f64>),
    D3(Pose3<f64>),
}

/// A rigid pose built once: `Pose(translation, rotation=None)`, 3D from a translation
/// of 3 and a scalar-last quaternion `(x, y, z, w)` (identity when omitted), 2D from a
/// translation of 2 and an angle in radians (0 when omitted); or
/// `Pose.from_matrix(m)` from a 4x4 or 3x3 homogeneous matrix. Checked as the
/// tuple form is (a quaternion far from unit length is a `ValueError`); non-finite
/// values are kept, and the queries answer them with their documented miss. It
/// pickles bit for bit and compares equal by its stored state.
#[pyclass(frozen, module = "isect")]
pub struct Pose {
    placed: Placed,
    /// `placed` as the pair queries take it ([`dispatch::entering_pose`]), found once here.
    entered: Placed,
}

#[pymethods]
impl Pose {
    #[new]
    #[pyo3(signature = (translation, rotation=None))]
    fn new(translation: &Bound<'_, PyAny>, rotation: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let t = convert::vector_of(translation, "translation")?;
        match *t.as_slice() {
            [x, y] => {
                let angle = match rotation {
                    Some(r) => r.extract().map_err(|_| {
                        PyTypeError::new_err("rotation: a 2D pose's rotation is an angle")
                    })?,
                    None => 0.0,
                };
                Ok(Pose::of(Placed::D2(Pose2::new(DVec2::new(x, y), angle))))
            }
            [x, y, z] => {
                let q = match rotation {
                    Some(r) => convert::fixed::<4>(r, "rotation")?,
                    None => DQuat::IDENTITY.to_array(),
                };
                let pose = convert::pose3_from_parts(DVec3::new(x, y, z), q, "rotation")?;
                Ok(Pose::of(Placed::D3(pose)))
            }
            _ => Err(PyTypeError::new_err(format!(
                "translation: expected 2 or 3 components, got {}",
                t.len()
            ))),
        }
    }

    /// A pose from a 4x4 (3D) or 3x3 (2D) homogeneous matrix.
    #[staticmethod]
    fn from_matrix(m: &Bound<'_, PyAny>) -> PyResult<Self> {
        let what = "matrix";
        if let Ok(flat) = convert::matrix(m, 4, what) {
            if flat.len() == 16 {
                return Ok(Pose::of(Placed::D3(convert::pose3_from_matrix(
                    &flat, what,
                )?)));
            }
        }
        match convert::matrix(m, 3, what) {
            Ok(flat) if flat.len() == 9 => Ok(Pose::of(Placed::D2(convert::pose2_from_matrix(
                &flat, what,
            )?))),
            _ => Err(PyTypeError::new_err(
                "matrix: expected a 4x4 or 3x3 homogeneous matrix",
            )),
        }
    }

    /// 2 or 3.
    #[getter]
    fn dim(&self) -> usize {
        match self.placed {
            Placed::D2(_) => 2,
            Placed::D3(_) => 3,
        }
    }

    /// The translation, a tuple.
    #[getter]
    fn translation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        match self.placed {
            Placed::D2(p) => PyTuple::new(py, p.translation.to_array()),
            Placed::D3(p) => PyTuple::new(py, p.translation.to_array()),
        }
    }

    /// The quaternion `(x, y, z, w)` (3D) or the angle (2D).
    #[getter]
    fn rotation(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(match self.placed {
            Placed::D2(p) => p.rotation.angle().into_pyobject(py)?.into_any().unbind(),
            Placed::D3(p) => PyTuple::new(py, p.rotation.to_array())?.into_any().unbind(),
        })
    }

    /// A pose from its stored state, bit for bit (what pickling writes): the
    /// translation and, in 3D, the quaternion as stored; in 2D the cosine and sine.
    #[staticmethod]
    fn _from_state(translation: Vec<f64>, state: Vec<f64>) -> PyResult<Self> {
        match (translation.as_slice(), state.as_slice()) {
            (&[x, y], &[cos, sin]) => {
                let mut pose = Pose2::new(DVec2::new(x, y), 0.0);
                (pose.rotation.cos, pose.rotation.sin) = (cos, sin);
                Ok(Pose::of(Placed::D2(pose)))
            }
            (&[x, y, z], &[qx, qy, qz, qw]) => Ok(Pose::of(Placed::D3(Pose3::new(
                DVec3::new(x, y, z),
                DQuat::from_xyzw(qx, qy, qz, qw),
            )))),
            _ => Err(PyTypeError::new_err("not a Pose state")),
        }
    }

    /// Pickled as its stored state, so a copy answers every query bit for bit.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let (t, state) = slf.get().state();
        let from_state = py.get_type::<Pose>().getattr("_from_state")?;
        (from_state, (t, state))
            .into_pyobject(py)
            .map(|t| t.into_any())
    }

    /// Equal when the stored states are equal bit for bit.
    fn __eq__(&self, other: &Self) -> bool {
        self.state() == other.state()
    }

    /// `Pose((x, y, z), (qx, qy, qz, qw))` or `Pose((x, y), angle)`, numbers as Python
    /// writes them.
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Pose({}, {})",
            self.translation(py)?.repr()?,
            self.rotation(py)?.bind(py).repr()?
        ))
    }
}

impl Pose {
    /// The pose `placed`, entered once for the pair queries.
    fn of(placed: Placed) -> Self {
        let entered = match placed {
            Placed::D2(p) => Placed::D2(dispatch::entering_pose::<DVec2>(&p)),
            Placed::D3(p) => Placed::D3(dispatch::entering_pose::<DVec3>(&p)),
        };
        Pose { placed, entered }
    }

    /// The translation and the rotation as stored (a quaternion, or cosine and sine).
    fn state(&self) -> (Vec<f64>, Vec<f64>) {
        match self.placed {
            Placed::D2(p) => (
                p.translation.to_array().to_vec(),
                vec![p.rotation.cos, p.rotation.sin],
            ),
            Placed::D3(p) => (
                p.translation.to_array().to_vec(),
                p.rotation.to_array().to_vec(),
            ),
        }
    }
}

/// Which of an `isect.Pose`'s poses a caller reads: as built, or as the pair
/// queries take it.
#[derive(Clone, Copy)]
pub enum Form {
    /// As built (worlds, shapes and batches enter it themselves).
    Placed,
    /// Entered ([`dispatch::entering_pose`]), for the pair queries' shape methods.
    Entered,
}

/// The pose of `obj` in `form`; `None` when `obj` is not an `isect.Pose`. Inlined
/// with its callers: a pair query reads two poses, and every call costs.
#[inline]
fn placed<'a>(obj: &'a Bound<'_, PyAny>, form: Form) -> Option<&'a Placed> {
    let pose = obj.cast::<Pose>().ok()?.get();
    Some(match form {
        Form::Placed => &pose.placed,
        Form::Entered => &pose.entered,
    })
}

/// The entered 3D pose of an `isect.Pose` ([`Form::Entered`]); `None` for anything
/// else, a 2D pose too, which the general path then reads or refuses.
#[inline]
pub fn entered3<'a>(obj: &'a Bound<'_, PyAny>) -> Option<&'a Pose3<f64>> {
    match placed(obj, Form::Entered)? {
        Placed::D3(p) => Some(p),
        Placed::D2(_) => None,
    }
}

/// The 3D pose of an `isect.Pose`; `None` when `obj` is not one; a `TypeError` for a
/// 2D one.
#[inline]
pub fn as_pose3(obj: &Bound<'_, PyAny>, what: &str, form: Form) -> Option<PyResult<Pose3<f64>>> {
    Some(match placed(obj, form)? {
        Placed::D3(p) => Ok(*p),
        Placed::D2(_) => Err(PyTypeError::new_err(format!(
            "{what}: a 2D Pose for a 3D shape"
        ))),
    })
}

/// The 2D pose of an `isect.Pose`; `None` when `obj` is not one; a `TypeError` for a
/// 3D one.
#[inline]
pub fn as_pose2(obj: &Bound<'_, PyAny>, what: &str, form: Form) -> Option<PyResult<Pose2<f64>>> {
    Some(match placed(obj, form)? {
        Placed::D2(p) => Ok(*p),
        Placed::D3(_) => Err(PyTypeError::new_err(format!(
            "{what}: a 3D Pose for a 2D shape"
        ))),
    })
}

/// Registers `Pose`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Pose>()
}
