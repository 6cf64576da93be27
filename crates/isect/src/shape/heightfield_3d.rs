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
//! meshes' ([`BOX_PADDING_ULPS`](super::trimesh::BOX_PADDING_ULPS)), and the grid walk
//! visits every cell grown by that padding that the ray passes over (so the four
//! cells around a grid point it crosses), ending past the best hit by the slab
//! test's tolerance ([`SLAB_EXIT_ULPS`](crate::algo::slab::SLAB_EXIT_ULPS)).

use crate::algo::gjk::GjkVector;
use crate::algo::slab::{widen, PreparedRay};
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

/// One axis (x or z) of the grid walk: its grid lines, the direction of travel
/// (`step`: −1, 0, +1), the ray's origin and inverse direction on it, and the boxes'
/// padding signed as the travel (`spad`).
#[derive(Copy, Clone)]
struct Axis<'a, R> {
    lines: &'a [R],
    step: isize,
    o: R,
    inv: R,
    spad: R,
}

impl<'a, R: Real> Axis<'a, R> {
    fn new(lines: &'a [R], o: R, d: R, pad: R) -> Self {
        let step = if d > R::ZERO {
            1
        } else if d < R::ZERO {
            -1
        } else {
            0
        };
        Self {
            lines,
            step,
            o,
            inv: d.recip(),
            spad: if step < 0 { -pad } else { pad },
        }
    }

    /// The number of cells.
    fn cells(&self) -> usize {
        self.lines.len() - 1
    }

    /// `t` at which the ray comes within the padding of cell `k` on this axis (a
    /// moving axis): it crosses the cell's near line less the padding.
    #[inline(always)]
    fn enter(&self, k: usize) -> R {
        let near = self.lines[k + usize::from(self.step < 0)];
        (near - self.spad - self.o) * self.inv
    }

    /// `t` at which the ray leaves cell `k` grown by the padding on this axis (a
    /// moving axis): it crosses the cell's far line plus the padding.
    #[inline(always)]
    fn leave(&self, k: usize) -> R {
        let far = self.lines[k + usize::from(self.step > 0)];
        (far + self.spad - self.o) * self.inv
    }

    /// The cell after `k` in the direction of travel, if any.
    #[inline(always)]
    fn after(&self, k: usize) -> Option<usize> {
        let next = k.wrapping_add_signed(self.step);
        (self.step != 0 && next < self.cells()).then_some(next)
    }
}

/// The walk's state on one axis: the cells whose span grown by the padding holds the
/// ray's coordinate. That is `cell` (the last one the ray came to), which it leaves
/// at `t_out`, and `behind` (the one before it) until `t_behind`, while the ray is
/// within the padding of the line between them (`t_behind = −∞` when there is no
/// such cell; `+∞` for a still ray starting there); `t_ahead` is when the ray comes
/// within the padding of the next cell (`+∞`: none). Cells narrower than twice the
/// padding are not walked, so at most two cells hold the coordinate.
struct Band<R> {
    cell: usize,
    t_out: R,
    behind: usize,
    t_behind: R,
    t_ahead: R,
}

impl<R: Real> Band<R> {
    /// The band of the ray's coordinate `start` (the ray's start in the field's box).
    fn new(axis: &Axis<'_, R>, start: R) -> Self {
        let pad = axis.spad.abs();
        let c = cell_of(axis.lines, start);
        let lo = if c > 0 && start - axis.lines[c] <= pad {
            c - 1
        } else {
            c
        };
        let hi = if c + 1 < axis.cells() && axis.lines[c + 1] - start <= pad {
            c + 1
        } else {
            c
        };
        let (cell, behind) = if axis.step > 0 { (hi, lo) } else { (lo, hi) };
        let leave = |k| {
            if axis.step == 0 {
                R::INFINITY
            } else {
                axis.leave(k)
            }
        };
        Self {
            cell,
            t_out: leave(cell),
            behind,
            t_behind: if lo == hi {
                R::NEG_INFINITY
            } else {
                leave(behind)
            },
            t_ahead: axis.after(cell).map_or(R::INFINITY, |k| axis.enter(k)),
        }
    }

