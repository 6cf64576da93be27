//! One move of the character controller: recover, slide (with steps), snap, ground
//! (the steps of the module docs), each built on the world's mover casts.

// `!(x >= y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::{
    solve_planes, CharacterCollision, CharacterController, CharacterError, CharacterMove, Ground,
    MAX_SINK_SKINS, MIN_MOVE_ULPS, NAME, RECOVER_SKINS,
};
use crate::algo::gjk::GjkVector;
use crate::math::{Isometry, Real, Vector};
use crate::query::cast_options::APPROACH_SQRT_ULPS;
use crate::query::dispatch::{self, DispatchShape};
use crate::query::{ShapeCastHit, ShapeCastOptions};
use crate::shape::error::{check_finite, check_pose};
use crate::shape::Ray;
use crate::world::{Handle, QueryFilter, World};

/// Two normals closer than this (`1 − cos`) are one plane for the slide's solver.
const SAME_PLANE: f64 = 1e-6;

impl<V: GjkVector> CharacterController<V> {
    /// Moves `shape` at `pose` by `desired` against the shapes of `world` that
    /// `filter` allows, and returns the translation to apply and what the move met
    /// (see the module docs for the steps). The world is not changed: apply the
    /// translation to the character's pose (and to its shape in the world, if it is
    /// one of them, with [`World::set_pose`]).
    ///
    /// ```
    /// use isect::d2::*;
    /// use isect::character::CharacterController;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut world = World::new();
    /// world.insert_static(Shape::Cuboid(Aabb::new(Vec2::new(-10.0, -1.0), Vec2::new(10.0, 0.0))?), Pose::IDENTITY, Filter::ALL)?;
    /// world.insert_static(Shape::Cuboid(Aabb::new(Vec2::new(2.0, 0.0), Vec2::new(2.1, 5.0))?), Pose::IDENTITY, Filter::ALL)?;
    /// let body: AnyShape = Shape::Capsule(Capsule::new(Vec2::new(0.0, 0.5), Vec2::new(0.0, 1.0), 0.5)?).into();
    /// let controller = CharacterController::new(Vec2::Y, 0.1)?;
    /// let pose = Pose::from_translation(Vec2::new(0.0, 0.1));
    /// // A fast move to the right under gravity stops a skin short of the wall at x = 2.
    /// let m = controller.move_shape(&world, &body, &pose, Vec2::new(3.0, -1.0), Filter::ALL)?;
    /// assert!((m.translation.x - 1.4).abs() < 1e-3 && m.translation.y.abs() < 1e-3);
    /// assert!(m.grounded && m.collisions.len() >= 1);
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    /// [`CharacterError::Invalid`] for a bad controller field, a NaN or infinite
    /// `desired` (`desired_translation`), or a refused `pose` (`pose.rotation`,
    /// `pose.translation`, as [`World::insert`] refuses them).
    pub fn move_shape<'f, S: DispatchShape<V> + Sync>(
        &self,
        world: &World<V, S>,
        shape: &S,
        pose: &V::Pose,
        desired: V,
        filter: impl Into<QueryFilter<'f>>,
    ) -> Result<CharacterMove<V>, CharacterError> {
        self.validate()?;
        let desired = check_finite(NAME, "desired_translation", desired)?;
        let pose = check_pose::<V, V::Pose>(NAME, "pose.rotation", "pose.translation", pose)?;
        let options = ShapeCastOptions::mover(self.skin)?;
        let mover = Mover {
            world,
            shape,
            pose,
            filter: filter.into(),
            up: self.unit_up()?,
            options,
            controller: self,
        };
        Ok(mover.run(desired))
    }

    /// [`move_shape`](Self::move_shape) for the shape `handle` of `world`, at its pose
    /// in the world and excluded from the casts. The world is not changed.
    ///
    /// ```
    /// use isect::d2::*;
    /// use isect::character::CharacterController;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // A character in the world, standing on a floor (top y = 0) 1.5 left of a wall at
    /// // x = 2: moving it right by 3 stops it a skin (0.1) short of the wall.
    /// let mut world = World::new();
    /// world.insert_static(Shape::Cuboid(Aabb::new(Vec2::new(-10.0, -1.0), Vec2::new(10.0, 0.0))?), Pose::IDENTITY, Filter::ALL)?;
    /// world.insert_static(Shape::Cuboid(Aabb::new(Vec2::new(2.0, 0.0), Vec2::new(2.1, 5.0))?), Pose::IDENTITY, Filter::ALL)?;
    /// let body = Shape::Capsule(Capsule::new(Vec2::new(0.0, 0.5), Vec2::new(0.0, 1.0), 0.5)?);
    /// let me = world.insert(body, Pose::from_translation(Vec2::new(0.0, 0.1)), Filter::ALL)?;
    /// let controller = CharacterController::new(Vec2::Y, 0.1)?;
    /// // The character's own shape is left out of the casts.
    /// let m = controller.move_handle(&world, me, Vec2::new(3.0, 0.0), Filter::ALL)?;
    /// assert!((m.translation.x - 1.4).abs() < 1e-3 && m.translation.y.abs() < 1e-3);
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    /// [`CharacterError::StaleHandle`] when `handle` names no live shape; otherwise as
    /// [`move_shape`](Self::move_shape).
    pub fn move_handle<'f, S: DispatchShape<V> + Sync>(
        &self,
        world: &World<V, S>,
        handle: Handle,
        desired: V,
        filter: impl Into<QueryFilter<'f>>,
    ) -> Result<CharacterMove<V>, CharacterError> {
        let (Some(shape), Some(pose)) = (world.shape(handle), world.pose(handle)) else {
            return Err(CharacterError::StaleHandle(handle));
        };
        let filter = filter.into();
        let mut exclude = filter.exclude.to_vec();
        exclude.push(handle);
        self.move_shape(world, shape, pose, desired, filter.excluding(&exclude))
    }
}

