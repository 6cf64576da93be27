//! Issue 18, item 8 (`composite_queries` soak, seeds `0x791d77f257fc6733`,
//! `0x134364c76daedbdd`, `0xbbbc4b2b73a473de`, `0x6969c164759765d8`): heightfields of
//! extreme aspect (1.2e-11 wide with heights to 5e3; 1e-25 deep) had triangles whose
//! ray hits lay far off them (4.6e-5 off a field 2,000 wide in `f64`, 43 ulps of the
//! size in `f32`), so the field's walk and its parts disagreed. The watertight
//! kernel's `t` is a barycentric interpolation whose edge functions cancel in
//! proportion to a sliver's aspect; such hits now get their `t` recomputed
//! (`trimesh::ray::SLIVER_CANCELLATION`). The class, for every aspect from 1 to 1e15,
//! scales 1e-3 to 1e5, `f32` and `f64`:
//!
//! - a ray through a sliver triangle at a fair angle to its longest edge hits it within
//!   `√ε₆₄ · L` plus the rounding of the ray itself (`ε · |X|`, `X` the point aimed at)
//!   of the point aimed at, or misses only where that rounding moved the ray off it;
//! - a heightfield whose cells are narrower than its boxes' padding answers its parts'
//!   nearest hit (the brute-force minimum over its triangles).

use glam::{DVec3, Vec3};
use isect::math::{Real, Vector, Vector3};
use isect::query::RayCast;
use isect::shape::heightfield_3d::HeightField;
use isect::shape::trimesh::BOX_PADDING_ULPS;
use isect::shape::{Ray, Triangle};

use crate::rng::Rng;

/// The rounding of a well-conditioned hit, in `ε` of the distances involved: the
/// kernel interpolates without recomputing up to `SLIVER_CANCELLATION` (64) ulps.
const CANCELLATION_ULPS: f64 = 256.0;

/// Rays per type, aspect and scale.
const RAYS: usize = 200;

/// A unit vector drawn uniformly from the sphere.
fn unit(rng: &mut Rng) -> DVec3 {
    loop {
        let v = DVec3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        );
        if (0.1..=1.0).contains(&v.length()) {
            return v.normalize();
        }
    }
}

/// A sliver: longest edge `len` along a random axis, height `len / aspect`.
fn sliver(rng: &mut Rng, len: f64, aspect: f64) -> [DVec3; 3] {
    let along = unit(rng);
    let across = along.any_orthonormal_vector();
    let centre = unit(rng) * len * rng.range(0.0, 3.0);
    let a = centre - along * len * 0.5;
    let c = a + along * len * rng.range(0.2, 0.8) + across * len / aspect;
    [a, a + along * len, c]
}

fn to<V: Vector3>(p: DVec3) -> V {
    let f = V::Scalar::from_f64;
    V::new(f(p.x), f(p.y), f(p.z))
}

fn from<V: Vector>(p: V) -> DVec3 {
    DVec3::new(p.get(0).to_f64(), p.get(1).to_f64(), p.get(2).to_f64())
}

/// Rays through slivers of one aspect at one scale: every hit within the bound of the
/// point aimed at.
fn check_slivers<V: Vector3>(seed: u64, len: f64, aspect: f64) {
    let mut rng = Rng(seed);
    let eps = V::Scalar::EPSILON.to_f64();
    for _ in 0..RAYS {
        let corners = sliver(&mut rng, len, aspect);
        let tri = Triangle {
            a: to::<V>(corners[0]),
            b: to::<V>(corners[1]),
            c: to::<V>(corners[2]),
        };
        let [a, b, c] = [tri.a, tri.b, tri.c].map(from::<V>);
        let (u, v) = (rng.unit(), rng.unit());
        let (u, v) = if u + v > 1.0 {
            (1.0 - u, 1.0 - v)
        } else {
            (u, v)
        };
        let aim = a + (b - a) * u + (c - a) * v;
        // A fair angle to the longest edge and to the plane.
        let edge = (b - a).normalize();
        let normal = (b - a).cross(c - a).normalize();
        let dir = loop {
            let d = unit(&mut rng);
            if d.cross(edge).length() >= 0.5 && d.dot(normal).abs() >= 0.2 {
                break d;
            }
        };
        let back = len * rng.range(0.1, 4.0);
        let ray = Ray {
            origin: to::<V>(aim - dir * back),
            dir: to::<V>(dir),
        };
        let Some(hit) = tri.cast_ray(&ray, V::Scalar::from_f64(back * 4.0)) else {
            continue;
        };
        let rounding = CANCELLATION_ULPS * eps * (aim.length() + len + back);
        let bound = (f64::EPSILON.sqrt() * len * 4.0 + rounding) / 0.2;
        let off = (from::<V>(ray.origin) + from::<V>(ray.dir) * hit.t.to_f64()).distance(aim);
        assert!(
            off <= bound,
            "hit {off} from the aimed point (bound {bound}), aspect {aspect:e}, length {len:e}: {tri:?} {ray:?}"
        );
    }
}

