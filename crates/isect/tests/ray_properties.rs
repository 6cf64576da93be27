//! Property tests of every ray cast, one generic body run for each vector type
//! (2D/3D, f32/f64 where the shape exists):
//!
//! - `0 ≤ t ≤ max_t`, and `point = origin + t·dir`;
//! - a surface hit lies on the surface within `SURFACE_ULPS` machine epsilons of the
//!   scene scale (`1 + |origin| + |shape| + t·|dir|`);
//! - its normal is unit within `SURFACE_ULPS` and faces the ray:
//!   `n · dir/|dir| ≤ FACING_ULPS · eps` (grazing hits sit at 0); a zero normal only
//!   comes with `t = 0` (origin inside a solid);
//! - moving ray and shape by one translation keeps `t` (when both hit; the hit
//!   itself may flip only near grazing): `|Δt|·|n · dir|`, the implied shift of the
//!   surface along its normal, stays within `SURFACE_ULPS` of the scene scale (`t`
//!   itself is ill-conditioned by `1/|n̂ · d̂|` for glancing hits).

use glam::{DVec2, DVec3, Vec2, Vec3};
use isect::math::{Real, Vector, Vector2, Vector3};
use isect::query::RayCast;
use isect::shape::HalfSpace;
use isect::shape::{Aabb, Ball, Plane, Ray, RayHit, Segment, Triangle};
use proptest::prelude::*;

const SURFACE_ULPS: f64 = 64.0;
const FACING_ULPS: f64 = 4096.0;

/// One random scene in f64, converted to each vector type.
#[derive(Clone, Debug)]
struct Scene {
    origin: [f64; 3],
    aim: [f64; 3],
    center: [f64; 3],
    size: [f64; 3],
    dir_scale: f64,
    max_t: f64,
    offset: [f64; 3],
    scale: f64,
}

fn scene() -> impl Strategy<Value = Scene> {
    let coord = || prop::array::uniform3(-10.0..10.0f64);
    (
        (coord(), prop::array::uniform3(-2.0..2.0f64), coord()),
        prop::array::uniform3(0.1..5.0f64),
        0.1..3.0f64,
        prop_oneof![Just(f64::INFINITY), 0.0..10.0f64],
        prop::array::uniform3(-100.0..100.0f64),
        prop_oneof![Just(1e-4), Just(1.0), Just(1e4)],
    )
        .prop_map(
            |((origin, aim, center), size, dir_scale, max_t, offset, scale)| Scene {
                origin,
                aim,
                center,
                size,
                dir_scale,
                max_t,
                offset,
                scale,
            },
        )
}

fn vec<V: Vector>(a: [f64; 3], k: f64) -> V {
    (0..V::DIM).fold(V::ZERO, |acc, i| acc.with(i, V::Scalar::from_f64(a[i] * k)))
}

fn eps<V: Vector>(ulps: f64) -> f64 {
    V::Scalar::EPSILON.to_f64() * ulps
}

impl Scene {
    fn center<V: Vector>(&self) -> V {
        vec(self.center, self.scale)
    }
    fn size<V: Vector>(&self) -> V {
        vec(self.size, self.scale)
    }
    /// A ray from `origin` toward the shape centre plus `aim`, non-unit.
    fn ray<V: Vector>(&self) -> Ray<V> {
        let origin: V = vec(self.origin, self.scale);
        let target: V = self.center::<V>() + vec(self.aim, self.scale);
        let dir = (target - origin) * V::Scalar::from_f64(self.dir_scale);
        Ray::new(origin, dir).unwrap()
    }
    fn max_t<V: Vector>(&self) -> V::Scalar {
        V::Scalar::from_f64(self.max_t)
    }
    fn offset<V: Vector>(&self) -> V {
        vec(self.offset, self.scale)
    }
    /// The length scale of the scene for relative tolerances.
    fn length_scale(&self) -> f64 {
        let n = |a: [f64; 3]| a.iter().map(|x| x * x).sum::<f64>().sqrt();
        self.scale * (1.0 + n(self.origin) + n(self.center) + n(self.size) + n(self.offset))
    }
}

