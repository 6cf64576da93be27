//! Every convex pair's manifold on random poses (issue 13 items 1 and 2), 2D and 3D,
//! f32 and f64: at most 2 (2D) or 4 (3D) points, a unit normal, each point with
//! `point_a` on A's surface, `point_b` on B's, `point_a − point_b = depth · normal` and
//! a depth of at least `−prediction`; a pair that overlaps by more than rounding has a
//! manifold both ways round; the ids of a resting manifold stay the same under a small
//! motion.
#[path = "support/rng.rs"]
mod rng;

use isect::algo::gjk::GjkVector;
use isect::math::{Pose2, Pose3, Real, Rotation3, Vector, Vector2, Vector3};
use isect::query::contact::witness_band;
use isect::query::dispatch::{self, DispatchShape};
use isect::query::{FeatureId, Manifold, ProjectPoint};
use isect::shape::{shape_2d, shape_3d, Aabb, Capsule, Cone, ConvexPolygon, ConvexPolyhedron};
use isect::shape::{Cylinder, Rounded, Segment, Triangle};
use rng::Rng;

fn r<R: Real>(x: f64) -> R {
    R::from_f64(x)
}

fn v3<R: Real>(x: f64, y: f64, z: f64) -> R::V3 {
    R::V3::new(r(x), r(y), r(z))
}

fn v2<R: Real>(x: f64, y: f64) -> R::V2 {
    R::V2::new(r(x), r(y))
}

/// Tolerance of a surface distance, relative to the shapes' size (1).
fn tol<R: Real>() -> f64 {
    if R::EPSILON.to_f64() > 1e-10 {
        2e-4
    } else {
        1e-7
    }
}

/// The distance from `p` to the boundary of `s` placed at `pose`.
fn off_surface<V: Vector, S: ProjectPoint<V>>(s: &S, pose: &V::Pose, p: V) -> f64 {
    (s.project_point(pose, p, false).point - p)
        .length()
        .to_f64()
}

/// The checks every manifold must pass.
fn check<V, S>(pair: (&V::Pose, &S, &V::Pose, &S), m: &Manifold<V>, prediction: f64, what: &str)
where
    V: GjkVector,
    S: DispatchShape<V> + ProjectPoint<V> + core::fmt::Debug,
{
    let (pa, a, pb, b) = pair;
    let t = tol::<V::Scalar>();
    // Two lines up to 2.6° from parallel (capsules, cylinders side by side) put
    // `point_a` up to sin 2.6° times their length (at most 1.4 here) beside A.
    let lines = m.points().len() == 2
        && m.points()
            .iter()
            .all(|p| p.id.point < 2 || p.id.point >> 31 == 1)
        && V::DIM == 3;
    let beside = if lines { 0.065 } else { t };
    let cap = if V::DIM == 2 { 2 } else { 4 };
    assert!(
        !m.points().is_empty() && m.points().len() <= cap,
        "{what}: {m:?}"
    );
    assert!(
        (m.normal.length().to_f64() - 1.0).abs() <= t,
        "{what}: normal {m:?}"
    );
    for p in m.points() {
        // EPA's single point follows the normal to its accuracy (`witness_band`).
        let along = match p.id == FeatureId::SINGLE {
            true => t.max(4.0 * witness_band::<V::Scalar>().to_f64()),
            false => t,
        };
        let rel = p.point_a - p.point_b - m.normal * p.depth;
        assert!(rel.length().to_f64() <= along, "{what}: relation {m:?}");
        assert!(p.depth.to_f64() >= -prediction - t, "{what}: depth {m:?}");
        let (da, db) = (off_surface(a, pa, p.point_a), off_surface(b, pb, p.point_b));
        if p.id == FeatureId::SINGLE {
            // EPA's witnesses, placed on the shapes' support sets: on both surfaces to
            // EPA's tolerance.
            let epa = if V::Scalar::EPSILON.to_f64() > 1e-10 {
                2e-3
            } else {
                1e-5
            };
            assert!(
                da.max(db) <= epa,
                "{what}: single point off the surfaces {da}, {db}: {m:?}"
            );
            continue;
        }
        assert!(da <= beside && db <= t, "{what}: {:?} off the surfaces by {da}, {db}: {m:?} A {a:?} at {pa:?} B {b:?} at {pb:?}", p.id);
    }
}

