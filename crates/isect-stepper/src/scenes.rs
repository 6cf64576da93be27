//! The scenes that judge the manifolds, shared by the tests and `isect stack`.
//!
//! Floors, each with its top surface at `y = 0` and 20 m wide:
//! - 3D: a box ([`Floor::Box`]), a flat two-triangle mesh ([`Floor::TwoTriangles`]),
//!   a flat mesh of 20 × 20 unit quads ([`Floor::GridMesh`], 800 triangles) and a flat
//!   heightfield of 20 × 20 cells ([`Floor::HeightField`]);
//! - 2D: a convex polygon ([`Floor::Polygon`]), a chain of 20 unit segments
//!   ([`Floor::Polyline`]) and a heightfield of 20 cells ([`Floor::HeightField2d`]);
//! - troughs, whose two 45° slopes meet at `y = 0` along the z axis: an open mesh
//!   ([`Floor::Trough`]) and a chain ([`Floor::Trough2d`]). What rests in one
//!   touches two faces along normals 90° apart: a composite's corner.
//!
//! On each floor ([`Subject`]): a stack of [`STACK_HEIGHT`] unit boxes (density
//! [`DENSITY`]), each placed by hand a few millimetres off the column
//! ([`stack_offset`]); in 3D also the same stack with each box turned about the
//! vertical by under a degree ([`stack_turn`]); a ball, the control whose exact
//! manifold is a single point; or one body lying or standing: a capsule, a cylinder,
//! a cone or a rounded box (capsule and rounded box only in 2D). In a trough: a unit
//! box turned 45°, a face on each slope ([`Subject::Wedged`]), and the ball. Every
//! body starts at rest, exactly touching what it stands on, in its ideal resting
//! pose.
//!
//! A scene is named `{dim}-{subject}-{floor}`, such as `3d-stack-grid-mesh` or
//! `2d-capsule-lying-polyline` ([`all`] lists them, [`find`] builds one by name).
//! [`Scene::report`] measures what the tests assert after [`DURATION_STEPS`] steps.

use crate::body::Body;
use crate::dim::{Dim, D2, D3};
use crate::solver::Simulation;
use glam::{DQuat, DVec2, DVec3};
use isect::math::{Isometry, Pose2, Pose3, Vector};
use isect::shape::shape_2d::{AnyShape as Any2, Shape as Shape2};
use isect::shape::shape_3d::{AnyShape as Any3, Shape as Shape3};
use isect::shape::{
    heightfield_2d, heightfield_3d, Aabb, Ball, Capsule, Cone, ConvexPolygon, Cylinder, Polyline,
    Rounded, ShapeError, TriMesh, TriMeshFlags,
};
use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, SQRT_2};

/// Boxes in a stack.
pub const STACK_HEIGHT: usize = 10;
/// Steps a scene runs in its test: 10 s at 60 Hz.
pub const DURATION_STEPS: usize = 600;
/// Density of every moving body (kg/m³, kg/m² in 2D): water.
pub const DENSITY: f64 = 1000.0;
/// Half the width of every floor (m).
const FLOOR_HALF_WIDTH: f64 = 10.0;
/// Cells a side of the grid mesh and the heightfields.
const FLOOR_CELLS: usize = 20;

/// A floor.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Floor {
    /// 3D: a box 20 × 1 × 20.
    Box,
    /// 3D: a square of two triangles (an open mesh).
    TwoTriangles,
    /// 3D: a square of 20 × 20 unit quads, two triangles each (an open mesh).
    GridMesh,
    /// 3D: a flat heightfield of 21 × 21 samples.
    HeightField,
    /// 2D: a convex polygon 20 × 1.
    Polygon,
    /// 2D: an open chain of 20 unit segments.
    Polyline,
    /// 2D: a flat heightfield of 21 samples.
    HeightField2d,
    /// 3D: two slopes of 10 × 20 quads at ±45° meeting at `y = 0` along z (an open
    /// mesh).
    Trough,
    /// 2D: two slopes of 10 segments at ±45° meeting at the origin (an open chain).
    Trough2d,
}

impl Floor {
    /// Every floor, 3D ones first.
    pub const ALL: [Floor; 9] = [
        Floor::Box,
        Floor::TwoTriangles,
        Floor::GridMesh,
        Floor::HeightField,
        Floor::Trough,
        Floor::Polygon,
        Floor::Polyline,
        Floor::HeightField2d,
        Floor::Trough2d,
    ];

