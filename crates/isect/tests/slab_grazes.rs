//! The conservative slab test (`algo::slab`, Ize's `1 + 2γ₃` exit) on exact grazes: rays
//! through an edge or a corner of a box, in 2D and 3D, `f32` and `f64`, built on exact
//! grid values so that the ray passes through the box's edge point exactly at `t_p`.
//! Every kernel must hit the box: `Aabb::cast_ray`, `PreparedRay`, the SIMD lanes
//! (`ray_boxes4`), the `Bvh` walks (closest, any, all, batch) and the `DynamicTree`
//! walks, also with `max_t = t_p` exactly; and the same ray moved away from the box by a
//! small relative margin (far beyond the tolerance) must miss. Before the fix 7% of the
//! `f32` corner grazes and about 1% of the `f64` edge grazes missed.

#[path = "support/for_each_vector.rs"]
#[macro_use]
mod for_each_vector;
#[path = "support/rng.rs"]
mod rng;

use isect::algo::slab::{widen, PreparedRay, SLAB_EXIT_ULPS};
use isect::broad::simd::{ray_boxes4, Boxes4, SoaRay};
use isect::broad::{Bvh, DynamicTree};
use isect::math::{Real, Vector};
use isect::query::RayCast;
use isect::shape::{Aabb, Ray};
use rng::Rng;

/// A seeded exact graze: the box, the ray, and the `t` at which the ray passes
/// through the box's corner (or, in 3D, a point of one of its edges) `p`.
struct Graze<V: Vector> {
    aabb: Aabb<V>,
    ray: Ray<V>,
    t_p: V::Scalar,
    /// The box's side of `p` on each axis (`+1`: the box lies above `p`).
    side: [f64; 3],
}

/// A random integer in `[lo, hi]`.
fn int(rng: &mut Rng, lo: i64, hi: i64) -> f64 {
    (lo + rng.below((hi - lo + 1) as usize) as i64) as f64
}

/// A graze on a box with integer coordinates up to `reach`, scaled by a power of two:
/// `p` is a corner of the box (on one free axis in 3D, a point inside the box's
/// span: an edge graze), the direction's integer components put the box on the far
/// side of the line on one corner axis and the near side on another, so the line
/// touches the box at `p` only, and the origin is `p − t_p · dir` (exact).
fn graze<V: Vector>(rng: &mut Rng, reach: i64, scale: f64) -> Graze<V> {
    let dim = V::DIM;
    let edge_axis = (dim == 3 && rng.below(2) == 0).then(|| rng.below(3));
    let mut p = [0.0; 3];
    let mut side = [0.0; 3];
    let (mut lo, mut hi) = ([0.0; 3], [0.0; 3]);
    for k in 0..dim {
        p[k] = int(rng, -reach, reach);
        let size = int(rng, 1, 9);
        if Some(k) == edge_axis {
            (lo[k], hi[k]) = (p[k] - size, p[k] + int(rng, 1, 9));
        } else if rng.below(2) == 0 {
            side[k] = 1.0;
            (lo[k], hi[k]) = (p[k], p[k] + size);
        } else {
            side[k] = -1.0;
            (lo[k], hi[k]) = (p[k] - size, p[k]);
        }
    }
    // Corner axes: the direction leaves the box's side on one and enters it on another.
    let corners: Vec<usize> = (0..dim).filter(|&k| Some(k) != edge_axis).collect();
    let (a, b) = (corners[0], corners[1]);
    let mut d = [0.0; 3];
    for dk in d.iter_mut().take(dim) {
        *dk = int(rng, 1, 50) * if rng.below(2) == 0 { 1.0 } else { -1.0 };
    }
    d[a] = d[a].abs() * -side[a];
    d[b] = d[b].abs() * side[b];
    if let Some(e) = edge_axis {
        d[e] = int(rng, -50, 50);
    }
    for k in corners.iter().skip(2) {
        // A third corner axis (3D corner grazes): either sign keeps the graze.
        d[*k] = d[*k].abs() * side[*k] * if rng.below(2) == 0 { 1.0 } else { -1.0 };
    }
    let t_p = int(rng, 1, 60);
    let vec = |c: [f64; 3]| {
        let mut v = V::ZERO;
        for (k, &x) in c.iter().enumerate().take(dim) {
            v = v.with(k, V::Scalar::from_f64(x * scale));
        }
        v
    };
    let origin = core::array::from_fn(|k| p[k] - t_p * d[k]);
    Graze {
        aabb: Aabb::new(vec(lo), vec(hi)).unwrap(),
        ray: Ray::new(vec(origin), vec(d)).unwrap(),
        t_p: V::Scalar::from_f64(t_p),
        side,
    }
}

