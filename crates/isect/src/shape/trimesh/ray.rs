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
//! with its error estimate, and kept inside the triangle's box grown by the kernel's own
//! error ([`BOX_ULPS`], [`SHEAR_ERROR_ULPS`]), so that trees culling by triangle boxes
//! agree with it. The hit point is then within
//! about `√ε₆₄·L / sin θ` of the triangle (`L` its longest edge, `θ` the angle between
//! the ray and that edge), a few `f32` ulps of `L` for `f32` meshes.
//!
//! **The kernel's error, which the trees' node tests must cover.** The decision is
//! exact for the *rounded* sheared corners. A corner's sheared `x' = fl(fl(X) −
//! fl(s·fl(Z)))`, with `X`, `Z` its offsets from the origin on a lateral axis and on the
//! ray's dominant axis and `s = fl(dx·fl(1/dz))`, is off from the exact shear
//! `X − (dx/dz)·Z` by at most `γ₂|X| + γ₅|dx/dz||Z|` (`γₙ = nu/(1 − nu)`, `u = ε/2`: two
//! roundings on `X`, five on the `Z` term with the two of `s`), about `ε|X| + 2.5ε|sZ|`.
//! If the origin lies in the rounded triangle with barycentric weights `λ`, the point
//! `P = Σλᵢpᵢ` of the exact triangle has exact sheared coordinates `−Σλᵢδᵢ`: it lies
//! off the exact ray, at the ray's point `R` of the same dominant coordinate (`t_P =
//! Z_P/dz`), by at most `ξ_a = maxᵢ(γ₂|Xᵢ| + γ₅|dx/dz||Zᵢ|)` on each lateral axis `a`
//! and not at all on the dominant one. With `|Xᵢ| ≤ |d_a|·t_P + ξ_a + ext` and `|dx/dz||Zᵢ|
//! ≤ |d_a|·t_P + ext` (`ext` the triangle's extent), a crossing the kernel reports puts
//! the exact ray inside the triangle's box grown, on each lateral axis, by
//! `3.5ε·|d_a|·t_P + 4.5ε·ext` (to first order). The first term grows with the
//! origin's distance along that axis: a tree that pads its boxes by a fixed number of
//! ulps of the mesh's size culls such crossings from far away (an `f32` ray from 50
//! icosahedron radii aimed at a vertex missed the box of the triangle the kernel gave
//! the vertex to by 4.3e-6, past 16 ulps of the mesh). The ray tree's node test
//! therefore widens every slab by a relative `NODE_PAD_REL` of the ray's `t` (the
//! first term) and the boxes are padded by `RAY_BOX_ULPS` of each triangle's extent
//! (the second); see `ray_tree`.
//!
//! **Tiny targets and extreme directions are scaled by powers of two**
//! ([`ShearedRay::within`]). The edge functions are products of two offsets from the
//! origin and the interpolated `t` of three over the direction: a triangle 1e-17 wide
//! in `f32` (1e-120 in `f64`) underflowed them (`t` 12% off, 0, or no hit at all). When
//! the target (a mesh's bounds, or a lone triangle's) is narrower than `2^(2−K)` or the
//! direction's largest component `D` lies outside `2^±K` (`K` = 16 in `f32`, 128 in
//! `f64`), the kernel works on the offsets times `σ = 2^-⌊log₂B⌋` (`B` the bounds'
//! largest offset from the origin) and the direction times `2^-⌊log₂D⌋`, and the `t` it
//! finds is multiplied back. Otherwise the products stay far inside the range: offsets
//! up to the query reach (`16·MAX_COORD`, `2^31` and `2^255`) make them at most
//! `2^117` in `f32` and `2^901` in `f64` (rays from beyond the reach are answered
//! unscaled, as before). Multiplying by a power of two is exact (short of underflow)
//! and every rounding commutes with it, so where nothing underflows the decisions and
//! the `t` are bit for bit those of the unscaled kernel (a mesh scaled by `2^-930`
//! answers as the unit mesh, tested); where something would, the scaled kernel's
//! products are near 1. The choice costs two comparisons a ray. The scale is one per
//! ray and target (a mesh's bounds, not a triangle's), so both triangles of a shared
//! edge compute the same scaled edge function and decide it alike: watertightness
//! holds at any scale. A scale per triangle would not keep it where one triangle's
//! products underflow and its neighbour's do not (they would decide the shared edge
//! from different numbers); lone triangles ([`Triangle`](crate::shape::Triangle)'s
//! cast) take their own bounds, and two of them still decide a shared edge alike
//! wherever neither's products underflow or overflow (every scale then gives the same
//! bits), which is wherever both are unscaled and nearly everywhere else. A mesh whose
//! triangles differ in size by more than the range (a triangle `2^-40` of its mesh's
//! size in `f32`) can still underflow: one scale serves one size.

