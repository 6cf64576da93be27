//! TriMesh: construction errors, ray casts (closest and all hits) on its edges and
//! vertices, the solid inside test, point projection and the internal-edge normal
//! correction. Every body runs in f32 and f64.

#[path = "support/for_each_real.rs"]
#[macro_use]
mod for_each_real;
#[path = "support/meshes.rs"]
mod meshes;
#[path = "support/rng.rs"]
mod rng;

use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose3, Real, Rotation3, Vector, Vector3};
use isect::query::dispatch::contact;
use isect::query::{ProjectPoint, RayCast};
use isect::shape::heightfield_3d::HeightField;
use isect::shape::shape_3d::Shape;
use isect::shape::{Aabb, Ball, Composite, Ray, ShapeError, TriMesh, TriMeshFlags};
use meshes::{bumpy_sphere, cube, grid, MeshData};
use rng::Rng;

fn v<R: Real>(x: f64, y: f64, z: f64) -> R::V3 {
    R::V3::new(R::from_f64(x), R::from_f64(y), R::from_f64(z))
}

fn build<R: Real>(data: &MeshData, flags: TriMeshFlags) -> TriMesh<R> {
    TriMesh::new(
        data.map(|[x, y, z]| v::<R>(x, y, z)),
        data.indices.clone(),
        flags,
    )
    .unwrap()
}

fn ray<R: Real>(o: R::V3, d: R::V3) -> Ray<R::V3> {
    Ray { origin: o, dir: d }
}

fn close<R: Real>(a: R, b: f64, tol: f64) -> bool {
    (a.to_f64() - b).abs() <= tol * b.abs().max(1.0)
}

fn tol<R: Real>() -> f64 {
    R::EPSILON.to_f64() * 64.0
}

// Bad input: empty mesh, NaN vertex, index past the end, open / inconsistent / inward /
// non-manifold meshes asked to be solid; each error names the culprit.
fn construction_errors<R: Real>() {
    let verts = || {
        vec![
            v::<R>(0.0, 0.0, 0.0),
            v::<R>(1.0, 0.0, 0.0),
            v::<R>(0.0, 1.0, 0.0),
        ]
    };
    let open = TriMeshFlags::OPEN;
    assert!(matches!(
        TriMesh::<R>::new(verts(), vec![], open),
        Err(ShapeError::Degenerate { .. })
    ));
    let mut nan = verts();
    nan[2] = v::<R>(0.0, f64::NAN, 0.0);
    assert_eq!(
        TriMesh::<R>::new(nan, vec![[0, 1, 2]], open).unwrap_err(),
        ShapeError::NotFiniteAt {
            shape: "TriMesh",
            field: "vertices",
            index: 2
        }
    );
    let mut inf = verts();
    inf[1] = v::<R>(f64::INFINITY, 0.0, 0.0);
    assert!(matches!(
        TriMesh::<R>::new(inf, vec![[0, 1, 2]], open),
        Err(ShapeError::NotFiniteAt { index: 1, .. })
    ));
    assert_eq!(
        TriMesh::<R>::new(verts(), vec![[0, 1, 2], [0, 3, 1]], open).unwrap_err(),
        ShapeError::IndexOutOfRange {
            shape: "TriMesh",
            triangle: 1,
            index: 3,
            vertex_count: 3
        }
    );
    // One triangle is open: solid refused at its first edge.
    let err = TriMesh::<R>::new(verts(), vec![[0, 1, 2]], TriMeshFlags::SOLID).unwrap_err();
    assert!(
        matches!(
            err,
            ShapeError::NotClosed {
                triangle: 0,
                edge: [0, 1],
                ..
            }
        ),
        "{err}"
    );
    // A cube with one triangle flipped: inconsistent orientation.
    let mut c = cube();
    c.indices[3].swap(1, 2);
    let err = TriMesh::<R>::new(
        c.map(|[x, y, z]| v::<R>(x, y, z)),
        c.indices.clone(),
        TriMeshFlags::SOLID,
    )
    .unwrap_err();
    assert!(matches!(err, ShapeError::NotClosed { .. }), "{err}");
    assert!(err.to_string().contains("inconsistently"), "{err}");
    // The whole cube flipped: closed and consistent, but inward.
    let mut c = cube();
    c.indices.iter_mut().for_each(|t| t.swap(1, 2));
    let err = TriMesh::<R>::new(
        c.map(|[x, y, z]| v::<R>(x, y, z)),
        c.indices.clone(),
        TriMeshFlags::SOLID,
    )
    .unwrap_err();
    assert!(matches!(err, ShapeError::Degenerate { .. }), "{err}");
    // A cube with an extra fin on one edge: three triangles share it.
    let mut c = cube();
    c.vertices.push([0.0, 5.0, 5.0]);
    c.indices.push([6, 7, 8]);
    let err = TriMesh::<R>::new(
        c.map(|[x, y, z]| v::<R>(x, y, z)),
        c.indices.clone(),
        TriMeshFlags::SOLID,
    )
    .unwrap_err();
    assert!(matches!(err, ShapeError::NotClosed { .. }), "{err}");
    // The same meshes are fine when open.
    assert!(TriMesh::<R>::new(c.map(|[x, y, z]| v::<R>(x, y, z)), c.indices, open).is_ok());
}
for_each_real!(construction_errors);

