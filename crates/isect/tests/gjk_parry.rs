//! Differential tests against parry2d / parry3d 0.31 (f32): distance, contact and
//! linear shape casts on the same 10,000 seeded random pairs of balls, boxes and
//! capsules, with a hit-rate guard. Tolerance: 2e-3 (both libraries iterate to
//! about 1e-4 in f32), except for pairs of a capsule with a box or a capsule,
//! where parry's answer is itself off by up to ~9e-3 (measured against the exact
//! segment distance): there we compare with parry within [`TOL_PARRY_CURVED`] and
//! with an exact reference (golden-section search along the capsule's segment)
//! within `TOL`.

mod gjk_common;

use gjk_common::{assert_hit_rate, Rng};

const CASES: usize = 10_000;
const TOL: f32 = 2e-3;
/// Unit cross products of two boxes' axes (3D edge–edge separating axes).
fn edge_axes_3d(ax: &[glam::Vec3], ay: &[glam::Vec3]) -> Vec<glam::Vec3> {
    ax.iter()
        .flat_map(|x| ay.iter().filter_map(move |y| x.cross(*y).try_normalize()))
        .collect()
}

/// 2D boxes have no edge–edge axes.
fn edge_axes_2d(_ax: &[glam::Vec2], _ay: &[glam::Vec2]) -> Vec<glam::Vec2> {
    Vec::new()
}

/// Agreement with parry on capsule–box and capsule–capsule pairs.
const TOL_PARRY_CURVED: f32 = 1.5e-2;

