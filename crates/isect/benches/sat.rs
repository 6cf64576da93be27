//! Separating-axis kernels beside parry's public API and its direct kernels, on 8,192
//! seeded cases cycled (about half of them intersecting).
//!
//! Like is paired with like by the id's last part, which `scripts/bench_table.py`
//! matches: `…/bool` answers overlap or not; `…/contact` the separating normal and
//! depth (our `mtv`; parry's contact also gives witness points); `…/sat` depth when
//! overlapping and distance when apart. Parry's kernels get the relative pose
//! precomputed; our OBB kernels take both boxes in world space, our polygon
//! kernels two poses (as parry's public API).
//!
//! Run: `cargo bench -p isect --bench sat -- --warm-up-time 1 --measurement-time 2`

use criterion::{criterion_group, criterion_main, Criterion};
use glam::{Quat, Vec2, Vec3};
use isect::algo::{sat_2d, sat_3d};
use isect::math::Pose2;
use isect::shape::{obb_2d, obb_3d, ConvexPolygon};

mod support;
use support::{cycle, Rng, CASES};

/// Two oriented boxes: ours (`O`), parry's poses (`P`) and cuboids (`C`).
struct Boxes<O, P, C> {
    a: O,
    b: O,
    pa: P,
    pb: P,
    /// B's pose relative to A's, for parry's kernels.
    pos12: P,
    ca: C,
    cb: C,
}

impl<O, P, C> Boxes<O, P, C> {
    fn new((a, pa, ca): (O, P, C), (b, pb, cb): (O, P, C), inv_mul: fn(&P, &P) -> P) -> Self {
        let pos12 = inv_mul(&pa, &pb);
        Self {
            a,
            b,
            pa,
            pb,
            pos12,
            ca,
            cb,
        }
    }
}

type Boxes2 = Boxes<obb_2d::Obb<f32>, parry2d::math::Pose, parry2d::shape::Cuboid>;
type Boxes3 = Boxes<obb_3d::Obb<f32>, parry3d::math::Pose, parry3d::shape::Cuboid>;

fn boxes_2d() -> Vec<Boxes2> {
    let mut rng = Rng(11);
    (0..CASES)
        .map(|_| {
            let mut one = || {
                let (c, h) = (
                    Vec2::new(rng.uniform(-2.2, 2.2), rng.uniform(-2.2, 2.2)),
                    Vec2::new(rng.uniform(0.1, 2.0), rng.uniform(0.1, 2.0)),
                );
                let ang = rng.uniform(-3.2, 3.2);
                (
                    obb_2d::Obb::from_angle(c, h, ang).unwrap(),
                    parry2d::math::Pose::new(c, ang),
                    parry2d::shape::Cuboid::new(h),
                )
            };
            Boxes::new(one(), one(), |pa, pb| pa.inv_mul(pb))
        })
        .collect()
}

/// The OBB–OBB group `$group` on `$cases`: our `$sat` kernels beside parry's
/// (`$parry`: parry2d or parry3d) public queries and direct cuboid kernels.
macro_rules! obb_group {
    ($c:expr, $group:literal, $cases:expr, $sat:ident, $parry:ident) => {{
        let cases = $cases;
        let mut g = $c.benchmark_group($group);
        cycle(&mut g, "isect_intersects", "bool", &cases, |k| {
            $sat::intersects_obb_obb(&k.a, &k.b)
        });
        cycle(&mut g, "isect_mtv", "contact", &cases, |k| {
            $sat::obb_obb_mtv(&k.a, &k.b)
        });
        cycle(&mut g, "parry_intersection_test", "bool", &cases, |k| {
            $parry::query::intersection_test(&k.pa, &k.ca, &k.pb, &k.cb).unwrap()
        });
        cycle(&mut g, "parry_contact", "contact", &cases, |k| {
            $parry::query::contact(&k.pa, &k.ca, &k.pb, &k.cb, 0.0).unwrap()
        });
        cycle(
            &mut g,
            "parry_kernel_intersection_test_cuboid_cuboid",
            "bool",
            &cases,
            |k| $parry::query::details::intersection_test_cuboid_cuboid(&k.pos12, &k.ca, &k.cb),
        );
        cycle(
            &mut g,
            "parry_kernel_contact_cuboid_cuboid",
            "contact",
            &cases,
            |k| $parry::query::details::contact_cuboid_cuboid(&k.pos12, &k.ca, &k.cb, 0.0),
        );
        g.finish();
    }};
}

