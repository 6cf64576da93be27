//! The witnesses of a penetrating contact that GJK / EPA found for a pair with a
//! cylinder or a cone (every other kind's core is a polytope, on which EPA's
//! witnesses are exact): both on their surfaces, and `point_a − point_b` along
//! `depth · normal`.
//!
//! EPA interpolates its last face's support points, which on a curved shape lie on a
//! chord inside it and on two faces may land beside the region where they overlap;
//! its normal is accurate to about the square root of its tolerance, and the support
//! point of a disc's rim turns fast with a normal near the disc's axis, so support
//! points taken along EPA's normal can sit beside each other. In order:
//!
//! 1. A face of either shape that supports the normal whole is the contact's axis
//!    when the shapes overlap along its own normal by no more than EPA's depth
//!    (within EPA's tolerance): the minimum translation is along the face, whose
//!    normal EPA found only to its accuracy ([`Pair::contact_along`]).
//! 2. EPA's witnesses already on the shapes' support sets along the normal stay.
//! 3. Else two candidates: the support sets' witnesses along EPA's normal
//!    ([`crate::algo::witness::witness_of_sets`]), when both lie on their surfaces,
//!    and EPA's own witnesses moved onto the surfaces (a chord point's nearest surface
//!    point); the one whose `point_a − point_b` is nearer `depth · normal` is kept.
//! 4. When that gap is above rounding, the normal of least overlap is sought near
//!    EPA's: perpendicular to a support set that is a line (an edge, a cylinder's
//!    side, a cone's slant; [`Pair::line_contact`], a safeguarded secant on the
//!    overlap's derivative), or, for two support points, by Newton steps on the
//!    overlap ([`Pair::point_contact`]); kept when its overlap is within EPA's
//!    tolerance of EPA's depth, its witnesses lie on the surfaces and follow it more
//!    closely.
//!
//! Both witnesses on their surfaces with a gap `g` from `depth · normal` also lie within
//! `g` (plus EPA's depth tolerance) of their shapes' supporting planes: a contact
//! region. The gap left is at most a few
//! [`witness_band`](crate::query::contact::witness_band)s of the shapes' size
//! (two curved points, or a line against a curved point the search could not
//! bracket), and to rounding on faces.

// `!(x > y)` is deliberate: it is also true for NaN, which must take the safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::table::ConvexEnum;
use crate::algo::gjk::GjkVector;
use crate::algo::root::illinois;
use crate::algo::witness::{nearest_on_set, on_set, witness_of_sets, MAX_FEATURE_POINTS};
use crate::math::tolerance::eps;
use crate::math::{Isometry, Real, Vector};
use crate::query::contact::{witness_band, Contact};

/// EPA's witness within this many `√ε` (times the contact's scale) of its shape's
/// support set is on it and stays.
const ON_SET_ROOT_ULPS: f64 = 16.0;

/// A gap of `point_a − point_b` from `depth · normal` below this many `ε` (times the
/// contact's scale) is rounding: no search for a line contact's normal.
const ROUNDING_GAP_ULPS: f64 = 64.0;

/// The search for a line contact's normal widens its first step (one
/// [`witness_band`]) by doubling at most this many times to bracket the least overlap.
const LINE_AXIS_WIDENINGS: usize = 6;

/// At most this many secant steps of the search for a line contact's normal.
const LINE_AXIS_STEPS: usize = 48;

/// The search for a line contact's normal stops once its bracket is narrower than
/// this many `ε` (radians).
const LINE_AXIS_ULPS: f64 = 8.0;

/// At most this many Newton steps of the search for a point contact's normal.
const POINT_AXIS_STEPS: usize = 8;

/// A Newton step of the search for a point contact's normal is halved at most this
/// many times before the search stops.
const POINT_AXIS_HALVINGS: usize = 6;

