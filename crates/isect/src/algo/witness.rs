//! Witness points of a separating-axis contact: where on the two shapes a contact of
//! normal `n` (from A to B) and depth `d` takes place, for polytopes given by their
//! vertices (2D polygons and boxes, 3D boxes).
//!
//! Method: the minimum translation `d · n` is the point of the Minkowski difference
//! `A − B` nearest the origin, so it lies on the difference's support feature along
//! `n`, which is `S_A(n) − S_B(−n)` (the support features: A's vertices on its
//! supporting plane along `n`, B's on its supporting plane along `−n`). Hence the
//! projections of `S_A(n)` and `S_B(−n)` onto the plane normal to `n` overlap, and
//! that overlap is the contact region (Ericson, *Real-Time Collision Detection*, 9.4
//! on the Minkowski sum's support features; Box2D v3 and Jolt clip the same two
//! features to build their manifolds). The witness is the centre of the overlap (the
//! middle of an interval in 2D; in 3D the mean of the clipped polygon's vertices, the
//! middle of a clipped segment, the crossing of two edges, or a vertex), lifted onto
//! A's supporting plane for `point_a`; `point_b = point_a − d · n` lies on B's
//! supporting plane up to rounding. So both points lie on their shape's surface and
//! in the contact region, and `point_a − point_b = d · n` exactly as EPA's contacts.
//!
//! Boxes in 3D (`witness_boxes_3d`, for the dispatch's box pairs) take the same sets
//! without computing their corners: the corner farthest along `n`, and the corners that
//! flip it along box axes whose drops `2·h·|n·u|` sum to at most the tolerance (the
//! corners the filter below keeps, up to the rounding of a corner's height, which
//! matters only for a drop within rounding of the tolerance itself).
//!
//! Polygons in 2D (`witness_2d_placed`, for the dispatch's polygon and box pairs) take
//! the same sets in A's frame, with `n` turned into each polygon's frame, so no vertex
//! is moved: a dot product per vertex and side, one transform of the answer.
//!
//! Tolerance: vertices within `eps(`[`SUPPORT_FEATURE_ULPS`]`)` times the largest
//! coordinate of their supporting plane belong to the support feature (rounding of
//! the poses must not turn a resting face into one corner). Two edges seen along `n`
//! are parallel within the same epsilons of their lengths and of the coordinates'
//! size (far from the origin, rounding tilts short edges). When rounding empties the
//! overlap, the middle between the two features is used. NaN input gives NaN points.

// `!(x > y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
use crate::math::tolerance::eps;
use crate::math::{Isometry, Pose2, Real, Vector, Vector2, Vector3};

/// Vertices this many machine epsilons (relative to the largest coordinate) below a
/// supporting plane still belong to the support feature.
pub const SUPPORT_FEATURE_ULPS: f64 = 64.0;

/// Most support-feature points gathered per shape in 3D (a box face has 4; further
/// points are dropped).
pub const MAX_FEATURE_POINTS: usize = 8;

/// A 2D point set: its points and how many are used.
type PointSet<W> = ([W; MAX_FEATURE_POINTS], usize);

/// The heights of the two supporting planes along `n` (`max n·v` over A, `min n·v`
/// over B) and the tolerance of [`SUPPORT_FEATURE_ULPS`].
fn support_planes<V: Vector>(
    a: impl Iterator<Item = V>,
    b: impl Iterator<Item = V>,
    n: V,
) -> (V::Scalar, V::Scalar, V::Scalar) {
    let s = V::Scalar::ZERO;
    let (mut top, mut bottom, mut size) = (V::Scalar::NEG_INFINITY, V::Scalar::INFINITY, s);
    for v in a {
        top = top.max(n.dot(v));
        size = size.max(v.abs().max_element());
    }
    for v in b {
        bottom = bottom.min(n.dot(v));
        size = size.max(v.abs().max_element());
    }
    (top, bottom, eps::<V::Scalar>(SUPPORT_FEATURE_ULPS) * size)
}

/// Witness points `(point_a, point_b)` of the 2D contact of normal `n` and depth
/// `depth` between the polygons of vertices `a` and `b` (world space; see the module
/// docs).
pub fn witness_2d<V: Vector2>(
    a: impl Iterator<Item = V> + Clone,
    b: impl Iterator<Item = V> + Clone,
    n: V,
    depth: V::Scalar,
) -> (V, V) {
    let (top, bottom, tol) = support_planes(a.clone(), b.clone(), n);
    let t = n.perp();
    let (a0, a1) = interval(a.filter(|&v| n.dot(v) >= top - tol), t);
    let (b0, b1) = interval(b.filter(|&v| n.dot(v) <= bottom + tol), t);
    let half = V::Scalar::from_f64(0.5);
    let middle = (a0.max(b0) + a1.min(b1)) * half;
    let point_a = t * middle + n * top;
    (point_a, point_a - n * depth)
}

/// A polygon's vertices in its own frame, and where that frame is.
#[derive(Copy, Clone, Debug)]
pub(crate) struct PlacedPolygon<'a, R: Real> {
    /// The vertices, in the polygon's frame.
    pub vertices: &'a [R::V2],
    /// The polygon's frame.
    pub pose: Pose2<R>,
}

/// [`witness_2d`] for two polygons in their own frames, `pose_ab` taking B's frame
/// into A's: the support sets are found in A's frame with `n` turned into each
/// polygon's frame, so no vertex is transformed (one transform of the result).
/// Agrees with `witness_2d` up to rounding: the tolerance's size is the farther
/// pose's translation plus the larger polygon's coordinates, as rounding of the
/// poses is what tilts a resting face (slightly more than `witness_2d`'s largest
/// world coordinate, so a vertex within rounding of the tolerance may be counted on
/// one side by one and on the other by the other).
pub(crate) fn witness_2d_placed<R: Real>(
    a: PlacedPolygon<'_, R>,
    b: PlacedPolygon<'_, R>,
    pose_ab: &Pose2<R>,
    n: R::V2,
    depth: R,
) -> (R::V2, R::V2) {
    let na = a.pose.inverse_transform_vector(n);
    let nb = pose_ab.inverse_transform_vector(na);
    let (support_a, top, size_a) = Support::new(a.vertices, na);
    let (support_b, neg_bottom, size_b) = Support::new(b.vertices, -nb);
    let reach = larger(
        max_magnitude(a.pose.translation),
        max_magnitude(b.pose.translation),
    );
    let tol = eps::<R>(SUPPORT_FEATURE_ULPS) * (reach + larger(size_a, size_b));
    let (a0, a1) = support_a.interval_above(top - tol);
    let (b0, b1) = support_b.interval_above(neg_bottom - tol);
    // B's tangent is `-(-nb).perp()`, and B's origin lies `t · p` along A's tangent.
    let shift = na.perp().dot(pose_ab.translation);
    let (b0, b1) = (shift - b1, shift - b0);
    let middle = (larger(a0, b0) + smaller(a1, b1)) * R::from_f64(0.5);
    let point_a = a.pose.transform_point(na.perp() * middle + na * top);
    (point_a, point_a - n * depth)
}

