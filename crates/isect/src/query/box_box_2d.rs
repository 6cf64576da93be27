//! Box–box distance and closest points in 2D, in closed form: no iteration.
//!
//! Two boxes that no face axis separates overlap (the separating axis theorem: for two
//! rectangles the four face normals are every candidate axis; Ericson, *Real-Time
//! Collision Detection*, 4.4.1). Two that one separates are disjoint convex polygons,
//! whose nearest pair of points includes a corner of one of them (a vertex–edge,
//! vertex–vertex or, for parallel edges, again a vertex–edge pair); so the distance is
//! the least of the eight corner-to-other-box distances, each a clamp of the corner
//! in the other box's frame (Ericson 5.1.3). The face-axis test reads the same eight
//! corners, so the whole query is eight frame changes, min/max comparisons and clamps.
//!
//! Tolerances: none beyond rounding. A corner's frame change rounds to a few `ε` of
//! the boxes' coordinates, so a gap of that size may come out as touching and the
//! reverse; the distance is within a few `ε` of the largest coordinate. Boxes whose
//! largest coordinate lies outside `[MIN_SIZE, MAX_SIZE]` of [`box_box`](super::box_box)
//! get `None` (squared distances there would underflow or lose precision in `f32`),
//! for GJK, which rescales; so does a non-finite pose.

use crate::math::{Isometry, Pose2, Real, Vector};
use crate::query::box_box::{MAX_SIZE, MIN_SIZE};
use crate::shape::Aabb;

/// The distance between box `a` at `pose_a` and box `b` at `pose_b` (each a box of
/// its own frame): 0 when no face axis separates them; `None` for a non-finite pose or
/// a largest coordinate outside `[MIN_SIZE, MAX_SIZE]` (module docs). The rotations
/// are unit.
///
/// ```
/// use isect::d2::*;
/// use isect::query::box_box_2d::distance;
///
/// # fn main() -> Result<(), ShapeError> {
/// let square = Aabb::new(Vec2::splat(-1.0), Vec2::splat(1.0))?;
/// // Turned 45° and moved right: its left corner lies 0.5 from the right face.
/// let right = Pose::new(Vec2::new(1.5 + std::f32::consts::SQRT_2, 0.3), std::f32::consts::FRAC_PI_4);
/// let d = distance(&Pose::IDENTITY, &square, &right, &square).expect("finite, in range");
/// assert!((d - 0.5).abs() < 1e-5);
/// // Crossing bars overlap though no corner of either lies in the other.
/// let bar = Aabb::new(Vec2::new(-3.0, -0.5), Vec2::new(3.0, 0.5))?;
/// let cross = Pose::new(Vec2::ZERO, std::f32::consts::FRAC_PI_2);
/// assert_eq!(distance(&Pose::IDENTITY, &bar, &cross, &bar), Some(0.0));
/// # Ok(())
/// # }
/// ```
pub fn distance<R: Real>(
    pose_a: &Pose2<R>,
    a: &Aabb<R::V2>,
    pose_b: &Pose2<R>,
    b: &Aabb<R::V2>,
) -> Option<R> {
    Some(match nearest_corner(pose_a, a, pose_b, b)? {
        Nearest::Overlap => R::ZERO,
        Nearest::Apart { d2, .. } => d2.sqrt(),
    })
}

/// [`distance`] with a closest point of each box (world space): `(distance, point_a,
/// point_b)`, a corner of one box and the nearest point of the other. `None` where
/// [`distance`] is, and for overlapping boxes (they share no single point this finds;
/// the caller's general method answers them).
///
/// ```
/// use isect::d2::*;
/// use isect::query::box_box_2d::closest_points;
///
/// # fn main() -> Result<(), ShapeError> {
/// let square = Aabb::new(Vec2::splat(-1.0), Vec2::splat(1.0))?;
/// let above = Pose::from_translation(Vec2::new(0.5, 3.0));
/// let (d, on_a, on_b) = closest_points(&Pose::IDENTITY, &square, &above, &square).expect("apart");
/// assert!((d - 1.0).abs() < 1e-6);
/// assert!((on_a.y - 1.0).abs() < 1e-6 && (on_b.y - 2.0).abs() < 1e-6);
/// # Ok(())
/// # }
/// ```
pub fn closest_points<R: Real>(
    pose_a: &Pose2<R>,
    a: &Aabb<R::V2>,
    pose_b: &Pose2<R>,
    b: &Aabb<R::V2>,
) -> Option<(R, R::V2, R::V2)> {
    match nearest_corner(pose_a, a, pose_b, b)? {
        Nearest::Overlap => None,
        Nearest::Apart { d2, on_a, on_b } => Some((d2.sqrt(), on_a, on_b)),
    }
}

