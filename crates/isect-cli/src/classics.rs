//! `isect classics`: every classic test of the library (the five source documents'
//! tests: slab, separating axes, planes and spheres, containment, ray against plane)
//! run on a worked example, printing each question and its answer. It is a subcommand
//! so that it runs without compiling the library's dev-dependencies.

use std::error::Error;

use crate::error::CliError;
use isect::algo::{sat_2d, sat_3d, slab};
use isect::math::Pose2;
use isect::query::{ball_tests, pipeline, plane_tests, polyhedron_tests, sector_tests, RayCast};

type Res = Result<(), Box<dyn Error>>;

/// Runs every worked example; a failure here is a bug of the examples themselves.
pub fn run() -> Result<(), CliError> {
    let all: [fn() -> Res; 5] = [
        rays_and_segments_against_boxes,
        separating_axes,
        planes_and_spheres,
        points_in_shapes,
        ray_against_plane,
    ];
    for example in all {
        example().map_err(|e| CliError::input(format!("classics: {e}")))?;
    }
    Ok(())
}

fn heading(title: &str) {
    out!("\n== {title}");
}

/// rays and segments against boxes by the slab method, 2D and 3D.
fn rays_and_segments_against_boxes() -> Res {
    use isect::d3::{Aabb, Ray, Vec3};
    heading("Rays and segments against boxes (slab method: entry and exit, rays on a slab plane)");
    let aabb = Aabb::new(Vec3::ZERO, Vec3::ONE)?;
    let ray = Ray::new(Vec3::new(-1.0, 0.5, 0.5), Vec3::new(1.0, 0.0, 0.0))?;
    let hit = slab::ray_aabb(&ray, &aabb, f32::INFINITY);
    out!("ray (-1,.5,.5)+t(1,0,0) vs unit cube: {hit:?}");
    let on_plane = Ray::new(Vec3::new(-1.0, 0.0, 1.0), Vec3::X)?;
    out!(
        "origin on two slab planes, zero dy and dz: hits = {}",
        slab::PreparedRay::new(&on_plane, f32::INFINITY).hits(&aabb)
    );
    let short = isect::d2::Segment::new(
        isect::d2::Vec2::new(-1.0, 0.5),
        isect::d2::Vec2::new(-0.1, 0.5),
    )?;
    let square = isect::d2::Aabb::new(isect::d2::Vec2::ZERO, isect::d2::Vec2::ONE)?;
    out!(
        "2D segment stopping short of the square overlaps: {}",
        slab::segment_overlaps_aabb(&short, &square)
    );
    Ok(())
}

