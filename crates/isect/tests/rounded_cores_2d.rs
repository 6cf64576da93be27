//! 2D manifolds of the kinds with polygonal cores (boxes, polygons, capsules,
//! segments, triangles, rounded boxes and polygons) by SAT and clipping on the cores
//! (`query::manifold::polygons_2d`), in `f32` and `f64`:
//!
//! - exact answers where the touching features are known (a capsule lying on a box,
//!   one tilted onto its end cap, two crossing capsules, two rounded boxes corner to
//!   corner) at scales 1e-3 to 1e3, under a random rigid motion, in both argument
//!   orders;
//! - on random poses of every pair of kinds, the manifold exists when the shapes
//!   overlap, and its deepest point agrees with the contact's penetration depth (EPA
//!   or a closed form) within the reference-edge bias;
//! - degenerate cores (a capsule of zero length, a flat triangle) and non-finite
//!   poses.

#[path = "support/rng.rs"]
mod rng;

use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose2, Real, Vector, Vector2};
use isect::query::dispatch;
use isect::query::Manifold;
use isect::shape::shape_2d::Shape;
use isect::shape::{Aabb, Ball, Capsule, ConvexPolygon, Rounded, Segment, Triangle};
use rng::Rng;

fn r<R: Real>(x: f64) -> R {
    R::from_f64(x)
}

fn v2<R: Real>(x: f64, y: f64) -> R::V2 {
    R::V2::new(r(x), r(y))
}

/// Relative tolerance of an exact answer.
fn tol<R: Real>() -> f64 {
    if R::EPSILON.to_f64() > 1e-10 {
        2e-5
    } else {
        1e-11
    }
}

/// The manifold both ways round: A first, and B first flipped back.
fn both_orders<R: Real>(
    pa: &Pose2<R>,
    a: &Shape<R>,
    pb: &Pose2<R>,
    b: &Shape<R>,
) -> [Option<Manifold<R::V2>>; 2]
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    [
        dispatch::contact_manifold(pa, a, pb, b, R::ZERO),
        dispatch::contact_manifold(pb, b, pa, a, R::ZERO).map(|m| m.flipped()),
    ]
}

/// A random rigid motion of the plane, moving by up to `spread`.
fn motion<R: Real>(rng: &mut Rng, spread: f64) -> Pose2<R> {
    let t = v2::<R>(rng.range(-spread, spread), rng.range(-spread, spread));
    Pose2::new(t, r(rng.range(-3.2, 3.2)))
}

/// Checks one exact case at scale `s` under a few random motions: every point's depth,
/// the normal, and each point's `point_b` against `expected_b` (any order).
fn check_exact<R: Real>(
    (pa, a): (Pose2<R>, &Shape<R>),
    (pb, b): (Pose2<R>, &Shape<R>),
    normal: R::V2,
    depth: f64,
    expected_b: &[R::V2],
    s: f64,
) where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let mut rng = Rng(7);
    let t = tol::<R>() * s.max(1.0) * 4.0;
    for _ in 0..8 {
        let w = motion::<R>(&mut rng, 3.0 * s);
        let (wa, wb) = (w.mul(&pa), w.mul(&pb));
        for m in both_orders(&wa, a, &wb, b) {
            let m = m.expect("the shapes touch");
            assert_eq!(m.points().len(), expected_b.len(), "{m:?}");
            let n = w.transform_vector(normal);
            assert!((m.normal - n).length().to_f64() <= t / s, "normal {m:?}");
            for p in m.points() {
                assert!(
                    (p.depth.to_f64() - depth).abs() <= t,
                    "depth {depth}: {m:?}"
                );
                let near = expected_b
                    .iter()
                    .any(|&e| (w.transform_point(e) - p.point_b).length().to_f64() <= t);
                assert!(near, "point_b not at {expected_b:?}: {m:?}");
                let rel = p.point_a - p.point_b - m.normal * p.depth;
                assert!(rel.length().to_f64() <= t, "relation {m:?}");
            }
        }
    }
}

const SCALES: [f64; 5] = [1e-3, 0.1, 1.0, 10.0, 1e3];