/// Checks one hit against the common properties; `surface_distance` measures how far
/// a point is from the shape's surface.
fn check_hit<V: Vector>(
    hit: &RayHit<V>,
    ray: &Ray<V>,
    scene: &Scene,
    surface_distance: impl Fn(V) -> f64,
) -> Result<(), TestCaseError> {
    let t = hit.t.to_f64();
    prop_assert!(t >= 0.0 && t <= scene.max_t, "t = {t}");
    prop_assert_eq!(hit.point, ray.point_at(hit.t));
    let scale = scene.length_scale() + t * ray.dir.length().to_f64();
    if hit.normal == V::ZERO {
        prop_assert_eq!(t, 0.0);
        return Ok(());
    }
    let dist = surface_distance(hit.point);
    prop_assert!(
        dist <= eps::<V>(SURFACE_ULPS) * scale,
        "off surface by {dist}"
    );
    let len = hit.normal.length().to_f64();
    prop_assert!(
        (len - 1.0).abs() <= eps::<V>(SURFACE_ULPS),
        "normal length {len}"
    );
    // A zero direction (origin on a plane) faces every normal.
    let facing =
        hit.normal.dot(ray.dir).to_f64() / ray.dir.length().to_f64().max(f64::MIN_POSITIVE);
    prop_assert!(
        facing <= eps::<V>(FACING_ULPS),
        "normal faces away: {facing}"
    );
    Ok(())
}

/// Casts on the shape and on it moved by `offset` (with the ray), checks both hits,
/// and that `t` agrees when both hit.
fn check_cast<V: Vector, S: RayCast<V>>(
    shape: &S,
    moved: &S,
    scene: &Scene,
    surface_distance: impl Fn(&S, V) -> f64,
) -> Result<(), TestCaseError> {
    let ray = scene.ray::<V>();
    let max_t = scene.max_t::<V>();
    let moved_ray = Ray::new(ray.origin + scene.offset::<V>(), ray.dir).unwrap();
    let hit = shape.cast_ray(&ray, max_t);
    let moved_hit = moved.cast_ray(&moved_ray, max_t);
    prop_assert_eq!(hit.is_some(), shape.intersects_ray(&ray, max_t));
    if let Some(h) = &hit {
        check_hit(h, &ray, scene, |p| surface_distance(shape, p))?;
    }
    if let Some(h) = &moved_hit {
        check_hit(h, &moved_ray, scene, |p| surface_distance(moved, p))?;
    }
    if let (Some(a), Some(b)) = (hit, moved_hit) {
        // Measured along the surface normal: |Δt|·|n·dir| is how far the surface
        // moved, which rounding bounds; along the ray, a glancing hit amplifies it
        // by 1/|n̂·d̂| (ill-conditioned t). With no normal (t = 0 inside), along the ray.
        let along = if a.normal == V::ZERO {
            ray.dir.length()
        } else {
            a.normal.dot(ray.dir).abs()
        };
        let gap = (a.t - b.t).abs().to_f64() * along.to_f64();
        let tol = eps::<V>(SURFACE_ULPS)
            * (scene.length_scale() + a.t.to_f64() * ray.dir.length().to_f64());
        prop_assert!(gap <= tol, "translation moved the hit by {gap}");
    }
    Ok(())
}

fn aabb_distance<V: Vector>(b: &Aabb<V>, p: V) -> f64 {
    if b.contains_point(p) {
        let inner = (p - b.min).min(b.max - p);
        inner.min_element().to_f64()
    } else {
        b.closest_point(p).distance(p).to_f64()
    }
}

fn aabb_props<V: Vector>(s: &Scene) -> Result<(), TestCaseError> {
    let b = Aabb::from_center(s.center::<V>(), s.size::<V>()).unwrap();
    let moved = Aabb::from_center(s.center::<V>() + s.offset::<V>(), s.size::<V>()).unwrap();
    check_cast(&b, &moved, s, aabb_distance)
}

fn ball_props<V: Vector>(s: &Scene) -> Result<(), TestCaseError> {
    let r = V::Scalar::from_f64(s.size[0] * s.scale);
    let b = Ball::new(s.center::<V>(), r).unwrap();
    let moved = b.translated(s.offset::<V>());
    check_cast(&b, &moved, s, |b, p| {
        (p.distance(b.center()) - b.radius()).abs().to_f64()
    })
}

