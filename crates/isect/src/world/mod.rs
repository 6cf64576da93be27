//! The collision world: shapes with poses, collision filters and user data behind
//! generational handles; a broad phase of two dynamic trees (static and moving
//! shapes); a persistent pair cache whose narrow phase of
//! [`dispatch`](crate::query::dispatch) contacts or manifolds runs only for what
//! moved; and scene queries (rays, shape casts, points, boxes, shape overlaps,
//! distances and signed distances, batches of robot configurations).
//!
//! One generic type serves both dimensions: [`World<V, S>`] over the vector type and
//! the shape enum (the preludes' `World` holds `AnyShape`, convex and composite;
//! `ConvexWorld` holds the convex `Shape` only). The pipeline is Box2D v3's
//! (E. Catto, `b2BroadPhase`, `b2ContactManager`, `b2UpdateBroadPhasePairs`): fat
//! boxes in dynamic trees, static shapes apart so that static–static pairs never
//! exist, pairs found for the proxies that left their fat box, kept until their fat
//! boxes part, and recomputed only when one of their shapes moved (see `update`).
//! No tolerances of its own: the broad phase is exact on boxes and the narrow phase
//! is [`dispatch::contact`](crate::query::dispatch::contact); ray queries walk with
//! the slab test's ([`SLAB_EXIT_ULPS`](crate::algo::slab::SLAB_EXIT_ULPS)) and count
//! a shape's hit where its box grown by [`PAIR_BOX_ULPS`] is entered (see `queries`),
//! so that every ray query answers alike whichever structure it walks.
//!
//! Poses: a pose's rotation is checked where it enters ([`World::insert`],
//! [`World::set_pose`], and the query poses of [`World::cast_shape`] and
//! [`World::intersecting_shapes`]): normalised within
//! [`ROTATION_UNIT_ULPS`](crate::math::ROTATION_UNIT_ULPS) of unit length, refused
//! beyond (see [`Rotation3::to_unit`](crate::math::Rotation3::to_unit)), so the
//! broad phase's box, the narrow phase and every query see one rigid shape. A
//! refused call returns a [`WorldError`] and changes nothing
//! ([`World::validate`] checks the invariants).
//!
//! Determinism: events and query answers are sorted (pairs by their two handles,
//! hits by distance then handle), so they do not depend on the trees' layout;
//! [`World::contacts`] keeps a deterministic order of its own (documented there).
//! The `parallel` feature returns exactly the serial answers in the same order.
//!
//! ```
//! use isect::d3::*;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut world = World::new();
//! let ball = Shape::Ball(Ball::new(Vec3::ZERO, 1.0)?);
//! let cube = Shape::Cuboid(Aabb::from_center(Vec3::ZERO, Vec3::splat(0.5))?);
//! let a = world.insert(ball, Pose::from_translation(Vec3::ZERO), Filter::ALL)?;
//! let b = world.insert(cube, Pose::from_translation(Vec3::new(3.0, 0.0, 0.0)), Filter::ALL)?;
//! assert!(world.update().started.is_empty());
//!
//! // Move the cube onto the ball: the pair starts touching.
//! world.set_pose(b, Pose::from_translation(Vec3::new(1.2, 0.0, 0.0)))?;
//! assert_eq!(world.update().started, vec![(a, b)]);
//! let contact = world.contacts()[0].contact;
//! assert!((contact.depth - 0.3).abs() < 1e-5);
//!
//! // A ray along +x from the left meets the ball first.
//! let ray = Ray { origin: Vec3::new(-5.0, 0.0, 0.0), dir: Vec3::X };
//! let hit = world.cast_ray(&ray, 100.0, Filter::ALL).expect("hit");
//! assert_eq!(hit.handle, a);
//! assert!((hit.hit.t - 4.0).abs() < 1e-5);
//! # Ok(())
//! # }
//! ```

mod distance;
mod error;
mod filter;
mod motion;
mod moving_set;
mod pairs;
mod queries;
#[cfg(feature = "serde")]
mod serial;
mod update;
mod validate;

