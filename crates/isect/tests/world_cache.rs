//! The world's persistent state against brute force: static and moving shapes, the
//! pair cache under random operation sequences (inserts, moves inside and outside the
//! fat box, removes, filter changes, pair exclusions, margin changes, refused calls),
//! work done only for what moved, manifolds whose impulses persist by feature id,
//! query filters (excluded handles, predicates) and user data. After every call the
//! world passes its validator; after every update its contacts equal a fresh
//! all-pairs computation and its events equal the difference of the touching sets.

mod world_common;
#[macro_use]
#[path = "support/for_each_vector.rs"]
mod for_each_vector;

use isect::math::{Isometry, Real};
use isect::query::cast_shapes::Sweep;
use isect::query::dispatch::DispatchShape;
use isect::query::{dispatch, Contact, ShapeCastOptions};
use isect::shape::{Aabb, Ray};
use isect::world::{Filter, Handle, Motion, QueryFilter, World, WorldError, DIRTY_SCAN_SHARE};
use std::collections::BTreeSet;
use world_common::*;

/// Half the side of the scene's cube.
const HALF: f64 = 3.0;

type Pairs = BTreeSet<(Handle, Handle)>;

/// Every pair that may touch (not both static, filters allow, not excluded) and
/// touches within `prediction`, by brute force; with each pair's fresh contact.
fn brute_contacts<V: TestDim>(
    world: &World<V, V::S>,
    prediction: V::Scalar,
) -> Vec<(Handle, Handle, Contact<V>)> {
    let hs: Vec<Handle> = world.handles().collect();
    let mut out = Vec::new();
    for (i, &a) in hs.iter().enumerate() {
        for &b in &hs[i + 1..] {
            let both_static =
                world.motion(a) == Some(Motion::Static) && world.motion(b) == Some(Motion::Static);
            let allowed = world.filter(a).unwrap().allows(&world.filter(b).unwrap());
            if both_static || !allowed || world.is_pair_excluded(a, b) {
                continue;
            }
            let (sa, pa) = (world.shape(a).unwrap(), world.pose(a).unwrap());
            let (sb, pb) = (world.shape(b).unwrap(), world.pose(b).unwrap());
            if let Some(c) = dispatch::contact(pa, sa, pb, sb, prediction) {
                out.push((a, b, c));
            }
        }
    }
    out
}

/// The world's touching pairs, checked against brute force (same pairs, each contact
/// equal to a fresh query on the same poses) and returned.
fn check_contacts<V: TestDim>(world: &World<V, V::S>, prediction: V::Scalar) -> Pairs {
    let mut got: Vec<_> = world
        .contacts()
        .iter()
        .map(|c| (c.a, c.b, c.contact))
        .collect();
    got.sort_by_key(|&(a, b, _)| (a, b));
    let want = brute_contacts(world, prediction);
    assert_eq!(got.len(), want.len(), "touching pair count");
    for (g, w) in got.iter().zip(&want) {
        assert_eq!((g.0, g.1), (w.0, w.1));
        assert_eq!(g.2, w.2, "a kept contact differs from a fresh query");
    }
    got.iter().map(|&(a, b, _)| (a, b)).collect()
}

/// A random live handle, if any.
fn pick(world_handles: &[Handle], rng: &mut Rng) -> Option<Handle> {
    (!world_handles.is_empty()).then(|| world_handles[rng.below(world_handles.len())])
}

