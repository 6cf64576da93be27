//! Seeded test meshes in plain `f64` arrays, shared by the mesh tests and benchmarks:
//! a closed bumpy sphere (star-shaped, so never self-intersecting), a cube, and a
//! terrain-like grid.
#![allow(dead_code)]

/// Vertices and triangles (counter-clockwise seen from outside for closed meshes).
pub struct MeshData {
    pub vertices: Vec<[f64; 3]>,
    pub indices: Vec<[u32; 3]>,
}

impl MeshData {
    /// The vertices as glam vectors of any precision through `f`.
    pub fn map<V>(&self, f: impl Fn([f64; 3]) -> V) -> Vec<V> {
        self.vertices.iter().map(|&v| f(v)).collect()
    }

    /// The vertices as `f32` glam vectors.
    pub fn vertices_f32(&self) -> Vec<glam::Vec3> {
        self.map(vec3_f32)
    }

    /// The corners of triangle `t` as `f32` glam vectors.
    pub fn triangle_f32(&self, t: [u32; 3]) -> [glam::Vec3; 3] {
        t.map(|i| vec3_f32(self.vertices[i as usize]))
    }

    /// Every vertex scaled by `k`.
    pub fn scaled(mut self, k: f64) -> Self {
        for v in &mut self.vertices {
            *v = v.map(|x| x * k);
        }
        self
    }
}

/// A vertex as an `f32` glam vector.
pub fn vec3_f32(p: [f64; 3]) -> glam::Vec3 {
    glam::Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32)
}

/// A UV sphere of `segments` around and `rings` from pole to pole (two pole vertices),
/// radius `1 + bump·sin(3θ)·cos(5φ)`: `2·segments·(rings − 1)` triangles, closed.
pub fn bumpy_sphere(segments: u32, rings: u32, bump: f64) -> MeshData {
    let radius = |theta: f64, phi: f64| 1.0 + bump * (3.0 * theta).sin() * (5.0 * phi).cos();
    let mut vertices = vec![[0.0, 1.0 + bump * 0.0, 0.0]];
    for r in 1..rings {
        let theta = std::f64::consts::PI * r as f64 / rings as f64;
        for s in 0..segments {
            let phi = std::f64::consts::TAU * s as f64 / segments as f64;
            let k = radius(theta, phi);
            vertices.push([
                k * theta.sin() * phi.cos(),
                k * theta.cos(),
                -k * theta.sin() * phi.sin(),
            ]);
        }
    }
    vertices.push([0.0, -1.0, 0.0]);
    let bottom = vertices.len() as u32 - 1;
    let at = |r: u32, s: u32| 1 + (r - 1) * segments + s % segments;
    let mut indices = Vec::new();
    for s in 0..segments {
        indices.push([0, at(1, s), at(1, s + 1)]);
        indices.push([bottom, at(rings - 1, s + 1), at(rings - 1, s)]);
    }
    for r in 1..rings - 1 {
        for s in 0..segments {
            let (a, b, c, d) = (at(r, s), at(r + 1, s), at(r + 1, s + 1), at(r, s + 1));
            indices.push([a, b, c]);
            indices.push([a, c, d]);
        }
    }
    MeshData { vertices, indices }
}

/// The cube `[−1, 1]³`, two triangles a face, outward.
pub fn cube() -> MeshData {
    let vertices = (0..8)
        .map(|i| [0, 1, 2].map(|a| if i >> a & 1 == 1 { 1.0 } else { -1.0 }))
        .collect();
    // Faces as corner indices (bit a set = +1 on axis a), counter-clockwise from outside.
    let faces = [
        [0, 2, 3, 1], // z = −1
        [4, 5, 7, 6], // z = +1
        [0, 1, 5, 4], // y = −1
        [2, 6, 7, 3], // y = +1
        [0, 4, 6, 2], // x = −1
        [1, 3, 7, 5], // x = +1
    ];
    let indices = faces
        .iter()
        .flat_map(|&[a, b, c, d]| [[a, b, c], [a, c, d]])
        .collect();
    MeshData { vertices, indices }
}

/// An open grid of `n × n` cells over `[−1, 1]²` in x/z, height `h(x, z)`, triangles
/// facing +y.
pub fn grid(n: u32, h: impl Fn(f64, f64) -> f64) -> MeshData {
    let coord = |k: u32| -1.0 + 2.0 * k as f64 / n as f64;
    let mut vertices = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            let (x, z) = (coord(j), coord(i));
            vertices.push([x, h(x, z), z]);
        }
    }
    let at = |i: u32, j: u32| i * (n + 1) + j;
    let mut indices = Vec::new();
    for i in 0..n {
        for j in 0..n {
            indices.push([at(i, j), at(i + 1, j), at(i, j + 1)]);
            indices.push([at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    MeshData { vertices, indices }
}

/// The Stanford bunny (1,839 vertices, 3,674 triangles; open: it has holes in its
/// base), from `tests/data/bunny.obj` (see `tests/data/README.md` for its origin and
/// licence).
pub fn bunny() -> MeshData {
    let text = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/bunny.obj"));
    let (mut vertices, mut indices) = (Vec::new(), Vec::new());
    for line in text.lines() {
        let mut words = line.split_whitespace();
        let kind = words.next();
        let mut next = || words.next().expect("three numbers a line");
        match kind {
            Some("v") => vertices.push([0; 3].map(|_| next().parse::<f64>().unwrap())),
            Some("f") => indices.push([0; 3].map(|_| next().parse::<u32>().unwrap() - 1)),
            _ => {}
        }
    }
    MeshData { vertices, indices }
}
