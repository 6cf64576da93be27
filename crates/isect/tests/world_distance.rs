//! Distance queries of the world against brute force over every shape: the nearest
//! shape to points and shapes (unsigned and signed), within a maximum distance or not,
//! through filters; every shape within a distance; batches of robot configurations.
//! Scenes of every convex kind (2D and 3D, f32 and f64) and of meshes, solid and open;
//! edges: touching, points on boundaries, ties, empty worlds, huge offsets, bad input.
//! With `--features parallel` the configuration batches run on rayon's pool and must
//! still equal the brute force, in order.

#[path = "support/meshes.rs"]
mod meshes;
mod world_common;
#[macro_use]
#[path = "support/for_each_vector.rs"]
mod for_each_vector;

use isect::math::{Isometry, Real, Vector};
use isect::query::dispatch::{self, DispatchShape};
use isect::query::ProjectPoint;
use isect::shape::shape_3d::AnyShape;
use isect::shape::{Aabb, Ball, TriMesh, TriMeshFlags};
use isect::world::{Filter, Handle, QueryFilter, World, WorldDistance, WorldError};
use world_common::*;

/// Shapes in a scene, and half the side of its cube.
const SHAPES: usize = 40;
const HALF: f64 = 4.0;
/// Queries per scene.
const QUERIES: usize = 60;

/// A signed or unsigned brute-force answer: (distance, handle).
type Brute<V> = Option<(<V as Vector>::Scalar, Handle)>;

fn scene<V: TestDim>(seed: u64, offset: f64) -> (World<V, V::S>, Rng) {
    let mut rng = Rng(seed);
    let mut world = World::<V, V::S>::new();
    let shift = V::Pose::from_translation(V::splat(s::<V>(offset)));
    for i in 0..SHAPES {
        let shape = V::shape(rng.below(V::KINDS), &mut rng, 1.0);
        let pose = shift.mul(&V::pose(&mut rng, HALF));
        let filter = random_filter(&mut rng);
        if i % 3 == 0 {
            world.insert_static(shape, pose, filter).unwrap();
        } else {
            world.insert(shape, pose, filter).unwrap();
        }
    }
    (world, rng)
}

/// The least `(distance, handle)` over the shapes `filter` admits, by `f`.
fn brute_min<V, S>(
    world: &World<V, S>,
    filter: Filter,
    f: impl Fn(&S, &V::Pose) -> V::Scalar,
) -> Brute<V>
where
    V: isect::algo::gjk::GjkVector,
    S: DispatchShape<V>,
{
    world
        .handles()
        .filter(|&h| world.filter(h).unwrap().allows(&filter))
        .map(|h| (f(world.shape(h).unwrap(), world.pose(h).unwrap()), h))
        .min_by(|a, b| a.0.partial_cmp(&b.0).unwrap().then(a.1.cmp(&b.1)))
}

/// The signed distance of a pair as the world defines it: the closest points' distance
/// when apart, minus the contact's depth when touching or overlapping.
fn signed_pair<V: isect::algo::gjk::GjkVector, S: DispatchShape<V>>(
    pa: &V::Pose,
    a: &S,
    pb: &V::Pose,
    b: &S,
) -> V::Scalar {
    let d = dispatch::closest_points(pa, a, pb, b).distance;
    if d > V::Scalar::ZERO {
        return d;
    }
    dispatch::contact(pa, a, pb, b, V::Scalar::ZERO)
        .map_or(V::Scalar::ZERO, |c| -c.depth.max(V::Scalar::ZERO))
}

/// The signed distance of a point to a shape as the world defines it.
fn signed_point<V: Vector, S: ProjectPoint<V>>(p: V, shape: &S, pose: &V::Pose) -> V::Scalar {
    let proj = shape.project_point(pose, p, false);
    let d = (p - proj.point).length();
    if proj.is_inside {
        -d
    } else {
        d
    }
}

/// Asserts that the world's answer is the brute force's: the same distance (to the
/// tolerance of the pair queries at the scene's scale) and a shape at that distance
/// (near-ties may pick either), or both none.
fn assert_same<V: Vector>(
    what: &str,
    got: Option<WorldDistance<V>>,
    want: Brute<V>,
    distance_of: impl Fn(Handle) -> V::Scalar,
    scale: f64,
) {
    let eps = tol::<V>() * scale;
    match (got, want) {
        (None, None) => {}
        (Some(g), Some((d, h))) => {
            let (gd, d) = (g.distance.to_f64(), d.to_f64());
            assert!(
                (gd - d).abs() <= eps,
                "{what}: world {gd} ({:?}) vs brute {d} ({h:?})",
                g.handle
            );
            let own = distance_of(g.handle).to_f64();
            assert!(
                (own - d).abs() <= eps,
                "{what}: world's shape {:?} is at {own}, best {d}",
                g.handle
            );
        }
        (g, b) => panic!("{what}: world {g:?} vs brute {b:?}"),
    }
}

