//! Queries on [`Composite`] shapes (compounds, meshes, polylines, heightfields,
//! concave polygons): a composite against a convex shape of its part type, and two
//! composites. Each query culls the parts with the composite's [`Bvh`](crate::broad::Bvh)
//! and asks the surviving parts through the convex dispatch
//! ([`DispatchShape`]), so the analytic pair kernels serve composites too; this is
//! the approach of parry's composite-shape visitors and of Bullet's compound
//! collision algorithm (Ericson, *Real-Time Collision Detection*, 6.3 and 6.5 on
//! hierarchy traversal).
//!
//! - [`intersects`], [`contact`], [`contact_manifolds`], [`distance`],
//!   [`closest_points`], [`cast_shapes`] take the composite as A and a convex shape as
//!   B; the `*_composites` functions take two composites. [`cast_shapes_with`] adds
//!   [`ShapeCastOptions`](crate::query::ShapeCastOptions) and [`time_of_impact`] moves
//!   with rotation (module `moving`). Swapping A and B mirrors
//!   every answer (the shape enums [`AnyShape`](crate::shape::shape_3d::AnyShape) do
//!   the swap for mixed pairs).
//! - [`cast_ray`], [`cast_ray_all`], [`project_local_point`] are the default
//!   single-shape queries of any composite (types may implement
//!   [`RayCast`](crate::query::RayCast) and [`ProjectPoint`] with faster specialised code).
//!
//! **Internal edges.** Every contact and manifold normal is passed through
//! [`Composite::correct_normal_at`] of the part it came from, with the contact's
//! witness on that part (a manifold's deepest point), so the correction knows the
//! face, edge or vertex in contact (both parts for two composites, in both orders,
//! see `pair_normal`). A composite against a convex shape corrects only the deepest
//! part contact (re-measuring never lowers a depth, so it stays the deepest); two
//! composites correct every pair of parts. A corrected normal can point through a
//! two-sided surface ([`Composite::two_sided`]: open meshes, chains, heightfields) to
//! the side the shape is not on; the other side, corrected the same way, is taken when
//! the parts overlap less along it (`shallower_side`; for two composites only when
//! both are two-sided), so a shape sunk a little into a floor is pushed up by every
//! part. When a normal changes, the depth is recomputed along the corrected
//! normal `n` as the overlap of the two parts' extents along `n`,
//! `h_A(n) + h_B(−n)` (support functions): the true penetration depth is the
//! minimum of this over all directions, so the corrected depth is never smaller
//! than the true one (*conservative*: pushing B by it along `n` separates the pair).
//! The witness `point_b` is B's support point along `−n` (for manifolds each point
//! keeps its `point_b`) and `point_a = point_b + depth · n`. A separated contact
//! (within the prediction) stays separated: its re-measured depth is capped at 0.
//!
//! **Nearest part.** [`distance`] and [`closest_points`] walk the part tree nearest
//! box first (branch and bound on box-to-box distances), measuring a part only when
//! its box is nearer than the best part so far; overlap (distance 0) ends the walk.
//! Two composites nest the walks: B's walk runs per part of A, bounded by the best
//! distance so far.
//!
//! Edge behaviour: non-finite poses give `false`, `None`, an empty list or a NaN
//! distance, as on the convex queries. No tolerances of its own.

// `!(x < y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod any;
mod composites;
mod convex;
mod moving;
mod single;

pub use any::PairQuery;
pub use composites::{
    cast_shapes_composites, closest_points_composites, contact_composites,
    contact_manifolds_composites, distance_composites, intersects_composites,
};
pub use convex::{cast_shapes, closest_points, contact, contact_manifolds, distance, intersects};
pub use moving::{
    cast_shapes_composites_with, cast_shapes_with, time_of_impact, time_of_impact_composites,
};
pub(crate) use single::part_of_own_hit;
pub use single::{
    cast_ray, cast_ray_all, contains_point, intersects_aabb, part_hit_at, project_local_point,
    transformed_aabb, world_aabb, PART_HIT_ULPS,
};

pub(crate) use any::{
    CastPair, ClosestPair, ContactPair, DistancePair, IntersectsPair, ManifoldPair, Poses, ToiPair,
};

