//! [`HeightField`]: a 3D terrain given as a grid of heights over the x/z plane, two
//! triangles a cell, under a [`Bvh`] of its triangles. The layout is parry's: row `i`
//! runs along z, column `j` along x, the grid spans `[−½, ½]·scale` in x and z and a
//! height `h` sits at `y = h·scale.y`; each cell is split along the diagonal from
//! `(i + 1, j)` to `(i, j + 1)`.
//!
//! Ray casts walk the grid cells along the ray (Amanatides and Woo 1987) with the
//! meshes' watertight kernel;
//! closest points the meshes' nearest-triangle search; contact normals the meshes'
//! internal-edge correction ([`trimesh::internal_edges`](super::trimesh::internal_edges)),
//! with neighbours read off the grid. Tolerances: the tree's boxes are padded as the
//! meshes' ([`BOX_PADDING_ULPS`](super::trimesh::BOX_PADDING_ULPS)).

use crate::algo::gjk::GjkVector;
use crate::algo::slab::PreparedRay;
use crate::broad::Bvh;
use crate::math::{Isometry, Pose3, Real, Vector, Vector3};
use crate::query::{PointProjection, ProjectPoint, RayCast};
use crate::shape::composite::Composite;
use crate::shape::error::{check_coord, check_non_negative};
use crate::shape::shape_3d::Shape;
use crate::shape::trimesh::closest::{closest_on_triangle, nearest_item, on_surface};
use crate::shape::trimesh::internal_edges::{classify, correct, correct_at, EdgeInfo, RingVisitor};
use crate::shape::trimesh::ray::ShearedRay;
use crate::shape::trimesh::{box_padding, triangle_box, unit_normal};
use crate::shape::{Aabb, Ray, RayHit, ShapeError, Triangle};

const SHAPE: &str = "HeightField";

/// A heightfield in 3D, generic over the scalar: a surface with no interior.
///
/// Part `2·(i·(ncols − 1) + j) + s` of the [`Composite`] impl is triangle `s ∈ {0, 1}`
/// of cell `(i, j)`: triangle 0 has corners `(i, j), (i + 1, j), (i, j + 1)`, triangle 1
/// `(i + 1, j), (i + 1, j + 1), (i, j + 1)`; both face up (+y) for a positive scale.
///
/// Edge behaviour: the surface is two-sided (rays hit from below too, the normal
/// facing the ray); no point is inside it (`contains_local_point` is `false`, and
/// `is_inside` of a projection is true only on the surface); "below the ground" is left
/// to the caller. Equal heights give a flat, exact plane.
#[derive(Clone, Debug)]
pub struct HeightField<R: Real> {
    heights: Vec<R>,
    nrows: usize,
    ncols: usize,
    scale: R::V3,
    /// The x of each column and the z of each row (computed once: the ray kernel
    /// builds triangles on the fly).
    xs: Vec<R>,
    zs: Vec<R>,
    bvh: Bvh<R::V3>,
    aabb: Aabb<R::V3>,
    /// The padding of the tree's boxes, also used by the grid walk's culling.
    pad: R,
}

