//! `isect`: the command-line face of the isect collision library. A demo of the
//! collision world, checks and ray casts on JSON scene files, SVG pictures, a
//! quick benchmark, and stacking scenes that show the contact manifolds at work. The
//! scene format and the exit codes are described in the crate's README.md.

#![warn(missing_docs)]

/// `println!` for results: a closed stdout (`isect check scene.json | head -1`) is
/// not an error worth a panic, the reader has gone.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

mod bench;
mod check;
mod classics;
mod demo;
mod demo_composites;
mod demo_shapes;
mod error;
mod figure;
mod output;
mod ray;
mod render;
mod rng;
mod scene;
mod space;
mod stack;
mod svg;
mod world;

use clap::{Parser, Subcommand};

/// Collision detection on scene files, a moving demo, pictures and a benchmark.
#[derive(Parser)]
#[command(name = "isect", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Subcommand)]
enum Command {
    /// Runs a built-in scene of thousands of moving shapes through the collision
    /// world and prints a summary per phase; writes an SVG of the last 2D frame.
    Demo(demo::DemoArgs),
    /// Prints every intersecting pair of a scene file with its contact.
    Check(check::CheckArgs),
    /// Casts one ray into a scene file and prints the hits, closest first.
    Ray(ray::RayArgs),
    /// Draws a scene file (its shapes, contacts and rays) as an SVG picture.
    Render(render::RenderArgs),
    /// Runs a quick built-in benchmark and prints throughput per query kind.
    Bench(bench::BenchArgs),
    /// Runs a stacking scene of the test-only rigid-body stepper (10 boxes, or one
    /// body lying or standing, on a box, mesh, heightfield or polyline floor) and
    /// draws its last step, with its contact manifolds, as an SVG picture.
    Stack(stack::StackArgs),
    /// Runs every classic test (slab, separating axes, planes and spheres,
    /// containment, ray against plane) on a worked example and prints the answers.
    Classics,
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Demo(args) => demo::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Ray(args) => ray::run(&args),
        Command::Render(args) => render::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Stack(args) => stack::run(&args),
        Command::Classics => classics::run(),
    };
    if let Err(e) = result {
        eprintln!("isect: {e}");
        std::process::exit(e.code);
    }
}