/// The answer of [`nearest_corner`].
enum Nearest<V: Vector> {
    /// No face axis separates the boxes.
    Overlap,
    /// The least squared corner-to-box distance and its pair of points (world space).
    Apart { d2: V::Scalar, on_a: V, on_b: V },
}

/// The face-axis test and the nearest corner (module docs); `None` for a non-finite
/// pose or a size out of range.
fn nearest_corner<R: Real>(
    pose_a: &Pose2<R>,
    a: &Aabb<R::V2>,
    pose_b: &Pose2<R>,
    b: &Aabb<R::V2>,
) -> Option<Nearest<R::V2>> {
    if !(pose_a.is_finite() && pose_b.is_finite()) {
        return None;
    }
    let (b_in_a, a_in_b) = (pose_a.inv_mul(pose_b), pose_b.inv_mul(pose_a));
    let size = [a.min, a.max, b.min, b.max, b_in_a.translation]
        .iter()
        .fold(R::ZERO, |m, v| m.max(v.abs().max_element()));
    if !(size >= R::from_f64(MIN_SIZE) && size <= R::from_f64(MAX_SIZE)) {
        return None;
    }
    // B's corners in A's frame, A's in B's.
    let corners_b = corners(b).map(|c| b_in_a.transform_point(c));
    let corners_a = corners(a).map(|c| a_in_b.transform_point(c));
    if !(separates(&corners_b, a) || separates(&corners_a, b)) {
        return Some(Nearest::Overlap);
    }
    let (d2_b, corner_b, near_a) = nearest_to_box(&corners_b, a);
    let (d2_a, corner_a, near_b) = nearest_to_box(&corners_a, b);
    Some(if d2_b <= d2_a {
        Nearest::Apart {
            d2: d2_b,
            on_a: pose_a.transform_point(near_a),
            on_b: pose_a.transform_point(corner_b),
        }
    } else {
        Nearest::Apart {
            d2: d2_a,
            on_a: pose_b.transform_point(corner_a),
            on_b: pose_b.transform_point(near_b),
        }
    })
}

/// The four corners of a box, in its frame ([`Aabb::corners`]).
fn corners<V: Vector>(x: &Aabb<V>) -> [V; 4] {
    let mut all = x.corners();
    std::array::from_fn(|_| all.next().unwrap_or(x.min))
}

/// True when one of `x`'s face axes puts every corner of the other box (in `x`'s
/// frame) strictly beyond one of its faces.
fn separates<V: Vector>(others: &[V; 4], x: &Aabb<V>) -> bool {
    let (lo, hi) = others.iter().fold((others[0], others[0]), |(lo, hi), &c| {
        (lo.min(c), hi.max(c))
    });
    (0..2).any(|k| lo.get(k) > x.max.get(k) || hi.get(k) < x.min.get(k))
}

/// The corner of `others` nearest box `x` (all in `x`'s frame): its squared distance,
/// the corner and the box's point nearest it.
fn nearest_to_box<V: Vector>(others: &[V; 4], x: &Aabb<V>) -> (V::Scalar, V, V) {
    let mut best = (V::Scalar::INFINITY, others[0], others[0]);
    for &c in others {
        let near = c.max(x.min).min(x.max);
        let d2 = c.distance_squared(near);
        if d2 < best.0 {
            best = (d2, c, near);
        }
    }
    best
}
