//! Differential tests of the separating-axis kernels against parry2d / parry3d 0.31 on
//! thousands of seeded random cases, with a guard that 30–70% of the cases intersect.
//!
//! Where the boolean answers differ, the pair must be within tolerance of touching;
//! where depths differ beyond tolerance, the reported axes must be equally good (ties).

use glam::{DVec2, Quat, Vec2, Vec3};
use isect::algo::sat_2d::{self, SatResult};
use isect::algo::sat_3d;
use isect::algo::support::SupportMap;
use isect::math::{Pose2, Rot2};
use isect::shape::{obb_2d, obb_3d, ConvexPolygon};

const CASES: usize = 4000;

/// SplitMix64: a small seeded generator, so every run sees the same cases.
#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

impl Rng {
    fn unit_quat(&mut self) -> Quat {
        let axis = Vec3::new(
            self.uniform(-1.0, 1.0),
            self.uniform(-1.0, 1.0),
            self.uniform(-1.0, 1.0),
        );
        Quat::from_axis_angle(
            axis.try_normalize().unwrap_or(Vec3::Z),
            self.uniform(0.0, 6.3),
        )
    }
}

fn assert_hit_rate(name: &str, hits: usize) {
    let rate = hits as f64 / CASES as f64;
    assert!(
        (0.3..=0.7).contains(&rate),
        "{name}: hit rate {rate} outside 30–70%"
    );
}

/// Penetration of two support-mapped shapes along unit `n` (A to B): the overlap of
/// their projections.
fn depth_along<V: isect::math::Vector, A: SupportMap<V>, B: SupportMap<V>>(
    a: &A,
    b: &B,
    n: V,
) -> V::Scalar {
    let id = <V::Pose as isect::math::Isometry<V>>::IDENTITY;
    a.support(&id, n).dot(n) - b.support(&id, -n).dot(n)
}

// 2D boxes: boolean vs `intersection_test`, depth vs `contact`, f32 and f64 kernels.
#[test]
fn obb_2d_vs_parry() {
    let mut rng = Rng(1);
    let (mut hits, mut parry_odd) = (0, 0);
    for _ in 0..CASES {
        let h = [0, 1].map(|_| Vec2::new(rng.uniform(0.1, 2.0), rng.uniform(0.1, 2.0)));
        let c = [0, 1].map(|_| Vec2::new(rng.uniform(-2.2, 2.2), rng.uniform(-2.2, 2.2)));
        let ang = [0, 1].map(|_| rng.uniform(-3.2, 3.2));
        let a = obb_2d::Obb::<f32>::from_angle(c[0], h[0], ang[0]).unwrap();
        let b = obb_2d::Obb::<f32>::from_angle(c[1], h[1], ang[1]).unwrap();
        let ad = obb_2d::Obb::<f64>::from_angle(c[0].as_dvec2(), h[0].as_dvec2(), ang[0] as f64)
            .unwrap();
        let bd = obb_2d::Obb::<f64>::from_angle(c[1].as_dvec2(), h[1].as_dvec2(), ang[1] as f64)
            .unwrap();
        let pa = parry2d::math::Pose::new(c[0], ang[0]);
        let pb = parry2d::math::Pose::new(c[1], ang[1]);
        let (ca, cb) = (
            parry2d::shape::Cuboid::new(h[0]),
            parry2d::shape::Cuboid::new(h[1]),
        );
        let theirs = parry2d::query::intersection_test(&pa, &ca, &pb, &cb)
            .unwrap()
            .intersecting;
        let contact = parry2d::query::contact(&pa, &ca, &pb, &cb, 0.0).unwrap();
        let ours = sat_2d::obb_obb_mtv(&a, &b);
        assert_eq!(ours.is_some(), sat_2d::intersects_obb_obb(&a, &b));
        assert_eq!(
            sat_2d::obb_obb_mtv(&ad, &bd).is_some(),
            sat_2d::intersects_obb_obb(&ad, &bd)
        );
        let near_touch =
            contact.map_or(ours.is_none_or(|m| m.depth < 1e-4), |k| k.dist.abs() < 1e-4);
        assert!(
            ours.is_some() == theirs || near_touch,
            "2D boxes disagree: {a:?} {b:?}"
        );
        hits += usize::from(theirs);
        if let (Some(m), Some(k)) = (ours, contact) {
            parry_odd += usize::from(check_depth(
                m.depth as f64,
                -k.dist as f64,
                depth_along(&a, &b, k.normal1) as f64,
                1e-4,
            ));
            // The f64 kernel agrees (a near-touching f32 pair may round to apart in f64).
            let md = sat_2d::obb_obb_mtv(&ad, &bd).map_or(0.0, |md| md.depth);
            assert!((md - m.depth as f64).abs() < 1e-4);
        }
    }
    assert_hit_rate("obb_2d", hits);
    println!("obb_2d: {parry_odd} cases where parry's depth disagrees with its own normal");
}

