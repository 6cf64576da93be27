//! Found by the `decomposition` fuzz target (2D f64): a triangle with a star-shaped
//! hole, 1e-5 across; one hole vertex is the origin and two others lie on the
//! x axis with an outer vertex (collinear). The decomposition's pieces added up to
//! 4.83e-11 where the polygon's area is 4.57e-11: the piece (1.88e-6, 6.8e-7),
//! (−1.53e-6, 1.29e-6), (0, 0) covered part of the hole. The same rings scaled by 1e6
//! decomposed correctly, so a rounded orientation sign of the bridging or the ear
//! clipping decided wrongly. Session 3 refused these rings (`PIECES_AREA_ULPS`);
//! session 4 made the orientation signs exact (`shape/concave_polygon/geometry.rs`),
//! and the rings now decompose exactly at both scales.

use glam::DVec2;
use isect::shape::ConcavePolygon;

/// Twice the signed area of a ring.
fn area(v: &[DVec2]) -> f64 {
    (0..v.len())
        .map(|i| v[i].perp_dot(v[(i + 1) % v.len()]))
        .sum::<f64>()
        / 2.0
}

/// The pieces of the polygon at `scale` and the relative gap of their total area.
fn area_gap(scale: f64) -> f64 {
    let outer = [
        (-6.999999987228875e-6, -0.0),
        (3.499999993614436e-6, -6.062177815430952e-6),
        (2.5620127836866346e-6, 4.4375363109862175e-6),
    ];
    let hole = [
        (-1.5320888834427415e-6, 1.2855752170276163e-6),
        (-0.0, 0.0),
        (9.999999981755545e-7, 1.7320508044088429e-6),
        (1.8793852381429796e-6, 6.840402854033425e-7),
        (1.8793852381429791e-6, -6.84040285403343e-7),
        (9.999999981755532e-7, -1.7320508044088437e-6),
        (-3.4729635470023727e-7, -1.9696155024309584e-6),
        (-7.181666641415452e-8, -6.02613383004988e-8),
        (-1.9999999963511073e-6, -0.0),
    ];
    let ring = |r: &[(f64, f64)]| -> Vec<DVec2> {
        r.iter().map(|&(x, y)| DVec2::new(x, y) * scale).collect()
    };
    let poly = ConcavePolygon::<f64>::new(ring(&outer), vec![ring(&hole)]).expect("valid rings");
    let pieces: f64 = poly.pieces().iter().map(|p| area(p.vertices())).sum();
    (pieces - poly.area()).abs() / poly.area()
}

/// The rings at scale 1e6: the pieces cover the polygon exactly.
#[test]
fn scaled_rings_decompose_exactly() {
    assert!(area_gap(1e6) <= 1e-12, "gap {}", area_gap(1e6));
}

/// The rings as found: the pieces cover the polygon exactly too.
#[test]
fn tiny_rings_decompose_exactly() {
    assert!(area_gap(1.0) <= 1e-12, "gap {}", area_gap(1.0));
}