// The cube [−k, k]³ at scales 1e-4, 1, 1e5: rays through faces, along edges, through
// vertices, grazing a face, from inside, zero direction, NaN.
fn cube_rays<R: Real>() {
    for k in [1e-4, 1.0, 1e5] {
        let m = build::<R>(&cube().scaled(k), TriMeshFlags::SOLID);
        let inf = R::INFINITY;
        // Straight down onto the top face from 2k above it: t = 1, normal +y.
        let down = ray::<R>(
            v::<R>(0.3 * k, 3.0 * k, 0.2 * k),
            v::<R>(0.0, -2.0 * k, 0.0),
        );
        let hit = m.cast_ray(&down, inf).unwrap();
        assert!(close(hit.t, 1.0, tol::<R>()), "{k}: {hit:?}");
        assert_eq!(hit.normal, v::<R>(0.0, 1.0, 0.0));
        // Through the top face's diagonal (the edge between its two triangles) and
        // through a cube corner: hits, no gap.
        let diag = ray::<R>(v::<R>(0.5 * k, 3.0 * k, 0.5 * k), v::<R>(0.0, -k, 0.0));
        assert!(close(m.cast_ray(&diag, inf).unwrap().t, 2.0, tol::<R>()));
        let corner = ray::<R>(v::<R>(2.0 * k, 2.0 * k, 2.0 * k), v::<R>(-k, -k, -k));
        assert!(close(m.cast_ray(&corner, inf).unwrap().t, 1.0, tol::<R>()));
        // Along the top face, in its plane, from outside: meets the side face x = −k at
        // its top edge (t = 1).
        let graze = ray::<R>(v::<R>(-2.0 * k, k, 0.5 * k), v::<R>(k, 0.0, 0.0));
        let hit = m.cast_ray(&graze, inf).unwrap();
        assert!(close(hit.t, 1.0, tol::<R>()), "{k}: {hit:?}");
        // Touching the edge x = y = k from outside (a front and a back face meet the
        // ray at the same t): a hit at t = 1 with a real normal, never "inside".
        let touch = ray::<R>(v::<R>(2.0 * k, 0.0, 0.3 * k), v::<R>(-k, k, 0.0));
        let hit = m.cast_ray(&touch, inf).unwrap();
        assert!(close(hit.t, 1.0, tol::<R>()), "{k}: {hit:?}");
        assert!(hit.normal != R::V3::ZERO && hit.normal.dot(touch.dir) <= R::ZERO);
        // Parallel to the top face just above it: miss.
        let above = ray::<R>(v::<R>(-2.0 * k, 1.01 * k, 0.0), v::<R>(k, 0.0, 0.0));
        assert!(m.cast_ray(&above, inf).is_none());
        // From inside, any direction, and a zero direction: t = 0, zero normal.
        for d in [v::<R>(k, 0.0, 0.0), v::<R>(0.0, 0.0, 0.0)] {
            let hit = m
                .cast_ray(
                    &ray::<R>(v::<R>(0.1 * k, 0.2 * k, -0.3 * k), d),
                    R::from_f64(0.5),
                )
                .unwrap();
            assert_eq!((hit.t, hit.normal), (R::ZERO, R::V3::ZERO));
        }
        // From the surface inward: that face's normal at t = 0.
        let inward = ray::<R>(v::<R>(0.0, k, 0.0), v::<R>(0.0, -k, 0.0));
        let hit = m.cast_ray(&inward, inf).unwrap();
        assert_eq!(hit.t, R::ZERO);
        assert_eq!(hit.normal, v::<R>(0.0, 1.0, 0.0));
        // Zero direction outside; max_t before the face; NaN ray; negative max_t.
        assert!(m
            .cast_ray(&ray::<R>(v::<R>(3.0 * k, 0.0, 0.0), R::V3::ZERO), inf)
            .is_none());
        assert!(m.cast_ray(&down, R::from_f64(0.99)).is_none());
        let nan = ray::<R>(v::<R>(f64::NAN, 0.0, 0.0), v::<R>(1.0, 0.0, 0.0));
        assert!(m.cast_ray(&nan, inf).is_none());
        assert!(m.cast_ray(&down, R::from_f64(-1.0)).is_none());
        assert!(m.cast_ray(&down, R::from_f64(f64::NAN)).is_none());
    }
}
for_each_real!(cube_rays);

// Open meshes are two-sided: the open cube (no bottom) is hit from inside, normal
// facing the ray; cast_ray_all lists every crossing in order.
fn open_mesh_and_all_hits<R: Real>() {
    let mut c = cube();
    c.indices.truncate(10); // drop the face x = +1
    let open = build::<R>(&c, TriMeshFlags::OPEN);
    let up = ray::<R>(v::<R>(0.2, 0.0, 0.0), v::<R>(0.0, 0.0, 1.0));
    let hit = open.cast_ray(&up, R::INFINITY).unwrap();
    assert!(close(hit.t, 1.0, tol::<R>()));
    assert_eq!(
        hit.normal,
        v::<R>(0.0, 0.0, -1.0),
        "the inside of the z = +1 face"
    );
    // All hits of a ray through the whole closed cube: two crossings, sorted.
    let solid = build::<R>(&cube(), TriMeshFlags::SOLID);
    let through = ray::<R>(v::<R>(-3.0, 0.1, 0.2), v::<R>(1.0, 0.0, 0.0));
    let all = solid.cast_ray_all(&through, R::INFINITY);
    assert_eq!(all.len(), 2);
    assert!(close(all[0].t, 2.0, tol::<R>()) && close(all[1].t, 4.0, tol::<R>()));
    assert_eq!(all[0].normal, v::<R>(-1.0, 0.0, 0.0));
    assert_eq!(
        all[1].normal,
        v::<R>(-1.0, 0.0, 0.0),
        "faces the ray on the way out"
    );
    // max_t between the two: one hit. Through the shared diagonal of a face: one hit
    // per triangle at the same t.
    assert_eq!(solid.cast_ray_all(&through, R::from_f64(3.0)).len(), 1);
    let diag = ray::<R>(v::<R>(0.5, 0.5, 3.0), v::<R>(0.0, 0.0, -1.0));
    let all = solid.cast_ray_all(&diag, R::INFINITY);
    assert!(
        all.len() >= 3 && all.windows(2).all(|w| w[0].t <= w[1].t),
        "{all:?}"
    );
    let nan = ray::<R>(v::<R>(0.0, f64::NAN, 0.0), v::<R>(1.0, 0.0, 0.0));
    assert!(solid.cast_ray_all(&nan, R::INFINITY).is_empty());
}
for_each_real!(open_mesh_and_all_hits);

