//! EPA (expanding polytope algorithm, van den Bergen 2001; Ericson 9.5 mentions it
//! as GJK's companion): penetration depth, normal and contact points of two
//! overlapping cores, grown from GJK's final simplex. The polygon (2D, `epa_2d`)
//! or polytope (3D, `epa_3d`, nearest-face scan and horizon) is expanded toward the
//! boundary of `A − B` until the face nearest the origin is on it.
//!
//! Tolerances: [`EPA_REL_ULPS`] with the floor [`EPA_REL_FLOOR`] (stop when the support point along the nearest
//! face's normal is within this many epsilons of the polytope's size beyond the
//! face) and [`EPA_BLOW_UP_ULPS`] (a point counts as off a line or plane when farther
//! than this, relative to the size). Caps: [`EPA_MAX_ITERATIONS`].
//!
//! EPA stops when the support distance along the nearest face's normal is within
//! the tolerance of the face, or when the best support distance seen so far (an
//! upper bound on the depth) is within it of the nearest face's distance (a lower
//! bound): the second test ends curved cases, where the nearest face converges slowly.
//!
//! When EPA cannot converge (cap reached, flat or point-like `A − B`, numerical
//! trouble) it still answers conservatively: the direction with the smallest proven
//! upper bound on the depth, that bound as the depth (moving B by `depth · normal`
//! separates the cores), the support points as witnesses, and the status saying why.

use super::gjk::{Status, SupportPoint};
use crate::math::tolerance::eps;
use crate::math::{Real, Vector};

/// The relative convergence tolerance of EPA for the scalar `R`.
#[inline]
pub(crate) fn epa_rel_tolerance<R: Real>() -> R {
    eps::<R>(EPA_REL_ULPS).max(R::from_f64(EPA_REL_FLOOR))
}

/// Iteration cap of EPA (one support call, one new vertex per iteration).
pub const EPA_MAX_ITERATIONS: u32 = 64;
/// Convergence: the support distance along the nearest face's normal exceeds the
/// face's distance by at most `EPA_REL_ULPS · ε · size` (size: largest `|w|`).
pub const EPA_REL_ULPS: f64 = 256.0;
/// Floor of EPA's relative tolerance. On a curved patch of `A − B` (cylinder and
/// cone rims) the nearest face's gap shrinks only about as `1 / N` with `N`
/// vertices added there, so in `f64` the `EPA_REL_ULPS` bound is out of reach within
/// the cap: with a floor of 1e-9, 0.8% of seeded cylinder–cone contacts ended at
/// the cap; with 1e-6, 1 in 3,000 (and the normal, accurate to about the square
/// root of the depth's tolerance, to about 1e-3 rad as parry's). The convergence
/// test uses `max(EPA_REL_ULPS · ε, EPA_REL_FLOOR)`.
pub const EPA_REL_FLOOR: f64 = 1e-6;
/// A support point extends the initial simplex only when it lies farther than
/// `EPA_BLOW_UP_ULPS · ε · size` from the simplex's line or plane.
pub const EPA_BLOW_UP_ULPS: f64 = 4096.0;

/// Penetration of two overlapping cores, in A's frame.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Penetration<V: Vector> {
    /// Penetration depth of the cores (≥ 0 up to rounding).
    pub depth: V::Scalar,
    /// Unit normal from A to B: moving B by `depth · normal` separates the cores.
    pub normal: V,
    /// Deepest point of A's core inside B.
    pub point_a: V,
    /// Deepest point of B's core inside A.
    pub point_b: V,
    /// `Converged`, `MaxIterations` (conservative answer), or `Degenerate` (flat or
    /// point-like Minkowski difference: `normal` is one of several equally valid ones).
    pub status: Status,
    /// Support calls made.
    pub iterations: u32,
}

impl<V: Vector> Penetration<V> {
    /// The conservative answer along unit `normal`, from the support point `p` taken
    /// along it: the support distance is an upper bound on the depth in that direction.
    /// `point_a` is A's support point; `point_b = point_a − depth · normal` lies on B's
    /// supporting plane (as SAT contacts report it), so that the witness points agree
    /// with the depth and normal even when `p.a − p.b` is not along the normal.
    #[inline]
    pub(crate) fn from_support(
        normal: V,
        p: &SupportPoint<V>,
        status: Status,
        iterations: u32,
    ) -> Self {
        let depth = normal.dot(p.w);
        Self {
            depth,
            normal,
            point_a: p.a,
            point_b: p.a - normal * depth,
            status,
            iterations,
        }
    }
}

/// The best fallback seen so far: the direction with the smallest support distance.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Fallback<V: Vector> {
    normal: V,
    support: SupportPoint<V>,
    upper: V::Scalar,
}

impl<V: Vector> Fallback<V> {
    /// Starts from one measured direction.
    pub(crate) fn new(normal: V, support: SupportPoint<V>) -> Self {
        Self {
            normal,
            support,
            upper: normal.dot(support.w),
        }
    }

    /// Keeps the direction if its bound is smaller.
    pub(crate) fn offer(&mut self, normal: V, support: SupportPoint<V>) {
        let upper = normal.dot(support.w);
        if upper < self.upper {
            *self = Self {
                normal,
                support,
                upper,
            };
        }
    }

    /// True when this direction's support distance (an upper bound on the depth) is
    /// within `tol` of `lower`, a lower bound on it (the distance of the polytope's
    /// nearest face: the polytope lies inside `A − B`): then this direction's answer
    /// is the depth within `tol`, even where no single face has converged (on a
    /// curved patch of `A − B` the nearest face's own gap shrinks only about as
    /// `1 / N` with `N` vertices added there).
    #[inline]
    pub(crate) fn brackets(&self, lower: V::Scalar, tol: V::Scalar) -> bool {
        self.upper - lower <= tol
    }

    /// The conservative answer.
    pub(crate) fn answer(&self, status: Status, iterations: u32) -> Penetration<V> {
        Penetration::from_support(self.normal, &self.support, status, iterations)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    // The fallback keeps the direction with the smallest proven upper bound.
    #[test]
    fn fallback_keeps_smallest_bound() {
        let p = |w: Vec2| SupportPoint {
            a: w,
            b: Vec2::ZERO,
            w,
            dir: Vec2::ZERO,
        };
        let mut fb = Fallback::new(Vec2::X, p(Vec2::new(2.0, 0.0)));
        fb.offer(Vec2::Y, p(Vec2::new(0.0, 0.5)));
        fb.offer(-Vec2::X, p(Vec2::new(-1.0, 0.0)));
        let answer = fb.answer(Status::MaxIterations, 7);
        assert_eq!(
            (answer.normal, answer.depth, answer.iterations),
            (Vec2::Y, 0.5, 7)
        );
        assert_eq!(answer.status, Status::MaxIterations);
    }
}