/// A polygon's vertices seen along `n`, for its support set: in SSE lanes for a
/// polygon of 2 to 8 `f32` vertices on `x86_64` (`witness_lanes_2d`, the same answers
/// up to the sign of a zero), else by the scalar loops below.
enum Support<'a, R: Real> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    Lanes(super::witness_lanes_2d::SupportLanes),
    Scalar {
        vertices: &'a [R::V2],
        n: R::V2,
    },
}

impl<'a, R: Real> Support<'a, R> {
    /// `vertices` along `n`, with their largest `n · v` and largest coordinate
    /// magnitude (see [`extreme_along`]).
    #[inline(always)]
    fn new(vertices: &'a [R::V2], n: R::V2) -> (Self, R, R) {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        if let Some(lanes) = lanes_f32::<R>(vertices, n) {
            let back = |x: f32| R::from_f64(f64::from(x));
            let (top, size) = (back(lanes.top), back(lanes.size));
            return (Support::Lanes(lanes), top, size);
        }
        let (top, size) = extreme_along(vertices, n);
        (Support::Scalar { vertices, n }, top, size)
    }

    /// The extent along `n.perp()` of the vertices with `n · v ≥ floor` (see
    /// [`interval_above`]).
    #[inline(always)]
    fn interval_above(&self, floor: R) -> (R, R) {
        match self {
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            Support::Lanes(lanes) => {
                // `R` is `f32` here: the conversions are exact.
                let (lo, hi) = lanes.interval_above(floor.to_f64() as f32);
                let back = |x: f32| R::from_f64(f64::from(x));
                (back(lo), back(hi))
            }
            Support::Scalar { vertices, n } => interval_above(vertices, *n, floor),
        }
    }
}

/// [`witness_lanes_2d::SupportLanes`](super::witness_lanes_2d::SupportLanes) of
/// `vertices` along `n` when `R` is `f32` and they fit in its lanes.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn lanes_f32<R: Real>(
    vertices: &[R::V2],
    n: R::V2,
) -> Option<super::witness_lanes_2d::SupportLanes> {
    use core::any::Any;
    use glam::Vec2;
    let n = *(&n as &dyn Any).downcast_ref::<Vec2>()?;
    // SAFETY: `R::V2` is `Vec2` (the downcast above succeeded), so the slice is one of
    // `Vec2`s.
    let vertices =
        unsafe { core::slice::from_raw_parts(vertices.as_ptr().cast::<Vec2>(), vertices.len()) };
    super::witness_lanes_2d::SupportLanes::new(vertices, n)
}

/// The largest `n · v` over `vertices` (`-∞` for none or NaN), and their largest
/// coordinate magnitude.
#[inline]
fn extreme_along<V: Vector2>(vertices: &[V], n: V) -> (V::Scalar, V::Scalar) {
    let (mut top, mut size) = (V::Scalar::NEG_INFINITY, V::Scalar::ZERO);
    for &v in vertices {
        top = larger(n.dot(v), top);
        size = larger(max_magnitude(v), size);
    }
    (top, size)
}

/// The extent along `n`'s tangent `n.perp()` of the `vertices` with `n · v ≥ floor`.
#[inline]
fn interval_above<V: Vector2>(vertices: &[V], n: V, floor: V::Scalar) -> (V::Scalar, V::Scalar) {
    let (mut lo, mut hi) = (V::Scalar::INFINITY, V::Scalar::NEG_INFINITY);
    let t = n.perp();
    for &v in vertices {
        if n.dot(v) >= floor {
            let s = t.dot(v);
            (lo, hi) = (smaller(s, lo), larger(s, hi));
        }
    }
    (lo, hi)
}

/// `max(|x|, |y|)` by compares.
#[inline(always)]
fn max_magnitude<V: Vector2>(v: V) -> V::Scalar {
    larger(v.x().abs(), v.y().abs())
}

/// The larger of `a` and `b` by one compare: `b` when either is NaN, where `f32::max`
/// pays for NaN handling these loops do not need (NaN input still ends in NaN points).
#[inline(always)]
fn larger<S: PartialOrd>(a: S, b: S) -> S {
    if a > b {
        a
    } else {
        b
    }
}

/// The smaller of `a` and `b` by one compare (`b` when either is NaN).
#[inline(always)]
fn smaller<S: PartialOrd>(a: S, b: S) -> S {
    if a < b {
        a
    } else {
        b
    }
}

/// The extent of `points` along `t`.
fn interval<V: Vector>(points: impl Iterator<Item = V>, t: V) -> (V::Scalar, V::Scalar) {
    points.fold(
        (V::Scalar::INFINITY, V::Scalar::NEG_INFINITY),
        |(lo, hi), v| {
            let s = t.dot(v);
            (lo.min(s), hi.max(s))
        },
    )
}

/// Witness points `(point_a, point_b)` of the 3D contact of normal `n` and depth
/// `depth` between the polytopes of vertices `a` and `b` (world space, at most
/// [`MAX_FEATURE_POINTS`] on a supporting plane; see the module docs).
pub fn witness_3d<V: Vector3>(
    a: impl Iterator<Item = V> + Clone,
    b: impl Iterator<Item = V> + Clone,
    n: V,
    depth: V::Scalar,
) -> (V, V) {
    let (top, bottom, tol) = support_planes(a.clone(), b.clone(), n);
    let on_a = first_points(a.filter(|&v| n.dot(v) >= top - tol));
    let on_b = first_points(b.filter(|&v| n.dot(v) <= bottom + tol));
    witness_of_features(&on_a.0[..on_a.1], &on_b.0[..on_b.1], n, top, depth)
}

/// A box in world space: its centre, its unit axes and its half extents along them
/// (the caller's boxes are valid: unit orthogonal axes, extents `≥ 0`).
#[derive(Copy, Clone, Debug)]
pub(crate) struct PlacedBox<V: Vector> {
    /// Centre.
    pub centre: V,
    /// The unit box axes.
    pub axes: [V; 3],
    /// Half extents along `axes` (each `≥ 0`).
    pub half: [V::Scalar; 3],
}

impl<V: Vector3> PlacedBox<V> {
    /// The largest coordinate magnitude of its corners (exactly: along each world axis
    /// the farthest corner takes the centre's side of every box axis).
    fn size(&self) -> V::Scalar {
        let reach = (0..3).fold(self.centre.abs(), |r, i| {
            r + self.axes[i].abs() * self.half[i]
        });
        reach.max_element()
    }

