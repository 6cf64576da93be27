//! Compounds beside parry3d's `Compound`: compound–ball contact and distance, and
//! compound–compound distance in 3D (`f32`), through each library's public pair query
//! (`dispatch::contact` / `dispatch::distance` on `AnyShape`, parry's
//! `query::contact` / `query::distance` on `SharedShape`), on 8,192 seeded
//! placements cycled. The compounds hold 8 balls and boxes with random poses.
//!
//! Run: `cargo bench -p isect --bench composite -- --warm-up-time 1 --measurement-time 2`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use glam::{Quat, Vec3};
use isect::math::Pose3;
use isect::query::dispatch;
use isect::shape::shape_3d::{AnyShape, Shape};
use isect::shape::{Aabb, Ball, Compound};
use parry3d::shape::SharedShape;

const CASES: usize = 8192;
/// Distinct compounds the cases draw from.
const COMPOUNDS: usize = 64;
/// Parts per compound.
const PARTS: usize = 8;

#[path = "../tests/support/rng.rs"]
mod rng;
use rng::Rng;

impl Rng {
    fn v3(&mut self, lo: f32, hi: f32) -> Vec3 {
        Vec3::new(
            self.uniform(lo, hi),
            self.uniform(lo, hi),
            self.uniform(lo, hi),
        )
    }

    fn pose(&mut self, half: f32) -> (Pose3<f32>, parry3d::math::Pose) {
        let t = self.v3(-half, half);
        let axis = self.v3(-1.0, 1.0).try_normalize().unwrap_or(Vec3::Z);
        let q = Quat::from_axis_angle(axis, self.uniform(0.0, 6.3));
        (Pose3::new(t, q), parry3d::math::Pose::from_parts(t, q))
    }

    /// A ball or a box, for both libraries.
    fn part(&mut self) -> (Shape<f32>, SharedShape) {
        if self.below(2) == 0 {
            let r = self.uniform(0.2, 0.5);
            (
                Ball::new(Vec3::ZERO, r).unwrap().into(),
                SharedShape::ball(r),
            )
        } else {
            let h = self.v3(0.15, 0.45);
            let ours = Aabb::from_center(Vec3::ZERO, h).unwrap().into();
            (ours, SharedShape::cuboid(h.x, h.y, h.z))
        }
    }

    fn compound(&mut self) -> (AnyShape<f32>, SharedShape) {
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        for _ in 0..PARTS {
            let ((p, pp), (s, ps)) = (self.pose(1.2), self.part());
            ours.push((p, s));
            theirs.push((pp, ps));
        }
        (
            Compound::new(ours).unwrap().into(),
            SharedShape::compound(theirs),
        )
    }
}

/// Runs `f` on case `i`, then the next, cycling through all of them.
fn cycle<'a, T, R, F: FnMut(&T) -> R + 'a>(cases: &'a [T], mut f: F) -> impl FnMut() -> R + 'a {
    let mut i = 0;
    move || {
        i = (i + 1) % cases.len();
        f(black_box(&cases[i]))
    }
}

/// One placement: compound `a` (index), shape B, and both poses for both libraries.
struct Case {
    a: usize,
    b: (AnyShape<f32>, SharedShape),
    pa: (Pose3<f32>, parry3d::math::Pose),
    pb: (Pose3<f32>, parry3d::math::Pose),
}

fn cases(rng: &mut Rng, compound_b: bool, spread: f32) -> Vec<Case> {
    (0..CASES)
        .map(|_| {
            let a = rng.below(COMPOUNDS);
            let b = if compound_b {
                rng.compound()
            } else {
                let r = rng.uniform(0.3, 0.8);
                (
                    Shape::from(Ball::new(Vec3::ZERO, r).unwrap()).into(),
                    SharedShape::ball(r),
                )
            };
            Case {
                a,
                b,
                pa: rng.pose(0.2),
                pb: rng.pose(spread),
            }
        })
        .collect()
}

fn bench_composite(c: &mut Criterion) {
    let mut rng = Rng(77);
    let compounds: Vec<_> = (0..COMPOUNDS).map(|_| rng.compound()).collect();

    let balls = cases(&mut rng, false, 2.2);
    let mut g = c.benchmark_group("composite_compound_ball_contact_3d");
    g.bench_function("isect_dispatch_contact", |b| {
        b.iter(cycle(&balls, |k| {
            let a = &compounds[k.a].0;
            dispatch::contact(&k.pa.0, a, &k.pb.0, &k.b.0, 0.0)
        }))
    });
    g.bench_function("parry_query_contact", |b| {
        b.iter(cycle(&balls, |k| {
            let a = &*compounds[k.a].1 .0;
            parry3d::query::contact(&k.pa.1, a, &k.pb.1, &*k.b.1 .0, 0.0)
        }))
    });
    g.finish();

    let mut g = c.benchmark_group("composite_compound_ball_distance_3d");
    g.bench_function("isect_dispatch_distance", |b| {
        b.iter(cycle(&balls, |k| {
            let a = &compounds[k.a].0;
            dispatch::distance(&k.pa.0, a, &k.pb.0, &k.b.0)
        }))
    });
    g.bench_function("parry_query_distance", |b| {
        b.iter(cycle(&balls, |k| {
            let a = &*compounds[k.a].1 .0;
            parry3d::query::distance(&k.pa.1, a, &k.pb.1, &*k.b.1 .0)
        }))
    });
    g.finish();

    let pairs = cases(&mut Rng(78), true, 3.5);
    let mut g = c.benchmark_group("composite_compound_compound_distance_3d");
    g.bench_function("isect_dispatch_distance", |b| {
        b.iter(cycle(&pairs, |k| {
            let a = &compounds[k.a].0;
            dispatch::distance(&k.pa.0, a, &k.pb.0, &k.b.0)
        }))
    });
    g.bench_function("parry_query_distance", |b| {
        b.iter(cycle(&pairs, |k| {
            let a = &*compounds[k.a].1 .0;
            parry3d::query::distance(&k.pa.1, a, &k.pb.1, &*k.b.1 .0)
        }))
    });
    g.finish();
}

criterion_group!(benches, bench_composite);
criterion_main!(benches);
