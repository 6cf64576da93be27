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
use isect::shape::{Aabb, Ball, Compound, Ray, ShapeError, SCAN_PARTS};
use isect::world::{Filter, World};
use world_common::{assert_hit_rate, rand_unit, rand_vec, s, tol, Rng};

/// Random cases per vector type (debug builds run at opt-level 1).
const CASES: usize = 1500;

/// Part `i`'s world pose and shape, the compound being at `pose`.
fn world_parts<V: CompositeDim>(pose: &V::Pose, c: &Compound<V, V::S>) -> Vec<(V::Pose, V::S)>
where
    V::S: ConvexPart<V>,
{
    c.parts()
        .iter()
        .map(|(pp, s)| (pose.mul(pp), s.clone()))
        .collect()
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
        let h = (0..V::DIM).fold(V::ZERO, |v, k| {
            v.with(k, s::<V>(scale * (0.5 + 0.25 * k as f64)))
        });
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
            assert!(
                close::<V>(d_tiled, d_whole, scale),
                "distance {d_tiled:?} vs {d_whole:?}"
            );
            let hit = dispatch::intersects(&pose, &tiled, &at, &other);
            if (d_whole.to_f64()).abs() > tol::<V>() * scale {
                assert_eq!(hit, dispatch::intersects(&pose, &whole, &at, &other));
            }
            hits += hit as usize;
            // A ray from outside toward a random point near the box.
            let origin = rand_unit::<V>(&mut rng) * s::<V>(3.0 * scale);
            let target = rand_vec::<V>(&mut rng, 1.2 * scale);
            let ray = Ray {
                origin,
                dir: target - origin,
            };
            let (ht, hw) = (
                tiled.cast_ray_posed(&pose, &ray, s::<V>(2.0)),
                whole.cast_ray_posed(&pose, &ray, s::<V>(2.0)),
            );
            match (ht, hw) {
                (Some(a), Some(b)) => {
                    assert!(close::<V>(a.t, b.t, 1.0), "ray t {:?} vs {:?}", a.t, b.t)
                }
                (None, None) => {}
                // Grazing a box edge: the two answers may round apart.
                (a, b) => assert!(
                    grazing::<V>(&whole, &pose, &ray),
                    "ray {ray:?}: {a:?} vs {b:?}"
                ),
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
    let nudge = |k: f64| Ray {
        origin: ray.origin,
        dir: ray.dir * s::<V>(1.0 + k),
    };
    shape
        .cast_ray_posed(pose, &nudge(1e-3), s::<V>(2.0))
        .is_some()
        != shape
            .cast_ray_posed(pose, &nudge(-1e-3), s::<V>(2.0))
            .is_some()
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
    compound_vs_convex_cases::<V>(None);
}

/// The cases of [`compound_vs_convex_equals_brute_force`]; with `large = Some(k)`
/// every `k`-th compound is larger than `SCAN_PARTS` (its queries walk the tree;
/// smaller ones scan their boxes).
fn compound_vs_convex_cases<V: CompositeDim>(large: Option<usize>)
where
    V::S: ConvexPart<V>,
{
    let mut rng = Rng(10 + V::DIM as u64);
    let mut hits = 0;
    for k in 0..CASES {
        let n = match large {
            Some(every) if k % every == 0 => SCAN_PARTS + 1 + rng.below(16),
            _ => 2 + rng.below(5),
        };
        let c = random_compound::<V>(&mut rng, n, 0.8, 1.0);
        let pa = V::pose(&mut rng, 0.5);
        let b = V::shape(rng.below(V::KINDS), &mut rng, 0.8);
        let pb = V::pose(&mut rng, 1.8 - 0.35 * V::DIM as f64);
        let vel = rand_vec::<V>(&mut rng, 3.0);
        let ray = Ray {
            origin: rand_vec(&mut rng, 3.0),
            dir: rand_vec(&mut rng, 4.0),
        };
        let point = rand_vec::<V>(&mut rng, 2.0);
        let want = brute::<V>(&world_parts(&pa, &c), &pb, &b, vel, &ray, point);
        let what = format!("{:?} at {pa:?} vs {b:?} at {pb:?}", c.parts());

        let hit = cq::intersects(&pa, &c, &pb, &b);
        if want.distance.to_f64() > tol::<V>()
            || want.depth.is_some_and(|d| d.to_f64() > tol::<V>())
        {
            assert_eq!(hit, want.intersects, "intersects: {what}");
        }
        hits += hit as usize;
        let d = cq::distance(&pa, &c, &pb, &b);
        assert!(
            close::<V>(d, want.distance, 1.0),
            "distance {d:?} vs {:?}: {what}",
            want.distance
        );
        let cp = cq::closest_points(&pa, &c, &pb, &b);
        assert!(
            close::<V>(cp.distance, want.distance, 1.0),
            "closest {:?}: {what}",
            cp.distance
        );
        assert!(
            close::<V>(cp.point_a.distance(cp.point_b), cp.distance, 1.0),
            "witnesses: {what}"
        );
        let depth = cq::contact(&pa, &c, &pb, &b, V::Scalar::ZERO).map(|(_, c)| c.depth);
        match (depth, want.depth) {
            (Some(x), Some(y)) => assert!(close::<V>(x, y, 1.0), "depth {x:?} vs {y:?}: {what}"),
            (None, None) => {}
            (x, y) => assert!(
                want.distance.to_f64() <= tol::<V>(),
                "contact {x:?} vs {y:?}: {what}"
            ),
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
            (x, y) => assert!(
                x.or(y)
                    .is_some_and(|t| t.to_f64() > 1.0 - 10.0 * tol::<V>()),
                "cast {x:?} vs {y:?}: {what}"
            ),
        }
        let t = c.cast_ray_posed(&pa, &ray, V::Scalar::ONE).map(|h| h.t);
        match (t, want.ray) {
            (Some(x), Some(y)) => assert!(close::<V>(x, y, 1.0), "ray {x:?} vs {y:?}: {what}"),
            (x, y) => assert_eq!(x.is_some(), y.is_some(), "ray {x:?} vs {y:?}: {what}"),
        }
        let proj = c.project_point(&pa, point, true);
        assert!(
            close::<V>(proj.point.distance(point), want.project, 1.0),
            "projection: {what}"
        );
        // Inside the compound (up to rounding) exactly when some part holds the point.
        let gap = want.project.to_f64();
        assert!(
            gap <= tol::<V>() || !proj.is_inside,
            "inside {proj:?} at {gap}: {what}"
        );
        assert!(gap > 0.0 || proj.is_inside, "outside {proj:?}: {what}");
    }
    assert_hit_rate(hits, CASES, "compound vs convex");
}
for_each_vector!(compound_vs_convex_equals_brute_force);

// The same cases with every eighth compound of 17–32 parts (their queries walk the
// tree; smaller compounds scan their boxes).
#[test]
fn large_compounds_vs_convex_equal_brute_force() {
    compound_vs_convex_cases::<glam::Vec2>(Some(8));
    compound_vs_convex_cases::<glam::DVec2>(Some(8));
    compound_vs_convex_cases::<glam::Vec3>(Some(8));
    compound_vs_convex_cases::<glam::DVec3>(Some(8));
}

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
        assert!(
            close::<V>(d, want_d, 1.0),
            "distance {d:?} vs {want_d:?}: {what}"
        );
        let cp = cq::closest_points_composites(&pa, &a, &pb, &b);
        assert!(close::<V>(cp.distance, want_d, 1.0), "closest: {what}");
        assert!(
            close::<V>(cp.point_a.distance(cp.point_b), cp.distance, 1.0),
            "witnesses: {what}"
        );
        let depth = cq::contact_composites(&pa, &a, &pb, &b, V::Scalar::ZERO).map(|c| c.2.depth);
        match (depth, want_depth) {
            (Some(x), Some(y)) => assert!(close::<V>(x, y, 1.0), "depth {x:?} vs {y:?}: {what}"),
            (x, y) => assert!(
                x.is_none() == y.is_none() || want_d.to_f64() <= tol::<V>(),
                "contact: {what}"
            ),
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
        assert!(
            close::<V>(d, dispatch::distance(&pb, &b, &pa, &a), 1.0),
            "swap distance: {what}"
        );
        let hit = dispatch::intersects(&pa, &a, &pb, &b);
        if d.to_f64() > tol::<V>() {
            assert!(
                !hit && !dispatch::intersects(&pb, &b, &pa, &a),
                "swap intersects: {what}"
            );
        }
        hits += hit as usize;
        // EPA capped on a curved pair reports a bound, not the depth, and the capsule
        // kernels report the segments' depth (a lower bound once they cross): skip those.
        let capsule = format!("{a:?}{b:?}").contains("Capsule");
        let converged = |c: &Option<isect::query::Contact<V>>| {
            !capsule && c.is_some_and(|c| c.status == isect::algo::gjk::Status::Converged)
        };
        let (ab, ba) = (
            dispatch::contact(&pa, &a, &pb, &b, V::Scalar::ZERO),
            dispatch::contact(&pb, &b, &pa, &a, V::Scalar::ZERO),
        );
        if let (Some(x), Some(y), true) = (ab, ba, converged(&ab) && converged(&ba)) {
            assert!(
                close::<V>(x.depth, y.depth, 1.0),
                "swap depth {x:?} vs {y:?}: {what}"
            );
        }
        let cp = dispatch::closest_points(&pb, &b, &pa, &a);
        assert!(
            close::<V>(cp.distance, d, 1.0),
            "swap closest points: {what}"
        );
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
        assert!(
            close::<V>(d, dm, 10.0),
            "moved distance {d:?} vs {dm:?}: {what}"
        );
        let moved = dispatch::contact(&ma, &a, &mb, &b, V::Scalar::ZERO);
        if let (Some(x), Some(y), true) = (ab, moved, converged(&ab) && converged(&moved)) {
            assert!(
                close::<V>(x.depth, y.depth, 1.0),
                "moved depth {x:?} vs {y:?}: {what}"
            );
        }
        let ray = Ray {
            origin: rand_vec::<V>(&mut rng, 3.0),
            dir: rand_vec::<V>(&mut rng, 4.0),
        };
        let moved_ray = Ray {
            origin: m.transform_point(ray.origin),
            dir: m.transform_vector(ray.dir),
        };
        let (r1, r2) = (
            a.cast_ray_posed(&pa, &ray, V::Scalar::ONE),
            a.cast_ray_posed(&ma, &moved_ray, V::Scalar::ONE),
        );
        if let (Some(x), Some(y)) = (r1, r2) {
            assert!(close::<V>(x.t, y.t, 1.0), "moved ray: {what}");
        }
    }
    assert_hit_rate(hits, cases, "any vs any");
}
for_each_vector!(swap_mirrors_and_motion_changes_nothing);

