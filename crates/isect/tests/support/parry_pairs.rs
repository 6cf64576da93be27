//! One shape, pose or answer in both libraries' forms (ours, then parry's), for the
//! differential tests against parry2d / parry3d (`*_parry.rs`) and the benchmarks.
//! The including file brings the seeded `Rng` into its root (`use rng::Rng;`).
#![allow(dead_code)]

use glam::{Quat, Vec2, Vec3};
use isect::math::{Pose2, Pose3};
use isect::shape::{shape_2d, shape_3d, Aabb, Ball, ConcavePolygon};
use parry2d::shape::SharedShape as P2;
use parry3d::shape::SharedShape as P3;

use super::Rng;

/// Uniform in `[lo, hi)`, drawn in `f64`, as `f32`.
pub fn r(rng: &mut Rng, lo: f64, hi: f64) -> f32 {
    rng.range(lo, hi) as f32
}

/// Each coordinate drawn by `r` in `[lo, hi)`, in the order x, y, z.
pub fn r3(rng: &mut Rng, lo: f64, hi: f64) -> Vec3 {
    Vec3::new(r(rng, lo, hi), r(rng, lo, hi), r(rng, lo, hi))
}

/// Each coordinate drawn by `r` in `[lo, hi)`, in the order x, y.
pub fn r2(rng: &mut Rng, lo: f64, hi: f64) -> Vec2 {
    Vec2::new(r(rng, lo, hi), r(rng, lo, hi))
}

/// The pose of translation `t` and rotation `q`.
pub fn pose_3d(t: Vec3, q: Quat) -> (Pose3<f32>, parry3d::math::Pose) {
    (Pose3::new(t, q), parry3d::math::Pose::from_parts(t, q))
}

/// The pose of translation `t` and rotation `angle` (radians, counter-clockwise).
pub fn pose_2d(t: Vec2, angle: f32) -> (Pose2<f32>, parry2d::math::Pose) {
    (Pose2::new(t, angle), parry2d::math::Pose::new(t, angle))
}

/// A ball of radius `rad` at the origin.
pub fn ball_3d(rad: f32) -> (shape_3d::Shape<f32>, P3) {
    (Ball::new(Vec3::ZERO, rad).unwrap().into(), P3::ball(rad))
}

/// A box of half extents `h` centred at the origin.
pub fn cuboid_3d(h: Vec3) -> (shape_3d::Shape<f32>, P3) {
    let ours = Aabb::from_center(Vec3::ZERO, h).unwrap();
    (ours.into(), P3::cuboid(h.x, h.y, h.z))
}

/// A disc of radius `rad` at the origin.
pub fn ball_2d(rad: f32) -> (shape_2d::Shape<f32>, P2) {
    (Ball::new(Vec2::ZERO, rad).unwrap().into(), P2::ball(rad))
}

/// A rectangle of half extents `h` centred at the origin.
pub fn cuboid_2d(h: Vec2) -> (shape_2d::Shape<f32>, P2) {
    let ours = Aabb::from_center(Vec2::ZERO, h).unwrap();
    (ours.into(), P2::cuboid(h.x, h.y))
}

/// Even odds of a ball of radius in `rad` or a box of half extents in `half`.
pub fn ball_or_box_3d(
    rng: &mut Rng,
    rad: (f64, f64),
    half: (f64, f64),
) -> (shape_3d::Shape<f32>, P3) {
    if rng.below(2) == 0 {
        ball_3d(r(rng, rad.0, rad.1))
    } else {
        cuboid_3d(r3(rng, half.0, half.1))
    }
}

/// Even odds of a disc of radius in `rad` or a rectangle of half extents in `half`.
pub fn ball_or_box_2d(
    rng: &mut Rng,
    rad: (f64, f64),
    half: (f64, f64),
) -> (shape_2d::Shape<f32>, P2) {
    if rng.below(2) == 0 {
        ball_2d(r(rng, rad.0, rad.1))
    } else {
        cuboid_2d(r2(rng, half.0, half.1))
    }
}

/// Parry's parts for our concave polygon: its decomposition's convex pieces (parry
/// has no concave polygon; a `Compound` of them answers the same solid question).
pub fn parry_pieces(polygon: &ConcavePolygon<f32>) -> Vec<(parry2d::math::Pose, P2)> {
    polygon
        .pieces()
        .iter()
        .map(|p| {
            let hull = P2::convex_polyline(p.vertices().to_vec());
            (parry2d::math::Pose::IDENTITY, hull.expect("a convex piece"))
        })
        .collect()
}

/// Parry's distance and contact depth (positive when penetrating) of `a` at `pa` and
/// `b` at `pb`, in 3D.
pub fn parry_distance_depth_3d(
    pa: &parry3d::math::Pose,
    a: &dyn parry3d::shape::Shape,
    pb: &parry3d::math::Pose,
    b: &dyn parry3d::shape::Shape,
) -> (f32, Option<f32>) {
    let distance = parry3d::query::distance(pa, a, pb, b).unwrap().distance;
    let contact = parry3d::query::contact(pa, a, pb, b, 0.0).unwrap();
    (distance, contact.map(|c| -c.dist))
}

/// Parry's distance and contact depth (positive when penetrating) of `a` at `pa` and
/// `b` at `pb`, in 2D.
pub fn parry_distance_depth_2d(
    pa: &parry2d::math::Pose,
    a: &dyn parry2d::shape::Shape,
    pb: &parry2d::math::Pose,
    b: &dyn parry2d::shape::Shape,
) -> (f32, Option<f32>) {
    let distance = parry2d::query::distance(pa, a, pb, b).unwrap().distance;
    let contact = parry2d::query::contact(pa, a, pb, b, 0.0).unwrap();
    (distance, contact.map(|c| -c.dist))
}
