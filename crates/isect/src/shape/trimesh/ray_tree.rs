//! The mesh's tree for rays: a binary SAH tree of its own ([`ray_build`]: all three
//! axes binned, leaves of up to four triangles) collapsed into nodes of up to eight
//! children (BVH8, as Embree builds for AVX), each leaf's triangles stored side by side
//! and tested together by the 4-lane watertight kernel ([`ShearedRay::hit4`]), as
//! Embree's `triangle4` leaves (Wald et al., "Embree: a kernel framework for efficient
//! CPU ray tracing", 2014; the kernel is Woop, Benthin and Wald's, "Watertight
//! Ray/Triangle Intersection", JCGT 2013).
//!
//! Collapsing: which binary nodes become nodes of up to eight children and which are
//! opened into their parent's is chosen by dynamic programming to minimise the summed
//! surface area of the wide nodes, each a node test for every ray meeting its box
//! ([`WidePlan`](ray_build::WidePlan), Ylitie et al. 2017; it replaced opening the
//! largest child while eight fit, Embree's way, which left many bottom nodes with two
//! or three children). A third as many levels as the binary tree means about a third
//! as many node tests per ray, each testing eight boxes: with AVX (found at run time
//! when the tree is built) one 8-lane kernel, the walk compiled for AVX around it;
//! otherwise on `x86_64` two 4-lane SSE halves, or the portable kernel (other
//! targets). All give the same entries and masks bit for bit (tested).
//!
//! Node boxes are `f32` whatever the mesh's scalar, so an `f64` tree's nodes take the
//! `f32` tree's four cache lines and its node tests the `f32` kernels (Embree also
//! tests `f32` boxes for every ray). The boxes hold the triangles' boxes padded by
//! [`RAY_BOX_ULPS`] of each triangle's own extent ([`ray_boxes`]). An `f32` tree's
//! boxes are those numbers and its ray is the ray's own origin with its inverse
//! direction shrunk for the near planes and grown for the far ones by
//! [`NODE_PAD_REL`], against a clip grown by as much. An `f64` tree's boxes are taken relative to the
//! mesh's centre (so a mesh far from the origin keeps tight boxes) and rounded outward
//! to `f32`, and each ray is narrowed conservatively ([`NodeFrame`]): its
//! origin relative to the centre rounded toward each plane's safe side, its direction
//! scaled by a power of two, its inverse direction shrunk for the near planes and
//! grown for the far ones by [`NODE_PAD_REL`], and a ray from far away started where it
//! enters the mesh's bounds. So an `f64` node test never misses a box the exact ray
//! meets; it may keep a box that rounding would have culled, which costs a leaf test,
//! not an answer. Rays and meshes beyond [`NARROW_LIMIT`] walk every leaf.
//!
//! **The node test never culls a crossing the kernel reports, from any distance.** A
//! test that keeps every box the exact ray meets is not enough: the kernel's decision
//! is exact for its *rounded* sheared corners, and a crossing it reports at `t_k` on a
//! triangle `T` puts the exact ray's point `R(t_P)` (module `ray`) inside `T`'s box
//! grown on each lateral axis `a` of the shear by `ξ_a ≤ 3.5ε·|d_a|·t_P + 4.5ε·ext(T)`
//! (first order; `ε` the mesh scalar's, `ext` the triangle's extent), and on the ray's
//! dominant axis not at all; and `t_k ≥ t_P − 4.5ε·t_P − 136ε·ext(T)/|d|∞` (the
//! interpolation's weights carry `2γ₂` of their products' magnitudes, at most
//! [`SLIVER_CANCELLATION`](super::ray::SLIVER_CANCELLATION) times their sum). The first
//! term of `ξ` grows with the origin's distance: an `f32` ray from 50 icosahedron radii
//! aimed at a vertex missed the box of the triangle the kernel gave the vertex to by
//! 4.3e-6, past the 2e-6 of the 16 ulps of the mesh's size the boxes were padded by,
//! and slipped through the surface. A slab grown by `c·ε·|d_a|·t` on each side is the
//! slab entered and left at `(plane − o) / (d_a·(1 ± cε))`, a relative change of the
//! inverse direction, so:
//! - the growing part lies within the widening by [`NODE_PAD_REL`] = `2^-20`. In an
//!   `f32` tree (`ε = 2^-23`: `2^-20 = 8ε`) the computed `(plane − o)·inv'` carries four
//!   roundings (`inv = 1/d`, its widening, the difference, the product: at most `2ε` of
//!   it), which leaves `6ε ≥ 3.5ε(1 + O(ε))` for the kernel: a near plane's positive
//!   `t` is at most the grown slab's, a far plane's at least (a non-positive near `t`
//!   never counts, the entry starts at 0; a negative far `t` means the ray leaves the
//!   slab faster than it grows and misses it too; a zero component's `+∞` keeps the
//!   exact test, which is right: its shear factor is an exact zero and `ξ_a ≤ ε·ext`).
//!   In an `f64` tree the narrowing widens by as much against an `f64` kernel
//!   (`3.5·2^-52`), and adds the kernel's error at the far start's distance to the
//!   start's directed rounding ([`FAR_KERNEL_ULPS`]), which that widening, relative to
//!   the travel beyond the start, does not hold;
//! - the constant parts lie within the boxes' padding, [`RAY_BOX_ULPS`] = `2^8` epsilons
//!   of the triangle's extent on every side: `4.5ε·ext` puts `R(t_P)` inside the padded
//!   box with more than `136ε·ext` to spare on every side, so the ray is inside it from
//!   `max(0, t_P − 136ε·ext/|d|∞)` on, at or before `t_k` (less its `4.5ε` relative part);
//! - the clip of a best hit at `t` grows by [`NODE_PAD_REL`] of `t` (`f32`; `8ε` of it in
//!   `f64`), which holds that relative part;
//! - a sliver's `t` (`careful_t`) lies at or after the entry into `T`'s box grown by the
//!   kernel's bound computed from its corners (`SHEAR_ERROR_ULPS`, plus `BOX_ULPS` of
//!   `f64` rounding): at most `4.4ε·|d_a|·t + 4.4ε·ext(T)`, which the same widening and
//!   padding contain.
//!
//! So every box holding a crossing at `t_k` is entered within the clip of every best hit
//! at or beyond `t_k`, from any origin, and the walk finds the least `(t, triangle)` of
//! all the kernel's crossings whatever its order (tested against every triangle's own
//! cast from 1 to 1e6 mesh radii). Measured (callgrind, the `f32` bunny's rays of
//! `bench-peers/embree`): closest hit 950 → 959 instructions a ray, its batch
//! 930 → 947, any hit 817 → 729 (its walk was restructured at the same time).
use super::ray::{ShearedRay, Triangles4};
use super::ray_build::{self, BinaryTree, Kind};
use crate::algo::slab::PreparedRay;
#[cfg(doc)]
use crate::broad::simd::ray_boxes4_mask;
use crate::broad::simd::LANES;
use crate::broad::{finite_max_t, lanes, Stack};
use crate::math::{Real, Vector};
use crate::shape::{Aabb, Ray};
use core::mem::MaybeUninit;

/// Child code bit marking a leaf (the rest is the leaf's index).
const LEAF_BIT: u32 = 1 << 31;
/// Child code of an empty slot.
const EMPTY: u32 = u32::MAX;
/// Children of a node of the ray tree.
pub(super) const WIDE: usize = 8;

/// Rows of a node's boxes (`f32` for every tree): `rows[axis]` holds the eight lower
/// bounds on `axis`, `rows[3 + axis]` the upper ones, so that a ray picks its near and
/// far plane of each axis by place ([`OctantRay`]). Empty lanes have lower bounds `+∞`,
/// upper `−∞`.
pub(super) type Rows = [[f32; WIDE]; 6];

/// An inner node: eight child boxes as [`Rows`] and their codes (a node index,
/// `LEAF_BIT | leaf` or [`EMPTY`]), on four cache lines.
#[derive(Copy, Clone, Debug)]
#[repr(C, align(64))]
struct RayNode {
    rows: Rows,
    child: [u32; WIDE],
}

/// Relative widening of every tree's node intervals: the near planes take the inverse
/// direction times `1 − NODE_PAD_REL`, the far planes times `1 + NODE_PAD_REL`, so a
/// positive entry shrinks and a positive exit grows (a negative entry never counts,
/// the entry starts at 0; a negative exit is a miss either way: directed origins keep its
/// sign). `2^-20`: eight `f32` epsilons, where `(plane − origin)·inv` takes four
/// roundings (the subtraction, the product, `inv`'s rounding and its widening's) and
/// the ray kernel's error grows by `3.5ε` of the ray's travel along each axis (module
/// docs: a slab grown by that much is a relative change of the inverse direction). For
/// an `f64` tree's narrowed rays it also covers the narrowing's own roundings; where a
/// product underflows, the origins' directed rounding (at least the least normal `f32`
/// beyond the origin, and every scaled `|inv|` at least `1 − 2^-20`) covers its error.
pub(super) const NODE_PAD_REL: f64 = 1.0 / 1_048_576.0;

/// The padding of the ray tree's boxes on every side, in epsilons of the mesh scalar
/// times each triangle's own extent (its box's largest side), beyond one step of its
/// coordinates ([`ray_boxes`]). It holds the parts of the ray kernel's error that do
/// not grow with the ray's travel (module docs): a crossing's point lies up to `4.5ε` of
/// the triangle's extent off the exact ray, and its interpolated `t` up to `136ε` of the
/// extent (over `|d|∞`) before the `t` of that point, so the boxes holding a triangle
/// are entered before any `t` the kernel reports for it. 256 leaves room for the
/// roundings; in `f32` it grows a triangle's box by 3e-5 of its size. (The shared tree's
/// padding, [`BOX_PADDING_ULPS`](super::BOX_PADDING_ULPS) of the mesh's largest
/// coordinate, is both too little for this near a small triangle and far too much for
/// a mesh far from the origin.)
pub const RAY_BOX_ULPS: f64 = 256.0;

/// The triangles' boxes as the ray tree holds them, relative to `centre` (the node
/// frame's: 0 for an `f32` tree, whose boxes are then the mesh's own numbers; the
/// middle of an `f64` mesh's bounds, where the grid of `f64` is as fine as the mesh's
/// size): each grown on every side by [`RAY_BOX_ULPS`] of its extent plus one step of
/// each coordinate (`|x|·ε`), so that rounding the grown bound, or the corner less the
/// centre, to the scalar never takes the growth back (the growth kept is at least
/// `(1 − ε)` of [`RAY_BOX_ULPS`]). (Absolute `f64` bounds would need that step at the
/// mesh's distance from the origin: a 2e-2 grid at 1e10 then had 14% more leaf tests.)
pub(super) fn ray_boxes<V: Vector>(corners: &[[V; 3]], centre: V) -> Vec<Aabb<V>> {
    let eps = V::Scalar::EPSILON;
    let ulps = V::Scalar::from_f64(RAY_BOX_ULPS);
    corners
        .iter()
        .map(|t| {
            let b = super::triangle_box(&t.map(|p| p - centre));
            let pad = V::splat((b.max - b.min).max_element() * ulps * eps);
            Aabb {
                min: b.min - (pad + b.min.abs() * eps),
                max: b.max + (pad + b.max.abs() * eps),
            }
        })
        .collect()
}

