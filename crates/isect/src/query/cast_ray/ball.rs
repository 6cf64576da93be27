//! Ray against a solid ball: seed 002's `e = c − p₀, a = e·d, f = sqrt(r² − e·e + a²)`,
//! rewritten to avoid catastrophic cancellation as in Ericson 5.3.2 and Haines et al.,
//! "Precision Improvements for Ray/Sphere Intersection" (*Ray Tracing Gems*, ch. 7):
//!
//! - the discriminant comes from the perpendicular vector from the centre to the
//!   ray's line, `Δ = r² − |f + t_c·d|²`, instead of `b² − a·c` (which loses every
//!   digit when the ball is small against its distance);
//! - the near root is `c / q` with `q = b + sqrt(a·Δ)` (both terms positive), not
//!   `(b − sqrt(…)) / a`, which cancels for a ray starting near the surface;
//! - `c = |f|² − r²` is then only as inexact as the origin's own coordinates.
//!
//! `dir` need not be unit. No tolerances: the inside test is the closed
//! `|p₀ − c| ≤ r`, and a tangent ray (`l = r`) hits.

use super::{face_the_ray, facing_dir, is_valid_query, RayCast};
use crate::math::{Real, Vector};
use crate::shape::{Ball, Ray, RayHit};

impl<V: Vector> RayCast<V> for Ball<V> {
    /// The entry point into the closed, solid ball.
    ///
    /// Edge behaviour: an origin inside or on the sphere hits at `t = 0` with a zero
    /// normal; a tangent ray hits; a zero-radius ball is hit only by rays through its
    /// centre; a zero direction (or one whose squared length underflows) misses unless
    /// the origin is inside; NaN or infinite rays and NaN or negative `max_t` miss.
    #[inline]
    fn cast_ray(&self, ray: &Ray<V>, max_t: V::Scalar) -> Option<RayHit<V>> {
        if !is_valid_query(ray, max_t) {
            return None;
        }
        let t = match entry_t(self, ray)? {
            Entry::Inside => {
                return Some(RayHit {
                    t: V::Scalar::ZERO,
                    point: ray.origin,
                    normal: V::ZERO,
                })
            }
            Entry::At(t) => t,
        };
        if t > max_t {
            return None;
        }
        let point = ray.point_at(t);
        let normal = (point - self.center())
            .try_normalize()
            .map_or_else(|| facing_dir(ray.dir), |n| face_the_ray(n, ray.dir));
        Some(RayHit { t, point, normal })
    }

    /// As [`RayCast::cast_ray`] without building the hit (no point, no normal).
    #[inline]
    fn intersects_ray(&self, ray: &Ray<V>, max_t: V::Scalar) -> bool {
        is_valid_query(ray, max_t)
            && match entry_t(self, ray) {
                Some(Entry::Inside) => true,
                Some(Entry::At(t)) => t <= max_t,
                None => false,
            }
    }
}

/// Where the ray enters the ball.
enum Entry<S> {
    /// The origin is in the closed ball.
    Inside,
    /// The ray enters from outside at this `t > 0`.
    At(S),
}

