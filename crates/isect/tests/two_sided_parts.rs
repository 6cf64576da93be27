//! Every part of a two-sided surface pushes a shape out on its own side (issue 13 item
//! 2): convex shapes of every curved and flat kind, turned at random, sunk a little
//! into an open floor (a 20×20-quad mesh in 3D, a 40-segment chain in 2D) from above,
//! far from the floor's rim. Pushing the shape up by its sinking depth `d` frees it;
//! pushing it down means going through the whole shape. So each per-part manifold of
//! `composite::contact_manifolds` must carry the floor's up normal and points no deeper
//! than `d`, whatever the raw part pair's minimum translation (a cone's slant crossing
//! a triangle's edge has its own, pointing down through the floor, which the internal
//! edge correction must not turn into the floor's downward face normal).

#[path = "support/meshes.rs"]
mod meshes;
#[path = "support/rng.rs"]
mod rng;

use isect::algo::gjk::GjkVector;
use isect::algo::support::SupportMap;
use isect::math::{Isometry, Pose2, Pose3, Real, Rotation3, Vector, Vector2, Vector3};
use isect::query::composite;
use isect::query::composite::PartManifold;
use isect::query::{dispatch, Contact, Manifold};
use isect::shape::{shape_2d, shape_3d, Aabb, Capsule, Cone, Cylinder, Polyline};
use isect::shape::{ConvexPolygon, Rounded, TriMesh, TriMeshFlags};
use rng::Rng;

/// Scales of the whole scene.
const SCALES: [f64; 3] = [1e-2, 1.0, 1e3];
/// Random poses per shape and scale.
const CASES: usize = 40;

fn r<R: Real>(x: f64) -> R {
    R::from_f64(x)
}

fn v3<R: Real>(x: f64, y: f64, z: f64) -> R::V3 {
    R::V3::new(r(x), r(y), r(z))
}

/// Relative tolerance of a depth, times the scale (EPA's, for the curved kinds).
fn tol<R: Real>() -> f64 {
    if R::EPSILON.to_f64() > 1e-10 {
        2e-4
    } else {
        1e-6
    }
}

/// Checks every part manifold (see [`check_manifold`]); at least one must exist.
fn check_parts<V: Vector>(ms: &[PartManifold<V>], up: V, depth: f64, s: f64, tol: f64, what: &str)
where
    V::Scalar: Real,
{
    assert!(!ms.is_empty(), "{what}: no part in contact");
    for m in ms {
        let what = format!("{what}: part {:?}", m.part_a);
        check_manifold(&m.manifold, up, depth, s, tol, &what);
    }
}

/// Checks one manifold: the normal `up`, no point deeper than `depth`.
fn check_manifold<V: Vector>(m: &Manifold<V>, up: V, depth: f64, s: f64, tol: f64, what: &str)
where
    V::Scalar: Real,
{
    assert!(
        m.normal.dot(up).to_f64() > 1.0 - 1e-3,
        "{what}: pushes along {:?}",
        m.normal
    );
    for p in m.points() {
        assert!(
            p.depth.to_f64() <= depth + tol * s,
            "{what}: point depth {:?} > {depth}",
            p.depth
        );
    }
}

/// Checks the deepest part's contact: the normal `up`, the depth `depth`.
fn check_contact<V: Vector>(c: &Contact<V>, up: V, depth: f64, s: f64, tol: f64, what: &str)
where
    V::Scalar: Real,
{
    assert!(
        c.normal.dot(up).to_f64() > 1.0 - 1e-3 && (c.depth.to_f64() - depth).abs() <= tol * s,
        "{what}: contact along {:?} depth {:?}",
        c.normal,
        c.depth
    );
}

/// A random rotation about a random axis (uniform enough for coverage).
fn random_turn<R: Real>(rng: &mut Rng) -> R::Quat {
    random_turn_within::<R>(rng, std::f64::consts::PI)
}

fn shapes_3d<R: Real>(s: f64) -> Vec<(&'static str, shape_3d::Shape<R>)> {
    let cube = Aabb::from_center(R::V3::ZERO, v3::<R>(0.5 * s, 0.3 * s, 0.4 * s)).unwrap();
    vec![
        ("cone", Cone::new(r(s), r(0.5 * s)).unwrap().into()),
        ("cylinder", Cylinder::new(r(s), r(0.5 * s)).unwrap().into()),
        (
            "capsule",
            Capsule::aligned(0, r(s), r(0.3 * s)).unwrap().into(),
        ),
        ("box", cube.into()),
        (
            "rounded box",
            shape_3d::Shape::RoundedCuboid(Rounded::new(cube, r(0.1 * s)).unwrap()),
        ),
    ]
}

