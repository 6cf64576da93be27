//! The one error type of every shape constructor.

use core::fmt;

use crate::math::{Isometry, Real, RotationError, Vector};

/// Why a constructor refused its input. Every variant names the shape, the field
/// and, where there is one, the bad value.
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeError {
    /// A coordinate or scalar is NaN or infinite.
    NotFinite {
        /// The shape being built, e.g. `"Ball"`.
        shape: &'static str,
        /// The field holding the bad value, e.g. `"radius"`.
        field: &'static str,
    },
    /// A value that must be zero or positive is negative.
    Negative {
        /// The shape being built.
        shape: &'static str,
        /// The field holding the bad value.
        field: &'static str,
        /// The bad value.
        value: f64,
    },
    /// A box's minimum exceeds its maximum on some axis.
    MinAboveMax {
        /// The shape being built.
        shape: &'static str,
        /// The axis (0 = x, 1 = y, 2 = z).
        axis: usize,
        /// The minimum on that axis.
        min: f64,
        /// The maximum on that axis.
        max: f64,
    },
    /// A vector that must have a direction is zero, e.g. a plane normal.
    ZeroVector {
        /// The shape being built.
        shape: &'static str,
        /// The field holding the zero vector.
        field: &'static str,
    },
    /// A value is outside its allowed range.
    OutOfRange {
        /// The shape being built.
        shape: &'static str,
        /// The field holding the bad value.
        field: &'static str,
        /// The bad value.
        value: f64,
        /// The allowed range, in words, e.g. `"[0, 2π]"`.
        range: &'static str,
    },
    /// Fewer distinct points (or planes) than the shape needs.
    TooFewPoints {
        /// The shape being built.
        shape: &'static str,
        /// How many it needs at least.
        needed: usize,
        /// How many distinct ones it got.
        got: usize,
    },
    /// The vertices do not bound a convex region; `vertex` is the first offending one.
    NotConvex {
        /// The shape being built.
        shape: &'static str,
        /// Index (in the input) of the vertex where convexity fails.
        vertex: usize,
    },
    /// Two edges of a polygon meet where they may not; the indices are of their first
    /// vertices, `relation` says how they meet.
    SelfIntersecting {
        /// The shape being built.
        shape: &'static str,
        /// The first vertex of the first edge.
        edge_a: usize,
        /// The first vertex of the second edge.
        edge_b: usize,
        /// How the edges meet, as a verb phrase: `"crosses"` (they cross, at a point
        /// inside both or at a vertex where one ring passes to the other side of the
        /// other), `"touches"` (they share a single point without crossing), or
        /// `"overlaps (touches along a stretch of)"` (collinear, sharing a stretch).
        relation: &'static str,
    },
    /// One part of a composite shape is invalid (e.g. a compound part with a
    /// non-finite pose); `index` is the part's position in the input.
    BadPart {
        /// The shape being built.
        shape: &'static str,
        /// Index of the offending part in the input.
        index: usize,
        /// What is wrong, in words.
        reason: &'static str,
    },
    /// One vertex of a vertex list is unusable (not finite, a repeat of the previous
    /// vertex, a hole outside its polygon, ...).
    InvalidVertex {
        /// The shape being built.
        shape: &'static str,
        /// The vertex's index; shapes with several rings count through them in order.
        vertex: usize,
        /// What is wrong, in words.
        reason: &'static str,
    },
    /// The input describes an empty or flat region (e.g. planes with no common interior).
    Degenerate {
        /// The shape being built.
        shape: &'static str,
        /// What is wrong, in words.
        reason: &'static str,
    },
    /// An element of a list (a mesh vertex, a height) is NaN or infinite.
    NotFiniteAt {
        /// The shape being built.
        shape: &'static str,
        /// The list holding the bad value, e.g. `"vertices"`.
        field: &'static str,
        /// The index of the bad element.
        index: usize,
    },
    /// A triangle refers to a vertex that does not exist.
    IndexOutOfRange {
        /// The shape being built.
        shape: &'static str,
        /// The index of the triangle.
        triangle: usize,
        /// The bad vertex index.
        index: u32,
        /// How many vertices there are.
        vertex_count: usize,
    },
    /// A mesh asked to be solid is not closed and consistently oriented at an edge.
    NotClosed {
        /// The shape being built.
        shape: &'static str,
        /// The index of the first triangle where the check fails.
        triangle: usize,
        /// The edge (vertex indices) where it fails.
        edge: [u32; 2],
        /// What is wrong there, in words.
        reason: &'static str,
    },
    /// A rotation (a pose's quaternion or `(cos, sin)` pair) is zero or off unit length
    /// by more than [`ROTATION_UNIT_ULPS`](crate::math::ROTATION_UNIT_ULPS).
    NotUnit {
        /// The shape or world receiving it.
        shape: &'static str,
        /// The field holding it, e.g. `"pose.rotation"`.
        field: &'static str,
        /// Its length.
        length: f64,
    },
    /// A coordinate, extent, radius or translation is larger in magnitude than
    /// [`Real::MAX_COORD`] of its scalar type (the kernels' products of such values
    /// would overflow).
    TooLarge {
        /// The shape (or world) being built.
        shape: &'static str,
        /// The field holding the value, e.g. `"radius"` or `"vertices"`.
        field: &'static str,
        /// The element's index when the field is a list.
        index: Option<usize>,
        /// The value (its largest component, for a vector).
        value: f64,
        /// The limit, [`Real::MAX_COORD`] of the scalar type.
        limit: f64,
    },
}