/// Scales (powers of two, so that every coordinate stays exact) and the integer
/// reach of the coordinates: `f32` holds integers to 2²⁴ and coordinates to
/// `MAX_COORD` (1.3e8), so its reach and scales are smaller.
fn cases<V: Vector>() -> Vec<(i64, f64)> {
    if V::Scalar::EPSILON.to_f64() > 1e-10 {
        [(600, 1.0), (600, 2f64.powi(-18)), (40, 2f64.powi(10))].to_vec()
    } else {
        [
            (1 << 20, 1.0),
            (1 << 20, 2f64.powi(-60)),
            (40, 2f64.powi(30)),
        ]
        .to_vec()
    }
}

/// The distractor boxes of the trees: a ring of unit boxes around the graze box
/// that the ray may or may not meet.
fn distractors<V: Vector>(rng: &mut Rng, g: &Graze<V>) -> Vec<Aabb<V>> {
    let size = g.aabb.max - g.aabb.min;
    (0..7)
        .map(|_| {
            let mut min = g.aabb.min;
            for k in 0..V::DIM {
                let shift = V::Scalar::from_f64(int(rng, -3, 3));
                min = min.with(k, min.get(k) + shift * size.get(k));
            }
            Aabb::new(min, min + size).unwrap()
        })
        .collect()
}

// Every kernel hits every exact graze, with `max_t = ∞` and `max_t = t_p`.
fn every_kernel_hits_exact_grazes<V: Vector>() {
    let mut rng = Rng(0x51AB_0001 + V::DIM as u64);
    let tol = V::Scalar::from_f64(2.0 * SLAB_EXIT_ULPS) * V::Scalar::EPSILON;
    let mut count = 0;
    for (reach, scale) in cases::<V>() {
        for case in 0..3000 {
            let g = graze::<V>(&mut rng, reach, scale);
            let what = || format!("case {case} scale {scale}: {:?} {:?}", g.aabb, g.ray);
            for max_t in [V::Scalar::INFINITY, g.t_p] {
                let hit = g.aabb.cast_ray(&g.ray, max_t);
                let hit = hit.unwrap_or_else(|| panic!("Aabb::cast_ray missed: {}", what()));
                assert!(hit.t <= max_t, "{}", what());
                assert!((hit.t - g.t_p).abs() <= tol * g.t_p, "{hit:?} {}", what());
                assert!(g.aabb.intersects_ray(&g.ray, max_t), "{}", what());
                let prepared = PreparedRay::new(&g.ray, max_t);
                let (enter, exit) = prepared.interval(&g.aabb).expect("interval");
                assert!(enter <= exit && exit <= max_t, "{}", what());
                // The SIMD lanes, the graze box in each lane in turn.
                for lane in 0..4 {
                    let mut boxes = Boxes4::EMPTY;
                    boxes.set(lane, &g.aabb);
                    let soa = SoaRay::new(&prepared);
                    let max = if max_t.is_finite() {
                        max_t
                    } else {
                        V::Scalar::MAX
                    };
                    let t = ray_boxes4(&soa, &boxes, V::DIM, max);
                    assert_eq!(t[lane], enter, "lane {lane}: {}", what());
                }
            }
            count += 1;
        }
    }
    assert!(count >= 9000);
}
for_each_vector!(every_kernel_hits_exact_grazes);

