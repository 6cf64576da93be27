//! HeightField (3D): construction errors, agreement with the TriMesh of the same
//! triangles and with parry3d's HeightField (ray casts and projections on seeded
//! random cases), edge cases (rays from below, along the surface, through grid
//! vertices, NaN, tiny and huge scales) and the internal-edge correction. Every body
//! runs in f32 and f64 (parry3d is f32).

#[path = "support/heightfield_mesh.rs"]
mod heightfield_mesh;
#[path = "support/for_each_real.rs"]
#[macro_use]
mod for_each_real;
#[path = "support/meshes.rs"]
mod meshes;
#[path = "support/rng.rs"]
mod rng;

use glam::Vec3;
use heightfield_mesh::as_mesh;
use isect::algo::gjk::GjkVector;
use isect::math::{Pose3, Real, Vector, Vector3};
use isect::query::{ProjectPoint, RayCast};
use isect::shape::heightfield_3d::HeightField;
use isect::shape::{Composite, Ray, ShapeError, TriMesh, TriMeshFlags};
use parry3d::query::{PointQuery, Ray as PRay, RayCast as PRayCast};
use parry3d::shape::HeightField as PHeightField;
use parry3d::utils::Array2;
use rng::Rng;

fn v<R: Real>(x: f64, y: f64, z: f64) -> R::V3 {
    R::V3::new(R::from_f64(x), R::from_f64(y), R::from_f64(z))
}

fn ray<R: Real>(o: R::V3, d: R::V3) -> Ray<R::V3> {
    Ray { origin: o, dir: d }
}

/// Seeded terrain heights, row-major `rows × cols`, in `[−0.5, 0.5]`.
fn terrain(rows: usize, cols: usize, seed: u64) -> Vec<f64> {
    let mut rng = Rng(seed);
    (0..rows * cols)
        .map(|k| {
            let (i, j) = ((k / cols) as f64, (k % cols) as f64);
            0.3 * (0.7 * i).sin() * (0.5 * j).cos() + rng.range(-0.2, 0.2)
        })
        .collect()
}

fn field<R: Real>(h: &[f64], rows: usize, cols: usize, scale: [f64; 3]) -> HeightField<R> {
    let heights = h.iter().map(|&x| R::from_f64(x)).collect();
    HeightField::new(heights, rows, cols, v::<R>(scale[0], scale[1], scale[2])).unwrap()
}

fn parry_field(h: &[f64], rows: usize, cols: usize, scale: [f64; 3]) -> PHeightField {
    // parry's array is column-major.
    let data = (0..rows * cols)
        .map(|k| h[(k % rows) * cols + k / rows] as f32)
        .collect();
    let s = Vec3::new(scale[0] as f32, scale[1] as f32, scale[2] as f32);
    PHeightField::new(Array2::new(rows, cols, data), s)
}

// Bad input: too few rows or columns, a length that is not rows·cols, a NaN height
// (named by index), a zero, negative or infinite scale.
fn construction_errors<R: Real>() {
    let h = |n: usize| vec![R::ZERO; n];
    let one = v::<R>(1.0, 1.0, 1.0);
    assert!(matches!(
        HeightField::<R>::new(h(2), 1, 2, one),
        Err(ShapeError::OutOfRange { field: "nrows", .. })
    ));
    assert!(matches!(
        HeightField::<R>::new(h(2), 2, 1, one),
        Err(ShapeError::OutOfRange { field: "ncols", .. })
    ));
    assert!(matches!(
        HeightField::<R>::new(h(5), 2, 2, one),
        Err(ShapeError::OutOfRange {
            field: "heights.len()",
            ..
        })
    ));
    let mut nan = h(6);
    nan[4] = R::from_f64(f64::NAN);
    assert_eq!(
        HeightField::<R>::new(nan, 2, 3, one).unwrap_err(),
        ShapeError::NotFiniteAt {
            shape: "HeightField",
            field: "heights",
            index: 4
        }
    );
    for s in [
        v::<R>(0.0, 1.0, 1.0),
        v::<R>(1.0, -1.0, 1.0),
        v::<R>(1.0, 1.0, f64::INFINITY),
    ] {
        assert!(HeightField::<R>::new(h(4), 2, 2, s).is_err(), "{s:?}");
    }
    let ok = HeightField::<R>::new(h(6), 2, 3, one).unwrap();
    assert_eq!((ok.triangle_count(), ok.nrows(), ok.ncols()), (4, 2, 3));
    assert!(ok.triangle(4).is_none());
}
for_each_real!(construction_errors);

