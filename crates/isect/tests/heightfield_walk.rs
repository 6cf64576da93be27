//! The 3D heightfield's grid walk (`HeightField::cast_ray_cell`) on exact cases: rays
//! through grid points (at random slopes, along a grid line, vertical), through the
//! midpoints of cell edges and diagonals, and clipped at their own hit (`max_t = t`),
//! on fields whose grid lines and heights are exact dyadic values, in `f32` and `f64`,
//! at scales 2⁻¹⁰, 1 and 2¹⁰. Each answer is compared with a brute-force pass over the
//! field's triangles and with the TriMesh of the same triangles: the same hit or miss,
//! the same `t` (within a few ulps: the three may round a shared edge's `t` apart),
//! and a reported triangle that the ray does hit there. Before the fix the walk lost
//! 2% of the rays crossing a grid point (it stepped diagonally past the cell whose
//! triangle the watertight kernel gives the point to) and 20% of the hits at
//! `max_t` on a cell edge.

#[path = "support/heightfield_mesh.rs"]
mod heightfield_mesh;
#[path = "support/for_each_real.rs"]
#[macro_use]
mod for_each_real;
#[path = "support/rng.rs"]
mod rng;

use heightfield_mesh::as_mesh;
use isect::math::{Real, Vector3};
use isect::query::RayCast;
use isect::shape::heightfield_3d::HeightField;
use isect::shape::{Ray, TriMesh};
use rng::Rng;

fn v<R: Real>(p: [f64; 3]) -> R::V3 {
    R::V3::new(R::from_f64(p[0]), R::from_f64(p[1]), R::from_f64(p[2]))
}

/// A field of `rows × cols` small-integer heights whose grid lines fall on multiples
/// of `unit` (a power of two): the grid spans `(cols − 1)·unit` by `(rows − 1)·unit`.
struct Field<R: Real> {
    hf: HeightField<R>,
    mesh: TriMesh<R>,
    rows: usize,
    cols: usize,
    heights: Vec<f64>,
    unit: f64,
}

impl<R: Real> Field<R> {
    fn new(rng: &mut Rng, unit: f64) -> Self {
        let (rows, cols) = ([3, 4, 5, 9][rng.below(4)], [3, 5, 6, 9][rng.below(4)]);
        let heights: Vec<f64> = (0..rows * cols)
            .map(|_| (rng.below(7) as f64 - 3.0) * 0.5)
            .collect();
        let scale = [(cols - 1) as f64 * unit, unit, (rows - 1) as f64 * unit];
        let hf = HeightField::new(
            heights.iter().map(|&h| R::from_f64(h)).collect(),
            rows,
            cols,
            v::<R>(scale),
        )
        .unwrap();
        let mesh = as_mesh(&hf);
        Self {
            hf,
            mesh,
            rows,
            cols,
            heights,
            unit,
        }
    }

    /// Grid point `(i, j)` (row along z, column along x), exact.
    fn point(&self, i: usize, j: usize) -> [f64; 3] {
        [
            (j as f64 - (self.cols - 1) as f64 / 2.0) * self.unit,
            self.heights[i * self.cols + j] * self.unit,
            (i as f64 - (self.rows - 1) as f64 / 2.0) * self.unit,
        ]
    }

    /// A random target on the surface: a grid point, or the midpoint of a cell's
    /// x edge, z edge or diagonal (all exact).
    fn target(&self, rng: &mut Rng) -> [f64; 3] {
        let (i, j) = (rng.below(self.rows), rng.below(self.cols));
        let p = self.point(i, j);
        let q = match rng.below(4) {
            1 if j + 1 < self.cols => self.point(i, j + 1),
            2 if i + 1 < self.rows => self.point(i + 1, j),
            3 if i + 1 < self.rows && j > 0 => self.point(i + 1, j - 1),
            _ => return p,
        };
        core::array::from_fn(|k| (p[k] + q[k]) / 2.0)
    }
}

/// A ray through `target` at `t` in 1..=6, with a direction of quarter units: random,
/// along a grid line (x or z still), or vertical; most from above, some from below.
fn ray_through<R: Real>(rng: &mut Rng, target: [f64; 3], unit: f64) -> Ray<R::V3> {
    let mut q = || (rng.below(17) as f64 - 8.0) * 0.25 * unit;
    let mut d = [q(), q(), q()];
    match rng.below(5) {
        0 => d[0] = 0.0,
        1 => d[2] = 0.0,
        2 => (d[0], d[2]) = (0.0, 0.0),
        _ => {}
    }
    if d[1] == 0.0 {
        d[1] = -unit;
    }
    let t = (1 + rng.below(6)) as f64;
    let origin = core::array::from_fn(|k| target[k] - t * d[k]);
    Ray {
        origin: v::<R>(origin),
        dir: v::<R>(d),
    }
}

/// Every triangle's hit `(t, triangle)` within `max_t`, by its own ray cast.
fn brute<R: Real>(hf: &HeightField<R>, ray: &Ray<R::V3>, max_t: R) -> Vec<(R, usize)> {
    (0..hf.triangle_count())
        .filter_map(|i| Some((hf.triangle(i)?.cast_ray(ray, max_t)?.t, i)))
        .collect()
}

