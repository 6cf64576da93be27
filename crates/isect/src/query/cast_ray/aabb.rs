//! Ray against a solid axis-aligned box, by the slab test of
//! [`crate::algo::slab`] (seed 000; Ericson 5.3.3). The slab test is exact at zero
//! direction components and origins on slab planes; its one tolerance,
//! [`SLAB_EXIT_ULPS`](crate::algo::slab::SLAB_EXIT_ULPS), makes it conservative, so a
//! ray through an edge or a corner hits whatever the rounding.

use super::RayCast;
use crate::algo::slab::{ray_aabb, PreparedRay};
use crate::math::Vector;
use crate::shape::{Aabb, Ray, RayHit};

impl<V: Vector> RayCast<V> for Aabb<V> {
    /// The entry point into the closed, solid box.
    ///
    /// Edge behaviour: an origin inside hits at `t = 0` with a zero normal; an origin
    /// on a face moving inward hits at `t = 0` with that face's outward normal; a ray
    /// grazing a face, edge or corner hits, and so does one passing outside an edge or
    /// corner (or stopping short of the box) within
    /// [`SLAB_EXIT_ULPS`](crate::algo::slab::SLAB_EXIT_ULPS) of its `t` (the hit's `t`
    /// is then at most `max_t`); zero and `-0.0` direction components are exact; NaN or
    /// infinite rays and NaN or negative `max_t` miss.
    #[inline]
    fn cast_ray(&self, ray: &Ray<V>, max_t: V::Scalar) -> Option<RayHit<V>> {
        let hit = ray_aabb(ray, self, max_t)?;
        Some(RayHit {
            t: hit.t_enter,
            point: ray.point_at(hit.t_enter),
            normal: hit.normal,
        })
    }

