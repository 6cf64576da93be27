//! GJK (Gilbert–Johnson–Keerthi) on the Minkowski difference `A − B` of two
//! convex shapes given by their support maps (seed 001; Ericson, *Real-Time
//! Collision Detection*, 9.5; the loop and warm start follow Box2D v3's
//! `distance.c`, the termination test van den Bergen 2003, 4.3).
//!
//! GJK runs on the shapes' cores ([`SupportMap::local_core_support`]); the margins
//! (radii of balls, capsules, rounded shapes) are added by the callers, which is
//! exact for a Minkowski sum with a ball.
//!
//! The simplex solver is dimension-specific (`gjk_2d`, `gjk_3d`): closest point of
//! a point, segment, triangle or tetrahedron to the origin by Voronoi regions
//! (Ericson 5.1.2, 5.1.5, 5.1.6), reached through the [`GjkVector`] trait, which a
//! macro implements for `Vec2`, `DVec2`, `Vec3` and `DVec3`.
//!
//! Tolerances (relative, in machine epsilons of the scalar in use):
//! [`GJK_REL_ULPS`] (termination: the gap between the upper and lower bound on the
//! distance), [`GJK_OVERLAP_ULPS`] (the origin counts as inside the simplex when
//! its distance is below this times the simplex's size) and
//! [`SIMPLEX_DEGENERATE_ULPS`] (a flat triangle or tetrahedron). The loop stops
//! after [`GJK_MAX_ITERATIONS`]. The triangle and tetrahedron solvers work on
//! coordinates rescaled by a power of two (exact) to within `2^±`[`SOLVER_SCALE_EXP`],
//! so that tiny (1e-11) or huge shapes neither underflow nor overflow their products.

// `!(x > y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
use crate::algo::support::SupportMap;
use crate::math::tolerance::eps;
use crate::math::{Isometry, Real, Vector};

/// Iteration cap of the GJK loop (one support call per iteration).
pub const GJK_MAX_ITERATIONS: u32 = 64;
/// Termination: stop when `|v|² − v·w ≤ GJK_REL_ULPS · ε · |v|²`, i.e. the distance
/// is known to a relative accuracy of about this many machine epsilons.
/// GJK also stops (as `Converged`) when a new vertex no longer reduces the distance:
/// on curved shapes (cylinders, cones, rims) the support points then nearly repeat
/// and the distance is known only to ~1e-11 relative in `f64`; the normal derived
/// from the witness points is accurate to about the square root of that.
pub const GJK_REL_ULPS: f64 = 256.0;
/// GJK goes on at most this many steps in a row that grow the simplex without
/// reducing the distance beyond rounding (see `grew_within_rounding`), before it
/// stops as having made no progress.
pub const GJK_STALL_STEPS: u32 = 2;
/// Termination floor: GJK also stops when the gap between its upper and lower bound
/// on the distance is at most `GJK_GAP_FLOOR_ULPS · ε` times the size of the
/// Minkowski vertices (the rounding of the lower bound `v·w / |v|`), so nearly
/// touching curved shapes stop with an absolute accuracy of about that many `ε` of
/// the problem's size instead of running into a rounding step.
pub const GJK_GAP_FLOOR_ULPS: f64 = 8.0;
/// Accuracy of GJK's distance `d` between polytopes (boxes, polyhedra, triangles,
/// segments, points, and their rounded forms, whose margins add exactly): the answer
/// is within `GJK_DISTANCE_ULPS · ε · M · max(1, √ε · M / d)` of the exact distance,
/// `M` the largest coordinate magnitude of either shape's vertices in A's frame.
///
/// Away from touching (`d ≥ √ε · M`) the bound is `GJK_DISTANCE_ULPS · ε · M`,
/// dominated by [`GJK_OVERLAP_ULPS`] (a gap below that many `ε` of the simplex's size
/// counts as touching; the simplex spans up to `2 M`) and the rounding of the support
/// points. Nearer, the direction from the origin to a segment of `A − B` is known
/// only to `ε M / d` (its end points are rounded by `ε M`), and the support along a
/// wrong direction may stop GJK on the segment: a gap of a few `ε M` can come out as
/// up to about `√ε · M`. Curved shapes converge only to their own floor (see
/// [`GJK_REL_ULPS`]). Checked by `tests/regressions/triangle_convex_distance.rs`.
pub const GJK_DISTANCE_ULPS: f64 = 256.0;
/// Accuracy of GJK's closest points between polytopes (boxes, polyhedra, triangles,
/// segments, points, and their rounded forms): the distance, the distance between the
/// witness points and each witness point's distance to its shape are within
/// `GJK_POLYTOPE_ULPS · ε · M + GJK_REL_ULPS · ε · d` of the exact values, `M` the
/// largest coordinate magnitude of either shape's vertices in A's frame and `d` the
/// distance (the second term is GJK's relative termination, [`GJK_REL_ULPS`]), at
/// every gap, including gaps of a few `ε · M`; except that a gap
/// within the touching band ([`GJK_OVERLAP_ULPS`] `ε` of the simplex's size) reports
/// distance 0 (its witness points are still exact). GJK reaches it by confirming a
/// simplex whose next support point repeats a vertex along the simplex's precise
/// direction (`support_along_precise`). Checked, independent of vertex order, by
/// `tests/regressions/gjk_polytope_closest_points.rs`.
pub const GJK_POLYTOPE_ULPS: f64 = 16.0;
/// The origin is on the simplex (the cores touch or overlap) when its distance to
/// the simplex is at most `GJK_OVERLAP_ULPS · ε` times the simplex's largest vertex.
pub const GJK_OVERLAP_ULPS: f64 = 64.0;
/// A tetrahedron whose sextupled volume is below `SIMPLEX_DEGENERATE_ULPS · ε` times
/// the cube of its size counts as flat; so does a 3D triangle whose doubled area is
/// below `SIMPLEX_DEGENERATE_ULPS · ε` times the product of its two shortest edges
/// (`gjk_3d::triangle_weights`), and a 2D triangle whose squared doubled area is
/// below `SIMPLEX_DEGENERATE_ULPS · ε` times the product of two edges' squared
/// lengths.
pub const SIMPLEX_DEGENERATE_ULPS: f64 = 16.0;
/// The simplex solver works on coordinates rescaled (by a power of two) to at most
/// `2^SOLVER_SCALE_EXP` and at least `2^-SOLVER_SCALE_EXP` in magnitude, so that its
/// products of up to six coordinates neither underflow nor overflow in `f32`.
pub const SOLVER_SCALE_EXP: f64 = 16.0;

