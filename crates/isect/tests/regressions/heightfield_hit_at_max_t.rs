//! Found by a review (helper, session 33): the 3D heightfield's grid walk dropped a hit
//! at `t == max_t` on a cell edge: `cast_ray(∞)` answered t = 1 and `cast_ray(1)` none,
//! as the walk stopped (`t_out >= t1`) before the cell behind that edge was tested
//! (20% of such hits lost). Fixed: the walk ends only once the next cell is reached
//! beyond `max_t` (and the best hit) by more than the slab tolerance.

use isect::d3::Vec3;
use isect::query::RayCast;
use isect::shape::heightfield_3d::HeightField;
use isect::shape::Ray;

#[test]
fn hit_at_max_t_on_a_cell_edge_is_kept() {
    let hf = HeightField::<f32>::new(
        vec![-1., 1., 0., -1., -1., 1., 1., 0., 0.],
        3,
        3,
        Vec3::new(2., 1., 2.),
    )
    .unwrap();
    let r = Ray::new(
        Vec3::new(-0.125, -0.75, -0.625),
        Vec3::new(0.125, 0.75, 0.125),
    )
    .unwrap();
    assert_eq!(hf.cast_ray(&r, f32::INFINITY).map(|h| h.t), Some(1.0));
    assert_eq!(hf.cast_ray(&r, 1.0).map(|h| h.t), Some(1.0));
}
