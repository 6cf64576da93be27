//! A kinematic character controller for 2D and 3D: move-and-slide of a shape against a
//! [`World`](crate::world::World) with a skin, slope limits (steeper slopes slide),
//! stepping up onto stairs, snapping down to the ground, the ground's handle and
//! normal as output, and moving platforms through the caller's carry. Generic over
//! the vector type like the rest of the crate: one source for `Vec2`, `Vec3`,
//! `DVec2`, `DVec3`.
//!
//! Anchors: rapier's `KinematicCharacterController` (the sequence of shape casts
//! with an offset, the split of a motion into its vertical and horizontal parts on
//! slopes, autostep, snap-to-ground), Box2D v3's mover (`b2World_CastMover`,
//! `b2SolvePlanes`, `b2ClipVector`: the motion clipped against every contact plane
//! met, so creases and corners stop cleanly) and Jolt's `CharacterVirtual` (a
//! character that is not a body; the caller owns its pose).
//!
//! **One move** ([`CharacterController::move_shape`]):
//! 1. *Recover*: contacts closer than half the skin (a platform or a door moved
//!    into the character, or a motion that grazed a surface) push it out to the
//!    skin, the push found by [`solve_planes`] and itself cast, so that it never
//!    crosses another shape.
//! 2. *Slide*: up to `max_iterations` casts of the remaining motion
//!    ([`World::cast_shape_with`](crate::world::World::cast_shape_with) with
//!    [`ShapeCastOptions::mover`](crate::query::ShapeCastOptions::mover)`(skin)`: the
//!    cast stops a skin short of contact and ignores contacts the motion leaves or
//!    grazes, with the internal-edge-corrected normals of meshes and heightfields).
//!    At each hit, the motion left is clipped against every plane met so far. A
//!    walkable plane (`angle ≤ max_slope_climb` from `up`) absorbs the downward part
//!    of the motion (gravity does not slide the character down a slope it can
//!    climb) and carries the horizontal part along its slope; a steeper plane facing
//!    up is also a wall to the horizontal motion (no climbing), and from
//!    `min_slope_slide` on lets the downward motion slide along it. A wall or a step
//!    riser met while grounded is first tried as a step (up by at most
//!    `step.max_height`, forward onto ground at least `step.min_width` deep and
//!    walkable, then down).
//! 3. *Snap*: a character grounded before the move and not moving up is pulled down
//!    onto walkable ground within `snap_to_ground` (walking down slopes and stairs).
//! 4. *Ground*: a cast of one skin down from the final pose finds the walkable ground
//!    (handle, normal, point) within two skins.
//!
//! Every displacement is the safe fraction of a cast, so the character never passes
//! through a surface whatever its speed: a hit stops the motion a skin short.
//!
//! **Moving platforms.** The controller reads the world as it is; the caller moves
//! platforms ([`World::set_pose`](crate::world::World::set_pose)) first, then moves
//! a character whose last [`CharacterMove::ground`] was a platform with
//! [`move_shape_carried`](CharacterController::move_shape_carried) and a [`Carry`]:
//! the platform's displacement of the ground point ([`platform_displacement`]),
//! cast against everything but the platform, before the character's own motion.
//! A platform (or a door) that moved into a character it does not carry is
//! resolved by step 1.
//!
//! **Bad input.** The controller's constructor and builders refuse NaN, infinite or
//! negative lengths and angles outside `[0, π/2]` with a [`ShapeError`] naming the
//! field; a controller whose public fields were set to such values makes every move
//! answer [`CharacterError::Invalid`]. A NaN or infinite desired motion or pose is
//! refused the same way (the character does not move). A zero desired motion
//! is valid: the character only recovers from overlaps, snaps and reports its
//! ground. [`move_handle`](CharacterController::move_handle) with a handle of no
//! live shape answers [`CharacterError::StaleHandle`]; a shape moved with
//! [`move_shape`](CharacterController::move_shape) need not be in the world (when it
//! is, exclude it with the filter, or it collides with itself).
//!
//! Tolerances: [`PLANE_SOLVER_ITERATIONS`], [`PLANE_SOLVER_ULPS`],
//! [`MAX_ITERATIONS_LIMIT`], [`MIN_MOVE_ULPS`], [`MAX_SINK_SKINS`], [`RECOVER_SKINS`]; all lengths scale
//! with the skin.

mod motion;
mod planes;

pub use motion::Carry;
pub use planes::{solve_planes, PLANE_SOLVER_ITERATIONS, PLANE_SOLVER_ULPS};

