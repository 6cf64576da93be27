//! The pair and single-shape query verbs, each written once over [`Dim`] and chosen by
//! the shapes' dimension. Conventions are the library's: poses per shape, answers in
//! world space, normals from A to B; a NaN or infinite pose gives the documented miss
//! (`False`, `None` or `nan`).

use crate::dim::{Dim, D2, D3};
use crate::pose;
use crate::results::{ClosestPoints, Contact, Manifold, PointProjection, RayHit, ShapeCastHit};
use isect::query::cast_shapes::Sweep;
use isect::query::dispatch;
use isect::query::dispatch::DispatchShape;
use isect::query::ProjectPoint;
use isect::shape::Ray;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

type Any<'py> = Bound<'py, PyAny>;

/// Which dimension a shape argument has.
#[derive(Copy, Clone, PartialEq, Debug)]
pub enum Which {
    /// A `Shape` (3D).
    Three,
    /// A `Shape2d` (2D).
    Two,
}

/// The dimension of one shape argument, or a `TypeError`.
pub fn which(obj: &Any<'_>, what: &str) -> PyResult<Which> {
    if D3::shape(obj).is_some() {
        Ok(Which::Three)
    } else if D2::shape(obj).is_some() {
        Ok(Which::Two)
    } else {
        Err(PyTypeError::new_err(format!(
            "{what}: expected an isect shape, got {}",
            obj.get_type().name()?
        )))
    }
}

/// The common dimension of two shape arguments.
pub fn which_pair(a: &Any<'_>, b: &Any<'_>) -> PyResult<Which> {
    let (da, db) = (which(a, "a")?, which(b, "b")?);
    if da != db {
        return Err(PyTypeError::new_err(
            "a and b: a 2D and a 3D shape cannot be paired",
        ));
    }
    Ok(da)
}

/// The shape arguments of a pair query, each cast once, in their common dimension.
pub enum Pair<'a> {
    /// Two 3D shapes.
    Three(&'a <D3 as Dim>::Shape, &'a <D3 as Dim>::Shape),
    /// Two 2D shapes.
    Two(&'a <D2 as Dim>::Shape, &'a <D2 as Dim>::Shape),
}

/// Both shape arguments cast to their dimension, or the `TypeError` of
/// [`which_pair`] (a non-shape, or a 2D shape with a 3D one).
pub fn pair<'a>(a: &'a Any<'_>, b: &'a Any<'_>) -> PyResult<Pair<'a>> {
    if let (Some(x), Some(y)) = (D3::shape(a), D3::shape(b)) {
        return Ok(Pair::Three(x, y));
    }
    if let (Some(x), Some(y)) = (D2::shape(a), D2::shape(b)) {
        return Ok(Pair::Two(x, y));
    }
    Err(which_pair(a, b).err().unwrap_or_else(|| {
        PyTypeError::new_err("a and b: expected two isect shapes of one dimension")
    }))
}

/// Runs `$f::<D>(shapes, $args)` with the shapes of `$pair` in their dimension.
macro_rules! by_pair {
    ($pair:expr, $f:ident($($arg:expr),*)) => {
        match $pair {
            Pair::Three(a, b) => $f::<D3>((a, b), $($arg),*),
            Pair::Two(a, b) => $f::<D2>((a, b), $($arg),*),
        }
    };
}
pub(crate) use by_pair;

/// Runs `$f::<D>($args)` for the dimension `$which`.
macro_rules! by_dim {
    ($which:expr, $f:ident($($arg:expr),*)) => {
        match $which {
            Which::Three => $f::<D3>($($arg),*),
            Which::Two => $f::<D2>($($arg),*),
        }
    };
}
pub(crate) use by_dim;

/// Both shapes and poses of a pair query, the poses entered ([`Dim::entered_pose`]) so
/// that the shapes' pair methods answer as the library's free queries do.
struct PairArgs<'a, D: Dim> {
    a: &'a D::Shape,
    pose_a: D::Pose,
    b: &'a D::Shape,
    pose_b: D::Pose,
}

