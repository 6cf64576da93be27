//! Issue 18, item 3: coplanar point sets were refused by
//! `ConvexPolyhedron::from_points`, where parry and Jolt build a flat hull. They are
//! now flat polyhedra (`is_flat`: two opposite faces and side planes); every query
//! through the dispatch must be right on them. A square `[-1, 1]²` (with interior and
//! edge points) at a seeded rigid pose, `f32` and `f64`, against balls, boxes, rays, a
//! cube and another square, with analytic answers in the square's frame.

use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose3, Real, Rotation3, Vector, Vector3};
use isect::query::dispatch;
use isect::query::RayCast;
use isect::shape::shape_3d::Shape;
use isect::shape::{Aabb, Ball, ConvexPolyhedron, Ray};

use crate::rng;
use rng::Rng;

/// Random cases per query and type.
const CASES: usize = 300;

fn v<R: Real>(x: f64, y: f64, z: f64) -> R::V3 {
    R::V3::new(R::from_f64(x), R::from_f64(y), R::from_f64(z))
}

/// The flat square `[-1, 1]² × {0}` with its centre and edge midpoints.
fn square<R: Real>() -> Shape<R> {
    let mut pts = Vec::new();
    for x in [-1.0, 0.0, 1.0] {
        for y in [-1.0, 0.0, 1.0] {
            pts.push(v::<R>(x, y, 0.0));
        }
    }
    let poly = ConvexPolyhedron::<R>::from_points(&pts).expect("a flat square");
    assert!(poly.is_flat());
    assert_eq!(poly.vertices().len(), 4);
    Shape::Polyhedron(poly)
}

/// A seeded rigid pose.
fn pose<R: Real>(r: &mut Rng) -> Pose3<R> {
    let axis = v::<R>(
        r.range(-1.0, 1.0),
        r.range(-1.0, 1.0),
        r.range(-1.0, 1.0) + 2.0,
    );
    let rot = R::Quat::from_axis_angle(
        axis.try_normalize().unwrap(),
        R::from_f64(r.range(-3.0, 3.0)),
    );
    Pose3::new(v::<R>(r.range(-5.0, 5.0), r.range(-5.0, 5.0), 3.0), rot)
}

/// Distance from local point `(x, y, z)` to the square.
fn square_distance(x: f64, y: f64, z: f64) -> f64 {
    let (dx, dy) = ((x.abs() - 1.0).max(0.0), (y.abs() - 1.0).max(0.0));
    (dx * dx + dy * dy + z * z).sqrt()
}

/// Tolerance of a type: 1e-9 in `f64`, 2e-4 in `f32` (lengths about 1, poses 5 away).
fn tol<R: Real>() -> f64 {
    if R::EPSILON.to_f64() < 1e-10 {
        1e-9
    } else {
        2e-4
    }
}

fn to_f64<R: Real>(p: R::V3) -> [f64; 3] {
    [0, 1, 2].map(|i| p.get(i).to_f64())
}

/// Balls around the square: distance, intersects and (penetrating) contact.
fn balls<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let sq = square::<R>();
    let (mut r, t) = (Rng(31), tol::<R>());
    let mut hits = 0;
    for _ in 0..CASES {
        let pa = pose::<R>(&mut r);
        let (x, y, z) = (r.range(-2.0, 2.0), r.range(-2.0, 2.0), r.range(-1.0, 1.0));
        let radius = r.range(0.1, 0.8);
        let ball = Shape::Ball(Ball::new(R::V3::ZERO, R::from_f64(radius)).unwrap());
        let pb = Pose3::new(pa.transform_point(v::<R>(x, y, z)), pa.rotation);
        let expected = square_distance(x, y, z) - radius;
        let got = dispatch::distance(&pa, &sq, &pb, &ball).to_f64();
        assert!(
            (got - expected.max(0.0)).abs() <= t,
            "distance {got} vs {expected}"
        );
        let hit = dispatch::intersects(&pa, &sq, &pb, &ball);
        if expected.abs() > t {
            assert_eq!(hit, expected < 0.0, "intersects at {x} {y} {z} r {radius}");
        }
        hits += usize::from(hit);
        // Over the square's inside, a penetrating ball's contact is along the normal.
        let inside = x.abs() < 1.0 - radius && y.abs() < 1.0 - radius;
        if inside && z.abs() > 0.05 && z.abs() < radius {
            let c = dispatch::contact(&pa, &sq, &pb, &ball, R::ZERO).expect("contact");
            assert!(
                (c.depth.to_f64() - (radius - z.abs())).abs() <= 10.0 * t,
                "depth {:?} vs {}",
                c.depth,
                radius - z.abs()
            );
            let up = to_f64::<R>(pa.rotation.rotate(v::<R>(0.0, 0.0, z.signum())));
            let n = to_f64::<R>(c.normal);
            let cos = n[0] * up[0] + n[1] * up[1] + n[2] * up[2];
            assert!(cos > 1.0 - 10.0 * t, "contact normal {n:?} vs {up:?}");
        }
    }
    assert!(hits > CASES / 5 && hits < CASES * 4 / 5, "hit rate {hits}");
}

