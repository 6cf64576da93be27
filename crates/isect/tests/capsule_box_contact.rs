//! Capsule–box contact in closed form (the dispatch's `contact` and the world's cached
//! contact), in `f32` and `f64`, 3D and 2D:
//!
//! - exact answers where the nearest features are known (a capsule lying on a face,
//!   one standing on its end above a face, one across an edge), at scales 1e-3 to 1e3,
//!   under a random rigid motion of both shapes, in both argument orders;
//! - on random poses, the contact's defining property (the shapes' projections on the
//!   normal overlap by the depth), witnesses on both surfaces, and the depth against
//!   GJK / EPA's (`query::contact::contact`, the path the pair took before);
//! - a segment through the box: exact answers (through a face, lying inside under a
//!   face, across an edge), and on random poses a depth no direction beats (the
//!   overlap along 64 random directions), against EPA's depth; in 2D too;
//! - a non-finite pose gives no contact;
//! - the closed-form `intersects` agrees with GJK's distance and EPA's depth.

#[path = "support/poses3.rs"]
mod poses3;
#[path = "support/rng.rs"]
mod rng;
#[path = "support/surfaces.rs"]
mod surfaces;

use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose3, Real, Vector};
use isect::query::contact::{contact as generic_contact, Contact};
use isect::query::dispatch;
use isect::query::distance::closest_point_segment_aabb;
use isect::shape::shape_3d::Shape;
use isect::shape::{Aabb, Capsule, Segment};
use poses3::{pose3, support_along, v3};
use rng::Rng;
use surfaces::off_surface;

/// Random poses per precision.
const CASES: usize = 3_000;

/// The contact of a capsule and a box through the dispatch, capsule first or box
/// first (then flipped back to run from the capsule).
fn both_orders<R: Real>(
    pa: &Pose3<R>,
    a: &Capsule<R::V3>,
    pb: &Pose3<R>,
    b: &Aabb<R::V3>,
    prediction: R,
) -> [Option<Contact<R::V3>>; 2]
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let (sa, sb) = (Shape::<R>::Capsule(*a), Shape::<R>::Cuboid(*b));
    [
        dispatch::contact(pa, &sa, pb, &sb, prediction),
        dispatch::contact(pb, &sb, pa, &sa, prediction).map(|c| c.flipped()),
    ]
}

