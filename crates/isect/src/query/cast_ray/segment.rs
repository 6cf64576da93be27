//! Ray against a 2D segment (Ericson 5.1.9.1, the 2D segment–segment test, with the
//! ray's `t ∈ [0, max_t]` in place of the first segment's `[0, 1]`). With `d` the ray
//! direction, `e = b − a` and `w = a − origin`, the lines meet where
//! `t = (w × e) / (d × e)` and the segment parameter is `s = (w × d) / (d × e)`.
//! Parallel lines (`d × e = 0` exactly) miss unless collinear; collinear overlap is
//! found by projecting `a` and `b` on the ray.
//!
//! No tolerances: the tests are exact sign and range tests, so end points count.

use super::{face_the_ray, facing_dir, is_valid_query, RayCast};
use crate::math::{Real, Vector2};
use crate::shape::{Ray, RayHit, Segment};

impl<V: Vector2> RayCast<V> for Segment<V> {
    /// The first point of the closed segment on the ray.
    ///
    /// Edge behaviour: end points hit; a ray collinear with the segment hits its
    /// nearest point in `[0, max_t]` (`t = 0` when the origin is on it) with the normal
    /// `−dir / |dir|` (it meets the segment end-on); a parallel, non-collinear ray and a
    /// zero direction miss; otherwise the normal is the segment's unit perpendicular,
    /// facing the ray. A zero-length segment is a point. NaN or infinite rays and NaN
    /// or negative `max_t` miss.
    #[inline]
    fn cast_ray(&self, ray: &Ray<V>, max_t: V::Scalar) -> Option<RayHit<V>> {
        if !is_valid_query(ray, max_t) {
            return None;
        }
        let e = self.direction();
        let w = self.a - ray.origin;
        let denom = ray.dir.perp_dot(e);
        let (t, normal) = if denom != V::Scalar::ZERO {
            let t = crossing_t(w, e, ray.dir, denom)?;
            let normal = e
                .perp()
                .try_normalize()
                .map_or_else(|| facing_dir(ray.dir), |n| face_the_ray(n, ray.dir));
            (t, normal)
        } else {
            (collinear_t(self, ray, w)?, facing_dir(ray.dir))
        };
        (t <= max_t).then(|| RayHit {
            t,
            point: ray.point_at(t),
            normal,
        })
    }
}

/// `t` where crossing lines meet, when that is on the segment and ahead of the origin.
#[inline]
fn crossing_t<V: Vector2>(w: V, e: V, d: V, denom: V::Scalar) -> Option<V::Scalar> {
    let t = w.perp_dot(e) / denom;
    let s = w.perp_dot(d) / denom;
    let on_segment = s >= V::Scalar::ZERO && s <= V::Scalar::ONE;
    (on_segment && t >= V::Scalar::ZERO && t.is_finite()).then_some(t)
}

/// The first `t ≥ 0` of the segment's projection on a ray along the same line, or
/// `None` when the lines differ, the direction is zero or the segment is behind.
#[inline]
fn collinear_t<V: Vector2>(seg: &Segment<V>, ray: &Ray<V>, w: V) -> Option<V::Scalar> {
    let dd = ray.dir.length_squared();
    if w.perp_dot(ray.dir) != V::Scalar::ZERO || dd <= V::Scalar::ZERO {
        return None;
    }
    let ta = w.dot(ray.dir) / dd;
    let tb = (seg.b - ray.origin).dot(ray.dir) / dd;
    let t = ta.min(tb).max(V::Scalar::ZERO);
    (t <= ta.max(tb)).then_some(t)
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{close, close_v, s};
    use super::*;
    use crate::math::Vector;
    use glam::{DVec2, Vec2};

    fn v2<V: Vector2>(x: f64, y: f64) -> V {
        V::new(s::<V>(x), s::<V>(y))
    }

    fn ray<V: Vector>(o: V, d: V) -> Ray<V> {
        Ray::new(o, d).unwrap()
    }

    fn check_scale<V: Vector2>(k: f64) {
        let inf = V::Scalar::INFINITY;
        // The vertical segment x = k, y ∈ [−k, k].
        let seg = Segment::new(v2::<V>(k, -k), v2(k, k)).unwrap();
        let r = ray(v2::<V>(-k, 0.0), v2(k, 0.0));
        let hit = seg.cast_ray(&r, inf).unwrap();
        assert!(close(hit.t, s::<V>(2.0), 1e-6));
        assert!(close_v(hit.normal, v2(-1.0, 0.0), 1e-6));
        // Through an end point: hits; just past it: misses.
        assert!(seg
            .cast_ray(&ray(v2::<V>(-k, k), v2(1.0, 0.0)), inf)
            .is_some());
        assert!(seg
            .cast_ray(&ray(v2::<V>(-k, 1.001 * k), v2(1.0, 0.0)), inf)
            .is_none());
        // Parallel, off the line: miss. Collinear from below: hits the near end.
        assert!(seg
            .cast_ray(&ray(v2::<V>(0.0, -3.0 * k), v2(0.0, 1.0)), inf)
            .is_none());
        let along = ray(v2::<V>(k, -3.0 * k), v2(0.0, 1.0));
        let hit = seg.cast_ray(&along, inf).unwrap();
        assert!(close(hit.t, s::<V>(2.0 * k), 1e-6));
        assert_eq!(hit.normal, v2(0.0, -1.0));
        // Collinear, origin on the segment: t = 0. Collinear, segment behind: miss.
        assert_eq!(
            seg.cast_ray(&ray(v2::<V>(k, 0.0), v2(0.0, 1.0)), inf)
                .unwrap()
                .t,
            s::<V>(0.0)
        );
        assert!(seg
            .cast_ray(&ray(v2::<V>(k, 3.0 * k), v2(0.0, 1.0)), inf)
            .is_none());
        // Beyond max_t and pointing away: misses.
        assert!(seg.cast_ray(&r, s::<V>(1.99)).is_none());
        assert!(seg.cast_ray(&ray(r.origin, -r.dir), inf).is_none());
    }

    // Both 2D types at scales 1e-5, 1, 1e6.
    #[test]
    fn edges_every_type_and_scale() {
        for k in [1e-5, 1.0, 1e6] {
            check_scale::<Vec2>(k);
            check_scale::<DVec2>(k);
        }
    }

    // Zero direction, point segment, NaN: documented answers.
    #[test]
    fn degenerate_inputs() {
        let seg = Segment::new(Vec2::ZERO, Vec2::X).unwrap();
        assert!(seg
            .cast_ray(&ray(Vec2::new(0.5, 0.0), Vec2::ZERO), 1.0)
            .is_none());
        let point = Segment::new(Vec2::ONE, Vec2::ONE).unwrap();
        let hit = point.cast_ray(&ray(Vec2::ZERO, Vec2::ONE), 2.0).unwrap();
        assert_eq!((hit.t, hit.normal), (1.0, -Vec2::ONE.normalize()));
        let nan = Ray {
            origin: Vec2::ZERO,
            dir: Vec2::new(0.0, f32::NAN),
        };
        assert!(seg.cast_ray(&nan, 1.0).is_none());
        assert!(seg
            .cast_ray(&ray(Vec2::new(0.5, 1.0), -Vec2::Y), f32::NAN)
            .is_none());
    }
}
