//! Contact manifolds (`isect::query::manifold`): face, edge and vertex contacts of boxes,
//! polygons and polyhedra at the edges (touching, within and beyond `prediction`, huge
//! and tiny scales, NaN), properties (swap mirrors, rigid motion moves the points,
//! points on both surfaces, stable ids), agreement with the SAT depth, and a
//! differential test against parry3d's `contact_manifolds` with a hit-rate guard.

use glam::{Quat, Vec2, Vec3};
use isect::algo::gjk::GjkVector;
use isect::algo::sat_3d::obb_obb_mtv;
use isect::math::{Isometry, Pose2, Pose3, Real, Rot2, Rotation3, Vector, Vector2, Vector3};
use isect::query::manifold::*;
use isect::shape::{obb_2d, obb_3d, Ball, ConvexPolygon, ConvexPolyhedron};

/// SplitMix64: a small seeded generator, so every run sees the same cases.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[lo, hi)`.
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64)
    }
    fn v3<R: Real>(&mut self, lo: f64, hi: f64) -> R::V3 {
        v3::<R>(self.range(lo, hi), self.range(lo, hi), self.range(lo, hi))
    }
    fn quat<R: Real>(&mut self) -> R::Quat {
        let axis = self
            .v3::<R>(-1.0, 1.0)
            .try_normalize()
            .unwrap_or(R::V3::unit_axis(2));
        R::Quat::from_axis_angle(axis, R::from_f64(self.range(0.0, 6.3)))
    }
}

fn v3<R: Real>(x: f64, y: f64, z: f64) -> R::V3 {
    R::V3::new(R::from_f64(x), R::from_f64(y), R::from_f64(z))
}

fn v2<R: Real>(x: f64, y: f64) -> R::V2 {
    R::V2::new(R::from_f64(x), R::from_f64(y))
}

fn close<V: Vector>(a: V, b: V, tol: f64) -> bool {
    (a - b).length().to_f64() <= tol
}

fn obb3<R: Real>(c: R::V3, h: R::V3, q: R::Quat) -> obb_3d::Obb<R> {
    obb_3d::Obb::new(c, h, q).unwrap()
}

fn quat<R: Real>(axis: [f64; 3], angle: f64) -> R::Quat {
    let a = v3::<R>(axis[0], axis[1], axis[2]).try_normalize().unwrap();
    R::Quat::from_axis_angle(a, R::from_f64(angle))
}

/// Distance of `p` (world) to the surface of box `o` at `pose`: 0 on the boundary.
fn off_box_surface<R: Real>(pose: &Pose3<R>, o: &obb_3d::Obb<R>, p: R::V3) -> f64 {
    let l = o.to_local(pose.inverse_transform_point(p));
    let h = o.half_extents();
    let outside = (l.abs() - h).max(R::V3::ZERO).length().to_f64();
    let inside = (l.abs() - h).max_element().to_f64();
    if outside > 0.0 {
        outside
    } else {
        inside.abs()
    }
}

/// Every point is on both surfaces and `point_a − point_b = depth · normal`.
fn assert_consistent_3d<R: Real>(
    m: &Manifold<R::V3>,
    boxes: (&Pose3<R>, &obb_3d::Obb<R>, &Pose3<R>, &obb_3d::Obb<R>),
    tol: f64,
) {
    assert!((m.normal.length().to_f64() - 1.0).abs() < 1e-4);
    for p in m.points() {
        assert!(
            off_box_surface(boxes.0, boxes.1, p.point_a) <= tol,
            "{p:?} off A"
        );
        assert!(
            off_box_surface(boxes.2, boxes.3, p.point_b) <= tol,
            "{p:?} off B"
        );
        assert!(
            close(p.point_a - p.point_b, m.normal * p.depth, tol),
            "{p:?}"
        );
    }
}

/// A unit-half cube A at the origin and a box B of half extents (0.5, 0.5, 0.5) whose
/// bottom face is `gap` above A's top face, turned by `q` about its centre.
fn stacked<R: Real>(s: f64, gap: f64, q: R::Quat) -> (obb_3d::Obb<R>, obb_3d::Obb<R>) {
    let a = obb3::<R>(
        R::V3::ZERO,
        v3::<R>(s, s, s),
        R::Quat::from_axis_angle(v3::<R>(0.0, 0.0, 1.0), R::ZERO),
    );
    let b = obb3::<R>(
        v3::<R>(0.0, 0.0, s * (1.5 + gap)),
        v3::<R>(0.5 * s, 0.5 * s, 0.5 * s),
        q,
    );
    (a, b)
}

