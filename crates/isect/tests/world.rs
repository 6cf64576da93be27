//! The collision world against brute force over every shape: touching pairs and their
//! start / stop events after random moves, inserts and removes; ray casts (closest,
//! any, all, batches); shape casts; point, box and shape queries; filters; bad input.
//! With `--features parallel` the same tests check that the parallel narrow phase and
//! batches equal the serial answers in the same order.

mod world_common;
#[macro_use]
#[path = "support/for_each_vector.rs"]
mod for_each_vector;

use isect::math::{Isometry, Real};
use isect::query::dispatch::DispatchShape;
use isect::query::{dispatch, distance, RayCast};
use isect::shape::{Aabb, Ball, Ray};
use isect::world::{Filter, Handle, World};
use std::collections::BTreeSet;
use world_common::*;

/// Shapes in a scene.
const SHAPES: usize = 60;
/// Half the side of the scene's cube.
const HALF: f64 = 3.0;

fn insert_random<V: TestDim>(world: &mut World<V, V::S>, rng: &mut Rng) -> Handle {
    let shape = V::shape(rng.below(V::KINDS), rng, 1.0);
    world
        .insert(shape, V::pose(rng, HALF), random_filter(rng))
        .unwrap()
}

/// Every touching pair by brute force over all pairs of live shapes.
fn brute_pairs<V: TestDim>(world: &World<V, V::S>) -> BTreeSet<(Handle, Handle)> {
    brute_pairs_within(world, 0.0)
}

/// Every pair within `prediction` by brute force over all pairs of live shapes.
fn brute_pairs_within<V: TestDim>(
    world: &World<V, V::S>,
    prediction: f64,
) -> BTreeSet<(Handle, Handle)> {
    let prediction = V::Scalar::from_f64(prediction);
    let hs: Vec<Handle> = world.handles().collect();
    let mut out = BTreeSet::new();
    for (i, &a) in hs.iter().enumerate() {
        for &b in &hs[i + 1..] {
            let allowed = world.filter(a).unwrap().allows(&world.filter(b).unwrap());
            let (sa, pa) = (world.shape(a).unwrap(), world.pose(a).unwrap());
            let (sb, pb) = (world.shape(b).unwrap(), world.pose(b).unwrap());
            if allowed && dispatch::contact(pa, sa, pb, sb, prediction).is_some() {
                out.insert((a, b));
            }
        }
    }
    out
}

/// Pairs and events equal brute force over 6 steps of random moves, inserts, removes.
fn pairs_match_brute_force<V: TestDim>() {
    pairs_match_brute_force_with_margin::<V>(0.0);
}

/// The same with a broad-phase margin of 0.2: shapes that move less keep their fat box
/// and their kept pairs (the incremental path), the others are re-queried.
fn pairs_with_broad_margin_match_brute_force<V: TestDim>() {
    pairs_match_brute_force_with_margin::<V>(0.2);
}