/// How an iterative algorithm (GJK, EPA, shape casts) ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The answer is within the algorithm's tolerance.
    Converged,
    /// The iteration cap was reached; the answer is the best bound found (documented
    /// per algorithm), not necessarily within tolerance.
    MaxIterations,
    /// The input admits no unique answer (e.g. coincident ball centres, where no
    /// contact normal is defined; a flat Minkowski difference) or holds NaN. Any
    /// direction in the answer is a conventional choice, not a measured one.
    Degenerate,
}

/// One vertex of the Minkowski difference: `w = a − b`, with the points of A and B
/// (in A's frame) and the search direction that produced them (kept for warm starts).
#[derive(Copy, Clone, Debug, PartialEq, Default)]
pub struct SupportPoint<V: Vector> {
    /// Support point of A's core.
    pub a: V,
    /// Support point of B's core, in A's frame.
    pub b: V,
    /// `a − b`.
    pub w: V,
    /// The direction the supports were taken in.
    pub dir: V,
}

/// The Minkowski difference `A − B` of two cores, B placed by `pose_ab` in A's frame.
pub struct MinkowskiDiff<'s, V: Vector, A: ?Sized, B: ?Sized> {
    /// Shape A, at the origin of the working frame.
    pub a: &'s A,
    /// Shape B.
    pub b: &'s B,
    /// B's pose in A's frame.
    pub pose_ab: V::Pose,
    /// `pose_ab`'s rotation as a matrix: two rotations per support call.
    rotation_ab: <V::Pose as Isometry<V>>::Matrix,
}

impl<'s, V: Vector, A: SupportMap<V> + ?Sized, B: SupportMap<V> + ?Sized>
    MinkowskiDiff<'s, V, A, B>
{
    /// The pair `(a, b)` with B at `pose_ab` in A's frame.
    #[inline]
    pub fn new(a: &'s A, b: &'s B, pose_ab: V::Pose) -> Self {
        Self {
            a,
            b,
            pose_ab,
            rotation_ab: pose_ab.matrix(),
        }
    }

    /// The support point of `core(A) − core(B)` along `dir`.
    #[inline]
    pub fn support(&self, dir: V) -> SupportPoint<V> {
        type P<V> = <V as Vector>::Pose;
        let a = self.a.local_core_support(dir);
        let local_dir = P::<V>::inverse_rotate_by(&self.rotation_ab, -dir);
        let b_local = self.b.local_core_support(local_dir);
        let b = P::<V>::rotate_by(&self.rotation_ab, b_local) + self.pose_ab.translation();
        SupportPoint {
            a,
            b,
            w: a - b,
            dir,
        }
    }

    /// Sum of both margins.
    #[inline]
    pub fn margin(&self) -> V::Scalar {
        self.a.margin() + self.b.margin()
    }
}

/// A simplex of 1 to `DIM + 1` support points with the barycentric weights of its
/// point closest to the origin, and that point.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Simplex<V: Vector> {
    /// The vertices; only the first `len` are meaningful.
    pub points: [SupportPoint<V>; 4],
    /// Barycentric weights of the closest point (sum 1 over the first `len`).
    pub weights: [V::Scalar; 4],
    /// Number of vertices.
    pub len: usize,
    /// The point closest to the origin, as the last reduction found it.
    nearest: V,
}

impl<V: Vector> Default for Simplex<V> {
    fn default() -> Self {
        Self {
            points: [SupportPoint::default(); 4],
            weights: [V::Scalar::ZERO; 4],
            len: 0,
            nearest: V::ZERO,
        }
    }
}

impl<V: Vector> Simplex<V> {
    /// Appends a vertex (ignored when the simplex is full).
    #[inline]
    pub fn push(&mut self, p: SupportPoint<V>) {
        if self.len < 4 {
            self.points[self.len] = p;
            self.weights[self.len] = V::Scalar::ZERO;
            self.len += 1;
        }
    }

    /// True when a vertex has exactly this `w`.
    #[inline]
    pub fn contains_w(&self, w: V) -> bool {
        self.points[..self.len].iter().any(|p| p.w == w)
    }

    /// The point of the simplex closest to the origin, as the last
    /// [`GjkVector::reduce_simplex`] found it: the weighted point
    /// `Σ weights[i] · points[i].w`, except in a 3D triangle's interior, where it is
    /// the origin's projection on the triangle's plane (along the normal of its two
    /// shortest edges), whose direction the weighted sum would lose on a sliver.
    #[inline]
    pub fn closest(&self) -> V {
        self.nearest
    }

    /// Records the weighted point as the closest one (after the weights are set).
    #[inline]
    pub(crate) fn set_weighted_nearest(&mut self) {
        self.nearest = self.weighted(|p| p.w);
    }

