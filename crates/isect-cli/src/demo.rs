//! `isect demo`: a seeded scene of thousands of convex shapes of every kind bouncing
//! in a box through the collision world, one `update()` per frame, over a fixed
//! heightfield ground and among a few moving composites (a concave polygon with a
//! hole, a polyline, a mesh, compounds), with a summary per phase and an SVG of the
//! last frame.
//!
//! The world's `update()` runs the broad and the narrow phase together and does
//! not time them apart, so on every [`SAMPLE_EVERY`]-th frame the demo also times
//! the narrow phase on its own: `dispatch::contact` on every pair of shapes whose
//! boxes overlap (the candidates `update()` hands its narrow phase, found with the
//! world's box queries, untimed). The broad phase is that frame's `update()` time
//! minus its narrow phase.

use crate::demo_shapes::DemoSpace;
use crate::error::{world_message, CliError};
use crate::output::write_atomic;
use crate::render::{contact_mark, ray_mark, svg_limit};
use crate::rng::Rng;
use crate::space::{Space, SpaceWorld, View, D2, D3};
use crate::svg::{Drawing, Outline, DEFAULT_MAX_SVG_BYTES};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use isect::math::Vector;
use isect::query::dispatch;
use isect::shape::Ray;
use isect::world::{Filter, Handle, World};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The narrow phase is timed on its own every this many frames.
const SAMPLE_EVERY: usize = 10;
/// Rays cast into the last frame.
const RAYS: usize = 24;
/// Most shapes the demo accepts (memory stays well under a gigabyte).
const MAX_SHAPES: usize = 200_000;

/// Options of `isect demo`.
#[derive(Args)]
pub struct DemoArgs {
    /// Number of shapes (every kind in turn).
    #[arg(long, default_value_t = 3000)]
    pub shapes: usize,
    /// Number of frames (one world update each).
    #[arg(long, default_value_t = 300)]
    pub frames: usize,
    /// Only this dimension (default: 2D, then 3D).
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=3))]
    pub dim: Option<u8>,
    /// Where to write the SVG of the last frame (2D when run; else the 3D frame
    /// projected onto x–y).
    #[arg(short, long, default_value = "demo.svg")]
    pub output: PathBuf,
    /// Seed of the random scene.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The largest SVG written, in MiB: a larger picture is refused (the run's
    /// summary is still printed), nothing written.
    #[arg(long, default_value_t = DEFAULT_MAX_SVG_BYTES >> 20)]
    pub max_svg_mb: usize,
}

/// Runs `isect demo`.
///
/// # Errors
/// Exit code 2 for too many shapes or a picture over `--max-svg-mb`; exit code 1
/// when the SVG cannot be written; exit code 3 when the library refuses the demo's
/// own scene (a bug).
pub fn run(args: &DemoArgs) -> Result<(), CliError> {
    if args.shapes > MAX_SHAPES {
        let msg = format!("--shapes {} is more than {MAX_SHAPES}", args.shapes);
        return Err(CliError::input(msg));
    }
    let mut picture = None;
    if args.dim != Some(3) {
        picture = Some(simulate::<D2>(args)?);
    }
    if args.dim != Some(2) {
        let drawing = simulate::<D3>(args)?;
        picture.get_or_insert(drawing);
    }
    if let Some(drawing) = picture {
        let svg = drawing
            .to_svg(svg_limit(args.max_svg_mb))
            .map_err(CliError::input)?;
        write_atomic(&args.output, svg.as_bytes())?;
        out!("wrote {}", args.output.display());
    }
    Ok(())
}

/// One moving shape.
pub struct Body<Sp: Space> {
    handle: Handle,
    pose: Sp::Pose,
    velocity: Sp::V,
    spin: f64,
    /// Half the diagonal of its box: how close to a wall its centre may come.
    reach: f64,
    /// The name of one of the demo's composites (ground, mesh, compound...).
    composite: Option<&'static str>,
}

/// Times and counts over the run.
#[derive(Default)]
pub struct Stats {
    /// Frames run.
    pub frames: usize,
    move_time: Duration,
    update_time: Duration,
    sampled_update_time: Duration,
    narrow_time: Duration,
    sampled: usize,
    candidates: usize,
    touching: usize,
    touching_max: usize,
    touching_composites: usize,
    started: usize,
    stopped: usize,
}

