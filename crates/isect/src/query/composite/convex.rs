//! A composite (A) against a convex shape of its part type (B).

// `!(x >= y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::*;
use crate::algo::gjk::Status;
use crate::query::distance::ClosestPoints;
use crate::shape::{Composite, Ray};

/// B's box in A's frame, grown by `margin`; `None` for non-finite poses.
pub(super) fn region_of<V: GjkVector, S: DispatchShape<V>>(
    pose_a: &V::Pose,
    pose_b: &V::Pose,
    b: &S,
    margin: V::Scalar,
) -> Option<Aabb<V>> {
    if !(pose_a.is_finite() && pose_b.is_finite()) || margin.is_nan() {
        return None;
    }
    Some(b.world_aabb(&pose_a.inv_mul(pose_b)).loosened(margin))
}

/// True when some part of `a` touches or overlaps `b`; `false` for non-finite poses.
///
/// ```
/// use isect::d2::*;
/// use isect::query::composite;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A ball of radius 0.5 above the bottom of a V-shaped valley with 45° slopes:
/// // it reaches the slopes only when its centre is at most 0.5·√2 ≈ 0.71 above it.
/// let valley = Polyline::new(vec![Vec2::new(-2.0, 2.0), Vec2::ZERO, Vec2::new(2.0, 2.0)], false)?;
/// let ball = Shape::Ball(Ball::new(Vec2::ZERO, 0.5)?);
/// let high = Pose::from_translation(Vec2::new(0.0, 0.75));
/// let low = Pose::from_translation(Vec2::new(0.0, 0.65));
/// assert!(!composite::intersects(&Pose::IDENTITY, &valley, &high, &ball));
/// assert!(composite::intersects(&Pose::IDENTITY, &valley, &low, &ball));
/// # Ok(())
/// # }
/// ```
pub fn intersects<V, C>(pose_a: &V::Pose, a: &C, pose_b: &V::Pose, b: &C::Part) -> bool
where
    V: GjkVector,
    C: Composite<V>,
    C::Part: ConvexPart<V>,
{
    let Some(region) = region_of(pose_a, pose_b, b, V::Scalar::ZERO) else {
        return false;
    };
    let mut hit = false;
    a.for_each_part_in(&region, |i| {
        hit = a.with_part(i, |pp, part| {
            C::Part::intersects_pair(&pose_a.mul(pp), part, pose_b, b)
        });
        !hit
    });
    // Wholly inside a solid mesh, `b` meets none of its surface parts.
    hit || solid_contact(pose_a, a, pose_b, b).is_some()
}

/// The deepest contact over the parts of `a` within `prediction` of `b`, with the
/// part's index, after [`Composite::correct_normal_at`] (see the module docs).
/// `None` when no part is that close, for non-finite poses or a NaN `prediction`.
/// Among equally deep contacts, the part visited first wins.
///
/// A solid mesh whose inside holds `b`'s inner point answers the contact that pushes
/// `b` out through the nearest surface (`solid_contact`), whatever the parts say:
/// a triangle's own contact there would push `b` deeper into the solid.
///
/// The deepest uncorrected part contact wins, and only its normal is corrected and its depth re-measured,
/// which never lowers it (a re-measured depth is at least the part's own), so the
/// answer is at least as deep as every part's.
///
/// ```
/// use isect::d2::*;
/// use isect::query::composite;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A unit ball 0.25 into the upper floor of a step (segment 2).
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// let ball = Shape::Ball(Ball::new(Vec2::ZERO, 1.0)?);
/// let at = Pose::from_translation(Vec2::new(2.0, 1.75));
/// let (part, c) = composite::contact(&Pose::IDENTITY, &step, &at, &ball, 0.0).expect("overlap");
/// assert_eq!(part, 2);
/// assert!((c.depth - 0.25).abs() < 1e-5);
/// assert!((c.normal - Vec2::Y).length() < 1e-5); // from the step up to the ball
/// # Ok(())
/// # }
/// ```
pub fn contact<V, C>(
    pose_a: &V::Pose,
    a: &C,
    pose_b: &V::Pose,
    b: &C::Part,
    prediction: V::Scalar,
) -> Option<(u32, Contact<V>)>
where
    V: GjkVector,
    C: Composite<V>,
    C::Part: ConvexPart<V>,
{
    if !(pose_a.is_finite() && pose_b.is_finite()) || prediction.is_nan() {
        return None;
    }
    if let Some(inside) = solid_contact(pose_a, a, pose_b, b) {
        return Some(inside);
    }
    let region = region_of(pose_a, pose_b, b, prediction.max(V::Scalar::ZERO))?;
    let mut best: Option<(u32, Contact<V>)> = None;
    a.for_each_part_in(&region, |i| {
        let c = a.with_part(i, |pp, part| {
            C::Part::contact_pair(&pose_a.mul(pp), part, pose_b, b, prediction)
        });
        if let Some(c) = c {
            if deeper::<V>(c.depth, best.map(|(_, b)| b.depth)) {
                best = Some((i, c));
            }
        }
        true
    });
    let (i, c) = best?;
    let c = a.with_part(i, |pp, part| {
        let placed = (&pose_a.mul(pp), part);
        let correct = |n| corrected_normal(a, i, pose_a, n, c.point_a);
        corrected_contact(&c, correct, a.two_sided(), placed, (pose_b, b))
    });
    Some(pushed_into_solid(pose_a, a, pose_b, b, c.normal).unwrap_or((i, c)))
}