impl<R: Real> HeightField<R> {
    /// The heightfield over `nrows × ncols` grid points, `heights` in row-major order
    /// (`heights[i·ncols + j]` at row `i` (z), column `j` (x)), scaled by `scale`.
    ///
    /// # Errors
    /// - [`ShapeError::OutOfRange`]: `nrows` or `ncols` below 2, `heights.len()` not
    ///   `nrows·ncols`, or 2³⁰ cells or more.
    /// - [`ShapeError::NotFiniteAt`]: `heights[i]` is NaN or infinite, or
    ///   `heights[i] · scale.y` overflows to infinity.
    /// - [`ShapeError::TooLarge`]: a component of `scale` or a scaled height beyond
    ///   [`Real::MAX_COORD`].
    /// - [`ShapeError::NotFinite`] / [`ShapeError::Negative`] /
    ///   [`ShapeError::OutOfRange`]: a component of `scale` is not finite, negative, or
    ///   zero.
    pub fn new(
        heights: Vec<R>,
        nrows: usize,
        ncols: usize,
        scale: R::V3,
    ) -> Result<Self, ShapeError> {
        check_grid(heights.len(), nrows, ncols)?;
        if let Some(index) = heights.iter().position(|h| !h.is_finite()) {
            return Err(ShapeError::NotFiniteAt {
                shape: SHAPE,
                field: "heights",
                index,
            });
        }
        check_scale(scale)?;
        // The scaled height must be finite too: a finite height times a finite
        // `scale.y` can overflow to infinity.
        let sy = scale.get(1);
        if let Some(index) = heights.iter().position(|&h| !(h * sy).is_finite()) {
            return Err(ShapeError::NotFiniteAt {
                shape: SHAPE,
                field: "heights",
                index,
            });
        }
        if let Some(index) = heights.iter().position(|&h| (h * sy).abs() > R::MAX_COORD) {
            return Err(ShapeError::TooLarge {
                shape: SHAPE,
                field: "heights · scale.y",
                index: Some(index),
                value: (heights[index] * sy).abs().to_f64(),
                limit: R::MAX_COORD.to_f64(),
            });
        }
        let coords = |n: usize, s: R| -> Vec<R> {
            (0..n)
                .map(|k| R::from_f64(k as f64 / (n - 1) as f64 - 0.5) * s)
                .collect()
        };
        let mut field = Self {
            heights,
            nrows,
            ncols,
            xs: coords(ncols, scale.get(0)),
            zs: coords(nrows, scale.get(2)),
            scale,
            bvh: Bvh::default(),
            aabb: Aabb {
                min: R::V3::ZERO,
                max: R::V3::ZERO,
            },
            pad: R::ZERO,
        };
        let boxes: Vec<Aabb<R::V3>> = (0..field.part_count_inner())
            .map(|i| triangle_box(&field.corners(i)))
            .collect();
        field.aabb = boxes.iter().skip(1).fold(boxes[0], |a, b| a.merged(b));
        field.pad = box_padding(&boxes);
        let padded: Vec<_> = boxes.iter().map(|b| b.loosened(field.pad)).collect();
        field.bvh = Bvh::build(&padded);
        Ok(field)
    }

    /// Grid points along z.
    pub fn nrows(&self) -> usize {
        self.nrows
    }

    /// Grid points along x.
    pub fn ncols(&self) -> usize {
        self.ncols
    }

    /// The heights, row-major.
    pub fn heights(&self) -> &[R] {
        &self.heights
    }

    /// The scale.
    pub fn scale(&self) -> R::V3 {
        self.scale
    }

    /// The box around the surface.
    pub fn aabb(&self) -> Aabb<R::V3> {
        self.aabb
    }

    /// Number of triangles, `2·(nrows − 1)·(ncols − 1)`.
    pub fn triangle_count(&self) -> usize {
        self.part_count_inner()
    }

    /// Triangle `i` (see the type's docs), or `None` past the end.
    pub fn triangle(&self, i: usize) -> Option<Triangle<R::V3>> {
        (i < self.part_count_inner()).then(|| {
            let [a, b, c] = self.corners(i);
            Triangle { a, b, c }
        })
    }

    /// The grid point at row `i`, column `j` (both in range).
    fn point(&self, i: usize, j: usize) -> R::V3 {
        R::V3::new(
            self.xs[j],
            self.heights[i * self.ncols + j] * self.scale.get(1),
            self.zs[i],
        )
    }

    fn part_count_inner(&self) -> usize {
        2 * (self.nrows - 1) * (self.ncols - 1)
    }

    /// Cell `(i, j)` and side of triangle `t`.
    fn cell(&self, t: usize) -> (usize, usize, usize) {
        let c = t / 2;
        (c / (self.ncols - 1), c % (self.ncols - 1), t % 2)
    }

    /// The corners of triangle `t` (in range).
    fn corners(&self, t: usize) -> [R::V3; 3] {
        let (i, j, s) = self.cell(t);
        if s == 0 {
            [self.point(i, j), self.point(i + 1, j), self.point(i, j + 1)]
        } else {
            [
                self.point(i + 1, j),
                self.point(i + 1, j + 1),
                self.point(i, j + 1),
            ]
        }
    }

