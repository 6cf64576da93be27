//! Manifolds of any convex pair from their supporting features, as Jolt's
//! `ManifoldBetweenTwoFaces` and parry's polygonal feature maps do: a capsule lying on
//! a face gets its two ends, a cylinder standing on a face points spread on its rim, a
//! box on a triangle the corners over the triangle.
//!
//! From [`contact`](crate::query::contact())'s unit normal `n` (A to B), A's feature
//! along `n` and B's along `−n` ([`FeatureMap`]). The reference is a flat face whose
//! normal is within [`FACE_ALIGN_COS`] of the contact normal, A's when both are; the
//! other feature (the incident one) is clipped to the reference face's side planes (3D,
//! Sutherland–Hodgman of [`clip_3d`]) or to the reference edge's slab (2D), the points
//! at least `−prediction` deep below the reference face are kept and reduced to four
//! (3D) or two (2D): the deepest, then the widest spread. The manifold's normal is the
//! reference face's normal, and every depth is measured along it. With no aligned face,
//! two parallel lines in 3D (capsules or cylinders side by side) are clipped to each
//! other's extent along A's line, depths along `n`. Otherwise, or when clipping keeps
//! no point, the manifold is the contact's single point ([`FeatureId::SINGLE`]).
//!
//! Tolerances: [`FACE_ALIGN_COS`] (about 2.6°) for a reference face and for parallel
//! lines (two lines that far from parallel put `point_a` up to `sin 2.6°` times their
//! length beside A's surface); the incident shape's support point along the reference
//! normal (its deepest point) joins the clipped ones (id [`DEEPEST`]) when it is
//! deeper by more than [`DEEPEST_GAP`] of the features' size (a disc's rim between its
//! polygon's vertices); `prediction` is widened by [`clip_3d::TOUCH_ULPS`] as in the
//! SAT manifolds. Work is done in the reference shape's frame.

use super::sat::{face_points, max_abs, FaceClip};
use super::{FeatureId, Manifold};
use crate::algo::clip_2d::{self, CLIPPED_2D};
use crate::algo::clip_3d::{self, ClipBuffer, ClipVertex, FixedClipBuffer};
use crate::algo::feature::{FeatureMap, SupportFeature, MAX_FEATURE_VERTICES};
use crate::algo::gjk::{GjkVector, Status};
use crate::math::{Isometry, Pose2, Pose3, Real, Vector, Vector3};
use crate::query::contact::{contact_capsule_cores, Contact};
use crate::query::distance::world_segment;
use crate::shape::Capsule;

/// A flat face is the reference when its normal's cosine with the contact normal is at
/// least this; two lines are parallel when their directions' is.
pub const FACE_ALIGN_COS: f64 = 0.999;
/// The incident shape's deepest point joins a feature manifold when it is deeper than
/// every clipped point by more than this fraction of the features' size.
pub const DEEPEST_GAP: f64 = 1e-3;
/// [`FeatureId::point`] of the incident shape's deepest point in a feature manifold.
pub const DEEPEST: u32 = u32::MAX - 2;

/// Clipping storage: an incident feature cut by every side plane of the reference,
/// plus the incident shape's deepest point.
type FeatureBuf<V> = FixedClipBuffer<V, { 2 * MAX_FEATURE_VERTICES + 1 }>;

/// A shape's feature and its pose.
struct Placed<'a, V: Vector> {
    pose: &'a V::Pose,
    feature: SupportFeature<V>,
}

/// A face contact: the reference face's side, the incident side, whether the
/// reference is B's, and the incident shape's support point toward the reference
/// (world): its deepest point along the face's normal.
struct FacePair<'a, V: Vector> {
    reference: Placed<'a, V>,
    incident: Placed<'a, V>,
    reference_is_b: bool,
    deepest: V,
}

/// How the two shapes' features along the contact normal meet.
enum Pairing<'a, V: Vector> {
    /// A flat face of one faces the normal.
    Face(FacePair<'a, V>),
    /// No face does: A's feature and B's.
    Other(Placed<'a, V>, Placed<'a, V>),
}

