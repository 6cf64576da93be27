//! Primitive tests beside parry3d's: for each pair, 8,192 seeded random cases (about
//! half overlapping) cycled through, our kernel next to parry's public query API and
//! its direct kernel, in one criterion group per pair.
//!
//! Like is paired with like by the id's last part, which `scripts/bench_table.py`
//! matches: `…/bool` answers overlap or not, `…/contact` gives normal, depth and
//! points. Our kernels take the shapes in world space (a ball stores its centre).
//! Parry's public API takes two poses and works out their relative pose; its contact
//! kernels get that relative pose precomputed, and its ball–ball overlap kernel gets
//! the centre offset computed in the loop (the subtraction ours also does).
//!
//! `aabb_aabb` also has `…_batch/bool` entries: all 8,192 pairs counted in one
//! iteration, since a single 1.4 ns test is below the cost of the cycling loop itself.
//!
//! Run: `cargo bench -p isect --bench primitives -- --warm-up-time 1 --measurement-time 2`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use glam::Vec3;
use isect::query::ball_tests::{
    ball_aabb_contact, ball_aabb_intersects, ball_ball_contact, ball_ball_intersects,
};
use isect::shape::{Aabb, Ball};
use parry3d::bounding_volume::{Aabb as PAabb, BoundingVolume};
use parry3d::math::Pose;
use parry3d::query::details::{
    contact_ball_ball, contact_ball_convex_polyhedron, intersection_test_ball_ball,
};
use parry3d::shape::{Ball as PBall, Cuboid};

mod support;
use support::{cycle, parry_aabb, Rng, CASES};

/// A ball pair in both libraries' forms.
struct BallPair {
    a: Ball<Vec3>,
    b: Ball<Vec3>,
    pose_a: Pose,
    pose_b: Pose,
    /// `pose_a⁻¹ · pose_b`, for parry's contact kernel.
    pose_ab: Pose,
    pa: PBall,
    pb: PBall,
}

fn ball_ball(c: &mut Criterion) {
    let mut rng = Rng(11);
    let cases: Vec<BallPair> = (0..CASES)
        .map(|_| {
            let (ca, cb) = (rng.vec3(-1.2, 1.2), rng.vec3(-1.2, 1.2));
            let (ra, rb) = (rng.uniform(0.1, 1.5), rng.uniform(0.1, 1.5));
            BallPair {
                a: Ball::new(ca, ra).unwrap(),
                b: Ball::new(cb, rb).unwrap(),
                pose_a: Pose::from_translation(ca),
                pose_b: Pose::from_translation(cb),
                pose_ab: Pose::from_translation(ca).inv_mul(&Pose::from_translation(cb)),
                pa: PBall::new(ra),
                pb: PBall::new(rb),
            }
        })
        .collect();
    let mut g = c.benchmark_group("ball_ball");
    cycle(&mut g, "isect_intersects", "bool", &cases, |k| {
        ball_ball_intersects(&k.a, &k.b)
    });
    cycle(&mut g, "parry_intersection_test", "bool", &cases, |k| {
        parry3d::query::intersection_test(&k.pose_a, &k.pa, &k.pose_b, &k.pb)
            .map(|r| r.intersecting)
    });
    cycle(
        &mut g,
        "parry_kernel_intersection_test_ball_ball",
        "bool",
        &cases,
        |k| intersection_test_ball_ball(k.pose_b.translation - k.pose_a.translation, &k.pa, &k.pb),
    );
    cycle(&mut g, "isect_contact", "contact", &cases, |k| {
        ball_ball_contact(&k.a, &k.b)
    });
    cycle(&mut g, "parry_contact", "contact", &cases, |k| {
        parry3d::query::contact(&k.pose_a, &k.pa, &k.pose_b, &k.pb, 0.0)
    });
    cycle(
        &mut g,
        "parry_kernel_contact_ball_ball",
        "contact",
        &cases,
        |k| contact_ball_ball(&k.pose_ab, &k.pa, &k.pb, 0.0),
    );
    g.finish();
}

