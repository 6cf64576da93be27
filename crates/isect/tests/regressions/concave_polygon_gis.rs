//! Issue 18 (GIS class): `ConcavePolygon::new` refused rings as GIS data writes them.
//! A ring that repeats its first vertex at the end (every GeoJSON and WKT ring) and
//! repeated consecutive vertices were refused; a hole touching the outer ring or
//! another hole at a single point (valid in OGC Simple Features) was refused with a
//! message saying the edges "cross". Now repeats are dropped, touching holes are
//! accepted and decomposed (the pieces cover exactly the polygon, none across a hole),
//! and refusals say truthfully whether edges cross, touch or overlap.
//!
//! Every case is built on an integer grid mapped to the plane by a power-of-two scale
//! (2^-10 ≈ 1e-3 up to 2^17 ≈ 1.3e5) and a grid-aligned offset from the origin, so
//! that contact points are exact in `f32` and `f64` alike; the pieces are checked
//! exactly (convexity in integers, areas in `f64` against the rings' shoelace) and by
//! point classification against brute force.

use isect::math::{Real, Vector2};
use isect::shape::{ConcavePolygon, ShapeError};

use crate::rng::Rng;

/// A grid point.
pub type G = (i64, i64);

/// The map from the grid to the plane: `(g + offset) · scale`.
#[derive(Copy, Clone, Debug)]
pub struct Frame {
    pub scale: f64,
    pub offset: G,
}

/// Scales from 2^-10 to 2^17, offsets from none to millions of grid units (coordinates
/// stay below 2^23 grid units, exact in `f32`, for rings within 2^20 of the origin).
pub fn frames() -> Vec<Frame> {
    let mut out = Vec::new();
    for e in [-10, -4, 0, 6, 12, 17] {
        for offset in [(0, 0), (3 << 20, -(5 << 19))] {
            out.push(Frame {
                scale: (e as f64).exp2(),
                offset,
            });
        }
    }
    out
}

impl Frame {
    /// True when the frame's coordinates (rings within 2^20 grid units of the origin)
    /// stay within `f32`'s `Real::MAX_COORD`; beyond it `f32` polygons are refused
    /// (`ShapeError::TooLarge`, see `huge_magnitude_kinds`) and only `f64` is tested.
    pub fn fits_f32(&self) -> bool {
        let reach = self.offset.0.abs().max(self.offset.1.abs()) + (1 << 20);
        reach as f64 * self.scale <= f64::from(<f32 as Real>::MAX_COORD)
    }

    pub fn world(&self, g: G) -> (f64, f64) {
        (
            (g.0 + self.offset.0) as f64 * self.scale,
            (g.1 + self.offset.1) as f64 * self.scale,
        )
    }

    pub fn v<R: Real>(&self, g: G) -> R::V2 {
        let (x, y) = self.world(g);
        R::V2::new(R::from_f64(x), R::from_f64(y))
    }

    pub fn ring<R: Real>(&self, ring: &[G]) -> Vec<R::V2> {
        ring.iter().map(|&g| self.v::<R>(g)).collect()
    }

    /// The grid point of a plane point (exact for points of the grid).
    pub fn grid<V: Vector2>(&self, p: V) -> G {
        let g = |c: f64, o: i64| (c / self.scale).round() as i64 - o;
        (
            g(p.x().to_f64(), self.offset.0),
            g(p.y().to_f64(), self.offset.1),
        )
    }

    pub fn build<R: Real>(
        &self,
        outer: &[G],
        holes: &[Vec<G>],
    ) -> Result<ConcavePolygon<R>, ShapeError> {
        ConcavePolygon::<R>::new(
            self.ring::<R>(outer),
            holes.iter().map(|h| self.ring::<R>(h)).collect(),
        )
    }
}

/// Twice the signed area of a grid ring, exact.
pub fn twice_area(ring: &[G]) -> i128 {
    let n = ring.len();
    (0..n)
        .map(|i| {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            a.0 as i128 * b.1 as i128 - b.0 as i128 * a.1 as i128
        })
        .sum()
}

