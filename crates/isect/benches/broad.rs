//! Broad phase beside parry3d's `Bvh`, in one criterion run (seeded scenes):
//! - `pairs/N`: N boxes oscillating in place, each frame updating the structure and
//!   finding the overlapping pairs: all of them (`*_rebuild`, `isect_bvh_refit`,
//!   `isect_sap`), or, with fat boxes (margin 0.1), those involving a box that left its
//!   fat box (`parry_incremental` with change detection, `isect_tree` with Box2D's
//!   moved-pair update);
//! - `build`: a BVH over 100,000 boxes (random scene and the ray grid);
//! - `ray_grid`: 10,000 closest-hit rays into about 100,000 boxes on a 1000×1000 grid at
//!   10% fill (Box2D's ray-cast benchmark scene), each leaf checked by an exact ray–box
//!   test on both sides.
//!
//! The boxes of each frame are made outside the timed section (`iter_batched`), for
//! both libraries alike. Bytes of memory per object are printed to stderr at setup.
//!
//! Times are the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID` on Linux, wall time
//! elsewhere): the benchmark machines are shared by several jobs, and wall time there
//! mostly measures the other tenants.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use glam::Vec3;
use isect::algo::slab::PreparedRay;
use isect::broad::{Bvh, DynamicTree, ProxyId, SweepAndPrune};
use isect::shape::{Aabb, Ray};
use parry3d::bounding_volume::Aabb as PAabb;
use parry3d::partitioning::{Bvh as PBvh, BvhBuildStrategy, BvhWorkspace};
use parry3d::query::{Ray as PRay, RayCast};

mod support;
use support::{cpu_time_config, parry_aabb, CpuTime, Rng};

/// N boxes of sides 0.5..1.5 in a cube sized for about one overlap per box, each with an
/// oscillation phase.
struct Scene {
    base: Vec<Vec3>,
    half: Vec<Vec3>,
    phase: Vec<Vec3>,
}

impl Scene {
    fn new(n: usize, seed: u64) -> Self {
        let mut rng = Rng(seed);
        let side = 2.0 * (n as f32).cbrt();
        Self {
            base: (0..n).map(|_| rng.vec3(0.0, side)).collect(),
            half: (0..n)
                .map(|_| Vec3::splat(0.25) + rng.vec3(0.0, 0.5))
                .collect(),
            phase: (0..n)
                .map(|_| rng.vec3(0.0, std::f32::consts::TAU))
                .collect(),
        }
    }

    /// Boxes at frame `f`: each centre moves on a small Lissajous path (amplitude 0.5).
    fn boxes(&self, f: u32, out: &mut Vec<Aabb<Vec3>>) {
        let w = f as f32 * 0.05;
        out.clear();
        for ((b, h), p) in self.base.iter().zip(&self.half).zip(&self.phase) {
            let c = *b + 0.5 * Vec3::new((w + p.x).sin(), (w + p.y).sin(), (w + p.z).sin());
            out.push(Aabb {
                min: c - *h,
                max: c + *h,
            });
        }
    }
}

/// Margin of the fat boxes (dynamic tree, parry's incremental update).
const MARGIN: f32 = 0.1;

/// The boxes of the next frame, ours and parry's: made outside the timed section
/// (criterion's `iter_batched`), so that the times are the broad phase's alone.
fn next_frame(scene: &Scene, frame: &mut u32) -> (Vec<Aabb<Vec3>>, Vec<PAabb>) {
    *frame += 1;
    let mut boxes = Vec::new();
    scene.boxes(*frame, &mut boxes);
    let pboxes = boxes.iter().map(parry_aabb).collect();
    (boxes, pboxes)
}

