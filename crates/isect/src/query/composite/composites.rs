//! Two composites: every pair of parts whose boxes meet, each pair through the
//! convex dispatch (A's parts are culled against B's box, then each surviving part's
//! box is looked up in B's tree).

// `!(x >= y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::convex::{closest_below, distance_below, nan_points};
use super::*;
use crate::query::distance::ClosestPoints;
use crate::shape::Composite;

/// B's whole box in A's frame grown by `margin`; `None` for non-finite poses or an
/// empty B.
fn region_of_composite<V: GjkVector, B: Composite<V>>(
    pose_a: &V::Pose,
    pose_b: &V::Pose,
    b: &B,
    margin: V::Scalar,
) -> Option<Aabb<V>> {
    if !(pose_a.is_finite() && pose_b.is_finite()) || margin.is_nan() {
        return None;
    }
    let root = b.bvh().root_aabb()?;
    Some(transformed_aabb(&root, &pose_a.inv_mul(pose_b)).loosened(margin))
}

/// Calls `f(i, world pose of A's part i, A's part, j, world pose of B's part j, B's
/// part)` for every pair of parts whose boxes are within `margin`, until `f`
/// returns `false`.
fn for_each_part_pair<V, A, B>(
    pose_a: &V::Pose,
    a: &A,
    pose_b: &V::Pose,
    b: &B,
    margin: V::Scalar,
    mut f: impl FnMut(u32, &V::Pose, &A::Part, u32, &V::Pose, &A::Part) -> bool,
) where
    V: GjkVector,
    A: Composite<V>,
    B: Composite<V, Part = A::Part>,
{
    let Some(region) = region_of_composite(pose_a, pose_b, b, margin) else {
        return;
    };
    let mut go_on = true;
    a.bvh().overlapping(&region, |i| {
        a.with_part(i, |ppa, part_a| {
            let pwa = pose_a.mul(ppa);
            let box_in_b = part_a.world_aabb(&pose_b.inv_mul(&pwa)).loosened(margin);
            b.bvh().overlapping(&box_in_b, |j| {
                go_on = b.with_part(j, |ppb, part_b| {
                    f(i, &pwa, part_a, j, &pose_b.mul(ppb), part_b)
                });
                go_on
            });
        });
        go_on
    });
}

/// True when some part of `a` touches or overlaps some part of `b`; `false` for
/// non-finite poses.
///
/// ```
/// use isect::d2::*;
/// use isect::query::composite::intersects_composites;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A unit square (a concave polygon with one piece) over the upper floor (y = 1)
/// // of a step: its bottom is at the pose's y.
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// let square = ConcavePolygon::new(vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y], vec![])?;
/// let sunk = Pose::from_translation(Vec2::new(2.0, 0.9));
/// let lifted = Pose::from_translation(Vec2::new(2.0, 1.1));
/// assert!(intersects_composites(&Pose::IDENTITY, &step, &sunk, &square));
/// assert!(!intersects_composites(&Pose::IDENTITY, &step, &lifted, &square));
/// # Ok(())
/// # }
/// ```
pub fn intersects_composites<V, A, B>(pose_a: &V::Pose, a: &A, pose_b: &V::Pose, b: &B) -> bool
where
    V: GjkVector,
    A: Composite<V>,
    B: Composite<V, Part = A::Part>,
    A::Part: ConvexPart<V>,
{
    let mut hit = false;
    for_each_part_pair(
        pose_a,
        a,
        pose_b,
        b,
        V::Scalar::ZERO,
        |_, pa, x, _, pb, y| {
            hit = A::Part::intersects_pair(pa, x, pb, y);
            !hit
        },
    );
    // One solid mesh wholly inside the other meets none of its surface parts.
    hit || deepest_samples(pose_a, a, pose_b, b).is_some()
}

