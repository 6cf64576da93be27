//! The plane solver of the character controller: the motion closest to a target that
//! moves into none of the contact planes met so far. Anchor: Box2D v3's
//! `b2SolvePlanes` and `b2ClipVector` (E. Catto, `mover.c`): a Gauss–Seidel pass over
//! the planes with an accumulated, clamped push per plane. Written for the
//! homogeneous constraints of a slide (`n_i · d ≥ 0`), in any dimension.

use crate::math::{Real, Vector};

/// The cap of Gauss–Seidel sweeps of [`solve_planes`]. Two or three planes (a floor
/// and a wall, a crease, a corner) converge in a few sweeps; the cap bounds the work
/// when planes nearly coincide or oppose each other.
pub const PLANE_SOLVER_ITERATIONS: usize = 20;

/// The stop test of [`solve_planes`], in machine epsilons of the target's length: a
/// sweep that changes no push by more stops the solver.
pub const PLANE_SOLVER_ULPS: f64 = 16.0;

/// The motion closest to `target` (least squares) that moves into none of the
/// `planes` (unit normals `n` facing the mover: `n · d ≥ 0` for the answer `d`, up to
/// the solver's rounding). One plane: `target` less its component into the plane (a
/// slide). Two planes meeting at a crease: the motion along the crease. Planes that
/// box the mover in: zero. Solved by Gauss–Seidel on the planes' pushes (Box2D v3's
/// `b2SolvePlanes`), at most [`PLANE_SOLVER_ITERATIONS`] sweeps. Non-unit or
/// non-finite normals are the caller's error: the answer is then not specified but
/// finite when `target` and the normals are finite.
///
/// ```
/// use glam::Vec3;
/// use isect::character::solve_planes;
///
/// // Walking into the corner of a floor (+y) and a wall (−x): only the motion along
/// // the crease (z) is left.
/// let d = solve_planes(Vec3::new(1.0, -1.0, 1.0), &[Vec3::Y, -Vec3::X]);
/// assert!((d - Vec3::Z).length() < 1e-6);
/// ```
pub fn solve_planes<V: Vector>(target: V, planes: &[V]) -> V {
    let mut pushes = vec![V::Scalar::ZERO; planes.len()];
    let stop = V::Scalar::EPSILON * V::Scalar::from_f64(PLANE_SOLVER_ULPS) * target.length();
    let mut d = target;
    for _ in 0..PLANE_SOLVER_ITERATIONS {
        let mut largest = V::Scalar::ZERO;
        for (n, push) in planes.iter().zip(pushes.iter_mut()) {
            let new = (*push - n.dot(d)).max(V::Scalar::ZERO);
            let change = new - *push;
            *push = new;
            d += *n * change;
            largest = largest.max(change.abs());
        }
        if largest <= stop {
            break;
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, Vec3};

    // One plane: the component into it is removed, the rest kept.
    #[test]
    fn one_plane_slides() {
        let d = solve_planes(Vec3::new(2.0, -3.0, 1.0), &[Vec3::Y]);
        assert!((d - Vec3::new(2.0, 0.0, 1.0)).length() < 1e-6);
    }

    // A motion leaving the plane is unchanged.
    #[test]
    fn leaving_motion_kept() {
        let d = solve_planes(Vec3::new(2.0, 3.0, 1.0), &[Vec3::Y]);
        assert_eq!(d, Vec3::new(2.0, 3.0, 1.0));
    }

    // A V-shaped pit in 2D (two slopes facing each other): falling into it stops.
    #[test]
    fn pit_stops() {
        let a = DVec2::new(1.0, 1.0).normalize();
        let b = DVec2::new(-1.0, 1.0).normalize();
        let d = solve_planes(DVec2::new(0.3, -1.0), &[a, b]);
        assert!(d.length() < 1e-9, "{d:?}");
    }

    // Three walls of a 3D corner (floor, two walls) stop a motion into all three.
    #[test]
    fn corner_stops() {
        let d = solve_planes(Vec3::new(1.0, -1.0, 1.0), &[Vec3::Y, -Vec3::X, -Vec3::Z]);
        assert!(d.length() < 1e-6, "{d:?}");
    }
}
