//! Ray queries of a [`TriMesh`] beyond the closest hit of one ray: the closest hit with
//! its triangle, any hit (shadow rays), and batches of rays.
//!
//! Every query uses the same walk of the mesh's ray tree (its [`Bvh`](crate::broad::Bvh)
//! collapsed into 8-wide nodes) and the same watertight kernel ([`ShearedRay`]) as
//! [`RayCast::cast_ray`](crate::query::RayCast::cast_ray), so a batch answers each
//! ray exactly as the single-ray call does. Batches over a tree too large for the
//! second-level cache walk several rays at once, interleaved as
//! [`Bvh::cast_rays`](crate::broad::Bvh::cast_rays) does; over a smaller one, one at a
//! time. With the `parallel` feature they spread chunks of [`PARALLEL_RAY_CHUNK`] rays
//! over rayon's threads (answers identical, in the same order). No tolerances beyond
//! the mesh's.

use super::ray::ShearedRay;
use super::ray_tree::{Kernels, Leaf, LeafVisit, RayTree, Scaled, WithKernels};
use super::TriMesh;
use crate::math::Real;
use crate::shape::{Ray, RayHit};

/// Rays per task of the parallel batches: enough for the interleaved walk to keep
/// several rays in flight and to pay for a task, small enough to balance the cores.
#[cfg(feature = "parallel")]
pub const PARALLEL_RAY_CHUNK: usize = 256;

impl<R: Real> TriMesh<R> {
    /// The closest surface crossing of the ray within `t ∈ [0, max_t]` and the index
    /// of the triangle crossed (triangles crossed at the same `t`, at a shared edge or
    /// vertex, go to the lowest index, whatever the tree). Unlike [`cast_ray`](crate::query::RayCast::cast_ray) a ray starting
    /// inside a solid mesh reports where it leaves, not `t = 0`. Flat triangles are
    /// never hit; a NaN or infinite ray, a zero direction, or a NaN or negative
    /// `max_t` hits nothing.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // An open ground quad (triangles 0 and 1) at y = 0; a ray falling at (x, z) = (2, 1)
    /// // from y = 3 hits it at t = 3 in the triangle holding that point.
    /// let ground = TriMesh::new(
    ///     vec![Vec3::new(-5.0, 0.0, -5.0), Vec3::new(5.0, 0.0, -5.0), Vec3::new(5.0, 0.0, 5.0), Vec3::new(-5.0, 0.0, 5.0)],
    ///     vec![[0, 1, 2], [0, 2, 3]],
    ///     TriMeshFlags::OPEN,
    /// )?;
    /// let (triangle, hit) = ground.cast_ray_indexed(&Ray::new(Vec3::new(2.0, 3.0, 1.0), -Vec3::Y)?, 10.0).unwrap();
    /// assert_eq!(triangle, 0); // x > z: the first triangle
    /// assert!((hit.t - 3.0).abs() < 1e-6);
    /// assert!((hit.normal - Vec3::Y).length() < 1e-6); // facing the ray
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_ray_indexed(&self, ray: &Ray<R::V3>, max_t: R) -> Option<(u32, RayHit<R::V3>)> {
        // The walk finds nothing for a non-finite ray or a NaN or negative `max_t`.
        self.with_closest_surface_hit(ray, max_t, |hit| {
            hit.map(|(t, i)| (i, self.hit_at(ray, t, i)))
        })
    }

    /// Any hit: true when the ray crosses the surface within `t ∈ [0, max_t]`, or
    /// starts inside a solid mesh (where [`cast_ray`](crate::query::RayCast::cast_ray) hits at
    /// `t = 0`). Stops at the first triangle found, so it is the cheap test for shadow
    /// and line-of-sight rays. Same edge behaviour as `cast_ray`: a NaN or infinite
    /// ray, or a NaN or negative `max_t`, gives false.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // Shadow rays towards a light at y = 10 over an open roof quad at y = 3 spanning
    /// // x, z ∈ [-1, 1]: blocked under the roof, lit beside it.
    /// let roof = TriMesh::new(
    ///     vec![Vec3::new(-1.0, 3.0, -1.0), Vec3::new(1.0, 3.0, -1.0), Vec3::new(1.0, 3.0, 1.0), Vec3::new(-1.0, 3.0, 1.0)],
    ///     vec![[0, 1, 2], [0, 2, 3]],
    ///     TriMeshFlags::OPEN,
    /// )?;
    /// assert!(roof.cast_ray_any(&Ray::new(Vec3::ZERO, Vec3::Y)?, 10.0));
    /// assert!(!roof.cast_ray_any(&Ray::new(Vec3::new(2.0, 0.0, 0.0), Vec3::Y)?, 10.0));
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_ray_any(&self, ray: &Ray<R::V3>, max_t: R) -> bool {
        if !(ray.is_finite() && max_t >= R::ZERO) {
            return false;
        }
        let crossed = self.ray_tree.run(CrossedJob {
            mesh: self,
            ray,
            max_t,
        });
        crossed || (self.solid && self.inside(ray.origin))
    }

