//! Batch queries over numpy arrays: the inputs are copied while holding the GIL, then
//! the work runs on every core (rayon) with the GIL released, and the answers come back
//! as arrays. A row with NaN or infinite input answers with the row-wise miss (no hit,
//! `False`, `nan`); the batch itself never fails for it.

use crate::convert;
use crate::dim::{pose_of, Dim, PoseArray, VectorArray, D2, D3};
use crate::query::{by_dim, by_pair, pair, which, Pair, Which};
use isect::math::Isometry;
use isect::query::dispatch;
use isect::query::dispatch::DispatchShape;
use isect::query::ProjectPoint;
use isect::shape::{Ray, RayHit};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PySlice;
use rayon::prelude::*;
use std::mem::MaybeUninit;

type Any<'py> = Bound<'py, PyAny>;

/// Rows handed to one rayon task: small enough to balance, large enough to amortise.
const CHUNK: usize = 256;

/// Rows of a ray batch copied and cast at a time. A block's inputs are copied while the
/// GIL is held into buffers the next block reuses (one copy of a whole batch of 100,000
/// rays cost ~13 ns a ray in fresh pages), and Ctrl-C is checked between blocks.
const BLOCK: usize = 16_384;

/// `f` over `items` on every core, in order.
fn par_map<T: Sync, U: Send>(items: &[T], f: impl Fn(&T) -> U + Sync + Send) -> Vec<U> {
    items.par_iter().with_min_len(CHUNK).map(f).collect()
}

/// A flat vector as an `(n, columns)` array (`(n,)` when `columns` is 1).
fn array<'py>(py: Python<'py>, flat: Vec<f64>, columns: usize) -> PyResult<Py<PyAny>> {
    let n = flat.len() / columns.max(1);
    let a = PyArray1::from_vec(py, flat);
    Ok(if columns == 1 {
        a.into_any().unbind()
    } else {
        a.reshape([n, columns])?.into_any().unbind()
    })
}

/// One ray's answer: the id that applies (`-1` for none) and the hit.
pub type IdHit<V> = Option<(i64, RayHit<V>)>;

/// Answers of `cast_rays`, one row per ray. The five arrays are views of one numpy
/// buffer, so keeping one of them keeps the memory of all five.
#[pyclass(frozen, get_all, module = "isect")]
pub struct RayHits {
    /// True where the ray hit.
    pub hit: Py<PyAny>,
    /// The hit's ray parameter, `inf` for a miss.
    pub t: Py<PyAny>,
    /// The hit points, `nan` for a miss.
    pub point: Py<PyAny>,
    /// The unit normals, `nan` for a miss.
    pub normal: Py<PyAny>,
    /// The part of a composite shape hit, as `RayHit.part` (a mesh's or heightfield's
    /// triangle, a compound's part, ...), or the shape's handle in a world; `-1` for a
    /// miss or where no id applies (a convex shape, a ray starting inside a solid mesh).
    pub id: Py<PyAny>,
}

#[pymethods]
impl RayHits {
    /// The five arrays, in order (what pickling writes).
    #[new]
    fn py_new(
        hit: Py<PyAny>,
        t: Py<PyAny>,
        point: Py<PyAny>,
        normal: Py<PyAny>,
        id: Py<PyAny>,
    ) -> Self {
        Self {
            hit,
            t,
            point,
            normal,
            id,
        }
    }

    /// Pickled through its arrays.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let py = slf.py();
        let this = slf.get();
        let arrays = (&this.hit, &this.t, &this.point, &this.normal, &this.id);
        Ok((
            slf.get_type().into_any(),
            arrays.into_pyobject(py)?.into_any(),
        ))
    }

    /// The number of rays.
    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        self.hit.bind(py).len()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let hits: usize = self.hit.bind(py).call_method0("sum")?.extract()?;
        let plural = |n: usize, what: &str| match n {
            1 => format!("1 {what}"),
            _ => format!("{n} {what}s"),
        };
        let rays = plural(self.__len__(py)?, "ray");
        Ok(format!("<isect.RayHits: {rays}, {}>", plural(hits, "hit")))
    }
}

impl RayHits {
    /// Arrays from one optional `(id, hit)` per ray.
    pub fn from_hits<D: Dim>(py: Python<'_>, hits: &[IdHit<D::V>]) -> PyResult<Self> {
        let mut columns = RayColumns::<D>::unwritten(py, hits.len());
        columns.write(|mut rows| {
            for (k, h) in hits.iter().enumerate() {
                rows.write(k, *h);
            }
            Ok(())
        })?;
        columns.into_hits()
    }
}

/// Rays from `(n, N)` origin and direction arrays of the same length.
pub fn rays<D: Dim>(origins: &Any<'_>, directions: &Any<'_>) -> PyResult<Vec<Ray<D::V>>> {
    let (o, d) = (
        D::vectors(origins, "origins")?,
        D::vectors(directions, "directions")?,
    );
    same_rows(o.len(), d.len())?;
    Ok(o.into_iter()
        .zip(d)
        .map(|(origin, dir)| Ray { origin, dir })
        .collect())
}

