//! GJK, EPA and the analytic kernels against closed-form answers on 10,000 seeded
//! random pairs per query, in 2D and 3D, f32 and f64, with a hit-rate guard.

mod gjk_common;

use gjk_common::{assert_hit_rate, f, r, rand_vec, tol, Rng, TestVector};
use isect::algo::support::SupportMap;
use isect::math::{Isometry, Real, Vector};
use isect::query::contact::{
    contact, contact_ball_ball, contact_ball_capsule, contact_capsule_capsule,
};
use isect::query::distance::{
    closest_points, closest_points_segment_segment, distance, distance_ball_capsule,
    distance_capsule_capsule,
};
use isect::shape::{Aabb, Ball, Capsule, Segment};

const CASES: usize = 10_000;

#[macro_use]
#[path = "support/for_each_vector.rs"]
mod for_each_vector;

// Two random balls: GJK distance and contact (generic path) and the analytic
// kernel against |ca − cb| − ra − rb.
fn sphere_sphere<V: TestVector>() {
    let mut rng = Rng(1);
    let mut hits = 0;
    for _ in 0..CASES {
        let a = Ball::new(rand_vec::<V>(&mut rng, 0.5), r::<V>(rng.range(0.0, 1.0))).unwrap();
        let b = Ball::new(rand_vec::<V>(&mut rng, 0.5), r::<V>(rng.range(0.0, 1.0))).unwrap();
        let pa = V::pose_in(&mut rng, if V::DIM == 2 { 1.0 } else { 0.8 });
        let pb = V::pose_in(&mut rng, if V::DIM == 2 { 1.0 } else { 0.8 });
        let ca = pa.transform_point(a.center());
        let cb = pb.transform_point(b.center());
        let gap = f(ca.distance(cb)) - f(a.radius()) - f(b.radius());
        let scale = 1.0 + f(ca.length()) + f(cb.length());
        let t = tol::<V>() * scale;
        let d = f(distance(&pa, &a, &pb, &b));
        assert!((d - gap.max(0.0)).abs() <= t, "distance {d} vs {gap}");
        let c = contact(&pa, &a, &pb, &b, r::<V>(10.0)).expect("within prediction");
        assert!(
            (f(c.depth) + gap).abs() <= t,
            "depth {} vs {}",
            f(c.depth),
            -gap
        );
        let k = contact_ball_ball(&pa, &a, &pb, &b, r::<V>(10.0)).unwrap();
        assert!((f(k.depth) + gap).abs() <= t);
        if let Some(n) = (cb - ca).try_normalize() {
            if f(ca.distance(cb)) > 1e-2 {
                assert!(f(c.normal.dot(n)) > 1.0 - t, "normal");
            }
        }
        hits += usize::from(gap <= 0.0);
    }
    assert_hit_rate(hits, CASES, "sphere-sphere");
}
for_each_vector!(sphere_sphere);

// A random ball against a random box (Aabb at a random pose): distance from the
// clamped centre in the box's frame.
fn sphere_box<V: TestVector>() {
    let mut rng = Rng(2);
    let mut hits = 0;
    for _ in 0..CASES {
        let half = rand_vec::<V>(&mut rng, 1.0).abs() + V::splat(r::<V>(0.05));
        let bx = Aabb::from_center(V::ZERO, half).unwrap();
        let ball = Ball::new(V::ZERO, r::<V>(rng.range(0.0, 0.8))).unwrap();
        let pbox = V::random_pose(&mut rng, V::ZERO);
        let pball = V::pose_in(&mut rng, if V::DIM == 2 { 1.33 } else { 1.2 });
        let local = pbox.inverse_transform_point(pball.translation());
        let gap = f(bx.closest_point(local).distance(local)) - f(ball.radius());
        let t = tol::<V>() * 4.0;
        let cp = closest_points(&pbox, &bx, &pball, &ball);
        assert!(
            (f(cp.distance) - gap.max(0.0)).abs() <= t,
            "distance {} vs {gap}",
            f(cp.distance)
        );
        if gap > 0.0 {
            // Witness points lie on the shapes' surfaces.
            let on_box = pbox.inverse_transform_point(cp.point_a);
            assert!(f(bx.closest_point(on_box).distance(on_box)) <= t);
            assert!((f(cp.point_b.distance(pball.translation())) - f(ball.radius())).abs() <= t);
        } else {
            // Penetrating: depth is the analytic one when the centre is outside the box.
            let c = contact(&pbox, &bx, &pball, &ball, r::<V>(0.0)).expect("overlap");
            if f(bx.closest_point(local).distance(local)) > 1e-2 {
                assert!(
                    (f(c.depth) + gap).abs() <= t,
                    "depth {} vs {}",
                    f(c.depth),
                    -gap
                );
            }
            hits += 1;
        }
    }
    assert_hit_rate(hits, CASES, "sphere-box");
}
for_each_vector!(sphere_box);