/// `2^100`: an `f64` ray is narrowed ([`NodeFrame::node_ray`]) when its start (its
/// origin, or for a ray from far away the point where it enters the mesh's bounds) lies
/// within this of the tree's centre on every axis and its scaled inverse direction is
/// within it (or infinite), and an `f64` tree only when its mesh does. Then every box
/// the ray meets is entered below `2^102` in the node tests' `t`, far inside `f32`,
/// and no product of a hit box overflows. Other rays, and every ray of a mesh larger
/// than this, walk every leaf.
pub(super) const NARROW_LIMIT: f64 = f64::from_bits((1023 + 100) << 52);

/// An `f64` ray whose origin lies farther from the mesh's centre, on some axis, than this
/// many times the mesh's largest half extent starts its node tests where it enters the
/// mesh's bounds ([`NodeFrame::start`]): an `f32` origin 1,000 km away (in metres) is
/// moved by about 10 cm and entries that far along are widened by a metre, where the
/// mesh's own size keeps both to its scale.
pub(super) const FAR_REACHES: f64 = 4.0;

/// A ray prepared for the node kernels: for each axis the origin and inverse direction
/// it takes for the near plane (`origin`, `inv_dir`) and for the far plane
/// (`origin_far`, `inv_far`), each repeated in eight lanes, and where in [`Rows`] the
/// plane it meets first (`near`) and last (`far`) lies, chosen once by the sign of the
/// inverse direction as Embree does (its `nearX`/`farX` offsets). The inverse direction is never `−∞`, so a
/// zero component (`+∞`) takes the lower bound as near, as the min/max ordering of the
/// shared kernel does, NaN (`0·∞`) included. The places are byte offsets into [`Rows`]
/// (a whole row each), which the SIMD kernels add to the node's address without
/// scaling. An `f32` tree's ray has one origin and inverse direction, its own; an `f64`
/// tree's is narrowed ([`NodeFrame::node_ray`]).
#[derive(Copy, Clone, Debug)]
pub(super) struct OctantRay {
    pub(super) origin: [[f32; WIDE]; 3],
    pub(super) origin_far: [[f32; WIDE]; 3],
    pub(super) inv_dir: [[f32; WIDE]; 3],
    pub(super) inv_far: [[f32; WIDE]; 3],
    near: [usize; 3],
    far: [usize; 3],
}

/// The size of a row of [`Rows`] in bytes.
const ROW_BYTES: usize = core::mem::size_of::<[f32; WIDE]>();

impl OctantRay {
    /// From each axis's near-plane and far-plane origins and inverse directions (the
    /// octant from the near one's sign).
    #[inline(always)]
    fn new(origin: [[f32; 3]; 2], inv_dir: [[f32; 3]; 2]) -> Self {
        let flip = |axis: usize| usize::from(inv_dir[0][axis] < 0.0) * 3;
        Self {
            origin: origin[0].map(|o| [o; WIDE]),
            origin_far: origin[1].map(|o| [o; WIDE]),
            inv_dir: inv_dir[0].map(|i| [i; WIDE]),
            inv_far: inv_dir[1].map(|i| [i; WIDE]),
            near: std::array::from_fn(|axis| (axis + flip(axis)) * ROW_BYTES),
            far: std::array::from_fn(|axis| (axis + 3 - flip(axis)) * ROW_BYTES),
        }
    }

    /// The byte offsets in [`Rows`] of the near planes: whole rows, so each row read
    /// from one lies within `Rows` (the SIMD kernels rely on it).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn near(&self) -> &[usize; 3] {
        &self.near
    }

    /// The byte offsets in [`Rows`] of the far planes (as [`near`](Self::near)).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn far(&self) -> &[usize; 3] {
        &self.far
    }

    /// The row of `rows` at byte offset `offset` (portable kernel).
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    #[inline(always)]
    fn row(rows: &Rows, offset: usize) -> &[f32; WIDE] {
        &rows[offset / ROW_BYTES]
    }
}

impl Default for OctantRay {
    /// A ray at the origin with a zero inverse direction (a placeholder to overwrite).
    fn default() -> Self {
        Self {
            origin: [[0.0; WIDE]; 3],
            origin_far: [[0.0; WIDE]; 3],
            inv_dir: [[0.0; WIDE]; 3],
            inv_far: [[0.0; WIDE]; 3],
            near: [0, 1, 2].map(|a| a * ROW_BYTES),
            far: [3, 4, 5].map(|a| a * ROW_BYTES),
        }
    }
}

/// True for the `f32` trees, whose node boxes and rays are the mesh's own numbers (a
/// constant of the type: the compiler drops the other branch).
#[inline(always)]
const fn exact_nodes<S>() -> bool {
    core::mem::size_of::<S>() == 4
}

/// An `f32` above `x` (an `f64` value) by at least the `f32` spacing there, so also
/// above the exact value `x` rounds when `x` is a difference computed in `f64` (its
/// error is far below that spacing). `x` rounded to `f32` moved up by `2^-23` of
/// itself, at least one ulp, plus the least normal `f32` (the spacing of tiny
/// values): a few instructions, no branch.
#[inline(always)]
fn f32_above(x: f64) -> f32 {
    let y = x as f32;
    y + (y.abs() * f32::EPSILON + f32::MIN_POSITIVE)
}

/// An `f32` below `x` (see [`f32_above`]).
#[inline(always)]
fn f32_below(x: f64) -> f32 {
    let y = x as f32;
    y - (y.abs() * f32::EPSILON + f32::MIN_POSITIVE)
}

/// Where a tree's `f32` node boxes lie in the mesh's coordinates: relative to `centre`
/// (zero for an `f32` tree, whose boxes are the mesh's own numbers; the middle of an
/// `f64` mesh's bounds).
#[derive(Copy, Clone, Debug)]
struct NodeFrame<S: Real> {
    centre: [S; 3],
    /// How far from the centre, on some axis, a ray's origin starts it late
    /// ([`FAR_REACHES`] times the mesh's largest half extent; `f64` trees).
    far: f64,
    /// The bounds of the triangles' corners, exact (`f64` trees): the centre plus or
    /// minus a half extent may round inside them, and a ray grazing such a plane would
    /// start late.
    bounds: [[f64; 3]; 2],
    /// False for an `f64` mesh reaching beyond [`NARROW_LIMIT`] of its centre: its rays
    /// walk every leaf.
    narrow: bool,
}

impl<S: Real> Default for NodeFrame<S> {
    fn default() -> Self {
        Self {
            centre: [S::ZERO; 3],
            far: 0.0,
            bounds: [[0.0; 3]; 2],
            narrow: true,
        }
    }
}

/// A ray as the node tests take it: its rows, and how the ray's `t` becomes theirs:
/// `(t − t_start) · t_scale`.
#[derive(Copy, Clone, Debug)]
pub(super) struct NodeRay {
    octant: OctantRay,
    /// The ray's `t` where the node tests' `t` is 0 (0 but for an `f64` ray from far
    /// away, which starts where it enters the mesh's bounds).
    t_start: f64,
    /// A power of two (1 for an `f32` tree).
    t_scale: f64,
}

/// What [`NodeFrame::node_ray`] narrows on each axis (lanes `x`, `y`, `z` and an
/// unused fourth): the ray's origin, direction and inverse direction, the mesh's
/// centre, where the node tests start (`t_start`) and the power of two that scales
/// their `t` (`t_scale`, which brings every `|inverse direction|` to at least 1, or
/// `+∞`).
pub(super) struct Narrowing {
    pub(super) origin: [f64; 4],
    pub(super) dir: [f64; 4],
    pub(super) inv: [f64; 4],
    pub(super) centre: [f64; 4],
    pub(super) t_start: f64,
    pub(super) t_scale: f64,
}

/// The growth of an `f64` ray's start on each axis, in `f64` epsilons of the ray's
/// travel `|d_a·t_start|` to it: the start's own two roundings (`2ε`) and the ray
/// kernel's error at that distance, which grows with the travel from the ray's origin,
/// not from the start (`3.5ε` for a crossing, `8.4ε` for the box `careful_t` keeps a
/// sliver's `t` in; module docs): the widening [`NODE_PAD_REL`] covers only the travel
/// beyond the start.
pub(super) const FAR_KERNEL_ULPS: f64 = 16.0;

/// The narrowed origins `[near, far]` and inverse directions `[near, far]` of the
/// three axes ([`NodeFrame::node_ray`]), or `None` when an axis lies beyond
/// [`NARROW_LIMIT`]: the portable kernel. On each axis the start `o + d·t_start` is
/// rounded twice in `f64`, and its error, with the kernel's at that distance
/// ([`FAR_KERNEL_ULPS`]), is added before the directed rounding to
/// `f32`; which rounding serves the near plane follows the sign of the scaled inverse
/// direction. Every axis is computed, then one test: straight-line code.
#[inline(always)]
pub(super) fn narrow_portable(n: &Narrowing) -> Option<[[[f32; 3]; 2]; 2]> {
    let (mut origins, mut invs) = ([[0.0; 3]; 2], [[0.0; 3]; 2]);
    let mut narrowable = true;
    for a in 0..3 {
        let scaled = n.inv[a] * n.t_scale;
        let step = n.dir[a] * n.t_start;
        let error = (n.origin[a].abs() + FAR_KERNEL_ULPS * step.abs()) * f64::EPSILON;
        let relative = n.origin[a] + step - n.centre[a];
        narrowable &= (n.inv[a].is_infinite() | (scaled.abs() <= NARROW_LIMIT))
            & (relative.abs() <= NARROW_LIMIT);
        let (up, down) = (f32_above(relative + error), f32_below(relative - error));
        (origins[0][a], origins[1][a]) = if scaled < 0.0 { (down, up) } else { (up, down) };
        invs[0][a] = (scaled * (1.0 - NODE_PAD_REL)) as f32;
        invs[1][a] = (scaled * (1.0 + NODE_PAD_REL)) as f32;
    }
    narrowable.then_some([origins, invs])
}

/// The power of two that scales an `f64` ray's node-test `t` ([`NodeFrame::node_ray`]):
/// `2^-e` for the least `|inv|` in `[2^e, 2^(e+1))`, which it brings into `[1, 2)` (the
/// largest direction component into `(1/2, 1]`); 1 when every `inv` is infinite; `None`
/// when `e` is beyond `f64`'s normal range. `inv` holds no NaN (the ray is finite), so
/// the least is found by plain comparisons, not `f64::min`.
#[inline(always)]
pub(super) fn t_scale(inv: &[f64; 3]) -> Option<f64> {
    let min = |a: f64, b: f64| if a < b { a } else { b };
    let least = min(min(inv[0].abs(), inv[1].abs()), inv[2].abs());
    if !least.is_finite() {
        return Some(1.0);
    }
    let e = ((least.to_bits() >> 52) & 0x7ff) as i64 - 1023;
    (-1022..=1022)
        .contains(&e)
        .then(|| f64::from_bits(((1023 - e) as u64) << 52))
}

impl NodeRay {
    /// The node tests' clip for the ray's `max_t`. For an `f32` tree the same number
    /// grown by [`NODE_PAD_REL`]: the kernel's `t` may lie `4.5ε` of itself below the
    /// `t` of the point the node test sees (module docs), and a box holding a crossing at
    /// exactly `max_t` has its entry computed from the ray's origin, the crossing from
    /// the triangle (a ray from 1e6 away lost its hit at `max_t` = the hit's own `t`).
    /// For an `f64` tree `(max_t − t_start)·t_scale` as the nearest `f32`, grown by `8ε`
    /// of `max_t` (that subtraction's rounding and the kernel's relative error): the
    /// narrowed entries stay below it wherever the kernel's crossings are below `max_t`,
    /// since [`NODE_PAD_REL`] exceeds the `f32` rounding. Either way at most `f32::MAX`,
    /// which every hit box's entry lies below.
    #[inline(always)]
    fn clip<S: Real>(&self, max_t: S) -> f32 {
        let max_t = max_t.to_f64();
        if exact_nodes::<S>() {
            let grown = max_t as f32 * (1.0 + NODE_PAD_REL as f32);
            return grown.min(f32::MAX);
        }
        let rounding = 8.0 * max_t.abs() * f64::EPSILON;
        (((max_t - self.t_start + rounding) * self.t_scale) as f32).min(f32::MAX)
    }
}