fn cast_rays_in<D: Dim>(
    py: Python<'_>,
    shape: &Any<'_>,
    pose: Option<&Any<'_>>,
    origins: &Any<'_>,
    directions: &Any<'_>,
    max_t: f64,
    solid: bool,
) -> PyResult<RayHits> {
    let hits = shape_rays::<D, _>(py, shape, pose, origins, directions, |s, pose, r| {
        let hit = s.cast_ray_solid(pose, r, max_t, solid)?;
        Some((
            s.ray_hit_part(pose, r, &hit, solid).map_or(-1, i64::from),
            hit,
        ))
    })?;
    RayHits::from_hits::<D>(py, &hits)
}

/// `answer(shape, pose, ray)` for every row of `origins` and `directions` against a
/// shape of dimension `D`, on every core without the GIL.
fn shape_rays<D: Dim, T: Send>(
    py: Python<'_>,
    shape: &Any<'_>,
    pose: Option<&Any<'_>>,
    origins: &Any<'_>,
    directions: &Any<'_>,
    answer: impl Fn(&D::Shape, &D::Pose, &Ray<D::V>) -> T + Sync + Send,
) -> PyResult<Vec<T>> {
    let (s, pose) = (D::shape(shape).expect("checked"), D::pose(pose, "pose")?);
    let rays = rays::<D>(origins, directions)?;
    Ok(py.detach(|| par_map(&rays, |r| answer(s, &pose, r))))
}

/// Output rows of a batch, split into blocks and chunks by [`mesh_rays`].
trait OutRows: Send + Sized {
    /// The number of rows.
    fn len(&self) -> usize;
    /// The first `n` rows (or all there are), which `self` no longer holds.
    fn take_front(&mut self, n: usize) -> Self;
}

impl<T: Send> OutRows for &mut [T] {
    fn len(&self) -> usize {
        <[T]>::len(self)
    }
    fn take_front(&mut self, n: usize) -> Self {
        take_front(self, n.min(<[T]>::len(self)))
    }
}

/// The rows of `origins` and `directions` as rays in the frame of a mesh at `pose`,
/// each [`CHUNK`] of them given to `cast` with its rows of `out`. Goes a [`BLOCK`] of
/// rows at a time: the block's numbers are copied while the GIL is held (Ctrl-C is
/// checked first), then its chunks are cast on every core without the GIL. No array
/// of all the rays is built.
fn mesh_rays<R: OutRows>(
    py: Python<'_>,
    origins: &VectorArray<'_, D3>,
    directions: &VectorArray<'_, D3>,
    pose: &isect::d3_f64::Pose,
    mut out: R,
    cast: impl Fn(&[Ray<glam::DVec3>], R) + Sync,
) -> PyResult<()> {
    // A mesh at the origin (the common case) needs no move.
    let moved = *pose != isect::d3_f64::Pose::IDENTITY;
    let to_local = |ray: Ray<glam::DVec3>| match moved {
        true => Ray {
            origin: pose.inverse_transform_point(ray.origin),
            dir: pose.inverse_transform_vector(ray.dir),
        },
        false => ray,
    };
    let (mut origin_rows, mut direction_rows, mut first) = (Vec::new(), Vec::new(), 0);
    while out.len() > 0 {
        let mut block = out.take_front(BLOCK);
        py.check_signals()?;
        let rows = first..first + block.len();
        first = rows.end;
        let o = origins.copy_rows(rows.clone(), &mut origin_rows);
        let d = directions.copy_rows(rows, &mut direction_rows);
        let mut chunks = Vec::new();
        while block.len() > 0 {
            chunks.push((chunks.len() * CHUNK, block.take_front(CHUNK)));
        }
        py.detach(|| {
            chunks.into_par_iter().for_each(|(first, chunk)| {
                let local: Vec<_> = (first..first + chunk.len())
                    .map(|k| {
                        to_local(Ray {
                            origin: o.get(k),
                            dir: d.get(k),
                        })
                    })
                    .collect();
                cast(&local, chunk);
            });
        });
    }
    Ok(())
}

/// The two `(n, 3)` ray arrays of a mesh batch, checked to have as many rows.
fn mesh_ray_arrays<'py>(
    origins: &Any<'py>,
    directions: &Any<'py>,
) -> PyResult<(VectorArray<'py, D3>, VectorArray<'py, D3>)> {
    let origins = VectorArray::<D3>::new(origins, "origins")?;
    let directions = VectorArray::<D3>::new(directions, "directions")?;
    same_rows(origins.len(), directions.len())?;
    Ok((origins, directions))
}

/// Mesh rays through the mesh's tree, with triangle ids (surface hits: used for open
/// meshes, or when `solid=False`), each chunk's answers written straight into its rows
/// of the result's columns ([`mesh_rays`]).
fn cast_rays_mesh(
    py: Python<'_>,
    mesh: &isect::d3_f64::TriMesh,
    pose: &isect::d3_f64::Pose,
    origins: &Any<'_>,
    directions: &Any<'_>,
    max_t: f64,
) -> PyResult<RayHits> {
    let (origins, directions) = mesh_ray_arrays(origins, directions)?;
    let mut columns = RayColumns::<D3>::unwritten(py, origins.len());
    let moved = *pose != isect::d3_f64::Pose::IDENTITY;
    let to_world = |h: RayHit<glam::DVec3>| match moved {
        true => RayHit {
            t: h.t,
            point: pose.transform_point(h.point),
            normal: pose.transform_vector(h.normal),
        },
        false => h,
    };
    columns.write(|rows| {
        mesh_rays(py, &origins, &directions, pose, rows, |rays, mut rows| {
            mesh.cast_rays_indexed_with(rays, max_t, |k, hit| {
                rows.write(k, hit.map(|(i, h)| (i64::from(i), to_world(h))));
            });
        })
    })?;
    columns.into_hits()
}

