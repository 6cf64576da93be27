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
///
/// ```
/// use isect::d2::*;
/// use isect::query::composite::transformed_aabb;
///
/// # fn main() -> Result<(), ShapeError> {
/// // The unit square turned a quarter turn about the origin covers [-1, 0] × [0, 1].
/// let square = Aabb::new(Vec2::ZERO, Vec2::ONE)?;
/// let b = transformed_aabb(&square, &Pose::new(Vec2::ZERO, std::f32::consts::FRAC_PI_2));
/// assert!((b.min - Vec2::new(-1.0, 0.0)).length() < 1e-6);
/// assert!((b.max - Vec2::new(0.0, 1.0)).length() < 1e-6);
/// # Ok(())
/// # }
/// ```
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
///
/// ```
/// use isect::d2::*;
/// use isect::query::composite::world_aabb;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A step: floor at y = 0 for x < 0, at y = 1 for x > 0; placed 5 higher.
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// let b = world_aabb(&step, &Pose::from_translation(Vec2::new(0.0, 5.0)));
/// assert!((b.min - Vec2::new(-4.0, 5.0)).length() < 1e-4);
/// assert!((b.max - Vec2::new(4.0, 6.0)).length() < 1e-4);
/// # Ok(())
/// # }
/// ```
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
///
/// ```
/// use isect::d2::*;
/// use isect::query::composite::contains_point;
///
/// # fn main() -> Result<(), ShapeError> {
/// // An L: the 2 × 2 square less its top-right quarter, placed at (10, 0).
/// let l = ConcavePolygon::new(vec![Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(2.0, 1.0),
///     Vec2::ONE, Vec2::new(1.0, 2.0), Vec2::new(0.0, 2.0)], vec![])?;
/// let pose = Pose::from_translation(Vec2::new(10.0, 0.0));
/// assert!(contains_point(&l, &pose, Vec2::new(10.5, 1.5)));
/// assert!(!contains_point(&l, &pose, Vec2::new(11.5, 1.5))); // the notch
/// # Ok(())
/// # }
/// ```
pub fn contains_point<V: GjkVector, C: Composite<V>>(c: &C, pose: &V::Pose, p: V) -> bool {
    pose.is_finite() && !p.is_nan() && c.contains_local_point(pose.inverse_transform_point(p))
}

/// True when some part of the composite at `pose` touches or overlaps the world
/// box `region`; `false` for a box with NaN or a non-finite pose.
///
/// ```
/// use isect::d2::*;
/// use isect::query::composite::intersects_aabb;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A V-shaped valley: its bounding box holds the box above the bottom, its segments
/// // do not.
/// let valley = Polyline::new(vec![Vec2::new(-2.0, 2.0), Vec2::ZERO, Vec2::new(2.0, 2.0)], false)?;
/// let above_bottom = Aabb::new(Vec2::new(-0.2, 0.5), Vec2::new(0.2, 1.0))?;
/// let on_the_slope = Aabb::new(Vec2::new(0.8, 0.5), Vec2::new(1.2, 1.0))?;
/// assert!(!intersects_aabb(&valley, &Pose::IDENTITY, &above_bottom));
/// assert!(intersects_aabb(&valley, &Pose::IDENTITY, &on_the_slope));
/// # Ok(())
/// # }
/// ```
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
///
/// ```
/// use isect::d2::*;
/// use isect::query::composite;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A step: segment 0 the floor y = 0 (x < 0), segment 1 the riser, segment 2 the
/// // upper floor y = 1 (x > 0). A ray falling at x = 2 from y = 5 hits segment 2 at t = 4.
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// let ray = Ray::new(Vec2::new(2.0, 5.0), -Vec2::Y)?;
/// let (part, hit) = composite::cast_ray(&step, &ray, 10.0).expect("it lands on the step");
/// assert_eq!(part, 2);
/// assert!((hit.t - 4.0).abs() < 1e-6);
/// # Ok(())
/// # }
/// ```
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

/// Rounding allowed, in machine epsilons of the hit's scale (its coordinates and
/// `t`), between a composite's ray hit and the part it lies on
/// ([`part_hit_at`]).
pub const PART_HIT_ULPS: f64 = 4096.0;

