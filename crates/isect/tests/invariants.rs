//! Invariants of the pair and ray queries on seeded random inputs, for the convex
//! shape enums in 2D and 3D, `f32` and `f64` (every kind against every kind):
//!
//! 1. swapping A and B mirrors the answer (distance, intersects, contact depth);
//! 2. one rigid motion of both shapes changes nothing;
//! 3. distance ≥ 0;
//! 4. `intersects` agrees with `distance ≤ tol`;
//! 5. ray hit points lie on the surface (within `tol` of the shape, not deeper);
//! 6. contact witness points lie on both shapes: A's on A's surface, B's on B's;
//! 7. manifold points (polygon and polyhedron SAT manifolds) lie in the contact region:
//!    on their shapes, `point_a − point_b = depth · normal`, no deeper than the contact;
//! 8. a cast's time of impact is where the shapes first touch: touching at that time,
//!    never penetrating at sampled earlier times (linear casts and rotating sweeps).
//!
//! Tolerance: `tol = TOL_SCALE · world_common::tol::<V>()` (2e-3 in `f32`, 1e-5 in
//! `f64`, relative to the shapes' size of about 1) for answers compared across
//! different code paths; answers within `tol` of a boundary (touching) may go either way.
//! Each check counts its cases; the counts are printed (`--nocapture`) and recorded in
//! RELIABILITY.md.

mod world_common;

use isect::math::{Isometry, Real};
use isect::query::contact::witness_band;
use isect::query::{self, dispatch, Manifold, RayCast, Sweep};
use isect::shape::{shape_2d, shape_3d, Ball, Ray};
use world_common::*;

/// Records a violated invariant (`$key`) instead of panicking, so that one run
/// measures every invariant; [`run`] then asserts the tallies.
macro_rules! check {
    ($n:expr, $key:expr, $cond:expr, $($msg:tt)+) => {
        let holds: bool = $cond;
        if !holds {
            $n.violation($key, format!($($msg)+));
        }
    };
}

/// Invariants that hold on every case: any violation fails the test. The contact
/// depth's swap and motion invariants and A's witness became strict once crossing
/// capsule cores went to the general path (`regressions/capsule_crossing_depth.rs`).
const STRICT: [&str; 18] = [
    "distance >= 0",
    "intersects vs distance",
    "swap: distance",
    "swap: intersects",
    "swap: depth",
    "motion: distance",
    "motion: intersects",
    "motion: depth",
    "witness on A",
    // Both of EPA's witnesses on their shapes' support sets (session 14).
    "witness on B",
    "ray: point on ray",
    "ray: point on surface",
    "manifold: on A",
    "manifold: on B",
    "manifold: a - b = depth n",
    // EPA's witnesses come from the face holding the origin's projection (not its
    // coplanar neighbour), its fallbacks put `point_b` at `point_a − depth · n`.
    "witness: a - b = depth n",
    // Linear casts: the one violation of session 2 was the polygon distance kernel's
    // (`regressions/polygon_sat_touching_gap.rs`), not the cast's.
    "cast: apart before",
    "cast: touching at time",
];
/// EPA's contacts keep `point_a − point_b = depth · normal` to this many witness bands
/// (`query::contact::witness_band`, the normal's accuracy) of the shapes' size (about 1).
const RELATION_BANDS: f64 = 4.0;
/// The others (manifold depth against the contact's, rotating sweeps)
/// have known violations, listed with their measured rates as open in RELIABILITY.md;
/// this guard keeps them rare.
const OPEN_RATE: f64 = 0.05;

/// Random pairs per vector type.
const CASES: usize = 1500;
/// `tol` is this many times `world_common::tol` (positions up to about 1 apart).
const TOL_SCALE: f64 = 4.0;
/// Poses' translations are uniform in `[-POSE_HALF, POSE_HALF]^DIM` (about half the
/// pairs intersect).
const POSE_HALF: f64 = 0.5;
/// Samples of the motion before a time of impact.
const SAMPLES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 0.9];

/// How many cases each invariant was checked on.
#[derive(Default, Debug)]
struct Counts {
    /// Violations per invariant: count and the first message.
    violations: std::collections::BTreeMap<&'static str, (usize, String)>,
    swap: usize,
    motion: usize,
    distance_non_negative: usize,
    intersects_vs_distance: usize,
    intersecting: usize,
    ray_on_surface: usize,
    rays: usize,
    witnesses: usize,
    manifold_points: usize,
    cast_first_touch: usize,
    toi_first_touch: usize,
}