/// A `TypeError` unless the origin and direction arrays have the same number of rows.
fn same_rows(origins: usize, directions: usize) -> PyResult<()> {
    if origins == directions {
        return Ok(());
    }
    Err(PyTypeError::new_err(format!(
        "origins and directions: {origins} rows against {directions}"
    )))
}

/// The columns of [`RayHits`] being filled (every row is written once), in one numpy
/// buffer of `float64` words: `t` (`n`), `point` and `normal` (`N·n` each), `id` (`n`
/// words read as `int64`) and `hit` (`n` bytes read as `bool`); the arrays are views of
/// it. One buffer from numpy's allocator, not five vectors of ours: numpy asks the
/// kernel for huge pages for buffers of 4 MB and more, and the allocator reuses one
/// block from call to call, where five vectors had two of their pages returned to the
/// system after each call and faulted back in by the next (26 ns a ray of a batch of
/// 100,000 on the bunny, a tenth of its time). The buffer is left uninitialised (a
/// zeroed one cost 5 ns a ray to clear) and written through `MaybeUninit`.
struct RayColumns<'py, D: Dim> {
    buffer: Bound<'py, PyArray1<f64>>,
    n: usize,
    dim: std::marker::PhantomData<D>,
}

/// Rows of [`RayColumns`] of dimension `D`, written by one task.
struct RayRows<'a, D: Dim> {
    hit: &'a mut [MaybeUninit<u8>],
    t: &'a mut [MaybeUninit<f64>],
    point: &'a mut [MaybeUninit<f64>],
    normal: &'a mut [MaybeUninit<f64>],
    id: &'a mut [MaybeUninit<i64>],
    /// The dimension, as a type (`fn() -> D` keeps the rows `Send` whatever `D`).
    dim: std::marker::PhantomData<fn() -> D>,
}

/// `len` items of type `T` from word `start` of `words`.
///
/// # Safety
/// `words` points to an allocation of `f64` words that holds the section, which no
/// other reference reaches while the result lives, and `T` is no larger than a word
/// and no more aligned.
unsafe fn section<'a, T>(words: *mut f64, start: usize, len: usize) -> &'a mut [MaybeUninit<T>] {
    // SAFETY: the caller's contract; `MaybeUninit` asks nothing of the memory's contents.
    unsafe { std::slice::from_raw_parts_mut(words.add(start).cast(), len) }
}

impl<'py, D: Dim> RayColumns<'py, D> {
    /// `n` rows to be written.
    fn unwritten(py: Python<'py>, n: usize) -> Self {
        let words = n * (2 + 2 * D::N) + n.div_ceil(8);
        Self {
            // SAFETY: an uninitialised `float64` array is sound to drop; `write` writes
            // every word the views show before `into_hits` makes them.
            buffer: unsafe { PyArray1::new(py, words, false) },
            n,
            dim: std::marker::PhantomData,
        }
    }

    /// `write` with all the rows, which it must write every one of.
    fn write(&mut self, write: impl FnOnce(RayRows<'_, D>) -> PyResult<()>) -> PyResult<()> {
        let (n, dim) = (self.n, D::N);
        let hit_words = n.div_ceil(8);
        // SAFETY: the buffer is this value's own new contiguous array of
        // `n·(2 + 2·dim) + hit_words` words, aligned for `f64` (so for `i64` and `u8`;
        // numpy gives an empty array an element's aligned memory, never null), which
        // Python has not seen; the sections are disjoint and borrow `self` mutably, so
        // nothing else reaches them while they live.
        let rows = unsafe {
            let words = self.buffer.data();
            let hit = section::<u8>(words, (2 + 2 * dim) * n, hit_words * 8);
            // The bytes past the last row's are zeroed: the buffer holds no
            // uninitialised memory when Python sees it.
            hit[n..].fill(MaybeUninit::new(0));
            RayRows {
                hit: &mut hit[..n],
                t: section(words, 0, n),
                point: section(words, n, dim * n),
                normal: section(words, (1 + dim) * n, dim * n),
                id: section(words, (1 + 2 * dim) * n, n),
                dim: std::marker::PhantomData,
            }
        };
        write(rows)
    }

    /// The arrays of [`RayHits`]: views of the buffer.
    fn into_hits(self) -> PyResult<RayHits> {
        let (py, n, dim) = (self.buffer.py(), self.n, D::N);
        let words = |start: usize, len: usize| {
            let end = (start + len) as isize;
            self.buffer
                .get_item(PySlice::new(py, start as isize, end, 1))
        };
        let as_type = |words: Bound<'py, PyAny>, dtype| words.call_method1("view", (dtype,));
        let rows = |words: Bound<'py, PyAny>| words.call_method1("reshape", ((n, dim),));
        let bytes = as_type(
            words((2 + 2 * dim) * n, n.div_ceil(8))?,
            numpy::dtype::<bool>(py),
        )?;
        Ok(RayHits {
            hit: bytes.get_item(PySlice::new(py, 0, n as isize, 1))?.unbind(),
            t: words(0, n)?.unbind(),
            point: rows(words(n, dim * n)?)?.unbind(),
            normal: rows(words((1 + dim) * n, dim * n)?)?.unbind(),
            id: as_type(words((1 + 2 * dim) * n, n)?, numpy::dtype::<i64>(py))?.unbind(),
        })
    }
}

/// The first `n` items of `slice`, which keeps the rest.
fn take_front<'a, T>(slice: &mut &'a mut [T], n: usize) -> &'a mut [T] {
    let (front, rest) = std::mem::take(slice).split_at_mut(n);
    *slice = rest;
    front
}