    /// Records `p` as the closest point (a triangle's plane projection).
    #[inline]
    pub(crate) fn set_nearest(&mut self, p: V) {
        self.nearest = p;
    }

    /// Moves every vertex's `w` (and the closest point with them) by `-shift`, as
    /// when B translates by `shift`.
    #[inline]
    pub(crate) fn translate_b(&mut self, shift: V) {
        for p in &mut self.points[..self.len] {
            p.b += shift;
            p.w -= shift;
        }
        self.nearest -= shift;
    }

    /// The witness points on A's and B's cores.
    #[inline]
    pub fn witnesses(&self) -> (V, V) {
        (self.weighted(|p| p.a), self.weighted(|p| p.b))
    }

    /// Largest squared length of a vertex: the scale of the tolerances.
    #[inline]
    pub fn scale_squared(&self) -> V::Scalar {
        self.points[..self.len]
            .iter()
            .fold(V::Scalar::ZERO, |m, p| m.max(p.w.length_squared()))
    }

    #[inline]
    fn weighted(&self, f: impl Fn(&SupportPoint<V>) -> V) -> V {
        (0..self.len).fold(V::ZERO, |acc, i| acc + f(&self.points[i]) * self.weights[i])
    }

    /// Keeps the vertices whose weight is positive, in order, with their weights.
    pub(crate) fn compact(&mut self) {
        let mut kept = 0;
        for i in 0..self.len {
            if self.weights[i] > V::Scalar::ZERO {
                if kept != i {
                    self.points[kept] = self.points[i];
                    self.weights[kept] = self.weights[i];
                }
                kept += 1;
            }
        }
        if kept == 0 {
            // All weights zero can only come from NaN; keep the first vertex.
            self.weights[0] = V::Scalar::ONE;
            kept = 1;
        }
        self.len = kept;
    }
}

/// The dimension-specific parts of GJK, EPA and time of impact, implemented for
/// `Vec2`, `DVec2`, `Vec3` and `DVec3`.
pub trait GjkVector: Vector {
    /// Reduces `simplex` to the smallest sub-simplex whose hull holds the point
    /// closest to the origin, and sets its barycentric weights. Returns true when
    /// the full-dimensional simplex encloses the origin (the cores overlap).
    fn reduce_simplex(simplex: &mut Simplex<Self>) -> bool;

    /// EPA from a GJK simplex enclosing (or touching) the origin.
    fn penetration<A: SupportMap<Self> + ?Sized, B: SupportMap<Self> + ?Sized>(
        diff: &MinkowskiDiff<'_, Self, A, B>,
        simplex: &Simplex<Self>,
    ) -> crate::algo::epa::Penetration<Self>;

    /// The pose at fraction `t ∈ [0, 1]` from `start` to `end`: translation
    /// interpolated linearly, rotation along the shortest arc at constant speed.
    fn interpolate_pose(start: &Self::Pose, end: &Self::Pose, t: Self::Scalar) -> Self::Pose;

    /// The angle in `[0, π]` of the shortest rotation from `start` to `end`.
    fn rotation_angle(start: &Self::Pose, end: &Self::Pose) -> Self::Scalar;

    /// The unit normal (either side) of a facet simplex: `DIM` vertices, a segment in
    /// 2D (its perpendicular) or a triangle in 3D (the cross product of two edges).
    /// Built from edge vectors only, it is exact for a facet of support points lying
    /// in a coordinate plane, whatever their size. `None` for other simplices or a
    /// degenerate facet.
    fn facet_normal(simplex: &Simplex<Self>) -> Option<Self>;

    /// The point of a reduced simplex closest to the origin, as [`Simplex::closest`],
    /// but computed by projection on the feature's normal: the segment's
    /// perpendicular in 2D, `e × (w₀ × e) / |e|²` for a segment in 3D, `n (n·w₀) / |n|²`
    /// for a triangle in 3D. A weighted sum of support points carries rounding of
    /// `ε` times their size in every coordinate, so its direction tilts; the
    /// projection is exact for a feature normal to an axis, whatever its extent.
    /// Falls back to [`Simplex::closest`] for a point, a full simplex or a
    /// degenerate feature.
    fn precise_closest(simplex: &Simplex<Self>) -> Self;
}

/// What GJK found, in A's frame, for the cores of the two shapes.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct GjkResult<V: Vector> {
    /// How the loop ended.
    pub status: Status,
    /// Support calls made (iterations of the loop).
    pub iterations: u32,
    /// True when the cores touch or overlap (then `distance` is 0).
    pub overlapping: bool,
    /// Distance between the cores (0 when overlapping).
    pub distance: V::Scalar,
    /// Closest point on A's core.
    pub point_a: V,
    /// Closest point on B's core.
    pub point_b: V,
    /// The final simplex (EPA starts from it).
    pub simplex: Simplex<V>,
}

/// Warm start for GJK: the search directions of the last call's final simplex.
/// Reusing it frame to frame usually saves most iterations when shapes move little.
/// Directions are stored in A's frame.
#[derive(Copy, Clone, Debug, PartialEq, Default)]
pub struct GjkCache<V: Vector> {
    dirs: [V; 4],
    len: usize,
}

impl<V: Vector> GjkCache<V> {
    /// An empty cache (GJK then starts from the centres' offset).
    #[inline]
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of directions held (0 when empty).
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the cache holds nothing.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn store(&mut self, simplex: &Simplex<V>) {
        self.len = simplex.len;
        for i in 0..simplex.len {
            self.dirs[i] = simplex.points[i].dir;
        }
    }
}

