//! Differential tests of the shape-enum dispatch against parry2d / parry3d 0.31
//! (`query::distance` and `query::contact` on the same shapes)
//! over every pair of kinds both libraries have, on seeded random poses, with a guard
//! that the intersecting fraction stays in [30%, 70%].

#[path = "support/parry_pairs.rs"]
mod parry_pairs;
mod world_common;

use glam::{Quat, Vec2, Vec3};
use isect::math::Pose2;
use isect::query::dispatch;
use isect::shape::{shape_2d, shape_3d};
use isect::shape::{Aabb, Ball, Capsule, Cone, ConvexPolygon, ConvexPolyhedron, Cylinder};
use isect::shape::{Rounded, Segment, Triangle};
use parry_pairs::{ball_2d, ball_3d, cuboid_2d, cuboid_3d, parry_distance_depth_2d};
use parry_pairs::{parry_distance_depth_3d, pose_2d, pose_3d, r, r2, r3};
use world_common::{assert_hit_rate, rand_unit, rand_vec, Rng};

/// Random pairs per ordered pair of kinds.
const CASES: usize = 40;
/// Absolute tolerance on distances and depths (f32, shapes about one unit across;
/// parry's GJK stops at a relative gap of about 1e-3 on curved shapes).
const TOL: f32 = 5e-3;

/// The same 3D shape for both libraries.
fn shape_3d_pair(
    kind: usize,
    rng: &mut Rng,
) -> (shape_3d::Shape<f32>, parry3d::shape::SharedShape) {
    use parry3d::shape::SharedShape as P;
    let h = r3(rng, 0.2, 0.6);
    let (hh, rad) = (r(rng, 0.2, 0.6), r(rng, 0.2, 0.6));
    let (a, b, c) = (
        rand_vec::<Vec3>(rng, 0.6),
        rand_vec::<Vec3>(rng, 0.6),
        rand_vec::<Vec3>(rng, 0.6),
    );
    match kind {
        0 => ball_3d(rad),
        1 => cuboid_3d(h),
        2 => (
            Capsule::new(a, b, 0.5 * rad).unwrap().into(),
            P::capsule(a, b, 0.5 * rad),
        ),
        3 => (Segment::new(a, b).unwrap().into(), P::segment(a, b)),
        4 => (Triangle::new(a, b, c).unwrap().into(), P::triangle(a, b, c)),
        5 => {
            let pts: Vec<Vec3> = (0..12).map(|_| rand_unit::<Vec3>(rng) * h).collect();
            let ours = ConvexPolyhedron::from_points(&pts).unwrap();
            (
                ours.clone().into(),
                P::convex_hull(ours.vertices()).unwrap(),
            )
        }
        6 => (Cylinder::new(hh, rad).unwrap().into(), P::cylinder(hh, rad)),
        7 => (Cone::new(hh, rad).unwrap().into(), P::cone(hh, rad)),
        _ => {
            let rounded =
                Rounded::new(Aabb::from_center(Vec3::ZERO, h * 0.7).unwrap(), 0.1).unwrap();
            (
                rounded.into(),
                P::round_cuboid(h.x * 0.7, h.y * 0.7, h.z * 0.7, 0.1),
            )
        }
    }
}

/// The same 2D shape for both libraries.
fn shape_2d_pair(
    kind: usize,
    rng: &mut Rng,
) -> (shape_2d::Shape<f32>, parry2d::shape::SharedShape) {
    use parry2d::shape::SharedShape as P;
    let h = r2(rng, 0.2, 0.6);
    let rad = r(rng, 0.2, 0.6);
    let (a, b, c) = (
        rand_vec::<Vec2>(rng, 0.6),
        rand_vec::<Vec2>(rng, 0.6),
        rand_vec::<Vec2>(rng, 0.6),
    );
    match kind {
        0 => ball_2d(rad),
        1 => cuboid_2d(h),
        2 => (
            Capsule::new(a, b, 0.5 * rad).unwrap().into(),
            P::capsule(a, b, 0.5 * rad),
        ),
        3 => (Segment::new(a, b).unwrap().into(), P::segment(a, b)),
        4 => (Triangle::new(a, b, c).unwrap().into(), P::triangle(a, b, c)),
        5 => {
            let n = 5 + rng.below(4);
            let pts: Vec<Vec2> = (0..n)
                .map(|i| {
                    let t = std::f32::consts::TAU * (i as f32 + r(rng, 0.0, 0.5)) / n as f32;
                    Vec2::new(t.cos(), t.sin()) * h
                })
                .collect();
            let ours = ConvexPolygon::<f32>::new(&pts).unwrap();
            (
                ours.clone().into(),
                P::convex_polyline(ours.vertices().to_vec()).unwrap(),
            )
        }
        _ => {
            let rounded =
                Rounded::new(Aabb::from_center(Vec2::ZERO, h * 0.7).unwrap(), 0.1).unwrap();
            (rounded.into(), P::round_cuboid(h.x * 0.7, h.y * 0.7, 0.1))
        }
    }
}

