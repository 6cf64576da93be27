//! Shape casts and time of impact against analytic answers on 10,000 seeded random
//! cases per query (2D and 3D, f32 and f64), with a hit-rate guard; rotation and
//! scale cases for conservative advancement.

mod gjk_common;

use gjk_common::{assert_hit_rate, f, r, rand_vec, tol, Rng, TestVector};
use isect::algo::gjk::Status;
use isect::math::{Isometry, Pose3, Vector};
use isect::query::cast_shapes::{cast_shapes, time_of_impact, Sweep};
use isect::query::distance::distance;
use isect::shape::{Aabb, Ball, Capsule};

const CASES: usize = 10_000;

#[macro_use]
#[path = "support/for_each_vector.rs"]
mod for_each_vector;

/// Seed 002's moving spheres: the ray from the relative start against a sphere of
/// radius `ra + rb`; `t` in units of the relative velocity.
fn sphere_toi(e: [f64; 3], d: [f64; 3], radius: f64) -> Option<f64> {
    let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    // Relative start e = cb − ca, relative velocity d = vb − va: solve |e + t d| = radius.
    let (a, b, c) = (dot(d, d), dot(e, d), dot(e, e) - radius * radius);
    if c <= 0.0 {
        return Some(0.0);
    }
    let disc = b * b - a * c;
    if a == 0.0 || disc < 0.0 || b >= 0.0 {
        return None;
    }
    Some((-b - disc.sqrt()) / a)
}

fn to3<V: Vector>(v: V) -> [f64; 3] {
    let mut out = [0.0; 3];
    for (i, o) in out.iter_mut().enumerate().take(V::DIM) {
        *o = f(v.get(i));
    }
    out
}

// Two balls moving at random velocities: time of impact against the quadratic.
fn sphere_sphere_cast<V: TestVector>() {
    let mut rng = Rng(11);
    let mut hits = 0;
    for _ in 0..CASES {
        let a = Ball::new(V::ZERO, r::<V>(rng.range(0.05, 0.5))).unwrap();
        let b = Ball::new(V::ZERO, r::<V>(rng.range(0.05, 0.5))).unwrap();
        let pa = V::pose_in(&mut rng, 2.0);
        let pb = V::pose_in(&mut rng, 2.0);
        // B heads roughly toward A, so that about half the cases hit.
        let aim = (pa.translation() - pb.translation()) * r::<V>(rng.range(0.0, 1.6));
        let (va, vb) = (
            rand_vec::<V>(&mut rng, 0.3),
            aim + rand_vec::<V>(&mut rng, 0.6),
        );
        let e = to3(pb.translation() - pa.translation());
        let d = to3(vb - va);
        let expected = sphere_toi(e, d, f(a.radius()) + f(b.radius())).filter(|&t| t <= 1.0);
        let hit = cast_shapes(&pa, va, &a, &pb, vb, &b, r::<V>(1.0));
        match (expected, hit) {
            (None, None) => {}
            (Some(t), Some(h)) => {
                hits += 1;
                assert!(
                    (f(h.time) - t).abs() <= tol::<V>() * 8.0,
                    "toi {} vs {t}",
                    f(h.time)
                );
                assert_ne!(h.status, Status::Degenerate);
                // At the impact the witness points are one contact apart.
                assert!(f(h.point_a.distance(h.point_b)) <= tol::<V>() * 8.0 || t == 0.0);
            }
            (want, h) => {
                // Grazing cases may flip within the tolerance.
                let t = want.or(h.map(|h| f(h.time))).unwrap();
                let near = (t - 1.0).abs() < 1e-3
                    || tangent_gap(e, d, f(a.radius()) + f(b.radius())).abs() < 1e-3;
                assert!(near, "cast {want:?} vs {:?}", h.map(|h| f(h.time)));
            }
        }
    }
    assert_hit_rate(hits, CASES, "sphere-sphere cast");
}
for_each_vector!(sphere_sphere_cast);

