//! Shape-cast options: a target distance (a skin) at which a cast stops, and whether
//! a contact the motion does not approach counts as a hit. Anchors: parry's
//! `ShapeCastOptions` (`target_distance`, `stop_at_penetration`), Jolt's
//! `ShapeCastSettings` and Box2D v3's mover casts (`b2ShapeCast` with `canEncroach`,
//! which lets a shape already touching slide instead of sticking).
//!
//! **Target distance.** A cast with target distance `s` is the cast of A against B
//! grown by a ball of radius `s` (`Inflated`: B's margin plus `s`, so GJK and EPA
//! still run on B's core): it stops when the shapes come within `s`. The reported
//! witnesses lie on the real shapes (`point_b − point_a = s · normal` at a hit after
//! time 0) and `depth` is the real shapes' penetration (`−s` there; at time 0 the
//! contact's depth, negative when they are apart by less than `s`).
//!
//! **Contacts the motion does not approach.** With `stop_at_penetration = true` (the
//! default, the behaviour of [`cast_shapes`](fn@crate::query::cast_shapes)) shapes
//! within the target distance at time 0 hit at time 0 whatever their motion. With
//! `false`, a hit counts only when the motion approaches along its normal `n` (from
//! A to B): `closing · n < −APPROACH_SLOPE · |closing|`, `closing` the velocity of
//! B's witness minus A's (the velocities for a linear cast; for a time of impact
//! with rotation, the witnesses' velocities at the hit time, see
//! [`TOI_VELOCITY_STEP`]). `APPROACH_SLOPE` is [`APPROACH_SQRT_ULPS`]` · √ε`. So a
//! shape resting on (or slightly inside) another is hit when it moves into it, not
//! when it moves out or along it; and later touches the motion only grazes are not
//! hits either. For two convex shapes translating, the distance (signed: negative
//! inside) is a convex function of time, so a contact the motion leaves or grazes at
//! time 0 never comes back: dropping it loses no later hit. A composite applies the
//! rule per part, with the normal of the part's internal-edge correction
//! ([`Composite::correct_normal_at`](crate::shape::Composite::correct_normal_at)):
//! a capsule resting on a mesh floor and cast along it meets the next triangle's
//! edge with a normal that leans by `√(2 · depth / r)`, which the correction turns
//! back to the face normal, a graze. The reported normal is then the corrected one.
//!
//! Bad input: a negative, NaN or infinite target distance makes every cast and time
//! of impact answer `None` ([`ShapeCastOptions::new`] refuses it with a
//! [`ShapeError`]).

use crate::algo::gjk::GjkVector;
use crate::algo::support::SupportMap;
use crate::math::tolerance::eps;
use crate::math::{Real, Vector};
use crate::query::cast_shapes::{cast_shapes, time_of_impact_movers, Mover, ShapeCastHit, Sweep};
use crate::shape::error::{check_non_negative, ShapeError};

/// The slope below which a motion only grazes a contact, in units of `√ε`: a hit
/// counts (with `stop_at_penetration = false`) when the closing speed along its
/// normal exceeds `APPROACH_SQRT_ULPS · √ε` times the closing speed (`5.5e-3` in
/// `f32`, `2.4e-7` in `f64`): above the rounding of contact normals, below any
/// motion a caller means as "into" the surface.
pub const APPROACH_SQRT_ULPS: f64 = 16.0;

/// The time step, as a fraction of the sweep, of the symmetric difference that gives
/// a witness point's velocity under a sweep with rotation (`(P(t+h) − P(t−h)) / 2h`
/// on the rotated offset, exact in direction for a rotation at constant speed, its
/// length short by `(h·θ)²/6`, under `0.05 %` for `θ ≤ π`).
pub const TOI_VELOCITY_STEP: f64 = 1.0 / 64.0;

/// Options of a shape cast or a time of impact (see the module docs).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ShapeCastOptions<S> {
    /// The distance at which the cast stops (a skin): a hit when the shapes come
    /// within it. `0` (the default): a hit when they touch. Must be finite and `≥ 0`.
    pub target_distance: S,
    /// `true` (the default): shapes within the target distance at time 0 hit at time
    /// 0 whatever their motion. `false`: a hit counts only when the motion approaches
    /// along its normal, at time 0 and later (a composite decides per part).
    pub stop_at_penetration: bool,
}

