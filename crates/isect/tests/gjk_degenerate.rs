//! Degenerate inputs for GJK, EPA, contacts and casts: coincident and exactly
//! touching shapes, flat shapes, zero radii, duplicate vertices, scales from 1e-3
//! to 1e4, NaN. Each must terminate with a status and a sensible answer.

mod gjk_common;

use gjk_common::{f, r, TestVector};
use isect::algo::gjk::{self, GjkCache, MinkowskiDiff, Status};
use isect::algo::support::ConvexPoints;
use isect::math::{Isometry, Pose3, Real, Vector};
use isect::query::cast_shapes::cast_shapes;
use isect::query::contact::{contact, contact_ball_ball, contact_capsule_capsule};
use isect::query::distance::{closest_points, closest_points_cached, distance};
use isect::shape::{Aabb, Ball, Capsule, Cone, Cylinder, Rounded, Triangle};

#[macro_use]
#[path = "support/for_each_vector.rs"]
mod for_each_vector;

fn close<V: Vector>(a: V::Scalar, b: f64, rel: f64) -> bool {
    (f(a) - b).abs() <= rel * (1.0 + b.abs())
}

fn tight<V: Vector>() -> f64 {
    if f(V::Scalar::EPSILON) > 1e-10 {
        1e-4
    } else {
        1e-10
    }
}

// Two balls with the same centre: no normal exists; depth is the radii sum and the
// status says the normal is conventional.
fn coincident_balls<V: TestVector>() {
    let a = Ball::new(V::ZERO, r::<V>(1.0)).unwrap();
    let b = Ball::new(V::ZERO, r::<V>(0.5)).unwrap();
    let p = V::Pose::from_translation(V::splat(r::<V>(3.0)));
    for c in [
        contact(&p, &a, &p, &b, r::<V>(0.0)).unwrap(),
        contact_ball_ball(&p, &a, &p, &b, r::<V>(0.0)).unwrap(),
    ] {
        assert_eq!(c.status, Status::Degenerate);
        assert!(close::<V>(c.depth, 1.5, tight::<V>()));
        assert!(close::<V>(c.normal.length(), 1.0, tight::<V>()));
    }
    assert_eq!(f(distance(&p, &a, &p, &b)), 0.0);
}
for_each_vector!(coincident_balls);

// Two identical boxes at the same pose: the depth is the smallest full width.
fn coincident_boxes<V: TestVector>() {
    let half = V::splat(r::<V>(1.0)).with(V::DIM - 1, r::<V>(0.25));
    let a = Aabb::from_center(V::ZERO, half).unwrap();
    let p = V::Pose::IDENTITY;
    let c = contact(&p, &a, &p, &a, r::<V>(0.0)).unwrap();
    assert_ne!(c.status, Status::MaxIterations);
    assert!(close::<V>(c.depth, 0.5, tight::<V>()), "depth {}", c.depth);
    assert!(close::<V>(
        c.normal.get(V::DIM - 1).abs(),
        1.0,
        tight::<V>()
    ));
}
for_each_vector!(coincident_boxes);

// Boxes touching face to face (and ball touching a box): distance 0, depth 0.
fn exactly_touching<V: TestVector>() {
    let a = Aabb::from_center(V::ZERO, V::splat(r::<V>(1.0))).unwrap();
    let pb = V::Pose::from_translation(V::unit_axis(0) * r::<V>(2.0));
    let d = distance(&V::Pose::IDENTITY, &a, &pb, &a);
    assert!(f(d).abs() <= tight::<V>(), "distance {d:?}");
    let c = contact(&V::Pose::IDENTITY, &a, &pb, &a, r::<V>(0.0)).expect("touching counts");
    assert!(f(c.depth).abs() <= tight::<V>(), "depth {:?}", c.depth);
    assert!(
        close::<V>(c.normal.get(0), 1.0, tight::<V>()),
        "normal {:?}",
        c.normal
    );
    let ball = Ball::new(V::ZERO, r::<V>(0.5)).unwrap();
    let pball = V::Pose::from_translation(V::unit_axis(0) * r::<V>(1.5));
    let c = contact(&V::Pose::IDENTITY, &a, &pball, &ball, r::<V>(0.0)).expect("touching");
    assert!(f(c.depth).abs() <= tight::<V>());
    // A hair apart: no contact without prediction.
    let apart = V::Pose::from_translation(V::unit_axis(0) * r::<V>(1.5 + 1e-3));
    assert!(contact(&V::Pose::IDENTITY, &a, &apart, &ball, r::<V>(0.0)).is_none());
}
for_each_vector!(exactly_touching);