/// Distance from `p` to the segment `ab`, in `f64`.
fn segment_distance(a: (f64, f64), b: (f64, f64), p: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0);
    let (qx, qy) = (a.0 + t * dx - p.0, a.1 + t * dy - p.1);
    (qx * qx + qy * qy).sqrt()
}

/// Brute force over every ring edge: (even-odd inside, distance to the boundary).
fn brute(rings: &[Vec<(f64, f64)>], p: (f64, f64)) -> (bool, f64) {
    let (mut inside, mut dist) = (false, f64::INFINITY);
    for r in rings {
        for i in 0..r.len() {
            let (a, b) = (r[i], r[(i + 1) % r.len()]);
            if (a.1 > p.1) != (b.1 > p.1) && p.0 < a.0 + (p.1 - a.1) / (b.1 - a.1) * (b.0 - a.0) {
                inside = !inside;
            }
            dist = dist.min(segment_distance(a, b, p));
        }
    }
    (inside, dist)
}

/// The decomposition of `poly` (built from the grid rings `rings`, outer first, in
/// `frame`) is right: pieces strictly convex (exactly, on the grid), their areas add
/// up to the rings' (exact shoelace) within `f64` rounding, the polygon's own area
/// within the scalar's rounding, and `samples` random points plus points around each
/// of `hot` (contact points) classify alike by the polygon, by its pieces and by
/// brute force, unless they are within 1e-6 of the extent, or 32 ε of the
/// coordinates, from the boundary.
/// Returns (inside, classified).
pub fn check_pieces<R: Real>(
    poly: &ConcavePolygon<R>,
    frame: &Frame,
    rings: &[Vec<G>],
    hot: &[G],
    samples: usize,
    rng: &mut Rng,
    what: &str,
) -> (usize, usize) {
    let exact = rings[0..1]
        .iter()
        .map(|r| twice_area(r).abs())
        .chain(rings[1..].iter().map(|r| -twice_area(r).abs()))
        .sum::<i128>() as f64
        / 2.0
        * frame.scale
        * frame.scale;
    let mut sum = 0.0;
    for piece in poly.pieces() {
        let g: Vec<G> = piece.vertices().iter().map(|&v| frame.grid(v)).collect();
        for (k, &v) in piece.vertices().iter().enumerate() {
            assert_eq!(frame.v::<R>(g[k]), v, "{what}: piece vertex off the grid");
        }
        let n = g.len();
        for i in 0..n {
            let (a, b, c) = (g[i], g[(i + 1) % n], g[(i + 2) % n]);
            let turn = (b.0 - a.0) as i128 * (c.1 - b.1) as i128
                - (b.1 - a.1) as i128 * (c.0 - b.0) as i128;
            assert!(turn >= 0, "{what}: reflex piece vertex {b:?}");
        }
        sum += twice_area(&g) as f64 / 2.0 * frame.scale * frame.scale;
    }
    // In `f32`, pieces too thin for `ConvexPolygon::new` are dropped (they hold no
    // area in that type's rounding; `PIECES_AREA_ULPS` allows 0.8 %).
    let f32_type = R::EPSILON.to_f64() > 1e-10;
    let lost = if f32_type { 1e-5 } else { 1e-9 };
    assert!(
        (sum - exact).abs() <= lost * exact,
        "{what}: pieces {sum} vs {exact}"
    );
    let own = if f32_type { 1e-3 } else { 1e-9 };
    assert!(
        (poly.area().to_f64() - exact).abs() <= own * exact,
        "{what}: area {} vs {exact}",
        poly.area().to_f64()
    );
    let world: Vec<Vec<(f64, f64)>> = rings
        .iter()
        .map(|r| r.iter().map(|&g| frame.world(g)).collect())
        .collect();
    let b = poly.local_aabb();
    let (lo, hi) = (
        (b.min.x().to_f64(), b.min.y().to_f64()),
        (b.max.x().to_f64(), b.max.y().to_f64()),
    );
    let extent = (hi.0 - lo.0).max(hi.1 - lo.1);
    let mut points: Vec<(f64, f64)> = (0..samples)
        .map(|_| {
            let m = 0.1 * extent;
            (rng.range(lo.0 - m, hi.0 + m), rng.range(lo.1 - m, hi.1 + m))
        })
        .collect();
    for &h in hot {
        let c = frame.world(h);
        for _ in 0..24 {
            let r = 0.02 * extent * rng.unit().powi(2);
            let a = rng.range(0.0, std::f64::consts::TAU);
            points.push((c.0 + r * a.cos(), c.1 + r * a.sin()));
        }
    }
    let (mut inside, mut total) = (0, 0);
    for p in points {
        let q = R::V2::new(R::from_f64(p.0), R::from_f64(p.1));
        let pf = (q.x().to_f64(), q.y().to_f64());
        let (brute_in, dist) = brute(&world, pf);
        // Within the boundary's on-segment tolerance (8 ε of the coordinates) the
        // polygon answers "inside" (a closed set): skip twice that and more.
        let size = pf.0.abs().max(pf.1.abs()).max(lo.0.abs().max(hi.0.abs()));
        if dist < (1e-6 * extent).max(32.0 * R::EPSILON.to_f64() * size) {
            continue;
        }
        let whole = poly.contains_point(q);
        let by_pieces = poly.pieces().iter().any(|c| c.contains_point(q));
        assert_eq!(whole, by_pieces, "{what}: {pf:?} polygon vs pieces");
        assert_eq!(whole, brute_in, "{what}: {pf:?} polygon vs brute force");
        inside += usize::from(whole);
        total += 1;
    }
    (inside, total)
}

