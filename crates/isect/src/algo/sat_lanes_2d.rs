//! The separating-axis search of two small convex polygons (2 to 8 vertices each,
//! `f32`) four edges at a time in SSE lanes: the same search as
//! [`max_separation_in_frame`](super::clip_2d::max_separation_in_frame) (Box2D v3
//! `manifold.c`, `b2FindMaxSeparation`; Ericson, *Real-Time Collision Detection*,
//! 4.4), with one polygon's edge normals in the lanes and the other's vertices taken
//! one by one.
//!
//! No tolerances: every product is computed by the scalar search's own expressions
//! in the same order (SSE2 has no fused multiply-add) and every minimum by its select,
//! so the answers are the scalar ones: the same edges, ties to the lowest included,
//! and the same separations up to the sign of a zero (which minimum of `+0` and `−0`
//! is kept depends on the order the points are met in; no comparison sees it). The
//! tests compare them. A NaN separation is left to the scalar search.
//!
//! A polygon of up to four points fills one group of four lanes, of up to eight two;
//! each group is read as two pairs of points at starts clamped to the slice
//! ([`pair_starts`]), so points repeat in a polygon that does not fill its lanes: a
//! repeated point changes no minimum, and the lowest lane of the largest separation
//! is still the lowest edge. The four size classes of a pair each get straight-line
//! code (sizes vary from call to call, and a mispredicted branch costs more than a
//! group of lanes).
//!
//! Safety: the intrinsics need SSE and SSE2, which every `x86_64` processor has (the
//! target enables them by default); the only loads are the unaligned 16-byte reads
//! of two `Vec2`s of a slice (`quad`). The generic entry reinterprets a
//! `&PolygonFeatures<R::V2>` as a `&PolygonFeatures<Vec2>` only after a `TypeId` test
//! has found the two types to be one (`polygon_of`).

use core::any::{Any, TypeId};
use core::arch::x86_64::*;

use glam::Vec2;

use super::clip_2d::PolygonFeatures;
use crate::math::{Pose2, Real, Rot2};

/// Most points a polygon may have here.
pub const LANES_MAX: usize = 8;

/// Up to `4·G` 2D points in `G` groups of four lanes, read as `2·G` pairs of points
/// (see [`pair_starts`]; points repeat when there are fewer).
#[derive(Copy, Clone)]
pub(super) struct Lanes<const G: usize> {
    pub(super) x: [__m128; G],
    pub(super) y: [__m128; G],
}

impl<const G: usize> Lanes<G> {
    /// `points` (2 to `4·G` of them) in lanes, the pairs read at `starts`.
    #[inline(always)]
    pub(super) fn load(points: &[Vec2], starts: &Starts<G>) -> Self {
        let quads: [_; G] = core::array::from_fn(|g| quad(points, starts.0[g][0], starts.0[g][1]));
        Lanes {
            x: quads.map(|q| q.0),
            y: quads.map(|q| q.1),
        }
    }

    /// The points turned by `r` (the scalar `Rot2::rotate`'s expressions).
    #[inline(always)]
    fn rotated(&self, r: Rot2<f32>) -> Self {
        // SAFETY: SSE arithmetic on registers (module docs).
        unsafe {
            let (c, s) = (_mm_set1_ps(r.cos), _mm_set1_ps(r.sin));
            Lanes {
                x: core::array::from_fn(|g| {
                    _mm_sub_ps(_mm_mul_ps(c, self.x[g]), _mm_mul_ps(s, self.y[g]))
                }),
                y: core::array::from_fn(|g| {
                    _mm_add_ps(_mm_mul_ps(s, self.x[g]), _mm_mul_ps(c, self.y[g]))
                }),
            }
        }
    }

    /// The points moved by `t`.
    #[inline(always)]
    fn shifted(&self, t: Vec2) -> Self {
        // SAFETY: SSE arithmetic on registers (module docs).
        unsafe {
            let (tx, ty) = (_mm_set1_ps(t.x), _mm_set1_ps(t.y));
            Lanes {
                x: self.x.map(|x| _mm_add_ps(x, tx)),
                y: self.y.map(|y| _mm_add_ps(y, ty)),
            }
        }
    }