/// The push-out contact of [`solid_contact_from`] when a contact normal `n` would push
/// `b` further into the solid `a`: `b`'s farthest point along `n` lies inside `a`. A
/// shape more than half through a face of a solid, whose middle is still outside
/// (a cone tip down), gets from its part pair a normal through the face, which the
/// correction keeps on that side; the solid's surface nearest that point says which
/// way is out. `None` for composites that are not solids or a point outside.
fn pushed_into_solid<V, C>(
    pose_a: &V::Pose,
    a: &C,
    pose_b: &V::Pose,
    b: &C::Part,
    n: V,
) -> Option<(u32, Contact<V>)>
where
    V: GjkVector,
    C: Composite<V>,
    C::Part: ConvexPart<V>,
{
    if a.two_sided() {
        return None;
    }
    solid_contact_from(pose_a, a, pose_b, b, b.support(pose_b, n))
}

/// One manifold per part of `a` within `prediction` of `b` (the convex dispatch's
/// [`DispatchShape::contact_manifold_pair`]: SAT and clipping for box / polygon /
/// polyhedron pairs, one point otherwise), normals corrected as [`contact`]'s;
/// sorted by part index. Empty for non-finite poses or a NaN `prediction`. Inside a
/// solid mesh, the one point of [`contact`]'s push-out contact.
///
/// ```
/// use isect::d2::*;
/// use isect::query::composite;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A ball in the corner of a step, 0.1 into both the lower floor and the riser:
/// // one manifold a segment, normals up and left.
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// let ball = Shape::Ball(Ball::new(Vec2::ZERO, 0.5)?);
/// let at = Pose::from_translation(Vec2::new(-0.4, 0.4));
/// let ms = composite::contact_manifolds(&Pose::IDENTITY, &step, &at, &ball, 0.0);
/// let parts: Vec<Option<u32>> = ms.iter().map(|m| m.part_a).collect();
/// assert_eq!(parts, [Some(0), Some(1)]);
/// assert!((ms[0].manifold.normal - Vec2::Y).length() < 1e-5);
/// assert!((ms[1].manifold.normal + Vec2::X).length() < 1e-5);
/// # Ok(())
/// # }
/// ```
pub fn contact_manifolds<V, C>(
    pose_a: &V::Pose,
    a: &C,
    pose_b: &V::Pose,
    b: &C::Part,
    prediction: V::Scalar,
) -> Vec<PartManifold<V>>
where
    V: GjkVector,
    C: Composite<V>,
    C::Part: ConvexPart<V>,
{
    let mut out = Vec::new();
    let Some(region) = region_of(pose_a, pose_b, b, prediction.max(V::Scalar::ZERO)) else {
        return out;
    };
    if let Some((i, c)) = solid_contact(pose_a, a, pose_b, b) {
        let manifold = Manifold::single(&c, crate::query::manifold::FeatureId::SINGLE);
        out.push(PartManifold::new(Some(i), None, manifold));
        return out;
    }
    a.for_each_part_in(&region, |i| {
        let m = a.with_part(i, |pp, part| {
            let placed = (&pose_a.mul(pp), part);
            let m = C::Part::contact_manifold_pair(placed.0, part, pose_b, b, prediction)?;
            let (at, _) = deepest_witnesses(&m);
            let correct = |n| corrected_normal(a, i, pose_a, n, at);
            let two_sided = a.two_sided();
            Some(corrected_manifold(
                &m,
                correct,
                two_sided,
                placed,
                (pose_b, b),
                prediction,
            ))
        });
        if let Some(m) = m {
            out.push(PartManifold::new(Some(i), None, m));
        }
        true
    });
    let inward = out
        .iter()
        .find_map(|m| pushed_into_solid(pose_a, a, pose_b, b, m.manifold.normal));
    if let Some((i, c)) = inward {
        let manifold = Manifold::single(&c, crate::query::manifold::FeatureId::SINGLE);
        return vec![PartManifold::new(Some(i), None, manifold)];
    }
    out.sort_unstable_by_key(|m| m.part_a);
    out
}

