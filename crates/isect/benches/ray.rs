//! Ray casts beside parry3d's: for each shape, 8,192 seeded random cases (about half
//! hitting) cycled through, our kernel beside parry's public `RayCast` API (posed
//! shape) and its direct local kernel, in the same criterion group.
//!
//! Like is paired with like by the id's last part, which `scripts/bench_table.py`
//! matches: `…/bool` answers hit-or-miss, `…/t` the entry parameter only, `…/hit` the
//! entry with its normal. Our `…/t` entries are the t-only casts (`Ball::ray_toi`,
//! `HalfSpace::ray_toi`, `Plane::ray_toi`, `PreparedRay::interval`), beside parry's
//! `cast_local_ray` / `cast_ray` (solid).
//!
//! Our `cast_ray` does more than parry's `…/hit` entries: it also returns the hit
//! point (`origin + t·dir`). It is a world-space query (the shape stores its
//! placement: centre, corners, vertices, plane offset), where parry's public API
//! moves the ray into the shape's frame by its pose and the normal back out, and its
//! local kernel gets a ray already in that frame (for the plane: through the origin).
//!
//! The `(local inputs)` entries run our same kernels on the inputs of parry's local
//! kernel (ball at the origin, plane through it, ray in that frame), so that kernel
//! meets kernel on identical data.
//!
//! Caveat on branches: with 8,192 cases cycled, the branch predictor can learn the
//! whole sequence of hit/miss outcomes (parry's branchy local half-space cast takes
//! about 1.6 ns here on the 2-core test box, and several times that over 1M cases,
//! where cache misses also enter), so early-out branches cost less here than on
//! real, unpredictable rays.
//!
//! Run: `cargo bench -p isect --bench ray -- --warm-up-time 1 --measurement-time 2`.

use criterion::{criterion_group, criterion_main, Criterion};
use glam::Vec3;
use isect::algo::slab::PreparedRay;
use isect::query::RayCast;
use isect::shape::HalfSpace;
use isect::shape::{Aabb, Ball, Plane, Ray, Triangle};
use parry3d::math::Pose;
use parry3d::query::{Ray as PRay, RayCast as PRayCast};

mod support;
use support::{cycle, parry_aabb, parry_ray, Rng, CASES};

impl Rng {
    /// A ray from [-8, 8]³ toward `target` ± `spread`, non-unit.
    fn ray(&mut self, target: Vec3, spread: f32) -> Ray<Vec3> {
        let origin = self.vec3(-8.0, 8.0);
        let dir = (target + self.vec3(-spread, spread) - origin) * self.uniform(0.2, 2.0);
        Ray { origin, dir }
    }
}

fn ray_aabb(c: &mut Criterion) {
    let mut rng = Rng(0xAABB);
    let mut ours = Vec::with_capacity(CASES);
    let mut prepared = Vec::with_capacity(CASES);
    let mut parry_aabbs = Vec::with_capacity(CASES);
    let mut parry_cuboid = Vec::with_capacity(CASES);
    for _ in 0..CASES {
        let (center, he) = (rng.vec3(-3.0, 3.0), rng.vec3(0.2, 3.0));
        let ray = rng.ray(center, 2.7);
        let aabb = Aabb::from_center(center, he).unwrap();
        ours.push((ray, aabb));
        prepared.push((PreparedRay::new(&ray, f32::INFINITY), aabb));
        parry_aabbs.push((parry_ray(&ray), parry_aabb(&aabb)));
        let cuboid = parry3d::shape::Cuboid::new(he);
        parry_cuboid.push((parry_ray(&ray), cuboid, Pose::from_translation(center)));
    }
    let inf = f32::INFINITY;
    let mut g = c.benchmark_group("ray_aabb");
    cycle(
        &mut g,
        "isect PreparedRay::hits",
        "bool",
        &prepared,
        |(p, a)| p.hits(a),
    );
    cycle(
        &mut g,
        "isect Aabb::intersects_ray",
        "bool",
        &ours,
        |(r, a)| a.intersects_ray(r, inf),
    );
    cycle(
        &mut g,
        "parry Aabb::intersects_local_ray",
        "bool",
        &parry_aabbs,
        |(r, a)| a.intersects_local_ray(r, inf),
    );
    cycle(
        &mut g,
        "parry Cuboid::intersects_ray",
        "bool",
        &parry_cuboid,
        |(r, cu, pose)| cu.intersects_ray(pose, r, inf),
    );
    cycle(
        &mut g,
        "isect PreparedRay::interval",
        "t",
        &prepared,
        |(p, a)| p.interval(a),
    );
    cycle(
        &mut g,
        "parry Aabb::cast_local_ray",
        "t",
        &parry_aabbs,
        |(r, a)| a.cast_local_ray(r, inf, true),
    );
    cycle(
        &mut g,
        "parry Cuboid::cast_ray",
        "t",
        &parry_cuboid,
        |(r, cu, pose)| cu.cast_ray(pose, r, inf, true),
    );
    cycle(&mut g, "isect Aabb::cast_ray", "hit", &ours, |(r, a)| {
        a.cast_ray(r, inf)
    });
    cycle(
        &mut g,
        "parry Aabb::cast_local_ray_and_get_normal",
        "hit",
        &parry_aabbs,
        |(r, a)| a.cast_local_ray_and_get_normal(r, inf, true),
    );
    cycle(
        &mut g,
        "parry Cuboid::cast_ray_and_get_normal",
        "hit",
        &parry_cuboid,
        |(r, cu, pose)| cu.cast_ray_and_get_normal(pose, r, inf, true),
    );
    g.finish();
}

