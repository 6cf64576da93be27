//! Box–box distance through the dispatch (`query::box_box` proves most pairs, GJK the
//! rest), in `f32` and `f64`:
//!
//! - on random boxes and poses, against a brute-force reference in `f64` (SAT for
//!   overlap, else the least vertex–box and edge–edge distance), both argument
//!   orders, and the proof itself whenever it answers; the proof must answer most
//!   pairs;
//! - exact answers for each kind of nearest features (a vertex over a face, crossing
//!   edges, a vertex over an edge, overlap, touching edges) at scales 1e-3 to 1e3
//!   (`f64`: 1e-6 to 1e6, and 1e-20 and 1e20, beyond the proof's range), under a
//!   random rigid motion of both boxes;
//! - closest points: on (or within rounding of) each box, `|point_b − point_a|` the
//!   distance, through the dispatch and from the proof;
//! - a non-finite pose gives NaN, and no proof.

#[path = "support/poses3.rs"]
mod poses3;
#[path = "support/rng.rs"]
mod rng;

use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose3, Real, Rotation3, Vector};
use isect::query::box_box::{certified_closest_points, certified_distance};
use isect::query::dispatch;
use isect::query::distance::closest_points_segment_segment;
use isect::shape::shape_3d::Shape;
use isect::shape::{Aabb, Segment};
use poses3::{pose3, v3};
use rng::Rng;

/// The distance through the dispatch in both argument orders (they must agree).
fn both_orders<R: Real>(pa: &Pose3<R>, a: &Aabb<R::V3>, pb: &Pose3<R>, b: &Aabb<R::V3>) -> f64
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let (sa, sb) = (Shape::<R>::Cuboid(*a), Shape::<R>::Cuboid(*b));
    let (ab, ba) = (
        dispatch::distance(pa, &sa, pb, &sb).to_f64(),
        dispatch::distance(pb, &sb, pa, &sa).to_f64(),
    );
    let scale = 1.0 + ab.abs();
    assert!(
        (ab - ba).abs() <= 1e-4 * scale,
        "orders disagree: {ab} vs {ba}"
    );
    ab
}

/// The corners of box `b` at `pose`, in `f64`.
fn corners<R: Real>(b: &Aabb<R::V3>, pose: &Pose3<R>) -> Vec<glam::DVec3> {
    b.corners()
        .map(|c| {
            let w = pose.transform_point(c);
            glam::DVec3::new(w.get(0).to_f64(), w.get(1).to_f64(), w.get(2).to_f64())
        })
        .collect()
}

/// Brute force in `f64`: 0 when no axis of the 15 separates the corner sets, else the
/// least distance from a corner of one box to the other and between two edges.
fn reference<R: Real>(a: &Aabb<R::V3>, pa: &Pose3<R>, b: &Aabb<R::V3>, pb: &Pose3<R>) -> f64 {
    let (va, vb) = (corners(a, pa), corners(b, pb));
    let edges = |v: &[glam::DVec3]| -> Vec<Segment<glam::DVec3>> {
        let mut out = Vec::new();
        for i in 0..8 {
            for bit in [1, 2, 4] {
                if i & bit == 0 {
                    out.push(Segment {
                        a: v[i],
                        b: v[i | bit],
                    });
                }
            }
        }
        out
    };
    let (ea, eb) = (edges(&va), edges(&vb));
    let dirs = |e: &[Segment<glam::DVec3>]| -> Vec<glam::DVec3> {
        [0, 1, 4]
            .iter()
            .map(|&k| (e[k].b - e[k].a).normalize())
            .collect()
    };
    let (da, db) = (dirs(&ea), dirs(&eb));
    let mut axes: Vec<glam::DVec3> = da.iter().chain(db.iter()).copied().collect();
    for x in &da {
        for y in &db {
            if let Some(c) = x.cross(*y).try_normalize() {
                axes.push(c);
            }
        }
    }
    let span = |v: &[glam::DVec3], n: glam::DVec3| {
        v.iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                (lo.min(p.dot(n)), hi.max(p.dot(n)))
            })
    };
    let separated = axes.iter().any(|&n| {
        let ((la, ha), (lb, hb)) = (span(&va, n), span(&vb, n));
        la > hb || lb > ha
    });
    if !separated {
        return 0.0;
    }
    let mut best = f64::INFINITY;
    for s in &ea {
        for t in &eb {
            let (_, _, p, q) = closest_points_segment_segment(s, t);
            best = best.min(p.distance(q));
        }
    }
    // A corner over a face of the other box.
    let corner_to_box = |p: glam::DVec3, b: &Aabb<R::V3>, pose: &Pose3<R>| {
        let local = pose.inverse_transform_point(v3::<R>(p.x, p.y, p.z));
        b.distance_squared_to_point(local).to_f64().sqrt()
    };
    for &p in &va {
        best = best.min(corner_to_box(p, b, pb));
    }
    for &p in &vb {
        best = best.min(corner_to_box(p, a, pa));
    }
    best
}

