//! Shape casts: `cast_shapes` (both shapes translate at constant velocity) by the
//! GJK ray cast on the Minkowski difference (van den Bergen 2004, "Ray casting
//! against general convex objects"; Box2D's `b2ShapeCast`), and `time_of_impact`
//! with rotation by conservative advancement (Mirtich 1996; Box2D's TOI bounds).
//!
//! Accuracy does not depend on the shapes' size. GJK's closest point is a weighted
//! sum of support points, so its direction carries rounding of the order of `ε`
//! times the shapes' size: a ball over a box 10,000 wide sees a tilted `v`, and a
//! stopping test relative to that size stopped the cast a sizeable gap short. So
//! GJK only advances while its gap exceeds its resolution ([`CAST_REL_ULPS`] of the
//! size, floored by [`CAST_REL_FLOOR`]); then the cast *refines*: it measures the
//! gap with one support call along each candidate normal of the final simplex — GJK's
//! `v`, the facet's normal from edge vectors (exact for a face normal to an axis, of
//! any extent) and the motion's part across a lower-rank simplex. A gap beyond its
//! rounding proves a separating plane (advance to it, or a miss when the motion
//! does not approach it); none left is the touch. The rounding of a gap along `u` is
//! [`CAST_GAP_ULPS`]` · ε · (Σ |u_i| (|a_i| + |b_i|) + margins)` over the measured
//! support points `a`, `b` (in A's frame, B moved): the reach of the contact along
//! the normal and the motion, not the lateral size. That is the bound on the gap left
//! at the reported time; the time's error is that gap over the approach speed
//! `|motion · normal|`. For faces not normal to a coordinate axis the support points'
//! own rounding (`ε` times their size) is the floor, as for any computation with them.
//!
//! Caps: [`CAST_MAX_ITERATIONS`], [`TOI_MAX_ITERATIONS`].

// `!(x > y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
use crate::algo::gjk::{
    self, GjkCache, GjkVector, MinkowskiDiff, Simplex, Status, SupportPoint, GJK_REL_ULPS,
};
use crate::algo::support::SupportMap;
use crate::math::tolerance::eps;
use crate::math::{Isometry, Real, Vector};
use crate::query::contact::{local_contact, Contact};

/// Iteration cap of the linear shape cast (a GJK step or a refinement each).
pub const CAST_MAX_ITERATIONS: u32 = 64;
/// GJK's resolution in the cast: it advances only while its gap exceeds
/// `CAST_REL_ULPS · ε` times the size of `A − B` (its largest support point along
/// the motion), and hands smaller gaps to the refinement.
pub const CAST_REL_ULPS: f64 = 1024.0;
/// Floor of that relative resolution, for the same reason as
/// [`EPA_REL_FLOOR`](crate::algo::epa::EPA_REL_FLOOR): it is
/// `max(CAST_REL_ULPS · ε, CAST_REL_FLOOR)`.
pub const CAST_REL_FLOOR: f64 = 1e-9;
/// The casts stop when the gap along their best separating normal `u` is at most
/// `CAST_GAP_ULPS · ε · (Σ |u_i| (|a_i| + |b_i|) + margins)` (the rounding of that
/// gap, see the module docs): the bound on the gap left at the reported time.
pub const CAST_GAP_ULPS: f64 = 16.0;
/// Iteration cap of conservative advancement (one GJK distance per iteration).
pub const TOI_MAX_ITERATIONS: u32 = 64;

/// Where two moving shapes first touch, in world space at the time of impact.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ShapeCastHit<V: Vector> {
    /// Time of impact: in units of the velocities for [`cast_shapes`], the sweep
    /// fraction in `[0, 1]` for [`time_of_impact`].
    pub time: V::Scalar,
    /// Unit normal from A to B at the impact.
    pub normal: V,
    /// Point of A at the impact (world space, A moved to the impact time).
    pub point_a: V,
    /// Point of B at the impact (world space, B moved to the impact time).
    pub point_b: V,
    /// Penetration depth at `time`: `0` (up to the tolerance) for an impact found by
    /// the cast; positive when the shapes already overlapped at time 0 (then
    /// `time = 0` and the normal, points and depth are those of [`contact`](crate::query::contact::contact)).
    pub depth: V::Scalar,
    /// `Converged`, `MaxIterations` (then `time` is a conservative lower bound on
    /// the time of impact), or `Degenerate`.
    pub status: Status,
    /// Iterations of the cast (GJK support calls, or advancement steps).
    pub iterations: u32,
}