use crate::broad::simd::LANES;
use crate::math::exact::{dekker_product, grow_expansion};
use crate::math::{Real, Vector};
use crate::shape::Ray;
use glam::DVec3;

/// An edge function farther from zero than this many ulps of its two products'
/// magnitudes has the exact sign (the products' and the difference's roundings);
/// nearer ones are settled exactly.
pub const EDGE_SIGN_ULPS: f64 = 4.0;

/// The growth of a triangle's box, in `f64` ulps of its largest offset from the ray's
/// origin on each axis, inside which a recomputed hit is kept: the rounding of
/// `careful_t`'s own `f64` box interval. Added to the kernel's error
/// ([`SHEAR_ERROR_ULPS`]) on the lateral axes.
pub const BOX_ULPS: f64 = 4.0;

/// The kernel's error on a lateral axis `a` of the sheared frame, as a multiple of the
/// scalar's `ε`: a crossing the kernel reports lies within `SHEAR_ERROR_ULPS · ε ·
/// maxᵢ(|Xᵢ| + 2.5·|s_a·Zᵢ|)` of the exact ray on that axis (`Xᵢ`, `Zᵢ` the corners'
/// offsets on `a` and on the dominant axis, `s_a = d_a/d_z`; module docs: the bound is
/// `γ₂|X| + γ₅|s_a Z|`, 1.25 covers the `γ`s' higher-order terms and the `f64`
/// offsets' rounding). `careful_t` keeps a sliver's `t` inside the triangle's box grown
/// by it, which the ray tree's node test covers.
pub const SHEAR_ERROR_ULPS: f64 = 1.25;

/// The edge functions' cancellation (the sum of their products' magnitudes over their
/// sum) beyond which a hit's `t` is recomputed by `careful_t`: the interpolated `t`
/// may then be off by this many ulps of the triangle's extent along the ray.
pub const SLIVER_CANCELLATION: f64 = 64.0;

/// A ray prepared for many triangle tests: its origin and the shear that maps its
/// direction onto the axis `kz`, and the powers of two of a scaled kernel (module docs).
#[derive(Copy, Clone)]
pub(crate) struct ShearedRay<V: Vector> {
    origin: V,
    /// The direction the kernel works with: the ray's, or the ray's times a power of
    /// two when scaled.
    dir: V,
    kz: usize,
    /// The axes in sheared order (`kz` last) and the origin's coordinates on them
    /// (zero in a scaled ray's [`offsets_frame`](Self::offsets_frame), which the 4-lane
    /// kernels take with the corners' scaled offsets, [`Self::offsets4`]).
    axes: [usize; 3],
    permuted_origin: [V::Scalar; 3],
    sx: V::Scalar,
    sy: V::Scalar,
    sz: V::Scalar,
    /// `σ`: the power of two the corners' offsets from the origin are multiplied by
    /// (1 unscaled).
    scale: V::Scalar,
    /// The power of two that turns the kernel's `t` into the ray's (1 unscaled).
    unscale: V::Scalar,
    /// The kernel is scaled (`scale` or `unscale` is not 1).
    scaled: bool,
}

/// The bounds of the corners a [`ShearedRay`] will be tested against, which choose its
/// scale ([`ShearedRay::within`]): the range of the direction's largest component in
/// which a ray runs unscaled (empty for a target narrower than `2^(2−K)`, whose rays are
/// all scaled).
#[derive(Copy, Clone, Debug)]
pub(crate) struct KernelBounds<V: Vector> {
    lo: V,
    hi: V,
    unscaled: [V::Scalar; 2],
}