/// A random 3D pose within `spread` of the origin.
fn pose3<R: Real>(rng: &mut Rng, spread: f64) -> Pose3<R> {
    let axis = v3::<R>(
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
    );
    let axis = axis.try_normalize().unwrap_or(R::V3::unit_axis(1));
    let q = R::Quat::from_axis_angle(axis, r(rng.range(0.0, 6.3)));
    let t = v3::<R>(
        rng.range(-spread, spread),
        rng.range(-spread, spread),
        rng.range(-spread, spread),
    );
    Pose3::new(t, q)
}

/// The 3D kinds of size about 1, the hull a random one.
fn shapes_3d<R: Real>(rng: &mut Rng) -> Vec<shape_3d::Shape<R>> {
    let half = v3::<R>(0.6, 0.4, 0.5);
    let cube = Aabb::from_center(R::V3::ZERO, half).unwrap();
    let pts: Vec<R::V3> = (0..12)
        .map(|_| {
            v3::<R>(
                rng.range(-0.6, 0.6),
                rng.range(-0.6, 0.6),
                rng.range(-0.6, 0.6),
            )
        })
        .collect();
    let tri = Triangle::new(
        v3::<R>(-0.7, 0.0, -0.4),
        v3::<R>(0.6, 0.1, -0.3),
        v3::<R>(0.0, -0.1, 0.7),
    );
    let seg = Segment::new(v3::<R>(-0.7, 0.0, 0.0), v3::<R>(0.7, 0.1, 0.0)).unwrap();
    vec![
        cube.into(),
        Capsule::aligned(1, r(0.5), r(0.3)).unwrap().into(),
        Cylinder::new(r(0.5), r(0.4)).unwrap().into(),
        Cone::new(r(0.5), r(0.5)).unwrap().into(),
        shape_3d::Shape::RoundedCuboid(Rounded::new(cube, r(0.1)).unwrap()),
        tri.unwrap().into(),
        seg.into(),
        ConvexPolyhedron::from_points(&pts).unwrap().into(),
    ]
}

/// Every ordered pair of `shapes` on 60 random poses each (`pose` draws one): the
/// checks of [`check`], a manifold swapped for every overlap deeper than 1e-3, and
/// enough manifolds, enough of them with several points.
fn random_pairs<V, S>(shapes: &[S], rng: &mut Rng, pose: impl Fn(&mut Rng) -> V::Pose)
where
    V: GjkVector,
    S: DispatchShape<V> + ProjectPoint<V> + core::fmt::Debug,
{
    let (mut manifolds, mut multi) = (0, 0);
    for (i, a) in shapes.iter().enumerate() {
        for (j, b) in shapes.iter().enumerate() {
            for case in 0..60 {
                let (pa, pb) = (pose(rng), pose(rng));
                let prediction = if case % 3 == 0 { 0.05 } else { 0.0 };
                let what = format!("{}D kinds {i}, {j}, case {case}", V::DIM);
                let p = V::Scalar::from_f64(prediction);
                let Some(m) = dispatch::contact_manifold(&pa, a, &pb, b, p) else {
                    continue;
                };
                check((&pa, a, &pb, b), &m, prediction, &what);
                manifolds += 1;
                multi += usize::from(m.points().len() > 1);
                if m.max_depth().to_f64() > 1e-3 {
                    let back = dispatch::contact_manifold(&pb, b, &pa, a, p);
                    assert!(back.is_some(), "{what}: no manifold swapped");
                }
            }
        }
    }
    // Random poses of these kinds overlap often, and flat features meet in some.
    let pairs = shapes.len() * shapes.len();
    assert!(manifolds > pairs * 60 / 3, "{manifolds} manifolds");
    assert!(
        multi * 10 > manifolds,
        "only {multi} of {manifolds} with several points"
    );
}

fn random_pairs_3d<R: Real>(seed: u64)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let mut rng = Rng(seed);
    let shapes = shapes_3d::<R>(&mut rng);
    random_pairs::<R::V3, _>(&shapes, &mut rng, |rng| pose3::<R>(rng, 0.6));
}

#[test]
fn random_pairs_3d_f32() {
    random_pairs_3d::<f32>(31);
}

#[test]
fn random_pairs_3d_f64() {
    random_pairs_3d::<f64>(32);
}

