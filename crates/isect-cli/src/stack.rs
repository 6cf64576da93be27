//! `isect stack`: a stacking scene of the test-only rigid-body stepper
//! (`isect-stepper`, whose tests judge isect's contact manifolds by them) run for a
//! number of steps of 1/60 s, then drawn as SVG: the bodies as `render` draws shapes,
//! and the points and normals of the last step's manifolds. One summary line on
//! stdout: bodies, steps, the largest speed, the watched body's drift and what the
//! stepper's judge says of the scene now.

use crate::error::CliError;
use crate::figure::xy;
use crate::output::write_atomic;
use crate::render::svg_limit;
use crate::space::{Space, View, D2, D3};
use crate::svg::{ContactMark, Drawing, Outline, DEFAULT_MAX_SVG_BYTES};
use clap::Args;
use isect_stepper::scenes::{self, AnyScene, Report, Scene, Subject, DURATION_STEPS};
use std::path::PathBuf;

/// The scene run when none is named: the 3D box stack on the 20 × 20-quad mesh.
pub const DEFAULT_SCENE: &str = "3d-stack-grid-mesh";
/// Most steps a run takes (10 minutes of simulated time).
const MAX_STEPS: usize = 36_000;

/// Options of `isect stack`.
#[derive(Args)]
pub struct StackArgs {
    /// The scene, `{dim}-{subject}-{floor}` (`--list` prints them all).
    #[arg(long, default_value = DEFAULT_SCENE)]
    pub scene: String,
    /// Steps of 1/60 s to run (the stepper's tests run 600: 10 s).
    #[arg(long, default_value_t = DURATION_STEPS)]
    pub steps: usize,
    /// Where to write the SVG of the last step (written to a temporary file beside
    /// it, then renamed).
    #[arg(short, long, default_value = "stack.svg")]
    pub output: PathBuf,
    /// The axis a 3D scene is seen along: z (front: x right, y up), x (side: −z
    /// right, y up) or y (top: x right, −z up).
    #[arg(long, value_enum, default_value_t = View::Z)]
    pub view: View,
    /// Prints the scene names, one a line, and runs nothing.
    #[arg(long)]
    pub list: bool,
    /// The largest SVG written, in MiB: a larger picture is refused, nothing written.
    #[arg(long, default_value_t = DEFAULT_MAX_SVG_BYTES >> 20)]
    pub max_svg_mb: usize,
}

/// Runs `isect stack`: the summary line is printed before the picture is written, so
/// a refused picture still leaves it.
///
/// # Errors
/// Exit code 2 for an unknown scene, too many steps, a view a 2D scene lacks or a
/// picture over `--max-svg-mb` (nothing is written); exit code 1 when the SVG cannot
/// be written.
pub fn run(args: &StackArgs) -> Result<(), CliError> {
    if args.list {
        for spec in scenes::all() {
            out!("{}", spec.name());
        }
        return Ok(());
    }
    if args.steps > MAX_STEPS {
        let msg = format!("--steps {} is more than {MAX_STEPS}", args.steps);
        return Err(CliError::input(msg));
    }
    let mut scene = scenes::find(&args.scene).ok_or_else(|| {
        CliError::input(format!(
            "no scene {:?} (isect stack --list prints them)",
            args.scene
        ))
    })?;
    if matches!(scene, AnyScene::D2(_)) && args.view != View::Z {
        let view = format!("{:?}", args.view).to_lowercase();
        let msg = format!("--view {view} needs a 3D scene (a 2D scene is drawn in its plane)");
        return Err(CliError::input(msg));
    }
    scene.run(args.steps);
    out!("{}", summary(&scene));
    let drawing = match &scene {
        AnyScene::D3(s) => drawing::<D3, _>(s, args.view),
        AnyScene::D2(s) => drawing::<D2, _>(s, View::Z),
    };
    let svg = drawing
        .to_svg(svg_limit(args.max_svg_mb))
        .map_err(CliError::input)?;
    write_atomic(&args.output, svg.as_bytes())?;
    eprintln!(
        "wrote {} ({} bodies, {} contact points)",
        args.output.display(),
        drawing.shapes.len(),
        drawing.contacts.len()
    );
    Ok(())
}

/// `NAME: B bodies, S steps, max speed V m/s, top-box drift D m (P% of its size);
/// stands and is still` (or `; fails: ...` with what the judge found).
fn summary(scene: &AnyScene) -> String {
    let r = scene.report();
    let stack = matches!(scene.subject(), Subject::Stack | Subject::TurnedStack);
    let watched = if stack { "top-box drift" } else { "drift" };
    let failures = r.failures();
    let verdict = if failures.is_empty() {
        "stands and is still".to_string()
    } else {
        format!("fails: {}", failures.join("; "))
    };
    format!(
        "{}: {} bodies, {} steps, max speed {:.2e} m/s, {watched} {:.2e} m ({:.3}% of its size); {verdict}",
        scene.name(),
        r.bodies,
        r.steps,
        r.max_speed,
        r.drift,
        percent(&r),
    )
}

/// The drift in percent of the watched body's size.
fn percent(r: &Report) -> f64 {
    if r.size > 0.0 {
        100.0 * r.drift / r.size
    } else {
        0.0
    }
}

/// The picture of `scene` seen along `view`: each body as `render` draws its shape,
/// and every point of the last step's manifolds with its normal.
fn drawing<Sp, D>(scene: &Scene<D>, view: View) -> Drawing
where
    Sp: Space,
    D: isect_stepper::Dim<V = Sp::V, Pose = Sp::Pose, Shape = Sp::S>,
{
    let seen = |v: Sp::V| xy::<Sp>(Sp::viewed(v, view));
    let shapes = scene.sim.bodies.iter().enumerate().map(|(i, b)| Outline {
        id: body_name(i, scene.watched, b.is_static()),
        kind: Sp::kind_name(&b.shape),
        figure: Sp::figure(&b.shape, &Sp::viewed_pose(&b.pose, view)),
    });
    let contacts = scene.sim.contacts().iter().flat_map(|c| {
        let m = c.manifold();
        m.points().iter().map(move |p| ContactMark {
            point_a: seen(p.point_a),
            point_b: seen(p.point_b),
            normal: seen(m.normal),
        })
    });
    Drawing {
        shapes: shapes.collect(),
        contacts: contacts.collect(),
        ..Drawing::default()
    }
}

/// The tooltip of body `i`: `floor`, `watched i` or `body i`.
fn body_name(i: usize, watched: usize, fixed: bool) -> String {
    match (fixed, i == watched) {
        (true, _) => "floor".to_string(),
        (false, true) => format!("watched body {i}"),
        (false, false) => format!("body {i}"),
    }
}
