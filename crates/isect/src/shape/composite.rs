//! [`Composite`]: a shape made of convex parts under a bounding-volume tree — triangle
//! meshes, polylines, heightfields, concave polygons, compounds. Every pair query
//! against a composite runs through this one trait (see
//! `query::composite`): the tree culls the parts, and
//! each surviving part answers through the convex dispatch of its dimension, so the
//! analytic kernels (ball–triangle, box–box, ...) serve composites too.
//!
//! Frames: the composite lives in its own local frame (a pose places it in the world);
//! each part has a pose relative to that frame (the identity for meshes, whose
//! triangles are stored in the composite's frame). No tolerances of its own.

use crate::algo::gjk::GjkVector;
use crate::broad::Bvh;
use crate::query::dispatch::DispatchShape;
use crate::shape::Aabb;

/// A shape made of convex parts with a [`Bvh`] over their local bounding boxes.
///
/// Implementors: `TriMesh`, `Polyline`, `HeightField` (2D and 3D), `ConcavePolygon`,
/// `Compound`. Part indices run from 0 to [`part_count`](Self::part_count) `− 1` and
/// are the items of [`bvh`](Self::bvh).
pub trait Composite<V: GjkVector> {
    /// The convex part type: the convex shape enum of the dimension
    /// (`shape_2d::Shape` or `shape_3d::Shape`).
    type Part: DispatchShape<V>;

    /// The tree over the parts' bounding boxes, in the composite's frame.
    fn bvh(&self) -> &Bvh<V>;

    /// Number of parts.
    fn part_count(&self) -> usize;

    /// Calls `f` with every part whose box (in the composite's frame) may overlap
    /// `region`, until `f` returns `false`; it may report parts whose boxes do not
    /// overlap (the queries test each part). The default walks [`bvh`](Self::bvh);
    /// a heightfield visits the grid cells under the region directly.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A polyline of 10 unit segments along x: a box over x ∈ [2.5, 4.5] meets
    /// // segments 2, 3 and 4.
    /// let line = Polyline::new((0..=10).map(|i| Vec2::new(i as f32, 0.0)).collect(), false)?;
    /// let region = Aabb::new(Vec2::new(2.5, -0.5), Vec2::new(4.5, 0.5))?;
    /// let mut parts = Vec::new();
    /// line.for_each_part_in(&region, |i| {
    ///     parts.push(i);
    ///     true // keep going
    /// });
    /// parts.sort();
    /// assert_eq!(parts, [2, 3, 4]);
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    fn for_each_part_in(&self, region: &Aabb<V>, f: impl FnMut(u32) -> bool) {
        self.bvh().overlapping(region, f);
    }

    /// The part nearest to `region` (a box in the composite's frame) closer than
    /// `upper`, by branch and bound: parts are visited nearest box first, and
    /// `leaf(i, best)` gives part `i`'s exact distance (`None` when it cannot beat
    /// `best`); a part at distance 0 ends the search. The default is
    /// [`Bvh::nearest_to_aabb`]; compounds of a few parts scan their boxes. A NaN
    /// region or `upper` finds nothing.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // The segment of a polyline nearest to a point (a zero-size box), by the segments'
    /// // exact distances: the segment from (3, 0) to (4, 0) is 2 below (3.5, 2).
    /// let line = Polyline::new((0..=10).map(|i| Vec2::new(i as f32, 0.0)).collect(), false)?;
    /// let p = Vec2::new(3.5, 2.0);
    /// let region = Aabb::new(p, p)?;
    /// let nearest = line.nearest_part_to(&region, f32::INFINITY, |i, best| {
    ///     let d = line.segment(i)?.closest_point(p).0.distance(p);
    ///     (d < best).then_some(d)
    /// });
    /// assert_eq!(nearest, Some((3, 2.0)));
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    fn nearest_part_to(
        &self,
        region: &Aabb<V>,
        upper: V::Scalar,
        leaf: impl FnMut(u32, V::Scalar) -> Option<V::Scalar>,
    ) -> Option<(u32, V::Scalar)> {
        self.bvh().nearest_to_aabb(region, upper, leaf)
    }

