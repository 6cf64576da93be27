//! Capsule–triangle and box–triangle contacts through the dispatch (the pairs a
//! capsule or a box on a mesh asks of each triangle), in `f32` and `f64`:
//!
//! - exact answers where the touching features are known: a capsule lying 0.1 deep on
//!   a triangle, one piercing it, one across an edge, one apart above a vertex; a box
//!   resting on a triangle and one with a corner into it; at scales 1e-2 to 1e2 under
//!   a random rigid motion, in both argument orders;
//! - on random poses, the contact's defining properties: the projections on the normal
//!   overlap by the depth, no direction overlaps less (64 random ones: the depth is
//!   the least translation, or minus the distance when apart), both witnesses on their
//!   shapes' surfaces with `point_a − point_b = depth · normal`; and the depth against
//!   GJK / EPA's (`query::contact::contact`, the path these pairs took before).

#[path = "support/poses3.rs"]
mod poses3;
#[path = "support/rng.rs"]
mod rng;
#[path = "support/surfaces.rs"]
mod surfaces;

use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose3, Real, Rotation3, Vector};
use isect::query::contact::{contact as generic_contact, Contact};
use isect::query::dispatch;
use isect::shape::shape_3d::Shape;
use isect::shape::{Aabb, Capsule, Triangle};
use poses3::{pose3, support_along, unit3, v3};
use rng::Rng;
use surfaces::{along, off_surface};

/// Random poses per precision and kind.
const CASES: usize = 2_000;

/// The contact of A and the triangle through the dispatch, A first or the triangle
/// first (then flipped back to run from A).
fn both_orders<R: Real>(
    pa: &Pose3<R>,
    a: &Shape<R>,
    pt: &Pose3<R>,
    t: &Triangle<R::V3>,
    prediction: R,
) -> [Option<Contact<R::V3>>; 2]
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let tri = Shape::<R>::Triangle(*t);
    [
        dispatch::contact(pa, a, pt, &tri, prediction),
        dispatch::contact(pt, &tri, pa, a, prediction).map(|c| c.flipped()),
    ]
}

/// Checks a contact's defining properties within `tol` (module docs).
fn check_contact<R: Real>(
    (pa, a): (&Pose3<R>, &Shape<R>),
    (pt, t): (&Pose3<R>, &Triangle<R::V3>),
    c: &Contact<R::V3>,
    rng: &mut Rng,
    tol: f64,
) where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let overlap_along = |u: R::V3| along(a, pa, u) + support_along(t, pt, -u);
    let depth = c.depth.to_f64();
    let overlap = overlap_along(c.normal);
    assert!(
        (overlap - depth).abs() <= tol,
        "overlap {overlap} for {c:?}"
    );
    for _ in 0..64 {
        let u = unit3::<R>(rng);
        assert!(overlap_along(u) >= depth - tol, "{u:?} beats {c:?}");
    }
    let on_a = off_surface(pa, a, c.point_a);
    let on_t = off_surface(pt, &Shape::Triangle(*t), c.point_b);
    assert!(
        on_a.abs() <= tol && on_t <= tol,
        "witnesses off by {on_a}, {on_t}: {c:?}"
    );
    let gap = c.point_a - c.point_b - c.normal * c.depth;
    assert!(gap.length().to_f64() <= tol, "witness gap {gap:?}");
}

/// A random triangle (corners within 1.5 of its origin) at a random pose.
fn random_triangle<R: Real>(rng: &mut Rng) -> (Triangle<R::V3>, Pose3<R>) {
    let mut corner = || {
        v3::<R>(
            rng.range(-1.5, 1.5),
            rng.range(-1.5, 1.5),
            rng.range(-0.2, 0.2),
        )
    };
    let t = Triangle::new(corner(), corner(), corner()).unwrap();
    (t, pose3::<R>(rng, 0.5))
}