use crate::algo::gjk::GjkVector;
use crate::algo::support::SupportMap;
use crate::math::{Isometry, Real, Vector};
use crate::query::contact::Contact;
use crate::query::dispatch::DispatchShape;
use crate::query::manifold::Manifold;
use crate::query::project_point::ProjectPoint;
use crate::query::ShapeCastHit;
use crate::shape::{Aabb, Composite};

/// What a composite's part type must answer: every convex pair query, a support
/// map (for the corrected depths) and point projection. The convex shape enums
/// implement it.
pub trait ConvexPart<V: GjkVector>: DispatchShape<V> + SupportMap<V> + ProjectPoint<V> {}

impl<V: GjkVector, S: DispatchShape<V> + SupportMap<V> + ProjectPoint<V>> ConvexPart<V> for S {}

/// One manifold between a part of A and a part of B, as returned by
/// [`contact_manifolds`] (`None` names a convex side: the whole shape).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PartManifold<V: Vector> {
    /// A's part index, `None` when A is convex.
    pub part_a: Option<u32>,
    /// B's part index, `None` when B is convex.
    pub part_b: Option<u32>,
    /// The manifold of the two parts, in world space, normal from A to B.
    pub manifold: Manifold<V>,
}

impl<V: Vector> PartManifold<V> {
    /// The manifold of parts `part_a` and `part_b`, its points' ids naming them
    /// ([`FeatureId::part_a`](crate::query::manifold::FeatureId::part_a)).
    pub(crate) fn new(part_a: Option<u32>, part_b: Option<u32>, manifold: Manifold<V>) -> Self {
        Self {
            part_a,
            part_b,
            manifold: manifold.with_parts(part_a, part_b),
        }
    }

    /// The same manifold seen from B.
    pub fn flipped(&self) -> Self {
        Self {
            part_a: self.part_b,
            part_b: self.part_a,
            manifold: self.manifold.flipped(),
        }
    }
}

/// A shape cast hit seen from B (normal reversed, points swapped).
#[inline]
pub(crate) fn flip_hit<V: Vector>(h: ShapeCastHit<V>) -> ShapeCastHit<V> {
    ShapeCastHit {
        normal: -h.normal,
        point_a: h.point_b,
        point_b: h.point_a,
        ..h
    }
}

/// Part `i`'s pose in the world, the composite being at `pose`.
#[inline]
pub(crate) fn part_pose<V: GjkVector, C: Composite<V>>(c: &C, i: u32, pose: &V::Pose) -> V::Pose {
    c.with_part(i, |pp, _| pose.mul(pp))
}

/// The world normal `n` (from part `i` toward the other shape) after
/// [`Composite::correct_normal_at`] at the world contact point `at` on the part, or
/// `None` when the correction keeps it.
pub(crate) fn corrected_normal<V: GjkVector, C: Composite<V>>(
    c: &C,
    i: u32,
    pose: &V::Pose,
    n: V,
    at: V,
) -> Option<V> {
    let local = pose.inverse_transform_vector(n);
    let fixed = local_fix(c, i, local, pose.inverse_transform_point(at))?;
    pose.transform_vector(fixed).try_normalize()
}

/// [`Composite::correct_normal_at`] in the composite's frame (normal `n`, witness
/// `at`), or `None` when it keeps `n` (or gives no direction).
#[inline]
fn local_fix<V: GjkVector, C: Composite<V>>(c: &C, i: u32, n: V, at: V) -> Option<V> {
    let fixed = c.correct_normal_at(i, at, n);
    if fixed == n {
        return None;
    }
    fixed.try_normalize()
}

