//! Supporting features: the vertex, edge or face of a convex shape farthest along a
//! direction, the input of the clipped manifolds of
//! [`crate::query::manifold::features`]. A face comes with its outward normal; a
//! curved surface gives the flat or straight piece it has (a cylinder's cap disc or
//! side line, a cone's base disc or slant line, a capsule's side line), or its one
//! support point.
//!
//! References: Jolt `Shape::GetSupportingFace` (a cylinder's cap as a polygon) and
//! parry's `PolygonalFeatureMap` (one supporting polygon per direction).
//!
//! Tolerances: a disc is the regular polygon of [`DISC_VERTICES`] vertices on its rim
//! (the manifold adds the exact deepest point when a rim point between them goes
//! deeper). A curved shape gives its flat or straight piece when the direction is
//! nearer that piece's normal than [`PIECE_COS`] allows for the alternative (the
//! clipping then keeps only the points that touch); a face of zero area has no
//! normal.

use crate::math::{Real, Vector, Vector2, Vector3};
use crate::shape::{
    Aabb, Capsule, Cone, ConvexPolygon, ConvexPolyhedron, Cylinder, Segment, Triangle,
};

/// Most vertices a feature has: a polyhedron face with more gives its support vertex.
pub const MAX_FEATURE_VERTICES: usize = 16;
/// Vertices of the polygon standing for a disc (a cylinder's cap, a cone's base).
pub const DISC_VERTICES: usize = 8;
/// A capsule's side line (3D) or side edge (2D) is its feature when the direction's
/// cosine with the capsule's axis is at most this (45°); nearer the axis, its end cap's
/// support point.
pub const PIECE_COS: f64 = core::f64::consts::FRAC_1_SQRT_2;

/// A vertex, an edge or a face of a convex shape in its local frame: 1 to
/// [`MAX_FEATURE_VERTICES`] vertices, a face's counter-clockwise seen from outside.
#[derive(Copy, Clone, Debug)]
pub struct SupportFeature<V: Vector> {
    vertices: [V; MAX_FEATURE_VERTICES],
    len: usize,
    /// The outward unit normal when the feature is a flat face of non-zero area: a
    /// polygon in 3D, an edge in 2D. `None` for a vertex or a line (a 3D edge, the
    /// side line of a curved surface).
    pub normal: Option<V>,
    /// The feature's index in its shape (a box face, a cap, a polygon edge), the same
    /// while the same feature supports.
    pub id: u32,
    /// True when the vertices sample a curved edge (a disc's rim): only the whole set
    /// is a feature, a part of it is not.
    pub sampled: bool,
}

impl<V: Vector> SupportFeature<V> {
    /// The feature of one vertex.
    pub fn point(p: V, id: u32) -> Self {
        Self::polygon(&[p], None, id)
    }

    /// The feature of `vertices` (at most [`MAX_FEATURE_VERTICES`]; more are dropped),
    /// a face when `normal` is given.
    pub fn polygon(vertices: &[V], normal: Option<V>, id: u32) -> Self {
        let len = vertices.len().clamp(1, MAX_FEATURE_VERTICES);
        let mut all = [V::ZERO; MAX_FEATURE_VERTICES];
        all[..len].copy_from_slice(&vertices[..len.min(vertices.len())]);
        Self {
            vertices: all,
            len,
            normal,
            id,
            sampled: false,
        }
    }

    /// The vertices.
    #[inline]
    pub fn vertices(&self) -> &[V] {
        &self.vertices[..self.len]
    }

    /// The feature moved by `offset` (a rounded shape's core feature pushed out by its
    /// radius).
    pub fn moved(mut self, offset: V) -> Self {
        for v in &mut self.vertices[..self.len] {
            *v += offset;
        }
        self
    }
}

