//! Capsule–box contact in closed form, in the box's frame: a segment over one face
//! (both ends beyond the same face, within the box's extent on the other axes) is
//! nearest the box at its end nearer that face (its middle when it lies level within
//! [`FLAT_ULPS`]), a capsule resting on a box; and once the capsule's segment meets the
//! box, the minimum translation of the segment out of the box by the separating-axis
//! test, grown by the capsule's radius.
//!
//! The segment's Minkowski difference with a box is a polytope whose face normals are
//! the box's face normals and the cross products of the segment with the box's edges
//! (in 2D, the segment's own normal), so the smallest overlap of the two along those
//! axes is the exact penetration of the cores (Ericson, *Real-Time Collision
//! Detection*, 4.4 for the separating-axis test, 5.3.3 for the axes of a segment and a
//! box), and the capsule's is that plus its radius, along the same axis.
//!
//! The witnesses are a point of each shape's support set along the axis with
//! `point_a − point_b = depth · normal` (such a pair exists along the axis of least
//! overlap): for a face axis, the segment's deeper end (the middle of its part over
//! the face when it lies within [`FLAT_ULPS`] of parallel to the face); for an edge
//! axis, the segment's point closest to the box edge the axis meets (in 2D, to the
//! box corner); each moved out by the radius.
//!
//! Tolerances: a segment within [`TOUCH_ULPS`] of the box counts as meeting it (the
//! closest-point path's normal would be rounding noise there); an edge axis wins only
//! when it overlaps less than the best face axis by [`FLAT_ULPS`] of the size (a level
//! segment's edge axes equal a face normal up to rounding, and their witness would be
//! chosen by the sign of a rounding error). The edge axes `d × e_k` are exact (the box's
//! edges are unit axes), so only a zero one is skipped.

use crate::algo::gjk::Status;
use crate::math::tolerance::eps;
use crate::math::{Real, Vector};
use crate::query::contact::Contact;
use crate::query::distance::{closest_points_segment_segment, segment_in_aabb};
use crate::shape::{Aabb, Segment};

/// A segment whose ends differ in depth along a face normal by at most this many
/// machine epsilons of the shapes' size lies flat on the face: its witness is the
/// middle of its part in the box rather than one end chosen by rounding.
pub const FLAT_ULPS: f64 = 64.0;

/// A segment within this many machine epsilons of the problem's scale from the other
/// shape counts as touching it: its contact comes from the separating axes, which
/// need no direction between closest points.
pub const TOUCH_ULPS: f64 = 64.0;

/// The touching distance of [`TOUCH_ULPS`] for a segment and a box (their largest
/// coordinate).
#[inline]
pub(crate) fn touch_distance<V: Vector>(s: &Segment<V>, b: &Aabb<V>) -> V::Scalar {
    eps::<V::Scalar>(TOUCH_ULPS) * size(s, b)
}

/// The largest coordinate of the segment and the box.
#[inline]
fn size<V: Vector>(s: &Segment<V>, b: &Aabb<V>) -> V::Scalar {
    s.a.abs()
        .max(s.b.abs())
        .max(b.min.abs())
        .max(b.max.abs())
        .max_element()
}

/// The contact of a capsule (segment `s` grown by `radius`) with box `b`, both in the
/// box's frame, when the segment meets the box (a separated segment gives a negative
/// core depth along a separating axis, which is still a lower bound of the gap; the
/// caller takes the closest-point path there). The normal runs from the capsule to
/// the box, `point_a − point_b = depth · normal`.
pub(crate) fn contact_segment_in_box<V: Vector>(
    s: &Segment<V>,
    b: &Aabb<V>,
    radius: V::Scalar,
) -> Contact<V> {
    let axis = min_overlap_axis(s, b);
    let core = deepest_point(s, b, &axis);
    let depth = axis.depth + radius;
    let point_a = core + axis.normal * radius;
    Contact {
        normal: axis.normal,
        depth,
        point_a,
        point_b: point_a - axis.normal * depth,
        status: Status::Converged,
    }
}

/// The parameter of the segment's point nearest the box and the squared distance,
/// when the segment lies over one face of the box (module docs); `None` otherwise,
/// for the general closest-point search.
pub(crate) fn over_face<V: Vector>(s: &Segment<V>, b: &Aabb<V>) -> Option<(V::Scalar, V::Scalar)> {
    let mut gaps = None;
    for i in 0..V::DIM {
        let (p, q, lo, hi) = (s.a.get(i), s.b.get(i), b.min.get(i), b.max.get(i));
        if p >= lo && p <= hi && q >= lo && q <= hi {
            continue;
        }
        let beyond = if p > hi && q > hi {
            (p - hi, q - hi)
        } else if p < lo && q < lo {
            (lo - p, lo - q)
        } else {
            return None;
        };
        if gaps.replace(beyond).is_some() {
            return None;
        }
    }
    let (gp, gq) = gaps?;
    let (t, gap) = if (gp - gq).abs() <= eps::<V::Scalar>(FLAT_ULPS) * size(s, b) {
        (V::Scalar::HALF, gp.min(gq))
    } else if gp < gq {
        (V::Scalar::ZERO, gp)
    } else {
        (V::Scalar::ONE, gq)
    };
    Some((t, gap * gap))
}

