//! The collision world: `World` (3D) and `World2d`, one macro over the dimension.
//! Handles are Python integers (`Handle::to_bits`); a stale handle, a refused shape or
//! pose and a bad batch raise `WorldError`, after which the world is unchanged.

use crate::batch::{rays, RayHits};
use crate::dim::{pose_of, Dim, PoseArray, D2, D3};
use crate::results::{Contact, Manifold, RayHit};
use isect::algo::gjk::GjkVector;
use isect::shape::error::{check_pose, pose_passes_as_is};
use isect::world::{
    ConfigurationCheck, Filter, Handle, Motion, QueryFilter, World as LibWorld,
    WorldDistance as LibDistance,
};
use numpy::PyArray1;
use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

type Any<'py> = Bound<'py, PyAny>;

create_exception!(
    isect,
    WorldError,
    PyValueError,
    "A world refused a call (stale handle, bad shape or pose, bad batch); the world is unchanged."
);

/// A world's refusal as the `WorldError` exception.
pub(crate) fn world_error(e: isect::world::WorldError) -> PyErr {
    WorldError::new_err(e.to_string())
}

/// The filter of `group` / `mask` bits (everything by default).
fn filter(group: Option<u32>, mask: Option<u32>) -> Filter {
    Filter {
        group: group.unwrap_or(Filter::ALL.group),
        mask: mask.unwrap_or(Filter::ALL.mask),
    }
}

/// Handles as Python integers.
fn handle_ints(handles: &[Handle]) -> Vec<u64> {
    handles.iter().map(|h| h.to_bits()).collect()
}

/// Python integers as handles.
fn handles(ints: &[u64]) -> Vec<Handle> {
    ints.iter().map(|&b| Handle::from_bits(b)).collect()
}

crate::results::record! {
    /// A world distance answer.
    WorldDistance {
        /// The nearest shape's handle.
        handle: u64,
        /// The distance (signed queries: negative inside or overlapping).
        distance: f64,
        /// The nearest point on that shape.
        point: Py<PyAny>,
        /// The matching point on the query point or shape.
        query_point: Py<PyAny>,
        /// Unit normal from the query to the shape.
        normal: Py<PyAny>,
    }
}

impl WorldDistance {
    fn new<D: Dim>(py: Python<'_>, d: &LibDistance<D::V>) -> PyResult<Self> {
        Ok(Self {
            handle: d.handle.to_bits(),
            distance: d.distance,
            point: D::to_py(py, d.point)?,
            query_point: D::to_py(py, d.query_point)?,
            normal: D::to_py(py, d.normal)?,
        })
    }
}

/// `check_configurations`' answers as arrays: `(collides, clearance, nearest_link,
/// nearest_handle)`, `-1` where nothing lies within the bound; `None` (a configuration
/// with a pose the world refuses) answers `False`, `nan`, `-1`, `-1`.
fn configuration_arrays<D: Dim>(
    py: Python<'_>,
    checks: &[Option<&ConfigurationCheck<D::V>>],
) -> PyResult<Py<PyAny>> {
    let collides: Vec<bool> = checks
        .iter()
        .map(|c| c.is_some_and(|c| c.collides))
        .collect();
    let clearance: Vec<f64> = checks
        .iter()
        .map(|c| c.map_or(f64::NAN, |c| c.clearance))
        .collect();
    let nearest = checks.iter().map(|c| c.and_then(|c| c.nearest.as_ref()));
    let link: Vec<i64> = nearest
        .clone()
        .map(|n| n.map_or(-1, |(l, _)| *l as i64))
        .collect();
    let handle: Vec<i64> = nearest
        .map(|n| n.map_or(-1, |(_, d)| d.handle.to_bits() as i64))
        .collect();
    let arrays = (
        PyArray1::from_vec(py, collides),
        PyArray1::from_vec(py, clearance),
        PyArray1::from_vec(py, link),
        PyArray1::from_vec(py, handle),
    );
    Ok(arrays.into_pyobject(py)?.into_any().unbind())
}