// cast_ray_all agrees with brute force over every triangle on a bumpy sphere: the
// same count and sorted ts.
fn all_hits_brute_force<R: Real>() {
    let m = build::<R>(&bumpy_sphere(24, 12, 0.2), TriMeshFlags::SOLID);
    let mut rng = Rng(7);
    let mut hits = 0;
    for _ in 0..300 {
        let o = v::<R>(
            rng.range(-2.0, 2.0),
            rng.range(-2.0, 2.0),
            rng.range(-2.0, 2.0),
        );
        let aim = v::<R>(
            rng.range(-1.5, 1.5),
            rng.range(-1.5, 1.5),
            rng.range(-1.5, 1.5),
        );
        let d = aim - o;
        let r = ray::<R>(o, d);
        let all = m.cast_ray_all(&r, R::INFINITY);
        let brute = (0..m.triangle_count())
            .filter(|&i| m.triangle(i).unwrap().cast_ray(&r, R::INFINITY).is_some())
            .count();
        assert_eq!(all.len(), brute);
        assert!(all.windows(2).all(|w| w[0].t <= w[1].t));
        hits += usize::from(!all.is_empty());
    }
    assert!((90..=210).contains(&hits), "hit rate {hits}/300");
}
for_each_real!(all_hits_brute_force);

/// Ray parity: crossings of a ray in a fixed, irrational-ish direction.
fn parity_inside<R: Real>(m: &TriMesh<R>, p: R::V3) -> bool {
    let d = v::<R>(0.5403, 0.3817, 0.7497);
    m.cast_ray_all(&ray::<R>(p, d), R::INFINITY).len() % 2 == 1
}

// The solid inside test against ray parity on random points around a bumpy sphere
// (30–70% inside), and against the analytic cube.
fn inside_test<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let m = build::<R>(&bumpy_sphere(32, 16, 0.25), TriMeshFlags::SOLID);
    let mut rng = Rng(11);
    let mut inside = 0;
    for _ in 0..2000 {
        let p = v::<R>(
            rng.range(-1.1, 1.1),
            rng.range(-1.1, 1.1),
            rng.range(-1.1, 1.1),
        );
        let ours = m.contains_local_point(p);
        assert_eq!(ours, parity_inside(&m, p), "at {p:?}");
        assert_eq!(ours, m.project_local_point(p, false).is_inside);
        inside += usize::from(ours);
    }
    assert!((600..=1400).contains(&inside), "inside rate {inside}/2000");
    let c = build::<R>(&cube(), TriMeshFlags::SOLID);
    for _ in 0..2000 {
        let p = v::<R>(
            rng.range(-1.5, 1.5),
            rng.range(-1.5, 1.5),
            rng.range(-1.5, 1.5),
        );
        let analytic = (0..3).all(|a| p.get(a).abs() <= R::ONE);
        assert_eq!(c.contains_local_point(p), analytic, "at {p:?}");
    }
    // Points on faces, edges and corners are inside; just outside a corner is not.
    for p in [
        v::<R>(1.0, 0.3, 0.2),
        v::<R>(1.0, 1.0, 0.0),
        v::<R>(1.0, 1.0, 1.0),
        v::<R>(0.5, 0.5, 1.0),
    ] {
        assert!(c.contains_local_point(p), "{p:?}");
    }
    assert!(!c.contains_local_point(v::<R>(1.001, 1.001, 1.001)));
    assert!(!c.contains_local_point(v::<R>(f64::NAN, 0.0, 0.0)));
    // Open meshes contain nothing.
    let open = build::<R>(&cube(), TriMeshFlags::OPEN);
    assert!(!open.contains_local_point(R::V3::ZERO));
}
for_each_real!(inside_test);

// Projection onto the cube against the analytic box projection; solid and hollow.
fn projection<R: Real>() {
    let c = build::<R>(&cube(), TriMeshFlags::SOLID);
    let mut rng = Rng(3);
    for _ in 0..1000 {
        let p = v::<R>(
            rng.range(-3.0, 3.0),
            rng.range(-3.0, 3.0),
            rng.range(-3.0, 3.0),
        );
        let clamp = v::<R>(
            p.get(0).to_f64().clamp(-1.0, 1.0),
            p.get(1).to_f64().clamp(-1.0, 1.0),
            p.get(2).to_f64().clamp(-1.0, 1.0),
        );
        let hollow = c.project_local_point(p, false);
        if clamp == p {
            // Inside: the solid projection is the point itself, the hollow one lies on
            // the nearest face.
            assert_eq!(c.project_local_point(p, true).point, p);
            let gap = (0..3)
                .map(|a| 1.0 - p.get(a).to_f64().abs())
                .fold(f64::INFINITY, f64::min);
            assert!(close(hollow.point.distance(p), gap, 1e3 * tol::<R>()));
            assert!(hollow.is_inside);
        } else {
            assert!(!hollow.is_inside);
            assert!(
                hollow.point.distance(clamp).to_f64() <= 1e3 * tol::<R>(),
                "{p:?}"
            );
        }
    }
    let nan = c.project_local_point(v::<R>(f64::NAN, 0.0, 0.0), true);
    assert!(!nan.is_inside && nan.point.get(0).is_nan());
    // Far away (1e4): still the nearest corner.
    let far = c.project_local_point(v::<R>(1e4, 1e4, -1e4), false);
    assert!(far.point.distance(v::<R>(1.0, 1.0, -1.0)).to_f64() <= 1e-3);
}
for_each_real!(projection);