fn capsule_lying_and_tilted<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    for s in SCALES {
        let floor: Shape<R> = Aabb::from_center(R::V2::ZERO, v2::<R>(4.0 * s, 0.5 * s))
            .unwrap()
            .into();
        let capsule: Shape<R> = Capsule::aligned(0, r(0.5 * s), r(0.3 * s)).unwrap().into();
        // Lying 0.05 deep: both ends, 0.05 deep, straight below the core's ends.
        let lying = Pose2::from_translation(v2::<R>(0.7 * s, 0.75 * s));
        let ends = [v2::<R>(0.2 * s, 0.45 * s), v2::<R>(1.2 * s, 0.45 * s)];
        let up = v2::<R>(0.0, 1.0);
        check_exact(
            (Pose2::IDENTITY, &floor),
            (lying, &capsule),
            up,
            0.05 * s,
            &ends,
            s,
        );
        // Tilted by 0.3 rad with the lower end 0.05 deep: that end's cap alone.
        let (c, sn) = (0.3f64.cos(), 0.3f64.sin());
        let low_end_y = 0.5 - 0.05 + 0.3;
        let centre = v2::<R>(0.1 * s, (low_end_y + 0.5 * sn) * s);
        let tilted = Pose2::new(centre, r(0.3));
        let cap = [v2::<R>((0.1 - 0.5 * c) * s, 0.45 * s)];
        check_exact(
            (Pose2::IDENTITY, &floor),
            (tilted, &capsule),
            up,
            0.05 * s,
            &cap,
            s,
        );
    }
}

#[test]
fn capsule_lying_and_tilted_f32() {
    capsule_lying_and_tilted::<f32>();
}

#[test]
fn capsule_lying_and_tilted_f64() {
    capsule_lying_and_tilted::<f64>();
}

/// Two capsules whose cores cross at right angles: the penetration is the radii plus
/// the shorter way off the other's line (the short core sits 0.05 off centre).
fn crossing_capsules<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    for s in SCALES {
        let long: Shape<R> = Capsule::aligned(0, r(0.5 * s), r(0.3 * s)).unwrap().into();
        let short: Shape<R> = Capsule::aligned(1, r(0.4 * s), r(0.2 * s)).unwrap().into();
        let at = Pose2::from_translation(v2::<R>(0.1 * s, 0.05 * s));
        let depth = (0.3 + 0.2 + 0.4 - 0.05) * s;
        let m = dispatch::contact_manifold(&Pose2::IDENTITY, &long, &at, &short, R::ZERO)
            .expect("crossing");
        let t = tol::<R>() * s * 4.0;
        assert!(
            (m.max_depth().to_f64() - depth).abs() <= t,
            "{depth}: {m:?}"
        );
        let c = dispatch::contact(&Pose2::IDENTITY, &long, &at, &short, R::ZERO).unwrap();
        assert!((c.depth.to_f64() - depth).abs() <= 1e3 * t, "EPA {c:?}");
    }
}

#[test]
fn crossing_capsules_f32() {
    crossing_capsules::<f32>();
}

#[test]
fn crossing_capsules_f64() {
    crossing_capsules::<f64>();
}

/// Two rounded boxes whose cores are apart corner to corner: one point between the
/// corners, its depth the radii less the corners' distance.
fn rounded_corners<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    for s in SCALES {
        let core = Aabb::from_center(R::V2::ZERO, v2::<R>(0.5 * s, 0.5 * s)).unwrap();
        let rounded: Shape<R> = Shape::RoundedCuboid(Rounded::new(core, r(0.2 * s)).unwrap());
        let (gx, gy) = (0.2, 0.1);
        let at = Pose2::from_translation(v2::<R>((1.0 + gx) * s, (1.0 + gy) * s));
        let d = (gx * gx + gy * gy).sqrt();
        let n = v2::<R>(gx / d, gy / d);
        let corner_b = v2::<R>(0.5 * s, 0.5 * s) + n * r::<R>(d * s - 0.2 * s);
        check_exact(
            (Pose2::IDENTITY, &rounded),
            (at, &rounded),
            n,
            (0.4 - d) * s,
            &[corner_b],
            s,
        );
    }
}

#[test]
fn rounded_corners_f32() {
    rounded_corners::<f32>();
}

#[test]
fn rounded_corners_f64() {
    rounded_corners::<f64>();
}

/// The polygonal kinds of size about 1.
fn kinds<R: Real>() -> Vec<Shape<R>> {
    let cube = Aabb::from_center(R::V2::ZERO, v2::<R>(0.6, 0.4)).unwrap();
    let pentagon = [
        (-0.6, -0.4),
        (0.5, -0.5),
        (0.7, 0.2),
        (0.1, 0.6),
        (-0.5, 0.3),
    ]
    .map(|(x, y)| v2::<R>(x, y));
    let pentagon = ConvexPolygon::new(&pentagon).unwrap();
    // Clockwise on purpose: the core is reordered.
    let tri = Triangle::new(v2::<R>(-0.6, -0.4), v2::<R>(0.0, 0.6), v2::<R>(0.7, -0.3)).unwrap();
    vec![
        cube.into(),
        Capsule::aligned(0, r(0.5), r(0.3)).unwrap().into(),
        Capsule::aligned(1, r(0.3), r(0.05)).unwrap().into(),
        Shape::Polygon(pentagon.clone()),
        Shape::RoundedCuboid(Rounded::new(cube, r(0.1)).unwrap()),
        Shape::RoundedPolygon(Rounded::new(pentagon, r(0.15)).unwrap()),
        tri.into(),
        Segment::new(v2::<R>(-0.7, 0.0), v2::<R>(0.7, 0.1))
            .unwrap()
            .into(),
    ]
}

