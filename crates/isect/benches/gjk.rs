//! GJK / EPA / contact / shape-cast benchmarks, each of our kernels beside parry's
//! public query in the same criterion group. Inputs are seeded; 8,192 cases are
//! cycled per benchmark. Run with
//! `cargo bench --bench gjk -- --warm-up-time 1 --measurement-time 2`.

use criterion::{criterion_group, criterion_main, Criterion};
use glam::Vec3;
use isect::algo::support::{ConvexPoints, SupportMap};
use isect::math::Pose3;
use isect::query::box_box::{certified_closest_points, certified_distance};
use isect::query::capsule_cylinder::{contact_capsule_cylinder, distance_capsule_cylinder};
use isect::query::cast_shapes::cast_shapes;
use isect::query::contact::{
    contact, contact_ball_cone, contact_ball_cylinder, contact_capsule_capsule, Contact,
};
use isect::query::distance::{closest_points, distance, distance_capsule_cuboid};
use isect::shape::{Aabb, Ball, Capsule, Cone, ConvexPolyhedron, Cylinder};
use parry3d::math::Pose as PPose;
use parry3d::query as pq;
use parry3d::shape as ps;

const SHAPES: usize = 64;

mod support;
use support::{cpu_time_config, cycle_named, CpuTime, Rng, CASES};

/// A pose pair for both libraries: A near the origin, B at `offset` distance.
struct Case {
    ours: (Pose3<f32>, Pose3<f32>),
    parry: (PPose, PPose),
    shape_a: usize,
    shape_b: usize,
}

fn cases(rng: &mut Rng, offset: f32) -> Vec<Case> {
    (0..CASES)
        .map(|_| {
            let (ours, parry) = rng.pose_pair(offset);
            Case {
                ours,
                parry,
                shape_a: (rng.uniform(0.0, 1.0) * SHAPES as f32) as usize % SHAPES,
                shape_b: (rng.uniform(0.0, 1.0) * SHAPES as f32) as usize % SHAPES,
            }
        })
        .collect()
}

/// `SHAPES` hulls of `n` points on the unit sphere (all of them hull vertices),
/// for both libraries.
fn hulls(rng: &mut Rng, n: usize) -> (Vec<ConvexPoints<Vec3>>, Vec<ps::ConvexPolyhedron>) {
    (0..SHAPES)
        .map(|_| {
            let scale = rng.vec3(0.6, 1.0);
            let pts: Vec<Vec3> = (0..n).map(|_| rng.unit_vec3() * scale).collect();
            let parry = ps::ConvexPolyhedron::from_convex_hull(&pts).expect("hull");
            let ours = ConvexPoints::new(parry.points().to_vec()).expect("points");
            (ours, parry)
        })
        .unzip()
}

fn gjk_distance(c: &mut Criterion) {
    for n in [8, 32, 256] {
        let mut rng = Rng(n as u64);
        let (ours, parry) = hulls(&mut rng, n);
        let cases = cases(&mut rng, 3.0);
        let mut group = c.benchmark_group(format!("gjk_distance_hull_{n}"));
        cycle_named(&mut group, "isect", &cases, |k| {
            let (a, b) = (&ours[k.shape_a], &ours[k.shape_b]);
            distance(&k.ours.0, a, &k.ours.1, b)
        });
        cycle_named(&mut group, "parry", &cases, |k| {
            let (a, b) = (&parry[k.shape_a], &parry[k.shape_b]);
            pq::distance(&k.parry.0, a, &k.parry.1, b).ok()
        });
        group.finish();
    }
}

fn epa_contact(c: &mut Criterion) {
    let mut rng = Rng(99);
    let (ours, parry) = hulls(&mut rng, 32);
    let cases = cases(&mut rng, 0.8);
    let mut group = c.benchmark_group("epa_contact_hull_32");
    cycle_named(&mut group, "isect", &cases, |k| {
        let (a, b) = (&ours[k.shape_a], &ours[k.shape_b]);
        contact(&k.ours.0, a, &k.ours.1, b, 0.0)
    });
    cycle_named(&mut group, "parry", &cases, |k| {
        let (a, b) = (&parry[k.shape_a], &parry[k.shape_b]);
        pq::contact(&k.parry.0, a, &k.parry.1, b, 0.0).ok()
    });
    group.finish();
}