/// The first time in `[0, max_t]` at which A, moving at `vel_a`, and B, moving at
/// `vel_b`, touch (both without rotation). `None` when they do not within `max_t`.
///
/// Edge cases: shapes that already touch or overlap at time 0 hit at `time = 0`
/// with their contact depth (positive when penetrating); equal velocities give
/// `None` unless overlapping at time 0; NaN poses, velocities or `max_t`, or a
/// negative `max_t`, give `None`.
///
/// ```
/// use isect::d2::*;
/// use isect::query::cast_shapes;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A unit ball at x = 0 moving right at 2 towards a wall [5, 6] × [-5, 5]: the
/// // ball's front reaches x = 5 at t = 2.
/// let ball = Ball::new(Vec2::ZERO, 1.0)?;
/// let wall = Obb::from_angle(Vec2::new(5.5, 0.0), Vec2::new(0.5, 5.0), 0.0)?;
/// let hit = cast_shapes(&Pose::IDENTITY, Vec2::new(2.0, 0.0), &ball,
///     &Pose::IDENTITY, Vec2::ZERO, &wall, 10.0).expect("it hits the wall");
/// assert!((hit.time - 2.0).abs() < 1e-4);
/// assert!((hit.normal - Vec2::X).length() < 1e-4);
/// // Moving away: no hit.
/// assert!(cast_shapes(&Pose::IDENTITY, -Vec2::X, &ball,
///     &Pose::IDENTITY, Vec2::ZERO, &wall, 10.0).is_none());
/// # Ok(())
/// # }
/// ```
#[allow(clippy::too_many_arguments)]
pub fn cast_shapes<V, A, B>(
    pose_a: &V::Pose,
    vel_a: V,
    a: &A,
    pose_b: &V::Pose,
    vel_b: V,
    b: &B,
    max_t: V::Scalar,
) -> Option<ShapeCastHit<V>>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let finite = pose_a.is_finite() && pose_b.is_finite() && vel_a.is_finite() && vel_b.is_finite();
    if !finite || !(max_t >= V::Scalar::ZERO) {
        return None;
    }
    let diff = MinkowskiDiff::new(a, b, pose_a.inv_mul(pose_b));
    let motion = pose_a.inverse_transform_vector(vel_b - vel_a);
    let hit = local_cast(&diff, motion, max_t)?;
    let shift = vel_a * hit.time;
    Some(ShapeCastHit {
        normal: pose_a.transform_vector(hit.normal),
        point_a: pose_a.transform_point(hit.point_a) + shift,
        point_b: pose_a.transform_point(hit.point_b) + shift,
        ..hit
    })
}

/// The state of the ray cast: B's offset `lambda · motion` and the simplex of
/// `A − (B + lambda · motion)`.
struct RayCast<V: Vector> {
    /// B's motion per unit time, in A's frame.
    motion: V,
    /// GJK's resolution: gaps below it are not trusted to GJK's direction `v` (see
    /// [`CAST_REL_ULPS`]); [`refine`] measures them along better normals.
    tol: V::Scalar,
    lambda: V::Scalar,
    simplex: Simplex<V>,
    normal: V,
    advanced: bool,
    /// The smallest `|v|` since the last advance (GJK's progress test).
    best: V::Scalar,
    /// The normal (A to B) of the plane the refinement found touching.
    touch: Option<V>,
}

impl<V: GjkVector> RayCast<V> {
    /// Moves B by `delta · motion` and shifts the simplex with it.
    fn advance(&mut self, delta: V::Scalar) {
        self.lambda += delta;
        self.advanced = true;
        self.simplex.translate_b(self.motion * delta);
    }
}

/// What one step of the cast decided.
enum Step<V> {
    /// Keep iterating.
    Continue,
    /// GJK can tell no more at this offset (`v` is its closest point): refine.
    Stop(V),
    /// The shapes never touch within `max_t`.
    Miss,
}