    /// The box's side of a contact along `n`.
    fn support(&self, n: V) -> BoxSupport<V> {
        let along = self.axes.map(|u| n.dot(u));
        let sides: [V; 3] = core::array::from_fn(|i| {
            let h = if along[i] < V::Scalar::ZERO {
                -self.half[i]
            } else {
                self.half[i]
            };
            self.axes[i] * h
        });
        let two = V::Scalar::from_f64(2.0);
        BoxSupport {
            farthest: self.centre + sides[0] + sides[1] + sides[2],
            sides,
            drops: core::array::from_fn(|i| two * self.half[i] * along[i].abs()),
        }
    }
}

/// A box's side of a contact along a normal `n`: the corner farthest along `n`, the
/// half-extent vectors pointing from the centre towards it, and how far below the
/// supporting plane flipping each one moves a corner (`2·h·|n·u|`).
struct BoxSupport<V: Vector> {
    farthest: V,
    sides: [V; 3],
    drops: [V::Scalar; 3],
}

impl<V: Vector> BoxSupport<V> {
    /// True when the support set within `tol` is one point: no axis a corner can flip
    /// along and stay within `tol` of the plane (or only axes of zero extent).
    fn is_point(&self, tol: V::Scalar) -> bool {
        !(0..3).any(|i| self.spans(i, tol))
    }

    /// True when the support set within `tol` extends along box axis `i`: a corner
    /// can flip along it and stay within `tol`, and the box has extent there.
    fn spans(&self, i: usize, tol: V::Scalar) -> bool {
        self.drops[i] <= tol && self.sides[i] != V::ZERO
    }

    /// The edge the support set within `tol` is, as its two ends: exactly one axis of
    /// nonzero extent a corner can flip along (`None`: a point or a face).
    fn edge(&self, tol: V::Scalar) -> Option<(V, V)> {
        let mut axes = (0..3).filter(|&i| self.spans(i, tol));
        match (axes.next(), axes.next()) {
            (Some(i), None) => {
                let other_end = self.farthest - self.sides[i] * V::Scalar::from_f64(2.0);
                Some((self.farthest, other_end))
            }
            _ => None,
        }
    }

    /// The corners within `tol` of the supporting plane (at most eight): the farthest
    /// and those that flip it along axes whose drops sum to at most `tol`.
    fn corners(&self, tol: V::Scalar) -> PointSet<V> {
        let two = V::Scalar::from_f64(2.0);
        let mut set = ([self.farthest; MAX_FEATURE_POINTS], 1);
        // How far below the plane each corner of the set lies.
        let mut falls = [V::Scalar::ZERO; MAX_FEATURE_POINTS];
        for i in (0..3).filter(|&i| self.drops[i] <= tol) {
            for k in 0..set.1 {
                let fall = falls[k] + self.drops[i];
                if fall <= tol {
                    set.0[set.1] = set.0[k] - self.sides[i] * two;
                    falls[set.1] = fall;
                    set.1 += 1;
                }
            }
        }
        set
    }
}

/// [`witness_3d`] of two boxes, their support sets read from the side of the normal
/// each box axis lies on instead of from their sixteen corners: the same sets (up to
/// the rounding of a corner's height) and the same centre. A corner against anything
/// (most contacts of boxes in motion) is that corner, found without the other set.
pub(crate) fn witness_boxes_3d<V: Vector3>(
    a: &PlacedBox<V>,
    b: &PlacedBox<V>,
    n: V,
    depth: V::Scalar,
) -> (V, V) {
    let tol = eps::<V::Scalar>(SUPPORT_FEATURE_ULPS) * a.size().max(b.size());
    let (on_a, on_b) = (a.support(n), b.support(-n));
    let top = n.dot(on_a.farthest);
    let lift_a = |v: V| {
        let point_a = v + n * (top - n.dot(v));
        (point_a, point_a - n * depth)
    };
    if on_a.is_point(tol) {
        return lift_a(on_a.farthest);
    }
    if on_b.is_point(tol) {
        return lift_a(on_b.farthest);
    }
    if let (Some((a0, a1)), Some((b0, b1))) = (on_a.edge(tol), on_b.edge(tol)) {
        // Edge against edge (`overlap_centre`'s two segments), without ordering sets.
        let (u, w) = n.orthonormal_basis();
        let flat = |v: V| <V::Scalar as Real>::V2::new(u.dot(v), w.dot(v));
        let c = segments_centre(flat(a0), flat(a1), flat(b0), flat(b1));
        return lift_a(u * c.x() + w * c.y());
    }
    let (set_a, set_b) = (on_a.corners(tol), on_b.corners(tol));
    witness_of_features(&set_a.0[..set_a.1], &set_b.0[..set_b.1], n, top, depth)
}

/// The first [`MAX_FEATURE_POINTS`] of `points`, in their order.
fn first_points<V: Vector>(points: impl Iterator<Item = V>) -> PointSet<V> {
    let mut set = ([V::ZERO; MAX_FEATURE_POINTS], 0);
    for p in points.take(MAX_FEATURE_POINTS) {
        set.0[set.1] = p;
        set.1 += 1;
    }
    set
}

/// The witnesses of the support features `on_a` (A's corners on its supporting plane
/// along `n`, at height `top`) and `on_b` (B's along `−n`): the centre of their
/// overlap seen along `n`, lifted onto A's plane, and that point moved back by
/// `depth · n`.
fn witness_of_features<V: Vector3>(
    on_a: &[V],
    on_b: &[V],
    n: V,
    top: V::Scalar,
    depth: V::Scalar,
) -> (V, V) {
    let (u, w) = n.orthonormal_basis();
    let flat = |v: &V| <V::Scalar as Real>::V2::new(u.dot(*v), w.dot(*v));
    let lift_a = |c: <V::Scalar as Real>::V2| {
        let point_a = u * c.x() + w * c.y() + n * top;
        (point_a, point_a - n * depth)
    };
    // A single support point of A is the centre (`overlap_centre`'s first case, the
    // same bits): B's set need not be ordered and classified.
    if let ([v], [_, ..]) = (on_a, on_b) {
        return lift_a(flat(v));
    }
    lift_a(overlap_centre(
        gather(on_a.iter().map(flat)),
        gather(on_b.iter().map(flat)),
    ))
}