    /// 2 or 3.
    pub fn dim(self) -> usize {
        match self {
            Floor::Box
            | Floor::TwoTriangles
            | Floor::GridMesh
            | Floor::HeightField
            | Floor::Trough => 3,
            Floor::Polygon | Floor::Polyline | Floor::HeightField2d | Floor::Trough2d => 2,
        }
    }

    /// The floor's part of a scene name.
    pub fn name(self) -> &'static str {
        match self {
            Floor::Box => "box",
            Floor::TwoTriangles => "two-triangles",
            Floor::GridMesh => "grid-mesh",
            Floor::HeightField | Floor::HeightField2d => "heightfield",
            Floor::Polygon => "polygon",
            Floor::Polyline => "polyline",
            Floor::Trough | Floor::Trough2d => "trough",
        }
    }

    fn is_trough(self) -> bool {
        matches!(self, Floor::Trough | Floor::Trough2d)
    }

    /// The height of the centre of a ball of radius 0.5 m resting on the floor.
    fn ball_height(self) -> f64 {
        if self.is_trough() {
            0.5 * SQRT_2
        } else {
            0.5
        }
    }
}

/// A single body's kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Half length 0.5 m, radius 0.25 m.
    Capsule,
    /// Half height 0.5 m, radius 0.4 m (3D only).
    Cylinder,
    /// Half height 0.5 m, base radius 0.5 m (3D only).
    Cone,
    /// A 0.6 × 1.2 × 0.4 m box (0.6 × 1.2 in 2D) rounded by 0.1 m.
    RoundedBox,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 4] = [Kind::Capsule, Kind::Cylinder, Kind::Cone, Kind::RoundedBox];

    fn name(self) -> &'static str {
        match self {
            Kind::Capsule => "capsule",
            Kind::Cylinder => "cylinder",
            Kind::Cone => "cone",
            Kind::RoundedBox => "rounded-box",
        }
    }

    fn in_2d(self) -> bool {
        matches!(self, Kind::Capsule | Kind::RoundedBox)
    }
}

/// What stands on the floor.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Subject {
    /// [`STACK_HEIGHT`] unit boxes.
    Stack,
    /// The same stack with each box also turned about the vertical by under a degree
    /// ([`stack_turn`]; 3D only).
    TurnedStack,
    /// A ball of radius 0.5 m: the control, whose exact manifold is one point.
    Ball,
    /// One body on its side: a capsule or cylinder along x, a cone on its slant, a
    /// rounded box on its largest face.
    Lying(Kind),
    /// One body upright: its axis (the rounded box's longest side) along y, a cone
    /// on its base.
    Standing(Kind),
    /// A unit box turned 45° about z, a face on each slope of a trough.
    Wedged,
}

impl Subject {
    fn name(self) -> String {
        match self {
            Subject::Stack => "stack".to_string(),
            Subject::TurnedStack => "turned-stack".to_string(),
            Subject::Ball => "ball".to_string(),
            Subject::Lying(k) => format!("{}-lying", k.name()),
            Subject::Standing(k) => format!("{}-standing", k.name()),
            Subject::Wedged => "wedged-box".to_string(),
        }
    }
}

/// A scene to build: a floor and what stands on it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SceneSpec {
    /// The floor.
    pub floor: Floor,
    /// What stands on it.
    pub subject: Subject,
}

/// Every scene: on each flat 3D floor a stack, a turned stack, a ball and the four
/// kinds lying and standing; on each flat 2D floor a stack, a ball and a capsule and a
/// rounded box, lying and standing; in each trough a wedged box and a ball.
pub fn all() -> Vec<SceneSpec> {
    let mut out = Vec::new();
    for floor in Floor::ALL {
        if floor.is_trough() {
            for subject in [Subject::Wedged, Subject::Ball] {
                out.push(SceneSpec { floor, subject });
            }
            continue;
        }
        let turned = (floor.dim() == 3).then_some(Subject::TurnedStack);
        for subject in [Some(Subject::Stack), turned, Some(Subject::Ball)]
            .into_iter()
            .flatten()
        {
            out.push(SceneSpec { floor, subject });
        }
        let kinds = Kind::ALL
            .into_iter()
            .filter(|k| floor.dim() == 3 || k.in_2d());
        for kind in kinds {
            for subject in [Subject::Lying(kind), Subject::Standing(kind)] {
                out.push(SceneSpec { floor, subject });
            }
        }
    }
    out
}

