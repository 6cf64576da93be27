//! Moving composites: shape casts with options ([`ShapeCastOptions`]) and times of
//! impact with rotation, a composite against a convex shape of its part type and two
//! composites.
//!
//! **Casts.** As [`cast_shapes`](super::cast_shapes): the parts whose boxes the other
//! shape's box (grown by the target distance) sweeps, in order of entry, each cast
//! through the convex dispatch at the target distance; the earliest hit that counts
//! wins. With `stop_at_penetration = false` a part's hit counts when the motion
//! approaches it along the part's corrected normal (the composite's internal-edge
//! correction, [`corrected_normal`], both sides' for two composites, [`pair_normal`]),
//! and the hit reports that normal; a part that does not count is skipped, and later
//! parts still may hit.
//!
//! **Time of impact with rotation.** The other shape's swept region in the
//! composite's frame is bounded by a box (Ericson 5.5 on swept volumes; the bound of
//! Box2D's and parry's non-linear casts): the shape's box at time 0 merged with that
//! box moved by the relative translation, grown by `θ_S · r_S + θ_C · M + skin`,
//! with `θ` the sweeps' rotation angles, `r_S` the reach of the shape's points from
//! its sweep's origin and `M` a bound on their distance from the composite's origin
//! during the sweep (a chord is never longer than its arc, so this is
//! conservative). The composite's tree gives the parts in that box; each part rides
//! the composite's sweep at its part pose, and conservative advancement
//! ([`time_of_impact`](crate::query::time_of_impact)) runs per pair of parts up to
//! the earliest hit found so far. Tolerance and cap are the convex ones
//! ([`CAST_GAP_ULPS`](crate::query::cast_shapes::CAST_GAP_ULPS),
//! [`TOI_MAX_ITERATIONS`](crate::query::cast_shapes::TOI_MAX_ITERATIONS) per pair of
//! parts); the work is bounded by the number of parts in the region.
//!
//! Bad input: non-finite poses or velocities, a negative `max_t` and invalid options
//! give `None`.

use super::convex::{earlier, region_of, swept_candidates};
use super::*;
use crate::query::cast_options::{approaches, toi_skinned, ShapeCastOptions};
use crate::query::cast_shapes::{bounding_radius, Mover, Sweep};
use crate::shape::Composite;

/// A part's hit kept as it is, replaced (corrected normal) or dropped.
type Judged<V> = Option<ShapeCastHit<V>>;

/// `pose` moved by `d`.
#[inline]
fn moved<V: GjkVector>(pose: &V::Pose, d: V) -> V::Pose {
    V::Pose::from_translation(d).mul(pose)
}

/// The radius about the local origin of a box given in the local frame.
#[inline]
fn box_radius<V: Vector>(b: &Aabb<V>) -> V::Scalar {
    b.min.abs().max(b.max.abs()).length()
}

/// The earliest hit of the parts of `a` against `b`, both translating, at target
/// distance `skin`, among the hits `judge(part, hit)` keeps.
#[allow(clippy::too_many_arguments)]
fn earliest_cast<V, C>(
    (pose_a, vel_a, a): (&V::Pose, V, &C),
    (pose_b, vel_b, b): (&V::Pose, V, &C::Part),
    max_t: V::Scalar,
    skin: V::Scalar,
    mut judge: impl FnMut(u32, ShapeCastHit<V>) -> Judged<V>,
) -> Option<ShapeCastHit<V>>
where
    V: GjkVector,
    C: Composite<V>,
    C::Part: ConvexPart<V>,
{
    if !(vel_a.is_finite() && vel_b.is_finite() && max_t >= V::Scalar::ZERO) {
        return None;
    }
    let region = region_of(pose_a, pose_b, b, skin)?;
    let rel = pose_a.inverse_transform_vector(vel_b - vel_a);
    let raw = ShapeCastOptions::new(skin, true).ok()?;
    let mut best: Option<ShapeCastHit<V>> = None;
    for (enter, i) in swept_candidates(a, &region, rel, max_t) {
        if best.is_some_and(|h| enter > h.time) {
            break;
        }
        let limit = best.map_or(max_t, |h| h.time);
        let hit = a.with_part(i, |pp, part| {
            C::Part::cast_pair_with(&pose_a.mul(pp), vel_a, part, pose_b, vel_b, b, limit, &raw)
        });
        if let Some(h) = hit.and_then(|h| judge(i, h)) {
            if earlier(&h, best.as_ref()) {
                best = Some(h);
            }
        }
    }
    best
}

