//! Worlds written to JSON and read back, 2D and 3D, f32 and f64, at every scale:
//! after insertions, removals (reused slots, newer generations), static shapes,
//! filters, user data, excluded pairs and settings, the world read back has the same
//! handles and per-handle data, reports the original's touching pairs as started with
//! the same contacts, answers rays and point queries the same, and gives the next
//! insertion the same handle. Tables no program makes and refused settings are serde
//! errors naming what is wrong.

use super::*;
use isect::math::Isometry;
use isect::query::ProjectPoint;
use isect::world::{Filter, Handle, Motion, PairContact, World};
use world_common::random_filter;

/// Shapes inserted before the removals.
const SHAPES: usize = 40;

/// A world of every kind about `size` across, spread over `4·size`, that has been
/// edited and updated.
fn random_world<V: SerdeDim>(rng: &mut Rng, size: f64) -> World<V, V::Any>
where
    V::S: ConvexPart<V>,
{
    let mut world = World::with_prediction(s::<V>(0.05 * size)).unwrap();
    world.set_broad_margin(s::<V>(0.1 * size)).unwrap();
    world.set_manifolds(rng.below(2) == 0);
    let composites = V::composites(rng, size);
    let mut handles = Vec::new();
    for i in 0..SHAPES {
        let shape: V::Any = if i % 5 == 4 {
            composites[i / 5 % composites.len()].1.clone()
        } else {
            V::shape(rng.below(V::KINDS), rng, size).into()
        };
        handles.push(insert(&mut world, rng, shape, size));
    }
    world.update();
    for _ in 0..SHAPES / 5 {
        let h = handles.swap_remove(rng.below(handles.len()));
        world.remove(h).unwrap();
    }
    for _ in 0..SHAPES / 10 {
        let shape = V::shape(rng.below(V::KINDS), rng, size).into();
        handles.push(insert(&mut world, rng, shape, size));
    }
    for _ in 0..5 {
        let (a, b) = (
            handles[rng.below(handles.len())],
            handles[rng.below(handles.len())],
        );
        if a != b {
            world.set_pair_excluded(a, b, true).unwrap();
        }
    }
    world.update();
    world
}

/// Inserts `shape` at a random pose, static one time in four, with a random filter
/// and user data.
fn insert<V: SerdeDim>(
    world: &mut World<V, V::Any>,
    rng: &mut Rng,
    shape: V::Any,
    size: f64,
) -> Handle
where
    V::S: ConvexPart<V>,
{
    let pose = V::pose(rng, 2.0 * size);
    let filter = random_filter(rng);
    let h = if rng.below(4) == 0 {
        world.insert_static(shape, pose, filter)
    } else {
        world.insert(shape, pose, filter)
    }
    .unwrap();
    world.set_user_data(h, rng.below(1 << 20) as u64).unwrap();
    h
}

/// The touching pairs sorted by their handles.
fn sorted_contacts<V: SerdeDim>(world: &World<V, V::Any>) -> Vec<PairContact<V>>
where
    V::S: ConvexPart<V>,
{
    // By pair, and a pair's entries (one a normal it touches along) in their order.
    let mut pairs: Vec<(Handle, Handle)> = world.contacts().iter().map(|c| (c.a, c.b)).collect();
    pairs.sort();
    pairs.dedup();
    pairs
        .iter()
        .flat_map(|&(a, b)| world.contacts_between(a, b).copied())
        .collect()
}

/// Same handles and per-handle data, same exclusions.
fn assert_same_table<V: SerdeDim>(a: &World<V, V::Any>, b: &World<V, V::Any>, what: &str)
where
    V::S: ConvexPart<V>,
{
    let handles: Vec<Handle> = a.handles().collect();
    assert_eq!(handles, b.handles().collect::<Vec<_>>(), "{what}: handles");
    for &h in &handles {
        assert_eq!(a.pose(h), b.pose(h), "{what}: pose of {h:?}");
        assert_eq!(a.aabb(h), b.aabb(h), "{what}: box of {h:?}");
        assert_eq!(a.filter(h), b.filter(h), "{what}: filter of {h:?}");
        assert_eq!(a.motion(h), b.motion(h), "{what}: motion of {h:?}");
        assert_eq!(a.user_data(h), b.user_data(h), "{what}: user data of {h:?}");
        for &g in &handles {
            assert_eq!(
                a.is_pair_excluded(h, g),
                b.is_pair_excluded(h, g),
                "{what}: {h:?}–{g:?}"
            );
        }
    }
}

/// Seeded rays and nearest points answer the same; returns the ray hits.
fn assert_same_queries<V: SerdeDim>(
    rng: &mut Rng,
    a: &World<V, V::Any>,
    b: &World<V, V::Any>,
    size: f64,
    what: &str,
) -> usize
where
    V::S: ConvexPart<V>,
    V::Any: ProjectPoint<V>,
{
    let mut hits = 0;
    for _ in 0..QUERIES {
        let target = rand_vec::<V>(rng, 2.0 * size);
        let dir: V = rand_unit(rng);
        let ray = Ray {
            origin: target - dir * s::<V>(3.0 * size),
            dir,
        };
        let max_t = s::<V>(6.0 * size);
        let hit = a.cast_ray(&ray, max_t, Filter::ALL);
        assert_eq!(
            hit,
            b.cast_ray(&ray, max_t, Filter::ALL),
            "{what}: ray {ray:?}"
        );
        hits += usize::from(hit.is_some());
        let max = s::<V>(2.0 * size);
        assert_eq!(
            a.nearest_to_point(target, max, Filter::ALL),
            b.nearest_to_point(target, max, Filter::ALL),
            "{what}: nearest to {target:?}"
        );
    }
    hits
}

