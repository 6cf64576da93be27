//! Point in a 2D circular sector (seed 003, "2D Point In 2D Fan"), three ways, and
//! ray casts against a sector.
//!
//! All three tests first reject `|W|² > R²` with `W = P − C`, then test the angle:
//! - [`point_in_sector_cross`]: signs of the cross products `U × W` and `W × V` of the
//!   edge directions `U`, `V`. The seed's `(U × W)·(W × V) < 0 ⇒ outside` is a trap:
//!   it accepts the opposite wedge. We ask for both signs `≥ 0` when the span is at
//!   most π, and for either sign `≥ 0` when it exceeds π (the union of two half-planes).
//! - [`point_in_sector_normals`]: the seed's method 2, outward edge normals for a span
//!   ≤ π, and for a span > π the inverted *strict* test of the complementary sector
//!   (so the shared edges stay inside).
//! - [`point_in_sector_angle`]: the reference, `atan2` of `W` measured from the start
//!   angle. Exact in angle but subject to `atan2` rounding right at the edges.
//!
//! Spans of 0 (a segment) and of π (a half-disc) make `U × W ≥ 0 ∧ W × V ≥ 0` accept a
//! whole line; the guard `U·W ≥ 0 ∨ V·W ≥ 0` (true for every point of a span ≤ π)
//! removes the opposite half. No tolerances: boundary points count as inside
//! exactly as their computed signs say; NaN points are outside.

use crate::math::{Real, Vector, Vector2};
use crate::query::RayCast;
use crate::shape::{Ray, RayHit, Sector};

/// `|W| ≤ R` for `W = P − C`; false for NaN.
#[inline]
fn within_radius<R: Real>(s: &Sector<R>, w: R::V2) -> bool {
    w.length_squared() <= s.radius() * s.radius()
}

/// True when `W` lies in the convex wedge from `U` counter-clockwise to `V` (span ≤ π).
#[inline]
fn in_convex_wedge<V: Vector2>(u: V, v: V, w: V) -> bool {
    let zero = V::Scalar::ZERO;
    u.perp_dot(w) >= zero && w.perp_dot(v) >= zero && (u.dot(w) >= zero || v.dot(w) >= zero)
}

/// True when the direction of `w` (any length) is within the sector's angular range.
#[inline]
fn in_angular_range<R: Real>(s: &Sector<R>, w: R::V2) -> bool {
    let (u, v) = (s.start_dir(), s.end_dir());
    if s.is_reflex() {
        let zero = R::ZERO;
        u.perp_dot(w) >= zero || w.perp_dot(v) >= zero
    } else {
        in_convex_wedge(u, v, w)
    }
}

/// Point in sector with cross products (seed 003 method 1, sign trap fixed).
/// Boundary (arc, edges, centre) inside; NaN outside.
///
/// ```
/// use isect::d2::*;
/// use isect::query::sector_tests::point_in_sector_cross;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A quarter disc of radius 2: angles 0 to π/2 from the origin.
/// let s = Sector::new(Vec2::ZERO, 2.0, 0.0, std::f32::consts::FRAC_PI_2)?;
/// assert!(point_in_sector_cross(&s, Vec2::new(1.0, 1.0)));
/// assert!(!point_in_sector_cross(&s, Vec2::new(-1.0, 1.0))); // wrong quadrant
/// assert!(!point_in_sector_cross(&s, Vec2::new(1.5, 1.5))); // beyond the arc
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn point_in_sector_cross<R: Real>(s: &Sector<R>, p: R::V2) -> bool {
    let w = p - s.center();
    within_radius(s, w) && in_angular_range(s, w)
}

/// Point in sector with outward edge normals (seed 003 method 2): for a span ≤ π,
/// outside when `W` is in front of either edge normal; for a span > π, outside when
/// `W` is strictly inside the complementary wedge from `V` to `U`.
/// Boundary inside; NaN outside.
///
/// ```
/// use isect::d2::*;
/// use isect::query::sector_tests::point_in_sector_normals;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A reflex sector (span 3π/2) of radius 1: every quadrant but the fourth.
/// let s = Sector::new(Vec2::ZERO, 1.0, 0.0, 1.5 * std::f32::consts::PI)?;
/// assert!(point_in_sector_normals(&s, Vec2::new(-0.5, -0.5)));
/// assert!(!point_in_sector_normals(&s, Vec2::new(0.5, -0.5)));
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn point_in_sector_normals<R: Real>(s: &Sector<R>, p: R::V2) -> bool {
    let w = p - s.center();
    if !within_radius(s, w) {
        return false;
    }
    let (u, v) = (s.start_dir(), s.end_dir());
    // Outward normals: clockwise of U, counter-clockwise of V.
    let (n_u, n_v) = (-u.perp(), v.perp());
    let zero = R::ZERO;
    if s.is_reflex() {
        // Strictly in front of both edges: inside the complementary wedge from V to U.
        let in_complement = n_v.dot(w) > zero && n_u.dot(w) > zero;
        !in_complement
    } else {
        let half_plane_guard = u.dot(w) >= zero || v.dot(w) >= zero;
        !(n_u.dot(w) > zero || n_v.dot(w) > zero) && half_plane_guard
    }
}

