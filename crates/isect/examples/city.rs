//! Point-in-polygon over a city: a seeded grid of 3,600 building footprints (concave
//! L and U shapes, and square blocks with a square courtyard as a hole) in a 2D `f64`
//! world (`f64`, as GIS coordinates are), then 100,000 random points classified with
//! [`World::shapes_at_point`]. Prints how many points fall in a building, how many in a
//! courtyard (inside a building's outer ring but in its hole) and the time per query.
//! The first 1,000 points are checked against a brute force over every polygon's
//! `contains_point`.
//!
//! `cargo run --release --example city`

use std::sync::Arc;
use std::time::Instant;

use isect::d2_f64::*;

/// Blocks along each side of the city.
const BLOCKS: usize = 60;
/// Distance between block origins, in metres.
const PITCH: f64 = 50.0;
/// Points classified.
const POINTS: usize = 100_000;
/// Points checked against the brute force.
const CHECKED: usize = 1_000;

/// A xorshift64 generator: the same city and points on every run, no `rand` crate.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `[lo, hi)`.
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The counter-clockwise ring of `points` (in a unit-free grid) scaled by `s` and moved
/// to `origin`.
fn ring(points: &[(f64, f64)], origin: DVec2, s: f64) -> Vec<DVec2> {
    points
        .iter()
        .map(|&(x, y)| origin + DVec2::new(x, y) * s)
        .collect()
}

/// One building in a `PITCH`-wide plot at `origin`: an L, a U, or a square block with
/// a courtyard, its size drawn from `rng`. The courtyard's ring is returned too.
fn building(rng: &mut Rng, origin: DVec2) -> (ConcavePolygon, Option<Vec<DVec2>>) {
    let s = rng.uniform(6.0, 9.0); // metres per grid unit, the footprint ≤ 5 units wide
    let at = origin + DVec2::new(rng.uniform(2.0, 4.0), rng.uniform(2.0, 4.0));
    let (outer, hole) = match rng.next_u64() % 3 {
        0 => {
            let l = [
                (0.0, 0.0),
                (4.0, 0.0),
                (4.0, 1.5),
                (1.5, 1.5),
                (1.5, 4.0),
                (0.0, 4.0),
            ];
            (ring(&l, at, s), None)
        }
        1 => {
            let u = [
                (0.0, 0.0),
                (5.0, 0.0),
                (5.0, 4.0),
                (3.5, 4.0),
                (3.5, 1.5),
                (1.5, 1.5),
                (1.5, 4.0),
                (0.0, 4.0),
            ];
            (ring(&u, at, s), None)
        }
        _ => {
            let block = [(0.0, 0.0), (5.0, 0.0), (5.0, 5.0), (0.0, 5.0)];
            // Holes are given clockwise, as the constructor stores them.
            let yard = [(1.5, 1.5), (1.5, 3.5), (3.5, 3.5), (3.5, 1.5)];
            (ring(&block, at, s), Some(ring(&yard, at, s)))
        }
    };
    let holes = hole.iter().cloned().collect();
    let polygon = ConcavePolygon::new(outer, holes).expect("a valid footprint");
    (polygon, hole)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut rng = Rng(0x5eed_c17e_2026_0014);
    let started = Instant::now();
    let mut world = World::new();
    // Per building, in plot order: its handle, its footprint and its courtyard as a
    // polygon of its own (to tell a courtyard point from a street point).
    let mut buildings = Vec::with_capacity(BLOCKS * BLOCKS);
    for i in 0..BLOCKS {
        for j in 0..BLOCKS {
            let origin = DVec2::new(i as f64, j as f64) * PITCH;
            let (polygon, yard) = building(&mut rng, origin);
            let yard = yard.map(|r| ConcavePolygon::new(r, vec![])).transpose()?;
            // Shared with the world, not copied: the brute force asks the same shape.
            let polygon = Arc::new(polygon);
            let handle = world.insert_static(Arc::clone(&polygon), Pose::IDENTITY, Filter::ALL)?;
            buildings.push((handle, polygon, yard));
        }
    }
    println!(
        "{} buildings ({} with a courtyard) built and inserted in {:.1} ms",
        buildings.len(),
        buildings.iter().filter(|b| b.2.is_some()).count(),
        started.elapsed().as_secs_f64() * 1e3
    );

    let side = BLOCKS as f64 * PITCH;
    let points: Vec<DVec2> = (0..POINTS)
        .map(|_| DVec2::new(rng.uniform(0.0, side), rng.uniform(0.0, side)))
        .collect();

    let started = Instant::now();
    let answers: Vec<Vec<Handle>> = points
        .iter()
        .map(|&p| world.shapes_at_point(p, Filter::ALL))
        .collect();
    let elapsed = started.elapsed();

    // A point in no building is in a courtyard when the courtyard of its plot's
    // building holds it (each building stays inside its plot).
    let mut in_building = 0;
    let mut in_courtyard = 0;
    for (p, found) in points.iter().zip(&answers) {
        if !found.is_empty() {
            in_building += 1;
            continue;
        }
        let (i, j) = ((p.x / PITCH) as usize, (p.y / PITCH) as usize);
        let yard = &buildings[i.min(BLOCKS - 1) * BLOCKS + j.min(BLOCKS - 1)].2;
        in_courtyard += usize::from(yard.as_ref().is_some_and(|y| y.contains_point(*p)));
    }

    // The brute force: every polygon's own inside test.
    for (p, found) in points.iter().zip(&answers).take(CHECKED) {
        let brute: Vec<Handle> = buildings
            .iter()
            .filter(|(_, polygon, _)| polygon.contains_point(*p))
            .map(|(handle, _, _)| *handle)
            .collect();
        assert_eq!(&brute, found, "point {p}");
    }

    println!(
        "{POINTS} points: {in_building} in a building, {in_courtyard} in a courtyard, {} in the street",
        POINTS - in_building - in_courtyard
    );
    println!(
        "shapes_at_point: {:.3} µs a query ({:.1} ms in all); the first {CHECKED} agree with the brute force",
        elapsed.as_secs_f64() * 1e6 / POINTS as f64,
        elapsed.as_secs_f64() * 1e3
    );
    Ok(())
}
