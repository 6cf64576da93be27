//! 2D distance and closest points through the dispatch, in `f32` and `f64`: box–box
//! in closed form (`query::box_box_2d`) and every pair of kinds with a polygonal core
//! (boxes, triangles, segments, capsules, polygons, rounded boxes and polygons; GJK,
//! the SAT of two polygons or the capsule closed forms, as the dispatch picks):
//!
//! - random pairs against brute-force references in `f64` on the world corners
//!   (boxes: no separating face normal; every kind: crossing edges or a vertex inside,
//!   else the least vertex–segment distance, less the radii), both argument orders,
//!   boxes against parry2d too;
//! - exact answers for each kind of nearest features of two boxes (a corner over a
//!   face, parallel faces, two corners, crossing bars, touching) at scales 1e-3 to 1e3
//!   (`f64`: 1e-12 to 1e12, and 1e-20 and 1e20 beyond the closed form's range, where
//!   GJK answers), under a random rigid motion; collinear segments and capsules and a
//!   segment pointing at a corner;
//! - closest points on their shapes, `|point_b − point_a|` the distance;
//! - a non-finite pose gives NaN through the dispatch, `None` from the module.

#[path = "support/rng.rs"]
mod rng;

use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose2, Real, Vector};
use isect::query::box_box_2d;
use isect::query::dispatch;
use isect::shape::shape_2d::Shape;
use isect::shape::Aabb;
use rng::Rng;

fn v2<R: Real>(x: f64, y: f64) -> R::V2 {
    R::V2::ZERO.with(0, R::from_f64(x)).with(1, R::from_f64(y))
}

fn to64<R: Real>(v: R::V2) -> glam::DVec2 {
    glam::DVec2::new(v.get(0).to_f64(), v.get(1).to_f64())
}

fn cuboid<R: Real>(lo: (f64, f64), hi: (f64, f64)) -> Aabb<R::V2> {
    Aabb::new(v2::<R>(lo.0, lo.1), v2::<R>(hi.0, hi.1)).unwrap()
}

fn pose<R: Real>(x: f64, y: f64, angle: f64) -> Pose2<R> {
    Pose2::new(v2::<R>(x, y), R::from_f64(angle))
}

/// The world corners of box `b` at `pose`, in `f64`, in order around the box.
fn corners<R: Real>(b: &Aabb<R::V2>, pose: &Pose2<R>) -> [glam::DVec2; 4] {
    let (lo, hi) = (b.min, b.max);
    [lo, lo.with(0, hi.get(0)), hi, lo.with(1, hi.get(1))]
        .map(|c| to64::<R>(pose.transform_point(c)))
}

/// Brute force in `f64` on the world corners: 0 when no edge normal of either box
/// separates the corner sets, else the least distance from a corner of one box to an
/// edge of the other.
fn reference<R: Real>(a: &Aabb<R::V2>, pa: &Pose2<R>, b: &Aabb<R::V2>, pb: &Pose2<R>) -> f64 {
    let (ca, cb) = (corners(a, pa), corners(b, pb));
    let edges = |c: &[glam::DVec2; 4]| (0..4).map(|i| (c[i], c[(i + 1) % 4])).collect::<Vec<_>>();
    let separated = |x: &[glam::DVec2; 4], y: &[glam::DVec2; 4]| {
        edges(x).iter().any(|&(s, e)| {
            let n = (e - s).perp();
            let (lo, hi) = x
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
                    (l.min(n.dot(*p)), h.max(n.dot(*p)))
                });
            y.iter().all(|p| n.dot(*p) > hi) || y.iter().all(|p| n.dot(*p) < lo)
        })
    };
    if !separated(&ca, &cb) && !separated(&cb, &ca) {
        return 0.0;
    }
    let to_segment = |p: glam::DVec2, (s, e): (glam::DVec2, glam::DVec2)| {
        let d = e - s;
        let t = ((p - s).dot(d) / d.length_squared()).clamp(0.0, 1.0);
        p.distance(s + d * t)
    };
    let mut best = f64::INFINITY;
    for (points, other) in [(&ca, &cb), (&cb, &ca)] {
        for &p in points.iter() {
            for e in edges(other) {
                best = best.min(to_segment(p, e));
            }
        }
    }
    best
}

