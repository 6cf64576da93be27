//! Manifolds of 3D boxes and polyhedra by the separating-axis test and clipping, as
//! Bullet and Jolt do (algorithm and references in [`crate::algo::clip_3d`]); the 2D
//! kinds are in [`super::polygons_2d`].
//!
//! Face contacts: the reference face is the SAT face of largest separation (A's unless
//! B's is larger by [`clip_3d::REFERENCE_BIAS`] of the size), the incident face the other
//! shape's face most anti-parallel to it, clipped to the reference face's side planes;
//! points deeper than `−prediction` below the reference face are kept, and in 3D
//! reduced to four. Edge–edge contacts give one point (the closest points of the two
//! edges). When the SAT axis is an edge pair that is apart, or clipping keeps no
//! point, the answer is [`contact`]'s single point (GJK/EPA). Any axis separating the
//! shapes by more than `prediction` gives `None`; `prediction` is widened by
//! [`clip_3d::TOUCH_ULPS`] machine epsilons of the shapes' size and offset, so exactly
//! touching shapes whose poses round apart still touch (depth ≈ 0).
//!
//! Because of the reference-face preference, the reported depth is the SAT depth of
//! the chosen feature: at least the minimum penetration, and at most
//! `REFERENCE_BIAS` (or `EDGE_BIAS`) times the shapes' size above it; swapping A and
//! B mirrors the answer except within that band, where each order prefers its own A.
//!
//! Work is done in the reference shape's frame; answers are in world space. No
//! tolerances beyond those of [`crate::algo::clip_3d`].

// `!(x > y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
use super::{contact_manifold_convex, valid_input, FeatureId, Manifold, EDGE_EDGE};
use crate::algo::clip_3d::{self, Axis, ClipBuffer, ClipVertex, Feature, FixedClipBuffer};
use crate::algo::gjk::{GjkVector, Status};
use crate::algo::hull_sat;
use crate::algo::support::SupportMap;
use crate::math::{Isometry, Pose3, Real, Vector, Vector3};
use crate::query::contact::contact;
use crate::query::distance::closest_points_segment_segment;
use crate::shape::{obb_3d, ConvexPolyhedron, Segment};

/// A fixed-capacity buffer of clip vertices for box faces (4 incident vertices plus
/// one per side plane).
type BoxBuf<R> = FixedClipBuffer<<R as Real>::V3, 8>;

