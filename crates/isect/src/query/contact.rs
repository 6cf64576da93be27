//! `contact`: normal, signed depth and witness points of two convex shapes, for
//! any pair with a support map — GJK while the cores are apart (seed 001; Ericson
//! 9.5), EPA once they overlap ([`crate::algo::epa`]) — and analytic kernels for
//! ball–ball, ball–capsule and capsule–capsule (segment closest points, Ericson
//! 5.1.9), ball–cylinder and ball–cone (the centre's closed-form projection,
//! [`crate::query::project_convex`]) and disc–polygon (the edge the centre lies
//! farthest beyond, as Box2D), which the benchmarks show are faster.
//!
//! Work is done in A's frame (`pose_ab = pose_a⁻¹ · pose_b`); answers are in world
//! space. Tolerance: [`CAPSULE_CORE_ULPS`] (when two capsule cores count as touching,
//! so that the general path answers); otherwise GJK's and EPA's.

// `!(x > y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
use crate::algo::gjk::{self, GjkVector, MinkowskiDiff, Status};
use crate::algo::support::SupportMap;
use crate::math::exact::nearer;
use crate::math::tolerance::eps;
use crate::math::{Isometry, Real, Vector};
use crate::query::distance::{closest_points_segment_segment, world_segment};
use crate::query::project_point::ProjectPoint;
use crate::shape::trimesh::closest::on_segment;
use crate::shape::{Ball, Capsule, Cone, ConvexPolygon, Cylinder, Segment};

/// A contact between shapes A and B, in world space.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Contact<V: Vector> {
    /// Unit normal from A to B: moving B by `depth · normal` separates the shapes.
    pub normal: V,
    /// Penetration depth: `> 0` when overlapping, `< 0` for the separation distance.
    pub depth: V::Scalar,
    /// Point of A's surface (the deepest one inside B when overlapping).
    pub point_a: V,
    /// Point of B's surface (the deepest one inside A when overlapping).
    /// `point_a − point_b = depth · normal` up to rounding for the analytic kernels,
    /// the SAT pairs and separated shapes; for EPA's contacts through the dispatch up
    /// to the normal's accuracy ([`witness_band`]).
    pub point_b: V,
    /// `Converged`; `MaxIterations` when GJK or EPA hit their cap (the answer is a
    /// conservative bound); `Degenerate` when the normal is not unique (coincident
    /// centres, a flat Minkowski difference): then `normal` is a conventional
    /// choice (+x of A's frame for coincident points).
    pub status: Status,
}

impl<V: Vector> Contact<V> {
    /// The same contact seen from B: normal reversed, points swapped.
    #[inline]
    pub fn flipped(&self) -> Self {
        Self {
            normal: -self.normal,
            depth: self.depth,
            point_a: self.point_b,
            point_b: self.point_a,
            status: self.status,
        }
    }

    /// The contact mapped from a local frame to the world by `pose`.
    #[inline]
    pub(crate) fn transformed(&self, pose: &V::Pose) -> Self {
        Self {
            normal: pose.transform_vector(self.normal),
            point_a: pose.transform_point(self.point_a),
            point_b: pose.transform_point(self.point_b),
            ..*self
        }
    }
}

/// How far below the top (relative to a feature's size) a vertex still supports a
/// contact's normal when the dispatch places EPA's witnesses on the shapes' support
/// sets ([`crate::query::dispatch::contact`]): [`WITNESS_BAND`] times the accuracy of
/// EPA's normal, the square root of its relative tolerance ([`crate::algo::epa`]). A
/// face EPA's normal meets at a smaller angle is taken as facing it, so its far corner
/// is never the witness. Both witnesses then lie on their surfaces, and
/// `point_a − point_b` follows `depth · normal` to within a few times this band of the
/// shapes' size (the normal's own accuracy; exactly on a face).
///
/// ```
/// let band = isect::query::contact::witness_band::<f64>();
/// assert!(band > 1e-4 && band < 1e-2);
/// ```
pub fn witness_band<R: Real>() -> R {
    crate::algo::epa::epa_rel_tolerance::<R>().sqrt() * R::from_f64(WITNESS_BAND)
}

/// See [`witness_band`].
pub const WITNESS_BAND: f64 = 2.0;