/// Exact cases at `scale`, moved by one random rigid motion: a capsule (radius 0.25,
/// length 1) lying 0.1 deep on the top face of the box `[-1, 1]³`, standing on its
/// end 0.05 deep, and lying across the top front edge, 0.02 deep along the edge's
/// outward diagonal.
fn exact_cases<R: Real>(scale: f64, tol: f64)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let mut rng = Rng(0xcab0 ^ scale.to_bits());
    let s = |x: f64| x * scale;
    let cube = Aabb::new(
        v3::<R>(s(-1.0), s(-1.0), s(-1.0)),
        v3::<R>(s(1.0), s(1.0), s(1.0)),
    )
    .unwrap();
    let r = s(0.25);
    let lying = Capsule::new(
        v3::<R>(s(-0.5), 0.0, 0.0),
        v3::<R>(s(0.5), 0.0, 0.0),
        R::from_f64(r),
    )
    .unwrap();
    let standing = Capsule::new(
        v3::<R>(0.0, s(-0.5), 0.0),
        v3::<R>(0.0, s(0.5), 0.0),
        R::from_f64(r),
    )
    .unwrap();
    let diag = 0.5f64.sqrt();
    // Across the top front edge (y = z = 1): its middle 0.1 · √2 inside the edge.
    let skew = Capsule::new(
        v3::<R>(0.0, s(0.3), s(-0.3)),
        v3::<R>(0.0, s(-0.3), s(0.3)),
        R::from_f64(r),
    )
    .unwrap();
    // (capsule, its position, expected depth, expected normal from capsule to box).
    let cases = [
        (lying, [s(0.2), s(1.15), s(0.1)], s(0.1), [0.0, -1.0, 0.0]),
        (
            standing,
            [s(0.3), s(1.7), s(-0.4)],
            s(0.05),
            [0.0, -1.0, 0.0],
        ),
        (
            lying,
            [
                0.0,
                s(1.0 + (0.25 - 0.02) * diag),
                s(1.0 + (0.25 - 0.02) * diag),
            ],
            s(0.02),
            [0.0, -diag, -diag],
        ),
        // The segment through the top face, its low end 0.4 under it.
        (
            standing,
            [s(0.3), s(1.1), s(-0.4)],
            s(0.4 + 0.25),
            [0.0, -1.0, 0.0],
        ),
        // The segment inside, 0.1 under the top face.
        (
            lying,
            [s(0.2), s(0.9), s(0.1)],
            s(0.1 + 0.25),
            [0.0, -1.0, 0.0],
        ),
        (
            skew,
            [0.0, s(0.9), s(0.9)],
            s(0.1 * 2f64.sqrt() + 0.25),
            [0.0, -diag, -diag],
        ),
    ];
    let motion = pose3::<R>(&mut rng, scale);
    for (capsule, at, depth, normal) in cases {
        let pa = motion.mul(&Pose3::from_translation(v3::<R>(at[0], at[1], at[2])));
        let n = motion.transform_vector(v3::<R>(normal[0], normal[1], normal[2]));
        for c in both_orders(&pa, &capsule, &motion, &cube, R::ZERO) {
            let c = c.expect("touching");
            assert!(
                (c.depth.to_f64() - depth).abs() <= tol * scale,
                "depth {:?}",
                c.depth
            );
            assert!(
                (c.normal - n).length().to_f64() <= tol * 10.0,
                "normal {:?}",
                c.normal
            );
            let gap = c.point_a - c.point_b - c.normal * c.depth;
            assert!(gap.length().to_f64() <= tol * scale, "witness gap {gap:?}");
            let (on_a, on_b) = (
                off_surface(&pa, &Shape::Capsule(capsule), c.point_a),
                off_surface(&motion, &Shape::Cuboid(cube), c.point_b),
            );
            assert!(
                on_a.abs().max(on_b.abs()) <= tol * scale * 10.0,
                "witnesses off their surfaces by {on_a}, {on_b}"
            );
        }
    }
}

#[test]
fn exact_answers_at_every_scale() {
    for scale in [1e-3, 1e-1, 1.0, 1e2, 1e3] {
        exact_cases::<f64>(scale, 1e-12);
        exact_cases::<f32>(scale, 2e-5);
    }
}

/// True when the capsule's segment meets the box (the pair then takes the separating
/// axes).
fn segment_meets<R: Real>(
    pa: &Pose3<R>,
    a: &Capsule<R::V3>,
    pb: &Pose3<R>,
    b: &Aabb<R::V3>,
) -> bool {
    let s = a.segment();
    let in_b = |p| pb.inverse_transform_point(pa.transform_point(p));
    let local = Segment {
        a: in_b(s.a),
        b: in_b(s.b),
    };
    closest_point_segment_aabb(&local, b).1 == R::ZERO
}

/// Random capsules and boxes within reach of each other: the dispatch's contact has
/// the defining property of a minimum translation, witnesses on both surfaces and
/// GJK / EPA's depth; a segment through the box also a depth no direction beats.
/// A capsule and its pose, a box and its pose.
type PlacedPair<R> = (
    Capsule<<R as Real>::V3>,
    Pose3<R>,
    Aabb<<R as Real>::V3>,
    Pose3<R>,
);

/// A random capsule and box and their poses.
fn random_pair<R: Real>(rng: &mut Rng) -> PlacedPair<R> {
    let h = v3::<R>(
        rng.range(0.1, 1.5),
        rng.range(0.1, 1.5),
        rng.range(0.1, 1.5),
    );
    let b = Aabb::new(-h, h).unwrap();
    let half = R::from_f64(rng.range(0.0, 1.0));
    let axis = poses3::unit3::<R>(rng);
    let a = Capsule::new(-axis * half, axis * half, R::from_f64(rng.range(0.05, 0.8))).unwrap();
    (a, pose3::<R>(rng, 1.5), b, pose3::<R>(rng, 0.5))
}