/// The distance through the dispatch in both argument orders (they must agree), and
/// the closest points' consistency with it.
fn checked_distance<R: Real>(
    pa: &Pose2<R>,
    a: &Aabb<R::V2>,
    pb: &Pose2<R>,
    b: &Aabb<R::V2>,
    tol: f64,
) -> f64
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let (sa, sb) = (Shape::<R>::Cuboid(*a), Shape::<R>::Cuboid(*b));
    let (ab, ba) = (
        dispatch::distance(pa, &sa, pb, &sb).to_f64(),
        dispatch::distance(pb, &sb, pa, &sa).to_f64(),
    );
    assert!((ab - ba).abs() <= tol, "orders disagree: {ab} vs {ba}");
    let cp = dispatch::closest_points(pa, &sa, pb, &sb);
    assert!(
        (cp.distance.to_f64() - ab).abs() <= tol,
        "closest points' distance {cp:?} vs {ab}"
    );
    if ab > 0.0 {
        let (on_a, on_b) = (to64::<R>(cp.point_a), to64::<R>(cp.point_b));
        assert!(
            (on_a.distance(on_b) - ab).abs() <= tol,
            "points {cp:?} apart by other than {ab}"
        );
        let off = |p: glam::DVec2, x: &Aabb<R::V2>, pose: &Pose2<R>| {
            let local = pose.inverse_transform_point(v2::<R>(p.x, p.y));
            let clamped = local.max(x.min).min(x.max);
            to64::<R>(local).distance(to64::<R>(clamped))
        };
        assert!(
            off(on_a, a, pa) <= tol && off(on_b, b, pb) <= tol,
            "points off their boxes: {cp:?}"
        );
    }
    ab
}

fn random_boxes<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let mut rng = Rng(0x2d_b0c5);
    let tol = if R::EPSILON.to_f64() > 1e-10 {
        1e-4
    } else {
        1e-12
    };
    let (mut overlaps, mut parry_checked) = (0, 0);
    for case in 0..4000 {
        let mut half = || rng.range(0.05, 1.0) * if rng.below(8) == 0 { 1e-3 } else { 1.0 };
        let (ha, hb) = ((half(), half()), (half(), half()));
        let (oa, ob) = (
            (rng.range(-0.3, 0.3), rng.range(-0.3, 0.3)),
            (rng.range(-0.3, 0.3), 0.0),
        );
        let a = cuboid::<R>((oa.0 - ha.0, oa.1 - ha.1), (oa.0 + ha.0, oa.1 + ha.1));
        let b = cuboid::<R>((ob.0 - hb.0, ob.1 - hb.1), (ob.0 + hb.0, ob.1 + hb.1));
        let pa = pose::<R>(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-4.0, 4.0),
        );
        let pb = pose::<R>(
            rng.range(-2.0, 2.0),
            rng.range(-2.0, 2.0),
            rng.range(-4.0, 4.0),
        );
        let d = checked_distance(&pa, &a, &pb, &b, tol);
        let want = reference(&a, &pa, &b, &pb);
        assert!(
            (d - want).abs() <= tol,
            "case {case}: {d} vs reference {want}"
        );
        let own = box_box_2d::distance(&pa, &a, &pb, &b)
            .expect("in range")
            .to_f64();
        assert!(
            (own - want).abs() <= tol,
            "case {case}: module {own} vs reference {want}"
        );
        overlaps += usize::from(want == 0.0);
        // parry2d (f32) on centred boxes, within its accuracy.
        let centred = |h: (f64, f64), p: &Pose2<R>, o: (f64, f64)| {
            let c = to64::<R>(p.transform_point(v2::<R>(o.0, o.1)));
            (
                parry2d::shape::Cuboid::new(glam::Vec2::new(h.0 as f32, h.1 as f32)),
                parry2d::math::Pose::new(c.as_vec2(), p.rotation.angle().to_f64() as f32),
            )
        };
        let ((qa, ia), (qb, ib)) = (centred(ha, &pa, oa), centred(hb, &pb, ob));
        let theirs = parry2d::query::distance(&ia, &qa, &ib, &qb)
            .unwrap()
            .distance as f64;
        assert!(
            (theirs - want).abs() <= 1e-4,
            "case {case}: parry2d {theirs} vs reference {want}"
        );
        parry_checked += 1;
    }
    assert!(
        overlaps > 400 && overlaps < 3600,
        "{overlaps} overlapping of 4000"
    );
    assert!(parry_checked > 1000);
}