/// Our depth is the minimum over the SAT axes, so it can be no larger than our
/// penetration along parry's normal. It must equal parry's depth, unless parry's depth
/// disagrees with its own normal (its cuboid contact measures depth by projecting a
/// support point onto the whole box, which is not the penetration along the normal
/// when the projection lands on another face); then ours must equal the penetration
/// along parry's normal. Returns true for such a parry-inconsistent case.
fn check_depth(ours: f64, theirs: f64, ours_along_their_axis: f64, tol: f64) -> bool {
    assert!(
        ours <= ours_along_their_axis + tol,
        "depth {ours} > {ours_along_their_axis} along parry's axis"
    );
    if (ours - theirs).abs() <= tol {
        return false;
    }
    assert!(
        (ours_along_their_axis - ours).abs() <= tol,
        "depth {ours} vs parry {theirs}"
    );
    true
}

// 3D boxes: 15-axis boolean vs `intersection_test`, depth vs `contact`.
#[test]
fn obb_3d_vs_parry() {
    let mut rng = Rng(2);
    let (mut hits, mut parry_odd) = (0, 0);
    for _ in 0..CASES {
        let h = [0, 1].map(|_| {
            Vec3::new(
                rng.uniform(0.1, 2.0),
                rng.uniform(0.1, 2.0),
                rng.uniform(0.1, 2.0),
            )
        });
        let c = [0, 1].map(|_| {
            Vec3::new(
                rng.uniform(-2.0, 2.0),
                rng.uniform(-2.0, 2.0),
                rng.uniform(-2.0, 2.0),
            )
        });
        let q = [rng.unit_quat(), rng.unit_quat()];
        let a = obb_3d::Obb::<f32>::new(c[0], h[0], q[0]).unwrap();
        let b = obb_3d::Obb::<f32>::new(c[1], h[1], q[1]).unwrap();
        let ad =
            obb_3d::Obb::<f64>::new(c[0].as_dvec3(), h[0].as_dvec3(), q[0].as_dquat()).unwrap();
        let bd =
            obb_3d::Obb::<f64>::new(c[1].as_dvec3(), h[1].as_dvec3(), q[1].as_dquat()).unwrap();
        let pa = parry3d::math::Pose::from_parts(c[0], q[0]);
        let pb = parry3d::math::Pose::from_parts(c[1], q[1]);
        let (ca, cb) = (
            parry3d::shape::Cuboid::new(h[0]),
            parry3d::shape::Cuboid::new(h[1]),
        );
        let theirs = parry3d::query::intersection_test(&pa, &ca, &pb, &cb)
            .unwrap()
            .intersecting;
        let contact = parry3d::query::contact(&pa, &ca, &pb, &cb, 0.0).unwrap();
        let ours = sat_3d::obb_obb_mtv(&a, &b);
        assert_eq!(ours.is_some(), sat_3d::intersects_obb_obb(&a, &b));
        assert_eq!(
            sat_3d::obb_obb_mtv(&ad, &bd).is_some(),
            sat_3d::intersects_obb_obb(&ad, &bd)
        );
        let near_touch =
            contact.map_or(ours.is_none_or(|m| m.depth < 1e-4), |k| k.dist.abs() < 1e-4);
        assert!(
            ours.is_some() == theirs || near_touch,
            "3D boxes disagree: {a:?} {b:?}"
        );
        hits += usize::from(theirs);
        if let (Some(m), Some(k)) = (ours, contact) {
            parry_odd += usize::from(check_depth(
                m.depth as f64,
                -k.dist as f64,
                depth_along(&a, &b, k.normal1) as f64,
                1e-4,
            ));
            // The f64 kernel agrees (a near-touching f32 pair may round to apart in f64).
            let md = sat_3d::obb_obb_mtv(&ad, &bd).map_or(0.0, |md| md.depth);
            assert!((md - m.depth as f64).abs() < 1e-4);
            assert!((m.axis.length() - 1.0).abs() < 1e-5);
        }
    }
    assert_hit_rate("obb_3d", hits);
    println!("obb_3d: {parry_odd} cases where parry's depth disagrees with its own normal");
}

/// A random convex polygon: 3–8 points at sorted angles on an ellipse, rotated.
fn random_polygon(rng: &mut Rng) -> Vec<Vec2> {
    let k = 3 + (rng.next_u64() % 6) as usize;
    let mut angles: Vec<f32> = (0..k)
        .map(|_| rng.uniform(0.0, core::f32::consts::TAU))
        .collect();
    angles.sort_by(f32::total_cmp);
    let (rx, ry) = (rng.uniform(0.3, 2.0), rng.uniform(0.3, 2.0));
    angles
        .iter()
        .map(|&t| Vec2::new(rx * t.cos(), ry * t.sin()))
        .collect()
}

