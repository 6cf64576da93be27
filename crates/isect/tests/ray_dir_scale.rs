//! A ray's answer does not depend on its direction's length (issue 15's bad input:
//! "right answers at every scale"): every shape kind, 2D and 3D, `f32` and `f64`,
//! cast with its direction scaled by powers of ten from the type's tiny to its huge
//! lengths, hits exactly when the unit-length cast hits, at `t · s` equal to the unit
//! cast's `t` and at the same point, within [`T_REL`] of the scene's size. Directions
//! whose squared length underflowed (`1e-160` in `f64`) missed balls, capsules,
//! cylinders and cones.

use isect::math::{Real, Vector};
use isect::query::RayCast;
use isect::shape::shape_2d::Shape as Shape2;
use isect::shape::shape_3d::Shape as Shape3;
use isect::shape::{
    Aabb, Ball, Capsule, Cone, ConvexPolygon, ConvexPolyhedron, Cylinder, Ray, Rounded, TriMesh,
    TriMeshFlags, Triangle,
};

/// Agreement of `t · s` and of the hit point with the unit cast, relative to the
/// scene's size (about 10): the scaling by a power of two is exact, by a power of ten
/// is not, and the direction's rounding moves the point by a few ulps.
const T_REL: f64 = 1e-5;

/// Direction lengths to try: from near the smallest normal number whose square still
/// meets the kernels' needs once rescaled, to near the largest finite one.
fn scales<R: Real>() -> Vec<f64> {
    let max_exp = R::MAX.to_f64().log10().floor() as i32;
    (-(max_exp - 8)..=(max_exp - 8))
        .step_by(((max_exp - 8) / 6) as usize)
        .map(|e| 10f64.powi(e))
        .chain([2f64.powi(-(max_exp * 3) + 20), 2f64.powi(max_exp * 3 - 20)])
        .filter(|s| s.is_finite() && *s > 0.0 && R::from_f64(*s).to_f64() != 0.0)
        .collect()
}

/// Casts `ray` with its direction scaled by each of [`scales`] and compares with the
/// unscaled cast; what disagrees goes to `failures`. Returns 1 for a hit.
fn check_scales<V: Vector>(
    name: &str,
    shape: &impl RayCast<V>,
    ray: Ray<V>,
    failures: &mut Vec<String>,
) -> usize {
    let unit = shape.cast_ray(&ray, V::Scalar::INFINITY);
    let size = 10.0 + ray.origin.length().to_f64();
    let tol = T_REL * size;
    for s in scales::<V::Scalar>() {
        let scaled = Ray {
            origin: ray.origin,
            dir: ray.dir * V::Scalar::from_f64(s),
        };
        let hit = shape.cast_ray(&scaled, V::Scalar::INFINITY);
        match (unit, hit) {
            (None, None) => {}
            (Some(u), Some(h)) => {
                let t = h.t.to_f64() * s;
                let dir_len = ray.dir.length().to_f64();
                if (t - u.t.to_f64()).abs() * dir_len > tol {
                    failures.push(format!("{name} scale {s:e}: t·s {t} against {}", u.t));
                }
                let gap = (h.point - u.point).length().to_f64();
                if gap.is_nan() || gap > tol {
                    failures.push(format!("{name} scale {s:e}: point off by {gap}"));
                }
            }
            _ => failures.push(format!(
                "{name} scale {s:e}: unit direction {:?}, scaled {:?}",
                unit.map(|h| h.t),
                hit.map(|h| h.t)
            )),
        }
    }
    usize::from(unit.is_some())
}

fn v3<R: Real>(x: f64, y: f64, z: f64) -> R::V3 {
    R::V3::ZERO
        .with(0, R::from_f64(x))
        .with(1, R::from_f64(y))
        .with(2, R::from_f64(z))
}

fn v2<R: Real>(x: f64, y: f64) -> R::V2 {
    R::V2::ZERO.with(0, R::from_f64(x)).with(1, R::from_f64(y))
}