/// A random capsule or box within reach of the triangle's origin, at a random pose.
fn random_shape<R: Real>(rng: &mut Rng, capsule: bool) -> (Shape<R>, Pose3<R>) {
    let shape = if capsule {
        let half = R::from_f64(rng.range(0.0, 1.0));
        let axis = unit3::<R>(rng);
        let r = R::from_f64(rng.range(0.05, 0.6));
        Shape::Capsule(Capsule::new(-axis * half, axis * half, r).unwrap())
    } else {
        let h = v3::<R>(
            rng.range(0.1, 1.0),
            rng.range(0.1, 1.0),
            rng.range(0.1, 1.0),
        );
        Shape::Cuboid(Aabb::new(-h, h).unwrap())
    };
    (shape, pose3::<R>(rng, 1.2))
}

fn random_poses<R: Real>(capsule: bool, tol: f64, epa_tol: f64)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let mut rng = Rng(0x7c0e ^ u64::from(capsule));
    let (mut touching, mut apart) = (0, 0);
    for _ in 0..CASES {
        let (t, pt) = random_triangle::<R>(&mut rng);
        let (a, pa) = random_shape::<R>(&mut rng, capsule);
        let prediction = R::from_f64(if rng.below(2) == 0 { 0.0 } else { 0.2 });
        let [c, flipped] = both_orders(&pa, &a, &pt, &t, prediction);
        let generic = match &a {
            Shape::Capsule(x) => generic_contact::<R::V3, _, _>(&pa, x, &pt, &t, prediction),
            Shape::Cuboid(x) => generic_contact::<R::V3, _, _>(&pa, x, &pt, &t, prediction),
            _ => unreachable!(),
        };
        let Some(c) = c else {
            assert!(flipped.is_none(), "orders disagree");
            if let Some(g) = generic {
                assert!(
                    g.depth.to_f64() <= -prediction.to_f64() + epa_tol,
                    "missed {g:?}"
                );
            }
            continue;
        };
        let f = flipped.expect("both orders touch");
        assert!(
            (f.depth - c.depth).abs().to_f64() <= tol,
            "{c:?} against {f:?}"
        );
        check_contact((&pa, &a), (&pt, &t), &c, &mut rng, tol);
        if let Some(g) = generic {
            assert!(
                (g.depth - c.depth).abs().to_f64() <= epa_tol,
                "{c:?} against {g:?}"
            );
        }
        if c.depth > R::ZERO {
            touching += 1;
        } else {
            apart += 1;
        }
    }
    assert!(
        touching > CASES / 10 && apart > CASES / 20,
        "{touching} touching, {apart} apart within the prediction"
    );
}

#[test]
fn capsule_random_poses_f64() {
    random_poses::<f64>(true, 1e-9, 1e-5);
}

#[test]
fn capsule_random_poses_f32() {
    random_poses::<f32>(true, 2e-4, 2e-3);
}

#[test]
fn box_random_poses_f64() {
    random_poses::<f64>(false, 1e-9, 1e-5);
}

#[test]
fn box_random_poses_f32() {
    random_poses::<f32>(false, 2e-4, 2e-3);
}