fn near<V: Vector>(a: V, b: V) -> bool {
    a.distance(b).to_f64() <= tol::<V>()
}

/// A ball and a box sliding over a flat soup of triangles (3D) or segments (2D),
/// pressed 0.05 into it, get the surface normal and depth everywhere, also over
/// the internal edges and vertices; without the correction some part reports an
/// edge normal (the ghost collision the correction removes).
fn sliding_over_internal_edges_gets_the_face_normal<V: CompositeDim>()
where
    V::S: ConvexPart<V>,
{
    let parts = V::flat_parts(4, 1.0);
    let fixed = Soup::new(parts.clone(), Some(up::<V>()));
    let raw = Soup::new(parts, None);
    let id = V::Pose::IDENTITY;
    let ball = V::S::from(Ball::new(V::ZERO, s::<V>(0.3)).unwrap());
    let cube = V::cuboid(Aabb::from_center(V::ZERO, V::splat(s::<V>(0.3))).unwrap());
    let mut ghost = false;
    for shape in [ball, cube] {
        for k in 0..=60 {
            // Across the strip, through vertices (x = 1, 2, 3) and diagonal edges.
            let x = 0.5 + 3.0 * k as f64 / 60.0;
            let y = 0.5 + 3.0 * ((k * 7) % 61) as f64 / 60.0;
            let centre = V::ZERO
                .with(0, s::<V>(x))
                .with(1, s::<V>(y))
                .with(V::DIM - 1, s::<V>(0.25));
            let pose = V::Pose::from_translation(centre);
            let (_, c) =
                cq::contact(&id, &fixed, &pose, &shape, V::Scalar::ZERO).expect("touching");
            assert!(
                near(c.normal, up::<V>()),
                "normal {:?} at {centre:?}",
                c.normal
            );
            assert!(
                close::<V>(c.depth, s::<V>(0.05), 1.0),
                "depth {:?} at {centre:?}",
                c.depth
            );
            for m in cq::contact_manifolds(&id, &fixed, &pose, &shape, V::Scalar::ZERO) {
                assert!(
                    near(m.manifold.normal, up::<V>()),
                    "manifold {m:?} at {centre:?}"
                );
                for p in m.manifold.points() {
                    assert!(
                        close::<V>(p.depth, s::<V>(0.05), 1.0),
                        "point {p:?} at {centre:?}"
                    );
                }
            }
            // The same shape as a one-part compound: corrected as A and as B.
            let single = Compound::new(vec![(id, shape.clone())]).unwrap();
            let (_, _, c) = cq::contact_composites(&id, &fixed, &pose, &single, V::Scalar::ZERO)
                .expect("touching");
            assert!(near(c.normal, up::<V>()) && close::<V>(c.depth, s::<V>(0.05), 1.0));
            let (_, _, c) = cq::contact_composites(&pose, &single, &id, &fixed, V::Scalar::ZERO)
                .expect("touching");
            assert!(near(c.normal, -up::<V>()) && close::<V>(c.depth, s::<V>(0.05), 1.0));
            ghost |= cq::contact_manifolds(&id, &raw, &pose, &shape, V::Scalar::ZERO)
                .iter()
                .any(|m| !near(m.manifold.normal, up::<V>()));
        }
    }
    assert!(ghost, "the uncorrected soup should show edge normals");
}
for_each_vector!(sliding_over_internal_edges_gets_the_face_normal);

