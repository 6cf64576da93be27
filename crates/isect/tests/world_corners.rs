//! Shapes in the corner of a composite (a floor and a wall of one open mesh in 3D,
//! one chain in 2D) touch it along two normals, and a solver needs both (issue 13:
//! one merged manifold kept the floor and lost the wall, and a box in a trough sank
//! through one slope). With manifolds on, the world keeps one entry of `contacts` a
//! normal: crates moved at random about the corner, frame after frame, must have
//! exactly the manifolds of `dispatch::contact_manifolds_by_normal` (the first being
//! `contact`'s), the world must pass its validator, events come once a pair, and a
//! solver's impulses follow their feature ids from entry to entry.

#[path = "support/rng.rs"]
mod rng;

use isect::algo::gjk::GjkVector;
use isect::math::Isometry;
use isect::query::dispatch::{self, DispatchShape};
use isect::query::manifold::{FeatureId, MAX_MANIFOLD_POINTS};
use isect::world::{Filter, Handle, World};
use rng::Rng;
use std::collections::HashMap;

/// Frames of each run.
const FRAMES: usize = 300;
/// Crates moving about the corner.
const CRATES: usize = 5;

/// A solver's impulse for the point of id `id`: a function of the id, so that a
/// carried impulse is known by its point.
fn tag(id: &FeatureId) -> f64 {
    let h = [id.reference, id.incident, id.point, id.part_a, id.part_b]
        .iter()
        .fold(u64::from(id.reference_is_b), |h, &x| {
            h.wrapping_mul(1_000_003).wrapping_add(u64::from(x))
        });
    1.0 + (h % 1000) as f64
}

/// Runs [`FRAMES`] frames of [`CRATES`] crates placed by `pose` about `corner`
/// (a static composite) and checks each frame (see the module docs). Returns how many
/// crate-frames touched along two normals or more.
fn corner_frames<V, S>(
    corner: S,
    crate_: S,
    pose: impl Fn(&mut Rng) -> V::Pose,
    prediction: V::Scalar,
    seed: u64,
) -> usize
where
    V: GjkVector,
    V::Scalar: Into<f64> + From<f32>,
    S: DispatchShape<V> + Sync,
{
    let mut rng = Rng(seed);
    let mut world = World::<V, S>::with_prediction(prediction).expect("valid prediction");
    world.set_manifolds(true);
    let wall = world
        .insert_static(corner.clone(), V::Pose::IDENTITY, Filter::ALL)
        .expect("valid corner");
    let mut crates: Vec<Handle> = (0..CRATES)
        .map(|_| {
            world
                .insert(crate_.clone(), pose(&mut rng), Filter::ALL)
                .expect("valid crate")
        })
        .collect();
    let mut cornered = 0;
    let mut before: HashMap<Handle, Vec<FeatureId>> = HashMap::new();
    for frame in 0..FRAMES {
        // Move most crates a little, some far; now and then one leaves and comes back.
        for c in crates.iter_mut() {
            if rng.below(40) == 0 {
                world.remove(*c).expect("live crate");
                before.remove(c);
                *c = world
                    .insert(crate_.clone(), pose(&mut rng), Filter::ALL)
                    .expect("valid crate");
            } else if rng.below(3) != 0 {
                world.set_pose(*c, pose(&mut rng)).expect("valid pose");
            }
        }
        // A solver writes each point's impulse as its tag.
        let tags: Vec<_> = world
            .contacts()
            .iter()
            .map(|e| {
                e.manifold
                    .points()
                    .iter()
                    .map(|p| tag(&p.id))
                    .collect::<Vec<_>>()
            })
            .collect();
        for (slots, tags) in world.impulses_mut().iter_mut().zip(tags) {
            for (slot, t) in slots.iter_mut().zip(tags) {
                *slot = V::Scalar::from(t as f32);
            }
        }
        let events = world.update();
        world
            .validate()
            .unwrap_or_else(|e| panic!("frame {frame}: {e}"));
        let mut seen = std::collections::BTreeSet::new();
        for pair in events.started.iter().chain(&events.stopped) {
            assert!(seen.insert(*pair), "frame {frame}: {pair:?} reported twice");
        }
        let mut entries_seen = 0;
        for &c in &crates {
            let expected = dispatch::contact_manifolds_by_normal(
                &V::Pose::IDENTITY,
                &corner,
                world.pose(c).expect("live"),
                &crate_,
                prediction,
            );
            let (a, b) = (wall.min(c), wall.max(c));
            let expected: Vec<_> = if a == wall {
                expected
            } else {
                expected.iter().map(|m| m.flipped()).collect()
            };
            let got: Vec<_> = world
                .contacts_between(wall, c)
                .map(|e| e.manifold)
                .collect();
            assert_eq!(got, expected, "frame {frame}: crate {c:?}");
            assert!(world
                .contacts_between(c, wall)
                .all(|e| (e.a, e.b) == (a, b)));
            assert_eq!(
                world.contact(wall, c).map(|e| e.manifold),
                got.first().copied(),
                "frame {frame}: contact is the first entry"
            );
            cornered += usize::from(got.len() >= 2);
            entries_seen += got.len();
            let ids: Vec<FeatureId> = got
                .iter()
                .flat_map(|m| m.points().iter().map(|p| p.id))
                .collect();
            let old = before.insert(c, ids).unwrap_or_default();
            let impulses = impulses_of(&mut world, wall, c);
            for (id, impulse) in impulses {
                let carried = if old.contains(&id) { tag(&id) } else { 0.0 };
                assert_eq!(impulse.into(), carried, "frame {frame}: impulse of {id:?}");
            }
        }
        let with_wall = world
            .contacts()
            .iter()
            .filter(|e| e.a == wall || e.b == wall);
        assert_eq!(
            with_wall.count(),
            entries_seen,
            "frame {frame}: the corner's entries"
        );
        // Crates touch each other too: convex pairs, one entry each.
        let pairs: std::collections::BTreeSet<_> =
            world.contacts().iter().map(|e| (e.a, e.b)).collect();
        let crate_pairs = pairs.iter().filter(|p| p.0 != wall && p.1 != wall).count();
        assert_eq!(
            world.contacts().len(),
            entries_seen + crate_pairs,
            "frame {frame}"
        );
    }
    cornered
}

