//! Manifolds a solver can rest shapes on (issue 13 item 2), through the public dispatch
//! on `AnyShape`: every kind lying or standing on every floor — a box, a 2-triangle
//! mesh, a 20×20-quad mesh and a flat heightfield in 3D; a polygon, a polyline chain
//! and a flat heightfield in 2D — at a known depth, random yaw and offset (the first
//! case over a vertex of every floor), three scales, f32 and f64. Each manifold must
//! carry the floor's normal, the known depth at every point, the relation
//! `point_a − point_b = depth · normal`, points on the floor's top and the shape's
//! bottom, and the support a resting shape needs: both ends of a lying capsule,
//! cylinder or cone, four points spread over a standing cylinder's or cone's base, the
//! corners of a box's bottom face. Swapping the shapes mirrors the manifold.

#[path = "support/meshes.rs"]
mod meshes;
#[path = "support/rng.rs"]
mod rng;

use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose2, Pose3, Real, Rotation3, Vector, Vector2, Vector3};
use isect::query::dispatch;
use isect::query::Manifold;
use isect::shape::heightfield_2d::HeightField as HeightField2;
use isect::shape::heightfield_3d::HeightField as HeightField3;
use isect::shape::{shape_2d, shape_3d, Aabb, Capsule, Cone, ConvexPolygon, Cylinder, Polyline};
use isect::shape::{Rounded, TriMesh, TriMeshFlags};
use rng::Rng;

/// Penetration of every resting shape, as a fraction of the scale.
const DEPTH: f64 = 0.01;
/// Scales of the whole scene.
const SCALES: [f64; 3] = [1e-2, 1.0, 1e3];
/// Random poses per floor and body.
const CASES: usize = 12;

fn r<R: Real>(x: f64) -> R {
    R::from_f64(x)
}

fn v3<R: Real>(x: f64, y: f64, z: f64) -> R::V3 {
    R::V3::new(r(x), r(y), r(z))
}

/// Relative tolerance of a depth or position, times the scale.
fn tol<R: Real>() -> f64 {
    if R::EPSILON.to_f64() > 1e-10 {
        1e-4
    } else {
        1e-9
    }
}

/// What a resting body's manifold must show: its point count and the largest
/// distance between two of its points (`spread`), exact or a lower bound.
#[derive(Copy, Clone, Debug)]
struct Expect {
    points: usize,
    spread: f64,
    exact_spread: bool,
}

/// The largest distance between two of the manifold's points on B.
fn spread<V: Vector>(m: &Manifold<V>) -> f64 {
    let p = m.points();
    let mut best: f64 = 0.0;
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            best = best.max(p[i].point_b.distance(p[j].point_b).to_f64());
        }
    }
    best
}

/// Checks one resting manifold: floor A below (top at height 0 along `up`), body B
/// resting `DEPTH · s` into it. Points past the expected ones (at most the capacity)
/// may come from a floor part the body only grazes: they lie in the contact region,
/// at most as deep.
fn check_resting<V: Vector>(m: &Manifold<V>, up: V, s: f64, e: Expect, tol: f64, what: &str) {
    let t = tol * s;
    let cap = if V::DIM == 2 { 2 } else { 4 };
    assert!(
        (m.normal - up).length().to_f64() <= tol * 10.0,
        "{what}: normal {:?}",
        m.normal
    );
    let n = m.points().len();
    assert!(n >= e.points && n <= cap, "{what}: {n} points {m:?}");
    assert!(
        (m.max_depth().to_f64() - DEPTH * s).abs() <= t,
        "{what}: depth {m:?}"
    );
    for p in m.points() {
        let d = p.depth.to_f64();
        assert!(d >= -t && d <= DEPTH * s + t, "{what}: depth {d} {m:?}");
        let rel = p.point_a - p.point_b - m.normal * p.depth;
        assert!(rel.length().to_f64() <= t, "{what}: relation {m:?}");
        let (ya, yb) = (p.point_a.dot(up).to_f64(), p.point_b.dot(up).to_f64());
        assert!(
            ya.abs() <= t && (yb + d).abs() <= t,
            "{what}: heights {m:?}"
        );
    }
    // Every point keeps an id of its own (parts of a composite apart), for warm starts.
    let ids: Vec<_> = m.points().iter().map(|p| p.id).collect();
    for (i, id) in ids.iter().enumerate() {
        assert!(!ids[..i].contains(id), "{what}: id {id:?} twice in {m:?}");
    }
    let got = spread(m);
    let want = e.spread * s;
    let ok = if e.exact_spread {
        (got - want).abs() <= t * 10.0
    } else {
        got >= want
    };
    assert!(ok, "{what}: spread {got}, expected {want} {m:?}");
}

