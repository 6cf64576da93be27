//! The character controller as a player would judge it, in 3D (a capsule) and 2D (a
//! capsule and a box), `f32` and `f64`, at every scale from 1e-3 to 1e5 (every length
//! of a scene, the character and its speeds times `k`): walking over triangle-mesh
//! terrain and across box seams without snagging, climbing stairs up to the step
//! height and not higher, sliding down a 60° slope with a 45° limit (and not walking
//! up it), not tunnelling through a thin wall at any speed, standing still on a slope
//! for 1,000 frames without drifting, riding a moving platform, recovering from a
//! shape moved into it; and the bad inputs (NaN and infinite motions, negative skins
//! and step heights, zero motions, a stale caster) answered with named errors or
//! documented answers. After every frame the character must not touch any shape
//! (`World::intersecting_shapes` is empty: it keeps its skin).

#[path = "support/rng.rs"]
mod rng;

/// The scales of every scene.
const SCALES: [f64; 4] = [1e-3, 1.0, 1e3, 1e5];

/// The character's radius, its skin, step height and width, snap distance, walking
/// speed and gravity per frame, at scale 1.
const RADIUS: f64 = 0.4;
const SKIN: f64 = 0.02;
const STEP: f64 = 0.3;
const STEP_WIDTH: f64 = 0.1;
const SNAP: f64 = 0.35;
const SPEED: f64 = 0.1;
const GRAVITY: f64 = 0.05;

