//! Contact manifolds beside parry's: box–box in 3D (parry's `contact_manifolds`
//! dispatcher, its direct cuboid kernel, and its single-point `contact`),
//! polygon–polygon in 2D, and the feature manifolds of curved shapes and triangles
//! (capsule, cylinder, cone against a box, a box against a triangle, two capsules:
//! isect's `dispatch::contact_manifold` beside parry's `contact_manifolds`), on
//! 8,192 seeded cases cycled (about half overlapping).
//!
//! Run: `cargo bench -p isect --bench manifold -- --warm-up-time 1 --measurement-time 2`

use criterion::{criterion_group, criterion_main, Criterion};
use glam::{Quat, Vec2, Vec3};
use isect::math::{Pose2, Pose3};
use isect::query::manifold::{contact_manifold_obb_3d, contact_manifold_polygons};
use isect::shape::{obb_3d, ConvexPolygon};
use parry3d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};

mod support;
use support::{cycle_named, Rng, CASES};

struct Boxes {
    pa: Pose3<f32>,
    pb: Pose3<f32>,
    a: obb_3d::Obb<f32>,
    b: obb_3d::Obb<f32>,
    ppa: parry3d::math::Pose,
    ppb: parry3d::math::Pose,
    pos12: parry3d::math::Pose,
    ca: parry3d::shape::Cuboid,
    cb: parry3d::shape::Cuboid,
}

fn boxes() -> Vec<Boxes> {
    let mut rng = Rng(5);
    let one = |rng: &mut Rng| {
        let (t, h) = (rng.vec3(-1.3, 1.3), rng.vec3(0.2, 1.0));
        let q = rng.turn();
        let o = obb_3d::Obb::new(Vec3::ZERO, h, Quat::IDENTITY).unwrap();
        let pp = parry3d::math::Pose::from_parts(t, q);
        (Pose3::new(t, q), o, pp, parry3d::shape::Cuboid::new(h))
    };
    (0..CASES)
        .map(|_| {
            let ((pa, a, ppa, ca), (pb, b, ppb, cb)) = (one(&mut rng), one(&mut rng));
            Boxes {
                pa,
                pb,
                a,
                b,
                ppa,
                ppb,
                pos12: ppa.inv_mul(&ppb),
                ca,
                cb,
            }
        })
        .collect()
}

fn bench_box_box(c: &mut Criterion) {
    let cases = boxes();
    let mut g = c.benchmark_group("manifold_box_box_3d");
    cycle_named(&mut g, "isect_contact_manifold_obb_3d", &cases, |k| {
        contact_manifold_obb_3d(&k.pa, &k.a, &k.pb, &k.b, 0.0)
    });
    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
    cycle_named(&mut g, "parry_contact_manifolds", &cases, |k| {
        manifolds.clear();
        DefaultQueryDispatcher
            .contact_manifolds(&k.pos12, &k.ca, &k.cb, 0.0, &mut manifolds, &mut None)
            .unwrap();
        manifolds.len()
    });
    let mut manifold = ContactManifold::<(), ()>::new();
    cycle_named(
        &mut g,
        "parry_kernel_contact_manifold_cuboid_cuboid",
        &cases,
        |k| {
            manifold.clear();
            parry3d::query::details::contact_manifold_cuboid_cuboid(
                &k.pos12,
                &k.ca,
                &k.cb,
                0.0,
                &mut manifold,
            );
            manifold.points.len()
        },
    );
    cycle_named(&mut g, "parry_contact", &cases, |k| {
        parry3d::query::contact(&k.ppa, &k.ca, &k.ppb, &k.cb, 0.0).unwrap()
    });
    g.finish();
}

struct Polygons {
    pa: Pose2<f32>,
    pb: Pose2<f32>,
    a: ConvexPolygon<f32>,
    b: ConvexPolygon<f32>,
    pos12: parry2d::math::Pose,
    ca: parry2d::shape::ConvexPolygon,
    cb: parry2d::shape::ConvexPolygon,
}

/// A hexagon stretched by random factors (convex).
fn hexagon(rng: &mut Rng) -> Vec<Vec2> {
    let (sx, sy) = (rng.uniform(0.3, 1.2), rng.uniform(0.3, 1.2));
    (0..6)
        .map(|i| {
            let t = i as f32 * std::f32::consts::TAU / 6.0;
            Vec2::new(sx * t.cos(), sy * t.sin())
        })
        .collect()
}