/// The first simplex: the cached directions' support points, or one support point
/// along the offset of B from A (any direction is valid; this one starts near the
/// closest features).
#[inline(always)]
fn initial_simplex<V, A, B>(
    diff: &MinkowskiDiff<'_, V, A, B>,
    cache: Option<&GjkCache<V>>,
) -> Simplex<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let mut simplex = Simplex::default();
    if let Some(cache) = cache {
        for &dir in &cache.dirs[..cache.len] {
            let p = diff.support(dir);
            if !simplex.contains_w(p.w) {
                simplex.push(p);
            }
        }
    }
    if simplex.len == 0 {
        let offset = diff.pose_ab.translation();
        let dir = if offset.length_squared() > V::Scalar::ZERO {
            offset
        } else {
            V::unit_axis(0)
        };
        simplex.push(diff.support(dir));
    }
    simplex.weights[0] = V::Scalar::ONE;
    simplex
}

/// Closest points of the cores of A and B (B at `diff.pose_ab` in A's frame).
///
/// With a `cache`, starts from its directions and stores the final simplex's
/// directions back. Never panics; NaN poses give `Status::Degenerate` with a NaN
/// distance. At the cap the result is the best simplex found (`MaxIterations`): its
/// distance is an upper bound on the true one.
#[inline(always)]
pub fn closest_points<V, A, B>(
    diff: &MinkowskiDiff<'_, V, A, B>,
    cache: Option<&mut GjkCache<V>>,
) -> GjkResult<V>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    closest_points_bounded(diff, cache, V::Scalar::INFINITY).0
}

/// [`closest_points`], or `None` as soon as a supporting plane proves the cores
/// farther apart than `max_distance` (then the result would be discarded anyway):
/// for separated pairs beyond a contact's prediction distance this usually takes one
/// or two support calls instead of full convergence (the early-out of van den Bergen
/// 2003, 4.3.3). The proof allows [`GJK_SEPARATION_ULPS`] of rounding, so a pair
/// within `max_distance` is never dropped. A NaN or infinite `max_distance` never
/// stops early. The cache, when given, is updated either way.
#[inline(always)]
pub fn closest_points_within<V, A, B>(
    diff: &MinkowskiDiff<'_, V, A, B>,
    cache: Option<&mut GjkCache<V>>,
    max_distance: V::Scalar,
) -> Option<GjkResult<V>>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    closest_points_or_plane(diff, cache, max_distance).ok()
}

/// [`closest_points_within`], telling why it stopped early: `Err(v)` when the
/// supporting plane of `A − B` along `-v` (A's frame) proved the cores farther apart
/// than `max_distance`. That `v` is a separating direction worth testing first at
/// the next query of the pair ([`plane_separates`]), as van den Bergen's and Box2D's
/// cached separating axes are.
#[inline(always)]
pub fn closest_points_or_plane<V, A, B>(
    diff: &MinkowskiDiff<'_, V, A, B>,
    cache: Option<&mut GjkCache<V>>,
    max_distance: V::Scalar,
) -> Result<GjkResult<V>, V>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    match closest_points_bounded(diff, cache, max_distance) {
        (_, Some(v)) => Err(v),
        (result, None) => Ok(result),
    }
}

/// True when the supporting plane of `A − B` along `-v` (A's frame, one support
/// call) proves the cores farther apart than `max_distance`, with
/// [`GJK_SEPARATION_ULPS`] of rounding to spare: the test [`closest_points_within`]
/// stops on, so when it holds that function would answer `None` too. False for a
/// zero or NaN `v`.
///
/// ```
/// use isect::algo::gjk::{plane_separates, MinkowskiDiff};
/// use isect::d3::*;
///
/// # fn main() -> Result<(), ShapeError> {
/// // Two unit balls 3 apart along x (their cores, the centres, 3 apart): the
/// // direction −x proves more than 2.5, not 3.5.
/// let ball = Ball::new(Vec3::ZERO, 1.0)?;
/// let diff = MinkowskiDiff::new(&ball, &ball, Pose::from_translation(Vec3::new(3.0, 0.0, 0.0)));
/// assert!(plane_separates(&diff, -Vec3::X, 2.5));
/// assert!(!plane_separates(&diff, -Vec3::X, 3.5));
/// assert!(!plane_separates(&diff, Vec3::Y, 0.0)); // not a separating direction
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn plane_separates<V, A, B>(
    diff: &MinkowskiDiff<'_, V, A, B>,
    v: V,
    max_distance: V::Scalar,
) -> bool
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let v2 = v.length_squared();
    v2 > V::Scalar::ZERO && separated_beyond(v, v2, &diff.support(-v), max_distance)
}

/// The body of [`closest_points_within`]: the result and, when GJK stopped early
/// because the cores are farther apart than `max_distance`, the direction that
/// proved it.
#[inline(always)]
fn closest_points_bounded<V, A, B>(
    diff: &MinkowskiDiff<'_, V, A, B>,
    cache: Option<&mut GjkCache<V>>,
    max_distance: V::Scalar,
) -> (GjkResult<V>, Option<V>)
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let mut simplex = initial_simplex(diff, cache.as_deref());
    let (status, iterations, ending) = run_gjk(diff, &mut simplex, max_distance);
    if let Some(cache) = cache {
        cache.store(&simplex);
    }
    let overlapping = ending == Ending::Overlapping;
    let (point_a, point_b) = simplex.witnesses();
    let distance = if overlapping {
        V::Scalar::ZERO
    } else {
        simplex.closest().length()
    };
    let result = GjkResult {
        status,
        iterations,
        overlapping,
        distance,
        point_a,
        point_b,
        simplex,
    };
    let plane = match ending {
        Ending::Beyond(v) => Some(v),
        _ => None,
    };
    (result, plane)
}