    /// Calls `f` with part `i`'s pose relative to the composite's frame and the part.
    /// Meshes build the part (a triangle or segment) on the stack and pass the
    /// identity pose; compounds pass the stored pose and a reference.
    ///
    /// `i` must be below [`part_count`](Self::part_count); implementations may panic
    /// otherwise (the queries only pass indices the tree reported).
    fn with_part<T>(&self, i: u32, f: impl FnOnce(&V::Pose, &Self::Part) -> T) -> T;

    /// The normal to use for a contact with part `i`, given `normal`: the unit
    /// direction, in the composite's frame, pointing from the part toward the other
    /// shape. Meshes, polylines and heightfields correct normals that lean over an
    /// internal edge or vertex toward the surface normal there, so that shapes sliding
    /// over a flat surface made of many parts get no ghost collisions. The default
    /// keeps the normal.
    #[inline]
    fn correct_normal(&self, i: u32, normal: V) -> V {
        let _ = i;
        normal
    }

    /// [`correct_normal`](Self::correct_normal) knowing where the contact is: `point`
    /// is the contact's witness on part `i`, in the composite's frame. Knowing the
    /// feature the point lies on (a face, an edge, a vertex) the correction maps the
    /// normal into that feature's normal cone instead of guessing the feature from
    /// the normal's lean: meshes and 3D heightfields use the vertex's one-ring there,
    /// 2D polylines and heightfields the two segments at the vertex, concave polygons
    /// the boundary vertex at the point. The queries of
    /// `query::composite` call this one. The default ignores the point; a non-finite
    /// point falls back to [`correct_normal`](Self::correct_normal) in every
    /// implementation.
    #[inline]
    fn correct_normal_at(&self, i: u32, point: V, normal: V) -> V {
        let _ = point;
        self.correct_normal(i, normal)
    }

    /// True when both sides of the composite's surface are free space: open meshes,
    /// chains and heightfields (which rays hit from either side). A contact corrected
    /// to one side of such a part may take the other side where the parts overlap less
    /// along it (`query::composite`, "Internal edges"). False for composites whose
    /// inside is matter (solid meshes, concave polygons, compounds of convex parts),
    /// the default.
    #[inline]
    fn two_sided(&self) -> bool {
        false
    }

    /// The part on which a hit of `ray` (in the composite's frame) at `t` lies, the
    /// hit of [`DispatchShape::cast_ray_solid`] with the same `solid`: by default
    /// [`composite::part_hit_at`](crate::query::composite::part_hit_at) (an exact tie
    /// between parts goes to the lowest index); a triangle mesh names the triangle its
    /// own ray cast keeps, so a hit's part and its normal agree at a shared edge.
    fn part_of_hit(&self, ray: &crate::shape::Ray<V>, t: V::Scalar, solid: bool) -> Option<u32>
    where
        Self: Sized,
    {
        crate::query::composite::part_hit_at(self, ray, t, solid)
    }

    /// The first crossing of `ray` (in the composite's frame) with the composite's
    /// surface or boundary within `t ∈ [0, max_t]`, normal facing the ray: a ray
    /// starting inside a solid composite is not hit at `t = 0` but where it meets the
    /// boundary (the `solid = false` cast of
    /// [`DispatchShape::cast_ray_solid`]). The default walks the parts with their own
    /// `solid = false` casts (right for heightfields and polylines, whose parts are the
    /// surface, and for compounds, whose parts' boundaries are); a triangle mesh
    /// answers with its ray tree (the batches' walk, ties included) and a concave
    /// polygon with its outline. Misses as [`RayCast`](crate::query::RayCast)
    /// documents.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A ray from inside a 4 × 4 square (a concave polygon): its boundary is met where
    /// // the ray leaves, at t = 2, not at t = 0.
    /// let square = ConcavePolygon::new(vec![Vec2::ZERO, Vec2::new(4.0, 0.0), Vec2::splat(4.0), Vec2::new(0.0, 4.0)], vec![])?;
    /// let ray = Ray::new(Vec2::splat(2.0), Vec2::X)?;
    /// let hit = square.cast_ray_boundary(&ray, 10.0).expect("it leaves the square");
    /// assert!((hit.t - 2.0).abs() < 1e-6);
    /// assert!((hit.normal + Vec2::X).length() < 1e-6); // facing the ray
    /// # Ok(())
    /// # }
    /// ```
    fn cast_ray_boundary(
        &self,
        ray: &crate::shape::Ray<V>,
        max_t: V::Scalar,
    ) -> Option<crate::shape::RayHit<V>> {
        let mut best: Option<crate::shape::RayHit<V>> = None;
        self.bvh().cast_ray(ray, max_t, |i, best_t| {
            let hit = self.with_part(i, |pp, part| part.cast_ray_solid(pp, ray, best_t, false))?;
            if best.is_none_or(|b| hit.t < b.t) {
                best = Some(hit);
            }
            Some(hit.t)
        });
        best
    }

