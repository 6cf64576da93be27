//! [`Simulation`]: bodies under gravity, stepped by semi-implicit Euler with a
//! sequential-impulse contact solver in substeps (see [`crate::contact`]).
//!
//! One [`step`](Simulation::step) of `dt`:
//! 1. narrow phase, once: every pair with a moving body whose bounding boxes, grown
//!    by the prediction distance, overlap gets
//!    `isect::query::dispatch::contact_manifolds_by_normal` (convex pairs and
//!    composites alike go through the library's public manifolds; a composite gives
//!    one a normal its parts touch along); each manifold becomes a constraint,
//!    warm-started from the pair's constraints of the last step by point id;
//! 2. [`Settings::substeps`] substeps of `h = dt / substeps`, each: gravity changes
//!    the moving bodies' velocities (`v += g·h`, semi-implicit Euler); the last
//!    impulses are applied again (warm start); [`Settings::velocity_iterations`]
//!    passes of friction and normal impulses; [`Settings::position_iterations`]
//!    passes of push impulses; the poses advance by the velocities plus the push
//!    velocities, which are then dropped.
//!
//! Substeps with the narrow phase once a step and the contact points tracked through
//! them are Box2D v3's (Erin Catto, "Solver2D", 2024). At 60 Hz with one step and
//! point-by-point passes, a 3D stack of ten boxes kept rocking and creeping sideways
//! even at 400 passes; substeps and the block solve of each manifold
//! ([`crate::lcp`]) let it settle.

use crate::body::Body;
use crate::contact::{Constraint, Motion, PushParams};
use crate::dim::Dim;
use isect::math::Vector;
use isect::query::dispatch::{self, DispatchShape};

/// The solver's parameters. The defaults are those the scenes and their tests use.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Settings {
    /// Time step (s): [`crate::STEP`], 1/60.
    pub dt: f64,
    /// Substeps a step.
    pub substeps: usize,
    /// Passes of friction and normal impulses a substep.
    pub velocity_iterations: usize,
    /// Passes of push impulses a substep.
    pub position_iterations: usize,
    /// Coulomb friction coefficient of every contact.
    pub friction: f64,
    /// Fraction of the penetration beyond the slop removed a substep (Baumgarte's β).
    pub baumgarte: f64,
    /// Penetration left in place (m): [`crate::SLOP`].
    pub slop: f64,
    /// Shapes apart by up to this (m) still get a (speculative) contact:
    /// [`crate::PREDICTION`].
    pub prediction: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            dt: crate::STEP,
            substeps: 4,
            velocity_iterations: 4,
            position_iterations: 2,
            friction: 0.6,
            baumgarte: 0.2,
            slop: crate::SLOP,
            prediction: crate::PREDICTION,
        }
    }
}

/// Bodies, gravity and the contacts of the last step.
#[derive(Clone, Debug)]
pub struct Simulation<D: Dim> {
    /// The bodies; constraints refer to them by index.
    pub bodies: Vec<Body<D>>,
    /// Acceleration of gravity (m/s²).
    pub gravity: D::V,
    /// The solver's parameters.
    pub settings: Settings,
    constraints: Vec<Constraint<D>>,
    steps: usize,
}

impl<D: Dim> Simulation<D> {
    /// No bodies yet, Earth's gravity ([`crate::GRAVITY`] down) and the default
    /// settings.
    pub fn new() -> Self {
        Self {
            bodies: Vec::new(),
            gravity: D::up() * -crate::GRAVITY,
            settings: Settings::default(),
            constraints: Vec::new(),
            steps: 0,
        }
    }

    /// Adds a body; returns its index.
    pub fn add(&mut self, body: Body<D>) -> usize {
        self.bodies.push(body);
        self.bodies.len() - 1
    }

    /// The contacts of the last step, one a touching pair, in pair order.
    pub fn contacts(&self) -> &[Constraint<D>] {
        &self.constraints
    }

    /// Steps taken so far.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// The largest linear and angular speed of the moving bodies (m/s, rad/s).
    pub fn max_speeds(&self) -> (f64, f64) {
        let moving = self.bodies.iter().filter(|b| !b.is_static());
        moving.fold((0.0, 0.0), |(v, w), b| {
            (b.speed().max(v), b.angular_speed().max(w))
        })
    }

    /// Advances the simulation by `settings.dt`.
    pub fn step(&mut self) {
        let s = self.settings;
        let substeps = s.substeps.max(1);
        let h = s.dt / substeps as f64;
        let mut motions = self.motions();
        let previous = std::mem::take(&mut self.constraints);
        self.constraints = self.collide(&motions, &previous);
        for _ in 0..substeps {
            self.substep(&mut motions, h);
        }
        for (body, m) in self.bodies.iter_mut().zip(&motions) {
            body.linear_velocity = m.v;
            body.angular_velocity = m.w;
            body.pose = m.pose;
        }
        self.steps += 1;
    }

    /// Runs `n` steps.
    pub fn run(&mut self, n: usize) {
        for _ in 0..n {
            self.step();
        }
    }