fn pairs(c: &mut Criterion<CpuTime>) {
    let mut group = c.benchmark_group("broad/pairs");
    for n in [1_000usize, 10_000, 100_000] {
        group.sample_size(if n > 10_000 { 10 } else { 50 });
        let scene = Scene::new(n, 7);
        let mut frame = 0u32;
        let (boxes, pboxes) = next_frame(&scene, &mut frame);
        group.bench_function(BenchmarkId::new("parry_rebuild", n), |bench| {
            let mut ws = BvhWorkspace::default();
            bench.iter_batched_ref(
                || next_frame(&scene, &mut frame),
                |(_, pb)| {
                    let bvh = PBvh::from_leaves(BvhBuildStrategy::Binned, pb);
                    let mut count = 0usize;
                    bvh.traverse_bvtt_single_tree::<false>(&mut ws, &mut |_, _| count += 1);
                    count
                },
                BatchSize::PerIteration,
            )
        });
        let mut ws = BvhWorkspace::default();
        let mut parry_bvh = PBvh::from_leaves(BvhBuildStrategy::Binned, &pboxes);
        eprintln!(
            "parry Bvh, {n} boxes: {} bytes/object",
            parry_bvh.total_memory_size() / n
        );
        group.bench_function(BenchmarkId::new("parry_incremental", n), |bench| {
            let bvh = &mut parry_bvh;
            bench.iter_batched_ref(
                || next_frame(&scene, &mut frame),
                |(_, pb)| {
                    for (i, b) in pb.iter().enumerate() {
                        bvh.insert_or_update_partially(*b, i as u32, MARGIN);
                    }
                    bvh.refit(&mut ws);
                    let mut count = 0usize;
                    bvh.traverse_bvtt_single_tree::<true>(&mut ws, &mut |_, _| count += 1);
                    count
                },
                BatchSize::PerIteration,
            )
        });
        group.bench_function(BenchmarkId::new("isect_bvh_rebuild", n), |bench| {
            bench.iter_batched_ref(
                || next_frame(&scene, &mut frame),
                |(boxes, _)| {
                    let bvh = Bvh::build(boxes);
                    let mut count = 0usize;
                    bvh.for_each_pair(|_, _| count += 1);
                    count
                },
                BatchSize::PerIteration,
            )
        });
        let mut bvh = Bvh::build(&boxes);
        eprintln!(
            "isect Bvh, {n} boxes: {} bytes/object",
            bvh.heap_bytes() / n
        );
        group.bench_function(BenchmarkId::new("isect_bvh_refit", n), |bench| {
            bench.iter_batched_ref(
                || next_frame(&scene, &mut frame),
                |(boxes, _)| {
                    bvh.refit(boxes);
                    let mut count = 0usize;
                    bvh.for_each_pair(|_, _| count += 1);
                    count
                },
                BatchSize::PerIteration,
            )
        });
        let mut tree = DynamicTree::with_margin(MARGIN).unwrap();
        let ids: Vec<ProxyId> = boxes.iter().map(|b| tree.insert(*b, 0).unwrap()).collect();
        eprintln!(
            "isect DynamicTree, {n} boxes: {} bytes/object",
            tree.heap_bytes() / n
        );
        group.bench_function(BenchmarkId::new("isect_tree", n), |bench| {
            bench.iter_batched_ref(
                || next_frame(&scene, &mut frame),
                |(boxes, _)| {
                    for (id, b) in ids.iter().zip(boxes.iter()) {
                        let _ = tree.move_proxy(*id, *b, Vec3::ZERO);
                    }
                    let mut count = 0usize;
                    tree.for_each_moved_pair(|_, _| count += 1);
                    tree.clear_moved();
                    count
                },
                BatchSize::PerIteration,
            )
        });
        // The world's moving tree: leaves enlarged in place, refitted, rebuilt by
        // midpoint splits once they moved twice as often as the tree holds leaves.
        let mut tree = DynamicTree::with_margin(MARGIN).unwrap();
        let ids: Vec<ProxyId> = boxes.iter().map(|b| tree.insert(*b, 0).unwrap()).collect();
        tree.rebuild();
        group.bench_function(BenchmarkId::new("isect_tree_enlarge", n), |bench| {
            bench.iter_batched_ref(
                || next_frame(&scene, &mut frame),
                |(boxes, _)| {
                    for (id, b) in ids.iter().zip(boxes.iter()) {
                        let _ = tree.enlarge_proxy(*id, *b, Vec3::ZERO);
                    }
                    tree.refit();
                    if tree.enlargements_since_rebuild() >= 2 * n {
                        tree.rebuild_quick();
                    }
                    let mut count = 0usize;
                    if 2 * tree.moved().len() > n {
                        tree.for_each_pair(|_, _| count += 1);
                    } else {
                        tree.for_each_moved_pair(|_, _| count += 1);
                    }
                    tree.clear_moved();
                    count
                },
                BatchSize::PerIteration,
            )
        });
        let mut sap = SweepAndPrune::new(0).unwrap();
        let sap_ids: Vec<ProxyId> = boxes.iter().map(|b| sap.insert(*b).unwrap()).collect();
        sap.update();
        eprintln!(
            "isect SweepAndPrune, {n} boxes: {} bytes/object",
            sap.heap_bytes() / n
        );
        group.bench_function(BenchmarkId::new("isect_sap", n), |bench| {
            bench.iter_batched_ref(
                || next_frame(&scene, &mut frame),
                |(boxes, _)| {
                    for (id, b) in sap_ids.iter().zip(boxes.iter()) {
                        let _ = sap.set_aabb(*id, *b);
                    }
                    sap.update();
                    sap.pairs().len()
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

/// Box2D's ray-cast scene: a 1000×1000 grid, a box (0.8 wide, unit height in z) in 10%
/// of the cells.
fn grid_boxes() -> Vec<Aabb<Vec3>> {
    let mut rng = Rng(11);
    let mut boxes = Vec::new();
    for i in 0..1000 {
        for j in 0..1000 {
            if rng.uniform(0.0, 1.0) < 0.1 {
                let min = Vec3::new(i as f32 + 0.1, j as f32 + 0.1, 0.0);
                boxes.push(Aabb {
                    min,
                    max: min + Vec3::new(0.8, 0.8, 1.0),
                });
            }
        }
    }
    boxes
}

/// 10,000 rays in the z = 0.5 plane from random points in random directions, 100 cells
/// long (max_t = 1).
fn grid_rays() -> Vec<Ray<Vec3>> {
    let mut rng = Rng(13);
    (0..10_000)
        .map(|_| {
            let origin = Vec3::new(
                rng.uniform(0.0, 1.0) * 1000.0,
                rng.uniform(0.0, 1.0) * 1000.0,
                0.5,
            );
            let angle = rng.uniform(0.0, 1.0) * std::f32::consts::TAU;
            Ray::new(origin, Vec3::new(angle.cos(), angle.sin(), 0.0) * 100.0).unwrap()
        })
        .collect()
}

fn build(c: &mut Criterion<CpuTime>) {
    let mut group = c.benchmark_group("broad/build");
    let mut random = Vec::new();
    Scene::new(100_000, 5).boxes(0, &mut random);
    for (name, boxes) in [("random_100k", random), ("grid_100k", grid_boxes())] {
        let pboxes: Vec<PAabb> = boxes.iter().map(parry_aabb).collect();
        group.bench_function(BenchmarkId::new("parry", name), |b| {
            b.iter(|| black_box(PBvh::from_leaves(BvhBuildStrategy::Binned, &pboxes)))
        });
        group.bench_function(BenchmarkId::new("isect", name), |b| {
            b.iter(|| black_box(Bvh::build(&boxes)))
        });
        // The dynamic tree's rebuild (from its leaves, whatever their tree).
        let mut tree = DynamicTree::new();
        for (k, b) in boxes.iter().enumerate() {
            let _ = tree.insert(*b, k as u32);
        }
        group.bench_function(BenchmarkId::new("isect_tree_rebuild", name), |b| {
            b.iter(|| {
                tree.rebuild();
                black_box(tree.height())
            })
        });
    }
    group.finish();
}

fn ray_grid(c: &mut Criterion<CpuTime>) {
    let boxes = grid_boxes();
    let rays = grid_rays();
    let pboxes: Vec<PAabb> = boxes.iter().map(parry_aabb).collect();
    let prays: Vec<PRay> = rays.iter().map(|r| PRay::new(r.origin, r.dir)).collect();
    let pbvh = PBvh::from_leaves(BvhBuildStrategy::Binned, &pboxes);
    let bvh = Bvh::build(&boxes);
    let mut tree = DynamicTree::new();
    for (k, b) in boxes.iter().enumerate() {
        let _ = tree.insert(*b, k as u32);
    }
    eprintln!(
        "grid: {} boxes; bytes/object: parry {}, isect Bvh {}, isect DynamicTree {}",
        boxes.len(),
        pbvh.total_memory_size() / boxes.len(),
        bvh.heap_bytes() / boxes.len(),
        tree.heap_bytes() / boxes.len()
    );
    let mut group = c.benchmark_group("broad/ray_grid_10k_rays");
    group.bench_function("parry", |b| {
        b.iter(|| {
            let mut hits = 0usize;
            for ray in &prays {
                let hit = pbvh.cast_ray(ray, 1.0, |i, best| {
                    pboxes[i as usize].cast_local_ray(ray, best, true)
                });
                hits += hit.is_some() as usize;
            }
            black_box(hits)
        })
    });
    group.bench_function("isect_bvh", |b| {
        b.iter(|| {
            let mut hits = 0usize;
            for ray in &rays {
                let prepared = PreparedRay::new(ray, 1.0);
                let hit = bvh.cast_ray(ray, 1.0, |i, _| {
                    prepared.interval(&boxes[i as usize]).map(|h| h.0)
                });
                hits += hit.is_some() as usize;
            }
            black_box(hits)
        })
    });
    group.bench_function("isect_bvh_batch", |b| {
        b.iter(|| {
            // Each ray prepared once, inside the timed section.
            let prepared: Vec<PreparedRay<Vec3>> =
                rays.iter().map(|r| PreparedRay::new(r, 1.0)).collect();
            let hits = bvh.cast_rays(&rays, 1.0, |k, i, _| {
                prepared[k].interval(&boxes[i as usize]).map(|h| h.0)
            });
            black_box(hits.iter().flatten().count())
        })
    });
    // The tree as loaded (one insertion at a time, row by row), then rebuilt.
    let mut rebuilt = tree.clone();
    rebuilt.rebuild();
    for (name, tree) in [("isect_tree", &tree), ("isect_tree_rebuilt", &rebuilt)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut hits = 0usize;
                for ray in &rays {
                    let prepared = PreparedRay::new(ray, 1.0);
                    let hit = tree.cast_ray(ray, 1.0, |_, k, _| {
                        prepared.interval(&boxes[k as usize]).map(|h| h.0)
                    });
                    hits += hit.is_some() as usize;
                }
                black_box(hits)
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = cpu_time_config();
    targets = pairs, build, ray_grid
}
criterion_main!(benches);
