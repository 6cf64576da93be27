//! A simulated spinning lidar: a 64 × 2,048 scan (64 beams from −25° to +15° of
//! elevation, 2,048 azimuth steps a turn) from one origin, cast as one batch
//! ([`TriMesh::cast_rays_indexed`]) into a mesh scene: three Stanford bunnies of
//! different sizes on a 40 × 40 m ground grid, with a low wall. Prints the hit count,
//! the mean range and the time of the batch and of the same rays one at a time, and
//! with a path writes the range image as a binary PGM (2,048 × 64, near bright, misses
//! black).
//!
//! `cargo run --release --example lidar [range.pgm]`

use std::time::Instant;

use glam::Vec3;
use isect::query::RayCast;
use isect::shape::{Ray, TriMesh, TriMeshFlags};

#[path = "../tests/support/meshes.rs"]
mod meshes;

/// Beams (rows) and azimuth steps (columns) of the scan.
const BEAMS: usize = 64;
const STEPS: usize = 2048;
/// Elevation of the lowest and the highest beam, degrees.
const ELEVATION: (f32, f32) = (-25.0, 15.0);
/// Range of the sensor, metres: farther hits are misses.
const MAX_RANGE: f32 = 60.0;

/// The scene as one mesh: a ground grid, three bunnies (scaled, moved) and a wall.
fn scene() -> TriMesh<f32> {
    let mut vertices: Vec<Vec3> = Vec::new();
    let mut indices: Vec<[u32; 3]> = Vec::new();
    let mut add = |data: &meshes::MeshData, scale: f32, at: Vec3| {
        let base = vertices.len() as u32;
        vertices.extend(
            data.vertices
                .iter()
                .map(|p| at + meshes::vec3_f32(*p) * scale),
        );
        indices.extend(data.indices.iter().map(|t| t.map(|i| i + base)));
    };
    // Bumps of ±5 cm once scaled.
    let ground = meshes::grid(64, |x, z| 0.0025 * (3.0 * x).sin() * (2.0 * z).cos());
    add(&ground, 20.0, Vec3::new(0.0, -1.7, 0.0));
    // The bunny stands on y = 0 and is 9.7 units tall: these are 1, 2 and 0.5 m.
    let bunny = meshes::bunny();
    add(&bunny, 0.1, Vec3::new(6.0, -1.7, 2.0));
    add(&bunny, 0.2, Vec3::new(-8.0, -1.7, -5.0));
    add(&bunny, 0.05, Vec3::new(2.0, -1.7, -4.0));
    let wall = meshes::grid(4, |_, _| 0.0);
    let base = vertices.len() as u32;
    // The grid turned upright: x along the wall, its z as height.
    vertices.extend(
        wall.vertices
            .iter()
            .map(|p| Vec3::new(10.0 * p[0] as f32, -0.7 + p[2] as f32, 12.0 + p[1] as f32)),
    );
    indices.extend(wall.indices.iter().map(|t| t.map(|i| i + base)));
    TriMesh::new(vertices, indices, TriMeshFlags::OPEN).expect("a valid scene")
}

/// The scan's rays, beam by beam (row-major: beam, then azimuth), unit directions.
fn scan(origin: Vec3) -> Vec<Ray<Vec3>> {
    let mut rays = Vec::with_capacity(BEAMS * STEPS);
    for beam in 0..BEAMS {
        let f = beam as f32 / (BEAMS - 1) as f32;
        let elevation = (ELEVATION.1 + f * (ELEVATION.0 - ELEVATION.1)).to_radians();
        for step in 0..STEPS {
            let azimuth = step as f32 / STEPS as f32 * std::f32::consts::TAU;
            let dir = Vec3::new(
                elevation.cos() * azimuth.cos(),
                elevation.sin(),
                elevation.cos() * azimuth.sin(),
            );
            rays.push(Ray { origin, dir });
        }
    }
    rays
}

/// The range image as a binary PGM: 255 at zero range, 1 at `MAX_RANGE`, 0 for misses.
fn write_pgm(path: &str, ranges: &[Option<f32>]) -> std::io::Result<()> {
    let mut out = format!("P5\n{STEPS} {BEAMS}\n255\n").into_bytes();
    out.extend(ranges.iter().map(|r| match r {
        Some(t) => (255.0 - 254.0 * (t / MAX_RANGE).min(1.0)) as u8,
        None => 0,
    }));
    std::fs::write(path, out)
}

fn main() {
    let start = Instant::now();
    let mesh = scene();
    let build = start.elapsed();
    let rays = scan(Vec3::new(0.0, 0.0, 0.0));
    let start = Instant::now();
    let hits = mesh.cast_rays_indexed(&rays, MAX_RANGE);
    let batch = start.elapsed();
    let start = Instant::now();
    let single: Vec<_> = rays.iter().map(|r| mesh.cast_ray(r, MAX_RANGE)).collect();
    let one_by_one = start.elapsed();
    let ranges: Vec<Option<f32>> = hits.iter().map(|h| h.map(|(_, hit)| hit.t)).collect();
    assert_eq!(
        ranges,
        single
            .iter()
            .map(|h| h.map(|hit| hit.t))
            .collect::<Vec<_>>(),
        "the batch answers as the single-ray casts"
    );
    let returns: Vec<f32> = ranges.iter().flatten().copied().collect();
    let mean = returns.iter().sum::<f32>() / returns.len().max(1) as f32;
    let per_ray = |d: std::time::Duration| d.as_secs_f64() * 1e9 / rays.len() as f64;
    println!(
        "scene: {} triangles, built in {:.2} ms",
        mesh.triangle_count(),
        build.as_secs_f64() * 1e3
    );
    println!(
        "scan: {BEAMS} x {STEPS} = {} rays, {} returns, mean range {mean:.2} m",
        rays.len(),
        returns.len()
    );
    println!(
        "batch: {:.2} ms ({:.0} ns/ray); one at a time: {:.2} ms ({:.0} ns/ray)",
        batch.as_secs_f64() * 1e3,
        per_ray(batch),
        one_by_one.as_secs_f64() * 1e3,
        per_ray(one_by_one)
    );
    if let Some(path) = std::env::args().nth(1) {
        write_pgm(&path, &ranges).expect("writing the range image");
        println!("range image: {path}");
    }
}
