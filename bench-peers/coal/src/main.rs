//! isect's narrow phase beside coal's (the C++ successor of FCL, from the PyPI wheel
//! `libcoal`) on identical inputs: the same shapes, the same 8,192 seeded pose pairs
//! (about half overlapping), f64 on both sides.
//!
//! Pairs: ball–cylinder, capsule–capsule, capsule–cone, capsule–cylinder, ball–cone.
//! isect: `dispatch::distance` and `dispatch::contact(.., 0.0)` on `shape_3d::Shape<f64>`.
//! coal: `coal::distance` with a default `DistanceRequest` (the user call), a
//! `ComputeDistance` functor built once (coal's fast path), and the lowest level its
//! headers expose, `coal::internal::ShapeShapeDistance<T1, T2>` with a `GJKSolver`
//! built once; for contacts `coal::collide` with a default `CollisionRequest`
//! (`enable_contact`) and a `ComputeCollision` functor. See `shim/coal_shim.cpp`.
//!
//! Geometry: isect's cylinder, cone and capsule here lie along local y, coal's along
//! local z: coal's rotation is isect's times the quarter turn about x taking z to y.
//! The agreement columns check that conversion: max |isect − coal| over the cases (coal's
//! distance is signed, isect's is 0 in overlap: isect is compared with max(coal, 0); a
//! contact's depth with −coal's `penetration_depth`).
//!
//! Timing: per round, each row runs batches of 8,192 calls (one pass over the cases),
//! coal and isect interleaved batch by batch (which goes first alternates); the median
//! ns/call over all batches of all rounds is reported.
//!
//! Run: `cd bench-peers/coal && cargo run --release` (`-- --rounds N`, default 7;
//! `-- perf <pair> <distance|contact> <passes>` runs isect alone on one pair, for
//! `perf record`). See README.md.

mod coal;

use coal::{Kind, Method, Transform};
use glam::{DMat3, DQuat, DVec3};
use isect::d3_f64::{Ball, Capsule, Cone, Cylinder, Pose, Shape};
use isect::query::dispatch;
use std::hint::black_box;
use std::time::Instant;

/// Pose pairs per pair of shapes (one batch is one pass over them).
const CASES: usize = 8192;
/// Batches per row per round, for each side.
const BATCHES: usize = 3;

/// SplitMix64, as `crates/isect/tests/support/rng.rs`.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        let unit = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * unit
    }
    fn in_ball(&mut self) -> DVec3 {
        loop {
            let p = DVec3::new(
                self.uniform(-1.0, 1.0),
                self.uniform(-1.0, 1.0),
                self.uniform(-1.0, 1.0),
            );
            if p.length_squared() <= 1.0 {
                return p;
            }
        }
    }
    fn unit(&mut self) -> DVec3 {
        loop {
            let p = self.in_ball();
            if p.length_squared() > 0.01 {
                return p.normalize();
            }
        }
    }
    fn rotation(&mut self) -> DQuat {
        loop {
            let q = [0; 4].map(|_| self.uniform(-1.0, 1.0));
            let l2: f64 = q.iter().map(|x| x * x).sum();
            if l2 > 0.01 && l2 <= 1.0 {
                return DQuat::from_xyzw(q[0], q[1], q[2], q[3]).normalize();
            }
        }
    }
}

/// One side of a pair: isect's shape, coal's size (radius, full length along z), and
/// whether isect's shape lies along y (so coal's pose gets the quarter turn).
struct Side {
    shape: Shape,
    coal: coal::Dims,
    along_y: bool,
    /// Bounding radius about the origin.
    reach: f64,
}

fn ball(r: f64) -> Side {
    Side {
        shape: Shape::Ball(Ball::new(DVec3::ZERO, r).unwrap()),
        coal: [r, 0.0],
        along_y: false,
        reach: r,
    }
}

fn capsule(half: f64, r: f64) -> Side {
    Side {
        shape: Shape::Capsule(Capsule::aligned(1, half, r).unwrap()),
        coal: [r, 2.0 * half],
        along_y: true,
        reach: half + r,
    }
}

fn cylinder(half: f64, r: f64) -> Side {
    Side {
        shape: Shape::Cylinder(Cylinder::new(half, r).unwrap()),
        coal: [r, 2.0 * half],
        along_y: true,
        reach: half.hypot(r),
    }
}

