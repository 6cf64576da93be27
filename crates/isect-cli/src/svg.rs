//! SVG pictures: shapes (3D shapes by their orthographic projection onto the
//! picture plane, as [`crate::figure`] draws each kind), contact points with their
//! normals, and rays with their hits.
//!
//! Pictures open in every reader: an outline that is not a region once drawn (a
//! segment, a shape seen edge-on: fewer than 3 distinct pixel points, or no area) is
//! drawn as a `<polyline>` or inside a line path, never as a `<polygon>` or a closed
//! fill ring (ImageMagick's reader aborts on 2-point polygons); and a picture larger
//! than a cap ([`DEFAULT_MAX_SVG_BYTES`] unless raised) is refused with a message
//! instead of written (a million shapes would be a gigabyte).

use std::fmt::Write;

/// Width of the picture in pixels (the height follows the scene's aspect).
const WIDTH_PX: f64 = 900.0;
/// Free border around the scene, in pixels.
const MARGIN_PX: f64 = 20.0;
/// A figure with more lines than this draws them as hairlines.
const DENSE_LINES: usize = 200;
/// Length of a drawn normal, in pixels.
const NORMAL_PX: f64 = 18.0;
/// Twice the pixel area below which an outline is drawn as a line (a ring that
/// encloses less than a hundredth of a pixel is a segment on screen).
const FLAT_TWICE_AREA_PX: f64 = 0.02;
/// The largest SVG written unless the caller raises it: 64 MiB (about 100,000
/// curved shapes; browsers and ImageMagick slow to a crawl well before a gigabyte).
pub const DEFAULT_MAX_SVG_BYTES: usize = 64 << 20;

/// A point of the drawing plane.
pub type P = [f64; 2];

/// One shape as drawn.
pub struct Outline {
    /// The id shown as a tooltip.
    pub id: String,
    /// The kind, which picks the colour.
    pub kind: &'static str,
    /// What is drawn.
    pub figure: Figure,
}

/// The lines and regions of one shape, in the drawing plane.
#[derive(Default)]
pub struct Figure {
    /// Filled closed rings: one for a convex shape; a compound's parts or a mesh's
    /// triangles (counter-clockwise, so the non-zero fill is their union); a
    /// concave polygon's outer ring and holes (with [`even_odd`](Self::even_odd)).
    pub rings: Vec<Vec<P>>,
    /// The rings are filled by the even-odd rule (holes stay empty).
    pub even_odd: bool,
    /// Faint closed outlines: a concave polygon's convex pieces.
    pub pieces: Vec<Vec<P>>,
    /// Stroked open paths with no fill: polyline segments, heightfield chains and
    /// wireframes, mesh edges. When present, the rings are filled but not stroked.
    pub lines: Vec<Vec<P>>,
}

impl Figure {
    /// One filled convex outline.
    pub fn region(points: Vec<P>) -> Self {
        Self {
            rings: vec![points],
            ..Self::default()
        }
    }

    /// Open paths only.
    pub fn lines(lines: Vec<Vec<P>>) -> Self {
        Self {
            lines,
            ..Self::default()
        }
    }

    /// Every point of the figure.
    pub fn points(&self) -> impl Iterator<Item = P> + '_ {
        let all = self.rings.iter().chain(&self.pieces).chain(&self.lines);
        all.flatten().copied()
    }
}

/// A contact: the point on each shape and the normal from A to B.
pub struct ContactMark {
    /// Point of A.
    pub point_a: P,
    /// Point of B.
    pub point_b: P,
    /// Unit normal (projected).
    pub normal: P,
}

/// A ray and where it stopped.
pub struct RayMark {
    /// The origin.
    pub from: P,
    /// The end of the drawn segment: the hit, or far along the ray.
    pub to: P,
    /// The hit's normal, when it hit.
    pub hit_normal: Option<P>,
}

/// Everything drawn in one picture.
#[derive(Default)]
pub struct Drawing {
    /// Shapes, drawn first.
    pub shapes: Vec<Outline>,
    /// Contacts, drawn over the shapes.
    pub contacts: Vec<ContactMark>,
    /// Rays, drawn last.
    pub rays: Vec<RayMark>,
    /// Velocities: an arrow from each moving shape's position, one time unit long.
    pub velocities: Vec<(P, P)>,
}

