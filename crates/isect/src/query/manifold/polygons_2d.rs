//! Manifolds of 2D polygonal shapes by the separating-axis test and clipping, as
//! Box2D v3 does (`manifold.c`: `b2CollidePolygons`, `b2ClipPolygons`; algorithm and
//! references in [`crate::algo::clip_2d`]).
//!
//! Every 2D kind with a polygonal core takes this path: polygons and boxes (sharp),
//! and capsules, segments, triangles, rounded boxes and rounded polygons (a core
//! grown by a radius; a capsule's core is its segment seen as a two-sided polygon).
//! The reference edge is the SAT edge of largest separation between the cores (A's
//! unless B's is larger by [`REFERENCE_BIAS`] of the size), the incident edge the
//! other core's edge most anti-parallel to it, clipped to the reference edge's slab;
//! depths and points then move out by the radii. An incident edge of a rounded core
//! touches whole only when it lies within [`FACE_ALIGN_COS`] of anti-parallel to the
//! reference edge (a capsule lying flat); tilted, only its deepest end's cap touches.
//! Two rounded cores that are apart, corner to corner or tilted, touch at the single
//! point between the closest points of the two edges, once a support test along that
//! direction has proved them the closest points of the cores (else, and when a tilted
//! edge's deepest end falls outside the reference edge, the caller's general path
//! answers). Points deeper than `−prediction` are kept; `prediction` is widened by
//! [`clip_3d::TOUCH_ULPS`] machine epsilons of the shapes' size and offset, so
//! exactly touching shapes whose poses round apart still touch (depth ≈ 0).
//!
//! The reported depth is the SAT depth of the chosen reference edge: at least the
//! minimum penetration and at most `REFERENCE_BIAS` times the size above it. Work is
//! done in the reference core's frame; answers are in world space.

// `!(x > y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
use super::features::parallel_axis;
use super::features::FACE_ALIGN_COS;
use super::sat::max_abs;
use super::{contact_manifold_convex, valid_input, FeatureId, Manifold, ManifoldPoint};
use crate::algo::clip_2d::{self, ClipPoint, PolygonFeatures, CLIPPED_2D};
use crate::algo::clip_3d::{self, REFERENCE_BIAS};
use crate::algo::gjk::{GjkVector, Status};
use crate::algo::sat_2d::circles_apart;
use crate::math::{Isometry, Pose2, Real, Vector, Vector2};
use crate::query::contact::Contact;
use crate::query::distance::{closest_points_segment_segment, world_segment};
use crate::shape::{obb_2d, Capsule, ConvexPolygon, Segment};

/// Manifold of two convex polygons: 1 or 2 points. `None` when they are farther apart
/// than `prediction`, or for NaN poses or `prediction`. Exactly touching polygons give
/// depth 0; within `prediction` the depths are negative (separation).
///
/// ```
/// use isect::d2::*;
/// use isect::query::contact_manifold_polygons;
///
/// # fn main() -> Result<(), ShapeError> {
/// // Two unit squares, the second 0.25 into the first from above: an edge contact
/// // of 2 points, each 0.25 deep.
/// let square = ConvexPolygon::new(&[Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y])?;
/// let above = Pose::from_translation(Vec2::new(0.0, 0.75));
/// let m = contact_manifold_polygons(&Pose::IDENTITY, &square, &above, &square, 0.0)
///     .expect("they overlap");
/// assert_eq!(m.points().len(), 2);
/// assert!((m.normal - Vec2::Y).length() < 1e-6);
/// assert!(m.points().iter().all(|p| (p.depth - 0.25).abs() < 1e-6));
/// # Ok(())
/// # }
/// ```
pub fn contact_manifold_polygons<R: Real>(
    pose_a: &Pose2<R>,
    a: &ConvexPolygon<R>,
    pose_b: &Pose2<R>,
    b: &ConvexPolygon<R>,
    prediction: R,
) -> Option<Manifold<R::V2>>
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    if !valid_input(pose_a, pose_b, prediction) {
        return None;
    }
    let pose_ab = pose_a.inv_mul(pose_b);
    // The cores' sizes and radii (`Core2::polygon`), before the cores are built: the
    // circles may answer first.
    let reach = Reach::new([a.scale(), b.scale()], R::ZERO, &pose_ab, prediction);
    if circles_apart(a, b, &pose_ab, reach.prediction) {
        return None;
    }
    let (ca, cb) = (
        Core2::polygon(pose_a, a, R::ZERO),
        Core2::polygon(pose_b, b, R::ZERO),
    );
    core_manifold_posed(&ca, &cb, &pose_ab, &reach)
        .or_general(|| contact_manifold_convex(pose_a, a, pose_b, b, prediction))
}

