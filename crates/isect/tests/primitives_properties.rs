//! Property tests of the primitive kernels: swapping A and B mirrors the answer, one
//! rigid motion of both changes nothing, sector methods agree with the angle
//! reference, hulls contain their input and are convex, box–plane answers match a
//! brute force over corners. Each generic body runs for f32/f64 and 2D/3D where the
//! math allows. Cases within a small margin of a decision boundary are skipped.

use glam::{DQuat, DVec2, DVec3, Quat, Vec2, Vec3};
use isect::algo::hull_2d::convex_hull_2d;
use isect::algo::hull_3d::convex_hull_3d;
use isect::math::{Isometry, Pose2, Pose3, Real, Rotation3, Vector, Vector2};
use isect::query::ball_tests::*;
use isect::query::plane_tests::*;
use isect::query::sector_tests::*;
use isect::shape::{Aabb, Ball, ConvexPolyhedron, Plane, Sector, POLYHEDRON_PLANE_ULPS};
use proptest::prelude::*;

/// Builds test values from f64 components and a random rigid motion.
trait TestVector: Vector {
    fn from_f64s(c: [f64; 3]) -> Self;
    /// Rotation by angle `a` about axis `axis` (3D; 2D ignores the axis), then `t`.
    fn pose(axis: [f64; 3], a: f64, t: [f64; 3]) -> Self::Pose;
}

macro_rules! test_vector_2d {
    ($v:ty, $r:ty) => {
        impl TestVector for $v {
            fn from_f64s(c: [f64; 3]) -> Self {
                <$v>::new(c[0] as $r, c[1] as $r)
            }
            fn pose(_: [f64; 3], a: f64, t: [f64; 3]) -> Self::Pose {
                Pose2::new(Self::from_f64s(t), a as $r)
            }
        }
    };
}
macro_rules! test_vector_3d {
    ($v:ty, $r:ty, $q:ty) => {
        impl TestVector for $v {
            fn from_f64s(c: [f64; 3]) -> Self {
                <$v>::new(c[0] as $r, c[1] as $r, c[2] as $r)
            }
            fn pose(axis: [f64; 3], a: f64, t: [f64; 3]) -> Self::Pose {
                let axis = Self::from_f64s(axis).try_normalize().unwrap_or(<$v>::X);
                Pose3::new(
                    Self::from_f64s(t),
                    <$q as Rotation3<$r>>::from_axis_angle(axis, a as $r),
                )
            }
        }
    };
}
test_vector_2d!(Vec2, f32);
test_vector_2d!(DVec2, f64);
test_vector_3d!(Vec3, f32, Quat);
test_vector_3d!(DVec3, f64, DQuat);

fn coords(range: f64) -> impl Strategy<Value = [f64; 3]> {
    [-range..range, -range..range, -range..range]
}