/// The scene named `name` (see the module docs), built.
pub fn find(name: &str) -> Option<AnyScene> {
    all()
        .into_iter()
        .find(|s| s.name() == name)
        .map(SceneSpec::build)
}

impl SceneSpec {
    /// `{dim}-{subject}-{floor}`, such as `3d-stack-grid-mesh`.
    pub fn name(&self) -> String {
        let dim = self.floor.dim();
        format!("{dim}d-{}-{}", self.subject.name(), self.floor.name())
    }

    /// The scene at its start.
    ///
    /// # Panics
    /// For a subject the floor's dimension lacks (a cylinder or a turned stack in
    /// 2D); [`all`] lists none.
    pub fn build(self) -> AnyScene {
        let name = self.name();
        if self.floor.dim() == 3 {
            AnyScene::D3(scene_3d(name, self.floor, self.subject))
        } else {
            AnyScene::D2(scene_2d(name, self.floor, self.subject))
        }
    }
}

/// A scene of either dimension.
#[derive(Clone, Debug)]
pub enum AnyScene {
    /// A 3D scene.
    D3(Scene<D3>),
    /// A 2D scene.
    D2(Scene<D2>),
}

impl AnyScene {
    /// Runs `n` steps.
    pub fn run(&mut self, n: usize) {
        match self {
            AnyScene::D3(s) => s.sim.run(n),
            AnyScene::D2(s) => s.sim.run(n),
        }
    }

    /// See [`Scene::report`].
    pub fn report(&self) -> Report {
        match self {
            AnyScene::D3(s) => s.report(),
            AnyScene::D2(s) => s.report(),
        }
    }

    /// The scene's name.
    pub fn name(&self) -> &str {
        match self {
            AnyScene::D3(s) => &s.name,
            AnyScene::D2(s) => &s.name,
        }
    }

    /// What stands on the floor.
    pub fn subject(&self) -> Subject {
        match self {
            AnyScene::D3(s) => s.subject,
            AnyScene::D2(s) => s.subject,
        }
    }
}

/// A simulation and what its test watches.
#[derive(Clone, Debug)]
pub struct Scene<D: Dim> {
    /// The scene's name.
    pub name: String,
    /// What stands on the floor.
    pub subject: Subject,
    /// Body 0 is the floor; the others move.
    pub sim: Simulation<D>,
    /// The body whose drift is measured: the stack's top box, or the single body.
    pub watched: usize,
    /// The watched body's size (m): a box's edge, a single body's largest extent.
    pub size: f64,
    /// The watched body's pose at the start, which is its ideal resting pose.
    pub start: D::Pose,
}

/// What a scene's test judges, measured at the current step.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Report {
    /// Bodies, the floor included.
    pub bodies: usize,
    /// Steps taken.
    pub steps: usize,
    /// Largest linear speed of a moving body (m/s).
    pub max_speed: f64,
    /// Largest angular speed of a moving body (rad/s).
    pub max_angular_speed: f64,
    /// Horizontal distance the watched body moved from its start (m).
    pub drift: f64,
    /// The watched body's height minus its start height (m; the start is the ideal
    /// resting height).
    pub height_error: f64,
    /// The watched body's start height over the floor (m): the ideal stack height
    /// for a stack's top box.
    pub ideal_height: f64,
    /// The angle the watched body turned from its start (rad).
    pub turn: f64,
    /// The watched body's size (m).
    pub size: f64,
    /// The lowest centre of mass of a moving body, over the floor surface (m).
    pub lowest_center: f64,
    /// How far the lowest point of any moving body is below the floor surface (m;
    /// negative when every body is above it).
    pub deepest_sink: f64,
}