// A zero-radius ball is a point: inside a box its depth is the distance to the
// nearest face; outside, the distance to the box.
fn zero_radius_ball<V: TestVector>() {
    let a = Aabb::from_center(V::ZERO, V::splat(r::<V>(1.0))).unwrap();
    let point = Ball::new(V::ZERO, r::<V>(0.0)).unwrap();
    let inside = V::Pose::from_translation(V::unit_axis(0) * r::<V>(0.75));
    let c = contact(&V::Pose::IDENTITY, &a, &inside, &point, r::<V>(0.0)).unwrap();
    assert!(
        close::<V>(c.depth, 0.25, tight::<V>()),
        "depth {:?}",
        c.depth
    );
    let outside = V::Pose::from_translation(V::splat(r::<V>(2.0)));
    let expected = (V::DIM as f64).sqrt();
    assert!(close::<V>(
        distance(&V::Pose::IDENTITY, &a, &outside, &point),
        expected,
        tight::<V>()
    ));
    // Two points at the same place.
    assert_eq!(f(distance(&inside, &point, &inside, &point)), 0.0);
    let c = contact(&inside, &point, &inside, &point, r::<V>(0.0)).unwrap();
    assert_eq!(c.status, Status::Degenerate);
    assert!(f(c.depth).abs() <= tight::<V>());
}
for_each_vector!(zero_radius_ball);

// Every corner given twice, plus the centre: the same answers as the box.
fn duplicate_vertices<V: TestVector>() {
    let a = Aabb::from_center(V::ZERO, V::splat(r::<V>(1.0))).unwrap();
    let mut pts: Vec<V> = a.corners().chain(a.corners()).collect();
    pts.push(V::ZERO);
    let cloud = ConvexPoints::new(pts).unwrap();
    let other = Ball::new(V::ZERO, r::<V>(0.5)).unwrap();
    let pose = V::Pose::from_translation(V::splat(r::<V>(1.2)));
    let (d1, d2) = (
        distance(&V::Pose::IDENTITY, &a, &pose, &other),
        distance(&V::Pose::IDENTITY, &cloud, &pose, &other),
    );
    assert!(close::<V>(d1, f(d2), tight::<V>()));
    let near = V::Pose::from_translation(V::unit_axis(0) * r::<V>(1.2));
    let (c1, c2) = (
        contact(&V::Pose::IDENTITY, &a, &near, &other, r::<V>(0.0)).unwrap(),
        contact(&V::Pose::IDENTITY, &cloud, &near, &other, r::<V>(0.0)).unwrap(),
    );
    assert!(close::<V>(c1.depth, 0.3, tight::<V>()) && close::<V>(c2.depth, 0.3, tight::<V>()));
    assert!(ConvexPoints::<V>::new(vec![]).is_err());
}
for_each_vector!(duplicate_vertices);