impl<S: Real> Default for ShapeCastOptions<S> {
    /// Target distance 0, `stop_at_penetration = true`: the plain cast.
    fn default() -> Self {
        Self {
            target_distance: S::ZERO,
            stop_at_penetration: true,
        }
    }
}

impl<S: Real> ShapeCastOptions<S> {
    /// Options with a checked target distance.
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] for a NaN or infinite `target_distance`,
    /// [`ShapeError::Negative`] for a negative one (field `"target_distance"`).
    pub fn new(target_distance: S, stop_at_penetration: bool) -> Result<Self, ShapeError> {
        let target_distance =
            check_non_negative("ShapeCastOptions", "target_distance", target_distance)?;
        Ok(Self {
            target_distance,
            stop_at_penetration,
        })
    }

    /// The options of a mover (a character, a robot link): stop at `target_distance`
    /// and ignore contacts the motion leaves or grazes (`stop_at_penetration =
    /// false`).
    ///
    /// # Errors
    /// As [`new`](Self::new).
    pub fn mover(target_distance: S) -> Result<Self, ShapeError> {
        Self::new(target_distance, false)
    }

    /// True when the target distance is finite and `≥ 0` (the queries answer `None`
    /// otherwise).
    #[inline]
    pub fn is_valid(&self) -> bool {
        self.target_distance.is_finite() && self.target_distance >= S::ZERO
    }
}

/// A shape grown by a ball of radius `extra` (its margin plus `extra`): the target
/// distance of a cast. Its support and core are the inner shape's.
pub(crate) struct Inflated<'s, S: ?Sized, R> {
    pub(crate) inner: &'s S,
    pub(crate) extra: R,
}

impl<V: Vector, S: SupportMap<V> + ?Sized> SupportMap<V> for Inflated<'_, S, V::Scalar> {
    #[inline]
    fn local_support(&self, dir: V) -> V {
        let p = self.inner.local_support(dir);
        match dir.try_normalize() {
            Some(u) => p + u * self.extra,
            None => p,
        }
    }

    #[inline]
    fn margin(&self) -> V::Scalar {
        self.inner.margin() + self.extra
    }

    #[inline]
    fn local_core_support(&self, dir: V) -> V {
        self.inner.local_core_support(dir)
    }
}

/// True when the motion approaches a hit of normal `n` (A to B): the closing velocity
/// (B's witness minus A's) has a component against `n` beyond the graze slope.
#[inline]
pub(crate) fn approaches<V: Vector>(n: V, closing: V) -> bool {
    let slope = eps::<V::Scalar>(1.0).sqrt() * V::Scalar::from_f64(APPROACH_SQRT_ULPS);
    closing.dot(n) < -slope * closing.length()
}

/// A hit against B grown by `skin`, moved back onto the real B: `point_b` by
/// `skin` along the normal, the depth less `skin`.
#[inline]
pub(crate) fn unskinned<V: Vector>(hit: ShapeCastHit<V>, skin: V::Scalar) -> ShapeCastHit<V> {
    ShapeCastHit {
        point_b: hit.point_b + hit.normal * skin,
        depth: hit.depth - skin,
        ..hit
    }
}

/// [`cast_shapes`](fn@crate::query::cast_shapes) with options: the first time in
/// `[0, max_t]` at which A (moving at `vel_a`) and B (moving at `vel_b`) come within
/// `options.target_distance`, the hit counting as the module docs say. The default
/// options give `cast_shapes`'s answer. `None` for no hit, NaN input, a negative
/// `max_t` or invalid options ([`ShapeCastOptions::is_valid`]).
///
/// ```
/// use isect::d2::*;
/// use isect::query::{cast_shapes_with, ShapeCastOptions};
///
/// # fn main() -> Result<(), ShapeError> {
/// // A unit ball moving right at 1 towards a unit ball at x = 10: it touches at t = 8,
/// // and comes within a skin of 0.5 at t = 7.5.
/// let ball = Ball::new(Vec2::ZERO, 1.0)?;
/// let target = Pose::from_translation(Vec2::new(10.0, 0.0));
/// let skin = ShapeCastOptions::new(0.5, true)?;
/// let hit = cast_shapes_with(&Pose::IDENTITY, Vec2::X, &ball, &target, Vec2::ZERO, &ball,
///     100.0, &skin).expect("it arrives");
/// assert!((hit.time - 7.5).abs() < 1e-4);
/// # Ok(())
/// # }
/// ```
#[allow(clippy::too_many_arguments)]
pub fn cast_shapes_with<V, A, B>(
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
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if !options.is_valid() {
        return None;
    }
    let skin = options.target_distance;
    let hit = if skin == V::Scalar::ZERO {
        cast_shapes(pose_a, vel_a, a, pose_b, vel_b, b, max_t)?
    } else {
        let grown = Inflated {
            inner: b,
            extra: skin,
        };
        unskinned(
            cast_shapes(pose_a, vel_a, a, pose_b, vel_b, &grown, max_t)?,
            skin,
        )
    };
    (options.stop_at_penetration || approaches(hit.normal, vel_b - vel_a)).then_some(hit)
}