fn pairs_match_brute_force_with_margin<V: TestDim>(margin: f64) {
    let mut rng = Rng(11);
    let mut world = World::<V, V::S>::new();
    world.set_broad_margin(V::Scalar::from_f64(margin)).unwrap();
    let mut handles: Vec<Handle> = (0..SHAPES)
        .map(|_| insert_random::<V>(&mut world, &mut rng))
        .collect();
    let mut before = BTreeSet::new();
    let mut total_pairs = 0;
    for step in 0..6 {
        let events = world.update();
        let now = brute_pairs(&world);
        let got: BTreeSet<_> = world.contacts().iter().map(|c| (c.a, c.b)).collect();
        assert_eq!(got, now, "pairs at step {step}");
        let started: BTreeSet<_> = now.difference(&before).copied().collect();
        let stopped: BTreeSet<_> = before.difference(&now).copied().collect();
        assert_eq!(
            events.started.iter().copied().collect::<BTreeSet<_>>(),
            started,
            "started {step}"
        );
        assert_eq!(
            events.stopped.iter().copied().collect::<BTreeSet<_>>(),
            stopped,
            "stopped {step}"
        );
        assert!(
            events.started.windows(2).all(|w| w[0] < w[1]),
            "sorted events"
        );
        for c in world.contacts() {
            let (sa, pa) = (world.shape(c.a).unwrap(), world.pose(c.a).unwrap());
            let (sb, pb) = (world.shape(c.b).unwrap(), world.pose(c.b).unwrap());
            assert_eq!(
                Some(c.contact),
                dispatch::contact(pa, sa, pb, sb, V::Scalar::ZERO)
            );
        }
        total_pairs += now.len();
        before = now;
        // Move a quarter of the shapes by up to 0.5 and a quarter by up to 0.05 (inside
        // a 0.2 margin); remove 5 and insert 5.
        for &h in &handles {
            let reach = match rng.below(4) {
                0 => 0.5,
                1 => 0.05,
                _ => continue,
            };
            let p = *world.pose(h).unwrap();
            let moved = V::Pose::from_translation(rand_vec::<V>(&mut rng, reach)).mul(&p);
            world.set_pose(h, moved).unwrap();
        }
        for _ in 0..5 {
            let h = handles.swap_remove(rng.below(handles.len()));
            assert!(world.remove(h).is_ok());
            assert!(world.shape(h).is_none(), "stale handle answers None");
            handles.push(insert_random::<V>(&mut world, &mut rng));
        }
    }
    assert!(total_pairs > 20, "scenes too sparse: {total_pairs} pairs");
}

/// Update statistics: a second update with nothing changed re-queries nothing, runs no
/// narrow-phase query and keeps the pairs; a filter change takes effect without any
/// move (the shape alone is re-queried); counts are ordered broad ≥ candidates ≥
/// contacts.
fn update_stats_and_unmoved_updates<V: TestDim>() {
    let mut rng = Rng(12);
    let mut world = World::<V, V::S>::new();
    world.set_broad_margin(V::Scalar::from_f64(0.1)).unwrap();
    let handles: Vec<Handle> = (0..SHAPES)
        .map(|_| insert_random::<V>(&mut world, &mut rng))
        .collect();
    world.update();
    let first = world.update_stats();
    assert_eq!(first.moved, SHAPES, "every new shape is queried");
    assert!(first.broad_pairs >= first.candidates && first.candidates >= first.contacts);
    assert_eq!(first.contacts, world.contacts().len());
    assert!(first.contacts > 5, "scene too sparse: {}", first.contacts);
    let before = world.contacts().to_vec();
    let events = world.update();
    let second = world.update_stats();
    assert_eq!(second.moved, 0);
    assert_eq!(second.candidates, 0, "unmoved pairs keep their contacts");
    assert_eq!(second.broad_pairs, first.broad_pairs);
    assert_eq!(world.contacts(), &before[..]);
    assert!(events.started.is_empty() && events.stopped.is_empty());
    // A shape that interacts with nothing loses its pairs with no move at all.
    let (a, _) = (before[0].a, before[0].b);
    world.set_filter(a, Filter { group: 0, mask: 0 }).unwrap();
    let events = world.update();
    assert!(events.stopped.iter().all(|&(x, y)| x == a || y == a));
    assert!(!events.stopped.is_empty());
    assert_eq!(world.update_stats().moved, 1);
    assert_eq!(
        world
            .contacts()
            .iter()
            .map(|c| (c.a, c.b))
            .collect::<BTreeSet<_>>(),
        brute_pairs(&world)
    );
    // A NaN or negative margin is refused and changes nothing.
    assert!(world
        .set_broad_margin(V::Scalar::from_f64(f64::NAN))
        .is_err());
    assert!(world.set_broad_margin(-V::Scalar::ONE).is_err());
    assert_eq!(handles.len(), world.len());
}