/// `a` and `b` within a few ulps of their magnitude (at least 1).
fn near<R: Real>(a: R, b: R) -> bool {
    (a - b).abs() <= R::EPSILON * R::from_f64(16.0) * a.abs().max(b.abs()).max(R::ONE)
}

/// The walk's answer for `ray` within `max_t` checked against the triangles and the
/// mesh; returns it.
fn checked<R: Real>(f: &Field<R>, ray: &Ray<R::V3>, max_t: R, what: &str) -> Option<(usize, R)> {
    let got = f.hf.cast_ray_cell(ray, max_t);
    let hits = brute(&f.hf, ray, max_t);
    let least = hits
        .iter()
        .copied()
        .min_by(|a, b| a.partial_cmp(b).expect("finite"));
    let mesh = f.mesh.cast_ray(ray, max_t).map(|h| h.t);
    match (got, least) {
        (Some((i, t)), Some((bt, _))) => {
            assert!(near(t, bt), "t {t:?} vs triangles {bt:?}: {what}");
            assert!(
                hits.iter().any(|&(ht, hi)| hi == i && near(ht, t)),
                "triangle {i} not hit at {t:?} ({hits:?}): {what}"
            );
        }
        (None, None) => {}
        _ => panic!("walk {got:?} vs triangles {least:?}: {what}"),
    }
    match (got, mesh) {
        (Some((_, t)), Some(mt)) => assert!(near(t, mt), "t {t:?} vs mesh {mt:?}: {what}"),
        (None, None) => {}
        _ => panic!("walk {got:?} vs mesh {mesh:?}: {what}"),
    }
    // The public cast answers the same.
    let cast = f.hf.cast_ray(ray, max_t).map(|h| h.t);
    assert_eq!(cast, got.map(|g| g.1), "cast_ray: {what}");
    got
}

// Rays through grid points and edge midpoints agree with the triangles and the mesh,
// with `max_t = ∞`, clipped at their own hit, and clipped just short of the targets.
fn exact_rays_agree<R: Real>() {
    let mut rng = Rng(0x4F1E_1D00 + R::EPSILON.to_f64().to_bits() % 7);
    let mut hits = 0;
    let mut cases = 0;
    for unit in [2f64.powi(-10), 1.0, 2f64.powi(10)] {
        for field in 0..40 {
            let f = Field::<R>::new(&mut rng, unit);
            for case in 0..150 {
                let target = f.target(&mut rng);
                let ray = ray_through::<R>(&mut rng, target, unit);
                let what = format!(
                    "unit {unit} field {field} ({}×{} {:?}) case {case}: {ray:?}",
                    f.rows, f.cols, f.heights
                );
                let Some((_, t)) = checked(&f, &ray, R::INFINITY, &what) else {
                    cases += 1;
                    continue;
                };
                hits += 1;
                // Clipped at its own hit: the hit at max_t is kept.
                let at = checked(&f, &ray, t, &format!("max_t = t, {what}"));
                assert_eq!(at.map(|a| a.1), Some(t), "max_t = {t:?}: {what}");
                // Clipped a little before: whatever the triangles say.
                let short = t * R::from_f64(0.999);
                checked(&f, &ray, short, &format!("max_t short, {what}"));
                cases += 1;
            }
        }
    }
    assert!(cases == 3 * 40 * 150);
    // Every target is on the surface; rays from below or grazing may miss it only by
    // passing another part first, so most rays hit.
    assert!(hits > cases / 2, "{hits} hits of {cases}");
}
for_each_real!(exact_rays_agree);

// Rays through a grid point in every diagonal direction of the x/z plane, at many
// slopes: the four cells around the point each may hold the watertight kernel's hit.
fn diagonal_grid_point_crossings<R: Real>() {
    let mut rng = Rng(0x4F1E_1D01);
    let mut hits = 0;
    for unit in [1.0, 2f64.powi(-10)] {
        for _ in 0..30 {
            let f = Field::<R>::new(&mut rng, unit);
            for i in 1..f.rows - 1 {
                for j in 1..f.cols - 1 {
                    let p = f.point(i, j);
                    for (sx, sz) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] {
                        for k in 1..=4 {
                            let slope = [0.25, -0.75, 1.5, -2.0][rng.below(4)];
                            let d = [sx * k as f64 * 0.25, slope, sz * 0.25 * k as f64];
                            let d = d.map(|c| c * unit);
                            let t = 2.0;
                            let o = core::array::from_fn(|a| p[a] - t * d[a]);
                            let ray = Ray {
                                origin: v::<R>(o),
                                dir: v::<R>(d),
                            };
                            let what = format!("grid point ({i}, {j}) unit {unit}: {ray:?}");
                            let got = checked(&f, &ray, R::INFINITY, &what);
                            hits += usize::from(got.is_some());
                            if let Some((_, t)) = got {
                                checked(&f, &ray, t, &format!("max_t = t, {what}"));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(hits > 1000, "{hits}");
}
for_each_real!(diagonal_grid_point_crossings);
