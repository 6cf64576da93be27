//! Mass, centre of mass and inertia of the convex kinds the scenes drop: balls, boxes,
//! capsules, cylinders, cones and rounded boxes in 3D; balls, boxes, capsules and
//! rounded boxes in 2D. Solid bodies of uniform density, closed-form integrals.
//!
//! Boxes, rounded boxes and capsules are summed from their second moments
//! `∫ x_k² dV` about the centre (the inertia is `I_xx = ∫ y² + z²`, ...): a rounded
//! box is its core box, one slab per face, a quarter cylinder per edge and an eighth
//! ball per corner; a capsule is its cylinder and two half balls. Cylinders and
//! cones use the textbook formulas (the cone's centre of mass is a quarter of its
//! height above its base).

use crate::dim::{Dim, D2, D3};
use glam::{DMat3, DVec2, DVec3};
use isect::shape::shape_2d::{AnyShape as Any2, Shape as Shape2};
use isect::shape::shape_3d::{AnyShape as Any3, Shape as Shape3};
use std::f64::consts::PI;

/// What the solver needs of a body's matter.
#[derive(Copy, Clone, Debug)]
pub struct MassProperties<D: Dim> {
    /// The mass (density times volume, or area in 2D).
    pub mass: f64,
    /// The centre of mass in the body's frame.
    pub local_center: D::V,
    /// The inertia tensor about the centre of mass, in the body's frame.
    pub inertia: D::Inertia,
}

/// The mass properties of a 3D shape of `density`; `None` for a kind not listed in
/// the module docs (segments, triangles, polyhedra, composites).
pub fn mass_properties_3d(shape: &Any3<f64>, density: f64) -> Option<MassProperties<D3>> {
    let Any3::Convex(shape) = shape else {
        return None;
    };
    let (mass, local_center, inertia) = match shape {
        Shape3::Ball(b) => {
            let m = density * 4.0 / 3.0 * PI * b.radius().powi(3);
            let i = 0.4 * m * b.radius().powi(2);
            (m, b.center(), DMat3::from_diagonal(DVec3::splat(i)))
        }
        Shape3::Cuboid(b) => box_3d(b.min, b.max, 0.0, density),
        Shape3::RoundedCuboid(r) => box_3d(r.inner().min, r.inner().max, r.radius(), density),
        Shape3::Capsule(c) => {
            let s = c.segment();
            let (m, [axial, radial]) = capsule_3d_moments(s.length() / 2.0, c.radius(), density);
            (m, c.center(), about_axis(s.direction(), axial, radial))
        }
        Shape3::Cylinder(c) => {
            let (h, r) = (c.half_height(), c.radius());
            let m = density * PI * r * r * 2.0 * h;
            let perp = m * (r * r / 4.0 + h * h / 3.0);
            (m, DVec3::ZERO, about_axis(DVec3::Y, m * r * r / 2.0, perp))
        }
        Shape3::Cone(c) => {
            let (h, r) = (c.half_height(), c.radius());
            let height = 2.0 * h;
            let m = density * PI * r * r * height / 3.0;
            let axial = 0.3 * m * r * r;
            let perp = m * (0.15 * r * r + 0.0375 * height * height);
            (
                m,
                DVec3::new(0.0, -h / 2.0, 0.0),
                about_axis(DVec3::Y, axial, perp),
            )
        }
        _ => return None,
    };
    Some(MassProperties {
        mass,
        local_center,
        inertia,
    })
}

/// The mass properties of a 2D shape of `density` (per unit area); `None` for a kind
/// not listed in the module docs (segments, triangles, polygons, composites).
pub fn mass_properties_2d(shape: &Any2<f64>, density: f64) -> Option<MassProperties<D2>> {
    let Any2::Convex(shape) = shape else {
        return None;
    };
    let (mass, local_center, inertia) = match shape {
        Shape2::Ball(b) => {
            let m = density * PI * b.radius().powi(2);
            (m, b.center(), 0.5 * m * b.radius().powi(2))
        }
        Shape2::Cuboid(b) => box_2d(b.min, b.max, 0.0, density),
        Shape2::RoundedCuboid(r) => box_2d(r.inner().min, r.inner().max, r.radius(), density),
        Shape2::Capsule(c) => {
            let (m, [axial, radial]) =
                capsule_2d_moments(c.segment().length() / 2.0, c.radius(), density);
            (m, c.center(), axial + radial)
        }
        _ => return None,
    };
    Some(MassProperties {
        mass,
        local_center,
        inertia,
    })
}