/// The cast in A's frame: B translates by `motion` per unit time. GJK's ray cast
/// (van den Bergen) advances B to its offset's lower bound until GJK can tell no
/// more; [`refine`] then measures the gap along the simplex's best normals and either
/// proves the touch, advances further, or proves the miss.
fn local_cast<V, A, B>(
    diff: &MinkowskiDiff<'_, V, A, B>,
    motion: V,
    max_t: V::Scalar,
) -> Option<ShapeCastHit<V>>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let first = diff.support(-motion);
    let mut cast = RayCast {
        motion,
        tol: V::Scalar::ZERO,
        lambda: V::Scalar::ZERO,
        simplex: Simplex::default(),
        normal: V::ZERO,
        advanced: false,
        best: V::Scalar::INFINITY,
        touch: None,
    };
    cast.simplex.push(first);
    for iteration in 1..=CAST_MAX_ITERATIONS {
        let v = match gjk_step(diff, &mut cast, max_t) {
            Step::Continue => continue,
            Step::Miss => return None,
            Step::Stop(v) => v,
        };
        match refine(diff, &mut cast, v, max_t) {
            Step::Stop(_) => {
                return Some(finish(diff, &cast, v, iteration, Status::Converged));
            }
            Step::Miss => return None,
            Step::Continue => cast.best = V::Scalar::INFINITY,
        }
    }
    let v = cast.simplex.closest();
    Some(finish(
        diff,
        &cast,
        v,
        CAST_MAX_ITERATIONS,
        Status::MaxIterations,
    ))
}

/// One iteration of GJK's ray cast: reduce the simplex, advance B to the plane of
/// the new support point when it separates by more than GJK's resolution, or stop.
fn gjk_step<V, A, B>(
    diff: &MinkowskiDiff<'_, V, A, B>,
    cast: &mut RayCast<V>,
    max_t: V::Scalar,
) -> Step<V>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let margin = diff.margin();
    let inside = V::reduce_simplex(&mut cast.simplex);
    let v = V::precise_closest(&cast.simplex);
    let v_len = v.length();
    cast.tol = resolution(&cast.simplex, v, margin);
    if inside || v_len <= margin + cast.tol {
        return Step::Stop(v);
    }
    let mut p = shifted_support(diff, -v, cast.motion * cast.lambda);
    // Every point of the current `A − B` lies beyond the plane `x · v = v · w`.
    let gap = v.dot(p.w) - margin * v_len;
    let advancing = gap > cast.tol * v_len;
    // Not advancing, the distance is known within GJK's bound, or GJK makes no
    // more progress (rounding on curved or sliver simplices): stop.
    let known = v_len * v_len - v.dot(p.w) <= eps::<V::Scalar>(GJK_REL_ULPS) * v_len * v_len;
    if !advancing && (known || v_len >= cast.best) {
        return Step::Stop(v);
    }
    cast.best = if advancing {
        V::Scalar::INFINITY
    } else {
        v_len
    };
    if advancing {
        let approach = v.dot(cast.motion);
        if !(approach > V::Scalar::ZERO) {
            return Step::Miss;
        }
        let delta = gap / approach;
        if !(cast.lambda + delta <= max_t) {
            return Step::Miss;
        }
        cast.advance(delta);
        p.b += cast.motion * delta;
        p.w -= cast.motion * delta;
        cast.normal = -v;
    }
    if !cast.simplex.contains_w(p.w) {
        cast.simplex.push(p);
    } else if !advancing {
        // No new vertex and no advance: the simplex is as close as it gets.
        return Step::Stop(v);
    }
    Step::Continue
}

/// GJK's resolution along `v`: [`CAST_REL_ULPS`] (floored by [`CAST_REL_FLOOR`])
/// times the simplex's reach along `v` (`Σ |v̂_i| max_k |w_k,i|`, all of its size
/// when `v` is zero) plus the margins.
fn resolution<V: GjkVector>(simplex: &Simplex<V>, v: V, margin: V::Scalar) -> V::Scalar {
    let rel = eps::<V::Scalar>(CAST_REL_ULPS).max(V::Scalar::from_f64(CAST_REL_FLOOR));
    let extent = simplex.points[..simplex.len]
        .iter()
        .fold(V::ZERO, |m, p| m.max(p.w.abs()));
    let reach = match v.try_normalize() {
        Some(u) => u.abs().dot(extent),
        None => extent.length(),
    };
    rel * (reach + margin)
}

