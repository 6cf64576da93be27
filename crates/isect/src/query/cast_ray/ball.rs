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
//! `dir` need not be unit. The inside test is the closed `|p₀ − c| ≤ r`, and a
//! tangent ray (`l = r`) hits. The hit normal is `(p − c) / r` (no square root),
//! computed from the offset `p₀ − c + t·d`; its length is checked against
//! [`NORMAL_UNIT_ULPS`] and, outside it (a tiny ball far from the origin, a zero
//! radius), the offset is normalised instead.

use super::{face_the_ray, facing_dir, RayCast};
use crate::math::tolerance::eps;
use crate::math::{Real, Vector};
use crate::shape::{Ball, Ray, RayHit};

/// Tolerance, in machine epsilons, on the hit normal's length: the normal
/// `(p − c) / r` is kept when its computed `n·n` is within `2 · NORMAL_UNIT_ULPS · ε`
/// of 1, so `| |n| − 1 | ≤ NORMAL_UNIT_ULPS · ε` up to the rounding of that check
/// (a few ε); otherwise the offset `p − c` is normalised instead.
pub const NORMAL_UNIT_ULPS: f64 = 32.0;

impl<V: Vector> RayCast<V> for Ball<V> {
    /// The entry point into the closed, solid ball.
    ///
    /// Edge behaviour: an origin inside or on the sphere hits at `t = 0` with a zero
    /// normal; a tangent ray hits; a zero-radius ball is hit only by rays through its
    /// centre (normal `−dir`, normalised); a zero direction (or one whose squared length
    /// underflows) misses unless the origin is inside; NaN or infinite rays and NaN or
    /// negative `max_t` miss. The normal is unit within [`NORMAL_UNIT_ULPS`].
    #[inline]
    fn cast_ray(&self, ray: &Ray<V>, max_t: V::Scalar) -> Option<RayHit<V>> {
        match entry(self, ray)? {
            Entry::Inside => inside_is_valid(ray, max_t).then_some(RayHit {
                t: V::Scalar::ZERO,
                point: ray.origin,
                normal: V::ZERO,
            }),
            Entry::At { t, from_center } => (t <= max_t).then(|| {
                let step = ray.dir * t;
                RayHit {
                    t,
                    point: ray.origin + step,
                    normal: self.surface_normal(from_center + step, ray.dir),
                }
            }),
        }
    }

    /// True when the ray meets the closed ball for some `t ∈ [0, max_t]`, without a
    /// square root or the entry's division: the line meets the ball when the centre
    /// is within `r` of it (the same cancellation-free perpendicular as
    /// [`RayCast::cast_ray`]), and the entry comes by `max_t` when the closest
    /// approach does, or else when the point at `max_t` is in the ball.
    ///
    /// Edge behaviour as [`RayCast::cast_ray`]; a ray whose entry is within rounding
    /// of `max_t` may be answered either way.
    #[inline]
    fn intersects_ray(&self, ray: &Ray<V>, max_t: V::Scalar) -> bool {
        let r2 = self.radius() * self.radius();
        let f = ray.origin - self.center();
        if f.length_squared() <= r2 {
            return inside_is_valid(ray, max_t);
        }
        // b > 0 when the ray moves toward the centre; otherwise the ball is behind.
        let b = -f.dot(ray.dir);
        let t_closest = b / ray.dir.length_squared();
        // No branch on t_closest: an infinite or NaN one (a zero, underflowing or
        // non-finite direction, a NaN origin) makes the perpendicular infinite or NaN,
        // which fails `≤ r²`; so does every comparison with a NaN `max_t`.
        let line_meets = (b > V::Scalar::ZERO) & ((f + ray.dir * t_closest).length_squared() <= r2);
        if t_closest <= max_t {
            // The usual case (an unbounded or long ray): the entry precedes max_t.
            return line_meets;
        }
        line_meets & ((f + ray.dir * max_t).length_squared() <= r2) & (max_t >= V::Scalar::ZERO)
    }
}