/// The contact of two convex shapes when their separation is at most `prediction`
/// (`None` otherwise; `prediction` may be 0 for touching-or-overlapping only).
///
/// Edge cases: exactly touching shapes give depth 0; coincident ball centres and
/// other degenerate pairs give `Status::Degenerate` (see [`Contact::status`]); NaN
/// poses or a NaN `prediction` give `None`.
///
/// ```
/// use isect::d2::*;
/// use isect::query::contact;
///
/// # fn main() -> Result<(), ShapeError> {
/// let square = Obb::from_angle(Vec2::ZERO, Vec2::ONE, 0.0)?; // [-1, 1]²
/// let ball = Ball::new(Vec2::ZERO, 1.0)?;
/// let at = Pose::from_translation(Vec2::new(1.75, 0.0));
/// let c = contact(&Pose::IDENTITY, &square, &at, &ball, 0.0).expect("they overlap");
/// assert!((c.depth - 0.25).abs() < 1e-4);
/// assert!((c.normal - Vec2::X).length() < 1e-4);
/// # Ok(())
/// # }
/// ```
pub fn contact<V, A, B>(
    pose_a: &V::Pose,
    a: &A,
    pose_b: &V::Pose,
    b: &B,
    prediction: V::Scalar,
) -> Option<Contact<V>>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    in_frame_of_a(pose_a, a, pose_b, b, prediction, |diff| {
        local_contact(diff, prediction)
    })
}

/// `local` on the pair seen from A's frame, its contact back in world space; `None`
/// for non-finite poses or a NaN `prediction`.
fn in_frame_of_a<V, A, B>(
    pose_a: &V::Pose,
    a: &A,
    pose_b: &V::Pose,
    b: &B,
    prediction: V::Scalar,
    local: impl FnOnce(&MinkowskiDiff<'_, V, A, B>) -> Option<Contact<V>>,
) -> Option<Contact<V>>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if !(pose_a.is_finite() && pose_b.is_finite()) || prediction.is_nan() {
        return None;
    }
    local(&MinkowskiDiff::new(a, b, pose_a.inv_mul(pose_b))).map(|c| c.transformed(pose_a))
}

/// [`contact`] warm-started by a separating direction `plane` in A's frame (see
/// [`local_contact_warm`]): the same answer, one support call for a pair still
/// separated along it.
pub(crate) fn contact_warm<V, A, B>(
    pose_a: &V::Pose,
    a: &A,
    pose_b: &V::Pose,
    b: &B,
    prediction: V::Scalar,
    plane: &mut V,
) -> Option<Contact<V>>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    in_frame_of_a(pose_a, a, pose_b, b, prediction, |diff| {
        local_contact_warm(diff, prediction, plane)
    })
}

/// [`contact`] in A's frame.
pub(crate) fn local_contact<V, A, B>(
    diff: &MinkowskiDiff<'_, V, A, B>,
    prediction: V::Scalar,
) -> Option<Contact<V>>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let (ma, mb) = (diff.a.margin(), diff.b.margin());
    // Cores farther apart than the prediction plus both margins have no contact:
    // GJK stops at the first supporting plane that proves it.
    let g = gjk::closest_points_within(diff, None, prediction + ma + mb)?;
    contact_from_gjk(diff, &g, prediction)
}

/// [`local_contact`] warm-started by a separating direction `plane` (A's frame, zero
/// when none): its supporting plane is tried first and, when it still proves the
/// cores beyond the prediction, answers `None` with one support call; otherwise GJK
/// runs as in [`local_contact`] (same answer) and `plane` becomes the direction that
/// stopped it, or zero. Box2D's and van den Bergen's cached separating axis.
pub(crate) fn local_contact_warm<V, A, B>(
    diff: &MinkowskiDiff<'_, V, A, B>,
    prediction: V::Scalar,
    plane: &mut V,
) -> Option<Contact<V>>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let bound = prediction + diff.a.margin() + diff.b.margin();
    if gjk::plane_separates(diff, *plane, bound) {
        return None;
    }
    match gjk::closest_points_or_plane(diff, None, bound) {
        Err(v) => {
            *plane = v;
            None
        }
        Ok(g) => {
            *plane = V::ZERO;
            contact_from_gjk(diff, &g, prediction)
        }
    }
}

