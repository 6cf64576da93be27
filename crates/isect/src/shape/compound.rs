//! [`Compound`]: a rigid set of convex parts, each with its own pose in the
//! compound's frame, under a [`Bvh`] of the parts' local boxes — parry's `Compound`,
//! Box2D's multi-shape body. One source for 2D and 3D: the part type is the convex
//! enum of the dimension (`shape_2d::Shape`, `shape_3d::Shape`), so every part pair
//! answers through [`crate::query::dispatch`]. Queries are those of every
//! [`Composite`] ([`crate::query::composite`]). No tolerances of its own.

use crate::algo::gjk::GjkVector;
use crate::broad::Bvh;
use crate::math::{Isometry, Real, Vector};
use crate::query::composite::{self as cq, ConvexPart};
use crate::query::dispatch::DispatchShape;
use crate::query::project_point::{PointProjection, ProjectPoint};
use crate::query::RayCast;
use crate::shape::error::check_pose;
use crate::shape::{Aabb, Composite, Ray, RayHit, ShapeError};

/// Compounds of up to this many parts answer box queries by scanning their parts'
/// boxes instead of walking the tree: below it the scan costs fewer instructions than
/// the walk's fixed cost (measured with callgrind on `benches/composite.rs`, 8 parts).
pub const SCAN_PARTS: usize = 16;

/// Convex parts `S` placed by poses in the compound's frame (`V` the vector type).
///
/// The compound is the union of its parts; it is solid where a part is
/// ([`Composite::contains_local_point`] is true inside any solid part). Parts may
/// overlap. Built once; the parts cannot change (build a new compound instead).
///
/// ```
/// use isect::d3::*;
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// // An L of two unit boxes.
/// let unit = Shape::Cuboid(Aabb::from_center(Vec3::ZERO, Vec3::splat(0.5))?);
/// let at = |x: f32, y: f32| Pose::from_translation(Vec3::new(x, y, 0.0));
/// let l = Compound::new(vec![(at(0.0, 0.0), unit.clone()), (at(1.0, 0.0), unit)])?;
///
/// // In the prelude's world (of `AnyShape`s), beside a convex ball.
/// let mut world = World::new();
/// let a = world.insert(l, Pose::IDENTITY, Filter::ALL)?;
/// let ball = Shape::Ball(Ball::new(Vec3::ZERO, 0.5)?);
/// let b = world.insert(ball, at(1.0, 0.9), Filter::ALL)?;
/// assert_eq!(world.update().started, vec![(a, b)]);
///
/// // A ray down onto the second box hits its top face.
/// let ray = Ray { origin: Vec3::new(1.2, 5.0, 0.0), dir: -Vec3::Y };
/// let hit = world.shape(a).and_then(|s| s.cast_ray(&ray, 10.0)).expect("hit");
/// assert!((hit.t - 4.5).abs() < 1e-5 && hit.normal == Vec3::Y);
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct Compound<V: Vector, S> {
    parts: Vec<(V::Pose, S)>,
    aabbs: Vec<Aabb<V>>,
    bvh: Bvh<V>,
}

impl<V: GjkVector, S: DispatchShape<V>> Compound<V, S> {
    /// A compound of `parts`, each a pose in the compound's frame and a convex shape.
    ///
    /// # Errors
    /// [`ShapeError::Degenerate`] for an empty list ("has no parts"); [`ShapeError::BadPart`] naming
    /// the first part whose pose is not finite, whose rotation is zero or off unit
    /// length by more than [`ROTATION_UNIT_ULPS`](crate::math::ROTATION_UNIT_ULPS)
    /// (nearer ones are normalised, as the world does), or whose box overflows to
    /// infinity; [`ShapeError::TooLarge`] (field `parts.pose.translation`, the part's
    /// index) for a part translation beyond [`Real::MAX_COORD`].
    pub fn new(mut parts: Vec<(V::Pose, S)>) -> Result<Self, ShapeError> {
        if parts.is_empty() {
            return Err(ShapeError::Degenerate {
                shape: "Compound",
                reason: "has no parts; it needs at least one",
            });
        }
        let mut aabbs = Vec::with_capacity(parts.len());
        for (index, (pose, shape)) in parts.iter_mut().enumerate() {
            let bad = |reason| ShapeError::BadPart {
                shape: "Compound",
                index,
                reason,
            };
            if !pose.is_finite() {
                return Err(bad("pose is not finite"));
            }
            *pose =
                check_pose("Compound", "pose.rotation", "pose.translation", pose).map_err(|e| {
                    match e {
                        ShapeError::TooLarge { value, limit, .. } => ShapeError::TooLarge {
                            shape: "Compound",
                            field: "parts.pose.translation",
                            index: Some(index),
                            value,
                            limit,
                        },
                        _ => bad("pose's rotation is zero or off unit length"),
                    }
                })?;
            let aabb = shape.world_aabb(pose);
            if !(aabb.min.is_finite() && aabb.max.is_finite()) {
                return Err(bad("bounding box is not finite"));
            }
            aabbs.push(aabb);
        }
        let bvh = Bvh::build(&aabbs);
        Ok(Self { parts, aabbs, bvh })
    }

    /// The parts, in the order given to [`new`](Self::new) (part `i` is `parts()[i]`).
    pub fn parts(&self) -> &[(V::Pose, S)] {
        &self.parts
    }

    /// The parts' boxes in the compound's frame, indexed as [`parts`](Self::parts).
    pub fn part_aabbs(&self) -> &[Aabb<V>] {
        &self.aabbs
    }