/// A penetrating contact's witnesses on the shapes' surfaces, `point_a − point_b`
/// along `depth · normal` (see the module). Separated contacts keep GJK's closest
/// points; pairs of polytope cores keep EPA's (exact on them).
pub(super) fn witnesses_on_supports<V: GjkVector, S: ConvexEnum<V>>(
    pa: &V::Pose,
    a: &S,
    pb: &V::Pose,
    b: &S,
    c: Contact<V>,
) -> Contact<V> {
    if c.depth.partial_cmp(&V::Scalar::ZERO) != Some(core::cmp::Ordering::Greater)
        || a.has_polytope_core() && b.has_polytope_core()
    {
        return c;
    }
    let band = witness_band::<V::Scalar>();
    let (sa, la, face_a) = support_set(pa, a, c.normal, band);
    let (sb, lb, face_b) = support_set(pb, b, -c.normal, band);
    let (sa, sb) = (&sa[..la], &sb[..lb]);
    let scale = c.point_a.abs().max_element().max(c.depth);
    let tol = V::Scalar::EPSILON.sqrt() * V::Scalar::from_f64(ON_SET_ROOT_ULPS) * scale;
    let pair = Pair { pa, a, pb, b, tol };
    let faces = [face_a, face_b.map(|m| -m)];
    if let Some(f) = faces
        .into_iter()
        .flatten()
        .fold(None, |best, m| lesser(best, pair.contact_along(&c, m)))
    {
        return f;
    }
    // EPA's witnesses already on the support sets (polytopes) stay.
    if on_set(sa, c.point_a, tol) && on_set(sb, c.point_b, tol) {
        return c;
    }
    let projected = Contact {
        point_a: surface_point(pa, a, c.point_a),
        point_b: surface_point(pb, b, c.point_b),
        ..c
    };
    let placed = witnesses_of_sets(sa, sb, &c)
        .map(|(point_a, point_b)| Contact {
            point_a,
            point_b,
            ..c
        })
        .filter(|w| pair.on_surfaces(w));
    let best = match placed {
        Some(w) if !(gap(&projected) < gap(&w)) => w,
        _ => projected,
    };
    if !(gap(&best) > eps::<V::Scalar>(ROUNDING_GAP_ULPS) * scale) {
        return best;
    }
    let polished = match (sa, sb) {
        ([p, q], [_]) | ([_], [p, q]) => pair.line_contact(&c, *q - *p),
        ([_], [_]) => pair.point_contact(&c, scale),
        _ => None,
    };
    match polished {
        Some(l) if gap(&l) < gap(&best) => l,
        _ => best,
    }
}

/// How far `point_a − point_b` lies from `depth · normal`.
fn gap<V: Vector>(c: &Contact<V>) -> V::Scalar {
    (c.point_a - c.point_b - c.normal * c.depth).length()
}

/// The shallower of two contacts (either may be missing).
fn lesser<V: Vector>(x: Option<Contact<V>>, y: Option<Contact<V>>) -> Option<Contact<V>> {
    match (x, y) {
        (Some(p), Some(q)) if q.depth < p.depth => Some(q),
        (Some(p), _) => Some(p),
        (None, q) => q,
    }
}

/// The witnesses of `c` on the support sets `sa` of A along the normal and `sb` of B
/// against it ([`witness_of_sets`]); sets whose projections miss each other (EPA's
/// normal is off where the penetration is deep) keep a single support point and take
/// the nearest point of the other set; `None` between two lines or faces.
fn witnesses_of_sets<V: GjkVector>(sa: &[V], sb: &[V], c: &Contact<V>) -> Option<(V, V)> {
    let band = witness_band::<V::Scalar>();
    match (witness_of_sets(sa, sb, c.normal, band), sa, sb) {
        (Some(w), _, _) => Some(w),
        (None, [p], _) => Some((*p, nearest_on_set(sb, *p - c.normal * c.depth))),
        (None, _, [q]) => Some((nearest_on_set(sa, *q + c.normal * c.depth), *q)),
        (None, _, _) => None,
    }
}

