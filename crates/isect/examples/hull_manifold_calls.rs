//! The hull–hull manifold of `benches/manifold.rs` (`manifold_hull_hull_3d`: the hull
//! of 24 seeded points on an ellipsoid against itself, 8,192 seeded poses), called in
//! a loop, to count its instructions under callgrind. The per-call cost is the
//! difference of two runs with different pass counts, divided by the extra calls:
//!
//! ```text
//! valgrind --tool=callgrind target/release/examples/hull_manifold_calls 1
//! valgrind --tool=callgrind target/release/examples/hull_manifold_calls 3
//! ```
//!
//! Arguments: the pass count over the 8,192 cases, and `parry` to call parry's
//! `contact_manifolds` instead, or `dump` to print each case's manifold (normal,
//! points, depths, ids) so that two versions can be compared line by line. Prints how
//! many calls found a contact and the sum of the deepest depths.

use glam::{Quat, Vec3};
use isect::math::Pose3;
use isect::shape::shape_3d::Shape;
use isect::shape::ConvexPolyhedron;
use parry3d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};

#[path = "../tests/support/rng.rs"]
mod rng;
use rng::Rng;

/// The benchmark's case count.
const CASES: usize = 8192;

/// Each coordinate uniform in `[lo, hi)` (the benchmark's draw order).
fn vec3(rng: &mut Rng, lo: f32, hi: f32) -> Vec3 {
    let x = rng.uniform(lo, hi);
    let y = rng.uniform(lo, hi);
    let z = rng.uniform(lo, hi);
    Vec3::new(x, y, z)
}

/// The benchmark's unit vector: a sample of `[-1, 1)³` normalised.
fn unit_vec3(rng: &mut Rng) -> Vec3 {
    loop {
        if let Some(u) = vec3(rng, -1.0, 1.0).try_normalize() {
            return u;
        }
    }
}

/// The benchmark's turn: an angle of `[0, 6.3)` about a normalised sample.
fn turn(rng: &mut Rng) -> Quat {
    let axis = vec3(rng, -1.0, 1.0).try_normalize().unwrap_or(Vec3::Z);
    Quat::from_axis_angle(axis, rng.uniform(0.0, 6.3))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let passes: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let parry = args.iter().any(|a| a == "parry");
    let dump = args.iter().any(|a| a == "dump");
    let mut rng = Rng(23);
    let points: Vec<Vec3> = (0..24)
        .map(|_| unit_vec3(&mut rng) * Vec3::new(0.6, 0.45, 0.5))
        .collect();
    let hull: Shape<f32> = Shape::Polyhedron(ConvexPolyhedron::from_points(&points).unwrap());
    let parry_hull = parry3d::shape::SharedShape::convex_hull(&points).unwrap();
    let mut rng = Rng(17);
    let cases: Vec<(Pose3<f32>, Pose3<f32>, parry3d::math::Pose)> = (0..CASES)
        .map(|_| {
            let (ta, tb) = (vec3(&mut rng, -0.5, 0.5), vec3(&mut rng, -0.5, 0.5));
            let (qa, qb) = (turn(&mut rng), turn(&mut rng));
            let pos12 = parry3d::math::Pose::from_parts(ta, qa)
                .inv_mul(&parry3d::math::Pose::from_parts(tb, qb));
            (Pose3::new(ta, qa), Pose3::new(tb, qb), pos12)
        })
        .collect();
    let (mut hits, mut depth_sum) = (0usize, 0f64);
    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
    for _ in 0..passes {
        for (pa, pb, pos12) in std::hint::black_box(&cases) {
            let depth = if parry {
                manifolds.clear();
                DefaultQueryDispatcher
                    .contact_manifolds(
                        pos12,
                        &*parry_hull.0,
                        &*parry_hull.0,
                        0.0,
                        &mut manifolds,
                        &mut None,
                    )
                    .unwrap();
                manifolds
                    .iter()
                    .flat_map(|m| m.points.iter())
                    .map(|p| -p.dist)
                    .reduce(f32::max)
            } else {
                let m = isect::query::dispatch::contact_manifold(pa, &hull, pb, &hull, 0.0);
                if dump {
                    print_manifold(m.as_ref());
                }
                m.map(|m| m.max_depth())
            };
            if let Some(d) = depth {
                hits += 1;
                depth_sum += f64::from(d);
            }
        }
    }
    println!("passes {passes}: {hits} contacts, depth sum {depth_sum:.6}");
}

/// One line per case: `none`, or the normal then each point (A's, B's, depth, id).
fn print_manifold(m: Option<&isect::query::manifold::Manifold<Vec3>>) {
    let Some(m) = m else {
        println!("none");
        return;
    };
    let mut line = format!("n {:?}", m.normal.to_array());
    for p in m.points() {
        line += &format!(
            " | {:?} {:?} {} {:?}",
            p.point_a.to_array(),
            p.point_b.to_array(),
            p.depth,
            p.id
        );
    }
    println!("{line}");
}