    /// The box of the whole compound in its own frame (the tree's root box).
    pub fn local_aabb(&self) -> Aabb<V> {
        self.bvh.root_aabb().unwrap_or(self.aabbs[0])
    }
}

impl<V: GjkVector, S: DispatchShape<V>> Composite<V> for Compound<V, S> {
    type Part = S;

    #[inline]
    fn bvh(&self) -> &Bvh<V> {
        &self.bvh
    }

    #[inline]
    fn part_count(&self) -> usize {
        self.parts.len()
    }

    /// A tree walk for large compounds; a scan of the boxes for up to
    /// [`SCAN_PARTS`] parts.
    #[inline]
    fn for_each_part_in(&self, region: &Aabb<V>, mut f: impl FnMut(u32) -> bool) {
        if self.aabbs.len() > SCAN_PARTS {
            return self.bvh.overlapping(region, f);
        }
        for (i, b) in self.aabbs.iter().enumerate() {
            if b.intersects(region) && !f(i as u32) {
                return;
            }
        }
    }

    /// A tree walk for large compounds; for up to [`SCAN_PARTS`] parts, every box's
    /// distance to `region`, then the parts in order of it (ties by index).
    fn nearest_part_to(
        &self,
        region: &Aabb<V>,
        upper: V::Scalar,
        mut leaf: impl FnMut(u32, V::Scalar) -> Option<V::Scalar>,
    ) -> Option<(u32, V::Scalar)> {
        if self.aabbs.len() > SCAN_PARTS {
            return self.bvh.nearest_to_aabb(region, upper, leaf);
        }
        if region.min.is_nan() || region.max.is_nan() || upper.is_nan() {
            return None;
        }
        let mut order = [(V::Scalar::ZERO, 0u32); SCAN_PARTS];
        for (i, b) in self.aabbs.iter().enumerate() {
            let gap = (b.min - region.max).max(region.min - b.max).max(V::ZERO);
            order[i] = (gap.length(), i as u32);
        }
        let order = &mut order[..self.aabbs.len()];
        order.sort_unstable_by(|x, y| x.partial_cmp(y).unwrap_or(core::cmp::Ordering::Equal));
        let mut found = None;
        let mut best = upper;
        for &(lower, i) in order.iter() {
            if lower >= best {
                break;
            }
            if let Some(d) = leaf(i, best).filter(|&d| d < best) {
                best = d;
                found = Some((i, d));
            }
        }
        found
    }

    #[inline]
    fn with_part<T>(&self, i: u32, f: impl FnOnce(&V::Pose, &S) -> T) -> T {
        let (pose, shape) = &self.parts[i as usize];
        f(pose, shape)
    }

    /// True when some part contains `p` (boundary included); `false` for NaN.
    fn contains_local_point(&self, p: V) -> bool {
        let mut inside = false;
        self.bvh.overlapping(&Aabb { min: p, max: p }, |i| {
            let (pose, shape) = &self.parts[i as usize];
            inside = shape.contains_point(pose, p);
            !inside
        });
        inside
    }
}

/// The first hit over the parts ([`cq::cast_ray`]): a ray starting inside a solid
/// part hits at `t = 0` with a zero normal; misses as [`RayCast`] documents.
impl<V: GjkVector, S: ConvexPart<V>> RayCast<V> for Compound<V, S> {
    fn cast_ray(&self, ray: &Ray<V>, max_t: V::Scalar) -> Option<RayHit<V>> {
        cq::cast_ray(self, ray, max_t).map(|(_, hit)| hit)
    }
}

/// Projection onto the union of the parts ([`cq::project_local_point`]).
impl<V: GjkVector, S: ConvexPart<V>> ProjectPoint<V> for Compound<V, S> {
    fn project_local_point(&self, p: V, solid: bool) -> PointProjection<V> {
        cq::project_local_point(self, p, solid)
    }
}

impl<V: GjkVector, S: DispatchShape<V>> Compound<V, S> {
    /// The box of the compound placed at `pose` (the local box's corners transformed:
    /// not tight under rotation). Non-finite for a non-finite pose.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A dumbbell: unit balls at x = ±2 joined by a bar, placed at (10, 5).
    /// let ball = Shape::Ball(Ball::new(Vec2::ZERO, 1.0)?);
    /// let bar = Shape::Cuboid(Aabb::new(Vec2::new(-2.0, -0.1), Vec2::new(2.0, 0.1))?);
    /// let dumbbell = Compound::new(vec![
    ///     (Pose::from_translation(Vec2::new(-2.0, 0.0)), ball.clone()),
    ///     (Pose::from_translation(Vec2::new(2.0, 0.0)), ball),
    ///     (Pose::IDENTITY, bar),
    /// ])?;
    /// let b = dumbbell.world_aabb(&Pose::from_translation(Vec2::new(10.0, 5.0)));
    /// assert!((b.min - Vec2::new(7.0, 4.0)).length() < 1e-5);
    /// assert!((b.max - Vec2::new(13.0, 6.0)).length() < 1e-5);
    /// # Ok(())
    /// # }
    /// ```
    pub fn world_aabb(&self, pose: &V::Pose) -> Aabb<V> {
        cq::transformed_aabb(&self.local_aabb(), pose)
    }

    /// Number of parts (as [`Composite::part_count`]).
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    /// Always false: a compound has at least one part.
    pub fn is_empty(&self) -> bool {
        false
    }
}