/// A plane separating the origin from `A − (B + offset)`: its unit direction `u`
/// (GJK's `v` side: from B towards A), the gap beyond the margins along it, and the
/// rounding of that gap.
struct Separation<V: Vector> {
    u: V,
    gap: V::Scalar,
    noise: V::Scalar,
    /// The support point along `−u` (B moved by the offset).
    p: SupportPoint<V>,
}

/// The gap along `u`: every point `x` of `A − (B + offset)` has `x · u ≥ u · w` for
/// `w` its support point along `−u`, so no point is nearer the origin along `u`. The
/// gap's rounding is `CAST_GAP_ULPS · ε` times the magnitudes in the dot product,
/// `Σ |u_i| (|a_i| + |b_i|)` plus the margins: along a face normal to an axis only
/// the coordinates along that axis count, never the face's lateral extent.
fn gap_along<V, A, B>(diff: &MinkowskiDiff<'_, V, A, B>, u: V, offset: V) -> Separation<V>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let p = shifted_support(diff, -u, offset);
    let margin = diff.margin();
    let reach = u.abs().dot(p.a.abs() + p.b.abs()) + margin;
    Separation {
        u,
        gap: u.dot(p.w) - margin,
        noise: eps::<V::Scalar>(CAST_GAP_ULPS) * reach,
        p,
    }
}

/// The gaps along every candidate plane of `simplex` ([`candidate_dirs`]); for a
/// simplex of lower rank, along both sides of the facet it makes with the support
/// point found along `v` (GJK may end on a segment across a face: the origin's
/// projection on the face's diagonal); and, when none of these separates, along both
/// senses of each coordinate axis (an edge between a wide face and a thin side, met
/// by a mover sliding over it, offers neither face's normal).
fn planes<V, A, B>(
    diff: &MinkowskiDiff<'_, V, A, B>,
    simplex: &Simplex<V>,
    v: V,
    toward: V,
    offset: V,
) -> [Option<Separation<V>>; 13]
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let mut out = [const { None }; 13];
    for (slot, u) in out.iter_mut().zip(candidate_dirs(simplex, v, toward)) {
        *slot = u.map(|u| gap_along(diff, u, offset));
    }
    if simplex.len < V::DIM {
        if let Some(along_v) = &out[0] {
            let mut completed = *simplex;
            if !completed.contains_w(along_v.p.w) {
                completed.push(along_v.p);
            }
            if let Some(n) = V::facet_normal(&completed) {
                out[5] = Some(gap_along(diff, n, offset));
                out[6] = Some(gap_along(diff, -n, offset));
            }
        }
    }
    if out.iter().flatten().all(|s| !(s.gap > s.noise)) {
        // Last, the coordinate axes: exact normals of the faces normal to an axis
        // (grounds, floors), which a simplex on an edge between them does not offer.
        for k in 0..V::DIM {
            let axis = V::unit_axis(k);
            out[7 + 2 * k] = Some(gap_along(diff, axis, offset));
            out[8 + 2 * k] = Some(gap_along(diff, -axis, offset));
        }
    }
    out
}

/// The directions a simplex offers as separating planes (GJK's `v` side, into
/// `A − B`): `v` itself; both sides of the normal of a facet simplex, which edge
/// vectors give exactly for a face normal to an axis however large (near a touch `v`
/// is too short to tell the side); for a simplex of lower rank, the part of `toward` across it; for a full
/// simplex (GJK found the origin inside, within its resolution), each facet's
/// normal towards the opposite vertex, since the origin may be just outside it.
fn candidate_dirs<V: GjkVector>(simplex: &Simplex<V>, v: V, toward: V) -> [Option<V>; 5] {
    let mut out = [None; 5];
    if simplex.len > V::DIM {
        for (k, slot) in out.iter_mut().enumerate().take(simplex.len) {
            *slot = facet_facing(simplex, k);
        }
        return out;
    }
    let facet = V::facet_normal(simplex);
    out[0] = v.try_normalize();
    out[1] = facet;
    out[2] = facet.map(|n| -n);
    if simplex.len < V::DIM {
        out[3] = face_normal(simplex, toward).map(|n| -n);
    }
    out
}

/// The normal of the facet of a full simplex without vertex `k`, towards `k`.
fn facet_facing<V: GjkVector>(simplex: &Simplex<V>, k: usize) -> Option<V> {
    let mut facet = Simplex::default();
    for (i, p) in simplex.points[..simplex.len].iter().enumerate() {
        if i != k {
            facet.push(*p);
        }
    }
    let n = V::facet_normal(&facet)?;
    let side = n.dot(simplex.points[k].w - facet.points[0].w);
    Some(if side < V::Scalar::ZERO { -n } else { n })
}

