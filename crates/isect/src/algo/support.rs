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

    /// The support point in world space for a shape placed at `pose`.
    #[inline]
    fn support(&self, pose: &V::Pose, dir: V) -> V {
        use crate::math::Isometry;
        pose.transform_point(self.local_support(pose.inverse_transform_vector(dir)))
    }
}

/// The vertex of a finite point set farthest along `dir` (first of ties).
///
/// # Panics
/// When `points` is empty; every shape that calls it holds at least one vertex.
#[inline]
pub fn support_of_points<V: Vector>(points: &[V], dir: V) -> V {
    let mut best = points[0];
    let mut best_dot = best.dot(dir);
    for &p in &points[1..] {
        let d = p.dot(dir);
        if d > best_dot {
            best = p;
            best_dot = d;
        }
    }
    best
}

impl<V: Vector> SupportMap<V> for Ball<V> {
    #[inline]
    fn local_support(&self, dir: V) -> V {
        match dir.try_normalize() {
            Some(unit) => self.center() + unit * self.radius(),
            None => self.center(),
        }
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
