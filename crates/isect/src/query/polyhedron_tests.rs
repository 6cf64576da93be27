//! Point in a convex region bounded by planes (seed 003) and ray casts against a
//! [`ConvexPolyhedron`] by clipping the ray against each face plane (Cyrus–Beck;
//! Ericson 5.3.8). No tolerances: boundary points are inside as their computed
//! signed distances say.

use crate::algo::clip::cast_ray_half_spaces;
use crate::math::{Real, Vector};
use crate::query::RayCast;
use crate::shape::{ConvexPolyhedron, Plane, Ray, RayHit};

/// Point in the intersection of the half-spaces behind `planes` (seed 003): outside
/// iff `(P − Pᵢ)·Nᵢ > 0`, i.e. `signed_distance > 0`, for some plane. Boundary
/// inside. Written as "every distance ≤ 0" so that a NaN point is outside.
/// Works in 2D (lines bounding a convex polygon) and 3D.
///
/// ```
/// use isect::d2::*;
/// use isect::query::polyhedron_tests::point_in_half_spaces;
///
/// # fn main() -> Result<(), ShapeError> {
/// // The triangle x ≥ 0, y ≥ 0, x + y ≤ 1 as three lines with outward normals.
/// let n = Vec2::ONE.normalize();
/// let sides = [
///     Plane::new(-Vec2::X, 0.0)?,
///     Plane::new(-Vec2::Y, 0.0)?,
///     Plane::new(n, n.dot(Vec2::new(1.0, 0.0)))?,
/// ];
/// assert!(point_in_half_spaces(&sides, Vec2::new(0.25, 0.25)));
/// assert!(!point_in_half_spaces(&sides, Vec2::new(0.75, 0.75)));
/// # Ok(())
/// # }
/// ```
#[inline]
pub fn point_in_half_spaces<V: Vector>(planes: &[Plane<V>], p: V) -> bool {
    planes
        .iter()
        .all(|pl| pl.signed_distance(p) <= V::Scalar::ZERO)
}