/// [`cast_shapes`](super::cast_shapes) with options: the earliest time in `[0,
/// max_t]` at which a part of `a` (moving at `vel_a`) comes within
/// `options.target_distance` of `b` (moving at `vel_b`) with a hit that counts (see
/// the module docs). The default options give `cast_shapes`'s answer. `None` for no
/// hit, NaN input, a negative `max_t` or invalid options.
///
/// ```
/// use isect::d2::*;
/// use isect::query::{composite, ShapeCastOptions};
///
/// # fn main() -> Result<(), ShapeError> {
/// // A ball of radius 0.5 falling at 1 from y = 5 onto the upper floor (y = 1) of a
/// // step touches at t = 3.5 and comes within a skin of 0.5 at t = 3.
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// let ball = Shape::Ball(Ball::new(Vec2::ZERO, 0.5)?);
/// let start = Pose::from_translation(Vec2::new(2.0, 5.0));
/// let hit = composite::cast_shapes_with(&Pose::IDENTITY, Vec2::ZERO, &step, &start, -Vec2::Y,
///     &ball, 10.0, &ShapeCastOptions::mover(0.5)?).expect("it lands");
/// assert!((hit.time - 3.0).abs() < 1e-4);
/// # Ok(())
/// # }
/// ```
#[allow(clippy::too_many_arguments)]
pub fn cast_shapes_with<V, C>(
    pose_a: &V::Pose,
    vel_a: V,
    a: &C,
    pose_b: &V::Pose,
    vel_b: V,
    b: &C::Part,
    max_t: V::Scalar,
    options: &ShapeCastOptions<V::Scalar>,
) -> Option<ShapeCastHit<V>>
where
    V: GjkVector,
    C: Composite<V>,
    C::Part: ConvexPart<V>,
{
    if !options.is_valid() {
        return None;
    }
    let stop = options.stop_at_penetration;
    let judge = |i: u32, h: ShapeCastHit<V>| {
        if stop {
            return Some(h);
        }
        let at = moved::<V>(pose_a, vel_a * h.time);
        let n = corrected_normal(a, i, &at, h.normal, h.point_a).unwrap_or(h.normal);
        approaches(n, vel_b - vel_a).then_some(ShapeCastHit { normal: n, ..h })
    };
    let skin = options.target_distance;
    earliest_cast((pose_a, vel_a, a), (pose_b, vel_b, b), max_t, skin, judge)
}

