//! Shape casts: `cast_shapes` (both shapes translate at constant velocity) by the
//! GJK ray cast on the Minkowski difference (van den Bergen 2004, "Ray casting
//! against general convex objects"; Box2D's `b2ShapeCast`), and `time_of_impact`
//! with rotation by conservative advancement (Mirtich 1996; Box2D's TOI bounds).
//!
//! Tolerances are relative to the shapes' size, so accuracy does not degrade
//! with scale: [`CAST_REL_ULPS`] (the cast stops when the gap is below this times
//! the size of `A − B`, floored by [`CAST_REL_FLOOR`]; on curved cores GJK's own
//! floor, about `sqrt(ε)` of the size, can stop it earlier, always before the impact) and [`TOI_REL_ULPS`] (conservative advancement stops when
//! the distance is below this times the shapes' bounding radii). Caps:
//! [`CAST_MAX_ITERATIONS`], [`TOI_MAX_ITERATIONS`].

// `!(x > y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
use crate::algo::gjk::{
    GjkCache, GjkVector, MinkowskiDiff, Simplex, Status, SupportPoint, GJK_REL_ULPS,
};
use crate::algo::support::SupportMap;
use crate::math::tolerance::eps;
use crate::math::{Isometry, Real, Vector};
use crate::query::contact::{local_contact, Contact};
use crate::query::distance::closest_points_cached;

/// Iteration cap of the linear shape cast (one support call per iteration).
pub const CAST_MAX_ITERATIONS: u32 = 64;
/// The cast has hit when the shapes' gap is below `CAST_REL_ULPS · ε` times the
/// size of `A − B` (its largest support point along the motion).
pub const CAST_REL_ULPS: f64 = 1024.0;
/// Floor of the cast's relative tolerance, for the same reason as
/// [`EPA_REL_FLOOR`](crate::algo::epa::EPA_REL_FLOOR): the tolerance is
/// `max(CAST_REL_ULPS · ε, CAST_REL_FLOOR)`.
pub const CAST_REL_FLOOR: f64 = 1e-9;
/// Iteration cap of conservative advancement (one GJK distance per iteration).
pub const TOI_MAX_ITERATIONS: u32 = 64;
/// Conservative advancement stops when the distance is below `TOI_REL_ULPS · ε`
/// times the sum of the shapes' bounding radii.
pub const TOI_REL_ULPS: f64 = 4096.0;

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
    /// Gap below which the cores touch.
    tol: V::Scalar,
    lambda: V::Scalar,
    simplex: Simplex<V>,
    normal: V,
    advanced: bool,
}

impl<V: GjkVector> RayCast<V> {
    /// Moves B by `delta · motion` and shifts the simplex with it.
    fn advance(&mut self, delta: V::Scalar, motion: V) {
        self.lambda += delta;
        self.advanced = true;
        self.simplex.translate_b(motion * delta);
    }
}

