//! Ray against a 3D triangle, two-sided: the watertight test of Woop, Benthin and
//! Wald, "Watertight Ray/Triangle Intersection" (JCGT 2013). The triangle is
//! translated to the ray origin and sheared so the ray runs along an axis; the three
//! 2D edge functions then decide inside/outside. Edges and vertices count as hits,
//! and two triangles sharing an edge leave no gap between them: an edge function
//! that rounds to exactly zero is recomputed in `f64` (the paper's fallback).
//!
//! No tolerances. A flat (degenerate) triangle, or a ray lying in the triangle's
//! plane, always misses (the projected area is zero).

use super::{face_the_ray, RayCast};
use crate::math::{Real, Vector, Vector3};
use crate::shape::{Ray, RayHit, Triangle};

impl<V: Vector3> RayCast<V> for Triangle<V> {
    /// The hit on the closed triangle, from either side, with the normal facing the ray.
    ///
    /// Edge behaviour: edges and vertices hit; an origin on the triangle hits at `t = 0`;
    /// a zero direction, a ray in the triangle's plane, and a flat triangle miss; NaN or
    /// infinite rays and NaN or negative `max_t` miss.
    #[inline]
    fn cast_ray(&self, ray: &Ray<V>, max_t: V::Scalar) -> Option<RayHit<V>> {
        let t = watertight_t(self, ray)?;
        // `t ≤ max_t` also rejects a NaN or negative `max_t` (t ≥ 0); the finite-ray
        // test runs only on the hit path, where it is a small share of the cost.
        let in_range_and_valid = t <= max_t && ray.is_finite();
        if !in_range_and_valid {
            return None;
        }
        let normal = face_the_ray(self.normal()?, ray.dir);
        Some(RayHit {
            t,
            point: ray.point_at(t),
            normal,
        })
    }
}

/// The shear that maps the ray direction onto the last axis of a permutation.
struct Shear<S> {
    kz: usize,
    sx: S,
    sy: S,
    sz: S,
}

/// `p`'s components rotated so that axis `kz` comes last (constant indices, so the
/// loads stay direct).
#[inline(always)]
fn permute<V: Vector>(p: V, kz: usize) -> [V::Scalar; 3] {
    match kz {
        0 => [p.get(1), p.get(2), p.get(0)],
        1 => [p.get(2), p.get(0), p.get(1)],
        _ => [p.get(0), p.get(1), p.get(2)],
    }
}

impl<S: Real> Shear<S> {
    /// The shear for `dir`, or `None` for a zero direction.
    #[inline]
    fn new<V: Vector<Scalar = S>>(dir: V) -> Option<Self> {
        let kz = dir.abs().max_axis();
        let [dx, dy, dz] = permute(dir, kz);
        if dz == S::ZERO {
            return None;
        }
        // One division: the shear is the same for every triangle this ray meets, so
        // rounding `dx · (1/dz)` instead of `dx / dz` keeps the test watertight.
        let sz = dz.recip();
        Some(Self {
            kz,
            sx: dx * sz,
            sy: dy * sz,
            sz,
        })
    }

    /// A vertex relative to the ray origin, sheared: `(x, y, z)` with the ray along `z`.
    #[inline]
    fn apply<V: Vector<Scalar = S>>(&self, p: V) -> [S; 3] {
        let [x, y, z] = permute(p, self.kz);
        [x - self.sx * z, y - self.sy * z, self.sz * z]
    }
}

/// The three edge functions `(u, v, w)` of the sheared vertices `a, b, c`.
#[inline]
fn edge_functions<S: Real>(a: [S; 3], b: [S; 3], c: [S; 3]) -> [S; 3] {
    [
        c[0] * b[1] - c[1] * b[0],
        a[0] * c[1] - a[1] * c[0],
        b[0] * a[1] - b[1] * a[0],
    ]
}

/// `t` of the hit from the edge functions and the sheared depths, or `None` when the
/// ray passes outside (mixed signs) or the projected triangle is flat.
#[inline]
fn finish<S: Real>(e: [S; 3], z: [S; 3]) -> Option<S> {
    let lowest = e[0].min(e[1]).min(e[2]);
    let highest = e[0].max(e[1]).max(e[2]);
    let det = e[0] + e[1] + e[2];
    if (lowest < S::ZERO && highest > S::ZERO) || det == S::ZERO {
        return None;
    }
    let t = (e[0] * z[0] + e[1] * z[1] + e[2] * z[2]) / det;
    (t >= S::ZERO).then_some(t)
}

