//! Issue 18: rotations were not validated where poses enter. A zero quaternion and one
//! of length 2 were accepted by `World::insert` and the pair queries; a cube at
//! x = 5 with quaternion (0, 0, 0, 2) got a 4× box in the broad phase while a ray
//! cast saw it at its true size. Fixed by `Rotation3::to_unit` / `Rot2::to_unit`
//! (through `Isometry::with_unit_rotation`) at `World::insert` / `set_pose` and the
//! world's query poses, the dispatch's pair queries and `Compound::new`: normalised
//! within `ROTATION_UNIT_ULPS` of unit length, refused beyond.
//!
//! The class: every entry point, rotations of length 0, 1e-3, 0.5, 1 ± the tolerance,
//! 2, NaN and infinite components, 2D and 3D, f32 and f64; a seeded sweep of rotated
//! cubes at every scale from 1e-3 to 1e5 checked against the analytic answers of the
//! unit rotation.

use glam::{DQuat, DVec3};
use isect::algo::gjk::GjkVector;
use isect::math::{
    Isometry, Pose2, Pose3, Real, Rot2, Rotation3, RotationError, Vector, Vector3,
    ROTATION_UNIT_ULPS,
};
use isect::query::dispatch;
use isect::shape::{shape_2d, shape_3d, Aabb, Ball, Compound, Ray, ShapeError};
use isect::world::{Filter, World, WorldError};

use crate::rng;
use rng::Rng;

/// The tolerance on the length in the scalar `R`, as a length factor offset.
fn tol<R: Real>() -> f64 {
    ROTATION_UNIT_ULPS * R::EPSILON.to_f64()
}

/// Length factors that must be refused: zero, far off, and just past the tolerance.
fn refused<R: Real>() -> [f64; 7] {
    let t = tol::<R>();
    [
        0.0,
        1e-3,
        0.5,
        2.0,
        1.0 + 1.01 * t,
        1.0 - 1.01 * t,
        1.0 + 4.0 * t,
    ]
}

/// Length factors that must be accepted (and normalised).
fn accepted<R: Real>() -> [f64; 5] {
    let t = tol::<R>();
    [
        1.0,
        1.0 + 0.99 * t,
        1.0 - 0.99 * t,
        1.0 + 0.5 * t,
        1.0 - 0.3 * t,
    ]
}

/// A seeded unit axis and an angle, in f64.
fn axis_angle(rng: &mut Rng) -> (DVec3, f64) {
    loop {
        let v = DVec3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        );
        if let Some(axis) = v.try_normalize() {
            return (axis, rng.range(-3.1, 3.1));
        }
    }
}

/// `axis`/`angle` as a quaternion of `R`, every component times `k`.
fn quat<R: Real>(axis: DVec3, angle: f64, k: f64) -> R::Quat {
    let axis = R::V3::new(
        R::from_f64(axis.x),
        R::from_f64(axis.y),
        R::from_f64(axis.z),
    );
    R::Quat::from_axis_angle(axis, R::from_f64(angle)).scaled(R::from_f64(k))
}

/// Every rotation length of the class, through `to_unit` of both rotation types.
fn lengths<R: Real>() {
    let eps = R::EPSILON.to_f64();
    let mut rng = Rng(0x0707_u64 ^ R::EPSILON.to_f64().to_bits());
    for _ in 0..200 {
        let (axis, angle) = axis_angle(&mut rng);
        let unit = quat::<R>(axis, angle, 1.0);
        let rot = Rot2::<R>::from_angle(R::from_f64(angle));
        let scaled2 = |k: f64| Rot2 {
            cos: rot.cos * R::from_f64(k),
            sin: rot.sin * R::from_f64(k),
        };
        for k in refused::<R>() {
            let want = |e: Result<f64, RotationError>| match e {
                Err(RotationError::NotUnit { length }) => {
                    assert!(
                        (length - k).abs() <= 8.0 * eps * k.max(1.0),
                        "{length} vs {k}"
                    )
                }
                other => panic!("length {k}: {other:?}"),
            };
            want(
                quat::<R>(axis, angle, k)
                    .to_unit()
                    .map(|q| q.length_squared().to_f64()),
            );
            want(scaled2(k).to_unit().map(|r| r.cos.to_f64()));
        }
        for k in accepted::<R>() {
            let q = quat::<R>(axis, angle, k).to_unit().expect("near unit");
            assert!(
                (q.length_squared().to_f64() - 1.0).abs() <= 8.0 * eps,
                "{k}: {q:?}"
            );
            let v = R::V3::new(R::ONE, R::from_f64(0.5), R::from_f64(-2.0));
            let (got, want) = (q.rotate(v), unit.rotate(v));
            assert!(
                (got - want).length().to_f64() <= 32.0 * eps,
                "{k}: {got:?} {want:?}"
            );
            let r = scaled2(k).to_unit().expect("near unit");
            let len2 = (r.cos * r.cos + r.sin * r.sin).to_f64();
            assert!((len2 - 1.0).abs() <= 8.0 * eps, "{k}: {r:?}");
            assert!((r.angle() - rot.angle()).abs().to_f64() <= 8.0 * eps, "{k}");
        }
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let q = quat::<R>(axis, angle, bad);
            assert_eq!(q.to_unit(), Err(RotationError::NotFinite), "{q:?}");
            assert_eq!(scaled2(bad).to_unit(), Err(RotationError::NotFinite));
        }
    }
}