/// Manifold of two 2D oriented boxes: 1 or 2 points; edge behaviour as
/// [`contact_manifold_polygons`] (zero-extent boxes are fine).
///
/// ```
/// use isect::d2::*;
/// use isect::query::contact_manifold_obb_2d;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A 2 × 2 box side by side with a 1 × 1 box 0.5 into it along x.
/// let big = Obb::from_angle(Vec2::ZERO, Vec2::ONE, 0.0)?;
/// let small = Obb::from_angle(Vec2::ZERO, Vec2::splat(0.5), 0.0)?;
/// let beside = Pose::from_translation(Vec2::new(1.0, 0.0));
/// let m = contact_manifold_obb_2d(&Pose::IDENTITY, &big, &beside, &small, 0.0).unwrap();
/// assert_eq!(m.points().len(), 2);
/// assert!((m.normal - Vec2::X).length() < 1e-6);
/// assert!((m.max_depth() - 0.5).abs() < 1e-6);
/// # Ok(())
/// # }
/// ```
pub fn contact_manifold_obb_2d<R: Real>(
    pose_a: &Pose2<R>,
    a: &obb_2d::Obb<R>,
    pose_b: &Pose2<R>,
    b: &obb_2d::Obb<R>,
    prediction: R,
) -> Option<Manifold<R::V2>>
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    if !valid_input(pose_a, pose_b, prediction) {
        return None;
    }
    let (fa, fb) = (BoxFeatures::of(a), BoxFeatures::of(b));
    let (ca, cb) = (fa.core(pose_a, a), fb.core(pose_b, b));
    core_manifold(&ca, &cb, prediction)
        .or_general(|| contact_manifold_convex(pose_a, a, pose_b, b, prediction))
}

/// Manifold of a 2D oriented box (A) and a convex polygon (B): 1 or 2 points, the box
/// seen as a four-sided polygon (as Box2D's `b2MakeBox` does); edge behaviour as
/// [`contact_manifold_polygons`].
///
/// ```
/// use isect::d2::*;
/// use isect::query::contact_manifold_obb_polygon;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A triangle standing on a box with its tip 0.2 into the box's top: one point.
/// let slab = Obb::from_angle(Vec2::ZERO, Vec2::new(2.0, 0.5), 0.0)?; // top at y = 0.5
/// let spike = ConvexPolygon::new(&[Vec2::new(0.0, 0.3), Vec2::new(1.0, 2.0), Vec2::new(-1.0, 2.0)])?;
/// let m = contact_manifold_obb_polygon(&Pose::IDENTITY, &slab, &Pose::IDENTITY, &spike, 0.0)
///     .expect("the tip is in the box");
/// assert_eq!(m.points().len(), 1);
/// assert!((m.points()[0].depth - 0.2).abs() < 1e-6);
/// # Ok(())
/// # }
/// ```
pub fn contact_manifold_obb_polygon<R: Real>(
    pose_a: &Pose2<R>,
    a: &obb_2d::Obb<R>,
    pose_b: &Pose2<R>,
    b: &ConvexPolygon<R>,
    prediction: R,
) -> Option<Manifold<R::V2>>
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    if !valid_input(pose_a, pose_b, prediction) {
        return None;
    }
    let fa = BoxFeatures::of(a);
    let (ca, cb) = (fa.core(pose_a, a), Core2::polygon(pose_b, b, R::ZERO));
    core_manifold(&ca, &cb, prediction)
        .or_general(|| contact_manifold_convex(pose_a, a, pose_b, b, prediction))
}

