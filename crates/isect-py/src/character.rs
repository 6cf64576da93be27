//! The character controller: `CharacterController` (3D) and `CharacterController2d`,
//! moving a shape through a world with a skin, slope limits, steps and snapping.

use crate::dim::{Dim, D2, D3};
use crate::world::{world_error, World, World2d};
use isect::character::{
    CharacterController as LibController, CharacterError, CharacterMove as LibMove,
};
use isect::world::{Filter, Handle, QueryFilter};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

type Any<'py> = Bound<'py, PyAny>;

fn character_error(e: CharacterError) -> PyErr {
    match e {
        CharacterError::StaleHandle(h) => world_error(isect::world::WorldError::StaleHandle(h)),
        CharacterError::Invalid(e) => crate::shape::shape_error(e),
        other => pyo3::exceptions::PyValueError::new_err(other.to_string()),
    }
}

crate::results::record! {
    /// One collision met during a move.
    CharacterCollision {
        /// The shape hit.
        handle: u64,
        /// Its surface normal, facing the character.
        normal: Py<PyAny>,
        /// The contact point.
        point: Py<PyAny>,
        /// How far the character had moved when it hit.
        translation: Py<PyAny>,
        /// The motion left at that moment.
        remaining: Py<PyAny>,
    }
}

crate::results::record! {
    /// What a move did.
    CharacterMove {
        /// The translation to apply to the character.
        translation: Py<PyAny>,
        /// True when the character ends on walkable ground.
        grounded: bool,
        /// `(handle, normal, point)` of the ground, or `None`.
        ground: Option<Py<PyAny>>,
        /// True when it slid down a slope too steep to stand on.
        sliding_down: bool,
        /// True when it stepped up onto a step.
        stepped: bool,
        /// True when it was snapped down to the ground.
        snapped: bool,
        /// The collisions met, in order.
        collisions: Vec<Py<CharacterCollision>>,
        /// Collide-and-slide iterations used.
        iterations: u32,
    }
}

impl CharacterMove {
    fn new<D: Dim>(py: Python<'_>, m: &LibMove<D::V>) -> PyResult<Self> {
        let ground = m
            .ground
            .as_ref()
            .map(|g| -> PyResult<Py<PyAny>> {
                let items = (
                    g.handle.to_bits(),
                    D::to_py(py, g.normal)?,
                    D::to_py(py, g.point)?,
                );
                Ok(PyTuple::new(
                    py,
                    [
                        items.0.into_pyobject(py)?.into_any().unbind(),
                        items.1,
                        items.2,
                    ],
                )?
                .into_any()
                .unbind())
            })
            .transpose()?;
        let collision = |c: &isect::character::CharacterCollision<D::V>| {
            let value = CharacterCollision {
                handle: c.handle.to_bits(),
                normal: D::to_py(py, c.normal)?,
                point: D::to_py(py, c.point)?,
                translation: D::to_py(py, c.translation)?,
                remaining: D::to_py(py, c.remaining)?,
            };
            Py::new(py, value)
        };
        Ok(Self {
            translation: D::to_py(py, m.translation)?,
            grounded: m.grounded,
            ground,
            sliding_down: m.sliding_down,
            stepped: m.stepped,
            snapped: m.snapped,
            collisions: m
                .collisions
                .iter()
                .map(collision)
                .collect::<PyResult<_>>()?,
            iterations: m.iterations,
        })
    }
}

/// A controller from its settings, each checked by the library.
fn controller<D: Dim>(
    up: &Any<'_>,
    skin: f64,
    slopes: Option<(f64, f64)>,
    step: Option<(f64, f64)>,
    snap_to_ground: Option<f64>,
    max_iterations: Option<u32>,
) -> PyResult<LibController<D::V>> {
    let mut c =
        LibController::new(D::vector(up, "up")?, skin).map_err(crate::shape::shape_error)?;
    let settle = |r: Result<LibController<D::V>, _>| r.map_err(crate::shape::shape_error);
    if let Some((climb, slide)) = slopes {
        c = settle(c.with_slopes(climb, slide))?;
    }
    if let Some((height, width)) = step {
        c = settle(c.with_step(height, width))?;
    }
    if let Some(distance) = snap_to_ground {
        c = settle(c.with_snap_to_ground(distance))?;
    }
    if let Some(n) = max_iterations {
        c = settle(c.with_max_iterations(n))?;
    }
    Ok(c)
}