fn open_grid<R: Real>(s: f64) -> TriMesh<R> {
    let grid = meshes::grid(20, |_, _| 0.0).scaled(8.0 * s);
    let vertices = grid.map(|p| v3::<R>(p[0], p[1], p[2]));
    TriMesh::new(vertices, grid.indices.clone(), TriMeshFlags::OPEN).unwrap()
}

fn sunk_into_open_mesh<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
    shape_3d::Shape<R>: SupportMap<R::V3>,
{
    let mut rng = Rng(71);
    let up = R::V3::unit_axis(1);
    for s in SCALES {
        let floor = open_grid::<R>(s);
        let any_floor = shape_3d::AnyShape::from(floor.clone());
        for (name, shape) in shapes_3d::<R>(s) {
            for case in 0..CASES {
                let turn = random_turn::<R>(&mut rng);
                let depth = rng.range(0.005, 0.1) * s;
                let (x, z) = (rng.range(-3.0, 3.0) * s, rng.range(-3.0, 3.0) * s);
                let unsunk = Pose3::new(R::V3::ZERO, turn);
                let low = shape.support(&unsunk, -up).get(1).to_f64();
                let pose = Pose3::new(v3::<R>(x, -low - depth, z), turn);
                let what = format!("{name} at scale {s}, case {case}, depth {depth}");
                let ms =
                    composite::contact_manifolds(&Pose3::IDENTITY, &floor, &pose, &shape, R::ZERO);
                check_parts(&ms, up, depth, s, tol::<R>(), &what);
                let (_, c) = composite::contact(&Pose3::IDENTITY, &floor, &pose, &shape, R::ZERO)
                    .unwrap_or_else(|| panic!("{what}: no contact"));
                check_contact(&c, up, depth, s, tol::<R>(), &what);
                let merged = dispatch::contact_manifold(
                    &Pose3::IDENTITY,
                    &any_floor,
                    &pose,
                    &shape_3d::AnyShape::from(shape.clone()),
                    R::ZERO,
                )
                .unwrap_or_else(|| panic!("{what}: no manifold"));
                check_manifold(
                    &merged,
                    up,
                    depth,
                    s,
                    tol::<R>(),
                    &format!("{what}, merged"),
                );
            }
        }
    }
}

#[test]
fn shapes_sunk_into_an_open_mesh_are_pushed_up_by_every_part() {
    sunk_into_open_mesh::<f32>();
    sunk_into_open_mesh::<f64>();
}

fn shapes_2d<R: Real>(s: f64) -> Vec<(&'static str, shape_2d::Shape<R>)> {
    let v2 = |x: f64, y: f64| R::V2::new(r(x * s), r(y * s));
    let cube = Aabb::from_center(R::V2::ZERO, v2(0.5, 0.3)).unwrap();
    let wedge = ConvexPolygon::new(&[v2(-0.5, 0.5), v2(0.0, -0.6), v2(0.5, 0.5)]).unwrap();
    vec![
        (
            "capsule",
            Capsule::aligned(0, r(s), r(0.3 * s)).unwrap().into(),
        ),
        ("box", cube.into()),
        ("wedge", wedge.into()),
        (
            "rounded box",
            shape_2d::Shape::RoundedCuboid(Rounded::new(cube, r(0.1 * s)).unwrap()),
        ),
    ]
}

