//! Ray clipping against a convex region given as half-spaces `n · p ≤ d`
//! (Cyrus & Beck 1978; Ericson, *Real-Time Collision Detection*, 5.3.8). Serves every
//! convex shape stored as faces or edges: polygons, polyhedra.
//!
//! No tolerances: the boundary belongs to the region as its computed signed
//! distances say.

use crate::math::{Real, Vector};
use crate::shape::{Ray, RayHit};

/// First hit of `ray` (for `t ∈ [0, max_t]`) on the solid region `∩ {p : n · p ≤ d}`
/// of the `(n, d)` pairs, with `n` the outward unit normal of each half-space.
///
/// An origin inside hits at `t = 0` with a zero normal; an origin on a face moving
/// inward hits at `0` with that face's normal; a ray parallel to a face misses when it
/// starts in front of it. NaN or infinite rays and a NaN or negative `max_t` miss.
pub fn cast_ray_half_spaces<V: Vector>(
    half_spaces: impl IntoIterator<Item = (V, V::Scalar)>,
    ray: &Ray<V>,
    max_t: V::Scalar,
) -> Option<RayHit<V>> {
    if !ray.is_finite() || max_t.is_nan() || max_t < V::Scalar::ZERO {
        return None;
    }
    let (mut t_enter, mut t_exit) = (V::Scalar::ZERO, max_t);
    let mut normal = V::ZERO;
    for (n, d) in half_spaces {
        let room = d - n.dot(ray.origin); // ≥ 0 when the origin is behind the face
        let rate = n.dot(ray.dir);
        if rate < V::Scalar::ZERO {
            let t = room / rate;
            if t >= t_enter {
                t_enter = t;
                normal = n;
            }
        } else if rate > V::Scalar::ZERO {
            t_exit = t_exit.min(room / rate);
        } else if room < V::Scalar::ZERO {
            return None;
        }
        if t_enter > t_exit {
            return None;
        }
    }
    Some(RayHit {
        t: t_enter,
        point: ray.point_at(t_enter),
        normal,
    })
}
