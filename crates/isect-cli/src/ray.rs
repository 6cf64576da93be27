//! `isect ray`: one ray cast into a scene, its hits closest first.

use crate::check::Format;
use crate::error::CliError;
use crate::output::{text_num, text_vec};
use crate::scene::{self, AnyScene, Scene};
use crate::space::Space;
use crate::world::SceneWorld;
use clap::Args;
use isect::shape::Ray;
use serde::Serialize;
use std::path::PathBuf;

/// Options of `isect ray`.
#[derive(Args)]
pub struct RayArgs {
    /// The scene file.
    pub scene: PathBuf,
    /// The ray's origin, `X,Y` for a 2D scene or `X,Y,Z` for a 3D one.
    #[arg(long, value_parser = parse_coords, allow_hyphen_values = true)]
    pub from: Coords,
    /// The ray's direction (need not be unit; `t` is in its units).
    #[arg(long, value_parser = parse_coords, allow_hyphen_values = true)]
    pub dir: Coords,
    /// The longest `t` looked at (default: no limit).
    #[arg(long)]
    pub max_t: Option<f64>,
    /// Every shape hit, not only the closest.
    #[arg(long)]
    pub all: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Json)]
    pub format: Format,
}

/// The numbers of a `--from` / `--dir` option.
#[derive(Clone, Debug)]
pub struct Coords(pub Vec<f64>);

/// Comma-separated finite numbers.
fn parse_coords(s: &str) -> Result<Coords, String> {
    let c: Result<Vec<f64>, String> = s
        .split(',')
        .map(|p| match p.trim().parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(x),
            _ => Err(format!(
                "`{p}` is not a finite number (expected X,Y or X,Y,Z)"
            )),
        })
        .collect();
    c.map(Coords)
}

/// One hit as printed.
#[derive(Serialize)]
struct HitReport {
    id: String,
    t: f64,
    point: Vec<f64>,
    normal: Vec<f64>,
}

/// The whole answer.
#[derive(Serialize)]
struct RayReport {
    hits: Vec<HitReport>,
}

/// Runs `isect ray`.
///
/// # Errors
/// Exit code 2 for an invalid scene, or options that do not fit it (a `--from` or
/// `--dir` beyond the coordinate limit, a zero `--dir`, a negative `--max-t`).
pub fn run(args: &RayArgs) -> Result<(), CliError> {
    let max_t = args.max_t.unwrap_or(f64::INFINITY);
    if max_t.is_nan() || max_t < 0.0 {
        return Err(CliError::input(format!(
            "--max-t is {max_t}, must be at least 0"
        )));
    }
    for (name, c) in [("from", &args.from.0), ("dir", &args.dir.0)] {
        let field = format!("--{name}");
        isect_io::scene::within_limit(&field, c).map_err(CliError::input)?;
    }
    if args.dir.0.iter().all(|&c| c == 0.0) {
        return Err(CliError::input(
            "--dir is zero: a ray needs a direction (any length; t is in its units)",
        ));
    }
    let hits = match scene::load(&args.scene)? {
        AnyScene::D2(s) => hits(&s, args, max_t)?,
        AnyScene::D3(s) => hits(&s, args, max_t)?,
    };
    match args.format {
        Format::Json => {
            // Plain strings and finite numbers: serializing cannot fail.
            if let Ok(doc) = serde_json::to_string_pretty(&RayReport { hits }) {
                out!("{doc}");
            }
        }
        Format::Text => print_text(&hits),
    }
    Ok(())
}

/// The vector of `--NAME`, checked against the scene's dimension.
fn option_vec<Sp: Space>(name: &str, c: &[f64]) -> Result<Sp::V, CliError> {
    Sp::from_coords(c).ok_or_else(|| {
        CliError::input(format!(
            "--{name} has {} component(s) but the scene is {}D: give {} numbers",
            c.len(),
            Sp::DIM,
            Sp::DIM
        ))
    })
}

fn hits<Sp: Space>(
    scene: &Scene<Sp>,
    args: &RayArgs,
    max_t: f64,
) -> Result<Vec<HitReport>, CliError> {
    let from = option_vec::<Sp>("from", &args.from.0)?;
    let dir = option_vec::<Sp>("dir", &args.dir.0)?;
    let ray = Ray::new(from, dir).map_err(|e| CliError::input(e.to_string()))?;
    let world = SceneWorld::new(scene)?;
    Ok(world
        .cast(&ray, max_t, args.all)
        .into_iter()
        .map(|h| HitReport {
            id: scene.shapes[h.index].id.clone(),
            t: h.hit.t,
            point: Sp::coords(h.hit.point),
            normal: Sp::coords(h.hit.normal),
        })
        .collect())
}

fn print_text(hits: &[HitReport]) {
    out!("{} hit(s)", hits.len());
    for h in hits {
        out!(
            "{}: t {}, point {}, normal {}",
            h.id,
            text_num(h.t),
            text_vec(&h.point),
            text_vec(&h.normal)
        );
    }
}