/// Rounding allowed when a supporting plane proves the cores farther apart than a
/// bound ([`closest_points_within`]): the plane's distance must exceed the bound by
/// `GJK_SEPARATION_ULPS · ε` times the largest coordinate of the support points
/// (their rounding when B's point is moved into A's frame, and the dot product's).
pub const GJK_SEPARATION_ULPS: f64 = 256.0;

/// How the GJK loop ended.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Ending<V> {
    /// The cores touch or overlap.
    Overlapping,
    /// The cores are apart; the simplex holds their closest points.
    Apart,
    /// A supporting plane proved the cores farther apart than the bound: every point
    /// `x` of `A − B` has `x · v ≥` more than the bound times `|v|`, for this `v`.
    Beyond(V),
}

/// The GJK loop: returns `(status, iterations, ending)` and leaves the final,
/// reduced simplex in `simplex`: the nearest to the origin found. Stops with
/// [`Ending::Beyond`] once the supporting plane `x · v ≥ v · w` of `A − B` is farther
/// than `max_distance` from the origin. A step that makes no progress (a nearly flat
/// tetrahedron of support points on a curved surface, reduced to an edge farther than
/// the triangle it grew from) retries the faces through the new vertex
/// ([`best_face_with_last`]), else ends the loop with the simplex it grew from restored.
fn run_gjk<V, A, B>(
    diff: &MinkowskiDiff<'_, V, A, B>,
    simplex: &mut Simplex<V>,
    max_distance: V::Scalar,
) -> (Status, u32, Ending<V>)
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let overlap = eps::<V::Scalar>(GJK_OVERLAP_ULPS);
    // The first vertex's own plane (it was taken along `dir`: every point has
    // `x · dir ≤ w · dir`) may already prove the separation, one support call early.
    let first = simplex.points[0];
    if separated_beyond(-first.dir, first.dir.length_squared(), &first, max_distance) {
        return (Status::Converged, 0, Ending::Beyond(-first.dir));
    }
    let mut best = V::Scalar::INFINITY;
    let mut previous = *simplex;
    let mut pushed = None;
    let mut stalls = 0;
    for iterations in 0..=GJK_MAX_ITERATIONS {
        if V::reduce_simplex(simplex) {
            return (Status::Converged, iterations, Ending::Overlapping);
        }
        let v = simplex.closest();
        let v2 = v.length_squared();
        if !v2.is_finite() {
            return (Status::Degenerate, iterations, Ending::Apart);
        }
        if v2 <= overlap * overlap * simplex.scale_squared() {
            return (Status::Converged, iterations, Ending::Overlapping);
        }
        if v2 >= best {
            // No progress: the last vertex only moved the answer by rounding, or the
            // full simplex's reduction misjudged a sliver face.
            match pushed.and_then(|p| best_face_with_last(&previous, p, best)) {
                Some(face) => *simplex = face,
                None if stalls < GJK_STALL_STEPS
                    && grew_within_rounding(simplex, &previous, v2, best) =>
                {
                    stalls += 1;
                }
                None => {
                    *simplex = previous;
                    return (Status::Converged, iterations, Ending::Apart);
                }
            }
        } else {
            stalls = 0;
        }
        let v = simplex.closest();
        let v2 = v.length_squared();
        best = v2;
        if iterations == GJK_MAX_ITERATIONS {
            break;
        }
        let p = diff.support(-v);
        if separated_beyond(v, v2, &p, max_distance) {
            return (Status::Converged, iterations + 1, Ending::Beyond(v));
        }
        if bounds_met(v, v2, p.w, simplex) {
            return (Status::Converged, iterations + 1, Ending::Apart);
        }
        let p = if simplex.contains_w(p.w) {
            match support_along_precise(diff, simplex) {
                Some(q) => q,
                None => return (Status::Converged, iterations + 1, Ending::Apart),
            }
        } else {
            p
        };
        previous = *simplex;
        pushed = Some(p);
        simplex.push(p);
    }
    (Status::MaxIterations, GJK_MAX_ITERATIONS, Ending::Apart)
}

/// The support point along the precise direction of the reduced `simplex`
/// ([`GjkVector::precise_closest`]: a triangle's normal, a segment's perpendicular),
/// when it is a new vertex that the bounds do not already prove useless; `None`
/// when the simplex is confirmed.
///
/// GJK's search direction `v` is a weighted sum of support points rounded by `ε · M`,
/// so near touching its direction is off by `ε · M / |v|`; a support point along it
/// that repeats a vertex leaves the lower bound `v · w / |v|` unproven (a box and a
/// polyhedron `800 ε · M` apart came out `185 ε · M` too far in `f32`). The precise
/// direction of a triangle is its facet normal, accurate to `ε`.
#[cold]
fn support_along_precise<V, A, B>(
    diff: &MinkowskiDiff<'_, V, A, B>,
    simplex: &Simplex<V>,
) -> Option<SupportPoint<V>>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let n = V::precise_closest(simplex);
    let n2 = n.length_squared();
    if !(n2 > V::Scalar::ZERO) {
        return None;
    }
    let q = diff.support(-n);
    (!simplex.contains_w(q.w) && !bounds_met(n, n2, q.w, simplex)).then_some(q)
}

