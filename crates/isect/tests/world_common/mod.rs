//! Shared helpers of the `dispatch` and `world` tests: random shapes of every kind and
//! random poses (from the tests' one seeded generator), for each of the four vector types.
#![allow(dead_code)]

use isect::algo::gjk::GjkVector;
use isect::algo::support::SupportMap;
use isect::math::{Pose2, Pose3, Real, Vector};
use isect::query::dispatch::DispatchShape;
use isect::shape::{shape_2d, shape_3d};
use isect::shape::{Aabb, Ball, Capsule, Cone, ConvexPolygon, ConvexPolyhedron, Cylinder};
use isect::shape::{Rounded, Segment, Triangle};

#[path = "../support/rng.rs"]
mod rng;
pub use rng::Rng;

/// Three categories: each shape belongs to one and, one time in four, ignores one.
pub fn random_filter(rng: &mut Rng) -> isect::world::Filter {
    let group = 1 << rng.below(3);
    let mask = if rng.below(4) == 0 {
        !(1 << rng.below(3))
    } else {
        u32::MAX
    };
    isect::world::Filter { group, mask }
}

pub fn rand_vec<V: Vector>(rng: &mut Rng, half: f64) -> V {
    (0..V::DIM).fold(V::ZERO, |v, i| {
        v.with(i, V::Scalar::from_f64(rng.range(-half, half)))
    })
}

/// A random unit vector.
pub fn rand_unit<V: Vector>(rng: &mut Rng) -> V {
    loop {
        if let Some(u) = rand_vec::<V>(rng, 1.0).try_normalize() {
            return u;
        }
    }
}

pub fn s<V: Vector>(x: f64) -> V::Scalar {
    V::Scalar::from_f64(x)
}

/// Tolerance of a comparison, relative to the shapes' size, in the precision of `V`:
/// loose for f32; for f64 it covers GJK's linear convergence on curved shapes
/// (cylinders, cones), which stops at a relative gap, not at full precision.
pub fn tol<V: Vector>() -> f64 {
    if V::Scalar::EPSILON.to_f64() > 1e-10 {
        2e-3
    } else {
        1e-5
    }
}

/// Asserts that the fraction of hits is in `[0.3, 0.7]`, so the random cases test
/// both answers.
pub fn assert_hit_rate(hits: usize, total: usize, what: &str) {
    let rate = hits as f64 / total as f64;
    assert!(
        (0.3..=0.7).contains(&rate),
        "{what}: hit rate {rate} outside [0.3, 0.7]"
    );
}

/// A vector type with its shape enum, random shapes of each kind and random poses.
pub trait TestDim: GjkVector {
    /// The shape enum of this dimension.
    type S: DispatchShape<Self>
        + isect::query::ProjectPoint<Self>
        + SupportMap<Self>
        + From<Ball<Self>>
        + std::fmt::Debug
        + Send
        + Sync;
    /// Number of kinds of the enum.
    const KINDS: usize;
    /// A random shape of kind `kind` about `size` across, near the local origin.
    fn shape(kind: usize, rng: &mut Rng, size: f64) -> Self::S;
    /// The kind's name.
    fn kind_name(s: &Self::S) -> &'static str;
    /// A random rotation with a translation uniform in `[-half, half]^DIM`.
    fn pose(rng: &mut Rng, half: f64) -> Self::Pose;
    /// The cuboid kind of the enum.
    fn cuboid(b: Aabb<Self>) -> Self::S;
    /// The enum value of a capsule.
    fn capsule_shape(c: Capsule<Self>) -> Self::S;
}

/// Half extents between `0.2·size` and `0.6·size`.
fn half_extents<V: Vector>(rng: &mut Rng, size: f64) -> V {
    (0..V::DIM).fold(V::ZERO, |v, i| {
        v.with(i, s::<V>(size * rng.range(0.2, 0.6)))
    })
}

fn ball<V: Vector>(rng: &mut Rng, size: f64) -> Ball<V> {
    Ball::new(
        rand_vec(rng, 0.1 * size),
        s::<V>(size * rng.range(0.2, 0.6)),
    )
    .unwrap()
}

fn cuboid<V: Vector>(rng: &mut Rng, size: f64) -> Aabb<V> {
    Aabb::from_center(rand_vec(rng, 0.1 * size), half_extents(rng, size)).unwrap()
}

fn capsule<V: Vector>(rng: &mut Rng, size: f64) -> Capsule<V> {
    let r = s::<V>(size * rng.range(0.1, 0.4));
    Capsule::new(rand_vec(rng, 0.5 * size), rand_vec(rng, 0.5 * size), r).unwrap()
}

fn segment<V: Vector>(rng: &mut Rng, size: f64) -> Segment<V> {
    Segment::new(rand_vec(rng, 0.6 * size), rand_vec(rng, 0.6 * size)).unwrap()
}

