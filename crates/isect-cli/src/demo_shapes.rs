//! The demo's random shapes of every kind and their motion, per dimension.

use crate::rng::Rng;
use crate::space::{Space, D2, D3};
use glam::{DQuat, DVec2, DVec3};
use isect::math::{Pose2, Pose3};
use isect::shape::{shape_2d, shape_3d, Aabb, Ball, Capsule, Rounded, Segment, Triangle};
use isect::shape::{Cone, ConvexPolygon, ConvexPolyhedron, Cylinder, ShapeError};

/// What the demo needs of a dimension beyond [`Space`].
pub trait DemoSpace: Space {
    /// The number of shape kinds (the demo cycles through them).
    const KINDS: usize;
    /// A random convex shape of kind `kind` (modulo [`Self::KINDS`]) about `size`
    /// across.
    ///
    /// # Errors
    /// The constructor's error, which the generators avoid by building convex,
    /// non-degenerate input (points on a circle or sphere).
    fn random_shape(rng: &mut Rng, kind: usize, size: f64) -> Result<Self::S, ShapeError>;
    /// The demo's composite shapes in the box `[-half, half]^DIM`: each with its
    /// pose and velocity (zero for the fixed ground), named for the summary.
    ///
    /// # Errors
    /// The constructor's error (the demo's input is valid by construction).
    fn composites(half: f64) -> Result<Vec<Placed<Self>>, ShapeError>;
    /// A random pose inside the cube `[-half, half]^DIM`.
    fn random_pose(rng: &mut Rng, half: f64) -> Self::Pose;
    /// A random velocity of length up to `speed`.
    fn random_velocity(rng: &mut Rng, speed: f64) -> Self::V;
    /// The translation of a pose.
    fn position(pose: &Self::Pose) -> Self::V;
}

/// A composite of the demo, placed.
pub struct Placed<Sp: Space + ?Sized> {
    /// What it is, for the summary (`"heightfield ground"`).
    pub name: &'static str,
    /// The shape.
    pub shape: Sp::S,
    /// Where it starts.
    pub pose: Sp::Pose,
    /// Its velocity per frame (zero: fixed).
    pub velocity: Sp::V,
    /// Its turn per frame, radians.
    pub spin: f64,
}

/// A ball of radius `r` about the origin.
fn ball<V: isect::math::Vector<Scalar = f64>>(r: f64) -> Result<Ball<V>, ShapeError> {
    Ball::new(V::ZERO, r)
}

/// `k` points on a circle of radius `r` at increasing random angles: convex.
fn circle_points(rng: &mut Rng, k: usize, r: f64) -> Vec<DVec2> {
    let mut angles: Vec<f64> = (0..k)
        .map(|_| rng.range(0.0, std::f64::consts::TAU))
        .collect();
    angles.sort_by(f64::total_cmp);
    angles
        .iter()
        .map(|a| DVec2::new(a.cos(), a.sin()) * r)
        .collect()
}

/// A random convex 2D shape of kind `kind` (0..8) about `size` across.
fn convex_2d(rng: &mut Rng, kind: usize, size: f64) -> Result<shape_2d::Shape<f64>, ShapeError> {
    use shape_2d::Shape as S;
    let h = size / 2.0;
    let half = DVec2::new(rng.range(0.3, 1.0), rng.range(0.3, 1.0)) * h;
    match kind {
        0 => ball(h).map(S::Ball),
        1 => Aabb::from_center(DVec2::ZERO, half).map(S::Cuboid),
        2 => Capsule::aligned(1, h * 0.6, h * 0.4).map(S::Capsule),
        3 => Segment::new(DVec2::new(-h, 0.0), DVec2::new(h, 0.0)).map(S::Segment),
        4 => {
            let p = circle_points(rng, 3, h);
            Triangle::new(p[0], p[1], p[2]).map(S::Triangle)
        }
        5 => ConvexPolygon::new(&circle_points(rng, 6, h)).map(S::Polygon),
        6 => Aabb::from_center(DVec2::ZERO, half * 0.7)
            .and_then(|b| Rounded::new(b, h * 0.3))
            .map(S::RoundedCuboid),
        _ => ConvexPolygon::new(&circle_points(rng, 5, h * 0.7))
            .and_then(|p| Rounded::new(p, h * 0.3))
            .map(S::RoundedPolygon),
    }
}