/// A world of compounds and convex shapes: its touching pairs and ray hits equal
/// the brute force over all shapes.
fn world_of_compounds_equals_brute_force<V: CompositeDim>()
where
    V::S: ConvexPart<V>,
{
    let mut rng = Rng(40 + V::DIM as u64);
    let mut world: World<V, V::Any> = World::new();
    let mut all = Vec::new();
    for _ in 0..40 {
        let shape = random_any::<V>(&mut rng);
        let pose = V::pose(&mut rng, 3.5 - 0.5 * V::DIM as f64);
        let h = world.insert(shape.clone(), pose, Filter::ALL).unwrap();
        all.push((h, shape, pose));
    }
    world.update();
    let mut got: Vec<_> = world.contacts().iter().map(|c| (c.a, c.b)).collect();
    got.sort_unstable();
    let mut want = Vec::new();
    for (i, (ha, a, pa)) in all.iter().enumerate() {
        for (hb, b, pb) in &all[i + 1..] {
            if dispatch::contact(pa, a, pb, b, V::Scalar::ZERO).is_some() {
                want.push((*ha.min(hb), *ha.max(hb)));
            }
        }
    }
    want.sort();
    assert_eq!(got, want, "touching pairs");
    assert!(!want.is_empty(), "the scene should have touching pairs");
    let mut hits = 0;
    for _ in 0..100 {
        let origin = rand_vec::<V>(&mut rng, 4.0);
        let target = rand_vec::<V>(&mut rng, 2.0);
        let ray = Ray {
            origin,
            dir: (target - origin).try_normalize().unwrap(),
        };
        let max_t = s::<V>(if V::DIM == 2 { 1.0 } else { 3.0 });
        let got = world.cast_ray(&ray, max_t, Filter::ALL);
        let want = all
            .iter()
            .filter_map(|(h, sh, p)| sh.cast_ray_posed(p, &ray, max_t).map(|hit| (hit.t, *h)))
            .min_by(|x, y| x.partial_cmp(y).unwrap());
        match (got, want) {
            (Some(g), Some((t, h))) => {
                assert!(close::<V>(g.hit.t, t, 1.0), "ray t {:?} vs {t:?}", g.hit.t);
                assert!(g.handle == h || close::<V>(g.hit.t, t, 0.0), "ray handle");
                hits += 1;
            }
            (g, w) => assert_eq!(g.is_some(), w.is_some(), "ray {ray:?}"),
        }
    }
    assert_hit_rate(hits, 100, "world rays");
}
for_each_vector!(world_of_compounds_equals_brute_force);

