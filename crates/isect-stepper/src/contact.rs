//! Contact constraints: one per touching pair of bodies, built once a step from the
//! library's manifold and solved by sequential impulses in every substep (see
//! [`crate::solver`]; Catto, "Iterative Dynamics with Temporal Coherence", GDC 2005,
//! and "Fast and Simple Physics using Sequential Impulses", GDC 2006).
//!
//! - Normal: each manifold point carries a normal impulse, accumulated over the
//!   passes and clamped to push only; a manifold's points are solved together, as one
//!   small complementarity problem ([`crate::lcp`], Box2D v2's block solver). A
//!   point's separation is tracked through the step from the bodies' motion (the
//!   point is anchored to both bodies where the manifold put it, midway between its
//!   two witnesses), so that a point apart at the start (a speculative contact,
//!   within the prediction distance) lets the bodies close the gap and no more.
//! - Position: split impulses (Catto, "Modeling and Solving Constraints", GDC 2009):
//!   push impulses, solved like the normal ones on pseudo-velocities, remove
//!   `baumgarte` of the penetration beyond the slop each substep; the pseudo-velocities
//!   move the bodies and are then dropped, so that no push is kept as velocity.
//! - Friction: Coulomb friction at the centre of the manifold's points, along two
//!   tangents in 3D (one in 2D), its accumulation clamped to the disc of radius
//!   `friction · Σ normal impulses`; in 3D also a twist (torsional) impulse about the
//!   normal, clamped to `friction · Σ normal impulses · r`, with `r` the points' mean
//!   distance from their centre. One friction for the whole manifold rather than one a
//!   point, as PhysX's patch friction and Bullet's friction anchors do: the four
//!   coplanar points of a face contact share a load in a way the rigid contact leaves
//!   undetermined, and friction bounded point by point would follow that arbitrary
//!   split.
//!
//! Warm starting: a point whose [`FeatureId`] matches a point of the same pair in the
//! previous step starts from that point's normal impulse; the friction and twist
//! impulses carry over when at least one point matched (the same contact), friction
//! as its world vector, so that a turned tangent basis keeps it.

use crate::dim::Dim;
use crate::lcp;
use isect::math::{Isometry, Vector};
use isect::query::manifold::{FeatureId, Manifold, MAX_MANIFOLD_POINTS};

/// One body during a step: its velocities, its pose as the substeps move it, and what
/// the solver reads of it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Motion<D: Dim> {
    /// Velocity of the centre of mass.
    pub v: D::V,
    /// Angular velocity.
    pub w: D::Ang,
    /// Pseudo-velocity of the position pass (split impulses).
    pub push_v: D::V,
    /// Pseudo angular velocity of the position pass.
    pub push_w: D::Ang,
    /// The body's pose, advanced by each substep.
    pub pose: D::Pose,
    /// The centre of mass in the world at the start of the step.
    pub center: D::V,
    /// `1 / mass` (0 for a static body).
    pub inverse_mass: f64,
    /// World-frame inverse inertia at the start of the step.
    pub inverse_inertia: D::Inertia,
}

impl<D: Dim> Motion<D> {
    /// Velocity of the body's material point at offset `r` from its centre.
    fn velocity_at(&self, r: D::V) -> D::V {
        self.v + D::ang_cross(self.w, r)
    }

    /// Applies the impulse `p` at offset `r` to the velocities.
    fn apply(&mut self, r: D::V, p: D::V) {
        self.v += p * self.inverse_mass;
        self.w += D::apply(self.inverse_inertia, D::cross(r, p));
    }

    /// Pseudo-velocity of the point at offset `r`.
    fn push_velocity_at(&self, r: D::V) -> D::V {
        self.push_v + D::ang_cross(self.push_w, r)
    }

    /// Applies the push impulse `p` at offset `r` to the pseudo-velocities.
    fn apply_push(&mut self, r: D::V, p: D::V) {
        self.push_v += p * self.inverse_mass;
        self.push_w += D::apply(self.inverse_inertia, D::cross(r, p));
    }