fn face_contacts_3d<R: Real>(s: f64, tol: f64)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let id = Pose3::<R>::default();
    let q0 = quat::<R>([0.0, 0.0, 1.0], 0.0);
    let m_of = |a: &obb_3d::Obb<R>, b: &obb_3d::Obb<R>, pred: f64| {
        contact_manifold_obb_3d(&id, a, &id, b, R::from_f64(pred * s))
    };
    // Resting flat, 0.1 deep: 4 points at B's bottom corners, depth 0.1, normal +z.
    let (a, b) = stacked::<R>(s, -0.1, q0);
    let m = m_of(&a, &b, 0.0).unwrap();
    assert_eq!(m.points().len(), 4);
    assert!(close(m.normal, v3::<R>(0.0, 0.0, 1.0), 1e-5));
    for p in m.points() {
        assert!((p.depth.to_f64() - 0.1 * s).abs() <= tol);
        let xy = p.point_b.abs();
        assert!(
            (xy.get(0).to_f64() - 0.5 * s).abs() <= tol
                && (xy.get(1).to_f64() - 0.5 * s).abs() <= tol
        );
    }
    assert_consistent_3d(&m, (&id, &a, &id, &b), tol);
    // Exactly touching: 4 points at depth 0.
    let (a, b) = stacked::<R>(s, 0.0, q0);
    let m = m_of(&a, &b, 0.0).unwrap();
    assert_eq!(m.points().len(), 4);
    assert!(m.points().iter().all(|p| p.depth.to_f64().abs() <= tol));
    // Apart by 0.05 within prediction 0.1: negative depths −0.05; beyond 0.02: None.
    let (a, b) = stacked::<R>(s, 0.05, q0);
    let m = m_of(&a, &b, 0.1).unwrap();
    assert_eq!(m.points().len(), 4);
    assert!(m
        .points()
        .iter()
        .all(|p| (p.depth.to_f64() + 0.05 * s).abs() <= tol));
    assert!(m_of(&a, &b, 0.02).is_none());
    // Turned 45° about the normal, B larger than A's footprint across: the clipped
    // octagon reduced to 4 points inside both faces, all 0.1 deep.
    let big = obb3::<R>(
        v3::<R>(0.0, 0.0, s * 1.7),
        v3::<R>(0.8 * s, 0.8 * s, 0.8 * s),
        quat::<R>([0.0, 0.0, 1.0], std::f64::consts::FRAC_PI_4),
    );
    let m = m_of(&a, &big, 0.0).unwrap();
    assert_eq!(m.points().len(), 4);
    for p in m.points() {
        assert!((p.depth.to_f64() - 0.1 * s).abs() <= tol);
        let l = big.to_local(p.point_b).abs();
        assert!(l.get(0).to_f64() <= 0.8 * s + tol && l.get(1).to_f64() <= 0.8 * s + tol);
        assert!(p.point_a.abs().max_element().to_f64() <= s + tol);
    }
    assert_consistent_3d(&m, (&id, &a, &id, &big), tol);
    // The 4 points span most of the octagon (area ≥ half of A's 2×2 face).
    let p: Vec<_> = m.points().iter().map(|p| p.point_a).collect();
    let area = quad_area::<R>(&p);
    assert!(area >= 2.0 * s * s, "area {area}");
}

/// Area of the convex hull of four coplanar points (largest of the two diagonals' splits).
fn quad_area<R: Real>(p: &[R::V3]) -> f64 {
    let tri = |a: R::V3, b: R::V3, c: R::V3| 0.5 * (b - a).cross(c - a).length().to_f64();
    let mut best: f64 = 0.0;
    for (i, j, k, l) in [(0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2)] {
        best = best.max(tri(p[i], p[k], p[j]) + tri(p[i], p[l], p[j]));
    }
    best
}

fn edge_vertex_contacts_3d<R: Real>(s: f64, tol: f64)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let id = Pose3::<R>::default();
    let a = obb3::<R>(
        R::V3::ZERO,
        v3::<R>(s, s, s),
        quat::<R>([0.0, 0.0, 1.0], 0.0),
    );
    let r2 = 2f64.sqrt() * 0.5;
    // Edge on face: B turned 45° about x stands on its edge (along x), 0.05 deep: the
    // edge clipped to A's face gives 2 points.
    let b = obb3::<R>(
        v3::<R>(0.0, 0.0, s * (1.0 + r2 - 0.05)),
        v3::<R>(0.5 * s, 0.5 * s, 0.5 * s),
        quat::<R>([1.0, 0.0, 0.0], std::f64::consts::FRAC_PI_4),
    );
    let m = contact_manifold_obb_3d(&id, &a, &id, &b, R::ZERO).unwrap();
    assert!((1..=2).contains(&m.points().len()), "{m:?}");
    assert!((m.max_depth().to_f64() - 0.05 * s).abs() <= tol * 10.0);
    assert!(close(m.normal, v3::<R>(0.0, 0.0, 1.0), 1e-4));
    assert_consistent_3d(&m, (&id, &a, &id, &b), tol * 10.0);
    // Vertex on face: B's corner points straight down, 0.05 deep: one point.
    let corner = 0.5 * 3f64.sqrt();
    let q = R::Quat::from_axis_angle(
        v3::<R>(1.0, -1.0, 0.0).try_normalize().unwrap(),
        R::from_f64(-(1.0f64 / 3f64.sqrt()).acos()),
    );
    let b = obb3::<R>(
        v3::<R>(0.0, 0.0, s * (1.0 + corner - 0.05)),
        v3::<R>(0.5 * s, 0.5 * s, 0.5 * s),
        q,
    );
    let m = contact_manifold_obb_3d(&id, &a, &id, &b, R::ZERO).unwrap();
    assert_eq!(m.points().len(), 1, "{m:?}");
    assert!((m.max_depth().to_f64() - 0.05 * s).abs() <= tol * 10.0);
    assert_consistent_3d(&m, (&id, &a, &id, &b), tol * 10.0);
}