impl<V: Vector> Ball<V> {
    /// The entry parameter only: the `t` of [`RayCast::cast_ray`] without the hit
    /// point or normal (no normalisation, no extra multiply-adds), for callers that
    /// need only the time of impact, like parry's local `cast_local_ray`.
    ///
    /// Edge behaviour, the same as `cast_ray`'s: an origin inside or on the sphere
    /// gives `Some(0)`; a tangent ray hits at its touching point; a ball behind the
    /// origin, a line passing beyond `r`, or an entry after `max_t` is `None` (an entry
    /// exactly at `max_t` hits); a zero direction is `None` unless the origin is inside;
    /// NaN or infinite rays and NaN or negative `max_t` give `None`.
    #[inline]
    pub fn ray_toi(&self, ray: &Ray<V>, max_t: V::Scalar) -> Option<V::Scalar> {
        match entry(self, ray)? {
            Entry::Inside => inside_is_valid(ray, max_t).then_some(V::Scalar::ZERO),
            Entry::At { t, .. } => (t <= max_t).then_some(t),
        }
    }

    /// The unit normal at the surface point `center + offset`, facing `dir`:
    /// `offset / r` when that is unit within [`NORMAL_UNIT_ULPS`], else the normalised
    /// offset, else (a zero offset) `−dir` normalised.
    #[inline]
    fn surface_normal(&self, offset: V, dir: V) -> V {
        let n = offset * self.radius().recip();
        let unit_enough =
            (n.length_squared() - V::Scalar::ONE).abs() <= eps::<V::Scalar>(2.0 * NORMAL_UNIT_ULPS);
        if unit_enough {
            return face_the_ray(n, dir);
        }
        offset
            .try_normalize()
            .map_or_else(|| facing_dir(dir), |n| face_the_ray(n, dir))
    }
}

/// The validity checks an inside origin still needs: `c ≤ 0` already implies a
/// finite origin, so only the direction and `max_t` are left (NaN `max_t` fails).
#[inline]
fn inside_is_valid<V: Vector>(ray: &Ray<V>, max_t: V::Scalar) -> bool {
    ray.dir.is_finite() && max_t >= V::Scalar::ZERO
}

/// Where the ray enters the ball.
enum Entry<V: Vector> {
    /// The origin is in the closed ball.
    Inside,
    /// The ray enters from outside at this `t > 0`; `from_center = p₀ − c`.
    At {
        /// The entry parameter.
        t: V::Scalar,
        /// The origin relative to the centre.
        from_center: V,
    },
}

