//! Rays against the curved solids: [`Cylinder`] and [`Cone`] (3D) and [`Capsule`]
//! (2D and 3D), in closed form (issue 18: the GJK point cast let rays 2.6e-3 outside
//! a unit cylinder hit it in `f32`).
//!
//! Each solid is convex, so for a ray from outside the entry is the first point of
//! the ray on the boundary: the smallest `t ≥ 0` among the candidates, each a root of
//! one surface patch kept only if its point lies on the patch (closed tests, with
//! [`PATCH_SLACK_ULPS`] for the rounding of the point, so grazing, rim and apex rays
//! hit). Patches (Ericson, *Real-Time Collision Detection*,
//! 5.3.7 for the cylinder; the cone's quadric as in Eberly's *Intersection of a Line
//! and a Cone*):
//!
//! - cylinder: the side `x² + z² = r²` for `|y| ≤ h`, and the caps `y = ±h` for
//!   `x² + z² ≤ r²`;
//! - cone: the side `x² + z² = k² (h − y)²`, `k = r / 2h`, for `−h ≤ y ≤ h` (which
//!   drops the upper nappe), and the base `y = −h` for `x² + z² ≤ r²`;
//! - capsule: the side of the cylinder around its segment, where the foot lies on the
//!   segment, and the two end balls ([`Ball`]'s kernel): the entry of a union of
//!   convex pieces is the first of their entries.
//!
//! The quadratics are solved without cancellation as [`Ball`]'s: the discriminant
//! from a cross product (Lagrange's identity; for the cone, the difference of two
//! squares `k² |U₀ d + d_y o|² − |o × d|²` over the xz parts), and the near root as
//! `c / q` with `q = b + sign(b) √disc`. Origins inside (closed test) hit at `t = 0`
//! with a zero normal; NaN or infinite rays and NaN or negative `max_t` miss.

use super::ball::{at_scaled_t, cross_length_squared, scaled_max_t};
use super::{face_the_ray, facing_dir, is_valid_query, RayCast};
use crate::math::exact::pow2_scale;
use crate::math::tolerance::eps;
use crate::math::{Real, Vector, Vector3};
use crate::shape::{Ball, Capsule, Cone, Cylinder, Ray, RayHit};

/// Slack of the patch tests, in machine epsilons of the candidate point's
/// coordinates (`|o| + |t d|`): a root on a patch's edge (the cone's apex, a
/// cylinder's rim) is kept although the rounding of its point puts it a few ulps
/// beyond.
pub const PATCH_SLACK_ULPS: f64 = 4.0;

/// `PATCH_SLACK_ULPS · ε` times the magnitude of the point `o + t d` along `axis`.
#[inline]
fn slack<V: Vector>(o: V, d: V, t: V::Scalar, axis: usize) -> V::Scalar {
    eps::<V::Scalar>(PATCH_SLACK_ULPS) * (o.get(axis).abs() + (t * d.get(axis)).abs())
}

/// True when the point at `t` is within `limit` of the axis (xz distance), up to the
/// rounding of the point.
#[inline]
fn within_radius<V: Vector3>(o: V, d: V, t: V::Scalar, limit: V::Scalar) -> bool {
    let p = radial(o + d * t);
    let room = limit + slack(o, d, t, 0).max(slack(o, d, t, 2));
    p.length_squared() <= room * room
}

/// The first candidate so far: its `t`, the unit normal there, and the height of
/// the cap plane when it is a cap hit.
struct Entry<V: Vector> {
    t: V::Scalar,
    normal: V,
    cap: Option<V::Scalar>,
}

impl<V: Vector> Entry<V> {
    fn none() -> Self {
        Self {
            t: V::Scalar::INFINITY,
            normal: V::ZERO,
            cap: None,
        }
    }

    /// Keeps `t` (with the normal `normal()`) when it is in `[0, self.t)` and
    /// `on_patch`; true when kept.
    #[inline]
    fn offer(
        &mut self,
        t: V::Scalar,
        on_patch: impl Fn(V::Scalar) -> bool,
        normal: impl Fn(V::Scalar) -> V,
    ) -> bool {
        let kept = t >= V::Scalar::ZERO && t < self.t && on_patch(t);
        if kept {
            self.t = t;
            self.normal = normal(t);
            self.cap = None;
        }
        kept
    }

