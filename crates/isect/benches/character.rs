//! One character-controller move beside rapier3d's `KinematicCharacterController::
//! move_shape` on the same level and the same motions: a capsule (radius 0.4, total
//! height 1.8) on a 20,000-triangle bumpy terrain mesh (slopes up to about 20°) with
//! 400 boxes standing on it, one move per iteration from 8,192 seeded start poses
//! (resting a skin above the terrain, half of them against a box), each walking 0.1
//! in a seeded direction with gravity 0.05 down. Both controllers: skin (rapier's
//! offset) 0.02, slopes up to 45° climbable; "plain" without steps or snapping,
//! "full" with steps up to 0.3 onto ledges 0.1 wide and snapping within 0.3. isect
//! casts at most 4 times a move; rapier up to 20 (it stops when the motion is spent).
//! rapier's mesh fixes internal edges (`TriMeshFlags::FIX_INTERNAL_EDGES`), as isect's
//! always does.
//!
//! `cargo bench -p isect --bench character` (CPU time per move).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use glam::{Quat, Vec3};
use isect::character::CharacterController;
use isect::math::{Isometry, Pose3};
use isect::query::ShapeCastOptions;
use isect::shape::shape_3d::{AnyShape, Shape};
use isect::shape::{Aabb, Capsule, TriMesh, TriMeshFlags};
use isect::world::{Filter, World};
use rapier3d::control::{CharacterAutostep, CharacterLength, KinematicCharacterController};
use rapier3d::geometry as r3;
use rapier3d::pipeline::QueryFilter as RapierFilter;

mod support;
use support::{cpu_time_config, cycle_named, CpuTime, Rng, CASES};

const RADIUS: f32 = 0.4;
const HALF_SEGMENT: f32 = 0.5;
const SKIN: f32 = 0.02;
const HALF: f32 = 50.0;
const CELLS: usize = 100;

/// The terrain's height at `(x, z)`.
fn height(x: f32, z: f32) -> f32 {
    0.6 * (x / 2.3).sin() * (z / 3.1).cos() + 0.3 * (x / 5.0 + z / 7.0).sin()
}