// Face, rotated face, edge and vertex contacts; touching; within and beyond prediction;
// scales 1, 1e4, 1e6, 1e-3 and 1e-5, in f32 and f64.
#[test]
fn box_box_3d_edge_cases() {
    for s in [1.0, 1e4, 1e6, 1e-3, 1e-5] {
        face_contacts_3d::<f32>(s, 2e-5 * s.max(1.0) + 1e-6 * s * 10.0);
        face_contacts_3d::<f64>(s, 1e-10 * s);
        edge_vertex_contacts_3d::<f32>(s, 2e-5 * s.max(1.0) + 1e-5 * s);
        edge_vertex_contacts_3d::<f64>(s, 1e-10 * s);
    }
}

// Edge on edge: A turned 45° about z, B turned 45° about y, their edges crossing 0.1
// deep: one point, depth 0.1 as the SAT says.
#[test]
fn box_box_3d_edge_edge() {
    let q = std::f64::consts::FRAC_PI_4;
    let h = v3::<f64>(1.0, 1.0, 1.0);
    let a = obb3::<f64>(glam::DVec3::ZERO, h, quat::<f64>([0.0, 0.0, 1.0], q));
    let b = obb3::<f64>(
        v3::<f64>(2.0 * 2f64.sqrt() - 0.1, 0.0, 0.0),
        h,
        quat::<f64>([0.0, 1.0, 0.0], q),
    );
    let id = Pose3::default();
    let m = contact_manifold_obb_3d(&id, &a, &id, &b, 0.0).unwrap();
    assert_eq!(m.points().len(), 1);
    assert!((m.points()[0].depth - 0.1).abs() < 1e-9 && close(m.normal, glam::DVec3::X, 1e-9));
    assert_eq!(m.points()[0].id.point, EDGE_EDGE);
    assert_consistent_3d(&m, (&id, &a, &id, &b), 1e-9);
    // Apart by 0.01 with prediction 0.1: GJK's single point, depth −0.01.
    let b = obb3::<f64>(
        v3::<f64>(2.0 * 2f64.sqrt() + 0.01, 0.0, 0.0),
        h,
        quat::<f64>([0.0, 1.0, 0.0], q),
    );
    let m = contact_manifold_obb_3d(&id, &a, &id, &b, 0.1).unwrap();
    assert_eq!(m.points().len(), 1);
    assert!((m.points()[0].depth + 0.01).abs() < 1e-6, "{m:?}");
    assert!(contact_manifold_obb_3d(&id, &a, &id, &b, 0.005).is_none());
}

// NaN or infinite poses and a NaN prediction give None without panicking.
#[test]
fn nan_input_is_none() {
    let (a, b) = stacked::<f32>(1.0, -0.1, Quat::IDENTITY);
    let id = Pose3::<f32>::default();
    let nan = Pose3::<f32>::new(Vec3::new(f32::NAN, 0.0, 0.0), Quat::IDENTITY);
    assert!(contact_manifold_obb_3d(&nan, &a, &id, &b, 0.0).is_none());
    assert!(contact_manifold_obb_3d(&id, &a, &id, &b, f32::NAN).is_none());
    let inf = Pose3::<f32>::new(Vec3::ZERO, Quat::from_xyzw(f32::INFINITY, 0.0, 0.0, 1.0));
    assert!(contact_manifold_obb_3d(&id, &a, &inf, &b, 0.0).is_none());
    let pa = poly_box::<f32>(1.0, 1.0);
    let p2 = Pose2::<f32>::new(Vec2::new(f32::NAN, 0.0), 0.0);
    assert!(contact_manifold_polygons(&p2, &pa, &Pose2::default(), &pa, 0.0).is_none());
    let ha = hull_box::<f32>(1.0);
    assert!(contact_manifold_polyhedra(&nan, &ha, &id, &ha, 0.0).is_none());
    let ball = Ball::new(Vec3::ZERO, 1.0).unwrap();
    assert!(contact_manifold_convex(&nan, &ball, &id, &ball, 0.0).is_none());
}

fn poly_box<R: Real>(hx: f64, hy: f64) -> ConvexPolygon<R> {
    ConvexPolygon::new(&[
        v2::<R>(-hx, -hy),
        v2::<R>(hx, -hy),
        v2::<R>(hx, hy),
        v2::<R>(-hx, hy),
    ])
    .unwrap()
}

fn hull_box<R: Real>(h: f64) -> ConvexPolyhedron<R> {
    let mut pts = Vec::new();
    for i in 0..8 {
        let s = |b: usize| if i >> b & 1 == 1 { h } else { -h };
        pts.push(v3::<R>(s(0), s(1), s(2)));
    }
    ConvexPolyhedron::from_points(&pts).unwrap()
}

