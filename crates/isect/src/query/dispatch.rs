//! Pair queries on the shape enums ([`shape_2d::Shape`](crate::shape::shape_2d::Shape),
//! [`shape_3d::Shape`](crate::shape::shape_3d::Shape)): every pair of kinds answers
//! every query. Each query is one exhaustive `match` over the pair of kinds (in
//! `dispatch/table.rs`, shared by both dimensions; `dispatch/shape_2d.rs` and
//! `dispatch/shape_3d.rs` add each dimension's own kinds): analytic kernels where they
//! exist — ball–ball, ball–capsule, capsule–capsule (Ericson 5.1.9, in
//! [`contact`](mod@crate::query::contact) and [`distance`](mod@crate::query::distance)),
//! ball–box (Ericson 5.2.5, [`ball_tests`](crate::query::ball_tests)), capsule–box
//! (the segment's distance to the box), box–box distance proven by a point pair
//! ([`box_box`](crate::query::box_box)), box–box and polygon–polygon SAT
//! ([`sat_2d`](crate::algo::sat_2d), [`sat_3d`](crate::algo::sat_3d)), the 2D
//! manifolds of every kind with a polygonal core by SAT and clipping
//! ([`polygons_2d`](crate::query::manifold::polygons_2d))
//! — and GJK / EPA / the GJK shape cast, compiled once per dimension, for the rest.
//!
//! Conventions are those of the generic queries: poses per shape, answers in world
//! space, normals from A to B; a non-finite pose gives `false` / `None` / a NaN
//! distance, as documented on each function. Tolerances of its own: the margins of
//! the capsule–box early-outs, [`CAPSULE_BOX_SLACK_ULPS`] and [`CENTRE_SETTLES_ULPS`].
//!
//! The free functions below are where poses enter: a pose whose rotation is unit to
//! rounding and whose translation is in range passes as it is; any other is checked
//! with
//! [`Isometry::with_unit_rotation`] (normalised within
//! [`ROTATION_UNIT_ULPS`](crate::math::ROTATION_UNIT_ULPS) of unit length), and a
//! refused rotation (zero, NaN, infinite or farther off) gives the same documented
//! answer as a non-finite pose; so does a translation beyond
//! [`Real::MAX_COORD`] (one check for both,
//! [`check_pose`], shared with the world, compounds
//! and the `isect` command). The [`DispatchShape`] methods take poses as given
//! (unit rotations; the composite queries call them per part with composed poses).
//!
//! SAT contacts (box–box, polygon–polygon) report the centre of the contact region:
//! the overlap of A's and B's support features along the normal, `point_a` on A's
//! supporting plane and `point_b = point_a − depth · normal` on B's
//! ([`crate::algo::witness`]), which keeps `point_a − point_b = depth · normal` as
//! EPA's contacts do.

mod ball_flat;
#[cfg(test)]
mod capsule_box_tests;
pub(crate) use ball_flat::FlatPart;
pub use ball_flat::ON_PART_ULPS;
mod shape_2d;
mod shape_3d;
mod table;
pub mod warm;
mod witnesses;
pub use warm::ContactCache;

use crate::algo::gjk::{GjkVector, Status};
use crate::algo::sat_2d::Mtv;
use crate::algo::support::SupportMap;
use crate::math::{Isometry, Real, Vector};
use crate::query::ball_tests::ball_aabb_contact_predicted;
use crate::query::cast_options::ShapeCastOptions;
use crate::query::cast_ray::RayCast;
use crate::query::cast_shapes::{ShapeCastHit, Sweep};
use crate::query::contact::Contact;
use crate::query::distance::{closest_points_segment_segment, world_segment, ClosestPoints};
use crate::query::manifold::{FeatureId, Manifold};
use crate::shape::error::check_pose;
use crate::shape::{Aabb, Ball, Capsule, Segment};

/// A shape enum whose pair queries dispatch on the pair of kinds. Implemented by
/// [`shape_2d::Shape`](crate::shape::shape_2d::Shape) and
/// [`shape_3d::Shape`](crate::shape::shape_3d::Shape); the free functions of this
/// module and the collision world are generic over it. Its methods take poses as
/// given, with unit rotations (the free functions check them first).
pub trait DispatchShape<V: GjkVector>: RayCast<V> + Clone {
    /// The world bounding box of the shape placed at `pose` (non-finite bounds for a
    /// non-finite pose).
    ///
    /// ```
    /// use isect::d2::*;
    /// use isect::query::dispatch::DispatchShape;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// let ball = Shape::Ball(Ball::new(Vec2::ZERO, 1.0)?);
    /// let b = ball.world_aabb(&Pose::from_translation(Vec2::new(5.0, 2.0)));
    /// assert_eq!((b.min, b.max), (Vec2::new(4.0, 1.0), Vec2::new(6.0, 3.0)));
    /// # Ok(())
    /// # }
    /// ```
    fn world_aabb(&self, pose: &V::Pose) -> Aabb<V>;

    /// True when the shape placed at `pose` contains the world point `p` (boundary
    /// included); `false` for a NaN point or a non-finite pose.
    ///
    /// ```
    /// use isect::d2::*;
    /// use isect::query::dispatch::DispatchShape;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A 2 × 1 box turned a quarter turn about its origin covers [-1, 0] × [0, 2].
    /// let plank = Shape::Cuboid(Aabb::new(Vec2::ZERO, Vec2::new(2.0, 1.0))?);
    /// let turned = Pose::new(Vec2::ZERO, std::f32::consts::FRAC_PI_2);
    /// assert!(plank.contains_point(&turned, Vec2::new(-0.5, 1.5)));
    /// assert!(!plank.contains_point(&turned, Vec2::new(1.5, 0.5)));
    /// # Ok(())
    /// # }
    /// ```
    fn contains_point(&self, pose: &V::Pose, p: V) -> bool;

    /// True when the shape placed at `pose` touches or overlaps the world box
    /// `region`; `false` for a box with NaN or a non-finite pose.
    ///
    /// ```
    /// use isect::d3::*;
    /// use isect::query::dispatch::DispatchShape;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // The corner box starts 0.9·√3 ≈ 1.56 from the ball's centre: it misses the
    /// // ball, though it overlaps the ball's bounding box.
    /// let ball = Shape::Ball(Ball::new(Vec3::ZERO, 1.0)?);
    /// let corner = Aabb::new(Vec3::splat(0.9), Vec3::splat(2.0))?;
    /// let face = Aabb::new(Vec3::new(0.9, -0.1, -0.1), Vec3::new(2.0, 0.1, 0.1))?;
    /// assert!(!ball.intersects_aabb(&Pose::IDENTITY, &corner));
    /// assert!(ball.intersects_aabb(&Pose::IDENTITY, &face));
    /// # Ok(())
    /// # }
    /// ```
    fn intersects_aabb(&self, pose: &V::Pose, region: &Aabb<V>) -> bool;

