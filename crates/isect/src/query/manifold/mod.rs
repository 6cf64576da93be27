//! Contact manifolds: up to 2 (2D) or 4 (3D) contact points sharing one normal, each
//! with a [`FeatureId`] a solver matches from frame to frame.
//!
//! - [`sat`]: boxes and polyhedra by the separating-axis test and clipping (Jolt,
//!   Bullet).
//! - [`polygons_2d`]: every 2D kind with a polygonal core (polygons, boxes, capsules,
//!   segments, triangles, rounded kinds) by SAT and clipping (Box2D v3 `manifold.c`).
//! - [`features`]: every other convex pair, from the supporting features of the two
//!   shapes along [`contact`]'s normal, clipped as the faces are (Jolt
//!   `ManifoldBetweenTwoFaces`, parry's polygonal feature maps).
//! - `triangle_box`: the separating-axis test of a triangle against a box, whose face
//!   axes start the feature manifold of the pair without GJK and EPA.
//! - [`merge_manifolds`]: one manifold from several (a composite's parts);
//!   [`merge_manifolds_by_normal`]: one for each normal they touch along (a shape in
//!   a corner).
//!
//! No tolerances beyond those of the submodules and [`MERGE_NORMAL_COS`] /
//! [`MERGE_DUPLICATE_ULPS`].

// `!(x > y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
pub mod features;
mod normals;
pub mod polygons_2d;
pub mod sat;
pub(crate) mod triangle_box;

use normals::Normals;

pub use polygons_2d::{
    contact_manifold_obb_2d, contact_manifold_obb_polygon, contact_manifold_polygons,
};
pub use sat::{contact_manifold_obb_3d, contact_manifold_polyhedra};

use crate::algo::gjk::{GjkVector, Status};
use crate::algo::support::SupportMap;
use crate::math::{Isometry, Real, Vector};
use crate::query::contact::{contact, Contact};

/// Capacity of a [`Manifold`]: 4 points (2D manifolds use at most 2, and hold room
/// for 2: [`Vector::ManifoldSlots`]).
pub const MAX_MANIFOLD_POINTS: usize = 4;

/// Fixed-capacity storage of a [`Manifold`]'s points ([`Vector::ManifoldSlots`]): an
/// array of 2 (2D) or [`MAX_MANIFOLD_POINTS`] (3D) points.
pub trait ManifoldSlots<V: Vector>:
    Copy + core::fmt::Debug + PartialEq + Send + Sync + 'static
{
    /// Every slot holding `p`.
    fn splat(p: ManifoldPoint<V>) -> Self;
    /// The slots.
    fn as_slice(&self) -> &[ManifoldPoint<V>];
    /// The slots, mutable.
    fn as_mut_slice(&mut self) -> &mut [ManifoldPoint<V>];
}

impl<V: Vector, const N: usize> ManifoldSlots<V> for [ManifoldPoint<V>; N] {
    #[inline]
    fn splat(p: ManifoldPoint<V>) -> Self {
        [p; N]
    }
    #[inline]
    fn as_slice(&self) -> &[ManifoldPoint<V>] {
        self
    }
    #[inline]
    fn as_mut_slice(&mut self) -> &mut [ManifoldPoint<V>] {
        self
    }
}

/// [`FeatureId::point`] of an edge–edge contact.
pub const EDGE_EDGE: u32 = u32::MAX - 1;

/// Identifies the features that produced a manifold point, so a solver can match
/// points from frame to frame: it stays the same while the same geometric contact
/// persists (small motions do not change it).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FeatureId {
    /// True when the reference face belongs to B.
    pub reference_is_b: bool,
    /// Reference face index (polygon edge, box face `2·axis + (1 for −)`, polyhedron
    /// face; for feature manifolds the reference feature's
    /// [`id`](crate::algo::feature::SupportFeature::id)); for edge–edge contacts, A's
    /// edge index.
    pub reference: u32,
    /// Incident face index (or feature id); for edge–edge contacts, B's edge index.
    pub incident: u32,
    /// The incident vertex index (for boxes, the corner index: bit `k` set when
    /// coordinate `k` is positive), or a clip code
    /// ([`CLIPPED_2D`](crate::algo::clip_2d::CLIPPED_2D),
    /// [`CLIPPED_3D`](crate::algo::clip_3d::CLIPPED_3D): the side plane and incident
    /// edge it was cut from), [`EDGE_EDGE`], [`features::DEEPEST`], or `u32::MAX` for a
    /// single GJK/EPA point ([`FeatureId::SINGLE`]).
    pub point: u32,
    /// A's part index when A is a composite ([`NO_PART`] for a convex A): merged
    /// manifolds of several parts keep their points apart.
    pub part_a: u32,
    /// B's part index when B is a composite ([`NO_PART`] for a convex B).
    pub part_b: u32,
}

