//! Shape-cast options (`ShapeCastOptions`) through `dispatch`, and the time of impact
//! of every `AnyShape` kind, in f32 and f64, 2D and 3D:
//!
//! - resting shapes (ball, capsule, box) on a box, a mesh floor (a polyline in 2D)
//!   and a heightfield, at scales 1e-3 to 1e5, touching or slightly sunk, at random
//!   places and on the floor's internal edges: with `stop_at_penetration = false`,
//!   cast or swept (3D: with a yaw) up and sideways they are not hit, down they hit
//!   at time 0; the default options hit at time 0 whichever way;
//! - target distances (skins): a shape within the skin is hit at time 0 only when
//!   moving in, one beyond it stops with the real shapes the skin apart;
//! - grazing motions (tangent to a face or a corner: no hit for a mover) and near
//!   grazes that do cut in (a hit);
//! - tunnelling: a fast ball through a thin box and a zero-thickness mesh wall, a
//!   fast spinning bar through a thin wall (every one must hit);
//! - seeded sweeps of every pair of kinds against a brute force sampling the motion
//!   (`dispatch::intersects` / `distance` at 256 times): the time of impact with
//!   rotation and the linear cast with a skin are never later than the first
//!   sampled touch plus tolerance, and the shapes are within tolerance of touching
//!   (of the skin) at the reported time;
//! - bad input: NaN or infinite velocities and sweeps, negative, NaN or infinite
//!   skins give `None` (and `ShapeCastOptions::new` a named error), never a panic.

mod composite_common;
#[macro_use]
#[path = "support/for_each_vector.rs"]
mod for_each_vector;
#[path = "support/meshes.rs"]
mod meshes;
mod world_common;

use composite_common::{random_compound, CompositeDim};
use isect::math::{Isometry, Pose2, Pose3, Real, Vector};
use isect::query::composite::ConvexPart;
use isect::query::dispatch::{self, DispatchShape};
use isect::query::RayCast;
use isect::query::{ShapeCastHit, ShapeCastOptions, Sweep};
use isect::shape::error::ShapeError;
use isect::shape::heightfield_2d::HeightField as HeightField2;
use isect::shape::heightfield_3d::HeightField as HeightField3;
use isect::shape::{Aabb, Ball, Capsule, ConcavePolygon, Polyline, Ray};
use isect::shape::{TriMesh, TriMeshFlags};
use world_common::{assert_hit_rate, rand_unit, rand_vec, s, tol, Rng, TestDim};

/// Scales of the resting, skin and tunnelling cases.
const SCALES: [f64; 6] = [1e-3, 1e-1, 1.0, 10.0, 1e3, 1e5];
/// Random resting places per floor, shape and scale (plus the internal-edge ones).
const PLACES: usize = 4;
/// Samples of the brute force over a motion.
const SAMPLES: usize = 256;
/// Random sweeps per ordered pair of kinds.
const SWEEPS: usize = 3;

/// A vector type with its composite kinds, floors and rotations for these tests.
trait Dim: CompositeDim
where
    Self::S: ConvexPart<Self>,
{
    /// Floors whose top is the plane y = 0 over `[−3c, 3c]` (c = `cell`): a box, a
    /// mesh of `cell`-sized triangles (3D) or a polyline (2D), a heightfield.
    fn floors(cell: f64) -> Vec<(&'static str, Self::Any)>;
    /// Every kind, convex and composite, about 1 across.
    fn kinds(rng: &mut Rng) -> Vec<(String, Self::Any)>;
    /// A rotation by `angle` about the up axis (3D); the identity in 2D.
    fn yaw(angle: f64) -> Self::Pose;
    /// A random rotation by at most `max_angle` radians.
    fn turn(rng: &mut Rng, max_angle: f64) -> Self::Pose;
    /// A thin wall at x = 0, `thickness` thick (0: a mesh or polyline), `half` wide.
    fn wall(thickness: f64, half: f64) -> Self::Any;
    /// The capsule as the convex enum.
    fn capsule(c: Capsule<Self>) -> Self::S;
    /// Kinds with an interior besides `kinds`: a solid mesh (3D).
    fn solid_kinds() -> Vec<(String, Self::Any)>;
    /// True for the names of the convex kinds.
    fn convex_name(name: &str) -> bool {
        ![
            "Compound",
            "TriMesh",
            "TriMesh solid",
            "HeightField",
            "ConcavePolygon",
            "Polyline",
        ]
        .contains(&name)
    }
}

fn vec<V: Vector>(x: f64, y: f64, z: f64) -> V {
    let v = V::ZERO.with(0, s::<V>(x)).with(1, s::<V>(y));
    if V::DIM == 3 {
        v.with(2, s::<V>(z))
    } else {
        v
    }
}

fn at<V: Vector>(p: V) -> V::Pose {
    V::Pose::from_translation(p)
}

fn convex<V: Dim>(shape: impl Into<V::S>) -> V::Any
where
    V::S: ConvexPart<V>,
{
    V::Any::from(shape.into())
}

/// A flat grid of `2n × 2n` cells of side `c` centred on the origin, at y = 0, as
/// triangles facing +y.
fn grid_mesh(n: i32, c: f64) -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
    let side = (2 * n + 1) as u32;
    let mut vertices = Vec::new();
    for i in -n..=n {
        for j in -n..=n {
            vertices.push([j as f64 * c, 0.0, i as f64 * c]);
        }
    }
    let mut indices = Vec::new();
    for i in 0..side - 1 {
        for j in 0..side - 1 {
            let k = i * side + j;
            indices.push([k, k + side, k + 1]);
            indices.push([k + 1, k + side, k + side + 1]);
        }
    }
    (vertices, indices)
}

