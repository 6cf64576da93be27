//! Distance queries of the world: the nearest shape to a point or to a shape within a
//! maximum distance, signed distances (negative inside, the penetration depth for an
//! overlapping pair), every shape within a distance of a shape, and batches of robot
//! configurations (N poses × M links) with collision flags and clearances.
//!
//! The walk is branch and bound over the broad phase's trees (Ericson, *Real-Time
//! Collision Detection*, 6.5.2; the distance query of FCL's and coal's dynamic AABB
//! tree collision manager): a node whose box is farther than the best answer so far
//! is pruned, so a query tests the few shapes near it, not the world. The answers are
//! those of the pair queries, exact to their tolerances, with no tolerance of their
//! own: [`dispatch::closest_points`](crate::query::dispatch::closest_points) for
//! distances, [`dispatch::contact`](crate::query::dispatch::contact) for the depth of
//! an overlap, [`ProjectPoint`] for points. Ties in distance go to the
//! smaller handle, so answers do not depend on the trees' layout; the one exception
//! is a tie at a distance below the rounding of the box bounds (about `ε` of the
//! coordinates), where a rounded bound may prune the tied shape (soak seed
//! `0x8a9cf64970810a52`: a tie at 5.7e-14 among coordinates of 1e4).

// `!(x >= y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::{unit_pose, Entry, Handle, QueryFilter, World, WorldError};
use crate::algo::gjk::GjkVector;
use crate::broad::Bvh;
use crate::math::{Real, Vector};
use crate::query::dispatch::DispatchShape;
use crate::query::ProjectPoint;
use crate::shape::{Aabb, ShapeError};

/// The nearest world shape to a query point or shape, and where.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct WorldDistance<V: Vector> {
    /// The world shape.
    pub handle: Handle,
    /// The distance from the query to the shape: `> 0` apart, `0` touching. The
    /// signed queries give the penetration depth of an overlap as a negative
    /// distance; the unsigned ones give 0.
    pub distance: V::Scalar,
    /// The point of the world shape nearest to the query (when overlapping, in the
    /// signed queries: its point deepest inside the query shape).
    pub point: V,
    /// The point of the query shape nearest to the world shape, or the query point.
    pub query_point: V,
    /// Unit direction in which moving the query increases its distance fastest:
    /// `(query_point − point) / distance` when `distance ≠ 0`; for touching or
    /// overlapping pairs, the contact normal in the signed queries and zero in the
    /// unsigned ones.
    pub normal: V,
}

/// What [`World::check_configurations`] found for one configuration.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ConfigurationCheck<V: Vector> {
    /// True when a link touches or overlaps a world shape (a `nearest` at a distance
    /// `≤ 0`).
    pub collides: bool,
    /// The smallest signed distance from a link to a world shape (the deepest
    /// penetration when negative), or `max_distance` when nothing is nearer.
    pub clearance: V::Scalar,
    /// The link (its index in `links`) and the world shape at `clearance`; `None`
    /// when nothing is within `max_distance`.
    pub nearest: Option<(usize, WorldDistance<V>)>,
}

/// Signed or unsigned distances.
#[derive(Copy, Clone, PartialEq)]
enum Sign {
    /// Overlaps are at distance 0.
    Unsigned,
    /// Overlaps are at minus their penetration depth.
    Signed,
}

