//! Support mappings: the farthest point of a convex shape in a direction, the one
//! primitive GJK, EPA and shape casts need (seed 001; Ericson 9.4.2).

use crate::math::{Real, Vector};
use crate::shape::{Aabb, Ball, Segment, Triangle};

/// A convex shape described by its support function.
pub trait SupportMap<V: Vector> {
    /// A point of the shape, in its local frame, that maximises `p · dir`.
    ///
    /// `dir` need not be unit. For a zero or NaN `dir` any point of the shape is a
    /// valid answer; implementations must still return a finite point of the shape.
    fn local_support(&self, dir: V) -> V;

    /// The radius of the ball this shape's core is grown by: `0` for sharp shapes,
    /// the radius for balls, capsules and [`Rounded`](crate::shape::Rounded) shapes.
    /// GJK and EPA run on the core and add the margin afterwards, which is exact
    /// for a Minkowski sum with a ball and spares them the curved surface.
    #[inline]
    fn margin(&self) -> V::Scalar {
        V::Scalar::ZERO
    }

    /// The support point of the core: the shape shrunk by [`SupportMap::margin`]
    /// (the centre of a ball, the segment of a capsule). Defaults to
    /// [`SupportMap::local_support`] for shapes with no margin.
    #[inline]
    fn local_core_support(&self, dir: V) -> V {
        self.local_support(dir)
    }

    /// The support point in world space for a shape placed at `pose`.
    #[inline]
    fn support(&self, pose: &V::Pose, dir: V) -> V {
        use crate::math::Isometry;
        pose.transform_point(self.local_support(pose.inverse_transform_vector(dir)))
    }
}

/// The vertex of a finite point set farthest along `dir` (first of ties).
///
/// Scans four interleaved lanes so that the comparisons of consecutive points do
/// not wait on each other, then merges the lanes (lowest index on ties).
///
/// # Panics
/// When `points` is empty; every shape that calls it holds at least one vertex.
#[inline]
pub fn support_of_points<V: Vector>(points: &[V], dir: V) -> V {
    let mut best = [0usize; 4];
    let mut best_dot = [V::Scalar::NEG_INFINITY; 4];
    let chunks = points.chunks_exact(4);
    let tail = chunks.remainder();
    for (c, chunk) in chunks.enumerate() {
        for lane in 0..4 {
            let d = chunk[lane].dot(dir);
            if d > best_dot[lane] {
                best_dot[lane] = d;
                best[lane] = 4 * c + lane;
            }
        }
    }
    let base = points.len() - tail.len();
    for (k, p) in tail.iter().enumerate() {
        let d = p.dot(dir);
        if d > best_dot[k] {
            best_dot[k] = d;
            best[k] = base + k;
        }
    }
    // NaN products never win a comparison: fall back to the first point.
    let mut winner = (points.len(), V::Scalar::NEG_INFINITY);
    for lane in 0..4 {
        let better =
            best_dot[lane] > winner.1 || (best_dot[lane] == winner.1 && best[lane] < winner.0);
        if best_dot[lane] > V::Scalar::NEG_INFINITY && better {
            winner = (best[lane], best_dot[lane]);
        }
    }
    points[if winner.0 < points.len() { winner.0 } else { 0 }]
}

impl<V: Vector> SupportMap<V> for Ball<V> {
    #[inline]
    fn local_support(&self, dir: V) -> V {
        match dir.try_normalize() {
            Some(unit) => self.center() + unit * self.radius(),
            None => self.center(),
        }
    }
    #[inline]
    fn margin(&self) -> V::Scalar {
        self.radius()
    }
    #[inline]
    fn local_core_support(&self, _dir: V) -> V {
        self.center()
    }
}

impl<V: Vector> SupportMap<V> for Aabb<V> {
    #[inline]
    fn local_support(&self, dir: V) -> V {
        (0..V::DIM).fold(self.min, |p, i| {
            if dir.get(i) > V::Scalar::ZERO {
                p.with(i, self.max.get(i))
            } else {
                p
            }
        })
    }
}

impl<V: Vector> SupportMap<V> for Segment<V> {
    #[inline]
    fn local_support(&self, dir: V) -> V {
        if self.b.dot(dir) > self.a.dot(dir) {
            self.b
        } else {
            self.a
        }
    }
}

impl<V: Vector> SupportMap<V> for Triangle<V> {
    #[inline]
    fn local_support(&self, dir: V) -> V {
        support_of_points(&self.vertices(), dir)
    }
}

/// A convex shape given by a point cloud: the convex hull of its points, without
/// computing the hull (the support function scans every point). Useful for
/// benchmarks and tests of GJK on arbitrary polytopes.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexPoints<V: Vector> {
    points: Vec<V>,
}

impl<V: Vector> ConvexPoints<V> {
    /// The convex hull of `points` (not computed; duplicates and interior points
    /// are allowed).
    ///
    /// # Errors
    /// [`ShapeError::TooFewPoints`](crate::ShapeError::TooFewPoints) for an empty
    /// list, [`ShapeError::NotFinite`](crate::ShapeError::NotFinite) for a
    /// non-finite point.
    pub fn new(points: Vec<V>) -> Result<Self, crate::ShapeError> {
        if points.is_empty() {
            return Err(crate::ShapeError::TooFewPoints {
                shape: "ConvexPoints",
                needed: 1,
                got: 0,
            });
        }
        for &p in &points {
            crate::shape::error::check_finite("ConvexPoints", "points", p)?;
        }
        Ok(Self { points })
    }

    /// The points.
    #[inline]
    pub fn points(&self) -> &[V] {
        &self.points
    }
}

impl<V: Vector> SupportMap<V> for ConvexPoints<V> {
    #[inline]
    fn local_support(&self, dir: V) -> V {
        support_of_points(&self.points, dir)
    }
}
