//! Edge classes of the closed-form capsule–box, capsule–triangle and triangle–box
//! contacts (a reviewer's probes, kept as tests): segments on a face plane within a few
//! ulps, crossing it by one, parallel and near-parallel to box and triangle edges, zero
//! length, ends on a plane or a corner, sliver triangles, seen from below, in the
//! triangle's plane (`Degenerate`, out the front), NaN predictions, scales 1e-6 to 1e6
//! in f32 and f64, both argument orders, against GJK / EPA and the contact's contract.
//! Each test gathers its failures and prints them (`PROBE` lines; `PROBE-INFO` is
//! context) before asserting, so one run shows every failing class.

#[path = "support/poses3.rs"]
mod poses3;
#[path = "support/rng.rs"]
mod rng;
#[path = "support/surfaces.rs"]
mod surfaces;

use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose3, Real, Rotation3, Vector, Vector3};
use isect::query::composite;
use isect::query::contact::{contact as generic_contact, Contact};
use isect::query::dispatch;
use isect::shape::shape_3d::Shape;
use isect::shape::{Aabb, Capsule, TriMesh, TriMeshFlags, Triangle};
use poses3::{pose3, unit3, v3};
use rng::Rng;
use surfaces::{along, off_surface};

fn name<R: Real>() -> &'static str {
    if R::EPSILON.to_f64() > 1e-10 {
        "f32"
    } else {
        "f64"
    }
}

fn f32ish<R: Real>() -> bool {
    R::EPSILON.to_f64() > 1e-10
}

/// GJK/EPA's contact of the pair (the oracle).
fn oracle<R: Real>(
    pa: &Pose3<R>,
    a: &Shape<R>,
    pb: &Pose3<R>,
    b: &Shape<R>,
    prediction: R,
) -> Option<Contact<R::V3>>
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    match (a, b) {
        (Shape::Capsule(x), Shape::Triangle(y)) => {
            generic_contact::<R::V3, _, _>(pa, x, pb, y, prediction)
        }
        (Shape::Capsule(x), Shape::Cuboid(y)) => {
            generic_contact::<R::V3, _, _>(pa, x, pb, y, prediction)
        }
        (Shape::Cuboid(x), Shape::Triangle(y)) => {
            generic_contact::<R::V3, _, _>(pa, x, pb, y, prediction)
        }
        _ => unreachable!(),
    }
}

/// Checks the documented contract of `c` (A at `pa`, B at `pb`), with absolute
/// tolerance `tol`; pushes the problems to `out` prefixed by `what`.
#[allow(clippy::too_many_arguments)]
fn check<R: Real>(
    pa: &Pose3<R>,
    a: &Shape<R>,
    pb: &Pose3<R>,
    b: &Shape<R>,
    prediction: R,
    tol: f64,
    epa_tol: f64,
    rng: &mut Rng,
    what: &str,
    out: &mut Vec<String>,
) where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let c = dispatch::contact(pa, a, pb, b, prediction);
    let f = dispatch::contact(pb, b, pa, a, prediction).map(|c| c.flipped());
    let g = oracle(pa, a, pb, b, prediction);
    let Some(c) = c else {
        if f.is_some() {
            out.push(format!("{what}: orders disagree: None vs {f:?}"));
        }
        if let Some(g) = g {
            if g.depth.to_f64() > -prediction.to_f64() + epa_tol {
                out.push(format!("{what}: missed, GJK/EPA {g:?}"));
            }
        }
        return;
    };
    match f {
        None => out.push(format!("{what}: orders disagree: {c:?} vs None")),
        Some(f) => {
            if (f.depth - c.depth).abs().to_f64() > tol {
                out.push(format!("{what}: orders' depths {c:?} vs {f:?}"));
            }
        }
    }
    let depth = c.depth.to_f64();
    if !depth.is_finite() || !c.normal.is_finite() {
        out.push(format!("{what}: non-finite {c:?}"));
        return;
    }
    if (c.normal.length().to_f64() - 1.0).abs() > 1e-3 {
        out.push(format!("{what}: normal not unit {c:?}"));
    }
    let overlap = |u: R::V3| along(a, pa, u) + along(b, pb, -u);
    let o = overlap(c.normal);
    if (o - depth).abs() > tol {
        out.push(format!(
            "{what}: overlap along normal {o} != depth {depth}: {c:?}"
        ));
    }
    if depth > tol {
        for _ in 0..64 {
            let u = unit3::<R>(rng);
            if overlap(u) < depth - tol {
                out.push(format!(
                    "{what}: direction {u:?} overlaps {} < depth: {c:?}",
                    overlap(u)
                ));
                break;
            }
        }
    }
    let (on_a, on_b) = (off_surface(pa, a, c.point_a), off_surface(pb, b, c.point_b));
    let on_b = if matches!(b, Shape::Triangle(_)) {
        on_b
    } else {
        on_b.abs()
    };
    if on_a.abs() > tol || on_b > tol {
        out.push(format!("{what}: witnesses off by {on_a}, {on_b}: {c:?}"));
    }
    let gap = c.point_a - c.point_b - c.normal * c.depth;
    if gap.length().to_f64() > tol {
        out.push(format!("{what}: witness gap {gap:?}: {c:?}"));
    }
    if depth < 0.0 {
        let d = dispatch::distance(pa, a, pb, b).to_f64();
        if (depth + d).abs() > tol {
            out.push(format!(
                "{what}: separated depth {depth} != -distance {d}: {c:?}"
            ));
        }
    }
    if let Some(g) = g {
        if (g.depth - c.depth).abs().to_f64() > epa_tol {
            out.push(format!("{what}: depth {depth} vs GJK/EPA {g:?}"));
        }
    }
}

