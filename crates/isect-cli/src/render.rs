//! `isect render`: a scene file drawn as SVG, with its contacts and its rays' hits.

use crate::error::CliError;
use crate::figure::xy;
use crate::output::write_atomic;
use crate::scene::{self, AnyScene, Scene};
use crate::space::Space;
use crate::svg::{ContactMark, Drawing, Outline, RayMark};
use crate::world::SceneWorld;
use clap::Args;
use isect::math::Isometry;
use isect::world::Filter;
use std::path::PathBuf;

/// Options of `isect render`.
#[derive(Args)]
pub struct RenderArgs {
    /// The scene file.
    pub scene: PathBuf,
    /// Where to write the SVG (written to a temporary file beside it, then renamed).
    #[arg(short, long)]
    pub output: PathBuf,
}

/// Runs `isect render`.
///
/// # Errors
/// Exit code 2 for an invalid scene (nothing is written); exit code 1 when the
/// output cannot be written.
pub fn run(args: &RenderArgs) -> Result<(), CliError> {
    let drawing = match scene::load(&args.scene)? {
        AnyScene::D2(s) => drawing(&s)?,
        AnyScene::D3(s) => drawing(&s)?,
    };
    write_atomic(&args.output, drawing.to_svg().as_bytes())?;
    eprintln!(
        "wrote {} ({} shapes, {} contacts, {} rays)",
        args.output.display(),
        drawing.shapes.len(),
        drawing.contacts.len(),
        drawing.rays.len()
    );
    Ok(())
}

/// The picture of a scene: outlines, the world's contacts, each ray's closest hit.
fn drawing<Sp: Space>(scene: &Scene<Sp>) -> Result<Drawing, CliError> {
    let world = SceneWorld::new(scene)?;
    let shapes = scene.shapes.iter().map(|s| Outline {
        id: s.id.clone(),
        kind: Sp::kind_name(&s.shape),
        figure: Sp::figure(&s.shape, &s.pose),
    });
    let shapes: Vec<Outline> = shapes.collect();
    let contacts = world
        .contacts()
        .into_iter()
        .map(|c| contact_mark::<Sp>(&c.contact));
    let extent = scene_extent(&shapes);
    let rays = scene.rays.iter().map(|r| {
        let hit = world.world.cast_ray(&r.ray, r.max_t, Filter::ALL);
        ray_mark::<Sp>(&r.ray, r.max_t, hit.map(|h| h.hit), extent)
    });
    let velocities = scene.shapes.iter().filter_map(|s| {
        let at = s.pose.translation();
        Some((xy::<Sp>(at), xy::<Sp>(s.velocity?)))
    });
    Ok(Drawing {
        contacts: contacts.collect(),
        rays: rays.collect(),
        velocities: velocities.collect(),
        shapes,
    })
}

/// A contact projected onto the picture.
pub fn contact_mark<Sp: Space>(c: &isect::query::Contact<Sp::V>) -> ContactMark {
    ContactMark {
        point_a: xy::<Sp>(c.point_a),
        point_b: xy::<Sp>(c.point_b),
        normal: xy::<Sp>(c.normal),
    }
}

/// A ray drawn up to its hit, or up to `max_t` but no further than `extent`
/// beyond its origin when it misses.
pub fn ray_mark<Sp: Space>(
    ray: &isect::shape::Ray<Sp::V>,
    max_t: f64,
    hit: Option<isect::shape::RayHit<Sp::V>>,
    extent: f64,
) -> RayMark {
    let from = xy::<Sp>(ray.origin);
    match hit {
        Some(h) => RayMark {
            from,
            to: xy::<Sp>(h.point),
            hit_normal: Some(xy::<Sp>(h.normal)),
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
                to: xy::<Sp>(ray.point_at(t)),
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
