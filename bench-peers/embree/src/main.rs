//! isect's mesh ray casts beside Embree 3's: the same 100,000 seeded closest-hit rays,
//! single thread, on the Stanford bunny (`crates/isect/tests/data/bunny.obj`) and on a
//! seeded soup of 100,000 small random triangles; the build times of both; and a check
//! that the hits agree (same `t` within [`T_REL`], same triangle or one sharing an edge
//! or a vertex with it).
//!
//! Run (Debian: `apt-get install libembree-dev` first; `--features parallel` puts the
//! batch column on all cores):
//! `cd bench-peers/embree && cargo run --release` (add `-- --reps 9` for more
//! repetitions; `-- callgrind <bunny|soup> <embree|isect|batch|any> <rays>` runs one
//! loop alone, for `valgrind --tool=callgrind`).
//!
//! Times are the minimum over `--reps` passes (the machine is shared and noisy) of the
//! whole pass divided by the ray count; builds are timed the same way.

mod embree;

use glam::{DVec3, Vec3};
use isect::query::RayCast;
use isect::shape::{Ray, TriMesh, TriMeshFlags};
use std::hint::black_box;
use std::time::Instant;

/// Relative tolerance on `t` for two hits to agree.
const T_REL: f32 = 1e-4;
/// Rays per scene.
const RAYS: usize = 100_000;
/// Triangles in the soup.
const SOUP: usize = 100_000;

/// SplitMix64, as `crates/isect/tests/support/rng.rs`.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn uniform(&mut self, lo: f32, hi: f32) -> f32 {
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * unit
    }
    fn vec3(&mut self, lo: Vec3, hi: Vec3) -> Vec3 {
        Vec3::new(
            self.uniform(lo.x, hi.x),
            self.uniform(lo.y, hi.y),
            self.uniform(lo.z, hi.z),
        )
    }
    fn on_sphere(&mut self, center: Vec3, r: f32) -> Vec3 {
        loop {
            let p = self.vec3(Vec3::splat(-1.0), Vec3::ONE);
            let l = p.length();
            if l > 0.1 && l <= 1.0 {
                return center + p * (r / l);
            }
        }
    }
}

/// A scene: vertices, triangles and the rays cast at it.
struct Scene {
    name: &'static str,
    vertices: Vec<[f32; 3]>,
    triangles: Vec<[u32; 3]>,
    rays: Vec<Ray<Vec3>>,
}

/// The bunny from its OBJ file (`v x y z`, `f a b c`, 1-based).
fn bunny() -> (Vec<[f32; 3]>, Vec<[u32; 3]>) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../crates/isect/tests/data/bunny.obj");
    let text = std::fs::read_to_string(path).expect("bunny.obj");
    let (mut v, mut f) = (Vec::new(), Vec::new());
    for line in text.lines() {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("v") => v.push([0; 3].map(|_| words.next().unwrap().parse().unwrap())),
            Some("f") => f.push([0; 3].map(|_| words.next().unwrap().parse::<u32>().unwrap() - 1)),
            _ => {}
        }
    }
    (v, f)
}

/// `n` rays from a sphere around the box `lo..hi` (radius twice its half diagonal),
/// aimed at uniform points of the box.
fn rays_at_box(rng: &mut Rng, lo: Vec3, hi: Vec3, n: usize) -> Vec<Ray<Vec3>> {
    let center = (lo + hi) * 0.5;
    let r = (hi - lo).length();
    (0..n)
        .map(|_| {
            let origin = rng.on_sphere(center, r);
            Ray {
                origin,
                dir: rng.vec3(lo, hi) - origin,
            }
        })
        .collect()
}

fn scenes() -> Vec<Scene> {
    let (vertices, triangles) = bunny();
    let lo = vertices.iter().fold(Vec3::MAX, |m, &p| m.min(p.into()));
    let hi = vertices.iter().fold(Vec3::MIN, |m, &p| m.max(p.into()));
    let bunny = Scene {
        name: "bunny",
        rays: rays_at_box(&mut Rng(0xB0), lo, hi, RAYS),
        vertices,
        triangles,
    };
    // Triangles with corners within 0.05 of a centre uniform in [−1, 1]³, no shared
    // vertex.
    let mut rng = Rng(0x50);
    let mut vertices = Vec::with_capacity(3 * SOUP);
    for _ in 0..SOUP {
        let c = rng.vec3(Vec3::splat(-1.0), Vec3::ONE);
        for _ in 0..3 {
            vertices.push((c + rng.vec3(Vec3::splat(-0.05), Vec3::splat(0.05))).into());
        }
    }
    let triangles = (0..SOUP as u32).map(|i| [3 * i, 3 * i + 1, 3 * i + 2]).collect();
    let soup = Scene {
        name: "soup",
        rays: rays_at_box(&mut Rng(0x51), Vec3::splat(-1.0), Vec3::ONE, RAYS),
        vertices,
        triangles,
    };
    vec![bunny, soup]
}

