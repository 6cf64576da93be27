//! The shape enums' dispatch table (`query::dispatch`) against the generic GJK / EPA
//! path (`query::{distance, contact, cast_shapes}` called with the enum as a support
//! map), for every pair of kinds, on seeded random poses; swapped A/B mirrors; edges.

mod world_common;

use isect::algo::support::SupportMap;
use isect::math::{Isometry, Real};
use isect::query::dispatch::DispatchShape;
use isect::query::{self, dispatch, RayCast};
use isect::shape::{Ball, Ray};
use world_common::*;

/// Random cases per ordered pair of kinds.
const CASES: usize = 12;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

/// One random pair: dispatch and the generic path agree on every query, and swapping
/// A and B mirrors each answer. Returns whether the pair intersects.
fn check_pair<V: TestDim>(a: &V::S, pa: &V::Pose, b: &V::S, pb: &V::Pose, scale: f64) -> bool {
    let t = tol::<V>() * scale;
    let what = format!(
        "{} vs {} at {pa:?} / {pb:?}",
        V::kind_name(a),
        V::kind_name(b)
    );
    let g = query::distance(pa, a, pb, b).to_f64();
    let d = dispatch::distance(pa, a, pb, b).to_f64();
    assert!(close(d, g, t), "distance {d} vs gjk {g}: {what}");
    let ds = dispatch::distance(pb, b, pa, a).to_f64();
    assert!(
        close(ds, d, 4.0 * t),
        "swapped distance {ds} vs {d}: {what}"
    );
    let cp = dispatch::closest_points(pa, a, pb, b).distance.to_f64();
    assert!(close(cp, g, t), "closest_points {cp} vs {g}: {what}");
    let hit = dispatch::intersects(pa, a, pb, b);
    assert_eq!(
        hit,
        dispatch::intersects(pb, b, pa, a),
        "swapped intersects: {what}"
    );
    let gc = query::contact(pa, a, pb, b, V::Scalar::ZERO);
    let gdepth = gc.map_or(-g, |c| c.depth.to_f64());
    if gdepth.abs() > t {
        assert_eq!(
            hit,
            query::distance::intersects(pa, a, pb, b),
            "intersects: {what}"
        );
        assert_eq!(hit, gdepth > 0.0, "intersects vs depth {gdepth}: {what}");
    }
    check_contact::<V>(a, pa, b, pb, gc, t, &what);
    check_cast::<V>(a, pa, b, pb, &what);
    hit
}

/// Contacts (prediction 0): presence, depth and normal agree with EPA; the swapped
/// contact is flipped; `point_a − point_b = depth · normal`.
fn check_contact<V: TestDim>(
    a: &V::S,
    pa: &V::Pose,
    b: &V::S,
    pb: &V::Pose,
    gc: Option<query::Contact<V>>,
    t: f64,
    what: &str,
) {
    let c = dispatch::contact(pa, a, pb, b, V::Scalar::ZERO);
    let cs = dispatch::contact(pb, b, pa, a, V::Scalar::ZERO);
    let exact = |k: &str| matches!(k, "Ball" | "Cuboid" | "Polygon");
    let (ka, kb) = (V::kind_name(a), V::kind_name(b));
    match (c, gc) {
        // Pairs with no analytic arm run the very code they are compared with; the
        // capsule kernels report `r_a + r_b − |segment distance|`, a lower bound of
        // EPA's depth once the capsules overlap (as parry's do).
        (Some(_), Some(_)) if !(exact(ka) && exact(kb)) => {}
        (Some(c), Some(g)) => {
            let (depth, gdepth) = (c.depth.to_f64(), g.depth.to_f64());
            assert!(
                close(depth, gdepth, 4.0 * t),
                "depth {depth} vs EPA {gdepth}: {what}"
            );
            let gap = (c.point_a - c.point_b - c.normal * c.depth)
                .length()
                .to_f64();
            assert!(
                gap <= 4.0 * t,
                "points vs depth·normal off by {gap}: {what}"
            );
            if depth > t {
                let dot = c.normal.dot(g.normal).to_f64();
                assert!(dot > 1.0 - 20.0 * tol::<V>(), "normal dot {dot}: {what}");
            }
            let s = cs.unwrap_or_else(|| panic!("swapped contact missing: {what}"));
            assert!(
                close(s.depth.to_f64(), depth, 4.0 * t),
                "swapped depth: {what}"
            );
            if depth > t {
                let dot = s.normal.dot(-c.normal).to_f64();
                assert!(
                    dot > 1.0 - 20.0 * tol::<V>(),
                    "swapped normal {dot}: {what}"
                );
            }
        }
        (Some(c), None) | (None, Some(c)) => {
            let depth = c.depth.to_f64();
            assert!(
                depth.abs() <= t,
                "contact on one side only, depth {depth}: {what}"
            );
        }
        (None, None) => assert!(cs.is_none(), "swapped contact appeared: {what}"),
    }
    // A negative prediction asks for overlaps deeper than it: the exact kernels agree
    // with EPA on which pairs qualify (outside the tolerance band).
    let gdepth = gc.map(|g| g.depth.to_f64());
    if let (true, Some(gdepth)) = (exact(ka) && exact(kb), gdepth) {
        let need = 0.1 * t / tol::<V>();
        let deep = dispatch::contact(pa, a, pb, b, V::Scalar::from_f64(-need)).is_some();
        if (gdepth - need).abs() > 4.0 * t {
            assert_eq!(
                deep,
                gdepth > need,
                "prediction −{need}, EPA depth {gdepth}: {what}"
            );
        }
    }
}