/// One random operation; returns the handle of a shape it removed.
fn random_operation<V: TestDim>(world: &mut World<V, V::S>, rng: &mut Rng) -> Option<Handle> {
    let hs: Vec<Handle> = world.handles().collect();
    match rng.below(10) {
        0 | 1 => {
            let shape = V::shape(rng.below(V::KINDS), rng, 1.0);
            let (pose, filter) = (V::pose(rng, HALF), random_filter(rng));
            let r = if rng.below(2) == 0 {
                world.insert_static(shape, pose, filter)
            } else {
                world.insert(shape, pose, filter)
            };
            r.unwrap();
        }
        2..=4 => {
            // Moves small (inside a fat box) and large.
            let h = pick(&hs, rng)?;
            let step = if rng.below(2) == 0 { 0.02 } else { 1.5 };
            let p = *world.pose(h).unwrap();
            let moved = V::Pose::from_translation(rand_vec::<V>(rng, step)).mul(&p);
            world.set_pose(h, moved).unwrap();
        }
        5 => {
            let h = pick(&hs, rng)?;
            world.remove(h).unwrap();
            return Some(h);
        }
        6 => {
            let h = pick(&hs, rng)?;
            world.set_filter(h, random_filter(rng)).unwrap();
        }
        7 => {
            let (a, b) = (pick(&hs, rng)?, pick(&hs, rng)?);
            let excluded = rng.below(2) == 0;
            world.set_pair_excluded(a, b, excluded).unwrap();
        }
        8 => {
            let margin = [0.0, 0.1, 0.5][rng.below(3)];
            world.set_broad_margin(s::<V>(margin)).unwrap();
        }
        _ => refused_calls_change_nothing(world, rng),
    }
    None
}

/// Refused calls (a stale handle, NaN and non-unit poses, a bad margin) return the
/// named error and leave the world as it was.
fn refused_calls_change_nothing<V: TestDim>(world: &mut World<V, V::S>, rng: &mut Rng) {
    let shape = V::shape(rng.below(V::KINDS), rng, 1.0);
    let stale = world.insert(shape, V::Pose::IDENTITY, Filter::ALL).unwrap();
    world.remove(stale).unwrap();
    let before: Vec<_> = world
        .handles()
        .map(|h| (h, *world.pose(h).unwrap()))
        .collect();
    assert_eq!(
        world.set_pose(stale, V::Pose::IDENTITY),
        Err(WorldError::StaleHandle(stale))
    );
    assert!(matches!(
        world.remove(stale),
        Err(WorldError::StaleHandle(_))
    ));
    if let Some(&(h, _)) = before.first() {
        let nan = V::Pose::from_translation(V::splat(s::<V>(f64::NAN)));
        assert!(matches!(
            world.set_pose(h, nan),
            Err(WorldError::Invalid(_))
        ));
        assert!(matches!(
            world.set_pair_excluded(h, stale, true),
            Err(WorldError::StaleHandle(_))
        ));
    }
    let shape = V::shape(rng.below(V::KINDS), rng, 1.0);
    let far = V::Pose::from_translation(V::splat(s::<V>(f64::INFINITY)));
    assert!(world.insert(shape, far, Filter::ALL).is_err());
    assert!(world.set_broad_margin(s::<V>(-1.0)).is_err());
    let after: Vec<_> = world
        .handles()
        .map(|h| (h, *world.pose(h).unwrap()))
        .collect();
    assert_eq!(before, after);
    world.validate().unwrap();
}

