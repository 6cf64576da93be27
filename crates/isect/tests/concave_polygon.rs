//! ConcavePolygon: validation errors, decomposition properties on seeded random
//! polygons (with and without holes, at several scales, f32 and f64), point and ray
//! queries against brute force, and the internal-edge normal correction.

#[path = "support/rng.rs"]
mod rng;

use isect::math::{Real, Vector, Vector2};
use isect::query::project_point::ProjectPoint;
use isect::query::RayCast;
use isect::shape::{Composite, ConcavePolygon, Ray, Segment, ShapeError};
use rng::Rng;

/// A ring of `(x, y)` points.
type Ring = Vec<(f64, f64)>;

fn v<R: Real>(x: f64, y: f64) -> R::V2 {
    R::V2::new(R::from_f64(x), R::from_f64(y))
}

fn ring<R: Real>(pts: &[(f64, f64)]) -> Vec<R::V2> {
    pts.iter().map(|&(x, y)| v::<R>(x, y)).collect()
}

/// Twice the signed area (shoelace), in f64.
fn shoelace<V: Vector2>(pts: &[V]) -> f64 {
    let n = pts.len();
    (0..n)
        .map(|i| {
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            a.x().to_f64() * b.y().to_f64() - b.x().to_f64() * a.y().to_f64()
        })
        .sum::<f64>()
        * 0.5
}

/// A star-shaped ring around `c`: `n` vertices at increasing angles, radii in `[r0, r1]·k`.
fn star(rng: &mut Rng, n: usize, c: (f64, f64), r0: f64, r1: f64, k: f64) -> Vec<(f64, f64)> {
    let mut angles: Vec<f64> = (0..n)
        .map(|i| (i as f64 + rng.range(0.1, 0.9)) / n as f64 * std::f64::consts::TAU)
        .collect();
    angles.sort_by(|a, b| a.partial_cmp(b).unwrap());
    angles
        .into_iter()
        .map(|a| {
            let r = rng.range(r0, r1) * k;
            (c.0 + r * a.cos(), c.1 + r * a.sin())
        })
        .collect()
}

/// A random polygon: a star of radius `[0.6, 1]·k` with up to 3 small star holes
/// placed on a circle of radius `0.35·k` (they cannot touch the outer ring or each other).
fn random_polygon(rng: &mut Rng, k: f64, with_holes: bool) -> (Ring, Vec<Ring>) {
    let c = (rng.range(-2.0, 2.0) * k, rng.range(-2.0, 2.0) * k);
    // 12+ vertices: every chord stays beyond 0.53·k from the centre, clear of the holes.
    let n = 12 + rng.below(40);
    let mut outer = star(rng, n, c, 0.6, 1.0, k);
    if rng.below(2) == 0 {
        outer.reverse(); // Either winding.
    }
    let holes = if with_holes {
        let count = 1 + rng.below(3);
        (0..count)
            .map(|h| {
                let a = h as f64 / count as f64 * std::f64::consts::TAU + 0.3;
                let hc = (c.0 + 0.35 * k * a.cos(), c.1 + 0.35 * k * a.sin());
                let n = 3 + rng.below(8);
                star(rng, n, hc, 0.03, 0.15, k)
            })
            .collect()
    } else {
        Vec::new()
    };
    (outer, holes)
}

fn build<R: Real>(outer: &[(f64, f64)], holes: &[Vec<(f64, f64)>]) -> ConcavePolygon<R> {
    ConcavePolygon::new(
        ring::<R>(outer),
        holes.iter().map(|h| ring::<R>(h)).collect(),
    )
    .expect("valid polygon")
}

/// Distance from `p` to the boundary rings, brute force in f64.
fn boundary_distance(outer: &[(f64, f64)], holes: &[Vec<(f64, f64)>], p: (f64, f64)) -> f64 {
    let rings = std::iter::once(outer).chain(holes.iter().map(|h| h.as_slice()));
    let mut best = f64::INFINITY;
    for r in rings {
        for i in 0..r.len() {
            let s = Segment {
                a: glam::DVec2::from(r[i]),
                b: glam::DVec2::from(r[(i + 1) % r.len()]),
            };
            best = best.min(s.closest_point(p.into()).0.distance(p.into()));
        }
    }
    best
}

