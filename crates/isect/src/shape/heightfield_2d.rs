//! [`HeightField`] in 2D: heights sampled at evenly spaced `x`, joined by segments,
//! under a [`Bvh`]. The segments are the chain core of [`Polyline`](super::Polyline)
//! (its references and tolerances apply: [`FLAT_VERTEX_ULPS`](super::polyline::FLAT_VERTEX_ULPS),
//! [`ON_SEGMENT_ULPS`](super::polyline::ON_SEGMENT_ULPS)); the layout of the samples is
//! parry's `HeightField` in 2D (samples across `x ∈ [−scale.x / 2, scale.x / 2]`).

use super::polyline::{check_vertices_finite, segment_set_shape, SegmentSet};
use crate::algo::gjk::GjkVector;
use crate::broad::Bvh;
use crate::math::{Isometry, Pose2, Real, Vector, Vector2};
use crate::query::project_point::{PointProjection, ProjectPoint};
use crate::query::RayCast;
use crate::shape::composite::Composite;
use crate::shape::error::{check_coord, ShapeError};
use crate::shape::shape_2d::Shape;
use crate::shape::{Aabb, Ray, RayHit, Segment};

/// A 2D height field: sample `i` of `n` is the point
/// `((i / (n − 1) − ½) · scale.x, heights[i] · scale.y)`, and segment `i` joins samples
/// `i` and `i + 1`. A two-sided surface with no interior, like a [`Polyline`](super::Polyline) chain.
#[derive(Clone, Debug)]
pub struct HeightField<R: Real> {
    heights: Vec<R>,
    scale: R::V2,
    set: SegmentSet<R>,
}

impl<R: Real> HeightField<R> {
    /// The height field of `heights` stretched by `scale`.
    ///
    /// # Errors
    /// - [`ShapeError::TooFewPoints`]: fewer than 2 heights;
    /// - [`ShapeError::InvalidVertex`]: the index of the first non-finite height;
    /// - [`ShapeError::NotFinite`]: a non-finite `scale`;
    /// - [`ShapeError::TooLarge`]: a component of `scale`, or a scaled height
    ///   (`vertices[i]`), beyond [`Real::MAX_COORD`];
    /// - [`ShapeError::OutOfRange`]: `scale.x ≤ 0` (`scale.y` may be zero or negative,
    ///   which flattens or mirrors the field).
    pub fn new(heights: Vec<R>, scale: R::V2) -> Result<Self, ShapeError> {
        if heights.len() < 2 {
            return Err(ShapeError::TooFewPoints {
                shape: "HeightField",
                needed: 2,
                got: heights.len(),
            });
        }
        check_coord("HeightField", "scale", scale)?;
        if scale.x() <= R::ZERO {
            return Err(ShapeError::OutOfRange {
                shape: "HeightField",
                field: "scale.x",
                value: scale.x().to_f64(),
                range: "(0, ∞)",
            });
        }
        let last = R::from_f64((heights.len() - 1) as f64);
        let vertices: Vec<R::V2> = heights
            .iter()
            .enumerate()
            .map(|(i, &h)| {
                let x = (R::from_f64(i as f64) / last - R::HALF) * scale.x();
                R::V2::new(x, h * scale.y())
            })
            .collect();
        check_vertices_finite("HeightField", &vertices)?;
        let segments = (0..heights.len() as u32 - 1).map(|i| [i, i + 1]).collect();
        Ok(Self {
            set: SegmentSet::new(vertices, segments),
            heights,
            scale,
        })
    }

    /// The heights, unscaled.
    #[inline]
    pub fn heights(&self) -> &[R] {
        &self.heights
    }

    /// The scale along `x` (total width) and `y` (factor of every height).
    #[inline]
    pub fn scale(&self) -> R::V2 {
        self.scale
    }

    /// The sample points (scaled).
    #[inline]
    pub fn vertices(&self) -> &[R::V2] {
        self.set.vertices()
    }