/// The tensor with `axial` inertia about the unit axis `u` and `perp` about every
/// axis orthogonal to it: `perp·(1 − u uᵀ) + axial·u uᵀ`. A zero `u` (a capsule
/// reduced to a ball) gives `perp` about every axis, which equals `axial` then.
fn about_axis(u: DVec3, axial: f64, perp: f64) -> DMat3 {
    let u = u.normalize_or_zero();
    let uut = DMat3::from_cols(u * u.x, u * u.y, u * u.z);
    DMat3::IDENTITY * perp + uut * (axial - perp)
}

/// Mass, centre and inertia of the box `[min, max]` grown by `radius`.
fn box_3d(min: DVec3, max: DVec3, radius: f64, density: f64) -> (f64, DVec3, DMat3) {
    let (volume, s) = rounded_box_moments_3d((max - min) / 2.0, radius);
    let i = DVec3::new(s.y + s.z, s.x + s.z, s.x + s.y) * density;
    (density * volume, (min + max) / 2.0, DMat3::from_diagonal(i))
}

/// Mass, centre and polar inertia of the rectangle `[min, max]` grown by `radius`.
fn box_2d(min: DVec2, max: DVec2, radius: f64, density: f64) -> (f64, DVec2, f64) {
    let (area, s) = rounded_box_moments_2d((max - min) / 2.0, radius);
    (density * area, (min + max) / 2.0, density * (s.x + s.y))
}

/// `(length, ∫ x² dx)` of the core interval `[−e, e]`.
fn core(e: f64) -> (f64, f64) {
    (2.0 * e, 2.0 * e.powi(3) / 3.0)
}

/// `(length, ∫ x² dx)` of the two intervals `±[e, e + r]`.
fn slabs(e: f64, r: f64) -> (f64, f64) {
    (2.0 * r, 2.0 * ((e + r).powi(3) - e.powi(3)) / 3.0)
}

/// `∫ x² dA` along one axis over four quarter discs of radius `r` centred `±e` from
/// the origin on that axis (a quarter disc has `∫ u dA = r³/3`, `∫ u² dA = πr⁴/16`).
fn quarter_discs_sq(e: f64, r: f64) -> f64 {
    4.0 * (e * e * PI * r * r / 4.0 + 2.0 * e * r.powi(3) / 3.0 + PI * r.powi(4) / 16.0)
}

/// Volume and `(∫x², ∫y², ∫z²)` about the centre of a box of half extents `e` grown by
/// `r`: the core box and one slab a face (products of per-axis intervals), a quarter
/// cylinder an edge, an eighth ball a corner (`∫ u dV = πr⁴/16`, `∫ u² dV = πr⁵/30`).
pub fn rounded_box_moments_3d(e: DVec3, r: f64) -> (f64, DVec3) {
    let e = e.to_array();
    let (mut volume, mut sq) = (0.0, [0.0; 3]);
    for outside in [None, Some(0), Some(1), Some(2)] {
        let f = |k: usize| {
            if outside == Some(k) {
                slabs(e[k], r)
            } else {
                core(e[k])
            }
        };
        let f = [f(0), f(1), f(2)];
        volume += f[0].0 * f[1].0 * f[2].0;
        for k in 0..3 {
            let (j, l) = ((k + 1) % 3, (k + 2) % 3);
            sq[k] += f[k].1 * f[j].0 * f[l].0;
        }
    }
    for m in 0..3 {
        let (j, l) = ((m + 1) % 3, (m + 2) % 3);
        let (length, m_sq) = core(e[m]);
        volume += PI * r * r * length;
        sq[m] += PI * r * r * m_sq;
        sq[j] += quarter_discs_sq(e[j], r) * length;
        sq[l] += quarter_discs_sq(e[l], r) * length;
    }
    volume += 4.0 / 3.0 * PI * r.powi(3);
    for (k, s) in sq.iter_mut().enumerate() {
        let ek = e[k];
        *s += 8.0 * (ek * ek * PI * r.powi(3) / 6.0 + ek * PI * r.powi(4) / 8.0)
            + 4.0 * PI * r.powi(5) / 15.0;
    }
    (volume, DVec3::from_array(sq))
}

