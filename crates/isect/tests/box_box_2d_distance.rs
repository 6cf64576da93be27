//! 2D box–box distance and closest points (`query::box_box_2d`, called by the 2D
//! dispatch before GJK), in `f32` and `f64`:
//!
//! - random boxes (off-centre, aspect up to 1e3) at random poses against a brute-force
//!   reference in `f64` (overlap when the world corners admit no separating face
//!   normal, else the least vertex–segment distance over both boxes' corners and edges),
//!   both argument orders, and against parry2d;
//! - exact answers for each kind of nearest features (a corner over a face, parallel
//!   faces, two corners, crossing bars, touching) at scales 1e-3 to 1e3 (`f64`: 1e-12
//!   to 1e12, and 1e-20 and 1e20 beyond the closed form's range, where GJK answers),
//!   under a random rigid motion of both boxes;
//! - closest points on their boxes, `|point_b − point_a|` the distance;
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