/// Witness points `(point_a, point_b)` of a contact of normal `n` from the shapes'
/// support sets along it, `a` (A's along `n`) and `b` (B's along `−n`), each one
/// point, the two ends of a line or a face's vertices (world space, at most
/// [`MAX_FEATURE_POINTS`] each). The centre of the overlap of their projections on the
/// plane normal to `n` is lifted back onto each set along `n`: a point stays, a line
/// gives its point over the centre, a face the point of its plane. `None` when the
/// projections do not overlap (by more than `parallel_sin` times the sets' size): the
/// normal is then not where the sets meet. Both witnesses
/// lie on their sets; `point_a − point_b` is along `n` but for two points or two
/// lines crossing at more than the angle of sine `parallel_sin` (their closest
/// points).
pub fn witness_of_sets<V: Vector>(
    a: &[V],
    b: &[V],
    n: V,
    parallel_sin: V::Scalar,
) -> Option<(V, V)> {
    if let ([p], [q]) = (a, b) {
        return Some((*p, *q));
    }
    if let ([p, q], [r, s]) = (a, b) {
        if crossing(*p, *q, *r, *s, n, parallel_sin) {
            let (s1, s2) = (
                crate::shape::Segment { a: *p, b: *q },
                crate::shape::Segment { a: *r, b: *s },
            );
            let (_, _, x, y) = crate::query::distance::closest_points_segment_segment(&s1, &s2);
            return Some((x, y));
        }
    }
    let centre = region_centre(a, b, n, parallel_sin)?;
    Some((lift(a, centre, n), lift(b, centre, n)))
}

/// True when the lines `pq` and `rs` seen along `n` cross at an angle of sine above
/// `parallel_sin` (their closest points are then the contact; nearer parallel they are
/// ill-conditioned, and the overlap's centre is taken).
fn crossing<V: Vector>(p: V, q: V, r: V, s: V, n: V, parallel_sin: V::Scalar) -> bool {
    let flat = |v: V| v - n * n.dot(v);
    let (e, f) = (flat(q - p), flat(s - r));
    let (ee, ff) = (e.length_squared(), f.length_squared());
    let sin2 = ee * ff - e.dot(f) * e.dot(f);
    sin2 > parallel_sin * parallel_sin * ee * ff
}

/// The centre of the overlap of the projections of `a` and `b` on the plane normal to
/// `n` (through the origin), `None` when they are farther apart than `slack` times
/// their size.
fn region_centre<V: Vector>(a: &[V], b: &[V], n: V, slack: V::Scalar) -> Option<V> {
    let size = a
        .iter()
        .chain(b)
        .fold(V::Scalar::ZERO, |m, v| m.max(v.distance(a[0])));
    let tol = slack * size;
    if V::DIM == 2 {
        let t = V::unit_axis(0) * -n.get(1) + V::unit_axis(1) * n.get(0);
        let (a0, a1) = interval(a.iter().copied(), t);
        let (b0, b1) = interval(b.iter().copied(), t);
        let (lo, hi) = (a0.max(b0), a1.min(b1));
        return (lo <= hi + tol).then(|| t * ((lo + hi) * V::Scalar::from_f64(0.5)));
    }
    let (u, w) = basis_3d(n);
    let flat = |v: &V| <V::Scalar as Real>::V2::new(u.dot(*v), w.dot(*v));
    let c = contained_centre(gather(a.iter().map(flat)), gather(b.iter().map(flat)), tol)?;
    Some(u * c.x() + w * c.y())
}

/// [`overlap_centre`] without its fallbacks: `None` when the hulls of `p` and `q` are
/// more than `tol` apart (a point beside the other set included).
fn contained_centre<W: Vector2>(p: PointSet<W>, q: PointSet<W>, tol: W::Scalar) -> Option<W> {
    let (ps, qs) = (&p.0[..p.1], &q.0[..q.1]);
    let near = |x: W, set: &[W]| match feature_of_slice(set) {
        Feature::Point(y) => x.distance(y) <= tol,
        Feature::Segment(a, b) => {
            let s = crate::shape::Segment { a, b };
            let (_, _, y, _) = crate::query::distance::closest_points_segment_segment(
                &s,
                &crate::shape::Segment { a: x, b: x },
            );
            x.distance(y) <= tol
        }
        Feature::Polygon => inside_polygon(x, set, tol),
    };
    match (feature_of_slice(ps), feature_of_slice(qs)) {
        (Feature::Point(x), _) => near(x, qs).then_some(x),
        (_, Feature::Point(x)) => near(x, ps).then_some(x),
        (Feature::Segment(a, b), Feature::Segment(c, d)) => {
            let m = segments_centre(a, b, c, d);
            (near(m, ps) && near(m, qs)).then_some(m)
        }
        (Feature::Segment(a, b), Feature::Polygon) => clip_segment(a, b, qs),
        (Feature::Polygon, Feature::Segment(a, b)) => clip_segment(a, b, ps),
        (Feature::Polygon, Feature::Polygon) => clip_polygons(ps, qs),
    }
}

/// [`feature_of`] on a slice of counter-clockwise points.
fn feature_of_slice<W: Vector2>(pts: &[W]) -> Feature<W> {
    let mut set = ([W::ZERO; MAX_FEATURE_POINTS], pts.len());
    set.0[..pts.len()].copy_from_slice(pts);
    feature_of(&set)
}

/// True when `x` lies within `tol` of the inside of the counter-clockwise convex
/// polygon `poly`.
fn inside_polygon<W: Vector2>(x: W, poly: &[W], tol: W::Scalar) -> bool {
    (0..poly.len()).all(|i| {
        let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
        (q - p).perp_dot(x - p) >= -tol * (q - p).length()
    })
}

/// The point of the set `s` (a point, a line's ends, a face's vertices) nearest `x`:
/// the point, the clamped projection on the line, the projection on the face's plane.
pub fn nearest_on_set<V: Vector>(s: &[V], x: V) -> V {
    match s {
        [p] => *p,
        [p, q] => {
            let e = *q - *p;
            let along = e.length_squared();
            match along > V::Scalar::ZERO {
                true => *p + e * (e.dot(x - *p) / along).clamp_to(V::Scalar::ZERO, V::Scalar::ONE),
                false => *p,
            }
        }
        _ => {
            let m = face_normal(s);
            x - m * m.dot(x - s[0])
        }
    }
}

/// True when `x` lies within `tol` of the set `s` (a point, a line's ends, a face's
/// vertices).
pub fn on_set<V: Vector>(s: &[V], x: V, tol: V::Scalar) -> bool {
    let nearest = nearest_on_set(s, x);
    if x.distance(nearest) > tol {
        return false;
    }
    if s.len() < 3 {
        return true;
    }
    let m = face_normal(s);
    let (u, w) = match V::DIM {
        3 => basis_3d(m),
        _ => return true,
    };
    let flat = |v: &V| <V::Scalar as Real>::V2::new(u.dot(*v), w.dot(*v));
    let face = gather(s.iter().map(flat));
    inside_polygon(flat(&x), &face.0[..face.1], tol)
}

