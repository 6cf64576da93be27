//! The collision world per frame beside rapier's `CollisionPipeline::step` (broad and
//! narrow phase, no solver) on identical seeded scenes: every moving shape translates
//! by its own velocity each frame (bouncing inside the scene's box, so that a scene
//! looks the same however many frames each side runs), both worlds get
//! the same poses, and a frame is the moves plus the update. isect runs at contact
//! prediction 0 with a broad-phase margin of 0.04 (rapier's fixed skin); rapier at
//! prediction 0. Every collider is parentless (rapier counts it as fixed): moving ones
//! enable all collision types, static ones keep the default, so rapier, like isect's
//! `insert_static`, computes no static–static pair. Before each group the touching-pair counts of both are
//! printed (they agree up to a few exactly-touching pairs).
//!
//! Scenes: moving boxes (1k, 10k and 100k, 3D: the growth), 10k balls, capsules and
//! boxes above a ground box and above a static triangle-mesh floor (a bumpy 200 × 200
//! quad grid), 10k moving 2D boxes, circles and polygons, and a level (20k static boxes
//! on a floor, 100 moving balls).
//!
//! `cargo bench -p isect --bench world_rapier` (CPU time per frame).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion};
use glam::{Quat, Vec2, Vec3};
use isect::math::{Pose2, Pose3};
use isect::shape::shape_2d::Shape as Shape2;
use isect::shape::shape_3d::{AnyShape as AnyShape3, Shape as Shape3};
use isect::shape::trimesh::{TriMesh, TriMeshFlags};
use isect::shape::{Aabb, Ball, Capsule, ConvexPolygon};
use isect::world::{Filter, Handle, World};
use rapier2d::geometry as r2;
use rapier3d::geometry as r3;

mod support;
use support::{cpu_time_config, CpuTime, Rng};

/// isect's broad-phase margin: rapier's fixed skin.
const MARGIN: f32 = 0.04;

/// One shape of a 3D scene.
#[derive(Copy, Clone)]
enum Kind3 {
    Cuboid(Vec3),
    Ball(f32),
    Capsule(f32, f32),
    /// A bumpy triangle-mesh floor of half side `.0`, `.1` quads a side.
    Floor(f32, u32),
}

/// A body of a scene: kind, pose, velocity per frame (zero for static bodies).
#[derive(Copy, Clone)]
struct Body<K, P, T> {
    kind: K,
    pose: P,
    vel: T,
    fixed: bool,
}

type Body3 = Body<Kind3, (Vec3, Quat), Vec3>;

impl Kind3 {
    /// The convex shape (the floor mesh needs [`ours_any`](Self::ours_any)).
    fn ours(self) -> Shape3<f32> {
        match self {
            Self::Cuboid(h) => Aabb::from_center(Vec3::ZERO, h).expect("box").into(),
            Self::Ball(r) => Ball::new(Vec3::ZERO, r).expect("ball").into(),
            Self::Capsule(hh, r) => {
                Capsule::new(Vec3::new(0.0, -hh, 0.0), Vec3::new(0.0, hh, 0.0), r)
                    .expect("capsule")
                    .into()
            }
            Self::Floor(..) => panic!("a mesh floor is not convex"),
        }
    }

    fn ours_any(self) -> AnyShape3<f32> {
        match self {
            Self::Floor(half, cells) => {
                let (vertices, indices) = floor_mesh(half, cells);
                TriMesh::new(vertices, indices, TriMeshFlags::OPEN)
                    .expect("floor")
                    .into()
            }
            convex => convex.ours().into(),
        }
    }

    fn rapier(self) -> r3::ColliderBuilder {
        match self {
            Self::Cuboid(h) => r3::ColliderBuilder::cuboid(h.x, h.y, h.z),
            Self::Ball(r) => r3::ColliderBuilder::ball(r),
            Self::Capsule(hh, r) => r3::ColliderBuilder::capsule_y(hh, r),
            Self::Floor(half, cells) => {
                let (vertices, indices) = floor_mesh(half, cells);
                r3::ColliderBuilder::trimesh(vertices, indices).expect("floor")
            }
        }
    }
}