impl<S: Real> NodeFrame<S> {
    /// The frame of a mesh with these triangle corners.
    fn new<V: Vector<Scalar = S>>(corners: &[[V; 3]]) -> Self {
        if exact_nodes::<S>() || corners.is_empty() {
            return Self::default();
        }
        let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
        for p in corners.iter().flatten() {
            for axis in 0..3 {
                lo[axis] = lo[axis].min(p.get(axis).to_f64());
                hi[axis] = hi[axis].max(p.get(axis).to_f64());
            }
        }
        // Halves first: the sum of two huge bounds would overflow.
        // An `f64` centre: an `f32` one is up to half an `f32` step off, 512 units at
        // 1e10, which a small mesh there would add to every box.
        let centre: [f64; 3] = std::array::from_fn(|a| lo[a] / 2.0 + hi[a] / 2.0);
        let reach: [f64; 3] =
            std::array::from_fn(|a| (lo[a] - centre[a]).abs().max(hi[a] - centre[a]));
        Self {
            centre: centre.map(S::from_f64),
            far: FAR_REACHES * reach[0].max(reach[1]).max(reach[2]),
            bounds: [lo, hi],
            narrow: reach.iter().all(|r| *r <= NARROW_LIMIT),
        }
    }

    /// A box's bounds on `axis` in the node rows, from the box relative to the centre
    /// ([`ray_boxes`]): its own numbers for an `f32` tree (centred on 0); rounded
    /// outward for an `f64` one.
    #[inline]
    fn bounds(min: S, max: S) -> (f32, f32) {
        if exact_nodes::<S>() {
            return (min.to_f64() as f32, max.to_f64() as f32);
        }
        (f32_below(min.to_f64()), f32_above(max.to_f64()))
    }

    /// The centre as a vector.
    fn centre<V: Vector<Scalar = S>>(&self) -> V {
        (0..3).fold(V::ZERO, |v, a| v.with(a, self.centre[a]))
    }

    /// The ray as the node tests take it: an `f32` tree's origin as it is, its inverse
    /// direction shrunk for the near planes and grown for the far ones by
    /// [`NODE_PAD_REL`] (module docs); an `f64` tree's
    /// narrowed so that the padded `f32` test keeps every box the exact ray meets (module
    /// docs). The direction is scaled by the power of two that brings the least
    /// `|1/d|` into `[1, 2)` (its largest component into `(1/2, 1]`); on each axis the origin relative to the centre is rounded
    /// up for the plane whose `t` grows with it and down for the other (which side is
    /// which follows the inverse direction's sign; `+∞` for a zero component counts as
    /// positive, as the octant does). A ray from farther than [`FAR_REACHES`] times the
    /// mesh's bounds starts at the point where it enters them ([`Self::start`]), so
    /// that its origin, and its entries, keep the precision of the mesh's own size.
    /// `None` for a ray beyond [`NARROW_LIMIT`] (or one whose largest direction
    /// component is beyond `f64`'s normal range), which walks every leaf.
    #[inline(always)]
    fn node_ray<K: Kernels, V: Vector<Scalar = S>>(
        &self,
        ray: &Ray<V>,
        prepared: &PreparedRay<V>,
    ) -> Option<NodeRay> {
        let inv: [f64; 3] = std::array::from_fn(|a| prepared.inv_dir.get(a).to_f64());
        let origin: [f64; 3] = std::array::from_fn(|a| prepared.origin.get(a).to_f64());
        if exact_nodes::<S>() {
            let (o, inv) = (origin.map(|x| x as f32), inv.map(|x| x as f32));
            let near = inv.map(|i| i * (1.0 - NODE_PAD_REL as f32));
            let far = inv.map(|i| i * (1.0 + NODE_PAD_REL as f32));
            let octant = OctantRay::new([o, o], [near, far]);
            return Some(NodeRay {
                octant,
                t_start: 0.0,
                t_scale: 1.0,
            });
        }
        if !self.narrow {
            return None;
        }
        let t_scale = t_scale(&inv)?;
        let t_start = self.start(&origin, &inv);
        let lanes = |x: [f64; 3]| [x[0], x[1], x[2], 0.0];
        let [origins, invs] = K::narrow(&Narrowing {
            origin: lanes(origin),
            dir: lanes(std::array::from_fn(|a| ray.dir.get(a).to_f64())),
            inv: lanes(inv),
            centre: lanes(self.centre.map(Real::to_f64)),
            t_start,
            t_scale,
        })?;
        Some(NodeRay {
            octant: OctantRay::new(origins, invs),
            t_start,
            t_scale,
        })
    }

    /// Where the node tests of a ray from `origin` (inverse direction `inv`) start: 0
    /// when the origin lies within [`FAR_REACHES`] times the mesh's size or the ray's
    /// line misses its bounds; else a `t` at most the one where the ray enters the
    /// bounds of the triangles' corners (the `f64` slab test's, less `2^-40` of it for
    /// its rounding). A box may reach a little beyond those bounds (the mesh pads
    /// its boxes): the part of it the ray passes before the start holds no triangle, so
    /// no hit is lost; a box entered there is entered at 0.
    #[inline(always)]
    fn start(&self, origin: &[f64; 3], inv: &[f64; 3]) -> f64 {
        let c = self.centre.map(|x| x.to_f64());
        let near = (0..3).all(|a| (origin[a] - c[a]).abs() <= self.far);
        if near {
            return 0.0;
        }
        let ([lo, hi], (mut enter, mut exit)) = (self.bounds, (0.0_f64, f64::INFINITY));
        for a in 0..3 {
            // The exact bounds: each `t` is then off by a few `ε` of itself, which the
            // step back below covers.
            let t1 = (lo[a] - origin[a]) * inv[a];
            let t2 = (hi[a] - origin[a]) * inv[a];
            // `f64::min`/`max` skip a NaN (`0·∞`: the origin on a plane the ray runs in).
            enter = enter.max(t1.min(t2));
            exit = exit.min(t1.max(t2));
        }
        if enter <= exit && enter.is_finite() {
            enter * (1.0 - 1.0 / (1u64 << 40) as f64)
        } else {
            0.0
        }
    }
}

/// Up to four triangles: their corners side by side, their indices in the mesh, and
/// the mask of the lanes in use.
#[derive(Copy, Clone, Debug)]
#[repr(C, align(64))]
pub(crate) struct Leaf<S: Real> {
    tris: Triangles4<S>,
    pub(crate) ids: [u32; LANES],
    pub(crate) lanes: u32,
}

impl<S: Real> Leaf<S> {
    /// The kernel over the leaf's lanes (see [`ShearedRay::hit4`]), `K`'s: the walk's
    /// (a scaled ray's walk takes [`Scaled`]).
    #[inline(always)]
    pub(super) fn hit4<K: Kernels, V: Vector<Scalar = S>>(
        &self,
        ray: &ShearedRay<V>,
    ) -> ([S; LANES], u32, u32) {
        K::hit4(ray, &self.tris, self.lanes)
    }
}

/// The leaf test of a walk, a trait rather than a closure so that its body is inlined
/// into the walk compiled for AVX (a closure's body was called out of line there).
pub(super) trait LeafVisit<S: Real> {
    /// Tests `leaf` for ray `k` of the batch (0 for a single walk) clipped at `max_t`,
    /// with the walk's kernels `K` ([`Leaf::hit4`]); may return a smaller `max_t`
    /// (`−∞` ends the ray's walk).
    fn visit<K: Kernels>(&mut self, k: usize, leaf: &Leaf<S>, max_t: S) -> Option<S>;
}

impl<S: Real, L: LeafVisit<S>> LeafVisit<S> for &mut L {
    #[inline(always)]
    fn visit<K: Kernels>(&mut self, k: usize, leaf: &Leaf<S>, max_t: S) -> Option<S> {
        (**self).visit::<K>(k, leaf, max_t)
    }
}

/// The ray tree of a mesh (see the module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct RayTree<S: Real> {
    nodes: Vec<RayNode>,
    leaves: Vec<Leaf<S>>,
    frame: NodeFrame<S>,
    /// The processor has AVX: walks run `RayTree::walk_avx` and its batch twin (read
    /// on `x86_64` only).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    avx: bool,
}

impl<S: Real> RayTree<S> {
    /// The tree of the mesh whose triangles have these corners and unit normals (zero
    /// for flat ones); its boxes are the triangles' own, padded by [`RAY_BOX_ULPS`] of
    /// each triangle's extent ([`ray_boxes`]).
    pub(crate) fn new<V: Vector<Scalar = S>>(corners: &[[V; 3]], normals: &[V]) -> Self {
        let mut tree = Self {
            frame: NodeFrame::new(corners),
            ..Self::default()
        };
        let boxes = ray_boxes(corners, tree.frame.centre());
        let boxes = &boxes[..];
        #[cfg(target_arch = "x86_64")]
        {
            tree.avx = std::arch::is_x86_feature_detected!("avx");
        }
        let hit_able = (0..corners.len() as u32).filter(|&i| normals[i as usize] != V::ZERO);
        let binary = ray_build::build(boxes, hit_able.collect());
        if !binary.nodes.is_empty() {
            // Leaves hold about four triangles; about a quarter of the binary nodes
            // remain nodes.
            tree.nodes.reserve(binary.nodes.len() / 4 + 1);
            tree.leaves.reserve(binary.nodes.len() / 2 + 1);
            let plan = ray_build::WidePlan::new(&binary);
            let mut collapse = Collapse {
                binary: &binary,
                plan: &plan,
                corners,
                nodes: &mut tree.nodes,
                leaves: &mut tree.leaves,
            };
            collapse.add_node(0);
        }
        tree
    }

    /// The tree without AVX, whatever the processor has (tests of the other path).
    #[cfg(test)]
    pub(crate) fn without_avx(mut self) -> Self {
        self.avx = false;
        self
    }
}

/// The collapse of a [`BinaryTree`] into the ray tree's nodes and leaves.
struct Collapse<'a, V: Vector> {
    binary: &'a BinaryTree<V>,
    plan: &'a ray_build::WidePlan,
    corners: &'a [[V; 3]],
    nodes: &'a mut Vec<RayNode>,
    leaves: &'a mut Vec<Leaf<V::Scalar>>,
}

