//! Ray against a solid ball: seed 002's `e = c − p₀, a = e·d, f = sqrt(r² − e·e + a²)`,
//! rewritten to avoid catastrophic cancellation as in Ericson 5.3.2 and Haines et al.,
//! "Precision Improvements for Ray/Sphere Intersection" (*Ray Tracing Gems*, ch. 7):
//!
//! - with `f = p₀ − c`, `a = d·d`, `b = −f·d` and `c = |f|² − r²`, the discriminant
//!   `b² − a·c` (which loses every digit when the ball is small against its distance)
//!   is computed as `a·r² − |f × d|²` (Lagrange's identity `|f|²|d|² − (f·d)² = |f × d|²`):
//!   `|f × d| = l·|d|` with `l` the centre's distance to the line, so this is Haines'
//!   `r² − l²` from the perpendicular itself, scaled by `a`, without the division
//!   that finds the closest point (2D: `f × d` is the scalar `perp_dot`);
//! - the near root is `c / q` with `q = b + sqrt(a·r² − |f × d|²)` (both terms
//!   positive), not `(b − sqrt(…)) / a`, which cancels for a ray starting near the
//!   surface; so the entry costs one square root and one division;
//! - `c = |f|² − r²` is then only as inexact as the origin's own coordinates.
//!
//! `dir` need not be unit. The inside test is the closed `|p₀ − c| ≤ r`, and a
//! tangent ray (`l = r`) hits. The hit normal is `(p − c) / r` (no square root),
//! computed from the offset `p₀ − c + t·d`; its length is checked against
//! [`NORMAL_UNIT_ULPS`] and, outside it (a tiny ball far from the origin, a zero
//! radius), the offset is normalised instead.
//!
//! The tests after the inside one are combined into one boolean (no branch for a
//! random ray to mispredict): a miss comes out as a NaN root (a negative
//! discriminant), a ball behind (`b ≤ 0`), a root past `max_t` or an infinite one.

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
    /// centre (normal `−dir`, normalised); a zero direction misses unless the origin is
    /// inside, and a direction of any other length is answered alike (rescaled by a
    /// power of two; a hit whose `t` would overflow is a miss); NaN or infinite rays and
    /// NaN or negative `max_t` miss. The normal is unit within [`NORMAL_UNIT_ULPS`].
    #[inline(always)]
    fn cast_ray(&self, ray: &Ray<V>, max_t: V::Scalar) -> Option<RayHit<V>> {
        if let Some((rescaled, s)) = rescaled(ray) {
            // `origin + t·dir = origin + (t / s)·(s·dir)`, exactly (s a power of two).
            let hit = self.cast_ray(&rescaled, scaled_max_t(max_t, s))?;
            return at_scaled_t(hit, s);
        }
        let q = Quadratic::new(self, ray);
        if q.inside() {
            return inside_is_valid(ray, max_t).then_some(RayHit {
                t: V::Scalar::ZERO,
                point: ray.origin,
                normal: V::ZERO,
            });
        }
        let t = q.entry_by(max_t)?;
        let step = ray.dir * t;
        Some(RayHit {
            t,
            point: ray.origin + step,
            normal: self.surface_normal(q.from_center + step, ray.dir),
        })
    }

    /// True when the ray meets the closed ball for some `t ∈ [0, max_t]`, without a
    /// square root or a division: the line meets the ball when the discriminant of
    /// [`RayCast::cast_ray`] is non-negative, and the entry comes by `max_t` when the
    /// closest approach `t = b / a` does (`b ≤ max_t · a`), or else when the point at
    /// `max_t` is in the ball.
    ///
    /// Edge behaviour as [`RayCast::cast_ray`]; a ray whose entry is within rounding
    /// of `max_t` may be answered either way.
    #[inline(always)]
    fn intersects_ray(&self, ray: &Ray<V>, max_t: V::Scalar) -> bool {
        if let Some((rescaled, s)) = rescaled(ray) {
            return self.intersects_ray(&rescaled, scaled_max_t(max_t, s));
        }
        let q = Quadratic::new(self, ray);
        if q.inside() {
            return inside_is_valid(ray, max_t);
        }
        // NaN anywhere (a non-finite ray, a NaN `max_t`) fails a comparison here.
        let line_meets = q.moves_toward() & (q.disc >= V::Scalar::ZERO);
        if q.b <= max_t * q.a {
            // The usual case (an unbounded or long ray): the closest approach, and so
            // the entry, precede max_t.
            return line_meets;
        }
        let at_max_t = q.from_center + ray.dir * max_t;
        line_meets & (at_max_t.length_squared() <= q.r2) & (max_t >= V::Scalar::ZERO)
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
    /// exactly at `max_t` hits); a zero direction is `None` unless the origin is inside,
    /// a direction of any other length is answered alike (a `t` that would overflow is
    /// `None`); NaN or infinite rays and NaN or negative `max_t` give `None`.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let ball = Ball::new(Vec3::new(0.0, 0.0, 5.0), 1.0)?;
    /// let ray = Ray::new(Vec3::ZERO, Vec3::Z)?;
    /// assert_eq!(ball.ray_toi(&ray, 10.0), Some(4.0));
    /// assert_eq!(ball.ray_toi(&ray, 3.5), None);
    /// # Ok(())
    /// # }
    /// ```
    #[inline(always)]
    pub fn ray_toi(&self, ray: &Ray<V>, max_t: V::Scalar) -> Option<V::Scalar> {
        if let Some((rescaled, s)) = rescaled(ray) {
            let t = self.ray_toi(&rescaled, scaled_max_t(max_t, s))? * s;
            return t.is_finite().then_some(t);
        }
        let q = Quadratic::new(self, ray);
        if q.inside() {
            return inside_is_valid(ray, max_t).then_some(V::Scalar::ZERO);
        }
        q.entry_by(max_t)
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
        normalized_normal(offset, dir)
    }
}

