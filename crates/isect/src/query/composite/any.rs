//! [`PairQuery`]: one pair query written once for the four combinations of convex
//! and composite sides, so that a shape enum mixing convex and composite variants
//! (`AnyShape`) dispatches each query with one generic `match` per side. The
//! convex–convex case calls the convex dispatch directly.

use super::*;
use crate::query::cast_options::ShapeCastOptions;
use crate::query::cast_shapes::Sweep;
use crate::query::distance::ClosestPoints;
use crate::shape::Composite;

/// A pair query over the four combinations of a convex shape `P` and composites of
/// part type `P`. Implementors hold the poses and parameters; the shape enum's
/// dispatch picks the method by the kinds of A and B.
pub trait PairQuery<V: GjkVector, P: ConvexPart<V>> {
    /// The answer.
    type Output;
    /// Both sides convex.
    fn convex_convex(&self, a: &P, b: &P) -> Self::Output;
    /// A composite, B convex.
    fn composite_convex<A: Composite<V, Part = P>>(&self, a: &A, b: &P) -> Self::Output;
    /// A convex, B composite.
    fn convex_composite<B: Composite<V, Part = P>>(&self, a: &P, b: &B) -> Self::Output;
    /// Both sides composite.
    fn composite_composite<A, B>(&self, a: &A, b: &B) -> Self::Output
    where
        A: Composite<V, Part = P>,
        B: Composite<V, Part = P>;
}

/// The two poses of a pair query.
#[derive(Copy, Clone)]
pub(crate) struct Poses<'q, V: Vector> {
    pub(crate) a: &'q V::Pose,
    pub(crate) b: &'q V::Pose,
}

/// [`intersects`](super::intersects) for every combination.
pub(crate) struct IntersectsPair<'q, V: Vector>(pub(crate) Poses<'q, V>);

impl<V: GjkVector, P: ConvexPart<V>> PairQuery<V, P> for IntersectsPair<'_, V> {
    type Output = bool;
    #[inline]
    fn convex_convex(&self, a: &P, b: &P) -> bool {
        P::intersects_pair(self.0.a, a, self.0.b, b)
    }
    fn composite_convex<A: Composite<V, Part = P>>(&self, a: &A, b: &P) -> bool {
        intersects(self.0.a, a, self.0.b, b)
    }
    fn convex_composite<B: Composite<V, Part = P>>(&self, a: &P, b: &B) -> bool {
        intersects(self.0.b, b, self.0.a, a)
    }
    fn composite_composite<A, B>(&self, a: &A, b: &B) -> bool
    where
        A: Composite<V, Part = P>,
        B: Composite<V, Part = P>,
    {
        intersects_composites(self.0.a, a, self.0.b, b)
    }
}

/// [`contact`](super::contact) for every combination (part indices dropped).
pub(crate) struct ContactPair<'q, V: Vector>(pub(crate) Poses<'q, V>, pub(crate) V::Scalar);

impl<V: GjkVector, P: ConvexPart<V>> PairQuery<V, P> for ContactPair<'_, V> {
    type Output = Option<Contact<V>>;
    #[inline]
    fn convex_convex(&self, a: &P, b: &P) -> Self::Output {
        P::contact_pair(self.0.a, a, self.0.b, b, self.1)
    }
    fn composite_convex<A: Composite<V, Part = P>>(&self, a: &A, b: &P) -> Self::Output {
        contact(self.0.a, a, self.0.b, b, self.1).map(|(_, c)| c)
    }
    fn convex_composite<B: Composite<V, Part = P>>(&self, a: &P, b: &B) -> Self::Output {
        contact(self.0.b, b, self.0.a, a, self.1).map(|(_, c)| c.flipped())
    }
    fn composite_composite<A, B>(&self, a: &A, b: &B) -> Self::Output
    where
        A: Composite<V, Part = P>,
        B: Composite<V, Part = P>,
    {
        contact_composites(self.0.a, a, self.0.b, b, self.1).map(|(_, _, c)| c)
    }
}

/// [`contact_manifolds`](super::contact_manifolds) for every combination.
pub(crate) struct ManifoldPair<'q, V: Vector>(pub(crate) Poses<'q, V>, pub(crate) V::Scalar);

impl<V: GjkVector, P: ConvexPart<V>> PairQuery<V, P> for ManifoldPair<'_, V> {
    type Output = Vec<PartManifold<V>>;
    fn convex_convex(&self, a: &P, b: &P) -> Self::Output {
        P::contact_manifold_pair(self.0.a, a, self.0.b, b, self.1)
            .map(|manifold| PartManifold {
                part_a: None,
                part_b: None,
                manifold,
            })
            .into_iter()
            .collect()
    }
    fn composite_convex<A: Composite<V, Part = P>>(&self, a: &A, b: &P) -> Self::Output {
        contact_manifolds(self.0.a, a, self.0.b, b, self.1)
    }
    fn convex_composite<B: Composite<V, Part = P>>(&self, a: &P, b: &B) -> Self::Output {
        let ms = contact_manifolds(self.0.b, b, self.0.a, a, self.1);
        ms.iter().map(PartManifold::flipped).collect()
    }
    fn composite_composite<A, B>(&self, a: &A, b: &B) -> Self::Output
    where
        A: Composite<V, Part = P>,
        B: Composite<V, Part = P>,
    {
        contact_manifolds_composites(self.0.a, a, self.0.b, b, self.1)
    }
}

/// [`distance`](super::distance) for every combination.
pub(crate) struct DistancePair<'q, V: Vector>(pub(crate) Poses<'q, V>);