/// A platform carrying a character: the platform's shape and the displacement it
/// gave the character's ground point this frame ([`platform_displacement`](super::platform_displacement)).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Carry<V> {
    /// The platform (the character's last [`Ground::handle`]).
    pub handle: Handle,
    /// How far the platform carried the ground point since the last move.
    pub displacement: V,
}

impl<V: GjkVector> CharacterController<V> {
    /// [`move_shape`](Self::move_shape) of a character standing on a moving platform
    /// that the caller has already moved: the character is first carried by
    /// `carry.displacement`, cast against every shape but the platform (it stops a
    /// skin short of a wall or a ceiling), then moves by `desired` as usual. The
    /// returned translation holds both. Moving platforms in one frame: move the
    /// platforms ([`World::set_pose`]), then move each character whose last ground
    /// was one with the platform's [`platform_displacement`](super::platform_displacement) of its ground point.
    ///
    /// ```
    /// use isect::d3::*;
    /// use isect::character::{platform_displacement, Carry, CharacterController};
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut world = World::new();
    /// let deck = Aabb::from_center(Vec3::ZERO, Vec3::new(2.0, 0.25, 2.0))?;
    /// let old = Pose::from_translation(Vec3::new(0.0, -0.25, 0.0));
    /// let platform = world.insert(Shape::Cuboid(deck), old, Filter::ALL)?;
    /// let body: AnyShape = Shape::Capsule(Capsule::new(Vec3::new(0.0, 0.4, 0.0), Vec3::new(0.0, 1.4, 0.0), 0.4)?).into();
    /// let controller = CharacterController::new(Vec3::Y, 0.02)?;
    /// let pose = Pose::from_translation(Vec3::new(0.0, 0.02, 0.0));
    /// let ground = controller.move_shape(&world, &body, &pose, Vec3::ZERO, Filter::ALL)?.ground.expect("on the deck");
    /// // The platform rises by 0.5: the character rises with it.
    /// let new = Pose::from_translation(Vec3::new(0.0, 0.25, 0.0));
    /// world.set_pose(platform, new)?;
    /// let carry = Carry { handle: ground.handle, displacement: platform_displacement(&old, &new, ground.point) };
    /// let m = controller.move_shape_carried(&world, &body, &pose, carry, Vec3::new(0.0, -0.1, 0.0), Filter::ALL)?;
    /// assert!((m.translation - Vec3::new(0.0, 0.5, 0.0)).length() < 1e-4 && m.grounded);
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// The carry is one cast, cut like each cast of a move (see
    /// [`MAX_SINK_SKINS`]: 11 skins in `f32` with 4
    /// iterations).
    ///
    /// # Errors
    /// As [`move_shape`](Self::move_shape); a NaN or infinite displacement is
    /// refused as `carry.displacement`.
    pub fn move_shape_carried<'f, S: DispatchShape<V> + Sync>(
        &self,
        world: &World<V, S>,
        shape: &S,
        pose: &V::Pose,
        carry: Carry<V>,
        desired: V,
        filter: impl Into<QueryFilter<'f>>,
    ) -> Result<CharacterMove<V>, CharacterError> {
        self.validate()?;
        let displacement = check_finite(NAME, "carry.displacement", carry.displacement)?;
        let pose = check_pose::<V, V::Pose>(NAME, "pose.rotation", "pose.translation", pose)?;
        let filter = filter.into();
        let mut exclude = filter.exclude.to_vec();
        exclude.push(carry.handle);
        let options = ShapeCastOptions::mover(self.skin)?;
        let others = filter.excluding(&exclude);
        let one = V::Scalar::ONE;
        let length = displacement.length();
        let reach = (max_cast::<V>(self.skin, self.max_iterations) / length).min(one);
        let displacement = if length > V::Scalar::ZERO {
            displacement * reach
        } else {
            displacement
        };
        let carried = world
            .cast_shape_with(&pose, displacement, shape, one, &options, others)
            .map_or(displacement, |(_, hit)| displacement * hit.time);
        let moved = V::Pose::from_translation(carried).mul(&pose);
        let mut m = self.move_shape(world, shape, &moved, desired, filter)?;
        m.translation += carried;
        for c in &mut m.collisions {
            c.translation += carried;
        }
        Ok(m)
    }
}