/// Bad input: an empty compound and a non-finite part pose are refused, naming the
/// part; NaN query poses give the documented misses.
fn bad_input_is_refused_or_missed<V: CompositeDim>()
where
    V::S: ConvexPart<V>,
{
    let ball = V::S::from(Ball::new(V::ZERO, s::<V>(0.5)).unwrap());
    assert!(matches!(
        Compound::<V, V::S>::new(Vec::new()),
        Err(ShapeError::Degenerate {
            shape: "Compound",
            ..
        })
    ));
    let nan = V::Pose::from_translation(V::splat(s::<V>(f64::NAN)));
    let id = V::Pose::IDENTITY;
    let parts = vec![(id, ball.clone()), (nan, ball.clone())];
    assert!(matches!(
        Compound::<V, V::S>::new(parts),
        Err(ShapeError::BadPart { index: 1, .. })
    ));
    let c = Compound::new(vec![(id, ball.clone())]).unwrap();
    assert!(!cq::intersects(&nan, &c, &id, &ball));
    assert!(cq::contact(&id, &c, &nan, &ball, V::Scalar::ZERO).is_none());
    assert!(cq::contact(&id, &c, &id, &ball, s::<V>(f64::NAN)).is_none());
    assert!(cq::distance(&nan, &c, &id, &ball).is_nan());
    assert!(cq::closest_points(&id, &c, &nan, &ball).distance.is_nan());
    assert!(cq::contact_manifolds(&nan, &c, &id, &ball, V::Scalar::ZERO).is_empty());
    assert!(cq::cast_shapes(&id, V::ZERO, &c, &nan, V::ZERO, &ball, V::Scalar::ONE).is_none());
    assert!(cq::cast_shapes(&id, V::ZERO, &c, &id, V::ZERO, &ball, s::<V>(-1.0)).is_none());
    assert!(!cq::intersects_composites(&id, &c, &nan, &c));
    assert!(cq::distance_composites(&nan, &c, &id, &c).is_nan());
    let ray = Ray {
        origin: V::splat(s::<V>(f64::NAN)),
        dir: V::unit_axis(0),
    };
    assert!(c.cast_ray(&ray, V::Scalar::ONE).is_none());
    let p = c.project_point(&id, V::splat(s::<V>(f64::NAN)), true);
    assert!(p.point.is_nan() && !p.is_inside);
    assert!(!cq::contains_point(&c, &nan, V::ZERO));
}
for_each_vector!(bad_input_is_refused_or_missed);