// A mesh with flat (zero-area) triangles: a flat square whose diagonal carries a
// sliver triangle with a repeated vertex and one with three collinear vertices.
fn degenerate_triangles<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let verts = vec![
        v::<R>(0.0, 0.0, 0.0),
        v::<R>(1.0, 0.0, 0.0),
        v::<R>(1.0, 0.0, 1.0),
        v::<R>(0.0, 0.0, 1.0),
        v::<R>(0.5, 0.0, 0.5),
    ];
    let tris = vec![[0, 2, 1], [0, 3, 2], [0, 2, 2], [0, 4, 2]];
    let m = TriMesh::<R>::new(verts, tris, TriMeshFlags::OPEN).unwrap();
    assert_eq!(m.face_normal(2), Some(R::V3::ZERO));
    // Rays down through the diagonal (on the slivers) hit the real triangles at t = 1.
    for s in [0.25, 0.5, 0.75] {
        let r = ray::<R>(v::<R>(s, 1.0, s), v::<R>(0.0, -1.0, 0.0));
        let hit = m.cast_ray(&r, R::INFINITY).unwrap();
        assert!(close(hit.t, 1.0, tol::<R>()));
        assert_eq!(hit.normal, v::<R>(0.0, 1.0, 0.0));
    }
    let p = m.project_local_point(v::<R>(0.5, 2.0, 0.5), false);
    assert!(p.point.distance(v::<R>(0.5, 0.0, 0.5)).to_f64() <= tol::<R>());
    // The sliver keeps any normal (no face to correct toward).
    let n = v::<R>(0.6, 0.8, 0.0);
    assert_eq!(m.correct_normal(2, n), n);
}
for_each_real!(degenerate_triangles);

fn unit<R: Real>(x: f64, y: f64, z: f64) -> R::V3 {
    v::<R>(x, y, z).try_normalize().unwrap()
}

fn close_v<R: Real>(a: R::V3, b: R::V3) -> bool {
    a.distance(b).to_f64() <= 1e3 * tol::<R>()
}

// Internal edges on a flat grid: any normal leaning over an internal edge or vertex
// comes back as the face normal (from above and from below); on the grid's border
// (a real edge) it is kept.
fn internal_edges_flat<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let m = build::<R>(&grid(4, |_, _| 0.0), TriMeshFlags::OPEN);
    let up = v::<R>(0.0, 1.0, 0.0);
    let mut rng = Rng(5);
    // Triangles of inner cells: every edge internal.
    for cell in [5u32, 6, 9, 10] {
        for t in [2 * cell, 2 * cell + 1] {
            for _ in 0..50 {
                let lean = unit::<R>(
                    rng.range(-1.0, 1.0),
                    rng.range(0.05, 1.0),
                    rng.range(-1.0, 1.0),
                );
                assert!(
                    close_v::<R>(m.correct_normal(t, lean), up),
                    "tri {t} {lean:?}"
                );
                assert!(
                    close_v::<R>(m.correct_normal(t, -lean), -up),
                    "below, tri {t}"
                );
            }
        }
    }
    // Cell 0's triangle 0 has border edges on x = −1 and z = −1: leaning out over the
    // x = −1 border is kept; leaning over its diagonal (internal) is not.
    let out = unit::<R>(-1.0, 1.0, 0.0);
    assert_eq!(m.correct_normal(0, out), out);
    let over_diag = unit::<R>(1.0, 1.0, 1.0);
    assert!(close_v::<R>(m.correct_normal(0, over_diag), up));
    // The face normal itself and NaN pass through.
    assert_eq!(m.correct_normal(10, up), up);
    assert!(m
        .correct_normal(10, v::<R>(f64::NAN, 0.0, 0.0))
        .get(0)
        .is_nan());
}
for_each_real!(internal_edges_flat);

// Internal edges on the cube: a normal leaning over a real (convex) cube edge is kept
// inside the edge's wedge, one leaning past the neighbour face becomes that face's
// normal, one leaning over a face diagonal (flat) becomes the face normal.
fn internal_edges_cube<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let m = build::<R>(&cube(), TriMeshFlags::SOLID);
    // Triangle 2 is [4, 5, 7] on z = +1: edge 4 → 5 is the cube edge y = −1, z = +1.
    assert_eq!(m.face_normal(2), Some(v::<R>(0.0, 0.0, 1.0)));
    let wedge = unit::<R>(0.0, -1.0, 1.0);
    assert_eq!(m.correct_normal(2, wedge), wedge);
    let past = unit::<R>(0.0, -1.0, -0.2);
    assert!(close_v::<R>(
        m.correct_normal(2, past),
        v::<R>(0.0, -1.0, 0.0)
    ));
    // Past the wedge but still above the top face's plane: the side face's normal.
    assert!(close_v::<R>(
        m.correct_normal(2, unit::<R>(0.0, -1.0, 0.0)),
        v::<R>(0.0, -1.0, 0.0)
    ));
    // Behind the top face and behind the side face (inside the cube): the face's back.
    let inside = unit::<R>(0.0, 0.3, -1.0);
    assert!(close_v::<R>(
        m.correct_normal(2, inside),
        v::<R>(0.0, 0.0, -1.0)
    ));
    // Edge 5 → 7 is the cube edge x = +1; edge 7 → 4 the face diagonal.
    let over_x = unit::<R>(1.0, 0.0, 1.0);
    assert_eq!(m.correct_normal(2, over_x), over_x);
    let over_diag = unit::<R>(-1.0, 1.0, 1.0);
    assert!(close_v::<R>(
        m.correct_normal(2, over_diag),
        v::<R>(0.0, 0.0, 1.0)
    ));
    // Over the corner 5 = (1, −1, 1): a real vertex, kept.
    let corner = unit::<R>(1.0, -1.0, 1.0);
    assert_eq!(m.correct_normal(2, corner), corner);
}
for_each_real!(internal_edges_cube);

