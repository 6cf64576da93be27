//! Point-aware internal-vertex correction of 2D polylines and heightfields
//! (`Composite::correct_normal_at`, used by `query::composite`): a contact whose
//! witness lies inside a segment gets the segment's normal, one at a shared vertex a
//! normal in that vertex's cone (convex) or one of its two face normals (flat,
//! concave), one at an open chain's end keeps its normal. Run in f32 and f64, at
//! scales 1e-3, 1 and 1e4; touching contacts included.

#[path = "support/rng.rs"]
mod rng;

use isect::algo::gjk::GjkVector;
use isect::algo::support::SupportMap;
use isect::math::{Isometry, Pose2, Real, Vector, Vector2};
use isect::query::composite;
use isect::query::contact::Contact;
use isect::query::dispatch;
use isect::shape::heightfield_2d::HeightField;
use isect::shape::polyline::FLAT_VERTEX_ULPS;
use isect::shape::shape_2d::Shape;
use isect::shape::{Aabb, Ball, Composite, Polyline};
use rng::Rng;

const SCALES: [f64; 3] = [1e-3, 1.0, 1e4];
/// Penetrations, as fractions of the scale: touching, tiny, slight.
const PENETRATIONS: [f64; 3] = [0.0, 1e-3, 0.05];

fn v<R: Real>(x: f64, y: f64) -> R::V2 {
    R::V2::new(R::from_f64(x), R::from_f64(y))
}

fn to64<R: Real>(p: R::V2) -> [f64; 2] {
    [p.x().to_f64(), p.y().to_f64()]
}

/// The prediction of every query, times the scale: touching shapes whose poses round a
/// few ulps apart still report their (depth ≈ 0) contact.
fn prediction<R: Real>(s: f64) -> R {
    R::from_f64(tol::<R>() * s)
}

/// Tolerance of a unit normal comparison (an angle in radians).
fn tol<R: Real>() -> f64 {
    if R::EPSILON.to_f64() > 1e-10 {
        1e-4
    } else {
        1e-9
    }
}

/// The angle from unit `a` to unit `b`, in `(−π, π]` (counter-clockwise positive).
fn angle<R: Real>(a: R::V2, b: R::V2) -> f64 {
    let ([ax, ay], [bx, by]) = (to64::<R>(a), to64::<R>(b));
    (ax * by - ay * bx).atan2(ax * bx + ay * by)
}

fn dir<R: Real>(radians: f64) -> R::V2 {
    v::<R>(radians.cos(), radians.sin())
}

fn ball<R: Real>(r: f64) -> Shape<R> {
    Shape::from(Ball::new(R::V2::ZERO, R::from_f64(r)).unwrap())
}

fn cuboid<R: Real>(hx: f64, hy: f64) -> Shape<R> {
    Shape::from(Aabb::from_center(R::V2::ZERO, v::<R>(hx, hy)).unwrap())
}

fn pose<R: Real>(x: f64, y: f64, angle: f64) -> Pose2<R> {
    Pose2::new(v::<R>(x, y), R::from_f64(angle))
}

fn chain<R: Real>(pts: &[(f64, f64)], s: f64) -> Polyline<R> {
    Polyline::new(
        pts.iter().map(|&(x, y)| v::<R>(x * s, y * s)).collect(),
        false,
    )
    .unwrap()
}

/// A flat polyline of 64 collinear segments over `x ∈ [−4s, 4s]` at `y = 0`, and a flat
/// heightfield with the same vertices.
fn flat_surfaces<R: Real>(s: f64) -> (Polyline<R>, HeightField<R>) {
    let pts: Vec<(f64, f64)> = (0..=64).map(|k| (-4.0 + 0.125 * k as f64, 0.0)).collect();
    let hf = HeightField::new(vec![R::ZERO; 65], v::<R>(8.0 * s, 1.0)).unwrap();
    (chain(&pts, s), hf)
}

/// The contact and every manifold of `mover` at `at` against `surface` at `frame`,
/// pushed `pen` into it: the contact and every manifold carry the surface normal
/// `frame · up` (within [`FLAT_VERTEX_ULPS`]), the contact has depth `pen`, no manifold
/// point is deeper and the deepest is `pen`.
fn check_flat<R, C>(
    what: &str,
    surface: &C,
    frame: &Pose2<R>,
    mover: &Shape<R>,
    at: &Pose2<R>,
    pen: f64,
    s: f64,
) where
    R: Real,
    R::V2: GjkVector<Pose = Pose2<R>>,
    C: Composite<R::V2, Part = Shape<R>>,
{
    let up = frame.transform_vector(v::<R>(0.0, 1.0));
    let at = frame.mul(at);
    // The documented tolerance: a normal within `FLAT_VERTEX_ULPS` of the face normal
    // is kept, anything else becomes it (plus the frame's rotation of it).
    let t = (FLAT_VERTEX_ULPS + 8.0) * R::EPSILON.to_f64();
    let dt = tol::<R>() * s;
    let (_, c) = composite::contact(frame, surface, &at, mover, prediction::<R>(s))
        .unwrap_or_else(|| panic!("{what}: no contact"));
    assert!(
        angle::<R>(up, c.normal).abs() <= t && (c.depth.to_f64() - pen).abs() <= dt,
        "{what}: normal {:?} depth {:?}, want {up:?} {pen}",
        c.normal,
        c.depth
    );
    let all = composite::contact_manifolds(frame, surface, &at, mover, prediction::<R>(s));
    let mut deepest = f64::NEG_INFINITY;
    for m in &all {
        let n = m.manifold.normal;
        assert!(
            angle::<R>(up, n).abs() <= t,
            "{what}: manifold normal {n:?}"
        );
        for p in m.manifold.points() {
            assert!(
                p.depth.to_f64() <= pen + dt,
                "{what}: manifold depth {:?}",
                p.depth
            );
            deepest = deepest.max(p.depth.to_f64());
        }
    }
    assert!(
        (deepest - pen).abs() <= dt,
        "{what}: deepest manifold point {deepest}"
    );
}