/// [`FeatureId::part_a`] / [`FeatureId::part_b`] of a convex shape.
pub const NO_PART: u32 = u32::MAX;

impl FeatureId {
    /// The id of the single point of [`contact_manifold_convex`].
    pub const SINGLE: Self = Self {
        reference_is_b: false,
        reference: u32::MAX,
        incident: u32::MAX,
        point: u32::MAX,
        part_a: NO_PART,
        part_b: NO_PART,
    };

    /// The id of a face or edge contact between convex shapes.
    pub const fn new(reference_is_b: bool, reference: u32, incident: u32, point: u32) -> Self {
        Self {
            reference_is_b,
            reference,
            incident,
            point,
            part_a: NO_PART,
            part_b: NO_PART,
        }
    }
}

/// One contact point, in world space.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ManifoldPoint<V: Vector> {
    /// The point on A's surface.
    pub point_a: V,
    /// The point on B's surface; `point_a − point_b = depth · normal`.
    pub point_b: V,
    /// Penetration depth along the manifold normal (`< 0`: separation).
    pub depth: V::Scalar,
    /// Frame-to-frame id.
    pub id: FeatureId,
}

/// Up to [`MAX_MANIFOLD_POINTS`] contact points sharing one normal; no heap.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Manifold<V: Vector> {
    /// Unit normal from A to B (world).
    pub normal: V,
    /// `Converged` for SAT manifolds; the GJK/EPA status for single-point fallbacks.
    pub status: Status,
    points: V::ManifoldSlots,
    len: usize,
}

impl<V: Vector> Manifold<V> {
    /// What an unused slot holds.
    const EMPTY_POINT: ManifoldPoint<V> = ManifoldPoint {
        point_a: V::ZERO,
        point_b: V::ZERO,
        depth: V::Scalar::ZERO,
        id: FeatureId::SINGLE,
    };

    fn new(normal: V, status: Status) -> Self {
        Self {
            normal,
            status,
            points: V::ManifoldSlots::splat(Self::EMPTY_POINT),
            len: 0,
        }
    }

    /// A converged manifold of the first `len` (at most 2) of `points`, built in one
    /// piece (the caller leaves a slot it does not use at [`Self::EMPTY_POINT`]).
    fn pair(normal: V, points: [ManifoldPoint<V>; 2], len: usize) -> Self {
        let mut slots = V::ManifoldSlots::splat(Self::EMPTY_POINT);
        slots.as_mut_slice()[..2].copy_from_slice(&points);
        Self {
            normal,
            status: Status::Converged,
            points: slots,
            len: len.min(2),
        }
    }

    /// A manifold of the single point of `c`.
    pub(crate) fn single(c: &Contact<V>, id: FeatureId) -> Self {
        let point = ManifoldPoint {
            point_a: c.point_a,
            point_b: c.point_b,
            depth: c.depth,
            id,
        };
        // Every slot holds the point (one write each); only the first counts.
        Self {
            normal: c.normal,
            status: c.status,
            points: V::ManifoldSlots::splat(point),
            len: 1,
        }
    }

    /// Appends a point; beyond the capacity it is dropped (callers never exceed it).
    fn push(&mut self, point_a: V, point_b: V, depth: V::Scalar, id: FeatureId) {
        if let Some(slot) = self.points.as_mut_slice().get_mut(self.len) {
            *slot = ManifoldPoint {
                point_a,
                point_b,
                depth,
                id,
            };
            self.len += 1;
        }
    }

    /// Keeps the first `len` points.
    fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// The contact points (at least one in any manifold a query returns).
    #[inline]
    pub fn points(&self) -> &[ManifoldPoint<V>] {
        &self.points.as_slice()[..self.len]
    }

