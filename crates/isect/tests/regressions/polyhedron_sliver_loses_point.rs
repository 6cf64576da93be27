//! Found by the `hull` fuzz target (3D f64), after the fixes above: a sliver of five
//! points, two of them 2.7e-11 apart (beyond the hull's thick-plane tolerance of
//! about 7e-13), gives a `ConvexPolyhedron::from_points` that does not contain the
//! input point at the origin: the plane of the hull triangle (4, −4, −99.7), the
//! 2.7e-11 point, the origin was the cross product of its two long, almost parallel
//! edges, which cancelled. Fixed in `shape/convex_polyhedron.rs`: a triangle's plane
//! is taken at the corner opposite its longest edge.

use isect::d3_f64::DVec3;
use isect::shape::ConvexPolyhedron;

#[test]
fn sliver_polyhedron_contains_its_input() {
    let pts = [
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(2.3283064365386965e-15, 99.62465763621609, -0.0),
        DVec3::new(2.3283064365386965e-15, 99.62465763621609, -0.0),
        DVec3::new(4.0, -4.0, -99.67804551124571),
        DVec3::new(2.7036294305560206e-11, 0.0, 0.0),
    ];
    let Ok(poly) = ConvexPolyhedron::<f64>::from_points(&pts) else {
        return; // refusing the sliver as flat would be a valid answer
    };
    for p in pts {
        let d = poly.max_face_distance(p);
        assert!(poly.contains_point(p), "{p} outside by {d}: {poly:?}");
    }
}