    /// Keeps `t` when it is in `[0, self.t)` and `on_cap`: a hit on the cap plane
    /// `y = plane` (normal `±y`, the sign of `plane`), whose point is then put on the
    /// plane to the last bit. Only a cap hit is snapped: the side normal of a flat
    /// cone rounds to `±y` too, and its points are not on a cap.
    #[inline]
    fn offer_cap(&mut self, t: V::Scalar, on_cap: impl Fn(V::Scalar) -> bool, plane: V::Scalar) {
        let normal = |_| V::unit_axis(1) * V::Scalar::ONE.copysign(plane);
        if self.offer(t, on_cap, normal) {
            self.cap = Some(plane);
        }
    }

    /// The hit when the entry is finite and by `max_t`.
    fn hit(self, ray: &Ray<V>, max_t: V::Scalar) -> Option<RayHit<V>> {
        let point = ray.point_at(self.t);
        (self.t <= max_t && self.t < V::Scalar::INFINITY).then(|| RayHit {
            t: self.t,
            point: self.cap.map_or(point, |y| point.with(1, y)),
            normal: face_the_ray(self.normal, ray.dir),
        })
    }
}

/// The hit at `t = 0` of a ray whose origin is inside.
#[inline]
fn inside_hit<V: Vector>(ray: &Ray<V>) -> Option<RayHit<V>> {
    Some(RayHit {
        t: V::Scalar::ZERO,
        point: ray.origin,
        normal: V::ZERO,
    })
}

/// Both roots of `a t² − 2 b t + c = 0` whose discriminant `b² − a c` is given as
/// `disc` (computed without cancellation by the caller), smaller first; `None` when
/// `disc < 0` or NaN, or `a` is zero.
#[inline]
fn roots<R: Real>(a: R, b: R, c: R, disc: R) -> Option<(R, R)> {
    if disc.is_nan() || disc < R::ZERO || a == R::ZERO {
        return None;
    }
    let q = b + disc.sqrt().copysign(b);
    let (t1, t2) = (c / q, q / a);
    Some(if t1 <= t2 { (t1, t2) } else { (t2, t1) })
}

/// The roots of a ray against the infinite cylinder of `radius` whose axis passes
/// through the origin of `o` and `d` (both already stripped of their axial parts).
#[inline]
fn side_roots<V: Vector>(o: V, d: V, radius: V::Scalar) -> Option<(V::Scalar, V::Scalar)> {
    let a = d.length_squared();
    let r2 = radius * radius;
    roots(
        a,
        -o.dot(d),
        o.length_squared() - r2,
        a * r2 - cross_length_squared(o, d),
    )
}

/// `(x, 0, z)` of a 3D vector.
#[inline]
fn radial<V: Vector3>(p: V) -> V {
    p.with(1, V::Scalar::ZERO)
}

/// The answer of a cylinder's or cone's cast (half height `h`, radius `r`) decided
/// before the closed form: a miss for an invalid query, the cast redone on the solid
/// rebuilt at about unit size (`rebuild(h·k, r·k)`, [`cast_scaled`]), or the inside hit;
/// `None` when the closed form runs on the shape as it is.
#[inline]
fn revolved_prologue<R: Real, S: RayCast<R::V3>, E>(
    ray: &Ray<R::V3>,
    max_t: R,
    (h, r): (R, R),
    rebuild: impl Fn(R, R) -> Result<S, E>,
    inside: impl Fn(R::V3) -> bool,
) -> Option<Option<RayHit<R::V3>>> {
    if !is_valid_query(ray, max_t) {
        return Some(None);
    }
    let scaled = cast_scaled(ray, max_t, h.max(r), |k, ray, max_t| {
        rebuild(h * k, r * k).ok()?.cast_ray(ray, max_t)
    });
    if scaled.is_some() {
        return scaled;
    }
    inside(ray.origin).then(|| inside_hit(ray))
}

impl<R: Real> RayCast<R::V3> for Cylinder<R> {
    /// The entry into the closed solid cylinder. A zero radius (a segment) or height
    /// (a disc) is hit only by rays that meet it; NaN or infinite rays and NaN or
    /// negative `max_t` miss; an origin inside hits at `t = 0` with a zero normal.
    fn cast_ray(&self, ray: &Ray<R::V3>, max_t: R) -> Option<RayHit<R::V3>> {
        let (h, r) = (self.half_height(), self.radius());
        let inside = |p| self.contains_point(p);
        if let Some(answer) = revolved_prologue(ray, max_t, (h, r), Cylinder::new, inside) {
            return answer;
        }
        let (o, d) = (ray.origin, ray.dir);
        let y_at = |t: R| o.get(1) + t * d.get(1);
        let mut entry = Entry::none();
        if let Some((t1, t2)) = side_roots(radial(o), radial(d), r) {
            let on_side = |t: R| y_at(t).abs() <= h + slack(o, d, t, 1);
            let normal = |t: R| side_normal(radial(o + d * t), d);
            entry.offer(t1, on_side, normal);
            entry.offer(t2, on_side, normal);
        }
        for cap in [h, -h] {
            let t = (cap - o.get(1)) / d.get(1);
            let on_cap = |t: R| within_radius(o, d, t, r);
            entry.offer_cap(t, on_cap, cap);
        }
        entry.hit(ray, max_t)
    }
}