/// Touching counts: a compound of two unit boxes side by side touches a box placed
/// flush against one of them (distance 0, contact depth 0, a cast from there hits at
/// time 0); a ray starting inside a part hits at t = 0 with a zero normal.
fn touching_and_inside<V: CompositeDim>()
where
    V::S: ConvexPart<V>,
{
    let unit = V::cuboid(Aabb::from_center(V::ZERO, V::splat(s::<V>(0.5))).unwrap());
    let at = |x: f64| V::Pose::from_translation(V::unit_axis(0) * s::<V>(x));
    let c = Compound::new(vec![(at(0.0), unit.clone()), (at(1.0), unit.clone())]).unwrap();
    let id = V::Pose::IDENTITY;
    // The local box spans both parts; a rotated world box still holds every part.
    let span = Aabb::new(
        -V::splat(s::<V>(0.5)),
        V::splat(s::<V>(0.5)) + V::unit_axis(0),
    )
    .unwrap();
    assert_eq!((c.len(), c.local_aabb()), (2, span));
    assert_eq!(c.part_aabbs().len(), 2);
    let turned = V::pose(&mut Rng(7), 3.0);
    let world_box = c.world_aabb(&turned);
    for (pp, part) in c.parts() {
        let b = part.world_aabb(&turned.mul(pp));
        assert!(
            world_box.loosened(s::<V>(1e-4)).contains(&b),
            "{b:?} in {world_box:?}"
        );
    }
    // The other box's face x = 1.5 meets the compound's face x = 1.5.
    assert!(cq::intersects(&id, &c, &at(2.0), &unit));
    assert_eq!(cq::distance(&id, &c, &at(2.0), &unit), V::Scalar::ZERO);
    let (part, contact) = cq::contact(&id, &c, &at(2.0), &unit, V::Scalar::ZERO).unwrap();
    assert_eq!(part, 1);
    assert!(contact.depth.abs().to_f64() <= tol::<V>());
    let hit = cq::cast_shapes(
        &id,
        V::ZERO,
        &c,
        &at(2.0),
        -V::unit_axis(0),
        &unit,
        V::Scalar::ONE,
    );
    assert!(hit.is_some_and(|h| h.time == V::Scalar::ZERO));
    // From afar with an unbounded cast: the faces x = 4.5 and x = 1.5 meet at t = 3.
    let inf = V::Scalar::INFINITY;
    let hit = cq::cast_shapes(&id, V::ZERO, &c, &at(5.0), -V::unit_axis(0), &unit, inf).unwrap();
    assert!(close::<V>(hit.time, s::<V>(3.0), 1.0), "{hit:?}");
    let hit = cq::cast_shapes_composites(&at(5.0), -V::unit_axis(0), &c, &id, V::ZERO, &c, inf);
    assert!(
        hit.is_some_and(|h| close::<V>(h.time, s::<V>(3.0), 1.0)),
        "{hit:?}"
    );
    // Just apart: no contact without prediction, one with it.
    assert!(!cq::intersects(&id, &c, &at(2.01), &unit));
    assert!(cq::contact(&id, &c, &at(2.01), &unit, V::Scalar::ZERO).is_none());
    let (_, spec) = cq::contact(&id, &c, &at(2.01), &unit, s::<V>(0.1)).unwrap();
    assert!(close::<V>(spec.depth, s::<V>(-0.01), 1.0));
    let inside = Ray {
        origin: V::unit_axis(0) * s::<V>(0.9),
        dir: V::unit_axis(1),
    };
    let hit = c.cast_ray(&inside, V::Scalar::ONE).unwrap();
    assert_eq!((hit.t, hit.normal), (V::Scalar::ZERO, V::ZERO));
    let all = cq::cast_ray_all(
        &c,
        &Ray {
            origin: V::unit_axis(0) * s::<V>(-3.0),
            dir: V::unit_axis(0),
        },
        s::<V>(10.0),
    );
    assert_eq!(all.iter().map(|(i, _)| *i).collect::<Vec<_>>(), vec![0, 1]);
    // Hollow projection of an interior point goes to the nearest part's surface.
    let p = c.project_local_point(V::unit_axis(0) * s::<V>(1.3), false);
    assert!(p.is_inside && near(p.point, V::unit_axis(0) * s::<V>(1.5)));
}
for_each_vector!(touching_and_inside);