    /// The apex (vertex off the shared edge) of the triangle across edge `k` of
    /// triangle `t`, with that triangle's corners; `None` at the border.
    fn across(&self, t: usize, k: usize) -> Option<([R::V3; 3], R::V3)> {
        let (i, j, s) = self.cell(t);
        let (rows, cols) = (self.nrows - 1, self.ncols - 1);
        // (cell row, cell column, side, apex row, apex column) of the neighbour.
        let (ci, cj, cs, ai, aj) = match (s, k) {
            (0, 0) if j > 0 => (i, j - 1, 1, i + 1, j - 1),
            (0, 1) => (i, j, 1, i + 1, j + 1),
            (0, 2) if i > 0 => (i - 1, j, 1, i - 1, j + 1),
            (1, 0) if i + 1 < rows => (i + 1, j, 0, i + 2, j),
            (1, 1) if j + 1 < cols => (i, j + 1, 0, i, j + 2),
            (1, 2) => (i, j, 0, i, j),
            _ => return None,
        };
        Some((self.corners(2 * (ci * cols + cj) + cs), self.point(ai, aj)))
    }

    /// The three edges of triangle `t` (in range, corners `c`) as the normal
    /// correction needs them.
    fn edge_infos(&self, t: usize, c: &[R::V3; 3]) -> [EdgeInfo<R::V3>; 3] {
        let n = unit_normal(c);
        core::array::from_fn(|k| match self.across(t, k) {
            Some((other, apex)) => {
                let nn = unit_normal(&other);
                EdgeInfo {
                    bend: classify(n, c[k], nn, apex),
                    neighbour_normal: nn,
                    neighbour_apex: apex,
                }
            }
            None => EdgeInfo::OPEN,
        })
    }

    /// The grid point (row, column) of corner `k` of triangle `t` (in range).
    fn grid_point_of(&self, t: usize, k: usize) -> (usize, usize) {
        let (i, j, s) = self.cell(t);
        match (s, k) {
            (0, 0) => (i, j),
            (0, 1) | (1, 0) => (i + 1, j),
            (1, 1) => (i + 1, j + 1),
            _ => (i, j + 1),
        }
    }

    /// Calls `f` with the corners of every triangle using grid point `(vi, vj)`.
    fn for_each_triangle_at(&self, vi: usize, vj: usize, mut f: impl FnMut([R::V3; 3])) {
        let cols = self.ncols - 1;
        let p = self.point(vi, vj);
        for ci in vi.saturating_sub(1)..(vi + 1).min(self.nrows - 1) {
            for cj in vj.saturating_sub(1)..(vj + 1).min(cols) {
                for s in 0..2 {
                    let tri = self.corners(2 * (ci * cols + cj) + s);
                    if tri.contains(&p) {
                        f(tri);
                    }
                }
            }
        }
    }

    /// The nearest triangle, its closest point and the squared distance.
    fn nearest(&self, p: R::V3) -> Option<(R::V3, R)> {
        let (i, d2) = nearest_item(&self.bvh, p, |item| {
            closest_on_triangle(&self.corners(item as usize), p)
                .0
                .distance_squared(p)
        })?;
        Some((closest_on_triangle(&self.corners(i as usize), p).0, d2))
    }
}

/// At least 2 × 2 points, `len = nrows·ncols`, fewer than 2³⁰ cells (the tree's
/// item indices stay below 2³¹ − 1).
fn check_grid(len: usize, nrows: usize, ncols: usize) -> Result<(), ShapeError> {
    let range = |field, value: usize, range| ShapeError::OutOfRange {
        shape: SHAPE,
        field,
        value: value as f64,
        range,
    };
    if nrows < 2 {
        return Err(range("nrows", nrows, "[2, ∞)"));
    }
    if ncols < 2 {
        return Err(range("ncols", ncols, "[2, ∞)"));
    }
    let cells = (nrows - 1).checked_mul(ncols - 1).filter(|&c| c < 1 << 30);
    if cells.is_none() {
        return Err(range(
            "nrows·ncols",
            nrows.saturating_mul(ncols),
            "fewer than 2³⁰ cells",
        ));
    }
    if Some(len) != nrows.checked_mul(ncols) {
        return Err(range("heights.len()", len, "nrows·ncols"));
    }
    Ok(())
}

