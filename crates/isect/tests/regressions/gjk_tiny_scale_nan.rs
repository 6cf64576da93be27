//! Found by the `pair`, `cast` and `manifold` fuzz targets (3D f32): a cone or a
//! cylinder about 1e-11 across with a zero-radius ball at its centre gave NaN witness
//! points (closest points, cast hit, manifold point); at 1e-11 the distance was 1.9e-13
//! where the point is inside (0 expected) and the contact was missing. The squared
//! areas and volumes of GJK's simplex underflowed in `f32` at that scale (0/0
//! weights). Fixed: the simplex solver and EPA's witness weights work on coordinates
//! rescaled by a power of two to about unit size (`gjk::SOLVER_SCALE_EXP`).

use isect::d3::{Quat, Vec3};
use isect::math::Pose3;
use isect::query::dispatch;
use isect::shape::shape_3d::Shape;
use isect::shape::{Ball, Cone, Cylinder};

/// Tiny cone and cylinder, a point at their centre, one shared rotation.
#[test]
fn tiny_shapes_give_finite_witness_points() {
    let q = Quat::from_xyzw(-0.98398596, -0.0, -0.0, -0.17824605);
    let p = Pose3::new(Vec3::ZERO, q);
    let point: Shape<f32> = Ball::new(Vec3::ZERO, 0.0).expect("finite").into();
    let cone: Shape<f32> = Cone::new(6.813451e-11, 2.553513e-12)
        .expect("finite")
        .into();
    let cylinder: Shape<f32> = Cylinder::new(1.7649476e-12, 2.3841857e-11)
        .expect("finite")
        .into();
    for s in [&cone, &cylinder] {
        let cp = dispatch::closest_points(&p, s, &p, &point);
        assert!(cp.point_a.is_finite() && cp.point_b.is_finite(), "{cp:?}");
        assert_eq!(cp.distance, 0.0, "the point is inside: {cp:?}");
        let c = dispatch::contact(&p, s, &p, &point, 0.0).expect("the point is inside");
        assert!(c.point_a.is_finite() && c.point_b.is_finite(), "{c:?}");
        let hit = dispatch::cast_shapes(&p, Vec3::ZERO, s, &p, Vec3::ZERO, &point, 1.0);
        let hit = hit.expect("overlapping at time 0");
        assert!(
            hit.point_a.is_finite() && hit.point_b.is_finite(),
            "{hit:?}"
        );
    }
}