/// `dispatch::contact_manifold`: two boxes resting face on face (overlap 0.1) get
/// the clipped face manifold (2 points in 2D, 4 in 3D, each 0.1 deep, normal along
/// the stacking axis); a ball on a box gets the single point of `contact`.
fn contact_manifold_dispatch<V: CompositeDim>()
where
    V::S: ConvexPart<V>,
{
    use isect::query::FeatureId;
    let unit = V::cuboid(Aabb::from_center(V::ZERO, V::splat(s::<V>(0.5))).unwrap());
    let id = V::Pose::IDENTITY;
    let above = V::Pose::from_translation(up::<V>() * s::<V>(0.9));
    let m = dispatch::contact_manifold(&id, &unit, &above, &unit, V::Scalar::ZERO).unwrap();
    assert_eq!(m.points().len(), 1 << (V::DIM - 1));
    assert!(near(m.normal, up::<V>()));
    for p in m.points() {
        assert!(close::<V>(p.depth, s::<V>(0.1), 1.0), "{p:?}");
    }
    let ball = V::S::from(Ball::new(V::ZERO, s::<V>(0.5)).unwrap());
    let m = dispatch::contact_manifold(&id, &unit, &above, &ball, V::Scalar::ZERO).unwrap();
    let c = dispatch::contact(&id, &unit, &above, &ball, V::Scalar::ZERO).unwrap();
    assert_eq!(m.points().len(), 1);
    assert_eq!(m.points()[0].id, FeatureId::SINGLE);
    assert!(close::<V>(m.points()[0].depth, c.depth, 1.0) && near(m.normal, c.normal));
    // Apart by more than the prediction: no manifold; NaN prediction: none either.
    let far = V::Pose::from_translation(up::<V>() * s::<V>(1.2));
    assert!(dispatch::contact_manifold(&id, &unit, &far, &unit, s::<V>(0.1)).is_none());
    assert!(dispatch::contact_manifold(&id, &unit, &far, &unit, s::<V>(0.3)).is_some());
    assert!(dispatch::contact_manifold(&id, &unit, &above, &unit, s::<V>(f64::NAN)).is_none());
}
for_each_vector!(contact_manifold_dispatch);

