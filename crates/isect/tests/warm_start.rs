//! The warm-started narrow phase (`dispatch::contact_cached`,
//! `dispatch::contact_manifold_cached`, `query::dispatch::warm`) answers exactly as the
//! uncached queries: over seeded frame sequences in which one shape moves a little per
//! frame through the other (in and out of contact), for every ordered pair of convex
//! kinds and for composites, 2D and 3D, f32 and f64, at predictions 0 and 0.1; with a
//! stale cache (another pair's, or from before a teleport); and in the world, whose
//! contacts equal the uncached queries on its poses frame after frame.

mod world_common;

use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Vector};
use isect::query::dispatch::{self, ContactCache, DispatchShape};
use isect::shape::{shape_2d, shape_3d, Compound};
use isect::world::{Filter, World};
use world_common::{rand_vec, s, Rng, TestDim};

/// Frames per sequence: B crosses A in this many small steps.
const FRAMES: usize = 24;

/// What the sequences exercised: queries, answers `None` with a cache holding
/// something (where the shortcut may have answered), contacts found.
#[derive(Default)]
struct Seen {
    queries: usize,
    warm_misses: usize,
    contacts: usize,
}

/// B moving from `start` to `end` in [`FRAMES`] steps (translation and rotation
/// interpolated) beside A at `pose_a`: cached and uncached contact and manifold agree
/// at every frame, the caches carried from frame to frame.
fn sequence<V: GjkVector, S: DispatchShape<V> + std::fmt::Debug>(
    (pose_a, a): (&V::Pose, &S),
    (start, end, b): (&V::Pose, &V::Pose, &S),
    prediction: f64,
    seen: &mut Seen,
) {
    let p = s::<V>(prediction);
    let (mut c_cache, mut m_cache) = (ContactCache::new(), ContactCache::new());
    for i in 0..=FRAMES {
        let t = s::<V>(i as f64 / FRAMES as f64);
        let pose_b = V::interpolate_pose(start, end, t);
        let warm_before = !c_cache.is_empty();
        let cold = dispatch::contact(pose_a, a, &pose_b, b, p);
        let warm = dispatch::contact_cached(pose_a, a, &pose_b, b, p, &mut c_cache);
        assert_eq!(
            warm, cold,
            "contact, frame {i}: {a:?} at {pose_a:?}, {b:?} at {pose_b:?}"
        );
        let cold_m = dispatch::contact_manifold(pose_a, a, &pose_b, b, p);
        let warm_m = dispatch::contact_manifold_cached(pose_a, a, &pose_b, b, p, &mut m_cache);
        assert_eq!(
            warm_m, cold_m,
            "manifold, frame {i}: {a:?}, {b:?} at {pose_b:?}"
        );
        seen.queries += 1;
        seen.contacts += usize::from(cold.is_some());
        seen.warm_misses += usize::from(warm_before && cold.is_none());
    }
}

/// A start and an end pose of B on either side of A (placed at the origin), up to
/// `reach` from it: the straight path between them passes near A.
fn crossing<V: TestDim>(rng: &mut Rng, reach: f64) -> (V::Pose, V::Pose) {
    let side = world_common::rand_unit::<V>(rng) * s::<V>(reach);
    let (p, q) = (V::pose(rng, 0.3), V::pose(rng, 0.3));
    let (p, q) = (p.then_translate(side), q.then_translate(-side));
    (p, q)
}

trait ThenTranslate<V> {
    fn then_translate(&self, v: V) -> Self;
}

impl<V: Vector, P: Isometry<V>> ThenTranslate<V> for P {
    fn then_translate(&self, v: V) -> Self {
        P::from_translation(v).mul(self)
    }
}

/// Every ordered pair of convex kinds, several crossings each.
fn convex_pairs<V: TestDim>(seed: u64) {
    let mut rng = Rng(seed);
    let mut seen = Seen::default();
    for ka in 0..V::KINDS {
        for kb in 0..V::KINDS {
            for round in 0..4 {
                let a = V::shape(ka, &mut rng, 1.0);
                let b = V::shape(kb, &mut rng, 1.0);
                let pose_a = V::pose(&mut rng, 0.2);
                let (start, end) = crossing::<V>(&mut rng, 3.0);
                let prediction = if round % 2 == 0 { 0.0 } else { 0.1 };
                sequence((&pose_a, &a), (&start, &end, &b), prediction, &mut seen);
            }
        }
    }
    assert!(
        seen.contacts > seen.queries / 5,
        "too few contacts: {}",
        seen.contacts
    );
    assert!(
        seen.warm_misses > seen.queries / 5,
        "the warm path was barely used"
    );
}

#[test]
fn convex_sequences_3d_f32() {
    convex_pairs::<glam::Vec3>(1);
}

#[test]
fn convex_sequences_3d_f64() {
    convex_pairs::<glam::DVec3>(2);
}

#[test]
fn convex_sequences_2d_f32() {
    convex_pairs::<glam::Vec2>(3);
}

#[test]
fn convex_sequences_2d_f64() {
    convex_pairs::<glam::DVec2>(4);
}