/// Every component of `scale` finite and positive.
fn check_scale<V: Vector>(scale: V) -> Result<(), ShapeError> {
    check_coord(SHAPE, "scale", scale)?;
    for axis in 0..V::DIM {
        let s = check_non_negative(SHAPE, "scale", scale.get(axis))?;
        if s == V::Scalar::ZERO {
            return Err(ShapeError::OutOfRange {
                shape: SHAPE,
                field: "scale",
                value: 0.0,
                range: "(0, ∞) on every axis",
            });
        }
    }
    Ok(())
}

impl<R: Real> Composite<R::V3> for HeightField<R>
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    type Part = Shape<R>;

    fn bvh(&self) -> &Bvh<R::V3> {
        &self.bvh
    }

    fn part_count(&self) -> usize {
        self.part_count_inner()
    }

    fn two_sided(&self) -> bool {
        true
    }

    /// The triangles of the grid cells under `region` (its x and z ranges, grown by
    /// the tree's padding) whose height range meets the region's: found by index
    /// arithmetic on the grid, without the tree. Nothing for a NaN region.
    /// (`scale.y > 0`, checked at construction, keeps `min · scale.y` the minimum.)
    fn for_each_part_in(&self, region: &Aabb<R::V3>, mut f: impl FnMut(u32) -> bool) {
        let pad = R::V3::splat(self.pad);
        let (lo, hi) = (region.min - pad, region.max + pad);
        let (Some(rows), Some(cols)) = (
            cell_span(&self.zs, lo.get(2), hi.get(2)),
            cell_span(&self.xs, lo.get(0), hi.get(0)),
        ) else {
            return;
        };
        let (width, k) = (self.ncols - 1, self.scale.get(1));
        for i in rows {
            for j in cols.clone() {
                // The cell's height range (both triangles share its four corners).
                let at = i * self.ncols + j;
                let (a, b) = (self.heights[at], self.heights[at + 1]);
                let (c, d) = (
                    self.heights[at + self.ncols],
                    self.heights[at + self.ncols + 1],
                );
                let below = a.min(b).min(c.min(d)) * k;
                let above = a.max(b).max(c.max(d)) * k;
                if above < lo.get(1) || below > hi.get(1) {
                    continue;
                }
                let t = (2 * (i * width + j)) as u32;
                if !(f(t) && f(t + 1)) {
                    return;
                }
            }
        }
    }

    /// # Panics
    /// When `i` is not below [`part_count`](Composite::part_count).
    /// The triangle [`cast_ray_cell`](HeightField::cast_ray_cell) meets at `t`: the
    /// one whose normal the hit carries, also at a tie on a shared edge or vertex
    /// (the default's lowest index could name the other triangle).
    fn part_of_hit(&self, ray: &Ray<R::V3>, t: R, _solid: bool) -> Option<u32> {
        crate::query::composite::part_of_own_hit(ray, t, |max_t| {
            self.cast_ray_cell(ray, max_t)
                .map(|(i, hit_t)| (i as u32, hit_t))
        })
    }

    /// The surface cast ([`RayCast::cast_ray`]): a heightfield is its surface, and
    /// one walk answers the hit, its normal and its part.
    fn cast_ray_boundary(&self, ray: &Ray<R::V3>, max_t: R) -> Option<RayHit<R::V3>> {
        RayCast::cast_ray(self, ray, max_t)
    }

    fn with_part<T>(&self, i: u32, f: impl FnOnce(&Pose3<R>, &Shape<R>) -> T) -> T {
        let [a, b, c] = self.corners(i as usize);
        f(
            &Pose3::<R>::IDENTITY,
            &Shape::Triangle(Triangle { a, b, c }),
        )
    }

    /// Internal-edge correction: every edge inside the grid has a neighbour, so a
    /// normal leaning over a flat or concave edge or vertex becomes the face normal;
    /// border edges are real edges. `i` past the end keeps the normal.
    fn correct_normal(&self, i: u32, normal: R::V3) -> R::V3 {
        let i = i as usize;
        if i >= self.part_count_inner() {
            return normal;
        }
        let t = self.corners(i);
        let edges = self.edge_infos(i, &t);
        correct(&t, unit_normal(&t), &edges, [R::V3::ZERO; 3], normal)
    }

    /// The correction at a known contact point (see
    /// [`correct_at`](crate::shape::trimesh::internal_edges)): at a grid point, the
    /// (up to six) triangles using it decide. `i` past the end keeps the normal.
    fn correct_normal_at(&self, i: u32, point: R::V3, normal: R::V3) -> R::V3 {
        let i = i as usize;
        if i >= self.part_count_inner() {
            return normal;
        }
        let t = self.corners(i);
        let edges = self.edge_infos(i, &t);
        let ring = |k: usize, f: RingVisitor<'_, R::V3>| {
            let (vi, vj) = self.grid_point_of(i, k);
            self.for_each_triangle_at(vi, vj, |tri| f(&tri, unit_normal(&tri)));
        };
        correct_at(&t, unit_normal(&t), &edges, point, normal, ring)
    }
}