/// Runs the demo in one dimension; prints its summary and returns its last frame.
fn simulate<Sp: DemoSpace>(args: &DemoArgs) -> Result<Drawing, CliError> {
    let mut rng = Rng::new(args.seed);
    let half = box_half::<Sp>(args.shapes);
    let (mut world, mut bodies) = populate::<Sp>(&mut rng, args.shapes, half)?;
    let bar = progress(args.frames as u64, Sp::DIM);
    let mut stats = Stats::default();
    for frame in 0..args.frames {
        let update = run_frame(&mut world, &mut bodies, half, &mut stats)?;
        if frame % SAMPLE_EVERY == 0 {
            stats.sampled_update_time += update;
            sample_narrow(&world, &bodies, &mut stats);
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let (drawing, rays) = last_frame(&world, &bodies, &mut rng, half);
    let composites: Vec<&str> = bodies.iter().filter_map(|b| b.composite).collect();
    print_summary::<Sp>(args.shapes, half, &stats, rays, &composites);
    Ok(drawing)
}

/// Half the width of the demo's box for `shapes` shapes: about 10 % of it is
/// covered, enough for a busy narrow phase.
pub fn box_half<Sp: Space>(shapes: usize) -> f64 {
    1.5 * (shapes.max(1) as f64).powf(1.0 / Sp::DIM as f64)
}

/// A progress bar on stderr (hidden when stderr is not a terminal).
fn progress(frames: u64, dim: usize) -> ProgressBar {
    let bar = ProgressBar::new(frames);
    let template = format!("{dim}D {{bar:40}} {{pos}}/{{len}} frames {{elapsed_precise}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}

/// The world of the demo's composites and `n` random convex shapes (every kind in
/// turn) in `[-half, half]^DIM`.
pub fn populate<Sp: DemoSpace>(
    rng: &mut Rng,
    n: usize,
    half: f64,
) -> Result<(SpaceWorld<Sp>, Vec<Body<Sp>>), CliError> {
    let fail = |e: isect::ShapeError| CliError::internal(format!("demo scene: {e}"));
    let refused = |e: isect::world::WorldError| {
        CliError::internal(format!("demo scene: {}", world_message(&e)))
    };
    let mut world = World::new();
    let mut bodies = Vec::with_capacity(n + 4);
    for c in Sp::composites(half).map_err(fail)? {
        let handle = world
            .insert(c.shape, c.pose, Filter::ALL)
            .map_err(refused)?;
        bodies.push(Body {
            handle,
            pose: c.pose,
            velocity: c.velocity,
            spin: c.spin,
            reach: reach::<Sp>(&world, handle),
            composite: Some(c.name),
        });
    }
    for i in 0..n {
        let size = rng.range(0.5, 1.5);
        let shape = Sp::random_shape(rng, i % Sp::KINDS, size).map_err(fail)?;
        let pose = Sp::random_pose(rng, half * 0.9);
        let handle = world.insert(shape, pose, Filter::ALL).map_err(refused)?;
        bodies.push(Body {
            handle,
            pose,
            velocity: Sp::random_velocity(rng, half * 0.004),
            spin: rng.range(-0.03, 0.03),
            reach: reach::<Sp>(&world, handle),
            composite: None,
        });
    }
    world.update();
    Ok((world, bodies))
}

/// Half the diagonal of a shape's box in the world.
fn reach<Sp: Space>(world: &SpaceWorld<Sp>, handle: Handle) -> f64 {
    world
        .aabb(handle)
        .map_or(0.0, |b| b.half_extents().length())
}

/// Moves every body (bouncing off the walls), then updates the world; returns the
/// time of the update.
pub fn run_frame<Sp: DemoSpace>(
    world: &mut SpaceWorld<Sp>,
    bodies: &mut [Body<Sp>],
    half: f64,
    stats: &mut Stats,
) -> Result<Duration, CliError> {
    let start = Instant::now();
    // Fixed bodies (the ground) keep their pose: no refit for them.
    let moving = bodies
        .iter_mut()
        .filter(|b| b.spin != 0.0 || b.velocity != Sp::V::ZERO);
    for b in moving {
        b.velocity = bounce::<Sp>(Sp::position(&b.pose), b.velocity, half - b.reach);
        b.pose = Sp::advance(&b.pose, b.velocity, b.spin);
        world
            .set_pose(b.handle, b.pose)
            .map_err(|e| CliError::internal(format!("demo: {}", world_message(&e))))?;
    }
    let moved = Instant::now();
    let events = world.update();
    let update = moved.elapsed();
    stats.update_time += update;
    stats.move_time += moved - start;
    stats.frames += 1;
    stats.started += events.started.len();
    stats.stopped += events.stopped.len();
    let touching = world.contacts().len();
    stats.touching += touching;
    stats.touching_max = stats.touching_max.max(touching);
    stats.touching_composites += composite_contacts(world, bodies);
    Ok(update)
}

/// The world's contacts that involve one of the demo's composites.
fn composite_contacts<Sp: Space>(world: &SpaceWorld<Sp>, bodies: &[Body<Sp>]) -> usize {
    // A handful of composites: a linear search beats a set.
    let composites: Vec<Handle> = bodies
        .iter()
        .filter(|b| b.composite.is_some())
        .map(|b| b.handle)
        .collect();
    let contacts = world.contacts().iter();
    contacts
        .filter(|c| composites.contains(&c.a) || composites.contains(&c.b))
        .count()
}

/// `velocity` with each component that carries the centre past `±limit` reversed.
fn bounce<Sp: Space>(at: Sp::V, velocity: Sp::V, limit: f64) -> Sp::V {
    let p = Sp::coords(at);
    let mut v = Sp::coords(velocity);
    for (x, vx) in p.iter().zip(v.iter_mut()) {
        if (*x > limit && *vx > 0.0) || (*x < -limit && *vx < 0.0) {
            *vx = -*vx;
        }
    }
    Sp::from_coords(&v).unwrap_or(velocity)
}

/// Times the narrow phase alone: `dispatch::contact` on every pair of shapes whose
/// tight boxes overlap (the candidates `update()` hands its narrow phase).
fn sample_narrow<Sp: Space>(world: &SpaceWorld<Sp>, bodies: &[Body<Sp>], stats: &mut Stats) {
    let mut pairs = Vec::new();
    for b in bodies {
        if let Some(aabb) = world.aabb(b.handle) {
            let others = world.shapes_in_aabb(aabb, Filter::ALL);
            pairs.extend(
                others
                    .into_iter()
                    .filter(|&o| o > b.handle)
                    .map(|o| (b.handle, o)),
            );
        }
    }
    let start = Instant::now();
    let mut found = 0usize;
    for &(a, b) in &pairs {
        if let (Some(sa), Some(pa), Some(sb), Some(pb)) =
            (world.shape(a), world.pose(a), world.shape(b), world.pose(b))
        {
            found += usize::from(dispatch::contact(pa, sa, pb, sb, 0.0).is_some());
        }
    }
    stats.narrow_time += start.elapsed();
    std::hint::black_box(found);
    stats.sampled += 1;
    stats.candidates += pairs.len();
}

/// Ray-cast results of the last frame: count, hits, time.
struct RayStats {
    cast: usize,
    hit: usize,
    time: Duration,
}

/// The last frame as a picture, with [`RAYS`] rays cast from the walls inward.
fn last_frame<Sp: DemoSpace>(
    world: &SpaceWorld<Sp>,
    bodies: &[Body<Sp>],
    rng: &mut Rng,
    half: f64,
) -> (Drawing, RayStats) {
    let rays: Vec<Ray<Sp::V>> = (0..RAYS)
        .filter_map(|_| {
            let target = bodies.get(rng.below(bodies.len().max(1)))?;
            wall_ray::<Sp>(rng, half, Sp::position(&target.pose))
        })
        .collect();
    let start = Instant::now();
    let hits = world.cast_rays(&rays, f64::INFINITY, Filter::ALL);
    let time = start.elapsed();
    let shapes: Vec<Outline> = bodies
        .iter()
        .filter_map(|b| {
            let (shape, pose) = (world.shape(b.handle)?, world.pose(b.handle)?);
            Some(Outline {
                id: format!("{}", b.handle.index()),
                kind: Sp::kind_name(shape),
                figure: Sp::figure(shape, pose),
            })
        })
        .collect();
    let contacts = world
        .contacts()
        .iter()
        .map(|c| contact_mark::<Sp>(&c.contact, View::Z));
    let marks = rays
        .iter()
        .zip(&hits)
        .map(|(r, h)| ray_mark::<Sp>(r, f64::INFINITY, h.map(|h| h.hit), 4.0 * half, View::Z));
    let stats = RayStats {
        cast: rays.len(),
        hit: hits.iter().flatten().count(),
        time,
    };
    let drawing = Drawing {
        contacts: contacts.collect(),
        rays: marks.collect(),
        shapes,
        velocities: Vec::new(),
    };
    (drawing, stats)
}

/// A ray from a random point of the box's left wall (in the drawing plane)
/// towards `target` (the centre of some shape, so that most rays hit).
fn wall_ray<Sp: Space>(rng: &mut Rng, half: f64, target: Sp::V) -> Option<Ray<Sp::V>> {
    let from = Sp::planar(-half, rng.range(-half, half));
    Ray::new(from, target - from).ok()
}

/// Milliseconds of `d`.
fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn print_summary<Sp: DemoSpace>(
    shapes: usize,
    half: f64,
    s: &Stats,
    rays: RayStats,
    composites: &[&str],
) {
    let frames = s.frames.max(1) as f64;
    let sampled = s.sampled.max(1) as f64;
    // The phases per frame, from the sampled frames.
    let narrow = ms(s.narrow_time) / sampled;
    // Noise can make the difference slightly negative on tiny scenes.
    let broad = (ms(s.sampled_update_time) / sampled - narrow).max(0.0);
    let update = ms(s.update_time) / frames;
    let kinds = Sp::KINDS;
    out!(
        "{}D: {shapes} shapes of {kinds} kinds bouncing in a box {:.0} wide, {} frames",
        Sp::DIM,
        2.0 * half,
        s.frames
    );
    out!(
        "  with {} composites: {}",
        composites.len(),
        composites.join(", ")
    );
    out!(
        "  {:<38} {:>10.1} ms  {:>8.3} ms/frame",
        "moving shapes (set_pose, tree refit)",
        ms(s.move_time),
        ms(s.move_time) / frames
    );
    out!(
        "  {:<38} {:>10.1} ms  {:>8.3} ms/frame",
        "update(): broad + narrow phase",
        ms(s.update_time),
        update
    );
    out!(
        "  {:<38} {:>13}  {:>8.3} ms/frame",
        "  broad phase (update - narrow)",
        "",
        broad
    );
    out!(
        "  {:<38} {:>13}  {:>8.3} ms/frame",
        "  narrow phase (timed alone)",
        "",
        narrow
    );
    out!(
        "  {:<38} {:>13}  {:>8.3} ms/frame",
        "time per frame",
        "",
        (ms(s.move_time) + ms(s.update_time)) / frames
    );
    print_counts(s, rays);
}

/// The pair counts and the ray casts of the summary.
fn print_counts(s: &Stats, rays: RayStats) {
    let frames = s.frames.max(1) as f64;
    let sampled = s.sampled.max(1) as f64;
    out!(
        "  {:<38} {:>10.0} per frame",
        "candidate pairs (boxes overlap)",
        s.candidates as f64 / sampled
    );
    out!(
        "  {:<38} {:>10.0} per frame (max {})",
        "contacts (touching pairs)",
        s.touching as f64 / frames,
        s.touching_max
    );
    out!(
        "  {:<38} {:>10.0} per frame",
        "  of which with a composite",
        s.touching_composites as f64 / frames
    );
    out!(
        "  {:<38} {:>10} / {}",
        "pairs started / stopped",
        s.started,
        s.stopped
    );
    let per_ray = rays.time.as_secs_f64() * 1e6 / rays.cast.max(1) as f64;
    out!(
        "  {:<38} {:>10} cast, {} hit, {per_ray:.1} µs per ray",
        "ray casts on the last frame",
        rays.cast,
        rays.hit
    );
}
