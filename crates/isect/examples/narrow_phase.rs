//! The world's narrow phase on the scenes of `benches/world_rapier.rs` (the same
//! kinds, sizes and speeds, drawn by this file's own seeded generator): 10k (and 100k) moving
//! boxes (3D), 10k balls, capsules and boxes over a ground box (or a floor mesh), 10k 2D boxes, circles
//! and hexagons, and a level (20k static boxes on a floor, 100 moving balls). Each
//! scene runs a first update (every pair new) and a number of frames (every moving
//! shape translates by its velocity), and prints the candidates (narrow-phase
//! queries) and touching pairs summed over all the updates, the first included: the
//! phase's instructions divided by these candidates are its cost per query.
//!
//! It exists to count the narrow phase's instructions under callgrind, the phase
//! alone being selected by its function name:
//!
//! ```text
//! valgrind --tool=callgrind --toggle-collect='*World*narrow_phase*' \
//!     target/release/examples/narrow_phase boxes 10
//! ```
//!
//! Whole frames (the moves and the update) are selected by `--toggle-collect='*frame_3d*'`
//! (or `*frame_2d*`); two runs of N and M frames give a frame's instructions as the
//! difference over N − M.
//!
//! Arguments: the scene (`boxes`, `boxes100k`, `mixed`, `mixed-mesh`, `2d`, `level`), the frame count, and
//! `manifolds` to compute manifolds instead of single points.
//!
//! It also prints two checksums over every update: of the touching pairs and the
//! started / stopped events (`pairs`), and of the contacts' bits, whatever their
//! order in `contacts()` (`bits`), so that two versions of the world can be compared
//! for equal answers outside the selected frames.

use glam::{Quat, Vec2, Vec3};
use isect::math::{Pose2, Pose3};
use isect::query::dispatch::DispatchShape;
use isect::shape::shape_2d::Shape as Shape2;
use isect::shape::shape_3d::{AnyShape as AnyShape3, Shape as Shape3};
use isect::shape::trimesh::{TriMesh, TriMeshFlags};
use isect::shape::{Aabb, Ball, Capsule, ConvexPolygon};
use isect::world::{Filter, Handle, PairContact, UpdateEvents, UpdateStats, World};

#[path = "../tests/support/rng.rs"]
mod rng;
use rng::Rng;

/// The broad-phase margin of the benchmark (rapier's skin).
const MARGIN: f32 = 0.04;

/// A moving or static body of a 3D scene.
struct Body3 {
    shape: Shape3<f32>,
    at: Vec3,
    rotation: Quat,
    vel: Vec3,
}

fn vec3(rng: &mut Rng, lo: f32, hi: f32) -> Vec3 {
    Vec3::new(
        rng.uniform(lo, hi),
        rng.uniform(lo, hi),
        rng.uniform(lo, hi),
    )
}

fn rotation(rng: &mut Rng) -> Quat {
    let axis = vec3(rng, -1.0, 1.0).try_normalize().unwrap_or(Vec3::Z);
    Quat::from_axis_angle(axis, rng.uniform(-3.1, 3.1))
}

fn cuboid(half: Vec3) -> Shape3<f32> {
    Aabb::from_center(Vec3::ZERO, half).expect("box").into()
}

fn mixed_kind(rng: &mut Rng) -> Shape3<f32> {
    match rng.below(3) {
        0 => Ball::new(Vec3::ZERO, rng.uniform(0.3, 0.6))
            .expect("ball")
            .into(),
        1 => {
            let (hh, r) = (rng.uniform(0.2, 0.4), rng.uniform(0.2, 0.3));
            Capsule::new(Vec3::new(0.0, -hh, 0.0), Vec3::new(0.0, hh, 0.0), r)
                .expect("capsule")
                .into()
        }
        _ => cuboid(vec3(rng, 0.3, 0.6)),
    }
}

/// `n` moving bodies in a cube sized for about one neighbour each.
fn moving(rng: &mut Rng, n: usize, speed: f32, mixed: bool) -> (Vec<Body3>, f32) {
    let half = 0.9 * (n as f32).cbrt();
    let bodies = (0..n)
        .map(|_| Body3 {
            shape: if mixed {
                mixed_kind(rng)
            } else {
                cuboid(vec3(rng, 0.3, 0.6))
            },
            at: vec3(rng, -half, half),
            rotation: rotation(rng),
            vel: vec3(rng, -speed, speed),
        })
        .collect();
    (bodies, half)
}

