//! Fuzz-case drivers shared by the cargo-fuzz targets (`fuzz/fuzz_targets/*.rs`) and
//! the seeded sweep of the test suite (`tests/sweep.rs`): each driver decodes a stream
//! of random words into shapes, poses, rays and values — `f32` or `f64`, 2D or 3D,
//! with NaN, ±infinity, subnormals, huge and tiny magnitudes injected often — runs one
//! query family and panics when an output breaks its contract:
//!
//! - no panic and no hang (iteration counts within the named caps);
//! - non-finite input gives the documented answer (`None`, `false`, NaN, `Err`);
//! - finite, *tame* input (every coordinate zero or between [`TINY_F32`] /
//!   [`TINY_F64`] and [`TAME`] in magnitude, so no product overflows) gives finite output: hits with `t ∈ [0, max_t]` and unit or
//!   zero normals, distances `≥ 0`, contacts with unit normals, casts in `[0, max_t]`;
//! - constructors refuse non-finite values; hulls keep every input point; broad-phase
//!   structures validate and answer as a brute-force scan does.
//!
//! Adding a family: one variant of [`Target`], one `fn` driving it, one line in
//! [`drive_in`] and one fuzz target file calling [`drive`].
// `!(x < 0)` is deliberate: it accepts NaN, which is a documented answer here.
#![allow(dead_code, clippy::neg_cmp_op_on_partial_ord)]

use isect::algo::epa::EPA_MAX_ITERATIONS;
use isect::algo::gjk::{GjkVector, GJK_MAX_ITERATIONS};
use isect::algo::hull_2d::convex_hull_2d;
use isect::algo::hull_3d::convex_hull_3d;
use isect::algo::support::SupportMap;
use isect::broad::{Bvh, DynamicTree, ProxyId, SweepAndPrune};
use isect::math::{Isometry, Pose2, Pose3, Real, Rot2, Rotation3, Vector, Vector2};
use isect::query::cast_shapes::{CAST_MAX_ITERATIONS, TOI_MAX_ITERATIONS};
use isect::query::composite as composite_q;
use isect::query::dispatch::{self, DispatchShape};
use isect::query::manifold::MAX_MANIFOLD_POINTS;
use isect::query::{self, Contact, Manifold, ProjectPoint, RayCast, ShapeCastHit, Sweep};
use isect::shape::{heightfield_2d, heightfield_3d};
use isect::shape::{obb_2d, obb_3d, shape_2d, shape_3d, Plane, RayHit};
use isect::shape::{Aabb, Ball, Capsule, Cone, ConvexPolygon, ConvexPolyhedron, Cylinder};
use isect::shape::{Composite, HalfSpace, Ray, Rounded, Sector, Segment, Triangle};
use isect::shape::{Compound, ConcavePolygon, Polyline, ShapeError, TriMesh, TriMeshFlags};
use isect::world::{Filter, Handle, World, WorldDistance, WorldError};
use std::cell::Cell;
use std::fmt::Debug;

thread_local! {
    /// Cases of this thread that reached their family's query (not refused earlier
    /// by a constructor): the sweep reports it and guards that it stays high.
    static REACHED: Cell<u64> = const { Cell::new(0) };
}

/// Counts one case that reached its query.
fn reached() {
    REACHED.with(|r| r.set(r.get() + 1));
}

/// How many cases of this thread reached their family's query.
pub fn reached_count() -> u64 {
    REACHED.with(Cell::get)
}

/// Coordinates up to this magnitude are tame: sums of cubes stay finite in `f32`.
pub const TAME: f64 = 1.0e6;
/// Non-zero coordinates below this magnitude are wild in `f32`: GJK's squared areas
/// underflow for shapes about 1e-11 across (open issue, `tests/regressions/gjk_tiny_scale_nan.rs`).
pub const TINY_F32: f64 = 1.0e-7;
/// Non-zero coordinates below this magnitude are wild in `f64`: subnormal extents
/// break the BVH build (open issue, `tests/regressions/bvh_subnormal_bounds.rs`).
pub const TINY_F64: f64 = 1.0e-300;
/// Largest number of points fed to a hull.
pub const MAX_HULL_POINTS: usize = 24;
/// Largest number of operations of one broad-phase or world case.
pub const MAX_OPS: usize = 24;
/// Relative slack on a unit normal's length.
const UNIT_SLACK: f64 = 1e-3;

/// The query families; one fuzz target each.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Every shape constructor, and ray casts on each constructed shape.
    Constructors,
    /// Ray casts on the shape enums, local and posed.
    Ray,
    /// `dispatch::{intersects, distance, closest_points, contact}`.
    Pair,
    /// `dispatch::cast_shapes` and `query::time_of_impact`.
    Cast,
    /// Contact manifolds: the convex fallback and the SAT kernels.
    Manifold,
    /// Convex hulls and hull-built shapes (polygon, polyhedron from points or planes).
    Hull,
    /// `Bvh`, `DynamicTree`, `SweepAndPrune` operations.
    Broad,
    /// `World` operations: insert, set_pose, remove, update, scene queries.
    World,
    /// Composite constructors (TriMesh, ConcavePolygon, Polyline, both HeightFields,
    /// Compound) and every pair query and ray cast on them through `AnyShape`.
    Composite,
    /// `ConcavePolygon` construction from random rings: convex pieces covering the
    /// polygon (areas, sampled points).
    Decomposition,
    /// The single-shape queries of each composite (`cast_ray_all`, `project_point`,
    /// `contains_point`) against a brute-force pass over its parts.
    CompositeQueries,
    /// `World<V, AnyShape>` operations and queries against a brute-force scan.
    WorldAny,
    /// The world's distance queries (nearest and signed, to points and shapes, within
    /// a distance, configuration batches) against a brute force over every handle,
    /// and the capsule–box distance kernel against GJK.
    WorldDistance,
}

/// Every family, in order.
pub const TARGETS: [Target; 13] = [
    Target::Constructors,
    Target::Ray,
    Target::Pair,
    Target::Cast,
    Target::Manifold,
    Target::Hull,
    Target::Broad,
    Target::World,
    Target::Composite,
    Target::Decomposition,
    Target::CompositeQueries,
    Target::WorldAny,
    Target::WorldDistance,
];

/// A stream of random words: fuzzer bytes or a seeded generator.
pub trait Source {
    /// The next 64 bits.
    fn next_u64(&mut self) -> u64;
}

/// The fuzzer's bytes, 8 at a time; zeros once they run out.
pub struct ByteSource<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> ByteSource<'a> {
    /// A source reading `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, pos: 0 }
    }
}

impl Source for ByteSource<'_> {
    fn next_u64(&mut self) -> u64 {
        let mut word = [0u8; 8];
        let end = (self.pos + 8).min(self.data.len());
        if self.pos < end {
            word[..end - self.pos].copy_from_slice(&self.data[self.pos..end]);
        }
        self.pos = end;
        u64::from_le_bytes(word)
    }
}

/// Decodes words into values; remembers whether anything wild (non-finite or beyond
/// [`TAME`]) was produced, which relaxes the finiteness contracts.
pub struct Gen<'a> {
    src: &'a mut dyn Source,
    /// True when no special value is injected (about half the sweep's cases).
    pub clean: bool,
    /// A value beyond [`TAME`] or non-finite was produced.
    pub wild: bool,
    /// When set, [`real`](Self::real) gives scene values only: this scale times 0,
    /// a multiple of ½ in `[−2, 2]` (exact touching and coincident placements) or a
    /// uniform value in `(−4, 4)`.
    pub scene: Option<f64>,
    last: [f64; 3],
}

impl<'a> Gen<'a> {
    /// A generator on `src`; the first word decides whether specials are injected.
    pub fn new(src: &'a mut dyn Source) -> Self {
        let clean = src.next_u64() % 2 == 0;
        Self {
            src,
            clean,
            wild: false,
            scene: None,
            last: [0.0; 3],
        }
    }