impl<V: Vector> KernelBounds<V> {
    /// The bounds `[lo, hi]` of a target's corners (a mesh's box).
    pub(crate) fn new(lo: V, hi: V) -> Self {
        let k = range_exp::<V::Scalar>();
        let s = |e: i32| V::Scalar::from_f64(pow2(e));
        let unscaled = match (hi - lo).max_element() >= s(2 - k) {
            true => [s(-k), s(k)],
            false => [V::Scalar::INFINITY, V::Scalar::NEG_INFINITY],
        };
        Self { lo, hi, unscaled }
    }

    /// The bounds of one triangle's corners.
    #[inline(always)]
    pub(crate) fn tight(corners: &[V; 3]) -> Self {
        Self::new(
            corners[0].min(corners[1]).min(corners[2]),
            corners[0].max(corners[1]).max(corners[2]),
        )
    }
}

/// `K` (16 for `f32`, 128 for `f64`: an eighth of the exponent range): a target at
/// least `2^(2−K)` wide, cast at by a direction whose largest component lies within
/// `2^±K`, needs no scale (module docs). Its offsets from an origin within the query
/// reach are at most `2^32` (`f32`) and `2^256` (`f64`), the interpolation's products
/// (three offsets over `D`) at most `2^117` and `2^901`; its own size keeps a crossed
/// triangle's products near `B²` and `B³/D` unless the triangle is far smaller than
/// its mesh.
#[inline(always)]
const fn range_exp<S>() -> i32 {
    if core::mem::size_of::<S>() == 4 {
        16
    } else {
        128
    }
}

/// The power of two that brings `size` (a length's bound, such as a triangle's largest
/// edge component) into `[1, 2)` when it lies outside `2^±K` ([`range_exp`]), else 1
/// (also for zero and non-finite sizes): for products of lengths that would underflow
/// or overflow (a tiny triangle's normal). Within the range, multiplying by 1 changes
/// no bit.
pub(crate) fn size_scale<S: Real>(size: S) -> S {
    let k = range_exp::<S>();
    let x = size.to_f64();
    if !(x > 0.0 && x.is_finite()) || (x >= pow2(-k) && x <= pow2(k)) {
        return S::ONE;
    }
    let top = exponent(S::MAX.to_f64());
    S::from_f64(pow2((-exponent(x)).clamp(1 - top, top - 1)))
}

/// `2^e` as an `f64` (0 or `∞` beyond its range), exact.
#[inline]
fn pow2(e: i32) -> f64 {
    let e = e.clamp(-1100, 1100);
    let half = |e: i32| f64::from_bits(((1023 + e) as u64) << 52);
    half(e / 2) * half(e - e / 2)
}

/// The binary exponent of a positive normal `f64` (any finite positive `f32` is one).
fn exponent(x: f64) -> i32 {
    ((x.to_bits() >> 52) & 0x7ff) as i32 - 1023
}

/// The direction-dependent part of a [`ShearedRay`]: the direction the kernel works
/// with, its shear factors `[sx, sy, sz]`, and the scale's powers of two.
struct Shear<V: Vector> {
    dir: V,
    s: [V::Scalar; 3],
    scale: V::Scalar,
    unscale: V::Scalar,
    scaled: bool,
}

impl<V: Vector> Shear<V> {
    /// The unscaled shear of direction `dir`, `[dx, dy, dz]` its components in sheared
    /// order (`dz ≠ 0`).
    #[inline(always)]
    fn plain(dir: V, [dx, dy, dz]: [V::Scalar; 3]) -> Self {
        let sz = dz.recip();
        Self {
            dir,
            s: [dx * sz, dy * sz, sz],
            scale: V::Scalar::ONE,
            unscale: V::Scalar::ONE,
            scaled: false,
        }
    }

