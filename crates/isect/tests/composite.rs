//! Composite queries (`query::composite`, `Compound`, `AnyShape`): a compound against
//! the brute-force answer over its parts for every query, compound-of-boxes against
//! the one box they tile, swap and rigid-motion properties, internal-edge correction
//! through a test-only flat soup, a world of mixed shapes, bad input and scales.
//! One generic body per test, run for Vec2, Vec3, DVec2 and DVec3.

mod composite_common;
mod world_common;
#[path = "support/for_each_vector.rs"]
#[macro_use]
mod for_each_vector;

use composite_common::{random_compound, up, CompositeDim, Soup};
use isect::math::{Isometry, Real, Vector};
use isect::query::composite::{self as cq, ConvexPart};
use isect::query::dispatch::{self, DispatchShape};
use isect::query::{ProjectPoint, RayCast};
use isect::shape::{Aabb, Ball, Compound, Ray, ShapeError};
use isect::world::{Filter, World};
use world_common::{assert_hit_rate, rand_unit, rand_vec, s, tol, Rng};

/// Random cases per vector type (debug builds run at opt-level 1).
const CASES: usize = 600;

/// Part `i`'s world pose and shape, the compound being at `pose`.
fn world_parts<V: CompositeDim>(pose: &V::Pose, c: &Compound<V, V::S>) -> Vec<(V::Pose, V::S)>
where
    V::S: ConvexPart<V>,
{
    c.parts().iter().map(|(pp, s)| (pose.mul(pp), s.clone())).collect()
}

fn close<V: Vector>(a: V::Scalar, b: V::Scalar, scale: f64) -> bool {
    (a - b).abs().to_f64() <= tol::<V>() * scale.max(1.0)
}

/// `n` boxes tiling the box of half extents `h` (2 per axis), as a compound.
fn tiled_box<V: CompositeDim>(h: V) -> Compound<V, V::S>
where
    V::S: ConvexPart<V>,
{
    let half = h * s::<V>(0.5);
    let parts = (0..1usize << V::DIM)
        .map(|bits| {
            let centre = (0..V::DIM).fold(V::ZERO, |c, k| {
                let sign = if bits >> k & 1 == 1 { 1.0 } else { -1.0 };
                c.with(k, half.get(k) * s::<V>(sign))
            });
            let part = V::cuboid(Aabb::from_center(V::ZERO, half).unwrap());
            (V::Pose::from_translation(centre), part)
        })
        .collect();
    Compound::new(parts).unwrap()
}

/// The compound of boxes and the one box they tile agree on intersects, distance and
/// ray casts, at scale 1, huge (1e4) and tiny (1e-3) scales.
fn tiled_box_equals_box<V: CompositeDim>()
where
    V::S: ConvexPart<V>,
{
    for (seed, scale) in [(1u64, 1.0), (2, 1e4), (3, 1e-3)] {
        let mut rng = Rng(seed);
        let h = (0..V::DIM).fold(V::ZERO, |v, k| v.with(k, s::<V>(scale * (0.5 + 0.25 * k as f64))));
        let tiled = V::Any::from(tiled_box::<V>(h));
        let whole = V::Any::from(V::cuboid(Aabb::from_center(V::ZERO, h).unwrap()));
        let mut hits = 0;
        for _ in 0..CASES {
            let pose = V::pose(&mut rng, 0.0);
            let ball = Ball::new(V::ZERO, s::<V>(scale * rng.range(0.1, 0.5))).unwrap();
            let other = V::Any::from(V::S::from(ball));
            let at = V::Pose::from_translation(rand_vec(&mut rng, 1.3 * scale));
            let d_tiled = dispatch::distance(&pose, &tiled, &at, &other);
            let d_whole = dispatch::distance(&pose, &whole, &at, &other);
            assert!(close::<V>(d_tiled, d_whole, scale), "distance {d_tiled:?} vs {d_whole:?}");
            let hit = dispatch::intersects(&pose, &tiled, &at, &other);
            if (d_whole.to_f64()).abs() > tol::<V>() * scale {
                assert_eq!(hit, dispatch::intersects(&pose, &whole, &at, &other));
            }
            hits += hit as usize;
            // A ray from outside toward a random point near the box.
            let origin = rand_unit::<V>(&mut rng) * s::<V>(3.0 * scale);
            let target = rand_vec::<V>(&mut rng, 1.2 * scale);
            let ray = Ray { origin, dir: target - origin };
            let (ht, hw) = (tiled.cast_ray_posed(&pose, &ray, s::<V>(2.0)), whole.cast_ray_posed(&pose, &ray, s::<V>(2.0)));
            match (ht, hw) {
                (Some(a), Some(b)) => assert!(close::<V>(a.t, b.t, 1.0), "ray t {:?} vs {:?}", a.t, b.t),
                (None, None) => {}
                // Grazing a box edge: the two answers may round apart.
                (a, b) => assert!(grazing::<V>(&whole, &pose, &ray), "ray {ray:?}: {a:?} vs {b:?}"),
            }
        }
        assert_hit_rate(hits, CASES, "tiled box vs ball");
    }
}
for_each_vector!(tiled_box_equals_box);