/// A moving shape's fat box reaches ahead along its last move: a ball moving by 0.15 a
/// step keeps its fat box (margin 0.1) on the next steps (nothing re-queried) and
/// still starts touching the static ball it reaches. The reach is bounded: a ball
/// teleported to just short of a row of static balls pairs with none of them.
fn fat_boxes_reach_ahead<V: TestDim>() {
    let mut world = World::<V, V::S>::new();
    world.set_broad_margin(V::Scalar::from_f64(0.1)).unwrap();
    let at = |x: f64| V::Pose::from_translation(V::ZERO.with(0, V::Scalar::from_f64(x)));
    let ball = || V::S::from(Ball::new(V::ZERO, V::Scalar::HALF).unwrap());
    let moving = world.insert(ball(), at(0.0), Filter::ALL).unwrap();
    let ahead = world.insert_static(ball(), at(1.4), Filter::ALL).unwrap();
    world.update();
    world.set_pose(moving, at(0.15)).unwrap();
    world.update();
    assert_eq!(world.update_stats().moved, 1, "left its fat box");
    assert!(world.contacts().is_empty());
    for x in [0.3, 0.45] {
        world.set_pose(moving, at(x)).unwrap();
        let events = world.update();
        assert_eq!(
            world.update_stats().moved,
            0,
            "inside its stretched fat box at {x}"
        );
        assert_eq!(events.started.is_empty(), x < 0.4, "at {x}");
    }
    assert!(world.contact(moving, ahead).is_some());
    for k in 0..40 {
        world
            .insert_static(ball(), at(103.0 + 2.0 * k as f64), Filter::ALL)
            .unwrap();
    }
    world.update();
    world.set_pose(moving, at(100.0)).unwrap();
    world.update();
    assert_eq!(
        world.update_stats().broad_pairs,
        0,
        "a teleport's fat box is short"
    );
}

/// A world with a contact prediction of 0.3 reports every pair within 0.3 (speculative
/// contacts with depth down to −0.3), as brute force does.
fn predicted_pairs_match_brute_force<V: TestDim>() {
    let mut rng = Rng(15);
    let mut world = World::<V, V::S>::with_prediction(V::Scalar::from_f64(0.3)).unwrap();
    for _ in 0..SHAPES {
        insert_random::<V>(&mut world, &mut rng);
    }
    world.update();
    let got: BTreeSet<_> = world.contacts().iter().map(|c| (c.a, c.b)).collect();
    assert_eq!(got, brute_pairs_within(&world, 0.3));
    assert!(
        got.len() > brute_pairs(&world).len(),
        "prediction adds separated pairs"
    );
    assert!(world
        .contacts()
        .iter()
        .any(|c| c.contact.depth < V::Scalar::ZERO));
}

/// 500 shapes (enough for the `parallel` feature to split the narrow phase over
/// threads): the contacts equal a serial all-pairs pass (with a box
/// pre-check, exact on tight boxes) computing each contact itself. The bulk load, and
/// then moving every shape, each make the update rebuild the tree first: the contacts
/// still equal the serial pass.
fn many_shapes_equal_serial<V: TestDim>() {
    let n = 500;
    let half = HALF * (n as f64 / SHAPES as f64).powf(1.0 / V::DIM as f64);
    let mut rng = Rng(16);
    let mut world = World::<V, V::S>::new();
    for _ in 0..n {
        let shape = V::shape(rng.below(V::KINDS), &mut rng, 1.0);
        world
            .insert(shape, V::pose(&mut rng, half), random_filter(&mut rng))
            .unwrap();
    }
    world.update();
    assert_contacts_equal_serial(&world);
    let handles: Vec<Handle> = world.handles().collect();
    for &h in &handles {
        let p = *world.pose(h).unwrap();
        let moved = V::Pose::from_translation(rand_vec::<V>(&mut rng, 0.5)).mul(&p);
        world.set_pose(h, moved).unwrap();
    }
    world.update();
    assert_contacts_equal_serial(&world);
}