    /// Raw bits.
    pub fn u64(&mut self) -> u64 {
        self.src.next_u64()
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.u64() % n as u64) as usize
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A scalar: ordinary values over eleven decades, small integers (exact
    /// coincidences), zeros, and — unless clean — NaN, ±∞, subnormals, huge and tiny.
    pub fn real<R: Real>(&mut self) -> R {
        let sign = if self.u64() % 2 == 0 { 1.0 } else { -1.0 };
        if let Some(scale) = self.scene {
            let x = match self.below(8) {
                0 => 0.0,
                1 | 2 => (self.below(9) as f64 - 4.0) / 2.0,
                _ => sign * self.unit() * 4.0,
            };
            return R::from_f64(scale * x);
        }
        let single = R::EPSILON.to_f64() > 1e-10;
        let mode = self.below(16);
        let x = match mode {
            0 if !self.clean => f64::NAN,
            1 if !self.clean => f64::INFINITY,
            2 if !self.clean => f64::NEG_INFINITY,
            3 if !self.clean => sign * if single { 1e-40 } else { 1e-310 },
            4 if !self.clean => {
                let top = if single { 38 } else { 307 };
                sign * 10f64.powi(7 + self.below(top - 6) as i32) * (1.0 + self.unit())
            }
            5 => sign * 10f64.powi(-(6 + self.below(25) as i32)) * (1.0 + self.unit()),
            6 => 0.0 * sign,
            7 => (self.below(9) as f64) - 4.0,
            _ => sign * self.unit() * 10f64.powi(self.below(12) as i32 - 5),
        };
        let r = R::from_f64(x);
        let tiny = if single { TINY_F32 } else { TINY_F64 };
        let mag = r.abs().to_f64();
        if !r.is_finite() || mag > TAME || (mag > 0.0 && mag < tiny) {
            self.wild = true;
        }
        r
    }

    /// A vector; one time in eight the previous vector again (coincident points).
    pub fn vec<V: Vector>(&mut self) -> V {
        if self.below(8) == 0 {
            return from_f64s(self.last);
        }
        let v = (0..V::DIM).fold(V::ZERO, |v, i| v.with(i, self.real::<V::Scalar>()));
        for (i, slot) in self.last.iter_mut().enumerate().take(V::DIM) {
            *slot = v.get(i).to_f64();
        }
        v
    }

    /// A ray (origin and direction may be anything).
    pub fn ray<V: Vector>(&mut self) -> Ray<V> {
        Ray {
            origin: self.vec(),
            dir: self.vec(),
        }
    }

    /// A box through the public fields: may hold NaN or `min > max` when not clean.
    pub fn raw_aabb<V: Vector>(&mut self) -> Aabb<V> {
        let (a, b): (V, V) = (self.vec(), self.vec());
        if self.clean || self.below(2) == 0 {
            Aabb {
                min: a.min(b),
                max: a.max(b),
            }
        } else {
            Aabb { min: a, max: b }
        }
    }
}

/// The vector with components `c[0..DIM]`.
fn from_f64s<V: Vector>(c: [f64; 3]) -> V {
    (0..V::DIM).fold(V::ZERO, |v, i| v.with(i, V::Scalar::from_f64(c[i])))
}

/// True when every component is finite and at most [`TAME`].
fn tame_v<V: Vector>(v: V) -> bool {
    v.is_finite() && v.abs().max_element().to_f64() <= TAME
}

/// A vector type with its shape enum and its dimension-specific drivers.
pub trait Dim: GjkVector {
    /// The shape enum.
    type S: DispatchShape<Self> + SupportMap<Self> + ProjectPoint<Self> + Debug + Send + Sync;
    /// `"2D f32"`, ...
    const NAME: &'static str;
    /// A shape of any kind of the enum, through its constructor (`None` when the
    /// constructor refused the values, which the contract checks).
    fn shape(g: &mut Gen) -> Option<Self::S>;
    /// A pose from a random translation and rotation.
    fn pose(g: &mut Gen) -> Self::Pose;
    /// Constructors outside the enum (Obb, Plane, Sector, Cylinder, ...) and their ray casts.
    fn constructors(g: &mut Gen);
    /// The SAT manifold kernels of this dimension.
    fn manifolds(g: &mut Gen);
    /// The hull constructors of this dimension.
    fn hulls(g: &mut Gen);
    /// The `AnyShape` enum of this dimension (convex or composite).
    type A: DispatchShape<Self>
        + RayCast<Self>
        + ProjectPoint<Self>
        + From<Self::S>
        + Clone
        + Debug
        + Sync;
    /// A composite shape of any kind of this dimension through its constructor,
    /// checking the constructor's contract (`None` when refused).
    fn composite(g: &mut Gen) -> Option<Self::A>;
    /// The point of `part` at `pose` nearest to `p` (`solid`: a point inside is its
    /// own answer): for segments in closed form, for 3D triangles the nearer of
    /// `project_point`'s answer and Ericson's Voronoi-region answer (5.1.5: an oracle
    /// independent of GJK), by `project_point` for the other kinds.
    fn closest_on_part(pose: &Self::Pose, part: &Self::S, p: Self, solid: bool) -> Self;
    /// How badly conditioned the closest point of `part` is: `L² / 2A` (longest edge
    /// squared over twice the area, about length over width) for a 3D triangle of
    /// non-zero area, else the ratio of its box's longest to shortest non-zero side
    /// ([`box_aspect`]: GJK projects a point inside a cylinder 54.7 long and 3.6e-4
    /// wide 7.3e-5 away).
    fn part_aspect(part: &Self::S) -> f64;
    /// One composite of this dimension through [`check_composite`].
    fn composite_queries(g: &mut Gen);
    /// The concave polygon decomposition ([`decomposition`]) in this scalar type.
    fn decomposition(g: &mut Gen);
}

/// Runs `target` on the words of `src`: the first word picks the vector type.
pub fn drive(target: Target, src: &mut dyn Source) {
    let ty = src.next_u64() % 4;
    let mut g = Gen::new(src);
    match ty {
        0 => drive_in::<isect::d2::Vec2>(target, &mut g),
        1 => drive_in::<isect::d3::Vec3>(target, &mut g),
        2 => drive_in::<isect::d2_f64::DVec2>(target, &mut g),
        _ => drive_in::<isect::d3_f64::DVec3>(target, &mut g),
    }
}

/// Runs `target` for the vector type `V`.
pub fn drive_in<V: Dim>(target: Target, g: &mut Gen) {
    match target {
        Target::Constructors => constructors::<V>(g),
        Target::Ray => ray::<V>(g),
        Target::Pair => pair::<V>(g),
        Target::Cast => cast::<V>(g),
        Target::Manifold => manifold::<V>(g),
        Target::Hull => V::hulls(g),
        Target::Broad => broad::<V>(g),
        Target::World => world::<V>(g),
        Target::Composite => composite::<V>(g),
        Target::Decomposition => V::decomposition(g),
        Target::CompositeQueries => V::composite_queries(g),
        Target::WorldAny => world_any::<V>(g),
        Target::WorldDistance => world_distance::<V>(g),
    }
}

/// Asserts a constructor's contract: non-finite input is refused.
fn check_ctor<T: Debug, E: Debug>(what: &str, finite_input: bool, r: &Result<T, E>) {
    assert!(
        finite_input || r.is_err(),
        "{what}: non-finite input accepted: {r:?}"
    );
}

/// Asserts the contract of a ray hit.
fn check_ray_hit<V: Vector>(
    what: &str,
    ray: &Ray<V>,
    max_t: V::Scalar,
    hit: Option<RayHit<V>>,
    tame: bool,
) {
    let valid = ray.origin.is_finite() && ray.dir.is_finite() && max_t >= V::Scalar::ZERO;
    let Some(h) = hit else { return };
    assert!(
        valid,
        "{what}: invalid ray {ray:?} max_t {max_t:?} hit {h:?}"
    );
    assert!(
        h.t >= V::Scalar::ZERO && h.t <= max_t,
        "{what}: t outside [0, max_t]: {h:?} ray {ray:?} max_t {max_t:?}"
    );
    if tame && tame_v(ray.origin) && tame_v(ray.dir) {
        assert!(
            h.point.is_finite(),
            "{what}: non-finite point {h:?} ray {ray:?}"
        );
        check_unit_or_zero(what, h.normal);
    }
}

/// A normal is unit, or zero (ray starting inside).
fn check_unit_or_zero<V: Vector>(what: &str, n: V) {
    let len = n.length().to_f64();
    assert!(
        len == 0.0 || (len - 1.0).abs() <= UNIT_SLACK,
        "{what}: normal {n:?} neither unit nor zero"
    );
}

/// A normal is unit.
fn check_unit<V: Vector>(what: &str, n: V) {
    let len = n.length().to_f64();
    assert!(
        (len - 1.0).abs() <= UNIT_SLACK,
        "{what}: normal {n:?} not unit"
    );
}

/// A random `max_t`: infinite, finite, zero, or (not clean) NaN / negative.
fn max_t<R: Real>(g: &mut Gen) -> R {
    match g.below(4) {
        0 => R::INFINITY,
        _ => {
            let wild = g.wild;
            let t = g.real::<R>().abs();
            g.wild = wild;
            if g.clean || g.below(8) != 0 {
                t
            } else {
                -t - R::ONE
            }
        }
    }
}

/// Generic constructors of every dimension, then the dimension's own.
fn constructors<V: Dim>(g: &mut Gen) {
    let (a, b, c): (V, V, V) = (g.vec(), g.vec(), g.vec());
    let r = g.real::<V::Scalar>();
    let fin = |vs: &[V]| vs.iter().all(|v| v.is_finite());
    let ray = g.ray::<V>();
    let t = max_t::<V::Scalar>(g);
    let tame = !g.wild;
    reached();
    let ball = Ball::new(a, r);
    check_ctor("Ball::new", fin(&[a]) && r.is_finite(), &ball);
    if let Ok(s) = ball {
        assert!(s.radius() >= V::Scalar::ZERO, "Ball radius {s:?}");
        check_ray_hit("Ball ray", &ray, t, s.cast_ray(&ray, t), tame);
    }
    let (lo, hi) = (a.min(b), a.max(b));
    let aabb = Aabb::new(lo, hi);
    check_ctor("Aabb::new", fin(&[lo, hi]), &aabb);
    if let Ok(s) = aabb {
        check_ray_hit("Aabb ray", &ray, t, s.cast_ray(&ray, t), tame);
    }
    check_ctor("Aabb::from_center", fin(&[a, b]), &Aabb::from_center(a, b));
    check_ctor(
        "Aabb::from_points",
        fin(&[a, b, c]),
        &Aabb::from_points(&[a, b, c]),
    );
    check_ctor(
        "Capsule::new",
        fin(&[a, b]) && r.is_finite(),
        &Capsule::new(a, b, r),
    );
    check_ctor("Segment::new", fin(&[a, b]), &Segment::new(a, b));
    check_ctor("Triangle::new", fin(&[a, b, c]), &Triangle::new(a, b, c));
    check_ctor("Ray::new", fin(&[a, b]), &Ray::new(a, b));
    let plane = Plane::new(a, r);
    check_ctor("Plane::new", fin(&[a]) && r.is_finite(), &plane);
    for p in [
        plane,
        Plane::from_point_normal(a, b),
        Plane::from_physx(b, r),
    ]
    .into_iter()
    .flatten()
    {
        check_unit("Plane normal", p.normal());
        check_ray_hit("Plane ray", &ray, t, p.cast_ray(&ray, t), tame);
        let hs = HalfSpace::new(p);
        check_ray_hit("HalfSpace ray", &ray, t, hs.cast_ray(&ray, t), tame);
    }
    check_ctor("Rounded::new", r.is_finite(), &Rounded::new((), r));
    let dt = DynamicTree::<V>::with_margin(r);
    check_ctor("DynamicTree::with_margin", r.is_finite(), &dt);
    let w = World::<V, V::S>::with_prediction(r);
    check_ctor("World::with_prediction", r.is_finite(), &w);
    V::constructors(g);
}

/// Ray casts on one enum shape, in its frame and posed.
fn ray<V: Dim>(g: &mut Gen) {
    let Some(s) = V::shape(g) else { return };
    reached();
    let pose = V::pose(g);
    for _ in 0..4 {
        let ray = g.ray::<V>();
        let t = max_t::<V::Scalar>(g);
        let tame = !g.wild;
        let what = format!("{} ray on {s:?}", V::NAME);
        check_ray_hit(&what, &ray, t, s.cast_ray(&ray, t), tame);
        let posed = s.cast_ray_posed(&pose, &ray, t);
        if !pose.is_finite() {
            continue;
        }
        check_ray_hit(&what, &ray, t, posed, tame);
        let p = g.vec::<V>();
        let inside = s.contains_point(&pose, p);
        assert!(!inside || !p.is_nan(), "{what}: NaN point inside");
    }
}

/// Two enum shapes and their poses; `None` when a constructor refused its values.
type PairCase<V> = (
    <V as Dim>::S,
    <V as Vector>::Pose,
    <V as Dim>::S,
    <V as Vector>::Pose,
);

fn pair_case<V: Dim>(g: &mut Gen) -> Option<PairCase<V>> {
    let a = V::shape(g)?;
    let b = V::shape(g)?;
    Some((a, V::pose(g), b, V::pose(g)))
}

/// The pair queries: documented answers for non-finite poses, finite answers otherwise.
fn pair<V: Dim>(g: &mut Gen) {
    let Some((a, pa, b, pb)) = pair_case::<V>(g) else {
        return;
    };
    let prediction = g.real::<V::Scalar>().abs();
    let tame = !g.wild;
    let finite = pa.is_finite() && pb.is_finite();
    let what = format!("{}: {a:?} at {pa:?} / {b:?} at {pb:?}", V::NAME);
    reached();
    let hit = dispatch::intersects(&pa, &a, &pb, &b);
    assert!(finite || !hit, "intersects with non-finite pose: {what}");
    let d = dispatch::distance(&pa, &a, &pb, &b);
    assert!(!(d < V::Scalar::ZERO), "negative distance {d:?}: {what}");
    assert!(
        finite || d.is_nan(),
        "distance {d:?} with non-finite pose: {what}"
    );
    assert!(!tame || d.is_finite(), "distance {d:?}: {what}");
    let cp = dispatch::closest_points(&pa, &a, &pb, &b);
    assert!(
        cp.iterations <= GJK_MAX_ITERATIONS,
        "closest_points {cp:?}: {what}"
    );
    assert!(
        !(cp.distance < V::Scalar::ZERO),
        "closest_points {cp:?}: {what}"
    );
    if tame {
        assert!(
            cp.point_a.is_finite() && cp.point_b.is_finite(),
            "closest_points {cp:?}: {what}"
        );
    }
    let c = dispatch::contact(&pa, &a, &pb, &b, prediction);
    check_contact(&what, finite && !prediction.is_nan(), tame, c);
}

/// The contract of a contact.
fn check_contact<V: Vector>(what: &str, valid: bool, tame: bool, c: Option<Contact<V>>) {
    let Some(c) = c else { return };
    assert!(valid, "contact for invalid input {c:?}: {what}");
    if tame {
        check_unit(what, c.normal);
        let ok = c.depth.is_finite() && c.point_a.is_finite() && c.point_b.is_finite();
        assert!(ok, "non-finite contact {c:?}: {what}");
    }
}

/// Linear casts and time of impact with rotation.
fn cast<V: Dim>(g: &mut Gen) {
    let Some((a, pa, b, pb)) = pair_case::<V>(g) else {
        return;
    };
    let (va, vb): (V, V) = (g.vec(), g.vec());
    let t = max_t::<V::Scalar>(g);
    let (ea, eb) = (V::pose(g), V::pose(g));
    let tame = !g.wild;
    let what = format!(
        "{}: {a:?} at {pa:?} v {va:?} / {b:?} at {pb:?} v {vb:?}",
        V::NAME
    );
    let valid = pa.is_finite() && pb.is_finite() && va.is_finite() && vb.is_finite();
    reached();
    let hit = dispatch::cast_shapes(&pa, va, &a, &pb, vb, &b, t);
    check_cast(&what, valid && t >= V::Scalar::ZERO, t, tame, hit);
    let cap = CAST_MAX_ITERATIONS.max(GJK_MAX_ITERATIONS + EPA_MAX_ITERATIONS);
    assert!(
        hit.is_none_or(|h| h.iterations <= cap),
        "cast {hit:?}: {what}"
    );
    let (sa, sb) = (Sweep { start: pa, end: ea }, Sweep { start: pb, end: eb });
    let toi = query::time_of_impact(&sa, &a, &sb, &b);
    let valid = [pa, ea, pb, eb].iter().all(|p| p.is_finite());
    check_cast(&what, valid, V::Scalar::ONE, tame, toi);
    let toi_cap = TOI_MAX_ITERATIONS.max(cap);
    assert!(
        toi.is_none_or(|h| h.iterations <= toi_cap),
        "toi {toi:?}: {what}"
    );
}

/// The contract of a cast's hit.
fn check_cast<V: Vector>(
    what: &str,
    valid: bool,
    max_t: V::Scalar,
    tame: bool,
    h: Option<ShapeCastHit<V>>,
) {
    let Some(h) = h else { return };
    assert!(valid, "cast hit for invalid input {h:?}: {what}");
    assert!(
        h.time >= V::Scalar::ZERO && h.time <= max_t,
        "cast time outside [0, {max_t:?}]: {h:?}: {what}"
    );
    if tame {
        check_unit(what, h.normal);
        let ok = h.depth.is_finite() && h.point_a.is_finite() && h.point_b.is_finite();
        assert!(ok, "non-finite cast hit {h:?}: {what}");
    }
}

/// The convex manifold of the enum, then the dimension's SAT kernels.
fn manifold<V: Dim>(g: &mut Gen) {
    if let Some((a, pa, b, pb)) = pair_case::<V>(g) {
        let prediction = g.real::<V::Scalar>().abs();
        let valid = pa.is_finite() && pb.is_finite() && !prediction.is_nan();
        reached();
        let m = query::contact_manifold_convex(&pa, &a, &pb, &b, prediction);
        check_manifold("convex manifold", valid, !g.wild, m);
    }
    V::manifolds(g);
}

/// The contract of a manifold: 1 to `MAX_MANIFOLD_POINTS` points, unit normal,
/// finite points and depths.
fn check_manifold<V: Vector>(what: &str, valid: bool, tame: bool, m: Option<Manifold<V>>) {
    let Some(m) = m else { return };
    assert!(valid, "{what} for invalid input: {m:?}");
    let n = m.points().len();
    assert!(
        (1..=MAX_MANIFOLD_POINTS).contains(&n),
        "{what}: {n} points {m:?}"
    );
    if tame {
        check_unit(what, m.normal);
        for p in m.points() {
            let ok = p.depth.is_finite() && p.point_a.is_finite() && p.point_b.is_finite();
            assert!(ok, "{what}: non-finite point {m:?}");
        }
    }
}

/// Points for a hull: random, or on a line / plane, clustered, duplicated.
fn hull_points<V: Vector>(g: &mut Gen) -> Vec<V> {
    let n = g.below(MAX_HULL_POINTS + 1);
    let (o, u, w): (V, V, V) = (g.vec(), g.vec(), g.vec());
    let layout = g.below(4);
    (0..n)
        .map(|_| match layout {
            0 => g.vec(),
            1 => o + u * V::Scalar::from_f64(g.unit()),
            2 => o + u * V::Scalar::from_f64(g.unit()) + w * V::Scalar::from_f64(g.unit()),
            _ => o + g.vec::<V>() * V::Scalar::from_f64(1e-3),
        })
        .collect()
}

/// Broad phase: a BVH over raw boxes, a dynamic tree and sweep-and-prune under a
/// random sequence of operations; validators after each and brute-force queries.
fn broad<V: Dim>(g: &mut Gen) {
    let boxes: Vec<Aabb<V>> = (0..g.below(MAX_OPS)).map(|_| g.raw_aabb()).collect();
    let valid = boxes
        .iter()
        .all(|b| b.min.is_finite() && b.max.is_finite() && b.min.all_le(b.max));
    let tame_boxes = !g.wild;
    reached();
    let mut bvh = Bvh::build(&boxes);
    let region = g.raw_aabb::<V>();
    let mut found = Vec::new();
    bvh.query(&region, |i| {
        found.push(i);
        true
    });
    let ray = g.ray::<V>();
    let t = max_t::<V::Scalar>(g);
    let hit = bvh.cast_ray(&ray, t, |i, _| {
        boxes[i as usize].cast_ray(&ray, t).map(|h| h.t)
    });
    bvh.for_each_pair(|_, _| {});
    if valid && tame_boxes {
        assert!(bvh.validate().is_ok(), "Bvh invalid: {:?}", bvh.validate());
        found.sort_unstable();
        let brute: Vec<u32> = (0..boxes.len() as u32)
            .filter(|&i| boxes[i as usize].intersects(&region))
            .collect();
        if region.min.is_finite() && region.max.is_finite() && region.min.all_le(region.max) {
            assert_eq!(found, brute, "Bvh query {region:?} over {boxes:?}");
        }
        assert!(
            hit.is_none_or(|(_, ht)| ht >= V::Scalar::ZERO && ht <= t),
            "{hit:?}"
        );
        bvh.refit(&boxes);
        assert!(bvh.validate().is_ok(), "Bvh refit invalid");
    }
    dynamic_tree::<V>(g);
    sweep_and_prune::<V>(g);
}

/// Random inserts, moves and removes; validate after each; queries against a scan.
fn dynamic_tree<V: Dim>(g: &mut Gen) {
    let margin = g.real::<V::Scalar>().abs();
    let mut tree = DynamicTree::<V>::with_margin(margin).unwrap_or_default();
    let mut live = Vec::new();
    for op in 0..g.below(MAX_OPS) {
        match g.below(4) {
            0 | 1 => {
                if let Ok(id) = tree.insert(g.raw_aabb(), op as u32) {
                    live.push(id);
                }
            }
            2 if !live.is_empty() => {
                let id = live[g.below(live.len())];
                let _ = tree.move_proxy(id, g.raw_aabb(), g.vec());
            }
            _ if !live.is_empty() => {
                let id = live.swap_remove(g.below(live.len()));
                assert!(tree.remove(id).is_some(), "remove of a live proxy failed");
            }
            _ => {}
        }
        // Every eighth operation rebuilds (no input byte spent: artifacts replay).
        if op % 8 == 7 {
            tree.rebuild();
        }
        assert!(
            tree.validate().is_ok(),
            "DynamicTree invalid: {:?}",
            tree.validate()
        );
    }
    let region = g.raw_aabb::<V>();
    let mut n = 0;
    tree.query(&region, |_, _| {
        n += 1;
        true
    });
    let brute = live
        .iter()
        .filter(|&&id| tree.fat_aabb(id).is_some_and(|f| f.intersects(&region)))
        .count();
    assert_eq!(n, brute, "DynamicTree query {region:?}");
    let ray = g.ray::<V>();
    let t = max_t::<V::Scalar>(g);
    let _ = tree.cast_ray(&ray, t, |_, _, best| Some(best));
    tree.for_each_pair(|_, _| {});
}

/// Random inserts, box changes, removes and updates; validate after each update.
fn sweep_and_prune<V: Dim>(g: &mut Gen) {
    let Ok(mut sap) = SweepAndPrune::<V>::new(g.below(V::DIM + 1)) else {
        return;
    };
    let mut live = Vec::new();
    for _ in 0..g.below(MAX_OPS) {
        match g.below(4) {
            0 | 1 => {
                if let Ok(id) = sap.insert(g.raw_aabb()) {
                    live.push(id);
                }
            }
            2 if !live.is_empty() => {
                let id = live[g.below(live.len())];
                let _ = sap.set_aabb(id, g.raw_aabb());
            }
            _ if !live.is_empty() => {
                let id = live.swap_remove(g.below(live.len()));
                assert!(sap.remove(id), "remove of a live proxy failed");
            }
            _ => {}
        }
        sap.update();
        assert!(
            sap.validate().is_ok(),
            "SweepAndPrune invalid: {:?}",
            sap.validate()
        );
        assert_eq!(
            sap.pairs(),
            brute_sap_pairs(&sap, &live),
            "SweepAndPrune pairs"
        );
    }
}

/// The overlapping pairs of the live boxes of `sap`, by a scan of all pairs, sorted.
fn brute_sap_pairs<V: Dim>(sap: &SweepAndPrune<V>, live: &[ProxyId]) -> Vec<(ProxyId, ProxyId)> {
    let mut pairs = Vec::new();
    for (k, &a) in live.iter().enumerate() {
        for &b in &live[k + 1..] {
            let (Some(ba), Some(bb)) = (sap.aabb(a), sap.aabb(b)) else {
                continue;
            };
            if ba.intersects(bb) {
                pairs.push((a.min(b), a.max(b)));
            }
        }
    }
    pairs.sort_unstable();
    pairs
}

/// World operations and scene queries: lists sorted, hits within range.
fn world<V: Dim>(g: &mut Gen) {
    let mut w = World::<V, V::S>::new();
    reached();
    let mut handles = Vec::new();
    for _ in 0..g.below(MAX_OPS) {
        match g.below(5) {
            0 | 1 => {
                let Some(s) = V::shape(g) else { continue };
                let pose = V::pose(g);
                let filter = Filter {
                    group: g.u64() as u32 | 1,
                    mask: g.u64() as u32 | 1,
                };
                let r = w.insert(s, pose, filter);
                check_ctor("World::insert", pose.is_finite(), &r);
                handles.extend(r);
            }
            2 if !handles.is_empty() => {
                let h = handles[g.below(handles.len())];
                let pose = V::pose(g);
                check_ctor("World::set_pose", pose.is_finite(), &w.set_pose(h, pose));
            }
            3 if !handles.is_empty() => {
                let h = handles.swap_remove(g.below(handles.len()));
                assert!(w.remove(h).is_ok(), "remove of a live handle failed");
            }
            _ => check_update(&mut w),
        }
    }
    world_queries::<V>(g, &w);
}

/// `update`'s events are sorted pairs `a < b`; its contacts are pairs `a < b`, each
/// once; the world passes its validator.
fn check_update<V: Dim>(w: &mut World<V, V::S>) {
    let ev = w.update();
    for list in [&ev.started, &ev.stopped] {
        assert!(
            list.windows(2).all(|p| p[0] < p[1]),
            "events unsorted {list:?}"
        );
        assert!(list.iter().all(|(a, b)| a < b), "pair not a < b {list:?}");
    }
    let mut pairs: Vec<_> = w.contacts().iter().map(|c| (c.a, c.b)).collect();
    assert!(pairs.iter().all(|(a, b)| a < b), "contact not a < b");
    pairs.sort_unstable();
    assert!(pairs.windows(2).all(|p| p[0] < p[1]), "a pair twice");
    w.validate().expect("world invariants");
}

/// The scene queries of a world.
fn world_queries<V: Dim>(g: &mut Gen, w: &World<V, V::S>) {
    let ray = g.ray::<V>();
    let t = max_t::<V::Scalar>(g);
    let tame = !g.wild;
    if let Some(h) = w.cast_ray(&ray, t, Filter::ALL) {
        check_ray_hit("World::cast_ray", &ray, t, Some(h.hit), tame);
    }
    let all = w.cast_ray_all(&ray, t, Filter::ALL);
    let sorted = all
        .windows(2)
        .all(|p| (p[0].hit.t, p[0].handle) <= (p[1].hit.t, p[1].handle));
    assert!(sorted, "cast_ray_all unsorted");
    let p = g.vec::<V>();
    let at = w.shapes_at_point(p, Filter::ALL);
    assert!(
        at.windows(2).all(|p| p[0] < p[1]),
        "shapes_at_point unsorted"
    );
    assert!(!p.is_nan() || at.is_empty(), "NaN point inside shapes");
    let region = g.raw_aabb::<V>();
    let inside = w.shapes_in_aabb(&region, Filter::ALL);
    assert!(
        inside.windows(2).all(|p| p[0] < p[1]),
        "shapes_in_aabb unsorted"
    );
    if let Some(s) = V::shape(g) {
        let pose = V::pose(g);
        let touching = w.intersecting_shapes(&pose, &s, Filter::ALL);
        assert!(
            touching.windows(2).all(|p| p[0] < p[1]),
            "intersecting_shapes unsorted"
        );
        assert!(
            pose.is_finite() || touching.is_empty(),
            "non-finite pose touches"
        );
        let vel = g.vec::<V>();
        let hit = w.cast_shape(&pose, vel, &s, t, Filter::ALL);
        let valid = pose.is_finite() && vel.is_finite() && t.is_finite() && t >= V::Scalar::ZERO;
        check_cast("World::cast_shape", valid, t, !g.wild, hit.map(|(_, h)| h));
    }
}

/// An angle (any scalar, so NaN and infinities reach the rotations).
fn angle<R: Real>(g: &mut Gen) -> R {
    if g.below(2) == 0 {
        R::from_f64(g.unit() * 7.0 - 3.5)
    } else {
        g.real()
    }
}

/// A radius or half height: negative one time in eight (refused).
fn radius<R: Real>(g: &mut Gen) -> R {
    let r = g.real::<R>();
    if g.below(8) == 0 {
        r
    } else {
        r.abs()
    }
}

/// A 2D polygon from hull points (often refused: the error path is driven too).
fn polygon<R: Real>(g: &mut Gen) -> Option<ConvexPolygon<R>> {
    let pts = hull_points::<R::V2>(g);
    ConvexPolygon::new(&pts).ok()
}

/// A polyhedron from hull points.
fn polyhedron<R: Real>(g: &mut Gen) -> Option<ConvexPolyhedron<R>> {
    let pts = hull_points::<R::V3>(g);
    ConvexPolyhedron::from_points(&pts).ok()
}

/// 2D shape of any kind of the enum.
fn shape_2d<R: Real>(g: &mut Gen) -> Option<shape_2d::Shape<R>> {
    let (a, b, c): (R::V2, R::V2, R::V2) = (g.vec(), g.vec(), g.vec());
    // Mostly non-negative radii, so that most cases reach the queries.
    let r = radius::<R>(g);
    Some(match g.below(8) {
        0 => Ball::new(a, r).ok()?.into(),
        1 => Aabb::from_center(a, b.abs()).ok()?.into(),
        2 => Capsule::new(a, b, r).ok()?.into(),
        3 => Segment::new(a, b).ok()?.into(),
        4 => Triangle::new(a, b, c).ok()?.into(),
        5 => polygon::<R>(g)?.into(),
        6 => Rounded::new(Aabb::from_center(a, b.abs()).ok()?, r)
            .ok()?
            .into(),
        _ => Rounded::new(polygon::<R>(g)?, r).ok()?.into(),
    })
}

/// 3D shape of any kind of the enum.
fn shape_3d<R: Real>(g: &mut Gen) -> Option<shape_3d::Shape<R>> {
    let (a, b, c): (R::V3, R::V3, R::V3) = (g.vec(), g.vec(), g.vec());
    let (r, h) = (radius::<R>(g), radius::<R>(g));
    let shape = match g.below(9) {
        0 => Ball::new(a, r).ok()?.into(),
        1 => Aabb::from_center(a, b.abs()).ok()?.into(),
        2 => Capsule::new(a, b, r).ok()?.into(),
        3 => Segment::new(a, b).ok()?.into(),
        4 => Triangle::new(a, b, c).ok()?.into(),
        5 => polyhedron::<R>(g)?.into(),
        6 => Cylinder::new(h, r).ok()?.into(),
        7 => Cone::new(h, r).ok()?.into(),
        _ => Rounded::new(Aabb::from_center(a, b.abs()).ok()?, r)
            .ok()?
            .into(),
    };
    Some(shape)
}

/// A unit quaternion from an axis and an angle (a NaN axis gives a NaN rotation).
fn quat<R: Real>(g: &mut Gen) -> R::Quat {
    let axis: R::V3 = g.vec();
    let axis = axis.try_normalize().unwrap_or(R::V3::unit_axis(g.below(3)));
    R::Quat::from_axis_angle(axis, angle::<R>(g))
}

/// The 2D constructors outside the enum and their ray casts.
fn constructors_2d<R: Real>(g: &mut Gen) {
    let (c, h): (R::V2, R::V2) = (g.vec(), g.vec());
    let (r, a0, span) = (g.real::<R>(), angle::<R>(g), angle::<R>(g));
    let ray = g.ray::<R::V2>();
    let t = max_t::<R>(g);
    let tame = !g.wild;
    let fin = c.is_finite() && h.is_finite();
    let obb = obb_2d::Obb::from_angle(c, h, a0);
    check_ctor("Obb2::from_angle", fin && a0.is_finite(), &obb);
    if let Ok(o) = obb {
        check_ray_hit("Obb2 ray", &ray, t, o.cast_ray(&ray, t), tame);
    }
    let rot = Rot2::from_angle(a0);
    check_ctor(
        "Obb2::new",
        fin && a0.is_finite(),
        &obb_2d::Obb::new(c, h, rot),
    );
    let sector = Sector::new(c, r, a0, span);
    let sfin = c.is_finite() && r.is_finite() && a0.is_finite() && span.is_finite();
    check_ctor("Sector::new", sfin, &sector);
    if let Ok(s) = sector {
        check_ray_hit("Sector ray", &ray, t, s.cast_ray(&ray, t), tame);
        let _ = s.contains_point(g.vec());
    }
    if let Ok(s) = Segment::new(c, h) {
        check_ray_hit("Segment ray", &ray, t, s.cast_ray(&ray, t), tame);
    }
    if let Some(p) = polygon::<R>(g) {
        check_ray_hit("ConvexPolygon ray", &ray, t, p.cast_ray(&ray, t), tame);
    }
}

/// The 3D constructors outside the enum and their ray casts.
fn constructors_3d<R: Real>(g: &mut Gen) {
    let (c, h, k): (R::V3, R::V3, R::V3) = (g.vec(), g.vec(), g.vec());
    let (hh, r) = (g.real::<R>(), g.real::<R>());
    let q = quat::<R>(g);
    let ray = g.ray::<R::V3>();
    let t = max_t::<R>(g);
    let tame = !g.wild;
    let obb = obb_3d::Obb::<R>::new(c, h, q);
    check_ctor(
        "Obb3::new",
        c.is_finite() && h.is_finite() && q.is_finite(),
        &obb,
    );
    if let Ok(o) = obb {
        check_ray_hit("Obb3 ray", &ray, t, o.cast_ray(&ray, t), tame);
    }
    check_ctor(
        "Cylinder::new",
        hh.is_finite() && r.is_finite(),
        &Cylinder::new(hh, r),
    );
    check_ctor(
        "Cone::new",
        hh.is_finite() && r.is_finite(),
        &Cone::new(hh, r),
    );
    if let Ok(p) = Plane::from_points(c, h, k) {
        check_unit("Plane::from_points normal", p.normal());
    }
    if let Ok(tri) = Triangle::new(c, h, k) {
        check_ray_hit("Triangle ray", &ray, t, tri.cast_ray(&ray, t), tame);
    }
    if let Some(p) = polyhedron::<R>(g) {
        check_ray_hit("ConvexPolyhedron ray", &ray, t, p.cast_ray(&ray, t), tame);
        let _ = p.contains_point(g.vec());
    }
}

/// Polygon SAT manifolds (from hull points) and 2D box manifolds.
fn manifolds_2d<R: Real>(g: &mut Gen)
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let (pa, pb) = (pose_2d::<R>(g), pose_2d::<R>(g));
    let prediction = g.real::<R>().abs();
    let valid = pa.is_finite() && pb.is_finite() && !prediction.is_nan();
    if let (Some(a), Some(b)) = (polygon::<R>(g), polygon::<R>(g)) {
        let m = query::contact_manifold_polygons(&pa, &a, &pb, &b, prediction);
        check_manifold("polygon manifold", valid, !g.wild, m);
    }
    let (c, h, r): (R::V2, R::V2, R) = (g.vec(), g.vec(), angle::<R>(g));
    let (Ok(a), Ok(b)) = (
        obb_2d::Obb::from_angle(c, h, r),
        obb_2d::Obb::from_angle(h, c, r),
    ) else {
        return;
    };
    let m = query::contact_manifold_obb_2d(&pa, &a, &pb, &b, prediction);
    check_manifold("obb2 manifold", valid, !g.wild, m);
}