    /// The scaled shear of [`ShearedRay::within`]: the offsets times `σ = 2^-⌊log₂B⌋`
    /// (`B` the bounds' largest offset from the origin, `σ` kept a normal power of two)
    /// and the direction times `2^-⌊log₂D⌋` (`D` its largest component); unscaled for a
    /// non-finite ray.
    #[cold]
    #[inline(never)]
    fn scaled(ray: &Ray<V>, kz: usize, bounds: &KernelBounds<V>) -> Self {
        let o = ray.origin;
        let b = (bounds.lo - o)
            .abs()
            .max((bounds.hi - o).abs())
            .max_element();
        let d = ray.dir.get(kz).abs();
        if !(b > V::Scalar::ZERO && b.is_finite() && d.is_finite()) {
            return Self::plain(ray.dir, permute(ray.dir, kz));
        }
        // The scalar's largest exponent (127 or 1023): `σ` stays a normal power of two.
        let top = exponent(V::Scalar::MAX.to_f64());
        let s = (-exponent(b.to_f64())).clamp(1 - top, top - 1);
        let e = exponent(d.to_f64());
        // The direction times `2^-e` (computed in `f64`, exact but where a component
        // is far below the largest), its largest component in `[1, 2)`: the same axis.
        let dir = (0..3).fold(V::ZERO, |v, a| {
            v.with(a, V::Scalar::from_f64(ray.dir.get(a).to_f64() * pow2(-e)))
        });
        Self {
            scale: V::Scalar::from_f64(pow2(s)),
            // The kernel's `t` is the ray's times `σ·2^e`.
            unscale: V::Scalar::from_f64(pow2(-s - e)),
            scaled: true,
            ..Self::plain(dir, permute(dir, kz))
        }
    }
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
    /// The prepared ray, unscaled (for targets of unknown bounds), or `None` for a zero
    /// direction (which meets no triangle).
    #[inline(always)]
    pub(crate) fn new(ray: &Ray<V>) -> Option<Self> {
        let kz = ray.dir.abs().max_axis();
        let [dx, dy, dz] = permute(ray.dir, kz);
        if dz == V::Scalar::ZERO {
            return None;
        }
        Some(Self::with_shear(
            ray,
            kz,
            Shear::plain(ray.dir, [dx, dy, dz]),
        ))
    }

    /// The ray with axis `kz` dominant and shear `shear`.
    #[inline(always)]
    fn with_shear(ray: &Ray<V>, kz: usize, shear: Shear<V>) -> Self {
        let permuted = permute(ray.origin, kz);
        Self {
            origin: ray.origin,
            dir: shear.dir,
            kz,
            axes: [(kz + 1) % 3, (kz + 2) % 3, kz],
            permuted_origin: permuted,
            sx: shear.s[0],
            sy: shear.s[1],
            sz: shear.s[2],
            scale: shear.scale,
            unscale: shear.unscale,
            scaled: shear.scaled,
        }
    }

    /// The prepared ray for corners within `bounds`: unscaled when the target is at
    /// least `2^(2−K)` wide and the direction's largest component lies within `2^±K`,
    /// else scaled by powers of two (module docs); `None` for a zero direction. The
    /// choice is a function of the ray's direction and the bounds alone (two
    /// comparisons a ray), the same for a mesh and for a lone triangle of the same
    /// bounds.
    #[inline(always)]
    pub(crate) fn within(ray: &Ray<V>, bounds: &KernelBounds<V>) -> Option<Self> {
        let kz = ray.dir.abs().max_axis();
        let [dx, dy, dz] = permute(ray.dir, kz);
        if dz == V::Scalar::ZERO {
            return None;
        }
        let d = dz.abs();
        // One branch (`&`, not `&&`): the comparisons are cheaper than their jumps.
        let shear = match (d >= bounds.unscaled[0]) & (d <= bounds.unscaled[1]) {
            true => Shear::plain(ray.dir, [dx, dy, dz]),
            false => Shear::scaled(ray, kz, bounds),
        };
        Some(Self::with_shear(ray, kz, shear))
    }

    /// The kernel is scaled: the 4-lane kernels take [`Self::offsets4`] of a leaf's
    /// corners, and their `t` times [`Self::unscale`] is the ray's.
    #[inline(always)]
    pub(crate) fn scaled(&self) -> bool {
        self.scaled
    }

    /// The corners' offsets from the origin times `σ`, for the 4-lane kernels of a
    /// scaled ray (with its [`offsets_frame`](Self::offsets_frame)): lane by lane what
    /// [`apply`](Self::apply) computes before the shear, so the kernels' answers stay
    /// those of [`hit`](Self::hit).
    #[inline]
    pub(crate) fn offsets4(&self, tris: &Triangles4<V::Scalar>) -> Triangles4<V::Scalar> {
        let mut out = *tris;
        for corner in &mut out.corner {
            for (axis, row) in corner.iter_mut().enumerate() {
                let o = self.origin.get(axis);
                for x in row.iter_mut() {
                    *x = (*x - o) * self.scale;
                }
            }
        }
        out
    }