/// The two shapes' features along the contact normal, paired.
fn features<'a, V, A, B>(
    pa: &'a V::Pose,
    a: &A,
    pb: &'a V::Pose,
    b: &B,
    normal: V,
) -> Pairing<'a, V>
where
    V: Vector,
    A: FeatureMap<V> + ?Sized,
    B: FeatureMap<V> + ?Sized,
{
    let (na, nb) = (
        pa.inverse_transform_vector(normal),
        pb.inverse_transform_vector(-normal),
    );
    let (fa, fb) = (a.support_feature(na), b.support_feature(nb));
    let cos = V::Scalar::from_f64(FACE_ALIGN_COS);
    let aligned = |f: &SupportFeature<V>, d: V| f.normal.is_some_and(|m| m.dot(d) >= cos);
    let placed = |pose, feature| Placed { pose, feature };
    // The incident feature is taken again along the reference face's exact normal: the
    // contact normal may lean (EPA, a part's edge), which would tilt a curved
    // feature's line or disc.
    if aligned(&fa, na) {
        let m = pa.transform_vector(fa.normal.unwrap_or(na));
        let fb = b.support_feature(pb.inverse_transform_vector(-m));
        Pairing::Face(FacePair {
            reference: placed(pa, fa),
            incident: placed(pb, fb),
            reference_is_b: false,
            deepest: b.support(pb, -m),
        })
    } else if aligned(&fb, nb) {
        let m = pb.transform_vector(fb.normal.unwrap_or(nb));
        let fa = a.support_feature(pa.inverse_transform_vector(-m));
        Pairing::Face(FacePair {
            reference: placed(pb, fb),
            incident: placed(pa, fa),
            reference_is_b: true,
            deepest: a.support(pa, -m),
        })
    } else {
        Pairing::Other(placed(pa, fa), placed(pb, fb))
    }
}

/// The incident feature's vertices in the reference frame (`pose_ri`), ids their
/// indices.
fn incident_polygon<V: Vector>(inc: &SupportFeature<V>, pose_ri: &V::Pose) -> FeatureBuf<V> {
    let mut poly = FeatureBuf::default();
    for (k, &v) in inc.vertices().iter().enumerate() {
        let (point, id) = (pose_ri.transform_point(v), k as u32);
        poly.push(ClipVertex {
            point,
            id,
            edge: id,
        });
    }
    poly
}

/// Appends the incident shape's deepest point `point` (reference frame) when it lies
/// over the reference face (`over`) and is deeper than every point of `poly` by more
/// than [`DEEPEST_GAP`] of `size`.
fn add_deepest<V: Vector>(
    poly: &mut FeatureBuf<V>,
    point: V,
    (measure, over): (impl Fn(V) -> V::Scalar, impl Fn(V) -> bool),
    size: V::Scalar,
) {
    let best = poly
        .iter()
        .fold(V::Scalar::NEG_INFINITY, |m, v| m.max(measure(v.point)));
    if measure(point) > best + V::Scalar::from_f64(DEEPEST_GAP) * size && over(point) {
        poly.push(ClipVertex {
            point,
            id: DEEPEST,
            edge: DEEPEST,
        });
    }
}

/// The manifold of two 3D convex shapes touching as `c` says, from their features.
pub(crate) fn manifold_3d<R, A, B>(
    pa: &Pose3<R>,
    a: &A,
    pb: &Pose3<R>,
    b: &B,
    c: &Contact<R::V3>,
    prediction: R,
) -> Manifold<R::V3>
where
    R: Real,
    R::V3: GjkVector<Pose = Pose3<R>>,
    A: FeatureMap<R::V3> + ?Sized,
    B: FeatureMap<R::V3> + ?Sized,
{
    let m = match features(pa, a, pb, b, c.normal) {
        Pairing::Face(pair) => face_3d(&pair, prediction),
        Pairing::Other(fa, fb) => parallel_lines(&fa, &fb, c.normal, prediction),
    };
    m.unwrap_or_else(|| Manifold::single(c, FeatureId::SINGLE))
}