/// Area and `(∫x², ∫y²)` about the centre of a rectangle of half extents `e` grown
/// by `r`: the core, one slab a side, a quarter disc a corner.
pub fn rounded_box_moments_2d(e: DVec2, r: f64) -> (f64, DVec2) {
    let (cx, cy) = (core(e.x), core(e.y));
    let (sx, sy) = (slabs(e.x, r), slabs(e.y, r));
    let area = cx.0 * cy.0 + sx.0 * cy.0 + cx.0 * sy.0 + PI * r * r;
    let x_sq = cx.1 * cy.0 + sx.1 * cy.0 + cx.1 * sy.0 + quarter_discs_sq(e.x, r);
    let y_sq = cy.1 * cx.0 + sy.1 * cx.0 + cy.1 * sx.0 + quarter_discs_sq(e.y, r);
    (area, DVec2::new(x_sq, y_sq))
}

/// Mass and `[axial, radial]` inertia about the centre of a 3D capsule of half
/// length `h` and radius `r`: a cylinder and two half balls (a half ball has
/// `∫ v dV = πr⁴/4`, `∫ v² dV = 2πr⁵/15` along its axis).
fn capsule_3d_moments(h: f64, r: f64, density: f64) -> (f64, [f64; 2]) {
    let cylinder = PI * r * r * 2.0 * h;
    let ball = 4.0 / 3.0 * PI * r.powi(3);
    let along = cylinder * h * h / 3.0
        + 2.0 * (h * h * ball / 2.0 + 2.0 * h * PI * r.powi(4) / 4.0 + 2.0 * PI * r.powi(5) / 15.0);
    let across = cylinder * r * r / 4.0 + 4.0 * PI * r.powi(5) / 15.0;
    let mass = density * (cylinder + ball);
    (mass, [density * 2.0 * across, density * (along + across)])
}