/// A 2D box's corners and edge normals in its own (centred, rotated) frame.
struct BoxFeatures<R: Real> {
    vertices: [R::V2; 4],
    normals: [R::V2; 4],
}

impl<R: Real> BoxFeatures<R>
where
    R::V2: Vector<Pose = Pose2<R>>,
{
    /// The features of `o`'s frame.
    fn of(o: &obb_2d::Obb<R>) -> Self {
        let (hx, hy) = (o.half_extents().x(), o.half_extents().y());
        let v = |x: R, y: R| R::V2::new(x, y);
        let (o1, z) = (R::ONE, R::ZERO);
        Self {
            vertices: [v(-hx, -hy), v(hx, -hy), v(hx, hy), v(-hx, hy)],
            normals: [v(z, -o1), v(o1, z), v(z, o1), v(-o1, z)],
        }
    }

    /// `o` placed at `pose` as a sharp core.
    fn core(&self, pose: &Pose2<R>, o: &obb_2d::Obb<R>) -> Core2<'_, R> {
        Core2 {
            features: PolygonFeatures {
                vertices: &self.vertices,
                normals: &self.normals,
            },
            pose: pose.mul(&Pose2 {
                rotation: o.rotation(),
                translation: o.center(),
            }),
            radius: R::ZERO,
            size: o.half_extents().max_element(),
        }
    }
}

/// A polygonal core as the clipper sees it: its features in its own frame, that
/// frame's pose, the radius it is grown by (0 for a sharp polygon) and its size (the
/// largest coordinate magnitude, for tolerances).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Core2<'a, R: Real> {
    pub features: PolygonFeatures<'a, R::V2>,
    pub pose: Pose2<R>,
    pub radius: R,
    pub size: R,
}

impl<'a, R: Real> Core2<'a, R> {
    /// A polygon placed at `pose`, grown by `radius`.
    pub fn polygon(pose: &Pose2<R>, p: &'a ConvexPolygon<R>, radius: R) -> Self {
        Core2 {
            features: PolygonFeatures {
                vertices: p.vertices(),
                normals: p.normals(),
            },
            pose: *pose,
            radius,
            size: p.scale(),
        }
    }
}

/// What the cores say about a pair.
pub(crate) enum CoreManifold<V: Vector> {
    /// Farther apart than `prediction`.
    Apart,
    /// The manifold.
    Found(Manifold<V>),
    /// Not decided here (clipping kept no point, or two corners could not be proved
    /// the closest pair): the caller's general path answers.
    Undecided,
}

impl<V: Vector> CoreManifold<V> {
    /// The answer, `general()` (the caller's general path) when undecided.
    pub(crate) fn or_general(
        self,
        general: impl FnOnce() -> Option<Manifold<V>>,
    ) -> Option<Manifold<V>> {
        match self {
            CoreManifold::Apart => None,
            CoreManifold::Found(m) => Some(m),
            CoreManifold::Undecided => general(),
        }
    }
}

/// The manifold of two polygonal cores grown by their radii ([`Core2`]).
#[inline]
pub(crate) fn core_manifold<R: Real>(
    a: &Core2<'_, R>,
    b: &Core2<'_, R>,
    prediction: R,
) -> CoreManifold<R::V2>
where
    R::V2: Vector<Pose = Pose2<R>>,
{
    let pose_ab = a.pose.inv_mul(&b.pose);
    let reach = Reach::new([a.size, b.size], a.radius + b.radius, &pose_ab, prediction);
    core_manifold_posed(a, b, &pose_ab, &reach)
}

/// How far apart two cores may be and still touch: `prediction` widened by their
/// touch tolerance ([`clip_3d::touch_limit`]), and the size that tolerance is taken
/// of (the larger core, B's offset in A's frame and the radii).
struct Reach<R> {
    prediction: R,
    scale: R,
}

