//! Capsule–cylinder distance and contact without GJK (issue 13 item 5):
//! `query::capsule_cylinder` and the 3D dispatch that routes the pair to it, in `f32`
//! and `f64`, at scales 1e-3 to 1e4:
//!
//! - exact answers where the nearest feature is known (the side, a cap, a rim, a
//!   segment along the axis, a segment leaving the slab past the rim), under a random
//!   rigid motion of both shapes;
//! - on random poses, a contact's defining property (the shapes' projections on the
//!   normal overlap by the depth; the witnesses are their extreme points along it),
//!   the depth against GJK / EPA's and the distance against GJK's;
//! - the dispatch answers as the kernels do, in both argument orders; a core through
//!   the cylinder falls back to GJK / EPA; a non-finite pose gives none / NaN.

#[path = "support/poses3.rs"]
mod poses3;
#[path = "support/rng.rs"]
mod rng;

use rng::Rng;

/// Random poses per vector type and cylinder.
const CASES: usize = 2_000;

macro_rules! capsule_cylinder_tests {
    ($m:ident, $r:ty, $v:ty, $q:ty, $tol:expr, $epa_tol:expr) => {
        mod $m {
            use super::*;
            use isect::algo::support::SupportMap;
            use isect::math::{Isometry, Pose3};
            use isect::query::capsule_cylinder::{
                contact_capsule_cylinder, distance_capsule_cylinder,
            };
            use isect::query::contact::contact;
            use isect::query::dispatch;
            use isect::query::distance::distance;
            use isect::shape::shape_3d::Shape;
            use isect::shape::{Capsule, Cylinder};

            type V = $v;
            type P = Pose3<$r>;
            /// Relative tolerance of the exact answers (a few ε of the scale).
            const TOL: f64 = $tol;
            /// Relative tolerance against GJK / EPA (their own tolerance).
            const EPA_TOL: f64 = $epa_tol;
            /// Relative tolerance of the contact's properties on random poses.
            const PROPERTY_TOL: f64 = EPA_TOL / 20.0;

            fn v(x: f64, y: f64, z: f64) -> V {
                V::new(x as $r, y as $r, z as $r)
            }

            fn pose(rng: &mut Rng, reach: f64) -> P {
                poses3::pose3::<$r>(rng, reach)
            }

            fn support<S: SupportMap<V>>(shape: &S, pose: &P, n: V) -> f64 {
                poses3::support_along::<$r, S>(shape, pose, n)
            }

            /// The point of the 2D segment `a b` (in the x–y plane) nearest `c`.
            fn nearest_on_segment_2d(a: V, b: V, c: V) -> V {
                let d = b - a;
                let t = ((c - a).dot(d) / d.dot(d)).clamp(0.0, 1.0);
                a + d * t
            }

            /// Known nearest features of a can of half height 2 and radius 1, a capsule
            /// of radius 0.5: (segment ends, normal from the capsule, depth).
            fn can_cases() -> Vec<(V, V, V, f64)> {
                let mut cases = vec![
                    // Upright beside the side: the whole stretch faces it.
                    (
                        v(1.75, -1.0, 0.0),
                        v(1.75, 1.0, 0.0),
                        v(-1.0, 0.0, 0.0),
                        -0.25,
                    ),
                    // Lying across the top cap, and under the bottom one.
                    (
                        v(-2.0, 2.25, 0.3),
                        v(2.0, 2.25, 0.3),
                        v(0.0, -1.0, 0.0),
                        0.25,
                    ),
                    (v(-3.0, -2.4, 0.0), v(3.0, -2.4, 0.5), v(0.0, 1.0, 0.0), 0.1),
                    // Skew past the side, and a long upright one overlapping the slab.
                    (
                        v(3.0, -1.0, -2.0),
                        v(3.0, 1.0, 2.0),
                        v(-1.0, 0.0, 0.0),
                        -1.5,
                    ),
                    (v(0.0, 1.0, -1.4), v(0.0, 5.0, -1.4), v(0.0, 0.0, 1.0), 0.1),
                ];
                // In the x–y plane beyond the rim's point (1, 2, 0): that point is the
                // nearest of the can to every point of the segment.
                let corner = v(1.0, 2.0, 0.0);
                for (a, b) in [
                    (v(1.5, 3.0, 0.0), v(2.5, 2.0, 0.0)), // passing by the rim
                    (v(1.3, 2.4, 0.0), v(2.0, 3.5, 0.0)), // an end nearest
                ] {
                    let p = nearest_on_segment_2d(a, b, corner);
                    let n = (corner - p).normalize();
                    cases.push((a, b, n, 0.5 - (corner - p).length() as f64));
                }
                // Leaving the slab towards the rim (nearest point beyond the cap's
                // plane, so found by the cap piece's secant).
                let (a, b) = (v(1.5, 1.0, 0.0), v(1.2, 3.0, 0.0));
                let p = nearest_on_segment_2d(a, b, corner);
                assert!(p.y > 2.0 && p.x > 1.0);
                cases.push((
                    a,
                    b,
                    (corner - p).normalize(),
                    0.5 - (corner - p).length() as f64,
                ));
                cases
            }

            #[test]
            fn exact_features_at_every_scale() {
                let mut rng = Rng(0xca9 + std::mem::size_of::<$r>() as u64);
                for s in [1e-3, 1e-1, 1.0, 1e2, 1e4] {
                    let motion = pose(&mut rng, 3.0 * s);
                    let can = Cylinder::<$r>::new((2.0 * s) as $r, s as $r).unwrap();
                    for (k, (a, b, n, d)) in can_cases().into_iter().enumerate() {
                        let what = format!("case {k} at scale {s}");
                        let log = Capsule::new(a * s as $r, b * s as $r, (0.5 * s) as $r).unwrap();
                        let prediction = (2.0 * s) as $r;
                        let c = contact_capsule_cylinder(&motion, &log, &motion, &can, prediction)
                            .unwrap_or_else(|| panic!("{what}: no contact"));
                        let n = motion.transform_vector(n);
                        assert!(
                            (c.normal - n).length() as f64 <= TOL,
                            "{what}: {c:?} for {n:?}"
                        );
                        assert!(
                            (c.depth as f64 - d * s).abs() <= TOL * s,
                            "{what}: depth {} for {}",
                            c.depth,
                            d * s
                        );
                        let gap = (c.point_a - c.point_b - c.normal * c.depth).length() as f64;
                        assert!(gap <= TOL * s, "{what}: witnesses off by {gap}");
                        let dist = distance_capsule_cylinder(&motion, &log, &motion, &can);
                        assert!(
                            (dist as f64 - (-d * s).max(0.0)).abs() <= TOL * s,
                            "{what}: distance {dist}"
                        );
                    }
                }
            }

            /// Contacts and distances on random poses of a capsule and the cylinder of
            /// half height `h` and radius `r` (times the scale), against GJK / EPA.
            fn random_poses(h: f64, r: f64, seed: u64) {
                let mut rng = Rng(seed);
                let (mut found, mut checked, mut apart) = (0, 0, 0);
                for case in 0..CASES {
                    let scale = 10f64.powf(rng.range(-3.0, 4.0));
                    let can = Cylinder::<$r>::new((h * scale) as $r, (r * scale) as $r).unwrap();
                    let half = v(0.0, rng.range(0.0, 1.0), 0.0) * scale as $r;
                    let radius = (rng.range(0.05, 0.6) * scale) as $r;
                    let log = Capsule::new(-half, half, radius).unwrap();
                    let (pa, pb) = (pose(&mut rng, 0.9 * scale), pose(&mut rng, 0.9 * scale));
                    let what = format!("case {case} (scale {scale})");
                    let gjk = distance(&pa, &log, &pb, &can) as f64;
                    let ours = distance_capsule_cylinder(&pa, &log, &pb, &can) as f64;
                    assert!(
                        (gjk - ours).abs() <= EPA_TOL * scale,
                        "{what}: distance {ours} where GJK says {gjk}"
                    );
                    apart += usize::from(ours > 0.0);
                    let prediction = (0.2 * scale) as $r;
                    let general = contact(&pa, &log, &pb, &can, prediction);
                    let Some(c) = contact_capsule_cylinder(&pa, &log, &pb, &can, prediction) else {
                        if let Some(g) = general {
                            let gap = -(g.depth as f64);
                            assert!(
                                gap >= prediction as f64 - EPA_TOL * scale,
                                "{what}: missed {g:?}"
                            );
                        }
                        continue;
                    };
                    found += 1;
                    let g = general
                        .unwrap_or_else(|| panic!("{what}: GJK / EPA finds no contact for {c:?}"));
                    assert!(
                        (g.depth as f64 - c.depth as f64).abs() <= EPA_TOL * scale,
                        "{what}: depth {} where GJK / EPA says {}",
                        c.depth,
                        g.depth
                    );
                    // The analytic path (the core apart from the cylinder by more than
                    // a small gap, whose normal any method knows only roughly).
                    let core_gap = radius as f64 - c.depth as f64;
                    if core_gap >= 1e-2 * scale {
                        let tol = PROPERTY_TOL * scale;
                        let n = c.normal;
                        let overlap = support(&log, &pa, n) + support(&can, &pb, -n);
                        assert!(
                            (overlap - c.depth as f64).abs() <= tol,
                            "{what}: overlap {overlap} along the normal, depth {}",
                            c.depth
                        );
                        let on_a = n.dot(c.point_a) as f64 - support(&log, &pa, n);
                        let on_b = n.dot(c.point_b) as f64 + support(&can, &pb, -n);
                        assert!(
                            on_a.abs() <= tol && on_b.abs() <= tol,
                            "{what}: witnesses off their supports ({on_a}, {on_b})"
                        );
                        checked += 1;
                    }
                }
                assert!(found > CASES / 4, "only {found} contacts in {CASES} cases");
                assert!(
                    checked > found / 2,
                    "only {checked} of {found} contacts analytic"
                );
                assert!(
                    apart > CASES / 4,
                    "only {apart} pairs apart in {CASES} cases"
                );
            }

            #[test]
            fn random_poses_against_gjk_and_epa() {
                for (k, (h, r)) in [(1.0, 0.5), (0.05, 1.0), (2.0, 0.02)]
                    .into_iter()
                    .enumerate()
                {
                    random_poses(h, r, 0xcc1 + k as u64);
                }
            }

            #[test]
            fn dispatch_routes_both_orders() {
                let mut rng = Rng(0xd16);
                let can = Cylinder::<$r>::new(1.0, 0.5).unwrap();
                let (shape_can, mut through) = (Shape::Cylinder(can), 0);
                for case in 0..400 {
                    let half = v(0.0, rng.range(0.0, 1.0), 0.0);
                    let log = Capsule::new(-half, half, rng.range(0.05, 0.5) as $r).unwrap();
                    let (pa, pb) = (pose(&mut rng, 1.0), pose(&mut rng, 1.0));
                    let direct = contact_capsule_cylinder(&pa, &log, &pb, &can, 0.1);
                    let shape_log = Shape::Capsule(log);
                    let ab = dispatch::contact(&pa, &shape_log, &pb, &shape_can, 0.1);
                    let ba = dispatch::contact(&pb, &shape_can, &pa, &shape_log, 0.1);
                    let analytic = direct.is_some_and(|c| c.depth < log.radius());
                    if analytic || direct.is_none() {
                        assert_eq!(ab, direct, "case {case}");
                        assert_eq!(ba, direct.map(|c| c.flipped()), "case {case}");
                    } else {
                        // GJK / EPA, on the dispatch's renormalised rotations.
                        let (c, ab, ba) = (direct.unwrap(), ab.unwrap(), ba.unwrap());
                        assert!((ab.depth - c.depth).abs() as f64 <= EPA_TOL, "case {case}");
                        assert!((ba.depth - c.depth).abs() as f64 <= EPA_TOL, "case {case}");
                    }
                    let d = distance_capsule_cylinder(&pa, &log, &pb, &can);
                    assert_eq!(dispatch::distance(&pa, &shape_log, &pb, &shape_can), d);
                    assert_eq!(dispatch::distance(&pb, &shape_can, &pa, &shape_log), d);
                    // A core through the cylinder: GJK / EPA's answer, unchanged.
                    if direct.is_some_and(|c| c.depth >= log.radius()) {
                        assert_eq!(direct, contact(&pa, &log, &pb, &can, 0.1), "case {case}");
                        through += 1;
                    }
                }
                assert!(through > 20, "only {through} cores through the cylinder");
            }

            #[test]
            fn non_finite_poses_give_none() {
                let can = Cylinder::<$r>::new(1.0, 0.5).unwrap();
                let log = Capsule::new(v(0.0, -1.0, 0.0), v(0.0, 1.0, 0.0), 0.25).unwrap();
                let bad = P::from_translation(v(f64::NAN, 0.0, 0.0));
                let id = P::IDENTITY;
                assert_eq!(contact_capsule_cylinder(&bad, &log, &id, &can, 0.1), None);
                assert_eq!(contact_capsule_cylinder(&id, &log, &bad, &can, 0.1), None);
                assert!(distance_capsule_cylinder(&bad, &log, &id, &can).is_nan());
                let inf = P::from_translation(v(f64::INFINITY, 0.0, 0.0));
                assert_eq!(contact_capsule_cylinder(&inf, &log, &id, &can, 0.1), None);
            }

            #[test]
            fn degenerate_cylinders_and_capsules() {
                // A disc (zero height), a needle (zero radius), a capsule that is a ball.
                let id = P::IDENTITY;
                let disc = Cylinder::<$r>::new(0.0, 1.0).unwrap();
                let log = Capsule::new(v(-2.0, 0.5, 0.0), v(2.0, 0.5, 0.0), 0.25).unwrap();
                let c = contact_capsule_cylinder(&id, &log, &id, &disc, 1.0).expect("near");
                assert!((c.depth as f64 + 0.25).abs() <= TOL, "{c:?}");
                assert!(
                    (c.normal - v(0.0, -1.0, 0.0)).length() as f64 <= TOL,
                    "{c:?}"
                );
                let needle = Cylinder::<$r>::new(1.0, 0.0).unwrap();
                let ball = Capsule::new(v(0.75, 0.0, 0.0), v(0.75, 0.0, 0.0), 0.25).unwrap();
                let c = contact_capsule_cylinder(&id, &ball, &id, &needle, 1.0).expect("near");
                assert!((c.depth as f64 + 0.5).abs() <= TOL, "{c:?}");
                assert!(
                    (distance_capsule_cylinder(&id, &ball, &id, &needle) as f64 - 0.5).abs() <= TOL
                );
                // Touching side by side: no normal from the kernel, GJK / EPA answers.
                let can = Cylinder::<$r>::new(1.0, 1.0).unwrap();
                let touching = Capsule::new(v(1.0, -0.5, 0.0), v(1.0, 0.5, 0.0), 0.25).unwrap();
                let c = contact_capsule_cylinder(&id, &touching, &id, &can, 0.0).expect("touching");
                assert_eq!(Some(c), contact(&id, &touching, &id, &can, 0.0));
                assert!((c.depth as f64 - 0.25).abs() <= EPA_TOL, "{c:?}");
            }
        }
    };
}

capsule_cylinder_tests!(
    f32_capsule_cylinder,
    f32,
    glam::Vec3,
    glam::Quat,
    2e-5,
    2e-3
);
capsule_cylinder_tests!(
    f64_capsule_cylinder,
    f64,
    glam::DVec3,
    glam::DQuat,
    1e-12,
    1e-5
);
