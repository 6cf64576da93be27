//! Static 4-wide BVH: structure after build and refit, pairs, region queries and ray
//! casts against brute force, degenerate and bad inputs.

#[macro_use]
mod broad_common;

use std::collections::BTreeSet;

use broad_common::{brute_pairs, brute_ray, min_t, world_side, Rng};
use isect::algo::slab::PreparedRay;
use isect::broad::Bvh;
use isect::math::{Real, Vector};
use isect::shape::{Aabb, Ray};

fn indexed<V: Vector>(boxes: &[Aabb<V>]) -> Vec<(u32, Aabb<V>)> {
    boxes
        .iter()
        .enumerate()
        .map(|(i, b)| (i as u32, *b))
        .collect()
}

fn bvh_pairs<V: Vector>(bvh: &Bvh<V>) -> BTreeSet<(u32, u32)> {
    let mut set = BTreeSet::new();
    bvh.for_each_pair(|a, b| {
        assert!(a < b);
        assert!(set.insert((a, b)), "pair ({a}, {b}) twice");
    });
    set
}

// Random scenes: the structure validates, pairs equal brute force; after every box
// moves, a refit keeps it valid and the pairs still equal brute force.
fn pairs_after_build_and_refit<V: Vector>() {
    let mut rng = Rng(0x5eed_0101);
    for n in [1, 2, 3, 5, 17, 400] {
        let world = world_side::<V>(n, 2.0);
        let mut boxes: Vec<Aabb<V>> = (0..n).map(|_| rng.aabb(0.0, world, 2.0)).collect();
        let mut bvh = Bvh::build(&boxes);
        bvh.validate().unwrap();
        assert_eq!(bvh.len(), n);
        let brute = brute_pairs(&indexed(&boxes));
        assert_eq!(bvh_pairs(&bvh), brute);
        if n == 400 {
            let per = brute.len() as f64 / n as f64;
            assert!((0.2..5.0).contains(&per), "{per} pairs per box");
        }
        for b in &mut boxes {
            let d: V = rng.vector(-1.0, 1.0);
            *b = Aabb {
                min: b.min + d,
                max: b.max + d,
            };
        }
        bvh.refit(&boxes);
        bvh.validate().unwrap();
        assert_eq!(bvh_pairs(&bvh), brute_pairs(&indexed(&boxes)));
    }
}
for_each_vector!(pairs_after_build_and_refit);

// The traversal cut into tasks (for threads): the pairs met while cutting plus those
// of every task are the pairs of the whole traversal, each once, for any task count,
// and the cut gives at least as many tasks as asked when the tree has them.
fn pair_tasks_cover_the_pairs_once<V: Vector>() {
    let mut rng = Rng(0x5eed_0102);
    for n in [0, 1, 2, 5, 17, 400, 2000] {
        let world = world_side::<V>(n.max(1), 2.0);
        let boxes: Vec<Aabb<V>> = (0..n).map(|_| rng.aabb(0.0, world, 2.0)).collect();
        let bvh = Bvh::build(&boxes);
        let whole = bvh_pairs(&bvh);
        for at_least in [1, 4, 64, 10_000] {
            let mut set = BTreeSet::new();
            let mut add = |a: u32, b: u32| {
                assert!(a < b);
                assert!(set.insert((a, b)), "pair ({a}, {b}) twice");
            };
            let tasks = bvh.pair_tasks(at_least, &mut add);
            for &task in &tasks {
                bvh.for_each_pair_of(task, &mut add);
            }
            assert_eq!(set, whole, "{n} boxes, {at_least} tasks");
            if n == 2000 && at_least == 64 {
                assert!(tasks.len() >= 64, "{} tasks", tasks.len());
            }
        }
    }
}
for_each_vector!(pair_tasks_cover_the_pairs_once);