/// Random operation sequences with updates in between, at prediction 0 and 0.1: the
/// contacts equal brute force after every update, the events equal the difference
/// of the touching sets (a removed shape's pairs stop), the validator passes after
/// every call, no static–static pair is ever cached.
fn random_operations_match_brute_force<V: TestDim>() {
    let (mut started_total, mut stopped_total) = (0, 0);
    for (seed, prediction) in [(1u64, 0.0), (2, 0.1), (3, 0.0), (4, 0.1)] {
        let prediction = s::<V>(prediction);
        let mut rng = Rng(seed);
        let mut world = World::<V, V::S>::with_prediction(prediction).unwrap();
        let mut touching = Pairs::new();
        for _ in 0..30 {
            let shape = V::shape(rng.below(V::KINDS), &mut rng, 1.0);
            world
                .insert(shape, V::pose(&mut rng, HALF), random_filter(&mut rng))
                .unwrap();
        }
        for _step in 0..40 {
            let mut removed = Vec::new();
            for _ in 0..rng.below(6) {
                removed.extend(random_operation(&mut world, &mut rng));
                world.validate().unwrap();
            }
            let events = world.update();
            world.validate().unwrap();
            let now = check_contacts(&world, prediction);
            let started: Pairs = now.difference(&touching).copied().collect();
            let stopped: Pairs = touching.difference(&now).copied().collect();
            assert_eq!(events.started.iter().copied().collect::<Pairs>(), started);
            assert_eq!(events.stopped.iter().copied().collect::<Pairs>(), stopped);
            assert!(events.started.windows(2).all(|w| w[0] < w[1]), "sorted");
            assert!(events.stopped.windows(2).all(|w| w[0] < w[1]), "sorted");
            started_total += started.len();
            stopped_total += stopped.len();
            touching = now;
        }
    }
    assert!(
        started_total > 40 && stopped_total > 20,
        "{started_total} {stopped_total}"
    );
}

/// A level: 300 overlapping static boxes and 8 moving balls. Static–static pairs are
/// never cached; an update with nothing moved runs no narrow-phase query; moving one
/// ball queries only that ball's pairs.
fn static_level_costs_what_moved<V: TestDim>() {
    let mut rng = Rng(21);
    let mut world = World::<V, V::S>::new();
    for _ in 0..300 {
        let b = Aabb::from_center(rand_vec::<V>(&mut rng, 4.0), V::splat(s::<V>(0.6))).unwrap();
        world
            .insert_static(V::cuboid(b), V::Pose::IDENTITY, Filter::ALL)
            .unwrap();
    }
    let balls: Vec<Handle> = (0..8)
        .map(|_| {
            let shape = V::shape(0, &mut rng, 1.0);
            world
                .insert(shape, V::pose(&mut rng, 4.0), Filter::ALL)
                .unwrap()
        })
        .collect();
    world.update();
    world.validate().unwrap();
    let stats = world.update_stats();
    assert!(stats.broad_pairs <= 8 * 300, "{stats:?}");
    assert!(stats.contacts > 8, "scene too sparse: {stats:?}");
    check_contacts(&world, s::<V>(0.0));
    world.update();
    assert_eq!(world.update_stats().candidates, 0);
    let p = *world.pose(balls[0]).unwrap();
    let shifted = V::Pose::from_translation(rand_vec::<V>(&mut rng, 0.3)).mul(&p);
    world.set_pose(balls[0], shifted).unwrap();
    world.update();
    let queried = world.update_stats().candidates;
    let ball_pairs = world
        .contacts()
        .iter()
        .filter(|c| c.a == balls[0] || c.b == balls[0]);
    assert!(queried >= ball_pairs.count());
    assert!(queried <= 300 + 8, "{queried} queries for one moved ball");
    check_contacts(&world, s::<V>(0.0));
}