macro_rules! impl_3d {
    ($v:ty, $r:ty, $q:ty) => {
        impl Dim for $v {
            fn floors(c: f64) -> Vec<(&'static str, Self::Any)> {
                let slab =
                    Aabb::from_center(vec(0.0, -0.5 * c, 0.0), vec(3.0 * c, 0.5 * c, 3.0 * c));
                let (vs, idx) = grid_mesh(3, c);
                let vs = vs
                    .iter()
                    .map(|p| <$v>::new(p[0] as $r, p[1] as $r, p[2] as $r))
                    .collect();
                let mesh = TriMesh::<$r>::new(vs, idx, TriMeshFlags::OPEN).unwrap();
                let size = <$v>::new((6.0 * c) as $r, c as $r, (6.0 * c) as $r);
                let hf = HeightField3::<$r>::new(vec![0.0; 49], 7, 7, size).unwrap();
                vec![
                    ("box", convex::<Self>(slab.unwrap())),
                    ("mesh", mesh.into()),
                    ("heightfield", hf.into()),
                ]
            }
            fn kinds(rng: &mut Rng) -> Vec<(String, Self::Any)> {
                let mut out: Vec<(String, Self::Any)> = (0..<$v as TestDim>::KINDS)
                    .map(|k| {
                        let part = <$v>::shape(k, rng, 1.0);
                        (<$v>::kind_name(&part).to_string(), part.into())
                    })
                    .collect();
                out.push((
                    "Compound".into(),
                    random_compound::<Self>(rng, 3, 0.8, 0.6).into(),
                ));
                let data = meshes::bumpy_sphere(8, 5, 0.2).scaled(0.8);
                let v = data.map(|p| <$v>::new(p[0] as $r, p[1] as $r, p[2] as $r));
                let mesh = TriMesh::<$r>::new(v, data.indices.clone(), TriMeshFlags::OPEN);
                out.push(("TriMesh".into(), mesh.unwrap().into()));
                let heights = (0..25).map(|_| rng.range(-0.3, 0.3) as $r).collect();
                let size = <$v>::new(2.0, 1.0, 2.0);
                out.push((
                    "HeightField".into(),
                    HeightField3::<$r>::new(heights, 5, 5, size).unwrap().into(),
                ));
                out
            }
            fn capsule(c: Capsule<Self>) -> Self::S {
                c.into()
            }
            fn solid_kinds() -> Vec<(String, Self::Any)> {
                let data = meshes::bumpy_sphere(8, 5, 0.2).scaled(0.8);
                let v = data.map(|p| <$v>::new(p[0] as $r, p[1] as $r, p[2] as $r));
                let mesh = TriMesh::<$r>::new(v, data.indices.clone(), TriMeshFlags::SOLID);
                vec![("TriMesh solid".into(), mesh.unwrap().into())]
            }
            fn yaw(angle: f64) -> Self::Pose {
                Pose3::new(<$v>::ZERO, <$q>::from_rotation_y(angle as $r))
            }
            fn turn(rng: &mut Rng, max_angle: f64) -> Self::Pose {
                let axis = rand_unit::<$v>(rng);
                let q = <$q>::from_axis_angle(axis, rng.range(-max_angle, max_angle) as $r);
                Pose3::new(<$v>::ZERO, q)
            }
            fn wall(thickness: f64, half: f64) -> Self::Any {
                if thickness > 0.0 {
                    let b = Aabb::from_center(<$v>::ZERO, vec(0.5 * thickness, half, half));
                    return convex::<Self>(b.unwrap());
                }
                let p = |y: f64, z: f64| <$v>::new(0.0, y as $r, z as $r);
                let vs = vec![
                    p(-half, -half),
                    p(half, -half),
                    p(half, half),
                    p(-half, half),
                ];
                TriMesh::<$r>::new(vs, vec![[0, 1, 2], [0, 2, 3]], TriMeshFlags::OPEN)
                    .unwrap()
                    .into()
            }
        }
    };
}