#[test]
fn random_boxes_match_the_reference_and_parry_f32() {
    random_boxes::<f32>();
}

#[test]
fn random_boxes_match_the_reference_and_parry_f64() {
    random_boxes::<f64>();
}

/// Each nearest-feature class with its exact distance, at scale `s`, both boxes moved
/// by one random rigid motion.
fn classes<R: Real>(scales: &[f64], rel: f64)
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let mut rng = Rng(0x2d_c1a5);
    let (sq2, q) = (std::f64::consts::SQRT_2, std::f64::consts::FRAC_PI_4);
    for &s in scales {
        for _ in 0..50 {
            let (mx, my, ma) = (
                rng.range(-3.0, 3.0) * s,
                rng.range(-3.0, 3.0) * s,
                rng.range(-4.0, 4.0),
            );
            let motion = pose::<R>(mx, my, ma);
            let unit = cuboid::<R>((-s, -s), (s, s));
            let bar = cuboid::<R>((-3.0 * s, -0.5 * s), (3.0 * s, 0.5 * s));
            let gap = rng.range(0.01, 2.0) * s;
            let slide = rng.range(-0.9, 0.9) * s;
            let cases = [
                // B's corner straight over A's right face.
                (
                    "corner over face",
                    unit,
                    pose::<R>(0.0, 0.0, 0.0),
                    pose::<R>(s + gap + sq2 * s, slide * 0.2, q),
                    gap,
                ),
                (
                    "parallel faces",
                    unit,
                    pose::<R>(0.0, 0.0, 0.0),
                    pose::<R>(2.0 * s + gap, slide, 0.0),
                    gap,
                ),
                // Corner to corner along the diagonal.
                (
                    "two corners",
                    unit,
                    pose::<R>(0.0, 0.0, 0.0),
                    pose::<R>(2.0 * s + gap / sq2, 2.0 * s + gap / sq2, 0.0),
                    gap,
                ),
                (
                    "crossing bars",
                    bar,
                    pose::<R>(0.0, 0.0, 0.0),
                    pose::<R>(slide, 0.0, 2.0 * q),
                    0.0,
                ),
                (
                    "touching faces",
                    unit,
                    pose::<R>(0.0, 0.0, 0.0),
                    pose::<R>(2.0 * s, slide, 0.0),
                    0.0,
                ),
                (
                    "corner on face",
                    unit,
                    pose::<R>(0.0, 0.0, 0.0),
                    pose::<R>(s + sq2 * s, slide * 0.2, q),
                    0.0,
                ),
            ];
            for (name, x, pa, pb, want) in cases {
                let (pa, pb) = (motion.mul(&pa), motion.mul(&pb));
                let tol = rel * s.max(1e-300) * 8.0;
                let d = checked_distance(&pa, &x, &pb, &x, tol);
                assert!(
                    (d - want).abs() <= tol,
                    "{name} at scale {s}: {d} vs {want}"
                );
            }
        }
    }
}

#[test]
fn feature_classes_are_exact_at_every_scale_f32() {
    classes::<f32>(&[1e-3, 1.0, 1e3], 2e-6);
}

#[test]
fn feature_classes_are_exact_at_every_scale_f64() {
    classes::<f64>(&[1e-20, 1e-12, 1e-6, 1.0, 1e6, 1e12, 1e20], 1e-13);
}

