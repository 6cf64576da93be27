//! Mesh rays at every distance and every scale, `f32` and `f64`, as classes of seeded
//! cases:
//!
//! - rays aimed exactly at vertices and at points of edges of closed icospheres (turned
//!   at random), from 1 to 1e6 mesh radii: the closest crossing is the least `(t,
//!   triangle)` of every triangle's own cast, on a triangle facing the ray, at the
//!   exact entry (to a stated tolerance); `cast_ray_all` is every triangle's own
//!   crossings, and they make exactly one entry and one exit. Before the ray tree's
//!   node test covered the kernel's error at the ray's distance, about one `f32` ray in
//!   10⁴ from 50 radii on slipped through the near surface to the far one, and
//!   `cast_ray_all`'s shared tree lost the entry in 0.1–1.8% of such rays in both
//!   precisions;
//! - tiny and huge meshes (`2^-100` to `2^20` in `f32`, `2^-930` to `2^240` in `f64`,
//!   about 1e-30 to 1e6 and 1e-280 to 1e72): the mesh scaled by a power of two answers
//!   every query as the unit mesh does, the `t` times that power, bit for bit (the
//!   kernel's products underflowed below about 1e-13 in `f32` and 1e-100 in `f64`:
//!   `t` 12% off, 0, or no hit);
//! - the right triangle `(0,0,0), (s,0,0), (0,s,0)` hit straight down from `(s/4, s/4,
//!   10s)` at `t = 10s` (to 4 ulps) for `s` from 1e-35 to 4e7 (`f32`) and 1e-300 to
//!   1e74 (`f64`), as a triangle and as a one-triangle mesh.

#[path = "support/for_each_real.rs"]
#[macro_use]
mod for_each_real;
#[path = "support/rng.rs"]
mod rng;

use isect::math::{Real, Vector, Vector3};
use isect::query::RayCast;
use isect::shape::{Ray, TriMesh, TriMeshFlags, Triangle};
use rng::Rng;

/// The distances, in mesh radii, rays start from.
const DISTANCES: [f64; 9] = [1.0, 3.0, 10.0, 50.0, 100.0, 1e3, 1e4, 1e5, 1e6];

/// The tolerance on an entry's `t`, in epsilons of the scalar times the entry's `t` plus
/// the mesh's radius: the kernel's `t` is within about `4.5ε` of the `t` of a point
/// `3.5ε` of the ray's travel off the exact ray on the triangle (module docs of the
/// ray kernel), and the rays here meet the faces at 55° from their normals at most, so
/// that point's `t` is within `5ε` of the travel of the exact entry.
const ENTRY_ULPS: f64 = 32.0;

fn v<R: Real>(p: [f64; 3]) -> R::V3 {
    R::V3::new(R::from_f64(p[0]), R::from_f64(p[1]), R::from_f64(p[2]))
}

fn f<R: Real>(p: R::V3) -> [f64; 3] {
    [0, 1, 2].map(|i| p.get(i).to_f64())
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn mul(a: [f64; 3], s: f64) -> [f64; 3] {
    a.map(|x| x * s)
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
    mul(a, 1.0 / dot(a, a).sqrt())
}

/// The unit icosphere: the icosahedron (vertices `(±1, ±φ, 0)` and their cyclic
/// turns, normalised) subdivided `levels` times, outward normals.
fn icosphere(levels: u32) -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
    let p = (1.0 + 5f64.sqrt()) / 2.0;
    let mut vs: Vec<[f64; 3]> = [
        [-1.0, p, 0.0],
        [1.0, p, 0.0],
        [-1.0, -p, 0.0],
        [1.0, -p, 0.0],
        [0.0, -1.0, p],
        [0.0, 1.0, p],
        [0.0, -1.0, -p],
        [0.0, 1.0, -p],
        [p, 0.0, -1.0],
        [p, 0.0, 1.0],
        [-p, 0.0, -1.0],
        [-p, 0.0, 1.0],
    ]
    .into_iter()
    .map(unit)
    .collect();
    let mut faces: Vec<[u32; 3]> = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    for _ in 0..levels {
        let mut middle = std::collections::HashMap::new();
        let mut next = Vec::new();
        for t in &faces {
            let m: [u32; 3] = std::array::from_fn(|k| {
                let (a, b) = (t[k].min(t[(k + 1) % 3]), t[k].max(t[(k + 1) % 3]));
                *middle.entry((a, b)).or_insert_with(|| {
                    vs.push(unit(mul(add(vs[a as usize], vs[b as usize]), 0.5)));
                    vs.len() as u32 - 1
                })
            });
            next.extend([
                [t[0], m[0], m[2]],
                [t[1], m[1], m[0]],
                [t[2], m[2], m[1]],
                m,
            ]);
        }
        faces = next;
    }
    (vs, faces)
}

