//! Differential tests of compounds against parry2d / parry3d 0.31's `Compound`
//! (`query::distance`, `query::contact`, `RayCast::cast_ray`) on the same parts
//! (balls and boxes with random poses) and seeded random placements, with a guard
//! that the intersecting fraction stays in [30%, 70%].

mod world_common;

use glam::{Quat, Vec2, Vec3};
use isect::math::{Pose2, Pose3};
use isect::query::dispatch;
use isect::query::RayCast;
use isect::shape::{shape_2d, shape_3d, Aabb, Ball, Compound, Ray};
use world_common::{assert_hit_rate, rand_unit, rand_vec, Rng};

/// Random placements per dimension.
const CASES: usize = 2000;
/// Absolute tolerance on distances, depths and ray parameters (f32, unit shapes).
const TOL: f32 = 5e-3;
/// Depths are compared only below this (deep EPA answers may pick another part).
const SHALLOW: f32 = 0.1;

fn r(rng: &mut Rng, lo: f64, hi: f64) -> f32 {
    rng.range(lo, hi) as f32
}

type Pair3 = (shape_3d::AnyShape<f32>, parry3d::shape::SharedShape);

/// A ball or a box, for both libraries.
fn part_3d(rng: &mut Rng) -> (shape_3d::Shape<f32>, parry3d::shape::SharedShape) {
    use parry3d::shape::SharedShape as P;
    if rng.below(2) == 0 {
        let rad = r(rng, 0.15, 0.45);
        (Ball::new(Vec3::ZERO, rad).unwrap().into(), P::ball(rad))
    } else {
        let h = Vec3::new(r(rng, 0.1, 0.4), r(rng, 0.1, 0.4), r(rng, 0.1, 0.4));
        (
            Aabb::from_center(Vec3::ZERO, h).unwrap().into(),
            P::cuboid(h.x, h.y, h.z),
        )
    }
}

fn pose_3d(rng: &mut Rng, half: f64) -> (Pose3<f32>, parry3d::math::Pose) {
    let t = rand_vec::<Vec3>(rng, half);
    let q = Quat::from_axis_angle(rand_unit(rng), r(rng, -3.2, 3.2));
    (Pose3::new(t, q), parry3d::math::Pose::from_parts(t, q))
}

fn compound_3d(rng: &mut Rng) -> Pair3 {
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..2 + rng.below(3) {
        let (p, pp) = pose_3d(rng, 0.6);
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
        let ((pa, ppa), (pb, ppb)) = (pose_3d(&mut rng, 0.3), pose_3d(&mut rng, 0.9));
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
        let theirs = (
            parry3d::query::distance(&ppa, sa, &ppb, sb)
                .unwrap()
                .distance,
            parry3d::query::contact(&ppa, sa, &ppb, sb, 0.0)
                .unwrap()
                .map(|c| -c.dist),
            sa.cast_ray(&ppa, &pray, 2.0, true),
        );
        hits += compare(ours, theirs, &format!("{a:?} at {pa:?} vs {b:?} at {pb:?}")) as usize;
    }
    assert_hit_rate(hits, CASES, "compound 3D vs parry");
}

type Pair2 = (shape_2d::AnyShape<f32>, parry2d::shape::SharedShape);

fn part_2d(rng: &mut Rng) -> (shape_2d::Shape<f32>, parry2d::shape::SharedShape) {
    use parry2d::shape::SharedShape as P;
    if rng.below(2) == 0 {
        let rad = r(rng, 0.15, 0.45);
        (Ball::new(Vec2::ZERO, rad).unwrap().into(), P::ball(rad))
    } else {
        let h = Vec2::new(r(rng, 0.1, 0.4), r(rng, 0.1, 0.4));
        (
            Aabb::from_center(Vec2::ZERO, h).unwrap().into(),
            P::cuboid(h.x, h.y),
        )
    }
}

fn pose_2d(rng: &mut Rng, half: f64) -> (Pose2<f32>, parry2d::math::Pose) {
    let (t, angle) = (rand_vec::<Vec2>(rng, half), r(rng, -3.2, 3.2));
    (Pose2::new(t, angle), parry2d::math::Pose::new(t, angle))
}

fn compound_2d(rng: &mut Rng) -> Pair2 {
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..2 + rng.below(3) {
        let (p, pp) = pose_2d(rng, 0.6);
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
        let ((pa, ppa), (pb, ppb)) = (pose_2d(&mut rng, 0.3), pose_2d(&mut rng, 1.6));
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
        let theirs = (
            parry2d::query::distance(&ppa, sa, &ppb, sb)
                .unwrap()
                .distance,
            parry2d::query::contact(&ppa, sa, &ppb, sb, 0.0)
                .unwrap()
                .map(|c| -c.dist),
            sa.cast_ray(&ppa, &pray, 2.0, true),
        );
        hits += compare(ours, theirs, &format!("{a:?} at {pa:?} vs {b:?} at {pb:?}")) as usize;
    }
    assert_hit_rate(hits, CASES, "compound 2D vs parry");
}