fn random_poses<R: Real>(tol: f64, epa_tol: f64)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let mut rng = Rng(0xcab1);
    let (mut closed, mut through) = (0, 0);
    for _ in 0..CASES {
        let (a, pa, b, pb) = random_pair::<R>(&mut rng);
        let prediction = R::from_f64(if rng.below(2) == 0 { 0.0 } else { 0.1 });
        let [c, flipped] = both_orders(&pa, &a, &pb, &b, prediction);
        let generic = generic_contact::<R::V3, _, _>(&pa, &a, &pb, &b, prediction);
        if segment_meets(&pa, &a, &pb, &b) {
            through += 1;
            let c = c.expect("a segment through the box touches");
            let n = c.normal;
            let overlap = support_along(&a, &pa, n) + support_along(&b, &pb, -n);
            assert!((overlap - c.depth.to_f64()).abs() <= tol, "{c:?}");
            for _ in 0..64 {
                let u = poses3::unit3::<R>(&mut rng);
                let along = support_along(&a, &pa, u) + support_along(&b, &pb, -u);
                assert!(along >= c.depth.to_f64() - tol, "{u:?} beats {c:?}");
            }
        }
        let Some(c) = c else {
            if let Some(g) = generic {
                assert!(
                    g.depth.to_f64() <= -prediction.to_f64() + epa_tol,
                    "missed {g:?}"
                );
            }
            continue;
        };
        closed += 1;
        let f = flipped.expect("both orders agree");
        assert!(
            (f.depth - c.depth).abs().to_f64() <= tol
                && (f.normal - c.normal).length().to_f64() <= tol
        );
        // With the segment grazing the box (its distance far below the radius) the
        // normal's direction is ill-conditioned, as GJK / EPA's is; the depth is not.
        let n = c.normal;
        let overlap = support_along(&a, &pa, n) + support_along(&b, &pb, -n);
        let grazing = (a.radius() - c.depth).to_f64() < 1e3 * tol;
        assert!(
            grazing || (overlap - c.depth.to_f64()).abs() <= tol,
            "overlap {overlap} depth {:?}",
            c.depth
        );
        assert!(
            off_surface(&pa, &Shape::Capsule(a), c.point_a).abs() <= tol,
            "point_a off the capsule"
        );
        assert!(
            off_surface(&pb, &Shape::Cuboid(b), c.point_b).abs() <= tol,
            "point_b off the box"
        );
        if let Some(g) = generic {
            assert!(
                (g.depth - c.depth).abs().to_f64() <= epa_tol,
                "{c:?} against {g:?}"
            );
        }
    }
    assert!(
        closed > CASES / 4 && through > CASES / 20,
        "{closed} closed, {through} through the box"
    );
}

#[test]
fn random_poses_f64() {
    random_poses::<f64>(1e-9, 1e-5);
}

#[test]
fn random_poses_f32() {
    random_poses::<f32>(1e-4, 2e-3);
}