/// One move in progress: the world, the character and the options of its casts.
struct Mover<'a, V: GjkVector, S> {
    world: &'a World<V, S>,
    shape: &'a S,
    pose: V::Pose,
    filter: QueryFilter<'a>,
    up: V,
    options: ShapeCastOptions<V::Scalar>,
    controller: &'a CharacterController<V>,
}

/// The slide's state: the translation so far and what it met.
struct Slide<V: Vector> {
    offset: V,
    planes: Vec<V>,
    collisions: Vec<CharacterCollision<V>>,
    sliding_down: bool,
    stepped: bool,
    iterations: u32,
}

/// How a surface met counts for the character.
#[derive(Copy, Clone, PartialEq)]
enum Surface<V> {
    /// Walkable ground.
    Ground,
    /// The edge of a step within reach (`step.max_height`) whose top face (this
    /// normal) is walkable: ground that the motion climbs over like a ramp.
    Ledge(V),
    /// Facing up but too steep to climb; `slides` from `min_slope_slide` on.
    Steep { slides: bool },
    /// A wall or a ceiling.
    Wall,
}

impl<V> Surface<V> {
    fn holds(&self) -> bool {
        matches!(
            self,
            Self::Ground | Self::Ledge(_) | Self::Steep { slides: false }
        )
    }

    fn walkable(&self) -> bool {
        matches!(self, Self::Ground | Self::Ledge(_))
    }
}