/// [`cast_shapes_composites`](super::cast_shapes_composites) with options, as
/// [`cast_shapes_with`] (a pair of parts counts along the normal corrected by both
/// composites).
///
/// ```
/// use isect::d2::*;
/// use isect::query::{composite, ShapeCastOptions};
///
/// # fn main() -> Result<(), ShapeError> {
/// // A unit square falling at 1 from 3 above the upper floor of a step comes within
/// // a skin of 0.5 at t = 2.5.
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// let square = ConcavePolygon::new(vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y], vec![])?;
/// let start = Pose::from_translation(Vec2::new(2.0, 4.0));
/// let hit = composite::cast_shapes_composites_with(&Pose::IDENTITY, Vec2::ZERO, &step,
///     &start, -Vec2::Y, &square, 10.0, &ShapeCastOptions::new(0.5, true)?).expect("it lands");
/// assert!((hit.time - 2.5).abs() < 1e-4);
/// # Ok(())
/// # }
/// ```
#[allow(clippy::too_many_arguments)]
pub fn cast_shapes_composites_with<V, A, B>(
    pose_a: &V::Pose,
    vel_a: V,
    a: &A,
    pose_b: &V::Pose,
    vel_b: V,
    b: &B,
    max_t: V::Scalar,
    options: &ShapeCastOptions<V::Scalar>,
) -> Option<ShapeCastHit<V>>
where
    V: GjkVector,
    A: Composite<V>,
    B: Composite<V, Part = A::Part>,
    A::Part: ConvexPart<V>,
{
    let finite = vel_a.is_finite() && vel_b.is_finite() && pose_a.is_finite();
    if !(options.is_valid() && finite && pose_b.is_finite() && max_t >= V::Scalar::ZERO) {
        return None;
    }
    let skin = options.target_distance;
    let root = b.bvh().root_aabb()?;
    let region = transformed_aabb(&root, &pose_a.inv_mul(pose_b)).loosened(skin);
    let rel = pose_a.inverse_transform_vector(vel_b - vel_a);
    let mut best: Option<ShapeCastHit<V>> = None;
    for (enter, i) in swept_candidates(a, &region, rel, max_t) {
        if best.is_some_and(|h| enter > h.time) {
            break;
        }
        let limit = best.map_or(max_t, |h| h.time);
        let pwa = part_pose(a, i, pose_a);
        let judge = |j: u32, inner: ShapeCastHit<V>| {
            if options.stop_at_penetration {
                return Some(inner);
            }
            let h = flip_hit(inner);
            let (at_a, at_b) = (
                moved::<V>(pose_a, vel_a * h.time),
                moved::<V>(pose_b, vel_b * h.time),
            );
            let witnesses = (h.point_a, h.point_b);
            let n = pair_normal((a, i, &at_a), (b, j, &at_b), h.normal, witnesses);
            let n = n.unwrap_or(h.normal);
            approaches(n, vel_b - vel_a).then(|| flip_hit(ShapeCastHit { normal: n, ..h }))
        };
        let hit = a.with_part(i, |_, x| {
            earliest_cast((pose_b, vel_b, b), (&pwa, vel_a, x), limit, skin, judge)
        });
        if let Some(h) = hit.map(flip_hit) {
            if earlier(&h, best.as_ref()) {
                best = Some(h);
            }
        }
    }
    best
}

/// What a shape sweeps in a composite's frame over `[0, 1]` (see the module docs).
struct Swept<V: Vector> {
    /// The box bounding the whole swept region, grown by the skin.
    region: Aabb<V>,
    /// The shape's box at time 0, grown by the skin.
    start: Aabb<V>,
    /// A bound on how far any point of the shape moves in the composite's frame per
    /// unit time: a part whose box is `δ` from `start` is not reached before `δ / speed`.
    speed: V::Scalar,
}

impl<V: Vector> Swept<V> {
    /// The earliest time the shape may reach a box (0 when it starts there).
    fn earliest(&self, part_box: &Aabb<V>) -> V::Scalar {
        let gap = (part_box.min - self.start.max).max(self.start.min - part_box.max);
        let gap = gap.max(V::ZERO).length();
        if gap == V::Scalar::ZERO {
            return gap;
        }
        gap / self.speed
    }
}

/// The region a shape sweeps in the composite's frame while it rides `ms` and the
/// composite rides `mc` over `[0, 1]` (see the module docs): `box_at(pose)` is the
/// shape's box at a pose in the composite's frame, `radius` its reach from its local
/// origin. `None` for non-finite sweeps.
fn swept_region<V: GjkVector>(
    mc: &Mover<'_, V>,
    ms: &Mover<'_, V>,
    box_at: impl Fn(&V::Pose) -> Aabb<V>,
    radius: V::Scalar,
    skin: V::Scalar,
) -> Option<Swept<V>> {
    if !(mc.is_finite() && ms.is_finite()) {
        return None;
    }
    let zero = V::Scalar::ZERO;
    let pc0 = mc.pose_at(zero);
    let start = box_at(&pc0.inv_mul(&ms.pose_at(zero)));
    let rel_lin = ms.lin() - mc.lin();
    let shift = pc0.inverse_transform_vector(rel_lin);
    let end = Aabb {
        min: start.min + shift,
        max: start.max + shift,
    };
    let reach = ms.offset.translation().length() + radius;
    let apart = (ms.sweep.start.translation() - mc.sweep.start.translation()).length();
    let far = apart + rel_lin.length() + reach;
    let spin = ms.turn() * reach + mc.turn() * far;
    if !(spin + skin).is_finite() {
        return None;
    }
    Some(Swept {
        region: start.merged(&end).loosened(spin + skin),
        start: start.loosened(skin),
        speed: shift.length() + spin,
    })
}

