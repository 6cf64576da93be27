//! Polyline: validation, ray casts and `cast_ray_all` against brute force over the
//! segments, a parry2d differential for ray casts and point projection, and the
//! internal-vertex normal correction.

#[path = "support/rng.rs"]
mod rng;

use isect::math::{Real, Vector, Vector2};
use isect::query::project_point::ProjectPoint;
use isect::query::RayCast;
use isect::shape::{Composite, Polyline, Ray, ShapeError};
use rng::Rng;

fn v<R: Real>(x: f64, y: f64) -> R::V2 {
    R::V2::new(R::from_f64(x), R::from_f64(y))
}

/// A random walk of `n` vertices with steps of length up to `k`.
fn walk<R: Real>(rng: &mut Rng, n: usize, k: f64) -> Vec<R::V2> {
    let (mut x, mut y) = (0.0, 0.0);
    (0..n)
        .map(|_| {
            x += rng.range(0.1, 1.0) * k;
            y += rng.range(-1.0, 1.0) * k;
            v::<R>(x, y)
        })
        .collect()
}

fn bad_inputs<R: Real>() {
    let p = |pts: &[(f64, f64)]| pts.iter().map(|&(x, y)| v::<R>(x, y)).collect::<Vec<_>>();
    assert!(matches!(
        Polyline::<R>::new(p(&[(0.0, 0.0)]), false),
        Err(ShapeError::TooFewPoints {
            needed: 2,
            got: 1,
            ..
        })
    ));
    assert!(matches!(
        Polyline::<R>::new(p(&[(0.0, 0.0), (1.0, 0.0)]), true),
        Err(ShapeError::TooFewPoints { needed: 3, .. })
    ));
    // NaN at vertex 1; vertex 2 repeats vertex 1; a closed loop whose last vertex is the first.
    assert!(matches!(
        Polyline::<R>::new(p(&[(0.0, 0.0), (f64::NAN, 0.0)]), false),
        Err(ShapeError::InvalidVertex { vertex: 1, .. })
    ));
    assert!(matches!(
        Polyline::<R>::new(p(&[(0.0, 0.0), (1.0, 0.0), (1.0, 0.0)]), false),
        Err(ShapeError::InvalidVertex { vertex: 2, .. })
    ));
    assert!(matches!(
        Polyline::<R>::new(p(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 0.0)]), true),
        Err(ShapeError::InvalidVertex { vertex: 0, .. })
    ));
    // Explicit segments: index out of range, zero-length segment, no segment.
    let square = p(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0)]);
    assert!(matches!(
        Polyline::<R>::with_segments(square.clone(), vec![[0, 3]]),
        Err(ShapeError::OutOfRange { value, .. }) if value == 3.0
    ));
    let dup = p(&[(0.0, 0.0), (1.0, 0.0), (0.0, 0.0)]);
    assert!(matches!(
        Polyline::<R>::with_segments(dup, vec![[0, 1], [1, 2], [2, 0]]),
        Err(ShapeError::InvalidVertex { vertex: 0, .. })
    ));
    assert!(matches!(
        Polyline::<R>::with_segments(square, vec![]),
        Err(ShapeError::Degenerate { .. })
    ));
}

#[test]
fn validation_errors() {
    bad_inputs::<f32>();
    bad_inputs::<f64>();
}