impl<R: Real> RayCast<R::V3> for HeightField<R> {
    /// The closest hit, from above or below (the normal faces the ray), by a walk of
    /// the grid cells the ray crosses (see [`HeightField::cast_ray_cell`]). Edges and
    /// vertices hit (watertight); a ray in a triangle's plane or with a zero direction
    /// misses it. NaN or infinite rays and NaN or negative `max_t` miss.
    fn cast_ray(&self, ray: &Ray<R::V3>, max_t: R) -> Option<RayHit<R::V3>> {
        // `max_t >= 0` is false for NaN too.
        let valid = ray.is_finite() && max_t >= R::ZERO;
        if !valid {
            return None;
        }
        let (i, t) = self.cast_ray_cell(ray, max_t)?;
        let n = unit_normal(&self.corners(i));
        Some(RayHit {
            t,
            point: ray.point_at(t),
            normal: if n.dot(ray.dir) > R::ZERO { -n } else { n },
        })
    }
}

/// One axis (x or z) of the grid walk: the current cell, the step (−1, 0, +1) and
/// the `t` at which the ray crosses the next grid line.
struct Walk<R> {
    cell: usize,
    step: isize,
    t_next: R,
}

impl<R: Real> Walk<R> {
    /// The walk along grid lines `lines` (increasing) of a ray with origin `o` and
    /// direction `d` on this axis, starting at coordinate `start`; `pad` is the
    /// distance within which a start counts as on a grid line.
    fn new(lines: &[R], o: R, d: R, start: R, pad: R) -> Self {
        let step = if d > R::ZERO {
            1
        } else if d < R::ZERO {
            -1
        } else {
            0
        };
        let mut walk = Self {
            cell: start_cell(lines, start, step, pad),
            step,
            t_next: R::INFINITY,
        };
        walk.t_next = walk.next_crossing(lines, o, d);
        walk
    }

    /// `t` of the crossing of the current cell's far line (`∞` when not moving).
    fn next_crossing(&self, lines: &[R], o: R, d: R) -> R {
        match self.step {
            1 => (lines[self.cell + 1] - o) / d,
            -1 => (lines[self.cell] - o) / d,
            _ => R::INFINITY,
        }
    }

    /// Moves to the next cell; false when it leaves the grid.
    fn advance(&mut self, lines: &[R], o: R, d: R) -> bool {
        let next = self.cell as isize + self.step;
        if next < 0 || next as usize + 1 >= lines.len() {
            return false;
        }
        self.cell = next as usize;
        self.t_next = self.next_crossing(lines, o, d);
        true
    }
}