impl<D: Dim> OutRows for RayRows<'_, D> {
    fn len(&self) -> usize {
        self.t.len()
    }

    fn take_front(&mut self, n: usize) -> Self {
        let n = n.min(self.len());
        RayRows {
            hit: take_front(&mut self.hit, n),
            t: take_front(&mut self.t, n),
            point: take_front(&mut self.point, n * D::N),
            normal: take_front(&mut self.normal, n * D::N),
            id: take_front(&mut self.id, n),
            dim: std::marker::PhantomData,
        }
    }
}

impl<D: Dim> RayRows<'_, D> {
    /// Row `k`: `(id, hit)` or a miss (no hit, `t = inf`, `nan` point and normal, id
    /// `-1`). Inlined, with the dimension known, so that a row is a few stores.
    #[inline]
    fn write(&mut self, k: usize, hit: IdHit<D::V>) {
        use isect::math::Vector as V;
        let (hit, t, id, p, m) = match hit {
            Some((id, h)) => (1, h.t, id, h.point, h.normal),
            None => (0, f64::INFINITY, -1, V::splat(f64::NAN), V::splat(f64::NAN)),
        };
        self.hit[k].write(hit);
        self.t[k].write(t);
        self.id[k].write(id);
        let rows = k * D::N..(k + 1) * D::N;
        let slots = self.point[rows.clone()]
            .iter_mut()
            .zip(&mut self.normal[rows]);
        for (j, (point, normal)) in slots.enumerate() {
            point.write(p.get(j));
            normal.write(m.get(j));
        }
    }
}

/// The mesh behind `shape` and its pose, when `shape` is a mesh whose rays `takes` the
/// mesh batch path for ([`mesh_rays`]).
fn batch_mesh<'a>(
    shape: &'a Any<'_>,
    pose: Option<&Any<'_>>,
    takes: impl Fn(&isect::d3_f64::TriMesh) -> bool,
) -> PyResult<Option<(&'a isect::d3_f64::TriMesh, isect::d3_f64::Pose)>> {
    match D3::shape(shape) {
        Some(isect::d3_f64::AnyShape::TriMesh(mesh)) if takes(mesh) => {
            Ok(Some((mesh, D3::pose(pose, "pose")?)))
        }
        _ => Ok(None),
    }
}

/// N rays against one shape: `origins` and `directions` are `(n, 3)` (3D) or `(n, 2)`
/// (2D) arrays. Returns `RayHits` (`hit`, `t`, `point`, `normal`, `id`: the part of a
/// composite shape hit, as `RayHit.part`: a mesh's triangle, a compound's part, ...;
/// `-1` where none). Runs on every core without the GIL; a mesh's rays go in blocks of 16,384
/// rows, with Ctrl-C (`KeyboardInterrupt`) checked between them.
///
/// >>> hits = isect.cast_rays(isect.Sphere(1.0), None, [[-5, 0, 0]], [[1, 0, 0]])
/// >>> float(hits.t[0])
/// 4.0
#[pyfunction]
#[pyo3(signature = (shape, pose, origins, directions, max_t=f64::INFINITY, solid=true))]
pub fn cast_rays(
    py: Python<'_>,
    shape: &Any<'_>,
    pose: Option<&Any<'_>>,
    origins: &Any<'_>,
    directions: &Any<'_>,
    max_t: f64,
    solid: bool,
) -> PyResult<RayHits> {
    if let Some((mesh, pose)) = batch_mesh(shape, pose, |m| !(solid && m.is_solid()))? {
        return cast_rays_mesh(py, mesh, &pose, origins, directions, max_t);
    }
    by_dim!(
        which(shape, "shape")?,
        cast_rays_in(py, shape, pose, origins, directions, max_t, solid)
    )
}

/// One value a ray of a mesh's batch ([`mesh_rays`]), `answer(rays, out)` writing a
/// chunk's values (the rows start as `fill`), as a numpy array.
fn mesh_ray_column<T: numpy::Element + Copy + Send>(
    py: Python<'_>,
    (mesh_pose, origins, directions): (&isect::d3_f64::Pose, &Any<'_>, &Any<'_>),
    fill: T,
    answer: impl Fn(&[Ray<glam::DVec3>], &mut [T]) + Sync,
) -> PyResult<Py<PyAny>> {
    let (origins, directions) = mesh_ray_arrays(origins, directions)?;
    let mut column = vec![fill; origins.len()];
    mesh_rays(
        py,
        &origins,
        &directions,
        mesh_pose,
        &mut column[..],
        answer,
    )?;
    Ok(PyArray1::from_vec(py, column).into_any().unbind())
}

