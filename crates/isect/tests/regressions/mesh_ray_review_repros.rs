//! Found by a review (helper, session 33), fixed in session 34; the classes are tested
//! in `tests/mesh_ray_precision.rs`:
//!
//! - an `f32` ray aimed at a vertex of a solid icosahedron from about 100 radii away
//!   slipped through the surface (t = 101.67, the far side, for 100): the kernel's
//!   rounding grows with the ray's travel and the tree's box padding did not;
//! - a tiny triangle's `t` underflowed: `(0,0,0), (s,0,0), (0,s,0)` hit straight down
//!   from `(s/4, s/4, 10s)` gave `t = 0` for `s = 1e-120` (`f64`) and `1e-17` (`f32`),
//!   and no hit at `1e-200`.

use isect::math::{Real, Vector3};
use isect::query::RayCast;
use isect::shape::{Ray, TriMesh, TriMeshFlags, Triangle};

/// The icosahedron `(±a, ±b, 0), (0, ±a, ±b), (±b, 0, ±a)`, faces outward.
fn icosahedron() -> TriMesh<f32> {
    let (a, b) = (0.525_731_1_f32, 0.850_650_8_f32);
    let mut v = Vec::new();
    for (s, t) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] {
        v.push(glam::Vec3::new(s * a, t * b, 0.0));
        v.push(glam::Vec3::new(0.0, s * a, t * b));
        v.push(glam::Vec3::new(t * b, 0.0, s * a));
    }
    let edge = 2.0 * a;
    let near = |i: usize, j: usize| (v[i].distance(v[j]) - edge).abs() < 1e-3;
    let mut faces = Vec::new();
    for i in 0..12 {
        for j in i + 1..12 {
            for k in j + 1..12 {
                if near(i, j) && near(j, k) && near(i, k) {
                    let n = (v[j] - v[i]).cross(v[k] - v[i]);
                    let out = n.dot(v[i] + v[j] + v[k]) > 0.0;
                    faces.push(if out { [i, j, k] } else { [i, k, j] }.map(|x| x as u32));
                }
            }
        }
    }
    assert_eq!(faces.len(), 20);
    TriMesh::new(v, faces, TriMeshFlags::SOLID).expect("a closed icosahedron")
}

#[test]
fn f32_ray_at_a_vertex_from_far_away_enters_there() {
    let mesh = icosahedron();
    let ray = Ray::new(
        glam::Vec3::new(63.122_55, 29.921_31, -72.823_21),
        glam::Vec3::new(-0.622_719, -0.299_213_1, 0.722_974_8),
    )
    .unwrap();
    // The ray reaches the vertex (b, 0, −a) at t = 100.
    let t = mesh.cast_ray(&ray, f32::INFINITY).expect("a hit").t;
    assert!((t - 100.0).abs() < 1e-3, "t = {t}");
    let all = mesh.cast_ray_all(&ray, f32::INFINITY);
    assert!(
        (all[0].t - 100.0).abs() < 1e-3,
        "first of all: {}",
        all[0].t
    );
}

fn tiny_triangle_hit<R: Real>(s: f64) {
    let p = |x: f64, y: f64, z: f64| R::V3::new(R::from_f64(x), R::from_f64(y), R::from_f64(z));
    let corners = [p(0.0, 0.0, 0.0), p(s, 0.0, 0.0), p(0.0, s, 0.0)];
    let ray = Ray::new(p(s / 4.0, s / 4.0, 10.0 * s), p(0.0, 0.0, -1.0)).unwrap();
    let want = R::from_f64(10.0 * s).to_f64();
    let tri = Triangle::new(corners[0], corners[1], corners[2]).unwrap();
    let mesh = TriMesh::<R>::new(corners.to_vec(), vec![[0, 1, 2]], TriMeshFlags::OPEN).unwrap();
    for (what, hit) in [
        ("triangle", tri.cast_ray(&ray, R::INFINITY)),
        ("mesh", mesh.cast_ray(&ray, R::INFINITY)),
    ] {
        let t = hit
            .unwrap_or_else(|| panic!("{what} missed at s = {s:e}"))
            .t
            .to_f64();
        assert!(
            (t / want - 1.0).abs() < 1e-6,
            "{what} at s = {s:e}: t = {t:e}"
        );
    }
}

#[test]
fn tiny_triangles_are_hit_at_their_t() {
    for s in [1e-120, 1e-200, 1e-300] {
        tiny_triangle_hit::<f64>(s);
    }
    for s in [1e-17, 1e-30] {
        tiny_triangle_hit::<f32>(s);
    }
}