/// The watertight hit parameter, before the `max_t` check.
fn watertight_t<V: Vector3>(tri: &Triangle<V>, ray: &Ray<V>) -> Option<V::Scalar> {
    let shear = Shear::new(ray.dir)?;
    let [a, b, c] = tri.vertices().map(|p| shear.apply(p - ray.origin));
    let e = edge_functions(a, b, c);
    if e.iter().all(|&x| x != V::Scalar::ZERO) {
        return finish(e, [a[2], b[2], c[2]]);
    }
    // An edge function rounded to zero: its sign is decided in f64 (watertightness).
    let wide = |p: [V::Scalar; 3]| p.map(Real::to_f64);
    let (a, b, c) = (wide(a), wide(b), wide(c));
    finish(edge_functions(a, b, c), [a[2], b[2], c[2]]).map(V::Scalar::from_f64)
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{close, close_v, s};
    use super::*;
    use glam::{DVec3, Vec3};

    fn v3<V: Vector3>(x: f64, y: f64, z: f64) -> V {
        V::new(s::<V>(x), s::<V>(y), s::<V>(z))
    }

    fn ray<V: Vector>(o: V, d: V) -> Ray<V> {
        Ray::new(o, d).unwrap()
    }

    fn check_scale<V: Vector3>(k: f64) {
        let inf = V::Scalar::INFINITY;
        // The triangle (0,0,0), (k,0,0), (0,k,0) in the z = 0 plane.
        let tri = Triangle::new(v3::<V>(0.0, 0.0, 0.0), v3(k, 0.0, 0.0), v3(0.0, k, 0.0)).unwrap();
        // Straight down onto its interior from z = 2k with dir −k·z: t = 2.
        let down = ray(v3::<V>(0.25 * k, 0.25 * k, 2.0 * k), v3(0.0, 0.0, -k));
        let hit = tri.cast_ray(&down, inf).unwrap();
        assert!(close(hit.t, s::<V>(2.0), 1e-6));
        assert_eq!(hit.normal, v3(0.0, 0.0, 1.0));
        assert!(close_v(hit.point, v3(0.25 * k, 0.25 * k, 0.0), 1e-6));
        // From below: the normal flips to face the ray.
        let up = ray(v3::<V>(0.25 * k, 0.25 * k, -k), v3(0.0, 0.0, 1.0));
        assert_eq!(tri.cast_ray(&up, inf).unwrap().normal, v3(0.0, 0.0, -1.0));
        // On an edge, on the hypotenuse, on a vertex: hits.
        for (x, y) in [(0.5, 0.0), (0.5, 0.5), (0.0, 0.0), (1.0, 0.0)] {
            let r = ray(v3::<V>(x * k, y * k, k), v3(0.0, 0.0, -1.0));
            assert!(tri.cast_ray(&r, inf).is_some(), "({x}, {y}) at {k}");
        }
        // Just outside the hypotenuse: miss.
        let out = ray(v3::<V>(0.51 * k, 0.51 * k, k), v3(0.0, 0.0, -1.0));
        assert!(tri.cast_ray(&out, inf).is_none());
        // Behind the origin, beyond max_t, in the plane, zero direction: misses.
        assert!(tri.cast_ray(&ray(down.origin, -down.dir), inf).is_none());
        assert!(tri.cast_ray(&down, s::<V>(1.99)).is_none());
        let in_plane = ray(v3::<V>(-k, 0.25 * k, 0.0), v3(1.0, 0.0, 0.0));
        assert!(tri.cast_ray(&in_plane, inf).is_none());
        assert!(tri.cast_ray(&ray(down.origin, V::ZERO), inf).is_none());
    }

    // Every 3D type at scales 1e-5, 1, 1e6.
    #[test]
    fn edges_every_type_and_scale() {
        for k in [1e-5, 1.0, 1e6] {
            check_scale::<Vec3>(k);
            check_scale::<DVec3>(k);
        }
    }

    // Two triangles sharing the diagonal of a square: rays through the diagonal hit one.
    #[test]
    fn shared_edge_is_watertight() {
        let (a, b, c, d) = (Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y);
        let t1 = Triangle::new(a, b, c).unwrap();
        let t2 = Triangle::new(a, c, d).unwrap();
        for i in 0..=1000 {
            let p = i as f32 / 1000.0;
            let o = Vec3::new(p, p, 1.0) + Vec3::new(0.1, -0.3, 0.0);
            let r = ray(o, Vec3::new(p, p, 0.0) - o);
            let hits = [t1.cast_ray(&r, 2.0), t2.cast_ray(&r, 2.0)];
            assert!(hits.iter().any(Option::is_some), "gap at {p}");
        }
    }

    // Origin on the triangle: t = 0. Flat triangle and NaN rays miss.
    #[test]
    fn degenerate_inputs() {
        let tri = Triangle::new(DVec3::ZERO, DVec3::X, DVec3::Y).unwrap();
        let on = ray(DVec3::new(0.2, 0.2, 0.0), DVec3::new(0.0, 0.0, -1.0));
        assert_eq!(tri.cast_ray(&on, 1.0).unwrap().t, 0.0);
        let flat = Triangle::new(DVec3::ZERO, DVec3::X, DVec3::X * 2.0).unwrap();
        let r = ray(DVec3::new(0.5, 0.0, 1.0), -DVec3::Z);
        assert!(flat.cast_ray(&r, 5.0).is_none());
        // -0.0 direction components: the same hit as +0.0.
        let neg_zero = ray(DVec3::new(0.2, 0.2, 1.0), DVec3::new(-0.0, -0.0, -1.0));
        assert_eq!(tri.cast_ray(&neg_zero, 5.0).unwrap().t, 1.0);
        let nan = Ray {
            origin: DVec3::NAN,
            dir: -DVec3::Z,
        };
        assert!(tri.cast_ray(&nan, 5.0).is_none());
        assert!(tri.cast_ray(&on, -1.0).is_none());
    }
}