fn capsules(rng: &mut Rng) -> (Vec<Capsule<Vec3>>, Vec<ps::Capsule>) {
    (0..SHAPES)
        .map(|_| {
            let (a, b) = (rng.unit_vec3() * 0.5, rng.unit_vec3() * 0.5);
            let r = rng.uniform(0.1, 0.4);
            (
                Capsule::new(a, b, r).expect("capsule"),
                ps::Capsule::new(a, b, r),
            )
        })
        .unzip()
}

/// `SHAPES` boxes about the origin with half extents in `[0.2, 0.8)`, for both libraries.
fn boxes(rng: &mut Rng) -> Vec<(Aabb<Vec3>, ps::Cuboid)> {
    (0..SHAPES)
        .map(|_| {
            let h = rng.vec3(0.2, 0.8);
            (
                Aabb::from_center(Vec3::ZERO, h).expect("box"),
                ps::Cuboid::new(h),
            )
        })
        .collect()
}

fn capsule_contact(c: &mut Criterion) {
    let mut rng = Rng(7);
    let (ours, parry) = capsules(&mut rng);
    let cases = cases(&mut rng, 1.2);
    let mut group = c.benchmark_group("contact_capsule_capsule");
    cycle_named(&mut group, "isect_kernel", &cases, |k| {
        let (a, b) = (&ours[k.shape_a], &ours[k.shape_b]);
        contact_capsule_capsule(&k.ours.0, a, &k.ours.1, b, 0.1)
    });
    cycle_named(&mut group, "isect_gjk", &cases, |k| {
        let (a, b) = (&ours[k.shape_a], &ours[k.shape_b]);
        contact(&k.ours.0, a, &k.ours.1, b, 0.1)
    });
    cycle_named(&mut group, "parry", &cases, |k| {
        let (a, b) = (&parry[k.shape_a], &parry[k.shape_b]);
        pq::contact(&k.parry.0, a, &k.parry.1, b, 0.1).ok()
    });
    group.finish();
}

/// A ball in both libraries' forms.
type BallPair = (Ball<Vec3>, ps::Ball);

/// One criterion group of ball–`S` contacts (prediction 0.1): our closed-form
/// `kernel`, the same pairs through GJK / EPA, and parry's `contact` on `theirs`.
fn ball_shape_group<S: SupportMap<Vec3>, P: ps::Shape>(
    c: &mut Criterion,
    name: &str,
    cases: &[Case],
    balls: &[BallPair],
    ours: &[S],
    theirs: &[P],
    kernel: impl Fn(&Pose3<f32>, &Ball<Vec3>, &Pose3<f32>, &S, f32) -> Option<Contact<Vec3>>,
) {
    let mut group = c.benchmark_group(name);
    cycle_named(&mut group, "isect_kernel", cases, |k| {
        kernel(
            &k.ours.0,
            &balls[k.shape_a].0,
            &k.ours.1,
            &ours[k.shape_b],
            0.1,
        )
    });
    cycle_named(&mut group, "isect_gjk", cases, |k| {
        contact(
            &k.ours.0,
            &balls[k.shape_a].0,
            &k.ours.1,
            &ours[k.shape_b],
            0.1,
        )
    });
    cycle_named(&mut group, "parry", cases, |k| {
        let (a, b) = (&balls[k.shape_a].1, &theirs[k.shape_b]);
        pq::contact(&k.parry.0, a, &k.parry.1, b, 0.1).ok()
    });
    group.finish();
}

/// Ball–cylinder and ball–cone contacts ([`ball_shape_group`]) on the same poses and
/// dimensions.
fn ball_curved_contact(c: &mut Criterion) {
    let mut rng = Rng(9);
    let balls: Vec<BallPair> = (0..SHAPES)
        .map(|_| {
            let r = rng.uniform(0.1, 0.5);
            (Ball::new(Vec3::ZERO, r).expect("ball"), ps::Ball::new(r))
        })
        .collect();
    let dims: Vec<(f32, f32)> = (0..SHAPES)
        .map(|_| (rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8)))
        .collect();
    let cases = cases(&mut rng, 0.9);
    let cans: Vec<_> = dims
        .iter()
        .map(|&(h, r)| Cylinder::new(h, r).expect("can"))
        .collect();
    let pcans: Vec<_> = dims.iter().map(|&(h, r)| ps::Cylinder::new(h, r)).collect();
    let cones: Vec<_> = dims
        .iter()
        .map(|&(h, r)| Cone::new(h, r).expect("cone"))
        .collect();
    let pcones: Vec<_> = dims.iter().map(|&(h, r)| ps::Cone::new(h, r)).collect();
    let (name, kernel) = ("contact_ball_cylinder", contact_ball_cylinder::<f32>);
    ball_shape_group(c, name, &cases, &balls, &cans, &pcans, kernel);
    let (name, kernel) = ("contact_ball_cone", contact_ball_cone::<f32>);
    ball_shape_group(c, name, &cases, &balls, &cones, &pcones, kernel);
}