/// A ball and a box in both libraries' forms.
struct BallBox {
    ball: Ball<Vec3>,
    aabb: Aabb<Vec3>,
    pose_ball: Pose,
    pose_box: Pose,
    /// `pose_ball⁻¹ · pose_box`, for parry's contact kernel.
    pose_ab: Pose,
    pball: PBall,
    cuboid: Cuboid,
}

fn ball_aabb(c: &mut Criterion) {
    let mut rng = Rng(12);
    let cases: Vec<BallBox> = (0..CASES)
        .map(|_| {
            let (centre, half) = (rng.vec3(-1.0, 1.0), rng.vec3(0.2, 1.0));
            let (ball_c, r) = (rng.vec3(-1.2, 1.2), rng.uniform(0.05, 1.0));
            BallBox {
                ball: Ball::new(ball_c, r).unwrap(),
                aabb: Aabb::from_center(centre, half).unwrap(),
                pose_ball: Pose::from_translation(ball_c),
                pose_box: Pose::from_translation(centre),
                pose_ab: Pose::from_translation(ball_c).inv_mul(&Pose::from_translation(centre)),
                pball: PBall::new(r),
                cuboid: Cuboid::new(half),
            }
        })
        .collect();
    let mut g = c.benchmark_group("ball_aabb");
    cycle(&mut g, "isect_intersects", "bool", &cases, |k| {
        ball_aabb_intersects(&k.ball, &k.aabb)
    });
    cycle(&mut g, "parry_intersection_test", "bool", &cases, |k| {
        parry3d::query::intersection_test(&k.pose_ball, &k.pball, &k.pose_box, &k.cuboid)
            .map(|r| r.intersecting)
    });
    cycle(&mut g, "isect_contact", "contact", &cases, |k| {
        ball_aabb_contact(&k.ball, &k.aabb)
    });
    cycle(&mut g, "parry_contact", "contact", &cases, |k| {
        parry3d::query::contact(&k.pose_ball, &k.pball, &k.pose_box, &k.cuboid, 0.0)
    });
    cycle(
        &mut g,
        "parry_kernel_contact_ball_convex_polyhedron",
        "contact",
        &cases,
        |k| contact_ball_convex_polyhedron(&k.pose_ab, &k.pball, &k.cuboid, 0.0),
    );
    g.finish();
}

fn aabb_aabb(c: &mut Criterion) {
    let mut rng = Rng(13);
    let cases: Vec<(Aabb<Vec3>, Aabb<Vec3>, PAabb, PAabb)> = (0..CASES)
        .map(|_| {
            let a = Aabb::from_center(rng.vec3(-0.7, 0.7), rng.vec3(0.1, 0.8)).unwrap();
            let b = Aabb::from_center(rng.vec3(-0.7, 0.7), rng.vec3(0.1, 0.8)).unwrap();
            (a, b, parry_aabb(&a), parry_aabb(&b))
        })
        .collect();
    let mut g = c.benchmark_group("aabb_aabb");
    cycle(&mut g, "isect_intersects", "bool", &cases, |k| {
        k.0.intersects(&k.1)
    });
    cycle(&mut g, "parry_aabb_intersects", "bool", &cases, |k| {
        k.2.intersects(&k.3)
    });
    // One test costs about as much as the loop that feeds it one case, so a 2× margin
    // cannot show there: these run all 8,192 pairs in one iteration (each library's
    // pairs in their own array of the same size, the count of overlaps as answer).
    let ours: Vec<_> = cases.iter().map(|k| (k.0, k.1)).collect();
    let theirs: Vec<_> = cases.iter().map(|k| (k.2, k.3)).collect();
    g.bench_function(BenchmarkId::new("isect_intersects_batch", "bool"), |b| {
        b.iter(|| {
            let pairs = black_box(&ours);
            pairs.iter().filter(|(a, b)| a.intersects(b)).count()
        })
    });
    g.bench_function(
        BenchmarkId::new("parry_aabb_intersects_batch", "bool"),
        |b| {
            b.iter(|| {
                let pairs = black_box(&theirs);
                pairs.iter().filter(|(a, b)| a.intersects(b)).count()
            })
        },
    );
    g.finish();
}

criterion_group!(benches, ball_ball, ball_aabb, aabb_aabb);
criterion_main!(benches);
