//! isect's contact manifolds judged as a user would: every scene of
//! `isect_stepper::scenes` runs for 10 s at 60 Hz, then nothing may have fallen
//! through the floor, the stack (or the single body) must stand where it was put and
//! every body must be still (`Report::failures` lists the thresholds; the crate docs
//! give their values).

use isect_stepper::scenes::{self, DURATION_STEPS};

/// Runs the scene `name` for [`DURATION_STEPS`] and asserts it has no failure.
fn judge(name: &str) {
    let mut scene = scenes::find(name).unwrap_or_else(|| panic!("no scene {name}"));
    scene.run(DURATION_STEPS);
    let r = scene.report();
    println!(
        "{name}: max speed {:.1e} m/s, {:.1e} rad/s; drift {:.1e} m; height {:+.1e} m; \
         turn {:.1e} rad; lowest point {:+.1e} m under the floor",
        r.max_speed, r.max_angular_speed, r.drift, r.height_error, r.turn, r.deepest_sink
    );
    let failures = r.failures();
    assert!(failures.is_empty(), "{name}: {}", failures.join("; "));
}

/// One test a scene, and the list of the scenes tested.
macro_rules! scenes {
    ($($(#[$attr:meta])* $test:ident => $name:literal,)*) => {
        $(
            #[test]
            $(#[$attr])*
            fn $test() {
                judge($name);
            }
        )*

        /// Every scene named above.
        const TESTED: &[&str] = &[$($name),*];
    };
}

scenes! {
    // 3D, on a box.
    stack_3d_box => "3d-stack-box",
    turned_stack_3d_box => "3d-turned-stack-box",
    ball_3d_box => "3d-ball-box",
    capsule_lying_3d_box => "3d-capsule-lying-box",
    capsule_standing_3d_box => "3d-capsule-standing-box",
    cylinder_lying_3d_box => "3d-cylinder-lying-box",
    cylinder_standing_3d_box => "3d-cylinder-standing-box",
    cone_lying_3d_box => "3d-cone-lying-box",
    cone_standing_3d_box => "3d-cone-standing-box",
    rounded_box_lying_3d_box => "3d-rounded-box-lying-box",
    rounded_box_standing_3d_box => "3d-rounded-box-standing-box",
    // 3D, on a flat mesh of two triangles.
    stack_3d_two_triangles => "3d-stack-two-triangles",
    turned_stack_3d_two_triangles => "3d-turned-stack-two-triangles",
    ball_3d_two_triangles => "3d-ball-two-triangles",
    capsule_lying_3d_two_triangles => "3d-capsule-lying-two-triangles",
    capsule_standing_3d_two_triangles => "3d-capsule-standing-two-triangles",
    cylinder_lying_3d_two_triangles => "3d-cylinder-lying-two-triangles",
    cylinder_standing_3d_two_triangles => "3d-cylinder-standing-two-triangles",
    cone_lying_3d_two_triangles => "3d-cone-lying-two-triangles",
    cone_standing_3d_two_triangles => "3d-cone-standing-two-triangles",
    rounded_box_lying_3d_two_triangles => "3d-rounded-box-lying-two-triangles",
    rounded_box_standing_3d_two_triangles => "3d-rounded-box-standing-two-triangles",
    // 3D, on a flat mesh of 20 × 20 quads.
    stack_3d_grid_mesh => "3d-stack-grid-mesh",
    turned_stack_3d_grid_mesh => "3d-turned-stack-grid-mesh",
    ball_3d_grid_mesh => "3d-ball-grid-mesh",
    capsule_lying_3d_grid_mesh => "3d-capsule-lying-grid-mesh",
    capsule_standing_3d_grid_mesh => "3d-capsule-standing-grid-mesh",
    cylinder_lying_3d_grid_mesh => "3d-cylinder-lying-grid-mesh",
    cylinder_standing_3d_grid_mesh => "3d-cylinder-standing-grid-mesh",
    cone_lying_3d_grid_mesh => "3d-cone-lying-grid-mesh",
    cone_standing_3d_grid_mesh => "3d-cone-standing-grid-mesh",
    rounded_box_lying_3d_grid_mesh => "3d-rounded-box-lying-grid-mesh",
    rounded_box_standing_3d_grid_mesh => "3d-rounded-box-standing-grid-mesh",
    // 3D, on a flat heightfield.
    stack_3d_heightfield => "3d-stack-heightfield",
    turned_stack_3d_heightfield => "3d-turned-stack-heightfield",
    ball_3d_heightfield => "3d-ball-heightfield",
    capsule_lying_3d_heightfield => "3d-capsule-lying-heightfield",
    capsule_standing_3d_heightfield => "3d-capsule-standing-heightfield",
    cylinder_lying_3d_heightfield => "3d-cylinder-lying-heightfield",
    cylinder_standing_3d_heightfield => "3d-cylinder-standing-heightfield",
    cone_lying_3d_heightfield => "3d-cone-lying-heightfield",
    cone_standing_3d_heightfield => "3d-cone-standing-heightfield",
    rounded_box_lying_3d_heightfield => "3d-rounded-box-lying-heightfield",
    rounded_box_standing_3d_heightfield => "3d-rounded-box-standing-heightfield",
    // 3D, in a trough of two 45° mesh slopes: two normals 90° apart.
    wedged_box_3d_trough => "3d-wedged-box-trough",
    ball_3d_trough => "3d-ball-trough",
    // 2D, on a convex polygon.
    stack_2d_polygon => "2d-stack-polygon",
    ball_2d_polygon => "2d-ball-polygon",
    capsule_lying_2d_polygon => "2d-capsule-lying-polygon",
    capsule_standing_2d_polygon => "2d-capsule-standing-polygon",
    rounded_box_lying_2d_polygon => "2d-rounded-box-lying-polygon",
    rounded_box_standing_2d_polygon => "2d-rounded-box-standing-polygon",
    // 2D, on a chain of segments.
    stack_2d_polyline => "2d-stack-polyline",
    ball_2d_polyline => "2d-ball-polyline",
    capsule_lying_2d_polyline => "2d-capsule-lying-polyline",
    capsule_standing_2d_polyline => "2d-capsule-standing-polyline",
    rounded_box_lying_2d_polyline => "2d-rounded-box-lying-polyline",
    rounded_box_standing_2d_polyline => "2d-rounded-box-standing-polyline",
    // 2D, on a heightfield.
    stack_2d_heightfield => "2d-stack-heightfield",
    ball_2d_heightfield => "2d-ball-heightfield",
    capsule_lying_2d_heightfield => "2d-capsule-lying-heightfield",
    capsule_standing_2d_heightfield => "2d-capsule-standing-heightfield",
    rounded_box_lying_2d_heightfield => "2d-rounded-box-lying-heightfield",
    rounded_box_standing_2d_heightfield => "2d-rounded-box-standing-heightfield",
    // 2D, in a trough of two 45° chain slopes.
    wedged_box_2d_trough => "2d-wedged-box-trough",
    ball_2d_trough => "2d-ball-trough",
}

#[test]
fn every_scene_has_a_test() {
    let mut listed: Vec<String> = TESTED.iter().map(|s| s.to_string()).collect();
    let mut all: Vec<String> = scenes::all().iter().map(|s| s.name()).collect();
    listed.sort();
    all.sort();
    assert_eq!(listed, all);
}

#[test]
fn the_judge_sees_a_stack_knocked_over() {
    // The control of the judge: the same stack with its top box knocked sideways at
    // 3 m/s must fail it (the box leaves the stack).
    let Some(scenes::AnyScene::D3(mut scene)) = scenes::find("3d-stack-box") else {
        panic!("the 3D box stack exists");
    };
    let top = scene.watched;
    scene.sim.bodies[top].linear_velocity.x = 3.0;
    scene.sim.run(DURATION_STEPS);
    let failures = scene.report().failures();
    assert!(
        failures.iter().any(|f| f.starts_with("drift")),
        "{failures:?}"
    );
}