/// Every 3D kind, with rays from outside that hit and miss it.
fn shapes_3d<R: Real>() -> Vec<(&'static str, Shape3<R>)>
where
    R::V3: isect::algo::gjk::GjkVector,
{
    let r = R::from_f64;
    let cube = Aabb::new(v3::<R>(-1.0, -1.0, -1.0), v3::<R>(1.0, 1.0, 1.0)).unwrap();
    let corners: Vec<R::V3> = (0..8)
        .map(|i| {
            v3::<R>(
                [-1.0, 1.0][i & 1],
                [-1.0, 1.0][(i >> 1) & 1],
                [-1.0, 1.0][i >> 2],
            )
        })
        .collect();
    vec![
        (
            "ball",
            Shape3::Ball(Ball::new(R::V3::ZERO, r(1.5)).unwrap()),
        ),
        ("cuboid", Shape3::Cuboid(cube)),
        (
            "capsule",
            Shape3::Capsule(
                Capsule::new(v3::<R>(0.0, -1.0, 0.0), v3::<R>(0.0, 1.0, 0.0), r(0.8)).unwrap(),
            ),
        ),
        (
            "triangle",
            Shape3::Triangle(
                Triangle::new(
                    v3::<R>(0.0, -2.0, -2.0),
                    v3::<R>(0.0, 2.0, -1.0),
                    v3::<R>(0.0, 0.0, 2.0),
                )
                .unwrap(),
            ),
        ),
        (
            "polyhedron",
            Shape3::Polyhedron(ConvexPolyhedron::from_points(&corners).unwrap()),
        ),
        (
            "cylinder",
            Shape3::Cylinder(Cylinder::new(r(1.0), r(1.2)).unwrap()),
        ),
        ("cone", Shape3::Cone(Cone::new(r(1.0), r(1.4)).unwrap())),
        (
            "rounded cuboid",
            Shape3::RoundedCuboid(Rounded::new(cube, r(0.3)).unwrap()),
        ),
    ]
}

/// Every 2D kind.
fn shapes_2d<R: Real>() -> Vec<(&'static str, Shape2<R>)>
where
    R::V2: isect::algo::gjk::GjkVector,
{
    let r = R::from_f64;
    let square = Aabb::new(v2::<R>(-1.0, -1.0), v2::<R>(1.0, 1.0)).unwrap();
    let hexagon: Vec<R::V2> = (0..6)
        .map(|k| {
            let a = k as f64 * std::f64::consts::PI / 3.0;
            v2::<R>(1.3 * a.cos(), 1.3 * a.sin())
        })
        .collect();
    let polygon = ConvexPolygon::new(&hexagon).unwrap();
    vec![
        (
            "disc",
            Shape2::Ball(Ball::new(R::V2::ZERO, r(1.5)).unwrap()),
        ),
        ("square", Shape2::Cuboid(square)),
        (
            "capsule 2d",
            Shape2::Capsule(Capsule::new(v2::<R>(0.0, -1.0), v2::<R>(0.0, 1.0), r(0.8)).unwrap()),
        ),
        (
            "triangle 2d",
            Shape2::Triangle(
                Triangle::new(v2::<R>(0.0, -2.0), v2::<R>(1.0, 2.0), v2::<R>(-1.0, 1.0)).unwrap(),
            ),
        ),
        ("polygon", Shape2::Polygon(polygon.clone())),
        (
            "rounded square",
            Shape2::RoundedCuboid(Rounded::new(square, r(0.3)).unwrap()),
        ),
        (
            "rounded polygon",
            Shape2::RoundedPolygon(Rounded::new(polygon, r(0.3)).unwrap()),
        ),
    ]
}

/// Rays from about 5 away: aimed through the shape (hits) and well beside it (misses).
fn rays_3d<R: Real>() -> Vec<Ray<R::V3>> {
    vec![
        Ray {
            origin: v3::<R>(-5.0, 0.1, 0.2),
            dir: v3::<R>(1.0, 0.01, -0.02),
        },
        Ray {
            origin: v3::<R>(0.3, 6.0, -0.2),
            dir: v3::<R>(-0.02, -1.0, 0.03),
        },
        Ray {
            origin: v3::<R>(-3.0, -4.0, 2.0),
            dir: v3::<R>(0.5, 0.75, -0.4),
        },
        Ray {
            origin: v3::<R>(-5.0, 4.0, 0.0),
            dir: v3::<R>(1.0, 0.0, 0.0),
        },
    ]
}

fn rays_2d<R: Real>() -> Vec<Ray<R::V2>> {
    vec![
        Ray {
            origin: v2::<R>(-5.0, 0.1),
            dir: v2::<R>(1.0, 0.01),
        },
        Ray {
            origin: v2::<R>(0.3, 6.0),
            dir: v2::<R>(-0.02, -1.0),
        },
        Ray {
            origin: v2::<R>(-3.0, -4.0),
            dir: v2::<R>(0.5, 0.75),
        },
        Ray {
            origin: v2::<R>(-5.0, 4.0),
            dir: v2::<R>(1.0, 0.0),
        },
    ]
}

fn every_kind<R: Real>()
where
    R::V2: isect::algo::gjk::GjkVector,
    R::V3: isect::algo::gjk::GjkVector,
{
    let (mut hits, mut failures) = (0, Vec::new());
    for (name, shape) in shapes_3d::<R>() {
        for ray in rays_3d::<R>() {
            hits += check_scales(name, &shape, ray, &mut failures);
        }
    }
    for (name, shape) in shapes_2d::<R>() {
        for ray in rays_2d::<R>() {
            hits += check_scales(name, &shape, ray, &mut failures);
        }
    }
    // A closed cube mesh, solid and open.
    let corners: Vec<R::V3> = (0..8)
        .map(|i| {
            v3::<R>(
                [-1.0, 1.0][i & 1],
                [-1.0, 1.0][(i >> 1) & 1],
                [-1.0, 1.0][i >> 2],
            )
        })
        .collect();
    let faces = vec![
        [0, 2, 1],
        [1, 2, 3],
        [4, 5, 6],
        [5, 7, 6],
        [0, 1, 4],
        [1, 5, 4],
        [2, 6, 3],
        [3, 6, 7],
        [0, 4, 2],
        [2, 4, 6],
        [1, 3, 5],
        [3, 7, 5],
    ];
    for flags in [TriMeshFlags::OPEN, TriMeshFlags::SOLID] {
        let mesh = TriMesh::<R>::new(corners.clone(), faces.clone(), flags).unwrap();
        for ray in rays_3d::<R>() {
            hits += check_scales("mesh", &mesh, ray, &mut failures);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // 17 kinds, 4 rays each: most hit, the rays beside the shapes miss.
    assert!((45..68).contains(&hits), "{hits} hits of 68 casts");
}

#[test]
fn every_kind_f32() {
    every_kind::<f32>();
}

#[test]
fn every_kind_f64() {
    every_kind::<f64>();
}