/// The dispatch's closed-form `intersects` (capsule–box) against GJK's distance and
/// EPA's depth on random poses, both orders; exactly touching shapes intersect.
fn intersects_agrees_with_gjk<R: Real>(tol: f64)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let mut rng = Rng(0xcab2);
    let (mut hits, mut misses) = (0, 0);
    for _ in 0..CASES {
        let (a, pa, b, pb) = random_pair::<R>(&mut rng);
        let (sa, sb): (Shape<R>, Shape<R>) = (Shape::Capsule(a), Shape::Cuboid(b));
        let both = [
            dispatch::intersects(&pa, &sa, &pb, &sb),
            dispatch::intersects(&pb, &sb, &pa, &sa),
        ];
        assert_eq!(both[0], both[1], "orders disagree");
        let apart = isect::query::distance::distance::<R::V3, _, _>(&pa, &a, &pb, &b).to_f64();
        let depth =
            generic_contact::<R::V3, _, _>(&pa, &a, &pb, &b, R::ZERO).map(|c| c.depth.to_f64());
        if apart > tol {
            assert!(!both[0], "GJK says {apart} apart");
            misses += 1;
        } else if depth.is_some_and(|d| d > tol) {
            assert!(both[0], "EPA says {depth:?} deep");
            hits += 1;
        }
    }
    assert!(
        hits > CASES / 4 && misses > CASES / 10,
        "{hits} hits, {misses} misses"
    );
    // A capsule lying exactly on the top face (a power-of-two layout, exact in both
    // precisions) touches; lifted by a little it does not.
    let cube: Shape<R> =
        Shape::Cuboid(Aabb::new(v3::<R>(-1.0, -1.0, -1.0), v3::<R>(1.0, 1.0, 1.0)).unwrap());
    let lying: Shape<R> = Shape::Capsule(
        Capsule::new(
            v3::<R>(-0.5, 0.0, 0.0),
            v3::<R>(0.5, 0.0, 0.0),
            R::from_f64(0.25),
        )
        .unwrap(),
    );
    let on = Pose3::from_translation(v3::<R>(0.25, 1.25, 0.0));
    let above = Pose3::from_translation(v3::<R>(0.25, 1.25 + 1e3 * tol, 0.0));
    assert!(dispatch::intersects(&on, &lying, &Pose3::IDENTITY, &cube));
    assert!(!dispatch::intersects(
        &above,
        &lying,
        &Pose3::IDENTITY,
        &cube
    ));
    let nan = Pose3::from_translation(v3::<R>(f64::NAN, 0.0, 0.0));
    assert!(!dispatch::intersects(&nan, &lying, &Pose3::IDENTITY, &cube));
    touching_at_edges_and_corners::<R>();
}

/// Capsules exactly touching a box's face, edge (a 3-4-5 offset, along the edge and
/// skew to it) and corner (2-3-6-7), all
/// dyadic so the distance is exactly the radius in both precisions, at three scales:
/// they intersect (the grown-box early-out must not drop them); 1% farther they do not.
fn touching_at_edges_and_corners<R: Real>()
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    // (point of the box, offset from it in eighths, the segment's start shift and
    // axis in eighths, the radius in eighths)
    let edge = (
        [1.0, 1.0, 0.0],
        [3.0, 4.0, 0.0],
        [0.0, 0.0, -1.0],
        [0.0, 0.0, 2.0],
        5.0,
    );
    let corner = (
        [1.0, 1.0, 1.0],
        [2.0, 3.0, 6.0],
        [0.0; 3],
        [2.0, 3.0, 6.0],
        7.0,
    );
    // On the grown box's face itself: the early-out's own boundary.
    let face = (
        [1.0, 0.0, 0.0],
        [4.0, 0.0, 0.0],
        [0.0, -1.0, 0.0],
        [0.0, 2.0, 0.0],
        4.0,
    );
    // Skew to the edge (x = y = 1) and touching its rounding at the segment's middle
    // along (3, 4, 0): the early-out's edge axis `h × e_z` is this normal.
    let skew = (
        [1.0, 1.0, 0.0],
        [3.0, 4.0, 0.0],
        [4.0, -3.0, -1.0],
        [-8.0, 6.0, 2.0],
        5.0,
    );
    let id = Pose3::IDENTITY;
    for k in [1.0 / 64.0, 1.0, 1024.0] {
        let cube: Shape<R> =
            Shape::Cuboid(Aabb::new(v3::<R>(-k, -k, -k), v3::<R>(k, k, k)).unwrap());
        for (base, offset, shift, axis, radius) in [edge, corner, face, skew] {
            for (lift, touches) in [(1.0, true), (1.01, false)] {
                let at = |i: usize| (base[i] + (offset[i] * lift + shift[i]) / 8.0) * k;
                let a = v3::<R>(at(0), at(1), at(2));
                let b = a + v3::<R>(axis[0] * k / 8.0, axis[1] * k / 8.0, axis[2] * k / 8.0);
                let r = R::from_f64(radius * k / 8.0);
                let capsule: Shape<R> = Shape::Capsule(Capsule::new(a, b, r).unwrap());
                assert_eq!(
                    dispatch::intersects(&id, &capsule, &id, &cube),
                    touches,
                    "scale {k}, radius {radius}, lift {lift}"
                );
                assert_eq!(dispatch::intersects(&id, &cube, &id, &capsule), touches);
            }
        }
    }
}

