//! Found by a review (helper, session 33): the 3D heightfield's grid walk dropped a ray
//! crossing exactly through a grid point. The ray passes (0, 0, 0) at t = 2 from below;
//! triangles 4 and 5 are hit there (a TriMesh of the same triangles answers 2), but the
//! walk stepped diagonally from cell (1, 1) to (0, 0) while the watertight kernel gives
//! the point to a triangle of cell (1, 0), never visited (2% of grid-point crossings,
//! some answering a farther hit). Fixed: the walk visits every cell whose footprint,
//! grown by the boxes' padding, the ray passes over, and keeps the least hit.

use isect::d3::Vec3;
use isect::query::RayCast;
use isect::shape::heightfield_3d::HeightField;
use isect::shape::Ray;

#[test]
fn ray_through_a_grid_point_hits() {
    let hf = HeightField::<f32>::new(
        vec![2., -1., 1., 1., 0., -1., 2., 1., 1.],
        3,
        3,
        Vec3::new(2., 1., 2.),
    )
    .unwrap();
    let r = Ray::new(Vec3::new(0.75, -1.5, 1.75), Vec3::new(-0.375, 0.75, -0.875)).unwrap();
    let triangles: Vec<_> = (0..8)
        .filter_map(|i| Some((i, hf.triangle(i)?.cast_ray(&r, f32::INFINITY)?.t)))
        .collect();
    assert_eq!(triangles, [(4, 2.0), (5, 2.0)]);
    assert_eq!(hf.cast_ray(&r, f32::INFINITY).map(|h| h.t), Some(2.0));
    assert_eq!(hf.cast_ray_cell(&r, f32::INFINITY), Some((4, 2.0)));
}