/// Even-odd over every ring, brute force in f64.
fn brute_contains(outer: &[(f64, f64)], holes: &[Vec<(f64, f64)>], p: (f64, f64)) -> bool {
    let rings = std::iter::once(outer).chain(holes.iter().map(|h| h.as_slice()));
    let mut inside = false;
    for r in rings {
        for i in 0..r.len() {
            let (a, b) = (r[i], r[(i + 1) % r.len()]);
            if (a.1 > p.1) != (b.1 > p.1) && p.0 < a.0 + (p.1 - a.1) / (b.1 - a.1) * (b.0 - a.0) {
                inside = !inside;
            }
        }
    }
    inside
}

/// Pieces convex, areas adding up, same classification as the pieces and as brute force.
fn check_decomposition<R: Real>(
    seed: u64,
    k: f64,
    with_holes: bool,
    area_tol: f64,
) -> (usize, usize) {
    let mut rng = Rng(seed);
    let (outer, holes) = random_polygon(&mut rng, k, with_holes);
    let poly = build::<R>(&outer, &holes);
    let exact = shoelace(&ring::<f64>(&outer)).abs()
        - holes
            .iter()
            .map(|h| shoelace(&ring::<f64>(h)).abs())
            .sum::<f64>();
    let sum: f64 = poly.pieces().iter().map(|p| shoelace(p.vertices())).sum();
    assert!(
        (poly.area().to_f64() - exact).abs() <= area_tol * exact,
        "seed {seed}: area"
    );
    assert!(
        (sum - exact).abs() <= area_tol * exact,
        "seed {seed}: pieces {sum} vs {exact}"
    );
    for piece in poly.pieces() {
        let vs = piece.vertices();
        assert!(
            shoelace(vs) > 0.0,
            "seed {seed}: piece not counter-clockwise"
        );
        for i in 0..vs.len() {
            let (a, b, c) = (vs[i], vs[(i + 1) % vs.len()], vs[(i + 2) % vs.len()]);
            assert!(
                (b - a).perp_dot(c - b) >= R::ZERO,
                "seed {seed}: reflex piece vertex"
            );
        }
    }
    let (mut inside, mut total) = (0, 0);
    let bounds = poly.local_aabb();
    for _ in 0..200 {
        let p = (
            rng.range(bounds.min.x().to_f64(), bounds.max.x().to_f64()),
            rng.range(bounds.min.y().to_f64(), bounds.max.y().to_f64()),
        );
        // Skip points whose answer rounding may flip (near the boundary).
        if boundary_distance(&outer, &holes, p) < 1e-4 * k {
            continue;
        }
        let q = v::<R>(p.0, p.1);
        let whole = poly.contains_point(q);
        let by_pieces = poly.pieces().iter().any(|c| c.contains_point(q));
        assert_eq!(whole, by_pieces, "seed {seed}: {p:?} polygon vs pieces");
        assert_eq!(
            whole,
            brute_contains(&outer, &holes, p),
            "seed {seed}: {p:?} brute"
        );
        inside += usize::from(whole);
        total += 1;
    }
    (inside, total)
}

fn decomposition_props<R: Real>(area_tol: f64) {
    let (mut inside, mut total) = (0, 0);
    for (s, k) in [1e-3, 1.0, 1e4]
        .into_iter()
        .enumerate()
        .flat_map(|(i, k)| (0..60).map(move |s| (s + 1000 * i as u64, k)))
    {
        for holes in [false, true] {
            let (a, b) = check_decomposition::<R>(s, k, holes, area_tol);
            inside += a;
            total += b;
        }
    }
    let rate = inside as f64 / total as f64;
    assert!((0.3..=0.7).contains(&rate), "inside rate {rate}");
}

// 360 seeded star polygons (half with holes) at scales 1e-3, 1, 1e4.
#[test]
fn decomposition_f64() {
    decomposition_props::<f64>(1e-9);
}

#[test]
fn decomposition_f32() {
    decomposition_props::<f32>(1e-3);
}

// Huge (1e6) and tiny (1e-5) coordinates in f64 and f32.
#[test]
fn decomposition_extreme_scales() {
    for seed in 0..20 {
        check_decomposition::<f64>(seed, 1e6, seed % 2 == 0, 1e-9);
        check_decomposition::<f64>(seed, 1e-5, seed % 2 == 0, 1e-9);
        check_decomposition::<f32>(seed, 1e6, seed % 2 == 0, 1e-3);
        check_decomposition::<f32>(seed, 1e-5, seed % 2 == 0, 1e-3);
    }
}