/// 2D: box on box flat (2 points), touching, within/beyond prediction, vertex on face.
fn contacts_2d<R: Real>(s: f64, tol: f64)
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let id = Pose2::<R>::default();
    let a = obb_2d::Obb::<R>::new(R::V2::ZERO, v2::<R>(s, s), Rot2::IDENTITY).unwrap();
    let b_at = |y: f64, angle: f64| {
        obb_2d::Obb::<R>::from_angle(
            v2::<R>(0.2 * s, y * s),
            v2::<R>(0.5 * s, 0.5 * s),
            R::from_f64(angle),
        )
        .unwrap()
    };
    let pa = poly_box::<R>(s, s);
    let pose_b = |y: f64, angle: f64| Pose2::<R>::new(v2::<R>(0.2 * s, y * s), R::from_f64(angle));
    let pb = poly_box::<R>(0.5 * s, 0.5 * s);
    for (y, depth) in [(1.4, 0.1), (1.5, 0.0), (1.55, -0.05)] {
        for m in [
            contact_manifold_obb_2d(&id, &a, &id, &b_at(y, 0.0), R::from_f64(0.1 * s)).unwrap(),
            contact_manifold_polygons(&id, &pa, &pose_b(y, 0.0), &pb, R::from_f64(0.1 * s))
                .unwrap(),
        ] {
            assert_eq!(m.points().len(), 2, "{m:?}");
            assert!(close(m.normal, v2::<R>(0.0, 1.0), 1e-5));
            for p in m.points() {
                assert!((p.depth.to_f64() - depth * s).abs() <= tol, "{p:?}");
                assert!(close(p.point_a - p.point_b, m.normal * p.depth, tol));
                assert!((p.point_a.y().to_f64() - s).abs() <= tol);
            }
        }
    }
    assert!(contact_manifold_obb_2d(&id, &a, &id, &b_at(1.7, 0.0), R::from_f64(0.1 * s)).is_none());
    assert!(
        contact_manifold_polygons(&id, &pa, &pose_b(1.7, 0.0), &pb, R::from_f64(0.1 * s)).is_none()
    );
    // Vertex on face: B turned 45°, its corner 0.05 deep: one point at the corner.
    let y = 1.0 + 0.5 * 2f64.sqrt() - 0.05;
    let m = contact_manifold_obb_2d(&id, &a, &id, &b_at(y, std::f64::consts::FRAC_PI_4), R::ZERO)
        .unwrap();
    assert_eq!(m.points().len(), 1, "{m:?}");
    assert!((m.points()[0].depth.to_f64() - 0.05 * s).abs() <= tol * 10.0);
    assert!(close(
        m.points()[0].point_b,
        v2::<R>(0.2 * s, (1.0 - 0.05) * s),
        tol * 10.0
    ));
}

// 2D boxes and polygons: flat, touching, within and beyond prediction, vertex on face;
// scales 1, 1e4, 1e6, 1e-3 and 1e-5, in f32 and f64.
#[test]
fn polygons_2d_edge_cases() {
    for s in [1.0, 1e4, 1e6, 1e-3, 1e-5] {
        contacts_2d::<f32>(s, 1e-5 * s.max(1.0) + 1e-5 * s);
        contacts_2d::<f64>(s, 1e-10 * s);
    }
}

/// A random box pair that overlaps about half of the time.
fn random_boxes<R: Real>(rng: &mut Rng) -> (Pose3<R>, obb_3d::Obb<R>, Pose3<R>, obb_3d::Obb<R>) {
    let pose = |rng: &mut Rng| Pose3::<R>::new(rng.v3::<R>(-1.3, 1.3), rng.quat::<R>());
    let shape = |rng: &mut Rng| {
        obb3::<R>(
            R::V3::ZERO,
            rng.v3::<R>(0.2, 1.0),
            R::Quat::from_axis_angle(v3::<R>(0.0, 0.0, 1.0), R::ZERO),
        )
    };
    (pose(rng), shape(rng), pose(rng), shape(rng))
}

/// The points of `m` as a sorted list of (a, b) coordinate tuples, for set comparison.
fn point_set(m: &Manifold<glam::DVec3>) -> Vec<[f64; 6]> {
    let mut v: Vec<[f64; 6]> = m
        .points()
        .iter()
        .map(|p| {
            [
                p.point_a.x,
                p.point_a.y,
                p.point_a.z,
                p.point_b.x,
                p.point_b.y,
                p.point_b.z,
            ]
        })
        .collect();
    v.sort_by(|x, y| x.partial_cmp(y).unwrap());
    v
}