/// `p` turned by the unit quaternion `q = (x, y, z, w)`.
fn turn(q: [f64; 4], p: [f64; 3]) -> [f64; 3] {
    let u = [q[0], q[1], q[2]];
    let t = mul(cross(u, p), 2.0);
    add(add(p, mul(t, q[3])), cross(u, t))
}

/// A seeded unit quaternion.
fn quaternion(rng: &mut Rng) -> [f64; 4] {
    let q = [0; 4].map(|_| rng.range(-1.0, 1.0));
    let n = (q.iter().map(|x| x * x).sum::<f64>()).sqrt();
    q.map(|x| x / n)
}

/// A closed icosphere of `levels` turned by `q`, its vertices rounded to `R`, and the
/// rounded vertices again in `f64`.
fn turned_sphere<R: Real>(levels: u32, q: [f64; 4]) -> (TriMesh<R>, Vec<[f64; 3]>, Vec<[u32; 3]>) {
    let (vs, faces) = icosphere(levels);
    let vs: Vec<R::V3> = vs.iter().map(|&p| v::<R>(turn(q, p))).collect();
    let exact: Vec<[f64; 3]> = vs.iter().map(|&p| f::<R>(p)).collect();
    let mesh = TriMesh::new(vs, faces.clone(), TriMeshFlags::SOLID).expect("a closed sphere");
    (mesh, exact, faces)
}

/// A point of a feature of triangle `t`: a vertex, the middle of an edge or a random
/// point of an edge (in `f64`, from the rounded vertices).
fn feature_point(rng: &mut Rng, vs: &[[f64; 3]], t: [u32; 3]) -> [f64; 3] {
    let k = rng.below(3);
    let (a, b) = (vs[t[k] as usize], vs[t[(k + 1) % 3] as usize]);
    let s = [0.0, 0.5, rng.unit()][rng.below(3)];
    add(a, mul(sub(b, a), s))
}

/// The entry and exit `t` of the ray `(o, d)` through the convex polyhedron of the
/// faces (Cyrus–Beck, in `f64`): the last plane crossed inward and the first outward.
fn convex_crossings(vs: &[[f64; 3]], faces: &[[u32; 3]], o: [f64; 3], d: [f64; 3]) -> (f64, f64) {
    let (mut enter, mut exit) = (f64::NEG_INFINITY, f64::INFINITY);
    for t in faces {
        let [a, b, c] = t.map(|i| vs[i as usize]);
        let n = cross(sub(b, a), sub(c, a));
        let (num, den) = (dot(n, sub(a, o)), dot(n, d));
        if den < 0.0 {
            enter = enter.max(num / den);
        } else if den > 0.0 {
            exit = exit.min(num / den);
        }
    }
    (enter, exit)
}

/// Every triangle's own cast of `ray` (as a [`Triangle`]): `(t, triangle)`, sorted.
fn every_triangle<R: Real>(mesh: &TriMesh<R>, ray: &Ray<R::V3>) -> Vec<(R, u32)> {
    let mut hits: Vec<(R, u32)> = (0..mesh.triangle_count())
        .filter_map(|i| {
            let t = mesh
                .triangle(i)
                .expect("in range")
                .cast_ray(ray, R::INFINITY)?;
            Some((t.t, i as u32))
        })
        .collect();
    hits.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    hits
}

