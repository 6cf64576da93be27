//! TriMesh ray queries as classes of seeded cases, f32 and f64, scales 1e-3 to 1e5:
//!
//! - watertightness: rays aimed exactly at shared vertices and at points of shared
//!   edges (of a closed UV sphere with high-valence poles, a bumpy sphere and the
//!   Stanford bunny) never slip between triangles, and on the convex sphere they cross
//!   the surface exactly once at the feature and once on the way out;
//! - the batch (`cast_rays`, `cast_rays_indexed`) answers each ray exactly as the
//!   single-ray call, with bad rays (NaN, infinite, zero direction) mixed in;
//! - any hit (`cast_ray_any`) agrees with the closest hit's existence, and all hits
//!   (`cast_ray_all`) start with the closest;
//! - bad input: non-finite rays and NaN or negative `max_t` miss in every query, flat
//!   triangles are never hit, an empty mesh is refused and an empty tree finds nothing.

#[path = "support/for_each_real.rs"]
#[macro_use]
mod for_each_real;
#[path = "support/meshes.rs"]
mod meshes;
#[path = "support/rng.rs"]
mod rng;

use isect::broad::Bvh;
use isect::math::{Real, Vector, Vector3};
use isect::query::RayCast;
use isect::shape::{Aabb, Ray, RayHit, TriMesh, TriMeshFlags};
use meshes::{bumpy_sphere, bunny, MeshData};
use rng::Rng;

/// Slack on the ray parameter of a hit at a target point that was rounded to the
/// scalar type, in machine epsilons (the rays are steered away from grazing angles, so
/// the rounding of the target moves the crossing by a few epsilons at most).
const SLACK_ULPS: f64 = 4096.0;

/// Scales of the seeded sweeps.
const SCALES: [f64; 4] = [1e-3, 1.0, 1e3, 1e5];

fn slack<R: Real>() -> f64 {
    SLACK_ULPS * R::EPSILON.to_f64()
}

fn v<R: Real>(p: [f64; 3]) -> R::V3 {
    R::V3::new(R::from_f64(p[0]), R::from_f64(p[1]), R::from_f64(p[2]))
}

fn to_f64<R: Real>(p: R::V3) -> [f64; 3] {
    [0, 1, 2].map(|i| p.get(i).to_f64())
}