/// Manifold of two oriented boxes: up to 4 points for face contacts, 1 for edge–edge.
/// `None` beyond `prediction` or for NaN poses or `prediction`; exactly touching
/// boxes give depth 0, boxes within `prediction` negative depths. Zero-extent boxes
/// are fine (their faces have zero area).
///
/// ```
/// use isect::d3::*;
/// use isect::query::contact_manifold_obb_3d;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A unit cube resting 0.1 deep on a wide slab: a face contact of 4 points.
/// let slab = Obb::new(Vec3::ZERO, Vec3::new(5.0, 0.5, 5.0), Quat::IDENTITY)?;
/// let cube = Obb::new(Vec3::ZERO, Vec3::splat(0.5), Quat::IDENTITY)?;
/// let on_top = Pose::from_translation(Vec3::new(0.0, 0.9, 0.0));
/// let m = contact_manifold_obb_3d(&Pose::IDENTITY, &slab, &on_top, &cube, 0.0).unwrap();
/// assert_eq!(m.points().len(), 4);
/// assert!((m.normal - Vec3::Y).length() < 1e-6);
/// assert!(m.points().iter().all(|p| (p.depth - 0.1).abs() < 1e-5));
/// # Ok(())
/// # }
/// ```
pub fn contact_manifold_obb_3d<R: Real>(
    pose_a: &Pose3<R>,
    a: &obb_3d::Obb<R>,
    pose_b: &Pose3<R>,
    b: &obb_3d::Obb<R>,
    prediction: R,
) -> Option<Manifold<R::V3>>
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    if !valid_input(pose_a, pose_b, prediction) {
        return None;
    }
    let wa = pose_a.mul(&Pose3::new(a.center(), a.rotation()));
    let wb = pose_b.mul(&Pose3::new(b.center(), b.rotation()));
    let pose_ab = wa.inv_mul(&wb);
    let (ha, hb) = (a.half_extents(), b.half_extents());
    let size = ha.max_element().max(hb.max_element());
    let offset = pose_ab.translation.abs().max_element();
    let prediction = clip_3d::touch_limit(prediction, size + offset);
    let (fa, fb, edge) = clip_3d::box_box_axes(ha, hb, &pose_ab, prediction)?;
    let axis = clip_3d::choose_axis(fa, fb, edge, size, prediction)?;
    let m = match axis.feature {
        Feature::FaceA(f) => box_face_manifold(ha, hb, &pose_ab, f, false, prediction, size)
            .map(|m| m.transformed(&wa)),
        Feature::FaceB(f) => {
            box_face_manifold(hb, ha, &pose_ab.inverse(), f, true, prediction, size)
                .map(|m| m.transformed(&wb))
        }
        Feature::Edges(i, j) => {
            let ia = clip_3d::box_support_edge(i, axis.normal);
            let ib = clip_3d::box_support_edge(j, pose_ab.inverse_transform_vector(-axis.normal));
            let ends = clip_3d::box_edge(hb, ib);
            let eb = (
                pose_ab.transform_point(ends.0),
                pose_ab.transform_point(ends.1),
            );
            let id = edge_id(ia, ib);
            let m = edge_manifold(clip_3d::box_edge(ha, ia), eb, &axis, id);
            let m = m.map(|m| m.transformed(&wa));
            return m.or_else(|| fallback(pose_a, a, pose_b, b, prediction, id));
        }
    };
    m.or_else(|| contact_manifold_convex(pose_a, a, pose_b, b, prediction))
}

/// The id of an edge–edge contact.
fn edge_id(ia: usize, ib: usize) -> FeatureId {
    FeatureId::new(false, ia as u32, ib as u32, EDGE_EDGE)
}

/// [`contact`]'s single point with the id `id`.
fn fallback<V, A, B>(
    pose_a: &V::Pose,
    a: &A,
    pose_b: &V::Pose,
    b: &B,
    prediction: V::Scalar,
    id: FeatureId,
) -> Option<Manifold<V>>
where
    V: GjkVector,
    A: SupportMap<V>,
    B: SupportMap<V>,
{
    contact(pose_a, a, pose_b, b, prediction).map(|c| Manifold::single(&c, id))
}

/// The one-point manifold of two overlapping edges (in A's frame), from their closest
/// points; `None` when the SAT axis is apart (the caller asks GJK, which measures the
/// true distance of the edges' end regions).
fn edge_manifold<V: Vector>(
    ea: (V, V),
    eb: (V, V),
    axis: &Axis<V>,
    id: FeatureId,
) -> Option<Manifold<V>> {
    if axis.separation > V::Scalar::ZERO {
        return None;
    }
    let sa = Segment { a: ea.0, b: ea.1 };
    let sb = Segment { a: eb.0, b: eb.1 };
    let (_, _, pa, pb) = closest_points_segment_segment(&sa, &sb);
    let mut m = Manifold::new(axis.normal, Status::Converged);
    m.push(pa, pb, -axis.separation, id);
    Some(m)
}