/// Mover positions along x over `[−2s, 2s]`: every 1/32 (each vertex exactly, and
/// between), and each vertex nudged by a few ulps and by 1e-4 either way.
fn slide_xs<R: Real>(s: f64) -> Vec<f64> {
    let mut xs: Vec<f64> = (0..=128).map(|k| (-2.0 + k as f64 / 32.0) * s).collect();
    let ulps = 16.0 * R::EPSILON.to_f64() * 2.0 * s;
    for k in 0..=32 {
        let x = (-2.0 + 0.125 * k as f64) * s;
        xs.extend([x - ulps, x + ulps, x - 1e-4 * s, x + 1e-4 * s]);
    }
    xs
}

/// A ball, an axis-aligned box and boxes turned by 20° and 45° (a corner down) slide
/// along a flat surface sunk by each penetration: never a ghost normal.
fn slide_over<R, C>(name: &str, surface: &C, frame: &Pose2<R>, s: f64)
where
    R: Real,
    R::V2: GjkVector<Pose = Pose2<R>>,
    C: Composite<R::V2, Part = Shape<R>>,
{
    let (r, hx, hy) = (0.5 * s, 0.6 * s, 0.3 * s);
    for &p in &PENETRATIONS {
        let pen = p * s;
        for x in slide_xs::<R>(s) {
            let what = |m: &str| format!("{name} s {s}: {m} at x {x}, pen {pen}");
            check_flat(
                &what("ball"),
                surface,
                frame,
                &ball(r),
                &pose(x, r - pen, 0.0),
                pen,
                s,
            );
            for turn in [0.0, 20f64.to_radians(), 45f64.to_radians()] {
                // The lowest corner of the turned box sits `pen` below the surface.
                let low = hx * turn.sin() + hy * turn.cos();
                let at = pose(x, low - pen, turn);
                check_flat(
                    &what(&format!("box {turn}")),
                    surface,
                    frame,
                    &cuboid(hx, hy),
                    &at,
                    pen,
                    s,
                );
            }
        }
    }
}

fn slide_flat<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    for s in SCALES {
        let (line, hf) = flat_surfaces::<R>(s);
        // In the surfaces' own frame, and after one rigid motion of the whole scene.
        for frame in [pose::<R>(0.0, 0.0, 0.0), pose::<R>(3.0 * s, -2.0 * s, 0.3)] {
            slide_over("polyline", &line, &frame, s);
            slide_over("heightfield", &hf, &frame, s);
        }
    }
}

// A ball and boxes (axis-aligned, turned with a corner down) slide along flat chains of
// 64 collinear segments, touching or sunk, at every vertex and between.
#[test]
fn sliding_along_a_flat_chain_keeps_the_face_normal() {
    slide_flat::<f32>();
    slide_flat::<f64>();
}

fn box_across_sample<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    for s in SCALES {
        let (_, hf) = flat_surfaces::<R>(s);
        let id = pose::<R>(0.0, 0.0, 0.0);
        let (hx, hy) = (0.3 * s, 0.2 * s);
        // The box centred on sample x = 0, and with the sample under a quarter of it.
        for cx in [0.0, 0.15 * s, -0.15 * s] {
            for &p in &PENETRATIONS {
                let pen = p * s;
                let at = pose::<R>(cx, hy - pen, 0.0);
                let what = format!("box across a sample s {s} at {cx}, pen {pen}");
                check_flat(&what, &hf, &id, &cuboid(hx, hy), &at, pen, s);
                // Every segment under the box, both sides of the sample included,
                // reports a manifold (`check_flat` checked their normals and depths).
                let all = composite::contact_manifolds(
                    &id,
                    &hf,
                    &at,
                    &cuboid::<R>(hx, hy),
                    prediction::<R>(s),
                );
                for i in 0..hf.part_count() as u32 {
                    let seg = hf.segment(i).unwrap();
                    let (a, b) = (seg.a.x().to_f64(), seg.b.x().to_f64());
                    if a >= cx - hx && b <= cx + hx {
                        let found = all.iter().any(|m| m.part_a == Some(i));
                        assert!(found, "{what}: no manifold for segment {i}");
                    }
                }
            }
        }
    }
}

// A box resting across an interior sample of a flat heightfield (centred on it, and
// off-centre), touching or sunk: up normal and depth from every segment under it.
#[test]
fn box_resting_across_a_heightfield_sample() {
    box_across_sample::<f32>();
    box_across_sample::<f64>();
}

/// Checks the contact of `mover` at `at` with `surface` (identity pose): normal
/// within [`tol`] of `want` and depth `depth`.
fn check_contact<R, C>(
    what: &str,
    surface: &C,
    mover: &Shape<R>,
    at: &Pose2<R>,
    want: R::V2,
    depth: f64,
    s: f64,
) where
    R: Real,
    R::V2: GjkVector<Pose = Pose2<R>>,
    C: Composite<R::V2, Part = Shape<R>>,
{
    let id = pose::<R>(0.0, 0.0, 0.0);
    let (_, c) = composite::contact(&id, surface, at, mover, prediction::<R>(s))
        .unwrap_or_else(|| panic!("{what}: no contact"));
    assert!(
        angle::<R>(want, c.normal).abs() <= tol::<R>()
            && (c.depth.to_f64() - depth).abs() <= tol::<R>() * s,
        "{what}: normal {:?} depth {:?}, want {want:?} {depth}",
        c.normal,
        c.depth
    );
}

