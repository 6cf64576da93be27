//! isect's 2D contact manifolds beside Box2D v3's, on the same shapes and poses:
//! polygon–polygon (boxes and random hulls of 3–8 points), box–box, capsule–capsule
//! and polygon–capsule, 8,192 seeded cases per pair (about half overlapping), single
//! thread; and a check that both report the same contacts.
//!
//! Box2D is timed as its contact update calls it: B's frame in A's
//! (`b2InvMulTransforms`), then the manifold function (`b2CollidePolygons`,
//! `b2CollideCapsules`, `b2CollidePolygonAndCapsule`), which keeps points up to its
//! speculative distance (`B2_SPECULATIVE_DISTANCE` = 4 × linear slop = 0.02 m). isect
//! is timed at prediction 0 and at prediction 0.02 (Box2D's margin).
//!
//! Run: `cd bench-peers/box2d && cargo run --release` (`-- --reps 15` for more
//! repetitions; `-- profile <pair> <box2d|isect0|isect02> <seconds>` loops one kernel
//! alone, for `perf record -g`).
//!
//! Each repetition times every kernel of a pair once (`PASSES` passes over the cases),
//! in an order that rotates between repetitions; the table gives the median time per
//! call over the repetitions and the median of the per-repetition ratios. Each
//! library's poses and shapes are timed from an array of their own ([`Side`]), as in
//! its own engine; the agreement check reads both from one array of [`Case`]s.

mod box2d;

use box2d::*;
use glam::Vec2;
use isect::math::Pose2;
use isect::query::manifold::{contact_manifold_polygons, Manifold};
use isect::shape::shape_2d::Shape;
use isect::shape::{Aabb, Capsule, ConvexPolygon};
use std::hint::black_box;
use std::time::Instant;

#[path = "../../../crates/isect/tests/support/rng.rs"]
mod rng;
use rng::Rng;

/// Seeded cases per pair, cycled.
const CASES: usize = 8192;
/// Passes over the cases per timing.
const PASSES: usize = 8;
/// Box2D's `B2_SPECULATIVE_DISTANCE` at its default length unit (1 m).
const SPECULATIVE: f32 = 0.02;

/// One case: both poses and both shapes, as Box2D's types and as isect's.
struct Case<BA, BB, IA, IB> {
    xa: b2Transform,
    xb: b2Transform,
    pa: Pose2<f32>,
    pb: Pose2<f32>,
    ba: BA,
    bb: BB,
    ia: IA,
    ib: IB,
}

/// One library's side of the cases: its poses and shapes, in an array of its own, as
/// each library would hold them in its own engine. Each kernel then streams only its
/// own bytes (with one array of [`Case`]s, every kernel also pulled the other
/// library's half of each case through the cache: session 20, BENCHMARKS.md).
struct Side<T, A, B> {
    ta: T,
    tb: T,
    a: A,
    b: B,
}

/// Box2D's and isect's sides of `cases`, each case's shapes moved, not copied.
#[allow(clippy::type_complexity)]
fn split<BA, BB, IA, IB>(
    cases: Vec<Case<BA, BB, IA, IB>>,
) -> (
    Vec<Side<b2Transform, BA, BB>>,
    Vec<Side<Pose2<f32>, IA, IB>>,
) {
    cases
        .into_iter()
        .map(|c| {
            let b2 = Side {
                ta: c.xa,
                tb: c.xb,
                a: c.ba,
                b: c.bb,
            };
            let is = Side {
                ta: c.pa,
                tb: c.pb,
                a: c.ia,
                b: c.ib,
            };
            (b2, is)
        })
        .unzip()
}

fn vec(v: Vec2) -> b2Vec2 {
    b2Vec2 { x: v.x, y: v.y }
}

fn transform(p: &Pose2<f32>) -> b2Transform {
    b2Transform {
        p: vec(p.translation),
        q: b2Rot {
            c: p.rotation.cos,
            s: p.rotation.sin,
        },
    }
}