/// Polyhedron SAT manifolds and 3D box manifolds.
fn manifolds_3d<R: Real>(g: &mut Gen)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let (pa, pb) = (pose_3d::<R>(g), pose_3d::<R>(g));
    let prediction = g.real::<R>().abs();
    let valid = pa.is_finite() && pb.is_finite() && !prediction.is_nan();
    if let (Some(a), Some(b)) = (polyhedron::<R>(g), polyhedron::<R>(g)) {
        let m = query::contact_manifold_polyhedra(&pa, &a, &pb, &b, prediction);
        check_manifold("polyhedron manifold", valid, !g.wild, m);
    }
    let (c, h, q): (R::V3, R::V3, R::Quat) = (g.vec(), g.vec(), quat::<R>(g));
    let (Ok(a), Ok(b)) = (obb_3d::Obb::new(c, h, q), obb_3d::Obb::new(h, c, q)) else {
        return;
    };
    let m = query::contact_manifold_obb_3d(&pa, &a, &pb, &b, prediction);
    check_manifold("obb3 manifold", valid, !g.wild, m);
}

/// The hull keeps its input: `convex_hull_2d`'s vertices are input points, and the
/// polygon contains every input point.
fn hulls_2d<R: Real>(g: &mut Gen) {
    let pts = hull_points::<R::V2>(g);
    let fin = pts.iter().all(|p| p.is_finite());
    let hull = convex_hull_2d(&pts);
    check_ctor("convex_hull_2d", fin, &hull);
    if let Ok(h) = &hull {
        reached();
        assert!(
            h.iter().all(|v| pts.contains(v)),
            "hull vertex not an input: {h:?} of {pts:?}"
        );
    }
    let poly = ConvexPolygon::<R>::new(&pts);
    check_ctor("ConvexPolygon::new", fin, &poly);
    if let (Ok(p), false) = (&poly, g.wild) {
        for q in &pts {
            assert!(
                p.contains_point(*q),
                "polygon {p:?} lost input {q:?} of {pts:?}"
            );
        }
    }
}