/// A convex shape that can name its supporting feature.
pub trait FeatureMap<V: Vector>: crate::algo::support::SupportMap<V> {
    /// The feature farthest along local `dir` (a unit vector): its vertices all
    /// support `dir` up to the curvature the tolerances above allow.
    fn support_feature(&self, dir: V) -> SupportFeature<V>;
}

/// The unit vector of `v`, or `fallback` when it has no direction.
#[inline]
fn unit_or<V: Vector>(v: V, fallback: V) -> V {
    v.try_normalize().unwrap_or(fallback)
}

/// A segment's feature: both ends (a face when `normal` is given), or one when they
/// coincide.
fn segment_feature<V: Vector>(a: V, b: V, normal: Option<V>, id: u32) -> SupportFeature<V> {
    if a == b {
        return SupportFeature::point(a, id);
    }
    SupportFeature::polygon(&[a, b], normal, id)
}

/// The side of a 2D segment facing `dir`, as an edge: ends ordered counter-clockwise
/// about the shape (the normal is the edge direction rotated by −90°).
pub fn segment_2d<V: Vector2>(s: &Segment<V>, dir: V) -> SupportFeature<V> {
    let Some(n) = (s.b - s.a).perp().try_normalize() else {
        return SupportFeature::point(s.a, 0);
    };
    if n.dot(dir) >= V::Scalar::ZERO {
        segment_feature(s.b, s.a, Some(n), 0)
    } else {
        segment_feature(s.a, s.b, Some(-n), 1)
    }
}

/// A 3D segment's feature, whatever the direction: the segment (a line, no normal).
pub fn segment_3d<V: Vector3>(s: &Segment<V>) -> SupportFeature<V> {
    segment_feature(s.a, s.b, None, 0)
}

/// A 2D box's edge most aligned with `dir` (its index `2·axis + (1 for −)`).
pub fn box_2d<V: Vector2>(b: &Aabb<V>, dir: V) -> SupportFeature<V> {
    let (c, h) = (b.center(), b.half_extents());
    let axis = dir.abs().max_axis();
    let neg = dir.get(axis) < V::Scalar::ZERO;
    let s = if neg { -V::Scalar::ONE } else { V::Scalar::ONE };
    let n = V::unit_axis(axis) * s;
    // The edge's ends, counter-clockwise about the box: from −t to +t, t = n rotated by +90°.
    let t = n.perp();
    let (hn, ht) = (h.get(axis), h.get(1 - axis));
    let (p, q) = (c + n * hn - t * ht, c + n * hn + t * ht);
    let normal = (ht > V::Scalar::ZERO).then_some(n);
    segment_feature(p, q, normal, 2 * axis as u32 + u32::from(neg))
}

/// A 3D box's face most aligned with `dir` (index `2·axis + (1 for −)`); a face of
/// zero area is a line or a vertex.
pub fn box_3d<V: Vector3>(b: &Aabb<V>, dir: V) -> SupportFeature<V> {
    let face = crate::algo::clip_3d::box_incident_face(-dir);
    let (corners, _) = crate::algo::clip_3d::box_face(b.half_extents(), face);
    let c = b.center();
    let pts = corners.map(|p| p + c);
    let h = b.half_extents();
    let axis = face / 2;
    let (u, w) = (h.get((axis + 1) % 3), h.get((axis + 2) % 3));
    let zero = V::Scalar::ZERO;
    let id = face as u32;
    match (u > zero, w > zero) {
        (true, true) => {
            let s = if face % 2 == 1 {
                -V::Scalar::ONE
            } else {
                V::Scalar::ONE
            };
            SupportFeature::polygon(&pts, Some(V::unit_axis(axis) * s), id)
        }
        // Corners 0 and 1 differ in u, 1 and 2 in w (see `box_face`).
        (true, false) => SupportFeature::polygon(&pts[..2], None, id),
        (false, true) => SupportFeature::polygon(&pts[1..3], None, id),
        (false, false) => SupportFeature::point(pts[0], id),
    }
}