use crate::math::{Isometry, Real, Vector};
use crate::shape::error::{check_finite_scalar, check_non_negative};
use crate::shape::ShapeError;
use crate::world::{Handle, WorldError};

/// The largest `max_iterations` a controller accepts: a slide never needs more than
/// a few casts (rapier uses up to 20), and the cap bounds the work of one move.
pub const MAX_ITERATIONS_LIMIT: u32 = 64;

/// A motion shorter than this many machine epsilons of the larger of the skin and the
/// pose's coordinates is no motion: the slide stops (no cast of a zero vector).
pub const MIN_MOVE_ULPS: f64 = 64.0;

/// What a move may sink into a surface its motion grazes, in skins: a mover cast
/// ignores a contact approached at a slope under `APPROACH_SQRT_ULPS · √ε` (see
/// [`cast_options`](crate::query::cast_options): `5.5e-3` in `f32`, `2.4e-7` in
/// `f64`), so each cast of a move covers at most `MAX_SINK_SKINS · skin / (slope ·
/// max_iterations)`. A move travels at most `MAX_SINK_SKINS · skin / slope`: 45 skins
/// in `f32` (0.9 for a skin of 0.02), 10⁶ in `f64`; a longer desired motion is cut
/// there (sub-step, or use a larger skin or `f64`, for faster characters).
pub const MAX_SINK_SKINS: f64 = 0.25;

/// A contact closer than this many skins at the start of a move is pushed out to the
/// skin (step 1 of the module docs): with [`MAX_SINK_SKINS`], the character never
/// comes closer than a quarter skin to any surface it did not hit.
pub const RECOVER_SKINS: f64 = 0.5;

const NAME: &str = "CharacterController";

/// Stepping onto stairs and ledges.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct StepSettings<S> {
    /// The highest step climbed (`≥ 0`, a length along `up`).
    pub max_height: S,
    /// The least depth of walkable ground on top of the step (`≥ 0`): narrower ledges
    /// are not climbed.
    pub min_width: S,
}

/// A kinematic character controller (see the module docs). Lengths are in world
/// units, angles in radians from `up`.
///
/// ```
/// use isect::d3::*;
/// use isect::character::CharacterController;
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let mut world = World::new();
/// let floor = Aabb::from_center(Vec3::new(0.0, -1.0, 0.0), Vec3::new(50.0, 1.0, 50.0))?;
/// world.insert_static(Shape::Cuboid(floor), Pose::IDENTITY, Filter::ALL)?;
/// let capsule: AnyShape = Shape::Capsule(Capsule::new(Vec3::new(0.0, 0.5, 0.0), Vec3::new(0.0, 1.5, 0.0), 0.5)?).into();
/// let controller = CharacterController::new(Vec3::Y, 0.01)?
///     .with_step(0.3, 0.1)?
///     .with_snap_to_ground(0.3)?;
/// let mut pose = Pose::from_translation(Vec3::new(0.0, 0.01, 0.0));
/// for _ in 0..60 {
///     // Walk along +x under gravity.
///     let step = controller.move_shape(&world, &capsule, &pose, Vec3::new(0.05, -0.1, 0.0), Filter::ALL)?;
///     pose = Pose::from_translation(pose.translation + step.translation);
///     assert!(step.grounded);
/// }
/// assert!((pose.translation.x - 3.0).abs() < 1e-3 && pose.translation.y > 0.0);
/// # Ok(())
/// # }
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct CharacterController<V: Vector> {
    /// The unit up direction (against gravity).
    pub up: V,
    /// The gap kept between the character and every surface (`> 0`): casts stop this
    /// short of contact, and ground within two skins is ground.
    pub skin: V::Scalar,
    /// The steepest walkable slope, radians from `up` in `[0, π/2]` (default `π/4`):
    /// steeper surfaces are not climbed and give no ground.
    pub max_slope_climb: V::Scalar,
    /// The gentlest slope the character slides down, radians in `[0, π/2]` (default
    /// `π/4`): a downward motion against a steeper non-walkable surface slides along
    /// it. Walkable slopes never slide.
    pub min_slope_slide: V::Scalar,
    /// Stair stepping, or `None` (the default) for none.
    pub step: Option<StepSettings<V::Scalar>>,
    /// The farthest drop the character is pulled down onto walkable ground after a
    /// move that started grounded and does not go up (walking down slopes and
    /// stairs); `None` (the default) for no snapping.
    pub snap_to_ground: Option<V::Scalar>,
    /// The most casts of one slide (default 4), in `1..=`[`MAX_ITERATIONS_LIMIT`].
    pub max_iterations: u32,
}