/// The cast in A's frame: B translates by `motion` per unit time.
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
    let margin = diff.margin();
    let zero = V::Scalar::ZERO;
    let mut cast = RayCast {
        motion,
        tol: zero,
        lambda: zero,
        simplex: Simplex::default(),
        normal: V::ZERO,
        advanced: false,
    };
    let first = diff.support(-motion);
    let rel = eps::<V::Scalar>(CAST_REL_ULPS).max(V::Scalar::from_f64(CAST_REL_FLOOR));
    let tol = rel * (first.w.length() + margin);
    cast.tol = tol;
    let gjk_rel = eps::<V::Scalar>(GJK_REL_ULPS);
    let mut best = V::Scalar::INFINITY;
    cast.simplex.push(first);
    for iteration in 1..=CAST_MAX_ITERATIONS {
        let inside = V::reduce_simplex(&mut cast.simplex);
        let v = cast.simplex.closest();
        let v_len = v.length();
        if inside || v_len <= margin + tol {
            return Some(finish(diff, &cast, v, iteration, Status::Converged));
        }
        let mut p = shifted_support(diff, -v, motion * cast.lambda);
        // Every point of the current `A − B` lies beyond the plane `x · v = v · w`.
        let gap = v.dot(p.w) - margin * v_len;
        let advancing = gap > tol * v_len;
        // Not advancing, the distance is known within GJK's bound, or GJK makes no
        // more progress (rounding on curved or sliver simplices): a hit.
        let known = v_len * v_len - v.dot(p.w) <= gjk_rel * v_len * v_len;
        if !advancing && (known || v_len >= best) {
            return Some(finish(diff, &cast, v, iteration, Status::Converged));
        }
        best = if advancing {
            V::Scalar::INFINITY
        } else {
            v_len
        };
        if advancing {
            let approach = v.dot(motion);
            if !(approach > zero) {
                return None;
            }
            let delta = gap / approach;
            if !(cast.lambda + delta <= max_t) {
                return None;
            }
            cast.advance(delta, motion);
            p.b += motion * delta;
            p.w -= motion * delta;
            cast.normal = -v;
        }
        if !cast.simplex.contains_w(p.w) {
            cast.simplex.push(p);
        } else if !advancing {
            // No new vertex and no advance: the simplex is as close as it gets.
            return Some(finish(diff, &cast, v, iteration, Status::Converged));
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
    let normal = if touching { face() } else { None }
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
    #[inline]
    pub fn pose_at(&self, t: V::Scalar) -> V::Pose {
        V::interpolate_pose(&self.start, &self.end, t)
    }
}

/// A bound on the distance of any point of `shape` from its local origin: the
/// half-diagonal of its local bounding box, from `2 · DIM` support calls.
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
/// sweeps, touch, by conservative advancement: each step moves time forward by the
/// current distance over a bound on the approach speed (linear speed along the
/// normal plus angular speed times bounding radius), so it never steps past the
/// impact. `None` when they do not touch by `t = 1`.
///
/// Edge cases: overlap at `t = 0` answers `time = 0` with the contact depth; at
/// [`TOI_MAX_ITERATIONS`] the last safe time is returned with `MaxIterations`; NaN
/// poses give `None`.
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
    let poses = [sweep_a.start, sweep_a.end, sweep_b.start, sweep_b.end];
    if !poses.iter().all(|p| p.is_finite()) {
        return None;
    }
    let (ra, rb) = (bounding_radius(a), bounding_radius(b));
    let tol = eps::<V::Scalar>(TOI_REL_ULPS) * (ra + rb);
    let lin = (sweep_a.end.translation() - sweep_a.start.translation())
        - (sweep_b.end.translation() - sweep_b.start.translation());
    let spin = V::rotation_angle(&sweep_a.start, &sweep_a.end) * ra
        + V::rotation_angle(&sweep_b.start, &sweep_b.end) * rb;
    let mut cache = GjkCache::new();
    let mut t = V::Scalar::ZERO;
    for iteration in 1..=TOI_MAX_ITERATIONS {
        let (pa, pb) = (sweep_a.pose_at(t), sweep_b.pose_at(t));
        let cp = closest_points_cached(&pa, a, &pb, b, &mut cache);
        let Some(normal) = (cp.point_b - cp.point_a)
            .try_normalize()
            .filter(|_| cp.distance > tol)
        else {
            return toi_hit(&pa, a, &pb, b, t, iteration, Status::Converged);
        };
        let approach = lin.dot(normal) + spin;
        if !(approach > V::Scalar::ZERO) {
            return None;
        }
        t += (cp.distance - tol * V::Scalar::HALF) / approach;
        if !(t <= V::Scalar::ONE) {
            return None;
        }
    }
    let (pa, pb) = (sweep_a.pose_at(t), sweep_b.pose_at(t));
    toi_hit(&pa, a, &pb, b, t, TOI_MAX_ITERATIONS, Status::MaxIterations)
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
