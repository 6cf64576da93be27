//! Runs every test of the seed documents on a worked example and prints the answers.
//!
//! `cargo run --release --example seeds`

use std::error::Error;

use isect::algo::{sat_2d, sat_3d, slab};
use isect::math::Pose2;
use isect::query::{ball_tests, pipeline, plane_tests, polyhedron_tests, sector_tests, RayCast};

type Res = Result<(), Box<dyn Error>>;

fn main() -> Res {
    seed_000_slab()?;
    seed_001_sat()?;
    seed_002_planes_and_spheres()?;
    seed_003_containment()?;
    seed_004_ray_plane()?;
    Ok(())
}

fn heading(title: &str) {
    println!("\n== {title}");
}

/// Seed 000: rays and segments against boxes by the slab method, 2D and 3D.
fn seed_000_slab() -> Res {
    use isect::d3::{Aabb, Ray, Vec3};
    heading("seed 000: slab test");
    let aabb = Aabb::new(Vec3::ZERO, Vec3::ONE)?;
    let ray = Ray::new(Vec3::new(-1.0, 0.5, 0.5), Vec3::new(1.0, 0.0, 0.0))?;
    let hit = slab::ray_aabb(&ray, &aabb, f32::INFINITY);
    println!("ray (-1,.5,.5)+t(1,0,0) vs unit cube: {hit:?}");
    let on_plane = Ray::new(Vec3::new(-1.0, 0.0, 1.0), Vec3::X)?;
    println!(
        "origin on two slab planes, zero dy and dz: hits = {}",
        slab::PreparedRay::new(&on_plane, f32::INFINITY).hits(&aabb)
    );
    let short = isect::d2::Segment::new(
        isect::d2::Vec2::new(-1.0, 0.5),
        isect::d2::Vec2::new(-0.1, 0.5),
    )?;
    let square = isect::d2::Aabb::new(isect::d2::Vec2::ZERO, isect::d2::Vec2::ONE)?;
    println!(
        "2D segment stopping short of the square overlaps: {}",
        slab::segment_overlaps_aabb(&short, &square)
    );
    Ok(())
}