    /// Applies the angular impulse `l` to the angular velocity.
    fn apply_angular(&mut self, l: D::Ang) {
        self.w += D::apply(self.inverse_inertia, l);
    }

    /// `1/m + (I⁻¹ (r × d)) · (r × d)`: this body's share of the inverse effective
    /// mass along the unit direction `d` at offset `r`.
    fn inverse_mass_along(&self, r: D::V, d: D::V) -> f64 {
        let rd = D::cross(r, d);
        self.inverse_mass + D::ang_dot(D::apply(self.inverse_inertia, rd), rd)
    }
}

/// What the position pass needs to know.
#[derive(Copy, Clone, Debug)]
pub(crate) struct PushParams {
    /// Fraction of the penetration beyond the slop removed a substep.
    pub baumgarte: f64,
    /// Penetration left in place (m).
    pub slop: f64,
}

/// One manifold point as the solver sees it.
#[derive(Copy, Clone, Debug)]
struct Point<D: Dim> {
    id: FeatureId,
    /// Offsets of the contact point (midway between the two witnesses) from each
    /// body's centre of mass at the start of the step: the levers of the impulses.
    r_a: D::V,
    r_b: D::V,
    /// The contact point in each body's frame, to track the separation.
    local_a: D::V,
    local_b: D::V,
    /// Separation at the start of the step (−depth).
    separation: f64,
    normal_impulse: f64,
    push_impulse: f64,
    /// True when the point's id matched a point of the last step.
    warm: bool,
}

/// The friction of a manifold, at the centre of its points.
#[derive(Copy, Clone, Debug)]
struct Friction<D: Dim> {
    /// Offsets of the points' centre from each body's centre of mass.
    r_a: D::V,
    r_b: D::V,
    tangents: [D::V; 2],
    tangent_mass: [f64; 2],
    impulse: [f64; 2],
    /// The twist about the normal (3D only).
    twist: Option<Twist<D>>,
}

/// Torsional friction about the manifold's normal.
#[derive(Copy, Clone, Debug)]
struct Twist<D: Dim> {
    axis: D::Ang,
    mass: f64,
    /// Mean distance of the points from their centre: the lever of the twist limit.
    radius: f64,
    impulse: f64,
}

/// The contact constraint of bodies `a` and `b` (indices, `a < b`): the manifold the
/// library returned and the solver's state of its points and friction.
#[derive(Clone, Debug)]
pub struct Constraint<D: Dim> {
    a: usize,
    b: usize,
    manifold: Manifold<D::V>,
    coefficient: f64,
    points: Vec<Point<D>>,
    /// `K_ij = J_i M⁻¹ J_jᵀ` of the points' normal rows: how an impulse at point `j`
    /// changes the normal velocity at point `i`.
    coupling: lcp::Matrix,
    friction: Friction<D>,
}

impl<D: Dim> Constraint<D> {
    /// The constraint of the manifold between bodies `a` and `b` (normal from `a` to
    /// `b`) with friction `coefficient`, warm-started from `previous` (the same pair's
    /// constraints of the last step) where point ids match.
    pub(crate) fn new(
        (a, b): (usize, usize),
        manifold: Manifold<D::V>,
        motions: &[Motion<D>],
        coefficient: f64,
        previous: &[Constraint<D>],
    ) -> Self {
        let (ma, mb) = (&motions[a], &motions[b]);
        let n = manifold.normal;
        let at: Vec<D::V> = manifold
            .points()
            .iter()
            .map(|p| (p.point_a + p.point_b) * 0.5)
            .collect();
        let points = manifold.points().iter().zip(&at).map(|(p, &at)| {
            let (r_a, r_b) = (at - ma.center, at - mb.center);
            Point {
                id: p.id,
                r_a,
                r_b,
                local_a: ma.pose.inverse_transform_point(at),
                local_b: mb.pose.inverse_transform_point(at),
                separation: -p.depth,
                normal_impulse: 0.0,
                push_impulse: 0.0,
                warm: false,
            }
        });
        let points: Vec<Point<D>> = points.collect();
        let mut c = Self {
            a,
            b,
            coupling: coupling(ma, mb, n, &points),
            points,
            friction: Friction::new(ma, mb, n, &at),
            manifold,
            coefficient,
        };
        if let Some(old) = previous.iter().max_by_key(|old| c.shared_ids(old)) {
            c.warm_start_from(old);
        }
        c
    }