/// The unit radial normal `(x, 0, z) / |(x, 0, z)|`, or `−dir` (normalised) on the axis.
#[inline]
fn side_normal<V: Vector>(offset: V, dir: V) -> V {
    offset.try_normalize().unwrap_or_else(|| facing_dir(dir))
}

impl<R: Real> RayCast<R::V3> for Cone<R> {
    /// The entry into the closed solid cone (apex `(0, h, 0)`, base disc of `radius`
    /// at `y = −h`). A zero height is a disc, a zero radius a segment: hit only by
    /// rays that meet them; the apex hit reports `−dir` (normalised), which lies in
    /// the apex's normal cone for a first hit. NaN or infinite rays and NaN or negative
    /// `max_t` miss; an origin inside hits at `t = 0` with a zero normal.
    fn cast_ray(&self, ray: &Ray<R::V3>, max_t: R) -> Option<RayHit<R::V3>> {
        let (h, r) = (self.half_height(), self.radius());
        let inside = |p| self.contains_point(p);
        if let Some(answer) = revolved_prologue(ray, max_t, (h, r), Cone::new, inside) {
            return answer;
        }
        let (o, d) = (ray.origin, ray.dir);
        let mut entry = Entry::none();
        if h > R::ZERO {
            let k = r / (h + h);
            let y_at = |t: R| o.get(1) + t * d.get(1);
            // Within the radius too: where the slack in `y` exceeds a flat cone's
            // height, it would admit the mirrored nappe, as wide as `k` is large.
            let on_side = |t: R| {
                let (y, room) = (y_at(t), slack(o, d, t, 1));
                y >= -h - room && y <= h + room && within_radius(o, d, t, r)
            };
            let normal = |t: R| cone_normal(radial(o + d * t), k, d);
            if let Some((t1, t2)) = cone_side_roots(o, d, h, k) {
                entry.offer(t1, on_side, normal);
                entry.offer(t2, on_side, normal);
            }
        }
        let t = (-h - o.get(1)) / d.get(1);
        let on_base = |t: R| within_radius(o, d, t, r);
        entry.offer_cap(t, on_base, -h);
        entry.hit(ray, max_t)
    }
}

/// The roots of the ray against the double cone `x² + z² = k² (h − y)²`:
/// `A t² − 2 B t + C = 0` with `A = |d_xz|² − k² d_y²`, `B = −(o_xz·d_xz + k² U₀ d_y)`,
/// `C = |o_xz|² − k² U₀²`, `U₀ = h − o_y`, and `B² − A C = k² |U₀ d_xz + d_y o_xz|² −
/// |o_xz × d_xz|²`. A ray along a generator (`A = 0`) has the single root `C / 2B`.
#[inline]
fn cone_side_roots<R: Real>(o: R::V3, d: R::V3, h: R, k: R) -> Option<(R, R)> {
    let (ox, dx) = (radial(o), radial(d));
    let (dy, u0) = (d.get(1), h - o.get(1));
    let k2 = k * k;
    let a = dx.length_squared() - k2 * dy * dy;
    let b = -(ox.dot(dx) + k2 * u0 * dy);
    let c = ox.length_squared() - k2 * u0 * u0;
    let disc = k2 * (dx * u0 + ox * dy).length_squared() - cross_length_squared(ox, dx);
    if a == R::ZERO {
        return (b != R::ZERO && disc >= R::ZERO).then(|| {
            let t = c / (b + b);
            (t, t)
        });
    }
    roots(a, b, c, disc)
}

/// The cone's unit outward side normal at the radial offset `(x, 0, z)`:
/// `(x̂, k, ẑ) / √(1 + k²)`; `−dir` (normalised) at the apex.
#[inline]
fn cone_normal<R: Real>(offset: R::V3, k: R, dir: R::V3) -> R::V3 {
    match offset.try_normalize() {
        Some(u) => (u + R::V3::unit_axis(1) * k) * (R::ONE + k * k).sqrt().recip(),
        None => facing_dir(dir),
    }
}