/// Every piece-based and whole-polygon answer for a rectilinear comb whose edges carry
/// collinear vertices (ear clipping must skip them and still cover the polygon).
fn collinear_comb<R: Real>() {
    let mut outer = vec![(0.0, 0.0)];
    for i in 1..=10 {
        outer.push((i as f64, 0.0)); // Collinear bottom vertices.
    }
    outer.push((10.0, 3.0));
    for t in (0..5).rev() {
        let x = 2.0 * t as f64;
        outer.extend([
            (x + 2.0, 3.0),
            (x + 1.5, 3.0),
            (x + 1.5, 1.0),
            (x + 0.5, 1.0),
            (x + 0.5, 3.0),
        ]);
    }
    outer.push((0.0, 3.0));
    outer.dedup();
    outer.pop(); // (0, 3) closes on (0, 0) via the left side; drop a duplicate if any.
    outer.push((0.0, 3.0));
    outer.dedup();
    let poly = build::<R>(&outer, &[]);
    let exact = shoelace(&ring::<f64>(&outer));
    let sum: f64 = poly.pieces().iter().map(|p| shoelace(p.vertices())).sum();
    assert!((sum - exact).abs() < 1e-4 * exact, "{sum} vs {exact}");
    assert!((poly.area().to_f64() - exact).abs() < 1e-4 * exact);
    // A grid of points off the boundary.
    for i in 0..40 {
        for j in 0..12 {
            let p = (0.13 + i as f64 * 0.25, 0.11 + j as f64 * 0.25);
            let q = v::<R>(p.0, p.1);
            let by_pieces = poly.pieces().iter().any(|c| c.contains_point(q));
            assert_eq!(poly.contains_point(q), by_pieces, "{p:?}");
            assert_eq!(
                poly.contains_point(q),
                brute_contains(&outer, &[], p),
                "{p:?}"
            );
        }
    }
}

#[test]
fn collinear_vertices() {
    collinear_comb::<f32>();
    collinear_comb::<f64>();
}

fn bad_inputs<R: Real>() {
    let err = |outer: &[(f64, f64)], holes: &[Vec<(f64, f64)>]| {
        ConcavePolygon::<R>::new(
            ring::<R>(outer),
            holes.iter().map(|h| ring::<R>(h)).collect(),
        )
        .unwrap_err()
    };
    let square = [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)];
    // A bow-tie: edge 0→1 crosses edge 2→3.
    assert_eq!(
        err(&[(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0)], &[]),
        ShapeError::SelfIntersecting {
            shape: "ConcavePolygon",
            edge_a: 0,
            edge_b: 2,
            relation: "crosses"
        }
    );
    // Repeats leave too few distinct vertices.
    assert!(matches!(
        err(&[(0.0, 0.0), (1.0, 0.0), (1.0, 0.0), (0.0, 0.0)], &[]),
        ShapeError::TooFewPoints { got: 2, .. }
    ));
    // NaN at vertex 1; too few vertices.
    assert!(matches!(
        err(&[(0.0, 0.0), (f64::NAN, 0.0), (0.0, 1.0)], &[]),
        ShapeError::InvalidVertex { vertex: 1, .. }
    ));
    assert!(matches!(
        err(&[(0.0, 0.0), (1.0, 0.0)], &[]),
        ShapeError::TooFewPoints { got: 2, .. }
    ));
    // Collinear only (zero area), and a hole of zero area.
    assert!(matches!(
        err(&[(0.0, 0.0), (1.0, 1.0), (2.0, 2.0), (3.0, 3.0)], &[]),
        ShapeError::Degenerate { .. }
    ));
    assert!(matches!(
        err(&square, &[vec![(1.0, 1.0), (2.0, 2.0), (3.0, 3.0)]]),
        ShapeError::Degenerate { .. }
    ));
    // A vertex touching a non-adjacent edge: vertex 4 lies on edge 0→1 (edges 3 and 4 touch it).
    assert!(matches!(
        err(
            &[
                (0.0, 0.0),
                (4.0, 0.0),
                (4.0, 4.0),
                (2.0, 4.0),
                (2.0, 0.0),
                (0.0, 4.0)
            ],
            &[]
        ),
        ShapeError::SelfIntersecting {
            edge_a: 0,
            edge_b: 3 | 4,
            ..
        }
    ));
    // A spike folding back onto its neighbour edge.
    assert!(matches!(
        err(&[(0.0, 0.0), (4.0, 0.0), (2.0, 0.0), (2.0, 3.0)], &[]),
        ShapeError::SelfIntersecting { .. }
    ));
    // A hole crossing the outer ring: hole edges 4 and 6 cross outer edge 1.
    assert!(matches!(
        err(
            &square,
            &[vec![(3.0, 1.0), (5.0, 1.0), (5.0, 2.0), (3.0, 2.0)]]
        ),
        ShapeError::SelfIntersecting {
            edge_a: 1,
            edge_b: 4 | 6,
            relation: "crosses",
            ..
        }
    ));
    // Two holes crossing each other (vertices 4.. and 7..).
    assert!(matches!(
        err(
            &square,
            &[
                vec![(1.0, 1.0), (2.5, 1.0), (1.0, 2.5)],
                vec![(2.0, 2.0), (2.0, 0.5), (3.0, 3.0)]
            ]
        ),
        ShapeError::SelfIntersecting { .. }
    ));
    // A hole outside; a hole inside another hole (first vertex named).
    assert!(matches!(
        err(&square, &[vec![(5.0, 5.0), (6.0, 5.0), (5.0, 6.0)]]),
        ShapeError::InvalidVertex { vertex: 4, .. }
    ));
    assert!(matches!(
        err(
            &square,
            &[
                vec![(0.5, 0.5), (3.5, 0.5), (3.5, 3.5), (0.5, 3.5)],
                vec![(1.0, 1.0), (2.0, 1.0), (1.0, 2.0)]
            ]
        ),
        ShapeError::InvalidVertex { .. }
    ));
}