/// True when the ray's end (at `t = 2`) or its path touches the box's boundary within
/// rounding: lengthening and shortening the ray by 0.1% changes the answer.
fn grazing<V: CompositeDim>(shape: &V::Any, pose: &V::Pose, ray: &Ray<V>) -> bool
where
    V::S: ConvexPart<V>,
{
    let nudge = |k: f64| Ray { origin: ray.origin, dir: ray.dir * s::<V>(1.0 + k) };
    shape.cast_ray_posed(pose, &nudge(1e-3), s::<V>(2.0)).is_some()
        != shape.cast_ray_posed(pose, &nudge(-1e-3), s::<V>(2.0)).is_some()
}

/// Brute force over the parts: the answers of the convex dispatch for each part.
struct Brute<V: Vector> {
    intersects: bool,
    distance: V::Scalar,
    depth: Option<V::Scalar>,
    cast: Option<V::Scalar>,
    ray: Option<V::Scalar>,
    project: V::Scalar,
    manifold_parts: Vec<u32>,
}

fn brute<V: CompositeDim>(
    parts: &[(V::Pose, V::S)],
    pb: &V::Pose,
    b: &V::S,
    vel: V,
    ray: &Ray<V>,
    point: V,
) -> Brute<V>
where
    V::S: ConvexPart<V>,
{
    let inf = V::Scalar::INFINITY;
    let mut out = Brute {
        intersects: false,
        distance: inf,
        depth: None,
        cast: None,
        ray: None,
        project: inf,
        manifold_parts: Vec::new(),
    };
    let max = |x: Option<V::Scalar>, y: V::Scalar| Some(x.map_or(y, |x| x.max(y)));
    let min = |x: Option<V::Scalar>, y: V::Scalar| Some(x.map_or(y, |x| x.min(y)));
    for (i, (pa, a)) in parts.iter().enumerate() {
        out.intersects |= V::S::intersects_pair(pa, a, pb, b);
        let d: V::Scalar = V::S::distance_pair(pa, a, pb, b);
        out.distance = Real::min(out.distance, d);
        if let Some(c) = V::S::contact_pair(pa, a, pb, b, V::Scalar::ZERO) {
            out.depth = max(out.depth, c.depth);
        }
        if V::S::contact_manifold_pair(pa, a, pb, b, V::Scalar::ZERO).is_some() {
            out.manifold_parts.push(i as u32);
        }
        if let Some(h) = V::S::cast_pair(pa, V::ZERO, a, pb, vel, b, V::Scalar::ONE) {
            out.cast = min(out.cast, h.time);
        }
        if let Some(h) = a.cast_ray_posed(pa, ray, V::Scalar::ONE) {
            out.ray = min(out.ray, h.t);
        }
        let q = a.project_point(pa, point, true).point;
        out.project = Real::min(out.project, q.distance(point));
    }
    out
}