    /// Segment `i` (samples `i` and `i + 1`), or `None` when out of range.
    pub fn segment(&self, i: u32) -> Option<Segment<R::V2>> {
        ((i as usize) < self.set.segments().len()).then(|| self.set.segment(i))
    }

    /// The surface height (scaled) above `x`, interpolated linearly; `None` outside
    /// `[−scale.x / 2, scale.x / 2]` or for NaN.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // Heights 0, 1, 0 over x ∈ [-2, 2] (samples at -2, 0, 2), scaled 3 in y: a hill.
    /// let hill = HeightField::new(vec![0.0, 1.0, 0.0], Vec2::new(4.0, 3.0))?;
    /// assert_eq!(hill.height_at(0.0), Some(3.0));
    /// assert_eq!(hill.height_at(1.0), Some(1.5)); // halfway down
    /// assert_eq!(hill.height_at(2.5), None); // beyond the field
    /// # Ok(())
    /// # }
    /// ```
    pub fn height_at(&self, x: R) -> Option<R> {
        let half = self.scale.x() * R::HALF;
        if !(x >= -half && x <= half) {
            return None;
        }
        let cells = self.heights.len() - 1;
        let u = (x + half) / self.scale.x() * R::from_f64(cells as f64);
        let i = (u.to_f64().floor() as usize).min(cells - 1);
        let s = self.set.segment(i as u32);
        let f = (u - R::from_f64(i as f64)).clamp_to(R::ZERO, R::ONE);
        Some(s.a.y() + (s.b.y() - s.a.y()) * f)
    }

    /// The bounding box of the field in its local frame.
    pub fn local_aabb(&self) -> Aabb<R::V2> {
        self.set.local_aabb().unwrap_or(Aabb {
            min: R::V2::ZERO,
            max: R::V2::ZERO,
        })
    }

    /// Every point where the ray meets the surface with `t ∈ [0, max_t]` and the
    /// segment index, ordered by `t` then index (a ray through a sample reports it once
    /// per segment). Non-finite rays and NaN or negative `max_t` give no hit.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A ray at height 1.5 through a hill 3 high crosses both slopes, at x = -1 and x = 1.
    /// let hill = HeightField::new(vec![0.0, 1.0, 0.0], Vec2::new(4.0, 3.0))?;
    /// let hits = hill.cast_ray_all(&Ray::new(Vec2::new(-3.0, 1.5), Vec2::X)?, 10.0);
    /// let at: Vec<(u32, f32)> = hits.iter().map(|(i, h)| (*i, h.t)).collect();
    /// assert_eq!(at, [(0, 2.0), (1, 4.0)]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_ray_all(&self, ray: &Ray<R::V2>, max_t: R) -> Vec<(u32, RayHit<R::V2>)> {
        self.set.cast_ray_all(ray, max_t)
    }
}

segment_set_shape!(
    HeightField,
    cast: "The nearest hit on either side of the surface, with the segment's normal facing \
        the ray (see [`Segment`]'s cast for rays along a segment). Non-finite rays and NaN \
        or negative `max_t` miss.",
    project: "The nearest point of the surface (`solid` does not matter: no interior); \
        `is_inside` only for a point on the surface. A non-finite `p` gives \
        [`PointProjection::nan`].",
    correct: "The two-sided internal-vertex correction of [`Polyline`](super::Polyline)'s \
        `correct_normal`: a normal leaning over a flat or concave sample becomes the \
        segment's normal; at a convex sample it stays within the cone of the two \
        segments' normals; the two end samples are free.",
    correct_at: "The point-aware correction of [`Polyline`](super::Polyline)'s \
        `correct_normal_at`: a witness `point` inside a segment gives the segment's \
        normal (a shape sliding over flat ground made of many samples gets the ground's \
        normal everywhere); at an interior sample the normal is kept inside a convex \
        sample's cone (clamped to the nearer bound outside it), becomes the segment's \
        normal at a flat sample and the nearer of the two segments' normals at a \
        concave one; the two end samples are free (any normal is kept). A non-finite \
        `point` falls back to `correct_normal`; `i` past the end keeps the normal."
);
