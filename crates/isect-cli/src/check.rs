//! `isect check`: every intersecting pair of a scene with its contact.

use crate::error::CliError;
use crate::output::{text_num, text_vec};
use crate::scene::{self, AnyScene, Scene};
use crate::space::Space;
use crate::world::SceneWorld;
use clap::{Args, ValueEnum};
use serde::Serialize;
use std::path::PathBuf;

/// Options of `isect check`.
#[derive(Args)]
pub struct CheckArgs {
    /// The scene file (JSON; see the README for the format).
    pub scene: PathBuf,
    /// Output format: JSON for programs, text for people.
    #[arg(long, value_enum, default_value_t = Format::Json)]
    pub format: Format,
}

/// How results are printed.
#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One JSON document on stdout.
    Json,
    /// Lines for people.
    Text,
}

/// One touching pair as printed.
#[derive(Serialize)]
pub struct PairReport {
    /// Id of the earlier shape in the file.
    pub a: String,
    /// Id of the later shape.
    pub b: String,
    /// Unit normal from `a` to `b`.
    pub normal: Vec<f64>,
    /// Penetration depth (0 when touching).
    pub depth: f64,
    /// Point of `a`'s surface.
    pub point_a: Vec<f64>,
    /// Point of `b`'s surface.
    pub point_b: Vec<f64>,
}

/// The whole answer.
#[derive(Serialize)]
struct CheckReport {
    dim: usize,
    shapes: usize,
    pairs: Vec<PairReport>,
}

/// Runs `isect check`.
///
/// # Errors
/// Exit code 2 for an unreadable or invalid scene.
pub fn run(args: &CheckArgs) -> Result<(), CliError> {
    let report = match scene::load(&args.scene)? {
        AnyScene::D2(s) => report(&s)?,
        AnyScene::D3(s) => report(&s)?,
    };
    match args.format {
        Format::Json => print_json(&report),
        Format::Text => print_text(&report),
    }
    Ok(())
}

/// The touching pairs of `scene`, in file order.
pub fn pairs<Sp: Space>(scene: &Scene<Sp>, world: &SceneWorld<Sp>) -> Vec<PairReport> {
    world
        .contacts()
        .into_iter()
        .map(|c| PairReport {
            a: scene.shapes[c.a].id.clone(),
            b: scene.shapes[c.b].id.clone(),
            normal: Sp::coords(c.contact.normal),
            depth: c.contact.depth,
            point_a: Sp::coords(c.contact.point_a),
            point_b: Sp::coords(c.contact.point_b),
        })
        .collect()
}

fn report<Sp: Space>(scene: &Scene<Sp>) -> Result<CheckReport, CliError> {
    let world = SceneWorld::new(scene)?;
    Ok(CheckReport {
        dim: Sp::DIM,
        shapes: scene.shapes.len(),
        pairs: pairs(scene, &world),
    })
}

fn print_json(report: &CheckReport) {
    // Serializing plain structs of strings and finite numbers cannot fail.
    if let Ok(s) = serde_json::to_string_pretty(report) {
        out!("{s}");
    }
}

fn print_text(report: &CheckReport) {
    out!(
        "{} intersecting pair(s) among {} shapes ({}D)",
        report.pairs.len(),
        report.shapes,
        report.dim
    );
    for p in &report.pairs {
        out!(
            "{} - {}: depth {}, normal {}, points {} {}",
            p.a,
            p.b,
            text_num(p.depth),
            text_vec(&p.normal),
            text_vec(&p.point_a),
            text_vec(&p.point_b)
        );
    }
}