/// The contact of GJK's answer `g` for the cores (EPA when they overlap), in A's
/// frame; `None` beyond `prediction`.
fn contact_from_gjk<V, A, B>(
    diff: &MinkowskiDiff<'_, V, A, B>,
    g: &gjk::GjkResult<V>,
    prediction: V::Scalar,
) -> Option<Contact<V>>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let (ma, mb) = (diff.a.margin(), diff.b.margin());
    if !g.distance.is_finite() {
        return None;
    }
    let normal = (g.point_b - g.point_a).try_normalize();
    if let (false, Some(n)) = (g.overlapping, normal) {
        let depth = ma + mb - g.distance;
        return (-depth <= prediction).then(|| Contact {
            normal: n,
            depth,
            point_a: g.point_a + n * ma,
            point_b: g.point_b - n * mb,
            status: g.status,
        });
    }
    let p = V::penetration(diff, &g.simplex);
    // A flat or point-like Minkowski difference: the cores touch where GJK says.
    let (core_a, core_b) = match p.status {
        Status::Degenerate => (g.point_a, g.point_b),
        _ => (p.point_a, p.point_b),
    };
    // GJK found the cores overlapping, so a flat difference's rounding must not
    // turn them apart: the core depth is at least 0.
    let core_depth = if g.overlapping {
        p.depth.max(V::Scalar::ZERO)
    } else {
        p.depth
    };
    let depth = core_depth + ma + mb;
    (-depth <= prediction).then(|| Contact {
        normal: p.normal,
        depth,
        point_a: core_a + p.normal * ma,
        point_b: core_b - p.normal * mb,
        status: p.status,
    })
}

/// Contact of two spheres (circles) whose centres are `ca`, `cb` (world).
#[inline]
pub(crate) fn contact_points<V: Vector>(
    ca: V,
    ra: V::Scalar,
    cb: V,
    rb: V::Scalar,
    prediction: V::Scalar,
    fallback_normal: V,
) -> Option<Contact<V>> {
    let offset = cb - ca;
    let dist = offset.length();
    let depth = ra + rb - dist;
    if !(-depth <= prediction) {
        return None;
    }
    let (normal, status) = match offset.try_normalize() {
        Some(n) => (n, Status::Converged),
        None => (fallback_normal, Status::Degenerate),
    };
    Some(Contact {
        normal,
        depth,
        point_a: ca + normal * ra,
        point_b: cb - normal * rb,
        status,
    })
}

/// Contact of two balls (analytic). Coincident centres give `Status::Degenerate`
/// with normal +x of A's frame and depth `ra + rb`; NaN input gives `None`.
///
/// ```
/// use isect::d3::*;
/// use isect::query::contact::contact_ball_ball;
///
/// # fn main() -> Result<(), ShapeError> {
/// let ball = Ball::new(Vec3::ZERO, 1.0)?;
/// let (a, b) = (Pose::IDENTITY, Pose::from_translation(Vec3::new(0.0, 0.0, 3.0)));
/// // 1.0 apart: only a prediction of at least 1 reports it, with depth −1.
/// assert!(contact_ball_ball(&a, &ball, &b, &ball, 0.5).is_none());
/// let c = contact_ball_ball(&a, &ball, &b, &ball, 1.0).expect("within the prediction");
/// assert!((c.depth + 1.0).abs() < 1e-6);
/// assert_eq!(c.normal, Vec3::Z);
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn contact_ball_ball<V: Vector>(
    pose_a: &V::Pose,
    a: &Ball<V>,
    pose_b: &V::Pose,
    b: &Ball<V>,
    prediction: V::Scalar,
) -> Option<Contact<V>> {
    let ca = pose_a.transform_point(a.center());
    let cb = pose_b.transform_point(b.center());
    let x = pose_a.transform_vector(V::unit_axis(0));
    contact_points(ca, a.radius(), cb, b.radius(), prediction, x)
}