/// The swapped query mirrors the manifold: reversed normal, as many points, the same
/// depths.
fn check_swapped<V: Vector>(m: &Manifold<V>, swapped: &Manifold<V>, tol: f64, what: &str) {
    assert_eq!(
        m.points().len(),
        swapped.points().len(),
        "{what}: swapped {swapped:?}"
    );
    assert!(
        (m.normal + swapped.normal).length().to_f64() <= tol * 10.0,
        "{what}"
    );
    assert!(
        (m.max_depth() - swapped.max_depth()).abs().to_f64() <= tol,
        "{what}"
    );
}

// ---------------------------------------------------------------- 3D

/// The 3D floors, top at y = 0 spanning [−8, 8]² times `s`.
fn floors_3d<R: Real>(s: f64) -> Vec<(&'static str, shape_3d::AnyShape<R>, Pose3<R>)>
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let slab = Aabb::from_center(R::V3::ZERO, v3::<R>(8.0 * s, 0.5 * s, 8.0 * s)).unwrap();
    let below = Pose3::from_translation(v3::<R>(0.0, -0.5 * s, 0.0));
    let corners = [
        [-8.0, 0.0, -8.0],
        [8.0, 0.0, -8.0],
        [8.0, 0.0, 8.0],
        [-8.0, 0.0, 8.0],
    ];
    let quad: Vec<R::V3> = corners
        .iter()
        .map(|c| v3::<R>(c[0] * s, 0.0, c[2] * s))
        .collect();
    let two = TriMesh::new(quad, vec![[0, 2, 1], [0, 3, 2]], TriMeshFlags::OPEN).unwrap();
    let grid = meshes::grid(20, |_, _| 0.0).scaled(8.0 * s);
    let grid_v = grid.map(|p| v3::<R>(p[0], p[1], p[2]));
    let grid = TriMesh::new(grid_v, grid.indices.clone(), TriMeshFlags::OPEN).unwrap();
    let hf = HeightField3::<R>::new(
        vec![R::ZERO; 21 * 21],
        21,
        21,
        v3::<R>(16.0 * s, 1.0, 16.0 * s),
    );
    let at = Pose3::default();
    vec![
        ("box", shape_3d::Shape::Cuboid(slab).into(), below),
        ("2-triangle mesh", two.into(), at),
        ("20×20-quad mesh", grid.into(), at),
        ("heightfield", hf.unwrap().into(), at),
    ]
}

/// A body: its shape, the rotation that lays it down, the height of its centre above
/// the floor when resting untouched, and what its manifold must show.
struct Body3<R: Real> {
    name: &'static str,
    shape: shape_3d::Shape<R>,
    lay: R::Quat,
    rest: f64,
    expect: Expect,
}

fn exact(points: usize, spread: f64) -> Expect {
    Expect {
        points,
        spread,
        exact_spread: true,
    }
}

fn at_least(points: usize, spread: f64) -> Expect {
    Expect {
        points,
        spread,
        exact_spread: false,
    }
}