/// One value a ray against a shape of dimension `D` ([`shape_rays`]), as a numpy array.
fn shape_ray_column<D: Dim, T: numpy::Element + Send>(
    py: Python<'_>,
    (shape, pose, origins, directions): (&Any<'_>, Option<&Any<'_>>, &Any<'_>, &Any<'_>),
    answer: impl Fn(&D::Shape, &D::Pose, &Ray<D::V>) -> T + Sync + Send,
) -> PyResult<Py<PyAny>> {
    let column = shape_rays::<D, _>(py, shape, pose, origins, directions, answer)?;
    Ok(PyArray1::from_vec(py, column).into_any().unbind())
}

fn first_hit_ids_in<D: Dim>(
    py: Python<'_>,
    rays: (&Any<'_>, Option<&Any<'_>>, &Any<'_>, &Any<'_>),
    max_t: f64,
    solid: bool,
) -> PyResult<Py<PyAny>> {
    shape_ray_column::<D, _>(py, rays, |s, pose, r| {
        s.cast_ray_solid(pose, r, max_t, solid)
            .and_then(|hit| s.ray_hit_part(pose, r, &hit, solid))
            .map_or(-1_i64, i64::from)
    })
}

/// For each ray (rows of `origins` and `directions`, `(n, 3)` or `(n, 2)`): the part of
/// the shape its first hit is on, `-1` where it misses or the shape has no parts: the
/// `id` column of `cast_rays` alone (a mesh's triangle, a compound's part, ...), what
/// trimesh's `intersects_first` returns. A mesh's rays skip the hits' points and
/// normals, so this is the cheap call for picking and visibility. Runs on every core
/// without the GIL; rows with NaN or infinite numbers, or a zero direction, are `-1`.
///
/// >>> ground = isect.TriMesh([[-5, 0, -5], [5, 0, -5], [5, 0, 5], [-5, 0, 5]], [[0, 2, 1], [0, 3, 2]])
/// >>> isect.first_hit_ids(ground, None, [[2, 1, -2], [9, 1, 0]], [[0, -1, 0], [0, -1, 0]]).tolist()
/// [0, -1]
#[pyfunction]
#[pyo3(signature = (shape, pose, origins, directions, max_t=f64::INFINITY, solid=true))]
pub fn first_hit_ids(
    py: Python<'_>,
    shape: &Any<'_>,
    pose: Option<&Any<'_>>,
    origins: &Any<'_>,
    directions: &Any<'_>,
    max_t: f64,
    solid: bool,
) -> PyResult<Py<PyAny>> {
    // The same mesh path as `cast_rays` (a solid mesh's inside goes the general way).
    if let Some((mesh, pose)) = batch_mesh(shape, pose, |m| !(solid && m.is_solid()))? {
        // The walks of `cast_rays`' mesh path without the hits' points and normals.
        return mesh_ray_column(py, (&pose, origins, directions), -1_i64, |rays, out| {
            mesh.first_hits_with(rays, max_t, |k, hit| {
                out[k] = hit.map_or(-1, |(i, _)| i64::from(i));
            });
        });
    }
    let rays = (shape, pose, origins, directions);
    by_dim!(
        which(shape, "shape")?,
        first_hit_ids_in(py, rays, max_t, solid)
    )
}

fn intersects_rays_in<D: Dim>(
    py: Python<'_>,
    rays: (&Any<'_>, Option<&Any<'_>>, &Any<'_>, &Any<'_>),
    max_t: f64,
    solid: bool,
) -> PyResult<Py<PyAny>> {
    shape_ray_column::<D, _>(py, rays, |s, pose, r| {
        s.cast_ray_solid(pose, r, max_t, solid).is_some()
    })
}

/// For each ray (rows of `origins` and `directions`, `(n, 3)` or `(n, 2)`): True when
/// it hits the shape for some `t` in `[0, max_t]`; the same flags as
/// `cast_rays(...).hit`. A mesh's walk stops at the first triangle it finds, so this is
/// the cheap test for shadow and line-of-sight rays. Runs on every core without the
/// GIL; rows with NaN or infinite numbers, or a zero direction, are False.
///
/// >>> ground = isect.TriMesh([[-5, 0, -5], [5, 0, -5], [5, 0, 5], [-5, 0, 5]], [[0, 1, 2], [0, 2, 3]])
/// >>> isect.intersects_rays(ground, None, [[0, 1, 0], [9, 1, 0]], [[0, -1, 0], [0, -1, 0]]).tolist()
/// [True, False]
#[pyfunction]
#[pyo3(signature = (shape, pose, origins, directions, max_t=f64::INFINITY, solid=true))]
pub fn intersects_rays(
    py: Python<'_>,
    shape: &Any<'_>,
    pose: Option<&Any<'_>>,
    origins: &Any<'_>,
    directions: &Any<'_>,
    max_t: f64,
    solid: bool,
) -> PyResult<Py<PyAny>> {
    // `cast_ray_any` counts a solid mesh's inside: a surface-only test of a solid mesh
    // goes the general way.
    if let Some((mesh, pose)) = batch_mesh(shape, pose, |m| solid || !m.is_solid())? {
        // Each walk stops at the first triangle it crosses.
        return mesh_ray_column(py, (&pose, origins, directions), false, |rays, out| {
            for (ray, out) in rays.iter().zip(out) {
                *out = mesh.cast_ray_any(ray, max_t);
            }
        });
    }
    let rays = (shape, pose, origins, directions);
    by_dim!(
        which(shape, "shape")?,
        intersects_rays_in(py, rays, max_t, solid)
    )
}