impl<V: Vector> Collapse<'_, V> {
    /// Adds binary node `i` as a node of up to eight children (those of the plan),
    /// then, depth first, its inner descendants; returns its index.
    fn add_node(&mut self, i: usize) -> u32 {
        let binary = self.binary;
        let mut kids = [0; WIDE];
        let n = self.plan.children(binary, i, &mut kids);
        let index = self.nodes.len();
        self.nodes.push(RayNode {
            rows: [[0.0; WIDE]; 6],
            child: [EMPTY; WIDE],
        });
        let mut rows = [[f32::INFINITY; WIDE]; 6];
        rows[3..].fill([f32::NEG_INFINITY; WIDE]);
        let mut child = [EMPTY; WIDE];
        for (lane, &k) in kids[..n].iter().enumerate() {
            let kid = &binary.nodes[k as usize];
            for axis in 0..3 {
                let (min, max) = (kid.aabb.min.get(axis), kid.aabb.max.get(axis));
                let (lo, hi) = NodeFrame::bounds(min, max);
                rows[axis][lane] = lo;
                rows[3 + axis][lane] = hi;
            }
            child[lane] = match kid.kind {
                Kind::Inner(_) => self.add_node(k as usize),
                Kind::Leaf { start, len } => self.add_leaf(start, len),
            };
        }
        self.nodes[index] = RayNode { rows, child };
        index as u32
    }

    /// Adds the leaf of triangles `items[start..start + len]`; returns its code.
    fn add_leaf(&mut self, start: u32, len: u32) -> u32 {
        let items = &self.binary.items[start as usize..(start + len) as usize];
        self.leaves.push(tree_leaf(items, self.corners));
        LEAF_BIT | (self.leaves.len() - 1) as u32
    }
}

/// The leaf of triangles `items` (at most four).
fn tree_leaf<V: Vector>(items: &[u32], corners: &[[V; 3]]) -> Leaf<V::Scalar> {
    let zero = V::Scalar::ZERO;
    let mut leaf = Leaf {
        tris: Triangles4 {
            corner: [[[zero; LANES]; 3]; 3],
        },
        ids: [0; LANES],
        lanes: 0,
    };
    for (lane, &item) in items.iter().enumerate() {
        for (c, p) in corners[item as usize].iter().enumerate() {
            for axis in 0..3 {
                leaf.tris.corner[c][axis][lane] = p.get(axis);
            }
        }
        leaf.ids[lane] = item;
        leaf.lanes |= 1 << lane;
    }
    leaf
}

/// Work on a [`RayTree`] that [`RayTree::run`] compiles with the walk's kernels `K`
/// (its walks are [`RayTree::walk_with`]`::<K, _>`).
pub(crate) trait WithKernels<S: Real> {
    /// What the job answers.
    type Output;
    /// The job, with kernels `K`.
    fn run<K: Kernels>(self, tree: &RayTree<S>) -> Self::Output;
}

/// The kernels of a walk, compiled with the features the walk was compiled for: the
/// node test and the leaf test. Passed down to the leaf test as a type, so that the
/// AVX walk calls the AVX leaf kernel directly, inlined, with no feature check.
pub(super) trait Kernels {
    /// The node test: the entry parameters of a node's eight boxes `rows` (meaningful
    /// in hit lanes) and the mask of the boxes `ray` meets within `[0, max_t]` (`max_t`
    /// finite). `PADDED` for an `f64` tree's narrowed rays: the far planes take the
    /// ray's far origins and inverse directions ([`NODE_PAD_REL`]).
    fn slab<const PADDED: bool>(ray: &OctantRay, rows: &Rows, max_t: f32) -> ([f32; WIDE], u32);

    /// The leaf test, [`ShearedRay::hit4`] of `tris`' lanes in `valid`.
    fn hit4<V: Vector>(
        ray: &ShearedRay<V>,
        tris: &Triangles4<V::Scalar>,
        valid: u32,
    ) -> ([V::Scalar; LANES], u32, u32);

    /// The narrowing of an `f64` ray's axes, [`narrow_portable`]'s.
    fn narrow(n: &Narrowing) -> Option<[[[f32; 3]; 2]; 2]>;
}

/// The kernel without run-time features: on `x86_64` two SSE halves (in that target's
/// baseline), else the portable kernel.
pub(super) struct Baseline;

impl Kernels for Baseline {
    #[inline(always)]
    fn slab<const PADDED: bool>(ray: &OctantRay, rows: &Rows, max_t: f32) -> ([f32; WIDE], u32) {
        #[cfg(target_arch = "x86_64")]
        return super::sse::slab8::<PADDED>(ray, rows, max_t);
        #[cfg(not(target_arch = "x86_64"))]
        slab8_portable::<PADDED>(ray, rows, [max_t; WIDE])
    }

    #[inline(always)]
    fn hit4<V: Vector>(
        ray: &ShearedRay<V>,
        tris: &Triangles4<V::Scalar>,
        valid: u32,
    ) -> ([V::Scalar; LANES], u32, u32) {
        ray.hit4(tris, valid)
    }

    #[inline(always)]
    fn narrow(n: &Narrowing) -> Option<[[[f32; 3]; 2]; 2]> {
        narrow_portable(n)
    }
}

/// The kernels of a scaled ray's walk (a tiny or huge mesh, module `ray`): the
/// baseline node test, and the baseline leaf test on the corners' scaled offsets
/// ([`ShearedRay::offsets4`]) with its `t` multiplied back, which gives the answers of
/// [`ShearedRay::hit`]. A walk of its own, so that the walks of unscaled rays, nearly
/// all, test no scale at their leaves (a test and a call there cost about 14
/// instructions a bunny ray, the walk's registers saved around the call).
pub(super) struct Scaled;

impl Kernels for Scaled {
    #[inline(always)]
    fn slab<const PADDED: bool>(ray: &OctantRay, rows: &Rows, max_t: f32) -> ([f32; WIDE], u32) {
        Baseline::slab::<PADDED>(ray, rows, max_t)
    }

    #[inline(always)]
    fn hit4<V: Vector>(
        ray: &ShearedRay<V>,
        tris: &Triangles4<V::Scalar>,
        valid: u32,
    ) -> ([V::Scalar; LANES], u32, u32) {
        let (mut t, hit, undecided) = ray.offsets_frame().hit4(&ray.offsets4(tris), valid);
        for t in &mut t {
            *t *= ray.unscale();
        }
        (t, hit, undecided)
    }

    #[inline(always)]
    fn narrow(n: &Narrowing) -> Option<[[[f32; 3]; 2]; 2]> {
        Baseline::narrow(n)
    }
}

/// The AVX kernels (the node test in one 8-lane register, the `f64` leaf test in one
/// 4-lane register; the `f32` leaf test is [`Baseline`]'s): used only inside
/// [`RayTree::walk_avx`] and [`RayTree::walk_batch_avx`], which run only when the tree
/// found AVX on the processor.
#[cfg(target_arch = "x86_64")]
struct Avx;

#[cfg(target_arch = "x86_64")]
impl Kernels for Avx {
    #[inline(always)]
    fn slab<const PADDED: bool>(ray: &OctantRay, rows: &Rows, max_t: f32) -> ([f32; WIDE], u32) {
        // SAFETY: `Avx` runs only in walks started when the processor has AVX (its docs).
        unsafe { super::avx::slab8::<PADDED>(ray, rows, max_t) }
    }

    /// The `f64` leaf kernel in AVX, called directly: inside the AVX walks it is
    /// inlined (no call, no feature check per leaf); `f32` as [`Baseline`].
    #[inline(always)]
    fn hit4<V: Vector>(
        ray: &ShearedRay<V>,
        tris: &Triangles4<V::Scalar>,
        valid: u32,
    ) -> ([V::Scalar; LANES], u32, u32) {
        use core::any::Any;
        let (any_ray, any_tris) = (ray as &dyn Any, tris as &dyn Any);
        if let (Some(r), Some(t)) = (any_ray.downcast_ref(), any_tris.downcast_ref()) {
            // SAFETY: `Avx` runs only in walks started when the processor has AVX (its
            // docs).
            let (t, hit, undecided) = unsafe { super::avx::hit4_f64_inlined(r, t, valid) };
            if let Some(t) = super::ray::as_row(t) {
                return (t, hit, undecided);
            }
        }
        Baseline::hit4(ray, tris, valid)
    }

    /// The three axes in one 4-lane `f64` register.
    #[inline(always)]
    fn narrow(n: &Narrowing) -> Option<[[[f32; 3]; 2]; 2]> {
        // SAFETY: `Avx` runs only in walks started when the processor has AVX (its docs).
        unsafe { super::avx::narrow(n) }
    }
}

/// The portable node test, with `max_t` given as a row: per lane the entry parameter
/// (meaningful in hit lanes) and the mask of the boxes met within `[0, max_t]`.
///
/// Unpadded (an `f32` tree) it gives [`ray_boxes4_mask`]'s mask and, in hit lanes, its
/// entries bit for bit (the tests compare them). For a valid box the near plane of an
/// axis is the one the min/max ordering picks: rounding is monotonic, so `(lo − o)·inv
/// ≤ (hi − o)·inv` when `inv > 0` and the reverse when `inv < 0`; with `inv = +∞` the
/// lower plane is taken as near, NaN included, as there. Equal values can differ only
/// in the sign of a zero, which no comparison sees. An empty lane (lower bounds `+∞`,
/// upper `−∞`) enters at `+∞` on every axis whichever the octant, so with a finite
/// `max_t` it is missed without the validity test of the shared kernel. `PADDED` as
/// [`Kernels::slab`]. Out of line and with the clip as a
/// row, the compiler keeps every step in vector registers.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(never)]
pub(super) fn slab8_portable<const PADDED: bool>(
    ray: &OctantRay,
    rows: &Rows,
    max_t: [f32; WIDE],
) -> ([f32; WIDE], u32) {
    let mut enter = [0.0_f32; WIDE];
    let mut exit = max_t;
    for axis in 0..3 {
        let near = OctantRay::row(rows, ray.near[axis]);
        let far = OctantRay::row(rows, ray.far[axis]);
        let (o, inv) = (&ray.origin[axis], &ray.inv_dir[axis]);
        let (o_far, inv_far) = match PADDED {
            true => (&ray.origin_far[axis], &ray.inv_far[axis]),
            false => (o, inv),
        };
        for lane in 0..WIDE {
            let t_near = (near[lane] - o[lane]) * inv[lane];
            let t_far = (far[lane] - o_far[lane]) * inv_far[lane];
            // A NaN (0·∞) fails both comparisons and leaves the interval as it was.
            enter[lane] = if t_near > enter[lane] {
                t_near
            } else {
                enter[lane]
            };
            exit[lane] = if t_far < exit[lane] {
                t_far
            } else {
                exit[lane]
            };
        }
    }
    let mut hit = 0;
    for lane in 0..WIDE {
        hit |= u32::from(enter[lane] <= exit[lane]) << lane;
    }
    (enter, hit)
}

/// The state of one ray's near-first walk of a [`RayTree`]: the ray, its clip `max_t`
/// and the node tests' clip for it, the child (node or leaf code) to visit next and the
/// pending children with their entry parameters (the node tests').
pub(crate) struct TreeWalk<S: Real> {
    ray: NodeRay,
    max_t: S,
    clip: f32,
    current: u32,
    stack: Stack<Entry>,
}

/// How a walk of one ray starts ([`TreeWalk::start`]).
#[derive(Copy, Clone, PartialEq, Debug)]
pub(crate) enum Start {
    /// Through the nodes.
    Nodes,
    /// Nothing to walk: an empty tree, a non-finite ray, a NaN or negative `max_t`.
    Nothing,
    /// Leaf by leaf: a ray or mesh the node tests cannot take ([`NodeFrame::node_ray`]).
    EveryLeaf,
}