    /// The first hit of the world ray `ray` on the shape placed at `pose`, within
    /// `t ∈ [0, max_t]`, in world space. `solid = true`: as
    /// [`RayCast::cast_ray_posed`] (a ray starting inside a solid hits at `t = 0`
    /// with a zero normal). `solid = false`: a ray starting inside hits the boundary
    /// where it leaves (convex kinds, [`cast_ray_convex_solid`](crate::query::cast_ray::cast_ray_convex_solid)),
    /// or a composite's next surface or boundary crossing
    /// ([`Composite::cast_ray_boundary`](crate::shape::Composite::cast_ray_boundary)),
    /// the normal facing the ray. Misses as [`RayCast`] documents.
    ///
    /// ```
    /// use isect::d2::*;
    /// use isect::query::dispatch::DispatchShape;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A ray from the centre of a 4 × 4 box placed at (10, 0).
    /// let b = Shape::Cuboid(Aabb::new(Vec2::splat(-2.0), Vec2::splat(2.0))?);
    /// let pose = Pose::from_translation(Vec2::new(10.0, 0.0));
    /// let ray = Ray::new(Vec2::new(10.0, 0.0), Vec2::Y)?;
    /// assert_eq!(b.cast_ray_solid(&pose, &ray, 10.0, true).unwrap().t, 0.0);
    /// let exit = b.cast_ray_solid(&pose, &ray, 10.0, false).expect("it leaves the box");
    /// assert!((exit.t - 2.0).abs() < 1e-6);
    /// assert!((exit.normal + Vec2::Y).length() < 1e-6); // facing the ray
    /// # Ok(())
    /// # }
    /// ```
    fn cast_ray_solid(
        &self,
        pose: &V::Pose,
        ray: &crate::shape::Ray<V>,
        max_t: V::Scalar,
        solid: bool,
    ) -> Option<crate::shape::RayHit<V>>;

    /// The part of the shape placed at `pose` on which `hit`, a hit of `ray` from
    /// [`cast_ray_solid`](Self::cast_ray_solid) with the same `solid`, lies: the
    /// index of a composite's part (a mesh's or a heightfield's triangle, a compound's
    /// part, a polyline's segment, a concave polygon's convex piece; see
    /// [`composite::part_hit_at`](crate::query::composite::part_hit_at)), `None` for a
    /// convex shape (the default) or where no part is hit (a ray starting inside a
    /// solid mesh).
    ///
    /// ```
    /// use isect::d3::*;
    /// use isect::query::dispatch::DispatchShape;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // An open ground quad of two triangles at y = 0, raised by 1: a ray falling at
    /// // (x, z) = (2, 1) lands in triangle 0.
    /// let quad = TriMesh::new(
    ///     vec![Vec3::new(-5.0, 0.0, -5.0), Vec3::new(5.0, 0.0, -5.0), Vec3::new(5.0, 0.0, 5.0), Vec3::new(-5.0, 0.0, 5.0)],
    ///     vec![[0, 1, 2], [0, 2, 3]],
    ///     TriMeshFlags::OPEN,
    /// )?;
    /// let ground = AnyShape::from(quad);
    /// let pose = Pose::from_translation(Vec3::Y);
    /// let ray = Ray::new(Vec3::new(2.0, 4.0, 1.0), -Vec3::Y)?;
    /// let hit = ground.cast_ray_solid(&pose, &ray, 10.0, true).expect("it lands");
    /// assert_eq!(ground.ray_hit_part(&pose, &ray, &hit, true), Some(0));
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    fn ray_hit_part(
        &self,
        pose: &V::Pose,
        ray: &crate::shape::Ray<V>,
        hit: &crate::shape::RayHit<V>,
        solid: bool,
    ) -> Option<u32> {
        let _ = (pose, ray, hit, solid);
        None
    }

    /// See [`intersects`].
    fn intersects_pair(pose_a: &V::Pose, a: &Self, pose_b: &V::Pose, b: &Self) -> bool;

    /// See [`intersects_kernel`]. The default calls
    /// [`intersects_pair`](Self::intersects_pair); the convex enums return the pair's
    /// kernel without the match on kinds.
    #[inline]
    fn intersects_kernel_pair<'s>(a: &'s Self, b: &'s Self) -> IntersectsKernel<'s, V>
    where
        Self: Sync,
    {
        Box::new(move |pa, pb| Self::intersects_pair(pa, a, pb, b))
    }

    /// See [`contact`].
    fn contact_pair(
        pose_a: &V::Pose,
        a: &Self,
        pose_b: &V::Pose,
        b: &Self,
        prediction: V::Scalar,
    ) -> Option<Contact<V>>;

    /// See [`contact_manifold`]. The default is the single point of
    /// [`contact_pair`](Self::contact_pair); the convex enums override it with SAT and
    /// clipping for box, polygon and polyhedron pairs and with feature manifolds for
    /// the others.
    #[inline]
    fn contact_manifold_pair(
        pose_a: &V::Pose,
        a: &Self,
        pose_b: &V::Pose,
        b: &Self,
        prediction: V::Scalar,
    ) -> Option<Manifold<V>> {
        Self::contact_pair(pose_a, a, pose_b, b, prediction)
            .map(|c| Manifold::single(&c, FeatureId::SINGLE))
    }

    /// See [`contact_cached`]. The default ignores the cache and answers
    /// [`contact_pair`](Self::contact_pair); the convex enums test the cached
    /// separating axis first ([`warm`]).
    #[inline]
    fn contact_pair_cached(
        pose_a: &V::Pose,
        a: &Self,
        pose_b: &V::Pose,
        b: &Self,
        prediction: V::Scalar,
        cache: &mut ContactCache<V>,
    ) -> Option<Contact<V>> {
        cache.clear();
        Self::contact_pair(pose_a, a, pose_b, b, prediction)
    }

    /// See [`contact_manifold_cached`]. The default ignores the cache and answers
    /// [`contact_manifold_pair`](Self::contact_manifold_pair).
    #[inline]
    fn contact_manifold_pair_cached(
        pose_a: &V::Pose,
        a: &Self,
        pose_b: &V::Pose,
        b: &Self,
        prediction: V::Scalar,
        cache: &mut ContactCache<V>,
    ) -> Option<Manifold<V>> {
        cache.clear();
        Self::contact_manifold_pair(pose_a, a, pose_b, b, prediction)
    }

    /// [`contact_manifold_pair_cached`](Self::contact_manifold_pair_cached), with the
    /// manifolds of a composite's parts touching along other normals pushed on
    /// `more` (see [`contact_manifolds_by_normal`]; nothing is pushed for a convex
    /// pair, and `more` is not cleared). The default pushes nothing.
    #[inline]
    fn contact_manifolds_pair_cached(
        pose_a: &V::Pose,
        a: &Self,
        pose_b: &V::Pose,
        b: &Self,
        prediction: V::Scalar,
        cache: &mut ContactCache<V>,
        _more: &mut Vec<Manifold<V>>,
    ) -> Option<Manifold<V>> {
        Self::contact_manifold_pair_cached(pose_a, a, pose_b, b, prediction, cache)
    }

    /// The manifold of a pair known to touch as `contact` says (a composite's part
    /// whose normal was corrected along a flat surface): the clipped manifold of the
    /// shapes' supporting features along its normal
    /// ([`crate::query::manifold::features`]). The default, `None`, keeps the points
    /// already found and re-measures their depths.
    #[inline]
    fn manifold_along_pair(
        _pose_a: &V::Pose,
        _a: &Self,
        _pose_b: &V::Pose,
        _b: &Self,
        _contact: &Contact<V>,
        _prediction: V::Scalar,
    ) -> Option<Manifold<V>> {
        None
    }

    /// See [`distance`].
    fn distance_pair(pose_a: &V::Pose, a: &Self, pose_b: &V::Pose, b: &Self) -> V::Scalar;

    /// See [`closest_points`].
    fn closest_points_pair(
        pose_a: &V::Pose,
        a: &Self,
        pose_b: &V::Pose,
        b: &Self,
    ) -> ClosestPoints<V>;