/// A 2D capsule's straight side facing `dir` when `dir` is within 45° of its normal,
/// else the support point of the end cap.
pub fn capsule_2d<V: Vector2>(c: &Capsule<V>, dir: V) -> SupportFeature<V> {
    let s = c.segment();
    let r = c.radius();
    let Some(axis) = (s.b - s.a).try_normalize() else {
        return SupportFeature::point(s.a + unit_or(dir, V::unit_axis(0)) * r, 0);
    };
    if axis.dot(dir).abs() > V::Scalar::from_f64(PIECE_COS) {
        let end = if axis.dot(dir) > V::Scalar::ZERO {
            s.b
        } else {
            s.a
        };
        return SupportFeature::point(end + unit_or(dir, axis) * r, 2);
    }
    let side = segment_2d(&s, dir);
    let n = side.normal.unwrap_or(V::ZERO);
    side.moved(n * r)
}

/// A 3D capsule's side line facing `dir` (its core moved by the radius across the
/// axis) when `dir` is within 45° of perpendicular to its axis, else the support
/// point of the end cap.
pub fn capsule_3d<V: Vector3>(c: &Capsule<V>, dir: V) -> SupportFeature<V> {
    let s = c.segment();
    let r = c.radius();
    let d = unit_or(dir, V::unit_axis(1));
    let Some(axis) = (s.b - s.a).try_normalize() else {
        return SupportFeature::point(s.a + d * r, 0);
    };
    if axis.dot(d).abs() > V::Scalar::from_f64(PIECE_COS) {
        let end = if axis.dot(d) > V::Scalar::ZERO {
            s.b
        } else {
            s.a
        };
        return SupportFeature::point(end + d * r, 1);
    }
    // The line of the side surface farthest along `d`: the axis moved by `r` across it.
    let across = unit_or(d - axis * axis.dot(d), d);
    segment_3d(&s).moved(across * r)
}

/// A 3D triangle's face on the side of `dir` (id 0 for the `(b − a) × (c − a)` side,
/// 1 for the other); a triangle of zero area gives the segment it spans (id 2), a line
/// as a 3D segment's, or its one point.
pub fn triangle_3d<V: Vector3>(t: &Triangle<V>, dir: V) -> SupportFeature<V> {
    let [a, b, c] = t.vertices();
    match (b - a).cross(c - a).try_normalize() {
        Some(n) if n.dot(dir) >= V::Scalar::ZERO => SupportFeature::polygon(&[a, b, c], Some(n), 0),
        Some(n) => SupportFeature::polygon(&[a, c, b], Some(-n), 1),
        None => {
            // Collinear corners: the two farthest apart are the segment's ends (its
            // support vertex along any direction is one of them).
            let (p, q) =
                [(a, b), (b, c), (c, a)]
                    .into_iter()
                    .fold((a, a), |(p, q), (u, w)| {
                        match u.distance_squared(w) > p.distance_squared(q) {
                            true => (u, w),
                            false => (p, q),
                        }
                    });
            segment_feature(p, q, None, 2)
        }
    }
}

/// The edge of a counter-clockwise 2D polygon (`vertices[i] → vertices[i + 1]`,
/// outward `normals[i]`) most aligned with `dir`, among the two at its support vertex.
pub fn polygon_2d<V: Vector2>(vertices: &[V], normals: &[V], dir: V) -> SupportFeature<V> {
    let n = vertices.len();
    let best = (0..n).fold(0, |b, i| {
        if vertices[i].dot(dir) > vertices[b].dot(dir) {
            i
        } else {
            b
        }
    });
    let before = (best + n - 1) % n;
    let e = if normals[before].dot(dir) > normals[best].dot(dir) {
        before
    } else {
        best
    };
    SupportFeature::polygon(
        &[vertices[e], vertices[(e + 1) % n]],
        Some(normals[e]),
        e as u32,
    )
}

