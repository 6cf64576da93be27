//! Shared helpers of the broad-phase tests: a seeded PRNG, random boxes and rays in any
//! dimension and precision, and brute-force oracles.
#![allow(dead_code)]

use std::collections::BTreeSet;

use isect::algo::slab::PreparedRay;
use isect::math::{Real, Vector};
use isect::shape::{Aabb, Ray};

#[path = "../support/rng.rs"]
mod rng;
pub use rng::Rng;

impl Rng {
    /// A vector with every component in [lo, hi).
    pub fn vector<V: Vector>(&mut self, lo: f64, hi: f64) -> V {
        (0..V::DIM).fold(V::ZERO, |v, i| {
            v.with(i, V::Scalar::from_f64(self.range(lo, hi)))
        })
    }
    /// A box with its min corner in [origin, origin + world) and sides in [0, size).
    /// Built from its fields: broad phases take boxes beyond `Real::MAX_COORD` (the
    /// world's boxes of shapes near the limit reach past it), and the huge-range scenes
    /// test them.
    pub fn aabb<V: Vector>(&mut self, origin: f64, world: f64, size: f64) -> Aabb<V> {
        let min: V = self.vector(origin, origin + world);
        let ext: V = self.vector(0.0, size);
        Aabb {
            min,
            max: min + ext,
        }
    }
    /// A ray from inside the world box towards a random point of it.
    pub fn ray<V: Vector>(&mut self, origin: f64, world: f64) -> Ray<V> {
        let from: V = self.vector(origin, origin + world);
        let to: V = self.vector(origin, origin + world);
        Ray::new(from, to - from).unwrap()
    }
}

/// Side of a cube (square) holding `n` boxes of mean side `size` so that each box
/// overlaps about one other.
pub fn world_side<V: Vector>(n: usize, size: f64) -> f64 {
    // Sides are uniform in [0, size): two boxes overlap with probability about
    // (size / side)^DIM, so n · (size / side)^DIM ≈ 1.
    size * (n as f64).powf(1.0 / V::DIM as f64)
}

/// Every overlapping pair `(i, j)`, `i < j`, of the listed boxes (by their ids).
pub fn brute_pairs<V: Vector>(boxes: &[(u32, Aabb<V>)]) -> BTreeSet<(u32, u32)> {
    let mut set = BTreeSet::new();
    for (k, (a, ba)) in boxes.iter().enumerate() {
        for (b, bb) in &boxes[k + 1..] {
            if ba.intersects(bb) {
                set.insert((*a.min(b), *a.max(b)));
            }
        }
    }
    set
}

/// Every box id the ray meets within `max_t`, with its entry parameter.
pub fn brute_ray<V: Vector>(
    boxes: &[(u32, Aabb<V>)],
    ray: &Ray<V>,
    max_t: V::Scalar,
) -> Vec<(u32, V::Scalar)> {
    let prepared = PreparedRay::new(ray, max_t);
    boxes
        .iter()
        .filter_map(|(id, b)| prepared.interval(b).map(|(t, _)| (*id, t)))
        .collect()
}

/// The smallest entry parameter of a brute-force hit list.
pub fn min_t<S: Real>(hits: &[(u32, S)]) -> Option<S> {
    hits.iter()
        .map(|h| h.1)
        .fold(None, |m: Option<S>, t| Some(m.map_or(t, |m| m.min(t))))
}

#[macro_use]
#[path = "../support/for_each_vector.rs"]
mod for_each_vector;