/// The world rectangle shown and its mapping to pixels (y up in the world).
struct Frame {
    min: P,
    max: P,
    scale: f64,
}

impl Frame {
    /// The frame around `points` (a unit square around the origin when empty).
    fn around(points: impl Iterator<Item = P>) -> Self {
        let (mut min, mut max) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for p in points.filter(|p| p[0].is_finite() && p[1].is_finite()) {
            min = [min[0].min(p[0]), min[1].min(p[1])];
            max = [max[0].max(p[0]), max[1].max(p[1])];
        }
        if min[0] > max[0] {
            (min, max) = ([-1.0, -1.0], [1.0, 1.0]);
        }
        let span = (max[0] - min[0]).max(max[1] - min[1]).max(1e-9);
        Self {
            min,
            max,
            scale: (WIDTH_PX - 2.0 * MARGIN_PX) / span,
        }
    }

    fn px(&self, p: P) -> (f64, f64) {
        let x = MARGIN_PX + (p[0] - self.min[0]) * self.scale;
        let y = MARGIN_PX + (self.max[1] - p[1]) * self.scale;
        (x, y)
    }

    fn size(&self) -> (f64, f64) {
        let w = (self.max[0] - self.min[0]) * self.scale + 2.0 * MARGIN_PX;
        let h = (self.max[1] - self.min[1]) * self.scale + 2.0 * MARGIN_PX;
        (w.ceil(), h.ceil())
    }
}

/// A fill colour per shape kind.
fn colour(kind: &str) -> &'static str {
    match kind {
        "Ball" => "#4e79a7",
        "Cuboid" | "RoundedCuboid" => "#f28e2b",
        "Capsule" => "#59a14f",
        "Segment" => "#76b7b2",
        "Triangle" => "#edc948",
        "Polygon" | "RoundedPolygon" | "Polyhedron" => "#b07aa1",
        "Cylinder" => "#9c755f",
        "ConcavePolygon" | "TriMesh" => "#e15759",
        "Compound" => "#ff9da7",
        "Polyline" | "HeightField" => "#2f6b3a",
        _ => "#bab0ac",
    }
}

/// Escapes text (an id) for XML content or an attribute: the markup characters as
/// entities, and every character XML 1.0 forbids in a document (the controls other
/// than tab, newline and carriage return, U+FFFE and U+FFFF; no entity may carry
/// them, and readers refuse the file) as U+FFFD, the replacement character.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            '\u{0}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// The fewest bytes a drawn point takes in the document: every pixel coordinate is
/// at least the margin (20), so `20.00,20.00 ` is the shortest.
const MIN_POINT_BYTES: usize = 12;
/// Bytes a drawn point takes at most (`M899.99,899.99 `): pictures are at most
/// [`WIDTH_PX`] wide and high.
const MAX_POINT_BYTES: usize = 15;
/// Bytes of a shape's element besides its points and id (tags, colours, title).
const SHAPE_BYTES: usize = 150;

/// What one shape will take in a picture, known before its outline is built.
pub struct ShapeSize<'a> {
    /// The shape's id.
    pub id: &'a str,
    /// Points of its figure (rings, pieces, lines), counted from the shape.
    pub points: usize,
    /// What makes a composite big, for a message (`a HeightField of 2 triangles`),
    /// and how to make it smaller (`fewer rows and columns`); `None` for a convex
    /// shape (a few dozen points).
    pub what: Option<(String, &'static str)>,
}