impl<R: Real> Reach<R> {
    /// The reach of cores of `sizes` grown by `radii` in all, B at `pose_ab` in A's
    /// frame.
    #[inline(always)]
    fn new(sizes: [R; 2], radii: R, pose_ab: &Pose2<R>, prediction: R) -> Self {
        let scale = sizes[0].max(sizes[1]) + pose_ab.translation.abs().max_element() + radii;
        Reach {
            prediction: clip_3d::touch_limit(prediction, scale),
            scale,
        }
    }
}

/// [`core_manifold`] with B's frame in A's, `pose_ab`, and the pair's [`Reach`]
/// already known.
fn core_manifold_posed<R: Real>(
    a: &Core2<'_, R>,
    b: &Core2<'_, R>,
    pose_ab: &Pose2<R>,
    reach: &Reach<R>,
) -> CoreManifold<R::V2>
where
    R::V2: Vector<Pose = Pose2<R>>,
{
    let (prediction, scale) = (reach.prediction, reach.scale);
    let radii = a.radius + b.radius;
    let limit = prediction + radii;
    let size = a.size.max(b.size);
    let Some(choice) = choose_reference(a, b, pose_ab, limit, size) else {
        return CoreManifold::Apart;
    };
    let (rf, inc) = if choice.reference_is_b {
        (b, a)
    } else {
        (a, b)
    };
    let pose_ri = &choice.pose_ri;
    let (offset, lying) = incident_surface(rf, inc, pose_ri, &choice);
    if choice.separation > R::ZERO && radii > R::ZERO {
        let closest = closest_features(rf, inc, pose_ri, &choice);
        if !lying || closest.corner_to_corner() {
            return closest_points_manifold(rf, inc, &choice, closest, prediction, scale);
        }
    }
    // The incident edge moved out to its shape's surface, then clipped.
    let pose_surface = Pose2 {
        rotation: pose_ri.rotation,
        translation: pose_ri.translation + offset,
    };
    let (points, len) = clip_2d::clip_incident_edge(
        rf.features,
        choice.reference,
        inc.features,
        choice.incident,
        &pose_surface,
        prediction + rf.radius,
    );
    let Some((points, len)) = (if lying {
        Some((points, len))
    } else {
        deepest_end(points, len)
    }) else {
        return CoreManifold::Undecided;
    };
    if len == 0 {
        return CoreManifold::Undecided;
    }
    let contact = FaceContact2 {
        points,
        len,
        normal: rf.features.normals[choice.reference],
        pose_ref: rf.pose,
        radius_ref: rf.radius,
        reference_is_b: choice.reference_is_b,
        reference: choice.reference as u32,
        incident: choice.incident as u32,
    };
    CoreManifold::Found(contact.world_manifold())
}

/// How the incident core's edge moves out to its shape's surface (reference frame),
/// and whether the whole edge may touch: along the edge's own normal when the core is
/// sharp or the edge lies within [`FACE_ALIGN_COS`] of anti-parallel to the reference
/// edge (a capsule lying flat); else along the reference normal, and only its deepest
/// end touches (a tilted capsule's end cap).
fn incident_surface<R: Real>(
    rf: &Core2<'_, R>,
    inc: &Core2<'_, R>,
    pose_ri: &Pose2<R>,
    choice: &Reference2<R>,
) -> (R::V2, bool)
where
    R::V2: Vector<Pose = Pose2<R>>,
{
    if inc.radius == R::ZERO {
        return (R::V2::ZERO, true);
    }
    let normal = rf.features.normals[choice.reference];
    let inc_normal = pose_ri.transform_vector(inc.features.normals[choice.incident]);
    match -normal.dot(inc_normal) >= R::from_f64(FACE_ALIGN_COS) {
        true => (inc_normal * inc.radius, true),
        false => (-normal * inc.radius, false),
    }
}