fn pair_args<'a, D: Dim>(
    (a, b): (&'a D::Shape, &'a D::Shape),
    pose_a: Option<&Any<'_>>,
    pose_b: Option<&Any<'_>>,
) -> PyResult<PairArgs<'a, D>> {
    Ok(PairArgs {
        a,
        pose_a: D::entered_pose(pose_a, "pose_a")?,
        b,
        pose_b: D::entered_pose(pose_b, "pose_b")?,
    })
}

/// Both shapes 3D and both poses `isect.Pose`s (the loop users write once they build
/// their poses): the shapes and entered poses read without the general path's
/// `Result`s, about a tenth of a capsule–capsule call. `None` sends every other
/// argument to the general path, which answers the same for these.
#[inline(always)]
fn entered_3d<'a>(
    a: &'a Any<'_>,
    pose_a: Option<&Any<'_>>,
    b: &'a Any<'_>,
    pose_b: Option<&Any<'_>>,
) -> Option<PairArgs<'a, D3>> {
    let (a, b) = (D3::shape(a)?, D3::shape(b)?);
    let (pose_a, pose_b) = (*pose::entered3(pose_a?)?, *pose::entered3(pose_b?)?);
    Some(PairArgs {
        a,
        pose_a,
        b,
        pose_b,
    })
}

fn intersects_in<D: Dim>(
    shapes: (&D::Shape, &D::Shape),
    pa: Option<&Any<'_>>,
    pb: Option<&Any<'_>>,
) -> PyResult<bool> {
    let p = pair_args::<D>(shapes, pa, pb)?;
    Ok(D::Shape::intersects_pair(&p.pose_a, p.a, &p.pose_b, p.b))
}

/// True when the shapes touch or overlap.
///
/// >>> isect.intersects(isect.Sphere(1.0), ((0, 0, 0), (0, 0, 0, 1)), isect.Sphere(1.0), ((1.5, 0, 0), (0, 0, 0, 1)))
/// True
#[pyfunction]
#[pyo3(signature = (a, pose_a, b, pose_b))]
pub fn intersects(
    a: &Any<'_>,
    pose_a: Option<&Any<'_>>,
    b: &Any<'_>,
    pose_b: Option<&Any<'_>>,
) -> PyResult<bool> {
    if let Some(p) = entered_3d(a, pose_a, b, pose_b) {
        return Ok(<D3 as Dim>::Shape::intersects_pair(
            &p.pose_a, p.a, &p.pose_b, p.b,
        ));
    }
    by_pair!(pair(a, b)?, intersects_in(pose_a, pose_b))
}

fn distance_in<D: Dim>(
    shapes: (&D::Shape, &D::Shape),
    pa: Option<&Any<'_>>,
    pb: Option<&Any<'_>>,
) -> PyResult<f64> {
    let p = pair_args::<D>(shapes, pa, pb)?;
    Ok(D::Shape::distance_pair(&p.pose_a, p.a, &p.pose_b, p.b))
}

/// The distance between the shapes (0 when they touch or overlap; `nan` for a
/// non-finite pose).
///
/// >>> isect.distance(isect.Sphere(1.0), None, isect.Box([1, 1, 1]), ((5, 0, 0), (0, 0, 0, 1)))
/// 3.0
#[pyfunction]
#[pyo3(signature = (a, pose_a, b, pose_b))]
pub fn distance(
    a: &Any<'_>,
    pose_a: Option<&Any<'_>>,
    b: &Any<'_>,
    pose_b: Option<&Any<'_>>,
) -> PyResult<f64> {
    if let Some(p) = entered_3d(a, pose_a, b, pose_b) {
        return Ok(<D3 as Dim>::Shape::distance_pair(
            &p.pose_a, p.a, &p.pose_b, p.b,
        ));
    }
    by_pair!(pair(a, b)?, distance_in(pose_a, pose_b))
}

fn closest_points_in<D: Dim>(
    shapes: (&D::Shape, &D::Shape),
    py: Python<'_>,
    pa: Option<&Any<'_>>,
    pb: Option<&Any<'_>>,
) -> PyResult<ClosestPoints> {
    let p = pair_args::<D>(shapes, pa, pb)?;
    let c = D::Shape::closest_points_pair(&p.pose_a, p.a, &p.pose_b, p.b);
    ClosestPoints::new::<D>(py, c.distance, c.point_a, c.point_b)
}