/// Face manifold of two boxes in the reference box's frame: `hr` the reference box,
/// `hi` the incident one, `pose_ri` mapping the incident frame into the reference's.
fn box_face_manifold<R: Real>(
    hr: R::V3,
    hi: R::V3,
    pose_ri: &Pose3<R>,
    face: usize,
    reference_is_b: bool,
    prediction: R,
    size: R,
) -> Option<Manifold<R::V3>> {
    let (ref_face, _) = clip_3d::box_face(hr, face);
    let axis = face / 2;
    let sign = if face % 2 == 1 { -R::ONE } else { R::ONE };
    let n = R::V3::unit_axis(axis) * sign;
    let inc_face = clip_3d::box_incident_face(pose_ri.inverse_transform_vector(n));
    let (corners, ids) = clip_3d::box_face(hi, inc_face);
    let mut poly = BoxBuf::<R>::default();
    for (c, id) in corners.into_iter().zip(ids) {
        poly.push(ClipVertex {
            point: pose_ri.transform_point(c),
            id,
            edge: id,
        });
    }
    let clip = FaceClip {
        face: &ref_face,
        normal: n,
        offset: hr.get(axis),
        id: FeatureId::new(reference_is_b, face as u32, inc_face as u32, 0),
    };
    face_manifold(
        &clip,
        &mut poly,
        &mut BoxBuf::<R>::default(),
        prediction,
        size,
    )
}

/// A reference face in its shape's frame.
pub(super) struct FaceClip<'a, V: Vector> {
    pub(super) face: &'a [V],
    pub(super) normal: V,
    pub(super) offset: V::Scalar,
    pub(super) id: FeatureId,
}

/// Clips `poly` (incident face, reference frame) to the reference face, keeps the
/// points within `prediction` and reduces them to four; `None` when none is left.
fn face_manifold<V: Vector3, B: ClipBuffer<V>>(
    clip: &FaceClip<'_, V>,
    poly: &mut B,
    scratch: &mut B,
    prediction: V::Scalar,
    size: V::Scalar,
) -> Option<Manifold<V>> {
    clip_3d::clip_to_face(poly, scratch, clip.face, clip.normal);
    let depth = |p: V| clip.offset - clip.normal.dot(p);
    poly.retain(|v| depth(v.point) >= -prediction);
    face_points(clip, poly, size)
}

/// The manifold of the clipped points `poly` below the reference face of `clip`
/// (reference frame): at most four of them (the deepest, then the widest spread).
/// `None` when `poly` is empty.
pub(super) fn face_points<V: Vector3>(
    clip: &FaceClip<'_, V>,
    poly: &[ClipVertex<V>],
    size: V::Scalar,
) -> Option<Manifold<V>> {
    if poly.is_empty() {
        return None;
    }
    let depth = |p: V| clip.offset - clip.normal.dot(p);
    // Also for four or fewer points: it drops duplicates (degenerate faces).
    let (chosen, len) = clip_3d::reduce_to_four(poly, depth, clip.normal, size);
    let flip = clip.id.reference_is_b;
    let mut m = Manifold::new(
        if flip { -clip.normal } else { clip.normal },
        Status::Converged,
    );
    for &i in &chosen[..len] {
        let (q, d) = (poly[i].point, depth(poly[i].point));
        let on_ref = q + clip.normal * d;
        let (pa, pb) = if flip { (q, on_ref) } else { (on_ref, q) };
        m.push(
            pa,
            pb,
            d,
            FeatureId {
                point: poly[i].id,
                ..clip.id
            },
        );
    }
    Some(m)
}

