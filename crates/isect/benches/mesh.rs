//! Ray casts against large meshes beside parry3d's, in the same criterion groups:
//! 8,192 seeded rays cycled through, one per iteration.
//!
//! - `mesh_ray`: a closed bumpy sphere of 99,840 triangles (`tests/support/meshes.rs`),
//!   rays from a sphere of radius 3 around it aimed at points of `[−1.2, 1.2]³` (most
//!   hit). Ours: `TriMesh::cast_ray` (open and solid: closest hit with normal and
//!   point); parry: `TriMesh::cast_local_ray_and_get_normal` (`…/hit`) and
//!   `cast_local_ray` (`…/t`, reference).
//! - `mesh_ray_bunny`: the Stanford bunny (`tests/data/bunny.obj`, 3,674 triangles),
//!   rays from a sphere around it aimed at points of its box: closest hit, any hit
//!   within the target (shadow rays; parry's `intersects_local_ray`), and our batch
//!   `cast_rays` over all 8,192 rays per iteration (divide by 8,192).
//! - `mesh_project`: the same mesh (solid; parry's `ORIENTED`), points of `[−1.5, 1.5]³`:
//!   closest point and inside flag (`project_local_point(p, false)` on both sides).
//! - `heightfield_ray`: a 256 × 256 terrain (130,050 triangles), rays from above and
//!   beside aimed at the surface. Ours `HeightField::cast_ray` (a grid walk), parry's
//!   `HeightField`.
//! - `mesh_build`: `TriMesh::new` beside parry's default `TriMesh::new` (its tree and
//!   nothing else), on an open 224 × 224 grid (100,352 triangles) and a soup of 100,000
//!   small seeded triangles sharing no vertex; then the same grid with its topology
//!   forced (`TriMesh::prepare_topology`, what the first contact query pays), and the
//!   closed bumpy sphere built solid beside parry's `ORIENTED` (pseudo-normals). The
//!   vertex and index buffers are cloned outside the timed section. Thread CPU time.
//!
//! Run: `cargo bench -p isect --bench mesh -- --warm-up-time 1 --measurement-time 2`.

use criterion::measurement::Measurement;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use glam::Vec3;
use isect::query::{ProjectPoint, RayCast};
use isect::shape::{Ray, TriMesh, TriMeshFlags};
use parry3d::query::{PointQuery, RayCast as PRayCast};
use parry3d::shape::TriMesh as PTriMesh;

mod support;
use support::{cpu_time_config, cycle, parry_ray, terrain, CpuTime, Rng, CASES};

#[path = "../tests/support/meshes.rs"]
mod meshes;

impl Rng {
    /// A point on the sphere of radius `r` (normalised cube sample).
    fn on_sphere(&mut self, r: f32) -> Vec3 {
        loop {
            let p = self.vec3(-1.0, 1.0);
            let l = p.length();
            if l > 0.1 && l <= 1.0 {
                return p * (r / l);
            }
        }
    }
}

fn mesh_ray(c: &mut Criterion) {
    let data = meshes::bumpy_sphere(320, 157, 0.1);
    let verts = data.vertices_f32();
    let open =
        TriMesh::<f32>::new(verts.clone(), data.indices.clone(), TriMeshFlags::OPEN).unwrap();
    let solid =
        TriMesh::<f32>::new(verts.clone(), data.indices.clone(), TriMeshFlags::SOLID).unwrap();
    let theirs = PTriMesh::new(verts, data.indices.clone()).unwrap();
    let mut rng = Rng(0x3E5);
    let rays: Vec<Ray<Vec3>> = (0..CASES)
        .map(|_| {
            let origin = rng.on_sphere(3.0);
            Ray {
                origin,
                dir: rng.vec3(-1.2, 1.2) - origin,
            }
        })
        .collect();
    let hits = rays
        .iter()
        .filter(|r| open.cast_ray(r, f32::INFINITY).is_some())
        .count();
    eprintln!(
        "mesh_ray: {} triangles, {hits}/{CASES} rays hit",
        open.triangle_count()
    );
    let inf = f32::INFINITY;
    let mut g = c.benchmark_group("mesh_ray");
    cycle(&mut g, "isect TriMesh::cast_ray", "hit", &rays, |r| {
        open.cast_ray(r, inf)
    });
    cycle(
        &mut g,
        "isect TriMesh::cast_ray (solid)",
        "hit",
        &rays,
        |r| solid.cast_ray(r, inf),
    );
    cycle(
        &mut g,
        "parry TriMesh::cast_local_ray_and_get_normal",
        "hit",
        &rays,
        |r| theirs.cast_local_ray_and_get_normal(&parry_ray(r), inf, true),
    );
    cycle(&mut g, "parry TriMesh::cast_local_ray", "t", &rays, |r| {
        theirs.cast_local_ray(&parry_ray(r), inf, true)
    });
    g.finish();
}