#[test]
fn out_of_range_and_non_finite_poses() {
    let unit = cuboid::<f64>((-1.0, -1.0), (1.0, 1.0));
    let (sa, sb) = (Shape::<f64>::Cuboid(unit), Shape::<f64>::Cuboid(unit));
    let apart = pose::<f64>(3.0, 0.0, 0.0);
    for bad in [
        pose::<f64>(f64::NAN, 0.0, 0.0),
        pose::<f64>(0.0, f64::INFINITY, 0.0),
        pose::<f64>(0.0, 0.0, f64::NAN),
    ] {
        assert_eq!(box_box_2d::distance(&bad, &unit, &apart, &unit), None);
        assert_eq!(box_box_2d::closest_points(&apart, &unit, &bad, &unit), None);
        assert!(dispatch::distance(&bad, &sa, &apart, &sb).is_nan());
    }
    // Beyond the closed form's range GJK answers through the dispatch.
    let huge = cuboid::<f64>((-1e16, -1e16), (1e16, 1e16));
    assert_eq!(
        box_box_2d::distance(&Pose2::IDENTITY, &huge, &pose::<f64>(3e16, 0.0, 0.0), &huge),
        None
    );
    let d = dispatch::distance(
        &Pose2::<f64>::IDENTITY,
        &Shape::<f64>::Cuboid(huge),
        &pose::<f64>(3e16, 0.0, 0.0),
        &Shape::<f64>::Cuboid(huge),
    );
    assert!((d - 1e16).abs() <= 1e4, "{d}");
    // Overlapping boxes: distance 0, no closed-form closest points (GJK's answer them).
    let near = pose::<f64>(1.5, 0.5, 0.3);
    assert_eq!(
        box_box_2d::distance(&Pose2::IDENTITY, &unit, &near, &unit),
        Some(0.0)
    );
    assert_eq!(
        box_box_2d::closest_points(&Pose2::IDENTITY, &unit, &near, &unit),
        None
    );
    assert_eq!(
        dispatch::closest_points(&Pose2::IDENTITY, &sa, &near, &sb).distance,
        0.0
    );
}

/// A random 2D shape with a polygonal core (box, triangle, segment, capsule, polygon,
/// rounded box, rounded polygon), its core's vertices in its frame and its radius.
fn polygonal<R: Real>(rng: &mut Rng) -> (Shape<R>, Vec<glam::DVec2>, f64) {
    let mut p = |s: f64| (rng.range(-s, s), rng.range(-s, s));
    let ring = |rng: &mut Rng| -> Vec<R::V2> {
        let k = 3 + rng.below(5);
        let (rx, ry) = (rng.range(0.2, 1.0), rng.range(0.2, 1.0));
        let mut angles: Vec<f64> = (0..k)
            .map(|_| rng.range(0.0, std::f64::consts::TAU))
            .collect();
        angles.sort_by(f64::total_cmp);
        angles
            .iter()
            .map(|a| v2::<R>(rx * a.cos(), ry * a.sin()))
            .collect()
    };
    let (a, b, c) = (p(1.0), p(1.0), p(1.0));
    let (lo, hi) = (
        (a.0.min(b.0), a.1.min(b.1)),
        (a.0.max(b.0) + 0.05, a.1.max(b.1) + 0.05),
    );
    let radius = rng.range(0.01, 0.3);
    let kind = rng.below(7);
    let (shape, core, r) = match kind {
        0 | 5 => {
            let x = cuboid::<R>(lo, hi);
            let core = vec![(lo.0, lo.1), (hi.0, lo.1), (hi.0, hi.1), (lo.0, hi.1)];
            if kind == 0 {
                (Shape::Cuboid(x), core, 0.0)
            } else {
                (
                    Shape::RoundedCuboid(
                        isect::shape::Rounded::new(x, R::from_f64(radius)).unwrap(),
                    ),
                    core,
                    radius,
                )
            }
        }
        1 => {
            let t = isect::shape::Triangle::new(
                v2::<R>(a.0, a.1),
                v2::<R>(b.0, b.1),
                v2::<R>(c.0, c.1),
            )
            .unwrap();
            (Shape::Triangle(t), vec![a, b, c], 0.0)
        }
        2 | 3 => {
            let (s, e) = (v2::<R>(a.0, a.1), v2::<R>(b.0, b.1));
            if kind == 2 {
                (
                    Shape::Segment(isect::shape::Segment::new(s, e).unwrap()),
                    vec![a, b],
                    0.0,
                )
            } else {
                (
                    Shape::Capsule(isect::shape::Capsule::new(s, e, R::from_f64(radius)).unwrap()),
                    vec![a, b],
                    radius,
                )
            }
        }
        _ => {
            let poly = loop {
                if let Ok(poly) = isect::shape::ConvexPolygon::<R>::new(&ring(rng)) {
                    break poly;
                }
            };
            let core = poly
                .vertices()
                .iter()
                .map(|v| (v.get(0).to_f64(), v.get(1).to_f64()))
                .collect();
            if kind == 4 {
                (Shape::Polygon(poly), core, 0.0)
            } else {
                (
                    Shape::RoundedPolygon(
                        isect::shape::Rounded::new(poly, R::from_f64(radius)).unwrap(),
                    ),
                    core,
                    radius,
                )
            }
        }
    };
    (
        shape,
        core.into_iter()
            .map(|(x, y)| glam::DVec2::new(x, y))
            .collect(),
        r,
    )
}