// Internal edges on a concave fold (a V-shaped valley): from above, a normal leaning
// over the valley's bottom edge is the face normal; from below (where the fold is a
// ridge) it is kept.
fn internal_edges_valley<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let m = build::<R>(&grid(2, |x, _| x.abs()), TriMeshFlags::OPEN);
    // Cell (0, 0) lies on x ∈ [−1, 0] (the slope y = −x); the edge x = 0 (the valley)
    // is internal.
    // Triangle 1 of cell 0 owns the edge x = 0; its normal is (1, 1, 0)/√2.
    let n1 = m.face_normal(1).unwrap();
    assert!(close_v::<R>(n1, unit::<R>(1.0, 1.0, 0.0)));
    for k in [0.1, 0.5, 3.0] {
        let lean = (n1 + v::<R>(k, 0.0, 0.0)).try_normalize().unwrap();
        assert!(
            close_v::<R>(m.correct_normal(1, lean), n1),
            "concave from above"
        );
    }
    // From below, leaning toward the valley edge: a ridge there, the normal is kept.
    let below = (-n1 + v::<R>(0.5, 0.0, 0.0)).try_normalize().unwrap();
    assert_eq!(m.correct_normal(1, below), below, "convex from below: kept");
}
for_each_real!(internal_edges_valley);

/// The contacts of `shape` (at `pose`) with every part of `c` whose box meets the
/// shape's box, as (part, uncorrected normal, corrected normal); normals point from
/// the part to the shape.
fn part_contacts<R: Real, C: Composite<R::V3, Part = Shape<R>>>(
    c: &C,
    pose: &Pose3<R>,
    shape: &Shape<R>,
    reach: f64,
) -> Vec<(u32, R::V3, R::V3)>
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let at = pose.translation;
    let query = Aabb {
        min: at - R::V3::splat(R::from_f64(reach)),
        max: at + R::V3::splat(R::from_f64(reach)),
    };
    let mut out = Vec::new();
    c.bvh().query(&query, |i| {
        let contact = c.with_part(i, |part_pose, part| {
            contact(part_pose, part, pose, shape, R::ZERO)
        });
        if let Some(k) = contact.filter(|k| k.depth > R::ZERO) {
            out.push((i, k.normal, c.correct_normal(i, k.normal)));
        }
        true
    });
    out
}

// No ghost collisions: a ball (radius 0.3, sunk 0.02) and a box (half-size 0.2,
// turned 30° about y, sunk 0.02) slid across a flat grid mesh and the flat
// heightfield of the same triangles get only +y contact normals after correction,
// though the raw per-triangle normals do lean over the internal edges.
fn no_ghost_collisions<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let mesh = build::<R>(&grid(8, |_, _| 0.0), TriMeshFlags::OPEN);
    let heights = vec![R::ZERO; 81];
    let hf = HeightField::<R>::new(heights, 9, 9, v::<R>(2.0, 1.0, 2.0)).unwrap();
    let ball = Shape::Ball(Ball::new(R::V3::ZERO, R::from_f64(0.3)).unwrap());
    let cube = Shape::Cuboid(Aabb::from_center(R::V3::ZERO, v::<R>(0.2, 0.2, 0.2)).unwrap());
    let turn = <R::Quat as Rotation3<R>>::from_axis_angle(
        v::<R>(0.0, 1.0, 0.0),
        R::from_f64(std::f64::consts::FRAC_PI_6),
    );
    let up = v::<R>(0.0, 1.0, 0.0);
    let (mut leaning, mut contacts) = (0, 0);
    for step in 0..120 {
        let x = -0.6 + 1.2 * step as f64 / 119.0;
        let z = 0.1 + 0.3 * x;
        let cases = [
            (
                Pose3::new(v::<R>(x, 0.28, z), <R::Quat as Rotation3<R>>::IDENTITY),
                &ball,
            ),
            (Pose3::new(v::<R>(x, 0.18, z), turn), &cube),
        ];
        for (pose, shape) in cases {
            let found = [
                part_contacts(&mesh, &pose, shape, 0.4),
                part_contacts(&hf, &pose, shape, 0.4),
            ];
            for (_, raw, fixed) in found.iter().flatten() {
                contacts += 1;
                leaning += usize::from(raw.distance(up).to_f64() > 1e-2);
                assert!(
                    fixed.distance(up).to_f64() <= 1e-4,
                    "{raw:?} → {fixed:?} at x = {x}"
                );
            }
        }
    }
    assert!(contacts > 500, "{contacts} contacts");
    assert!(
        leaning > 10,
        "only {leaning} raw normals lean: the test would not see a ghost"
    );
}
for_each_real!(no_ghost_collisions);