#[test]
fn validation_errors() {
    bad_inputs::<f32>();
    bad_inputs::<f64>();
}

// A clockwise U is normalised: counter-clockwise outer ring, positive area, 2+ pieces.
#[test]
fn winding_normalised() {
    let u = [
        (0.0, 0.0),
        (0.0, 3.0),
        (1.0, 3.0),
        (1.0, 1.0),
        (2.0, 1.0),
        (2.0, 3.0),
        (3.0, 3.0),
        (3.0, 0.0),
    ];
    let poly = build::<f64>(&u, &[]);
    assert!(shoelace(poly.outer()) > 0.0);
    assert_eq!(poly.area(), 7.0);
    assert!(poly.pieces().len() >= 2);
    let with_hole = build::<f64>(
        &[(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)],
        &[vec![(1.0, 1.0), (3.0, 1.0), (3.0, 3.0), (1.0, 3.0)]],
    );
    assert!(shoelace(&with_hole.holes()[0]) < 0.0);
    assert_eq!(with_hole.area(), 12.0);
    // Inside the hole: outside the polygon. On the hole's edge: inside (closed set).
    assert!(!with_hole.contains_point(glam::DVec2::new(2.0, 2.0)));
    assert!(with_hole.contains_point(glam::DVec2::new(1.0, 2.0)));
}