/// As [`hulls_2d`] in 3D, plus `ConvexPolyhedron::from_planes`.
fn hulls_3d<R: Real>(g: &mut Gen) {
    let pts = hull_points::<R::V3>(g);
    let fin = pts.iter().all(|p| p.is_finite());
    let hull = convex_hull_3d(&pts);
    check_ctor("convex_hull_3d", fin, &hull);
    if let Ok(h) = &hull {
        reached();
        assert!(
            h.vertices.iter().all(|v| pts.contains(v)),
            "hull vertex not an input"
        );
        let n = h.vertices.len();
        assert!(h.triangles.iter().flatten().all(|&i| i < n), "bad index");
    }
    let poly = ConvexPolyhedron::<R>::from_points(&pts);
    check_ctor("ConvexPolyhedron::from_points", fin, &poly);
    if let (Ok(p), false) = (&poly, g.wild) {
        for q in &pts {
            assert!(
                p.contains_point(*q),
                "polyhedron lost input {q:?} of {pts:?}"
            );
        }
    }
    let planes: Vec<Plane<R::V3>> = (0..g.below(12))
        .filter_map(|_| Plane::new(g.vec(), g.real()).ok())
        .collect();
    if let Ok(p) = ConvexPolyhedron::<R>::from_planes(&planes) {
        assert!(
            p.vertices().iter().all(|v| v.is_finite()),
            "non-finite vertex {p:?}"
        );
    }
}

fn pose_2d<R: Real>(g: &mut Gen) -> Pose2<R> {
    Pose2::new(g.vec(), angle::<R>(g))
}

fn pose_3d<R: Real>(g: &mut Gen) -> Pose3<R> {
    Pose3::new(g.vec(), quat::<R>(g))
}

/// Largest number of vertices, heights or parts of one composite.
pub const MAX_COMPOSITE_ITEMS: usize = 12;

/// A composite (or, one time in four, a convex shape) as `A`, then a pair of it with
/// another such shape: every dispatch query and ray casts, with the pair contracts.
fn composite<V: Dim>(g: &mut Gen) {
    let Some(a) = any_shape::<V>(g) else { return };
    let Some(b) = any_shape::<V>(g) else { return };
    let (pa, pb) = (V::pose(g), V::pose(g));
    let prediction = g.real::<V::Scalar>().abs();
    let (va, vb): (V, V) = (g.vec(), g.vec());
    let t = max_t::<V::Scalar>(g);
    let ray = g.ray::<V>();
    let tame = !g.wild;
    let finite = pa.is_finite() && pb.is_finite();
    let what = format!("{}: {a:?} at {pa:?} / {b:?} at {pb:?}", V::NAME);
    reached();
    check_ray_hit(&what, &ray, t, a.cast_ray(&ray, t), tame);
    let hit = dispatch::intersects(&pa, &a, &pb, &b);
    assert!(finite || !hit, "intersects with non-finite pose: {what}");
    let d = dispatch::distance(&pa, &a, &pb, &b);
    assert!(!(d < V::Scalar::ZERO), "negative distance {d:?}: {what}");
    assert!(
        finite || d.is_nan(),
        "distance {d:?}, non-finite pose: {what}"
    );
    let cp = dispatch::closest_points(&pa, &a, &pb, &b);
    assert!(!(cp.distance < V::Scalar::ZERO), "closest {cp:?}: {what}");
    let c = dispatch::contact(&pa, &a, &pb, &b, prediction);
    check_contact(&what, finite && !prediction.is_nan(), tame, c);
    let m = dispatch::contact_manifold(&pa, &a, &pb, &b, prediction);
    check_manifold(&what, finite && !prediction.is_nan(), tame, m);
    let valid = finite && va.is_finite() && vb.is_finite() && t >= V::Scalar::ZERO;
    let h = dispatch::cast_shapes(&pa, va, &a, &pb, vb, &b, t);
    check_cast(&what, valid, t, tame, h);
    moving_with_options::<V>(g, (&a, pa, va), (&b, pb, vb), t, &what);
    let id = V::Pose::IDENTITY;
    check_ray_hit(&what, &ray, t, a.cast_ray_solid(&id, &ray, t, false), tame);
}

/// `dispatch::cast_shapes_with` and `dispatch::time_of_impact_with` with random
/// options (any skin, either start rule) and random end poses: hits only for valid
/// input, within `[0, max_t]`, tame hits finite with unit normals.
fn moving_with_options<V: Dim>(
    g: &mut Gen,
    (a, pa, va): (&V::A, V::Pose, V),
    (b, pb, vb): (&V::A, V::Pose, V),
    t: V::Scalar,
    what: &str,
) {
    let options = query::ShapeCastOptions {
        target_distance: g.real::<V::Scalar>(),
        stop_at_penetration: g.below(2) == 0,
    };
    let tame = !g.wild;
    let finite = pa.is_finite() && pb.is_finite() && va.is_finite() && vb.is_finite();
    let valid = finite && t >= V::Scalar::ZERO && options.is_valid();
    let h = dispatch::cast_shapes_with(&pa, va, a, &pb, vb, b, t, &options);
    check_cast(what, valid, t, tame, h);
    let (ea, eb) = (V::pose(g), V::pose(g));
    let (sa, sb) = (Sweep { start: pa, end: ea }, Sweep { start: pb, end: eb });
    let toi = dispatch::time_of_impact_with(&sa, a, &sb, b, &options);
    let valid = [pa, ea, pb, eb].iter().all(|p| p.is_finite()) && options.is_valid();
    check_cast(what, valid, V::Scalar::ONE, tame, toi);
}

/// A composite of `V`'s dimension, or one time in four a convex shape of the enum.
fn any_shape<V: Dim>(g: &mut Gen) -> Option<V::A> {
    if g.below(4) == 0 {
        V::shape(g).map(V::A::from)
    } else {
        V::composite(g)
    }
}

/// Up to [`MAX_COMPOSITE_ITEMS`] random vectors (duplicates included).
fn vecs<V: Vector>(g: &mut Gen) -> Vec<V> {
    let n = g.below(MAX_COMPOSITE_ITEMS + 1);
    (0..n).map(|_| g.vec()).collect()
}

/// Up to [`MAX_COMPOSITE_ITEMS`] random scalars.
fn reals<R: Real>(g: &mut Gen) -> Vec<R> {
    let n = g.below(MAX_COMPOSITE_ITEMS + 1);
    (0..n).map(|_| g.real()).collect()
}

/// A star-shaped ring around the origin scaled by `s`: radii in `[lo, lo + 0.4)`
/// (`lo = 0.5` for an outer ring, 0 for a hole, which then lies inside), random
/// radii make reflex vertices; repeated radii make collinear and duplicate vertices.
fn star_ring<V: Vector2>(g: &mut Gen, s: V::Scalar, lo: f64) -> Vec<V> {
    let n = 3 + g.below(MAX_COMPOSITE_ITEMS - 2);
    (0..n)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / n as f64;
            let r = if g.below(8) == 0 {
                lo + 0.2
            } else {
                lo + 0.4 * g.unit()
            };
            let c = V::Scalar::from_f64;
            V::new(c(r * a.cos()) * s, c(r * a.sin()) * s)
        })
        .collect()
}

/// A compound of up to four enum shapes with poses.
fn compound<V: Dim>(g: &mut Gen) -> Option<Compound<V, V::S>> {
    let n = g.below(5);
    let mut parts = Vec::with_capacity(n);
    for _ in 0..n {
        parts.push((V::pose(g), V::shape(g)?));
    }
    let finite = parts.iter().all(|(p, _)| p.is_finite());
    let r = Compound::new(parts);
    check_ctor("Compound", finite && n > 0, &r.as_ref().map(|_| ()));
    if n == 0 {
        assert!(r.is_err(), "empty compound accepted");
    }
    r.ok()
}

/// A concave polygon from random rings with holes, or from star-shaped rings (reflex,
/// collinear and duplicate vertices, scales over eleven decades), through its
/// constructor's contract.
fn concave_polygon<R: Real>(g: &mut Gen) -> Option<ConcavePolygon<R>> {
    let (outer, holes): (Vec<R::V2>, Vec<Vec<R::V2>>) = if g.below(2) == 0 {
        (vecs(g), (0..g.below(3)).map(|_| vecs(g)).collect())
    } else {
        let s = g.real::<R>();
        (
            star_ring(g, s, 0.5),
            (0..g.below(2)).map(|_| star_ring(g, s, 0.0)).collect(),
        )
    };
    let finite = outer
        .iter()
        .chain(holes.iter().flatten())
        .all(|v| v.is_finite());
    let r = ConcavePolygon::new(outer, holes);
    check_ctor("ConcavePolygon", finite, &r.as_ref().map(|_| ()));
    if let Err(ShapeError::OutOfRange { value, .. }) = &r {
        // Refused as too small: only when `extent² · ε` is subnormal.
        let floor = R::MIN_POSITIVE.to_f64() / R::EPSILON.to_f64();
        assert!(
            value * value < floor * 1.001,
            "extent {value} refused as too small"
        );
    }
    r.ok()
}