/// The robust near root, or `None` when the line misses or the ball is behind.
#[inline]
fn entry_t<V: Vector>(ball: &Ball<V>, ray: &Ray<V>) -> Option<Entry<V::Scalar>> {
    let r2 = ball.radius() * ball.radius();
    let f = ray.origin - ball.center();
    // c = |f|² − r²: its rounding error is that of the origin's own coordinates.
    let c = f.length_squared() - r2;
    if c <= V::Scalar::ZERO {
        return Some(Entry::Inside);
    }
    // b > 0 when the ray moves toward the centre; otherwise the ball is behind.
    let b = -f.dot(ray.dir);
    if b <= V::Scalar::ZERO {
        return None;
    }
    let a = ray.dir.length_squared();
    let t_closest = b / a;
    if !t_closest.is_finite() {
        return None;
    }
    // Δ = r² − l², with l the centre's distance to the line, from the perpendicular
    // vector itself (no b² − a·c cancellation); then q = b + sqrt(a·Δ) adds two
    // non-negative terms.
    let perp = f + ray.dir * t_closest;
    let delta = r2 - perp.length_squared();
    if delta < V::Scalar::ZERO {
        return None;
    }
    let q = b + (a * delta).sqrt();
    Some(Entry::At(c / q))
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{close, close_v, s, v};
    use super::*;
    use glam::{DVec2, DVec3, Vec2, Vec3};

    fn ball<V: Vector>(c: V, r: f64) -> Ball<V> {
        Ball::new(c, s::<V>(r)).unwrap()
    }

    fn ray<V: Vector>(o: V, d: V) -> Ray<V> {
        Ray::new(o, d).unwrap()
    }

    fn check_scale<V: Vector>(k: f64) {
        let inf = V::Scalar::INFINITY;
        let c = v::<V>(3.0 * k, -2.0 * k, k);
        let b = ball(c, k);
        // Head-on from 4k away with a non-unit direction 2k: enters at t = 1.5.
        let r = ray(c - v(4.0 * k, 0.0, 0.0), v(2.0 * k, 0.0, 0.0));
        let hit = b.cast_ray(&r, inf).unwrap();
        assert!(close(hit.t, s::<V>(1.5), 1e-5), "{:?}", hit.t);
        assert!(close_v(hit.normal, v(-1.0, 0.0, 0.0), 1e-5));
        assert!(close_v(hit.point, c - v(k, 0.0, 0.0), 1e-5));
        // Tangent: the line passes exactly at distance r (y offset k).
        let tangent = ray(c - v(4.0 * k, -k, 0.0), v(1.0, 0.0, 0.0));
        let hit = b.cast_ray(&tangent, inf).unwrap();
        assert!(close(hit.t, s::<V>(4.0 * k), 1e-5));
        // Just outside the tangent: miss.
        let outside = ray(c - v(4.0 * k, -1.001 * k, 0.0), v(1.0, 0.0, 0.0));
        assert!(b.cast_ray(&outside, inf).is_none());
        // Origin inside (and on the surface): t = 0, zero normal.
        let inside = b.cast_ray(&ray(c, v(0.0, 1.0, 0.0)), inf).unwrap();
        assert_eq!((inside.t, inside.normal), (s::<V>(0.0), V::ZERO));
        let on = ray(c + v(k, 0.0, 0.0), v(1.0, 0.0, 0.0));
        assert_eq!(b.cast_ray(&on, inf).unwrap().t, s::<V>(0.0));
        // Pointing away, and max_t short of the entry: miss.
        assert!(b
            .cast_ray(&ray(c - v(4.0 * k, 0.0, 0.0), v(-1.0, 0.0, 0.0)), inf)
            .is_none());
        assert!(b.cast_ray(&r, s::<V>(1.49)).is_none());
    }

    // Every type at scales 1e-5, 1, 1e6 (f32 at 1e6 still keeps 5 digits of t).
    #[test]
    fn edges_every_type_and_scale() {
        for k in [1e-5, 1.0, 1e6] {
            check_scale::<Vec2>(k);
            check_scale::<Vec3>(k);
            check_scale::<DVec2>(k);
            check_scale::<DVec3>(k);
        }
    }

    // A tiny ball far away: the naive b² − ac loses every digit in f32, this does not.
    #[test]
    fn small_far_ball_keeps_precision() {
        let b = ball(Vec3::new(1e4, 0.0, 0.0), 1e-2);
        let r = ray(Vec3::ZERO, Vec3::X);
        let hit = b.cast_ray(&r, f32::INFINITY).unwrap();
        assert!((hit.t - (1e4 - 1e-2)).abs() <= 1e4 * 4.0 * f32::EPSILON);
        let hit = b.cast_ray(&ray(Vec3::new(0.0, 5e-3, 0.0), Vec3::X), f32::INFINITY);
        assert!(hit.is_some());
    }

    // Origin just outside the surface: the near root is tiny and still positive.
    #[test]
    fn origin_near_surface() {
        let b = ball(DVec3::ZERO, 1.0);
        let r = ray(DVec3::new(-1.0 - 1e-12, 0.0, 0.0), DVec3::X);
        let t = b.cast_ray(&r, 1.0).unwrap().t;
        assert!(t > 0.0 && (t - 1e-12).abs() < 1e-15, "{t}");
    }

    // Zero-radius ball: hit only through the centre; zero direction outside misses.
    #[test]
    fn degenerate_inputs() {
        let p = ball(Vec2::new(2.0, 0.0), 0.0);
        let hit = p.cast_ray(&ray(Vec2::ZERO, Vec2::X), 5.0).unwrap();
        assert_eq!((hit.t, hit.normal), (2.0, -Vec2::X));
        assert!(p
            .cast_ray(&ray(Vec2::ZERO, Vec2::new(1.0, 1e-3)), 5.0)
            .is_none());
        let b = ball(Vec2::new(2.0, 0.0), 1.0);
        assert!(b.cast_ray(&ray(Vec2::ZERO, Vec2::ZERO), 5.0).is_none());
        let nan = Ray {
            origin: Vec2::ZERO,
            dir: Vec2::new(f32::NAN, 0.0),
        };
        assert!(b.cast_ray(&nan, 5.0).is_none());
        assert!(b.cast_ray(&ray(Vec2::ZERO, Vec2::X), f32::NAN).is_none());
        // -0.0 components behave as zero.
        let hit = b
            .cast_ray(&ray(Vec2::ZERO, Vec2::new(1.0, -0.0)), 5.0)
            .unwrap();
        assert_eq!(hit.t, 1.0);
    }
}