/// The bodies at scale `s`: half height 1, radius 0.5 for the round ones.
fn bodies_3d<R: Real>(s: f64) -> Vec<Body3<R>> {
    let (h, rad) = (1.0, 0.5);
    let none = R::Quat::IDENTITY;
    let roll = R::Quat::from_axis_angle(R::V3::unit_axis(2), r(core::f64::consts::FRAC_PI_2));
    // A cone lies on its slant: turn the slant's outward normal (2h, r) to −y.
    let tilt = -core::f64::consts::FRAC_PI_2 - (rad).atan2(2.0 * h);
    let cone_lay = R::Quat::from_axis_angle(R::V3::unit_axis(2), r(tilt));
    let apex = cone_lay.rotate(v3::<R>(0.0, h * s, 0.0)).get(1).to_f64();
    let capsule = Capsule::aligned(0, r(h * s), r(rad * s)).unwrap();
    let cylinder = Cylinder::new(r(h * s), r(rad * s)).unwrap();
    let cone = Cone::new(r(h * s), r(rad * s)).unwrap();
    let core = Aabb::from_center(R::V3::ZERO, v3::<R>(0.5 * s, 0.3 * s, 0.4 * s)).unwrap();
    let rounded = Rounded::new(core, r(0.1 * s)).unwrap();
    let cube = Aabb::from_center(R::V3::ZERO, v3::<R>(0.5 * s, 0.5 * s, 0.5 * s)).unwrap();
    let slant = (4.0 * h * h + rad * rad).sqrt();
    let body = |name, shape, lay, rest, expect| Body3 {
        name,
        shape,
        lay,
        rest,
        expect,
    };
    vec![
        body(
            "capsule lying",
            capsule.into(),
            none,
            rad,
            exact(2, 2.0 * h),
        ),
        body(
            "cylinder standing",
            cylinder.into(),
            none,
            h,
            at_least(4, 1.8 * rad),
        ),
        body(
            "cylinder lying",
            cylinder.into(),
            roll,
            rad,
            exact(2, 2.0 * h),
        ),
        body(
            "cone standing",
            cone.into(),
            none,
            h,
            at_least(4, 1.8 * rad),
        ),
        // Near its apex the cone is a spike under the floor's surface that no floor
        // triangle meets (d / tan 2α ≈ 0.9% of the slant): the points may stop short.
        body(
            "cone lying",
            cone.into(),
            cone_lay,
            -apex / s,
            at_least(2, 0.98 * slant),
        ),
        body(
            "rounded box",
            shape_3d::Shape::RoundedCuboid(rounded),
            none,
            0.4,
            exact(4, (1.0f64 + 0.64).sqrt()),
        ),
        body("box", cube.into(), none, 0.5, exact(4, 2f64.sqrt())),
    ]
}

fn resting_3d<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let mut rng = Rng(13);
    for s in SCALES {
        for (floor_name, floor, floor_pose) in floors_3d::<R>(s) {
            for body in bodies_3d::<R>(s) {
                let b = shape_3d::AnyShape::from(body.shape.clone());
                for case in 0..CASES {
                    let (x, z, yaw) = if case == 0 {
                        (0.0, 0.0, 0.0)
                    } else {
                        (
                            rng.range(-3.0, 3.0),
                            rng.range(-3.0, 3.0),
                            rng.range(0.0, 6.3),
                        )
                    };
                    let turn = R::Quat::from_axis_angle(R::V3::unit_axis(1), r(yaw));
                    let centre = v3::<R>(x * s, (body.rest - DEPTH) * s, z * s);
                    let pose = Pose3::new(centre, Rotation3::mul(turn, body.lay));
                    let what = format!(
                        "{} on the {floor_name} at scale {s}, case {case}",
                        body.name
                    );
                    let m = dispatch::contact_manifold(&floor_pose, &floor, &pose, &b, R::ZERO)
                        .unwrap_or_else(|| panic!("{what}: no manifold"));
                    check_resting(&m, R::V3::unit_axis(1), s, body.expect, tol::<R>(), &what);
                    let swapped =
                        dispatch::contact_manifold(&pose, &b, &floor_pose, &floor, R::ZERO);
                    check_swapped(&m, &swapped.expect("swapped"), tol::<R>() * s, &what);
                }
            }
        }
    }
}

#[test]
fn resting_3d_f32() {
    resting_3d::<f32>();
}

#[test]
fn resting_3d_f64() {
    resting_3d::<f64>();
}

// ---------------------------------------------------------------- 2D

