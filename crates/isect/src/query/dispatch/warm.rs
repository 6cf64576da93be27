//! Warm-started pair queries, for a pair asked again and again as its shapes move a
//! little (the collision world's narrow phase): a small per-pair [`ContactCache`]
//! keeps what proved the pair apart at its last query, and the next query tests that
//! first. As Box2D's cached separating axis and simplex (`b2SimplexCache`,
//! `b2SeparationFunction`), coal's cached guess (`GJKSolver`'s support hint and
//! cached direction) and Ericson's remark on SAT coherence (*Real-Time Collision
//! Detection*, 4.4.1 and 9.5.1: "the separating axis of the previous frame is likely
//! to separate in this one").
//!
//! - **Box pairs (3D).** The index of the SAT axis ([`sat_3d::OBB_AXES`]) that
//!   separated the boxes: one axis instead of fifteen while it still does
//!   ([`sat_3d::obb_axis_separates`]).
//! - **GJK pairs.** The direction whose supporting plane stopped GJK (the cores
//!   farther apart than the prediction): one support call while it still proves it
//!   ([`gjk::plane_separates`]).
//! - Analytic pairs (balls, capsules, ball–box) cost less than a cache lookup, and
//!   the other kernels (polygon SAT, composites) run uncached.
//!
//! The cache is never more than a shortcut to `None` backed by a proof (a gap along
//! the cached axis beyond the prediction, with rounding to spare); every other answer
//! is computed as without it. So cached and uncached answers are equal, a stale
//! cache (another pair's, one from before a teleport) only costs its one test, and
//! the uncached functions stay.
//!
//! [`sat_3d::OBB_AXES`]: crate::algo::sat_3d::OBB_AXES
//! [`sat_3d::obb_axis_separates`]: crate::algo::sat_3d::obb_axis_separates
//! [`gjk::plane_separates`]: crate::algo::gjk::plane_separates

use crate::math::Vector;

/// What the last warm-started query of a pair learned: the SAT axis or the GJK
/// direction that proved the shapes apart (see the module docs of
/// [`dispatch::warm`](self)). Start with [`ContactCache::new`] and pass the same cache
/// to each query of the pair ([`contact_cached`](super::contact_cached),
/// [`contact_manifold_cached`](super::contact_manifold_cached)); any cache gives the
/// right answer, the pair's own gives it faster.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ContactCache<V: Vector> {
    /// The box pair's separating SAT axis, or [`NO_AXIS`].
    pub(crate) sat_axis: u32,
    /// A direction in A's frame whose supporting plane of `A − B` proved the cores
    /// apart, or zero.
    pub(crate) plane: V,
}

/// No SAT axis cached.
pub(crate) const NO_AXIS: u32 = u32::MAX;

impl<V: Vector> ContactCache<V> {
    /// An empty cache: the first query runs as an uncached one.
    ///
    /// ```
    /// use isect::d3::*;
    /// use isect::query::dispatch::ContactCache;
    ///
    /// let cache = ContactCache::<Vec3>::new();
    /// assert!(cache.is_empty());
    /// ```
    #[inline]
    pub fn new() -> Self {
        Self {
            sat_axis: NO_AXIS,
            plane: V::ZERO,
        }
    }

    /// True when the cache holds no separating axis or direction (a pair that touched
    /// at its last query, or none yet).
    ///
    /// ```
    /// use isect::d3::*;
    /// use isect::query::dispatch::{self, ContactCache};
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // Two unit cubes 3 apart: the query keeps the axis that separates them.
    /// let cube = Shape::Cuboid(Aabb::new(Vec3::splat(-0.5), Vec3::splat(0.5))?);
    /// let far = Pose::from_translation(Vec3::new(3.0, 0.0, 0.0));
    /// let mut cache = ContactCache::new();
    /// assert!(dispatch::contact_cached(&Pose::IDENTITY, &cube, &far, &cube, 0.0, &mut cache).is_none());
    /// assert!(!cache.is_empty());
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.sat_axis == NO_AXIS && self.plane == V::ZERO
    }

    /// Forgets what the cache holds (as [`new`](Self::new)).
    #[inline]
    pub fn clear(&mut self) {
        *self = Self::new();
    }
}

impl<V: Vector> Default for ContactCache<V> {
    #[inline]
    fn default() -> Self {
        Self::new()
    }
}