fn contains_points_in<D: Dim>(
    py: Python<'_>,
    shape: &Any<'_>,
    pose: Option<&Any<'_>>,
    points: &Any<'_>,
) -> PyResult<Py<PyAny>> {
    let (s, pose) = (D::shape(shape).expect("checked"), D::pose(pose, "pose")?);
    let points = D::vectors(points, "points")?;
    let inside = py.detach(|| par_map(&points, |p| s.contains_point(&pose, *p)));
    Ok(PyArray1::from_vec(py, inside).into_any().unbind())
}

/// For each row of `points` (`(n, 3)` or `(n, 2)`): True when the shape contains it.
///
/// >>> isect.contains_points(isect.Circle(1.0), None, [[0, 0], [2, 0]]).tolist()
/// [True, False]
#[pyfunction]
#[pyo3(signature = (shape, pose, points))]
pub fn contains_points(
    py: Python<'_>,
    shape: &Any<'_>,
    pose: Option<&Any<'_>>,
    points: &Any<'_>,
) -> PyResult<Py<PyAny>> {
    by_dim!(
        which(shape, "shape")?,
        contains_points_in(py, shape, pose, points)
    )
}

fn signed_distances_in<D: Dim>(
    py: Python<'_>,
    shape: &Any<'_>,
    pose: Option<&Any<'_>>,
    points: &Any<'_>,
) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    let (s, pose) = (D::shape(shape).expect("checked"), D::pose(pose, "pose")?);
    let points = D::vectors(points, "points")?;
    let answers = py.detach(|| {
        par_map(&points, |p| {
            let q = s.project_point(&pose, *p, false);
            let d = isect::math::Vector::length(q.point - *p);
            (if q.is_inside { -d } else { d }, q.point)
        })
    });
    let mut nearest = Vec::with_capacity(answers.len() * D::N);
    answers
        .iter()
        .for_each(|(_, q)| D::extend(&mut nearest, *q));
    let distances = answers.iter().map(|(d, _)| *d).collect();
    Ok((array(py, distances, 1)?, array(py, nearest, D::N)?))
}

/// For each row of `points`: the signed distance to the shape's boundary (negative
/// inside a solid shape) and the nearest boundary point. Returns `(distances, points)`.
///
/// >>> distances, points = isect.signed_distances(isect.Circle(1.0), None, [[0.5, 0], [3, 0]])
/// >>> distances.tolist(), points.tolist()
/// ([-0.5, 2.0], [[1.0, 0.0], [1.0, 0.0]])
#[pyfunction]
#[pyo3(signature = (shape, pose, points))]
pub fn signed_distances(
    py: Python<'_>,
    shape: &Any<'_>,
    pose: Option<&Any<'_>>,
    points: &Any<'_>,
) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    by_dim!(
        which(shape, "shape")?,
        signed_distances_in(py, shape, pose, points)
    )
}

/// Where a pose batch reads its poses: the numbers of a pose array (parsed row by
/// row on the workers), poses already parsed, or one pose for every row.
#[derive(Clone, Copy)]
enum Rows<'a, P> {
    Flat(&'a [f64], usize),
    Parsed(&'a [P]),
    One(P),
}

impl<P: Copy> Rows<'_, P> {
    /// Row `i`'s pose, `None` where it does not parse (a rotation far from unit).
    #[inline]
    fn at<D: Dim<Pose = P>>(&self, i: usize) -> Option<P> {
        match *self {
            Rows::Flat(flat, width) => {
                let row = &flat[i * width..][..width];
                if width == D::POSE_COLUMNS {
                    D::pose_from_row_or_none(row)
                } else {
                    D::pose_from_matrix(row, "").ok()
                }
            }
            Rows::Parsed(poses) => Some(poses[i]),
            Rows::One(pose) => Some(pose),
        }
    }
}

/// The B side of a pose batch: N poses, or one pose for every row.
enum PosesB<D: Dim> {
    Each(PoseArray<D>),
    One(D::Pose),
}