/// Seed 001: AABB, OBB and convex polygons by the separating axis theorem, and the
/// coarse-then-fine pipeline.
fn seed_001_sat() -> Res {
    use isect::d2::{ConvexPolygon, Obb, Vec2};
    heading("seed 001: AABB, OBB, SAT");
    let a = Obb::from_angle(Vec2::ZERO, Vec2::new(2.0, 1.0), 0.0)?;
    let b = Obb::from_angle(
        Vec2::new(2.5, 1.5),
        Vec2::new(1.0, 1.0),
        std::f32::consts::FRAC_PI_4,
    )?;
    println!("2D OBBs (4 axes): {:?}", sat_2d::obb_obb_mtv(&a, &b));
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
    println!("3D OBBs (15 axes): {:?}", sat_3d::obb_obb_mtv(&c, &d));
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
    println!(
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
    println!("pipeline, 6 triangles in a row: colliding pairs {ids:?}");
    Ok(())
}

/// Seed 002: box vs plane, three planes, rays and spheres.
fn seed_002_planes_and_spheres() -> Res {
    use isect::d3::{Aabb, Ball, Plane, Ray, Vec3};
    heading("seed 002: planes and spheres");
    let aabb = Aabb::new(Vec3::ZERO, Vec3::ONE)?;
    let floor = Plane::new(Vec3::Y, -2.0)?;
    println!(
        "unit box vs plane y = -2: {:?}",
        plane_tests::aabb_plane_side(&aabb, &floor)
    );
    let fall =
        plane_tests::aabb_plane_first_contact(&aabb, &floor, Vec3::new(0.0, -5.0, 0.0), 1.0, false);
    println!("box falling 5 units first touches at t = {fall:?}");
    let planes = [
        Plane::new(Vec3::X, 1.0)?,
        Plane::new(Vec3::Y, 2.0)?,
        Plane::new(Vec3::Z, 3.0)?,
    ];
    println!(
        "three planes x=1, y=2, z=3 meet at {:?}",
        plane_tests::three_planes_point(&planes[0], &planes[1], &planes[2])
    );
    let parallel = Plane::new(Vec3::X, 5.0)?;
    println!(
        "two parallel planes: {:?}",
        plane_tests::three_planes_point(&planes[0], &parallel, &planes[2])
    );
    let ball = Ball::new(Vec3::new(5.0, 0.0, 0.0), 1.0)?;
    let ray = Ray::new(Vec3::ZERO, Vec3::X)?;
    println!(
        "ray along x vs sphere at x=5, r=1: {:?}",
        ball.cast_ray(&ray, 10.0)
    );
    let other = Ball::new(Vec3::new(1.5, 0.0, 0.0), 1.0)?;
    println!(
        "static spheres overlap: {}",
        ball_tests::ball_ball_intersects(&ball, &other)
    );
    let mover = Ball::new(Vec3::new(-4.0, 0.0, 0.0), 0.5)?;
    let t =
        ball_tests::ball_ball_first_contact(&ball, Vec3::ZERO, &mover, Vec3::new(10.0, 0.0, 0.0));
    println!("sphere moving 10 units towards the other first touches at t = {t:?}");
    let near_box = Ball::new(Vec3::new(1.5, 0.5, 0.5), 0.75)?;
    println!(
        "sphere vs box contact: {:?}",
        ball_tests::ball_aabb_contact(&near_box, &aabb)
    );
    Ok(())
}

/// Seed 003: point in sector, in AABB, in convex polyhedron.
fn seed_003_containment() -> Res {
    use isect::d2::{Sector, Vec2};
    use isect::d3::{Aabb, ConvexPolyhedron, Vec3};
    heading("seed 003: containment");
    let fan = Sector::new(Vec2::ZERO, 2.0, 0.0, 1.5 * std::f32::consts::PI)?;
    for p in [
        Vec2::new(1.0, 1.0),
        Vec2::new(1.0, -1.0),
        Vec2::new(-1.0, -1.0),
    ] {
        println!(
            "point {p} in a 270° fan: cross {} / normals {} / angle {}",
            sector_tests::point_in_sector_cross(&fan, p),
            sector_tests::point_in_sector_normals(&fan, p),
            sector_tests::point_in_sector_angle(&fan, p)
        );
    }
    let aabb = Aabb::new(Vec3::ZERO, Vec3::ONE)?;
    println!(
        "corner (1,1,1) in the unit box: {}",
        aabb.contains_point(Vec3::ONE)
    );
    let corners: Vec<Vec3> = aabb.corners().collect();
    let cube = ConvexPolyhedron::from_points(&corners)?;
    println!(
        "cube hull: {} vertices, {} faces; (0.5,0.5,1) inside: {}",
        cube.vertices().len(),
        cube.faces().len(),
        polyhedron_tests::point_in_half_spaces(cube.planes(), Vec3::new(0.5, 0.5, 1.0))
    );
    Ok(())
}

/// Seed 004: PhysX-style ray vs plane, with the plane given in PhysX form.
fn seed_004_ray_plane() -> Res {
    use isect::d3::{Plane, Ray, Vec3};
    heading("seed 004: ray vs plane (PhysX form n·p + w = 0)");
    let plane = Plane::from_physx(Vec3::Y, 1.0)?; // y = -1
    let down = Ray::new(Vec3::new(0.0, 3.0, 0.0), -Vec3::Y)?;
    println!(
        "ray down from y=3, max 10: {:?}",
        plane.cast_ray(&down, 10.0)
    );
    println!("same ray, max 3: {:?}", plane.cast_ray(&down, 3.0));
    let up = Ray::new(Vec3::new(0.0, 3.0, 0.0), Vec3::Y)?;
    println!("ray pointing away: {:?}", plane.cast_ray(&up, 10.0));
    let flat = Ray::new(Vec3::new(0.0, 3.0, 0.0), Vec3::X)?;
    println!("parallel ray: {:?}", plane.cast_ray(&flat, 10.0));
    Ok(())
}