/// Runs one class generator and reports its failures.
fn probe(classes: impl FnOnce(&mut Vec<String>)) {
    let mut out = Vec::new();
    classes(&mut out);
    report(&out);
}

fn report(out: &[String]) {
    for line in out.iter().take(12) {
        eprintln!("PROBE {line}");
    }
    assert!(out.is_empty(), "{} failures, first: {}", out.len(), out[0]);
}

const SCALES: [f64; 5] = [1e-6, 1e-3, 1.0, 1e3, 1e6];

fn tols<R: Real>(s: f64) -> (f64, f64) {
    if f32ish::<R>() {
        (2e-4 * s, 2e-3 * s)
    } else {
        (1e-9 * s, 1e-5 * s)
    }
}

/// Adversarial capsule–triangle classes at every scale: random, a segment in the
/// triangle's plane, parallel to an edge (in and above the plane), zero length, an
/// end on the plane, a sliver triangle, seen from below.
fn capsule_triangle_classes<R: Real>(out: &mut Vec<String>)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    for s in SCALES {
        let mut rng = Rng(0x5eed_0001 ^ s.to_bits());
        let (tol, epa) = tols::<R>(s);
        let p = |x: f64, y: f64, z: f64| v3::<R>(x * s, y * s, z * s);
        for case in 0..600 {
            let class = case % 8;
            // Triangle in its frame's plane y = 0.
            let tri = if class == 5 {
                Triangle::new(p(-2.0, 0.0, 0.0), p(2.0, 0.0, 0.0), p(0.0, 0.0, 1e-3)).unwrap()
            } else {
                Triangle::new(p(-2.0, 0.0, -2.0), p(2.0, 0.0, -2.0), p(0.0, 0.0, 2.0)).unwrap()
            };
            let r = rng.range(0.05, 0.5);
            let (a, b) = match class {
                // In the plane, through the triangle.
                0 => {
                    let c = [rng.range(-1.0, 1.0), 0.0, rng.range(-1.0, 1.0)];
                    let ang = rng.range(0.0, 6.3);
                    let h = rng.range(0.0, 1.0);
                    let d = [ang.cos() * h, 0.0, ang.sin() * h];
                    (
                        [c[0] - d[0], 0.0, c[2] - d[2]],
                        [c[0] + d[0], 0.0, c[2] + d[2]],
                    )
                }
                // Parallel to edge 0 (z = -2, along x), at a random height near it.
                1 => {
                    let y = rng.range(-0.3, 0.3) * if rng.below(2) == 0 { 1.0 } else { 1e-3 };
                    let z = -2.0 + rng.range(-0.3, 0.3);
                    let x = rng.range(-1.0, 1.0);
                    ([x - 0.7, y, z], [x + 0.7, y, z])
                }
                // Zero length.
                2 => {
                    let q = [
                        rng.range(-2.5, 2.5),
                        rng.range(-0.5, 0.5),
                        rng.range(-2.5, 2.5),
                    ];
                    (q, q)
                }
                // One end on the plane, the other above or below.
                3 => {
                    let q = [rng.range(-2.5, 2.5), 0.0, rng.range(-2.5, 2.5)];
                    let u = unit3::<f64>(&mut rng);
                    (q, [q[0] + u.x, q[1] + u.y, q[2] + u.z])
                }
                // Parallel to edge 1 ((2,0,-2)->(0,0,2)), through or near it.
                4 => {
                    let e = [-2.0 / 20f64.sqrt(), 0.0, 4.0 / 20f64.sqrt()];
                    let t = rng.range(0.2, 0.8);
                    let off = rng.range(-0.2, 0.2);
                    let nrm = [4.0 / 20f64.sqrt(), 0.0, 2.0 / 20f64.sqrt()];
                    let y = rng.range(-0.3, 0.3);
                    let m = [
                        2.0 - 2.0 * t + nrm[0] * off,
                        y,
                        -2.0 + 4.0 * t + nrm[2] * off,
                    ];
                    (
                        [m[0] - e[0] * 0.5, y, m[2] - e[2] * 0.5],
                        [m[0] + e[0] * 0.5, y, m[2] + e[2] * 0.5],
                    )
                }
                // Random, and the sliver.
                _ => {
                    let q = [
                        rng.range(-2.5, 2.5),
                        rng.range(-0.6, 0.6),
                        rng.range(-2.5, 2.5),
                    ];
                    let u = unit3::<f64>(&mut rng);
                    let h = rng.range(0.0, 1.0);
                    (
                        [q[0] - u.x * h, q[1] - u.y * h, q[2] - u.z * h],
                        [q[0] + u.x * h, q[1] + u.y * h, q[2] + u.z * h],
                    )
                }
            };
            let Ok(cap) =
                Capsule::new(p(a[0], a[1], a[2]), p(b[0], b[1], b[2]), R::from_f64(r * s))
            else {
                continue;
            };
            let motion = pose3::<R>(&mut rng, s);
            // Class 6: the triangle turned over (seen from below).
            let pt = if class == 6 {
                motion.mul(&Pose3::new(
                    R::V3::ZERO,
                    R::Quat::from_axis_angle(
                        v3::<R>(1.0, 0.0, 0.0),
                        R::from_f64(core::f64::consts::PI),
                    ),
                ))
            } else {
                motion
            };
            let pc = motion;
            let prediction = R::from_f64(if rng.below(2) == 0 { 0.0 } else { 0.3 * s });
            let what = format!(
                "{} capsule-triangle scale {s} case {case} class {class} a {a:?} b {b:?} r {r}",
                name::<R>()
            );
            check(
                &pc,
                &Shape::Capsule(cap),
                &pt,
                &Shape::Triangle(tri),
                prediction,
                tol,
                epa,
                &mut rng,
                &what,
                out,
            );
        }
    }
}