/// Points and shapes against brute force, unsigned and signed, with and without a
/// maximum distance and a filter, at scale 1 and far from the origin.
fn nearest_matches_brute_force<V: TestDim>() {
    for (seed, offset) in [(1, 0.0), (2, 0.0), (3, 1e4)] {
        let (world, mut rng) = scene::<V>(seed, offset);
        let shift = V::splat(s::<V>(offset));
        let scale = 1.0 + offset * 1e-3;
        for q in 0..QUERIES {
            let filter = if q % 4 == 0 {
                random_filter(&mut rng)
            } else {
                Filter::ALL
            };
            let max = if q % 3 == 0 {
                s::<V>(rng.range(0.0, 2.0))
            } else {
                V::Scalar::INFINITY
            };
            let within = |b: Brute<V>| b.filter(|(d, _)| *d <= max);
            let p = shift + rand_vec::<V>(&mut rng, HALF + 1.0);
            let dist = |h: Handle, solid: bool| {
                let (shape, pose) = (world.shape(h).unwrap(), world.pose(h).unwrap());
                if solid {
                    (p - shape.project_point(pose, p, true).point).length()
                } else {
                    signed_point(p, shape, pose)
                }
            };
            let brute = within(brute_min(&world, filter, |sh, po| {
                (p - sh.project_point(po, p, true).point).length()
            }));
            assert_same(
                "point",
                world.nearest_to_point(p, max, filter),
                brute,
                |h| dist(h, true),
                scale,
            );
            let brute = within(brute_min(&world, filter, |sh, po| signed_point(p, sh, po)));
            assert_same(
                "signed point",
                world.signed_distance_to_point(p, max, filter),
                brute,
                |h| dist(h, false),
                scale,
            );

            let shape = V::shape(rng.below(V::KINDS), &mut rng, 1.0);
            let pose = V::Pose::from_translation(shift).mul(&V::pose(&mut rng, HALF + 1.0));
            let pair = |h: Handle, signed: bool| {
                let (ws, wp) = (world.shape(h).unwrap(), world.pose(h).unwrap());
                if signed {
                    signed_pair(wp, ws, &pose, &shape)
                } else {
                    dispatch::closest_points(wp, ws, &pose, &shape).distance
                }
            };
            let brute = within(brute_min(&world, filter, |ws, wp| {
                dispatch::closest_points(wp, ws, &pose, &shape).distance
            }));
            assert_same(
                "shape",
                world.nearest_to_shape(&pose, &shape, max, filter),
                brute,
                |h| pair(h, false),
                scale,
            );
            let brute = within(brute_min(&world, filter, |ws, wp| {
                signed_pair(wp, ws, &pose, &shape)
            }));
            assert_same(
                "signed shape",
                world.signed_distance_to_shape(&pose, &shape, max, filter),
                brute,
                |h| pair(h, true),
                scale,
            );
        }
    }
}
for_each_vector!(nearest_matches_brute_force);

/// Every shape within a distance, against brute force over `dispatch::distance`.
fn within_distance_matches_brute_force<V: TestDim>() {
    let (world, mut rng) = scene::<V>(7, 0.0);
    let mut found_some = 0;
    for _ in 0..QUERIES {
        let shape = V::shape(rng.below(V::KINDS), &mut rng, 1.0);
        let pose = V::pose(&mut rng, HALF);
        let r = s::<V>(rng.range(0.0, 1.5));
        let got = world.shapes_within_distance(&pose, &shape, r, Filter::ALL);
        let want: Vec<Handle> = world
            .handles()
            .filter(|&h| {
                dispatch::distance(
                    world.pose(h).unwrap(),
                    world.shape(h).unwrap(),
                    &pose,
                    &shape,
                ) <= r
            })
            .collect();
        let got_handles: Vec<Handle> = got.iter().map(|g| g.0).collect();
        assert_eq!(got_handles, want, "within {r:?}");
        found_some += usize::from(!want.is_empty());
    }
    assert!(
        found_some > QUERIES / 4,
        "too few queries found anything: {found_some}"
    );
    let shape = V::shape(0, &mut rng, 1.0);
    let inf = V::Scalar::INFINITY;
    let everything = world.shapes_within_distance(&V::Pose::IDENTITY, &shape, inf, Filter::ALL);
    assert_eq!(
        everything.len(),
        world.len(),
        "an infinite distance lists every shape"
    );
}
for_each_vector!(within_distance_matches_brute_force);

