//! Shape casts are as accurate at every size (issue 18, item A): the time of impact of
//! `cast_shapes` and `time_of_impact` is checked against exact answers for shapes from
//! 1e-3 to 1e5 across, in 2D and 3D, `f32` and `f64`, through the dispatch of the
//! convex enums and of `AnyShape` (composite targets):
//!
//! - movers (ball, box, capsule, polygon / polyhedron) falling along the up axis, or
//!   obliquely, onto the flat top of a box whose lateral extent is unrelated to theirs
//!   (big flat boxes and small movers, small boxes and big movers): the exact time is
//!   the gap over the speed;
//! - two balls on random paths: the exact time solves the quadratic of seed 002;
//! - rotating sweeps whose rotation keeps the touching faces level (a box spinning about
//!   the up axis, a spinning ball, a level capsule spinning about the up axis);
//! - a flat mesh, and a compound of flat boxes, as targets.
//!
//! The bound ([`isect::query::cast_shapes::CAST_GAP_ULPS`]): the time error times the
//! approach speed is at most `CAST_GAP_ULPS · ε` times the reach of the touching
//! points along the normal (their coordinates along it, the motion's length and the
//! gap), never the shapes' lateral size. The test allows [`SLACK`] times that.
//!
//! Last, the invariant "the cast time agrees with sampling of the motion" on seeded
//! random shapes of every kind, at every scale: no touch at sampled earlier times, and
//! touching at the reported time, within the bound.

mod world_common;

use isect::algo::gjk::Status;
use isect::algo::support::SupportMap;
use isect::math::{Isometry, Real, Vector};
use isect::query::cast_shapes::{Sweep, CAST_GAP_ULPS, CAST_REL_FLOOR};
use isect::query::{dispatch, time_of_impact};
use isect::shape::{Aabb, Ball, Capsule};
use world_common::{Rng, TestDim};

/// The tests allow this many times the documented bound (rounding of the test's own
/// set-up: poses composed in the working precision).
const SLACK: f64 = 4.0;
/// Random cases per vector type and family.
const CASES: usize = 2_000;

/// `10^u`, `u` uniform in `[lo, hi]`: sizes spread over decades.
fn decades(rng: &mut Rng, lo: f64, hi: f64) -> f64 {
    10f64.powf(rng.range(lo, hi))
}

fn eps<V: Vector>() -> f64 {
    V::Scalar::EPSILON.to_f64()
}

/// The documented bound on `|Δt| · speed` for a reach `reach` along the normal.
fn bound<V: Vector>(reach: f64) -> f64 {
    SLACK * CAST_GAP_ULPS * eps::<V>() * reach
}

/// The shapes of the tests: the convex enum's movers and a target of the up axis.
trait ScaleDim: TestDim {
    /// A box shape of half extents `half` centred at the local origin, as a polygon /
    /// polyhedron (the hull of its corners).
    fn polytope(half: Self) -> Self::S;
    /// A capsule shape.
    fn capsule(c: Capsule<Self>) -> Self::S;
    /// A rotation by `angle` about the up axis (the last one), translation `t`.
    fn spin_up(t: Self, angle: f64) -> Self::Pose;
    /// The dimension's `AnyShape`.
    type Any: isect::query::dispatch::DispatchShape<Self> + From<Self::S> + std::fmt::Debug;
    /// A composite whose top is flat at height `thick` over `[-wide, wide]` laterally:
    /// kind 0 a compound of three flat boxes side by side, kind 1 a flat mesh (3D) or
    /// polyline (2D).
    fn ground(kind: usize, wide: Self::Scalar, thick: Self::Scalar) -> Self::Any;
}