/// Contact of a ball and a capsule: the ball against the capsule's nearest
/// segment point. When the ball's centre is on the capsule's segment the
/// general GJK/EPA path answers (with `Status::Degenerate`: no unique normal).
///
/// ```
/// use isect::d2::*;
/// use isect::query::contact::contact_ball_capsule;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A horizontal capsule of radius 0.5 and a unit ball centred 1.25 above its axis.
/// let capsule = Capsule::new(Vec2::new(-2.0, 0.0), Vec2::new(2.0, 0.0), 0.5)?;
/// let ball = Ball::new(Vec2::new(1.0, 1.25), 1.0)?;
/// let c = contact_ball_capsule(&Pose::IDENTITY, &ball, &Pose::IDENTITY, &capsule, 0.0)
///     .expect("they overlap");
/// assert!((c.depth - 0.25).abs() < 1e-6);
/// assert!((c.normal + Vec2::Y).length() < 1e-6); // from the ball down to the capsule
/// # Ok(())
/// # }
/// ```
pub fn contact_ball_capsule<V: GjkVector>(
    pose_a: &V::Pose,
    a: &Ball<V>,
    pose_b: &V::Pose,
    b: &Capsule<V>,
    prediction: V::Scalar,
) -> Option<Contact<V>> {
    let ca = pose_a.transform_point(a.center());
    let (cb, _) = world_segment(pose_b, b).closest_point(ca);
    if (cb - ca).try_normalize().is_none() {
        return contact(pose_a, a, pose_b, b, prediction);
    }
    contact_points(ca, a.radius(), cb, b.radius(), prediction, V::ZERO)
}

/// Two capsule cores closer than this many machine epsilons of their largest
/// coordinate count as touching: the segment closest points of crossing segments
/// come out a rounding error apart, along an arbitrary direction.
pub const CAPSULE_CORE_ULPS: f64 = 64.0;

/// Contact of two capsules (Ericson 5.1.9 on their segments): the depth
/// `r_a + r_b − |p_a − p_b|` is exact while the segments are apart. When they touch
/// or cross (closer than [`CAPSULE_CORE_ULPS`] epsilons of their coordinates), the
/// general GJK/EPA path answers: crossing segments in 2D overlap deeper than
/// `r_a + r_b`, by how far one must move to uncross them.
///
/// ```
/// use isect::d3::*;
/// use isect::query::contact::contact_capsule_capsule;
///
/// # fn main() -> Result<(), ShapeError> {
/// // Two crossing capsules of radius 0.5 whose axes are 0.8 apart along z.
/// let a = Capsule::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), 0.5)?;
/// let b = Capsule::new(Vec3::new(0.0, -1.0, 0.8), Vec3::new(0.0, 1.0, 0.8), 0.5)?;
/// let c = contact_capsule_capsule(&Pose::IDENTITY, &a, &Pose::IDENTITY, &b, 0.0)
///     .expect("they overlap");
/// assert!((c.depth - 0.2).abs() < 1e-6);
/// assert!((c.normal - Vec3::Z).length() < 1e-6);
/// # Ok(())
/// # }
/// ```
pub fn contact_capsule_capsule<V: GjkVector>(
    pose_a: &V::Pose,
    a: &Capsule<V>,
    pose_b: &V::Pose,
    b: &Capsule<V>,
    prediction: V::Scalar,
) -> Option<Contact<V>> {
    let (sa, sb) = (world_segment(pose_a, a), world_segment(pose_b, b));
    contact_capsule_cores(pose_a, a, pose_b, b, (&sa, &sb), prediction)
}

/// [`contact_capsule_capsule`] with the capsules' world segments `(sa, sb)` given.
pub(crate) fn contact_capsule_cores<V: GjkVector>(
    pose_a: &V::Pose,
    a: &Capsule<V>,
    pose_b: &V::Pose,
    b: &Capsule<V>,
    (sa, sb): (&Segment<V>, &Segment<V>),
    prediction: V::Scalar,
) -> Option<Contact<V>> {
    let (_, _, pa, pb) = closest_points_segment_segment(sa, sb);
    let scale = [sa.a, sa.b, sb.a, sb.b]
        .iter()
        .fold(V::Scalar::ZERO, |m, p| m.max(p.abs().max_element()));
    if pa.distance(pb) <= eps::<V::Scalar>(CAPSULE_CORE_ULPS) * scale
        || (pb - pa).try_normalize().is_none()
    {
        return contact(pose_a, a, pose_b, b, prediction);
    }
    contact_points(pa, a.radius(), pb, b.radius(), prediction, V::ZERO)
}