fn bench_obb_2d(c: &mut Criterion) {
    obb_group!(c, "obb_obb_2d", boxes_2d(), sat_2d, parry2d);
}

fn boxes_3d() -> Vec<Boxes3> {
    let mut rng = Rng(12);
    let mut v = |lo, hi| rng.vec3(lo, hi);
    (0..CASES)
        .map(|_| {
            let mut one = || {
                let (c, h) = (v(-2.0, 2.0), v(0.1, 2.0));
                let q = Quat::from_axis_angle(
                    v(-1.0, 1.0).try_normalize().unwrap_or(Vec3::Z),
                    v(0.0, 6.3).x,
                );
                (
                    obb_3d::Obb::new(c, h, q).unwrap(),
                    parry3d::math::Pose::from_parts(c, q),
                    parry3d::shape::Cuboid::new(h),
                )
            };
            Boxes::new(one(), one(), |pa, pb| pa.inv_mul(pb))
        })
        .collect()
}

fn bench_obb_3d(c: &mut Criterion) {
    obb_group!(c, "obb_obb_3d", boxes_3d(), sat_3d, parry3d);
}

struct Polygons {
    a: ConvexPolygon<f32>,
    b: ConvexPolygon<f32>,
    pose_a: Pose2<f32>,
    pose_b: Pose2<f32>,
    pa: parry2d::math::Pose,
    pb: parry2d::math::Pose,
    pos12: parry2d::math::Pose,
    qa: parry2d::shape::ConvexPolygon,
    qb: parry2d::shape::ConvexPolygon,
}

/// 3–8 vertices on an ellipse, accepted by both libraries.
fn polygon(rng: &mut Rng) -> (ConvexPolygon<f32>, parry2d::shape::ConvexPolygon) {
    loop {
        let k = 3 + (rng.uniform(0.0, 6.0) as usize);
        let mut angles: Vec<f32> = (0..k)
            .map(|_| rng.uniform(0.0, core::f32::consts::TAU))
            .collect();
        angles.sort_by(f32::total_cmp);
        let (rx, ry) = (rng.uniform(0.3, 2.0), rng.uniform(0.3, 2.0));
        let pts: Vec<Vec2> = angles
            .iter()
            .map(|&t| Vec2::new(rx * t.cos(), ry * t.sin()))
            .collect();
        if let Ok(ours) = ConvexPolygon::new(&pts) {
            if let Some(theirs) =
                parry2d::shape::ConvexPolygon::from_convex_polyline(ours.vertices().to_vec())
            {
                return (ours, theirs);
            }
        }
    }
}

fn polygons() -> Vec<Polygons> {
    let mut rng = Rng(13);
    (0..CASES)
        .map(|_| {
            let ((a, qa), (b, qb)) = (polygon(&mut rng), polygon(&mut rng));
            let mut pose = || {
                (
                    Vec2::new(rng.uniform(-2.0, 2.0), rng.uniform(-2.0, 2.0)),
                    rng.uniform(-3.2, 3.2),
                )
            };
            let ((ta, aa), (tb, ab)) = (pose(), pose());
            let (pa, pb) = (
                parry2d::math::Pose::new(ta, aa),
                parry2d::math::Pose::new(tb, ab),
            );
            Polygons {
                a,
                b,
                pose_a: Pose2::new(ta, aa),
                pose_b: Pose2::new(tb, ab),
                pa,
                pb,
                pos12: pa.inv_mul(&pb),
                qa,
                qb,
            }
        })
        .collect()
}