/// The distance and a closest point on each shape (inside the overlap when they
/// overlap, distance 0).
///
/// >>> cp = isect.closest_points(isect.Sphere(1.0), None, isect.Sphere(1.0), ((4, 0, 0), (0, 0, 0, 1)))
/// >>> cp.distance, cp.point_a, cp.point_b
/// (2.0, (1.0, 0.0, 0.0), (3.0, 0.0, 0.0))
#[pyfunction]
#[pyo3(signature = (a, pose_a, b, pose_b))]
pub fn closest_points(
    py: Python<'_>,
    a: &Any<'_>,
    pose_a: Option<&Any<'_>>,
    b: &Any<'_>,
    pose_b: Option<&Any<'_>>,
) -> PyResult<ClosestPoints> {
    by_pair!(pair(a, b)?, closest_points_in(py, pose_a, pose_b))
}

fn contact_in<D: Dim>(
    shapes: (&D::Shape, &D::Shape),
    py: Python<'_>,
    pa: Option<&Any<'_>>,
    pb: Option<&Any<'_>>,
    prediction: f64,
) -> PyResult<Option<Contact>> {
    let p = pair_args::<D>(shapes, pa, pb)?;
    D::Shape::contact_pair(&p.pose_a, p.a, &p.pose_b, p.b, prediction)
        .map(|c| Contact::new::<D>(py, &c))
        .transpose()
}

/// The contact of the pair (normal from A to B, depth positive when overlapping), or
/// `None` when they are farther apart than `prediction`.
///
/// >>> c = isect.contact(isect.Sphere(1.0), None, isect.Sphere(1.0), ((1.5, 0, 0), (0, 0, 0, 1)))
/// >>> c.normal, c.depth
/// ((1.0, 0.0, 0.0), 0.5)
/// >>> isect.contact(isect.Sphere(1.0), None, isect.Sphere(1.0), ((3, 0, 0), (0, 0, 0, 1))) is None
/// True
#[pyfunction]
#[pyo3(signature = (a, pose_a, b, pose_b, prediction=0.0))]
pub fn contact(
    py: Python<'_>,
    a: &Any<'_>,
    pose_a: Option<&Any<'_>>,
    b: &Any<'_>,
    pose_b: Option<&Any<'_>>,
    prediction: f64,
) -> PyResult<Option<Contact>> {
    check_prediction(prediction)?;
    by_pair!(pair(a, b)?, contact_in(py, pose_a, pose_b, prediction))
}

fn check_prediction(prediction: f64) -> PyResult<()> {
    if prediction >= 0.0 && prediction.is_finite() {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "prediction: expected a finite number >= 0, got {prediction}"
        )))
    }
}

fn manifold_in<D: Dim>(
    shapes: (&D::Shape, &D::Shape),
    py: Python<'_>,
    pa: Option<&Any<'_>>,
    pb: Option<&Any<'_>>,
    prediction: f64,
) -> PyResult<Option<Manifold>> {
    let p = pair_args::<D>(shapes, pa, pb)?;
    D::Shape::contact_manifold_pair(&p.pose_a, p.a, &p.pose_b, p.b, prediction)
        .map(|m| Manifold::new::<D>(py, &m))
        .transpose()
}

/// The contact manifold: a shared normal and up to 2 (2D) or 4 (3D) points, each with
/// a feature id that stays the same while the same features touch; `None` when apart.
///
/// A box resting 0.1 deep on a larger one touches it at its four bottom corners:
///
/// >>> m = isect.contact_manifold(isect.Box([1, 1, 1]), None, isect.Box([0.5, 0.5, 0.5]), ((0, 1.4, 0), (0, 0, 0, 1)))
/// >>> m.normal, len(m), [round(p.depth, 6) for p in m.points]
/// ((0.0, 1.0, 0.0), 4, [0.1, 0.1, 0.1, 0.1])
#[pyfunction]
#[pyo3(signature = (a, pose_a, b, pose_b, prediction=0.0))]
pub fn contact_manifold(
    py: Python<'_>,
    a: &Any<'_>,
    pose_a: Option<&Any<'_>>,
    b: &Any<'_>,
    pose_b: Option<&Any<'_>>,
    prediction: f64,
) -> PyResult<Option<Manifold>> {
    check_prediction(prediction)?;
    by_pair!(pair(a, b)?, manifold_in(py, pose_a, pose_b, prediction))
}