/// The cells of `lines` that meet `[lo, hi]` (closed: a cell touching it counts),
/// placed exactly against the stored lines after a rounded division; `None` when
/// the range misses the grid or holds NaN.
fn cell_span<R: Real>(lines: &[R], lo: R, hi: R) -> Option<core::ops::Range<usize>> {
    let cells = lines.len() - 1;
    if !(lo <= lines[cells] && hi >= lines[0] && lo <= hi) {
        return None;
    }
    let width = (lines[cells] - lines[0]) / R::from_f64(cells as f64);
    let guess = |x: R| {
        let at = ((x - lines[0]) / width).to_f64().floor();
        at.clamp(0.0, (cells - 1) as f64) as usize
    };
    let mut first = guess(lo);
    while first > 0 && lo <= lines[first] {
        first -= 1;
    }
    while first + 1 < cells && lo > lines[first + 1] {
        first += 1;
    }
    let mut last = guess(hi).max(first);
    while last + 1 < cells && hi >= lines[last + 1] {
        last += 1;
    }
    while last > first && hi < lines[last] {
        last -= 1;
    }
    Some(first..last + 1)
}

/// The cell of `lines` holding `start`. The division rounds, so the cell is then
/// placed exactly against the stored lines; a moving walk starting within `pad` of
/// the line behind it begins one cell back, so that a rounded entry point never skips
/// the cell the ray enters first.
fn start_cell<R: Real>(lines: &[R], start: R, step: isize, pad: R) -> usize {
    let cells = lines.len() - 1;
    let width = (lines[cells] - lines[0]) / R::from_f64(cells as f64);
    let at = ((start - lines[0]) / width).to_f64().floor();
    // The input is finite; the clamp keeps rounding inside the grid.
    let mut cell = at.clamp(0.0, (cells - 1) as f64) as usize;
    while cell > 0 && start < lines[cell] {
        cell -= 1;
    }
    while cell + 1 < cells && start > lines[cell + 1] {
        cell += 1;
    }
    if step > 0 && cell > 0 && start - lines[cell] <= pad {
        cell -= 1;
    } else if step < 0 && cell + 1 < cells && lines[cell + 1] - start <= pad {
        cell += 1;
    }
    cell
}

impl<R: Real> HeightField<R> {
    /// The closest hit `(triangle, t)` by a grid walk (Amanatides and Woo, "A fast
    /// voxel traversal algorithm for ray tracing", 1987, in the x/z plane): the ray is
    /// clipped to the field's box, then the cells it crosses are visited in order of
    /// `t`; a cell whose height range the ray's height over the cell misses is skipped,
    /// and the first cell with a hit holds the closest one (a triangle lies in its
    /// cell's column). At most `nrows + ncols + 2` cells are visited. A zero
    /// direction, a NaN or infinite ray, and a NaN or negative `max_t` find nothing.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A flat 3 × 3 field at height 2 over a 10 × 10 square: a ray falling from
    /// // y = 10 meets it at t = 8.
    /// let field = HeightField::new(vec![1.0; 9], 3, 3, Vec3::new(10.0, 2.0, 10.0))?;
    /// let (triangle, t) = field.cast_ray_cell(&Ray::new(Vec3::new(1.0, 10.0, 1.0), -Vec3::Y)?, 100.0).unwrap();
    /// assert!(triangle < field.triangle_count());
    /// assert!((t - 8.0).abs() < 1e-5);
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_ray_cell(&self, ray: &Ray<R::V3>, max_t: R) -> Option<(usize, R)> {
        let sheared = ShearedRay::new(ray)?;
        if self.cells_within_padding() {
            return self.cast_ray_tree(&sheared, ray, max_t);
        }
        let (t0, t1) = PreparedRay::new(ray, max_t).interval(&self.aabb.loosened(self.pad))?;
        let (o, d) = (ray.origin, ray.dir);
        let start = ray.point_at(t0);
        let mut x = Walk::new(&self.xs, o.get(0), d.get(0), start.get(0), self.pad);
        let mut z = Walk::new(&self.zs, o.get(2), d.get(2), start.get(2), self.pad);
        let mut t_in = t0;
        for _ in 0..self.nrows + self.ncols + 2 {
            let t_out = x.t_next.min(z.t_next).min(t1);
            if self.ray_may_meet_cell(z.cell, x.cell, o.get(1), d.get(1), t_in, t_out) {
                if let Some(hit) = self.hit_in_cell(&sheared, z.cell, x.cell, max_t) {
                    return Some(hit);
                }
            }
            if t_out >= t1 {
                return None;
            }
            // Cross the nearer grid line (both at a grid vertex).
            let (step_x, step_z) = (x.t_next <= z.t_next, z.t_next <= x.t_next);
            if step_x && !x.advance(&self.xs, o.get(0), d.get(0)) {
                return None;
            }
            if step_z && !z.advance(&self.zs, o.get(2), d.get(2)) {
                return None;
            }
            t_in = t_out;
        }
        None
    }