// Properties on seeded random box pairs (f64): swapping A and B mirrors the normal and
// keeps the point set; one rigid motion of both moves the points with it; points lie on
// both surfaces; the deepest point's depth is the SAT depth; ids survive a small move.
#[test]
fn box_box_properties() {
    let mut rng = Rng(7);
    let (mut hits, mut same_ids, mut mirrored) = (0, 0, 0);
    let mut kinds = std::collections::HashMap::new();
    let cases = 2000;
    for _ in 0..cases {
        let (pa, a, pb, b) = random_boxes::<f64>(&mut rng);
        let m = contact_manifold_obb_3d(&pa, &a, &pb, &b, 0.0);
        let mtv = obb_obb_mtv(&world_box(&pa, &a), &world_box(&pb, &b));
        assert_eq!(m.is_some(), mtv.is_some(), "{m:?} {mtv:?}");
        let Some(m) = m else { continue };
        hits += 1;
        assert!(
            (m.max_depth() - mtv.unwrap().depth).abs() < 1e-3 * (1.0 + mtv.unwrap().depth),
            "{m:?} {mtv:?}"
        );
        assert_consistent_3d(&m, (&pa, &a, &pb, &b), 1e-9);
        let sw = contact_manifold_obb_3d(&pb, &b, &pa, &a, 0.0).unwrap();
        let kind = |m: &Manifold<glam::DVec3>| {
            (
                m.points()[0].id.reference_is_b,
                m.points()[0].id.point == EDGE_EDGE,
            )
        };
        *kinds.entry((kind(&m), kind(&sw))).or_insert(0) += 1;
        assert!(close(sw.normal, -m.normal, 1e-3), "{m:?} {sw:?}");
        // Within REFERENCE_BIAS the reference face is A's in both orders (hysteresis),
        // so the point sets are compared when both pick the same physical face.
        let (r, q) = (m.flipped().points()[0].id, sw.points()[0].id);
        if (r.reference_is_b, r.reference, r.incident)
            == (q.reference_is_b, q.reference, q.incident)
        {
            mirrored += 1;
            assert_eq!(sw.points().len(), m.points().len());
            let (x, y) = (point_set(&m.flipped()), point_set(&sw));
            assert!(
                x.iter()
                    .zip(&y)
                    .all(|(p, q)| (0..6).all(|k| (p[k] - q[k]).abs() < 1e-9)),
                "{x:?} {y:?}"
            );
        }
        let t = Pose3::<f64>::new(rng.v3::<f64>(-5.0, 5.0), rng.quat::<f64>());
        let moved = contact_manifold_obb_3d(&t.mul(&pa), &a, &t.mul(&pb), &b, 0.0).unwrap();
        assert_eq!(moved.points().len(), m.points().len());
        assert!(close(moved.normal, t.transform_vector(m.normal), 1e-9));
        for (p, q) in m.points().iter().zip(moved.points()) {
            assert!(close(t.transform_point(p.point_a), q.point_a, 1e-9) && p.id == q.id);
        }
        let nudge = Pose3::<f64>::from_translation(rng.v3::<f64>(-1e-4, 1e-4));
        let small = contact_manifold_obb_3d(&pa, &a, &nudge.mul(&pb), &b, 0.0);
        let ids = |m: &Manifold<glam::DVec3>| {
            let mut v: Vec<_> = m.points().iter().map(|p| format!("{:?}", p.id)).collect();
            v.sort();
            v
        };
        same_ids += usize::from(small.is_some_and(|s| ids(&s) == ids(&m)));
    }
    assert!(
        (0.3..=0.7).contains(&(hits as f64 / cases as f64)),
        "hit rate {hits}"
    );
    // Ids change only when a feature truly changes (a point entering or leaving).
    assert!(
        same_ids as f64 >= 0.95 * hits as f64,
        "{same_ids} of {hits}"
    );
    assert!(
        mirrored as f64 >= 0.9 * hits as f64,
        "{mirrored} of {hits} {kinds:?}"
    );
}

fn world_box<R: Real>(pose: &Pose3<R>, o: &obb_3d::Obb<R>) -> obb_3d::Obb<R> {
    obb3::<R>(
        pose.transform_point(o.center()),
        o.half_extents(),
        pose.rotation.mul(o.rotation()),
    )
}

// Feature ids of a resting box stay the same after a small slide.
#[test]
fn ids_stable_under_small_translation() {
    let (a, b) = stacked::<f32>(1.0, -0.1, Quat::from_rotation_z(0.3));
    let id = Pose3::<f32>::default();
    let m = contact_manifold_obb_3d(&id, &a, &id, &b, 0.0).unwrap();
    let nudge = Pose3::<f32>::from_translation(Vec3::new(0.01, -0.02, 0.003));
    let n = contact_manifold_obb_3d(&id, &a, &nudge, &b, 0.0).unwrap();
    let ids = |m: &Manifold<Vec3>| m.points().iter().map(|p| p.id).collect::<Vec<_>>();
    assert_eq!(ids(&m), ids(&n));
}

// Polyhedra built from box corners agree with the box kernel (normal, depth, count).
#[test]
fn polyhedra_match_boxes() {
    let mut rng = Rng(11);
    let mut hits = 0;
    for _ in 0..500 {
        let (pa, _, pb, _) = random_boxes::<f64>(&mut rng);
        let (ha, hb) = (rng.range(0.3, 1.0), rng.range(0.3, 1.0));
        let (ba, bb) = (
            obb3::<f64>(
                glam::DVec3::ZERO,
                glam::DVec3::splat(ha),
                glam::DQuat::IDENTITY,
            ),
            obb3::<f64>(
                glam::DVec3::ZERO,
                glam::DVec3::splat(hb),
                glam::DQuat::IDENTITY,
            ),
        );
        let (ca, cb) = (hull_box::<f64>(ha), hull_box::<f64>(hb));
        let m = contact_manifold_obb_3d(&pa, &ba, &pb, &bb, 0.05);
        let h = contact_manifold_polyhedra(&pa, &ca, &pb, &cb, 0.05);
        assert_eq!(m.is_some(), h.is_some(), "{m:?} {h:?}");
        let (Some(m), Some(h)) = (m, h) else { continue };
        hits += 1;
        assert!((m.max_depth() - h.max_depth()).abs() < 1e-6, "{m:?} {h:?}");
        assert!(
            close(m.normal, h.normal, 1e-6) || m.points().len() == 1,
            "{m:?} {h:?}"
        );
        assert_eq!(m.points().len(), h.points().len(), "{m:?} {h:?}");
        assert_consistent_3d(&h, (&pa, &ba, &pb, &bb), 1e-9);
    }
    assert!(hits > 100);
}