/// Reference test by angle: the counter-clockwise angle of `W` from the start
/// direction, in `[0, 2π)`, is at most the span (the centre itself is inside).
/// Agrees with the other two except within `atan2` rounding of the edges. NaN outside.
///
/// ```
/// use isect::d2::*;
/// use isect::query::sector_tests::point_in_sector_angle;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A 60° sector of radius 3 centred on the +y axis (from 60° to 120°).
/// let pi = std::f32::consts::PI;
/// let s = Sector::new(Vec2::ZERO, 3.0, pi / 3.0, pi / 3.0)?;
/// assert!(point_in_sector_angle(&s, Vec2::new(0.0, 2.0)));
/// assert!(!point_in_sector_angle(&s, Vec2::new(2.0, 2.0))); // at 45°
/// # Ok(())
/// # }
/// ```
pub fn point_in_sector_angle<R: Real>(s: &Sector<R>, p: R::V2) -> bool {
    let w = p - s.center();
    if !within_radius(s, w) {
        return false;
    }
    if w == R::V2::ZERO || s.span() >= R::TAU {
        return true;
    }
    let u = s.start_dir();
    // Angle of W relative to U, in (−π, π], lifted to [0, 2π).
    let mut rel = u.perp_dot(w).atan2(u.dot(w));
    if rel < R::ZERO {
        rel += R::TAU;
    }
    rel <= s.span()
}

/// Smallest root `t ≥ 0` of `|origin + t·dir − c|² = r²` with the point in the angular
/// range, as `(t, outward normal)`.
fn arc_hit<R: Real>(s: &Sector<R>, ray: &Ray<R::V2>) -> Option<(R, R::V2)> {
    let a = ray.dir.length_squared();
    if a <= R::ZERO || s.radius() <= R::ZERO {
        return None;
    }
    let e = ray.origin - s.center();
    let b = e.dot(ray.dir);
    // Robust discriminant: r² − |e_perp|² with e_perp the offset of the line from C.
    let e_perp = e - ray.dir * (b / a);
    let (r, q) = (s.radius(), e_perp.length());
    let h = (r - q) * (r + q);
    if h.is_nan() || h < R::ZERO {
        return None;
    }
    let root = (a * h).sqrt();
    let mut best = None;
    for t in [(-b - root) / a, (-b + root) / a] {
        let w = ray.point_at(t) - s.center();
        if t >= R::ZERO && best.is_none() && in_angular_range(s, w) {
            best = w.try_normalize().map(|n| (t, n));
        }
    }
    best
}

/// First `t ≥ 0` at which the ray crosses the edge segment `C → C + R·edge`, with the
/// edge's normal facing the ray.
fn edge_hit<R: Real>(s: &Sector<R>, ray: &Ray<R::V2>, edge: R::V2) -> Option<(R, R::V2)> {
    let denom = ray.dir.perp_dot(edge);
    if denom == R::ZERO {
        return None;
    }
    let e = s.center() - ray.origin;
    let t = e.perp_dot(edge) / denom;
    let along = e.perp_dot(ray.dir) / denom;
    let normal = edge.perp();
    let facing = if normal.dot(ray.dir) > R::ZERO {
        -normal
    } else {
        normal
    };
    (t >= R::ZERO && along >= R::ZERO && along <= s.radius()).then_some((t, facing))
}