    /// How many of this constraint's point ids `old` has.
    fn shared_ids(&self, old: &Constraint<D>) -> usize {
        let ids = |c: &Constraint<D>| c.points.iter().map(|p| p.id).collect::<Vec<_>>();
        let old_ids = ids(old);
        self.points
            .iter()
            .filter(|p| old_ids.contains(&p.id))
            .count()
    }

    /// Takes the impulses of the last step's points of the same ids (each old point
    /// once), and the friction when any point matched.
    fn warm_start_from(&mut self, old: &Constraint<D>) {
        let mut taken = [false; MAX_MANIFOLD_POINTS];
        for point in &mut self.points {
            let found = old
                .points
                .iter()
                .enumerate()
                .find(|(i, o)| !taken[*i] && o.id == point.id);
            if let Some((i, o)) = found {
                taken[i] = true;
                point.warm = true;
                point.normal_impulse = o.normal_impulse;
            }
        }
        if self.warm_started() > 0 {
            self.friction.carry(&old.friction);
        }
    }

    /// The bodies' indices.
    pub fn bodies(&self) -> (usize, usize) {
        (self.a, self.b)
    }

    /// The manifold the library returned for this pair this step.
    pub fn manifold(&self) -> &Manifold<D::V> {
        &self.manifold
    }