/// Three boxes of half extents `half` (lateral extent a third of the ground's) side
/// by side along the first axis, as compound parts.
fn three_boxes<V: ScaleDim>(half: V) -> Vec<(V::Pose, V::S)> {
    let third = half.with(0, half.get(0) / s::<V>(3.0));
    let step = third.get(0) * s::<V>(2.0);
    [-1.0, 0.0, 1.0]
        .map(|k| {
            let at = V::ZERO.with(0, step * s::<V>(k));
            let part = V::cuboid(Aabb::from_center(V::ZERO, third).unwrap());
            (V::Pose::from_translation(at), part)
        })
        .into()
}

macro_rules! scale_dim {
    ($v:ty, $r:ty, 2) => {
        impl ScaleDim for $v {
            fn polytope(half: Self) -> Self::S {
                let pts = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                    .map(|(x, y)| half * <$v>::new(x, y));
                isect::shape::ConvexPolygon::new(&pts).unwrap().into()
            }
            fn capsule(c: Capsule<Self>) -> Self::S {
                c.into()
            }
            fn spin_up(t: Self, _angle: f64) -> Self::Pose {
                // In 2D no rotation keeps a level edge level but the identity.
                isect::math::Pose2::from_translation(t)
            }
            type Any = isect::shape::shape_2d::AnyShape<$r>;
            fn ground(kind: usize, wide: $r, thick: $r) -> Self::Any {
                if kind == 0 {
                    let parts = three_boxes::<Self>(<$v>::new(wide, thick));
                    isect::shape::Compound::new(parts).unwrap().into()
                } else {
                    let line = vec![<$v>::new(-wide, thick), <$v>::new(wide, thick)];
                    isect::shape::Polyline::new(line, false).unwrap().into()
                }
            }
        }
    };
    ($v:ty, $r:ty, 3) => {
        impl ScaleDim for $v {
            fn polytope(half: Self) -> Self::S {
                let mut pts = Vec::new();
                for k in 0..8 {
                    let s = |b: usize| if k >> b & 1 == 1 { 1.0 } else { -1.0 };
                    pts.push(half * <$v>::new(s(0), s(1), s(2)));
                }
                isect::shape::ConvexPolyhedron::from_points(&pts)
                    .unwrap()
                    .into()
            }
            fn capsule(c: Capsule<Self>) -> Self::S {
                c.into()
            }
            fn spin_up(t: Self, angle: f64) -> Self::Pose {
                isect::math::Pose3::new(t, <$v as QuatOf>::Q::from_rotation_z(angle as $r))
            }
            type Any = isect::shape::shape_3d::AnyShape<$r>;
            fn ground(kind: usize, wide: $r, thick: $r) -> Self::Any {
                if kind == 0 {
                    let parts = three_boxes::<Self>(<$v>::new(wide, wide, thick));
                    isect::shape::Compound::new(parts).unwrap().into()
                } else {
                    let c = |x: $r, y: $r| <$v>::new(x * wide, y * wide, thick);
                    let v = vec![c(-1.0, -1.0), c(1.0, -1.0), c(1.0, 1.0), c(-1.0, 1.0)];
                    let flags = isect::shape::TriMeshFlags::OPEN;
                    isect::shape::TriMesh::new(v, vec![[0, 1, 2], [0, 2, 3]], flags)
                        .unwrap()
                        .into()
                }
            }
        }
    };
}

/// The quaternion type of a 3D vector type.
trait QuatOf {
    type Q;
}
impl QuatOf for glam::Vec3 {
    type Q = glam::Quat;
}
impl QuatOf for glam::DVec3 {
    type Q = glam::DQuat;
}

scale_dim!(glam::Vec2, f32, 2);
scale_dim!(glam::DVec2, f64, 2);
scale_dim!(glam::Vec3, f32, 3);
scale_dim!(glam::DVec3, f64, 3);

fn s<V: Vector>(x: f64) -> V::Scalar {
    V::Scalar::from_f64(x)
}

fn f<R: Real>(x: R) -> f64 {
    x.to_f64()
}

/// The up axis (the last one) times `x`.
fn up<V: Vector>(x: f64) -> V {
    V::ZERO.with(V::DIM - 1, s::<V>(x))
}

