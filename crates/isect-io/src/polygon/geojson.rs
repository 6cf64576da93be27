//! GeoJSON (RFC 7946) through [`geojson`]: a geometry, a feature or a feature
//! collection; Polygon and MultiPolygon geometries (also inside geometry
//! collections) give polygons; a feature without geometry, and an empty geometry
//! (`"coordinates": []`), are skipped; any other geometry type is an error naming its
//! feature (and its member of a collection). A position gives x and y; numbers after
//! them (altitude) are ignored; fewer than 2 is an error naming the feature, polygon,
//! ring and vertex. A file that holds no polygon is an error.

use super::{no_polygon, PolygonData};
use crate::error::strip_bom;
use crate::error::{read_text, Error, Location};
use geojson::{GeoJson, Geometry, GeometryValue, PolygonType};
use std::path::Path;

/// Reads the GeoJSON file at `path`.
///
/// # Errors
/// The file cannot be read, is not GeoJSON (with the line and column of the JSON
/// error), holds a geometry that is not a polygon, a position with fewer than 2
/// numbers, or no polygon at all.
pub fn read_geojson(path: &Path) -> Result<Vec<PolygonData>, Error> {
    parse_geojson(&read_text(path)?, path)
}

/// Parses GeoJSON `text` (a leading byte order mark skipped); `path` names it in the
/// messages.
///
/// # Errors
/// As [`read_geojson`].
pub fn parse_geojson(text: &str, path: &Path) -> Result<Vec<PolygonData>, Error> {
    let text = strip_bom(text);
    if text.trim().is_empty() {
        return Err(no_polygon(path, "it is empty"));
    }
    let doc: GeoJson = text.parse().map_err(|e| json_error(e, path))?;
    let mut walk = Walk {
        path,
        out: Vec::new(),
        geometries: 0,
    };
    match doc {
        GeoJson::Geometry(g) => walk.feature(Some(&g), None)?,
        GeoJson::Feature(f) => walk.feature(f.geometry.as_ref(), Some(0))?,
        GeoJson::FeatureCollection(c) => {
            if c.features.is_empty() {
                return Err(no_polygon(path, "the FeatureCollection has no features"));
            }
            for (i, f) in c.features.iter().enumerate() {
                walk.feature(f.geometry.as_ref(), Some(i))?;
            }
        }
    }
    if walk.out.is_empty() {
        let why = match walk.geometries {
            0 => "no feature has a geometry",
            _ => "its geometries are all empty",
        };
        return Err(no_polygon(path, why));
    }
    Ok(walk.out)
}

/// The error of a document that does not parse, at its line and column when JSON
/// says where.
fn json_error(e: geojson::Error, path: &Path) -> Error {
    match e {
        geojson::Error::MalformedGeoJson(j) if j.line() > 0 => {
            let at = Location {
                line: Some(j.line()),
                // serde_json says column 0 before a line's first character (the end
                // of the text after a newline): no column then, columns count from 1.
                column: Some(j.column()).filter(|&c| c > 0),
                ..Location::default()
            };
            let full = j.to_string();
            let suffix = format!(" at line {} column {}", j.line(), j.column());
            let msg = full.strip_suffix(&suffix).unwrap_or(&full).to_string();
            Error::new(path, at, format!("GeoJSON: {msg}"))
        }
        other => Error::file(path, format!("GeoJSON: {other}")),
    }
}

/// The polygons found so far, and how many non-null geometries were seen.
struct Walk<'a> {
    path: &'a Path,
    out: Vec<PolygonData>,
    geometries: usize,
}

/// The polygons of one feature (or of the top-level geometry, `feature` then `None`),
/// numbered from 0 through its multipolygons and collections.
struct Feature {
    at: Location,
    next_polygon: usize,
}

impl Walk<'_> {
    /// The polygons of feature `index` (`None` for a bare geometry) whose geometry is
    /// `geometry`.
    fn feature(&mut self, geometry: Option<&Geometry>, index: Option<usize>) -> Result<(), Error> {
        let Some(g) = geometry else {
            return Ok(());
        };
        let mut feature = Feature {
            at: Location {
                feature: index,
                ..Location::default()
            },
            next_polygon: 0,
        };
        self.geometry(g, &mut feature, None)
    }

    /// The polygons of `g`; `member` is its index in the geometry collection holding
    /// it (whose polygons are then numbered).
    fn geometry(
        &mut self,
        g: &Geometry,
        feature: &mut Feature,
        member: Option<usize>,
    ) -> Result<(), Error> {
        self.geometries += 1;
        match &g.value {
            GeometryValue::Polygon { coordinates } => {
                let number = member.map(|_| feature.next_polygon);
                feature.next_polygon += 1;
                self.polygon(coordinates, &feature.at, number)?;
            }
            GeometryValue::MultiPolygon { coordinates } => {
                for p in coordinates {
                    let number = Some(feature.next_polygon);
                    feature.next_polygon += 1;
                    self.polygon(p, &feature.at, number)?;
                }
            }
            GeometryValue::GeometryCollection { geometries } => {
                for (i, g) in geometries.iter().enumerate() {
                    self.geometry(g, feature, Some(i))?;
                }
            }
            other => {
                let within = match member {
                    Some(i) => format!(" (member {i} of a GeometryCollection)"),
                    None => String::new(),
                };
                let msg = format!(
                    "a {}{within} is not a Polygon or MultiPolygon",
                    other.type_name()
                );
                return Err(Error::new(self.path, feature.at.clone(), msg));
            }
        }
        Ok(())
    }

    /// One polygon's rings, x and y of each position (numbers after them dropped), as
    /// polygon `number` of the feature at `at`; an empty one is skipped.
    fn polygon(
        &mut self,
        rings: &PolygonType,
        at: &Location,
        number: Option<usize>,
    ) -> Result<(), Error> {
        if rings.is_empty() {
            return Ok(());
        }
        let here = Location {
            polygon: number,
            ..at.clone()
        };
        let mut points = Vec::with_capacity(rings.len());
        for (r, ring) in rings.iter().enumerate() {
            let mut xy = Vec::with_capacity(ring.len());
            for (v, position) in ring.iter().enumerate() {
                match position.as_slice() {
                    [x, y, ..] => xy.push([*x, *y]),
                    short => {
                        let at = Location {
                            ring: Some(r),
                            vertex: Some(v),
                            ..here.clone()
                        };
                        let msg = format!(
                            "the position {short:?} has {} number(s); a position needs at \
                             least 2 (x, y)",
                            short.len()
                        );
                        return Err(Error::new(self.path, at, msg));
                    }
                }
            }
            points.push(xy);
        }
        self.out
            .push(PolygonData::from_rings(points, here, self.path)?);
        Ok(())
    }
}
