//! Issue 18, item 5 (closest points to a few ulps) for a point or a ball against every
//! convex kind, and the bug reported after session 5: `dispatch::distance` of a
//! zero-radius ball centred at a point on a cone's side gave 7.2e-4 where the exact
//! distance was 1.3e-10. GJK grew a nearly flat tetrahedron of support points on the
//! curved surface, reduced it to an edge farther from the origin than the triangle it
//! grew from, and its "no progress" exit returned that edge; and near touching its
//! termination test, relative to the distance, asked for more than rounding gives.
//!
//! The class, on seeded cases in `f32` and `f64`, 3D and 2D, sizes 1e-3 to 1e5: a
//! surface point `q` of the shape (on a face, side, cap, edge, rim, apex or vertex) and
//! a direction `n` in its normal cone, so that the exact projection of
//! `p = q + gap · n` is `q` and the exact distance is `gap`, for gaps 0 (touching),
//! 1e-10, 1e-6, 1e-3, 1 and 100 times the size, and points just inside. The shape is
//! placed at a random pose (translation up to 10 sizes) and the point is a ball of
//! radius 0 or half the size, centred at `p` or posed there. Checked, within
//! [`TOL_ULPS`] `ε` of the problem's scale `M` (the largest of the size, the
//! translation and the point's distance): `dispatch::distance`, `dispatch::closest_points`
//! in both orders (distance and both witness points) and `project_point` (the point,
//! and whether it is inside). GJK on the same pairs (the generic `query::distance`)
//! is held to [`GJK_TOL_ULPS`].

use glam::DVec3;
use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose2, Pose3, Real, Rotation3, Vector};
use isect::query::dispatch::{self, DispatchShape};
use isect::query::ProjectPoint;
use isect::shape::{shape_2d, shape_3d, Aabb, Ball, Capsule, Cone, Cylinder, Rounded};

use crate::rng;
use rng::Rng;

/// Tolerance of the closed-form answers (projections, the dispatch's ball pairs), in
/// `ε · M`.
const TOL_ULPS: f64 = 32.0;
/// Tolerance of GJK's distance for the same pairs, in `ε · M`: its termination is
/// relative (`GJK_REL_ULPS`, 256) with an absolute floor (`GJK_GAP_FLOOR_ULPS`).
const GJK_TOL_ULPS: f64 = 512.0;
/// Gaps, in units of the size (negative: inside).
const GAPS: [f64; 8] = [0.0, 1e-10, 1e-6, 1e-3, 1.0, 100.0, -1e-6, -1e-3];

/// A surface point `q` of a shape (local frame, `f64`), a unit direction `n` in its
/// normal cone, and whether `q − δ n` is inside for small `δ` (a face, side or cap).
struct Feature {
    q: DVec3,
    n: DVec3,
    inward_ok: bool,
}

fn unit3(rng: &mut Rng) -> DVec3 {
    loop {
        let d = DVec3::new(rng.range(-1., 1.), rng.range(-1., 1.), rng.range(-1., 1.));
        if d.length_squared() > 0.01 && d.length_squared() <= 1.0 {
            return d.normalize();
        }
    }
}

fn sign(rng: &mut Rng) -> f64 {
    if rng.below(2) == 0 {
        1.0
    } else {
        -1.0
    }
}

/// A box feature: `k` of the `dim` axes at a face (chosen signs), the others inside;
/// `n` a positive combination of those faces' normals.
fn box_feature(rng: &mut Rng, he: DVec3, dim: usize) -> Feature {
    let active = 1 + rng.below(dim);
    let mut q = DVec3::ZERO;
    let mut n = DVec3::ZERO;
    for i in 0..dim {
        if i < active {
            let s = sign(rng);
            q[i] = s * he[i];
            n[i] = s * rng.range(0.05, 1.0);
        } else {
            q[i] = he[i] * rng.range(-0.95, 0.95);
        }
    }
    // Shuffle which axes are active.
    let (i, j) = (rng.below(dim), rng.below(dim));
    q.as_mut().swap(i, j);
    n.as_mut().swap(i, j);
    let he_ij = (he[i], he[j]);
    if he_ij.0 != he_ij.1 {
        // Rescale the swapped coordinates to their own half extents.
        for k in [i, j] {
            let other = if k == i { j } else { i };
            q[k] *= he[k] / he[other];
        }
    }
    Feature {
        q,
        n: n.normalize(),
        inward_ok: active == 1,
    }
}