/// Capsule–cylinder contact (prediction 0.1) and distance: our segment–cylinder
/// kernel, the same pairs through GJK (/ EPA), and parry's `contact` / `distance`.
fn capsule_cylinder(c: &mut Criterion) {
    let mut rng = Rng(10);
    let (caps, pcaps) = capsules(&mut rng);
    let dims: Vec<(f32, f32)> = (0..SHAPES)
        .map(|_| (rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8)))
        .collect();
    let cans: Vec<_> = dims
        .iter()
        .map(|&(h, r)| Cylinder::new(h, r).expect("can"))
        .collect();
    let pcans: Vec<_> = dims.iter().map(|&(h, r)| ps::Cylinder::new(h, r)).collect();
    let cases = cases(&mut rng, 1.2);
    let mut group = c.benchmark_group("contact_capsule_cylinder");
    cycle_named(&mut group, "isect_kernel", &cases, |k| {
        contact_capsule_cylinder(
            &k.ours.0,
            &caps[k.shape_a],
            &k.ours.1,
            &cans[k.shape_b],
            0.1,
        )
    });
    cycle_named(&mut group, "isect_gjk", &cases, |k| {
        contact(
            &k.ours.0,
            &caps[k.shape_a],
            &k.ours.1,
            &cans[k.shape_b],
            0.1,
        )
    });
    cycle_named(&mut group, "parry", &cases, |k| {
        let (a, b) = (&pcaps[k.shape_a], &pcans[k.shape_b]);
        pq::contact(&k.parry.0, a, &k.parry.1, b, 0.1).ok()
    });
    group.finish();
    let mut group = c.benchmark_group("distance_capsule_cylinder");
    cycle_named(&mut group, "isect_kernel", &cases, |k| {
        distance_capsule_cylinder(&k.ours.0, &caps[k.shape_a], &k.ours.1, &cans[k.shape_b])
    });
    cycle_named(&mut group, "isect_gjk", &cases, |k| {
        distance(&k.ours.0, &caps[k.shape_a], &k.ours.1, &cans[k.shape_b])
    });
    cycle_named(&mut group, "parry", &cases, |k| {
        let (a, b) = (&pcaps[k.shape_a], &pcans[k.shape_b]);
        pq::distance(&k.parry.0, a, &k.parry.1, b).ok()
    });
    group.finish();
}

fn linear_cast(c: &mut Criterion) {
    let mut rng = Rng(8);
    let boxes = boxes(&mut rng);
    let (caps, pcaps) = capsules(&mut rng);
    // Each case with the velocity of B relative to A.
    let cases: Vec<(Case, Vec3)> = cases(&mut rng, 3.0)
        .into_iter()
        .map(|k| {
            let vel = (k.ours.0.translation - k.ours.1.translation) * rng.uniform(0.5, 1.5)
                + rng.unit_vec3() * 0.5;
            (k, vel)
        })
        .collect();
    let mut group = c.benchmark_group("cast_shapes_box_capsule");
    cycle_named(&mut group, "isect", &cases, |(k, vel)| {
        let (a, b) = (&boxes[k.shape_a].0, &caps[k.shape_b]);
        cast_shapes(&k.ours.0, Vec3::ZERO, a, &k.ours.1, *vel, b, 1.0)
    });
    cycle_named(&mut group, "parry", &cases, |(k, vel)| {
        let (a, b) = (&boxes[k.shape_a].1, &pcaps[k.shape_b]);
        let options = pq::ShapeCastOptions::with_max_time_of_impact(1.0);
        pq::cast_shapes(&k.parry.0, Vec3::ZERO, a, &k.parry.1, *vel, b, options).ok()
    });
    group.finish();
}