    /// The ray the 4-lane kernels take with [`offsets4`](Self::offsets4): its origin in
    /// the sheared frame zero, since the offsets are taken already.
    #[inline]
    pub(crate) fn offsets_frame(&self) -> Self {
        Self {
            permuted_origin: [V::Scalar::ZERO; 3],
            ..*self
        }
    }

    /// The power of two that turns the kernel's `t` into the ray's (1 unscaled).
    #[inline(always)]
    pub(crate) fn unscale(&self) -> V::Scalar {
        self.unscale
    }

    /// A corner in the sheared frame: its offset from the origin (times `σ`), rotated so
    /// that the dominant axis comes last, and sheared.
    #[inline(always)]
    fn apply(&self, p: V) -> [V::Scalar; 3] {
        let [x, y, z] = permute((p - self.origin) * self.scale, self.kz);
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
                return (t >= V::Scalar::ZERO).then_some(t * self.unscale);
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
    /// of `hit` set when lane `l` is hit at `t[l] ≥ 0`. A [`scaled`](Self::scaled)
    /// ray is tested as its [`offsets_frame`](Self::offsets_frame) against the
    /// triangles' [`offsets4`](Self::offsets4), and the `t` are the kernel's (times
    /// [`unscale`](Self::unscale) the ray's), as the ray tree's `Scaled` kernels do.
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
        (t >= V::Scalar::ZERO).then_some(t * self.unscale)
    }

    /// The hit's `t` recomputed in `f64` for a triangle whose edge functions cancel
    /// (a sliver seen from the ray): the better, by its error estimate, of the
    /// barycentric `t` and the ray's closest approach to the longest edge, kept within
    /// the corners' range of `t` and the triangle's box grown by the kernel's error.
    /// In the kernel's units (the offsets times `σ`, the direction the kernel's): the
    /// caller multiplies by [`Self::unscale`].
    fn careful_t(&self, tri: &[V; 3], t_fast: f64) -> f64 {
        let wide = |p: V| DVec3::new(p.get(0).to_f64(), p.get(1).to_f64(), p.get(2).to_f64());
        let o = wide(self.origin);
        let d = wide(self.dir);
        let scale = self.scale.to_f64();
        let [p, q, r] = tri.map(|v| (wide(v) - o) * scale);
        let (lo, hi) = corner_t_range(d, [p, q, r]);
        let (t_bary, err_bary) = barycentric_t(d, [p, q, r]).unwrap_or((t_fast, f64::INFINITY));
        let (t_edge, err_edge) = longest_edge_t(d, [p, q, r]);
        let t = if err_edge < err_bary { t_edge } else { t_bary };
        // A crossing the kernel reports puts the exact ray in the triangle's box grown
        // by the kernel's error (`box_interval`), so that interval is not empty (to
        // its own rounding) and its entry is at most the crossing's `t_P`; every tree
        // whose node test covers that growth enters the boxes holding the triangle by
        // then. The entry is applied last, so the `t` is never below it even where
        // rounding empties the interval. `max`/`min` rather than `clamp`: a non-finite
        // ray gives NaN bounds.
        let (enter, exit) = box_interval(d, [p, q, r], self.kz, V::Scalar::EPSILON.to_f64());
        t.min(hi.min(exit)).max(lo.max(enter))
    }
}

/// The interval of `t` over which the ray (from the origin, direction `d`, dominant
/// axis `kz`) is inside the box of the corners `p`, grown on every axis by [`BOX_ULPS`]
/// `f64` ulps of the corners' largest offset on it, and on the lateral axes also by the
/// kernel's error ([`SHEAR_ERROR_ULPS`] times the scalar's `eps`, module docs).
fn box_interval(d: DVec3, p: [DVec3; 3], kz: usize, eps: f64) -> (f64, f64) {
    let (min, max) = (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]));
    let reach = min.abs().max(max.abs());
    let along = reach[kz.min(2)];
    let lateral = DVec3::from_array(std::array::from_fn(|a| {
        let s = (d[a] / d[kz.min(2)]).abs();
        match a == kz {
            true => 0.0,
            false => SHEAR_ERROR_ULPS * eps * (reach[a] + 2.5 * s * along),
        }
    }));
    let pad = BOX_ULPS * f64::EPSILON * reach + lateral;
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