    /// Per lane, `self · other` (lanes paired one to one).
    #[inline(always)]
    fn dots(&self, other: &Self) -> [__m128; G] {
        // SAFETY: SSE arithmetic on registers (module docs).
        unsafe {
            core::array::from_fn(|g| {
                _mm_add_ps(
                    _mm_mul_ps(self.x[g], other.x[g]),
                    _mm_mul_ps(self.y[g], other.y[g]),
                )
            })
        }
    }

    /// Per lane of `self` (normals), the least dot product with any of `points`.
    #[inline(always)]
    fn min_dots<const H: usize>(&self, points: &Lanes<H>) -> [__m128; G] {
        // SAFETY: SSE arithmetic on registers (module docs).
        unsafe {
            let mut least = [_mm_set1_ps(f32::INFINITY); G];
            for (&px, &py) in points.x.iter().zip(&points.y) {
                self.take_min(&mut least, splat::<0x00>(px), splat::<0x00>(py));
                self.take_min(&mut least, splat::<0x55>(px), splat::<0x55>(py));
                self.take_min(&mut least, splat::<0xAA>(px), splat::<0xAA>(py));
                self.take_min(&mut least, splat::<0xFF>(px), splat::<0xFF>(py));
            }
            least
        }
    }

    /// `least` lowered, lane by lane, to `self · (x, y)`.
    #[inline(always)]
    fn take_min(&self, least: &mut [__m128; G], x: __m128, y: __m128) {
        // SAFETY: SSE arithmetic on registers (module docs).
        unsafe {
            for ((l, &nx), &ny) in least.iter_mut().zip(&self.x).zip(&self.y) {
                let d = _mm_add_ps(_mm_mul_ps(nx, x), _mm_mul_ps(ny, y));
                // `minps(d, l)` is `if d < l { d } else { l }`, the scalar select: a
                // NaN product is skipped, as there.
                *l = _mm_min_ps(d, *l);
            }
        }
    }
}

/// Where the pairs of points of a polygon start, two pairs a group: `0, 2, 4, 6`
/// clamped to `len − 2`, so that every read is in bounds, every point is in some
/// lane, and each point first appears after every lower one (lane `k` holds point
/// `start(k / 2) + k % 2`).
pub(super) struct Starts<const G: usize>([[usize; 2]; G]);

/// [`Starts`] of a polygon of `len` points (`2 ≤ len ≤ 4·G`); clamps by selects.
#[inline(always)]
pub(super) fn pair_starts<const G: usize>(len: usize) -> Starts<G> {
    let last = len - 2;
    Starts(core::array::from_fn(|g| {
        [(4 * g).min(last), (4 * g + 2).min(last)]
    }))
}

// `quad` reads two `Vec2`s as four floats.
const _: () = assert!(core::mem::size_of::<Vec2>() == 8);

/// Four points of `points` from two pairs starting at `lo` and `hi`, as x and y lanes.
#[inline(always)]
fn quad(points: &[Vec2], lo: usize, hi: usize) -> (__m128, __m128) {
    let pair = |i: usize| {
        let p = &points[i..i + 2];
        // SAFETY: `p` is two `Vec2`s, `repr(C)` pairs of `f32`: four floats in bounds.
        unsafe { _mm_loadu_ps(p.as_ptr().cast::<f32>()) }
    };
    let (a, b) = (pair(lo), pair(hi));
    // SAFETY: SSE arithmetic on registers (module docs).
    unsafe {
        (
            _mm_shuffle_ps::<0b10_00_10_00>(a, b),
            _mm_shuffle_ps::<0b11_01_11_01>(a, b),
        )
    }
}