/// `pose` as the world stores it, or the world's refusal of it (not finite, a rotation
/// off unit length, a translation beyond the coordinate limit).
fn world_pose<V: GjkVector>(pose: &V::Pose) -> Result<V::Pose, isect::shape::ShapeError> {
    if pose_passes_as_is::<V, _>(pose) {
        return Ok(*pose);
    }
    check_pose::<V, _>("World", "rotation", "translation", pose)
}

/// `World.check_configurations`: the poses parsed row by row (an error names the row,
/// its configuration and its link), the configurations whose poses the world takes
/// checked by the library on every core, the others answered with the miss.
fn check_configurations_in<D: Dim>(
    py: Python<'_>,
    world: &LibWorld<D::V, D::Shape>,
    links: &[D::Shape],
    poses: &Any<'_>,
    max_distance: f64,
) -> PyResult<Py<PyAny>> {
    let array = PoseArray::<D>::new(poses, "poses")?;
    let (m, width) = (links.len(), array.width);
    if m == 0 || array.len() % m != 0 {
        return Err(world_error(isect::world::WorldError::BatchLength {
            poses: array.len(),
            links: m,
        }));
    }
    let mut poses = Vec::with_capacity(array.len());
    for (i, row) in array.flat().chunks_exact(width).enumerate() {
        let pose = pose_of::<D>(width, row, "poses").or_else(|_| {
            let what = format!("poses[{i}] (configuration {}, link {})", i / m, i % m);
            pose_of::<D>(width, row, &what)
        })?;
        poses.push(pose);
    }
    let usable: Vec<bool> = poses
        .chunks_exact(m)
        .map(|c| c.iter().all(|p| world_pose::<D::V>(p).is_ok()))
        .collect();
    let kept: Vec<D::Pose> = match usable.iter().all(|&u| u) {
        true => poses,
        false => poses
            .chunks_exact(m)
            .zip(&usable)
            .filter(|(_, &u)| u)
            .flat_map(|(c, _)| c.iter().copied())
            .collect(),
    };
    let checks = py
        .detach(|| world.check_configurations(links, &kept, max_distance, Filter::ALL))
        .map_err(world_error)?;
    let mut checks = checks.iter();
    let answers: Vec<Option<&ConfigurationCheck<D::V>>> = usable
        .iter()
        .map(|&u| if u { checks.next() } else { None })
        .collect();
    configuration_arrays::<D>(py, &answers)
}

/// Link shapes of dimension `D` from a Python sequence.
fn links<D: Dim>(obj: &Any<'_>) -> PyResult<Vec<D::Shape>> {
    let mut out = Vec::new();
    for (i, item) in obj.try_iter()?.enumerate() {
        let item = item?;
        let shape = D::shape(&item).ok_or_else(|| {
            PyTypeError::new_err(format!(
                "links[{i}]: expected a shape of the world's dimension"
            ))
        })?;
        out.push(shape.clone());
    }
    Ok(out)
}