fn mesh_ray_bunny(c: &mut Criterion) {
    let data = meshes::bunny();
    let verts = data.vertices_f32();
    let ours =
        TriMesh::<f32>::new(verts.clone(), data.indices.clone(), TriMeshFlags::OPEN).unwrap();
    let theirs = PTriMesh::new(verts, data.indices.clone()).unwrap();
    // The bunny's box is about [−5, 5] × [0, 9.7] × [−3.7, 3.8]: rays from a sphere of
    // radius 16 around its centre aimed at points of the box.
    let center = Vec3::new(0.0, 4.8, 0.0);
    let mut rng = Rng(0xB0B);
    let rays: Vec<Ray<Vec3>> = (0..CASES)
        .map(|_| {
            let origin = center + rng.on_sphere(16.0);
            let target = center + rng.vec3(-1.0, 1.0) * Vec3::new(5.0, 4.8, 3.8);
            Ray {
                origin,
                dir: target - origin,
            }
        })
        .collect();
    let inf = f32::INFINITY;
    let mut g = c.benchmark_group("mesh_ray_bunny");
    cycle(&mut g, "isect TriMesh::cast_ray", "hit", &rays, |r| {
        ours.cast_ray(r, inf)
    });
    cycle(&mut g, "isect TriMesh::cast_ray_any", "bool", &rays, |r| {
        ours.cast_ray_any(r, 1.0)
    });
    cycle(
        &mut g,
        "parry TriMesh::cast_local_ray_and_get_normal",
        "hit",
        &rays,
        |r| theirs.cast_local_ray_and_get_normal(&parry_ray(r), inf, true),
    );
    cycle(
        &mut g,
        "parry TriMesh::intersects_local_ray",
        "bool",
        &rays,
        |r| theirs.intersects_local_ray(&parry_ray(r), 1.0),
    );
    // The whole batch per iteration: divide by the 8,192 rays.
    g.bench_function("isect TriMesh::cast_rays (8192 rays)/hit", |b| {
        b.iter(|| ours.cast_rays(&rays, inf))
    });
    g.finish();
}

fn mesh_project(c: &mut Criterion) {
    let data = meshes::bumpy_sphere(320, 157, 0.1);
    let verts = data.vertices_f32();
    let solid =
        TriMesh::<f32>::new(verts.clone(), data.indices.clone(), TriMeshFlags::SOLID).unwrap();
    let theirs = PTriMesh::with_flags(
        verts,
        data.indices.clone(),
        parry3d::shape::TriMeshFlags::ORIENTED,
    )
    .unwrap();
    let mut rng = Rng(0x9A0);
    let points: Vec<Vec3> = (0..CASES).map(|_| rng.vec3(-1.5, 1.5)).collect();
    let mut g = c.benchmark_group("mesh_project");
    cycle(
        &mut g,
        "isect TriMesh::project_local_point",
        "projection",
        &points,
        |p| solid.project_local_point(*p, false),
    );
    cycle(
        &mut g,
        "parry TriMesh::project_local_point",
        "projection",
        &points,
        |p| theirs.project_local_point(*p, false),
    );
    g.finish();
}