/// A lateral vector (up component zero) with components uniform in `[-half, half]`.
fn lateral<V: Vector>(rng: &mut Rng, half: f64) -> V {
    (0..V::DIM - 1).fold(V::ZERO, |v, i| v.with(i, s::<V>(rng.range(-half, half))))
}

/// A mover of one of four kinds, about `size` across, centred at its local origin,
/// with its half extent along the up axis (exact in the working precision).
fn mover<V: ScaleDim>(kind: usize, rng: &mut Rng, size: f64) -> (V::S, f64) {
    let h = size * rng.range(0.2, 0.5);
    let half = (0..V::DIM).fold(V::ZERO, |v, i| {
        v.with(i, s::<V>(size * rng.range(0.2, 0.5)))
    });
    match kind {
        0 => (Ball::new(V::ZERO, s::<V>(h)).unwrap().into(), f(s::<V>(h))),
        1 => (
            V::cuboid(Aabb::from_center(V::ZERO, half).unwrap()),
            f(half.get(V::DIM - 1)),
        ),
        2 => {
            // A level capsule: its lowest points are its radius below its axis.
            let r = s::<V>(h * 0.5);
            let end = V::ZERO.with(0, s::<V>(size * 0.5));
            (V::capsule(Capsule::new(-end, end, r).unwrap()), f(r))
        }
        _ => (V::polytope(half), f(half.get(V::DIM - 1))),
    }
}

/// One flat-face case: a target box (lateral half extent `wide`, half height
/// `thick`) at a lateral offset, a mover above it at `gap`, moving down at `speed`
/// with a lateral drift that keeps it over the face.
struct FlatCase<V: ScaleDim> {
    target: V::S,
    pose_a: V::Pose,
    mover: V::S,
    pose_b: V::Pose,
    vel: V,
    /// The exact time of impact (`gap / speed`, possibly beyond 1).
    exact: f64,
    /// What the up coordinates of the touching points reach, plus the motion.
    reach: f64,
    speed: f64,
}

fn flat_case<V: ScaleDim>(rng: &mut Rng, oblique: bool) -> FlatCase<V> {
    let wide = decades(rng, -3.0, 5.0);
    let size = decades(rng, -3.0, 5.0).min(wide);
    let thick = s::<V>(wide.min(size) * rng.range(0.1, 1.0));
    let half = V::splat(s::<V>(wide)).with(V::DIM - 1, thick);
    let target = V::cuboid(Aabb::from_center(V::ZERO, half).unwrap());
    let (m, down) = mover::<V>(rng.below(4), rng, size);
    let base: V = lateral::<V>(rng, wide * 3.0) + up::<V>(rng.range(-2.0, 2.0) * f(thick));
    let pose_a = V::Pose::from_translation(base);
    // The mover's centre stays within half the face's lateral extent of its centre.
    let over = lateral::<V>(rng, (wide - size).max(0.0) * 0.5);
    let height = f(base.get(V::DIM - 1)) + f(thick) + down + size * rng.range(0.01, 2.0);
    let centre = (base + over).with(V::DIM - 1, s::<V>(height));
    let pose_b = V::Pose::from_translation(centre);
    // The exact gap of the rounded inputs (in A's frame the top is at `thick`).
    let rise = f(centre.get(V::DIM - 1)) - f(base.get(V::DIM - 1));
    let gap = rise - f(thick) - down;
    let speed = s::<V>(gap / rng.range(0.1, 1.8));
    let drift = if oblique {
        lateral::<V>(rng, (wide - size).max(0.0) * 0.3)
    } else {
        V::ZERO
    };
    let vel = drift.with(V::DIM - 1, -speed);
    let speed = f(speed);
    let reach = f(base.get(V::DIM - 1)).abs() + rise.abs() + f(thick) + down + speed + gap;
    FlatCase {
        target,
        pose_a,
        mover: m,
        pose_b,
        vel,
        exact: gap / speed,
        reach,
        speed,
    }
}