// The same box–box and capsule–box configurations at scales 1e-3 to 1e4 give the
// same answers relative to the scale.
fn scales<V: TestVector>() {
    for s in [1e-3, 1e-1, 1.0, 1e2, 1e4] {
        let sc = r::<V>(s);
        let a = Aabb::from_center(V::ZERO, V::splat(sc)).unwrap();
        let b = Capsule::new(V::ZERO, V::unit_axis(1) * sc, sc * r::<V>(0.5)).unwrap();
        let apart = V::Pose::from_translation(V::unit_axis(0) * (sc * r::<V>(2.0)));
        let deep = V::Pose::from_translation(V::unit_axis(0) * (sc * r::<V>(1.25)));
        let d = distance(&V::Pose::IDENTITY, &a, &apart, &b);
        assert!(
            close::<V>(d / sc, 0.5, tight::<V>() * 10.0),
            "scale {s}: distance {d:?}"
        );
        let c = contact(&V::Pose::IDENTITY, &a, &deep, &b, r::<V>(0.0)).unwrap();
        assert!(
            close::<V>(c.depth / sc, 0.25, tight::<V>() * 10.0),
            "scale {s}: depth {:?}",
            c.depth
        );
        assert_eq!(c.status, Status::Converged);
        let boxes = contact(&V::Pose::IDENTITY, &a, &deep, &a, r::<V>(0.0)).unwrap();
        assert!(
            close::<V>(boxes.depth / sc, 0.75, tight::<V>() * 10.0),
            "scale {s}: box depth {:?}",
            boxes.depth
        );
        let hit = cast_shapes(
            &V::Pose::IDENTITY,
            V::ZERO,
            &a,
            &apart,
            -V::unit_axis(0) * sc,
            &b,
            r::<V>(1.0),
        )
        .unwrap();
        assert!(
            close::<V>(hit.time, 0.5, tight::<V>() * 10.0),
            "scale {s}: toi {:?}",
            hit.time
        );
    }
}
for_each_vector!(scales);

// NaN poses: NaN distance with a Degenerate status, no contact, no hit.
fn nan_input<V: TestVector>() {
    let a = Aabb::from_center(V::ZERO, V::splat(r::<V>(1.0))).unwrap();
    let nan = V::Pose::from_translation(V::splat(r::<V>(f64::NAN)));
    let cp = closest_points(&V::Pose::IDENTITY, &a, &nan, &a);
    assert!(f(cp.distance).is_nan());
    assert_eq!(cp.status, Status::Degenerate);
    assert!(contact(&V::Pose::IDENTITY, &a, &nan, &a, r::<V>(1.0)).is_none());
    assert!(contact(
        &V::Pose::IDENTITY,
        &a,
        &V::Pose::IDENTITY,
        &a,
        r::<V>(f64::NAN)
    )
    .is_none());
    assert!(cast_shapes(
        &nan,
        V::ZERO,
        &a,
        &V::Pose::IDENTITY,
        V::unit_axis(0),
        &a,
        r::<V>(1.0)
    )
    .is_none());
    let diff = MinkowskiDiff::new(&a, &a, nan);
    assert!(!gjk::intersects(&diff));
}
for_each_vector!(nan_input);

// Crossing capsule cores: the kernel falls back to GJK/EPA, which terminates with
// the radii sum as depth.
fn crossing_capsules<V: TestVector>() {
    let a = Capsule::new(-V::unit_axis(0), V::unit_axis(0), r::<V>(0.25)).unwrap();
    let b = Capsule::new(-V::unit_axis(1), V::unit_axis(1), r::<V>(0.25)).unwrap();
    let p = V::Pose::IDENTITY;
    let c = contact_capsule_capsule(&p, &a, &p, &b, r::<V>(0.0)).unwrap();
    // 3D: the cores cross, depth = radii sum along their common normal. 2D: B
    // must clear A's core half-length plus both radii.
    let expected = if V::DIM == 3 { 0.5 } else { 1.5 };
    assert!(
        close::<V>(c.depth, expected, tight::<V>()),
        "depth {:?}",
        c.depth
    );
    assert!(close::<V>(c.normal.length(), 1.0, tight::<V>()));
}
for_each_vector!(crossing_capsules);