/// Linear casts: dispatch equals the generic cast; swapping A and B (with their
/// velocities) gives the same time.
fn check_cast<V: TestDim>(a: &V::S, pa: &V::Pose, b: &V::S, pb: &V::Pose, what: &str) {
    let (va, vb) = (V::ZERO, pa.translation() - pb.translation());
    let one = V::Scalar::ONE;
    let c = dispatch::cast_shapes(pa, va, a, pb, vb, b, one).map(|h| h.time.to_f64());
    let g = query::cast_shapes(pa, va, a, pb, vb, b, one).map(|h| h.time.to_f64());
    assert_eq!(c.is_some(), g.is_some(), "cast hit: {what}");
    let cs = dispatch::cast_shapes(pb, vb, b, pa, va, a, one).map(|h| h.time.to_f64());
    // Times are fractions of the motion: their tolerance does not scale with size.
    let tt = 10.0 * tol::<V>();
    if let (Some(x), Some(y), Some(z)) = (c, g, cs) {
        assert!(close(x, y, tt), "cast time {x} vs {y}: {what}");
        assert!(close(x, z, tt), "swapped cast time {z} vs {x}: {what}");
    }
}

/// Every ordered pair of kinds at one scale; the intersecting fraction stays in
/// [30%, 70%] so both answers are exercised.
fn every_pair<V: TestDim>(seed: u64, scale: f64) {
    let mut rng = Rng(seed);
    let (mut hits, mut total) = (0, 0);
    for ka in 0..V::KINDS {
        for kb in 0..V::KINDS {
            for _ in 0..CASES {
                let a = V::shape(ka, &mut rng, scale);
                let b = V::shape(kb, &mut rng, scale);
                let (pa, pb) = (
                    V::pose(&mut rng, 0.5 * scale),
                    V::pose(&mut rng, 0.5 * scale),
                );
                hits += check_pair::<V>(&a, &pa, &b, &pb, scale) as usize;
                total += 1;
            }
        }
    }
    assert_hit_rate(hits, total, "dispatch pairs");
}

macro_rules! for_each_type {
    ($name:ident, $body:ident $(, $arg:expr)*) => {
        mod $name {
            use super::*;
            #[test]
            fn vec2() { $body::<glam::Vec2>($($arg),*) }
            #[test]
            fn dvec2() { $body::<glam::DVec2>($($arg),*) }
            #[test]
            fn vec3() { $body::<glam::Vec3>($($arg),*) }
            #[test]
            fn dvec3() { $body::<glam::DVec3>($($arg),*) }
        }
    };
}

// Shapes about one unit across.
for_each_type!(every_pair_unit, every_pair, 1, 1.0);
// Shapes 1e4 across, far from the origin's precision sweet spot.
for_each_type!(every_pair_huge, every_pair, 2, 1e4);
// Shapes 1e-3 across.
for_each_type!(every_pair_tiny, every_pair, 3, 1e-3);

/// A NaN pose: `false`, `None` and a NaN distance for every pair of kinds.
fn nan_pose<V: TestDim>() {
    let mut rng = Rng(4);
    let nan = V::Pose::from_translation(V::splat(V::Scalar::from_f64(f64::NAN)));
    for ka in 0..V::KINDS {
        for kb in 0..V::KINDS {
            let (a, b) = (V::shape(ka, &mut rng, 1.0), V::shape(kb, &mut rng, 1.0));
            let id = V::Pose::IDENTITY;
            for (pa, pb) in [(&nan, &id), (&id, &nan)] {
                assert!(!dispatch::intersects(pa, &a, pb, &b));
                assert!(dispatch::contact(pa, &a, pb, &b, V::Scalar::ONE).is_none());
                assert!(dispatch::distance(pa, &a, pb, &b).is_nan());
                assert!(dispatch::closest_points(pa, &a, pb, &b).distance.is_nan());
                let v = V::ZERO;
                assert!(dispatch::cast_shapes(pa, v, &a, pb, v, &b, V::Scalar::ONE).is_none());
            }
            // A NaN prediction answers None too.
            let nanp = V::Scalar::from_f64(f64::NAN);
            assert!(dispatch::contact(&id, &a, &id, &b, nanp).is_none());
        }
    }
}
for_each_type!(nan_poses, nan_pose);