impl Report {
    /// What a user would call wrong with the scene now, one line each (empty when it
    /// passes), against the crate's thresholds:
    /// - fallen through: a moving body's centre of mass below the floor surface, or
    ///   its lowest point more than [`crate::SINK_TOLERANCE`] below it;
    /// - not standing: the watched body drifted sideways by [`crate::STAND_FRACTION`]
    ///   of its size or more, its height is off the ideal by that fraction of the
    ///   ideal height or more, or it turned by [`crate::STAND_TURN`] or more;
    /// - not still: a moving body faster than [`crate::REST_LINEAR_SPEED`] or turning
    ///   faster than [`crate::REST_ANGULAR_SPEED`].
    pub fn failures(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut check = |ok: bool, what: String| {
            if !ok {
                out.push(what);
            }
        };
        check(
            self.lowest_center > 0.0,
            format!(
                "fell through: the lowest centre of mass is at y = {:.3} m",
                self.lowest_center
            ),
        );
        check(
            self.deepest_sink < crate::SINK_TOLERANCE,
            format!(
                "sunk: a body reaches {:.4} m into the floor ≥ {}",
                self.deepest_sink,
                crate::SINK_TOLERANCE
            ),
        );
        let drift_limit = crate::STAND_FRACTION * self.size;
        check(
            self.drift < drift_limit,
            format!("drift {:.2e} m ≥ {drift_limit:.2e} m", self.drift),
        );
        let height_limit = crate::STAND_FRACTION * self.ideal_height;
        check(
            self.height_error.abs() < height_limit,
            format!(
                "height off by {:.2e} m ≥ {height_limit:.2e} m",
                self.height_error
            ),
        );
        check(
            self.turn < crate::STAND_TURN,
            format!("turned {:.2e} rad ≥ {:.2e}", self.turn, crate::STAND_TURN),
        );
        check(
            self.max_speed < crate::REST_LINEAR_SPEED,
            format!(
                "speed {:.2e} m/s ≥ {:.2e}",
                self.max_speed,
                crate::REST_LINEAR_SPEED
            ),
        );
        check(
            self.max_angular_speed < crate::REST_ANGULAR_SPEED,
            format!(
                "angular speed {:.2e} rad/s ≥ {:.2e}",
                self.max_angular_speed,
                crate::REST_ANGULAR_SPEED
            ),
        );
        out
    }
}

impl<D: Dim> Scene<D> {
    /// The measurements of [`Report`]; the floor surface is at `y = 0`.
    pub fn report(&self) -> Report {
        let watched = &self.sim.bodies[self.watched];
        let moved = watched.pose.translation() - self.start.translation();
        let up = D::up();
        let rise = moved.dot(up);
        let (max_speed, max_angular_speed) = self.sim.max_speeds();
        let moving = self.sim.bodies.iter().filter(|b| !b.is_static());
        let lowest_center = moving
            .clone()
            .map(|b| b.center().dot(up))
            .fold(f64::INFINITY, f64::min);
        let lowest_point = moving
            .map(|b| {
                isect::query::dispatch::DispatchShape::world_aabb(&b.shape, &b.pose)
                    .min
                    .dot(up)
            })
            .fold(f64::INFINITY, f64::min);
        Report {
            bodies: self.sim.bodies.len(),
            steps: self.sim.steps(),
            max_speed,
            max_angular_speed,
            drift: (moved - up * rise).length(),
            height_error: rise,
            ideal_height: self.start.translation().dot(up),
            turn: D::turn(&self.start, &watched.pose),
            size: self.size,
            lowest_center,
            deepest_sink: -lowest_point,
        }
    }
}

/// The scenes' shapes are valid by construction.
fn valid<T>(shape: Result<T, ShapeError>) -> T {
    shape.expect("the scenes' shapes are valid")
}

/// The offset from the column (x and z, m) of box `i` of a stack: under 4 mm, varying
/// from box to box as a hand places them (fixed numbers, so that every run is the
/// same).
pub fn stack_offset(i: usize) -> (f64, f64) {
    let i = i as f64;
    let mm = 0.004;
    (mm * (2.1 * i).sin(), mm * (1.3 * i).cos())
}

/// The turn about the vertical (rad) of box `i` of a turned stack: under 0.6°.
pub fn stack_turn(i: usize) -> f64 {
    0.6_f64.to_radians() * (0.7 * i as f64).sin()
}

