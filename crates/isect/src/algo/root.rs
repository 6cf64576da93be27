//! A root of a monotone function on a bracket by the Illinois method (a secant step
//! inside the bracket, the stale end's value halved: superlinear where the function is
//! smooth, never outside the bracket; Dowell & Jarratt, "A modified regula falsi method
//! for computing the root of an equation", BIT 11, 1971).
//!
//! Tolerance: the caller's, in epsilons of the bracket's parameter (`ulps`), and a step
//! limit (`steps`).

// `!(x > y)` is deliberate: it is also true for NaN, which must end the search.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use crate::math::tolerance::eps;
use crate::math::Real;

/// The root in `[a, b]` of `f`, negative at `a` (`fa = f(a)`) and positive at `b`: a
/// parameter where `f` is zero, or the end of the final bracket whose value is nearer
/// zero once the bracket is within `ulps` epsilons or after `steps` steps.
pub(crate) fn illinois<R: Real>(
    f: impl Fn(R) -> R,
    (mut a, mut fa): (R, R),
    (mut b, mut fb): (R, R),
    steps: usize,
    ulps: f64,
) -> R {
    let mut stale = 0i8;
    for _ in 0..steps {
        if !(b - a > eps::<R>(ulps)) {
            break;
        }
        let mut t = (a * fb - b * fa) / (fb - fa);
        if !(t > a && t < b) {
            t = (a + b) * R::from_f64(0.5);
        }
        let ft = f(t);
        if ft == R::ZERO {
            return t;
        }
        if ft < R::ZERO {
            (a, fa) = (t, ft);
            if stale == -1 {
                fb *= R::from_f64(0.5);
            }
            stale = -1;
        } else {
            (b, fb) = (t, ft);
            if stale == 1 {
                fa *= R::from_f64(0.5);
            }
            stale = 1;
        }
    }
    match -fa < fb {
        true => a,
        false => b,
    }
}
