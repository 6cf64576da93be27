//! The ray–triangle kernel: the watertight test of Woop, Benthin and Wald,
//! "Watertight Ray/Triangle Intersection" (JCGT 2013), the one implementation used by
//! `Triangle`'s ray cast (`query::cast_ray::triangle`), the meshes and the 3D
//! heightfield. A mesh computes the per-ray shear once for the whole traversal
//! instead of once per triangle. The shear uses one division (`1/dz`) so that it is
//! the same for every triangle the ray meets. Two triangles sharing an edge leave no gap
//! (an edge function that rounds to zero is recomputed in `f64`); edges and vertices
//! hit. No tolerances. A flat triangle, a ray in a triangle's plane and a zero
//! direction miss.

use crate::math::{Real, Vector};
use crate::shape::Ray;

/// A ray prepared for many triangle tests: its origin and the shear that maps its
/// direction onto the axis `kz`.
pub(crate) struct ShearedRay<V: Vector> {
    origin: V,
    kz: usize,
    sx: V::Scalar,
    sy: V::Scalar,
    sz: V::Scalar,
}

/// `p`'s components rotated so that axis `kz` comes last.
#[inline(always)]
fn permute<V: Vector>(p: V, kz: usize) -> [V::Scalar; 3] {
    match kz {
        0 => [p.get(1), p.get(2), p.get(0)],
        1 => [p.get(2), p.get(0), p.get(1)],
        _ => [p.get(0), p.get(1), p.get(2)],
    }
}

impl<V: Vector> ShearedRay<V> {
    /// The prepared ray, or `None` for a zero direction (which meets no triangle).
    #[inline]
    pub(crate) fn new(ray: &Ray<V>) -> Option<Self> {
        let kz = ray.dir.abs().max_axis();
        let [dx, dy, dz] = permute(ray.dir, kz);
        if dz == V::Scalar::ZERO {
            return None;
        }
        let sz = dz.recip();
        Some(Self {
            origin: ray.origin,
            kz,
            sx: dx * sz,
            sy: dy * sz,
            sz,
        })
    }

    #[inline(always)]
    fn apply(&self, p: V) -> [V::Scalar; 3] {
        let [x, y, z] = permute(p - self.origin, self.kz);
        [x - self.sx * z, y - self.sy * z, self.sz * z]
    }

    /// The hit parameter `t ≥ 0` on triangle `tri`, or `None`.
    #[inline]
    pub(crate) fn hit(&self, tri: &[V; 3]) -> Option<V::Scalar> {
        let [a, b, c] = tri.map(|p| self.apply(p));
        let e = edge_functions(a, b, c);
        if e[0] != V::Scalar::ZERO && e[1] != V::Scalar::ZERO && e[2] != V::Scalar::ZERO {
            return finish(e, [a[2], b[2], c[2]]);
        }
        // An edge function rounded to zero: its sign is decided in f64.
        let wide = |p: [V::Scalar; 3]| p.map(Real::to_f64);
        let (a, b, c) = (wide(a), wide(b), wide(c));
        finish(edge_functions(a, b, c), [a[2], b[2], c[2]]).map(V::Scalar::from_f64)
    }
}

#[inline(always)]
fn edge_functions<S: Real>(a: [S; 3], b: [S; 3], c: [S; 3]) -> [S; 3] {
    [
        c[0] * b[1] - c[1] * b[0],
        a[0] * c[1] - a[1] * c[0],
        b[0] * a[1] - b[1] * a[0],
    ]
}

#[inline(always)]
fn finish<S: Real>(e: [S; 3], z: [S; 3]) -> Option<S> {
    let mixed = (e[0] < S::ZERO || e[1] < S::ZERO || e[2] < S::ZERO)
        && (e[0] > S::ZERO || e[1] > S::ZERO || e[2] > S::ZERO);
    let det = e[0] + e[1] + e[2];
    if mixed || det == S::ZERO {
        return None;
    }
    let t = (e[0] * z[0] + e[1] * z[1] + e[2] * z[2]) / det;
    (t >= S::ZERO).then_some(t)
}