#[test]
fn probe_capsule_triangle_classes_f64() {
    probe(capsule_triangle_classes::<f64>);
}

#[test]
fn probe_capsule_triangle_classes_f32() {
    probe(capsule_triangle_classes::<f32>);
}

/// Adversarial capsule–box classes at every scale: on a face plane, parallel to box
/// edges, zero length, touching, through the box, over a face.
fn capsule_box_classes<R: Real>(out: &mut Vec<String>)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    for s in SCALES {
        let mut rng = Rng(0x5eed_0002 ^ s.to_bits());
        let (tol, epa) = tols::<R>(s);
        let p = |x: f64, y: f64, z: f64| v3::<R>(x * s, y * s, z * s);
        let h = [0.5, 0.8, 1.1];
        let bx = Aabb::new(p(-h[0], -h[1], -h[2]), p(h[0], h[1], h[2])).unwrap();
        for case in 0..600 {
            let class = case % 6;
            let r = rng.range(0.05, 0.5);
            let pick = |rng: &mut Rng, k: usize| rng.range(-1.2 * h[k], 1.2 * h[k]);
            let (a, b) = match class {
                // On the top face plane y = h1.
                0 => {
                    let (x, z) = (pick(&mut rng, 0), pick(&mut rng, 2));
                    let ang = rng.range(0.0, 6.3);
                    let l = rng.range(0.0, 1.0);
                    (
                        [x - ang.cos() * l, h[1], z - ang.sin() * l],
                        [x + ang.cos() * l, h[1], z + ang.sin() * l],
                    )
                }
                // Parallel to a box axis, inside or near.
                1 => {
                    let k = rng.below(3);
                    let mut q = [pick(&mut rng, 0), pick(&mut rng, 1), pick(&mut rng, 2)];
                    let l = rng.range(0.0, 1.5);
                    let mut e = q;
                    q[k] -= l;
                    e[k] += l;
                    (q, e)
                }
                // Zero length.
                2 => {
                    let q = [pick(&mut rng, 0), pick(&mut rng, 1), pick(&mut rng, 2)];
                    (q, q)
                }
                // Touching a corner exactly with its end, from outside.
                3 => {
                    let q = [h[0], h[1], h[2]];
                    let u = unit3::<f64>(&mut rng);
                    let u = [u.x.abs(), u.y.abs(), u.z.abs()];
                    (q, [q[0] + u[0], q[1] + u[1], q[2] + u[2]])
                }
                // Over the top face, tilted or level.
                4 => {
                    let y = h[1] + rng.range(0.0, 0.5);
                    let dy = if rng.below(2) == 0 {
                        0.0
                    } else {
                        rng.range(-0.1, 0.1)
                    };
                    (
                        [pick(&mut rng, 0) * 0.8, y, pick(&mut rng, 2) * 0.8],
                        [
                            pick(&mut rng, 0) * 0.8,
                            y + dy.abs(),
                            pick(&mut rng, 2) * 0.8,
                        ],
                    )
                }
                _ => {
                    let q = [pick(&mut rng, 0), pick(&mut rng, 1), pick(&mut rng, 2)];
                    let u = unit3::<f64>(&mut rng);
                    let l = rng.range(0.0, 1.5);
                    (
                        [q[0] - u.x * l, q[1] - u.y * l, q[2] - u.z * l],
                        [q[0] + u.x * l, q[1] + u.y * l, q[2] + u.z * l],
                    )
                }
            };
            let Ok(cap) =
                Capsule::new(p(a[0], a[1], a[2]), p(b[0], b[1], b[2]), R::from_f64(r * s))
            else {
                continue;
            };
            let motion = pose3::<R>(&mut rng, s);
            let prediction = R::from_f64(if rng.below(2) == 0 { 0.0 } else { 0.3 * s });
            // The segment's ends as the kernel sees them (box frame, after the motion
            // both ways), their height over the top face y = h1 (class 0).
            let local = |q: R::V3| {
                motion
                    .inverse_transform_point(motion.transform_point(q))
                    .get(1)
                    .to_f64()
                    - h[1] * s
            };
            let lift = (local(p(a[0], a[1], a[2])), local(p(b[0], b[1], b[2])));
            let ends = |q: R::V3| motion.inverse_transform_point(motion.transform_point(q));
            let lift = (lift, ends(p(a[0], a[1], a[2])), ends(p(b[0], b[1], b[2])));
            let what = format!("{} capsule-box scale {s} case {case} class {class} a {a:?} b {b:?} r {r} local lift over y=h1 {lift:?}", name::<R>());
            check(
                &motion,
                &Shape::Capsule(cap),
                &motion,
                &Shape::Cuboid(bx),
                prediction,
                tol,
                epa,
                &mut rng,
                &what,
                out,
            );
        }
    }
}

