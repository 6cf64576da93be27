//! Contact manifolds beside parry's: box–box in 3D (parry's `contact_manifolds`
//! dispatcher, its direct cuboid kernel, and its single-point `contact`),
//! polygon–polygon in 2D, and every other convex pair kind through isect's
//! `dispatch::contact_manifold` beside parry's `contact_manifolds`: in 3D the box,
//! rounded box, ball, capsule, cylinder, cone, convex hull and triangle, in 2D the
//! box, capsule, polygon, rounded polygon, triangle and segment (the feature
//! manifolds of curved shapes, the triangle kernels, the polyhedron clip, the
//! single-point ball contacts), on 8,192 seeded cases cycled (about half
//! overlapping). Before each group it prints, outside the timing, how far the two
//! agree: the fraction of cases where both, or only one, report a point, and the
//! difference of the deepest point's depth.
//!
//! `manifold_mesh_mesh_3d`: two open bumpy spheres of 320 triangles, the second moved
//! 0.3 along a seeded direction and turned, at a prediction of 0.5 (about 13,000 pairs
//! of triangles within it): isect's `dispatch::contact_manifolds_by_normal` (every
//! pair's manifold, merged by normal) beside parry's `contact_manifolds` (one
//! manifold a pair of triangles), on 8 seeded poses cycled.
//!
//! Run: `cargo bench -p isect --bench manifold -- --warm-up-time 1 --measurement-time 2`

use criterion::{criterion_group, criterion_main, Criterion};
use glam::{Quat, Vec2, Vec3};
use isect::algo::gjk::GjkVector;
use isect::math::{Pose2, Pose3};
use isect::query::dispatch::DispatchShape;
use isect::query::manifold::{contact_manifold_obb_3d, contact_manifold_polygons, Manifold};
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
    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
    agreement(
        "manifold_box_box_3d",
        &cases,
        |k| our_depth(contact_manifold_obb_3d(&k.pa, &k.a, &k.pb, &k.b, 0.0)),
        |k| {
            manifolds.clear();
            DefaultQueryDispatcher
                .contact_manifolds(&k.pos12, &k.ca, &k.cb, 0.0, &mut manifolds, &mut None)
                .unwrap();
            parry_depth_3d(&manifolds)
        },
    );
    let mut g = c.benchmark_group("manifold_box_box_3d");
    cycle_named(&mut g, "isect_contact_manifold_obb_3d", &cases, |k| {
        contact_manifold_obb_3d(&k.pa, &k.a, &k.pb, &k.b, 0.0)
    });
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
    let mut manifolds: Vec<parry2d::query::ContactManifold<(), ()>> = Vec::new();
    agreement(
        "manifold_polygon_polygon_2d",
        &cases,
        |k| our_depth(contact_manifold_polygons(&k.pa, &k.a, &k.pb, &k.b, 0.0)),
        |k| {
            manifolds.clear();
            parry2d::query::DefaultQueryDispatcher
                .contact_manifolds(&k.pos12, &k.ca, &k.cb, 0.0, &mut manifolds, &mut None)
                .unwrap();
            parry_depth_2d(&manifolds)
        },
    );
    let mut g = c.benchmark_group("manifold_polygon_polygon_2d");
    cycle_named(&mut g, "isect_contact_manifold_polygons", &cases, |k| {
        contact_manifold_polygons(&k.pa, &k.a, &k.pb, &k.b, 0.0)
    });
    cycle_named(&mut g, "parry_contact_manifolds", &cases, |k| {
        manifolds.clear();
        parry2d::query::DefaultQueryDispatcher
            .contact_manifolds(&k.pos12, &k.ca, &k.cb, 0.0, &mut manifolds, &mut None)
            .unwrap();
        manifolds.len()
    });
    g.finish();
}