/// With the `parallel` feature, rayon pools of 1 and 3 threads give the same contacts
/// in the same order, and the same events, through a bulk load, a frame in which
/// every shape moves (one traversal of the tree) and one in which a few move (a query
/// each): both phases are cut into tasks whatever the thread count.
#[cfg(feature = "parallel")]
fn thread_count_keeps_order<V: TestDim>() {
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let n = 800;
            let half = HALF * (n as f64 / SHAPES as f64).powf(1.0 / V::DIM as f64);
            let mut rng = Rng(23);
            let mut world = World::<V, V::S>::new();
            for _ in 0..n {
                let shape = V::shape(rng.below(V::KINDS), &mut rng, 1.0);
                world
                    .insert(shape, V::pose(&mut rng, half), Filter::ALL)
                    .unwrap();
            }
            let mut frames = vec![(world.update(), world.contacts().to_vec())];
            let handles: Vec<Handle> = world.handles().collect();
            for step in [1, 7] {
                for &h in handles.iter().step_by(step) {
                    let p = *world.pose(h).unwrap();
                    let moved = V::Pose::from_translation(rand_vec::<V>(&mut rng, 0.5)).mul(&p);
                    world.set_pose(h, moved).unwrap();
                }
                frames.push((world.update(), world.contacts().to_vec()));
            }
            frames
        })
    };
    let one = run(1);
    assert!(one.iter().all(|(_, contacts)| contacts.len() > 100));
    assert_eq!(one, run(3));
}
#[cfg(feature = "parallel")]
for_each_vector!(thread_count_keeps_order);

fn assert_contacts_equal_serial<V: TestDim>(world: &World<V, V::S>) {
    let hs: Vec<Handle> = world.handles().collect();
    let mut serial = Vec::new();
    for (i, &a) in hs.iter().enumerate() {
        for &b in &hs[i + 1..] {
            let boxes = world.aabb(a).unwrap().intersects(world.aabb(b).unwrap());
            let allowed = world.filter(a).unwrap().allows(&world.filter(b).unwrap());
            if !(boxes && allowed) {
                continue;
            }
            let (sa, pa) = (world.shape(a).unwrap(), world.pose(a).unwrap());
            let (sb, pb) = (world.shape(b).unwrap(), world.pose(b).unwrap());
            if let Some(c) = dispatch::contact(pa, sa, pb, sb, V::Scalar::ZERO) {
                serial.push((a, b, c));
            }
        }
    }
    let mut got: Vec<_> = world
        .contacts()
        .iter()
        .map(|c| (c.a, c.b, c.contact))
        .collect();
    got.sort_by_key(|&(a, b, _)| (a, b));
    assert!(serial.len() > 100, "too few pairs: {}", serial.len());
    assert_eq!(got, serial);
}

/// A random ray through the scene.
fn random_ray<V: TestDim>(rng: &mut Rng) -> Ray<V> {
    let origin: V = rand_vec(rng, HALF + 1.0);
    let target: V = rand_vec(rng, HALF);
    // The 2D scene is denser: shorter rays keep the hit rate near one half.
    let reach = if V::DIM == 2 { 0.2 } else { 1.0 };
    Ray {
        origin,
        dir: (target - origin) * s::<V>(reach),
    }
}

fn scene<V: TestDim>(seed: u64) -> (World<V, V::S>, Rng) {
    let mut rng = Rng(seed);
    let mut world = World::<V, V::S>::new();
    for _ in 0..SHAPES {
        insert_random::<V>(&mut world, &mut rng);
    }
    world.update();
    (world, rng)
}

/// The brute-force closest hit over every shape allowed by `filter`: (t, handle).
fn brute_ray<V: TestDim>(
    w: &World<V, V::S>,
    ray: &Ray<V>,
    max_t: V::Scalar,
    f: Filter,
) -> Vec<(f64, Handle)> {
    let mut hits: Vec<(f64, Handle)> = w
        .handles()
        .filter(|&h| w.filter(h).unwrap().allows(&f))
        .filter_map(|h| {
            let hit = w
                .shape(h)
                .unwrap()
                .cast_ray_posed(w.pose(h).unwrap(), ray, max_t)?;
            Some((hit.t.to_f64(), h))
        })
        .collect();
    hits.sort_by(|a, b| a.partial_cmp(b).unwrap());
    hits
}

