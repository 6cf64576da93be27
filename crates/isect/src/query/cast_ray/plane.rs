//! Ray against a plane (a line in 2D): seed 004's PhysX raycast, `t = −s / (dir · n)`
//! with `s = n · origin − d`, without its trap (the seed writes the hit before
//! rejecting `t < 0`). Here the sign test `s · (dir · n) < 0` comes first, so a plane
//! behind the origin or a parallel ray never yields a hit; the hit carries the normal
//! facing the ray. [`HalfSpace`] is the solid side `n · p ≤ d` (as parry's
//! `HalfSpace`): a ray starting there hits at `t = 0`. Reference: Ericson 5.3.1.
//!
//! No tolerances: the seed's `|dir · n| < ε` parallel test is replaced by the exact
//! sign test; a nearly parallel ray gets a large but correct `t`, checked against
//! `max_t` (a `t` that overflows to infinity misses).
//!
//! Bad input costs no test of its own: a non-finite origin or direction makes `s` or
//! `dir · n` non-finite (an infinite component times a non-zero normal component is
//! infinite, times a zero one NaN), so the ray is checked through those two numbers.

use super::RayCast;
use crate::math::{Real, Vector};
use crate::shape::{HalfSpace, Plane, Ray, RayHit};

/// A ray against a plane: the signed distance of its origin and its speed along the
/// normal.
struct Crossing<S> {
    /// `s = n · origin − d`.
    s: S,
    /// `dir · n`.
    along_normal: S,
}

impl<S: Real> Crossing<S> {
    #[inline(always)]
    fn new<V: Vector<Scalar = S>>(plane: &Plane<V>, ray: &Ray<V>) -> Self {
        Self {
            s: plane.signed_distance(ray.origin),
            along_normal: plane.normal().dot(ray.dir),
        }
    }

    /// True when a ray starting on the surface (or in the solid) may hit at `t = 0`:
    /// a finite ray (`s` and `dir · n` finite, so `x · 0 = 0` for both) and `max_t ≥ 0`
    /// (false for NaN).
    #[inline(always)]
    fn zero_t_is_valid(&self, max_t: S) -> bool {
        (self.s * S::ZERO + self.along_normal * S::ZERO == S::ZERO) & (max_t >= S::ZERO)
    }

    /// `t = −s / (dir · n)` for a ray off the plane (`s ≠ 0`) moving toward it, if it
    /// arrives by `max_t`, without a branch on the side (a mix of rays from both sides
    /// would mispredict it). The ray moves toward the plane exactly when `s` and
    /// `dir · n` have opposite signs, which is when the quotient's sign bit is clear:
    /// IEEE division sets it from the operands' signs alone, even when the quotient
    /// underflows to zero (`+0`: a hit at `t = 0`, as the exact answer rounds) or is
    /// infinite (`dir · n = ±0`, refused as not finite). A NaN `s`, `dir · n` or `max_t`
    /// fails the comparisons; an infinite `s` gives an infinite `t`, which misses, and
    /// an infinite `dir · n` is refused by its own test (it would give `t = 0`).
    #[inline(always)]
    fn crossing(&self, max_t: S) -> Option<S> {
        let t = -self.s / self.along_normal;
        let toward = S::ONE.copysign(t) > S::ZERO;
        let finite = (t < S::INFINITY) & (self.along_normal.abs() < S::INFINITY);
        (toward & finite & (t <= max_t)).then_some(t)
    }

    /// [`Crossing::crossing`] for an origin known to be in front (`s > 0`), where
    /// moving toward the plane is `dir · n < 0`.
    #[inline(always)]
    fn crossing_from_front(&self, max_t: S) -> Option<S> {
        let toward = self.along_normal < S::ZERO;
        if !toward {
            return None;
        }
        self.arrival(max_t)
    }

    /// `t = −s / (dir · n)` of a ray moving toward the plane, if finite and by `max_t`.
    #[inline(always)]
    fn arrival(&self, max_t: S) -> Option<S> {
        let t = -self.s / self.along_normal;
        let finite = (t < S::INFINITY) & (self.along_normal.abs() < S::INFINITY);
        (finite & (t <= max_t)).then_some(t)
    }
}