impl Counts {
    fn violation(&mut self, key: &'static str, msg: String) {
        let e = self.violations.entry(key).or_insert((0, msg));
        e.0 += 1;
    }
}

/// A vector type whose enum has a SAT manifold kernel (polygons / polyhedra).
trait InvDim: TestDim {
    /// The SAT manifold of two shapes of kind 5 (polygon / polyhedron), else `None`.
    fn sat_manifold(
        pa: &Self::Pose,
        a: &Self::S,
        pb: &Self::Pose,
        b: &Self::S,
    ) -> Option<Manifold<Self>>;
}

macro_rules! inv_2d {
    ($v:ty, $r:ty) => {
        impl InvDim for $v {
            fn sat_manifold(
                pa: &Self::Pose,
                a: &Self::S,
                pb: &Self::Pose,
                b: &Self::S,
            ) -> Option<Manifold<Self>> {
                match (a, b) {
                    (shape_2d::Shape::Polygon(x), shape_2d::Shape::Polygon(y)) => {
                        query::contact_manifold_polygons(pa, x, pb, y, 0.0 as $r)
                    }
                    _ => None,
                }
            }
        }
    };
}

macro_rules! inv_3d {
    ($v:ty, $r:ty) => {
        impl InvDim for $v {
            fn sat_manifold(
                pa: &Self::Pose,
                a: &Self::S,
                pb: &Self::Pose,
                b: &Self::S,
            ) -> Option<Manifold<Self>> {
                match (a, b) {
                    (shape_3d::Shape::Polyhedron(x), shape_3d::Shape::Polyhedron(y)) => {
                        query::contact_manifold_polyhedra(pa, x, pb, y, 0.0 as $r)
                    }
                    _ => None,
                }
            }
        }
    };
}

inv_2d!(glam::Vec2, f32);
inv_2d!(glam::DVec2, f64);
inv_3d!(glam::Vec3, f32);
inv_3d!(glam::DVec3, f64);

/// `|a − b| ≤ tol`.
fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

/// The point `p` as a zero-radius ball of the enum.
fn point<V: TestDim>(p: V) -> V::S {
    Ball::new(p, V::Scalar::ZERO).expect("finite point").into()
}

/// Distance from the world point `p` to `s` placed at `pose` (0 inside).
fn dist_to<V: TestDim>(p: V, pose: &V::Pose, s: &V::S) -> f64 {
    dispatch::distance(&V::Pose::IDENTITY, &point(p), pose, s).to_f64()
}

/// How deep the world point `p` is inside `s` (≤ 0 outside).
fn depth_of<V: TestDim>(p: V, pose: &V::Pose, s: &V::S) -> f64 {
    let c = dispatch::contact(pose, s, &V::Pose::IDENTITY, &point(p), V::Scalar::ZERO);
    c.map_or(0.0, |c| c.depth.to_f64())
}

/// Contact depth of the pair at prediction 0 (`-distance` when apart).
fn pair_depth<V: TestDim>(pa: &V::Pose, a: &V::S, pb: &V::Pose, b: &V::S) -> f64 {
    match dispatch::contact(pa, a, pb, b, V::Scalar::ZERO) {
        Some(c) => c.depth.to_f64(),
        None => -dispatch::distance(pa, a, pb, b).to_f64(),
    }
}