/// The mixed bodies over a static ground box (returned apart).
fn on_ground(rng: &mut Rng, n: usize) -> (Vec<Body3>, Vec<Body3>, f32) {
    let half = (n as f32).sqrt() * 0.8;
    let (mut bodies, _) = moving(rng, n, 0.02, true);
    for b in &mut bodies {
        b.at.y = rng.uniform(0.0, 4.0);
    }
    let ground = Body3 {
        shape: cuboid(Vec3::new(half, 0.5, half)),
        at: Vec3::new(0.0, -0.5, 0.0),
        rotation: Quat::IDENTITY,
        vel: Vec3::ZERO,
    };
    (bodies, vec![ground], 80.0)
}

/// The mixed bodies over a static floor mesh of 200 × 200 quads with gentle bumps,
/// as the benchmark's `world_mixed_10k_on_mesh` (returned apart).
fn on_mesh(rng: &mut Rng, n: usize) -> (Vec<Body3>, TriMesh<f32>, f32) {
    let (bodies, _, half) = on_ground(rng, n);
    let (side, cells) = ((n as f32).sqrt() * 0.8, 200u32);
    let (step, row) = (2.0 * side / cells as f32, cells + 1);
    let vertices = (0..row * row)
        .map(|k| {
            let x = (k % row) as f32 * step - side;
            let z = (k / row) as f32 * step - side;
            Vec3::new(x, 0.15 * (0.7 * x).sin() * (0.9 * z).cos(), z)
        })
        .collect();
    let quads = (0..cells * cells).map(|q| (q / cells) * row + q % cells);
    let indices = quads
        .flat_map(|a| [[a, a + row, a + 1], [a + 1, a + row, a + row + 1]])
        .collect();
    let floor = TriMesh::new(vertices, indices, TriMeshFlags::OPEN).expect("floor");
    (bodies, floor, half)
}

/// 20k static boxes on a static floor, 100 moving balls.
fn level(rng: &mut Rng) -> (Vec<Body3>, Vec<Body3>, f32) {
    let side = 141;
    let still = |shape, at| Body3 {
        shape,
        at,
        rotation: Quat::IDENTITY,
        vel: Vec3::ZERO,
    };
    let mut fixed = vec![still(
        cuboid(Vec3::new(side as f32, 0.5, side as f32)),
        Vec3::new(0.0, -0.5, 0.0),
    )];
    for i in 0..20_000 {
        let (x, z) = ((i % side) as f32, (i / side) as f32);
        let h = vec3(rng, 0.2, 0.45);
        let at = Vec3::new(2.0 * x - side as f32, h.y, 2.0 * z - side as f32);
        fixed.push(still(cuboid(h), at));
    }
    let balls = (0..100)
        .map(|_| {
            let at = vec3(rng, -side as f32, side as f32);
            let v = vec3(rng, -0.1, 0.1);
            Body3 {
                shape: Ball::new(Vec3::ZERO, 0.4).expect("ball").into(),
                at: Vec3::new(at.x, 0.4, at.z),
                rotation: Quat::IDENTITY,
                vel: Vec3::new(v.x, 0.0, v.z),
            }
        })
        .collect();
    (balls, fixed, side as f32)
}

/// Checksums of an update's answers: the touching pairs as a set and the events
/// (`pairs`), and every contact's bits as a set (`bits`).
#[derive(Default)]
struct Sums {
    pairs: u64,
    bits: u64,
}

impl Sums {
    fn mix(h: u64, x: u64) -> u64 {
        (h ^ x).wrapping_mul(0x0100_0000_01b3).rotate_left(17)
    }