// Closest, any and all hits of random rays, and the batch call, equal brute force over
// every box; between 30% and 70% of the rays hit something.
fn rays_match_brute_force<V: Vector>() {
    let mut rng = Rng(0x5eed_0102);
    let world = if V::DIM == 2 { 40.0 } else { 10.0 };
    let boxes: Vec<Aabb<V>> = (0..150).map(|_| rng.aabb(0.0, world, 2.0)).collect();
    let all_boxes = indexed(&boxes);
    let bvh = Bvh::build(&boxes);
    let rays: Vec<Ray<V>> = (0..2000).map(|_| rng.ray(0.0, world)).collect();
    let max_t = V::Scalar::from_f64(0.3);
    let mut hits = 0;
    let mut closest_all = Vec::new();
    for ray in &rays {
        let brute = brute_ray(&all_boxes, ray, max_t);
        let prepared = PreparedRay::new(ray, max_t);
        let closest = bvh.cast_ray(ray, max_t, |i, _| {
            prepared.interval(&boxes[i as usize]).map(|h| h.0)
        });
        assert_eq!(closest.map(|c| c.1), min_t(&brute));
        if let Some(c) = closest {
            assert!(brute.contains(&c));
            hits += 1;
        }
        closest_all.push(closest);
        assert_eq!(
            bvh.cast_ray_any(ray, max_t, |_| true).is_some(),
            !brute.is_empty()
        );
        let mut all = Vec::new();
        bvh.cast_ray_all(ray, max_t, |i, t| {
            all.push((i, t));
            true
        });
        all.sort_by_key(|h| h.0);
        assert_eq!(all, brute);
    }
    let rate = hits as f64 / rays.len() as f64;
    assert!((0.3..0.7).contains(&rate), "hit rate {rate}");
    let batch = bvh.cast_rays(&rays, max_t, |k, i, _| {
        PreparedRay::new(&rays[k], max_t)
            .interval(&boxes[i as usize])
            .map(|h| h.0)
    });
    assert_eq!(batch, closest_all);
}
for_each_vector!(rays_match_brute_force);

// The batch walks several rays at once: for batches smaller and larger than the number
// in flight, with non-finite rays (nothing to walk) mixed in, each ray's answer and its
// own sequence of leaf calls equal those of `cast_ray`.
fn batch_interleaves_rays_like_single_casts<V: Vector>() {
    let mut rng = Rng(0x5eed_0109);
    let world = if V::DIM == 2 { 40.0 } else { 10.0 };
    let boxes: Vec<Aabb<V>> = (0..300).map(|_| rng.aabb(0.0, world, 2.0)).collect();
    let bvh = Bvh::build(&boxes);
    let max_t = V::Scalar::from_f64(0.5);
    let nan_ray = Ray {
        origin: V::splat(V::Scalar::from_f64(f64::NAN)),
        dir: V::splat(V::Scalar::ONE),
    };
    let leaf = |ray: &Ray<V>, i: u32| {
        PreparedRay::new(ray, max_t)
            .interval(&boxes[i as usize])
            .map(|h| h.0)
    };
    for n in [0, 1, 3, 7, 8, 9, 17, 200] {
        let rays: Vec<Ray<V>> = (0..n)
            .map(|k| match k % 5 {
                2 => nan_ray,
                _ => rng.ray(0.0, world),
            })
            .collect();
        let mut calls = vec![Vec::new(); n];
        let batch = bvh.cast_rays(&rays, max_t, |k, i, best| {
            calls[k].push((i, best));
            leaf(&rays[k], i)
        });
        for (k, ray) in rays.iter().enumerate() {
            let mut single_calls = Vec::new();
            let single = bvh.cast_ray(ray, max_t, |i, best| {
                single_calls.push((i, best));
                leaf(ray, i)
            });
            assert_eq!(batch[k], single, "ray {k} of {n}");
            assert_eq!(calls[k], single_calls, "ray {k} of {n}");
            if k % 5 == 2 {
                assert!(single_calls.is_empty() && single.is_none());
            }
        }
    }
    // A NaN max_t walks nothing for any ray.
    let rays: Vec<Ray<V>> = (0..20).map(|_| rng.ray(0.0, world)).collect();
    let nan_t = V::Scalar::from_f64(f64::NAN);
    let none = bvh.cast_rays(&rays, nan_t, |_, _, _| panic!("no leaf test"));
    assert_eq!(none, vec![None; 20]);
}
for_each_vector!(batch_interleaves_rays_like_single_casts);

