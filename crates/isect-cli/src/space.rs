//! The two spaces a scene can live in, behind one trait, so that `check`, `ray`,
//! `render` and `demo` are written once for 2D and 3D (all in `f64`).

use crate::svg::Figure;
use glam::{DQuat, DVec2, DVec3};
use isect::math::{Pose2, Pose3, Rot2};
use isect::world::World;
pub use isect_io::scene::{SceneSpace, D2, D3};

/// A dimension (its vector, pose and shape types from the scene reader's
/// [`SceneSpace`]) with conversions to plain numbers and pictures.
pub trait Space: SceneSpace {
    /// The coordinates of `v`, `DIM` of them.
    fn coords(v: Self::V) -> Vec<f64>;
    /// The vector of `DIM` coordinates (`None` for another count).
    fn from_coords(c: &[f64]) -> Option<Self::V>;
    /// The vector `(x, y[, 0])`: a direction of the drawing plane.
    fn planar(x: f64, y: f64) -> Self::V;
    /// The pose moved by `offset` and turned by `spin` (radians about z in 2D; in 3D
    /// about the fixed axis `(1, 2, 3)` normalised, enough for a demo).
    fn advance(pose: &Self::Pose, offset: Self::V, spin: f64) -> Self::Pose;
    /// The kind of a shape (`"Ball"`, `"TriMesh"`, ...).
    fn kind_name(shape: &Self::S) -> &'static str;
    /// What the picture shows of `shape` at `pose` (projected onto x–y).
    fn figure(shape: &Self::S, pose: &Self::Pose) -> Figure;
}

/// The collision world of a space.
pub type SpaceWorld<Sp> = World<<Sp as SceneSpace>::V, <Sp as SceneSpace>::S>;

impl Space for D2 {
    fn coords(v: DVec2) -> Vec<f64> {
        vec![v.x, v.y]
    }
    fn from_coords(c: &[f64]) -> Option<DVec2> {
        match c {
            [x, y] => Some(DVec2::new(*x, *y)),
            _ => None,
        }
    }
    fn planar(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }
    fn advance(pose: &Pose2<f64>, offset: DVec2, spin: f64) -> Pose2<f64> {
        Pose2 {
            rotation: Rot2::from_angle(spin).compose(pose.rotation),
            translation: pose.translation + offset,
        }
    }
    fn kind_name(shape: &Self::S) -> &'static str {
        shape.kind_name()
    }
    fn figure(shape: &Self::S, pose: &Pose2<f64>) -> Figure {
        crate::figure::figure_2d(shape, pose)
    }
}

impl Space for D3 {
    fn coords(v: DVec3) -> Vec<f64> {
        vec![v.x, v.y, v.z]
    }
    fn from_coords(c: &[f64]) -> Option<DVec3> {
        match c {
            [x, y, z] => Some(DVec3::new(*x, *y, *z)),
            _ => None,
        }
    }
    fn planar(x: f64, y: f64) -> DVec3 {
        DVec3::new(x, y, 0.0)
    }
    fn advance(pose: &Pose3<f64>, offset: DVec3, spin: f64) -> Pose3<f64> {
        let axis = DVec3::new(1.0, 2.0, 3.0).normalize();
        let rotation = (DQuat::from_axis_angle(axis, spin) * pose.rotation).normalize();
        Pose3::new(pose.translation + offset, rotation)
    }
    fn kind_name(shape: &Self::S) -> &'static str {
        shape.kind_name()
    }
    fn figure(shape: &Self::S, pose: &Pose3<f64>) -> Figure {
        crate::figure::figure_3d(shape, pose)
    }
}