    /// Folds in one update: its contacts and events.
    fn add<F: Copy + Into<f64>, V: isect::math::Vector<Scalar = F> + Copy>(
        &mut self,
        contacts: &[PairContact<V>],
        events: &UpdateEvents,
    ) {
        let mut set: Vec<u64> = contacts
            .iter()
            .map(|c| c.a.to_bits() ^ c.b.to_bits().rotate_left(32))
            .collect();
        set.sort_unstable();
        for (a, b) in events.started.iter().chain(&events.stopped) {
            set.push(a.to_bits() ^ b.to_bits().rotate_left(7));
        }
        self.pairs = set.into_iter().fold(Self::mix(self.pairs, 1), Self::mix);
        // Each contact's bits hashed alone, then folded sorted: the order of
        // `contacts()` (which follows the pairs' creation) does not count.
        let mut each: Vec<u64> = contacts
            .iter()
            .map(|c| {
                let mut h = Self::mix(0, c.a.to_bits() ^ c.b.to_bits().rotate_left(32));
                h = Self::mix(h, c.contact.depth.into().to_bits());
                for v in [c.contact.normal, c.contact.point_a, c.contact.point_b] {
                    for k in 0..V::DIM {
                        h = Self::mix(h, v.get(k).into().to_bits());
                    }
                }
                h
            })
            .collect();
        each.sort_unstable();
        self.bits = each.into_iter().fold(Self::mix(self.bits, 1), Self::mix);
    }
}

/// Runs `frames` frames of a 3D scene in a world of shapes `S` (`fixed` static at
/// their poses); returns (candidates, contacts) summed.
fn run_3d<S: DispatchShape<Vec3> + From<Shape3<f32>> + Sync>(
    mut bodies: Vec<Body3>,
    fixed: Vec<(S, Pose3<f32>)>,
    half: f32,
    frames: usize,
    m: bool,
) -> (usize, usize) {
    let mut world = World::<Vec3, S>::new();
    world.set_broad_margin(MARGIN).expect("margin");
    world.set_manifolds(m);
    for (shape, pose) in fixed {
        world
            .insert_static(shape, pose, Filter::ALL)
            .expect("insert");
    }
    let handles: Vec<_> = bodies
        .iter()
        .map(|b| {
            let pose = Pose3::new(b.at, b.rotation);
            world
                .insert(S::from(b.shape.clone()), pose, Filter::ALL)
                .expect("insert")
        })
        .collect();
    let mut check = Sums::default();
    let events = world.update();
    check.add(world.contacts(), &events);
    let first = world.update_stats();
    let mut sums = (first.candidates, first.contacts);
    for _ in 0..frames {
        let (s, events) = frame_3d(&mut world, &mut bodies, &handles, half);
        check.add(world.contacts(), &events);
        sums = (sums.0 + s.candidates, sums.1 + s.contacts);
    }
    println!(
        "checksums: pairs {:016x} bits {:016x}",
        check.pairs, check.bits
    );
    sums
}

/// One frame of a 3D scene: the moves and the update. Never inlined, so that
/// callgrind can select whole frames by its name (`--toggle-collect='*frame_3d*'`).
#[inline(never)]
fn frame_3d<S: DispatchShape<Vec3> + Sync>(
    world: &mut World<Vec3, S>,
    bodies: &mut [Body3],
    handles: &[Handle],
    half: f32,
) -> (UpdateStats, UpdateEvents) {
    for (b, &h) in bodies.iter_mut().zip(handles) {
        b.at += b.vel;
        for k in 0..3 {
            if b.at[k].abs() > half {
                b.vel[k] = -b.vel[k];
            }
        }
        world
            .set_pose(h, Pose3::new(b.at, b.rotation))
            .expect("pose");
    }
    let events = world.update();
    (world.update_stats(), events)
}

/// Static bodies as (shape, pose) for [`run_3d`].
fn placed(fixed: Vec<Body3>) -> Vec<(Shape3<f32>, Pose3<f32>)> {
    fixed
        .into_iter()
        .map(|b| (b.shape, Pose3::new(b.at, b.rotation)))
        .collect()
}

/// A 2D body: shape, position, angle, velocity.
struct Body2 {
    shape: Shape2<f32>,
    at: Vec2,
    angle: f32,
    vel: Vec2,
}