impl<V: GjkVector, S: DispatchShape<V> + ProjectPoint<V> + Sync> World<V, S> {
    /// The shape (allowed by `filter`) nearest to the point `p`, if one is within
    /// `max_distance` (`∞` for no limit); a point inside a solid shape is at distance
    /// 0 from it. Ties go to the smaller handle. A non-finite point, or a NaN or
    /// negative `max_distance`, finds nothing.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut world = World::new();
    /// let ball = world.insert(Shape::Ball(Ball::new(Vec2::new(5.0, 0.0), 1.0)?), Pose::IDENTITY, Filter::ALL)?;
    /// let near = world.nearest_to_point(Vec2::ZERO, f32::INFINITY, Filter::ALL).unwrap();
    /// assert_eq!(near.handle, ball);
    /// assert!((near.distance - 4.0).abs() < 1e-6 && (near.point.x - 4.0).abs() < 1e-6);
    /// assert!(world.nearest_to_point(Vec2::ZERO, 3.0, Filter::ALL).is_none());
    /// # Ok(())
    /// # }
    /// ```
    pub fn nearest_to_point<'f>(
        &self,
        p: V,
        max_distance: V::Scalar,
        filter: impl Into<QueryFilter<'f>>,
    ) -> Option<WorldDistance<V>> {
        self.point_distance(p, max_distance, Sign::Unsigned, filter.into())
    }

    /// [`nearest_to_point`](Self::nearest_to_point), signed: a point inside solid
    /// shapes is at minus its distance to the boundary of the one it is deepest in
    /// (shapes without interior — segments, open meshes, heightfields — are at 0 from
    /// their points). `point` is then on that boundary. Finds nothing as
    /// [`nearest_to_point`](Self::nearest_to_point) does.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut world = World::new();
    /// world.insert(Shape::Ball(Ball::new(Vec3::ZERO, 2.0)?), Pose::IDENTITY, Filter::ALL)?;
    /// let inside = world.signed_distance_to_point(Vec3::new(0.5, 0.0, 0.0), 10.0, Filter::ALL).unwrap();
    /// assert!((inside.distance + 1.5).abs() < 1e-6); // 1.5 deep
    /// assert!((inside.point.x - 2.0).abs() < 1e-6);
    /// # Ok(())
    /// # }
    /// ```
    pub fn signed_distance_to_point<'f>(
        &self,
        p: V,
        max_distance: V::Scalar,
        filter: impl Into<QueryFilter<'f>>,
    ) -> Option<WorldDistance<V>> {
        self.point_distance(p, max_distance, Sign::Signed, filter.into())
    }

    /// The shape (allowed by `filter`) nearest to `shape` placed at `pose`, if one is
    /// within `max_distance` (`∞` for no limit), with the closest points of
    /// [`dispatch::closest_points`](crate::query::dispatch::closest_points);
    /// overlapping shapes are at distance 0. Ties go to the smaller handle. A non-finite pose, a refused rotation (see
    /// [`insert`](Self::insert)), or a NaN or negative `max_distance`, finds nothing.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut world = World::new();
    /// let wall = Aabb::from_center(Vec3::new(3.0, 0.0, 0.0), Vec3::new(0.5, 5.0, 5.0))?;
    /// let w = world.insert_static(Shape::Cuboid(wall), Pose::IDENTITY, Filter::ALL)?;
    /// let probe = Shape::Ball(Ball::new(Vec3::ZERO, 1.0)?).into();
    /// let near = world.nearest_to_shape(&Pose::IDENTITY, &probe, f32::INFINITY, Filter::ALL).unwrap();
    /// assert_eq!(near.handle, w);
    /// assert!((near.distance - 1.5).abs() < 1e-5);
    /// assert!((near.normal - -Vec3::X).length() < 1e-5); // away from the wall
    /// # Ok(())
    /// # }
    /// ```
    pub fn nearest_to_shape<'f>(
        &self,
        pose: &V::Pose,
        shape: &S,
        max_distance: V::Scalar,
        filter: impl Into<QueryFilter<'f>>,
    ) -> Option<WorldDistance<V>> {
        let pose = &unit_pose::<V>(pose).ok()?;
        self.shape_distance(pose, shape, max_distance, Sign::Unsigned, filter.into())
    }

    /// [`nearest_to_shape`](Self::nearest_to_shape), signed: when `shape` overlaps
    /// world shapes, the answer is the deepest overlap, its distance minus the
    /// penetration depth of [`dispatch::contact`](crate::query::dispatch::contact),
    /// its normal the contact's (moving the query by `−distance · normal` separates
    /// that pair). Finds nothing as
    /// [`nearest_to_shape`](Self::nearest_to_shape) does.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut world = World::new();
    /// let floor = Aabb::new(Vec2::new(-10.0, -1.0), Vec2::new(10.0, 0.0))?;
    /// world.insert_static(Shape::Cuboid(floor), Pose::IDENTITY, Filter::ALL)?;
    /// let ball = Shape::Ball(Ball::new(Vec2::ZERO, 1.0)?).into();
    /// let sunk = Pose::from_translation(Vec2::new(0.0, 0.75));
    /// let d = world.signed_distance_to_shape(&sunk, &ball, 5.0, Filter::ALL).unwrap();
    /// assert!((d.distance + 0.25).abs() < 1e-5); // 0.25 deep
    /// assert!((d.normal - Vec2::Y).length() < 1e-5); // push it up
    /// # Ok(())
    /// # }
    /// ```
    pub fn signed_distance_to_shape<'f>(
        &self,
        pose: &V::Pose,
        shape: &S,
        max_distance: V::Scalar,
        filter: impl Into<QueryFilter<'f>>,
    ) -> Option<WorldDistance<V>> {
        let pose = &unit_pose::<V>(pose).ok()?;
        self.shape_distance(pose, shape, max_distance, Sign::Signed, filter.into())
    }

    /// The shapes (allowed by `filter`) within `distance` of `shape` placed at
    /// `pose` (touching and overlapping ones at distance 0), with their distances
    /// ([`dispatch::distance`](crate::query::dispatch::distance)), sorted by handle;
    /// `distance = ∞` lists every shape `filter` admits. A non-finite pose, a refused rotation, or a NaN or negative
    /// `distance`, finds nothing.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut world = World::new();
    /// let ball = |x: f32| Shape::Ball(Ball::new(Vec3::new(x, 0.0, 0.0), 1.0).unwrap());
    /// let near = world.insert(ball(3.0), Pose::IDENTITY, Filter::ALL)?;
    /// world.insert(ball(9.0), Pose::IDENTITY, Filter::ALL)?;
    /// let probe = ball(0.0).into();
    /// let found = world.shapes_within_distance(&Pose::IDENTITY, &probe, 2.0, Filter::ALL);
    /// assert_eq!(found.len(), 1);
    /// assert!(found[0].0 == near && (found[0].1 - 1.0).abs() < 1e-5);
    /// # Ok(())
    /// # }
    /// ```
    pub fn shapes_within_distance<'f>(
        &self,
        pose: &V::Pose,
        shape: &S,
        distance: V::Scalar,
        filter: impl Into<QueryFilter<'f>>,
    ) -> Vec<(Handle, V::Scalar)> {
        let filter = filter.into();
        let (Ok(pose), true) = (unit_pose::<V>(pose), distance >= V::Scalar::ZERO) else {
            return Vec::new();
        };
        let region = shape.world_aabb(&pose).loosened(distance);
        let mut found = Vec::new();
        self.for_each_in_box(&region, &filter, |handle, e| {
            // Both poses are already checked: the pair query, not its checking wrapper.
            let d = S::distance_pair(&e.pose, &e.shape, &pose, shape);
            if d <= distance {
                found.push((handle, d));
            }
        });
        found.sort_unstable_by_key(|&(handle, _)| handle);
        found
    }

    /// Collision flags and clearances of a batch of robot configurations: `poses`
    /// holds one pose per link for each configuration in turn (configuration `c`,
    /// link `i` at `poses[c · links.len() + i]`), and each configuration gets the
    /// smallest [`signed_distance_to_shape`](Self::signed_distance_to_shape) of its
    /// links within `max_distance` (`0` for collision flags alone, the cheapest; `∞`
    /// for exact clearances). Answers are in the order of the configurations; with
    /// the `parallel` feature configurations run on rayon's pool (same answers).
    ///
    /// Errors: `WorldError::BatchLength` when `links` is empty or `poses.len()` is not
    /// a multiple of `links.len()`; `WorldError::Invalid` naming the first refused
    /// pose (non-finite, a rotation off unit length, a translation beyond
    /// [`Real::MAX_COORD`]) or a NaN or negative `max_distance`.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut world = World::new();
    /// let post = Aabb::from_center(Vec3::new(2.0, 0.0, 0.0), Vec3::splat(0.5))?;
    /// world.insert_static(Shape::Cuboid(post), Pose::IDENTITY, Filter::ALL)?;
    /// // One link, a unit ball, in two configurations.
    /// let links = [Shape::Ball(Ball::new(Vec3::ZERO, 1.0)?).into()];
    /// let poses = [Pose::from_translation(-Vec3::X), Pose::from_translation(Vec3::X)];
    /// let checks = world.check_configurations(&links, &poses, f32::INFINITY, Filter::ALL)?;
    /// assert!(!checks[0].collides && (checks[0].clearance - 1.5).abs() < 1e-5);
    /// assert!(checks[1].collides && (checks[1].clearance + 0.5).abs() < 1e-5);
    /// # Ok(())
    /// # }
    /// ```
    pub fn check_configurations<'f>(
        &self,
        links: &[S],
        poses: &[V::Pose],
        max_distance: V::Scalar,
        filter: impl Into<QueryFilter<'f>>,
    ) -> Result<Vec<ConfigurationCheck<V>>, WorldError> {
        let filter = filter.into();
        let poses = checked_configurations::<V>(links.len(), poses, max_distance)?;
        let snapshot = self.batch_snapshot(poses.len());
        let check = |configuration: &[V::Pose]| {
            self.check_configuration(links, configuration, max_distance, filter, snapshot)
        };
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            Ok(poses.par_chunks(links.len()).map(check).collect())
        }
        #[cfg(not(feature = "parallel"))]
        {
            Ok(poses.chunks(links.len()).map(check).collect())
        }
    }

    /// One configuration of [`check_configurations`](Self::check_configurations)
    /// (poses already checked): each link's search is bounded by the best so far, so
    /// a later link only looks nearer than the earlier ones; ties go to the first
    /// link. Only the nearest pair of the configuration gets its closest points.
    fn check_configuration(
        &self,
        links: &[S],
        poses: &[V::Pose],
        max_distance: V::Scalar,
        filter: QueryFilter<'_>,
        snapshot: Option<&Bvh<V>>,
    ) -> ConfigurationCheck<V> {
        let mut nearest: Option<(usize, Handle, Ranked<V>)> = None;
        for (i, (link, pose)) in links.iter().zip(poses).enumerate() {
            // An overlap found bounds the next links to overlaps (box distance 0).
            let bound = nearest.map_or(max_distance, |n| n.2.distance.max(V::Scalar::ZERO));
            let found = self.ranked_shape(pose, link, bound, Sign::Signed, filter, snapshot);
            if let Some((handle, d)) =
                found.filter(|(_, d)| nearest.is_none_or(|n| d.distance < n.2.distance))
            {
                nearest = Some((i, handle, d));
            }
        }
        let nearest = nearest.and_then(|(i, handle, ranked)| {
            Some((i, self.answer_shape(handle, ranked, &poses[i], &links[i])?))
        });
        ConfigurationCheck {
            // Not `clearance ≤ 0`: a flags-only batch (`max_distance = 0`) that found
            // nothing has clearance 0 without a collision.
            collides: nearest.is_some_and(|(_, d)| d.distance <= V::Scalar::ZERO),
            clearance: nearest.map_or(max_distance, |(_, d)| d.distance),
            nearest,
        }
    }

    /// The walk of the point queries: lower bounds are box distances to `p`.
    fn point_distance(
        &self,
        p: V,
        max_distance: V::Scalar,
        sign: Sign,
        filter: QueryFilter<'_>,
    ) -> Option<WorldDistance<V>> {
        if !p.is_finite() {
            return None;
        }
        let bound = |b: &Aabb<V>| b.distance_squared_to_point(p);
        let (handle, ranked) = self.nearest_by(bound, max_distance, filter, None, |e| {
            let answer = point_to_shape(p, &e.shape, &e.pose, sign)?;
            Some(Ranked {
                distance: answer.distance,
                answer: Some(answer),
            })
        })?;
        Some(WorldDistance {
            handle,
            ..ranked.answer?
        })
    }

    /// The shape queries (`pose` already checked): the nearest by
    /// [`ranked_shape`](Self::ranked_shape), then its answer.
    fn shape_distance(
        &self,
        pose: &V::Pose,
        shape: &S,
        max_distance: V::Scalar,
        sign: Sign,
        filter: QueryFilter<'_>,
    ) -> Option<WorldDistance<V>> {
        let (handle, ranked) = self.ranked_shape(pose, shape, max_distance, sign, filter, None)?;
        self.answer_shape(handle, ranked, pose, shape)
    }

    /// The walk of the shape queries: lower bounds are distances between boxes;
    /// candidates are ranked by [`DispatchShape::distance_pair`] (analytic for the
    /// round kinds and capsule–box), the depth of overlaps by the contact. Walks the
    /// static 4-wide `snapshot` when one is given, else the trees.
    fn ranked_shape(
        &self,
        pose: &V::Pose,
        shape: &S,
        max_distance: V::Scalar,
        sign: Sign,
        filter: QueryFilter<'_>,
        snapshot: Option<&Bvh<V>>,
    ) -> Option<(Handle, Ranked<V>)> {
        let region = shape.world_aabb(pose);
        let bound = |b: &Aabb<V>| b.distance_squared_to_aabb(&region);
        let walk = snapshot.map(|bvh| (bvh, &region));
        self.nearest_by(bound, max_distance, filter, walk, |e| {
            rank_shape(&e.shape, &e.pose, shape, pose, sign)
        })
    }

    /// The snapshot of [`cast_rays`](Self::cast_rays) for a batch of `queries`
    /// shape queries: kept or built when the batch is at least a quarter as large as
    /// the world (the same rule as the ray batches), else none.
    fn batch_snapshot(&self, queries: usize) -> Option<&Bvh<V>> {
        match self.ray_snapshot.get() {
            Some(bvh) => Some(bvh),
            None if 4 * queries >= self.len() => {
                Some(self.ray_snapshot.get_or_init(|| self.build_ray_snapshot()))
            }
            None => None,
        }
    }

    /// The answer of a shape query for the nearest world shape `handle`: the one its
    /// rank computed, or the closest points of the pair.
    fn answer_shape(
        &self,
        handle: Handle,
        ranked: Ranked<V>,
        pose: &V::Pose,
        shape: &S,
    ) -> Option<WorldDistance<V>> {
        let answer = match ranked.answer {
            Some(answer) => answer,
            None => {
                let e = self.handle_at(handle.index)?.1;
                closest_answer(&e.shape, &e.pose, shape, pose, ranked.distance)
            }
        };
        Some(WorldDistance { handle, ..answer })
    }

    /// Branch and bound over both trees, or over a static snapshot with the query's
    /// box: `rank` answers for one world shape whose boxes' squared distance `bound`
    /// is within the best distance so far (overlapping boxes are always tried: a
    /// signed answer may be deeper). Keeps the least `(distance, handle)` within
    /// `max_distance`.
    fn nearest_by(
        &self,
        bound: impl Fn(&Aabb<V>) -> V::Scalar,
        max_distance: V::Scalar,
        filter: QueryFilter<'_>,
        snapshot: Option<(&Bvh<V>, &Aabb<V>)>,
        rank: impl Fn(&Entry<V, S>) -> Option<Ranked<V>>,
    ) -> Option<(Handle, Ranked<V>)> {
        if !(max_distance >= V::Scalar::ZERO) {
            return None;
        }
        let mut best: Option<(Handle, Ranked<V>)> = None;
        let mut visit = |slot: u32, cutoff: V::Scalar| {
            let (handle, e) = self.allowed(slot, &filter)?;
            if !(bound(&e.aabb) <= cutoff) {
                return None;
            }
            let d = rank(e)?;
            let key = (d.distance, handle);
            let closer = best.is_none_or(|(h, b)| key < (b.distance, h));
            if !(d.distance <= max_distance && closer) {
                return None;
            }
            let reach = d.distance.max(V::Scalar::ZERO);
            best = Some((handle, d));
            Some(reach * reach)
        };
        // The walks compare squared box distances with the square of the best.
        let cutoff = max_distance * max_distance;
        match snapshot {
            Some((bvh, region)) => bvh.branch_and_bound_from_aabb(region, cutoff, visit),
            None => {
                let mut cutoff = cutoff;
                for tree in &self.trees {
                    cutoff = tree.branch_and_bound(&bound, cutoff, |_, slot, c| visit(slot, c));
                }
            }
        }
        best
    }
}