/// Refuses a picture before it is built when its shapes alone need more than
/// `max_bytes`, counting [`MIN_POINT_BYTES`]..[`MAX_POINT_BYTES`] a point: building
/// the outlines of a million-triangle mesh would take a gigabyte before the size
/// check of [`Drawing::to_svg`] could stop it.
///
/// # Errors
/// A message naming the largest shape and what makes it big, the size and the
/// limit, and what to do.
pub fn check_size<'a>(
    shapes: impl IntoIterator<Item = ShapeSize<'a>>,
    max_bytes: usize,
) -> Result<(), String> {
    let bytes = |s: &ShapeSize| {
        let points = s
            .points
            .saturating_mul((MIN_POINT_BYTES + MAX_POINT_BYTES) / 2);
        points.saturating_add(SHAPE_BYTES + s.id.len())
    };
    let (mut total, mut count) = (0usize, 0usize);
    let mut largest: Option<(usize, ShapeSize)> = None;
    for s in shapes {
        let b = bytes(&s);
        total = total.saturating_add(b);
        count += 1;
        if largest.as_ref().is_none_or(|(lb, _)| b > *lb) {
            largest = Some((b, s));
        }
    }
    let Some((big, shape)) = largest.filter(|_| total > max_bytes) else {
        return Ok(());
    };
    let limit = max_bytes as f64 / f64::from(1 << 20);
    // The limit that lets the picture through, with room for what is not counted.
    let raise = (total as f64 * 1.25 / f64::from(1 << 20)).ceil().max(1.0);
    Err(match shape.what {
        Some((what, smaller)) if big > max_bytes => format!(
            "the SVG would be larger than {limit:.0} MB: shape `{}` ({what}) alone takes \
             about {} of outlines; nothing was written: draw it with {smaller}, or raise \
             the limit with --max-svg-mb {raise}",
            escape_text(shape.id),
            size_text(big),
        ),
        _ => format!(
            "the SVG would be larger than {limit:.0} MB: its {count} shapes take about {} \
             of outlines; nothing was written: draw fewer or simpler shapes, or raise the \
             limit with --max-svg-mb {raise}",
            size_text(total),
        ),
    })
}

/// `bytes` in MB (in kB below one MB), rounded up.
fn size_text(bytes: usize) -> String {
    let mb = bytes as f64 / f64::from(1 << 20);
    if mb >= 1.0 {
        format!("{:.0} MB", mb.ceil())
    } else {
        format!("{:.0} kB", (bytes as f64 / 1024.0).ceil())
    }
}

/// `s` with control characters shown as `\u{..}` escapes, for a message on a
/// terminal.
pub fn escape_text(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            c if c.is_control() => c.escape_unicode().to_string(),
            c => c.to_string(),
        })
        .collect()
}