impl<S: Real> TreeWalk<S> {
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Self {
            ray: NodeRay {
                octant: OctantRay::default(),
                t_start: 0.0,
                t_scale: 1.0,
            },
            max_t: S::NEG_INFINITY,
            clip: f32::NEG_INFINITY,
            current: 0,
            stack: Stack::new(),
        }
    }

    /// Starts a walk of `ray` over `t ∈ [0, max_t]` from the root. The clip is made
    /// finite ([`finite_max_t`]), as the node kernels require.
    #[inline(always)]
    pub(crate) fn start<K: Kernels, V: Vector<Scalar = S>>(
        &mut self,
        tree: &RayTree<S>,
        ray: &Ray<V>,
        max_t: S,
    ) -> Start {
        let prepared = PreparedRay::new(ray, finite_max_t(max_t));
        self.max_t = prepared.max_t;
        self.current = 0;
        self.stack.clear();
        // `PreparedRay` made a bad ray's or clip's `max_t` −∞ (never NaN).
        if tree.nodes.is_empty() || self.max_t < S::ZERO {
            return Start::Nothing;
        }
        let Some(node_ray) = tree.frame.node_ray::<K, V>(ray, &prepared) else {
            return Start::EveryLeaf;
        };
        self.ray = node_ray;
        self.clip = node_ray.clip(self.max_t);
        Start::Nodes
    }

    /// Visits the current child and moves to the next one; false when the walk is
    /// over. `leaf.visit(k, leaf, max_t)` tests a leaf for ray `k` and may return a
    /// smaller `max_t` (`−∞` ends the walk).
    #[inline(always)]
    fn step<K: Kernels>(
        &mut self,
        tree: &RayTree<S>,
        k: usize,
        leaf: &mut impl LeafVisit<S>,
    ) -> bool {
        if self.current & LEAF_BIT != 0 {
            let test = &tree.leaves[(self.current & !LEAF_BIT) as usize];
            if let Some(max_t) = leaf.visit::<K>(k, test, self.max_t) {
                // `−∞`: an any-hit walk found one.
                if max_t < S::ZERO {
                    return false;
                }
                self.max_t = max_t;
                self.clip = self.ray.clip(max_t);
            }
        } else if let Some(next) = descend::<K, S>(
            tree,
            &self.ray.octant,
            self.current,
            self.clip,
            &mut self.stack,
        ) {
            self.current = next;
            return true;
        }
        match pop(&mut self.stack, self.clip) {
            Some(next) => {
                self.current = next;
                true
            }
            None => false,
        }
    }

    /// Reads a word of each cache line of the current child (a node's four, a leaf's
    /// three for `f32`) so that its next step finds it in cache (see
    /// [`RayTree::walk_batch`]).
    #[inline(always)]
    fn touch(&self, tree: &RayTree<S>) {
        if self.current & LEAF_BIT != 0 {
            let leaf = &tree.leaves[(self.current & !LEAF_BIT) as usize];
            let c = &leaf.tris.corner;
            core::hint::black_box((c[0][0][0], c[1][1][0], leaf.ids[0]));
        } else {
            let node = &tree.nodes[self.current as usize];
            let r = &node.rows;
            core::hint::black_box((r[0][0], r[2][0], r[4][0], node.child[0]));
        }
    }
}

/// A pending child of a walk: the bits of its entry parameter (a node test's, never
/// negative) above its code, so that entries order as their parameters (non-negative
/// `f32`s order as their bits; ties by code) and sort and move as one word.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Entry(u64);

impl Entry {
    /// Child `code` entered at `t_enter` (`+0` or more).
    #[inline(always)]
    fn new(code: u32, t_enter: f32) -> Self {
        Self((u64::from(t_enter.to_bits()) << 32) | u64::from(code))
    }

    /// The child's code (a node index or `LEAF_BIT | leaf`).
    #[inline(always)]
    fn code(self) -> u32 {
        self.0 as u32
    }

    /// The child is entered within the node tests' clip `clip`.
    #[inline(always)]
    fn within(self, clip: f32) -> bool {
        f32::from_bits((self.0 >> 32) as u32) <= clip
    }
}

/// The pending children of a walk, newest last.
trait Pending {
    /// Adds an entry.
    fn push(&mut self, entry: Entry);
    /// Takes the newest entry off.
    fn pop(&mut self) -> Option<Entry>;
}

impl Pending for Stack<Entry> {
    #[inline(always)]
    fn push(&mut self, entry: Entry) {
        Stack::push(self, entry);
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<Entry> {
        Stack::pop(self)
    }
}

/// Entries a single-ray walk holds inline ([`LocalStack`]): a walk pushes at most seven
/// a level, so six levels of eight-wide nodes fit whatever the order.
const LOCAL_INLINE: usize = 48;

/// A single-ray walk's stack as references to three separate locals, so that only the
/// spill buffer's address reaches the (out of line) growth call and the length can stay
/// in a register (as one struct, every push and pop stored the length to memory).
///
/// The inline entries are left uninitialised, as [`Stack`]'s are: entries `..len`
/// (at most [`LOCAL_INLINE`]) were written by `push`, the others are never read
/// (zeroing them took twelve stores a ray).
struct LocalStack<'a> {
    inline: &'a mut [MaybeUninit<Entry>; LOCAL_INLINE],
    len: &'a mut usize,
    spill: &'a mut Vec<Entry>,
}

impl Pending for LocalStack<'_> {
    #[inline(always)]
    fn push(&mut self, entry: Entry) {
        match self.inline.get_mut(*self.len) {
            Some(slot) => *slot = MaybeUninit::new(entry),
            None => self.spill.push(entry),
        }
        *self.len += 1;
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<Entry> {
        *self.len = self.len.checked_sub(1)?;
        match self.inline.get(*self.len) {
            // SAFETY: `len` was above this index, so `push` wrote the entry: it is the
            // only writer, and `len` grows only there, one entry at a time, after the
            // write.
            Some(slot) => Some(unsafe { slot.assume_init() }),
            None => self.spill.pop(),
        }
    }
}

/// One step of the near-first order at inner node `index`: tests its boxes against
/// the node tests' clip `clip`, pushes the hit children but the nearest, farthest
/// first, with their entry parameters, and returns the nearest (`None` when no box is
/// hit). Children are ordered by [`Entry`]: by entry parameter, ties by code.
#[inline(always)]
fn descend<K: Kernels, S: Real>(
    tree: &RayTree<S>,
    ray: &OctantRay,
    index: u32,
    clip: f32,
    stack: &mut impl Pending,
) -> Option<u32> {
    let node = &tree.nodes[index as usize];
    // Every tree's rays are widened (`NODE_PAD_REL`): the far planes take their own rows.
    let (t, hit) = K::slab::<true>(ray, &node.rows, clip);
    let first = hit.trailing_zeros() as usize;
    let rest = hit & hit.wrapping_sub(1);
    if rest == 0 {
        // At most one child hit: nothing to order.
        return (hit != 0).then(|| node.child[first]);
    }
    let entry = |lane: usize| Entry::new(node.child[lane], t[lane]);
    let (a, b) = (entry(first), entry(rest.trailing_zeros() as usize));
    let (near, far) = (a.min(b), a.max(b));
    let others = rest & rest.wrapping_sub(1);
    if others == 0 {
        tree.prefetch(far.code());
        stack.push(far);
        return Some(near.code());
    }
    let mut sorted = [Entry::default(); WIDE];
    (sorted[0], sorted[1]) = (near, far);
    let mut n = 2;
    for lane in lanes(others) {
        let entry = entry(lane);
        let mut j = n;
        while j > 0 && entry < sorted[j - 1] {
            sorted[j] = sorted[j - 1];
            j -= 1;
        }
        sorted[j] = entry;
        n += 1;
    }
    // Every hit lane's entry is within the clip.
    for &entry in sorted[1..n].iter().rev() {
        tree.prefetch(entry.code());
        stack.push(entry);
    }
    Some(sorted[0].code())
}

/// The nearest pending child that still starts within the clip, taken off the stack;
/// `None` when none is left.
#[inline(always)]
fn pop(stack: &mut impl Pending, clip: f32) -> Option<u32> {
    while let Some(entry) = stack.pop() {
        if entry.within(clip) {
            return Some(entry.code());
        }
    }
    None
}

/// Rays walked at once by [`RayTree::walk_batch`]: enough to overlap the node reads of
/// a few rays, few enough that the walks' states stay in the first-level cache.
const IN_FLIGHT: usize = 8;

/// The tree size (nodes and leaves, in bytes) from which [`RayTree::walk_batch`]
/// interleaves its rays: a megabyte, the second-level cache of a core of current
/// server and desktop processors (Zen 4, recent Intel cores: 1 to 2 MB). The `f64`
/// bunny's tree (0.54 MB: 440 nodes, 1,335 leaves, when its nodes were `f64`) was
/// interleaved at the former half megabyte: walked one ray at a time it takes 14% fewer
/// instructions and 4% less time (Python, one thread).
const INTERLEAVE_BYTES: usize = 1024 * 1024;