/// A feature of the cone of half height `h` and radius `r` (apex up): side, base,
/// rim or apex.
fn cone_feature(rng: &mut Rng, h: f64, r: f64) -> Feature {
    let phi = rng.range(0.0, std::f64::consts::TAU);
    let radial = DVec3::new(phi.cos(), 0.0, phi.sin());
    let side_n = (radial * (2.0 * h) + DVec3::Y * r).normalize();
    match rng.below(4) {
        0 => {
            let s = rng.range(0.05, 0.95);
            Feature {
                q: radial * (r * s) + DVec3::Y * (h - 2.0 * h * s),
                n: side_n,
                inward_ok: true,
            }
        }
        1 => Feature {
            q: radial * (r * rng.range(0.0, 0.95)) - DVec3::Y * h,
            n: -DVec3::Y,
            inward_ok: true,
        },
        2 => {
            let t = rng.range(0.05, 0.95);
            Feature {
                q: radial * r - DVec3::Y * h,
                n: (side_n * t - DVec3::Y * (1.0 - t)).normalize(),
                inward_ok: false,
            }
        }
        _ => {
            // The apex's normal cone: d_y · 2h ≥ r · |d_radial|.
            let u = rng.range(0.0, 0.95);
            Feature {
                q: DVec3::Y * h,
                n: (DVec3::Y + radial * (u * 2.0 * h / r.max(1e-300))).normalize(),
                inward_ok: false,
            }
        }
    }
}

/// A feature of the cylinder of half height `h` and radius `r`: side, cap or rim.
fn cylinder_feature(rng: &mut Rng, h: f64, r: f64) -> Feature {
    let phi = rng.range(0.0, std::f64::consts::TAU);
    let radial = DVec3::new(phi.cos(), 0.0, phi.sin());
    let cap = DVec3::Y * sign(rng);
    match rng.below(3) {
        0 => Feature {
            q: radial * r + DVec3::Y * (h * rng.range(-0.95, 0.95)),
            n: radial,
            inward_ok: true,
        },
        1 => Feature {
            q: radial * (r * rng.range(0.0, 0.95)) + cap * h,
            n: cap,
            inward_ok: true,
        },
        _ => {
            let t = rng.range(0.05, 0.95);
            Feature {
                q: radial * r + cap * h,
                n: (radial * t + cap * (1.0 - t)).normalize(),
                inward_ok: false,
            }
        }
    }
}

/// A feature of the capsule of segment `a b` and radius `r`: the side or a cap.
fn capsule_feature(rng: &mut Rng, a: DVec3, b: DVec3, r: f64, dim: usize) -> Feature {
    let axis = (b - a).normalize();
    // A direction well away from the axis, so that its part across the axis (the
    // side's normal) is perpendicular to it to a few ulps.
    let (u, across) = loop {
        let mut u = unit3(rng);
        if dim == 2 {
            u.z = 0.0;
            u = u.normalize();
        }
        let once = u - axis * u.dot(axis);
        let across = once - axis * once.dot(axis);
        if across.length() > 0.5 {
            break (u, across.normalize());
        }
    };
    let t = rng.range(-0.3, 1.3);
    let (centre, n) = if t <= 0.0 {
        (a, if u.dot(axis) > 0.0 { -u } else { u })
    } else if t >= 1.0 {
        (b, if u.dot(axis) < 0.0 { -u } else { u })
    } else {
        (a + (b - a) * t, across)
    };
    Feature {
        q: centre + n * r,
        n,
        inward_ok: true,
    }
}

/// One case's shape: the enum value, its size and a feature.
struct Case<S> {
    shape: S,
    size: f64,
    feature: Feature,
    kind: &'static str,
}

fn round<R: Real>(x: f64) -> f64 {
    R::from_f64(x).to_f64()
}
fn v3<R: Real>(p: DVec3) -> R::V3 {
    let mut out = R::V3::ZERO;
    for i in 0..3 {
        out = out.with(i, R::from_f64(p[i]));
    }
    out
}
fn v2<R: Real>(p: DVec3) -> R::V2 {
    R::V2::ZERO
        .with(0, R::from_f64(p.x))
        .with(1, R::from_f64(p.y))
}
fn f64v<V: Vector>(p: V) -> DVec3 {
    let g = |i: usize| if i < V::DIM { p.get(i).to_f64() } else { 0.0 };
    DVec3::new(g(0), g(1), g(2))
}

