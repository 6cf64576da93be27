//! Support mappings: the farthest point of a convex shape in a direction, the one
//! primitive GJK, EPA and shape casts need (seed 001; Ericson 9.4.2).

use crate::math::{Real, Vector};
use crate::shape::{Aabb, Ball, Segment, Triangle};

/// A convex shape described by its support function.
pub trait SupportMap<V: Vector> {
    /// A point of the shape, in its local frame, that maximises `p · dir`.
    ///
    /// `dir` need not be unit. For a zero or NaN `dir` any point of the shape is a
    /// valid answer; implementations must still return a finite point of the shape.
    fn local_support(&self, dir: V) -> V;

    /// The radius of the ball this shape's core is grown by: `0` for sharp shapes,
    /// the radius for balls, capsules and [`Rounded`](crate::shape::Rounded) shapes.
    /// GJK and EPA run on the core and add the margin afterwards, which is exact
    /// for a Minkowski sum with a ball and spares them the curved surface.
    #[inline]
    fn margin(&self) -> V::Scalar {
        V::Scalar::ZERO
    }

    /// The support point of the core: the shape shrunk by [`SupportMap::margin`]
    /// (the centre of a ball, the segment of a capsule). Defaults to
    /// [`SupportMap::local_support`] for shapes with no margin.
    #[inline]
    fn local_core_support(&self, dir: V) -> V {
        self.local_support(dir)
    }

    /// The support point in world space for a shape placed at `pose`.
    #[inline]
    fn support(&self, pose: &V::Pose, dir: V) -> V {
        use crate::math::Isometry;
        pose.transform_point(self.local_support(pose.inverse_transform_vector(dir)))
    }
}

/// The vertex of a finite point set farthest along `dir` (first of ties).
///
/// Scans four interleaved lanes so that the comparisons of consecutive points do
/// not wait on each other, then merges the lanes (lowest index on ties).
///
/// # Panics
/// When `points` is empty; every shape that calls it holds at least one vertex.
#[inline]
pub fn support_of_points<V: Vector>(points: &[V], dir: V) -> V {
    let mut best = [0usize; 4];
    let mut best_dot = [V::Scalar::NEG_INFINITY; 4];
    let chunks = points.chunks_exact(4);
    let tail = chunks.remainder();
    for (c, chunk) in chunks.enumerate() {
        for lane in 0..4 {
            let d = chunk[lane].dot(dir);
            if d > best_dot[lane] {
                best_dot[lane] = d;
                best[lane] = 4 * c + lane;
            }
        }
    }
    let base = points.len() - tail.len();
    for (k, p) in tail.iter().enumerate() {
        let d = p.dot(dir);
        if d > best_dot[k] {
            best_dot[k] = d;
            best[k] = base + k;
        }
    }
    // NaN products never win a comparison: fall back to the first point.
    let mut winner = (points.len(), V::Scalar::NEG_INFINITY);
    for lane in 0..4 {
        let better =
            best_dot[lane] > winner.1 || (best_dot[lane] == winner.1 && best[lane] < winner.0);
        if best_dot[lane] > V::Scalar::NEG_INFINITY && better {
            winner = (best[lane], best_dot[lane]);
        }
    }
    points[if winner.0 < points.len() { winner.0 } else { 0 }]
}

impl<V: Vector> SupportMap<V> for Ball<V> {
    #[inline]
    fn local_support(&self, dir: V) -> V {
        match dir.try_normalize() {
            Some(unit) => self.center() + unit * self.radius(),
            None => self.center(),
        }
    }
    #[inline]
    fn margin(&self) -> V::Scalar {
        self.radius()
    }
    #[inline]
    fn local_core_support(&self, _dir: V) -> V {
        self.center()
    }
}

impl<V: Vector> SupportMap<V> for Aabb<V> {
    #[inline]
    fn local_support(&self, dir: V) -> V {
        (0..V::DIM).fold(self.min, |p, i| {
            if dir.get(i) > V::Scalar::ZERO {
                p.with(i, self.max.get(i))
            } else {
                p
            }
        })
    }
}