/// A 2D triangle's edge most aligned with `dir`.
pub fn triangle_2d<V: Vector2>(t: &Triangle<V>, dir: V) -> SupportFeature<V> {
    let [a, b, c] = t.vertices();
    let ccw = (b - a).perp_dot(c - a) >= V::Scalar::ZERO;
    let v = if ccw { [a, b, c] } else { [a, c, b] };
    let normals =
        [0, 1, 2].map(|i| unit_or((v[(i + 1) % 3] - v[i]).perp(), V::ZERO) * -V::Scalar::ONE);
    if normals.iter().all(|n| *n == V::ZERO) {
        return SupportFeature::point(crate::algo::support::support_of_points(&v, dir), 3);
    }
    polygon_2d(&v, &normals, dir)
}

/// A convex polygon's edge most aligned with `dir`.
pub fn convex_polygon<R: Real>(p: &ConvexPolygon<R>, dir: R::V2) -> SupportFeature<R::V2> {
    polygon_2d(p.vertices(), p.normals(), dir)
}

/// The face most aligned with `dir` among a convex polyhedron's faces around its
/// support vertex and, when a neighbour is within [`PIECE_COS`]'s sine of the
/// support's height over the face, its top edge too (its face index): the globally
/// most aligned face need not hold the support, nor the most aligned face around the
/// vertex its supporting edge. A face of more than [`MAX_FEATURE_VERTICES`] vertices
/// gives the support vertex instead.
pub fn convex_polyhedron<R: Real>(p: &ConvexPolyhedron<R>, dir: R::V3) -> SupportFeature<R::V3> {
    let faces = p.faces();
    let top = p.support_index(dir);
    let edge = top_edge(p, top, dir);
    let holds = |i: usize| {
        let idx = faces[i].vertex_indices();
        idx.contains(&top) && edge.is_none_or(|w| idx.contains(&w))
    };
    let best = (0..faces.len())
        .filter(|&i| holds(i))
        .fold(None, |b: Option<usize>, i| match b {
            Some(b) if faces[b].normal().dot(dir) >= faces[i].normal().dot(dir) => Some(b),
            _ => Some(i),
        });
    let Some(best) = best else {
        let v = crate::algo::support::support_of_points(p.vertices(), dir);
        return SupportFeature::point(v, u32::MAX);
    };
    let f = &faces[best];
    if f.vertex_indices().len() > MAX_FEATURE_VERTICES || p.is_flat() && faces.len() < 2 {
        let v = crate::algo::support::support_of_points(p.vertices(), dir);
        return SupportFeature::point(v, u32::MAX);
    }
    let mut pts = [R::V3::ZERO; MAX_FEATURE_VERTICES];
    let idx = f.vertex_indices();
    for (k, &i) in idx.iter().enumerate() {
        pts[k] = p.vertices()[i];
    }
    SupportFeature::polygon(&pts[..idx.len()], Some(f.normal()), best as u32)
}

/// The neighbour of the support vertex `top` (sharing a face) highest along `dir`,
/// when it lies within the sine of [`PIECE_COS`]'s angle (times their distance) of
/// `top`'s height: the two span the supporting edge.
fn top_edge<R: Real>(p: &ConvexPolyhedron<R>, top: usize, dir: R::V3) -> Option<usize> {
    let v = p.vertices();
    let h = v[top].dot(dir);
    let neighbours = p
        .faces()
        .iter()
        .filter(|f| f.vertex_indices().contains(&top))
        .flat_map(|f| f.vertex_indices().iter().copied())
        .filter(|&w| w != top);
    let (w, hw) = neighbours.fold((None, R::NEG_INFINITY), |(b, hb), w| {
        let hw = v[w].dot(dir);
        if hw > hb {
            (Some(w), hw)
        } else {
            (b, hb)
        }
    });
    let w = w?;
    let sine = R::from_f64(1.0 - PIECE_COS * PIECE_COS).sqrt();
    (h - hw <= sine * v[w].distance(v[top]) * dir.length()).then_some(w)
}