/// `poses_b`: an array of `n` poses, or one pose for every row. An array is always an
/// array of poses (`(n, POSE_COLUMNS)` rows or `(n, N+1, N+1)` matrices), and an
/// array of one pose applies to every row; one pose is otherwise `None` (the
/// identity), an `isect.Pose` or a `(translation, rotation)` pair. A bare homogeneous
/// matrix is refused, in 3D as in 2D, where a 3x3 array is three rows `x, y, angle`:
/// one rule for both, and no array whose meaning depends on how many rows A has.
fn poses_or_one<D: Dim>(
    obj: Option<&Bound<'_, PyAny>>,
    n: usize,
    what: &str,
) -> PyResult<PosesB<D>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(PosesB::One(D::pose(None, what)?));
    };
    let k = D::N + 1;
    let from_matrix = format!(
        "for one pose given as a {k}x{k} matrix m, pass isect.Pose.from_matrix(m) or m[None]"
    );
    match PoseArray::<D>::new(obj, what) {
        Ok(poses) if poses.len() == n => return Ok(PosesB::Each(poses)),
        Ok(poses) if poses.len() == 1 => {
            let row = poses.flat();
            return Ok(PosesB::One(pose_of::<D>(
                poses.width,
                row,
                &format!("{what}[0]"),
            )?));
        }
        Ok(poses) => {
            let rows_like_a_matrix = poses.width == D::POSE_COLUMNS && poses.len() == k;
            let hint = match rows_like_a_matrix {
                true => format!(
                    " (a {k}x{k} array is {k} rows of {}; {from_matrix})",
                    D::ROW_NAMES
                ),
                false => String::new(),
            };
            return Err(PyTypeError::new_err(format!(
                "{what}: {} poses, expected {n}{hint}",
                poses.len()
            )));
        }
        Err(_) => {}
    }
    if obj.cast::<crate::pose::Pose>().is_ok() || convert::is_pose_pair(obj) {
        return Ok(PosesB::One(D::pose(Some(obj), what)?));
    }
    if convert::array_shape(obj).as_deref() == Some(&[k, k][..]) {
        return Err(PyTypeError::new_err(format!(
            "{what}: a bare {k}x{k} matrix is not taken as one pose here ({from_matrix}); \
             an array is an array of poses, rows or matrices"
        )));
    }
    Err(PyTypeError::new_err(format!(
        "{what}: expected an array of {n} poses, shape (n, {c}) or (n, {k}, {k}), or one \
         pose: None, an isect.Pose or {pair}; got {}",
        convert::describe(obj),
        c = D::POSE_COLUMNS,
        pair = D::PAIR_NAME,
    )))
}

/// The batch's answers: `flags[i]`, and `distances[i]` when asked (an empty slice
/// otherwise). Each worker parses its rows, checks each pose once
/// ([`dispatch::entered_pose`]: a refused one is the row's miss, `False` and `nan`)
/// and calls the pair's kernel, chosen once ([`dispatch::intersects_kernel`]). False
/// when a row does not parse (the caller then names it).
fn collide_rows<D: Dim>(
    (sa, pa): (&D::Shape, Rows<'_, D::Pose>),
    (sb, pb): (&D::Shape, Rows<'_, D::Pose>),
    flags: &mut [bool],
    distances: &mut [f64],
) -> bool {
    let kernel = dispatch::intersects_kernel::<D::V, D::Shape>(sa, sb);
    let one_b = match pb {
        Rows::One(pose) => Some(dispatch::entered_pose::<D::V>(&pose)),
        _ => None,
    };
    // Row k's answer from its entered poses.
    let answer = |a: Option<D::Pose>, b: &Option<D::Pose>, distance: bool| match (a, b) {
        (Some(a), Some(b)) if kernel(&a, b) => (true, 0.0),
        (Some(a), Some(b)) if distance => (false, D::Shape::distance_pair(&a, sa, b, sb)),
        (Some(_), Some(_)) => (false, 0.0),
        _ => (false, f64::NAN),
    };
    let chunk = |start: usize, flags: &mut [bool], mut distances: Option<&mut [f64]>| {
        let with_distances = distances.is_some();
        if let (Rows::Flat(flat, w), Some(b)) = (pa, one_b) {
            if w == D::POSE_COLUMNS {
                // The common batch, rows against one pose: a loop the compiler sees
                // whole (fixed row width, no per-row match on B).
                let rows = flat[start * w..(start + flags.len()) * w].chunks_exact(w);
                for (k, (row, flag)) in rows.zip(flags.iter_mut()).enumerate() {
                    let Some(a) = D::entered_row(row) else {
                        return false;
                    };
                    let (collides, distance) = answer(a, &b, with_distances);
                    *flag = collides;
                    if let Some(d) = distances.as_deref_mut() {
                        d[k] = distance;
                    }
                }
                return true;
            }
        }
        for (k, flag) in flags.iter_mut().enumerate() {
            let i = start + k;
            let Some(a) = pa.at::<D>(i) else { return false };
            let b = match one_b {
                Some(b) => b,
                None => match pb.at::<D>(i) {
                    Some(b) => dispatch::entered_pose::<D::V>(&b),
                    None => return false,
                },
            };
            let a = dispatch::entered_pose::<D::V>(&a);
            let (collides, distance) = answer(a, &b, with_distances);
            *flag = collides;
            if let Some(d) = distances.as_deref_mut() {
                d[k] = distance;
            }
        }
        true
    };
    if distances.is_empty() {
        flags
            .par_chunks_mut(CHUNK)
            .enumerate()
            .map(|(c, f)| chunk(c * CHUNK, f, None))
            .reduce(|| true, |x, y| x && y)
    } else {
        flags
            .par_chunks_mut(CHUNK)
            .zip(distances.par_chunks_mut(CHUNK))
            .enumerate()
            .map(|(c, (f, d))| chunk(c * CHUNK, f, Some(d)))
            .reduce(|| true, |x, y| x && y)
    }
}

fn collide_poses_in<D: Dim>(
    (sa, sb): (&D::Shape, &D::Shape),
    py: Python<'_>,
    poses_a: &Any<'_>,
    poses_b: Option<&Any<'_>>,
    distances: bool,
) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    let pa = PoseArray::<D>::new(poses_a, "poses_a")?;
    let n = pa.len();
    let pb = match poses_or_one::<D>(poses_b, n, "poses_b") {
        Ok(pb) => pb,
        Err(e) => {
            // A's rows are checked before B, as the scalar path does.
            D::poses(poses_a, "poses_a")?;
            return Err(e);
        }
    };
    let (mut flags, mut answers) = (vec![false; n], vec![0.0; if distances { n } else { 0 }]);
    let rows_a = Rows::Flat(pa.flat(), pa.width);
    let rows_b = match &pb {
        PosesB::Each(poses) => Rows::Flat(poses.flat(), poses.width),
        PosesB::One(pose) => Rows::One(*pose),
    };
    let parsed =
        py.detach(|| collide_rows::<D>((sa, rows_a), (sb, rows_b), &mut flags, &mut answers));
    if !parsed {
        // A row that does not parse: parse them in order as the scalar path does, for
        // the error naming the first such row (A's before B's).
        let pa = D::poses(poses_a, "poses_a")?;
        let pb = match (&pb, poses_b) {
            (PosesB::Each(_), Some(obj)) => Some(D::poses(obj, "poses_b")?),
            _ => None,
        };
        // Every row parsed after all (the two parsers agree, so this is not reached).
        let rows_b = match (&pb, rows_b) {
            (Some(poses), _) => Rows::Parsed(&poses[..]),
            (None, rows) => rows,
        };
        let rows = (Rows::Parsed(&pa[..]), rows_b);
        py.detach(|| collide_rows::<D>((sa, rows.0), (sb, rows.1), &mut flags, &mut answers));
    }
    flags_and_distances(py, flags, answers, distances)
}

/// The `(collides, distances)` answer of the pose batches: `distances` is `None`
/// when they were not asked for.
fn flags_and_distances(
    py: Python<'_>,
    flags: Vec<bool>,
    answers: Vec<f64>,
    distances: bool,
) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    let distances = if distances {
        array(py, answers, 1)?
    } else {
        py.None()
    };
    Ok((PyArray1::from_vec(py, flags).into_any().unbind(), distances))
}

