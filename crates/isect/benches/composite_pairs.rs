//! Pair queries against composites beside parry's, in the same criterion groups:
//! 8,192 seeded cases cycled through, one per iteration, through the public
//! dispatch on `AnyShape` (ours) and `parry3d::query` / `parry2d::query` (parry's).
//!
//! - `trimesh_ball_contact`: a closed bumpy sphere of 99,840 triangles
//!   (`tests/support/meshes.rs`); balls of radius 0.01–0.05 centred within ±radius of
//!   a random triangle's point along its normal (about half touch). Contact at
//!   prediction 0: ours `dispatch::contact` (with internal-edge correction), parry's
//!   `query::contact` with its `TriMesh` (no `FIX_INTERNAL_EDGES`).
//! - `trimesh_box_contact`: the same with randomly turned boxes of half extents
//!   0.01–0.04.
//! - `heightfield_ball_contact`: a 256 × 256 terrain (130,050 triangles), balls near
//!   the surface; parry's `HeightField`.
//! - `concave_pairs`: two random star polygons of 16 vertices (concave), one turned
//!   and moved: `contact` and `intersects`. Parry has no concave polygon type, so its
//!   side is a `Compound` of convex polygons built from OUR decomposition's pieces
//!   (`ConcavePolygon::pieces`): the same parts, parry's traversal and kernels.
//!
//! Run: `cargo bench -p isect --bench composite_pairs -- --warm-up-time 1 --measurement-time 2`.

use criterion::{criterion_group, criterion_main, Criterion};
use glam::{Quat, Vec2, Vec3};
use isect::math::{Pose2, Pose3};
use isect::query::dispatch;
use isect::query::RayCast;
use isect::shape::{shape_2d, shape_3d, ConcavePolygon, Ray, TriMesh, TriMeshFlags};
use parry3d::shape::SharedShape;

mod support;
use support::{cycle, terrain, Rng, CASES};

#[path = "../tests/support/meshes.rs"]
mod meshes;
#[path = "../tests/support/parry_pairs.rs"]
mod parry_pairs;
use parry_pairs::{ball_3d, cuboid_3d, parry_pieces};

fn unit(rng: &mut Rng) -> Vec3 {
    loop {
        let v = Vec3::new(
            rng.uniform(-1.0, 1.0),
            rng.uniform(-1.0, 1.0),
            rng.uniform(-1.0, 1.0),
        );
        if (0.01..=1.0).contains(&v.length_squared()) {
            return v.normalize();
        }
    }
}

/// A placed mover for both libraries.
struct Case3 {
    ours: (Pose3<f32>, shape_3d::AnyShape<f32>),
    theirs: (parry3d::math::Pose, SharedShape),
}

/// A ball (or, with `boxes`, a turned box) of size `size` near the point `p` of
/// normal `n`.
fn case_near(rng: &mut Rng, p: Vec3, n: Vec3, size: (f32, f32), boxes: bool) -> Case3 {
    let k = rng.uniform(size.0, size.1);
    // About half touch: the centre's height over the surface is uniform in [−k, 3k].
    let centre = p + n * rng.uniform(-k, 3.0 * k);
    let q = if boxes {
        Quat::from_axis_angle(unit(rng), rng.uniform(-3.2, 3.2))
    } else {
        Quat::IDENTITY
    };
    let (ours, theirs) = if boxes {
        cuboid_3d(Vec3::new(
            k,
            rng.uniform(0.5, 1.0) * k,
            rng.uniform(0.5, 1.0) * k,
        ))
    } else {
        ball_3d(k)
    };
    Case3 {
        ours: (Pose3::new(centre, q), ours.into()),
        theirs: (parry3d::math::Pose::from_parts(centre, q), theirs),
    }
}

/// Cases near random triangles of `data`.
fn mesh_cases(data: &meshes::MeshData, rng: &mut Rng, boxes: bool) -> Vec<Case3> {
    let size = if boxes { (0.01, 0.04) } else { (0.01, 0.05) };
    (0..CASES)
        .map(|_| {
            let t = data.indices[rng.below(data.indices.len())];
            let [a, b, c] = data.triangle_f32(t);
            let (u, v) = (rng.uniform(0.0, 1.0), rng.uniform(0.0, 1.0));
            let (u, v) = if u + v > 1.0 {
                (1.0 - u, 1.0 - v)
            } else {
                (u, v)
            };
            let p = a + (b - a) * u + (c - a) * v;
            case_near(rng, p, (b - a).cross(c - a).normalize(), size, boxes)
        })
        .collect()
}

/// Our contact and parry's, on one group of cases.
fn contact_group(
    c: &mut Criterion,
    group: &str,
    target: (&shape_3d::AnyShape<f32>, &dyn parry3d::shape::Shape),
    cases: &[Case3],
) {
    let id = Pose3::<f32>::default();
    let pid = parry3d::math::Pose::IDENTITY;
    let hits = cases
        .iter()
        .filter(|k| dispatch::contact(&id, target.0, &k.ours.0, &k.ours.1, 0.0).is_some())
        .count();
    eprintln!("{group}: {hits}/{CASES} cases touch");
    let mut g = c.benchmark_group(group);
    cycle(&mut g, "isect dispatch::contact", "contact", cases, |k| {
        dispatch::contact(&id, target.0, &k.ours.0, &k.ours.1, 0.0)
    });
    cycle(&mut g, "parry query::contact", "contact", cases, |k| {
        parry3d::query::contact(&pid, target.1, &k.theirs.0, &*k.theirs.1 .0, 0.0)
    });
    g.finish();
}