/// Invariants 1–4 on one pair.
fn check_pair<V: InvDim>(
    rng: &mut Rng,
    (a, pa, b, pb): (&V::S, &V::Pose, &V::S, &V::Pose),
    tol: f64,
    n: &mut Counts,
) {
    let what = format!("{a:?} at {pa:?} / {b:?} at {pb:?}");
    let d = dispatch::distance(pa, a, pb, b).to_f64();
    check!(
        n,
        "distance >= 0",
        d >= 0.0,
        "negative distance {d}: {what}"
    );
    n.distance_non_negative += 1;
    let hit = dispatch::intersects(pa, a, pb, b);
    let depth = pair_depth::<V>(pa, a, pb, b);
    let boundary = d <= tol && depth <= tol;
    check!(
        n,
        "intersects vs distance",
        !(d > tol && hit),
        "intersects at distance {d}: {what}"
    );
    check!(
        n,
        "intersects vs distance",
        hit || depth <= tol,
        "no intersection at depth {depth}: {what}"
    );
    n.intersects_vs_distance += 1;
    n.intersecting += usize::from(hit);
    // Swap.
    let ds = dispatch::distance(pb, b, pa, a).to_f64();
    check!(
        n,
        "swap: distance",
        close(d, ds, tol),
        "swapped distance {ds} vs {d}: {what}"
    );
    let hs = dispatch::intersects(pb, b, pa, a);
    check!(
        n,
        "swap: intersects",
        boundary || hs == hit,
        "swapped intersects {hs}: {what}"
    );
    let dps = pair_depth::<V>(pb, b, pa, a);
    check!(
        n,
        "swap: depth",
        close(depth, dps, tol),
        "swapped depth {dps} vs {depth}: {what}"
    );
    n.swap += 1;
    // One rigid motion of both.
    let m = V::pose(rng, 5.0);
    let (ma, mb) = (m.mul(pa), m.mul(pb));
    let dm = dispatch::distance(&ma, a, &mb, b).to_f64();
    check!(
        n,
        "motion: distance",
        close(d, dm, tol),
        "moved distance {dm} vs {d}: {what}"
    );
    let hm = dispatch::intersects(&ma, a, &mb, b);
    check!(
        n,
        "motion: intersects",
        boundary || hm == hit,
        "moved intersects {hm}: {what}"
    );
    let dpm = pair_depth::<V>(&ma, a, &mb, b);
    check!(
        n,
        "motion: depth",
        close(depth, dpm, tol),
        "moved depth {dpm} vs {depth}: {what}"
    );
    n.motion += 1;
}

/// True for the pairs answered by SAT in `dispatch` (boxes, polygons).
fn sat_pair<V: InvDim>(a: &V::S, b: &V::S) -> bool {
    let sat = |k: &str| matches!(k, "Cuboid" | "Polygon");
    sat(V::kind_name(a)) && sat(V::kind_name(b)) && V::kind_name(a) == V::kind_name(b)
}

/// Invariant 6: witness points of a contact (prediction 0.5).
fn check_witnesses<V: InvDim>(
    (a, pa, b, pb): (&V::S, &V::Pose, &V::S, &V::Pose),
    tol: f64,
    n: &mut Counts,
) {
    let Some(c) = dispatch::contact(pa, a, pb, b, V::Scalar::from_f64(0.5)) else {
        return;
    };
    let what = format!("{c:?}: {a:?} at {pa:?} / {b:?} at {pb:?}");
    check!(
        n,
        "witness on A",
        dist_to(c.point_a, pa, a) <= tol,
        "point_a off A: {what}"
    );
    check!(
        n,
        "witness on A",
        depth_of(c.point_a, pa, a) <= tol,
        "point_a deep inside A: {what}"
    );
    // SAT contacts (box–box, polygon–polygon) put `point_b` on B's supporting plane,
    // not on B (documented in `query::dispatch`; RELIABILITY.md lists it as open):
    // B's own witness is then the swapped contact's `point_a`.
    let b_witness = if sat_pair::<V>(a, b) {
        dispatch::contact(pb, b, pa, a, V::Scalar::from_f64(0.5)).map_or(c.point_b, |s| s.point_a)
    } else {
        c.point_b
    };
    check!(
        n,
        "witness on B",
        dist_to(b_witness, pb, b) <= tol,
        "point_b off B: {what}"
    );
    check!(
        n,
        "witness on B",
        depth_of(b_witness, pb, b) <= tol,
        "point_b deep inside B: {what}"
    );
    // At EPA's cap the depth is a documented bound and the points are not exact.
    // EPA's witnesses on the support sets follow the normal to its own accuracy.
    let capped = c.status == isect::algo::gjk::Status::MaxIterations;
    let gap = (c.point_a - c.point_b - c.normal * c.depth)
        .length()
        .to_f64();
    let along = tol.max(RELATION_BANDS * witness_band::<V::Scalar>().to_f64());
    check!(
        n,
        "witness: a - b = depth n",
        capped || gap <= along,
        "point_a − point_b ≠ depth · normal ({gap}): {what}"
    );
    n.witnesses += 1;
}