fn scene_3d(name: String, floor: Floor, subject: Subject) -> Scene<D3> {
    let mut sim = Simulation::new();
    sim.add(Body::fixed(floor_3d(floor), Pose3::IDENTITY));
    let (size, watched) = match subject {
        Subject::Stack | Subject::TurnedStack => {
            let cube = Shape3::Cuboid(valid(Aabb::from_center(DVec3::ZERO, DVec3::splat(0.5))));
            let turned = subject == Subject::TurnedStack;
            let mut top = 0;
            for i in 0..STACK_HEIGHT {
                let (dx, dz) = stack_offset(i);
                let turn = if turned { stack_turn(i) } else { 0.0 };
                let at = DVec3::new(dx, 0.5 + i as f64, dz);
                let pose = Pose3::new(at, DQuat::from_rotation_y(turn));
                top = sim.add(valid_body(Body::dynamic(cube.clone(), pose, DENSITY)));
            }
            (1.0, top)
        }
        Subject::Ball => {
            let ball = Shape3::Ball(valid(Ball::new(DVec3::ZERO, 0.5)));
            let pose = Pose3::from_translation(DVec3::new(0.0, floor.ball_height(), 0.0));
            (1.0, sim.add(valid_body(Body::dynamic(ball, pose, DENSITY))))
        }
        Subject::Wedged => {
            let cube = Shape3::Cuboid(valid(Aabb::from_center(DVec3::ZERO, DVec3::splat(0.5))));
            let at = DVec3::new(0.0, 0.5 * SQRT_2, 0.0);
            let pose = Pose3::new(at, DQuat::from_rotation_z(FRAC_PI_4));
            (1.0, sim.add(valid_body(Body::dynamic(cube, pose, DENSITY))))
        }
        Subject::Lying(kind) | Subject::Standing(kind) => {
            let lying = matches!(subject, Subject::Lying(_));
            let (shape, pose, size) = single_3d(kind, lying);
            (
                size,
                sim.add(valid_body(Body::dynamic(shape, pose, DENSITY))),
            )
        }
    };
    let start = sim.bodies[watched].pose;
    Scene {
        name,
        subject,
        sim,
        watched,
        size,
        start,
    }
}

fn scene_2d(name: String, floor: Floor, subject: Subject) -> Scene<D2> {
    let mut sim = Simulation::new();
    sim.add(Body::fixed(floor_2d(floor), Pose2::IDENTITY));
    let (size, watched) = match subject {
        Subject::Stack => {
            let square = Shape2::Cuboid(valid(Aabb::from_center(DVec2::ZERO, DVec2::splat(0.5))));
            let mut top = 0;
            for i in 0..STACK_HEIGHT {
                let (dx, _) = stack_offset(i);
                let pose = Pose2::from_translation(DVec2::new(dx, 0.5 + i as f64));
                top = sim.add(valid_body(Body::dynamic(square.clone(), pose, DENSITY)));
            }
            (1.0, top)
        }
        Subject::Ball => {
            let ball = Shape2::Ball(valid(Ball::new(DVec2::ZERO, 0.5)));
            let pose = Pose2::from_translation(DVec2::new(0.0, floor.ball_height()));
            (1.0, sim.add(valid_body(Body::dynamic(ball, pose, DENSITY))))
        }
        Subject::TurnedStack => panic!("no 2D turned stack"),
        Subject::Wedged => {
            let square = Shape2::Cuboid(valid(Aabb::from_center(DVec2::ZERO, DVec2::splat(0.5))));
            let pose = Pose2::new(DVec2::new(0.0, 0.5 * SQRT_2), FRAC_PI_4);
            (
                1.0,
                sim.add(valid_body(Body::dynamic(square, pose, DENSITY))),
            )
        }
        Subject::Lying(kind) | Subject::Standing(kind) => {
            let lying = matches!(subject, Subject::Lying(_));
            let (shape, pose, size) = single_2d(kind, lying);
            (
                size,
                sim.add(valid_body(Body::dynamic(shape, pose, DENSITY))),
            )
        }
    };
    let start = sim.bodies[watched].pose;
    Scene {
        name,
        subject,
        sim,
        watched,
        size,
        start,
    }
}

fn valid_body<D: Dim>(body: Result<Body<D>, crate::UnsupportedShape>) -> Body<D> {
    body.expect("the scenes' bodies have mass formulas")
}