    /// [`cast_ray`](crate::query::RayCast::cast_ray) of every ray: result `k` is exactly
    /// `self.cast_ray(&rays[k], max_t)`. Bad rays (NaN, infinite) answer `None`
    /// without disturbing the others. See the module docs for how the batch is walked.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A ground quad at y = 0 over x, z ∈ [-5, 5]; rays falling from y = 1, 2, 3 and
    /// // one outside the quad.
    /// let ground = TriMesh::new(
    ///     vec![Vec3::new(-5.0, 0.0, -5.0), Vec3::new(5.0, 0.0, -5.0), Vec3::new(5.0, 0.0, 5.0), Vec3::new(-5.0, 0.0, 5.0)],
    ///     vec![[0, 1, 2], [0, 2, 3]],
    ///     TriMeshFlags::OPEN,
    /// )?;
    /// let rays: Vec<Ray> = [(0.0, 1.0), (1.0, 2.0), (-3.0, 3.0), (7.0, 1.0)]
    ///     .iter()
    ///     .map(|&(x, y)| Ray { origin: Vec3::new(x, y, 0.5), dir: -Vec3::Y })
    ///     .collect();
    /// let ts: Vec<Option<f32>> = ground.cast_rays(&rays, 10.0).iter().map(|h| h.map(|h| h.t)).collect();
    /// assert_eq!(ts, [Some(1.0), Some(2.0), Some(3.0), None]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_rays(&self, rays: &[Ray<R::V3>], max_t: R) -> Vec<Option<RayHit<R::V3>>> {
        self.batch(rays, |mesh, rays| {
            let hits = mesh.surface_hits(rays, max_t);
            rays.iter()
                .zip(hits)
                .map(|(ray, hit)| {
                    let valid = ray.is_finite() && max_t >= R::ZERO;
                    valid.then(|| mesh.solid_answer(ray, hit)).flatten()
                })
                .collect()
        })
    }

    /// [`cast_ray_indexed`](Self::cast_ray_indexed) of every ray, in order.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A ground quad at y = 0: triangle 0 holds the points with x > z, triangle 1 those
    /// // with x < z.
    /// let ground = TriMesh::new(
    ///     vec![Vec3::new(-5.0, 0.0, -5.0), Vec3::new(5.0, 0.0, -5.0), Vec3::new(5.0, 0.0, 5.0), Vec3::new(-5.0, 0.0, 5.0)],
    ///     vec![[0, 1, 2], [0, 2, 3]],
    ///     TriMeshFlags::OPEN,
    /// )?;
    /// let rays = [Ray::new(Vec3::new(2.0, 1.0, -2.0), -Vec3::Y)?, Ray::new(Vec3::new(-2.0, 1.0, 2.0), -Vec3::Y)?];
    /// let triangles: Vec<Option<u32>> = ground.cast_rays_indexed(&rays, 10.0).iter().map(|h| h.map(|(i, _)| i)).collect();
    /// assert_eq!(triangles, [Some(0), Some(1)]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_rays_indexed(
        &self,
        rays: &[Ray<R::V3>],
        max_t: R,
    ) -> Vec<Option<(u32, RayHit<R::V3>)>> {
        self.batch(rays, |mesh, rays| {
            let mut answers = Vec::with_capacity(rays.len());
            mesh.cast_rays_indexed_with(rays, max_t, |_, answer| answers.push(answer));
            answers
        })
    }

    /// [`cast_ray_indexed`](Self::cast_ray_indexed) of every ray, handed to
    /// `f(k, answer)` in ray order as each is found instead of collected: for callers that
    /// write the answers into buffers of their own. Walks as
    /// [`cast_rays_indexed`](Self::cast_rays_indexed) does, on the calling thread.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A ground quad at y = 0; the second ray falls beside it.
    /// let ground = TriMesh::new(
    ///     vec![Vec3::new(-5.0, 0.0, -5.0), Vec3::new(5.0, 0.0, -5.0), Vec3::new(5.0, 0.0, 5.0), Vec3::new(-5.0, 0.0, 5.0)],
    ///     vec![[0, 1, 2], [0, 2, 3]],
    ///     TriMeshFlags::OPEN,
    /// )?;
    /// let rays = [Ray::new(Vec3::new(2.0, 1.0, -2.0), -Vec3::Y)?, Ray::new(Vec3::new(9.0, 1.0, 0.0), -Vec3::Y)?];
    /// let mut ts = [f32::NAN; 2];
    /// ground.cast_rays_indexed_with(&rays, 10.0, |k, hit| ts[k] = hit.map_or(f32::INFINITY, |(_, h)| h.t));
    /// assert_eq!(ts, [1.0, f32::INFINITY]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn cast_rays_indexed_with(
        &self,
        rays: &[Ray<R::V3>],
        max_t: R,
        mut f: impl FnMut(usize, Option<(u32, RayHit<R::V3>)>),
    ) {
        self.first_hits_with(rays, max_t, |k, hit| {
            f(k, hit.map(|(i, t)| (i, self.hit_at(&rays[k], t, i))));
        });
    }

    /// The triangle and `t` of every ray's closest surface crossing within `max_t`,
    /// handed to `f(k, (triangle, t))` in ray order: the walks of
    /// [`cast_rays_indexed_with`](Self::cast_rays_indexed_with) without the hit's
    /// point and normal, for callers that want only which triangle each ray meets
    /// first (a visibility or picking pass; trimesh's `intersects_first`). A
    /// non-finite ray, a zero direction and a NaN or negative `max_t` find nothing.
    ///
    /// ```
    /// use isect::d3::*;
    ///
    /// # fn main() -> Result<(), ShapeError> {
    /// // A ground quad at y = 0 of two triangles; the second ray falls beside it.
    /// let ground = TriMesh::new(
    ///     vec![Vec3::new(-5.0, 0.0, -5.0), Vec3::new(5.0, 0.0, -5.0), Vec3::new(5.0, 0.0, 5.0), Vec3::new(-5.0, 0.0, 5.0)],
    ///     vec![[0, 1, 2], [0, 2, 3]],
    ///     TriMeshFlags::OPEN,
    /// )?;
    /// let rays = [Ray::new(Vec3::new(2.0, 1.0, -2.0), -Vec3::Y)?, Ray::new(Vec3::new(9.0, 1.0, 0.0), -Vec3::Y)?];
    /// let mut first = [None; 2];
    /// ground.first_hits_with(&rays, 10.0, |k, hit| first[k] = hit);
    /// assert_eq!(first, [Some((0, 1.0)), None]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn first_hits_with(
        &self,
        rays: &[Ray<R::V3>],
        max_t: R,
        mut f: impl FnMut(usize, Option<(u32, R)>),
    ) {
        let hits = self.surface_hits(rays, max_t);
        for (k, hit) in hits.enumerate() {
            f(k, hit.map(|(t, i)| (i, t)));
        }
    }

    /// `answer(self, chunk)` over the rays, chunk by chunk on rayon's threads with the
    /// `parallel` feature, in one piece without; results in ray order.
    fn batch<T: Send>(
        &self,
        rays: &[Ray<R::V3>],
        answer: impl Fn(&Self, &[Ray<R::V3>]) -> Vec<T> + Sync,
    ) -> Vec<T> {
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            if rays.len() > PARALLEL_RAY_CHUNK {
                return rays
                    .par_chunks(PARALLEL_RAY_CHUNK)
                    .flat_map_iter(|chunk| answer(self, chunk))
                    .collect();
            }
        }
        answer(self, rays)
    }

    /// The closest surface crossing `(t, triangle)` of every ray, in order: by the
    /// tree's interleaved batch walk where the tree is larger than the cache, else one
    /// ray at a time as [`cast_ray`](crate::query::RayCast::cast_ray) casts it (see
    /// `RayTree::interleaves`), as the caller takes them (no vector of all the hits,
    /// whose fresh memory costs page faults).
    fn surface_hits<'a>(
        &'a self,
        rays: &'a [Ray<R::V3>],
        max_t: R,
    ) -> impl Iterator<Item = Option<(R, u32)>> + 'a {
        let mut walked = self
            .ray_tree
            .interleaves()
            .then(|| self.interleaved_hits(rays, max_t).into_iter());
        rays.iter().map(move |ray| match &mut walked {
            Some(hits) => hits.next().flatten(),
            None => self.closest_surface_hit(ray, max_t),
        })
    }

    /// The closest surface crossing of every ray by the interleaved batch walk.
    fn interleaved_hits(&self, rays: &[Ray<R::V3>], max_t: R) -> Vec<Option<(R, u32)>> {
        let sheared: Vec<Option<ShearedRay<R::V3>>> =
            rays.iter().map(|ray| self.sheared(ray)).collect();
        let mut visit = Closests {
            mesh: self,
            sheared: &sheared,
            best: vec![None; rays.len()],
        };
        self.ray_tree.walk_batch(rays, max_t, &mut visit);
        // Scaled rays (a tiny or huge mesh) left the batch at their first leaf: each
        // takes the single walk with the scaled leaf kernel.
        for (k, ray) in rays.iter().enumerate() {
            if let Some(sheared) = sheared[k].as_ref().filter(|s| s.scaled()) {
                visit.best[k] = self.closest_scaled(ray, max_t, sheared);
            }
        }
        visit.best
    }
}