/// A compound against a convex shape equals the brute force over its parts for
/// intersects, distance, closest points, contact depth, manifolds, shape casts,
/// ray casts, point projection and containment.
fn compound_vs_convex_equals_brute_force<V: CompositeDim>()
where
    V::S: ConvexPart<V>,
{
    let mut rng = Rng(10 + V::DIM as u64);
    let mut hits = 0;
    for _ in 0..CASES {
        let n = 2 + rng.below(5);
        let c = random_compound::<V>(&mut rng, n, 0.8, 1.0);
        let pa = V::pose(&mut rng, 0.5);
        let b = V::shape(rng.below(V::KINDS), &mut rng, 0.8);
        let pb = V::pose(&mut rng, 1.5 - 0.2 * V::DIM as f64);
        let vel = rand_vec::<V>(&mut rng, 3.0);
        let ray = Ray { origin: rand_vec(&mut rng, 3.0), dir: rand_vec(&mut rng, 4.0) };
        let point = rand_vec::<V>(&mut rng, 2.0);
        let want = brute::<V>(&world_parts(&pa, &c), &pb, &b, vel, &ray, point);
        let what = format!("{:?} at {pa:?} vs {b:?} at {pb:?}", c.parts());

        let hit = cq::intersects(&pa, &c, &pb, &b);
        if want.distance.to_f64() > tol::<V>() || want.depth.is_some_and(|d| d.to_f64() > tol::<V>()) {
            assert_eq!(hit, want.intersects, "intersects: {what}");
        }
        hits += hit as usize;
        let d = cq::distance(&pa, &c, &pb, &b);
        assert!(close::<V>(d, want.distance, 1.0), "distance {d:?} vs {:?}: {what}", want.distance);
        let cp = cq::closest_points(&pa, &c, &pb, &b);
        assert!(close::<V>(cp.distance, want.distance, 1.0), "closest {:?}: {what}", cp.distance);
        assert!(close::<V>(cp.point_a.distance(cp.point_b), cp.distance, 1.0), "witnesses: {what}");
        let depth = cq::contact(&pa, &c, &pb, &b, V::Scalar::ZERO).map(|(_, c)| c.depth);
        match (depth, want.depth) {
            (Some(x), Some(y)) => assert!(close::<V>(x, y, 1.0), "depth {x:?} vs {y:?}: {what}"),
            (None, None) => {}
            (x, y) => assert!(want.distance.to_f64() <= tol::<V>(), "contact {x:?} vs {y:?}: {what}"),
        }
        let parts: Vec<u32> = cq::contact_manifolds(&pa, &c, &pb, &b, V::Scalar::ZERO)
            .iter()
            .map(|m| m.part_a.unwrap())
            .collect();
        if want.distance.to_f64() > tol::<V>() || parts.len() == want.manifold_parts.len() {
            assert_eq!(parts, want.manifold_parts, "manifold parts: {what}");
        }
        let cast = cq::cast_shapes(&pa, V::ZERO, &c, &pb, vel, &b, V::Scalar::ONE).map(|h| h.time);
        match (cast, want.cast) {
            (Some(x), Some(y)) => assert!(close::<V>(x, y, 1.0), "cast {x:?} vs {y:?}: {what}"),
            (None, None) => {}
            (x, y) => assert!(x.or(y).is_some_and(|t| t.to_f64() > 1.0 - 10.0 * tol::<V>()), "cast {x:?} vs {y:?}: {what}"),
        }
        let t = c.cast_ray_posed(&pa, &ray, V::Scalar::ONE).map(|h| h.t);
        match (t, want.ray) {
            (Some(x), Some(y)) => assert!(close::<V>(x, y, 1.0), "ray {x:?} vs {y:?}: {what}"),
            (x, y) => assert_eq!(x.is_some(), y.is_some(), "ray {x:?} vs {y:?}: {what}"),
        }
        let proj = c.project_point(&pa, point, true);
        assert!(close::<V>(proj.point.distance(point), want.project, 1.0), "projection: {what}");
        // Inside the compound (up to rounding) exactly when some part holds the point.
        let gap = want.project.to_f64();
        assert!(gap <= tol::<V>() || !proj.is_inside, "inside {proj:?} at {gap}: {what}");
        assert!(gap > 0.0 || proj.is_inside, "outside {proj:?}: {what}");
    }
    assert_hit_rate(hits, CASES, "compound vs convex");
}
for_each_vector!(compound_vs_convex_equals_brute_force);