/// [`time_of_impact`](fn@crate::query::time_of_impact) with options: the first time
/// in `[0, 1]` at which the sweeping shapes come within `options.target_distance`,
/// the hit counting as the module docs say (the closing velocity is that of the
/// witness points at the hit time). With rotation the distance is no longer convex
/// in time: a contact left at time 0 is not searched again within the sweep (a
/// shape that leaves a contact and swings back into it within one sweep is missed;
/// shorter sweeps find it). `None` for no hit, NaN poses or invalid options.
///
/// ```
/// use isect::d3::*;
/// use isect::query::{time_of_impact_with, ShapeCastOptions, Sweep};
///
/// # fn main() -> Result<(), ShapeError> {
/// // A unit ball sweeping from x = 0 to x = 10 towards a unit ball at x = 6: it
/// // touches at x = 4 (t = 0.4) and comes within 1.0 at x = 3 (t = 0.3).
/// let ball = Ball::new(Vec3::ZERO, 1.0)?;
/// let moving = Sweep { start: Pose::IDENTITY,
///     end: Pose::from_translation(Vec3::new(10.0, 0.0, 0.0)) };
/// let at = Pose::from_translation(Vec3::new(6.0, 0.0, 0.0));
/// let still = Sweep { start: at, end: at };
/// let hit = time_of_impact_with(&moving, &ball, &still, &ball,
///     &ShapeCastOptions::new(1.0, true)?).expect("it comes within 1.0");
/// assert!((hit.time - 0.3).abs() < 1e-4);
/// # Ok(())
/// # }
/// ```
pub fn time_of_impact_with<V, A, B>(
    sweep_a: &Sweep<V>,
    a: &A,
    sweep_b: &Sweep<V>,
    b: &B,
    options: &ShapeCastOptions<V::Scalar>,
) -> Option<ShapeCastHit<V>>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let (ma, mb) = (Mover::whole(sweep_a), Mover::whole(sweep_b));
    let hit = toi_skinned(&ma, a, &mb, b, V::Scalar::ONE, options.target_distance)?;
    (options.stop_at_penetration || approaches(hit.normal, closing_at(&ma, &mb, &hit)))
        .then_some(hit)
}

/// The time of impact of carried shapes at target distance `skin` (checked: `None`
/// when negative or not finite), before the approach rule.
pub(crate) fn toi_skinned<V, A, B>(
    ma: &Mover<'_, V>,
    a: &A,
    mb: &Mover<'_, V>,
    b: &B,
    limit: V::Scalar,
    skin: V::Scalar,
) -> Option<ShapeCastHit<V>>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if !(skin.is_finite() && skin >= V::Scalar::ZERO) {
        return None;
    }
    if skin == V::Scalar::ZERO {
        return time_of_impact_movers(ma, a, mb, b, limit);
    }
    let grown = Inflated {
        inner: b,
        extra: skin,
    };
    time_of_impact_movers(ma, a, mb, &grown, limit).map(|h| unskinned(h, skin))
}

/// The closing velocity of a hit of carried shapes: B's witness velocity minus A's
/// at the hit time.
pub(crate) fn closing_at<V: GjkVector>(
    ma: &Mover<'_, V>,
    mb: &Mover<'_, V>,
    hit: &ShapeCastHit<V>,
) -> V {
    mb.point_velocity(hit.point_b, hit.time) - ma.point_velocity(hit.point_a, hit.time)
}