impl ShapeError {
    /// The error of a refused rotation in `shape.field`: [`ShapeError::NotFinite`] or
    /// [`ShapeError::NotUnit`].
    pub fn rotation(shape: &'static str, field: &'static str, e: RotationError) -> Self {
        match e {
            RotationError::NotFinite => Self::NotFinite { shape, field },
            RotationError::NotUnit { length } => Self::NotUnit {
                shape,
                field,
                length,
            },
        }
    }
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotFinite { shape, field } => {
                write!(f, "{shape}: `{field}` is NaN or infinite")
            }
            Self::Negative {
                shape,
                field,
                value,
            } => write!(f, "{shape}: `{field}` is {value}, must not be negative"),
            Self::MinAboveMax {
                shape,
                axis,
                min,
                max,
            } => write!(f, "{shape}: min {min} > max {max} on axis {axis}"),
            Self::ZeroVector { shape, field } => write!(f, "{shape}: `{field}` is a zero vector"),
            Self::OutOfRange {
                shape,
                field,
                value,
                range,
            } => write!(f, "{shape}: `{field}` is {value}, must be in {range}"),
            Self::TooFewPoints { shape, needed, got } => write!(
                f,
                "{shape}: needs at least {needed} distinct points, got {got}"
            ),
            Self::NotConvex { shape, vertex } => {
                write!(f, "{shape}: not convex at vertex {vertex}")
            }
            Self::SelfIntersecting {
                shape,
                edge_a,
                edge_b,
                relation,
            } => write!(
                f,
                "{shape}: edge starting at vertex {edge_a} {relation} edge starting at vertex {edge_b}"
            ),
            Self::BadPart {
                shape,
                index,
                reason,
            } => write!(f, "{shape}: part {index}: {reason}"),
            Self::InvalidVertex {
                shape,
                vertex,
                reason,
            } => write!(f, "{shape}: vertex {vertex} {reason}"),
            Self::Degenerate { shape, reason } => write!(f, "{shape}: {reason}"),
            Self::NotFiniteAt {
                shape,
                field,
                index,
            } => write!(f, "{shape}: `{field}[{index}]` is NaN or infinite"),
            Self::IndexOutOfRange {
                shape,
                triangle,
                index,
                vertex_count,
            } => write!(
                f,
                "{shape}: triangle {triangle} uses vertex {index}, but there are {vertex_count} vertices"
            ),
            Self::NotClosed {
                shape,
                triangle,
                edge,
                reason,
            } => write!(
                f,
                "{shape}: not closed at edge {} → {} of triangle {triangle}: {reason}",
                edge[0], edge[1]
            ),
            Self::NotUnit {
                shape,
                field,
                length,
            } => write!(
                f,
                "{shape}: `{field}` has length {length}, must be 1 within {} ulps \
                 (zero and far-off rotations are refused, not normalised)",
                crate::math::ROTATION_UNIT_ULPS
            ),
            Self::TooLarge {
                shape,
                field,
                index,
                value,
                limit,
            } => {
                write!(f, "{shape}: `{field}")?;
                if let Some(i) = index {
                    write!(f, "[{i}]")?;
                }
                write!(
                    f,
                    "` has magnitude {value:e}, beyond the limit {limit:e} of its scalar type \
                     (Real::MAX_COORD)"
                )
            }
        }
    }
}