/// The final normal of a contact between part `i` of composite `a` and part `j` of
/// composite `b`, whose witnesses are `at = (point_a, point_b)`; `None` when no
/// correction changes `n`. A's correction then B's (seen from B the normal is
/// reversed), and B's then A's, keeping the one nearer `n` (the first on a tie): the
/// rule does not depend on which shape is A, so swapping the shapes mirrors the
/// answer.
pub(crate) fn pair_normal<V, A, B>(
    (a, i, pose_a): (&A, u32, &V::Pose),
    (b, j, pose_b): (&B, u32, &V::Pose),
    n: V,
    (at_a, at_b): (V, V),
) -> Option<V>
where
    V: GjkVector,
    A: Composite<V>,
    B: Composite<V>,
{
    let fix_a = |m: V| corrected_normal(a, i, pose_a, m, at_a);
    let fix_b = |m: V| corrected_normal(b, j, pose_b, -m, at_b).map(|x| -x);
    let then_b = |x: Option<V>| x.map(|x| fix_b(x).unwrap_or(x));
    let then_a = |x: Option<V>| x.map(|x| fix_a(x).unwrap_or(x));
    let a_first = then_b(fix_a(n)).or_else(|| fix_b(n));
    let b_first = then_a(fix_b(n)).or_else(|| fix_a(n));
    match (a_first, b_first) {
        (Some(x), Some(y)) if y.dot(n) > x.dot(n) => Some(y),
        (x, y) => x.or(y),
    }
}

/// The normal `correct(n)` gives (a composite's correction, `None` when it keeps
/// `n`), or, when the surface is `two_sided` ([`Composite::two_sided`]), the other
/// side where the two parts overlap less along it: the opposite of the corrected
/// normal, itself corrected. A raw normal is the pair's minimum translation; a
/// corrected one can point through a thin surface (a wedge's arm crossing a floor
/// segment: the arm's normal turns into the floor's downward face normal, whose push
/// is the arm's whole height above the floor), and the other side is the true push.
/// The overlap `h_A(m) + h_B(−m)` is the depth [`contact_along`] reports, measured
/// against the part alone; a solid composite's other side is matter, so it is never
/// taken there. `None` when `correct` keeps `n`.
pub(crate) fn shallower_side<V: GjkVector, P: SupportMap<V>>(
    correct: impl Fn(V) -> Option<V>,
    n: V,
    two_sided: bool,
    (pose_a, a): (&V::Pose, &P),
    (pose_b, b): (&V::Pose, &P),
) -> Option<V> {
    let first = correct(n)?;
    if !two_sided {
        return Some(first);
    }
    // The witness was found for `n`; the correction of the opposite falls back to
    // the normal's lean where the witness does not fit it.
    let other = correct(-first).unwrap_or(-first);
    let overlap = |m: V| top_along(pose_a, a, m) - b.support(pose_b, -m).dot(m);
    Some(if overlap(other) < overlap(first) {
        other
    } else {
        first
    })
}

/// Contact `c` of parts `a` and `b` along its corrected normal ([`shallower_side`]),
/// re-measured there ([`contact_along`]), or unchanged when the correction keeps it.
pub(crate) fn corrected_contact<V: GjkVector, P: SupportMap<V>>(
    c: &Contact<V>,
    correct: impl Fn(V) -> Option<V>,
    two_sided: bool,
    a: (&V::Pose, &P),
    b: (&V::Pose, &P),
) -> Contact<V> {
    match shallower_side(correct, c.normal, two_sided, a, b) {
        Some(n) => contact_along(c, n, a, b),
        None => *c,
    }
}

/// Manifold `m` of parts `a` and `b` along its corrected normal ([`shallower_side`]),
/// rebuilt there ([`manifold_along`]), or unchanged when the correction keeps it.
pub(crate) fn corrected_manifold<V: GjkVector, P: ConvexPart<V>>(
    m: &Manifold<V>,
    correct: impl Fn(V) -> Option<V>,
    two_sided: bool,
    a: (&V::Pose, &P),
    b: (&V::Pose, &P),
    prediction: V::Scalar,
) -> Manifold<V> {
    match shallower_side(correct, m.normal, two_sided, a, b) {
        Some(n) => manifold_along(m, n, a, b, prediction),
        None => *m,
    }
}

/// The witnesses of a manifold's deepest point (the contact the correction sees).
pub(crate) fn deepest_witnesses<V: Vector>(m: &Manifold<V>) -> (V, V) {
    let mut best = (V::Scalar::NEG_INFINITY, (V::ZERO, V::ZERO));
    for p in m.points() {
        if p.depth > best.0 || best.0 == V::Scalar::NEG_INFINITY {
            best = (p.depth, (p.point_a, p.point_b));
        }
    }
    best.1
}