/// The deepest of the clipped points alone, when it is an end of the incident edge
/// (a clipped end's cap point would lie inside the shape); `None` otherwise.
fn deepest_end<V: Vector>(
    points: [ClipPoint<V>; 2],
    len: usize,
) -> Option<([ClipPoint<V>; 2], usize)> {
    let deepest = if len > 1 && points[1].depth > points[0].depth {
        points[1]
    } else {
        points[0]
    };
    (len > 0 && deepest.id & CLIPPED_2D == 0).then_some(([deepest; 2], 1))
}

/// The manifold of two 2D capsules: when their segments are apart and not parallel,
/// the single point between the segments' closest points (exact, with no SAT);
/// crossing or parallel segments take [`core_manifold`] (SAT and clipping).
pub(crate) fn capsules_manifold<R: Real>(
    pa: &Pose2<R>,
    a: &Capsule<R::V2>,
    pb: &Pose2<R>,
    b: &Capsule<R::V2>,
    prediction: R,
) -> Option<CoreManifold<R::V2>>
where
    R::V2: Vector<Pose = Pose2<R>>,
{
    let (sa, sb) = (world_segment(pa, a), world_segment(pb, b));
    if segments_cross(&sa, &sb) {
        return None;
    }
    let (s, t, on_a, on_b) = closest_points_segment_segment(&sa, &sb);
    let gap = on_b - on_a;
    let distance = gap.length();
    let scale = max_abs(&[sa.a, sa.b, sb.a, sb.b]);
    let radii = a.radius() + b.radius();
    let prediction = clip_3d::touch_limit(prediction, scale + radii);
    if distance > radii + prediction {
        return Some(CoreManifold::Apart);
    }
    let crossing = !(distance > crate::math::tolerance::eps::<R>(clip_3d::TOUCH_ULPS) * scale);
    if crossing || parallel_axis(&sa, &sb).is_some() {
        return None;
    }
    let n = gap / distance;
    let id = FeatureId::new(
        false,
        segment_feature(s, sa.b - sa.a, n),
        segment_feature(t, sb.b - sb.a, -n),
        CORNER_2D,
    );
    let contact = Contact {
        normal: n,
        depth: radii - distance,
        point_a: on_a + n * a.radius(),
        point_b: on_b - n * b.radius(),
        status: Status::Converged,
    };
    Some(CoreManifold::Found(Manifold::single(&contact, id)))
}

/// True when each segment's ends lie strictly on both sides of the other's line (a
/// cheap first test; touching and near-crossing segments are left to the closest
/// points).
fn segments_cross<V: Vector2>(s1: &Segment<V>, s2: &Segment<V>) -> bool {
    let (d1, d2) = (s1.b - s1.a, s2.b - s2.a);
    let zero = V::Scalar::ZERO;
    let sides = |d: V, o: V, p: V, q: V| d.perp_dot(p - o) * d.perp_dot(q - o) < zero;
    sides(d1, s1.a, s2.a, s2.b) && sides(d2, s2.a, s1.a, s1.b)
}

/// The feature of a segment (a two-sided core) at parameter `f` facing `n`:
/// [`CORNER_2D`]` | end` at an end, else the side (0: the side of `(d.y, −d.x)`).
fn segment_feature<V: Vector2>(f: V::Scalar, d: V, n: V) -> u32 {
    if f == V::Scalar::ZERO {
        CORNER_2D
    } else if f == V::Scalar::ONE {
        CORNER_2D | 1
    } else {
        (V::new(d.y(), -d.x()).dot(n) < V::Scalar::ZERO) as u32
    }
}

/// The reference and incident edges of two cores.
struct Reference2<R: Real> {
    /// The cores' separation along the reference edge's normal (`< 0` overlapping).
    separation: R,
    /// The incident core's frame in the reference core's.
    pose_ri: Pose2<R>,
    reference_is_b: bool,
    reference: usize,
    incident: usize,
}