impl std::error::Error for ShapeError {}

/// `Ok(v)` when `v` is finite, else [`ShapeError::NotFinite`] naming `shape.field`.
#[inline]
pub fn check_finite<V: Vector>(
    shape: &'static str,
    field: &'static str,
    v: V,
) -> Result<V, ShapeError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(ShapeError::NotFinite { shape, field })
    }
}

/// `Ok(s)` when the scalar `s` is finite, else [`ShapeError::NotFinite`].
#[inline]
pub fn check_finite_scalar<R: Real>(
    shape: &'static str,
    field: &'static str,
    s: R,
) -> Result<R, ShapeError> {
    if s.is_finite() {
        Ok(s)
    } else {
        Err(ShapeError::NotFinite { shape, field })
    }
}

/// `Ok(s)` when `s` is finite and not negative.
#[inline]
pub fn check_non_negative<R: Real>(
    shape: &'static str,
    field: &'static str,
    s: R,
) -> Result<R, ShapeError> {
    let s = check_finite_scalar(shape, field, s)?;
    if s < R::ZERO {
        Err(ShapeError::Negative {
            shape,
            field,
            value: s.to_f64(),
        })
    } else {
        Ok(s)
    }
}

/// The [`ShapeError::TooLarge`] of a value of magnitude `value` in `shape.field[index]`.
fn too_large<R: Real>(
    shape: &'static str,
    field: &'static str,
    index: Option<usize>,
    value: R,
) -> ShapeError {
    ShapeError::TooLarge {
        shape,
        field,
        index,
        value: value.to_f64(),
        limit: R::MAX_COORD.to_f64(),
    }
}

/// `Ok(v)` when `v` is finite with every component within [`Real::MAX_COORD`];
/// [`ShapeError::NotFinite`] or [`ShapeError::TooLarge`] naming `shape.field` else.
#[inline]
pub fn check_coord<V: Vector>(
    shape: &'static str,
    field: &'static str,
    v: V,
) -> Result<V, ShapeError> {
    let v = check_finite(shape, field, v)?;
    check_coord_magnitude(shape, field, None, v)
}

/// `Ok(v)` when no component of `v` is finite and beyond [`Real::MAX_COORD`], else
/// [`ShapeError::TooLarge`] naming `shape.field[index]` (non-finite components are left
/// to [`check_finite`]).
#[inline]
pub fn check_coord_magnitude<V: Vector>(
    shape: &'static str,
    field: &'static str,
    index: Option<usize>,
    v: V,
) -> Result<V, ShapeError> {
    let largest = v.abs().max_element();
    match largest > V::Scalar::MAX_COORD && largest.is_finite() {
        true => Err(too_large(shape, field, index, largest)),
        false => Ok(v),
    }
}

/// `Ok` when no finite point of `points` has a component beyond
/// [`Real::MAX_COORD`], else [`ShapeError::TooLarge`] naming `shape.field[index]` of
/// the first one. Non-finite points are left to the caller's own check.
pub fn check_coord_list<V: Vector>(
    shape: &'static str,
    field: &'static str,
    points: &[V],
) -> Result<(), ShapeError> {
    for (i, &p) in points.iter().enumerate() {
        check_coord_magnitude(shape, field, Some(i), p)?;
    }
    Ok(())
}