mod rigid_motion {
    use super::*;
    use glam::{DQuat, DVec3};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        // One rigid motion of the mesh and the ray (or point) changes nothing: the
        // posed ray cast and projection equal the local ones, moved.
        #[test]
        fn posed_equals_local(
            axis in prop::array::uniform3(-1.0f64..1.0),
            angle in -3.1f64..3.1,
            shift in prop::array::uniform3(-50.0f64..50.0),
            origin in prop::array::uniform3(-2.0f64..2.0),
            aim in prop::array::uniform3(-1.0f64..1.0),
        ) {
            let axis = DVec3::from(axis).try_normalize().unwrap_or(DVec3::X);
            let pose = Pose3::<f64>::new(DVec3::from(shift), DQuat::from_axis_angle(axis, angle));
            let m = build::<f64>(&bumpy_sphere(16, 8, 0.2), TriMeshFlags::SOLID);
            let local = Ray { origin: DVec3::from(origin), dir: DVec3::from(aim) - DVec3::from(origin) };
            let world = Ray {
                origin: pose.transform_point(local.origin),
                dir: pose.transform_vector(local.dir),
            };
            let a = m.cast_ray(&local, 10.0);
            let b = m.cast_ray_posed(&pose, &world, 10.0);
            prop_assert_eq!(a.is_some(), b.is_some());
            if let (Some(a), Some(b)) = (a, b) {
                prop_assert!((a.t - b.t).abs() <= 1e-9);
                prop_assert!(pose.transform_vector(a.normal).distance(b.normal) <= 1e-9);
            }
            let pa = m.project_local_point(local.origin, false);
            let pb = m.project_point(&pose, world.origin, false);
            prop_assert_eq!(pa.is_inside, pb.is_inside);
            prop_assert!(pose.transform_point(pa.point).distance(pb.point) <= 1e-9);
        }
    }
}

// A bumpy sphere far from the origin (offset 1e3 in f32, 1e5 in f64): rays, the
// inside test and projections answer as for the same sphere at the origin with the
// queries moved along, within the precision left at that offset.
fn far_from_origin<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let off = if R::EPSILON.to_f64() > 1e-10 {
        1e3
    } else {
        1e5
    };
    let data = bumpy_sphere(24, 12, 0.2);
    let near = build::<R>(&data, TriMeshFlags::SOLID);
    let far = TriMesh::<R>::new(
        data.map(|[x, y, z]| v::<R>(x + off, y - off, z + off)),
        data.indices.clone(),
        TriMeshFlags::SOLID,
    )
    .unwrap();
    let shift = v::<R>(off, -off, off);
    let slack = R::EPSILON.to_f64() * off * 64.0;
    let mut rng = Rng(31);
    let mut agree = 0;
    for _ in 0..500 {
        let p = v::<R>(
            rng.range(-1.1, 1.1),
            rng.range(-1.1, 1.1),
            rng.range(-1.1, 1.1),
        );
        let (a, b) = (
            near.project_local_point(p, false),
            far.project_local_point(p + shift, false),
        );
        let (da, db) = (
            a.point.distance(p).to_f64(),
            b.point.distance(p + shift).to_f64(),
        );
        assert!((da - db).abs() <= slack, "distance {da} vs {db}");
        if da > slack {
            assert_eq!(a.is_inside, b.is_inside);
            assert_eq!(
                near.contains_local_point(p),
                far.contains_local_point(p + shift)
            );
        }
        let d = v::<R>(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        );
        let o = p * R::from_f64(2.5);
        let (ra, rb) = (
            near.cast_ray(&ray::<R>(o, d), R::from_f64(10.0)),
            far.cast_ray(&ray::<R>(o + shift, d), R::from_f64(10.0)),
        );
        match (ra, rb) {
            (Some(x), Some(y)) => {
                assert!((x.t - y.t).abs().to_f64() <= slack * 10.0, "{x:?} vs {y:?}");
                agree += 1;
            }
            (None, None) => agree += 1,
            // A ray grazing the silhouette may go either way at this precision.
            _ => {}
        }
    }
    assert!(agree >= 490, "{agree}/500 rays agree");
}
for_each_real!(far_from_origin);

// A closed cube with a zero-area triangle: the edge 1–3 of the face z = −1 is split
// at its midpoint m on the face x = +1, and the T-junction is closed by the flat
// triangle (3, m, 1). The inside test, projections and rays still match the cube,
// with points crowded near that edge.
fn solid_with_flat_triangle<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let mut c = cube();
    c.vertices.push([1.0, 0.0, -1.0]); // m = 8, the midpoint of 1 = (1, −1, −1) and 3 = (1, 1, −1)
    let x_face = c.indices.iter().position(|t| *t == [1, 3, 7]).unwrap();
    c.indices[x_face] = [1, 8, 7];
    c.indices.push([8, 3, 7]);
    c.indices.push([3, 8, 1]);
    let m = build::<R>(&c, TriMeshFlags::SOLID);
    assert_eq!(m.face_normal(m.triangle_count() - 1), Some(R::V3::ZERO));
    let mut rng = Rng(4);
    for _ in 0..2000 {
        // Near the edge x = 1, z = −1.
        let p = v::<R>(
            1.0 + rng.range(-0.2, 0.2),
            rng.range(-1.2, 1.2),
            -1.0 + rng.range(-0.2, 0.2),
        );
        let analytic = (0..3).all(|a| p.get(a).abs() <= R::ONE);
        assert_eq!(m.contains_local_point(p), analytic, "at {p:?}");
        let q = m.project_local_point(p, false);
        let clamp = v::<R>(
            p.get(0).to_f64().clamp(-1.0, 1.0),
            p.get(1).to_f64().clamp(-1.0, 1.0),
            p.get(2).to_f64().clamp(-1.0, 1.0),
        );
        if !analytic {
            assert!(q.point.distance(clamp).to_f64() <= 1e3 * tol::<R>());
        }
    }
    // A ray onto the split edge from outside, diagonally: hits at t = 1.
    let r = ray::<R>(v::<R>(2.0, 0.0, -2.0), v::<R>(-1.0, 0.0, 1.0));
    let hit = m.cast_ray(&r, R::INFINITY).unwrap();
    assert!(close(hit.t, 1.0, tol::<R>()) && hit.normal != R::V3::ZERO);
}
for_each_real!(solid_with_flat_triangle);

/// The triangles of `m` with unit normal `n` and a corner at `p`.
fn triangles_at<R: Real>(m: &TriMesh<R>, p: R::V3, n: R::V3) -> Vec<u32> {
    (0..m.triangle_count() as u32)
        .filter(|&i| {
            let t = m.triangle(i as usize).unwrap();
            let normal = (t.b - t.a).cross(t.c - t.a).try_normalize().unwrap();
            [t.a, t.b, t.c].contains(&p) && normal.distance(n).to_f64() <= 1e-6
        })
        .collect()
}