// Rays aimed exactly at vertices and edge points of turned closed icospheres (levels 0
// to 2), toward a point within 0.3 of the centre (so every face around the feature
// faces the ray, at most 55° from it), from 1 to 1e6 radii: the closest crossing
// (`cast_ray_indexed`, `cast_ray`, the batch) is the least `(t, triangle)` of every
// triangle's own cast, on a triangle facing the ray, within `ENTRY_ULPS` of the exact
// entry; `cast_ray_all` gives every triangle's own crossings, all of the facing ones
// at the entry and the others at the exit; a one-triangle mesh of the crossed triangle
// crosses it at the same `t`.
fn rays_at_features_cross_once_from_any_distance<R: Real>() {
    let eps = R::EPSILON.to_f64();
    let mut rng = Rng(0x5EED_0001 + core::mem::size_of::<R>() as u64);
    let (mut cases, mut ties) = (0, 0);
    for levels in 0..3 {
        for _ in 0..3 {
            let q = quaternion(&mut rng);
            let (mesh, vs, faces) = turned_sphere::<R>(levels, q);
            let normal = |i: u32| {
                let [a, b, c] = faces[i as usize].map(|j| vs[j as usize]);
                cross(sub(b, a), sub(c, a))
            };
            for dist in DISTANCES {
                let mut rays = Vec::new();
                for _ in 0..[120, 60, 30][levels as usize] {
                    let face = faces[rng.below(faces.len())];
                    let target = feature_point(&mut rng, &vs, face);
                    let inner = [0; 3].map(|_| rng.range(-0.3, 0.3));
                    let d = unit(sub(inner, target));
                    let ray =
                        Ray::new(v::<R>(sub(target, mul(d, dist))), v::<R>(d)).expect("finite");
                    rays.push(ray);
                }
                let batch = mesh.cast_rays_indexed(&rays, R::INFINITY);
                for (ray, batch) in rays.iter().zip(batch) {
                    cases += 1;
                    let (o, d) = (f::<R>(ray.origin), f::<R>(ray.dir));
                    let (enter, exit) = convex_crossings(&vs, &faces, o, d);
                    let what = format!("levels {levels} dist {dist:e} ray {ray:?}");
                    let own = every_triangle(&mesh, ray);
                    let (i, hit) = mesh.cast_ray_indexed(ray, R::INFINITY).expect(&what);
                    // The least `(t, triangle)` of every triangle's own cast.
                    assert_eq!((hit.t, i), own[0], "not the least crossing: {what}");
                    ties += usize::from(own.len() > 1 && own[1].0 == own[0].0);
                    assert!(
                        dot(normal(i), d) < 0.0,
                        "slipped through: {what}, t {}",
                        hit.t
                    );
                    let tol = ENTRY_ULPS * eps * (enter + 1.0);
                    let t = hit.t.to_f64();
                    assert!((t - enter).abs() <= tol, "entry {t} vs {enter}: {what}");
                    // The batch, the solid cast and a lone triangle agree.
                    assert_eq!(
                        batch.map(|(j, h)| (j, h.t)),
                        Some((i, hit.t)),
                        "batch: {what}"
                    );
                    assert_eq!(mesh.cast_ray(ray, R::INFINITY).map(|h| h.t), Some(hit.t));
                    assert!(mesh.cast_ray_any(ray, R::INFINITY), "any: {what}");
                    let tri: Triangle<R::V3> = mesh.triangle(i as usize).expect("in range");
                    let lone = TriMesh::<R>::new(
                        vec![tri.a, tri.b, tri.c],
                        vec![[0, 1, 2]],
                        TriMeshFlags::OPEN,
                    )
                    .expect("a triangle");
                    assert_eq!(
                        lone.cast_ray(ray, R::INFINITY).map(|h| h.t),
                        Some(hit.t),
                        "lone: {what}"
                    );
                    // Every crossing, once: entries at the entry, exits at the exit.
                    let all: Vec<R> = mesh
                        .cast_ray_all(ray, R::INFINITY)
                        .iter()
                        .map(|h| h.t)
                        .collect();
                    let want: Vec<R> = own.iter().map(|&(t, _)| t).collect();
                    assert_eq!(all, want, "all hits: {what}");
                    let exit_tol = ENTRY_ULPS * eps * (exit + 1.0);
                    for &(t, j) in &own {
                        let (at, tol) = match dot(normal(j), d) < 0.0 {
                            true => (enter, tol),
                            false => (exit, exit_tol),
                        };
                        assert!(
                            (t.to_f64() - at).abs() <= tol,
                            "{t} of {j} not at {at}: {what}"
                        );
                    }
                    assert!(
                        own.iter().any(|&(_, j)| dot(normal(j), d) > 0.0),
                        "no exit: {what}"
                    );
                }
            }
        }
    }
    assert!(cases > 3000, "{cases} rays");
    assert!(ties > 100, "{ties} rays at a shared feature");
}
for_each_real!(rays_at_features_cross_once_from_any_distance);

/// The powers of two tiny and huge meshes are scaled by: about 1e-30 to 1e6 in `f32`
/// (coordinates up to `2^27`), 1e-280 to 1e72 in `f64` (up to `2^251`).
fn scales<R: Real>() -> Vec<i32> {
    match core::mem::size_of::<R>() {
        4 => vec![-100, -80, -66, -50, -40, -20, 0, 10, 20],
        _ => vec![-930, -800, -664, -500, -400, -200, 0, 100, 200, 240],
    }
}

