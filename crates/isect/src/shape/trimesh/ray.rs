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

use crate::broad::simd::LANES;
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
    /// The axes in sheared order (`kz` last) and the origin's coordinates on them.
    axes: [usize; 3],
    permuted_origin: [V::Scalar; 3],
    sx: V::Scalar,
    sy: V::Scalar,
    sz: V::Scalar,
}

/// `p`'s components rotated so that axis `kz` (0, 1 or 2) comes last: read by index,
/// not chosen by a `match`, since `kz` is the ray's dominant axis, which changes from
/// ray to ray and which a branch would mispredict a third of the time.
#[inline(always)]
fn permute<V: Vector>(p: V, kz: usize) -> [V::Scalar; 3] {
    let c = [p.get(0), p.get(1), p.get(2)];
    let kz = kz.min(2);
    [c[(kz + 1) % 3], c[(kz + 2) % 3], c[kz]]
}

/// Four triangles side by side for [`ShearedRay::hit4`]: `corner[c][axis][lane]` is
/// coordinate `axis` of corner `c` of the triangle in `lane`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Triangles4<S> {
    pub(crate) corner: [[[S; LANES]; 3]; 3],
}

impl<V: Vector> ShearedRay<V> {
    /// The prepared ray, or `None` for a zero direction (which meets no triangle).
    #[inline(always)]
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
            axes: [(kz + 1) % 3, (kz + 2) % 3, kz],
            permuted_origin: permute(ray.origin, kz),
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

    /// [`hit`](Self::hit) on four triangles at once, lane by lane over the lanes set in
    /// `valid`: the same arithmetic in the same order, so a lane it decides gets the
    /// same answer and the same `t` as `hit`. It decides a lane when the edge
    /// functions' signs are certain and do not cancel (nearly always), or when the
    /// certain ones already disagree (a miss); the other lanes are returned in
    /// `undecided` for `hit` to settle exactly. Returns `(t, hit, undecided)`: bit `l`
    /// of `hit` set when lane `l` is hit at `t[l] ≥ 0`.
    ///
    /// Written row by row (each step one loop over the lanes) and kept out of line, so
    /// that the compiler turns every step into one vector instruction.
    #[inline(always)]
    pub(crate) fn hit4(
        &self,
        tris: &Triangles4<V::Scalar>,
        valid: u32,
    ) -> ([V::Scalar; LANES], u32, u32) {
        #[cfg(target_arch = "x86_64")]
        if let Some(out) = self.hit4_sse(tris, valid) {
            return out;
        }
        self.hit4_portable(tris, valid)
    }