/// The deepest contact over the pairs of parts within `prediction`, with the two
/// part indices, normals corrected by both composites (see the module docs).
/// When a vertex of one solid mesh lies inside the other, the deepest such vertex
/// answers instead (`deepest_sample`): two overlapping solids' surfaces meet only
/// at the rim of the overlap, where crossing triangles give shallow contacts along
/// arbitrary normals. `None` when no pair is that close, for non-finite poses or a NaN `prediction`.
///
/// ```
/// use isect::d2::*;
/// use isect::query::composite::contact_composites;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A unit square 0.25 into the upper floor (segment 2) of a step.
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// let square = ConcavePolygon::new(vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y], vec![])?;
/// let at = Pose::from_translation(Vec2::new(2.0, 0.75));
/// let (part_a, _, c) = contact_composites(&Pose::IDENTITY, &step, &at, &square, 0.0).unwrap();
/// assert_eq!(part_a, 2);
/// assert!((c.depth - 0.25).abs() < 1e-5);
/// assert!((c.normal - Vec2::Y).length() < 1e-5);
/// # Ok(())
/// # }
/// ```
pub fn contact_composites<V, A, B>(
    pose_a: &V::Pose,
    a: &A,
    pose_b: &V::Pose,
    b: &B,
    prediction: V::Scalar,
) -> Option<(u32, u32, Contact<V>)>
where
    V: GjkVector,
    A: Composite<V>,
    B: Composite<V, Part = A::Part>,
    A::Part: ConvexPart<V>,
{
    if prediction.is_nan() {
        return None;
    }
    if let Some(inside) = deepest_samples(pose_a, a, pose_b, b) {
        return Some(inside);
    }
    let margin = prediction.max(V::Scalar::ZERO);
    let two_sided = a.two_sided() && b.two_sided();
    let mut best: Option<(u32, u32, Contact<V>)> = None;
    for_each_part_pair(pose_a, a, pose_b, b, margin, |i, pa, x, j, pb, y| {
        if let Some(c) = A::Part::contact_pair(pa, x, pb, y, prediction) {
            let correct =
                |n| pair_normal((a, i, pose_a), (b, j, pose_b), n, (c.point_a, c.point_b));
            let c = corrected_contact(&c, correct, two_sided, (pa, x), (pb, y));
            if deeper::<V>(c.depth, best.map(|(_, _, b)| b.depth)) {
                best = Some((i, j, c));
            }
        }
        true
    });
    best
}

/// The deeper of [`deepest_sample`] of `b` in `a` and of `a` in `b` (seen from A).
fn deepest_samples<V, A, B>(
    pose_a: &V::Pose,
    a: &A,
    pose_b: &V::Pose,
    b: &B,
) -> Option<(u32, u32, Contact<V>)>
where
    V: GjkVector,
    A: Composite<V>,
    B: Composite<V>,
{
    let ab = deepest_sample(pose_a, a, pose_b, b);
    let ba = deepest_sample(pose_b, b, pose_a, a).map(|(j, i, c)| (i, j, c.flipped()));
    match (ab, ba) {
        (Some(x), Some(y)) => Some(if y.2.depth > x.2.depth { y } else { x }),
        (x, y) => x.or(y),
    }
}

/// One manifold per pair of parts within `prediction`, normals corrected by both
/// composites, sorted by part indices. Empty for non-finite poses or a NaN
/// `prediction`. A vertex of a solid mesh's partner inside it gives the one point of
/// [`contact_composites`]' deepest vertex instead.
///
/// ```
/// use isect::d2::*;
/// use isect::query::composite::contact_manifolds_composites;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A unit square 0.25 into the upper floor of a step: one pair of parts in contact.
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// let square = ConcavePolygon::new(vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y], vec![])?;
/// let at = Pose::from_translation(Vec2::new(2.0, 0.75));
/// let ms = contact_manifolds_composites(&Pose::IDENTITY, &step, &at, &square, 0.0);
/// assert_eq!(ms.len(), 1);
/// assert_eq!((ms[0].part_a, ms[0].part_b), (Some(2), Some(0)));
/// assert!((ms[0].manifold.max_depth() - 0.25).abs() < 1e-5);
/// # Ok(())
/// # }
/// ```
pub fn contact_manifolds_composites<V, A, B>(
    pose_a: &V::Pose,
    a: &A,
    pose_b: &V::Pose,
    b: &B,
    prediction: V::Scalar,
) -> Vec<PartManifold<V>>
where
    V: GjkVector,
    A: Composite<V>,
    B: Composite<V, Part = A::Part>,
    A::Part: ConvexPart<V>,
{
    let mut out = Vec::new();
    if prediction.is_nan() {
        return out;
    }
    if let Some((i, j, c)) = deepest_samples(pose_a, a, pose_b, b) {
        let manifold = Manifold::single(&c, crate::query::manifold::FeatureId::SINGLE);
        out.push(PartManifold::new(Some(i), Some(j), manifold));
        return out;
    }
    let margin = prediction.max(V::Scalar::ZERO);
    let two_sided = a.two_sided() && b.two_sided();
    for_each_part_pair(pose_a, a, pose_b, b, margin, |i, pa, x, j, pb, y| {
        if let Some(m) = A::Part::contact_manifold_pair(pa, x, pb, y, prediction) {
            let at = deepest_witnesses(&m);
            let correct = |n| pair_normal((a, i, pose_a), (b, j, pose_b), n, at);
            let manifold = corrected_manifold(&m, correct, two_sided, (pa, x), (pb, y), prediction);
            out.push(PartManifold::new(Some(i), Some(j), manifold));
        }
        true
    });
    out.sort_unstable_by_key(|m| (m.part_a, m.part_b));
    out
}

