//! Found by the hull sweep (case seed 0x2755ba26ed4c4835, 3D f32): quickhull dropped
//! an input point lying within the thick-plane tolerance of a face of the start
//! tetrahedron (61 units beyond an edge whose two faces were nearly coplanar); once
//! those faces were replaced, the point was 60 units outside the hull. Fixed by a
//! final pass that hands every input point to the finished faces and resumes the
//! main loop when one is still above a face (`HULL_3D_MAX_PASSES` passes at most).

use isect::algo::hull_3d::{convex_hull_3d, HULL_3D_PLANE_ULPS};
use isect::d3::Vec3;
use isect::shape::ConvexPolyhedron;

/// A thin sliver of points up to 5.4e5 away, with one point 60 above its flat side.
const POINTS: [[f32; 3]; 13] = [
    [-0.00090422225, 4.1167776e-5, 0.0002973037],
    [31.2832, -0.060363583, -0.00079318596],
    [3.9470026e-5, 52.348984, 0.45285317],
    [65871.94, -0.009076929, -351.7683],
    [65871.94, -0.009076929, -351.7683],
    [1661.2272, -1.0, -539064.3],
    [-6.408373, -0.0005615352, 60.462708],
    [1.5025657e-6, -8.59909, 5.616396e-5],
    [27124.8, -190.22595, 5.1883208e-6],
    [-224.63559, 0.8515602, 6.372688e-6],
    [7.4105797, 674.58936, -736.55963],
    [-3.062389e-5, -3094.4744, -195991.03],
    [0.016293636, -57.84474, -0.06204218],
];

/// No input point is farther above a hull triangle (evaluated in f64) than the
/// thick-plane tolerance, with a factor 4 for the rounding of the f32 input.
#[test]
fn every_input_point_is_under_every_hull_face() {
    let pts: Vec<Vec3> = POINTS.iter().map(|&p| Vec3::from_array(p)).collect();
    let hull = convex_hull_3d(&pts).expect("a solid cloud");
    let tol = 4.0 * HULL_3D_PLANE_ULPS * f32::EPSILON as f64 * 539064.3;
    for t in &hull.triangles {
        let [a, b, c] = t.map(|i| hull.vertices[i].as_dvec3());
        let n = (b - a).cross(c - a).normalize();
        for p in &pts {
            let h = n.dot(p.as_dvec3() - a);
            assert!(h <= tol, "{p} is {h} above hull triangle {t:?}");
        }
    }
    let poly = ConvexPolyhedron::<f32>::from_points(&pts).expect("a solid cloud");
    for p in &pts {
        let d = poly.max_face_distance(*p) as f64;
        assert!(d <= tol, "{p} is {d} outside the polyhedron");
    }
}
