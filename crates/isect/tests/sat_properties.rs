//! Property tests of the separating-axis kernels, each body run in f32 and f64:
//! swapping A and B mirrors the answer, one rigid motion of both changes nothing, and
//! moving B by the MTV (plus a tiny margin) separates the pair. Also: the
//! coarse-then-fine pipeline equals brute force on seeded random scenes.

use isect::algo::sat_2d::{self, SatResult};
use isect::algo::sat_3d;
use isect::algo::support::SupportMap;
use isect::math::{Isometry, Pose2, Real, Rot2, Rotation3, Vector, Vector2, Vector3};
use isect::query::pipeline::{colliding_pairs, colliding_pairs_brute_force};
use isect::shape::{obb_2d, obb_3d, ConvexPolygon};
use proptest::prelude::*;

#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

/// A tolerance for values of size ~`scale`: 2e-4 relative in f32, 1e-9 in f64.
fn tol<R: Real>(scale: f64) -> f64 {
    scale
        * if R::EPSILON.to_f64() > 1e-10 {
            2e-4
        } else {
            1e-9
        }
}

fn v2<R: Real>(x: f64, y: f64) -> R::V2 {
    R::V2::new(R::from_f64(x), R::from_f64(y))
}

fn pose2<R: Real>(p: (f64, f64, f64)) -> Pose2<R> {
    Pose2::new(v2::<R>(p.0, p.1), R::from_f64(p.2))
}

/// Convex polygon from sorted angles on an ellipse (skips slivers the constructor refuses).
fn polygon<R: Real>(angles: &[f64], rx: f64, ry: f64) -> Option<ConvexPolygon<R>> {
    let mut a = angles.to_vec();
    a.sort_by(f64::total_cmp);
    let pts: Vec<R::V2> = a
        .iter()
        .map(|&t| v2::<R>(rx * t.cos(), ry * t.sin()))
        .collect();
    ConvexPolygon::new(&pts).ok()
}

/// Penetration of world-space shapes along unit `n` from A to B.
fn depth_along<V: Vector, A: SupportMap<V>, B: SupportMap<V>>(a: &A, b: &B, n: V) -> f64 {
    (a.local_support(n).dot(n) - b.local_support(-n).dot(n)).to_f64()
}

/// Penetration of posed polygons along unit world `n` from A to B.
fn polygon_depth_along<R: Real>(
    pa: &Pose2<R>,
    a: &ConvexPolygon<R>,
    pb: &Pose2<R>,
    b: &ConvexPolygon<R>,
    n: R::V2,
) -> f64 {
    let sa = pa.transform_point(a.local_support(pa.inverse_transform_vector(n)));
    let sb = pb.transform_point(b.local_support(pb.inverse_transform_vector(-n)));
    (sa.dot(n) - sb.dot(n)).to_f64()
}

fn close<V: Vector>(a: V, b: V, t: f64) -> bool {
    (a - b).length().to_f64() <= t
}