/// Checks one cast against its exact time; returns whether it hit.
fn check_time<V: ScaleDim>(what: &str, t: Option<f64>, exact: f64, speed: f64, reach: f64) -> bool {
    let tol = bound::<V>(reach) / speed;
    match t {
        Some(t) => {
            assert!(
                (t - exact).abs() <= tol,
                "{what}: time {t} vs exact {exact} (error {:e} > {tol:e})",
                (t - exact).abs()
            );
            true
        }
        None => {
            assert!(exact > 1.0 - tol, "{what}: no hit, exact {exact}");
            false
        }
    }
}

// Movers falling straight down onto the flat top of a box of any lateral size.
fn flat_face_cast<V: ScaleDim>(seed: u64, oblique: bool) {
    let mut rng = Rng(seed);
    let mut hits = 0;
    for i in 0..CASES {
        let c = flat_case::<V>(&mut rng, oblique);
        let hit = dispatch::cast_shapes(
            &c.pose_a,
            V::ZERO,
            &c.target,
            &c.pose_b,
            c.vel,
            &c.mover,
            s::<V>(1.0),
        );
        let what = format!(
            "case {i}: {:?} at {:?} / {:?} at {:?} v {:?}",
            c.target, c.pose_a, c.mover, c.pose_b, c.vel
        );
        if let Some(h) = hit {
            assert_ne!(h.status, Status::Degenerate, "{what}");
        }
        hits += usize::from(check_time::<V>(
            &what,
            hit.map(|h| f(h.time)),
            c.exact,
            c.speed,
            c.reach,
        ));
        // Swapped: A moves up into B.
        let back = dispatch::cast_shapes(
            &c.pose_b,
            V::ZERO,
            &c.mover,
            &c.pose_a,
            -c.vel,
            &c.target,
            s::<V>(1.0),
        );
        check_time::<V>(
            &format!("swapped {what}"),
            back.map(|h| f(h.time)),
            c.exact,
            c.speed,
            c.reach,
        );
    }
    world_common::assert_hit_rate(hits, CASES, "flat-face casts");
}

macro_rules! for_types {
    ($body:ident, $($name:ident: $v:ty, $seed:expr;)+) => {
        $(
            #[test]
            fn $name() {
                $body::<$v>($seed);
            }
        )+
    };
}

fn straight<V: ScaleDim>(seed: u64) {
    flat_face_cast::<V>(seed, false);
}
fn oblique<V: ScaleDim>(seed: u64) {
    flat_face_cast::<V>(seed, true);
}

for_types!(straight,
    flat_face_straight_2d_f32: glam::Vec2, 1;
    flat_face_straight_2d_f64: glam::DVec2, 2;
    flat_face_straight_3d_f32: glam::Vec3, 3;
    flat_face_straight_3d_f64: glam::DVec3, 4;
);
for_types!(oblique,
    flat_face_oblique_2d_f32: glam::Vec2, 5;
    flat_face_oblique_2d_f64: glam::DVec2, 6;
    flat_face_oblique_3d_f32: glam::Vec3, 7;
    flat_face_oblique_3d_f64: glam::DVec3, 8;
);