/// A noisy circle of `n` vertices about `c`: angles in their own slots, radii in
/// `[1 − noise, 1] · r`, on the grid (star-shaped about `c`, so simple).
pub fn noisy_circle(rng: &mut Rng, n: usize, c: G, r: f64, noise: f64) -> Vec<G> {
    (0..n)
        .map(|k| {
            let a = (k as f64 + rng.range(0.2, 0.8)) / n as f64 * std::f64::consts::TAU;
            let rr = r * (1.0 - noise * rng.unit());
            (
                c.0 + (rr * a.cos()).round() as i64,
                c.1 + (rr * a.sin()).round() as i64,
            )
        })
        .collect()
}

/// The ring closed GeoJSON-style (its first vertex repeated at the end).
pub fn closed(ring: &[G]) -> Vec<G> {
    let mut out = ring.to_vec();
    out.push(ring[0]);
    out
}

/// `g + d · t + perp(d) · s` on the grid.
fn along(g: G, d: G, t: f64, s: f64) -> G {
    (
        g.0 + (d.0 as f64 * t - d.1 as f64 * s).round() as i64,
        g.1 + (d.1 as f64 * t + d.0 as f64 * s).round() as i64,
    )
}

/// A thin triangular hole with its tip at `tip`, pointing along `d` (length `t |d|`,
/// half-width `s |d|`).
fn spike_hole(tip: G, d: G, t: f64, s: f64) -> Vec<G> {
    vec![tip, along(tip, d, t, s), along(tip, d, t, -s)]
}

/// Every scalar type and frame, and a few seeds each.
fn for_all(mut f: impl FnMut(&Frame, u64, bool)) {
    for (k, frame) in frames().iter().enumerate() {
        for seed in 0..6u64 {
            let seed = seed + 100 * k as u64;
            f(frame, seed, true);
            if frame.fits_f32() {
                f(frame, seed, false);
            }
        }
    }
}

/// Rings to build (as given) and the grid rings to check against (open), with the
/// contact points to sample around.
pub struct Case<'a> {
    pub outer: &'a [G],
    pub holes: &'a [Vec<G>],
    pub rings: &'a [Vec<G>],
    pub hot: &'a [G],
}