/// The rare fallback of [`Ball::surface_normal`]: the offset normalised, or `−dir`
/// normalised for a zero offset. Kept out of line so that the kernels stay small
/// enough to inline.
#[cold]
#[inline(never)]
fn normalized_normal<V: Vector>(offset: V, dir: V) -> V {
    offset
        .try_normalize()
        .map_or_else(|| facing_dir(dir), |n| face_the_ray(n, dir))
}

/// The validity checks an inside origin still needs: `c ≤ 0` already implies a
/// finite origin, so only the direction and `max_t` are left (NaN `max_t` fails).
#[inline]
fn inside_is_valid<V: Vector>(ray: &Ray<V>, max_t: V::Scalar) -> bool {
    ray.dir.is_finite() && max_t >= V::Scalar::ZERO
}

/// The terms of the ray–ball quadratic `a·t² − 2b·t + c = 0`.
struct Quadratic<V: Vector> {
    /// The origin relative to the centre, `f = p₀ − c`.
    from_center: V,
    /// `r²`.
    r2: V::Scalar,
    /// `a = d·d`.
    a: V::Scalar,
    /// `b = −f·d`, positive when the ray moves toward the centre.
    b: V::Scalar,
    /// `c = |f|² − r²`, positive when the origin is outside.
    c: V::Scalar,
    /// `b² − a·c`, as `a·r² − |f × d|²`.
    disc: V::Scalar,
}

impl<V: Vector> Quadratic<V> {
    #[inline(always)]
    fn new(ball: &Ball<V>, ray: &Ray<V>) -> Self {
        let r2 = ball.radius() * ball.radius();
        let f = ray.origin - ball.center();
        let a = ray.dir.length_squared();
        Self {
            from_center: f,
            r2,
            a,
            b: -f.dot(ray.dir),
            c: f.length_squared() - r2,
            disc: a * r2 - cross_length_squared(f, ray.dir),
        }
    }

    /// The origin is in the closed ball. False for a NaN origin; true only for a
    /// finite one.
    #[inline(always)]
    fn inside(&self) -> bool {
        self.c <= V::Scalar::ZERO
    }