fn triangle<V: Vector>(rng: &mut Rng, size: f64) -> Triangle<V> {
    let h = 0.6 * size;
    Triangle::new(rand_vec(rng, h), rand_vec(rng, h), rand_vec(rng, h)).unwrap()
}

fn polygon<R: Real>(rng: &mut Rng, size: f64) -> ConvexPolygon<R> {
    let (a, b) = (size * rng.range(0.2, 0.6), size * rng.range(0.2, 0.6));
    let mut angles: Vec<f64> = (0..3 + rng.below(6))
        .map(|_| rng.range(0.0, std::f64::consts::TAU))
        .collect();
    angles.sort_by(f64::total_cmp);
    let pts: Vec<R::V2> = angles
        .iter()
        .map(|t| {
            R::V2::ZERO
                .with(0, R::from_f64(a * t.cos()))
                .with(1, R::from_f64(b * t.sin()))
        })
        .collect();
    // Rare near-degenerate draws: fall back to a quad.
    ConvexPolygon::new(&pts).unwrap_or_else(|_| {
        let q = [(-a, -b), (a, -b), (a, b), (-a, b)]
            .map(|(x, y)| R::V2::ZERO.with(0, R::from_f64(x)).with(1, R::from_f64(y)));
        ConvexPolygon::new(&q).unwrap()
    })
}

fn polyhedron<R: Real>(rng: &mut Rng, size: f64) -> ConvexPolyhedron<R> {
    let h: R::V3 = half_extents(rng, size);
    let pts: Vec<R::V3> = (0..6 + rng.below(20))
        .map(|_| {
            let u: R::V3 = rand_unit(rng);
            (0..3).fold(u, |v, i| v.with(i, u.get(i) * h.get(i)))
        })
        .collect();
    ConvexPolyhedron::from_points(&pts).unwrap()
}

macro_rules! impl_2d {
    ($v:ty, $r:ty) => {
        impl TestDim for $v {
            type S = shape_2d::Shape<$r>;
            const KINDS: usize = 8;
            fn shape(kind: usize, rng: &mut Rng, size: f64) -> Self::S {
                let round = size * rng.range(0.05, 0.2);
                match kind {
                    0 => ball(rng, size).into(),
                    1 => cuboid(rng, size).into(),
                    2 => capsule(rng, size).into(),
                    3 => segment(rng, size).into(),
                    4 => triangle(rng, size).into(),
                    5 => polygon::<$r>(rng, size).into(),
                    6 => Rounded::new(cuboid(rng, 0.7 * size), round as $r)
                        .unwrap()
                        .into(),
                    _ => Rounded::new(polygon::<$r>(rng, 0.7 * size), round as $r)
                        .unwrap()
                        .into(),
                }
            }
            fn kind_name(s: &Self::S) -> &'static str {
                s.kind_name()
            }
            fn cuboid(b: Aabb<Self>) -> Self::S {
                b.into()
            }
            fn capsule_shape(c: Capsule<Self>) -> Self::S {
                c.into()
            }
            fn pose(rng: &mut Rng, half: f64) -> Self::Pose {
                Pose2::new(rand_vec(rng, half), rng.range(-3.2, 3.2) as $r)
            }
        }
    };
}

macro_rules! impl_3d {
    ($v:ty, $r:ty, $q:ty) => {
        impl TestDim for $v {
            type S = shape_3d::Shape<$r>;
            const KINDS: usize = 9;
            fn shape(kind: usize, rng: &mut Rng, size: f64) -> Self::S {
                let round = size * rng.range(0.05, 0.2);
                let (hh, r) = (size * rng.range(0.2, 0.6), size * rng.range(0.2, 0.6));
                match kind {
                    0 => ball(rng, size).into(),
                    1 => cuboid(rng, size).into(),
                    2 => capsule(rng, size).into(),
                    3 => segment(rng, size).into(),
                    4 => triangle(rng, size).into(),
                    5 => polyhedron::<$r>(rng, size).into(),
                    6 => Cylinder::new(hh as $r, r as $r).unwrap().into(),
                    7 => Cone::new(hh as $r, r as $r).unwrap().into(),
                    _ => Rounded::new(cuboid(rng, 0.7 * size), round as $r)
                        .unwrap()
                        .into(),
                }
            }
            fn kind_name(s: &Self::S) -> &'static str {
                s.kind_name()
            }
            fn cuboid(b: Aabb<Self>) -> Self::S {
                b.into()
            }
            fn capsule_shape(c: Capsule<Self>) -> Self::S {
                c.into()
            }
            fn pose(rng: &mut Rng, half: f64) -> Self::Pose {
                let axis = rand_unit(rng);
                let q = <$q>::from_axis_angle(axis, rng.range(-3.2, 3.2) as $r);
                Pose3::new(rand_vec(rng, half), q)
            }
        }
    };
}

impl_2d!(glam::Vec2, f32);
impl_2d!(glam::DVec2, f64);
impl_3d!(glam::Vec3, f32, glam::Quat);
impl_3d!(glam::DVec3, f64, glam::DQuat);