/// True when the supporting plane of `A − B` found along `-v` (every point `x` has
/// `x · v ≥ v · w`, `w = p.w` the support point) lies farther than `max_distance`
/// (plus the rounding slack [`GJK_SEPARATION_ULPS`]) from the origin.
#[inline(always)]
fn separated_beyond<V: Vector>(
    v: V,
    v2: V::Scalar,
    p: &SupportPoint<V>,
    max_distance: V::Scalar,
) -> bool {
    let plane = v.dot(p.w);
    if !(plane > V::Scalar::ZERO) {
        return false;
    }
    let coords = p.a.abs().max_element().max(p.b.abs().max_element());
    let bound = max_distance + eps::<V::Scalar>(GJK_SEPARATION_ULPS) * coords;
    plane * plane > bound * bound * v2
}

/// True when the reduced `simplex` kept every vertex of `previous` and the new one, at
/// a distance that only rounding (`GJK_GAP_FLOOR_ULPS · ε` of its size) puts above
/// `best`: a support
/// point tied on a flat strip of a curved shape (a cylinder's side, taken at the far
/// rim for a direction across the axis) that tilts the next direction without
/// moving the distance. GJK then goes on (at most [`GJK_STALL_STEPS`] times in a
/// row) instead of stopping with its lower bound far below the distance.
fn grew_within_rounding<V: Vector>(
    simplex: &Simplex<V>,
    previous: &Simplex<V>,
    v2: V::Scalar,
    best: V::Scalar,
) -> bool {
    let size = simplex.scale_squared().sqrt();
    simplex.len > previous.len
        && v2.sqrt() <= best.sqrt() + eps::<V::Scalar>(GJK_GAP_FLOOR_ULPS) * size
}

/// The nearest to the origin of the faces of `previous` + `last` that hold `last`
/// (each reduced on its own), when it is nearer than `best`; `None` otherwise.
///
/// The full simplex's reduction decides which faces the origin lies beyond by the
/// signs of their planes; near a curved surface the new support point lies close
/// to the old ones, the faces through it are slivers whose planes rounding tilts,
/// and a wrong sign can skip the nearest face (a point on a cone's side: an edge
/// 3.4e-9 from the origin chosen over a triangle 1.7e-12 from it). Reducing each
/// face through `last` alone needs no sign. Runs only when a step made no progress.
#[cold]
fn best_face_with_last<V: GjkVector>(
    previous: &Simplex<V>,
    last: SupportPoint<V>,
    best: V::Scalar,
) -> Option<Simplex<V>> {
    if previous.contains_w(last.w) {
        return None;
    }
    let mut found: Option<(V::Scalar, Simplex<V>)> = None;
    for skip in 0..previous.len {
        let mut face = Simplex::default();
        for (i, p) in previous.points[..previous.len].iter().enumerate() {
            if i != skip {
                face.push(*p);
            }
        }
        face.push(last);
        if V::reduce_simplex(&mut face) {
            continue;
        }
        let d2 = face.closest().length_squared();
        if d2 < best && found.as_ref().is_none_or(|(b, _)| d2 < *b) {
            found = Some((d2, face));
        }
    }
    found.map(|(_, face)| face)
}

/// GJK's termination test (van den Bergen 2003, 4.3, with a rounding floor): the
/// upper bound `|v|` and the lower bound `v·w / |v|` on the distance are within
/// [`GJK_REL_ULPS`] `ε` of the distance, or within [`GJK_GAP_FLOOR_ULPS`] `ε` of the
/// size of the simplex and `w`, the rounding of `v·w` itself. Without the floor a
/// nearly touching pair of curved shapes (a point on a cone's side) asks for a
/// relative accuracy that rounding never gives and iterates until a rounding step
/// stops it.
#[inline]
fn bounds_met<V: Vector>(v: V, v2: V::Scalar, w: V, simplex: &Simplex<V>) -> bool {
    let gap = v2 - v.dot(w);
    if gap <= eps::<V::Scalar>(GJK_REL_ULPS) * v2 {
        return true;
    }
    // Square roots, not squares: `gap²` underflows in `f32` for shapes 1e-11 across.
    let size = simplex.scale_squared().max(w.length_squared()).sqrt();
    gap <= eps::<V::Scalar>(GJK_GAP_FLOOR_ULPS) * v2.sqrt() * size
}

/// Boolean GJK: true when the shapes (cores grown by their margins) touch or overlap.
/// Stops as soon as a separating plane is found, so it is cheaper than
/// [`closest_points`]. False for NaN poses; at the iteration cap, answers from the
/// best simplex found (distance ≤ margin).
pub fn intersects<V, A, B>(diff: &MinkowskiDiff<'_, V, A, B>) -> bool
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let margin = diff.margin();
    let overlap = eps::<V::Scalar>(GJK_OVERLAP_ULPS);
    let mut simplex = initial_simplex(diff, None);
    for _ in 0..GJK_MAX_ITERATIONS {
        if V::reduce_simplex(&mut simplex) {
            return true;
        }
        let v = simplex.closest();
        let v2 = v.length_squared();
        if !(v2 > overlap * overlap * simplex.scale_squared()) || v2 <= margin * margin {
            return v2.is_finite();
        }
        let p = diff.support(-v);
        let plane = v.dot(p.w);
        // Every point of A − B has `x · v ≥ v · w`: the origin is farther than
        // `margin` from it once `v · w > margin · |v|`.
        if plane > V::Scalar::ZERO && plane * plane > margin * margin * v2 {
            return false;
        }
        if simplex.contains_w(p.w) {
            break;
        }
        simplex.push(p);
    }
    let v2 = simplex.closest().length_squared();
    v2 <= margin * margin
}

