//! Issue 18 (size class): `ConcavePolygon::new` was quadratic (ear clipping, and a
//! validation sweep comparing every edge with every active one): a noisy circle of
//! 20,000 vertices took 1.0 s, 50,000 took 5.9 s, a coastline minutes. Validation is
//! now a Shamos–Hoey sweep and triangulation a monotone partition, both O(n log n)
//! (speed is measured in `benches/concave.rs`, group `concave_build`, not here).
//! This module checks that the decomposition stays right at those sizes: noisy
//! circles of 1k, 20k and 50k vertices, a star of 30k vertices with 400 holes, a
//! spiral band of 50k vertices with holes (a coastline-like ring, far from
//! star-shaped), and a large ring with many holes touching it and each other, in
//! `f32` and `f64`, on the grid frames of `concave_polygon_gis` (scales 2^-10 to
//! 2^17, offsets from the origin).

use super::concave_polygon_gis::{accept, closed, frames, noisy_circle, Case, Frame, G};
use crate::rng::Rng;

/// Three frames: tiny and offset, unit, huge and offset.
fn some_frames() -> Vec<Frame> {
    let all = frames();
    vec![all[1], all[4], all[11]]
}

/// Radius of the large rings, in grid units.
const R: f64 = 262_144.0;

fn run(what: &str, outer: &[G], holes: &[Vec<G>], hot: &[G], seed: u64) {
    let rings: Vec<Vec<G>> = std::iter::once(outer.to_vec())
        .chain(holes.iter().cloned())
        .collect();
    for frame in some_frames() {
        for f64_type in [true, false] {
            if !(f64_type || frame.fits_f32()) {
                continue;
            }
            let mut rng = Rng(seed);
            let case = Case {
                outer,
                holes,
                rings: &rings,
                hot,
            };
            accept(
                &frame,
                f64_type,
                &case,
                150,
                &mut rng,
                &format!("{what}, {frame:?}"),
            );
        }
    }
}

// Noisy circles of 1k, 20k and 50k vertices (5 % radial noise), closed GeoJSON-style.
#[test]
fn noisy_circles() {
    for n in [1000, 20_000, 50_000] {
        let mut rng = Rng(n as u64);
        let ring = noisy_circle(&mut rng, n, (0, 0), R, 0.05);
        run(&format!("noisy circle of {n}"), &closed(&ring), &[], &[], 1);
    }
}

/// Small star holes on a square lattice inside the disk of radius `0.45 R`.
fn lattice_holes(rng: &mut Rng, cells: i64, reach: f64) -> Vec<Vec<G>> {
    let cell = (2.0 * reach / cells as f64) as i64;
    let mut holes = Vec::new();
    for i in 0..cells {
        for j in 0..cells {
            let c = (
                (i * cell + cell / 2) - reach as i64,
                (j * cell + cell / 2) - reach as i64,
            );
            let d = ((c.0 * c.0 + c.1 * c.1) as f64).sqrt();
            if d + cell as f64 <= reach {
                let n = 3 + rng.below(60);
                holes.push(noisy_circle(rng, n, c, 0.4 * cell as f64, 0.6));
            }
        }
    }
    holes
}

// A star of 30k vertices (radii 0.6–1) with 400-odd star holes of 3–62 vertices.
#[test]
fn star_with_many_holes() {
    let mut rng = Rng(18);
    let outer = noisy_circle(&mut rng, 30_000, (0, 0), R, 0.4);
    let holes = lattice_holes(&mut rng, 24, 0.45 * R);
    assert!(holes.len() > 300, "{} holes", holes.len());
    run("star with holes", &outer, &holes, &[], 2);
}

/// A spiral band: the curve `r = a + bθ` out to `turns` turns and back at `r + w`,
/// `n` vertices in all (w < 2πb, so the band never meets its next turn).
fn spiral(n: usize, turns: f64) -> Vec<G> {
    let (a, b, w) = (0.05 * R, 0.12 * R / std::f64::consts::TAU, 0.06 * R);
    let m = n / 2;
    let end = turns * std::f64::consts::TAU;
    let at = |t: f64, r: f64| ((r * t.cos()).round() as i64, (r * t.sin()).round() as i64);
    let out = (0..m).map(|k| {
        let t = end * k as f64 / (m - 1) as f64;
        at(t, a + b * t + w)
    });
    let back = (0..m).rev().map(|k| {
        let t = end * k as f64 / (m - 1) as f64;
        at(t, a + b * t)
    });
    out.chain(back).collect()
}

// A spiral band of 50k vertices, 6 turns (every vertex of the inner side reflex),
// with 60 holes along the band.
#[test]
fn spiral_band_with_holes() {
    let turns = 6.0;
    let outer = spiral(50_000, turns);
    let mut rng = Rng(6);
    let (a, b, w) = (0.05 * R, 0.12 * R / std::f64::consts::TAU, 0.06 * R);
    let holes: Vec<Vec<G>> = (0..60)
        .map(|k| {
            let t = (k as f64 + 0.5) / 60.0 * turns * std::f64::consts::TAU;
            let r = a + b * t + w / 2.0;
            let c = ((r * t.cos()) as i64, (r * t.sin()) as i64);
            let k = 3 + rng.below(200);
            noisy_circle(&mut rng, k, c, w / 4.0, 0.5)
        })
        .collect();
    run("spiral band", &outer, &holes, &[], 3);
}

/// `g + d · t + perp(d) · s` on the grid.
fn along(g: G, d: G, t: f64, s: f64) -> G {
    (
        g.0 + (d.0 as f64 * t - d.1 as f64 * s).round() as i64,
        g.1 + (d.1 as f64 * t + d.0 as f64 * s).round() as i64,
    )
}

// A near circle of 20k vertices (radial noise 1e-4, so every vertex's solid angle
// is wide) with 100 thin holes whose tips are ring vertices,
// and behind each a second hole whose tip is the first hole's far corner (trees of
// touching rings), plus the lattice holes of the star test.
#[test]
fn many_touching_holes() {
    let mut rng = Rng(21);
    let n = 20_000;
    let outer = noisy_circle(&mut rng, n, (0, 0), R, 1e-4);
    let mut holes = lattice_holes(&mut rng, 12, 0.4 * R);
    let mut hot = Vec::new();
    for k in 0..100 {
        let tip = outer[k * n / 100];
        let d = (-tip.0, -tip.1);
        let first = vec![tip, along(tip, d, 0.2, 0.004), along(tip, d, 0.2, -0.004)];
        let second = vec![
            first[1],
            along(first[1], d, 0.2, 0.004),
            along(first[1], d, 0.2, -0.004),
        ];
        if k % 5 == 0 {
            hot.extend([tip, first[1]]);
        }
        holes.push(first);
        holes.push(second);
    }
    run("touching holes", &outer, &holes, &hot, 4);
}
