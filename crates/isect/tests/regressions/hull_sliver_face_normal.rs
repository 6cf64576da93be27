//! Found by the `hull` fuzz target (3D f64, `fuzz_artifacts::hull_b913de95`): five
//! points, one 3.6e5 away along (−1, −1, −1), one 1e5 away along −x, three within
//! 8.6e-3 of the origin. Quickhull built the face C, B, A (C far, A and B near the
//! origin): its normal, the cross product of the two 3.6e5-long edges at C that are
//! 1e-8 rad apart, was tilted enough to put the origin 1.2e-3 inside the face, where
//! it is 4.7e-7 outside (200 times the thick-plane tolerance), so the hull lost the
//! origin. Fixed: quickhull takes each face's normal at the corner opposite its
//! longest edge (`algo/hull_3d.rs`), as `ConvexPolyhedron` does for its planes.
//!
//! Then (session 4 re-run, `fuzz_artifacts::hull_e47509b0`): the origin, a point P
//! 4.1e-7 from it, and three points 2 to 4e5 away, two of them repeated. Within the
//! thick-plane tolerance the nearly flat quad O, P, A, C may be split along either
//! diagonal; split along P C, the sliver O C P tilts 1e-3 rad and the first copy of A
//! lies 2.8e-3 above it, so the repeat of A became an eye, the hull folded over
//! itself (repeated vertices, the origin 2.9e-7 outside a face) and the polyhedron
//! lost the origin. Fixed: quickhull considers repeated points once.

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
    assert_polyhedron_keeps(&pts, "five independent points");
}

/// The points of `fuzz_artifacts::hull_e47509b0`, repeats included and in their order.
fn repeated_points() -> Vec<DVec3> {
    let o = DVec3::ZERO;
    let a = DVec3::new(-2.0, 1.8626451492309571e-10, 2.313112745451207);
    let b = DVec3::new(-1.0, -403921.5686274509, -4.0);
    let c = DVec3::new(-79.6078431372549, -0.009973296548696454, 79.60783839225769);
    let p = DVec3::new(4.069010416607455e-7, 0.0, 0.0);
    [vec![o, a, a, b, b, b, c], vec![p; 8]].concat()
}

/// Repeats are never hull vertices twice, and the polyhedron keeps every point.
#[test]
fn repeated_points_do_not_fold_the_hull() {
    let pts = repeated_points();
    let hull = convex_hull_3d(&pts).expect("five distinct independent points");
    for (k, v) in hull.vertices.iter().enumerate() {
        assert!(!hull.vertices[..k].contains(v), "{v:?} twice: {hull:?}");
    }
    assert_polyhedron_keeps(&pts, "independent points");
}

/// `fuzz_artifacts::hull_c54b1024` (session 4): a needle face Q, R, S (R 3.5e-10 off
/// the line Q S, 0.35 long; O on it): its rounded normal put S 1.7e-13 outside its
/// plane, 60 times the polyhedron's slack. Now the face normals are accurate cross
/// products (exact 2×2 determinants when rounding could tilt them).
#[test]
fn needle_face_keeps_its_vertices() {
    let pts = [
        DVec3::ZERO,
        DVec3::ZERO,
        DVec3::splat(-3.921568627450967e-6),
        DVec3::new(
            1.5461298907837318e-14,
            -3.33066907387547e-23,
            4.322916666748711e-10,
        ),
        DVec3::splat(0.20392156862745092),
        DVec3::new(0.0999999999999126, 0.0, 7.0191502571105965e-9),
    ];
    assert_polyhedron_keeps(&pts, "independent points");
}

/// The polyhedron built from `pts` (`why` they are independent) contains every one of
/// them within its documented slack.
fn assert_polyhedron_keeps(pts: &[DVec3], why: &str) {
    let poly = ConvexPolyhedron::<f64>::from_points(pts).expect(why);
    for &p in pts {
        assert!(
            poly.contains_point(p),
            "{p:?}: {}",
            poly.max_face_distance(p)
        );
    }
}