/// Where GJK stopped, measures the gap along the simplex's candidate normals. A gap
/// beyond its rounding proves the shapes apart: advance B to that plane (or miss,
/// when B does not approach it, or only after `max_t`). No such gap: they touch.
/// Returns `Continue` after an advance, `Stop` for a touch, `Miss`.
fn refine<V, A, B>(
    diff: &MinkowskiDiff<'_, V, A, B>,
    cast: &mut RayCast<V>,
    v: V,
    max_t: V::Scalar,
) -> Step<V>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let offset = cast.motion * cast.lambda;
    let mut best: Option<(V::Scalar, V)> = None;
    // The plane nearest to separating: the contact's, when none separates.
    let mut nearest: Option<(V::Scalar, V)> = None;
    for s in planes(diff, &cast.simplex, v, cast.motion, offset)
        .into_iter()
        .flatten()
    {
        if nearest.is_none_or(|(g, _)| s.gap > g) {
            nearest = Some((s.gap, s.u));
        }
        if !(s.gap > s.noise) {
            continue;
        }
        let approach = s.u.dot(cast.motion);
        if !(approach > V::Scalar::ZERO) {
            return Step::Miss;
        }
        let delta = s.gap / approach;
        if best.is_none_or(|(d, _)| delta > d) {
            best = Some((delta, s.u));
        }
    }
    let Some((delta, u)) = best else {
        cast.touch = nearest.map(|(_, u)| -u);
        return Step::Stop(v);
    };
    if !(cast.lambda + delta <= max_t) {
        return Step::Miss;
    }
    cast.advance(delta);
    cast.normal = -u;
    Step::Continue
}

/// The support point of `A − (B + offset)`.
#[inline]
fn shifted_support<V, A, B>(diff: &MinkowskiDiff<'_, V, A, B>, dir: V, offset: V) -> SupportPoint<V>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let mut p = diff.support(dir);
    p.b += offset;
    p.w -= offset;
    p
}

/// The hit from the final simplex; an overlap at time 0 answers with the contact.
fn finish<V, A, B>(
    diff: &MinkowskiDiff<'_, V, A, B>,
    cast: &RayCast<V>,
    v: V,
    iterations: u32,
    status: Status,
) -> ShapeCastHit<V>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if !cast.advanced {
        if let Some(c) = local_contact(diff, V::Scalar::INFINITY) {
            return hit_from_contact(&c, V::Scalar::ZERO, iterations);
        }
    }
    let (core_a, core_b) = cast.simplex.witnesses();
    // Cores touching: what is left of `v` is rounding, the simplex's face is the normal.
    let touching = v.length() <= cast.tol;
    let face = || face_normal(&cast.simplex, cast.motion);
    let normal = cast
        .touch
        .or_else(|| if touching { face() } else { None })
        .or_else(|| (-v).try_normalize())
        .or_else(face)
        .or_else(|| cast.normal.try_normalize());
    let (normal, status) = match normal {
        Some(n) => (n, status),
        None => (V::unit_axis(0), Status::Degenerate),
    };
    ShapeCastHit {
        time: cast.lambda,
        normal,
        point_a: core_a + normal * diff.a.margin(),
        point_b: core_b - normal * diff.b.margin(),
        depth: V::Scalar::ZERO,
        status,
        iterations,
    }
}

/// The normal of a final simplex that holds the origin on its boundary (a segment in
/// 2D or 3D, a triangle in 3D): the part of `−motion` orthogonal to the simplex, so
/// the normal is the face's, facing the motion. The normal of the last advance can be
/// stale there (a ray onto a cone's side). `None` when the simplex spans the space or
/// the motion lies in it.
fn face_normal<V: Vector>(simplex: &Simplex<V>, motion: V) -> Option<V> {
    let points = &simplex.points[..simplex.len];
    let mut basis: [V; 3] = [V::ZERO; 3];
    let mut rank = 0;
    for p in points.iter().skip(1) {
        let mut e = p.w - points[0].w;
        for u in &basis[..rank] {
            e -= *u * u.dot(e);
        }
        if let Some(u) = e.try_normalize() {
            basis[rank] = u;
            rank += 1;
        }
    }
    if rank == 0 || rank >= V::DIM {
        return None;
    }
    let across = basis[..rank]
        .iter()
        .fold(motion, |m, u| m - *u * u.dot(motion));
    (-across).try_normalize()
}