fn ray_ball(c: &mut Criterion) {
    let mut rng = Rng(0xBA11);
    let cases: Vec<_> = (0..CASES)
        .map(|_| {
            let (center, r) = (rng.vec3(-3.0, 3.0), rng.uniform(0.2, 3.0));
            let ray = rng.ray(center, 2.2);
            let local = PRay::new(ray.origin - center, ray.dir);
            let parry = parry3d::shape::Ball::new(r);
            let pose = Pose::from_translation(center);
            (ray, Ball::new(center, r).unwrap(), parry, pose, local)
        })
        .collect();
    // The inputs of parry's local kernel for our same kernel: the ball at the origin
    // and the ray already in its frame.
    let local: Vec<_> = cases
        .iter()
        .map(|(_, b, _, _, l)| {
            let ray = Ray {
                origin: l.origin,
                dir: l.dir,
            };
            (ray, Ball::new(Vec3::ZERO, b.radius()).unwrap())
        })
        .collect();
    let inf = f32::INFINITY;
    let mut g = c.benchmark_group("ray_ball");
    cycle(
        &mut g,
        "isect Ball::intersects_ray",
        "bool",
        &cases,
        |(r, b, ..)| b.intersects_ray(r, inf),
    );
    cycle(
        &mut g,
        "isect Ball::intersects_ray (local inputs)",
        "bool",
        &local,
        |(r, b)| b.intersects_ray(r, inf),
    );
    cycle(
        &mut g,
        "parry Ball::intersects_local_ray",
        "bool",
        &cases,
        |(.., pb, _, l)| pb.intersects_local_ray(l, inf),
    );
    cycle(
        &mut g,
        "parry Ball::intersects_ray",
        "bool",
        &cases,
        |(r, _, pb, pose, _)| pb.intersects_ray(pose, &parry_ray(r), inf),
    );
    cycle(
        &mut g,
        "isect Ball::cast_ray",
        "hit",
        &cases,
        |(r, b, ..)| b.cast_ray(r, inf),
    );
    cycle(
        &mut g,
        "isect Ball::cast_ray (local inputs)",
        "hit",
        &local,
        |(r, b)| b.cast_ray(r, inf),
    );
    cycle(
        &mut g,
        "parry Ball::cast_local_ray_and_get_normal",
        "hit",
        &cases,
        |(.., pb, _, l)| pb.cast_local_ray_and_get_normal(l, inf, true),
    );
    cycle(
        &mut g,
        "parry Ball::cast_ray_and_get_normal",
        "hit",
        &cases,
        |(r, _, pb, pose, _)| pb.cast_ray_and_get_normal(pose, &parry_ray(r), inf, true),
    );
    cycle(&mut g, "isect Ball::ray_toi", "t", &cases, |(r, b, ..)| {
        b.ray_toi(r, inf)
    });
    cycle(
        &mut g,
        "isect Ball::ray_toi (local inputs)",
        "t",
        &local,
        |(r, b)| b.ray_toi(r, inf),
    );
    cycle(
        &mut g,
        "parry Ball::cast_local_ray",
        "t",
        &cases,
        |(.., pb, _, l)| pb.cast_local_ray(l, inf, true),
    );
    cycle(
        &mut g,
        "parry Ball::cast_ray",
        "t",
        &cases,
        |(r, _, pb, pose, _)| pb.cast_ray(pose, &parry_ray(r), inf, true),
    );
    g.finish();
}