/// A point uniform in the unit disc.
fn in_disc(rng: &mut Rng) -> Vec2 {
    loop {
        let p = Vec2::new(rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0));
        if p.length_squared() <= 1.0 {
            return p;
        }
    }
}

/// A box (half extents in `[0.2, 1.0)`) when `boxes`, else the hull of 3–8 points
/// uniform in a disc of radius `[0.2, 1.0)` (Box2D's `b2ComputeHull`; isect's polygon
/// is built on the hull's vertices); and its bounding radius.
fn polygon(rng: &mut Rng, boxes: bool) -> (b2Polygon, ConvexPolygon<f32>, f32) {
    if boxes {
        let (hx, hy) = (rng.uniform(0.2, 1.0), rng.uniform(0.2, 1.0));
        let b = unsafe { b2MakeBox(hx, hy) };
        let pts = [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)].map(|(x, y)| Vec2::new(x, y));
        let p = ConvexPolygon::new(&pts).expect("a box");
        return (b, p, Vec2::new(hx, hy).length());
    }
    loop {
        let r = rng.uniform(0.2, 1.0);
        let n = 3 + rng.below(6);
        let pts: Vec<b2Vec2> = (0..n).map(|_| vec(in_disc(rng) * r)).collect();
        let hull = unsafe { b2ComputeHull(pts.as_ptr(), n as i32) };
        if hull.count < 3 {
            continue;
        }
        let verts: Vec<Vec2> = hull.points[..hull.count as usize]
            .iter()
            .map(|p| Vec2::new(p.x, p.y))
            .collect();
        let Ok(p) = ConvexPolygon::new(&verts) else {
            continue;
        };
        if p.vertices().len() != verts.len() {
            continue; // isect merged a vertex Box2D kept: not the same polygon
        }
        let b = unsafe { b2MakePolygon(&hull, 0.0) };
        let radius = verts.iter().map(|v| v.length()).fold(0.0, f32::max);
        return (b, p, radius);
    }
}

/// A capsule along x through its centre: half length `[0.1, 0.8)`, radius
/// `[0.05, 0.4)`; and its bounding radius.
fn capsule(rng: &mut Rng) -> (b2Capsule, Shape<f32>, f32) {
    let (h, r) = (rng.uniform(0.1, 0.8), rng.uniform(0.05, 0.4));
    let b = b2Capsule {
        center1: b2Vec2 { x: -h, y: 0.0 },
        center2: b2Vec2 { x: h, y: 0.0 },
        radius: r,
    };
    let c = Capsule::new(Vec2::new(-h, 0.0), Vec2::new(h, 0.0), r).expect("a capsule");
    (b, Shape::Capsule(c), h + r)
}

/// Poses of A and B for shapes of bounding radii `ra` and `rb`: A within 0.5 of the
/// origin, B at a distance uniform in `[0, reach (ra + rb))` in a uniform direction
/// (`reach` set per pair so that about half the cases overlap); both turned by a
/// uniform angle.
fn poses(rng: &mut Rng, ra: f32, rb: f32, reach: f32) -> (Pose2<f32>, Pose2<f32>) {
    let ta = Vec2::new(rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5));
    let dir = Vec2::from_angle(rng.uniform(-std::f32::consts::PI, std::f32::consts::PI));
    let tb = ta + dir * rng.uniform(0.0, reach) * (ra + rb);
    let angle = |rng: &mut Rng| rng.uniform(-std::f32::consts::PI, std::f32::consts::PI);
    (Pose2::new(ta, angle(rng)), Pose2::new(tb, angle(rng)))
}

#[allow(clippy::type_complexity)]
fn cases<BA, BB, IA, IB>(
    seed: u64,
    reach: f32,
    mut a: impl FnMut(&mut Rng) -> (BA, IA, f32),
    mut b: impl FnMut(&mut Rng) -> (BB, IB, f32),
) -> Vec<Case<BA, BB, IA, IB>> {
    let mut rng = Rng(seed);
    (0..CASES)
        .map(|_| {
            let (ba, ia, ra) = a(&mut rng);
            let (bb, ib, rb) = b(&mut rng);
            let (pa, pb) = poses(&mut rng, ra, rb, reach);
            Case {
                xa: transform(&pa),
                xb: transform(&pb),
                pa,
                pb,
                ba,
                bb,
                ia,
                ib,
            }
        })
        .collect()
}