/// A ridge with its convex vertex at the origin, seen from above: segment 0 flat
/// (normal at 90°), segment 1 falling at 30° (normal at 60°); as a polyline and as a
/// heightfield of the same three points.
fn ridge<R: Real>(s: f64) -> (Polyline<R>, HeightField<R>) {
    let drop = -2.0 * 30f64.to_radians().tan();
    let line = chain(&[(-2.0, 0.0), (0.0, 0.0), (2.0, drop)], s);
    let heights = vec![R::ZERO, R::ZERO, R::from_f64(drop * s)];
    (
        line,
        HeightField::new(heights, v::<R>(4.0 * s, 1.0)).unwrap(),
    )
}

fn ridge_cases<R, C>(name: &str, surface: &C, s: f64)
where
    R: Real,
    R::V2: GjkVector<Pose = Pose2<R>>,
    C: Composite<R::V2, Part = Shape<R>>,
{
    let (lo, hi) = (60f64.to_radians(), 90f64.to_radians());
    let r = 0.5 * s;
    for &p in &PENETRATIONS {
        let pen = p * s;
        // A ball round the vertex, its centre direction swept from 30° past one face
        // normal to 30° past the other: inside the cone the rounded normal, outside it
        // the face normal of the segment under the ball.
        for k in 0..=36 {
            let phi = lo - 30f64.to_radians() + k as f64 * 2.5f64.to_radians();
            let c = dir::<R>(phi);
            let at = Pose2::new(c * R::from_f64(r - pen), R::ZERO);
            let (want, depth) = if phi < lo {
                (lo, r - (r - pen) * (lo - phi).cos())
            } else if phi > hi {
                (hi, r - (r - pen) * (phi - hi).cos())
            } else {
                (phi, pen)
            };
            let what = format!(
                "{name} ridge s {s}: ball at {}°, pen {pen}",
                phi.to_degrees()
            );
            check_contact(&what, surface, &ball(r), &at, dir::<R>(want), depth, s);
        }
        // A box whose bottom face is perpendicular to the cone's bisector, resting on
        // the vertex: the box's face normal (inside the cone).
        let mid = 0.5 * (lo + hi);
        let (hx, hy) = (0.3 * s, 0.2 * s);
        let centre = dir::<R>(mid) * R::from_f64(hy - pen);
        let at = Pose2::new(centre, R::from_f64(mid - hi));
        let what = format!("{name} ridge s {s}: tilted box, pen {pen}");
        check_contact(&what, surface, &cuboid(hx, hy), &at, dir::<R>(mid), pen, s);
        // A level box on the flat segment reaching past the vertex: up.
        let at = pose::<R>(-0.1 * s, hy - pen, 0.0);
        let what = format!("{name} ridge s {s}: level box, pen {pen}");
        check_contact(&what, surface, &cuboid(hx, hy), &at, dir::<R>(hi), pen, s);
    }
}

fn convex_vertex<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    for s in SCALES {
        let (line, hf) = ridge::<R>(s);
        ridge_cases("polyline", &line, s);
        ridge_cases("heightfield", &hf, s);
    }
}

// A convex ridge vertex (30° turn): balls all round it and boxes resting on it get a
// normal inside the cone of the two face normals (the true rounded normal there).
#[test]
fn convex_vertex_keeps_its_cone() {
    convex_vertex::<f32>();
    convex_vertex::<f64>();
}

fn valley_cases<R, C>(name: &str, surface: &C, s: f64)
where
    R: Real,
    R::V2: GjkVector<Pose = Pose2<R>>,
    C: Composite<R::V2, Part = Shape<R>>,
{
    // Slopes x + y = 0 (left, normal at 45°) and y − x = 0 (right, normal at 135°).
    let (left, right) = (45f64.to_radians(), 135f64.to_radians());
    let r = 0.5 * s;
    let root2 = 2f64.sqrt();
    for &p in &PENETRATIONS {
        let pen = p * s;
        // A ball touching both slopes, centred and off to either side: the normal of
        // the nearer slope (either on the tie), never one between them.
        let h = root2 * (r - pen);
        for dx in [0.0, -0.05, 0.05, -0.2, 0.2] {
            let dx = dx * s;
            let (d_left, d_right) = ((dx + h) / root2, (h - dx) / root2);
            let at = pose::<R>(dx, h, 0.0);
            let what = format!("{name} valley s {s}: ball at {dx}, pen {pen}");
            let want = if d_left < d_right { left } else { right };
            let depth = r - d_left.min(d_right);
            if dx == 0.0 {
                let id = pose::<R>(0.0, 0.0, 0.0);
                let (_, c) =
                    composite::contact(&id, surface, &at, &ball::<R>(r), prediction::<R>(s))
                        .unwrap();
                let off = [left, right].map(|a| angle::<R>(dir::<R>(a), c.normal).abs());
                assert!(
                    off[0].min(off[1]) <= tol::<R>(),
                    "{what}: normal {:?}",
                    c.normal
                );
                assert!(
                    (c.depth.to_f64() - depth).abs() <= tol::<R>() * s,
                    "{what}: depth {:?}",
                    c.depth
                );
            } else {
                check_contact(&what, surface, &ball(r), &at, dir::<R>(want), depth, s);
            }
        }
        // A box turned 45°, its lowest corner `pen` below the valley's bottom: its two
        // lower faces lie parallel to the slopes, `pen / √2` into them. Every manifold
        // carries one of the two slope normals.
        let (hx, hy) = (0.3 * s, 0.3 * s);
        let at = pose::<R>(0.0, hx * root2 - pen, 45f64.to_radians());
        let id = pose::<R>(0.0, 0.0, 0.0);
        let what = format!("{name} valley s {s}: diamond, pen {pen}");
        let all = composite::contact_manifolds(
            &id,
            surface,
            &at,
            &cuboid::<R>(hx, hy),
            prediction::<R>(s),
        );
        assert!(!all.is_empty(), "{what}: no manifold");
        for m in &all {
            let off = [left, right].map(|a| angle::<R>(dir::<R>(a), m.manifold.normal).abs());
            assert!(
                off[0].min(off[1]) <= tol::<R>(),
                "{what}: normal {:?}",
                m.manifold.normal
            );
            let depth = m.manifold.max_depth().to_f64();
            assert!(
                (depth - pen / root2).abs() <= tol::<R>() * s,
                "{what}: depth {depth}"
            );
        }
    }
}