macro_rules! controller_class {
    ($name:ident, $dim:ty, $world:ident, $doc:literal) => {
        #[doc = $doc]
        #[pyclass(frozen, module = "isect")]
        pub struct $name {
            inner: LibController<<$dim as Dim>::V>,
        }

        impl $name {
            /// The settings in the order of the constructor's arguments.
            fn settings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
                use pyo3::IntoPyObjectExt;
                PyTuple::new(py, [
                    <$dim>::to_py(py, self.inner.up)?.into_bound(py),
                    self.inner.skin.into_bound_py_any(py)?,
                    (self.inner.max_slope_climb, self.inner.min_slope_slide).into_bound_py_any(py)?,
                    self.inner.step.map(|s| (s.max_height, s.min_width)).into_bound_py_any(py)?,
                    self.inner.snap_to_ground.into_bound_py_any(py)?,
                    self.inner.max_iterations.into_bound_py_any(py)?,
                ])
            }
        }

        #[pymethods]
        impl $name {
            /// `up`: the up direction; `skin`: the gap kept from obstacles; `slopes`:
            /// `(max_climb, min_slide)` angles in radians; `step`: `(max_height,
            /// min_width)`; `snap_to_ground`: how far down to snap; `max_iterations`.
            #[new]
            #[pyo3(signature = (up, skin=0.01, slopes=None, step=None, snap_to_ground=None, max_iterations=None))]
            fn new(
                up: &Any<'_>,
                skin: f64,
                slopes: Option<(f64, f64)>,
                step: Option<(f64, f64)>,
                snap_to_ground: Option<f64>,
                max_iterations: Option<u32>,
            ) -> PyResult<Self> {
                Ok(Self { inner: controller::<$dim>(up, skin, slopes, step, snap_to_ground, max_iterations)? })
            }

            /// Moves `shape` placed at `pose` by `desired` through `world`, sliding along
            /// what it meets. Returns the `CharacterMove`; apply its `translation`.
            #[pyo3(signature = (world, shape, pose, desired, exclude=Vec::new()))]
            fn move_shape(
                &self,
                py: Python<'_>,
                world: PyRef<'_, $world>,
                shape: &Any<'_>,
                pose: Option<&Any<'_>>,
                desired: &Any<'_>,
                exclude: Vec<u64>,
            ) -> PyResult<CharacterMove> {
                let s = <$dim>::shape(shape).ok_or_else(|| pyo3::exceptions::PyTypeError::new_err("shape: expected a shape of the controller's dimension"))?;
                let (pose, desired) = (<$dim>::pose(pose, "pose")?, <$dim>::vector(desired, "desired")?);
                let excluded: Vec<Handle> = exclude.iter().map(|&b| Handle::from_bits(b)).collect();
                let filter = QueryFilter::new(Filter::ALL).excluding(&excluded);
                let m = self.inner.move_shape(world.inner(), s, &pose, desired, filter).map_err(character_error)?;
                CharacterMove::new::<$dim>(py, &m)
            }

            /// The unit up direction.
            #[getter]
            fn up(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
                <$dim>::to_py(py, self.inner.up)
            }

            /// The gap kept from obstacles.
            #[getter]
            fn skin(&self) -> f64 {
                self.inner.skin
            }

            /// `(max_climb, min_slide)`, radians from `up`.
            #[getter]
            fn slopes(&self) -> (f64, f64) {
                (self.inner.max_slope_climb, self.inner.min_slope_slide)
            }

            /// `(max_height, min_width)`, or `None`.
            #[getter]
            fn step(&self) -> Option<(f64, f64)> {
                self.inner.step.map(|s| (s.max_height, s.min_width))
            }

            /// How far down the character snaps to the ground, or `None`.
            #[getter]
            fn snap_to_ground(&self) -> Option<f64> {
                self.inner.snap_to_ground
            }

            /// The most casts of one slide.
            #[getter]
            fn max_iterations(&self) -> u32 {
                self.inner.max_iterations
            }

            /// A controller from its settings as stored, bit for bit (what pickling
            /// writes); checked as the constructor checks them.
            #[staticmethod]
            fn _from_state(
                up: &Any<'_>,
                skin: f64,
                slopes: (f64, f64),
                step: Option<(f64, f64)>,
                snap_to_ground: Option<f64>,
                max_iterations: u32,
            ) -> PyResult<Self> {
                let inner = LibController {
                    up: <$dim>::vector(up, "up")?,
                    skin,
                    max_slope_climb: slopes.0,
                    min_slope_slide: slopes.1,
                    step: step.map(|(max_height, min_width)| isect::character::StepSettings { max_height, min_width }),
                    snap_to_ground,
                    max_iterations,
                };
                inner.validate().map_err(crate::shape::shape_error)?;
                Ok(Self { inner })
            }

            /// Pickled through its settings as stored.
            fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
                let from_state = slf.get_type().getattr("_from_state")?;
                Ok((from_state, slf.get().settings(slf.py())?))
            }

            /// Equal when every setting is equal.
            fn __eq__(&self, other: &Self) -> bool {
                self.inner == other.inner
            }

            fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
                let names = ["up", "skin", "slopes", "step", "snap_to_ground", "max_iterations"];
                let settings = self.settings(py)?;
                let fields: Vec<_> = names.into_iter().zip(settings.iter()).collect();
                crate::results::call_repr(stringify!($name), &fields)
            }

            /// Moves the world's shape `handle` by `desired` (it never hits itself).
            fn move_handle(&self, py: Python<'_>, world: PyRef<'_, $world>, handle: u64, desired: &Any<'_>) -> PyResult<CharacterMove> {
                let desired = <$dim>::vector(desired, "desired")?;
                let m = self.inner.move_handle(world.inner(), Handle::from_bits(handle), desired, Filter::ALL).map_err(character_error)?;
                CharacterMove::new::<$dim>(py, &m)
            }
        }
    };
}