    /// The contact points, mutable (for re-measuring along a corrected normal).
    #[inline]
    pub(crate) fn points_mut(&mut self) -> &mut [ManifoldPoint<V>] {
        &mut self.points.as_mut_slice()[..self.len]
    }

    /// The largest depth among the points (`−∞` for none).
    pub fn max_depth(&self) -> V::Scalar {
        self.points()
            .iter()
            .fold(V::Scalar::NEG_INFINITY, |m, p| m.max(p.depth))
    }

    /// The deepest point as a [`Contact`] along the manifold's normal (`None` for no
    /// point; the last of equally deep ones).
    pub fn deepest_contact(&self) -> Option<Contact<V>> {
        let p = self.points().iter().max_by(|x, y| {
            x.depth
                .partial_cmp(&y.depth)
                .unwrap_or(core::cmp::Ordering::Equal)
        })?;
        Some(Contact {
            normal: self.normal,
            depth: p.depth,
            point_a: p.point_a,
            point_b: p.point_b,
            status: self.status,
        })
    }

    /// The same manifold seen from B: normal reversed, points swapped, ids keep
    /// naming the same features (`reference_is_b` flipped for face contacts, the two
    /// edges swapped for edge–edge contacts).
    pub fn flipped(&self) -> Self {
        let mut m = *self;
        m.normal = -self.normal;
        for p in m.points_mut() {
            core::mem::swap(&mut p.point_a, &mut p.point_b);
            core::mem::swap(&mut p.id.part_a, &mut p.id.part_b);
            match p.id.point {
                EDGE_EDGE => core::mem::swap(&mut p.id.reference, &mut p.id.incident),
                u32::MAX => {}
                _ => p.id.reference_is_b = !p.id.reference_is_b,
            }
        }
        m
    }

    /// The manifold with its points' ids naming the composites' parts it came from.
    pub(crate) fn with_parts(mut self, part_a: Option<u32>, part_b: Option<u32>) -> Self {
        for p in self.points_mut() {
            p.id.part_a = part_a.unwrap_or(NO_PART);
            p.id.part_b = part_b.unwrap_or(NO_PART);
        }
        self
    }

    /// The manifold mapped from a local frame to the world by `pose`.
    fn transformed(mut self, pose: &V::Pose) -> Self {
        self.normal = pose.transform_vector(self.normal);
        for p in self.points_mut() {
            p.point_a = pose.transform_point(p.point_a);
            p.point_b = pose.transform_point(p.point_b);
        }
        self
    }
}

/// The manifold of two convex shapes of any kind: the single point of [`contact`]
/// (with [`FeatureId::SINGLE`]), `None` beyond `prediction` or for NaN input.
///
/// ```
/// use isect::d3::*;
/// use isect::query::contact_manifold_convex;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A cylinder (any support-mapped pair) gets the single point of `contact`.
/// let ball = Ball::new(Vec3::ZERO, 1.0)?;
/// let post = Cylinder::new(2.0, 0.5)?;
/// let at = Pose::from_translation(Vec3::new(1.25, 0.0, 0.0));
/// let m = contact_manifold_convex(&Pose::IDENTITY, &ball, &at, &post, 0.0).expect("overlap");
/// assert_eq!(m.points().len(), 1);
/// assert!((m.points()[0].depth - 0.25).abs() < 1e-4);
/// # Ok(())
/// # }
/// ```
pub fn contact_manifold_convex<V, A, B>(
    pose_a: &V::Pose,
    a: &A,
    pose_b: &V::Pose,
    b: &B,
    prediction: V::Scalar,
) -> Option<Manifold<V>>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    contact(pose_a, a, pose_b, b, prediction).map(|c| Manifold::single(&c, FeatureId::SINGLE))
}

/// [`merge_manifolds`] merges the manifolds whose normals are within this cosine of
/// the deepest one's (about 5°).
pub const MERGE_NORMAL_COS: f64 = 0.996;
/// [`merge_manifolds`] counts points closer than this many machine epsilons of the
/// points' largest coordinate as one.
pub const MERGE_DUPLICATE_ULPS: f64 = 1024.0;

/// [`merge_manifolds`] in 3D keeps a third or fourth point only when it lies farther
/// than this fraction of the two first points' distance from their line.
pub const MERGE_FLAT_FRACTION: f64 = 1e-3;