#[test]
fn probe_capsule_box_classes_f64() {
    probe(capsule_box_classes::<f64>);
}

#[test]
fn probe_capsule_box_classes_f32() {
    probe(capsule_box_classes::<f32>);
}

/// Triangle–box classes at every scale: random, a box face coplanar with the
/// triangle (resting on it, or the triangle inside the face), an edge across an edge.
fn triangle_box_classes<R: Real>(out: &mut Vec<String>)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    for s in SCALES {
        let mut rng = Rng(0x5eed_0003 ^ s.to_bits());
        let (tol, epa) = tols::<R>(s);
        let p = |x: f64, y: f64, z: f64| v3::<R>(x * s, y * s, z * s);
        let tri = Triangle::new(p(-2.0, 0.0, -2.0), p(2.0, 0.0, -2.0), p(0.0, 0.0, 2.0)).unwrap();
        for case in 0..400 {
            let class = case % 4;
            let h = [
                rng.range(0.1, 1.0),
                rng.range(0.1, 1.0),
                rng.range(0.1, 1.0),
            ];
            let bx = Aabb::new(p(-h[0], -h[1], -h[2]), p(h[0], h[1], h[2])).unwrap();
            let pose = match class {
                // Resting on the triangle, its bottom face in the plane, or sunk a little.
                0 | 1 => {
                    let sink = if class == 0 { 0.0 } else { rng.range(0.0, 0.2) };
                    let ang = rng.range(0.0, 6.3);
                    Pose3::new(
                        p(rng.range(-2.0, 2.0), h[1] - sink, rng.range(-2.0, 2.0)),
                        R::Quat::from_axis_angle(v3::<R>(0.0, 1.0, 0.0), R::from_f64(ang)),
                    )
                }
                // Random.
                _ => {
                    let mut q = pose3::<R>(&mut rng, 2.0 * s);
                    q.translation = q.translation.with(1, R::from_f64(rng.range(-1.0, 1.0) * s));
                    q
                }
            };
            let motion = pose3::<R>(&mut rng, s);
            let pb = motion.mul(&pose);
            let prediction = R::from_f64(if rng.below(2) == 0 { 0.0 } else { 0.3 * s });
            let what = format!(
                "{} box-triangle scale {s} case {case} class {class} h {h:?} pose {pose:?}",
                name::<R>()
            );
            check(
                &pb,
                &Shape::Cuboid(bx),
                &motion,
                &Shape::Triangle(tri),
                prediction,
                tol,
                epa,
                &mut rng,
                &what,
                out,
            );
        }
    }
}

#[test]
fn probe_triangle_box_classes_f64() {
    probe(triangle_box_classes::<f64>);
}

#[test]
#[ignore = "f32 GJK on separated box-triangle pairs far from the origin: the overlap along its normal is not minus its distance (0.43 against -0.15 at scale 1e3); the closed forms hand separated pairs to GJK"]
fn probe_triangle_box_classes_f32() {
    probe(triangle_box_classes::<f32>);
}