/// Invariant 7: SAT manifold points of polygon / polyhedron pairs.
fn check_manifold<V: InvDim>(
    (a, pa, b, pb): (&V::S, &V::Pose, &V::S, &V::Pose),
    tol: f64,
    n: &mut Counts,
) {
    let Some(m) = V::sat_manifold(pa, a, pb, b) else {
        return;
    };
    let depth = pair_depth::<V>(pa, a, pb, b);
    let what = format!("{m:?} (contact depth {depth}): {a:?} at {pa:?} / {b:?} at {pb:?}");
    for p in m.points() {
        check!(
            n,
            "manifold: on A",
            dist_to(p.point_a, pa, a) <= tol,
            "point_a off A: {what}"
        );
        check!(
            n,
            "manifold: on B",
            dist_to(p.point_b, pb, b) <= tol,
            "point_b off B: {what}"
        );
        let gap = (p.point_a - p.point_b - m.normal * p.depth)
            .length()
            .to_f64();
        check!(
            n,
            "manifold: a - b = depth n",
            gap <= tol,
            "point_a − point_b ≠ depth · normal: {what}"
        );
        check!(
            n,
            "manifold: depth",
            p.depth.to_f64() <= depth + tol,
            "deeper than the contact: {what}"
        );
        n.manifold_points += 1;
    }
}

/// Invariant 5: a ray from about 3 away aimed near the shape.
fn check_ray<V: InvDim>(rng: &mut Rng, a: &V::S, pa: &V::Pose, tol: f64, n: &mut Counts) {
    let origin = rand_unit::<V>(rng) * V::Scalar::from_f64(3.0) + pa.translation();
    let target = pa.translation() + rand_vec::<V>(rng, 0.5);
    let ray = Ray {
        origin,
        dir: target - origin,
    };
    n.rays += 1;
    let Some(h) = a.cast_ray_posed(pa, &ray, V::Scalar::INFINITY) else {
        return;
    };
    let what = format!("{h:?} of {ray:?} on {a:?} at {pa:?}");
    let on_ray = (ray.origin + ray.dir * h.t - h.point).length().to_f64();
    check!(
        n,
        "ray: point on ray",
        on_ray <= tol,
        "hit point off the ray by {on_ray}: {what}"
    );
    check!(
        n,
        "ray: point on surface",
        dist_to(h.point, pa, a) <= tol,
        "hit point outside the shape: {what}"
    );
    check!(
        n,
        "ray: point on surface",
        depth_of(h.point, pa, a) <= tol,
        "hit point deep inside: {what}"
    );
    n.ray_on_surface += 1;
}

/// True when the pair penetrates deeper than `tol`.
fn penetrates<V: InvDim>(pa: &V::Pose, a: &V::S, pb: &V::Pose, b: &V::S, tol: f64) -> bool {
    dispatch::contact(pa, a, pb, b, V::Scalar::ZERO).is_some_and(|c| c.depth.to_f64() > tol)
}

/// Invariant 8, linear: B moves towards A; touching at the hit, apart before it.
fn check_cast<V: InvDim>(rng: &mut Rng, a: &V::S, b: &V::S, tol: f64, n: &mut Counts) {
    let pa = V::pose(rng, 0.5);
    let pb = V::pose(rng, 0.5);
    let start = V::Pose::from_translation(rand_unit::<V>(rng) * V::Scalar::from_f64(3.0)).mul(&pb);
    let vel = pa.translation() - start.translation() + rand_vec::<V>(rng, 1.5);
    let hit = dispatch::cast_shapes(&pa, V::ZERO, a, &start, vel, b, V::Scalar::ONE);
    let at = |t: f64| {
        let shift = V::Pose::from_translation(vel * V::Scalar::from_f64(t));
        shift.mul(&start)
    };
    let what = format!("{hit:?}: {a:?} at {pa:?} / {b:?} from {start:?} v {vel:?}");
    let end = hit.map_or(1.0, |h| h.time.to_f64());
    for s in SAMPLES {
        check!(
            n,
            "cast: apart before",
            !penetrates::<V>(&pa, a, &at(s * end), b, tol),
            "penetrates at {}: {what}",
            s * end
        );
    }
    if let Some(h) = hit {
        let d = dispatch::distance(&pa, a, &at(h.time.to_f64()), b).to_f64();
        check!(
            n,
            "cast: touching at time",
            d <= tol,
            "apart ({d}) at the time of impact: {what}"
        );
    }
    n.cast_first_touch += 1;
}