/// Why a move was refused; the character did not move.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum CharacterError {
    /// A controller field, the desired motion or the pose is refused; the
    /// [`ShapeError`] names it (`CharacterController.skin`, `.desired_translation`,
    /// `.pose.rotation`, ...).
    Invalid(ShapeError),
    /// [`CharacterController::move_handle`] was given a handle of no live shape.
    StaleHandle(Handle),
}

impl core::fmt::Display for CharacterError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Invalid(e) => write!(f, "CharacterController: {e}"),
            Self::StaleHandle(h) => write!(
                f,
                "CharacterController: the caster's handle (slot {}, generation {}) names no live shape",
                h.index(),
                h.generation()
            ),
        }
    }
}

impl std::error::Error for CharacterError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Invalid(e) => Some(e),
            Self::StaleHandle(_) => None,
        }
    }
}

impl From<ShapeError> for CharacterError {
    fn from(e: ShapeError) -> Self {
        Self::Invalid(e)
    }
}

impl From<WorldError> for CharacterError {
    fn from(e: WorldError) -> Self {
        match e {
            WorldError::StaleHandle(h) => Self::StaleHandle(h),
            WorldError::Invalid(e) => Self::Invalid(e),
            _ => Self::Invalid(ShapeError::NotFinite {
                shape: NAME,
                field: "world",
            }),
        }
    }
}

/// The ground a character stands on.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Ground<V> {
    /// The ground's shape.
    pub handle: Handle,
    /// Its unit normal (pointing at the character), walkable.
    pub normal: V,
    /// The point of the ground nearest the character.
    pub point: V,
}

/// A surface the slide met.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct CharacterCollision<V> {
    /// The shape met.
    pub handle: Handle,
    /// Its unit normal at the hit (pointing at the character).
    pub normal: V,
    /// The point of the shape hit.
    pub point: V,
    /// The character's translation within this move when it met the shape.
    pub translation: V,
    /// The motion that was left when it met the shape (before clipping).
    pub remaining: V,
}

/// What one move did.
#[derive(Clone, Debug, PartialEq)]
pub struct CharacterMove<V> {
    /// The translation to apply to the character's pose.
    pub translation: V,
    /// True when walkable ground lies within two skins below the final pose.
    pub grounded: bool,
    /// That ground, when grounded.
    pub ground: Option<Ground<V>>,
    /// True when the slide met a surface too steep to climb and moved down along it.
    pub sliding_down: bool,
    /// True when the character stepped up onto a step (a riser or an edge within
    /// `max_height`).
    pub stepped: bool,
    /// True when snap-to-ground pulled the character down.
    pub snapped: bool,
    /// The surfaces met, in order.
    pub collisions: Vec<CharacterCollision<V>>,
    /// The casts of the slide (at most `max_iterations`).
    pub iterations: u32,
}

/// The displacement of a point carried by a platform that moved from `old` to `new`
/// (rotation included): `new · old⁻¹ · point − point`. Add it to the desired motion of
/// a character standing on the platform (its [`Ground::point`]).
///
/// ```
/// use isect::d2::*;
/// use isect::character::platform_displacement;
///
/// let old = Pose::new(Vec2::ZERO, 0.0);
/// let new = Pose::new(Vec2::new(1.0, 0.0), std::f32::consts::FRAC_PI_2);
/// // A point one unit right of the platform's centre is carried a quarter turn and one unit right.
/// let d = platform_displacement(&old, &new, Vec2::new(1.0, 0.0));
/// assert!((d - Vec2::new(0.0, 1.0)).length() < 1e-6);
/// ```
pub fn platform_displacement<V: Vector>(old: &V::Pose, new: &V::Pose, point: V) -> V {
    new.transform_point(old.inverse_transform_point(point)) - point
}

fn angle_check<S: Real>(field: &'static str, a: S) -> Result<S, ShapeError> {
    let a = check_finite_scalar(NAME, field, a)?;
    if a >= S::ZERO && a <= S::PI * S::HALF {
        Ok(a)
    } else {
        Err(ShapeError::OutOfRange {
            shape: NAME,
            field,
            value: a.to_f64(),
            range: "[0, π/2] radians",
        })
    }
}

fn skin_check<S: Real>(skin: S) -> Result<S, ShapeError> {
    let skin = check_non_negative(NAME, "skin", skin)?;
    if skin > S::ZERO {
        Ok(skin)
    } else {
        Err(ShapeError::OutOfRange {
            shape: NAME,
            field: "skin",
            value: 0.0,
            range: "(0, ∞)",
        })
    }
}