    /// See [`cast_shapes`]: [`cast_pair_with`](Self::cast_pair_with) with the
    /// default options.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn cast_pair(
        pose_a: &V::Pose,
        vel_a: V,
        a: &Self,
        pose_b: &V::Pose,
        vel_b: V,
        b: &Self,
        max_t: V::Scalar,
    ) -> Option<ShapeCastHit<V>> {
        let options = ShapeCastOptions::default();
        Self::cast_pair_with(pose_a, vel_a, a, pose_b, vel_b, b, max_t, &options)
    }

    /// See [`cast_shapes_with`].
    #[allow(clippy::too_many_arguments)]
    fn cast_pair_with(
        pose_a: &V::Pose,
        vel_a: V,
        a: &Self,
        pose_b: &V::Pose,
        vel_b: V,
        b: &Self,
        max_t: V::Scalar,
        options: &ShapeCastOptions<V::Scalar>,
    ) -> Option<ShapeCastHit<V>>;

    /// See [`time_of_impact_with`].
    fn time_of_impact_pair(
        sweep_a: &Sweep<V>,
        a: &Self,
        sweep_b: &Sweep<V>,
        b: &Self,
        options: &ShapeCastOptions<V::Scalar>,
    ) -> Option<ShapeCastHit<V>>;
}

/// `pose` with a unit rotation, or a NaN pose (which every pair query answers with
/// its documented miss) when [`check_pose`] refuses it (a rotation off unit length, a
/// translation beyond [`Real::MAX_COORD`]): what the free pair queries pass to the
/// shapes' pair methods, for callers that enter a pose once and call those methods.
///
/// ```
/// use isect::d3::*;
/// use isect::query::dispatch;
///
/// let far = Pose::from_translation(Vec3::new(f32::MAX, 0.0, 0.0));
/// assert!(dispatch::entering_pose::<Vec3>(&far).translation.x.is_nan());
/// assert_eq!(dispatch::entering_pose::<Vec3>(&Pose::IDENTITY), Pose::IDENTITY);
/// ```
#[inline]
pub fn entering_pose<V: GjkVector>(pose: &V::Pose) -> V::Pose {
    entered_pose::<V>(pose)
        .unwrap_or_else(|| V::Pose::from_translation(V::splat(V::Scalar::from_f64(f64::NAN))))
}

/// `pose` as the free pair queries take it (see the module docs): as it is when its
/// rotation is unit to rounding and its translation in range, made unit otherwise;
/// `None` where they answer their documented miss (a non-finite pose, a refused
/// rotation, a translation beyond [`Real::MAX_COORD`]). A batch checks each pose once
/// with it and calls the pair's [`intersects_kernel`] on the poses it gives.
///
/// ```
/// use isect::d3::*;
/// use isect::query::dispatch;
///
/// let turned = Pose::new(Vec3::X, Quat::from_rotation_y(0.5));
/// assert_eq!(dispatch::entered_pose::<Vec3>(&turned), Some(turned));
/// assert_eq!(dispatch::entered_pose::<Vec3>(&Pose::from_translation(Vec3::NAN)), None);
/// ```
#[inline]
pub fn entered_pose<V: GjkVector>(pose: &V::Pose) -> Option<V::Pose> {
    if crate::shape::error::pose_passes_as_is(pose) {
        return Some(*pose);
    }
    check_pose("dispatch", "pose.rotation", "pose.translation", pose).ok()
}

/// A pair's [`intersects`] test chosen once for many placements: called with poses
/// from [`entered_pose`], it answers as [`intersects`] does.
pub type IntersectsKernel<'s, V> =
    Box<dyn Fn(&<V as Vector>::Pose, &<V as Vector>::Pose) -> bool + Send + Sync + 's>;

/// The [`intersects`] test of `a` and `b` with the match on their kinds done once:
/// the analytic kernel of the pair (ball, capsule, box, triangle and segment pairs),
/// or the general query. For batches of placements of one pair; each pose must come
/// from [`entered_pose`] (a `None` there is a miss, which the kernel is not asked).
///
/// ```
/// use isect::d3::*;
/// use isect::query::dispatch;
///
/// # fn main() -> Result<(), ShapeError> {
/// let arm = Shape::Capsule(Capsule::aligned(1, 0.5, 0.3)?);
/// let post = Shape::Cuboid(Aabb::new(Vec3::splat(-0.4), Vec3::splat(0.4))?);
/// let kernel = dispatch::intersects_kernel(&arm, &post);
/// for x in [0.5_f32, 0.69, 0.71, 2.0] {
///     let at = dispatch::entered_pose::<Vec3>(&Pose::from_translation(Vec3::new(x, 0.0, 0.0)));
///     let at = at.expect("a finite pose");
///     assert_eq!(kernel(&at, &Pose::IDENTITY), dispatch::intersects(&at, &arm, &Pose::IDENTITY, &post));
/// }
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn intersects_kernel<'s, V: GjkVector, S: DispatchShape<V> + Sync>(
    a: &'s S,
    b: &'s S,
) -> IntersectsKernel<'s, V> {
    S::intersects_kernel_pair(a, b)
}

/// True when the shapes touch or overlap; `false` when a pose is not finite or a
/// rotation is refused (see the module docs). Agrees with
/// [`crate::query::distance::intersects`] up to rounding.
///
/// ```
/// use isect::d3::*;
/// use isect::query::dispatch;
///
/// # fn main() -> Result<(), ShapeError> {
/// let ball = Shape::Ball(Ball::new(Vec3::ZERO, 1.0)?);
/// let post = Shape::Cylinder(Cylinder::new(2.0, 0.5)?); // radius 0.5 about y
/// let near = Pose::from_translation(Vec3::new(1.5, 0.0, 0.0)); // touching
/// let far = Pose::from_translation(Vec3::new(1.6, 0.0, 0.0));
/// assert!(dispatch::intersects(&Pose::IDENTITY, &ball, &near, &post));
/// assert!(!dispatch::intersects(&Pose::IDENTITY, &ball, &far, &post));
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn intersects<V: GjkVector, S: DispatchShape<V>>(
    pose_a: &V::Pose,
    a: &S,
    pose_b: &V::Pose,
    b: &S,
) -> bool {
    let (pose_a, pose_b) = (&entering_pose::<V>(pose_a), &entering_pose::<V>(pose_b));
    S::intersects_pair(pose_a, a, pose_b, b)
}

/// The contact of the shapes when their separation is at most `prediction`, as
/// [`crate::query::contact()`]; `None` otherwise and for a non-finite pose, a refused
/// rotation or a NaN `prediction`. Touching shapes give depth 0.
///
/// ```
/// use isect::d2::*;
/// use isect::query::dispatch;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A unit ball 0.25 into the top of a floor box.
/// let floor = Shape::Cuboid(Aabb::new(Vec2::new(-10.0, -1.0), Vec2::new(10.0, 0.0))?);
/// let ball = Shape::Ball(Ball::new(Vec2::ZERO, 1.0)?);
/// let at = Pose::from_translation(Vec2::new(2.0, 0.75));
/// let c = dispatch::contact(&Pose::IDENTITY, &floor, &at, &ball, 0.0).expect("overlap");
/// assert!((c.depth - 0.25).abs() < 1e-6);
/// assert!((c.normal - Vec2::Y).length() < 1e-6); // from the floor (A) to the ball (B)
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn contact<V: GjkVector, S: DispatchShape<V>>(
    pose_a: &V::Pose,
    a: &S,
    pose_b: &V::Pose,
    b: &S,
    prediction: V::Scalar,
) -> Option<Contact<V>> {
    let (pose_a, pose_b) = (&entering_pose::<V>(pose_a), &entering_pose::<V>(pose_b));
    S::contact_pair(pose_a, a, pose_b, b, prediction)
}

