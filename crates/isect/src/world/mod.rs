//! The collision world: shapes with poses and collision filters behind generational
//! handles, a [`DynamicTree`] broad phase, a narrow phase of
//! [`dispatch`](crate::query::dispatch) contacts, and scene queries (rays, shape
//! casts, points, boxes, shape overlaps).
//!
//! One generic type serves both dimensions: [`World<V, S>`] over the vector type and
//! the shape enum (`World<Vec2, shape_2d::Shape<f32>>`; the preludes name it `World`).
//! The pipeline is Box2D's (E. Catto, `b2BroadPhase` / `b2ContactManager`): fat boxes
//! in a dynamic tree, candidate pairs from the tree, exact contacts for each
//! candidate. No tolerances of its own: the broad phase is exact on boxes and the
//! narrow phase is [`dispatch::contact`](crate::query::dispatch::contact).
//!
//! Poses: a pose's rotation is checked where it enters ([`World::insert`],
//! [`World::set_pose`], and the query poses of [`World::cast_shape`] and
//! [`World::intersecting_shapes`]): normalised within
//! [`ROTATION_UNIT_ULPS`](crate::math::ROTATION_UNIT_ULPS) of unit length, refused
//! beyond (see [`Rotation3::to_unit`](crate::math::Rotation3::to_unit)), so the
//! broad phase's box, the narrow phase and every query see one rigid shape.
//!
//! Determinism: every list a world returns is sorted (pairs by their two handles,
//! hits by distance then handle), so results do not depend on the tree's layout, and
//! the `parallel` feature returns exactly the serial answers in the same order.
//!
//! ```
//! use isect::d3::*;
//!
//! # fn main() -> Result<(), ShapeError> {
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

mod queries;
mod update;

pub use queries::WorldRayHit;
pub use update::{PairContact, UpdateEvents, UpdateStats, REBUILD_MIN_INSERTIONS};

use crate::algo::gjk::GjkVector;
use crate::broad::{Bvh, DynamicTree, ProxyId};
use crate::math::Real;
use crate::query::dispatch::DispatchShape;
use crate::shape::{Aabb, ShapeError};
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// A shape's handle in a [`World`]: a slot index and the generation of that slot, so
/// that a handle of a removed shape never names the shape that reuses its slot.
/// Ordered by index, then generation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
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
}

/// Collision filter bits (as Box2D's `b2Filter`): two shapes interact when each one's
/// `group` shares a bit with the other's `mask`. The default interacts with everything.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Filter {
    /// The categories this shape belongs to.
    pub group: u32,
    /// The categories this shape interacts with.
    pub mask: u32,
}

impl Default for Filter {
    fn default() -> Self {
        Self::ALL
    }
}

impl Filter {
    /// Every category, interacting with every category.
    pub const ALL: Self = Self {
        group: u32::MAX,
        mask: u32::MAX,
    };

    /// True when the two filters let their shapes interact (symmetric).
    #[inline]
    pub fn allows(&self, other: &Self) -> bool {
        self.group & other.mask != 0 && other.group & self.mask != 0
    }
}

/// One live shape.
#[derive(Clone, Debug)]
struct Entry<V: GjkVector, S> {
    shape: S,
    pose: V::Pose,
    filter: Filter,
    proxy: ProxyId,
    aabb: Aabb<V>,
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
    tree: DynamicTree<V>,
    prediction: V::Scalar,
    /// Touching pairs after the last `update`, `a < b`, with their contacts.
    contacts: Vec<PairContact<V>>,
    /// Pairs that stopped because a shape was removed since the last `update`.
    removed_pairs: BTreeSet<(Handle, Handle)>,
    /// Pairs whose fat boxes overlapped at the last `update`, `a < b`, sorted.
    broad_pairs: Vec<(Handle, Handle)>,
    /// What the last `update` did.
    stats: UpdateStats,
    /// A static 4-wide [`Bvh`] over the tight boxes (items: slot indices), built by a
    /// large [`cast_rays`](Self::cast_rays) batch and kept until a shape is inserted,
    /// removed or moved.
    ray_snapshot: OnceLock<Bvh<V>>,
}