/// The point of the surface of `s` placed at `pose` nearest the world point `p`.
fn surface_point<V: GjkVector, S: ConvexEnum<V>>(pose: &V::Pose, s: &S, p: V) -> V {
    let local = s.project_local_point(pose.inverse_transform_point(p), false);
    pose.transform_point(local.point)
}

/// The two shapes of a contact at their poses, and how far off its surface a
/// witness may lie (rounding).
struct Pair<'s, V: GjkVector, S> {
    pa: &'s V::Pose,
    a: &'s S,
    pb: &'s V::Pose,
    b: &'s S,
    tol: V::Scalar,
}

impl<V: GjkVector, S: ConvexEnum<V>> Pair<'_, V, S> {
    /// True when both witnesses of `c` lie on their surfaces (within `tol`).
    fn on_surfaces(&self, c: &Contact<V>) -> bool {
        let off = |pose, s, p: V| p.distance(surface_point(pose, s, p));
        off(self.pa, self.a, c.point_a) <= self.tol && off(self.pb, self.b, c.point_b) <= self.tol
    }

    /// The shapes' overlap along the unit world direction `m` (from A to B): the
    /// translation along `m` that parts them.
    fn overlap(&self, m: V) -> V::Scalar {
        m.dot(self.a.support(self.pa, m)) - m.dot(self.b.support(self.pb, -m))
    }

    /// The contact along the unit world normal `m` when the shapes overlap along it by
    /// no more than along `c`'s normal, or than `c`'s depth and EPA's tolerance: each
    /// overlap is at least the true depth, which EPA's depth brackets within its
    /// tolerance, so `m` is then as good an axis as EPA's. Its witnesses lie on the
    /// support sets along `m`, and must lie on the surfaces (`None` otherwise).
    fn contact_along(&self, c: &Contact<V>, m: V) -> Option<Contact<V>> {
        let depth = self.overlap(m);
        // EPA's convergence bound: its tolerance times the Minkowski difference's size.
        let origin = self.pa.translation();
        let size = (c.point_a - origin)
            .abs()
            .max_element()
            .max((c.point_b - origin).abs().max_element());
        let slack = crate::algo::epa::epa_rel_tolerance::<V::Scalar>() * (size + size);
        if !(depth <= c.depth + slack || depth <= self.overlap(c.normal)) {
            return None;
        }
        // `m` is exact (a face's, or level with a line): sets to rounding.
        let band = eps::<V::Scalar>(ROUNDING_GAP_ULPS);
        let (sa, la, _) = support_set(self.pa, self.a, m, band);
        let (sb, lb, _) = support_set(self.pb, self.b, -m, band);
        let along = Contact {
            normal: m,
            depth,
            ..*c
        };
        let (point_a, point_b) = witnesses_of_sets(&sa[..la], &sb[..lb], &along)?;
        Some(Contact {
            point_a,
            point_b,
            ..along
        })
        .filter(|w| self.on_surfaces(w))
    }

    /// The contact whose normal is perpendicular to the world direction `line` (a
    /// support set's) where the shapes overlap least, near `c`'s normal
    /// ([`Pair::contact_along`] decides whether it is kept). On the great circle
    /// `n(φ) = cos φ · u + sin φ · w` normal to the line, the overlap's derivative is
    /// the support points' difference along `n′(φ)`; it rises through zero at the
    /// least overlap, which a safeguarded secant (Illinois) finds once doubling steps
    /// from `φ = 0` (the normal turned onto the circle) have bracketed it.
    fn line_contact(&self, c: &Contact<V>, line: V) -> Option<Contact<V>> {
        let e = line.try_normalize()?;
        let u = (c.normal - e * e.dot(c.normal)).try_normalize()?;
        let w = cross(e, u);
        let normal = |phi: V::Scalar| u * phi.cos() + w * phi.sin();
        let slope = |phi: V::Scalar| {
            let n = normal(phi);
            let t = w * phi.cos() - u * phi.sin();
            t.dot(self.a.support(self.pa, n) - self.b.support(self.pb, -n))
        };
        let phi = least_on_circle(slope)?;
        self.contact_along(c, normal(phi))
    }

    /// The contact whose normal minimises the shapes' overlap near `c`'s, for two
    /// support points (two curved surfaces, or a corner): Newton steps on the overlap
    /// over the plane tangent to the sphere at `c`'s normal, `n = (n₀ + a·u + b·w) / |…|`.
    /// The overlap's gradient is the support points' difference across `n` (zero at the
    /// least overlap, where the witnesses follow the normal); its Jacobian is taken by
    /// differences of `√ε` steps. A step is kept only when the overlap does not grow
    /// (halved up to [`POINT_AXIS_HALVINGS`] times); at most [`POINT_AXIS_STEPS`] steps,
    /// stopping once the gradient is rounding (`scale`: the contact's coordinates).
    fn point_contact(&self, c: &Contact<V>, scale: V::Scalar) -> Option<Contact<V>> {
        let n0 = c.normal;
        let u = cross(n0, V::unit_axis((-n0.abs()).max_axis())).try_normalize()?;
        let w = cross(n0, u);
        // The overlap along n(a, b) and its gradient in (a, b).
        let at = |a: V::Scalar, b: V::Scalar| {
            let v = n0 + u * a + w * b;
            let len = v.length();
            let n = v / len;
            let s = self.a.support(self.pa, n) - self.b.support(self.pb, -n);
            let across = |t: V| s.dot(t - n * n.dot(t)) / len;
            (n.dot(s), [across(u), across(w)])
        };
        let small = eps::<V::Scalar>(ROUNDING_GAP_ULPS) * scale;
        let h = V::Scalar::EPSILON.sqrt();
        let (mut x, (mut f, mut g)) = ([V::Scalar::ZERO; 2], at(V::Scalar::ZERO, V::Scalar::ZERO));
        for _ in 0..POINT_AXIS_STEPS {
            if !(g[0].abs().max(g[1].abs()) > small) {
                break;
            }
            let (_, ga) = at(x[0] + h, x[1]);
            let (_, gb) = at(x[0], x[1] + h);
            let Some(step) = newton_step(g, [ga, gb], h) else {
                break;
            };
            let mut t = V::Scalar::ONE;
            let mut kept = None;
            for _ in 0..=POINT_AXIS_HALVINGS {
                let y = [x[0] + step[0] * t, x[1] + step[1] * t];
                let (fy, gy) = at(y[0], y[1]);
                if fy <= f {
                    kept = Some((y, fy, gy));
                    break;
                }
                t *= V::Scalar::from_f64(0.5);
            }
            let Some((y, fy, gy)) = kept else {
                break;
            };
            (x, f, g) = (y, fy, gy);
        }
        let normal = (n0 + u * x[0] + w * x[1]).try_normalize()?;
        self.contact_along(c, normal)
    }
}