fn manifolds_in<D: Dim>(
    shapes: (&D::Shape, &D::Shape),
    py: Python<'_>,
    pa: Option<&Any<'_>>,
    pb: Option<&Any<'_>>,
    prediction: f64,
) -> PyResult<Vec<Manifold>> {
    let p = pair_args::<D>(shapes, pa, pb)?;
    dispatch::contact_manifolds_by_normal(&p.pose_a, p.a, &p.pose_b, p.b, prediction)
        .iter()
        .map(|m| Manifold::new::<D>(py, m))
        .collect()
}

/// Every manifold, one for each normal the shapes touch along: `contact_manifold`'s
/// first, then for a mesh, chain, heightfield or compound the manifolds of parts
/// touching along other normals (a box in the corner of a floor and a wall gets
/// both); at most one for convex shapes, `[]` when apart.
///
/// >>> floor_and_wall = isect.Compound([(isect.Box([5, 0.5, 5]), ((0, -0.5, 0), (0, 0, 0, 1))), (isect.Box([0.5, 5, 5]), ((-0.5, 5, 0), (0, 0, 0, 1)))])
/// >>> [m.normal for m in isect.contact_manifolds(floor_and_wall, None, isect.Box([0.5, 0.5, 0.5]), ((0.45, 0.45, 0), (0, 0, 0, 1)))]
/// [(0.0, 1.0, 0.0), (1.0, 0.0, 0.0)]
#[pyfunction]
#[pyo3(signature = (a, pose_a, b, pose_b, prediction=0.0))]
pub fn contact_manifolds(
    py: Python<'_>,
    a: &Any<'_>,
    pose_a: Option<&Any<'_>>,
    b: &Any<'_>,
    pose_b: Option<&Any<'_>>,
    prediction: f64,
) -> PyResult<Vec<Manifold>> {
    check_prediction(prediction)?;
    by_pair!(pair(a, b)?, manifolds_in(py, pose_a, pose_b, prediction))
}

/// A ray from Python arguments. A NaN or infinite origin or direction is kept: the
/// library's casts answer such a ray with a miss, as the batches do its rows.
pub fn ray<D: Dim>(origin: &Any<'_>, direction: &Any<'_>) -> PyResult<Ray<D::V>> {
    Ok(Ray {
        origin: D::vector(origin, "origin")?,
        dir: D::vector(direction, "direction")?,
    })
}

fn cast_ray_in<D: Dim>(
    py: Python<'_>,
    shape: &Any<'_>,
    pose: Option<&Any<'_>>,
    origin: &Any<'_>,
    direction: &Any<'_>,
    max_t: f64,
    solid: bool,
) -> PyResult<Option<RayHit>> {
    let s = D::shape(shape).expect("dimension checked");
    let pose = D::pose(pose, "pose")?;
    let ray = ray::<D>(origin, direction)?;
    s.cast_ray_solid(&pose, &ray, max_t, solid)
        .map(|h| RayHit::new::<D>(py, &h, s.ray_hit_part(&pose, &ray, &h, solid)))
        .transpose()
}