impl<V: GjkVector, S: DispatchShape<V>> Default for World<V, S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: GjkVector, S: DispatchShape<V>> World<V, S> {
    /// An empty world whose narrow phase reports touching or overlapping pairs
    /// (contact prediction 0).
    pub fn new() -> Self {
        Self {
            slots: Vec::new(),
            free: Vec::new(),
            tree: DynamicTree::new(),
            prediction: V::Scalar::ZERO,
            contacts: Vec::new(),
            removed_pairs: BTreeSet::new(),
            broad_pairs: Vec::new(),
            stats: UpdateStats::default(),
            ray_snapshot: OnceLock::new(),
        }
    }

    /// An empty world whose narrow phase also reports pairs up to `prediction` apart
    /// (speculative contacts with negative depth).
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] / [`ShapeError::Negative`] for a bad `prediction`.
    pub fn with_prediction(prediction: V::Scalar) -> Result<Self, ShapeError> {
        let prediction =
            crate::shape::error::check_non_negative("World", "prediction", prediction)?;
        Ok(Self {
            prediction,
            ..Self::new()
        })
    }

    /// Sets the broad phase's margin: each shape's box in the tree is its tight box
    /// grown by `margin`, so a shape that moves by less keeps its tree box and costs
    /// the broad phase nothing (Box2D's `aabbMargin`). Answers do not change: the
    /// narrow phase and the queries still test tight boxes and exact shapes. The
    /// default is 0. Rebuilds the tree over the live shapes.
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] / [`ShapeError::Negative`] for a bad `margin` (the
    /// world is then unchanged).
    pub fn set_broad_margin(&mut self, margin: V::Scalar) -> Result<(), ShapeError> {
        let mut tree = DynamicTree::with_margin(margin)?;
        let mut proxies = Vec::with_capacity(self.len());
        for (index, slot) in self.slots.iter().enumerate() {
            if let Some(e) = &slot.entry {
                // The box was accepted before, so the insertion succeeds.
                proxies.push((index, tree.insert(self.pair_box(&e.aabb), index as u32)?));
            }
        }
        for (index, proxy) in proxies {
            if let Some(e) = self.slots[index].entry.as_mut() {
                e.proxy = proxy;
            }
        }
        self.tree = tree;
        self.broad_pairs.clear();
        Ok(())
    }

    /// Number of live shapes.
    pub fn len(&self) -> usize {
        self.tree.len()
    }

    /// True when the world holds no shape.
    pub fn is_empty(&self) -> bool {
        self.tree.is_empty()
    }

    /// Adds `shape` at `pose` with `filter` and returns its handle. The pair events
    /// it causes are reported by the next [`update`](Self::update). The pose is stored
    /// with its rotation made unit (normalised when off by at most
    /// [`ROTATION_UNIT_ULPS`](crate::math::ROTATION_UNIT_ULPS)).
    ///
    /// # Errors
    /// - [`ShapeError::NotFinite`] (field `pose.rotation`) for a NaN or infinite
    ///   rotation, [`ShapeError::NotUnit`] for a zero or far-off one.
    /// - [`ShapeError::NotFinite`] / [`ShapeError::TooLarge`] (field
    ///   `pose.translation`) for a translation not finite or beyond
    ///   [`Real::MAX_COORD`].
    /// - The [`ShapeError`] of the broad phase when the shape's box at the pose is not
    ///   finite, or when the world would exceed `u32` slots.
    pub fn insert(
        &mut self,
        shape: S,
        pose: V::Pose,
        filter: Filter,
    ) -> Result<Handle, ShapeError> {
        let pose = unit_pose::<V>(&pose)?;
        let aabb = shape.world_aabb(&pose);
        let index = match self.free.last() {
            Some(&i) => i,
            None => u32::try_from(self.slots.len()).map_err(|_| too_many())?,
        };
        let proxy = self.tree.insert(self.pair_box(&aabb), index)?;
        self.ray_snapshot = OnceLock::new();
        if self.free.pop().is_none() {
            self.slots.push(Slot {
                generation: 0,
                entry: None,
            });
        }
        let slot = &mut self.slots[index as usize];
        slot.entry = Some(Entry {
            shape,
            pose,
            filter,
            proxy,
            aabb,
        });
        Ok(Handle {
            index,
            generation: slot.generation,
        })
    }

    /// Removes a shape and returns it; `None` for a stale handle. Its touching pairs
    /// are reported as stopped by the next [`update`](Self::update).
    pub fn remove(&mut self, handle: Handle) -> Option<S> {
        let entry = self.slot_mut(handle)?.entry.take()?;
        let slot = &mut self.slots[handle.index()];
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(handle.index);
        self.tree.remove(entry.proxy);
        self.ray_snapshot = OnceLock::new();
        let gone = self
            .contacts
            .iter()
            .filter(|c| c.a == handle || c.b == handle)
            .map(|c| (c.a, c.b));
        self.removed_pairs.extend(gone);
        self.contacts.retain(|c| c.a != handle && c.b != handle);
        Some(entry.shape)
    }

    /// Moves a shape to `pose` (its rotation made unit as in
    /// [`insert`](Self::insert)); its pairs are updated by the next
    /// [`update`](Self::update).
    ///
    /// # Errors
    /// [`ShapeError::OutOfRange`] for a stale handle; [`ShapeError::NotFinite`] /
    /// [`ShapeError::NotUnit`] for a refused rotation; the broad phase's
    /// [`ShapeError`] for a non-finite translation. On error the shape keeps its old
    /// pose.
    pub fn set_pose(&mut self, handle: Handle, pose: V::Pose) -> Result<(), ShapeError> {
        let pose = unit_pose::<V>(&pose)?;
        let entry = self.entry(handle).ok_or_else(|| stale(handle))?;
        let aabb = entry.shape.world_aabb(&pose);
        let proxy = entry.proxy;
        self.tree.move_proxy(proxy, self.pair_box(&aabb), V::ZERO)?;
        self.ray_snapshot = OnceLock::new();
        if let Some(e) = self.slot_mut(handle).and_then(|s| s.entry.as_mut()) {
            e.pose = pose;
            e.aabb = aabb;
        }
        Ok(())
    }

    /// Changes a shape's collision filter (effective from the next update).
    ///
    /// # Errors
    /// [`ShapeError::OutOfRange`] for a stale handle.
    pub fn set_filter(&mut self, handle: Handle, filter: Filter) -> Result<(), ShapeError> {
        let e = self.slot_mut(handle).and_then(|s| s.entry.as_mut());
        e.ok_or_else(|| stale(handle))?.filter = filter;
        Ok(())
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

    /// A tight box grown by half the prediction: two shapes within `prediction` of
    /// each other have overlapping pair boxes.
    #[inline]
    fn pair_box(&self, aabb: &Aabb<V>) -> Aabb<V> {
        aabb.loosened(self.prediction * V::Scalar::HALF)
    }

    fn entry(&self, handle: Handle) -> Option<&Entry<V, S>> {
        let slot = self.slots.get(handle.index())?;
        (slot.generation == handle.generation)
            .then_some(slot.entry.as_ref())
            .flatten()
    }

    fn slot_mut(&mut self, handle: Handle) -> Option<&mut Slot<V, S>> {
        let slot = self.slots.get_mut(handle.index())?;
        (slot.generation == handle.generation).then_some(slot)
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

/// `pose` with a unit rotation, or the error naming `pose.rotation` or
/// `pose.translation` (beyond [`Real::MAX_COORD`](crate::math::Real::MAX_COORD)); see
/// [`check_pose`](crate::shape::error::check_pose).
pub(crate) fn unit_pose<V: GjkVector>(pose: &V::Pose) -> Result<V::Pose, ShapeError> {
    crate::shape::error::check_pose("World", "pose.rotation", "pose.translation", pose)
}

fn stale(handle: Handle) -> ShapeError {
    ShapeError::OutOfRange {
        shape: "World",
        field: "handle",
        value: f64::from(handle.index),
        range: "live handles",
    }
}

fn too_many() -> ShapeError {
    ShapeError::OutOfRange {
        shape: "World",
        field: "shape count",
        value: u32::MAX as f64,
        range: "below u32::MAX",
    }
}
