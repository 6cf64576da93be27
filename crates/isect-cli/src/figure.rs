//! What `render` and `demo` draw of each shape kind, projected onto the x–y plane:
//! convex shapes by their outline (from their support maps), composites by their
//! parts — a concave polygon's rings (holes by the even-odd rule) with its convex
//! pieces as faint lines, a polyline's segments, a heightfield's chain or wireframe,
//! a mesh's edges over the union of its projected triangles, a compound's parts.

use crate::space::{Space, D2, D3};
use crate::svg::{Figure, P};
use isect::algo::gjk::GjkVector;
use isect::algo::support::SupportMap;
use isect::math::{Isometry, Pose2, Pose3};
use isect::query::dispatch::DispatchShape;
use isect::shape::shape_2d::AnyShape as Any2;
use isect::shape::shape_3d::AnyShape as Any3;
use isect::shape::{Compound, Triangle};
use std::collections::BTreeSet;

/// Directions sampled around a convex outline (curved parts become a 64-gon).
const OUTLINE_SAMPLES: usize = 64;

/// The outline of a convex `shape` at `pose`, projected onto x–y: its support
/// points in [`OUTLINE_SAMPLES`] directions of the plane (counter-clockwise),
/// repeated points dropped. The projection of a convex shape onto a plane has the
/// support function of the shape restricted to directions of that plane.
pub fn convex_outline<Sp: Space, C: SupportMap<Sp::V>>(shape: &C, pose: &Sp::Pose) -> Vec<P> {
    let mut points: Vec<P> = Vec::with_capacity(OUTLINE_SAMPLES);
    for i in 0..OUTLINE_SAMPLES {
        let a = std::f64::consts::TAU * i as f64 / OUTLINE_SAMPLES as f64;
        let p = xy::<Sp>(shape.support(pose, Sp::planar(a.cos(), a.sin())));
        if points.last() != Some(&p) && points.first() != Some(&p) {
            points.push(p);
        }
    }
    points
}

/// The x and y of a point.
pub fn xy<Sp: Space>(v: Sp::V) -> P {
    let c = Sp::coords(v);
    [c[0], c[1]]
}

/// A compound's parts, each outlined at its pose composed with the compound's.
fn compound<Sp, C>(c: &Compound<Sp::V, C>, pose: &Sp::Pose) -> Figure
where
    Sp: Space,
    C: SupportMap<Sp::V> + DispatchShape<Sp::V>,
    Sp::V: GjkVector<Pose = Sp::Pose>,
{
    let rings = c.parts().iter().map(|(part_pose, part)| {
        let at = pose.mul(part_pose);
        convex_outline::<Sp, C>(part, &at)
    });
    Figure {
        rings: rings.collect(),
        ..Figure::default()
    }
}

/// The figure of a 2D shape at `pose`.
pub fn figure_2d(shape: &Any2<f64>, pose: &Pose2<f64>) -> Figure {
    let at = |v: &glam::DVec2| xy::<D2>(pose.transform_point(*v));
    let ring = |r: &[glam::DVec2]| r.iter().map(at).collect::<Vec<P>>();
    match shape {
        Any2::Convex(s) => Figure::region(convex_outline::<D2, _>(s, pose)),
        Any2::Compound(c) => compound::<D2, _>(c, pose),
        Any2::ConcavePolygon(c) => Figure {
            rings: std::iter::once(c.outer())
                .chain(c.holes().iter().map(Vec::as_slice))
                .map(ring)
                .collect(),
            even_odd: true,
            pieces: c.pieces().iter().map(|p| ring(p.vertices())).collect(),
            lines: Vec::new(),
        },
        Any2::Polyline(l) => {
            let segments = (0..l.segments().len() as u32).filter_map(|i| l.segment(i));
            Figure::lines(segments.map(|s| vec![at(&s.a), at(&s.b)]).collect())
        }
        Any2::HeightField(h) => Figure::lines(vec![ring(h.vertices())]),
    }
}