/// The contact manifold of the shapes within `prediction`: up to 2 (2D) or 4 (3D)
/// points ([`crate::query::manifold`]): by SAT and clipping for box–box,
/// polygon–polygon, 2D box–polygon and polyhedron–polyhedron pairs, from the shapes'
/// supporting features along [`contact`]'s normal for the other pairs (a capsule
/// lying on a face gets both ends, a cylinder standing on one four points of its
/// rim), the single point of [`contact`] (id [`FeatureId::SINGLE`]) when a ball is
/// involved or no flat feature faces the other shape. A composite's per-part
/// manifolds are merged ([`crate::query::merge_manifolds`]). `None` beyond
/// `prediction`, for a non-finite pose, a refused rotation or a NaN `prediction`.
///
/// ```
/// use isect::d3::*;
/// use isect::query::dispatch;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A unit cube 0.1 into a wide floor: a box–box face contact of 4 points.
/// let floor = Shape::Cuboid(Aabb::new(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 0.0, 5.0))?);
/// let cube = Shape::Cuboid(Aabb::new(Vec3::splat(-0.5), Vec3::splat(0.5))?);
/// let at = Pose::from_translation(Vec3::new(0.0, 0.4, 0.0));
/// let m = dispatch::contact_manifold(&Pose::IDENTITY, &floor, &at, &cube, 0.0).unwrap();
/// assert_eq!(m.points().len(), 4);
/// assert!(m.points().iter().all(|p| (p.depth - 0.1).abs() < 1e-5));
///
/// // A capsule of half length 1 lying 0.05 into the floor: both ends of its segment.
/// let capsule = Shape::Capsule(Capsule::aligned(0, 1.0, 0.5)?);
/// let lying = Pose::from_translation(Vec3::new(0.0, 0.45, 0.0));
/// let m = dispatch::contact_manifold(&Pose::IDENTITY, &floor, &lying, &capsule, 0.0).unwrap();
/// let xs: Vec<f32> = m.points().iter().map(|p| p.point_b.x).collect();
/// assert_eq!(xs.len(), 2);
/// assert!((xs[0] - xs[1]).abs() > 1.99);
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn contact_manifold<V: GjkVector, S: DispatchShape<V>>(
    pose_a: &V::Pose,
    a: &S,
    pose_b: &V::Pose,
    b: &S,
    prediction: V::Scalar,
) -> Option<Manifold<V>> {
    let (pose_a, pose_b) = (&entering_pose::<V>(pose_a), &entering_pose::<V>(pose_b));
    S::contact_manifold_pair(pose_a, a, pose_b, b, prediction)
}

/// Every manifold of the shapes within `prediction`, one for each normal they touch
/// along: [`contact_manifold`]'s first, then for composites the manifolds of parts
/// touching along other normals, merged as
/// [`merge_manifolds_by_normal`](crate::query::merge_manifolds_by_normal) does (a box
/// in the corner of a floor mesh and a wall gets the floor's and the wall's). At most
/// one for a convex pair. Empty where [`contact_manifold`] is `None`.
///
/// ```
/// use isect::d3::*;
/// use isect::query::dispatch;
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// // An L of two quads: a floor (y = 0) and a wall (x = 1). A unit cube sunk 0.1
/// // into the floor and 0.05 into the wall touches along +y and along -x.
/// let vertices = vec![
///     Vec3::new(-3.0, 0.0, -3.0), Vec3::new(1.0, 0.0, -3.0), Vec3::new(1.0, 0.0, 3.0), Vec3::new(-3.0, 0.0, 3.0),
///     Vec3::new(1.0, 4.0, -3.0), Vec3::new(1.0, 4.0, 3.0),
/// ];
/// let faces = vec![[0, 2, 1], [0, 3, 2], [1, 2, 5], [1, 5, 4]];
/// let corner: AnyShape = TriMesh::new(vertices, faces, TriMeshFlags::OPEN)?.into();
/// let cube: AnyShape = Shape::Cuboid(Aabb::new(Vec3::splat(-0.5), Vec3::splat(0.5))?).into();
/// let at = Pose::from_translation(Vec3::new(0.55, 0.4, 0.0));
/// let all = dispatch::contact_manifolds_by_normal(&Pose::IDENTITY, &corner, &at, &cube, 0.0);
/// assert_eq!(all.len(), 2);
/// assert_eq!(Some(all[0]), dispatch::contact_manifold(&Pose::IDENTITY, &corner, &at, &cube, 0.0));
/// # Ok(())
/// # }
/// ```
pub fn contact_manifolds_by_normal<V: GjkVector, S: DispatchShape<V>>(
    pose_a: &V::Pose,
    a: &S,
    pose_b: &V::Pose,
    b: &S,
    prediction: V::Scalar,
) -> Vec<Manifold<V>> {
    let (pose_a, pose_b) = (&entering_pose::<V>(pose_a), &entering_pose::<V>(pose_b));
    let mut more = Vec::new();
    let cache = &mut ContactCache::new();
    let Some(first) =
        S::contact_manifolds_pair_cached(pose_a, a, pose_b, b, prediction, cache, &mut more)
    else {
        return Vec::new();
    };
    more.insert(0, first);
    more
}

/// [`contact`] warm-started from `cache`, the pair's [`ContactCache`] (see
/// [`warm`]): the same answer, cheaper when the axis or direction that separated the
/// pair at its last query still does. Pass the same cache at each query of the pair;
/// a cache from another pair or an older frame costs one test, never the answer.
///
/// ```
/// use isect::d3::*;
/// use isect::query::dispatch::{self, ContactCache};
///
/// # fn main() -> Result<(), ShapeError> {
/// // A box drifting toward another: apart, apart, then touching, frame by frame;
/// // each answer is the uncached one.
/// let cube = Shape::Cuboid(Aabb::new(Vec3::splat(-0.5), Vec3::splat(0.5))?);
/// let mut cache = ContactCache::new();
/// for x in [1.6_f32, 1.3, 0.9] {
///     let at = Pose::new(Vec3::new(x, 0.1, 0.0), Quat::from_rotation_y(0.3));
///     let warm = dispatch::contact_cached(&Pose::IDENTITY, &cube, &at, &cube, 0.0, &mut cache);
///     assert_eq!(warm, dispatch::contact(&Pose::IDENTITY, &cube, &at, &cube, 0.0));
/// }
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn contact_cached<V: GjkVector, S: DispatchShape<V>>(
    pose_a: &V::Pose,
    a: &S,
    pose_b: &V::Pose,
    b: &S,
    prediction: V::Scalar,
    cache: &mut ContactCache<V>,
) -> Option<Contact<V>> {
    let (pose_a, pose_b) = (&entering_pose::<V>(pose_a), &entering_pose::<V>(pose_b));
    S::contact_pair_cached(pose_a, a, pose_b, b, prediction, cache)
}

/// [`contact_manifold`] warm-started from `cache`, as [`contact_cached`]: the same
/// manifold.
///
/// ```
/// use isect::d2::*;
/// use isect::query::dispatch::{self, ContactCache};
///
/// # fn main() -> Result<(), ShapeError> {
/// // A hexagon sliding along a floor box, apart then resting 0.05 into it.
/// let floor = Shape::Cuboid(Aabb::new(Vec2::new(-10.0, -1.0), Vec2::new(10.0, 0.0))?);
/// let hexagon: Vec<Vec2> = (0..6).map(|k| Vec2::from_angle(k as f32 * 1.0472)).collect();
/// let hexagon = Shape::Polygon(ConvexPolygon::new(&hexagon)?);
/// let mut cache = ContactCache::new();
/// for y in [1.5_f32, 0.95, 0.82] {
///     let at = Pose::from_translation(Vec2::new(0.3, y));
///     let warm = dispatch::contact_manifold_cached(&Pose::IDENTITY, &floor, &at, &hexagon, 0.0, &mut cache);
///     assert_eq!(warm, dispatch::contact_manifold(&Pose::IDENTITY, &floor, &at, &hexagon, 0.0));
/// }
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn contact_manifold_cached<V: GjkVector, S: DispatchShape<V>>(
    pose_a: &V::Pose,
    a: &S,
    pose_b: &V::Pose,
    b: &S,
    prediction: V::Scalar,
    cache: &mut ContactCache<V>,
) -> Option<Manifold<V>> {
    let (pose_a, pose_b) = (&entering_pose::<V>(pose_a), &entering_pose::<V>(pose_b));
    S::contact_manifold_pair_cached(pose_a, a, pose_b, b, prediction, cache)
}