/// The first hit of the ray `origin + t·direction`, `0 <= t <= max_t` (t in units of
/// `direction`); a solid shape is hit at `t = 0` from inside unless `solid=False`.
/// `RayHit.part` names the part of a composite shape hit: a mesh's or heightfield's
/// triangle, a compound's part, a polyline's segment, a polygon's convex piece
/// (`None` for a convex shape, and from inside a solid mesh). A NaN or infinite origin
/// or direction is a miss (`None`).
///
/// >>> hit = isect.cast_ray(isect.Sphere(1.0), None, (-5, 0, 0), (1, 0, 0))
/// >>> hit.t, hit.point, hit.normal
/// (4.0, (-1.0, 0.0, 0.0), (-1.0, 0.0, 0.0))
/// >>> isect.cast_ray(isect.Sphere(1.0), None, (0, 0, 0), (1, 0, 0), solid=False).t
/// 1.0
#[pyfunction]
#[pyo3(signature = (shape, pose, origin, direction, max_t=f64::INFINITY, solid=true))]
pub fn cast_ray(
    py: Python<'_>,
    shape: &Any<'_>,
    pose: Option<&Any<'_>>,
    origin: &Any<'_>,
    direction: &Any<'_>,
    max_t: f64,
    solid: bool,
) -> PyResult<Option<RayHit>> {
    by_dim!(
        which(shape, "shape")?,
        cast_ray_in(py, shape, pose, origin, direction, max_t, solid)
    )
}

#[allow(clippy::too_many_arguments)]
fn cast_shape_in<D: Dim>(
    shapes: (&D::Shape, &D::Shape),
    py: Python<'_>,
    pa: Option<&Any<'_>>,
    va: &Any<'_>,
    pb: Option<&Any<'_>>,
    vb: &Any<'_>,
    max_t: f64,
) -> PyResult<Option<ShapeCastHit>> {
    let p = pair_args::<D>(shapes, pa, pb)?;
    let (va, vb) = (D::vector(va, "velocity_a")?, D::vector(vb, "velocity_b")?);
    D::Shape::cast_pair(&p.pose_a, va, p.a, &p.pose_b, vb, p.b, max_t)
        .map(|h| ShapeCastHit::new::<D>(py, &h))
        .transpose()
}

/// The first time `t` in `[0, max_t]` at which A moving at `velocity_a` and B moving at
/// `velocity_b` (no rotation) touch, or `None`.
///
/// >>> hit = isect.cast_shape(isect.Sphere(1.0), None, (1, 0, 0), isect.Sphere(1.0), ((10, 0, 0), (0, 0, 0, 1)), (0, 0, 0), max_t=100.0)
/// >>> hit.time, hit.normal
/// (8.0, (1.0, 0.0, 0.0))
#[pyfunction]
#[pyo3(signature = (a, pose_a, velocity_a, b, pose_b, velocity_b, max_t=1.0))]
#[allow(clippy::too_many_arguments)]
pub fn cast_shape(
    py: Python<'_>,
    a: &Any<'_>,
    pose_a: Option<&Any<'_>>,
    velocity_a: &Any<'_>,
    b: &Any<'_>,
    pose_b: Option<&Any<'_>>,
    velocity_b: &Any<'_>,
    max_t: f64,
) -> PyResult<Option<ShapeCastHit>> {
    by_pair!(
        pair(a, b)?,
        cast_shape_in(py, pose_a, velocity_a, pose_b, velocity_b, max_t)
    )
}

#[allow(clippy::too_many_arguments)]
fn time_of_impact_in<D: Dim>(
    shapes: (&D::Shape, &D::Shape),
    py: Python<'_>,
    start_a: Option<&Any<'_>>,
    end_a: Option<&Any<'_>>,
    start_b: Option<&Any<'_>>,
    end_b: Option<&Any<'_>>,
) -> PyResult<Option<ShapeCastHit>> {
    let sweep = |s, e, what: &str| -> PyResult<Sweep<D::V>> {
        Ok(Sweep {
            start: D::pose(s, &format!("start_{what}"))?,
            end: D::pose(e, &format!("end_{what}"))?,
        })
    };
    let (sa, sb) = (sweep(start_a, end_a, "a")?, sweep(start_b, end_b, "b")?);
    let (a, b) = shapes;
    dispatch::time_of_impact(&sa, a, &sb, b)
        .map(|h| ShapeCastHit::new::<D>(py, &h))
        .transpose()
}

