//! Found by the `decomposition` fuzz target (`fuzz_artifacts::decomposition_1b843d0d`):
//! an `f32` concave polygon about 1e-22 across whose orientation products (~1e-45) are
//! subnormal gave a reflex piece. Fixed by refusing polygons whose extent `s` has
//! `s² · ε` below the smallest normal number (`ShapeError::OutOfRange` naming the
//! extent); above that floor the decomposition must be right. Checked here on a star
//! with a hole at tiny scales in `f32` and `f64`: a clear error or correct pieces,
//! never a wrong shape.

use isect::math::{Real, Vector, Vector2};
use isect::shape::concave_polygon::PIECES_AREA_ULPS;
use isect::shape::{ConcavePolygon, ShapeError};

/// Signed area of a ring, in `f64`.
fn area<V: Vector2>(ring: &[V]) -> f64 {
    let n = ring.len();
    (0..n)
        .map(|i| {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            a.x().to_f64() * b.y().to_f64() - b.x().to_f64() * a.y().to_f64()
        })
        .sum::<f64>()
        / 2.0
}

/// A 10-point star (radii alternating 1 and 0.45, reflex vertices) with a triangular
/// hole of radius 0.2, scaled so that the star is `across` wide.
fn star_with_hole<R: Real>(across: f64) -> (Vec<R::V2>, Vec<R::V2>) {
    let point = |r: f64, a: f64| {
        let s = across / 2.0;
        R::V2::new(R::from_f64(r * a.cos() * s), R::from_f64(r * a.sin() * s))
    };
    let outer = (0..10)
        .map(|k| {
            point(
                if k % 2 == 0 { 1.0 } else { 0.45 },
                0.3 + k as f64 * 0.2 * std::f64::consts::PI,
            )
        })
        .collect();
    let hole = (0..3)
        .map(|k| point(0.2, 0.1 + k as f64 * 2.0 / 3.0 * std::f64::consts::PI))
        .collect();
    (outer, hole)
}

/// Each piece turns left at every vertex (in `f64`, within `64 ε` of its edges).
fn assert_convex<V: Vector2>(piece: &[V], eps: f64) {
    let n = piece.len();
    let f = |v: V| (v.x().to_f64(), v.y().to_f64());
    for i in 0..n {
        let (a, b, c) = (f(piece[i]), f(piece[(i + 1) % n]), f(piece[(i + 2) % n]));
        let (e1, e2) = ((b.0 - a.0, b.1 - a.1), (c.0 - b.0, c.1 - b.1));
        let turn = e1.0 * e2.1 - e1.1 * e2.0;
        let slack = 64.0 * eps * e1.0.hypot(e1.1) * e2.0.hypot(e2.1);
        assert!(turn >= -slack, "reflex at {b:?}: {piece:?}");
    }
}

/// The documented outcome at `across`: refused (the extent named) below the floor,
/// otherwise convex pieces made of the polygon's vertices whose areas add up to the
/// polygon's. Returns whether the polygon was accepted.
fn check<R: Real>(across: f64) -> bool {
    let (outer, hole) = star_with_hole::<R>(across);
    let eps = R::EPSILON.to_f64();
    let (lo, hi) = outer
        .iter()
        .fold((outer[0], outer[0]), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    let extent = (hi - lo).max_element().to_f64();
    let below_floor = extent * extent * eps < R::MIN_POSITIVE.to_f64();
    let expected_area = area(&outer) - area(&hole).abs();
    let vertices: Vec<R::V2> = outer.iter().chain(&hole).copied().collect();
    match ConcavePolygon::<R>::new(outer, vec![hole]) {
        Err(ShapeError::OutOfRange { field, value, .. }) if below_floor => {
            assert!(field.starts_with("outer"), "{field}");
            assert_eq!(value, extent, "the error names the extent");
            false
        }
        Err(e) => panic!("{across} across: unexpected error {e}"),
        Ok(_) if below_floor => panic!("{across} across (extent {extent}) accepted"),
        Ok(poly) => {
            let tol = PIECES_AREA_ULPS * eps * expected_area;
            let mut sum = 0.0;
            for piece in poly.pieces() {
                assert_convex(piece.vertices(), eps);
                assert!(piece.vertices().iter().all(|v| vertices.contains(v)));
                sum += area(piece.vertices());
            }
            assert!(
                (sum - expected_area).abs() <= tol,
                "{sum} vs {expected_area}"
            );
            let own = poly.area().to_f64();
            assert!(
                (own - expected_area).abs() <= tol,
                "{own} vs {expected_area}"
            );
            true
        }
    }
}

/// A star with a hole 1e-12 .. 1e-30 across: `f32` refuses from 1e-18 down (its floor
/// is 3.1e-16) and decomposes correctly above; `f64` decomposes them all.
#[test]
fn tiny_polygons_are_refused_or_decomposed_correctly() {
    for across in [1e-12, 1e-15, 1e-18, 1e-22, 1e-30] {
        assert_eq!(check::<f32>(across), across > 1e-16, "f32, {across} across");
        assert!(check::<f64>(across), "f64, {across} across");
    }
}

/// Near `f64`'s floor (1.0e-146): 1e-140 is decomposed, 1e-150 refused.
#[test]
fn f64_floor() {
    assert!(check::<f64>(1e-140));
    assert!(!check::<f64>(1e-150));
}

/// The rings of `fuzz_artifacts::decomposition_1b843d0d` (`f32`, 1.8e-22
/// across): refused with the extent named, instead of decomposed into a reflex piece.
#[test]
fn artifact_rings_are_refused() {
    let v = |x: f32, y: f32| glam::Vec2::new(x, y);
    let outer = vec![
        v(-9e-23, -0.0),
        v(-7.571282e-23, -4.8657676e-23),
        v(-3.7387353e-23, -8.186688e-23),
        v(1.2808335e-23, -8.908393e-23),
        v(5.893747e-23, -6.801746e-23),
        v(7.0639976e-23, -2.0741767e-23),
        v(4.7974652e-23, 1.4086628e-23),
        v(4.5840253e-23, 5.2902473e-23),
        v(1.2808335e-23, 8.908393e-23),
        v(-3.7383295e-23, 8.1858e-23),
        v(-6.198884e-23, 3.983781e-23),
    ];
    let hole = vec![
        v(-1.1843138e-23, 2.0512917e-23),
        v(1.1843138e-23, 2.0512917e-23),
        v(2.3686276e-23, -2.900733e-39),
        v(2.0000002e-23, -3.4641015e-23),
        v(-2.0000002e-23, -3.4641015e-23),
        v(-2.4623774e-23, -0.0),
    ];
    let err = ConcavePolygon::<f32>::new(outer, vec![hole]).expect_err("refused");
    let ShapeError::OutOfRange { field, value, .. } = err else {
        panic!("{err}");
    };
    assert!(field.starts_with("outer"), "{field}");
    // The extent: the height, from y = -8.908393e-23 to 8.908393e-23.
    assert_eq!(value, (2.0 * 8.908393e-23f32) as f64);
}