fn polygon_swap_and_motion<R: Real>(
    pa: Pose2<R>,
    a: &ConvexPolygon<R>,
    pb: Pose2<R>,
    b: &ConvexPolygon<R>,
    m: Pose2<R>,
) {
    let t = tol::<R>(10.0);
    let ab = sat_2d::polygon_polygon(&pa, a, &pb, b);
    let ba = sat_2d::polygon_polygon(&pb, b, &pa, a);
    let s = ab.signed_distance().to_f64();
    assert!(
        (s - ba.signed_distance().to_f64()).abs() <= t,
        "swap: {ab:?} vs {ba:?}"
    );
    if s.abs() > t {
        assert_eq!(ab.is_overlapping(), ba.is_overlapping());
    }
    // Mirrored axis, or an equally good one (a tie between two edges).
    let mirrored = close(ab.axis(), -ba.axis(), t);
    let tie =
        ab.is_overlapping() && (polygon_depth_along(&pa, a, &pb, b, -ba.axis()) - (-s)).abs() <= t;
    assert!(
        mirrored || tie || s.abs() <= t,
        "swap axis: {ab:?} vs {ba:?}"
    );
    let moved = sat_2d::polygon_polygon(&m.mul(&pa), a, &m.mul(&pb), b);
    assert!(
        (moved.signed_distance().to_f64() - s).abs() <= t,
        "motion: {ab:?} vs {moved:?}"
    );
    let same_axis = close(moved.axis(), m.transform_vector(ab.axis()), t);
    let tie = ab.is_overlapping()
        && (polygon_depth_along(&pa, a, &pb, b, m.inverse_transform_vector(moved.axis())) + s)
            .abs()
            <= t;
    assert!(
        same_axis || tie || s.abs() <= t,
        "motion axis: {ab:?} vs {moved:?}"
    );
    if let SatResult::Overlapping { depth, axis } = ab {
        let push = axis * (depth + R::from_f64(t));
        let pb_out = Pose2 {
            translation: pb.translation + push,
            ..pb
        };
        assert!(
            !sat_2d::intersects_polygon_polygon(&pa, a, &pb_out, b),
            "MTV does not separate: {ab:?}"
        );
    }
}

fn obb2<R: Real>(c: (f64, f64), h: (f64, f64), ang: f64) -> obb_2d::Obb<R> {
    obb_2d::Obb::from_angle(v2::<R>(c.0, c.1), v2::<R>(h.0, h.1), R::from_f64(ang)).unwrap()
}

fn obb_2d_props<R: Real>(a: obb_2d::Obb<R>, b: obb_2d::Obb<R>, m: Pose2<R>) {
    let t = tol::<R>(10.0);
    let (ab, ba) = (sat_2d::obb_obb_mtv(&a, &b), sat_2d::obb_obb_mtv(&b, &a));
    let depth = |x: Option<sat_2d::Mtv<R::V2>>| x.map_or(-1.0, |m| m.depth.to_f64());
    if let (Some(x), Some(y)) = (ab, ba) {
        assert!((x.depth - y.depth).to_f64().abs() <= t);
        let tie = (depth_along(&a, &b, -y.axis) - x.depth.to_f64()).abs() <= t;
        assert!(close(x.axis, -y.axis, t) || tie);
    } else {
        assert!(depth(ab).max(depth(ba)) <= t, "swap: {ab:?} vs {ba:?}");
    }
    let move_box = |o: &obb_2d::Obb<R>| {
        let rot = m.rotation.compose(o.rotation());
        obb_2d::Obb::new(m.transform_point(o.center()), o.half_extents(), rot).unwrap()
    };
    let moved = sat_2d::obb_obb_mtv(&move_box(&a), &move_box(&b));
    assert!(
        (depth(moved) - depth(ab)).abs() <= t || depth(moved).max(depth(ab)) <= t,
        "motion"
    );
    if let Some(x) = ab {
        let out = obb_2d::Obb::new(
            b.center() + x.axis * (x.depth + R::from_f64(t)),
            b.half_extents(),
            b.rotation(),
        )
        .unwrap();
        assert!(
            !sat_2d::intersects_obb_obb(&a, &out),
            "MTV does not separate"
        );
    }
}

fn obb3<R: Real>(c: [f64; 3], h: [f64; 3], axis: [f64; 3], ang: f64) -> obb_3d::Obb<R> {
    let v = |p: [f64; 3]| R::V3::new(R::from_f64(p[0]), R::from_f64(p[1]), R::from_f64(p[2]));
    let ax = v(axis).try_normalize().unwrap_or(R::V3::unit_axis(2));
    obb_3d::Obb::new(v(c), v(h), R::Quat::from_axis_angle(ax, R::from_f64(ang))).unwrap()
}