/// Lane `IMM & 3` of `v` in every lane (`IMM` repeats the lane four times).
#[inline(always)]
fn splat<const IMM: i32>(v: __m128) -> __m128 {
    // SAFETY: SSE arithmetic on registers (module docs).
    unsafe { _mm_shuffle_ps::<IMM>(v, v) }
}

/// The largest of `seps` (one separation per lane, lanes placed by `starts`) and its
/// lowest edge; `None` when a lane is NaN.
#[inline(always)]
fn largest<const G: usize>(seps: [__m128; G], starts: &Starts<G>) -> Option<(f32, usize)> {
    // SAFETY: SSE arithmetic on registers (module docs).
    unsafe {
        let all = seps.into_iter().reduce(|a, b| _mm_max_ps(a, b))?;
        let nan = seps
            .iter()
            .fold(0, |m, &s| m | _mm_movemask_ps(_mm_cmpunord_ps(s, s)));
        if nan != 0 {
            return None;
        }
        let m = _mm_max_ps(all, _mm_shuffle_ps::<0b01_00_11_10>(all, all));
        let m = _mm_max_ps(m, _mm_shuffle_ps::<0b10_11_00_01>(m, m));
        let lanes = seps.iter().enumerate().fold(0, |l, (g, &s)| {
            l | _mm_movemask_ps(_mm_cmpeq_ps(s, m)) << (4 * g)
        });
        let lane = lanes.trailing_zeros() as usize;
        Some((
            _mm_cvtss_f32(m),
            starts.0[lane / 4][lane / 2 % 2] + lane % 2,
        ))
    }
}

/// Two polygons' separations as the scalar search's generic callers want them:
/// [`separations`] when `R` is `f32` (the type test is resolved at compile time),
/// else `None`.
#[allow(clippy::type_complexity)]
#[inline(always)]
pub fn separations_of<R: Real>(
    a: &PolygonFeatures<'_, R::V2>,
    b: &PolygonFeatures<'_, R::V2>,
    pose_ab: &Pose2<R>,
    limit: R,
) -> Option<Option<((R, usize), (R, usize))>> {
    let pose_ab = (pose_ab as &dyn Any).downcast_ref::<Pose2<f32>>()?;
    let limit = *(&limit as &dyn Any).downcast_ref::<f32>()?;
    let found = separations(polygon_of::<R>(a)?, polygon_of::<R>(b)?, pose_ab, limit)?;
    let back = |(s, i): (f32, usize)| (R::from_f64(f64::from(s)), i);
    Some(found.map(|(along_a, along_b)| (back(along_a), back(along_b))))
}

/// A polygon's features as `Vec2`s when `R` is `f32` (the same reference: the caller's
/// features stay where they are, nothing is copied).
#[inline(always)]
fn polygon_of<'p, 'a, R: Real>(p: &'p PolygonFeatures<'a, R::V2>) -> Option<&'p Polygon<'a>> {
    (TypeId::of::<R::V2>() == TypeId::of::<Vec2>()).then(|| {
        // SAFETY: the element type is `Vec2` itself (the test above), so the two
        // types are one.
        unsafe { &*(p as *const PolygonFeatures<'a, R::V2>).cast::<Polygon<'a>>() }
    })
}

/// A convex polygon's vertices and edge normals in its own frame, as `Vec2`s (the
/// clipper's own type, so that the cores' features are read where they are).
pub type Polygon<'a> = PolygonFeatures<'a, Vec2>;

impl Polygon<'_> {
    /// One group of lanes holds it (or `None`: it does not fit in two).
    #[inline(always)]
    fn one_group(&self) -> Option<bool> {
        let len = self.vertices.len();
        let fits = (2..=LANES_MAX).contains(&len) && self.normals.len() == len;
        fits.then_some(len <= 4)
    }
}