    /// The fast boolean slab test ([`PreparedRay::hits`]).
    #[inline]
    fn intersects_ray(&self, ray: &Ray<V>, max_t: V::Scalar) -> bool {
        PreparedRay::new(ray, max_t).hits(self)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{close, v};
    use super::*;
    use crate::math::Real;
    use glam::{DVec2, DVec3, Vec2, Vec3};

    fn cube<V: Vector>(scale: f64) -> Aabb<V> {
        Aabb::new(v(-scale, -scale, -scale), v(scale, scale, scale)).unwrap()
    }

    fn ray<V: Vector>(o: V, d: V) -> Ray<V> {
        Ray::new(o, d).unwrap()
    }

    fn check_all<V: Vector>() {
        let inf = V::Scalar::INFINITY;
        for scale in [1e-5, 1.0, 1e6] {
            let b = cube::<V>(scale);
            // Head-on along +x from 2·scale away: enters the -x face at t = 1.
            let r = ray(v::<V>(-3.0 * scale, 0.0, 0.0), v(2.0 * scale, 0.0, 0.0));
            let hit = b.cast_ray(&r, inf).unwrap();
            assert!(close(hit.t, V::Scalar::ONE, 1e-6));
            assert_eq!(hit.normal, v(-1.0, 0.0, 0.0));
            // Grazing the y = scale face along x: touches.
            let graze = ray(v::<V>(-3.0 * scale, scale, 0.0), v(1.0, 0.0, 0.0));
            assert!(b.cast_ray(&graze, inf).is_some());
            assert!(b.intersects_ray(&graze, inf));
            // Through the corner diagonal on every axis.
            let corner = ray(
                v::<V>(-2.0 * scale, -2.0 * scale, -2.0 * scale),
                v(1.0, 1.0, 1.0),
            );
            assert!(close(
                b.cast_ray(&corner, inf).unwrap().t,
                V::Scalar::from_f64(scale),
                1e-6
            ));
            // Origin inside with a zero direction: t = 0, zero normal.
            let still = ray(V::ZERO, V::ZERO);
            let hit = b.cast_ray(&still, inf).unwrap();
            assert_eq!((hit.t, hit.normal), (V::Scalar::ZERO, V::ZERO));
            // Zero direction outside: miss.
            assert!(b
                .cast_ray(&ray(v::<V>(3.0 * scale, 0.0, 0.0), V::ZERO), inf)
                .is_none());
        }
    }

    // The same checks for every vector type at scales 1e-5, 1, 1e6.
    #[test]
    fn edges_every_type() {
        check_all::<Vec2>();
        check_all::<Vec3>();
        check_all::<DVec2>();
        check_all::<DVec3>();
    }

    // Origin on a face moving inward hits at 0 with that face's normal; moving along
    // the face hits at 0 with a zero normal; moving outward from a face also at 0.
    #[test]
    fn origin_on_face() {
        let b = cube::<Vec3>(1.0);
        let inward = ray(Vec3::new(1.0, 0.0, 0.0), -Vec3::X);
        let hit = b.cast_ray(&inward, 1.0).unwrap();
        assert_eq!((hit.t, hit.normal), (0.0, Vec3::X));
        let along = ray(Vec3::new(1.0, 0.0, 0.0), Vec3::Y);
        assert_eq!(b.cast_ray(&along, 1.0).unwrap().normal, Vec3::ZERO);
        let outward = ray(Vec3::new(1.0, 1.0, 1.0), Vec3::ONE);
        assert_eq!(b.cast_ray(&outward, 1.0).unwrap().t, 0.0);
    }

    // Origin on an edge or a corner moving inward: t = 0 with the normal of a face
    // the origin lies on and moves in through.
    #[test]
    fn origin_on_edge_and_corner() {
        let b = cube::<DVec3>(1.0);
        let edge = ray(DVec3::new(1.0, 1.0, 0.0), DVec3::new(-1.0, 0.0, 0.0));
        let hit = b.cast_ray(&edge, 1.0).unwrap();
        assert_eq!((hit.t, hit.normal), (0.0, DVec3::X));
        let corner = ray(DVec3::ONE, -DVec3::ONE);
        let hit = b.cast_ray(&corner, 1.0).unwrap();
        assert_eq!(hit.t, 0.0);
        assert!([DVec3::X, DVec3::Y, DVec3::Z].contains(&hit.normal));
        // Sliding along an edge from outside: enters at the corner.
        let slide = ray(DVec3::new(1.0, 1.0, 3.0), DVec3::new(0.0, 0.0, -2.0));
        let hit = b.cast_ray(&slide, f64::INFINITY).unwrap();
        assert_eq!((hit.t, hit.normal), (1.0, DVec3::Z));
    }

    // -0.0 direction components on an origin lying on the slab planes.
    #[test]
    fn negative_zero_components() {
        let b = cube::<DVec3>(1.0);
        let r = ray(DVec3::new(-2.0, 1.0, -1.0), DVec3::new(1.0, -0.0, -0.0));
        let hit = b.cast_ray(&r, f64::INFINITY).unwrap();
        assert_eq!((hit.t, hit.normal), (1.0, -DVec3::X));
    }

    // NaN and infinite rays, NaN and negative max_t: misses.
    #[test]
    fn bad_input_misses() {
        let b = cube::<Vec2>(1.0);
        let nan = Ray {
            origin: Vec2::new(f32::NAN, 0.0),
            dir: Vec2::X,
        };
        let inf = Ray {
            origin: Vec2::new(-5.0, 0.0),
            dir: Vec2::new(f32::INFINITY, 0.0),
        };
        let good = ray(Vec2::new(-5.0, 0.0), Vec2::X);
        assert!(b.cast_ray(&nan, 10.0).is_none() && !b.intersects_ray(&nan, 10.0));
        assert!(b.cast_ray(&inf, 10.0).is_none() && !b.intersects_ray(&inf, 10.0));
        assert!(b.cast_ray(&good, f32::NAN).is_none() && !b.intersects_ray(&good, -1.0));
        // max_t exactly at the entry counts; just short of it misses.
        assert!(b.cast_ray(&good, 4.0).is_some() && b.cast_ray(&good, 3.999).is_none());
    }
}
