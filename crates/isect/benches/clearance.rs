//! Robot clearance, the scene of issue 14: 2,000 configurations of a two-link arm
//! (capsules 1.0 and 0.8 long, radius 0.08) against 1,004 obstacles (a floor, three
//! walls and 1,000 seeded boxes, balls and capsules in a 20 × 20 × 3 room). "isect":
//! `World::check_configurations` with exact signed clearances (`max_distance = ∞`;
//! with `--features parallel` on rayon's pool); "isect flags": the same batch with
//! `max_distance = 0` (collision flags only); "brute": the least
//! `dispatch::distance` of each link over every obstacle, as a user without the
//! world's distance queries writes it. Wall time per batch of 2,000.
//!
//! `cargo bench -p isect --bench clearance [--features parallel]`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use glam::{Quat, Vec3};
use isect::math::{Isometry, Pose3};
use isect::query::dispatch;
use isect::shape::shape_3d::{AnyShape, Shape};
use isect::shape::{Aabb, Ball, Capsule};
use isect::world::{Filter, World};

mod support;
use support::Rng;

const CONFIGURATIONS: usize = 2000;
const OBSTACLES: usize = 1000;
const LINKS: [f32; 2] = [1.0, 0.8];
const RADIUS: f32 = 0.08;

/// The room: floor, three walls, and seeded obstacles above the floor.
fn room(rng: &mut Rng) -> World<Vec3, AnyShape<f32>> {
    let mut world = World::new();
    let slab = |c: Vec3, h: Vec3| Shape::Cuboid(Aabb::from_center(c, h).unwrap());
    for (c, h) in [
        (Vec3::new(0.0, -0.1, 0.0), Vec3::new(10.0, 0.1, 10.0)),
        (Vec3::new(-10.1, 1.5, 0.0), Vec3::new(0.1, 1.5, 10.0)),
        (Vec3::new(10.1, 1.5, 0.0), Vec3::new(0.1, 1.5, 10.0)),
        (Vec3::new(0.0, 1.5, -10.1), Vec3::new(10.0, 1.5, 0.1)),
    ] {
        world
            .insert_static(slab(c, h), Pose3::IDENTITY, Filter::ALL)
            .unwrap();
    }
    for i in 0..OBSTACLES {
        let at = Vec3::new(
            rng.uniform(-9.5, 9.5),
            rng.uniform(0.2, 2.8),
            rng.uniform(-9.5, 9.5),
        );
        let size = rng.uniform(0.05, 0.25);
        let shape = match i % 3 {
            0 => slab(Vec3::ZERO, Vec3::splat(size)),
            1 => Shape::Ball(Ball::new(Vec3::ZERO, size).unwrap()),
            _ => Shape::Capsule(Capsule::new(-Vec3::X * size, Vec3::X * size, 0.5 * size).unwrap()),
        };
        let pose = Pose3::new(at, rng.rotation());
        world.insert_static(shape, pose, Filter::ALL).unwrap();
    }
    // Rebuilds the trees top down after the bulk insertion.
    world.update();
    world
}

/// The arm's links, each a capsule along its local +x from the origin.
fn links() -> Vec<AnyShape<f32>> {
    LINKS
        .iter()
        .map(|&l| Shape::Capsule(Capsule::new(Vec3::ZERO, Vec3::X * l, RADIUS).unwrap()).into())
        .collect()
}

/// The link poses of seeded configurations: a base on the floor, a yaw, a shoulder
/// pitch and an elbow bend; link 2 starts where link 1 ends.
fn configurations(rng: &mut Rng) -> Vec<Pose3<f32>> {
    let mut poses = Vec::with_capacity(CONFIGURATIONS * LINKS.len());
    for _ in 0..CONFIGURATIONS {
        let base = Vec3::new(rng.uniform(-8.0, 8.0), 0.3, rng.uniform(-8.0, 8.0));
        let yaw = Quat::from_rotation_y(rng.uniform(-std::f32::consts::PI, std::f32::consts::PI));
        let shoulder = yaw * Quat::from_rotation_z(rng.uniform(0.2, 1.4));
        let elbow = shoulder * Quat::from_rotation_z(rng.uniform(-2.0, 0.5));
        poses.push(Pose3::new(base, shoulder));
        poses.push(Pose3::new(base + shoulder * Vec3::X * LINKS[0], elbow));
    }
    poses
}

/// The least distance of each configuration's links over every obstacle.
fn brute(
    world: &World<Vec3, AnyShape<f32>>,
    links: &[AnyShape<f32>],
    poses: &[Pose3<f32>],
) -> Vec<f32> {
    let obstacles: Vec<_> = world
        .handles()
        .map(|h| (world.shape(h).unwrap(), *world.pose(h).unwrap()))
        .collect();
    poses
        .chunks(links.len())
        .map(|config| {
            let mut clearance = f32::INFINITY;
            for (link, pose) in links.iter().zip(config) {
                for (shape, at) in &obstacles {
                    clearance = clearance.min(dispatch::distance(at, *shape, pose, link));
                }
            }
            clearance
        })
        .collect()
}

fn clearance(c: &mut Criterion) {
    let mut rng = Rng(0x0c1e_a4a9_ce00_0014);
    let world = room(&mut rng);
    let links = links();
    let poses = configurations(&mut rng);
    let checks = world
        .check_configurations(&links, &poses, f32::INFINITY, Filter::ALL)
        .unwrap();
    for (check, want) in checks.iter().zip(brute(&world, &links, &poses)) {
        let got = check.clearance.max(0.0);
        assert!(
            (got - want).abs() <= 1e-4 * (1.0 + want),
            "clearance {got} vs brute force {want}"
        );
    }
    let collisions = checks.iter().filter(|c| c.collides).count();
    eprintln!("clearance: {collisions} of {CONFIGURATIONS} configurations collide");
    let mut group = c.benchmark_group("clearance");
    group.sample_size(10);
    group.bench_function("isect", |b| {
        b.iter(|| world.check_configurations(&links, black_box(&poses), f32::INFINITY, Filter::ALL))
    });
    group.bench_function("isect flags", |b| {
        b.iter(|| world.check_configurations(&links, black_box(&poses), 0.0, Filter::ALL))
    });
    group.bench_function("brute", |b| {
        b.iter(|| brute(&world, &links, black_box(&poses)))
    });
    group.finish();
}

criterion_group!(benches, clearance);
criterion_main!(benches);