/// A hit at `time` described by a contact.
fn hit_from_contact<V: Vector>(
    c: &Contact<V>,
    time: V::Scalar,
    iterations: u32,
) -> ShapeCastHit<V> {
    ShapeCastHit {
        time,
        normal: c.normal,
        point_a: c.point_a,
        point_b: c.point_b,
        depth: c.depth,
        status: c.status,
        iterations,
    }
}

/// The motion of a shape from `start` (time 0) to `end` (time 1): translation
/// linear, rotation about the shape's local origin along the shortest arc.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sweep<V: Vector> {
    /// Pose at time 0.
    pub start: V::Pose,
    /// Pose at time 1.
    pub end: V::Pose,
}

impl<V: GjkVector> Sweep<V> {
    /// The pose at time `t`.
    ///
    /// ```
    /// use isect::d2::*;
    /// use isect::query::Sweep;
    ///
    /// // Halfway along a sweep from the origin to (4, 2), turning from 0 to a quarter turn.
    /// let sweep = Sweep::<Vec2> {
    ///     start: Pose::new(Vec2::ZERO, 0.0),
    ///     end: Pose::new(Vec2::new(4.0, 2.0), std::f32::consts::FRAC_PI_2),
    /// };
    /// let mid = sweep.pose_at(0.5);
    /// assert!((mid.transform_point(Vec2::ZERO) - Vec2::new(2.0, 1.0)).length() < 1e-6);
    /// // The local x axis has turned 45°.
    /// let x = mid.transform_vector(Vec2::X);
    /// assert!((x - Vec2::splat(0.5f32.sqrt())).length() < 1e-6);
    /// ```
    #[inline]
    pub fn pose_at(&self, t: V::Scalar) -> V::Pose {
        V::interpolate_pose(&self.start, &self.end, t)
    }
}

/// A bound on the distance of any point of `shape` from its local origin: the
/// half-diagonal of its local bounding box, from `2 · DIM` support calls.
///
/// ```
/// use isect::d3::*;
/// use isect::query::cast_shapes::bounding_radius;
///
/// # fn main() -> Result<(), ShapeError> {
/// // A 2 × 4 × 4 box centred on its origin: half-diagonal √(1 + 4 + 4) = 3.
/// let b = Obb::new(Vec3::ZERO, Vec3::new(1.0, 2.0, 2.0), Quat::IDENTITY)?;
/// assert!((bounding_radius(&b) - 3.0).abs() < 1e-5);
/// # Ok(())
/// # }
/// ```
pub fn bounding_radius<V: Vector, S: SupportMap<V> + ?Sized>(shape: &S) -> V::Scalar {
    let corner = (0..V::DIM).fold(V::ZERO, |c, i| {
        let axis = V::unit_axis(i);
        let reach = shape
            .local_support(axis)
            .dot(axis)
            .abs()
            .max(shape.local_support(-axis).dot(axis).abs());
        c.with(i, reach)
    });
    corner.length()
}