fn cone(half: f64, r: f64) -> Side {
    Side {
        shape: Shape::Cone(Cone::new(half, r).unwrap()),
        coal: [r, 2.0 * half],
        along_y: true,
        reach: half.hypot(r),
    }
}

/// coal's transform for isect's pose of `side`.
fn coal_transform(pose: &Pose, side: &Side) -> Transform {
    // Takes local z (coal's axis) to local y (isect's).
    let z_to_y = DQuat::from_rotation_x(-std::f64::consts::FRAC_PI_2);
    let q = if side.along_y {
        pose.rotation * z_to_y
    } else {
        pose.rotation
    };
    Transform {
        rotation: DMat3::from_quat(q).to_cols_array(),
        translation: pose.translation.to_array(),
    }
}

#[derive(Copy, Clone, PartialEq)]
enum Query {
    Distance,
    Contact,
}

struct Pair {
    name: &'static str,
    kind: Kind,
    a: Side,
    b: Side,
    queries: &'static [Query],
    /// isect's poses.
    poses: Vec<(Pose, Pose)>,
    /// The same poses for coal.
    transforms: Vec<(Transform, Transform)>,
    coal: coal::Bench,
}

/// `CASES` pose pairs: random rotations, A near the origin, B along a random direction
/// at the touching offset (found by bisection on isect's distance) times a uniform
/// factor in [0.5, 1.5], so about half overlap.
fn poses(seed: u64, a: &Side, b: &Side) -> Vec<(Pose, Pose)> {
    let mut rng = Rng(seed);
    (0..CASES)
        .map(|_| {
            let pa = Pose::new(rng.in_ball() * 0.5, rng.rotation());
            let qb = rng.rotation();
            let u = rng.unit();
            let at = |s: f64| Pose::new(pa.translation + u * s, qb);
            let (mut lo, mut hi) = (0.0, 1.01 * (a.reach + b.reach));
            for _ in 0..50 {
                let mid = 0.5 * (lo + hi);
                if !dispatch::intersects(&pa, &a.shape, &at(mid), &b.shape) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            (pa, at(hi * rng.uniform(0.5, 1.5)))
        })
        .collect()
}

fn pair(
    name: &'static str,
    kind: Kind,
    a: Side,
    b: Side,
    queries: &'static [Query],
    seed: u64,
) -> Pair {
    let poses = poses(seed, &a, &b);
    let transforms: Vec<_> = poses
        .iter()
        .map(|(pa, pb)| (coal_transform(pa, &a), coal_transform(pb, &b)))
        .collect();
    let coal = coal::Bench::new(kind, a.coal, b.coal, &transforms);
    Pair {
        name,
        kind,
        a,
        b,
        queries,
        poses,
        transforms,
        coal,
    }
}

/// The pairs; `only` builds just that one (by index).
fn pairs(only: Option<usize>) -> Vec<Pair> {
    use Query::*;
    let specs: [&dyn Fn() -> Pair; 5] = [
        &|| {
            pair(
                "ball–cylinder",
                Kind::SphereCylinder,
                ball(0.5),
                cylinder(0.8, 0.4),
                &[Distance],
                1,
            )
        },
        &|| {
            pair(
                "capsule–capsule",
                Kind::CapsuleCapsule,
                capsule(0.6, 0.3),
                capsule(0.4, 0.25),
                &[Distance, Contact],
                2,
            )
        },
        &|| {
            pair(
                "capsule–cone",
                Kind::CapsuleCone,
                capsule(0.6, 0.3),
                cone(0.7, 0.5),
                &[Distance],
                3,
            )
        },
        &|| {
            pair(
                "capsule–cylinder",
                Kind::CapsuleCylinder,
                capsule(0.6, 0.3),
                cylinder(0.8, 0.4),
                &[Distance],
                4,
            )
        },
        &|| {
            pair(
                "ball–cone",
                Kind::SphereCone,
                ball(0.5),
                cone(0.7, 0.5),
                &[Distance],
                5,
            )
        },
    ];
    match only {
        Some(i) => vec![specs[i]()],
        None => specs.iter().map(|f| f()).collect(),
    }
}

/// isect's answer per case as a signed distance: the distance, or for contacts
/// −depth (+∞ for no contact).
fn isect_values(p: &Pair, q: Query) -> Vec<f64> {
    p.poses
        .iter()
        .map(|(pa, pb)| match q {
            Query::Distance => dispatch::distance(pa, &p.a.shape, pb, &p.b.shape),
            Query::Contact => dispatch::contact(pa, &p.a.shape, pb, &p.b.shape, 0.0)
                .map_or(f64::INFINITY, |c| -c.depth),
        })
        .collect()
}

/// One pass of isect over the cases; the sum of the answers.
#[inline(never)]
fn isect_pass(p: &Pair, poses: &[(Pose, Pose)], q: Query) -> f64 {
    let mut sum = 0.0;
    for (pa, pb) in poses {
        let (a, b) = (black_box(&p.a.shape), black_box(&p.b.shape));
        sum += match q {
            Query::Distance => dispatch::distance(pa, a, pb, b),
            Query::Contact => dispatch::contact(pa, a, pb, b, 0.0).map_or(0.0, |c| c.depth),
        };
    }
    sum
}

/// One pass of isect's typed kernel for the pair (what a caller who knows both kinds
/// calls, as coal's functor is built for two kinds), or the dispatch where isect has
/// no kernel of its own; the sum of the answers.
#[inline(never)]
fn kernel_pass(p: &Pair, poses: &[(Pose, Pose)], q: Query) -> f64 {
    use isect::query::capsule_cylinder::distance_capsule_cylinder;
    use isect::query::contact::contact_capsule_capsule;
    use isect::query::distance::{distance_ball_shape, distance_capsule_capsule};
    let mut sum = 0.0;
    for (pa, pb) in poses {
        let (a, b) = (black_box(&p.a.shape), black_box(&p.b.shape));
        sum += match (q, a, b) {
            (Query::Distance, Shape::Ball(x), Shape::Cylinder(y)) => {
                distance_ball_shape(pa, x, pb, y)
            }
            (Query::Distance, Shape::Ball(x), Shape::Cone(y)) => distance_ball_shape(pa, x, pb, y),
            (Query::Distance, Shape::Capsule(x), Shape::Capsule(y)) => {
                distance_capsule_capsule(pa, x, pb, y)
            }
            (Query::Distance, Shape::Capsule(x), Shape::Cylinder(y)) => {
                distance_capsule_cylinder(pa, x, pb, y)
            }
            (Query::Contact, Shape::Capsule(x), Shape::Capsule(y)) => {
                contact_capsule_capsule(pa, x, pb, y, 0.0).map_or(0.0, |c| c.depth)
            }
            (Query::Distance, _, _) => dispatch::distance(pa, a, pb, b),
            (Query::Contact, _, _) => dispatch::contact(pa, a, pb, b, 0.0).map_or(0.0, |c| c.depth),
        };
    }
    sum
}

/// How isect's answers compare with coal's over the cases.
#[derive(Copy, Clone)]
struct Agreement {
    /// Max |isect − coal| over the cases both call in contact or apart (isect's
    /// distance against max(coal, 0)).
    max: f64,
    /// The case of that max.
    worst: usize,
    /// Cases farther apart than 1e-4.
    far: usize,
    /// Cases where one side reports a contact and the other none.
    mismatched: usize,
}

fn agreement(isect: &[f64], coal: &[f64], q: Query) -> Agreement {
    let mut a = Agreement {
        max: 0.0,
        worst: 0,
        far: 0,
        mismatched: 0,
    };
    for (k, (&i, &c)) in isect.iter().zip(coal).enumerate() {
        let c = if q == Query::Distance { c.max(0.0) } else { c };
        match (i.is_finite(), c.is_finite()) {
            (true, true) => {
                let d = (i - c).abs();
                a.far += usize::from(d > 1e-4);
                if d > a.max {
                    (a.max, a.worst) = (d, k);
                }
            }
            (false, false) => {}
            _ => a.mismatched += 1,
        }
    }
    a
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn ns_per_call(f: impl FnOnce() -> f64) -> f64 {
    let start = Instant::now();
    black_box(f());
    start.elapsed().as_secs_f64() * 1e9 / CASES as f64
}

/// One row of the table: a pair, a query, and coal's entry points for it.
struct Row<'a> {
    pair: &'a Pair,
    query: Query,
    methods: &'static [Method],
}

fn rows(pairs: &[Pair]) -> Vec<Row<'_>> {
    let mut rows = Vec::new();
    for p in pairs {
        for &q in p.queries {
            let analytic = matches!(p.kind, Kind::SphereCylinder | Kind::CapsuleCapsule);
            let methods: &'static [Method] = match q {
                Query::Distance if analytic => &[
                    Method::Distance,
                    Method::ComputeDistance,
                    Method::ShapeShape,
                    Method::Unsigned,
                ],
                Query::Distance => &[
                    Method::Distance,
                    Method::ComputeDistance,
                    Method::ShapeShape,
                    Method::Unsigned,
                    Method::UnsignedTight,
                ],
                Query::Contact => &[Method::Collide, Method::ComputeCollision],
            };
            rows.push(Row {
                pair: p,
                query: q,
                methods,
            });
        }
    }
    rows
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("perf") {
        perf(&args[1..]);
        return;
    }
    let pairs = pairs(None);
    let rows = rows(&pairs);
    let rounds = match args.iter().position(|a| a == "--rounds") {
        Some(i) => args[i + 1].parse().expect("--rounds N"),
        None => 7,
    };

    // Agreement, and the share of overlapping cases.
    let mut checks = Vec::new();
    for row in &rows {
        let ours = isect_values(row.pair, row.query);
        let overlap = ours.iter().filter(|&&d| d <= 0.0).count();
        eprintln!(
            "{} {}: {overlap}/{CASES} in contact",
            row.pair.name,
            query_name(row.query)
        );
        let per_method: Vec<_> = row
            .methods
            .iter()
            .map(|&m| {
                let theirs = row.pair.coal.values(m, CASES);
                let a = agreement(&ours, &theirs, row.query);
                eprintln!(
                    "    {}: max |Δ| {:.1e} (case {}: isect {}, coal {}), {} cases beyond 1e-4, {} contact mismatches",
                    m.name(),
                    a.max,
                    a.worst,
                    ours[a.worst],
                    theirs[a.worst],
                    a.far,
                    a.mismatched
                );
                a
            })
            .collect();
        checks.push(per_method);
    }

    // Timing: per round and row, BATCHES interleaved batches of each side.
    let mut coal_t: Vec<Vec<Vec<f64>>> = rows
        .iter()
        .map(|r| vec![Vec::new(); r.methods.len()])
        .collect();
    let mut isect_t: Vec<Vec<f64>> = vec![Vec::new(); rows.len()];
    let mut kernel_t: Vec<Vec<f64>> = vec![Vec::new(); rows.len()];
    for round in 0..rounds {
        for (k, row) in rows.iter().enumerate() {
            for batch in 0..BATCHES {
                let isect_first = (round + batch) % 2 == 0;
                if isect_first {
                    isect_t[k].push(ns_per_call(|| {
                        isect_pass(row.pair, &row.pair.poses, row.query)
                    }));
                    kernel_t[k].push(ns_per_call(|| {
                        kernel_pass(row.pair, &row.pair.poses, row.query)
                    }));
                }
                for (j, &m) in row.methods.iter().enumerate() {
                    coal_t[k][j].push(ns_per_call(|| row.pair.coal.run(m, CASES)));
                }
                if !isect_first {
                    kernel_t[k].push(ns_per_call(|| {
                        kernel_pass(row.pair, &row.pair.poses, row.query)
                    }));
                    isect_t[k].push(ns_per_call(|| {
                        isect_pass(row.pair, &row.pair.poses, row.query)
                    }));
                }
            }
        }
    }

    println!("| pair | query | coal entry | coal ns | isect `dispatch` ns | coal / isect | isect kernel ns | coal / kernel | max \\|Δ\\| | cases \\|Δ\\| > 1e-4 | contact mismatches |");
    println!("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (k, row) in rows.iter().enumerate() {
        let ours = median(isect_t[k].clone());
        let kernel = median(kernel_t[k].clone());
        for (j, &m) in row.methods.iter().enumerate() {
            let theirs = median(coal_t[k][j].clone());
            let a = checks[k][j];
            println!(
                "| {} | {} | {} | {:.1} | {:.1} | {:.2} | {:.1} | {:.2} | {:.1e} | {} | {} |",
                row.pair.name,
                query_name(row.query),
                m.name(),
                theirs,
                ours,
                theirs / ours,
                kernel,
                theirs / kernel,
                a.max,
                a.far,
                a.mismatched
            );
        }
    }
    eprintln!(
        "{rounds} rounds × {BATCHES} batches × {CASES} calls per side and row; kinds {:?}",
        pairs.iter().map(|p| p.kind).collect::<Vec<_>>()
    );
}

