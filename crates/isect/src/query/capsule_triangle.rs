//! Capsule–triangle contact in 3D in closed form, the pair a capsule on a mesh asks
//! of each triangle it touches.
//!
//! Apart, the capsule is its segment grown by its radius, so its contact is that of
//! the ball of its radius at the segment's point nearest the triangle. A segment on
//! one side of the plane with both ends over the triangle (a capsule on a floor) is
//! nearest at its end nearer the plane (its middle when it lies level); else that pair
//! of closest points is the nearest among the segment's ends against the triangle
//! (Ericson, *Real-Time Collision Detection*, 5.1.5) and the segment against the
//! triangle's three edges (5.1.9), as in Ericson 5.1.10, once the segment is known not
//! to cross the triangle.
//!
//! Crossing (or within [`TOUCH_ULPS`] of it), the segment's Minkowski difference with
//! the triangle is a prism whose face normals are the triangle's normal and the
//! segment crossed with each edge, so the least overlap along those axes is the exact
//! penetration of the cores (the separating-axis test, Ericson 4.4), and the
//! capsule's is that plus its radius. The edges' normals in the triangle's plane are
//! tried too: they are the prism's limit when the segment runs along an edge, where
//! the cross product is rounding noise and is skipped (squared sine below
//! `eps(`[`sat_3d::EDGE_AXIS_ULPS`]`)`). An edge axis wins only when it overlaps less
//! than the triangle's normal by [`FLAT_ULPS`] of the size. A segment in the plane
//! overlaps the triangle by zero either way: it goes out the front (the side of the
//! winding's normal) and the contact is `Degenerate`, as GJK / EPA report a flat
//! Minkowski difference. The witnesses lie in both shapes' support sets along the axis
//! with `point_a − point_b = depth · normal`: for the triangle's normal, the segment's
//! deeper end (the middle of its part over the triangle when it lies within
//! [`FLAT_ULPS`] of parallel to it); for an edge axis, the segment's point closest to
//! that edge. A flat triangle (no normal) is left to the general path (`None`).

use crate::algo::gjk::Status;
use crate::algo::sat_3d;
use crate::math::tolerance::eps;
use crate::math::{Isometry, Pose3, Real, Vector, Vector3};
use crate::query::contact::Contact;
use crate::query::distance::closest_points_segment_segment;
use crate::shape::trimesh::closest::closest_on_triangle;
use crate::shape::{Capsule, Segment, Triangle};

pub use super::capsule_box::{FLAT_ULPS, TOUCH_ULPS};

/// The contact of capsule A with triangle B, `None` for a flat triangle or a NaN
/// pose (the caller's general path answers); `Some(None)` when they are farther
/// apart than `prediction`.
pub(crate) fn contact_capsule_triangle<R: Real>(
    pose_a: &Pose3<R>,
    a: &Capsule<R::V3>,
    pose_b: &Pose3<R>,
    b: &Triangle<R::V3>,
    prediction: R,
) -> Option<Option<Contact<R::V3>>>
where
    R::V3: Vector<Pose = Pose3<R>>,
{
    let n = b.normal()?;
    let in_b = |p| pose_b.inverse_transform_point(pose_a.transform_point(p));
    let s = Segment {
        a: in_b(a.segment().a),
        b: in_b(a.segment().b),
    };
    let t = b.vertices();
    let scale = [s.a, s.b, t[0], t[1], t[2]]
        .iter()
        .fold(R::ZERO, |m, p| m.max(p.abs().max_element()));
    if scale.is_nan() || prediction.is_nan() {
        return None;
    }
    let tol = Rounding {
        touch: eps::<R>(TOUCH_ULPS) * scale,
        flat: eps::<R>(FLAT_ULPS) * scale,
    };
    let local = match apart(&s, &t, n, tol) {
        Some((on_s, on_t)) => ball_contact(on_s, on_t, a.radius()),
        None => crossing_contact(&s, &t, n, a.radius(), tol),
    };
    Some((-local.depth <= prediction).then(|| local.transformed(pose_b)))
}

/// The pair's rounding, from the largest coordinate of the segment and the triangle:
/// [`TOUCH_ULPS`] and [`FLAT_ULPS`] machine epsilons of it.
#[derive(Copy, Clone)]
struct Rounding<S> {
    touch: S,
    flat: S,
}