/// `2^e` in `f64`.
fn pow2(e: i32) -> f64 {
    2f64.powi(e)
}

// A closed icosphere (level 1, turned, off its centre by half a radius) scaled by
// powers of two from about 1e-30 to 1e6 (`f32`) and 1e-280 to 1e72 (`f64`) answers
// every ray as the unit mesh does, the `t` times the power, bit for bit: the closest
// crossing and its triangle, all crossings, any hit, and each triangle's own cast. Rays
// aimed at features and at random points, from 1 to 1e6 radii (origins kept within the
// query reach, `16 · MAX_COORD`).
fn tiny_and_huge_meshes_answer_as_the_unit_mesh<R: Real>() {
    let mut rng = Rng(0x5EED_0002 + core::mem::size_of::<R>() as u64);
    let q = quaternion(&mut rng);
    let (unit_vs, faces) = icosphere(1);
    let offset = [0.5, -0.25, 0.375];
    let unit_vs: Vec<R::V3> = unit_vs
        .iter()
        .map(|&p| v::<R>(add(turn(q, p), offset)))
        .collect();
    let unit_mesh =
        TriMesh::new(unit_vs.clone(), faces.clone(), TriMeshFlags::SOLID).expect("closed");
    let vs64: Vec<[f64; 3]> = unit_vs.iter().map(|&p| f::<R>(p)).collect();
    let reach = R::MAX_COORD.to_f64() * 16.0;
    let (mut compared, mut hits) = (0, 0);
    for e in scales::<R>() {
        let k = R::from_f64(pow2(e));
        let scaled: Vec<R::V3> = unit_vs.iter().map(|&p| p * k).collect();
        let mesh = TriMesh::new(scaled, faces.clone(), TriMeshFlags::SOLID).expect("closed");
        let mut rng = Rng(0x5EED_0003);
        for dist in DISTANCES {
            if (dist + 2.0) * pow2(e) > reach {
                continue;
            }
            for n in 0..40 {
                let target = match n % 2 {
                    0 => {
                        let face = faces[rng.below(faces.len())];
                        feature_point(&mut rng, &vs64, face)
                    }
                    _ => add(offset, [0; 3].map(|_| rng.range(-1.2, 1.2))),
                };
                let inner = add(offset, [0; 3].map(|_| rng.range(-0.3, 0.3)));
                let d = unit(sub(inner, target));
                let unit_ray = Ray {
                    origin: v::<R>(sub(target, mul(d, dist))),
                    dir: v::<R>(d),
                };
                // The same ray scaled: its origin times the power (exact), its direction
                // as it is (`t` scales with the lengths).
                let ray = Ray {
                    origin: unit_ray.origin * k,
                    dir: unit_ray.dir,
                };
                let what = format!("2^{e}, dist {dist:e}, unit ray {unit_ray:?}");
                let scaled_t = |t: R| R::from_f64(t.to_f64() * pow2(e));
                let want = unit_mesh.cast_ray_indexed(&unit_ray, R::INFINITY);
                let got = mesh.cast_ray_indexed(&ray, R::INFINITY);
                assert_eq!(
                    got.map(|(i, h)| (i, h.t)),
                    want.map(|(i, h)| (i, scaled_t(h.t))),
                    "closest: {what}"
                );
                hits += usize::from(want.is_some());
                let all: Vec<R> = mesh
                    .cast_ray_all(&ray, R::INFINITY)
                    .iter()
                    .map(|h| h.t)
                    .collect();
                let want_all: Vec<R> = unit_mesh
                    .cast_ray_all(&unit_ray, R::INFINITY)
                    .iter()
                    .map(|h| scaled_t(h.t))
                    .collect();
                assert_eq!(all, want_all, "all: {what}");
                assert_eq!(
                    mesh.cast_ray_any(&ray, R::INFINITY),
                    unit_mesh.cast_ray_any(&unit_ray, R::INFINITY),
                    "any: {what}"
                );
                assert_eq!(
                    mesh.cast_rays(&[ray], R::INFINITY)[0].map(|h| h.t),
                    mesh.cast_ray(&ray, R::INFINITY).map(|h| h.t),
                    "batch: {what}"
                );
                for i in 0..mesh.triangle_count() {
                    let got = mesh
                        .triangle(i)
                        .expect("in range")
                        .cast_ray(&ray, R::INFINITY);
                    let want = unit_mesh
                        .triangle(i)
                        .expect("in range")
                        .cast_ray(&unit_ray, R::INFINITY);
                    assert_eq!(
                        got.map(|h| h.t),
                        want.map(|h| scaled_t(h.t)),
                        "triangle {i}: {what}"
                    );
                    assert_eq!(
                        got.map(|h| h.normal),
                        want.map(|h| h.normal),
                        "normal {i}: {what}"
                    );
                }
                compared += 1;
            }
        }
    }
    assert!(compared > 2000, "{compared} rays");
    assert!(hits * 2 > compared, "{hits} of {compared} rays hit");
}
for_each_real!(tiny_and_huge_meshes_answer_as_the_unit_mesh);