fn ray_plane(c: &mut Criterion) {
    let mut rng = Rng(0x91A7E);
    let cases: Vec<_> = (0..CASES)
        .map(|_| {
            let normal = rng.vec3(-1.0, 1.0) + Vec3::splat(1e-3);
            let plane = Plane::new(normal, rng.uniform(-2.0, 2.0)).unwrap();
            let on_plane = plane.normal() * plane.d();
            let ray = rng.ray(plane.normal() * (plane.d() + 8.0), 8.0);
            let local = PRay::new(ray.origin - on_plane, ray.dir);
            let parry = parry3d::shape::HalfSpace::new(plane.normal());
            (ray, plane, parry, Pose::from_translation(on_plane), local)
        })
        .collect();
    // The inputs of parry's local kernel for our same kernel: the plane through the
    // origin and the ray already in its frame.
    let local: Vec<_> = cases
        .iter()
        .map(|(_, p, _, _, l)| {
            let ray = Ray {
                origin: l.origin,
                dir: l.dir,
            };
            (ray, HalfSpace::new(Plane::new(p.normal(), 0.0).unwrap()))
        })
        .collect();
    let inf = f32::INFINITY;
    let mut g = c.benchmark_group("ray_plane");
    cycle(
        &mut g,
        "isect Plane::cast_ray",
        "hit",
        &cases,
        |(r, p, ..)| p.cast_ray(r, inf),
    );
    cycle(
        &mut g,
        "isect HalfSpace::cast_ray",
        "hit",
        &cases,
        |(r, p, ..)| HalfSpace::new(*p).cast_ray(r, inf),
    );
    cycle(
        &mut g,
        "isect HalfSpace::cast_ray (local inputs)",
        "hit",
        &local,
        |(r, h)| h.cast_ray(r, inf),
    );
    cycle(
        &mut g,
        "parry HalfSpace::cast_local_ray_and_get_normal",
        "hit",
        &cases,
        |(.., h, _, l)| h.cast_local_ray_and_get_normal(l, inf, true),
    );
    cycle(
        &mut g,
        "parry HalfSpace::cast_ray_and_get_normal",
        "hit",
        &cases,
        |(r, _, h, pose, _)| h.cast_ray_and_get_normal(pose, &parry_ray(r), inf, true),
    );
    cycle(&mut g, "isect Plane::ray_toi", "t", &cases, |(r, p, ..)| {
        p.ray_toi(r, inf)
    });
    cycle(
        &mut g,
        "isect HalfSpace::ray_toi",
        "t",
        &cases,
        |(r, p, ..)| HalfSpace::new(*p).ray_toi(r, inf),
    );
    cycle(
        &mut g,
        "isect HalfSpace::ray_toi (local inputs)",
        "t",
        &local,
        |(r, h)| h.ray_toi(r, inf),
    );
    cycle(
        &mut g,
        "parry HalfSpace::cast_local_ray",
        "t",
        &cases,
        |(.., h, _, l)| h.cast_local_ray(l, inf, true),
    );
    cycle(
        &mut g,
        "parry HalfSpace::cast_ray",
        "t",
        &cases,
        |(r, _, h, pose, _)| h.cast_ray(pose, &parry_ray(r), inf, true),
    );
    g.finish();
}

fn ray_triangle(c: &mut Criterion) {
    let mut rng = Rng(0x7121);
    let cases: Vec<_> = (0..CASES)
        .map(|_| {
            let center = rng.vec3(-3.0, 3.0);
            let [a, b, d] = [0; 3].map(|_| center + rng.vec3(-2.0, 2.0));
            let tri = Triangle::new(a, b, d).unwrap();
            let ray = rng.ray(tri.centroid(), 0.6);
            (ray, tri, parry3d::shape::Triangle::new(a, b, d))
        })
        .collect();
    let inf = f32::INFINITY;
    let mut g = c.benchmark_group("ray_triangle");
    cycle(
        &mut g,
        "isect Triangle::cast_ray",
        "hit",
        &cases,
        |(r, t, _)| t.cast_ray(r, inf),
    );
    cycle(
        &mut g,
        "parry Triangle::cast_local_ray_and_get_normal",
        "hit",
        &cases,
        |(r, _, pt)| pt.cast_local_ray_and_get_normal(&parry_ray(r), inf, true),
    );
    cycle(
        &mut g,
        "parry Triangle::cast_ray_and_get_normal",
        "hit",
        &cases,
        |(r, _, pt)| pt.cast_ray_and_get_normal(&Pose::IDENTITY, &parry_ray(r), inf, true),
    );
    cycle(
        &mut g,
        "parry Triangle::cast_local_ray",
        "t",
        &cases,
        |(r, _, pt)| pt.cast_local_ray(&parry_ray(r), inf, true),
    );
    cycle(
        &mut g,
        "parry Triangle::cast_ray",
        "t",
        &cases,
        |(r, _, pt)| pt.cast_ray(&Pose::IDENTITY, &parry_ray(r), inf, true),
    );
    g.finish();
}

criterion_group!(benches, ray_aabb, ray_ball, ray_plane, ray_triangle);
criterion_main!(benches);