/// Each point of the pair of `a` and `b` with its impulse, over all its entries.
fn impulses_of<V: GjkVector, S: DispatchShape<V> + Sync>(
    world: &mut World<V, S>,
    a: Handle,
    b: Handle,
) -> Vec<(FeatureId, V::Scalar)> {
    let key = (a.min(b), a.max(b));
    let entries: Vec<(usize, Vec<FeatureId>)> = world
        .contacts()
        .iter()
        .enumerate()
        .filter(|(_, e)| (e.a, e.b) == key)
        .map(|(k, e)| (k, e.manifold.points().iter().map(|p| p.id).collect()))
        .collect();
    let impulses = world.impulses_mut();
    let mut out = Vec::new();
    for (k, ids) in entries {
        assert!(ids.len() <= MAX_MANIFOLD_POINTS);
        out.extend(ids.into_iter().zip(impulses[k]));
    }
    out
}

mod d3 {
    use super::*;
    use isect::d3_f64 as f64d;

    /// A floor of 6 × 6 unit quads at y = 0 over x, z ∈ [−5, 1] and a wall of
    /// 4 × 6 quads at x = 1 up to y = 4: one open mesh.
    fn corner_mesh() -> f64d::TriMesh {
        let mut vertices = Vec::new();
        let mut faces = Vec::new();
        let mut quads = |at: &dyn Fn(usize, usize) -> glam::DVec3, rows: usize, cols: usize| {
            let base = vertices.len() as u32;
            for j in 0..=rows {
                for i in 0..=cols {
                    vertices.push(at(i, j));
                }
            }
            let index = |i: usize, j: usize| base + (j * (cols + 1) + i) as u32;
            for j in 0..rows {
                for i in 0..cols {
                    let (p, q, r, s) = (
                        index(i, j),
                        index(i + 1, j),
                        index(i + 1, j + 1),
                        index(i, j + 1),
                    );
                    faces.push([p, r, q]);
                    faces.push([p, s, r]);
                }
            }
        };
        quads(
            &|i, j| glam::DVec3::new(-5.0 + i as f64, 0.0, -3.0 + j as f64),
            6,
            6,
        );
        quads(
            &|i, j| glam::DVec3::new(1.0, i as f64, -3.0 + j as f64),
            6,
            4,
        );
        f64d::TriMesh::new(vertices, faces, f64d::TriMeshFlags::OPEN).expect("valid mesh")
    }