#[test]
fn intersects_agrees_with_gjk_f64() {
    intersects_agrees_with_gjk::<f64>(1e-9);
}

#[test]
fn intersects_agrees_with_gjk_f32() {
    intersects_agrees_with_gjk::<f32>(1e-5);
}

#[test]
fn non_finite_poses_give_no_contact() {
    let b = Aabb::new(v3::<f64>(-1.0, -1.0, -1.0), v3::<f64>(1.0, 1.0, 1.0)).unwrap();
    let a = Capsule::new(v3::<f64>(-0.5, 0.0, 0.0), v3::<f64>(0.5, 0.0, 0.0), 0.25).unwrap();
    let bad = Pose3::from_translation(v3::<f64>(f64::NAN, 1.1, 0.0));
    for c in both_orders(&bad, &a, &Pose3::IDENTITY, &b, 0.0) {
        assert_eq!(c, None);
    }
}

#[test]
fn planar_capsule_on_a_box() {
    use glam::DVec2;
    use isect::math::Pose2;
    use isect::shape::shape_2d::Shape as Shape2;
    let b = Shape2::<f64>::Cuboid(Aabb::new(DVec2::splat(-1.0), DVec2::splat(1.0)).unwrap());
    let a =
        Shape2::Capsule(Capsule::new(DVec2::new(-0.5, 0.0), DVec2::new(0.5, 0.0), 0.25).unwrap());
    let pa = Pose2::new(DVec2::new(0.3, 1.2), 0.0);
    let c: Contact<DVec2> =
        dispatch::contact(&pa, &a, &Pose2::<f64>::IDENTITY, &b, 0.0).expect("touching");
    assert!((c.depth - 0.05).abs() < 1e-12 && (c.normal - DVec2::new(0.0, -1.0)).length() < 1e-12);
    assert!((c.point_b.y - 1.0).abs() < 1e-12 && (c.point_a.y - 0.95).abs() < 1e-12);
}

/// 2D capsules whose segment meets the box: through the top edge, and skew across a
/// corner (the segment's own normal is the axis: the corner 0.1 · √2 into it).
#[test]
fn planar_capsule_through_a_box() {
    use glam::DVec2;
    use isect::math::Pose2;
    use isect::shape::shape_2d::Shape as Shape2;
    let b = Shape2::<f64>::Cuboid(Aabb::new(DVec2::splat(-1.0), DVec2::splat(1.0)).unwrap());
    let capsule = |a: DVec2, b: DVec2| Shape2::Capsule(Capsule::new(a, b, 0.25).unwrap());
    let standing = capsule(DVec2::new(0.0, -0.5), DVec2::new(0.0, 0.5));
    let skew = capsule(DVec2::new(0.3, -0.3), DVec2::new(-0.3, 0.3));
    let diag = 0.5f64.sqrt();
    // (capsule, position, depth, normal, point_b).
    let cases = [
        (
            standing,
            DVec2::new(0.3, 1.1),
            0.65,
            DVec2::new(0.0, -1.0),
            DVec2::new(0.3, 1.0),
        ),
        (
            skew,
            DVec2::new(0.9, 0.9),
            0.1 * 2f64.sqrt() + 0.25,
            DVec2::new(-diag, -diag),
            DVec2::new(1.0, 1.0),
        ),
    ];
    for (a, at, depth, normal, point_b) in cases {
        let pa = Pose2::new(at, 0.0);
        let c: Contact<DVec2> =
            dispatch::contact(&pa, &a, &Pose2::<f64>::IDENTITY, &b, 0.0).expect("touching");
        assert!((c.depth - depth).abs() < 1e-12, "{c:?}");
        assert!((c.normal - normal).length() < 1e-12, "{c:?}");
        assert!((c.point_b - point_b).length() < 1e-12, "{c:?}");
        assert!((c.point_a - c.point_b - c.normal * c.depth).length() < 1e-12);
    }
}