fn build<R: Real>(data: &MeshData, flags: TriMeshFlags) -> TriMesh<R> {
    TriMesh::new(data.map(v::<R>), data.indices.clone(), flags).unwrap()
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn unit(a: [f64; 3]) -> [f64; 3] {
    let l = dot(a, a).sqrt();
    a.map(|x| x / l)
}

/// A uniform unit vector.
fn on_sphere(rng: &mut Rng) -> [f64; 3] {
    loop {
        let p = [0; 3].map(|_| rng.range(-1.0, 1.0));
        let l = dot(p, p).sqrt();
        if l > 0.1 && l <= 1.0 {
            return p.map(|x| x / l);
        }
    }
}

/// Centre and radius of the mesh's bounding sphere (of its box).
fn bounds(data: &MeshData) -> ([f64; 3], f64) {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for p in &data.vertices {
        for a in 0..3 {
            lo[a] = lo[a].min(p[a]);
            hi[a] = hi[a].max(p[a]);
        }
    }
    let c = [0, 1, 2].map(|a| 0.5 * (lo[a] + hi[a]));
    (c, 0.5 * dot(sub(hi, lo), sub(hi, lo)).sqrt())
}

/// The triangles around each vertex and each edge (`(min, max)` vertex pair).
struct Adjacency {
    fans: Vec<Vec<usize>>,
    edges: std::collections::HashMap<(u32, u32), Vec<usize>>,
}

fn adjacency(data: &MeshData) -> Adjacency {
    let mut fans = vec![Vec::new(); data.vertices.len()];
    let mut edges = std::collections::HashMap::<(u32, u32), Vec<usize>>::new();
    for (i, t) in data.indices.iter().enumerate() {
        for k in 0..3 {
            fans[t[k] as usize].push(i);
            let (a, b) = (t[k], t[(k + 1) % 3]);
            edges.entry((a.min(b), a.max(b))).or_default().push(i);
        }
    }
    Adjacency { fans, edges }
}

impl Adjacency {
    /// The triangles around vertex `v` when every edge there is shared by exactly two
    /// (a closed fan), else `None` (a boundary or non-manifold vertex).
    fn closed_fan(&self, data: &MeshData, v: u32) -> Option<&[usize]> {
        let fan = &self.fans[v as usize];
        let closed = fan.iter().all(|&i| {
            data.indices[i]
                .iter()
                .filter(|&&w| w != v)
                .all(|&w| self.edges[&(v.min(w), v.max(w))].len() == 2)
        });
        closed.then_some(fan.as_slice())
    }
}

/// A point of a shared feature of triangle `tri`: one of its vertices, or a point of
/// one of its edges (the midpoint or a seeded lerp), computed in f64; with the
/// triangles around that feature. `None` for a boundary feature.
fn feature_point(
    rng: &mut Rng,
    data: &MeshData,
    adj: &Adjacency,
    tri: [u32; 3],
) -> Option<([f64; 3], Vec<usize>)> {
    let k = rng.below(3);
    let (i, j) = (tri[k], tri[(k + 1) % 3]);
    let (a, b) = (data.vertices[i as usize], data.vertices[j as usize]);
    if rng.below(3) == 0 {
        return Some((a, adj.closed_fan(data, i)?.to_vec()));
    }
    let s = if rng.below(2) == 0 { 0.5 } else { rng.unit() };
    let around = &adj.edges[&(i.min(j), i.max(j))];
    (around.len() == 2).then(|| ([0, 1, 2].map(|x| a[x] + s * (b[x] - a[x])), around.clone()))
}

/// The unit normal of triangle `i` (right-hand rule).
fn normal(data: &MeshData, i: usize) -> [f64; 3] {
    let c = data.indices[i].map(|v| data.vertices[v as usize]);
    unit(cross(sub(c[1], c[0]), sub(c[2], c[0])))
}

/// Distinct crossings among sorted hits: hits within `tol` (relative) of the previous
/// one are the same crossing (an edge or vertex reports one hit per triangle).
fn crossings<V: Vector>(hits: &[RayHit<V>], tol: f64) -> usize {
    let mut count = 0;
    let mut last = f64::NEG_INFINITY;
    for h in hits {
        let t = h.t.to_f64();
        if t - last > tol * t.abs().max(1.0) {
            count += 1;
        }
        last = t;
    }
    count
}

/// Rays from outside at shared vertices and edge points of `data` scaled by `k`: the
/// closest hit is never past the target (no slip). With `convex`, the hit is at the
/// target and the line crosses the surface exactly twice (in at the feature, out).
/// Returns how many rays were cast.
fn aim_at_features<R: Real>(data: &MeshData, k: f64, convex: bool, seed: u64) -> usize {
    aim_at_features_moved::<R>(data, k, [0.0; 3], convex, seed)
}

/// [`aim_at_features`] with the scaled mesh moved by `offset` (the slack on `t` grown
/// with the coordinates' magnitude).
fn aim_at_features_moved<R: Real>(
    data: &MeshData,
    k: f64,
    offset: [f64; 3],
    convex: bool,
    seed: u64,
) -> usize {
    let data = MeshData {
        vertices: data
            .vertices
            .iter()
            .map(|p| [0, 1, 2].map(|i| p[i] * k + offset[i]))
            .collect(),
        indices: data.indices.clone(),
    };
    let mesh = build::<R>(&data, TriMeshFlags::OPEN);
    let (center, radius) = bounds(&data);
    // The targets round to the coordinates' magnitude, which the offset raises.
    let far = offset.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
    let slack = slack::<R>() * (1.0 + far / radius);
    let mut rng = Rng(seed);
    let adj = adjacency(&data);
    let mut cast = 0;
    while cast < 300 {
        let tri = data.indices[rng.below(data.indices.len())];
        let Some((target, around)) = feature_point(&mut rng, &data, &adj, tri) else {
            continue;
        };
        let target = to_f64::<R>(v::<R>(target));
        let origin = to_f64::<R>(v::<R>(
            [0, 1, 2].map(|i| center[i] + 3.0 * radius * on_sphere(&mut rng)[i]),
        ));
        let dir = sub(target, origin);
        // Every triangle around the feature faces the ray, away from grazing: the line
        // crosses the surface there (rather than touching a vertex from outside), and
        // the target's rounding moves the crossing by a few epsilons at most.
        if !around
            .iter()
            .all(|&j| dot(normal(&data, j), unit(dir)) < -0.2)
        {
            continue;
        }
        cast += 1;
        let ray = Ray {
            origin: v::<R>(origin),
            dir: v::<R>(dir),
        };
        let what = format!("scale {k}, triangle {tri:?}, target {target:?}");
        let hit = mesh.cast_ray(&ray, R::from_f64(1.0 + slack));
        let t = hit.unwrap_or_else(|| panic!("slipped through: {what}")).t;
        assert!(t.to_f64() <= 1.0 + slack, "hit past the target: {what}");
        if convex {
            assert!(t.to_f64() >= 1.0 - slack, "hit before the target: {what}");
            let all = mesh.cast_ray_all(&ray, R::INFINITY);
            assert_eq!(crossings(&all, slack), 2, "crossings: {what}");
        }
    }
    cast
}

// Shared vertices (including the poles' fans of 24 triangles) and edges of a closed UV
// sphere: every ray crosses once at the feature and once on the way out.
fn watertight_sphere<R: Real>() {
    let sphere = bumpy_sphere(24, 12, 0.0);
    for (i, k) in SCALES.into_iter().enumerate() {
        aim_at_features::<R>(&sphere, k, true, 0x5A0 + i as u64);
    }
}
for_each_real!(watertight_sphere);

// The same on a non-convex closed mesh and on the bunny: no ray slips past its target.
fn watertight_bumpy_and_bunny<R: Real>() {
    let bumpy = bumpy_sphere(40, 20, 0.15);
    let bunny = bunny();
    for (i, k) in SCALES.into_iter().enumerate() {
        aim_at_features::<R>(&bumpy, k, false, 0xB0 + i as u64);
        aim_at_features::<R>(&bunny, k, false, 0xB1 + i as u64);
    }
}
for_each_real!(watertight_bumpy_and_bunny);

// The same in `f64` with the meshes moved 1e7 of their size from the origin (the ray
// tree's `f32` node boxes are relative to the mesh's centre; absolute `f32` boxes would
// be a metre wide on a 10 cm part 1,000 km away).
#[test]
fn watertight_far_from_the_origin_f64() {
    let (sphere, bunny) = (bumpy_sphere(24, 12, 0.0), bunny());
    for (i, k) in SCALES.into_iter().enumerate() {
        let offset = [1e7 * k, -4e6 * k, 3e6 * k];
        aim_at_features_moved::<f64>(&sphere, k, offset, true, 0xFA0 + i as u64);
        aim_at_features_moved::<f64>(&bunny, k, offset, false, 0xFB0 + i as u64);
    }
}

/// The closest crossing of `ray` over every triangle of `data` cast alone, ties to the
/// lowest index: what the mesh's tree must find.
fn every_triangle<R: Real>(
    alone: &[TriMesh<R>],
    ray: &Ray<R::V3>,
    max_t: R,
) -> Option<(u32, RayHit<R::V3>)> {
    let mut best: Option<(u32, RayHit<R::V3>)> = None;
    for (i, tri) in alone.iter().enumerate() {
        if let Some((_, hit)) = tri.cast_ray_indexed(ray, max_t) {
            if best.is_none_or(|(_, b)| hit.t < b.t) {
                best = Some((i as u32, hit));
            }
        }
    }
    best
}

// The tree's closest hit (single and batch) is the closest over every triangle cast
// alone, for ordinary rays, rays from 1e3 to 1e12 mesh sizes away (the `f64` node tests
// start them at the mesh), rays with a component below 2^-100 of the direction (which
// the `f64` node tests refuse: they walk every leaf), a clip at the hit's own `t`, and in
// `f64` on the mesh moved 1e10 away and on a mesh larger than 2^100 (every ray walks
// every leaf).
fn tree_walk_finds_the_closest_of_every_triangle<R: Real>() {
    let data = bumpy_sphere(16, 8, 0.2);
    let mut rng = Rng(0x7EE);
    let cases: &[(f64, f64)] = match R::EPSILON.to_f64() < 1e-10 {
        true => &[(1.0, 0.0), (1.0, 1e10), (1e31, 0.0)],
        false => &[(1.0, 0.0)],
    };
    for &(k, offset) in cases {
        let data = MeshData {
            vertices: data
                .vertices
                .iter()
                .map(|p| p.map(|x| x * k + offset))
                .collect(),
            indices: data.indices.clone(),
        };
        let mesh = build::<R>(&data, TriMeshFlags::OPEN);
        let alone: Vec<TriMesh<R>> = data
            .indices
            .iter()
            .map(|t| {
                let vertices = t.map(|i| v::<R>(data.vertices[i as usize])).to_vec();
                TriMesh::new(vertices, vec![[0, 1, 2]], TriMeshFlags::OPEN).unwrap()
            })
            .collect();
        let mut rays = scene_rays::<R>(&data, &mut rng, 300);
        for (n, ray) in rays.iter_mut().enumerate() {
            let d = to_f64::<R>(ray.dir);
            let big = d.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
            if n % 3 == 0 {
                let mut tiny = d;
                tiny[n % 3] = big * 1e-35 * if n % 2 == 0 { 1.0 } else { -1.0 };
                ray.dir = v::<R>(tiny);
            } else if n % 3 == 1 {
                // Back along its line by 1e3 to 1e12 times its length.
                let back = 10f64.powi(3 + (n % 10) as i32);
                let o = to_f64::<R>(ray.origin);
                ray.origin = v::<R>([0, 1, 2].map(|i| o[i] - d[i] * back));
            }
        }
        let what = |n: usize| format!("scale {k} offset {offset:e} ray {n}");
        let batch = mesh.cast_rays_indexed(&rays, R::INFINITY);
        let mut hits = 0;
        for (n, ray) in rays.iter().enumerate() {
            let want = every_triangle(&alone, ray, R::INFINITY);
            assert_eq!(mesh.cast_ray_indexed(ray, R::INFINITY), want, "{}", what(n));
            assert_eq!(batch[n], want, "{} (batch)", what(n));
            if let Some((_, hit)) = want {
                // Clipped at the hit's own `t`: still found.
                assert_eq!(
                    mesh.cast_ray_indexed(ray, hit.t),
                    want,
                    "{} (clip)",
                    what(n)
                );
            }
            hits += usize::from(want.is_some());
        }
        assert!(hits > 40, "{}: {hits} hits", what(0));
    }
}
for_each_real!(tree_walk_finds_the_closest_of_every_triangle);

/// Seeded rays at the mesh: origins in a box three times the mesh's, aimed at points
/// of its box, so that some start inside a solid mesh and about half miss.
fn scene_rays<R: Real>(data: &MeshData, rng: &mut Rng, n: usize) -> Vec<Ray<R::V3>> {
    let (c, r) = bounds(data);
    (0..n)
        .map(|_| {
            let o = [0, 1, 2].map(|i| c[i] + rng.range(-3.0, 3.0) * r);
            let target = [0, 1, 2].map(|i| c[i] + rng.range(-0.9, 0.9) * r);
            Ray {
                origin: v::<R>(o),
                dir: v::<R>(sub(target, o)),
            }
        })
        .collect()
}

/// Rays that must miss everything: NaN and infinite components, a zero direction
/// (from outside the mesh).
fn bad_rays<R: Real>() -> Vec<Ray<R::V3>> {
    let (nan, inf) = (f64::NAN, f64::INFINITY);
    let far = [1e3, 1e3, 1e3];
    [
        (far, [nan, 0.0, 0.0]),
        ([nan, 0.0, 0.0], [1.0, 0.0, 0.0]),
        ([0.0, 0.0, -inf], [0.0, 0.0, 1.0]),
        (far, [-inf, -inf, -inf]),
        (far, [0.0, 0.0, 0.0]),
    ]
    .map(|(o, d)| Ray {
        origin: v::<R>(o),
        dir: v::<R>(d),
    })
    .to_vec()
}

// The batch answers each ray as the single-ray call, open and solid, for several
// max_t; bad rays mixed in answer None and leave the good ones' answers unchanged. The
// visiting batch hands over the same answers, each ray once and in order.
fn batch_matches_single<R: Real>() {
    let mut rng = Rng(0xBA7C);
    for data in [bunny(), bumpy_sphere(32, 16, 0.1)] {
        let solid = data.indices.len() != bunny().indices.len();
        let mut meshes = vec![build::<R>(&data, TriMeshFlags::OPEN)];
        if solid {
            meshes.push(build::<R>(&data, TriMeshFlags::SOLID));
        }
        let mut rays = scene_rays::<R>(&data, &mut rng, 600);
        let bad = bad_rays::<R>();
        for (i, b) in bad.iter().enumerate() {
            rays.insert(100 * i + 7, *b);
        }
        for mesh in &meshes {
            let hits = rays
                .iter()
                .filter(|r| mesh.cast_ray(r, R::INFINITY).is_some())
                .count();
            assert!(
                (rays.len() * 3 / 10..=rays.len() * 7 / 10).contains(&hits),
                "hit rate {hits}/{}",
                rays.len()
            );
            for max_t in [
                R::INFINITY,
                R::from_f64(0.5),
                R::from_f64(f64::NAN),
                R::from_f64(-1.0),
            ] {
                let batch = mesh.cast_rays(&rays, max_t);
                let indexed = mesh.cast_rays_indexed(&rays, max_t);
                let mut handed = Vec::new();
                mesh.cast_rays_indexed_with(&rays, max_t, |k, hit| handed.push((k, hit)));
                let in_order: Vec<_> = indexed.iter().copied().enumerate().collect();
                assert_eq!(handed, in_order, "each ray once, in order, as collected");
                assert_eq!(batch.len(), rays.len());
                for (k, ray) in rays.iter().enumerate() {
                    assert_eq!(batch[k], mesh.cast_ray(ray, max_t), "ray {k}");
                    assert_eq!(indexed[k], mesh.cast_ray_indexed(ray, max_t), "ray {k}");
                }
                for k in (0..bad.len()).map(|i| 100 * i + 7) {
                    assert_eq!(batch[k], None, "bad ray {k}");
                    assert_eq!(indexed[k], None, "bad ray {k}");
                }
            }
        }
    }
}
for_each_real!(batch_matches_single);

// Rays between points of an integer grid cross a cube of side 2 exactly at its
// vertices and edges, where two or three triangles tie. The composite boundary cast
// gives the same triangle's answer as the indexed single and batch calls, and so does
// the dispatch's `solid = false` cast of the mesh moved (what Python's
// `cast_ray(solid=False)` calls), whose hit's part is that triangle. A solid cube's boundary cast from inside meets the
// face the ray leaves through, normal facing the ray.
fn boundary_cast_takes_the_batch_tie<R: Real>()
where
    R::V3: isect::algo::gjk::GjkVector<Pose = isect::math::Pose3<R>>,
{
    use isect::math::Isometry;
    use isect::query::dispatch::DispatchShape;
    use isect::shape::Composite;
    let mesh = build::<R>(&meshes::cube(), TriMeshFlags::OPEN);
    let grid = |k: i32, lo: i32, n: i32| (k % n + lo) as f64;
    let rays: Vec<Ray<R::V3>> = (0..2400)
        .map(|k| {
            let o = [grid(k, -3, 7), grid(k / 7, -3, 7), grid(k / 49, -3, 7)];
            let d = [grid(k / 3, -2, 5), grid(k / 5, -2, 5), grid(k / 11, -2, 5)];
            Ray {
                origin: v::<R>(o),
                dir: v::<R>(d),
            }
        })
        .collect();
    let batch = mesh.cast_rays_indexed(&rays, R::INFINITY);
    // A shift by whole units keeps the grid exact (a turn would round the rays off
    // the very corners the test is about).
    let pose = isect::math::Pose3::<R> {
        rotation: <R::Quat as isect::math::Rotation3<R>>::IDENTITY,
        translation: v::<R>([3.0, -2.0, 1.0]),
    };
    let shape = isect::shape::shape_3d::AnyShape::TriMesh(std::sync::Arc::new(mesh.clone()));
    let mut hits = 0;
    for (k, ray) in rays.iter().enumerate() {
        let single = mesh.cast_ray_indexed(ray, R::INFINITY);
        assert_eq!(batch[k], single, "ray {k}");
        let boundary = Composite::cast_ray_boundary(&mesh, ray, R::INFINITY);
        assert_eq!(boundary, single.map(|(_, h)| h), "ray {k}: {ray:?}");
        let world = Ray {
            origin: pose.transform_point(ray.origin),
            dir: pose.transform_vector(ray.dir),
        };
        let posed = shape.cast_ray_solid(&pose, &world, R::INFINITY, false);
        let slack = R::from_f64(1e3) * R::EPSILON * R::from_f64(8.0);
        match (posed, single) {
            (None, None) => {}
            (Some(p), Some((i, h))) => {
                // The part named for the hit is the triangle whose normal it carries.
                let part = shape.ray_hit_part(&pose, &world, &p, false);
                assert_eq!(part, Some(i), "ray {k}: part");
                assert!(
                    (p.t - h.t).abs() <= slack,
                    "ray {k}: t {} against {}",
                    p.t,
                    h.t
                );
                let n = pose.transform_vector(h.normal);
                assert!(
                    (p.normal - n).length() <= slack,
                    "ray {k}: normal {:?} against {n:?}",
                    p.normal
                );
            }
            (p, s) => panic!("ray {k}: posed {p:?} against {s:?}"),
        }
        hits += usize::from(single.is_some());
    }
    assert!(hits > 300, "{hits} hits");
    let solid = build::<R>(&meshes::cube(), TriMeshFlags::SOLID);
    for ray in rays
        .iter()
        .filter(|r| to_f64::<R>(r.origin).iter().all(|c| c.abs() < 1.0))
    {
        let (o, d) = (to_f64::<R>(ray.origin), to_f64::<R>(ray.dir));
        // Leaving the cube: the nearest of the three face planes ahead.
        let exit = (0..3)
            .filter(|&i| d[i] != 0.0)
            .map(|i| (d[i].signum() - o[i]) / d[i])
            .fold(f64::INFINITY, f64::min);
        let hit = Composite::cast_ray_boundary(&solid, ray, R::INFINITY);
        let hit = hit.unwrap_or_else(|| panic!("{ray:?} leaves the cube"));
        assert!(
            (hit.t.to_f64() - exit).abs() < 1e-5,
            "{ray:?}: t {} against {exit}",
            hit.t
        );
        assert!(
            hit.normal.dot(ray.dir) < R::ZERO,
            "{ray:?}: normal {:?}",
            hit.normal
        );
    }
}
for_each_real!(boundary_cast_takes_the_batch_tie);

// The mesh's ray walk (its own tree, four triangles per kernel call) finds exactly
// the hit of the reference, each triangle's own ray cast (the same watertight kernel)
// over all triangles: the least (t, triangle), so the lowest index when several are
// crossed at that very t (a shared edge or vertex). Rays aimed into the mesh's box from
// near and far, with two max_t.
fn walk_matches_per_triangle<R: Real>() {
    let mut rng = Rng(0x7A1C);
    for data in [bunny(), bumpy_sphere(32, 16, 0.1)] {
        let mesh = build::<R>(&data, TriMeshFlags::OPEN);
        let triangles: Vec<_> = (0..mesh.triangle_count())
            .map(|i| mesh.triangle(i).unwrap())
            .collect();
        for ray in scene_rays::<R>(&data, &mut rng, 500) {
            for max_t in [R::INFINITY, R::from_f64(0.7)] {
                let reference = least_crossing(&mesh, &ray, max_t, 0..triangles.len() as u32);
                let got = mesh.cast_ray_indexed(&ray, max_t);
                assert_eq!(got.map(|(i, hit)| (hit.t, i)), reference, "{ray:?}");
            }
        }
    }
}
for_each_real!(walk_matches_per_triangle);

/// The least `(t, triangle)` over the triangles `candidates` crossed within `max_t`, by
/// each triangle's own ray cast.
fn least_crossing<R: Real>(
    mesh: &TriMesh<R>,
    ray: &Ray<R::V3>,
    max_t: R,
    candidates: impl IntoIterator<Item = u32>,
) -> Option<(R, u32)> {
    candidates
        .into_iter()
        .filter_map(|i| {
            let hit = mesh.triangle(i as usize).unwrap().cast_ray(ray, max_t)?;
            Some((hit.t, i))
        })
        .fold(None, |best, (t, i)| match best {
            Some((bt, bi)) if (bt, bi) <= (t, i) => best,
            _ => Some((t, i)),
        })
}

/// Rays through the vertices and edge midpoints of a mesh with dyadic coordinates:
/// each aimed at such a point from `k` steps of a small integer direction away (the
/// coordinates stay exact), so that two or more triangles are often crossed at the
/// same t.
fn rays_through_features<R: Real>(data: &MeshData, rng: &mut Rng, n: usize) -> Vec<Ray<R::V3>> {
    (0..n)
        .map(|_| {
            let tri = data.indices[rng.below(data.indices.len())];
            let (a, b) = (rng.below(3), rng.below(3));
            let (p, q) = (
                data.vertices[tri[a] as usize],
                data.vertices[tri[b] as usize],
            );
            // A vertex when a = b, else an edge's midpoint.
            let target = [0, 1, 2].map(|i| 0.5 * (p[i] + q[i]));
            let mut d = [0, 1, 2].map(|_| rng.below(5) as f64 - 2.0);
            if rng.below(3) == 0 {
                d = [0.0, -1.0, 0.0];
            }
            if d == [0.0; 3] {
                d[1] = -1.0;
            }
            let k = (1 + rng.below(4)) as f64;
            Ray {
                origin: v::<R>([0, 1, 2].map(|i| target[i] - k * d[i])),
                dir: v::<R>(d),
            }
        })
        .collect()
}

// Ties go to the lowest triangle index in every path, whatever the tree: on a cube and
// a dyadic terrain (big enough that batches interleave their rays), with the triangles
// in their order and shuffled (a different tree, so a different visiting order), rays
// through vertices and edges get the least (t, triangle) of the triangles' own casts
// from the single cast, the batch, the composite boundary cast and the hit's part.
fn ties_go_to_the_lowest_triangle<R: Real>()
where
    R::V3: isect::algo::gjk::GjkVector<Pose = isect::math::Pose3<R>>,
{
    use isect::shape::Composite;
    let mut rng = Rng(0x71E5);
    // Heights in eighths over a grid of 128ths: every coordinate is exact. Its trees
    // (2.7 MB in `f32`, more in `f64`) are past `INTERLEAVE_BYTES` (1 MB), so batches
    // interleave their rays (at 64ths the `f32` tree, 0.67 MB, no longer did).
    let terrain = meshes::grid(128, |x, z| {
        ((x * 8.0).round() - (z * 4.0).round()).abs() / 8.0
    });
    let mut ties = 0;
    for data in [meshes::cube(), terrain] {
        for shuffle in 0..3 {
            let mut indices = data.indices.clone();
            for i in (1..indices.len()).rev().filter(|_| shuffle > 0) {
                indices.swap(i, rng.below(i + 1));
            }
            let shuffled = MeshData {
                vertices: data.vertices.clone(),
                indices,
            };
            let mesh = build::<R>(&shuffled, TriMeshFlags::OPEN);
            let rays = rays_through_features::<R>(&shuffled, &mut rng, 1500);
            let batch = mesh.cast_rays_indexed(&rays, R::INFINITY);
            for (k, ray) in rays.iter().enumerate() {
                let mut candidates = Vec::new();
                mesh.bvh().cast_ray_all(ray, R::INFINITY, |i, _| {
                    candidates.push(i);
                    true
                });
                let want = least_crossing(&mesh, ray, R::INFINITY, candidates.iter().copied());
                let single = mesh.cast_ray_indexed(ray, R::INFINITY);
                assert_eq!(single.map(|(i, h)| (h.t, i)), want, "ray {k}: {ray:?}");
                assert_eq!(batch[k], single, "ray {k}");
                let boundary = Composite::cast_ray_boundary(&mesh, ray, R::INFINITY);
                assert_eq!(boundary, single.map(|(_, h)| h), "ray {k}");
                if let Some((t, i)) = want {
                    let part = Composite::part_of_hit(&mesh, ray, t, false);
                    assert_eq!(part, Some(i), "ray {k}: part");
                    let tied = candidates
                        .iter()
                        .filter(|&&j| {
                            let hit = mesh.triangle(j as usize).unwrap().cast_ray(ray, t);
                            j != i && hit.is_some_and(|h| h.t == t)
                        })
                        .count();
                    ties += usize::from(tied > 0);
                }
            }
        }
    }
    assert!(ties > 1000, "{ties} ties");
}
for_each_real!(ties_go_to_the_lowest_triangle);

// Any hit agrees with the closest hit's existence (solid meshes: a ray starting
// inside hits at t = 0 in both); all hits start with the closest surface crossing.
fn any_and_all_hits<R: Real>() {
    let mut rng = Rng(0xA11);
    let data = bumpy_sphere(32, 16, 0.1);
    for flags in [TriMeshFlags::OPEN, TriMeshFlags::SOLID] {
        let mesh = build::<R>(&data, flags);
        for ray in scene_rays::<R>(&data, &mut rng, 400) {
            let max_t = R::from_f64(rng.range(0.0, 1.5));
            let closest = mesh.cast_ray(&ray, max_t);
            assert_eq!(mesh.cast_ray_any(&ray, max_t), closest.is_some(), "{ray:?}");
            let all = mesh.cast_ray_all(&ray, max_t);
            let surface = mesh.cast_ray_indexed(&ray, max_t);
            assert_eq!(
                all.first().map(|h| h.t),
                surface.map(|(_, h)| h.t),
                "{ray:?}"
            );
            if let Some((i, hit)) = surface {
                assert_eq!(
                    mesh.triangle(i as usize)
                        .unwrap()
                        .cast_ray(&ray, max_t)
                        .map(|h| h.t),
                    Some(hit.t)
                );
            }
        }
    }
}
for_each_real!(any_and_all_hits);

// Non-finite rays and NaN or negative max_t miss in every query; flat triangles are
// never hit (their points are aimed at from every side); an empty mesh is refused and
// an empty tree answers a batch with no hits.
fn bad_input<R: Real>() {
    let data = bumpy_sphere(16, 8, 0.0);
    for flags in [TriMeshFlags::OPEN, TriMeshFlags::SOLID] {
        let mesh = build::<R>(&data, flags);
        let inside = Ray {
            origin: R::V3::ZERO,
            dir: v::<R>([1.0, 0.0, 0.0]),
        };
        for ray in bad_rays::<R>() {
            assert_eq!(mesh.cast_ray(&ray, R::INFINITY), None, "{ray:?}");
            assert_eq!(mesh.cast_ray_indexed(&ray, R::INFINITY), None);
            assert!(!mesh.cast_ray_any(&ray, R::INFINITY));
            assert!(mesh.cast_ray_all(&ray, R::INFINITY).is_empty());
        }
        for max_t in [R::from_f64(f64::NAN), R::from_f64(-1.0), R::NEG_INFINITY] {
            assert_eq!(mesh.cast_ray(&inside, max_t), None);
            assert_eq!(mesh.cast_ray_indexed(&inside, max_t), None);
            assert!(!mesh.cast_ray_any(&inside, max_t));
            assert!(mesh.cast_ray_all(&inside, max_t).is_empty());
        }
    }
    // Flat triangles: collinear corners, a repeated corner, all corners equal; one real
    // triangle far away keeps the mesh valid.
    let flat = MeshData {
        vertices: vec![
            [0.0, 0.0, 0.0],
            [1.0, 1.0, 1.0],
            [2.0, 2.0, 2.0],
            [0.0, 1.0, 0.0],
            [9.0, 9.0, 9.0],
            [10.0, 9.0, 9.0],
            [9.0, 10.0, 9.0],
        ],
        indices: vec![[0, 1, 2], [0, 3, 3], [1, 1, 1], [4, 5, 6]],
    };
    let mesh = build::<R>(&flat, TriMeshFlags::OPEN);
    let mut rng = Rng(0xF1A7);
    let mut rays = Vec::new();
    for _ in 0..500 {
        let tri = flat.indices[rng.below(3)];
        let c = tri.map(|i| flat.vertices[i as usize]);
        let (k, s) = (rng.below(3), rng.unit());
        let target = [0, 1, 2].map(|x| c[k][x] + s * (c[(k + 1) % 3][x] - c[k][x]));
        let origin = [0, 1, 2].map(|i| target[i] + 5.0 * on_sphere(&mut rng)[i]);
        rays.push(Ray {
            origin: v::<R>(origin),
            dir: v::<R>(sub(target, origin)),
        });
    }
    for (k, ray) in rays.iter().enumerate() {
        let hit = mesh.cast_ray_indexed(ray, R::from_f64(2.0));
        assert!(
            hit.is_none_or(|(i, _)| i == 3),
            "flat triangle hit by ray {k}"
        );
    }
    assert!(mesh
        .cast_rays_indexed(&rays, R::from_f64(2.0))
        .iter()
        .all(|h| h.is_none_or(|(i, _)| i == 3)));
    assert!(TriMesh::<R>::new(vec![], vec![], TriMeshFlags::OPEN).is_err());
    let empty = Bvh::<R::V3>::build(&[] as &[Aabb<R::V3>]);
    let hits = empty.cast_rays(&rays, R::INFINITY, |_, _, _| panic!("no leaf test"));
    assert!(hits.iter().all(Option::is_none));
}
for_each_real!(bad_input);

// The bunny file parses to the counts its source gives, every index in range.
#[test]
fn bunny_data() {
    let b = bunny();
    assert_eq!((b.vertices.len(), b.indices.len()), (1839, 3674));
    assert!(b
        .indices
        .iter()
        .flatten()
        .all(|&i| (i as usize) < b.vertices.len()));
    assert!(TriMesh::<f32>::new(b.map(v::<f32>), b.indices, TriMeshFlags::OPEN).is_ok());
}

// Found by the review of session 27: the `f64` frame's planes `centre ± reach` rounded
// inside the triangles' bounds (here the lower x plane at 0, the bounds at −3·2^-60),
// and a ray from far away grazing that face started its node tests after the hit,
// losing it. The far start now uses the exact bounds. The flat triangle lies on the
// lower x bound; sixteen others fill x ∈ [1.5, 2].
#[test]
fn a_far_ray_grazing_the_bounds_keeps_its_hit() {
    let lo = -3.0 * 2f64.powi(-60);
    let mut triangles = vec![[[lo, 0.4, -1.0], [lo, 0.6, -1.0], [lo, 0.5, 1.0]]];
    for k in 0..16 {
        let (y, z) = (-1.0 + (k % 4) as f64 * 0.5, -1.0 + (k / 4) as f64 * 0.5);
        triangles.push([[1.5, y, z], [2.0, y + 0.5, z], [1.75, y, z + 0.5]]);
    }
    let mesh_of = |tris: &[[[f64; 3]; 3]]| {
        let vertices = tris.iter().flatten().map(|p| v::<f64>(*p)).collect();
        let indices = (0..tris.len() as u32)
            .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
            .collect();
        TriMesh::new(vertices, indices, TriMeshFlags::OPEN).unwrap()
    };
    let mesh = mesh_of(&triangles);
    let alone: Vec<TriMesh<f64>> = triangles.iter().map(|t| mesh_of(&[*t])).collect();
    let origin = v::<f64>([-(2f64.powi(-55)), 5.0, 0.0]);
    let ray = Ray::new(origin, v::<f64>([29.0 * 2f64.powi(-60) / 4.5, -1.0, 0.0])).unwrap();
    let expected = every_triangle(&alone, &ray, f64::INFINITY).expect("the flat triangle");
    assert_eq!(expected.0, 0);
    assert!((expected.1.t - 4.5).abs() < 1e-12, "{:?}", expected.1);
    assert_eq!(mesh.cast_ray_indexed(&ray, f64::INFINITY), Some(expected));
    assert_eq!(
        mesh.cast_rays(&[ray], f64::INFINITY),
        vec![Some(expected.1)]
    );
}