// The right triangle `(0,0,0), (s,0,0), (0,s,0)` hit straight down from `(s/4, s/4,
// 10s)`: at `t = 10s` (the origin's height, to 4 ulps) with the normal `+z`, for `s`
// from 1e-35 to 4e7 (`f32`) and 1e-300 to 1e74 (`f64`), as a triangle, as a
// one-triangle mesh (closest, all, any, batch), and from a slanted ray as tiny or huge.
fn tiny_and_huge_right_triangle<R: Real>() {
    let (lo, hi) = match core::mem::size_of::<R>() {
        4 => (-35, 7),
        _ => (-300, 74),
    };
    for e in lo..=hi {
        for m in [1.0, 3.7] {
            let s = m * 10f64.powi(e);
            let [a, b, c] = [[0.0, 0.0, 0.0], [s, 0.0, 0.0], [0.0, s, 0.0]].map(v::<R>);
            let tri = Triangle { a, b, c };
            let mesh = TriMesh::new(vec![a, b, c], vec![[0, 1, 2]], TriMeshFlags::OPEN)
                .expect("a triangle");
            let down = Ray {
                origin: v::<R>([s / 4.0, s / 4.0, 10.0 * s]),
                dir: v::<R>([0.0, 0.0, -1.0]),
            };
            let want = down.origin.get(2).to_f64();
            let ulp = R::EPSILON.to_f64() * want;
            let what = format!("s {s:e}");
            let hit = tri.cast_ray(&down, R::INFINITY).expect(&what);
            assert!(
                (hit.t.to_f64() - want).abs() <= 4.0 * ulp,
                "t {} vs {want}: {what}",
                hit.t
            );
            let n = f::<R>(hit.normal);
            let off = n[0].abs().max(n[1].abs()).max((n[2] - 1.0).abs());
            assert!(off <= 4.0 * R::EPSILON.to_f64(), "normal {n:?}: {what}");
            let (i, mesh_hit) = mesh.cast_ray_indexed(&down, R::INFINITY).expect(&what);
            assert_eq!(
                (i, mesh_hit.t, mesh_hit.normal),
                (0, hit.t, hit.normal),
                "{what}"
            );
            assert_eq!(
                mesh.cast_ray(&down, R::INFINITY).map(|h| h.t),
                Some(hit.t),
                "{what}"
            );
            assert_eq!(
                mesh.cast_rays(&[down], R::INFINITY)[0].map(|h| h.t),
                Some(hit.t)
            );
            let all: Vec<R> = mesh
                .cast_ray_all(&down, R::INFINITY)
                .iter()
                .map(|h| h.t)
                .collect();
            assert_eq!(all, [hit.t], "{what}");
            assert!(mesh.cast_ray_any(&down, hit.t), "{what}");
            // Beyond the hypotenuse: a miss.
            let out = Ray {
                origin: v::<R>([0.51 * s, 0.51 * s, 10.0 * s]),
                dir: down.dir,
            };
            assert!(tri.cast_ray(&out, R::INFINITY).is_none(), "{what}");
            assert!(mesh.cast_ray(&out, R::INFINITY).is_none(), "{what}");
            // Slanted, to the inner point `(s/3, s/4, 0)` from `(0, 0, 10s)`, along
            // `(s/3, s/4, −10s)`: `t = 1` (a direction as tiny or huge as the triangle).
            let slant = Ray {
                origin: v::<R>([0.0, 0.0, 10.0 * s]),
                dir: v::<R>([s / 3.0, s / 4.0, 0.0]) - v::<R>([0.0, 0.0, 10.0 * s]),
            };
            let t = tri.cast_ray(&slant, R::INFINITY).expect(&what).t.to_f64();
            assert!(
                (t - 1.0).abs() <= 8.0 * R::EPSILON.to_f64(),
                "slanted t {t}: {what}"
            );
            assert_eq!(
                mesh.cast_ray(&slant, R::INFINITY).map(|h| h.t.to_f64()),
                Some(t)
            );
        }
    }
}
for_each_real!(tiny_and_huge_right_triangle);