/// Closest, any, all and batch ray casts equal brute force, with filters.
fn rays_match_brute_force<V: TestDim>() {
    let (world, mut rng) = scene::<V>(12);
    let max_t = V::Scalar::ONE;
    let (mut hits, mut rays) = (0, Vec::new());
    for _ in 0..200 {
        let ray = random_ray::<V>(&mut rng);
        let filter = if rng.below(2) == 0 {
            Filter::ALL
        } else {
            random_filter(&mut rng)
        };
        let brute = brute_ray(&world, &ray, max_t, filter);
        let got = world.cast_ray(&ray, max_t, filter);
        match (got, brute.first()) {
            (Some(g), Some(&(t, h))) => {
                let gt = g.hit.t.to_f64();
                assert!((gt - t).abs() <= tol::<V>(), "closest t {gt} vs {t}");
                assert!(
                    g.handle == h || (gt - t).abs() <= tol::<V>(),
                    "closest handle"
                );
                assert!(
                    world.filter(g.handle).unwrap().allows(&filter),
                    "filter ignored"
                );
                hits += 1;
            }
            (None, None) => {}
            (g, b) => panic!("closest: world {g:?} vs brute {b:?}"),
        }
        let any = world.cast_ray_any(&ray, max_t, filter);
        assert_eq!(any.is_some(), !brute.is_empty(), "any");
        if let Some(h) = any {
            assert!(
                brute.iter().any(|&(_, b)| b == h),
                "any names a shape that is hit"
            );
        }
        let all: BTreeSet<Handle> = world
            .cast_ray_all(&ray, max_t, filter)
            .iter()
            .map(|h| h.handle)
            .collect();
        assert_eq!(all, brute.iter().map(|&(_, h)| h).collect(), "all hits");
        rays.push(ray);
    }
    assert_hit_rate(hits, rays.len(), "world rays");
    let batch = world.cast_rays(&rays, max_t, Filter::ALL);
    let serial: Vec<_> = rays
        .iter()
        .map(|r| world.cast_ray(r, max_t, Filter::ALL))
        .collect();
    assert_eq!(batch, serial, "batch equals one-by-one, in order");
}

/// Batch ray casts through the cached SIMD snapshot equal one-by-one casts and brute
/// force, with and without filters, on a static scene (built once, then reused), after
/// moves, removals and inserts (each of which must drop the snapshot), and for a batch
/// too small to build one.
fn batch_snapshot_matches_serial<V: TestDim>() {
    let (mut world, mut rng) = scene::<V>(21);
    let max_t = V::Scalar::ONE;
    let rays: Vec<Ray<V>> = (0..120).map(|_| random_ray::<V>(&mut rng)).collect();
    let filter = random_filter(&mut rng);
    let check = |world: &World<V, V::S>, rays: &[Ray<V>], filter: Filter, what: &str| {
        let batch = world.cast_rays(rays, max_t, filter);
        // A pose set to itself drops the snapshot: `tree` answers from the tree.
        let mut tree = world.clone();
        let first = tree.handles().next();
        if let Some(h) = first {
            let pose = *tree.pose(h).unwrap();
            tree.set_pose(h, pose).unwrap();
        }
        let mut hits = 0;
        for (ray, got) in rays.iter().zip(&batch) {
            assert_eq!(*got, world.cast_ray(ray, max_t, filter), "{what}: serial");
            assert_eq!(*got, tree.cast_ray(ray, max_t, filter), "{what}: tree");
            let brute = brute_ray(world, ray, max_t, filter);
            assert_eq!(got.is_some(), !brute.is_empty(), "{what}: brute hit");
            if let (Some(g), Some(&(t, _))) = (got, brute.first()) {
                assert!((g.hit.t.to_f64() - t).abs() <= tol::<V>(), "{what}: t");
                hits += 1;
            }
        }
        hits
    };
    let hits = check(&world, &rays, Filter::ALL, "static");
    assert_hit_rate(hits, rays.len(), "snapshot rays");
    check(&world, &rays, Filter::ALL, "static, cached");
    check(&world, &rays, filter, "filtered");
    let handles: Vec<Handle> = world.handles().collect();
    for &h in handles.iter().step_by(3) {
        let pose = V::pose(&mut rng, HALF);
        world.set_pose(h, pose).unwrap();
    }
    check(&world, &rays, Filter::ALL, "after moves");
    for &h in handles.iter().step_by(4) {
        world.remove(h).unwrap();
    }
    check(&world, &rays, Filter::ALL, "after removals");
    for _ in 0..10 {
        insert_random::<V>(&mut world, &mut rng);
    }
    check(&world, &rays, filter, "after inserts");
    // Two rays for 55 shapes: below the snapshot threshold, the tree answers.
    let mut fresh = world.clone();
    let moved = fresh.handles().next().unwrap();
    fresh.set_pose(moved, V::pose(&mut rng, HALF)).unwrap();
    check(&fresh, &rays[..2], Filter::ALL, "small batch");
    // The empty world and non-finite rays find nothing.
    let empty = World::<V, V::S>::new();
    assert!(empty
        .cast_rays(&rays, max_t, Filter::ALL)
        .iter()
        .all(Option::is_none));
    let bad = Ray {
        origin: rays[0].origin,
        dir: rays[0].dir * s::<V>(f64::NAN),
    };
    assert_eq!(
        world.cast_rays(&[bad; 40], max_t, Filter::ALL),
        vec![None; 40]
    );
}