macro_rules! impl_2d {
    ($v:ty, $r:ty) => {
        impl Dim for $v {
            fn floors(c: f64) -> Vec<(&'static str, Self::Any)> {
                let slab = Aabb::from_center(vec(0.0, -0.5 * c, 0.0), vec(3.0 * c, 0.5 * c, 0.0));
                let chain = (-3..=3)
                    .map(|i| <$v>::new((i as f64 * c) as $r, 0.0))
                    .collect();
                let line = Polyline::<$r>::new(chain, false).unwrap();
                let hf = HeightField2::<$r>::new(vec![0.0; 7], <$v>::new((6.0 * c) as $r, c as $r));
                vec![
                    ("box", convex::<Self>(slab.unwrap())),
                    ("polyline", line.into()),
                    ("heightfield", hf.unwrap().into()),
                ]
            }
            fn kinds(rng: &mut Rng) -> Vec<(String, Self::Any)> {
                let mut out: Vec<(String, Self::Any)> = (0..<$v as TestDim>::KINDS)
                    .map(|k| {
                        let part = <$v>::shape(k, rng, 1.0);
                        (<$v>::kind_name(&part).to_string(), part.into())
                    })
                    .collect();
                out.push((
                    "Compound".into(),
                    random_compound::<Self>(rng, 3, 0.8, 0.6).into(),
                ));
                let star = (0..10)
                    .map(|i| {
                        let r = if i % 2 == 0 { 1.0 } else { 0.45 } * rng.range(0.9, 1.1);
                        let t = std::f64::consts::TAU * i as f64 / 10.0;
                        <$v>::new((r * t.cos()) as $r, (r * t.sin()) as $r)
                    })
                    .collect();
                let polygon = ConcavePolygon::<$r>::new(star, Vec::new()).unwrap();
                out.push(("ConcavePolygon".into(), polygon.into()));
                let chain = (0..7)
                    .map(|i| <$v>::new((-1.0 + i as f64 / 3.0) as $r, rng.range(-0.4, 0.4) as $r))
                    .collect();
                out.push((
                    "Polyline".into(),
                    Polyline::<$r>::new(chain, false).unwrap().into(),
                ));
                let heights = (0..6).map(|_| rng.range(-0.3, 0.3) as $r).collect();
                let hf = HeightField2::<$r>::new(heights, <$v>::new(2.0, 1.0)).unwrap();
                out.push(("HeightField".into(), hf.into()));
                out
            }
            fn capsule(c: Capsule<Self>) -> Self::S {
                c.into()
            }
            fn solid_kinds() -> Vec<(String, Self::Any)> {
                Vec::new()
            }
            fn yaw(_: f64) -> Self::Pose {
                Pose2::default()
            }
            fn turn(rng: &mut Rng, max_angle: f64) -> Self::Pose {
                Pose2::new(<$v>::ZERO, rng.range(-max_angle, max_angle) as $r)
            }
            fn wall(thickness: f64, half: f64) -> Self::Any {
                if thickness > 0.0 {
                    let b = Aabb::from_center(<$v>::ZERO, vec(0.5 * thickness, half, 0.0));
                    return convex::<Self>(b.unwrap());
                }
                let chain = vec![<$v>::new(0.0, -half as $r), <$v>::new(0.0, half as $r)];
                Polyline::<$r>::new(chain, false).unwrap().into()
            }
        }
    };
}

impl_3d!(glam::Vec3, f32, glam::Quat);
impl_3d!(glam::DVec3, f64, glam::DQuat);
impl_2d!(glam::Vec2, f32);
impl_2d!(glam::DVec2, f64);