fn sunk_into_open_chain<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
    shape_2d::Shape<R>: SupportMap<R::V2>,
{
    let mut rng = Rng(72);
    let up = R::V2::unit_axis(1);
    for s in SCALES {
        let points = (0..=40).map(|k| R::V2::new(r((k as f64 * 0.2 - 4.0) * s), R::ZERO));
        let floor = Polyline::new(points.collect(), false).unwrap();
        let any_floor = shape_2d::AnyShape::from(floor.clone());
        for (name, shape) in shapes_2d::<R>(s) {
            for case in 0..CASES {
                let turn: R = r(rng.range(0.0, 6.3));
                let depth = rng.range(0.005, 0.1) * s;
                let x = rng.range(-3.0, 3.0) * s;
                let unsunk = Pose2::new(R::V2::ZERO, turn);
                let low = shape.support(&unsunk, -up).get(1).to_f64();
                let pose = Pose2::new(R::V2::new(r(x), r(-low - depth)), turn);
                let what = format!("{name} at scale {s}, case {case}, depth {depth}");
                let ms =
                    composite::contact_manifolds(&Pose2::IDENTITY, &floor, &pose, &shape, R::ZERO);
                check_parts(&ms, up, depth, s, tol::<R>(), &what);
                let (_, c) = composite::contact(&Pose2::IDENTITY, &floor, &pose, &shape, R::ZERO)
                    .unwrap_or_else(|| panic!("{what}: no contact"));
                check_contact(&c, up, depth, s, tol::<R>(), &what);
                let merged = dispatch::contact_manifold(
                    &Pose2::IDENTITY,
                    &any_floor,
                    &pose,
                    &shape_2d::AnyShape::from(shape.clone()),
                    R::ZERO,
                )
                .unwrap_or_else(|| panic!("{what}: no manifold"));
                check_manifold(
                    &merged,
                    up,
                    depth,
                    s,
                    tol::<R>(),
                    &format!("{what}, merged"),
                );
            }
        }
    }
}

#[test]
fn shapes_sunk_into_an_open_chain_are_pushed_up_by_every_part() {
    sunk_into_open_chain::<f32>();
    sunk_into_open_chain::<f64>();
}

/// A tip-down cone and a box sunk from 10% to 90% of their height into the top face
/// of a solid cube mesh (far from its rim, across the face's internal diagonal),
/// slightly tilted: the contact pushes them up by the sinking depth, never on through
/// the face into the solid (whose inside is matter: the other side is not taken there).
fn sunk_into_a_solid_mesh<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
    shape_3d::Shape<R>: SupportMap<R::V3>,
{
    let mut rng = Rng(73);
    let up = R::V3::unit_axis(1);
    for s in SCALES {
        let cube = meshes::cube().scaled(4.0 * s);
        let vertices = cube.map(|p| v3::<R>(p[0], p[1], p[2]));
        let solid = TriMesh::new(vertices, cube.indices.clone(), TriMeshFlags::SOLID).unwrap();
        let below = Pose3::from_translation(v3::<R>(0.0, -4.0 * s, 0.0));
        let flip = R::Quat::from_axis_angle(R::V3::unit_axis(0), r(std::f64::consts::PI));
        let tip_down = (Cone::new(r(s), r(0.5 * s)).unwrap().into(), flip, 2.0 * s);
        let cube_body = Aabb::from_center(R::V3::ZERO, v3::<R>(0.5 * s, 0.5 * s, 0.5 * s));
        let boxed = (cube_body.unwrap().into(), R::Quat::IDENTITY, s);
        let bodies: [(shape_3d::Shape<R>, R::Quat, f64); 2] = [tip_down, boxed];
        for (shape, lay, height) in bodies {
            for case in 0..CASES {
                let tilt = random_turn_within::<R>(&mut rng, 0.3);
                let turn = Rotation3::mul(tilt, lay);
                let depth = rng.range(0.1, 0.9) * height;
                let (x, z) = (rng.range(-2.0, 2.0) * s, rng.range(-2.0, 2.0) * s);
                let low = shape
                    .support(&Pose3::new(R::V3::ZERO, turn), -up)
                    .get(1)
                    .to_f64();
                let pose = Pose3::new(v3::<R>(x, -low - depth, z), turn);
                let what = format!("{shape:?} at scale {s}, case {case}, depth {depth}");
                let (_, c) = composite::contact(&below, &solid, &pose, &shape, R::ZERO)
                    .unwrap_or_else(|| panic!("{what}: no contact"));
                check_contact(&c, up, depth, s, tol::<R>(), &what);
            }
        }
    }
}

/// A random rotation by at most `max` radians about a random axis.
fn random_turn_within<R: Real>(rng: &mut Rng, max: f64) -> R::Quat {
    let axis = v3::<R>(
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
    );
    let axis = axis.try_normalize().unwrap_or(R::V3::unit_axis(0));
    R::Quat::from_axis_angle(axis, r(rng.range(-max, max)))
}

#[test]
fn shapes_sunk_into_a_solid_mesh_are_pushed_out_not_in() {
    sunk_into_a_solid_mesh::<f32>();
    sunk_into_a_solid_mesh::<f64>();
}