/// Brute force in `f64` on the world cores: 0 when an edge of one crosses an edge of
/// the other or a vertex of one lies in the other, else the least vertex–edge distance;
/// less both radii.
fn core_reference(a: &[glam::DVec2], ra: f64, b: &[glam::DVec2], rb: f64) -> f64 {
    use glam::DVec2;
    let edges = |v: &[DVec2]| -> Vec<(DVec2, DVec2)> {
        if v.len() == 2 {
            return vec![(v[0], v[1])];
        }
        (0..v.len()).map(|i| (v[i], v[(i + 1) % v.len()])).collect()
    };
    let cross = |o: DVec2, p: DVec2, q: DVec2| (p - o).perp_dot(q - o);
    let crosses = |(p, q): (DVec2, DVec2), (r, s): (DVec2, DVec2)| {
        let (d1, d2) = (cross(p, q, r), cross(p, q, s));
        let (d3, d4) = (cross(r, s, p), cross(r, s, q));
        d1 * d2 <= 0.0 && d3 * d4 <= 0.0 && !(d1 == 0.0 && d2 == 0.0)
    };
    let inside = |x: DVec2, v: &[DVec2]| {
        v.len() > 2 && {
            let signs: Vec<f64> = (0..v.len())
                .map(|i| cross(v[i], v[(i + 1) % v.len()], x))
                .collect();
            signs.iter().all(|&s| s >= 0.0) || signs.iter().all(|&s| s <= 0.0)
        }
    };
    let to_segment = |p: DVec2, (s, e): (DVec2, DVec2)| {
        let d = e - s;
        let t = ((p - s).dot(d) / d.length_squared()).clamp(0.0, 1.0);
        p.distance(s + d * t)
    };
    let (ea, eb) = (edges(a), edges(b));
    let meet = ea.iter().any(|&x| eb.iter().any(|&y| crosses(x, y)))
        || a.iter().any(|&x| inside(x, b))
        || b.iter().any(|&x| inside(x, a));
    if meet {
        return 0.0;
    }
    let mut d = f64::INFINITY;
    for &p in a {
        for &e in &eb {
            d = d.min(to_segment(p, e));
        }
    }
    for &p in b {
        for &e in &ea {
            d = d.min(to_segment(p, e));
        }
    }
    (d - ra - rb).max(0.0)
}