/// Mass and the two second moments `[∫ along², ∫ across²]` of a 2D capsule (a
/// stadium) of half length `h` and radius `r`: a rectangle and two half discs (a
/// half disc has `∫ v dA = 2r³/3`, `∫ v² dA = πr⁴/8`); the polar inertia is their sum.
fn capsule_2d_moments(h: f64, r: f64, density: f64) -> (f64, [f64; 2]) {
    let rectangle = 4.0 * r * h;
    let disc = PI * r * r;
    let along = 2.0 * r * (2.0 * h.powi(3) / 3.0)
        + 2.0 * (h * h * disc / 2.0 + 2.0 * h * 2.0 * r.powi(3) / 3.0 + PI * r.powi(4) / 8.0);
    let across = 2.0 * h * (2.0 * r.powi(3) / 3.0) + PI * r.powi(4) / 4.0;
    (
        density * (rectangle + disc),
        [density * along, density * across],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use isect::math::Isometry;
    use isect::query::dispatch::DispatchShape;
    use isect::shape::{Aabb, Capsule, Cone, Cylinder, Rounded};

    /// Mass, centre and inertia by counting the points of a fine grid inside `shape`.
    fn sampled_3d(shape: &Any3<f64>, half: f64, n: usize) -> (f64, DVec3, DMat3) {
        let step = 2.0 * half / n as f64;
        let cell = step.powi(3);
        let pose = isect::math::Pose3::IDENTITY;
        let points: Vec<DVec3> = (0..n * n * n)
            .map(|i| {
                let c = DVec3::new((i % n) as f64, ((i / n) % n) as f64, (i / (n * n)) as f64);
                (c + 0.5) * step - half
            })
            .filter(|&p| shape.contains_point(&pose, p))
            .collect();
        let mass = points.len() as f64 * cell;
        let center = points.iter().sum::<DVec3>() * cell / mass;
        let inertia = points.iter().fold(DMat3::ZERO, |acc, &p| {
            let d = p - center;
            let outer = DMat3::from_cols(d * d.x, d * d.y, d * d.z);
            acc + (DMat3::IDENTITY * d.length_squared() - outer) * cell
        });
        (mass, center, inertia)
    }

    fn assert_close_3d(shape: Any3<f64>, half: f64) {
        let exact = mass_properties_3d(&shape, 1.0).expect("a supported kind");
        let (m, c, i) = sampled_3d(&shape, half, 60);
        assert!(
            (exact.mass / m - 1.0).abs() < 0.02,
            "mass {} vs sampled {m}",
            exact.mass
        );
        assert!(
            (exact.local_center - c).length() < 0.02 * half,
            "centre {c}"
        );
        let scale = i.x_axis.x.max(i.y_axis.y);
        for (a, b) in exact.inertia.to_cols_array().iter().zip(i.to_cols_array()) {
            assert!(
                (a - b).abs() < 0.03 * scale,
                "inertia {} vs sampled {i}",
                exact.inertia
            );
        }
    }

    #[test]
    fn closed_forms_agree_with_sampled_3d_shapes() {
        // Each shape inside the cube [-1.2, 1.2]³ (sampled every 0.04, the box's faces
        // half way between samples); the capsule along a slanted axis.
        let tilted = DVec3::new(0.5, 0.6, 0.3);
        let shapes: [Shape3<f64>; 5] = [
            Shape3::Cuboid(
                Aabb::new(DVec3::new(-0.4, -0.8, -0.6), DVec3::new(0.8, 0.8, 0.6)).unwrap(),
            ),
            Shape3::RoundedCuboid(
                Rounded::new(
                    Aabb::from_center(DVec3::ZERO, DVec3::new(0.5, 0.3, 0.6)).unwrap(),
                    0.25,
                )
                .unwrap(),
            ),
            Shape3::Capsule(Capsule::new(-tilted, tilted, 0.3).unwrap()),
            Shape3::Cylinder(Cylinder::new(0.88, 0.6).unwrap()),
            Shape3::Cone(Cone::new(0.88, 0.8).unwrap()),
        ];
        for s in shapes {
            assert_close_3d(Any3::Convex(s), 1.2);
        }
    }

    #[test]
    fn closed_forms_agree_with_sampled_2d_shapes() {
        let n = 400;
        let shapes = [
            Shape2::RoundedCuboid(
                Rounded::new(
                    Aabb::from_center(DVec2::ZERO, DVec2::new(0.6, 0.3)).unwrap(),
                    0.3,
                )
                .unwrap(),
            ),
            Shape2::Capsule(
                Capsule::new(DVec2::new(-0.7, -0.2), DVec2::new(0.5, 0.4), 0.35).unwrap(),
            ),
        ];
        for s in shapes {
            let shape = Any2::Convex(s);
            let exact = mass_properties_2d(&shape, 1.0).expect("a supported kind");
            let step = 2.4 / n as f64;
            let points: Vec<DVec2> = (0..n * n)
                .map(|i| (DVec2::new((i % n) as f64, (i / n) as f64) + 0.5) * step - 1.2)
                .filter(|&p| shape.contains_point(&isect::math::Pose2::IDENTITY, p))
                .collect();
            let m = points.len() as f64 * step * step;
            let c = points.iter().sum::<DVec2>() * step * step / m;
            let i: f64 = points
                .iter()
                .map(|p| (*p - c).length_squared())
                .sum::<f64>()
                * step
                * step;
            assert!(
                (exact.mass / m - 1.0).abs() < 0.01,
                "mass {} vs {m}",
                exact.mass
            );
            assert!((exact.local_center - c).length() < 0.01, "centre {c}");
            assert!(
                (exact.inertia / i - 1.0).abs() < 0.02,
                "inertia {} vs {i}",
                exact.inertia
            );
        }
    }
}