impl<R: Real> RayCast<R::V2> for Sector<R> {
    /// First hit of the ray on the solid sector: `t = 0` with a zero normal when the
    /// origin is inside; otherwise the nearest of the arc and the two edges. NaN or
    /// infinite rays, and a NaN or negative `max_t`, miss.
    fn cast_ray(&self, ray: &Ray<R::V2>, max_t: R) -> Option<RayHit<R::V2>> {
        let valid = ray.is_finite() && max_t >= R::ZERO;
        if !valid {
            return None;
        }
        if self.contains_point(ray.origin) {
            return Some(RayHit {
                t: R::ZERO,
                point: ray.origin,
                normal: R::V2::ZERO,
            });
        }
        let candidates = [
            arc_hit(self, ray),
            edge_hit(self, ray, self.start_dir()),
            edge_hit(self, ray, self.end_dir()),
        ];
        let (t, normal) = candidates
            .into_iter()
            .flatten()
            .filter(|&(t, _)| t <= max_t)
            .fold(None, |best: Option<(R, R::V2)>, c| match best {
                Some(b) if b.0 <= c.0 => Some(b),
                _ => Some(c),
            })?;
        Some(RayHit {
            t,
            point: ray.point_at(t),
            normal,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, Vec2};

    fn all_three<R: Real>(s: &Sector<R>, p: R::V2) -> [bool; 3] {
        [
            point_in_sector_cross(s, p),
            point_in_sector_normals(s, p),
            point_in_sector_angle(s, p),
        ]
    }

    /// Spans 0, π/2, π, 3π/2 and 2π at scale `k`; points on the axes so edges are exact.
    fn edge_spans<R: Real>(k: f64) {
        let r = |v: f64| R::from_f64(v);
        let p = |x: f64, y: f64| R::V2::new(r(x * k), r(y * k));
        let sector = |span: f64| Sector::<R>::new(R::V2::ZERO, r(k), R::ZERO, r(span)).unwrap();
        let pi = core::f64::consts::PI;
        // (span, point, expected): points on the edges, inside, outside, opposite ray.
        let cases = [
            (0.0, p(0.5, 0.0), true),            // on the segment
            (0.0, p(-0.5, 0.0), false),          // on the opposite ray
            (0.0, p(0.5, 0.1), false),           // beside the segment
            (pi / 2.0, p(1.0, 0.0), true),       // on the start edge, at the arc
            (pi / 2.0, p(0.001, 0.998), true),   // just inside the end edge
            (pi / 2.0, p(-0.001, 0.998), false), // just past the end edge
            (pi / 2.0, p(0.5, 0.5), true),
            (pi / 2.0, p(-0.5, -0.5), false), // opposite wedge (the seed's trap)
            (pi, p(-0.5, 0.001), true),       // half-disc, near the far edge
            (pi, p(0.3, -0.1), false),
            (pi, p(0.3, 0.0), true), // half-disc, on the start edge
            (1.5 * pi, p(0.5, -0.5), false),
            (1.5 * pi, p(0.5, 0.0), true), // reflex: on the start edge
            (1.5 * pi, p(-0.001, -0.5), true), // reflex: just inside the end edge
            (1.5 * pi, p(-0.5, -0.5), true),
            (2.0 * pi, p(0.5, -0.01), true), // full disc just below the start edge
            (2.0 * pi, p(1.0, 0.01), false), // outside the radius
            (pi / 2.0, p(0.0, 0.0), true),   // the centre
        ];
        for (span, point, expected) in cases {
            let s = sector(span);
            assert_eq!(
                all_three(&s, point),
                [expected; 3],
                "span {span} point {point:?}"
            );
        }
        // NaN point is outside for every method.
        let nan = R::V2::new(R::from_f64(f64::NAN), R::ZERO);
        assert_eq!(all_three(&sector(pi), nan), [false; 3]);
    }

    // Edge geometry at unit, huge and tiny scales, f32 and f64.
    #[test]
    fn methods_agree_at_edges() {
        for k in [1.0, 1e5, 1e-4] {
            edge_spans::<f32>(k);
            edge_spans::<f64>(k);
        }
    }

    // Zero radius: only the centre is inside.
    #[test]
    fn zero_radius_sector_is_its_centre() {
        let s = Sector::<f64>::new(DVec2::ONE, 0.0, 0.0, 1.0).unwrap();
        assert_eq!(all_three(&s, DVec2::ONE), [true; 3]);
        assert_eq!(all_three(&s, DVec2::new(1.0 + 1e-12, 1.0)), [false; 3]);
    }

    // Rays: through the arc, onto an edge, from inside, parallel to an edge, NaN.
    #[test]
    fn ray_casts() {
        let s = Sector::<f32>::new(Vec2::ZERO, 2.0, 0.0, core::f32::consts::FRAC_PI_2).unwrap();
        let from_far = Ray::new(Vec2::new(1.0, 5.0), Vec2::new(0.0, -1.0)).unwrap();
        let hit = s.cast_ray(&from_far, 10.0).unwrap();
        assert!((hit.point - Vec2::new(1.0, 3f32.sqrt())).length() < 1e-5);
        assert!(hit.normal.dot(from_far.dir) < 0.0);
        // Hits the start edge (the x axis) from below.
        let from_below = Ray::new(Vec2::new(1.0, -1.0), Vec2::Y).unwrap();
        let hit = s.cast_ray(&from_below, 10.0).unwrap();
        assert_eq!((hit.t, hit.normal), (1.0, -Vec2::Y));
        assert!(s.cast_ray(&from_below, 0.5).is_none());
        let inside = Ray::new(Vec2::new(0.5, 0.5), Vec2::X).unwrap();
        assert_eq!(s.cast_ray(&inside, 1.0).unwrap().t, 0.0);
        // Parallel to the start edge, below it: misses.
        let parallel = Ray::new(Vec2::new(-1.0, -0.5), Vec2::X).unwrap();
        assert!(s.cast_ray(&parallel, 100.0).is_none());
        let nan = Ray {
            origin: Vec2::NAN,
            dir: Vec2::X,
        };
        assert!(s.cast_ray(&nan, 1.0).is_none());
        assert!(s.cast_ray(&from_far, f32::NAN).is_none());
    }

    // A reflex sector is hit on its end edge from inside the missing quarter.
    #[test]
    fn reflex_sector_ray_hits_edge() {
        let s = Sector::<f64>::new(DVec2::ZERO, 1.0, 0.0, 1.5 * core::f64::consts::PI).unwrap();
        let ray = Ray::new(DVec2::new(0.5, -0.25), DVec2::new(-1.0, 0.0)).unwrap();
        let hit = s.cast_ray(&ray, 10.0).unwrap();
        assert!((hit.t - 0.5).abs() < 1e-12);
        assert!((hit.normal - DVec2::X).length() < 1e-12);
    }
}