/// The robust near root, or `None` when the line misses or the ball is behind.
///
/// Non-finite rays never reach [`Entry::At`]: a NaN or infinite origin or direction
/// makes `b` or `t_closest` NaN or infinite, and those return `None`. A NaN origin
/// also fails `c ≤ 0`, so [`Entry::Inside`] implies a finite origin.
#[inline]
fn entry<V: Vector>(ball: &Ball<V>, ray: &Ray<V>) -> Option<Entry<V>> {
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
    // 1/a depends on the direction only, so the division runs beside the dot
    // products instead of after them.
    let t_closest = b * a.recip();
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
    Some(Entry::At {
        t: c / q,
        from_center: f,
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{close, close_v, s, v};
    use super::*;
    use crate::math::tolerance::eps;
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

    /// The boolean query at its edges, at scale `k`, beside `cast_ray`.
    fn check_intersects<V: Vector>(k: f64) {
        let inf = V::Scalar::INFINITY;
        let c = v::<V>(3.0 * k, -2.0 * k, k);
        let b = ball(c, k);
        let head_on = ray(c - v(4.0 * k, 0.0, 0.0), v(2.0 * k, 0.0, 0.0));
        // Enters at t = 1.5, closest approach at t = 2: max_t between, at, before.
        assert!(b.intersects_ray(&head_on, inf));
        assert!(b.intersects_ray(&head_on, s::<V>(1.75)));
        assert!(b.intersects_ray(&head_on, s::<V>(1.5)));
        assert!(!b.intersects_ray(&head_on, s::<V>(1.49)));
        // Tangent line hits; just outside misses; pointing away misses.
        assert!(b.intersects_ray(&ray(c - v(4.0 * k, -k, 0.0), v(1.0, 0.0, 0.0)), inf));
        let outside = ray(c - v(4.0 * k, -1.001 * k, 0.0), v(1.0, 0.0, 0.0));
        assert!(!b.intersects_ray(&outside, inf));
        let away = ray(c - v(4.0 * k, 0.0, 0.0), v(-1.0, 0.0, 0.0));
        assert!(!b.intersects_ray(&away, inf));
        // Origin inside with a zero direction hits; outside with one misses.
        assert!(b.intersects_ray(&ray(c, V::ZERO), s::<V>(0.0)));
        assert!(!b.intersects_ray(&ray(c - v(4.0 * k, 0.0, 0.0), V::ZERO), inf));
        // NaN and negative max_t miss, from outside and from inside.
        for max_t in [s::<V>(f64::NAN), s::<V>(-1.0)] {
            assert!(!b.intersects_ray(&head_on, max_t));
            assert!(!b.intersects_ray(&ray(c, v(1.0, 0.0, 0.0)), max_t));
        }
        // Non-finite rays miss.
        let nan = Ray {
            origin: V::splat(s::<V>(f64::NAN)),
            dir: v(1.0, 0.0, 0.0),
        };
        assert!(!b.intersects_ray(&nan, inf));
        let infinite = Ray {
            origin: head_on.origin,
            dir: v(f64::INFINITY, 0.0, 0.0),
        };
        assert!(!b.intersects_ray(&infinite, inf));
        // Agrees with cast_ray on a fan of rays through and around the ball.
        for i in 0..200 {
            let angle = i as f64 * 0.013;
            let dir = v::<V>(angle.cos(), angle.sin(), 0.5 * angle.sin()) * s::<V>(k);
            let r = ray(c - v(4.0 * k, 0.3 * k, 0.0), dir);
            for max_t in [s::<V>(2.0), s::<V>(3.5), inf] {
                assert_eq!(b.intersects_ray(&r, max_t), b.cast_ray(&r, max_t).is_some());
            }
        }
    }

    /// `ray_toi` at its edges, at scale `k`.
    fn check_toi<V: Vector>(k: f64) {
        let inf = V::Scalar::INFINITY;
        let c = v::<V>(3.0 * k, -2.0 * k, k);
        let b = ball(c, k);
        // Head-on from 4k away, direction 2k: enters at t = 1.5; max_t exactly there hits.
        let head_on = ray(c - v(4.0 * k, 0.0, 0.0), v(2.0 * k, 0.0, 0.0));
        let t = b.ray_toi(&head_on, inf).unwrap();
        assert!(close(t, s::<V>(1.5), 1e-5), "{t:?}");
        assert_eq!(b.ray_toi(&head_on, t), Some(t));
        assert!(b.ray_toi(&head_on, s::<V>(1.49)).is_none());
        // Tangent line (offset exactly r) hits at the touching point; just outside misses.
        let tangent = ray(c - v(4.0 * k, -k, 0.0), v(1.0, 0.0, 0.0));
        assert!(close(
            b.ray_toi(&tangent, inf).unwrap(),
            s::<V>(4.0 * k),
            1e-5
        ));
        let outside = ray(c - v(4.0 * k, -1.001 * k, 0.0), v(1.0, 0.0, 0.0));
        assert!(b.ray_toi(&outside, inf).is_none());
        // Inside and on the surface: Some(0), even with a zero direction.
        assert_eq!(b.ray_toi(&ray(c, V::ZERO), inf), Some(s::<V>(0.0)));
        let on = ray(c + v(k, 0.0, 0.0), v(1.0, 0.0, 0.0));
        assert_eq!(b.ray_toi(&on, s::<V>(0.0)), Some(s::<V>(0.0)));
        // Behind (pointing away) and a zero direction outside: None.
        let away = ray(c - v(4.0 * k, 0.0, 0.0), v(-1.0, 0.0, 0.0));
        assert!(b.ray_toi(&away, inf).is_none());
        assert!(b.ray_toi(&ray(head_on.origin, V::ZERO), inf).is_none());
        // NaN / negative max_t, NaN origin, infinite direction: None, inside or out.
        for max_t in [s::<V>(f64::NAN), s::<V>(-1.0)] {
            assert!(b.ray_toi(&head_on, max_t).is_none());
            assert!(b.ray_toi(&ray(c, v(1.0, 0.0, 0.0)), max_t).is_none());
        }
        let nan = Ray {
            origin: V::splat(s::<V>(f64::NAN)),
            dir: v(1.0, 0.0, 0.0),
        };
        assert!(b.ray_toi(&nan, inf).is_none());
        for origin in [head_on.origin, c] {
            let infinite = Ray {
                origin,
                dir: v(f64::INFINITY, 0.0, 0.0),
            };
            assert!(b.ray_toi(&infinite, inf).is_none());
        }
        // The same t as cast_ray on a fan of rays through and around the ball.
        for i in 0..200 {
            let angle = i as f64 * 0.013;
            let dir = v::<V>(angle.cos(), angle.sin(), 0.5 * angle.sin()) * s::<V>(k);
            let r = ray(c - v(4.0 * k, 0.3 * k, 0.0), dir);
            for max_t in [s::<V>(2.0), s::<V>(3.5), inf] {
                assert_eq!(b.ray_toi(&r, max_t), b.cast_ray(&r, max_t).map(|h| h.t));
            }
        }
    }

    // ray_toi, every type, scales 1e-5, 1, 1e6.
    #[test]
    fn ray_toi_edges_every_type_and_scale() {
        for k in [1e-5, 1.0, 1e6] {
            check_toi::<Vec2>(k);
            check_toi::<Vec3>(k);
            check_toi::<DVec2>(k);
            check_toi::<DVec3>(k);
        }
    }

    // The boolean query, every type, scales 1e-5, 1, 1e6.
    #[test]
    fn intersects_edges_every_type_and_scale() {
        for k in [1e-5, 1.0, 1e6] {
            check_intersects::<Vec2>(k);
            check_intersects::<Vec3>(k);
            check_intersects::<DVec2>(k);
            check_intersects::<DVec3>(k);
        }
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

    /// `| |n| − 1 | ≤ NORMAL_UNIT_ULPS · ε` (plus 4 ε for the rounding of the check and
    /// of `length`) and `n` faces the ray.
    fn assert_unit_facing<V: Vector>(hit: &RayHit<V>, dir: V) {
        let tol = eps::<V::Scalar>(NORMAL_UNIT_ULPS + 4.0);
        let len = hit.normal.length();
        assert!((len - V::Scalar::ONE).abs() <= tol, "|n| = {len:?}");
        assert!(hit.normal.dot(dir) <= V::Scalar::ZERO);
    }

    /// Seeded rays at balls of radius k/2..k around points out to 10·k: the normal
    /// `(p − c) / r` stays unit within the tolerance.
    fn check_normals_unit<V: Vector>(k: f64) {
        let mut state = 0x5EED_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let mut hits = 0;
        for _ in 0..2000 {
            let c = v::<V>(10.0 * k * next(), 10.0 * k * next(), 10.0 * k * next());
            let b = ball(c, k * (0.5005 + 0.4995 * next()));
            let o = v::<V>(10.0 * k * next(), 10.0 * k * next(), 10.0 * k * next());
            let aim = c + v::<V>(0.7 * k * next(), 0.7 * k * next(), 0.7 * k * next());
            let r = ray(o, aim - o);
            if let Some(hit) = b.cast_ray(&r, V::Scalar::INFINITY) {
                if hit.t > V::Scalar::ZERO {
                    assert_unit_facing(&hit, r.dir);
                    hits += 1;
                }
            }
        }
        assert!((600..1400).contains(&hits), "{hits} hits");
    }

    // Random entries at scales 1e-5, 1, 1e6: unit normals for every type.
    #[test]
    fn normals_are_unit_within_tolerance() {
        for k in [1e-5, 1.0, 1e6] {
            check_normals_unit::<Vec2>(k);
            check_normals_unit::<Vec3>(k);
            check_normals_unit::<DVec2>(k);
            check_normals_unit::<DVec3>(k);
        }
    }

    // A tiny ball far from the origin (p − c loses digits): still a unit normal, facing
    // back along the ray.
    #[test]
    fn tiny_far_ball_normal_is_unit() {
        for r in [1e-2, 1e-4] {
            let b = ball(Vec3::new(1e4, 3.0, -2.0), r);
            let ray = ray(Vec3::new(0.0, 3.0, -2.0), Vec3::X);
            let hit = b.cast_ray(&ray, f32::INFINITY).unwrap();
            assert_unit_facing(&hit, ray.dir);
            assert!(hit.normal.x < -0.9, "{:?}", hit.normal);
        }
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
