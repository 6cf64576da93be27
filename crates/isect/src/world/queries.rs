//! Scene queries of the world: ray casts (closest, any, all, batches), shape casts,
//! point, box and shape overlap queries. A ray hit on a composite names the part it
//! lies on ([`WorldRayHit::part`], found as parry's and Bullet's `triangleIndex` /
//! `partId` are, by [`composite::part_hit_at`](crate::query::composite::part_hit_at)). Each walks the tree's fat boxes (large ray
//! batches: a cached static SIMD [`Bvh`] of the tight boxes) and confirms with the
//! exact shape test; every list is sorted and ties go to the smaller handle, so answers
//! do not depend on the structure walked.
//!
//! Ray answers are the same whichever structure is walked (the trees' fat boxes or
//! the snapshot's ray boxes) and in whatever order, by construction: a shape's hit
//! counts only where its ray box ([`ray_box`]) is entered by then (the conservative
//! slab test with `max_t` the hit's `t`, [`hit_in_box`]); every walk prunes with the
//! same test against its clip, on boxes that hold the ray box, so it visits every
//! shape whose hit counts and is not beyond the answer. (Before, the snapshot's tight
//! boxes lost hits on an edge or corner of a box, and the walks' pruning lost equal-`t`
//! ties, so `cast_ray` answered differently once `cast_rays` had built the snapshot.)

// `!(x >= y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::{pair_box_of, unit_pose, Entry, Handle, QueryFilter, World};
use crate::algo::gjk::GjkVector;
use crate::algo::slab::PreparedRay;
use crate::broad::Bvh;
use crate::math::{Real, Vector};
use crate::query::dispatch::{self, DispatchShape};
use crate::shape::{Aabb, Ray, RayHit};

/// Rays per task of the parallel [`World::cast_rays`]: enough for the batch walk to
/// keep several rays in flight and to pay for a task, small enough to balance cores.
#[cfg(feature = "parallel")]
const PARALLEL_RAY_CHUNK: usize = 64;

/// A ray hit on a world shape.
///
/// ```
/// use isect::d2::*;
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// // A step of three segments: a ray falling at x = 2 lands on segment 2, the upper
/// // floor; one falling at x = -2 on segment 0.
/// let mut world = World::new();
/// let step = Polyline::new(vec![Vec2::new(-4.0, 0.0), Vec2::ZERO, Vec2::Y, Vec2::new(4.0, 1.0)], false)?;
/// world.insert(step, Pose::IDENTITY, Filter::ALL)?;
/// let fall = |x| Ray::new(Vec2::new(x, 5.0), -Vec2::Y);
/// assert_eq!(world.cast_ray(&fall(2.0)?, 10.0, Filter::ALL).unwrap().part, Some(2));
/// assert_eq!(world.cast_ray(&fall(-2.0)?, 10.0, Filter::ALL).unwrap().part, Some(0));
/// # Ok(())
/// # }
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct WorldRayHit<V: Vector> {
    /// The shape hit.
    pub handle: Handle,
    /// Where, in world space (see [`RayHit`]).
    pub hit: RayHit<V>,
    /// The part of a composite shape that was hit: a triangle of a `TriMesh` or of a
    /// heightfield, a part of a `Compound`, a segment of a `Polyline`, a convex piece
    /// of a `ConcavePolygon` (the composite's part index,
    /// [`DispatchShape::ray_hit_part`]). `None` for a convex shape, and for a ray
    /// starting inside a solid mesh (no part is hit there).
    pub part: Option<u32>,
}