/// A grid of `cells × cells` quads (two triangles each) over `[-half, half]²` at
/// heights within 0.15 of zero (gentle bumps), normals up.
fn floor_mesh(half: f32, cells: u32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let step = 2.0 * half / cells as f32;
    let row = cells + 1;
    let vertices = (0..row * row)
        .map(|k| {
            let (x, z) = (
                (k % row) as f32 * step - half,
                (k / row) as f32 * step - half,
            );
            Vec3::new(x, 0.15 * (0.7 * x).sin() * (0.9 * z).cos(), z)
        })
        .collect();
    let mut indices = Vec::with_capacity(2 * (cells * cells) as usize);
    for j in 0..cells {
        for i in 0..cells {
            let a = j * row + i;
            indices.push([a, a + row, a + 1]);
            indices.push([a + 1, a + row, a + row + 1]);
        }
    }
    (vertices, indices)
}

/// `n` bodies of the kinds `kind` draws, in a cube sized for about one neighbour
/// each, moving up to `speed` per frame.
fn moving_3d(rng: &mut Rng, n: usize, speed: f32, kind: impl Fn(&mut Rng) -> Kind3) -> Vec<Body3> {
    let half = 0.9 * (n as f32).cbrt();
    (0..n)
        .map(|_| Body {
            kind: kind(rng),
            pose: (rng.vec3(-half, half), rng.rotation()),
            vel: rng.vec3(-speed, speed),
            fixed: false,
        })
        .collect()
}

fn random_box(rng: &mut Rng) -> Kind3 {
    Kind3::Cuboid(rng.vec3(0.3, 0.6))
}

fn random_mixed(rng: &mut Rng) -> Kind3 {
    match rng.below(3) {
        0 => Kind3::Ball(rng.uniform(0.3, 0.6)),
        1 => Kind3::Capsule(rng.uniform(0.2, 0.4), rng.uniform(0.2, 0.3)),
        _ => random_box(rng),
    }
}

/// Mixed bodies above (and partly sunk into) one large static ground box.
fn on_ground(rng: &mut Rng, n: usize) -> Vec<Body3> {
    let half = (n as f32).sqrt() * 0.8;
    let mut bodies = moving_3d(rng, n, 0.02, random_mixed);
    for b in &mut bodies {
        b.pose.0.y = rng.uniform(0.0, 4.0);
    }
    bodies.push(Body {
        kind: Kind3::Cuboid(Vec3::new(half, 0.5, half)),
        pose: (Vec3::new(0.0, -0.5, 0.0), Quat::IDENTITY),
        vel: Vec3::ZERO,
        fixed: true,
    });
    bodies
}

/// Mixed bodies above (and partly sunk into) a static triangle-mesh floor.
fn on_mesh_floor(rng: &mut Rng, n: usize) -> Vec<Body3> {
    let mut bodies = on_ground(rng, n);
    let ground = bodies.pop().expect("the ground box");
    bodies.push(Body {
        kind: Kind3::Floor((n as f32).sqrt() * 0.8, 200),
        pose: (Vec3::ZERO, Quat::IDENTITY),
        ..ground
    });
    bodies
}

/// A level: 20k static boxes resting on a static floor and 100 moving balls.
fn level(rng: &mut Rng) -> Vec<Body3> {
    let side = 141;
    let mut bodies = Vec::with_capacity(20_200);
    bodies.push(Body {
        kind: Kind3::Cuboid(Vec3::new(side as f32, 0.5, side as f32)),
        pose: (Vec3::new(0.0, -0.5, 0.0), Quat::IDENTITY),
        vel: Vec3::ZERO,
        fixed: true,
    });
    for i in 0..20_000 {
        let (x, z) = ((i % side) as f32, (i / side) as f32);
        let h = rng.vec3(0.2, 0.45);
        bodies.push(Body {
            kind: Kind3::Cuboid(h),
            pose: (
                Vec3::new(2.0 * x - side as f32, h.y, 2.0 * z - side as f32),
                Quat::IDENTITY,
            ),
            vel: Vec3::ZERO,
            fixed: true,
        });
    }
    for _ in 0..100 {
        let at = rng.vec3(-side as f32, side as f32);
        bodies.push(Body {
            kind: Kind3::Ball(0.4),
            pose: (Vec3::new(at.x, 0.4, at.z), Quat::IDENTITY),
            vel: rng.vec3(-0.1, 0.1) * Vec3::new(1.0, 0.0, 1.0),
            fixed: false,
        });
    }
    bodies
}

/// Where the moving bodies of a scene stay: they bounce off the box's sides, so that
/// the scene looks the same however many frames each side of a group runs.
type Bounds = (Vec3, Vec3);

/// The cube of half side `half` about the origin.
fn cube(half: f32) -> Bounds {
    (Vec3::splat(-half), Vec3::splat(half))
}

