//! Issue 13: a shape inside a `SOLID` `TriMesh` was not reported (a ball of radius 0.1
//! at the centre of a solid octahedron: `intersects` false, `contact` None, although
//! `contains_point` said inside), and two overlapping solid UV spheres (r = 0.5,
//! centres 0.9 apart, ~4k triangles) gave depth 0.047 instead of about 0.1: the
//! triangles' own contacts only see the rim where the surfaces cross. Fixed in
//! `query/composite`: a convex shape whose inner point lies inside a solid mesh gets
//! the contact that pushes it out through the nearest surface, and two solid meshes
//! also measure the deepest vertex of each inside the other.
//!
//! The class: balls and boxes inside solid cube and sphere meshes, partly or wholly,
//! and solid sphere meshes against each other at two resolutions, f32 and f64, scales
//! 1e-3 to 1e5, seeded; against the analytic push-out depth and normal.

use crate::meshes::{bumpy_sphere, cube, MeshData};
use crate::rng::Rng;
use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose3, Real, Rotation3, Vector, Vector3};
use isect::query::dispatch;
use isect::shape::shape_3d::{AnyShape, Shape};
use isect::shape::{Aabb, Ball, TriMesh, TriMeshFlags};

/// The scales of the sweep.
const SCALES: [f64; 6] = [1e-3, 0.1, 1.0, 10.0, 1e3, 1e5];

fn v3<R: Real>(x: f64, y: f64, z: f64) -> R::V3 {
    R::V3::new(R::from_f64(x), R::from_f64(y), R::from_f64(z))
}

fn f<S: Real>(x: S) -> f64 {
    x.to_f64()
}

/// Rounding tolerance at magnitude `m`.
fn tol<R: Real>(m: f64) -> f64 {
    R::EPSILON.to_f64() * 1024.0 * m
}

fn solid<R: Real>(data: &MeshData, k: f64) -> AnyShape<R>
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let vertices = data.map(|p| v3::<R>(p[0] * k, p[1] * k, p[2] * k));
    AnyShape::from(TriMesh::new(vertices, data.indices.clone(), TriMeshFlags::SOLID).unwrap())
}

/// A random unit quaternion.
fn quat<R: Real>(rng: &mut Rng) -> R::Quat {
    let axis = v3::<R>(
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
    )
    .try_normalize()
    .unwrap_or(R::V3::unit_axis(1));
    R::Quat::from_axis_angle(axis, R::from_f64(rng.range(-3.2, 3.2)))
}

/// Balls and boxes whose centre is inside the solid cube `[−s, s]³` (placed at a
/// random pose), wholly or partly inside: they intersect, and the contact pushes
/// them out through the face nearest the centre, by the distance to that face plus
/// the shape's extent along its normal.
fn inside_cube<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let mut rng = Rng(0x0005_011d);
    for s in SCALES {
        let mesh = solid::<R>(&cube(), s);
        for case in 0..200 {
            let pm = Pose3::<R>::new(
                v3::<R>(rng.range(-2.0, 2.0), 0.0, 1.0) * R::from_f64(s),
                quat::<R>(&mut rng),
            );
            let local = [0; 3].map(|_| rng.range(-0.8, 0.8) * s);
            // The nearest face's axis and distance, and the runner-up's distance.
            let mut gaps: Vec<(f64, usize)> = (0..3).map(|k| (s - local[k].abs(), k)).collect();
            gaps.sort_by(|x, y| x.0.partial_cmp(&y.0).unwrap());
            let (gap, axis) = gaps[0];
            let sign = local[axis].signum();
            let n_local = R::V3::unit_axis(axis) * R::from_f64(sign);
            let n = pm.transform_vector(n_local);
            let centre = pm.transform_point(v3::<R>(local[0], local[1], local[2]));
            let rot = quat::<R>(&mut rng);
            let (shape, extent) = if case % 2 == 0 {
                let r = rng.range(0.05, 0.5) * s;
                (
                    Shape::Ball(Ball::new(R::V3::ZERO, R::from_f64(r)).unwrap()),
                    r,
                )
            } else {
                let h = v3::<R>(
                    rng.range(0.05, 0.4),
                    rng.range(0.05, 0.4),
                    rng.range(0.05, 0.4),
                ) * R::from_f64(s);
                let hn = rot.inverse().rotate(n).abs().dot(h);
                (
                    Shape::Cuboid(Aabb::from_center(R::V3::ZERO, h).unwrap()),
                    f(hn),
                )
            };
            let pb = Pose3::<R>::new(centre, rot);
            let b = AnyShape::from(shape);
            let what = format!("scale {s} case {case}");
            assert!(
                dispatch::intersects(&pm, &mesh, &pb, &b),
                "{what}: inside but apart"
            );
            let c = dispatch::contact(&pm, &mesh, &pb, &b, R::ZERO).expect("inside: a contact");
            let t = tol::<R>(4.0 * s);
            let expect = gap + extent;
            assert!(
                (f(c.depth) - expect).abs() <= t,
                "{what}: depth {c:?}, expected {expect}"
            );
            if gaps[1].0 - gap > t {
                assert!(
                    f(c.normal.dot(n)) >= 1.0 - 1e-4,
                    "{what}: normal {c:?}, expected {n:?}"
                );
            }
            let gap3 = c.point_a - c.point_b - c.normal * c.depth;
            assert!(f(gap3.length()) <= t, "{what}: {c:?}");
            assert_eq!(dispatch::distance(&pm, &mesh, &pb, &b), R::ZERO, "{what}");
        }
    }
}