/// Distance from the nearest part of `a` to `b` (0 when touching or overlapping);
/// NaN for non-finite poses.
///
/// ```
/// use isect::d2::*;
/// use isect::query::composite;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A unit ball centred at (-3.5, 4): 3 above the lower floor of a step, 3.6 from
/// // the step's top corner (0, 1).
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// let ball = Shape::Ball(Ball::new(Vec2::ZERO, 1.0)?);
/// let at = Pose::from_translation(Vec2::new(-3.5, 4.0));
/// assert!((composite::distance(&Pose::IDENTITY, &step, &at, &ball) - 3.0).abs() < 1e-5);
/// # Ok(())
/// # }
/// ```
pub fn distance<V, C>(pose_a: &V::Pose, a: &C, pose_b: &V::Pose, b: &C::Part) -> V::Scalar
where
    V: GjkVector,
    C: Composite<V>,
    C::Part: ConvexPart<V>,
{
    distance_below(pose_a, a, pose_b, b, V::Scalar::INFINITY)
        .unwrap_or(V::Scalar::from_f64(f64::NAN))
}

/// [`distance`] when below `upper` (`None` otherwise or for NaN input).
pub(super) fn distance_below<V, C>(
    pose_a: &V::Pose,
    a: &C,
    pose_b: &V::Pose,
    b: &C::Part,
    upper: V::Scalar,
) -> Option<V::Scalar>
where
    V: GjkVector,
    C: Composite<V>,
    C::Part: ConvexPart<V>,
{
    let region = region_of(pose_a, pose_b, b, V::Scalar::ZERO)?;
    if solid_contact(pose_a, a, pose_b, b).is_some() {
        return Some(V::Scalar::ZERO);
    }
    let best = nearest_part(a, &region, upper, |i, _| {
        let d = a.with_part(i, |pp, part| {
            C::Part::distance_pair(&pose_a.mul(pp), part, pose_b, b)
        });
        Some((d, ()))
    });
    best.map(|(d, ())| d)
}

/// Closest points of the nearest part of `a` and `b` (a common point when they
/// touch or overlap); NaN distance with `Status::Degenerate` for non-finite poses.
///
/// ```
/// use isect::d2::*;
/// use isect::query::composite;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A small ball 0.25 above the lower floor of a step, 1.75 from its riser.
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// let ball = Shape::Ball(Ball::new(Vec2::ZERO, 0.25)?);
/// let at = Pose::from_translation(Vec2::new(-2.0, 0.5));
/// let cp = composite::closest_points(&Pose::IDENTITY, &step, &at, &ball);
/// assert!((cp.distance - 0.25).abs() < 1e-5); // the floor is 0.25 below the ball
/// assert!((cp.point_a - Vec2::new(-2.0, 0.0)).length() < 1e-5);
/// # Ok(())
/// # }
/// ```
pub fn closest_points<V, C>(
    pose_a: &V::Pose,
    a: &C,
    pose_b: &V::Pose,
    b: &C::Part,
) -> ClosestPoints<V>
where
    V: GjkVector,
    C: Composite<V>,
    C::Part: ConvexPart<V>,
{
    closest_below(pose_a, a, pose_b, b, V::Scalar::INFINITY).unwrap_or_else(nan_points)
}

/// [`closest_points`] when closer than `upper`.
pub(super) fn closest_below<V, C>(
    pose_a: &V::Pose,
    a: &C,
    pose_b: &V::Pose,
    b: &C::Part,
    upper: V::Scalar,
) -> Option<ClosestPoints<V>>
where
    V: GjkVector,
    C: Composite<V>,
    C::Part: ConvexPart<V>,
{
    let region = region_of(pose_a, pose_b, b, V::Scalar::ZERO)?;
    if let Some((_, c)) = solid_contact(pose_a, a, pose_b, b) {
        return Some(ClosestPoints::closed_form(
            V::Scalar::ZERO,
            c.point_b,
            c.point_b,
        ));
    }
    let best = nearest_part(a, &region, upper, |i, _| {
        let cp = a.with_part(i, |pp, part| {
            C::Part::closest_points_pair(&pose_a.mul(pp), part, pose_b, b)
        });
        Some((cp.distance, cp))
    });
    best.map(|(_, cp)| cp)
}