/// Dimensions log-uniform in `size · [0.1, 1]`, rounded to `R`.
fn dims<R: Real>(rng: &mut Rng, size: f64) -> DVec3 {
    let d = |rng: &mut Rng| round::<R>(size * 10f64.powf(rng.range(-1.0, 0.0)));
    DVec3::new(d(rng), d(rng), d(rng))
}

fn case_3d<R: Real>(rng: &mut Rng, size: f64) -> Case<shape_3d::Shape<R>> {
    let d = dims::<R>(rng, size);
    let (shape, feature, kind): (shape_3d::Shape<R>, _, _) = match rng.below(6) {
        0 => {
            let f = Feature {
                q: d.x * unit3(rng),
                n: DVec3::ZERO,
                inward_ok: true,
            };
            let n = f.q.normalize();
            let ball = Ball::new(R::V3::ZERO, R::from_f64(d.x)).unwrap();
            (ball.into(), Feature { n, ..f }, "ball")
        }
        1 => {
            let bx = Aabb::from_center(R::V3::ZERO, v3::<R>(d)).unwrap();
            (bx.into(), box_feature(rng, d, 3), "cuboid")
        }
        2 => {
            let (a, b) = (
                d * DVec3::new(1.0, 0.5, -0.3),
                -d * DVec3::new(0.2, 1.0, 0.7),
            );
            let (a, b) = (f64v(v3::<R>(a)), f64v(v3::<R>(b)));
            let r = round::<R>(d.length() * 0.3);
            let c = Capsule::new(v3::<R>(a), v3::<R>(b), R::from_f64(r)).unwrap();
            (c.into(), capsule_feature(rng, a, b, r, 3), "capsule")
        }
        3 => {
            let c = Cylinder::new(R::from_f64(d.x), R::from_f64(d.y)).unwrap();
            (c.into(), cylinder_feature(rng, d.x, d.y), "cylinder")
        }
        4 => {
            let c = Cone::new(R::from_f64(d.x), R::from_f64(d.y)).unwrap();
            (c.into(), cone_feature(rng, d.x, d.y), "cone")
        }
        _ => {
            let r = round::<R>(d.z * 0.5);
            let core = d * 0.5;
            let core = f64v(v3::<R>(core));
            let bx = Aabb::from_center(R::V3::ZERO, v3::<R>(core)).unwrap();
            let f = box_feature(rng, core, 3);
            let shape = shape_3d::Shape::RoundedCuboid(Rounded::new(bx, R::from_f64(r)).unwrap());
            let q = f.q + f.n * r;
            (
                shape,
                Feature {
                    q,
                    inward_ok: true,
                    ..f
                },
                "rounded cuboid",
            )
        }
    };
    Case {
        shape,
        size: d.max_element() * 2.0,
        feature,
        kind,
    }
}

fn case_2d<R: Real>(rng: &mut Rng, size: f64) -> Case<shape_2d::Shape<R>> {
    let d = dims::<R>(rng, size) * DVec3::new(1.0, 1.0, 0.0);
    let (shape, feature, kind): (shape_2d::Shape<R>, _, _) = match rng.below(4) {
        0 => {
            let u = DVec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 0.0).normalize();
            let ball = Ball::new(R::V2::ZERO, R::from_f64(d.x)).unwrap();
            (
                ball.into(),
                Feature {
                    q: u * d.x,
                    n: u,
                    inward_ok: true,
                },
                "ball",
            )
        }
        1 => {
            let bx = Aabb::from_center(R::V2::ZERO, v2::<R>(d)).unwrap();
            (bx.into(), box_feature(rng, d, 2), "cuboid")
        }
        2 => {
            let (a, b) = (
                d * DVec3::new(1.0, 0.5, 0.0),
                -d * DVec3::new(0.2, 1.0, 0.0),
            );
            let (a, b) = (f64v(v2::<R>(a)), f64v(v2::<R>(b)));
            let r = round::<R>(d.length() * 0.3);
            let c = Capsule::new(v2::<R>(a), v2::<R>(b), R::from_f64(r)).unwrap();
            (c.into(), capsule_feature(rng, a, b, r, 2), "capsule")
        }
        _ => {
            let r = round::<R>(d.x * 0.3);
            let core = f64v(v2::<R>(d * 0.5));
            let bx = Aabb::from_center(R::V2::ZERO, v2::<R>(core)).unwrap();
            let f = box_feature(rng, core, 2);
            let shape = shape_2d::Shape::RoundedCuboid(Rounded::new(bx, R::from_f64(r)).unwrap());
            let q = f.q + f.n * r;
            (
                shape,
                Feature {
                    q,
                    inward_ok: true,
                    ..f
                },
                "rounded cuboid",
            )
        }
    };
    Case {
        shape,
        size: d.max_element() * 2.0,
        feature,
        kind,
    }
}