/// Capsule–box distance: the segment–box kernel, our GJK, parry's `distance` (GJK).
fn capsule_box_distance(c: &mut Criterion) {
    let mut rng = Rng(9);
    let boxes = boxes(&mut rng);
    let (caps, pcaps) = capsules(&mut rng);
    let cases = cases(&mut rng, 1.5);
    let mut group = c.benchmark_group("distance_capsule_box");
    cycle_named(&mut group, "isect_kernel", &cases, |k| {
        distance_capsule_cuboid(&k.ours.0, &caps[k.shape_a], &k.ours.1, &boxes[k.shape_b].0)
    });
    cycle_named(&mut group, "isect_gjk", &cases, |k| {
        distance(&k.ours.0, &caps[k.shape_a], &k.ours.1, &boxes[k.shape_b].0)
    });
    cycle_named(&mut group, "parry", &cases, |k| {
        pq::distance(
            &k.parry.0,
            &pcaps[k.shape_a],
            &k.parry.1,
            &boxes[k.shape_b].1,
        )
        .ok()
    });
    group.finish();
}

/// Box–box distance and closest points: the proof of `query::box_box` (GJK for the
/// pairs it leaves), our GJK alone, parry's `distance` and `closest_points` (its own
/// cuboid–cuboid closest points).
fn box_box_distance(c: &mut Criterion) {
    let mut rng = Rng(10);
    let boxes = boxes(&mut rng);
    let cases = cases(&mut rng, 1.5);
    let ours = |k: &Case| (&boxes[k.shape_a].0, &boxes[k.shape_b].0);
    let theirs = |k: &Case| (&boxes[k.shape_a].1, &boxes[k.shape_b].1);
    let mut group = c.benchmark_group("distance_box_box");
    cycle_named(&mut group, "isect_proof", &cases, |k| {
        let (a, b) = ours(k);
        certified_distance(&k.ours.0, a, &k.ours.1, b)
            .unwrap_or_else(|| distance(&k.ours.0, a, &k.ours.1, b))
    });
    cycle_named(&mut group, "isect_gjk", &cases, |k| {
        let (a, b) = ours(k);
        distance(&k.ours.0, a, &k.ours.1, b)
    });
    cycle_named(&mut group, "parry", &cases, |k| {
        let (a, b) = theirs(k);
        pq::distance(&k.parry.0, a, &k.parry.1, b).ok()
    });
    group.finish();
    let mut group = c.benchmark_group("closest_points_box_box");
    cycle_named(&mut group, "isect_proof", &cases, |k| {
        let (a, b) = ours(k);
        certified_closest_points(&k.ours.0, a, &k.ours.1, b)
            .map(|(d, _, _)| d)
            .unwrap_or_else(|| closest_points(&k.ours.0, a, &k.ours.1, b).distance)
    });
    cycle_named(&mut group, "isect_gjk", &cases, |k| {
        let (a, b) = ours(k);
        closest_points(&k.ours.0, a, &k.ours.1, b)
    });
    cycle_named(&mut group, "parry", &cases, |k| {
        let (a, b) = theirs(k);
        pq::closest_points(&k.parry.0, a, &k.parry.1, b, f32::MAX).ok()
    });
    group.finish();
}

/// Hulls per size in the `contact_hull_*` groups, and poses per hull pair list.
const CONTACT_HULLS: usize = 16;
const CONTACT_POSES: usize = 256;
/// Prediction distance of the `contact_hull_*` groups (the hulls are ~1 across).
const CONTACT_PREDICTION: f32 = 0.1;

/// `CONTACT_HULLS` convex polyhedra of `n` points on an ellipsoid (semi-axes in
/// `[0.6, 1)`; every point a vertex), ours and parry's from the same points.
fn polyhedra(rng: &mut Rng, n: usize) -> (Vec<ConvexPolyhedron<f32>>, Vec<ps::ConvexPolyhedron>) {
    (0..CONTACT_HULLS)
        .map(|_| {
            let scale = rng.vec3(0.6, 1.0);
            let pts: Vec<Vec3> = (0..n).map(|_| rng.unit_vec3() * scale).collect();
            let ours = ConvexPolyhedron::from_points(&pts).expect("hull");
            let parry = ps::ConvexPolyhedron::from_convex_hull(&pts).expect("hull");
            (ours, parry)
        })
        .unzip()
}