/// A rounded shape's feature: its core's `core` pushed out by `radius`, along the face
/// normal for a face (its flat part), along `dir` otherwise.
pub fn rounded<V: Vector>(core: SupportFeature<V>, radius: V::Scalar, dir: V) -> SupportFeature<V> {
    let out = core.normal.unwrap_or_else(|| unit_or(dir, V::ZERO));
    core.moved(out * radius)
}

/// The polygon of [`DISC_VERTICES`] vertices on the circle of `radius` in the plane
/// `y = y`, counter-clockwise about `+y` when `up`, about `−y` otherwise.
fn disc<V: Vector3>(radius: V::Scalar, y: V::Scalar, up: bool) -> [V; DISC_VERTICES] {
    core::array::from_fn(|k| {
        let step = if up { DISC_VERTICES - k } else { k };
        let angle =
            V::Scalar::from_f64(core::f64::consts::TAU * step as f64 / DISC_VERTICES as f64);
        V::new(radius * angle.cos(), y, radius * angle.sin())
    })
}

/// The feature of a disc of `radius` in the plane `y = y` with outward normal
/// `±y` (`up`): the polygon, or its centre for a zero radius.
fn disc_feature<V: Vector3>(
    radius: V::Scalar,
    y: V::Scalar,
    up: bool,
    id: u32,
) -> SupportFeature<V> {
    let centre = V::new(V::Scalar::ZERO, y, V::Scalar::ZERO);
    if radius.is_nan() || radius <= V::Scalar::ZERO {
        return SupportFeature::point(centre, id);
    }
    let s = if up { V::Scalar::ONE } else { -V::Scalar::ONE };
    SupportFeature {
        sampled: true,
        ..SupportFeature::polygon(&disc::<V>(radius, y, up), Some(V::unit_axis(1) * s), id)
    }
}

/// The unit radial direction of `dir` in the `xz` plane (`+x` when it has none).
fn radial<V: Vector3>(dir: V) -> V {
    let flat = V::new(dir.get(0), V::Scalar::ZERO, dir.get(2));
    unit_or(flat, V::unit_axis(0))
}

/// A cylinder's cap (id 0 top, 1 bottom) when `dir` is within 45° of its axis, else
/// its side line in the radial direction of `dir` (id 2).
pub fn cylinder<R: Real>(c: &Cylinder<R>, dir: R::V3) -> SupportFeature<R::V3> {
    let (h, r) = (c.half_height(), c.radius());
    let y = dir.get(1);
    if y.abs() >= R::from_f64(PIECE_COS) * dir.length() {
        let up = y >= R::ZERO;
        return disc_feature(r, if up { h } else { -h }, up, u32::from(!up));
    }
    let u = radial(dir) * r;
    let (low, high) = (u + R::V3::unit_axis(1) * -h, u + R::V3::unit_axis(1) * h);
    segment_feature(low, high, None, 2)
}

