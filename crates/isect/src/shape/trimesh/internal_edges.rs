//! Internal edges: the contact-normal correction that keeps shapes sliding over a
//! surface made of many triangles from catching on the edges between them ("ghost
//! collisions"). The idea follows Jolt's active edges (`ActiveEdges.h`) and parry's
//! `FIX_INTERNAL_EDGES`: an edge is *active* only where the surface really bends
//! outward (a convex edge sharper than [`FLAT_EDGE_ANGLE`]) or where it ends (a
//! boundary edge); a contact normal that leans over an inactive edge or vertex is
//! replaced by the face normal. Our own formulation:
//!
//! - The side is chosen by the sign of `normal · face_normal`; from the back side
//!   convex and concave swap (so two-sided open meshes work).
//! - The feature a normal leans over is read from its tangential part `t` alone: the
//!   Voronoi cone of vertex `v` (neighbours `u`, `w`) is `t·(v−u) > 0 ∧ t·(v−w) > 0`
//!   (Ericson 5.1.5), otherwise the edge whose outward in-plane normal has the
//!   largest `t·m > 0`. A margin of `√ε` (the precision of a normal computed by
//!   GJK/EPA) sends near-perpendicular leans to the edge, never to a vertex.
//! - A vertex is active when one of the triangle's two edges at it is active, or the
//!   normal comes from behind the triangle and points in front of a neighbour across
//!   them or (solid meshes) in front of the vertex's pseudo-normal: the shape is round
//!   a convex corner whose faces there need not share an edge with this triangle.
//! - At an active edge the normal is kept, except that one leaning past the
//!   neighbour's face normal (outside the edge's normal wedge) becomes that normal.
//! - At an inactive edge it becomes the face normal, unless it comes from behind the
//!   triangle and points in front of the neighbour (the shape is round a convex fold,
//!   e.g. beside a cube's side face, below the plane of its top face): then it becomes
//!   the neighbour's normal. The front side wins ties: a normal from the front leaning
//!   over a concave fold is the face normal even when it points behind the neighbour
//!   (a shape sunk into a valley's far slope is pushed out of the near one).
//!
//! - With the contact point known (`correct_at`, what the queries use) the feature
//!   is the one the point lies on: inside the face the face normal; on an edge the
//!   edge rules above; on a vertex its one-ring (every triangle using it) decides, so
//!   a corner whose faces share no edge with this triangle (a cube's top seen from a
//!   side triangle) is handled too.
//!
//! Tolerances: [`FLAT_EDGE_ANGLE`] (a modelling angle, radians) and `√ε` (above; also
//! the distance, relative to the triangle's longest edge, within which a contact
//! point lies on a vertex or edge).

use crate::math::{Real, Vector, Vector3};

/// Edges whose two faces meet at an angle (between their normals) below this, in
/// radians, count as flat: inactive, like the edges of a plane split into triangles.
/// 5°, as Jolt's default active-edge threshold.
pub const FLAT_EDGE_ANGLE: f64 = 5.0 * core::f64::consts::PI / 180.0;

/// How the surface bends at an edge, seen from the front (the side the face normal
/// points to).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bend {
    /// No neighbour, several neighbours, or a flat neighbour: a real edge.
    Open,
    /// The faces meet at less than [`FLAT_EDGE_ANGLE`].
    Flat,
    /// The neighbour bends away from the front side.
    Convex,
    /// The neighbour bends toward the front side.
    Concave,
}

/// One edge of a triangle as the correction needs it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct EdgeInfo<V> {
    /// How the surface bends there.
    pub bend: Bend,
    /// The neighbour's unit face normal (zero for [`Bend::Open`]).
    pub neighbour_normal: V,
    /// The neighbour's vertex off the shared edge (unused for [`Bend::Open`]).
    pub neighbour_apex: V,
}

impl<V: Vector> EdgeInfo<V> {
    /// An edge with no usable neighbour.
    pub(crate) const OPEN: Self = Self {
        bend: Bend::Open,
        neighbour_normal: V::ZERO,
        neighbour_apex: V::ZERO,
    };
}

/// The bend at edge `a → b` of a triangle with unit normal `n`, given the neighbour's
/// unit normal `nn` (zero when flat) and its apex `w`.
pub(crate) fn classify<V: Vector3>(n: V, a: V, nn: V, w: V) -> Bend {
    if n == V::ZERO || nn == V::ZERO {
        return Bend::Open;
    }
    let cos_flat = V::Scalar::from_f64(FLAT_EDGE_ANGLE.cos());
    if n.dot(nn) >= cos_flat {
        Bend::Flat
    } else if n.dot(w - a) < V::Scalar::ZERO {
        Bend::Convex
    } else {
        Bend::Concave
    }
}

