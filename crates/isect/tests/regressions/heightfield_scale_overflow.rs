//! Found by the CLI work: `heightfield_3d::HeightField::new` checked the heights and the
//! scale apart, so a finite height times a finite `scale.y` that overflows to infinity
//! was accepted and gave an infinite box. The constructor must refuse it, naming the
//! height's index.

use isect::math::Real;
use isect::shape::heightfield_3d::HeightField;
use isect::ShapeError;

/// A 2 × 2 grid whose height 3 (index 3) times `scale.y` (at the limit
/// `Real::MAX_COORD`) overflows: refused at index 3.
fn overflowing_product<R: Real>(big: f64) {
    let r = R::from_f64;
    let heights = vec![r(0.0), r(1.0), r(-1.0), r(big)];
    let scale = <R::V3 as isect::math::Vector3>::new(r(1.0), R::MAX_COORD, r(1.0));
    let err = HeightField::<R>::new(heights, 2, 2, scale).expect_err("height × scale.y = ∞");
    assert_eq!(
        err,
        ShapeError::NotFiniteAt {
            shape: "HeightField",
            field: "heights",
            index: 3
        },
        "{err}"
    );
}

#[test]
fn heightfield_scaled_height_overflow_is_refused() {
    overflowing_product::<f32>(1e38);
    overflowing_product::<f64>(1e300);
}

/// A finite product beyond `Real::MAX_COORD` is refused naming the height's index
/// (height 1e18 × scale 1e7 in f32), and a scale beyond the limit names the scale.
#[test]
fn heightfield_large_finite_product_is_refused() {
    let heights = vec![0.0f32, 1.0, 2.0, 1e18];
    let scale = glam::Vec3::new(1.0, 1e7, 1.0);
    let err = HeightField::<f32>::new(heights.clone(), 2, 2, scale).unwrap_err();
    assert!(
        matches!(
            err,
            ShapeError::TooLarge {
                field: "heights · scale.y",
                index: Some(3),
                ..
            }
        ),
        "{err:?}"
    );
    let err = HeightField::<f32>::new(heights, 2, 2, glam::Vec3::new(1.0, 1e19, 1.0)).unwrap_err();
    assert!(
        matches!(err, ShapeError::TooLarge { field: "scale", .. }),
        "{err:?}"
    );
}
