//! Found by the constructor sweep (case seed 0xc3a366bc151316d7, 2D f32): `Plane::new`
//! with a normal of tiny components (squares in the subnormal range) returned a
//! "unit" normal of length 1.004; `Vector::try_normalize` had the same flaw, and
//! for a vector whose squared length overflows it returned `Some(ZERO)`. Fixed by
//! rescaling by the largest component before taking the length.

use isect::math::{Real, Vector};
use isect::shape::Plane;

fn unit_len<V: Vector>(v: V) -> f64 {
    (v.length().to_f64() - 1.0).abs()
}

/// Tiny components: `x² + y²` underflows to a subnormal (f32) or zero.
fn tiny_and_huge<V: Vector>() {
    let tol = 8.0 * V::Scalar::EPSILON.to_f64();
    let single = V::Scalar::EPSILON.to_f64() > 1e-10;
    let (tiny, huge) = if single {
        (1e-21, 3e19)
    } else {
        (3e-160, 3e155)
    };
    for scale in [tiny, huge] {
        let v = V::splat(V::Scalar::from_f64(scale)).with(0, V::Scalar::from_f64(0.5 * scale));
        let n = v
            .try_normalize()
            .expect("a non-zero finite vector normalises");
        assert!(unit_len(n) <= tol, "try_normalize({v:?}) = {n:?}");
        let p = Plane::new(v, V::Scalar::ONE).expect("a valid plane");
        assert!(
            unit_len(p.normal()) <= tol,
            "Plane::new({v:?}) normal {:?}",
            p.normal()
        );
    }
}

#[test]
fn tiny_and_huge_vectors_normalise_to_unit() {
    tiny_and_huge::<isect::d2::Vec2>();
    tiny_and_huge::<isect::d3::Vec3>();
    tiny_and_huge::<isect::d2_f64::DVec2>();
    tiny_and_huge::<isect::d3_f64::DVec3>();
}

/// A normal like the sweep's: components 3e-22 and 1e-21 in f32.
#[test]
fn plane_with_subnormal_squares() {
    let p = Plane::new(isect::d2::Vec2::new(3e-22, 1e-21), 1.0).expect("valid");
    assert!(unit_len(p.normal()) <= 1e-6, "{p:?}");
}