/// Both polygons' largest separations along their own edge normals with the edges that
/// give them, as `clip_2d::max_separation_in_frame` finds them with B moved into A's
/// frame by `pose_ab`: `Some(None)` when either exceeds `limit`, `None` when a polygon
/// has fewer than 2 or more than [`LANES_MAX`] points or a separation is NaN (the
/// caller's scalar search answers).
#[allow(clippy::type_complexity)]
pub fn separations(
    a: &Polygon<'_>,
    b: &Polygon<'_>,
    pose_ab: &Pose2<f32>,
    limit: f32,
) -> Option<Option<((f32, usize), (f32, usize))>> {
    match (a.one_group()?, b.one_group()?) {
        (true, true) => separations_in::<1, 1>(a, b, pose_ab, limit),
        (true, false) => separations_in::<1, 2>(a, b, pose_ab, limit),
        (false, true) => separations_in::<2, 1>(a, b, pose_ab, limit),
        (false, false) => separations_in::<2, 2>(a, b, pose_ab, limit),
    }
}

/// [`separations`] with A in `GA` groups of lanes and B in `GB`.
#[allow(clippy::type_complexity)]
#[inline(always)]
fn separations_in<const GA: usize, const GB: usize>(
    a: &Polygon<'_>,
    b: &Polygon<'_>,
    pose_ab: &Pose2<f32>,
    limit: f32,
) -> Option<Option<((f32, usize), (f32, usize))>> {
    let starts_a = pair_starts::<GA>(a.vertices.len());
    let starts_b = pair_starts::<GB>(b.vertices.len());
    let va = Lanes::load(a.vertices, &starts_a);
    let na = Lanes::load(a.normals, &starts_a);
    let turn = pose_ab.rotation;
    let vb = Lanes::load(b.vertices, &starts_b)
        .rotated(turn)
        .shifted(pose_ab.translation);
    let nb = Lanes::load(b.normals, &starts_b).rotated(turn);
    let along_a = separations_along(&na, &na.dots(&va), &vb, &starts_a)?;
    let along_b = separations_along(&nb, &nb.dots(&vb), &va, &starts_b)?;
    Some((along_a.0 <= limit && along_b.0 <= limit).then_some((along_a, along_b)))
}