pub use distance::{ConfigurationCheck, WorldDistance};
pub use error::WorldError;
pub use filter::{Filter, QueryFilter};
pub use moving_set::MOVING_SET_REBUILD_GROWTH;
pub use pairs::{Impulses, PairContact};
pub use queries::WorldRayHit;
#[cfg(feature = "serde")]
pub use serial::WORLD_FORMAT_VERSION;
pub use update::{
    UpdateEvents, UpdateStats, DIRTY_SCAN_SHARE, MOVING_SET_SHARE, REBUILD_DRIFT,
    REBUILD_MIN_INSERTIONS,
};

use crate::algo::gjk::GjkVector;
use crate::broad::{Bvh, DynamicTree, ProxyId};
use crate::math::{Isometry, Real};
use crate::query::dispatch::DispatchShape;
use crate::shape::{Aabb, ShapeError};
use pairs::{pair_key, PairCache, PairKeyHasher};
use std::collections::HashSet;
use std::hash::BuildHasherDefault;
use std::sync::OnceLock;

/// The broad phase's allowance for the narrow phase's rounding, in machine epsilons
/// of a box's largest coordinate magnitude: the pair queries decide "touching" to a
/// relative accuracy of a few hundred ε of the shapes' size and offset
/// ([`GJK_REL_ULPS`](crate::algo::gjk::GJK_REL_ULPS),
/// [`TOUCH_ULPS`](crate::algo::clip_3d::TOUCH_ULPS)), so a pair whose exact boxes are
/// apart by less may still touch; without the band, a thin shape a million units
/// long was dropped by the world while `dispatch::contact` reported it (the
/// session-6 soak). At scale 1 in `f32` the band is 3e-5.
pub const PAIR_BOX_ULPS: f64 = 256.0;

/// The moves ahead a moving shape's fat box is stretched by (see
/// [`World::set_broad_margin`]).
pub const STRETCH_MOVES: f64 = 2.0;

/// The broad margins a fat box's stretch is bounded by per axis (see
/// [`World::set_broad_margin`]).
pub const STRETCH_MARGINS: f64 = 4.0;

/// A shape's handle in a [`World`]: a slot index and the generation of that slot, so
/// that a handle of a removed shape never names the shape that reuses its slot.
/// Ordered by index, then generation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Handle {
    index: u32,
    generation: u32,
}

impl Handle {
    /// The slot index (dense: below the peak number of live shapes).
    #[inline]
    pub fn index(self) -> usize {
        self.index as usize
    }

    /// How many times the slot had been reused when this handle was made.
    #[inline]
    pub fn generation(self) -> u32 {
        self.generation
    }

    /// The handle as one integer, `generation << 32 | index`, for bindings and files
    /// that store handles as numbers ([`from_bits`](Self::from_bits) reads it back).
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut world = World::new();
    /// let h = world.insert(Ball::new(Vec3::ZERO, 1.0)?, Pose::IDENTITY, Filter::ALL)?;
    /// assert_eq!(Handle::from_bits(h.to_bits()), h);
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn to_bits(self) -> u64 {
        (u64::from(self.generation) << 32) | u64::from(self.index)
    }

    /// The handle whose [`to_bits`](Self::to_bits) is `bits`. Any integer gives a
    /// handle; one that names no live shape is refused by the world as stale.
    #[inline]
    pub fn from_bits(bits: u64) -> Self {
        Self {
            index: bits as u32,
            generation: (bits >> 32) as u32,
        }
    }
}

/// Whether a shape moves. Static shapes (level geometry, terrain, walls) live in a
/// broad-phase tree of their own: pairs of two static shapes are never formed, stored
/// or updated, so a level of any size costs nothing per update until something moving
/// comes near it. A static shape may still be moved with [`World::set_pose`] (a
/// teleport, at a tree reinsertion's cost).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Motion {
    /// Never (or rarely) moves; never paired with another static shape.
    Static,
    /// Moves; paired with every shape its filter allows.
    #[default]
    Moving,
}