/// The closest points `(on the segment, on the triangle)` when the segment stays
/// farther than `tol.touch` from the triangle; `None` when it crosses or touches it.
fn apart<V: Vector3>(s: &Segment<V>, t: &[V; 3], n: V, tol: Rounding<V::Scalar>) -> Option<(V, V)> {
    let nearest = match over_face(s, t, n, tol.flat) {
        Some(pair) => pair,
        None if crosses(s, t, n, tol.touch) => return None,
        None => nearest_features(s, t)?,
    };
    (nearest.0.distance(nearest.1) > tol.touch).then_some(nearest)
}

/// The closest points when the segment stays on one side of the triangle's plane with
/// both ends over the triangle: its end nearer the plane (its middle when the ends are
/// level within `flat`) and that point's foot on the plane. `None` otherwise.
fn over_face<V: Vector3>(s: &Segment<V>, t: &[V; 3], n: V, flat: V::Scalar) -> Option<(V, V)> {
    let (ha, hb) = ((s.a - t[0]).dot(n), (s.b - t[0]).dot(n));
    let inside =
        |p: V| (0..3).all(|k| (p - t[k]).dot(n.cross(t[(k + 1) % 3] - t[k])) >= V::Scalar::ZERO);
    if !(ha * hb > V::Scalar::ZERO && inside(s.a) && inside(s.b)) {
        return None;
    }
    let (p, h) = if (ha - hb).abs() <= flat {
        ((s.a + s.b) * V::Scalar::HALF, (ha + hb) * V::Scalar::HALF)
    } else if ha.abs() < hb.abs() {
        (s.a, ha)
    } else {
        (s.b, hb)
    };
    Some((p, p - n * h))
}

/// The nearest of the segment's ends against the triangle and the segment against
/// the triangle's edges (Ericson 5.1.10), for a segment that does not cross it.
fn nearest_features<V: Vector3>(s: &Segment<V>, t: &[V; 3]) -> Option<(V, V)> {
    let ends = [s.a, s.b].map(|p| (p, closest_on_triangle(t, p).0));
    let edges = [0, 1, 2].map(|k| {
        let edge = Segment {
            a: t[k],
            b: t[(k + 1) % 3],
        };
        let (_, _, on_s, on_t) = closest_points_segment_segment(s, &edge);
        (on_s, on_t)
    });
    ends.into_iter().chain(edges).reduce(|best, c| {
        if c.0.distance_squared(c.1) < best.0.distance_squared(best.1) {
            c
        } else {
            best
        }
    })
}

/// True when the segment meets the triangle's plane at a point within `touch` of the
/// triangle (a segment in the plane is left to the closest points, which find 0).
fn crosses<V: Vector3>(s: &Segment<V>, t: &[V; 3], n: V, touch: V::Scalar) -> bool {
    let (ha, hb) = ((s.a - t[0]).dot(n), (s.b - t[0]).dot(n));
    if ha * hb > V::Scalar::ZERO || ha == hb {
        return false;
    }
    let x = s.a + (s.b - s.a) * (ha / (ha - hb));
    closest_on_triangle(t, x).0.distance(x) <= touch
}

/// The contact of the ball of `radius` at `on_s` with the triangle's point `on_t`.
fn ball_contact<V: Vector>(on_s: V, on_t: V, radius: V::Scalar) -> Contact<V> {
    let gap = on_t - on_s;
    let distance = gap.length();
    let normal = gap * (V::Scalar::ONE / distance);
    Contact {
        normal,
        depth: radius - distance,
        point_a: on_s + normal * radius,
        point_b: on_t,
        status: Status::Converged,
    }
}