fn polygons() -> Vec<Polygons> {
    let mut rng = Rng(9);
    let one = |rng: &mut Rng| {
        let pts = hexagon(rng);
        let t = Vec2::new(rng.uniform(-1.6, 1.6), rng.uniform(-1.6, 1.6));
        let ang = rng.uniform(-3.2, 3.2);
        let p = parry2d::shape::ConvexPolygon::from_convex_polyline(pts.clone()).unwrap();
        let pose = parry2d::math::Pose::new(t, ang);
        (
            Pose2::new(t, ang),
            ConvexPolygon::new(&pts).unwrap(),
            pose,
            p,
        )
    };
    (0..CASES)
        .map(|_| {
            let ((pa, a, ppa, ca), (pb, b, ppb, cb)) = (one(&mut rng), one(&mut rng));
            Polygons {
                pa,
                pb,
                a,
                b,
                pos12: ppa.inv_mul(&ppb),
                ca,
                cb,
            }
        })
        .collect()
}

fn bench_polygons(c: &mut Criterion) {
    use parry2d::query::PersistentQueryDispatcher as _;
    let cases = polygons();
    let mut g = c.benchmark_group("manifold_polygon_polygon_2d");
    cycle_named(&mut g, "isect_contact_manifold_polygons", &cases, |k| {
        contact_manifold_polygons(&k.pa, &k.a, &k.pb, &k.b, 0.0)
    });
    let mut manifolds: Vec<parry2d::query::ContactManifold<(), ()>> = Vec::new();
    cycle_named(&mut g, "parry_contact_manifolds", &cases, |k| {
        manifolds.clear();
        parry2d::query::DefaultQueryDispatcher
            .contact_manifolds(&k.pos12, &k.ca, &k.cb, 0.0, &mut manifolds, &mut None)
            .unwrap();
        manifolds.len()
    });
    g.finish();
}

/// A pair of kinds for the feature-manifold groups: each side as isect's shape and
/// parry's.
type Kind = (
    isect::shape::shape_3d::Shape<f32>,
    parry3d::shape::SharedShape,
);

fn kind(name: &str) -> Kind {
    use isect::shape::{Aabb, Capsule, Cone, Cylinder, Triangle};
    use parry3d::shape::SharedShape;
    let h = Vec3::new(0.6, 0.4, 0.5);
    match name {
        "box" => (
            Aabb::from_center(Vec3::ZERO, h).unwrap().into(),
            SharedShape::cuboid(h.x, h.y, h.z),
        ),
        "capsule" => (
            Capsule::aligned(1, 0.5, 0.3).unwrap().into(),
            SharedShape::capsule_y(0.5, 0.3),
        ),
        "cylinder" => (
            Cylinder::new(0.5, 0.4).unwrap().into(),
            SharedShape::cylinder(0.5, 0.4),
        ),
        "cone" => (
            Cone::new(0.5, 0.5).unwrap().into(),
            SharedShape::cone(0.5, 0.5),
        ),
        _ => {
            let [a, b, c] = [
                Vec3::new(-0.9, 0.0, -0.6),
                Vec3::new(0.9, 0.1, -0.5),
                Vec3::new(0.0, -0.1, 0.9),
            ];
            (
                Triangle::new(a, b, c).unwrap().into(),
                SharedShape::triangle(a, b, c),
            )
        }
    }
}

fn bench_feature_pairs(c: &mut Criterion) {
    for (na, nb) in [
        ("box", "capsule"),
        ("box", "cylinder"),
        ("box", "cone"),
        ("triangle", "box"),
        ("capsule", "capsule"),
    ] {
        let ((a, pa_shape), (b, pb_shape)) = (kind(na), kind(nb));
        let mut rng = Rng(17);
        let cases: Vec<(Pose3<f32>, Pose3<f32>, parry3d::math::Pose)> = (0..CASES)
            .map(|_| {
                let (ta, tb) = (rng.vec3(-0.5, 0.5), rng.vec3(-0.5, 0.5));
                let (qa, qb) = (rng.turn(), rng.turn());
                let pos12 = parry3d::math::Pose::from_parts(ta, qa)
                    .inv_mul(&parry3d::math::Pose::from_parts(tb, qb));
                (Pose3::new(ta, qa), Pose3::new(tb, qb), pos12)
            })
            .collect();
        let mut g = c.benchmark_group(format!("manifold_{na}_{nb}_3d"));
        cycle_named(&mut g, "isect_dispatch_contact_manifold", &cases, |k| {
            isect::query::dispatch::contact_manifold(&k.0, &a, &k.1, &b, 0.0)
        });
        let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
        cycle_named(&mut g, "parry_contact_manifolds", &cases, |k| {
            manifolds.clear();
            DefaultQueryDispatcher
                .contact_manifolds(
                    &k.2,
                    &*pa_shape.0,
                    &*pb_shape.0,
                    0.0,
                    &mut manifolds,
                    &mut None,
                )
                .unwrap();
            manifolds.len()
        });
        g.finish();
    }
}

criterion_group!(benches, bench_box_box, bench_polygons, bench_feature_pairs);
criterion_main!(benches);