/// One manifold from several, such as a composite's per-part manifolds
/// ([`crate::query::composite::PartManifold`]): the normal that most of them share
/// (within [`MERGE_NORMAL_COS`]), the deepest one's among ties, so that one part
/// touched along a stray normal (a shape's edge against a triangle's edge) does not
/// turn a floor's manifold; the points of every manifold whose normal is within
/// [`MERGE_NORMAL_COS`] of it, less
/// duplicates (within [`MERGE_DUPLICATE_ULPS`]: parts meeting at a shared vertex or
/// edge both report it); reduced to 2 points in 2D, 4 in 3D as the clipped manifolds
/// are ([`crate::algo::clip_3d::reduce_to_four`], Jolt's `PruneContactPoints`): the
/// deepest point, the point farthest from it, then in 3D the point farthest from their
/// line and the one farthest beyond the line on the other side, each when farther from
/// the line than [`MERGE_FLAT_FRACTION`] of the first two's distance (the widest
/// support, which keeps a resting shape from tipping; points between them add
/// nothing).
/// Points keep their ids and depths. `None` for no manifold or no point.
///
/// ```
/// use isect::d2::*;
/// use isect::query::{contact_manifold_obb_2d, merge_manifolds};
///
/// # fn main() -> Result<(), ShapeError> {
/// // A box resting 0.1 deep across two floor tiles: one manifold a tile, merged into
/// // one of 2 points (the box's two bottom corners) along the shared normal.
/// let tile = Obb::from_angle(Vec2::ZERO, Vec2::new(1.0, 0.5), 0.0)?;
/// let crate_ = Obb::from_angle(Vec2::ZERO, Vec2::new(0.5, 0.5), 0.0)?;
/// let left = Pose::from_translation(Vec2::new(-1.0, 0.0));
/// let right = Pose::from_translation(Vec2::new(1.0, 0.0));
/// let on_top = Pose::from_translation(Vec2::new(0.0, 0.9));
/// let parts = [
///     contact_manifold_obb_2d(&left, &tile, &on_top, &crate_, 0.0).expect("touches the left tile"),
///     contact_manifold_obb_2d(&right, &tile, &on_top, &crate_, 0.0).expect("and the right one"),
/// ];
/// let m = merge_manifolds(&parts).expect("two manifolds");
/// assert_eq!(m.points().len(), 2);
/// assert!((m.normal - Vec2::Y).length() < 1e-5);
/// assert!(m.points().iter().all(|p| (p.depth - 0.1).abs() < 1e-5));
/// # Ok(())
/// # }
/// ```
pub fn merge_manifolds<'a, V: Vector>(
    manifolds: impl IntoIterator<Item = &'a Manifold<V>>,
) -> Option<Manifold<V>> {
    let all: Vec<&Manifold<V>> = manifolds.into_iter().collect();
    let normals = Normals::new(&all);
    let live = vec![true; normals.len()];
    let counts = sharing_counts(&normals, &live);
    let reference = reference_of(&all, &normals, &counts, &live)?;
    merged_along(&all, &normals, reference, &live)
}

/// For each group of equal normals ([`Normals`]), how many manifolds of live groups
/// lie within [`MERGE_NORMAL_COS`] of its normal.
fn sharing_counts<V: Vector>(normals: &Normals<V>, live: &[bool]) -> Vec<usize> {
    (0..normals.len())
        .map(|g| {
            let mut k = 0;
            normals.for_each_near(g, |h| {
                if live[h] {
                    k += normals.members(h).len();
                }
            });
            k
        })
        .collect()
}

/// The manifold the merge takes its normal from, among the manifolds of live groups
/// with points: the most sharing its normal (`counts`), then the deepest, then the
/// first (a scan in order that keeps the first of the most sharing and moves on only
/// to a strictly deeper one). Found group by group: the largest count, then among
/// its manifolds the first one, or, when its depth is a number, the first of the
/// greatest depth.
fn reference_of<V: Vector>(
    all: &[&Manifold<V>],
    normals: &Normals<V>,
    counts: &[usize],
    live: &[bool],
) -> Option<usize> {
    let with_points = |g: usize| {
        normals
            .members(g)
            .iter()
            .copied()
            .filter(|&i| !all[i].points().is_empty())
    };
    let candidates = || (0..normals.len()).filter(|&g| live[g] && with_points(g).next().is_some());
    let most = candidates().map(|g| counts[g]).max()?;
    let tied = || candidates().filter(|&g| counts[g] == most);
    let first = tied().filter_map(|g| with_points(g).next()).min()?;
    let depth = |i: usize| all[i].max_depth();
    if depth(first).is_nan() {
        return Some(first);
    }
    // The first of the greatest depth (NaN depths are never greater).
    tied()
        .flat_map(with_points)
        .filter(|&i| !depth(i).is_nan())
        .fold(None, |best: Option<usize>, i| match best {
            Some(b) if !(depth(i) > depth(b)) && (depth(i) < depth(b) || b < i) => Some(b),
            _ => Some(i),
        })
}