/// Builds the case in `f64` or `f32` and checks the pieces (`samples` random points);
/// returns the stored outer ring's length.
pub fn accept(
    frame: &Frame,
    f64_type: bool,
    case: &Case,
    samples: usize,
    rng: &mut Rng,
    what: &str,
) -> usize {
    fn run<R: Real>(
        frame: &Frame,
        case: &Case,
        samples: usize,
        rng: &mut Rng,
        what: &str,
    ) -> usize {
        let poly = frame
            .build::<R>(case.outer, case.holes)
            .unwrap_or_else(|e| panic!("{what}: refused: {e}"));
        let (inside, total) = check_pieces(&poly, frame, case.rings, case.hot, samples, rng, what);
        assert!(
            inside > 0 && inside < total,
            "{what}: {inside} of {total} inside"
        );
        poly.outer().len()
    }
    if f64_type {
        run::<f64>(frame, case, samples, rng, &format!("{what} (f64)"))
    } else {
        run::<f32>(frame, case, samples, rng, &format!("{what} (f32)"))
    }
}

fn refuse(frame: &Frame, f64_type: bool, outer: &[G], holes: &[Vec<G>]) -> ShapeError {
    let r = if f64_type {
        frame.build::<f64>(outer, holes).map(|_| ())
    } else {
        frame.build::<f32>(outer, holes).map(|_| ())
    };
    r.expect_err("accepted")
}

// GeoJSON/WKT rings (first vertex repeated at the end) for the outer ring and the
// holes decompose like the open rings, and the repeat is dropped.
#[test]
fn closed_rings_are_accepted() {
    for_all(|frame, seed, f64_type| {
        let mut rng = Rng(seed);
        let n = 12 + rng.below(50);
        let outer = noisy_circle(&mut rng, n, (0, 0), 4096.0, 0.4);
        let holes: Vec<Vec<G>> = (0..1 + rng.below(3))
            .map(|h| {
                let a = h as f64 * 2.1;
                let c = ((1200.0 * a.cos()) as i64, (1200.0 * a.sin()) as i64);
                {
                    let k = 3 + rng.below(9);
                    noisy_circle(&mut rng, k, c, 500.0, 0.5)
                }
            })
            .collect();
        let rings: Vec<Vec<G>> = std::iter::once(outer.clone())
            .chain(holes.clone())
            .collect();
        let closed_holes: Vec<Vec<G>> = holes.iter().map(|h| closed(h)).collect();
        let what = format!("closed rings, seed {seed}, {frame:?}");
        let o = closed(&outer);
        let case = Case {
            outer: &o,
            holes: &closed_holes,
            rings: &rings,
            hot: &[],
        };
        let len = accept(frame, f64_type, &case, 60, &mut rng, &what);
        assert_eq!(len, outer.len(), "{what}: the closing repeat is dropped");
    });
}

// Runs of repeated consecutive vertices (also across the ring's end) are dropped.
#[test]
fn repeated_vertices_are_dropped() {
    for_all(|frame, seed, f64_type| {
        let mut rng = Rng(seed + 7);
        let n = 12 + rng.below(50);
        let outer = noisy_circle(&mut rng, n, (0, 0), 4096.0, 0.4);
        let k = 3 + rng.below(9);
        let hole = noisy_circle(&mut rng, k, (300, -200), 800.0, 0.5);
        let repeat = |rng: &mut Rng, ring: &[G]| -> Vec<G> {
            ring.iter()
                .flat_map(|&g| std::iter::repeat_n(g, 1 + rng.below(3)))
                .collect()
        };
        let (o2, h2) = (repeat(&mut rng, &outer), repeat(&mut rng, &hole));
        let rings = vec![outer.clone(), hole.clone()];
        let what = format!("repeats, seed {seed}, {frame:?}");
        let (o2, h2) = (closed(&o2), [h2]);
        let case = Case {
            outer: &o2,
            holes: &h2,
            rings: &rings,
            hot: &[],
        };
        let len = accept(frame, f64_type, &case, 60, &mut rng, &what);
        assert_eq!(len, outer.len(), "{what}");
    });
}

