//! Polygons with holes from GeoJSON (read through [`geojson`](::geojson)) and WKT (read
//! here, to place every error at its line and column), each behind its feature, and
//! conversions from and to [`geo_types`] (feature `geo`). A Polygon gives one
//! [`ConcavePolygon`], a MultiPolygon (or a geometry collection) one per member, in
//! file order. Rings may be closed (the repeated closing vertex is dropped) and wound
//! either way; holes are kept.
//!
//! What the readers accept, and what they refuse:
//! - A UTF-8 byte order mark at the start of the file is skipped.
//! - Positions give x and y; a third (z) and fourth (m) number are read and ignored
//!   (GeoJSON altitude; WKT `Z`, `M`, `ZM`), since the shapes are planar. A position
//!   with fewer than 2 numbers, or a number that is not finite (WKT `NaN`, `inf`,
//!   `1e400`), is an error at that position.
//! - An empty geometry (WKT `POLYGON EMPTY`, `MULTIPOLYGON EMPTY`, `GEOMETRYCOLLECTION
//!   EMPTY`, a member `EMPTY`; GeoJSON `"coordinates": []`, a feature whose geometry
//!   is `null`) holds no polygon and is skipped, as the null geometry of a feature is.
//!   A file that holds no polygon at all (empty, blank, or only empty geometries) is an
//!   error, "the file holds no polygon": every reader returns at least one polygon.
//!   An empty ring of a polygon that has rings is an error (a ring needs 3 distinct
//!   points).
//! - WKT holds one geometry a line (blank lines skipped, a geometry may not span
//!   lines); text after the geometry on its line (a second geometry, junk, a `;`) is
//!   refused at its line and column. An EWKT `SRID=n;` prefix is accepted and ignored
//!   (coordinates are taken as they are, as GeoJSON's are).
//!
//! Errors name the file and where:
//! - GeoJSON: the feature (its index in the FeatureCollection; 0 for a lone Feature;
//!   none for a bare geometry), the polygon, the ring (0 the exterior, 1.. the holes)
//!   and the vertex (its index in the ring as written); the JSON line and column of a
//!   document that does not parse.
//! - WKT: the line of the problem (`FILE:LINE: WKT: column C: ...`: the column is in
//!   the message), and in words the polygon, ring and vertex it belongs to.
//! - "Polygon k" counts the polygons of one feature (GeoJSON) or one line (WKT) in
//!   file order, through MultiPolygons and GeometryCollections, nested ones and empty
//!   members included: in a MultiPolygon it is the member's index. A lone Polygon has
//!   no polygon number. [`PolygonData::location`] carries the same.
//! - A polygon refused by [`ConcavePolygon::new`] is reported at the polygon's location
//!   with the library's message, its vertex numbers (which count through all rings)
//!   turned into "ring r, vertex v" of the file, and the ring named for errors about a
//!   whole ring (too few points, zero area, coordinate beyond the scalar type's limit).

#[cfg(feature = "geo")]
pub mod geo;
#[cfg(feature = "geojson")]
mod geojson;
#[cfg(feature = "wkt")]
mod wkt;

#[cfg(feature = "geojson")]
pub use self::geojson::{parse_geojson, read_geojson};
#[cfg(feature = "wkt")]
pub use self::wkt::{parse_wkt, read_wkt};

use crate::error::{Error, Location};
use isect::math::{Real, Vector};
use isect::shape::{ConcavePolygon, ShapeError};
use std::path::Path;

/// A polygon as read from a file: its rings without the closing repeat, and where it
/// was found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PolygonData {
    /// The outer ring.
    pub outer: Vec<[f64; 2]>,
    /// The holes.
    pub holes: Vec<Vec<[f64; 2]>>,
    /// Where the polygon is in its file (feature, polygon, line).
    pub location: Location,
}