/// Distance between the shapes (0 when touching or overlapping; NaN for a
/// non-finite pose or a refused rotation).
///
/// ```
/// use isect::d2::*;
/// use isect::query::dispatch;
///
/// # fn main() -> Result<(), ShapeError> {
/// let capsule = Shape::Capsule(Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.5)?);
/// let ball = Shape::Ball(Ball::new(Vec2::ZERO, 1.0)?);
/// let at = Pose::from_translation(Vec2::new(5.0, 0.0)); // 4 from the capsule's end
/// let d = dispatch::distance(&Pose::IDENTITY, &capsule, &at, &ball);
/// assert!((d - 2.5).abs() < 1e-6);
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn distance<V: GjkVector, S: DispatchShape<V>>(
    pose_a: &V::Pose,
    a: &S,
    pose_b: &V::Pose,
    b: &S,
) -> V::Scalar {
    let (pose_a, pose_b) = (&entering_pose::<V>(pose_a), &entering_pose::<V>(pose_b));
    S::distance_pair(pose_a, a, pose_b, b)
}

/// Closest points of the shapes, as [`crate::query::closest_points`] (NaN distance
/// with `Status::Degenerate` for a non-finite pose or a refused rotation).
///
/// ```
/// use isect::d3::*;
/// use isect::query::dispatch;
///
/// # fn main() -> Result<(), ShapeError> {
/// let cube = Shape::Cuboid(Aabb::new(Vec3::splat(-1.0), Vec3::splat(1.0))?);
/// let ball = Shape::Ball(Ball::new(Vec3::ZERO, 0.5)?);
/// let at = Pose::from_translation(Vec3::new(0.0, 0.0, 4.0));
/// let cp = dispatch::closest_points(&Pose::IDENTITY, &cube, &at, &ball);
/// assert!((cp.distance - 2.5).abs() < 1e-5);
/// assert!((cp.point_b - Vec3::new(0.0, 0.0, 3.5)).length() < 1e-5);
/// assert!((cp.point_a.z - 1.0).abs() < 1e-5); // on the cube's top face
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn closest_points<V: GjkVector, S: DispatchShape<V>>(
    pose_a: &V::Pose,
    a: &S,
    pose_b: &V::Pose,
    b: &S,
) -> ClosestPoints<V> {
    let (pose_a, pose_b) = (&entering_pose::<V>(pose_a), &entering_pose::<V>(pose_b));
    S::closest_points_pair(pose_a, a, pose_b, b)
}

/// The first time in `[0, max_t]` at which the translating shapes touch, as
/// [`crate::query::cast_shapes()`] (overlap at time 0 answers `time = 0` with the
/// contact depth; `None` for NaN input, a refused rotation or a negative `max_t`).
///
/// ```
/// use isect::d2::*;
/// use isect::query::dispatch;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A unit ball falling at 3 onto a floor whose top is at y = 0, from y = 7: its
/// // bottom reaches the floor after 6 / 3 = 2.
/// let floor = Shape::Cuboid(Aabb::new(Vec2::new(-10.0, -1.0), Vec2::new(10.0, 0.0))?);
/// let ball = Shape::Ball(Ball::new(Vec2::ZERO, 1.0)?);
/// let start = Pose::from_translation(Vec2::new(0.0, 7.0));
/// let hit = dispatch::cast_shapes(&Pose::IDENTITY, Vec2::ZERO, &floor,
///     &start, Vec2::new(0.0, -3.0), &ball, 10.0).expect("it lands");
/// assert!((hit.time - 2.0).abs() < 1e-5);
/// # Ok(())
/// # }
/// ```
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn cast_shapes<V: GjkVector, S: DispatchShape<V>>(
    pose_a: &V::Pose,
    vel_a: V,
    a: &S,
    pose_b: &V::Pose,
    vel_b: V,
    b: &S,
    max_t: V::Scalar,
) -> Option<ShapeCastHit<V>> {
    let (pose_a, pose_b) = (&entering_pose::<V>(pose_a), &entering_pose::<V>(pose_b));
    S::cast_pair(pose_a, vel_a, a, pose_b, vel_b, b, max_t)
}

/// [`cast_shapes`] with options ([`ShapeCastOptions`]): a target distance (skin) at
/// which the cast stops, and whether a contact the motion does not approach counts
/// (see [`crate::query::cast_options`]). Composites decide per part, with the part's
/// corrected normal. The default options give [`cast_shapes`]'s answer. `None` for
/// NaN input, a refused rotation, a negative `max_t` or invalid options.
///
/// # Example
/// A capsule standing on a floor, cast as a mover: it slides and lifts off freely
/// and is stopped at once when pushed down.
/// ```
/// use glam::Vec3;
/// use isect::math::Pose3;
/// use isect::query::{dispatch, ShapeCastOptions};
/// use isect::shape::{shape_3d::Shape, Aabb, Capsule};
///
/// let floor = Aabb::new(Vec3::new(-10.0, -1.0, -10.0), Vec3::new(10.0, 0.0, 10.0))?;
/// let floor = Shape::<f32>::from(floor);
/// let capsule = Capsule::new(Vec3::new(0.0, 0.5, 0.0), Vec3::new(0.0, 1.5, 0.0), 0.5)?;
/// let capsule = Shape::<f32>::from(capsule);
/// let here = Pose3::default(); // the capsule's bottom at y = 0
/// let mover = ShapeCastOptions::mover(0.0)?;
/// let cast = |vel| {
///     dispatch::cast_shapes_with(&here, Vec3::ZERO, &floor, &here, vel, &capsule, 1.0, &mover)
/// };
/// assert!(cast(Vec3::X).is_none()); // sideways: slides
/// assert!(cast(Vec3::Y).is_none()); // up: lifts off
/// assert!(cast(-Vec3::Y).is_some_and(|h| h.time < 1e-6)); // down: blocked at once
/// # Ok::<(), isect::shape::ShapeError>(())
/// ```
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn cast_shapes_with<V: GjkVector, S: DispatchShape<V>>(
    pose_a: &V::Pose,
    vel_a: V,
    a: &S,
    pose_b: &V::Pose,
    vel_b: V,
    b: &S,
    max_t: V::Scalar,
    options: &ShapeCastOptions<V::Scalar>,
) -> Option<ShapeCastHit<V>> {
    let (pose_a, pose_b) = (&entering_pose::<V>(pose_a), &entering_pose::<V>(pose_b));
    S::cast_pair_with(pose_a, vel_a, a, pose_b, vel_b, b, max_t, options)
}