fn plane_props<V: Vector>(s: &Scene) -> Result<(), TestCaseError> {
    let normal = vec::<V>(s.size, 1.0) - V::splat(V::Scalar::from_f64(2.5));
    let Ok(p) = Plane::from_point_normal(s.center::<V>(), normal) else {
        return Ok(());
    };
    let moved = Plane::from_point_normal(s.center::<V>() + s.offset::<V>(), normal).unwrap();
    let dist = |p: &Plane<V>, x: V| p.signed_distance(x).abs().to_f64();
    check_cast(&p, &moved, s, dist)?;
    let dist_h = |h: &HalfSpace<V>, x: V| h.plane.signed_distance(x).abs().to_f64();
    check_cast(&HalfSpace::new(p), &HalfSpace::new(moved), s, dist_h)
}

/// Distance from `p` to the triangle's plane, plus how far it is outside an edge.
fn triangle_distance<V: Vector3>(t: &Triangle<V>, p: V) -> f64 {
    let Some(n) = t.normal() else {
        return f64::INFINITY;
    };
    let plane = n.dot(p - t.a).abs().to_f64();
    let [a, b, c] = t.vertices();
    let outside = [(a, b), (b, c), (c, a)]
        .iter()
        .map(|&(u, w)| {
            let edge = w - u;
            let side = edge.cross(p - u).dot(n) / edge.length();
            (-side.to_f64()).max(0.0)
        })
        .fold(0.0, f64::max);
    plane + outside
}

fn triangle_props<V: Vector3>(s: &Scene) -> Result<(), TestCaseError> {
    let c = s.center::<V>();
    let a = c + vec::<V>([s.size[0], 0.0, 0.0], s.scale);
    let b = c + vec::<V>([0.0, s.size[1], s.aim[0]], s.scale);
    let d = c - vec::<V>([s.aim[1], s.aim[2], s.size[2]], s.scale);
    let tri = Triangle::new(a, b, d).unwrap();
    let o = s.offset::<V>();
    let moved = Triangle::new(a + o, b + o, d + o).unwrap();
    check_cast(&tri, &moved, s, triangle_distance)
}

fn segment_props<V: Vector2>(s: &Scene) -> Result<(), TestCaseError> {
    let c = s.center::<V>();
    let half = vec::<V>(s.size, 1.0) - V::splat(V::Scalar::from_f64(2.5));
    let half = half * V::Scalar::from_f64(s.scale);
    let seg = Segment::new(c - half, c + half).unwrap();
    let o = s.offset::<V>();
    let moved = Segment::new(seg.a + o, seg.b + o).unwrap();
    check_cast(&seg, &moved, s, |seg, p| {
        seg.closest_point(p).0.distance(p).to_f64()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    // Boxes, 2D/3D, f32/f64.
    #[test]
    fn ray_aabb_properties(s in scene()) {
        aabb_props::<Vec2>(&s)?;
        aabb_props::<Vec3>(&s)?;
        aabb_props::<DVec2>(&s)?;
        aabb_props::<DVec3>(&s)?;
    }

    // Balls, 2D/3D, f32/f64.
    #[test]
    fn ray_ball_properties(s in scene()) {
        ball_props::<Vec2>(&s)?;
        ball_props::<Vec3>(&s)?;
        ball_props::<DVec2>(&s)?;
        ball_props::<DVec3>(&s)?;
    }

    // Planes and half-spaces, 2D/3D, f32/f64.
    #[test]
    fn ray_plane_properties(s in scene()) {
        plane_props::<Vec2>(&s)?;
        plane_props::<Vec3>(&s)?;
        plane_props::<DVec2>(&s)?;
        plane_props::<DVec3>(&s)?;
    }

    // Triangles, 3D, f32/f64.
    #[test]
    fn ray_triangle_properties(s in scene()) {
        triangle_props::<Vec3>(&s)?;
        triangle_props::<DVec3>(&s)?;
    }

    // Segments, 2D, f32/f64.
    #[test]
    fn ray_segment_properties(s in scene()) {
        segment_props::<Vec2>(&s)?;
        segment_props::<DVec2>(&s)?;
    }
}