fn isect_mesh(s: &Scene) -> TriMesh<f32> {
    let v = s.vertices.iter().map(|&p| Vec3::from(p)).collect();
    TriMesh::new(v, s.triangles.clone(), TriMeshFlags::OPEN).unwrap()
}

/// The scene's mesh in `f64`, as the Python package builds it.
fn isect_mesh_f64(s: &Scene) -> TriMesh<f64> {
    let v = s.vertices.iter().map(|&p| Vec3::from(p).as_dvec3()).collect();
    TriMesh::new(v, s.triangles.clone(), TriMeshFlags::OPEN).unwrap()
}

/// The ray in `f64`, as the Python package takes it.
fn ray_f64(r: &Ray<Vec3>) -> Ray<DVec3> {
    Ray::new(r.origin.as_dvec3(), r.dir.as_dvec3()).unwrap()
}

/// isect's closest hits of the whole batch as `(t, triangle)`.
fn isect_batch(mesh: &TriMesh<f32>, rays: &[Ray<Vec3>]) -> Vec<Option<(f32, u32)>> {
    let hits = mesh.cast_rays_indexed(rays, f32::INFINITY);
    hits.into_iter().map(|h| h.map(|(i, hit)| (hit.t, i))).collect()
}

/// The fastest of `reps` passes of `f`, in nanoseconds per item of `n`.
fn best_of(reps: usize, n: usize, mut f: impl FnMut()) -> f64 {
    (0..reps)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e9 / n as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// How isect's hits compare with Embree's, counted by class.
#[derive(Default, Debug)]
struct Agreement {
    both_miss: usize,
    same_triangle: usize,
    shares_edge: usize,
    shares_vertex: usize,
    other_triangle_same_t: usize,
    t_differs: usize,
    only_embree: usize,
    only_isect: usize,
}

fn agree(s: &Scene, embree: &[Option<(f32, u32)>], ours: &[Option<(f32, u32)>]) -> Agreement {
    let mut a = Agreement::default();
    for ((e, o), ray) in embree.iter().zip(ours).zip(&s.rays) {
        match (e, o) {
            (None, None) => a.both_miss += 1,
            (Some(_), None) => a.only_embree += 1,
            (None, Some(_)) => a.only_isect += 1,
            (Some((te, ie)), Some((to, io))) => {
                if (te - to).abs() > T_REL * te.abs().max(1.0) {
                    a.t_differs += 1;
                    if a.t_differs <= 3 {
                        eprintln!("t differs: Embree t {te} triangle {ie}, isect t {to} triangle {io}");
                        eprintln!("  in f64: Embree's {:?}, ours {:?}", f64_hit(s, ray, *ie), f64_hit(s, ray, *io));
                    }
                    continue;
                }
                let (x, y) = (s.triangles[*ie as usize], s.triangles[*io as usize]);
                let shared = x.iter().filter(|v| y.contains(v)).count();
                match (ie == io, shared) {
                    (true, _) => a.same_triangle += 1,
                    (false, 2..) => a.shares_edge += 1,
                    (false, 1) => a.shares_vertex += 1,
                    _ => a.other_triangle_same_t += 1,
                }
            }
        }
    }
    a
}

/// The hit `t` and barycentrics of triangle `i` in f64 (isect's kernel on `DVec3`).
fn f64_hit(s: &Scene, ray: &Ray<Vec3>, i: u32) -> Option<(f64, [f64; 3])> {
    use glam::DVec3;
    let [a, b, c] = s.triangles[i as usize].map(|k| Vec3::from(s.vertices[k as usize]).as_dvec3());
    let tri = isect::shape::Triangle { a, b, c };
    let r = Ray { origin: ray.origin.as_dvec3(), dir: ray.dir.as_dvec3() };
    let hit = tri.cast_ray(&r, f64::INFINITY)?;
    let p: DVec3 = hit.point;
    let n = (b - a).cross(c - a);
    let area = |x: DVec3, y: DVec3| (y - x).cross(p - x).dot(n) / n.length_squared();
    Some((hit.t, [area(b, c), area(c, a), area(a, b)]))
}

fn origin_dir(r: &Ray<Vec3>) -> ([f32; 3], [f32; 3]) {
    (r.origin.into(), r.dir.into())
}

fn measure(s: &Scene, reps: usize) {
    let build_embree = best_of(reps, 1, || {
        black_box(embree::Scene::new(&s.vertices, &s.triangles));
    }) / 1e6;
    let build_isect = best_of(reps, 1, || {
        black_box(isect_mesh(s));
    }) / 1e6;
    let scene = embree::Scene::new(&s.vertices, &s.triangles);
    let mesh = isect_mesh(s);
    let inf = f32::INFINITY;
    let n = s.rays.len();
    let embree_hits: Vec<_> = s.rays.iter().map(|r| {
        let (o, d) = origin_dir(r);
        scene.intersect(o, d)
    }).collect();
    let our_hits: Vec<_> = s
        .rays
        .iter()
        .map(|r| mesh.cast_ray_indexed(r, inf).map(|(i, hit)| (hit.t, i)))
        .collect();
    let batch_hits = isect_batch(&mesh, &s.rays);
    assert_eq!(our_hits, batch_hits, "the batch differs from one at a time");
    let agreement = agree(s, &embree_hits, &our_hits);
    let hit_count = embree_hits.iter().filter(|h| h.is_some()).count();
    let t_embree = best_of(reps, n, || {
        for r in &s.rays {
            let (o, d) = origin_dir(r);
            black_box(scene.intersect(o, d));
        }
    });
    let t_isect = best_of(reps, n, || {
        for r in &s.rays {
            black_box(mesh.cast_ray(r, inf));
        }
    });
    let t_batch = best_of(reps, n, || {
        black_box(isect_batch(&mesh, &s.rays));
    });
    // The Python package's mesh: the same triangles and rays in f64.
    let mesh64 = isect_mesh_f64(s);
    let rays64: Vec<Ray<DVec3>> = s.rays.iter().map(ray_f64).collect();
    let t_batch64 = best_of(reps, n, || {
        black_box(mesh64.cast_rays_indexed(&rays64, f64::INFINITY));
    });
    // Shadow rays: to the closest hit's point, any hit.
    let t_embree_any = best_of(reps, n, || {
        for r in &s.rays {
            let (o, d) = origin_dir(r);
            black_box(scene.occluded(o, d, 1.0));
        }
    });
    let t_isect_any = best_of(reps, n, || {
        for r in &s.rays {
            black_box(mesh.cast_ray_any(r, 1.0));
        }
    });
    println!(
        "| {} | {} | {}/{} | {:.0} | {:.0} ({:.2}×) | {:.0} ({:.2}×) | {:.0} | {:.0} ({:.2}×) | {:.2} | {:.2} ({:.2}×) |",
        s.name,
        s.triangles.len(),
        hit_count,
        n,
        t_embree,
        t_isect,
        t_isect / t_embree,
        t_batch,
        t_batch / t_embree,
        t_embree_any,
        t_isect_any,
        t_isect_any / t_embree_any,
        build_embree,
        build_isect,
        build_isect / build_embree,
    );
    eprintln!("{}: {agreement:?}", s.name);
    eprintln!(
        "{}: f64 batch {t_batch64:.0} ns a ray ({:.2}× Embree, {:.2}× the f32 batch)",
        s.name,
        t_batch64 / t_embree,
        t_batch64 / t_batch
    );
}

/// One loop alone (for callgrind): `kind` over the first `n` rays of `scene`.
fn callgrind(scene: &str, kind: &str, n: usize) {
    let s = scenes().into_iter().find(|s| s.name == scene).expect("bunny or soup");
    let rays = &s.rays[..n.min(s.rays.len())];
    let inf = f32::INFINITY;
    match kind {
        "embree" => {
            let scene = embree::Scene::new(&s.vertices, &s.triangles);
            for r in rays {
                let (o, d) = origin_dir(r);
                black_box(scene.intersect(o, d));
            }
        }
        "isect" => {
            let mesh = isect_mesh(&s);
            for r in rays {
                black_box(mesh.cast_ray(r, inf));
            }
        }
        "batch" => {
            black_box(isect_batch(&isect_mesh(&s), rays));
        }
        "batch64" => {
            let rays64: Vec<Ray<DVec3>> = rays.iter().map(ray_f64).collect();
            black_box(isect_mesh_f64(&s).cast_rays_indexed(&rays64, f64::INFINITY));
        }
        "any" => {
            let mesh = isect_mesh(&s);
            for r in rays {
                black_box(mesh.cast_ray_any(r, 1.0));
            }
        }
        "build" => {
            black_box(isect_mesh(&s));
        }
        _ => panic!("kind: embree, isect, batch, batch64, any or build"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("callgrind") {
        let n = args.get(3).and_then(|n| n.parse().ok()).unwrap_or(10_000);
        callgrind(&args[1], &args[2], n);
        return;
    }
    let reps = match args.iter().position(|a| a == "--reps") {
        Some(i) => args[i + 1].parse().expect("--reps N"),
        None => 5,
    };
    println!("| scene | triangles | rays hit | Embree ns/ray | isect ns/ray | isect batch ns/ray | Embree any-hit ns/ray | isect any-hit ns/ray | Embree build ms | isect build ms |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for s in scenes() {
        measure(&s, reps);
    }
}