/// The part of `c` on which a hit of `ray` (local frame) at `t` lies — the hit of
/// any of the composite's ray casts: its solid one (`solid`) or its boundary one.
/// The parts whose boxes hold the hit point are cast again, and the one hit nearest
/// to `t` (within [`PART_HIT_ULPS`]) is the answer; ties go to the smaller index.
/// `None` when no part is hit there: a ray starting inside a solid mesh, whose
/// volume no part fills, or a `t` that is no hit of `ray`.
///
/// ```
/// use isect::d2::*;
/// use isect::query::composite;
///
/// # fn main() -> Result<(), ShapeError> {
/// // The step's upper floor (segment 2) is where a ray falling at x = 2 lands.
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// let ray = Ray::new(Vec2::new(2.0, 5.0), -Vec2::Y)?;
/// let hit = step.cast_ray(&ray, 10.0).expect("it lands");
/// assert_eq!(composite::part_hit_at(&step, &ray, hit.t, true), Some(2));
/// assert_eq!(composite::part_hit_at(&step, &ray, 2.0, true), None); // no hit at t = 2
/// # Ok(())
/// # }
/// ```
pub fn part_hit_at<V, C>(c: &C, ray: &Ray<V>, t: V::Scalar, solid: bool) -> Option<u32>
where
    V: GjkVector,
    C: Composite<V>,
{
    let p = ray.point_at(t);
    let slack = part_hit_slack(ray, t);
    let region = Aabb {
        min: p - V::splat(slack),
        max: p + V::splat(slack),
    };
    let mut best: Option<(V::Scalar, u32)> = None;
    c.for_each_part_in(&region, |i| {
        let hit = c.with_part(i, |pp, part| part.cast_ray_solid(pp, ray, t + slack, solid));
        if let Some(off) = hit.map(|h| (h.t - t).abs()).filter(|&off| off <= slack) {
            if best.is_none_or(|(o, j)| off < o || off == o && i < j) {
                best = Some((off, i));
            }
        }
        true
    });
    best.map(|(_, i)| i)
}

/// How far (in `t`) a part's hit may lie from a composite's hit at `t` of `ray` and
/// still be its part: [`PART_HIT_ULPS`] of the hit's scale (its coordinates and `t`).
pub(crate) fn part_hit_slack<V: Vector>(ray: &Ray<V>, t: V::Scalar) -> V::Scalar {
    let scale = ray
        .point_at(t)
        .abs()
        .max_element()
        .max(ray.origin.abs().max_element())
        .max(t.abs());
    crate::math::tolerance::eps::<V::Scalar>(PART_HIT_ULPS) * scale.max(V::Scalar::ONE)
}

/// The part a composite's own closest-hit cast names for its hit at `t` of `ray`:
/// `cast(max_t)` gives `(part, t)` of the closest hit within `max_t`, taken when it
/// lies within [`part_hit_slack`] of `t` (for composites whose hit and normal come from
/// one walk, so that the part is the triangle the normal comes from).
pub(crate) fn part_of_own_hit<V: Vector>(
    ray: &Ray<V>,
    t: V::Scalar,
    cast: impl FnOnce(V::Scalar) -> Option<(u32, V::Scalar)>,
) -> Option<u32> {
    let slack = part_hit_slack(ray, t);
    let (i, hit_t) = cast(t + slack)?;
    ((hit_t - t).abs() <= slack).then_some(i)
}

/// Every part's first hit of `ray` (local frame) within `max_t`, sorted by `t`, then
/// part index. Misses as [`cast_ray`].
///
/// ```
/// use isect::d2::*;
/// use isect::query::composite;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A horizontal ray at y = 0.5 through a step crosses only its riser (segment 1)
/// // at x = 0; through a closed square outline it crosses two sides.
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// let ray = Ray::new(Vec2::new(-3.0, 0.5), Vec2::X)?;
/// let hits = composite::cast_ray_all(&step, &ray, 10.0);
/// assert_eq!(hits.len(), 1);
/// assert_eq!(hits[0].0, 1);
/// assert!((hits[0].1.t - 3.0).abs() < 1e-6);
/// let outline = Polyline::new(vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y], true)?;
/// let through = Ray::new(Vec2::new(-1.0, 0.5), Vec2::X)?;
/// let ts: Vec<f32> = composite::cast_ray_all(&outline, &through, 10.0).iter().map(|h| h.1.t).collect();
/// assert_eq!(ts, [1.0, 2.0]);
/// # Ok(())
/// # }
/// ```
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
///
/// ```
/// use isect::d2::*;
/// use isect::query::composite::project_local_point;
///
/// # fn main() -> Result<(), ShapeError> {
/// // The point (2, 3) above a step projects straight down onto its upper floor.
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// let proj = project_local_point(&step, Vec2::new(2.0, 3.0), true);
/// assert!((proj.point - Vec2::new(2.0, 1.0)).length() < 1e-6);
/// assert!(!proj.is_inside);
/// # Ok(())
/// # }
/// ```
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