fn v2<R: Real>(x: f64, y: f64) -> R::V2 {
    R::V2::new(r(x), r(y))
}

/// The 2D floors, top at y = 0 spanning [−8, 8] times `s`.
fn floors_2d<R: Real>(s: f64) -> Vec<(&'static str, shape_2d::AnyShape<R>, Pose2<R>)>
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let ground = [(-8.0, -1.0), (8.0, -1.0), (8.0, 0.0), (-8.0, 0.0)];
    let ground: Vec<R::V2> = ground.iter().map(|&(x, y)| v2::<R>(x * s, y * s)).collect();
    let polygon = ConvexPolygon::new(&ground).unwrap();
    let chain: Vec<R::V2> = (0..=16)
        .map(|k| v2::<R>((k as f64 - 8.0) * s, 0.0))
        .collect();
    let hf = HeightField2::<R>::new(vec![R::ZERO; 17], v2::<R>(16.0 * s, 1.0)).unwrap();
    let at = Pose2::default();
    vec![
        ("polygon", shape_2d::Shape::Polygon(polygon).into(), at),
        (
            "polyline chain",
            Polyline::new(chain, false).unwrap().into(),
            at,
        ),
        ("heightfield", hf.into(), at),
    ]
}

/// The 2D bodies at scale `s`, with their resting centre height and expectation.
fn bodies_2d<R: Real>(s: f64) -> Vec<(&'static str, shape_2d::Shape<R>, f64, Expect)> {
    let capsule = Capsule::aligned(0, r(1.0 * s), r(0.5 * s)).unwrap();
    let core = Aabb::from_center(R::V2::ZERO, v2::<R>(0.5 * s, 0.3 * s)).unwrap();
    let rounded = Rounded::new(core, r(0.1 * s)).unwrap();
    let cube = Aabb::from_center(R::V2::ZERO, v2::<R>(0.5 * s, 0.5 * s)).unwrap();
    let hexagon: Vec<R::V2> = (0..6)
        .map(|k| {
            let a = core::f64::consts::PI / 3.0 * k as f64;
            v2::<R>(a.cos() * s, a.sin() * s)
        })
        .collect();
    let hexagon = ConvexPolygon::new(&hexagon).unwrap();
    let hex_rest = (3f64).sqrt() / 2.0;
    vec![
        ("capsule lying", capsule.into(), 0.5, exact(2, 2.0)),
        (
            "rounded box",
            shape_2d::Shape::RoundedCuboid(rounded),
            0.4,
            exact(2, 1.0),
        ),
        ("box", cube.into(), 0.5, exact(2, 1.0)),
        (
            "hexagon",
            shape_2d::Shape::Polygon(hexagon),
            hex_rest,
            exact(2, 1.0),
        ),
    ]
}

fn resting_2d<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let mut rng = Rng(2);
    for s in SCALES {
        for (floor_name, floor, floor_pose) in floors_2d::<R>(s) {
            for (name, shape, rest, expect) in bodies_2d::<R>(s) {
                let b = shape_2d::AnyShape::from(shape);
                for case in 0..CASES {
                    let x = if case == 0 { 0.0 } else { rng.range(-3.0, 3.0) };
                    let pose = Pose2::new(v2::<R>(x * s, (rest - DEPTH) * s), R::ZERO);
                    let what = format!("{name} on the {floor_name} at scale {s}, case {case}");
                    let m = dispatch::contact_manifold(&floor_pose, &floor, &pose, &b, R::ZERO)
                        .unwrap_or_else(|| panic!("{what}: no manifold"));
                    check_resting(&m, R::V2::unit_axis(1), s, expect, tol::<R>(), &what);
                    let swapped =
                        dispatch::contact_manifold(&pose, &b, &floor_pose, &floor, R::ZERO);
                    check_swapped(&m, &swapped.expect("swapped"), tol::<R>() * s, &what);
                }
            }
        }
    }
}

#[test]
fn resting_2d_f32() {
    resting_2d::<f32>();
}

#[test]
fn resting_2d_f64() {
    resting_2d::<f64>();
}