/// Exact cases at `scale` against the triangle `(-2, 0, -2), (2, 0, -2), (0, 0, 2)`
/// (in the plane y = 0) moved by one random rigid motion.
fn exact_cases<R: Real>(scale: f64, tol: f64)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let mut rng = Rng(0x7c1e ^ scale.to_bits());
    let s = |x: f64| x * scale;
    let p = |x: f64, y: f64, z: f64| v3::<R>(s(x), s(y), s(z));
    let t = Triangle::new(p(-2.0, 0.0, -2.0), p(2.0, 0.0, -2.0), p(0.0, 0.0, 2.0)).unwrap();
    let r = R::from_f64(s(0.25));
    let capsule = |a: R::V3, b: R::V3| Shape::Capsule(Capsule::new(a, b, r).unwrap());
    let diag = 0.5f64.sqrt();
    let lying = capsule(p(-0.5, 0.0, 0.0), p(0.5, 0.0, 0.0));
    let standing = capsule(p(0.0, -0.5, 0.0), p(0.0, 0.5, 0.0));
    let skew = capsule(
        p(0.0, -0.5 * diag, -0.5 * diag),
        p(0.0, 0.5 * diag, 0.5 * diag),
    );
    let cube = Shape::Cuboid(Aabb::new(p(-0.5, -0.5, -0.5), p(0.5, 0.5, 0.5)).unwrap());
    let on_edge = Pose3::new(
        R::V3::ZERO,
        R::Quat::from_axis_angle(
            v3::<R>(0.0, 0.0, 1.0),
            R::from_f64(core::f64::consts::FRAC_PI_4),
        ),
    );
    // (shape, its rotation, position, depth, normal from the shape to the triangle,
    // point_b where it is unique).
    let cases = [
        // Lying 0.1 into the top, its segment 0.15 above: the witness is its middle.
        (
            lying.clone(),
            Pose3::IDENTITY,
            [0.2, 0.15, 0.1],
            0.1,
            [0.0, -1.0, 0.0],
            Some([0.2, 0.0, 0.1]),
        ),
        // Piercing the triangle, 0.2 of the segment below it: out upwards.
        (
            standing,
            Pose3::IDENTITY,
            [0.0, 0.3, 0.0],
            0.45,
            [0.0, -1.0, 0.0],
            Some([0.0, 0.0, 0.0]),
        ),
        // Tilted through the triangle 0.1 inside the back edge z = -2: the edge axis.
        (
            skew,
            Pose3::IDENTITY,
            [0.0, 0.0, -1.9],
            0.1 * diag + 0.25,
            [0.0, -diag, diag],
            Some([0.0, 0.0, -2.0]),
        ),
        // Apart above the corner (0, 0, 2), 0.1 beyond the radius along the diagonal.
        (
            lying,
            Pose3::IDENTITY,
            [0.0, 0.35 * diag, 2.0 + 0.35 * diag],
            -0.1,
            [0.0, -diag, -diag],
            Some([0.0, 0.0, 2.0]),
        ),
        // A cube resting 0.05 into the top.
        (
            cube.clone(),
            Pose3::IDENTITY,
            [0.3, 0.45, -0.2],
            0.05,
            [0.0, -1.0, 0.0],
            None,
        ),
        // A cube on an edge (turned 45° about z), the edge 0.05 into the top.
        (
            cube,
            on_edge,
            [0.1, diag - 0.05, 0.3],
            0.05,
            [0.0, -1.0, 0.0],
            None,
        ),
    ];
    let motion = pose3::<R>(&mut rng, scale);
    for (a, rot, at, depth, normal, point_b) in cases {
        let pa = motion
            .mul(&Pose3::from_translation(p(at[0], at[1], at[2])))
            .mul(&rot);
        let n = motion.transform_vector(v3::<R>(normal[0], normal[1], normal[2]));
        for c in both_orders(&pa, &a, &motion, &t, R::from_f64(s(0.2))) {
            let c = c.expect("within the prediction");
            assert!(
                (c.depth.to_f64() - s(depth)).abs() <= tol * scale,
                "depth {c:?}"
            );
            assert!(
                (c.normal - n).length().to_f64() <= tol * 10.0,
                "normal {c:?}"
            );
            if let Some(b) = point_b {
                let want = motion.transform_point(p(b[0], b[1], b[2]));
                let off = (c.point_b - want).length().to_f64();
                assert!(off <= tol * scale * 10.0, "point_b {c:?}");
            }
            let on_a = off_surface(&pa, &a, c.point_a);
            let on_t = off_surface(&motion, &Shape::Triangle(t), c.point_b);
            assert!(
                on_a.abs().max(on_t) <= tol * scale * 10.0,
                "witnesses {on_a}, {on_t}"
            );
            let gap = c.point_a - c.point_b - c.normal * c.depth;
            assert!(gap.length().to_f64() <= tol * scale, "witness gap {gap:?}");
        }
    }
}

#[test]
fn exact_answers_at_every_scale() {
    for scale in [1e-2, 1.0, 1e2] {
        exact_cases::<f64>(scale, 1e-12);
        exact_cases::<f32>(scale, 2e-5);
    }
}