    /// The normal impulse of each manifold point in the last substep (N·s), in order.
    pub fn normal_impulses(&self) -> impl Iterator<Item = f64> + '_ {
        self.points.iter().map(|p| p.normal_impulse)
    }

    /// How many of the points matched a point of the same pair in the last step by
    /// id (and started from its impulses).
    pub fn warm_started(&self) -> usize {
        self.points.iter().filter(|p| p.warm).count()
    }

    /// Applies the impulses of the last substep (or step) to the bodies.
    pub(crate) fn warm_start(&self, motions: &mut [Motion<D>]) {
        let (ma, mb) = pair(motions, self.a, self.b);
        let n = self.manifold.normal;
        for point in &self.points {
            let p = n * point.normal_impulse;
            ma.apply(point.r_a, -p);
            mb.apply(point.r_b, p);
        }
        let f = &self.friction;
        let p = f.tangents[0] * f.impulse[0] + f.tangents[1] * f.impulse[1];
        ma.apply(f.r_a, -p);
        mb.apply(f.r_b, p);
        if let Some(t) = &f.twist {
            ma.apply_angular(t.axis * -t.impulse);
            mb.apply_angular(t.axis * t.impulse);
        }
    }

    /// One velocity pass over a substep of length `h`: friction (bounded by the
    /// current normal impulses), then the points' normal impulses together, so that
    /// no approaching point is left approaching and a speculative gap closes within
    /// the substep at most.
    pub(crate) fn solve_velocity(&mut self, motions: &mut [Motion<D>], h: f64) {
        let limit = self.coefficient * self.points.iter().map(|p| p.normal_impulse).sum::<f64>();
        let (ma, mb) = pair(motions, self.a, self.b);
        self.friction.solve(ma, mb, limit);
        let n = self.manifold.normal;
        let mut rows = [0.0; lcp::MAX];
        let mut old = [0.0; lcp::MAX];
        for (i, p) in self.points.iter().enumerate() {
            let gap = p.current_separation(ma, mb, n).max(0.0);
            rows[i] = (mb.velocity_at(p.r_b) - ma.velocity_at(p.r_a)).dot(n) + gap / h;
            old[i] = p.normal_impulse;
        }
        let new = self.block(&rows, &old);
        for (point, total) in self.points.iter_mut().zip(new) {
            let p = n * (total - point.normal_impulse);
            point.normal_impulse = total;
            ma.apply(point.r_a, -p);
            mb.apply(point.r_b, p);
        }
    }

    /// One position pass: push impulses on the pseudo-velocities, so that each point
    /// deeper than the slop separates at `baumgarte · (depth − slop) / h`.
    pub(crate) fn solve_position(&mut self, motions: &mut [Motion<D>], h: f64, params: PushParams) {
        let (ma, mb) = pair(motions, self.a, self.b);
        let n = self.manifold.normal;
        let mut rows = [0.0; lcp::MAX];
        let mut old = [0.0; lcp::MAX];
        for (i, p) in self.points.iter().enumerate() {
            let depth = -p.current_separation(ma, mb, n);
            let target = params.baumgarte * (depth - params.slop).max(0.0) / h;
            rows[i] = (mb.push_velocity_at(p.r_b) - ma.push_velocity_at(p.r_a)).dot(n) - target;
            old[i] = p.push_impulse;
        }
        let new = self.block(&rows, &old);
        for (point, total) in self.points.iter_mut().zip(new) {
            let p = n * (total - point.push_impulse);
            point.push_impulse = total;
            ma.apply_push(point.r_a, -p);
            mb.apply_push(point.r_b, p);
        }
    }

    /// Clears the push impulses (each substep's position pass starts from none).
    pub(crate) fn reset_push(&mut self) {
        for p in &mut self.points {
            p.push_impulse = 0.0;
        }
    }

    /// New accumulated impulses of the points, whose rows (velocity along the normal
    /// minus the wanted one) read `rows` under the accumulated impulses `old`: the
    /// block solve, or, for a degenerate problem, one point after the other.
    fn block(&self, rows: &[f64; lcp::MAX], old: &[f64; lcp::MAX]) -> [f64; lcp::MAX] {
        let n = self.points.len();
        let k = &self.coupling;
        let mut c = [0.0; lcp::MAX];
        for i in 0..n {
            c[i] = rows[i] - (0..n).map(|j| k[i][j] * old[j]).sum::<f64>();
        }
        if let Some(x) = lcp::solve(n, k, &c) {
            return x;
        }
        let mut x = *old;
        for i in 0..n {
            let w: f64 = c[i] + (0..n).map(|j| k[i][j] * x[j]).sum::<f64>();
            if k[i][i] > 0.0 {
                x[i] = (x[i] - w / k[i][i]).max(0.0);
            }
        }
        x
    }
}

impl<D: Dim> Point<D> {
    /// The point's separation now: its start separation plus how far its two anchors
    /// moved apart along `n`.
    fn current_separation(&self, ma: &Motion<D>, mb: &Motion<D>, n: D::V) -> f64 {
        let apart = mb.pose.transform_point(self.local_b) - ma.pose.transform_point(self.local_a);
        self.separation + apart.dot(n)
    }
}

/// The coupling matrix `K` of the points' normal rows (see [`Constraint`]).
fn coupling<D: Dim>(ma: &Motion<D>, mb: &Motion<D>, n: D::V, points: &[Point<D>]) -> lcp::Matrix {
    let mut k = [[0.0; lcp::MAX]; lcp::MAX];
    let arm = |r: D::V| D::cross(r, n);
    for (i, pi) in points.iter().enumerate() {
        for (j, pj) in points.iter().enumerate() {
            let turn_a = D::ang_dot(D::apply(ma.inverse_inertia, arm(pi.r_a)), arm(pj.r_a));
            let turn_b = D::ang_dot(D::apply(mb.inverse_inertia, arm(pi.r_b)), arm(pj.r_b));
            k[i][j] = ma.inverse_mass + mb.inverse_mass + turn_a + turn_b;
        }
    }
    k
}