// Polygons: boolean vs `intersection_test`, distance vs `distance`, depth vs `contact`.
#[test]
fn polygon_polygon_vs_parry() {
    let mut rng = Rng(3);
    let (mut hits, mut done) = (0, 0);
    while done < CASES {
        let (pa_pts, pb_pts) = (random_polygon(&mut rng), random_polygon(&mut rng));
        let (Ok(a), Ok(b)) = (
            ConvexPolygon::<f32>::new(&pa_pts),
            ConvexPolygon::<f32>::new(&pb_pts),
        ) else {
            continue; // sliver polygons (three nearly collinear angles) are refused; skip them
        };
        let (Some(qa), Some(qb)) = (
            parry2d::shape::ConvexPolygon::from_convex_polyline(a.vertices().to_vec()),
            parry2d::shape::ConvexPolygon::from_convex_polyline(b.vertices().to_vec()),
        ) else {
            continue;
        };
        done += 1;
        let t = [0, 1].map(|_| Vec2::new(rng.uniform(-2.0, 2.0), rng.uniform(-2.0, 2.0)));
        let ang = [0, 1].map(|_| rng.uniform(-3.2, 3.2));
        let (pose_a, pose_b) = (Pose2::new(t[0], ang[0]), Pose2::new(t[1], ang[1]));
        let (pa, pb) = (
            parry2d::math::Pose::new(t[0], ang[0]),
            parry2d::math::Pose::new(t[1], ang[1]),
        );
        let theirs = parry2d::query::intersection_test(&pa, &qa, &pb, &qb)
            .unwrap()
            .intersecting;
        let dist = parry2d::query::distance(&pa, &qa, &pb, &qb)
            .unwrap()
            .distance;
        let ours = sat_2d::polygon_polygon(&pose_a, &a, &pose_b, &b);
        assert_eq!(
            ours.is_overlapping(),
            sat_2d::intersects_polygon_polygon(&pose_a, &a, &pose_b, &b)
        );
        assert_eq!(
            ours.mtv(),
            sat_2d::polygon_polygon_mtv(&pose_a, &a, &pose_b, &b)
        );
        assert!(
            ours.is_overlapping() == theirs || dist < 1e-4,
            "polygons disagree"
        );
        hits += usize::from(theirs);
        match ours {
            SatResult::Separated { distance, .. } => {
                let world = |p: &ConvexPolygon<f32>, pose: &Pose2<f32>| -> Vec<DVec2> {
                    p.vertices()
                        .iter()
                        .map(|&v| isect::math::Isometry::transform_point(pose, v).as_dvec2())
                        .collect()
                };
                let truth = vertex_edge_distance(&world(&a, &pose_a), &world(&b, &pose_b));
                assert!(
                    (distance as f64 - truth).abs() < 1e-5,
                    "distance {distance} vs exact {truth}"
                );
                // parry's GJK stops at a relative tolerance: looser.
                assert!(
                    (dist as f64 - truth).abs() < 1e-3 * truth.max(1.0),
                    "parry {dist} vs exact {truth}"
                );
            }
            SatResult::Overlapping { depth, .. } => {
                if let Some(k) = parry2d::query::contact(&pa, &qa, &pb, &qb, 0.0).unwrap() {
                    assert!(
                        (depth + k.dist).abs() < 2e-3,
                        "depth {depth} vs parry {}",
                        -k.dist
                    );
                }
            }
        }
        check_f64_agrees(&pa_pts, &pb_pts, (t, ang), &ours);
    }
    assert_hit_rate("polygon_polygon", hits);
}

/// Exact distance between disjoint polygons (world-space outlines, f64): the least
/// vertex-to-edge distance over both directions.
fn vertex_edge_distance(a: &[DVec2], b: &[DVec2]) -> f64 {
    let one_way = |p: &[DVec2], q: &[DVec2]| {
        let mut best = f64::INFINITY;
        for &v in p {
            for k in 0..q.len() {
                let (s, e) = (q[k], q[(k + 1) % q.len()]);
                let t = ((v - s).dot(e - s) / (e - s).length_squared()).clamp(0.0, 1.0);
                best = best.min(v.distance(s + (e - s) * t));
            }
        }
        best
    };
    one_way(a, b).min(one_way(b, a))
}

/// The f64 kernel on the same input gives the same answer as the f32 one.
fn check_f64_agrees(
    pa: &[Vec2],
    pb: &[Vec2],
    (t, ang): ([Vec2; 2], [f32; 2]),
    ours: &SatResult<Vec2>,
) {
    let to64 = |p: &[Vec2]| {
        ConvexPolygon::<f64>::new(&p.iter().map(|v| v.as_dvec2()).collect::<Vec<DVec2>>())
    };
    let (Ok(a), Ok(b)) = (to64(pa), to64(pb)) else {
        return;
    };
    let pose = |i: usize| Pose2 {
        rotation: Rot2::from_angle(ang[i] as f64),
        translation: t[i].as_dvec2(),
    };
    let r = sat_2d::polygon_polygon(&pose(0), &a, &pose(1), &b);
    assert!((r.signed_distance() - ours.signed_distance() as f64).abs() < 1e-4);
}