/// How Box2D's manifolds compare with isect's on the same cases.
#[derive(Default, Debug)]
struct Agreement {
    /// Box2D returned points (within its speculative distance).
    box2d_points: usize,
    /// Box2D's deepest point penetrates (separation < 0).
    box2d_overlap: usize,
    /// Box2D has points and isect at prediction 0.02 has none, or the reverse.
    presence_02: usize,
    /// Box2D's deepest separation < 0 and isect at prediction 0 has no manifold, or the
    /// reverse (separations within 1e-4 of 0 not counted).
    presence_0: usize,
    /// Both have points (prediction 0.02), Box2D more (2 against 1).
    box2d_more: usize,
    /// Both have points (prediction 0.02), isect more (2 against 1).
    isect_more: usize,
    /// Both have points, and isect's count differs from the count of Box2D's points
    /// within 0.02 (Box2D's polygon clipper keeps both clipped points whatever their
    /// separation; isect keeps those within `prediction`).
    count_within: usize,
    /// Both have points but the normals are more than about 8° apart.
    normal: usize,
    /// Both have points but the deepest separations differ by more than 1e-3.
    deepest: usize,
}

fn min_separation(m: &b2LocalManifold) -> f32 {
    m.points[..m.pointCount as usize]
        .iter()
        .map(|p| p.separation)
        .fold(f32::INFINITY, f32::min)
}

fn agree<BA, BB, IA, IB>(
    cases: &[Case<BA, BB, IA, IB>],
    b2: &impl Fn(&BA, &BB, b2Transform) -> b2LocalManifold,
    is: &impl Fn(&Pose2<f32>, &IA, &Pose2<f32>, &IB, f32) -> Option<Manifold<Vec2>>,
) -> Agreement {
    let mut a = Agreement::default();
    for c in cases {
        let m = b2(&c.ba, &c.bb, inv_mul_transforms(&c.xa, &c.xb));
        let i0 = is(&c.pa, &c.ia, &c.pb, &c.ib, 0.0);
        let i2 = is(&c.pa, &c.ia, &c.pb, &c.ib, SPECULATIVE);
        let has = m.pointCount > 0;
        let sep = min_separation(&m);
        a.box2d_points += has as usize;
        a.box2d_overlap += (sep < 0.0) as usize;
        if has != i2.is_some() {
            a.presence_02 += 1;
        }
        if (sep < 0.0) != i0.is_some() && sep.abs() > 1e-4 {
            a.presence_0 += 1;
        }
        let Some(i2) = i2.filter(|_| has) else {
            continue;
        };
        let (nb, ni) = (m.pointCount as usize, i2.points().len());
        a.box2d_more += (nb > ni) as usize;
        a.isect_more += (ni > nb) as usize;
        let within = m.points[..nb]
            .iter()
            .filter(|p| p.separation <= SPECULATIVE + 1e-4)
            .count();
        a.count_within += (within != ni) as usize;
        // Box2D's normal is in A's frame: to the world by A's rotation.
        let n = c.pa.rotation.rotate(Vec2::new(m.normal.x, m.normal.y));
        a.normal += (n.dot(i2.normal) < 0.99) as usize;
        let deepest = i2.points().iter().map(|p| p.depth).fold(f32::MIN, f32::max);
        a.deepest += ((sep + deepest).abs() > 1e-3) as usize;
    }
    a
}

/// Nanoseconds per call of `PASSES` passes of `f` over `n` cases.
fn timed(n: usize, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    for _ in 0..PASSES {
        f();
    }
    start.elapsed().as_secs_f64() * 1e9 / (PASSES * n) as f64
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        0.5 * (v[m - 1] + v[m])
    }
}