fn concave_vertex<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    for s in SCALES {
        let line = chain::<R>(&[(-2.0, 2.0), (0.0, 0.0), (2.0, 2.0)], s);
        let heights = [2.0, 0.0, 2.0].map(|h| R::from_f64(h * s)).to_vec();
        let hf = HeightField::new(heights, v::<R>(4.0 * s, 1.0)).unwrap();
        valley_cases("polyline", &line, s);
        valley_cases("heightfield", &hf, s);
    }
}

// A concave valley vertex (a right angle): a ball in the valley and a box whose corner
// pokes into its bottom get one of the two slope normals, never a blend.
#[test]
fn concave_vertex_gives_a_face_normal() {
    concave_vertex::<f32>();
    concave_vertex::<f64>();
}

fn free_end_cases<R, C>(name: &str, surface: &C, s: f64)
where
    R: Real,
    R::V2: GjkVector<Pose = Pose2<R>>,
    C: Composite<R::V2, Part = Shape<R>>,
{
    let r = 0.5 * s;
    for &p in &PENETRATIONS {
        let pen = p * s;
        // A ball beyond each end (2, 0) and (−2, 0), above, level and below (the
        // surface is two-sided): the rounded normal from the end to the centre.
        for (end, base) in [(2.0, 0.0), (-2.0, 180.0)] {
            for deg in [-80.0, -45.0, -10.0, 0.0, 10.0, 45.0, 80.0] {
                let phi = f64::to_radians(base + deg);
                let c = v::<R>(end * s, 0.0) + dir::<R>(phi) * R::from_f64(r - pen);
                let what = format!("{name} end {end} s {s}: ball at {}°, pen {pen}", base + deg);
                check_contact(
                    &what,
                    surface,
                    &ball(r),
                    &Pose2::new(c, R::ZERO),
                    dir::<R>(phi),
                    pen,
                    s,
                );
            }
        }
    }
}

fn free_ends<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    for s in SCALES {
        let line = chain::<R>(&[(-2.0, 0.0), (0.0, 0.0), (2.0, 0.0)], s);
        let hf = HeightField::new(vec![R::ZERO; 3], v::<R>(4.0 * s, 1.0)).unwrap();
        free_end_cases("polyline", &line, s);
        free_end_cases("heightfield", &hf, s);
    }
}

// The ends of an open chain are free vertices: a ball beyond them keeps the rounded
// normal at every angle, from either side, touching or sunk.
#[test]
fn open_chain_ends_keep_any_normal() {
    free_ends::<f32>();
    free_ends::<f64>();
}

/// A random open chain for the property checks: 3 to 8 segments 0.2 to 1 long, each
/// vertex either straight on (exactly, along x, or rounded, along a random heading)
/// or turned by 5° to 120° either way; as a polyline, or (`heights`) as a heightfield
/// of random heights, a third of them repeating the one before.
enum Surface<R: Real> {
    Line(Polyline<R>),
    Field(HeightField<R>),
}

fn random_surface<R: Real>(rng: &mut Rng, s: f64) -> Surface<R> {
    let n = 3 + rng.below(6);
    if rng.below(2) == 0 {
        let mut heights = vec![R::from_f64(rng.range(-1.0, 1.0) * s)];
        for _ in 0..n {
            let last = heights[heights.len() - 1];
            let h = match rng.below(3) {
                0 => last,
                _ => R::from_f64(rng.range(-1.0, 1.0) * s),
            };
            heights.push(h);
        }
        let width = R::from_f64(0.6 * n as f64 * s);
        return Surface::Field(HeightField::new(heights, R::V2::new(width, R::ONE)).unwrap());
    }
    let mut heading = if rng.below(2) == 0 {
        0.0
    } else {
        rng.range(-3.1, 3.1)
    };
    let mut p = (rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
    let mut pts = vec![p];
    for _ in 0..n {
        if rng.below(3) != 0 {
            let turn = rng.range(5.0, 120.0).to_radians();
            heading += if rng.below(2) == 0 { turn } else { -turn };
        }
        let len = rng.range(0.2, 1.0);
        p = (p.0 + len * heading.cos(), p.1 + len * heading.sin());
        pts.push(p);
    }
    Surface::Line(chain(&pts, s))
}

/// How the surface turns at the vertex shared by two segments, from the side of
/// `face`: by the geometry, independently of the library's tolerances.
#[derive(Debug, PartialEq)]
enum Turn {
    Flat,
    Convex,
    Concave,
    /// Neither clearly flat nor clearly turned (never generated): not checked.
    Unclear,
}

/// The turn from direction `d0` to the next segment's `d1`, seen from the side `left`
/// (true: the left of the chain's direction).
fn turn_at<R: Real>(d0: R::V2, d1: R::V2, left: bool) -> Turn {
    let sine = d0.perp_dot(d1).to_f64() / (d0.length() * d1.length()).to_f64();
    if sine.abs() <= tol::<R>() {
        return Turn::Flat;
    }
    if sine.abs() < 1e-2 {
        return Turn::Unclear;
    }
    // A left turn bends toward the left side: concave seen from there.
    if (sine > 0.0) == left {
        Turn::Concave
    } else {
        Turn::Convex
    }
}

impl<R: Real> Surface<R>
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    fn correct_at(&self, i: u32, p: R::V2, n: R::V2) -> R::V2 {
        match self {
            Surface::Line(c) => c.correct_normal_at(i, p, n),
            Surface::Field(c) => c.correct_normal_at(i, p, n),
        }
    }

    fn correct(&self, i: u32, n: R::V2) -> R::V2 {
        match self {
            Surface::Line(c) => c.correct_normal(i, n),
            Surface::Field(c) => c.correct_normal(i, n),
        }
    }

    fn vertices(&self) -> &[R::V2] {
        match self {
            Surface::Line(c) => c.vertices(),
            Surface::Field(c) => c.vertices(),
        }
    }

    /// Segment `i` as its two ends (chain order: segment `i` joins vertices `i`, `i+1`).
    fn seg(&self, i: usize) -> [R::V2; 2] {
        [self.vertices()[i], self.vertices()[i + 1]]
    }

    fn count(&self) -> usize {
        self.vertices().len() - 1
    }

    fn contact(&self, at: &Pose2<R>, mover: &Shape<R>) -> Option<(u32, Contact<R::V2>)> {
        let id = pose::<R>(0.0, 0.0, 0.0);
        match self {
            Surface::Line(c) => composite::contact(&id, c, at, mover, R::ZERO),
            Surface::Field(c) => composite::contact(&id, c, at, mover, R::ZERO),
        }
    }
}