// The correction given the contact point (`correct_normal_at`), at scales 1e-3, 1 and
// 1e4: at a solid cube's corner, a normal from a side triangle leaning up (the shape
// is above the top face, behind the side's plane) becomes the top's normal, one along
// the corner's diagonal (the corner is extremal) is kept; at an inner vertex of a flat
// grid any lean becomes the face normal (either side); at the grid's corner a lean
// outward is kept; inside a face the face normal answers; a NaN point falls back to
// `correct_normal`; an index past the end keeps the normal.
fn correction_at_contact_point<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let up = v::<R>(0.0, 1.0, 0.0);
    for k in [1e-3, 1.0, 1e4] {
        let cube = build::<R>(&cube().scaled(k), TriMeshFlags::SOLID);
        let corner = v::<R>(k, k, k);
        let sides = triangles_at::<R>(&cube, corner, v::<R>(1.0, 0.0, 0.0));
        assert!(!sides.is_empty());
        let lean = unit::<R>(-0.26, 0.93, -0.26);
        let diagonal = unit::<R>(1.0, 1.0, 1.0);
        for &i in &sides {
            let got = cube.correct_normal_at(i, corner, lean);
            assert!(close_v::<R>(got, up), "scale {k}, side {i}: {got:?}");
            assert_eq!(cube.correct_normal_at(i, corner, diagonal), diagonal);
            // Inside the side face: its normal.
            let t = cube.triangle(i as usize).unwrap();
            let mid = (t.a + t.b + t.c) * R::from_f64(1.0 / 3.0);
            let got = cube.correct_normal_at(i, mid, unit::<R>(0.8, 0.6, 0.0));
            assert!(close_v::<R>(got, v::<R>(1.0, 0.0, 0.0)), "{got:?}");
        }
        let flat = build::<R>(&grid(4, |_, _| 0.0).scaled(k), TriMeshFlags::OPEN);
        let centre = v::<R>(0.0, 0.0, 0.0);
        let mut rng = Rng(11);
        for i in triangles_at::<R>(&flat, centre, up) {
            for _ in 0..20 {
                let lean = unit::<R>(
                    rng.range(-1.0, 1.0),
                    rng.range(0.05, 1.0),
                    rng.range(-1.0, 1.0),
                );
                let got = flat.correct_normal_at(i, centre, lean);
                assert!(close_v::<R>(got, up), "scale {k}, tri {i}: {got:?}");
                let got = flat.correct_normal_at(i, centre, -lean);
                assert!(close_v::<R>(got, -up), "below, scale {k}, tri {i}: {got:?}");
            }
        }
        let far = v::<R>(-k, 0.0, -k);
        let out = unit::<R>(-1.0, 1.0, -1.0);
        for i in triangles_at::<R>(&flat, far, up) {
            assert_eq!(flat.correct_normal_at(i, far, out), out);
        }
    }
    let cube = build::<R>(&cube(), TriMeshFlags::SOLID);
    let lean = unit::<R>(0.3, 0.9, 0.3);
    let nan = v::<R>(f64::NAN, 0.0, 0.0);
    assert_eq!(
        cube.correct_normal_at(3, nan, lean),
        cube.correct_normal(3, lean)
    );
    assert_eq!(cube.correct_normal_at(99, up, lean), lean);
}
for_each_real!(correction_at_contact_point);

/// The triangles across each edge by the definition, in `O(n²)`: the one other edge
/// between the same two (distinct) vertices, when exactly one.
fn brute_neighbours(indices: &[[u32; 3]]) -> Vec<[Option<u32>; 3]> {
    let edge = |t: &[u32; 3], k: usize| (t[k], t[(k + 1) % 3]);
    let same = |(a, b): (u32, u32), (c, d): (u32, u32)| (a, b) == (c, d) || (a, b) == (d, c);
    let users = |e: (u32, u32)| -> Vec<u32> {
        let mut found = Vec::new();
        for (j, u) in indices.iter().enumerate() {
            for k in 0..3 {
                if same(e, edge(u, k)) {
                    found.push(j as u32);
                }
            }
        }
        found
    };
    indices
        .iter()
        .enumerate()
        .map(|(t, tri)| {
            core::array::from_fn(|k| {
                let e = edge(tri, k);
                let found = users(e);
                // Two users: the other one (a triangle may use one edge twice).
                let at = found.iter().position(|&j| j as usize == t)?;
                (e.0 != e.1 && found.len() == 2).then(|| found[1 - at])
            })
        })
        .collect()
}

/// The first `(triangle, edge)` where a mesh is not closed and consistently oriented,
/// by the definition (the error a solid mesh's constructor must name).
fn brute_first_defect(indices: &[[u32; 3]]) -> Option<(usize, [u32; 2])> {
    if let Some(t) = indices
        .iter()
        .position(|t| t[0] == t[1] || t[1] == t[2] || t[2] == t[0])
    {
        return Some((t, [indices[t][0], indices[t][1]]));
    }
    for (t, tri) in indices.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            let runs = |x: u32, y: u32| {
                indices
                    .iter()
                    .flat_map(|u| (0..3).map(move |m| (u[m], u[(m + 1) % 3])))
                    .filter(|&e| e == (x, y))
                    .count()
            };
            if (runs(a, b), runs(b, a)) != (1, 1) {
                return Some((t, [a, b]));
            }
        }
    }
    None
}