/// A noisy circle of even grid points (so that edge midpoints are grid points) and
/// its centre.
fn even_circle(rng: &mut Rng, n: usize, noise: f64) -> Vec<G> {
    noisy_circle(rng, n, (0, 0), 2048.0, noise)
        .into_iter()
        .map(|(x, y)| (2 * x, 2 * y))
        .collect()
}

/// Inward direction from `g` to the centre.
fn inward(g: G) -> G {
    (-g.0, -g.1)
}

// Holes whose tip is a vertex of the outer ring (two of them, either ring closed or
// not): accepted, pieces exact, points around the tips classify right.
#[test]
fn hole_touching_ring_at_a_vertex() {
    for_all(|frame, seed, f64_type| {
        let mut rng = Rng(seed + 11);
        let n = 12 + rng.below(50);
        let outer = even_circle(&mut rng, n, 0.1);
        let (i, j) = (rng.below(n), (rng.below(n / 3) + n / 3 + n) % n);
        let (i, j) = (i, (i + j) % n);
        let holes = vec![
            spike_hole(outer[i], inward(outer[i]), 0.3, 0.05),
            spike_hole(outer[j], inward(outer[j]), 0.25, 0.08),
        ];
        let rings: Vec<Vec<G>> = std::iter::once(outer.clone())
            .chain(holes.clone())
            .collect();
        let what = format!("hole at ring vertex, seed {seed}, {frame:?}");
        let o = if seed % 2 == 0 {
            closed(&outer)
        } else {
            outer.clone()
        };
        let case = Case {
            outer: &o,
            holes: &holes,
            rings: &rings,
            hot: &[outer[i], outer[j]],
        };
        accept(frame, f64_type, &case, 60, &mut rng, &what);
    });
}

// A hole whose tip lies inside an edge of the outer ring (OGC allows it): accepted,
// the tip becomes a vertex of the stored outer ring.
#[test]
fn hole_touching_ring_inside_an_edge() {
    for_all(|frame, seed, f64_type| {
        let mut rng = Rng(seed + 13);
        let n = 12 + rng.below(50);
        let outer = even_circle(&mut rng, n, 0.1);
        let i = rng.below(n);
        let (a, b) = (outer[i], outer[(i + 1) % n]);
        let m = ((a.0 + b.0) / 2, (a.1 + b.1) / 2);
        let holes = vec![spike_hole(m, inward(m), 0.3, 0.05)];
        let rings = vec![outer.clone(), holes[0].clone()];
        let what = format!("hole on ring edge, seed {seed}, {frame:?}");
        let case = Case {
            outer: &outer,
            holes: &holes,
            rings: &rings,
            hot: &[m],
        };
        let len = accept(frame, f64_type, &case, 60, &mut rng, &what);
        assert_eq!(len, n + 1, "{what}: the contact point joins the outer ring");
    });
}

// Holes touching each other at one point: two opposite, three at 120°, and a chain
// from the outer ring (hole A's tip on the ring, hole B's tip on A's far corner).
#[test]
fn holes_touching_each_other() {
    for_all(|frame, seed, f64_type| {
        let mut rng = Rng(seed + 17);
        let n = 12 + rng.below(50);
        let outer = even_circle(&mut rng, n, 0.1);
        let w = (rng.below(800) as i64 - 400, rng.below(800) as i64 - 400);
        let a = rng.range(0.0, std::f64::consts::TAU);
        let d = |k: f64| {
            let t = a + k * std::f64::consts::TAU / 3.0;
            ((900.0 * t.cos()) as i64, (900.0 * t.sin()) as i64)
        };
        let (d0, d1, d2) = (d(0.0), d(1.0), d(2.0));
        let two = vec![
            spike_hole(w, d0, 1.0, 0.2),
            spike_hole(w, (-d0.0, -d0.1), 1.0, 0.2),
        ];
        let three = vec![
            spike_hole(w, d0, 1.0, 0.3),
            spike_hole(w, d1, 1.0, 0.3),
            spike_hole(w, d2, 1.0, 0.3),
        ];
        let i = rng.below(n);
        let tip = outer[i];
        let first = spike_hole(tip, inward(tip), 0.3, 0.05);
        let chain = vec![first.clone(), spike_hole(first[1], inward(tip), 0.3, 0.05)];
        for (name, holes) in [("two", two), ("three", three), ("chain", chain)] {
            let rings: Vec<Vec<G>> = std::iter::once(outer.clone())
                .chain(holes.clone())
                .collect();
            let hot = [w, tip, first[1]];
            let what = format!("{name} touching holes, seed {seed}, {frame:?}");
            let case = Case {
                outer: &outer,
                holes: &holes,
                rings: &rings,
                hot: &hot,
            };
            accept(frame, f64_type, &case, 60, &mut rng, &what);
        }
    });
}