// A ball has no faces: the generic path gives contact()'s single point.
#[test]
fn convex_fallback_single_point() {
    let ball = Ball::new(Vec3::ZERO, 1.0).unwrap();
    let id = Pose3::<f32>::default();
    let pb = Pose3::<f32>::from_translation(Vec3::new(1.5, 0.0, 0.0));
    let m = contact_manifold_convex(&id, &ball, &pb, &ball, 0.0).unwrap();
    assert_eq!(m.points().len(), 1);
    assert!((m.points()[0].depth - 0.5).abs() < 1e-4 && close(m.normal, Vec3::X, 1e-4));
    assert_eq!(m.points()[0].id, FeatureId::SINGLE);
}

fn to_parry(p: &Pose3<f32>) -> parry3d::math::Pose {
    parry3d::math::Pose::from_parts(p.translation, p.rotation)
}

// Against parry3d's `contact_manifolds` on seeded random box pairs: same normal and
// max depth whenever both report a contact (30–70% of the cases overlap).
#[test]
fn box_box_vs_parry() {
    use parry3d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
    let mut rng = Rng(3);
    let (cases, mut hits) = (4000, 0);
    for _ in 0..cases {
        let (pa, a, pb, b) = random_boxes::<f32>(&mut rng);
        let ours = contact_manifold_obb_3d(&pa, &a, &pb, &b, 0.0);
        let (ca, cb) = (
            parry3d::shape::Cuboid::new(a.half_extents()),
            parry3d::shape::Cuboid::new(b.half_extents()),
        );
        let pos12 = to_parry(&pa).inv_mul(&to_parry(&pb));
        let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
        DefaultQueryDispatcher
            .contact_manifolds(&pos12, &ca, &cb, 0.0, &mut manifolds, &mut None)
            .unwrap();
        let theirs = manifolds.iter().find(|m| !m.points.is_empty());
        let depth = theirs.map(|m| m.points.iter().fold(f32::MIN, |d, p| d.max(-p.dist)));
        match (ours, theirs) {
            (Some(m), Some(t)) => {
                hits += 1;
                let n = pa.transform_vector(t.local_n1);
                assert!((m.max_depth() - depth.unwrap()).abs() < 1e-3, "{m:?} {t:?}");
                // Equal depths along different axes are ties; otherwise the normals agree.
                let along = |n: Vec3| {
                    let (wa, wb) = (world_box(&pa, &a), world_box(&pb, &b));
                    use isect::algo::support::SupportMap;
                    let i = Pose3::<f32>::default();
                    wa.support(&i, n).dot(n) - wb.support(&i, -n).dot(n)
                };
                assert!(
                    close(m.normal, n, 2e-3) || (along(m.normal) - along(n)).abs() < 1e-3,
                    "{m:?} {t:?}"
                );
            }
            (None, None) => {}
            (o, t) => assert!(
                o.is_none_or(|m| m.max_depth() < 1e-4) && depth.is_none_or(|d| d < 1e-4),
                "{o:?} {t:?}"
            ),
        }
    }
    assert!(
        (0.3..=0.7).contains(&(hits as f64 / cases as f64)),
        "hit rate {hits}"
    );
}

/// The manifold's depth is the SAT depth of its reference feature: at least the true
/// (EPA) depth, and at most the preference bias (times the shapes' `size`) above it.
fn depth_agrees(manifold: f64, epa: f64, size: f64) -> bool {
    use isect::algo::clip_3d::{EDGE_BIAS, REFERENCE_BIAS};
    let bias = REFERENCE_BIAS.max(EDGE_BIAS) * size;
    manifold >= epa - 1e-6 && manifold <= epa + bias + 1e-6
}

/// A hexagon stretched by random factors (convex), in f64.
fn hexagon(rng: &mut Rng) -> ConvexPolygon<f64> {
    let (sx, sy) = (rng.range(0.3, 1.2), rng.range(0.3, 1.2));
    let pts: Vec<_> = (0..6)
        .map(|i| {
            let t = i as f64 * std::f64::consts::TAU / 6.0;
            glam::DVec2::new(sx * t.cos(), sy * t.sin())
        })
        .collect();
    ConvexPolygon::new(&pts).unwrap()
}

/// Distance of `p` (world) to the boundary of polygon `c` at `pose` (0 on it).
fn off_polygon(pose: &Pose2<f64>, c: &ConvexPolygon<f64>, p: glam::DVec2) -> f64 {
    let l = pose.inverse_transform_point(p);
    let inside = c
        .vertices()
        .iter()
        .zip(c.normals())
        .fold(f64::MIN, |m, (v, n)| m.max(n.dot(l - *v)));
    inside.abs()
}