impl Motion {
    /// The index of the motion's tree in [`World`].
    #[inline]
    fn tree(self) -> usize {
        match self {
            Self::Static => 0,
            Self::Moving => 1,
        }
    }
}

/// One live shape.
#[derive(Clone, Debug)]
struct Entry<V: GjkVector, S> {
    shape: S,
    pose: V::Pose,
    filter: Filter,
    motion: Motion,
    user_data: u64,
    proxy: ProxyId,
    /// The proxy's fat box in its tree, kept with the entry so that the update's pair
    /// states read the two shapes' entries and not their tree leaves as well.
    fat: Aabb<V>,
    /// The shape's box turned by the pose's rotation, about the pose's origin: kept so
    /// that a move which does not turn the shape only shifts it.
    turned: Aabb<V>,
    /// `turned` at the pose's translation: the shape's tight world box.
    aabb: Aabb<V>,
    /// `aabb` as [`World::pair_box`] grows it: kept with it, so that the update's pair
    /// states do not recompute it for every pair of the shape.
    pair_box: Aabb<V>,
    /// Ids of the cached pairs this shape is in.
    pairs: Vec<u32>,
}

/// A slot of the handle table; `entry` is `None` while the slot is free.
#[derive(Clone, Debug)]
struct Slot<V: GjkVector, S> {
    generation: u32,
    entry: Option<Entry<V, S>>,
}

/// A collision world of shapes `S` (a shape enum) in the space of `V`.
#[derive(Clone, Debug)]
pub struct World<V: GjkVector, S> {
    slots: Vec<Slot<V, S>>,
    free: Vec<u32>,
    /// The broad phase: static shapes in `trees[0]`, moving ones in `trees[1]`
    /// ([`Motion::tree`]); tree user data are slot indices.
    trees: [DynamicTree<V>; 2],
    prediction: V::Scalar,
    /// True when the narrow phase computes manifolds, not single points.
    manifolds: bool,
    pairs: PairCache<V>,
    /// Pair keys never paired ([`set_pair_excluded`](Self::set_pair_excluded)).
    excluded: HashSet<u64, BuildHasherDefault<PairKeyHasher>>,
    /// Slots whose pairs the next update recomputes (moved, inserted or refiltered
    /// since the last update), each once.
    dirty: Vec<u32>,
    /// Per slot, whether it is in `dirty`: a dense array, so that an update in which
    /// most shapes moved can pick the pairs to visit in one pass over the pair cache
    /// (`update::collect_dirty_pairs`) without reading the entries.
    dirty_marks: Vec<bool>,
    /// Touching pairs ended by a removal since the last update.
    removed_pairs: Vec<(Handle, Handle)>,
    /// Counts updates; pairs remember the last one that visited them.
    stamp: u32,
    /// What the last `update` did.
    stats: UpdateStats,
    /// A static 4-wide [`Bvh`] over the tight boxes (items: slot indices), built by a
    /// large [`cast_rays`](Self::cast_rays) batch and kept until a shape is inserted,
    /// removed or moved.
    ray_snapshot: OnceLock<Bvh<V>>,
    /// A 4-wide BVH mirror of the moving tree, for the pairs of updates in which many
    /// moving shapes moved (`world::moving_set`).
    moving_set: moving_set::MovingSet<V>,
}

impl<V: GjkVector, S: DispatchShape<V>> Default for World<V, S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: GjkVector, S: DispatchShape<V>> World<V, S> {
    /// An empty world whose narrow phase reports touching or overlapping pairs
    /// (contact prediction 0) with single-point contacts.
    pub fn new() -> Self {
        Self {
            slots: Vec::new(),
            free: Vec::new(),
            trees: [DynamicTree::new(), DynamicTree::new()],
            prediction: V::Scalar::ZERO,
            manifolds: false,
            pairs: PairCache::default(),
            excluded: HashSet::default(),
            dirty: Vec::new(),
            dirty_marks: Vec::new(),
            removed_pairs: Vec::new(),
            stamp: 0,
            stats: UpdateStats::default(),
            ray_snapshot: OnceLock::new(),
            moving_set: moving_set::MovingSet::default(),
        }
    }