/// A NaN prediction gives `None` (dispatch docs), for the three new pairs, whatever
/// the configuration (random poses around the triangle / box).
fn nan_prediction<R: Real>(out: &mut Vec<String>)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let mut rng = Rng(0x5eed_0004);
    let p = |x: f64, y: f64, z: f64| v3::<R>(x, y, z);
    let tri = Shape::<R>::Triangle(
        Triangle::new(p(-2.0, 0.0, -2.0), p(2.0, 0.0, -2.0), p(0.0, 0.0, 2.0)).unwrap(),
    );
    let bx = Shape::<R>::Cuboid(Aabb::new(p(-0.5, -0.6, -0.7), p(0.5, 0.6, 0.7)).unwrap());
    let cap = Shape::<R>::Capsule(
        Capsule::new(p(-0.6, 0.0, 0.0), p(0.6, 0.0, 0.0), R::from_f64(0.2)).unwrap(),
    );
    let nan = R::from_f64(f64::NAN);
    for case in 0..3000 {
        let pa = pose3::<R>(&mut rng, 2.0);
        let pb = Pose3::<R>::IDENTITY;
        for (an, a, bn, b) in [
            ("box", &bx, "triangle", &tri),
            ("capsule", &cap, "triangle", &tri),
            ("capsule", &cap, "box", &bx),
        ] {
            for (x, y, order) in [(a, b, "ab"), (b, a, "ba")] {
                let (px, py) = if order == "ab" {
                    (&pa, &pb)
                } else {
                    (&pb, &pa)
                };
                if let Some(c) = dispatch::contact(px, x, py, y, nan) {
                    out.push(format!("{} {an}-{bn} order {order} case {case} pose {pa:?}: NaN prediction gave {c:?}", name::<R>()));
                }
            }
        }
    }
}

#[test]
fn probe_nan_prediction_f64() {
    probe(nan_prediction::<f64>);
}

#[test]
fn probe_nan_prediction_f32() {
    probe(nan_prediction::<f32>);
}

/// A segment through a triangle's plane just inside an edge, turned from that edge by
/// an angle whose squared sine is below eps(EDGE_AXIS_ULPS): the edge axis is skipped
/// and the triangle's normal (overlap = half the segment's rise) wins over the true
/// least translation across the edge (overlap `delta`).
fn near_parallel_capsule_triangle<R: Real>(theta: f64, delta: f64, out: &mut Vec<String>)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let p = |x: f64, y: f64, z: f64| v3::<R>(x, y, z);
    let tri = Triangle::new(p(-2.0, 0.0, -2.0), p(2.0, 0.0, -2.0), p(0.0, 0.0, 2.0)).unwrap();
    let r = 0.25;
    let (c, s) = (theta.cos(), theta.sin());
    let z = -2.0 + delta;
    let cap = Capsule::new(p(-c, -s, z), p(c, s, z), R::from_f64(r)).unwrap();
    let id = Pose3::<R>::IDENTITY;
    let got = dispatch::contact(
        &id,
        &Shape::<R>::Capsule(cap),
        &id,
        &Shape::<R>::Triangle(tri),
        R::ZERO,
    )
    .unwrap();
    let gjk = generic_contact::<R::V3, _, _>(&id, &cap, &id, &tri, R::ZERO).unwrap();
    // Expected: out across the edge z = -2, depth r + delta, normal (0, 0, -1).
    let want = r + delta;
    let err: f64 = (got.depth.to_f64() - want).abs();
    eprintln!(
        "PROBE-INFO {} capsule-triangle theta {theta} delta {delta}: got depth {} normal {:?}; want {want} normal (0,0,-1); GJK/EPA {} {:?}",
        name::<R>(), got.depth, got.normal, gjk.depth, gjk.normal
    );
    let tol: f64 = if f32ish::<R>() { 2e-5 } else { 1e-12 };
    if err > tol {
        out.push(format!(
            "{} theta {theta} delta {delta}: depth {} want {want} (err {err}), normal {:?}",
            name::<R>(),
            got.depth,
            got.normal
        ));
    }
}

#[test]
fn probe_capsule_triangle_near_parallel_edge() {
    let mut out = Vec::new();
    // f64: sin^2 = 1e-16 < 4 eps = 8.9e-16.
    near_parallel_capsule_triangle::<f64>(1e-8, 1e-10, &mut out);
    // f32: sin^2 = 2.5e-7 < 4 eps = 4.8e-7.
    near_parallel_capsule_triangle::<f32>(5e-4, 1e-5, &mut out);
    report(&out);
}

/// The capsule–box analogue: a segment near a box edge along x, turned from x by a
/// sub-threshold angle out of both other axes; the skipped axis d × x is the diagonal
/// bevel of the Minkowski sum.
fn near_parallel_capsule_box<R: Real>(theta: f64, a: f64, out: &mut Vec<String>)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let p = |x: f64, y: f64, z: f64| v3::<R>(x, y, z);
    let bx = Aabb::new(p(-1.0, -1.0, -1.0), p(1.0, 1.0, 1.0)).unwrap();
    let r = 0.25;
    let (c, s) = (theta.cos(), theta.sin() / 2f64.sqrt());
    let m = 1.0 - a;
    let cap = Capsule::new(p(-c, m - s, m + s), p(c, m + s, m - s), R::from_f64(r)).unwrap();
    let id = Pose3::<R>::IDENTITY;
    let got = dispatch::contact(
        &id,
        &Shape::<R>::Capsule(cap),
        &id,
        &Shape::<R>::Cuboid(bx),
        R::ZERO,
    )
    .unwrap();
    let gjk = generic_contact::<R::V3, _, _>(&id, &cap, &id, &bx, R::ZERO).unwrap();
    let want = r + 2f64.sqrt() * a;
    let err: f64 = (got.depth.to_f64() - want).abs();
    eprintln!(
        "PROBE-INFO {} capsule-box theta {theta} a {a}: got depth {} normal {:?}; want {want} normal (0,1,1)/sqrt2; GJK/EPA {} {:?}",
        name::<R>(), got.depth, got.normal, gjk.depth, gjk.normal
    );
    let tol: f64 = if f32ish::<R>() { 2e-5 } else { 1e-12 };
    if err > tol {
        out.push(format!(
            "{} theta {theta} a {a}: depth {} want {want} (err {err}), normal {:?}",
            name::<R>(),
            got.depth,
            got.normal
        ));
    }
}