/// The figure of a 3D shape at `pose`, projected onto x–y.
pub fn figure_3d(shape: &Any3<f64>, pose: &Pose3<f64>) -> Figure {
    let at = |v: glam::DVec3| xy::<D3>(pose.transform_point(v));
    match shape {
        Any3::Convex(s) => Figure::region(convex_outline::<D3, _>(s, pose)),
        Any3::Compound(c) => compound::<D3, _>(c, pose),
        Any3::TriMesh(m) => {
            let triangles = (0..m.triangle_count()).filter_map(|i| m.triangle(i));
            let vertices: Vec<P> = m.vertices().iter().map(|&v| at(v)).collect();
            let corner = |i: u32| vertices.get(i as usize).copied();
            let lines =
                unique_edges(m.indices()).filter_map(|[a, b]| Some(vec![corner(a)?, corner(b)?]));
            Figure {
                rings: triangles.map(|t| projected_triangle(&t, &at)).collect(),
                lines: lines.collect(),
                ..Figure::default()
            }
        }
        Any3::HeightField(h) => {
            let triangles: Vec<[P; 3]> = (0..h.triangle_count())
                .filter_map(|i| h.triangle(i))
                .map(|t| [at(t.a), at(t.b), at(t.c)])
                .collect();
            Figure {
                rings: triangles.iter().map(|t| counter_clockwise(*t)).collect(),
                lines: triangles
                    .iter()
                    .map(|t| vec![t[0], t[1], t[2], t[0]])
                    .collect(),
                ..Figure::default()
            }
        }
    }
}

/// A triangle projected and turned counter-clockwise, so that the non-zero fill of
/// all of a mesh's triangles is the union of their projections (a closed mesh's
/// front and back faces would otherwise cancel).
fn projected_triangle(t: &Triangle<glam::DVec3>, at: &impl Fn(glam::DVec3) -> P) -> Vec<P> {
    counter_clockwise([at(t.a), at(t.b), at(t.c)])
}

/// The triangle's corners, counter-clockwise in the picture's plane.
fn counter_clockwise([a, b, c]: [P; 3]) -> Vec<P> {
    let cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    if cross < 0.0 {
        vec![a, c, b]
    } else {
        vec![a, b, c]
    }
}

/// Every edge of the triangles once, as `[low, high]` vertex indices, sorted.
fn unique_edges(triangles: &[[u32; 3]]) -> impl Iterator<Item = [u32; 2]> {
    let edges: BTreeSet<[u32; 2]> = triangles
        .iter()
        .flat_map(|t| [[t[0], t[1]], [t[1], t[2]], [t[2], t[0]]])
        .map(|[a, b]| [a.min(b), a.max(b)])
        .collect();
    edges.into_iter()
}

/// Points counted for a convex outline by the size estimate: a box's 4 (curved
/// outlines have up to [`OUTLINE_SAMPLES`]; the picture's own check counts them).
const CONVEX_POINTS: usize = 4;

/// What makes a composite big and how to draw it smaller, for a message.
pub type Bulk = Option<(String, &'static str)>;

/// The points of the figure [`figure_2d`] would build for `shape`, counted from the
/// shape without building it, with what makes a composite big.
pub fn points_2d(shape: &Any2<f64>) -> (usize, Bulk) {
    match shape {
        Any2::Convex(_) => (CONVEX_POINTS, None),
        Any2::Compound(c) => parts(c.parts().len()),
        Any2::ConcavePolygon(c) => {
            let rings = c.outer().len() + c.holes().iter().map(Vec::len).sum::<usize>();
            let pieces: usize = c.pieces().iter().map(|p| p.vertices().len()).sum();
            let what = format!("a ConcavePolygon of {rings} vertices");
            (rings + pieces, Some((what, "fewer vertices")))
        }
        Any2::Polyline(l) => {
            let n = l.segments().len();
            let what = format!("a Polyline of {n} segments");
            (2 * n, Some((what, "fewer segments")))
        }
        Any2::HeightField(h) => {
            let n = h.vertices().len();
            let what = format!("a HeightField of {n} samples");
            (n, Some((what, "fewer samples")))
        }
    }
}

/// The points of the figure [`figure_3d`] would build for `shape`, counted from the
/// shape without building it, with what makes a composite big.
pub fn points_3d(shape: &Any3<f64>) -> (usize, Bulk) {
    match shape {
        Any3::Convex(_) => (CONVEX_POINTS, None),
        Any3::Compound(c) => parts(c.parts().len()),
        Any3::TriMesh(m) => {
            // Each triangle filled (3 corners), each edge a line (2 ends): a closed
            // mesh has 1.5 edges a triangle.
            let n = m.triangle_count();
            let what = format!("a TriMesh of {n} triangles");
            (n.saturating_mul(6), Some((what, "fewer triangles")))
        }
        Any3::HeightField(h) => {
            // Each triangle filled (3 corners) and outlined (4 points).
            let n = h.triangle_count();
            let what = format!(
                "a HeightField of {} × {} points, {n} triangles",
                h.nrows(),
                h.ncols()
            );
            (n.saturating_mul(7), Some((what, "fewer rows and columns")))
        }
    }
}

/// The points of a compound of `n` parts, and what it is.
fn parts(n: usize) -> (usize, Bulk) {
    let what = format!("a Compound of {n} parts");
    (n * CONVEX_POINTS, Some((what, "fewer parts")))
}