impl<S: Real> RayTree<S> {
    /// Asks the processor to load child `code` (a node or a leaf), pushed to be visited
    /// later, while the walk goes on: its first and third cache lines, whose neighbours
    /// the processor's adjacent-line prefetch brings (a node's four lines, a leaf's three).
    /// Measured: 5–10% less time a ray on the 100k-triangle soup, whose tree outgrows
    /// the second-level cache; no change on the bunny, whose tree fits it (BENCHMARKS.md,
    /// session 30). Other targets skip it.
    #[inline(always)]
    fn prefetch(&self, code: u32) {
        #[cfg(target_arch = "x86_64")]
        {
            use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let at: *const i8 = if code & LEAF_BIT != 0 {
                self.leaves
                    .as_ptr()
                    .wrapping_add((code & !LEAF_BIT) as usize)
                    .cast()
            } else {
                self.nodes.as_ptr().wrapping_add(code as usize).cast()
            };
            // SAFETY: SSE is in the `x86_64` baseline, and a prefetch reads nothing the
            // program sees (an address outside the tree is a hint the processor drops).
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(at);
                _mm_prefetch::<_MM_HINT_T0>(at.wrapping_add(128));
            }
        }
    }

    /// Runs `job` with the walk's kernels: with AVX, in one function compiled for it,
    /// `job` inlined (its set-up and answer as well as its walks: one call a query, no
    /// baseline code around the walk).
    #[inline(always)]
    pub(crate) fn run<J: WithKernels<S>>(&self, job: J) -> J::Output {
        #[cfg(target_arch = "x86_64")]
        if self.avx {
            // SAFETY: `avx` is set only when the processor has AVX.
            return unsafe { self.run_avx(job) };
        }
        job.run::<Baseline>(self)
    }

    /// Walks `ray` to the end with the processor's kernels ([`walk_with`](Self::walk_with)
    /// in a job of its own): the tests' entry.
    #[cfg(test)]
    pub(crate) fn walk<V: Vector<Scalar = S>>(
        &self,
        ray: &Ray<V>,
        max_t: S,
        leaf: impl LeafVisit<S>,
    ) {
        /// The walk as a job.
        struct Walk<'a, V: Vector, L> {
            ray: &'a Ray<V>,
            max_t: V::Scalar,
            leaf: L,
        }
        impl<V: Vector, L: LeafVisit<V::Scalar>> WithKernels<V::Scalar> for Walk<'_, V, L> {
            type Output = ();
            fn run<K: Kernels>(self, tree: &RayTree<V::Scalar>) {
                tree.walk_with::<K, V>(self.ray, self.max_t, 0, self.leaf);
            }
        }
        self.run(Walk { ray, max_t, leaf });
    }

    /// [`run`](Self::run) compiled for AVX, with its kernels.
    ///
    /// # Safety
    /// The processor must have AVX.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    unsafe fn run_avx<J: WithKernels<S>>(&self, job: J) -> J::Output {
        job.run::<Avx>(self)
    }

    /// Walks `ray` to the end with kernels `K` (in a [`WithKernels`] job, for ray `k` of
    /// a batch): `leaf.visit(k, leaf, max_t)` tests a leaf and may return a smaller
    /// `max_t` (`−∞` ends the walk), the leaf calls in the order [`TreeWalk::step`]
    /// makes them. Inner nodes are descended in a loop of their own, so that the ray's
    /// rows can stay in registers between nodes.
    #[inline(always)]
    pub(crate) fn walk_with<K: Kernels, V: Vector<Scalar = S>>(
        &self,
        ray: &Ray<V>,
        max_t: S,
        k: usize,
        mut leaf: impl LeafVisit<S>,
    ) {
        let prepared = PreparedRay::new(ray, finite_max_t(max_t));
        let mut max_t = prepared.max_t;
        // `PreparedRay` made a bad ray's or clip's `max_t` −∞ (never NaN).
        if self.nodes.is_empty() || max_t < S::ZERO {
            return;
        }
        let Some(node_ray) = self.frame.node_ray::<K, V>(ray, &prepared) else {
            return self.visit_every_leaf::<K>(k, max_t, leaf);
        };
        let (ray, mut clip) = (node_ray.octant, node_ray.clip(max_t));
        let mut current = 0;
        let (mut inline, mut len, mut spill) =
            ([MaybeUninit::uninit(); LOCAL_INLINE], 0, Vec::new());
        let mut stack = LocalStack {
            inline: &mut inline,
            len: &mut len,
            spill: &mut spill,
        };
        loop {
            while current & LEAF_BIT == 0 {
                current = match descend::<K, S>(self, &ray, current, clip, &mut stack) {
                    Some(next) => next,
                    None => match pop(&mut stack, clip) {
                        Some(next) => next,
                        None => return,
                    },
                };
            }
            let test = &self.leaves[(current & !LEAF_BIT) as usize];
            if let Some(t) = leaf.visit::<K>(k, test, max_t) {
                // `−∞`: an any-hit walk found one.
                if t < S::ZERO {
                    return;
                }
                max_t = t;
                clip = node_ray.clip(t);
            }
            current = match pop(&mut stack, clip) {
                Some(next) => next,
                None => return,
            };
        }
    }

    /// The walk of a ray the node tests cannot take ([`NodeFrame::node_ray`]): every
    /// leaf in turn, the clip shrinking with each hit (the leaves' answers do not depend
    /// on the order).
    fn visit_every_leaf<K: Kernels>(&self, k: usize, mut max_t: S, mut leaf: impl LeafVisit<S>) {
        for test in &self.leaves {
            if let Some(t) = leaf.visit::<K>(k, test, max_t) {
                if t < S::ZERO {
                    return;
                }
                max_t = t;
            }
        }
    }

    /// Walks every ray to the end, eight at a time, one step each in turn: a walk is a
    /// chain of dependent memory reads, and the next child of one ray is read ahead
    /// while the others take their steps, so the reads of several rays overlap
    /// (interleaved traversal, as in Kocberber et al., "Asynchronous memory access
    /// chaining", VLDB 2015). `leaf.visit(k, leaf, max_t)` tests a leaf for `rays[k]`; each
    /// ray's own calls come in the order [`walk_with`](Self::walk_with) makes them.
    pub(crate) fn walk_batch<V: Vector<Scalar = S>>(
        &self,
        rays: &[Ray<V>],
        max_t: S,
        leaf: impl LeafVisit<S>,
    ) {
        #[cfg(target_arch = "x86_64")]
        if self.avx {
            // SAFETY: `avx` is set only when the processor has AVX.
            return unsafe { self.walk_batch_avx(rays, max_t, leaf) };
        }
        self.walk_batch_with::<Baseline, V>(rays, max_t, leaf);
    }

    /// [`walk_batch`](Self::walk_batch) compiled for AVX, with its kernels.
    ///
    /// # Safety
    /// The processor must have AVX.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    unsafe fn walk_batch_avx<V: Vector<Scalar = S>>(
        &self,
        rays: &[Ray<V>],
        max_t: S,
        leaf: impl LeafVisit<S>,
    ) {
        self.walk_batch_with::<Avx, V>(rays, max_t, leaf);
    }

    /// The tree is larger than the second-level cache ([`INTERLEAVE_BYTES`]), so a
    /// batch is best walked interleaved ([`walk_batch`](Self::walk_batch)). A smaller
    /// tree's reads hit the cache, and its batches are best cast one ray at a time:
    /// interleaving would only add its bookkeeping (15% slower on the 3,674-triangle
    /// `f32` bunny, 4% on the `f64` one).
    pub(crate) fn interleaves(&self) -> bool {
        let bytes = self.nodes.len() * core::mem::size_of::<RayNode>()
            + self.leaves.len() * core::mem::size_of::<Leaf<S>>();
        bytes >= INTERLEAVE_BYTES
    }

    /// [`walk_batch`](Self::walk_batch) with kernels `K`: each ray's leaf calls are
    /// those of [`walk_with`](Self::walk_with).
    #[inline(always)]
    fn walk_batch_with<K: Kernels, V: Vector<Scalar = S>>(
        &self,
        rays: &[Ray<V>],
        max_t: S,
        mut leaf: impl LeafVisit<S>,
    ) {
        let mut queue = Queue {
            rays,
            max_t,
            next: 0,
            every_leaf: Vec::new(),
        };
        let mut flight: Vec<(usize, TreeWalk<S>)> = Vec::with_capacity(IN_FLIGHT);
        while flight.len() < IN_FLIGHT {
            let mut walk = TreeWalk::new();
            let Some(k) = queue.start::<K>(self, &mut walk) else {
                break;
            };
            flight.push((k, walk));
        }
        let mut i = 0;
        while !flight.is_empty() {
            i = if i >= flight.len() { 0 } else { i };
            let (k, walk) = &mut flight[i];
            let ray = *k;
            if walk.step::<K>(self, ray, &mut leaf) {
                walk.touch(self);
                i += 1;
            } else if let Some(next) = queue.start::<K>(self, walk) {
                *k = next;
            } else {
                flight.swap_remove(i);
            }
        }
        for (k, max_t) in queue.every_leaf {
            self.visit_every_leaf::<K>(k, max_t, &mut leaf);
        }
    }
}

/// The rays of an interleaved batch ([`RayTree::walk_batch`]) not yet started, and
/// those the node tests cannot take, walked leaf by leaf after the others. A type
/// rather than a closure: its start is inlined into the walk compiled for AVX, where a
/// closure's body was called out of line (and the AVX kernels in it with it).
struct Queue<'a, V: Vector> {
    rays: &'a [Ray<V>],
    max_t: V::Scalar,
    next: usize,
    every_leaf: Vec<(usize, V::Scalar)>,
}