// The same falls onto composites with the same flat top (a compound of three flat
// boxes, a flat mesh in 3D or polyline in 2D), through `AnyShape`'s dispatch.
fn composite_ground<V: ScaleDim>(seed: u64) {
    let mut rng = Rng(seed);
    let mut hits = 0;
    for i in 0..CASES {
        let c = flat_case::<V>(&mut rng, true);
        let top = c.target.local_support(up::<V>(1.0));
        let wide = c.target.local_support(V::ZERO.with(0, s::<V>(1.0))).get(0);
        let ground = V::ground(i % 2, wide, top.get(V::DIM - 1));
        let mover = V::Any::from(c.mover);
        let zero = V::ZERO;
        let one = s::<V>(1.0);
        let hit = dispatch::cast_shapes(&c.pose_a, zero, &ground, &c.pose_b, c.vel, &mover, one);
        let what = format!(
            "case {i}: {ground:?} at {:?} / {mover:?} at {:?} v {:?}",
            c.pose_a, c.pose_b, c.vel
        );
        hits += usize::from(check_time::<V>(
            &what,
            hit.map(|h| f(h.time)),
            c.exact,
            c.speed,
            c.reach,
        ));
        let back = dispatch::cast_shapes(&c.pose_b, zero, &mover, &c.pose_a, -c.vel, &ground, one);
        check_time::<V>(
            &format!("swapped {what}"),
            back.map(|h| f(h.time)),
            c.exact,
            c.speed,
            c.reach,
        );
    }
    world_common::assert_hit_rate(hits, CASES, "casts onto composites");
}

for_types!(composite_ground,
    composite_ground_2d_f32: glam::Vec2, 31;
    composite_ground_2d_f64: glam::DVec2, 32;
    composite_ground_3d_f32: glam::Vec3, 33;
    composite_ground_3d_f64: glam::DVec3, 34;
);

// The same falls with `time_of_impact`: the target box spins about the up axis (by an
// angle that moves its rim about as far as the mover falls, so that conservative
// advancement's speed bound stays useful) and the mover spins where that keeps its
// lowest points level (a ball about any axis; a box, capsule or polytope about the up
// axis), so the exact time is the straight fall's.
fn rotating_flat<V: ScaleDim>(seed: u64) {
    let mut rng = Rng(seed);
    let (mut hits, mut capped) = (0, 0);
    for i in 0..CASES {
        let c = flat_case::<V>(&mut rng, false);
        let rim = f(c.pose_a.translation().length()) + c.reach;
        let spin_a = rng.range(-1.0, 1.0) * (c.speed / rim).min(1.5);
        let sa = Sweep {
            start: c.pose_a,
            end: V::spin_up(c.pose_a.translation(), spin_a),
        };
        let sb = Sweep {
            start: c.pose_b,
            end: V::spin_up(c.pose_b.translation() + c.vel, rng.range(-1.5, 1.5)),
        };
        let hit = time_of_impact(&sa, &c.target, &sb, &c.mover);
        let what = format!("case {i}: {:?} {sa:?} / {:?} {sb:?}", c.target, c.mover);
        if let Some(h) = hit.filter(|h| h.status == Status::MaxIterations) {
            // At the cap the time is a lower bound.
            assert!(
                f(h.time) <= c.exact + bound::<V>(c.reach) / c.speed,
                "{what}"
            );
            capped += 1;
            continue;
        }
        let t = hit.map(|h| f(h.time));
        hits += usize::from(check_time::<V>(&what, t, c.exact, c.speed, c.reach));
    }
    assert!(
        capped * 10 <= CASES,
        "{capped} sweeps reached the iteration cap"
    );
    world_common::assert_hit_rate(hits, CASES, "rotating flat-face sweeps");
}

for_types!(rotating_flat,
    rotating_flat_2d_f32: glam::Vec2, 11;
    rotating_flat_2d_f64: glam::DVec2, 12;
    rotating_flat_3d_f32: glam::Vec3, 13;
    rotating_flat_3d_f64: glam::DVec3, 14;
);

/// Seed 002's moving spheres in f64: the first `t ≥ 0` with `|e + t d| = radius`.
fn sphere_toi(e: [f64; 3], d: [f64; 3], radius: f64) -> Option<f64> {
    let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let (a, b, c) = (dot(d, d), dot(e, d), dot(e, e) - radius * radius);
    let disc = b * b - a * c;
    if a == 0.0 || disc < 0.0 || b >= 0.0 {
        return None;
    }
    // The stable root: c / q with q = −b + √disc (no cancellation).
    Some(c / (-b + disc.sqrt()))
}