/// True when an edge of this bend is active seen from the given side.
fn active(bend: Bend, front: bool) -> bool {
    match bend {
        Bend::Open => true,
        Bend::Flat => false,
        Bend::Convex => front,
        Bend::Concave => !front,
    }
}

/// The callback a vertex's one-ring is handed to: called with the corners and the
/// unit normal of each triangle using the vertex.
pub(crate) type RingVisitor<'a, V> = &'a mut dyn FnMut(&[V; 3], V);

/// What a lean points at: edge `k` (from vertex `k` to `k + 1`) or vertex `k`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Lean {
    Edge(usize),
    Vertex(usize),
}

/// The feature of triangle `t` (unit normal `n`) the tangential direction `tan` leans
/// over.
fn lean_feature<V: Vector3>(t: &[V; 3], n: V, tan: V, margin: V::Scalar) -> Lean {
    let tl = tan.length();
    for k in 0..3 {
        let (u, v, w) = (t[(k + 2) % 3], t[k], t[(k + 1) % 3]);
        let (vu, vw) = (v - u, v - w);
        if tan.dot(vu) > margin * tl * vu.length() && tan.dot(vw) > margin * tl * vw.length() {
            return Lean::Vertex(k);
        }
    }
    let mut best = (0, V::Scalar::NEG_INFINITY);
    for k in 0..3 {
        let m = outward_normal(t, n, k);
        let s = tan.dot(m);
        if s > best.1 {
            best = (k, s);
        }
    }
    Lean::Edge(best.0)
}

/// The unit in-plane normal of edge `k` of `t`, pointing out of the triangle (zero
/// for a zero-length edge).
fn outward_normal<V: Vector3>(t: &[V; 3], n: V, k: usize) -> V {
    let e = t[(k + 1) % 3] - t[k];
    e.cross(n).try_normalize().unwrap_or(V::ZERO)
}

/// The corrected contact normal (see the module docs) for triangle `t` with unit face
/// normal `n` (zero for a flat triangle, which keeps every normal), edges `edges` and
/// the pseudo-normals of its corners when the mesh is solid (zero otherwise);
/// `normal` is the unit direction from the triangle toward the other shape.
pub(crate) fn correct<V: Vector3>(
    t: &[V; 3],
    n: V,
    edges: &[EdgeInfo<V>; 3],
    corner_normals: [V; 3],
    normal: V,
) -> V {
    let Some((side, tan, margin)) = leaning(n, normal) else {
        return normal;
    };
    let face = side.face(n);
    match lean_feature(t, n, tan, margin) {
        Lean::Vertex(k) => {
            let pair = [&edges[(k + 2) % 3], &edges[k]];
            let passive = pair
                .iter()
                .all(|e| !active(e.bend, side.front) && !side.behind_neighbour(e));
            // Behind this triangle but in front of a solid's corner: the shape is
            // outside, round the corner (its other faces need not be edge neighbours).
            let round_corner = !side.front && normal.dot(corner_normals[k]) > V::Scalar::ZERO;
            if passive && !round_corner {
                face
            } else {
                normal
            }
        }
        Lean::Edge(k) => side.at_edge(t, k, &edges[k], face),
    }
}