macro_rules! world_class {
    ($name:ident, $dim:ty, $doc:literal) => {
        #[doc = $doc]
        #[pyclass(module = "isect")]
        pub struct $name {
            world: LibWorld<<$dim as Dim>::V, <$dim as Dim>::Shape>,
        }

        impl $name {
            /// The library's world.
            pub(crate) fn inner(&self) -> &LibWorld<<$dim as Dim>::V, <$dim as Dim>::Shape> {
                &self.world
            }

            fn shape_arg<'a>(obj: &'a Any<'_>) -> PyResult<&'a <$dim as Dim>::Shape> {
                <$dim>::shape(obj).ok_or_else(|| PyTypeError::new_err(concat!("shape: expected a shape of ", stringify!($name), "'s dimension")))
            }
        }

        #[pymethods]
        impl $name {
            /// An empty world. `prediction`: report pairs up to this far apart;
            /// `manifolds`: compute full manifolds instead of single contacts.
            #[new]
            #[pyo3(signature = (prediction=0.0, manifolds=false))]
            fn new(prediction: f64, manifolds: bool) -> PyResult<Self> {
                let mut world = LibWorld::with_prediction(prediction).map_err(world_error)?;
                world.set_manifolds(manifolds);
                Ok(Self { world })
            }

            /// Inserts a shape and returns its handle. `static=True` for level geometry
            /// (never paired with other static shapes); `group` / `mask` filter bits.
            #[pyo3(signature = (shape, pose=None, *, r#static=false, user_data=0, group=None, mask=None))]
            #[allow(clippy::too_many_arguments)]
            fn insert(&mut self, shape: &Any<'_>, pose: Option<&Any<'_>>, r#static: bool, user_data: u64, group: Option<u32>, mask: Option<u32>) -> PyResult<u64> {
                let s = Self::shape_arg(shape)?.clone();
                let pose = <$dim>::pose(pose, "pose")?;
                let motion = if r#static { Motion::Static } else { Motion::Moving };
                let f = filter(group, mask);
                let h = match motion {
                    Motion::Static => self.world.insert_static(s, pose, f),
                    Motion::Moving => self.world.insert(s, pose, f),
                }
                .map_err(world_error)?;
                self.world.set_user_data(h, user_data).map_err(world_error)?;
                Ok(h.to_bits())
            }

            /// Removes a shape (its touching pairs end at the next `update`).
            fn remove(&mut self, handle: u64) -> PyResult<()> {
                self.world.remove(Handle::from_bits(handle)).map(drop).map_err(world_error)
            }

            /// Moves a shape.
            fn set_pose(&mut self, handle: u64, pose: &Any<'_>) -> PyResult<()> {
                let pose = <$dim>::pose(Some(pose), "pose")?;
                self.world.set_pose(Handle::from_bits(handle), pose).map_err(world_error)
            }

            /// Moves many shapes: `poses` is an array of poses, one per handle (`(n, 7)`
            /// rows or `(n, 4, 4)` matrices in 3D, `(n, 3)` rows `x, y, angle` or
            /// `(n, 3, 3)` matrices in 2D: a 3x3 array is three rows). Every handle
            /// and pose is checked before any shape moves: on an error no shape has
            /// moved.
            fn set_poses(&mut self, handles: Vec<u64>, poses: &Any<'_>) -> PyResult<()> {
                let poses = <$dim>::poses(poses, "poses")?;
                if poses.len() != handles.len() {
                    return Err(PyTypeError::new_err(format!("poses: {} poses for {} handles", poses.len(), handles.len())));
                }
                let hs = self::handles(&handles);
                if let Some((i, h)) = hs.iter().enumerate().find(|(_, h)| self.world.shape(**h).is_none()) {
                    let e = isect::world::WorldError::StaleHandle(*h);
                    return Err(WorldError::new_err(format!("handles[{i}]: {e}")));
                }
                for (i, p) in poses.iter().enumerate() {
                    world_pose::<<$dim as Dim>::V>(p).map_err(|e| WorldError::new_err(format!(
                        "{}.set_poses: poses[{i}]: {e}", stringify!($name)
                    )))?;
                }
                // The poses passed the world's own check, so no move below fails; should
                // one fail all the same, the shapes already moved are put back.
                let old: Vec<_> = hs.iter().filter_map(|h| self.world.pose(*h).copied()).collect();
                for (k, (h, p)) in hs.iter().zip(poses).enumerate() {
                    if let Err(e) = self.world.set_pose(*h, p) {
                        for (h, p) in hs[..k].iter().zip(&old).rev() {
                            let _ = self.world.set_pose(*h, *p);
                        }
                        return Err(world_error(e));
                    }
                }
                Ok(())
            }

            /// Excludes (or re-allows) the pair `a`, `b` from contacts.
            #[pyo3(signature = (a, b, excluded=true))]
            fn set_pair_excluded(&mut self, a: u64, b: u64, excluded: bool) -> PyResult<()> {
                self.world.set_pair_excluded(Handle::from_bits(a), Handle::from_bits(b), excluded).map_err(world_error)
            }

            /// The shape of a handle.
            fn shape(&self, py: Python<'_>, handle: u64) -> PyResult<Py<PyAny>> {
                let s = self.world.shape(Handle::from_bits(handle)).ok_or_else(|| world_error(isect::world::WorldError::StaleHandle(Handle::from_bits(handle))))?;
                <$dim as Wrap>::wrap(py, s.clone())
            }

            /// The pose of a handle.
            fn pose(&self, py: Python<'_>, handle: u64) -> PyResult<Py<PyAny>> {
                let p = self.world.pose(Handle::from_bits(handle)).ok_or_else(|| world_error(isect::world::WorldError::StaleHandle(Handle::from_bits(handle))))?;
                <$dim>::pose_to_py(py, p)
            }

            /// The user data of a handle.
            fn user_data(&self, handle: u64) -> PyResult<u64> {
                self.world.user_data(Handle::from_bits(handle)).ok_or_else(|| world_error(isect::world::WorldError::StaleHandle(Handle::from_bits(handle))))
            }

            /// Sets the user data of a handle.
            fn set_user_data(&mut self, handle: u64, data: u64) -> PyResult<()> {
                self.world.set_user_data(Handle::from_bits(handle), data).map_err(world_error)
            }

            /// Every live handle, in slot order.
            fn handles(&self) -> Vec<u64> {
                self.world.handles().map(Handle::to_bits).collect()
            }

            fn __len__(&self) -> usize {
                self.world.len()
            }

            /// Runs the broad and narrow phases; returns `(started, stopped)`: the pairs
            /// `(a, b)` that began and ended touching.
            fn update(&mut self, py: Python<'_>) -> (Vec<(u64, u64)>, Vec<(u64, u64)>) {
                let world = &mut self.world;
                let events = py.detach(|| world.update());
                let ints = |v: &[(Handle, Handle)]| v.iter().map(|(a, b)| (a.to_bits(), b.to_bits())).collect();
                (ints(&events.started), ints(&events.stopped))
            }

            /// The touching pairs of the last update: `[(a, b, Contact), ...]`. With
            /// `manifolds=True`, a pair with a mesh, chain, heightfield or compound
            /// touching along several normals (a box in a corner) has one entry each.
            fn contacts(&self, py: Python<'_>) -> PyResult<Vec<(u64, u64, Contact)>> {
                self.world
                    .contacts()
                    .iter()
                    .map(|c| Ok((c.a.to_bits(), c.b.to_bits(), Contact::new::<$dim>(py, &c.contact)?)))
                    .collect()
            }

            /// The touching pairs' manifolds (with `manifolds=True`): `[(a, b, Manifold), ...]`,
            /// one entry for each normal a pair touches along (as `contacts`).
            fn manifolds(&self, py: Python<'_>) -> PyResult<Vec<(u64, u64, Manifold)>> {
                self.world
                    .contacts()
                    .iter()
                    .map(|c| Ok((c.a.to_bits(), c.b.to_bits(), Manifold::new::<$dim>(py, &c.manifold)?)))
                    .collect()
            }

            /// The first shape hit by the ray: `(handle, RayHit)` or `None` (also for a
            /// NaN or infinite origin or direction). `RayHit.part` is the part of a
            /// composite shape hit (a mesh's triangle, a compound's part, ...).
            /// `exclude`: handles to skip.
            #[pyo3(signature = (origin, direction, max_t=f64::INFINITY, solid=true, exclude=Vec::new()))]
            fn cast_ray(&self, py: Python<'_>, origin: &Any<'_>, direction: &Any<'_>, max_t: f64, solid: bool, exclude: Vec<u64>) -> PyResult<Option<(u64, RayHit)>> {
                let ray = crate::query::ray::<$dim>(origin, direction)?;
                let excluded = handles(&exclude);
                let f = QueryFilter::new(Filter::ALL).excluding(&excluded);
                self.world
                    .cast_ray_with(&ray, max_t, solid, f)
                    .map(|h| Ok((h.handle.to_bits(), RayHit::new::<$dim>(py, &h.hit, h.part)?)))
                    .transpose()
            }

            /// N rays: `RayHits` whose `id` is the handle hit (`-1` for a miss). Runs on
            /// every core without the GIL.
            #[pyo3(signature = (origins, directions, max_t=f64::INFINITY))]
            fn cast_rays(&self, py: Python<'_>, origins: &Any<'_>, directions: &Any<'_>, max_t: f64) -> PyResult<RayHits> {
                let rays = rays::<$dim>(origins, directions)?;
                let world = &self.world;
                let hits = py.detach(|| world.cast_rays(&rays, max_t, Filter::ALL));
                let hits: Vec<_> = hits.into_iter().map(|h| h.map(|h| (h.handle.to_bits() as i64, h.hit))).collect();
                RayHits::from_hits::<$dim>(py, &hits)
            }

            /// Handles of the shapes containing `point`.
            fn shapes_at_point(&self, point: &Any<'_>) -> PyResult<Vec<u64>> {
                let p = <$dim>::vector(point, "point")?;
                Ok(handle_ints(&self.world.shapes_at_point(p, Filter::ALL)))
            }

            /// Handles of the shapes touching `shape` placed at `pose`.
            fn intersecting_shapes(&self, shape: &Any<'_>, pose: Option<&Any<'_>>) -> PyResult<Vec<u64>> {
                let (s, pose) = (Self::shape_arg(shape)?, <$dim>::pose(pose, "pose")?);
                Ok(handle_ints(&self.world.intersecting_shapes(&pose, s, Filter::ALL)))
            }

            /// The nearest shape to `point` within `max_distance`, or `None`.
            #[pyo3(signature = (point, max_distance=f64::INFINITY, exclude=Vec::new()))]
            fn nearest_to_point(&self, py: Python<'_>, point: &Any<'_>, max_distance: f64, exclude: Vec<u64>) -> PyResult<Option<WorldDistance>> {
                let p = <$dim>::vector(point, "point")?;
                let excluded = handles(&exclude);
                let f = QueryFilter::new(Filter::ALL).excluding(&excluded);
                self.world.nearest_to_point(p, max_distance, f).map(|d| WorldDistance::new::<$dim>(py, &d)).transpose()
            }

            /// Like `nearest_to_point`, negative inside a solid shape (minus the
            /// distance to its boundary).
            #[pyo3(signature = (point, max_distance=f64::INFINITY))]
            fn signed_distance_to_point(&self, py: Python<'_>, point: &Any<'_>, max_distance: f64) -> PyResult<Option<WorldDistance>> {
                let p = <$dim>::vector(point, "point")?;
                self.world.signed_distance_to_point(p, max_distance, Filter::ALL).map(|d| WorldDistance::new::<$dim>(py, &d)).transpose()
            }

            /// The nearest shape to `shape` placed at `pose`, within `max_distance`.
            #[pyo3(signature = (shape, pose, max_distance=f64::INFINITY))]
            fn nearest_to_shape(&self, py: Python<'_>, shape: &Any<'_>, pose: Option<&Any<'_>>, max_distance: f64) -> PyResult<Option<WorldDistance>> {
                let (s, pose) = (Self::shape_arg(shape)?, <$dim>::pose(pose, "pose")?);
                self.world.nearest_to_shape(&pose, s, max_distance, Filter::ALL).map(|d| WorldDistance::new::<$dim>(py, &d)).transpose()
            }

            /// Every shape within `distance` of `shape` placed at `pose`:
            /// `[(handle, distance), ...]` sorted by handle.
            fn shapes_within_distance(&self, shape: &Any<'_>, pose: Option<&Any<'_>>, distance: f64) -> PyResult<Vec<(u64, f64)>> {
                let (s, pose) = (Self::shape_arg(shape)?, <$dim>::pose(pose, "pose")?);
                let found = self.world.shapes_within_distance(&pose, s, distance, Filter::ALL);
                Ok(found.into_iter().map(|(h, d)| (h.to_bits(), d)).collect())
            }

            /// N configurations of M links: `links` the M link shapes, `poses` N·M poses
            /// (configuration i's link j at row i·M + j). Returns the arrays
            /// `(collides, clearance, nearest_link, nearest_handle)`. Runs on every core
            /// without the GIL. A configuration with a NaN, infinite or out-of-range
            /// pose answers the miss, row by row: `False`, `nan`, `-1`, `-1`.
            #[pyo3(signature = (links, poses, max_distance=f64::INFINITY))]
            fn check_configurations(&self, py: Python<'_>, links: &Any<'_>, poses: &Any<'_>, max_distance: f64) -> PyResult<Py<PyAny>> {
                let links = self::links::<$dim>(links)?;
                check_configurations_in::<$dim>(py, &self.world, &links, poses, max_distance)
            }

            /// Checks the world's internal invariants (for tests); raises on a defect.
            fn validate(&self) -> PyResult<()> {
                self.world.validate().map_err(|d| PyValueError::new_err(format!("{d:?}")))
            }

            /// The world as JSON text: every shape with its pose, filter, motion and
            /// user data, the handles (they stay valid in the world read back) and
            /// the settings. Contacts are not written: `from_json`'s world reports
            /// its touching pairs as started at its first `update`.
            fn to_json(&self) -> PyResult<String> {
                serde_json::to_string(&self.world).map_err(|e| WorldError::new_err(e.to_string()))
            }

            /// The world of `to_json`'s text; raises `WorldError` naming what is wrong
            /// with bad text (a refused shape or pose, an inconsistent handle table).
            #[staticmethod]
            fn from_json(text: &str) -> PyResult<Self> {
                serde_json::from_str(text)
                    .map(|world| Self { world })
                    .map_err(|e| WorldError::new_err(format!("{}.from_json: {e}", stringify!($name))))
            }

            /// Pickling (for multiprocessing and dask) through `to_json`.
            fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
                let text = slf.borrow().to_json()?;
                Ok((slf.get_type().getattr("from_json")?, (text,)))
            }

            fn __repr__(&self) -> String {
                format!("<isect.{} with {} shapes>", stringify!($name), self.world.len())
            }
        }
    };
}