impl PolygonData {
    /// The polygon of `rings` (the first the outer ring) found at `location`, each ring
    /// without its closing repeat; refuses a non-finite coordinate, naming its ring and
    /// vertex.
    ///
    /// # Errors
    /// A NaN or infinite coordinate, or no ring at all.
    pub fn from_rings(
        rings: Vec<Vec<[f64; 2]>>,
        location: Location,
        path: &Path,
    ) -> Result<Self, Error> {
        let mut rings = rings.into_iter().map(open_ring);
        let outer = rings
            .next()
            .ok_or_else(|| Error::new(path, location.clone(), "polygon has no rings"))?;
        let data = Self {
            outer,
            holes: rings.collect(),
            location,
        };
        data.check_finite(path)?;
        Ok(data)
    }

    /// Every coordinate is finite, or the error names the first that is not.
    fn check_finite(&self, path: &Path) -> Result<(), Error> {
        for (ring, points) in self.rings().enumerate() {
            if let Some(vertex) = points
                .iter()
                .position(|p| !(p[0].is_finite() && p[1].is_finite()))
            {
                let at = Location {
                    ring: Some(ring),
                    vertex: Some(vertex),
                    ..self.location.clone()
                };
                let msg = format!("coordinate {:?} is not finite", points[vertex]);
                return Err(Error::new(path, at, msg));
            }
        }
        Ok(())
    }

    /// The outer ring, then the holes.
    fn rings(&self) -> impl Iterator<Item = &Vec<[f64; 2]>> {
        std::iter::once(&self.outer).chain(&self.holes)
    }

    /// The [`ConcavePolygon`] of this data in precision `R`, through
    /// [`ConcavePolygon::new`].
    ///
    /// # Errors
    /// A coordinate beyond `R`'s range ([`Real::MAX_COORD`]), or the constructor's
    /// error (self-intersecting, degenerate, too few points, ...), naming `path` and
    /// the polygon's location, its vertex numbers turned into the ring and the vertex
    /// in the ring.
    pub fn to_polygon<R: Real>(&self, path: &Path) -> Result<ConcavePolygon<R>, Error> {
        let refuse = |message: String| Error::new(path, self.location.clone(), message);
        let mut rings: Vec<Vec<R::V2>> = Vec::with_capacity(self.holes.len() + 1);
        for (r, ring) in self.rings().enumerate() {
            let mut points = Vec::with_capacity(ring.len());
            for (v, p) in ring.iter().enumerate() {
                let (x, y) = (R::from_f64(p[0]), R::from_f64(p[1]));
                // Beyond the limit, or beyond f32's range (a finite f64 turned infinite);
                // NaN is left to the constructor.
                if x.abs().max(y.abs()) > R::MAX_COORD {
                    let value = p[0].abs().max(p[1].abs());
                    return Err(refuse(format!(
                        "ConcavePolygon: ring {r}, vertex {v} has magnitude {value:e}, beyond \
                         the limit {:e} of its scalar type (Real::MAX_COORD)",
                        R::MAX_COORD.to_f64()
                    )));
                }
                points.push(R::V2::ZERO.with(0, x).with(1, y));
            }
            rings.push(points);
        }
        let mut input = rings.clone().into_iter();
        let outer = input.next().unwrap_or_default();
        ConcavePolygon::new(outer, input.collect())
            .map_err(|e| refuse(ring_message::<R>(&e, &rings)))
    }
}

