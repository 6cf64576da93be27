//! The two spaces a scene can live in, behind one trait, so that `check`, `ray`,
//! `render` and `demo` are written once for 2D and 3D (all in `f64`).

use crate::svg::Figure;
use glam::{DQuat, DVec2, DVec3};
use isect::math::{Pose2, Pose3, Rot2};
use isect::world::World;
pub use isect_io::scene::{SceneSpace, D2, D3};

/// The axis a 3D scene is seen along in a picture (orthographic). The library is
/// y-up (cylinders, cones and heightfields stand along y), so the views are those of
/// a y-up drawing: front, side and top; each keeps a right-handed frame (picture
/// right, picture up, toward the viewer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum View {
    /// Front, from +z: x to the right, y up (the x–y plane; the only view of a 2D
    /// scene).
    #[default]
    Z,
    /// Side, from +x: −z to the right, y up (the z–y plane).
    X,
    /// Top, from +y: x to the right, −z up (the x–z plane seen from above).
    Y,
}

impl View {
    /// The rotation taking world coordinates to picture coordinates (right, up,
    /// toward the viewer).
    pub fn rotation(self) -> DQuat {
        match self {
            Self::Z => DQuat::IDENTITY,
            // (x, y, z) → (−z, y, x).
            Self::X => DQuat::from_mat3(&glam::DMat3::from_cols(DVec3::Z, DVec3::Y, -DVec3::X)),
            // (x, y, z) → (x, −z, y).
            Self::Y => DQuat::from_mat3(&glam::DMat3::from_cols(DVec3::X, DVec3::Z, -DVec3::Y)),
        }
    }
}

/// A dimension (its vector, pose and shape types from the scene reader's
/// [`SceneSpace`]) with conversions to plain numbers and pictures.
pub trait Space: SceneSpace {
    /// `v` in the picture frame of `view` (2D: `v`).
    fn viewed(v: Self::V, view: View) -> Self::V;
    /// `pose` followed by the turn into the picture frame of `view` (2D: `pose`).
    fn viewed_pose(pose: &Self::Pose, view: View) -> Self::Pose;
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
    /// How many points [`figure`](Self::figure) would draw of `shape`, counted
    /// without building it, and what makes a composite big (`a TriMesh of 12
    /// triangles`) with how to draw it smaller.
    fn figure_points(shape: &Self::S) -> (usize, crate::figure::Bulk);
}

/// The collision world of a space.
pub type SpaceWorld<Sp> = World<<Sp as SceneSpace>::V, <Sp as SceneSpace>::S>;

impl Space for D2 {
    fn viewed(v: DVec2, _view: View) -> DVec2 {
        v
    }
    fn viewed_pose(pose: &Pose2<f64>, _view: View) -> Pose2<f64> {
        *pose
    }
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
        // Renormalised every step: products of rotations drift off unit length by a
        // few ulps a step, and the world refuses a rotation beyond its tolerance
        // after some thousands of frames.
        let r = Rot2::from_angle(spin).compose(pose.rotation);
        let length = r.cos.hypot(r.sin);
        Pose2 {
            rotation: Rot2 {
                cos: r.cos / length,
                sin: r.sin / length,
            },
            translation: pose.translation + offset,
        }
    }
    fn kind_name(shape: &Self::S) -> &'static str {
        shape.kind_name()
    }
    fn figure(shape: &Self::S, pose: &Pose2<f64>) -> Figure {
        crate::figure::figure_2d(shape, pose)
    }
    fn figure_points(shape: &Self::S) -> (usize, crate::figure::Bulk) {
        crate::figure::points_2d(shape)
    }
}

impl Space for D3 {
    fn viewed(v: DVec3, view: View) -> DVec3 {
        view.rotation() * v
    }
    fn viewed_pose(pose: &Pose3<f64>, view: View) -> Pose3<f64> {
        let q = view.rotation();
        Pose3::new(q * pose.translation, q * pose.rotation)
    }
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
    fn figure_points(shape: &Self::S) -> (usize, crate::figure::Bulk) {
        crate::figure::points_3d(shape)
    }
}