/// Worst errors of one check, in `ε · M`, with the case that gave them.
#[derive(Default)]
struct Worst {
    err: f64,
    case: String,
}

impl Worst {
    fn see(&mut self, err: f64, case: impl FnOnce() -> String) {
        // A NaN error is the worst of all.
        if err > self.err || err.is_nan() {
            self.err = err;
            self.case = case();
        }
    }
}

/// What the sweep measures: dispatch distance, witnesses, projection; GJK distance.
#[derive(Default)]
struct Report {
    distance: Worst,
    witness: Worst,
    projection: Worst,
    inside: Worst,
    gjk: Worst,
    /// GJK from any first direction on touching pairs (gaps up to 1e-9 of the size).
    gjk_touching: Worst,
}

/// One query point against one posed shape: every check of the module docs.
#[allow(clippy::too_many_arguments)]
fn check<V, S>(
    report: &mut Report,
    shape: &S,
    pose: &V::Pose,
    q_local: DVec3,
    n_local: DVec3,
    gap: f64,
    radius: f64,
    size: f64,
    label: &dyn Fn() -> String,
) where
    V: GjkVector,
    S: DispatchShape<V>
        + ProjectPoint<V>
        + isect::algo::support::SupportMap<V>
        + FromBall<V>
        + std::fmt::Debug,
{
    let eps = V::Scalar::EPSILON.to_f64();
    let to_v = |p: DVec3| (0..V::DIM).fold(V::ZERO, |v, k| v.with(k, V::Scalar::from_f64(p[k])));
    // The point, rounded to V, and the exact answer for it (q stays its projection
    // within the rounding, which the tolerance covers).
    let p_local = to_v(q_local + n_local * (gap + radius));
    let p = pose.transform_point(p_local);
    let q = pose.transform_point(to_v(q_local));
    let m = f64v(pose.translation())
        .abs()
        .max_element()
        .max(f64v(p).abs().max_element())
        .max(size);
    let tol = eps * m;
    let r = V::Scalar::from_f64(radius);
    let want = gap.max(0.0);
    let ball = Ball::new(p, r).unwrap();
    let centred: S = S::from_ball(ball);
    let id = V::Pose::IDENTITY;
    let d = dispatch::distance(pose, shape, &id, &centred).to_f64();
    report.distance.see((d - want).abs() / tol, || {
        format!("{} distance {d:e} want {want:e}", label())
    });
    let posed: S = S::from_ball(Ball::new(V::ZERO, r).unwrap());
    let at_p = V::Pose::from_translation(p);
    let d2 = dispatch::distance(&at_p, &posed, pose, shape).to_f64();
    report.distance.see((d2 - want).abs() / tol, || {
        format!("{} swapped distance {d2:e} want {want:e}", label())
    });
    let cp = dispatch::closest_points(pose, shape, &id, &centred);
    let cq = dispatch::closest_points(&at_p, &posed, pose, shape);
    report
        .distance
        .see((cp.distance.to_f64() - want).abs() / tol, || {
            format!("{} closest_points distance {cp:?}", label())
        });
    report
        .distance
        .see((cq.distance.to_f64() - want).abs() / tol, || {
            format!("{} closest_points swapped {cq:?}", label())
        });
    if gap >= 0.0 {
        let on_shape = [(cp.point_a, "a"), (cq.point_b, "b swapped")];
        for (w, which) in on_shape {
            let err = f64v(w).distance(f64v(q)) / tol;
            report.witness.see(err, || {
                format!("{} witness {which} {w:?} want {q:?}", label())
            });
        }
        let on_ball = f64v(q) + (f64v(p) - f64v(q)).normalize_or_zero() * gap;
        if gap > 0.0 {
            for (w, which) in [(cp.point_b, "b"), (cq.point_a, "a swapped")] {
                let err = f64v(w).distance(on_ball) / tol;
                report.witness.see(err, || {
                    format!("{} ball witness {which} {w:?} want {on_ball:?}", label())
                });
            }
        }
    }
    if radius == 0.0 {
        let pr = shape.project_point(pose, p, true);
        let want_point = if gap < 0.0 { p } else { q };
        let err = f64v(pr.point).distance(f64v(want_point)) / tol;
        report.projection.see(err, || {
            format!("{} projection {:?} want {want_point:?}", label(), pr.point)
        });
        // A gap within the rounding of `p` may come out on either side.
        if gap.abs() > TOL_ULPS * tol && pr.is_inside != (gap < 0.0) {
            report.inside.see(f64::INFINITY, || {
                format!("{} is_inside {}", label(), pr.is_inside)
            });
        }
        // GJK itself, from the point's pose (the first search direction toward it)
        // and from the centred ball's (the shape's offset from the origin: any).
        let g = isect::query::distance(pose, shape, &at_p, &posed).to_f64();
        report.gjk.see((g - want).abs() / tol, || {
            format!("{} GJK distance {g:e} want {want:e}", label())
        });
        let g = isect::query::distance(pose, shape, &id, &centred).to_f64();
        let touching = gap.abs() <= 1e-9 * size;
        let worst = if touching {
            &mut report.gjk_touching
        } else {
            &mut report.gjk
        };
        worst.see((g - want).abs() / tol, || {
            format!(
                "{} GJK centred distance {g:e} want {want:e}: {shape:?} at {pose:?}, point {p:?}",
                label()
            )
        });
    }
}