    /// A unit cube near the corner, sunk up to 0.1 into the floor or the wall or
    /// both, turned a little about y, or a cube a little apart.
    fn cube_pose(rng: &mut Rng) -> f64d::Pose {
        let x = rng.range(0.35, 0.6);
        let y = rng.range(0.4, 0.55);
        let z = rng.range(-1.5, 1.5);
        let turn = if rng.below(2) == 0 {
            0.0
        } else {
            rng.range(-0.2, 0.2)
        };
        f64d::Pose::new(
            glam::DVec3::new(x, y, z),
            glam::DQuat::from_rotation_y(turn),
        )
    }

    #[test]
    fn a_cube_in_a_mesh_corner_keeps_floor_and_wall() {
        let corner: f64d::AnyShape = corner_mesh().into();
        let cube: f64d::AnyShape = f64d::Shape::Cuboid(
            f64d::Aabb::new(glam::DVec3::splat(-0.5), glam::DVec3::splat(0.5)).unwrap(),
        )
        .into();
        let cornered = corner_frames(corner, cube, cube_pose, 0.01, 7);
        assert!(
            cornered > FRAMES,
            "only {cornered} crate-frames touched floor and wall"
        );
    }
}

mod d2 {
    use super::*;
    use isect::d2 as f32d;

    /// A chain along the floor y = 0 from x = −5 to 1 in unit segments, then up the
    /// wall x = 1 to y = 4.
    fn corner_chain() -> f32d::Polyline {
        let floor = (0..=6).map(|i| glam::Vec2::new(-5.0 + i as f32, 0.0));
        let wall = (1..=4).map(|j| glam::Vec2::new(1.0, j as f32));
        f32d::Polyline::new(floor.chain(wall).collect(), false).expect("valid chain")
    }

    /// A unit square near the corner, sunk up to 0.1 into the floor or the wall or
    /// both, turned a little, or a little apart.
    fn square_pose(rng: &mut Rng) -> f32d::Pose {
        let x = rng.range(0.35, 0.6) as f32;
        let y = rng.range(0.4, 0.55) as f32;
        let turn = if rng.below(2) == 0 {
            0.0
        } else {
            rng.range(-0.2, 0.2) as f32
        };
        f32d::Pose::new(glam::Vec2::new(x, y), turn)
    }

    #[test]
    fn a_square_in_a_chain_corner_keeps_floor_and_wall() {
        let corner: f32d::AnyShape = corner_chain().into();
        let square: f32d::AnyShape = f32d::Shape::Cuboid(
            f32d::Aabb::new(glam::Vec2::splat(-0.5), glam::Vec2::splat(0.5)).unwrap(),
        )
        .into();
        let cornered = corner_frames(corner, square, square_pose, 0.01, 11);
        assert!(
            cornered > FRAMES,
            "only {cornered} crate-frames touched floor and wall"
        );
    }
}

mod merging {
    use isect::d2::*;
    use isect::query::{contact_manifold_obb_2d, merge_manifolds_by_normal, Manifold};

    /// The manifold of a unit crate sunk `sink` into a slab, its normal then turned by
    /// `degrees` from +y (a stand-in for a part touching along that normal).
    fn crate_on_slab(sink: f32, degrees: f32) -> Manifold<Vec2> {
        let slab = Obb::from_angle(Vec2::ZERO, Vec2::new(2.0, 0.5), 0.0).unwrap();
        let crate_ = Obb::from_angle(Vec2::ZERO, Vec2::new(0.5, 0.5), 0.0).unwrap();
        let at = Pose::from_translation(Vec2::new(0.0, 1.0 - sink));
        let mut m = contact_manifold_obb_2d(&Pose::IDENTITY, &slab, &at, &crate_, 0.0).unwrap();
        let a = (90.0 + degrees).to_radians();
        m.normal = Vec2::new(a.cos(), a.sin());
        m
    }