/// Brute-force distance between two posed boxes: SAT for overlap, else the
/// minimum over vertex–box (both ways) and, in 3D, edge–edge distances.
fn box_box_reference<V: TestVector>(ha: V, pa: &V::Pose, hb: V, pb: &V::Pose) -> f64 {
    let ba = Aabb::from_center(V::ZERO, ha).unwrap();
    let bb = Aabb::from_center(V::ZERO, hb).unwrap();
    let verts_a: Vec<V> = ba.corners().map(|c| pa.transform_point(c)).collect();
    let verts_b: Vec<V> = bb.corners().map(|c| pb.transform_point(c)).collect();
    if sat_overlap::<V>(&verts_a, pa, &verts_b, pb) {
        return 0.0;
    }
    let point_box = |p: V, pose: &V::Pose, bx: &Aabb<V>| {
        let l = pose.inverse_transform_point(p);
        f(bx.closest_point(l).distance(l))
    };
    let mut best = f64::INFINITY;
    for &v in &verts_a {
        best = best.min(point_box(v, pb, &bb));
    }
    for &v in &verts_b {
        best = best.min(point_box(v, pa, &ba));
    }
    if V::DIM == 3 {
        for ea in edges(&verts_a) {
            for eb in edges(&verts_b) {
                let (_, _, p, q) = closest_points_segment_segment(&ea, &eb);
                best = best.min(f(p.distance(q)));
            }
        }
    }
    best
}

/// Box edges: corner pairs differing in one bit.
fn edges<V: Vector>(v: &[V]) -> Vec<Segment<V>> {
    let mut out = Vec::new();
    for i in 0..v.len() {
        for bit in 0..V::DIM {
            let j = i | (1 << bit);
            if j != i {
                out.push(Segment { a: v[i], b: v[j] });
            }
        }
    }
    out
}

/// Separating-axis overlap test of two boxes given by their corners.
fn sat_overlap<V: TestVector>(va: &[V], pa: &V::Pose, vb: &[V], pb: &V::Pose) -> bool {
    let axes_of = |p: &V::Pose| {
        (0..V::DIM)
            .map(|i| p.transform_vector(V::unit_axis(i)))
            .collect::<Vec<_>>()
    };
    let (aa, ab) = (axes_of(pa), axes_of(pb));
    let mut axes: Vec<V> = aa.iter().chain(ab.iter()).copied().collect();
    if V::DIM == 3 {
        for &x in &aa {
            for &y in &ab {
                if let Some(c) = cross(x, y).try_normalize() {
                    axes.push(c);
                }
            }
        }
    }
    axes.iter().all(|&axis| {
        let proj = |vs: &[V]| {
            vs.iter()
                .map(|&v| f(v.dot(axis)))
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                    (lo.min(x), hi.max(x))
                })
        };
        let ((la, ha), (lb, hb)) = (proj(va), proj(vb));
        la <= hb && lb <= ha
    })
}

/// Cross product through components (3D only).
fn cross<V: Vector>(a: V, b: V) -> V {
    let (x, y, z) = (
        a.get(1) * b.get(2) - a.get(2) * b.get(1),
        a.get(2) * b.get(0) - a.get(0) * b.get(2),
        a.get(0) * b.get(1) - a.get(1) * b.get(0),
    );
    V::ZERO.with(0, x).with(1, y).with(2, z)
}