/// `ProjectPoint` on convex shapes: the analytic ball and box projections equal the
/// GJK / EPA projection of the same shapes, solid and hollow, inside and outside;
/// on every kind, an outside point projects at the GJK distance.
fn convex_projection_agrees<V: CompositeDim>()
where
    V::S: ConvexPart<V>,
{
    use isect::query::project_convex::project_by_support;
    let mut rng = Rng(60 + V::DIM as u64);
    let mut inside = 0;
    for k in 0..CASES {
        let shape = if k % 2 == 0 {
            V::S::from(Ball::new(rand_vec(&mut rng, 0.2), s::<V>(rng.range(0.3, 0.8))).unwrap())
        } else {
            let h = (0..V::DIM).fold(V::ZERO, |v, i| v.with(i, s::<V>(rng.range(0.2, 0.8))));
            V::cuboid(Aabb::from_center(rand_vec(&mut rng, 0.2), h).unwrap())
        };
        let p = rand_vec::<V>(&mut rng, 1.35 - 0.25 * V::DIM as f64);
        for solid in [true, false] {
            let fast = shape.project_local_point(p, solid);
            let slow = project_by_support(&shape, p, solid);
            assert_eq!(fast.is_inside, slow.is_inside, "{shape:?} at {p:?}");
            let (df, ds) = (fast.point.distance(p), slow.point.distance(p));
            assert!(
                close::<V>(df, ds, 1.0),
                "{shape:?} at {p:?} solid {solid}: {df:?} vs {ds:?}"
            );
        }
        inside += shape.project_local_point(p, true).is_inside as usize;
        let other = V::shape(rng.below(V::KINDS), &mut rng, 1.0);
        let q = rand_vec::<V>(&mut rng, 2.0);
        let proj = other.project_local_point(q, false);
        let point = V::S::from(Ball::new(q, V::Scalar::ZERO).unwrap());
        let id = V::Pose::IDENTITY;
        let d = dispatch::distance(&id, &other, &id, &point);
        if !proj.is_inside {
            assert!(
                close::<V>(proj.point.distance(q), d, 1.0),
                "{other:?} at {q:?}"
            );
        }
    }
    assert_hit_rate(inside, CASES, "projection inside");
    // A capsule (by GJK / EPA) against its closed form: the segment's closest point
    // pushed out by the radius; inside, hollow, onto the surface at that distance.
    let capsule = isect::shape::Capsule::new(V::ZERO, V::unit_axis(0), s::<V>(0.4)).unwrap();
    for _ in 0..200 {
        let p = rand_vec::<V>(&mut rng, 1.2);
        let (on_axis, _) = capsule.segment().closest_point(p);
        let gap = p.distance(on_axis) - capsule.radius();
        let proj = capsule.project_local_point(p, false);
        assert_eq!(proj.is_inside, gap <= V::Scalar::ZERO, "{p:?}");
        assert!(
            close::<V>(proj.point.distance(p), gap.abs(), 1.0),
            "{p:?}: {proj:?}"
        );
    }
}
for_each_vector!(convex_projection_agrees);