/// A candidate's distance, and its whole answer when ranking computed it anyway.
#[derive(Copy, Clone)]
struct Ranked<V: Vector> {
    distance: V::Scalar,
    answer: Option<WorldDistance<V>>,
}

/// The answer for one shape of a point query (handle filled in by the caller).
fn point_to_shape<V: GjkVector, S: ProjectPoint<V>>(
    p: V,
    shape: &S,
    pose: &V::Pose,
    sign: Sign,
) -> Option<WorldDistance<V>> {
    let projection = shape.project_point(pose, p, sign == Sign::Unsigned);
    let offset = p - projection.point;
    let length = offset.length();
    let inside = projection.is_inside && sign == Sign::Signed;
    let (distance, normal) = if inside {
        (-length, -offset / length)
    } else {
        (length, offset / length)
    };
    let answer = WorldDistance {
        handle: PLACEHOLDER,
        distance,
        point: projection.point,
        query_point: p,
        normal: nonzero_or_zero(length, normal),
    };
    distance.is_finite().then_some(answer)
}

/// The rank of one world shape for a shape query: the pair's distance, and for a
/// signed query of a touching or overlapping pair minus the contact's depth (with
/// the contact as the answer). A pair the contact query finds apart (rounding)
/// stays at distance 0.
fn rank_shape<V: GjkVector, S: DispatchShape<V>>(
    world_shape: &S,
    world_pose: &V::Pose,
    shape: &S,
    pose: &V::Pose,
    sign: Sign,
) -> Option<Ranked<V>> {
    let distance = S::distance_pair(world_pose, world_shape, pose, shape);
    if !distance.is_finite() {
        return None;
    }
    let overlap = sign == Sign::Signed && distance <= V::Scalar::ZERO;
    let contact = || S::contact_pair(world_pose, world_shape, pose, shape, V::Scalar::ZERO);
    let Some(contact) = overlap.then(contact).flatten() else {
        return Some(Ranked {
            distance,
            answer: None,
        });
    };
    let distance = -contact.depth.max(V::Scalar::ZERO);
    let answer = WorldDistance {
        handle: PLACEHOLDER,
        distance,
        point: contact.point_a,
        query_point: contact.point_b,
        normal: contact.normal,
    };
    Some(Ranked {
        distance,
        answer: Some(answer),
    })
}