/// Configuration batches: each configuration's clearance is the least signed distance
/// of its links (brute force), its flag says whether it is `≤ 0`, and a bounded batch
/// (`max_distance = 0`, flags only) agrees on the flags.
fn configurations_match_brute_force<V: TestDim>() {
    let (world, mut rng) = scene::<V>(11, 0.0);
    // Sizes that make about half the configurations collide in each dimension.
    let (size, half) = if V::DIM == 2 {
        (0.3, HALF + 2.0)
    } else {
        (0.8, HALF)
    };
    let links: Vec<V::S> = (0..3).map(|k| V::shape(k, &mut rng, size)).collect();
    let poses: Vec<V::Pose> = (0..50 * links.len())
        .map(|_| V::pose(&mut rng, half))
        .collect();
    let checks = world
        .check_configurations(&links, &poses, V::Scalar::INFINITY, Filter::ALL)
        .unwrap();
    let flags = world
        .check_configurations(&links, &poses, V::Scalar::ZERO, Filter::ALL)
        .unwrap();
    assert_eq!(checks.len(), 50);
    let mut collisions = 0;
    for (c, check) in checks.iter().enumerate() {
        let config = &poses[c * links.len()..][..links.len()];
        let want = links
            .iter()
            .zip(config)
            .filter_map(|(link, pose)| {
                brute_min(&world, Filter::ALL, |ws, wp| {
                    signed_pair(wp, ws, pose, link)
                })
            })
            .map(|(d, _)| d.to_f64())
            .fold(f64::INFINITY, f64::min);
        let got = check.clearance.to_f64();
        assert!(
            (got - want).abs() <= tol::<V>(),
            "configuration {c}: {got} vs brute {want}"
        );
        let (link, at) = check.nearest.unwrap();
        let own = signed_pair(
            world.pose(at.handle).unwrap(),
            world.shape(at.handle).unwrap(),
            &config[link],
            &links[link],
        );
        assert!(
            (own.to_f64() - got).abs() <= tol::<V>(),
            "configuration {c}: its nearest pair is at {own:?}"
        );
        assert_eq!(check.collides, check.clearance <= V::Scalar::ZERO);
        assert_eq!(flags[c].collides, flags[c].nearest.is_some());
        if want < -tol::<V>() || want > tol::<V>() {
            assert_eq!(
                flags[c].collides,
                want < 0.0,
                "configuration {c}: flags-only batch"
            );
        }
        collisions += usize::from(check.collides);
    }
    assert!(
        (5..45).contains(&collisions),
        "collisions {collisions} of 50: the test should see both"
    );
}
for_each_vector!(configurations_match_brute_force);