/// The Newton step `−J⁻¹ g` for the gradient `g` at a point and the gradients `ga`,
/// `gb` a step `h` along each coordinate from it (`J` from their differences,
/// symmetrised); `None` unless `J` is positive definite (a minimum's neighbourhood).
fn newton_step<R: Real>(g: [R; 2], [ga, gb]: [[R; 2]; 2], h: R) -> Option<[R; 2]> {
    let (jaa, jbb) = ((ga[0] - g[0]) / h, (gb[1] - g[1]) / h);
    let jab = ((ga[1] - g[1]) / h + (gb[0] - g[0]) / h) * R::from_f64(0.5);
    let det = jaa * jbb - jab * jab;
    if !(jaa > R::ZERO && det > R::ZERO) {
        return None;
    }
    Some([
        -(jbb * g[0] - jab * g[1]) / det,
        -(jaa * g[1] - jab * g[0]) / det,
    ])
}

/// The root of the nondecreasing `slope` near 0: bracketed by steps from 0 of one
/// [`witness_band`] doubling up to [`LINE_AXIS_WIDENINGS`] times, then narrowed by the
/// Illinois secant ([`LINE_AXIS_STEPS`], [`LINE_AXIS_ULPS`]); `None` unbracketed.
fn least_on_circle<R: Real>(slope: impl Fn(R) -> R) -> Option<R> {
    let f0 = slope(R::ZERO);
    if f0 == R::ZERO {
        return Some(R::ZERO);
    }
    let toward = match f0 < R::ZERO {
        true => R::ONE,
        false => -R::ONE,
    };
    let (mut near, mut f_near) = (R::ZERO, f0);
    let mut step = witness_band::<R>();
    let mut far = None;
    for _ in 0..=LINE_AXIS_WIDENINGS {
        let phi = toward * step;
        let f = slope(phi);
        if f == R::ZERO {
            return Some(phi);
        }
        if (f < R::ZERO) != (f0 < R::ZERO) {
            far = Some((phi, f));
            break;
        }
        (near, f_near) = (phi, f);
        step = step + step;
    }
    let (far, f_far) = far?;
    let ((a, fa), (b, fb)) = match near < far {
        true => ((near, f_near), (far, f_far)),
        false => ((far, f_far), (near, f_near)),
    };
    Some(illinois(
        slope,
        (a, fa),
        (b, fb),
        LINE_AXIS_STEPS,
        LINE_AXIS_ULPS,
    ))
}