/// The answer for the nearest world shape of a shape query, at the `distance` its
/// rank found: the closest points of the pair.
fn closest_answer<V: GjkVector, S: DispatchShape<V>>(
    world_shape: &S,
    world_pose: &V::Pose,
    shape: &S,
    pose: &V::Pose,
    distance: V::Scalar,
) -> WorldDistance<V> {
    let closest = S::closest_points_pair(world_pose, world_shape, pose, shape);
    let offset = closest.point_b - closest.point_a;
    let length = offset.length();
    WorldDistance {
        handle: PLACEHOLDER,
        distance,
        point: closest.point_a,
        query_point: closest.point_b,
        normal: nonzero_or_zero(length, offset / length),
    }
}

/// `normal` when `length` (of the vector it was divided by) is positive, else zero.
fn nonzero_or_zero<V: Vector>(length: V::Scalar, normal: V) -> V {
    if length > V::Scalar::ZERO {
        normal
    } else {
        V::ZERO
    }
}

/// The handle of an answer before the walk names it.
const PLACEHOLDER: Handle = Handle {
    index: u32::MAX,
    generation: 0,
};

/// The poses of a configuration batch, once every one and the batch's shape are
/// known to be valid: unit rotations (normalised as [`World::insert`] does).
fn checked_configurations<V: GjkVector>(
    links: usize,
    poses: &[V::Pose],
    max_distance: V::Scalar,
) -> Result<Vec<V::Pose>, WorldError> {
    if links == 0 || poses.len() % links != 0 {
        return Err(WorldError::BatchLength {
            poses: poses.len(),
            links,
        });
    }
    if !(max_distance >= V::Scalar::ZERO) {
        return Err(ShapeError::Negative {
            shape: "World::check_configurations",
            field: "max_distance",
            value: max_distance.to_f64(),
        }
        .into());
    }
    poses
        .iter()
        .enumerate()
        .map(|(index, pose)| {
            unit_pose::<V>(pose).map_err(|_| {
                ShapeError::BadPart {
                    shape: "World::check_configurations",
                    index,
                    reason: "pose refused: not finite, a rotation off unit length, or a translation beyond Real::MAX_COORD",
                }
                .into()
            })
        })
        .collect()
}