/// Exactly touching ball and box (the ball's centre at `h + r` on x): intersecting,
/// depth 0, distance 0, from either side; a hair apart: separated.
fn touching_ball_box<V: TestDim>() {
    let mut rng = Rng(5);
    let cuboid = V::shape(1, &mut rng, 1.0);
    let h = cuboid.world_aabb(&V::Pose::IDENTITY).max.get(0).to_f64();
    let r = 0.25;
    let ball: V::S = shape_ball::<V>(r);
    let at = |x: f64| V::Pose::from_translation(V::ZERO.with(0, V::Scalar::from_f64(x)));
    let (id, touch) = (V::Pose::IDENTITY, at(h + r));
    assert!(dispatch::intersects(&id, &cuboid, &touch, &ball));
    assert!(dispatch::intersects(&touch, &ball, &id, &cuboid));
    let c = dispatch::contact(&id, &cuboid, &touch, &ball, V::Scalar::ZERO).unwrap();
    assert!(c.depth.to_f64().abs() <= tol::<V>());
    assert!(dispatch::distance(&id, &cuboid, &touch, &ball).to_f64() <= tol::<V>());
    let apart = at(h + r + 0.01);
    assert!(!dispatch::intersects(&id, &cuboid, &apart, &ball));
    assert!(dispatch::contact(&id, &cuboid, &apart, &ball, V::Scalar::ZERO).is_none());
    // Within a prediction of 0.02 the separated pair reports depth −0.01.
    let c = dispatch::contact(&apart, &ball, &id, &cuboid, V::Scalar::from_f64(0.02)).unwrap();
    assert!(close(c.depth.to_f64(), -0.01, tol::<V>()));
}
for_each_type!(touching, touching_ball_box);

/// A ball of radius `r` at the origin, as the enum of `V`.
fn shape_ball<V: TestDim>(r: f64) -> V::S {
    Ball::new(V::ZERO, V::Scalar::from_f64(r)).unwrap().into()
}

/// The enum's bounding box holds the support point in every sampled direction, and
/// each face of the box touches the shape (the support along that axis).
fn aabb_bounds<V: TestDim>() {
    let mut rng = Rng(6);
    for kind in 0..V::KINDS {
        for _ in 0..20 {
            let (s, pose) = (V::shape(kind, &mut rng, 1.0), V::pose(&mut rng, 2.0));
            let bx = s
                .world_aabb(&pose)
                .loosened(V::Scalar::from_f64(tol::<V>()));
            for _ in 0..50 {
                let p = s.support(&pose, rand_unit(&mut rng));
                assert!(
                    bx.contains_point(p),
                    "{}: {p:?} outside {bx:?}",
                    V::kind_name(&s)
                );
            }
        }
    }
}
for_each_type!(aabb, aabb_bounds);

/// Ray casts on the enum agree with a point cast against the same shape; an origin
/// inside a solid kind hits at `t = 0` with a zero normal; a NaN ray misses.
fn ray_casts<V: TestDim>() {
    let mut rng = Rng(7);
    let point = Ball::new(V::ZERO, V::Scalar::ZERO).unwrap();
    let max_t = V::Scalar::from_f64(4.0);
    for kind in 0..V::KINDS {
        for _ in 0..40 {
            let (shape, pose) = (V::shape(kind, &mut rng, 1.0), V::pose(&mut rng, 0.3));
            let origin: V = rand_vec(&mut rng, 2.0);
            let ray = Ray {
                origin,
                dir: rand_vec::<V>(&mut rng, 1.0) - origin * s::<V>(0.4),
            };
            let hit = shape.cast_ray_posed(&pose, &ray, max_t);
            let from = V::Pose::from_translation(origin);
            let cast = query::cast_shapes(&pose, V::ZERO, &shape, &from, ray.dir, &point, max_t);
            let what = format!("{} {ray:?}", V::kind_name(&shape));
            match (hit, cast) {
                (Some(h), Some(c)) => {
                    let (x, y) = (h.t.to_f64(), c.time.to_f64());
                    assert!(close(x, y, 10.0 * tol::<V>()), "t {x} vs cast {y}: {what}");
                    if x == 0.0 {
                        assert_eq!(h.normal, V::ZERO, "{what}");
                    }
                }
                // Grazing rays may fall on either side of the tolerance.
                (Some(h), None) => assert!(h.t.to_f64() >= 0.0, "{what}"),
                (None, Some(c)) => assert!(
                    c.depth.to_f64().abs() <= 10.0 * tol::<V>()
                        || V::kind_name(&shape) == "Segment"
                        || V::kind_name(&shape) == "Triangle",
                    "{what}: cast {c:?}"
                ),
                (None, None) => {}
            }
            let nan = Ray {
                origin: V::splat(V::Scalar::from_f64(f64::NAN)),
                dir: ray.dir,
            };
            assert!(shape.cast_ray_posed(&pose, &nan, max_t).is_none());
        }
    }
}
for_each_type!(rays, ray_casts);