/// Prints how far isect's manifolds and parry's agree on `cases` (outside the timing):
/// the fraction of cases where both report a point, where only one does, and the mean
/// and largest difference of the deepest point's depth where both do. `ours` and
/// `theirs` give that depth for a case (`None`: no point).
fn agreement<C>(
    group: &str,
    cases: &[C],
    mut ours: impl FnMut(&C) -> Option<f32>,
    mut theirs: impl FnMut(&C) -> Option<f32>,
) {
    let (mut both, mut only_ours, mut only_theirs) = (0usize, 0usize, 0usize);
    let (mut sum, mut max) = (0.0f64, 0.0f32);
    for k in cases {
        match (ours(k), theirs(k)) {
            (Some(x), Some(y)) => {
                both += 1;
                sum += f64::from((x - y).abs());
                max = max.max((x - y).abs());
            }
            (Some(_), None) => only_ours += 1,
            (None, Some(_)) => only_theirs += 1,
            (None, None) => {}
        }
    }
    let n = cases.len() as f64;
    println!(
        "agreement {group}: both {:.4}, isect only {:.4}, parry only {:.4}, \
         mean |depth difference| {:.3e}, max {:.3e}",
        both as f64 / n,
        only_ours as f64 / n,
        only_theirs as f64 / n,
        sum / both.max(1) as f64,
        max,
    );
}

/// The depth of isect's deepest point (`None`: no manifold or no point).
fn our_depth<V: isect::math::Vector<Scalar = f32>>(m: Option<Manifold<V>>) -> Option<f32> {
    m.filter(|m| !m.points().is_empty()).map(|m| m.max_depth())
}

/// The depth of the deepest point among parry's 3D manifolds (`None`: no point).
fn parry_depth_3d(manifolds: &[ContactManifold<(), ()>]) -> Option<f32> {
    let dist = manifolds.iter().flat_map(|m| &m.points).map(|p| p.dist);
    dist.reduce(f32::min).map(|d| -d)
}

/// As [`parry_depth_3d`], in 2D.
fn parry_depth_2d(manifolds: &[parry2d::query::ContactManifold<(), ()>]) -> Option<f32> {
    let dist = manifolds.iter().flat_map(|m| &m.points).map(|p| p.dist);
    dist.reduce(f32::min).map(|d| -d)
}

/// What the feature-manifold groups need of a dimension: isect's vector and shape
/// enum, parry's shape, pose and manifold, the seeded poses of a case and parry's
/// `contact_manifolds`.
trait Dim {
    type V: GjkVector<Scalar = f32>;
    type Shape: DispatchShape<Self::V>;
    type Parry;
    type ParryPose;
    type ParryManifold;
    /// The suffix of the group names.
    const NAME: &'static str;

    /// A case: the poses of A and B (isect's), then B in A's frame (parry's).
    fn case(rng: &mut Rng) -> Case<Self>;

    /// Parry's `contact_manifolds` at prediction 0, into `out`.
    fn contact_manifolds(
        pos12: &Self::ParryPose,
        a: &Self::Parry,
        b: &Self::Parry,
        out: &mut Vec<Self::ParryManifold>,
    );

    /// The depth of the deepest point among parry's manifolds (`None`: no point).
    fn parry_depth(manifolds: &[Self::ParryManifold]) -> Option<f32>;
}

/// A case of dimension `D`: as [`Dim::case`].
type Case<D> = (
    <<D as Dim>::V as isect::math::Vector>::Pose,
    <<D as Dim>::V as isect::math::Vector>::Pose,
    <D as Dim>::ParryPose,
);

struct D3;

impl Dim for D3 {
    type V = Vec3;
    type Shape = isect::shape::shape_3d::Shape<f32>;
    type Parry = parry3d::shape::SharedShape;
    type ParryPose = parry3d::math::Pose;
    type ParryManifold = ContactManifold<(), ()>;
    const NAME: &'static str = "3d";