impl<V: Vector> RayCast<V> for Capsule<V> {
    /// The entry into the closed capsule: the first of the entries into its side (the
    /// cylinder, or in 2D the band, around its segment, where the foot lies on the
    /// segment) and its two end balls. A zero radius is a segment, hit only by rays
    /// through it; a zero-length segment is a ball. NaN or infinite rays and NaN or
    /// negative `max_t` miss; an origin inside hits at `t = 0` with a zero normal.
    fn cast_ray(&self, ray: &Ray<V>, max_t: V::Scalar) -> Option<RayHit<V>> {
        if !is_valid_query(ray, max_t) {
            return None;
        }
        let seg = self.segment();
        let size = seg
            .a
            .abs()
            .max(seg.b.abs())
            .max_element()
            .max(self.radius());
        if let Some(scaled) = cast_scaled(ray, max_t, size, |k, ray, max_t| {
            let c = Capsule::new(seg.a * k, seg.b * k, self.radius() * k).ok()?;
            c.cast_ray(ray, max_t)
        }) {
            return scaled;
        }
        if self.contains_point(ray.origin) {
            return inside_hit(ray);
        }
        let r = self.radius();
        let mut entry = Entry::none();
        for end in [seg.a, seg.b] {
            if let Some(hit) = Ball::new(end, r).ok().and_then(|b| b.cast_ray(ray, max_t)) {
                entry.offer(hit.t, |_| true, |_| hit.normal);
            }
        }
        let axis = seg.b - seg.a;
        let len2 = axis.length_squared();
        if len2 > V::Scalar::ZERO {
            let across = |x: V| x - axis * (x.dot(axis) / len2);
            let rel = ray.origin - seg.a;
            if let Some((t1, _)) = side_roots(across(rel), across(ray.dir), r) {
                let along = |t: V::Scalar| (rel + ray.dir * t).dot(axis);
                let on_side = |t: V::Scalar| {
                    let s = along(t);
                    s >= V::Scalar::ZERO && s <= len2
                };
                let normal = |t: V::Scalar| side_normal(across(rel + ray.dir * t), ray.dir);
                entry.offer(t1, on_side, normal);
            }
        }
        entry.hit(ray, max_t)
    }
}

/// Lengths (the solid's `size`, the ray's origin and direction) beyond this are scaled
/// down before the closed forms above, which multiply four lengths (`|o × d|²` against
/// `r² |d|²`) and so overflow near `MAX^(1/4)` (1.2e77 in `f64`, 4.3e9 in `f32`):
/// scaled, rays with long directions or far origins are answered too.
pub const CURVED_CAST_SIZE_MAX: f64 = 65536.0;

/// The cast redone at about unit size when a length of the query exceeds
/// [`CURVED_CAST_SIZE_MAX`]: the direction is first scaled by a power of two `kd`
/// (`t = kd · t'`, as [`Ball`]'s kernel does), then the solid (`cast(k, ..)` builds it
/// times `k`), origin and direction by a power of two `k` (`t` unchanged, points
/// divided by `k`). Both are exact. `None` when no scaling is needed.
fn cast_scaled<V: Vector>(
    ray: &Ray<V>,
    max_t: V::Scalar,
    size: V::Scalar,
    cast: impl Fn(V::Scalar, &Ray<V>, V::Scalar) -> Option<RayHit<V>>,
) -> Option<Option<RayHit<V>>> {
    let one = V::Scalar::ONE;
    let big = V::Scalar::from_f64(CURVED_CAST_SIZE_MAX);
    // Long and short directions alike (`pow2_scale` is 1 between `1 / big` and `big`).
    let kd = pow2_scale([ray.dir.abs().max_element()]);
    let dir = ray.dir * kd;
    let reach = size
        .max(ray.origin.abs().max_element())
        .max(dir.abs().max_element());
    let k = if reach > big {
        pow2_scale([reach])
    } else {
        one
    };
    if k == one && kd == one {
        return None;
    }
    let scaled = Ray {
        origin: ray.origin * k,
        dir: dir * k,
    };
    Some(cast(k, &scaled, scaled_max_t(max_t, kd)).and_then(|hit| {
        at_scaled_t(
            RayHit {
                point: hit.point / k,
                ..hit
            },
            kd,
        )
    }))
}