// The Bvh's and the DynamicTree's walks (closest, any, all, batch) find the graze box
// among distractors, also clipped at `t_p` and when a distractor's hit at `t_p` clips
// the walk first.
fn tree_walks_find_exact_grazes<V: Vector>() {
    let mut rng = Rng(0x51AB_0002 + V::DIM as u64);
    let mut grazes = Vec::new();
    for (reach, scale) in cases::<V>() {
        for _ in 0..600 {
            grazes.push(graze::<V>(&mut rng, reach, scale));
        }
    }
    for (case, g) in grazes.iter().enumerate() {
        let mut boxes = distractors(&mut rng, g);
        let target = rng.below(boxes.len() + 1);
        boxes.insert(target, g.aabb);
        let target = target as u32;
        let what = || format!("case {case}: {:?} {:?}", g.aabb, g.ray);
        let bvh = Bvh::build(&boxes);
        let mut tree = DynamicTree::new();
        for (k, b) in boxes.iter().enumerate() {
            tree.insert(*b, k as u32).unwrap();
        }
        for max_t in [V::Scalar::INFINITY, g.t_p] {
            // Only the graze box answers, at t_p.
            let leaf = |i: u32| (i == target).then_some(g.t_p);
            let closest = bvh.cast_ray(&g.ray, max_t, |i, _| leaf(i));
            assert_eq!(closest, Some((target, g.t_p)), "Bvh::cast_ray {}", what());
            let any = bvh.cast_ray_any(&g.ray, max_t, |i| i == target);
            assert_eq!(any, Some(target), "Bvh::cast_ray_any {}", what());
            let mut all = Vec::new();
            bvh.cast_ray_all(&g.ray, max_t, |i, t| {
                assert!(t <= max_t);
                all.push(i);
                true
            });
            assert!(all.contains(&target), "Bvh::cast_ray_all {}", what());
            let batch = bvh.cast_rays(&[g.ray, g.ray], max_t, |_, i, _| leaf(i));
            assert_eq!(batch, [closest, closest], "Bvh::cast_rays {}", what());
            let (_, t) = tree
                .cast_ray(&g.ray, max_t, |_, i, _| leaf(i))
                .unwrap_or_else(|| panic!("DynamicTree::cast_ray {}", what()));
            assert_eq!(t, g.t_p);
            let any = tree.cast_ray_any(&g.ray, max_t, |_, i| i == target);
            assert!(any.is_some(), "DynamicTree::cast_ray_any {}", what());
            let mut all = Vec::new();
            tree.cast_ray_all(&g.ray, max_t, |_, i, t| {
                assert!(t <= max_t);
                all.push(i);
                true
            });
            assert!(
                all.contains(&target),
                "DynamicTree::cast_ray_all {}",
                what()
            );
        }
        // A tie: every box reports a hit at t_p, the walk clipped at t_p by the first
        // one it meets; the graze box must still be visited (its entry rounds at t_p).
        let mut seen = false;
        let _ = bvh.cast_ray(&g.ray, V::Scalar::INFINITY, |i, _| {
            seen |= i == target;
            Some(g.t_p)
        });
        assert!(seen, "Bvh tie {}", what());
        let mut seen = false;
        let _ = tree.cast_ray(&g.ray, V::Scalar::INFINITY, |_, i, _| {
            seen |= i == target;
            Some(g.t_p)
        });
        assert!(seen, "DynamicTree tie {}", what());
    }
}
for_each_vector!(tree_walks_find_exact_grazes);

// The tolerance is small: the graze moved away from the box by a relative 1e-3 (f32)
// or 1e-11 (f64) of the coordinates misses, as do rays stopping that far short.
fn grazes_moved_off_miss<V: Vector>() {
    let mut rng = Rng(0x51AB_0003 + V::DIM as u64);
    let rel = if V::Scalar::EPSILON.to_f64() > 1e-10 {
        1e-3
    } else {
        1e-11
    };
    for (reach, scale) in cases::<V>() {
        for case in 0..2000 {
            let g = graze::<V>(&mut rng, reach, scale);
            let size = g
                .ray
                .origin
                .abs()
                .max_element()
                .max(g.aabb.max.abs().max_element());
            let step = V::Scalar::from_f64(rel) * size;
            // Away from the box on every corner axis: the line then misses the box.
            let mut away = g.ray.origin;
            for k in 0..V::DIM {
                away = away.with(k, away.get(k) - V::Scalar::from_f64(g.side[k]) * step);
            }
            let off = Ray::new(away, g.ray.dir).unwrap();
            let what = || format!("case {case} scale {scale}: {:?} {:?}", g.aabb, off);
            assert!(
                g.aabb.cast_ray(&off, V::Scalar::INFINITY).is_none(),
                "{}",
                what()
            );
            assert!(!PreparedRay::new(&off, V::Scalar::INFINITY).hits(&g.aabb));
            let bvh = Bvh::build(&[g.aabb]);
            assert_eq!(bvh.cast_ray_any(&off, V::Scalar::INFINITY, |_| true), None);
            // Stopping short of t_p (where the graze touches the box, and only there)
            // by a relative `rel`.
            let short = g.t_p * (V::Scalar::ONE - V::Scalar::from_f64(rel));
            assert!(g.aabb.cast_ray(&g.ray, short).is_none(), "{}", what());
        }
    }
    // `widen` is the documented factor and never +∞.
    let one = V::Scalar::ONE;
    assert_eq!(
        widen(one),
        one + V::Scalar::from_f64(SLAB_EXIT_ULPS) * V::Scalar::EPSILON
    );
    assert_eq!(widen(V::Scalar::MAX), V::Scalar::MAX);
    assert_eq!(widen(V::Scalar::INFINITY), V::Scalar::MAX);
    assert!(widen(V::Scalar::from_f64(f64::NAN)).is_nan());
    assert_eq!(widen(V::Scalar::NEG_INFINITY), V::Scalar::NEG_INFINITY);
}
for_each_vector!(grazes_moved_off_miss);
