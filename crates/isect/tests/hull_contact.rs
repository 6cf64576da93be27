//! Hull–hull contacts at touching and penetrating poses, the classes EPA answers (its
//! nearest-face scan, its answer from GJK's touching triangle, GJK's tetrahedron
//! step): for seeded hulls of 8 and 32 vertices, posed touching (the last overlapping
//! offset of a bisection along a random direction) or overlapping by up to half
//! their size, `contact` must give
//!
//! - a normal along which the hulls' projections overlap by the reported depth
//!   (moving B by `depth · normal` just separates them),
//! - a depth no larger than the overlap along any face normal of either hull (the
//!   depth is the least push; face normals are where it is found for polytopes),
//! - witness points that are the hulls' extreme points along the normal, with
//!   `point_a − point_b = depth · normal`.
//!
//! Tolerance: `TOL_ULPS · max(ε, EPA_REL_FLOOR / 256)` times the scene's size (EPA's
//! own relative tolerance is `256 ε`, floored at `EPA_REL_FLOOR`).

#[path = "support/rng.rs"]
mod rng;

use rng::Rng;

/// Hulls per vertex count, and poses per hull size and class.
const HULLS: usize = 12;
const POSES: usize = 150;
/// The test allows this many times EPA's relative tolerance (`256 ε`, floored).
const TOL_ULPS: f64 = 1024.0;

macro_rules! hull_contact_tests {
    ($m:ident, $r:ty, $v:ty, $q:ty) => {
        mod $m {
            use super::*;
            use isect::algo::epa::EPA_REL_FLOOR;
            use isect::algo::support::SupportMap;
            use isect::math::{Isometry, Pose3};
            use isect::query::contact::contact;
            use isect::query::distance::distance;
            use isect::shape::ConvexPolyhedron;

            type V = $v;
            type P = Pose3<$r>;

            fn unit(rng: &mut Rng) -> V {
                loop {
                    let v = V::new(
                        rng.range(-1.0, 1.0) as $r,
                        rng.range(-1.0, 1.0) as $r,
                        rng.range(-1.0, 1.0) as $r,
                    );
                    if let Some(u) = v.try_normalize() {
                        return u;
                    }
                }
            }

            /// `HULLS` hulls of `n` points on ellipsoids with semi-axes in [0.5, 1).
            fn hulls(rng: &mut Rng, n: usize) -> Vec<ConvexPolyhedron<$r>> {
                (0..HULLS)
                    .map(|_| {
                        let s = V::new(
                            rng.range(0.5, 1.0) as $r,
                            rng.range(0.5, 1.0) as $r,
                            rng.range(0.5, 1.0) as $r,
                        );
                        let pts: Vec<V> = (0..n).map(|_| unit(rng) * s).collect();
                        ConvexPolyhedron::from_points(&pts).expect("hull")
                    })
                    .collect()
            }

            /// The world support value `max n·x` of `hull` at `pose`.
            fn support(hull: &ConvexPolyhedron<$r>, pose: &P, n: V) -> f64 {
                let local = hull.local_support(pose.inverse_transform_vector(n));
                n.dot(pose.transform_point(local)) as f64
            }

            /// How far B must move along unit `n` to leave A: `max_A n·x − min_B n·x`.
            fn overlap(a: (&ConvexPolyhedron<$r>, &P), b: (&ConvexPolyhedron<$r>, &P), n: V) -> f64 {
                support(a.0, a.1, n) + support(b.0, b.1, -n)
            }

            /// B's pose touching A (bisection on the offset along `dir` for the last
            /// overlapping one), pushed `inward` further along `-dir`.
            fn posed(a: &ConvexPolyhedron<$r>, b: &ConvexPolyhedron<$r>, rb: $q, dir: V, inward: f64) -> P {
                let pa = P::IDENTITY;
                let (mut lo, mut hi) = (0.0f64, 4.0f64);
                for _ in 0..60 {
                    let mid = 0.5 * (lo + hi);
                    let pb = P::new(dir * mid as $r, rb);
                    if distance(&pa, a, &pb, b) > 0.0 {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                P::new(dir * (lo - inward) as $r, rb)
            }

            fn check(n_points: usize, inward: (f64, f64)) {
                let mut rng = Rng(0x4c0f_fee0 + n_points as u64);
                let hulls = hulls(&mut rng, n_points);
                let eps = (<$r>::EPSILON as f64).max(EPA_REL_FLOOR / 256.0);
                let tol = TOL_ULPS * eps * 4.0;
                let pa = P::IDENTITY;
                for case in 0..POSES {
                    let (a, b) = (&hulls[rng.below(HULLS)], &hulls[rng.below(HULLS)]);
                    let angle = rng.range(-3.1, 3.1) as $r;
                    let rb = <$q>::from_axis_angle(unit(&mut rng), angle);
                    let dir = unit(&mut rng);
                    let pb = posed(a, b, rb, dir, rng.range(inward.0, inward.1));
                    let c = contact(&pa, a, &pb, b, 0.0)
                        .unwrap_or_else(|| panic!("case {case}: no contact"));
                    let (n, depth) = (c.normal, c.depth as f64);
                    let along = overlap((a, &pa), (b, &pb), n);
                    assert!(
                        (along - depth).abs() <= tol,
                        "case {case}: overlap along the normal {along} for depth {depth}"
                    );
                    let faces_a = a.faces().iter().map(|f| f.normal());
                    let faces_b = b.faces().iter().map(|f| -pb.transform_vector(f.normal()));
                    for u in faces_a.chain(faces_b) {
                        let o = overlap((a, &pa), (b, &pb), u);
                        assert!(o >= depth - tol, "case {case}: face normal overlap {o} < depth {depth}");
                    }
                    let on_a = n.dot(c.point_a) as f64 - support(a, &pa, n);
                    let on_b = n.dot(c.point_b) as f64 + support(b, &pb, -n);
                    let gap = (c.point_a - c.point_b - n * c.depth).length() as f64;
                    assert!(
                        on_a.abs() <= tol && on_b.abs() <= tol && gap <= tol,
                        "case {case}: witnesses off their supports ({on_a}, {on_b}) or apart by {gap}"
                    );
                }
            }

            #[test]
            fn touching_hulls_8() {
                check(8, (0.0, 0.0));
            }

            #[test]
            fn touching_hulls_32() {
                check(32, (0.0, 0.0));
            }

            #[test]
            fn penetrating_hulls_8() {
                check(8, (0.01, 0.5));
            }

            #[test]
            fn penetrating_hulls_32() {
                check(32, (0.01, 0.5));
            }
        }
    };
}

hull_contact_tests!(f32_hulls, f32, glam::Vec3, glam::Quat);
hull_contact_tests!(f64_hulls, f64, glam::DVec3, glam::DQuat);
