//! The 2D convex enum in the shared dispatch table ([`super::table`]): its kinds,
//! box–box SAT on oriented rectangles, the polygon–polygon SAT kernels and the
//! box–polygon manifold.

// `!(x > y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
use super::table::{self, dispatch_by_table, shared_convex_hooks, ConvexEnum, Kind};
use super::*;
use crate::algo::clip_2d::{separations, PolygonFeatures};
use crate::algo::sat_2d::{self, SatResult};
use crate::algo::witness::{witness_2d_placed, PlacedPolygon};
use crate::math::{Pose2, Vector2};
use crate::query::contact::contact_ball_polygon_finite;
use crate::query::manifold::polygons_2d::{capsules_manifold, core_manifold, Core2, CoreManifold};
use crate::query::manifold::valid_input;
use crate::query::manifold::{
    contact_manifold_obb_2d, contact_manifold_obb_polygon, contact_manifold_polygons,
};
use crate::shape::obb_2d::Obb;
use crate::shape::shape_2d::Shape;

/// The world OBB of a local box placed at `pose` (`None` for a non-finite pose).
#[inline]
fn world_obb<R: Real>(pose: &Pose2<R>, b: &Aabb<R::V2>) -> Option<Obb<R>> {
    Obb::placed(
        pose.transform_point(b.center()),
        b.half_extents(),
        pose.rotation,
    )
    .ok()
}

/// The witnesses of two boxes' contact of normal `n` and depth `depth`, from their
/// corners ([`crate::algo::witness::witness_2d`]).
fn box_witness_2d<R: Real>(
    pa: &Pose2<R>,
    a: &Aabb<R::V2>,
    pb: &Pose2<R>,
    b: &Aabb<R::V2>,
    n: R::V2,
    depth: R,
) -> (R::V2, R::V2) {
    let (ca, cb) = (box_corners::<R>(a), box_corners::<R>(b));
    let pose_ab = pa.inv_mul(pb);
    witness_2d_placed(placed(&ca, pa), placed(&cb, pb), &pose_ab, n, depth)
}

/// `vertices` in the frame `pose`.
fn placed<'a, R: Real>(vertices: &'a [R::V2], pose: &Pose2<R>) -> PlacedPolygon<'a, R> {
    PlacedPolygon {
        vertices,
        pose: *pose,
    }
}

/// The four corners of the box `b` (in its own frame).
fn box_corners<R: Real>(b: &Aabb<R::V2>) -> [R::V2; 4] {
    let (lo, hi) = (b.min, b.max);
    [
        R::V2::new(lo.x(), lo.y()),
        R::V2::new(hi.x(), lo.y()),
        R::V2::new(lo.x(), hi.y()),
        R::V2::new(hi.x(), hi.y()),
    ]
}

impl<R: Real> ConvexEnum<R::V2> for Shape<R>
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    shared_convex_hooks!(V2, Pose2, sat_2d, contact_manifold_obb_2d, box_witness_2d);

    fn hull_vertices(&self) -> Option<&[R::V2]> {
        match self {
            Shape::Polygon(s) => Some(s.vertices()),
            _ => None,
        }
    }

    fn has_polytope_core(&self) -> bool {
        true
    }

    fn own_intersects(pa: &Pose2<R>, a: &Self, pb: &Pose2<R>, b: &Self) -> Option<bool> {
        match (a, b) {
            (Shape::Polygon(x), Shape::Polygon(y)) => {
                Some(sat_2d::intersects_polygon_polygon(pa, x, pb, y))
            }
            _ => None,
        }
    }

    fn own_contact(
        pa: &Pose2<R>,
        a: &Self,
        pb: &Pose2<R>,
        b: &Self,
        prediction: R,
    ) -> Option<Option<Contact<R::V2>>> {
        let flipped = |c: Option<Option<Contact<R::V2>>>| c.map(|c| c.map(|c| c.flipped()));
        match (a, b) {
            // A disc against a polygon: the edge its centre lies farthest beyond.
            (Shape::Ball(x), Shape::Polygon(y)) => {
                contact_ball_polygon_finite(pa, x, pb, y, prediction)
            }
            (Shape::Polygon(x), Shape::Ball(y)) => {
                flipped(contact_ball_polygon_finite(pb, y, pa, x, prediction))
            }
            _ => sharp_cores_contact(pa, a, pb, b, prediction),
        }
    }

    fn feature_manifold(
        pa: &Pose2<R>,
        a: &Self,
        pb: &Pose2<R>,
        b: &Self,
        c: &Contact<R::V2>,
        prediction: R,
    ) -> Manifold<R::V2> {
        crate::query::manifold::features::manifold_2d(pa, a, pb, b, c, prediction)
    }

    fn own_manifold(
        pa: &Pose2<R>,
        a: &Self,
        pb: &Pose2<R>,
        b: &Self,
        prediction: R,
    ) -> Option<Option<Manifold<R::V2>>> {
        let id = Pose2::default();
        match (a, b) {
            (Shape::Polygon(x), Shape::Polygon(y)) => {
                Some(contact_manifold_polygons(pa, x, pb, y, prediction))
            }
            (Shape::Cuboid(x), Shape::Polygon(y)) => Some(
                world_obb(pa, x)
                    .and_then(|o| contact_manifold_obb_polygon(&id, &o, pb, y, prediction)),
            ),
            (Shape::Polygon(x), Shape::Cuboid(y)) => Some(
                world_obb(pb, y)
                    .and_then(|o| contact_manifold_obb_polygon(&id, &o, pa, x, prediction))
                    .map(|m| m.flipped()),
            ),
            _ => rounded_cores_manifold(pa, a, pb, b, prediction),
        }
    }

    fn own_distance(pa: &Pose2<R>, a: &Self, pb: &Pose2<R>, b: &Self) -> Option<R> {
        match (a, b) {
            (Shape::Polygon(x), Shape::Polygon(y)) => {
                Some(match sat_2d::polygon_polygon(pa, x, pb, y) {
                    SatResult::Separated { distance, .. } => distance,
                    SatResult::Overlapping { .. } => R::ZERO,
                })
            }
            (Shape::Cuboid(x), Shape::Cuboid(y)) => {
                crate::query::box_box_2d::distance(pa, x, pb, y)
            }
            _ => None,
        }
    }

    fn own_closest_points(
        pa: &Pose2<R>,
        a: &Self,
        pb: &Pose2<R>,
        b: &Self,
    ) -> Option<ClosestPoints<R::V2>> {
        let (Shape::Cuboid(x), Shape::Cuboid(y)) = (a, b) else {
            return None;
        };
        let (distance, point_a, point_b) = crate::query::box_box_2d::closest_points(pa, x, pb, y)?;
        Some(ClosestPoints::closed_form(distance, point_a, point_b))
    }
}