    /// Moves to the cell ahead (`t_ahead` is finite), returning it and the `t` at
    /// which the ray leaves it.
    #[inline(always)]
    fn advance(&mut self, axis: &Axis<'_, R>) -> (usize, R) {
        let next = self.cell.wrapping_add_signed(axis.step);
        self.behind = self.cell;
        self.t_behind = self.t_out;
        self.cell = next;
        self.t_out = axis.leave(next);
        self.t_ahead = axis.after(next).map_or(R::INFINITY, |k| axis.enter(k));
        (next, self.t_out)
    }

    /// Whether `behind` still holds the ray's coordinate at `t` (at or after the
    /// last advance).
    #[inline(always)]
    fn behind_at(&self, t: R) -> bool {
        t <= self.t_behind
    }
}

/// The lesser of two `t`s that are never NaN (one compare, not `min`'s NaN rule).
#[inline(always)]
fn lesser<R: Real>(a: R, b: R) -> R {
    if b < a {
        b
    } else {
        a
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

/// The cell of `lines` holding `x` (the first or last cell for an `x` beyond them).
/// The division rounds, so the cell is then placed exactly against the stored lines.
fn cell_of<R: Real>(lines: &[R], x: R) -> usize {
    let cells = lines.len() - 1;
    let width = (lines[cells] - lines[0]) / R::from_f64(cells as f64);
    let at = ((x - lines[0]) / width).to_f64().floor();
    // The input is finite; the clamp keeps rounding inside the grid.
    let mut cell = at.clamp(0.0, (cells - 1) as f64) as usize;
    while cell > 0 && x < lines[cell] {
        cell -= 1;
    }
    while cell + 1 < cells && x > lines[cell + 1] {
        cell += 1;
    }
    cell
}

impl<R: Real> HeightField<R> {
    /// The closest hit `(triangle, t)` by a grid walk (Amanatides and Woo, "A fast
    /// voxel traversal algorithm for ray tracing", 1987, in the x/z plane): the ray is
    /// clipped to the field's padded box, then every cell whose footprint, grown by
    /// the boxes' padding, the ray passes over is visited, in the order the ray
    /// reaches them; a cell whose height range (with the padding) the ray's height
    /// there misses is skipped. The cells are the tree's padded triangle boxes two by
    /// two, so the walk tests every triangle a [`TriMesh`](crate::shape::TriMesh) of
    /// the same triangles would: at a grid point the ray crosses, all four cells
    /// around it (the watertight kernel gives the point to one of their triangles,
    /// whichever way the walk would step), and at `max_t` the cells behind an edge
    /// there. The walk ends once the next cell is reached beyond the best hit (or
    /// beyond `max_t`, the box) by more than the slab tolerance
    /// ([`widen`]), so equal-`t` hits in later cells are
    /// seen; the answer is the least `(t, triangle)`, as the mesh's. At most
    /// `nrows + ncols` steps, each coming to the next column or row of cells. A zero
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
        let (o, d, start) = (ray.origin, ray.dir, ray.point_at(t0));
        let ax = Axis::new(&self.xs, o.get(0), d.get(0), self.pad);
        let az = Axis::new(&self.zs, o.get(2), d.get(2), self.pad);
        let (mut x, mut z) = (Band::new(&ax, start.get(0)), Band::new(&az, start.get(2)));
        let mut walk = CellVisit {
            ray: &sheared,
            oy: o.get(1),
            dy: d.get(1),
            t1,
            max_t,
            best: None,
            limit: widen(t1),
        };
        let zs = [(z.cell, z.t_out), (z.behind, z.t_behind)];
        for &(i, zi) in &zs[..1 + usize::from(z.behind_at(t0))] {
            walk.visit(self, i, x.cell, t0, lesser(x.t_out, zi));
            if x.behind_at(t0) {
                walk.visit(self, i, x.behind, t0, lesser(x.t_behind, zi));
            }
        }
        // Each step the ray comes within the padding of a next column or row of cells
        // (`t_ahead` and `limit` are never NaN; `t_ahead = ∞` when no cell is left).
        for _ in 0..self.nrows + self.ncols {
            if x.t_ahead <= z.t_ahead {
                let t = x.t_ahead;
                if t > walk.limit {
                    break;
                }
                let (j, xj) = x.advance(&ax);
                walk.visit(self, z.cell, j, t, lesser(xj, z.t_out));
                if z.behind_at(t) {
                    walk.visit(self, z.behind, j, t, lesser(xj, z.t_behind));
                }
            } else {
                let t = z.t_ahead;
                if t > walk.limit {
                    break;
                }
                let (i, zi) = z.advance(&az);
                walk.visit(self, i, x.cell, t, lesser(x.t_out, zi));
                if x.behind_at(t) {
                    walk.visit(self, i, x.behind, t, lesser(x.t_behind, zi));
                }
            }
        }
        walk.best
    }

    /// Whether a cell is narrower (in x or z) than twice the boxes' padding: the walk
    /// then cannot tell which cells a ray passes within the padding of (it keeps at
    /// most two a axis), so the tree of padded triangle boxes, which culls as a
    /// [`TriMesh`](crate::shape::TriMesh) does, answers instead.
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
    #[inline(always)]
    fn ray_may_meet_cell(&self, i: usize, j: usize, oy: R, dy: R, t_in: R, t_out: R) -> bool {
        let (ya, yb) = (oy + dy * t_in, oy + dy * t_out);
        let at = i * self.ncols + j;
        let (row, next) = (
            &self.heights[at..at + 2],
            &self.heights[at + self.ncols..][..2],
        );
        // The heights are finite and the `t`s never NaN: plain compares.
        let greater = |a: R, b: R| if b > a { b } else { a };
        let lo = lesser(lesser(row[0], row[1]), lesser(next[0], next[1])) * self.scale.get(1);
        let hi = greater(greater(row[0], row[1]), greater(next[0], next[1])) * self.scale.get(1);
        greater(ya, yb) >= lo - self.pad && lesser(ya, yb) <= hi + self.pad
    }
}

/// The cells the grid walk of [`HeightField::cast_ray_cell`] visits: the ray, its
/// height, the end of its clip to the field's box, the clip `max_t`, and the least
/// `(triangle, t)` so far.
struct CellVisit<'a, R: Real> {
    ray: &'a ShearedRay<R::V3>,
    oy: R,
    dy: R,
    t1: R,
    max_t: R,
    best: Option<(usize, R)>,
    /// The walk's end: cells reached beyond it hold no hit before the best one (nor
    /// within the field's box), by more than the slab test's tolerance.
    limit: R,
}