fn obb_3d_props<R: Real>(a: obb_3d::Obb<R>, b: obb_3d::Obb<R>, m: isect::math::Pose3<R>) {
    let t = tol::<R>(10.0);
    let (ab, ba) = (sat_3d::obb_obb_mtv(&a, &b), sat_3d::obb_obb_mtv(&b, &a));
    assert_eq!(ab.is_some(), sat_3d::intersects_obb_obb(&a, &b));
    let depth = |x: Option<sat_2d::Mtv<R::V3>>| x.map_or(-1.0, |m| m.depth.to_f64());
    if let (Some(x), Some(y)) = (ab, ba) {
        assert!(
            (x.depth - y.depth).to_f64().abs() <= t,
            "swap depth {x:?} {y:?}"
        );
        let tie = (depth_along(&a, &b, -y.axis) - x.depth.to_f64()).abs() <= t;
        assert!(close(x.axis, -y.axis, t) || tie, "swap axis {x:?} {y:?}");
    } else {
        assert!(depth(ab).max(depth(ba)) <= t, "swap: {ab:?} vs {ba:?}");
    }
    let move_box = |o: &obb_3d::Obb<R>| {
        obb_3d::Obb::<R>::new(
            m.transform_point(o.center()),
            o.half_extents(),
            m.rotation.mul(o.rotation()),
        )
        .unwrap()
    };
    let moved = sat_3d::obb_obb_mtv(&move_box(&a), &move_box(&b));
    assert!(
        (depth(moved) - depth(ab)).abs() <= t || depth(moved).max(depth(ab)) <= t,
        "motion"
    );
    if let Some(x) = ab {
        let out = obb_3d::Obb::new(
            b.center() + x.axis * (x.depth + R::from_f64(t)),
            b.half_extents(),
            b.rotation(),
        )
        .unwrap();
        assert!(
            !sat_3d::intersects_obb_obb(&a, &out),
            "MTV does not separate: {x:?}"
        );
    }
}

fn pose_strategy() -> impl Strategy<Value = (f64, f64, f64)> {
    (-2.5..2.5f64, -2.5..2.5f64, -3.2..3.2f64)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    // Random convex polygons at random poses, f32 and f64.
    #[test]
    fn polygon_properties(
        aa in prop::collection::vec(0.0..core::f64::consts::TAU, 3..8), ra in (0.3..2.0f64, 0.3..2.0f64),
        ab in prop::collection::vec(0.0..core::f64::consts::TAU, 3..8), rb in (0.3..2.0f64, 0.3..2.0f64),
        pa in pose_strategy(), pb in pose_strategy(), m in pose_strategy(), far in 0.0..50.0f64,
    ) {
        let m = (m.0 * far, m.1 * far, m.2);
        if let (Some(a), Some(b)) = (polygon::<f64>(&aa, ra.0, ra.1), polygon::<f64>(&ab, rb.0, rb.1)) {
            polygon_swap_and_motion(pose2(pa), &a, pose2(pb), &b, pose2(m));
        }
        if let (Some(a), Some(b)) = (polygon::<f32>(&aa, ra.0, ra.1), polygon::<f32>(&ab, rb.0, rb.1)) {
            polygon_swap_and_motion(pose2(pa), &a, pose2(pb), &b, pose2(m));
        }
    }

    // Random 2D boxes (zero extents allowed), f32 and f64.
    #[test]
    fn obb_2d_properties(
        ca in (-2.0..2.0f64, -2.0..2.0f64), ha in (0.0..2.0f64, 0.0..2.0f64), anga in -3.2..3.2f64,
        cb in (-2.0..2.0f64, -2.0..2.0f64), hb in (0.0..2.0f64, 0.0..2.0f64), angb in -3.2..3.2f64,
        m in pose_strategy(),
    ) {
        obb_2d_props(obb2::<f64>(ca, ha, anga), obb2::<f64>(cb, hb, angb), pose2(m));
        obb_2d_props(obb2::<f32>(ca, ha, anga), obb2::<f32>(cb, hb, angb), pose2(m));
    }

    // Random 3D boxes, f32 and f64.
    #[test]
    fn obb_3d_properties(
        ca in prop::array::uniform3(-2.0..2.0f64), ha in prop::array::uniform3(0.0..2.0f64),
        axa in prop::array::uniform3(-1.0..1.0f64), anga in -3.2..3.2f64,
        cb in prop::array::uniform3(-2.0..2.0f64), hb in prop::array::uniform3(0.0..2.0f64),
        axb in prop::array::uniform3(-1.0..1.0f64), angb in -3.2..3.2f64,
        mt in prop::array::uniform3(-5.0..5.0f64), max in prop::array::uniform3(-1.0..1.0f64), mang in -3.2..3.2f64,
    ) {
        let motion = |r: fn(f64) -> f64| (mt.map(r), max.map(r), r(mang));
        let (t64, ax64, ang64) = motion(|x| x);
        let q = <f64 as Real>::Quat::from_axis_angle(
            glam::DVec3::from(ax64).try_normalize().unwrap_or(glam::DVec3::Z), ang64);
        let m64 = isect::math::Pose3::new(glam::DVec3::from(t64), q);
        obb_3d_props(obb3::<f64>(ca, ha, axa, anga), obb3::<f64>(cb, hb, axb, angb), m64);
        let m32 = isect::math::Pose3::new(glam::DVec3::from(t64).as_vec3(), q.as_quat());
        obb_3d_props(obb3::<f32>(ca, ha, axa, anga), obb3::<f32>(cb, hb, axb, angb), m32);
    }
}

