//! Compounds beside parry3d's `Compound`: compound–ball contact and distance, and
//! compound–compound distance in 3D (`f32`), through each library's public pair query
//! (`dispatch::contact` / `dispatch::distance` on `AnyShape`, parry's
//! `query::contact` / `query::distance` on `SharedShape`), on 8,192 seeded
//! placements cycled. The compounds hold 8 balls and boxes with random poses.
//!
//! Run: `cargo bench -p isect --bench composite -- --warm-up-time 1 --measurement-time 2`

use criterion::{criterion_group, criterion_main, Criterion};
use glam::Vec3;
use isect::math::Pose3;
use isect::query::dispatch;
use isect::shape::shape_3d::{AnyShape, Shape};
use isect::shape::{Aabb, Ball, Compound};
use parry3d::shape::SharedShape;

/// Distinct compounds the cases draw from.
const COMPOUNDS: usize = 64;
/// Parts per compound.
const PARTS: usize = 8;

mod support;
use support::{cycle_named, Rng, CASES};

impl Rng {
    fn pose(&mut self, half: f32) -> (Pose3<f32>, parry3d::math::Pose) {
        let (t, q) = (self.vec3(-half, half), self.turn());
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
            let h = self.vec3(0.15, 0.45);
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
    cycle_named(&mut g, "isect_dispatch_contact", &balls, |k| {
        let a = &compounds[k.a].0;
        dispatch::contact(&k.pa.0, a, &k.pb.0, &k.b.0, 0.0)
    });
    cycle_named(&mut g, "parry_query_contact", &balls, |k| {
        let a = &*compounds[k.a].1 .0;
        parry3d::query::contact(&k.pa.1, a, &k.pb.1, &*k.b.1 .0, 0.0)
    });
    g.finish();

    let mut g = c.benchmark_group("composite_compound_ball_distance_3d");
    cycle_named(&mut g, "isect_dispatch_distance", &balls, |k| {
        let a = &compounds[k.a].0;
        dispatch::distance(&k.pa.0, a, &k.pb.0, &k.b.0)
    });
    cycle_named(&mut g, "parry_query_distance", &balls, |k| {
        let a = &*compounds[k.a].1 .0;
        parry3d::query::distance(&k.pa.1, a, &k.pb.1, &*k.b.1 .0)
    });
    g.finish();

    let pairs = cases(&mut Rng(78), true, 3.5);
    let mut g = c.benchmark_group("composite_compound_compound_distance_3d");
    cycle_named(&mut g, "isect_dispatch_distance", &pairs, |k| {
        let a = &compounds[k.a].0;
        dispatch::distance(&k.pa.0, a, &k.pb.0, &k.b.0)
    });
    cycle_named(&mut g, "parry_query_distance", &pairs, |k| {
        let a = &*compounds[k.a].1 .0;
        parry3d::query::distance(&k.pa.1, a, &k.pb.1, &*k.b.1 .0)
    });
    g.finish();
}

criterion_group!(benches, bench_composite);
criterion_main!(benches);