/// Depths below this are compared with parry's directly; deeper ones (where parry's
/// answers for curved and rounded shapes are not the minimum, see
/// `deep_2d_depths_are_the_minimum`) only in 2D, against the sampled true depth.
const SHALLOW: f32 = 0.1;

/// Compares one pair: distance; intersection outside the touching band; depth of
/// shallow overlaps. Returns whether the pair intersects.
///
/// Where the distances differ, ours must be the smaller one with witness points that
/// lie on the shapes (`witnesses_ok`): every pair of shape points bounds the distance
/// from above, so the smaller certified answer is the closer one (parry's GJK stops
/// early on some capsule and segment pairs).
fn compare(
    ours: (f32, bool, Option<f32>),
    theirs: (f32, Option<f32>),
    witnesses_ok: impl Fn() -> bool,
    what: &str,
) -> bool {
    let ((d, hit, depth), (pd, pdepth)) = (ours, theirs);
    let certified_smaller = || d < pd && witnesses_ok();
    assert!(
        (d - pd).abs() <= TOL || certified_smaller(),
        "distance {d} vs parry {pd}: {what}"
    );
    // Parry's own distance and depth decide (its `intersection_test` can contradict
    // them: a clockwise 2D triangle against a box reports `true` 0.03 apart).
    if pd > TOL {
        assert!(!hit, "intersects at parry distance {pd}: {what}");
    }
    if pdepth.is_some_and(|p| p > TOL) {
        assert!(hit, "no intersection at parry depth {pdepth:?}: {what}");
    }
    if let (Some(x), Some(y)) = (depth, pdepth) {
        // Capsule kernels report the segment-distance depth, a lower bound once the
        // capsules overlap; the rest is the minimum penetration depth.
        let shallow = x < SHALLOW && y < SHALLOW && !what.contains("Capsule");
        assert!(
            !shallow || (x - y).abs() <= 2.0 * TOL,
            "depth {x} vs parry {y}: {what}"
        );
    }
    hit
}

#[test]
fn dispatch_3d_matches_parry() {
    let mut rng = Rng(21);
    let (mut hits, mut total) = (0, 0);
    for ka in 0..9 {
        for kb in 0..9 {
            for _ in 0..CASES {
                let ((a, pa_), (b, pb_)) =
                    (shape_3d_pair(ka, &mut rng), shape_3d_pair(kb, &mut rng));
                let q = |rng: &mut Rng| Quat::from_axis_angle(rand_unit(rng), r(rng, -3.2, 3.2));
                let (ta, tb) = (
                    rand_vec::<Vec3>(&mut rng, 0.5),
                    rand_vec::<Vec3>(&mut rng, 0.5),
                );
                let (qa, qb) = (q(&mut rng), q(&mut rng));
                let ((pa, ppa), (pb, ppb)) = (pose_3d(ta, qa), pose_3d(tb, qb));
                let ours = (
                    dispatch::distance(&pa, &a, &pb, &b),
                    dispatch::intersects(&pa, &a, &pb, &b),
                    dispatch::contact(&pa, &a, &pb, &b, 0.0).map(|c| c.depth),
                );
                let theirs = parry_distance_depth_3d(&ppa, &*pa_.0, &ppb, &*pb_.0);
                let what = format!("{} vs {} at {pa:?} / {pb:?}", a.kind_name(), b.kind_name());
                let witnesses = || {
                    let cp = dispatch::closest_points(&pa, &a, &pb, &b);
                    let gap = (cp.point_a.distance(cp.point_b) - cp.distance).abs();
                    gap <= TOL && on_shape(&pa, &a, cp.point_a) && on_shape(&pb, &b, cp.point_b)
                };
                hits += compare(ours, theirs, witnesses, &what) as usize;
                total += 1;
            }
        }
    }
    assert_hit_rate(hits, total, "dispatch 3D vs parry");
}