#[test]
fn rotation_lengths_are_kept_normalised_or_refused() {
    lengths::<f32>();
    lengths::<f64>();
    // One bad component among unit ones.
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        for i in 0..4 {
            let mut c = [0.0f32, 0.0, 0.0, 1.0];
            c[i] = bad;
            let q = glam::Quat::from_array(c);
            assert_eq!(q.to_unit(), Err(RotationError::NotFinite), "{q:?}");
            let d = DQuat::from_array(c.map(f64::from));
            assert_eq!(d.to_unit(), Err(RotationError::NotFinite), "{d:?}");
        }
        let r = Rot2::<f32> { cos: bad, sin: 0.0 };
        assert_eq!(r.to_unit(), Err(RotationError::NotFinite));
    }
}

/// Every refused rotation `q` at every entry point of a 3D world and the dispatch.
fn refused_everywhere_3d<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let s = R::from_f64;
    let cube =
        shape_3d::Shape::Cuboid(Aabb::from_center(R::V3::ZERO, R::V3::splat(s(1.0))).expect("box"));
    let ball = shape_3d::Shape::Ball(Ball::new(R::V3::ZERO, s(1.0)).expect("ball"));
    let at = |x: f64, q: R::Quat| Pose3::new(R::V3::new(s(x), s(0.0), s(0.0)), q);
    let mut bads: Vec<R::Quat> = refused::<R>()
        .iter()
        .map(|&k| quat::<R>(DVec3::Z, 0.7, k))
        .collect();
    bads.extend([f64::NAN, f64::INFINITY].map(|k| quat::<R>(DVec3::Z, 0.7, k)));
    for q in bads {
        let mut world = World::<R::V3, shape_3d::Shape<R>>::new();
        let err = world.insert(cube.clone(), at(5.0, q), Filter::ALL);
        assert!(
            matches!(
                err,
                Err(WorldError::Invalid(ShapeError::NotUnit { .. }))
                    | Err(WorldError::Invalid(ShapeError::NotFinite { .. }))
            ),
            "{q:?}: {err:?}"
        );
        assert!(world.is_empty());
        let h = world
            .insert(cube.clone(), at(5.0, R::Quat::IDENTITY), Filter::ALL)
            .expect("unit");
        assert!(world.set_pose(h, at(7.0, q)).is_err(), "{q:?}");
        assert_eq!(world.pose(h), Some(&at(5.0, R::Quat::IDENTITY)));
        let probe = at(5.5, q);
        assert!(world
            .intersecting_shapes(&probe, &ball, Filter::ALL)
            .is_empty());
        let v = R::V3::ZERO;
        assert!(world
            .cast_shape(&probe, v, &ball, s(1.0), Filter::ALL)
            .is_none());
        let good = at(5.5, R::Quat::IDENTITY);
        for (pa, pb) in [(&probe, &good), (&good, &probe)] {
            assert!(!dispatch::intersects(pa, &cube, pb, &ball), "{q:?}");
            assert!(dispatch::contact(pa, &cube, pb, &ball, s(1.0)).is_none());
            assert!(dispatch::contact_manifold(pa, &cube, pb, &ball, s(1.0)).is_none());
            assert!(dispatch::distance(pa, &cube, pb, &ball).is_nan());
            assert!(dispatch::closest_points(pa, &cube, pb, &ball)
                .distance
                .is_nan());
            assert!(dispatch::cast_shapes(pa, v, &cube, pb, v, &ball, s(1.0)).is_none());
        }
        let parts = vec![(good, cube.clone()), (probe, ball.clone())];
        assert!(matches!(
            Compound::new(parts),
            Err(ShapeError::BadPart { index: 1, .. })
        ));
    }
}