/// How far the relative path `e + t·d`, `t ∈ [0, 1]`, passes from touching:
/// closest approach minus the summed radius.
fn tangent_gap(e: [f64; 3], d: [f64; 3], radius: f64) -> f64 {
    let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let dd = dot(d, d);
    let t = if dd > 0.0 {
        (-dot(e, d) / dd).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let p = [e[0] + t * d[0], e[1] + t * d[1], e[2] + t * d[2]];
    dot(p, p).sqrt() - radius
}

// Two axis-aligned boxes translating: time of impact by the slab method on the
// Minkowski sum (a box of the summed half-extents) against the relative ray.
fn box_box_cast<V: TestVector>() {
    let mut rng = Rng(12);
    let mut hits = 0;
    for _ in 0..CASES {
        let ha = rand_vec::<V>(&mut rng, 0.5).abs() + V::splat(r::<V>(0.05));
        let hb = rand_vec::<V>(&mut rng, 0.5).abs() + V::splat(r::<V>(0.05));
        let a = Aabb::from_center(V::ZERO, ha).unwrap();
        let b = Aabb::from_center(V::ZERO, hb).unwrap();
        let pa = V::Pose::from_translation(rand_vec(&mut rng, 2.0));
        let pb = V::Pose::from_translation(rand_vec(&mut rng, 2.0));
        let start = pb.translation() - pa.translation();
        let vel = -start * r::<V>(rng.range(0.0, 1.6)) + rand_vec::<V>(&mut rng, 0.6);
        let expected = slab(start, vel, ha + hb).filter(|&t| t <= 1.0);
        let hit = cast_shapes(&pa, V::ZERO, &a, &pb, vel, &b, r::<V>(1.0));
        let scale = 1.0 + f(vel.length());
        match (expected, hit) {
            (None, None) => {}
            (Some(t), Some(h)) => {
                hits += 1;
                assert!(
                    (f(h.time) - t).abs() * scale <= tol::<V>() * 8.0,
                    "toi {} vs {t}",
                    f(h.time)
                );
            }
            (e, h) => {
                let t = e.or(h.map(|h| f(h.time))).unwrap();
                assert!(
                    (t - 1.0).abs() < 1e-3,
                    "box cast {e:?} vs {:?}: {ha:?} {hb:?} {pa:?} {pb:?} {vel:?}",
                    h.map(|h| f(h.time))
                );
            }
        }
    }
    assert_hit_rate(hits, CASES, "box-box cast");
}
for_each_vector!(box_box_cast);

/// Entry time of the ray `−start + t·(−vel)`... of B's centre path into the box of
/// half-extents `half` around A: slab test in f64.
fn slab<V: Vector>(start: V, vel: V, half: V) -> Option<f64> {
    let (mut lo, mut hi) = (0.0f64, f64::INFINITY);
    for i in 0..V::DIM {
        let (o, d, h) = (f(start.get(i)), f(vel.get(i)), f(half.get(i)));
        if d == 0.0 {
            if o.abs() > h {
                return None;
            }
            continue;
        }
        let (t1, t2) = ((-h - o) / d, (h - o) / d);
        lo = lo.max(t1.min(t2));
        hi = hi.min(t1.max(t2));
    }
    (lo <= hi).then_some(lo)
}

// Without rotation, conservative advancement agrees with the linear cast.
fn toi_matches_linear_cast<V: TestVector>() {
    let mut rng = Rng(13);
    let mut hits = 0;
    for _ in 0..2_000 {
        let a = Capsule::new(
            rand_vec::<V>(&mut rng, 0.5),
            rand_vec(&mut rng, 0.5),
            r::<V>(rng.range(0.05, 0.3)),
        )
        .unwrap();
        let b = Aabb::from_center(
            V::ZERO,
            rand_vec::<V>(&mut rng, 0.5).abs() + V::splat(r::<V>(0.05)),
        )
        .unwrap();
        let pa = V::pose_in(&mut rng, 2.0);
        let pb = V::pose_in(&mut rng, 2.0);
        let aim = pa.translation() - pb.translation();
        let vel = aim * r::<V>(rng.range(0.0, 1.6)) + rand_vec::<V>(&mut rng, 0.6);
        let moved = <V::Pose as Isometry<V>>::from_translation(vel).mul(&pb);
        let sweep_a = Sweep { start: pa, end: pa };
        let sweep_b = Sweep {
            start: pb,
            end: moved,
        };
        let cast = cast_shapes(&pa, V::ZERO, &a, &pb, vel, &b, r::<V>(1.0));
        let toi = time_of_impact(&sweep_a, &a, &sweep_b, &b);
        match (cast, toi) {
            (None, None) => {}
            (Some(c), Some(t)) => {
                hits += 1;
                let speed = 1.0 + f(vel.length());
                assert!(
                    (f(c.time) - f(t.time)).abs() * speed <= tol::<V>() * 20.0,
                    "cast {} toi {}",
                    f(c.time),
                    f(t.time)
                );
            }
            (c, t) => {
                // Only a grazing pass (touching within the tolerance) or an impact at
                // the end of the motion may be judged differently by the two methods.
                let time = c.map(|h| f(h.time)).or(t.map(|h| f(h.time))).unwrap();
                let grazing = t.is_some_and(|h| f(h.depth).abs() <= tol::<V>());
                assert!(
                    time > 0.99 || grazing,
                    "cast {c:?} toi {t:?}: {a:?} {b:?} {pa:?} {pb:?} {vel:?}"
                );
            }
        }
    }
    assert_hit_rate(hits, 2_000, "toi vs cast");
}
for_each_vector!(toi_matches_linear_cast);

// A spinning stick (half a turn) sweeps a ball beside it: the time of impact is
// where they first touch, and no earlier sampled time touches.
#[test]
fn rotating_stick_hits_ball_first_time() {
    type P = Pose3<f64>;
    let stick = Capsule::new(
        glam::DVec3::new(0.0, 0.0, 0.0),
        glam::DVec3::new(2.0, 0.0, 0.0),
        0.05,
    )
    .unwrap();
    let ball = Ball::new(glam::DVec3::ZERO, 0.2).unwrap();
    let start = P::IDENTITY;
    let end = P::new(
        glam::DVec3::ZERO,
        glam::DQuat::from_rotation_z(std::f64::consts::PI),
    );
    let ball_pose = P::from_translation(glam::DVec3::new(0.0, 1.5, 0.0));
    let sa = Sweep { start, end };
    let sb = Sweep {
        start: ball_pose,
        end: ball_pose,
    };
    let hit = time_of_impact(&sa, &stick, &sb, &ball).expect("the stick reaches the ball");
    // Analytic: at angle θ the ball's centre is 1.5·cos θ from the stick's axis;
    // the surfaces touch when that is 0.05 + 0.2, i.e. θ = π/2 − asin(0.25/1.5).
    let theta = std::f64::consts::FRAC_PI_2 - (0.25f64 / 1.5).asin();
    assert!(
        (hit.time - theta / std::f64::consts::PI).abs() < 1e-6,
        "t = {}",
        hit.time
    );
    assert_eq!(hit.status, Status::Converged, "{hit:?}");
    assert!(hit.iterations < 64);
    for k in 0..100 {
        let t = hit.time * k as f64 / 100.0;
        assert!(distance(&sa.pose_at(t), &stick, &ball_pose, &ball) > 0.0);
    }
}

// The same rotating configuration at scales 1e-3 and 1e4 gives the same time.
fn scaled_toi(scale: f64) -> f64 {
    type P = Pose3<f64>;
    let s = scale;
    let stick = Capsule::new(
        glam::DVec3::ZERO,
        glam::DVec3::new(2.0 * s, 0.0, 0.0),
        0.05 * s,
    )
    .unwrap();
    let ball = Ball::new(glam::DVec3::ZERO, 0.2 * s).unwrap();
    let end = P::new(
        glam::DVec3::new(0.1 * s, 0.0, 0.0),
        glam::DQuat::from_rotation_z(2.0),
    );
    let ball_pose = P::from_translation(glam::DVec3::new(0.0, 1.5 * s, 0.0));
    let hit = time_of_impact(
        &Sweep {
            start: P::IDENTITY,
            end,
        },
        &stick,
        &Sweep {
            start: ball_pose,
            end: ball_pose,
        },
        &ball,
    )
    .expect("hit");
    hit.time
}

#[test]
fn toi_is_scale_invariant() {
    let unit = scaled_toi(1.0);
    for scale in [1e-3, 1e-1, 1e2, 1e4] {
        assert!((scaled_toi(scale) - unit).abs() < 1e-6, "scale {scale}");
    }
}

// Shapes overlapping at time 0 hit at once with their (positive) depth; moving apart
// from a touch also reports time 0.
#[test]
fn overlap_at_start_is_signed() {
    let a = Ball::new(glam::Vec3::ZERO, 1.0).unwrap();
    let b = Ball::new(glam::Vec3::ZERO, 1.0).unwrap();
    let pa = Pose3::<f32>::IDENTITY;
    let pb = Pose3::<f32>::from_translation(glam::Vec3::new(1.5, 0.0, 0.0));
    let hit = cast_shapes(&pa, glam::Vec3::ZERO, &a, &pb, glam::Vec3::X, &b, 1.0).unwrap();
    assert_eq!(hit.time, 0.0);
    assert!((hit.depth - 0.5).abs() < 1e-5);
    assert!((hit.normal - glam::Vec3::X).length() < 1e-5);
    // NaN velocity or max_t: no hit.
    assert!(cast_shapes(&pa, glam::Vec3::NAN, &a, &pb, glam::Vec3::X, &b, 1.0).is_none());
    assert!(cast_shapes(&pa, glam::Vec3::ZERO, &a, &pb, glam::Vec3::X, &b, f32::NAN).is_none());
}

// 2D: a stick of length 2 turning half a turn about its end meets a disc centred
// 1.5 away on its path; same analytic angle as in 3D.
#[test]
fn rotating_stick_2d() {
    use isect::math::Pose2;
    let stick = Capsule::new(glam::Vec2::ZERO, glam::Vec2::new(2.0, 0.0), 0.05).unwrap();
    let disc = Ball::new(glam::Vec2::ZERO, 0.2).unwrap();
    let sa = Sweep {
        start: Pose2::<f32>::IDENTITY,
        end: Pose2::new(glam::Vec2::ZERO, 3.0),
    };
    let at = Pose2::from_translation(glam::Vec2::new(0.0, 1.5));
    let hit = time_of_impact(&sa, &stick, &Sweep { start: at, end: at }, &disc).expect("hit");
    let theta = std::f32::consts::FRAC_PI_2 - (0.25f32 / 1.5).asin();
    assert!((hit.time - theta / 3.0).abs() < 1e-3, "t = {}", hit.time);
    assert!((hit.normal.length() - 1.0).abs() < 1e-5);
}

// Curved cores (cylinder, cone) cast against boxes in f64: the cast terminates,
// nearly always converged, and at the reported time the shapes touch (within
// GJK's floor on curved shapes).
#[test]
fn curved_casts_converge() {
    use glam::{DQuat, DVec3};
    use isect::shape::{Cone, Cylinder};
    let mut rng = gjk_common::Rng(31);
    let (mut hits, mut converged) = (0, 0);
    for k in 0..400 {
        let cyl = Cylinder::<f64>::new(rng.range(0.1, 1.0), rng.range(0.1, 1.0)).unwrap();
        let cone = Cone::<f64>::new(rng.range(0.1, 1.0), rng.range(0.1, 1.0)).unwrap();
        let bx = Aabb::from_center(
            DVec3::ZERO,
            DVec3::new(
                rng.range(0.1, 1.0),
                rng.range(0.1, 1.0),
                rng.range(0.1, 1.0),
            ),
        )
        .unwrap();
        let axis = DVec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 0.5).normalize();
        let pa = Pose3::new(
            DVec3::ZERO,
            DQuat::from_axis_angle(axis, rng.range(-3.0, 3.0)),
        );
        let start = DVec3::new(
            rng.range(-4.0, 4.0),
            rng.range(-4.0, 4.0),
            rng.range(-4.0, 4.0),
        );
        let pb = Pose3::new(
            start,
            DQuat::from_axis_angle(
                DVec3::new(axis.z, axis.y, axis.x).normalize(),
                rng.range(-3.0, 3.0),
            ),
        );
        let vel = -start * rng.range(0.5, 1.5)
            + DVec3::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5), 0.0);
        let hit = if k % 2 == 0 {
            cast_shapes(&pa, DVec3::ZERO, &cyl, &pb, vel, &bx, 1.0)
        } else {
            cast_shapes(&pa, DVec3::ZERO, &cone, &pb, vel, &bx, 1.0)
        };
        let Some(h) = hit else { continue };
        hits += 1;
        converged += usize::from(h.status == Status::Converged);
        let moved = Pose3::new(start + vel * h.time, pb.rotation);
        let d = if k % 2 == 0 {
            distance(&pa, &cyl, &moved, &bx)
        } else {
            distance(&pa, &cone, &moved, &bx)
        };
        // GJK's floor on curved shapes (about sqrt(ε) of the size, see
        // GJK_REL_ULPS) bounds how close to touching the cast can tell; its
        // advances are conservative, so the error is on the early side.
        assert!(
            d <= 1e-5,
            "distance {d} at the reported impact ({:?})",
            h.status
        );
    }
    assert!(hits > 100, "only {hits} hits");
    assert!(
        converged * 100 >= hits * 95,
        "{converged} of {hits} converged"
    );
}