impl<V: Vector> SupportMap<V> for Segment<V> {
    #[inline]
    fn local_support(&self, dir: V) -> V {
        if self.b.dot(dir) > self.a.dot(dir) {
            self.b
        } else {
            self.a
        }
    }
}

impl<V: Vector> SupportMap<V> for Triangle<V> {
    #[inline]
    fn local_support(&self, dir: V) -> V {
        support_of_points(&self.vertices(), dir)
    }
}

/// A point set laid out for fast support queries: blocks of four points, each block
/// stored coordinate by coordinate (`x₀ x₁ x₂ x₃ y₀ … `), so that one block's four
/// dot products are computed side by side (the compiler turns the lane loops into
/// SIMD multiplies, compares and selects). The last block is padded with copies of
/// the first point, which never win: ties go to the lowest index.
#[derive(Clone, Debug, PartialEq)]
pub struct PointBlocks<V: Vector> {
    coords: Vec<V::Scalar>,
    len: usize,
}

impl<V: Vector> PointBlocks<V> {
    /// The blocks of `points` (an empty set gives no blocks; its support index is 0).
    pub fn new(points: &[V]) -> Self {
        let blocks = points.len().div_ceil(4);
        let mut coords = Vec::with_capacity(blocks * 4 * V::DIM);
        for block in 0..blocks {
            for axis in 0..V::DIM {
                for lane in 0..4 {
                    let p = points.get(4 * block + lane).unwrap_or(&points[0]);
                    coords.push(p.get(axis));
                }
            }
        }
        Self {
            coords,
            len: points.len(),
        }
    }

    /// Number of points (padding excluded).
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the set holds no point.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The index of the point farthest along `dir`, the same point as
    /// [`support_of_points`] (first of ties; 0 when every product is NaN).
    ///
    /// Two passes: the first keeps only the four lanes' maxima (no index
    /// bookkeeping in the loop), the second recomputes the same products in the same
    /// order (so they are bit-identical) and stops at the first equal to the maximum.
    #[inline]
    pub fn support_index(&self, dir: V) -> usize {
        let blocks = self.coords.chunks_exact(4 * V::DIM);
        let mut best = [V::Scalar::NEG_INFINITY; 4];
        for block in blocks.clone() {
            let d = block_dots(block, dir);
            for lane in 0..4 {
                // NaN products never win.
                best[lane] = if d[lane] > best[lane] {
                    d[lane]
                } else {
                    best[lane]
                };
            }
        }
        let top = (1..4).fold(
            best[0],
            |m, lane| if best[lane] > m { best[lane] } else { m },
        );
        // No lane above −∞: every product was NaN (which never wins, so `top` is not).
        if top == V::Scalar::NEG_INFINITY {
            return 0;
        }
        for (k, block) in blocks.enumerate() {
            let d = block_dots(block, dir);
            // All four lanes compared at once (a mask), not one by one.
            let hits = (0..4).fold(0u32, |m, lane| m | (u32::from(d[lane] == top) << lane));
            if hits != 0 {
                let index = 4 * k + hits.trailing_zeros() as usize;
                // Padding copies point 0, which comes first: never reached.
                return if index < self.len { index } else { 0 };
            }
        }
        0
    }
}

/// The four dot products of one block with `dir`, summed in the order of
/// `Vector::dot`, so that they equal it exactly.
#[inline(always)]
fn block_dots<V: Vector>(block: &[V::Scalar], dir: V) -> [V::Scalar; 4] {
    let mut d = [V::Scalar::ZERO; 4];
    for axis in 0..V::DIM {
        let c = dir.get(axis);
        for lane in 0..4 {
            d[lane] += block[4 * axis + lane] * c;
        }
    }
    d
}

/// A convex shape given by a point cloud: the convex hull of its points, without
/// computing the hull (the support function scans every point). Useful for
/// benchmarks and tests of GJK on arbitrary polytopes.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexPoints<V: Vector> {
    points: Vec<V>,
    blocks: PointBlocks<V>,
}