macro_rules! common {
    () => {
        use isect::character::*;

        type V = Vector;

        fn s(x: f64) -> Real {
            x as Real
        }

        /// The controller of the tests at scale `k`.
        fn controller(k: f64) -> CharacterController<V> {
            CharacterController::new(up(), s(SKIN * k))
                .and_then(|c| c.with_step(s(STEP * k), s(STEP_WIDTH * k)))
                .and_then(|c| c.with_snap_to_ground(s(SNAP * k)))
                .expect("valid controller")
        }

        /// A character: its controller, body and pose (the body's foot at the pose).
        struct Player {
            ctl: CharacterController<V>,
            body: AnyShape,
            pose: Pose,
            k: f64,
        }

        impl Player {
            /// One frame: the move, applied, then checked to leave the character
            /// touching nothing.
            fn frame(&mut self, world: &World, desired: V) -> CharacterMove<V> {
                let m = self
                    .ctl
                    .move_shape(world, &self.body, &self.pose, desired, Filter::ALL)
                    .expect("a valid move");
                self.apply(world, &m);
                m
            }

            fn apply(&mut self, world: &World, m: &CharacterMove<V>) {
                assert!(m.translation.is_finite());
                self.pose.translation += m.translation;
                let touching = world.intersecting_shapes(&self.pose, &self.body, Filter::ALL);
                assert!(
                    touching.is_empty(),
                    "k = {}: the character at {:?} touches {touching:?}",
                    self.k,
                    self.pose.translation
                );
            }

            /// Walks `frames` frames along `dir` (horizontal, unit) under gravity.
            fn walk(&mut self, world: &World, dir: V, frames: usize) -> Vec<CharacterMove<V>> {
                let desired = dir * s(SPEED * self.k) - up() * s(GRAVITY * self.k);
                (0..frames).map(|_| self.frame(world, desired)).collect()
            }

            fn height(&self) -> f64 {
                self.pose.translation.dot(up()) as f64
            }
        }

        /// A static box of the world from `min` to `max`.
        fn block(world: &mut World, min: V, max: V) -> Handle {
            let b = Aabb::new(min, max).expect("box");
            world
                .insert_static(Shape::Cuboid(b), Pose::IDENTITY, Filter::ALL)
                .expect("insert")
        }

        /// A world whose floor's top is at height 0 over `[−half, half]` along every
        /// horizontal axis.
        fn floor(k: f64, half: f64) -> World {
            let mut world = World::new();
            let lo = flat(-half * k) - up() * s(k);
            block(&mut world, lo, flat(half * k));
            world
        }

        /// The stairs test for steps of `height` (scale 1): steps 0.8 deep from 1 on,
        /// five of them; returns the player after walking 120 frames along +x and how
        /// many of its moves stepped up.
        fn climb(k: f64, height: f64) -> (Player, usize) {
            let mut world = floor(k, 20.0);
            for i in 0..5 {
                let x0 = 1.0 + 0.8 * i as f64;
                let lo = flat(-20.0 * k).with(0, s(x0 * k));
                block(
                    &mut world,
                    lo,
                    flat(20.0 * k) + up() * s(height * (i + 1) as f64 * k),
                );
            }
            let mut p = player(k, up() * s(SKIN * k));
            let steps = p
                .walk(&world, V::X, 120)
                .iter()
                .filter(|m| m.stepped)
                .count();
            (p, steps)
        }

        #[test]
        fn climbs_stairs_up_to_the_step_height() {
            for k in super::SCALES {
                for frac in [0.3, 0.6, 0.9] {
                    let h = frac * STEP;
                    let (p, steps) = climb(k, h);
                    assert!(steps >= 5, "k {k} h {h}: {steps} moves stepped up");
                    let top = 5.0 * h * k + SKIN * k;
                    let x = p.pose.translation.x as f64;
                    assert!(
                        (p.height() - top).abs() < 0.5 * SKIN * k,
                        "k {k} h {h}: at {:?}",
                        p.pose
                    );
                    assert!(x > 11.0 * k, "k {k} h {h}: stopped at x = {x}");
                }
            }
        }

        #[test]
        fn step_height_sweep_climbs_exactly_the_low_steps() {
            let mut rng = super::rng::Rng(0x57A1);
            for k in super::SCALES {
                for _ in 0..12 {
                    // Heights away from the limit by 5 %: low ones climbed, high ones not.
                    let low = rng.unit() < 0.5;
                    let frac = if low {
                        rng.range(0.05, 0.95)
                    } else {
                        rng.range(1.05, 2.5)
                    };
                    let (p, _) = climb(k, frac * STEP);
                    let top = 5.0 * frac * STEP * k + SKIN * k;
                    let climbed = (p.height() - top).abs() < 0.5 * SKIN * k;
                    let stayed = p.height() < 2.0 * SKIN * k;
                    assert!(
                        if low { climbed } else { stayed },
                        "k {k} frac {frac}: {:?}",
                        p.pose
                    );
                }
            }
        }

        #[test]
        fn slope_sweep_holds_gentle_slopes_and_slides_steep_ones() {
            let mut rng = super::rng::Rng(0x5109);
            for k in super::SCALES {
                for _ in 0..8 {
                    let gentle = rng.unit() < 0.5;
                    let deg = if gentle {
                        rng.range(2.0, 43.0)
                    } else {
                        rng.range(47.0, 85.0)
                    };
                    let (world, mut p) = on_slope(k, deg.to_radians());
                    for _ in 0..3 {
                        p.frame(&world, -up() * s(GRAVITY * k));
                    }
                    let start = p.pose.translation;
                    let moves: Vec<_> = (0..50)
                        .map(|_| p.frame(&world, -up() * s(GRAVITY * k)))
                        .collect();
                    let moved = (p.pose.translation - start).length() as f64;
                    if gentle {
                        assert!(
                            moves.iter().all(|m| m.grounded),
                            "k {k} {deg}°: not grounded"
                        );
                        assert!(moved < 1e-4 * SKIN * k, "k {k} {deg}°: drifted {moved}");
                    } else {
                        assert!(moves.iter().all(|m| !m.grounded), "k {k} {deg}°: grounded");
                        // Gravity along the slope: at least g·cos²(85°)·50 frames.
                        assert!(moved > 0.3 * GRAVITY * k, "k {k} {deg}°: slid only {moved}");
                    }
                }
            }
        }

        #[test]
        fn does_not_climb_steps_higher_than_the_step_height() {
            for k in super::SCALES {
                for frac in [1.1, 1.5, 3.0] {
                    let (p, _) = climb(k, frac * STEP);
                    let x = p.pose.translation.x as f64;
                    assert!(
                        p.height() < 2.0 * SKIN * k,
                        "k {k} frac {frac}: climbed to {:?}",
                        p.pose
                    );
                    assert!(x + RADIUS * k <= 1.0 * k, "k {k} frac {frac}: x = {x}");
                }
            }
        }

        /// One far move towards a wide step of `frac · STEP` from x = 0.5: where it
        /// ends, how far it was asked to go, and whether it stepped. The move is 20
        /// walking frames at once (5 in f32, whose casts reach less: see
        /// `CharacterController::max_iterations`).
        fn far_move_at_step(k: f64, frac: f64) -> (Player, f64, bool) {
            let frames = if std::mem::size_of::<Real>() == 4 {
                5.0
            } else {
                20.0
            };
            let mut world = floor(k, 20.0);
            let lo = flat(-20.0 * k).with(0, s(0.5 * k));
            block(&mut world, lo, flat(20.0 * k) + up() * s(frac * STEP * k));
            let mut p = player(k, up() * s(SKIN * k));
            let m = p.frame(&world, V::X * s(frames * SPEED * k));
            (p, frames * SPEED, m.stepped)
        }

        #[test]
        fn a_far_move_lands_on_a_low_step_and_stops_at_a_high_one() {
            for k in super::SCALES {
                for frac in [0.1, 0.3, 0.6, 0.9] {
                    let (p, far, stepped) = far_move_at_step(k, frac);
                    let top = frac * STEP * k + SKIN * k;
                    let x = p.pose.translation.x as f64;
                    assert!(
                        stepped && (p.height() - top).abs() < 0.5 * SKIN * k,
                        "k {k} frac {frac}: at {:?}, stepped {stepped}",
                        p.pose
                    );
                    assert!((x - far * k).abs() < 1e-3 * k, "k {k} frac {frac}: x = {x}");
                }
                for frac in [1.1, 2.0] {
                    let (p, _, stepped) = far_move_at_step(k, frac);
                    let x = p.pose.translation.x as f64;
                    assert!(
                        !stepped && p.height() < 2.0 * SKIN * k,
                        "k {k} frac {frac}: at {:?}, stepped {stepped}",
                        p.pose
                    );
                    assert!(x + RADIUS * k <= 0.5 * k, "k {k} frac {frac}: x = {x}");
                }
            }
        }

        #[test]
        fn walks_down_stairs_grounded_with_snap() {
            for k in super::SCALES {
                let mut world = floor(k, 20.0);
                let h = 0.9 * STEP;
                for i in 0..5 {
                    // Steps down along +x: the highest ends at x = 1.
                    let x1 = 1.0 + 0.8 * i as f64;
                    let hi = flat(20.0 * k).with(0, s(x1 * k)) + up() * s(h * (5 - i) as f64 * k);
                    block(&mut world, flat(-20.0 * k), hi);
                }
                let mut p = player(k, up() * s((5.0 * h + SKIN) * k));
                for (i, m) in p.walk(&world, V::X, 80).iter().enumerate() {
                    assert!(m.grounded, "k {k}: frame {i} in the air at {:?}", p.pose);
                }
                assert!(
                    (p.height() - SKIN * k).abs() < 0.5 * SKIN * k,
                    "k {k}: {:?}",
                    p.pose
                );
            }
        }

        #[test]
        fn does_not_tunnel_through_a_thin_wall() {
            let mut rng = super::rng::Rng(0xC4A2);
            for k in super::SCALES {
                let mut world = floor(k, 50.0);
                let wall_x = 5.0 * k;
                let lo = flat(-50.0 * k).with(0, s(wall_x));
                block(
                    &mut world,
                    lo,
                    flat(50.0 * k).with(0, s(wall_x + 0.01 * k)) + up() * s(5.0 * k),
                );
                for _ in 0..40 {
                    let start = rng.range(0.0, 4.0) * k;
                    let mut p = player(k, up() * s(SKIN * k) + V::X * s(start));
                    let speed = 10f64.powf(rng.range(0.0, 8.0)) * k;
                    let side = rng.range(-0.5, 0.5);
                    let desired = (V::X + across() * s(side)) * s(speed) - up() * s(GRAVITY * k);
                    p.frame(&world, desired);
                    let x = p.pose.translation.x as f64;
                    assert!(x + RADIUS * k < wall_x, "k {k} speed {speed}: x = {x}");
                }
                // A motion of 1e30 (finite) stops at the wall too, or is cut at the
                // documented reach of a move.
                let mut p = player(k, up() * s(SKIN * k));
                let m = p.frame(&world, V::X * s(1e30));
                assert!((p.pose.translation.x as f64) + RADIUS * k < wall_x);
                let slope =
                    (Real::EPSILON as f64).sqrt() * isect::query::cast_options::APPROACH_SQRT_ULPS;
                let reach = MAX_SINK_SKINS * SKIN * k / slope;
                assert!((m.translation.length() as f64) <= reach * (1.0 + 1e-3));
            }
        }

        #[test]
        fn slides_down_a_60_degree_slope_with_a_45_degree_limit() {
            for k in super::SCALES {
                let (world, mut p) = on_slope(k, 60f64.to_radians());
                let start = p.height();
                for i in 0..30 {
                    let m = p.frame(&world, -up() * s(SPEED * k));
                    assert!(!m.grounded, "k {k}: frame {i} grounded on a 60° slope");
                    assert!(m.sliding_down, "k {k}: frame {i} not sliding");
                }
                // Gravity along the slope: each frame descends g·sin²60° = 0.75 g.
                let fell = start - p.height();
                assert!(fell > 0.7 * 30.0 * SPEED * k, "k {k}: fell only {fell}");
            }
        }

        #[test]
        fn does_not_walk_up_a_60_degree_slope() {
            for k in super::SCALES {
                let (world, p0) = on_slope(k, 60f64.to_radians());
                // Start on the floor left of the slope's foot (at x = 0), facing it.
                let mut p = player(k, up() * s(SKIN * k) - V::X * s(2.0 * k));
                let _ = p0;
                let mut highest = p.height();
                for _ in 0..100 {
                    p.walk(&world, V::X, 1);
                    highest = highest.max(p.height());
                }
                assert!(highest < 0.1 * k, "k {k}: climbed to {highest}");
            }
        }

        #[test]
        fn walks_up_a_30_degree_slope() {
            for k in super::SCALES {
                let (world, mut p) = on_slope(k, 30f64.to_radians());
                let (x0, y0) = (p.pose.translation.x as f64, p.height());
                let moves = p.walk(&world, V::X, 40);
                assert!(moves.iter().all(|m| m.grounded), "k {k}: left the slope");
                let dx = p.pose.translation.x as f64 - x0;
                let dy = p.height() - y0;
                assert!(dx > 0.95 * 40.0 * SPEED * k, "k {k}: dx = {dx}");
                let rise = dx * 30f64.to_radians().tan();
                assert!(
                    (dy - rise).abs() < 2.0 * SKIN * k,
                    "k {k}: dy {dy} vs {rise}"
                );
            }
        }

        #[test]
        fn stands_still_on_a_slope_for_1000_frames() {
            for k in [1e-3, 1.0, 1e5] {
                for deg in [10.0, 30.0, 44.0] {
                    let (world, mut p) = on_slope(k, f64::to_radians(deg));
                    // Settle, then stand.
                    for _ in 0..5 {
                        p.frame(&world, -up() * s(GRAVITY * k));
                    }
                    let start = p.pose.translation;
                    for i in 0..1000 {
                        let m = p.frame(&world, -up() * s(GRAVITY * k));
                        assert!(m.grounded, "k {k} {deg}°: frame {i} not grounded");
                    }
                    let drift = (p.pose.translation - start).length() as f64;
                    assert!(drift < 1e-4 * SKIN * k, "k {k} {deg}°: drifted {drift}");
                }
            }
        }

        #[test]
        fn rides_a_moving_platform() {
            for k in super::SCALES {
                let mut world = floor(k, 50.0);
                let half = flat(2.0 * k) + up() * s(0.25 * k);
                let deck = Aabb::from_center(V::ZERO, half).expect("deck");
                let path = |f: usize| {
                    let t = f as f64;
                    V::X * s(3.0 * k * (t / 40.0).sin()) + up() * s(k * (2.0 + (t / 25.0).sin()))
                };
                let mut at = Pose::from_translation(path(0));
                let platform = world
                    .insert(Shape::Cuboid(deck), at, Filter::ALL)
                    .expect("platform");
                let mut p = player(k, path(0) + up() * s((0.25 + SKIN) * k));
                let offset = p.pose.translation - path(0);
                let mut ground = p.frame(&world, V::ZERO).ground.expect("on the deck");
                for f in 1..300 {
                    let next = Pose::from_translation(path(f));
                    world.set_pose(platform, next).expect("move");
                    let carry = Carry {
                        handle: ground.handle,
                        displacement: platform_displacement(&at, &next, ground.point),
                    };
                    let gravity = -up() * s(GRAVITY * k);
                    let m = p
                        .ctl
                        .move_shape_carried(&world, &p.body, &p.pose, carry, gravity, Filter::ALL)
                        .expect("valid");
                    p.apply(&world, &m);
                    at = next;
                    ground = m.ground.expect("still on the deck");
                    assert_eq!(ground.handle, platform);
                }
                let drift = (p.pose.translation - at.translation - offset).length() as f64;
                assert!(
                    drift < 0.5 * SKIN * k,
                    "k {k}: drifted {drift} from the deck"
                );
            }
        }

        #[test]
        fn recovers_from_a_shape_moved_into_it() {
            for k in super::SCALES {
                let mut world = floor(k, 20.0);
                let mut p = player(k, up() * s(SKIN * k));
                // A wall teleported 0.1 into the character's right side.
                let x = (RADIUS - 0.1) * k;
                let lo = flat(-20.0 * k).with(0, s(x));
                let wall = block(&mut world, lo, flat(20.0 * k) + up() * s(3.0 * k));
                let m = p
                    .ctl
                    .move_shape(&world, &p.body, &p.pose, V::ZERO, Filter::ALL)
                    .expect("valid");
                p.apply(&world, &m);
                let gap = x - (p.pose.translation.x as f64 + RADIUS * k);
                assert!((gap - SKIN * k).abs() < 0.1 * SKIN * k, "k {k}: gap {gap}");
                assert!(m.grounded && world.shape(wall).is_some());
            }
        }

        #[test]
        fn bad_input_is_refused_or_answered() {
            let k = 1.0;
            let world = floor(k, 10.0);
            let mut p = player(k, up() * s(SKIN));
            let nan = V::splat(Real::NAN);
            let inf = V::X * Real::INFINITY;
            for bad in [nan, inf, -inf] {
                let e = p.ctl.move_shape(&world, &p.body, &p.pose, bad, Filter::ALL);
                assert!(
                    matches!(
                        e,
                        Err(CharacterError::Invalid(ShapeError::NotFinite {
                            field: "desired_translation",
                            ..
                        }))
                    ),
                    "{e:?}"
                );
            }
            let nan_pose = Pose::from_translation(nan);
            let e = p
                .ctl
                .move_shape(&world, &p.body, &nan_pose, V::X, Filter::ALL);
            assert!(matches!(e, Err(CharacterError::Invalid(_))), "{e:?}");
            // Constructors name the field.
            let neg = CharacterController::new(up(), s(-0.1));
            assert!(
                matches!(neg, Err(ShapeError::Negative { field: "skin", .. })),
                "{neg:?}"
            );
            let zero = CharacterController::new(up(), s(0.0));
            assert!(
                matches!(zero, Err(ShapeError::OutOfRange { field: "skin", .. })),
                "{zero:?}"
            );
            let nan_skin = CharacterController::new(up(), Real::NAN);
            assert!(matches!(
                nan_skin,
                Err(ShapeError::NotFinite { field: "skin", .. })
            ));
            let no_up = CharacterController::new(V::ZERO, s(0.1));
            assert!(matches!(
                no_up,
                Err(ShapeError::ZeroVector { field: "up", .. })
            ));
            let c = controller(k);
            let step = c.with_step(s(-0.1), s(0.1));
            assert!(matches!(
                step,
                Err(ShapeError::Negative {
                    field: "step.max_height",
                    ..
                })
            ));
            let width = c.with_step(s(0.1), Real::NAN);
            assert!(matches!(
                width,
                Err(ShapeError::NotFinite {
                    field: "step.min_width",
                    ..
                })
            ));
            let snap = c.with_snap_to_ground(s(-1.0));
            assert!(matches!(
                snap,
                Err(ShapeError::Negative {
                    field: "snap_to_ground",
                    ..
                })
            ));
            let slope = c.with_slopes(s(2.0), s(0.5));
            assert!(matches!(
                slope,
                Err(ShapeError::OutOfRange {
                    field: "max_slope_climb",
                    ..
                })
            ));
            assert!(c.with_max_iterations(0).is_err() && c.with_max_iterations(65).is_err());
            // Fields edited to bad values make every move an error.
            let mut edited = c;
            edited.skin = s(-1.0);
            let e = edited.move_shape(&world, &p.body, &p.pose, V::X, Filter::ALL);
            assert!(matches!(
                e,
                Err(CharacterError::Invalid(ShapeError::Negative {
                    field: "skin",
                    ..
                }))
            ));
            edited = c;
            edited.step = Some(StepSettings {
                max_height: s(-1.0),
                min_width: s(0.0),
            });
            assert!(edited
                .move_shape(&world, &p.body, &p.pose, V::X, Filter::ALL)
                .is_err());
            // A zero motion: no translation, ground reported.
            let m = p.frame(&world, V::ZERO);
            assert!(m.translation == V::ZERO && m.grounded && m.iterations == 0);
            // A caster in the world: move_handle excludes it; a stale handle is named.
            let mut world = world;
            let me = world
                .insert(p.body.clone(), p.pose, Filter::ALL)
                .expect("insert");
            let m = p
                .ctl
                .move_handle(&world, me, V::X * s(0.5), Filter::ALL)
                .expect("valid");
            assert!((m.translation - V::X * s(0.5)).length() < 1e-4, "{m:?}");
            world.remove(me).expect("remove");
            let e = p.ctl.move_handle(&world, me, V::X, Filter::ALL);
            assert_eq!(e, Err(CharacterError::StaleHandle(me)));
        }
    };
}