/// The first time `t ∈ [0, 1]` at which A and B, moving and rotating along their
/// sweeps ([`Sweep`]: linear translation, rotation at constant speed about each
/// shape's local origin), touch: [`time_of_impact_with`] with the default options.
/// Every pair of kinds, composites included.
///
/// # Example
/// A bar spinning while it crosses a thin wall in one step is caught.
/// ```
/// use glam::{Quat, Vec3};
/// use isect::math::Pose3;
/// use isect::query::{dispatch, Sweep};
/// use isect::shape::{shape_3d::Shape, Aabb, Capsule};
///
/// let wall = Aabb::new(Vec3::new(-0.01, -5.0, -5.0), Vec3::new(0.01, 5.0, 5.0))?;
/// let wall = Shape::<f32>::from(wall);
/// let bar = Capsule::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), 0.05)?;
/// let bar = Shape::<f32>::from(bar);
/// let still = Sweep { start: Pose3::default(), end: Pose3::default() };
/// let moving = Sweep {
///     start: Pose3::new(Vec3::new(-4.0, 0.0, 0.0), Quat::IDENTITY),
///     end: Pose3::new(Vec3::new(4.0, 0.0, 0.0), Quat::from_rotation_z(3.0)),
/// };
/// let hit = dispatch::time_of_impact(&still, &wall, &moving, &bar).expect("caught");
/// assert!(hit.time > 0.3 && hit.time < 0.55);
/// # Ok::<(), isect::shape::ShapeError>(())
/// ```
#[inline]
pub fn time_of_impact<V: GjkVector, S: DispatchShape<V>>(
    sweep_a: &Sweep<V>,
    a: &S,
    sweep_b: &Sweep<V>,
    b: &S,
) -> Option<ShapeCastHit<V>> {
    time_of_impact_with(sweep_a, a, sweep_b, b, &ShapeCastOptions::default())
}

/// [`time_of_impact`] with options. Convex pairs: conservative advancement
/// ([`crate::query::time_of_impact_with`], tolerance
/// [`CAST_GAP_ULPS`](crate::query::cast_shapes::CAST_GAP_ULPS), cap
/// [`TOI_MAX_ITERATIONS`](crate::query::cast_shapes::TOI_MAX_ITERATIONS) per pair
/// of parts, then the last safe time with `MaxIterations`). A composite bounds the
/// region the other shape sweeps in its frame (a box grown by the rotations' reach,
/// conservative), walks its part tree with it and keeps the earliest part hit (see
/// [`crate::query::composite`]). `None` when they do not touch by `t = 1`, for a
/// non-finite or refused pose in a sweep (NaN or infinite motion) or invalid options.
///
/// ```
/// use isect::d3::*;
/// use isect::query::{dispatch, ShapeCastOptions, Sweep};
///
/// # fn main() -> Result<(), ShapeError> {
/// // A unit ball swept from z = 10 to z = 0 above a floor whose top is at z = 0:
/// // it comes within a skin of 0.5 when its centre is at z = 1.5, t = 0.85.
/// let floor = Shape::Cuboid(Aabb::new(Vec3::new(-5.0, -5.0, -1.0), Vec3::new(5.0, 5.0, 0.0))?);
/// let ball = Shape::Ball(Ball::new(Vec3::ZERO, 1.0)?);
/// let still = Sweep { start: Pose::IDENTITY, end: Pose::IDENTITY };
/// let fall = Sweep { start: Pose::from_translation(Vec3::new(0.0, 0.0, 10.0)), end: Pose::IDENTITY };
/// let skin = ShapeCastOptions::new(0.5, true)?;
/// let hit = dispatch::time_of_impact_with(&still, &floor, &fall, &ball, &skin).unwrap();
/// assert!((hit.time - 0.85).abs() < 1e-4);
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn time_of_impact_with<V: GjkVector, S: DispatchShape<V>>(
    sweep_a: &Sweep<V>,
    a: &S,
    sweep_b: &Sweep<V>,
    b: &S,
    options: &ShapeCastOptions<V::Scalar>,
) -> Option<ShapeCastHit<V>> {
    let checked = |s: &Sweep<V>| Sweep {
        start: entering_pose::<V>(&s.start),
        end: entering_pose::<V>(&s.end),
    };
    S::time_of_impact_pair(&checked(sweep_a), a, &checked(sweep_b), b, options)
}

/// The world box of a ball (`centre ± r`) or of a local box (its transformed
/// corners' bounds, exact for a box), `None` for the other kinds: cheaper than the
/// `2·DIM` support calls of the general case, which composite queries pay per call.
#[inline]
pub(crate) fn analytic_world_aabb<V: Vector>(
    ball: Option<&Ball<V>>,
    cuboid: Option<&Aabb<V>>,
    pose: &V::Pose,
) -> Option<Aabb<V>> {
    if let Some(b) = ball {
        let c = pose.transform_point(b.center());
        let r = V::splat(b.radius());
        return Some(Aabb {
            min: c - r,
            max: c + r,
        });
    }
    cuboid.map(|b| crate::query::composite::transformed_aabb(b, pose))
}

/// [`DispatchShape::contains_point`] for a convex support map: GJK against the point.
/// A point beyond [`QUERY_REACH`](crate::math::QUERY_REACH) is outside every valid
/// placed shape: `false` without GJK (whose squares would overflow).
pub(crate) fn support_contains_point<V: GjkVector, S: SupportMap<V>>(
    shape: &S,
    pose: &V::Pose,
    p: V,
) -> bool {
    if !crate::math::within_query_reach(p) {
        return false;
    }
    let Ok(point) = Ball::placed(p, V::Scalar::ZERO) else {
        return false;
    };
    crate::query::distance::intersects(pose, shape, &V::Pose::IDENTITY, &point)
}

/// [`DispatchShape::intersects_aabb`] for a convex support map: GJK against the box.
pub(crate) fn support_intersects_aabb<V: GjkVector, S: SupportMap<V>>(
    shape: &S,
    pose: &V::Pose,
    region: &Aabb<V>,
) -> bool {
    if region.min.is_nan() || region.max.is_nan() {
        return false;
    }
    crate::query::distance::intersects(pose, shape, &V::Pose::IDENTITY, region)
}

/// A ball's centre in the frame of a box placed at `pose_box`.
#[inline]
fn centre_in<V: Vector>(pose_ball: &V::Pose, ball: &Ball<V>, pose_box: &V::Pose) -> V {
    pose_box.inverse_transform_point(ball.centre_at(pose_ball))
}

/// Ball (A) – box (B, a box of its local frame) overlap, closed; the poses are finite
/// (its caller, `table::intersects`, checked them: a centred ball skips the rotation).
#[inline]
pub(crate) fn intersects_ball_cuboid<V: Vector>(
    pose_a: &V::Pose,
    a: &Ball<V>,
    pose_b: &V::Pose,
    b: &Aabb<V>,
) -> bool {
    let r = a.radius();
    b.distance_squared_to_point(centre_in(pose_a, a, pose_b)) <= r * r
}

/// The capsule–box early-out (`misses_grown_box`) grows the box by the radius (and
/// the prediction) and this many machine epsilons of the largest coordinate (box,
/// segment, reach), more than the rounding of its projections on the edge axes (a
/// few `ε` of that coordinate): a touching pair always reaches the exact test.
pub const CAPSULE_BOX_SLACK_ULPS: f64 = 32.0;

/// Capsule (A) – box (B) overlap in closed form ([`CapsuleBoxTest`]); false for NaN
/// poses.
#[inline]
pub(crate) fn intersects_capsule_cuboid<V: Vector>(
    pose_a: &V::Pose,
    a: &Capsule<V>,
    pose_b: &V::Pose,
    b: &Aabb<V>,
) -> bool {
    CapsuleBoxTest::new(a, b).intersects(pose_a, pose_b)
}

