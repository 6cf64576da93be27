//! Circular sector ("fan") in 2D, seed 003.

use super::error::{check_coord, check_extent, check_finite_scalar, ShapeError};
use crate::math::{Real, Vector2};

/// A solid circular sector: the points `P` with `|P − center| ≤ radius` whose
/// direction from the centre lies in the counter-clockwise arc from `start_angle`
/// to `start_angle + span`.
///
/// `span = 0` is the segment from the centre along the start direction;
/// `span = 2π` is the full disc. The boundary (arc, both edges, the centre) belongs
/// to the sector. The point queries live in [`crate::query::sector_tests`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sector<R: Real> {
    center: R::V2,
    radius: R,
    start_angle: R,
    span: R,
    /// Unit direction of the start edge.
    start_dir: R::V2,
    /// Unit direction of the end edge (equal to `start_dir` for `span` 0 and 2π).
    end_dir: R::V2,
}

impl<R: Real> Sector<R> {
    /// The sector of `radius` around `center`, from `start_angle` counter-clockwise
    /// over `span` radians.
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] for NaN or infinite input, [`ShapeError::Negative`]
    /// for a negative radius, [`ShapeError::OutOfRange`] for a span outside `[0, 2π]`,
    /// [`ShapeError::TooLarge`] for a centre coordinate or radius beyond [`Real::MAX_COORD`].
    pub fn new(center: R::V2, radius: R, start_angle: R, span: R) -> Result<Self, ShapeError> {
        check_coord("Sector", "center", center)?;
        check_extent("Sector", "radius", radius)?;
        check_finite_scalar("Sector", "start_angle", start_angle)?;
        check_finite_scalar("Sector", "span", span)?;
        if !(R::ZERO..=R::TAU).contains(&span) {
            return Err(ShapeError::OutOfRange {
                shape: "Sector",
                field: "span",
                value: span.to_f64(),
                range: "[0, 2π]",
            });
        }
        let start_dir = R::V2::new(start_angle.cos(), start_angle.sin());
        // Exact end direction at both ends of the range, so 0 is a segment and 2π a disc.
        let end_dir = if span == R::ZERO || span == R::TAU {
            start_dir
        } else {
            let end = start_angle + span;
            R::V2::new(end.cos(), end.sin())
        };
        Ok(Self {
            center,
            radius,
            start_angle,
            span,
            start_dir,
            end_dir,
        })
    }

    /// Centre (apex).
    #[inline]
    pub fn center(&self) -> R::V2 {
        self.center
    }

    /// Radius (≥ 0).
    #[inline]
    pub fn radius(&self) -> R {
        self.radius
    }

    /// Angle of the start edge, as given.
    #[inline]
    pub fn start_angle(&self) -> R {
        self.start_angle
    }

    /// Angular span in `[0, 2π]`.
    #[inline]
    pub fn span(&self) -> R {
        self.span
    }

    /// Unit direction of the start edge.
    #[inline]
    pub fn start_dir(&self) -> R::V2 {
        self.start_dir
    }

    /// Unit direction of the end edge.
    #[inline]
    pub fn end_dir(&self) -> R::V2 {
        self.end_dir
    }

    /// True when the sector is not convex (span above π). Decided from the stored edge
    /// directions, so that a span of `R::PI` (which rounds above or below π) is
    /// classified as its end direction actually lies; exactly opposite edges count as
    /// convex, and a span of 2π as reflex.
    #[inline]
    pub fn is_reflex(&self) -> bool {
        let turn = self.start_dir.perp_dot(self.end_dir);
        turn < R::ZERO || (turn == R::ZERO && self.span > R::PI)
    }

    /// Point in sector (seed 003, method 1 with cross products); see
    /// [`crate::query::sector_tests::point_in_sector_cross`]. Boundary inside, NaN outside.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A guard's view: 10 ahead along +x, 45° to each side.
    /// let pi = std::f32::consts::PI;
    /// let view = Sector::new(Vec2::ZERO, 10.0, -pi / 4.0, pi / 2.0)?;
    /// assert!(view.contains_point(Vec2::new(6.0, 5.0)));
    /// assert!(!view.contains_point(Vec2::new(5.0, 6.0))); // more than 45° off
    /// assert!(!view.contains_point(Vec2::new(-1.0, 0.0))); // behind
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    pub fn contains_point(&self, p: R::V2) -> bool {
        crate::query::sector_tests::point_in_sector_cross(self, p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, Vec2};

    // Span outside [0, 2π], negative radius and NaN are refused by name.
    #[test]
    fn rejects_bad_input() {
        let err = Sector::<f32>::new(Vec2::ZERO, 1.0, 0.0, 7.0).unwrap_err();
        assert!(matches!(err, ShapeError::OutOfRange { field: "span", .. }));
        assert!(Sector::<f32>::new(Vec2::ZERO, 1.0, 0.0, -0.1).is_err());
        assert!(Sector::<f64>::new(DVec2::ZERO, -1.0, 0.0, 1.0).is_err());
        assert!(Sector::<f64>::new(DVec2::ZERO, 1.0, f64::NAN, 1.0).is_err());
        assert!(Sector::<f64>::new(DVec2::ZERO, 1.0, 0.0, f64::NAN).is_err());
    }

    // Both ends of the span range are accepted; their edges coincide exactly.
    #[test]
    fn span_ends_have_equal_edges() {
        for span in [0.0, core::f64::consts::TAU] {
            let s = Sector::<f64>::new(DVec2::ONE, 2.0, 0.7, span).unwrap();
            assert_eq!(s.start_dir(), s.end_dir());
        }
        // f32's π rounds above π, f64's below: the end edge decides convexity.
        let half = Sector::<f32>::new(Vec2::ZERO, 1.0, 0.0, core::f32::consts::PI).unwrap();
        assert!(half.is_reflex() && half.end_dir().y < 0.0);
        assert!((half.end_dir() + Vec2::X).length() < 1e-6);
        let half = Sector::<f64>::new(DVec2::ZERO, 1.0, 0.0, core::f64::consts::PI).unwrap();
        assert!(!half.is_reflex() && half.end_dir().y > 0.0);
    }
}