/// Coincident shapes (each kind against a copy of itself at the same pose): they
/// intersect, at distance 0, with a contact of depth ≥ 0. `flat` selects the segment
/// and triangle kinds only (see `coincident_flat_shapes`).
fn coincident_kinds<V: TestDim>(flat: bool) {
    let mut rng = Rng(8);
    for kind in 0..V::KINDS {
        if (kind == 3 || kind == 4) != flat {
            continue;
        }
        for _ in 0..10 {
            let (s, pose) = (V::shape(kind, &mut rng, 1.0), V::pose(&mut rng, 1.0));
            let what = V::kind_name(&s);
            assert!(dispatch::intersects(&pose, &s, &pose, &s), "{what}");
            assert_eq!(
                dispatch::distance(&pose, &s, &pose, &s).to_f64(),
                0.0,
                "{what}"
            );
            let c = dispatch::contact(&pose, &s, &pose, &s, V::Scalar::ZERO);
            let c = c.unwrap_or_else(|| panic!("no contact: {what}"));
            assert!(
                c.depth.to_f64() >= -tol::<V>() && c.normal.is_finite(),
                "{what}: {c:?}"
            );
        }
    }
}
fn coincident<V: TestDim>() {
    coincident_kinds::<V>(false)
}
for_each_type!(coincident_shapes, coincident);

/// Coincident segments and triangles: a flat Minkowski difference, where EPA has no
/// volume to expand; GJK's overlap must still give a contact of depth ≥ 0.
mod coincident_flat_shapes {
    use super::*;
    #[test]
    fn all_types() {
        coincident_kinds::<glam::Vec2>(true);
        coincident_kinds::<glam::DVec2>(true);
        coincident_kinds::<glam::Vec3>(true);
        coincident_kinds::<glam::DVec3>(true);
    }
}

/// Capsule–box distances with analytic answers (the segment–box kernel), on the unit
/// box `[0, 1]^DIM` seen through a random rigid motion of both shapes, at scales 1e-3
/// to 1e4: a capsule parallel to the top face 2 above it, one crossing the box, one
/// whose end rests on a face, one passing the box's corner edge diagonally (distance
/// from the corner `(1, 1)` to the line `x + y = 3`, `1/√2`), a zero-length one (a
/// ball), from either side of the pair.
fn capsule_box_distances<V: TestDim>() {
    let mut rng = Rng(41);
    for scale in [1e-3, 1.0, 1e4] {
        let k = |v: f64| v * scale;
        // In 3D the capsules lie in the plane z = 0.5 (mid-box).
        let p = |x: f64, y: f64| {
            let v = V::ZERO.with(0, s::<V>(k(x))).with(1, s::<V>(k(y)));
            if V::DIM == 3 {
                v.with(2, s::<V>(k(0.5)))
            } else {
                v
            }
        };
        let cases = [
            (p(-2.0, 3.0), p(3.0, 3.0), 0.5, 1.5),
            (p(-2.0, 0.5), p(3.0, 0.5), 0.1, 0.0),
            (p(0.5, 1.2), p(0.5, 4.0), 0.2, 0.0),
            (
                p(4.0, -1.0),
                p(-1.0, 4.0),
                0.1,
                std::f64::consts::FRAC_1_SQRT_2 - 0.1,
            ),
            (p(2.5, 0.5), p(2.5, 0.5), 0.5, 1.0),
        ];
        let unit = isect::shape::Aabb::new(V::ZERO, V::splat(s::<V>(k(1.0)))).unwrap();
        for (a, b, r, want) in cases {
            let capsule = isect::shape::Capsule::new(a, b, s::<V>(k(r))).unwrap();
            let motion = V::pose(&mut rng, k(5.0));
            let (cap, cube) = (V::capsule_shape(capsule), V::cuboid(unit));
            for d in [
                dispatch::distance(&motion, &cap, &motion, &cube),
                dispatch::distance(&motion, &cube, &motion, &cap),
            ] {
                let got = d.to_f64() / scale;
                assert!(
                    (got - want).abs() <= tol::<V>(),
                    "scale {scale}: capsule {a:?}–{b:?} r {r}: {got} vs {want}"
                );
            }
        }
    }
}
for_each_type!(capsule_box, capsule_box_distances);