    #[test]
    fn the_cap_keeps_the_deepest_of_many_normals() {
        // Four shallow normals of two parts each and one deep normal of one part: the
        // majority's first, then the deepest, never dropped by the cap of 4.
        let mut parts = Vec::new();
        for deg in [0.0, 30.0, 60.0, -30.0] {
            parts.push(crate_on_slab(0.01, deg));
            parts.push(crate_on_slab(0.01, deg + 0.5));
        }
        parts.push(crate_on_slab(0.3, -60.0));
        let merged = merge_manifolds_by_normal(&parts);
        assert_eq!(merged.len(), 4);
        assert!((merged[1].max_depth() - 0.3).abs() < 1e-4, "{merged:?}");
        assert!(merged.iter().all(|m| !m.points().is_empty()));
    }

    #[test]
    fn a_nan_normal_adds_no_empty_manifold() {
        let mut nan = crate_on_slab(0.05, 0.0);
        nan.normal = Vec2::NAN;
        for parts in [
            vec![crate_on_slab(0.1, 0.0), nan],
            vec![nan, crate_on_slab(0.1, 0.0)],
        ] {
            let merged = merge_manifolds_by_normal(&parts);
            assert_eq!(merged.len(), 1);
            assert_eq!(
                merged[0].normal,
                parts.iter().find(|m| !m.normal.is_nan()).unwrap().normal
            );
        }
        assert!(merge_manifolds_by_normal(&[nan]).is_empty());
    }

    #[test]
    fn stale_handles_see_no_entries() {
        let mut world = World::new();
        let ball = || Shape::Ball(Ball::new(Vec2::ZERO, 1.0).unwrap());
        let a = world.insert(ball(), Pose::IDENTITY, Filter::ALL).unwrap();
        let b = world
            .insert(
                ball(),
                Pose::from_translation(Vec2::new(1.5, 0.0)),
                Filter::ALL,
            )
            .unwrap();
        world.update();
        world.remove(b).unwrap();
        let c = world
            .insert(
                ball(),
                Pose::from_translation(Vec2::new(1.5, 0.0)),
                Filter::ALL,
            )
            .unwrap();
        world.update();
        assert_eq!(b.index(), c.index(), "the slot is reused");
        assert!(world.contact(a, b).is_none());
        assert_eq!(world.contacts_between(a, b).count(), 0);
        assert_eq!(world.contacts_between(a, c).count(), 1);
    }

    #[test]
    fn unchanged_pairs_keep_their_entries_in_place() {
        // Two squares, each in a corner of a U chain (two entries each): moving one
        // keeps the other's entries where they were in `contacts()`.
        let u = Polyline::new(
            vec![
                Vec2::new(-3.0, 4.0),
                Vec2::new(-3.0, 0.0),
                Vec2::new(3.0, 0.0),
                Vec2::new(3.0, 4.0),
            ],
            false,
        )
        .unwrap();
        let mut world = World::new();
        world.set_manifolds(true);
        let floor = world.insert_static(u, Pose::IDENTITY, Filter::ALL).unwrap();
        let square = Shape::Cuboid(Aabb::new(Vec2::splat(-0.5), Vec2::splat(0.5)).unwrap());
        let a = world
            .insert(
                square.clone(),
                Pose::from_translation(Vec2::new(-2.55, 0.4)),
                Filter::ALL,
            )
            .unwrap();
        world.update();
        let b = world
            .insert(
                square,
                Pose::from_translation(Vec2::new(2.55, 0.4)),
                Filter::ALL,
            )
            .unwrap();
        world.update();
        assert_eq!(world.contacts_between(floor, a).count(), 2);
        assert_eq!(world.contacts_between(floor, b).count(), 2);
        let places = |w: &World, h| -> Vec<usize> {
            let of = |e: &&isect::world::PairContact<Vec2>| e.a == h || e.b == h;
            w.contacts()
                .iter()
                .enumerate()
                .filter(|(_, e)| of(e))
                .map(|(k, _)| k)
                .collect()
        };
        let before = places(&world, b);
        for x in [-2.551, -2.552, -2.549] {
            world
                .set_pose(a, Pose::from_translation(Vec2::new(x, 0.4)))
                .unwrap();
            world.update();
            assert_eq!(places(&world, b), before);
        }
    }
}