// Warm start: the second query of the same pair starts from the cached simplex,
// gives the same answer and needs no more iterations.
fn warm_start<V: TestVector>() {
    let a = Aabb::from_center(V::ZERO, V::splat(r::<V>(1.0))).unwrap();
    let b = Capsule::new(V::ZERO, V::splat(r::<V>(1.0)), r::<V>(0.3)).unwrap();
    let pb = V::pose_in(&mut gjk_common::Rng(5), 0.0);
    let pb = V::Pose::from_translation(V::splat(r::<V>(2.5))).mul(&pb);
    let mut cache = GjkCache::new();
    assert!(cache.is_empty());
    let cold = closest_points_cached(&V::Pose::IDENTITY, &a, &pb, &b, &mut cache);
    assert!(!cache.is_empty());
    let warm = closest_points_cached(&V::Pose::IDENTITY, &a, &pb, &b, &mut cache);
    assert!(close::<V>(warm.distance, f(cold.distance), tight::<V>()));
    assert!(
        warm.iterations <= cold.iterations,
        "warm {} cold {}",
        warm.iterations,
        cold.iterations
    );
    assert!(warm.iterations <= 2, "warm start took {}", warm.iterations);
}
for_each_vector!(warm_start);

// Flat shapes in 3D: two coplanar overlapping triangles, and a triangle lying on a
// box's face. Both terminate with depth ≈ 0 and a normal along the plane normal.
#[test]
fn flat_triangles_3d() {
    use glam::DVec3;
    let t1 = Triangle::new(DVec3::ZERO, DVec3::X, DVec3::Y).unwrap();
    let t2 = Triangle::new(
        DVec3::new(0.2, 0.2, 0.0),
        DVec3::new(1.2, 0.2, 0.0),
        DVec3::new(0.2, 1.2, 0.0),
    )
    .unwrap();
    let p = Pose3::<f64>::IDENTITY;
    let c = contact(&p, &t1, &p, &t2, 0.0).unwrap();
    assert!(c.depth.abs() < 1e-9, "depth {}", c.depth);
    assert!(
        (c.normal.z.abs() - 1.0).abs() < 1e-9,
        "normal {:?}",
        c.normal
    );
    assert_eq!(c.status, Status::Degenerate);
    let bx = Aabb::new(DVec3::new(-1.0, -1.0, -1.0), DVec3::new(2.0, 2.0, 0.0)).unwrap();
    let c = contact(&p, &bx, &p, &t1, 0.0).unwrap();
    assert!(
        c.depth.abs() < 1e-9 && (c.normal.z - 1.0).abs() < 1e-9,
        "{c:?}"
    );
    // A triangle degenerated to a segment, piercing the box 1.5 from its nearest sides.
    let sliver = Triangle::new(
        DVec3::new(0.5, 0.5, -2.0),
        DVec3::new(0.5, 0.5, 2.0),
        DVec3::new(0.5, 0.5, 0.0),
    )
    .unwrap();
    let c = contact(&p, &bx, &p, &sliver, 0.0).unwrap();
    assert!((c.depth - 1.5).abs() < 1e-9, "{c:?}");
}