/// Checks closest points against the distance `want`: each point within `tol` of its
/// box (placed), and their separation the distance (both within `tol` of each other
/// for an overlap).
fn check_points<R: Real>(
    (a, pa): (&Aabb<R::V3>, &Pose3<R>),
    (b, pb): (&Aabb<R::V3>, &Pose3<R>),
    (point_a, point_b): (R::V3, R::V3),
    want: f64,
    tol: f64,
    what: &str,
) {
    let off = |p: R::V3, bx: &Aabb<R::V3>, pose: &Pose3<R>| {
        bx.distance_squared_to_point(pose.inverse_transform_point(p))
            .to_f64()
            .sqrt()
    };
    assert!(
        off(point_a, a, pa) <= tol,
        "{what}: point_a off A by {}",
        off(point_a, a, pa)
    );
    assert!(
        off(point_b, b, pb) <= tol,
        "{what}: point_b off B by {}",
        off(point_b, b, pb)
    );
    let gap = point_a.distance(point_b).to_f64();
    assert!(
        (gap - want).abs() <= tol,
        "{what}: points {gap} apart, distance {want}"
    );
}

/// A box of random half extents in `[0.1, 1]`, off its frame's origin by up to 0.2.
fn random_box<R: Real>(rng: &mut Rng) -> Aabb<R::V3> {
    let half = v3::<R>(
        rng.range(0.1, 1.0),
        rng.range(0.1, 1.0),
        rng.range(0.1, 1.0),
    );
    let centre = v3::<R>(
        rng.range(-0.2, 0.2),
        rng.range(-0.2, 0.2),
        rng.range(-0.2, 0.2),
    );
    Aabb::new(centre - half, centre + half).unwrap()
}