/// A polyline, open or closed, through its constructor's contract.
fn polyline<R: Real>(g: &mut Gen) -> Option<Polyline<R>> {
    let v: Vec<R::V2> = vecs(g);
    let finite = v.iter().all(|v| v.is_finite());
    let r = Polyline::new(v, g.below(2) == 0);
    check_ctor("Polyline", finite, &r.as_ref().map(|_| ()));
    r.ok()
}

/// A 2D heightfield, through its constructor's contract.
fn height_field_2d<R: Real>(g: &mut Gen) -> Option<heightfield_2d::HeightField<R>> {
    let (h, scale): (Vec<R>, R::V2) = (reals(g), g.vec::<R::V2>().abs());
    let finite = h.iter().all(|x| x.is_finite()) && scale.is_finite();
    let r = heightfield_2d::HeightField::new(h, scale);
    check_ctor("HeightField 2D", finite, &r.as_ref().map(|_| ()));
    r.ok()
}

/// A triangle mesh (out-of-range indices, open meshes asked to be solid), through its
/// constructor's contract.
fn trimesh<R: Real>(g: &mut Gen) -> Option<TriMesh<R>> {
    let v: Vec<R::V3> = vecs(g);
    // One case in four may index past the vertices.
    let n = v.len() as u32 + if g.below(4) == 0 { 2 } else { 0 };
    let n = n.max(1);
    let count = g.below(MAX_COMPOSITE_ITEMS + 1);
    let idx: Vec<[u32; 3]> = (0..count)
        .map(|_| [0; 3].map(|_| (g.u64() % u64::from(n)) as u32))
        .collect();
    let finite = v.iter().all(|v| v.is_finite());
    let flags = TriMeshFlags {
        solid: g.below(2) == 0,
    };
    let r = TriMesh::new(v, idx, flags);
    check_ctor("TriMesh", finite, &r.as_ref().map(|_| ()));
    r.ok()
}

/// A 3D heightfield (1 to 4 rows and columns), through its constructor's contract.
fn height_field_3d<R: Real>(g: &mut Gen) -> Option<heightfield_3d::HeightField<R>> {
    let dims = |g: &mut Gen| if g.below(8) == 0 { 1 } else { 2 + g.below(3) };
    let (rows, cols) = (dims(g), dims(g));
    let h: Vec<R> = (0..rows * cols).map(|_| g.real()).collect();
    let scale = g.vec::<R::V3>().abs();
    let finite = h.iter().all(|x| x.is_finite()) && scale.is_finite();
    let r = heightfield_3d::HeightField::new(h, rows, cols, scale);
    check_ctor("HeightField 3D", finite, &r.as_ref().map(|_| ()));
    r.ok()
}

/// The 2D composites: concave polygon (rings with holes), polyline, heightfield, compound.
fn composite_2d<R: Real>(g: &mut Gen) -> Option<shape_2d::AnyShape<R>>
where
    R::V2: Dim<S = shape_2d::Shape<R>>,
{
    match g.below(4) {
        0 => concave_polygon::<R>(g).map(Into::into),
        1 => polyline::<R>(g).map(Into::into),
        2 => height_field_2d::<R>(g).map(Into::into),
        _ => compound::<R::V2>(g).map(Into::into),
    }
}

/// The 3D composites: triangle mesh, heightfield, compound.
fn composite_3d<R: Real>(g: &mut Gen) -> Option<shape_3d::AnyShape<R>>
where
    R::V3: Dim<S = shape_3d::Shape<R>>,
{
    match g.below(3) {
        0 => trimesh::<R>(g).map(Into::into),
        1 => height_field_3d::<R>(g).map(Into::into),
        _ => compound::<R::V3>(g).map(Into::into),
    }
}

/// The single-shape queries of one 2D composite of each kind ([`check_composite`]).
fn composite_queries_2d<R: Real>(g: &mut Gen)
where
    R::V2: Dim<S = shape_2d::Shape<R>, Pose = Pose2<R>>,
{
    match g.below(4) {
        0 => {
            if let Some(c) = concave_polygon::<R>(g) {
                check_composite(g, &c, true);
            }
        }
        1 => {
            if let Some(c) = polyline::<R>(g) {
                check_composite(g, &c, false);
            }
        }
        2 => {
            if let Some(c) = height_field_2d::<R>(g) {
                check_composite(g, &c, false);
            }
        }
        _ => {
            if let Some(c) = compound::<R::V2>(g) {
                check_composite(g, &c, true);
            }
        }
    };
}

/// The single-shape queries of one 3D composite of each kind ([`check_composite`]).
fn composite_queries_3d<R: Real>(g: &mut Gen)
where
    R::V3: Dim<S = shape_3d::Shape<R>, Pose = Pose3<R>>,
{
    match g.below(3) {
        0 => {
            if let Some(c) = trimesh::<R>(g) {
                check_composite(g, &c, false);
            }
        }
        1 => {
            if let Some(c) = height_field_3d::<R>(g) {
                check_composite(g, &c, false);
            }
        }
        _ => {
            if let Some(c) = compound::<R::V3>(g) {
                check_composite(g, &c, true);
            }
        }
    };
}

/// Relative tolerance of the consistency checks between two ways of answering one
/// question (a composite against its parts, a polygon against its pieces): lengths
/// agree within `8 √ε` of the coordinates' scale (2.8e-3 in `f32`, 1.2e-7 in
/// `f64`): `√ε` is GJK's documented floor on curved shapes. Checks through the
/// closest points of sliver triangles multiply it by their aspect.
fn rel_tol<R: Real>() -> f64 {
    8.0 * R::EPSILON.to_f64().sqrt()
}

/// The point of the triangle `abc` nearest to `p`, computed in `f64` by Voronoi
/// regions (Ericson 5.1.5); for a flat triangle (collinear or coincident corners)
/// the nearest point of its three edges.
fn closest_on_triangle<V: Vector>(p: V, a: V, b: V, c: V) -> V {
    let q = closest_on_triangle_f64(f64s(p), f64s(a), f64s(b), f64s(c));
    let q: V = from_f64s(q);
    if q.is_finite() {
        return q;
    }
    [(a, b), (b, c), (c, a)]
        .map(|(u, v)| Segment { a: u, b: v }.closest_point(p).0)
        .into_iter()
        .fold(a, |best, x| {
            if x.distance(p) < best.distance(p) {
                x
            } else {
                best
            }
        })
}

/// The components of `v` in `f64` (zero beyond its dimension).
fn f64s<V: Vector>(v: V) -> [f64; 3] {
    [0, 1, 2].map(|i| if i < V::DIM { v.get(i).to_f64() } else { 0.0 })
}

