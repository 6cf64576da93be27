//! A capsule walks a small triangle-mesh level: a flat floor, a flight of stairs up
//! to a landing, a 30° ramp down the other side, then a 60° wall of rock it cannot
//! climb. Prints its path every 10 frames.
//!
//! Run: `cargo run --example character`

use isect::character::CharacterController;
use isect::d3::*;

/// Adds the box `min..max` as 12 triangles to a mesh under construction.
fn add_box(vertices: &mut Vec<Vec3>, indices: &mut Vec<[u32; 3]>, min: Vec3, max: Vec3) {
    let base = vertices.len() as u32;
    for i in 0..8 {
        let pick = |bit: u32, lo: f32, hi: f32| if i & bit == 0 { lo } else { hi };
        vertices.push(Vec3::new(
            pick(1, min.x, max.x),
            pick(2, min.y, max.y),
            pick(4, min.z, max.z),
        ));
    }
    let faces = [
        [0, 2, 3, 1],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 4, 6, 2],
        [1, 3, 7, 5],
    ];
    for [a, b, c, d] in faces {
        indices.push([base + a, base + b, base + c]);
        indices.push([base + a, base + c, base + d]);
    }
}

/// The level as one open triangle mesh.
fn level() -> Result<TriMesh, ShapeError> {
    let (mut vertices, mut indices) = (Vec::new(), Vec::new());
    // Floor, y ≤ 0.
    add_box(
        &mut vertices,
        &mut indices,
        Vec3::new(-5.0, -1.0, -5.0),
        Vec3::new(30.0, 0.0, 5.0),
    );
    // Six stairs of 0.25 up from x = 3, each 0.6 deep, to a landing 1.5 high.
    for i in 0..6 {
        let x0 = 3.0 + 0.6 * i as f32;
        let top = 0.25 * (i + 1) as f32;
        add_box(
            &mut vertices,
            &mut indices,
            Vec3::new(x0, 0.0, -2.0),
            Vec3::new(10.0, top, 2.0),
        );
    }
    // A 30° ramp from the landing's end (x = 10, y = 1.5) down to the floor.
    let run = 1.5 / 30f32.to_radians().tan();
    let base = vertices.len() as u32;
    vertices.extend([
        Vec3::new(10.0, 1.5, -2.0),
        Vec3::new(10.0, 1.5, 2.0),
        Vec3::new(10.0 + run, 0.0, 2.0),
        Vec3::new(10.0 + run, 0.0, -2.0),
    ]);
    indices.extend([[base, base + 1, base + 2], [base, base + 2, base + 3]]);
    // A 60° rock face rising from x = 18.
    let rise = 60f32.to_radians().tan() * 3.0;
    let base = vertices.len() as u32;
    vertices.extend([
        Vec3::new(18.0, 0.0, -5.0),
        Vec3::new(18.0, 0.0, 5.0),
        Vec3::new(21.0, rise, 5.0),
        Vec3::new(21.0, rise, -5.0),
    ]);
    indices.extend([[base, base + 1, base + 2], [base, base + 2, base + 3]]);
    TriMesh::new(vertices, indices, TriMeshFlags::OPEN)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World::new();
    world.insert_static(level()?, Pose::IDENTITY, Filter::ALL)?;
    let capsule = Capsule::new(Vec3::new(0.0, 0.4, 0.0), Vec3::new(0.0, 1.4, 0.0), 0.4)?;
    let body: AnyShape = Shape::Capsule(capsule).into();
    let controller = CharacterController::new(Vec3::Y, 0.02)?
        .with_step(0.3, 0.1)?
        .with_snap_to_ground(0.4)?;
    let mut pose = Pose::from_translation(Vec3::new(0.0, 0.02, 0.0));
    let walk = Vec3::new(0.1, 0.0, 0.0);
    let gravity = Vec3::new(0.0, -0.05, 0.0);
    println!("frame      x      y  grounded stepped sliding");
    for frame in 0..=220 {
        let m = controller.move_shape(&world, &body, &pose, walk + gravity, Filter::ALL)?;
        pose.translation += m.translation;
        if frame % 10 == 0 || m.stepped {
            println!(
                "{frame:5} {:6.2} {:6.3}  {:8} {:7} {:7}",
                pose.translation.x, pose.translation.y, m.grounded, m.stepped, m.sliding_down
            );
        }
        assert!(world
            .intersecting_shapes(&pose, &body, Filter::ALL)
            .is_empty());
    }
    Ok(())
}
