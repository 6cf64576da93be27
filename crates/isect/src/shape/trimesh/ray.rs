//! The ray–triangle kernel: the watertight test of Woop, Benthin and Wald,
//! "Watertight Ray/Triangle Intersection" (JCGT 2013), the one implementation used by
//! `Triangle`'s ray cast (`query::cast_ray::triangle`), the meshes and the 3D
//! heightfield. A mesh computes the per-ray shear once for the whole traversal
//! instead of once per triangle. The shear uses one division (`1/dz`) so that it is
//! the same for every triangle the ray meets. Two triangles sharing an edge leave no gap:
//! an edge function within its rounding of zero ([`EDGE_SIGN_ULPS`]) gets its exact
//! sign (Shewchuk's filtered predicates), so both triangles see the same sign and the
//! decision is exact for the sheared corners; edges and vertices hit. A flat triangle, a ray in a triangle's plane and a zero direction miss.
//!
//! The hit decision has no tolerance. The hit's `t` is the barycentric interpolation
//! of the corners' `t`, which loses digits in proportion to a sliver's aspect (its
//! edge functions cancel); past [`SLIVER_CANCELLATION`] the `t` is recomputed in
//! `f64` (`careful_t`) as the better of that interpolation and the ray's closest
//! approach to the sliver's longest edge (off by at most the sliver's height), each
//! with its error estimate, and kept inside the triangle's box (grown by [`BOX_ULPS`]),
//! so that trees culling by triangle boxes agree with it. The hit point is then within
//! about `√ε₆₄·L / sin θ` of the triangle (`L` its longest edge, `θ` the angle between
//! the ray and that edge), a few `f32` ulps of `L` for `f32` meshes.

use crate::math::exact::{dekker_product, grow_expansion};
use crate::math::{Real, Vector};
use crate::shape::Ray;
use glam::DVec3;

/// An edge function farther from zero than this many ulps of its two products'
/// magnitudes has the exact sign (the products' and the difference's roundings);
/// nearer ones are settled exactly.
pub const EDGE_SIGN_ULPS: f64 = 4.0;

/// The growth of a triangle's box, in ulps of its largest coordinate (relative to the
/// ray's origin), inside which a recomputed hit is kept.
pub const BOX_ULPS: f64 = 4.0;

/// The edge functions' cancellation (the sum of their products' magnitudes over their
/// sum) beyond which a hit's `t` is recomputed by `careful_t`: the interpolated `t`
/// may then be off by this many ulps of the triangle's extent along the ray.
pub const SLIVER_CANCELLATION: f64 = 64.0;

/// A ray prepared for many triangle tests: its origin and the shear that maps its
/// direction onto the axis `kz`.
pub(crate) struct ShearedRay<V: Vector> {
    origin: V,
    dir: V,
    kz: usize,
    sx: V::Scalar,
    sy: V::Scalar,
    sz: V::Scalar,
}

/// `p`'s components rotated so that axis `kz` comes last.
#[inline(always)]
fn permute<V: Vector>(p: V, kz: usize) -> [V::Scalar; 3] {
    match kz {
        0 => [p.get(1), p.get(2), p.get(0)],
        1 => [p.get(2), p.get(0), p.get(1)],
        _ => [p.get(0), p.get(1), p.get(2)],
    }
}

impl<V: Vector> ShearedRay<V> {
    /// The prepared ray, or `None` for a zero direction (which meets no triangle).
    #[inline]
    pub(crate) fn new(ray: &Ray<V>) -> Option<Self> {
        let kz = ray.dir.abs().max_axis();
        let [dx, dy, dz] = permute(ray.dir, kz);
        if dz == V::Scalar::ZERO {
            return None;
        }
        let sz = dz.recip();
        Some(Self {
            origin: ray.origin,
            dir: ray.dir,
            kz,
            sx: dx * sz,
            sy: dy * sz,
            sz,
        })
    }

    #[inline(always)]
    fn apply(&self, p: V) -> [V::Scalar; 3] {
        let [x, y, z] = permute(p - self.origin, self.kz);
        [x - self.sx * z, y - self.sy * z, self.sz * z]
    }

    /// The hit parameter `t ≥ 0` on triangle `tri`, or `None`.
    #[inline]
    pub(crate) fn hit(&self, tri: &[V; 3]) -> Option<V::Scalar> {
        let [a, b, c] = tri.map(|p| self.apply(p));
        let (e, m) = edge_functions(a, b, c);
        let z = [a[2], b[2], c[2]];
        if signs_certain(e, m) {
            let t = crossing(e, z)?;
            if !cancels(e, m) {
                return (t >= V::Scalar::ZERO).then_some(t);
            }
            return self.careful_hit(tri, t.to_f64());
        }
        // Edge functions within their rounding of zero: their signs are settled
        // exactly, the same way in both triangles of a shared edge (watertight).
        let e = settle_signs(e, m, [a, b, c])?;
        let t = crossing(e, z.map(Real::to_f64))?;
        self.careful_hit(tri, t)
    }