fn bench_polygons(c: &mut Criterion) {
    let cases = polygons();
    let mut g = c.benchmark_group("polygon_polygon");
    cycle(&mut g, "isect_intersects", "bool", &cases, |k| {
        sat_2d::intersects_polygon_polygon(&k.pose_a, &k.a, &k.pose_b, &k.b)
    });
    cycle(&mut g, "isect_sat", "sat", &cases, |k| {
        sat_2d::polygon_polygon(&k.pose_a, &k.a, &k.pose_b, &k.b)
    });
    cycle(&mut g, "parry_intersection_test", "bool", &cases, |k| {
        parry2d::query::intersection_test(&k.pa, &k.qa, &k.pb, &k.qb).unwrap()
    });
    cycle(&mut g, "isect_mtv", "contact", &cases, |k| {
        sat_2d::polygon_polygon_mtv(&k.pose_a, &k.a, &k.pose_b, &k.b)
    });
    cycle(&mut g, "parry_contact", "contact", &cases, |k| {
        parry2d::query::contact(&k.pa, &k.qa, &k.pb, &k.qb, 0.0).unwrap()
    });
    // What `isect_sat` answers: depth when overlapping, distance when apart.
    cycle(
        &mut g,
        "parry_contact_then_distance",
        "sat",
        &cases,
        |k| match parry2d::query::contact(&k.pa, &k.qa, &k.pb, &k.qb, 0.0).unwrap() {
            Some(c) => c.dist,
            None => {
                parry2d::query::distance(&k.pa, &k.qa, &k.pb, &k.qb)
                    .unwrap()
                    .distance
            }
        },
    );
    cycle(
        &mut g,
        "parry_kernel_intersection_test_support_map_support_map",
        "bool",
        &cases,
        |k| {
            parry2d::query::details::intersection_test_support_map_support_map(
                &k.pos12, &k.qa, &k.qb,
            )
        },
    );
    cycle(
        &mut g,
        "parry_kernel_contact_support_map_support_map",
        "contact",
        &cases,
        |k| parry2d::query::details::contact_support_map_support_map(&k.pos12, &k.qa, &k.qb, 0.0),
    );
    g.finish();
}

/// 2D box–box distance: the closed form of `query::box_box_2d` (what the 2D dispatch
/// runs), our GJK alone (what it ran before) and parry2d's `distance`, on boxes of
/// half extents 0.1–1, A at the origin and B's centre within 2 of it on each axis,
/// both turned at random (some overlapping, most apart).
fn bench_box_distance_2d(c: &mut Criterion) {
    use isect::query::box_box_2d;
    use isect::shape::Aabb;
    let mut rng = Rng(13);
    let cases: Vec<_> = (0..CASES)
        .map(|_| {
            let mut one = |spread: f32| {
                let c = Vec2::new(rng.uniform(-spread, spread), rng.uniform(-spread, spread));
                let h = Vec2::new(rng.uniform(0.1, 1.0), rng.uniform(0.1, 1.0));
                let ang = rng.uniform(-3.2, 3.2);
                let ours = (Pose2::new(c, ang), Aabb::new(-h, h).unwrap());
                let parry = (
                    parry2d::math::Pose::new(c, ang),
                    parry2d::shape::Cuboid::new(h),
                );
                (ours, parry)
            };
            (one(0.0), one(2.0))
        })
        .collect();
    let mut g = c.benchmark_group("distance_box_box_2d");
    support::cycle_named(&mut g, "isect_closed_form", &cases, |((a, _), (b, _))| {
        box_box_2d::distance(&a.0, &a.1, &b.0, &b.1)
    });
    support::cycle_named(&mut g, "isect_gjk", &cases, |((a, _), (b, _))| {
        isect::query::distance::distance(&a.0, &a.1, &b.0, &b.1)
    });
    support::cycle_named(&mut g, "parry", &cases, |((_, a), (_, b))| {
        parry2d::query::distance(&a.0, &a.1, &b.0, &b.1).ok()
    });
    g.finish();
}