/// The same in 2D, with `(cos, sin)` pairs of the refused lengths.
fn refused_everywhere_2d<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let s = R::from_f64;
    let cube =
        shape_2d::Shape::Cuboid(Aabb::from_center(R::V2::ZERO, R::V2::splat(s(1.0))).expect("box"));
    let ball = shape_2d::Shape::Ball(Ball::new(R::V2::ZERO, s(1.0)).expect("ball"));
    let at = |x: f64, k: f64| Pose2 {
        rotation: Rot2 {
            cos: s(0.6 * k),
            sin: s(0.8 * k),
        },
        translation: R::V2::splat(s(x)),
    };
    for k in refused::<R>().into_iter().chain([f64::NAN, f64::INFINITY]) {
        let mut world = World::<R::V2, shape_2d::Shape<R>>::new();
        assert!(
            world.insert(cube.clone(), at(5.0, k), Filter::ALL).is_err(),
            "{k}"
        );
        let h = world
            .insert(cube.clone(), at(5.0, 1.0), Filter::ALL)
            .expect("unit");
        assert!(world.set_pose(h, at(7.0, k)).is_err(), "{k}");
        let (probe, good) = (at(5.5, k), at(5.5, 1.0));
        assert!(world
            .intersecting_shapes(&probe, &ball, Filter::ALL)
            .is_empty());
        for (pa, pb) in [(&probe, &good), (&good, &probe)] {
            assert!(!dispatch::intersects(pa, &cube, pb, &ball), "{k}");
            assert!(dispatch::contact(pa, &cube, pb, &ball, s(1.0)).is_none());
            assert!(dispatch::distance(pa, &cube, pb, &ball).is_nan());
        }
    }
}

#[test]
fn refused_rotations_at_every_entry_point() {
    refused_everywhere_3d::<f32>();
    refused_everywhere_3d::<f64>();
    refused_everywhere_2d::<f32>();
    refused_everywhere_2d::<f64>();
}

/// The rotation matrix's action and its inverse's, in f64.
fn local(q: DQuat, c: DVec3, p: DVec3) -> DVec3 {
    q.inverse() * (p - c)
}