/// The answer of the closest-point queries for NaN input.
pub(super) fn nan_points<V: Vector>() -> ClosestPoints<V> {
    let nan = V::splat(V::Scalar::from_f64(f64::NAN));
    ClosestPoints {
        distance: V::Scalar::from_f64(f64::NAN),
        point_a: nan,
        point_b: nan,
        status: Status::Degenerate,
        iterations: 0,
    }
}

/// The earliest time in `[0, max_t]` at which a part of `a` (moving at `vel_a`)
/// touches `b` (moving at `vel_b`), as [`crate::query::cast_shapes()`]; parts
/// already touching at time 0 answer time 0, the deepest of them winning. `None`
/// for no hit, NaN input or a negative `max_t`.
///
/// ```
/// use isect::d2::*;
/// use isect::query::composite;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A ball of radius 0.5 moving right at speed 2 just above the lower floor of a
/// // step, from x = -3: its front meets the riser (x = 0) at t = 1.25.
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// let ball = Shape::Ball(Ball::new(Vec2::ZERO, 0.5)?);
/// let start = Pose::from_translation(Vec2::new(-3.0, 0.6)); // 0.1 clear of the floor
/// let hit = composite::cast_shapes(&Pose::IDENTITY, Vec2::ZERO, &step,
///     &start, Vec2::new(2.0, 0.0), &ball, 10.0).expect("it meets the riser");
/// assert!((hit.time - 1.25).abs() < 1e-4);
/// assert!((hit.normal + Vec2::X).length() < 1e-4); // from the riser back to the ball
/// # Ok(())
/// # }
/// ```
#[allow(clippy::too_many_arguments)]
pub fn cast_shapes<V, C>(
    pose_a: &V::Pose,
    vel_a: V,
    a: &C,
    pose_b: &V::Pose,
    vel_b: V,
    b: &C::Part,
    max_t: V::Scalar,
) -> Option<ShapeCastHit<V>>
where
    V: GjkVector,
    C: Composite<V>,
    C::Part: ConvexPart<V>,
{
    let options = crate::query::ShapeCastOptions::default();
    super::cast_shapes_with(pose_a, vel_a, a, pose_b, vel_b, b, max_t, &options)
}

/// True when `h` comes before `best`: earlier, or as early and deeper.
#[inline]
pub(super) fn earlier<V: Vector>(h: &ShapeCastHit<V>, best: Option<&ShapeCastHit<V>>) -> bool {
    best.is_none_or(|b| h.time < b.time || (h.time == b.time && h.depth > b.depth))
}

/// The parts of `c` that `region` (a box in `c`'s frame) sweeps through while moving
/// by `rel · t`, `t ∈ [0, max_t]`, with the time the moving box enters each part's
/// box, sorted by that time (a lower bound on the parts' own times of impact).
pub(super) fn swept_candidates<V, C>(
    c: &C,
    region: &Aabb<V>,
    rel: V,
    max_t: V::Scalar,
) -> Vec<(V::Scalar, u32)>
where
    V: GjkVector,
    C: Composite<V>,
{
    let mut shift = V::ZERO;
    for k in 0..V::DIM {
        // 0 · ∞ would be NaN: an axis without motion does not grow the box.
        if rel.get(k) != V::Scalar::ZERO {
            shift = shift.with(k, rel.get(k) * max_t);
        }
    }
    let end = Aabb {
        min: region.min + shift,
        max: region.max + shift,
    };
    let half = region.half_extents();
    let ray = Ray {
        origin: region.center(),
        dir: rel,
    };
    let mut out = Vec::new();
    c.bvh().overlapping(&region.merged(&end), |i| {
        let part_box = c.with_part(i, |pp, part| part.world_aabb(pp));
        let grown = Aabb {
            min: part_box.min - half,
            max: part_box.max + half,
        };
        if let Some(hit) = crate::query::RayCast::cast_ray(&grown, &ray, max_t) {
            out.push((hit.t, i));
        }
        true
    });
    out.sort_unstable_by(|x, y| x.partial_cmp(y).unwrap_or(core::cmp::Ordering::Equal));
    out
}