/// Distance between the nearest parts of `a` and `b` (0 when touching or
/// overlapping); NaN for non-finite poses.
///
/// ```
/// use isect::d2::*;
/// use isect::query::composite::distance_composites;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A unit square whose bottom is 2 above the upper floor of a step.
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// let square = ConcavePolygon::new(vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y], vec![])?;
/// let at = Pose::from_translation(Vec2::new(2.0, 3.0));
/// assert!((distance_composites(&Pose::IDENTITY, &step, &at, &square) - 2.0).abs() < 1e-5);
/// # Ok(())
/// # }
/// ```
pub fn distance_composites<V, A, B>(pose_a: &V::Pose, a: &A, pose_b: &V::Pose, b: &B) -> V::Scalar
where
    V: GjkVector,
    A: Composite<V>,
    B: Composite<V, Part = A::Part>,
    A::Part: ConvexPart<V>,
{
    let nan = V::Scalar::from_f64(f64::NAN);
    let Some(region) = region_of_composite(pose_a, pose_b, b, V::Scalar::ZERO) else {
        return nan;
    };
    if deepest_samples(pose_a, a, pose_b, b).is_some() {
        return V::Scalar::ZERO;
    }
    let best = nearest_part(a, &region, V::Scalar::INFINITY, |i, upper| {
        let pwa = part_pose(a, i, pose_a);
        let d = a.with_part(i, |_, x| distance_below(pose_b, b, &pwa, x, upper))?;
        Some((d, ()))
    });
    best.map_or(nan, |(d, ())| d)
}

/// Closest points of the nearest parts of `a` and `b`; NaN distance with
/// `Status::Degenerate` for non-finite poses.
///
/// ```
/// use isect::d2::*;
/// use isect::query::composite::closest_points_composites;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A unit square over the lower floor, [-2, -1] × [2, 3]: its corner (-1, 2) is
/// // nearer to the step's top corner (0, 1), √2 away, than to the floor (2 below).
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// let square = ConcavePolygon::new(vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y], vec![])?;
/// let at = Pose::from_translation(Vec2::new(-2.0, 2.0));
/// let cp = closest_points_composites(&Pose::IDENTITY, &step, &at, &square);
/// assert!((cp.distance - 2f32.sqrt()).abs() < 1e-5);
/// assert!((cp.point_a - Vec2::Y).length() < 1e-5);
/// assert!((cp.point_b - Vec2::new(-1.0, 2.0)).length() < 1e-5);
/// # Ok(())
/// # }
/// ```
pub fn closest_points_composites<V, A, B>(
    pose_a: &V::Pose,
    a: &A,
    pose_b: &V::Pose,
    b: &B,
) -> ClosestPoints<V>
where
    V: GjkVector,
    A: Composite<V>,
    B: Composite<V, Part = A::Part>,
    A::Part: ConvexPart<V>,
{
    let Some(region) = region_of_composite(pose_a, pose_b, b, V::Scalar::ZERO) else {
        return nan_points();
    };
    if let Some((_, _, c)) = deepest_samples(pose_a, a, pose_b, b) {
        return ClosestPoints::closed_form(V::Scalar::ZERO, c.point_b, c.point_b);
    }
    let best = nearest_part(a, &region, V::Scalar::INFINITY, |i, upper| {
        let pwa = part_pose(a, i, pose_a);
        let cp = a.with_part(i, |_, x| closest_below(pose_b, b, &pwa, x, upper))?;
        let cp = ClosestPoints {
            point_a: cp.point_b,
            point_b: cp.point_a,
            ..cp
        };
        Some((cp.distance, cp))
    });
    best.map_or_else(nan_points, |(_, cp)| cp)
}

/// The earliest time in `[0, max_t]` at which a part of `a` touches a part of `b`,
/// both translating, as [`cast_shapes`](super::cast_shapes); `None` for no hit, NaN
/// input or a negative `max_t`.
///
/// ```
/// use isect::d2::*;
/// use isect::query::composite::cast_shapes_composites;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A unit square falling at 1 from 3 above the upper floor of a step lands at t = 3.
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// let square = ConcavePolygon::new(vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y], vec![])?;
/// let start = Pose::from_translation(Vec2::new(2.0, 4.0));
/// let hit = cast_shapes_composites(&Pose::IDENTITY, Vec2::ZERO, &step,
///     &start, -Vec2::Y, &square, 10.0).expect("it lands");
/// assert!((hit.time - 3.0).abs() < 1e-4);
/// # Ok(())
/// # }
/// ```
#[allow(clippy::too_many_arguments)]
pub fn cast_shapes_composites<V, A, B>(
    pose_a: &V::Pose,
    vel_a: V,
    a: &A,
    pose_b: &V::Pose,
    vel_b: V,
    b: &B,
    max_t: V::Scalar,
) -> Option<ShapeCastHit<V>>
where
    V: GjkVector,
    A: Composite<V>,
    B: Composite<V, Part = A::Part>,
    A::Part: ConvexPart<V>,
{
    let options = crate::query::ShapeCastOptions::default();
    super::cast_shapes_composites_with(pose_a, vel_a, a, pose_b, vel_b, b, max_t, &options)
}