impl DemoSpace for D2 {
    const KINDS: usize = 8;

    fn random_shape(
        rng: &mut Rng,
        kind: usize,
        size: f64,
    ) -> Result<shape_2d::AnyShape<f64>, ShapeError> {
        convex_2d(rng, kind, size).map(shape_2d::AnyShape::Convex)
    }

    fn composites(half: f64) -> Result<Vec<Placed<D2>>, ShapeError> {
        crate::demo_composites::composites_2d(half)
    }

    fn random_pose(rng: &mut Rng, half: f64) -> Pose2<f64> {
        let at = DVec2::new(rng.range(-half, half), rng.range(-half, half));
        Pose2::new(at, rng.range(0.0, std::f64::consts::TAU))
    }

    fn random_velocity(rng: &mut Rng, speed: f64) -> DVec2 {
        let a = rng.range(0.0, std::f64::consts::TAU);
        DVec2::new(a.cos(), a.sin()) * rng.range(0.2, 1.0) * speed
    }

    fn position(pose: &Pose2<f64>) -> DVec2 {
        pose.translation
    }
}

/// `k` random points on a sphere of radius `r`.
fn sphere_points(rng: &mut Rng, k: usize, r: f64) -> Vec<DVec3> {
    (0..k)
        .map(|_| {
            let z = rng.range(-1.0, 1.0);
            let a = rng.range(0.0, std::f64::consts::TAU);
            let s = (1.0 - z * z).sqrt();
            DVec3::new(s * a.cos(), s * a.sin(), z) * r
        })
        .collect()
}

/// A random convex 3D shape of kind `kind` (0..9) about `size` across.
fn convex_3d(rng: &mut Rng, kind: usize, size: f64) -> Result<shape_3d::Shape<f64>, ShapeError> {
    use shape_3d::Shape as S;
    let h = size / 2.0;
    let half = DVec3::new(
        rng.range(0.3, 1.0),
        rng.range(0.3, 1.0),
        rng.range(0.3, 1.0),
    ) * h;
    match kind {
        0 => ball(h).map(S::Ball),
        1 => Aabb::from_center(DVec3::ZERO, half).map(S::Cuboid),
        2 => Capsule::aligned(1, h * 0.6, h * 0.4).map(S::Capsule),
        3 => Segment::new(DVec3::new(-h, 0.0, 0.0), DVec3::new(h, 0.0, 0.0)).map(S::Segment),
        4 => {
            let p = sphere_points(rng, 3, h);
            Triangle::new(p[0], p[1], p[2]).map(S::Triangle)
        }
        5 => ConvexPolyhedron::from_points(&sphere_points(rng, 10, h)).map(S::Polyhedron),
        6 => Cylinder::new(h * 0.7, h * 0.5).map(S::Cylinder),
        7 => Cone::new(h * 0.7, h * 0.6).map(S::Cone),
        _ => Aabb::from_center(DVec3::ZERO, half * 0.7)
            .and_then(|b| Rounded::new(b, h * 0.3))
            .map(S::RoundedCuboid),
    }
}

impl DemoSpace for D3 {
    const KINDS: usize = 9;

    fn random_shape(
        rng: &mut Rng,
        kind: usize,
        size: f64,
    ) -> Result<shape_3d::AnyShape<f64>, ShapeError> {
        convex_3d(rng, kind, size).map(shape_3d::AnyShape::Convex)
    }

    fn composites(half: f64) -> Result<Vec<Placed<D3>>, ShapeError> {
        crate::demo_composites::composites_3d(half)
    }

    fn random_pose(rng: &mut Rng, half: f64) -> Pose3<f64> {
        let at = DVec3::new(
            rng.range(-half, half),
            rng.range(-half, half),
            rng.range(-half, half),
        );
        let axis = sphere_points(rng, 1, 1.0)[0];
        Pose3::new(
            at,
            DQuat::from_axis_angle(axis, rng.range(0.0, std::f64::consts::TAU)),
        )
    }

    fn random_velocity(rng: &mut Rng, speed: f64) -> DVec3 {
        sphere_points(rng, 1, 1.0)[0] * rng.range(0.2, 1.0) * speed
    }

    fn position(pose: &Pose3<f64>) -> DVec3 {
        pose.translation
    }
}