/// Rays against brute force over every segment; `cast_ray_all` against the brute-force list.
fn rays_vs_brute<R: Real>(k: f64, tol: f64) {
    let mut rng = Rng(11);
    let (mut hits, mut total) = (0, 0);
    for case in 0..20 {
        let line = Polyline::<R>::new(walk::<R>(&mut rng, 100, k), case % 2 == 0).unwrap();
        let b = line.local_aabb();
        let segs: Vec<_> = (0..line.segments().len() as u32)
            .map(|i| line.segment(i).unwrap())
            .collect();
        for _ in 0..100 {
            let pick = |rng: &mut Rng, i: usize, m: f64| {
                rng.range(b.min.get(i).to_f64() - m, b.max.get(i).to_f64() + m)
            };
            let o = v::<R>(pick(&mut rng, 0, 0.0), pick(&mut rng, 1, 20.0 * k));
            let target = v::<R>(pick(&mut rng, 0, 0.0), pick(&mut rng, 1, 20.0 * k));
            let ray = Ray {
                origin: o,
                dir: target - o,
            };
            let max_t = R::from_f64(0.8);
            let brute: Vec<(u32, R)> = segs
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.cast_ray(&ray, max_t).map(|h| (i as u32, h.t)))
                .collect();
            let first = brute
                .iter()
                .map(|h| h.1.to_f64())
                .fold(f64::INFINITY, f64::min);
            let hit = line.cast_ray(&ray, max_t);
            total += 1;
            match hit {
                Some(h) => {
                    hits += 1;
                    assert!((h.t.to_f64() - first).abs() <= tol * (1.0 + first));
                    assert!(h.normal.dot(ray.dir) <= R::ZERO, "normal faces the ray");
                }
                None => assert!(brute.is_empty()),
            }
            let all = line.cast_ray_all(&ray, max_t);
            assert_eq!(all.len(), brute.len());
            assert!(all.windows(2).all(|w| w[0].1.t <= w[1].1.t));
            let mut ids: Vec<u32> = all.iter().map(|h| h.0).collect();
            ids.sort_unstable();
            assert_eq!(ids, brute.iter().map(|h| h.0).collect::<Vec<_>>());
        }
    }
    let rate = hits as f64 / total as f64;
    assert!((0.3..=0.7).contains(&rate), "hit rate {rate}");
}

// 2,000 rays per type at scales 1e-3, 1 and 1e4.
#[test]
fn ray_casts_vs_brute_force() {
    for k in [1e-3, 1.0, 1e4] {
        rays_vs_brute::<f64>(k, 1e-12);
        rays_vs_brute::<f32>(k, 1e-4);
    }
}

fn projection_vs_brute<R: Real>(k: f64) {
    let mut rng = Rng(3);
    let line = Polyline::<R>::new(walk::<R>(&mut rng, 300, k), false).unwrap();
    let b = line.local_aabb();
    for _ in 0..500 {
        let p = v::<R>(
            rng.range(b.min.x().to_f64() - 5.0 * k, b.max.x().to_f64() + 5.0 * k),
            rng.range(b.min.y().to_f64() - 50.0 * k, b.max.y().to_f64() + 50.0 * k),
        );
        let proj = line.project_local_point(p, true);
        let brute = (0..line.segments().len() as u32)
            .map(|i| {
                line.segment(i)
                    .unwrap()
                    .closest_point(p)
                    .0
                    .distance(p)
                    .to_f64()
            })
            .fold(f64::INFINITY, f64::min);
        let got = proj.point.distance(p).to_f64();
        assert!(
            (got - brute).abs() <= 1e-5 * (brute + k),
            "{got} vs {brute}"
        );
        assert!(!proj.is_inside || got <= 1e-5 * k);
    }
    // A point on a vertex lies on the polyline; NaN projects to NaN.
    let on = line.vertices()[10];
    assert!(line.project_local_point(on, false).is_inside);
    assert!(line
        .project_local_point(v::<R>(f64::NAN, 0.0), false)
        .point
        .is_nan());
}

// Far, near and on-the-line points against brute force.
#[test]
fn point_projection() {
    for k in [1e-3, 1.0, 1e4] {
        projection_vs_brute::<f64>(k);
        projection_vs_brute::<f32>(k);
    }
}

