//! Degenerate but valid shapes against every 3D kind (session 33 review): a cylinder
//! of zero height (a disc), zero radius (a needle) or both (a point), the same cones,
//! capsules of zero length or radius, boxes flat in one, two or three axes, a point
//! segment, collinear and point triangles, a rounded box of zero core, a ball of zero
//! radius, and a flat hull. The closed-form capsule–cylinder kernel answered a capsule
//! against a disc from one side of the disc's plane only (0.2423 for 0.1830, up to 1.1
//! off), and the witness placement took a flat cone's slant and a collinear triangle's
//! one vertex for their support features.
//!
//! Every ordered pair with a degenerate shape, seeded poses, `f32` and `f64`:
//!
//! - `dispatch::distance` equals `dispatch::closest_points`' distance and GJK's on the
//!   shapes as support maps, and the closest points lie that far apart;
//! - `dispatch::contact` with a wide prediction: apart, `−depth` is that distance;
//!   overlapping, the depth is EPA's;
//! - `intersects` agrees with the distance;
//! - capsules against cylinders of any height and radius: the distance equals a
//!   brute-force minimum over the segment (the distance to a cylinder is convex along
//!   it: a ternary search of the closed-form point distance);
//! - the review's capsule against a disc, at its known distance.

#[path = "support/poses3.rs"]
mod poses3;
#[path = "support/rng.rs"]
mod rng;

use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose3, Real, Rotation3, Vector};
use isect::query::{dispatch, ProjectPoint};
use isect::shape::shape_3d::Shape;
use isect::shape::{
    Aabb, Ball, Capsule, Cone, ConvexPolyhedron, Cylinder, Rounded, Segment, Triangle,
};
use poses3::{pose3, v3};
use rng::Rng;

/// Seeded poses per ordered pair of kinds and precision.
const POSES: usize = 40;

/// A box of half extents `(x, y, z)` about the origin.
fn cuboid<R: Real>(x: f64, y: f64, z: f64) -> Shape<R> {
    Shape::Cuboid(Aabb::new(v3::<R>(-x, -y, -z), v3::<R>(x, y, z)).expect("valid"))
}

/// A capsule along `y` of half length `h` and radius `r`.
fn capsule<R: Real>(h: f64, r: f64) -> Capsule<R::V3> {
    Capsule::new(v3::<R>(0.0, -h, 0.0), v3::<R>(0.0, h, 0.0), R::from_f64(r)).expect("valid")
}

fn cylinder<R: Real>(h: f64, r: f64) -> Cylinder<R> {
    Cylinder::new(R::from_f64(h), R::from_f64(r)).expect("valid")
}

fn cone<R: Real>(h: f64, r: f64) -> Shape<R> {
    Shape::Cone(Cone::new(R::from_f64(h), R::from_f64(r)).expect("valid"))
}

/// The kinds: (name, shape, degenerate).
fn kinds<R: Real>() -> Vec<(&'static str, Shape<R>, bool)> {
    let o = v3::<R>(0.0, 0.0, 0.0);
    let tri =
        |a: R::V3, b: R::V3, c: R::V3| Shape::Triangle(Triangle::new(a, b, c).expect("valid"));
    let rounded = |x: f64, y: f64, z: f64, r: f64| {
        let core = Aabb::new(v3::<R>(-x, -y, -z), v3::<R>(x, y, z)).expect("valid");
        Shape::RoundedCuboid(Rounded::new(core, R::from_f64(r)).expect("valid"))
    };
    let hull =
        |points: &[R::V3]| Shape::Polyhedron(ConvexPolyhedron::from_points(points).expect("valid"));
    vec![
        (
            "ball",
            Shape::Ball(Ball::new(o, R::from_f64(0.4)).expect("valid")),
            false,
        ),
        ("box", cuboid(0.5, 0.3, 0.2), false),
        ("capsule", Shape::Capsule(capsule::<R>(0.5, 0.2)), false),
        ("cylinder", Shape::Cylinder(cylinder(0.5, 0.4)), false),
        ("cone", cone(0.5, 0.4), false),
        ("rounded box", rounded(0.3, 0.2, 0.1, 0.1), false),
        (
            "triangle",
            tri(o, v3::<R>(1.0, 0.0, 0.0), v3::<R>(0.0, 0.7, 0.0)),
            false,
        ),
        (
            "segment",
            Shape::Segment(
                Segment::new(v3::<R>(-0.3, 0.1, 0.0), v3::<R>(0.4, -0.2, 0.3)).expect("valid"),
            ),
            false,
        ),
        (
            "hull",
            hull(&[
                o,
                v3::<R>(1.0, 0.0, 0.0),
                v3::<R>(0.0, 1.0, 0.0),
                v3::<R>(0.0, 0.0, 1.0),
                v3::<R>(0.6, 0.6, 0.6),
            ]),
            false,
        ),
        (
            "point ball",
            Shape::Ball(Ball::new(o, R::ZERO).expect("valid")),
            true,
        ),
        ("flat box", cuboid(0.5, 0.0, 0.4), true),
        ("line box", cuboid(0.5, 0.0, 0.0), true),
        ("point box", cuboid(0.0, 0.0, 0.0), true),
        ("ball capsule", Shape::Capsule(capsule::<R>(0.0, 0.3)), true),
        ("line capsule", Shape::Capsule(capsule::<R>(0.5, 0.0)), true),
        (
            "point capsule",
            Shape::Capsule(capsule::<R>(0.0, 0.0)),
            true,
        ),
        (
            "point segment",
            Shape::Segment(Segment::new(o, o).expect("valid")),
            true,
        ),
        (
            "line triangle",
            tri(o, v3::<R>(1.0, 0.0, 0.0), v3::<R>(2.0, 0.0, 0.0)),
            true,
        ),
        ("point triangle", tri(o, o, o), true),
        ("disc", Shape::Cylinder(cylinder(0.0, 0.5)), true),
        ("needle", Shape::Cylinder(cylinder(0.5, 0.0)), true),
        ("point cylinder", Shape::Cylinder(cylinder(0.0, 0.0)), true),
        ("flat cone", cone(0.0, 0.5), true),
        ("needle cone", cone(0.5, 0.0), true),
        ("point cone", cone(0.0, 0.0), true),
        ("ball box", rounded(0.0, 0.0, 0.0, 0.2), true),
        ("flat rounded box", rounded(0.3, 0.0, 0.1, 0.1), true),
        (
            "flat hull",
            hull(&[
                o,
                v3::<R>(1.0, 0.0, 0.0),
                v3::<R>(0.0, 1.0, 0.0),
                v3::<R>(1.0, 1.0, 0.0),
            ]),
            true,
        ),
    ]
}