/// The capsule–box overlap test of one pair of shapes, with what depends on the shapes
/// alone worked out once (per call in [`intersects_capsule_cuboid`], per batch in
/// the intersects kernel). The answer is the segment's squared distance to the box
/// against the squared radius. Cheap tests come first: a centred capsule's centre
/// alone settles the pairs clearly apart or clearly overlapping
/// ([`CapsuleBoxTest::centre_settles`]) before its axis is turned; a separating axis
/// of the segment and the grown box parts most other separated pairs, and an end of
/// the segment within the radius of the box settles most overlapping ones (each exact
/// up to rounding while the squares they compare are normal numbers; below that they
/// decide nothing); the rest take the exact segment–box distance.
pub(crate) struct CapsuleBoxTest<'s, V: Vector> {
    capsule: &'s Capsule<V>,
    b: &'s Aabb<V>,
    /// A centred capsule's half axis (its segment is `±half_axis`); `None` otherwise.
    half_axis: Option<V>,
    /// The half length plus the radius: the farthest the centre reaches.
    reach: V::Scalar,
    /// The box's largest coordinate plus `reach`: the part of [`centre_settles`]'s
    /// magnitude that does not move.
    ///
    /// [`centre_settles`]: CapsuleBoxTest::centre_settles
    fixed_magnitude: V::Scalar,
}

impl<'s, V: Vector> CapsuleBoxTest<'s, V> {
    /// The test of capsule `capsule` against box `b`.
    #[inline(always)]
    pub(crate) fn new(capsule: &'s Capsule<V>, b: &'s Aabb<V>) -> Self {
        let s = capsule.segment();
        let half_axis = (s.a == -s.b).then_some(s.b);
        let reach = s.b.length() + capsule.radius();
        let box_magnitude = b.min.abs().max(b.max.abs()).max_element();
        Self {
            capsule,
            b,
            half_axis,
            reach,
            fixed_magnitude: box_magnitude + reach,
        }
    }

    /// True when the capsule at `pose_a` and the box at `pose_b` overlap (closed).
    #[inline(always)]
    pub(crate) fn intersects(&self, pose_a: &V::Pose, pose_b: &V::Pose) -> bool {
        use crate::query::distance::{centred_segment_in, origin_in, segment_in};
        let local = match self.half_axis {
            Some(half_axis) => {
                let centre = origin_in(pose_a, pose_b);
                if let Some(settled) = self.centre_settles(centre) {
                    return settled;
                }
                centred_segment_in(centre, pose_a, half_axis, pose_b)
            }
            None => segment_in(pose_a, self.capsule, pose_b),
        };
        self.segment_overlaps(&local)
    }

    /// The test past the centre's: the capsule's segment `local`, in the box's frame,
    /// within the radius of the box.
    #[inline(always)]
    fn segment_overlaps(&self, local: &Segment<V>) -> bool {
        let (b, r) = (self.b, self.capsule.radius());
        if misses_grown_box(local, b, r) {
            return false;
        }
        let end_within = |p| b.distance_squared_to_point(p) <= r * r;
        end_within(local.a)
            || end_within(local.b)
            || crate::query::distance::closest_point_segment_aabb(local, b).1 <= r * r
    }

    /// What a centred capsule's centre settles alone, in the box's frame (the
    /// bounding-sphere test of Ericson 4.3, about the box): `Some(false)` when the
    /// centre is farther from the box than the half length and radius, `Some(true)`
    /// when it is within the radius (the centre is a point of the segment), each by a
    /// margin of [`CENTRE_SETTLES_ULPS`] machine epsilons of the largest coordinate;
    /// `None` in the band between, for NaN, and where the thresholds' squares fall
    /// below [`normal_squares`] (subnormal squares round by an absolute amount, which
    /// no relative margin covers). The margin is far beyond the rounding of the
    /// centre's distance, of the turned half axis (a few `ε` off the half length for a
    /// rotation unit to rounding) and of the exact test's distances, so the answer is
    /// the one the exact test gives.
    #[inline(always)]
    fn centre_settles(&self, centre: V) -> Option<bool> {
        let magnitude = centre.abs().max_element() + self.fixed_magnitude;
        let slack = crate::math::tolerance::eps::<V::Scalar>(CENTRE_SETTLES_ULPS) * magnitude;
        let d2 = self.b.distance_squared_to_point(centre);
        let (apart, floor) = (self.reach + slack, normal_squares::<V::Scalar>());
        if d2 > apart * apart && apart * apart >= floor {
            return Some(false);
        }
        let within = self.capsule.radius() - slack;
        (within > V::Scalar::ZERO && d2 < within * within && within * within >= floor)
            .then_some(true)
    }
}

/// The capsule–box overlap test's first early-out decides from a centred capsule's
/// centre alone: apart when the centre is farther from the box than the half length
/// and radius, overlapping when within the radius, each by this many machine epsilons
/// of the largest coordinate (four times [`CAPSULE_BOX_SLACK_ULPS`]); the band between
/// goes on to the exact test. The margin is far beyond the rounding that could make
/// the exact test answer otherwise (a few `ε`) while the squares compared are normal
/// numbers; where they would be subnormal (lengths below about 1e-154 in `f64`, 1e-19
/// in `f32`) the centre decides nothing.
pub const CENTRE_SETTLES_ULPS: f64 = 4.0 * CAPSULE_BOX_SLACK_ULPS;

/// True when a separating axis proves the segment (in the box's frame) apart from the
/// box grown by a ball of radius `reach` (plus [`CAPSULE_BOX_SLACK_ULPS`]): then the
/// capsule of radius `reach` is apart from the box, without the exact segment–box
/// distance. The axes are the box's face normals (the segment's own box against the
/// box grown by `reach`, exact, no arithmetic) and the segment crossed with the box's
/// edges (its normal in 2D), along which the grown box reaches `e·|n| + reach·|n|`
/// from its centre (Ericson 5.3.3's axes). These are every separating axis of a
/// segment and a box, so every pair the slab test against the box grown as a box
/// parts is parted here too, and no division is needed. True for NaN input (a NaN
/// segment or prediction touches nothing). Always inlined: out of line it cost the
/// Python pose batch 7 instructions a row.
#[inline(always)]
fn misses_grown_box<V: Vector>(local: &Segment<V>, b: &Aabb<V>, reach: V::Scalar) -> bool {
    let magnitude = b
        .min
        .abs()
        .max(b.max.abs())
        .max(local.a.abs())
        .max(local.b.abs());
    let slack = crate::math::tolerance::eps::<V::Scalar>(CAPSULE_BOX_SLACK_ULPS);
    let reach = reach + slack * (magnitude.max_element() + reach.abs());
    let grown = b.loosened(reach);
    let (lo, hi) = (local.a.min(local.b), local.a.max(local.b));
    if !(lo.all_le(grown.max) && grown.min.all_le(hi)) {
        return true;
    }
    let half = (local.b - local.a) * V::Scalar::HALF;
    let mid = (local.a + local.b) * V::Scalar::HALF - b.center();
    apart_on_edge_axes(mid, half, b.half_extents(), reach)
}

/// True when an axis `n = h × e_k` (3D; `h`'s normal in 2D) parts the segment
/// `mid ± h` from the box `±e` grown by a ball of radius `reach`: the segment's
/// projection `mid·n` lies farther than `e·|n| + reach·|n|` from 0. Compared squared
/// (no square root); an axis along `h` (`n = 0`) parts nothing. Overflow of the squares
/// can only turn a parting axis into a non-parting one. An axis whose `|n|²` or
/// `reach²·|n|²` falls below [`normal_squares`] parts nothing either: there the squares
/// round to subnormal numbers, whose error is absolute (a capsule 1e-23 long read as
/// apart from a box 5 away in `f32`, with a radius of 10).
#[inline(always)]
fn apart_on_edge_axes<V: Vector>(mid: V, h: V, e: V, reach: V::Scalar) -> bool {
    let ks = if V::DIM == 2 { 2..3 } else { 0..3 };
    ks.into_iter().any(|k| {
        // n = h × e_k has components h_j at i and −h_i at j (2D: k = 2, n = (h_y, −h_x)).
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        let (hi, hj) = (h.get(i), h.get(j));
        let gap =
            (mid.get(i) * hj - mid.get(j) * hi).abs() - (e.get(i) * hj.abs() + e.get(j) * hi.abs());
        let (n2, floor) = (hi * hi + hj * hj, normal_squares::<V::Scalar>());
        let reach_n2 = reach * reach * n2;
        gap > V::Scalar::ZERO && n2 >= floor && reach_n2 >= floor && gap * gap > reach_n2
    })
}