/// Compounds of random convex parts against convex shapes and each other, through
/// `AnyShape` (the composite pairs run uncached; the convex ones warm).
fn composite_pairs<V, A>(seed: u64)
where
    V: TestDim,
    A: DispatchShape<V> + From<V::S> + From<Compound<V, V::S>> + std::fmt::Debug,
{
    let mut rng = Rng(seed);
    let mut seen = Seen::default();
    for k in 0..V::KINDS {
        let parts: Vec<_> = (0..3)
            .map(|_| (V::pose(&mut rng, 0.5), V::shape(k, &mut rng, 0.6)))
            .collect();
        let compound = A::from(Compound::new(parts).unwrap());
        let convex = A::from(V::shape((k + 1) % V::KINDS, &mut rng, 1.0));
        for (a, b) in [
            (&compound, &convex),
            (&convex, &compound),
            (&convex, &convex),
        ] {
            let pose_a = V::pose(&mut rng, 0.2);
            let (start, end) = crossing::<V>(&mut rng, 3.0);
            sequence((&pose_a, a), (&start, &end, b), 0.05, &mut seen);
        }
    }
    assert!(
        seen.contacts > seen.queries / 5,
        "too few contacts: {}",
        seen.contacts
    );
}

#[test]
fn composite_sequences_3d_f32() {
    composite_pairs::<glam::Vec3, shape_3d::AnyShape<f32>>(5);
}

#[test]
fn composite_sequences_2d_f64() {
    composite_pairs::<glam::DVec2, shape_2d::AnyShape<f64>>(6);
}

/// A cache from another pair, or from before a teleport, gives the right answer.
fn stale_caches<V: TestDim>(seed: u64) {
    let mut rng = Rng(seed);
    let mut stale_used = 0;
    for _ in 0..200 {
        let (ka, kb) = (rng.below(V::KINDS), rng.below(V::KINDS));
        let (a, b) = (V::shape(ka, &mut rng, 1.0), V::shape(kb, &mut rng, 1.0));
        let (x, y) = (V::shape(ka, &mut rng, 1.0), V::shape(kb, &mut rng, 1.0));
        let far = V::pose(&mut rng, 1.0).then_translate(rand_vec::<V>(&mut rng, 1.0) * s::<V>(4.0));
        let pose_a = V::pose(&mut rng, 0.3);
        // A cache filled by another pair far apart, then a teleport into contact.
        let mut cache = ContactCache::new();
        let _ = dispatch::contact_cached(&pose_a, &x, &far, &y, s::<V>(0.0), &mut cache);
        stale_used += usize::from(!cache.is_empty());
        let near = V::pose(&mut rng, 0.6);
        for p in [0.0, 0.1] {
            let p = s::<V>(p);
            let mut c = cache;
            let cold = dispatch::contact(&pose_a, &a, &near, &b, p);
            assert_eq!(
                dispatch::contact_cached(&pose_a, &a, &near, &b, p, &mut c),
                cold
            );
            let mut m = cache;
            let cold_m = dispatch::contact_manifold(&pose_a, &a, &near, &b, p);
            assert_eq!(
                dispatch::contact_manifold_cached(&pose_a, &a, &near, &b, p, &mut m),
                cold_m
            );
        }
    }
    assert!(
        stale_used > 100,
        "the stale caches were mostly empty: {stale_used}"
    );
}

#[test]
fn stale_caches_3d_f32() {
    stale_caches::<glam::Vec3>(7);
}

#[test]
fn stale_caches_2d_f64() {
    stale_caches::<glam::DVec2>(8);
}

/// Shapes of every kind drifting in a small box: after every update each pair of
/// shapes touches in the world exactly when the uncached query finds a contact, with
/// the same contact.
fn world_frames<V: TestDim>(seed: u64, manifolds: bool)
where
    V::S: Sync,
{
    let mut rng = Rng(seed);
    let mut world = World::<V, V::S>::new();
    world.set_manifolds(manifolds);
    let mut bodies: Vec<_> = (0..40)
        .map(|i| {
            let shape = V::shape(i % V::KINDS, &mut rng, 0.7);
            let pose = V::pose(&mut rng, 3.0);
            let step = rand_vec::<V>(&mut rng, 0.08);
            let h = world.insert(shape.clone(), pose, Filter::ALL).unwrap();
            (h, shape, pose, step)
        })
        .collect();
    let mut touching = 0;
    for _ in 0..30 {
        for (h, _, pose, step) in &mut bodies {
            *pose = pose.then_translate(*step);
            world.set_pose(*h, *pose).unwrap();
        }
        world.update();
        for (i, (ha, sa, _, _)) in bodies.iter().enumerate() {
            for (hb, sb, _, _) in &bodies[i + 1..] {
                let (pa, pb) = (*world.pose(*ha).unwrap(), *world.pose(*hb).unwrap());
                let (a, b, x, y) = if ha < hb {
                    (pa, pb, sa, sb)
                } else {
                    (pb, pa, sb, sa)
                };
                let got = world.contact(*ha, *hb);
                if manifolds {
                    let cold = dispatch::contact_manifold(&a, x, &b, y, s::<V>(0.0));
                    assert_eq!(got.map(|c| c.manifold), cold, "pair {ha:?} {hb:?}");
                } else {
                    let cold = dispatch::contact(&a, x, &b, y, s::<V>(0.0));
                    assert_eq!(got.map(|c| c.contact), cold, "pair {ha:?} {hb:?}");
                }
                touching += usize::from(got.is_some());
            }
        }
    }
    assert!(touching > 30, "too few contacts: {touching}");
}

#[test]
fn world_matches_uncached_3d_f32() {
    world_frames::<glam::Vec3>(9, false);
}

#[test]
fn world_matches_uncached_3d_f64_manifolds() {
    world_frames::<glam::DVec3>(10, true);
}

#[test]
fn world_matches_uncached_2d_f32_manifolds() {
    world_frames::<glam::Vec2>(11, true);
}