/// A movers' resting shape of size `k` (ball, capsule along y, box) and the height
/// of its local origin above its lowest point.
fn resting_shapes<V: Dim>(k: f64) -> Vec<(&'static str, V::Any, f64)>
where
    V::S: ConvexPart<V>,
{
    let r = 0.5 * k;
    let ball = Ball::new(V::ZERO, s::<V>(r)).unwrap();
    let capsule = Capsule::new(vec(0.0, -r, 0.0), vec(0.0, r, 0.0), s::<V>(r)).unwrap();
    let cube = Aabb::from_center(V::ZERO, V::splat(s::<V>(r))).unwrap();
    vec![
        ("ball", convex::<V>(V::S::from(ball)), r),
        ("capsule", convex::<V>(V::capsule(capsule)), 2.0 * r),
        ("box", convex::<V>(V::cuboid(cube)), r),
    ]
}

/// The options of a mover with target distance `skin`.
fn mover<V: Vector>(skin: f64) -> ShapeCastOptions<V::Scalar> {
    ShapeCastOptions::mover(s::<V>(skin)).unwrap()
}

/// The options of a plain cast stopping at `skin`.
fn skinned<V: Vector>(skin: f64) -> ShapeCastOptions<V::Scalar> {
    ShapeCastOptions::new(s::<V>(skin), true).unwrap()
}

fn up<V: Vector>() -> V {
    V::unit_axis(1)
}

/// Horizontal unit directions: ±x (and ±z and a diagonal in 3D).
fn sideways<V: Vector>() -> Vec<V> {
    let mut out = vec![V::unit_axis(0), -V::unit_axis(0)];
    if V::DIM == 3 {
        out.extend([V::unit_axis(2), -V::unit_axis(2)]);
        out.push(vec::<V>(0.6, 0.0, -0.8));
    }
    out
}

/// Horizontal places over a floor of cells `c`: a grid vertex, a cell edge, a mesh
/// diagonal (3D), and random ones within `[−c, c]`.
fn places<V: Vector>(rng: &mut Rng, c: f64) -> Vec<V> {
    let mut out = vec![
        V::ZERO,
        vec::<V>(0.5 * c, 0.0, 0.0),
        vec::<V>(0.5 * c, 0.0, 0.5 * c),
    ];
    for _ in 0..PLACES {
        out.push(vec::<V>(rng.range(-c, c), 0.0, rng.range(-c, c)));
    }
    out
}

/// The world (floor) as A, static; the mover as B, cast at `vel` for time 1.4.
fn cast_mover<V: Dim>(
    floor: &V::Any,
    shape: &V::Any,
    pose: &V::Pose,
    vel: V,
    options: &ShapeCastOptions<V::Scalar>,
) -> Option<ShapeCastHit<V>>
where
    V::S: ConvexPart<V>,
{
    let id = V::Pose::IDENTITY;
    dispatch::cast_shapes_with(&id, V::ZERO, floor, pose, vel, shape, s::<V>(1.4), options)
}

/// The floor static, the mover translating by `vel · 1.4` and turning by a yaw of
/// 0.7 rad about its origin over the sweep.
fn sweep_mover<V: Dim>(
    floor: &V::Any,
    shape: &V::Any,
    pose: &V::Pose,
    vel: V,
    options: &ShapeCastOptions<V::Scalar>,
) -> Option<ShapeCastHit<V>>
where
    V::S: ConvexPart<V>,
{
    let still = Sweep {
        start: V::Pose::IDENTITY,
        end: V::Pose::IDENTITY,
    };
    let moving = mover_sweep::<V>(pose, vel);
    dispatch::time_of_impact_with(&still, floor, &moving, shape, options)
}

/// The sweep of [`sweep_mover`].
fn mover_sweep<V: Dim>(pose: &V::Pose, vel: V) -> Sweep<V>
where
    V::S: ConvexPart<V>,
{
    let end = at(vel * s::<V>(1.4)).mul(&pose.mul(&V::yaw(0.7)));
    Sweep { start: *pose, end }
}

/// A mover resting at `pose` (touching or sunk): up and sideways no hit, down a hit
/// at time 0, by the linear cast and by the time of impact with a yaw.
fn check_resting<V: Dim>(floor: &V::Any, shape: &V::Any, pose: &V::Pose, k: f64, label: &str)
where
    V::S: ConvexPart<V>,
{
    let options = mover::<V>(0.0);
    let tol_t = s::<V>(tol::<V>());
    for dir in sideways::<V>().into_iter().chain([up::<V>()]) {
        let vel = dir * s::<V>(k);
        let cast = cast_mover(floor, shape, pose, vel, &options);
        assert!(cast.is_none(), "{label}: cast along {dir:?} hit: {cast:?}");
        let toi = sweep_mover(floor, shape, pose, vel, &options);
        assert!(toi.is_none(), "{label}: sweep along {dir:?} hit: {toi:?}");
    }
    let down = -up::<V>() * s::<V>(k);
    let cast = cast_mover(floor, shape, pose, down, &options);
    assert!(
        cast.is_some_and(|h| h.time <= tol_t),
        "{label}: cast down: {cast:?}"
    );
    // The mover as A: the same answers, mirrored.
    let (id, one) = (V::Pose::IDENTITY, s::<V>(1.4));
    let side = V::unit_axis(0) * s::<V>(k);
    let swapped = dispatch::cast_shapes_with(pose, side, shape, &id, V::ZERO, floor, one, &options);
    assert!(swapped.is_none(), "{label}: swapped sideways: {swapped:?}");
    let swapped = dispatch::cast_shapes_with(pose, down, shape, &id, V::ZERO, floor, one, &options);
    assert!(
        swapped.is_some_and(|h| h.time <= tol_t),
        "{label}: swapped down: {swapped:?}"
    );
    let toi = sweep_mover(floor, shape, pose, down, &options);
    assert!(
        toi.is_some_and(|h| h.time <= tol_t),
        "{label}: sweep down: {toi:?}"
    );
}

// Ball, capsule and box resting on a box, a mesh (polyline) and a heightfield, at
// every scale, touching or sunk by 1e-4 of their size: a mover leaves and slides,
// and is stopped at once when it pushes in; the default options stop it at time 0
// whichever way it moves (the behaviour the option changes).
fn resting_movers_slide_and_lift<V: Dim>()
where
    V::S: ConvexPart<V>,
{
    let mut rng = Rng(0x7e57_0001);
    for k in SCALES {
        for (floor_name, floor) in V::floors(k) {
            for (shape_name, shape, lift) in resting_shapes::<V>(k) {
                for place in places::<V>(&mut rng, k) {
                    for sunk in [0.0, 1e-4] {
                        let pose = at(place + up::<V>() * s::<V>(lift - sunk * k));
                        let label = format!(
                            "{shape_name} on {floor_name}, k {k}, sunk {sunk}, at {place:?}"
                        );
                        check_resting::<V>(&floor, &shape, &pose, k, &label);
                        if sunk > 0.0 {
                            let side = V::unit_axis(0) * s::<V>(k);
                            let plain = ShapeCastOptions::default();
                            let hit = cast_mover(&floor, &shape, &pose, side, &plain);
                            assert!(
                                hit.is_some_and(|h| h.time == s::<V>(0.0)),
                                "{label}: default: {hit:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}
for_each_vector!(resting_movers_slide_and_lift);

// A skin of 5 % of the size: a mover within it is hit at time 0 only moving in; one
// 30 % above stops when the real shapes are the skin apart (time 0.25 at unit
// speed), the witnesses the skin apart along the normal and the depth −skin.
fn skins_stop_short<V: Dim>()
where
    V::S: ConvexPart<V>,
{
    let mut rng = Rng(0x7e57_0002);
    for k in SCALES {
        for (floor_name, floor) in V::floors(k) {
            for (shape_name, shape, lift) in resting_shapes::<V>(k) {
                for place in places::<V>(&mut rng, k).into_iter().skip(2) {
                    let label = format!("{shape_name} over {floor_name}, k {k}, at {place:?}");
                    let near = at(place + up::<V>() * s::<V>(lift + 0.02 * k));
                    check_within_skin::<V>(&floor, &shape, &near, k, &label);
                    let far = at(place + up::<V>() * s::<V>(lift + 0.3 * k));
                    check_skin_stop::<V>(&floor, &shape, &far, k, &label);
                }
            }
        }
    }
}
for_each_vector!(skins_stop_short);

/// A mover 0.02·k above the floor with a skin of 0.05·k.
fn check_within_skin<V: Dim>(floor: &V::Any, shape: &V::Any, pose: &V::Pose, k: f64, label: &str)
where
    V::S: ConvexPart<V>,
{
    let options = mover::<V>(0.05 * k);
    for dir in sideways::<V>().into_iter().chain([up::<V>()]) {
        let hit = cast_mover(floor, shape, pose, dir * s::<V>(k), &options);
        assert!(
            hit.is_none(),
            "{label}: within skin, along {dir:?}: {hit:?}"
        );
    }
    let down = -up::<V>() * s::<V>(k);
    let hit = cast_mover(floor, shape, pose, down, &options);
    assert!(
        hit.is_some_and(|h| h.time == s::<V>(0.0)),
        "{label}: within skin, down: {hit:?}"
    );
    let d = hit.unwrap().depth.to_f64();
    assert!(
        (d + 0.02 * k).abs() <= 10.0 * tol::<V>() * k,
        "{label}: depth {d}"
    );
    let plain = cast_mover(
        floor,
        shape,
        pose,
        V::unit_axis(0) * s::<V>(k),
        &skinned::<V>(0.05 * k),
    );
    assert!(
        plain.is_some_and(|h| h.time == s::<V>(0.0)),
        "{label}: stop at penetration: {plain:?}"
    );
}

/// A mover 0.3·k above the floor with a skin of 0.05·k, cast and swept down.
fn check_skin_stop<V: Dim>(floor: &V::Any, shape: &V::Any, pose: &V::Pose, k: f64, label: &str)
where
    V::S: ConvexPart<V>,
{
    let skin = 0.05 * k;
    let options = mover::<V>(skin);
    let down = -up::<V>() * s::<V>(k);
    let tol_k = 10.0 * tol::<V>() * k;
    let id = V::Pose::IDENTITY;
    for (how, hit) in [
        ("cast", cast_mover(floor, shape, pose, down, &options)),
        (
            "sweep",
            sweep_mover(floor, shape, pose, down * s::<V>(1.0 / 1.4), &options),
        ),
    ] {
        let h = hit.unwrap_or_else(|| panic!("{label}: {how} down missed"));
        let moved = h.time.to_f64() * k;
        assert!(
            (moved - 0.25 * k).abs() <= tol_k,
            "{label}: {how} stopped after {moved}"
        );
        let pose_t = match how {
            "cast" => at(down * h.time).mul(pose),
            _ => mover_sweep::<V>(pose, down * s::<V>(1.0 / 1.4)).pose_at(h.time),
        };
        let gap = dispatch::distance(&id, floor, &pose_t, shape).to_f64();
        assert!((gap - skin).abs() <= tol_k, "{label}: {how} gap {gap}");
        assert!(
            (h.depth.to_f64() + skin).abs() <= tol_k,
            "{label}: {how} depth {:?}",
            h.depth
        );
        let apart = (h.point_b - h.point_a).dot(h.normal).to_f64();
        assert!(
            (apart - skin).abs() <= tol_k,
            "{label}: {how} witnesses {apart}"
        );
    }
    for dir in sideways::<V>() {
        let hit = cast_mover(floor, shape, pose, dir * s::<V>(k), &options);
        assert!(
            hit.is_none(),
            "{label}: beyond skin, along {dir:?}: {hit:?}"
        );
    }
}

/// Distance below which a pair counts as touching at a reported time, relative to
/// the kinds' size (about 1): GJK on curved kinds stops at a relative gap.
fn touch_tol<V: Vector>() -> f64 {
    if V::Scalar::EPSILON.to_f64() > 1e-10 {
        5e-3
    } else {
        5e-4
    }
}

/// The first of `SAMPLES + 1` evenly spaced times in `[0, 1]` where `touch` holds.
fn first_sample(mut touch: impl FnMut(f64) -> bool) -> Option<f64> {
    (0..=SAMPLES)
        .map(|i| i as f64 / SAMPLES as f64)
        .find(|&t| touch(t))
}

/// A random sweep starting near `from`: translation by up to `reach` towards the
/// origin plus noise, rotation by up to 1.5 rad.
fn random_sweep<V: Dim>(rng: &mut Rng, from: V, reach: f64) -> Sweep<V>
where
    V::S: ConvexPart<V>,
{
    let start = at(from).mul(&V::pose(rng, 0.3));
    let toward = -from.try_normalize().unwrap_or(V::ZERO) * s::<V>(rng.range(0.0, reach));
    let shift = toward + rand_vec::<V>(rng, 0.5);
    let end = at(shift).mul(&start.mul(&V::turn(rng, 1.5)));
    Sweep { start, end }
}

/// Checks one time of impact against the sampled motion.
fn check_toi<V: Dim>(sa: &Sweep<V>, a: &V::Any, sb: &Sweep<V>, b: &V::Any, label: &str) -> bool
where
    V::S: ConvexPart<V>,
{
    let hit = dispatch::time_of_impact(sa, a, sb, b);
    let pose = |t: f64| (sa.pose_at(s::<V>(t)), sb.pose_at(s::<V>(t)));
    let first = first_sample(|t| {
        let (pa, pb) = pose(t);
        dispatch::intersects(&pa, a, &pb, b)
    });
    if let Some(t) = first {
        let h = hit.unwrap_or_else(|| panic!("{label}: no impact, sampled touch at {t}"));
        assert!(
            h.time.to_f64() <= t + tol::<V>(),
            "{label}: impact {h:?} after {t}"
        );
    }
    let Some(h) = hit else {
        return false;
    };
    if h.status != isect::algo::gjk::Status::MaxIterations {
        let (pa, pb) = pose(h.time.to_f64());
        let gap = dispatch::distance(&pa, a, &pb, b).to_f64();
        assert!(gap <= touch_tol::<V>(), "{label}: gap {gap} at {h:?}");
    }
    true
}

/// Checks one linear cast with a skin against the sampled motion, and that a mover's
/// hit (which may skip grazes) is never earlier.
fn check_skin_cast<V: Dim>(sa: &Sweep<V>, a: &V::Any, sb: &Sweep<V>, b: &V::Any, label: &str)
where
    V::S: ConvexPart<V>,
{
    let skin = 0.1;
    let (va, vb) = (
        sa.end.translation() - sa.start.translation(),
        sb.end.translation() - sb.start.translation(),
    );
    let pose = |t: f64| {
        (
            at(va * s::<V>(t)).mul(&sa.start),
            at(vb * s::<V>(t)).mul(&sb.start),
        )
    };
    let gap_at = |t: f64| {
        let (pa, pb) = pose(t);
        dispatch::distance(&pa, a, &pb, b).to_f64()
    };
    let (pa, pb) = (&sa.start, &sb.start);
    let one = s::<V>(1.0);
    let hit = dispatch::cast_shapes_with(pa, va, a, pb, vb, b, one, &skinned::<V>(skin));
    if let Some(t) = first_sample(|t| gap_at(t) <= skin) {
        let h = hit.unwrap_or_else(|| panic!("{label}: no skin hit, sampled at {t}"));
        assert!(
            h.time.to_f64() <= t + tol::<V>(),
            "{label}: skin hit {h:?} after {t}"
        );
    }
    let Some(h) = hit else {
        return;
    };
    let gap = gap_at(h.time.to_f64());
    if h.time > s::<V>(0.0) {
        assert!(
            (gap - skin).abs() <= touch_tol::<V>(),
            "{label}: gap {gap} at {h:?}"
        );
    } else {
        assert!(
            gap <= skin + touch_tol::<V>(),
            "{label}: gap {gap} at time 0"
        );
    }
    if let Some(m) = dispatch::cast_shapes_with(pa, va, a, pb, vb, b, one, &mover::<V>(skin)) {
        assert!(
            m.time.to_f64() >= h.time.to_f64() - tol::<V>(),
            "{label}: mover {m:?} before {h:?}"
        );
    }
}

// Every ordered pair of kinds (convex, compound, mesh, heightfield; 2D concave
// polygon and polyline), random sweeps with rotation: the time of impact against
// the sampled motion, and the linear cast with a skin against sampled distances.
fn sweeps_match_brute_force<V: Dim>()
where
    V::S: ConvexPart<V>,
{
    let mut rng = Rng(0x7e57_0003);
    let kinds = V::kinds(&mut rng);
    let (mut hits, mut total) = (0, 0);
    for (na, a) in &kinds {
        for (nb, b) in &kinds {
            for i in 0..SWEEPS {
                let sa = random_sweep::<V>(&mut rng, V::ZERO, 0.0);
                let from = rand_unit::<V>(&mut rng) * s::<V>(2.5);
                let sb = random_sweep::<V>(&mut rng, from, 3.0);
                let label = format!("{na} vs {nb}, sweep {i}");
                hits += check_toi::<V>(&sa, a, &sb, b, &label) as usize;
                total += 1;
                check_skin_cast::<V>(&sa, a, &sb, b, &label);
            }
        }
    }
    assert_hit_rate(hits, total, "time of impact");
}
for_each_vector!(sweeps_match_brute_force);

// A ball at 10^4 sizes per unit time through a wall 10^-3 thick (a box) and one of
// no thickness (a mesh, a polyline): the cast hits at the wall, whatever the scale.
// A bar spinning 3 rad while crossing the same walls: the time of impact hits.
fn fast_motions_do_not_tunnel<V: Dim>()
where
    V::S: ConvexPart<V>,
{
    let mut rng = Rng(0x7e57_0004);
    for k in SCALES {
        for thickness in [1e-3 * k, 0.0] {
            let wall = V::wall(thickness, 2.0 * k);
            let id = V::Pose::IDENTITY;
            let ball = convex::<V>(V::S::from(Ball::new(V::ZERO, s::<V>(0.1 * k)).unwrap()));
            let start = at(vec::<V>(-3.0 * k, 0.3 * k, 0.1 * k));
            let vel = V::unit_axis(0) * s::<V>(1e4 * k);
            let hit = dispatch::cast_shapes(&id, V::ZERO, &wall, &start, vel, &ball, s::<V>(1.0));
            let h = hit.unwrap_or_else(|| panic!("k {k}, wall {thickness}: ball tunnelled"));
            let expected = (2.9 * k - 0.5 * thickness) / (1e4 * k);
            let err = (h.time.to_f64() - expected).abs() * 1e4;
            assert!(
                err <= 10.0 * tol::<V>(),
                "k {k}: ball hit at {:?}, expected {expected}",
                h.time
            );
            let bar = Capsule::new(
                vec(-0.5 * k, 0.0, 0.0),
                vec(0.5 * k, 0.0, 0.0),
                s::<V>(0.01 * k),
            );
            let bar = convex::<V>(V::capsule(bar.unwrap()));
            let from = at(vec::<V>(-3.0 * k, 0.3 * k, 0.0)).mul(&V::turn(&mut rng, 3.0));
            let end = at(vec::<V>(3.0 * k, -0.3 * k, 0.0)).mul(&V::turn(&mut rng, 3.0));
            let sweep = Sweep { start: from, end };
            let still = Sweep { start: id, end: id };
            let h = dispatch::time_of_impact(&still, &wall, &sweep, &bar);
            let h = h.unwrap_or_else(|| panic!("k {k}, wall {thickness}: bar tunnelled"));
            let gap = dispatch::distance(&id, &wall, &sweep.pose_at(h.time), &bar).to_f64();
            assert!(
                gap <= touch_tol::<V>() * k,
                "k {k}: bar {gap} away at {h:?}"
            );
        }
    }
}
for_each_vector!(fast_motions_do_not_tunnel);

// Grazing: a ball sliding along a box's top at exactly its height from afar meets
// the corner tangentially — a mover is not hit (the default cast is, at the corner);
// the same ball 5 % of its radius lower cuts the corner — a mover is hit there.
fn grazes_and_near_grazes<V: Dim>()
where
    V::S: ConvexPart<V>,
{
    for k in SCALES {
        let r = 0.5 * k;
        let cube = convex::<V>(V::cuboid(
            Aabb::from_center(V::ZERO, V::splat(s::<V>(k))).unwrap(),
        ));
        let ball = convex::<V>(V::S::from(Ball::new(V::ZERO, s::<V>(r)).unwrap()));
        let id = V::Pose::IDENTITY;
        let vel = V::unit_axis(0) * s::<V>(k);
        let cast = |y: f64, o: &ShapeCastOptions<V::Scalar>| {
            let pose = at(vec::<V>(-5.0 * k, y, 0.0));
            dispatch::cast_shapes_with(&id, V::ZERO, &cube, &pose, vel, &ball, s::<V>(10.0), o)
        };
        let plain = ShapeCastOptions::default();
        let tangent = k + r;
        assert!(
            cast(tangent, &mover::<V>(0.0)).is_none(),
            "k {k}: graze hit a mover"
        );
        let h = cast(tangent, &plain)
            .unwrap_or_else(|| panic!("k {k}: default cast missed the corner"));
        assert!(
            (h.time.to_f64() - 4.0).abs() <= 10.0 * tol::<V>(),
            "k {k}: corner at {h:?}"
        );
        let cut = cast(tangent - 0.05 * r, &mover::<V>(0.0));
        let expected = 4.0 - (1.0 - 0.95f64 * 0.95).sqrt() * 0.5;
        let h = cut.unwrap_or_else(|| panic!("k {k}: near graze missed"));
        assert!(
            (h.time.to_f64() - expected).abs() <= 10.0 * tol::<V>(),
            "k {k}: cut at {h:?}"
        );
    }
}
for_each_vector!(grazes_and_near_grazes);

// Bad input on every pair of kinds: NaN and infinite velocities and sweeps, and
// negative, NaN and infinite skins give None; the options' constructor names the
// field. A zero-length cast: overlapping shapes hit at time 0 by default, not as a
// mover; apart, no hit.
fn bad_input_gives_none<V: Dim>()
where
    V::S: ConvexPart<V>,
{
    let mut rng = Rng(0x7e57_0005);
    let kinds = V::kinds(&mut rng);
    let nan = s::<V>(f64::NAN);
    let inf = s::<V>(f64::INFINITY);
    let bad_skins = [-1.0, f64::NAN, f64::INFINITY].map(|x| ShapeCastOptions {
        target_distance: s::<V>(x),
        stop_at_penetration: false,
    });
    let bad_vels = [V::splat(nan), V::unit_axis(0) * inf];
    let one = s::<V>(1.0);
    for (na, a) in &kinds {
        for (nb, b) in &kinds {
            let (pa, pb) = (V::pose(&mut rng, 0.5), V::pose(&mut rng, 0.5));
            let good = V::unit_axis(0);
            for o in [ShapeCastOptions::default(), mover::<V>(0.1)] {
                for v in bad_vels {
                    assert!(
                        dispatch::cast_shapes_with(&pa, v, a, &pb, good, b, one, &o).is_none(),
                        "{na}/{nb}"
                    );
                    let sweep = Sweep {
                        start: pb,
                        end: at(v).mul(&pb),
                    };
                    let still = Sweep { start: pa, end: pa };
                    assert!(
                        dispatch::time_of_impact_with(&still, a, &sweep, b, &o).is_none(),
                        "{na}/{nb}"
                    );
                }
            }
            for o in &bad_skins {
                assert!(
                    dispatch::cast_shapes_with(&pa, good, a, &pb, V::ZERO, b, one, o).is_none()
                );
                let sweep = Sweep { start: pb, end: pb };
                assert!(dispatch::time_of_impact_with(&sweep, a, &sweep, b, o).is_none());
            }
            let overlapping = dispatch::intersects(&pa, a, &pb, b);
            let still = dispatch::cast_shapes(&pa, V::ZERO, a, &pb, V::ZERO, b, one);
            assert_eq!(still.is_some(), overlapping, "{na}/{nb}: zero-length cast");
            let o = mover::<V>(0.0);
            assert!(
                dispatch::cast_shapes_with(&pa, V::ZERO, a, &pb, V::ZERO, b, one, &o).is_none()
            );
        }
    }
    let err = ShapeCastOptions::<V::Scalar>::new(s::<V>(-1.0), false).unwrap_err();
    let named = ShapeError::Negative {
        shape: "ShapeCastOptions",
        field: "target_distance",
        value: -1.0,
    };
    assert_eq!(err, named);
    assert!(matches!(
        ShapeCastOptions::<V::Scalar>::mover(nan),
        Err(ShapeError::NotFinite { .. })
    ));
}
for_each_vector!(bad_input_gives_none);

/// The first time after 0 at which the ray leaves the shape: the first of 1024 steps
/// up to `reach` outside, refined by bisection; `None` when it never leaves.
fn sampled_exit<V: Dim>(shape: &V::Any, pose: &V::Pose, ray: &Ray<V>, reach: f64) -> Option<f64>
where
    V::S: ConvexPart<V>,
{
    let inside = |t: f64| shape.contains_point(pose, ray.origin + ray.dir * s::<V>(t));
    let steps = 1024;
    let k = (1..=steps).find(|&k| !inside(reach * k as f64 / steps as f64))?;
    let (mut lo, mut hi) = (
        reach * (k - 1) as f64 / steps as f64,
        reach * k as f64 / steps as f64,
    );
    for _ in 0..40 {
        let mid = 0.5 * (lo + hi);
        if inside(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

// Rays with the `solid` switch on every kind with an interior (convex solids,
// compound, concave polygon, solid mesh) from random inside origins: `solid = true`
// is the plain posed cast (t = 0, zero normal); `solid = false` hits where the ray
// leaves, at the sampled exit (a compound: no later than its union's exit, on a
// part's boundary), with a unit normal facing the ray; beyond `max_t` no hit. From
// outside both switches agree.
fn rays_leave_when_not_solid<V: Dim>()
where
    V::S: ConvexPart<V>,
{
    let mut rng = Rng(0x7e57_0006);
    let mut kinds = V::kinds(&mut rng);
    kinds.extend(V::solid_kinds());
    let mut checked = 0;
    for (name, shape) in &kinds {
        let pose = V::pose(&mut rng, 1.0);
        for _ in 0..300 {
            let origin = pose.transform_point(rand_vec::<V>(&mut rng, 0.5));
            let ray = Ray::new(
                origin,
                rand_unit::<V>(&mut rng) * s::<V>(rng.range(0.5, 2.0)),
            )
            .unwrap();
            let big = s::<V>(100.0);
            let solid = shape.cast_ray_solid(&pose, &ray, big, true);
            assert_eq!(
                solid,
                shape.cast_ray_posed(&pose, &ray, big),
                "{name}: solid switch"
            );
            let open = shape.cast_ray_solid(&pose, &ray, big, false);
            if !shape.contains_point(&pose, origin) || solid.is_some_and(|h| h.normal != V::ZERO) {
                if solid.is_some_and(|h| h.normal != V::ZERO) || V::convex_name(name) {
                    assert_eq!(open, solid, "{name}: from outside");
                }
                continue;
            }
            let exit = sampled_exit::<V>(shape, &pose, &ray, 10.0);
            let h = open.unwrap_or_else(|| panic!("{name}: no exit of {ray:?}"));
            let scale = ray.dir.length().to_f64();
            let tol_t = 20.0 * tol::<V>() / scale;
            match exit {
                Some(e) if name == "Compound" => {
                    assert!(h.t.to_f64() <= e + tol_t, "{name}: {h:?} after {e}")
                }
                Some(e) => assert!((h.t.to_f64() - e).abs() <= tol_t, "{name}: {h:?}, exit {e}"),
                None => panic!("{name}: the sampled ray never leaves"),
            }
            let n = h.normal;
            assert!(
                (n.length().to_f64() - 1.0).abs() < 1e-3 && n.dot(ray.dir) <= s::<V>(0.0),
                "{name}: {h:?}"
            );
            let short = shape.cast_ray_solid(&pose, &ray, h.t * s::<V>(0.99), false);
            assert!(
                short.is_none() || name == "Compound",
                "{name}: {short:?} before the exit"
            );
            checked += 1;
        }
    }
    assert!(checked > 200, "only {checked} inside rays");
}
for_each_vector!(rays_leave_when_not_solid);