impl<V: Vector> ConvexPoints<V> {
    /// The convex hull of `points` (not computed; duplicates and interior points
    /// are allowed).
    ///
    /// # Errors
    /// [`ShapeError::TooFewPoints`](crate::ShapeError::TooFewPoints) for an empty
    /// list, [`ShapeError::NotFinite`](crate::ShapeError::NotFinite) for a
    /// non-finite point.
    pub fn new(points: Vec<V>) -> Result<Self, crate::ShapeError> {
        if points.is_empty() {
            return Err(crate::ShapeError::TooFewPoints {
                shape: "ConvexPoints",
                needed: 1,
                got: 0,
            });
        }
        for &p in &points {
            crate::shape::error::check_finite("ConvexPoints", "points", p)?;
        }
        let blocks = PointBlocks::new(&points);
        Ok(Self { points, blocks })
    }

    /// The points.
    #[inline]
    pub fn points(&self) -> &[V] {
        &self.points
    }
}

impl<V: Vector> SupportMap<V> for ConvexPoints<V> {
    #[inline]
    fn local_support(&self, dir: V) -> V {
        self.points[self.blocks.support_index(dir)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, DVec3, Vec3};

    /// splitmix64 in [-1, 1), seeded.
    fn uniform(state: &mut u64) -> f64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) as f64 / u64::MAX as f64 * 2.0 - 1.0
    }

    // The blocked scan picks the same point as the plain scan: 1 to 13 points (every
    // padding length), duplicated points (ties go to the first), an axis-aligned
    // direction (many ties on a grid), a zero and a NaN direction (index 0).
    #[test]
    fn blocks_agree_with_plain_scan() {
        let mut state = 7;
        for n in 1..=13 {
            for _ in 0..50 {
                let mut pts: Vec<Vec3> = (0..n)
                    .map(|_| {
                        Vec3::new(0.0, 0.0, 0.0).map(|_| (uniform(&mut state) * 4.0).round() as f32)
                    })
                    .collect();
                if n > 2 {
                    pts[n - 1] = pts[1];
                }
                let blocks = PointBlocks::new(&pts);
                let dirs = [
                    Vec3::new(
                        uniform(&mut state) as f32,
                        uniform(&mut state) as f32,
                        uniform(&mut state) as f32,
                    ),
                    Vec3::X,
                    -Vec3::Y,
                    Vec3::ZERO,
                    Vec3::NAN,
                ];
                for dir in dirs {
                    let i = blocks.support_index(dir);
                    assert_eq!(pts[i], support_of_points(&pts, dir), "n {n} dir {dir}");
                    assert!(i < n);
                }
            }
        }
        assert_eq!(PointBlocks::new(&[Vec3::ONE; 3]).support_index(Vec3::X), 0);
    }

    // f64 and 2D: the farthest of a regular hexagon along each vertex direction is
    // that vertex; a huge (1e6) and a tiny (1e-5) scale change nothing.
    #[test]
    fn blocks_2d_and_f64() {
        for scale in [1e-5, 1.0, 1e6] {
            let hexagon: Vec<DVec2> = (0..6)
                .map(|k| {
                    let a = k as f64 * std::f64::consts::TAU / 6.0;
                    DVec2::new(a.cos(), a.sin()) * scale
                })
                .collect();
            let blocks = PointBlocks::new(&hexagon);
            assert_eq!(blocks.len(), 6);
            for (k, &v) in hexagon.iter().enumerate() {
                assert_eq!(blocks.support_index(v), k);
            }
            let cube: Vec<DVec3> = (0..8)
                .map(|k| DVec3::new((k & 1) as f64, (k >> 1 & 1) as f64, (k >> 2) as f64) * scale)
                .collect();
            let points = ConvexPoints::new(cube).unwrap();
            assert_eq!(
                points.local_support(DVec3::new(1.0, 1.0, 1.0)),
                DVec3::ONE * scale
            );
            assert_eq!(points.local_support(-DVec3::ONE), DVec3::ZERO);
        }
    }
}