#[test]
fn rays_through_slivers_hit_near_their_aim() {
    for (k, exp) in (0..=15).step_by(3).enumerate() {
        for (s, len) in [1e-3, 1.0, 1e5].into_iter().enumerate() {
            let seed = 0x511_7e5 + (k * 8 + s) as u64;
            check_slivers::<Vec3>(seed, len, 10f64.powi(exp));
            check_slivers::<DVec3>(seed, len, 10f64.powi(exp));
        }
    }
}

/// The nearest hit among a heightfield's triangles, by brute force.
fn nearest_part<R: Real>(field: &HeightField<R>, ray: &Ray<R::V3>, max_t: R) -> Option<R> {
    (0..)
        .map_while(|i| field.triangle(i))
        .filter_map(|t| t.cast_ray(ray, max_t))
        .map(|h| h.t)
        .reduce(R::min)
}

/// Heightfields `width` wide (narrower than their padding for the smallest widths)
/// with heights of a few thousand: the field answers its parts' nearest hit.
fn check_narrow_field<R: Real>(seed: u64, width: f64) {
    let mut rng = Rng(seed);
    let (nrows, ncols) = (4, 4);
    for _ in 0..RAYS / 4 {
        let heights = (0..nrows * ncols)
            .map(|_| R::from_f64(rng.range(-1.0, 1.0) * 10f64.powf(rng.range(-3.0, 3.5))))
            .collect();
        let scale = to::<R::V3>(DVec3::new(width, 1.0, width * rng.range(0.5, 2.0)));
        let field = HeightField::new(heights, nrows, ncols, scale).expect("valid field");
        for _ in 0..8 {
            let o = DVec3::new(
                width * rng.range(-1.0, 1.0),
                rng.range(-100.0, 100.0),
                width * rng.range(-1.0, 1.0),
            );
            let d = unit(&mut rng);
            let ray = Ray {
                origin: to::<R::V3>(o),
                dir: to::<R::V3>(d),
            };
            let max_t = R::from_f64(1e4);
            let field_t = field.cast_ray(&ray, max_t).map(|h| h.t);
            let part_t = nearest_part(&field, &ray, max_t);
            assert_eq!(field_t, part_t, "width {width:e}: {ray:?} {field:?}");
        }
    }
}

#[test]
fn narrow_heightfields_answer_their_nearest_part() {
    for (k, width) in [1e-25, 1e-15, 1e-11, 1e-6, 1.0].into_iter().enumerate() {
        check_narrow_field::<f32>(0xf1e1d + k as u64, width);
        check_narrow_field::<f64>(0xf1e1d + k as u64, width);
    }
}

/// Found by the session-8 soak of `composite_queries` after the kernel's fix (seed
/// `0xdd6bb6ba58845fef`): a field 7,455 wide, 1e-5 deep and 1e-8 high, and a ray
/// leaving it steeply. A sliver's recomputed `t` put the hit 1.2e-8 below the field's
/// box (the exact crossing is behind the origin), where no tree culling by triangle
/// boxes finds it; the hit is now kept inside the triangle's box.
#[test]
fn soak_field_hit_stays_in_its_box() {
    let heights = vec![
        0.07640476826834958,
        1.2169605328706107e-15,
        -0.0005918981784880338,
        -3.0,
        14333.997459561255,
        1.983670260792712e-26,
        -0.0009676526314554302,
        -76217.99073619398,
        -0.0008020138222656755,
        -0.006734134665608009,
        0.04307297466669788,
        6214.742747622188,
    ];
    let scale = DVec3::new(
        7455.228847728935,
        1.357420993677045e-13,
        9.827950403340353e-6,
    );
    let field = HeightField::new(heights, 4, 3, scale).expect("valid field");
    let ray = Ray {
        origin: DVec3::new(
            -2942.2322324836036,
            -1.6312423678609224e-9,
            -1.5530842430350995e-6,
        ),
        dir: DVec3::new(-3426.490525868152, -533.9547717896444, -1997.2105419952657),
    };
    let max_t = 81.56390593271314;
    let field_t = field.cast_ray(&ray, max_t).map(|h| h.t);
    assert_eq!(field_t, nearest_part(&field, &ray, max_t));
    if let Some(t) = field_t {
        let b = field.aabb();
        let pad = BOX_PADDING_ULPS * f64::EPSILON * b.min.abs().max(b.max.abs()).max_element();
        let p = ray.origin + ray.dir * t;
        let inside =
            (b.min - DVec3::splat(pad)).cmple(p).all() && p.cmple(b.max + DVec3::splat(pad)).all();
        assert!(inside, "hit {p} outside the field's box {b:?}");
    }
}
