//! Differential tests of compounds against parry2d / parry3d 0.31's `Compound`
//! (`query::distance`, `query::contact`, `RayCast::cast_ray`) on the same parts
//! (balls and boxes with random poses) and seeded random placements, with a guard
//! that the intersecting fraction stays in [30%, 70%].

#[path = "support/parry_pairs.rs"]
mod parry_pairs;
mod world_common;

use glam::{Quat, Vec2, Vec3};
use isect::math::{Pose2, Pose3};
use isect::query::dispatch;
use isect::query::RayCast;
use isect::shape::{shape_2d, shape_3d, Compound, Ray};
use parry_pairs::{ball_or_box_2d, ball_or_box_3d, parry_distance_depth_2d};
use parry_pairs::{parry_distance_depth_3d, pose_2d, pose_3d, r};
use world_common::{assert_hit_rate, rand_unit, rand_vec, Rng};

/// Random placements per dimension.
const CASES: usize = 2000;
/// Absolute tolerance on distances, depths and ray parameters (f32, unit shapes).
const TOL: f32 = 5e-3;
/// Depths are compared only below this (deep EPA answers may pick another part).
const SHALLOW: f32 = 0.1;

type Pair3 = (shape_3d::AnyShape<f32>, parry3d::shape::SharedShape);

/// A ball or a box, for both libraries.
fn part_3d(rng: &mut Rng) -> (shape_3d::Shape<f32>, parry3d::shape::SharedShape) {
    ball_or_box_3d(rng, (0.15, 0.45), (0.1, 0.4))
}

fn random_pose_3d(rng: &mut Rng, half: f64) -> (Pose3<f32>, parry3d::math::Pose) {
    let t = rand_vec::<Vec3>(rng, half);
    pose_3d(t, Quat::from_axis_angle(rand_unit(rng), r(rng, -3.2, 3.2)))
}

fn compound_3d(rng: &mut Rng) -> Pair3 {
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..2 + rng.below(3) {
        let (p, pp) = random_pose_3d(rng, 0.6);
        let (s, ps) = part_3d(rng);
        ours.push((p, s));
        theirs.push((pp, ps));
    }
    (
        Compound::new(ours).unwrap().into(),
        parry3d::shape::SharedShape::compound(theirs),
    )
}

/// Compares distance, shallow depth and a ray; returns whether they intersect.
fn compare(
    ours: (f32, Option<f32>, Option<f32>),
    theirs: (f32, Option<f32>, Option<f32>),
    what: &str,
) -> bool {
    let ((d, depth, t), (pd, pdepth, pt)) = (ours, theirs);
    assert!((d - pd).abs() <= TOL, "distance {d} vs parry {pd}: {what}");
    if let (Some(x), Some(y)) = (depth, pdepth) {
        if x < SHALLOW && y < SHALLOW {
            assert!((x - y).abs() <= 2.0 * TOL, "depth {x} vs parry {y}: {what}");
        }
    }
    match (t, pt) {
        (Some(x), Some(y)) => assert!((x - y).abs() <= TOL, "ray {x} vs parry {y}: {what}"),
        // Grazing rays may round either way.
        (x, y) => assert_eq!(x.is_some(), y.is_some(), "ray {x:?} vs parry {y:?}: {what}"),
    }
    d == 0.0
}

#[test]
fn compound_3d_matches_parry() {
    let mut rng = Rng(51);
    let mut hits = 0;
    for _ in 0..CASES {
        let (a, pa_) = compound_3d(&mut rng);
        let (b, pb_) = if rng.below(2) == 0 {
            compound_3d(&mut rng)
        } else {
            let (s, ps) = part_3d(&mut rng);
            (s.into(), ps)
        };
        let ((pa, ppa), (pb, ppb)) = (random_pose_3d(&mut rng, 0.3), random_pose_3d(&mut rng, 0.9));
        let (origin, target) = (
            rand_vec::<Vec3>(&mut rng, 2.5),
            rand_vec::<Vec3>(&mut rng, 1.0),
        );
        let ray = Ray {
            origin,
            dir: target - origin,
        };
        let pray = parry3d::query::Ray::new(origin, target - origin);
        let ours = (
            dispatch::distance(&pa, &a, &pb, &b),
            dispatch::contact(&pa, &a, &pb, &b, 0.0).map(|c| c.depth),
            a.cast_ray_posed(&pa, &ray, 2.0).map(|h| h.t),
        );
        let (sa, sb) = (&*pa_.0, &*pb_.0);
        let (distance, depth) = parry_distance_depth_3d(&ppa, sa, &ppb, sb);
        let theirs = (distance, depth, sa.cast_ray(&ppa, &pray, 2.0, true));
        hits += compare(ours, theirs, &format!("{a:?} at {pa:?} vs {b:?} at {pb:?}")) as usize;
    }
    assert_hit_rate(hits, CASES, "compound 3D vs parry");
}

type Pair2 = (shape_2d::AnyShape<f32>, parry2d::shape::SharedShape);

fn part_2d(rng: &mut Rng) -> (shape_2d::Shape<f32>, parry2d::shape::SharedShape) {
    ball_or_box_2d(rng, (0.15, 0.45), (0.1, 0.4))
}

fn random_pose_2d(rng: &mut Rng, half: f64) -> (Pose2<f32>, parry2d::math::Pose) {
    let (t, angle) = (rand_vec::<Vec2>(rng, half), r(rng, -3.2, 3.2));
    pose_2d(t, angle)
}

fn compound_2d(rng: &mut Rng) -> Pair2 {
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..2 + rng.below(3) {
        let (p, pp) = random_pose_2d(rng, 0.6);
        let (s, ps) = part_2d(rng);
        ours.push((p, s));
        theirs.push((pp, ps));
    }
    (
        Compound::new(ours).unwrap().into(),
        parry2d::shape::SharedShape::compound(theirs),
    )
}

#[test]
fn compound_2d_matches_parry() {
    let mut rng = Rng(52);
    let mut hits = 0;
    for _ in 0..CASES {
        let (a, pa_) = compound_2d(&mut rng);
        let (b, pb_) = if rng.below(2) == 0 {
            compound_2d(&mut rng)
        } else {
            let (s, ps) = part_2d(&mut rng);
            (s.into(), ps)
        };
        let ((pa, ppa), (pb, ppb)) = (random_pose_2d(&mut rng, 0.3), random_pose_2d(&mut rng, 1.6));
        let (origin, target) = (
            rand_vec::<Vec2>(&mut rng, 2.5),
            rand_vec::<Vec2>(&mut rng, 1.0),
        );
        let ray = Ray {
            origin,
            dir: target - origin,
        };
        let pray = parry2d::query::Ray::new(origin, target - origin);
        let ours = (
            dispatch::distance(&pa, &a, &pb, &b),
            dispatch::contact(&pa, &a, &pb, &b, 0.0).map(|c| c.depth),
            a.cast_ray_posed(&pa, &ray, 2.0).map(|h| h.t),
        );
        let (sa, sb) = (&*pa_.0, &*pb_.0);
        let (distance, depth) = parry_distance_depth_2d(&ppa, sa, &ppb, sb);
        let theirs = (distance, depth, sa.cast_ray(&ppa, &pray, 2.0, true));
        hits += compare(ours, theirs, &format!("{a:?} at {pa:?} vs {b:?} at {pb:?}")) as usize;
    }
    assert_hit_rate(hits, CASES, "compound 2D vs parry");
}