// Random hexagon pairs (f64): points on both boundaries, `point_a − point_b =
// depth · normal`, the deepest depth equals contact()'s EPA depth, swapping mirrors
// the normal, one rigid motion moves the points; 30–70% overlap.
#[test]
fn polygon_properties() {
    let mut rng = Rng(21);
    let (cases, mut hits, mut mirrored) = (3000, 0, 0);
    for _ in 0..cases {
        let (a, b) = (hexagon(&mut rng), hexagon(&mut rng));
        let mut pose = || {
            let t = glam::DVec2::new(rng.range(-1.6, 1.6), rng.range(-1.6, 1.6));
            Pose2::<f64>::new(t, rng.range(-3.2, 3.2))
        };
        let (pa, pb) = (pose(), pose());
        let Some(m) = contact_manifold_polygons(&pa, &a, &pb, &b, 0.0) else {
            assert!(isect::query::contact(&pa, &a, &pb, &b, 0.0).is_none_or(|c| c.depth < 1e-9));
            continue;
        };
        hits += 1;
        let c = isect::query::contact(&pa, &a, &pb, &b, 0.0).unwrap();
        assert!(depth_agrees(m.max_depth(), c.depth, 1.2), "{m:?} {c:?}");
        for p in m.points() {
            assert!(
                off_polygon(&pa, &a, p.point_a) < 1e-9 && off_polygon(&pb, &b, p.point_b) < 1e-9
            );
            assert!(close(p.point_a - p.point_b, m.normal * p.depth, 1e-9));
        }
        let sw = contact_manifold_polygons(&pb, &b, &pa, &a, 0.0).unwrap();
        // Mirrored whenever both orders pick the same reference edge (they may differ
        // within REFERENCE_BIAS, where each prefers its own A).
        let (r, q) = (m.flipped().points()[0].id, sw.points()[0].id);
        if (r.reference_is_b, r.reference) == (q.reference_is_b, q.reference) {
            mirrored += 1;
            assert!(close(sw.normal, -m.normal, 1e-12) && sw.points().len() == m.points().len());
        }
        let t = Pose2::<f64>::new(
            glam::DVec2::new(rng.range(-9.0, 9.0), 3.0),
            rng.range(-3.0, 3.0),
        );
        let moved = contact_manifold_polygons(&t.mul(&pa), &a, &t.mul(&pb), &b, 0.0).unwrap();
        for (p, q) in m.points().iter().zip(moved.points()) {
            assert!(close(t.transform_point(p.point_b), q.point_b, 1e-9) && p.id == q.id);
        }
    }
    assert!(
        (0.3..=0.7).contains(&(hits as f64 / cases as f64)),
        "hit rate {hits}"
    );
    assert!(mirrored as f64 >= 0.9 * hits as f64, "{mirrored} of {hits}");
}

/// The convex hull of `n` random points in a box of half size `h`.
fn random_hull(rng: &mut Rng, n: usize, h: f64) -> ConvexPolyhedron<f64> {
    let pts: Vec<_> = (0..n).map(|_| rng.v3::<f64>(-h, h)).collect();
    ConvexPolyhedron::from_points(&pts).unwrap()
}

// Random hulls (edge–edge, vertex–face and face–face contacts): the deepest point's
// depth equals contact()'s EPA depth, points satisfy `point_a − point_b = depth ·
// normal`; 30–70% overlap.
#[test]
fn polyhedra_vs_epa() {
    let mut rng = Rng(33);
    let (cases, mut hits) = (600, 0);
    for _ in 0..cases {
        let (a, b) = (
            random_hull(&mut rng, 12, 1.0),
            random_hull(&mut rng, 12, 1.0),
        );
        let pa = Pose3::<f64>::new(rng.v3::<f64>(-1.1, 1.1), rng.quat::<f64>());
        let pb = Pose3::<f64>::new(rng.v3::<f64>(-1.1, 1.1), rng.quat::<f64>());
        let m = contact_manifold_polyhedra(&pa, &a, &pb, &b, 0.0);
        let c = isect::query::contact(&pa, &a, &pb, &b, 0.0);
        let (Some(m), Some(c)) = (m, c) else {
            assert!(m.is_none_or(|m| m.max_depth() < 1e-9) && c.is_none_or(|c| c.depth < 1e-6));
            continue;
        };
        hits += 1;
        assert!(depth_agrees(m.max_depth(), c.depth, 1.0), "{m:?} {c:?}");
        for p in m.points() {
            assert!(close(p.point_a - p.point_b, m.normal * p.depth, 1e-9));
            assert!(
                a.max_face_distance(pa.inverse_transform_point(p.point_a))
                    .abs()
                    < 1e-9
            );
            assert!(
                b.max_face_distance(pb.inverse_transform_point(p.point_b))
                    .abs()
                    < 1e-9
            );
        }
    }
    assert!(
        (0.3..=0.7).contains(&(hits as f64 / cases as f64)),
        "hit rate {hits}"
    );
}