/// The manifold of two kinds with polygonal cores (capsules, segments, triangles,
/// boxes, polygons, rounded kinds) by SAT and clipping
/// ([`crate::query::manifold::polygons_2d`]); `None` (no kernel) for a disc, a
/// degenerate core, or a pair the cores leave undecided.
fn rounded_cores_manifold<R: Real>(
    pa: &Pose2<R>,
    a: &Shape<R>,
    pb: &Pose2<R>,
    b: &Shape<R>,
    prediction: R,
) -> Option<Option<Manifold<R::V2>>>
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    if !valid_input(pa, pb, prediction) {
        return Some(None);
    }
    if let (Shape::Capsule(x), Shape::Capsule(y)) = (a, b) {
        if let Some(m) = capsules_manifold(pa, x, pb, y, prediction) {
            return found(m);
        }
    }
    let (mut buf_a, mut buf_b) = (CoreBuf::default(), CoreBuf::default());
    let ca = buf_a.core(pa, a)?;
    let cb = buf_b.core(pb, b)?;
    found(core_manifold(&ca, &cb, prediction))
}

/// The dispatch's answer for a manifold of the cores (`None`: no kernel answered).
fn found<V: Vector>(m: CoreManifold<V>) -> Option<Option<Manifold<V>>> {
    match m {
        CoreManifold::Apart => Some(None),
        CoreManifold::Found(m) => Some(Some(m)),
        CoreManifold::Undecided => None,
    }
}

/// The contact of two overlapping sharp polygonal kinds (boxes, polygons, triangles;
/// a box–box pair never reaches here) by SAT on their edge normals, its witnesses at
/// the centre of the contact region as for two polygons. Pairs apart beyond
/// `prediction` give `Some(None)`; apart within it, GJK measures the exact distance
/// (`None`), as it does for other kinds.
fn sharp_cores_contact<R: Real>(
    pa: &Pose2<R>,
    a: &Shape<R>,
    pb: &Pose2<R>,
    b: &Shape<R>,
    prediction: R,
) -> Option<Option<Contact<R::V2>>>
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let (mut buf_a, mut buf_b) = (CoreBuf::default(), CoreBuf::default());
    let (fa, fb) = (buf_a.sharp_features(a)?, buf_b.sharp_features(b)?);
    let pose_ab = pa.inv_mul(pb);
    // Each side's search stops at an edge that already separates by more than the
    // prediction: the pair is then apart whatever the rest gives.
    let Some(((sep_a, ea), (sep_b, eb))) = separations(fa, fb, &pose_ab, prediction) else {
        return Some(None);
    };
    let separation = sep_a.max(sep_b);
    if separation > R::ZERO {
        return None;
    }
    let axis = match sep_b > sep_a {
        true => -pb.transform_vector(fb.normals[eb]),
        false => pa.transform_vector(fa.normals[ea]),
    };
    let depth = -separation;
    let w = witness_2d_placed(
        placed(fa.vertices, pa),
        placed(fb.vertices, pb),
        &pose_ab,
        axis,
        depth,
    );
    Some(Some(contact_from_mtv(Mtv { axis, depth }, w)))
}

