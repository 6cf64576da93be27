//! Issue 18, item 3 (2D part): the 2D hull must be robust on the classes that broke
//! the 3D one: collinear runs (points on the edges and on segments between others),
//! near-duplicates (within 1e-3 of the extent), lattices, `f32` and `f64`, extents
//! 1e-3 to 1e5 offset 100 extents from the origin. Invariants: the hull's vertices are
//! input points, counter-clockwise, none repeated; `ConvexPolygon::new` contains every
//! input point; collinear sets are refused with `TooFewPoints { got: 2 }`.

use glam::DVec2;
use isect::algo::hull_2d::{convex_hull_2d, convex_hull_2d_indices};
use isect::math::{Real, Vector2};
use isect::shape::{ConvexPolygon, ShapeError};

use crate::rng;
use rng::Rng;

const SCALES: [f64; 5] = [1e-3, 1e-1, 1.0, 1e3, 1e5];

/// A disc of points with collinear runs along chords and edges, near-duplicates,
/// and (every other seed) a lattice.
fn cluttered(r: &mut Rng, lattice: bool) -> Vec<DVec2> {
    let mut pts: Vec<DVec2> = if lattice {
        let k = 3 + r.below(8);
        (0..k * k)
            .map(|i| DVec2::new((i % k) as f64, (i / k) as f64) * (2.0 / (k - 1) as f64) - 1.0)
            .collect()
    } else {
        (0..100)
            .map(|_| {
                let a = r.range(0.0, std::f64::consts::TAU);
                DVec2::from_angle(a) * r.range(0.5, 1.0)
            })
            .collect()
    };
    let n = pts.len();
    for _ in 0..30 {
        let (a, b) = (pts[r.below(n)], pts[r.below(n)]);
        pts.extend((0..=8).map(|i| a.lerp(b, i as f64 / 8.0)));
        let p = pts[r.below(n)];
        pts.push(p + DVec2::from_angle(r.range(0.0, 6.3)) * r.range(0.0, 1e-3));
    }
    pts
}

fn place<R: Real>(pts: &[DVec2], scale: f64) -> Vec<R::V2> {
    let offset = DVec2::new(100.0, -70.0) * scale;
    pts.iter()
        .map(|p| {
            let q = *p * scale + offset;
            R::V2::new(R::from_f64(q.x), R::from_f64(q.y))
        })
        .collect()
}

fn classes<R: Real>(name: &str) {
    for &scale in &SCALES {
        for seed in 0..6u64 {
            let what = format!("{name} scale {scale} seed {seed}");
            let pts = place::<R>(&cluttered(&mut Rng(seed + 60), seed % 2 == 0), scale);
            let ids = convex_hull_2d_indices(&pts).unwrap_or_else(|e| panic!("{what}: {e}"));
            let hull = convex_hull_2d(&pts).unwrap();
            assert_eq!(hull.len(), ids.len(), "{what}");
            assert!(ids.iter().zip(&hull).all(|(&i, h)| pts[i] == *h), "{what}");
            let mut sorted = ids.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), ids.len(), "{what}: repeated vertex");
            // Counter-clockwise: positive area.
            let area: f64 = (0..hull.len())
                .map(|k| {
                    let (a, b) = (hull[k], hull[(k + 1) % hull.len()]);
                    let f = |v: R::V2| DVec2::new(v.x().to_f64(), v.y().to_f64());
                    f(a).perp_dot(f(b))
                })
                .sum();
            assert!(area > 0.0, "{what}: clockwise");
            let poly = ConvexPolygon::<R>::new(&hull).unwrap_or_else(|e| panic!("{what}: {e}"));
            for p in &pts {
                assert!(poly.contains_point(*p), "{what}: lost {p:?}");
            }
        }
        // Collinear: refused.
        let mut r = Rng(61);
        // Axis-parallel lines stay exactly collinear after rounding to `R` (a tilted
        // one does not: its rounded points make a genuine sliver).
        for axis in [DVec2::X, DVec2::Y] {
            let line: Vec<DVec2> = (0..40)
                .map(|_| axis * r.range(-1.0, 1.0) + axis.perp() * 0.3)
                .collect();
            let err = convex_hull_2d(&place::<R>(&line, scale)).unwrap_err();
            assert!(
                matches!(err, ShapeError::TooFewPoints { got: 2, .. }),
                "{name} {scale}: {err:?}"
            );
        }
    }
}

// Collinear runs, near-duplicates and lattices in 2D, f32 and f64, every scale.
#[test]
fn hull_2d_classes() {
    classes::<f32>("f32");
    classes::<f64>("f64");
}