/// Exact edges on a unit cube at the origin: a point on its face is at 0, inside it is
/// at minus its depth; a ball touching the face is at 0, a ball sunk into it at minus
/// the depth with the face's normal; ties go to the smaller handle; an empty world and
/// a filter that admits nothing find nothing.
fn edges<V: TestDim>() {
    let mut world = World::<V, V::S>::new();
    let x = |v: f64| V::ZERO.with(0, s::<V>(v));
    assert!(world
        .nearest_to_point(V::ZERO, V::Scalar::INFINITY, Filter::ALL)
        .is_none());
    let cube = V::cuboid(Aabb::from_center(V::ZERO, V::splat(s::<V>(0.5))).unwrap());
    let a = world
        .insert(cube.clone(), V::Pose::IDENTITY, Filter::ALL)
        .unwrap();
    let on_face = world
        .nearest_to_point(x(0.5), V::Scalar::INFINITY, Filter::ALL)
        .unwrap();
    assert_eq!((on_face.handle, on_face.distance), (a, V::Scalar::ZERO));
    let inside = world
        .signed_distance_to_point(x(0.3), V::Scalar::INFINITY, Filter::ALL)
        .unwrap();
    assert!((inside.distance.to_f64() + 0.2).abs() < 1e-6, "{inside:?}");
    assert!(
        (inside.normal - x(1.0)).length().to_f64() < 1e-6,
        "{inside:?}"
    );
    let ball: V::S = Ball::new(V::ZERO, s::<V>(0.5)).unwrap().into();
    let touching = V::Pose::from_translation(x(1.0));
    let d = world
        .signed_distance_to_shape(&touching, &ball, V::Scalar::INFINITY, Filter::ALL)
        .unwrap();
    assert!(d.distance.to_f64().abs() <= tol::<V>(), "touching: {d:?}");
    let sunk = V::Pose::from_translation(x(0.75));
    let d = world
        .signed_distance_to_shape(&sunk, &ball, V::Scalar::INFINITY, Filter::ALL)
        .unwrap();
    assert!(
        (d.distance.to_f64() + 0.25).abs() <= tol::<V>(),
        "sunk: {d:?}"
    );
    assert!(
        (d.normal - x(1.0)).length().to_f64() <= tol::<V>(),
        "sunk: {d:?}"
    );
    let unsigned = world
        .nearest_to_shape(&sunk, &ball, V::Scalar::INFINITY, Filter::ALL)
        .unwrap();
    assert_eq!(
        (unsigned.distance, unsigned.normal),
        (V::Scalar::ZERO, V::ZERO)
    );
    // A twin cube at the same place: the tie goes to the smaller handle, whatever the tree.
    let b = world
        .insert_static(cube, V::Pose::IDENTITY, Filter::ALL)
        .unwrap();
    let far = world
        .nearest_to_point(x(3.0), V::Scalar::INFINITY, Filter::ALL)
        .unwrap();
    assert_eq!(far.handle, a.min(b));
    assert!((far.distance.to_f64() - 2.5).abs() < 1e-6);
    assert!(world
        .nearest_to_point(x(3.0), s::<V>(2.4), Filter::ALL)
        .is_none());
    let nobody = Filter { group: 0, mask: 0 };
    assert!(world
        .nearest_to_point(x(3.0), V::Scalar::INFINITY, nobody)
        .is_none());
    let not_a = [a];
    let only_b = QueryFilter::new(Filter::ALL).excluding(&not_a);
    assert_eq!(
        world
            .nearest_to_point(x(3.0), V::Scalar::INFINITY, only_b)
            .unwrap()
            .handle,
        b
    );
}
for_each_vector!(edges);

/// NaN and infinite points and poses, NaN and negative maximum distances find nothing;
/// malformed batches are named errors.
fn bad_input<V: TestDim>() {
    let (world, mut rng) = scene::<V>(5, 0.0);
    let nan = V::Scalar::from_f64(f64::NAN);
    let inf = V::Scalar::INFINITY;
    let shape = V::shape(0, &mut rng, 1.0);
    let ok = V::Pose::IDENTITY;
    for p in [V::splat(nan), V::splat(inf)] {
        assert!(world.nearest_to_point(p, inf, Filter::ALL).is_none());
        assert!(world
            .signed_distance_to_point(p, inf, Filter::ALL)
            .is_none());
        let pose = V::Pose::from_translation(p);
        assert!(world
            .nearest_to_shape(&pose, &shape, inf, Filter::ALL)
            .is_none());
        assert!(world
            .signed_distance_to_shape(&pose, &shape, inf, Filter::ALL)
            .is_none());
        assert!(world
            .shapes_within_distance(&pose, &shape, s::<V>(1.0), Filter::ALL)
            .is_empty());
    }
    for max in [nan, s::<V>(-1.0)] {
        assert!(world.nearest_to_point(V::ZERO, max, Filter::ALL).is_none());
        assert!(world
            .signed_distance_to_shape(&ok, &shape, max, Filter::ALL)
            .is_none());
        assert!(world
            .shapes_within_distance(&ok, &shape, max, Filter::ALL)
            .is_empty());
        assert!(matches!(
            world.check_configurations(std::slice::from_ref(&shape), &[ok], max, Filter::ALL),
            Err(WorldError::Invalid(_))
        ));
    }
    let links = [shape.clone(), shape.clone()];
    assert_eq!(
        world.check_configurations(&links, &[ok, ok, ok], inf, Filter::ALL),
        Err(WorldError::BatchLength { poses: 3, links: 2 })
    );
    assert_eq!(
        world.check_configurations(&[], &[ok], inf, Filter::ALL),
        Err(WorldError::BatchLength { poses: 1, links: 0 })
    );
    let bad = V::Pose::from_translation(V::splat(nan));
    match world.check_configurations(&links, &[ok, ok, ok, bad], inf, Filter::ALL) {
        Err(WorldError::Invalid(isect::ShapeError::BadPart { index: 3, .. })) => {}
        other => panic!("a NaN pose at index 3: {other:?}"),
    }
    assert_eq!(
        world.check_configurations(&links, &[], inf, Filter::ALL),
        Ok(Vec::new())
    );
}
for_each_vector!(bad_input);