/// Closest approach, over t ∈ [0, 1], of a point starting at `e` moving by `d`.
fn min_distance(e: DVec3, d: DVec3) -> f64 {
    let t = if d.length_squared() > 0.0 {
        (-e.dot(d) / d.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (e + d * t).length()
}

fn to_dvec3<V: Vector>(v: V) -> DVec3 {
    DVec3::new(
        v.get(0).to_f64(),
        v.get(1).to_f64(),
        if V::DIM == 3 { v.get(2).to_f64() } else { 0.0 },
    )
}

/// Swap symmetry and rigid-motion invariance of ball–ball, static and moving.
fn ball_ball_props<V: TestVector>(c: [[f64; 3]; 4], r: [f64; 2], axis: [f64; 3], angle: f64) {
    let s = V::Scalar::from_f64;
    let (a, b) = (
        Ball::new(V::from_f64s(c[0]), s(r[0])).unwrap(),
        Ball::new(V::from_f64s(c[1]), s(r[1])).unwrap(),
    );
    let (da, db) = (V::from_f64s(c[2]), V::from_f64s(c[3]));
    // Swap: same overlap, same time, opposite normal.
    assert_eq!(ball_ball_intersects(&a, &b), ball_ball_intersects(&b, &a));
    assert_eq!(
        ball_ball_first_contact(&a, da, &b, db),
        ball_ball_first_contact(&b, db, &a, da)
    );
    if let (Some(ab), Some(ba)) = (ball_ball_contact(&a, &b), ball_ball_contact(&b, &a)) {
        assert_eq!(ab.depth, ba.depth);
        if a.center() != b.center() {
            assert_eq!(ab.normal, -ba.normal);
        }
    }
    // Rigid motion of everything: same answers away from the boundary.
    let pose = V::pose(axis, angle, c[0]);
    let (ma, mb) = (
        Ball::new(pose.transform_point(a.center()), a.radius()).unwrap(),
        Ball::new(pose.transform_point(b.center()), b.radius()).unwrap(),
    );
    let e = to_dvec3(b.center() - a.center());
    let gap = e.length() - r[0] - r[1];
    if gap.abs() > 1e-3 {
        assert_eq!(ball_ball_intersects(&a, &b), ball_ball_intersects(&ma, &mb));
    }
    let (mda, mdb) = (pose.transform_vector(da), pose.transform_vector(db));
    let before = ball_ball_first_contact(&a, da, &b, db);
    let after = ball_ball_first_contact(&ma, mda, &mb, mdb);
    let closest = min_distance(e, to_dvec3(db - da)) - r[0] - r[1];
    if closest.abs() > 1e-3 {
        assert_eq!(before.is_some(), closest < 0.0, "{before:?} {closest}");
        assert_eq!(before.is_some(), after.is_some());
    }
    if let (Some(t0), Some(t1)) = (before, after) {
        assert!((t0 - t1).abs().to_f64() < 1e-3, "{t0} vs {t1}");
    }
}

/// Ball–AABB: overlap ⇔ contact; pushing the box along the normal by the depth
/// (plus a margin) separates; translating both changes nothing.
fn ball_aabb_props<V: TestVector>(c: [f64; 3], r: f64, lo: [f64; 3], size: [f64; 3], t: [f64; 3]) {
    let s = V::Scalar::from_f64;
    let ball = Ball::new(V::from_f64s(c), s(r)).unwrap();
    let min = V::from_f64s(lo);
    let aabb = Aabb::new(min, min + V::from_f64s(size)).unwrap();
    let contact = ball_aabb_contact(&ball, &aabb);
    assert_eq!(ball_aabb_intersects(&ball, &aabb), contact.is_some());
    if let Some(k) = contact {
        assert!(k.depth >= V::Scalar::ZERO);
        let push = k.normal * (k.depth + s(1e-3));
        let moved = Aabb::new(aabb.min + push, aabb.max + push).unwrap();
        assert!(!ball_aabb_intersects(&ball, &moved), "{k:?}");
    }
    let gap = aabb
        .distance_squared_to_point(ball.center())
        .sqrt()
        .to_f64()
        - r;
    let shift = V::from_f64s(t);
    let (mb, ma) = (
        ball.translated(shift),
        Aabb::new(aabb.min + shift, aabb.max + shift).unwrap(),
    );
    if gap.abs() > 1e-3 {
        assert_eq!(
            ball_aabb_intersects(&ball, &aabb),
            ball_aabb_intersects(&mb, &ma)
        );
    }
}

/// AABB–plane static side equals the brute force over all corners; the dynamic
/// contact time puts the box on the plane.
fn aabb_plane_props<V: TestVector>(lo: [f64; 3], size: [f64; 3], n: [f64; 3], d: f64, m: [f64; 3]) {
    let s = V::Scalar::from_f64;
    let Ok(plane) = Plane::new(V::from_f64s(n), s(d)) else {
        return;
    };
    let min = V::from_f64s(lo);
    let aabb = Aabb::new(min, min + V::from_f64s(size)).unwrap();
    let dists: Vec<V::Scalar> = aabb.corners().map(|p| plane.signed_distance(p)).collect();
    let brute = if dists.iter().all(|&x| x > V::Scalar::ZERO) {
        PlaneSide::Front
    } else if dists.iter().all(|&x| x < V::Scalar::ZERO) {
        PlaneSide::Back
    } else {
        PlaneSide::Straddling
    };
    let near_zero = dists.iter().any(|x| x.abs().to_f64() < 1e-3);
    if !near_zero {
        assert_eq!(aabb_plane_side(&aabb, &plane), Some(brute));
    }
    let motion = V::from_f64s(m);
    if let Some(t) = aabb_plane_first_contact(&aabb, &plane, motion, s(1.0), false) {
        let shift = motion * t;
        let at = Aabb::new(aabb.min + shift, aabb.max + shift).unwrap();
        let closest = at
            .corners()
            .map(|p| plane.signed_distance(p).abs().to_f64())
            .fold(f64::MAX, f64::min);
        let straddles = aabb_plane_side(&at, &plane) == Some(PlaneSide::Straddling);
        assert!(
            straddles || closest < 1e-3,
            "t {t}: closest corner {closest}"
        );
    }
}

macro_rules! for_each_vector {
    ($name:ident, $body:ident, ($($arg:ident in $strat:expr),*)) => {
        proptest! {
            #[test]
            fn $name($($arg in $strat),*) {
                $body::<Vec2>($($arg),*);
                $body::<Vec3>($($arg),*);
                $body::<DVec2>($($arg),*);
                $body::<DVec3>($($arg),*);
            }
        }
    };
}

for_each_vector!(ball_ball_swap_and_motion, ball_ball_props,
    (c in [coords(3.0), coords(3.0), coords(4.0), coords(4.0)], r in [0.0..2.0, 0.0..2.0],
     axis in coords(1.0), angle in -3.2..3.2));
for_each_vector!(ball_aabb_contact_and_translation, ball_aabb_props,
    (c in coords(3.0), r in 0.0..2.0, lo in coords(2.0), size in [0.0..2.0, 0.0..2.0, 0.0..2.0], t in coords(100.0)));
for_each_vector!(aabb_plane_brute_force, aabb_plane_props,
    (lo in coords(2.0), size in [0.0..2.0, 0.0..2.0, 0.0..2.0], n in coords(1.0), d in -2.0..2.0, m in coords(4.0)));

/// The angular distance from the direction of `w` to the unit direction `u`.
fn angle_between(w: DVec2, u: DVec2) -> f64 {
    w.perp_dot(u).atan2(w.dot(u)).abs()
}

/// The three sector methods agree away from the edges and the arc.
fn sector_props<R: Real>(c: [f64; 2], radius: f64, start: f64, span: f64, p: [f64; 2]) {
    let s = R::from_f64;
    let sector =
        Sector::<R>::new(R::V2::new(s(c[0]), s(c[1])), s(radius), s(start), s(span)).unwrap();
    let point = R::V2::new(s(p[0]), s(p[1]));
    let w = DVec2::new(p[0] - c[0], p[1] - c[1]);
    let edge = |v: R::V2| DVec2::new(v.x().to_f64(), v.y().to_f64());
    let near_edge = angle_between(w, edge(sector.start_dir())) < 1e-3
        || angle_between(w, edge(sector.end_dir())) < 1e-3
        || (w.length() - radius).abs() < 1e-3 * radius.max(1.0)
        || w.length() < 1e-3;
    let reference = point_in_sector_angle(&sector, point);
    if !near_edge {
        assert_eq!(
            point_in_sector_cross(&sector, point),
            reference,
            "{sector:?} {point:?}"
        );
        assert_eq!(point_in_sector_normals(&sector, point), reference);
    }
}

fn span_strategy() -> impl Strategy<Value = f64> {
    use std::f64::consts::{PI, TAU};
    prop_oneof![
        Just(0.0),
        Just(PI),
        Just(TAU),
        0.0..TAU,
        (PI - 1e-6)..(PI + 1e-6)
    ]
}

proptest! {
    #[test]
    fn sector_methods_agree(c in [-5.0..5.0f64, -5.0..5.0], radius in 0.0..4.0f64,
        start in -10.0..10.0f64, span in span_strategy(), p in [-9.0..9.0f64, -9.0..9.0]) {
        sector_props::<f32>(c, radius, start, span, p);
        sector_props::<f64>(c, radius, start, span, p);
    }
}

/// 2D hull: CCW, strictly convex, and every input point inside (up to rounding).
fn hull_2d_props<V: TestVector + Vector2>(pts: &[[f64; 3]]) {
    let points: Vec<V> = pts.iter().map(|&p| V::from_f64s(p)).collect();
    let Ok(hull) = convex_hull_2d(&points) else {
        return;
    };
    let n = hull.len();
    for i in 0..n {
        let (a, b) = (hull[i], hull[(i + 1) % n]);
        assert!(
            (b - a).perp_dot(hull[(i + 2) % n] - b) > V::Scalar::ZERO,
            "not convex"
        );
        let edge = (b - a).length().to_f64();
        for &p in &points {
            let outside = -(b - a).perp_dot(p - a).to_f64() / edge;
            assert!(outside <= 1e-5 * 20.0, "{p:?} outside by {outside}");
        }
    }
}

/// 3D hull: every input point behind every face and every face convex; the
/// polyhedron's volume is invariant under a rigid motion of the input.
fn hull_3d_props<R: Real>(pts: &[[f64; 3]], axis: [f64; 3], angle: f64, t: [f64; 3])
where
    R::V3: TestVector,
{
    let points: Vec<R::V3> = pts
        .iter()
        .map(|&p| <R::V3 as TestVector>::from_f64s(p))
        .collect();
    let Ok(poly) = ConvexPolyhedron::<R>::from_points(&points) else {
        return;
    };
    let tol = if R::EPSILON.to_f64() > 1e-10 {
        1e-4
    } else {
        1e-10
    };
    for &p in points.iter().chain(poly.vertices()) {
        assert!(poly.max_face_distance(p).to_f64() <= tol, "{p:?}");
    }
    let pose = <R::V3 as TestVector>::pose(axis, angle, t);
    let moved: Vec<R::V3> = points.iter().map(|&p| pose.transform_point(p)).collect();
    let moved = ConvexPolyhedron::<R>::from_points(&moved).unwrap();
    let (v0, v1) = (poly.volume().to_f64(), moved.volume().to_f64());
    // Merging nearly coplanar triangles moves the surface by at most the on-plane
    // tolerance; the hull's area is at most 96 (the cube [-2, 2]³), so the volume by
    // at most 96 tolerances of each polyhedron.
    let coord = |p: &ConvexPolyhedron<R>| {
        p.vertices()
            .iter()
            .fold(0.0f64, |m, v| m.max(v.abs().max_element().to_f64()))
    };
    let plane_tol = |p| R::EPSILON.to_f64() * POLYHEDRON_PLANE_ULPS * coord(p);
    let bound = 96.0 * (plane_tol(&poly) + plane_tol(&moved)) + 1e-9;
    assert!((v0 - v1).abs() <= bound, "{v0} vs {v1}");
    // The triangulated hull passed its closed-manifold check and has the same corners.
    let hull = convex_hull_3d(&points).unwrap();
    assert!(hull.vertices.len() >= poly.vertices().len());
    assert!(poly
        .faces()
        .iter()
        .all(|f| (f.normal().length().to_f64() - 1.0).abs() < tol));
}

/// Random clouds with duplicated points and points snapped to a coarse grid (many
/// collinear and coplanar ones).
fn cloud() -> impl Strategy<Value = Vec<[f64; 3]>> {
    (prop::collection::vec(coords(2.0), 4..40), any::<bool>()).prop_map(|(mut v, snap)| {
        if snap {
            for p in &mut v {
                *p = p.map(|x| x.round() * 0.5);
            }
        }
        let dup = v[0];
        v.push(dup);
        v
    })
}

proptest! {
    #[test]
    fn hull_2d_contains_input_and_is_convex(pts in cloud()) {
        hull_2d_props::<Vec2>(&pts);
        hull_2d_props::<DVec2>(&pts);
    }

    #[test]
    fn hull_3d_contains_input_and_is_rigid(pts in cloud(), axis in coords(1.0),
        angle in -3.2..3.2f64, t in coords(50.0)) {
        hull_3d_props::<f32>(&pts, axis, angle, t);
        hull_3d_props::<f64>(&pts, axis, angle, t);
    }

    // Three planes through a random point meet there when they are far from parallel.
    #[test]
    fn three_planes_meet_at_their_common_point(p in coords(100.0),
        n in [coords(1.0), coords(1.0), coords(1.0)]) {
        let normals = n.map(DVec3::from_array);
        let det = normals[0].cross(normals[1]).dot(normals[2]);
        let lengths: f64 = normals.iter().map(|v| v.length()).product();
        prop_assume!(lengths > 1e-3 && det.abs() > 0.05 * lengths);
        let target = DVec3::from_array(p);
        let planes = normals.map(|nv| Plane::from_point_normal(target, nv).unwrap());
        let q = three_planes_point(&planes[0], &planes[1], &planes[2]).unwrap();
        prop_assert!(q.distance(target) < 1e-9 * 100.0 / 0.05);
    }
}