// Edge adjacency (built on first use for open meshes) against the definition, on
// seeded index soups over few vertices: shared, non-manifold (3+ users), repeated-vertex
// and doubly used edges; and one fan whose centre has every edge (one large bucket).
fn adjacency_matches_definition<R: Real>() {
    let mut rng = Rng(0xAD1A);
    let mut cases: Vec<(usize, Vec<[u32; 3]>)> = (0..60)
        .map(|_| {
            let n = 3 + rng.below(8);
            let tris = (0..1 + rng.below(24))
                .map(|_| [0; 3].map(|_| rng.below(n) as u32))
                .collect();
            (n, tris)
        })
        .collect();
    let fan = (1..400u32).map(|i| [0, i, i + 1]).collect();
    cases.push((401, fan));
    for (n, indices) in cases {
        let vertices = (0..n)
            .map(|i| v::<R>(i as f64, (i * i % 7) as f64, (i % 3) as f64))
            .collect::<Vec<_>>();
        let mesh = TriMesh::<R>::new(vertices.clone(), indices.clone(), TriMeshFlags::OPEN)
            .expect("valid");
        let copy = mesh.clone();
        let want = brute_neighbours(&indices);
        for (t, w) in want.iter().enumerate() {
            assert_eq!(
                mesh.adjacent_triangles(t).as_ref(),
                Some(w),
                "{indices:?}, {t}"
            );
        }
        // A clone made before the topology was built builds its own, the same.
        copy.prepare_topology();
        assert_eq!(copy.adjacent_triangles(0), mesh.adjacent_triangles(0));
        let solid = TriMesh::<R>::new(vertices, indices.clone(), TriMeshFlags::SOLID);
        match (brute_first_defect(&indices), solid) {
            (Some((t, e)), Err(ShapeError::NotClosed { triangle, edge, .. })) => {
                assert_eq!((triangle, edge), (t, e), "{indices:?}")
            }
            (None, Ok(_)) | (None, Err(ShapeError::Degenerate { .. })) => {}
            (want, got) => panic!("{indices:?}: want {want:?}, got {got:?}"),
        }
    }
}
for_each_real!(adjacency_matches_definition);

// A mesh whose topology is built lazily answers every contact as one built eagerly
// (`prepare_topology` right after construction), clones included.
fn lazy_topology_answers_as_eager<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let data = grid(12, |x, z| 0.2 * (3.0 * x).sin() * (2.0 * z).cos());
    let lazy = build::<R>(&data, TriMeshFlags::OPEN);
    let eager = build::<R>(&data, TriMeshFlags::OPEN);
    eager.prepare_topology();
    use isect::shape::shape_3d::AnyShape;
    let (lazy, eager) = (AnyShape::from(lazy), AnyShape::from(eager));
    let ball = AnyShape::from(Shape::Ball(
        Ball::new(R::V3::ZERO, R::from_f64(0.15)).unwrap(),
    ));
    let mut rng = Rng(0x1A2E);
    let mut touching = 0;
    for _ in 0..300 {
        let p = v::<R>(
            rng.range(-1.0, 1.0),
            rng.range(-0.3, 0.3),
            rng.range(-1.0, 1.0),
        );
        let (pm, pb) = (Pose3::<R>::IDENTITY, Pose3::<R>::from_translation(p));
        // A clone shares the mesh (an `Arc`): the first contact builds the topology.
        let a = contact(&pm, &lazy.clone(), &pb, &ball, R::ZERO);
        let b = contact(&pm, &eager, &pb, &ball, R::ZERO);
        assert_eq!(a, b, "at {p:?}");
        touching += usize::from(a.is_some());
    }
    assert!((60..=240).contains(&touching), "{touching} of 300 touch");
}
for_each_real!(lazy_topology_answers_as_eager);

// The shared tree is built on first use: a mesh never prepared answers projections,
// contacts and all-hit rays exactly as one prepared at once, also when several
// threads make its first queries together.
fn lazy_shared_tree_answers_as_eager<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let data = bumpy_sphere(16, 8, 0.2);
    let eager = build::<R>(&data, TriMeshFlags::SOLID);
    eager.prepare_bvh();
    let lazy = build::<R>(&data, TriMeshFlags::SOLID);
    use isect::shape::shape_3d::AnyShape;
    let (lazy, eager) = (AnyShape::from(lazy), AnyShape::from(eager));
    let ball = AnyShape::from(Shape::Ball(
        Ball::new(R::V3::ZERO, R::from_f64(0.3)).unwrap(),
    ));
    let answers = |mesh: &AnyShape<R>, seed: u64| {
        let mut rng = Rng(seed);
        (0..200)
            .map(|_| {
                let mut p = || {
                    v::<R>(
                        rng.range(-1.5, 1.5),
                        rng.range(-1.5, 1.5),
                        rng.range(-1.5, 1.5),
                    )
                };
                let (at, dir) = (p(), p());
                let pose = Pose3::<R>::from_translation(at);
                let hit = contact(&Pose3::<R>::IDENTITY, mesh, &pose, &ball, R::ZERO);
                let AnyShape::TriMesh(m) = mesh else {
                    unreachable!("a mesh")
                };
                let projected = m.project_local_point(at, false).point;
                let all = Ray::new(at, dir)
                    .map(|ray| m.cast_ray_all(&ray, R::from_f64(10.0)).len())
                    .unwrap_or(0);
                (hit, projected, all)
            })
            .collect::<Vec<_>>()
    };
    let threads: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|k| {
                let lazy = lazy.clone();
                scope.spawn(move || answers(&lazy, 0x5EED + k))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (k, got) in threads.iter().enumerate() {
        assert_eq!(*got, answers(&eager, 0x5EED + k as u64), "thread {k}");
    }
    let crossings: usize = threads[0].iter().map(|a| a.2).sum();
    assert!(crossings > 50, "{crossings} crossings");
}
for_each_real!(lazy_shared_tree_answers_as_eager);