/// A cube of half-extent `h` at `c` turned by `axis`/`angle`, its quaternion scaled by
/// an accepted factor: the world's box, a ray cast, a contact with a probe ball and
/// point queries all see the unit-size cube.
fn rotated_cube_in_the_world<R: Real>(rng: &mut Rng, scale: f64)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let s = R::from_f64;
    let v3 = |p: DVec3| R::V3::new(s(p.x), s(p.y), s(p.z));
    let back = |p: R::V3| DVec3::new(p.get(0).to_f64(), p.get(1).to_f64(), p.get(2).to_f64());
    let (axis, angle) = axis_angle(rng);
    let exact = DQuat::from_axis_angle(axis, angle);
    let h = scale;
    let c = DVec3::new(5.0 * scale, 0.0, 0.0);
    let slack = 256.0 * R::EPSILON.to_f64() * 8.0 * scale;
    for k in accepted::<R>() {
        let cube = Aabb::from_center(R::V3::ZERO, R::V3::splat(s(h))).expect("box");
        let mut world = World::<R::V3, shape_3d::Shape<R>>::with_prediction(s(20.0 * scale))
            .expect("prediction");
        let pose = Pose3::new(v3(c), quat::<R>(axis, angle, k));
        let id = world
            .insert(shape_3d::Shape::Cuboid(cube), pose, Filter::ALL)
            .expect("accepted");
        // The box: c ± |R|·h.
        let reach = DVec3::from_array([0, 1, 2].map(|i| {
            let row = DVec3::from_array([0, 1, 2].map(|j| (exact * DVec3::AXES[j])[i]));
            row.abs().element_sum() * h
        }));
        let aabb = world.aabb(id).expect("live");
        let off = (back(aabb.max) - (c + reach))
            .abs()
            .max((back(aabb.min) - (c - reach)).abs());
        assert!(
            off.max_element() <= slack,
            "box {aabb:?} vs ±{reach}, k = {k}"
        );
        // A ray along −x from x = c + 10 h: it leaves the cube's centre line at the
        // face whose normal the direction leans on most.
        let d = local(exact, DVec3::ZERO, -DVec3::X);
        let want_t = 10.0 * h - h / d.abs().max_element();
        let ray = Ray {
            origin: v3(c + DVec3::X * 10.0 * h),
            dir: v3(-DVec3::X),
        };
        let hit = world
            .cast_ray(&ray, s(f64::INFINITY), Filter::ALL)
            .expect("hit");
        assert!(
            (hit.hit.t.to_f64() - want_t).abs() <= slack,
            "ray {} vs {want_t}",
            hit.hit.t
        );
        // A probe ball of radius h/2 near the cube: its contact depth is minus the
        // distance from its centre to the box in the cube's frame, less its radius.
        let dir = DVec3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        );
        let p = c + dir.normalize_or(DVec3::Y) * 2.5 * h;
        let l = local(exact, c, p);
        let want_d = (l - l.clamp(DVec3::splat(-h), DVec3::splat(h))).length() - 0.5 * h;
        let ball = Ball::new(R::V3::ZERO, s(0.5 * h)).expect("ball");
        world
            .insert(
                shape_3d::Shape::Ball(ball),
                Pose3::from_translation(v3(p)),
                Filter::ALL,
            )
            .expect("ball");
        world.update();
        let contact = world.contacts()[0].contact;
        assert!(
            (contact.depth.to_f64() + want_d).abs() <= slack,
            "contact {contact:?} vs {want_d}"
        );
        // Points 1 % inside and outside each face centre.
        for i in 0..3 {
            for sign in [-1.0, 1.0] {
                let face = exact * (DVec3::AXES[i] * sign * h);
                let inside = world.shapes_at_point(v3(c + face * 0.99), Filter::ALL);
                assert!(inside.contains(&id), "inside face {i} {sign}, k = {k}");
                let outside = world.shapes_at_point(v3(c + face * 1.01), Filter::ALL);
                assert!(!outside.contains(&id), "outside face {i} {sign}, k = {k}");
            }
        }
    }
}

#[test]
fn near_unit_rotations_give_one_rigid_cube_at_every_scale() {
    let mut rng = Rng(0x5C0BE);
    for e in -3..=5 {
        let scale = 10f64.powi(e);
        for _ in 0..8 {
            rotated_cube_in_the_world::<f32>(&mut rng, scale);
            rotated_cube_in_the_world::<f64>(&mut rng, scale);
        }
    }
}

/// The example: a cube at x = 5 with quaternion (0, 0, 0, 2) is refused (it
/// used to get a 4× box); the same with (0, 0, 0, 1) is the unit cube.
#[test]
fn cube_at_five_with_a_quaternion_of_length_two() {
    let cube = shape_3d::Shape::Cuboid(
        Aabb::from_center(glam::Vec3::ZERO, glam::Vec3::splat(0.5)).expect("box"),
    );
    let mut world = World::<glam::Vec3, shape_3d::Shape<f32>>::new();
    let q = glam::Quat::from_xyzw(0.0, 0.0, 0.0, 2.0);
    let pose = Pose3::new(glam::Vec3::new(5.0, 0.0, 0.0), q);
    let err = world.insert(cube.clone(), pose, Filter::ALL);
    assert!(
        matches!(err, Err(WorldError::Invalid(ShapeError::NotUnit { length, .. })) if length == 2.0),
        "{err:?}"
    );
    let pose = Pose3::new(glam::Vec3::new(5.0, 0.0, 0.0), glam::Quat::IDENTITY);
    let id = world.insert(cube, pose, Filter::ALL).expect("unit");
    let aabb = world.aabb(id).expect("live");
    assert_eq!((aabb.min.x, aabb.max.x), (4.5, 5.5));
}