/// One pair's line of the table.
struct Row {
    box2d: f64,
    isect0: f64,
    isect02: f64,
    ratio0: f64,
    ratio02: f64,
}

fn measure<BA, BB, IA, IB>(
    cases: Vec<Case<BA, BB, IA, IB>>,
    b2: impl Fn(&BA, &BB, b2Transform) -> b2LocalManifold,
    is: impl Fn(&Pose2<f32>, &IA, &Pose2<f32>, &IB, f32) -> Option<Manifold<Vec2>>,
    reps: usize,
) -> (Row, Agreement) {
    let agreement = agree(&cases, &b2, &is);
    let n = cases.len();
    let (b2_sides, is_sides) = split(cases);
    let run = |k: usize| match k {
        0 => timed(n, || {
            for c in &b2_sides {
                let xf = inv_mul_transforms(&c.ta, &c.tb);
                black_box(b2(&c.a, &c.b, xf));
            }
        }),
        _ => {
            let prediction = if k == 1 { 0.0 } else { SPECULATIVE };
            timed(n, || {
                for c in &is_sides {
                    black_box(is(&c.ta, &c.a, &c.tb, &c.b, black_box(prediction)));
                }
            })
        }
    };
    for k in 0..3 {
        run(k); // warm up
    }
    let mut t = [Vec::new(), Vec::new(), Vec::new()];
    let (mut r0, mut r02) = (Vec::new(), Vec::new());
    for rep in 0..reps {
        let mut once = [0.0; 3];
        for j in 0..3 {
            let k = (rep + j) % 3;
            once[k] = run(k);
        }
        for k in 0..3 {
            t[k].push(once[k]);
        }
        r0.push(once[0] / once[1]);
        r02.push(once[0] / once[2]);
    }
    let [box2d, isect0, isect02] = t.map(median);
    let row = Row {
        box2d,
        isect0,
        isect02,
        ratio0: median(r0),
        ratio02: median(r02),
    };
    (row, agreement)
}

type PolygonCase = Case<b2Polygon, b2Polygon, ConvexPolygon<f32>, ConvexPolygon<f32>>;

fn polygon_cases() -> Vec<PolygonCase> {
    let side = |rng: &mut Rng| {
        let boxes = rng.below(4) == 0;
        polygon(rng, boxes)
    };
    cases(0xB2D1, 1.15, side, side)
}

fn box_cases() -> Vec<PolygonCase> {
    let side = |rng: &mut Rng| polygon(rng, true);
    cases(0xB2D2, 1.5, side, side)
}

/// The box cases with isect's boxes as `Shape::Cuboid` (its 2D OBB kernel).
fn cuboid_cases(boxes: &[PolygonCase]) -> Vec<Case<b2Polygon, b2Polygon, Shape<f32>, Shape<f32>>> {
    let cuboid = |p: &ConvexPolygon<f32>| {
        let h = p.vertices().iter().fold(Vec2::ZERO, |m, v| m.max(*v));
        Shape::Cuboid(Aabb::from_center(Vec2::ZERO, h).expect("a box"))
    };
    boxes
        .iter()
        .map(|c| Case {
            xa: c.xa,
            xb: c.xb,
            pa: c.pa,
            pb: c.pb,
            ba: c.ba,
            bb: c.bb,
            ia: cuboid(&c.ia),
            ib: cuboid(&c.ib),
        })
        .collect()
}

fn capsule_cases() -> Vec<Case<b2Capsule, b2Capsule, Shape<f32>, Shape<f32>>> {
    cases(0xB2D3, 1.25, capsule, capsule)
}

fn polygon_capsule_cases() -> Vec<Case<b2Polygon, b2Capsule, Shape<f32>, Shape<f32>>> {
    let side = |rng: &mut Rng| {
        let boxes = rng.below(4) == 0;
        let (b, p, r) = polygon(rng, boxes);
        (b, Shape::Polygon(p), r)
    };
    cases(0xB2D4, 1.2, side, capsule)
}

fn b2_polygons(a: &b2Polygon, b: &b2Polygon, xf: b2Transform) -> b2LocalManifold {
    unsafe { b2CollidePolygons(a, b, xf) }
}