/// An orthonormal pair spanning the plane normal to the 3D unit vector `n`.
fn basis_3d<V: Vector>(n: V) -> (V, V) {
    let (x, y, z) = (n.get(0), n.get(1), n.get(2));
    let v3 = |a, b, c| V::unit_axis(0) * a + V::unit_axis(1) * b + V::unit_axis(2) * c;
    // Branch-free basis (Duff et al. 2017, "Building an orthonormal basis, revisited").
    let sign = V::Scalar::ONE.copysign(z);
    let k = -(sign + z).recip();
    let m = x * y * k;
    (
        v3(V::Scalar::ONE + sign * x * x * k, sign * m, -sign * x),
        v3(m, sign + y * y * k, -y),
    )
}

/// The point of the set `s` (a point, a line's ends, a face's vertices) over
/// `centre` along `n`.
fn lift<V: Vector>(s: &[V], centre: V, n: V) -> V {
    match s {
        [p] => *p,
        [p, q] => {
            let flat = |v: V| v - n * n.dot(v);
            let e = flat(*q - *p);
            let along = e.length_squared();
            let t = match along > V::Scalar::ZERO {
                true => {
                    (e.dot(centre - flat(*p)) / along).clamp_to(V::Scalar::ZERO, V::Scalar::ONE)
                }
                false => V::Scalar::ZERO,
            };
            *p + (*q - *p) * t
        }
        _ => {
            // The face's plane through its first vertex, its normal from the widest
            // corner (a face is flat to rounding).
            let m = face_normal(s);
            let across = m.dot(n);
            match across.abs() > V::Scalar::ZERO {
                true => centre + n * (m.dot(s[0] - centre) / across),
                false => s[0],
            }
        }
    }
}

/// A face's unit normal (either sense) from the cross product of largest area over
/// its first vertex.
fn face_normal<V: Vector>(s: &[V]) -> V {
    let mut best = (V::Scalar::ZERO, V::ZERO);
    for i in 1..s.len() {
        for j in i + 1..s.len() {
            let c = cross(s[i] - s[0], s[j] - s[0]);
            let area = c.length_squared();
            if area > best.0 {
                best = (area, c);
            }
        }
    }
    best.1.try_normalize().unwrap_or(V::ZERO)
}

/// The 3D cross product through the [`Vector`] accessors.
fn cross<V: Vector>(a: V, b: V) -> V {
    let (x, y, z) = (a.get(0), a.get(1), a.get(2));
    let (p, q, r) = (b.get(0), b.get(1), b.get(2));
    V::unit_axis(0) * (y * r - z * q)
        + V::unit_axis(1) * (z * p - x * r)
        + V::unit_axis(2) * (x * q - y * p)
}

/// The first [`MAX_FEATURE_POINTS`] of `points`, in counter-clockwise order about
/// their mean.
fn gather<W: Vector2>(points: impl Iterator<Item = W>) -> PointSet<W> {
    let mut set = first_points(points);
    let pts = &mut set.0[..set.1];
    let c = mean(pts);
    pts.sort_by(|&p, &q| angle_order(p - c, q - c));
    set
}

/// Counter-clockwise order of two directions, from the `+x` axis (NaN sorts equal).
fn angle_order<W: Vector2>(p: W, q: W) -> core::cmp::Ordering {
    let zero = W::Scalar::ZERO;
    let lower = |d: W| d.y() < zero || (d.y() == zero && d.x() < zero);
    lower(p).cmp(&lower(q)).then_with(|| {
        zero.partial_cmp(&p.perp_dot(q))
            .unwrap_or(core::cmp::Ordering::Equal)
    })
}

/// The mean of `points` (NaN for none).
fn mean<W: Vector>(points: &[W]) -> W {
    let n = W::Scalar::from_f64(points.len() as f64);
    points.iter().fold(W::ZERO, |s, &p| s + p) / n
}

/// A support feature seen along the normal.
enum Feature<W> {
    Point(W),
    Segment(W, W),
    Polygon,
}

/// The kind of the ordered point set `s`: a polygon when it spans an area above
/// rounding, else its two farthest points (or its one point).
fn feature_of<W: Vector2>(s: &PointSet<W>) -> Feature<W> {
    let pts = &s.0[..s.1];
    let (mut far, mut best) = ((pts[0], pts[0]), W::Scalar::ZERO);
    for (i, &p) in pts.iter().enumerate() {
        for &q in &pts[i + 1..] {
            if p.distance_squared(q) > best {
                (far, best) = ((p, q), p.distance_squared(q));
            }
        }
    }
    // Twice the area, from the first point: products of absolute coordinates cancel
    // far from the origin and made collinear points look like a polygon.
    let o = pts[0];
    let area2 = (1..pts.len()).fold(W::Scalar::ZERO, |s, i| {
        s + (pts[i] - o).perp_dot(pts[(i + 1) % pts.len()] - o)
    });
    let span = best.sqrt();
    if !(span > W::Scalar::ZERO) {
        Feature::Point(pts[0])
    } else if !(area2.abs() > eps::<W::Scalar>(SUPPORT_FEATURE_ULPS) * best) {
        Feature::Segment(far.0, far.1)
    } else {
        Feature::Polygon
    }
}

/// The centre of the overlap of the convex hulls of `p` and `q` (see the module
/// docs); the middle of their means when rounding leaves no overlap.
fn overlap_centre<W: Vector2>(p: PointSet<W>, q: PointSet<W>) -> W {
    let half = W::Scalar::from_f64(0.5);
    let fallback = (mean(&p.0[..p.1]) + mean(&q.0[..q.1])) * half;
    if p.1 == 0 || q.1 == 0 {
        return fallback;
    }
    let found = match (feature_of(&p), feature_of(&q)) {
        (Feature::Point(x), _) | (_, Feature::Point(x)) => Some(x),
        (Feature::Segment(a, b), Feature::Segment(c, d)) => Some(segments_centre(a, b, c, d)),
        (Feature::Segment(a, b), Feature::Polygon) => clip_segment(a, b, &q.0[..q.1]),
        (Feature::Polygon, Feature::Segment(a, b)) => clip_segment(a, b, &p.0[..p.1]),
        (Feature::Polygon, Feature::Polygon) => clip_polygons(&p.0[..p.1], &q.0[..q.1]),
    };
    found.unwrap_or(fallback)
}

