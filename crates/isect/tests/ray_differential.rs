//! Differential tests of the ray casts (box, ball, half-space in 2D and 3D, triangle
//! in 3D, segment in 2D) against parry2d / parry3d 0.31 (f32) on
//! 10,000 seeded random cases per kernel, with a guard that 30–70% of the compared
//! cases hit (so both outcomes are exercised).
//!
//! Tolerances (documented here, used below):
//! - `GRAZE_MARGIN` (absolute length; scenes are O(10)): a case is "near-grazing" and
//!   skipped when our answer changes after growing or shrinking the shape by this
//!   much; there the two libraries may legitimately round differently. At most
//!   `MAX_SKIPPED` of the cases may be skipped.
//! - `T_REL`: hit parameters must agree within `T_REL · max(1, t)`.
//! - `EDGE_ON_COS`: triangle rays with `|n̂ · d̂|` below this are skipped (there `t`
//!   is ill-conditioned in both libraries).

use glam::{Vec2, Vec3};
use isect::math::Vector;
use isect::query::{HalfSpace, RayCast};
use isect::shape::{Aabb, Ball, Plane, Ray, Segment, Triangle};

const CASES: usize = 10_000;
const GRAZE_MARGIN: f32 = 1e-3;
const MAX_SKIPPED: f64 = 0.05;
const T_REL: f32 = 2e-4;
const EDGE_ON_COS: f32 = 1e-3;

/// splitmix64: a small seeded generator, no dependency.
#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

impl Rng {
    fn v<V: Vector<Scalar = f32>>(&mut self, lo: f32, hi: f32) -> V {
        (0..V::DIM).fold(V::ZERO, |acc, i| acc.with(i, self.uniform(lo, hi)))
    }

    /// Half the time infinite, else in [0, 8].
    fn max_t(&mut self) -> f32 {
        if self.next_u64() & 1 == 0 {
            f32::INFINITY
        } else {
            self.uniform(0.0, 8.0)
        }
    }

    /// A ray from the cube [-8, 8]ᴰ aimed near `target` with a non-unit direction.
    fn ray_toward<V: Vector<Scalar = f32>>(&mut self, target: V, spread: f32) -> Ray<V> {
        let origin = self.v::<V>(-8.0, 8.0);
        let aim = target + self.v::<V>(-spread, spread);
        let scale = self.uniform(0.2, 2.0);
        Ray {
            origin,
            dir: (aim - origin) * scale,
        }
    }
}

/// Counts of one differential run.
#[derive(Default)]
struct Tally {
    compared: usize,
    hits: usize,
    skipped: usize,
}

impl Tally {
    /// Compares one case, or counts it as skipped when `grazing`.
    fn compare(
        &mut self,
        what: &str,
        case: usize,
        grazing: bool,
        ours: Option<f32>,
        theirs: Option<f32>,
    ) {
        if grazing {
            self.skipped += 1;
            return;
        }
        self.compared += 1;
        match (ours, theirs) {
            (Some(a), Some(b)) => {
                self.hits += 1;
                let tol = T_REL * 1f32.max(a.abs()).max(b.abs());
                assert!(
                    (a - b).abs() <= tol,
                    "{what} case {case}: t {a} vs parry {b}"
                );
            }
            (None, None) => {}
            _ => panic!("{what} case {case}: ours {ours:?} vs parry {theirs:?}"),
        }
    }

    /// The hit-rate and skip-rate guards.
    fn check(&self, what: &str) {
        let rate = self.hits as f64 / self.compared as f64;
        eprintln!("{what}: hit rate {rate:.3}, skipped {}", self.skipped);
        assert!((0.3..=0.7).contains(&rate), "{what}: hit rate {rate}");
        let skipped = self.skipped as f64 / CASES as f64;
        assert!(skipped <= MAX_SKIPPED, "{what}: skipped {skipped}");
    }
}

/// True when growing or shrinking the shape by `GRAZE_MARGIN` changes whether we hit.
fn grazing<S: RayCast<V>, V: Vector<Scalar = f32>>(
    grown: &S,
    shrunk: &S,
    ray: &Ray<V>,
    max_t: f32,
) -> bool {
    grown.intersects_ray(ray, max_t) != shrunk.intersects_ray(ray, max_t)
}

fn random_box<V: Vector<Scalar = f32>>(rng: &mut Rng) -> (V, V) {
    (rng.v::<V>(-3.0, 3.0), rng.v::<V>(0.2, 3.0))
}

fn random_plane<V: Vector<Scalar = f32>>(rng: &mut Rng) -> Plane<V> {
    loop {
        if let Ok(p) = Plane::new(rng.v::<V>(-1.0, 1.0), rng.uniform(-2.0, 2.0)) {
            return p;
        }
    }
}