/// The corrected contact normal when the contact's witness `point` on triangle `t`
/// is known (see the module docs for `n`, `edges`, `normal`): the feature the point
/// lies on (within `√ε` of the triangle's size) decides, not the normal's lean.
///
/// - Inside the face: the face normal on the normal's side.
/// - On edge `k`: the edge rules of [`correct`].
/// - On vertex `k`: the vertex's one-ring decides. `ring(k, f)` calls `f(corners,
///   unit normal)` for every triangle using that vertex (this one included). A normal
///   along which the vertex is extremal among its ring (a real convex corner, or the
///   end of an open surface) is kept; otherwise it becomes the ring face normal
///   nearest to it, facing the side of the ring's angle-weighted pseudo-normal the
///   normal points to (so a shape round a convex corner, behind this triangle's
///   plane, gets the outward face normal).
///
/// A non-finite `point` falls back to [`correct`] (without corner normals).
pub(crate) fn correct_at<V: Vector3>(
    t: &[V; 3],
    n: V,
    edges: &[EdgeInfo<V>; 3],
    point: V,
    normal: V,
    ring: impl FnOnce(usize, RingVisitor<'_, V>),
) -> V {
    if !point.is_finite() {
        return correct(t, n, edges, [V::ZERO; 3], normal);
    }
    let Some((side, _, margin)) = leaning(n, normal) else {
        return normal;
    };
    match feature_at(t, point, margin) {
        Some(Lean::Vertex(k)) => at_vertex(t[k], normal, margin, |f| ring(k, f)),
        Some(Lean::Edge(k)) => side.at_edge(t, k, &edges[k], side.face(n)),
        None => side.face(n),
    }
}

/// The vertex or edge of `t` that `p` lies on, within `margin` times the longest
/// edge; `None` inside the face.
fn feature_at<V: Vector3>(t: &[V; 3], p: V, margin: V::Scalar) -> Option<Lean> {
    let size = (0..3)
        .map(|k| (t[(k + 1) % 3] - t[k]).length())
        .fold(V::Scalar::ZERO, V::Scalar::max);
    let tol = margin * size;
    if let Some(k) = (0..3).find(|&k| p.distance(t[k]) <= tol) {
        return Some(Lean::Vertex(k));
    }
    (0..3)
        .find(|&k| {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            let e = b - a;
            let u = ((p - a).dot(e) / e.length_squared()).clamp_to(V::Scalar::ZERO, V::Scalar::ONE);
            p.distance(a + e * u) <= tol
        })
        .map(Lean::Edge)
}

/// The normal at vertex `v` given its one-ring (see [`correct_at`]).
fn at_vertex<V: Vector3>(
    v: V,
    normal: V,
    margin: V::Scalar,
    ring: impl FnOnce(RingVisitor<'_, V>),
) -> V {
    let mut extremal = true;
    let mut pseudo = V::ZERO;
    let none = (V::Scalar::NEG_INFINITY, V::ZERO);
    let (mut front, mut back) = (none, none);
    ring(&mut |tri, face| {
        let Some(k) = tri.iter().position(|&w| w == v) else {
            return;
        };
        let (u, w) = (tri[(k + 1) % 3] - v, tri[(k + 2) % 3] - v);
        extremal &= [u, w].iter().all(|d| d.dot(normal) <= margin * d.length());
        if face == V::ZERO {
            return;
        }
        pseudo += face * u.cross(w).length().atan2(u.dot(w));
        let s = face.dot(normal);
        if s > front.0 {
            front = (s, face);
        }
        if -s > back.0 {
            back = (-s, -face);
        }
    });
    let pick = if normal.dot(pseudo) >= V::Scalar::ZERO {
        front
    } else {
        back
    };
    if extremal || pick.1 == V::ZERO {
        normal
    } else {
        pick.1
    }
}

/// The side of the triangle (unit normal `n`) that `normal` is on, `normal`'s part
/// tangent to the triangle, and the lean margin (`√ε`); `None` when there is nothing
/// to correct: a degenerate triangle (`n = 0`), a non-finite normal, or one within the
/// margin of the face normal.
fn leaning<V: Vector3>(n: V, normal: V) -> Option<(Side<V>, V, V::Scalar)> {
    if n == V::ZERO || !normal.is_finite() {
        return None;
    }
    let along = normal.dot(n);
    let tan = normal - n * along;
    let margin = V::Scalar::EPSILON.sqrt();
    let side = Side {
        front: along >= V::Scalar::ZERO,
        normal,
    };
    (tan.length() > margin).then_some((side, tan, margin))
}

/// The side of the triangle the other shape is on, and the normal being corrected.
struct Side<V> {
    front: bool,
    normal: V,
}

impl<V: Vector3> Side<V> {
    /// A face normal seen from this side.
    fn face(&self, n: V) -> V {
        if self.front {
            n
        } else {
            -n
        }
    }

    /// True when the normal comes from behind the triangle and points in front of the
    /// neighbour's face: the shape is round a convex fold (outside a solid).
    fn behind_neighbour(&self, e: &EdgeInfo<V>) -> bool {
        !self.front
            && e.bend != Bend::Open
            && self.normal.dot(self.face(e.neighbour_normal)) < V::Scalar::ZERO
    }

    /// The normal leaning over edge `k`: kept (within the wedge) at an active edge;
    /// at an inactive one the face normal, or the neighbour's normal when the shape is
    /// behind this triangle but in front of the neighbour.
    fn at_edge(&self, t: &[V; 3], k: usize, e: &EdgeInfo<V>, face: V) -> V {
        if active(e.bend, self.front) {
            return clamp_to_wedge(t, k, e, self.front, self.normal);
        }
        if self.behind_neighbour(e) {
            -self.face(e.neighbour_normal)
        } else {
            face
        }
    }
}

/// `normal`, or the neighbour's normal across edge `k` when `normal` leans past it
/// (the wedge of an edge is where both faces' outward in-plane normals see it).
fn clamp_to_wedge<V: Vector3>(t: &[V; 3], k: usize, e: &EdgeInfo<V>, front: bool, normal: V) -> V {
    if e.bend == Bend::Open {
        return normal;
    }
    let (a, b) = (t[k], t[(k + 1) % 3]);
    let dir = b - a;
    let to_edge = a - e.neighbour_apex;
    // The neighbour's outward in-plane normal of the shared edge (unnormalised).
    let m = to_edge - dir * (to_edge.dot(dir) / dir.length_squared());
    if normal.dot(m) < V::Scalar::ZERO {
        if front {
            e.neighbour_normal
        } else {
            -e.neighbour_normal
        }
    } else {
        normal
    }
}