fn trimesh(c: &mut Criterion) {
    let data = meshes::bumpy_sphere(320, 157, 0.1);
    let verts = data.vertices_f32();
    let ours: shape_3d::AnyShape<f32> =
        TriMesh::<f32>::new(verts.clone(), data.indices.clone(), TriMeshFlags::SOLID)
            .unwrap()
            .into();
    let theirs = parry3d::shape::TriMesh::new(verts, data.indices.clone()).unwrap();
    let mut rng = Rng(0xC0A);
    let balls = mesh_cases(&data, &mut rng, false);
    contact_group(c, "trimesh_ball_contact", (&ours, &theirs), &balls);
    let boxes = mesh_cases(&data, &mut rng, true);
    contact_group(c, "trimesh_box_contact", (&ours, &theirs), &boxes);
}

fn heightfield(c: &mut Criterion) {
    let mut rng = Rng(0x4F1);
    let (field, theirs) = terrain(&mut rng);
    let cases: Vec<Case3> = (0..CASES)
        .map(|_| {
            // The surface point below a random (x, z), found by a ray straight down.
            let (x, z) = (rng.uniform(-4.9, 4.9), rng.uniform(-4.9, 4.9));
            let ray = Ray {
                origin: Vec3::new(x, 5.0, z),
                dir: Vec3::NEG_Y,
            };
            let hit = field.cast_ray(&ray, 20.0).expect("the field lies below");
            case_near(&mut rng, hit.point, hit.normal, (0.02, 0.1), false)
        })
        .collect();
    let ours: shape_3d::AnyShape<f32> = field.into();
    contact_group(c, "heightfield_ball_contact", (&ours, &theirs), &cases);
}

/// A star of 16 vertices, radii alternating about 1 and 0.5 (concave), both sides'.
fn star(rng: &mut Rng) -> (shape_2d::AnyShape<f32>, parry2d::shape::SharedShape) {
    let outer: Vec<Vec2> = (0..16)
        .map(|i| {
            let r = if i % 2 == 0 { 1.0 } else { 0.5 } * rng.uniform(0.85, 1.15);
            let t = std::f32::consts::TAU * i as f32 / 16.0;
            Vec2::new(r * t.cos(), r * t.sin())
        })
        .collect();
    let polygon = ConcavePolygon::<f32>::new(outer, Vec::new()).unwrap();
    let pieces = parry_pieces(&polygon);
    (
        polygon.into(),
        parry2d::shape::SharedShape::compound(pieces),
    )
}

struct Case2 {
    a: (shape_2d::AnyShape<f32>, parry2d::shape::SharedShape),
    b: (shape_2d::AnyShape<f32>, parry2d::shape::SharedShape),
    pose: (Pose2<f32>, parry2d::math::Pose),
}

fn concave(c: &mut Criterion) {
    let mut rng = Rng(0xCC2);
    let shapes: Vec<_> = (0..64).map(|_| star(&mut rng)).collect();
    let cases: Vec<Case2> = (0..CASES)
        .map(|_| {
            let t = Vec2::new(rng.uniform(-2.0, 2.0), rng.uniform(-2.0, 2.0));
            let angle = rng.uniform(-3.2, 3.2);
            Case2 {
                a: shapes[rng.below(64)].clone(),
                b: shapes[rng.below(64)].clone(),
                pose: (Pose2::new(t, angle), parry2d::math::Pose::new(t, angle)),
            }
        })
        .collect();
    let id = Pose2::<f32>::default();
    let pid = parry2d::math::Pose::IDENTITY;
    let hits = cases
        .iter()
        .filter(|k| dispatch::intersects(&id, &k.a.0, &k.pose.0, &k.b.0))
        .count();
    eprintln!("concave_pairs: {hits}/{CASES} pairs intersect");
    let mut g = c.benchmark_group("concave_pairs");
    cycle(&mut g, "isect dispatch::contact", "contact", &cases, |k| {
        dispatch::contact(&id, &k.a.0, &k.pose.0, &k.b.0, 0.0)
    });
    cycle(&mut g, "parry query::contact", "contact", &cases, |k| {
        parry2d::query::contact(&pid, &*k.a.1 .0, &k.pose.1, &*k.b.1 .0, 0.0)
    });
    cycle(&mut g, "isect dispatch::intersects", "bool", &cases, |k| {
        dispatch::intersects(&id, &k.a.0, &k.pose.0, &k.b.0)
    });
    cycle(
        &mut g,
        "parry query::intersection_test",
        "bool",
        &cases,
        |k| parry2d::query::intersection_test(&pid, &*k.a.1 .0, &k.pose.1, &*k.b.1 .0),
    );
    g.finish();
}

criterion_group!(benches, trimesh, heightfield, concave);
criterion_main!(benches);