/// The face manifold of two 3D convex shapes along `normal` (A to B), `None` when no
/// face of either faces it or clipping keeps no point: for a caller that found the
/// normal by its own separating-axis test.
pub(crate) fn face_manifold_3d<R, A, B>(
    pa: &Pose3<R>,
    a: &A,
    pb: &Pose3<R>,
    b: &B,
    normal: R::V3,
    prediction: R,
) -> Option<Manifold<R::V3>>
where
    R: Real,
    R::V3: GjkVector<Pose = Pose3<R>>,
    A: FeatureMap<R::V3> + ?Sized,
    B: FeatureMap<R::V3> + ?Sized,
{
    match features(pa, a, pb, b, normal) {
        Pairing::Face(pair) => face_3d(&pair, prediction),
        Pairing::Other(..) => None,
    }
}

/// The incident feature clipped to the reference face (3D).
fn face_3d<R: Real>(pair: &FacePair<'_, R::V3>, prediction: R) -> Option<Manifold<R::V3>>
where
    R::V3: Vector<Pose = Pose3<R>>,
{
    let (rf, inc) = (&pair.reference, &pair.incident);
    let normal = rf.feature.normal?;
    let face = rf.feature.vertices();
    let pose_ri = rf.pose.inv_mul(inc.pose);
    let mut poly = incident_polygon(&inc.feature, &pose_ri);
    let size = max_abs(face).max(
        poly.iter()
            .fold(R::ZERO, |m, v| m.max(v.point.abs().max_element())),
    );
    let offset = pose_ri.translation.abs().max_element();
    let prediction = clip_3d::touch_limit(prediction, size + offset);
    clip_3d::clip_to_face(&mut poly, &mut FeatureBuf::default(), face, normal);
    let clip = FaceClip {
        face,
        normal,
        offset: normal.dot(face[0]),
        id: FeatureId::new(pair.reference_is_b, rf.feature.id, inc.feature.id, 0),
    };
    let depth = |p: R::V3| clip.offset - normal.dot(p);
    poly.retain(|v| depth(v.point) >= -prediction);
    if poly.is_empty() {
        return None;
    }
    let at = rf.pose.inverse_transform_point(pair.deepest);
    let over = |p: R::V3| {
        (0..face.len()).all(|k| {
            let (v, w) = (face[k], face[(k + 1) % face.len()]);
            !((w - v).cross(normal).dot(p - v) > R::ZERO)
        })
    };
    add_deepest(&mut poly, at, (depth, over), size);
    face_points(&clip, &poly, size).map(|m| m.transformed(rf.pose))
}

/// Two parallel lines (3D, no aligned face): B's clipped to A's extent, depths along
/// the contact normal.
fn parallel_lines<V: GjkVector>(
    fa: &Placed<'_, V>,
    fb: &Placed<'_, V>,
    normal: V,
    prediction: V::Scalar,
) -> Option<Manifold<V>> {
    let ([a0, a1], [b0, b1]) = (two(&fa.feature)?, two(&fb.feature)?);
    // The directions first, in the world: most line pairs are not parallel.
    let ua = fa.pose.transform_vector(a1 - a0).try_normalize()?;
    let ub = fb.pose.transform_vector(b1 - b0).try_normalize()?;
    if ua.dot(ub).abs() < V::Scalar::from_f64(FACE_ALIGN_COS) {
        return None;
    }
    let pose_ab = fa.pose.inv_mul(fb.pose);
    let (b0, b1) = (pose_ab.transform_point(b0), pose_ab.transform_point(b1));
    let n = fa.pose.inverse_transform_vector(normal);
    let mut ends = [(b0, 0), (b1, 1)];
    if !clip_2d::clip_to_slab(&mut ends, a0, a1) {
        return None;
    }
    let size = max_abs(&[a0, a1, b0, b1]);
    let offset = pose_ab.translation().abs().max_element();
    let prediction = clip_3d::touch_limit(prediction, size + offset);
    let mut m = Manifold::new(n, Status::Converged);
    for (q, point) in ends {
        let depth = n.dot(a0 - q);
        if depth >= -prediction {
            let id = FeatureId::new(false, fa.feature.id, fb.feature.id, point);
            m.push(q + n * depth, q, depth, id);
        }
    }
    dedup_pair(&mut m, size);
    (!m.points().is_empty()).then(|| m.transformed(fa.pose))
}

/// A feature's two vertices, when it has exactly two distinct ones.
fn two<V: Vector>(f: &SupportFeature<V>) -> Option<[V; 2]> {
    match f.vertices() {
        &[p, q] if p != q => Some([p, q]),
        _ => None,
    }
}

/// Drops the second of two points within rounding of each other (a zero-length clip).
fn dedup_pair<V: Vector>(m: &mut Manifold<V>, size: V::Scalar) {
    let tiny = crate::math::tolerance::eps::<V::Scalar>(clip_3d::DUPLICATE_ULPS) * size;
    if let [p, q] = m.points() {
        if p.point_b.distance(q.point_b) <= tiny {
            m.truncate(1);
        }
    }
}

/// The manifold of two 2D convex shapes touching as `c` says, from their features.
pub(crate) fn manifold_2d<R, A, B>(
    pa: &Pose2<R>,
    a: &A,
    pb: &Pose2<R>,
    b: &B,
    c: &Contact<R::V2>,
    prediction: R,
) -> Manifold<R::V2>
where
    R: Real,
    R::V2: GjkVector<Pose = Pose2<R>>,
    A: FeatureMap<R::V2> + ?Sized,
    B: FeatureMap<R::V2> + ?Sized,
{
    let m = match features(pa, a, pb, b, c.normal) {
        Pairing::Face(pair) => edge_2d(&pair, prediction),
        Pairing::Other(..) => None,
    };
    m.unwrap_or_else(|| Manifold::single(c, FeatureId::SINGLE))
}

/// The incident feature clipped to the reference edge's slab (2D).
fn edge_2d<R: Real>(pair: &FacePair<'_, R::V2>, prediction: R) -> Option<Manifold<R::V2>>
where
    R::V2: Vector<Pose = Pose2<R>>,
{
    let (rf, inc, reference_is_b) = (&pair.reference, &pair.incident, pair.reference_is_b);
    let normal = rf.feature.normal?;
    let [r0, r1] = two(&rf.feature)?;
    let pose_ri = rf.pose.inv_mul(inc.pose);
    let verts = inc.feature.vertices();
    let ends = |k: usize| (pose_ri.transform_point(verts[k]), k as u32);
    let mut clipped = [ends(0), ends(verts.len().min(2) - 1)];
    if !clip_2d::clip_to_slab(&mut clipped, r0, r1) {
        return None;
    }
    let size = max_abs(&[r0, r1, clipped[0].0, clipped[1].0]);
    let offset = pose_ri.translation.abs().max_element();
    let prediction = clip_3d::touch_limit(prediction, size + offset);
    let depth = |p: R::V2| normal.dot(r0 - p);
    let mut poly = FeatureBuf::default();
    for (point, id) in clipped {
        if depth(point) >= -prediction {
            poly.push(ClipVertex {
                point,
                id,
                edge: id,
            });
        }
    }
    if poly.is_empty() {
        return None;
    }
    let at = rf.pose.inverse_transform_point(pair.deepest);
    let t = r1 - r0;
    let over = |p: R::V2| t.dot(p - r0) >= R::ZERO && t.dot(r1 - p) >= R::ZERO;
    add_deepest(&mut poly, at, (depth, over), size);
    let id = FeatureId::new(reference_is_b, rf.feature.id, inc.feature.id, 0);
    let mut m = Manifold::new(
        if reference_is_b { -normal } else { normal },
        Status::Converged,
    );
    for i in deepest_and_farthest(&poly, depth) {
        let (q, d) = (poly[i].point, depth(poly[i].point));
        let on_ref = q + normal * d;
        let (pa, pb) = if reference_is_b {
            (q, on_ref)
        } else {
            (on_ref, q)
        };
        m.push(
            pa,
            pb,
            d,
            FeatureId {
                point: poly[i].id,
                ..id
            },
        );
    }
    dedup_pair(&mut m, size);
    Some(m.transformed(rf.pose))
}

/// At most two of `points`: the deepest and the one farthest from it; the two ends
/// themselves when there are two.
fn deepest_and_farthest<V: Vector>(
    points: &[ClipVertex<V>],
    depth: impl Fn(V) -> V::Scalar,
) -> impl Iterator<Item = usize> {
    let (first, second) = if points.len() <= 2 {
        (0, points.len().saturating_sub(1))
    } else {
        let argmax = |f: &dyn Fn(V) -> V::Scalar| {
            (0..points.len()).fold(0, |b, i| {
                if f(points[i].point) > f(points[b].point) {
                    i
                } else {
                    b
                }
            })
        };
        let first = argmax(&|p| depth(p));
        let p0 = points[first].point;
        (first, argmax(&|p| p.distance_squared(p0)))
    };
    [first, second]
        .into_iter()
        .take(if first == second { 1 } else { 2 })
}

// The clip codes of 2D slabs and 3D planes never collide with an incident vertex index.
const _: () = assert!(CLIPPED_2D > MAX_FEATURE_VERTICES as u32);

/// `sb`'s unit direction when the segments are within [`FACE_ALIGN_COS`] of parallel
/// (`None` for a zero-length one): two capsules lying side by side.
pub(crate) fn parallel_axis<V: Vector>(
    sa: &crate::shape::Segment<V>,
    sb: &crate::shape::Segment<V>,
) -> Option<V> {
    let (ua, ub) = (
        (sa.b - sa.a).try_normalize()?,
        (sb.b - sb.a).try_normalize()?,
    );
    (ua.dot(ub).abs() >= V::Scalar::from_f64(FACE_ALIGN_COS)).then_some(ub)
}

/// The manifold of two capsules (2D or 3D), without the feature path: the single point
/// of [`contact_capsule_capsule`](crate::query::contact::contact_capsule_capsule), or, when the two segments are parallel within
/// [`FACE_ALIGN_COS`], B's segment clipped to A's extent: a point at each end of the
/// overlap (two logs side by side), depths along the contact normal.
///
/// ```
/// use isect::d3::*;
/// use isect::query::manifold::features::contact_manifold_capsules;
///
/// # fn main() -> Result<(), ShapeError> {
/// // Two logs of half length 1 side by side, 0.1 into each other: both ends.
/// let log = Capsule::aligned(0, 1.0, 0.5)?;
/// let beside = Pose::from_translation(Vec3::new(0.5, 0.9, 0.0));
/// let m = contact_manifold_capsules(&Pose::IDENTITY, &log, &beside, &log, 0.0).unwrap();
/// assert_eq!(m.points().len(), 2);
/// assert!(m.points().iter().all(|p| (p.depth - 0.1).abs() < 1e-5));
/// # Ok(())
/// # }
/// ```
pub fn contact_manifold_capsules<V: GjkVector>(
    pose_a: &V::Pose,
    a: &Capsule<V>,
    pose_b: &V::Pose,
    b: &Capsule<V>,
    prediction: V::Scalar,
) -> Option<Manifold<V>> {
    let (sa, sb) = (world_segment(pose_a, a), world_segment(pose_b, b));
    let c = contact_capsule_cores(pose_a, a, pose_b, b, (&sa, &sb), prediction)?;
    let single = || Some(Manifold::single(&c, FeatureId::SINGLE));
    let Some(ub) = parallel_axis(&sa, &sb) else {
        return single();
    };
    let mut ends = [(sb.a, 0), (sb.b, 1)];
    if !clip_2d::clip_to_slab(&mut ends, sa.a, sa.b) {
        return single();
    }
    let size = max_abs(&[sa.a, sa.b, sb.a, sb.b]);
    let prediction = clip_3d::touch_limit(prediction, size);
    let (n, (ra, rb)) = (c.normal, (a.radius(), b.radius()));
    // B's side facing A, across B's axis: the points lie on B's surface exactly.
    let across_b = (n - ub * ub.dot(n)).try_normalize().unwrap_or(n);
    let mut m = Manifold::new(n, Status::Converged);
    for (q, point) in ends {
        let depth = ra + rb - n.dot(q - sa.a);
        if depth >= -prediction {
            let id = FeatureId::new(false, 0, 0, point);
            let on_b = q - across_b * rb;
            m.push(on_b + n * depth, on_b, depth, id);
        }
    }
    dedup_pair(&mut m, size);
    if m.points().is_empty() {
        return single();
    }
    Some(m)
}
