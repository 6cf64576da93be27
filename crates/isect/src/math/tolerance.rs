//! Tolerances. Each one is a named constant, expressed in units of machine epsilon
//! (`ulps`) so that one constant fits both `f32` and `f64`; [`eps`] turns it into a
//! scalar of the precision in use. The constants live beside the algorithm that
//! uses them; this module holds the conversion and the crate-wide ones.

use super::real::Real;

/// `ulps` machine epsilons of the scalar type `R`: a relative tolerance.
#[inline]
pub fn eps<R: Real>(ulps: f64) -> R {
    R::EPSILON * R::from_f64(ulps)
}

/// Relative tolerance (in machine epsilons) below which a vector's length counts as
/// zero when it is normalised inside an algorithm (not in constructors, which only
/// reject an exact zero).
pub const NORMALIZE_ULPS: f64 = 4.0;