impl<R: Real> RayCast<R::V3> for ConvexPolyhedron<R> {
    /// First hit on the solid polyhedron, by [`cast_ray_half_spaces`] over its face
    /// planes: `t = 0` with a zero normal when the origin is inside; otherwise the entry
    /// face's outward normal. NaN or infinite rays and a NaN or negative `max_t` miss;
    /// a ray parallel to a face misses when it starts in front of it.
    fn cast_ray(&self, ray: &Ray<R::V3>, max_t: R) -> Option<RayHit<R::V3>> {
        let faces = self.planes().iter().map(|p| (p.normal(), p.d()));
        cast_ray_half_spaces(faces, ray, max_t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::support::SupportMap;
    use crate::math::Vector3;
    use crate::shape::ShapeError;
    use glam::{DVec3, Vec3};

    /// The square `[-1, 1]²` (2D lines) or cube `[-1, 1]³` as half-spaces: the
    /// boundary and corners are inside, a point one ulp beyond a face and NaN are not.
    fn half_space_cases<V: Vector>() {
        let planes: Vec<Plane<V>> = (0..V::DIM)
            .flat_map(|i| [V::unit_axis(i), -V::unit_axis(i)])
            .map(|n| Plane::new(n, V::Scalar::ONE).unwrap())
            .collect();
        let one = V::Scalar::ONE;
        assert!(point_in_half_spaces(&planes, V::splat(one)));
        assert!(point_in_half_spaces(&planes, V::ZERO));
        let beyond = V::unit_axis(0) * (one + V::Scalar::EPSILON * V::Scalar::TWO);
        assert!(!point_in_half_spaces(&planes, beyond));
        assert!(!point_in_half_spaces(
            &planes,
            V::splat(V::Scalar::from_f64(f64::NAN))
        ));
    }

    // Half-space containment in 2D and 3D, f32 and f64.
    #[test]
    fn half_spaces_all_types() {
        half_space_cases::<glam::Vec2>();
        half_space_cases::<glam::DVec2>();
        half_space_cases::<Vec3>();
        half_space_cases::<DVec3>();
    }

    /// The box `[-k, k]³` as six planes.
    fn cube_planes<V: Vector3>(k: f64) -> Vec<Plane<V>> {
        let d = V::Scalar::from_f64(k);
        (0..3)
            .flat_map(|i| [V::unit_axis(i), -V::unit_axis(i)])
            .map(|n| Plane::new(n, d).unwrap())
            .collect()
    }

    /// Cube from planes and from its corners: same vertices, faces, volume; boundary in.
    fn cube_cases<R: Real>(k: f64) {
        let s = |v: f64| R::from_f64(v * k);
        let poly = ConvexPolyhedron::<R>::from_planes(&cube_planes::<R::V3>(k)).unwrap();
        assert_eq!(poly.vertices().len(), 8);
        assert_eq!(poly.faces().len(), 6);
        assert!(poly.faces().iter().all(|f| f.vertex_indices().len() == 4));
        let vol = poly.volume().to_f64() / (8.0 * k * k * k);
        assert!((vol - 1.0).abs() < 1e-5, "{vol}");
        let hull = ConvexPolyhedron::<R>::from_points(poly.vertices()).unwrap();
        assert_eq!((hull.vertices().len(), hull.faces().len()), (8, 6));
        let p = |x: f64, y: f64, z: f64| R::V3::new(s(x), s(y), s(z));
        assert!(poly.contains_point(p(1.0, 1.0, 1.0))); // a corner
        assert!(poly.contains_point(p(1.0, 0.3, -0.2))); // on a face
        assert!(!poly.contains_point(p(1.0, 0.3, 1.5)));
        assert!(!poly.contains_point(R::V3::splat(R::from_f64(f64::NAN))));
        assert_eq!(poly.local_support(p(1.0, -1.0, 1.0)), p(1.0, -1.0, 1.0));
    }

    // Cube from planes and from points at scales 1, 1e5, 1e-4, f32 and f64.
    #[test]
    fn cube_from_planes_and_points() {
        for k in [1.0, 1e5, 1e-4] {
            cube_cases::<f32>(k);
            cube_cases::<f64>(k);
        }
    }

    // Rotated cube with face centres and edge midpoints (coplanar points that quickhull
    // may keep inside a face): faces are still the 6 squares, volume still 8.
    #[test]
    fn rotated_cube_with_coplanar_points() {
        let rot = glam::Quat::from_axis_angle(Vec3::new(0.3, 0.9, 0.2).normalize(), 0.7);
        let mut pts = Vec::new();
        for x in [-1.0f32, 0.0, 1.0] {
            for y in [-1.0f32, 0.0, 1.0] {
                for z in [-1.0f32, 0.0, 1.0] {
                    pts.push(rot * Vec3::new(x, y, z) + Vec3::splat(40.0));
                }
            }
        }
        let poly = ConvexPolyhedron::<f32>::from_points(&pts).unwrap();
        assert_eq!((poly.vertices().len(), poly.faces().len()), (8, 6));
        assert!((poly.volume() - 8.0).abs() < 1e-3, "{}", poly.volume());
        assert!(pts.iter().all(|&p| poly.max_face_distance(p) < 1e-4));
    }

    // Unbounded (a prism without caps, a half-open box), empty, too few planes.
    #[test]
    fn bad_plane_sets() {
        let mut planes = cube_planes::<DVec3>(1.0);
        planes.truncate(4); // x and y slabs only: an infinite square prism
        let err = ConvexPolyhedron::<f64>::from_planes(&planes).unwrap_err();
        assert!(err.to_string().contains("unbounded"));
        let mut open = cube_planes::<DVec3>(1.0);
        open[4] = Plane::new(DVec3::new(1.0, 0.0, -1.0), 0.0).unwrap(); // z ≥ x, no top
        open.remove(5);
        open.push(Plane::new(-DVec3::Z, 0.0).unwrap());
        assert!(ConvexPolyhedron::<f64>::from_planes(&open).is_err());
        let mut empty = cube_planes::<DVec3>(1.0);
        empty.push(Plane::new(DVec3::X, -2.0).unwrap()); // x ≤ -2 and x ≥ -1
        assert!(matches!(
            ConvexPolyhedron::<f64>::from_planes(&empty),
            Err(ShapeError::Degenerate { .. })
        ));
        assert!(matches!(
            ConvexPolyhedron::<f64>::from_planes(&planes[..3]),
            Err(ShapeError::TooFewPoints { got: 3, .. })
        ));
    }

    // A redundant plane touching one corner is dropped; a cutting plane adds a face.
    #[test]
    fn redundant_and_cutting_planes() {
        let mut planes = cube_planes::<DVec3>(1.0);
        planes.push(Plane::new(DVec3::ONE, 3.0).unwrap()); // x+y+z = 3 touches (1,1,1)
        let poly = ConvexPolyhedron::<f64>::from_planes(&planes).unwrap();
        assert_eq!((poly.vertices().len(), poly.faces().len()), (8, 6));
        planes.push(Plane::new(DVec3::ONE, 2.0).unwrap()); // x+y+z = 2 cuts a corner off
        let cut = ConvexPolyhedron::<f64>::from_planes(&planes).unwrap();
        assert_eq!((cut.vertices().len(), cut.faces().len()), (10, 7));
        assert!((cut.volume() - (8.0 - 1.0 / 6.0)).abs() < 1e-12);
    }

    // Rays: entering a face, grazing an edge, parallel outside, from inside, NaN.
    #[test]
    fn ray_casts() {
        let poly = ConvexPolyhedron::<f32>::from_planes(&cube_planes::<Vec3>(1.0)).unwrap();
        let ray = Ray::new(Vec3::new(-3.0, 0.2, 0.1), Vec3::X).unwrap();
        let hit = poly.cast_ray(&ray, 10.0).unwrap();
        assert_eq!((hit.t, hit.normal), (2.0, -Vec3::X));
        assert!(poly.cast_ray(&ray, 1.5).is_none());
        let graze = Ray::new(Vec3::new(-3.0, 1.0, 1.0), Vec3::X).unwrap();
        assert_eq!(poly.cast_ray(&graze, 10.0).unwrap().t, 2.0);
        let parallel = Ray::new(Vec3::new(-3.0, 1.5, 0.0), Vec3::X).unwrap();
        assert!(poly.cast_ray(&parallel, 10.0).is_none());
        let inside = Ray::new(Vec3::ZERO, Vec3::ZERO).unwrap();
        assert_eq!(poly.cast_ray(&inside, 0.0).unwrap().normal, Vec3::ZERO);
        let nan = Ray {
            origin: Vec3::NAN,
            dir: Vec3::X,
        };
        assert!(poly.cast_ray(&nan, 1.0).is_none());
    }
}