/// Advances a moving body by its velocity, bouncing off the sides of `bounds`.
fn advance3(b: &mut Body3, (lo, hi): Bounds) {
    b.pose.0 += b.vel;
    for k in 0..3 {
        if b.pose.0[k] < lo[k] || b.pose.0[k] > hi[k] {
            b.vel[k] = -b.vel[k];
        }
    }
}

/// isect's world over the convex enum (`Shape3`) or, with a mesh, `AnyShape3`.
struct Ours3<S> {
    world: World<Vec3, S>,
    handles: Vec<Handle>,
}

impl<S: isect::query::dispatch::DispatchShape<Vec3> + Sync> Ours3<S> {
    fn new(bodies: &[Body3], shape: impl Fn(Kind3) -> S) -> Self {
        let mut world = World::new();
        world.set_broad_margin(MARGIN).expect("margin");
        let handles = bodies
            .iter()
            .map(|b| {
                let pose = Pose3::new(b.pose.0, b.pose.1);
                let r = if b.fixed {
                    world.insert_static(shape(b.kind), pose, Filter::ALL)
                } else {
                    world.insert(shape(b.kind), pose, Filter::ALL)
                };
                r.expect("insert")
            })
            .collect();
        world.update();
        Self { world, handles }
    }

    fn frame(&mut self, bodies: &[Body3]) -> usize {
        for (b, &h) in bodies.iter().zip(&self.handles).filter(|(b, _)| !b.fixed) {
            let pose = Pose3::new(b.pose.0, b.pose.1);
            self.world.set_pose(h, pose).expect("pose");
        }
        self.world.update();
        self.world.contacts().len()
    }
}

struct Rapier3 {
    pipeline: rapier3d::pipeline::CollisionPipeline,
    islands: rapier3d::dynamics::IslandManager,
    broad: r3::BroadPhaseBvh,
    narrow: r3::NarrowPhase,
    bodies: rapier3d::dynamics::RigidBodySet,
    colliders: r3::ColliderSet,
    handles: Vec<r3::ColliderHandle>,
}

impl Rapier3 {
    fn new(bodies: &[Body3]) -> Self {
        let mut colliders = r3::ColliderSet::new();
        let handles = bodies
            .iter()
            .map(|b| {
                let pose = rapier3d::math::Pose::from_parts(b.pose.0, b.pose.1);
                colliders.insert(
                    b.kind
                        .rapier()
                        .position(pose)
                        .active_collision_types(active(b.fixed)),
                )
            })
            .collect();
        let mut me = Self {
            pipeline: rapier3d::pipeline::CollisionPipeline::new(),
            islands: rapier3d::dynamics::IslandManager::new(),
            broad: r3::BroadPhaseBvh::new(),
            narrow: r3::NarrowPhase::new(),
            bodies: rapier3d::dynamics::RigidBodySet::new(),
            colliders,
            handles,
        };
        me.step();
        me
    }

    fn step(&mut self) {
        self.pipeline.step(
            0.0,
            &mut self.islands,
            &mut self.broad,
            &mut self.narrow,
            &mut self.bodies,
            &mut self.colliders,
            &(),
            &(),
        );
    }

    fn frame(&mut self, bodies: &[Body3]) -> usize {
        for (b, &h) in bodies.iter().zip(&self.handles).filter(|(b, _)| !b.fixed) {
            let pose = rapier3d::math::Pose::from_parts(b.pose.0, b.pose.1);
            if let Some(c) = self.colliders.get_mut(h) {
                c.set_position(pose);
            }
        }
        self.step();
        self.narrow
            .contact_pairs()
            .filter(|p| p.has_any_active_contact())
            .count()
    }
}

/// Which pairs rapier's narrow phase computes for a collider: a parentless collider
/// counts as fixed, so the moving ones enable fixed–fixed pairs (with everything) and
/// the static ones keep the default (their pairs with each other stay out, as in
/// isect).
fn active(fixed: bool) -> r3::ActiveCollisionTypes {
    if fixed {
        r3::ActiveCollisionTypes::default()
    } else {
        r3::ActiveCollisionTypes::all()
    }
}

/// One group: rapier and isect, each advancing its own copy of the scene per frame.
fn group_3d(c: &mut Criterion<CpuTime>, name: &str, bodies: Vec<Body3>, bounds: Bounds) {
    let mesh = bodies.iter().any(|b| matches!(b.kind, Kind3::Floor(..)));
    if mesh {
        group_3d_with(c, name, bodies, bounds, Kind3::ours_any);
    } else {
        group_3d_with(c, name, bodies, bounds, Kind3::ours);
    }
}