/// Contact of a ball (A) and a shape (B) with a closed-form projection, from the
/// ball's centre `c` and its hollow projection `q` on B's boundary (in B's frame,
/// within a few `ε` of the exact point): outside B the normal runs from `c` to `q`
/// and the depth is `r − |q − c|`; inside, from `q` through `c` (B's shortest way off
/// the centre) and the depth is `r + |q − c|`. `point_a = c + r · normal` and
/// `point_b = q`, so `point_a − point_b = depth · normal`. The outer `None` when `c`
/// lies on B's boundary (no normal there: the caller asks GJK / EPA); the inner one
/// when the shapes are farther apart than `prediction` or a pose is not finite.
pub(crate) fn contact_ball_projected<V: Vector, S: ProjectPoint<V>>(
    pose_a: &V::Pose,
    a: &Ball<V>,
    pose_b: &V::Pose,
    b: &S,
    prediction: V::Scalar,
) -> Option<Option<Contact<V>>> {
    if !(pose_a.is_finite() && pose_b.is_finite()) || prediction.is_nan() {
        return Some(None);
    }
    contact_ball_projected_finite(pose_a, a, pose_b, b, prediction)
}

/// [`contact_ball_projected`] for poses the caller has found finite (a NaN
/// `prediction` gives the inner `None`).
#[inline]
pub(crate) fn contact_ball_projected_finite<V: Vector, S: ProjectPoint<V>>(
    pose_a: &V::Pose,
    a: &Ball<V>,
    pose_b: &V::Pose,
    b: &S,
    prediction: V::Scalar,
) -> Option<Option<Contact<V>>> {
    // Two rotations in all (three for an off-centre ball): the centre into B's frame
    // and the normal out of it; both witnesses are then offsets of the world centre
    // along the world normal (`q = c ± gap · normal` in B's frame).
    let centre = a.centre_at(pose_a);
    let c = pose_b.inverse_transform_point(centre);
    let projection = b.project_local_point(c, false);
    let nearest = NearestOnB {
        offset: projection.point - c,
        inside: projection.is_inside,
    };
    ball_contact_toward(centre, a.radius(), pose_b, nearest, prediction)
}

/// Where B's surface point nearest a ball's centre lies, in B's frame.
struct NearestOnB<V> {
    /// From the centre to that point.
    offset: V,
    /// Whether the centre is inside B.
    inside: bool,
}

/// The contact of a ball (world centre `centre`) with B from B's surface point
/// nearest the centre; `None` when the centre is on B's surface (no direction).
fn ball_contact_toward<V: Vector>(
    centre: V,
    radius: V::Scalar,
    pose_b: &V::Pose,
    nearest: NearestOnB<V>,
    prediction: V::Scalar,
) -> Option<Option<Contact<V>>> {
    let gap = nearest.offset.length();
    // One root for the length and the direction (`try_normalize` takes its own).
    let inverse = gap.recip();
    if !(inverse.is_finite() && inverse > V::Scalar::ZERO) {
        return None;
    }
    let toward = nearest.offset * inverse;
    let (normal, depth, to_b) = match nearest.inside {
        true => (-toward, radius + gap, -gap),
        false => (toward, radius - gap, gap),
    };
    if !(-depth <= prediction) {
        return Some(None);
    }
    let normal = pose_b.transform_vector(normal);
    Some(Some(Contact {
        normal,
        depth,
        point_a: centre + normal * radius,
        point_b: centre + normal * to_b,
        status: Status::Converged,
    }))
}

/// [`contact_ball_projected_finite`] for a convex polygon, from its edge whose line
/// the centre lies farthest beyond (Box2D's `b2CollidePolygonAndCircle`; Ericson 5.1.2
/// for the edge's regions). In exact arithmetic the point of a convex polygon nearest
/// an outside point lies on that edge (at an end, or at the foot on its line): another
/// edge's line is no farther, as its normal turns away from the direction to the
/// nearest point. Rounding can make a neighbour's line win beside a nearly straight
/// vertex, so from an end the search walks on along the outline while the next edge
/// comes nearer. A centre inside is nearest that edge's line. A pair apart beyond
/// `prediction` on that line is answered before any root; a foot's offset is exactly
/// `-n · sep`, so a face contact's normal is the edge's own.
pub(crate) fn contact_ball_polygon_finite<R: Real>(
    pose_a: &<R::V2 as Vector>::Pose,
    a: &Ball<R::V2>,
    pose_b: &<R::V2 as Vector>::Pose,
    b: &ConvexPolygon<R>,
    prediction: R,
) -> Option<Option<Contact<R::V2>>> {
    let centre = a.centre_at(pose_a);
    let c = pose_b.inverse_transform_point(centre);
    let (vertices, normals) = (b.vertices(), b.normals());
    let (sep, i) = farthest_edge_line(vertices, normals, c);
    if !(sep - a.radius() <= prediction) {
        return Some(None);
    }
    let foot = NearestOnB {
        offset: normals[i] * -sep,
        inside: !(sep > R::ZERO),
    };
    let nearest = match foot.inside {
        true => foot,
        false => match nearest_end(vertices, i, c) {
            Some(end) => NearestOnB {
                offset: end - c,
                inside: false,
            },
            None => foot,
        },
    };
    ball_contact_toward(centre, a.radius(), pose_b, nearest, prediction)
}