impl<V: GjkVector, S: DispatchShape<V> + Sync> World<V, S> {
    /// The closest hit of `ray` over `t ∈ [0, max_t]` on a shape whose filter allows
    /// `filter`; ties in `t` go to the smaller handle. A ray starting inside a solid
    /// shape hits it at `t = 0` (zero normal). A non-finite ray, or a NaN or negative
    /// `max_t`, hits nothing. Walks the snapshot of [`cast_rays`](Self::cast_rays) while
    /// one is kept (a static scene), else the tree.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // Two unit balls on the x axis at 5 and 8: a ray along +x hits the nearer at t = 4.
    /// let mut world = World::new();
    /// let near = world.insert(Shape::Ball(Ball::new(Vec2::new(5.0, 0.0), 1.0)?), Pose::IDENTITY, Filter::ALL)?;
    /// world.insert(Shape::Ball(Ball::new(Vec2::new(8.0, 0.0), 1.0)?), Pose::IDENTITY, Filter::ALL)?;
    /// let ray = Ray::new(Vec2::ZERO, Vec2::X)?;
    /// let hit = world.cast_ray(&ray, 100.0, Filter::ALL).expect("it hits");
    /// assert_eq!(hit.handle, near);
    /// assert_eq!(hit.part, None); // a ball is convex: no part
    /// assert!((hit.hit.t - 4.0).abs() < 1e-6);
    /// assert!(world.cast_ray(&ray, 3.5, Filter::ALL).is_none()); // max_t stops short
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_ray<'f>(
        &self,
        ray: &Ray<V>,
        max_t: V::Scalar,
        filter: impl Into<QueryFilter<'f>>,
    ) -> Option<WorldRayHit<V>> {
        self.cast_ray_with(ray, max_t, true, filter)
    }

    /// [`cast_ray`](Self::cast_ray) with a `solid` switch: `solid = false` treats
    /// every shape as its boundary, so a ray starting inside a shape hits where it
    /// leaves it (normal facing the ray) instead of at `t = 0`
    /// ([`DispatchShape::cast_ray_solid`]).
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut world = World::new();
    /// world.insert(Shape::Ball(Ball::new(Vec3::ZERO, 1.0)?), Pose::IDENTITY, Filter::ALL)?;
    /// let ray = Ray { origin: Vec3::ZERO, dir: Vec3::X };
    /// assert_eq!(world.cast_ray_with(&ray, 10.0, true, Filter::ALL).unwrap().hit.t, 0.0);
    /// let exit = world.cast_ray_with(&ray, 10.0, false, Filter::ALL).unwrap();
    /// assert!((exit.hit.t - 1.0).abs() < 1e-6);
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_ray_with<'f>(
        &self,
        ray: &Ray<V>,
        max_t: V::Scalar,
        solid: bool,
        filter: impl Into<QueryFilter<'f>>,
    ) -> Option<WorldRayHit<V>> {
        let filter = filter.into();
        let mut best = None;
        let mut keep = |slot, t_max| self.keep_closest(&mut best, slot, ray, t_max, &filter, solid);
        match self.ray_snapshot.get() {
            Some(bvh) => {
                bvh.cast_ray(ray, max_t, &mut keep);
            }
            None => {
                for tree in &self.trees {
                    tree.cast_ray(ray, max_t, |_, slot, t_max| keep(slot, t_max));
                }
            }
        }
        best.map(|h| self.with_part(h, ray, solid))
    }

    /// `hit` (of `ray`, solid or not) with the part of its shape it lies on
    /// ([`DispatchShape::ray_hit_part`]).
    fn with_part(&self, hit: WorldRayHit<V>, ray: &Ray<V>, solid: bool) -> WorldRayHit<V> {
        let part = self
            .entry(hit.handle)
            .and_then(|e| e.shape.ray_hit_part(&e.pose, ray, &hit.hit, solid));
        WorldRayHit { part, ..hit }
    }

    /// The exact test of `ray` within `t_max` against the shape in `slot` (if `filter`
    /// allows it and the hit counts, [`hit_in_box`]), kept in `best` when closer (ties:
    /// the smaller handle). Returns the hit's `t` to clip the walk to; equal-`t` hits
    /// stay reachable, so that ties resolve by handle whatever the order of the walk.
    fn keep_closest(
        &self,
        best: &mut Option<WorldRayHit<V>>,
        slot: u32,
        ray: &Ray<V>,
        t_max: V::Scalar,
        filter: &QueryFilter<'_>,
        solid: bool,
    ) -> Option<V::Scalar> {
        let (handle, e) = self.allowed(slot, filter)?;
        let hit = e.shape.cast_ray_solid(&e.pose, ray, t_max, solid)?;
        if !hit_in_box(e, ray, hit.t) {
            return None;
        }
        if best.is_none_or(|b| (hit.t, handle) < (b.hit.t, b.handle)) {
            // The part is found once the closest hit is known (`with_part`).
            let part = None;
            *best = Some(WorldRayHit { handle, hit, part });
        }
        Some(hit.t)
    }

    /// Any shape (allowed by `filter`) that `ray` hits within `max_t`: cheaper than
    /// [`cast_ray`](Self::cast_ray) when only a yes / no is needed. Which one is
    /// reported among several depends on the tree. Misses as [`cast_ray`](Self::cast_ray).
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // Line of sight: a wall between x = 4 and x = 5 blocks the view along +x.
    /// let mut world = World::new();
    /// let wall = Aabb::new(Vec3::new(4.0, -5.0, -5.0), Vec3::new(5.0, 5.0, 5.0))?;
    /// let w = world.insert_static(Shape::Cuboid(wall), Pose::IDENTITY, Filter::ALL)?;
    /// let eye = Ray::new(Vec3::ZERO, Vec3::X)?;
    /// assert_eq!(world.cast_ray_any(&eye, 10.0, Filter::ALL), Some(w));
    /// assert_eq!(world.cast_ray_any(&eye, 3.9, Filter::ALL), None); // the target is nearer
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_ray_any<'f>(
        &self,
        ray: &Ray<V>,
        max_t: V::Scalar,
        filter: impl Into<QueryFilter<'f>>,
    ) -> Option<Handle> {
        let filter = filter.into();
        self.trees.iter().find_map(|tree| {
            let id = tree.cast_ray_any(ray, max_t, |_, user| {
                self.allowed(user, &filter).is_some_and(|(_, e)| {
                    e.shape
                        .cast_ray_posed(&e.pose, ray, max_t)
                        .is_some_and(|hit| hit_in_box(e, ray, hit.t))
                })
            })?;
            let user = tree.user_data(id)?;
            self.handle_at(user).map(|(h, _)| h)
        })
    }

    /// Every hit of `ray` within `max_t` on shapes allowed by `filter`, sorted by `t`
    /// then handle (one hit per shape: its first). Misses as [`cast_ray`](Self::cast_ray).
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // Three unit balls along +x at 3, 6, 9: every one is hit, nearest first.
    /// let mut world = World::new();
    /// let mut handles = Vec::new();
    /// for x in [9.0, 3.0, 6.0] {
    ///     let ball = Shape::Ball(Ball::new(Vec2::new(x, 0.0), 1.0)?);
    ///     handles.push(world.insert(ball, Pose::IDENTITY, Filter::ALL)?);
    /// }
    /// let hits = world.cast_ray_all(&Ray::new(Vec2::ZERO, Vec2::X)?, 100.0, Filter::ALL);
    /// let ts: Vec<f32> = hits.iter().map(|h| h.hit.t).collect();
    /// assert_eq!(ts, [2.0, 5.0, 8.0]);
    /// assert_eq!(hits[0].handle, handles[1]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_ray_all<'f>(
        &self,
        ray: &Ray<V>,
        max_t: V::Scalar,
        filter: impl Into<QueryFilter<'f>>,
    ) -> Vec<WorldRayHit<V>> {
        let filter = filter.into();
        let mut hits = Vec::new();
        if !(max_t >= V::Scalar::ZERO) {
            return hits;
        }
        for tree in &self.trees {
            tree.cast_ray_all(ray, max_t, |_, user, _| {
                if let Some((handle, e)) = self.allowed(user, &filter) {
                    let hit = e.shape.cast_ray_posed(&e.pose, ray, max_t);
                    if let Some(hit) = hit.filter(|hit| hit_in_box(e, ray, hit.t)) {
                        let part = e.shape.ray_hit_part(&e.pose, ray, &hit, true);
                        hits.push(WorldRayHit { handle, hit, part });
                    }
                }
                true
            });
        }
        hits.sort_by(|x, y| {
            x.hit
                .t
                .partial_cmp(&y.hit.t)
                .unwrap_or(core::cmp::Ordering::Equal)
                .then(x.handle.cmp(&y.handle))
        });
        hits
    }

    /// [`cast_ray`](Self::cast_ray) for each ray of a batch, answers in the order of
    /// `rays` and equal to one-by-one calls; in parallel with the `parallel` feature
    /// (same answers, same order).
    ///
    /// A batch of at least a quarter as many rays as shapes (or any batch once one
    /// did) walks a static 4-wide [`Bvh`] snapshot of the shapes' ray boxes (their
    /// tight boxes and a rounding band, [`PAIR_BOX_ULPS`](super::PAIR_BOX_ULPS)) with
    /// the SIMD ray kernel instead of the binary tree; the snapshot is kept
    /// until a shape is inserted, removed or moved, so repeated batches on a static
    /// scene build it once. The snapshot holds about 64 bytes per shape.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // A floor whose top is at y = 0; rays straight down from heights 1, 2 and 3, and
    /// // one pointing up that misses.
    /// let mut world = World::new();
    /// let floor = Aabb::new(Vec3::new(-10.0, -1.0, -10.0), Vec3::new(10.0, 0.0, 10.0))?;
    /// world.insert_static(Shape::Cuboid(floor), Pose::IDENTITY, Filter::ALL)?;
    /// let mut rays: Vec<Ray> = (1..=3).map(|h| Ray { origin: Vec3::new(0.0, h as f32, 0.0), dir: -Vec3::Y }).collect();
    /// rays.push(Ray::new(Vec3::new(0.0, 1.0, 0.0), Vec3::Y)?);
    /// let hits = world.cast_rays(&rays, 100.0, Filter::ALL);
    /// let ts: Vec<Option<f32>> = hits.iter().map(|h| h.map(|h| h.hit.t)).collect();
    /// assert_eq!(ts, [Some(1.0), Some(2.0), Some(3.0), None]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_rays<'f>(
        &self,
        rays: &[Ray<V>],
        max_t: V::Scalar,
        filter: impl Into<QueryFilter<'f>>,
    ) -> Vec<Option<WorldRayHit<V>>> {
        let filter = filter.into();
        let snapshot = match self.ray_snapshot.get() {
            Some(bvh) => Some(bvh),
            None if 4 * rays.len() >= self.len() => {
                Some(self.ray_snapshot.get_or_init(|| self.build_ray_snapshot()))
            }
            None => None,
        };
        let batch = |rays: &[Ray<V>]| match snapshot {
            Some(bvh) => self.cast_rays_in(bvh, rays, max_t, filter),
            None => rays
                .iter()
                .map(|ray| self.cast_ray(ray, max_t, filter))
                .collect(),
        };
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            rays.par_chunks(PARALLEL_RAY_CHUNK)
                .flat_map_iter(batch)
                .collect()
        }
        #[cfg(not(feature = "parallel"))]
        {
            batch(rays)
        }
    }

    /// The snapshot of [`cast_rays`](Self::cast_rays): one [`ray_box`] per slot, free
    /// slots given an inverted box that the build leaves out.
    pub(super) fn build_ray_snapshot(&self) -> Bvh<V> {
        let free = Aabb {
            min: V::splat(V::Scalar::ONE),
            max: V::splat(V::Scalar::ZERO),
        };
        let boxes: Vec<Aabb<V>> = self
            .slots
            .iter()
            .map(|slot| slot.entry.as_ref().map_or(free, |e| ray_box(&e.aabb)))
            .collect();
        Bvh::build(&boxes)
    }

    /// [`cast_ray`](Self::cast_ray) of each ray through the snapshot `bvh`, with the
    /// tree's interleaved batch walk: the same exact tests, the same tie rule (smaller
    /// handle), so the same answers.
    fn cast_rays_in(
        &self,
        bvh: &Bvh<V>,
        rays: &[Ray<V>],
        max_t: V::Scalar,
        filter: QueryFilter<'_>,
    ) -> Vec<Option<WorldRayHit<V>>> {
        let mut best = vec![None; rays.len()];
        bvh.cast_rays(rays, max_t, |k, slot, t_max| {
            self.keep_closest(&mut best[k], slot, &rays[k], t_max, &filter, true)
        });
        best.iter()
            .zip(rays)
            .map(|(h, ray)| h.map(|h| self.with_part(h, ray, true)))
            .collect()
    }

    /// The shapes (allowed by `filter`) that contain the point `p` (boundary
    /// included), sorted by handle. A NaN point finds nothing.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // Two overlapping unit balls at x = 0 and x = 1.5: x = 0.75 is in both.
    /// let mut world = World::new();
    /// let a = world.insert(Shape::Ball(Ball::new(Vec2::ZERO, 1.0)?), Pose::IDENTITY, Filter::ALL)?;
    /// let b = world.insert(Shape::Ball(Ball::new(Vec2::new(1.5, 0.0), 1.0)?), Pose::IDENTITY, Filter::ALL)?;
    /// assert_eq!(world.shapes_at_point(Vec2::new(0.75, 0.0), Filter::ALL), [a, b]);
    /// assert_eq!(world.shapes_at_point(Vec2::new(-0.5, 0.0), Filter::ALL), [a]);
    /// assert!(world.shapes_at_point(Vec2::new(0.75, 0.9), Filter::ALL).is_empty());
    /// # Ok(())
    /// # }
    /// ```
    pub fn shapes_at_point<'f>(&self, p: V, filter: impl Into<QueryFilter<'f>>) -> Vec<Handle> {
        let filter = filter.into();
        if p.is_nan() {
            return Vec::new();
        }
        self.collect_in_box(&Aabb { min: p, max: p }, &filter, |e| {
            e.shape.contains_point(&e.pose, p)
        })
    }

    /// The shapes (allowed by `filter`) that touch or overlap the box `region` (exact
    /// shape test, not just their bounding boxes), sorted by handle. A box with NaN
    /// finds nothing.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // A unit ball at the origin: a box near its bounding box's corner misses the
    /// // ball itself (the exact test), a box over its side hits.
    /// let mut world = World::new();
    /// let ball = world.insert(Shape::Ball(Ball::new(Vec2::ZERO, 1.0)?), Pose::IDENTITY, Filter::ALL)?;
    /// let corner = Aabb::new(Vec2::splat(0.8), Vec2::splat(2.0))?;
    /// let side = Aabb::new(Vec2::new(0.9, -0.1), Vec2::new(2.0, 0.1))?;
    /// assert!(world.shapes_in_aabb(&corner, Filter::ALL).is_empty());
    /// assert_eq!(world.shapes_in_aabb(&side, Filter::ALL), [ball]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn shapes_in_aabb<'f>(
        &self,
        region: &Aabb<V>,
        filter: impl Into<QueryFilter<'f>>,
    ) -> Vec<Handle> {
        let filter = filter.into();
        self.collect_in_box(region, &filter, |e| {
            e.shape.intersects_aabb(&e.pose, region)
        })
    }

    /// The shapes (allowed by `filter`) that touch or overlap `shape` placed at
    /// `pose` ([`dispatch::intersects`]), sorted by handle. A non-finite pose or a
    /// refused rotation (see [`insert`](Self::insert)) finds nothing.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // Unit balls at x = 0, 3 and 6 and a probe capsule from x = 2 to 4 of radius 0.4:
    /// // its ends reach x = 1.6 and 4.4, 0.6 short of the outer balls.
    /// let mut world = World::new();
    /// let mut h = Vec::new();
    /// for x in [0.0, 3.0, 6.0] {
    ///     h.push(world.insert(Shape::Ball(Ball::new(Vec3::new(x, 0.0, 0.0), 1.0)?), Pose::IDENTITY, Filter::ALL)?);
    /// }
    /// let probe = Shape::Capsule(Capsule::new(Vec3::new(2.0, 0.0, 0.0), Vec3::new(4.0, 0.0, 0.0), 0.4)?);
    /// assert_eq!(world.intersecting_shapes(&Pose::IDENTITY, &probe.into(), Filter::ALL), [h[1]]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn intersecting_shapes<'f>(
        &self,
        pose: &V::Pose,
        shape: &S,
        filter: impl Into<QueryFilter<'f>>,
    ) -> Vec<Handle> {
        let filter = filter.into();
        let Ok(pose) = &unit_pose::<V>(pose) else {
            return Vec::new();
        };
        let region = shape.world_aabb(pose);
        self.collect_in_box(&region, &filter, |e| {
            dispatch::intersects(&e.pose, &e.shape, pose, shape)
        })
    }

    /// The live entry of a tree proxy when `filter` admits it.
    pub(super) fn allowed(
        &self,
        user: u32,
        filter: &QueryFilter<'_>,
    ) -> Option<(Handle, &Entry<V, S>)> {
        self.handle_at(user)
            .filter(|(h, e)| filter.admits(*h, &e.filter))
    }

    /// Calls `f` for each allowed shape whose tight box meets `region`.
    pub(super) fn for_each_in_box(
        &self,
        region: &Aabb<V>,
        filter: &QueryFilter<'_>,
        mut f: impl FnMut(Handle, &Entry<V, S>),
    ) {
        for tree in &self.trees {
            tree.query(region, |_, user| {
                if let Some((handle, e)) = self.allowed(user, filter) {
                    if e.aabb.intersects(region) {
                        f(handle, e);
                    }
                }
                true
            });
        }
    }

    /// The sorted handles of allowed shapes whose tight box meets `region` and that
    /// pass `exact`.
    fn collect_in_box(
        &self,
        region: &Aabb<V>,
        filter: &QueryFilter<'_>,
        exact: impl Fn(&Entry<V, S>) -> bool,
    ) -> Vec<Handle> {
        let mut found = Vec::new();
        self.for_each_in_box(region, filter, |handle, e| {
            if exact(e) {
                found.push(handle);
            }
        });
        found.sort_unstable();
        found
    }
}

/// The box the ray queries look for a shape's hits in: its tight box grown by the
/// narrow phase's rounding band ([`PAIR_BOX_ULPS`](super::PAIR_BOX_ULPS), no
/// prediction), which its hits lie in but for a shape whose exact test has a
/// tolerance beyond rounding (GJK on curved shapes). The trees' fat boxes hold it;
/// the snapshot of [`World::cast_rays`] is built over it.
#[inline]
fn ray_box<V: GjkVector>(aabb: &Aabb<V>) -> Aabb<V> {
    pair_box_of(V::Scalar::ZERO, aabb)
}

/// True when a hit of `ray` at `t` on the shape of `e` counts: `ray` meets the
/// shape's [`ray_box`] within `[0, t]` by the slab test every walk prunes with. A
/// counted hit at `t` is therefore visited by every walk whose clip is at least `t`,
/// which makes the ray answers independent of the structure and order walked; a hit
/// outside the ray box (beyond the exact test's rounding) is dropped by all of them.
#[inline]
fn hit_in_box<V: GjkVector, S>(e: &Entry<V, S>, ray: &Ray<V>, t: V::Scalar) -> bool {
    PreparedRay::new(ray, t).hits(&ray_box(&e.aabb))
}
