//! Robot-arm clearance along a motion: a two-link arm (capsules) swings its shoulder
//! and elbow through a cluttered cell of boxes and posts. The whole motion, sampled at
//! 200 configurations, is checked in one batch (`World::check_configurations`, in
//! parallel with `--features parallel`): the clearance of each configuration, the link
//! and obstacle nearest to it, and the first configuration that collides. Then the
//! gripper's tip is located against the cell with `World::signed_distance_to_point`.
//!
//! Run: `cargo run --release --example robot_clearance`

use isect::d3::*;

/// Link lengths and radius.
const LINKS: [f32; 2] = [1.0, 0.8];
const RADIUS: f32 = 0.08;
/// Configurations sampled along the motion.
const STEPS: usize = 200;

/// The cell: a floor, a table top, two posts and a shelf, all static, with their names.
type Names = Vec<(Handle, &'static str)>;
fn cell() -> Result<(World, Names), Box<dyn std::error::Error>> {
    let mut world = World::new();
    let mut names = Vec::new();
    let boxes = [
        (
            "floor",
            Vec3::new(0.0, -0.05, 0.0),
            Vec3::new(3.0, 0.05, 3.0),
        ),
        ("table", Vec3::new(1.2, 0.4, 0.0), Vec3::new(0.4, 0.02, 0.6)),
        (
            "post",
            Vec3::new(0.0, 0.75, 1.1),
            Vec3::new(0.05, 0.75, 0.05),
        ),
        (
            "post",
            Vec3::new(0.0, 0.75, -1.1),
            Vec3::new(0.05, 0.75, 0.05),
        ),
        (
            "shelf",
            Vec3::new(-0.4, 1.75, 1.1),
            Vec3::new(0.3, 0.02, 0.2),
        ),
    ];
    for (name, centre, half) in boxes {
        let shape = Shape::Cuboid(Aabb::from_center(centre, half)?);
        names.push((
            world.insert_static(shape, Pose::IDENTITY, Filter::ALL)?,
            name,
        ));
    }
    Ok((world, names))
}

/// The poses of both links for joint angles `(yaw, shoulder, elbow)`: the base at
/// the origin, link 2 starting where link 1 ends.
fn link_poses(yaw: f32, shoulder: f32, elbow: f32) -> [Pose; 2] {
    let upper = Quat::from_rotation_y(yaw) * Quat::from_rotation_z(shoulder);
    let fore = upper * Quat::from_rotation_z(elbow);
    let base = Vec3::new(0.0, 0.5, 0.0);
    [
        Pose::new(base, upper),
        Pose::new(base + upper * Vec3::X * LINKS[0], fore),
    ]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (world, names) = cell()?;
    let name = |h: Handle| names.iter().find(|n| n.0 == h).map_or("?", |n| n.1);
    let links: Vec<AnyShape> = LINKS
        .iter()
        .map(|&l| Ok(Capsule::new(Vec3::ZERO, Vec3::X * l, RADIUS)?.into()))
        .collect::<Result<_, ShapeError>>()?;
    // A swing from above the posts, round over the table, down to the floor.
    let angles = |t: f32| (-1.4 + 2.8 * t, 1.3 - 0.9 * t, -0.3 - 1.2 * t);
    let mut poses = Vec::with_capacity(STEPS * links.len());
    for i in 0..STEPS {
        let (yaw, shoulder, elbow) = angles(i as f32 / (STEPS - 1) as f32);
        poses.extend(link_poses(yaw, shoulder, elbow));
    }

    let start = std::time::Instant::now();
    let checks = world.check_configurations(&links, &poses, f32::INFINITY, Filter::ALL)?;
    let elapsed = start.elapsed();
    println!("step  clearance  nearest (link → obstacle)");
    for (i, check) in checks.iter().enumerate().step_by(20) {
        let nearest = check.nearest.map_or("none".to_string(), |(link, d)| {
            format!("link {link} → {}", name(d.handle))
        });
        println!("{i:4}  {:9.4}  {nearest}", check.clearance);
    }
    let tightest = checks
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.collides)
        .min_by(|a, b| a.1.clearance.total_cmp(&b.1.clearance));
    if let Some((i, c)) = tightest {
        println!(
            "tightest free configuration: step {i}, clearance {:.4}",
            c.clearance
        );
    }
    match checks.iter().position(|c| c.collides) {
        Some(i) => println!(
            "first collision at step {i} (depth {:.4})",
            -checks[i].clearance
        ),
        None => println!("the motion is collision free"),
    }
    println!(
        "{STEPS} configurations × {} links checked in {elapsed:?}",
        links.len()
    );

    // Where is the gripper's tip at the end of the motion?
    let last = &poses[poses.len() - 2..];
    let tip = last[1].transform_point(Vec3::X * LINKS[1]);
    if let Some(d) = world.signed_distance_to_point(tip, f32::INFINITY, Filter::ALL) {
        println!(
            "tip {tip:.3}: {:.4} from the {}, nearest point {:.3}",
            d.distance,
            name(d.handle),
            d.point
        );
    }
    Ok(())
}