fn to3<V: Vector>(v: V) -> [f64; 3] {
    let mut out = [0.0; 3];
    for (i, o) in out.iter_mut().enumerate().take(V::DIM) {
        *o = f(v.get(i));
    }
    out
}

// Two balls of independent sizes (1e-3 to 1e5) on random paths towards each other; the
// time error is bounded over the approach speed along the normal at the impact.
fn ball_ball<V: ScaleDim>(seed: u64) {
    let mut rng = Rng(seed);
    let mut hits = 0;
    for i in 0..CASES {
        let (ra, rb) = (decades(&mut rng, -3.0, 5.0), decades(&mut rng, -3.0, 5.0));
        let a: V::S = Ball::new(V::ZERO, s::<V>(ra)).unwrap().into();
        let b: V::S = Ball::new(V::ZERO, s::<V>(rb)).unwrap().into();
        let (ra, rb) = (f(s::<V>(ra)), f(s::<V>(rb)));
        let dir: V = world_common::rand_unit(&mut rng);
        let gap = ra.min(rb) * rng.range(0.01, 2.0);
        let pa = V::Pose::from_translation(world_common::rand_vec(&mut rng, ra + rb));
        let pb = V::Pose::from_translation(pa.translation() + dir * s::<V>(ra + rb + gap));
        // Aimed at A's centre, off by up to the summed radius: about half hit.
        let e = pb.translation() - pa.translation();
        let aim = -e + world_common::rand_vec::<V>(&mut rng, (ra + rb) * 1.1);
        let vel = aim * s::<V>(gap / f(e.length()) / rng.range(0.1, 1.4));
        let (e3, v3) = (to3(e), to3(vel));
        let exact = sphere_toi(e3, v3, ra + rb);
        let hit = dispatch::cast_shapes(&pa, V::ZERO, &a, &pb, vel, &b, s::<V>(1.0));
        let reach = ra + rb + f(e.length()) + f(vel.length());
        let slack = bound::<V>(reach);
        let what = format!("case {i}: r {ra} {rb} e {e:?} v {vel:?}: {hit:?}");
        match (hit, exact.filter(|&t| t <= 1.0)) {
            (Some(h), Some(t)) => {
                hits += 1;
                let n = to3(e + vel * s::<V>(t));
                let len = n.iter().map(|x| x * x).sum::<f64>().sqrt();
                let speed = -(0..3).map(|k| n[k] * v3[k]).sum::<f64>() / len;
                assert!(
                    (f(h.time) - t).abs() * speed <= slack,
                    "{what}: time {} vs exact {t}",
                    f(h.time)
                );
            }
            (None, None) => {}
            // Only a grazing pass (within the bound of touching) or an impact at the
            // end of the motion may go either way.
            (h, _) => {
                let near_end = exact.is_some_and(|t| (t - 1.0).abs() * f(vel.length()) <= slack);
                let touching_at_start = f(e.length()) - (ra + rb) <= slack;
                let grazing = sphere_toi(e3, v3, ra + rb + slack).map(|t| t <= 1.0)
                    != sphere_toi(e3, v3, ra + rb - slack).map(|t| t <= 1.0);
                assert!(
                    near_end || grazing || touching_at_start,
                    "{what}: exact {exact:?}"
                );
                hits += usize::from(h.is_some());
            }
        }
    }
    world_common::assert_hit_rate(hits, CASES, "ball-ball casts");
}

for_types!(ball_ball,
    ball_ball_2d_f32: glam::Vec2, 21;
    ball_ball_2d_f64: glam::DVec2, 22;
    ball_ball_3d_f32: glam::Vec3, 23;
    ball_ball_3d_f64: glam::DVec3, 24;
);

/// Samples of the motion before the reported time of impact.
const SAMPLES: usize = 48;
/// The sampling check's relative tolerance when a shape has a curved core (3D
/// cylinder, cone): GJK's direction and distance stagnate there (see `GJK_REL_ULPS`).
const CURVED_REL: f64 = 1e-5;