// Cylinders and cones against analytic distances and depths (curved supports:
// GJK and EPA converge only to their tolerances, within their caps).
#[test]
fn cylinder_and_cone() {
    use glam::{DQuat, DVec3};
    let cyl = Cylinder::<f64>::new(1.0, 0.5).unwrap();
    let ball = Ball::new(DVec3::ZERO, 0.25).unwrap();
    let id = Pose3::<f64>::IDENTITY;
    let above = Pose3::from_translation(DVec3::new(0.1, 2.0, 0.0));
    assert!((distance(&id, &cyl, &above, &ball) - 0.75).abs() < 1e-9);
    let side = Pose3::from_translation(DVec3::new(1.0, 0.3, 1.0));
    assert!((distance(&id, &cyl, &side, &ball) - (2f64.sqrt() - 0.75)).abs() < 1e-7);
    // Coaxial cylinders overlapping by 0.2 along the axis: depth 0.2.
    let stacked = Pose3::from_translation(DVec3::new(0.0, 1.8, 0.0));
    let c = contact(&id, &cyl, &stacked, &cyl, 0.0).unwrap();
    assert!((c.depth - 0.2).abs() < 1e-6 && c.normal.y > 0.999, "{c:?}");
    // Side by side, overlapping radially by 0.1.
    let beside = Pose3::new(DVec3::new(0.9, 0.0, 0.0), DQuat::from_rotation_y(0.7));
    let c = contact(&id, &cyl, &beside, &cyl, 0.0).unwrap();
    assert!((c.depth - 0.1).abs() < 1e-5, "{c:?}");
    assert_ne!(c.status, Status::Degenerate);
    // A cone's apex 0.5 below a ball's surface... above the cone: distance to apex.
    let cone = Cone::<f64>::new(1.0, 1.0).unwrap();
    let over = Pose3::from_translation(DVec3::new(0.0, 2.0, 0.0));
    assert!((distance(&id, &cone, &over, &ball) - 0.75).abs() < 1e-9);
}

// A rounded box is the box grown by its radius: distance and depth shift by it.
#[test]
fn rounded_box_matches_grown_box() {
    use glam::Vec3;
    let bx = Aabb::from_center(Vec3::ZERO, Vec3::ONE).unwrap();
    let rounded = Rounded::new(bx, 0.25f32).unwrap();
    let ball = Ball::new(Vec3::ZERO, 0.5).unwrap();
    let id = Pose3::<f32>::IDENTITY;
    let p = Pose3::from_translation(Vec3::new(3.0, 0.0, 0.0));
    assert!((distance(&id, &rounded, &p, &ball) - 1.25).abs() < 1e-5);
    let q = Pose3::from_translation(Vec3::new(1.5, 0.0, 0.0));
    let c = contact(&id, &rounded, &q, &ball, 0.0).unwrap();
    assert!(
        (c.depth - 0.25).abs() < 1e-5 && (c.point_a.x - 1.25).abs() < 1e-5,
        "{c:?}"
    );
    // Deep: the cores overlap, EPA on the core plus both margins.
    let c = contact(&id, &rounded, &id, &ball, 0.0).unwrap();
    assert!((c.depth - 1.75).abs() < 1e-5, "{c:?}");
}

// Boxes overlapping at random poses: the faces of `A − B` are split into coplanar
// triangles, and the nearest one EPA pops may be a neighbour of the one holding the
// origin's projection. The witness points must still satisfy
// `point_a − point_b = depth · normal` and lie on their boxes' surfaces.
fn box_witnesses_on_coplanar_faces<V: TestVector>() {
    let mut rng = gjk_common::Rng(41);
    let half = |rng: &mut gjk_common::Rng| {
        (0..V::DIM).fold(V::ZERO, |v, i| v.with(i, r::<V>(rng.range(0.2, 0.6))))
    };
    let (mut deep, tol) = (0, gjk_common::tol::<V>());
    for _ in 0..400 {
        let a = Aabb::from_center(V::ZERO, half(&mut rng)).unwrap();
        let b = Aabb::from_center(V::ZERO, half(&mut rng)).unwrap();
        let (pa, pb) = (V::pose_in(&mut rng, 0.4), V::pose_in(&mut rng, 0.4));
        let Some(c) = contact(&pa, &a, &pb, &b, r::<V>(0.0)) else {
            continue;
        };
        deep += usize::from(f(c.depth) > 0.05);
        let gap = f((c.point_a - c.point_b - c.normal * c.depth).length());
        assert!(gap <= tol, "gap {gap}: {c:?}");
        // On the surfaces: inside each box (in its frame) within tol.
        for (p, pose, bx) in [(c.point_a, &pa, &a), (c.point_b, &pb, &b)] {
            let local = pose.inverse_transform_point(p);
            let outside = (local.abs() - bx.max).max_element();
            assert!(
                f(outside) <= tol,
                "witness off its box by {}: {c:?}",
                f(outside)
            );
        }
    }
    assert!(deep > 100, "only {deep} deep contacts");
}
for_each_vector!(box_witnesses_on_coplanar_faces);

