//! Ball–cylinder and ball–cone contacts without GJK (issue 13 item 5): the analytic
//! kernels `contact_ball_cylinder` / `contact_ball_cone` and the 3D dispatch that
//! routes those pairs to them, in `f32` and `f64`, at scales 1e-3 to 1e4:
//!
//! - exact answers where the nearest feature is known (a cap, the side, a rim, the
//!   apex, the base, the slant side; centres outside and inside), under a random
//!   rigid motion of both shapes;
//! - on random poses, the defining property of a contact: the shapes' projections on
//!   the normal overlap by the depth (moving B by `depth · normal` just separates
//!   them), the witnesses are the shapes' extreme points along it, and the depth
//!   agrees with GJK / EPA's within EPA's tolerance;
//! - the dispatch answers as the kernel does, in both argument orders, and a centre
//!   on the surface (no normal there) falls back to GJK / EPA.

#[path = "support/poses3.rs"]
mod poses3;
#[path = "support/rng.rs"]
mod rng;

use rng::Rng;

/// Random poses per vector type and shape.
const CASES: usize = 2_000;

macro_rules! ball_curved_tests {
    ($m:ident, $r:ty, $v:ty, $q:ty, $tol:expr, $epa_tol:expr) => {
        mod $m {
            use super::*;
            use isect::algo::support::SupportMap;
            use isect::math::{Isometry, Pose3};
            use isect::query::contact::{
                contact, contact_ball_cone, contact_ball_cylinder, Contact,
            };
            use isect::query::dispatch;
            use isect::shape::shape_3d::Shape;
            use isect::shape::{Ball, Cone, Cylinder};

            type V = $v;
            type P = Pose3<$r>;
            /// Relative tolerance of the exact answers (a few ε of the scale).
            const TOL: f64 = $tol;
            /// Relative tolerance against GJK / EPA (their own tolerance).
            const EPA_TOL: f64 = $epa_tol;
            /// Relative tolerance of the contact's properties on random poses.
            const PROPERTY_TOL: f64 = EPA_TOL / 20.0;
            /// Centres closer than this (relative) to the surface: depth checked only.
            const NEAR_SURFACE: f64 = 1e-2;

            fn v(x: f64, y: f64, z: f64) -> V {
                V::new(x as $r, y as $r, z as $r)
            }

            fn pose(rng: &mut Rng, reach: f64) -> P {
                poses3::pose3::<$r>(rng, reach)
            }

            fn support<S: SupportMap<V>>(shape: &S, pose: &P, n: V) -> f64 {
                poses3::support_along::<$r, S>(shape, pose, n)
            }

            /// A contact's normal, depth and witnesses against the expected ones (in
            /// B's frame before `motion`), within `TOL · scale`.
            fn assert_contact(
                c: Option<Contact<V>>,
                motion: &P,
                normal: V,
                depth: f64,
                scale: f64,
                what: &str,
            ) {
                let c = c.unwrap_or_else(|| panic!("{what}: no contact"));
                let n = motion.transform_vector(normal);
                assert!(
                    (c.normal - n).length() as f64 <= TOL,
                    "{what}: normal {:?} for {n:?}",
                    c.normal
                );
                assert!(
                    (c.depth as f64 - depth).abs() <= TOL * scale,
                    "{what}: depth {} for {depth}",
                    c.depth
                );
                let gap = (c.point_a - c.point_b - c.normal * c.depth).length() as f64;
                assert!(gap <= TOL * scale, "{what}: witnesses off by {gap}");
            }

            /// Known nearest features of a can of half height 2 and radius 1 (times
            /// `s`), a ball of radius 0.5: (centre, normal from the ball, depth).
            fn can_cases() -> Vec<(V, V, f64)> {
                let rim = v(-0.6, -0.8, 0.0);
                vec![
                    (v(0.3, 2.25, 0.2), v(0.0, -1.0, 0.0), 0.25), // above the top cap
                    (v(0.1, -2.4, -0.3), v(0.0, 1.0, 0.0), 0.1),  // below the bottom cap
                    (v(1.75, 0.3, 0.0), v(-1.0, 0.0, 0.0), -0.25), // beside the side
                    (v(0.75, 0.0, 0.0), v(-1.0, 0.0, 0.0), 0.75), // inside, near the side
                    (v(0.0, 1.8, 0.1), v(0.0, -1.0, 0.0), 0.7),   // inside, near the cap
                    (v(1.3, 2.4, 0.0), rim, 0.0),                 // off the rim
                ]
            }

            /// Known nearest features of a cone of half height 1 and base radius 1
            /// (apex at y = 1; times `s`), a ball of radius 0.5.
            fn cone_cases() -> Vec<(V, V, f64)> {
                // The slant side's outward normal in the x–y plane: (2, 1) / √5.
                let slant = v(2.0, 1.0, 0.0) / (5.0 as $r).sqrt();
                // A point 0.2 outside the slant side's midpoint (0.5, 0).
                let out = v(0.5, 0.0, 0.0) + slant * 0.2;
                let inn = v(0.5, 0.0, 0.0) - slant * 0.1;
                vec![
                    (v(0.0, 2.25, 0.0), v(0.0, -1.0, 0.0), -0.75), // above the apex
                    (v(0.2, -1.3, 0.1), v(0.0, 1.0, 0.0), 0.2),    // below the base
                    (out, -slant, 0.3),                            // off the slant side
                    (inn, -slant, 0.6),                            // inside, near the slant
                    (v(0.0, -0.9, 0.0), v(0.0, 1.0, 0.0), 0.6),    // inside, near the base
                ]
            }

            #[test]
            fn exact_features_at_every_scale() {
                let mut rng = Rng(0xba11 + std::mem::size_of::<$r>() as u64);
                for s in [1e-3, 1e-1, 1.0, 1e2, 1e4] {
                    let motion = pose(&mut rng, 3.0 * s);
                    let can = Cylinder::<$r>::new((2.0 * s) as $r, s as $r).unwrap();
                    let cone = Cone::<$r>::new(s as $r, s as $r).unwrap();
                    for (k, (c, n, d)) in can_cases().into_iter().enumerate() {
                        let ball = Ball::new(c * s as $r, (0.5 * s) as $r).unwrap();
                        let got =
                            contact_ball_cylinder(&motion, &ball, &motion, &can, (s * 1.0) as $r);
                        assert_contact(
                            got,
                            &motion,
                            n,
                            d * s,
                            s,
                            &format!("can case {k} at scale {s}"),
                        );
                    }
                    for (k, (c, n, d)) in cone_cases().into_iter().enumerate() {
                        let ball = Ball::new(c * s as $r, (0.5 * s) as $r).unwrap();
                        let got =
                            contact_ball_cone(&motion, &ball, &motion, &cone, (s * 1.0) as $r);
                        assert_contact(
                            got,
                            &motion,
                            n,
                            d * s,
                            s,
                            &format!("cone case {k} at scale {s}"),
                        );
                    }
                }
            }

            /// The contact's defining properties on random poses of `make(scale)` and a
            /// ball, at scales 1e-3 to 1e4, and GJK / EPA's depth.
            fn random_poses<S: SupportMap<V>>(
                make: impl Fn(f64) -> S,
                kernel: impl Fn(&P, &Ball<V>, &P, &S, $r) -> Option<Contact<V>>,
                seed: u64,
            ) {
                let mut rng = Rng(seed);
                let (mut found, mut checked) = (0, 0);
                for case in 0..CASES {
                    let scale = 10f64.powf(rng.range(-3.0, 4.0));
                    let shape = make(scale);
                    let ball = Ball::new(V::ZERO, (rng.range(0.1, 1.0) * scale) as $r).unwrap();
                    let (pa, pb) = (pose(&mut rng, 0.7 * scale), pose(&mut rng, 0.7 * scale));
                    let prediction = (0.2 * scale) as $r;
                    let general = contact(&pa, &ball, &pb, &shape, prediction);
                    let Some(c) = kernel(&pa, &ball, &pb, &shape, prediction) else {
                        if let Some(g) = general {
                            let apart = -(g.depth as f64);
                            assert!(
                                apart >= prediction as f64 - EPA_TOL * scale,
                                "case {case}: missed {g:?}"
                            );
                        }
                        continue;
                    };
                    found += 1;
                    let n = c.normal;
                    // A centre within a small gap of the surface has a normal known only
                    // to about `ε |c| / gap` (by any method: EPA's differs as much), which
                    // tilts the overlap of a long shape; those cases check the depth only.
                    let gap = (c.depth - ball.radius()).abs() as f64;
                    if gap >= NEAR_SURFACE * scale {
                        let tol = PROPERTY_TOL * scale;
                        let overlap = support(&ball, &pa, n) + support(&shape, &pb, -n);
                        assert!(
                            (overlap - c.depth as f64).abs() <= tol,
                            "case {case} (scale {scale}): overlap {overlap} along the normal, depth {}",
                            c.depth
                        );
                        let on_a = n.dot(c.point_a) as f64 - support(&ball, &pa, n);
                        let on_b = n.dot(c.point_b) as f64 + support(&shape, &pb, -n);
                        assert!(
                            on_a.abs() <= tol && on_b.abs() <= tol,
                            "case {case}: witnesses off their supports ({on_a}, {on_b})"
                        );
                        checked += 1;
                    }
                    let g = general.unwrap_or_else(|| {
                        panic!("case {case}: GJK / EPA finds no contact for {c:?}")
                    });
                    assert!(
                        (g.depth as f64 - c.depth as f64).abs() <= EPA_TOL * scale,
                        "case {case}: depth {} where GJK / EPA says {}",
                        c.depth,
                        g.depth
                    );
                }
                assert!(found > CASES / 4, "only {found} contacts in {CASES} cases");
                assert!(checked > found / 2, "only {checked} of {found} contacts away from the surface");
            }

            #[test]
            fn cylinder_contacts_on_random_poses() {
                for (h, r) in [(1.0, 0.5), (0.05, 1.0), (2.0, 0.02)] {
                    let make = |s: f64| Cylinder::<$r>::new((h * s) as $r, (r * s) as $r).unwrap();
                    random_poses(
                        make,
                        |pa, a, pb, b, p| contact_ball_cylinder(pa, a, pb, b, p),
                        0xc71,
                    );
                }
            }

            #[test]
            fn cone_contacts_on_random_poses() {
                for (h, r) in [(1.0, 0.5), (0.05, 1.0), (2.0, 0.02)] {
                    let make = |s: f64| Cone::<$r>::new((h * s) as $r, (r * s) as $r).unwrap();
                    random_poses(
                        make,
                        |pa, a, pb, b, p| contact_ball_cone(pa, a, pb, b, p),
                        0xc03e,
                    );
                }
            }

            #[test]
            fn dispatch_routes_both_orders() {
                let mut rng = Rng(0xd15);
                let shapes: [Shape<$r>; 2] = [
                    Shape::Cylinder(Cylinder::new(1.0, 0.5).unwrap()),
                    Shape::Cone(Cone::new(1.0, 0.5).unwrap()),
                ];
                for case in 0..200 {
                    let ball = Ball::new(V::ZERO, rng.range(0.1, 1.0) as $r).unwrap();
                    let (pa, pb) = (pose(&mut rng, 1.0), pose(&mut rng, 1.0));
                    for shape in &shapes {
                        let direct = match shape {
                            Shape::Cylinder(s) => contact_ball_cylinder(&pa, &ball, &pb, s, 0.1),
                            Shape::Cone(s) => contact_ball_cone(&pa, &ball, &pb, s, 0.1),
                            _ => unreachable!(),
                        };
                        let ab = dispatch::contact(&pa, &Shape::Ball(ball), &pb, shape, 0.1);
                        let ba = dispatch::contact(&pb, shape, &pa, &Shape::Ball(ball), 0.1);
                        assert_eq!(ab, direct, "case {case}");
                        assert_eq!(ba, direct.map(|c| c.flipped()), "case {case}");
                    }
                }
            }

            #[test]
            fn centre_on_the_surface_takes_the_general_path() {
                let can = Cylinder::<$r>::new(1.0, 0.5).unwrap();
                let cone = Cone::<$r>::new(1.0, 0.5).unwrap();
                let id = P::IDENTITY;
                // Centres on a cap, on the side, at the apex: depth = the radius.
                for c in [v(0.1, 1.0, 0.0), v(0.5, 0.2, 0.0)] {
                    let ball = Ball::new(c, 0.25).unwrap();
                    let got = contact_ball_cylinder(&id, &ball, &id, &can, 0.0).expect("touching");
                    assert_eq!(Some(got), contact(&id, &ball, &id, &can, 0.0));
                    assert!((got.depth - 0.25).abs() as f64 <= EPA_TOL, "{got:?}");
                }
                let ball = Ball::new(v(0.0, 1.0, 0.0), 0.25).unwrap();
                let got = contact_ball_cone(&id, &ball, &id, &cone, 0.0).expect("touching");
                assert_eq!(Some(got), contact(&id, &ball, &id, &cone, 0.0));
            }
        }
    };
}

ball_curved_tests!(f32_ball_curved, f32, glam::Vec3, glam::Quat, 2e-5, 2e-3);
ball_curved_tests!(f64_ball_curved, f64, glam::DVec3, glam::DQuat, 1e-12, 1e-5);
