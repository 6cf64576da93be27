//! `isect render`: a scene file drawn as SVG, with its contacts and its rays' hits.

use crate::error::CliError;
use crate::figure::xy;
use crate::output::write_atomic;
use crate::scene::{self, AnyScene, Scene};
use crate::space::{Space, View};
use crate::svg::DEFAULT_MAX_SVG_BYTES;
use crate::svg::{check_size, ContactMark, Drawing, Outline, RayMark, ShapeSize};
use crate::world::SceneWorld;
use clap::Args;
use isect::math::Isometry;
use isect::world::Filter;
use std::path::{Path, PathBuf};

/// Options of `isect render`.
#[derive(Args)]
pub struct RenderArgs {
    /// The scene file.
    pub scene: PathBuf,
    /// Where to write the SVG (written to a temporary file beside it, then renamed).
    #[arg(short, long)]
    pub output: PathBuf,
    /// The axis a 3D scene is seen along: z (front: x right, y up), x (side: −z
    /// right, y up) or y (top: x right, −z up).
    #[arg(long, value_enum, default_value_t = View::Z)]
    pub view: View,
    /// The largest SVG written, in MiB: a larger picture is refused, nothing written.
    #[arg(long, default_value_t = DEFAULT_MAX_SVG_BYTES >> 20)]
    pub max_svg_mb: usize,
}

/// `max_svg_mb` in bytes (saturating).
pub fn svg_limit(max_svg_mb: usize) -> usize {
    max_svg_mb.saturating_mul(1 << 20)
}

/// Runs `isect render`.
///
/// # Errors
/// Exit code 2 for an invalid scene, an output that is one of its input files or a
/// picture over the size limit (nothing is written); exit code 1 when the output
/// cannot be written.
pub fn run(args: &RenderArgs) -> Result<(), CliError> {
    refuse_input_as_output(&args.output, &args.scene)?;
    let limit = svg_limit(args.max_svg_mb);
    let drawing = match scene::load(&args.scene)? {
        AnyScene::D2(_) if args.view != View::Z => {
            let msg = format!(
                "--view {:?} needs a 3D scene (a 2D scene is drawn in its plane)",
                args.view
            );
            return Err(CliError::input(msg.to_lowercase()));
        }
        AnyScene::D2(s) => drawing(&s, args.view, limit, &args.output)?,
        AnyScene::D3(s) => drawing(&s, args.view, limit, &args.output)?,
    };
    let svg = drawing.to_svg(limit).map_err(CliError::input)?;
    write_atomic(&args.output, svg.as_bytes())?;
    eprintln!(
        "wrote {} ({} shapes, {} contacts, {} rays)",
        args.output.display(),
        drawing.shapes.len(),
        drawing.contacts.len(),
        drawing.rays.len()
    );
    Ok(())
}

/// Refuses to write `output` over `input` (the same file, by any path or link):
/// `render scene.json -o scene.json` would replace the scene with its picture.
///
/// # Errors
/// Exit code 2 naming both paths.
pub fn refuse_input_as_output(output: &Path, input: &Path) -> Result<(), CliError> {
    if same_file(output, input) {
        return Err(CliError::input(format!(
            "-o {} is the input file {}: it would be overwritten; write the picture \
             elsewhere",
            output.display(),
            input.display()
        )));
    }
    Ok(())
}

/// Whether `a` and `b` name one existing file (after links; on Unix also two hard
/// links of it).
fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if (ma.dev(), ma.ino()) == (mb.dev(), mb.ino()) {
            return true;
        }
    }
    let _ = (ma, mb);
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The picture of a scene seen along `view`: outlines, the world's contacts, each
/// ray's closest hit. Refused before any outline is built when its shapes need
/// more than `max_bytes`, or when `output` is one of the files the scene reads.
fn drawing<Sp: Space>(
    scene: &Scene<Sp>,
    view: View,
    max_bytes: usize,
    output: &Path,
) -> Result<Drawing, CliError> {
    for file in &scene.files {
        refuse_input_as_output(output, file)?;
    }
    let sizes = scene.shapes.iter().map(|s| {
        let (points, what) = Sp::figure_points(&s.shape);
        ShapeSize {
            id: &s.id,
            points,
            what,
        }
    });
    check_size(sizes, max_bytes).map_err(CliError::input)?;
    let world = SceneWorld::new(scene)?;
    let shapes = scene.shapes.iter().map(|s| Outline {
        id: s.id.clone(),
        kind: Sp::kind_name(&s.shape),
        figure: Sp::figure(&s.shape, &Sp::viewed_pose(&s.pose, view)),
    });
    let shapes: Vec<Outline> = shapes.collect();
    let contacts = world
        .contacts()
        .into_iter()
        .map(|c| contact_mark::<Sp>(&c.contact, view));
    let extent = scene_extent(&shapes);
    let rays = scene.rays.iter().map(|r| {
        let hit = world.world.cast_ray(&r.ray, r.max_t, Filter::ALL);
        ray_mark::<Sp>(&r.ray, r.max_t, hit.map(|h| h.hit), extent, view)
    });
    let velocities = scene.shapes.iter().filter_map(|s| {
        let at = s.pose.translation();
        let seen = |v| xy::<Sp>(Sp::viewed(v, view));
        Some((seen(at), seen(s.velocity?)))
    });
    Ok(Drawing {
        contacts: contacts.collect(),
        rays: rays.collect(),
        velocities: velocities.collect(),
        shapes,
    })
}

/// A contact projected onto the picture of `view`.
pub fn contact_mark<Sp: Space>(c: &isect::query::Contact<Sp::V>, view: View) -> ContactMark {
    let seen = |v| xy::<Sp>(Sp::viewed(v, view));
    ContactMark {
        point_a: seen(c.point_a),
        point_b: seen(c.point_b),
        normal: seen(c.normal),
    }
}

/// A ray drawn up to its hit, or up to `max_t` but no further than `extent`
/// beyond its origin when it misses, in the picture of `view`.
pub fn ray_mark<Sp: Space>(
    ray: &isect::shape::Ray<Sp::V>,
    max_t: f64,
    hit: Option<isect::shape::RayHit<Sp::V>>,
    extent: f64,
    view: View,
) -> RayMark {
    let seen = |v| xy::<Sp>(Sp::viewed(v, view));
    let from = seen(ray.origin);
    match hit {
        Some(h) => RayMark {
            from,
            to: seen(h.point),
            hit_normal: Some(seen(h.normal)),
        },
        None => {
            let len = isect::math::Vector::length(ray.dir);
            let t = if len > 0.0 {
                max_t.min(extent / len)
            } else {
                0.0
            };
            RayMark {
                from,
                to: seen(ray.point_at(t)),
                hit_normal: None,
            }
        }
    }
}

/// The diagonal of the box around every outline (at least 1).
pub fn scene_extent(shapes: &[Outline]) -> f64 {
    let points = shapes.iter().flat_map(|o| o.figure.points());
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in points {
        lo = [lo[0].min(p[0]), lo[1].min(p[1])];
        hi = [hi[0].max(p[0]), hi[1].max(p[1])];
    }
    let d = ((hi[0] - lo[0]).powi(2) + (hi[1] - lo[1]).powi(2)).sqrt();
    if d.is_finite() {
        d.max(1.0)
    } else {
        1.0
    }
}