fn shape_2d(rng: &mut Rng) -> Shape2<f32> {
    let (w, h) = (rng.uniform(0.3, 0.6), rng.uniform(0.3, 0.6));
    match rng.below(3) {
        0 => Aabb::from_center(Vec2::ZERO, Vec2::new(w, h))
            .expect("box")
            .into(),
        1 => Ball::new(Vec2::ZERO, w).expect("circle").into(),
        _ => {
            let hexagon: Vec<Vec2> = (0..6)
                .map(|k| Vec2::from_angle(k as f32 * std::f32::consts::TAU / 6.0) * w)
                .collect();
            ConvexPolygon::new(&hexagon).expect("hexagon").into()
        }
    }
}

/// Runs `frames` frames of the 2D scene; returns (candidates, contacts) summed.
fn run_2d(rng: &mut Rng, n: usize, frames: usize, m: bool) -> (usize, usize) {
    let half = 0.9 * (n as f32).sqrt();
    let mut bodies: Vec<Body2> = (0..n)
        .map(|_| Body2 {
            shape: shape_2d(rng),
            at: Vec2::new(rng.uniform(-half, half), rng.uniform(-half, half)),
            angle: rng.uniform(-3.0, 3.0),
            vel: Vec2::new(rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05)),
        })
        .collect();
    let mut world = World::<Vec2, Shape2<f32>>::new();
    world.set_broad_margin(MARGIN).expect("margin");
    world.set_manifolds(m);
    let handles: Vec<_> = bodies
        .iter()
        .map(|b| {
            let pose = Pose2::new(b.at, b.angle);
            world
                .insert(b.shape.clone(), pose, Filter::ALL)
                .expect("insert")
        })
        .collect();
    let mut check = Sums::default();
    let events = world.update();
    check.add(world.contacts(), &events);
    let first = world.update_stats();
    let mut sums = (first.candidates, first.contacts);
    for _ in 0..frames {
        let (s, events) = frame_2d(&mut world, &mut bodies, &handles, half);
        check.add(world.contacts(), &events);
        sums = (sums.0 + s.candidates, sums.1 + s.contacts);
    }
    println!(
        "checksums: pairs {:016x} bits {:016x}",
        check.pairs, check.bits
    );
    sums
}

/// One frame of the 2D scene, as [`frame_3d`] (`--toggle-collect='*frame_2d*'`).
#[inline(never)]
fn frame_2d(
    world: &mut World<Vec2, Shape2<f32>>,
    bodies: &mut [Body2],
    handles: &[Handle],
    half: f32,
) -> (UpdateStats, UpdateEvents) {
    for (b, &h) in bodies.iter_mut().zip(handles) {
        b.at += b.vel;
        for k in 0..2 {
            if b.at[k].abs() > half {
                b.vel[k] = -b.vel[k];
            }
        }
        world.set_pose(h, Pose2::new(b.at, b.angle)).expect("pose");
    }
    let events = world.update();
    (world.update_stats(), events)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let scene = args.get(1).map_or("boxes", String::as_str);
    let frames = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let m = args.get(3).is_some_and(|s| s == "manifolds");
    let mut rng = Rng(17);
    let (candidates, contacts) = match scene {
        "boxes" => {
            let (bodies, half) = moving(&mut rng, 10_000, 0.05, false);
            run_3d::<Shape3<f32>>(bodies, Vec::new(), half, frames, m)
        }
        "boxes100k" => {
            let (bodies, half) = moving(&mut rng, 100_000, 0.05, false);
            run_3d::<Shape3<f32>>(bodies, Vec::new(), half, frames, m)
        }
        "mixed" => {
            let (bodies, fixed, half) = on_ground(&mut rng, 10_000);
            run_3d(bodies, placed(fixed), half, frames, m)
        }
        "mixed-mesh" => {
            let (bodies, floor, half) = on_mesh(&mut rng, 10_000);
            let fixed = vec![(
                AnyShape3::from(floor),
                Pose3::new(Vec3::ZERO, Quat::IDENTITY),
            )];
            run_3d(bodies, fixed, half, frames, m)
        }
        "level" => {
            let (bodies, fixed, half) = level(&mut rng);
            run_3d(bodies, placed(fixed), half, frames, m)
        }
        "2d" => run_2d(&mut rng, 10_000, frames, m),
        other => panic!("unknown scene {other}: boxes, boxes100k, mixed, mixed-mesh, 2d or level"),
    };
    println!("{scene}: first update and {frames} frames: {candidates} candidates, {contacts} touching (sums)");
}