/// Room for the core of a kind that does not store one (box, capsule, segment,
/// triangle): up to four vertices and their edge normals.
struct CoreBuf<R: Real> {
    vertices: [R::V2; 4],
    normals: [R::V2; 4],
}

impl<R: Real> Default for CoreBuf<R> {
    fn default() -> Self {
        Self {
            vertices: [R::V2::ZERO; 4],
            normals: [R::V2::ZERO; 4],
        }
    }
}

impl<R: Real> CoreBuf<R>
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    /// `s`'s core placed at `pose`, built in `self` when `s` does not store one;
    /// `None` for a disc and for cores with a zero-length edge or no orientation.
    fn core<'a>(&'a mut self, pose: &Pose2<R>, s: &'a Shape<R>) -> Option<Core2<'a, R>> {
        let (len, radius) = match s {
            Shape::Polygon(p) => return Some(Core2::polygon(pose, p, R::ZERO)),
            Shape::RoundedPolygon(r) => return Some(Core2::polygon(pose, r.inner(), r.radius())),
            Shape::Ball(_) => return None,
            Shape::Cuboid(b) => (self.set_box(b), R::ZERO),
            Shape::RoundedCuboid(r) => (self.set_box(r.inner()), r.radius()),
            Shape::Capsule(c) => (self.set_segment(c.segment().a, c.segment().b)?, c.radius()),
            Shape::Segment(g) => (self.set_segment(g.a, g.b)?, R::ZERO),
            Shape::Triangle(t) => (self.set(&counter_clockwise(t.vertices())?)?, R::ZERO),
        };
        let size = self.vertices[..len]
            .iter()
            .fold(R::ZERO, |m, v| m.max(v.abs().max_element()));
        Some(Core2 {
            features: PolygonFeatures {
                vertices: &self.vertices[..len],
                normals: &self.normals[..len],
            },
            pose: *pose,
            radius,
            size,
        })
    }

    /// The edges of a sharp kind (box, polygon, triangle), built in `self` when `s`
    /// does not store them; `None` for the other kinds and a flat triangle.
    fn sharp_features<'a>(&'a mut self, s: &'a Shape<R>) -> Option<PolygonFeatures<'a, R::V2>> {
        let len = match s {
            Shape::Polygon(p) => {
                return Some(PolygonFeatures {
                    vertices: p.vertices(),
                    normals: p.normals(),
                })
            }
            Shape::Cuboid(b) => self.set_box(b),
            Shape::Triangle(t) => self.set(&counter_clockwise(t.vertices())?)?,
            _ => return None,
        };
        Some(PolygonFeatures {
            vertices: &self.vertices[..len],
            normals: &self.normals[..len],
        })
    }

    /// Stores a box's corners and its axes as the normals (a box of zero extent keeps
    /// them).
    fn set_box(&mut self, b: &Aabb<R::V2>) -> usize {
        let (lo, hi) = (b.min, b.max);
        let v = |x: R, y: R| R::V2::new(x, y);
        let (one, zero) = (R::ONE, R::ZERO);
        self.vertices = [lo, v(hi.x(), lo.y()), hi, v(lo.x(), hi.y())];
        self.normals = [v(zero, -one), v(one, zero), v(zero, one), v(-one, zero)];
        4
    }

    /// Stores a segment as a two-sided polygon; `None` when it has no length.
    fn set_segment(&mut self, a: R::V2, b: R::V2) -> Option<usize> {
        let d = b - a;
        let length = d.length();
        if !(length > R::ZERO) {
            return None;
        }
        let n = R::V2::new(d.y(), -d.x()) / length;
        self.vertices[..2].copy_from_slice(&[a, b]);
        self.normals[..2].copy_from_slice(&[n, -n]);
        Some(2)
    }

    /// Stores the counter-clockwise `vertices` and their edges' outward normals;
    /// `None` for a zero-length edge (it has no normal).
    fn set(&mut self, vertices: &[R::V2]) -> Option<usize> {
        let n = vertices.len();
        for (i, &v) in vertices.iter().enumerate() {
            let edge = vertices[(i + 1) % n] - v;
            let length = edge.length();
            if !(length > R::ZERO) {
                return None;
            }
            self.vertices[i] = v;
            self.normals[i] = R::V2::new(edge.y(), -edge.x()) / length;
        }
        Some(n)
    }
}

/// A triangle's vertices counter-clockwise; `None` when it is flat.
fn counter_clockwise<V: Vector2>(v: [V; 3]) -> Option<[V; 3]> {
    let turn = (v[1] - v[0]).perp_dot(v[2] - v[0]);
    if turn > V::Scalar::ZERO {
        Some(v)
    } else if turn < V::Scalar::ZERO {
        Some([v[0], v[2], v[1]])
    } else {
        None
    }
}

dispatch_by_table!(V2, Pose2);