/// The centre of the overlap of segments `ab` and `cd`: the middle of the shared
/// interval of parallel ones, else the middle of their closest points.
fn segments_centre<W: Vector2>(a: W, b: W, c: W, d: W) -> W {
    let half = W::Scalar::from_f64(0.5);
    let (e, f) = (b - a, d - c);
    // The edges are differences of coordinates as large as `scale`: each carries an
    // error of a few ulps of it, which tilts a short edge far from the origin.
    let scale = [a, b, c, d]
        .iter()
        .fold(W::Scalar::ZERO, |m, p| m.max(p.abs().max_element()));
    let (le, lf) = (e.length(), f.length());
    let parallel = e.perp_dot(f).abs()
        <= eps::<W::Scalar>(SUPPORT_FEATURE_ULPS) * (le * lf + scale * (le + lf));
    if parallel {
        let Some(t) = e.try_normalize() else {
            return (a + c) * half;
        };
        let (lo, hi) = (t.dot(a).min(t.dot(b)), t.dot(a).max(t.dot(b)));
        let (lo2, hi2) = (t.dot(c).min(t.dot(d)), t.dot(c).max(t.dot(d)));
        let along = (lo.max(lo2) + hi.min(hi2)) * half;
        let across = (t.perp().dot(a) + t.perp().dot(c)) * half;
        return t * along + t.perp() * across;
    }
    let s1 = crate::shape::Segment { a, b };
    let s2 = crate::shape::Segment { a: c, b: d };
    let (_, _, x, y) = crate::query::distance::closest_points_segment_segment(&s1, &s2);
    (x + y) * half
}

/// The middle of segment `ab` clipped to the counter-clockwise convex polygon `poly`
/// (Cyrus–Beck); `None` when nothing is left.
fn clip_segment<W: Vector2>(a: W, b: W, poly: &[W]) -> Option<W> {
    let (mut t0, mut t1) = (W::Scalar::ZERO, W::Scalar::ONE);
    let d = b - a;
    for i in 0..poly.len() {
        let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
        let e = q - p;
        // Inside is the left of each edge: `e × (x − p) ≥ 0`.
        let (at_a, rate) = (e.perp_dot(a - p), e.perp_dot(d));
        if rate == W::Scalar::ZERO {
            if at_a < W::Scalar::ZERO {
                return None;
            }
            continue;
        }
        let t = -at_a / rate;
        if rate > W::Scalar::ZERO {
            t0 = t0.max(t);
        } else {
            t1 = t1.min(t);
        }
    }
    (t0 <= t1).then(|| a + d * ((t0 + t1) * W::Scalar::from_f64(0.5)))
}

/// Capacity of the clipped polygon: 8 points clipped by 8 half-planes.
const CLIP_CAPACITY: usize = 2 * MAX_FEATURE_POINTS;

/// The mean of the vertices of `p` clipped to `q` (both counter-clockwise and
/// convex, Sutherland–Hodgman; Ericson 8.3.4); `None` when nothing is left.
fn clip_polygons<W: Vector2>(p: &[W], q: &[W]) -> Option<W> {
    let mut cur = ([W::ZERO; CLIP_CAPACITY], 0);
    for &v in p {
        cur.0[cur.1] = v;
        cur.1 += 1;
    }
    for i in 0..q.len() {
        let (s, e) = (q[i], q[(i + 1) % q.len()] - q[i]);
        cur = clip_half_plane(&cur.0[..cur.1], |x| e.perp_dot(x - s));
        if cur.1 == 0 {
            return None;
        }
    }
    Some(mean(&cur.0[..cur.1]))
}

