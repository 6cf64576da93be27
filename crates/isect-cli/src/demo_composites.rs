//! The demo's composite shapes: a fixed heightfield ground in both dimensions, and
//! moving non-convex bodies (a concave polygon with a hole, a closed star-shaped
//! polyline and a compound dumbbell in 2D; a solid octahedron mesh and a compound
//! dumbbell in 3D), sized from the box's half width so they meet the convex crowd.

use crate::demo_shapes::Placed;
use crate::space::{D2, D3};
use glam::{DQuat, DVec2, DVec3};
use isect::math::{Pose2, Pose3};
use isect::shape::shape_2d::{AnyShape as Any2, Shape as Convex2};
use isect::shape::shape_3d::{AnyShape as Any3, Shape as Convex3};
use isect::shape::{heightfield_2d, heightfield_3d, Aabb, Ball};
use isect::shape::{Compound, ConcavePolygon, Polyline, ShapeError, TriMesh, TriMeshFlags};

/// Height samples along the 2D ground (and per side of the 3D grid).
const GROUND_SAMPLES: usize = 65;
/// Grid points per side of the 3D ground.
const GROUND_GRID: usize = 33;

/// Rolling hills: a unit-scale height for sample `i` (and `j` in 3D).
fn hill(i: usize, j: usize) -> f64 {
    let (x, z) = (i as f64, j as f64);
    0.6 * (0.35 * x).sin() * (0.3 * z).cos() + 0.3 * (1.3 * x + 0.7 * z).sin()
}

/// The 2D composites in the box `[-half, half]²`.
///
/// # Errors
/// A constructor's error (none for this fixed input).
pub fn composites_2d(half: f64) -> Result<Vec<Placed<D2>>, ShapeError> {
    let heights = (0..GROUND_SAMPLES).map(|i| hill(i, 0)).collect();
    let ground = heightfield_2d::HeightField::new(heights, DVec2::new(2.0 * half, 0.06 * half))?;
    let s = 0.08 * half;
    // An L whose corner square holds a square hole, centred near its middle.
    let l: Vec<DVec2> = [[0., 0.], [3., 0.], [3., 1.], [1., 1.], [1., 3.], [0., 3.]]
        .iter()
        .map(|&[x, y]| DVec2::new(x - 1.0, y - 1.0) * s)
        .collect();
    let hole: Vec<DVec2> = [[0.25, 0.25], [0.75, 0.25], [0.75, 0.75], [0.25, 0.75]]
        .iter()
        .map(|&[x, y]| DVec2::new(x - 1.0, y - 1.0) * s)
        .collect();
    let star = (0..10).map(|k| {
        let a = std::f64::consts::TAU * k as f64 / 10.0;
        DVec2::new(a.cos(), a.sin()) * if k % 2 == 0 { 1.5 * s } else { 0.6 * s }
    });
    let star = Polyline::new(star.collect(), true)?;
    let place = |name, shape: Any2<f64>, at: [f64; 2], v: [f64; 2], spin| Placed {
        name,
        shape,
        pose: Pose2::new(DVec2::from(at) * half, 0.0),
        velocity: DVec2::from(v) * half,
        spin,
    };
    Ok(vec![
        place(
            "heightfield ground",
            ground.into(),
            [0.0, -0.8],
            [0.0; 2],
            0.0,
        ),
        place(
            "concave polygon with a hole",
            ConcavePolygon::new(l, vec![hole])?.into(),
            [-0.45, 0.4],
            [0.002, -0.001],
            0.01,
        ),
        place(
            "closed star polyline",
            star.into(),
            [0.45, 0.4],
            [-0.001, -0.002],
            -0.01,
        ),
        place(
            "compound dumbbell",
            dumbbell_2d(0.6 * s)?.into(),
            [0.0, 0.0],
            [0.0015, 0.002],
            0.02,
        ),
    ])
}