/// Where a point lies on segment `i`: `Some(end)` at (or beyond) an end, `None` inside,
/// or not clear (`Err`) in the band between (the library decides there by its own
/// `√ε` zone; not checked).
fn place<R: Real>(seg: [R::V2; 2], p: R::V2) -> Result<Option<usize>, ()> {
    let e = seg[1] - seg[0];
    let len = e.length().to_f64();
    let from_a = (p - seg[0]).dot(e).to_f64() / len;
    let (sure, clear) = if R::EPSILON.to_f64() > 1e-10 {
        (1e-5, 1e-2)
    } else {
        (1e-10, 1e-6)
    };
    let scale = to64::<R>(p)[0].abs().max(to64::<R>(p)[1].abs()).max(len);
    let within = sure * scale;
    if from_a <= within {
        Ok(Some(0))
    } else if len - from_a <= within {
        Ok(Some(1))
    } else if from_a >= clear * len && len - from_a >= clear * len {
        Ok(None)
    } else {
        Err(())
    }
}

/// Checks `got`, the correction of `n` at a point of segment `i` located at `at`
/// (see [`place`]), against the normals really there; `what` names the case.
fn check_cone<R: Real>(
    what: &str,
    sf: &Surface<R>,
    i: usize,
    at: Option<usize>,
    n: R::V2,
    got: R::V2,
) where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let t = tol::<R>();
    assert!(
        got.is_finite() && (got.length().to_f64() - 1.0).abs() <= t,
        "{what}: {got:?} not unit"
    );
    let seg = sf.seg(i);
    let left = (seg[1] - seg[0]).perp().try_normalize().unwrap();
    let face = if n.dot(left) >= R::ZERO { left } else { -left };
    let Some(end) = at else {
        assert!(
            angle::<R>(face, got).abs() <= t,
            "{what}: inside, {got:?} is not {face:?}"
        );
        return;
    };
    // The vertex at this end and the other segment there (none at a free end).
    let other = match end {
        0 if i > 0 => Some((sf.seg(i - 1), true)),
        1 if i + 1 < sf.count() => Some((sf.seg(i + 1), false)),
        _ => None,
    };
    let Some((o, before)) = other else {
        assert_eq!(got, n, "{what}: a free end keeps the normal");
        return;
    };
    let o_left = (o[1] - o[0]).perp().try_normalize().unwrap();
    // Both segments' left normals are in chain order: the same side is the same sign.
    let from_left = face.dot(left) > R::ZERO;
    let o_face = if from_left { o_left } else { -o_left };
    // The turn in chain order: the earlier segment, then the later one.
    let (d, d_other) = (seg[1] - seg[0], o[1] - o[0]);
    let turn = if before {
        turn_at::<R>(d_other, d, from_left)
    } else {
        turn_at::<R>(d, d_other, from_left)
    };
    let (a, b) = (angle::<R>(face, got), angle::<R>(face, o_face));
    match turn {
        Turn::Flat => assert!(a.abs() <= t, "{what}: flat vertex, {got:?} not {face:?}"),
        Turn::Convex => {
            // Inside the cone from `face` (angle 0) to `o_face` (angle b).
            let (lo, hi) = (b.min(0.0), b.max(0.0));
            assert!(
                a >= lo - t && a <= hi + t,
                "{what}: convex, {a} outside [{lo}, {hi}]"
            );
            let inside = angle::<R>(face, n);
            if inside > lo + t && inside < hi - t {
                assert_eq!(got, n, "{what}: a normal inside the cone is kept");
            }
        }
        Turn::Concave => {
            let near = a.abs().min(angle::<R>(o_face, got).abs());
            assert!(near <= t, "{what}: concave, {got:?} is neither face normal");
            // The nearer of the two face normals to `n`.
            let (to_face, to_other) = (angle::<R>(face, n).abs(), angle::<R>(o_face, n).abs());
            if (to_face - to_other).abs() > t {
                let want = if to_face < to_other { face } else { o_face };
                assert!(
                    angle::<R>(want, got).abs() <= t,
                    "{what}: concave, {got:?} not the nearer {want:?}"
                );
            }
        }
        Turn::Unclear => {}
    }
}