    /// One substep of length `h`.
    fn substep(&mut self, motions: &mut [Motion<D>], h: f64) {
        let s = self.settings;
        for (m, body) in motions.iter_mut().zip(&self.bodies) {
            if !body.is_static() {
                m.v += self.gravity * h;
            }
        }
        for c in &self.constraints {
            c.warm_start(motions);
        }
        for _ in 0..s.velocity_iterations {
            for c in &mut self.constraints {
                c.solve_velocity(motions, h);
            }
        }
        let params = PushParams {
            baumgarte: s.baumgarte,
            slop: s.slop,
        };
        for c in &mut self.constraints {
            c.reset_push();
        }
        for _ in 0..s.position_iterations {
            for c in &mut self.constraints {
                c.solve_position(motions, h, params);
            }
        }
        for (m, body) in motions.iter_mut().zip(&self.bodies) {
            if !body.is_static() {
                let (v, w) = (m.v + m.push_v, m.w + m.push_w);
                m.pose = D::integrate(&m.pose, body.local_center(), v, w, h);
            }
            m.push_v = D::V::ZERO;
            m.push_w = D::Ang::default();
        }
    }

    /// Each body's solver view at the start of the step.
    fn motions(&self) -> Vec<Motion<D>> {
        let motion = |b: &Body<D>| Motion {
            v: b.linear_velocity,
            w: b.angular_velocity,
            push_v: D::V::ZERO,
            push_w: D::Ang::default(),
            pose: b.pose,
            center: b.center(),
            inverse_mass: b.inverse_mass(),
            inverse_inertia: b.world_inverse_inertia(),
        };
        self.bodies.iter().map(motion).collect()
    }

    /// The constraints of every pair within the prediction distance, brute force
    /// over the pairs (the scenes are small), `a < b`, one a manifold. `previous` is
    /// sorted by pair.
    fn collide(&self, motions: &[Motion<D>], previous: &[Constraint<D>]) -> Vec<Constraint<D>> {
        let s = &self.settings;
        let boxes: Vec<_> = self
            .bodies
            .iter()
            .map(|b| b.shape.world_aabb(&b.pose).loosened(s.prediction / 2.0))
            .collect();
        let mut out = Vec::new();
        for a in 0..self.bodies.len() {
            for b in a + 1..self.bodies.len() {
                let (ba, bb) = (&self.bodies[a], &self.bodies[b]);
                if (ba.is_static() && bb.is_static()) || !boxes[a].intersects(&boxes[b]) {
                    continue;
                }
                let manifolds = dispatch::contact_manifolds_by_normal(
                    &ba.pose,
                    &ba.shape,
                    &bb.pose,
                    &bb.shape,
                    s.prediction,
                );
                let start = previous.partition_point(|c| c.bodies() < (a, b));
                let end = previous.partition_point(|c| c.bodies() <= (a, b));
                for manifold in manifolds.into_iter().filter(|m| !m.points().is_empty()) {
                    let old = &previous[start..end];
                    out.push(Constraint::new((a, b), manifold, motions, s.friction, old));
                }
            }
        }
        out
    }
}

impl<D: Dim> Default for Simulation<D> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::D3;
    use glam::DVec3;
    use isect::math::{Isometry, Pose3};
    use isect::shape::shape_3d::Shape;
    use isect::shape::Aabb;

    /// A floor box with its top at `y = 0` and a box of half extents `half` resting
    /// on it (its bottom `drop` above the floor).
    fn box_on_floor(half: DVec3, drop: f64) -> Simulation<D3> {
        let mut sim = Simulation::new();
        let floor = Aabb::new(DVec3::new(-5.0, -1.0, -5.0), DVec3::new(5.0, 0.0, 5.0)).unwrap();
        sim.add(Body::fixed(Shape::Cuboid(floor), Pose3::IDENTITY));
        let block = Shape::Cuboid(Aabb::from_center(DVec3::ZERO, half).unwrap());
        let at = Pose3::from_translation(DVec3::new(0.0, half.y + drop, 0.0));
        sim.add(Body::dynamic(block, at, 1000.0).unwrap());
        sim
    }

    #[test]
    fn a_dropped_box_comes_to_rest_on_the_floor() {
        // A unit box falls 1 m (about 0.45 s), lands flat and rests: its centre half a
        // metre up, within the slop.
        let mut sim = box_on_floor(DVec3::splat(0.5), 1.0);
        sim.run(120);
        let b = &sim.bodies[1];
        assert!(
            (b.pose.translation.y - 0.5).abs() < crate::SLOP,
            "{:?}",
            b.pose
        );
        assert!(b.speed() < 1e-6 && b.angular_speed() < 1e-6, "{b:?}");
    }

    #[test]
    fn a_tall_column_stands_still() {
        // A 1 × 10 × 1 column on its end: its four floor points solved one after the
        // other (not as a block) kept it rocking around its base at ~0.01 m/s.
        let mut sim = box_on_floor(DVec3::new(0.5, 5.0, 0.5), 0.0);
        sim.run(600);
        let b = &sim.bodies[1];
        assert!(b.speed() < 1e-6 && b.angular_speed() < 1e-6, "{b:?}");
        let tilt = (b.pose.rotation * DVec3::Y).angle_between(DVec3::Y);
        assert!(tilt < 1e-6, "tilted by {tilt}");
    }
}
