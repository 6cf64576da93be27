//! Ray against a 3D triangle, two-sided: the watertight test of Woop, Benthin and
//! Wald, "Watertight Ray/Triangle Intersection" (JCGT 2013). The triangle is
//! translated to the ray origin and sheared so the ray runs along an axis; the three
//! 2D edge functions then decide inside/outside. Edges and vertices count as hits,
//! and two triangles sharing an edge leave no gap between them: an edge function
//! that rounds to exactly zero is recomputed in `f64` (the paper's fallback).
//!
//! No tolerances. A flat (degenerate) triangle, or a ray lying in the triangle's
//! plane, always misses (the projected area is zero).
//!
//! The kernel is the meshes' [`ShearedRay`] (one implementation): a mesh prepares
//! the ray once for its whole traversal, a lone triangle prepares it per call, scaled
//! by powers of two for its own corners when they, or the direction, are tiny or huge
//! (`ShearedRay::within`: the kernel's products would underflow; a one-triangle mesh
//! chooses the same scale, so both answer alike).

use super::{face_the_ray, RayCast};
use crate::math::Vector3;
use crate::shape::trimesh::ray::{KernelBounds, ShearedRay};
use crate::shape::trimesh::unit_normal;
use crate::shape::{Ray, RayHit, Triangle};

impl<V: Vector3> RayCast<V> for Triangle<V> {
    /// The hit on the closed triangle, from either side, with the normal facing the ray.
    ///
    /// Edge behaviour: edges and vertices hit; an origin on the triangle hits at `t = 0`;
    /// a zero direction, a ray in the triangle's plane, and a flat triangle miss; NaN or
    /// infinite rays and NaN or negative `max_t` miss.
    #[inline]
    fn cast_ray(&self, ray: &Ray<V>, max_t: V::Scalar) -> Option<RayHit<V>> {
        let corners = self.vertices();
        let t = ShearedRay::within(ray, &KernelBounds::tight(&corners))?.hit(&corners)?;
        // `t ≤ max_t` also rejects a NaN or negative `max_t` (t ≥ 0); the finite-ray
        // test runs only on the hit path, where it is a small share of the cost.
        let in_range_and_valid = t <= max_t && ray.is_finite();
        if !in_range_and_valid {
            return None;
        }
        // The mesh's normal (a tiny triangle's edges scaled first: their plain cross
        // product underflows), `self.normal()` wherever that does not underflow.
        let normal = unit_normal(&corners);
        if normal == V::ZERO {
            return None;
        }
        let normal = face_the_ray(normal, ray.dir);
        Some(RayHit {
            t,
            point: ray.point_at(t),
            normal,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{close, close_v, s};
    use super::*;
    use crate::math::{Real, Vector};
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