/// The largest over `normals` of `min over points (n · p) − offset`, and its edge.
#[inline(always)]
fn separations_along<const G: usize, const H: usize>(
    normals: &Lanes<G>,
    offsets: &[__m128; G],
    points: &Lanes<H>,
    starts: &Starts<G>,
) -> Option<(f32, usize)> {
    let least = normals.min_dots(points);
    // SAFETY: SSE arithmetic on registers (module docs).
    let seps = unsafe { core::array::from_fn(|g| _mm_sub_ps(least[g], offsets[g])) };
    largest(seps, starts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::clip_2d::{max_separation_in_frame, placed};
    use crate::math::Isometry;
    use crate::shape::ConvexPolygon;
    use crate::test_rng::Rng;

    type Found = Option<((f32, usize), (f32, usize))>;

    /// The scalar search the lanes replace (`clip_2d::separations`' small path).
    fn scalar(a: Polygon<'_>, b: Polygon<'_>, pose_ab: &Pose2<f32>, limit: f32) -> Found {
        let (buf, len) = placed::<f32>(b.vertices, pose_ab).expect("at most 8 points");
        let b_in_a = &buf[..len];
        let along_a = max_separation_in_frame(a.vertices, a.normals, |n| n, b_in_a, limit);
        if along_a.0 > limit || along_a.0.is_nan() {
            return None;
        }
        let turn = |n| pose_ab.rotation.rotate(n);
        let along_b = max_separation_in_frame(b_in_a, b.normals, turn, a.vertices, limit);
        (along_b.0 <= limit).then_some((along_a, along_b))
    }

    /// A polygon's vertices and normals, owned by a test.
    type Owned = (Vec<Vec2>, Vec<Vec2>);

    /// The lanes' view of an owned polygon.
    fn view(p: &Owned) -> Polygon<'_> {
        Polygon {
            vertices: &p.0,
            normals: &p.1,
        }
    }

    /// Separations compared bit for bit, but for the sign of a zero (module docs).
    fn bits(found: Found) -> Option<((u32, usize), (u32, usize))> {
        let b = |s: f32| (s + 0.0).to_bits();
        found.map(|((sa, ea), (sb, eb))| ((b(sa), ea), (b(sb), eb)))
    }

    /// A convex polygon of 3 to 8 vertices (random angles on a random ellipse around
    /// a random centre), or a segment with its two opposite normals (a capsule's
    /// core), at `scale`.
    fn random_polygon(rng: &mut Rng, scale: f32) -> Owned {
        if rng.below(6) == 0 {
            let (p, q) = (random_point(rng, scale), random_point(rng, scale));
            let n = (q - p).perp().normalize_or(Vec2::Y);
            return (vec![p, q], vec![-n, n]);
        }
        loop {
            let count = 3 + rng.below(6);
            let mut angles: Vec<f32> = (0..count)
                .map(|_| rng.uniform(0.0, core::f32::consts::TAU))
                .collect();
            angles.sort_by(f32::total_cmp);
            let axes = Vec2::new(rng.uniform(0.1, 1.0), rng.uniform(0.1, 1.0)) * scale;
            let centre = random_point(rng, 0.5 * scale);
            let points: Vec<Vec2> = angles
                .iter()
                .map(|&t| centre + Vec2::from_angle(t) * axes)
                .collect();
            if let Ok(p) = ConvexPolygon::<f32>::new(&points) {
                return (p.vertices().to_vec(), p.normals().to_vec());
            }
        }
    }

    fn random_point(rng: &mut Rng, scale: f32) -> Vec2 {
        Vec2::new(rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0)) * scale
    }

    // Random polygons of every size class, from 1e-6 to 1e6, near and apart, with
    // finite and infinite limits: the lanes give the scalar search's answer bit for
    // bit.
    #[test]
    fn lanes_match_the_scalar_search() {
        let mut rng = Rng(0x5A71_A4E5);
        let mut sizes = [[0usize; LANES_MAX + 1]; 2];
        for case in 0..40_000 {
            let scale = 10f32.powi(rng.below(13) as i32 - 6);
            let (pa, pb) = (
                random_polygon(&mut rng, scale),
                random_polygon(&mut rng, scale),
            );
            let (a, b) = (view(&pa), view(&pb));
            sizes[0][pa.0.len()] += 1;
            sizes[1][pb.0.len()] += 1;
            let reach = rng.uniform(0.0, 3.0) * scale;
            let angle = rng.uniform(-3.2, 3.2);
            let pose = Pose2::new(Vec2::from_angle(angle) * reach, rng.uniform(-3.2, 3.2));
            let limit = match rng.below(3) {
                0 => f32::INFINITY,
                1 => 0.0,
                _ => rng.uniform(-0.5, 0.5) * scale,
            };
            let lanes = separations(&a, &b, &pose, limit).expect("finite input stays in lanes");
            assert_eq!(
                bits(lanes),
                bits(scalar(a, b, &pose, limit)),
                "case {case}: {pa:?} {pb:?} {pose:?} limit {limit}"
            );
        }
        // Every size from 2 to 8 was met on both sides.
        assert!(
            sizes.iter().all(|s| s[2..].iter().all(|&n| n > 100)),
            "{sizes:?}"
        );
    }

    // Axis-aligned boxes at quarter turns and whole-number offsets tie on many edges:
    // the lanes pick the scalar search's (lowest) edge.
    #[test]
    fn ties_go_to_the_lowest_edge() {
        let octagon = {
            let v: Vec<Vec2> = (0..8)
                .map(|k| Vec2::from_angle(k as f32 * core::f32::consts::FRAC_PI_4))
                .collect();
            let p = ConvexPolygon::<f32>::new(&v).expect("an octagon");
            (p.vertices().to_vec(), p.normals().to_vec())
        };
        // A unit square with a corner at its own origin: zero offsets, so zero
        // separations of either sign.
        let corner = {
            let v = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].map(|(x, y)| Vec2::new(x, y));
            (v.to_vec(), vec![Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X])
        };
        let shapes = [axis_box(1.0, 1.0), axis_box(0.5, 0.5), octagon, corner];
        let mut tied = 0;
        for pa in &shapes {
            for pb in &shapes {
                for quarter in 0..4 {
                    for (x, y) in [(0.0, 0.0), (1.0, 0.0), (1.5, 1.5), (0.0, -2.0), (3.0, 0.0)] {
                        let angle = quarter as f32 * core::f32::consts::FRAC_PI_2;
                        let pose = Pose2::new(Vec2::new(x, y), angle);
                        let (a, b) = (view(pa), view(pb));
                        let lanes = separations(&a, &b, &pose, f32::INFINITY).expect("in lanes");
                        let expected = scalar(a, b, &pose, f32::INFINITY);
                        assert_eq!(bits(lanes), bits(expected));
                        tied += (edges_at_best(a, b, &pose) > 1) as usize;
                    }
                }
            }
        }
        // Most of these poses tie two or more of A's edges.
        assert!(tied > 100, "{tied}");
    }

    /// How many of A's edges give its largest separation (the scalar expressions).
    fn edges_at_best(a: Polygon<'_>, b: Polygon<'_>, pose_ab: &Pose2<f32>) -> usize {
        let seps: Vec<f32> = a
            .vertices
            .iter()
            .zip(a.normals)
            .map(|(&v, &n)| {
                let least = b
                    .vertices
                    .iter()
                    .map(|&w| n.dot(pose_ab.transform_point(w)))
                    .fold(f32::INFINITY, f32::min);
                least - n.dot(v)
            })
            .collect();
        let best = seps.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        seps.iter().filter(|&&s| s == best).count()
    }

    // Rotations far from unit and coordinates near the top of f32 make some products
    // overflow and some differences NaN: the lanes skip a NaN product as the scalar
    // minimum does, and hand back a NaN separation; limits of ±∞ and NaN answer as
    // the scalar search does.
    #[test]
    fn overflow_and_odd_limits_answer_as_the_scalar_search() {
        let mut rng = Rng(0xDD11);
        let (mut handed_back, mut answered) = (0, 0);
        for case in 0..20_000 {
            // Shapes refuse such coordinates: unit polygons scaled by hand.
            let scale = 10f32.powi(30 + rng.below(9) as i32);
            // Boxes too: a normal's zero component times an infinite coordinate is a
            // NaN product beside finite ones.
            let huge = |rng: &mut Rng| {
                let (v, n) = match rng.below(3) {
                    0 => axis_box(rng.uniform(0.1, 1.0), rng.uniform(0.1, 1.0)),
                    _ => random_polygon(rng, 1.0),
                };
                (v.iter().map(|&p| p * scale).collect::<Vec<_>>(), n)
            };
            let (pa, pb) = (huge(&mut rng), huge(&mut rng));
            let (a, b) = (view(&pa), view(&pb));
            let stretch = 10f32.powi(rng.below(40) as i32 - 2);
            let rotation = Rot2 {
                cos: rng.uniform(-1.0, 1.0) * stretch,
                sin: rng.uniform(-1.0, 1.0) * stretch,
            };
            let translation = random_point(&mut rng, scale);
            let pose = Pose2 {
                rotation,
                translation,
            };
            let limit = [f32::INFINITY, f32::NEG_INFINITY, f32::NAN, 0.0][case % 4];
            match separations(&a, &b, &pose, limit) {
                None => handed_back += 1,
                Some(lanes) => {
                    assert_eq!(bits(lanes), bits(scalar(a, b, &pose, limit)), "case {case}");
                    answered += 1;
                }
            }
        }
        assert!(
            handed_back > 100 && answered > 1000,
            "{handed_back} {answered}"
        );
    }

    /// An axis-aligned box of half extents `hx`, `hy` around the origin.
    fn axis_box(hx: f32, hy: f32) -> Owned {
        let v = [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)].map(|(x, y)| Vec2::new(x, y));
        (v.to_vec(), vec![Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X])
    }

    // A rotation of length 1e37 turns one of the triangle's points into an infinite
    // x and a finite y; the unit normal (0, −1) then gives a NaN product beside
    // finite ones, which the minimum must skip (the review's case).
    #[test]
    fn a_nan_product_is_skipped() {
        let unit = axis_box(0.5, 0.5);
        let triangle = [
            Vec2::new(0.0, 1.0),
            Vec2::new(100.0, 0.0),
            Vec2::new(0.0, 2.0),
        ];
        let p = ConvexPolygon::<f32>::new(&triangle).expect("a triangle");
        let square = view(&unit);
        let tri = Polygon {
            vertices: p.vertices(),
            normals: p.normals(),
        };
        let pose = Pose2 {
            rotation: Rot2 {
                cos: 1e37,
                sin: 0.0,
            },
            translation: Vec2::ZERO,
        };
        let expected = scalar(square, tri, &pose, f32::INFINITY);
        assert!(expected.is_some());
        let lanes = separations(&square, &tri, &pose, f32::INFINITY);
        assert!(
            lanes.is_none_or(|l| bits(l) == bits(expected)),
            "{lanes:?} {expected:?}"
        );
    }

    // The generic entry takes the lanes for `f32` and leaves `f64` to the scalar
    // search.
    #[test]
    fn only_f32_takes_the_lanes() {
        let square = |h: f64| [(-h, -h), (h, -h), (h, h), (-h, h)];
        let v32 = square(1.0).map(|(x, y)| Vec2::new(x as f32, y as f32));
        let n32 = [Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X];
        let pose32 = Pose2::new(Vec2::new(1.5, 0.5), 0.4);
        let p32 = Polygon {
            vertices: &v32,
            normals: &n32,
        };
        let found = separations_of::<f32>(&p32, &p32, &pose32, 1.0);
        let direct = separations(&p32, &p32, &pose32, 1.0);
        assert!(found.is_some() && bits(found.unwrap()) == bits(direct.unwrap()));

        let v64 = square(1.0).map(|(x, y)| glam::DVec2::new(x, y));
        let n64 = [
            glam::DVec2::NEG_Y,
            glam::DVec2::X,
            glam::DVec2::Y,
            glam::DVec2::NEG_X,
        ];
        let pose64 = Pose2::new(glam::DVec2::new(1.5, 0.5), 0.4);
        let p64 = PolygonFeatures {
            vertices: &v64,
            normals: &n64,
        };
        assert!(separations_of::<f64>(&p64, &p64, &pose64, 1.0).is_none());
    }

    // Products that overflow give NaN separations: the lanes hand the pair back to
    // the scalar search; too many or too few points, or a normal count that differs,
    // are handed back too.
    #[test]
    fn lanes_hand_back_what_they_do_not_take() {
        let h = 3.0e38_f32;
        let v = [(-h, -h), (h, -h), (h, h), (-h, h)].map(|(x, y)| Vec2::new(x, y));
        let n = [Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X];
        let huge = Polygon {
            vertices: &v,
            normals: &n,
        };
        let far = Pose2::new(Vec2::new(h, h), 0.3);
        assert!(separations(&huge, &huge, &far, f32::INFINITY).is_none());

        let nine: Vec<Vec2> = (0..9).map(|k| Vec2::from_angle(k as f32 * 0.7)).collect();
        let big = Polygon {
            vertices: &nine,
            normals: &nine,
        };
        let small = Polygon {
            vertices: &v[..1],
            normals: &n[..1],
        };
        let uneven = Polygon {
            vertices: &v,
            normals: &n[..3],
        };
        let unit = Pose2::new(Vec2::ZERO, 0.0);
        for odd in [big, small, uneven] {
            assert!(separations(&odd, &huge, &unit, 0.0).is_none());
            assert!(separations(&huge, &odd, &unit, 0.0).is_none());
        }
    }
}