impl<V: GjkVector, S: DispatchShape<V> + Sync> Mover<'_, V, S> {
    fn run(&self, desired: V) -> CharacterMove<V> {
        let grounded_before = self.ground_at(V::ZERO).is_some();
        let mut slide = Slide {
            offset: self.recover(),
            planes: Vec::new(),
            collisions: Vec::new(),
            sliding_down: false,
            stepped: false,
            iterations: 0,
        };
        self.slide(&mut slide, desired, grounded_before);
        let snapped = grounded_before && desired.dot(self.up) <= V::Scalar::ZERO && {
            let before = slide.offset;
            slide.offset = self.snap(slide.offset);
            slide.offset != before
        };
        let ground = self.ground_at(slide.offset);
        CharacterMove {
            translation: slide.offset,
            grounded: ground.is_some(),
            ground,
            sliding_down: slide.sliding_down,
            stepped: slide.stepped,
            snapped,
            collisions: slide.collisions,
            iterations: slide.iterations,
        }
    }

    /// The character's pose moved by `offset`.
    fn at(&self, offset: V) -> V::Pose {
        V::Pose::from_translation(offset).mul(&self.pose)
    }

    /// The first hit of the character moved by `offset` and cast along `motion` (time
    /// in units of `motion`), a skin short of contact.
    fn cast(&self, offset: V, motion: V) -> Option<(Handle, ShapeCastHit<V>)> {
        let pose = self.at(offset);
        let (world, shape, options) = (self.world, self.shape, &self.options);
        world.cast_shape_with(&pose, motion, shape, V::Scalar::ONE, options, self.filter)
    }

    /// The length below which a motion is none (see [`MIN_MOVE_ULPS`]).
    fn min_move(&self) -> V::Scalar {
        let scale = self
            .pose
            .translation()
            .abs()
            .max_element()
            .max(self.controller.skin);
        scale * V::Scalar::EPSILON * V::Scalar::from_f64(MIN_MOVE_ULPS)
    }

    /// The height along `up` of the character's lowest point when moved by `offset`
    /// (from its world box: exact for an up along an axis, a little low otherwise).
    fn foot(&self, offset: V) -> V::Scalar {
        let b = self.shape.world_aabb(&self.at(offset));
        (0..V::DIM).fold(V::Scalar::ZERO, |sum, i| {
            let u = self.up.get(i);
            let side = if u >= V::Scalar::ZERO { b.min } else { b.max };
            sum + u * side.get(i)
        })
    }

    /// What the surface of `hit`, met by the character moved by `offset`, is to it.
    fn classify(&self, offset: V, hit: &ShapeCastHit<V>) -> Surface<V> {
        let c = self.controller;
        let rise = hit.normal.dot(self.up);
        if !(rise > V::Scalar::ZERO) {
            return Surface::Wall;
        }
        // A tilted contact may be a step's edge: its top face, not the tilt, is
        // the ground (riding the tilt of a far move would fly off the edge).
        let tilted = rise < V::Scalar::ONE - V::Scalar::from_f64(SAME_PLANE);
        if let Some(face) = tilted.then(|| self.ledge_face(offset, hit)).flatten() {
            if V::Scalar::ONE - face.dot(hit.normal) > V::Scalar::from_f64(SAME_PLANE) {
                return Surface::Ledge(face);
            }
        }
        if rise >= c.max_slope_climb.cos() {
            return Surface::Ground;
        }
        Surface::Steep {
            slides: rise <= c.min_slope_slide.cos(),
        }
    }

    /// The walkable top face behind the contact of `hit` when it is the edge of a
    /// step within reach: the contact at most `step.max_height` above the character's
    /// foot less the skin, and a ray down just behind the edge (a skin into the step)
    /// meeting a walkable face within two skins of the contact's height.
    fn ledge_face(&self, offset: V, hit: &ShapeCastHit<V>) -> Option<V> {
        let step = self.controller.step?;
        let (up, skin) = (self.up, self.controller.skin);
        let height = hit.point_a.dot(up) - self.foot(offset) + skin;
        if !(height <= step.max_height) {
            return None;
        }
        let away = (hit.normal - up * hit.normal.dot(up)).try_normalize()?;
        let two = skin + skin;
        let ray = Ray {
            origin: hit.point_a - away * skin + up * two,
            dir: -up,
        };
        let top = self.world.cast_ray(&ray, two + two, self.filter)?.hit;
        let walkable = top.normal.dot(up) >= self.controller.max_slope_climb.cos();
        (top.t > V::Scalar::ZERO && walkable).then_some(top.normal)
    }

    /// The walkable ground within two skins below the character moved by `offset`:
    /// the first surface a cast one skin down meets, or when that one is not walkable
    /// (a steep face beside the character), what a ray down from the middle of the
    /// character's foot meets.
    fn ground_at(&self, offset: V) -> Option<Ground<V>> {
        let (handle, hit) = self.cast(offset, -self.up * self.controller.skin)?;
        let normal = match self.classify(offset, &hit) {
            Surface::Ground => hit.normal,
            Surface::Ledge(face) => face,
            _ => return self.ground_below(offset),
        };
        Some(Ground {
            handle,
            normal,
            point: hit.point_a,
        })
    }

    /// The walkable ground a ray meets within two skins below the middle of the foot
    /// of the character moved by `offset`.
    fn ground_below(&self, offset: V) -> Option<Ground<V>> {
        let (up, skin) = (self.up, self.controller.skin);
        let b = self.shape.world_aabb(&self.at(offset));
        let middle = (b.min + b.max) * V::Scalar::HALF;
        let ray = Ray {
            origin: middle + up * (self.foot(offset) + skin - middle.dot(up)),
            dir: -up,
        };
        let found = self
            .world
            .cast_ray(&ray, skin * V::Scalar::from_f64(3.0), self.filter)?;
        let walkable = found.hit.normal.dot(up) >= self.controller.max_slope_climb.cos();
        (found.hit.t > V::Scalar::ZERO && walkable).then_some(Ground {
            handle: found.handle,
            normal: found.hit.normal,
            point: found.hit.point,
        })
    }

    /// The offset out of the shapes the character overlaps or nearly touches (step 1
    /// of the module docs): when a contact is closer than [`RECOVER_SKINS`] skins,
    /// each contact within the skin is a plane to be pushed out to the skin; the push
    /// is solved and then cast.
    fn recover(&self) -> V {
        let skin = self.controller.skin;
        let here = self.at(V::ZERO);
        let region = self.shape.world_aabb(&here).loosened(skin);
        let mut planes = Vec::new();
        let mut deepest = -skin;
        for handle in self.world.shapes_in_aabb(&region, self.filter) {
            let (Some(other), Some(pose)) = (self.world.shape(handle), self.world.pose(handle))
            else {
                continue;
            };
            if let Some(c) = dispatch::contact(pose, other, &here, self.shape, skin) {
                deepest = deepest.max(c.depth);
                planes.push((c.normal, c.depth + skin));
            }
        }
        if !(deepest > -skin * V::Scalar::from_f64(RECOVER_SKINS)) {
            return V::ZERO;
        }
        let push = solve_pushes(&planes);
        match self.cast(V::ZERO, push) {
            Some((_, hit)) => push * hit.time,
            None => push,
        }
    }

    /// Step 2 of the module docs: up to `max_iterations` casts, each hit clipping the
    /// motion left (or climbing a step). A cast covers at most [`Self::max_cast`].
    fn slide(&self, slide: &mut Slide<V>, desired: V, grounded_before: bool) {
        let mut remaining = desired;
        let mut ground: Option<V> = None;
        while slide.iterations < self.controller.max_iterations {
            let length = remaining.length();
            if !(length > self.min_move()) {
                return;
            }
            slide.iterations += 1;
            let piece = remaining * (self.max_cast() / length).min(V::Scalar::ONE);
            let Some((handle, hit)) = self.cast(slide.offset, piece) else {
                slide.offset += piece;
                remaining -= piece;
                continue;
            };
            let done = piece * hit.time;
            let left = remaining - done;
            slide.offset += done;
            slide.collisions.push(CharacterCollision {
                handle,
                normal: hit.normal,
                point: hit.point_a,
                translation: slide.offset,
                remaining: left,
            });
            let surface = self.classify(slide.offset, &hit);
            let standing = grounded_before || ground.is_some();
            if !matches!(surface, Surface::Ground) && standing {
                if let Some((offset, rest)) = self.step_up(slide.offset, left) {
                    (slide.offset, remaining, slide.stepped) = (offset, rest, true);
                    continue;
                }
            }
            remaining = self.clip(slide, left, hit.normal, surface, &mut ground);
        }
    }

    /// The longest cast of the slide ([`max_cast`]).
    fn max_cast(&self) -> V::Scalar {
        max_cast::<V>(self.controller.skin, self.controller.max_iterations)
    }

    /// The motion `left` after meeting a surface: its planes added to the slide's, the
    /// downward part dropped on ground that holds, the horizontal part carried along
    /// the ground's slope (over a ledge's edge), then solved against every plane met.
    fn clip(
        &self,
        slide: &mut Slide<V>,
        left: V,
        normal: V,
        surface: Surface<V>,
        ground: &mut Option<V>,
    ) -> V {
        let up = self.up;
        add_plane(&mut slide.planes, normal);
        match surface {
            Surface::Ground | Surface::Ledge(_) => *ground = Some(normal),
            Surface::Steep { .. } => {
                if let Some(wall) = (normal - up * normal.dot(up)).try_normalize() {
                    add_plane(&mut slide.planes, wall);
                }
            }
            Surface::Wall => {}
        }
        let mut target = left;
        let rise = target.dot(up);
        if (ground.is_some() || surface.holds()) && rise < V::Scalar::ZERO {
            target -= up * rise;
        }
        if let Some(g) = *ground {
            target = along_slope(target, g, up);
        }
        let mut d = solve_planes(target, &slide.planes);
        if let Surface::Steep { slides } = surface {
            // Pushing into a steep face never climbs it: no rise beyond the motion's own.
            let excess = d.dot(up) - target.dot(up).max(V::Scalar::ZERO);
            if excess > V::Scalar::ZERO {
                d -= up * excess;
            }
            slide.sliding_down |= slides && d.dot(up) < V::Scalar::ZERO;
        }
        d
    }

    /// The step up a riser met with the motion `left` left, from `offset`: up by at
    /// most `max_height`, forward by the horizontal motion (the way clear for at
    /// least `min_width`), down onto walkable ground at most `max_height` above the
    /// ground left. `None` when any of it fails.
    fn step_up(&self, offset: V, left: V) -> Option<(V, V)> {
        let step = self.controller.step?;
        let (up, skin) = (self.up, self.controller.skin);
        let horizontal = left - up * left.dot(up);
        let len = horizontal.length();
        if !(len > self.min_move()) {
            return None;
        }
        let dir = horizontal / len;
        let rise = up * step.max_height;
        let lift = self
            .cast(offset, rise)
            .map_or(V::Scalar::ONE, |(_, h)| h.time);
        let raised = offset + rise * lift;
        let probe = len.min(self.max_cast()).max(step.min_width);
        let free = self
            .cast(raised, dir * probe)
            .map_or(probe, |(_, h)| h.time * probe);
        if free < step.min_width || !(free > self.min_move()) {
            return None;
        }
        let advance = len.min(free);
        let ahead = raised + dir * advance;
        let drop = up * -(step.max_height * lift + skin);
        let (_, hit) = self.cast(ahead, drop)?;
        let landed = ahead + drop * hit.time;
        let height = hit.point_a.dot(up) - self.foot(offset) + skin;
        let climbed = (landed - offset).dot(up);
        let fits = height <= step.max_height && climbed > V::Scalar::ZERO;
        (fits && self.classify(landed, &hit).walkable()).then(|| (landed, left - dir * advance))
    }

    /// Step 3 of the module docs: pulled down by at most `snap_to_ground` onto
    /// walkable ground, unless already on it.
    fn snap(&self, offset: V) -> V {
        let Some(distance) = self.controller.snap_to_ground else {
            return offset;
        };
        if self.ground_at(offset).is_some() {
            return offset;
        }
        let drop = -self.up * distance;
        match self.cast(offset, drop) {
            Some((_, hit)) => {
                let landed = offset + drop * hit.time;
                match self.classify(landed, &hit).walkable() {
                    true => landed,
                    false => offset,
                }
            }
            None => offset,
        }
    }
}