    /// The hit at the `t` of [`Self::careful_t`], if not behind the origin.
    fn careful_hit(&self, tri: &[V; 3], t: f64) -> Option<V::Scalar> {
        let t = V::Scalar::from_f64(self.careful_t(tri, t));
        (t >= V::Scalar::ZERO).then_some(t)
    }

    /// The hit's `t` recomputed in `f64` for a triangle whose edge functions cancel
    /// (a sliver seen from the ray): the better, by its error estimate, of the
    /// barycentric `t` and the ray's closest approach to the longest edge, kept within
    /// the corners' range of `t`.
    fn careful_t(&self, tri: &[V; 3], t_fast: f64) -> f64 {
        let wide = |p: V| DVec3::new(p.get(0).to_f64(), p.get(1).to_f64(), p.get(2).to_f64());
        let o = wide(self.origin);
        let d = wide(self.dir);
        let [p, q, r] = tri.map(|v| wide(v) - o);
        let (lo, hi) = corner_t_range(d, [p, q, r]);
        let (t_bary, err_bary) = barycentric_t(d, [p, q, r]).unwrap_or((t_fast, f64::INFINITY));
        let (t_edge, err_edge) = longest_edge_t(d, [p, q, r]);
        let t = if err_edge < err_bary { t_edge } else { t_bary };
        // A hit lies in the triangle's box: kept there, it agrees with every tree
        // that culls by (padded) triangle boxes. `max`/`min` rather than `clamp`: a
        // non-finite ray gives NaN bounds.
        let (enter, exit) = box_interval(d, [p, q, r]);
        t.max(lo.max(enter)).min(hi.min(exit))
    }
}

/// The interval of `t` over which the ray (from the origin, direction `d`) is inside
/// the box of the corners `p`, grown by [`BOX_ULPS`] of their largest coordinate.
fn box_interval(d: DVec3, p: [DVec3; 3]) -> (f64, f64) {
    let (min, max) = (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]));
    let pad = BOX_ULPS * f64::EPSILON * min.abs().max(max.abs()).max_element();
    let (a, b) = ((min - pad) / d, (max + pad) / d);
    let (enter, exit) = (a.min(b), a.max(b));
    (enter.max_element(), exit.min_element())
}

/// The range of `t` over the triangle's corners `p` (relative to the ray's origin).
fn corner_t_range(d: DVec3, p: [DVec3; 3]) -> (f64, f64) {
    let k = d.abs().max_position();
    let ts = p.map(|v| v[k] / d[k]);
    (ts[0].min(ts[1]).min(ts[2]), ts[0].max(ts[1]).max(ts[2]))
}

/// The barycentric `t` in `f64`, with an estimate of its error from the edge
/// functions' rounding; `None` for a zero determinant.
fn barycentric_t(d: DVec3, p: [DVec3; 3]) -> Option<(f64, f64)> {
    let k = d.abs().max_position();
    let (i, j) = ((k + 1) % 3, (k + 2) % 3);
    let (sx, sy, sz) = (d[i] / d[k], d[j] / d[k], 1.0 / d[k]);
    let [a, b, c] = p.map(|v| [v[i] - sx * v[k], v[j] - sy * v[k], sz * v[k]]);
    let (e, m) = edge_functions(a, b, c);
    // The signs were decided by the caller; near an edge a weight may round negative.
    let t = interpolate(e, [a[2], b[2], c[2]])?;
    let mags = m[0] + m[1] + m[2];
    let spread = [a[2], b[2], c[2]]
        .iter()
        .fold(0.0f64, |m, z| m.max((z - t).abs()));
    let det = (e[0] + e[1] + e[2]).abs();
    Some((t, 4.0 * f64::EPSILON * mags * spread / det))
}

/// The `t` of the ray's closest approach to the triangle's longest edge, with the
/// triangle's height over that edge seen along the ray as its error bound.
fn longest_edge_t(d: DVec3, p: [DVec3; 3]) -> (f64, f64) {
    let edges = [(p[0], p[1]), (p[1], p[2]), (p[2], p[0])];
    let (s, e) = edges
        .into_iter()
        .max_by(|x, y| {
            (x.1 - x.0)
                .length_squared()
                .total_cmp(&(y.1 - y.0).length_squared())
        })
        .unwrap_or(edges[0]);
    let along = e - s;
    let dxe = d.cross(along);
    let den = dxe.length_squared();
    if den == 0.0 {
        return (0.0, f64::INFINITY);
    }
    let u = (-dxe.dot(d.cross(s)) / den).clamp(0.0, 1.0);
    let t = d.dot(s + along * u) / d.length_squared();
    let area2 = (p[1] - p[0]).cross(p[2] - p[0]).length();
    let rounding = f64::EPSILON * (p[1] - p[0]).length() * (p[2] - p[0]).length();
    (t, (area2 + rounding) / den.sqrt() * 2.0)
}