impl<V: Vector> Queue<'_, V> {
    /// Starts `walk` on the next ray the node tests take, and returns its index.
    #[inline(always)]
    fn start<K: Kernels>(
        &mut self,
        tree: &RayTree<V::Scalar>,
        walk: &mut TreeWalk<V::Scalar>,
    ) -> Option<usize> {
        while let Some(ray) = self.rays.get(self.next) {
            let k = self.next;
            self.next += 1;
            match walk.start::<K, V>(tree, ray, self.max_t) {
                Start::Nodes => return Some(k),
                Start::Nothing => {}
                Start::EveryLeaf => self.every_leaf.push((k, walk.max_t)),
            }
        }
        None
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::broad::simd::{ray_boxes4_mask_rows, Boxes4, SoaRay};
    use glam::{DVec3, Vec3};

    // The single-ray walk's stack pops what a `Vec` would while its length wanders past
    // the inline part and back: no entry is read before it was written.
    #[test]
    fn local_stack_pops_as_a_vec() {
        let (mut inline, mut len, mut spill) =
            ([MaybeUninit::uninit(); LOCAL_INLINE], 0, Vec::new());
        let mut stack = LocalStack {
            inline: &mut inline,
            len: &mut len,
            spill: &mut spill,
        };
        let (mut model, mut state, mut deepest) = (Vec::new(), 5_u64, 0);
        for step in 0..20_000_u64 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            if (state >> 60) < if model.len() < 70 { 9 } else { 7 } {
                stack.push(Entry(state ^ step));
                model.push(Entry(state ^ step));
                deepest = deepest.max(model.len());
            } else {
                assert_eq!(stack.pop(), model.pop(), "step {step}");
            }
        }
        assert!(deepest > LOCAL_INLINE, "never spilled: {deepest} deep");
        while let Some(entry) = model.pop() {
            assert_eq!(stack.pop(), Some(entry));
        }
        assert_eq!(stack.pop(), None);
    }

    /// The node ray of `prepared`'s own numbers, unwidened (the kernels' exact form,
    /// which must match the shared min/max kernel).
    pub(in super::super) fn exact_octant(prepared: &PreparedRay<Vec3>) -> OctantRay {
        let o = prepared.origin.to_array();
        let inv = prepared.inv_dir.to_array();
        OctantRay::new([o, o], [inv, inv])
    }

    /// An `f32` tree's node ray for `ray`, `prepared`, with its clip for `max_t`.
    pub(in super::super) fn widened_octant(
        ray: &Ray<Vec3>,
        prepared: &PreparedRay<Vec3>,
    ) -> (OctantRay, f32) {
        let frame = NodeFrame::<f32>::default();
        let node_ray = frame
            .node_ray::<Baseline, _>(ray, prepared)
            .expect("f32 rays are never refused");
        (node_ray.octant, node_ray.clip(prepared.max_t))
    }

    /// An `f64` tree's node rows for `boxes` (`None` for an empty lane), its frame
    /// centred on them as a mesh of those boxes would be, and `ray` narrowed for it
    /// with its clip and the ray's `t` at the node tests' 0 and their `t` scale (`None`
    /// when the ray is refused).
    #[allow(clippy::type_complexity)]
    pub(in super::super) fn narrowed(
        boxes: &[Option<Aabb<DVec3>>; WIDE],
        ray: &Ray<DVec3>,
        max_t: f64,
    ) -> (Rows, Option<(OctantRay, f32, f64, f64)>) {
        let corners: Vec<[DVec3; 3]> = boxes
            .iter()
            .flatten()
            .map(|b| [b.min, b.max, b.min])
            .collect();
        let frame = NodeFrame::<f64>::new(&corners);
        let mut rows = [[f32::INFINITY; WIDE]; 6];
        rows[3..].fill([f32::NEG_INFINITY; WIDE]);
        for (lane, b) in boxes.iter().enumerate() {
            for axis in (0..3).filter(|_| b.is_some()) {
                let b = b.expect("filtered");
                let c = frame.centre[axis];
                (rows[axis][lane], rows[3 + axis][lane]) =
                    NodeFrame::<f64>::bounds(b.min[axis] - c, b.max[axis] - c);
            }
        }
        let prepared = PreparedRay::new(ray, finite_max_t(max_t));
        let node_ray = frame
            .node_ray::<Baseline, _>(ray, &prepared)
            .map(|r| (r.octant, r.clip(prepared.max_t), r.t_start, r.t_scale));
        (rows, node_ray)
    }

    /// Seeded grid coordinates: rays through box corners and along faces, zero
    /// direction components and origins on slab planes are common.
    fn coord(state: &mut u64) -> f64 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let k = (*state >> 33) % 41;
        (k as f64 - 20.0) / 4.0
    }

    // The portable node kernel of an `f32` tree (the non-x86 path) gives the shared
    // min/max kernel's mask and, in hit lanes, its entries bit for bit.
    #[test]
    fn octant_kernel_matches_shared_f32() {
        let mut state = 3;
        let mut hits = 0;
        for case in 0..20_000 {
            let mut p = || {
                Vec3::new(
                    coord(&mut state) as f32,
                    coord(&mut state) as f32,
                    coord(&mut state) as f32,
                )
            };
            let mut boxes = [Boxes4::<f32>::EMPTY; 2];
            let mut rows = [[f32::INFINITY; WIDE]; 6];
            rows[3..].fill([f32::NEG_INFINITY; WIDE]);
            for lane in [0, 1, 2, 4, 5, 7] {
                let (a, b) = (p(), p());
                let aabb = Aabb {
                    min: a.min(b),
                    max: a.max(b),
                };
                boxes[lane / 4].set(lane % 4, &aabb);
                for axis in 0..3 {
                    rows[axis][lane] = aabb.min[axis];
                    rows[3 + axis][lane] = aabb.max[axis];
                }
            }
            let mut dir = p();
            if case % 3 == 0 {
                dir[case % 9 / 3] = if case % 2 == 0 { 0.0 } else { -0.0 };
            }
            let ray = Ray { origin: p(), dir };
            let max_t = finite_max_t([f32::INFINITY, 2.0, 0.0][case % 3]);
            let prepared = PreparedRay::new(&ray, max_t);
            let octant = exact_octant(&prepared);
            let (t, hit) = slab8_portable::<false>(&octant, &rows, [max_t; WIDE]);
            let soa = SoaRay::new(&prepared);
            for half in 0..2 {
                let (want_t, want_hit) =
                    ray_boxes4_mask_rows(&soa, &boxes[half], 3, [max_t; LANES]);
                assert_eq!((hit >> (4 * half)) & 15, want_hit, "case {case}");
                for lane in (0..LANES).filter(|l| want_hit & (1 << l) != 0) {
                    let got = t[4 * half + lane];
                    assert_eq!(got.to_bits(), want_t[lane].to_bits(), "case {case}");
                }
            }
            // The walks' widened node ray keeps every box the exact test keeps.
            let (widened, clip) = widened_octant(&ray, &prepared);
            let (_, kept) = slab8_portable::<true>(&widened, &rows, [clip; WIDE]);
            assert_eq!(kept & hit, hit, "case {case}");
            hits += hit.count_ones();
        }
        assert!(hits > 2_000, "{hits} hits");
    }

    /// An adversarial `f64` node case: eight grid boxes (two empty) scaled by `scale`
    /// (and by a third in odd cases, off the `f32` grid) and moved by `offset`, and a
    /// ray from a grid point aimed at a corner, an edge point or a face point of one of
    /// them (touching it exactly, to rounding) or along a grid direction, with zero or
    /// tiny (`1e-25`) components in some cases.
    fn adversarial_case(
        state: &mut u64,
        case: usize,
        scale: f64,
        offset: DVec3,
    ) -> ([Option<Aabb<DVec3>>; WIDE], Ray<DVec3>) {
        let k = scale * if case % 2 == 0 { 1.0 } else { 1.0 / 3.0 };
        let mut p = || DVec3::new(coord(state), coord(state), coord(state));
        let mut boxes = [None; WIDE];
        for lane in [0, 1, 3, 4, 6, 7] {
            let (a, b) = (p() * k + offset, p() * k + offset);
            boxes[lane] = Some(Aabb {
                min: a.min(b),
                max: a.max(b),
            });
        }
        // A fifth of the rays from far away (1e4 times the boxes' spread).
        let far = if case % 5 == 0 { 1e4 } else { 3.0 };
        let origin = p() * k * far + offset;
        let aim = boxes[[0, 1, 3, 4, 6, 7][case % 6]].expect("a box lane");
        let (lo, hi) = (aim.min, aim.max);
        let mut dir = match case % 4 {
            0 => lo - origin,
            1 => DVec3::new(lo.x, hi.y, (lo.z + hi.z) / 2.0) - origin,
            2 => DVec3::new(hi.x, (lo.y + hi.y) / 2.0, (lo.z + hi.z) / 2.0) - origin,
            _ => p() * k,
        };
        match case % 7 {
            0 => dir[case % 3] = 0.0,
            1 => dir[case % 3] = dir.abs().max_element() * 1e-25,
            _ => {}
        }
        (boxes, Ray { origin, dir })
    }

    // The padded node test of an `f64` tree keeps every box the exact `f64` slab test
    // meets, with an entry at most the exact one (in the node tests' `t`), on boxes and
    // rays at scales 1e-20 to 1e20, far from the origin (1e7 of their size) or not, rays
    // touching box corners, edges and faces exactly, zero and tiny direction
    // components, and clips at infinity, at the exact entry of a box and at 0; and it
    // keeps few boxes the exact test culls.
    #[test]
    fn narrowed_node_test_keeps_every_box_the_exact_ray_meets() {
        let mut state = 11;
        let (mut exact_hits, mut extra) = (0, 0);
        for scale in [1e-20, 1e-3, 1.0, 1e3, 1e20] {
            for offset in [DVec3::ZERO, DVec3::new(1e7, -3e6, 2e5) * scale] {
                for case in 0..4000 {
                    let (boxes, ray) = adversarial_case(&mut state, case, scale, offset);
                    let probe = PreparedRay::new(&ray, f64::MAX);
                    let entry_of = |b: &Option<Aabb<DVec3>>| b.and_then(|b| probe.interval(&b));
                    let max_t = match case % 3 {
                        0 => f64::INFINITY,
                        1 => entry_of(&boxes[0]).map_or(1.0, |(enter, _)| enter),
                        _ => 0.0,
                    };
                    let (rows, node_ray) = narrowed(&boxes, &ray, max_t);
                    let (octant, clip, t_start, t_scale) =
                        node_ray.expect("within the narrowing limit");
                    let (t, hit) = slab8_portable::<true>(&octant, &rows, [clip; WIDE]);
                    let prepared = PreparedRay::new(&ray, finite_max_t(max_t));
                    for (lane, b) in boxes.iter().enumerate() {
                        let kept = hit & (1 << lane) != 0;
                        match b.and_then(|b| prepared.interval(&b)) {
                            Some((enter, _)) => {
                                exact_hits += 1;
                                let what =
                                    format!("scale {scale} case {case} lane {lane}: {ray:?}");
                                assert!(kept, "culled: {what}");
                                let entry = (enter - t_start) * t_scale;
                                assert!(f64::from(t[lane]) <= entry, "entry: {what}");
                            }
                            None => extra += usize::from(kept),
                        }
                    }
                }
            }
        }
        assert!(exact_hits > 20_000, "{exact_hits} boxes met");
        assert!(
            extra * 20 < exact_hits,
            "{extra} boxes kept beyond {exact_hits}"
        );
    }

    /// A seeded soup of small triangles (some flat) as corners and unit normals.
    fn soup(n: usize) -> (Vec<[glam::Vec3; 3]>, Vec<glam::Vec3>) {
        use glam::Vec3;
        let mut state = 5;
        let mut corners = Vec::new();
        for i in 0..n {
            let c = DVec3::new(coord(&mut state), coord(&mut state), coord(&mut state)).as_vec3();
            let e = |s: &mut u64| Vec3::new(coord(s) as f32, coord(s) as f32, 1.0) * 0.05;
            let (u, v) = (e(&mut state), e(&mut state));
            let w = if i % 17 == 0 {
                u * 2.0
            } else {
                Vec3::new(v.z, v.x, v.y)
            };
            corners.push([c, c + u, c + w]);
        }
        let normals = corners
            .iter()
            .map(|[a, b, c]| (*b - *a).cross(*c - *a).normalize_or_zero())
            .collect();
        (corners, normals)
    }

    /// The ray tree of the corners.
    fn tree<V: Vector>(corners: &[[V; 3]], normals: &[V]) -> RayTree<V::Scalar> {
        RayTree::new(corners, normals)
    }

    // Past its inline entries the single walk's stack spills and still pops in LIFO
    // order, the inline entries last.
    #[test]
    fn local_stack_spills_in_order() {
        let (mut inline, mut len, mut spill) =
            ([MaybeUninit::uninit(); LOCAL_INLINE], 0, Vec::new());
        let mut stack = LocalStack {
            inline: &mut inline,
            len: &mut len,
            spill: &mut spill,
        };
        for i in 0..200u32 {
            stack.push(Entry::new(i, i as f32));
        }
        for i in (0..200u32).rev() {
            assert_eq!(stack.pop(), Some(Entry::new(i, i as f32)));
        }
        assert_eq!(stack.pop(), None);
        assert!(spill.capacity() >= 200 - LOCAL_INLINE);
    }

    // Pending entries order as their entry parameters (ties by code, whatever the
    // codes' sizes), keep their codes, and lie within a clip exactly when their
    // parameter does.
    #[test]
    fn entries_order_by_parameter() {
        let ts = [
            0.0_f32,
            f32::MIN_POSITIVE / 2.0,
            1e-30,
            0.5,
            1.0,
            3.0e38,
            f32::MAX,
        ];
        let codes = [0, 3, LEAF_BIT | 7, EMPTY - 1];
        for (&a, &b) in ts.iter().flat_map(|a| ts.iter().map(move |b| (a, b))) {
            for (&i, &j) in codes.iter().flat_map(|i| codes.iter().map(move |j| (i, j))) {
                let (x, y) = (Entry::new(i, a), Entry::new(j, b));
                assert_eq!(x < y, a < b || (a == b && i < j), "{a} {i} vs {b} {j}");
                assert_eq!(x.code(), i);
                assert_eq!(x.within(b), a <= b);
            }
        }
    }

    // Collapsing keeps every non-flat triangle in exactly one leaf and gives nodes of
    // at most eight children, most of them full.
    #[test]
    fn collapse_keeps_every_triangle_once() {
        let (corners, normals) = soup(3000);
        let tree = tree(&corners, &normals);
        let mut seen = vec![0; corners.len()];
        for leaf in &tree.leaves {
            for lane in lanes(leaf.lanes) {
                seen[leaf.ids[lane] as usize] += 1;
            }
        }
        for (i, n) in normals.iter().enumerate() {
            assert_eq!(seen[i], usize::from(*n != glam::Vec3::ZERO), "triangle {i}");
        }
        let children: usize = tree
            .nodes
            .iter()
            .map(|n| n.child.iter().filter(|&&c| c != EMPTY).count())
            .sum();
        assert_eq!(children, tree.nodes.len() - 1 + tree.leaves.len());
        // Bottom nodes hold the few leaves of their subtree; the average is 3.6.
        let nodes = tree.nodes.len();
        assert!(children > 3 * nodes, "{children} children of {nodes} nodes");
    }

    /// Records the leaves a walk visits, per ray, and shrinks `max_t` at every third
    /// one so that pruning is exercised.
    struct Record(Vec<Vec<(u32, u32)>>);

    impl<S: Real> LeafVisit<S> for Record {
        fn visit<K: Kernels>(&mut self, k: usize, leaf: &Leaf<S>, max_t: S) -> Option<S> {
            let seen = &mut self.0[k];
            seen.push((leaf.ids[0], leaf.lanes));
            (seen.len() % 3 == 0).then_some(max_t * S::from_f64(0.75))
        }
    }

    /// Asserts that `avx`'s walk and the same tree's baseline walk record the same
    /// leaves and clips for each of `rays`, one ray at a time and in batches, at each of
    /// `max_ts`; the leaves visited.
    fn assert_walks_agree<S: Real>(avx: &RayTree<S>, rays: &[Ray<S::V3>], max_ts: [S; 2]) -> usize {
        let baseline = avx.clone().without_avx();
        let mut visited = 0;
        for max_t in max_ts {
            let one = |tree: &RayTree<S>| {
                let mut record = Record(vec![Vec::new(); rays.len()]);
                for (k, ray) in rays.iter().enumerate() {
                    let mut single = Record(vec![Vec::new()]);
                    tree.walk(ray, max_t, &mut single);
                    record.0[k] = single.0.pop().unwrap_or_default();
                }
                record.0
            };
            let batch = |tree: &RayTree<S>| {
                let mut record = Record(vec![Vec::new(); rays.len()]);
                tree.walk_batch(rays, max_t, &mut record);
                record.0
            };
            let want = one(&baseline);
            visited += want.iter().map(Vec::len).sum::<usize>();
            assert_eq!(one(avx), want);
            assert_eq!(batch(avx), want);
            assert_eq!(batch(&baseline), want);
        }
        visited
    }

    /// Records, per ray, every leaf a walk visits with the walk's leaf kernel's answer
    /// (`t` bits in decided hit lanes, the hit and undecided masks) and the portable
    /// kernel's; never clips.
    struct LeafAnswers<V: Vector> {
        sheared: Vec<Option<ShearedRay<V>>>,
        seen: Vec<Vec<LeafAnswer>>,
    }

    /// A leaf's first triangle, the `t` bits of its hit lanes, its hit and undecided
    /// masks.
    type LeafAnswer = (u32, Vec<u64>, u32, u32);

    impl<V: Vector> LeafVisit<V::Scalar> for LeafAnswers<V> {
        fn visit<K: Kernels>(
            &mut self,
            k: usize,
            leaf: &Leaf<V::Scalar>,
            _: V::Scalar,
        ) -> Option<V::Scalar> {
            let ray = self.sheared[k].as_ref()?;
            let (t, hit, undecided) = leaf.hit4::<K, V>(ray);
            let (want_t, want_hit, want_undecided) = ray.hit4_portable(&leaf.tris, leaf.lanes);
            assert_eq!((hit, undecided), (want_hit, want_undecided));
            let bits: Vec<u64> = lanes(hit).map(|l| t[l].to_f64().to_bits()).collect();
            let want: Vec<u64> = lanes(hit).map(|l| want_t[l].to_f64().to_bits()).collect();
            assert_eq!(bits, want);
            self.seen[k].push((leaf.ids[0], bits, hit, undecided));
            None
        }
    }

    /// Asserts that `avx`'s walks and the same tree's baseline walks (single and batch)
    /// get the same answers from their leaf kernels, each the portable kernel's; the hit
    /// lanes seen.
    fn assert_leaf_kernels_agree<V: Vector>(avx: &RayTree<V::Scalar>, rays: &[Ray<V>]) -> u32 {
        let baseline = avx.clone().without_avx();
        let answers = |tree: &RayTree<V::Scalar>, batch: bool| {
            let mut record = LeafAnswers {
                sheared: rays.iter().map(ShearedRay::new).collect(),
                seen: vec![Vec::new(); rays.len()],
            };
            if batch {
                tree.walk_batch(rays, V::Scalar::INFINITY, &mut record);
            } else {
                for (k, ray) in rays.iter().enumerate() {
                    let mut single = LeafAnswers {
                        sheared: vec![ShearedRay::new(ray)],
                        seen: vec![Vec::new()],
                    };
                    tree.walk(ray, V::Scalar::INFINITY, &mut single);
                    record.seen[k] = single.seen.pop().unwrap_or_default();
                }
            }
            record.seen
        };
        let want = answers(&baseline, false);
        for (tree, batch) in [(avx, false), (avx, true), (&baseline, true)] {
            assert_eq!(answers(tree, batch), want, "batch {batch}");
        }
        want.iter()
            .flatten()
            .map(|(_, _, hit, _)| hit.count_ones())
            .sum()
    }

    /// The `f64` copy of an `f32` soup (exact) and its ray tree.
    #[allow(clippy::type_complexity)]
    fn tree_f64(
        corners: &[[glam::Vec3; 3]],
        normals: &[glam::Vec3],
    ) -> (Vec<[DVec3; 3]>, RayTree<f64>) {
        let corners: Vec<[DVec3; 3]> = corners.iter().map(|c| c.map(|p| p.as_dvec3())).collect();
        let normals: Vec<DVec3> = normals.iter().map(|n| n.as_dvec3()).collect();
        let tree = tree(&corners, &normals);
        (corners, tree)
    }

    // The leaf test of the walks compiled for AVX (the AVX `f64` kernel inlined where the
    // processor has AVX) and of the baseline walks give the portable kernel's answers on
    // every leaf visited, in both precisions, one ray at a time and in batches.
    #[test]
    fn avx_and_baseline_leaf_kernels_agree() {
        let (corners, normals) = soup(12_000);
        let tree32 = tree(&corners, &normals);
        let (corners64, tree64) = tree_f64(&corners, &normals);
        let mut state = 31;
        // Half the rays aimed at a triangle's centre (through its leaf).
        let rays: Vec<Ray<DVec3>> = (0..1500)
            .map(|k| {
                let mut p = || DVec3::new(coord(&mut state), coord(&mut state), coord(&mut state));
                let (o, d) = (p() * 2.0, p());
                let [a, b, c] = corners64[k * 7 % corners64.len()];
                let d = if k % 2 == 0 { (a + b + c) / 3.0 - o } else { d };
                Ray { origin: o, dir: d }
            })
            .collect();
        let rays32: Vec<Ray<glam::Vec3>> = rays
            .iter()
            .map(|r| Ray {
                origin: r.origin.as_vec3(),
                dir: r.dir.as_vec3(),
            })
            .collect();
        let hits =
            assert_leaf_kernels_agree(&tree64, &rays) + assert_leaf_kernels_agree(&tree32, &rays32);
        assert!(hits > 500, "{hits} hits");
    }

    // The walk compiled for AVX (where the processor has it) and the baseline walk visit
    // the same leaves in the same order with the same clips, one ray at a time and in
    // batches.
    #[test]
    fn avx_and_baseline_walks_agree() {
        // 3,000 triangles make a tree batches walk one ray at a time, 20,000 one they
        // interleave.
        let mut interleaved = [false; 2];
        let mut visited = 0;
        for (size, n) in [3000, 20_000].into_iter().enumerate() {
            let (corners, normals) = soup(n);
            let avx = tree(&corners, &normals);
            let bytes = avx.nodes.len() * core::mem::size_of::<RayNode>()
                + avx.leaves.len() * core::mem::size_of::<Leaf<f32>>();
            interleaved[size] = bytes >= INTERLEAVE_BYTES;
            let mut state = 9;
            let rays: Vec<Ray<glam::Vec3>> = (0..3000)
                .map(|_| {
                    let mut p =
                        || DVec3::new(coord(&mut state), coord(&mut state), coord(&mut state));
                    let (o, d) = (p() * 2.0, p());
                    Ray {
                        origin: o.as_vec3(),
                        dir: d.as_vec3(),
                    }
                })
                .collect();
            visited += assert_walks_agree(&avx, &rays, [f32::INFINITY, 2.0]);
        }
        assert_eq!(interleaved, [false, true]);
        assert!(visited > 1000, "{visited} leaves");
    }

    /// Counts the leaves each walk tests.
    struct Count(usize);

    impl<S: Real> LeafVisit<S> for Count {
        fn visit<K: Kernels>(&mut self, _: usize, _: &Leaf<S>, _: S) -> Option<S> {
            self.0 += 1;
            None
        }
    }

    // A small `f64` mesh far from the origin keeps tight node boxes: its rays test not
    // many more leaves than the same mesh and rays at the origin. A 40×40 grid 2e-2
    // wide, at the origin and moved to 1e10 + 300 on each axis (where `f64` still
    // resolves a cell to 4e-3 of its size), rays from 1e3 away. An `f32` centre, up to
    // half an `f32` step (512) off there, made the mesh look hundreds of units wide:
    // rays from 1e3 away were not started at the mesh, and their `f32` origins were
    // rounded by a tenth of a cell.
    #[test]
    fn a_small_mesh_far_away_keeps_tight_boxes() {
        let grid = |offset: f64| {
            let n = 40;
            let p = |i: usize, j: usize| {
                DVec3::new(
                    i as f64 * 5e-4,
                    j as f64 * 5e-4,
                    ((i * j) % 7) as f64 * 1e-5,
                ) + offset
            };
            let mut corners = Vec::new();
            for i in 0..n {
                for j in 0..n {
                    corners.push([p(i, j), p(i + 1, j), p(i + 1, j + 1)]);
                    corners.push([p(i, j), p(i + 1, j + 1), p(i, j + 1)]);
                }
            }
            corners
        };
        let mut counts = [0; 2];
        for (which, offset) in [0.0, 1e10 + 300.0].into_iter().enumerate() {
            let corners = grid(offset);
            let normals: Vec<DVec3> = corners
                .iter()
                .map(|[a, b, c]| (*b - *a).cross(*c - *a).normalize_or_zero())
                .collect();
            let tree = tree(&corners, &normals);
            let mut state = 41;
            for _ in 0..500 {
                let mut u = || (coord(&mut state) + 5.0) / 10.0;
                let target = DVec3::new(u() * 2e-2, u() * 2e-2, 0.0) + offset;
                let origin = target + DVec3::new(u() - 0.5, u() - 0.5, 1.0) * 1e3;
                let mut count = Count(0);
                tree.walk(
                    &Ray {
                        origin,
                        dir: target - origin,
                    },
                    f64::INFINITY,
                    &mut count,
                );
                counts[which] += count.0;
            }
        }
        assert!(counts[0] > 500, "{counts:?}");
        // The shared tree pads its boxes by 16 `f64` ulps of 1e10 (3.6e-5 a side on cells
        // of 5e-4): 20% more leaves. The `f32` centre made it 43%.
        assert!(
            counts[1] * 10 <= counts[0] * 13,
            "leaves at the origin and far: {counts:?}"
        );
    }

    // The `f64` walk compiled for AVX (AVX node kernel, where the processor has it) and
    // the baseline walk (SSE2 node kernel on x86_64) visit the same leaves in the same
    // order with the same clips, one ray at a time and in batches (interleaved: the
    // `f64` tree of 12,000 triangles is past `INTERLEAVE_BYTES`).
    #[test]
    fn avx_and_baseline_walks_agree_f64() {
        let (corners, normals) = soup(12_000);
        let avx = tree_f64(&corners, &normals).1;
        let bytes = avx.nodes.len() * core::mem::size_of::<RayNode>()
            + avx.leaves.len() * core::mem::size_of::<Leaf<f64>>();
        assert!(bytes >= INTERLEAVE_BYTES, "{bytes} bytes");
        let mut state = 21;
        let rays: Vec<Ray<DVec3>> = (0..3000)
            .map(|_| {
                let mut p = || DVec3::new(coord(&mut state), coord(&mut state), coord(&mut state));
                let (o, d) = (p() * 2.0, p());
                Ray { origin: o, dir: d }
            })
            .collect();
        let visited = assert_walks_agree(&avx, &rays, [f64::INFINITY, 2.0]);
        assert!(visited > 1000, "{visited} leaves");
    }
}
