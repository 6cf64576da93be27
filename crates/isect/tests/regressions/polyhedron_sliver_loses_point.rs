//! Found by the `hull` fuzz target (3D f64), after the fixes above: a sliver of five
//! points, two of them 2.7e-11 apart (beyond the hull's thick-plane tolerance of
//! about 7e-13), gives a `ConvexPolyhedron::from_points` that does not contain the
//! input point at the origin. Not fixed yet (the merging of coplanar hull triangles
//! into faces is the suspect).

use isect::d3_f64::DVec3;
use isect::shape::ConvexPolyhedron;

#[test]
#[ignore = "open: a polyhedron from a 2.7e-11-thin sliver does not contain its input point"]
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