/// One contact case: the hull indices and both libraries' poses.
struct HullCase {
    ours: (Pose3<f32>, Pose3<f32>),
    parry: (PPose, PPose),
    a: usize,
    b: usize,
}

/// The seeded pose mix of the `contact_hull_*` groups, a quarter of each: separated
/// by 0.15..0.6 (beyond the prediction), by 0.01..0.09 (within it), touching (the
/// last overlapping offset of a bisection), and penetrating by 0.05..0.5 along the
/// approach direction. Distances are parry's, found by bisection on B's offset
/// along a random direction (the distance grows monotonically with it).
fn hull_cases(rng: &mut Rng, parry: &[ps::ConvexPolyhedron]) -> Vec<HullCase> {
    (0..CONTACT_POSES)
        .map(|k| {
            let (a, b) = (rng.below(CONTACT_HULLS), rng.below(CONTACT_HULLS));
            let (ra, rb) = (rng.rotation(), rng.rotation());
            let dir = rng.unit_vec3();
            let pa = PPose::from_parts(Vec3::ZERO, ra);
            let dist = |t: f32| {
                let pb = PPose::from_parts(dir * t, rb);
                pq::distance(&pa, &parry[a], &pb, &parry[b])
                    .expect("distance")
                    .distance
            };
            let target = match k % 4 {
                0 => rng.uniform(0.15, 0.6),
                1 => rng.uniform(0.01, 0.09),
                _ => 0.0,
            };
            // Bisection for the largest offset with distance ≤ target.
            let (mut lo, mut hi) = (0.0f32, 4.0f32);
            for _ in 0..40 {
                let mid = 0.5 * (lo + hi);
                if dist(mid) > target {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            let t = if k % 4 == 3 {
                lo - rng.uniform(0.05, 0.5)
            } else {
                lo
            };
            HullCase {
                ours: (Pose3::new(Vec3::ZERO, ra), Pose3::new(dir * t, rb)),
                parry: (pa, PPose::from_parts(dir * t, rb)),
                a,
                b,
            }
        })
        .collect()
}

/// `contact` of two convex polyhedra (8, 32, 256 vertices) with a prediction
/// distance, over the whole seeded pose list per iteration, ours beside parry's.
fn contact_hull(c: &mut Criterion<CpuTime>) {
    for n in [8, 32, 256] {
        let mut rng = Rng(1000 + n as u64);
        let (ours, parry) = polyhedra(&mut rng, n);
        let cases = hull_cases(&mut rng, &parry);
        let run_ours = |k: &HullCase| {
            contact(
                &k.ours.0,
                &ours[k.a],
                &k.ours.1,
                &ours[k.b],
                CONTACT_PREDICTION,
            )
        };
        let run_parry = |k: &HullCase| {
            pq::contact(
                &k.parry.0,
                &parry[k.a],
                &k.parry.1,
                &parry[k.b],
                CONTACT_PREDICTION,
            )
            .expect("contact")
        };
        // Same answers: both find a contact on the same pairs.
        let hits = cases.iter().filter(|k| run_ours(k).is_some()).count();
        for (i, k) in cases.iter().enumerate() {
            assert_eq!(
                run_ours(k).is_some(),
                run_parry(k).is_some(),
                "n {n} case {i}"
            );
        }
        assert!(
            hits > CONTACT_POSES / 2 && hits < CONTACT_POSES,
            "hits {hits}"
        );
        let mut group = c.benchmark_group(format!("contact_hull_{n}"));
        group.bench_function("isect", |bench| {
            bench.iter(|| {
                cases
                    .iter()
                    .filter(|k| run_ours(std::hint::black_box(k)).is_some())
                    .count()
            })
        });
        group.bench_function("parry", |bench| {
            bench.iter(|| {
                cases
                    .iter()
                    .filter(|k| run_parry(std::hint::black_box(k)).is_some())
                    .count()
            })
        });
        group.finish();
    }
}

criterion_group! {
    name = hull_contact;
    config = cpu_time_config();
    targets = contact_hull
}
criterion_group!(
    benches,
    gjk_distance,
    epa_contact,
    capsule_contact,
    ball_curved_contact,
    capsule_cylinder,
    capsule_box_distance,
    box_box_distance,
    linear_cast
);
criterion_main!(benches, hull_contact);
