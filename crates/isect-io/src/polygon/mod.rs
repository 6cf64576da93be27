//! Polygons with holes from GeoJSON ([`geojson`](::geojson)) and WKT ([`wkt`](::wkt)), each behind its
//! feature, and conversions from and to [`geo_types`] (feature `geo`). A Polygon gives
//! one [`ConcavePolygon`], a MultiPolygon (or a geometry collection) one per member, in
//! file order. Rings may be closed (the repeated closing vertex is dropped) and wound
//! either way; holes are kept. Errors name the file and where (feature, polygon, ring,
//! vertex, or WKT line); a refused polygon carries the library's message.

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
use isect::shape::ConcavePolygon;
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
        let rings = std::iter::once(&self.outer).chain(&self.holes);
        for (ring, points) in rings.enumerate() {
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

    /// The [`ConcavePolygon`] of this data in precision `R`, through
    /// [`ConcavePolygon::new`].
    ///
    /// # Errors
    /// The constructor's error (self-intersecting, degenerate, too few points, ...),
    /// naming `path` and the polygon's location.
    pub fn to_polygon<R: Real>(&self, path: &Path) -> Result<ConcavePolygon<R>, Error> {
        let ring = |r: &Vec<[f64; 2]>| -> Vec<R::V2> {
            r.iter()
                .map(|p| {
                    R::V2::ZERO
                        .with(0, R::from_f64(p[0]))
                        .with(1, R::from_f64(p[1]))
                })
                .collect()
        };
        ConcavePolygon::new(ring(&self.outer), self.holes.iter().map(ring).collect())
            .map_err(|e| Error::new(path, self.location.clone(), e.to_string()))
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
/// `json`: GeoJSON; `wkt`: one WKT geometry a line).
///
/// # Errors
/// An unknown extension, a format whose feature is off, or the reader's error.
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