    /// True when the composite encloses volume (a solid closed mesh, a concave polygon,
    /// a compound of solids) and `p` (in the composite's frame) lies inside it or on
    /// its boundary. Open meshes, polylines and heightfields contain no point: the
    /// default answers `false`.
    ///
    /// ```
    /// use isect::d2::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A U: the 3 × 2 rectangle less a 1 × 1 notch in the middle of its top.
    /// let u = ConcavePolygon::new(vec![Vec2::ZERO, Vec2::new(3.0, 0.0), Vec2::new(3.0, 2.0), Vec2::new(2.0, 2.0),
    ///     Vec2::new(2.0, 1.0), Vec2::ONE, Vec2::new(1.0, 2.0), Vec2::new(0.0, 2.0)], vec![])?;
    /// assert!(u.contains_local_point(Vec2::new(0.5, 1.5)));
    /// assert!(!u.contains_local_point(Vec2::new(1.5, 1.5))); // in the notch
    /// // A polyline encloses nothing.
    /// let line = Polyline::new(vec![Vec2::ZERO, Vec2::new(3.0, 0.0)], false)?;
    /// assert!(!line.contains_local_point(Vec2::new(1.0, 0.0)));
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    fn contains_local_point(&self, p: V) -> bool {
        let _ = p;
        false
    }

    /// For a composite whose volume is bounded by its parts' surfaces only (a solid
    /// triangle mesh, whose parts are its boundary triangles) and a point `p` (in the
    /// composite's frame) inside it or on it: the nearest part, the nearest surface
    /// point and the unit outward direction there (the shortest way out of the
    /// solid). `None` for points outside, NaN, and composites whose parts fill their
    /// volume (concave polygons, compounds: their parts answer for the inside) or
    /// enclose none. The default answers `None`.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn cube(h: f32) -> Result<TriMesh, ShapeError> {
    /// #     let corner = |i: u32| Vec3::new(h * ((i & 1) as f32 * 2.0 - 1.0), h * ((i >> 1 & 1) as f32 * 2.0 - 1.0), h * ((i >> 2 & 1) as f32 * 2.0 - 1.0));
    /// #     let quads = [[0, 4, 6, 2], [1, 3, 7, 5], [0, 1, 5, 4], [2, 6, 7, 3], [0, 2, 3, 1], [4, 5, 7, 6]];
    /// #     let triangles = quads.iter().flat_map(|&[a, b, c, d]| [[a, b, c], [a, c, d]]).collect();
    /// #     TriMesh::new((0..8).map(corner).collect(), triangles, TriMeshFlags::SOLID)
    /// # }
    /// # fn main() -> Result<(), ShapeError> {
    /// // A solid cube mesh [-1, 1]³ (12 triangles): from (0.2, 0.7, 0) the shortest way
    /// // out is up, through the face y = 1, 0.3 away.
    /// let cube = cube(1.0)?;
    /// let (_, point, out) = cube.exit_from_inside(Vec3::new(0.2, 0.7, 0.0)).expect("inside");
    /// assert!((point - Vec3::new(0.2, 1.0, 0.0)).length() < 1e-5);
    /// assert!((out - Vec3::Y).length() < 1e-5);
    /// assert!(cube.exit_from_inside(Vec3::new(0.0, 2.0, 0.0)).is_none()); // outside
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    fn exit_from_inside(&self, p: V) -> Option<(u32, V, V)> {
        let _ = p;
        None
    }

    /// Calls `f(part, point)` with sample points of the surface (a mesh's vertices,
    /// in the composite's frame, each with one part that has it), which the queries
    /// test against another composite's [`exit_from_inside`](Self::exit_from_inside)
    /// to measure how deep two solids overlap. The default has none.
    #[inline]
    fn for_each_sample_point(&self, f: impl FnMut(u32, V)) {
        let _ = f;
    }
}