macro_rules! suite_3d {
    ($name:ident, $prelude:ident, $quat:ident) => {
        mod $name {
            use super::*;
            use isect::$prelude::$quat as Q;
            use isect::$prelude::*;

            common!();

            fn up() -> V {
                V::Y
            }

            fn across() -> V {
                V::Z
            }

            /// `x` on every horizontal axis, 0 along up.
            fn flat(x: f64) -> V {
                V::new(s(x), 0.0, s(x))
            }

            /// A capsule player with its foot at `at`.
            fn player(k: f64, at: V) -> Player {
                let r = s(RADIUS * k);
                let capsule = Capsule::new(V::new(0.0, r, 0.0), V::new(0.0, s(1.4 * k), 0.0), r);
                Player {
                    ctl: controller(k),
                    body: Shape::Capsule(capsule.expect("capsule")).into(),
                    pose: Pose::from_translation(at),
                    k,
                }
            }

            /// A floor, and a slope rising along +x at `angle` from its foot at x = 0
            /// (a rotated box), with the player resting on it at x = 3 (along the slope).
            fn on_slope(k: f64, angle: f64) -> (World, Player) {
                let mut world = floor(k, 50.0);
                let slab = Aabb::new(
                    V::new(0.0, -s(k), -s(20.0 * k)),
                    V::new(s(30.0 * k), 0.0, s(20.0 * k)),
                );
                let tilt = Pose::new(V::ZERO, Q::from_rotation_z(s(angle)));
                world
                    .insert_static(Shape::Cuboid(slab.expect("slab")), tilt, Filter::ALL)
                    .expect("slope");
                let n = V::new(-s(angle.sin()), s(angle.cos()), 0.0);
                let foot = V::new(s(angle.cos()), s(angle.sin()), 0.0) * s(3.0 * k);
                let r = s(RADIUS * k);
                let centre = foot + n * (r + s(1.5 * SKIN * k));
                (world, player(k, centre - V::Y * r))
            }

            /// An open triangle-mesh grid of `n × n` cells over `[−half, half]²` (x, z),
            /// height `h(x, z)`, each cell split along its diagonal.
            fn grid(n: usize, half: f64, h: impl Fn(f64, f64) -> f64) -> AnyShape {
                let c = |i: usize| -half + 2.0 * half * i as f64 / n as f64;
                let mut vertices = Vec::new();
                for i in 0..=n {
                    for j in 0..=n {
                        vertices.push(V::new(s(c(j)), s(h(c(j), c(i))), s(c(i))));
                    }
                }
                let at = |i: usize, j: usize| (i * (n + 1) + j) as u32;
                let mut indices = Vec::new();
                for i in 0..n {
                    for j in 0..n {
                        indices.push([at(i, j), at(i + 1, j), at(i, j + 1)]);
                        indices.push([at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)]);
                    }
                }
                TriMesh::new(vertices, indices, TriMeshFlags::OPEN)
                    .expect("mesh")
                    .into()
            }

            /// The directions of the seam walks: along the grid lines, the diagonals
            /// and between.
            fn headings() -> Vec<V> {
                [
                    0.0, 45.0, 90.0, 135.0, 180.0, 225.0, 270.0, 315.0, 22.5, 63.4,
                ]
                .iter()
                .map(|d: &f64| V::new(s(d.to_radians().cos()), 0.0, s(d.to_radians().sin())))
                .collect()
            }

            /// Walks 40 frames along each heading from the origin of a flat world:
            /// full speed, height kept at the skin, grounded every frame.
            fn walk_flat(world: &World, k: f64, what: &str) {
                for dir in headings() {
                    let mut p = player(k, up() * s(SKIN * k));
                    for (i, m) in p.walk(world, dir, 40).iter().enumerate() {
                        assert!(m.grounded, "{what} k {k} {dir:?}: frame {i} not grounded");
                        assert!(
                            !m.stepped,
                            "{what} k {k} {dir:?}: frame {i} stepped on a seam"
                        );
                        let h = p.height();
                        assert!(
                            (h - SKIN * k).abs() < 0.25 * SKIN * k,
                            "{what} k {k} {dir:?}: frame {i} at height {h}"
                        );
                    }
                    let went = p.pose.translation - up() * p.pose.translation.dot(up());
                    let want = dir * s(40.0 * SPEED * k);
                    let err = (went - want).length() as f64;
                    assert!(
                        err < 1e-3 * k,
                        "{what} k {k} {dir:?}: off by {err} (snagged?)"
                    );
                }
            }

            #[test]
            fn walks_across_a_flat_triangle_mesh_without_snagging() {
                for k in SCALES {
                    let mut world = World::new();
                    // Cells of 0.5: the walks cross hundreds of edges and vertices.
                    let mesh = grid(40, 10.0 * k, |_, _| 0.0);
                    world
                        .insert_static(mesh, Pose::IDENTITY, Filter::ALL)
                        .expect("mesh");
                    walk_flat(&world, k, "mesh");
                }
            }

            #[test]
            fn walks_across_box_seams_without_snagging() {
                for k in SCALES {
                    let mut world = World::new();
                    for i in -10..10 {
                        for j in -10..10 {
                            let lo = V::new(s(i as f64 * k), -s(k), s(j as f64 * k));
                            block(&mut world, lo, lo + V::new(s(k), s(k), s(k)));
                        }
                    }
                    walk_flat(&world, k, "boxes");
                }
            }

            #[test]
            fn grounded_against_a_steep_face_of_the_same_mesh() {
                for k in SCALES {
                    // One open mesh: a floor (y = 0, x < 2) and a 60° face rising from x = 2.
                    let q = |x: f64, y: f64, z: f64| V::new(s(x * k), s(y * k), s(z * k));
                    let rise = 3.0 * 60f64.to_radians().tan();
                    let vertices = vec![
                        q(-10.0, 0.0, -5.0),
                        q(-10.0, 0.0, 5.0),
                        q(2.0, 0.0, 5.0),
                        q(2.0, 0.0, -5.0),
                        q(5.0, rise, 5.0),
                        q(5.0, rise, -5.0),
                    ];
                    let indices = vec![[0, 1, 2], [0, 2, 3], [3, 2, 4], [3, 4, 5]];
                    let mesh = TriMesh::new(vertices, indices, TriMeshFlags::OPEN).expect("mesh");
                    let mut world = World::new();
                    world
                        .insert_static(mesh, Pose::IDENTITY, Filter::ALL)
                        .expect("mesh");
                    let mut p = player(k, up() * s(SKIN * k));
                    for (i, m) in p.walk(&world, V::X, 40).iter().enumerate() {
                        assert!(m.grounded, "k {k}: frame {i} not grounded at {:?}", p.pose);
                    }
                    assert!(
                        p.height() < 0.1 * k,
                        "k {k}: climbed the face to {}",
                        p.height()
                    );
                    // The capsule stops where its sphere keeps the skin from the face: x = 1.758.
                    assert!(
                        (p.pose.translation.x as f64) < 1.76 * k,
                        "k {k}: {:?}",
                        p.pose
                    );
                }
            }

            #[test]
            fn walks_over_bumpy_mesh_terrain() {
                let mut rng = rng::Rng(0x7E44);
                for k in SCALES {
                    let mut world = World::new();
                    // Slopes up to about 22°: every one walkable.
                    let h =
                        |x: f64, z: f64| k * 0.4 * (x / (1.3 * k)).sin() * (z / (1.7 * k)).cos();
                    world
                        .insert_static(grid(60, 15.0 * k, h), Pose::IDENTITY, Filter::ALL)
                        .expect("mesh");
                    for _ in 0..4 {
                        let a = rng.range(0.0, std::f64::consts::TAU);
                        let dir = V::new(s(a.cos()), 0.0, s(a.sin()));
                        let (x, z) = (rng.range(-3.0, 3.0) * k, rng.range(-3.0, 3.0) * k);
                        let mut p = player(k, V::new(s(x), s(h(x, z) + 0.2 * k), s(z)));
                        for _ in 0..10 {
                            p.frame(&world, -up() * s(GRAVITY * k));
                        }
                        let start = p.pose.translation;
                        for (i, m) in p.walk(&world, dir, 60).iter().enumerate() {
                            assert!(m.grounded, "k {k}: frame {i} in the air at {:?}", p.pose);
                        }
                        let d = p.pose.translation - start;
                        let along = d.dot(dir) as f64;
                        assert!(
                            along > 0.97 * 60.0 * SPEED * k,
                            "k {k}: went {along} along {dir:?}"
                        );
                    }
                }
            }
        }
    };
}