/// A box resting on a ground box with manifolds on: 2 (2D) or 4 (3D) points; the
/// impulses a solver stores are carried to the next frame's points with the same
/// feature id after a small slide, and a pair that starts touching starts at zero.
fn manifold_impulses_persist_by_feature<V: TestDim>() {
    let mut world = World::<V, V::S>::new();
    world.set_manifolds(true);
    let ground = Aabb::from_center(V::ZERO, V::splat(s::<V>(5.0)).with(1, s::<V>(0.5))).unwrap();
    world
        .insert_static(V::cuboid(ground), V::Pose::IDENTITY, Filter::ALL)
        .unwrap();
    let crate_box = V::cuboid(Aabb::from_center(V::ZERO, V::splat(s::<V>(0.5))).unwrap());
    let resting =
        |x: f64| V::Pose::from_translation(V::ZERO.with(0, s::<V>(x)).with(1, s::<V>(0.99)));
    let b = world
        .insert(crate_box.clone(), resting(0.0), Filter::ALL)
        .unwrap();
    world.update();
    assert_eq!(world.contacts().len(), 1);
    let points = world.contacts()[0].manifold.points().len();
    assert_eq!(points, if V::DIM == 2 { 2 } else { 4 });
    let ids: Vec<_> = world.contacts()[0]
        .manifold
        .points()
        .iter()
        .map(|p| p.id)
        .collect();
    for (k, slot) in world.impulses_mut()[0].iter_mut().enumerate().take(points) {
        *slot = s::<V>(k as f64 + 1.0);
    }
    world.set_pose(b, resting(0.01)).unwrap();
    world.update();
    let m = world.contacts()[0].manifold;
    let impulses = world.impulses_mut()[0];
    for (j, p) in m.points().iter().enumerate() {
        let k = ids
            .iter()
            .position(|&id| id == p.id)
            .expect("same features");
        assert_eq!(impulses[j], s::<V>(k as f64 + 1.0));
    }
    // A second crate lands: its pair starts with zero impulses.
    world.insert(crate_box, resting(2.0), Filter::ALL).unwrap();
    world.update();
    let k = world
        .contacts()
        .iter()
        .position(|c| c.b != b && c.a != b)
        .unwrap();
    assert!(world.impulses_mut()[k].iter().all(|&i| i == s::<V>(0.0)));
}

/// Query filters: a ray cast that excludes the closest hit returns the next one, as
/// brute force over the other shapes; a predicate on user data does the same.
fn query_filters_exclude_and_ask<V: TestDim>() {
    let mut rng = Rng(33);
    let mut world = World::<V, V::S>::new();
    for i in 0..60 {
        let shape = V::shape(rng.below(V::KINDS), &mut rng, 1.0);
        let pose = V::pose(&mut rng, HALF);
        let h = if i % 2 == 0 {
            world.insert(shape, pose, Filter::ALL).unwrap()
        } else {
            world.insert_static(shape, pose, Filter::ALL).unwrap()
        };
        world.set_user_data(h, i).unwrap();
    }
    let mut checked = 0;
    for _ in 0..200 {
        // From outside the scene towards a point inside it.
        let origin = rand_unit::<V>(&mut rng) * s::<V>(2.0 * HALF);
        let target = rand_vec::<V>(&mut rng, 0.5 * HALF);
        let Some(dir) = (target - origin).try_normalize() else {
            continue;
        };
        let ray = Ray { origin, dir };
        let t = s::<V>(4.0 * HALF);
        let all = world.cast_ray_all(&ray, t, Filter::ALL);
        let Some(first) = all.first() else { continue };
        let skip = [first.handle];
        let next = world.cast_ray(&ray, t, QueryFilter::new(Filter::ALL).excluding(&skip));
        let want = all.iter().find(|h| h.handle != first.handle);
        assert_eq!(next.map(|h| h.handle), want.map(|h| h.handle));
        let even = |h: Handle| world.user_data(h).is_some_and(|d| d % 2 == 0);
        let hit = world.cast_ray(&ray, t, QueryFilter::new(Filter::ALL).with_predicate(&even));
        let want = all.iter().find(|h| even(h.handle));
        assert_eq!(hit.map(|h| h.handle), want.map(|h| h.handle));
        checked += 1;
    }
    assert!(checked > 100, "too few hits: {checked}");
}

/// User data: 0 at insertion, kept by set, gone with the shape; a stale handle is a
/// named error.
fn user_data_follows_the_handle<V: TestDim>() {
    let mut rng = Rng(44);
    let mut world = World::<V, V::S>::new();
    let shape = V::shape(0, &mut rng, 1.0);
    let h = world.insert(shape, V::Pose::IDENTITY, Filter::ALL).unwrap();
    assert_eq!(world.user_data(h), Some(0));
    world.set_user_data(h, u64::MAX).unwrap();
    assert_eq!(world.user_data(h), Some(u64::MAX));
    world.remove(h).unwrap();
    assert_eq!(world.user_data(h), None);
    assert_eq!(world.set_user_data(h, 1), Err(WorldError::StaleHandle(h)));
    assert_eq!(world.motion(h), None);
}