#[test]
fn probe_capsule_box_near_parallel_edge() {
    let mut out = Vec::new();
    near_parallel_capsule_box::<f64>(1e-8, 1e-10, &mut out);
    near_parallel_capsule_box::<f32>(5e-4, 1e-4, &mut out);
    report(&out);
}

/// A capsule whose segment lies exactly in the plane of a two-sided floor mesh (and of
/// a lone triangle): which way the pair and the mesh push it, against GJK/EPA.
#[test]
fn probe_capsule_in_floor_plane_direction() {
    let mut out = Vec::new();
    let p = |x: f64, y: f64, z: f64| v3::<f64>(x, y, z);
    let floor = TriMesh::<f64>::new(
        vec![
            p(-5.0, 0.0, -5.0),
            p(5.0, 0.0, -5.0),
            p(5.0, 0.0, 5.0),
            p(-5.0, 0.0, 5.0),
        ],
        vec![[0, 1, 2], [0, 2, 3]],
        TriMeshFlags::OPEN,
    )
    .unwrap();
    let id = Pose3::<f64>::IDENTITY;
    for (a, b) in [
        ([-1.0, 0.0, 0.3], [1.0, 0.0, 0.3]),
        ([-1.0, 0.0, -0.5], [1.0, 0.0, 0.5]),
    ] {
        let cap = Capsule::new(p(a[0], a[1], a[2]), p(b[0], b[1], b[2]), 0.25).unwrap();
        let shape = Shape::<f64>::Capsule(cap);
        let mesh = composite::contact(&id, &floor, &id, &shape, 0.0);
        let tri = floor.triangle(0).unwrap();
        let pair = dispatch::contact(&id, &Shape::<f64>::Triangle(tri), &id, &shape, 0.0);
        let gjk = generic_contact::<<f64 as Real>::V3, _, _>(&id, &tri, &id, &cap, 0.0);
        eprintln!("PROBE-INFO in-plane capsule {a:?}-{b:?}: mesh {mesh:?}\n  pair(tri,cap) {pair:?}\n  GJK/EPA {gjk:?}");
        // Contract (`Contact::status`): a flat Minkowski difference is `Degenerate`.
        let pair = pair.expect("touching");
        if pair.status != isect::algo::gjk::Status::Degenerate {
            out.push(format!(
                "in-plane capsule {a:?}-{b:?}: status {:?}, normal {:?} (GJK/EPA: {:?})",
                pair.status,
                pair.normal,
                gjk.map(|g| g.status)
            ));
        }
    }
    report(&out);
}

/// The capsule–box ball path (segment a rounding error above the face plane, one end
/// beyond the face's rim): the kernel's own box-frame input of the seeded failures
/// of `probe_capsule_box_classes_f64` (scale 1000 case 240, scale 1e-3 case 210), at
/// identity poses. Normal must be (0, -1, 0).
#[test]
fn probe_capsule_box_rim_ball_path() {
    let mut out = Vec::new();
    let p = |x: f64, y: f64, z: f64| v3::<f64>(x, y, z);
    let cases = [
        (
            1000.0,
            p(1119.5777939778459, 800.0, -702.745953756058),
            p(-171.25221189092804, 800.0000000000001, -1145.4425085579971),
            181.6562948684365,
        ),
        (
            1e-3,
            p(
                0.0011474567004846827,
                0.0008000000000000005,
                -0.0016521743542148213,
            ),
            p(
                -0.00018300186223364821,
                0.0008000000000000004,
                -0.0009091153957215709,
            ),
            0.3626494010943378e-3,
        ),
    ];
    let id = Pose3::<f64>::IDENTITY;
    let mut rng = Rng(0x5eed_0007);
    for (s, a, b, r) in cases {
        let bx = Shape::<f64>::Cuboid(
            Aabb::new(
                p(-0.5 * s, -0.8 * s, -1.1 * s),
                p(0.5 * s, 0.8 * s, 1.1 * s),
            )
            .unwrap(),
        );
        let cap = Shape::<f64>::Capsule(Capsule::new(a, b, r).unwrap());
        let c = dispatch::contact(&id, &cap, &id, &bx, 0.0);
        eprintln!("PROBE-INFO rim ball path scale {s}: {c:?}");
        if let Some(c) = c {
            if (c.normal - p(0.0, -1.0, 0.0)).length() > 1e-6 {
                out.push(format!(
                    "rim ball path scale {s}: normal {:?}, depth {}",
                    c.normal, c.depth
                ));
            }
        }
        check(
            &id,
            &cap,
            &id,
            &bx,
            0.0,
            1e-9 * s,
            1e-5 * s,
            &mut rng,
            &format!("rim ball path scale {s}"),
            &mut out,
        );
    }
    report(&out);
}