/// The least square the early-outs compare: squares below it may round to subnormal
/// numbers, whose rounding is absolute (up to the least subnormal), not `ε` of the
/// value; from it up, every square the comparisons make is normal with room for the
/// `ε` margins.
#[inline(always)]
fn normal_squares<R: Real>() -> R {
    R::MIN_POSITIVE / R::EPSILON
}

/// Ball (A) – box (B) distance; NaN for NaN poses.
#[inline]
pub(crate) fn distance_ball_cuboid<V: Vector>(
    pose_a: &V::Pose,
    a: &Ball<V>,
    pose_b: &V::Pose,
    b: &Aabb<V>,
) -> V::Scalar {
    let d = b
        .distance_squared_to_point(centre_in(pose_a, a, pose_b))
        .sqrt();
    if d.is_nan() {
        return d;
    }
    (d - a.radius()).max(V::Scalar::ZERO)
}

/// Ball (A) – box (B) contact in B's frame, then mapped to the world. A centre
/// outside the box takes the closest point; inside (or on the surface), the nearest
/// face ([`ball_aabb_contact`]). The poses are finite (its caller, `contact`,
/// checked them).
pub(crate) fn contact_ball_cuboid<V: Vector>(
    pose_a: &V::Pose,
    a: &Ball<V>,
    pose_b: &V::Pose,
    b: &Aabb<V>,
    prediction: V::Scalar,
) -> Option<Contact<V>> {
    if prediction.is_nan() {
        return None;
    }
    let ball = Ball::placed(centre_in(pose_a, a, pose_b), a.radius()).ok()?;
    let local = ball_aabb_contact_predicted(&ball, b, prediction)?;
    Some(local.transformed(pose_b))
}

/// Capsule (A) – box (B, a box of its local frame) contact in closed form. While A's
/// segment stays outside B, a capsule is its segment grown by its radius, so its
/// contact with the box is that of the ball of its radius at the segment's point
/// nearest the box (over a face, the end nearer it; else
/// [`closest_point_segment_aabb`](crate::query::distance::closest_point_segment_aabb),
/// exact up to rounding), and the depth is the radius less that distance. Once the
/// segment meets the box (or comes within its rounding,
/// [`TOUCH_ULPS`](crate::query::capsule_box::TOUCH_ULPS)), the separating axes of the
/// segment and the box give the depth ([`crate::query::capsule_box`]). `None` when the distance is NaN (the caller
/// takes the general path).
pub(crate) fn contact_capsule_cuboid<V: Vector>(
    pose_a: &V::Pose,
    a: &Capsule<V>,
    pose_b: &V::Pose,
    b: &Aabb<V>,
    prediction: V::Scalar,
) -> Option<Option<Contact<V>>> {
    let local = crate::query::distance::segment_in(pose_a, a, pose_b);
    if misses_grown_box(&local, b, a.radius() + prediction) {
        return Some(None);
    }
    let (t, d2) = crate::query::capsule_box::over_face(&local, b)
        .unwrap_or_else(|| crate::query::distance::closest_point_segment_aabb(&local, b));
    if d2.is_nan() {
        return None;
    }
    // Within rounding of the box, the direction between closest points is noise.
    let touch = crate::query::capsule_box::touch_distance(&local, b);
    if d2 <= touch * touch {
        let c = crate::query::capsule_box::contact_segment_in_box(&local, b, a.radius());
        return Some((-c.depth <= prediction).then(|| c.transformed(pose_b)));
    }
    let nearest = local.a + (local.b - local.a) * t;
    let ball = Ball::placed(nearest, a.radius()).ok()?;
    let local_contact = ball_aabb_contact_predicted(&ball, b, prediction);
    Some(local_contact.map(|c| c.transformed(pose_b)))
}

/// Ball (A) – capsule (B): the world centre of A and the closest point of B's segment.
#[inline]
fn ball_capsule_points<V: Vector>(
    pose_a: &V::Pose,
    a: &Ball<V>,
    pose_b: &V::Pose,
    b: &Capsule<V>,
) -> (V, V) {
    let ca = pose_a.transform_point(a.center());
    (ca, world_segment(pose_b, b).closest_point(ca).0)
}

/// Ball (A) – capsule (B) overlap, closed; false for NaN poses.
#[inline]
pub(crate) fn intersects_ball_capsule<V: Vector>(
    pose_a: &V::Pose,
    a: &Ball<V>,
    pose_b: &V::Pose,
    b: &Capsule<V>,
) -> bool {
    let (p, q) = ball_capsule_points(pose_a, a, pose_b, b);
    let r = a.radius() + b.radius();
    p.distance_squared(q) <= r * r
}

/// Ball (A) – capsule (B) distance; NaN for NaN poses.
#[inline]
pub(crate) fn distance_ball_capsule<V: Vector>(
    pose_a: &V::Pose,
    a: &Ball<V>,
    pose_b: &V::Pose,
    b: &Capsule<V>,
) -> V::Scalar {
    let (p, q) = ball_capsule_points(pose_a, a, pose_b, b);
    let d = p.distance(q);
    if d.is_nan() {
        return d;
    }
    (d - a.radius() - b.radius()).max(V::Scalar::ZERO)
}

/// Capsule–capsule overlap, closed (Ericson 5.1.9 on the segments); false for NaN.
#[inline]
pub(crate) fn intersects_capsule_capsule<V: Vector>(
    pose_a: &V::Pose,
    a: &Capsule<V>,
    pose_b: &V::Pose,
    b: &Capsule<V>,
) -> bool {
    let (_, _, p, q) =
        closest_points_segment_segment(&world_segment(pose_a, a), &world_segment(pose_b, b));
    let r = a.radius() + b.radius();
    p.distance_squared(q) <= r * r
}

/// Ball–ball overlap, closed; the poses are finite (its caller, `table::intersects`,
/// checked them: a centred ball skips the rotation).
#[inline]
pub(crate) fn intersects_ball_ball<V: Vector>(
    pose_a: &V::Pose,
    a: &Ball<V>,
    pose_b: &V::Pose,
    b: &Ball<V>,
) -> bool {
    let (p, q) = (a.centre_at(pose_a), b.centre_at(pose_b));
    (q - p).length_at_most(a.radius() + b.radius())
}

/// The contact of a SAT minimum translation vector with its witness points
/// `(point_a, point_b)` ([`crate::algo::witness`]).
#[inline]
pub(crate) fn contact_from_mtv<V: Vector>(mtv: Mtv<V>, (point_a, point_b): (V, V)) -> Contact<V> {
    Contact {
        normal: mtv.axis,
        depth: mtv.depth,
        point_a,
        point_b,
        status: Status::Converged,
    }
}

/// A contact, if any, seen from the other shape (see [`Contact::flipped`]).
#[inline]
pub(crate) fn flip_contact<V: Vector>(c: Option<Contact<V>>) -> Option<Contact<V>> {
    c.map(|c| c.flipped())
}