/// The first time `t ∈ [0, 1]` at which A and B, moving (and rotating) along their
/// sweeps, touch. Without rotation this is the linear cast ([`cast_shapes`]) with
/// velocities `end − start`. With rotation, conservative advancement: each step
/// measures a separating gap (as the cast's refinement does, along GJK's direction
/// and its facet's normal) and moves time forward by that gap over a bound on its
/// closing speed (linear speed along the normal plus angular speed times bounding
/// radius), so it never steps past the impact; it stops when no gap beyond its
/// rounding ([`CAST_GAP_ULPS`]) is left. `None` when they do not touch by `t = 1`.
///
/// Edge cases: overlap at `t = 0` answers `time = 0` with the contact depth; at
/// [`TOI_MAX_ITERATIONS`] the last safe time is returned with `MaxIterations`; NaN
/// poses give `None`.
///
/// ```
/// use isect::d2::*;
/// use isect::query::{time_of_impact, Sweep};
///
/// # fn main() -> Result<(), ShapeError> {
/// // A 4 × 0.2 bar pivoting at the origin swings a quarter turn from +x to +y; a
/// // ball of radius 0.5 sits at (0, 2). The bar's side meets it when the ball's
/// // centre is 0.6 from the bar's axis: 2·cos θ = 0.6, θ = acos 0.3, t = θ / (π/2).
/// let bar = Obb::from_angle(Vec2::ZERO, Vec2::new(2.0, 0.1), 0.0)?;
/// let swing = Sweep {
///     start: Pose::new(Vec2::ZERO, 0.0),
///     end: Pose::new(Vec2::ZERO, std::f32::consts::FRAC_PI_2),
/// };
/// let ball = Ball::new(Vec2::ZERO, 0.5)?;
/// let at = Pose::from_translation(Vec2::new(0.0, 2.0));
/// let hit = time_of_impact(&swing, &bar, &Sweep { start: at, end: at }, &ball)
///     .expect("the bar reaches the ball");
/// let expected = 0.3f32.acos() / std::f32::consts::FRAC_PI_2;
/// assert!((hit.time - expected).abs() < 1e-3, "{}", hit.time);
/// # Ok(())
/// # }
/// ```
pub fn time_of_impact<V, A, B>(
    sweep_a: &Sweep<V>,
    a: &A,
    sweep_b: &Sweep<V>,
    b: &B,
) -> Option<ShapeCastHit<V>>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let (ma, mb) = (Mover::whole(sweep_a), Mover::whole(sweep_b));
    time_of_impact_movers(&ma, a, &mb, b, V::Scalar::ONE)
}

/// A shape carried by a sweep: its pose at time `t` is `sweep.pose_at(t) · offset`
/// (a part of a composite rides the composite's sweep at its part pose).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Mover<'s, V: Vector> {
    pub(crate) sweep: &'s Sweep<V>,
    pub(crate) offset: V::Pose,
}

impl<'s, V: GjkVector> Mover<'s, V> {
    /// The shape at the sweep's own origin.
    #[inline]
    pub(crate) fn whole(sweep: &'s Sweep<V>) -> Self {
        Self {
            sweep,
            offset: V::Pose::IDENTITY,
        }
    }

    /// The shape's pose at time `t`.
    #[inline]
    pub(crate) fn pose_at(&self, t: V::Scalar) -> V::Pose {
        self.sweep.pose_at(t).mul(&self.offset)
    }

    /// The sweep's translation over `[0, 1]`.
    #[inline]
    pub(crate) fn lin(&self) -> V {
        self.sweep.end.translation() - self.sweep.start.translation()
    }

    /// The sweep's rotation angle over `[0, 1]`.
    #[inline]
    pub(crate) fn turn(&self) -> V::Scalar {
        V::rotation_angle(&self.sweep.start, &self.sweep.end)
    }

    /// True when the sweep and the offset are finite.
    #[inline]
    pub(crate) fn is_finite(&self) -> bool {
        self.sweep.start.is_finite() && self.sweep.end.is_finite() && self.offset.is_finite()
    }

    /// The velocity (per unit of sweep time) at time `t` of the carried point that
    /// is at world point `p` then: the translation plus the rotation's part, by the
    /// symmetric difference of [`TOI_VELOCITY_STEP`] on the rotated offset.
    pub(crate) fn point_velocity(&self, p: V, t: V::Scalar) -> V {
        let h = V::Scalar::from_f64(crate::query::cast_options::TOI_VELOCITY_STEP);
        let q = self.sweep.pose_at(t).inverse_transform_point(p);
        let ahead = self.sweep.pose_at(t + h).transform_vector(q);
        let behind = self.sweep.pose_at(t - h).transform_vector(q);
        self.lin() + (ahead - behind) * (V::Scalar::HALF / h)
    }
}