/// The manifold along the normal of manifold `reference`: the points of the manifolds
/// of live groups within [`MERGE_NORMAL_COS`] of it, in their order, reduced as
/// [`merge_manifolds`] says; `None` without points.
fn merged_along<V: Vector>(
    all: &[&Manifold<V>],
    normals: &Normals<V>,
    reference: usize,
    live: &[bool],
) -> Option<Manifold<V>> {
    let mut near = Vec::new();
    normals.for_each_near(normals.group_of(reference), |h| {
        if live[h] {
            near.extend_from_slice(normals.members(h));
        }
    });
    near.sort_unstable();
    let points: Vec<ManifoldPoint<V>> = near
        .iter()
        .flat_map(|&i| all[i].points().iter().copied())
        .collect();
    let magnitude = points
        .iter()
        .fold(V::Scalar::ZERO, |s, p| s.max(p.point_b.abs().max_element()));
    let tiny = crate::math::tolerance::eps::<V::Scalar>(MERGE_DUPLICATE_ULPS) * magnitude;
    let cap = if V::DIM == 2 { 2 } else { MAX_MANIFOLD_POINTS };
    let reference = all[reference];
    let mut m = Manifold::new(reference.normal, reference.status);
    for i in spread_points(&points, cap, tiny) {
        let p = points[i];
        m.push(p.point_a, p.point_b, p.depth, p.id);
    }
    // A NaN normal leaves even its own points out.
    (!m.points().is_empty()).then_some(m)
}

/// [`merge_manifolds_by_normal`] keeps at most this many manifolds (a box in the
/// corner of a floor and two walls needs three).
pub const MAX_MERGED_MANIFOLDS: usize = 4;

/// One merged manifold for each normal the manifolds touch along: the first is
/// [`merge_manifolds`]'s, each next one [`merge_manifolds`] of those whose normals are
/// not within [`MERGE_NORMAL_COS`] of an earlier one's; after the first, the deepest
/// first, at most [`MAX_MERGED_MANIFOLDS`] in all. A box in the
/// corner of a floor and a wall gets the floor's manifold and the wall's, where
/// [`merge_manifolds`] keeps only the floor's: a solver given both keeps the box out
/// of the wall (Jolt merges only manifolds of similar normals; rapier keeps one a
/// part). Empty for no manifold or no point.
///
/// ```
/// use isect::d2::*;
/// use isect::query::{contact_manifold_obb_2d, merge_manifolds_by_normal};
///
/// # fn main() -> Result<(), ShapeError> {
/// // A crate 0.1 into a floor and 0.05 into a wall on its right: two manifolds.
/// let slab = Obb::from_angle(Vec2::ZERO, Vec2::new(2.0, 0.5), 0.0)?;
/// let wall = Obb::from_angle(Vec2::ZERO, Vec2::new(0.5, 2.0), 0.0)?;
/// let crate_ = Obb::from_angle(Vec2::ZERO, Vec2::new(0.5, 0.5), 0.0)?;
/// let at = Pose::from_translation(Vec2::new(0.0, 0.9));
/// let floor_at = Pose::IDENTITY;
/// let wall_at = Pose::from_translation(Vec2::new(0.95, 2.0));
/// let parts = [
///     contact_manifold_obb_2d(&floor_at, &slab, &at, &crate_, 0.0).expect("on the floor"),
///     contact_manifold_obb_2d(&wall_at, &wall, &at, &crate_, 0.0).expect("against the wall"),
/// ];
/// let merged = merge_manifolds_by_normal(&parts);
/// assert_eq!(merged.len(), 2);
/// assert!((merged[0].normal - Vec2::Y).length() < 1e-5);
/// assert!((merged[1].normal + Vec2::X).length() < 1e-5);
/// # Ok(())
/// # }
/// ```
pub fn merge_manifolds_by_normal<'a, V: Vector>(
    manifolds: impl IntoIterator<Item = &'a Manifold<V>>,
) -> Vec<Manifold<V>> {
    let left: Vec<&Manifold<V>> = manifolds
        .into_iter()
        .filter(|m| !m.points().is_empty())
        .collect();
    let normals = Normals::new(&left);
    let mut live = vec![true; normals.len()];
    let mut counts = sharing_counts(&normals, &live);
    let mut merged = Vec::new();
    while let Some(m) = reference_of(&left, &normals, &counts, &live)
        .and_then(|r| Some((r, merged_along(&left, &normals, r, &live)?)))
    {
        let (reference, m) = m;
        // The manifolds along this normal leave, and no longer count for the others.
        let mut gone = Vec::new();
        normals.for_each_near(normals.group_of(reference), |h| {
            if live[h] {
                live[h] = false;
                gone.push(h);
            }
        });
        for &h in &gone {
            let size = normals.members(h).len();
            normals.for_each_near(h, |g| counts[g] = counts[g].saturating_sub(size));
        }
        merged.push(m);
        if gone.is_empty() {
            break; // a NaN normal takes nothing away
        }
    }
    // After the majority's, the deepest first: a cap never drops the worst overlap.
    if let Some(rest) = merged.get_mut(1..) {
        rest.sort_by(|x, y| {
            y.max_depth()
                .partial_cmp(&x.max_depth())
                .unwrap_or(core::cmp::Ordering::Equal)
        });
    }
    merged.truncate(MAX_MERGED_MANIFOLDS);
    merged
}