// Refusals say what is wrong: the message names the edges or the vertex and says
// "crosses", "touches", "overlaps", "outside", "inside another hole" or "cut in two"
// truthfully.
#[test]
fn refusals_say_touch_or_cross() {
    for_all(|frame, seed, f64_type| {
        let mut rng = Rng(seed + 19);
        let n = 16 + rng.below(40);
        let outer = even_circle(&mut rng, n, 0.0);
        let i = rng.below(n);
        let (p, q, r) = (outer[i], outer[(i + 1) % n], outer[(i + 2) % n]);
        let into = |g: G, t: f64| along(g, inward(g), t, 0.0);
        let msg = |outer: &[G], holes: &[Vec<G>]| refuse(frame, f64_type, outer, holes).to_string();
        let what = format!("seed {seed}, {frame:?}");
        // A hole touching the ring at two vertices cuts the interior in two.
        let twice = vec![p, into(q, 0.3), r];
        assert!(msg(&outer, &[twice]).contains("cut in two"), "{what}");
        // A hole touching the ring at a vertex from outside.
        let out = vec![p, along(p, p, 0.3, 0.05), along(p, p, 0.3, -0.05)];
        let m = msg(&outer, &[out]);
        assert!(
            m.contains(&format!("vertex {n} belongs to a hole outside")),
            "{what}: {m}"
        );
        // A hole passing through the ring at two of its vertices crosses it there.
        let kite = vec![p, along(q, q, 0.2, 0.0), r, into(q, 0.3)];
        let m = msg(&outer, &[kite]);
        assert!(m.contains(" crosses "), "{what}: {m}");
        // A hole sharing a stretch of a ring edge.
        let mid = ((p.0 + q.0) / 2, (p.1 + q.1) / 2);
        let m = msg(&outer, &[vec![p, mid, into(mid, 0.3)]]);
        assert!(
            m.contains("overlaps (touches along a stretch of)"),
            "{what}: {m}"
        );
        // Two holes crossing each other.
        let h1 = spike_hole((0, 0), (900, 0), 1.0, 0.2);
        let h2 = spike_hole((450, -400), (0, 900), 1.0, 0.2);
        let m = msg(&outer, &[h1.clone(), h2]);
        assert!(m.contains(" crosses "), "{what}: {m}");
        // A hole inside another, touching it at a vertex.
        let inner = spike_hole((0, 0), (900, 0), 0.5, 0.05);
        let m = msg(&outer, &[h1, inner]);
        assert!(m.contains("inside another hole"), "{what}: {m}");
        // The outer ring touching itself: a vertex on another of its vertices, and a
        // vertex inside one of its edges.
        let pinch = vec![
            (0, 0),
            (400, 200),
            (800, 0),
            (800, 400),
            (400, 200),
            (0, 400),
        ];
        let m = msg(&pinch, &[]);
        assert!(
            m.contains("edge starting at vertex 1 touches edge starting at vertex 4"),
            "{what}: {m}"
        );
        let notch = vec![(0, 0), (800, 0), (800, 800), (400, 800), (400, 0), (0, 800)];
        let m = msg(&notch, &[]);
        assert!(m.contains(" touches "), "{what}: {m}");
    });
}
