//! Found by the `composite_queries` sweep (case seed 0x7467949be3bf3b2, 3D f64): a
//! heightfield with an x scale of 1.8e-24 has triangles 77 long, 3e-4 wide and
//! 6e-25 thick. A ray hits one of them at a point of the triangle, and projecting
//! that point back onto the triangle (`ProjectPoint` for `Triangle`, by GJK through
//! `project_by_support`) lands 1.4e-4 away: 1.8e-6 of the triangle's size, a hundred
//! times GJK's documented `√ε` floor. Fixed in session 3 for triangles and segments,
//! which now project by their closed-form closest point (Ericson 5.1.5, 5.1.2). Still
//! open: the thin cylinder below (`ProjectPoint` by `project_by_support`, GJK / EPA).

use isect::d3_f64::DVec3;
use isect::math::{Isometry, Pose3};
use isect::query::ProjectPoint;
use isect::shape::Triangle;

#[test]
fn point_on_sliver_triangle_projects_onto_itself() {
    let tri = Triangle {
        a: DVec3::new(
            -2.95277759929714e-25,
            0.00027373177371382466,
            -0.0001477271753632098,
        ),
        b: DVec3::new(-2.95277759929714e-25, -0.0, 0.00014772717536320974),
        c: DVec3::new(
            2.952777599297139e-25,
            76.97696574385542,
            -0.0001477271753632098,
        ),
    };
    // In the (y, z) plane the triangle spans z ∈ [-1.48e-4, -8.1e-5] at y = 59.7: the
    // point is inside it, and its x is within the triangle's ±3e-25 thickness.
    let p = DVec3::new(
        1.6271202803269634e-25,
        59.697518038375584,
        -0.0001261646217916233,
    );
    let id = Pose3::<f64>::IDENTITY;
    let q = tri.project_point(&id, p, false).point;
    let size = 77.0;
    assert!(
        q.distance(p) <= 1e-9 * size,
        "projected {q} is {} away",
        q.distance(p)
    );
}

/// The same in `f32` (composite_queries sweep, 3D f32): a heightfield triangle 1e6
/// tall and 1.5 wide; a point of it (a ray hit, which `f64` confirms lies on it
/// within 1.4e-6) projects 1,178 away: 1.2e-3 of the triangle's size, where
/// `√ε · size` is 345.
#[test]
fn point_on_tall_f32_triangle_projects_onto_itself() {
    use glam::Vec3;
    let tri = Triangle {
        a: Vec3::new(0.0, 991845.1, 24.670082),
        b: Vec3::new(1.5, -2.1176703, 24.670082),
        c: Vec3::new(1.5, 24642.594, -24.670082),
    };
    let p = Vec3::new(1.4266467, 57577.047, 6.5000296);
    let id = Pose3::<f32>::IDENTITY;
    let q = tri.project_point(&id, p, false).point;
    let sqrt_eps_size = f32::EPSILON.sqrt() * 991845.1;
    assert!(
        q.distance(p) <= sqrt_eps_size,
        "projected {q} is {} away",
        q.distance(p)
    );
}

/// The same for a thin cylinder (`composite_queries` fuzz target, 3D f64): radius
/// 1.8e-4, half height 27.3, turned about its own axis (y) by the part pose of a
/// compound. The point (3.2e-6, 0.48, −5e-5) is 5e-5 from the axis, inside (the ray
/// cast agrees: a still ray there hits at `t = 0`), yet `project_point` with
/// `solid = true` moved it 7.3e-5 when GJK answered; the cylinder now projects in
/// closed form.
#[test]
fn point_in_thin_cylinder_projects_onto_itself() {
    use isect::shape::Cylinder;
    let cyl = Cylinder::<f64>::new(27.34375, 0.00018039215686258125).expect("valid");
    let pose = Pose3::<f64> {
        rotation: glam::DQuat::from_xyzw(-0.0, -0.9839859468739369, -0.0, -0.17824605564949209),
        translation: DVec3::ZERO,
    };
    let p = DVec3::new(
        3.1833910034573135e-6,
        0.48253676470588047,
        -4.987312572073867e-5,
    );
    let radial = (p.x * p.x + p.z * p.z).sqrt();
    assert!(
        radial < cyl.radius() && p.y.abs() < cyl.half_height(),
        "inside"
    );
    let q = cyl.project_point(&pose, p, true);
    assert!(
        q.is_inside && q.point.distance(p) <= 1e-12,
        "projected to {q:?}"
    );
}