/// Rays from random origins against brute force over the boundary edges.
fn rays_vs_brute<R: Real>(k: f64, t_tol: f64) {
    let mut rng = Rng(77);
    let (mut hits, mut total) = (0, 0);
    for _ in 0..40 {
        let (outer, holes) = random_polygon(&mut rng, k, true);
        let poly = build::<R>(&outer, &holes);
        let edges: Vec<Segment<R::V2>> = std::iter::once(&outer)
            .chain(&holes)
            .flat_map(|r| {
                (0..r.len()).map(move |i| Segment {
                    a: v::<R>(r[i].0, r[i].1),
                    b: v::<R>(r[(i + 1) % r.len()].0, r[(i + 1) % r.len()].1),
                })
            })
            .collect();
        let b = poly.local_aabb();
        for _ in 0..50 {
            let o = v::<R>(
                rng.range(b.min.x().to_f64() - k, b.max.x().to_f64() + k),
                rng.range(b.min.y().to_f64() - k, b.max.y().to_f64() + k),
            );
            let target = v::<R>(
                rng.range(b.min.x().to_f64() - 0.5 * k, b.max.x().to_f64() + 0.5 * k),
                rng.range(b.min.y().to_f64() - 0.5 * k, b.max.y().to_f64() + 0.5 * k),
            );
            let d = target - o;
            let ray = Ray { origin: o, dir: d };
            let max_t = R::ONE;
            let hit = poly.cast_ray(&ray, max_t);
            if poly.contains_point(o) {
                let h = hit.expect("inside hits at 0");
                assert_eq!(h.t, R::ZERO);
                continue;
            }
            total += 1;
            let brute = edges
                .iter()
                .filter_map(|e| e.cast_ray(&ray, max_t))
                .map(|h| h.t.to_f64())
                .fold(f64::INFINITY, f64::min);
            match hit {
                Some(h) => {
                    hits += 1;
                    assert!((h.t.to_f64() - brute).abs() <= t_tol, "{} vs {brute}", h.t);
                    // Entering the solid: the normal faces the ray and points out.
                    assert!(h.normal.dot(d) <= R::ZERO);
                    let inside = ray.point_at(h.t + R::from_f64(1e-3));
                    let outside = ray.point_at(h.t - R::from_f64(1e-3));
                    assert!(poly.contains_point(inside) || !poly.contains_point(outside));
                }
                None => assert!(brute.is_infinite(), "missed a hit at {brute}"),
            }
            let all = poly.cast_ray_all(&ray, max_t);
            assert!(all.windows(2).all(|w| w[0].1.t <= w[1].1.t));
            assert_eq!(all.first().map(|h| h.1.t), hit.map(|h| h.t));
        }
    }
    let rate = hits as f64 / total as f64;
    assert!((0.3..=0.7).contains(&rate), "hit rate {rate}");
}

// 2,000 rays per type and scale against the boundary edges one by one.
#[test]
fn ray_casts() {
    rays_vs_brute::<f64>(1.0, 1e-12);
    rays_vs_brute::<f64>(1e5, 1e-9);
    rays_vs_brute::<f32>(1.0, 1e-5);
}

// Origin on the boundary: moving inward reports the edge's outward normal at t = 0;
// moving out reports t = 0 with a zero normal; NaN and negative max_t miss.
#[test]
fn ray_edge_cases() {
    let poly = build::<f64>(
        &[(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (2.0, 1.0), (0.0, 4.0)],
        &[],
    );
    let on_bottom = glam::DVec2::new(1.0, 0.0);
    let hit = poly
        .cast_ray(
            &Ray {
                origin: on_bottom,
                dir: glam::DVec2::Y,
            },
            1.0,
        )
        .unwrap();
    assert_eq!((hit.t, hit.normal), (0.0, -glam::DVec2::Y));
    let out = poly
        .cast_ray(
            &Ray {
                origin: on_bottom,
                dir: -glam::DVec2::Y,
            },
            1.0,
        )
        .unwrap();
    assert_eq!((out.t, out.normal), (0.0, glam::DVec2::ZERO));
    // From above the notch, straight down: first crossing is the notch's slanted edge.
    let hit = poly
        .cast_ray(
            &Ray {
                origin: glam::DVec2::new(2.0, 5.0),
                dir: -glam::DVec2::Y,
            },
            10.0,
        )
        .unwrap();
    assert!((hit.t - 4.0).abs() < 1e-12);
    let nan = Ray {
        origin: glam::DVec2::new(f64::NAN, 0.0),
        dir: glam::DVec2::X,
    };
    assert!(poly.cast_ray(&nan, 1.0).is_none());
    assert!(poly
        .cast_ray(
            &Ray {
                origin: glam::DVec2::new(-1.0, 1.0),
                dir: glam::DVec2::X
            },
            -1.0
        )
        .is_none());
    assert!(poly
        .cast_ray(
            &Ray {
                origin: glam::DVec2::new(-1.0, 1.0),
                dir: glam::DVec2::X
            },
            f64::NAN
        )
        .is_none());
    // Zero direction: hits only from inside.
    assert!(poly
        .cast_ray(
            &Ray {
                origin: glam::DVec2::new(1.0, 0.5),
                dir: glam::DVec2::ZERO
            },
            1.0
        )
        .is_some());
    assert!(poly
        .cast_ray(
            &Ray {
                origin: glam::DVec2::new(2.0, 3.0),
                dir: glam::DVec2::ZERO
            },
            1.0
        )
        .is_none());
    assert!(!poly.contains_point(glam::DVec2::new(f64::NAN, 1.0)));
}

// Projection: solid inside stays put; outside and hollow go to the nearest boundary
// point, checked against brute force.
#[test]
fn point_projection() {
    let mut rng = Rng(5);
    for _ in 0..20 {
        let (outer, holes) = random_polygon(&mut rng, 1.0, true);
        let poly = build::<f64>(&outer, &holes);
        for _ in 0..50 {
            let p = (rng.range(-4.0, 4.0), rng.range(-4.0, 4.0));
            let q = glam::DVec2::from(p);
            let d = boundary_distance(&outer, &holes, p);
            let hollow = poly.project_local_point(q, false);
            assert!((hollow.point.distance(q) - d).abs() < 1e-12);
            assert_eq!(hollow.is_inside, poly.contains_point(q));
            let solid = poly.project_local_point(q, true);
            if solid.is_inside {
                assert_eq!(solid.point, q);
            } else {
                assert_eq!(solid.point, hollow.point);
            }
        }
    }
    let poly = build::<f64>(&[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)], &[]);
    assert!(poly
        .project_local_point(glam::DVec2::splat(f64::NAN), true)
        .point
        .is_nan());
}