fn group_3d_with<S: isect::query::dispatch::DispatchShape<Vec3> + Sync>(
    c: &mut Criterion<CpuTime>,
    name: &str,
    bodies: Vec<Body3>,
    bounds: Bounds,
    shape: impl Fn(Kind3) -> S,
) {
    let mut group = c.benchmark_group(name);
    configure(&mut group, bodies.len());
    let (mut ours, mut theirs) = (Ours3::new(&bodies, shape), Rapier3::new(&bodies));
    let (mut a, mut b) = (bodies.clone(), bodies);
    for x in a.iter_mut().filter(|x| !x.fixed) {
        advance3(x, bounds);
    }
    eprintln!(
        "{name}: touching pairs rapier {} isect {}",
        theirs.frame(&a),
        ours.frame(&a)
    );
    group.bench_function("rapier", |bench| {
        bench.iter(|| {
            b.iter_mut()
                .filter(|x| !x.fixed)
                .for_each(|x| advance3(x, bounds));
            black_box(theirs.frame(&b))
        })
    });
    group.bench_function("isect", |bench| {
        bench.iter(|| {
            a.iter_mut()
                .filter(|x| !x.fixed)
                .for_each(|x| advance3(x, bounds));
            black_box(ours.frame(&a))
        })
    });
    eprintln!("{name}: isect {:?}", ours.world.update_stats());
    group.finish();
}

/// Fewer samples for the large scenes (a frame of 100k shapes takes ~0.5 s).
fn configure(group: &mut BenchmarkGroup<'_, CpuTime>, n: usize) {
    group.sample_size(if n > 50_000 { 10 } else { 20 });
}

fn scenes_3d(c: &mut Criterion<CpuTime>) {
    // The growth's small end, seeded apart so the other scenes stay as they were.
    let n = 1_000;
    let bodies = moving_3d(&mut Rng(1017), n, 0.05, random_box);
    group_3d(c, "world_boxes_1k", bodies, cube(0.9 * (n as f32).cbrt()));
    let mut rng = Rng(17);
    for n in [10_000, 100_000] {
        let bodies = moving_3d(&mut rng, n, 0.05, random_box);
        let name = format!("world_boxes_{}k", n / 1000);
        group_3d(c, &name, bodies, cube(0.9 * (n as f32).cbrt()));
    }
    // The mixed bodies stay over the middle of the ground, between heights 0 and 4.
    let h = 0.9 * 10_000f32.cbrt();
    let above = (Vec3::new(-h, 0.0, -h), Vec3::new(h, 4.0, h));
    let bodies = on_ground(&mut rng, 10_000);
    group_3d(c, "world_mixed_10k_on_ground", bodies, above);
    let bodies = on_mesh_floor(&mut rng, 10_000);
    group_3d(c, "world_mixed_10k_on_mesh", bodies, above);
    let name = "world_level_20k_static_100_balls";
    group_3d(c, name, level(&mut rng), cube(141.0));
}

/// 2D: boxes, circles and polygons.
#[derive(Clone)]
struct Body2 {
    ours: Shape2<f32>,
    theirs: r2::SharedShape,
    pos: Vec2,
    angle: f32,
    vel: Vec2,
}

fn bodies_2d(rng: &mut Rng, n: usize) -> Vec<Body2> {
    let half = 0.9 * (n as f32).sqrt();
    (0..n)
        .map(|_| {
            let (ours, theirs) = shape_2d(rng);
            let p = rng.vec3(-half, half);
            let v = rng.vec3(-0.05, 0.05);
            Body2 {
                ours,
                theirs,
                pos: Vec2::new(p.x, p.y),
                angle: rng.uniform(-3.0, 3.0),
                vel: Vec2::new(v.x, v.y),
            }
        })
        .collect()
}

fn shape_2d(rng: &mut Rng) -> (Shape2<f32>, r2::SharedShape) {
    let (w, h) = (rng.uniform(0.3, 0.6), rng.uniform(0.3, 0.6));
    match rng.below(3) {
        0 => {
            let b = Aabb::from_center(Vec2::ZERO, Vec2::new(w, h)).expect("box");
            (b.into(), r2::SharedShape::cuboid(w, h))
        }
        1 => (
            Ball::new(Vec2::ZERO, w).expect("circle").into(),
            r2::SharedShape::ball(w),
        ),
        _ => {
            let pts: Vec<Vec2> = (0..6)
                .map(|k| {
                    let a = k as f32 * std::f32::consts::TAU / 6.0;
                    Vec2::new(a.cos(), a.sin()) * w
                })
                .collect();
            let ours = ConvexPolygon::new(&pts).expect("hexagon");
            (
                ours.into(),
                r2::SharedShape::convex_hull(&pts).expect("hull"),
            )
        }
    }
}

