//! The support sets of [`witness_2d_placed`](super::witness::witness_2d_placed) for
//! small polygons (2 to 8 vertices, `f32`) in SSE lanes: every vertex's height along
//! `n` and its place along `n`'s tangent, four vertices at a time. The scalar loops'
//! own expressions (no fused multiply-add) and selects (`maxps`/`minps` are
//! `if a > b { a } else { b }` and its mirror, which skip a NaN as the loops do), so
//! the answers are the scalar ones up to the sign of a zero (which of `+0` and `−0`
//! a tie keeps depends on the order the vertices are met in). No tolerances of its
//! own: the caller's tolerance decides the support set.
//!
//! Vertices are loaded as the separating-axis lanes load them
//! ([`sat_lanes_2d`](super::sat_lanes_2d): pairs of points at clamped starts), so a
//! polygon of fewer than eight repeats some; a repeated vertex changes no extreme and
//! no interval.
//!
//! Safety: SSE and SSE2 are part of every `x86_64` target (the module is compiled only
//! where the target enables them); the only loads are those of `sat_lanes_2d`.

use core::arch::x86_64::*;

use glam::Vec2;

use super::sat_lanes_2d::{pair_starts, Lanes};

/// Groups of four lanes: up to eight vertices.
const GROUPS: usize = 2;

/// A polygon's vertices seen along a direction `n`: heights `n · v` and places
/// `n.perp() · v` in lanes, with the largest height and the largest coordinate
/// magnitude.
pub(super) struct SupportLanes {
    heights: [__m128; GROUPS],
    places: [__m128; GROUPS],
    /// The largest `n · v` (`−∞` when every height is NaN).
    pub top: f32,
    /// The largest `max(|x|, |y|)` over the vertices.
    pub size: f32,
}

impl SupportLanes {
    /// `vertices` along `n`; `None` for fewer than 2 or more than 8 vertices.
    #[inline(always)]
    pub fn new(vertices: &[Vec2], n: Vec2) -> Option<Self> {
        if !(2..=4 * GROUPS).contains(&vertices.len()) {
            return None;
        }
        let lanes = Lanes::<GROUPS>::load(vertices, &pair_starts::<GROUPS>(vertices.len()));
        // SAFETY: SSE arithmetic on registers (module docs).
        unsafe {
            let along = |ax: f32, ay: f32| {
                let (ax, ay) = (_mm_set1_ps(ax), _mm_set1_ps(ay));
                core::array::from_fn(|g| {
                    _mm_add_ps(_mm_mul_ps(ax, lanes.x[g]), _mm_mul_ps(ay, lanes.y[g]))
                })
            };
            let heights: [__m128; GROUPS] = along(n.x, n.y);
            let places: [__m128; GROUPS] = along(-n.y, n.x);
            let abs = _mm_castsi128_ps(_mm_set1_epi32(0x7fff_ffff));
            let (mut top, mut size) = (_mm_set1_ps(f32::NEG_INFINITY), _mm_setzero_ps());
            for ((&h, &x), &y) in heights.iter().zip(&lanes.x).zip(&lanes.y) {
                top = _mm_max_ps(h, top);
                let magnitude = _mm_max_ps(_mm_and_ps(x, abs), _mm_and_ps(y, abs));
                size = _mm_max_ps(magnitude, size);
            }
            Some(SupportLanes {
                heights,
                places,
                top: largest(top),
                size: largest(size),
            })
        }
    }

    /// The extent along `n.perp()` of the vertices with `n · v ≥ floor` (`(+∞, −∞)`
    /// for none).
    #[inline(always)]
    pub fn interval_above(&self, floor: f32) -> (f32, f32) {
        // SAFETY: SSE arithmetic on registers (module docs).
        unsafe {
            let floor = _mm_set1_ps(floor);
            let (inf, neg_inf) = (_mm_set1_ps(f32::INFINITY), _mm_set1_ps(f32::NEG_INFINITY));
            let (mut lo, mut hi) = (inf, neg_inf);
            for (&h, &p) in self.heights.iter().zip(&self.places) {
                // A NaN height fails the compare, as the scalar `>=` does.
                let kept = _mm_cmpge_ps(h, floor);
                let or_else = |other| _mm_or_ps(_mm_and_ps(kept, p), _mm_andnot_ps(kept, other));
                lo = _mm_min_ps(or_else(inf), lo);
                hi = _mm_max_ps(or_else(neg_inf), hi);
            }
            (smallest(lo), largest(hi))
        }
    }
}

/// The largest of four lanes, none NaN.
#[inline(always)]
fn largest(v: __m128) -> f32 {
    // SAFETY: SSE arithmetic on registers (module docs).
    unsafe {
        let m = _mm_max_ps(v, _mm_shuffle_ps::<0b01_00_11_10>(v, v));
        _mm_cvtss_f32(_mm_max_ps(m, _mm_shuffle_ps::<0b10_11_00_01>(m, m)))
    }
}

/// The smallest of four lanes, none NaN.
#[inline(always)]
fn smallest(v: __m128) -> f32 {
    // SAFETY: SSE arithmetic on registers (module docs).
    unsafe {
        let m = _mm_min_ps(v, _mm_shuffle_ps::<0b01_00_11_10>(v, v));
        _mm_cvtss_f32(_mm_min_ps(m, _mm_shuffle_ps::<0b10_11_00_01>(m, m)))
    }
}