/// Rays: from above or below onto the inside (hit at the plane, normal facing the
/// ray), along the plane onto an edge (hit at the edge, the side normal), and
/// parallel above the plane (miss).
fn rays<R: Real>() {
    let Shape::Polyhedron(sq) = square::<R>() else {
        unreachable!()
    };
    let (mut r, t) = (Rng(32), tol::<R>());
    for _ in 0..CASES {
        let (x, y, h) = (r.range(-0.9, 0.9), r.range(-0.9, 0.9), r.range(0.5, 3.0));
        let side = if r.below(2) == 0 { 1.0 } else { -1.0 };
        let down = Ray::new(v::<R>(x, y, side * h), v::<R>(0.0, 0.0, -side)).unwrap();
        let hit = sq
            .cast_ray(&down, R::from_f64(10.0))
            .expect("hits the face");
        assert!((hit.t.to_f64() - h).abs() <= t, "t {:?} vs {h}", hit.t);
        assert!(
            (hit.normal.get(2).to_f64() - side).abs() <= t,
            "{:?}",
            hit.normal
        );
        let across = Ray::new(v::<R>(-3.0, y, 0.0), v::<R>(1.0, 0.0, 0.0)).unwrap();
        let hit = sq
            .cast_ray(&across, R::from_f64(10.0))
            .expect("hits the edge");
        assert!((hit.t.to_f64() - 2.0).abs() <= t, "edge t {:?}", hit.t);
        assert!(
            (hit.normal.get(0).to_f64() + 1.0).abs() <= t,
            "{:?}",
            hit.normal
        );
        let above = Ray::new(v::<R>(-3.0, y, 0.1 * h), v::<R>(1.0, 0.0, 0.0)).unwrap();
        assert!(sq.cast_ray(&above, R::from_f64(10.0)).is_none());
    }
}

