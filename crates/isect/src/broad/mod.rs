//! Broad phase: structures that find, among many boxes, the few pairs and the few boxes
//! along a ray that the exact (narrow-phase) tests must look at.
//!
//! - [`DynamicTree`]: an incremental AABB tree of fat boxes with SAH insertion and tree
//!   rotations, for moving objects (Box2D v3 `dynamic_tree.c`, Bullet `btDbvt`; E. Catto,
//!   "Dynamic Bounding Volume Hierarchies", GDC 2019).
//! - [`Bvh`]: a static 4-wide BVH built by binned SAH (I. Wald, "On fast construction of
//!   SAH-based bounding volume hierarchies", 2007), with refit, for static geometry.
//! - [`SweepAndPrune`]: incremental sort-and-sweep along one axis (Ericson, *Real-Time
//!   Collision Detection*, 7.5.2), for scenes that move coherently.
//! - [`simd`]: the structure-of-arrays kernels (one ray or one box against four boxes)
//!   used by the [`Bvh`] nodes.
//!
//! All structures treat boxes as closed (touching boxes overlap, as
//! [`Aabb::intersects`](crate::shape::Aabb::intersects) does) and use
//! [`PreparedRay`](crate::algo::slab::PreparedRay)'s robustness rules for rays. Box
//! tests are exact on the stored boxes; ray tests have the slab test's one tolerance
//! ([`SLAB_EXIT_ULPS`](crate::algo::slab::SLAB_EXIT_ULPS): a ray through an edge or
//! corner of a box meets it, whatever the rounding of its entry and exit).
//! Traversals use an explicit stack (inline, spilling to the heap), never recursion.

mod bvh;
mod bvh_build;
mod dynamic_tree;
mod sap;
pub mod simd;
mod stack;

pub(crate) use bvh::lanes;
pub use bvh::{Bvh, PairTask};
pub(crate) use bvh_build::Rows;
pub use dynamic_tree::DynamicTree;
pub use sap::SweepAndPrune;
pub(crate) use stack::Stack;

use crate::math::{Real, Vector};
use crate::shape::{Aabb, ShapeError};

/// Handle of a box in a [`DynamicTree`] or a [`SweepAndPrune`]. Handles are reused after
/// removal; a stale handle is answered with `None` / an error, never a panic.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProxyId(pub(crate) u32);

impl ProxyId {
    /// The handle as an index (dense: handles are reused, so this stays below the peak
    /// number of live proxies times two for the tree, the peak count for sweep-and-prune).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a structural validator (`validate()`) found wrong, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defect(pub String);

impl core::fmt::Display for Defect {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Defect {}

/// `Ok` for a finite box with `min ≤ max`, else the [`ShapeError`] of [`Aabb::ordered`]
/// (bounding boxes of any finite magnitude are accepted).
pub(crate) fn check_aabb<V: Vector>(aabb: &Aabb<V>) -> Result<(), ShapeError> {
    Aabb::ordered(aabb.min, aabb.max).map(|_| ())
}

/// `max_t` clipped to the largest finite value, so that no box is "hit at `t = ∞`"
/// (a zero-direction ray outside a box would otherwise meet it there).
#[inline]
pub(crate) fn finite_max_t<S: Real>(max_t: S) -> S {
    if max_t > S::MAX {
        S::MAX
    } else {
        max_t
    }
}