/// The largest `n_i · (p − v_i)` over a polygon's edges and its edge.
fn farthest_edge_line<V: Vector>(vertices: &[V], normals: &[V], p: V) -> (V::Scalar, usize) {
    let (mut best, mut best_i) = (V::Scalar::NEG_INFINITY, 0);
    for (i, (&v, &n)) in vertices.iter().zip(normals).enumerate() {
        let sep = n.dot(p - v);
        if sep > best {
            (best, best_i) = (sep, i);
        }
    }
    (best, best_i)
}

/// `None` when `p` lies beside edge `i` (its foot on the edge's line is nearest);
/// else the nearest point of the outline found by walking from the end of edge `i`
/// that `p` lies beyond, edge by edge, while the next edge's nearest point is nearer.
fn nearest_end<V: Vector>(vertices: &[V], i: usize, p: V) -> Option<V> {
    let len = vertices.len();
    let (next, prev) = (|k: usize| (k + 1) % len, |k: usize| (k + len - 1) % len);
    let (v0, v1) = (vertices[i], vertices[next(i)]);
    let e = v1 - v0;
    let forward = e.dot(p - v1) >= V::Scalar::ZERO;
    if !forward && e.dot(p - v0) > V::Scalar::ZERO {
        return None;
    }
    let (mut best, mut k) = match forward {
        true => (v1, next(i)),
        false => (v0, prev(i)),
    };
    for _ in 1..len {
        let c = on_segment(vertices[k], vertices[next(k)], p);
        if !nearer(p, c, best) {
            break;
        }
        best = c;
        k = if forward { next(k) } else { prev(k) };
    }
    Some(best)
}

/// Contact of a ball and a cylinder without GJK: the ball's centre projected on the
/// cylinder in closed form ([`ProjectPoint`]); a centre on the cylinder's surface
/// takes the general path ([`contact`]).
///
/// ```
/// use isect::d3::*;
/// use isect::query::contact::contact_ball_cylinder;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A can of radius 1 and height 4 about y; a ball of radius 0.5 centred 0.25 inside
/// // its side overlaps it by 0.75, pushed out along +x.
/// let can = Cylinder::new(2.0, 1.0)?;
/// let ball = Ball::new(Vec3::new(0.75, 0.0, 0.0), 0.5)?;
/// let c = contact_ball_cylinder(&Pose::IDENTITY, &ball, &Pose::IDENTITY, &can, 0.0)
///     .expect("they overlap");
/// assert!((c.depth - 0.75).abs() < 1e-6);
/// assert!((c.normal + Vec3::X).length() < 1e-6); // from the ball to the can
/// # Ok(())
/// # }
/// ```
pub fn contact_ball_cylinder<R: Real>(
    pose_a: &<R::V3 as Vector>::Pose,
    a: &Ball<R::V3>,
    pose_b: &<R::V3 as Vector>::Pose,
    b: &Cylinder<R>,
    prediction: R,
) -> Option<Contact<R::V3>>
where
    R::V3: GjkVector,
{
    contact_ball_projected(pose_a, a, pose_b, b, prediction)
        .unwrap_or_else(|| contact(pose_a, a, pose_b, b, prediction))
}