/// One Sutherland–Hodgman pass keeping `side(x) ≥ 0`.
fn clip_half_plane<W: Vector2>(
    poly: &[W],
    side: impl Fn(W) -> W::Scalar,
) -> ([W; CLIP_CAPACITY], usize) {
    let mut out = ([W::ZERO; CLIP_CAPACITY], 0);
    let mut push = |x: W| {
        if out.1 < CLIP_CAPACITY {
            out.0[out.1] = x;
            out.1 += 1;
        }
    };
    let zero = W::Scalar::ZERO;
    for i in 0..poly.len() {
        let (x, y) = (poly[i], poly[(i + 1) % poly.len()]);
        let (sx, sy) = (side(x), side(y));
        if sx >= zero {
            push(x);
        }
        if (sx >= zero) != (sy >= zero) {
            push(x + (y - x) * (sx / (sx - sy)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rotation3;
    use crate::test_rng::Rng;
    use glam::{DQuat, DVec2, DVec3, Quat, Vec3};

    /// The corners of a placed box, for the corner-based [`witness_3d`].
    fn corners<V: Vector3>(b: &PlacedBox<V>) -> Vec<V> {
        (0..8)
            .map(|k: usize| {
                (0..3).fold(b.centre, |c, i| {
                    let h = if k >> i & 1 == 1 {
                        b.half[i]
                    } else {
                        -b.half[i]
                    };
                    c + b.axes[i] * h
                })
            })
            .collect()
    }

    /// A seeded box at scale `s` near `base`: random, axis-aligned or turned as
    /// `like`; a tenth of its extents are zero.
    fn random_box(
        rng: &mut Rng,
        s: f64,
        base: DVec3,
        like: Option<DQuat>,
    ) -> (DVec3, DQuat, [f64; 3]) {
        let centre = base + DVec3::new(rng.range(-s, s), rng.range(-s, s), rng.range(-s, s));
        let rotation = match rng.below(3) {
            0 => DQuat::IDENTITY,
            1 => like.unwrap_or(DQuat::IDENTITY),
            _ => DQuat::from_xyzw(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            )
            .normalize(),
        };
        let half = [0; 3].map(|_| {
            if rng.below(10) == 0 {
                0.0
            } else {
                rng.range(0.1, 1.0) * s
            }
        });
        (centre, rotation, half)
    }

    /// The normals a box pair's SAT can give: a face of either box, the cross of two
    /// edges, or any direction.
    fn random_normal(rng: &mut Rng, a: DQuat, b: DQuat) -> Option<DVec3> {
        let (ea, eb) = (a.matrix_columns(), b.matrix_columns());
        let sign = if rng.below(2) == 0 { 1.0 } else { -1.0 };
        let n = match rng.below(4) {
            0 => ea[rng.below(3)],
            1 => eb[rng.below(3)],
            2 => ea[rng.below(3)].cross(eb[rng.below(3)]),
            _ => DVec3::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            ),
        };
        n.try_normalize().map(|n| n * sign)
    }

    /// The box witness against the corner witness on one pair, in `V`'s precision.
    fn agree<V: Vector3>(
        a: &PlacedBox<V>,
        b: &PlacedBox<V>,
        n: V,
        depth: V::Scalar,
        close: V::Scalar,
    ) {
        let fast = witness_boxes_3d(a, b, n, depth);
        let (ca, cb) = (corners(a), corners(b));
        let slow = witness_3d(ca.iter().copied(), cb.iter().copied(), n, depth);
        let gap = fast.0.distance(slow.0).max(fast.1.distance(slow.1));
        assert!(
            gap <= close,
            "{a:?} {b:?} n {n:?}: {fast:?} against {slow:?}"
        );
    }

    // The box witness finds the support sets from the axes' sides; the corner witness
    // filters the sixteen corners. Over faces, edges and corners of turned,
    // axis-aligned, parallel and flat boxes, at three scales, near the origin and up
    // to 10⁴ sizes away from it, in both precisions, the two give the same points up
    // to rounding of the coordinates.
    #[test]
    fn box_witness_is_the_corner_witness() {
        let mut rng = Rng(0x0051_573D);
        for s in [1e-3, 1.0, 1e3] {
            for k in 0..3000 {
                let far = [0.0, 1.0, 1e2, 1e4][k % 4] * s;
                let mut coord = || rng.range(-far, far);
                let base = DVec3::new(coord(), coord(), coord());
                let (ca, ra, ha) = random_box(&mut rng, s, base, None);
                let (cb, rb, hb) = random_box(&mut rng, s, base, Some(ra));
                let Some(n) = random_normal(&mut rng, ra, rb) else {
                    continue;
                };
                let depth = rng.range(0.0, 0.1) * s;
                let size = s + base.abs().max_element();
                let a64 = PlacedBox {
                    centre: ca,
                    axes: ra.matrix_columns(),
                    half: ha,
                };
                let b64 = PlacedBox {
                    centre: cb,
                    axes: rb.matrix_columns(),
                    half: hb,
                };
                agree(&a64, &b64, n, depth, 1e-12 * size);
                let (qa, qb) = (ra.as_quat(), rb.as_quat());
                let a32 = PlacedBox {
                    centre: ca.as_vec3(),
                    axes: qa.matrix_columns(),
                    half: ha.map(|h| h as f32),
                };
                let b32 = PlacedBox {
                    centre: cb.as_vec3(),
                    axes: qb.matrix_columns(),
                    half: hb.map(|h| h as f32),
                };
                agree(&a32, &b32, n.as_vec3(), depth as f32, 2e-5 * size as f32);
            }
        }
    }

    // Two boxes turned alike meet edge to edge along `n = (u0 + u1)/√2`: both support
    // sets are edges along `u2`, spanning [−1, 1] (A) and [−0.1, 0.7] (B) along it, so
    // the witness is at 0.3 on A's edge, near the origin and far from it.
    #[test]
    fn parallel_edges_meet_at_the_middle_of_their_overlap() {
        let q = DQuat::from_rotation_z(0.3) * DQuat::from_rotation_x(0.2);
        let u = q.matrix_columns();
        let n = (u[0] + u[1]).normalize();
        let depth = 0.05;
        for offset in [0.0, 1.0, 1e2, 1e4] {
            let ca = DVec3::new(offset, -0.5 * offset, 0.25 * offset);
            let cb = ca + u[0] + u[1] - n * depth + u[2] * 0.3;
            let a = PlacedBox {
                centre: ca,
                axes: u,
                half: [0.5, 0.5, 1.0],
            };
            let b = PlacedBox {
                centre: cb,
                axes: u,
                half: [0.5, 0.5, 0.4],
            };
            let on_a = ca + (u[0] + u[1]) * 0.5 + u[2] * 0.3;
            let (ia, ib) = (corners(&a), corners(&b));
            let by_corners = witness_3d(ia.iter().copied(), ib.iter().copied(), n, depth);
            for (p, q) in [witness_boxes_3d(&a, &b, n, depth), by_corners] {
                let close = 1e-12 * (1.0 + offset);
                assert!(
                    p.distance(on_a) <= close,
                    "offset {offset}: {p} against {on_a}"
                );
                assert!(
                    q.distance(on_a - n * depth) <= close,
                    "offset {offset}: {q}"
                );
            }
        }
    }

    // Resting faces: a box on a wider one, both axis-aligned, gives the middle of
    // the smaller face, on each surface.
    #[test]
    fn resting_faces_give_the_middle_of_the_contact() {
        let floor = PlacedBox {
            centre: Vec3::ZERO,
            axes: Quat::IDENTITY.matrix_columns(),
            half: [5.0, 0.5, 5.0],
        };
        let crate_ = PlacedBox {
            centre: Vec3::new(1.0, 0.9, -2.0),
            axes: Quat::IDENTITY.matrix_columns(),
            half: [0.5; 3],
        };
        let (on_floor, on_crate) = witness_boxes_3d(&floor, &crate_, Vec3::Y, 0.1);
        assert!(
            (on_floor - Vec3::new(1.0, 0.5, -2.0)).length() < 1e-6,
            "{on_floor}"
        );
        assert!(
            (on_crate - Vec3::new(1.0, 0.4, -2.0)).length() < 1e-6,
            "{on_crate}"
        );
    }

    // A NaN normal gives NaN points, as the corner witness does.
    #[test]
    fn nan_normal_gives_nan_points() {
        let unit = PlacedBox {
            centre: DVec3::ZERO,
            axes: DQuat::IDENTITY.matrix_columns(),
            half: [1.0; 3],
        };
        let (p, q) = witness_boxes_3d(&unit, &unit, DVec3::new(f64::NAN, 0.0, 1.0), 0.5);
        assert!(p.is_nan() && q.is_nan());
    }

    /// A seeded polygon of 3–8 vertices in its own frame, `s` across (a box, a
    /// regular polygon or a random hull's corners in order), and a pose near `base`.
    fn random_polygon(rng: &mut Rng, s: f64, base: DVec2) -> (Vec<DVec2>, Pose2<f64>) {
        let n = 3 + rng.below(6);
        let turn = rng.range(0.0, 1.0);
        let r: Vec<f64> = (0..n).map(|_| rng.range(0.3, 1.0) * s).collect();
        let vertices = match rng.below(3) {
            0 => vec![
                DVec2::new(-s, -s),
                DVec2::new(s, -s),
                DVec2::new(s, s),
                DVec2::new(-s, s),
            ],
            k => (0..n)
                .map(|i| {
                    let a = (i as f64 + turn) * std::f64::consts::TAU / n as f64;
                    let radius = if k == 1 { s } else { r[i] };
                    DVec2::new(a.cos(), a.sin()) * radius
                })
                .collect(),
        };
        let angle = [0.0, 1.0, -0.5 * std::f64::consts::PI][rng.below(3)] * rng.range(0.5, 3.0);
        let at = base + DVec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)) * 2.0 * s;
        (vertices, Pose2::new(at, angle))
    }

    // The placed witness finds the same support sets as the world-space one: random
    // boxes, regular and irregular polygons, turned alike or not, normals along an
    // edge or random, at three scales, near the origin and 10⁴ sizes from it, in both
    // precisions; their points agree up to rounding of the coordinates.
    #[test]
    fn placed_witness_is_the_world_witness() {
        let mut rng = Rng(0x2D_517E);
        for s in [1e-3, 1.0, 1e3] {
            for k in 0..3000 {
                let far = [0.0, 1.0, 1e2, 1e4][k % 4] * s;
                let base = DVec2::new(rng.range(-far, far), rng.range(-far, far));
                let (va, pa) = random_polygon(&mut rng, s, base);
                let (vb, mut pb) = random_polygon(&mut rng, s, base);
                if k % 3 == 0 {
                    pb.rotation = pa.rotation;
                }
                let n = match rng.below(2) {
                    0 => pa.rotation.rotate(edge_normal(&va, rng.below(va.len()))),
                    _ => DVec2::from_angle(rng.range(-3.2, 3.2)),
                };
                let depth = rng.range(0.0, 0.1) * s;
                let world = |v: &[DVec2], p: &Pose2<f64>| {
                    v.iter().map(|&x| p.transform_point(x)).collect::<Vec<_>>()
                };
                let (wa, wb) = (world(&va, &pa), world(&vb, &pb));
                let expected = witness_2d(wa.iter().copied(), wb.iter().copied(), n, depth);
                let pose_ab = pa.inv_mul(&pb);
                let placed = |v, pose| PlacedPolygon::<f64> { vertices: v, pose };
                let got = witness_2d_placed(placed(&va, pa), placed(&vb, pb), &pose_ab, n, depth);
                let close = 1e-9 * (s + base.abs().max_element());
                assert!(
                    got.0.distance(expected.0) <= close && got.1.distance(expected.1) <= close,
                    "s {s} k {k}: {got:?} against {expected:?}"
                );
            }
        }
    }

    /// The lanes' support sets equal the scalar loops', value for value, for polygons
    /// of 2 to 8 `f32` vertices at three scales: random and repeated vertices, axis
    /// and random directions (ties along an axis), a NaN coordinate, floors from below
    /// every vertex to above all.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[test]
    fn lanes_support_equals_the_scalar_loops() {
        use crate::algo::witness_lanes_2d::SupportLanes;
        use glam::Vec2;
        let mut rng = Rng(0x5A_3E5);
        let mut kept = 0;
        for k in 0..20_000 {
            let s = [1e-3, 1.0, 1e3][k % 3];
            let len = 2 + rng.below(7);
            let grid = |rng: &mut Rng| (rng.range(-4.0, 4.0).round() * s) as f32;
            let mut v: Vec<Vec2> = (0..len)
                .map(|_| match k % 4 {
                    0 => Vec2::new(grid(&mut rng), grid(&mut rng)),
                    _ => Vec2::new(rng.range(-s, s) as f32, rng.range(-s, s) as f32),
                })
                .collect();
            if k % 97 == 0 {
                v[rng.below(len)].x = f32::NAN;
            }
            let n = match k % 3 {
                0 => [Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y][rng.below(4)],
                _ => Vec2::from_angle(rng.range(-3.2, 3.2) as f32),
            };
            let lanes = SupportLanes::new(&v, n).expect("2 to 8 vertices");
            let (top, size) = extreme_along(&v, n);
            assert_eq!(
                (lanes.top, lanes.size),
                (top, size),
                "k {k}: {v:?} along {n:?}"
            );
            for floor in [
                f32::NEG_INFINITY,
                top - 0.5 * s as f32,
                top,
                top + 1.0,
                f32::INFINITY,
            ] {
                let want = interval_above(&v, n, floor);
                assert_eq!(lanes.interval_above(floor), want, "k {k}: floor {floor}");
                kept += usize::from(want.0 <= want.1);
            }
        }
        assert!(kept > 40_000, "{kept} non-empty intervals");
        assert!(SupportLanes::new(&[Vec2::ZERO; 9], Vec2::X).is_none());
    }

    /// The outward normal of edge `i` of counter-clockwise `v`.
    fn edge_normal(v: &[DVec2], i: usize) -> DVec2 {
        let e = v[(i + 1) % v.len()] - v[i];
        DVec2::new(e.y, -e.x).normalize()
    }

    // A unit square resting 0.1 deep on a wide slab, turned by 0.4 together, far from
    // the origin: the witness is the middle of the square's bottom face, on the slab's
    // top and on the square's bottom; `f32` too. A NaN normal gives NaN points.
    #[test]
    fn placed_witness_of_resting_faces() {
        let slab = [
            DVec2::new(-5.0, -0.5),
            DVec2::new(5.0, -0.5),
            DVec2::new(5.0, 0.5),
            DVec2::new(-5.0, 0.5),
        ];
        let unit = [
            DVec2::new(-0.5, -0.5),
            DVec2::new(0.5, -0.5),
            DVec2::new(0.5, 0.5),
            DVec2::new(-0.5, 0.5),
        ];
        for far in [0.0, 1e2, 1e4] {
            let base = DVec2::new(far, -far);
            let pa = Pose2::new(base, 0.4);
            let pb = Pose2::new(base + pa.rotation.rotate(DVec2::new(1.0, 0.9)), 0.4);
            let n = pa.rotation.rotate(DVec2::Y);
            let pose_ab = pa.inv_mul(&pb);
            let placed = |v, pose| PlacedPolygon::<f64> { vertices: v, pose };
            let (p, q) = witness_2d_placed(placed(&slab, pa), placed(&unit, pb), &pose_ab, n, 0.1);
            let on_slab = base + pa.rotation.rotate(DVec2::new(1.0, 0.5));
            let close = 1e-12 * (1.0 + far);
            assert!(p.distance(on_slab) <= close, "{far}: {p} against {on_slab}");
            assert!(q.distance(on_slab - n * 0.1) <= close, "{far}: {q}");
            let (s32, u32_) = (slab.map(|v| v.as_vec2()), unit.map(|v| v.as_vec2()));
            let (pa32, pb32) = (
                Pose2::new(pa.translation.as_vec2(), 0.4f32),
                Pose2::new(pb.translation.as_vec2(), 0.4f32),
            );
            let placed32 = |v, pose| PlacedPolygon::<f32> { vertices: v, pose };
            let (p32, _) = witness_2d_placed(
                placed32(&s32, pa32),
                placed32(&u32_, pb32),
                &pa32.inv_mul(&pb32),
                n.as_vec2(),
                0.1,
            );
            assert!(
                p32.as_dvec2().distance(on_slab) <= 1e-5 * (1.0 + far),
                "{far}: {p32}"
            );
            let nan = DVec2::new(f64::NAN, 1.0);
            let (p, q) =
                witness_2d_placed(placed(&slab, pa), placed(&unit, pb), &pose_ab, nan, 0.1);
            assert!(p.is_nan() && q.is_nan());
        }
    }
}