/// The floor of a bar `[0, 10] × [−1, 0]` with teeth cut into its bottom: its top edge
/// has flat vertices at x = 2.5, 5, 7.5 where the pieces' seams end.
fn toothed_bar() -> ConcavePolygon<f64> {
    let mut outer = vec![(0.0, -1.0)];
    for c in [2.5, 5.0, 7.5] {
        outer.extend([(c - 0.5, -1.0), (c, -0.5), (c + 0.5, -1.0)]);
    }
    outer.extend([
        (10.0, -1.0),
        (10.0, 0.0),
        (7.5, 0.0),
        (5.0, 0.0),
        (2.5, 0.0),
        (0.0, 0.0),
    ]);
    build::<f64>(&outer, &[])
}

// A normal leaning over a seam on the top surface comes back as the top normal; a
// real corner keeps its cone; a boundary edge's normal is kept.
#[test]
fn internal_edges_give_surface_normals() {
    use glam::DVec2;
    let poly = toothed_bar();
    assert!(poly.pieces().len() >= 4);
    let up = DVec2::Y;
    for (i, piece) in poly.pieces().iter().enumerate() {
        let i = i as u32;
        for lean in [
            DVec2::new(1.0, 0.2),
            DVec2::new(-1.0, 0.2),
            DVec2::new(0.7, 0.7),
            DVec2::new(-0.7, 0.7),
        ] {
            let n = lean.normalize();
            let support = piece
                .vertices()
                .iter()
                .copied()
                .max_by(|a, b| a.dot(n).total_cmp(&b.dot(n)))
                .unwrap();
            let r = poly.correct_normal(i, n);
            if support.y == 0.0 && support.x > 0.0 && support.x < 10.0 {
                // A flat top vertex: only the top surface is real there.
                assert_eq!(r, up, "piece {i}, lean {lean}");
            } else if (support == DVec2::new(10.0, 0.0) && n.x > 0.0)
                || (support == DVec2::new(0.0, 0.0) && n.x < 0.0)
            {
                assert_eq!(r, n, "corner cone kept");
            }
        }
        let on_top = piece.vertices().iter().filter(|v| v.y == 0.0).count() >= 2;
        if on_top {
            assert_eq!(poly.correct_normal(i, up), up);
        }
        // Whatever comes in, a boundary normal or the input comes out.
        for a in 0..64 {
            let n = DVec2::from_angle(a as f64 * std::f64::consts::TAU / 64.0);
            let r = poly.correct_normal(i, n);
            assert!((r.length() - 1.0).abs() < 1e-12);
            let real = poly.outer().iter().enumerate().any(|(k, &p)| {
                let q = poly.outer()[(k + 1) % poly.outer().len()];
                let e = q - p;
                DVec2::new(e.y, -e.x).normalize().distance(r) < 1e-12
            });
            assert!(r == n || real, "piece {i}: {n} became {r}");
        }
    }
    // NaN and out-of-range indices come back unchanged.
    assert!(poly.correct_normal(0, DVec2::NAN).is_nan());
    assert_eq!(poly.correct_normal(10_000, up), up);
}