macro_rules! common_suite {
    ($modname:ident, $parry:ident, $V:ty, $seed:expr, $spread:expr) => {
        mod $modname {
            use super::*;
            use $parry::bounding_volume::Aabb as PAabb;
            use $parry::math::Pose;
            use $parry::query::{Ray as PRay, RayCast as PRayCast};
            use $parry::shape::{Ball as PBall, Cuboid, HalfSpace as PHalfSpace};

            fn pray(r: &Ray<$V>) -> PRay {
                PRay::new(r.origin, r.dir)
            }

            // Random boxes: our slab cast against parry's Cuboid (posed) and Aabb kernel.
            #[test]
            fn ray_aabb() {
                let mut rng = Rng($seed);
                let mut tally = Tally::default();
                for case in 0..CASES {
                    let (c, he) = random_box::<$V>(&mut rng);
                    let ours = Aabb::from_center(c, he).unwrap();
                    let ray = rng.ray_toward(c, 6.0 * $spread);
                    let max_t = rng.max_t();
                    let m = <$V>::splat(GRAZE_MARGIN);
                    let graze = grazing(
                        &ours.loosened(GRAZE_MARGIN),
                        &Aabb::from_center(c, he - m).unwrap(),
                        &ray,
                        max_t,
                    );
                    let t = ours.cast_ray(&ray, max_t).map(|h| h.t);
                    assert_eq!(t.is_some(), ours.intersects_ray(&ray, max_t), "case {case}");
                    let cuboid = Cuboid::new(he).cast_ray(
                        &Pose::from_translation(c),
                        &pray(&ray),
                        max_t,
                        true,
                    );
                    let direct =
                        PAabb::new(ours.min, ours.max).cast_local_ray(&pray(&ray), max_t, true);
                    tally.compare("ray-aabb (Cuboid)", case, graze, t, cuboid);
                    tally.compare("ray-aabb (Aabb)", case, graze, t, direct);
                }
                tally.check("ray-aabb");
            }

            // Random balls with non-unit directions against parry's Ball.
            #[test]
            fn ray_ball() {
                let mut rng = Rng($seed ^ 0xB411);
                let mut tally = Tally::default();
                for case in 0..CASES {
                    let c = rng.v::<$V>(-3.0, 3.0);
                    let r = rng.uniform(0.2, 3.0);
                    let ours = Ball::new(c, r).unwrap();
                    let ray = rng.ray_toward(c, 5.0 * $spread);
                    let max_t = rng.max_t();
                    let grown = Ball::new(c, r + GRAZE_MARGIN).unwrap();
                    let shrunk = Ball::new(c, r - GRAZE_MARGIN).unwrap();
                    let graze = grazing(&grown, &shrunk, &ray, max_t);
                    let t = ours.cast_ray(&ray, max_t).map(|h| h.t);
                    let theirs = PBall::new(r).cast_ray(
                        &Pose::from_translation(c),
                        &pray(&ray),
                        max_t,
                        true,
                    );
                    tally.compare("ray-ball", case, graze, t, theirs);
                }
                tally.check("ray-ball");
            }

            // Random solid half-spaces against parry's HalfSpace placed at n·d.
            #[test]
            fn ray_half_space() {
                let mut rng = Rng($seed ^ 0x4A1F);
                let mut tally = Tally::default();
                for case in 0..CASES {
                    let plane = random_plane::<$V>(&mut rng);
                    let ours = HalfSpace::new(plane);
                    let ray = rng.ray_toward(plane.normal() * (plane.d() + 8.0), 8.0);
                    let max_t = rng.max_t();
                    let shifted = |dd: f32| {
                        HalfSpace::new(Plane::new(plane.normal(), plane.d() + dd).unwrap())
                    };
                    let graze =
                        grazing(&shifted(GRAZE_MARGIN), &shifted(-GRAZE_MARGIN), &ray, max_t);
                    let t = ours.cast_ray(&ray, max_t).map(|h| h.t);
                    let pose = Pose::from_translation(plane.normal() * plane.d());
                    let theirs =
                        PHalfSpace::new(plane.normal()).cast_ray(&pose, &pray(&ray), max_t, true);
                    tally.compare("ray-half-space", case, graze, t, theirs);
                }
                tally.check("ray-half-space");
            }
        }
    };
}

common_suite!(d2, parry2d, Vec2, 0x2D2D_0001, 1.0);
common_suite!(d3, parry3d, Vec3, 0x3D3D_0001, 0.45);

/// The triangle scaled about its centroid by `1 + k`.
fn scaled(t: &Triangle<Vec3>, k: f32) -> Triangle<Vec3> {
    let c = t.centroid();
    let s = |p: Vec3| c + (p - c) * (1.0 + k);
    Triangle::new(s(t.a), s(t.b), s(t.c)).unwrap()
}