/// Point, box and shape overlap queries and shape casts equal brute force.
fn region_queries_match_brute_force<V: TestDim>() {
    let (world, mut rng) = scene::<V>(13);
    let all: Vec<Handle> = world.handles().collect();
    let id = V::Pose::IDENTITY;
    for _ in 0..60 {
        let filter = if rng.below(2) == 0 {
            Filter::ALL
        } else {
            random_filter(&mut rng)
        };
        let ok = |h: &Handle| world.filter(*h).unwrap().allows(&filter);
        let p: V = rand_vec(&mut rng, HALF);
        let point = Ball::new(p, V::Scalar::ZERO).unwrap();
        let expect: Vec<Handle> = all
            .iter()
            .copied()
            .filter(ok)
            .filter(|&h| {
                distance::intersects(world.pose(h).unwrap(), world.shape(h).unwrap(), &id, &point)
            })
            .collect();
        assert_eq!(world.shapes_at_point(p, filter), expect, "point");
        let region = Aabb::from_center(p, V::splat(s::<V>(0.5))).unwrap();
        let expect: Vec<Handle> = all
            .iter()
            .copied()
            .filter(ok)
            .filter(|&h| {
                distance::intersects(
                    world.pose(h).unwrap(),
                    world.shape(h).unwrap(),
                    &id,
                    &region,
                )
            })
            .collect();
        assert_eq!(world.shapes_in_aabb(&region, filter), expect, "box");
        let (shape, pose) = (
            V::shape(rng.below(V::KINDS), &mut rng, 1.0),
            V::pose(&mut rng, HALF),
        );
        let expect: Vec<Handle> = all
            .iter()
            .copied()
            .filter(ok)
            .filter(|&h| {
                dispatch::intersects(
                    world.pose(h).unwrap(),
                    world.shape(h).unwrap(),
                    &pose,
                    &shape,
                )
            })
            .collect();
        assert_eq!(
            world.intersecting_shapes(&pose, &shape, filter),
            expect,
            "overlap"
        );
        check_shape_cast(&world, &all, &shape, &pose, rand_vec(&mut rng, 2.0), filter);
    }
}