fn pipeline_matches_brute_force<R: Real>(seed: u64) {
    let mut s = Rng(seed);
    for scene in 0..20 {
        let n = 10 + scene * 5;
        let polys: Vec<ConvexPolygon<R>> = (0..n)
            .filter_map(|_| {
                let angles: Vec<f64> = (0..3 + (s.unit() * 5.0) as usize)
                    .map(|_| s.unit() * core::f64::consts::TAU)
                    .collect();
                polygon::<R>(&angles, 0.3 + s.unit(), 0.3 + s.unit())
            })
            .collect();
        let side = 2.0 * (polys.len() as f64).sqrt();
        let shapes: Vec<(Pose2<R>, &ConvexPolygon<R>)> = polys
            .iter()
            .map(|p| {
                (
                    pose2::<R>((
                        s.unit() * side,
                        s.unit() * side,
                        s.unit() * core::f64::consts::TAU,
                    )),
                    p,
                )
            })
            .collect();
        let fast = colliding_pairs(&shapes);
        assert_eq!(fast, colliding_pairs_brute_force(&shapes));
        assert!(
            fast.windows(2).all(|w| (w[0].i, w[0].j) < (w[1].i, w[1].j))
                && fast.iter().all(|p| p.i < p.j)
        );
    }
}

// Sort-and-sweep + AABB + SAT equals SAT on every pair, on 20 random scenes each in f32 and f64.
#[test]
fn pipeline_equals_brute_force() {
    pipeline_matches_brute_force::<f32>(7);
    pipeline_matches_brute_force::<f64>(8);
}

// A rotation of exactly identity keeps Rot2 in use for readers: composing with it is a no-op.
#[test]
fn identity_motion_is_exact() {
    let a = polygon::<f64>(&[0.0, 2.0, 4.0], 1.0, 1.0).unwrap();
    let pa = Pose2::<f64>::new(glam::DVec2::new(0.3, 0.1), 0.2);
    let pb = Pose2::<f64>::new(glam::DVec2::new(0.9, 0.4), 1.0);
    let id = Pose2 {
        rotation: Rot2::IDENTITY,
        translation: glam::DVec2::ZERO,
    };
    let r = sat_2d::polygon_polygon(&pa, &a, &pb, &a);
    assert_eq!(
        r,
        sat_2d::polygon_polygon(&id.mul(&pa), &a, &id.mul(&pb), &a)
    );
}