fn polygonal_pairs<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let mut rng = Rng(0x2d_9017);
    let tol = if R::EPSILON.to_f64() > 1e-10 {
        2e-4
    } else {
        1e-11
    };
    let mut apart = 0;
    for case in 0..6000 {
        let ((a, ca, ra), (b, cb, rb)) = (polygonal::<R>(&mut rng), polygonal::<R>(&mut rng));
        let pa = pose::<R>(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-4.0, 4.0),
        );
        let pb = pose::<R>(
            rng.range(-2.5, 2.5),
            rng.range(-2.5, 2.5),
            rng.range(-4.0, 4.0),
        );
        let world = |c: &[glam::DVec2], p: &Pose2<R>| -> Vec<glam::DVec2> {
            c.iter()
                .map(|v| to64::<R>(p.transform_point(v2::<R>(v.x, v.y))))
                .collect()
        };
        let want = core_reference(&world(&ca, &pa), ra, &world(&cb, &pb), rb);
        let (ab, ba) = (
            dispatch::distance(&pa, &a, &pb, &b).to_f64(),
            dispatch::distance(&pb, &b, &pa, &a).to_f64(),
        );
        let what = format!(
            "case {case}: {} {} at {pa:?} {pb:?}",
            a.kind_name(),
            b.kind_name()
        );
        assert!(
            (ab - want).abs() <= tol && (ba - want).abs() <= tol,
            "{what}: {ab} / {ba} vs reference {want}"
        );
        let cp = dispatch::closest_points(&pa, &a, &pb, &b);
        assert!(
            (cp.distance.to_f64() - want).abs() <= tol,
            "{what}: closest points {cp:?} vs {want}"
        );
        if want > tol {
            apart += 1;
            let (on_a, on_b) = (to64::<R>(cp.point_a), to64::<R>(cp.point_b));
            assert!(
                (on_a.distance(on_b) - want).abs() <= tol,
                "{what}: points {cp:?} vs {want}"
            );
            // Each point on its shape's surface: at its radius from the core.
            let off = |q: glam::DVec2, c: &[glam::DVec2], p: &Pose2<R>, r: f64| {
                (core_reference(&[q, q], 0.0, &world(c, p), 0.0) - r).abs()
            };
            assert!(
                off(on_a, &ca, &pa, ra) <= tol && off(on_b, &cb, &pb, rb) <= tol,
                "{what}: points off {cp:?}"
            );
        }
    }
    assert!(apart > 2000, "{apart} of 6000 apart");
}

#[test]
fn polygonal_kinds_match_the_reference_f32() {
    polygonal_pairs::<f32>();
}

#[test]
fn polygonal_kinds_match_the_reference_f64() {
    polygonal_pairs::<f64>();
}

/// Collinear segments and capsules apart along their shared line (their edge normals
/// do not separate them), and a segment pointing at a box's corner.
#[test]
fn collinear_and_pointing_cores() {
    let seg = |a: (f64, f64), b: (f64, f64)| {
        Shape::<f64>::Segment(
            isect::shape::Segment::new(v2::<f64>(a.0, a.1), v2::<f64>(b.0, b.1)).unwrap(),
        )
    };
    let cap = |a: (f64, f64), b: (f64, f64), r| {
        Shape::<f64>::Capsule(
            isect::shape::Capsule::new(v2::<f64>(a.0, a.1), v2::<f64>(b.0, b.1), r).unwrap(),
        )
    };
    let id = Pose2::<f64>::IDENTITY;
    for angle in [0.0, 0.3, 1.2, 3.0] {
        let turn = pose::<f64>(0.5, -0.25, angle);
        let d = dispatch::distance(
            &turn,
            &seg((0.0, 0.0), (1.0, 0.0)),
            &turn,
            &seg((3.0, 0.0), (4.0, 0.0)),
        );
        assert!((d - 2.0).abs() < 1e-12, "segments {d}");
        let d = dispatch::distance(
            &turn,
            &cap((0.0, 0.0), (1.0, 0.0), 0.25),
            &turn,
            &seg((3.0, 0.0), (4.0, 0.0)),
        );
        assert!((d - 1.75).abs() < 1e-12, "capsule and segment {d}");
        let square = Shape::<f64>::Cuboid(cuboid::<f64>((-1.0, -1.0), (1.0, 1.0)));
        let d = dispatch::distance(&turn, &square, &turn, &seg((2.0, 2.0), (5.0, 5.0)));
        assert!(
            (d - std::f64::consts::SQRT_2).abs() < 1e-12,
            "segment at a corner {d}"
        );
        let d = dispatch::distance(&id, &square, &turn, &cap((3.0, 0.0), (6.0, 0.0), 0.5));
        let want = core_reference(
            &corners(&cuboid::<f64>((-1.0, -1.0), (1.0, 1.0)), &id),
            0.0,
            &[(3.0, 0.0), (6.0, 0.0)]
                .map(|(x, y)| to64::<f64>(turn.transform_point(v2::<f64>(x, y)))),
            0.5,
        );
        assert!((d - want).abs() < 1e-12, "capsule by a box {d} vs {want}");
    }
}
