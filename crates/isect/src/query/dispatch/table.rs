//! The dispatch table both dimensions share. The kinds with analytic kernels
//! (ball, capsule, box, triangle, segment) exist in 2D and 3D alike, so one generic
//! `match` over a [`Kind`] view of each shape answers them; a dimension adds its box
//! SAT and its own pairs (polygon–polygon in 2D, polyhedron manifolds in 3D) through
//! [`ConvexEnum`], and every other pair takes GJK / EPA with the enum itself as the
//! support map (one compiled copy of GJK / EPA per dimension, not one per pair).

use super::ball_flat::{contact_ball_flat, distance_ball_flat, intersects_ball_flat};
use super::witnesses::witnesses_on_supports;
use super::*;
use crate::query::contact::{contact_ball_ball, contact_ball_capsule, contact_capsule_capsule};
use crate::query::project_point::ProjectPoint;
use crate::query::{contact as generic_contact, distance as gd};
use crate::shape::shape_common::aabb_by_support;
use crate::shape::{Segment, Triangle};

/// A convex enum's value seen through the kinds both dimensions share.
pub(crate) enum Kind<'a, V: Vector> {
    Ball(&'a Ball<V>),
    Capsule(&'a Capsule<V>),
    /// A box of the shape's local frame.
    Cuboid(&'a Aabb<V>),
    Triangle(&'a Triangle<V>),
    Segment(&'a Segment<V>),
    /// A kind of one dimension only (polygon, polyhedron, cylinder, rounded, ...).
    Other,
}

/// What a dimension's convex enum gives the shared table. The `own_*` hooks answer
/// the pairs only that dimension has a kernel for and return `None` for the rest,
/// which then take the generic path.
pub(crate) trait ConvexEnum<V: GjkVector>:
    crate::algo::feature::FeatureMap<V> + ProjectPoint<V> + Sized
{
    /// The shared-kind view of the shape.
    fn kind(&self) -> Kind<'_, V>;

    /// True for a kind whose core is a polytope (all but the cylinder and the cone: a
    /// capsule's or a rounded shape's core is one, its margin is added along the
    /// normal): EPA's witnesses on it are exact, and stay.
    fn has_polytope_core(&self) -> bool;

    /// The vertices of a polytope kind (polygon, polyhedron), whose world box is the
    /// box of the vertices placed at the pose: one pass over them, where the box by
    /// support mapping takes `2·DIM` passes. `None` for the other kinds.
    fn hull_vertices(&self) -> Option<&[V]> {
        None
    }

    /// Box–box SAT on the boxes placed at their poses.
    fn boxes_intersect(pa: &V::Pose, a: &Aabb<V>, pb: &V::Pose, b: &Aabb<V>) -> bool;

    /// The boxes' minimum translation vector, `None` when they are apart.
    fn boxes_mtv(pa: &V::Pose, a: &Aabb<V>, pb: &V::Pose, b: &Aabb<V>) -> Option<Mtv<V>>;

    /// The contact of the boxes' minimum translation vector `mtv`, with witnesses at
    /// the centre of the contact region ([`crate::algo::witness`]).
    fn boxes_contact(
        pa: &V::Pose,
        a: &Aabb<V>,
        pb: &V::Pose,
        b: &Aabb<V>,
        mtv: Mtv<V>,
    ) -> Contact<V>;

    /// The boxes' clipped contact manifold within `prediction`.
    fn boxes_manifold(
        pa: &V::Pose,
        a: &Aabb<V>,
        pb: &V::Pose,
        b: &Aabb<V>,
        prediction: V::Scalar,
    ) -> Option<Manifold<V>>;

    /// The boxes' minimum translation vector warm-started from the SAT axis `axis`
    /// ([`crate::algo::sat_3d::obb_obb_mtv_warm`]): `None` when that axis (or else a
    /// face axis) proves them farther apart than `distance`, else `Some` of
    /// [`boxes_mtv`](Self::boxes_mtv)'s
    /// answer, `axis` updated. The default, for a dimension without the hook, is
    /// always the full test.
    fn boxes_mtv_warm(
        pa: &V::Pose,
        a: &Aabb<V>,
        pb: &V::Pose,
        b: &Aabb<V>,
        _distance: V::Scalar,
        _axis: &mut u32,
    ) -> Option<Option<Mtv<V>>> {
        Some(Self::boxes_mtv(pa, a, pb, b))
    }

    /// True when SAT axis `k` of the boxes ([`crate::algo::sat_3d::OBB_AXES`]) proves
    /// them farther apart than `distance` (the warm start's test, [`super::warm`]).
    /// The default, for a dimension without the hook, proves nothing.
    fn boxes_apart_along(
        _: &V::Pose,
        _: &Aabb<V>,
        _: &V::Pose,
        _: &Aabb<V>,
        _k: u32,
        _distance: V::Scalar,
    ) -> bool {
        false
    }

    /// The SAT axis that separates the boxes, `None` when they touch (or the
    /// dimension has no warm start for boxes).
    fn boxes_separating_axis(_: &V::Pose, _: &Aabb<V>, _: &V::Pose, _: &Aabb<V>) -> Option<u32> {
        None
    }

    /// This dimension's own boolean kernels.
    fn own_intersects(_: &V::Pose, _: &Self, _: &V::Pose, _: &Self) -> Option<bool> {
        None
    }

    /// This dimension's own contact kernels (outer `None`: no kernel for the pair),
    /// asked only with poses the caller has found finite.
    fn own_contact(
        _: &V::Pose,
        _: &Self,
        _: &V::Pose,
        _: &Self,
        _: V::Scalar,
    ) -> Option<Option<Contact<V>>> {
        None
    }

    /// This dimension's own manifold kernels (outer `None`: no kernel for the pair).
    fn own_manifold(
        _: &V::Pose,
        _: &Self,
        _: &V::Pose,
        _: &Self,
        _: V::Scalar,
    ) -> Option<Option<Manifold<V>>> {
        None
    }

    /// The manifold of a pair touching as `c` says, from the shapes' supporting
    /// features ([`crate::query::manifold::features`]).
    fn feature_manifold(
        pa: &V::Pose,
        a: &Self,
        pb: &V::Pose,
        b: &Self,
        c: &Contact<V>,
        prediction: V::Scalar,
    ) -> Manifold<V>;

    /// This dimension's own distance kernels.
    fn own_distance(_: &V::Pose, _: &Self, _: &V::Pose, _: &Self) -> Option<V::Scalar> {
        None
    }

    /// This dimension's own closest-point kernels (finite poses).
    fn own_closest_points(
        _: &V::Pose,
        _: &Self,
        _: &V::Pose,
        _: &Self,
    ) -> Option<ClosestPoints<V>> {
        None
    }
}

/// [`DispatchShape::world_aabb`]: closed forms for the ball and the box.
#[inline]
pub(crate) fn world_aabb<V: GjkVector, S: ConvexEnum<V>>(s: &S, pose: &V::Pose) -> Aabb<V> {
    let analytic = match s.kind() {
        Kind::Ball(b) => analytic_world_aabb(Some(b), None, pose),
        Kind::Cuboid(b) => analytic_world_aabb(None, Some(b), pose),
        Kind::Capsule(c) => {
            let seg = c.segment();
            Some(placed_points_box(&[seg.a, seg.b], pose).loosened(c.radius()))
        }
        _ => s
            .hull_vertices()
            .filter(|v| !v.is_empty())
            .map(|v| placed_points_box(v, pose)),
    };
    analytic.unwrap_or_else(|| aabb_by_support(s, pose))
}

/// The box of `points` placed at `pose` (non-empty): the turned points' box, moved
/// once (adding a number keeps the order of rounded values, so this is the placed
/// points' box up to the rounding of the rotation's matrix form).
fn placed_points_box<V: GjkVector>(points: &[V], pose: &V::Pose) -> Aabb<V> {
    let m = pose.matrix();
    let first = V::Pose::rotate_by(&m, points[0]);
    let (min, max) = points[1..].iter().fold((first, first), |(lo, hi), &p| {
        let q = V::Pose::rotate_by(&m, p);
        (lo.min(q), hi.max(q))
    });
    let t = pose.translation();
    Aabb {
        min: min + t,
        max: max + t,
    }
}

/// [`DispatchShape::intersects_kernel_pair`]: [`intersects`]' analytic arm for the
/// pair's kinds, or [`intersects`] itself; the poses are finite
/// ([`super::entered_pose`]), so the kernels skip that check.
pub(crate) fn intersects_kernel<'s, V: GjkVector, S: ConvexEnum<V> + DispatchShape<V> + Sync>(
    a: &'s S,
    b: &'s S,
) -> IntersectsKernel<'s, V> {
    use Kind::*;
    match (a.kind(), b.kind()) {
        (Ball(x), Ball(y)) => Box::new(move |pa, pb| intersects_ball_ball(pa, x, pb, y)),
        (Ball(x), Capsule(y)) => Box::new(move |pa, pb| intersects_ball_capsule(pa, x, pb, y)),
        (Capsule(x), Ball(y)) => Box::new(move |pa, pb| intersects_ball_capsule(pb, y, pa, x)),
        (Capsule(x), Capsule(y)) => {
            Box::new(move |pa, pb| intersects_capsule_capsule(pa, x, pb, y))
        }
        (Ball(x), Cuboid(y)) => Box::new(move |pa, pb| intersects_ball_cuboid(pa, x, pb, y)),
        (Cuboid(x), Ball(y)) => Box::new(move |pa, pb| intersects_ball_cuboid(pb, y, pa, x)),
        (Capsule(x), Cuboid(y)) => {
            let test = CapsuleBoxTest::new(x, y);
            Box::new(move |pa, pb| test.intersects(pa, pb))
        }
        (Cuboid(x), Capsule(y)) => {
            let test = CapsuleBoxTest::new(y, x);
            Box::new(move |pa, pb| test.intersects(pb, pa))
        }
        _ => Box::new(move |pa, pb| intersects(pa, a, pb, b)),
    }
}

/// [`DispatchShape::intersects_pair`].
pub(crate) fn intersects<V: GjkVector, S: ConvexEnum<V>>(
    pa: &V::Pose,
    a: &S,
    pb: &V::Pose,
    b: &S,
) -> bool {
    use Kind::*;
    // Huge radii square to ∞, which the analytic kernels would compare with an
    // infinite offset: refuse non-finite poses first.
    if !(pa.is_finite() && pb.is_finite()) {
        return false;
    }
    match (a.kind(), b.kind()) {
        (Ball(x), Ball(y)) => intersects_ball_ball(pa, x, pb, y),
        (Ball(x), Capsule(y)) => intersects_ball_capsule(pa, x, pb, y),
        (Capsule(x), Ball(y)) => intersects_ball_capsule(pb, y, pa, x),
        (Capsule(x), Capsule(y)) => intersects_capsule_capsule(pa, x, pb, y),
        (Ball(x), Cuboid(y)) => intersects_ball_cuboid(pa, x, pb, y),
        (Cuboid(x), Ball(y)) => intersects_ball_cuboid(pb, y, pa, x),
        (Ball(x), Triangle(y)) => intersects_ball_flat(pa, x, pb, y),
        (Triangle(x), Ball(y)) => intersects_ball_flat(pb, y, pa, x),
        (Ball(x), Segment(y)) => intersects_ball_flat(pa, x, pb, y),
        (Segment(x), Ball(y)) => intersects_ball_flat(pb, y, pa, x),
        (Cuboid(x), Cuboid(y)) => S::boxes_intersect(pa, x, pb, y),
        (Capsule(x), Cuboid(y)) => intersects_capsule_cuboid(pa, x, pb, y),
        (Cuboid(x), Capsule(y)) => intersects_capsule_cuboid(pb, y, pa, x),
        _ => S::own_intersects(pa, a, pb, b).unwrap_or_else(|| gd::intersects(pa, a, pb, b)),
    }
}

/// [`DispatchShape::contact_pair`].
pub(crate) fn contact<V: GjkVector, S: ConvexEnum<V>>(
    pa: &V::Pose,
    a: &S,
    pb: &V::Pose,
    b: &S,
    prediction: V::Scalar,
) -> Option<Contact<V>> {
    use Kind::*;
    if !(pa.is_finite() && pb.is_finite()) {
        return None;
    }
    match (a.kind(), b.kind()) {
        (Ball(x), Ball(y)) => contact_ball_ball(pa, x, pb, y, prediction),
        (Ball(x), Capsule(y)) => contact_ball_capsule(pa, x, pb, y, prediction),
        (Capsule(x), Ball(y)) => flip_contact(contact_ball_capsule(pb, y, pa, x, prediction)),
        (Capsule(x), Capsule(y)) => contact_capsule_capsule(pa, x, pb, y, prediction),
        (Ball(x), Cuboid(y)) => contact_ball_cuboid(pa, x, pb, y, prediction),
        (Cuboid(x), Ball(y)) => flip_contact(contact_ball_cuboid(pb, y, pa, x, prediction)),
        (Ball(x), Triangle(y)) => contact_ball_flat(pa, x, pb, y, prediction),
        (Triangle(x), Ball(y)) => flip_contact(contact_ball_flat(pb, y, pa, x, prediction)),
        (Ball(x), Segment(y)) => contact_ball_flat(pa, x, pb, y, prediction),
        (Segment(x), Ball(y)) => flip_contact(contact_ball_flat(pb, y, pa, x, prediction)),
        (Cuboid(x), Cuboid(y)) => {
            boxes_contact_of::<V, S>(pa, x, pb, y, S::boxes_mtv(pa, x, pb, y), prediction)
        }
        (Capsule(x), Cuboid(y)) => contact_capsule_cuboid(pa, x, pb, y, prediction)
            .unwrap_or_else(|| generic_contact(pa, a, pb, b, prediction)),
        (Cuboid(x), Capsule(y)) => contact_capsule_cuboid(pb, y, pa, x, prediction)
            .map(flip_contact)
            .unwrap_or_else(|| generic_contact(pa, a, pb, b, prediction)),
        _ => S::own_contact(pa, a, pb, b, prediction).unwrap_or_else(|| {
            generic_contact(pa, a, pb, b, prediction)
                .map(|c| witnesses_on_supports(pa, a, pb, b, c))
        }),
    }
}

/// True for the pairs [`contact`] answers by a closed form (balls, capsules, a ball
/// and a box, triangle or segment): cheaper than any cache.
#[inline]
fn analytic_pair<V: Vector>(a: &Kind<'_, V>, b: &Kind<'_, V>) -> bool {
    use Kind::*;
    matches!(
        (a, b),
        (
            Ball(_),
            Ball(_) | Capsule(_) | Cuboid(_) | Triangle(_) | Segment(_)
        ) | (Capsule(_) | Cuboid(_) | Triangle(_) | Segment(_), Ball(_))
            | (Capsule(_), Capsule(_))
    )
}

/// True for a capsule and a box, whose contact [`contact`] answers in closed form
/// unless the capsule's segment meets the box.
#[inline]
fn capsule_and_box<V: Vector>(a: &Kind<'_, V>, b: &Kind<'_, V>) -> bool {
    use Kind::*;
    matches!((a, b), (Capsule(_), Cuboid(_)) | (Cuboid(_), Capsule(_)))
}

/// A box pair apart along its cached SAT axis by more than `prediction`.
#[inline]
fn boxes_still_apart<V: GjkVector, S: ConvexEnum<V>>(
    pa: &V::Pose,
    x: &Aabb<V>,
    pb: &V::Pose,
    y: &Aabb<V>,
    prediction: V::Scalar,
    cache: &ContactCache<V>,
) -> bool {
    cache.sat_axis != super::warm::NO_AXIS
        && S::boxes_apart_along(pa, x, pb, y, cache.sat_axis, prediction)
}

/// Keeps in `cache` the SAT axis of a box pair found apart (`found` false), or none.
#[inline]
fn remember_box_axis<V: GjkVector, S: ConvexEnum<V>>(
    pa: &V::Pose,
    x: &Aabb<V>,
    pb: &V::Pose,
    y: &Aabb<V>,
    found: bool,
    cache: &mut ContactCache<V>,
) {
    cache.sat_axis = match found {
        true => super::warm::NO_AXIS,
        false => S::boxes_separating_axis(pa, x, pb, y).unwrap_or(super::warm::NO_AXIS),
    };
}

/// [`DispatchShape::contact_pair_cached`]: [`contact`], with a box pair's cached SAT
/// axis or a GJK pair's cached direction tested first ([`super::warm`]).
pub(crate) fn contact_cached<V: GjkVector, S: ConvexEnum<V>>(
    pa: &V::Pose,
    a: &S,
    pb: &V::Pose,
    b: &S,
    prediction: V::Scalar,
    cache: &mut ContactCache<V>,
) -> Option<Contact<V>> {
    let (ka, kb) = (a.kind(), b.kind());
    // `contact` checks the poses itself (once is enough on this, the busiest path).
    if analytic_pair(&ka, &kb) || capsule_and_box(&ka, &kb) {
        return contact(pa, a, pb, b, prediction);
    }
    if !(pa.is_finite() && pb.is_finite()) {
        return None;
    }
    if let (Kind::Cuboid(x), Kind::Cuboid(y)) = (&ka, &kb) {
        let mtv = S::boxes_mtv_warm(pa, x, pb, y, prediction, &mut cache.sat_axis)?;
        return boxes_contact_of::<V, S>(pa, x, pb, y, mtv, prediction);
    }
    S::own_contact(pa, a, pb, b, prediction).unwrap_or_else(|| {
        crate::query::contact::contact_warm(pa, a, pb, b, prediction, &mut cache.plane)
            .map(|c| witnesses_on_supports(pa, a, pb, b, c))
    })
}

/// [`DispatchShape::contact_manifold_pair_cached`]: [`contact_manifold`], with the
/// cached axis or direction of [`contact_cached`] tested first.
pub(crate) fn contact_manifold_cached<V: GjkVector, S: ConvexEnum<V>>(
    pa: &V::Pose,
    a: &S,
    pb: &V::Pose,
    b: &S,
    prediction: V::Scalar,
    cache: &mut ContactCache<V>,
) -> Option<Manifold<V>> {
    let (ka, kb) = (a.kind(), b.kind());
    if let (Kind::Cuboid(x), Kind::Cuboid(y)) = (&ka, &kb) {
        if pa.is_finite()
            && pb.is_finite()
            && boxes_still_apart::<V, S>(pa, x, pb, y, prediction, cache)
        {
            return None;
        }
        let m = S::boxes_manifold(pa, x, pb, y, prediction);
        remember_box_axis::<V, S>(pa, x, pb, y, m.is_some(), cache);
        return m;
    }
    if analytic_pair(&ka, &kb) {
        return contact_manifold(pa, a, pb, b, prediction);
    }
    S::own_manifold(pa, a, pb, b, prediction).unwrap_or_else(|| {
        let c = contact_cached(pa, a, pb, b, prediction, cache)?;
        Some(manifold_from_contact(pa, a, pb, b, &c, prediction))
    })
}

/// The contact of two boxes from their SAT answer `mtv` (`None`: apart).
#[inline]
fn boxes_contact_of<V: GjkVector, S: ConvexEnum<V>>(
    pa: &V::Pose,
    x: &Aabb<V>,
    pb: &V::Pose,
    y: &Aabb<V>,
    mtv: Option<Mtv<V>>,
    prediction: V::Scalar,
) -> Option<Contact<V>> {
    match mtv {
        Some(mtv) if -mtv.depth <= prediction => Some(S::boxes_contact(pa, x, pb, y, mtv)),
        // Apart but maybe within the prediction: the distance comes from GJK.
        _ if prediction > V::Scalar::ZERO => generic_contact(pa, x, pb, y, prediction),
        _ => None,
    }
}

/// [`DispatchShape::contact_manifold_pair`].
pub(crate) fn contact_manifold<V: GjkVector, S: ConvexEnum<V>>(
    pa: &V::Pose,
    a: &S,
    pb: &V::Pose,
    b: &S,
    prediction: V::Scalar,
) -> Option<Manifold<V>> {
    match (a.kind(), b.kind()) {
        (Kind::Cuboid(x), Kind::Cuboid(y)) => return S::boxes_manifold(pa, x, pb, y, prediction),
        // A ball's feature is one point: the contact is the whole manifold.
        (Kind::Ball(_), _) | (_, Kind::Ball(_)) => {
            return contact(pa, a, pb, b, prediction)
                .map(|c| Manifold::single(&c, FeatureId::SINGLE))
        }
        (Kind::Capsule(x), Kind::Capsule(y)) if V::DIM == 3 => {
            return crate::query::manifold::features::contact_manifold_capsules(
                pa, x, pb, y, prediction,
            )
        }
        _ => {}
    }
    S::own_manifold(pa, a, pb, b, prediction).unwrap_or_else(|| match (a.kind(), b.kind()) {
        // 2D capsules the dimension's kernel left: the sides are flat edges, which the
        // feature path clips exactly; it is needed only for sides within
        // `FACE_ALIGN_COS` of parallel.
        (Kind::Capsule(x), Kind::Capsule(y)) => {
            let c = contact_capsule_capsule(pa, x, pb, y, prediction)?;
            let (sa, sb) = (world_segment(pa, x), world_segment(pb, y));
            let parallel = crate::query::manifold::features::parallel_axis(&sa, &sb).is_some();
            Some(match parallel {
                true => manifold_from_contact(pa, a, pb, b, &c, prediction),
                false => Manifold::single(&c, FeatureId::SINGLE),
            })
        }
        _ => {
            let c = contact(pa, a, pb, b, prediction)?;
            Some(manifold_from_contact(pa, a, pb, b, &c, prediction))
        }
    })
}

/// [`DispatchShape::manifold_along_pair`]: the feature manifold of a pair touching as
/// `c` says.
pub(crate) fn manifold_from_contact<V: GjkVector, S: ConvexEnum<V>>(
    pa: &V::Pose,
    a: &S,
    pb: &V::Pose,
    b: &S,
    c: &Contact<V>,
    prediction: V::Scalar,
) -> Manifold<V> {
    match (a.kind(), b.kind()) {
        // A ball's feature is one point: the contact is the whole manifold.
        (Kind::Ball(_), _) | (_, Kind::Ball(_)) => Manifold::single(c, FeatureId::SINGLE),
        _ => S::feature_manifold(pa, a, pb, b, c, prediction),
    }
}

/// [`DispatchShape::distance_pair`].
pub(crate) fn distance<V: GjkVector, S: ConvexEnum<V> + ProjectPoint<V>>(
    pa: &V::Pose,
    a: &S,
    pb: &V::Pose,
    b: &S,
) -> V::Scalar {
    use Kind::*;
    if !(pa.is_finite() && pb.is_finite()) {
        return V::Scalar::from_f64(f64::NAN);
    }
    match (a.kind(), b.kind()) {
        (Ball(x), Ball(y)) => gd::distance_ball_ball(pa, x, pb, y),
        (Ball(x), Capsule(y)) => distance_ball_capsule(pa, x, pb, y),
        (Capsule(x), Ball(y)) => distance_ball_capsule(pb, y, pa, x),
        (Capsule(x), Capsule(y)) => gd::distance_capsule_capsule(pa, x, pb, y),
        (Ball(x), Cuboid(y)) => distance_ball_cuboid(pa, x, pb, y),
        (Cuboid(x), Ball(y)) => distance_ball_cuboid(pb, y, pa, x),
        (Capsule(x), Cuboid(y)) => gd::distance_capsule_cuboid(pa, x, pb, y),
        (Cuboid(x), Capsule(y)) => gd::distance_capsule_cuboid(pb, y, pa, x),
        (Ball(x), Triangle(y)) => distance_ball_flat(pa, x, pb, y),
        (Triangle(x), Ball(y)) => distance_ball_flat(pb, y, pa, x),
        (Ball(x), Segment(y)) => distance_ball_flat(pa, x, pb, y),
        (Segment(x), Ball(y)) => distance_ball_flat(pb, y, pa, x),
        (Ball(x), _) => gd::distance_ball_shape(pa, x, pb, b),
        (_, Ball(y)) => gd::distance_ball_shape(pb, y, pa, a),
        _ => S::own_distance(pa, a, pb, b).unwrap_or_else(|| gd::distance(pa, a, pb, b)),
    }
}

/// [`DispatchShape::closest_points_pair`]: a ball against any kind by that kind's
/// closed-form projection of the ball's centre ([`closest_points_ball_shape`]), GJK
/// for the other pairs.
pub(crate) fn closest_points<V: GjkVector, S: ConvexEnum<V> + ProjectPoint<V>>(
    pa: &V::Pose,
    a: &S,
    pb: &V::Pose,
    b: &S,
) -> ClosestPoints<V> {
    if !(pa.is_finite() && pb.is_finite()) {
        return gd::closest_points(pa, a, pb, b);
    }
    match (a.kind(), b.kind()) {
        (Kind::Ball(x), _) => closest_points_ball_shape(pa, x, pb, b),
        (_, Kind::Ball(y)) => {
            let c = closest_points_ball_shape(pb, y, pa, a);
            ClosestPoints {
                point_a: c.point_b,
                point_b: c.point_a,
                ..c
            }
        }
        _ => {
            S::own_closest_points(pa, a, pb, b).unwrap_or_else(|| gd::closest_points(pa, a, pb, b))
        }
    }
}

/// Closest points of a ball (A) and any shape (B) with a closed-form projection: the
/// projection `q` of the ball's centre `c` onto B (solid, in B's frame, where it is
/// within a few `ε` of the exact point), and `c` moved by the radius toward `q`. A
/// centre inside B, or within the radius of `q`, gives distance 0 and a common point
/// (the centre, or `q`). Finite poses only.
pub(crate) fn closest_points_ball_shape<V: GjkVector, S: ProjectPoint<V>>(
    pose_a: &V::Pose,
    a: &Ball<V>,
    pose_b: &V::Pose,
    b: &S,
) -> ClosestPoints<V> {
    let c_world = pose_a.transform_point(a.center());
    let c = pose_b.inverse_transform_point(c_world);
    let projection = b.project_local_point(c, true);
    let q = pose_b.transform_point(projection.point);
    let offset = projection.point - c;
    let d = offset.length();
    let zero = V::Scalar::ZERO;
    let base = ClosestPoints::closed_form(zero, q, q);
    if projection.is_inside {
        return ClosestPoints {
            point_a: c_world,
            point_b: c_world,
            ..base
        };
    }
    if d.is_nan() {
        return ClosestPoints {
            distance: d,
            status: Status::Degenerate,
            ..base
        };
    }
    match pose_b.transform_vector(offset).try_normalize() {
        Some(n) if d > a.radius() => ClosestPoints {
            distance: d - a.radius(),
            point_a: c_world + n * a.radius(),
            ..base
        },
        _ => base,
    }
}

/// [`ConvexEnum`]'s shared hooks for one dimension's `Shape`: the kind view of the
/// variants both dimensions have, and the box hooks, where both local boxes become
/// world OBBs (by the `world_obb` function in scope where this is used) for that
/// dimension's SAT module `$sat`, OBB manifold `$manifold` and SAT witness function
/// `$witness` ([`crate::algo::witness`]).
macro_rules! shared_convex_hooks {
    ($V:ident, $Pose:ident, $sat:ident, $manifold:ident, $witness:path) => {
        #[inline]
        fn kind(&self) -> Kind<'_, R::$V> {
            match self {
                Shape::Ball(s) => Kind::Ball(s),
                Shape::Capsule(s) => Kind::Capsule(s),
                Shape::Cuboid(s) => Kind::Cuboid(s),
                Shape::Triangle(s) => Kind::Triangle(s),
                Shape::Segment(s) => Kind::Segment(s),
                _ => Kind::Other,
            }
        }

        #[inline]
        fn boxes_intersect(pa: &$Pose<R>, a: &Aabb<R::$V>, pb: &$Pose<R>, b: &Aabb<R::$V>) -> bool {
            match (world_obb(pa, a), world_obb(pb, b)) {
                (Some(p), Some(q)) => $sat::intersects_obb_obb(&p, &q),
                _ => false,
            }
        }

        #[inline]
        fn boxes_mtv(
            pa: &$Pose<R>,
            a: &Aabb<R::$V>,
            pb: &$Pose<R>,
            b: &Aabb<R::$V>,
        ) -> Option<Mtv<R::$V>> {
            $sat::obb_obb_mtv(&world_obb(pa, a)?, &world_obb(pb, b)?)
        }

        fn boxes_contact(
            pa: &$Pose<R>,
            a: &Aabb<R::$V>,
            pb: &$Pose<R>,
            b: &Aabb<R::$V>,
            mtv: Mtv<R::$V>,
        ) -> Contact<R::$V> {
            contact_from_mtv(mtv, $witness(pa, a, pb, b, mtv.axis, mtv.depth))
        }

        fn boxes_manifold(
            pa: &$Pose<R>,
            a: &Aabb<R::$V>,
            pb: &$Pose<R>,
            b: &Aabb<R::$V>,
            prediction: R,
        ) -> Option<Manifold<R::$V>> {
            let id = $Pose::default();
            let (p, q) = (world_obb(pa, a)?, world_obb(pb, b)?);
            $manifold(&id, &p, &id, &q, prediction)
        }
    };
}
pub(crate) use shared_convex_hooks;

/// The [`DispatchShape`] impl of a convex enum: every query answered by the shared
/// table above, so the two dimensions cannot drift apart.
macro_rules! dispatch_by_table {
    ($V:ident, $Pose:ident) => {
        impl<R: Real> DispatchShape<R::$V> for Shape<R>
        where
            R::$V: GjkVector<Pose = $Pose<R>>,
        {
            #[inline]
            fn world_aabb(&self, pose: &$Pose<R>) -> Aabb<R::$V> {
                table::world_aabb(self, pose)
            }

            #[inline]
            fn contains_point(&self, pose: &$Pose<R>, p: R::$V) -> bool {
                support_contains_point(self, pose, p)
            }

            #[inline]
            fn intersects_aabb(&self, pose: &$Pose<R>, region: &Aabb<R::$V>) -> bool {
                support_intersects_aabb(self, pose, region)
            }

            fn cast_ray_solid(
                &self,
                pose: &$Pose<R>,
                ray: &crate::shape::Ray<R::$V>,
                max_t: R,
                solid: bool,
            ) -> Option<crate::shape::RayHit<R::$V>> {
                use crate::query::cast_ray::{cast_ray_convex_solid, posed_hit};
                posed_hit(pose, ray, |r| cast_ray_convex_solid(self, r, max_t, solid))
            }

            fn intersects_pair(pa: &$Pose<R>, a: &Self, pb: &$Pose<R>, b: &Self) -> bool {
                table::intersects(pa, a, pb, b)
            }

            fn intersects_kernel_pair<'s>(a: &'s Self, b: &'s Self) -> IntersectsKernel<'s, R::$V>
            where
                Self: Sync,
            {
                table::intersects_kernel(a, b)
            }

            fn contact_pair(
                pa: &$Pose<R>,
                a: &Self,
                pb: &$Pose<R>,
                b: &Self,
                prediction: R,
            ) -> Option<Contact<R::$V>> {
                table::contact(pa, a, pb, b, prediction)
            }

            fn contact_manifold_pair(
                pa: &$Pose<R>,
                a: &Self,
                pb: &$Pose<R>,
                b: &Self,
                prediction: R,
            ) -> Option<Manifold<R::$V>> {
                table::contact_manifold(pa, a, pb, b, prediction)
            }

            fn contact_pair_cached(
                pa: &$Pose<R>,
                a: &Self,
                pb: &$Pose<R>,
                b: &Self,
                prediction: R,
                cache: &mut ContactCache<R::$V>,
            ) -> Option<Contact<R::$V>> {
                table::contact_cached(pa, a, pb, b, prediction, cache)
            }

            fn contact_manifold_pair_cached(
                pa: &$Pose<R>,
                a: &Self,
                pb: &$Pose<R>,
                b: &Self,
                prediction: R,
                cache: &mut ContactCache<R::$V>,
            ) -> Option<Manifold<R::$V>> {
                table::contact_manifold_cached(pa, a, pb, b, prediction, cache)
            }

            fn manifold_along_pair(
                pa: &$Pose<R>,
                a: &Self,
                pb: &$Pose<R>,
                b: &Self,
                contact: &Contact<R::$V>,
                prediction: R,
            ) -> Option<Manifold<R::$V>> {
                Some(table::manifold_from_contact(
                    pa, a, pb, b, contact, prediction,
                ))
            }

            fn distance_pair(pa: &$Pose<R>, a: &Self, pb: &$Pose<R>, b: &Self) -> R {
                table::distance(pa, a, pb, b)
            }

            fn closest_points_pair(
                pa: &$Pose<R>,
                a: &Self,
                pb: &$Pose<R>,
                b: &Self,
            ) -> ClosestPoints<R::$V> {
                table::closest_points(pa, a, pb, b)
            }

            fn cast_pair_with(
                pa: &$Pose<R>,
                vel_a: R::$V,
                a: &Self,
                pb: &$Pose<R>,
                vel_b: R::$V,
                b: &Self,
                max_t: R,
                options: &ShapeCastOptions<R>,
            ) -> Option<ShapeCastHit<R::$V>> {
                crate::query::cast_shapes_with(pa, vel_a, a, pb, vel_b, b, max_t, options)
            }

            fn time_of_impact_pair(
                sweep_a: &Sweep<R::$V>,
                a: &Self,
                sweep_b: &Sweep<R::$V>,
                b: &Self,
                options: &ShapeCastOptions<R>,
            ) -> Option<ShapeCastHit<R::$V>> {
                crate::query::time_of_impact_with(sweep_a, a, sweep_b, b, options)
            }
        }
    };
}
pub(crate) use dispatch_by_table;