    /// The ray moves toward the centre along a direction whose `1 / |dir|²` does not
    /// overflow (a zero one included). False when either is NaN.
    #[inline(always)]
    fn moves_toward(&self) -> bool {
        (self.b > V::Scalar::ZERO) & (self.a * V::Scalar::MAX >= V::Scalar::ONE)
    }

    /// The entry `t ∈ (0, max_t]` of a ray from outside: the near root
    /// `c / (b + sqrt(disc))` when the ray moves toward the ball and its line meets
    /// it; `None` before the square root and the division otherwise (a NaN `disc`
    /// fails the test), and for a root past `max_t` (a NaN `max_t` fails) or infinite.
    #[inline(always)]
    fn entry_by(&self, max_t: V::Scalar) -> Option<V::Scalar> {
        if !(self.moves_toward() & (self.disc >= V::Scalar::ZERO)) {
            return None;
        }
        let t = self.c / (self.b + self.disc.sqrt());
        ((t <= max_t) & (t < V::Scalar::INFINITY)).then_some(t)
    }
}

/// `|f × d|²`, from the components of the cross product (in 2D the scalar
/// `f.x·d.y − f.y·d.x`), so that it keeps its digits when `f` and `d` are nearly
/// parallel.
#[inline(always)]
pub(super) fn cross_length_squared<V: Vector>(f: V, d: V) -> V::Scalar {
    if V::DIM == 2 {
        let z = f.get(0) * d.get(1) - f.get(1) * d.get(0);
        z * z
    } else {
        let rot = |v: V| v.with(0, v.get(1)).with(1, v.get(2)).with(2, v.get(0));
        (f * rot(d) - rot(f) * d).length_squared()
    }
}

/// The ray with its direction scaled by a power of two `s` to about unit size, and `s`,
/// when the direction's largest component is beyond `2^16` or below `2^-16`
/// ([`pow2_scale`](crate::math::exact::pow2_scale)); `None` otherwise (and for zero or
/// non-finite directions, which the kernels answer as they are). The quadratics'
/// `|dir|²` and `dir · offset` overflow for directions beyond about `√MAX` (a ray with
/// direction `(1e200, 0)` "hit" a ball behind it) and underflow below about
/// `√MIN_POSITIVE` (a direction of `1e-160` missed every ball).
pub(crate) fn rescaled<V: Vector>(ray: &Ray<V>) -> Option<(Ray<V>, V::Scalar)> {
    let s = crate::math::exact::pow2_scale([ray.dir.abs().max_element()]);
    (s != V::Scalar::ONE).then(|| {
        let dir = ray.dir * s;
        (
            Ray {
                origin: ray.origin,
                dir,
            },
            s,
        )
    })
}

/// The clip of a ray rescaled by `s` ([`rescaled`]) for the ray's `max_t`: at most
/// `MAX / s`, so that every `t` it allows is finite once multiplied back by `s` (a NaN
/// `max_t` stays NaN, which the kernels refuse).
#[inline]
pub(crate) fn scaled_max_t<S: Real>(max_t: S, s: S) -> S {
    let finite = if max_t > S::MAX { S::MAX } else { max_t };
    finite / s
}