/// `perf <pair> <query> <passes>`: isect alone on one pair (0 ball–cylinder, 1
/// capsule–capsule, 2 capsule–cone, 3 capsule–cylinder, 4 ball–cone) and query
/// (`distance` or `contact`), for `perf record`; prints the ns/call of the cases in
/// contact and apart, isect's and coal's functor.
fn perf(args: &[String]) {
    let usage = "perf <pair 0..5> <distance|contact> <passes>";
    let pair = &pairs(Some(
        args.first().and_then(|i| i.parse().ok()).expect(usage),
    ))[0];
    let query = match args.get(1).map(String::as_str) {
        Some("contact") => Query::Contact,
        _ => Query::Distance,
    };
    let passes: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(100);
    let ours = isect_values(pair, query);
    let methods: &[Method] = match query {
        Query::Distance => &[
            Method::ComputeDistance,
            Method::Unsigned,
            Method::UnsignedTight,
        ],
        Query::Contact => &[Method::ComputeCollision],
    };
    for touching in [true, false] {
        let keep: Vec<usize> = (0..CASES)
            .filter(|&i| (ours[i] <= 0.0) == touching)
            .collect();
        let poses: Vec<_> = keep.iter().map(|&i| pair.poses[i]).collect();
        let transforms: Vec<_> = keep.iter().map(|&i| pair.transforms[i]).collect();
        let coal = coal::Bench::new(pair.kind, pair.a.coal, pair.b.coal, &transforms);
        let n = poses.len();
        let t = |f: &dyn Fn() -> f64| {
            let start = Instant::now();
            black_box(f());
            start.elapsed().as_secs_f64() * 1e9 / n as f64
        };
        let ours = median(
            (0..9)
                .map(|_| t(&|| isect_pass(pair, &poses, query)))
                .collect(),
        );
        eprintln!(
            "{} cases {}: isect {ours:.1} ns/call",
            n,
            if touching { "in contact" } else { "apart" },
        );
        for &m in methods {
            let theirs = median((0..9).map(|_| t(&|| coal.run(m, n))).collect());
            eprintln!("    coal {}: {theirs:.1} ns/call", m.name());
        }
    }
    if matches!(pair.kind, Kind::CapsuleCone | Kind::CapsuleCylinder) {
        gjk_iterations(pair, &ours);
    }
    eprintln!(
        "isect alone on {} {}: {passes} passes",
        pair.name,
        query_name(query)
    );
    for _ in 0..passes {
        black_box(isect_pass(pair, &pair.poses, query));
    }
}