fn b2_capsules(a: &b2Capsule, b: &b2Capsule, xf: b2Transform) -> b2LocalManifold {
    unsafe { b2CollideCapsules(a, b, xf) }
}

fn b2_polygon_capsule(a: &b2Polygon, b: &b2Capsule, xf: b2Transform) -> b2LocalManifold {
    unsafe { b2CollidePolygonAndCapsule(a, b, xf) }
}

fn isect_polygons(
    pa: &Pose2<f32>,
    a: &ConvexPolygon<f32>,
    pb: &Pose2<f32>,
    b: &ConvexPolygon<f32>,
    prediction: f32,
) -> Option<Manifold<Vec2>> {
    contact_manifold_polygons(pa, a, pb, b, prediction)
}

fn isect_dispatch(
    pa: &Pose2<f32>,
    a: &Shape<f32>,
    pb: &Pose2<f32>,
    b: &Shape<f32>,
    prediction: f32,
) -> Option<Manifold<Vec2>> {
    isect::query::dispatch::contact_manifold(pa, a, pb, b, prediction)
}

const PAIRS: [&str; 5] = [
    "polygon-polygon",
    "box-box",
    "box-box-cuboid",
    "capsule-capsule",
    "polygon-capsule",
];

/// The table line's name and the isect function of each pair.
fn label(pair: &str) -> &'static str {
    match pair {
        "polygon-polygon" => {
            "polygon–polygon (boxes and hulls of 3–8 points) | `contact_manifold_polygons`"
        }
        "box-box" => "box–box (`b2MakeBox`) | `contact_manifold_polygons`",
        "box-box-cuboid" => "box–box (`b2MakeBox`) | `dispatch::contact_manifold`, `Shape::Cuboid`",
        "capsule-capsule" => "capsule–capsule | `dispatch::contact_manifold`, `Shape::Capsule`",
        _ => "polygon–capsule | `dispatch::contact_manifold`, `Shape::Polygon`/`Capsule`",
    }
}

fn run_pair(pair: &str, reps: usize) -> (Row, Agreement) {
    match pair {
        "polygon-polygon" => measure(polygon_cases(), b2_polygons, isect_polygons, reps),
        "box-box" => measure(box_cases(), b2_polygons, isect_polygons, reps),
        "box-box-cuboid" => measure(
            cuboid_cases(&box_cases()),
            b2_polygons,
            isect_dispatch,
            reps,
        ),
        "capsule-capsule" => measure(capsule_cases(), b2_capsules, isect_dispatch, reps),
        "polygon-capsule" => measure(
            polygon_capsule_cases(),
            b2_polygon_capsule,
            isect_dispatch,
            reps,
        ),
        _ => panic!("pair: one of {PAIRS:?}"),
    }
}

/// One kernel of one pair alone for `seconds` (for `perf record -g`).
fn profile(pair: &str, kernel: &str, seconds: f64) {
    fn lp<BA, BB, IA, IB>(
        cases: Vec<Case<BA, BB, IA, IB>>,
        kernel: &str,
        seconds: f64,
        b2: impl Fn(&BA, &BB, b2Transform) -> b2LocalManifold,
        is: impl Fn(&Pose2<f32>, &IA, &Pose2<f32>, &IB, f32) -> Option<Manifold<Vec2>>,
    ) {
        let (b2_sides, is_sides) = split(cases);
        let start = Instant::now();
        while start.elapsed().as_secs_f64() < seconds {
            if kernel == "box2d" {
                for c in &b2_sides {
                    black_box(b2(&c.a, &c.b, inv_mul_transforms(&c.ta, &c.tb)));
                }
                continue;
            }
            let prediction = if kernel == "isect0" { 0.0 } else { SPECULATIVE };
            for c in &is_sides {
                black_box(is(&c.ta, &c.a, &c.tb, &c.b, black_box(prediction)));
            }
        }
    }
    match pair {
        "polygon-polygon" => lp(
            polygon_cases(),
            kernel,
            seconds,
            b2_polygons,
            isect_polygons,
        ),
        "box-box" => lp(box_cases(), kernel, seconds, b2_polygons, isect_polygons),
        "box-box-cuboid" => lp(
            cuboid_cases(&box_cases()),
            kernel,
            seconds,
            b2_polygons,
            isect_dispatch,
        ),
        "capsule-capsule" => lp(
            capsule_cases(),
            kernel,
            seconds,
            b2_capsules,
            isect_dispatch,
        ),
        "polygon-capsule" => lp(
            polygon_capsule_cases(),
            kernel,
            seconds,
            b2_polygon_capsule,
            isect_dispatch,
        ),
        _ => panic!("pair: one of {PAIRS:?}"),
    }
}

