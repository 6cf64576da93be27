//! Found by the pair sweep (case seed 0x13d292b793b48399, 2D f64): two balls of radius
//! 1e292 and 1e229, one at an infinite translation, "intersected": the ball–ball
//! kernel compares `|Δ|² = ∞` with `(r_a + r_b)² = ∞`. The documented answer for a
//! non-finite pose is `false` (and `None` for contacts). Fixed by checking the poses
//! at the top of `intersects_pair` and `contact_pair` of both shape enums.

use isect::math::{Pose2, Pose3, Real};
use isect::query::dispatch;
use isect::shape::{shape_2d, shape_3d, Aabb, Ball, Capsule};

/// Huge analytic shapes (ball, capsule, box) of every pair, one at an infinite or NaN
/// translation: no intersection, no contact, NaN distance.
fn non_finite_pose<V, S>(pose: impl Fn(f64) -> V::Pose)
where
    V: isect::algo::gjk::GjkVector,
    S: dispatch::DispatchShape<V> + From<Ball<V>> + From<Capsule<V>> + From<Aabb<V>>,
{
    let s = |x: f64| V::Scalar::from_f64(x);
    // The largest accepted extent (`Real::MAX_COORD`; beyond it constructors refuse).
    let huge = V::Scalar::MAX_COORD.to_f64();
    let shapes: [S; 3] = [
        Ball::new(V::ZERO, s(huge)).expect("finite").into(),
        Capsule::new(V::ZERO, V::splat(s(1.0)), s(huge))
            .expect("finite")
            .into(),
        Aabb::from_center(V::ZERO, V::splat(s(huge)))
            .expect("finite")
            .into(),
    ];
    let finite = pose(0.0);
    for bad in [pose(f64::INFINITY), pose(f64::NEG_INFINITY), pose(f64::NAN)] {
        for a in &shapes {
            for b in &shapes {
                for (pa, pb) in [(&bad, &finite), (&finite, &bad)] {
                    assert!(!dispatch::intersects(pa, a, pb, b), "intersects at {pa:?}");
                    let c = dispatch::contact(pa, a, pb, b, s(1.0));
                    assert!(c.is_none(), "contact {c:?} at {pa:?}");
                    assert!(
                        dispatch::distance(pa, a, pb, b).is_nan(),
                        "distance at {pa:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn non_finite_pose_gives_the_documented_answers() {
    non_finite_pose::<isect::d2::Vec2, shape_2d::Shape<f32>>(|x| {
        Pose2::new(isect::d2::Vec2::new(x as f32, 0.0), 0.3)
    });
    non_finite_pose::<isect::d2_f64::DVec2, shape_2d::Shape<f64>>(|x| {
        Pose2::new(isect::d2_f64::DVec2::new(x, 0.0), 0.3)
    });
    non_finite_pose::<isect::d3::Vec3, shape_3d::Shape<f32>>(|x| {
        Pose3::new(
            isect::d3::Vec3::new(x as f32, 0.0, 0.0),
            isect::d3::Quat::IDENTITY,
        )
    });
    non_finite_pose::<isect::d3_f64::DVec3, shape_3d::Shape<f64>>(|x| {
        Pose3::new(
            isect::d3_f64::DVec3::new(x, 0.0, 0.0),
            isect::d3_f64::DQuat::IDENTITY,
        )
    });
}