/// Invariant 8, with rotation: `time_of_impact` on random sweeps.
fn check_toi<V: InvDim>(rng: &mut Rng, a: &V::S, b: &V::S, tol: f64, n: &mut Counts) {
    let sa = Sweep {
        start: V::pose(rng, 0.3),
        end: V::pose(rng, 0.3),
    };
    let far = V::Pose::from_translation(rand_unit::<V>(rng) * V::Scalar::from_f64(3.0));
    let sb = Sweep {
        start: far.mul(&V::pose(rng, 0.3)),
        end: V::pose(rng, 0.6),
    };
    let hit = query::time_of_impact(&sa, a, &sb, b);
    let what = format!("{hit:?}: {a:?} {sa:?} / {b:?} {sb:?}");
    let end = hit.map_or(1.0, |h| h.time.to_f64());
    for s in SAMPLES {
        let t = V::Scalar::from_f64(s * end);
        let (pa, pb) = (sa.pose_at(t), sb.pose_at(t));
        check!(
            n,
            "toi: apart before",
            !penetrates::<V>(&pa, a, &pb, b, tol),
            "penetrates at {}: {what}",
            s * end
        );
    }
    // At the iteration cap the time is a documented conservative bound, not a touch.
    if let Some(h) = hit.filter(|h| h.status != isect::algo::gjk::Status::MaxIterations) {
        let (pa, pb) = (sa.pose_at(h.time), sb.pose_at(h.time));
        let d = dispatch::distance(&pa, a, &pb, b).to_f64();
        check!(
            n,
            "toi: touching at time",
            d <= tol,
            "apart ({d}) at the time of impact: {what}"
        );
    }
    n.toi_first_touch += 1;
}

/// Every invariant on `CASES` random pairs of `V`.
fn run<V: InvDim>(seed: u64) -> Counts {
    let mut rng = Rng(seed);
    let tol = TOL_SCALE * tol::<V>();
    let mut n = Counts::default();
    for i in 0..CASES {
        // Every fourth case is a polygon / polyhedron pair, for the SAT manifolds.
        let (ka, kb) = if i % 4 == 0 {
            (5, 5)
        } else {
            (rng.below(V::KINDS), rng.below(V::KINDS))
        };
        let a = V::shape(ka, &mut rng, 1.0);
        let b = V::shape(kb, &mut rng, 1.0);
        let (pa, pb) = (V::pose(&mut rng, POSE_HALF), V::pose(&mut rng, POSE_HALF));
        let pair = (&a, &pa, &b, &pb);
        check_pair::<V>(&mut rng, pair, tol, &mut n);
        check_witnesses::<V>(pair, tol, &mut n);
        check_manifold::<V>(pair, tol, &mut n);
        check_ray::<V>(&mut rng, &a, &pa, tol, &mut n);
        check_cast::<V>(&mut rng, &a, &b, tol, &mut n);
        check_toi::<V>(&mut rng, &a, &b, tol, &mut n);
    }
    println!("{}: {n:#?}", std::any::type_name::<V>());
    for (key, (count, first)) in &n.violations {
        let open = !STRICT.contains(key) && (*count as f64) <= OPEN_RATE * CASES as f64;
        assert!(open, "{key}: {count} violations of {CASES}; first: {first}");
    }
    assert_hit_rate(n.intersecting, CASES, "intersecting pairs");
    assert_hit_rate(n.ray_on_surface, n.rays, "ray hits");
    assert!(
        n.manifold_points >= CASES / 20,
        "too few manifold points: {n:?}"
    );
    n
}

#[test]
fn invariants_2d_f32() {
    run::<glam::Vec2>(0x1A);
}

#[test]
fn invariants_2d_f64() {
    run::<glam::DVec2>(0x2B);
}

#[test]
fn invariants_3d_f32() {
    run::<glam::Vec3>(0x3C);
}

#[test]
fn invariants_3d_f64() {
    run::<glam::DVec3>(0x4D);
}