/// A 3D single body, its resting pose (touching `y = 0`) and its largest extent.
fn single_3d(kind: Kind, lying: bool) -> (Shape3<f64>, Pose3<f64>, f64) {
    let on_side = DQuat::from_rotation_z(FRAC_PI_2);
    let pose = |y: f64, q: DQuat| Pose3::new(DVec3::new(0.0, y, 0.0), q);
    match kind {
        Kind::Capsule => {
            let (h, r) = (0.5, 0.25);
            let shape = Shape3::Capsule(valid(Capsule::aligned(1, h, r)));
            let at = if lying {
                pose(r, on_side)
            } else {
                pose(h + r, DQuat::IDENTITY)
            };
            (shape, at, 2.0 * (h + r))
        }
        Kind::Cylinder => {
            let (h, r) = (0.5, 0.4);
            let shape = Shape3::Cylinder(valid(Cylinder::new(h, r)));
            let at = if lying {
                pose(r, on_side)
            } else {
                pose(h, DQuat::IDENTITY)
            };
            (shape, at, 2.0 * h.max(r))
        }
        Kind::Cone => {
            let (h, r): (f64, f64) = (0.5, 0.5);
            let shape = Shape3::Cone(valid(Cone::new(h, r)));
            // On its slant: the generator through (r, −h) and the apex (0, h) turned to
            // face down; the origin is then h·r / √(4h² + r²) above it.
            let slant = (4.0 * h * h + r * r).sqrt();
            let tilt = -FRAC_PI_2 - r.atan2(2.0 * h);
            let at = if lying {
                pose(h * r / slant, DQuat::from_rotation_z(tilt))
            } else {
                pose(h, DQuat::IDENTITY)
            };
            (shape, at, 2.0 * h.max(r))
        }
        Kind::RoundedBox => {
            let (core, r) = (DVec3::new(0.2, 0.5, 0.1), 0.1);
            let inner = valid(Aabb::from_center(DVec3::ZERO, core));
            let shape = Shape3::RoundedCuboid(valid(Rounded::new(inner, r)));
            let flat = DQuat::from_rotation_x(FRAC_PI_2);
            let at = if lying {
                pose(core.z + r, flat)
            } else {
                pose(core.y + r, DQuat::IDENTITY)
            };
            (shape, at, 2.0 * (core.y + r))
        }
    }
}

/// A 2D single body (a capsule or a rounded box), its resting pose and its size.
///
/// # Panics
/// For a 3D-only kind.
fn single_2d(kind: Kind, lying: bool) -> (Shape2<f64>, Pose2<f64>, f64) {
    let pose = |y: f64, angle: f64| Pose2::new(DVec2::new(0.0, y), angle);
    match kind {
        Kind::Capsule => {
            let (h, r) = (0.5, 0.25);
            let shape = Shape2::Capsule(valid(Capsule::aligned(1, h, r)));
            let at = if lying {
                pose(r, FRAC_PI_2)
            } else {
                pose(h + r, 0.0)
            };
            (shape, at, 2.0 * (h + r))
        }
        Kind::RoundedBox => {
            let (core, r) = (DVec2::new(0.2, 0.5), 0.1);
            let inner = valid(Aabb::from_center(DVec2::ZERO, core));
            let shape = Shape2::RoundedCuboid(valid(Rounded::new(inner, r)));
            let at = if lying {
                pose(core.x + r, FRAC_PI_2)
            } else {
                pose(core.y + r, 0.0)
            };
            (shape, at, 2.0 * (core.y + r))
        }
        Kind::Cylinder | Kind::Cone => panic!("no 2D {kind:?}"),
    }
}

/// The 3D floor, top surface at `y = 0`.
///
/// # Panics
/// For a 2D floor.
fn floor_3d(floor: Floor) -> Any3<f64> {
    let w = FLOOR_HALF_WIDTH;
    match floor {
        Floor::Box => Any3::Convex(Shape3::Cuboid(valid(Aabb::new(
            DVec3::new(-w, -1.0, -w),
            DVec3::new(w, 0.0, w),
        )))),
        Floor::TwoTriangles => grid_mesh(1).into(),
        Floor::GridMesh => grid_mesh(FLOOR_CELLS).into(),
        Floor::Trough => trough_mesh().into(),
        Floor::HeightField => {
            let n = FLOOR_CELLS + 1;
            let scale = DVec3::new(2.0 * w, 1.0, 2.0 * w);
            valid(heightfield_3d::HeightField::new(
                vec![0.0; n * n],
                n,
                n,
                scale,
            ))
            .into()
        }
        _ => panic!("{floor:?} is a 2D floor"),
    }
}