/// The longest cast of a move with `iterations` casts for a skin: a mover cast
/// ignores a contact its motion approaches at a slope under
/// `APPROACH_SQRT_ULPS · √ε` (see [`cast_options`](crate::query::cast_options)), so a
/// cast of length `L` nearly parallel to a surface may end up to `L` times that slope
/// closer to it; casts of at most [`MAX_SINK_SKINS`] skins over the slope and the
/// iterations keep what a whole move may sink under that part of the skin.
pub(crate) fn max_cast<V: Vector>(skin: V::Scalar, iterations: u32) -> V::Scalar {
    let slope = V::Scalar::EPSILON.sqrt() * V::Scalar::from_f64(APPROACH_SQRT_ULPS);
    let budget = V::Scalar::from_f64(MAX_SINK_SKINS / f64::from(iterations.max(1)));
    skin * budget / slope
}

/// Adds `n` to `planes` unless a plane with (nearly) its normal is there.
fn add_plane<V: Vector>(planes: &mut Vec<V>, n: V) {
    let same = V::Scalar::ONE - V::Scalar::from_f64(SAME_PLANE);
    if !planes.iter().any(|p| p.dot(n) >= same) {
        planes.push(n);
    }
}

/// `motion` with its horizontal part (across `up`) lifted onto the ground of normal
/// `g` along `up`, so that walking up or down a walkable slope keeps its horizontal
/// speed (rapier's slope handling); the vertical part is kept.
fn along_slope<V: Vector>(motion: V, g: V, up: V) -> V {
    let rise = g.dot(up);
    if !(rise > V::Scalar::from_f64(SAME_PLANE)) {
        return motion;
    }
    let vertical = up * motion.dot(up);
    let horizontal = motion - vertical;
    horizontal - up * (horizontal.dot(g) / rise) + vertical
}

/// The least push `p` with `n · p ≥ b` for each plane `(n, b)`: Gauss–Seidel on the
/// pushes, as [`solve_planes`] (Box2D v3's `b2SolvePlanes` with its targets).
fn solve_pushes<V: Vector>(planes: &[(V, V::Scalar)]) -> V {
    let mut pushes = vec![V::Scalar::ZERO; planes.len()];
    let mut p = V::ZERO;
    for _ in 0..super::PLANE_SOLVER_ITERATIONS {
        for ((n, b), push) in planes.iter().zip(pushes.iter_mut()) {
            let new = (*push + *b - n.dot(p)).max(V::Scalar::ZERO);
            p += *n * (new - *push);
            *push = new;
        }
    }
    p
}