fn advance2(b: &mut Body2, half: f32) {
    b.pos += b.vel;
    for k in 0..2 {
        if b.pos[k].abs() > half {
            b.vel[k] = -b.vel[k];
        }
    }
}

fn scene_2d(c: &mut Criterion<CpuTime>) {
    let n = 10_000;
    let half = 0.9 * (n as f32).sqrt();
    let mut rng = Rng(29);
    let bodies = bodies_2d(&mut rng, n);
    let mut ours = World::<Vec2, Shape2<f32>>::new();
    ours.set_broad_margin(MARGIN).expect("margin");
    let handles: Vec<Handle> = bodies
        .iter()
        .map(|b| {
            ours.insert(b.ours.clone(), Pose2::new(b.pos, b.angle), Filter::ALL)
                .expect("insert")
        })
        .collect();
    let mut colliders = r2::ColliderSet::new();
    let theirs: Vec<_> = bodies
        .iter()
        .map(|b| {
            let pose = rapier2d::math::Pose::new(b.pos, b.angle);
            let builder = r2::ColliderBuilder::new(b.theirs.clone()).position(pose);
            colliders.insert(builder.active_collision_types(r2::ActiveCollisionTypes::all()))
        })
        .collect();
    let mut pipeline = rapier2d::pipeline::CollisionPipeline::new();
    let mut islands = rapier2d::dynamics::IslandManager::new();
    let mut broad = r2::BroadPhaseBvh::new();
    let mut narrow = r2::NarrowPhase::new();
    let mut rb = rapier2d::dynamics::RigidBodySet::new();
    let mut group = c.benchmark_group("world_2d_10k");
    configure(&mut group, n);
    let mut b = bodies.clone();
    let mut rapier_frame = || {
        for (x, &h) in b.iter_mut().zip(&theirs) {
            advance2(x, half);
            if let Some(c) = colliders.get_mut(h) {
                c.set_position(rapier2d::math::Pose::new(x.pos, x.angle));
            }
        }
        pipeline.step(
            0.0,
            &mut islands,
            &mut broad,
            &mut narrow,
            &mut rb,
            &mut colliders,
            &(),
            &(),
        );
        narrow
            .contact_pairs()
            .filter(|p| p.has_any_active_contact())
            .count()
    };
    let mut a = bodies;
    let mut isect_frame = || {
        for (x, &h) in a.iter_mut().zip(&handles) {
            advance2(x, half);
            ours.set_pose(h, Pose2::new(x.pos, x.angle)).expect("pose");
        }
        ours.update();
        ours.contacts().len()
    };
    group.bench_function("rapier", |bench| bench.iter(|| black_box(rapier_frame())));
    group.bench_function("isect", |bench| bench.iter(|| black_box(isect_frame())));
    group.finish();
    interleaved("world_2d_10k", &mut rapier_frame, &mut isect_frame);
    eprintln!("world_2d_10k: isect {:?}", ours.update_stats());
}

/// With `WORLD_INTERLEAVE=<rounds>` set: the two frames alternated, 20 of each a
/// round (thread CPU time), then the medians of their rounds' per-frame times and
/// the ratio printed. A shared machine's drift then moves both sides alike, where
/// criterion measures one side for seconds and then the other.
fn interleaved(name: &str, rapier: &mut impl FnMut() -> usize, isect: &mut impl FnMut() -> usize) {
    let Some(rounds) = std::env::var("WORLD_INTERLEAVE")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
    else {
        return;
    };
    let per_frame = |frame: &mut dyn FnMut() -> usize| {
        let start = support::cpu_nanos();
        for _ in 0..20 {
            black_box(frame());
        }
        (support::cpu_nanos() - start) as f64 / 20e6
    };
    let (mut theirs, mut ours): (Vec<f64>, Vec<f64>) = (0..rounds)
        .map(|_| (per_frame(rapier), per_frame(isect)))
        .unzip();
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (r, i) = (median(&mut theirs), median(&mut ours));
    eprintln!("{name} interleaved, {rounds} rounds: rapier {r:.3} ms, isect {i:.3} ms, rapier / isect {:.2}", r / i);
}

criterion_group! {
    name = benches;
    config = cpu_time_config();
    targets = scenes_3d, scene_2d
}
criterion_main!(benches);