/// The first time in `[0, 1]` at which A and B touch while each moves from its start
/// pose to its end pose (translation linear, rotation at a constant rate), or `None`.
///
/// A ball of radius 0.5 moving 10 along x meets a wall whose face is at x = 4.5 after 4
/// of them:
///
/// >>> hit = isect.time_of_impact(isect.Sphere(0.5), None, ((10, 0, 0), (0, 0, 0, 1)), isect.Box([0.5, 2, 2]), ((5, 0, 0), (0, 0, 0, 1)), ((5, 0, 0), (0, 0, 0, 1)))
/// >>> round(hit.time, 6)
/// 0.4
#[pyfunction]
#[pyo3(signature = (a, start_a, end_a, b, start_b, end_b))]
pub fn time_of_impact(
    py: Python<'_>,
    a: &Any<'_>,
    start_a: Option<&Any<'_>>,
    end_a: Option<&Any<'_>>,
    b: &Any<'_>,
    start_b: Option<&Any<'_>>,
    end_b: Option<&Any<'_>>,
) -> PyResult<Option<ShapeCastHit>> {
    by_pair!(
        pair(a, b)?,
        time_of_impact_in(py, start_a, end_a, start_b, end_b)
    )
}

fn contains_point_in<D: Dim>(
    shape: &Any<'_>,
    pose: Option<&Any<'_>>,
    point: &Any<'_>,
) -> PyResult<bool> {
    let s = D::shape(shape).expect("checked");
    Ok(s.contains_point(&D::pose(pose, "pose")?, D::vector(point, "point")?))
}

/// True when the shape placed at `pose` contains `point` (boundary included).
///
/// >>> isect.contains_point(isect.Box([1, 1, 1]), None, (0.5, 0, 1)), isect.contains_point(isect.Box([1, 1, 1]), None, (0.5, 0, 1.1))
/// (True, False)
#[pyfunction]
#[pyo3(signature = (shape, pose, point))]
pub fn contains_point(shape: &Any<'_>, pose: Option<&Any<'_>>, point: &Any<'_>) -> PyResult<bool> {
    by_dim!(
        which(shape, "shape")?,
        contains_point_in(shape, pose, point)
    )
}

fn project_point_in<D: Dim>(
    py: Python<'_>,
    shape: &Any<'_>,
    pose: Option<&Any<'_>>,
    point: &Any<'_>,
    solid: bool,
) -> PyResult<PointProjection> {
    let s = D::shape(shape).expect("checked");
    let p = D::vector(point, "point")?;
    let projection = s.project_point(&D::pose(pose, "pose")?, p, solid);
    PointProjection::new::<D>(py, p, &projection)
}

/// The point of the shape nearest to `point`: with `solid=True` a point inside is its
/// own projection; with `solid=False` the nearest boundary point. `is_inside` tells
/// which side `point` was on, `distance` how far it moved.
///
/// >>> p = isect.project_point(isect.Box([1, 1, 1]), None, (3, 0, 0))
/// >>> p.point, p.is_inside, p.distance
/// ((1.0, 0.0, 0.0), False, 2.0)
/// >>> isect.project_point(isect.Box([1, 1, 1]), None, (0.5, 0, 0), solid=False).point
/// (1.0, 0.0, 0.0)
#[pyfunction]
#[pyo3(signature = (shape, pose, point, solid=true))]
pub fn project_point(
    py: Python<'_>,
    shape: &Any<'_>,
    pose: Option<&Any<'_>>,
    point: &Any<'_>,
    solid: bool,
) -> PyResult<PointProjection> {
    by_dim!(
        which(shape, "shape")?,
        project_point_in(py, shape, pose, point, solid)
    )
}

/// Every query verb, for the module to register.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(intersects, m)?)?;
    m.add_function(wrap_pyfunction!(distance, m)?)?;
    m.add_function(wrap_pyfunction!(closest_points, m)?)?;
    m.add_function(wrap_pyfunction!(contact, m)?)?;
    m.add_function(wrap_pyfunction!(contact_manifold, m)?)?;
    m.add_function(wrap_pyfunction!(contact_manifolds, m)?)?;
    m.add_function(wrap_pyfunction!(cast_ray, m)?)?;
    m.add_function(wrap_pyfunction!(cast_shape, m)?)?;
    m.add_function(wrap_pyfunction!(time_of_impact, m)?)?;
    m.add_function(wrap_pyfunction!(contains_point, m)?)?;
    m.add_function(wrap_pyfunction!(project_point, m)?)?;
    Ok(())
}