    /// [`hit4`](Self::hit4) by the SSE kernel when the scalar is `f32` and the SSE2
    /// one when it is `f64` (`None` otherwise; the type tests are resolved at compile
    /// time). The walks compiled for AVX call the AVX `f64` kernel instead
    /// (`Kernels::hit4` of the ray tree). The kernels are called directly, not passed
    /// as functions: the `f64` one, passed, was left out of line.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn hit4_sse(
        &self,
        tris: &Triangles4<V::Scalar>,
        valid: u32,
    ) -> Option<([V::Scalar; LANES], u32, u32)> {
        use core::any::Any;
        let (ray, tris) = (self as &dyn Any, tris as &dyn Any);
        if let (Some(ray), Some(tris)) = (ray.downcast_ref(), tris.downcast_ref()) {
            let (t, hit, undecided) = super::sse::hit4(ray, tris, valid);
            return Some((as_row(t)?, hit, undecided));
        }
        let (ray, tris) = (ray.downcast_ref()?, tris.downcast_ref()?);
        let (t, hit, undecided) = super::sse::hit4_f64(ray, tris, valid);
        Some((as_row(t)?, hit, undecided))
    }

    /// The rotation of the axes, the origin in it and the shear factors.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn frame(&self) -> ([usize; 3], [V::Scalar; 3], [V::Scalar; 3]) {
        (self.axes, self.permuted_origin, [self.sx, self.sy, self.sz])
    }

    /// The portable [`hit4`](Self::hit4).
    #[inline(never)]
    pub(crate) fn hit4_portable(
        &self,
        tris: &Triangles4<V::Scalar>,
        valid: u32,
    ) -> ([V::Scalar; LANES], u32, u32) {
        let a = self.apply4(&tris.corner[0]);
        let b = self.apply4(&tris.corner[1]);
        let c = self.apply4(&tris.corner[2]);
        let (e0, m0) = edge4(&c, &b);
        let (e1, m1) = edge4(&a, &c);
        let (e2, m2) = edge4(&b, &a);
        let k = V::Scalar::from_f64(EDGE_SIGN_ULPS) * V::Scalar::EPSILON;
        let sliver = V::Scalar::from_f64(SLIVER_CANCELLATION);
        let zero = V::Scalar::ZERO;
        // Each edge function where its sign is certain, zero where it is not: all
        // three certain and of one sign when the smallest is positive or the largest
        // negative; the certain ones disagree when the smallest is negative and the
        // largest positive. (Certain edge functions of one sign cannot sum to zero.)
        let (mut low, mut high, mut t, mut cancel) =
            ([zero; LANES], [zero; LANES], [zero; LANES], [zero; LANES]);
        for l in 0..LANES {
            let sure = |e: V::Scalar, m: V::Scalar| if e.abs() > m * k { e } else { zero };
            let (c0, c1, c2) = (sure(e0[l], m0[l]), sure(e1[l], m1[l]), sure(e2[l], m2[l]));
            let lo01 = if c1 < c0 { c1 } else { c0 };
            let hi01 = if c1 > c0 { c1 } else { c0 };
            low[l] = if c2 < lo01 { c2 } else { lo01 };
            high[l] = if c2 > hi01 { c2 } else { hi01 };
            let det = e0[l] + e1[l] + e2[l];
            t[l] = (e0[l] * a[2][l] + e1[l] * b[2][l] + e2[l] * c[2][l]) / det;
            // Positive when the edge functions cancel by more than SLIVER_CANCELLATION.
            cancel[l] = (m0[l] + m1[l] + m2[l]) - det.abs() * sliver;
        }
        // Four comparisons (fewer masks to pack): lanes where the signs are certain and
        // agree (`low > 0` or `high < 0`), where the certain ones disagree (`low < 0`
        // and `high > 0`), where the edge functions cancel, and where, with no
        // cancellation, the crossing is not behind the origin (`t` is finite wherever
        // the signs are certain and agree: their sum is not zero).
        let (mut agreeing, mut disagreeing, mut kept) =
            ([zero; LANES], [zero; LANES], [zero; LANES]);
        for l in 0..LANES {
            let (low, high) = (low[l], high[l]);
            agreeing[l] = if -high > low { -high } else { low };
            disagreeing[l] = if high < -low { high } else { -low };
            kept[l] = if t[l] < -cancel[l] { t[l] } else { -cancel[l] };
        }
        let zeros = [zero; LANES];
        let crossed = less(&zeros, &agreeing);
        let agree = !less(&zeros, &disagreeing);
        let cancels = less(&zeros, &cancel);
        let hit = crossed & less_eq(&zeros, &kept);
        let undecided = agree & (!crossed | cancels);
        (t, hit & valid, undecided & valid)
    }

    /// [`apply`](Self::apply) to one corner of four triangles (`corner[axis][lane]`),
    /// rows in the sheared frame.
    #[inline(always)]
    fn apply4(&self, corner: &[[V::Scalar; LANES]; 3]) -> [[V::Scalar; LANES]; 3] {
        let [ox, oy, oz] = self.permuted_origin;
        let (x, y, z) = (
            &corner[self.axes[0]],
            &corner[self.axes[1]],
            &corner[self.axes[2]],
        );
        let mut out = [[V::Scalar::ZERO; LANES]; 3];
        for l in 0..LANES {
            let (x, y, z) = (x[l] - ox, y[l] - oy, z[l] - oz);
            out[0][l] = x - self.sx * z;
            out[1][l] = y - self.sy * z;
            out[2][l] = self.sz * z;
        }
        out
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

/// [`edge_functions`]' edge `u`, `v` over four lanes of sheared corners (rows).
#[inline(always)]
fn edge4<S: Real>(u: &[[S; LANES]; 3], v: &[[S; LANES]; 3]) -> ([S; LANES], [S; LANES]) {
    let (mut e, mut m) = ([S::ZERO; LANES], [S::ZERO; LANES]);
    for l in 0..LANES {
        let (p, q) = (u[0][l] * v[1][l], u[1][l] * v[0][l]);
        e[l] = p - q;
        m[l] = p.abs() + q.abs();
    }
    (e, m)
}

/// One value per lane.
type Row<S> = [S; LANES];

/// `row` as a row of `S` when `T` is `S` (`None` otherwise; the type test is resolved
/// at compile time).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn as_row<T: Real, S: Real>(row: Row<T>) -> Option<Row<S>> {
    use core::any::Any;
    let mut out = [S::ZERO; LANES];
    *(&mut out as &mut dyn Any).downcast_mut::<Row<T>>()? = row;
    Some(out)
}

/// The mask of the lanes where `x < y` (bit `l` for lane `l`; NaN compares false).
/// Masks are combined as integers: the compiler keeps a lane loop of comparisons as
/// one vector comparison and a move-mask, where boolean logic across lanes was split
/// into scalar code.
#[inline(always)]
fn less<S: Real>(x: &Row<S>, y: &Row<S>) -> u32 {
    let mut mask = 0;
    for l in 0..LANES {
        mask |= u32::from(x[l] < y[l]) << l;
    }
    mask
}

/// The mask of the lanes where `x ≤ y` (NaN compares false).
#[inline(always)]
fn less_eq<S: Real>(x: &Row<S>, y: &Row<S>) -> u32 {
    let mut mask = 0;
    for l in 0..LANES {
        mask |= u32::from(x[l] <= y[l]) << l;
    }
    mask
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