    /// An empty world whose narrow phase also reports pairs up to `prediction` apart
    /// (speculative contacts with negative depth).
    ///
    /// # Errors
    /// [`WorldError::Invalid`] ([`ShapeError::NotFinite`] / [`ShapeError::Negative`])
    /// for a bad `prediction`.
    pub fn with_prediction(prediction: V::Scalar) -> Result<Self, WorldError> {
        let prediction =
            crate::shape::error::check_non_negative("World", "prediction", prediction)?;
        Ok(Self {
            prediction,
            ..Self::new()
        })
    }

    /// Makes the narrow phase compute contact manifolds
    /// ([`dispatch::contact_manifold`](crate::query::dispatch::contact_manifold): up to
    /// 2 points in 2D, 4 in 3D, with feature ids; for a composite touching along
    /// several normals, one manifold each, as
    /// [`dispatch::contact_manifolds_by_normal`](crate::query::dispatch::contact_manifolds_by_normal),
    /// each its own entry of [`contacts`](Self::contacts)) instead of single points; a
    /// solver reads them in [`contacts`](Self::contacts) and keeps its impulses in
    /// [`impulses_mut`](Self::impulses_mut), which the world carries from frame to
    /// frame by feature id. Takes effect for pairs recomputed from the next update on.
    pub fn set_manifolds(&mut self, manifolds: bool) {
        self.manifolds = manifolds;
    }

    /// Sets the broad phase's margin: each shape's box in the tree is its tight box
    /// grown by `margin`, so a shape that moves by less keeps its tree box and costs
    /// the broad phase nothing (Box2D's `aabbMargin`). A moving shape's tree box also
    /// reaches [`STRETCH_MOVES`] times its last move ahead, at most
    /// [`STRETCH_MARGINS`] margins per axis, so that a shape moving steadily by more
    /// than the margin a step still keeps its tree box every other step or more
    /// (Box2D v2.4's predicted displacement). Answers do not change: the
    /// narrow phase and the queries still test tight boxes and exact shapes. The
    /// default is 0. Rebuilds the trees over the live shapes and recomputes every pair
    /// at the next update.
    ///
    /// # Errors
    /// [`WorldError::Invalid`] for a NaN, infinite or negative `margin` (the world is
    /// then unchanged).
    pub fn set_broad_margin(&mut self, margin: V::Scalar) -> Result<(), WorldError> {
        let mut trees = [
            DynamicTree::with_margin(margin)?,
            DynamicTree::with_margin(margin)?,
        ];
        let mut proxies = Vec::with_capacity(self.len());
        for (index, slot) in self.slots.iter().enumerate() {
            if let Some(e) = &slot.entry {
                let tree = &mut trees[e.motion.tree()];
                // The box was accepted before, so the insertion succeeds.
                let proxy = tree.insert(e.pair_box, index as u32)?;
                proxies.push((index, proxy, fat_box(tree, proxy, &e.pair_box)));
            }
        }
        for (index, proxy, fat) in proxies {
            if let Some(e) = self.slots[index].entry.as_mut() {
                e.proxy = proxy;
                e.fat = fat;
            }
            self.mark_dirty(index as u32);
        }
        self.trees = trees;
        self.moving_set.invalidate();
        Ok(())
    }

    /// Number of live shapes.
    pub fn len(&self) -> usize {
        self.trees[0].len() + self.trees[1].len()
    }

