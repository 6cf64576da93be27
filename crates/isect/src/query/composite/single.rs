//! Single-shape queries of any composite, in its local frame unless posed: ray
//! casts through the tree (near first, clipping the ray at the best hit), point
//! projection by the nearest-part search, bounding boxes.

// `!(x >= y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::*;
use crate::query::project_point::PointProjection;
use crate::query::RayCast;
use crate::shape::{Composite, Ray, RayHit};

/// The box holding `aabb` after the rigid motion `pose`: its transformed corners'
/// bounds (exact without rotation, loose with it). Non-finite for a non-finite pose.
pub fn transformed_aabb<V: Vector>(aabb: &Aabb<V>, pose: &V::Pose) -> Aabb<V> {
    let centre = pose.transform_point(aabb.center());
    let half = aabb.half_extents();
    // |R| · h: the half extents of the rotated box along the world axes.
    let mut reach = V::ZERO;
    for k in 0..V::DIM {
        let axis = pose.transform_vector(V::unit_axis(k)).abs();
        reach += axis * half.get(k);
    }
    Aabb {
        min: centre - reach,
        max: centre + reach,
    }
}

/// The world box of a composite placed at `pose`: its tree's root box transformed
/// ([`transformed_aabb`]). An empty tree gives an inverted (empty) box at the pose.
pub fn world_aabb<V: GjkVector, C: Composite<V>>(c: &C, pose: &V::Pose) -> Aabb<V> {
    match c.bvh().root_aabb() {
        Some(root) => transformed_aabb(&root, pose),
        None => {
            let at = pose.translation();
            let inf = V::splat(V::Scalar::INFINITY);
            Aabb {
                min: at + inf,
                max: at - inf,
            }
        }
    }
}

/// True when the composite at `pose` contains the world point `p`
/// ([`Composite::contains_local_point`]); `false` for NaN or a non-finite pose.
pub fn contains_point<V: GjkVector, C: Composite<V>>(c: &C, pose: &V::Pose, p: V) -> bool {
    pose.is_finite() && !p.is_nan() && c.contains_local_point(pose.inverse_transform_point(p))
}

/// True when some part of the composite at `pose` touches or overlaps the world
/// box `region`; `false` for a box with NaN or a non-finite pose.
pub fn intersects_aabb<V, C>(c: &C, pose: &V::Pose, region: &Aabb<V>) -> bool
where
    V: GjkVector,
    C: Composite<V>,
{
    if !pose.is_finite() || region.min.is_nan() || region.max.is_nan() {
        return false;
    }
    let local = transformed_aabb(region, &pose.inverse());
    let mut hit = false;
    c.bvh().overlapping(&local, |i| {
        hit = c.with_part(i, |pp, part| part.intersects_aabb(&pose.mul(pp), region));
        !hit
    });
    hit
}

/// The first hit of `ray` (local frame) over the parts, with the part's index; the
/// tree is walked near first and the ray clipped at the best hit. Conventions of
/// [`RayCast`](crate::query::RayCast): a ray starting inside a solid part hits at
/// `t = 0` with a zero normal; a non-finite ray or a NaN or negative `max_t` misses.
/// Ties in `t` go to the part the tree reaches first.
pub fn cast_ray<V, C>(c: &C, ray: &Ray<V>, max_t: V::Scalar) -> Option<(u32, RayHit<V>)>
where
    V: GjkVector,
    C: Composite<V>,
{
    let mut best: Option<(u32, RayHit<V>)> = None;
    c.bvh().cast_ray(ray, max_t, |i, best_t| {
        let hit = c.with_part(i, |pp, part| part.cast_ray_posed(pp, ray, best_t))?;
        if best.is_none_or(|(_, b)| hit.t < b.t) {
            best = Some((i, hit));
        }
        Some(hit.t)
    });
    best
}

/// Every part's first hit of `ray` (local frame) within `max_t`, sorted by `t`, then
/// part index. Misses as [`cast_ray`].
pub fn cast_ray_all<V, C>(c: &C, ray: &Ray<V>, max_t: V::Scalar) -> Vec<(u32, RayHit<V>)>
where
    V: GjkVector,
    C: Composite<V>,
{
    let mut hits = Vec::new();
    c.bvh().cast_ray_all(ray, max_t, |i, _| {
        if let Some(hit) = c.with_part(i, |pp, part| part.cast_ray_posed(pp, ray, max_t)) {
            hits.push((i, hit));
        }
        true
    });
    hits.sort_unstable_by(|x, y| {
        (x.1.t, x.0)
            .partial_cmp(&(y.1.t, y.0))
            .unwrap_or(core::cmp::Ordering::Equal)
    });
    hits
}

/// The point of the composite nearest to `p` (local frame), following
/// [`ProjectPoint`]'s conventions: with `solid`, a point inside
/// ([`Composite::contains_local_point`]) projects onto itself; otherwise onto the
/// nearest part's surface — for overlapping parts this point may lie inside another
/// part (the boundary of the union is not searched, as in parry). `is_inside` is
/// true inside the composite or on a part. A NaN point gives
/// [`PointProjection::nan`].
pub fn project_local_point<V, C>(c: &C, p: V, solid: bool) -> PointProjection<V>
where
    V: GjkVector,
    C: Composite<V>,
    C::Part: ConvexPart<V>,
{
    if p.is_nan() {
        return PointProjection::nan();
    }
    let inside = c.contains_local_point(p);
    if inside && solid {
        return PointProjection {
            point: p,
            is_inside: true,
        };
    }
    let here = Aabb { min: p, max: p };
    let best = nearest_part(c, &here, V::Scalar::INFINITY, |i, _| {
        let q = c.with_part(i, |pp, part| part.project_point(pp, p, false).point);
        Some((q.distance(p), q))
    });
    match best {
        Some((d, point)) => PointProjection {
            point,
            is_inside: inside || d == V::Scalar::ZERO,
        },
        None => PointProjection::nan(),
    }
}
