//! Issue 18, item A: the linear cast's stopping tolerance scaled with the shapes'
//! size. A ball 0.943 above a box of half extents (5000, 0.5, 5000) got time of
//! impact 0 in `f32`, although `distance` said 0.943 and `intersects` false; a box
//! falling onto a box of half extent 500 came 21 mm short. GJK's closest point (a
//! weighted sum of support points thousands of units across) tilts with the box's
//! size, and the cast stopped at a gap relative to that size. Fixed: the casts
//! measure their last gap along the facet's exact normal
//! (`query/cast_shapes.rs`, `CAST_GAP_ULPS`). The class is swept in
//! `tests/cast_scale.rs`; here, the reported samples and their neighbours: every
//! half extent from 5 to 50,000, `f32` and `f64`, ball and box movers, both orders.

use isect::math::{Isometry, Pose3};
use isect::query::{dispatch, time_of_impact, Sweep};
use isect::shape::{shape_3d::Shape, Aabb, Ball};

/// A flat box of lateral half extent `wide`, a mover `gap` above its top moving down
/// at speed 2: the time of impact is `gap / 2`; checked within `8 ε` times the
/// heights involved over the speed (the gap's rounding), whatever `wide`.
macro_rules! check_fn {
    ($name:ident, $r:ty, $v:ty) => {
        fn $name(wide: f64, ball: bool, gap: f64) {
            let v = |x: f64, y: f64, z: f64| <$v>::new(x as $r, y as $r, z as $r);
            let floor: Shape<$r> = Aabb::from_center(v(0.0, 0.0, 0.0), v(wide, 0.5, wide))
                .unwrap()
                .into();
            let mover: Shape<$r> = if ball {
                Ball::new(v(0.0, 0.0, 0.0), 0.5166).unwrap().into()
            } else {
                Aabb::from_center(v(0.0, 0.0, 0.0), v(0.5, 0.5166, 0.5))
                    .unwrap()
                    .into()
            };
            let down = (0.5166 as $r) as f64;
            let at = v(0.3 * wide, 0.5 + down + gap, -0.2 * wide);
            let gap = at.y as f64 - 0.5 - down;
            let (pa, pb) = (Pose3::<$r>::IDENTITY, Pose3::from_translation(at));
            let what = format!("wide {wide}, ball {ball}, gap {gap}");
            assert!(!dispatch::intersects(&pa, &floor, &pb, &mover), "{what}");
            let vel = v(0.0, -2.0, 0.0);
            let zero = <$v>::ZERO;
            let hit = dispatch::cast_shapes(&pa, zero, &floor, &pb, vel, &mover, 1.0)
                .unwrap_or_else(|| panic!("{what}: no hit"));
            let tol = 8.0 * <$r>::EPSILON as f64 * (at.y as f64 + 2.0) / 2.0;
            let exact = gap / 2.0;
            assert!((hit.time as f64 - exact).abs() <= tol, "{what}: {hit:?}");
            assert!((hit.normal.y as f64 - 1.0).abs() <= 1e-6, "{what}: {hit:?}");
            // A moving up into B: the same time.
            let back = dispatch::cast_shapes(&pb, zero, &mover, &pa, -vel, &floor, 1.0)
                .unwrap_or_else(|| panic!("{what}: no hit swapped"));
            assert!((back.time as f64 - exact).abs() <= tol, "{what}: {back:?}");
            // The same motion as a sweep without rotation.
            let sa = Sweep { start: pa, end: pa };
            let sb = Sweep {
                start: pb,
                end: Pose3::from_translation(at + vel),
            };
            let swept = time_of_impact(&sa, &floor, &sb, &mover).expect("sweep hit");
            assert!(
                (swept.time as f64 - exact).abs() <= tol,
                "{what}: {swept:?}"
            );
        }
    };
}

check_fn!(check_f32, f32, glam::Vec3);
check_fn!(check_f64, f64, glam::DVec3);

#[test]
fn reported_ball_over_wide_box_f32() {
    check_f32(5000.0, true, 0.943);
}

#[test]
fn box_cast_error_does_not_grow_with_the_target() {
    for wide in [5.0, 50.0, 500.0, 5000.0, 50000.0] {
        for ball in [true, false] {
            for gap in [0.001, 0.1, 0.943, 1.9] {
                check_f32(wide, ball, gap);
                check_f64(wide, ball, gap);
            }
        }
    }
}