#[test]
fn dispatch_2d_matches_parry() {
    let mut rng = Rng(22);
    let (mut hits, mut total) = (0, 0);
    for ka in 0..7 {
        for kb in 0..7 {
            for _ in 0..CASES {
                let ((a, pa_), (b, pb_)) =
                    (shape_2d_pair(ka, &mut rng), shape_2d_pair(kb, &mut rng));
                let (ta, tb) = (
                    rand_vec::<Vec2>(&mut rng, 0.6),
                    rand_vec::<Vec2>(&mut rng, 0.6),
                );
                let (aa, ab) = (r(&mut rng, -3.2, 3.2), r(&mut rng, -3.2, 3.2));
                let ((pa, ppa), (pb, ppb)) = (pose_2d(ta, aa), pose_2d(tb, ab));
                let ours = (
                    dispatch::distance(&pa, &a, &pb, &b),
                    dispatch::intersects(&pa, &a, &pb, &b),
                    dispatch::contact(&pa, &a, &pb, &b, 0.0).map(|c| c.depth),
                );
                let theirs = parry_distance_depth_2d(&ppa, &*pa_.0, &ppb, &*pb_.0);
                let what = format!("{} vs {} at {pa:?} / {pb:?}", a.kind_name(), b.kind_name());
                let witnesses = || {
                    let cp = dispatch::closest_points(&pa, &a, &pb, &b);
                    let gap = (cp.point_a.distance(cp.point_b) - cp.distance).abs();
                    gap <= TOL && on_shape(&pa, &a, cp.point_a) && on_shape(&pb, &b, cp.point_b)
                };
                hits += compare(ours, theirs, witnesses, &what) as usize;
                total += 1;
                let capsule = matches!(a, shape_2d::Shape::Capsule(_))
                    || matches!(b, shape_2d::Shape::Capsule(_));
                if let (Some(depth), false) = (ours.2, capsule) {
                    let truth = sampled_depth_2d(&pa, &a, &pb, &b);
                    assert!(
                        (depth - truth).abs() <= TOL,
                        "depth {depth} vs sampled {truth}: {what}"
                    );
                }
            }
        }
    }
    assert_hit_rate(hits, total, "dispatch 2D vs parry");
}

/// The penetration depth of two overlapping 2D shapes: the smallest extent of the
/// Minkowski difference over 4096 sampled directions, `min_n h_A(n) + h_B(−n)`.
fn sampled_depth_2d(
    pa: &Pose2<f32>,
    a: &shape_2d::Shape<f32>,
    pb: &Pose2<f32>,
    b: &shape_2d::Shape<f32>,
) -> f32 {
    use isect::algo::support::SupportMap;
    (0..4096)
        .map(|i| {
            let t = std::f32::consts::TAU * i as f32 / 4096.0;
            let n = Vec2::new(t.cos(), t.sin());
            a.support(pa, n).dot(n) - b.support(pb, -n).dot(n)
        })
        .fold(f32::INFINITY, f32::min)
}

/// True when `p` is within `TOL` of the shape placed at `pose`.
fn on_shape<V, S>(pose: &V::Pose, shape: &S, p: V) -> bool
where
    V: isect::algo::gjk::GjkVector,
    S: isect::algo::support::SupportMap<V>,
{
    use isect::math::{Isometry, Real};
    let Ok(point) = Ball::new(p, V::Scalar::ZERO) else {
        return false;
    };
    isect::query::distance(pose, shape, &V::Pose::IDENTITY, &point).to_f64() <= TOL as f64
}