// Region queries equal brute force; returning false stops at the first report.
fn region_queries<V: Vector>() {
    let mut rng = Rng(0x5eed_0103);
    let boxes: Vec<Aabb<V>> = (0..300).map(|_| rng.aabb(0.0, 30.0, 2.0)).collect();
    let bvh = Bvh::build(&boxes);
    for _ in 0..300 {
        let q = rng.aabb::<V>(0.0, 30.0, 6.0);
        let mut got = BTreeSet::new();
        bvh.query(&q, |i| got.insert(i));
        let want: BTreeSet<u32> = (0..boxes.len() as u32)
            .filter(|&i| boxes[i as usize].intersects(&q))
            .collect();
        assert_eq!(got, want);
        let mut calls = 0;
        bvh.query(&q, |_| {
            calls += 1;
            false
        });
        assert_eq!(calls, want.len().min(1));
    }
}
for_each_vector!(region_queries);

// A scene larger than the build's coarse-binning threshold (its top splits use fewer
// bins): the structure validates, and region queries and closest hits equal brute force.
fn large_scene_matches_brute_force<V: Vector>() {
    let mut rng = Rng(0x5eed_0108);
    let world = if V::DIM == 2 { 300.0 } else { 60.0 };
    let boxes: Vec<Aabb<V>> = (0..6000).map(|_| rng.aabb(0.0, world, 2.0)).collect();
    let all_boxes = indexed(&boxes);
    let bvh = Bvh::build(&boxes);
    bvh.validate().unwrap();
    for _ in 0..100 {
        let q = rng.aabb::<V>(0.0, world, 8.0);
        let mut got = BTreeSet::new();
        bvh.query(&q, |i| got.insert(i));
        let want: BTreeSet<u32> = (0..boxes.len() as u32)
            .filter(|&i| boxes[i as usize].intersects(&q))
            .collect();
        assert_eq!(got, want);
        let ray = rng.ray::<V>(0.0, world);
        let max_t = V::Scalar::from_f64(0.2);
        let prepared = PreparedRay::new(&ray, max_t);
        let closest = bvh.cast_ray(&ray, max_t, |i, _| {
            prepared.interval(&boxes[i as usize]).map(|h| h.0)
        });
        assert_eq!(
            closest.map(|c| c.1),
            min_t(&brute_ray(&all_boxes, &ray, max_t))
        );
    }
}
for_each_vector!(large_scene_matches_brute_force);

// Degenerate scenes: points on a lattice (coincident ones pair), identical boxes (all
// pairs), boxes near 1e6, exponentially spaced boxes (deep SAH splits), rays along grid
// lines with zero direction components: all agree with brute force.
fn degenerate_scenes<V: Vector>() {
    let mut rng = Rng(0x5eed_0104);
    let lattice: Vec<Aabb<V>> = (0..80)
        .map(|_| {
            let p = (0..V::DIM).fold(V::ZERO, |v, i| {
                v.with(i, V::Scalar::from_f64(rng.below(4) as f64))
            });
            Aabb::new(p, p).unwrap()
        })
        .collect();
    let same = vec![Aabb::new(V::ZERO, V::splat(V::Scalar::ONE)).unwrap(); 60];
    let far: Vec<Aabb<V>> = (0..200).map(|_| rng.aabb(1e6, 50.0, 3.0)).collect();
    // Geometric spacing up to 1.5^44 · 1.2 ≈ 1e8, within `f32`'s `Real::MAX_COORD`.
    let spaced: Vec<Aabb<V>> = (0..45)
        .map(|k| {
            let x = 1.5f64.powi(k);
            Aabb::new(
                V::splat(V::Scalar::from_f64(x)),
                V::splat(V::Scalar::from_f64(x * 1.2)),
            )
            .unwrap()
        })
        .collect();
    for boxes in [lattice, same, far, spaced] {
        let bvh = Bvh::build(&boxes);
        bvh.validate().unwrap();
        assert_eq!(bvh_pairs(&bvh), brute_pairs(&indexed(&boxes)));
        // Axis-aligned rays through lattice points (origins on slab planes).
        let all = indexed(&boxes);
        for axis in 0..V::DIM {
            let origin = boxes[0].min - V::unit_axis(axis) * V::Scalar::from_f64(10.0);
            let ray = Ray::new(origin, V::unit_axis(axis)).unwrap();
            let t = bvh.cast_ray(&ray, V::Scalar::INFINITY, |i, _| {
                PreparedRay::new(&ray, V::Scalar::MAX)
                    .interval(&boxes[i as usize])
                    .map(|h| h.0)
            });
            assert_eq!(
                t.map(|h| h.1),
                min_t(&brute_ray(&all, &ray, V::Scalar::MAX))
            );
            assert!(t.is_some(), "the ray runs into box 0");
        }
    }
}
for_each_vector!(degenerate_scenes);