fn closest_on_triangle_f64(p: [f64; 3], a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> [f64; 3] {
    let sub = |x: [f64; 3], y: [f64; 3]| [x[0] - y[0], x[1] - y[1], x[2] - y[2]];
    let dot = |x: [f64; 3], y: [f64; 3]| x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    let along =
        |o: [f64; 3], d: [f64; 3], t: f64| [o[0] + d[0] * t, o[1] + d[1] * t, o[2] + d[2] * t];
    let (ab, ac, ap) = (sub(b, a), sub(c, a), sub(p, a));
    let (d1, d2) = (dot(ab, ap), dot(ac, ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = sub(p, b);
    let (d3, d4) = (dot(ab, bp), dot(ac, bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return along(a, ab, d1 / (d1 - d3));
    }
    let cp = sub(p, c);
    let (d5, d6) = (dot(ab, cp), dot(ac, cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return along(a, ac, d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        return along(b, sub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    along(along(a, ab, vb * denom), ac, vc * denom)
}

/// The ratio of the longest to the shortest non-zero side of `part`'s own box (1
/// when it has no non-zero side).
fn box_aspect<V: Dim>(part: &V::S) -> f64 {
    let b = part.world_aabb(&<V::Pose as Isometry<V>>::IDENTITY);
    let sides: Vec<f64> = (0..V::DIM)
        .map(|i| (b.max.get(i) - b.min.get(i)).to_f64())
        .filter(|&x| x > 0.0)
        .collect();
    let lo = sides.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = sides.iter().copied().fold(0.0, f64::max);
    if lo.is_finite() && lo > 0.0 {
        (hi / lo).max(1.0)
    } else {
        1.0
    }
}

/// The largest absolute coordinate of `vs`.
fn coord_scale<V: Vector>(vs: &[V]) -> f64 {
    vs.iter()
        .fold(0.0, |m: f64, v| m.max(v.abs().max_element().to_f64()))
}

/// A point in the box `b` grown by a quarter of its size on each side.
fn point_near<V: Vector>(g: &mut Gen, b: &Aabb<V>) -> V {
    (0..V::DIM).fold(V::ZERO, |v, i| {
        let (lo, hi) = (b.min.get(i).to_f64(), b.max.get(i).to_f64());
        let u = g.unit() * 1.5 - 0.25;
        v.with(i, V::Scalar::from_f64(lo + (hi - lo) * u))
    })
}

/// The single-shape queries of a composite, checked against its parts:
/// `cast_ray_all` sorted by `t`, each hit on the ray and on its part's surface (or,
/// at `t = 0` with a zero normal, its origin inside the part); the composite's own
/// first hit no later than any part's, and equal to the first part hit when it has a
/// normal; `project_point` no farther than the nearest part's projection (and, for a
/// point outside, as far); `contains_point` true only where the projection says
/// inside. `parts_fill`: the parts cover the composite's solid (a concave polygon, a
/// compound), so a point inside is inside some part.
fn check_composite<V, C>(g: &mut Gen, c: &C, parts_fill: bool)
where
    V: Dim,
    C: Composite<V, Part = V::S> + RayCast<V> + ProjectPoint<V> + Debug,
{
    reached();
    let identity = <V::Pose as Isometry<V>>::IDENTITY;
    let bb = composite_q::world_aabb(c, &identity);
    let tame_shape = !g.wild && tame_v(bb.min) && tame_v(bb.max);
    // Closest points on sliver triangles lose precision in proportion to their
    // aspect (cancellation in Ericson's formulas, GJK's stopping rule): the
    // tolerances of the projection checks grow with the worst part's.
    let aspect = (0..c.part_count() as u32)
        .map(|i| c.with_part(i, |_, part| V::part_aspect(part)))
        .fold(1.0, f64::max);
    let scale = coord_scale(&[bb.min, bb.max]);
    let what = format!("{}: {c:?}", V::NAME);
    for _ in 0..3 {
        let ray = Ray {
            origin: point_near(g, &bb),
            dir: g.vec::<V>(),
        };
        let t = max_t::<V::Scalar>(g);
        let tame = tame_shape && !g.wild && tame_v(ray.dir) && t.is_finite();
        composite_ray(&what, c, &ray, t, tame, (scale, aspect));
    }
    for _ in 0..3 {
        let p = point_near(g, &bb);
        if tame_shape && tame_v(p) {
            composite_projection(&what, c, p, parts_fill, scale, aspect);
        }
    }
}

/// The ray checks of [`check_composite`].
fn composite_ray<V, C>(
    what: &str,
    c: &C,
    ray: &Ray<V>,
    t: V::Scalar,
    tame: bool,
    (scale, aspect): (f64, f64),
) where
    V: Dim,
    C: Composite<V, Part = V::S> + RayCast<V>,
{
    let all = composite_q::cast_ray_all(c, ray, t);
    let first = c.cast_ray(ray, t);
    let sorted = all
        .windows(2)
        .all(|w| (w[0].1.t, w[0].0) <= (w[1].1.t, w[1].0));
    assert!(sorted, "cast_ray_all unsorted {all:?} ray {ray:?}: {what}");
    for &(_, h) in &all {
        check_ray_hit(what, ray, t, Some(h), tame);
    }
    check_ray_hit(what, ray, t, first, tame);
    if !tame {
        return;
    }
    let reach = ray.dir.length().to_f64() * t.to_f64();
    let tol = rel_tol::<V::Scalar>() * scale.max(reach).max(coord_scale(&[ray.origin]));
    let surface_tol = tol * aspect;
    for &(i, h) in &all {
        let on_ray = ray.origin + ray.dir * h.t;
        let off_ray = h.point.distance(on_ray).to_f64();
        assert!(
            off_ray <= tol,
            "hit {h:?} off the ray {ray:?} by {off_ray}: {what}"
        );
        let solid = h.normal == V::ZERO;
        let q = c.with_part(i, |pp, part| V::closest_on_part(pp, part, h.point, solid));
        let off = q.distance(h.point).to_f64();
        assert!(
            off <= surface_tol,
            "hit {h:?} {off} off part {i}, ray {ray:?}: {what}"
        );
    }
    let dir_len = ray.dir.length().to_f64();
    if dir_len == 0.0 {
        return;
    }
    let tol_t = tol / dir_len;
    let beyond_t = t + V::Scalar::from_f64(tol_t);
    if let Some(&(_, h)) = all.first() {
        // Likewise a part hit at the end of the range (see below).
        let f = first.or_else(|| c.cast_ray(ray, beyond_t));
        let f = f.unwrap_or_else(|| panic!("part hit {h:?}, no hit (max_t {t:?}): {ray:?} {what}"));
        let late = f.t.to_f64() - h.t.to_f64();
        assert!(
            late <= tol_t,
            "first hit {f:?} after part hit {h:?}: {ray:?} {what}"
        );
    }
    if let Some(f) = first.filter(|f| f.normal != V::ZERO) {
        // A hit at the end of the range (an origin on the boundary within its
        // tolerance, `max_t = 0`) may have its part's hit just beyond the range.
        let beyond = || composite_q::cast_ray_all(c, ray, beyond_t);
        let h = all
            .first()
            .map(|&(_, h)| h)
            .or_else(|| beyond().first().map(|&(_, h)| h));
        let h = h.unwrap_or_else(|| panic!("hit {f:?}, no part hit (max_t {t:?}): {ray:?} {what}"));
        let gap = (f.t.to_f64() - h.t.to_f64()).abs();
        assert!(gap <= tol_t, "hit {f:?}, part hit {h:?}: {ray:?} {what}");
    }
}

/// The projection and containment checks of [`check_composite`].
fn composite_projection<V, C>(what: &str, c: &C, p: V, parts_fill: bool, scale: f64, aspect: f64)
where
    V: Dim,
    C: Composite<V, Part = V::S> + ProjectPoint<V>,
{
    let tol = rel_tol::<V::Scalar>() * scale.max(coord_scale(&[p])) * aspect;
    let proj = c.project_local_point(p, true);
    let d = proj.point.distance(p).to_f64();
    let brute = (0..c.part_count() as u32)
        .map(|i| c.with_part(i, |pp, part| V::closest_on_part(pp, part, p, true)))
        .map(|q| q.distance(p).to_f64())
        .fold(f64::INFINITY, f64::min);
    assert!(
        d <= brute + tol,
        "projection {proj:?} of {p:?} at {d}, a part at {brute}: {what}"
    );
    if !proj.is_inside {
        assert!(
            d >= brute - tol,
            "projection {proj:?} of {p:?} at {d}, parts at {brute}: {what}"
        );
    }
    let identity = <V::Pose as Isometry<V>>::IDENTITY;
    let inside = composite_q::contains_point(c, &identity, p);
    assert!(
        !inside || proj.is_inside,
        "{p:?} contained, projection {proj:?}: {what}"
    );
    if proj.is_inside && !inside {
        assert!(d <= tol, "{p:?} not contained, projection {proj:?}: {what}");
    }
    if parts_fill && inside {
        assert!(
            brute <= tol,
            "{p:?} inside, {brute} from every part: {what}"
        );
    }
}

/// Decomposition: a concave polygon from random rings (with holes) has convex pieces
/// whose areas add up to the polygon's, and sampled points (random ones near the
/// polygon and each piece's centroid) away from the boundary are inside the polygon
/// exactly when inside a piece.
fn decomposition<R: Real>(g: &mut Gen)
where
    R::V2: Dim,
{
    let Some(poly) = concave_polygon::<R>(g) else {
        return;
    };
    reached();
    let what = format!("{}: {poly:?}", <R::V2 as Dim>::NAME);
    let bb = poly.local_aabb();
    let (scale, eps) = (coord_scale(&[bb.min, bb.max]), R::EPSILON.to_f64());
    let tame = !g.wild && tame_v(bb.min) && tame_v(bb.max);
    for piece in poly.pieces() {
        check_convex(&what, piece.vertices(), eps);
    }
    let pieces_area: f64 = poly.pieces().iter().map(|p| ring_area(p.vertices())).sum();
    let area = poly.area().to_f64();
    let n = poly.outer().len() + poly.holes().iter().map(Vec::len).sum::<usize>();
    let slack = 1e-4 * area.abs() + 64.0 * n as f64 * eps * scale * scale;
    assert!(
        !tame || (pieces_area - area).abs() <= slack,
        "pieces' area {pieces_area} vs {area}: {what}"
    );
    let centroids = poly.pieces().iter().map(|p| centroid(p.vertices()));
    let samples: Vec<R::V2> = (0..8)
        .map(|_| point_near(g, &bb))
        .chain(centroids)
        .collect();
    let near = 1024.0 * eps * scale;
    for p in samples {
        let edge = poly
            .closest_boundary_point(p)
            .map(|q| q.distance(p).to_f64());
        if !tame || edge.is_none_or(|e| e <= near) {
            continue;
        }
        let in_poly = poly.contains_point(p);
        let in_pieces = poly.pieces().iter().any(|q| q.contains_point(p));
        assert_eq!(
            in_poly, in_pieces,
            "{p:?} ({edge:?} from the boundary): {what}"
        );
    }
}

/// Every turn of the ring `v` is left or straight (within `64 ε` of the edges'
/// lengths' product).
fn check_convex<V: Vector2>(what: &str, v: &[V], eps: f64) {
    assert!(v.len() >= 3, "piece of {} vertices: {what}", v.len());
    for i in 0..v.len() {
        let (a, b, c) = (v[i], v[(i + 1) % v.len()], v[(i + 2) % v.len()]);
        let (e1, e2) = (b - a, c - b);
        let turn = e1.perp_dot(e2).to_f64();
        let slack = 64.0 * eps * e1.length().to_f64() * e2.length().to_f64();
        assert!(turn >= -slack, "reflex piece vertex {b:?}: {v:?}: {what}");
    }
}

/// The signed area of a ring (shoelace, in `f64`).
fn ring_area<V: Vector2>(v: &[V]) -> f64 {
    let twice: f64 = (0..v.len())
        .map(|i| {
            let (a, b) = (v[i], v[(i + 1) % v.len()]);
            a.x().to_f64() * b.y().to_f64() - b.x().to_f64() * a.y().to_f64()
        })
        .sum();
    twice / 2.0
}

/// The mean of the vertices (inside a convex piece).
fn centroid<V: Vector>(v: &[V]) -> V {
    let n = V::Scalar::from_f64(v.len() as f64);
    v.iter().fold(V::ZERO, |s, &p| s + p) * (V::Scalar::ONE / n)
}

/// One live shape of a world under test, as the brute-force scan sees it.
#[derive(Debug)]
struct Live<V: Dim> {
    handle: Handle,
    shape: V::A,
    pose: V::Pose,
    filter: Filter,
}

/// A random filter (each shape in category 1 at least, so `Filter::ALL` sees it).
fn filter(g: &mut Gen) -> Filter {
    Filter {
        group: g.u64() as u32 | 1,
        mask: g.u64() as u32 | 1,
    }
}

/// `World<V, AnyShape>`: random inserts, moves (non-finite poses refused, the old
/// pose kept), removes (a stale handle finds nothing), updates and scene queries,
/// every answer equal to a brute-force scan over the live shapes.
fn world_any<V: Dim>(g: &mut Gen) {
    let prediction = g.real::<V::Scalar>().abs();
    let mut w = World::<V, V::A>::with_prediction(prediction).unwrap_or_default();
    let prediction = if prediction.is_finite() {
        prediction
    } else {
        V::Scalar::ZERO
    };
    let mut live: Vec<Live<V>> = Vec::new();
    reached();
    for _ in 0..g.below(MAX_OPS / 2) {
        match g.below(6) {
            0 | 1 => world_insert(g, &mut w, &mut live),
            2 if !live.is_empty() => {
                let k = g.below(live.len());
                let pose = V::pose(g);
                let r = w.set_pose(live[k].handle, pose);
                check_ctor("World::set_pose", pose.is_finite(), &r);
                if r.is_ok() {
                    live[k].pose = pose;
                }
                let kept = w.pose(live[k].handle).map(|p| format!("{p:?}"));
                assert_eq!(
                    kept,
                    Some(format!("{:?}", live[k].pose)),
                    "pose after set_pose"
                );
            }
            3 if !live.is_empty() => {
                let gone = live.swap_remove(g.below(live.len())).handle;
                assert!(w.remove(gone).is_ok(), "remove of a live handle failed");
                assert!(
                    matches!(
                        w.remove(gone),
                        Err(isect::world::WorldError::StaleHandle(_))
                    ),
                    "second remove found the shape"
                );
            }
            4 => world_contacts(&mut w, &live, prediction),
            _ => world_scan(g, &w, &live),
        }
        assert_eq!(w.len(), live.len(), "world size");
    }
    world_scan(g, &w, &live);
}

/// Inserts a random shape (composite or convex) at a random pose.
fn world_insert<V: Dim>(g: &mut Gen, w: &mut World<V, V::A>, live: &mut Vec<Live<V>>) {
    let Some(shape) = any_shape::<V>(g) else {
        return;
    };
    let (pose, filter) = (V::pose(g), filter(g));
    let r = w.insert(shape.clone(), pose, filter);
    check_ctor("World::insert", pose.is_finite(), &r);
    if let Ok(handle) = r {
        live.push(Live {
            handle,
            shape,
            pose,
            filter,
        });
    }
}

/// `update`'s contacts are exactly the pairs (allowed by their filters) that
/// `dispatch::contact` finds within the world's prediction.
fn world_contacts<V: Dim>(w: &mut World<V, V::A>, live: &[Live<V>], prediction: V::Scalar) {
    w.update();
    let mut got: Vec<(Handle, Handle)> = w.contacts().iter().map(|c| (c.a, c.b)).collect();
    got.sort_unstable();
    let mut want = Vec::new();
    for x in live {
        for y in live.iter().filter(|y| x.handle < y.handle) {
            let allowed = x.filter.allows(&y.filter);
            if allowed
                && dispatch::contact(&x.pose, &x.shape, &y.pose, &y.shape, prediction).is_some()
            {
                want.push((x.handle, y.handle));
            }
        }
    }
    want.sort_unstable();
    assert_eq!(
        got, want,
        "update's contacts vs scan, prediction {prediction:?}: {live:?}"
    );
}

/// The sorted handles of the live shapes allowed by `f` that pass `test`.
fn scan<V: Dim>(live: &[Live<V>], f: &Filter, test: impl Fn(&Live<V>) -> bool) -> Vec<Handle> {
    let mut found: Vec<Handle> = live
        .iter()
        .filter(|e| e.filter.allows(f) && test(e))
        .map(|e| e.handle)
        .collect();
    found.sort_unstable();
    found
}

/// Asserts that a world query's answer agrees with the scan's: the world answers
/// nothing the scan does not; with tame input it misses nothing either, except
/// answers `borderline` accepts (shapes whose bounding box is a rounding error away
/// from the query's box: the world culls by boxes first, and an exact test may say
/// "touching" within its own relative tolerance). With wild values (huge
/// coordinates) misses are allowed. `first`: the world answers the earliest scan
/// answer only (a closest hit), so only earlier scan answers count as misses.
fn agree<T: PartialOrd + Debug>(
    what: &str,
    (tame, first): (bool, bool),
    got: &[T],
    want: &[T],
    borderline: &dyn Fn(&T) -> bool,
) {
    let extra: Vec<&T> = got.iter().filter(|x| !want.contains(x)).collect();
    assert!(
        extra.is_empty(),
        "{what}: world found {extra:?}, scan {want:?}"
    );
    if !tame {
        return;
    }
    let missed = want
        .iter()
        .filter(|x| !got.contains(x) && (!first || got.first().is_none_or(|g| *x < g)));
    let missed: Vec<&T> = missed.filter(|x| !borderline(x)).collect();
    assert!(
        missed.is_empty(),
        "{what}: world missed {missed:?}, found {got:?}"
    );
}

/// Slack of a world query against its scan: `4 √ε` times the coordinates' scale,
/// the floor of GJK's relative tolerance on curved shapes (`query::cast_shapes`).
fn cull_slack<V: Vector>(boxes: &[Aabb<V>]) -> V::Scalar {
    let corners: Vec<V> = boxes.iter().flat_map(|b| [b.min, b.max]).collect();
    let scale = coord_scale(&corners);
    V::Scalar::from_f64(4.0 * V::Scalar::EPSILON.to_f64().sqrt() * scale)
}

/// True when the boxes touch once grown by [`cull_slack`]: a shape the world culled
/// by its box while the exact test says "touching" within its tolerance.
fn boxes_touch_roughly<V: Vector>(a: &Aabb<V>, b: &Aabb<V>) -> bool {
    a.loosened(cull_slack(&[*a, *b])).intersects(b)
}

/// True when the ray reaches the box grown by [`cull_slack`] of the box and the ray's
/// origin (a ray cast is a shape cast of a point, whose tolerance is relative to
/// the size of `A − B`, the origin's offset included: a ray from 100 away "hits" a
/// point it passes 0.009 from, in `f32`).
fn ray_reaches_roughly<V: Vector>(a: &Aabb<V>, ray: &Ray<V>, t: V::Scalar) -> bool {
    let origin = Aabb {
        min: ray.origin,
        max: ray.origin,
    };
    a.loosened(cull_slack(&[*a, origin]))
        .cast_ray(ray, t)
        .is_some()
}

/// The world's ray, point, box, overlap and shape-cast queries against the scan.
fn world_scan<V: Dim>(g: &mut Gen, w: &World<V, V::A>, live: &[Live<V>]) {
    let qf = Filter {
        group: g.u64() as u32,
        mask: g.u64() as u32,
    };
    let (ray, t, p, region) = (
        g.ray::<V>(),
        max_t::<V::Scalar>(g),
        g.vec::<V>(),
        g.raw_aabb::<V>(),
    );
    let tame = !g.wild;
    let near = |h: &Handle, b: &Aabb<V>| w.aabb(*h).is_some_and(|a| boxes_touch_roughly(a, b));
    let mut hits: Vec<(V::Scalar, Handle)> = live
        .iter()
        .filter(|e| e.filter.allows(&qf))
        .filter_map(|e| Some((e.shape.cast_ray_posed(&e.pose, &ray, t)?.t, e.handle)))
        .collect();
    hits.sort_by(|x, y| x.partial_cmp(y).unwrap_or(std::cmp::Ordering::Equal));
    let all: Vec<_> = w
        .cast_ray_all(&ray, t, qf)
        .iter()
        .map(|h| (h.hit.t, h.handle))
        .collect();
    let what = format!("cast_ray_all {ray:?} max_t {t:?} over {live:?}");
    let reach =
        |x: &(V::Scalar, Handle)| w.aabb(x.1).is_some_and(|a| ray_reaches_roughly(a, &ray, t));
    agree(&what, (tame, false), &all, &hits, &reach);
    let best: Vec<_> = w
        .cast_ray(&ray, t, qf)
        .map(|h| (h.hit.t, h.handle))
        .into_iter()
        .collect();
    agree(
        &format!("cast_ray {what}"),
        (tame, true),
        &best,
        &hits,
        &reach,
    );
    let at = scan(live, &qf, |e| e.shape.contains_point(&e.pose, p));
    let what = format!("shapes_at_point {p:?} over {live:?}");
    let point = Aabb { min: p, max: p };
    agree(&what, (tame, false), &w.shapes_at_point(p, qf), &at, &|h| {
        near(h, &point)
    });
    let inside = scan(live, &qf, |e| e.shape.intersects_aabb(&e.pose, &region));
    let what = format!("shapes_in_aabb {region:?} over {live:?}");
    let got = w.shapes_in_aabb(&region, qf);
    agree(&what, (tame, false), &got, &inside, &|h| near(h, &region));
    let Some(s) = any_shape::<V>(g) else { return };
    let (pose, vel) = (V::pose(g), g.vec::<V>());
    let tame = !g.wild;
    let touching = scan(live, &qf, |e| {
        dispatch::intersects(&e.pose, &e.shape, &pose, &s)
    });
    let got = w.intersecting_shapes(&pose, &s, qf);
    let what = format!("intersecting_shapes {s:?} at {pose:?} over {live:?}");
    let sb = s.world_aabb(&pose);
    agree(&what, (tame, false), &got, &touching, &|h| near(h, &sb));
    world_cast_scan(w, live, &qf, (&pose, vel, &s), t, tame);
}

/// `World::cast_shape` against the earliest `dispatch::cast_shapes` over the scan.
fn world_cast_scan<V: Dim>(
    w: &World<V, V::A>,
    live: &[Live<V>],
    qf: &Filter,
    (pose, vel, s): (&V::Pose, V, &V::A),
    t: V::Scalar,
    tame: bool,
) {
    let got = w.cast_shape(pose, vel, s, t, *qf).map(|(h, c)| (c.time, h));
    let valid = t.is_finite() && t >= V::Scalar::ZERO && vel.is_finite();
    let mut want: Vec<(V::Scalar, Handle)> = live
        .iter()
        .filter(|e| valid && e.filter.allows(qf))
        .filter_map(|e| {
            let c = dispatch::cast_shapes(&e.pose, V::ZERO, &e.shape, pose, vel, s, t)?;
            Some((c.time, e.handle))
        })
        .collect();
    want.sort_by(|x, y| x.partial_cmp(y).unwrap_or(std::cmp::Ordering::Equal));
    let what = format!("cast_shape {s:?} at {pose:?} vel {vel:?} over {live:?}");
    let start = s.world_aabb(pose);
    let swept = start.merged(&Aabb {
        min: start.min + vel * t,
        max: start.max + vel * t,
    });
    let near =
        |x: &(V::Scalar, Handle)| w.aabb(x.1).is_some_and(|a| boxes_touch_roughly(a, &swept));
    let got: Vec<_> = got.into_iter().collect();
    agree(&what, (tame, true), &got, &want, &near);
}

/// Largest number of shapes in one world of the distance family.
pub const MAX_DISTANCE_SHAPES: usize = 30;

/// The world distance family: a scene at a random scale (1e-3 to 1e4, every value
/// from [`Gen::scene`]), shifted far from the origin or not, of the enum's convex
/// kinds (`World<V, S>`) or also of composites (`World<V, AnyShape>`), some static,
/// some moved or removed; then each distance query against a brute force over every
/// handle; then the capsule–box distance kernel against GJK.
fn world_distance<V: Dim>(g: &mut Gen) {
    let scale = 10f64.powf(g.unit() * 7.0 - 3.0);
    let far = [0.0, 1.0, 10.0, 100.0][g.below(4)] * scale;
    let offset = (0..V::DIM).fold(V::ZERO, |v, i| {
        v.with(i, V::Scalar::from_f64(far * (g.unit() * 8.0 - 4.0)))
    });
    g.scene = Some(scale);
    reached();
    if g.below(2) == 0 {
        distance_world::<V, V::S>(g, offset, V::shape);
    } else {
        distance_world::<V, V::A>(g, offset, any_shape::<V>);
    }
    capsule_box_kernel::<V>(g, offset);
}

/// A world of up to [`MAX_DISTANCE_SHAPES`] shapes from `make`, at poses shifted by
/// `offset`, and one to three rounds of every distance query on it.
fn distance_world<V: Dim, W>(g: &mut Gen, offset: V, make: fn(&mut Gen) -> Option<W>)
where
    W: DispatchShape<V> + ProjectPoint<V> + Debug + Sync,
{
    let shift = V::Pose::from_translation(offset);
    let mut w = World::<V, W>::new();
    for _ in 0..g.below(MAX_DISTANCE_SHAPES + 1) {
        let Some(shape) = make(g) else { continue };
        let (pose, f) = (shift.mul(&V::pose(g)), filter(g));
        let r = if g.below(4) == 0 {
            w.insert_static(shape, pose, f)
        } else {
            w.insert(shape, pose, f)
        };
        r.expect("World::insert of a finite scene shape");
    }
    let handles: Vec<Handle> = w.handles().collect();
    for _ in 0..g.below(3) {
        let Some(&h) = handles.get(g.below(handles.len().max(1))) else {
            break;
        };
        if g.below(2) == 0 {
            let _ = w.remove(h);
        } else if w.shape(h).is_some() {
            let pose = shift.mul(&V::pose(g));
            w.set_pose(h, pose).expect("set_pose of a finite pose");
        }
    }
    if g.below(2) == 0 {
        let _ = w.update();
    }
    for _ in 0..1 + g.below(3) {
        distance_queries(g, &w, offset, make);
    }
}

/// The handles of `w` that `filter` allows, with `f` of each (finite values only: the
/// world skips non-finite answers).
fn brute_all<V: Dim, W: DispatchShape<V>>(
    w: &World<V, W>,
    filter: &Filter,
    f: impl Fn(&W, &V::Pose) -> V::Scalar,
) -> Vec<(f64, Handle)> {
    w.handles()
        .filter(|&h| w.filter(h).unwrap().allows(filter))
        .map(|h| (f(w.shape(h).unwrap(), w.pose(h).unwrap()).to_f64(), h))
        .filter(|(d, _)| d.is_finite())
        .collect()
}

/// The signed distance of a pair as the world defines it: the closest points'
/// distance when apart, minus the contact's depth when touching or overlapping.
fn signed_pair<V: GjkVector, W: DispatchShape<V>>(
    pa: &V::Pose,
    a: &W,
    pb: &V::Pose,
    b: &W,
) -> V::Scalar {
    let d = dispatch::closest_points(pa, a, pb, b).distance;
    if d > V::Scalar::ZERO {
        return d;
    }
    dispatch::contact(pa, a, pb, b, V::Scalar::ZERO)
        .map_or(V::Scalar::ZERO, |c| -c.depth.max(V::Scalar::ZERO))
}

/// The signed distance of a point to a shape as the world defines it
/// (`project_point` with `solid = false`, negative inside).
fn signed_point<V: Vector, W: ProjectPoint<V>>(p: V, shape: &W, pose: &V::Pose) -> V::Scalar {
    let proj = shape.project_point(pose, p, false);
    let d = (p - proj.point).length();
    if proj.is_inside {
        -d
    } else {
        d
    }
}

/// Shape `h` of `w` and its pose, for a failure's message.
fn describe<V: Dim, W: DispatchShape<V> + Debug>(w: &World<V, W>, h: Handle) -> String {
    format!("{h:?}: {:?} at {:?}", w.shape(h), w.pose(h))
}

/// The tolerance of the distance family: `8 √ε` (see [`rel_tol`]) times the
/// largest coordinate of the world's boxes and of the query's box.
fn distance_tol<V: Dim, W: DispatchShape<V>>(w: &World<V, W>, query: &Aabb<V>) -> f64 {
    let extent = w
        .handles()
        .map(|h| *w.aabb(h).unwrap())
        .chain([*query])
        .map(|b| coord_scale(&[b.min, b.max]))
        .fold(0.0, f64::max);
    rel_tol::<V::Scalar>() * extent
}

/// A `max_distance`: infinite, zero, or a random length of the scene.
fn max_distance<V: Dim>(g: &mut Gen) -> V::Scalar {
    match g.below(4) {
        0 => V::Scalar::INFINITY,
        1 => V::Scalar::ZERO,
        _ => g.real::<V::Scalar>().abs(),
    }
}

/// A refused `max_distance`: NaN or negative.
fn bad_distance<V: Dim>(g: &mut Gen) -> V::Scalar {
    if g.below(2) == 0 {
        V::Scalar::from_f64(f64::NAN)
    } else {
        -V::Scalar::from_f64(1.0 + g.unit())
    }
}

/// A non-finite pose: `pose` shifted by NaN or infinity.
fn bad_pose<V: Dim>(g: &mut Gen, pose: &V::Pose) -> V::Pose {
    let bad = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY][g.below(3)];
    let t = V::ZERO.with(g.below(V::DIM), V::Scalar::from_f64(bad));
    V::Pose::from_translation(t).mul(pose)
}

/// Asserts that the world's nearest answer agrees with the brute force `all` (every
/// allowed handle at its distance): within `max`, at its shape's own distance, no
/// farther than the best (near-ties may pick either), and nothing missed within
/// `max`, each to `eps`. `ranked`: for queries the world ranks by the very function
/// the brute force used, whether the world surely ranked handle `h` for an answer at
/// distance `d` (its box not pruned); such an exact tie must go to the smaller handle.
/// (A tied shape whose box rounding puts a hair farther than the answer is pruned:
/// the tie then goes to the first found, which the contract allows for near-ties.)
fn check_nearest<V: Vector>(
    what: &str,
    got: Option<WorldDistance<V>>,
    all: &[(f64, Handle)],
    max: f64,
    eps: f64,
    ranked: Option<&dyn Fn(Handle, f64) -> bool>,
    describe: &dyn Fn(Handle) -> String,
) {
    let best = all.iter().copied().min_by(|a, b| a.partial_cmp(b).unwrap());
    let Some(a) = got else {
        if let Some((b, h)) = best {
            assert!(
                b > max - eps,
                "{what}: world finds nothing within {max}, brute force {h:?} at {b} (eps {eps}): {}",
                describe(h)
            );
        }
        return;
    };
    let d = a.distance.to_f64();
    assert!(d <= max, "{what}: answer {d} beyond max_distance {max}");
    let own = all
        .iter()
        .find(|x| x.1 == a.handle)
        .unwrap_or_else(|| panic!("{what}: answers {:?}, not allowed", a.handle))
        .0;
    assert!(
        (d - own).abs() <= eps,
        "{what}: world says {:?} at {d}, brute force {own} (eps {eps})",
        a.handle
    );
    let (b, h) = best.expect("an answer, so an allowed handle");
    assert!(
        own <= b + eps,
        "{what}: world {:?} at {own}, brute force {h:?} at {b} (eps {eps}): world's {}, brute force's {}",
        a.handle,
        describe(a.handle),
        describe(h)
    );
    if let Some(ranked) = ranked {
        let tie = all
            .iter()
            .find(|&&(e, h)| h < a.handle && e == d && ranked(h, d));
        assert!(
            tie.is_none(),
            "{what}: tie at {d} went to {:?}, not {tie:?}: {}",
            a.handle,
            describe(a.handle)
        );
    }
    check_unit_or_zero(what, a.normal);
    assert!(
        a.point.is_finite() && a.query_point.is_finite(),
        "{what}: non-finite points {a:?}"
    );
}

/// One round of the six distance verbs on `w`, each against the brute force, and
/// their refused inputs.
fn distance_queries<V: Dim, W>(
    g: &mut Gen,
    w: &World<V, W>,
    offset: V,
    make: fn(&mut Gen) -> Option<W>,
) where
    W: DispatchShape<V> + ProjectPoint<V> + Debug + Sync,
{
    let shift = V::Pose::from_translation(offset);
    let f = if g.below(3) == 0 {
        filter(g)
    } else {
        Filter::ALL
    };
    let max = max_distance::<V>(g);
    let m = max.to_f64();

    // Points, unsigned and signed.
    let p = offset + g.vec::<V>();
    let eps = distance_tol(w, &Aabb { min: p, max: p });
    let unsigned = brute_all(w, &f, |s, pose| {
        (p - s.project_point(pose, p, true).point).length()
    });
    let signed = brute_all(w, &f, |s, pose| signed_point(p, s, pose));
    let box_distance = |h: Handle| w.aabb(h).unwrap().distance_squared_to_point(p);
    let ranked = |h: Handle, d: f64| {
        let reach = V::Scalar::from_f64(d.max(0.0));
        box_distance(h) <= reach * reach
    };
    for (what, got, all) in [
        ("nearest_to_point", w.nearest_to_point(p, max, f), &unsigned),
        (
            "signed_distance_to_point",
            w.signed_distance_to_point(p, max, f),
            &signed,
        ),
    ] {
        let describe = |h| format!("{p:?} to {}", describe(w, h));
        check_nearest(what, got, all, m, eps, Some(&ranked), &describe);
        if let Some(a) = got {
            assert_eq!(a.query_point, p, "{what}: query point");
            let gap = (p - a.point).length().to_f64();
            let d = a.distance.to_f64().abs();
            assert!((gap - d).abs() <= eps, "{what}: |p − point| {gap} vs {d}");
        }
    }
    let nan_p = p.with(g.below(V::DIM), V::Scalar::from_f64(f64::NAN));
    assert!(w.nearest_to_point(nan_p, max, f).is_none(), "NaN point");
    let bad = bad_distance::<V>(g);
    assert!(
        w.signed_distance_to_point(p, bad, f).is_none(),
        "max {bad:?}"
    );

    // Shapes, unsigned and signed.
    let Some(q) = make(g) else { return };
    let pose = shift.mul(&V::pose(g));
    let eps = distance_tol(w, &q.world_aabb(&pose));
    let apart = |s: &W, sp: &V::Pose| dispatch::closest_points(sp, s, &pose, &q).distance;
    let unsigned = brute_all(w, &f, apart);
    let signed = brute_all(w, &f, |s, sp| signed_pair(sp, s, &pose, &q));
    let got = w.nearest_to_shape(&pose, &q, max, f);
    let describe = |h| format!("{q:?} at {pose:?} to {}", describe(w, h));
    check_nearest("nearest_to_shape", got, &unsigned, m, eps, None, &describe);
    if let Some(a) = got.filter(|a| a.distance > V::Scalar::ZERO) {
        let gap = (a.query_point - a.point).length().to_f64();
        let d = a.distance.to_f64();
        assert!((gap - d).abs() <= eps, "nearest_to_shape: gap {gap} vs {d}");
    }
    let got = w.signed_distance_to_shape(&pose, &q, max, f);
    check_nearest(
        "signed_distance_to_shape",
        got,
        &signed,
        m,
        eps,
        None,
        &describe,
    );
    let wrong = bad_pose::<V>(g, &pose);
    assert!(w.nearest_to_shape(&wrong, &q, max, f).is_none(), "bad pose");
    assert!(
        w.signed_distance_to_shape(&pose, &q, bad, f).is_none(),
        "max {bad:?}"
    );

    // Every shape within a distance.
    let r = g.real::<V::Scalar>().abs();
    let found = w.shapes_within_distance(&pose, &q, r, f);
    let within = brute_all(w, &f, |s, sp| dispatch::distance(sp, s, &pose, &q));
    assert!(
        found.windows(2).all(|x| x[0].0 < x[1].0),
        "shapes_within_distance unsorted"
    );
    let r = r.to_f64();
    for &(h, d) in &found {
        let (d, own) = (d.to_f64(), within.iter().find(|x| x.1 == h));
        let own = own.unwrap_or_else(|| panic!("within: {h:?} not allowed")).0;
        assert!(
            d <= r && (d - own).abs() <= eps,
            "within {r}: {h:?} at {d}, brute {own}"
        );
    }
    for &(d, h) in &within {
        let listed = found.iter().any(|x| x.0 == h);
        assert!(
            listed || d > r - eps,
            "within {r}: {h:?} at {d} missed (eps {eps})"
        );
    }
    assert!(w
        .shapes_within_distance(&wrong, &q, V::Scalar::from_f64(r), f)
        .is_empty());
    assert!(w.shapes_within_distance(&pose, &q, bad, f).is_empty());
    // An infinite distance lists every admitted shape (whose distance is a number).
    let all = w.shapes_within_distance(&pose, &q, V::Scalar::INFINITY, f);
    assert_eq!(all.len(), within.len(), "within ∞: every admitted shape");

    configurations(g, w, offset, make, f);
}

/// `check_configurations` on up to three links in up to three configurations: each
/// clearance the least signed distance of its links (brute force), its flag whether
/// that is `≤ 0`; a bad batch (no links, a length not a multiple of them, a refused
/// pose or `max_distance`) a named error.
fn configurations<V: Dim, W>(
    g: &mut Gen,
    w: &World<V, W>,
    offset: V,
    make: fn(&mut Gen) -> Option<W>,
    f: Filter,
) where
    W: DispatchShape<V> + ProjectPoint<V> + Debug + Sync,
{
    let shift = V::Pose::from_translation(offset);
    let links: Vec<W> = (0..1 + g.below(3)).filter_map(|_| make(g)).collect();
    let n = links.len() * g.below(4);
    let poses: Vec<V::Pose> = (0..n).map(|_| shift.mul(&V::pose(g))).collect();
    let max = max_distance::<V>(g);
    let r = w.check_configurations(&links, &poses, max, f);
    if links.is_empty() {
        assert!(
            matches!(r, Err(WorldError::BatchLength { .. })),
            "no links: {r:?}"
        );
        return;
    }
    let checks = r.expect("a valid batch");
    assert_eq!(checks.len(), poses.len() / links.len(), "one answer each");
    let m = max.to_f64();
    for (c, check) in checks.iter().enumerate() {
        let config = &poses[c * links.len()..][..links.len()];
        let eps = links
            .iter()
            .zip(config)
            .map(|(l, p)| distance_tol(w, &l.world_aabb(p)))
            .fold(0.0, f64::max);
        let all: Vec<Vec<(f64, Handle)>> = links
            .iter()
            .zip(config)
            .map(|(l, p)| brute_all(w, &f, |s, sp| signed_pair(sp, s, p, l)))
            .collect();
        let best = all
            .iter()
            .flatten()
            .map(|x| x.0)
            .fold(f64::INFINITY, f64::min);
        match check.nearest {
            Some((link, at)) => {
                let d = at.distance.to_f64();
                let what = format!("configuration {c} link {link}");
                let (l, p) = (&links[link], &config[link]);
                let describe = |h| format!("{l:?} at {p:?} to {}", describe(w, h));
                check_nearest(&what, Some(at), &all[link], m, eps, None, &describe);
                assert!(d <= best + eps, "{what}: {d}, brute force {best}");
                assert_eq!(check.clearance, at.distance, "{what}: clearance");
                assert_eq!(check.collides, d <= 0.0, "{what}: flag");
            }
            None => {
                let none = best == f64::INFINITY || best > m - eps;
                assert!(none, "configuration {c}: none, brute force {best}");
                assert_eq!(check.clearance, max, "configuration {c}: clearance");
                assert!(!check.collides, "configuration {c}: collides");
            }
        }
    }
    let mut more = poses.clone();
    more.push(shift.mul(&V::pose(g)));
    let r = w.check_configurations(&links, &more, max, f);
    if links.len() > 1 {
        assert!(matches!(r, Err(WorldError::BatchLength { .. })), "{r:?}");
    }
    let bad = bad_distance::<V>(g);
    let r = w.check_configurations(&links, &poses, bad, f);
    assert!(
        matches!(r, Err(WorldError::Invalid(_))),
        "max {bad:?}: {r:?}"
    );
    if !poses.is_empty() {
        let k = g.below(poses.len());
        more = poses.clone();
        more[k] = bad_pose::<V>(g, &poses[k]);
        let r = w.check_configurations(&links, &more, max, f);
        assert!(matches!(r, Err(WorldError::Invalid(_))), "bad pose: {r:?}");
    }
}

/// The squared distance from `p` to the box `b`, in `f64`.
fn box_distance_squared<V: Vector>(p: V, b: &Aabb<V>) -> f64 {
    (0..V::DIM)
        .map(|i| {
            let (x, lo, hi) = (
                p.get(i).to_f64(),
                b.min.get(i).to_f64(),
                b.max.get(i).to_f64(),
            );
            let e = (lo - x).max(x - hi).max(0.0);
            e * e
        })
        .sum()
}

/// The capsule–box kernel against GJK: `distance_capsule_cuboid` equals the generic
/// `query::distance` on a random capsule (degenerate one time in eight, its segment
/// parallel to box faces often) and box, both shifted by `offset`, sometimes at
/// the same pose; `closest_point_segment_aabb`'s parameter is in `[0, 1]`, its
/// squared distance that of its point and no more than that of sampled points.
fn capsule_box_kernel<V: Dim>(g: &mut Gen, offset: V) {
    let a: V = g.vec();
    let mut b: V = g.vec();
    for i in 0..V::DIM {
        if g.below(3) == 0 {
            b = b.with(i, a.get(i));
        }
    }
    if g.below(8) == 0 {
        b = a;
    }
    let r = g.real::<V::Scalar>().abs();
    let (center, half) = (g.vec::<V>(), g.vec::<V>().abs());
    let (Ok(capsule), Ok(cuboid)) = (Capsule::new(a, b, r), Aabb::from_center(center, half)) else {
        return;
    };
    let shift = V::Pose::from_translation(offset);
    let pa = shift.mul(&V::pose(g));
    let pb = if g.below(3) == 0 {
        pa
    } else {
        shift.mul(&V::pose(g))
    };
    let kernel = query::distance::distance_capsule_cuboid(&pa, &capsule, &pb, &cuboid);
    let gjk = query::distance::distance(&pa, &capsule, &pb, &cuboid);
    let extent = coord_scale(&[a, b, cuboid.min, cuboid.max, offset]) * 3.0 + r.to_f64();
    let eps = rel_tol::<V::Scalar>() * extent;
    let (k, d) = (kernel.to_f64(), gjk.to_f64());
    assert!(
        k >= 0.0 && (k - d).abs() <= eps,
        "capsule {capsule:?} at {pa:?}, box {cuboid:?} at {pb:?}: kernel {k}, GJK {d} (eps {eps})"
    );
    let segment = Segment { a, b };
    let (t, d2) = query::distance::closest_point_segment_aabb(&segment, &cuboid);
    let (t, d2) = (t.to_f64(), d2.to_f64());
    assert!((0.0..=1.0).contains(&t), "segment {segment:?}: t {t}");
    let at = |t: f64| a + (b - a) * V::Scalar::from_f64(t);
    let own = box_distance_squared(at(t), &cuboid);
    let eps2 = eps * (eps + 2.0 * d2.sqrt());
    assert!(
        d2 >= 0.0 && (d2 - own).abs() <= eps2,
        "segment {segment:?}, box {cuboid:?}: d² {d2} vs {own} at t {t}"
    );
    for i in 0..=16 {
        let sample = box_distance_squared(at(i as f64 / 16.0), &cuboid);
        assert!(
            d2 <= sample + eps2,
            "segment {segment:?}, box {cuboid:?}: d² {d2} at t {t}, {sample} at {i}/16"
        );
    }
}

macro_rules! impl_dim {
    ($v:ty, $r:ty, 2) => {
        impl Dim for $v {
            type S = shape_2d::Shape<$r>;
            const NAME: &'static str = concat!("2D ", stringify!($r));
            fn shape(g: &mut Gen) -> Option<Self::S> {
                shape_2d::<$r>(g)
            }
            fn pose(g: &mut Gen) -> Self::Pose {
                pose_2d::<$r>(g)
            }
            fn constructors(g: &mut Gen) {
                constructors_2d::<$r>(g)
            }
            fn manifolds(g: &mut Gen) {
                manifolds_2d::<$r>(g)
            }
            fn hulls(g: &mut Gen) {
                hulls_2d::<$r>(g)
            }
            type A = shape_2d::AnyShape<$r>;
            fn composite(g: &mut Gen) -> Option<Self::A> {
                composite_2d::<$r>(g)
            }
            fn composite_queries(g: &mut Gen) {
                composite_queries_2d::<$r>(g)
            }
            fn part_aspect(part: &Self::S) -> f64 {
                box_aspect::<Self>(part)
            }
            fn closest_on_part(pose: &Self::Pose, part: &Self::S, p: Self, solid: bool) -> Self {
                match part {
                    shape_2d::Shape::Segment(s) => {
                        let local = s.closest_point(pose.inverse_transform_point(p)).0;
                        pose.transform_point(local)
                    }
                    _ => part.project_point(pose, p, solid).point,
                }
            }
            fn decomposition(g: &mut Gen) {
                decomposition::<$r>(g)
            }
        }
    };
    ($v:ty, $r:ty, 3) => {
        impl Dim for $v {
            type S = shape_3d::Shape<$r>;
            const NAME: &'static str = concat!("3D ", stringify!($r));
            fn shape(g: &mut Gen) -> Option<Self::S> {
                shape_3d::<$r>(g)
            }
            fn pose(g: &mut Gen) -> Self::Pose {
                pose_3d::<$r>(g)
            }
            fn constructors(g: &mut Gen) {
                constructors_3d::<$r>(g)
            }
            fn manifolds(g: &mut Gen) {
                manifolds_3d::<$r>(g)
            }
            fn hulls(g: &mut Gen) {
                hulls_3d::<$r>(g)
            }
            type A = shape_3d::AnyShape<$r>;
            fn composite(g: &mut Gen) -> Option<Self::A> {
                composite_3d::<$r>(g)
            }
            fn composite_queries(g: &mut Gen) {
                composite_queries_3d::<$r>(g)
            }
            fn part_aspect(part: &Self::S) -> f64 {
                let shape_3d::Shape::Triangle(t) = part else {
                    return box_aspect::<Self>(part);
                };
                let [a, b, c] = [t.a, t.b, t.c].map(f64s);
                let e = |x: [f64; 3], y: [f64; 3]| [y[0] - x[0], y[1] - x[1], y[2] - x[2]];
                let (u, v) = (e(a, b), e(a, c));
                let n = [
                    u[1] * v[2] - u[2] * v[1],
                    u[2] * v[0] - u[0] * v[2],
                    u[0] * v[1] - u[1] * v[0],
                ];
                let twice_area = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
                let len2 = |d: [f64; 3]| d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
                let longest = len2(u).max(len2(v)).max(len2(e(b, c)));
                if twice_area > 0.0 {
                    (longest / twice_area).max(1.0)
                } else {
                    1.0
                }
            }
            fn closest_on_part(pose: &Self::Pose, part: &Self::S, p: Self, solid: bool) -> Self {
                let local = pose.inverse_transform_point(p);
                match part {
                    shape_3d::Shape::Segment(s) => pose.transform_point(s.closest_point(local).0),
                    shape_3d::Shape::Triangle(t) => {
                        // Each method errs on slivers (GJK: the open issue of
                        // `regressions/triangle_sliver_projection.rs`; Voronoi regions:
                        // cancellation): both give points of the triangle, so the
                        // nearer one is the better answer.
                        let exact = pose.transform_point(closest_on_triangle(local, t.a, t.b, t.c));
                        let gjk = part.project_point(pose, p, solid).point;
                        if gjk.distance(p) < exact.distance(p) {
                            gjk
                        } else {
                            exact
                        }
                    }
                    _ => part.project_point(pose, p, solid).point,
                }
            }
            fn decomposition(g: &mut Gen) {
                decomposition::<$r>(g)
            }
        }
    };
}

impl_dim!(isect::d2::Vec2, f32, 2);
impl_dim!(isect::d3::Vec3, f32, 3);
impl_dim!(isect::d2_f64::DVec2, f64, 2);
impl_dim!(isect::d3_f64::DVec3, f64, 3);