/// `Ok(s)` when `s` is finite and `|s| ≤` [`Real::MAX_COORD`].
#[inline]
pub fn check_coord_scalar<R: Real>(
    shape: &'static str,
    field: &'static str,
    s: R,
) -> Result<R, ShapeError> {
    let s = check_finite_scalar(shape, field, s)?;
    match s.abs() <= R::MAX_COORD {
        true => Ok(s),
        false => Err(too_large(shape, field, None, s.abs())),
    }
}

/// `Ok(s)` for an extent or radius: finite, not negative and at most
/// [`Real::MAX_COORD`].
#[inline]
pub fn check_extent<R: Real>(
    shape: &'static str,
    field: &'static str,
    s: R,
) -> Result<R, ShapeError> {
    let s = check_non_negative(shape, field, s)?;
    check_coord_scalar(shape, field, s)
}

/// True when [`check_pose`] returns `pose` unchanged: its rotation unit to rounding
/// and its translation finite and within [`Real::MAX_COORD`]. The cheap test that hot
/// entry points run before the full check, which builds an error value.
#[inline]
pub fn pose_passes_as_is<V: Vector, P: Isometry<V>>(pose: &P) -> bool {
    // One comparison per coordinate: false for NaN, and ∞ is beyond the limit.
    let within = pose
        .translation()
        .abs()
        .all_le(V::splat(V::Scalar::MAX_COORD));
    pose.rotation_kept_unit() && within
}

/// The one check of a pose where it enters (the collision world, the free pair
/// queries of [`dispatch`](crate::query::dispatch), compound parts, the `isect`
/// command's scenes): the rotation made unit as
/// [`Isometry::with_unit_rotation`] does (refused as `shape.rotation_field`), and the
/// translation finite and within [`Real::MAX_COORD`] (refused as
/// `shape.translation_field`).
///
/// # Errors
/// [`ShapeError::NotFinite`], [`ShapeError::NotUnit`] or [`ShapeError::TooLarge`].
pub fn check_pose<V: Vector, P: Isometry<V>>(
    shape: &'static str,
    rotation_field: &'static str,
    translation_field: &'static str,
    pose: &P,
) -> Result<P, ShapeError> {
    if pose_passes_as_is(pose) {
        return Ok(*pose);
    }
    check_coord(shape, translation_field, pose.translation())?;
    pose.with_unit_rotation()
        .map_err(|e| ShapeError::rotation(shape, rotation_field, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose2, Pose3};

    /// A translation passes as it is up to `MAX_COORD` in each coordinate, and not
    /// beyond it, at ±∞ or NaN, in any coordinate of either dimension.
    fn check_translation_limits<V: Vector, P: Isometry<V>>(pose: P) {
        let max = V::Scalar::MAX_COORD;
        let beyond = max + max * crate::math::tolerance::eps::<V::Scalar>(2.0);
        assert!(pose_passes_as_is(&pose));
        for axis in 0..V::DIM {
            for (value, passes) in [
                (max, true),
                (-max, true),
                (beyond, false),
                (-beyond, false),
                (V::Scalar::INFINITY, false),
                (V::Scalar::NEG_INFINITY, false),
                (V::Scalar::from_f64(f64::NAN), false),
            ] {
                let moved = pose.with_translation(pose.translation().with(axis, value));
                assert_eq!(pose_passes_as_is(&moved), passes, "axis {axis}: {value:?}");
            }
        }
    }

    #[test]
    fn translations_pass_up_to_the_coordinate_limit() {
        check_translation_limits(Pose3::<f64>::IDENTITY);
        check_translation_limits(Pose3::<f32>::IDENTITY);
        check_translation_limits(Pose2::<f64>::new(glam::DVec2::new(1.0, 2.0), 0.5));
        check_translation_limits(Pose2::<f32>::new(glam::Vec2::new(1.0, 2.0), 0.5));
    }
}