// Random rays (origins above, below and beside a 24 × 32 terrain, aimed at points
// around it): the same hits as the TriMesh of its triangles and as parry's
// HeightField, hit rate 30–70%; projections agree with the TriMesh exactly.
fn agrees_with_mesh_and_parry<R: Real>() {
    let (rows, cols, scale) = (24, 32, [8.0, 2.0, 6.0]);
    let h = terrain(rows, cols, 17);
    let hf = field::<R>(&h, rows, cols, scale);
    let mesh = as_mesh(&hf);
    let theirs = parry_field(&h, rows, cols, scale);
    let mut rng = Rng(23);
    let (mut hits, n) = (0, 3000);
    for _ in 0..n {
        let o = [
            rng.range(-6.0, 6.0),
            rng.range(-3.0, 3.0),
            rng.range(-5.0, 5.0),
        ];
        let aim = [
            rng.range(-6.0, 6.0),
            rng.range(-1.5, 1.5),
            rng.range(-5.0, 5.0),
        ];
        let d = [aim[0] - o[0], aim[1] - o[1], aim[2] - o[2]];
        let r = ray::<R>(v::<R>(o[0], o[1], o[2]), v::<R>(d[0], d[1], d[2]));
        let ours = hf.cast_ray(&r, R::from_f64(1.0));
        let m = mesh.cast_ray(&r, R::from_f64(1.0));
        assert_eq!(ours.map(|h| h.t), m.map(|h| h.t));
        let p = theirs.cast_local_ray_and_get_normal(
            &PRay::new(
                Vec3::new(o[0] as f32, o[1] as f32, o[2] as f32),
                Vec3::new(d[0] as f32, d[1] as f32, d[2] as f32),
            ),
            1.0,
            true,
        );
        match (ours, p) {
            (Some(a), Some(b)) => {
                hits += 1;
                assert!(
                    (a.t.to_f64() - b.time_of_impact as f64).abs() <= 1e-4,
                    "{a:?} vs {b:?}"
                );
                let n = a.normal;
                let dot = n.get(0).to_f64() * b.normal.x as f64
                    + n.get(1).to_f64() * b.normal.y as f64
                    + n.get(2).to_f64() * b.normal.z as f64;
                assert!(dot.abs() >= 1.0 - 1e-3);
                assert!(a.normal.dot(r.dir) <= R::ZERO);
            }
            (None, None) => {}
            (a, b) => panic!("ray {o:?} → {d:?}: ours {a:?}, parry {b:?}"),
        }
        let q = v::<R>(aim[0], aim[1] * 2.0, aim[2]);
        let (pa, pm) = (
            hf.project_local_point(q, true),
            mesh.project_local_point(q, true),
        );
        assert!((pa.point.distance(q) - pm.point.distance(q)).abs().to_f64() <= 1e-9);
        let pp = theirs.project_local_point(
            Vec3::new(
                q.get(0).to_f64() as f32,
                q.get(1).to_f64() as f32,
                q.get(2).to_f64() as f32,
            ),
            true,
        );
        let dp = (pp.point
            - Vec3::new(
                q.get(0).to_f64() as f32,
                q.get(1).to_f64() as f32,
                q.get(2).to_f64() as f32,
            ))
        .length();
        assert!(
            (pa.point.distance(q).to_f64() - dp as f64).abs() <= 1e-4,
            "projection of {q:?}"
        );
        assert!(!pa.is_inside || pa.point == q);
    }
    assert!(
        (3 * n / 10..=7 * n / 10).contains(&hits),
        "hit rate {hits}/{n}"
    );
}
for_each_real!(agrees_with_mesh_and_parry);