for_each_vector!(random_operations_match_brute_force);
for_each_vector!(static_level_costs_what_moved);
for_each_vector!(manifold_impulses_persist_by_feature);
for_each_vector!(query_filters_exclude_and_ask);
for_each_vector!(user_data_follows_the_handle);

/// Motion queries equal brute force over every shape: the world's time of impact
/// (with rotation, skin and either start rule), its shape cast with options and its
/// non-solid ray cast each return the earliest pair answer over all allowed shapes,
/// so the pruning by swept boxes never drops the first hit.
fn motion_queries_match_brute_force<V: TestDim>() {
    let mut rng = Rng(55);
    let mut world = World::<V, V::S>::new();
    // A plane fills faster than a volume: spread the 2D scene for a balanced hit rate.
    let spread = if V::DIM == 2 { 2.5 * HALF } else { HALF };
    for i in 0..40 {
        let shape = V::shape(rng.below(V::KINDS), &mut rng, 1.0);
        let pose = V::pose(&mut rng, spread);
        if i % 2 == 0 {
            world.insert_static(shape, pose, Filter::ALL).unwrap();
        } else {
            world.insert(shape, pose, Filter::ALL).unwrap();
        }
    }
    let hs: Vec<Handle> = world.handles().collect();
    let (mut hits, mut total) = (0, 0);
    for k in 0..60 {
        let shape = V::shape(rng.below(V::KINDS), &mut rng, 0.5);
        let start = V::pose(&mut rng, spread);
        let step = rand_vec::<V>(&mut rng, 3.0);
        let end =
            V::Pose::from_translation(start.translation() + step).mul(&V::pose(&mut rng, 0.0));
        let sweep = Sweep { start, end };
        let skin = s::<V>([0.0, 0.05][k % 2]);
        let options = ShapeCastOptions::new(skin, k % 3 != 0).unwrap();
        let got = world.time_of_impact(&sweep, &shape, &options, Filter::ALL);
        let want = earliest(&hs, |h| {
            let (e, p) = (world.shape(h).unwrap(), *world.pose(h).unwrap());
            let rest = Sweep { start: p, end: p };
            dispatch::time_of_impact_with(&rest, e, &sweep, &shape, &options)
        });
        assert_eq!(got.map(|(h, x)| (h, x.time)), want, "time of impact {k}");
        let vel = end.translation() - start.translation();
        let got = world.cast_shape_with(&start, vel, &shape, s::<V>(1.0), &options, Filter::ALL);
        let want = earliest(&hs, |h| {
            let (e, p) = (world.shape(h).unwrap(), world.pose(h).unwrap());
            dispatch::cast_shapes_with(p, V::ZERO, e, &start, vel, &shape, s::<V>(1.0), &options)
        });
        assert_eq!(got.map(|(h, x)| (h, x.time)), want, "shape cast {k}");
        hits += usize::from(got.is_some());
        total += 1;
        let ray = Ray {
            origin: start.translation(),
            dir: vel,
        };
        let got = world.cast_ray_with(&ray, s::<V>(1.0), false, Filter::ALL);
        let want = hs
            .iter()
            .filter_map(|&h| {
                let (e, p) = (world.shape(h).unwrap(), world.pose(h).unwrap());
                e.cast_ray_solid(p, &ray, s::<V>(1.0), false)
                    .map(|x| (x.t, h))
            })
            .min_by(|x, y| x.partial_cmp(y).unwrap());
        assert_eq!(got.map(|x| (x.hit.t, x.handle)), want, "ray {k}");
    }
    assert_hit_rate(hits, total, "world shape casts");
}

