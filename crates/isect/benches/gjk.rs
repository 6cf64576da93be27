//! GJK / EPA / contact / shape-cast benchmarks, each of our kernels beside parry's
//! public query in the same criterion group. Inputs are seeded; 8,192 cases are
//! cycled per benchmark. Run with
//! `cargo bench --bench gjk -- --warm-up-time 1 --measurement-time 2`.

use criterion::{criterion_group, criterion_main, Criterion};
use glam::Vec3;
use isect::algo::support::ConvexPoints;
use isect::math::Pose3;
use isect::query::cast_shapes::cast_shapes;
use isect::query::contact::{contact, contact_capsule_capsule};
use isect::query::distance::distance;
use isect::shape::{Aabb, Capsule};
use parry3d::math::Pose as PPose;
use parry3d::query as pq;
use parry3d::shape as ps;

const SHAPES: usize = 64;

mod support;
use support::{cycle_named, Rng, CASES};

/// A pose pair for both libraries: A near the origin, B at `offset` distance.
struct Case {
    ours: (Pose3<f32>, Pose3<f32>),
    parry: (PPose, PPose),
    shape_a: usize,
    shape_b: usize,
}

fn cases(rng: &mut Rng, offset: f32) -> Vec<Case> {
    (0..CASES)
        .map(|_| {
            let (ours, parry) = rng.pose_pair(offset);
            Case {
                ours,
                parry,
                shape_a: (rng.uniform(0.0, 1.0) * SHAPES as f32) as usize % SHAPES,
                shape_b: (rng.uniform(0.0, 1.0) * SHAPES as f32) as usize % SHAPES,
            }
        })
        .collect()
}

/// `SHAPES` hulls of `n` points on the unit sphere (all of them hull vertices),
/// for both libraries.
fn hulls(rng: &mut Rng, n: usize) -> (Vec<ConvexPoints<Vec3>>, Vec<ps::ConvexPolyhedron>) {
    (0..SHAPES)
        .map(|_| {
            let scale = rng.vec3(0.6, 1.0);
            let pts: Vec<Vec3> = (0..n).map(|_| rng.unit_vec3() * scale).collect();
            let parry = ps::ConvexPolyhedron::from_convex_hull(&pts).expect("hull");
            let ours = ConvexPoints::new(parry.points().to_vec()).expect("points");
            (ours, parry)
        })
        .unzip()
}

fn gjk_distance(c: &mut Criterion) {
    for n in [8, 32, 256] {
        let mut rng = Rng(n as u64);
        let (ours, parry) = hulls(&mut rng, n);
        let cases = cases(&mut rng, 3.0);
        let mut group = c.benchmark_group(format!("gjk_distance_hull_{n}"));
        cycle_named(&mut group, "isect", &cases, |k| {
            let (a, b) = (&ours[k.shape_a], &ours[k.shape_b]);
            distance(&k.ours.0, a, &k.ours.1, b)
        });
        cycle_named(&mut group, "parry", &cases, |k| {
            let (a, b) = (&parry[k.shape_a], &parry[k.shape_b]);
            pq::distance(&k.parry.0, a, &k.parry.1, b).ok()
        });
        group.finish();
    }
}

fn epa_contact(c: &mut Criterion) {
    let mut rng = Rng(99);
    let (ours, parry) = hulls(&mut rng, 32);
    let cases = cases(&mut rng, 0.8);
    let mut group = c.benchmark_group("epa_contact_hull_32");
    cycle_named(&mut group, "isect", &cases, |k| {
        let (a, b) = (&ours[k.shape_a], &ours[k.shape_b]);
        contact(&k.ours.0, a, &k.ours.1, b, 0.0)
    });
    cycle_named(&mut group, "parry", &cases, |k| {
        let (a, b) = (&parry[k.shape_a], &parry[k.shape_b]);
        pq::contact(&k.parry.0, a, &k.parry.1, b, 0.0).ok()
    });
    group.finish();
}

fn capsules(rng: &mut Rng) -> (Vec<Capsule<Vec3>>, Vec<ps::Capsule>) {
    (0..SHAPES)
        .map(|_| {
            let (a, b) = (rng.unit_vec3() * 0.5, rng.unit_vec3() * 0.5);
            let r = rng.uniform(0.1, 0.4);
            (
                Capsule::new(a, b, r).expect("capsule"),
                ps::Capsule::new(a, b, r),
            )
        })
        .unzip()
}

fn capsule_contact(c: &mut Criterion) {
    let mut rng = Rng(7);
    let (ours, parry) = capsules(&mut rng);
    let cases = cases(&mut rng, 1.2);
    let mut group = c.benchmark_group("contact_capsule_capsule");
    cycle_named(&mut group, "isect_kernel", &cases, |k| {
        let (a, b) = (&ours[k.shape_a], &ours[k.shape_b]);
        contact_capsule_capsule(&k.ours.0, a, &k.ours.1, b, 0.1)
    });
    cycle_named(&mut group, "isect_gjk", &cases, |k| {
        let (a, b) = (&ours[k.shape_a], &ours[k.shape_b]);
        contact(&k.ours.0, a, &k.ours.1, b, 0.1)
    });
    cycle_named(&mut group, "parry", &cases, |k| {
        let (a, b) = (&parry[k.shape_a], &parry[k.shape_b]);
        pq::contact(&k.parry.0, a, &k.parry.1, b, 0.1).ok()
    });
    group.finish();
}

fn linear_cast(c: &mut Criterion) {
    let mut rng = Rng(8);
    let boxes: Vec<(Aabb<Vec3>, ps::Cuboid)> = (0..SHAPES)
        .map(|_| {
            let h = rng.vec3(0.2, 0.8);
            (
                Aabb::from_center(Vec3::ZERO, h).expect("box"),
                ps::Cuboid::new(h),
            )
        })
        .collect();
    let (caps, pcaps) = capsules(&mut rng);
    // Each case with the velocity of B relative to A.
    let cases: Vec<(Case, Vec3)> = cases(&mut rng, 3.0)
        .into_iter()
        .map(|k| {
            let vel = (k.ours.0.translation - k.ours.1.translation) * rng.uniform(0.5, 1.5)
                + rng.unit_vec3() * 0.5;
            (k, vel)
        })
        .collect();
    let mut group = c.benchmark_group("cast_shapes_box_capsule");
    cycle_named(&mut group, "isect", &cases, |(k, vel)| {
        let (a, b) = (&boxes[k.shape_a].0, &caps[k.shape_b]);
        cast_shapes(&k.ours.0, Vec3::ZERO, a, &k.ours.1, *vel, b, 1.0)
    });
    cycle_named(&mut group, "parry", &cases, |(k, vel)| {
        let (a, b) = (&boxes[k.shape_a].1, &pcaps[k.shape_b]);
        let options = pq::ShapeCastOptions::with_max_time_of_impact(1.0);
        pq::cast_shapes(&k.parry.0, Vec3::ZERO, a, &k.parry.1, *vel, b, options).ok()
    });
    group.finish();
}

criterion_group!(
    benches,
    gjk_distance,
    epa_contact,
    capsule_contact,
    linear_cast
);
criterion_main!(benches);
