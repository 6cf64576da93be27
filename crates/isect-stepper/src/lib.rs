//! A small rigid-body stepper that judges isect's contact manifolds as a user would:
//! by stacking things on them. Used by this crate's tests and by the `isect stack`
//! pictures; not library API (`publish = false`).
//!
//! # What it is
//!
//! Rigid bodies ([`Body`]: a shape of isect's `AnyShape`, a pose, linear and angular
//! velocity, mass and inertia from [`mass`]) in 3D ([`D3`]) and 2D ([`D2`]), in
//! `f64`, under gravity, stepped by semi-implicit Euler with a sequential-impulse
//! contact solver ([`Simulation`]). The reference is Erin Catto's sequential
//! impulses as in Box2D-lite and his GDC talks: "Iterative Dynamics with Temporal
//! Coherence" (2005), "Fast and Simple Physics using Sequential Impulses" (2006),
//! "Modeling and Solving Constraints" (2009); with two later pieces of Box2D that the
//! stacks below needed ([`solver`] says why): substeps with the narrow phase once a
//! step (Box2D v3, Catto's "Solver2D", 2024) and the block solve of a manifold's
//! normal impulses (Box2D v2, [`lcp`]).
//!
//! Per contact ([`contact`]): normal impulses with accumulated clamping; Coulomb
//! friction along two tangents in 3D (one in 2D) at the centre of the manifold,
//! clamped to the friction disc, with a twist (torsional) term in 3D; restitution 0;
//! position correction by split impulses (Baumgarte's β on pseudo-velocities that are
//! never kept, with a slop); warm starting by matching manifold points across steps
//! through `isect::query::manifold::ManifoldPoint::id` (the `FeatureId`). Static
//! bodies have infinite mass. No sleeping, no damping, no gyroscopic term, no
//! continuous collision.
//!
//! Contacts come only from the library: every pair of bodies whose boxes overlap
//! (brute force over the pairs; the scenes are small) gets
//! `isect::query::dispatch::contact_manifolds_by_normal(pose_a, shape_a, pose_b,
//! shape_b, PREDICTION)` once a step, so convex pairs and composite floors (meshes,
//! heightfields, polylines, troughs) go through the public manifold API, one manifold
//! a normal. The stepper never
//! makes contact points of its own nor keeps a manifold beyond its step; only the
//! impulses of points whose ids match carry over.
//!
//! # Tolerances and thresholds
//!
//! | name | value | meaning |
//! |---|---|---|
//! | [`STEP`] | 1/60 s | the time step |
//! | [`GRAVITY`] | 9.81 m/s² | along −y |
//! | [`PREDICTION`] | 0.02 m | speculative contacts: shapes apart by up to this get contact points (Box2D v3's speculative distance, 4 × its linear slop) |
//! | [`SLOP`] | 0.005 m | penetration the position pass leaves (Box2D's `b2_linearSlop`) |
//! | [`Settings`] | 4 substeps of 4 velocity and 2 position passes, β = 0.2, friction 0.6 | the solver |
//! | [`lcp::REGULARIZATION`] | 10⁻⁶ | relative compliance of the block solve, used only when a manifold's points are singular together (four coplanar points) |
//! | [`REST_LINEAR_SPEED`] | 0.01 m/s | a resting body is slower than this (Box2D's linear sleep tolerance) |
//! | [`REST_ANGULAR_SPEED`] | 2°/s ≈ 0.035 rad/s | and turns slower than this (Box2D's angular sleep tolerance) |
//! | [`STAND_FRACTION`] | 1% | a standing body drifts less than this of its size; a stack's top stays within this of the ideal height |
//! | [`STAND_TURN`] | 0.01 rad | a standing body turns less than this |
//! | [`SINK_TOLERANCE`] | 0.02 m | no body's lowest point deeper than this under the floor |
//!
//! The scenes ([`scenes`]) run 10 s (600 steps); `scenes::Report::failures` applies
//! the thresholds.

#![warn(missing_docs)]

pub mod body;
pub mod contact;
pub mod dim;
pub mod lcp;
pub mod mass;
pub mod scenes;
pub mod solver;

pub use body::{Body, UnsupportedShape};
pub use contact::Constraint;
pub use dim::{Dim, D2, D3};
pub use solver::{Settings, Simulation};

/// The time step (s).
pub const STEP: f64 = 1.0 / 60.0;
/// Gravity's acceleration (m/s², along −y).
pub const GRAVITY: f64 = 9.81;
/// Shapes apart by up to this distance (m) get (speculative) contact points: the
/// `prediction` passed to `contact_manifolds_by_normal`.
pub const PREDICTION: f64 = 0.02;
/// Penetration (m) the position correction leaves in place.
pub const SLOP: f64 = 0.005;
/// A body at rest moves slower than this (m/s): Box2D's sleep threshold.
pub const REST_LINEAR_SPEED: f64 = 0.01;
/// A body at rest turns slower than this (rad/s; 2°/s): Box2D's sleep threshold.
pub const REST_ANGULAR_SPEED: f64 = 2.0 * std::f64::consts::PI / 180.0;
/// A standing body drifts sideways by less than this fraction of its size, and the
/// top of a stack stays within this fraction of the ideal stack height (1%).
pub const STAND_FRACTION: f64 = 0.01;
/// A standing body turns by less than this (rad): its ends move under 1% of its size.
pub const STAND_TURN: f64 = 0.01;
/// A body's lowest point may be this far below the floor surface (m): four times the
/// slop, the prediction distance.
pub const SINK_TOLERANCE: f64 = 0.02;
