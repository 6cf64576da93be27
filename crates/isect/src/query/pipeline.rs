//! The coarse-then-fine pipeline of seed 001: many posed convex polygons, all colliding
//! pairs. Coarse: sort-and-sweep on the x intervals of the world AABBs, then the full
//! AABB test (Ericson, *Real-Time Collision Detection*, 7.5.2). Fine: the
//! separating-axis test ([`crate::algo::sat_2d::polygon_polygon_mtv`]) only on the survivors.
//!
//! No tolerance of its own: boxes and polygons are closed, so touching pairs (depth 0)
//! are reported, consistently in both phases.

use crate::algo::sat_2d::{polygon_polygon_mtv, Mtv};
use crate::math::{Isometry, Pose2, Real, Vector2 as _};
use crate::shape::{Aabb, ConvexPolygon};

/// Two colliding shapes: indices into the input with `i < j`, and their minimum
/// translation vector (axis from shape `i` to shape `j`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct CollidingPair<R: Real> {
    /// Index of the first shape.
    pub i: usize,
    /// Index of the second shape, `> i`.
    pub j: usize,
    /// Moving shape `j` by `mtv.depth` along `mtv.axis` makes the pair touch.
    pub mtv: Mtv<R::V2>,
}

/// Every colliding (touching or overlapping) pair among `shapes`, sorted by `(i, j)`.
///
/// Shapes with a non-finite pose never collide. Cost: `O(n log n)` for the sort plus
/// the pairs whose x intervals overlap.
///
/// ```
/// use isect::d2::*;
/// use isect::query::pipeline::colliding_pairs;
///
/// # fn main() -> Result<(), ShapeError> {
/// // Three unit squares along x at 0, 0.5 and 3: only the first two overlap.
/// let square = ConvexPolygon::new(&[Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y])?;
/// let shapes: Vec<(Pose, &ConvexPolygon)> = [0.0, 0.5, 3.0]
///     .iter()
///     .map(|&x| (Pose::from_translation(Vec2::new(x, 0.0)), &square))
///     .collect();
/// let pairs = colliding_pairs(&shapes);
/// assert_eq!(pairs.len(), 1);
/// assert_eq!((pairs[0].i, pairs[0].j), (0, 1));
/// assert!((pairs[0].mtv.depth - 0.5).abs() < 1e-6);
/// # Ok(())
/// # }
/// ```
pub fn colliding_pairs<R: Real>(shapes: &[(Pose2<R>, &ConvexPolygon<R>)]) -> Vec<CollidingPair<R>> {
    let boxes: Vec<Aabb<R::V2>> = shapes.iter().map(|(pose, poly)| poly.aabb(pose)).collect();
    let mut order: Vec<usize> = (0..shapes.len())
        .filter(|&k| shapes[k].0.is_finite())
        .collect();
    // Finite poses give finite boxes, so `partial_cmp` is total here; ties keep index order.
    order.sort_by(|&p, &q| {
        boxes[p]
            .min
            .x()
            .partial_cmp(&boxes[q].min.x())
            .unwrap_or(core::cmp::Ordering::Equal)
    });
    let mut pairs = Vec::new();
    let mut active: Vec<usize> = Vec::new();
    for &k in &order {
        let lo = boxes[k].min.x();
        active.retain(|&m| boxes[m].max.x() >= lo);
        for &m in &active {
            if boxes[m].intersects(&boxes[k]) {
                pairs.extend(fine_test(shapes, m.min(k), m.max(k)));
            }
        }
        active.push(k);
    }
    pairs.sort_by_key(|p| (p.i, p.j));
    pairs
}

/// The same answer by testing every pair with SAT alone: the reference for tests.
///
/// ```
/// use isect::d2::*;
/// use isect::query::pipeline::{colliding_pairs, colliding_pairs_brute_force};
///
/// # fn main() -> Result<(), ShapeError> {
/// let square = ConvexPolygon::new(&[Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y])?;
/// let shapes: Vec<(Pose, &ConvexPolygon)> = (0..6)
///     .map(|k| (Pose::from_translation(Vec2::new(0.7 * k as f32, 0.0)), &square))
///     .collect();
/// let brute = colliding_pairs_brute_force(&shapes);
/// assert_eq!(brute.len(), 5); // each square overlaps the next
/// assert_eq!(brute, colliding_pairs(&shapes));
/// # Ok(())
/// # }
/// ```
pub fn colliding_pairs_brute_force<R: Real>(
    shapes: &[(Pose2<R>, &ConvexPolygon<R>)],
) -> Vec<CollidingPair<R>> {
    let n = shapes.len();
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .filter_map(|(i, j)| fine_test(shapes, i, j))
        .collect()
}

/// SAT on one pair `(i, j)`.
#[inline]
fn fine_test<R: Real>(
    shapes: &[(Pose2<R>, &ConvexPolygon<R>)],
    i: usize,
    j: usize,
) -> Option<CollidingPair<R>> {
    let (pose_a, a) = &shapes[i];
    let (pose_b, b) = &shapes[j];
    polygon_polygon_mtv(pose_a, a, pose_b, b).map(|mtv| CollidingPair { i, j, mtv })
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, Vec2};

    fn square<R: Real>() -> ConvexPolygon<R> {
        let pts = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .map(|(x, y)| <R::V2 as crate::math::Vector2>::new(R::from_f64(x), R::from_f64(y)));
        ConvexPolygon::new(&pts).unwrap()
    }

    // A row of unit squares 2 apart touch their neighbours only; a NaN pose collides with nothing.
    #[test]
    fn touching_row_and_nan_pose() {
        let s = square::<f32>();
        let mut shapes: Vec<(Pose2<f32>, &ConvexPolygon<f32>)> = (0..5)
            .map(|k| (Pose2::new(Vec2::new(2.0 * k as f32, 0.0), 0.0), &s))
            .collect();
        shapes.push((Pose2::new(Vec2::NAN, 0.0), &s));
        let pairs = colliding_pairs(&shapes);
        let ids: Vec<(usize, usize)> = pairs.iter().map(|p| (p.i, p.j)).collect();
        assert_eq!(ids, vec![(0, 1), (1, 2), (2, 3), (3, 4)]);
        assert!(pairs
            .iter()
            .all(|p| p.mtv.depth == 0.0 && p.mtv.axis == Vec2::X));
        assert_eq!(pairs, colliding_pairs_brute_force(&shapes[..5]));
    }

    // Shapes whose x intervals overlap but y intervals do not are culled by the full AABB test.
    #[test]
    fn column_has_no_pairs() {
        let s = square::<f64>();
        let shapes: Vec<(Pose2<f64>, &ConvexPolygon<f64>)> = (0..4)
            .map(|k| (Pose2::new(DVec2::new(0.0, 2.5 * k as f64), 0.3), &s))
            .collect();
        assert!(colliding_pairs(&shapes).is_empty());
        assert!(colliding_pairs::<f64>(&[]).is_empty());
    }
}