// parry2d's Polyline on the same random walks: same first hit, same projection.
#[test]
fn parry_differential() {
    use parry2d::query::{PointQuery, Ray as PRay, RayCast as PRayCast};
    let mut rng = Rng(42);
    let (mut hits, mut total) = (0, 0);
    for _ in 0..20 {
        let verts = walk::<f32>(&mut rng, 200, 1.0);
        let ours = Polyline::<f32>::new(verts.clone(), false).unwrap();
        let theirs = parry2d::shape::Polyline::new(verts, None);
        let b = ours.local_aabb();
        for _ in 0..100 {
            let o = glam::Vec2::new(
                rng.uniform(b.min.x, b.max.x),
                rng.uniform(b.min.y - 30.0, b.max.y + 30.0),
            );
            let t = glam::Vec2::new(
                rng.uniform(b.min.x, b.max.x),
                rng.uniform(b.min.y - 30.0, b.max.y + 30.0),
            );
            let ray = Ray {
                origin: o,
                dir: t - o,
            };
            let a = ours.cast_ray(&ray, 0.6);
            let p = theirs.cast_local_ray_and_get_normal(&PRay::new(o, t - o), 0.6, true);
            total += 1;
            match (a, p) {
                (Some(a), Some(p)) => {
                    hits += 1;
                    assert!(
                        (a.t - p.time_of_impact).abs() < 1e-4,
                        "{} vs {}",
                        a.t,
                        p.time_of_impact
                    );
                    assert!(a.normal.dot(p.normal) > 0.999);
                }
                (None, None) => {}
                (a, p) => panic!("ours {a:?} parry {p:?}"),
            }
            let ours_p = ours.project_local_point(o, true).point;
            let theirs_p = theirs.project_local_point(o, true).point;
            let (da, dp) = (ours_p.distance(o), theirs_p.distance(o));
            assert!((da - dp).abs() <= 1e-4 * (1.0 + dp), "{da} vs {dp}");
        }
    }
    let rate = hits as f64 / total as f64;
    assert!((0.3..=0.7).contains(&rate), "hit rate {rate}");
}

fn unit<R: Real>(x: f64, y: f64) -> R::V2 {
    v::<R>(x, y).try_normalize().unwrap()
}

fn close<R: Real>(a: R::V2, b: R::V2) -> bool {
    a.distance(b).to_f64() < 1e-6
}

fn internal_vertices<R: Real>()
where
    R::V2: isect::algo::gjk::GjkVector<Pose = isect::math::Pose2<R>>,
{
    let chain = |pts: &[(f64, f64)]| {
        Polyline::<R>::new(pts.iter().map(|&(x, y)| v::<R>(x, y)).collect(), false).unwrap()
    };
    // Flat: (0,0) → (1,0) → (2,0). Leaning over vertex 1, from above and from below.
    let flat = chain(&[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)]);
    assert!(close::<R>(
        flat.correct_normal(0, unit::<R>(0.6, 0.8)),
        v::<R>(0.0, 1.0)
    ));
    assert!(close::<R>(
        flat.correct_normal(0, unit::<R>(0.6, -0.8)),
        v::<R>(0.0, -1.0)
    ));
    assert!(close::<R>(
        flat.correct_normal(1, unit::<R>(-0.6, 0.8)),
        v::<R>(0.0, 1.0)
    ));
    // The segment's own normal is kept; free ends keep any normal.
    assert_eq!(flat.correct_normal(0, v::<R>(0.0, 1.0)), v::<R>(0.0, 1.0));
    assert_eq!(
        flat.correct_normal(0, unit::<R>(-0.6, 0.8)),
        unit::<R>(-0.6, 0.8)
    );
    assert_eq!(
        flat.correct_normal(1, unit::<R>(1.0, 0.0)),
        unit::<R>(1.0, 0.0)
    );
    // Convex from above: (0,0) → (1,0) → (2,−1). Inside the corner's cone: kept;
    // beyond the next segment's normal: clamped to it. From below it is concave.
    let roof = chain(&[(0.0, 0.0), (1.0, 0.0), (2.0, -1.0)]);
    let inside_cone = unit::<R>(0.6, 0.8);
    assert_eq!(roof.correct_normal(0, inside_cone), inside_cone);
    assert!(close::<R>(
        roof.correct_normal(0, unit::<R>(0.99, 0.1)),
        unit::<R>(1.0, 1.0)
    ));
    assert!(close::<R>(
        roof.correct_normal(0, unit::<R>(0.6, -0.8)),
        v::<R>(0.0, -1.0)
    ));
    // Concave from above: (0,0) → (1,0) → (2,1).
    let valley = chain(&[(0.0, 0.0), (1.0, 0.0), (2.0, 1.0)]);
    assert!(close::<R>(
        valley.correct_normal(0, unit::<R>(0.6, 0.8)),
        v::<R>(0.0, 1.0)
    ));
    // Explicit segments against each other's direction still see a flat vertex.
    let verts = vec![v::<R>(0.0, 0.0), v::<R>(1.0, 0.0), v::<R>(2.0, 0.0)];
    let reversed = Polyline::<R>::with_segments(verts.clone(), vec![[0, 1], [2, 1]]).unwrap();
    assert!(close::<R>(
        reversed.correct_normal(0, unit::<R>(0.6, 0.8)),
        v::<R>(0.0, 1.0)
    ));
    assert!(close::<R>(
        reversed.correct_normal(1, unit::<R>(-0.6, 0.8)),
        v::<R>(0.0, 1.0)
    ));
    // Three segments at one vertex: each is a free end there.
    let mut fork_verts = verts;
    fork_verts.push(v::<R>(1.0, 1.0));
    let fork = Polyline::<R>::with_segments(fork_verts, vec![[0, 1], [1, 2], [1, 3]]).unwrap();
    assert_eq!(
        fork.correct_normal(0, unit::<R>(0.6, 0.8)),
        unit::<R>(0.6, 0.8)
    );
    // NaN and out-of-range indices: unchanged.
    assert!(flat.correct_normal(0, v::<R>(f64::NAN, 0.0)).is_nan());
    assert_eq!(flat.correct_normal(9, v::<R>(1.0, 0.0)), v::<R>(1.0, 0.0));
}