impl<R: Real> CellVisit<'_, R> {
    /// Cell `(i, j)`, which the ray reaches (grown by the padding) at `t_in` and
    /// leaves at `t_out`: its triangles are tested unless its height range rules
    /// them out.
    #[inline(always)]
    fn visit(&mut self, field: &HeightField<R>, i: usize, j: usize, t_in: R, t_out: R) {
        // Grown as the slab test grows its exits: a hit clipped at `max_t`, where the
        // kernel's `t` may round a few ulps early, keeps the ray's height there.
        let t_out = widen(lesser(t_out, self.t1));
        if field.ray_may_meet_cell(i, j, self.oy, self.dy, t_in, t_out) {
            self.test(field, i, j);
        }
    }

    /// The two triangles of cell `(i, j)`: keeps the least `(t, triangle)`.
    fn test(&mut self, field: &HeightField<R>, i: usize, j: usize) {
        let first = 2 * (i * (field.ncols - 1) + j);
        for t in [first, first + 1] {
            if let Some(hit) = self.ray.hit(&field.corners(t)).filter(|&h| h <= self.max_t) {
                if self.best.is_none_or(|(b, bt)| (hit, t) < (bt, b)) {
                    self.best = Some((t, hit));
                    self.limit = widen(hit.min(self.t1));
                }
            }
        }
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