    /// True when the world holds no shape.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds a moving `shape` at `pose` with `filter` and returns its handle (user data
    /// 0). The pair events it causes are reported by the next [`update`](Self::update).
    /// The pose is stored with its rotation made unit (normalised when off by at most
    /// [`ROTATION_UNIT_ULPS`](crate::math::ROTATION_UNIT_ULPS)).
    ///
    /// # Errors
    /// [`WorldError::Invalid`] naming `pose.rotation` (NaN, infinite, zero or far from
    /// unit), `pose.translation` (not finite or beyond [`Real::MAX_COORD`]) or the
    /// shape's box at the pose (not finite); [`WorldError::Full`] beyond `u32` slots.
    pub fn insert(
        &mut self,
        shape: impl Into<S>,
        pose: V::Pose,
        filter: Filter,
    ) -> Result<Handle, WorldError> {
        self.insert_with(shape.into(), pose, filter, Motion::Moving)
    }

    /// Adds a [`Motion::Static`] shape, as [`insert`](Self::insert) does a moving one:
    /// it is never paired with another static shape.
    ///
    /// # Errors
    /// As [`insert`](Self::insert).
    pub fn insert_static(
        &mut self,
        shape: impl Into<S>,
        pose: V::Pose,
        filter: Filter,
    ) -> Result<Handle, WorldError> {
        self.insert_with(shape.into(), pose, filter, Motion::Static)
    }

    fn insert_with(
        &mut self,
        shape: S,
        pose: V::Pose,
        filter: Filter,
        motion: Motion,
    ) -> Result<Handle, WorldError> {
        let index = match self.free.last() {
            Some(&i) => i,
            None => u32::try_from(self.slots.len()).map_err(|_| WorldError::Full)?,
        };
        let entry = self.new_entry(index, shape, &pose, filter, motion, 0)?;
        self.ray_snapshot = OnceLock::new();
        if self.free.pop().is_none() {
            self.slots.push(Slot {
                generation: 0,
                entry: None,
            });
        }
        let slot = &mut self.slots[index as usize];
        slot.entry = Some(entry);
        let generation = slot.generation;
        self.mark_dirty(index);
        Ok(Handle { index, generation })
    }

    /// The entry of `shape` at `pose` (its rotation made unit) for slot `index`, its
    /// proxy inserted in the tree of `motion`; the slot itself is the caller's to fill.
    fn new_entry(
        &mut self,
        index: u32,
        shape: S,
        pose: &V::Pose,
        filter: Filter,
        motion: Motion,
        user_data: u64,
    ) -> Result<Entry<V, S>, WorldError> {
        let pose = unit_pose::<V>(pose)?;
        let turned = turned_box(&shape, &pose);
        let aabb = turned.shifted(pose.translation());
        let pair_box = self.pair_box(&aabb);
        let tree = &mut self.trees[motion.tree()];
        let proxy = tree.insert(pair_box, index)?;
        Ok(Entry {
            shape,
            pose,
            filter,
            motion,
            user_data,
            proxy,
            fat: fat_box(tree, proxy, &pair_box),
            turned,
            aabb,
            pair_box,
            pairs: Vec::new(),
        })
    }

