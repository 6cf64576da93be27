//! Issue 18, item 7: hull–hull `contact` with a prediction distance was slower than
//! parry's, because GJK ran to full convergence on pairs separated beyond the
//! prediction and the polyhedron's support map was a scalar loop. GJK now stops at
//! the first supporting plane that proves the cores farther apart than the prediction
//! plus both margins (`algo::gjk::closest_points_within`), and the polyhedron's
//! support map scans its vertices in blocks of four (`algo::support::PointBlocks`).
//!
//! The classes guarded here:
//! - the early exit never drops a contact within the prediction: seeded pairs of
//!   convex polyhedra (sharp, rounded, and against a ball), in `f32` and `f64`, at
//!   scales 1e-3 to 1e5, with the prediction set exactly to the pair's distance (the
//!   full GJK of `query::distance`) give a contact whose separation is that
//!   distance; with the prediction 1e-3 of the distance short of it they give none;
//!   overlapping pairs give a contact at any prediction;
//! - the blocked support map answers a vertex as far along the direction as the
//!   brute-force argmax over the vertices (ties allowed: the support values are
//!   compared), for 4 to 300 vertices, random and axis directions, every scale.

use glam::DVec3;
use isect::algo::gjk::GjkVector;
use isect::algo::support::SupportMap;
use isect::math::{Pose3, Real, Rotation3, Vector, Vector3};
use isect::query::contact::contact;
use isect::query::distance::distance;
use isect::shape::{Ball, ConvexPolyhedron, Rounded};

use crate::rng::Rng;

const SCALES: [f64; 5] = [1e-3, 1.0, 1e2, 1e4, 1e5];

fn v<R: Real>(p: DVec3) -> R::V3 {
    R::V3::new(R::from_f64(p.x), R::from_f64(p.y), R::from_f64(p.z))
}

fn unit(rng: &mut Rng) -> DVec3 {
    loop {
        let p = DVec3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        );
        if p.length() > 1e-3 {
            return p.normalize();
        }
    }
}

/// A hull of `n` points on an ellipsoid of semi-axes `scale · [0.5, 1)`.
fn hull<R: Real>(rng: &mut Rng, n: usize, scale: f64) -> ConvexPolyhedron<R> {
    let axes = DVec3::new(
        rng.range(0.5, 1.0),
        rng.range(0.5, 1.0),
        rng.range(0.5, 1.0),
    );
    let pts: Vec<R::V3> = (0..n).map(|_| v::<R>(unit(rng) * axes * scale)).collect();
    ConvexPolyhedron::from_points(&pts).expect("hull of points on an ellipsoid")
}

fn pose<R: Real>(rng: &mut Rng, at: DVec3) -> Pose3<R> {
    let rotation = R::Quat::from_axis_angle(v::<R>(unit(rng)), R::from_f64(rng.range(-3.0, 3.0)));
    Pose3::new(v::<R>(at), rotation)
}

/// Checks one pair at poses `pa`, `pb`: with the prediction equal to the distance
/// there is a contact at that separation, 1e-3 short of it none; overlapping pairs
/// always have one. Returns whether the pair was separated.
fn check_pair<R, A, B>(pa: &Pose3<R>, a: &A, pb: &Pose3<R>, b: &B, what: &str) -> bool
where
    R: Real,
    R::V3: GjkVector<Pose = Pose3<R>>,
    A: SupportMap<R::V3>,
    B: SupportMap<R::V3>,
{
    let d = distance(pa, a, pb, b);
    if d > R::ZERO {
        let c = contact(pa, a, pb, b, d);
        let c = c.unwrap_or_else(|| panic!("{what}: no contact at prediction = distance {d:?}"));
        assert!(
            -c.depth <= d,
            "{what}: separation {:?} beyond {d:?}",
            -c.depth
        );
        let short = d * R::from_f64(1.0 - 1e-3);
        assert!(
            contact(pa, a, pb, b, short).is_none(),
            "{what}: contact at prediction {short:?} below the distance {d:?}"
        );
        true
    } else {
        assert!(
            contact(pa, a, pb, b, R::ZERO).is_some(),
            "{what}: overlapping pair without contact"
        );
        false
    }
}

fn sweep<R: Real>(seed: u64)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let mut rng = Rng(seed);
    let (mut separated, mut total) = (0, 0);
    for &scale in &SCALES {
        for _ in 0..60 {
            let n = [4, 8, 32, 100][rng.below(4)];
            let (a, b) = (hull::<R>(&mut rng, n, scale), hull::<R>(&mut rng, n, scale));
            // B's centre 0.5 to 3 sizes away: overlapping to well apart.
            let at = unit(&mut rng) * rng.range(0.5, 3.0) * scale;
            let (pa, pb) = (pose::<R>(&mut rng, DVec3::ZERO), pose::<R>(&mut rng, at));
            let what = format!("scale {scale}, {n} vertices, B at {at}");
            separated += usize::from(check_pair(&pa, &a, &pb, &b, &what));
            let r = R::from_f64(scale * rng.range(0.01, 0.3));
            let rounded = Rounded::new(b.clone(), r).expect("rounded hull");
            check_pair(
                &pa,
                &a,
                &pb,
                &rounded,
                &format!("{what}, B rounded by {r:?}"),
            );
            let ball = Ball::new(R::V3::ZERO, r).expect("ball");
            check_pair(&pa, &ball, &pb, &b, &format!("{what}, A a ball of {r:?}"));
            total += 1;
        }
    }
    // The cases mean something: both separated and overlapping pairs occur.
    assert!(
        separated * 10 > total * 3 && separated * 10 < total * 9,
        "{separated}/{total}"
    );
}

// The early exit never drops a contact within the prediction, f64.
#[test]
fn prediction_bound_is_exact_f64() {
    sweep::<f64>(0x1807_0641);
}

// The same in f32.
#[test]
fn prediction_bound_is_exact_f32() {
    sweep::<f32>(0x1807_0321);
}

fn support_sweep<R: Real>(seed: u64) {
    let mut rng = Rng(seed);
    for &scale in &SCALES {
        for n in [4, 5, 7, 8, 9, 31, 32, 33, 100, 300] {
            let h = hull::<R>(&mut rng, n, scale);
            let mut dirs: Vec<R::V3> = (0..20).map(|_| v::<R>(unit(&mut rng))).collect();
            dirs.extend((0..3).flat_map(|i| [R::V3::unit_axis(i), -R::V3::unit_axis(i)]));
            for dir in dirs {
                let best = h
                    .vertices()
                    .iter()
                    .fold(R::NEG_INFINITY, |m, p| m.max(p.dot(dir)));
                let s = h.local_support(dir);
                assert!(h.vertices().contains(&s), "support {s:?} is no vertex");
                assert_eq!(s.dot(dir), best, "scale {scale}, {n} points, dir {dir:?}");
            }
            // A zero direction still answers a vertex.
            assert!(h.vertices().contains(&h.local_support(R::V3::ZERO)));
        }
    }
}

// The blocked support map agrees with the brute-force argmax, f64 and f32.
#[test]
fn polyhedron_support_is_argmax() {
    support_sweep::<f64>(0x1807_0511);
    support_sweep::<f32>(0x1807_0521);
}