macro_rules! suite_2d {
    ($name:ident, $prelude:ident) => {
        mod $name {
            use super::*;
            use isect::$prelude::*;

            common!();

            fn up() -> V {
                V::Y
            }

            fn across() -> V {
                V::ZERO
            }

            fn flat(x: f64) -> V {
                V::new(s(x), 0.0)
            }

            /// A capsule player with its foot at `at`.
            fn player(k: f64, at: V) -> Player {
                let r = s(RADIUS * k);
                let capsule = Capsule::new(V::new(0.0, r), V::new(0.0, s(1.4 * k)), r);
                Player {
                    ctl: controller(k),
                    body: Shape::Capsule(capsule.expect("capsule")).into(),
                    pose: Pose::from_translation(at),
                    k,
                }
            }

            /// A box player (half width 0.4, height 1.8) with its foot at `at`.
            fn box_player(k: f64, at: V) -> Player {
                let b = Aabb::new(
                    V::new(-s(RADIUS * k), 0.0),
                    V::new(s(RADIUS * k), s(1.8 * k)),
                );
                Player {
                    body: Shape::Cuboid(b.expect("box")).into(),
                    ..player(k, at)
                }
            }

            /// A floor and a slope rising along +x at `angle` from x = 0, with the
            /// player resting on it 3 along the slope.
            fn on_slope(k: f64, angle: f64) -> (World, Player) {
                let mut world = floor(k, 50.0);
                let slab = Aabb::new(V::new(0.0, -s(k)), V::new(s(30.0 * k), 0.0)).expect("slab");
                let tilt = Pose::new(V::ZERO, s(angle));
                world
                    .insert_static(Shape::Cuboid(slab), tilt, Filter::ALL)
                    .expect("slope");
                let n = V::new(-s(angle.sin()), s(angle.cos()));
                let foot = V::new(s(angle.cos()), s(angle.sin())) * s(3.0 * k);
                let r = s(RADIUS * k);
                (
                    world,
                    player(k, foot + n * (r + s(1.5 * SKIN * k)) - V::Y * r),
                )
            }

            #[test]
            fn walks_along_a_polyline_and_box_seams_without_snagging() {
                for k in SCALES {
                    let mut line = World::new();
                    let points: Vec<V> = (0..=80)
                        .map(|i| V::new(s((i as f64 * 0.25 - 10.0) * k), 0.0))
                        .collect();
                    let polyline = Polyline::new(points, false).expect("polyline");
                    line.insert_static(polyline, Pose::IDENTITY, Filter::ALL)
                        .expect("line");
                    let mut boxes = World::new();
                    for i in -10..10 {
                        let lo = V::new(s(i as f64 * k), -s(k));
                        block(&mut boxes, lo, lo + V::new(s(k), s(k)));
                    }
                    for world in [&line, &boxes] {
                        for dir in [V::X, -V::X] {
                            for mut p in [
                                player(k, V::Y * s(SKIN * k)),
                                box_player(k, V::Y * s(SKIN * k)),
                            ] {
                                for (i, m) in p.walk(world, dir, 60).iter().enumerate() {
                                    let h = p.height();
                                    assert!(
                                        m.grounded && (h - SKIN * k).abs() < 0.25 * SKIN * k,
                                        "k {k}: frame {i} at {h}"
                                    );
                                }
                                let x = p.pose.translation.x as f64;
                                assert!(
                                    (x - dir.x as f64 * 6.0 * k).abs() < 1e-3 * k,
                                    "k {k}: x = {x} (snagged?)"
                                );
                            }
                        }
                    }
                }
            }

            #[test]
            fn a_box_climbs_low_steps_and_not_high_ones() {
                for k in SCALES {
                    for (frac, climbs) in [(0.5, true), (0.9, true), (1.1, false), (2.0, false)] {
                        let h = frac * STEP;
                        let mut world = floor(k, 20.0);
                        for i in 0..5 {
                            let x0 = 1.0 + 0.8 * i as f64;
                            let top = V::new(s(20.0 * k), s(h * (i + 1) as f64 * k));
                            block(&mut world, V::new(s(x0 * k), -s(k)), top);
                        }
                        let mut p = box_player(k, V::Y * s(SKIN * k));
                        p.walk(&world, V::X, 120);
                        let (x, y) = (p.pose.translation.x as f64, p.height());
                        if climbs {
                            assert!(
                                (y - (5.0 * h + SKIN) * k).abs() < 0.5 * SKIN * k && x > 11.0 * k,
                                "k {k} h {h}: ({x}, {y})"
                            );
                        } else {
                            assert!(
                                y < 2.0 * SKIN * k && x + RADIUS * k <= k,
                                "k {k} h {h}: ({x}, {y})"
                            );
                        }
                    }
                }
            }
        }
    };
}

suite_3d!(f32_3d, d3, Quat);
suite_3d!(f64_3d, d3_f64, DQuat);
suite_2d!(f32_2d, d2);
suite_2d!(f64_2d, d2_f64);