    /// Removes a shape and returns it. Its touching pairs are reported as stopped by
    /// the next [`update`](Self::update) and leave [`contacts`](Self::contacts) now.
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`] for a handle of no live shape.
    pub fn remove(&mut self, handle: Handle) -> Result<S, WorldError> {
        let entry = self.entry(handle).ok_or(WorldError::StaleHandle(handle))?;
        for id in entry.pairs.clone() {
            if let Some(ended) = self.destroy_pair(id) {
                self.removed_pairs.push(ended);
            }
        }
        let slot = &mut self.slots[handle.index()];
        let entry = slot.entry.take().ok_or(WorldError::StaleHandle(handle))?;
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(handle.index);
        self.trees[entry.motion.tree()].remove(entry.proxy);
        self.ray_snapshot = OnceLock::new();
        self.excluded
            .retain(|&k| (k >> 32) as u32 != handle.index && k as u32 != handle.index);
        Ok(entry.shape)
    }

    /// Moves a shape to `pose` (its rotation made unit as in
    /// [`insert`](Self::insert)); its pairs are recomputed by the next
    /// [`update`](Self::update). A move that stays inside the shape's fat box (see
    /// [`set_broad_margin`](Self::set_broad_margin)) leaves the broad phase untouched.
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`] for a stale handle; [`WorldError::Invalid`] for a
    /// refused pose (as [`insert`](Self::insert)). On error the shape keeps its pose.
    pub fn set_pose(&mut self, handle: Handle, pose: V::Pose) -> Result<(), WorldError> {
        // One lookup of the entry and no second check of what was checked: this runs
        // for every moving shape every frame.
        let pose = match crate::shape::error::pose_passes_as_is(&pose) {
            true => pose,
            false => unit_pose::<V>(&pose)?,
        };
        let (prediction, limit) = (self.prediction, self.stretch_limit());
        let entry = self
            .slots
            .get_mut(handle.index())
            .filter(|slot| slot.generation == handle.generation)
            .and_then(|slot| slot.entry.as_mut())
            .ok_or(WorldError::StaleHandle(handle))?;
        // A shape moved without turning keeps its turned box (the bench scenes, and
        // characters, platforms and projectiles).
        let turned = match entry.pose.same_rotation(&pose) {
            true => entry.turned,
            false => turned_box(&entry.shape, &pose),
        };
        let aabb = turned.shifted(pose.translation());
        let pair_box = pair_box_of(prediction, &aabb);
        let tree = &mut self.trees[entry.motion.tree()];
        let refattened = match entry.motion {
            // A moving shape keeps its leaf (the update refits and, in time, rebuilds).
            // Its box and stretch come from a checked pose: no second check.
            Motion::Moving => {
                let ahead = stretch_between(limit, &entry.aabb, &aabb);
                tree.enlarge_proxy_trusted(entry.proxy, &pair_box, ahead)
                    .ok_or(WorldError::StaleHandle(handle))?
            }
            Motion::Static => tree.move_proxy(entry.proxy, pair_box, V::ZERO)?,
        };
        if refattened {
            entry.fat = fat_box(tree, entry.proxy, &pair_box);
        }
        entry.pose = pose;
        entry.turned = turned;
        entry.aabb = aabb;
        entry.pair_box = pair_box;
        // The slot was marked when its shape was inserted, so its mark exists.
        self.push_dirty(handle.index);
        // `take` only writes when a snapshot was built.
        self.ray_snapshot.take();
        Ok(())
    }

    /// Changes a shape's collision filter (effective from the next update: pairs it
    /// no longer allows stop, pairs it now allows are found).
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`] for a stale handle.
    pub fn set_filter(&mut self, handle: Handle, filter: Filter) -> Result<(), WorldError> {
        let e = self
            .entry_mut(handle)
            .ok_or(WorldError::StaleHandle(handle))?;
        e.filter = filter;
        let (proxy, tree) = (e.proxy, e.motion.tree());
        self.trees[tree].touch(proxy);
        self.mark_dirty(handle.index);
        Ok(())
    }

    /// Excludes (or allows again) the pair of `a` and `b` whatever their filters: an
    /// allowed-collision list for robots with more links than filter bits. Effective
    /// from the next update; forgotten when either shape is removed.
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`] when either handle is stale.
    pub fn set_pair_excluded(
        &mut self,
        a: Handle,
        b: Handle,
        excluded: bool,
    ) -> Result<(), WorldError> {
        for h in [a, b] {
            self.entry(h).ok_or(WorldError::StaleHandle(h))?;
        }
        if excluded {
            self.excluded.insert(pair_key(a, b));
        } else if self.excluded.remove(&pair_key(a, b)) {
            for h in [a, b] {
                if let Some(e) = self.entry(h) {
                    let (proxy, tree) = (e.proxy, e.motion.tree());
                    self.trees[tree].touch(proxy);
                }
            }
        }
        for h in [a, b] {
            self.mark_dirty(h.index);
        }
        Ok(())
    }

    /// True when the pair of `a` and `b` is excluded by
    /// [`set_pair_excluded`](Self::set_pair_excluded).
    pub fn is_pair_excluded(&self, a: Handle, b: Handle) -> bool {
        self.excluded.contains(&pair_key(a, b))
    }

    /// Sets the user data of a live handle (an id or index into the caller's own
    /// tables; 0 at insertion).
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`] for a stale handle.
    pub fn set_user_data(&mut self, handle: Handle, data: u64) -> Result<(), WorldError> {
        let e = self
            .entry_mut(handle)
            .ok_or(WorldError::StaleHandle(handle))?;
        e.user_data = data;
        Ok(())
    }

    /// The user data of a live handle.
    pub fn user_data(&self, handle: Handle) -> Option<u64> {
        self.entry(handle).map(|e| e.user_data)
    }

    /// The shape of a live handle.
    pub fn shape(&self, handle: Handle) -> Option<&S> {
        self.entry(handle).map(|e| &e.shape)
    }

    /// The pose of a live handle.
    pub fn pose(&self, handle: Handle) -> Option<&V::Pose> {
        self.entry(handle).map(|e| &e.pose)
    }

    /// The filter of a live handle.
    pub fn filter(&self, handle: Handle) -> Option<Filter> {
        self.entry(handle).map(|e| e.filter)
    }

    /// Whether a live handle is static or moving.
    pub fn motion(&self, handle: Handle) -> Option<Motion> {
        self.entry(handle).map(|e| e.motion)
    }

    /// The tight world box of a live handle.
    pub fn aabb(&self, handle: Handle) -> Option<&Aabb<V>> {
        self.entry(handle).map(|e| &e.aabb)
    }

    /// Every live handle, in increasing order.
    pub fn handles(&self) -> impl Iterator<Item = Handle> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, s)| {
            s.entry.as_ref().map(|_| Handle {
                index: i as u32,
                generation: s.generation,
            })
        })
    }

    /// A tight box grown by half the prediction and by the narrow phase's rounding
    /// band ([`PAIR_BOX_ULPS`]): two shapes that the narrow phase may report within
    /// `prediction` of each other have overlapping pair boxes.
    #[inline]
    fn pair_box(&self, aabb: &Aabb<V>) -> Aabb<V> {
        pair_box_of(self.prediction, aabb)
    }

    /// The bound of a moving fat box's stretch per axis: [`STRETCH_MARGINS`] broad
    /// margins (see [`stretch_between`]).
    #[inline]
    fn stretch_limit(&self) -> V {
        V::splat(self.trees[1].margin() * V::Scalar::from_f64(STRETCH_MARGINS))
    }

    /// Puts live slot `index` on the dirty list (once).
    fn mark_dirty(&mut self, index: u32) {
        let i = index as usize;
        if self.slots[i].entry.is_none() {
            return;
        }
        if self.dirty_marks.len() <= i {
            self.dirty_marks.resize(self.slots.len(), false);
        }
        self.push_dirty(index);
    }

    /// Puts slot `index`, whose mark exists, on the dirty list unless it is there.
    #[inline]
    fn push_dirty(&mut self, index: u32) {
        let mark = &mut self.dirty_marks[index as usize];
        if !*mark {
            *mark = true;
            self.dirty.push(index);
        }
    }

    /// Drops pair `id` from the cache and from its two shapes' lists; returns its two
    /// handles when it was touching.
    fn destroy_pair(&mut self, id: u32) -> Option<(Handle, Handle)> {
        let pair = *self.pairs.get(id);
        for h in [pair.a, pair.b] {
            if let Some(e) = self.slots[h.index()].entry.as_mut() {
                if let Some(k) = e.pairs.iter().position(|&p| p == id) {
                    e.pairs.swap_remove(k);
                }
            }
        }
        self.pairs.destroy(id)
    }

    fn entry(&self, handle: Handle) -> Option<&Entry<V, S>> {
        let slot = self.slots.get(handle.index())?;
        (slot.generation == handle.generation)
            .then_some(slot.entry.as_ref())
            .flatten()
    }

    fn entry_mut(&mut self, handle: Handle) -> Option<&mut Entry<V, S>> {
        let slot = self.slots.get_mut(handle.index())?;
        (slot.generation == handle.generation)
            .then_some(slot.entry.as_mut())
            .flatten()
    }

    /// The handle of the live entry in slot `index` (from the tree's user data).
    fn handle_at(&self, index: u32) -> Option<(Handle, &Entry<V, S>)> {
        let slot = self.slots.get(index as usize)?;
        let entry = slot.entry.as_ref()?;
        let handle = Handle {
            index,
            generation: slot.generation,
        };
        Some((handle, entry))
    }
}

/// The fat box of live `proxy` in `tree` (`fallback` for a stale one, which the
/// callers never pass: they have just inserted or moved it).
#[inline]
fn fat_box<V: GjkVector>(tree: &DynamicTree<V>, proxy: ProxyId, fallback: &Aabb<V>) -> Aabb<V> {
    *tree.fat_aabb(proxy).unwrap_or(fallback)
}

/// `shape`'s box turned by `pose`'s rotation, about `pose`'s origin: with the
/// translation added ([`Aabb::shifted`]) it is the shape's world box, computed alike
/// whether the rotation is new or kept.
fn turned_box<V: GjkVector, S: DispatchShape<V>>(shape: &S, pose: &V::Pose) -> Aabb<V> {
    shape.world_aabb(&pose.with_translation(V::ZERO))
}

/// [`World::pair_box`] for a world of contact prediction `prediction`.
#[inline]
fn pair_box_of<V: GjkVector>(prediction: V::Scalar, aabb: &Aabb<V>) -> Aabb<V> {
    let magnitude = aabb.min.abs().max(aabb.max.abs()).max_element();
    let band = V::Scalar::from_f64(PAIR_BOX_ULPS) * V::Scalar::EPSILON * magnitude;
    aabb.loosened(prediction * V::Scalar::HALF + band)
}

/// How far a moving shape's fat box reaches ahead of its tight box after a move
/// from `old` to `new`: [`STRETCH_MOVES`] times the move of the box's centre, at most
/// `limit` per axis ([`STRETCH_MARGINS`] broad margins, zero with a zero margin).
/// A shape moving steadily then stays inside its fat box for a frame or more, and
/// its broad-phase queries are not repeated every frame (Box2D v2.4's predicted
/// displacement); the bound keeps a teleport from dragging a long box behind.
#[inline]
fn stretch_between<V: GjkVector>(limit: V, old: &Aabb<V>, new: &Aabb<V>) -> V {
    let moved = (new.min + new.max - old.min - old.max)
        * (V::Scalar::HALF * V::Scalar::from_f64(STRETCH_MOVES));
    moved.max(-limit).min(limit)
}

/// `pose` with a unit rotation, or the error naming `pose.rotation` or
/// `pose.translation` (beyond [`Real::MAX_COORD`](crate::math::Real::MAX_COORD)); see
/// [`check_pose`](crate::shape::error::check_pose).
pub(crate) fn unit_pose<V: GjkVector>(pose: &V::Pose) -> Result<V::Pose, ShapeError> {
    crate::shape::error::check_pose("World", "pose.rotation", "pose.translation", pose)
}

/// `f` over `items` and their indices on rayon's pool, answers in `items`' order (the
/// world's parallel phases give the serial answers; the serial build runs the same
/// steps in a plain loop, storing as it goes).
#[cfg(feature = "parallel")]
fn map_indexed_in_order<T: Sync, U: Send>(
    items: &[T],
    f: impl Fn(usize, &T) -> U + Sync + Send,
) -> Vec<U> {
    use rayon::prelude::*;
    items.par_iter().enumerate().map(|(i, t)| f(i, t)).collect()
}

/// [`map_indexed_in_order`] without the indices.
#[cfg(feature = "parallel")]
fn map_in_order<T: Sync, U: Send>(items: &[T], f: impl Fn(&T) -> U + Sync + Send) -> Vec<U> {
    map_indexed_in_order(items, |_, t| f(t))
}
