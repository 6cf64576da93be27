//! Found by the decomposition sweep (issue 18, item 8; case seeds 0x79d2c090e8516f7c,
//! 0xb2066c1b27e6a3de, 0x40bf300cbeb9a4b6, 0x30e9d938b535afc2, 0xd156c4ed9aa62eff,
//! 0xa1feadc5ec8840d2, 0xd645f8a438e581f5, 0x477d12b7c0ee49c4, 0x19c66c9fdfe10c0a, all
//! 2D f32): needle-shaped concave polygons (a few units wide, up to 9e5 long) where
//! `contains_point` and the convex pieces disagreed about a point about 1e4 from the
//! boundary.
//!
//! The class: simple needle rings (a zigzag strip along a random direction, concave
//! on both sides) at aspect ratios from 10 to 1e6 and scales from 1e-3 to 9e5, in
//! `f32` and `f64`, offset from the origin. Every accepted polygon must answer
//! `contains_point` as an exact even-odd test over its stored rings (in `f64`, on the
//! exact coordinates), and its pieces must agree, for sample points farther from the
//! boundary than a rounding margin: random points around the needle, points beside
//! its axis at many distances, and the pieces' centroids.

use crate::rng::Rng;
use isect::math::{Real, Vector2};
use isect::shape::ConcavePolygon;

/// Margin around the boundary where answers may differ by rounding, in epsilons of
/// the coordinates' magnitude (the sweep driver's `1024 ε · scale`).
const MARGIN_ULPS: f64 = 1024.0;

/// A simple needle ring: `teeth` points along each side of the segment `a → b`,
/// half-width `w` jittered so both sides zigzag (reflex vertices on both); with no
/// teeth, the triangle `a`, `b`, `a + w n` (the sweep's cases were such triangles).
fn needle(rng: &mut Rng, a: [f64; 2], b: [f64; 2], w: f64, teeth: usize) -> Vec<[f64; 2]> {
    let (d, len) = {
        let d = [b[0] - a[0], b[1] - a[1]];
        let len = d[0].hypot(d[1]);
        ([d[0] / len, d[1] / len], len)
    };
    let n = [-d[1], d[0]];
    let at = |t: f64, off: f64| {
        [
            a[0] + d[0] * t * len + n[0] * off,
            a[1] + d[1] * t * len + n[1] * off,
        ]
    };
    if teeth == 0 {
        return vec![at(0.0, 0.0), at(1.0, 0.0), at(0.0, w)];
    }
    let mut ring = vec![at(0.0, 0.0)];
    // Right side going forward, left side coming back: a simple ring.
    for k in 1..=teeth {
        let t = k as f64 / (teeth + 1) as f64;
        ring.push(at(t, -w * rng.range(0.3, 1.0)));
    }
    ring.push(at(1.0, 0.0));
    for k in (1..=teeth).rev() {
        let t = k as f64 / (teeth + 1) as f64;
        ring.push(at(t, w * rng.range(0.3, 1.0)));
    }
    ring
}

/// Even-odd test of `p` against the rings, in `f64` (exact enough far from edges).
fn inside_exact(rings: &[Vec<[f64; 2]>], p: [f64; 2]) -> bool {
    let mut inside = false;
    for ring in rings {
        for i in 0..ring.len() {
            let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
            if (a[1] > p[1]) != (b[1] > p[1]) {
                let x = a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
                inside ^= p[0] < x;
            }
        }
    }
    inside
}