// A flat field (all heights 0) at scales 1e-4 and 1e5: rays down through cell
// interiors, grid vertices and cell diagonals hit at the exact t; rays from below
// hit with the normal facing down; a ray in the plane, a zero direction and NaN miss.
fn flat_edges<R: Real>() {
    for k in [1e-4, 1.0, 1e5] {
        let hf = field::<R>(&[0.0; 20], 4, 5, [k, 1.0, k]);
        for (x, z) in [
            (0.1, 0.1),
            (0.0, 0.0),
            (0.25, 1.0 / 6.0),
            (0.125, 1.0 / 12.0),
            (0.5, 0.5),
        ] {
            let down = ray::<R>(v::<R>(x * k, 2.0 * k, z * k), v::<R>(0.0, -k, 0.0));
            let hit = hf
                .cast_ray(&down, R::INFINITY)
                .unwrap_or_else(|| panic!("({x}, {z}) at {k}"));
            assert!((hit.t.to_f64() - 2.0).abs() <= 1e-5);
            assert!(hit.normal.distance(v::<R>(0.0, 1.0, 0.0)).to_f64() <= 1e-6);
            let up = ray::<R>(v::<R>(x * k, -k, z * k), v::<R>(0.0, k, 0.0));
            let below = hf.cast_ray(&up, R::INFINITY).unwrap().normal;
            assert!(below.distance(v::<R>(0.0, -1.0, 0.0)).to_f64() <= 1e-6);
        }
        let in_plane = ray::<R>(v::<R>(-k, 0.0, 0.1 * k), v::<R>(k, 0.0, 0.0));
        assert!(hf.cast_ray(&in_plane, R::INFINITY).is_none());
        assert!(hf
            .cast_ray(&ray::<R>(v::<R>(0.0, k, 0.0), R::V3::ZERO), R::INFINITY)
            .is_none());
        let nan = ray::<R>(v::<R>(f64::NAN, k, 0.0), v::<R>(0.0, -1.0, 0.0));
        assert!(hf.cast_ray(&nan, R::INFINITY).is_none());
        // Outside the grid: miss; max_t short of the surface: miss.
        let beside = ray::<R>(v::<R>(0.6 * k, k, 0.0), v::<R>(0.0, -1.0, 0.0));
        assert!(hf.cast_ray(&beside, R::INFINITY).is_none());
        let short = ray::<R>(v::<R>(0.0, 2.0 * k, 0.0), v::<R>(0.0, -k, 0.0));
        assert!(hf.cast_ray(&short, R::from_f64(1.9)).is_none());
        // Projection: above the field onto it; a point on it is "inside"; NaN.
        let p = hf.project_local_point(v::<R>(0.1 * k, 3.0 * k, -0.2 * k), true);
        assert!(p.point.distance(v::<R>(0.1 * k, 0.0, -0.2 * k)).to_f64() <= 1e-5 * k);
        assert!(!p.is_inside);
        assert!(
            hf.project_local_point(v::<R>(0.1 * k, 0.0, 0.1 * k), false)
                .is_inside
        );
        assert!(
            !hf.project_local_point(v::<R>(f64::NAN, 0.0, 0.0), false)
                .is_inside
        );
    }
}
for_each_real!(flat_edges);

fn unit<R: Real>(x: f64, y: f64, z: f64) -> R::V3 {
    v::<R>(x, y, z).try_normalize().unwrap()
}

// Internal edges: on a flat field every lean inside the grid becomes +y (or −y from
// below); a lean out over the border is kept; on a ridge (heights 0, 1, 0 across x)
// a lean over the ridge line is kept from above.
fn internal_edges<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let hf = field::<R>(&[0.0; 25], 5, 5, [4.0, 1.0, 4.0]);
    let up = v::<R>(0.0, 1.0, 0.0);
    let mut rng = Rng(2);
    // Cells (1..3, 1..3) are inside the grid.
    for (i, j) in [(1, 1), (1, 2), (2, 1), (2, 2)] {
        for s in 0..2 {
            let t = (2 * (i * 4 + j) + s) as u32;
            for _ in 0..40 {
                let lean = unit::<R>(
                    rng.range(-1.0, 1.0),
                    rng.range(0.05, 1.0),
                    rng.range(-1.0, 1.0),
                );
                assert!(
                    hf.correct_normal(t, lean).distance(up).to_f64() <= 1e-5,
                    "tri {t}"
                );
                assert!(hf.correct_normal(t, -lean).distance(-up).to_f64() <= 1e-5);
            }
        }
    }
    // Triangle 0 of cell (0, 0) has the border x = −2 (edge 0) and z = −2 (edge 2).
    let out = unit::<R>(-1.0, 1.0, 0.0);
    assert_eq!(hf.correct_normal(0, out), out);
    assert_eq!(hf.correct_normal(1000, out), out, "past the end: unchanged");
    // A ridge along z at x = 0: heights 0, 1, 0 over columns.
    let ridge = field::<R>(&[0.0, 1.0, 0.0, 0.0, 1.0, 0.0], 2, 3, [2.0, 1.0, 2.0]);
    // Triangle 1 of cell (0, 0) owns the ridge edge (x = 0) as its edge 1.
    let n = ridge.triangle(1).map(|t| t.normal().unwrap()).unwrap();
    let over = (n + v::<R>(1.0, 0.0, 0.0)).try_normalize().unwrap();
    assert_eq!(ridge.correct_normal(1, over), over, "convex ridge: kept");
}
for_each_real!(internal_edges);

