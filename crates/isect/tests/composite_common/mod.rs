//! Helpers of the composite tests: the composite-capable side of each vector type
//! (its `AnyShape`, compounds of random parts) and a test-only composite, a flat
//! soup of triangles (3D) or segments (2D) whose `correct_normal` returns the face
//! normal, for the internal-edge tests.
#![allow(dead_code)]

use super::world_common::{s, Rng, TestDim};
use isect::broad::Bvh;
use isect::math::{Isometry, Real, Vector};
use isect::query::composite::ConvexPart;
use isect::query::dispatch::DispatchShape;
use isect::shape::{shape_2d, shape_3d, Aabb, Composite, Compound, Segment, Triangle};

/// A vector type with its `AnyShape` and flat surfaces for the edge tests.
pub trait CompositeDim: TestDim
where
    Self::S: ConvexPart<Self>,
{
    /// The enum of convex and composite kinds.
    type Any: DispatchShape<Self>
        + From<Self::S>
        + From<Compound<Self, Self::S>>
        + std::fmt::Debug
        + Send
        + Sync;
    /// A flat strip (2D: segments along x at y = 0) or grid (3D: triangles in z = 0)
    /// of `n` (× `n`) cells of side `cell`, starting at the origin.
    fn flat_parts(n: usize, cell: f64) -> Vec<Self::S>;
}

/// The unit vector of the last axis (y in 2D, z in 3D): the flat surfaces' normal.
pub fn up<V: Vector>() -> V {
    V::unit_axis(V::DIM - 1)
}

fn v2<V: Vector>(x: f64, y: f64) -> V {
    V::ZERO.with(0, s::<V>(x)).with(1, s::<V>(y))
}

macro_rules! impl_2d {
    ($v:ty, $r:ty) => {
        impl CompositeDim for $v {
            type Any = shape_2d::AnyShape<$r>;
            fn flat_parts(n: usize, cell: f64) -> Vec<Self::S> {
                (0..n)
                    .map(|i| {
                        let (a, b) = (i as f64 * cell, (i + 1) as f64 * cell);
                        Segment::new(v2::<$v>(a, 0.0), v2::<$v>(b, 0.0))
                            .unwrap()
                            .into()
                    })
                    .collect()
            }
        }
    };
}

macro_rules! impl_3d {
    ($v:ty, $r:ty) => {
        impl CompositeDim for $v {
            type Any = shape_3d::AnyShape<$r>;
            fn flat_parts(n: usize, cell: f64) -> Vec<Self::S> {
                let p = |i: usize, j: usize| {
                    <$v>::new((i as f64 * cell) as $r, (j as f64 * cell) as $r, 0.0)
                };
                let mut out = Vec::new();
                for i in 0..n {
                    for j in 0..n {
                        let (a, b, c, d) = (p(i, j), p(i + 1, j), p(i + 1, j + 1), p(i, j + 1));
                        out.push(Triangle::new(a, b, c).unwrap().into());
                        out.push(Triangle::new(a, c, d).unwrap().into());
                    }
                }
                out
            }
        }
    };
}

impl_2d!(glam::Vec2, f32);
impl_2d!(glam::DVec2, f64);
impl_3d!(glam::Vec3, f32);
impl_3d!(glam::DVec3, f64);

/// A random compound of `parts` random convex parts about `size` across each,
/// placed within `spread` of its origin.
pub fn random_compound<V: CompositeDim>(
    rng: &mut Rng,
    parts: usize,
    size: f64,
    spread: f64,
) -> Compound<V, V::S>
where
    V::S: ConvexPart<V>,
{
    let list = (0..parts)
        .map(|_| {
            let kind = rng.below(V::KINDS);
            (V::pose(rng, spread), V::shape(kind, rng, size))
        })
        .collect();
    Compound::new(list).unwrap()
}

/// Convex parts with the identity pose (a mesh-like soup); `up`, when set, is the
/// face normal `correct_normal` returns (on the side of the normal it is given).
pub struct Soup<V: Vector, P> {
    pub parts: Vec<P>,
    pub bvh: Bvh<V>,
    pub up: Option<V>,
}

impl<V: TestDim, P: DispatchShape<V>> Soup<V, P> {
    pub fn new(parts: Vec<P>, up: Option<V>) -> Self {
        let id = V::Pose::IDENTITY;
        let boxes: Vec<Aabb<V>> = parts.iter().map(|p| p.world_aabb(&id)).collect();
        Self {
            bvh: Bvh::build(&boxes),
            parts,
            up,
        }
    }
}

impl<V: TestDim, P: DispatchShape<V>> Composite<V> for Soup<V, P> {
    type Part = P;
    fn bvh(&self) -> &Bvh<V> {
        &self.bvh
    }
    fn part_count(&self) -> usize {
        self.parts.len()
    }
    fn with_part<T>(&self, i: u32, f: impl FnOnce(&V::Pose, &P) -> T) -> T {
        f(&V::Pose::IDENTITY, &self.parts[i as usize])
    }
    fn correct_normal(&self, _i: u32, normal: V) -> V {
        match self.up {
            Some(up) if normal.dot(up) >= V::Scalar::ZERO => up,
            Some(up) => -up,
            None => normal,
        }
    }
}