/// Triangle–box analogue: a triangle edge just inside the box edge along x at
/// (y, z) = (1, 1), turned from x by a sub-threshold angle (the SAT skips edge axes
/// shorter than sqrt(eps)); the triangle runs outward along (0, 1, 1). True least
/// translation: sqrt(2)·a along (0, 1, 1)/sqrt(2).
fn near_parallel_triangle_box<R: Real>(theta: f64, a: f64, out: &mut Vec<String>)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let p = |x: f64, y: f64, z: f64| v3::<R>(x, y, z);
    let bx = Aabb::new(p(-1.0, -1.0, -1.0), p(1.0, 1.0, 1.0)).unwrap();
    let (c, s) = (theta.cos() * 0.9, theta.sin() * 0.9 / 2f64.sqrt());
    let m = 1.0 - a;
    let tri = Triangle::new(
        p(-c, m - s, m + s),
        p(c, m + s, m - s),
        p(0.0, m + 3.0, m + 3.0),
    )
    .unwrap();
    let id = Pose3::<R>::IDENTITY;
    let got = dispatch::contact(
        &id,
        &Shape::<R>::Cuboid(bx),
        &id,
        &Shape::<R>::Triangle(tri),
        R::ZERO,
    )
    .unwrap();
    let gjk = generic_contact::<R::V3, _, _>(&id, &bx, &id, &tri, R::ZERO).unwrap();
    let want = 2f64.sqrt() * a;
    let err: f64 = (got.depth.to_f64() - want).abs();
    eprintln!(
        "PROBE-INFO {} box-triangle theta {theta} a {a}: got depth {} normal {:?}; want {want} normal (0,1,1)/sqrt2; GJK/EPA {} {:?}",
        name::<R>(), got.depth, got.normal, gjk.depth, gjk.normal
    );
    let tol: f64 = if f32ish::<R>() { 2e-5 } else { 1e-12 };
    if err > tol {
        out.push(format!(
            "{} theta {theta} a {a}: depth {} want {want} (err {err}), normal {:?}",
            name::<R>(),
            got.depth,
            got.normal
        ));
    }
}

#[test]
fn probe_triangle_box_near_parallel_edge() {
    let mut out = Vec::new();
    // (f64 needs a depth below EPA's accuracy, where the dispatch falls back to it.)
    near_parallel_triangle_box::<f32>(2e-4, 1e-5, &mut out);
    report(&out);
}

/// A capsule lying on the top face plane y = 0.8 of the box (0.5, 0.8, 1.1), its
/// segment partly over the face and both ends beyond the face's rim (no motion:
/// identity poses), at heights 0.8 + dy for dy of a few ulps and ±1e-12. Normal must
/// be (0, -1, 0) (from the capsule down to the box), depth r − dy, witnesses on both
/// surfaces.
fn capsule_on_face_plane<R: Real>(out: &mut Vec<String>)
where
    R::V3: GjkVector<Pose = Pose3<R>>,
{
    let p = |x: f64, y: f64, z: f64| v3::<R>(x, y, z);
    let bx = Shape::<R>::Cuboid(Aabb::new(p(-0.5, -0.8, -0.7 - 0.4), p(0.5, 0.8, 1.1)).unwrap());
    let id = Pose3::<R>::IDENTITY;
    let mut rng = Rng(0x5eed_0005);
    let top = R::from_f64(0.8);
    let ulp = |k: i32| {
        let mut y = top;
        for _ in 0..k.abs() {
            y = if k > 0 {
                y + y * R::EPSILON * R::from_f64(0.5)
            } else {
                y - y * R::EPSILON * R::from_f64(0.5)
            };
        }
        y
    };
    let segs = [
        (
            [1.1195777939778457, -0.702745953756058],
            [-0.17125221189092799, -1.1454425085579971],
        ),
        (
            [-1.1421947334070874, -1.3003109023944224],
            [0.44132820312935517, -0.5724953335377395],
        ),
        ([0.9, 0.2], [-0.9, -0.3]),
    ];
    for (sa, sb) in segs {
        let heights = [
            ("0", top, top),
            ("+1ulp", ulp(1), ulp(1)),
            ("-1ulp", ulp(-1), ulp(-1)),
            ("+3ulp", ulp(3), ulp(3)),
            ("-3ulp", ulp(-3), ulp(-3)),
            ("+1e-12", top + R::from_f64(1e-12), top + R::from_f64(1e-12)),
            ("-1e-12", top - R::from_f64(1e-12), top - R::from_f64(1e-12)),
            ("a-1ulp b+1ulp", ulp(-1), ulp(1)),
            ("a+1ulp b-1ulp", ulp(1), ulp(-1)),
            ("a-2ulp b-1ulp", ulp(-2), ulp(-1)),
            ("a-1ulp b-2ulp", ulp(-1), ulp(-2)),
        ];
        for (label, ya, yb) in heights {
            let cap = Capsule::new(
                R::V3::new(R::from_f64(sa[0]), ya, R::from_f64(sa[1])),
                R::V3::new(R::from_f64(sb[0]), yb, R::from_f64(sb[1])),
                R::from_f64(0.2),
            )
            .unwrap();
            let shape = Shape::<R>::Capsule(cap);
            let what = format!("{} on-face-plane {sa:?}-{sb:?} y=0.8{label}", name::<R>());
            let c = dispatch::contact(&id, &shape, &id, &bx, R::ZERO);
            eprintln!("PROBE-INFO {what}: {c:?}");
            if let Some(c) = c {
                if (c.normal - p(0.0, -1.0, 0.0)).length().to_f64() > 1e-3 {
                    out.push(format!("{what}: normal {:?} not (0,-1,0): {c:?}", c.normal));
                }
            }
            let tol = if f32ish::<R>() { 1e-5 } else { 1e-12 };
            check(
                &id,
                &shape,
                &id,
                &bx,
                R::ZERO,
                tol,
                1e-4,
                &mut rng,
                &what,
                out,
            );
        }
    }
}