/// Tolerances of one precision, relative to the shapes' size (about 1): GJK's
/// distance, EPA's depth.
struct Tol {
    distance: f64,
    depth: f64,
}

fn tol<R: Real>() -> Tol {
    match R::EPSILON.to_f64() > 1e-10 {
        true => Tol {
            distance: 3e-4,
            depth: 1e-3,
        },
        false => Tol {
            distance: 1e-6,
            depth: 2e-5,
        },
    }
}

/// One pair at one pose: every check of the module docs.
fn check_pair<R: Real>(a: (&str, &Shape<R>, &Pose3<R>), b: (&str, &Shape<R>, &Pose3<R>))
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let t = tol::<R>();
    let ((na, a, pa), (nb, b, pb)) = (a, b);
    let what = || format!("{na} at {pa:?} / {nb} at {pb:?}");
    let d = dispatch::distance(pa, a, pb, b).to_f64();
    let cp = dispatch::closest_points(pa, a, pb, b);
    let gjk = isect::query::distance::distance(pa, a, pb, b).to_f64();
    assert!(
        (d - gjk).abs() <= t.distance,
        "distance {d} vs GJK {gjk}: {}",
        what()
    );
    let cpd = cp.distance.to_f64();
    assert!(
        (cpd - gjk).abs() <= t.distance,
        "closest points {cpd} vs GJK {gjk}: {}",
        what()
    );
    if cpd > 0.0 {
        let apart = (cp.point_a - cp.point_b).length().to_f64();
        assert!(
            (apart - cpd).abs() <= t.distance,
            "points {apart} apart, distance {cpd}: {}",
            what()
        );
    }
    let wide = R::from_f64(10.0);
    let c = dispatch::contact(pa, a, pb, b, wide).expect("within the prediction");
    let depth = c.depth.to_f64();
    if gjk > t.distance {
        assert!(
            (depth + gjk).abs() <= t.distance,
            "contact depth {depth}, distance {gjk}: {}",
            what()
        );
        assert!(
            !dispatch::intersects(pa, a, pb, b),
            "intersects {gjk} apart: {}",
            what()
        );
    } else if gjk == 0.0 {
        let epa = isect::query::contact::contact(pa, a, pb, b, wide).expect("overlapping");
        let e = epa.depth.to_f64();
        assert!(
            (depth - e).abs() <= t.depth,
            "contact depth {depth}, EPA's {e}: {}",
            what()
        );
        if e > t.depth {
            assert!(
                dispatch::intersects(pa, a, pb, b),
                "no intersection {e} deep: {}",
                what()
            );
        }
    }
}