// Empty input, NaN / infinite / inverted boxes (left out, never reported), NaN query
// boxes and rays (nothing found), refit to a NaN box (that item drops out).
fn bad_input_is_ignored<V: Vector>() {
    let empty = Bvh::<V>::build(&[]);
    empty.validate().unwrap();
    assert!(empty.is_empty() && empty.root_aabb().is_none());
    let unit = Aabb::new(V::ZERO, V::splat(V::Scalar::ONE)).unwrap();
    let ray = Ray::new(
        V::splat(V::Scalar::from_f64(-1.0)),
        V::splat(V::Scalar::ONE),
    )
    .unwrap();
    assert!(empty
        .cast_ray(&ray, V::Scalar::INFINITY, |_, t| Some(t))
        .is_none());
    empty.for_each_pair(|_, _| panic!("no pairs"));

    let nan_v = V::splat(V::Scalar::from_f64(f64::NAN));
    let nan = Aabb {
        min: nan_v,
        max: nan_v,
    };
    let inf = Aabb {
        min: V::ZERO,
        max: V::splat(V::Scalar::INFINITY),
    };
    let inverted = Aabb {
        min: V::splat(V::Scalar::ONE),
        max: V::ZERO,
    };
    let mut boxes = vec![unit, nan, inf, inverted, unit];
    let mut bvh = Bvh::build(&boxes);
    bvh.validate().unwrap();
    assert_eq!(bvh.len(), 2);
    assert_eq!(bvh_pairs(&bvh), BTreeSet::from([(0, 4)]));
    bvh.query(&nan, |_| panic!("a NaN box overlaps nothing"));
    let nan_ray = Ray {
        origin: nan_v,
        dir: V::splat(V::Scalar::ONE),
    };
    assert!(bvh
        .cast_ray(&nan_ray, V::Scalar::INFINITY, |_, t| Some(t))
        .is_none());
    assert!(bvh
        .cast_ray(&ray, V::Scalar::from_f64(f64::NAN), |_, t| Some(t))
        .is_none());
    assert!(bvh
        .cast_ray(&ray, V::Scalar::from_f64(-1.0), |_, t| Some(t))
        .is_none());
    // A zero-direction ray outside every box misses, even with max_t = ∞.
    let still = Ray::new(V::splat(V::Scalar::from_f64(-1.0)), V::ZERO).unwrap();
    assert!(bvh
        .cast_ray(&still, V::Scalar::INFINITY, |_, t| Some(t))
        .is_none());
    boxes[4] = nan;
    bvh.refit(&boxes);
    bvh.validate().unwrap();
    assert!(bvh_pairs(&bvh).is_empty());
    bvh.refit(&boxes[..1]);
    bvh.validate().unwrap();
}
for_each_vector!(bad_input_is_ignored);

// Differential test against parry3d's `Bvh` on 3,000 seeded random rays: both find a
// closest hit for the same rays, at the same t (exact box tests on both sides), with
// a hit rate between 30% and 70%.
#[test]
fn closest_hits_match_parry() {
    use glam::Vec3;
    use parry3d::bounding_volume::Aabb as PAabb;
    use parry3d::partitioning::{Bvh as PBvh, BvhBuildStrategy};
    use parry3d::query::{Ray as PRay, RayCast};
    let mut rng = Rng(0x5eed_0105);
    let boxes: Vec<Aabb<Vec3>> = (0..500).map(|_| rng.aabb(0.0, 20.0, 2.0)).collect();
    let pboxes: Vec<PAabb> = boxes.iter().map(|b| PAabb::new(b.min, b.max)).collect();
    let ours = Bvh::build(&boxes);
    let theirs = PBvh::from_leaves(BvhBuildStrategy::Binned, &pboxes);
    let mut hits = 0;
    for _ in 0..3000 {
        let ray = rng.ray::<Vec3>(0.0, 20.0);
        let max_t = 0.25;
        let prepared = PreparedRay::new(&ray, max_t);
        let a = ours.cast_ray(&ray, max_t, |i, _| {
            prepared.interval(&boxes[i as usize]).map(|h| h.0)
        });
        let pray = PRay::new(ray.origin, ray.dir);
        let b = theirs.cast_ray(&pray, max_t, |i, best| {
            pboxes[i as usize].cast_local_ray(&pray, best, true)
        });
        assert_eq!(a.is_some(), b.is_some(), "ray {ray:?}");
        if let (Some((_, ta)), Some((_, tb))) = (a, b) {
            // Two slab implementations: equal up to a few ulps of the ray length.
            assert!((ta - tb).abs() <= 1e-5 * (1.0 + ta.abs()), "t {ta} vs {tb}");
            hits += 1;
        }
    }
    let rate = hits as f64 / 3000.0;
    assert!((0.3..0.7).contains(&rate), "hit rate {rate}");
}