impl<V: Vector> Plane<V> {
    /// The parameter where the ray meets the plane, from either side: the `t` of
    /// [`RayCast::cast_ray`] without the hit point or normal, like parry's local
    /// `cast_local_ray`.
    ///
    /// Edge behaviour, the same as `cast_ray`'s: an origin exactly on the plane gives
    /// `Some(0)` (any direction, even zero or along the plane); a ray parallel to the
    /// plane and off it, a plane behind the origin, or a crossing after `max_t` is
    /// `None` (a crossing exactly at `max_t` hits; a `t` overflowing to infinity
    /// misses); NaN or infinite rays (or rays so large that `n · origin` or `n · dir`
    /// overflows) and NaN or negative `max_t` give `None`.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let ceiling = Plane::new(Vec3::Y, 3.0)?; // y = 3
    /// let up = Ray::new(Vec3::ZERO, Vec3::new(0.0, 2.0, 0.0))?; // dir not unit: t = 1.5
    /// assert_eq!(ceiling.ray_toi(&up, 10.0), Some(1.5));
    /// assert_eq!(ceiling.ray_toi(&Ray::new(Vec3::ZERO, Vec3::X)?, 10.0), None); // parallel
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn ray_toi(&self, ray: &Ray<V>, max_t: V::Scalar) -> Option<V::Scalar> {
        let x = Crossing::new(self, ray);
        if x.s == V::Scalar::ZERO {
            return x.zero_t_is_valid(max_t).then_some(V::Scalar::ZERO);
        }
        x.crossing(max_t)
    }
}

impl<V: Vector> HalfSpace<V> {
    /// The entry parameter into the closed solid half-space: the `t` of
    /// [`RayCast::cast_ray`] without the hit point or normal, like parry's local
    /// `cast_local_ray` with `solid = true`.
    ///
    /// Edge behaviour, the same as `cast_ray`'s: an origin behind or on the plane gives
    /// `Some(0)`; an origin in front moving toward the plane gives the crossing (a
    /// crossing exactly at `max_t` hits), moving parallel or away gives `None`; NaN or
    /// infinite rays (or rays so large that `n · origin` or `n · dir` overflows) and
    /// NaN or negative `max_t` give `None`.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // The solid side of y = 1 is below it (behind the normal +y).
    /// let ground = HalfSpace::new(Plane::new(Vec2::Y, 1.0)?);
    /// let falling = Ray::new(Vec2::new(0.0, 5.0), -Vec2::Y)?;
    /// assert_eq!(ground.ray_toi(&falling, 10.0), Some(4.0));
    /// assert_eq!(ground.ray_toi(&Ray::new(Vec2::ZERO, Vec2::Y)?, 10.0), Some(0.0)); // inside
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn ray_toi(&self, ray: &Ray<V>, max_t: V::Scalar) -> Option<V::Scalar> {
        let x = Crossing::new(&self.plane, ray);
        if x.s <= V::Scalar::ZERO {
            return x.zero_t_is_valid(max_t).then_some(V::Scalar::ZERO);
        }
        x.crossing_from_front(max_t)
    }
}

impl<V: Vector> RayCast<V> for Plane<V> {
    /// Where the ray meets the plane, from either side.
    ///
    /// Edge behaviour: an origin exactly on the plane hits at `t = 0` (any direction,
    /// even zero or along the plane), with the normal facing the ray (`normal()` when
    /// `dir · normal ≤ 0`); a ray parallel to the plane and off it misses, as does a
    /// plane behind the origin or beyond `max_t`; NaN or infinite rays (or rays so
    /// large that `n · origin` or `n · dir` overflows) and NaN or negative `max_t` miss.
    #[inline]
    fn cast_ray(&self, ray: &Ray<V>, max_t: V::Scalar) -> Option<RayHit<V>> {
        let x = Crossing::new(self, ray);
        let t = if x.s == V::Scalar::ZERO {
            x.zero_t_is_valid(max_t).then_some(V::Scalar::ZERO)?
        } else {
            x.crossing(max_t)?
        };
        // The normal facing the ray, from the dot product already at hand.
        let facing = if x.along_normal > V::Scalar::ZERO {
            -V::Scalar::ONE
        } else {
            V::Scalar::ONE
        };
        Some(RayHit {
            t,
            point: ray.point_at(t),
            normal: self.normal() * facing,
        })
    }
}