/// Every pair of kinds on random poses: the manifold exists when the contact says the
/// shapes overlap, and its deepest point is the contact's depth, up to the reference
/// bias (the manifold's depth is measured along its reference edge's normal).
fn agrees_with_contact<R: Real>(seed: u64)
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let shapes = kinds::<R>();
    let mut rng = Rng(seed);
    let f32_like = R::EPSILON.to_f64() > 1e-10;
    // EPA's accuracy in f32, the reference bias (1e-3 of the size) otherwise.
    let t = if f32_like { 3e-3 } else { 1.5e-3 };
    let mut compared = 0;
    for (i, a) in shapes.iter().enumerate() {
        for b in &shapes[i..] {
            for case in 0..600 {
                let pa = motion::<R>(&mut rng, 0.8);
                let pb = motion::<R>(&mut rng, 0.8);
                let m = dispatch::contact_manifold(&pa, a, &pb, b, R::ZERO);
                let c = dispatch::contact(&pa, a, &pb, b, R::ZERO);
                let what = || format!("case {case}: {a:?} at {pa:?}, {b:?} at {pb:?}: {m:?} {c:?}");
                match (&m, &c) {
                    (Some(m), Some(c)) => {
                        let (md, cd) = (m.max_depth().to_f64(), c.depth.to_f64());
                        assert!(md >= cd - t && md <= cd + t, "depth {}", what());
                        compared += 1;
                    }
                    (None, Some(c)) => assert!(c.depth.to_f64() <= t, "missed {}", what()),
                    (Some(m), None) => assert!(m.max_depth().to_f64() <= t, "extra {}", what()),
                    (None, None) => {}
                }
            }
        }
    }
    assert!(compared > 3_000, "only {compared} touching cases");
}

#[test]
fn agrees_with_contact_f32() {
    agrees_with_contact::<f32>(41);
}

#[test]
fn agrees_with_contact_f64() {
    agrees_with_contact::<f64>(42);
}

/// A capsule of zero length is a disc, and a flat triangle a segment: the general
/// path answers them; non-finite poses give no manifold.
fn degenerate<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let floor: Shape<R> = Aabb::from_center(R::V2::ZERO, v2::<R>(4.0, 0.5))
        .unwrap()
        .into();
    let dot: Shape<R> = Capsule::aligned(0, R::ZERO, r(0.3)).unwrap().into();
    let disc: Shape<R> = Ball::new(R::V2::ZERO, r(0.3)).unwrap().into();
    let at = Pose2::from_translation(v2::<R>(0.2, 0.75));
    let m = dispatch::contact_manifold(&Pose2::IDENTITY, &floor, &at, &dot, R::ZERO).unwrap();
    let d = dispatch::contact_manifold(&Pose2::IDENTITY, &floor, &at, &disc, R::ZERO).unwrap();
    assert_eq!(m.points().len(), 1);
    assert!(
        (m.max_depth() - d.max_depth()).abs().to_f64() <= tol::<R>(),
        "{m:?} {d:?}"
    );
    if let Ok(flat) = Triangle::new(v2::<R>(-1.0, 0.0), v2::<R>(0.0, 0.0), v2::<R>(1.0, 0.0)) {
        let flat: Shape<R> = flat.into();
        let low = Pose2::from_translation(v2::<R>(0.0, 0.45));
        let m = dispatch::contact_manifold(&Pose2::IDENTITY, &floor, &low, &flat, R::ZERO)
            .expect("the flat triangle is 0.05 deep");
        assert!((m.max_depth().to_f64() - 0.05).abs() <= 1e-3, "{m:?}");
    }
    let nan = Pose2::from_translation(v2::<R>(f64::NAN, 0.0));
    let capsule: Shape<R> = Capsule::aligned(0, r(0.5), r(0.3)).unwrap().into();
    assert!(
        dispatch::contact_manifold(&Pose2::IDENTITY, &floor, &nan, &capsule, R::ZERO).is_none()
    );
    assert!(dispatch::contact_manifold(&nan, &capsule, &at, &floor, R::ZERO).is_none());
    let nan = r::<R>(f64::NAN);
    assert!(dispatch::contact_manifold(&Pose2::IDENTITY, &floor, &at, &capsule, nan).is_none());
}

#[test]
fn degenerate_f32() {
    degenerate::<f32>();
}

#[test]
fn degenerate_f64() {
    degenerate::<f64>();
}