/// The contact of a segment crossing the triangle, grown by `radius`, by the
/// separating axes (module docs); within `tol.touch` of the plane the segment lies in
/// it.
fn crossing_contact<V: Vector3>(
    s: &Segment<V>,
    t: &[V; 3],
    n: V,
    radius: V::Scalar,
    tol: Rounding<V::Scalar>,
) -> Contact<V> {
    // `-n` first: on a tie (a segment in the plane) the capsule goes out the front.
    let face = least_overlap(s, t, -n, None, (V::Scalar::INFINITY, n, None));
    let mut edge = (face.0 - tol.flat, face.1, None);
    let d = s.b - s.a;
    let parallel = eps::<V::Scalar>(sat_3d::EDGE_AXIS_ULPS) * d.length_squared();
    for k in 0..3 {
        let e = t[(k + 1) % 3] - t[k];
        // Across the edge in the plane: the least translation when `d` runs along it.
        edge = least_overlap(s, t, n.cross(e).try_normalize().unwrap_or(n), Some(k), edge);
        let axis = d.cross(e);
        let len_sq = axis.length_squared();
        // The sine's square: the axis is |d| |e| sin long.
        if len_sq > parallel * e.length_squared() {
            let u = axis * (V::Scalar::ONE / len_sq.sqrt());
            edge = least_overlap(s, t, u, Some(k), edge);
        }
    }
    let (overlap, normal, feature) = if edge.2.is_some() { edge } else { face };
    let core = match feature {
        Some(k) => {
            let edge = Segment {
                a: t[k],
                b: t[(k + 1) % 3],
            };
            closest_points_segment_segment(s, &edge).2
        }
        None => deepest_over_face(s, t, normal, tol.flat),
    };
    let depth = overlap + radius;
    let point_a = core + normal * radius;
    let in_plane = [s.a, s.b]
        .iter()
        .all(|p| (*p - t[0]).dot(n).abs() <= tol.touch);
    Contact {
        normal,
        depth,
        point_a,
        point_b: point_a - normal * depth,
        // A segment in the plane: the cores' Minkowski difference is flat, and which
        // side is out is a convention (the front).
        status: if in_plane && feature.is_none() {
            Status::Degenerate
        } else {
            Status::Converged
        },
    }
}

/// An axis's overlap, its normal from the segment to the triangle, and its edge's
/// index (`None` for the triangle's normal).
type Candidate<V> = (<V as Vector>::Scalar, V, Option<usize>);

/// `best` lowered by the two directions of unit axis `u` (the first on a tie).
fn least_overlap<V: Vector>(
    s: &Segment<V>,
    t: &[V; 3],
    u: V,
    edge: Option<usize>,
    best: Candidate<V>,
) -> Candidate<V> {
    let (sa, sb) = (s.a.dot(u), s.b.dot(u));
    let (s_lo, s_hi) = (sa.min(sb), sa.max(sb));
    let p = t.map(|v| v.dot(u));
    let (t_lo, t_hi) = (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]));
    let mut best = best;
    for (overlap, normal) in [(s_hi - t_lo, u), (t_hi - s_lo, -u)] {
        if overlap < best.0 {
            best = (overlap, normal, edge);
        }
    }
    best
}

/// The segment's end deeper along `normal` (the triangle's normal, either way); the
/// middle of its part over the triangle when the ends are level within `flat`.
fn deepest_over_face<V: Vector3>(s: &Segment<V>, t: &[V; 3], normal: V, flat: V::Scalar) -> V {
    let d = s.b - s.a;
    let rise = d.dot(normal);
    if rise.abs() > flat {
        return if rise > V::Scalar::ZERO { s.b } else { s.a };
    }
    let (t0, t1) = over_triangle(s, t, normal).unwrap_or((V::Scalar::ZERO, V::Scalar::ONE));
    s.a + d * ((t0 + t1) * V::Scalar::HALF)
}

/// The interval of the segment's parameter over which it lies above or below the
/// triangle (inside the three planes through its edges along `normal`), if any.
fn over_triangle<V: Vector3>(
    s: &Segment<V>,
    t: &[V; 3],
    normal: V,
) -> Option<(V::Scalar, V::Scalar)> {
    let d = s.b - s.a;
    let (mut lo, mut hi) = (V::Scalar::ZERO, V::Scalar::ONE);
    // The triangle's winding along `normal` decides which side of an edge is in.
    let turn = (t[1] - t[0]).cross(t[2] - t[0]).dot(normal);
    for k in 0..3 {
        let inward = normal.cross(t[(k + 1) % 3] - t[k]) * turn;
        let (at, rate) = ((s.a - t[k]).dot(inward), d.dot(inward));
        if rate == V::Scalar::ZERO {
            if at < V::Scalar::ZERO {
                return None;
            }
            continue;
        }
        let cut = -at / rate;
        if rate > V::Scalar::ZERO {
            lo = lo.max(cut);
        } else {
            hi = hi.min(cut);
        }
    }
    (lo <= hi).then_some((lo, hi))
}