/// The walk of a scaled ray (a tiny or huge mesh) with the [`Scaled`] kernels, out of
/// line: inlined beside the ordinary walk, its copy of the walk cost the ordinary rays
/// of an any-hit query about 30 instructions each.
#[cold]
#[inline(never)]
pub(super) fn scaled_walk<R: Real>(
    tree: &RayTree<R>,
    ray: &Ray<R::V3>,
    max_t: R,
    visit: impl LeafVisit<R>,
) {
    tree.walk_with::<Scaled, _>(ray, max_t, 0, visit);
}

/// The leaf test of an any-hit walk: stops at the first triangle crossed.
struct Crossed<'a, R: Real> {
    mesh: &'a TriMesh<R>,
    sheared: &'a ShearedRay<R::V3>,
    crossed: bool,
}

/// [`TriMesh::cast_ray_any`]'s walk: whether `ray` crosses the surface within `max_t`.
struct CrossedJob<'a, R: Real> {
    mesh: &'a TriMesh<R>,
    ray: &'a Ray<R::V3>,
    max_t: R,
}

impl<R: Real> WithKernels<R> for CrossedJob<'_, R> {
    type Output = bool;

    #[inline(always)]
    fn run<K: Kernels>(self, tree: &RayTree<R>) -> bool {
        // `let … else`, not `is_some_and` with a closure: the closure was compiled out
        // of line, away from the walk's features.
        let Some(sheared) = self.mesh.sheared(self.ray) else {
            return false;
        };
        let mut visit = Crossed {
            mesh: self.mesh,
            sheared: &sheared,
            crossed: false,
        };
        // A scaled ray (a tiny or huge mesh) walks with the scaled leaf kernel.
        match sheared.scaled() {
            true => scaled_walk(tree, self.ray, self.max_t, &mut visit),
            false => tree.walk_with::<K, _>(self.ray, self.max_t, 0, &mut visit),
        }
        visit.crossed
    }
}

impl<R: Real> LeafVisit<R> for Crossed<'_, R> {
    #[inline(always)]
    fn visit<K: Kernels>(&mut self, _: usize, leaf: &Leaf<R>, max_t: R) -> Option<R> {
        self.crossed = self.mesh.leaf_crossed::<K>(self.sheared, leaf, max_t);
        self.crossed.then_some(R::NEG_INFINITY)
    }
}

/// The leaf test of a batch's closest-hit walks: each ray's best `(t, triangle)`.
struct Closests<'a, R: Real> {
    mesh: &'a TriMesh<R>,
    sheared: &'a [Option<ShearedRay<R::V3>>],
    best: Vec<Option<(R, u32)>>,
}

impl<R: Real> LeafVisit<R> for Closests<'_, R> {
    #[inline(always)]
    fn visit<K: Kernels>(&mut self, k: usize, leaf: &Leaf<R>, max_t: R) -> Option<R> {
        let sheared = self.sheared[k].as_ref()?;
        if sheared.scaled() {
            // Walked alone afterwards (`interleaved_hits`): end this walk.
            return Some(R::NEG_INFINITY);
        }
        self.mesh
            .leaf_closest::<K>(sheared, leaf, max_t, &mut self.best[k])
    }
}