/// N placements of a pair: `poses_a` an array of N poses (`(n, 7)` rows `x, y, z, qx,
/// qy, qz, qw` or `(n, 4, 4)` matrices in 3D; `(n, 3)` rows `x, y, angle` or `(n, 3, 3)`
/// in 2D), `poses_b` N poses in the same forms, or one pose for every row: `None`, an
/// `isect.Pose`, a `(translation, rotation)` pair, or an array of one pose (`m[None]`).
/// An array is always read as an array of poses: a bare 3x3 array is three 2D rows
/// `x, y, angle`, never one matrix, and a bare 4x4 matrix is refused in 3D alike;
/// pass `isect.Pose.from_matrix(m)` for one pose given as a matrix. Returns
/// `(collides, distances)`: the collision flags and distances (0 where they collide),
/// or `(collides, None)` with `distances=False`, which skips the distance query of the
/// separated rows.
///
/// >>> collides, distances = isect.collide_poses(isect.Sphere(1.0), [[0, 0, 0, 0, 0, 0, 1], [5, 0, 0, 0, 0, 0, 1]], isect.Sphere(1.0), None)
/// >>> collides.tolist(), distances.tolist()
/// ([True, False], [0.0, 3.0])
///
/// One 2D pose given as a matrix, for three rows:
///
/// >>> m = np.array([[1.0, 0, 5], [0, 1, 0], [0, 0, 1]])
/// >>> isect.collide_poses(isect.Circle(1.0), [[0, 0, 0], [5, 0, 0], [0, 5, 0]], isect.Circle(1.0), isect.Pose.from_matrix(m), distances=False)[0].tolist()
/// [False, True, False]
#[pyfunction]
#[pyo3(signature = (a, poses_a, b, poses_b=None, *, distances=true))]
pub fn collide_poses(
    py: Python<'_>,
    a: &Any<'_>,
    poses_a: &Any<'_>,
    b: &Any<'_>,
    poses_b: Option<&Any<'_>>,
    distances: bool,
) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    by_pair!(
        pair(a, b)?,
        collide_poses_in(py, poses_a, poses_b, distances)
    )
}

/// Every batch function, for the module to register.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RayHits>()?;
    m.add_function(wrap_pyfunction!(cast_rays, m)?)?;
    m.add_function(wrap_pyfunction!(intersects_rays, m)?)?;
    m.add_function(wrap_pyfunction!(first_hit_ids, m)?)?;
    m.add_function(wrap_pyfunction!(contains_points, m)?)?;
    m.add_function(wrap_pyfunction!(signed_distances, m)?)?;
    m.add_function(wrap_pyfunction!(collide_poses, m)?)?;
    Ok(())
}