/// A flat open mesh over `[−w, w]²` at `y = 0` of `cells × cells` quads, two
/// triangles each, facing up.
fn grid_mesh(cells: usize) -> TriMesh<f64> {
    height_mesh(cells, |_| 0.0)
}

/// The trough's open mesh: [`FLOOR_CELLS`] quads across (half on each slope), as
/// many along z, at height `|x|`.
fn trough_mesh() -> TriMesh<f64> {
    height_mesh(FLOOR_CELLS, f64::abs)
}

/// An open mesh over `[−w, w]²` of `cells × cells` quads, two triangles each, facing
/// up, at height `height(x)`.
fn height_mesh(cells: usize, height: fn(f64) -> f64) -> TriMesh<f64> {
    let w = FLOOR_HALF_WIDTH;
    let n = cells + 1;
    let at = |k: usize| -w + 2.0 * w * k as f64 / cells as f64;
    let vertices = (0..n * n)
        .map(|v| DVec3::new(at(v % n), height(at(v % n)), at(v / n)))
        .collect();
    let index = |i: usize, j: usize| (j * n + i) as u32;
    let mut triangles = Vec::with_capacity(2 * cells * cells);
    for j in 0..cells {
        for i in 0..cells {
            let (a, b, c, d) = (
                index(i, j),
                index(i + 1, j),
                index(i + 1, j + 1),
                index(i, j + 1),
            );
            triangles.push([a, c, b]);
            triangles.push([a, d, c]);
        }
    }
    valid(TriMesh::new(vertices, triangles, TriMeshFlags::OPEN))
}

/// The 2D floor, top surface at `y = 0`.
///
/// # Panics
/// For a 3D floor.
fn floor_2d(floor: Floor) -> Any2<f64> {
    let w = FLOOR_HALF_WIDTH;
    match floor {
        Floor::Polygon => {
            let corners =
                [(-w, -1.0), (w, -1.0), (w, 0.0), (-w, 0.0)].map(|(x, y)| DVec2::new(x, y));
            Any2::Convex(Shape2::Polygon(valid(ConvexPolygon::new(&corners))))
        }
        Floor::Polyline | Floor::Trough2d => {
            let trough = floor == Floor::Trough2d;
            let at = |k: usize| {
                let x = -w + 2.0 * w * k as f64 / FLOOR_CELLS as f64;
                DVec2::new(x, if trough { x.abs() } else { 0.0 })
            };
            valid(Polyline::new((0..=FLOOR_CELLS).map(at).collect(), false)).into()
        }
        Floor::HeightField2d => {
            let scale = DVec2::new(2.0 * w, 1.0);
            valid(heightfield_2d::HeightField::new(
                vec![0.0; FLOOR_CELLS + 1],
                scale,
            ))
            .into()
        }
        _ => panic!("{floor:?} is a 3D floor"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found() {
        let names: Vec<String> = all().iter().map(SceneSpec::name).collect();
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        assert_eq!(names.len(), 4 * 11 + 3 * 6 + 2 * 2);
        assert!(find("3d-stack-grid-mesh").is_some());
        assert!(find("2d-cylinder-lying-polyline").is_none());
    }

    #[test]
    fn bodies_start_touching_the_floor() {
        // Every scene starts at rest with its lowest body on the floor (within the
        // stack's hand-placing and rounding).
        for spec in all() {
            let gap = match spec.build() {
                AnyScene::D3(s) => floor_gap(&s),
                AnyScene::D2(s) => floor_gap(&s),
            };
            assert!(gap.abs() < 1e-3, "{}: {gap}", spec.name());
        }
    }

    /// The smallest distance from the floor (body 0) to a moving body.
    fn floor_gap<D: Dim>(scene: &Scene<D>) -> f64 {
        let floor = &scene.sim.bodies[0];
        scene.sim.bodies[1..]
            .iter()
            .map(|b| isect::query::dispatch::distance(&floor.pose, &floor.shape, &b.pose, &b.shape))
            .fold(f64::INFINITY, f64::min)
    }
}