    /// Whether a cell is narrower (in x or z) than twice the boxes' padding: the walk
    /// then cannot tell which cells a ray passes within the padding of (it steps back
    /// at most one cell), so the tree of padded triangle boxes, which culls exactly as
    /// a [`TriMesh`](crate::shape::TriMesh) does, answers instead.
    fn cells_within_padding(&self) -> bool {
        let width = |lines: &[R]| lines[1] - lines[0];
        width(&self.xs).min(width(&self.zs)) <= self.pad + self.pad
    }

    /// The closest hit through the tree of padded triangle boxes.
    fn cast_ray_tree(
        &self,
        sheared: &ShearedRay<R::V3>,
        ray: &Ray<R::V3>,
        max_t: R,
    ) -> Option<(usize, R)> {
        let (i, t) = self.bvh.cast_ray(ray, max_t, |item, _| {
            sheared
                .hit(&self.corners(item as usize))
                .filter(|&h| h <= max_t)
        })?;
        Some((i as usize, t))
    }

    /// False when the ray's height over `[t_in, t_out]` stays above or below every
    /// corner of cell `(i, j)` (with the boxes' padding).
    fn ray_may_meet_cell(&self, i: usize, j: usize, oy: R, dy: R, t_in: R, t_out: R) -> bool {
        let (ya, yb) = (oy + dy * t_in, oy + dy * t_out);
        let h = |i: usize, j: usize| self.heights[i * self.ncols + j];
        let corners = [h(i, j), h(i + 1, j), h(i, j + 1), h(i + 1, j + 1)];
        let lo = corners.iter().copied().fold(R::INFINITY, R::min) * self.scale.get(1);
        let hi = corners.iter().copied().fold(R::NEG_INFINITY, R::max) * self.scale.get(1);
        ya.max(yb) >= lo - self.pad && ya.min(yb) <= hi + self.pad
    }

    /// The nearer hit on the two triangles of cell `(i, j)` within `max_t`.
    fn hit_in_cell(
        &self,
        ray: &ShearedRay<R::V3>,
        i: usize,
        j: usize,
        max_t: R,
    ) -> Option<(usize, R)> {
        let first = 2 * (i * (self.ncols - 1) + j);
        let mut best: Option<(usize, R)> = None;
        for t in [first, first + 1] {
            if let Some(hit) = ray.hit(&self.corners(t)).filter(|&h| h <= max_t) {
                if best.is_none_or(|(_, b)| hit < b) {
                    best = Some((t, hit));
                }
            }
        }
        best
    }
}

impl<R: Real> ProjectPoint<R::V3> for HeightField<R> {
    /// The closest point of the surface; `is_inside` only for points on it (within
    /// [`ON_SURFACE_ULPS`](super::trimesh::closest::ON_SURFACE_ULPS); a
    /// heightfield has no interior, whatever `solid` says). NaN gives
    /// [`PointProjection::nan`].
    fn project_local_point(&self, p: R::V3, _solid: bool) -> PointProjection<R::V3> {
        match self.nearest(p) {
            Some((q, _)) => PointProjection {
                point: q,
                is_inside: on_surface(p, q),
            },
            None => PointProjection::nan(),
        }
    }
}
