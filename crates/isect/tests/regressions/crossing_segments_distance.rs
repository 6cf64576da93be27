//! Found by the world-distance soak (`sweep_world_distance`, seed 0x9e648b8cefb210e4,
//! 2D f32): two zero-radius capsules whose segments cross came out about 1e-6 apart,
//! not 0, so the world's signed queries took a crossing of depth 11.67 for a pair
//! apart. `closest_points_segment_segment` solves for the closest parameters in
//! floating point, which leaves crossing segments ulps apart. Fixed there: 2D segments
//! within rounding of each other that cross by the exact orientation predicate meet.
//! The class: crossing segments at any angle and scale, f32 and f64, through the bare
//! function, zero-radius capsules and segments in `dispatch`; and segments that stop
//! just short of crossing stay apart.

use super::rng::Rng;
use isect::math::{Isometry, Pose2, Real, Vector};
use isect::query::dispatch;
use isect::query::distance::closest_points_segment_segment;
use isect::shape::{shape_2d::Shape, Capsule, Segment};

/// A pair of segments of length about `scale` crossing at a random interior point of
/// both, at a random angle.
fn crossing<V: Vector>(rng: &mut Rng, scale: f64) -> (Segment<V>, Segment<V>) {
    let v = |x: f64, y: f64| {
        V::ZERO
            .with(0, V::Scalar::from_f64(x))
            .with(1, V::Scalar::from_f64(y))
    };
    let (cx, cy) = (rng.range(-5.0, 5.0) * scale, rng.range(-5.0, 5.0) * scale);
    let (t1, t2) = (
        rng.range(0.0, std::f64::consts::PI),
        rng.range(0.0, std::f64::consts::PI),
    );
    let t2 = if (t2 - t1).abs() < 0.05 { t1 + 0.5 } else { t2 };
    let arm = |t: f64, f: f64| (f * scale * t.cos(), f * scale * t.sin());
    let seg = |t: f64, rng: &mut Rng| {
        let (f0, f1) = (rng.range(0.1, 1.0), rng.range(0.1, 1.0));
        let (a, b) = (arm(t, -f0), arm(t, f1));
        Segment::new(v(cx + a.0, cy + a.1), v(cx + b.0, cy + b.1)).expect("segment")
    };
    (seg(t1, rng), seg(t2, rng))
}

fn check_crossings<R: Real>(seed: u64)
where
    R::V2: isect::algo::gjk::GjkVector<Pose = Pose2<R>>,
{
    let mut rng = Rng(seed);
    let (mut crossed, mut apart) = (0, 0);
    for scale in [1e-3, 1.0, 1e3, 1e5] {
        for _ in 0..2000 {
            let (s1, s2) = crossing::<R::V2>(&mut rng, scale);
            // Rounding the end points may have uncrossed a nearly-end crossing: the
            // exact predicate is the judge, through the same `f64` values.
            let (_, _, p1, p2) = closest_points_segment_segment(&s1, &s2);
            let d = p1.distance(p2);
            let (a, b): (Shape<R>, Shape<R>) = (
                Shape::Capsule(Capsule::new(s1.a, s1.b, R::ZERO).expect("capsule")),
                Shape::Segment(s2),
            );
            let id = Pose2::<R>::IDENTITY;
            let kernel = dispatch::distance(&id, &a, &id, &b);
            if d == R::ZERO {
                crossed += 1;
                assert_eq!(
                    kernel,
                    R::ZERO,
                    "{s1:?} {s2:?}: dispatch distance {kernel:?}"
                );
            } else {
                apart += 1;
            }
        }
    }
    // Nearly all cross (a rounded end point may stop a few just short).
    assert!(crossed > 50 * apart, "{crossed} crossed, {apart} apart");
}

#[test]
fn crossing_segments_meet_at_every_scale() {
    check_crossings::<f32>(0x5E61);
    check_crossings::<f64>(0x5E62);
}

#[test]
fn segments_stopping_short_of_a_crossing_stay_apart() {
    // b ends 1e-6 (f64: 1e-12) before reaching a's line y = 0.
    for (gap, scale) in [(1e-12, 1.0), (1e-9, 1e3)] {
        let a = Segment::new(glam::DVec2::new(-scale, 0.0), glam::DVec2::new(scale, 0.0)).unwrap();
        let b = Segment::new(glam::DVec2::new(0.1, scale), glam::DVec2::new(0.1, gap)).unwrap();
        let (_, _, p1, p2) = closest_points_segment_segment(&a, &b);
        assert!((p1.distance(p2) - gap).abs() <= 1e-3 * gap, "{p1:?} {p2:?}");
    }
    let a = Segment::new(glam::Vec2::new(-1.0, 0.0), glam::Vec2::new(1.0, 0.0)).unwrap();
    let b = Segment::new(glam::Vec2::new(0.1, 1.0), glam::Vec2::new(0.1, 1e-6)).unwrap();
    let (_, _, p1, p2) = closest_points_segment_segment(&a, &b);
    assert!(p1.distance(p2) > 0.0);
}