/// Segment–segment distance by golden-section search over the first segment's
/// parameter (the distance to a segment is convex along a line), in f64:
/// independent of Ericson's closed form.
fn segment_distance_by_search<V: Vector>(s1: &Segment<V>, s2: &Segment<V>) -> f64 {
    let p = |s: &Segment<V>, t: f64| -> Vec<f64> {
        (0..V::DIM)
            .map(|i| f(s.a.get(i)) + t * (f(s.b.get(i)) - f(s.a.get(i))))
            .collect()
    };
    let point_seg = |x: &[f64]| {
        let (a, b) = (p(s2, 0.0), p(s2, 1.0));
        let d: Vec<f64> = (0..V::DIM).map(|i| b[i] - a[i]).collect();
        let dd: f64 = d.iter().map(|v| v * v).sum();
        let t = if dd > 0.0 {
            ((0..V::DIM).map(|i| (x[i] - a[i]) * d[i]).sum::<f64>() / dd).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (0..V::DIM)
            .map(|i| (x[i] - a[i] - t * d[i]).powi(2))
            .sum::<f64>()
            .sqrt()
    };
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..90 {
        let (m1, m2) = (hi - g * (hi - lo), lo + g * (hi - lo));
        if point_seg(&p(s1, m1)) <= point_seg(&p(s1, m2)) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    point_seg(&p(s1, 0.5 * (lo + hi)))
        .min(point_seg(&p(s1, 0.0)))
        .min(point_seg(&p(s1, 1.0)))
}

// Two random boxes at random poses: GJK distance against the brute-force reference.
fn box_box<V: TestVector>() {
    let mut rng = Rng(3);
    let mut hits = 0;
    for _ in 0..CASES {
        let ha = rand_vec::<V>(&mut rng, 1.0).abs() + V::splat(r::<V>(0.05));
        let hb = rand_vec::<V>(&mut rng, 1.0).abs() + V::splat(r::<V>(0.05));
        let pa = V::random_pose(&mut rng, V::ZERO);
        let pb = V::pose_in(&mut rng, if V::DIM == 2 { 1.7 } else { 1.6 });
        let reference = box_box_reference(ha, &pa, hb, &pb);
        let ba = Aabb::from_center(V::ZERO, ha).unwrap();
        let bb = Aabb::from_center(V::ZERO, hb).unwrap();
        let d = f(distance(&pa, &ba, &pb, &bb));
        assert!(
            (d - reference).abs() <= tol::<V>() * 4.0,
            "box-box {d} vs {reference}"
        );
        hits += usize::from(reference == 0.0);
    }
    assert_hit_rate(hits, CASES, "box-box");
}
for_each_vector!(box_box);

// Two random capsules: the generic GJK path and the analytic kernel against the
// segment distance found by search.
fn capsule_capsule<V: TestVector>() {
    let mut rng = Rng(4);
    let mut hits = 0;
    for _ in 0..CASES {
        let a = Capsule::new(
            rand_vec::<V>(&mut rng, 1.0),
            rand_vec(&mut rng, 1.0),
            r::<V>(rng.range(0.0, 0.5)),
        )
        .unwrap();
        let b = Capsule::new(
            rand_vec::<V>(&mut rng, 1.0),
            rand_vec(&mut rng, 1.0),
            r::<V>(rng.range(0.0, 0.5)),
        )
        .unwrap();
        let pa = V::random_pose(&mut rng, V::ZERO);
        let pb = V::pose_in(&mut rng, if V::DIM == 2 { 1.35 } else { 0.6 });
        let sa = Segment {
            a: pa.transform_point(a.segment().a),
            b: pa.transform_point(a.segment().b),
        };
        let sb = Segment {
            a: pb.transform_point(b.segment().a),
            b: pb.transform_point(b.segment().b),
        };
        let gap = segment_distance_by_search(&sa, &sb) - f(a.radius()) - f(b.radius());
        let t = tol::<V>() * 4.0;
        let d = f(distance(&pa, &a, &pb, &b));
        assert!((d - gap.max(0.0)).abs() <= t, "capsule gjk {d} vs {gap}");
        // The ball–capsule kernel against the generic path, with A's core end as a ball.
        let ball = Ball::new(a.segment().a, a.radius()).unwrap();
        let kb = f(distance_ball_capsule(&pa, &ball, &pb, &b));
        assert!(
            (kb - f(distance(&pa, &ball, &pb, &b))).abs() <= t,
            "ball-capsule kernel"
        );
        let cb = contact_ball_capsule(&pa, &ball, &pb, &b, r::<V>(10.0)).unwrap();
        let gb = contact(&pa, &ball, &pb, &b, r::<V>(10.0)).unwrap();
        // Both are exact (the generic path runs GJK on a point and a segment).
        assert!(
            (f(cb.depth) - f(gb.depth)).abs() <= t,
            "ball-capsule depth {cb:?} vs {gb:?}"
        );
        let k = f(distance_capsule_capsule(&pa, &a, &pb, &b));
        assert!((k - gap.max(0.0)).abs() <= t, "capsule kernel {k} vs {gap}");
        let c = contact_capsule_capsule(&pa, &a, &pb, &b, r::<V>(10.0)).unwrap();
        if gap > -0.5 * f(a.radius().min(b.radius())) {
            assert!(
                (f(c.depth) + gap).abs() <= t,
                "capsule depth {} vs {}",
                f(c.depth),
                -gap
            );
        }
        let g = contact(&pa, &a, &pb, &b, r::<V>(10.0)).unwrap();
        assert!(
            f(g.depth) >= -gap - t,
            "generic depth below the segment bound"
        );
        // Witness points lie on the capsules' surfaces (within the radius of the core).
        let on =
            |p: V, s: &Segment<V>, rad: V::Scalar| f(s.closest_point(p).0.distance(p)) - f(rad);
        assert!(on(g.point_a, &sa, a.radius()).abs() <= t, "point_a on A");
        assert!(on(g.point_b, &sb, b.radius()).abs() <= t, "point_b on B");
        hits += usize::from(gap <= 0.0);
    }
    assert_hit_rate(hits, CASES, "capsule-capsule");
}
for_each_vector!(capsule_capsule);

// Sanity of the support maps used above.
#[test]
fn support_maps_reach_the_surface() {
    let c = Capsule::new(glam::Vec3::ZERO, glam::Vec3::X, 0.5).unwrap();
    let p = c.local_support(glam::Vec3::new(1.0, 1.0, 0.0));
    // The end point b = +x, pushed out by the radius along the unit diagonal.
    let k = 0.5 / 2f32.sqrt();
    assert!((p - glam::Vec3::new(1.0 + k, k, 0.0)).length() < 1e-6);
    assert_eq!(c.margin(), 0.5);
}
