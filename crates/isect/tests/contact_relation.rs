//! `point_a − point_b = depth · normal` for the contacts of every 3D convex pair kind
//! (session 33 review: contacts with a cylinder, a cone or a hull broke it by up to
//! 1e-2). The dispatch places a contact's witnesses on both surfaces
//! (`query/dispatch/witnesses.rs`); the gap left is at most one
//! `query::contact::witness_band` of the shapes' size (two curved points), to
//! rounding on faces.
//!
//! - every ordered pair of ball, box, capsule, cylinder, cone, rounded box, triangle,
//!   segment and hull (and a disc, a flat cone, a collinear triangle), seeded poses,
//!   `f32` and `f64`: both witnesses on their surfaces, the gap within the band, and
//!   within `1e-6` (`f64`) or `1e-4` (`f32`) of the size for nearly all contacts;
//! - face contacts: a cylinder, a cone or a box sunk by a known depth into a box's
//!   face or a cylinder's cap get that face's normal exactly, the known depth, and
//!   the relation to rounding, both argument orders.

#[path = "support/poses3.rs"]
mod poses3;
#[path = "support/rng.rs"]
mod rng;

use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose3, Real, Rotation3, Vector};
use isect::query::contact::witness_band;
use isect::query::{dispatch, Contact, ProjectPoint};
use isect::shape::shape_3d::Shape;
use isect::shape::{
    Aabb, Ball, Capsule, Cone, ConvexPolyhedron, Cylinder, Rounded, Segment, Triangle,
};
use poses3::{pose3, v3};
use rng::Rng;

/// Seeded poses per ordered pair of kinds and precision.
const POSES: usize = 80;

fn cuboid<R: Real>(x: f64, y: f64, z: f64) -> Shape<R> {
    Shape::Cuboid(Aabb::new(v3::<R>(-x, -y, -z), v3::<R>(x, y, z)).expect("valid"))
}

fn cylinder<R: Real>(h: f64, r: f64) -> Shape<R> {
    Shape::Cylinder(Cylinder::new(R::from_f64(h), R::from_f64(r)).expect("valid"))
}

fn cone<R: Real>(h: f64, r: f64) -> Shape<R> {
    Shape::Cone(Cone::new(R::from_f64(h), R::from_f64(r)).expect("valid"))
}

/// The kinds, about 1 across.
fn kinds<R: Real>() -> Vec<(&'static str, Shape<R>)> {
    let o = v3::<R>(0.0, 0.0, 0.0);
    let core = Aabb::new(v3::<R>(-0.3, -0.2, -0.1), v3::<R>(0.3, 0.2, 0.1)).expect("valid");
    let mut rng = Rng(0x4011);
    let cloud: Vec<R::V3> = (0..12)
        .map(|_| {
            v3::<R>(
                rng.range(-0.5, 0.5),
                rng.range(-0.5, 0.5),
                rng.range(-0.5, 0.5),
            )
        })
        .collect();
    vec![
        (
            "ball",
            Shape::Ball(Ball::new(o, R::from_f64(0.4)).expect("valid")),
        ),
        ("box", cuboid(0.5, 0.3, 0.2)),
        (
            "capsule",
            Shape::Capsule(
                Capsule::new(
                    v3::<R>(0.0, -0.5, 0.0),
                    v3::<R>(0.0, 0.5, 0.0),
                    R::from_f64(0.2),
                )
                .expect("valid"),
            ),
        ),
        ("cylinder", cylinder(0.5, 0.4)),
        ("cone", cone(0.5, 0.4)),
        (
            "rounded box",
            Shape::RoundedCuboid(Rounded::new(core, R::from_f64(0.1)).expect("valid")),
        ),
        (
            "triangle",
            Shape::Triangle(
                Triangle::new(o, v3::<R>(1.0, 0.0, 0.0), v3::<R>(0.0, 0.7, 0.0)).expect("valid"),
            ),
        ),
        (
            "segment",
            Shape::Segment(
                Segment::new(v3::<R>(-0.3, 0.1, 0.0), v3::<R>(0.4, -0.2, 0.3)).expect("valid"),
            ),
        ),
        (
            "hull",
            Shape::Polyhedron(ConvexPolyhedron::from_points(&cloud).expect("valid")),
        ),
        ("disc", cylinder(0.0, 0.5)),
        ("flat cone", cone(0.0, 0.5)),
        (
            "line triangle",
            Shape::Triangle(
                Triangle::new(o, v3::<R>(1.0, 0.0, 0.0), v3::<R>(2.0, 0.0, 0.0)).expect("valid"),
            ),
        ),
    ]
}

/// How far `p` lies from the surface of `s` placed at `pose`.
fn off_surface<R: Real>(p: R::V3, pose: &Pose3<R>, s: &Shape<R>) -> f64
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let local = pose.inverse_transform_point(p);
    (s.project_local_point(local, false).point - local)
        .length()
        .to_f64()
}

/// The gap of `c` from `point_a − point_b = depth · normal`.
fn gap<V: Vector>(c: &Contact<V>) -> f64 {
    (c.point_a - c.point_b - c.normal * c.depth)
        .length()
        .to_f64()
}

/// Tolerances of one precision (the shapes are about 1 across): witnesses on their
/// surfaces, and the gap most contacts keep.
fn tolerances<R: Real>() -> (f64, f64) {
    match R::EPSILON.to_f64() > 1e-10 {
        true => (8e-3, 1e-4),
        false => (4e-5, 1e-6),
    }
}

