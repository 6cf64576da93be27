//! Found by the `hull` fuzz target (2D f32): `ConvexPolygon::new` accepted an outline
//! with an edge 1e-26 long beside edges 5e4 long, and its edge normal was
//! `(-inf, NaN)` (the squared length underflowed to 0); the polygon then did not
//! contain its own vertex (0, 0). Fixed by normalising edges with the rescaling
//! `Vector::try_normalize`.

use isect::d2::Vec2;
use isect::shape::ConvexPolygon;

#[test]
fn tiny_edge_has_a_unit_normal() {
    let pts = [
        Vec2::new(0.0, 0.0),
        Vec2::new(9294.117, -47843.137),
        Vec2::new(47843.137, 0.01),
        Vec2::new(-0.0, 1e-26),
    ];
    let p = ConvexPolygon::<f32>::new(&pts).expect("a convex outline");
    for n in p.normals() {
        assert!((n.length() - 1.0).abs() <= 1e-6, "normal {n} of {p:?}");
    }
    for q in pts {
        assert!(p.contains_point(q), "{q} outside {p:?}");
    }
}