#[test]
fn correct_normal() {
    internal_vertices::<f32>();
    internal_vertices::<f64>();
}

// A closed loop: every vertex has two neighbours; a square's corners are convex from
// outside and keep their cone, its sides subdivided at mid-points are flat.
#[test]
fn closed_loop_corners() {
    use glam::DVec2;
    let pts = [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)];
    let square =
        Polyline::<f64>::new(pts.iter().map(|&(x, y)| DVec2::new(x, y)).collect(), true).unwrap();
    // Segment 0 (bottom, left half), outside is below: leaning over the flat mid-point.
    assert_eq!(
        square.correct_normal(0, DVec2::new(0.6, -0.8)),
        DVec2::new(0.0, -1.0)
    );
    // Leaning over the corner (0,0) from outside: kept (the corner's cone).
    assert_eq!(
        square.correct_normal(0, DVec2::new(-0.6, -0.8)),
        DVec2::new(-0.6, -0.8)
    );
    // The composite view: one part a segment, identity pose.
    assert_eq!(square.part_count(), 5);
    square.with_part(3, |_, part| {
        assert_eq!(part.kind_name(), "Segment");
    });
}

// Touching and parallel rays: through a shared vertex (one hit per segment), along a
// segment (its near end, normal −dir), parallel beside it (miss), zero direction (miss).
#[test]
fn ray_edges() {
    use glam::DVec2;
    let line = Polyline::<f64>::new(
        vec![DVec2::ZERO, DVec2::new(1.0, 0.0), DVec2::new(2.0, 1.0)],
        false,
    )
    .unwrap();
    let through_vertex = Ray {
        origin: DVec2::new(1.0, -1.0),
        dir: DVec2::Y,
    };
    let all = line.cast_ray_all(&through_vertex, 10.0);
    assert_eq!(
        all.iter().map(|h| (h.0, h.1.t)).collect::<Vec<_>>(),
        vec![(0, 1.0), (1, 1.0)]
    );
    let along = Ray {
        origin: DVec2::new(-2.0, 0.0),
        dir: DVec2::X,
    };
    let hit = line.cast_ray(&along, 10.0).unwrap();
    assert_eq!((hit.t, hit.normal), (2.0, -DVec2::X));
    let beside = Ray {
        origin: DVec2::new(-2.0, -1e-9),
        dir: DVec2::X,
    };
    assert!(line.cast_ray(&beside, 2.5).is_none());
    let still = Ray {
        origin: DVec2::new(0.5, 0.0),
        dir: DVec2::ZERO,
    };
    assert!(line.cast_ray(&still, 1.0).is_none());
    assert!(line.cast_ray_all(&still, 1.0).is_empty());
    assert!(line.cast_ray(&through_vertex, f64::NAN).is_none());
}