impl<V: Vector> RayCast<V> for HalfSpace<V> {
    /// The entry point into the closed solid half-space.
    ///
    /// Edge behaviour: an origin behind or on the plane hits at `t = 0` with a zero
    /// normal; a ray in front moving toward the plane hits it with the plane's normal;
    /// a ray in front moving parallel or away misses; NaN or infinite rays (or rays so
    /// large that `n · origin` or `n · dir` overflows) and NaN or negative `max_t` miss.
    #[inline]
    fn cast_ray(&self, ray: &Ray<V>, max_t: V::Scalar) -> Option<RayHit<V>> {
        let x = Crossing::new(&self.plane, ray);
        if x.s <= V::Scalar::ZERO {
            return x.zero_t_is_valid(max_t).then_some(RayHit {
                t: V::Scalar::ZERO,
                point: ray.origin,
                normal: V::ZERO,
            });
        }
        let t = x.crossing_from_front(max_t)?;
        Some(RayHit {
            t,
            point: ray.point_at(t),
            normal: self.plane.normal(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{
        close, close_v, every_type_and_scale, non_finite_rays, ray, s, v,
    };
    use super::*;
    use glam::{DVec2, Vec2, Vec3};

    fn check_scale<V: Vector>(k: f64) {
        let inf = V::Scalar::INFINITY;
        // The plane y = k (normal +y), i.e. a horizontal line in 2D.
        let p = Plane::new(v::<V>(0.0, 1.0, 0.0), s::<V>(k)).unwrap();
        let down = ray(v::<V>(k, 3.0 * k, 0.0), v(0.0, -k, 0.0));
        let hit = p.cast_ray(&down, inf).unwrap();
        assert!(close(hit.t, s::<V>(2.0), 1e-6));
        assert!(close_v(hit.point, v(k, k, 0.0), 1e-6));
        assert_eq!(hit.normal, v(0.0, 1.0, 0.0));
        // From behind, moving up: the normal faces the ray (−y).
        let up = ray(v::<V>(0.0, -k, 0.0), v(0.0, 1.0, 0.0));
        let hit = p.cast_ray(&up, inf).unwrap();
        assert!(close(hit.t, s::<V>(2.0 * k), 1e-6));
        assert_eq!(hit.normal, v(0.0, -1.0, 0.0));
        // Plane behind, parallel, beyond max_t: misses (seed 004's trap).
        assert!(p
            .cast_ray(&ray(v::<V>(0.0, 3.0 * k, 0.0), v(0.0, 1.0, 0.0)), inf)
            .is_none());
        assert!(p
            .cast_ray(&ray(v::<V>(0.0, 3.0 * k, 0.0), v(1.0, 0.0, 0.0)), inf)
            .is_none());
        assert!(p.cast_ray(&down, s::<V>(1.99)).is_none());
        // Half-space: behind → t = 0 with zero normal, in front → the plane hit.
        let h = HalfSpace::new(p);
        let inside = h.cast_ray(&up, inf).unwrap();
        assert_eq!((inside.t, inside.normal), (s::<V>(0.0), V::ZERO));
        let hit = h.cast_ray(&down, inf).unwrap();
        assert_eq!(hit.normal, v(0.0, 1.0, 0.0));
        assert!(h
            .cast_ray(&ray(v::<V>(0.0, 3.0 * k, 0.0), v(1.0, 0.0, 0.0)), inf)
            .is_none());
    }

    /// `Plane::ray_toi` and `HalfSpace::ray_toi` at their edges, at scale `k`.
    fn check_toi<V: Vector>(k: f64) {
        let inf = V::Scalar::INFINITY;
        // The plane y = k (normal +y); its solid half-space y ≤ k.
        let p = Plane::new(v::<V>(0.0, 1.0, 0.0), s::<V>(k)).unwrap();
        let h = HalfSpace::new(p);
        // From above, moving down at speed k: crosses at t = 2; max_t exactly there hits.
        let down = ray(v::<V>(k, 3.0 * k, 0.0), v(0.0, -k, 0.0));
        for t in [p.ray_toi(&down, inf), h.ray_toi(&down, inf)] {
            assert!(close(t.unwrap(), s::<V>(2.0), 1e-6));
        }
        let t = p.ray_toi(&down, inf).unwrap();
        assert_eq!(
            (p.ray_toi(&down, t), h.ray_toi(&down, t)),
            (Some(t), Some(t))
        );
        assert!(
            p.ray_toi(&down, s::<V>(1.99)).is_none() && h.ray_toi(&down, s::<V>(1.99)).is_none()
        );
        // From below moving up: the plane is crossed at 2k, the solid entered at 0.
        let up = ray(v::<V>(0.0, -k, 0.0), v(0.0, 1.0, 0.0));
        assert!(close(p.ray_toi(&up, inf).unwrap(), s::<V>(2.0 * k), 1e-6));
        assert_eq!(h.ray_toi(&up, inf), Some(s::<V>(0.0)));
        // In front, moving away or parallel (or not at all): both miss.
        for dir in [v::<V>(0.0, 1.0, 0.0), v(1.0, 0.0, 0.0), V::ZERO] {
            let r = ray(v::<V>(0.0, 3.0 * k, 0.0), dir);
            assert!(p.ray_toi(&r, inf).is_none() && h.ray_toi(&r, inf).is_none());
        }
        // On the plane, along it or with a zero direction: Some(0) for both.
        for dir in [v::<V>(1.0, 0.0, 0.0), V::ZERO] {
            let r = ray(v::<V>(2.0 * k, k, 0.0), dir);
            assert_eq!(p.ray_toi(&r, s::<V>(0.0)), Some(s::<V>(0.0)));
            assert_eq!(h.ray_toi(&r, s::<V>(0.0)), Some(s::<V>(0.0)));
        }
        // NaN / negative max_t, NaN origin, infinite direction: None.
        for max_t in [s::<V>(f64::NAN), s::<V>(-1.0)] {
            assert!(p.ray_toi(&down, max_t).is_none() && h.ray_toi(&down, max_t).is_none());
            assert!(h.ray_toi(&up, max_t).is_none());
        }
        for origin in [down.origin, up.origin] {
            for bad in non_finite_rays(origin, v(0.0, -1.0, 0.0), 1) {
                assert!(p.ray_toi(&bad, inf).is_none() && h.ray_toi(&bad, inf).is_none());
            }
        }
        // The same t as cast_ray on a fan of directions from above and below.
        for i in 0..200 {
            let angle = i as f64 * 0.031;
            let dir = v::<V>(angle.cos(), angle.sin(), 0.3) * s::<V>(k);
            for o in [v::<V>(0.0, 3.0 * k, 0.0), v(k, -2.0 * k, k)] {
                let r = ray(o, dir);
                for max_t in [s::<V>(2.0), inf] {
                    assert_eq!(p.ray_toi(&r, max_t), p.cast_ray(&r, max_t).map(|x| x.t));
                    assert_eq!(h.ray_toi(&r, max_t), h.cast_ray(&r, max_t).map(|x| x.t));
                }
            }
        }
    }

    // ray_toi, every type, scales 1e-5, 1, 1e6.
    #[test]
    fn ray_toi_edges_every_type_and_scale() {
        every_type_and_scale!(check_toi);
    }

    // Every type at scales 1e-5, 1, 1e6.
    #[test]
    fn edges_every_type_and_scale() {
        every_type_and_scale!(check_scale);
    }

    // Origin on the plane: t = 0 for the plane (any direction) and the half-space.
    #[test]
    fn origin_on_plane() {
        let p = Plane::new(Vec3::Z, 0.0).unwrap();
        let along = ray(Vec3::new(1.0, 2.0, 0.0), Vec3::X);
        let hit = p.cast_ray(&along, 1.0).unwrap();
        assert_eq!((hit.t, hit.normal), (0.0, Vec3::Z));
        let up = ray(Vec3::new(1.0, 2.0, -0.0), Vec3::Z);
        assert_eq!(p.cast_ray(&up, 1.0).unwrap().normal, -Vec3::Z);
        assert_eq!(HalfSpace::new(p).cast_ray(&up, 1.0).unwrap().t, 0.0);
        assert!(HalfSpace::new(p).contains_point(Vec3::ZERO));
    }

    // A nearly parallel ray: huge but finite t; respected max_t.
    #[test]
    fn nearly_parallel() {
        let p = Plane::new(DVec2::Y, 0.0).unwrap();
        let r = ray(DVec2::new(0.0, 1.0), DVec2::new(1.0, -1e-300));
        assert!(p.cast_ray(&r, 1e299).is_none());
        let hit = p.cast_ray(&r, f64::INFINITY).unwrap();
        assert!((hit.t / 1e300 - 1.0).abs() < 1e-15);
        // Overflowing t (f32): miss even with infinite max_t.
        let p32 = Plane::new(Vec2::Y, 0.0).unwrap();
        let r32 = ray(Vec2::new(0.0, 1e30), Vec2::new(1.0, -1e-30));
        assert!(p32.cast_ray(&r32, f32::INFINITY).is_none());
    }

    // Non-finite components the normal does not see (n = +y, infinite x) still miss,
    // behind, on and in front of the plane, for every query: the ray is checked
    // through n · origin and n · dir, where 0 · ∞ is NaN.
    #[test]
    fn infinite_component_across_the_normal_misses() {
        let p = Plane::new(Vec3::Y, 0.0).unwrap();
        let h = HalfSpace::new(p);
        for y in [-1.0, 0.0, 1.0] {
            let inf_origin = Ray {
                origin: Vec3::new(f32::INFINITY, y, 0.0),
                dir: -Vec3::Y,
            };
            let inf_dir = Ray {
                origin: Vec3::new(0.0, y, 0.0),
                dir: Vec3::new(f32::NEG_INFINITY, -1.0, 0.0),
            };
            for r in [inf_origin, inf_dir] {
                assert!(p.ray_toi(&r, 10.0).is_none() && h.ray_toi(&r, 10.0).is_none());
                assert!(p.cast_ray(&r, 10.0).is_none() && h.cast_ray(&r, 10.0).is_none());
            }
        }
        // A direction so large that n · dir overflows is refused like an infinite one.
        let huge = ray(Vec3::new(0.0, 1.0, 0.0), Vec3::new(0.0, -3e38, -3e38));
        let tilted = Plane::new(Vec3::new(0.0, 1.0, 1.0), 0.0).unwrap();
        assert!(tilted.ray_toi(&huge, f32::INFINITY).is_none());
        // A large but representable one still hits, at a tiny t.
        let large = ray(Vec3::new(0.0, 1.0, 0.0), Vec3::new(0.0, -1e30, 0.0));
        assert_eq!(p.ray_toi(&large, f32::INFINITY), Some(1e-30));
    }

    // NaN rays and NaN or negative max_t miss.
    #[test]
    fn bad_input_misses() {
        let p = Plane::new(Vec3::Y, 0.0).unwrap();
        let nan = Ray {
            origin: Vec3::NAN,
            dir: -Vec3::Y,
        };
        assert!(p.cast_ray(&nan, 1.0).is_none());
        assert!(HalfSpace::new(p).cast_ray(&nan, 1.0).is_none());
        let r = ray(Vec3::Y, -Vec3::Y);
        assert!(p.cast_ray(&r, f32::NAN).is_none() && p.cast_ray(&r, -1.0).is_none());
    }
}