/// The top of A's part along `n` (`h_A(n)`, a scalar in world units).
#[inline]
fn top_along<V: GjkVector, P: SupportMap<V>>(pose: &V::Pose, part: &P, n: V) -> V::Scalar {
    part.support(pose, n).dot(n)
}

/// A contact re-measured along the corrected normal `n` (see the module docs).
pub(crate) fn contact_along<V: GjkVector, P: SupportMap<V>>(
    c: &Contact<V>,
    n: V,
    (pose_a, a): (&V::Pose, &P),
    (pose_b, b): (&V::Pose, &P),
) -> Contact<V> {
    let point_b = b.support(pose_b, -n);
    let depth = separated_stays(c.depth, top_along(pose_a, a, n) - point_b.dot(n));
    Contact {
        normal: n,
        depth,
        point_a: point_b + n * depth,
        point_b,
        status: c.status,
    }
}

/// A manifold along the corrected normal `n`: rebuilt from the parts' supporting
/// features along `n` ([`DispatchShape::manifold_along_pair`]) from the deepest point
/// re-measured as [`contact_along`] does; for part types without features, each point
/// of a clipped manifold keeps its `point_b` and gets the depth of A's extent along
/// `n` above it, and a single-point manifold is re-measured as [`contact_along`] does.
pub(crate) fn manifold_along<V: GjkVector, P: ConvexPart<V>>(
    m: &Manifold<V>,
    n: V,
    (pose_a, a): (&V::Pose, &P),
    (pose_b, b): (&V::Pose, &P),
    prediction: V::Scalar,
) -> Manifold<V> {
    if !m.points().is_empty() {
        let (point_a, point_b) = deepest_witnesses(m);
        let raw = Contact {
            normal: m.normal,
            depth: m.max_depth(),
            point_a,
            point_b,
            status: m.status,
        };
        let c = contact_along(&raw, n, (pose_a, a), (pose_b, b));
        if let Some(rebuilt) = P::manifold_along_pair(pose_a, a, pose_b, b, &c, prediction) {
            return rebuilt;
        }
    }
    let top = top_along(pose_a, a, n);
    let single = m.points().len() == 1;
    let raw = m.max_depth();
    let mut out = *m;
    out.normal = n;
    for p in out.points_mut() {
        if single {
            p.point_b = b.support(pose_b, -n);
        }
        p.depth = separated_stays(raw, top - p.point_b.dot(n));
        p.point_a = p.point_b + n * p.depth;
    }
    out
}

/// A point inside the convex shape `b` placed at `pose` (world): the mean of its
/// support points along `±` each axis, a convex combination of its points.
fn inner_point<V: GjkVector, P: SupportMap<V>>(pose: &V::Pose, b: &P) -> V {
    let sum = (0..V::DIM).fold(V::ZERO, |s, k| {
        let e = V::unit_axis(k);
        s + b.support(pose, e) + b.support(pose, -e)
    });
    sum * V::Scalar::from_f64(0.5 / V::DIM as f64)
}

/// The contact that pushes `b` out of the solid `a` (see
/// [`Composite::exit_from_inside`]) when a point inside `b` ([`inner_point`]) lies
/// inside `a`, with the index of `a`'s nearest part. The surface point `q` nearest
/// that point and the outward direction `n` there give the normal; the depth is how
/// far `b` reaches below the surface along `n`, `n · q − h_B(−n)`, so moving `b` by
/// `depth · n` takes it out through that surface (exact for a ball: the distance to
/// the surface plus the radius). `point_b` is `b`'s support point along `−n` and
/// `point_a = point_b + depth · n`, as for re-measured contacts. `None` when the
/// point is outside `a` (or `a` is not such a solid), or the depth is not positive.
pub(crate) fn solid_contact<V, C, P>(
    pose_a: &V::Pose,
    a: &C,
    pose_b: &V::Pose,
    b: &P,
) -> Option<(u32, Contact<V>)>
where
    V: GjkVector,
    C: Composite<V>,
    P: SupportMap<V>,
{
    solid_contact_from(pose_a, a, pose_b, b, inner_point(pose_b, b))
}