/// Distance from `p` to the rings' edges, in `f64`.
fn boundary_distance(rings: &[Vec<[f64; 2]>], p: [f64; 2]) -> f64 {
    let seg = |a: [f64; 2], b: [f64; 2]| {
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let t = (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
        (a[0] + t * dx - p[0]).hypot(a[1] + t * dy - p[1])
    };
    rings
        .iter()
        .flat_map(|r| (0..r.len()).map(move |i| seg(r[i], r[(i + 1) % r.len()])))
        .fold(f64::INFINITY, f64::min)
}

fn to_f64<V: Vector2>(v: V) -> [f64; 2] {
    [v.x().to_f64(), v.y().to_f64()]
}

fn from_f64<R: Real>(p: [f64; 2]) -> R::V2 {
    R::V2::new(R::from_f64(p[0]), R::from_f64(p[1]))
}

/// Checks one accepted polygon at the sample points; returns how many were checked.
fn check<R: Real>(poly: &ConcavePolygon<R>, samples: &[[f64; 2]], what: &str) -> usize {
    let rings: Vec<Vec<[f64; 2]>> = std::iter::once(poly.outer())
        .chain(poly.holes().iter().map(Vec::as_slice))
        .map(|r| r.iter().map(|&v| to_f64(v)).collect())
        .collect();
    let bb = poly.local_aabb();
    let scale = to_f64(bb.min)
        .into_iter()
        .chain(to_f64(bb.max))
        .fold(0.0f64, |m, c| m.max(c.abs()));
    let margin = MARGIN_ULPS * R::EPSILON.to_f64() * scale;
    let centroids = poly.pieces().iter().map(|piece| {
        let v = piece.vertices();
        let s = v.iter().fold([0.0, 0.0], |s, &q| {
            let q = to_f64(q);
            [s[0] + q[0], s[1] + q[1]]
        });
        [s[0] / v.len() as f64, s[1] / v.len() as f64]
    });
    let mut checked = 0;
    for p in samples.iter().copied().chain(centroids) {
        let q = from_f64::<R>(p);
        let p = to_f64(q);
        if boundary_distance(&rings, p) <= margin {
            continue;
        }
        let want = inside_exact(&rings, p);
        assert_eq!(poly.contains_point(q), want, "contains_point {p:?}: {what}");
        let in_pieces = poly.pieces().iter().any(|piece| piece.contains_point(q));
        assert_eq!(in_pieces, want, "pieces at {p:?}: {what}");
        checked += 1;
    }
    checked
}

/// Sample points: on the axis beyond both tips (where a sharp vertex's widened edge
/// lines meet far out), around the needle's box, and beside its axis at distances
/// from a fraction of its width to many lengths.
fn samples(rng: &mut Rng, a: [f64; 2], b: [f64; 2], w: f64) -> Vec<[f64; 2]> {
    let d = [b[0] - a[0], b[1] - a[1]];
    let len = d[0].hypot(d[1]);
    let n = [-d[1] / len, d[0] / len];
    let mut out = Vec::new();
    for k in 0..8 {
        let t = (w * 10f64.powi(k) / len).min(0.5);
        out.push([a[0] - d[0] * t, a[1] - d[1] * t]);
        out.push([b[0] + d[0] * t, b[1] + d[1] * t]);
    }
    for _ in 0..24 {
        let t = rng.range(-0.25, 1.25);
        let off = w * 10f64.powf(rng.range(-1.0, 7.0)) * if rng.below(2) == 0 { 1.0 } else { -1.0 };
        let off = off.clamp(-len, len);
        out.push([a[0] + d[0] * t + n[0] * off, a[1] + d[1] * t + n[1] * off]);
    }
    for _ in 0..8 {
        let t = rng.range(0.0, 1.0);
        let off = w * rng.range(-0.2, 0.2);
        out.push([a[0] + d[0] * t + n[0] * off, a[1] + d[1] * t + n[1] * off]);
    }
    out
}

fn sweep<R: Real>(seed: u64) {
    let mut rng = Rng(seed);
    let (mut built, mut checked, mut cases) = (0, 0, 0);
    for scale in [1e-3, 1e-1, 1.0, 1e2, 1e4, 1e5, 9e5] {
        for aspect in [1e1, 1e2, 1e3, 1e4, 1e5, 3e5, 1e6] {
            for _ in 0..12 {
                cases += 1;
                let angle = rng.range(0.0, std::f64::consts::TAU);
                let dir = [angle.cos(), angle.sin()];
                let c = [rng.range(-0.5, 0.5) * scale, rng.range(-0.5, 0.5) * scale];
                let half = scale / 2.0;
                let a = [c[0] - dir[0] * half, c[1] - dir[1] * half];
                let b = [c[0] + dir[0] * half, c[1] + dir[1] * half];
                let w = scale / aspect;
                let teeth = rng.below(6);
                let ring: Vec<R::V2> = needle(&mut rng, a, b, w, teeth)
                    .into_iter()
                    .map(from_f64::<R>)
                    .collect();
                let what = format!("scale {scale}, aspect {aspect}: {ring:?}");
                let Ok(poly) = ConcavePolygon::<R>::new(ring, Vec::new()) else {
                    continue;
                };
                built += 1;
                checked += check(&poly, &samples(&mut rng, a, b, w), &what);
            }
        }
    }
    // The class must be exercised: most needles are accepted and sampled.
    assert!(built * 2 >= cases, "{built} of {cases} needles accepted");
    assert!(
        checked >= built * 10,
        "{checked} points checked on {built} needles"
    );
}

#[test]
fn needle_polygons_f32() {
    sweep::<f32>(0x18_0008);
}

#[test]
fn needle_polygons_f64() {
    sweep::<f64>(0x18_0008);
}

/// The sweep's first case (seed 0x79d2c090e8516f7c): a triangle 900,489 long and
/// under 11 wide; the point 13,395 below its sharp tip is outside the polygon and
/// every piece (the piece accepted it: each edge line, widened by the slack 0.86,
/// passed it).
#[test]
fn sweep_needle_tip_is_outside() {
    use glam::Vec2;
    let ring = vec![
        Vec2::new(0.0, -1520.9379),
        Vec2::new(6.914_866_4, 898_967.94),
        Vec2::new(-4.0, 52_630.516),
    ];
    let poly = ConcavePolygon::<f32>::new(ring, Vec::new()).expect("a valid triangle");
    let p = Vec2::new(0.529_161_93, -14_916.249);
    assert!(!poly.contains_point(p));
    assert!(poly.pieces().iter().all(|piece| !piece.contains_point(p)));
    // Points inside stay inside: a third of the way up, on the axis.
    let q = Vec2::new(1.0, 300_000.0);
    assert!(poly.contains_point(q));
    assert!(poly.pieces().iter().any(|piece| piece.contains_point(q)));
}