impl Drawing {
    /// The picture as an SVG document: `<svg ...>` ... `</svg>`, one element of class
    /// `shape` per shape (`<polygon>` for a convex region, `<polyline>` for a flat
    /// outline, `<g>` for a composite).
    ///
    /// # Errors
    /// A message saying how far it got when the document would exceed `max_bytes`;
    /// a message naming the element when a coordinate is not finite or the picture's
    /// extent overflows (no number written is ever NaN or infinite).
    pub fn to_svg(&self, max_bytes: usize) -> Result<String, String> {
        if let Some(what) = self.non_finite() {
            return Err(format!(
                "cannot draw {what}: a coordinate is NaN or infinite; nothing was written"
            ));
        }
        let frame = Frame::around(self.all_points());
        let (w, h) = frame.size();
        if !(w.is_finite() && h.is_finite() && frame.scale.is_finite() && frame.scale > 0.0) {
            return Err(format!(
                "cannot draw the picture: it spans ({:e}, {:e}) to ({:e}, {:e}), too wide \
                 for its coordinates (overflow); nothing was written",
                frame.min[0], frame.min[1], frame.max[0], frame.max[1]
            ));
        }
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n"
        );
        s.push_str("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        for (i, o) in self.shapes.iter().enumerate() {
            self.write_shape(&mut s, &frame, o);
            if s.len() > max_bytes {
                return Err(too_large(max_bytes, i + 1, self.shapes.len()));
            }
        }
        for c in &self.contacts {
            write_contact(&mut s, &frame, c);
        }
        for r in &self.rays {
            write_ray(&mut s, &frame, r);
        }
        for &(at, v) in &self.velocities {
            write_velocity(&mut s, &frame, at, v);
        }
        s.push_str("</svg>\n");
        if s.len() > max_bytes {
            return Err(too_large(max_bytes, self.shapes.len(), self.shapes.len()));
        }
        Ok(s)
    }

    /// The first element with a NaN or infinite coordinate, named for a message.
    fn non_finite(&self) -> Option<String> {
        let bad = |p: &P| !(p[0].is_finite() && p[1].is_finite());
        if let Some(o) = self
            .shapes
            .iter()
            .find(|o| o.figure.points().any(|p| bad(&p)))
        {
            return Some(format!("shape `{}` ({})", escape_text(&o.id), o.kind));
        }
        let contact = |c: &ContactMark| [c.point_a, c.point_b, c.normal].iter().any(bad);
        if let Some(i) = self.contacts.iter().position(contact) {
            return Some(format!("contact {i}"));
        }
        let ray = |r: &RayMark| [r.from, r.to].iter().chain(&r.hit_normal).any(bad);
        if let Some(i) = self.rays.iter().position(ray) {
            return Some(format!("ray {i}"));
        }
        let arrow = |(at, v): &(P, P)| [*at, *v, [at[0] + v[0], at[1] + v[1]]].iter().any(bad);
        let i = self.velocities.iter().position(arrow)?;
        Some(format!("velocity {i}"))
    }

    fn all_points(&self) -> impl Iterator<Item = P> + '_ {
        let shapes = self.shapes.iter().flat_map(|o| o.figure.points());
        let rays = self.rays.iter().flat_map(|r| [r.from, r.to]);
        let arrows = self
            .velocities
            .iter()
            .map(|(at, v)| [at[0] + v[0], at[1] + v[1]]);
        shapes.chain(rays).chain(arrows)
    }

    /// A lone convex ring as one `<polygon class="shape">`; anything else as a
    /// `<g class="shape">` of paths: `fill` (the rings), `piece` (faint), `line`.
    fn write_shape(&self, s: &mut String, frame: &Frame, o: &Outline) {
        let f = &o.figure;
        let title = format!("<title>{} ({})</title>", escape(&o.id), o.kind);
        let fill = colour(o.kind);
        if let ([ring], true, true) = (f.rings.as_slice(), f.pieces.is_empty(), f.lines.is_empty())
        {
            let pts: Vec<String> = ring
                .iter()
                .map(|&p| {
                    let (x, y) = frame.px(p);
                    format!("{x:.2},{y:.2}")
                })
                .collect();
            if is_flat(frame, ring) {
                write_flat(s, &pts, fill, &title);
                return;
            }
            let _ = writeln!(
                s,
                "<polygon class=\"shape\" points=\"{}\" fill=\"{fill}\" fill-opacity=\"0.35\" stroke=\"#333\" stroke-width=\"1\" stroke-linejoin=\"round\">{title}</polygon>",
                pts.join(" ")
            );
            return;
        }
        let _ = writeln!(s, "<g class=\"shape\">{title}");
        // A closed fill ring needs an area: flat rings (triangles seen edge-on) are
        // drawn as lines, unless the figure's own lines (a wireframe) cover them.
        let (rings, flat): (Vec<&[P]>, Vec<&[P]>) = f
            .rings
            .iter()
            .map(Vec::as_slice)
            .partition(|r| !is_flat(frame, r));
        let flat = flat.into_iter().filter(|_| f.lines.is_empty());
        let lines: Vec<&[P]> = f.lines.iter().map(Vec::as_slice).chain(flat).collect();
        let pieces: Vec<&[P]> = f
            .pieces
            .iter()
            .map(Vec::as_slice)
            .filter(|r| !is_flat(frame, r))
            .collect();
        if !rings.is_empty() {
            let rule = if f.even_odd { "evenodd" } else { "nonzero" };
            let stroke = if f.lines.is_empty() { "#333" } else { "none" };
            let _ = writeln!(
                s,
                "<path class=\"fill\" d=\"{}\" fill=\"{fill}\" fill-opacity=\"0.35\" fill-rule=\"{rule}\" stroke=\"{stroke}\" stroke-width=\"1\" stroke-linejoin=\"round\"/>",
                path_data(frame, &rings, true)
            );
        }
        if !pieces.is_empty() {
            let _ = writeln!(
                s,
                "<path class=\"piece\" d=\"{}\" fill=\"none\" stroke=\"#333\" stroke-opacity=\"0.25\" stroke-width=\"0.75\" stroke-dasharray=\"3 2\"/>",
                path_data(frame, &pieces, true)
            );
        }
        if lines.iter().any(|l| l.len() > 1) {
            // A dense wireframe (a terrain seen from the side) in hairlines.
            let width = if lines.len() > DENSE_LINES { 0.4 } else { 1.5 };
            let _ = writeln!(
                s,
                "<path class=\"line\" d=\"{}\" fill=\"none\" stroke=\"{fill}\" stroke-width=\"{width}\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>",
                path_data(frame, &lines, false)
            );
        }
        s.push_str("</g>\n");
    }
}