/// The contact of a convex `b` pushed out of the solid `a` through the surface point
/// nearest `point`, a world point of `b` inside `a` (see [`solid_contact`]); `None` when
/// `point` is outside `a` (or `a` is not such a solid), or the depth is not positive.
pub(crate) fn solid_contact_from<V, C, P>(
    pose_a: &V::Pose,
    a: &C,
    pose_b: &V::Pose,
    b: &P,
    point: V,
) -> Option<(u32, Contact<V>)>
where
    V: GjkVector,
    C: Composite<V>,
    P: SupportMap<V>,
{
    let (i, q, n) = a.exit_from_inside(pose_a.inverse_transform_point(point))?;
    let (q, n) = (pose_a.transform_point(q), pose_a.transform_vector(n));
    let point_b = b.support(pose_b, -n);
    let depth = n.dot(q - point_b);
    (depth > V::Scalar::ZERO).then(|| {
        let c = Contact {
            normal: n,
            depth,
            point_a: point_b + n * depth,
            point_b,
            status: crate::algo::gjk::Status::Converged,
        };
        (i, c)
    })
}

/// The deepest of `b`'s sample points ([`Composite::for_each_sample_point`]) inside
/// the solid `a` ([`Composite::exit_from_inside`]): `(a's part, b's part, contact)`
/// with the normal the outward direction at the nearest surface point `q`, the depth
/// `|q − v|`, `point_a = q` and `point_b = v`. This samples the signed distance of
/// `a` at `b`'s vertices, as signed-distance-field contacts do (Macklin et al.,
/// "Local Optimization for Robust Signed Distance Field Collision", 2020; PhysX SDF
/// contacts): for meshes of smooth solids it converges to the true penetration as
/// the resolution grows. `None` when no sample is inside.
pub(crate) fn deepest_sample<V, A, B>(
    pose_a: &V::Pose,
    a: &A,
    pose_b: &V::Pose,
    b: &B,
) -> Option<(u32, u32, Contact<V>)>
where
    V: GjkVector,
    A: Composite<V>,
    B: Composite<V>,
{
    let pose_ab = pose_a.inv_mul(pose_b);
    let mut best: Option<(u32, u32, Contact<V>)> = None;
    b.for_each_sample_point(|j, v| {
        let Some((i, q, n)) = a.exit_from_inside(pose_ab.transform_point(v)) else {
            return;
        };
        let (q, v) = (pose_a.transform_point(q), pose_b.transform_point(v));
        let depth = q.distance(v);
        if deeper::<V>(depth, best.map(|(_, _, c)| c.depth)) {
            let c = Contact {
                normal: pose_a.transform_vector(n),
                depth,
                point_a: q,
                point_b: v,
                status: crate::algo::gjk::Status::Converged,
            };
            best = Some((i, j, c));
        }
    });
    best
}

/// A re-measured depth that never turns a separated pair (raw depth `< 0`) into a
/// penetrating one: the extents along the corrected normal may overlap while the
/// parts are apart along another axis.
#[inline]
fn separated_stays<S: Real>(raw: S, remeasured: S) -> S {
    if raw < S::ZERO {
        remeasured.min(S::ZERO)
    } else {
        remeasured
    }
}

/// True when depth `a` beats the best so far `b`: strictly deeper (ties keep the
/// first found).
#[inline]
pub(crate) fn deeper<V: Vector>(a: V::Scalar, b: Option<V::Scalar>) -> bool {
    b.is_none_or(|b| a > b)
}

/// Branch-and-bound search for the nearest part of `c` to `region` (a box in `c`'s
/// frame) closer than `upper` (∞ for no bound): `eval(i, best)` measures part `i`
/// (`None` when it cannot beat `best`). The parts are visited nearest box first
/// ([`Composite::nearest_part_to`]), pruning every box farther than the best part
/// found; an overlap (distance 0) ends it.
pub(crate) fn nearest_part<V, C, T>(
    c: &C,
    region: &Aabb<V>,
    upper: V::Scalar,
    mut eval: impl FnMut(u32, V::Scalar) -> Option<(V::Scalar, T)>,
) -> Option<(V::Scalar, T)>
where
    V: GjkVector,
    C: Composite<V>,
{
    let mut found = None;
    c.nearest_part_to(region, upper, |i, best| {
        let (d, t) = eval(i, best)?;
        if !(d < best) {
            return None;
        }
        found = Some((d, t));
        Some(d)
    });
    found
}