/// The SAT edge of largest separation (A's unless B's is larger by
/// [`REFERENCE_BIAS`] of `size`) and the other core's most anti-parallel edge; `None`
/// when an edge separates the cores by more than `limit` (or for NaN).
#[inline]
fn choose_reference<R: Real>(
    a: &Core2<'_, R>,
    b: &Core2<'_, R>,
    pose_ab: &Pose2<R>,
    limit: R,
    size: R,
) -> Option<Reference2<R>>
where
    R::V2: Vector<Pose = Pose2<R>>,
{
    let ((sep_a, ea), (sep_b, eb)) = clip_2d::separations(a.features, b.features, pose_ab, limit)?;
    let reference_is_b = sep_b > sep_a + R::from_f64(REFERENCE_BIAS) * size;
    // B's frame is inverted only when B's edge is the reference.
    let (rf, e, inc, pose_ri, separation) = if reference_is_b {
        (b, eb, a, pose_ab.inverse(), sep_b)
    } else {
        (a, ea, b, *pose_ab, sep_a)
    };
    let normal = rf.features.normals[e];
    let incident = clip_2d::incident_edge(inc.features, pose_ri.inverse_transform_vector(normal));
    Some(Reference2 {
        separation,
        pose_ri,
        reference_is_b,
        reference: e,
        incident,
    })
}

/// The closest points of the reference and incident edges (reference frame), and the
/// vertex each lies at, if any.
struct Closest<V> {
    on_ref: V,
    on_inc: V,
    ref_feature: u32,
    inc_feature: u32,
}

impl<V> Closest<V> {
    /// Both points are corners (as Box2D's `b2CollidePolygons` tests).
    fn corner_to_corner(&self) -> bool {
        self.ref_feature & CORNER_2D != 0 && self.inc_feature & CORNER_2D != 0
    }
}

/// The closest points of the reference and incident edges of two cores that are
/// apart; each feature is [`CORNER_2D`]` | vertex` at an end, else the edge's index.
fn closest_features<R: Real>(
    rf: &Core2<'_, R>,
    inc: &Core2<'_, R>,
    pose_ri: &Pose2<R>,
    choice: &Reference2<R>,
) -> Closest<R::V2>
where
    R::V2: Vector<Pose = Pose2<R>>,
{
    let next = |i: usize, n: usize| if i + 1 == n { 0 } else { i + 1 };
    let (rv, iv) = (rf.features.vertices, inc.features.vertices);
    let (r0, r1) = (choice.reference, next(choice.reference, rv.len()));
    let (i0, i1) = (choice.incident, next(choice.incident, iv.len()));
    let reference = Segment {
        a: rv[r0],
        b: rv[r1],
    };
    let incident = Segment {
        a: pose_ri.transform_point(iv[i0]),
        b: pose_ri.transform_point(iv[i1]),
    };
    let (s, t, on_ref, on_inc) = closest_points_segment_segment(&reference, &incident);
    let feature = |f: R, lo: usize, hi: usize| match f {
        f if f == R::ZERO => CORNER_2D | lo as u32,
        f if f == R::ONE => CORNER_2D | hi as u32,
        _ => lo as u32,
    };
    Closest {
        on_ref,
        on_inc,
        ref_feature: feature(s, r0, r1),
        inc_feature: feature(t, i0, i1),
    }
}