/// Barycentric weights of the point of segment `a b` closest to the origin
/// (Ericson 5.1.2). A zero-length segment answers its first end.
///
/// The parameter is measured from the end nearer the origin: its rounding is then
/// `ε` of the small weight, not `ε` of the segment's length, which matters when the
/// nearest point is close to an end much nearer the origin than the other (the
/// direction of the weighted point, GJK's next search direction, would otherwise
/// turn by `ε |b − a| / |v|`).
#[inline]
pub(crate) fn segment_weights<V: Vector>(a: V, b: V) -> [V::Scalar; 2] {
    if b.length_squared() < a.length_squared() {
        let [s, t] = segment_weights_from_a(b, a);
        [t, s]
    } else {
        segment_weights_from_a(a, b)
    }
}

/// [`segment_weights`] with the parameter measured from `a`.
#[inline]
fn segment_weights_from_a<V: Vector>(a: V, b: V) -> [V::Scalar; 2] {
    let zero = V::Scalar::ZERO;
    let one = V::Scalar::ONE;
    let ab = b - a;
    let t_num = -a.dot(ab);
    let denom = ab.length_squared();
    if !(t_num > zero) || !(denom > zero) {
        [one, zero]
    } else if t_num >= denom {
        [zero, one]
    } else {
        let t = t_num / denom;
        [one - t, t]
    }
}

