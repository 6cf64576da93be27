//! Issue 18, item 3 (speed): the 3D quickhull took 377 ms for 10k points on a sphere
//! and 6.8 s for 100k (near quadratic). Made fast by handing each orphaned conflict
//! point to the first new face it is strictly above (exact sign), reusing dead face
//! slots and conflict lists, checking each hull edge once, and merging coplanar
//! triangles over the hull's own links (`algo/hull_3d.rs`,
//! `ConvexPolyhedron::from_points`). Speed is measured, not asserted
//! (`examples/hull_timing.rs`, `benches/hull.rs`); these tests keep the fast path
//! right at a size where its reuse of slots and lists is exercised many times.
//!
//! Seeded sets of 20,000 points, `f32` and `f64`: on the unit sphere (every point a
//! hull vertex) and in the unit ball (most points interior). Every input point is
//! checked against every face plane of the polyhedron, with `contains_point`'s
//! slack, by exact pruning instead of the O(n · faces) loop: on the sphere, a plane
//! `n · p = d` can only have the points with `|p.z − n.z|` within `√(|p|² + |n|² − 2d)`
//! beyond it (`|p − n|² = |p|² + |n|² − 2 n · p`); in the ball, the points nearer the
//! centre than the nearest plane are inside every plane.

use glam::DVec3;
use isect::algo::hull_3d::convex_hull_3d;
use isect::math::{Real, Vector3};
use isect::shape::{ConvexPolyhedron, POLYHEDRON_PLANE_ULPS};

use crate::rng::Rng;

/// Points per set.
const N: usize = 20_000;

/// A point uniform in the unit ball.
fn in_ball(r: &mut Rng) -> DVec3 {
    loop {
        let p = DVec3::new(r.range(-1.0, 1.0), r.range(-1.0, 1.0), r.range(-1.0, 1.0));
        if p.length_squared() <= 1.0 {
            return p;
        }
    }
}

/// The points in `R`.
fn to_r<R: Real>(pts: &[DVec3]) -> Vec<R::V3> {
    let s = R::from_f64;
    pts.iter()
        .map(|p| R::V3::new(s(p.x), s(p.y), s(p.z)))
        .collect()
}

fn to_d<V: Vector3>(v: V) -> DVec3 {
    DVec3::new(v.get(0).to_f64(), v.get(1).to_f64(), v.get(2).to_f64())
}

/// The first input point beyond a face plane by more than the slack, among the
/// `candidates` of each plane.
fn first_outside<R: Real>(
    poly: &ConvexPolyhedron<R>,
    pts: &[R::V3],
    candidates: impl Fn(DVec3, f64) -> Vec<usize>,
) -> Option<(usize, usize, f64)> {
    // The slack of `contains_point` (non-flat): epsilons of the largest coordinate.
    let vmax = poly
        .vertices()
        .iter()
        .fold(0.0f64, |m, v| m.max(to_d(*v).abs().max_element()));
    let slack =
        |p: DVec3| POLYHEDRON_PLANE_ULPS * R::EPSILON.to_f64() * vmax.max(p.abs().max_element());
    for (i, plane) in poly.planes().iter().enumerate() {
        let n = to_d(plane.normal());
        let d = plane.d().to_f64();
        for k in candidates(n, d) {
            let dist = plane.signed_distance(pts[k]).to_f64();
            if dist > slack(to_d(pts[k])) {
                return Some((k, i, dist));
            }
        }
    }
    None
}

/// Sphere points: a closed hull with every point as a vertex, and every point in the
/// polyhedron (the band of each plane checked, the rest excluded exactly).
fn sphere_set<R: Real>(type_name: &str) {
    let mut r = Rng(0x0005_EED5);
    let unit: Vec<DVec3> = (0..N)
        .map(|_| loop {
            let p = in_ball(&mut r);
            if p.length() > 0.1 {
                break p.normalize();
            }
        })
        .collect();
    let pts = to_r::<R>(&unit);
    let hull = convex_hull_3d(&pts).unwrap();
    assert_eq!(
        hull.vertices.len(),
        N,
        "{type_name}: every sphere point is a vertex"
    );
    assert_eq!(
        2 * hull.vertices.len(),
        hull.triangles.len() + 4,
        "{type_name}: Euler"
    );
    let poly = ConvexPolyhedron::<R>::from_points(&pts).unwrap();
    assert!(!poly.is_flat());
    // Points by z, and the largest |p|².
    let exact: Vec<DVec3> = pts.iter().map(|p| to_d(*p)).collect();
    let mut by_z: Vec<usize> = (0..N).collect();
    by_z.sort_by(|&a, &b| exact[a].z.total_cmp(&exact[b].z));
    let zs: Vec<f64> = by_z.iter().map(|&k| exact[k].z).collect();
    let m = exact.iter().fold(0.0f64, |m, p| m.max(p.length_squared()));
    // Outside the band, n · p < (m + |n|² + 1e-9 − r²) / 2 = d: strictly inside.
    let band = |n: DVec3, d: f64| {
        let r = (m + n.length_squared() + 1e-9 - 2.0 * d).max(0.0).sqrt() + 1e-9;
        let lo = zs.partition_point(|&z| z < n.z - r);
        let hi = zs.partition_point(|&z| z <= n.z + r);
        by_z[lo..hi].to_vec()
    };
    let outside = first_outside(&poly, &pts, band);
    assert!(
        outside.is_none(),
        "{type_name}: sphere point outside {outside:?}"
    );
}

/// Ball points: a closed hull, and every point in the polyhedron (the points nearer
/// the centre than every plane excluded exactly, the shell checked).
fn ball_set<R: Real>(type_name: &str) {
    let mut r = Rng(0xBA11);
    let unit: Vec<DVec3> = (0..N).map(|_| in_ball(&mut r)).collect();
    let pts = to_r::<R>(&unit);
    let hull = convex_hull_3d(&pts).unwrap();
    assert_eq!(
        2 * hull.vertices.len(),
        hull.triangles.len() + 4,
        "{type_name}: Euler"
    );
    assert!(
        hull.vertices.len() < N / 4,
        "{type_name}: most points are interior"
    );
    let poly = ConvexPolyhedron::<R>::from_points(&pts).unwrap();
    // The centre is inside; |n · p| ≤ |p| (1 + 1e-6) for a unit normal.
    let d_min = poly
        .planes()
        .iter()
        .fold(f64::INFINITY, |m, pl| m.min(pl.d().to_f64()));
    assert!(
        d_min > 0.5,
        "{type_name}: the hull holds the centre ({d_min})"
    );
    let shell: Vec<usize> = (0..N)
        .filter(|&k| to_d(pts[k]).length() * (1.0 + 1e-6) >= d_min)
        .collect();
    assert!(shell.len() < N / 2, "{type_name}: the shell is thin");
    let outside = first_outside(&poly, &pts, |_, _| shell.clone());
    assert!(
        outside.is_none(),
        "{type_name}: ball point outside {outside:?}"
    );
}

// 20k points on the unit sphere, f32 and f64.
#[test]
fn large_sphere_sets_hold_every_point() {
    sphere_set::<f64>("f64");
    sphere_set::<f32>("f32");
}

// 20k points in the unit ball, f32 and f64.
#[test]
fn large_ball_sets_hold_every_point() {
    ball_set::<f64>("f64");
    ball_set::<f32>("f32");
}