/// [`time_of_impact`] of shapes carried by movers, up to time `limit` (`≤ 1`).
/// Closing speeds are bounded about each sweep's origin: a point of a carried shape
/// lies within `|offset.translation| + bounding_radius` of it.
pub(crate) fn time_of_impact_movers<V, A, B>(
    ma: &Mover<'_, V>,
    a: &A,
    mb: &Mover<'_, V>,
    b: &B,
    limit: V::Scalar,
) -> Option<ShapeCastHit<V>>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if !(ma.is_finite() && mb.is_finite() && limit >= V::Scalar::ZERO) {
        return None;
    }
    let (lin_a, lin_b) = (ma.lin(), mb.lin());
    let (turn_a, turn_b) = (ma.turn(), mb.turn());
    let (pa0, pb0) = (ma.pose_at(V::Scalar::ZERO), mb.pose_at(V::Scalar::ZERO));
    if turn_a == V::Scalar::ZERO && turn_b == V::Scalar::ZERO {
        return cast_shapes(&pa0, lin_a, a, &pb0, lin_b, b, limit);
    }
    let reach = |m: &Mover<'_, V>, r: V::Scalar| m.offset.translation().length() + r;
    let closing = Closing {
        lin: lin_a - lin_b,
        spin: turn_a * reach(ma, bounding_radius(a)) + turn_b * reach(mb, bounding_radius(b)),
    };
    let mut cache = GjkCache::new();
    let mut t = V::Scalar::ZERO;
    for iteration in 1..=TOI_MAX_ITERATIONS {
        let (pa, pb) = (ma.pose_at(t), mb.pose_at(t));
        let diff = MinkowskiDiff::new(a, b, pa.inv_mul(&pb));
        match closing.safe_step(&diff, &pa, &mut cache) {
            Advance::Touching => {
                return toi_hit(&pa, a, &pb, b, t, iteration, Status::Converged);
            }
            Advance::Never => return None,
            Advance::By(dt) => t += dt,
        }
        if !(t <= limit) {
            return None;
        }
    }
    let (pa, pb) = (ma.pose_at(t), mb.pose_at(t));
    toi_hit(&pa, a, &pb, b, t, TOI_MAX_ITERATIONS, Status::MaxIterations)
}

/// What a step of conservative advancement found.
enum Advance<R> {
    /// No gap beyond its rounding: the shapes touch.
    Touching,
    /// A separating plane that the motion never closes.
    Never,
    /// Time can safely move forward by this much.
    By(R),
}

/// The bound on how fast a gap closes along any fixed world direction `n` (from A
/// to B): `lin · n + spin` per unit of sweep time.
struct Closing<V: Vector> {
    /// A's translation minus B's over the sweep.
    lin: V,
    /// Each shape's rotation angle times its bounding radius, summed.
    spin: V::Scalar,
}

impl<V: GjkVector> Closing<V> {
    /// The safe step at the poses of `diff` (A at `pose_a`): the largest of the
    /// candidate planes' gaps over their closing speeds.
    fn safe_step<A, B>(
        &self,
        diff: &MinkowskiDiff<'_, V, A, B>,
        pose_a: &V::Pose,
        cache: &mut GjkCache<V>,
    ) -> Advance<V::Scalar>
    where
        A: SupportMap<V> + ?Sized,
        B: SupportMap<V> + ?Sized,
    {
        let g = gjk::closest_points(diff, Some(cache));
        let v = if g.overlapping {
            V::ZERO
        } else {
            V::precise_closest(&g.simplex)
        };
        let mut best: Option<V::Scalar> = None;
        let toward = pose_a.inverse_transform_vector(-self.lin);
        for s in planes(diff, &g.simplex, v, toward, V::ZERO)
            .into_iter()
            .flatten()
        {
            if !(s.gap > s.noise) {
                continue;
            }
            let approach = self.lin.dot(pose_a.transform_vector(-s.u)) + self.spin;
            if !(approach > V::Scalar::ZERO) {
                return Advance::Never;
            }
            let dt = s.gap / approach;
            best = Some(best.map_or(dt, |b: V::Scalar| b.max(dt)));
        }
        best.map_or(Advance::Touching, Advance::By)
    }
}

/// The hit at time `t` from the contact of the posed shapes.
fn toi_hit<V, A, B>(
    pose_a: &V::Pose,
    a: &A,
    pose_b: &V::Pose,
    b: &B,
    t: V::Scalar,
    iterations: u32,
    status: Status,
) -> Option<ShapeCastHit<V>>
where
    V: GjkVector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let diff = MinkowskiDiff::new(a, b, pose_a.inv_mul(pose_b));
    let c = local_contact(&diff, V::Scalar::INFINITY)?;
    let mut hit = hit_from_contact(&c, t, iterations);
    hit.normal = pose_a.transform_vector(hit.normal);
    hit.point_a = pose_a.transform_point(hit.point_a);
    hit.point_b = pose_a.transform_point(hit.point_b);
    if status != Status::Converged {
        hit.status = status;
    }
    Some(hit)
}