/// Enum values built from a ball (the point or ball of the queries).
trait FromBall<V: Vector> {
    fn from_ball(b: Ball<V>) -> Self;
}
impl<R: Real> FromBall<R::V3> for shape_3d::Shape<R> {
    fn from_ball(b: Ball<R::V3>) -> Self {
        b.into()
    }
}
impl<R: Real> FromBall<R::V2> for shape_2d::Shape<R> {
    fn from_ball(b: Ball<R::V2>) -> Self {
        b.into()
    }
}

/// The sweep of one dimension and precision: `cases` shapes, each at a random pose and
/// at every gap, with a point and a ball.
fn sweep<V, S>(
    seed: u64,
    cases: usize,
    make: impl Fn(&mut Rng, f64) -> Case<S>,
    pose: impl Fn(&mut Rng, f64) -> V::Pose,
) -> Report
where
    V: GjkVector,
    S: DispatchShape<V>
        + ProjectPoint<V>
        + isect::algo::support::SupportMap<V>
        + FromBall<V>
        + std::fmt::Debug,
{
    let mut rng = Rng(seed);
    let mut report = Report::default();
    for i in 0..cases {
        let size = 10f64.powf(rng.range(-3.0, 5.0));
        let case = make(&mut rng, size);
        let pose = pose(&mut rng, case.size);
        for gap in GAPS {
            if gap < 0.0 && !case.feature.inward_ok {
                continue;
            }
            let gap = gap * case.size;
            for radius in [0.0, case.size * 0.5] {
                // A ball inside the shape: its centre is what counts.
                if gap < 0.0 && radius > 0.0 {
                    continue;
                }
                let label = || {
                    format!(
                        "case {i} {} size {:e} gap {gap:e} radius {radius:e}",
                        case.kind, case.size
                    )
                };
                check::<V, S>(
                    &mut report,
                    &case.shape,
                    &pose,
                    case.feature.q,
                    case.feature.n,
                    gap,
                    radius,
                    case.size,
                    &label,
                );
            }
        }
    }
    report
}

fn pose_3d<R: Real>(rng: &mut Rng, size: f64) -> Pose3<R> {
    let axis = v3::<R>(unit3(rng));
    let t = v3::<R>(unit3(rng) * size * 10f64.powf(rng.range(-1.0, 1.0)));
    let rotation =
        <R::Quat as Rotation3<R>>::from_axis_angle(axis, R::from_f64(rng.range(0.0, 6.3)));
    match rng.below(4) {
        0 => Pose3::new(R::V3::ZERO, <R::Quat as Rotation3<R>>::IDENTITY),
        _ => Pose3::new(t, rotation),
    }
}

fn pose_2d<R: Real>(rng: &mut Rng, size: f64) -> Pose2<R> {
    let t = v2::<R>(unit3(rng) * size * 10f64.powf(rng.range(-1.0, 1.0)));
    match rng.below(4) {
        0 => Pose2::new(R::V2::ZERO, R::ZERO),
        _ => Pose2::new(t, R::from_f64(rng.range(0.0, 6.3))),
    }
}