impl<V: Vector> CharacterController<V> {
    /// A controller with `up` (normalised) and `skin`, slopes up to `π/4` walkable and
    /// steeper ones sliding, no step, no snap, 4 iterations.
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] / [`ShapeError::ZeroVector`] for `up`;
    /// [`ShapeError::NotFinite`], [`ShapeError::Negative`] or
    /// [`ShapeError::OutOfRange`] (zero) for `skin`.
    pub fn new(up: V, skin: V::Scalar) -> Result<Self, ShapeError> {
        let quarter = V::Scalar::PI * V::Scalar::from_f64(0.25);
        let controller = Self {
            up,
            skin,
            max_slope_climb: quarter,
            min_slope_slide: quarter,
            step: None,
            snap_to_ground: None,
            max_iterations: 4,
        };
        controller.validate()?;
        Ok(Self {
            up: controller.unit_up()?,
            ..controller
        })
    }

    /// This controller with other slope limits (radians from `up`).
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] or [`ShapeError::OutOfRange`] for an angle outside
    /// `[0, π/2]`.
    pub fn with_slopes(
        self,
        max_slope_climb: V::Scalar,
        min_slope_slide: V::Scalar,
    ) -> Result<Self, ShapeError> {
        Ok(Self {
            max_slope_climb: angle_check("max_slope_climb", max_slope_climb)?,
            min_slope_slide: angle_check("min_slope_slide", min_slope_slide)?,
            ..self
        })
    }

    /// This controller climbing steps up to `max_height` onto ledges at least
    /// `min_width` deep.
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] or [`ShapeError::Negative`] naming `step.max_height`
    /// or `step.min_width`.
    pub fn with_step(
        self,
        max_height: V::Scalar,
        min_width: V::Scalar,
    ) -> Result<Self, ShapeError> {
        let step = StepSettings {
            max_height: check_non_negative(NAME, "step.max_height", max_height)?,
            min_width: check_non_negative(NAME, "step.min_width", min_width)?,
        };
        Ok(Self {
            step: Some(step),
            ..self
        })
    }

    /// This controller snapping down onto ground within `distance`.
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] or [`ShapeError::Negative`] naming `snap_to_ground`.
    pub fn with_snap_to_ground(self, distance: V::Scalar) -> Result<Self, ShapeError> {
        Ok(Self {
            snap_to_ground: Some(check_non_negative(NAME, "snap_to_ground", distance)?),
            ..self
        })
    }

    /// This controller with at most `n` casts a slide.
    ///
    /// # Errors
    /// [`ShapeError::OutOfRange`] outside `1..=`[`MAX_ITERATIONS_LIMIT`].
    pub fn with_max_iterations(self, n: u32) -> Result<Self, ShapeError> {
        if !(1..=MAX_ITERATIONS_LIMIT).contains(&n) {
            return Err(ShapeError::OutOfRange {
                shape: NAME,
                field: "max_iterations",
                value: f64::from(n),
                range: "1..=64",
            });
        }
        Ok(Self {
            max_iterations: n,
            ..self
        })
    }

    /// Checks every field as the constructor and builders do (a controller whose
    /// public fields were edited); every move calls it.
    ///
    /// # Errors
    /// The [`ShapeError`] naming the first bad field.
    pub fn validate(&self) -> Result<(), ShapeError> {
        self.unit_up()?;
        skin_check(self.skin)?;
        angle_check("max_slope_climb", self.max_slope_climb)?;
        angle_check("min_slope_slide", self.min_slope_slide)?;
        if let Some(step) = self.step {
            Self::new_step_checked(step)?;
        }
        if let Some(snap) = self.snap_to_ground {
            check_non_negative(NAME, "snap_to_ground", snap)?;
        }
        self.with_max_iterations(self.max_iterations).map(|_| ())
    }

    fn new_step_checked(step: StepSettings<V::Scalar>) -> Result<(), ShapeError> {
        check_non_negative(NAME, "step.max_height", step.max_height)?;
        check_non_negative(NAME, "step.min_width", step.min_width).map(|_| ())
    }

    /// `up` made unit, or the error naming it.
    fn unit_up(&self) -> Result<V, ShapeError> {
        if !self.up.is_finite() {
            return Err(ShapeError::NotFinite {
                shape: NAME,
                field: "up",
            });
        }
        self.up.try_normalize().ok_or(ShapeError::ZeroVector {
            shape: NAME,
            field: "up",
        })
    }
}