controller_class!(
    CharacterController,
    D3,
    World,
    "A 3D character controller (collide and slide, slopes, steps, snapping).\n\
     \n\
     A capsule standing on the ground, asked to move forward and down, moves forward only:\n\
     \n\
     >>> world = isect.World()\n\
     >>> ground = world.insert(isect.Box([10, 0.5, 10]), ((0, -0.5, 0), (0, 0, 0, 1)), static=True)\n\
     >>> move = isect.CharacterController([0, 1, 0]).move_shape(world, isect.Capsule(0.5, 0.3), ((3, 0.81, 0), (0, 0, 0, 1)), (1, -0.5, 0))\n\
     >>> move.translation, move.grounded\n\
     ((1.0, 0.0, 0.0), True)"
);
controller_class!(
    CharacterController2d,
    D2,
    World2d,
    "A 2D character controller (collide and slide, slopes, steps, snapping).\n\
     \n\
     >>> world = isect.World2d()\n\
     >>> ground = world.insert(isect.Rectangle([10, 0.5]), ((0, -0.5), 0.0), static=True)\n\
     >>> move = isect.CharacterController2d([0, 1]).move_shape(world, isect.Circle(0.5), ((0, 0.51), 0.0), (1, -1))\n\
     >>> move.translation, move.grounded\n\
     ((1.0, 0.0), True)"
);

/// The controller classes, for the module to register.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<CharacterController>()?;
    m.add_class::<CharacterController2d>()?;
    m.add_class::<CharacterMove>()?;
    m.add_class::<CharacterCollision>()?;
    Ok(())
}
