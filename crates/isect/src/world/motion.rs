//! Shapes in motion against the world: straight-line shape casts with options (a
//! skin, whether a starting overlap counts) and the time of impact of a shape moving
//! with rotation, each pruned by the box the motion sweeps and answered by the pair
//! queries of [`dispatch`] (see [`ShapeCastOptions`] for the rules and tolerances).

// `!(x >= y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::{unit_pose, Entry, Handle, QueryFilter, World};
use crate::algo::gjk::GjkVector;
use crate::math::{Isometry, Real};
use crate::query::cast_shapes::Sweep;
use crate::query::dispatch::{self, DispatchShape};
use crate::query::{ShapeCastHit, ShapeCastOptions};
use crate::shape::Aabb;

impl<V: GjkVector, S: DispatchShape<V> + Sync> World<V, S> {
    /// The first shape (allowed by `filter`) that `shape`, starting at `pose` and
    /// translating by `vel` per unit time, touches within `t ∈ [0, max_t]`, with the
    /// hit as [`dispatch::cast_shapes`] reports it (the world shape is A, static; the
    /// cast shape is B). Ties in time go to the smaller handle. A shape already
    /// touching at `t = 0` hits at time 0 (see
    /// [`cast_shape_with`](Self::cast_shape_with) for a mover that may leave a
    /// contact). A non-finite pose or velocity, a refused rotation (see
    /// [`insert`](Self::insert)), or a non-finite or negative `max_t`, hits nothing.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // A unit ball thrown right at speed 2 from the origin towards a wall at x = 9:
    /// // its front reaches the wall at t = 4.
    /// let mut world = World::new();
    /// let wall = Aabb::new(Vec2::new(9.0, -5.0), Vec2::new(10.0, 5.0))?;
    /// let w = world.insert_static(Shape::Cuboid(wall), Pose::IDENTITY, Filter::ALL)?;
    /// let ball: AnyShape = Shape::Ball(Ball::new(Vec2::ZERO, 1.0)?).into();
    /// let (hit, at) = world
    ///     .cast_shape(&Pose::IDENTITY, Vec2::new(2.0, 0.0), &ball, 10.0, Filter::ALL)
    ///     .expect("it reaches the wall");
    /// assert_eq!(hit, w);
    /// assert!((at.time - 4.0).abs() < 1e-5);
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_shape<'f>(
        &self,
        pose: &V::Pose,
        vel: V,
        shape: &S,
        max_t: V::Scalar,
        filter: impl Into<QueryFilter<'f>>,
    ) -> Option<(Handle, ShapeCastHit<V>)> {
        self.cast_shape_with(
            pose,
            vel,
            shape,
            max_t,
            &ShapeCastOptions::default(),
            filter,
        )
    }

    /// [`cast_shape`](Self::cast_shape) with options
    /// ([`dispatch::cast_shapes_with`]): the cast stops `options.target_distance`
    /// short of contact (a skin), and with `stop_at_penetration = false` a shape
    /// touching or slightly inside another and moving out of it or along it is not
    /// hit (a grounded character walks and jumps), one moving deeper is. Exclude the
    /// caster itself with [`QueryFilter::excluding`]. Invalid options hit nothing.
    ///
    /// ```
    /// use isect::d3::*;
    /// use isect::query::ShapeCastOptions;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut world = World::new();
    /// let floor = Aabb::from_center(Vec3::new(0.0, -1.0, 0.0), Vec3::new(10.0, 1.0, 10.0))?;
    /// world.insert_static(Shape::Cuboid(floor), Pose::IDENTITY, Filter::ALL)?;
    /// // A capsule standing on the floor (its bottom at y = 0).
    /// let capsule = Shape::Capsule(Capsule::new(Vec3::new(0.0, 0.5, 0.0), Vec3::new(0.0, 1.5, 0.0), 0.5)?);
    /// let mover = ShapeCastOptions::mover(0.01)?;
    /// let cast = |vel| world.cast_shape_with(&Pose::IDENTITY, vel, &capsule.clone().into(), 1.0, &mover, Filter::ALL);
    /// assert!(cast(Vec3::X).is_none()); // walks
    /// assert!(cast(Vec3::Y).is_none()); // jumps
    /// assert!(cast(-Vec3::Y).is_some_and(|(_, hit)| hit.time == 0.0)); // stands
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_shape_with<'f>(
        &self,
        pose: &V::Pose,
        vel: V,
        shape: &S,
        max_t: V::Scalar,
        options: &ShapeCastOptions<V::Scalar>,
        filter: impl Into<QueryFilter<'f>>,
    ) -> Option<(Handle, ShapeCastHit<V>)> {
        let valid = max_t.is_finite() && max_t >= V::Scalar::ZERO && vel.is_finite();
        if !(valid && options.is_valid()) {
            return None;
        }
        let pose = &unit_pose::<V>(pose).ok()?;
        let start = shape.world_aabb(pose);
        let end = Aabb {
            min: start.min + vel * max_t,
            max: start.max + vel * max_t,
        };
        let region = start.merged(&end).loosened(options.target_distance);
        self.earliest_in(&region, &filter.into(), |e| {
            dispatch::cast_shapes_with(&e.pose, V::ZERO, &e.shape, pose, vel, shape, max_t, options)
        })
    }

    /// The first shape (allowed by `filter`) that `shape`, moving from `sweep.start`
    /// to `sweep.end` over `t ∈ [0, 1]` (translation and rotation interpolated, as
    /// [`Sweep::pose_at`]), touches, with the hit of [`dispatch::time_of_impact_with`]
    /// (the world shape is A, static; the moving shape is B; composites included).
    /// Pruned by the box the motion can reach: the path of the pose's origin grown by
    /// the shape's reach from it and the skin. Ties in time go to the smaller handle.
    /// A refused pose in the sweep (NaN, infinite, far from unit) or invalid options
    /// hit nothing.
    ///
    /// ```
    /// use isect::d3::*;
    /// use isect::query::{cast_shapes::Sweep, ShapeCastOptions};
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut world = World::new();
    /// let wall = Aabb::from_center(Vec3::new(5.0, 0.0, 0.0), Vec3::new(0.01, 5.0, 5.0))?;
    /// let w = world.insert_static(Shape::Cuboid(wall), Pose::IDENTITY, Filter::ALL)?;
    /// // A bar spinning half a turn while it flies through the thin wall.
    /// let bar = Shape::Cuboid(Aabb::from_center(Vec3::ZERO, Vec3::new(1.0, 0.1, 0.1))?);
    /// let sweep = Sweep {
    ///     start: Pose::IDENTITY,
    ///     end: Pose::new(Vec3::new(10.0, 0.0, 0.0), Quat::from_rotation_z(3.0)),
    /// };
    /// let (hit, at) = world
    ///     .time_of_impact(&sweep, &bar.into(), &ShapeCastOptions::default(), Filter::ALL)
    ///     .expect("no tunnelling");
    /// assert!(hit == w && at.time > 0.3 && at.time < 0.5);
    /// # Ok(())
    /// # }
    /// ```
    pub fn time_of_impact<'f>(
        &self,
        sweep: &Sweep<V>,
        shape: &S,
        options: &ShapeCastOptions<V::Scalar>,
        filter: impl Into<QueryFilter<'f>>,
    ) -> Option<(Handle, ShapeCastHit<V>)> {
        let sweep = Sweep {
            start: unit_pose::<V>(&sweep.start).ok()?,
            end: unit_pose::<V>(&sweep.end).ok()?,
        };
        if !options.is_valid() {
            return None;
        }
        let region = swept_region(&sweep, shape).loosened(options.target_distance);
        let rest = |e: &Entry<V, S>| Sweep {
            start: e.pose,
            end: e.pose,
        };
        self.earliest_in(&region, &filter.into(), |e| {
            dispatch::time_of_impact_with(&rest(e), &e.shape, &sweep, shape, options)
        })
    }

    /// The earliest hit (ties: the smaller handle) of `hit` over the allowed shapes
    /// whose tight boxes meet `region`.
    fn earliest_in(
        &self,
        region: &Aabb<V>,
        filter: &QueryFilter<'_>,
        hit: impl Fn(&Entry<V, S>) -> Option<ShapeCastHit<V>>,
    ) -> Option<(Handle, ShapeCastHit<V>)> {
        let mut best: Option<(Handle, ShapeCastHit<V>)> = None;
        self.for_each_in_box(region, filter, |handle, e| {
            if let Some(hit) = hit(e) {
                if best.is_none_or(|(h, b)| (hit.time, handle) < (b.time, h)) {
                    best = Some((handle, hit));
                }
            }
        });
        best
    }
}

/// A box holding every point of `shape` along `sweep`: at any time the shape lies
/// within its reach (the farthest corner of its local box) of the pose's origin, and
/// the origin moves on the segment between the two translations.
fn swept_region<V: GjkVector, S: DispatchShape<V>>(sweep: &Sweep<V>, shape: &S) -> Aabb<V> {
    let local = shape.world_aabb(&V::Pose::IDENTITY);
    let reach = local.min.abs().max(local.max.abs()).length();
    let (a, b) = (sweep.start.translation(), sweep.end.translation());
    Aabb {
        min: a.min(b),
        max: a.max(b),
    }
    .loosened(reach)
}