/// Manifold of two convex polyhedra: up to 4 points for face contacts, 1 for
/// edge–edge (edge pairs pruned on the Gauss map). `None` beyond `prediction` or for
/// NaN poses or `prediction`; touching gives depth 0, within `prediction` negative
/// depths. The SAT ([`hull_sat::polyhedra_axis`]) is O(F·V) for the faces (each
/// shape's vertices mapped into the other's frame once) and, walking B's Gauss map
/// along each arc of A, about O(E) edge pairs (O(E²) for flat polyhedra); hulls of
/// up to [`hull_sat::INLINE_POINTS`] vertices and planes, with small faces, allocate
/// nothing.
///
/// ```
/// use isect::d3::*;
/// use isect::query::contact_manifold_polyhedra;
///
/// # fn main() -> Result<(), ShapeError> {
/// // Two unit cubes as hulls of their corners, the second 0.2 into the first from above.
/// let corners: Vec<Vec3> = (0..8)
///     .map(|i| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32))
///     .collect();
/// let cube = ConvexPolyhedron::from_points(&corners)?;
/// let above = Pose::from_translation(Vec3::new(0.0, 0.8, 0.0));
/// let m = contact_manifold_polyhedra(&Pose::IDENTITY, &cube, &above, &cube, 0.0).unwrap();
/// assert_eq!(m.points().len(), 4);
/// assert!(m.points().iter().all(|p| (p.depth - 0.2).abs() < 1e-5));
/// # Ok(())
/// # }
/// ```
pub fn contact_manifold_polyhedra<R: Real>(
    pose_a: &Pose3<R>,
    a: &ConvexPolyhedron<R>,
    pose_b: &Pose3<R>,
    b: &ConvexPolyhedron<R>,
    prediction: R,
) -> Option<Manifold<R::V3>>
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    if !valid_input(pose_a, pose_b, prediction) {
        return None;
    }
    let pose_ab = pose_a.inv_mul(pose_b);
    let pose_ba = pose_ab.inverse();
    let size = max_abs(a.vertices()).max(max_abs(b.vertices()));
    let offset = pose_ab.translation.abs().max_element();
    let prediction = clip_3d::touch_limit(prediction, size + offset);
    let axis = hull_sat::polyhedra_axis(a, b, &pose_ab, &pose_ba, size, offset, prediction)?;
    let m = match axis.feature {
        Feature::FaceA(f) => hull_face_manifold(a, b, &pose_ab, f, false, prediction, size)
            .map(|m| m.transformed(pose_a)),
        Feature::FaceB(f) => hull_face_manifold(b, a, &pose_ba, f, true, prediction, size)
            .map(|m| m.transformed(pose_b)),
        Feature::Edges(i, j) => {
            let id = edge_id(i, j);
            let ends_a = clip_3d::hull_edge_ends(a, i, &Pose3::default());
            let ends_b = clip_3d::hull_edge_ends(b, j, &pose_ab);
            let m = edge_manifold(ends_a, ends_b, &axis, id);
            return m
                .map(|m| m.transformed(pose_a))
                .or_else(|| fallback(pose_a, a, pose_b, b, prediction, id));
        }
    };
    m.or_else(|| contact_manifold_convex(pose_a, a, pose_b, b, prediction))
}

/// The largest absolute coordinate of `points`.
pub(super) fn max_abs<V: Vector>(points: &[V]) -> V::Scalar {
    points
        .iter()
        .fold(V::Scalar::ZERO, |m, p| m.max(p.abs().max_element()))
}