/// Two compounds equal the brute force over all pairs of parts (intersects,
/// distance, closest points, contact depth, manifold pairs, shape cast).
fn compound_vs_compound_equals_brute_force<V: CompositeDim>()
where
    V::S: ConvexPart<V>,
{
    let mut rng = Rng(20 + V::DIM as u64);
    let mut hits = 0;
    let cases = CASES / 3;
    for _ in 0..cases {
        let (na, nb) = (2 + rng.below(4), 2 + rng.below(4));
        let a = random_compound::<V>(&mut rng, na, 0.7, 0.8);
        let b = random_compound::<V>(&mut rng, nb, 0.7, 0.8);
        let pa = V::pose(&mut rng, 0.5);
        let pb = V::pose(&mut rng, 2.6 - 0.55 * V::DIM as f64);
        let vel = rand_vec::<V>(&mut rng, 3.0);
        let (wa, wb) = (world_parts(&pa, &a), world_parts(&pb, &b));
        let mut want_d = V::Scalar::INFINITY;
        let mut want_depth: Option<V::Scalar> = None;
        let mut want_cast: Option<V::Scalar> = None;
        let mut want_pairs = Vec::new();
        for (i, (qa, x)) in wa.iter().enumerate() {
            for (j, (qb, y)) in wb.iter().enumerate() {
                want_d = Real::min(want_d, V::S::distance_pair(qa, x, qb, y));
                if let Some(c) = V::S::contact_pair(qa, x, qb, y, V::Scalar::ZERO) {
                    want_depth = Some(want_depth.map_or(c.depth, |d| Real::max(d, c.depth)));
                }
                if V::S::contact_manifold_pair(qa, x, qb, y, V::Scalar::ZERO).is_some() {
                    want_pairs.push((Some(i as u32), Some(j as u32)));
                }
                if let Some(h) = V::S::cast_pair(qa, V::ZERO, x, qb, vel, y, V::Scalar::ONE) {
                    want_cast = Some(want_cast.map_or(h.time, |t| Real::min(t, h.time)));
                }
            }
        }
        let what = format!("{:?} at {pa:?} vs {:?} at {pb:?}", a.parts(), b.parts());
        let hit = cq::intersects_composites(&pa, &a, &pb, &b);
        if want_d.to_f64() > tol::<V>() {
            assert!(!hit, "intersects at {want_d:?}: {what}");
        }
        hits += hit as usize;
        let d = cq::distance_composites(&pa, &a, &pb, &b);
        assert!(close::<V>(d, want_d, 1.0), "distance {d:?} vs {want_d:?}: {what}");
        let cp = cq::closest_points_composites(&pa, &a, &pb, &b);
        assert!(close::<V>(cp.distance, want_d, 1.0), "closest: {what}");
        assert!(close::<V>(cp.point_a.distance(cp.point_b), cp.distance, 1.0), "witnesses: {what}");
        let depth = cq::contact_composites(&pa, &a, &pb, &b, V::Scalar::ZERO).map(|c| c.2.depth);
        match (depth, want_depth) {
            (Some(x), Some(y)) => assert!(close::<V>(x, y, 1.0), "depth {x:?} vs {y:?}: {what}"),
            (x, y) => assert!(x.is_none() == y.is_none() || want_d.to_f64() <= tol::<V>(), "contact: {what}"),
        }
        let pairs: Vec<_> = cq::contact_manifolds_composites(&pa, &a, &pb, &b, V::Scalar::ZERO)
            .iter()
            .map(|m| (m.part_a, m.part_b))
            .collect();
        if want_d.to_f64() > tol::<V>() || pairs.len() == want_pairs.len() {
            assert_eq!(pairs, want_pairs, "manifold pairs: {what}");
        }
        let cast = cq::cast_shapes_composites(&pa, V::ZERO, &a, &pb, vel, &b, V::Scalar::ONE);
        match (cast.map(|h| h.time), want_cast) {
            (Some(x), Some(y)) => assert!(close::<V>(x, y, 1.0), "cast {x:?} vs {y:?}: {what}"),
            (x, y) => assert_eq!(x.is_some(), y.is_some(), "cast {x:?} vs {y:?}: {what}"),
        }
    }
    assert_hit_rate(hits, cases, "compound vs compound");
}
for_each_vector!(compound_vs_compound_equals_brute_force);

/// A random `AnyShape`: a compound or a convex shape, half and half.
fn random_any<V: CompositeDim>(rng: &mut Rng) -> V::Any
where
    V::S: ConvexPart<V>,
{
    if rng.below(2) == 0 {
        let n = 1 + rng.below(4);
        random_compound::<V>(rng, n, 0.7, 0.7).into()
    } else {
        V::shape(rng.below(V::KINDS), rng, 0.9).into()
    }
}