/// A hit of the ray rescaled by `s` ([`rescaled`]) as a hit of the ray itself:
/// `t · s`, or no hit when that overflows (a direction so short that the ray reaches
/// the shape only past the largest finite `t`).
pub(crate) fn at_scaled_t<V: Vector>(hit: RayHit<V>, s: V::Scalar) -> Option<RayHit<V>> {
    let t = hit.t * s;
    t.is_finite().then_some(RayHit { t, ..hit })
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{
        close, close_v, every_type_and_scale, non_finite_rays, ray, s, v,
    };
    use super::*;
    use crate::math::tolerance::eps;
    use glam::{DVec2, DVec3, Vec2, Vec3};

    fn ball<V: Vector>(c: V, r: f64) -> Ball<V> {
        Ball::new(c, s::<V>(r)).unwrap()
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
        for bad in non_finite_rays(head_on.origin, v(1.0, 0.0, 0.0), 0) {
            assert!(!b.intersects_ray(&bad, inf));
        }
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
        for origin in [head_on.origin, c] {
            for bad in non_finite_rays(origin, v(1.0, 0.0, 0.0), 0) {
                assert!(b.ray_toi(&bad, inf).is_none());
            }
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
        every_type_and_scale!(check_toi);
    }

    // The boolean query, every type, scales 1e-5, 1, 1e6.
    #[test]
    fn intersects_edges_every_type_and_scale() {
        every_type_and_scale!(check_intersects);
    }

    // Every type at scales 1e-5, 1, 1e6 (f32 at 1e6 still keeps 5 digits of t).
    #[test]
    fn edges_every_type_and_scale() {
        every_type_and_scale!(check_scale);
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
        every_type_and_scale!(check_normals_unit);
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

    // A direction whose |dir|² underflows hits at its own (huge) t, found at unit size;
    // one so short that t overflows misses from outside (and hits from inside); a
    // short one whose |dir|² is still normal hits with the right t. Every entry agrees.
    #[test]
    fn tiny_directions() {
        let b = ball(Vec3::new(4.0, 0.0, 0.0), 1.0);
        let underflowing = ray(Vec3::ZERO, Vec3::new(1e-30, 0.0, 0.0));
        let t = b.ray_toi(&underflowing, f32::INFINITY).unwrap();
        assert!((t / 3e30 - 1.0).abs() < 1e-6, "{t}");
        assert_eq!(b.cast_ray(&underflowing, f32::INFINITY).unwrap().t, t);
        assert!(b.intersects_ray(&underflowing, f32::INFINITY));
        assert!(!b.intersects_ray(&underflowing, 2e30));
        assert!(b.cast_ray(&underflowing, 2e30).is_none());
        let unreachable = ray(Vec3::ZERO, Vec3::new(1e-39, 0.0, 0.0));
        assert!(b.ray_toi(&unreachable, f32::INFINITY).is_none());
        assert!(b.cast_ray(&unreachable, f32::INFINITY).is_none());
        assert!(!b.intersects_ray(&unreachable, f32::INFINITY));
        let from_inside = ray(Vec3::new(4.5, 0.0, 0.0), Vec3::new(1e-30, 0.0, 0.0));
        assert_eq!(b.ray_toi(&from_inside, f32::INFINITY), Some(0.0));
        // |dir|² = 1e-30: entry at x = 3, t = 3e15.
        let short = ray(Vec3::ZERO, Vec3::new(1e-15, 0.0, 0.0));
        let t = b.ray_toi(&short, f32::INFINITY).unwrap();
        assert!((t / 3e15 - 1.0).abs() < 1e-6, "{t}");
        assert!(b.intersects_ray(&short, f32::INFINITY));
        assert_eq!(b.cast_ray(&short, f32::INFINITY).unwrap().t, t);
    }

    // The discriminant from |f × d|²: lines passing 0.999 r and 1.001 r from the
    // centre of a small ball far away (|f| / r ≈ 1.7e8 in f64, 1.7e3 in f32, where
    // b² − a·c would keep no digit of r² − l²) are still told apart, in 2D and 3D.
    #[test]
    fn far_small_ball_grazing_lines_every_type() {
        fn check<V: Vector>(far: f64, r: f64) {
            let c = v::<V>(far, far, far);
            let b = ball(c, r);
            // A unit vector perpendicular to c (in 2D and 3D).
            let side = v::<V>(1.0, -1.0, 0.0) * s::<V>(std::f64::consts::FRAC_1_SQRT_2);
            for (offset, hits) in [(0.999, true), (1.001, false)] {
                let aim = ray(V::ZERO, c + side * s::<V>(offset * r));
                let inf = V::Scalar::INFINITY;
                assert_eq!(b.ray_toi(&aim, inf).is_some(), hits, "{offset}");
                assert_eq!(b.intersects_ray(&aim, inf), hits, "{offset}");
                assert_eq!(b.cast_ray(&aim, inf).is_some(), hits, "{offset}");
            }
        }
        check::<DVec2>(1e3, 1e-5);
        check::<DVec3>(1e3, 1e-5);
        check::<Vec2>(1e3, 1.0);
        check::<Vec3>(1e3, 1.0);
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