/// The 3D cross product through the [`Vector`] accessors (the witnesses are placed
/// in 3D only).
fn cross<V: Vector>(a: V, b: V) -> V {
    let (x, y, z) = (a.get(0), a.get(1), a.get(2));
    let (p, q, r) = (b.get(0), b.get(1), b.get(2));
    V::unit_axis(0) * (y * r - z * q)
        + V::unit_axis(1) * (z * p - x * r)
        + V::unit_axis(2) * (x * q - y * p)
}

/// The world points where `s` placed at `pose` supports the world direction `dir`:
/// its support point, or the vertices of its supporting feature within `band` (times
/// the feature's size; [`witness_band`] along EPA's normal) of the top when two or
/// more are (a line or a face; a part of a sampled disc is not one); and the face's
/// world normal when the feature is a face supporting `dir` whole.
fn support_set<V: GjkVector, S: ConvexEnum<V>>(
    pose: &V::Pose,
    s: &S,
    dir: V,
    band: V::Scalar,
) -> ([V; MAX_FEATURE_POINTS], usize, Option<V>) {
    let local = pose.inverse_transform_vector(dir);
    let feature = s.support_feature(local);
    let vertices = feature.vertices();
    let top = vertices
        .iter()
        .fold(V::Scalar::NEG_INFINITY, |m, v| m.max(v.dot(local)));
    let size = vertices
        .iter()
        .fold(V::Scalar::ZERO, |m, v| m.max(v.distance(vertices[0])));
    let band = band * size;
    let supporting = || vertices.iter().filter(|v| v.dot(local) >= top - band);
    let part = supporting().count() < vertices.len();
    // A part of a rounded face is an edge or corner of the core pushed out along
    // `dir`, not along the face's normal.
    let offset = match (part, feature.normal) {
        (true, Some(m)) => (local - m) * s.margin(),
        _ => V::ZERO,
    };
    let mut set = ([V::ZERO; MAX_FEATURE_POINTS], 0);
    for v in supporting().take(MAX_FEATURE_POINTS) {
        set.0[set.1] = pose.transform_point(*v + offset);
        set.1 += 1;
    }
    if set.1 <= 1 || part && feature.sampled {
        set = ([V::ZERO; MAX_FEATURE_POINTS], 1);
        set.0[0] = pose.transform_point(s.local_support(local));
    }
    let face = match (part, feature.normal) {
        (false, Some(m)) if set.1 >= 3 => Some(pose.transform_vector(m)),
        _ => None,
    };
    (set.0, set.1, face)
}