/// Meshes in the world (closed and solid, closed but hollow, open), beside balls:
/// signed and unsigned distances of shapes and points against brute force.
fn mesh_world<R: Real>()
where
    AnyShape<R>: DispatchShape<R::V3> + ProjectPoint<R::V3>,
    R::V3: isect::algo::gjk::GjkVector,
{
    let v = |p: [f64; 3]| {
        R::V3::ZERO
            .with(0, R::from_f64(p[0]))
            .with(1, R::from_f64(p[1]))
            .with(2, R::from_f64(p[2]))
    };
    let sphere = meshes::bumpy_sphere(24, 12, 0.1);
    let mesh = |solid: bool, at: [f64; 3]| {
        let vertices = sphere.map(|p| v([p[0] + at[0], p[1] + at[1], p[2] + at[2]]));
        let flags = TriMeshFlags { solid };
        AnyShape::from(TriMesh::new(vertices, sphere.indices.clone(), flags).unwrap())
    };
    let terrain = meshes::grid(12, |x, z| 0.3 * (x * 3.0).sin() * (z * 2.0).cos());
    let open = TriMesh::new(
        terrain.map(|p| v([4.0 * p[0], p[1] - 2.0, 4.0 * p[2]])),
        terrain.indices.clone(),
        TriMeshFlags::OPEN,
    )
    .unwrap();
    let mut world = World::<R::V3, AnyShape<R>>::new();
    world
        .insert_static(mesh(true, [0.0, 0.0, 0.0]), Isometry::IDENTITY, Filter::ALL)
        .unwrap();
    world
        .insert_static(
            mesh(false, [3.0, 0.0, 0.0]),
            Isometry::IDENTITY,
            Filter::ALL,
        )
        .unwrap();
    world
        .insert_static(AnyShape::from(open), Isometry::IDENTITY, Filter::ALL)
        .unwrap();
    let mut rng = Rng(23);
    for _ in 0..6 {
        let ball = Ball::new(
            rand_vec::<R::V3>(&mut rng, 4.0),
            R::from_f64(rng.range(0.2, 0.5)),
        )
        .unwrap();
        world.insert(ball, Isometry::IDENTITY, Filter::ALL).unwrap();
    }
    let inf = R::INFINITY;
    for _ in 0..QUERIES {
        let p = rand_vec::<R::V3>(&mut rng, 4.0);
        let brute = brute_min(&world, Filter::ALL, |sh, po| signed_point(p, sh, po));
        let own = |h: Handle| signed_point(p, world.shape(h).unwrap(), world.pose(h).unwrap());
        assert_same(
            "mesh point",
            world.signed_distance_to_point(p, inf, Filter::ALL),
            brute,
            own,
            4.0,
        );
        let probe = AnyShape::from(isect::shape::shape_3d::Shape::from(
            Ball::new(R::V3::ZERO, R::from_f64(rng.range(0.1, 0.6))).unwrap(),
        ));
        let pose = Isometry::from_translation(p);
        let brute = brute_min(&world, Filter::ALL, |ws, wp| {
            signed_pair(wp, ws, &pose, &probe)
        });
        let own = |h: Handle| {
            signed_pair(
                world.pose(h).unwrap(),
                world.shape(h).unwrap(),
                &pose,
                &probe,
            )
        };
        assert_same(
            "mesh shape",
            world.signed_distance_to_shape(&pose, &probe, inf, Filter::ALL),
            brute,
            own,
            4.0,
        );
    }
    // Deep inside the solid mesh: negative; inside the hollow one: positive.
    let deep = world
        .signed_distance_to_point(v([0.0, 0.0, 0.0]), inf, Filter::ALL)
        .unwrap();
    assert!(deep.distance < R::ZERO, "{deep:?}");
    let hollow = world
        .signed_distance_to_point(v([3.0, 0.0, 0.0]), inf, Filter::ALL)
        .unwrap();
    assert!(hollow.distance > R::ZERO, "{hollow:?}");
}

#[test]
fn mesh_world_f32() {
    mesh_world::<f32>();
}

#[test]
fn mesh_world_f64() {
    mesh_world::<f64>();
}