/// How far below the segment's top along `n` the point `p` lies, relative to the
/// larger of the segment's length and `p`'s coordinates: `Some(true)` when `p` is
/// clearly a deepest point (a witness of a contact with normal `n`), `Some(false)`
/// when clearly not (a witness found for another normal), `None` between.
fn witness_fits<R: Real>(seg: [R::V2; 2], p: R::V2, n: R::V2) -> Option<bool> {
    let below = (seg[0].dot(n).max(seg[1].dot(n)) - p.dot(n)).to_f64();
    let [x, y] = to64::<R>(p);
    let size = (seg[1] - seg[0])
        .length()
        .to_f64()
        .max(x.abs())
        .max(y.abs());
    let (sure, clear) = if R::EPSILON.to_f64() > 1e-10 {
        (1e-5, 1e-2)
    } else {
        (1e-10, 1e-6)
    };
    if below <= sure * size {
        Some(true)
    } else if below >= clear * size {
        Some(false)
    } else {
        None
    }
}

fn direct_properties<R: Real>(seed: u64)
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let mut rng = Rng(seed);
    let (mut fitting, mut stale) = (0, 0);
    // A lean of the precision of a GJK/EPA normal: above the flat tolerance, below √ε.
    let noise = 0.25 * R::EPSILON.to_f64().sqrt();
    for case in 0..3000 {
        let s = SCALES[case % 3];
        let sf = random_surface::<R>(&mut rng, s);
        let i = rng.below(sf.count());
        let seg = sf.seg(i);
        let e = seg[1] - seg[0];
        // The point: inside, exactly on an end, or beyond an end.
        let (p, at) = match rng.below(4) {
            0 => (seg[0] + e * R::from_f64(rng.range(0.05, 0.95)), None),
            1 => (seg[0], Some(0)),
            2 => (seg[1], Some(1)),
            _ => (seg[1] + e * R::from_f64(rng.range(0.0, 0.2)), Some(1)),
        };
        // The normal: any direction, a face normal off by noise, or leaning toward the
        // end the point is at.
        let face_angle = angle::<R>(v::<R>(1.0, 0.0), e.perp().try_normalize().unwrap());
        let e_angle = angle::<R>(v::<R>(1.0, 0.0), e.try_normalize().unwrap());
        let n = match (rng.below(3), at) {
            (0, _) => dir::<R>(rng.range(-3.2, 3.2)),
            (1, _) => {
                let flip = if rng.below(2) == 0 {
                    0.0
                } else {
                    std::f64::consts::PI
                };
                let lean = if rng.below(2) == 0 { noise } else { -noise };
                dir::<R>(face_angle + flip + lean)
            }
            (_, end) => {
                let out = if end == Some(0) {
                    e_angle + std::f64::consts::PI
                } else {
                    e_angle
                };
                dir::<R>(out + rng.range(-1.5, 1.5))
            }
        };
        let got = sf.correct_at(i as u32, p, n);
        let what = format!("case {case} (seed {seed}), segment {i}, n {n:?}, at {at:?}");
        match witness_fits::<R>(seg, p, n) {
            Some(true) => {
                fitting += 1;
                check_cone(&what, &sf, i, at, n, got);
                // At an end the normal leans toward (or lies on the face normal), the
                // direction-only correction sees the same vertex: the same answer.
                let out = if at == Some(0) { -e } else { e };
                if at.is_some() && n.dot(out).to_f64() > 1e-3 * e.length().to_f64() {
                    assert_eq!(got, sf.correct(i as u32, n), "{what}: not correct_normal");
                }
            }
            // A witness of another normal: the direction-only correction answers.
            Some(false) => {
                stale += 1;
                assert_eq!(got, sf.correct(i as u32, n), "{what}: stale witness");
            }
            None => {}
        }
    }
    assert!(
        fitting > 1000 && stale > 500,
        "{fitting} fitting, {stale} stale witnesses"
    );
}

// Random chains and heightfields (flat, convex and concave vertices, free ends), points
// inside segments, on their ends and beyond them, and normals that fit them (a face
// normal off by a GJK-sized lean, a lean toward the point's end) or not: for a fitting
// witness the corrected normal lies in the real normals there (the face normal inside,
// the cone at a convex vertex, a face normal at a flat or concave one, unchanged at a
// free end) and equals the direction-only correction at an end the normal leans to;
// for a witness of another normal it is the direction-only correction.
#[test]
fn corrected_normals_lie_in_the_vertex_cone() {
    direct_properties::<f32>(11);
    direct_properties::<f64>(12);
}

