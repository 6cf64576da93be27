//! Issue 13: `contact()` for box–box and polygon–polygon (the SAT paths) gave A's far
//! support corner as `point_a`: a crate resting on a 10-wide floor got its contact at
//! the floor's corner (−5, 0, −5), a 1×1 box on a 10-wide 2D ground `(−5, 0.5)`.
//! Fixed in `algo/witness.rs`: the witnesses are the centre of the overlap of the two
//! support features along the normal.
//!
//! The class: boxes (2D and 3D) and convex polygons, f32 and f64, scales 1e-3 to 1e5,
//! seeded poses. Checked: (1) resting on a wider ground, the witness lies on the
//! ground's top and inside the resting shape's footprint, and in 2D at the exact
//! middle of the overlap of the two edges; (2) random overlapping poses: `point_a` on
//! A's surface, `point_b` on B's, `point_a − point_b = depth · normal`, and each
//! witness within `depth` of the other shape (it lies in the contact region).

use crate::rng::Rng;
use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose2, Pose3, Real, Rotation3, Vector, Vector2, Vector3};
use isect::query::dispatch;
use isect::shape::{shape_2d, shape_3d, Aabb, ConvexPolygon};

/// The scales of the sweep (shape sizes and offsets are multiplied by it).
const SCALES: [f64; 6] = [1e-3, 0.1, 1.0, 10.0, 1e3, 1e5];
/// Seeded cases per scale.
const CASES: usize = 300;

/// The tolerance at magnitude `m` (the largest coordinate involved).
fn tol<R: Real>(m: f64) -> f64 {
    R::EPSILON.to_f64() * 4096.0 * m
}

fn v2<R: Real>(x: f64, y: f64) -> R::V2 {
    R::V2::new(R::from_f64(x), R::from_f64(y))
}

fn v3<R: Real>(x: f64, y: f64, z: f64) -> R::V3 {
    R::V3::new(R::from_f64(x), R::from_f64(y), R::from_f64(z))
}

fn f<S: Real>(x: S) -> f64 {
    x.to_f64()
}

/// `(distance to the boundary, distance outside)` of the world point `p` for the box
/// `b` placed at `pose` (any dimension).
fn box_distances<V: Vector>(pose: &V::Pose, b: &Aabb<V>, p: V) -> (f64, f64) {
    let l = pose.inverse_transform_point(p) - b.center();
    let q = l.abs() - b.half_extents();
    let outside = f(q.max(V::ZERO).length());
    let boundary = if outside > 0.0 {
        outside
    } else {
        f(q.max_element()).abs()
    };
    (boundary, outside)
}

/// `(distance to the boundary, distance outside)` of `p` for a polygon at `pose`.
fn polygon_distances<R: Real>(pose: &Pose2<R>, g: &ConvexPolygon<R>, p: R::V2) -> (f64, f64) {
    let l = pose.inverse_transform_point(p);
    let vs = g.vertices();
    let mut boundary = f64::INFINITY;
    let mut inside = true;
    for (i, n) in g.normals().iter().enumerate() {
        let (a, b) = (vs[i], vs[(i + 1) % vs.len()]);
        let e = b - a;
        let t = ((l - a).dot(e) / e.dot(e)).max(R::ZERO).min(R::ONE);
        boundary = boundary.min(f((a + e * t).distance(l)));
        inside &= n.dot(l - a) <= R::ZERO;
    }
    (boundary, if inside { 0.0 } else { boundary })
}

/// A regular `k`-gon of circumradius `r` with one edge facing `−y`.
fn flat_bottom_polygon<R: Real>(k: usize, r: f64) -> ConvexPolygon<R> {
    let step = std::f64::consts::TAU / k as f64;
    let phase = -std::f64::consts::FRAC_PI_2 - step / 2.0;
    let pts: Vec<R::V2> = (0..k)
        .map(|i| {
            let a = phase + step * i as f64;
            v2::<R>(r * a.cos(), r * a.sin())
        })
        .collect();
    ConvexPolygon::new(&pts).unwrap()
}

/// The rectangle `[−hx, hx] × [−hy, hy]` as a polygon.
fn rectangle<R: Real>(hx: f64, hy: f64) -> ConvexPolygon<R> {
    let c = [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)].map(|(x, y)| v2::<R>(x, y));
    ConvexPolygon::new(&c).unwrap()
}