/// A random 2D pose within `spread` of the origin.
fn pose2<R: Real>(rng: &mut Rng, spread: f64) -> Pose2<R> {
    let t = v2::<R>(rng.range(-spread, spread), rng.range(-spread, spread));
    Pose2::new(t, r(rng.range(-3.2, 3.2)))
}

/// The 2D kinds of size about 1.
fn shapes_2d<R: Real>() -> Vec<shape_2d::Shape<R>> {
    let cube = Aabb::from_center(R::V2::ZERO, v2::<R>(0.6, 0.4)).unwrap();
    let hexagon: Vec<R::V2> = (0..6)
        .map(|k| {
            let a = core::f64::consts::PI / 3.0 * k as f64;
            v2::<R>(0.6 * a.cos(), 0.5 * a.sin())
        })
        .collect();
    let hexagon = ConvexPolygon::new(&hexagon).unwrap();
    let tri = Triangle::new(v2::<R>(-0.6, -0.4), v2::<R>(0.7, -0.3), v2::<R>(0.0, 0.6)).unwrap();
    let seg = Segment::new(v2::<R>(-0.7, 0.0), v2::<R>(0.7, 0.1)).unwrap();
    vec![
        cube.into(),
        Capsule::aligned(0, r(0.5), r(0.3)).unwrap().into(),
        shape_2d::Shape::Polygon(hexagon.clone()),
        shape_2d::Shape::RoundedCuboid(Rounded::new(cube, r(0.1)).unwrap()),
        shape_2d::Shape::RoundedPolygon(Rounded::new(hexagon, r(0.1)).unwrap()),
        tri.into(),
        seg.into(),
    ]
}

fn random_pairs_2d<R: Real>(seed: u64)
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let mut rng = Rng(seed);
    random_pairs::<R::V2, _>(&shapes_2d::<R>(), &mut rng, |rng| pose2::<R>(rng, 0.6));
}

#[test]
fn random_pairs_2d_f32() {
    random_pairs_2d::<f32>(21);
}

#[test]
fn random_pairs_2d_f64() {
    random_pairs_2d::<f64>(22);
}

/// A capsule, a cylinder, a cone and a rounded box resting on a box floor keep their
/// manifold's ids while they slide a little (a solver's warm start matches them).
fn ids_stay<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let floor: shape_3d::Shape<R> = Aabb::from_center(R::V3::ZERO, v3::<R>(5.0, 0.5, 5.0))
        .unwrap()
        .into();
    let below = Pose3::new(v3::<R>(0.0, -0.5, 0.0), R::Quat::IDENTITY);
    let roll = R::Quat::from_axis_angle(R::V3::unit_axis(2), r(core::f64::consts::FRAC_PI_2));
    let cube = Aabb::from_center(R::V3::ZERO, v3::<R>(0.5, 0.3, 0.4)).unwrap();
    let bodies: [(shape_3d::Shape<R>, R::Quat, f64); 4] = [
        (
            Capsule::aligned(0, r(1.0), r(0.5)).unwrap().into(),
            R::Quat::IDENTITY,
            0.5,
        ),
        (
            Cylinder::new(r(1.0), r(0.5)).unwrap().into(),
            R::Quat::IDENTITY,
            1.0,
        ),
        (Cylinder::new(r(1.0), r(0.5)).unwrap().into(), roll, 0.5),
        (
            shape_3d::Shape::RoundedCuboid(Rounded::new(cube, r(0.1)).unwrap()),
            R::Quat::IDENTITY,
            0.4,
        ),
    ];
    for (k, (body, lay, rest)) in bodies.iter().enumerate() {
        let ids = |x: f64| {
            let pose = Pose3::new(v3::<R>(x, rest - 0.01, 0.02 * x), *lay);
            let m = dispatch::contact_manifold(&below, &floor, &pose, body, R::ZERO).unwrap();
            let mut ids: Vec<_> = m.points().iter().map(|p| p.id).collect();
            ids.sort_by_key(|id| (id.reference, id.incident, id.point));
            ids
        };
        let first = ids(0.0);
        assert!(first.len() >= 2, "body {k}: {first:?}");
        for step in 1..10 {
            assert_eq!(ids(0.01 * step as f64), first, "body {k}, step {step}");
        }
    }
}

#[test]
fn ids_stay_f32() {
    ids_stay::<f32>();
}

#[test]
fn ids_stay_f64() {
    ids_stay::<f64>();
}