// Random triangles (two-sided) against parry's Triangle, posed and direct.
#[test]
fn ray_triangle_3d() {
    use parry3d::math::Pose;
    use parry3d::query::{Ray as PRay, RayCast as PRayCast};
    use parry3d::shape::Triangle as PTriangle;
    let mut rng = Rng(0x3D3D_7121);
    let mut tally = Tally::default();
    for case in 0..CASES {
        let center = rng.v::<Vec3>(-3.0, 3.0);
        let [a, b, c] = [0; 3].map(|_| center + rng.v::<Vec3>(-2.0, 2.0));
        let ours = Triangle::new(a, b, c).unwrap();
        let ray = rng.ray_toward(ours.centroid(), 0.6);
        let max_t = rng.max_t();
        let Some(n) = ours.normal() else { continue };
        let edge_on = n.dot(ray.dir.normalize_or_zero()).abs() < EDGE_ON_COS;
        let rel = GRAZE_MARGIN / 4.0;
        let graze = edge_on || grazing(&scaled(&ours, rel), &scaled(&ours, -rel), &ray, max_t);
        let t = ours.cast_ray(&ray, max_t).map(|h| h.t);
        let ptri = PTriangle::new(a, b, c);
        let pray = PRay::new(ray.origin, ray.dir);
        let posed = ptri.cast_ray(&Pose::IDENTITY, &pray, max_t, true);
        tally.compare("ray-triangle (posed)", case, graze, t, posed);
        tally.compare(
            "ray-triangle (local)",
            case,
            graze,
            t,
            ptri.cast_local_ray(&pray, max_t, true),
        );
    }
    tally.check("ray-triangle");
}

/// The segment scaled about its midpoint by `1 + k`.
fn scaled_segment(s: &Segment<Vec2>, k: f32) -> Segment<Vec2> {
    let m = (s.a + s.b) * 0.5;
    Segment::new(m + (s.a - m) * (1.0 + k), m + (s.b - m) * (1.0 + k)).unwrap()
}

/// The crossing parameter of ray and segment lines in f64 (exact inputs, one rounding
/// per operation), for the crossing case only.
fn exact_segment_t(s: &Segment<Vec2>, r: &Ray<Vec2>) -> Option<f32> {
    let cross = |u: [f64; 2], v: [f64; 2]| u[0] * v[1] - u[1] * v[0];
    let d = [r.dir.x as f64, r.dir.y as f64];
    let e = [(s.b.x - s.a.x) as f64, (s.b.y - s.a.y) as f64];
    let w = [
        s.a.x as f64 - r.origin.x as f64,
        s.a.y as f64 - r.origin.y as f64,
    ];
    let den = cross(d, e);
    (den != 0.0).then(|| (cross(w, e) / den) as f32)
}

// Random 2D segments against parry2d's Segment, posed and direct. Where parry2d's
// f32 line–line closest-point formula lands further than T_REL from the f64 root
// (it loses digits to cancellation), the f64 root is the reference; at most 2% of
// cases may need that.
#[test]
fn ray_segment_2d() {
    use parry2d::math::Pose;
    use parry2d::query::{Ray as PRay, RayCast as PRayCast};
    use parry2d::shape::Segment as PSegment;
    let mut rng = Rng(0x2D2D_05E6);
    let mut tally = Tally::default();
    let mut parry_off = 0;
    for case in 0..CASES {
        let center = rng.v::<Vec2>(-3.0, 3.0);
        let half = rng.v::<Vec2>(-2.0, 2.0);
        let ours = Segment::new(center - half, center + half).unwrap();
        let ray = rng.ray_toward(center, 2.0);
        let max_t = rng.max_t();
        let rel = GRAZE_MARGIN / 4.0;
        let graze = grazing(
            &scaled_segment(&ours, rel),
            &scaled_segment(&ours, -rel),
            &ray,
            max_t,
        );
        let t = ours.cast_ray(&ray, max_t).map(|h| h.t);
        let pseg = PSegment::new(ours.a, ours.b);
        let pray = PRay::new(ray.origin, ray.dir);
        let exact = exact_segment_t(&ours, &ray);
        let mut reference = |parry: Option<f32>| match (parry, exact) {
            (Some(p), Some(x)) if (p - x).abs() > T_REL * 1f32.max(x.abs()) => {
                parry_off += 1;
                Some(x)
            }
            _ => parry,
        };
        let posed = reference(pseg.cast_ray(&Pose::IDENTITY, &pray, max_t, true));
        let local = reference(pseg.cast_local_ray(&pray, max_t, true));
        tally.compare("ray-segment (posed)", case, graze, t, posed);
        tally.compare("ray-segment (local)", case, graze, t, local);
    }
    tally.check("ray-segment");
    eprintln!("ray-segment: parry off the f64 root {parry_off} times");
    assert!(
        parry_off <= CASES / 50,
        "parry off the f64 root {parry_off} times"
    );
}