/// Asserts the report's bounds and prints the worst cases.
fn assert_report(name: &str, r: &Report) {
    println!(
        "{name}: distance {:.1}, witnesses {:.1}, projection {:.1}, GJK distance {:.1}, touching from any start {:.1} (ε·M)",
        r.distance.err, r.witness.err, r.projection.err, r.gjk.err, r.gjk_touching.err
    );
    println!("  worst GJK touching: {}", r.gjk_touching.case);
    assert!(
        r.distance.err <= TOL_ULPS,
        "{name}: {:.1} ulps: {}",
        r.distance.err,
        r.distance.case
    );
    assert!(
        r.witness.err <= TOL_ULPS,
        "{name}: {:.1} ulps: {}",
        r.witness.err,
        r.witness.case
    );
    assert!(
        r.projection.err <= TOL_ULPS,
        "{name}: {:.1} ulps: {}",
        r.projection.err,
        r.projection.case
    );
    assert!(r.inside.err == 0.0, "{name}: {}", r.inside.case);
    assert!(
        r.gjk.err <= GJK_TOL_ULPS,
        "{name}: GJK {:.1} ulps: {}",
        r.gjk.err,
        r.gjk.case
    );
}

/// Open: GJK on a point touching a cylinder's rim, started from a direction away
/// from the point (the pair's offset), stops 1.5e-3 short on a cylinder 1.4e5 across
/// (`f64`; 1.0 on one 8e3 across in `f32`). Directions across the axis tie the
/// side's support between the two rims; the far rim's point is already in the
/// simplex, so GJK ends with a chord of the near rim. The dispatch and the
/// projections answer this pair in closed form (the sweeps above).
#[test]
#[ignore = "open: GJK from any first direction stops short on a cylinder's rim (support ties on the side)"]
fn gjk_point_on_cylinder_rim_any_start() {
    let cylinder: shape_3d::Shape<f64> = Cylinder::new(44382.370834121255, 72405.8427639758)
        .unwrap()
        .into();
    let pose = Pose3::new(
        DVec3::new(-39545.14877150029, 22101.763820733988, 75672.28722074175),
        glam::DQuat::from_xyzw(
            -0.2007400475694066,
            -0.1586754291209618,
            -0.091558760593696,
            0.9623629953679937,
        ),
    );
    let p = DVec3::new(13331.169197737698, -43965.74105309381, 68490.31639221415);
    let point: shape_3d::Shape<f64> = Ball::new(p, 0.0).unwrap().into();
    let d = isect::query::distance(&pose, &cylinder, &Pose3::default(), &point);
    assert!(d <= GJK_TOL_ULPS * f64::EPSILON * 1.5e5, "{d:e}");
}

const CASES: usize = 1500;

#[test]
fn point_vs_kinds_3d_f32() {
    let r =
        sweep::<glam::Vec3, shape_3d::Shape<f32>>(0x3d32, CASES, case_3d::<f32>, pose_3d::<f32>);
    assert_report("3D f32", &r);
}
#[test]
fn point_vs_kinds_3d_f64() {
    let r =
        sweep::<glam::DVec3, shape_3d::Shape<f64>>(0x3d64, CASES, case_3d::<f64>, pose_3d::<f64>);
    assert_report("3D f64", &r);
}
#[test]
fn point_vs_kinds_2d_f32() {
    let r =
        sweep::<glam::Vec2, shape_2d::Shape<f32>>(0x2d32, CASES, case_2d::<f32>, pose_2d::<f32>);
    assert_report("2D f32", &r);
}
#[test]
fn point_vs_kinds_2d_f64() {
    let r =
        sweep::<glam::DVec2, shape_2d::Shape<f64>>(0x2d64, CASES, case_2d::<f64>, pose_2d::<f64>);
    assert_report("2D f64", &r);
}

/// The reported case: a zero-radius ball centred on a cone's side (the cone 0.057
/// tall, radius 0.134, at the origin), exact distance 3.9e-18: GJK's distance was
/// 3.4e-9 (and 7.2e-4 on the reported pair); the dispatch now projects.
#[test]
fn point_on_cone_side_reported() {
    let cone: shape_3d::Shape<f64> = Cone::new(2.8582511286582873e-2, 1.339385439948521e-1)
        .unwrap()
        .into();
    let p = DVec3::new(
        -0.011982198578985678,
        0.02191839574951131,
        -0.010011387738397135,
    );
    let point: shape_3d::Shape<f64> = Ball::new(p, 0.0).unwrap().into();
    let id = Pose3::default();
    let tol = 64.0 * f64::EPSILON * 0.134;
    assert!(dispatch::distance(&id, &cone, &id, &point) <= tol);
    let gjk = isect::query::distance(&id, &cone, &id, &point);
    assert!(gjk <= tol, "GJK {gjk:e}");
}