/// The earliest `(handle, time)` of `hit` over `handles` (ties: the smaller handle).
fn earliest<V: TestDim>(
    handles: &[Handle],
    hit: impl Fn(Handle) -> Option<isect::query::ShapeCastHit<V>>,
) -> Option<(Handle, V::Scalar)> {
    handles
        .iter()
        .filter_map(|&h| hit(h).map(|x| (x.time, h)))
        .min_by(|x, y| x.partial_cmp(y).unwrap())
        .map(|(t, h)| (h, t))
}

/// A capsule resting on a static floor (2D and 3D), cast as a
/// mover: sideways and up it is free, down it is blocked at time 0; the default
/// options block it at once in every direction; excluding the floor frees it.
fn grounded_mover_walks_and_jumps<V: TestDim>() {
    let mut world = World::<V, V::S>::new();
    let floor = Aabb::from_center(
        V::ZERO.with(1, s::<V>(-1.0)),
        V::splat(s::<V>(10.0)).with(1, s::<V>(1.0)),
    )
    .unwrap();
    let f = world
        .insert_static(V::cuboid(floor), V::Pose::IDENTITY, Filter::ALL)
        .unwrap();
    let up = V::ZERO.with(1, s::<V>(1.0));
    let capsule = V::capsule_shape(
        isect::shape::Capsule::new(up * s::<V>(0.5), up * s::<V>(1.5), s::<V>(0.5)).unwrap(),
    );
    let here = V::Pose::IDENTITY;
    let mover = ShapeCastOptions::mover(s::<V>(0.01)).unwrap();
    let side = V::ZERO.with(0, s::<V>(1.0));
    let cast = |vel: V, o: &ShapeCastOptions<V::Scalar>, q: QueryFilter<'_>| {
        world.cast_shape_with(&here, vel, &capsule, s::<V>(1.0), o, q)
    };
    let all = QueryFilter::new(Filter::ALL);
    assert!(cast(side, &mover, all).is_none());
    assert!(cast(up, &mover, all).is_none());
    assert_eq!(
        cast(-up, &mover, all).map(|(h, x)| (h, x.time)),
        Some((f, s::<V>(0.0)))
    );
    let plain = ShapeCastOptions::default();
    assert_eq!(
        cast(side, &plain, all).map(|(h, x)| (h, x.time)),
        Some((f, s::<V>(0.0)))
    );
    let skip = [f];
    assert!(cast(-up, &plain, all.excluding(&skip)).is_none());
    // Bad input: NaN motion, a negative skin.
    assert!(cast(V::splat(s::<V>(f64::NAN)), &mover, all).is_none());
    assert!(ShapeCastOptions::mover(s::<V>(-1.0)).is_err());
}

for_each_vector!(motion_queries_match_brute_force);
for_each_vector!(grounded_mover_walks_and_jumps);

/// Long thin shapes (the session-6 soak: a plate 2·10⁶ long and 6·10⁻⁵ thick, nearly
/// axis-aligned) with small shapes just off their faces, at gaps of 0.1 to 1000
/// machine epsilons of the plate's size, where the narrow phase decides "touching" only
/// to its relative accuracy: the world reports exactly the pairs `dispatch::contact`
/// reports, at predictions 0 to 0.03 (the world's boxes carry that band,
/// `PAIR_BOX_ULPS`; without it the world dropped such pairs).
fn extreme_aspect_pairs_match_dispatch<V: TestDim>() {
    let mut rng = Rng(66);
    let (mut reported, mut apart) = (0, 0);
    let eps = V::Scalar::EPSILON.to_f64();
    let thin_axis = V::DIM - 1;
    for case in 0..60 {
        let prediction = s::<V>([0.0, 1e-5, 0.03][case % 3]);
        let mut world = World::<V, V::S>::with_prediction(prediction).unwrap();
        let (long, thin) = (
            10f64.powf(rng.range(3.0, 6.3)),
            10f64.powf(rng.range(-5.0, -2.0)),
        );
        let half = V::splat(s::<V>(long)).with(thin_axis, s::<V>(thin));
        let plate = V::cuboid(Aabb::from_center(V::ZERO, half).unwrap());
        world
            .insert_static(plate, V::Pose::IDENTITY, Filter::ALL)
            .unwrap();
        for _ in 0..6 {
            let size = 10f64.powf(rng.range(-4.0, 0.0));
            let shape = V::shape(rng.below(V::KINDS), &mut rng, size);
            let b = shape.world_aabb(&V::Pose::IDENTITY);
            let gap = long * eps * 10f64.powf(rng.range(-1.0, 3.0));
            let lift = thin + gap - b.min.get(thin_axis).to_f64();
            let spot = rand_vec::<V>(&mut rng, 0.5 * long).with(thin_axis, s::<V>(lift));
            world
                .insert(shape, V::Pose::from_translation(spot), Filter::ALL)
                .unwrap();
            apart += 1;
        }
        world.update();
        world.validate().unwrap();
        reported += check_contacts(&world, prediction).len();
    }
    assert!(
        reported > 10 && reported < apart,
        "{reported} of {apart} pairs touch"
    );
}