fn heightfield_ray(c: &mut Criterion) {
    let mut rng = Rng(0x4EF);
    let (ours, theirs) = terrain(&mut rng);
    let rays: Vec<Ray<Vec3>> = (0..CASES)
        .map(|_| {
            let origin = Vec3::new(
                rng.uniform(-6.0, 6.0),
                rng.uniform(0.5, 4.0),
                rng.uniform(-6.0, 6.0),
            );
            let target = Vec3::new(rng.uniform(-5.0, 5.0), 0.0, rng.uniform(-5.0, 5.0));
            Ray {
                origin,
                dir: target - origin,
            }
        })
        .collect();
    let hits = rays
        .iter()
        .filter(|r| ours.cast_ray(r, f32::INFINITY).is_some())
        .count();
    eprintln!(
        "heightfield_ray: {} triangles, {hits}/{CASES} rays hit",
        ours.triangle_count()
    );
    let inf = f32::INFINITY;
    let mut g = c.benchmark_group("heightfield_ray");
    cycle(&mut g, "isect HeightField::cast_ray", "hit", &rays, |r| {
        ours.cast_ray(r, inf)
    });
    cycle(
        &mut g,
        "parry HeightField::cast_local_ray_and_get_normal",
        "hit",
        &rays,
        |r| theirs.cast_local_ray_and_get_normal(&parry_ray(r), inf, true),
    );
    cycle(
        &mut g,
        "parry HeightField::cast_local_ray",
        "t",
        &rays,
        |r| theirs.cast_local_ray(&parry_ray(r), inf, true),
    );
    g.finish();
}

/// `n` small triangles (sides up to 0.2) at seeded places in `[−10, 10]³`, each with
/// its own three vertices: no edge is shared.
fn soup(rng: &mut Rng, n: usize) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let mut vertices = Vec::with_capacity(3 * n);
    for _ in 0..n {
        let c = rng.vec3(-10.0, 10.0);
        vertices.extend((0..3).map(|_| c + rng.vec3(-0.1, 0.1)));
    }
    let indices = (0..n as u32)
        .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
        .collect();
    (vertices, indices)
}

/// Times `build` on fresh copies of `(vertices, indices)` made outside the timing.
fn bench_build<M: Measurement, T>(
    g: &mut criterion::BenchmarkGroup<'_, M>,
    name: &str,
    (vertices, indices): &(Vec<Vec3>, Vec<[u32; 3]>),
    build: impl Fn(Vec<Vec3>, Vec<[u32; 3]>) -> T,
) {
    g.bench_function(name, |b| {
        b.iter_batched(
            || (vertices.clone(), indices.clone()),
            |(v, i)| build(v, i),
            BatchSize::PerIteration,
        )
    });
}

fn mesh_build(c: &mut Criterion<CpuTime>) {
    let grid = meshes::grid(224, |x, z| 0.1 * (3.0 * x).sin() * (2.0 * z).cos());
    let grid = (grid.vertices_f32(), grid.indices);
    let soup = soup(&mut Rng(0xB11D), 100_000);
    let sphere = meshes::bumpy_sphere(320, 157, 0.1);
    let sphere = (sphere.vertices_f32(), sphere.indices);
    let ours = |flags| move |v, i| TriMesh::<f32>::new(v, i, flags).unwrap();
    let theirs = |v, i| PTriMesh::new(v, i).unwrap();
    let mut g = c.benchmark_group("mesh_build");
    g.sample_size(20);
    bench_build(
        &mut g,
        "isect TriMesh::new/grid",
        &grid,
        ours(TriMeshFlags::OPEN),
    );
    bench_build(&mut g, "parry TriMesh::new/grid", &grid, theirs);
    bench_build(
        &mut g,
        "isect TriMesh::new/soup",
        &soup,
        ours(TriMeshFlags::OPEN),
    );
    bench_build(&mut g, "parry TriMesh::new/soup", &soup, theirs);
    bench_build(
        &mut g,
        "isect TriMesh::new + prepare_topology/grid",
        &grid,
        |v, i| {
            let mesh = ours(TriMeshFlags::OPEN)(v, i);
            mesh.prepare_topology();
            mesh
        },
    );
    bench_build(
        &mut g,
        "isect TriMesh::new (solid)/sphere",
        &sphere,
        ours(TriMeshFlags::SOLID),
    );
    bench_build(
        &mut g,
        "parry TriMesh::with_flags (ORIENTED)/sphere",
        &sphere,
        |v, i| PTriMesh::with_flags(v, i, parry3d::shape::TriMeshFlags::ORIENTED).unwrap(),
    );
    g.finish();
}

criterion_group!(
    benches,
    mesh_ray,
    mesh_ray_bunny,
    mesh_project,
    heightfield_ray
);
criterion_group! {
    name = build;
    config = cpu_time_config();
    targets = mesh_build
}
criterion_main!(benches, build);