fn random_pairs<R: Real>(tol: f64)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    const CASES: usize = 4_000;
    let mut rng = Rng(0xb0c5);
    let (mut proven, mut overlapping, mut with_points) = (0, 0, 0);
    for case in 0..CASES {
        let (a, b) = (random_box::<R>(&mut rng), random_box::<R>(&mut rng));
        let (pa, pb) = (pose3::<R>(&mut rng, 1.5), pose3::<R>(&mut rng, 1.5));
        let want = reference(&a, &pa, &b, &pb);
        let got = both_orders(&pa, &a, &pb, &b);
        assert!((got - want).abs() <= tol, "case {case}: {got} vs {want}");
        if let Some(d) = certified_distance(&pa, &a, &pb, &b) {
            let d = d.to_f64();
            assert!((d - want).abs() <= tol, "case {case}: proof {d} vs {want}");
            proven += 1;
        }
        let (sa, sb) = (Shape::<R>::Cuboid(a), Shape::<R>::Cuboid(b));
        let cp = dispatch::closest_points(&pa, &sa, &pb, &sb);
        let what = format!("case {case}");
        assert!(
            (cp.distance.to_f64() - want).abs() <= tol,
            "{what}: closest points' distance"
        );
        check_points(
            (&a, &pa),
            (&b, &pb),
            (cp.point_a, cp.point_b),
            want,
            tol,
            &what,
        );
        if let Some((d, on_a, on_b)) = certified_closest_points(&pa, &a, &pb, &b) {
            assert!((d.to_f64() - want).abs() <= tol, "{what}: proof's distance");
            check_points((&a, &pa), (&b, &pb), (on_a, on_b), want, tol, &what);
            with_points += 1;
        }
        overlapping += usize::from(want == 0.0);
    }
    // The proof is the fast path: it must answer most pairs, overlaps included.
    assert!(proven > CASES * 85 / 100, "{proven} of {CASES} proven");
    assert!(
        with_points > CASES * 80 / 100,
        "{with_points} of {CASES} with points"
    );
    assert!(overlapping > CASES / 20, "{overlapping} overlapping");
}

#[test]
fn random_pairs_f64() {
    random_pairs::<f64>(1e-10);
}

#[test]
fn random_pairs_f32() {
    random_pairs::<f32>(2e-4);
}

/// The rotation turning the body diagonal `(1, 1, 1)` of a cube to `−z`: the cube
/// then stands on a corner, `√3·h` below its centre.
fn on_corner<R: Real>() -> R::Quat {
    // (1, 1, 1) × (0, 0, −1), normalised.
    let axis = v3::<R>(-1.0, 1.0, 0.0) * R::from_f64(0.5f64.sqrt());
    let angle = R::from_f64((-1.0f64 / 3f64.sqrt()).acos());
    R::Quat::from_axis_angle(axis, angle)
}

/// Unit cubes (half extent `k`) in each arrangement of nearest features, with the
/// distance each should have; B is above A along z.
fn arrangements<R: Real>(k: f64) -> Vec<(&'static str, Pose3<R>, Pose3<R>, f64)> {
    let (s2, s3) = (2f64.sqrt(), 3f64.sqrt());
    let quarter = R::from_f64(std::f64::consts::FRAC_PI_4);
    let about_x = R::Quat::from_axis_angle(v3::<R>(1.0, 0.0, 0.0), quarter);
    let about_y = R::Quat::from_axis_angle(v3::<R>(0.0, 1.0, 0.0), quarter);
    let at = |z: f64, q: R::Quat| Pose3::new(v3::<R>(0.0, 0.0, z * k), q);
    let (flat, gap) = (R::Quat::IDENTITY, 0.25);
    vec![
        // B stands on a corner over A's top face.
        (
            "vertex over face",
            at(0.0, flat),
            at(1.0 + s3 + gap, on_corner::<R>()),
            gap,
        ),
        // A's top edge (along x) under B's bottom edge (along y).
        (
            "crossing edges",
            at(0.0, about_x),
            at(2.0 * s2 + gap, about_y),
            gap,
        ),
        // B's corner right over A's top edge.
        (
            "vertex over edge",
            at(0.0, about_x),
            at(s2 + s3 + gap, on_corner::<R>()),
            gap,
        ),
        // B's centre inside A.
        ("overlap", at(0.0, about_x), at(0.5, about_y), 0.0),
        // The crossing edges touching.
        (
            "touching edges",
            at(0.0, about_x),
            at(2.0 * s2, about_y),
            0.0,
        ),
    ]
}