/// Face manifold of two polyhedra in the reference one's frame (`pose_ri` maps the
/// incident frame into it).
fn hull_face_manifold<R: Real>(
    rf: &ConvexPolyhedron<R>,
    inc: &ConvexPolyhedron<R>,
    pose_ri: &Pose3<R>,
    face: usize,
    reference_is_b: bool,
    prediction: R,
    size: R,
) -> Option<Manifold<R::V3>> {
    let f = &rf.faces()[face];
    let n = f.normal();
    let n_inc = pose_ri.inverse_transform_vector(n);
    let (j, g) = inc
        .faces()
        .iter()
        .enumerate()
        .fold((0, &inc.faces()[0]), |best, (j, g)| {
            if g.normal().dot(n_inc) < best.1.normal().dot(n_inc) {
                (j, g)
            } else {
                best
            }
        });
    let clip = FaceClip {
        face: &[],
        normal: n,
        offset: f.plane().d(),
        id: FeatureId::new(reference_is_b, face as u32, j as u32, 0),
    };
    let (ref_ids, inc_ids) = (f.vertex_indices(), g.vertex_indices());
    let incident = |poly: &mut dyn FnMut(ClipVertex<R::V3>)| {
        for &i in inc_ids {
            poly(ClipVertex {
                point: pose_ri.transform_point(inc.vertices()[i]),
                id: i as u32,
                edge: i as u32,
            });
        }
    };
    // Small faces (all of a typical hull's) clip on the stack: an n-gon clipped by k
    // planes keeps at most n + k vertices.
    if ref_ids.len() <= SMALL_FACE && inc_ids.len() + ref_ids.len() <= 2 * SMALL_FACE {
        let mut corners = [R::V3::ZERO; SMALL_FACE];
        for (c, &i) in corners.iter_mut().zip(ref_ids) {
            *c = rf.vertices()[i];
        }
        let mut poly = SmallFaceBuf::<R>::default();
        incident(&mut |v| poly.push(v));
        let clip = FaceClip {
            face: &corners[..ref_ids.len()],
            ..clip
        };
        let mut scratch = SmallFaceBuf::<R>::default();
        return face_manifold(&clip, &mut poly, &mut scratch, prediction, size);
    }
    let corners: Vec<R::V3> = ref_ids.iter().map(|&i| rf.vertices()[i]).collect();
    let mut poly = Vec::with_capacity(inc_ids.len() + ref_ids.len());
    incident(&mut |v| poly.push(v));
    let clip = FaceClip {
        face: &corners,
        ..clip
    };
    face_manifold(&clip, &mut poly, &mut Vec::new(), prediction, size)
}

/// The most corners a reference face may have for the stack clip buffers.
const SMALL_FACE: usize = 8;

/// A clip buffer for small faces (see [`SMALL_FACE`]).
type SmallFaceBuf<R> = FixedClipBuffer<<R as Real>::V3, { 2 * SMALL_FACE }>;

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DQuat, DVec3};

    /// A prism of `sides` sides, radius `r`, from z = 0 to z = 1.
    fn prism(sides: usize, r: f64) -> ConvexPolyhedron<f64> {
        let ring = (0..sides).map(|k| {
            let t = k as f64 * core::f64::consts::TAU / sides as f64;
            DVec3::new(r * t.cos(), r * t.sin(), 0.0)
        });
        let points: Vec<DVec3> = ring.flat_map(|p| [p, p + DVec3::Z]).collect();
        ConvexPolyhedron::from_points(&points).unwrap()
    }

    // Faces beyond the stack buffers' size clip as the small ones do: a box 0.1 deep
    // on a 12-gon cap, either shape as A (the cap's face the reference, then the
    // box's), and the cap 0.1 deep under a wide box (the cap's face incident, 16 clip
    // vertices at most) give four points 0.1 deep.
    #[test]
    fn large_faces_clip() {
        let (cap, cube) = (prism(12, 2.0), prism(4, 0.5));
        let corners = cap.faces().iter().map(|f| f.vertex_indices().len()).max();
        assert_eq!(corners, Some(12));
        let on_top = Pose3::new(DVec3::new(0.0, 0.0, 0.9), DQuat::from_rotation_z(0.3));
        let under = Pose3::new(DVec3::new(0.0, 0.0, -0.9), DQuat::IDENTITY);
        let big = prism(4, 3.0);
        let origin = Pose3::default();
        for (pa, a, pb, b) in [
            (&origin, &cap, &on_top, &cube),
            (&on_top, &cube, &origin, &cap),
            (&origin, &big, &under, &cap),
        ] {
            let m = contact_manifold_polyhedra(pa, a, pb, b, 0.0).unwrap();
            assert_eq!(m.points().len(), 4);
            assert!(m.points().iter().all(|p| (p.depth - 0.1).abs() < 1e-9));
            assert!((m.normal.z.abs() - 1.0).abs() < 1e-12);
        }
    }
}