for_each_vector!(extreme_aspect_pairs_match_dispatch);

/// The pairs an update visits come from one pass over the pair cache when many shapes
/// moved and from the moved shapes' lists when few did
/// ([`DIRTY_SCAN_SHARE`]): a crowded scene alternates the two (every other shape
/// moved, one moved, a few moved with removals and insertions that leave free pair records
/// behind), and after every update the contacts equal brute force and the events
/// the difference of the touching sets.
fn dirty_pairs_by_scan_and_by_lists<V: TestDim>() {
    let mut rng = Rng(77);
    let mut world = World::<V, V::S>::new();
    for _ in 0..80 {
        let shape = V::shape(rng.below(V::KINDS), &mut rng, 1.0);
        world
            .insert(shape, V::pose(&mut rng, 5.0), Filter::ALL)
            .unwrap();
    }
    world.update();
    let mut touching = check_contacts(&world, s::<V>(0.0));
    let (mut by_scan, mut by_lists) = (0, 0);
    for step in 0..30 {
        let hs: Vec<Handle> = world.handles().collect();
        // Every other shape, so that many pairs have one moved shape and one still.
        let movers: Vec<Handle> = match step % 3 {
            0 => hs.iter().copied().step_by(2).collect(),
            1 => vec![hs[0]],
            _ => hs[..3].to_vec(),
        };
        for &h in &movers {
            let p = *world.pose(h).unwrap();
            let moved = V::Pose::from_translation(rand_vec::<V>(&mut rng, 0.3)).mul(&p);
            world.set_pose(h, moved).unwrap();
        }
        if step % 3 == 2 {
            world.remove(hs[hs.len() - 1]).unwrap();
            let shape = V::shape(rng.below(V::KINDS), &mut rng, 1.0);
            world
                .insert(shape, V::pose(&mut rng, 5.0), Filter::ALL)
                .unwrap();
        }
        let pairs_before = world.update_stats().broad_pairs;
        let dirty = movers.len() + usize::from(step % 3 == 2);
        if DIRTY_SCAN_SHARE * dirty >= pairs_before {
            by_scan += 1;
        } else {
            by_lists += 1;
        }
        let events = world.update();
        world.validate().unwrap();
        let now = check_contacts(&world, s::<V>(0.0));
        let started: Pairs = now.difference(&touching).copied().collect();
        let stopped: Pairs = touching.difference(&now).copied().collect();
        assert_eq!(events.started.iter().copied().collect::<Pairs>(), started);
        assert_eq!(events.stopped.iter().copied().collect::<Pairs>(), stopped);
        touching = now;
    }
    assert!(
        by_scan >= 10 && by_lists >= 10,
        "{by_scan} scans, {by_lists} list walks"
    );
}

for_each_vector!(dirty_pairs_by_scan_and_by_lists);