/// isect's GJK loop on the pair's cores (`algo::gjk::closest_points`, what
/// `query::distance` runs for the pairs without a closed form): mean iterations and
/// the share that hit `GJK_MAX_ITERATIONS`, for the cases in contact and apart.
fn gjk_iterations(pair: &Pair, ours: &[f64]) {
    use isect::algo::gjk::{self, MinkowskiDiff, GJK_MAX_ITERATIONS};
    use isect::math::Isometry;
    for touching in [true, false] {
        let (mut n, mut sum, mut capped) = (0u32, 0u64, 0u32);
        for ((pa, pb), &d) in pair.poses.iter().zip(ours) {
            if (d <= 0.0) != touching {
                continue;
            }
            let diff = MinkowskiDiff::new(&pair.a.shape, &pair.b.shape, pa.inv_mul(pb));
            let it = gjk::closest_points(&diff, None).iterations;
            n += 1;
            sum += u64::from(it);
            capped += u32::from(it >= GJK_MAX_ITERATIONS);
        }
        eprintln!(
            "GJK on the cores, {} cases {}: {:.1} iterations on average, {capped} at the cap of {GJK_MAX_ITERATIONS}",
            n,
            if touching { "in contact" } else { "apart" },
            sum as f64 / f64::from(n.max(1)),
        );
    }
}

fn query_name(q: Query) -> &'static str {
    match q {
        Query::Distance => "distance",
        Query::Contact => "contact",
    }
}