/// Swapping A and B mirrors every answer (all four kinds of pairs through
/// `AnyShape`), and one rigid motion of both changes nothing.
fn swap_mirrors_and_motion_changes_nothing<V: CompositeDim>()
where
    V::S: ConvexPart<V>,
{
    let mut rng = Rng(30 + V::DIM as u64);
    let mut hits = 0;
    let cases = CASES / 2;
    for _ in 0..cases {
        let (a, b) = (random_any::<V>(&mut rng), random_any::<V>(&mut rng));
        let pa = V::pose(&mut rng, 0.5);
        let pb = V::pose(&mut rng, 1.5 - 0.3 * V::DIM as f64);
        let what = format!("{a:?} at {pa:?} vs {b:?} at {pb:?}");
        let d = dispatch::distance(&pa, &a, &pb, &b);
        assert!(close::<V>(d, dispatch::distance(&pb, &b, &pa, &a), 1.0), "swap distance: {what}");
        let hit = dispatch::intersects(&pa, &a, &pb, &b);
        if d.to_f64() > tol::<V>() {
            assert!(!hit && !dispatch::intersects(&pb, &b, &pa, &a), "swap intersects: {what}");
        }
        hits += hit as usize;
        // EPA capped on a curved pair reports a bound, not the depth: skip those.
        let converged = |c: &Option<isect::query::Contact<V>>| {
            c.is_some_and(|c| c.status == isect::algo::gjk::Status::Converged)
        };
        let (ab, ba) = (
            dispatch::contact(&pa, &a, &pb, &b, V::Scalar::ZERO),
            dispatch::contact(&pb, &b, &pa, &a, V::Scalar::ZERO),
        );
        if let (Some(x), Some(y), true) = (ab, ba, converged(&ab) && converged(&ba)) {
            assert!(close::<V>(x.depth, y.depth, 1.0), "swap depth {x:?} vs {y:?}: {what}");
        }
        let cp = dispatch::closest_points(&pb, &b, &pa, &a);
        assert!(close::<V>(cp.distance, d, 1.0), "swap closest points: {what}");
        let vel = rand_vec::<V>(&mut rng, 3.0);
        let (c1, c2) = (
            dispatch::cast_shapes(&pa, V::ZERO, &a, &pb, vel, &b, V::Scalar::ONE),
            dispatch::cast_shapes(&pb, vel, &b, &pa, V::ZERO, &a, V::Scalar::ONE),
        );
        match (c1, c2) {
            (Some(x), Some(y)) => assert!(close::<V>(x.time, y.time, 1.0), "swap cast: {what}"),
            (x, y) => assert_eq!(x.is_some(), y.is_some(), "swap cast {x:?} vs {y:?}: {what}"),
        }
        // One rigid motion of both.
        let m = V::pose(&mut rng, 5.0);
        let (ma, mb) = (m.mul(&pa), m.mul(&pb));
        let dm = dispatch::distance(&ma, &a, &mb, &b);
        // GJK's stop on curved kinds (cones, cylinders) depends on the frame: a looser bound.
        assert!(close::<V>(d, dm, 10.0), "moved distance {d:?} vs {dm:?}: {what}");
        let moved = dispatch::contact(&ma, &a, &mb, &b, V::Scalar::ZERO);
        if let (Some(x), Some(y), true) = (ab, moved, converged(&ab) && converged(&moved)) {
            assert!(close::<V>(x.depth, y.depth, 1.0), "moved depth {x:?} vs {y:?}: {what}");
        }
        let ray = Ray { origin: rand_vec::<V>(&mut rng, 3.0), dir: rand_vec::<V>(&mut rng, 4.0) };
        let moved_ray = Ray { origin: m.transform_point(ray.origin), dir: m.transform_vector(ray.dir) };
        let (r1, r2) = (a.cast_ray_posed(&pa, &ray, V::Scalar::ONE), a.cast_ray_posed(&ma, &moved_ray, V::Scalar::ONE));
        if let (Some(x), Some(y)) = (r1, r2) {
            assert!(close::<V>(x.t, y.t, 1.0), "moved ray: {what}");
        }
    }
    assert_hit_rate(hits, cases, "any vs any");
}
for_each_vector!(swap_mirrors_and_motion_changes_nothing);