/// Boxes above, below and beside the square: distance and intersects; a resting
/// cube (polyhedron) gives a SAT manifold along the normal with the right depth.
fn boxes<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let sq = square::<R>();
    let (mut r, t) = (Rng(33), tol::<R>());
    for _ in 0..CASES {
        let pa = pose::<R>(&mut r);
        let h = r.range(0.1, 0.5);
        let cube = Aabb::new(v::<R>(-h, -h, -h), v::<R>(h, h, h)).unwrap();
        let (x, y, z) = (r.range(-1.0, 1.0), r.range(-1.0, 1.0), r.range(-1.0, 1.0));
        let pb = Pose3::new(pa.transform_point(v::<R>(x, y, z)), pa.rotation);
        let expected = z.abs() - h; // the box's footprint overlaps the square
        let got = dispatch::distance(&pa, &sq, &pb, &Shape::Cuboid(cube)).to_f64();
        assert!(
            (got - expected.max(0.0)).abs() <= t,
            "box {got} vs {expected}"
        );
        if expected.abs() > t {
            let hit = dispatch::intersects(&pa, &sq, &pb, &Shape::Cuboid(cube));
            assert_eq!(hit, expected < 0.0, "box intersects");
        }
        // The same cube as a polyhedron, centred over the square, resting 0.01 deep.
        let corners: Vec<R::V3> = (0..8)
            .map(|i| {
                let s = |b: usize| if i & b == 0 { -h } else { h };
                v::<R>(s(1), s(2), s(4))
            })
            .collect();
        let poly = Shape::Polyhedron(ConvexPolyhedron::<R>::from_points(&corners).unwrap());
        let (x, y) = (r.range(-0.4, 0.4), r.range(-0.4, 0.4));
        let pc = Pose3::new(pa.transform_point(v::<R>(x, y, h - 0.01)), pa.rotation);
        let m = dispatch::contact_manifold(&pa, &sq, &pc, &poly, R::ZERO).unwrap_or_else(|| {
            panic!(
                "manifold {pa:?} {pc:?} {h} {:?}",
                dispatch::contact(&pa, &sq, &pc, &poly, R::ZERO)
            )
        });
        let up = to_f64::<R>(pa.rotation.rotate(v::<R>(0.0, 0.0, 1.0)));
        let n = to_f64::<R>(m.normal);
        let cos = n[0] * up[0] + n[1] * up[1] + n[2] * up[2];
        assert!(cos > 1.0 - 10.0 * t, "manifold normal {n:?} vs {up:?}");
        assert!(!m.points().is_empty());
        for p in m.points() {
            assert!(
                (p.depth.to_f64() - 0.01).abs() <= 10.0 * t,
                "depth {:?}",
                p.depth
            );
        }
    }
}

/// Two squares: parallel at a gap (distance), crossing at right angles (intersect),
/// side by side in one plane at a gap (distance across the gap).
fn two_squares<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let sq = square::<R>();
    let (mut r, t) = (Rng(34), tol::<R>());
    for _ in 0..CASES / 3 {
        let pa = pose::<R>(&mut r);
        let g = r.range(0.01, 1.0);
        let (x, y) = (r.range(-1.5, 1.5), r.range(-1.5, 1.5));
        let above = Pose3::new(pa.transform_point(v::<R>(x, y, g)), pa.rotation);
        let d = dispatch::distance(&pa, &sq, &above, &sq).to_f64();
        assert!((d - g).abs() <= t, "parallel {d} vs {g}");
        let quarter = R::Quat::from_axis_angle(
            v::<R>(1.0, 0.0, 0.0),
            R::from_f64(std::f64::consts::FRAC_PI_2),
        );
        let crossing = Pose3::new(
            pa.transform_point(v::<R>(x, y, 0.3)),
            pa.rotation.mul(quarter),
        );
        let expect = x.abs() <= 1.0 && (y.abs() <= 1.0 || y.abs() - 1.0 < 1.0);
        if x.abs() < 0.9 && y.abs() < 0.9 {
            assert!(
                expect && dispatch::intersects(&pa, &sq, &crossing, &sq),
                "crossing"
            );
        }
        let beside = Pose3::new(pa.transform_point(v::<R>(2.0 + g, 0.0, 0.0)), pa.rotation);
        let d = dispatch::distance(&pa, &sq, &beside, &sq).to_f64();
        assert!((d - g).abs() <= t, "in-plane gap {d} vs {g}");
        assert!(!dispatch::intersects(&pa, &sq, &beside, &sq));
    }
}

// A flat polyhedron against balls (distance, intersects, contact), f32 and f64.
#[test]
fn flat_polyhedron_vs_balls() {
    balls::<f32>();
    balls::<f64>();
}

// Rays onto a flat polyhedron's faces and edges, and parallel misses.
#[test]
fn flat_polyhedron_rays() {
    rays::<f32>();
    rays::<f64>();
}

// A flat polyhedron against boxes and a resting cube's manifold.
#[test]
fn flat_polyhedron_vs_boxes() {
    boxes::<f32>();
    boxes::<f64>();
}

// Two flat polyhedra: parallel, crossing, side by side.
#[test]
fn flat_polyhedron_pairs() {
    two_squares::<f32>();
    two_squares::<f64>();
}