impl<V: GjkVector, P: ConvexPart<V>> PairQuery<V, P> for DistancePair<'_, V> {
    type Output = V::Scalar;
    #[inline]
    fn convex_convex(&self, a: &P, b: &P) -> V::Scalar {
        P::distance_pair(self.0.a, a, self.0.b, b)
    }
    fn composite_convex<A: Composite<V, Part = P>>(&self, a: &A, b: &P) -> V::Scalar {
        distance(self.0.a, a, self.0.b, b)
    }
    fn convex_composite<B: Composite<V, Part = P>>(&self, a: &P, b: &B) -> V::Scalar {
        distance(self.0.b, b, self.0.a, a)
    }
    fn composite_composite<A, B>(&self, a: &A, b: &B) -> V::Scalar
    where
        A: Composite<V, Part = P>,
        B: Composite<V, Part = P>,
    {
        distance_composites(self.0.a, a, self.0.b, b)
    }
}

/// [`closest_points`](super::closest_points) for every combination.
pub(crate) struct ClosestPair<'q, V: Vector>(pub(crate) Poses<'q, V>);

/// Closest points seen from B.
fn swapped<V: Vector>(cp: ClosestPoints<V>) -> ClosestPoints<V> {
    ClosestPoints {
        point_a: cp.point_b,
        point_b: cp.point_a,
        ..cp
    }
}

impl<V: GjkVector, P: ConvexPart<V>> PairQuery<V, P> for ClosestPair<'_, V> {
    type Output = ClosestPoints<V>;
    #[inline]
    fn convex_convex(&self, a: &P, b: &P) -> Self::Output {
        P::closest_points_pair(self.0.a, a, self.0.b, b)
    }
    fn composite_convex<A: Composite<V, Part = P>>(&self, a: &A, b: &P) -> Self::Output {
        closest_points(self.0.a, a, self.0.b, b)
    }
    fn convex_composite<B: Composite<V, Part = P>>(&self, a: &P, b: &B) -> Self::Output {
        swapped(closest_points(self.0.b, b, self.0.a, a))
    }
    fn composite_composite<A, B>(&self, a: &A, b: &B) -> Self::Output
    where
        A: Composite<V, Part = P>,
        B: Composite<V, Part = P>,
    {
        closest_points_composites(self.0.a, a, self.0.b, b)
    }
}

/// [`cast_shapes_with`](super::cast_shapes_with) for every combination: velocities
/// of A and B, `max_t` and the options.
pub(crate) struct CastPair<'q, V: Vector> {
    pub(crate) poses: Poses<'q, V>,
    pub(crate) vel_a: V,
    pub(crate) vel_b: V,
    pub(crate) max_t: V::Scalar,
    pub(crate) options: &'q ShapeCastOptions<V::Scalar>,
}

impl<V: GjkVector, P: ConvexPart<V>> PairQuery<V, P> for CastPair<'_, V> {
    type Output = Option<ShapeCastHit<V>>;
    #[inline]
    fn convex_convex(&self, a: &P, b: &P) -> Self::Output {
        let (pa, pb, o) = (self.poses.a, self.poses.b, self.options);
        P::cast_pair_with(pa, self.vel_a, a, pb, self.vel_b, b, self.max_t, o)
    }
    fn composite_convex<A: Composite<V, Part = P>>(&self, a: &A, b: &P) -> Self::Output {
        let (pa, pb, o) = (self.poses.a, self.poses.b, self.options);
        cast_shapes_with(pa, self.vel_a, a, pb, self.vel_b, b, self.max_t, o)
    }
    fn convex_composite<B: Composite<V, Part = P>>(&self, a: &P, b: &B) -> Self::Output {
        let (pa, pb, o) = (self.poses.a, self.poses.b, self.options);
        cast_shapes_with(pb, self.vel_b, b, pa, self.vel_a, a, self.max_t, o).map(flip_hit)
    }
    fn composite_composite<A, B>(&self, a: &A, b: &B) -> Self::Output
    where
        A: Composite<V, Part = P>,
        B: Composite<V, Part = P>,
    {
        let (pa, pb, o) = (self.poses.a, self.poses.b, self.options);
        cast_shapes_composites_with(pa, self.vel_a, a, pb, self.vel_b, b, self.max_t, o)
    }
}

/// [`time_of_impact`](super::time_of_impact) for every combination: the sweeps and
/// the options.
pub(crate) struct ToiPair<'q, V: Vector> {
    pub(crate) sweep_a: &'q Sweep<V>,
    pub(crate) sweep_b: &'q Sweep<V>,
    pub(crate) options: &'q ShapeCastOptions<V::Scalar>,
}

impl<V: GjkVector, P: ConvexPart<V>> PairQuery<V, P> for ToiPair<'_, V> {
    type Output = Option<ShapeCastHit<V>>;
    #[inline]
    fn convex_convex(&self, a: &P, b: &P) -> Self::Output {
        P::time_of_impact_pair(self.sweep_a, a, self.sweep_b, b, self.options)
    }
    fn composite_convex<A: Composite<V, Part = P>>(&self, a: &A, b: &P) -> Self::Output {
        time_of_impact(self.sweep_a, a, self.sweep_b, b, self.options)
    }
    fn convex_composite<B: Composite<V, Part = P>>(&self, a: &P, b: &B) -> Self::Output {
        time_of_impact(self.sweep_b, b, self.sweep_a, a, self.options).map(flip_hit)
    }
    fn composite_composite<A, B>(&self, a: &A, b: &B) -> Self::Output
    where
        A: Composite<V, Part = P>,
        B: Composite<V, Part = P>,
    {
        time_of_impact_composites(self.sweep_a, a, self.sweep_b, b, self.options)
    }
}