/// The earliest time of impact of the parts of `c` (riding `sweep_c`) with `s`
/// (riding `ms`), up to `limit`, at target distance `skin`, among the hits
/// `judge(part, hit)` keeps (hits with the composite as A). The parts in the swept
/// region are visited by the earliest time the shape may reach their boxes, and the
/// walk stops at a part that cannot be reached before the best hit.
fn earliest_toi<V, C>(
    (sweep_c, c): (&Sweep<V>, &C),
    (ms, s): (&Mover<'_, V>, &C::Part),
    limit: V::Scalar,
    skin: V::Scalar,
    mut judge: impl FnMut(u32, ShapeCastHit<V>) -> Judged<V>,
) -> Option<ShapeCastHit<V>>
where
    V: GjkVector,
    C: Composite<V>,
    C::Part: ConvexPart<V>,
{
    let mc = Mover::whole(sweep_c);
    let swept = swept_region(&mc, ms, |p| s.world_aabb(p), bounding_radius(s), skin)?;
    let mut candidates = Vec::new();
    c.for_each_part_in(&swept.region, |i| {
        let part_box = c.with_part(i, |pp, part| part.world_aabb(pp));
        candidates.push((swept.earliest(&part_box), i));
        true
    });
    candidates.sort_unstable_by(|x, y| x.partial_cmp(y).unwrap_or(core::cmp::Ordering::Equal));
    let mut best: Option<ShapeCastHit<V>> = None;
    for (earliest, i) in candidates {
        let lim = best.map_or(limit, |h| h.time);
        if !(earliest <= lim) {
            break;
        }
        let hit = c.with_part(i, |pp, part| {
            let mp = Mover {
                sweep: sweep_c,
                offset: *pp,
            };
            toi_skinned(&mp, part, ms, s, lim, skin)
        });
        if let Some(h) = hit.and_then(|h| judge(i, h)) {
            if earlier(&h, best.as_ref()) {
                best = Some(h);
            }
        }
    }
    best
}

/// The earliest time `t ∈ [0, 1]` at which a part of `a`, riding `sweep_a`, comes
/// within `options.target_distance` of `b`, riding `sweep_b`, with a hit that counts
/// (closing velocity of the witnesses at the hit time), as
/// [`time_of_impact_with`](crate::query::time_of_impact_with) per part (see the
/// module docs). `None` for no hit, non-finite sweeps or invalid options.
///
/// ```
/// use isect::d2::*;
/// use isect::query::{composite, ShapeCastOptions, Sweep};
///
/// # fn main() -> Result<(), ShapeError> {
/// // A ball of radius 0.5 swept from y = 5 to y = -5 over the upper floor (y = 1)
/// // of a step: its centre reaches y = 1.5 at t = 0.35.
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// let ball = Shape::Ball(Ball::new(Vec2::ZERO, 0.5)?);
/// let still = Sweep { start: Pose::IDENTITY, end: Pose::IDENTITY };
/// let fall = Sweep {
///     start: Pose::from_translation(Vec2::new(2.0, 5.0)),
///     end: Pose::from_translation(Vec2::new(2.0, -5.0)),
/// };
/// let hit = composite::time_of_impact(&still, &step, &fall, &ball, &ShapeCastOptions::default())
///     .expect("it lands");
/// assert!((hit.time - 0.35).abs() < 1e-4);
/// # Ok(())
/// # }
/// ```
pub fn time_of_impact<V, C>(
    sweep_a: &Sweep<V>,
    a: &C,
    sweep_b: &Sweep<V>,
    b: &C::Part,
    options: &ShapeCastOptions<V::Scalar>,
) -> Option<ShapeCastHit<V>>
where
    V: GjkVector,
    C: Composite<V>,
    C::Part: ConvexPart<V>,
{
    if !options.is_valid() {
        return None;
    }
    let mb = Mover::whole(sweep_b);
    let ma = Mover::whole(sweep_a);
    let judge = |i: u32, h: ShapeCastHit<V>| {
        if options.stop_at_penetration {
            return Some(h);
        }
        let at = sweep_a.pose_at(h.time);
        let n = corrected_normal(a, i, &at, h.normal, h.point_a).unwrap_or(h.normal);
        let closing = mb.point_velocity(h.point_b, h.time) - ma.point_velocity(h.point_a, h.time);
        approaches(n, closing).then_some(ShapeCastHit { normal: n, ..h })
    };
    let one = V::Scalar::ONE;
    earliest_toi((sweep_a, a), (&mb, b), one, options.target_distance, judge)
}

/// [`time_of_impact`] of two composites: A's parts in the region B sweeps in A's
/// frame, each against B's parts in the region it sweeps in B's frame; a pair of
/// parts counts along the normal corrected by both composites.
///
/// ```
/// use isect::d2::*;
/// use isect::query::{composite, ShapeCastOptions, Sweep};
///
/// # fn main() -> Result<(), ShapeError> {
/// // A unit square swept from y = 5 to y = -5 over the upper floor (y = 1) of a
/// // step, turning a quarter turn about its corner on the way: its corner stays its
/// // lowest point and reaches y = 1 at t = 0.4.
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// let square = ConcavePolygon::new(vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y], vec![])?;
/// let still = Sweep { start: Pose::IDENTITY, end: Pose::IDENTITY };
/// let fall = Sweep {
///     start: Pose::new(Vec2::new(2.0, 5.0), 0.0),
///     end: Pose::new(Vec2::new(2.0, -5.0), std::f32::consts::FRAC_PI_2),
/// };
/// let hit = composite::time_of_impact_composites(&still, &step, &fall, &square,
///     &ShapeCastOptions::default()).expect("it lands");
/// assert!((hit.time - 0.4).abs() < 1e-3);
/// # Ok(())
/// # }
/// ```
pub fn time_of_impact_composites<V, A, B>(
    sweep_a: &Sweep<V>,
    a: &A,
    sweep_b: &Sweep<V>,
    b: &B,
    options: &ShapeCastOptions<V::Scalar>,
) -> Option<ShapeCastHit<V>>
where
    V: GjkVector,
    A: Composite<V>,
    B: Composite<V, Part = A::Part>,
    A::Part: ConvexPart<V>,
{
    let (ma, mb) = (Mover::whole(sweep_a), Mover::whole(sweep_b));
    let root = b.bvh().root_aabb()?;
    let box_b = |p: &V::Pose| transformed_aabb(&root, p);
    let skin = options.target_distance;
    if !options.is_valid() {
        return None;
    }
    let region = swept_region(&ma, &mb, box_b, box_radius(&root), skin)?.region;
    let mut best: Option<ShapeCastHit<V>> = None;
    a.for_each_part_in(&region, |i| {
        let limit = best.map_or(V::Scalar::ONE, |h| h.time);
        let judge = |j: u32, inner: ShapeCastHit<V>| {
            if options.stop_at_penetration {
                return Some(inner);
            }
            let h = flip_hit(inner);
            let (at_a, at_b) = (sweep_a.pose_at(h.time), sweep_b.pose_at(h.time));
            let witnesses = (h.point_a, h.point_b);
            let n = pair_normal((a, i, &at_a), (b, j, &at_b), h.normal, witnesses);
            let n = n.unwrap_or(h.normal);
            let closing =
                mb.point_velocity(h.point_b, h.time) - ma.point_velocity(h.point_a, h.time);
            approaches(n, closing).then(|| flip_hit(ShapeCastHit { normal: n, ..h }))
        };
        let hit = a.with_part(i, |pp, x| {
            let mpa = Mover {
                sweep: sweep_a,
                offset: *pp,
            };
            earliest_toi((sweep_b, b), (&mpa, x), limit, skin, judge)
        });
        if let Some(h) = hit.map(flip_hit) {
            if earlier(&h, best.as_ref()) {
                best = Some(h);
            }
        }
        true
    });
    best
}