/// World shape cast: the earliest time over every allowed shape.
fn check_shape_cast<V: TestDim>(
    world: &World<V, V::S>,
    all: &[Handle],
    shape: &V::S,
    pose: &V::Pose,
    vel: V,
    filter: Filter,
) {
    let one = V::Scalar::ONE;
    let best = all
        .iter()
        .filter(|h| world.filter(**h).unwrap().allows(&filter))
        .filter_map(|&h| {
            let hit = dispatch::cast_shapes(
                world.pose(h).unwrap(),
                V::ZERO,
                world.shape(h).unwrap(),
                pose,
                vel,
                shape,
                one,
            )?;
            Some(hit.time.to_f64())
        })
        .fold(None, |m: Option<f64>, t| Some(m.map_or(t, |m| m.min(t))));
    let got = world
        .cast_shape(pose, vel, shape, one, filter)
        .map(|(_, h)| h.time.to_f64());
    match (got, best) {
        (Some(g), Some(b)) => assert!((g - b).abs() <= tol::<V>(), "shape cast {g} vs {b}"),
        (None, None) => {}
        (g, b) => panic!("shape cast: world {g:?} vs brute {b:?}"),
    }
}

/// Bad input: a NaN pose is refused by insert and set_pose (the old pose stays);
/// stale handles answer None / Err; NaN rays, points and boxes find nothing.
fn bad_input<V: TestDim>() {
    let (mut world, mut rng) = scene::<V>(14);
    let nan = V::Pose::from_translation(V::splat(V::Scalar::from_f64(f64::NAN)));
    let shape = V::shape(0, &mut rng, 1.0);
    assert!(world.insert(shape.clone(), nan, Filter::ALL).is_err());
    let h = world.handles().next().unwrap();
    let before = *world.pose(h).unwrap();
    assert!(world.set_pose(h, nan).is_err());
    assert_eq!(*world.pose(h).unwrap(), before);
    world.remove(h).unwrap();
    assert_eq!(
        world.remove(h).err(),
        Some(isect::world::WorldError::StaleHandle(h))
    );
    assert!(world.set_pose(h, before).is_err());
    assert!(world.set_filter(h, Filter::ALL).is_err());
    let reuse = world.insert(shape, before, Filter::ALL).unwrap();
    assert_eq!(reuse.index(), h.index(), "slot reused");
    assert!(
        world.shape(h).is_none(),
        "old handle does not name the new shape"
    );
    let v_nan = V::splat(V::Scalar::from_f64(f64::NAN));
    let ray = Ray {
        origin: v_nan,
        dir: V::splat(V::Scalar::ONE),
    };
    assert!(world.cast_ray(&ray, V::Scalar::ONE, Filter::ALL).is_none());
    assert!(world
        .cast_ray_all(&ray, V::Scalar::ONE, Filter::ALL)
        .is_empty());
    let ok_ray = random_ray::<V>(&mut rng);
    let nan_t = V::Scalar::from_f64(f64::NAN);
    assert!(world.cast_ray(&ok_ray, nan_t, Filter::ALL).is_none());
    assert!(world.cast_ray_all(&ok_ray, nan_t, Filter::ALL).is_empty());
    assert!(world.shapes_at_point(v_nan, Filter::ALL).is_empty());
    assert!(World::<V, V::S>::with_prediction(nan_t).is_err());
    // A filter that matches no group finds nothing.
    let none = Filter { group: 0, mask: 0 };
    assert!(world
        .shapes_in_aabb(
            &Aabb::from_center(V::ZERO, V::splat(s::<V>(10.0))).unwrap(),
            none
        )
        .is_empty());
}