fn query_properties<R: Real>(seed: u64)
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let mut rng = Rng(seed);
    let (mut hits, mut changed, mut total, mut flipped) = (0, 0, 0, 0);
    for case in 0..1500 {
        let s = SCALES[case % 3];
        let sf = random_surface::<R>(&mut rng, s);
        let i = rng.below(sf.count());
        let seg = sf.seg(i);
        // A mover near a random point of a segment, half of them exactly at a vertex.
        let u = if rng.below(2) == 0 {
            rng.below(2) as f64
        } else {
            rng.unit()
        };
        let anchor = seg[0] + (seg[1] - seg[0]) * R::from_f64(u);
        let (mover, reach) = if rng.below(2) == 0 {
            let r = rng.range(0.1, 0.6) * s;
            (ball::<R>(r), r)
        } else {
            let (hx, hy) = (rng.range(0.05, 0.5) * s, rng.range(0.05, 0.5) * s);
            (cuboid::<R>(hx, hy), hx.min(hy))
        };
        let off = dir::<R>(rng.range(-3.2, 3.2)) * R::from_f64(reach * rng.range(0.5, 3.0));
        let at = Pose2::new(anchor + off, R::from_f64(rng.range(-3.2, 3.2)));
        total += 1;
        let Some((k, c)) = sf.contact(&at, &mover) else {
            continue;
        };
        hits += 1;
        // Every part's own contact: the answer comes from the deepest.
        let id = pose::<R>(0.0, 0.0, 0.0);
        let raws: Vec<Option<Contact<R::V2>>> = (0..sf.count())
            .map(|j| {
                let [a, b] = sf.seg(j);
                let part = Shape::Segment(isect::shape::Segment { a, b });
                dispatch::contact(&id, &part, &at, &mover, R::ZERO)
            })
            .collect();
        let raw = raws[k as usize].unwrap();
        let deepest = raws
            .iter()
            .flatten()
            .map(|r| r.depth)
            .fold(R::NEG_INFINITY, R::max);
        let what = format!("case {case} (seed {seed}), part {k}");
        assert_eq!(raw.depth, deepest, "{what}: not the deepest part");
        if c.normal == raw.normal {
            // Nothing corrected: the part's own contact, unchanged.
            assert_eq!(
                (c.depth, c.point_a, c.point_b),
                (raw.depth, raw.point_a, raw.point_b),
                "{what}"
            );
            continue;
        }
        changed += 1;
        // Re-measured along the corrected normal: never shallower, witnesses apart by it.
        let dt = tol::<R>() * s;
        assert!(
            c.depth.to_f64() >= raw.depth.to_f64() - dt,
            "{what}: {:?} < {:?}",
            c.depth,
            raw.depth
        );
        let gap = c.point_a - c.point_b - c.normal * c.depth;
        assert!(
            gap.length().to_f64() <= dt,
            "{what}: witnesses {gap:?} off the normal"
        );
        let Ok(place_at) = place::<R>(sf.seg(k as usize), raw.point_a) else {
            continue;
        };
        // The correction on the raw normal's side, or the other side of the two-sided
        // chain when the part pair overlaps less along it (then a normal valid there).
        let own_side = sf
            .correct_at(k, raw.point_a, raw.normal)
            .try_normalize()
            .unwrap();
        let [a, b] = sf.seg(k as usize);
        let part: Shape<R> = Shape::Segment(isect::shape::Segment { a, b });
        let overlap =
            |m: R::V2| (part.support(&id, m).dot(m) - mover.support(&at, -m).dot(m)).to_f64();
        if c.normal.dot(own_side) < R::ZERO {
            flipped += 1;
            assert!(
                overlap(c.normal) <= overlap(own_side),
                "{what}: flipped to {:?}, which pushes more than {own_side:?}",
                c.normal
            );
            check_cone(&what, &sf, k as usize, place_at, c.normal, c.normal);
        } else {
            check_cone(&what, &sf, k as usize, place_at, raw.normal, c.normal);
        }
    }
    let rate = hits as f64 / total as f64;
    eprintln!("contacts {hits} of {total}, {changed} corrected, {flipped} to the other side");
    assert!((0.3..=0.9).contains(&rate), "contact rate {rate}");
    assert!(
        changed * 20 > hits,
        "only {changed} of {hits} contacts corrected"
    );
}

// Random chains and heightfields against balls and turned boxes near them (half at a
// vertex): the contact is the deepest part's, unchanged when its normal is kept;
// otherwise its normal lies in the real normals at its witness, and its depth is
// never below the part's own.
#[test]
fn query_contacts_are_corrected_at_their_witness() {
    query_properties::<f32>(21);
    query_properties::<f64>(22);
}

// NaN and out-of-range input: a NaN point falls back to the direction-only
// correction, a NaN normal and an index past the end come back unchanged.
fn bad_input<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let line = chain::<R>(&[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)], 1.0);
    let hf = HeightField::new(vec![R::ZERO; 3], v::<R>(2.0, 1.0)).unwrap();
    let lean = dir::<R>(1.0);
    let nan = v::<R>(f64::NAN, 0.0);
    assert_eq!(
        line.correct_normal_at(0, nan, lean),
        line.correct_normal(0, lean)
    );
    assert_eq!(
        hf.correct_normal_at(1, nan, lean),
        hf.correct_normal(1, lean)
    );
    assert!(line.correct_normal_at(0, v::<R>(0.5, 0.0), nan).is_nan());
    assert_eq!(line.correct_normal_at(7, v::<R>(0.5, 0.0), lean), lean);
    assert_eq!(hf.correct_normal_at(7, v::<R>(0.5, 0.0), lean), lean);
}

#[test]
fn bad_input_is_passed_through() {
    bad_input::<f32>();
    bad_input::<f64>();
}