/// Whether `ring` is no region once drawn: fewer than 3 distinct pixel points, or
/// less than [`FLAT_TWICE_AREA_PX`] of area.
fn is_flat(frame: &Frame, ring: &[P]) -> bool {
    let px: Vec<(f64, f64)> = ring.iter().map(|&p| frame.px(p)).collect();
    let mut distinct: Vec<(i64, i64)> = px
        .iter()
        .map(|&(x, y)| ((x * 100.0).round() as i64, (y * 100.0).round() as i64))
        .collect();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() < 3 {
        return true;
    }
    let twice_area: f64 = (0..px.len())
        .map(|i| {
            let (a, b) = (px[i], px[(i + 1) % px.len()]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum();
    twice_area.abs() < FLAT_TWICE_AREA_PX
}

/// A flat outline (`pts`, pixel coordinates) as one `<polyline class="shape">`, a
/// lone point as a short one.
fn write_flat(s: &mut String, pts: &[String], colour: &str, title: &str) {
    let mut pts = pts.to_vec();
    if pts.len() == 1 {
        pts.push(pts[0].clone());
    }
    let _ = writeln!(
        s,
        "<polyline class=\"shape\" points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" stroke-linecap=\"round\" stroke-linejoin=\"round\">{title}</polyline>",
        pts.join(" ")
    );
}

/// The message for a picture over `max_bytes` after `written` of `total` shapes.
fn too_large(max_bytes: usize, written: usize, total: usize) -> String {
    let mb = |b: usize| b as f64 / f64::from(1 << 20);
    format!(
        "the SVG would be larger than {:.0} MB ({written} of {total} shapes drawn when it \
         passed the limit): nothing was written; draw fewer shapes, or raise the limit \
         with --max-svg-mb",
        mb(max_bytes)
    )
}

/// SVG path data for `paths` (`M x,y L x,y ...`, each closed with `Z` when `closed`).
fn path_data(frame: &Frame, paths: &[&[P]], closed: bool) -> String {
    let mut d = String::new();
    // A path of one point draws nothing (and some readers refuse it).
    for path in paths.iter().filter(|p| p.len() > 1) {
        for (i, &p) in path.iter().enumerate() {
            let (x, y) = frame.px(p);
            let op = if i == 0 { 'M' } else { 'L' };
            let _ = write!(d, "{op}{x:.2},{y:.2} ");
        }
        if closed {
            d.push_str("Z ");
        }
    }
    d.truncate(d.trim_end().len());
    d
}

fn write_contact(s: &mut String, frame: &Frame, c: &ContactMark) {
    let (ax, ay) = frame.px(c.point_a);
    let (bx, by) = frame.px(c.point_b);
    // The normal is drawn in pixels: y flips between world and picture.
    let (ex, ey) = (ax + c.normal[0] * NORMAL_PX, ay - c.normal[1] * NORMAL_PX);
    let _ = writeln!(
        s,
        "<g class=\"contact\"><line x1=\"{ax:.2}\" y1=\"{ay:.2}\" x2=\"{ex:.2}\" y2=\"{ey:.2}\" stroke=\"#d62728\" stroke-width=\"1.5\"/><circle cx=\"{ax:.2}\" cy=\"{ay:.2}\" r=\"2.5\" fill=\"#d62728\"/><circle cx=\"{bx:.2}\" cy=\"{by:.2}\" r=\"2\" fill=\"none\" stroke=\"#d62728\"/></g>"
    );
}

fn write_ray(s: &mut String, frame: &Frame, r: &RayMark) {
    let (fx, fy) = frame.px(r.from);
    let (tx, ty) = frame.px(r.to);
    let _ = write!(
        s,
        "<g class=\"ray\"><line x1=\"{fx:.2}\" y1=\"{fy:.2}\" x2=\"{tx:.2}\" y2=\"{ty:.2}\" stroke=\"#17becf\" stroke-width=\"1\" stroke-dasharray=\"4 3\"/><circle cx=\"{fx:.2}\" cy=\"{fy:.2}\" r=\"2\" fill=\"#17becf\"/>"
    );
    if let Some(n) = r.hit_normal {
        let (ex, ey) = (tx + n[0] * NORMAL_PX, ty - n[1] * NORMAL_PX);
        let _ = write!(
            s,
            "<circle class=\"hit\" cx=\"{tx:.2}\" cy=\"{ty:.2}\" r=\"3\" fill=\"#17becf\"/><line x1=\"{tx:.2}\" y1=\"{ty:.2}\" x2=\"{ex:.2}\" y2=\"{ey:.2}\" stroke=\"#17becf\" stroke-width=\"1.5\"/>"
        );
    }
    s.push_str("</g>\n");
}

fn write_velocity(s: &mut String, frame: &Frame, at: P, v: P) {
    let (x1, y1) = frame.px(at);
    let (x2, y2) = frame.px([at[0] + v[0], at[1] + v[1]]);
    let _ = writeln!(
        s,
        "<g class=\"velocity\"><line x1=\"{x1:.2}\" y1=\"{y1:.2}\" x2=\"{x2:.2}\" y2=\"{y2:.2}\" stroke=\"#555\" stroke-width=\"1\"/><circle cx=\"{x2:.2}\" cy=\"{y2:.2}\" r=\"1.5\" fill=\"#555\"/></g>"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ball_at(x: f64) -> Outline {
        Outline {
            id: "b".to_string(),
            kind: "Ball",
            figure: Figure::region(vec![[x, 0.0], [x + 1.0, 0.0], [x, 1.0]]),
        }
    }

    /// No NaN or infinity is ever written: a non-finite coordinate anywhere, or a
    /// picture whose extent overflows, is refused naming the element.
    #[test]
    fn non_finite_numbers_are_refused_not_written() {
        let mut d = Drawing {
            shapes: vec![ball_at(0.0)],
            ..Drawing::default()
        };
        assert!(d.to_svg(usize::MAX).is_ok());
        d.velocities.push(([0.0, 0.0], [f64::NAN, 0.0]));
        let e = d.to_svg(usize::MAX).unwrap_err();
        assert!(
            e.starts_with("cannot draw velocity 0: a coordinate is NaN"),
            "{e}"
        );
        d.velocities.clear();
        d.rays.push(RayMark {
            from: [0.0, 0.0],
            to: [1.0, 0.0],
            hit_normal: Some([f64::INFINITY, 0.0]),
        });
        assert!(d.to_svg(usize::MAX).unwrap_err().contains("ray 0"));
        d.rays.clear();
        d.shapes.push(ball_at(f64::NEG_INFINITY));
        assert!(d
            .to_svg(usize::MAX)
            .unwrap_err()
            .contains("shape `b` (Ball)"));
        // Finite, but from -1e308 to 1e308: the width overflows.
        let d = Drawing {
            shapes: vec![ball_at(-1e308), ball_at(1e308)],
            ..Drawing::default()
        };
        let e = d.to_svg(usize::MAX).unwrap_err();
        assert!(
            e.contains("too wide") && e.contains("nothing was written"),
            "{e}"
        );
    }

    /// Ids keep their text, markup escaped and controls XML forbids replaced.
    #[test]
    fn escape_makes_any_id_xml() {
        assert_eq!(escape("a&<>\"'b"), "a&amp;&lt;&gt;&quot;&apos;b");
        assert_eq!(
            escape("a\u{1}\u{1f}\u{fffe}\u{ffff}b"),
            "a\u{fffd}\u{fffd}\u{fffd}\u{fffd}b"
        );
        assert_eq!(escape("tab\tnew\nline\u{7f}é"), "tab\tnew\nline\u{7f}é");
    }
}