fn exact_at_scales<R: Real>(scales: &[f64], tol: f64, proven_from: f64, proven_to: f64)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let mut rng = Rng(0xed9e);
    for &k in scales {
        let cube = Aabb::new(v3::<R>(-k, -k, -k), v3::<R>(k, k, k)).unwrap();
        for (name, pa, pb, want) in arrangements::<R>(k) {
            let motion = pose3::<R>(&mut rng, 2.0 * k);
            let (pa, pb) = (motion.mul(&pa), motion.mul(&pb));
            let got = both_orders(&pa, &cube, &pb, &cube);
            assert!(
                (got - want * k).abs() <= tol * k,
                "{name} at scale {k}: {got} vs {}",
                want * k
            );
            let shape = Shape::<R>::Cuboid(cube);
            let cp = dispatch::closest_points(&pa, &shape, &pb, &shape);
            let what = format!("{name} at scale {k}");
            assert!(
                (cp.distance.to_f64() - want * k).abs() <= tol * k,
                "{what}: closest points"
            );
            let points = (cp.point_a, cp.point_b);
            check_points((&cube, &pa), (&cube, &pb), points, want * k, tol * k, &what);
            let proof = certified_distance(&pa, &cube, &pb, &cube);
            if (proven_from..=proven_to).contains(&k) && name != "touching edges" {
                let d = proof.unwrap_or_else(|| panic!("{name} at scale {k}: no proof"));
                assert!(
                    (d.to_f64() - want * k).abs() <= tol * k,
                    "{name}: proof {d:?}"
                );
            }
        }
    }
}

#[test]
fn exact_arrangements_f64() {
    exact_at_scales::<f64>(&[1e-20, 1e-6, 1.0, 1e6, 1e20], 1e-9, 1e-6, 1e6);
}

#[test]
fn exact_arrangements_f32() {
    exact_at_scales::<f32>(&[1e-3, 1.0, 1e3], 2e-4, 1e-3, 1e3);
}

#[test]
fn non_finite_poses() {
    let cube = Aabb::new(v3::<f64>(-1.0, -1.0, -1.0), v3::<f64>(1.0, 1.0, 1.0)).unwrap();
    let shape = Shape::<f64>::Cuboid(cube);
    let nan = Pose3::from_translation(v3::<f64>(f64::NAN, 0.0, 0.0));
    let id = Pose3::<f64>::IDENTITY;
    assert!(dispatch::distance(&nan, &shape, &id, &shape).is_nan());
    assert!(dispatch::distance(&id, &shape, &nan, &shape).is_nan());
    assert_eq!(certified_distance(&nan, &cube, &id, &cube), None);
}

/// The proofs read rotations as rotation matrices: a rotation that is not unit to
/// rounding (zero, scaled, NaN) gets no proof, in either place, while the same pose
/// made unit does (and the dispatch answers the unit one).
#[test]
fn rotations_not_unit_get_no_proof() {
    let cube = Aabb::new(v3::<f64>(-1.0, -1.0, -1.0), v3::<f64>(1.0, 1.0, 1.0)).unwrap();
    let apart = Pose3::<f64>::from_translation(v3::<f64>(3.0, 0.0, 0.0));
    let unit = Pose3::<f64>::new(v3::<f64>(3.0, 0.0, 0.0), glam::DQuat::from_rotation_z(0.3));
    assert!(certified_distance(&Pose3::IDENTITY, &cube, &apart, &cube).is_some());
    assert!(certified_distance(&Pose3::IDENTITY, &cube, &unit, &cube).is_some());
    for q in [
        glam::DQuat::from_xyzw(0.0, 0.0, 0.0, 0.0),
        unit.rotation * 1.5,
        unit.rotation * (1.0 + 1e-12),
        glam::DQuat::from_xyzw(f64::NAN, 0.0, 0.0, 1.0),
    ] {
        let bad = Pose3::<f64>::new(unit.translation, q);
        for (pa, pb) in [(&Pose3::IDENTITY, &bad), (&bad, &Pose3::IDENTITY)] {
            assert_eq!(certified_distance(pa, &cube, pb, &cube), None, "{q:?}");
            assert!(
                certified_closest_points(pa, &cube, pb, &cube).is_none(),
                "{q:?}"
            );
        }
    }
}