/// Shapes back to their Python classes.
trait Wrap: Dim {
    fn wrap(py: Python<'_>, shape: Self::Shape) -> PyResult<Py<PyAny>>;
}

impl Wrap for D3 {
    fn wrap(py: Python<'_>, shape: Self::Shape) -> PyResult<Py<PyAny>> {
        crate::shape::wrap3(py, shape)
    }
}

impl Wrap for D2 {
    fn wrap(py: Python<'_>, shape: Self::Shape) -> PyResult<Py<PyAny>> {
        crate::shape::wrap2(py, shape)
    }
}

world_class!(
    World,
    D3,
    "A 3D collision world: shapes with poses, pairs kept across updates, scene queries.\n\
     \n\
     >>> world = isect.World()\n\
     >>> ground = world.insert(isect.Box([10, 0.5, 10]), ((0, -0.5, 0), (0, 0, 0, 1)), static=True)\n\
     >>> ball = world.insert(isect.Sphere(0.5), ((0, 0.4, 0), (0, 0, 0, 1)))\n\
     >>> world.update()  # (pairs that started touching, pairs that stopped)\n\
     ([(0, 1)], [])\n\
     >>> [(a, b, round(contact.depth, 6)) for a, b, contact in world.contacts()]\n\
     [(0, 1, 0.1)]\n\
     >>> handle, hit = world.cast_ray((0, 5, 0), (0, -1, 0))\n\
     >>> handle == ball, hit.t\n\
     (True, 4.1)"
);
world_class!(
    World2d,
    D2,
    "A 2D collision world: shapes with poses, pairs kept across updates, scene queries.\n\
     \n\
     >>> world = isect.World2d()\n\
     >>> ground = world.insert(isect.Rectangle([10, 0.5]), ((0, -0.5), 0.0), static=True)\n\
     >>> disc = world.insert(isect.Circle(0.5), ((2, 0.4), 0.0))\n\
     >>> world.update()\n\
     ([(0, 1)], [])\n\
     >>> world.shapes_at_point((2, 0.2)) == [disc]\n\
     True"
);

/// The world classes and their error, for the module to register.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<World>()?;
    m.add_class::<World2d>()?;
    m.add_class::<WorldDistance>()?;
    m.add("WorldError", m.py().get_type::<WorldError>())?;
    Ok(())
}