/// Edges of the region queries on a unit cube at the origin: a point on its face and a
/// box touching its face count; a ball cast along x from −3 hits at time 2; an empty
/// world answers nothing.
fn touching_queries<V: TestDim>() {
    let mut world = World::<V, V::S>::new();
    let id = V::Pose::IDENTITY;
    let x = |v: f64| V::ZERO.with(0, s::<V>(v));
    let half = V::splat(s::<V>(0.5));
    let ball: V::S = Ball::new(V::ZERO, s::<V>(0.5)).unwrap().into();
    assert!(world.update().started.is_empty());
    assert!(world
        .cast_shape(&id, x(1.0), &ball, V::Scalar::ONE, Filter::ALL)
        .is_none());
    let cube = world
        .insert(shape_cuboid::<V>(half), id, Filter::ALL)
        .unwrap();
    // A point on the face x = 0.5, and a box whose face lies on it.
    assert_eq!(world.shapes_at_point(x(0.5), Filter::ALL), vec![cube]);
    assert!(world.shapes_at_point(x(0.5001), Filter::ALL).is_empty());
    let touching = Aabb::new(x(0.5), x(1.0) + V::splat(s::<V>(0.1))).unwrap();
    assert_eq!(world.shapes_in_aabb(&touching, Filter::ALL), vec![cube]);
    let start = V::Pose::from_translation(x(-3.0));
    let hit = world
        .cast_shape(&start, x(1.0), &ball, s::<V>(10.0), Filter::ALL)
        .unwrap();
    assert_eq!(hit.0, cube);
    assert!(
        (hit.1.time.to_f64() - 2.0).abs() <= 10.0 * tol::<V>(),
        "{hit:?}"
    );
    // Too short a cast misses; a filter that excludes the cube misses.
    assert!(world
        .cast_shape(&start, x(1.0), &ball, s::<V>(1.9), Filter::ALL)
        .is_none());
    let other = Filter { group: 2, mask: 2 };
    world
        .set_filter(cube, Filter { group: 1, mask: 1 })
        .unwrap();
    assert!(world
        .cast_shape(&start, x(1.0), &ball, s::<V>(10.0), other)
        .is_none());
}

/// A shape's world box after moves that keep its rotation, turn it, or repeat its pose
/// is the box a fresh world gives it at that pose (bit for bit: a kept rotation reuses
/// the turned box, which is how a new pose computes it too), and it is the shape's own
/// world box up to rounding of the coordinates. Every kind of the enum.
fn boxes_follow_moves_and_turns<V: TestDim>() {
    let mut rng = Rng(0x7E57_B0C5);
    for kind in 0..V::KINDS {
        for _ in 0..20 {
            let seed = rng.next_u64();
            let shape = || V::shape(kind, &mut Rng(seed), 1.0);
            let mut world = World::<V, V::S>::new();
            let h = world
                .insert(shape(), V::pose(&mut rng, HALF), Filter::ALL)
                .unwrap();
            let turned = V::pose(&mut rng, HALF);
            let shifted =
                |p: &V::Pose, rng: &mut Rng| p.with_translation(V::pose(rng, HALF).translation());
            let moves = [
                shifted(&world.pose(h).unwrap().clone(), &mut rng),
                turned,
                shifted(&turned, &mut rng),
                shifted(&turned, &mut rng),
            ];
            for (k, pose) in moves.into_iter().chain([moves[3]]).enumerate() {
                world.set_pose(h, pose).unwrap();
                let mut fresh = World::<V, V::S>::new();
                let g = fresh.insert(shape(), pose, Filter::ALL).unwrap();
                let (got, want) = (world.aabb(h).unwrap(), fresh.aabb(g).unwrap());
                assert_eq!(got, want, "kind {kind}, move {k}");
                let own = world.shape(h).unwrap().world_aabb(&pose);
                let tol = V::Scalar::EPSILON * s::<V>(64.0 * (HALF + 2.0));
                let off = (got.min - own.min).abs().max((got.max - own.max).abs());
                assert!(
                    off.max_element() <= tol,
                    "kind {kind}, move {k}: {got:?} against {own:?}"
                );
            }
        }
    }
}

/// A cuboid enum value of half extents `half`.
fn shape_cuboid<V: TestDim>(half: V) -> V::S {
    V::cuboid(Aabb::from_center(V::ZERO, half).unwrap())
}

for_each_vector!(pairs_match_brute_force);
for_each_vector!(pairs_with_broad_margin_match_brute_force);
for_each_vector!(update_stats_and_unmoved_updates);
for_each_vector!(predicted_pairs_match_brute_force);
for_each_vector!(fat_boxes_reach_ahead);
for_each_vector!(rays_match_brute_force);
for_each_vector!(batch_snapshot_matches_serial);
for_each_vector!(region_queries_match_brute_force);
for_each_vector!(bad_input);
for_each_vector!(touching_queries);
for_each_vector!(many_shapes_equal_serial);
for_each_vector!(boxes_follow_moves_and_turns);