/// The terrain: `CELLS × CELLS` cells over `[−HALF, HALF]²`, two triangles each.
fn terrain() -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let c = |i: usize| -HALF + 2.0 * HALF * i as f32 / CELLS as f32;
    let mut vertices = Vec::new();
    for i in 0..=CELLS {
        for j in 0..=CELLS {
            vertices.push(Vec3::new(c(j), height(c(j), c(i)), c(i)));
        }
    }
    let at = |i: usize, j: usize| (i * (CELLS + 1) + j) as u32;
    let mut indices = Vec::new();
    for i in 0..CELLS {
        for j in 0..CELLS {
            indices.push([at(i, j), at(i + 1, j), at(i, j + 1)]);
            indices.push([at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    (vertices, indices)
}

/// 400 boxes standing on the terrain: (centre, half extents).
fn boxes(rng: &mut Rng) -> Vec<(Vec3, Vec3)> {
    (0..400)
        .map(|_| {
            let h = rng.vec3(0.3, 1.5);
            let (x, z) = (rng.range(-45.0, 45.0) as f32, rng.range(-45.0, 45.0) as f32);
            (Vec3::new(x, height(x, z) + h.y - 0.3, z), h)
        })
        .collect()
}

/// The capsule's centre resting a skin above the level at `(x, z)`: our mover cast
/// straight down from above (the same start for both controllers).
fn rest(world: &World<Vec3, AnyShape<f32>>, body: &AnyShape<f32>, x: f32, z: f32) -> Vec3 {
    let above = Vec3::new(x, 10.0, z);
    let options = ShapeCastOptions::mover(SKIN).expect("options");
    let pose = Pose3::from_translation(above);
    let fall = Vec3::new(0.0, -20.0, 0.0);
    let t = world
        .cast_shape_with(&pose, fall, body, 1.0, &options, Filter::ALL)
        .map_or(0.0, |(_, hit)| hit.time);
    above + fall * t
}

/// The seeded moves: start centre and desired translation.
fn moves(
    rng: &mut Rng,
    world: &World<Vec3, AnyShape<f32>>,
    body: &AnyShape<f32>,
    boxes: &[(Vec3, Vec3)],
) -> Vec<(Vec3, Vec3)> {
    (0..CASES)
        .map(|k| {
            let a = rng.range(0.0, std::f64::consts::TAU) as f32;
            let dir = Vec3::new(a.cos(), 0.0, a.sin());
            let (x, z) = if k % 2 == 0 {
                // Beside a box, walking at it.
                let (c, h) = boxes[rng.below(boxes.len())];
                let back = h.x.max(h.z) + RADIUS + 0.05;
                (c.x - dir.x * back, c.z - dir.z * back)
            } else {
                (rng.range(-45.0, 45.0) as f32, rng.range(-45.0, 45.0) as f32)
            };
            let start = rest(world, body, x, z);
            (start, dir * 0.1 - Vec3::Y * 0.05)
        })
        .collect()
}

fn ours(boxes: &[(Vec3, Vec3)]) -> World<Vec3, AnyShape<f32>> {
    let mut world = World::new();
    let (v, i) = terrain();
    let mesh = TriMesh::new(v, i, TriMeshFlags::OPEN).expect("mesh");
    world
        .insert_static(mesh, Pose3::default(), Filter::ALL)
        .expect("terrain");
    for &(c, h) in boxes {
        let b = Aabb::from_center(c, h).expect("box");
        world
            .insert_static(Shape::Cuboid(b), Pose3::default(), Filter::ALL)
            .expect("box");
    }
    world
}

struct Rapier {
    broad: r3::BroadPhaseBvh,
    narrow: r3::NarrowPhase,
    bodies: rapier3d::dynamics::RigidBodySet,
    colliders: r3::ColliderSet,
}

fn rapier(boxes: &[(Vec3, Vec3)]) -> Rapier {
    let mut colliders = r3::ColliderSet::new();
    let (v, i) = terrain();
    let flags = r3::TriMeshFlags::FIX_INTERNAL_EDGES;
    colliders.insert(r3::ColliderBuilder::trimesh_with_flags(v, i, flags).expect("mesh"));
    for &(c, h) in boxes {
        let pose = rapier3d::math::Pose::from_parts(c, Quat::IDENTITY);
        colliders.insert(r3::ColliderBuilder::cuboid(h.x, h.y, h.z).position(pose));
    }
    let mut me = Rapier {
        broad: r3::BroadPhaseBvh::new(),
        narrow: r3::NarrowPhase::new(),
        bodies: rapier3d::dynamics::RigidBodySet::new(),
        colliders,
    };
    let mut pipeline = rapier3d::pipeline::CollisionPipeline::new();
    let mut islands = rapier3d::dynamics::IslandManager::new();
    pipeline.step(
        0.0,
        &mut islands,
        &mut me.broad,
        &mut me.narrow,
        &mut me.bodies,
        &mut me.colliders,
        &(),
        &(),
    );
    me
}

fn controllers(full: bool) -> (CharacterController<Vec3>, KinematicCharacterController) {
    let mut ours = CharacterController::new(Vec3::Y, SKIN).expect("controller");
    let mut theirs = KinematicCharacterController {
        offset: CharacterLength::Absolute(SKIN),
        max_slope_climb_angle: std::f32::consts::FRAC_PI_4,
        min_slope_slide_angle: std::f32::consts::FRAC_PI_4,
        snap_to_ground: None,
        autostep: None,
        ..Default::default()
    };
    if full {
        ours = ours
            .with_step(0.3, 0.1)
            .and_then(|c| c.with_snap_to_ground(0.3))
            .expect("controller");
        theirs.snap_to_ground = Some(CharacterLength::Absolute(0.3));
        theirs.autostep = Some(CharacterAutostep {
            max_height: CharacterLength::Absolute(0.3),
            min_width: CharacterLength::Absolute(0.1),
            include_dynamic_bodies: false,
        });
    }
    (ours, theirs)
}

fn character(c: &mut Criterion<CpuTime>) {
    let mut rng = Rng(0xC0FFEE);
    let placed = boxes(&mut rng);
    let world = ours(&placed);
    let other = rapier(&placed);
    let capsule = Capsule::new(
        Vec3::new(0.0, -HALF_SEGMENT, 0.0),
        Vec3::new(0.0, HALF_SEGMENT, 0.0),
        RADIUS,
    )
    .expect("capsule");
    let body: AnyShape<f32> = Shape::Capsule(capsule).into();
    let cases = moves(&mut rng, &world, &body, &placed);
    let their_body = rapier3d::geometry::SharedShape::capsule_y(HALF_SEGMENT, RADIUS);
    let queries = other.broad.as_query_pipeline(
        other.narrow.query_dispatcher(),
        &other.bodies,
        &other.colliders,
        RapierFilter::default(),
    );
    for (name, full) in [("character_plain", false), ("character_full", true)] {
        let (mine, theirs) = controllers(full);
        let mut group = c.benchmark_group(name);
        group.sample_size(20);
        cycle_named(&mut group, "isect", &cases, |&(start, motion)| {
            let pose = Pose3::from_translation(start);
            let m = mine.move_shape(&world, &body, &pose, motion, Filter::ALL);
            black_box(m.map(|m| m.translation))
        });
        cycle_named(&mut group, "rapier", &cases, |&(start, motion)| {
            let pose = rapier3d::math::Pose::from_parts(start, Quat::IDENTITY);
            let m = theirs.move_shape(1.0 / 60.0, &queries, &*their_body.0, &pose, motion, |_| {});
            black_box(m.translation)
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = cpu_time_config();
    targets = character
}
criterion_main!(benches);