/// The edge functions of the sheared corners and, beside each, the sum of its two
/// products' magnitudes (the scale of its rounding).
#[inline(always)]
fn edge_functions<S: Real>(a: [S; 3], b: [S; 3], c: [S; 3]) -> ([S; 3], [S; 3]) {
    let edge = |u: [S; 3], v: [S; 3]| {
        let (p, q) = (u[0] * v[1], u[1] * v[0]);
        (p - q, p.abs() + q.abs())
    };
    let [(e0, m0), (e1, m1), (e2, m2)] = [edge(c, b), edge(a, c), edge(b, a)];
    ([e0, e1, e2], [m0, m1, m2])
}

/// Whether every edge function is farther from zero than its rounding can reach
/// ([`EDGE_SIGN_ULPS`] of its products' magnitudes), so that its sign is exact.
#[inline(always)]
fn signs_certain<S: Real>(e: [S; 3], m: [S; 3]) -> bool {
    let k = S::from_f64(EDGE_SIGN_ULPS) * S::EPSILON;
    e[0].abs() > m[0] * k && e[1].abs() > m[1] * k && e[2].abs() > m[2] * k
}

/// The edge functions with exact signs, or `None` when the certain ones already
/// disagree (a miss whatever the others are).
fn settle_signs<S: Real>(e: [S; 3], m: [S; 3], [a, b, c]: [[S; 3]; 3]) -> Option<[f64; 3]> {
    let k = S::from_f64(EDGE_SIGN_ULPS) * S::EPSILON;
    let sure = |i: usize| e[i].abs() > m[i] * k;
    let positive = (0..3).any(|i| sure(i) && e[i] > S::ZERO);
    let negative = (0..3).any(|i| sure(i) && e[i] < S::ZERO);
    if positive && negative {
        return None;
    }
    let pairs = [(c, b), (a, c), (b, a)];
    Some(std::array::from_fn(|i| {
        if sure(i) {
            e[i].to_f64()
        } else {
            exact_edge(pairs[i].0, pairs[i].1)
        }
    }))
}

/// `u₀·v₁ − u₁·v₀` with its exact sign (Dekker's products summed as an expansion;
/// barring underflow): the most significant component of the exact value.
fn exact_edge<S: Real>(u: [S; 3], v: [S; 3]) -> f64 {
    let (p, pe) = dekker_product(u[0].to_f64(), v[1].to_f64());
    let (q, qe) = dekker_product(u[1].to_f64(), v[0].to_f64());
    let mut sum = [0.0; 4];
    let n = [p, -q, pe, -qe]
        .into_iter()
        .fold(0, |n, part| grow_expansion(&mut sum, n, part));
    sum[..n].last().copied().unwrap_or(0.0)
}

/// Whether the edge functions `e` (with their products' magnitudes `m`) cancel by
/// more than [`SLIVER_CANCELLATION`] (checked only for hits, so misses pay nothing).
#[inline(always)]
fn cancels<S: Real>(e: [S; 3], m: [S; 3]) -> bool {
    let det = (e[0] + e[1] + e[2]).abs();
    m[0] + m[1] + m[2] > det * S::from_f64(SLIVER_CANCELLATION)
}

/// The interpolated `t` where the ray crosses the triangle (of any sign), or `None`
/// when the edge functions `e` disagree in sign or sum to zero.
#[inline(always)]
fn crossing<S: Real>(e: [S; 3], z: [S; 3]) -> Option<S> {
    let mixed = (e[0] < S::ZERO || e[1] < S::ZERO || e[2] < S::ZERO)
        && (e[0] > S::ZERO || e[1] > S::ZERO || e[2] > S::ZERO);
    if mixed {
        return None;
    }
    interpolate(e, z)
}

/// `Σ eᵢ·zᵢ / Σ eᵢ`, or `None` for a zero sum.
#[inline(always)]
fn interpolate<S: Real>(e: [S; 3], z: [S; 3]) -> Option<S> {
    let det = e[0] + e[1] + e[2];
    if det == S::ZERO {
        return None;
    }
    Some((e[0] * z[0] + e[1] * z[1] + e[2] * z[2]) / det)
}