/// 2D box–triangle and box–polygon distance through the dispatch (GJK, after the
/// dispatch's checks), our GJK called directly and parry2d's `distance`: boxes of half
/// extents 0.1–1 at the origin, polygons of 3–8 vertices on ellipses (semi-axes
/// 0.3–2) within 3 of it on each axis, and the triangles of their first three
/// vertices. (A closed form from the polygons' separating axes and nearest
/// vertex–edge pair, tried in session 25, ran 240 and 360 ns here: slower than GJK.)
fn bench_box_polygon_distance_2d(c: &mut Criterion) {
    use isect::shape::shape_2d::Shape;
    use isect::shape::Aabb;
    let mut rng = Rng(14);
    let cases: Vec<_> = (0..CASES)
        .map(|_| {
            let h = Vec2::new(rng.uniform(0.1, 1.0), rng.uniform(0.1, 1.0));
            let (ang_a, ang_b) = (rng.uniform(-3.2, 3.2), rng.uniform(-3.2, 3.2));
            let t = Vec2::new(rng.uniform(-3.0, 3.0), rng.uniform(-3.0, 3.0));
            let (poly, parry_poly) = polygon(&mut rng);
            let ours = (
                (
                    Pose2::new(Vec2::ZERO, ang_a),
                    Shape::Cuboid(Aabb::new(-h, h).unwrap()),
                ),
                (Pose2::new(t, ang_b), Shape::Polygon(poly)),
            );
            let theirs = (
                (
                    parry2d::math::Pose::new(Vec2::ZERO, ang_a),
                    parry2d::shape::Cuboid::new(h),
                ),
                (parry2d::math::Pose::new(t, ang_b), parry_poly),
            );
            (ours, theirs)
        })
        .collect();
    let triangles: Vec<_> = cases
        .iter()
        .map(|((a, b), (pa, pb))| {
            let Shape::Polygon(poly) = &b.1 else {
                unreachable!()
            };
            let v: Vec<Vec2> = poly.vertices().iter().take(3).copied().collect();
            let ours = isect::shape::Triangle::new(v[0], v[1], v[2]).unwrap();
            let theirs = parry2d::shape::Triangle::new(v[0], v[1], v[2]);
            (
                (a.clone(), (b.0, Shape::Triangle(ours))),
                (*pa, (pb.0, theirs)),
            )
        })
        .collect();
    pair_distance_group(c, "distance_box_triangle_2d", &triangles);
    pair_distance_group(c, "distance_box_polygon_2d", &cases);
}

/// A box at a pose and a shape at another, ours (`Shape`) and parry2d's (`P`).
type PairCase<P> = (
    (
        (Pose2<f32>, isect::shape::shape_2d::Shape<f32>),
        (Pose2<f32>, isect::shape::shape_2d::Shape<f32>),
    ),
    (
        (parry2d::math::Pose, parry2d::shape::Cuboid),
        (parry2d::math::Pose, P),
    ),
);

/// The group `name` of 2D pair distances: through our dispatch, our GJK called
/// directly, and parry2d's `distance`.
fn pair_distance_group<P: parry2d::shape::Shape>(
    c: &mut Criterion,
    name: &str,
    cases: &[PairCase<P>],
) {
    use isect::query::dispatch;
    let mut g = c.benchmark_group(name);
    support::cycle_named(&mut g, "isect_dispatch", cases, |((a, b), _)| {
        dispatch::distance(&a.0, &a.1, &b.0, &b.1)
    });
    support::cycle_named(&mut g, "isect_gjk", cases, |((a, b), _)| {
        isect::query::distance::distance(&a.0, &a.1, &b.0, &b.1)
    });
    support::cycle_named(&mut g, "parry", cases, |(_, (a, b))| {
        parry2d::query::distance(&a.0, &a.1, &b.0, &b.1).ok()
    });
    g.finish();
}

criterion_group!(
    benches,
    bench_obb_2d,
    bench_obb_3d,
    bench_polygons,
    bench_box_distance_2d,
    bench_box_polygon_distance_2d
);
criterion_main!(benches);