// The composite view: parts are the pieces, the tree holds one item each.
#[test]
fn composite_parts() {
    let poly = toothed_bar();
    assert_eq!(poly.part_count(), poly.pieces().len());
    assert_eq!(
        Composite::<glam::DVec2>::bvh(&poly).len(),
        poly.pieces().len()
    );
    for i in 0..poly.part_count() as u32 {
        poly.with_part(i, |pose, part| {
            assert_eq!(*pose, isect::math::Pose2::new(glam::DVec2::ZERO, 0.0));
            assert_eq!(
                part,
                &isect::shape::shape_2d::Shape::Polygon(poly.pieces()[i as usize].clone())
            );
        });
    }
}

/// The polygon of `seed` moved by the rigid motion `(angle, shift)` and with its rings
/// reversed: the same area, the same pieces' total, the same answers for moved points.
fn rigid_motion_invariance(seed: u64, angle: f64, shift: (f64, f64)) -> Result<(), TestCaseError> {
    let mut rng = Rng(seed);
    let (outer, holes) = random_polygon(&mut rng, 1.0, seed % 2 == 0);
    let (s, c) = angle.sin_cos();
    let motion = |&(x, y): &(f64, f64)| (c * x - s * y + shift.0, s * x + c * y + shift.1);
    let moved_outer: Vec<_> = outer.iter().rev().map(motion).collect();
    let moved_holes: Vec<Vec<_>> = holes
        .iter()
        .map(|h| h.iter().map(motion).collect())
        .collect();
    let a = build::<f64>(&outer, &holes);
    let b = build::<f64>(&moved_outer, &moved_holes);
    let tol = 1e-9 * (1.0 + shift.0.abs() + shift.1.abs());
    prop_assert!((a.area() - b.area()).abs() <= tol * a.area());
    let sum: f64 = b.pieces().iter().map(|p| shoelace(p.vertices())).sum();
    prop_assert!((sum - b.area()).abs() <= tol * b.area());
    for _ in 0..50 {
        let p = (rng.range(-4.0, 4.0), rng.range(-4.0, 4.0));
        if boundary_distance(&outer, &holes, p) < 1e-6 {
            continue;
        }
        let q = motion(&p);
        prop_assert_eq!(a.contains_point(p.into()), b.contains_point(q.into()));
        prop_assert_eq!(
            b.contains_point(q.into()),
            b.pieces().iter().any(|c| c.contains_point(q.into()))
        );
    }
    Ok(())
}

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    // A rigid motion (and reversed windings) changes no answer.
    #[test]
    fn rigid_motion_changes_nothing(seed in 0u64..1_000_000, angle in -3.2f64..3.2, dx in -1e3f64..1e3, dy in -1e3f64..1e3) {
        rigid_motion_invariance(seed, angle, (dx, dy))?;
    }
}

// A ray through a square with a square hole crosses the boundary four times, in order,
// entering, leaving, entering, leaving; the solid cast stops at the first.
#[test]
fn ray_through_hole() {
    use glam::DVec2;
    let poly = build::<f64>(
        &[(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)],
        &[vec![(1.0, 1.0), (3.0, 1.0), (3.0, 3.0), (1.0, 3.0)]],
    );
    let ray = Ray {
        origin: DVec2::new(-1.0, 2.0),
        dir: DVec2::X,
    };
    let all = poly.cast_ray_all(&ray, 10.0);
    let ts: Vec<f64> = all.iter().map(|h| h.1.t).collect();
    assert_eq!(ts, vec![1.0, 2.0, 4.0, 5.0]);
    assert_eq!(poly.cast_ray(&ray, 10.0).unwrap().normal, -DVec2::X);
    // From inside the hole: the first crossing enters the solid (the hole's edge).
    let from_hole = Ray {
        origin: DVec2::new(2.0, 2.0),
        dir: DVec2::X,
    };
    let hit = poly.cast_ray(&from_hole, 10.0).unwrap();
    assert_eq!((hit.t, hit.normal), (1.0, -DVec2::X));
    // Grazing the hole's corner from inside the solid: t = 0, zero normal.
    let graze = Ray {
        origin: DVec2::new(0.5, 0.5),
        dir: DVec2::ONE,
    };
    assert_eq!(poly.cast_ray(&graze, 10.0).unwrap().normal, DVec2::ZERO);
}