/// The message of the constructor's error `e` on `rings`, its vertex numbers (counted
/// through the rings) turned into "ring r, vertex v", and the ring named for an error
/// about one ring.
fn ring_message<R: Real>(e: &ShapeError, rings: &[Vec<R::V2>]) -> String {
    let vertex = |mut g: usize| -> String {
        for (r, ring) in rings.iter().enumerate() {
            if g < ring.len() {
                return format!("ring {r}, vertex {g}");
            }
            g -= ring.len();
        }
        format!("vertex {g} past the last ring")
    };
    // The library's message after its `ConcavePolygon: `, prefixed with the ring.
    let about_ring = |shape: &str, ring: Option<usize>| -> String {
        let text = e.to_string();
        match ring {
            Some(r) => {
                let rest = text.strip_prefix(&format!("{shape}: ")).unwrap_or(&text);
                format!("{shape}: ring {r}: {rest}")
            }
            None => text,
        }
    };
    match *e {
        ShapeError::InvalidVertex {
            shape,
            vertex: g,
            reason,
        } => format!("{shape}: {} {reason}", vertex(g)),
        ShapeError::SelfIntersecting {
            shape,
            edge_a,
            edge_b,
            relation,
        } => format!(
            "{shape}: edge starting at {} {relation} edge starting at {}",
            vertex(edge_a),
            vertex(edge_b)
        ),
        ShapeError::TooLarge {
            shape,
            index: Some(g),
            value,
            limit,
            ..
        } => format!(
            "{shape}: {} has magnitude {value:e}, beyond the limit {limit:e} of its scalar \
             type (Real::MAX_COORD)",
            vertex(g)
        ),
        // The first ring with fewer than 3 distinct points (the constructor's count:
        // vertices unequal to the next one, around the ring).
        ShapeError::TooFewPoints { shape, needed, .. } => {
            let ring = rings.iter().position(|ring| {
                let n = ring.len();
                (0..n).filter(|&i| ring[i] != ring[(i + 1) % n]).count() < needed
            });
            about_ring(shape, ring)
        }
        ShapeError::OutOfRange { shape, field, .. } if field.starts_with("outer") => {
            about_ring(shape, Some(0))
        }
        ShapeError::Degenerate { shape, reason } if reason.contains("outer ring") => {
            about_ring(shape, Some(0))
        }
        // A flat hole: the first hole refused alone as flat.
        ShapeError::Degenerate { shape, reason } if reason.contains("hole") => {
            let hole = (1..rings.len()).find(|&k| {
                matches!(
                    ConcavePolygon::<R>::new(rings[k].clone(), Vec::new()),
                    Err(ShapeError::Degenerate { reason, .. }) if reason.contains("one line")
                )
            });
            about_ring(shape, hole)
        }
        _ => e.to_string(),
    }
}

/// `ring` without its last vertex when that repeats the first (a closed ring).
pub fn open_ring(mut ring: Vec<[f64; 2]>) -> Vec<[f64; 2]> {
    if ring.len() > 1 && ring.first() == ring.last() {
        ring.pop();
    }
    ring
}

/// Reads the polygon file at `path`, its format from its extension (`geojson` or
/// `json`: GeoJSON; `wkt`: one WKT geometry a line). Returns at least one polygon.
///
/// # Errors
/// An unknown extension, a format whose feature is off, or the reader's error (a file
/// that holds no polygon among them).
pub fn read_polygons(path: &Path) -> Result<Vec<PolygonData>, Error> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    match ext.as_str() {
        #[cfg(feature = "geojson")]
        "geojson" | "json" => read_geojson(path),
        #[cfg(feature = "wkt")]
        "wkt" => read_wkt(path),
        _ => Err(Error::file(
            path,
            format!(
                "unknown polygon format `.{ext}`: this build reads {}",
                POLYGON_FORMATS.join(", ")
            ),
        )),
    }
}

/// The error of a file that holds no polygon (`why` says what it holds instead).
#[cfg(any(feature = "geojson", feature = "wkt"))]
fn no_polygon(path: &Path, why: &str) -> Error {
    Error::file(
        path,
        format!("the file holds no polygon ({why}); a polygon file needs at least one"),
    )
}

/// The polygon extensions of this build.
const POLYGON_FORMATS: &[&str] = &[
    #[cfg(feature = "geojson")]
    ".geojson, .json",
    #[cfg(feature = "wkt")]
    ".wkt",
];

/// Reads the polygon file at `path` (as [`read_polygons`]) into [`ConcavePolygon`]s
/// of precision `R`, one per polygon, in file order.
///
/// # Errors
/// As [`read_polygons`] and [`PolygonData::to_polygon`].
pub fn load_polygons<R: Real>(path: &Path) -> Result<Vec<ConcavePolygon<R>>, Error> {
    read_polygons(path)?
        .iter()
        .map(|p| p.to_polygon(path))
        .collect()
}