mod property {
    use super::*;
    use glam::IVec3;
    use glam::Vec3;
    use proptest::prelude::*;

    fn boxes_from(cells: &[(i32, i32, i32, i32)]) -> Vec<Aabb<Vec3>> {
        cells
            .iter()
            .map(|&(x, y, z, s)| {
                let min = IVec3::new(x, y, z).as_vec3();
                Aabb::new(min, min + Vec3::splat(s as f32)).unwrap()
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        // Translating every box by one integer vector (exact in f32 at these scales)
        // leaves the pair set unchanged, and it always equals brute force.
        #[test]
        fn pairs_are_translation_invariant(
            cells in prop::collection::vec((0i32..12, 0i32..12, 0i32..12, 0i32..3), 0..80),
            shift in (-1000i32..1000, -1000i32..1000, -1000i32..1000),
        ) {
            let boxes = boxes_from(&cells);
            let offset = IVec3::new(shift.0, shift.1, shift.2).as_vec3();
            let moved: Vec<Aabb<Vec3>> = boxes.iter().map(|b| Aabb { min: b.min + offset, max: b.max + offset }).collect();
            let a = bvh_pairs(&Bvh::build(&boxes));
            prop_assert_eq!(&a, &brute_pairs(&indexed(&boxes)));
            prop_assert_eq!(a, bvh_pairs(&Bvh::build(&moved)));
        }
    }
}

// Memory per object of the three broad-phase structures over random scenes of 1,000 and
// 10,000 boxes: non-zero, between a box's own size and a few hundred bytes, and growing
// linearly (ten times the boxes, five to twenty times the bytes); empty structures hold
// no node memory.
fn memory_per_object_is_plausible<V: Vector>() {
    use isect::broad::{DynamicTree, SweepAndPrune};
    let mut rng = Rng(0x3e3_0b1e);
    let box_bytes = core::mem::size_of::<Aabb<V>>();
    let mut per_size = Vec::new();
    for n in [1_000usize, 10_000] {
        let world = world_side::<V>(n, 2.0);
        let boxes: Vec<Aabb<V>> = (0..n).map(|_| rng.aabb(0.0, world, 2.0)).collect();
        let bvh = Bvh::build(&boxes);
        let mut tree = DynamicTree::new();
        let mut sap = SweepAndPrune::new(0).unwrap();
        for (k, b) in boxes.iter().enumerate() {
            tree.insert(*b, k as u32).unwrap();
            sap.insert(*b).unwrap();
        }
        sap.update();
        let bytes = [bvh.heap_bytes(), tree.heap_bytes(), sap.heap_bytes()];
        for (what, b) in ["bvh", "tree", "sap"].iter().zip(bytes) {
            let per = b / n;
            assert!(
                (box_bytes..=16 * box_bytes + 256).contains(&per),
                "{what}: {per} bytes per object for {n} boxes of {box_bytes} bytes"
            );
        }
        per_size.push(bytes);
    }
    for (k, (small, large)) in per_size[0].iter().zip(&per_size[1]).enumerate() {
        let growth = *large as f64 / *small as f64;
        assert!((5.0..20.0).contains(&growth), "structure {k}: x{growth}");
    }
    assert_eq!(Bvh::<V>::build(&[]).heap_bytes(), 0);
}
for_each_vector!(memory_per_object_is_plausible);