    fn case(rng: &mut Rng) -> Case<Self> {
        let (ta, tb) = (rng.vec3(-0.5, 0.5), rng.vec3(-0.5, 0.5));
        let (qa, qb) = (rng.turn(), rng.turn());
        let pos12 = parry3d::math::Pose::from_parts(ta, qa)
            .inv_mul(&parry3d::math::Pose::from_parts(tb, qb));
        (Pose3::new(ta, qa), Pose3::new(tb, qb), pos12)
    }

    #[inline]
    fn contact_manifolds(
        pos12: &Self::ParryPose,
        a: &Self::Parry,
        b: &Self::Parry,
        out: &mut Vec<Self::ParryManifold>,
    ) {
        DefaultQueryDispatcher
            .contact_manifolds(pos12, &*a.0, &*b.0, 0.0, out, &mut None)
            .unwrap();
    }

    fn parry_depth(manifolds: &[Self::ParryManifold]) -> Option<f32> {
        parry_depth_3d(manifolds)
    }
}

struct D2;

impl Dim for D2 {
    type V = Vec2;
    type Shape = isect::shape::shape_2d::Shape<f32>;
    type Parry = parry2d::shape::SharedShape;
    type ParryPose = parry2d::math::Pose;
    type ParryManifold = parry2d::query::ContactManifold<(), ()>;
    const NAME: &'static str = "2d";

    fn case(rng: &mut Rng) -> Case<Self> {
        let mut t = || Vec2::new(rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5));
        let (ta, tb) = (t(), t());
        let (aa, ab) = (rng.uniform(0.0, 6.3), rng.uniform(0.0, 6.3));
        let pos12 = parry2d::math::Pose::new(ta, aa).inv_mul(&parry2d::math::Pose::new(tb, ab));
        (Pose2::new(ta, aa), Pose2::new(tb, ab), pos12)
    }

    #[inline]
    fn contact_manifolds(
        pos12: &Self::ParryPose,
        a: &Self::Parry,
        b: &Self::Parry,
        out: &mut Vec<Self::ParryManifold>,
    ) {
        use parry2d::query::PersistentQueryDispatcher as _;
        parry2d::query::DefaultQueryDispatcher
            .contact_manifolds(pos12, &*a.0, &*b.0, 0.0, out, &mut None)
            .unwrap();
    }

    fn parry_depth(manifolds: &[Self::ParryManifold]) -> Option<f32> {
        parry_depth_2d(manifolds)
    }
}

/// The group `manifold_{na}_{nb}_{D::NAME}`: isect's `dispatch::contact_manifold` beside
/// parry's `contact_manifolds` on A = `kind(na)` and B = `kind(nb)` over 8,192 seeded
/// poses, after printing their agreement.
fn bench_pair<D: Dim>(
    c: &mut Criterion,
    kind: fn(&str) -> (D::Shape, D::Parry),
    (na, nb): (&str, &str),
) {
    let ((a, pa_shape), (b, pb_shape)) = (kind(na), kind(nb));
    let mut rng = Rng(17);
    let cases: Vec<Case<D>> = (0..CASES).map(|_| D::case(&mut rng)).collect();
    let name = format!("manifold_{na}_{nb}_{}", D::NAME);
    let mut manifolds: Vec<D::ParryManifold> = Vec::new();
    agreement(
        &name,
        &cases,
        |k| {
            our_depth(isect::query::dispatch::contact_manifold(
                &k.0, &a, &k.1, &b, 0.0,
            ))
        },
        |k| {
            manifolds.clear();
            D::contact_manifolds(&k.2, &pa_shape, &pb_shape, &mut manifolds);
            D::parry_depth(&manifolds)
        },
    );
    let mut g = c.benchmark_group(name);
    cycle_named(&mut g, "isect_dispatch_contact_manifold", &cases, |k| {
        isect::query::dispatch::contact_manifold(&k.0, &a, &k.1, &b, 0.0)
    });
    cycle_named(&mut g, "parry_contact_manifolds", &cases, |k| {
        manifolds.clear();
        D::contact_manifolds(&k.2, &pa_shape, &pb_shape, &mut manifolds);
        manifolds.len()
    });
    g.finish();
}