fn check_worlds<V: SerdeDim>(seed: u64)
where
    V::S: ConvexPart<V>,
    V::Pose: Serialize + DeserializeOwned,
    V::Any: Serialize + DeserializeOwned + Clone + ProjectPoint<V>,
    V::Scalar: Serialize + DeserializeOwned,
{
    let mut rng = Rng(seed);
    let (mut hits, mut total) = (0, 0);
    for size in SCALES {
        let what = format!("scale {size:e}");
        let mut world = random_world::<V>(&mut rng, size);
        let mut back: World<V, V::Any> = round_trip(&world);
        back.validate().unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_same_table(&world, &back, &what);
        // Read back, every touching pair starts again, with the same contact.
        let started = back.update().started;
        let contacts = sorted_contacts(&world);
        let mut pairs: Vec<_> = contacts.iter().map(|c| (c.a, c.b)).collect();
        pairs.dedup();
        assert_eq!(started, pairs, "{what}: started pairs");
        assert_eq!(sorted_contacts(&back), contacts, "{what}: contacts");
        assert!(
            !contacts.is_empty(),
            "{what}: no pair touches; the test means little"
        );
        hits += assert_same_queries(&mut rng, &world, &back, size, &what);
        total += QUERIES;
        // The next insertions reuse the same slots.
        for _ in 0..3 {
            let ball: V::Any = V::S::from(Ball::new(V::ZERO, s::<V>(size)).unwrap()).into();
            let pose = V::pose(&mut rng, 5.0 * size);
            let h = world.insert(ball.clone(), pose, Filter::ALL).unwrap();
            assert_eq!(
                back.insert(ball, pose, Filter::ALL).unwrap(),
                h,
                "{what}: next handle"
            );
        }
    }
    assert!(
        hits * 5 > total,
        "only {hits} of {total} rays hit: the query comparison means little"
    );
}

#[test]
fn worlds_round_trip_with_the_same_handles_events_and_answers() {
    check_worlds::<glam::Vec2>(21);
    check_worlds::<glam::DVec2>(22);
    check_worlds::<glam::Vec3>(23);
    check_worlds::<glam::DVec3>(24);
}

#[test]
fn an_empty_world_round_trips() {
    let world: World<glam::DVec3, isect::d3_f64::AnyShape> = World::new();
    let back: World<glam::DVec3, isect::d3_f64::AnyShape> = round_trip(&world);
    assert!(back.is_empty());
    assert_eq!(
        serde_json::to_string(&back).unwrap(),
        serde_json::to_string(&world).unwrap()
    );
}

type World3 = World<glam::DVec3, isect::d3_f64::AnyShape>;

/// A small world's JSON with `edit` applied, read back: the error's text.
fn refused(edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut world = World3::new();
    let ball = isect::d3_f64::Shape::Ball(Ball::new(glam::DVec3::ZERO, 1.0).unwrap());
    let pose = isect::d3_f64::Pose::IDENTITY;
    let handles: Vec<Handle> = (0..3)
        .map(|_| world.insert(ball.clone(), pose, Filter::ALL).unwrap())
        .collect();
    world.remove(handles[1]).unwrap();
    let mut json = serde_json::to_value(&world).unwrap();
    serde_json::from_value::<World3>(json.clone()).expect("the unedited world reads back");
    edit(&mut json);
    match serde_json::from_value::<World3>(json.clone()) {
        Ok(_) => panic!("{json} was accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn inconsistent_tables_and_refused_settings_are_named_errors() {
    type Edit = Box<dyn FnOnce(&mut serde_json::Value)>;
    let cases: [(&str, Edit); 10] = [
        (
            "version 2, this build reads version 1",
            Box::new(|j| j["version"] = serde_json::json!(2)),
        ),
        (
            "missing field `version`",
            Box::new(|j| drop(j.as_object_mut().unwrap().remove("version"))),
        ),
        (
            "free slot 0 is live",
            Box::new(|j| j["free"] = serde_json::json!([0, 1])),
        ),
        (
            "slot 1 is not on the free stack",
            Box::new(|j| j["free"] = serde_json::json!([])),
        ),
        (
            "free slot 7 is past",
            Box::new(|j| j["free"] = serde_json::json!([1, 7])),
        ),
        (
            "listed twice",
            Box::new(|j| j["free"] = serde_json::json!([1, 1])),
        ),
        (
            "slot 1, not live",
            Box::new(|j| j["excluded"] = serde_json::json!([[0, 1]])),
        ),
        (
            "prediction",
            Box::new(|j| j["prediction"] = serde_json::json!(-1.0)),
        ),
        (
            "margin",
            Box::new(|j| j["broad_margin"] = serde_json::json!(-1.0)),
        ),
        (
            "rotation",
            Box::new(|j| {
                j["slots"][0]["entry"]["pose"]["rotation"] = serde_json::json!([0, 0, 0, 2])
            }),
        ),
    ];
    for (expected, edit) in cases {
        let error = refused(edit);
        assert!(
            error.contains(expected),
            "`{error}` does not say `{expected}`"
        );
    }
    let radius = refused(|j| {
        j["slots"][2]["entry"]["shape"]["Convex"]["Ball"]["radius"] = serde_json::json!(-1.0)
    });
    assert!(
        radius.contains("Ball") && radius.contains("radius"),
        "{radius}"
    );
}

#[test]
fn handles_filters_and_motions_round_trip() {
    let h = Handle::from_bits(7 << 32 | 3);
    assert_eq!(round_trip(&h), h);
    let f = Filter { group: 5, mask: 9 };
    assert_eq!(round_trip(&f), f);
    assert_eq!(round_trip(&Motion::Static), Motion::Static);
}