#[test]
fn inside_cube_f32() {
    inside_cube::<f32>();
}

#[test]
fn inside_cube_f64() {
    inside_cube::<f64>();
}

/// A UV sphere mesh of radius `r` (`segments × rings`), vertices on the sphere.
fn sphere<R: Real>(segments: u32, rings: u32, r: f64) -> AnyShape<R>
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    solid::<R>(&bumpy_sphere(segments, rings, 0.0), r)
}

/// Two solid UV spheres of radius `0.5 s`, centres `g s` apart along a random
/// direction: the penetration is `(1 − g) s` along the line of centres, within the
/// mesh's chord error `r (π / rings)²`. A small sphere wholly inside a big one
/// intersects it and is pushed out by the big radius less the offset plus the small
/// radius.
fn sphere_meshes<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let mut rng = Rng(0x0050_11d2);
    for (segments, rings) in [(32, 16), (64, 32)] {
        for s in SCALES {
            let (a, b) = (
                sphere::<R>(segments, rings, 0.5 * s),
                sphere::<R>(segments, rings, 0.5 * s),
            );
            let chord = 0.5 * s * (std::f64::consts::PI / rings as f64).powi(2);
            for case in 0..6 {
                let g = rng.range(0.8, 0.95);
                let dir = quat::<R>(&mut rng).rotate(R::V3::unit_axis(0));
                let origin = v3::<R>(rng.range(-1.0, 1.0), 0.0, 0.0) * R::from_f64(s);
                let pa = Pose3::<R>::new(origin, quat::<R>(&mut rng));
                let pb = Pose3::<R>::new(origin + dir * R::from_f64(g * s), quat::<R>(&mut rng));
                let what = format!("{segments}x{rings} scale {s} case {case}");
                let c = dispatch::contact(&pa, &a, &pb, &b, R::ZERO).expect("overlapping");
                let expect = (1.0 - g) * s;
                assert!(
                    (f(c.depth) - expect).abs() <= chord,
                    "{what}: {c:?}, expected depth {expect}"
                );
                assert!(
                    f(c.normal.dot(dir)) >= 0.9,
                    "{what}: normal {c:?} along {dir:?}"
                );
            }
            // A sphere of radius 0.1 s wholly inside, off centre by 0.2 s.
            let small = sphere::<R>(segments, rings, 0.1 * s);
            let pa = Pose3::<R>::new(R::V3::ZERO, quat::<R>(&mut rng));
            let pb = Pose3::<R>::new(v3::<R>(0.2 * s, 0.0, 0.0), quat::<R>(&mut rng));
            assert!(
                dispatch::intersects(&pa, &a, &pb, &small),
                "{segments}x{rings} scale {s}"
            );
            let c = dispatch::contact(&pa, &a, &pb, &small, R::ZERO).expect("inside");
            // Out through the nearest surface: 0.5 − 0.2 + 0.1 of the scale.
            let expect = 0.4 * s;
            assert!(
                (f(c.depth) - expect).abs() <= chord,
                "{segments}x{rings} scale {s}: {c:?}"
            );
        }
    }
}

#[test]
fn sphere_meshes_f32() {
    sphere_meshes::<f32>();
}

#[test]
fn sphere_meshes_f64() {
    sphere_meshes::<f64>();
}