/// Two discs joined by a bar, `s` the discs' radius.
fn dumbbell_2d(s: f64) -> Result<Compound<DVec2, Convex2<f64>>, ShapeError> {
    let at = |x: f64| Pose2::new(DVec2::new(x, 0.0), 0.0);
    let disc = Convex2::Ball(Ball::new(DVec2::ZERO, s)?);
    let bar = Convex2::Cuboid(Aabb::from_center(
        DVec2::ZERO,
        DVec2::new(2.5 * s, 0.3 * s),
    )?);
    Compound::new(vec![
        (at(-2.5 * s), disc.clone()),
        (at(2.5 * s), disc),
        (at(0.0), bar),
    ])
}

/// The 3D composites in the box `[-half, half]³`.
///
/// # Errors
/// A constructor's error (none for this fixed input).
pub fn composites_3d(half: f64) -> Result<Vec<Placed<D3>>, ShapeError> {
    let n = GROUND_GRID;
    let heights = (0..n * n).map(|k| hill(k / n, k % n)).collect();
    let scale = DVec3::new(2.0 * half, 0.08 * half, 2.0 * half);
    let ground = heightfield_3d::HeightField::new(heights, n, n, scale)?;
    let s = 0.12 * half;
    let place = |name, shape: Any3<f64>, at: [f64; 3], v: [f64; 3], spin| Placed {
        name,
        shape,
        pose: Pose3::new(DVec3::from(at) * half, DQuat::IDENTITY),
        velocity: DVec3::from(v) * half,
        spin,
    };
    Ok(vec![
        place(
            "heightfield ground",
            ground.into(),
            [0.0, -0.8, 0.0],
            [0.0; 3],
            0.0,
        ),
        place(
            "solid octahedron mesh",
            octahedron(s)?.into(),
            [-0.4, 0.3, 0.0],
            [0.002, -0.001, 0.001],
            0.01,
        ),
        place(
            "compound dumbbell",
            dumbbell_3d(0.4 * s)?.into(),
            [0.4, 0.3, 0.0],
            [-0.0015, 0.002, -0.001],
            0.02,
        ),
    ])
}

/// The solid octahedron with vertices `±r` on each axis, faces outward.
fn octahedron(r: f64) -> Result<TriMesh<f64>, ShapeError> {
    let vertices: Vec<DVec3> = [
        DVec3::X,
        -DVec3::X,
        DVec3::Y,
        -DVec3::Y,
        DVec3::Z,
        -DVec3::Z,
    ]
    .iter()
    .map(|&v| v * r)
    .collect();
    // One face per octant: corners (x, y, z) of its signs, counter-clockwise from
    // outside when the product of the signs is positive.
    let triangles = (0..8u32).map(|o| {
        let (x, y, z) = (o & 1, 2 + ((o >> 1) & 1), 4 + ((o >> 2) & 1));
        let odd = (o & 1) ^ ((o >> 1) & 1) ^ ((o >> 2) & 1) == 1;
        if odd {
            [x, z, y]
        } else {
            [x, y, z]
        }
    });
    TriMesh::new(vertices, triangles.collect(), TriMeshFlags::SOLID)
}

/// Two balls joined by a bar along x, `s` the balls' radius.
fn dumbbell_3d(s: f64) -> Result<Compound<DVec3, Convex3<f64>>, ShapeError> {
    let at = |x: f64| Pose3::new(DVec3::new(x, 0.0, 0.0), DQuat::IDENTITY);
    let ball = Convex3::Ball(Ball::new(DVec3::ZERO, s)?);
    let bar = DVec3::new(2.5 * s, 0.3 * s, 0.3 * s);
    let bar = Convex3::Cuboid(Aabb::from_center(DVec3::ZERO, bar)?);
    Compound::new(vec![
        (at(-2.5 * s), ball.clone()),
        (at(2.5 * s), ball),
        (at(0.0), bar),
    ])
}