#[test]
fn probe_capsule_on_face_plane_f64() {
    probe(capsule_on_face_plane::<f64>);
}

#[test]
fn probe_capsule_on_face_plane_f32() {
    probe(capsule_on_face_plane::<f32>);
}

/// 2D capsule–box (the same kernel, edge axis = the segment's normal) against GJK/EPA
/// on random poses: depth, overlap along the normal, witness gap.
#[test]
fn probe_capsule_box_2d_random() {
    use isect::math::Pose2;
    use isect::shape::shape_2d::Shape as Shape2;
    type V2 = <f64 as Real>::V2;
    let mut rng = Rng(0x5eed_0006);
    let mut out = Vec::new();
    let along = |pose: &Pose2<f64>, s: &dyn Fn(V2) -> V2, n: V2| {
        n.dot(pose.transform_point(s(pose.inverse_transform_vector(n))))
    };
    for case in 0..4000 {
        let h = V2::new(rng.range(0.1, 1.0), rng.range(0.1, 1.0));
        let bx = Aabb::new(-h, h).unwrap();
        let half = if case % 3 == 0 {
            0.0
        } else {
            rng.range(0.0, 1.0)
        };
        let ang = rng.range(0.0, 6.3);
        let ax = V2::new(ang.cos(), ang.sin());
        let cap = Capsule::new(-ax * half, ax * half, rng.range(0.05, 0.5)).unwrap();
        let pc = Pose2::<f64>::new(
            V2::new(rng.range(-1.5, 1.5), rng.range(-1.5, 1.5)),
            rng.range(-3.1, 3.1),
        );
        let pb = Pose2::<f64>::new(
            V2::ZERO,
            if case % 2 == 0 {
                0.0
            } else {
                rng.range(-3.1, 3.1)
            },
        );
        let pred = if case % 4 == 0 { 0.3 } else { 0.0 };
        let c = dispatch::contact(
            &pc,
            &Shape2::<f64>::Capsule(cap),
            &pb,
            &Shape2::<f64>::Cuboid(bx),
            pred,
        );
        let g = generic_contact::<V2, _, _>(&pc, &cap, &pb, &bx, pred);
        let Some(c) = c else {
            if let Some(g) = g {
                if g.depth > -pred + 1e-6 {
                    out.push(format!("2d case {case}: missed {g:?}"));
                }
            }
            continue;
        };
        let sa = |d: V2| isect::algo::support::SupportMap::local_support(&cap, d);
        let sb = |d: V2| isect::algo::support::SupportMap::local_support(&bx, d);
        let o = along(&pc, &sa, c.normal) + along(&pb, &sb, -c.normal);
        if (o - c.depth).abs() > 1e-9 {
            out.push(format!(
                "2d case {case}: overlap {o} vs depth {}: {c:?}",
                c.depth
            ));
        }
        let gap = c.point_a - c.point_b - c.normal * c.depth;
        if gap.length() > 1e-9 {
            out.push(format!("2d case {case}: gap {gap:?}"));
        }
        if let Some(g) = g {
            if (g.depth - c.depth).abs() > 1e-6 {
                out.push(format!(
                    "2d case {case}: depth {} vs GJK/EPA {}",
                    c.depth, g.depth
                ));
            }
        }
    }
    report(&out);
}