/// A cone's base disc (id 0) when `dir` is nearer the base's normal than the slant's,
/// else its slant line from the apex to the rim in the radial direction of `dir`
/// (id 1). A cone of zero height is a disc: its face on the side of `dir` (id 1 the
/// upper, where the slant was).
pub fn cone<R: Real>(c: &Cone<R>, dir: R::V3) -> SupportFeature<R::V3> {
    let (h, r) = (c.half_height(), c.radius());
    if h == R::ZERO {
        // A flat cone is its base disc, whose upper side is the slant (no line of it
        // holds the support of a direction near `+y`).
        let up = dir.get(1) >= R::ZERO;
        return disc_feature(r, R::ZERO, up, u32::from(up));
    }
    let u = radial(dir);
    // The slant's outward normal in the plane of `u` and the axis: (2h·u, r).
    let slant = unit_or(u * (h + h) + R::V3::unit_axis(1) * r, R::V3::unit_axis(1));
    let d = unit_or(dir, R::V3::unit_axis(1));
    if -d.get(1) >= slant.dot(d) {
        return disc_feature(r, -h, false, 0);
    }
    let apex = R::V3::unit_axis(1) * h;
    segment_feature(apex, u * r - R::V3::unit_axis(1) * h, None, 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, DVec3};

    /// Twice the area vector of a polygon (Newell's method).
    fn area_normal(v: &[DVec3]) -> DVec3 {
        (0..v.len()).fold(DVec3::ZERO, |s, i| s + v[i].cross(v[(i + 1) % v.len()]))
    }

    // Every face is counter-clockwise about its normal, and its vertices support `dir`.
    #[test]
    fn faces_wind_about_their_normals() {
        let b = Aabb::new(DVec3::new(-1.0, -2.0, -3.0), DVec3::new(2.0, 1.0, 0.5)).unwrap();
        let cyl = Cylinder::<f64>::new(1.0, 0.5).unwrap();
        let co = Cone::<f64>::new(1.0, 0.5).unwrap();
        let tri = Triangle::new(DVec3::ZERO, DVec3::X, DVec3::Y).unwrap();
        let dirs = [
            DVec3::X,
            -DVec3::X,
            DVec3::Y,
            -DVec3::Y,
            DVec3::Z,
            -DVec3::Z,
        ];
        for d in dirs {
            for f in [
                box_3d(&b, d),
                cylinder(&cyl, d),
                cone(&co, d),
                triangle_3d(&tri, d),
            ] {
                let Some(n) = f.normal else { continue };
                assert!(
                    area_normal(f.vertices()).normalize().dot(n) > 0.999,
                    "{d} {f:?}"
                );
                assert!(n.dot(d) >= 0.0, "{d} {f:?}");
            }
        }
    }

    // Discs wind about their normals; a zero radius is a point.
    #[test]
    fn discs() {
        let c = Cylinder::<f64>::new(1.0, 2.0).unwrap();
        let top = cylinder(&c, DVec3::Y);
        assert_eq!(top.vertices().len(), DISC_VERTICES);
        assert!(top.vertices().iter().all(|v| (v.y - 1.0).abs() < 1e-12));
        let side = cylinder(&c, DVec3::new(1.0, 0.1, 0.0));
        assert_eq!(
            side.vertices(),
            &[DVec3::new(2.0, -1.0, 0.0), DVec3::new(2.0, 1.0, 0.0)]
        );
        let pin = Cylinder::<f64>::new(1.0, 0.0).unwrap();
        assert_eq!(
            cylinder(&pin, -DVec3::Y).vertices(),
            &[DVec3::new(0.0, -1.0, 0.0)]
        );
    }

    // 2D edges run counter-clockwise about their shape (outward normal on the right).
    #[test]
    fn edges_2d() {
        let b = Aabb::new(DVec2::new(-1.0, -1.0), DVec2::new(1.0, 3.0)).unwrap();
        let s = Segment::new(DVec2::ZERO, DVec2::X).unwrap();
        let cap = Capsule::new(DVec2::ZERO, DVec2::X, 0.5).unwrap();
        for d in [DVec2::X, -DVec2::X, DVec2::Y, -DVec2::Y] {
            for f in [box_2d(&b, d), segment_2d(&s, d), capsule_2d(&cap, d)] {
                let Some(n) = f.normal else { continue };
                let [p, q] = [f.vertices()[0], f.vertices()[1]];
                assert!(
                    ((q - p).perp() * -1.0).normalize().dot(n) > 0.999,
                    "{d} {f:?}"
                );
                assert!(n.dot(d) >= 0.0);
            }
        }
        assert_eq!(
            capsule_2d(&cap, DVec2::Y).vertices(),
            &[DVec2::new(1.0, 0.5), DVec2::new(0.0, 0.5)]
        );
    }
}