/// A candidate axis: the normal from the segment to the box, the overlap along it, and
/// the feature it comes from.
#[derive(Copy, Clone)]
struct Overlap<V: Vector> {
    normal: V,
    depth: V::Scalar,
    feature: Feature,
}

/// Where a candidate axis comes from.
#[derive(Copy, Clone)]
enum Feature {
    /// The normal of the box's faces across this axis.
    Face(usize),
    /// The segment crossed with the box's edges along this axis (3D), or the
    /// segment's own normal (2D, the axis index 2).
    Edge(usize),
}

impl<V: Vector> Overlap<V> {
    /// Keeps the candidate when it overlaps less (the first on a tie).
    #[inline]
    fn lower(&mut self, depth: V::Scalar, normal: V, feature: Feature) {
        if depth < self.depth {
            *self = Overlap {
                normal,
                depth,
                feature,
            };
        }
    }
}

/// The axis of least overlap of the segment and the box (an edge axis only when it
/// beats the faces by [`FLAT_ULPS`] of the size).
fn min_overlap_axis<V: Vector>(s: &Segment<V>, b: &Aabb<V>) -> Overlap<V> {
    let mut face = Overlap {
        normal: V::unit_axis(0),
        depth: V::Scalar::INFINITY,
        feature: Feature::Face(0),
    };
    for i in 0..V::DIM {
        let (lo, hi) = (s.a.get(i).min(s.b.get(i)), s.a.get(i).max(s.b.get(i)));
        let e = V::unit_axis(i);
        face.lower(hi - b.min.get(i), e, Feature::Face(i));
        face.lower(b.max.get(i) - lo, -e, Feature::Face(i));
    }
    let mut edge = Overlap {
        depth: face.depth - eps::<V::Scalar>(FLAT_ULPS) * size(s, b),
        ..face
    };
    let (centre, half) = (b.center(), b.half_extents());
    for (k, n) in edge_axes(s.b - s.a) {
        let along = (s.a.dot(n) + s.b.dot(n)) * V::Scalar::HALF;
        let (mid, reach) = (centre.dot(n), half.dot(n.abs()));
        edge.lower(along - (mid - reach), n, Feature::Edge(k));
        edge.lower(mid + reach - along, -n, Feature::Edge(k));
    }
    match edge.feature {
        Feature::Edge(_) => edge,
        Feature::Face(_) => face,
    }
}

/// The unit axes across the segment direction `d` and the box's edges, each with the
/// edge axis it comes from: `d × e_k` in 3D (skipped when zero: `d` along `e_k`),
/// `d`'s normal in 2D (index 2); none for a zero `d`.
fn edge_axes<V: Vector>(d: V) -> impl Iterator<Item = (usize, V)> {
    let axis = move |k: usize| {
        let n = if V::DIM == 2 {
            V::ZERO.with(0, d.get(1)).with(1, -d.get(0))
        } else {
            // d × e_k: the other two components, turned (exact).
            let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
            V::ZERO.with(k1, d.get(k2)).with(k2, -d.get(k1))
        };
        let n_sq = n.length_squared();
        (n_sq > V::Scalar::ZERO).then(|| (k, n * (V::Scalar::ONE / n_sq.sqrt())))
    };
    let ks = if V::DIM == 2 { 2..3 } else { 0..3 };
    ks.filter_map(axis)
}

/// The segment's point deepest into the box along `axis` (see the module docs).
fn deepest_point<V: Vector>(s: &Segment<V>, b: &Aabb<V>, axis: &Overlap<V>) -> V {
    let n = axis.normal;
    // The box's feature deepest towards the segment: per axis the side `n` faces away.
    let corner = (0..V::DIM).fold(V::ZERO, |c, i| {
        let side = if n.get(i) > V::Scalar::ZERO {
            b.min.get(i)
        } else {
            b.max.get(i)
        };
        c.with(i, side)
    });
    match axis.feature {
        Feature::Edge(k) if k < V::DIM => {
            let edge = Segment {
                a: corner.with(k, b.min.get(k)),
                b: corner.with(k, b.max.get(k)),
            };
            closest_points_segment_segment(s, &edge).2
        }
        Feature::Edge(_) => s.closest_point(corner).0,
        Feature::Face(i) => deepest_on_face_axis(s, b, n, i),
    }
}

/// The segment's deeper end along `n`, the normal of the box's faces across axis `i`;
/// the middle of its part over the face when the two ends are level within
/// [`FLAT_ULPS`].
fn deepest_on_face_axis<V: Vector>(s: &Segment<V>, b: &Aabb<V>, n: V, i: usize) -> V {
    let d = s.b - s.a;
    let rise = d.dot(n);
    let size = s.a.abs().max(s.b.abs()).max(b.min.abs()).max(b.max.abs());
    if rise.abs() > eps::<V::Scalar>(FLAT_ULPS) * size.max_element() {
        return if rise > V::Scalar::ZERO { s.b } else { s.a };
    }
    // The face's rectangle: the box without bounds across axis `i`.
    let face = Aabb {
        min: b.min.with(i, V::Scalar::NEG_INFINITY),
        max: b.max.with(i, V::Scalar::INFINITY),
    };
    // Rounding may leave a segment touching the face's edge just outside it: whole.
    let (t0, t1) = segment_in_aabb(s.a, d, &face).unwrap_or((V::Scalar::ZERO, V::Scalar::ONE));
    s.a + d * ((t0 + t1) * V::Scalar::HALF)
}