/// Indices of at most `cap` (2 or 4) of `points` spanning the widest support: the
/// point `e1` farthest from the deepest one and the point `e2` farthest from `e1` (the
/// deepest instead of `e2` when it is deeper by more than `tiny`), then in 3D the point
/// farthest from their line and the one farthest beyond the line on the other side;
/// each only when farther than `tiny`.
fn spread_points<V: Vector>(
    points: &[ManifoldPoint<V>],
    cap: usize,
    tiny: V::Scalar,
) -> Vec<usize> {
    // The first index within `tiny` of the largest `f`: rounding cannot reorder ties.
    let argmax = |f: &dyn Fn(&ManifoldPoint<V>) -> V::Scalar| {
        let best = points
            .iter()
            .fold(V::Scalar::NEG_INFINITY, |m, p| m.max(f(p)));
        (best, points.iter().position(|p| f(p) >= best - tiny))
    };
    let (deepest, Some(d)) = argmax(&|p| p.depth) else {
        return Vec::new();
    };
    let at = |i: usize| points[i].point_b;
    let (far, e1) = argmax(&|p| p.point_b.distance(at(d)));
    let Some(e1) = e1.filter(|_| far > tiny && cap > 1) else {
        return vec![d];
    };
    let (_, e2) = argmax(&|p| p.point_b.distance(at(e1)));
    let e2 = e2
        .filter(|&e2| !(deepest > points[e2].depth + tiny))
        .unwrap_or(d);
    let mut chosen = vec![e1, e2];
    let (p0, len) = (at(e1), at(e2).distance(at(e1)));
    let axis = (at(e2) - p0) / len;
    let off_line = |p: V| (p - p0) - axis * axis.dot(p - p0);
    // Points this near the line add no support worth a contact.
    let flat = tiny.max(len * V::Scalar::from_f64(MERGE_FLAT_FRACTION));
    let (wide, third) = argmax(&|p| off_line(p.point_b).length());
    let Some(third) = third.filter(|_| wide > flat && cap > 2) else {
        return chosen;
    };
    chosen.push(third);
    let side = off_line(at(third)) / wide;
    let (beyond, fourth) = argmax(&|p| -side.dot(p.point_b - p0));
    if let Some(fourth) = fourth.filter(|_| beyond > flat && cap > 3) {
        chosen.push(fourth);
    }
    chosen
}

/// True when the poses and `prediction` can be used.
pub(crate) fn valid_input<P: Isometry<V>, V: Vector>(
    pose_a: &P,
    pose_b: &P,
    prediction: V::Scalar,
) -> bool {
    pose_a.is_finite() && pose_b.is_finite() && !prediction.is_nan()
}