/// Contact of a ball and a cone without GJK: the ball's centre projected on the
/// cone's profile triangle in closed form ([`ProjectPoint`]); a centre on the cone's
/// surface takes the general path ([`contact`]).
///
/// ```
/// use isect::d3::*;
/// use isect::query::contact::contact_ball_cone;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A cone with its apex at y = 1 and its base of radius 1 at y = -1; a ball of
/// // radius 0.5 centred 1.25 above the apex is 0.75 away.
/// let cone = Cone::new(1.0, 1.0)?;
/// let ball = Ball::new(Vec3::new(0.0, 2.25, 0.0), 0.5)?;
/// let c = contact_ball_cone(&Pose::IDENTITY, &ball, &Pose::IDENTITY, &cone, 1.0)
///     .expect("within the prediction");
/// assert!((c.depth + 0.75).abs() < 1e-6);
/// assert!((c.normal + Vec3::Y).length() < 1e-6);
/// # Ok(())
/// # }
/// ```
pub fn contact_ball_cone<R: Real>(
    pose_a: &<R::V3 as Vector>::Pose,
    a: &Ball<R::V3>,
    pose_b: &<R::V3 as Vector>::Pose,
    b: &Cone<R>,
    prediction: R,
) -> Option<Contact<R::V3>>
where
    R::V3: GjkVector,
{
    contact_ball_projected(pose_a, a, pose_b, b, prediction)
        .unwrap_or_else(|| contact(pose_a, a, pose_b, b, prediction))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose2, Vector2};
    use crate::test_rng::Rng;

    /// A random convex polygon of 3–9 hull points about the origin, `size` across.
    fn polygon<R: Real>(rng: &mut Rng, size: f64) -> ConvexPolygon<R> {
        loop {
            let points: Vec<R::V2> = (0..3 + rng.below(7))
                .map(|_| {
                    let (x, y) = (rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
                    R::V2::new(R::from_f64(x * size), R::from_f64(y * size))
                })
                .collect();
            if let Ok(p) = ConvexPolygon::new(&points) {
                return p;
            }
        }
    }

    /// The polygon kernel against the centre's projection, disc by disc: inside, in
    /// an edge's region, in a vertex's region, apart within and beyond the
    /// prediction, at several scales, far from the origin, both precisions. Centres
    /// within rounding of the outline are left to the exact cases below.
    fn agrees_with_projection<R: Real>()
    where
        R::V2: Vector2<Pose = Pose2<R>>,
    {
        let mut rng = Rng(41);
        let mut compared = 0;
        for round in 0..6000 {
            let size = [1e-3, 1.0, 1e3][round % 3];
            let far = [0.0, 0.0, 1e2][round % 3 / 2] * size;
            let b = polygon::<R>(&mut rng, size);
            let at = |rng: &mut Rng| R::from_f64(far + rng.range(-2.0, 2.0) * size);
            let pb = Pose2::new(
                R::V2::new(at(&mut rng), at(&mut rng)),
                R::from_f64(rng.range(-3.0, 3.0)),
            );
            let pa = Pose2::new(
                R::V2::new(at(&mut rng), at(&mut rng)),
                R::from_f64(rng.range(-3.0, 3.0)),
            );
            let radius = R::from_f64(rng.range(0.01, 1.0) * size);
            let a = Ball::new(R::V2::ZERO, radius).unwrap();
            let c = pb.inverse_transform_point(pa.translation);
            let (sep, _) = farthest_edge_line(b.vertices(), b.normals(), c);
            if sep.abs().to_f64() < 1e-3 * size {
                continue;
            }
            let prediction = R::from_f64([0.0, 0.1, 1.0][round % 3] * size);
            let ours = contact_ball_polygon_finite(&pa, &a, &pb, &b, prediction);
            let oracle = contact_ball_projected_finite(&pa, &a, &pb, &b, prediction);
            let tol = R::EPSILON.to_f64() * 1024.0 * (far.abs() + 4.0 * size);
            match (ours, oracle) {
                (Some(Some(x)), Some(Some(y))) => {
                    assert!(
                        (x.normal - y.normal).length().to_f64() < 1e-3,
                        "{round}: {x:?} {y:?}"
                    );
                    assert!(
                        (x.depth - y.depth).abs().to_f64() < tol,
                        "{round}: {x:?} {y:?}"
                    );
                    assert!(
                        (x.point_a - y.point_a).length().to_f64() < tol,
                        "{round}: {x:?} {y:?} {tol}"
                    );
                    assert!((x.point_b - y.point_b).length().to_f64() < tol, "{round}");
                    compared += 1;
                }
                (x, y) => assert_eq!(
                    x.map(|c| c.is_some()),
                    y.map(|c| c.is_some()),
                    "{round}: {x:?} {y:?}"
                ),
            }
        }
        assert!(compared > 1500, "only {compared} contacts compared");
    }

    /// Beside a nearly straight vertex (it turns by about `h`), rounding can give the
    /// neighbouring edge's line the largest separation from a far centre; the contact
    /// must still be the vertex's. Discs 78 below the vertex, up to 0.02 rad to its
    /// side, 0.002 deeper than their distance (a reviewer's probe: without the walk
    /// along the outline a third of them were called apart).
    fn nearly_straight_vertex<R: Real>(h: f64)
    where
        R::V2: Vector2<Pose = Pose2<R>>,
    {
        let v = |x: f64, y: f64| R::V2::new(R::from_f64(x), R::from_f64(y));
        let polygon = ConvexPolygon::<R>::new(&[v(0.0, 0.0), v(1.0, 0.0), v(2.0, h), v(1.5, 5.0)]);
        let polygon = polygon.expect("a vertex turning by h is kept");
        let corner = v(2.0, h);
        let id = Pose2::<R>::default();
        for k in 0..2000 {
            let angle = 0.02 * k as f64 / 2000.0;
            let centre = v(2.0 + 78.0 * angle.sin(), h - 78.0 * angle.cos());
            let distance = (centre - corner).length().to_f64();
            let disc = Ball::new(R::V2::ZERO, R::from_f64(distance + 0.002)).unwrap();
            let at = Pose2::new(centre, R::ZERO);
            let ours = contact_ball_polygon_finite(&at, &disc, &id, &polygon, R::ZERO);
            let Some(Some(c)) = ours else {
                panic!("{k}: apart, {ours:?}");
            };
            let tol = R::EPSILON.to_f64() * 256.0 * 78.0;
            assert!((c.depth.to_f64() - 0.002).abs() < tol, "{k}: {c:?}");
            assert!((c.point_b - corner).length().to_f64() < tol, "{k}: {c:?}");
        }
    }

    #[test]
    fn ball_beside_a_nearly_straight_vertex() {
        nearly_straight_vertex::<f32>(2.5e-6);
        nearly_straight_vertex::<f64>(5e-15);
    }

    #[test]
    fn ball_polygon_agrees_with_projection() {
        agrees_with_projection::<f32>();
        agrees_with_projection::<f64>();
    }

    /// Exact cases on the unit square: touching an edge and a corner (depth 0), a
    /// centre on the outline (no direction: the general path), a corner region's
    /// diagonal normal, a centre inside nearest one edge, and a NaN prediction.
    #[test]
    fn ball_square_exact_cases() {
        let square = ConvexPolygon::<f64>::new(&[
            glam::DVec2::new(-1.0, -1.0),
            glam::DVec2::new(1.0, -1.0),
            glam::DVec2::new(1.0, 1.0),
            glam::DVec2::new(-1.0, 1.0),
        ])
        .unwrap();
        let id = Pose2::<f64>::default();
        let at = |x: f64, y: f64| Pose2::new(glam::DVec2::new(x, y), 0.0);
        let disc = Ball::new(glam::DVec2::ZERO, 0.5).unwrap();
        let run = |p: Pose2<f64>, prediction: f64| {
            contact_ball_polygon_finite(&p, &disc, &id, &square, prediction)
        };
        let edge = run(at(1.5, 0.25), 0.0).unwrap().unwrap();
        assert_eq!(
            (edge.normal, edge.depth),
            (glam::DVec2::new(-1.0, 0.0), 0.0)
        );
        assert_eq!(edge.point_b, glam::DVec2::new(1.0, 0.25));
        let r = 0.5 / 2f64.sqrt();
        let corner = run(at(1.0 + r, 1.0 + r), 0.0).unwrap().unwrap();
        assert!((corner.normal + glam::DVec2::splat(2f64.sqrt() / 2.0)).length() < 1e-15);
        assert!(corner.depth.abs() < 1e-15);
        assert!((corner.point_b - glam::DVec2::ONE).length() < 1e-15);
        assert!(
            run(at(1.0, 0.3), 0.0).is_none(),
            "on the outline: general path"
        );
        let inside = run(at(0.75, 0.1), 0.0).unwrap().unwrap();
        assert_eq!(
            (inside.normal, inside.depth),
            (glam::DVec2::new(-1.0, 0.0), 0.75)
        );
        assert_eq!(
            run(at(1.6, 0.0), 0.0),
            Some(None),
            "apart beyond the prediction"
        );
        let within = run(at(1.6, 0.0), 0.2).unwrap().unwrap();
        assert!((within.depth + 0.1).abs() < 1e-15);
        assert_eq!(run(at(1.2, 0.0), f64::NAN), Some(None));
    }
}