// Degenerate boxes: a flat (zero-height) plate resting 0.1 deep gives 4 points; a
// point box inside gives one point; identical coincident boxes give the full width 2
// as depth; a zero-extent 2D box (a point) on a box gives one point. No panics.
#[test]
fn degenerate_boxes() {
    let id = Pose3::<f64>::default();
    let q = glam::DQuat::IDENTITY;
    let a = obb3::<f64>(glam::DVec3::ZERO, glam::DVec3::ONE, q);
    let plate = obb3::<f64>(
        glam::DVec3::new(0.0, 0.0, 0.9),
        glam::DVec3::new(0.5, 0.5, 0.0),
        q,
    );
    let m = contact_manifold_obb_3d(&id, &a, &id, &plate, 0.0).unwrap();
    assert_eq!(m.points().len(), 4, "{m:?}");
    assert!(m.points().iter().all(|p| (p.depth - 0.1).abs() < 1e-12));
    let dot = obb3::<f64>(glam::DVec3::new(0.2, 0.1, 0.7), glam::DVec3::ZERO, q);
    let m = contact_manifold_obb_3d(&id, &a, &id, &dot, 0.0).unwrap();
    assert_eq!(m.points().len(), 1, "{m:?}");
    assert!((m.points()[0].depth - 0.3).abs() < 1e-12 && close(m.normal, glam::DVec3::Z, 1e-12));
    let m = contact_manifold_obb_3d(&id, &a, &id, &a, 0.0).unwrap();
    assert!((m.max_depth() - 2.0).abs() < 1e-12 && !m.points().is_empty());
    let id2 = Pose2::<f64>::default();
    let b2 = obb_2d::Obb::<f64>::from_angle(glam::DVec2::ZERO, glam::DVec2::ONE, 0.0).unwrap();
    let p2 = obb_2d::Obb::<f64>::from_angle(glam::DVec2::new(0.3, 0.95), glam::DVec2::ZERO, 0.0)
        .unwrap();
    let m = contact_manifold_obb_2d(&id2, &b2, &id2, &p2, 0.0).unwrap();
    assert!(
        m.points().len() == 1 && (m.max_depth() - 0.05).abs() < 1e-12,
        "{m:?}"
    );
    assert!(close(
        m.points()[0].point_b,
        glam::DVec2::new(0.3, 0.95),
        1e-12
    ));
}

/// A convex polygon of `n` vertices (3 to 8) on a random ellipse around a random
/// centre, at scale `s`.
fn random_ngon<R: Real>(rng: &mut Rng, n: usize, s: f64) -> ConvexPolygon<R> {
    let (sx, sy) = (rng.range(0.2, 1.0) * s, rng.range(0.2, 1.0) * s);
    let (cx, cy) = (rng.range(-0.3, 0.3) * s, rng.range(-0.3, 0.3) * s);
    let turn = rng.range(0.0, 1.0);
    let pts: Vec<R::V2> = (0..n)
        .map(|i| {
            let t =
                (i as f64 + 0.4 * rng.range(-1.0, 1.0)) * std::f64::consts::TAU / n as f64 + turn;
            v2::<R>(cx + sx * t.cos(), cy + sy * t.sin())
        })
        .collect();
    ConvexPolygon::new(&pts).expect("an ellipse's points are convex")
}

/// The polygons' distance (0 when they touch or overlap) by the exact SAT distance.
fn polygon_distance<R: Real>(
    pa: &Pose2<R>,
    a: &ConvexPolygon<R>,
    pb: &Pose2<R>,
    b: &ConvexPolygon<R>,
) -> f64 {
    use isect::algo::sat_2d::{polygon_polygon, SatResult};
    match polygon_polygon(pa, a, pb, b) {
        SatResult::Separated { distance, .. } => distance.to_f64(),
        SatResult::Overlapping { .. } => 0.0,
    }
}

fn manifold_presence<R: Real>(s: f64, band: f64, seed: u64)
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let mut rng = Rng(seed);
    let (mut present, mut absent, mut beyond_circles) = (0, 0, 0);
    for case in 0..4000 {
        let (na, nb) = (3 + rng.next_u64() % 6, 3 + rng.next_u64() % 6);
        let a = random_ngon::<R>(&mut rng, na as usize, s);
        let b = random_ngon::<R>(&mut rng, nb as usize, s);
        let (ca, ra) = a.bounding_circle();
        let (cb, rb) = b.bounding_circle();
        let reach = (ra + rb).to_f64() * rng.range(0.4, 1.3);
        let dir = rng.range(-3.2, 3.2);
        let pa = Pose2::<R>::new(
            v2::<R>(rng.range(-1.0, 1.0) * s, 0.0),
            R::from_f64(rng.range(-3.2, 3.2)),
        );
        let offset = v2::<R>(reach * dir.cos(), reach * dir.sin());
        let pb = Pose2::<R>::new(pa.translation + offset, R::from_f64(rng.range(-3.2, 3.2)));
        let prediction = [0.0, 0.05, 0.25][case % 3] * s;
        let d = polygon_distance(&pa, &a, &pb, &b);
        let m = contact_manifold_polygons(&pa, &a, &pb, &b, R::from_f64(prediction));
        let centres = pa
            .transform_point(ca)
            .distance(pb.transform_point(cb))
            .to_f64();
        beyond_circles += (centres > (ra + rb).to_f64() + prediction) as usize;
        if d <= prediction - band {
            assert!(
                m.is_some(),
                "case {case}: distance {d}, prediction {prediction}"
            );
            present += 1;
        } else if d > prediction + band {
            assert!(
                m.is_none(),
                "case {case}: distance {d}, prediction {prediction}: {m:?}"
            );
            absent += 1;
        }
    }
    assert!(
        present > 1000 && absent > 1000 && beyond_circles > 100,
        "{present} {absent} {beyond_circles}"
    );
}

// Polygons of 3 to 8 vertices near contact, with and without a prediction, at three
// scales in both precisions: a manifold exactly when the SAT distance is within the
// prediction (outside a rounding band), also for pairs whose bounding circles are
// apart (the early-out) and whatever the size class of the separating-axis lanes.
#[test]
fn polygon_manifold_present_within_prediction() {
    for (s, seed) in [(1e-3, 11), (1.0, 12), (1e3, 13)] {
        manifold_presence::<f32>(s, 1e-4 * s, seed);
        manifold_presence::<f64>(s, 1e-9 * s, seed);
    }
}
