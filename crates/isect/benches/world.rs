//! Dispatch and world benchmarks: the shape-enum dispatch beside parry's
//! `query::contact` on `dyn Shape` (its own run-time dispatch) for mixed 3D kinds and
//! for box–box; the world's update and batch ray casts (no parry equivalent: parry has
//! no collision world). Seeded inputs, 8,192 cases cycled.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use glam::Vec3;
use isect::math::Pose3;
use isect::query::dispatch;
use isect::shape::shape_3d::Shape;
use isect::shape::{Aabb, Ball, Capsule, ConvexPolyhedron, Cylinder, Ray};
use isect::world::{Filter, World};
use parry3d::math::Pose as PPose;
use parry3d::query as pq;
use parry3d::shape as ps;

const SHAPES: usize = 64;

mod support;
use support::{cycle_named, Rng, CASES};

/// The same shape for both libraries; `kinds` limits the kinds drawn.
fn shape_pair(rng: &mut Rng, kinds: usize) -> (Shape<f32>, ps::SharedShape) {
    let (r, hh) = (rng.uniform(0.3, 0.6), rng.uniform(0.3, 0.6));
    match rng.below(kinds) {
        0 => {
            let h = rng.vec3(0.3, 0.6);
            let ours = Aabb::from_center(Vec3::ZERO, h).expect("box");
            (ours.into(), ps::SharedShape::cuboid(h.x, h.y, h.z))
        }
        1 => (
            Ball::new(Vec3::ZERO, r).expect("ball").into(),
            ps::SharedShape::ball(r),
        ),
        2 => {
            let (a, b) = (rng.unit_vec3() * hh, rng.unit_vec3() * hh);
            let ours = Capsule::new(a, b, 0.5 * r).expect("capsule");
            (ours.into(), ps::SharedShape::capsule(a, b, 0.5 * r))
        }
        3 => (
            Cylinder::new(hh, r).expect("cylinder").into(),
            ps::SharedShape::cylinder(hh, r),
        ),
        _ => {
            let pts: Vec<Vec3> = (0..16).map(|_| rng.unit_vec3() * r).collect();
            let parry = ps::ConvexPolyhedron::from_convex_hull(&pts).expect("hull");
            let ours = ConvexPolyhedron::from_points(parry.points()).expect("hull");
            (ours.into(), ps::SharedShape::new(parry))
        }
    }
}

struct Case {
    ours: (Pose3<f32>, Pose3<f32>),
    parry: (PPose, PPose),
    a: usize,
    b: usize,
}

fn cases(rng: &mut Rng) -> Vec<Case> {
    (0..CASES)
        .map(|_| {
            let (ours, parry) = rng.pose_pair(1.0);
            Case {
                ours,
                parry,
                a: rng.below(SHAPES),
                b: rng.below(SHAPES),
            }
        })
        .collect()
}

fn contact_group(c: &mut Criterion, name: &str, kinds: usize) {
    let mut rng = Rng(kinds as u64);
    let (ours, parry): (Vec<_>, Vec<_>) = (0..SHAPES).map(|_| shape_pair(&mut rng, kinds)).unzip();
    let cases = cases(&mut rng);
    let mut group = c.benchmark_group(name);
    cycle_named(&mut group, "isect", &cases, |k| {
        dispatch::contact(&k.ours.0, &ours[k.a], &k.ours.1, &ours[k.b], 0.0)
    });
    cycle_named(&mut group, "parry", &cases, |k| {
        let (sa, sb) = (&*parry[k.a].0, &*parry[k.b].0);
        pq::contact(&k.parry.0, sa, &k.parry.1, sb, 0.0).ok()
    });
    group.finish();
}

fn dispatch_contact(c: &mut Criterion) {
    contact_group(c, "dispatch_contact_box_box", 1);
    contact_group(c, "dispatch_contact_mixed", 5);
}

/// `n` shapes in a cube sized for about one neighbour each.
fn world(n: usize, rng: &mut Rng) -> World<Vec3, Shape<f32>> {
    let half = 0.9 * (n as f32).cbrt();
    let mut w = World::new();
    for _ in 0..n {
        let (shape, _) = shape_pair(rng, 2);
        let t = rng.vec3(-half, half);
        w.insert(shape, Pose3::new(t, rng.rotation()), Filter::ALL)
            .expect("insert");
    }
    w.update();
    w
}

/// Moves every shape of `w` by ±0.02 per axis (alternating frames) and updates.
fn step(w: &mut World<Vec3, Shape<f32>>, handles: &[isect::world::Handle], sign: &mut f32) {
    *sign = -*sign;
    for &h in handles {
        if let Some(&p) = w.pose(h) {
            let moved = Pose3::new(p.translation + Vec3::splat(0.02 * *sign), p.rotation);
            w.set_pose(h, moved).expect("finite pose");
        }
    }
    black_box(w.update());
}

fn world_update(c: &mut Criterion) {
    let mut rng = Rng(7);
    let mut w = world(1000, &mut rng);
    let handles: Vec<_> = w.handles().collect();
    let mut group = c.benchmark_group("world_update_1000_moving");
    let mut sign = 1.0;
    group.bench_function("isect", |b| b.iter(|| step(&mut w, &handles, &mut sign)));
    eprintln!("margin 0: {:?}", w.update_stats());
    // With a broad-phase margin of 0.1 the small moves stay inside the fat boxes.
    let mut fat = w.clone();
    fat.set_broad_margin(0.1).expect("margin");
    group.bench_function("isect_margin_0.1", |b| {
        b.iter(|| step(&mut fat, &handles, &mut sign))
    });
    eprintln!("margin 0.1: {:?}", fat.update_stats());
    group.finish();
    let rays: Vec<Ray<Vec3>> = (0..1000)
        .map(|_| {
            let (origin, target) = (rng.unit_vec3() * 12.0, rng.unit_vec3() * 3.0);
            Ray {
                origin,
                dir: target - origin,
            }
        })
        .collect();
    let mut group = c.benchmark_group("world_cast_rays_1000");
    group.bench_function("isect", |b| {
        b.iter(|| black_box(w.cast_rays(&rays, 1.0, Filter::ALL)))
    });
    group.finish();
}

criterion_group!(benches, dispatch_contact, world_update);
criterion_main!(benches);