/// Barycentric weights of the point of triangle `a b c` closest to the origin
/// (Ericson 5.1.5, with the query point at the origin), and whether it lies in the
/// triangle's interior. A flat triangle answers the best of its edges.
pub(crate) fn triangle_weights<V: Vector>(a: V, b: V, c: V) -> ([V::Scalar; 3], bool) {
    let zero = V::Scalar::ZERO;
    let one = V::Scalar::ONE;
    let (ab, ac) = (b - a, c - a);
    let (d1, d2) = (-ab.dot(a), -ac.dot(a));
    if d1 <= zero && d2 <= zero {
        return ([one, zero, zero], false);
    }
    let (d3, d4) = (-ab.dot(b), -ac.dot(b));
    if d3 >= zero && d4 <= d3 {
        return ([zero, one, zero], false);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= zero && d1 >= zero && d3 <= zero {
        let t = d1 / (d1 - d3);
        return ([one - t, t, zero], false);
    }
    let (d5, d6) = (-ab.dot(c), -ac.dot(c));
    if d6 >= zero && d5 <= d6 {
        return ([zero, zero, one], false);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= zero && d2 >= zero && d6 <= zero {
        let t = d2 / (d2 - d6);
        return ([one - t, zero, t], false);
    }
    let va = d3 * d6 - d5 * d4;
    if va <= zero && d4 - d3 >= zero && d5 - d6 >= zero {
        let t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return ([zero, one - t, t], false);
    }
    let sum = va + vb + vc;
    let area_tol =
        eps::<V::Scalar>(SIMPLEX_DEGENERATE_ULPS) * ab.length_squared() * ac.length_squared();
    if !(sum > area_tol) {
        return (best_edge_weights(a, b, c), false);
    }
    let inv = one / sum;
    ([va * inv, vb * inv, vc * inv], true)
}

/// The closest of a flat triangle's three edges to the origin, as triangle weights.
pub(crate) fn best_edge_weights<V: Vector>(a: V, b: V, c: V) -> [V::Scalar; 3] {
    let zero = V::Scalar::ZERO;
    let [s, t] = segment_weights(a, b);
    let mut best = ([s, t, zero], (a * s + b * t).length_squared());
    let [s, t] = segment_weights(b, c);
    let d = (b * s + c * t).length_squared();
    if d < best.1 {
        best = ([zero, s, t], d);
    }
    let [s, t] = segment_weights(c, a);
    let d = (c * s + a * t).length_squared();
    if d < best.1 {
        best = ([t, zero, s], d);
    }
    best.0
}

/// The vertices `w` of `points` as the simplex solver sees them: rescaled by a power
/// of two (exact, so every weight and comparison is unchanged) when their largest
/// coordinate is outside `[2^-SOLVER_SCALE_EXP, 2^SOLVER_SCALE_EXP]`. The solver's
/// products reach the sixth power of the coordinates (a tetrahedron's signed
/// volumes times each other), which underflows in `f32` for shapes ~1e-7 across
/// and gave NaN weights (0/0) for shapes ~1e-11 across; at unit scale they cannot.
#[inline]
pub(crate) fn solver_points<V: Vector, const N: usize>(points: &[SupportPoint<V>]) -> [V; N] {
    unit_scaled(std::array::from_fn(|i| points[i].w))
}

/// `w` rescaled as in [`solver_points`].
#[inline]
pub(crate) fn unit_scaled<V: Vector, const N: usize>(w: [V; N]) -> [V; N] {
    let factor = solver_scale(&w);
    if factor == V::Scalar::ONE {
        w
    } else {
        w.map(|p| p * factor)
    }
}

/// The power of two [`solver_points`] multiplies `w` by: one when the largest
/// coordinate is within `2^±SOLVER_SCALE_EXP` (or all are zero, or one is NaN or
/// infinite: left to the callers' checks).
#[inline]
pub(crate) fn solver_scale<V: Vector>(w: &[V]) -> V::Scalar {
    let mut size = V::Scalar::ZERO;
    for p in w {
        size = size.max(p.abs().max_element());
    }
    let limit = V::Scalar::from_f64(SOLVER_SCALE_EXP.exp2());
    if size <= limit && size * limit >= V::Scalar::ONE || !(size > V::Scalar::ZERO) {
        V::Scalar::ONE
    } else {
        rescale_factor(size)
    }
}

/// The power of two nearest `1 / size` (kept out of line: rare); one for an infinite
/// size.
#[cold]
#[inline(never)]
fn rescale_factor<R: Real>(size: R) -> R {
    if !size.is_finite() {
        return R::ONE;
    }
    R::from_f64((-size.to_f64().log2().round()).exp2())
}

/// Reduces a 1-, 2- or 3-vertex 2D simplex; returns true when the
/// closest point is interior to a triangle.
pub(crate) fn reduce_up_to_triangle<V: Vector>(simplex: &mut Simplex<V>) -> bool {
    let interior = match simplex.len {
        2 => {
            // Products of two coordinates only, and a zero or subnormal length is
            // handled: no rescale.
            let [s, t] = segment_weights(simplex.points[0].w, simplex.points[1].w);
            simplex.weights[..2].copy_from_slice(&[s, t]);
            false
        }
        3 => {
            let [a, b, c] = solver_points(&simplex.points[..3]);
            let (w, interior) = triangle_weights(a, b, c);
            simplex.weights[..3].copy_from_slice(&w);
            interior
        }
        _ => {
            simplex.weights[0] = V::Scalar::ONE;
            simplex.len = 1;
            simplex.set_weighted_nearest();
            return false;
        }
    };
    simplex.compact();
    simplex.set_weighted_nearest();
    interior
}

macro_rules! impl_gjk_vector {
    ($v:ty, $r:ty, $gjk:ident, $epa:ident) => {
        impl GjkVector for $v {
            #[inline]
            fn reduce_simplex(simplex: &mut Simplex<Self>) -> bool {
                super::$gjk::reduce_simplex::<$r>(simplex)
            }
            #[inline]
            fn penetration<A: SupportMap<Self> + ?Sized, B: SupportMap<Self> + ?Sized>(
                diff: &MinkowskiDiff<'_, Self, A, B>,
                simplex: &Simplex<Self>,
            ) -> crate::algo::epa::Penetration<Self> {
                super::$epa::penetration::<$r, A, B>(diff, simplex)
            }
            #[inline]
            fn interpolate_pose(start: &Self::Pose, end: &Self::Pose, t: $r) -> Self::Pose {
                super::$gjk::interpolate_pose::<$r>(start, end, t)
            }
            #[inline]
            fn rotation_angle(start: &Self::Pose, end: &Self::Pose) -> $r {
                super::$gjk::rotation_angle::<$r>(start, end)
            }
            #[inline]
            fn facet_normal(simplex: &Simplex<Self>) -> Option<Self> {
                super::$gjk::facet_normal::<$r>(simplex)
            }
            #[inline]
            fn precise_closest(simplex: &Simplex<Self>) -> Self {
                super::$gjk::precise_closest::<$r>(simplex)
            }
        }
    };
}

impl_gjk_vector!(glam::Vec2, f32, gjk_2d, epa_2d);
impl_gjk_vector!(glam::DVec2, f64, gjk_2d, epa_2d);
impl_gjk_vector!(glam::Vec3, f32, gjk_3d, epa_3d);
impl_gjk_vector!(glam::DVec3, f64, gjk_3d, epa_3d);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, DVec3, Vec3};

    // Segment weights: interior, clamped ends, zero length.
    #[test]
    fn segment_weights_regions() {
        let [s, t] = segment_weights(DVec2::new(-1.0, 1.0), DVec2::new(3.0, 1.0));
        assert!((s - 0.75).abs() < 1e-15 && (t - 0.25).abs() < 1e-15);
        assert_eq!(
            segment_weights(DVec2::new(1.0, 1.0), DVec2::new(3.0, 1.0)),
            [1.0, 0.0]
        );
        assert_eq!(
            segment_weights(DVec2::new(-3.0, 1.0), DVec2::new(-1.0, 1.0)),
            [0.0, 1.0]
        );
        assert_eq!(segment_weights(DVec2::ONE, DVec2::ONE), [1.0, 0.0]);
    }

    // Triangle weights: interior projection in 3D, an edge region, and a flat
    // (collinear) triangle answered by its best edge.
    #[test]
    fn triangle_weights_regions() {
        let (w, interior) = triangle_weights(
            DVec3::new(-1.0, -1.0, 2.0),
            DVec3::new(2.0, -1.0, 2.0),
            DVec3::new(-1.0, 2.0, 2.0),
        );
        assert!(interior);
        assert!((w[0] - 1.0 / 3.0).abs() < 1e-12 && (w[1] - 1.0 / 3.0).abs() < 1e-12);
        let (w, interior) = triangle_weights(
            Vec3::new(-1.0, 1.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(0.0, 2.0, 0.0),
        );
        assert!(!interior && w[2] == 0.0 && (w[0] - 0.5).abs() < 1e-6);
        let (w, interior) = triangle_weights(
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(2.0, 2.0, 0.0),
            Vec3::new(3.0, 3.0, 0.0),
        );
        assert!(!interior && w == [1.0, 0.0, 0.0]);
    }

    // A flat tetrahedron never claims to enclose the origin, even when the origin
    // lies in its plane.
    #[test]
    fn flat_tetrahedron_does_not_enclose() {
        let mut s = Simplex::<DVec3>::default();
        for w in [
            DVec3::new(-1.0, -1.0, 0.0),
            DVec3::new(1.0, -1.0, 0.0),
            DVec3::new(0.0, 1.0, 0.0),
            DVec3::new(0.0, 0.0, 0.0),
        ] {
            s.push(SupportPoint {
                a: w,
                b: DVec3::ZERO,
                w,
                dir: DVec3::X,
            });
        }
        assert!(!DVec3::reduce_simplex(&mut s));
        assert!(s.closest().length() < 1e-15);
    }
}