mod properties {
    use super::*;
    use glam::DVec3;
    use isect::math::Pose3;
    use isect::shape::shape_3d::{AnyShape, Shape};
    use proptest::prelude::*;

    /// A compound of two unit boxes and a ball, for the properties.
    fn compound() -> AnyShape<f64> {
        let unit: Shape<f64> = Aabb::from_center(DVec3::ZERO, DVec3::splat(0.5))
            .unwrap()
            .into();
        let ball: Shape<f64> = Ball::new(DVec3::ZERO, 0.4).unwrap().into();
        let at = |x: f64| Pose3::from_translation(DVec3::new(x, 0.0, 0.0));
        Compound::new(vec![
            (at(0.0), unit.clone()),
            (at(1.0), unit),
            (at(2.0), ball),
        ])
        .unwrap()
        .into()
    }

    fn pose(t: (f64, f64, f64), axis: (f64, f64, f64), angle: f64) -> Pose3<f64> {
        let axis = DVec3::new(axis.0, axis.1, axis.2)
            .try_normalize()
            .unwrap_or(DVec3::Z);
        Pose3::new(
            DVec3::new(t.0, t.1, t.2),
            glam::DQuat::from_axis_angle(axis, angle),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Compound against compound: swapping A and B mirrors distance and contact,
        /// and one rigid motion of both changes neither.
        #[test]
        fn swap_and_motion(
            t in (-2.5..2.5f64, -2.0..2.0f64, -2.0..2.0f64),
            axis in (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64),
            angle in -3.2..3.2f64,
            m in (-9.0..9.0f64, -9.0..9.0f64, -9.0..9.0f64),
            m_angle in -3.2..3.2f64,
        ) {
            let (a, b) = (compound(), compound());
            let (pa, pb) = (Pose3::IDENTITY, pose(t, axis, angle));
            let d = dispatch::distance(&pa, &a, &pb, &b);
            prop_assert!((d - dispatch::distance(&pb, &b, &pa, &a)).abs() < 1e-9);
            let motion = pose(m, axis, m_angle);
            let (ma, mb) = (motion.mul(&pa), motion.mul(&pb));
            prop_assert!((d - dispatch::distance(&ma, &a, &mb, &b)).abs() < 1e-6);
            let ab = dispatch::contact(&pa, &a, &pb, &b, 0.0);
            let ba = dispatch::contact(&pb, &b, &pa, &a, 0.0);
            prop_assert_eq!(ab.is_some(), ba.is_some());
            if let (Some(x), Some(y)) = (ab, ba) {
                prop_assert!((x.depth - y.depth).abs() < 1e-6);
                let moved = dispatch::contact(&ma, &a, &mb, &b, 0.0).unwrap();
                prop_assert!((x.depth - moved.depth).abs() < 1e-6);
            }
        }
    }
}