/// A 3D kind for the feature-manifold groups, as isect's shape and parry's.
fn kind_3d(
    name: &str,
) -> (
    isect::shape::shape_3d::Shape<f32>,
    parry3d::shape::SharedShape,
) {
    use isect::shape::shape_3d::Shape;
    use isect::shape::{Aabb, Ball, Capsule, Cone, ConvexPolyhedron, Cylinder, Rounded, Triangle};
    use parry3d::shape::SharedShape;
    let h = Vec3::new(0.6, 0.4, 0.5);
    match name {
        "ball" => (
            Shape::Ball(Ball::new(Vec3::ZERO, 0.5).unwrap()),
            SharedShape::ball(0.5),
        ),
        "box" => (
            Aabb::from_center(Vec3::ZERO, h).unwrap().into(),
            SharedShape::cuboid(h.x, h.y, h.z),
        ),
        // The box's outer extents: a core smaller by the radius.
        "rounded_box" => {
            let (core, r) = (h - Vec3::splat(0.1), 0.1);
            (
                Shape::RoundedCuboid(
                    Rounded::new(Aabb::from_center(Vec3::ZERO, core).unwrap(), r).unwrap(),
                ),
                SharedShape::round_cuboid(core.x, core.y, core.z, r),
            )
        }
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
        // The hull of 24 seeded points on an ellipsoid (every point a vertex).
        "hull" => {
            let mut rng = Rng(23);
            let points: Vec<Vec3> = (0..24)
                .map(|_| rng.unit_vec3() * Vec3::new(0.6, 0.45, 0.5))
                .collect();
            (
                Shape::Polyhedron(ConvexPolyhedron::from_points(&points).unwrap()),
                SharedShape::convex_hull(&points).unwrap(),
            )
        }
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

/// A 2D kind for the feature-manifold groups, as isect's shape and parry's.
fn kind_2d(
    name: &str,
) -> (
    isect::shape::shape_2d::Shape<f32>,
    parry2d::shape::SharedShape,
) {
    use isect::shape::shape_2d::Shape;
    use isect::shape::{Aabb, Capsule, ConvexPolygon, Rounded, Segment, Triangle};
    use parry2d::shape::SharedShape;
    let h = Vec2::new(0.6, 0.4);
    // A convex pentagon, counter-clockwise.
    let pentagon = || {
        vec![
            Vec2::new(-0.6, -0.4),
            Vec2::new(0.5, -0.5),
            Vec2::new(0.7, 0.2),
            Vec2::new(0.1, 0.6),
            Vec2::new(-0.5, 0.3),
        ]
    };
    match name {
        "box" => (
            Shape::Cuboid(Aabb::from_center(Vec2::ZERO, h).unwrap()),
            SharedShape::cuboid(h.x, h.y),
        ),
        "capsule" => (
            Shape::Capsule(Capsule::aligned(1, 0.5, 0.3).unwrap()),
            SharedShape::capsule_y(0.5, 0.3),
        ),
        "polygon" => (
            Shape::Polygon(ConvexPolygon::new(&pentagon()).unwrap()),
            SharedShape::convex_polyline(pentagon()).unwrap(),
        ),
        "rounded_polygon" => (
            Shape::RoundedPolygon(
                Rounded::new(ConvexPolygon::new(&pentagon()).unwrap(), 0.1).unwrap(),
            ),
            SharedShape::round_convex_polyline(pentagon(), 0.1).unwrap(),
        ),
        "segment" => {
            let (a, b) = (Vec2::new(-0.7, -0.1), Vec2::new(0.6, 0.2));
            (
                Shape::Segment(Segment::new(a, b).unwrap()),
                SharedShape::segment(a, b),
            )
        }
        _ => {
            let [a, b, c] = [
                Vec2::new(-0.7, -0.4),
                Vec2::new(0.6, -0.3),
                Vec2::new(0.0, 0.6),
            ];
            (
                Shape::Triangle(Triangle::new(a, b, c).unwrap()),
                SharedShape::triangle(a, b, c),
            )
        }
    }
}

fn bench_feature_pairs(c: &mut Criterion) {
    for pair in [
        ("box", "capsule"),
        ("box", "cylinder"),
        ("box", "cone"),
        ("triangle", "box"),
        ("capsule", "capsule"),
        ("cylinder", "cylinder"),
        ("cone", "cone"),
        ("cylinder", "cone"),
        ("capsule", "cylinder"),
        ("capsule", "cone"),
        ("ball", "box"),
        ("ball", "capsule"),
        ("ball", "cylinder"),
        ("hull", "box"),
        ("hull", "capsule"),
        ("hull", "cylinder"),
        ("hull", "hull"),
        ("triangle", "capsule"),
        ("triangle", "cylinder"),
        ("rounded_box", "box"),
    ] {
        bench_pair::<D3>(c, kind_3d, pair);
    }
    for pair in [
        ("box", "capsule"),
        ("capsule", "capsule"),
        ("polygon", "capsule"),
        ("triangle", "polygon"),
        ("segment", "polygon"),
        ("box", "polygon"),
        ("rounded_polygon", "polygon"),
    ] {
        bench_pair::<D2>(c, kind_2d, pair);
    }
}

#[path = "../tests/support/meshes.rs"]
mod meshes;

/// `manifold_mesh_mesh_3d`: see the module docs.
fn bench_mesh_pairs(c: &mut Criterion) {
    use isect::shape::shape_3d::AnyShape;
    use isect::shape::{TriMesh, TriMeshFlags};
    let data = meshes::bumpy_sphere(16, 11, 0.05);
    let verts = data.vertices_f32();
    let ours: AnyShape<f32> =
        TriMesh::<f32>::new(verts.clone(), data.indices.clone(), TriMeshFlags::OPEN)
            .unwrap()
            .into();
    let theirs = parry3d::shape::TriMesh::new(verts, data.indices.clone()).unwrap();
    let mut rng = Rng(23);
    let poses: Vec<(Pose3<f32>, parry3d::math::Pose)> = (0..8)
        .map(|_| {
            let (t, q) = (rng.unit_vec3() * 0.3, rng.turn());
            (Pose3::new(t, q), parry3d::math::Pose::from_parts(t, q))
        })
        .collect();
    // The cycle takes `CASES` cases: the 8 poses repeated.
    let cases: Vec<_> = (0..CASES).map(|k| poses[k % poses.len()]).collect();
    let id = Pose3::<f32>::default();
    let prediction = 0.5;
    let mut g = c.benchmark_group("manifold_mesh_mesh_3d");
    g.sample_size(10);
    cycle_named(
        &mut g,
        "isect_dispatch_contact_manifolds_by_normal",
        &cases,
        |k| {
            isect::query::dispatch::contact_manifolds_by_normal(&id, &ours, &k.0, &ours, prediction)
        },
    );
    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
    let mut workspace = None;
    cycle_named(&mut g, "parry_contact_manifolds", &cases, |k| {
        // A fresh start each case, as isect's query has no cache: parry's workspace
        // indexes the manifolds it left, so both are cleared together.
        manifolds.clear();
        workspace = None;
        DefaultQueryDispatcher
            .contact_manifolds(
                &k.1,
                &theirs,
                &theirs,
                prediction,
                &mut manifolds,
                &mut workspace,
            )
            .unwrap();
        manifolds.len()
    });
    g.finish();
}

criterion_group!(
    benches,
    bench_box_box,
    bench_polygons,
    bench_feature_pairs,
    bench_mesh_pairs
);
criterion_main!(benches);