// The heightfield reads its neighbours off the grid; the welded TriMesh of the same
// triangles finds them by edge adjacency: on a bumpy terrain (ridges, valleys, flat
// spots) both correct 2,000 random normals identically, in the same part order, with
// and without a contact point.
fn correction_matches_welded_mesh<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let n = 10;
    let h = |x: f64, z: f64| {
        (3.0 * x).sin() * 0.3 + (2.0 * z).cos() * 0.2 + if x > 0.4 { 0.0 } else { 0.1 }
    };
    let data = meshes::grid(n, h);
    let mesh = TriMesh::<R>::new(
        data.map(|p| v::<R>(p[0], p[1], p[2])),
        data.indices.clone(),
        TriMeshFlags::OPEN,
    )
    .unwrap();
    let heights = data.vertices.iter().map(|p| R::from_f64(p[1])).collect();
    let k = n as usize + 1;
    let hf = HeightField::<R>::new(heights, k, k, v::<R>(2.0, 1.0, 2.0)).unwrap();
    assert_eq!(hf.triangle_count(), mesh.triangle_count());
    let mut rng = Rng(8);
    let (mut changed, mut changed_at) = (0, 0);
    for _ in 0..2000 {
        let i = rng.below(hf.triangle_count());
        let (a, b) = (hf.triangle(i).unwrap(), mesh.triangle(i).unwrap());
        assert!(a.a.distance(b.a).to_f64() <= 1e-6 && a.c.distance(b.c).to_f64() <= 1e-6);
        let d = unit::<R>(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        );
        let (x, y) = (
            hf.correct_normal(i as u32, d),
            mesh.correct_normal(i as u32, d),
        );
        assert!(x.distance(y).to_f64() <= 1e-5, "part {i}: {x:?} vs {y:?}");
        changed += usize::from(x != d);
        // At a contact point on a corner, an edge or inside: the grid's one-ring
        // (found by cell arithmetic) and the mesh's (by shared indices) agree.
        let at = match rng.below(3) {
            0 => [a.a, a.b, a.c][rng.below(3)],
            1 => (a.a + a.b) * R::HALF,
            _ => (a.a + a.b + a.c) * R::from_f64(1.0 / 3.0),
        };
        let (x, y) = (
            hf.correct_normal_at(i as u32, at, d),
            mesh.correct_normal_at(i as u32, at, d),
        );
        assert!(
            x.distance(y).to_f64() <= 1e-5,
            "part {i} at {at:?}: {x:?} vs {y:?}"
        );
        changed_at += usize::from(x != d);
    }
    assert!(changed > 200, "only {changed} normals corrected");
    assert!(
        changed_at > 200,
        "only {changed_at} normals corrected at points"
    );
}
for_each_real!(correction_matches_welded_mesh);

// The grid walk against the TriMesh of the same triangles on rays made to stress it:
// vertical rays through grid vertices and along grid lines, rays running along a
// grid line (x or z constant), rays through grid vertices at random slopes, nearly
// horizontal rays skimming the terrain; at scales 1e-3, 1 and 1e4.
fn grid_walk_stress<R: Real>() {
    let (rows, cols) = (9, 13);
    let h = terrain(rows, cols, 5);
    for k in [1e-3, 1.0, 1e4] {
        let hf = field::<R>(&h, rows, cols, [4.0 * k, k, 3.0 * k]);
        let mesh = as_mesh(&hf);
        let line_x = |j: usize| (-0.5 + j as f64 / (cols - 1) as f64) * 4.0 * k;
        let line_z = |i: usize| (-0.5 + i as f64 / (rows - 1) as f64) * 3.0 * k;
        let mut rng = Rng(77);
        let mut hits = 0;
        for case in 0..2000 {
            let (gx, gz) = (line_x(rng.below(cols)), line_z(rng.below(rows)));
            let (fx, fz) = (rng.range(-2.0, 2.0) * k, rng.range(-1.5, 1.5) * k);
            let (o, d) = match case % 4 {
                0 => ([gx, 2.0 * k, gz], [0.0, -k, 0.0]),
                1 => ([gx, 2.0 * k, fz], [0.0, -k, rng.range(-1.0, 1.0) * k]),
                2 => ([fx, rng.range(0.5, 2.0) * k, fz], [gx - fx, -k, gz - fz]),
                _ => (
                    [-3.0 * k, rng.range(-0.3, 0.4) * k, fz],
                    [
                        6.0 * k,
                        rng.range(-0.05, 0.05) * k,
                        rng.range(-1.0, 1.0) * k,
                    ],
                ),
            };
            let r = ray::<R>(v::<R>(o[0], o[1], o[2]), v::<R>(d[0], d[1], d[2]));
            let a = hf.cast_ray(&r, R::from_f64(4.0));
            let b = mesh.cast_ray(&r, R::from_f64(4.0));
            // Along a grid line two cells share the edge hit: their t may differ by
            // an ulp.
            let same = match (a, b) {
                (Some(a), Some(b)) => {
                    (a.t - b.t).abs() <= R::EPSILON * R::from_f64(64.0) * a.t.max(R::ONE)
                }
                (a, b) => a.is_none() && b.is_none(),
            };
            assert!(same, "case {case} at {k}: {o:?} → {d:?}: {a:?} vs {b:?}");
            hits += usize::from(a.is_some());
        }
        assert!(hits > 1000, "{hits} hits at {k}");
    }
}
for_each_real!(grid_walk_stress);