/// Every ordered pair of kinds with a degenerate one, [`POSES`] seeded poses each.
fn every_degenerate_pair<R: Real>(seed: u64)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let kinds = kinds::<R>();
    let mut rng = Rng(seed);
    let mut pairs = 0;
    for (na, a, da) in &kinds {
        for (nb, b, db) in &kinds {
            if !(da | db) {
                continue;
            }
            pairs += 1;
            for k in 0..POSES {
                // Half the poses near each other (mostly overlapping), half farther.
                let reach = if k % 2 == 0 { 0.6 } else { 1.5 };
                let (pa, pb) = (pose3::<R>(&mut rng, reach), pose3::<R>(&mut rng, reach));
                check_pair((na, a, &pa), (nb, b, &pb));
            }
        }
    }
    assert!(pairs > 500, "{pairs} pairs");
}

#[test]
fn degenerate_pairs_answer_as_gjk_and_epa_f64() {
    every_degenerate_pair::<f64>(0xD15C);
}

#[test]
fn degenerate_pairs_answer_as_gjk_and_epa_f32() {
    every_degenerate_pair::<f32>(0xD15D);
}

/// The distance from a capsule to a cylinder by brute force: the distance from the
/// capsule's segment to the solid cylinder is convex along the segment, so a ternary
/// search of the closed-form point distance finds its minimum; less the radius.
fn brute_capsule_cylinder(seg: (glam::DVec3, glam::DVec3), r: f64, c: &Cylinder<f64>) -> f64 {
    let f = |t: f64| c.distance_to_local_point(seg.0 + (seg.1 - seg.0) * t);
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..200 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if f(m1) < f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    (f(0.5 * (lo + hi)).min(f(0.0)).min(f(1.0)) - r).max(0.0)
}

// Capsules against cylinders of every height and radius, zero included: the kernel
// (both argument orders) against brute force, `f64`.
#[test]
fn capsule_cylinder_against_brute_force() {
    let mut rng = Rng(0xCA95);
    let mut checked = 0;
    for k in 0..6000 {
        let h = [0.0, 0.0, 1e-12, 0.3, 0.7][k % 5];
        let r = [0.5, 0.0, 0.4, 0.2][k / 5 % 4];
        let can = cylinder::<f64>(h, r);
        let cap = capsule::<f64>(rng.range(0.0, 0.6), [0.0, 0.2][k % 2]);
        let (pa, pb) = (pose3::<f64>(&mut rng, 1.2), pose3::<f64>(&mut rng, 0.3));
        let seg = cap.segment();
        let local = (
            pb.inverse_transform_point(pa.transform_point(seg.a)),
            pb.inverse_transform_point(pa.transform_point(seg.b)),
        );
        let want = brute_capsule_cylinder(local, cap.radius(), &can);
        let (x, y) = (Shape::Capsule(cap), Shape::Cylinder(can));
        for got in [
            dispatch::distance(&pa, &x, &pb, &y),
            dispatch::distance(&pb, &y, &pa, &x),
        ] {
            assert!(
                (got - want).abs() <= 1e-9,
                "{got} vs {want}: h {h} r {r} {pa:?} {pb:?}"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 6000);
}

// The review's case: a capsule (half height 0.5, radius 0.2) turned by −30° about z at
// (−1, −0.1, 0), against a disc of radius 0.5. Its segment crosses the disc's plane
// beyond the rim; the nearest disc point is the rim's (−0.5, 0, 0), at
// `0.25·√3 − 0.05 − 0.2` from the capsule. Both orders, every verb, `f32` and `f64`.
fn review_capsule_disc<R: Real>(tol: f64)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let cap = Shape::Capsule(capsule::<R>(0.5, 0.2));
    let disc = Shape::Cylinder(cylinder::<R>(0.0, 0.5));
    let turn = R::Quat::from_axis_angle(
        v3::<R>(0.0, 0.0, 1.0),
        R::from_f64(-core::f64::consts::FRAC_PI_6),
    );
    let pa = Pose3::new(v3::<R>(-1.0, -0.1, 0.0), turn);
    let pb = Pose3::new(
        v3::<R>(0.0, 0.0, 0.0),
        R::Quat::from_axis_angle(v3::<R>(0.0, 1.0, 0.0), R::ZERO),
    );
    let want = 0.25 * 3f64.sqrt() - 0.25;
    for (p, x, q, y) in [(&pa, &cap, &pb, &disc), (&pb, &disc, &pa, &cap)] {
        let d = dispatch::distance(p, x, q, y).to_f64();
        assert!((d - want).abs() <= tol, "distance {d}, want {want}");
        let cp = dispatch::closest_points(p, x, q, y).distance.to_f64();
        assert!((cp - want).abs() <= tol, "closest points {cp}, want {want}");
        let c = dispatch::contact(p, x, q, y, R::ONE).expect("within 1");
        assert!(
            (c.depth.to_f64() + want).abs() <= tol,
            "contact {c:?}, want {want}"
        );
        assert!(!dispatch::intersects(p, x, q, y));
    }
}

#[test]
fn review_capsule_against_a_disc() {
    review_capsule_disc::<f64>(1e-12);
    review_capsule_disc::<f32>(1e-5);
}