/// `passes` passes of one kernel over a pair's cases (for callgrind: the cost of one
/// call is the difference of two pass counts over the calls it adds).
fn count(pair: &str, kernel: &str, passes: usize) {
    fn lp<BA, BB, IA, IB>(
        cases: Vec<Case<BA, BB, IA, IB>>,
        kernel: &str,
        passes: usize,
        b2: impl Fn(&BA, &BB, b2Transform) -> b2LocalManifold,
        is: impl Fn(&Pose2<f32>, &IA, &Pose2<f32>, &IB, f32) -> Option<Manifold<Vec2>>,
    ) {
        let (b2_sides, is_sides) = split(cases);
        for _ in 0..passes {
            if kernel == "box2d" {
                for c in &b2_sides {
                    black_box(b2(&c.a, &c.b, inv_mul_transforms(&c.ta, &c.tb)));
                }
            } else {
                for c in &is_sides {
                    black_box(is(&c.ta, &c.a, &c.tb, &c.b, black_box(0.0)));
                }
            }
        }
    }
    match pair {
        "polygon-polygon" => lp(polygon_cases(), kernel, passes, b2_polygons, isect_polygons),
        "box-box" => lp(box_cases(), kernel, passes, b2_polygons, isect_polygons),
        _ => panic!("count: polygon-polygon or box-box"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("count") {
        count(&args[1], &args[2], args[3].parse().expect("passes"));
        return;
    }
    if args.first().map(String::as_str) == Some("profile") {
        let seconds = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(10.0);
        profile(
            &args[1],
            args.get(2).map_or("isect0", String::as_str),
            seconds,
        );
        return;
    }
    let reps = match args.iter().position(|a| a == "--reps") {
        Some(i) => args[i + 1].parse().expect("--reps N"),
        None => 9,
    };
    let v = unsafe { b2GetVersion() };
    println!(
        "Box2D {}.{}.{} from {} ({CASES} cases per pair, {PASSES} passes per timing, {reps} repetitions interleaved)\n",
        v.major,
        v.minor,
        v.revision,
        env!("BOX2D_SRC_DIR")
    );
    println!("| pair | isect function | Box2D ns/call | isect ns/call (prediction 0) | isect ns/call (prediction 0.02) | Box2D / isect (0) | Box2D / isect (0.02) |");
    println!("|---|---|---|---|---|---|---|");
    let mut agreements = Vec::new();
    for pair in PAIRS {
        let (r, a) = run_pair(pair, reps);
        println!(
            "| {} | {:.1} | {:.1} | {:.1} | {:.2} | {:.2} |",
            label(pair),
            r.box2d,
            r.isect0,
            r.isect02,
            r.ratio0,
            r.ratio02
        );
        agreements.push((pair, a));
    }
    println!("\n| pair | cases | Box2D has points | Box2D overlapping | presence differs (0.02) | presence differs (0) | Box2D more points | isect more points | count differs (Box2D's points within 0.02) | normal differs | deepest differs |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for (pair, a) in agreements {
        println!(
            "| {pair} | {CASES} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            a.box2d_points,
            a.box2d_overlap,
            a.presence_02,
            a.presence_0,
            a.box2d_more,
            a.isect_more,
            a.count_within,
            a.normal,
            a.deepest
        );
    }
}