fn every_pair<R: Real>(seed: u64)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let (on_surface, tight) = tolerances::<R>();
    let band = witness_band::<R>().to_f64();
    let kinds = kinds::<R>();
    let mut rng = Rng(seed);
    let (mut contacts, mut tight_ones, mut worst) = (0usize, 0usize, (0.0, String::new()));
    for (na, a) in &kinds {
        for (nb, b) in &kinds {
            for _ in 0..POSES {
                let (pa, pb) = (pose3::<R>(&mut rng, 0.5), pose3::<R>(&mut rng, 0.5));
                let Some(c) = dispatch::contact(&pa, a, &pb, b, R::from_f64(0.5)) else {
                    continue;
                };
                let what = || format!("{c:?}: {na} at {pa:?} / {nb} at {pb:?}");
                let size = 1.0 + c.point_a.abs().max_element().to_f64();
                assert!(
                    off_surface(c.point_a, &pa, a) <= on_surface * size,
                    "point_a off A: {}",
                    what()
                );
                assert!(
                    off_surface(c.point_b, &pb, b) <= on_surface * size,
                    "point_b off B: {}",
                    what()
                );
                let g = gap(&c);
                assert!(g <= band * size, "gap {g}: {}", what());
                contacts += 1;
                tight_ones += usize::from(g <= tight * size);
                if g > worst.0 {
                    worst = (g, what());
                }
            }
        }
    }
    eprintln!(
        "{contacts} contacts, {tight_ones} within {tight:e}; worst gap {:e}: {}",
        worst.0, worst.1
    );
    assert!(contacts > 5_000, "{contacts} contacts");
    assert!(
        tight_ones as f64 >= 0.97 * contacts as f64,
        "{tight_ones} of {contacts} within {tight:e}"
    );
}

#[test]
fn every_pair_keeps_the_relation_f64() {
    every_pair::<f64>(0x5E1A);
}

#[test]
fn every_pair_keeps_the_relation_f32() {
    every_pair::<f32>(0x5E1B);
}

/// A turn by `angle` about a horizontal axis of random heading, then about `y`.
fn tilt<R: Real>(rng: &mut Rng, angle: f64) -> R::Quat {
    let heading = rng.range(0.0, core::f64::consts::TAU);
    let axis = v3::<R>(heading.cos(), 0.0, heading.sin());
    let spin = R::Quat::from_axis_angle(v3::<R>(0.0, 1.0, 0.0), R::from_f64(rng.range(0.0, 6.3)));
    R::Quat::from_axis_angle(axis, R::from_f64(angle)).mul(spin)
}

/// `b` turned by `q` and placed over the point `(x, top, z)` so that its lowest point
/// lies `depth` below `top`: its pose.
fn sunk_by<R: Real>(b: &Shape<R>, q: R::Quat, (x, top, z): (f64, f64, f64), depth: f64) -> Pose3<R>
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    use isect::algo::support::SupportMap;
    let turned = Pose3::new(v3::<R>(0.0, 0.0, 0.0), q);
    let low = b.support(&turned, v3::<R>(0.0, -1.0, 0.0)).get(1).to_f64();
    Pose3::new(v3::<R>(x, top - depth - low, z), q)
}

/// Shapes sunk into a face whose normal is `+y`: a box's top, a cylinder's cap.
/// Each contact, both orders, has the face's normal, the known depth and the relation
/// to within `tol` of the size.
fn face_contacts<R: Real>(seed: u64, tol: f64)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let floors: [(Shape<R>, f64, f64); 2] = [
        (cuboid(3.0, 0.5, 3.0), 0.5, 1.5),
        (cylinder(0.5, 3.0), 0.5, 1.2),
    ];
    let movers = [
        cylinder::<R>(0.4, 0.3),
        cone::<R>(0.4, 0.3),
        cuboid::<R>(0.3, 0.2, 0.25),
        cylinder::<R>(0.0, 0.3),
    ];
    let mut rng = Rng(seed);
    let id = Pose3::new(v3::<R>(0.0, 0.0, 0.0), R::Quat::IDENTITY);
    for (floor, top, reach) in &floors {
        for mover in &movers {
            for _ in 0..200 {
                let angle = rng.range(0.05, 0.7);
                let q = tilt::<R>(&mut rng, angle);
                let at = (rng.range(-*reach, *reach), *top, rng.range(-*reach, *reach));
                let depth = rng.range(0.005, 0.08);
                let pb = sunk_by(mover, q, at, depth);
                let up = v3::<R>(0.0, 1.0, 0.0);
                for (c, n) in [
                    (dispatch::contact(&id, floor, &pb, mover, R::ZERO), up),
                    (dispatch::contact(&pb, mover, &id, floor, R::ZERO), -up),
                ] {
                    let c = c.expect("sunk");
                    let what = format!("{c:?}: {mover:?} at {pb:?} in {floor:?}");
                    assert!((c.normal - n).length().to_f64() <= tol, "normal: {what}");
                    assert!(
                        (c.depth.to_f64() - depth).abs() <= tol,
                        "depth {depth}: {what}"
                    );
                    assert!(gap(&c) <= tol, "gap {}: {what}", gap(&c));
                }
            }
        }
    }
}

#[test]
fn face_contacts_take_the_face_normal() {
    face_contacts::<f64>(0xFACE, 1e-9);
    face_contacts::<f32>(0xFACF, 2e-5);
}