impl<D: Dim> Friction<D> {
    /// The friction at the centre of the points `at` (world) for the normal `n`.
    fn new(ma: &Motion<D>, mb: &Motion<D>, n: D::V, at: &[D::V]) -> Self {
        let count = at.len().max(1) as f64;
        let center = at.iter().fold(D::V::ZERO, |s, &p| s + p) * (1.0 / count);
        let (r_a, r_b) = (center - ma.center, center - mb.center);
        let tangents = D::tangents(n);
        let tangent_mass = tangents.map(|t| effective_mass(ma, mb, r_a, r_b, t));
        let twist = D::twist_axis(n).map(|axis| {
            let inverse = D::ang_dot(D::apply(ma.inverse_inertia, axis), axis)
                + D::ang_dot(D::apply(mb.inverse_inertia, axis), axis);
            Twist {
                axis,
                mass: if inverse > 0.0 { 1.0 / inverse } else { 0.0 },
                radius: at.iter().map(|&p| (p - center).length()).sum::<f64>() / count,
                impulse: 0.0,
            }
        });
        Self {
            r_a,
            r_b,
            tangents,
            tangent_mass,
            impulse: [0.0; 2],
            twist,
        }
    }

    /// Starts from `old`'s impulses: the friction's world vector on this step's
    /// tangents, and the twist.
    fn carry(&mut self, old: &Friction<D>) {
        let vector = old.tangents[0] * old.impulse[0] + old.tangents[1] * old.impulse[1];
        for k in 0..D::TANGENTS {
            self.impulse[k] = vector.dot(self.tangents[k]);
        }
        if let (Some(t), Some(o)) = (&mut self.twist, &old.twist) {
            t.impulse = o.impulse * D::ang_dot(t.axis, o.axis).signum();
        }
    }

    /// Stops the sliding and the twisting within the Coulomb bounds: the accumulated
    /// tangent impulses within the disc (interval in 2D) of radius `limit`, the twist
    /// within `limit · radius`.
    fn solve(&mut self, ma: &mut Motion<D>, mb: &mut Motion<D>, limit: f64) {
        let dv = mb.velocity_at(self.r_b) - ma.velocity_at(self.r_a);
        let mut total = [0.0; 2];
        for (k, t) in total.iter_mut().enumerate().take(D::TANGENTS) {
            *t = self.impulse[k] - self.tangent_mass[k] * dv.dot(self.tangents[k]);
        }
        let length = (total[0] * total[0] + total[1] * total[1]).sqrt();
        if length > limit {
            let scale = if length > 0.0 { limit / length } else { 0.0 };
            total = total.map(|x| x * scale);
        }
        let p = self.tangents[0] * (total[0] - self.impulse[0])
            + self.tangents[1] * (total[1] - self.impulse[1]);
        self.impulse = total;
        ma.apply(self.r_a, -p);
        mb.apply(self.r_b, p);
        if let Some(t) = &mut self.twist {
            let spin = D::ang_dot(mb.w - ma.w, t.axis);
            let bound = limit * t.radius;
            let total = (t.impulse - t.mass * spin).clamp(-bound, bound);
            let delta = t.axis * (total - t.impulse);
            t.impulse = total;
            ma.apply_angular(-delta);
            mb.apply_angular(delta);
        }
    }
}

/// `1 / (A's and B's inverse masses along the unit `d` at offsets `r_a`, `r_b`)`
/// (0 when both are static).
fn effective_mass<D: Dim>(ma: &Motion<D>, mb: &Motion<D>, r_a: D::V, r_b: D::V, d: D::V) -> f64 {
    let inverse = ma.inverse_mass_along(r_a, d) + mb.inverse_mass_along(r_b, d);
    if inverse > 0.0 {
        1.0 / inverse
    } else {
        0.0
    }
}

/// Mutable views of two distinct bodies' motions, `a < b`.
fn pair<D: Dim>(motions: &mut [Motion<D>], a: usize, b: usize) -> (&mut Motion<D>, &mut Motion<D>) {
    let (low, high) = motions.split_at_mut(b);
    (&mut low[a], &mut high[0])
}
