//! Found by the `hull` fuzz target (3D f64, `fuzz_artifacts::hull_b913de95`): five
//! points, one 3.6e5 away along (−1, −1, −1), one 1e5 away along −x, three within
//! 8.6e-3 of the origin. Quickhull built the face C, B, A (C far, A and B near the
//! origin): its normal, the cross product of the two 3.6e5-long edges at C that are
//! 1e-8 rad apart, was tilted enough to put the origin 1.2e-3 inside the face, where
//! it is 4.7e-7 outside (200 times the thick-plane tolerance), so the hull lost the
//! origin. Fixed: quickhull takes each face's normal at the corner opposite its
//! longest edge (`algo/hull_3d.rs`), as `ConvexPolyhedron` does for its planes.

use glam::DVec3;
use isect::algo::hull_3d::convex_hull_3d;
use isect::shape::ConvexPolyhedron;

/// O, A, B near the origin, C and D far away.
fn points() -> [DVec3; 5] {
    [
        DVec3::ZERO,
        DVec3::new(
            -7.771561172376097e-17,
            9.999999999999965e-6,
            0.008588235294117647,
        ),
        DVec3::new(-9.6875e-6, -9.027114234718622e-6, -9.882202225279744e-6),
        DVec3::new(
            -356862.74509771465,
            -356862.74509803916,
            -356862.74509803916,
        ),
        DVec3::new(-101638.61443014699, -1.3728462811002375e-14, 0.0),
    ]
}

/// The hull's faces are the exact ones: OAC, OAD, OBC, OBD, ACD, BCD (found by exact
/// rational orientation tests of every triple; all five points are vertices).
#[test]
fn sliver_hull_has_the_exact_faces() {
    let pts = points();
    let hull = convex_hull_3d(&pts).expect("five independent points");
    let id = |v: DVec3| pts.iter().position(|&p| p == v).expect("an input point");
    let mut faces: Vec<[usize; 3]> = hull
        .triangles
        .iter()
        .map(|t| {
            let mut f = t.map(|i| id(hull.vertices[i]));
            f.sort_unstable();
            f
        })
        .collect();
    faces.sort_unstable();
    let (o, a, b, c, d) = (0, 1, 2, 3, 4);
    let mut exact = vec![
        [o, a, c],
        [o, a, d],
        [o, b, c],
        [o, b, d],
        [a, c, d],
        [b, c, d],
    ];
    exact.iter_mut().for_each(|f| f.sort_unstable());
    exact.sort_unstable();
    assert_eq!(faces, exact);
}

/// The polyhedron contains every input point (within its documented slack).
#[test]
fn sliver_polyhedron_keeps_its_points() {
    let pts = points();
    let poly = ConvexPolyhedron::<f64>::from_points(&pts).expect("five independent points");
    for p in pts {
        assert!(
            poly.contains_point(p),
            "{p:?}: {}",
            poly.max_face_distance(p)
        );
    }
}