// Tiny (1e-11 to 1e-5) and huge (1e5) scales: a box and a rotated box, centres 3
// and 1.5 half-widths apart (B reaches between 1 and √3 half-widths towards A, so
// they are apart by at most 1, and overlap). The simplex solver's products
// of up to six coordinates underflow in f32 below ~1e-7 unless it rescales; the
// answers must stay finite and scale with the shapes.
fn tiny_and_huge_boxes<V: TestVector>() {
    let mut rng = gjk_common::Rng(5);
    for scale in [1e-11, 1e-9, 1e-7, 1e-5, 1e5] {
        let s = r::<V>(scale);
        let a = Aabb::from_center(V::ZERO, V::splat(s)).unwrap();
        for (offset, apart) in [(3.0, true), (1.5, false)] {
            let t = V::ZERO.with(0, r::<V>(offset * scale));
            let pb = V::random_pose(&mut rng, t);
            let pa = V::Pose::IDENTITY;
            let cp = closest_points(&pa, &a, &pb, &a);
            assert!(
                cp.point_a.is_finite() && cp.point_b.is_finite(),
                "{scale}: {cp:?}"
            );
            let d = f(cp.distance) / scale;
            let expected = if apart {
                d > 0.0 && d <= 1.0 + 1e-3
            } else {
                d == 0.0
            };
            assert!(expected, "{scale}: distance {d} half-widths");
            if !apart {
                let c = contact(&pa, &a, &pb, &a, r::<V>(0.0)).unwrap();
                let depth = f(c.depth) / scale;
                assert!(
                    c.point_a.is_finite() && c.point_b.is_finite(),
                    "{scale}: {c:?}"
                );
                assert!(depth > 0.0 && depth <= 2.0, "{scale}: depth {depth}");
            }
        }
    }
}
for_each_vector!(tiny_and_huge_boxes);

/// A box whose support function itself runs EPA on two overlapping boxes (and
/// checks that inner answer): EPA's per-thread buffers are then in use, and the
/// inner call must take fresh ones without disturbing the outer expansion.
struct ReentrantBox(Aabb<glam::DVec3>);

impl isect::algo::support::SupportMap<glam::DVec3> for ReentrantBox {
    fn local_support(&self, dir: glam::DVec3) -> glam::DVec3 {
        use glam::DVec3;
        let unit = Aabb::from_center(DVec3::ZERO, DVec3::ONE).unwrap();
        let shifted = Pose3::from_translation(DVec3::new(1.5, 0.0, 0.0));
        let inner = contact(&Pose3::IDENTITY, &unit, &shifted, &unit, 0.0);
        assert!(
            inner.is_some_and(|c| (c.depth - 0.5).abs() < 1e-9),
            "{inner:?}"
        );
        self.0.local_support(dir)
    }
}

// Re-entrant EPA (a support map that runs EPA): same answer as the plain box.
#[test]
fn reentrant_epa_matches_plain() {
    use glam::{DQuat, DVec3};
    let bx = Aabb::from_center(DVec3::ZERO, DVec3::new(1.0, 0.5, 0.75)).unwrap();
    let pose_b = Pose3::new(DVec3::new(0.8, 0.3, 0.1), DQuat::from_rotation_z(0.3));
    let id = Pose3::<f64>::IDENTITY;
    let plain = contact(&id, &bx, &pose_b, &bx, 0.0).unwrap();
    let nested = contact(&id, &ReentrantBox(bx), &pose_b, &bx, 0.0).unwrap();
    assert_eq!(plain, nested);
    assert!(plain.depth > 0.1, "{plain:?}");
}