/// The single-point manifold of two cores that are apart, from their closest points:
/// `Apart` beyond `prediction`, `Undecided` unless every vertex of each core lies
/// behind its point along the points' direction (which proves them the closest points
/// of the whole cores, not only of the two edges).
fn closest_points_manifold<R: Real>(
    rf: &Core2<'_, R>,
    inc: &Core2<'_, R>,
    choice: &Reference2<R>,
    c: Closest<R::V2>,
    prediction: R,
    scale: R,
) -> CoreManifold<R::V2>
where
    R::V2: Vector<Pose = Pose2<R>>,
{
    let gap = c.on_inc - c.on_ref;
    let distance = gap.length();
    let tol = crate::math::tolerance::eps::<R>(clip_3d::TOUCH_ULPS) * scale;
    if !(distance > tol) {
        return CoreManifold::Undecided;
    }
    let n = gap / distance;
    let pose_ir = rf.pose.inv_mul(&inc.pose);
    let top_ref = rf
        .features
        .vertices
        .iter()
        .fold(R::NEG_INFINITY, |m, v| m.max(n.dot(*v)));
    let n_inc = pose_ir.inverse_transform_vector(n);
    let low_inc = inc
        .features
        .vertices
        .iter()
        .fold(R::INFINITY, |m, v| m.min(n_inc.dot(*v)));
    let low_inc = low_inc + n.dot(pose_ir.translation);
    let proved = top_ref <= n.dot(c.on_ref) + tol && low_inc >= n.dot(c.on_inc) - tol;
    if !proved {
        return CoreManifold::Undecided;
    }
    let depth = rf.radius + inc.radius - distance;
    if !(depth >= -prediction) {
        return CoreManifold::Apart;
    }
    let on_ref = rf.pose.transform_point(c.on_ref + n * rf.radius);
    let on_inc = rf.pose.transform_point(c.on_inc - n * inc.radius);
    let world_n = rf.pose.transform_vector(n);
    let (point_a, point_b, normal) = if choice.reference_is_b {
        (on_inc, on_ref, -world_n)
    } else {
        (on_ref, on_inc, world_n)
    };
    let id = FeatureId::new(
        choice.reference_is_b,
        c.ref_feature,
        c.inc_feature,
        CORNER_2D,
    );
    let contact = Contact {
        normal,
        depth,
        point_a,
        point_b,
        status: Status::Converged,
    };
    CoreManifold::Found(Manifold::single(&contact, id))
}

/// Bit set in a feature of a closest-points contact ([`FeatureId::reference`] or
/// [`FeatureId::incident`]) when it is a vertex (the rest is the vertex's index, else
/// the edge's), and its [`FeatureId::point`].
pub const CORNER_2D: u32 = 1 << 30;

/// The clipped points of two cores (on the incident surface), in the reference core's frame: what
/// [`FaceContact2::world_manifold`] turns into the answer. Kept small so that the
/// [`Manifold`] is written once, in place, rather than built locally and copied
/// through `transformed` and the `Option` layers.
struct FaceContact2<R: Real> {
    /// The clipped incident points (`len` of them), reference frame, on the cores.
    points: [clip_2d::ClipPoint<R::V2>; 2],
    len: usize,
    /// The reference edge's outward normal, reference frame.
    normal: R::V2,
    /// The reference core's pose.
    pose_ref: Pose2<R>,
    /// The radius the reference core is grown by.
    radius_ref: R,
    reference_is_b: bool,
    reference: u32,
    incident: u32,
}

impl<R: Real> FaceContact2<R>
where
    R::V2: Vector<Pose = Pose2<R>>,
{
    /// The manifold in world space (its unused slots left empty).
    #[inline(always)]
    fn world_manifold(&self) -> Manifold<R::V2> {
        let n = if self.reference_is_b {
            -self.normal
        } else {
            self.normal
        };
        let normal = self.pose_ref.transform_vector(n);
        let second = if self.len > 1 {
            self.world_point(&self.points[1])
        } else {
            Manifold::<R::V2>::EMPTY_POINT
        };
        Manifold::pair(
            normal,
            [self.world_point(&self.points[0]), second],
            self.len,
        )
    }

    /// A clipped point (on the incident surface) and its projection on the
    /// reference surface, in world space.
    fn world_point(&self, p: &clip_2d::ClipPoint<R::V2>) -> ManifoldPoint<R::V2> {
        let depth = p.depth + self.radius_ref;
        let on_ref = self.pose_ref.transform_point(p.point + self.normal * depth);
        let on_inc = self.pose_ref.transform_point(p.point);
        let (point_a, point_b) = if self.reference_is_b {
            (on_inc, on_ref)
        } else {
            (on_ref, on_inc)
        };
        ManifoldPoint {
            point_a,
            point_b,
            depth,
            id: FeatureId::new(self.reference_is_b, self.reference, self.incident, p.id),
        }
    }
}