// The chain (0,0) → (1,0) → (2,−1), convex from above at (1,0), free at both ends. The
// feature comes from the point: inside the segment a normal off the face normal by a
// GJK-sized lean toward the free end or the convex vertex becomes the face normal (the
// direction-only rule keeps both leans); at (1,0) the vertex's cone; at (0,0) any
// normal. A point that cannot be the witness of its normal (not a deepest point of the
// segment along it) leaves the decision to the normal's lean.
fn point_decides<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    let noise = 0.25 * R::EPSILON.to_f64().sqrt();
    let deg = f64::to_radians;
    for s in SCALES {
        let roof = chain::<R>(&[(0.0, 0.0), (1.0, 0.0), (2.0, -1.0)], s);
        let up = v::<R>(0.0, 1.0);
        let inside = v::<R>(0.5 * s, 0.0);
        let close = |a: R::V2, b: R::V2| angle::<R>(a, b).abs() <= tol::<R>();
        for lean in [noise, -noise] {
            let n = dir::<R>(deg(90.0) + lean);
            assert_eq!(roof.correct_normal(0, n), n, "s {s}: the old rule keeps it");
            assert_eq!(
                roof.correct_normal_at(0, inside, n),
                up,
                "s {s}, lean {lean}"
            );
            // From below the same point: the face normal below.
            let n = dir::<R>(deg(-90.0) + lean);
            assert_eq!(
                roof.correct_normal_at(0, inside, n),
                -up,
                "s {s}, lean {lean}"
            );
        }
        // Clear leans from a point inside: the witness of another normal.
        let (to_free, to_vertex) = (dir::<R>(deg(100.0)), dir::<R>(deg(70.0)));
        assert_eq!(roof.correct_normal_at(0, inside, to_free), to_free);
        assert_eq!(roof.correct_normal_at(0, inside, to_vertex), to_vertex);
        // At the convex vertex: 70° is inside its cone (45° to 90°), 30° is clamped to
        // the next segment's normal, the face normal off by noise is kept or snapped.
        let vertex = v::<R>(s, 0.0);
        assert_eq!(roof.correct_normal_at(0, vertex, to_vertex), to_vertex);
        let past = roof.correct_normal_at(0, vertex, dir::<R>(deg(30.0)));
        assert!(close(past, dir::<R>(deg(45.0))), "s {s}: {past:?}");
        let back = roof.correct_normal_at(0, vertex, dir::<R>(deg(90.0) + noise));
        assert_eq!(back, up, "s {s}: a lean back over the segment");
        // A witness a few ulps off the vertex, or beyond it, is at the vertex.
        let nudged = v::<R>(s * (1.0 - 4.0 * R::EPSILON.to_f64()), 0.0);
        assert_eq!(roof.correct_normal_at(0, nudged, to_vertex), to_vertex);
        let beyond = v::<R>(1.1 * s, 0.0);
        assert_eq!(roof.correct_normal_at(0, beyond, to_vertex), to_vertex);
        // At the free end (0,0): any normal, from either side.
        for deg in [100.0, 170.0, -100.0, -170.0] {
            let n = dir::<R>(f64::to_radians(deg));
            assert_eq!(
                roof.correct_normal_at(0, v::<R>(0.0, 0.0), n),
                n,
                "s {s}, {deg}°"
            );
        }
    }
}

#[test]
fn the_witness_point_decides_the_feature() {
    point_decides::<f32>();
    point_decides::<f64>();
}

/// The normal and depth of the composite pair `a`–`b` (both at their poses).
fn pair_contact<R, A, B>(pa: &Pose2<R>, a: &A, pb: &Pose2<R>, b: &B, s: f64) -> Option<(R::V2, f64)>
where
    R: Real,
    R::V2: GjkVector<Pose = Pose2<R>>,
    A: Composite<R::V2, Part = Shape<R>>,
    B: Composite<R::V2, Part = Shape<R>>,
{
    let (_, _, c) = composite::contact_composites(pa, a, pb, b, prediction::<R>(s))?;
    Some((c.normal, c.depth.to_f64()))
}

fn wedge_slides_over<R, C>(name: &str, surface: &C, s: f64)
where
    R: Real,
    R::V2: GjkVector<Pose = Pose2<R>>,
    C: Composite<R::V2, Part = Shape<R>>,
{
    // A wedge: two arms rising at 45° from its tip, a convex vertex pointing down.
    let wedge = chain::<R>(&[(-0.3, 0.3), (0.0, 0.0), (0.3, 0.3)], s);
    let id = pose::<R>(0.0, 0.0, 0.0);
    let up = v::<R>(0.0, 1.0);
    let t = (FLAT_VERTEX_ULPS + 8.0) * R::EPSILON.to_f64();
    for &p in &PENETRATIONS {
        let pen = p * s;
        for x in slide_xs::<R>(s) {
            let what = format!("{name} s {s}: wedge tip at x {x}, pen {pen}");
            let at = pose::<R>(x, -pen, 0.0);
            // Both orders: the surface's normal, from the surface to the wedge.
            let ab = pair_contact(&id, surface, &at, &wedge, s);
            let ba = pair_contact(&at, &wedge, &id, surface, s);
            for (got, want) in [(ab, up), (ba, -up)] {
                let (n, depth) = got.unwrap_or_else(|| panic!("{what}: no contact"));
                assert!(
                    angle::<R>(want, n).abs() <= t && (depth - pen).abs() <= tol::<R>() * s,
                    "{what}: normal {n:?} depth {depth}, want {want:?} {pen}"
                );
            }
        }
    }
}

fn wedge_slides<R: Real>()
where
    R::V2: GjkVector<Pose = Pose2<R>>,
{
    for s in SCALES {
        let (line, hf) = flat_surfaces::<R>(s);
        wedge_slides_over("polyline", &line, s);
        wedge_slides_over("heightfield", &hf, s);
    }
}

// Two composites: a polyline wedge (its tip a convex vertex) slides tip down along the
// flat chains, touching or sunk, across every vertex: the surface normal both ways
// (the tip's cone holds it, the flat vertices and segment interiors give it). A wedge
// arm crossing a surface segment has its own minimum translation along the arm's
// normal, below the surface; the correction turns it into the face normal on that
// side (the surface is two-sided), whose push is the arm's whole height: the other
// side, which pushes less, must win (`shallower_side`; before it, a third of the
// cases answered normal down, depth 0.25 for a tip 0.05 deep).
#[test]
fn a_wedge_slides_along_a_flat_chain() {
    wedge_slides::<f32>();
    wedge_slides::<f64>();
}