/// The sampling check's tolerance on gaps and depths, relative to the scene's reach:
/// the cast's bound for rotated faces (`CAST_GAP_ULPS · ε` of the shapes' size, their
/// vertices' own rounding), floored by GJK's resolution on curved cores (cylinders,
/// cones), where its direction and distance stagnate near `1e-11` of the size in
/// `f64` (see `GJK_REL_ULPS`; `CAST_REL_FLOOR` is that floor with margin).
fn sample_tol<V: Vector>() -> f64 {
    (SLACK * CAST_GAP_ULPS * 64.0 * eps::<V>()).max(CAST_REL_FLOOR)
}

// The invariant "the cast time agrees with sampling of the motion", at every scale:
// random shapes of every kind of the convex enum, all scaled by one factor from 1e-3
// to 1e5, at random poses; B moves towards A. At no sampled time before the reported
// one do the shapes penetrate by more than the tolerance, and at the reported time
// they touch within it (`distance`); a miss never penetrates either.
fn sampling_agrees<V: ScaleDim>(seed: u64) {
    let mut rng = Rng(seed);
    let (mut hits, cases) = (0, CASES / 2);
    for i in 0..cases {
        let scale = decades(&mut rng, -3.0, 5.0);
        let (ka, kb) = (rng.below(V::KINDS), rng.below(V::KINDS));
        let a = V::shape(ka, &mut rng, scale);
        let b = V::shape(kb, &mut rng, scale);
        let pa = V::pose(&mut rng, 0.5 * scale);
        let pb = V::pose(&mut rng, 0.5 * scale);
        let away: V = world_common::rand_unit(&mut rng);
        let start = V::Pose::from_translation(away * s::<V>(3.0 * scale)).mul(&pb);
        let vel = pa.translation() - start.translation()
            + world_common::rand_vec::<V>(&mut rng, 1.5 * scale);
        let hit = dispatch::cast_shapes(&pa, V::ZERO, &a, &start, vel, &b, s::<V>(1.0));
        let at = |t: f64| V::Pose::from_translation(vel * s::<V>(t)).mul(&start);
        // GJK on curved cores (3D cylinder and cone, kinds 6 and 7) stagnates far
        // sooner: `gjk_cast.rs::curved_casts_converge` allows `CURVED_REL` of the size.
        let curved = V::DIM == 3 && [ka, kb].iter().any(|k| (6..=7).contains(k));
        let rel = if curved {
            CURVED_REL.max(sample_tol::<V>())
        } else {
            sample_tol::<V>()
        };
        let tol = rel * (8.0 * scale + f(vel.length()));
        let what = format!("case {i}: {hit:?}: {a:?} at {pa:?} / {b:?} from {start:?} v {vel:?}");
        let end = hit.map_or(1.0, |h| f(h.time));
        for k in 0..SAMPLES {
            let t = end * k as f64 / SAMPLES as f64;
            let depth = dispatch::contact(&pa, &a, &at(t), &b, V::Scalar::ZERO)
                .map_or(f64::NEG_INFINITY, |c| f(c.depth));
            assert!(depth <= tol, "{what}: penetrates {depth} at {t}");
        }
        if let Some(h) = hit {
            hits += 1;
            let d = f(dispatch::distance(&pa, &a, &at(f(h.time)), &b));
            assert!(d <= tol, "{what}: apart ({d}) at the time of impact");
        }
    }
    assert!(hits * 5 >= cases, "only {hits} hits of {cases}");
}

for_types!(sampling_agrees,
    sampling_agrees_2d_f32: glam::Vec2, 41;
    sampling_agrees_2d_f64: glam::DVec2, 42;
    sampling_agrees_3d_f32: glam::Vec3, 43;
    sampling_agrees_3d_f64: glam::DVec3, 44;
);
