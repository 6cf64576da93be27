//! Found by the world-distance soak (`sweep_world_distance`; seeds 0xbf0eed27d7c5fbb9,
//! 0xd14f731a8ac299eb in 3D f64, 0xd8e42fd1c5b5b616, 0x26f66e5214bebd96 in 3D f32):
//! solid meshes of no volume (a triangle and its reverse; zero-area faces) called
//! points inside that are outside them, even beyond their boxes. The pseudo-normal
//! test needs a volume to be on one side of: between two opposite faces the edge
//! pseudo-normal is zero, and of two coincident opposite faces the nearest is either.
//! Fixed in `shape/trimesh/mod.rs`: a solid mesh of no volume (`VOLUME_ULPS`) contains
//! only its surface, a point outside the box is outside, a zero pseudo-normal rules a
//! point out. The class: triangles with their reverse and flattened boxes at scales
//! 1e-3..1e5, f32 and f64, probed all around; thin solids keep their inside.

use super::meshes::cube;
use super::rng::Rng;
use isect::algo::gjk::GjkVector;
use isect::math::{Pose3, Real, Vector, Vector3};
use isect::query::ProjectPoint;
use isect::shape::{Composite, TriMesh, TriMeshFlags};

fn v<R: Real>(p: [f64; 3]) -> R::V3 {
    R::V3::new(R::from_f64(p[0]), R::from_f64(p[1]), R::from_f64(p[2]))
}

/// A random triangle and its reverse, about `scale` across around a random offset.
fn double_triangle<R: Real>(rng: &mut Rng, scale: f64) -> (TriMesh<R>, [f64; 3]) {
    let at = [0; 3].map(|_| rng.range(-10.0, 10.0) * scale);
    let corner = |rng: &mut Rng| v::<R>([0, 1, 2].map(|k| at[k] + rng.range(-1.0, 1.0) * scale));
    let vertices = vec![corner(rng), corner(rng), corner(rng)];
    let mesh = TriMesh::new(vertices, vec![[0, 1, 2], [0, 2, 1]], TriMeshFlags::SOLID)
        .expect("a closed mesh of no volume is a valid solid");
    (mesh, at)
}

/// The cube's mesh squashed flat along y (`thickness` 0) or to `thickness`.
fn squashed_cube<R: Real>(scale: f64, thickness: f64) -> TriMesh<R> {
    let data = cube();
    let vertices = data
        .vertices
        .iter()
        .map(|p| v::<R>([p[0] * scale, p[1] * thickness * scale, p[2] * scale]))
        .collect();
    TriMesh::new(vertices, data.indices.clone(), TriMeshFlags::SOLID).expect("solid")
}

/// No point off the surface of `mesh` is inside it, by every inside test.
fn assert_contains_only_its_surface<R: Real>(
    mesh: &TriMesh<R>,
    rng: &mut Rng,
    at: [f64; 3],
    scale: f64,
) where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    for _ in 0..200 {
        let p = v::<R>([0, 1, 2].map(|k| at[k] + rng.range(-2.0, 2.0) * scale));
        if mesh.project_local_point(p, false).point == p {
            continue; // on the surface (rare: a probe rounded onto it)
        }
        let projection = mesh.project_local_point(p, true);
        assert!(
            !projection.is_inside && projection.point != p,
            "{p:?} inside {mesh:?}"
        );
        assert!(!mesh.contains_local_point(p), "{p:?} contained in {mesh:?}");
    }
}

fn check<R: Real>(seed: u64)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let mut rng = Rng(seed);
    for scale in [1e-3, 1.0, 1e3, 1e5] {
        for _ in 0..20 {
            let (mesh, at) = double_triangle::<R>(&mut rng, scale);
            assert_contains_only_its_surface(&mesh, &mut rng, at, scale);
        }
        let flat = squashed_cube::<R>(scale, 0.0);
        assert_contains_only_its_surface(&flat, &mut rng, [0.0; 3], scale);
        // A thin solid keeps its inside: its middle is in it.
        let thin = squashed_cube::<R>(scale, 1e-2);
        let centre = thin.project_local_point(R::V3::ZERO, false);
        assert!(
            thin.contains_local_point(R::V3::ZERO),
            "scale {scale}: thin solid, {centre:?} {}",
            std::any::type_name::<R>()
        );
    }
}

#[test]
fn solid_meshes_of_no_volume_contain_only_their_surface() {
    check::<f32>(0x2E01);
    check::<f64>(0x2E02);
}