/// AABB, OBB and convex polygons by the separating axis theorem, and the
/// coarse-then-fine pipeline.
fn separating_axes() -> Res {
    use isect::d2::{ConvexPolygon, Obb, Vec2};
    heading("Boxes and polygons by separating axes (2D and 3D OBBs, polygons, the coarse-then-fine pipeline)");
    let a = Obb::from_angle(Vec2::ZERO, Vec2::new(2.0, 1.0), 0.0)?;
    let b = Obb::from_angle(
        Vec2::new(2.5, 1.5),
        Vec2::new(1.0, 1.0),
        std::f32::consts::FRAC_PI_4,
    )?;
    out!("2D OBBs (4 axes): {:?}", sat_2d::obb_obb_mtv(&a, &b));
    let c = isect::d3::Obb::new(
        isect::d3::Vec3::ZERO,
        isect::d3::Vec3::ONE,
        isect::d3::Quat::IDENTITY,
    )?;
    let rot = isect::d3::Quat::from_axis_angle(isect::d3::Vec3::Z, 0.6);
    let d = isect::d3::Obb::new(
        isect::d3::Vec3::new(1.8, 0.5, 0.0),
        isect::d3::Vec3::ONE,
        rot,
    )?;
    out!("3D OBBs (15 axes): {:?}", sat_3d::obb_obb_mtv(&c, &d));
    let tri = ConvexPolygon::new(&[
        Vec2::new(0.0, 0.0),
        Vec2::new(2.0, 0.0),
        Vec2::new(0.0, 2.0),
    ])?;
    let square = ConvexPolygon::new(&[
        Vec2::new(0.0, 0.0),
        Vec2::new(0.0, 1.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(1.0, 0.0),
    ])?;
    let apart = Pose2::new(Vec2::new(3.0, 3.0), 0.0);
    out!(
        "triangle vs square 3 units up-right: {:?}",
        sat_2d::polygon_polygon(&Pose2::default(), &tri, &apart, &square)
    );
    let scene: Vec<(Pose2<f32>, &ConvexPolygon)> = (0..6)
        .map(|i| {
            (
                Pose2::new(Vec2::new(i as f32 * 1.5, 0.0), 0.3 * i as f32),
                &tri,
            )
        })
        .collect();
    let pairs = pipeline::colliding_pairs(&scene);
    let ids: Vec<_> = pairs.iter().map(|p| (p.i, p.j)).collect();
    out!("pipeline, 6 triangles in a row: colliding pairs {ids:?}");
    Ok(())
}

/// box vs plane, three planes, rays and spheres.
fn planes_and_spheres() -> Res {
    use isect::d3::{Aabb, Ball, Plane, Ray, Vec3};
    heading("Planes and spheres (box against plane, moving box, three planes, rays, moving spheres, sphere against box)");
    let aabb = Aabb::new(Vec3::ZERO, Vec3::ONE)?;
    let floor = Plane::new(Vec3::Y, -2.0)?;
    out!(
        "unit box vs plane y = -2: {:?}",
        plane_tests::aabb_plane_side(&aabb, &floor)
    );
    let fall =
        plane_tests::aabb_plane_first_contact(&aabb, &floor, Vec3::new(0.0, -5.0, 0.0), 1.0, false);
    out!("box falling 5 units first touches at t = {fall:?}");
    let planes = [
        Plane::new(Vec3::X, 1.0)?,
        Plane::new(Vec3::Y, 2.0)?,
        Plane::new(Vec3::Z, 3.0)?,
    ];
    out!(
        "three planes x=1, y=2, z=3 meet at {:?}",
        plane_tests::three_planes_point(&planes[0], &planes[1], &planes[2])
    );
    let parallel = Plane::new(Vec3::X, 5.0)?;
    out!(
        "two parallel planes: {:?}",
        plane_tests::three_planes_point(&planes[0], &parallel, &planes[2])
    );
    let ball = Ball::new(Vec3::new(5.0, 0.0, 0.0), 1.0)?;
    let ray = Ray::new(Vec3::ZERO, Vec3::X)?;
    out!(
        "ray along x vs sphere at x=5, r=1: {:?}",
        ball.cast_ray(&ray, 10.0)
    );
    let other = Ball::new(Vec3::new(1.5, 0.0, 0.0), 1.0)?;
    out!(
        "static spheres overlap: {}",
        ball_tests::ball_ball_intersects(&ball, &other)
    );
    let mover = Ball::new(Vec3::new(-4.0, 0.0, 0.0), 0.5)?;
    let t =
        ball_tests::ball_ball_first_contact(&ball, Vec3::ZERO, &mover, Vec3::new(10.0, 0.0, 0.0));
    out!("sphere moving 10 units towards the other first touches at t = {t:?}");
    let near_box = Ball::new(Vec3::new(1.5, 0.5, 0.5), 0.75)?;
    out!(
        "sphere vs box contact: {:?}",
        ball_tests::ball_aabb_contact(&near_box, &aabb)
    );
    Ok(())
}

/// point in sector, in AABB, in convex polyhedron.
fn points_in_shapes() -> Res {
    use isect::d2::{Sector, Vec2};
    use isect::d3::{Aabb, ConvexPolyhedron, Vec3};
    heading("Points in shapes (in a sector three ways, in a box, in a convex polyhedron)");
    let fan = Sector::new(Vec2::ZERO, 2.0, 0.0, 1.5 * std::f32::consts::PI)?;
    for p in [
        Vec2::new(1.0, 1.0),
        Vec2::new(1.0, -1.0),
        Vec2::new(-1.0, -1.0),
    ] {
        out!(
            "point {p} in a 270° fan: cross {} / normals {} / angle {}",
            sector_tests::point_in_sector_cross(&fan, p),
            sector_tests::point_in_sector_normals(&fan, p),
            sector_tests::point_in_sector_angle(&fan, p)
        );
    }
    let aabb = Aabb::new(Vec3::ZERO, Vec3::ONE)?;
    out!(
        "corner (1,1,1) in the unit box: {}",
        aabb.contains_point(Vec3::ONE)
    );
    let corners: Vec<Vec3> = aabb.corners().collect();
    let cube = ConvexPolyhedron::from_points(&corners)?;
    out!(
        "cube hull: {} vertices, {} faces; (0.5,0.5,1) inside: {}",
        cube.vertices().len(),
        cube.faces().len(),
        polyhedron_tests::point_in_half_spaces(cube.planes(), Vec3::new(0.5, 0.5, 1.0))
    );
    Ok(())
}

/// PhysX-style ray vs plane, with the plane given in PhysX form.
fn ray_against_plane() -> Res {
    use isect::d3::{Plane, Ray, Vec3};
    heading("A ray against a plane given as n·p + w = 0 (maximum distance, facing, parallel)");
    let plane = Plane::from_physx(Vec3::Y, 1.0)?; // y = -1
    let down = Ray::new(Vec3::new(0.0, 3.0, 0.0), -Vec3::Y)?;
    out!(
        "ray down from y=3, max 10: {:?}",
        plane.cast_ray(&down, 10.0)
    );
    out!("same ray, max 3: {:?}", plane.cast_ray(&down, 3.0));
    let up = Ray::new(Vec3::new(0.0, 3.0, 0.0), Vec3::Y)?;
    out!("ray pointing away: {:?}", plane.cast_ray(&up, 10.0));
    let flat = Ray::new(Vec3::new(0.0, 3.0, 0.0), Vec3::X)?;
    out!("parallel ray: {:?}", plane.cast_ray(&flat, 10.0));
    Ok(())
}