/// A shape resting on a 10-wide ground (half height `s`): a box or a flat-bottomed
/// polygon sunk by `0.01 s`, anywhere along the ground. The witness must be the
/// middle of the overlap of the ground's top and the shape's bottom edge.
fn resting_2d<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let mut rng = Rng(0x0005_a72d);
    for s in SCALES {
        for case in 0..CASES {
            let ground_at = v2::<R>(rng.range(-3.0, 3.0) * s, rng.range(-3.0, 3.0) * s);
            let ground = Aabb::from_center(R::V2::ZERO, v2::<R>(5.0 * s, s)).unwrap();
            let (shape, half_width, half_height) = if case % 2 == 0 {
                let (hw, hh) = (rng.range(0.2, 1.0) * s, rng.range(0.2, 1.0) * s);
                let b = Aabb::from_center(R::V2::ZERO, v2::<R>(hw, hh)).unwrap();
                (shape_2d::Shape::Cuboid(b), hw, hh)
            } else {
                let (k, r) = (3 + rng.below(6), rng.range(0.3, 1.0) * s);
                let g = flat_bottom_polygon::<R>(k, r);
                let half = std::f64::consts::PI / k as f64;
                (shape_2d::Shape::Polygon(g), r * half.sin(), r * half.cos())
            };
            let x = rng.range(-1.0, 1.0) * (5.0 * s + half_width - 0.1 * s);
            let depth = 0.01 * s;
            let at = ground_at + v2::<R>(x, s + half_height - depth);
            let (pa, pb) = (
                Pose2::<R>::from_translation(ground_at),
                Pose2::from_translation(at),
            );
            // Box on box and polygon on polygon: the SAT pairs.
            let g = match shape {
                shape_2d::Shape::Cuboid(_) => shape_2d::Shape::Cuboid(ground),
                _ => shape_2d::Shape::Polygon(rectangle::<R>(5.0 * s, s)),
            };
            let c = dispatch::contact(&pa, &g, &pb, &shape, R::ZERO).expect("resting overlaps");
            let m = 10.0 * s;
            let lo = (x - half_width).max(-5.0 * s);
            let hi = (x + half_width).min(5.0 * s);
            let expect = ground_at + v2::<R>((lo + hi) / 2.0, s);
            assert!(
                f(c.point_a.distance(expect)) <= tol::<R>(m),
                "scale {s} case {case}: expected {expect:?}, {c:?} {shape:?} at {at:?}"
            );
            let gap = c.point_a - c.point_b - c.normal * c.depth;
            assert!(f(gap.length()) <= tol::<R>(m), "{c:?}");
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

/// A random unit quaternion.
fn quat<R: Real>(rng: &mut Rng) -> R::Quat {
    let axis = v3::<R>(
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
    )
    .try_normalize()
    .unwrap_or(R::V3::unit_axis(1));
    R::Quat::from_axis_angle(axis, R::from_f64(rng.range(-3.2, 3.2)))
}

/// A crate turned about `y` resting on a 10-wide floor slab, sunk by `0.01 s`: the
/// witnesses lie on the floor's top, inside the crate's footprint and the floor's.
fn resting_3d<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let mut rng = Rng(0x0005_a73d);
    let up = R::V3::unit_axis(1);
    for s in SCALES {
        for case in 0..CASES {
            let floor_at =
                v3::<R>(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), 0.0) * R::from_f64(s);
            let floor = Aabb::from_center(R::V3::ZERO, v3::<R>(5.0 * s, s, 5.0 * s)).unwrap();
            let h = v3::<R>(
                rng.range(0.2, 1.0),
                rng.range(0.2, 1.0),
                rng.range(0.2, 1.0),
            ) * R::from_f64(s);
            let crate_box = Aabb::from_center(R::V3::ZERO, h).unwrap();
            let yaw = R::Quat::from_axis_angle(up, R::from_f64(rng.range(-3.2, 3.2)));
            let offset = v3::<R>(
                rng.range(-4.0, 4.0) * s,
                s + f(h.get(1)) - 0.01 * s,
                rng.range(-4.0, 4.0) * s,
            );
            let pa = Pose3::<R>::new(floor_at, R::Quat::from_axis_angle(up, R::ZERO));
            let pb = Pose3::<R>::new(floor_at + offset, yaw);
            let (a, b) = (
                shape_3d::Shape::<R>::Cuboid(floor),
                shape_3d::Shape::<R>::Cuboid(crate_box),
            );
            let c = dispatch::contact(&pa, &a, &pb, &b, R::ZERO).expect("resting overlaps");
            let t = tol::<R>(10.0 * s);
            let (on_a, _) = box_distances(&pa, &floor, c.point_a);
            let top = f(c.point_a.get(1)) - f(floor_at.get(1)) - s;
            assert!(on_a <= t && top.abs() <= t, "scale {s} case {case}: {c:?}");
            // Inside the crate's footprint: within its x, z extents in its frame.
            let l = pb.inverse_transform_point(c.point_b);
            let footprint = (f(l.get(0)).abs() - f(h.get(0))).max(f(l.get(2)).abs() - f(h.get(2)));
            assert!(
                footprint <= t,
                "scale {s} case {case}: {c:?} outside the crate"
            );
            let (on_b, _) = box_distances(&pb, &crate_box, c.point_b);
            assert!(
                on_b <= t,
                "scale {s} case {case}: point_b off the crate {c:?}"
            );
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

/// Asserts the witness relations of a contact given each shape's
/// `(boundary, outside)` distances.
fn check_witnesses<V: Vector>(
    c: &isect::query::Contact<V>,
    dist_a: impl Fn(V) -> (f64, f64),
    dist_b: impl Fn(V) -> (f64, f64),
    t: f64,
    what: &str,
) {
    let d = f(c.depth);
    assert!(dist_a(c.point_a).0 <= t, "{what}: point_a off A: {c:?}");
    assert!(dist_b(c.point_b).0 <= t, "{what}: point_b off B: {c:?}");
    let gap = c.point_a - c.point_b - c.normal * c.depth;
    assert!(f(gap.length()) <= t, "{what}: a − b ≠ depth·n: {c:?}");
    assert!(
        dist_b(c.point_a).1 <= d + t,
        "{what}: point_a far from B: {c:?}"
    );
    assert!(
        dist_a(c.point_b).1 <= d + t,
        "{what}: point_b far from A: {c:?}"
    );
}

/// Random overlapping pairs of 2D boxes and polygons.
fn random_pairs_2d<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let mut rng = Rng(0x005a_772d);
    let (mut hits, mut total) = (0, 0);
    for s in SCALES {
        for case in 0..CASES {
            let shape = |rng: &mut Rng| -> shape_2d::Shape<R> {
                if rng.below(2) == 0 {
                    let h = v2::<R>(rng.range(0.1, 2.0), rng.range(0.1, 2.0)) * R::from_f64(s);
                    shape_2d::Shape::Cuboid(Aabb::from_center(R::V2::ZERO, h).unwrap())
                } else {
                    shape_2d::Shape::Polygon(flat_bottom_polygon::<R>(
                        3 + rng.below(6),
                        rng.range(0.2, 2.0) * s,
                    ))
                }
            };
            let (a, b) = (shape(&mut rng), shape(&mut rng));
            let pose = |rng: &mut Rng| {
                let t = v2::<R>(rng.range(-1.5, 1.5), rng.range(-1.5, 1.5)) * R::from_f64(s);
                Pose2::<R>::new(t, R::from_f64(rng.range(-3.2, 3.2)))
            };
            let (pa, pb) = (pose(&mut rng), pose(&mut rng));
            total += 1;
            let Some(c) = dispatch::contact(&pa, &a, &pb, &b, R::ZERO) else {
                continue;
            };
            hits += 1;
            let dist = |pose: Pose2<R>, sh: shape_2d::Shape<R>| {
                move |p: R::V2| match &sh {
                    shape_2d::Shape::Cuboid(x) => box_distances(&pose, x, p),
                    shape_2d::Shape::Polygon(g) => polygon_distances(&pose, g, p),
                    _ => unreachable!("only boxes and polygons"),
                }
            };
            let what = format!("2D scale {s} case {case}");
            check_witnesses(
                &c,
                dist(pa, a.clone()),
                dist(pb, b.clone()),
                tol::<R>(4.0 * s),
                &what,
            );
        }
    }
    assert!(
        hits * 10 >= total * 3 && hits * 10 <= total * 9,
        "hit rate {hits}/{total}"
    );
}

#[test]
fn random_pairs_2d_f32() {
    random_pairs_2d::<f32>();
}

#[test]
fn random_pairs_2d_f64() {
    random_pairs_2d::<f64>();
}

/// Random overlapping pairs of 3D boxes.
fn random_pairs_3d<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let mut rng = Rng(0x005a_773d);
    let (mut hits, mut total) = (0, 0);
    for s in SCALES {
        for case in 0..CASES {
            let cuboid = |rng: &mut Rng| {
                let h = v3::<R>(
                    rng.range(0.1, 2.0),
                    rng.range(0.1, 2.0),
                    rng.range(0.1, 2.0),
                );
                Aabb::from_center(R::V3::ZERO, h * R::from_f64(s)).unwrap()
            };
            let (a, b) = (cuboid(&mut rng), cuboid(&mut rng));
            let pose = |rng: &mut Rng| {
                let t = v3::<R>(
                    rng.range(-1.5, 1.5),
                    rng.range(-1.5, 1.5),
                    rng.range(-1.5, 1.5),
                );
                Pose3::<R>::new(t * R::from_f64(s), quat::<R>(rng))
            };
            let (pa, pb) = (pose(&mut rng), pose(&mut rng));
            let (sa, sb) = (
                shape_3d::Shape::<R>::Cuboid(a),
                shape_3d::Shape::<R>::Cuboid(b),
            );
            total += 1;
            let Some(c) = dispatch::contact(&pa, &sa, &pb, &sb, R::ZERO) else {
                continue;
            };
            hits += 1;
            let what = format!("3D scale {s} case {case}");
            let (da, db) = (|p| box_distances(&pa, &a, p), |p| box_distances(&pb, &b, p));
            check_witnesses(&c, da, db, tol::<R>(4.0 * s), &what);
        }
    }
    assert!(
        hits * 10 >= total * 3 && hits * 10 <= total * 9,
        "hit rate {hits}/{total}"
    );
}

#[test]
fn random_pairs_3d_f32() {
    random_pairs_3d::<f32>();
}

#[test]
fn random_pairs_3d_f64() {
    random_pairs_3d::<f64>();
}