/// Minimum of a convex function on `[0, 1]` by golden-section search (f64).
fn golden_min(f: impl Fn(f64) -> f64) -> f64 {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..80 {
        let (m1, m2) = (hi - g * (hi - lo), lo + g * (hi - lo));
        if f(m1) <= f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    f(0.5 * (lo + hi)).min(f(0.0)).min(f(1.0))
}

macro_rules! parry_differential {
    ($m:ident, $parry:ident, $v:ty, $pose:ty, $dim:expr, $make_pose:expr, $parry_pose:expr, $edge_axes:ident) => {
        mod $m {
            use super::*;
            use isect::algo::support::SupportMap;
            use isect::math::{Isometry, Vector};
            use isect::query::cast_shapes::cast_shapes;
            use isect::query::contact::contact;
            use isect::query::distance::distance;
            use isect::shape::{Aabb, Ball, Capsule};
            use $parry::query::{self as pq, ShapeCastOptions};
            use $parry::shape as ps;

            type V = $v;

            /// One of our shapes with parry's twin.
            #[derive(Debug)]
            enum Pair {
                Ball(Ball<V>, ps::Ball),
                Box(Aabb<V>, ps::Cuboid),
                Capsule(Capsule<V>, ps::Capsule),
            }

            fn rand_vec(rng: &mut Rng, half: f32) -> V {
                (0..$dim).fold(V::ZERO, |v, i| {
                    v.with(i, rng.range(-half as f64, half as f64) as f32)
                })
            }

            fn random_shape(rng: &mut Rng) -> Pair {
                match rng.next_u64() % 3 {
                    0 => {
                        let r = rng.range(0.1, 0.8) as f32;
                        Pair::Ball(Ball::new(V::ZERO, r).unwrap(), ps::Ball::new(r))
                    }
                    1 => {
                        let h = rand_vec(rng, 0.7).abs() + V::splat(0.05);
                        Pair::Box(Aabb::from_center(V::ZERO, h).unwrap(), ps::Cuboid::new(h))
                    }
                    _ => {
                        let (a, b) = (rand_vec(rng, 0.6), rand_vec(rng, 0.6));
                        let r = rng.range(0.05, 0.4) as f32;
                        Pair::Capsule(Capsule::new(a, b, r).unwrap(), ps::Capsule::new(a, b, r))
                    }
                }
            }

            fn ours(p: &Pair) -> &dyn SupportMap<V> {
                match p {
                    Pair::Ball(s, _) => s,
                    Pair::Box(s, _) => s,
                    Pair::Capsule(s, _) => s,
                }
            }

            fn theirs(p: &Pair) -> &dyn ps::Shape {
                match p {
                    Pair::Ball(_, s) => s,
                    Pair::Box(_, s) => s,
                    Pair::Capsule(_, s) => s,
                }
            }

            /// Exact distance for pairs with a capsule and a box or capsule: the
            /// distance from the capsule's segment point `s` to the other shape is
            /// convex in `s`; `None` for other pairs.
            fn reference(a: &Pair, pa: &$pose, b: &Pair, pb: &$pose) -> Option<f32> {
                let (cap, pc, other, po) = match (a, b) {
                    (Pair::Capsule(c, _), o @ (Pair::Box(..) | Pair::Capsule(..))) => {
                        (c, pa, o, pb)
                    }
                    (o @ Pair::Box(..), Pair::Capsule(c, _)) => (c, pb, o, pa),
                    _ => return None,
                };
                let seg = cap.segment();
                let at = |s: f64| pc.transform_point(seg.a.lerp(seg.b, s as f32));
                let to_other = |p: V| -> f64 {
                    match other {
                        Pair::Box(bx, _) => {
                            let l = po.inverse_transform_point(p);
                            bx.closest_point(l).distance(l) as f64
                        }
                        Pair::Capsule(c2, _) => {
                            let s2 = c2.segment();
                            let world = isect::shape::Segment {
                                a: po.transform_point(s2.a),
                                b: po.transform_point(s2.b),
                            };
                            let (q, _) = world.closest_point(p);
                            q.distance(p) as f64 - c2.radius() as f64
                        }
                        Pair::Ball(..) => unreachable!("balls are excluded above"),
                    }
                };
                Some((golden_min(|s| to_other(at(s))) - cap.radius() as f64).max(0.0) as f32)
            }

            /// Exact penetration depth where a closed form exists: boxes by the
            /// separating-axis minimum; capsule pairs whose cores are apart by the
            /// radii minus the core distance. `None` elsewhere.
            fn exact_depth(a: &Pair, pa: &$pose, b: &Pair, pb: &$pose) -> Option<f32> {
                match (a, b) {
                    (Pair::Box(x, _), Pair::Box(y, _)) => Some(sat_depth(x, pa, y, pb)),
                    _ => {
                        let core_gap = reference_core(a, pa, b, pb)?;
                        let radii = match (a, b) {
                            (Pair::Capsule(c, _), Pair::Capsule(d, _)) => c.radius() + d.radius(),
                            (Pair::Capsule(c, _), _) | (_, Pair::Capsule(c, _)) => c.radius(),
                            _ => return None,
                        };
                        (core_gap > 1e-3).then(|| radii - core_gap)
                    }
                }
            }

            /// Distance between the cores (segment to box or segment), by search.
            fn reference_core(a: &Pair, pa: &$pose, b: &Pair, pb: &$pose) -> Option<f32> {
                reference(a, pa, b, pb)?;
                let (cap, pc, other, po) = match (a, b) {
                    (Pair::Capsule(c, _), o) => (c, pa, o, pb),
                    (o, Pair::Capsule(c, _)) => (c, pb, o, pa),
                    _ => return None,
                };
                let seg = cap.segment();
                let gap = golden_min(|s| {
                    let p = pc.transform_point(seg.a.lerp(seg.b, s as f32));
                    match other {
                        Pair::Box(bx, _) => {
                            let l = po.inverse_transform_point(p);
                            bx.closest_point(l).distance(l) as f64
                        }
                        Pair::Capsule(c2, _) => {
                            let s2 = c2.segment();
                            let world = isect::shape::Segment {
                                a: po.transform_point(s2.a),
                                b: po.transform_point(s2.b),
                            };
                            world.closest_point(p).0.distance(p) as f64
                        }
                        Pair::Ball(..) => f64::NAN,
                    }
                });
                Some(gap as f32)
            }

            /// Minimum overlap of two posed boxes over the separating axes
            /// (face normals, and in 3D the edge cross products).
            fn sat_depth(x: &Aabb<V>, px: &$pose, y: &Aabb<V>, py: &$pose) -> f32 {
                let corners = |b: &Aabb<V>, p: &$pose| {
                    b.corners()
                        .map(|c| p.transform_point(c))
                        .collect::<Vec<V>>()
                };
                let (cx, cy) = (corners(x, px), corners(y, py));
                let axes_of = |p: &$pose| {
                    (0..$dim)
                        .map(|i| p.transform_vector(V::unit_axis(i)))
                        .collect::<Vec<V>>()
                };
                let (ax, ay) = (axes_of(px), axes_of(py));
                let mut axes: Vec<V> = ax.iter().chain(ay.iter()).copied().collect();
                axes.extend(super::$edge_axes(&ax, &ay));
                axes.iter()
                    .map(|&n| {
                        let span = |c: &[V]| {
                            c.iter()
                                .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), v| {
                                    (lo.min(v.dot(n)), hi.max(v.dot(n)))
                                })
                        };
                        let ((lx, hx), (ly, hy)) = (span(&cx), span(&cy));
                        (hx - ly).min(hy - lx)
                    })
                    .fold(f32::INFINITY, f32::min)
            }

            fn random_pose(rng: &mut Rng, half: f32) -> ($pose, $parry::math::Pose) {
                let t = rand_vec(rng, half);
                let angle = rng.range(-3.1, 3.1) as f32;
                let axis = rand_vec(rng, 1.0)
                    .try_normalize()
                    .unwrap_or(V::unit_axis(0));
                ($make_pose(t, axis, angle), $parry_pose(t, axis, angle))
            }

            // Random pairs: distance and contact depth agree with parry; the contact
            // normal achieves the depth; separated normals agree.
            #[test]
            fn distance_and_contact() {
                let mut rng = Rng(21);
                let mut hits = 0;
                let spread = if $dim == 2 { 1.1 } else { 0.75 };
                for _ in 0..CASES {
                    let (a, b) = (random_shape(&mut rng), random_shape(&mut rng));
                    let (pa, qa) = random_pose(&mut rng, spread);
                    let (pb, qb) = random_pose(&mut rng, spread);
                    let d = distance(&pa, ours(&a), &pb, ours(&b));
                    let pd = pq::distance(&qa, theirs(&a), &qb, theirs(&b))
                        .unwrap()
                        .distance;
                    let exact = reference(&a, &pa, &b, &pb);
                    let tol = if exact.is_some() {
                        TOL_PARRY_CURVED
                    } else {
                        TOL
                    };
                    if let Some(exact) = exact {
                        assert!((d - exact).abs() <= TOL, "distance {d} vs exact {exact}");
                    }
                    assert!((d - pd).abs() <= tol, "distance {d} vs parry {pd}");
                    let c = contact(&pa, ours(&a), &pb, ours(&b), 10.0).expect("within prediction");
                    let pc = pq::contact(&qa, theirs(&a), &qb, theirs(&b), 10.0)
                        .unwrap()
                        .expect("parry contact");
                    let reach = |n: V| {
                        let n_a = pa.inverse_transform_vector(n);
                        let n_b = pb.inverse_transform_vector(-n);
                        pa.transform_point(ours(&a).local_support(n_a)).dot(n)
                            - pb.transform_point(ours(&b).local_support(n_b)).dot(n)
                    };
                    if c.depth < -0.01 {
                        assert!(
                            (c.depth + pc.dist).abs() <= tol,
                            "separation {} vs parry {}",
                            -c.depth,
                            pc.dist
                        );
                        assert!(
                            c.normal.dot(pc.normal1) > 1.0 - tol,
                            "normal {:?} vs {:?}",
                            c.normal,
                            pc.normal1
                        );
                        continue;
                    }
                    hits += 1;
                    // Moving B by depth along our normal just separates: the support
                    // distance of A − B along the normal is the depth.
                    assert!(
                        (reach(c.normal) - c.depth).abs() <= TOL,
                        "depth {} not achieved",
                        c.depth
                    );
                    // Penetration depth is the minimum of that support distance over
                    // directions: ours is at least as small as along parry's normal.
                    // (parry's reported `dist` is not always achieved along its normal
                    // for box–box and capsule pairs, so it is not compared directly.)
                    assert!(
                        c.depth <= reach(pc.normal1) + TOL,
                        "depth {} above parry's direction {}",
                        c.depth,
                        reach(pc.normal1)
                    );
                    if let Some(exact) = exact_depth(&a, &pa, &b, &pb) {
                        assert!(
                            (c.depth - exact).abs() <= TOL,
                            "depth {} vs exact {exact}",
                            c.depth
                        );
                    }
                }
                assert_hit_rate(hits, CASES, "parry contact");
            }

            // Random linear casts: time of impact agrees with parry's `cast_shapes`.
            #[test]
            fn linear_casts() {
                let mut rng = Rng(22);
                let mut hits = 0;
                for _ in 0..CASES {
                    let (a, b) = (random_shape(&mut rng), random_shape(&mut rng));
                    let (pa, qa) = random_pose(&mut rng, 2.5);
                    let (pb, qb) = random_pose(&mut rng, 2.5);
                    let aim = (pa.translation() - pb.translation()) * rng.range(0.0, 1.5) as f32;
                    let vel = aim + rand_vec(&mut rng, 0.8);
                    let ours_hit = cast_shapes(&pa, V::ZERO, ours(&a), &pb, vel, ours(&b), 1.0);
                    let options = ShapeCastOptions::with_max_time_of_impact(1.0);
                    let theirs_hit =
                        pq::cast_shapes(&qa, V::ZERO, theirs(&a), &qb, vel, theirs(&b), options)
                            .unwrap();
                    let speed = 1.0 + vel.length();
                    match (ours_hit, theirs_hit) {
                        (None, None) => {}
                        (Some(h), Some(p)) => {
                            hits += 1;
                            let tol = if reference(&a, &pa, &b, &pb).is_some() {
                                TOL_PARRY_CURVED
                            } else {
                                TOL
                            };
                            // Grazing passes (closest approach within the tolerance) may
                            // report different times; both must then be touching.
                            let gap_at = |t: f32| {
                                let moved =
                                    <$pose as Isometry<V>>::from_translation(vel * t).mul(&pb);
                                distance(&pa, ours(&a), &moved, ours(&b))
                            };
                            let grazing = gap_at(h.time) <= tol && gap_at(p.time_of_impact) <= tol;
                            let agree = (h.time - p.time_of_impact).abs() * speed <= tol * 4.0;
                            assert!(
                                agree || grazing,
                                "toi {} vs parry {}",
                                h.time,
                                p.time_of_impact
                            );
                        }
                        (h, p) => {
                            // Only grazing passes may differ: check the closest approach.
                            let t = h.map(|h| h.time).or(p.map(|p| p.time_of_impact)).unwrap();
                            let moved = <$pose as Isometry<V>>::from_translation(vel * t).mul(&pb);
                            let gap = distance(&pa, ours(&a), &moved, ours(&b));
                            assert!(
                                gap <= TOL * speed || t > 0.999,
                                "cast {:?} vs parry {:?}",
                                h.map(|h| h.time),
                                p.map(|p| p.time_of_impact)
                            );
                        }
                    }
                }
                assert_hit_rate(hits, CASES, "parry cast");
            }
        }
    };
}

parry_differential!(
    d3,
    parry3d,
    glam::Vec3,
    isect::math::Pose3<f32>,
    3,
    |t: glam::Vec3, axis: glam::Vec3, angle: f32| isect::math::Pose3::new(
        t,
        glam::Quat::from_axis_angle(axis, angle)
    ),
    |t: glam::Vec3, axis: glam::Vec3, angle: f32| parry3d::math::Pose::from_parts(
        t,
        glam::Quat::from_axis_angle(axis, angle)
    ),
    edge_axes_3d
);

parry_differential!(
    d2,
    parry2d,
    glam::Vec2,
    isect::math::Pose2<f32>,
    2,
    |t: glam::Vec2, _axis: glam::Vec2, angle: f32| isect::math::Pose2::new(t, angle),
    |t: glam::Vec2, _axis: glam::Vec2, angle: f32| parry2d::math::Pose::from_parts(
        t,
        parry2d::math::Rot2::new(angle)
    ),
    edge_axes_2d
);
