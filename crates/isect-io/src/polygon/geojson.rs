//! GeoJSON (RFC 7946) through [`geojson`]: a geometry, a feature or a feature
//! collection; Polygon and MultiPolygon geometries (also inside geometry
//! collections) give polygons; a feature without geometry is skipped; any other
//! geometry type is an error naming its feature.

use super::PolygonData;
use crate::error::{read_text, Error, Location};
use geojson::{GeoJson, Geometry, GeometryValue, PolygonType};
use std::path::Path;

/// Reads the GeoJSON file at `path`.
///
/// # Errors
/// The file cannot be read, is not GeoJSON (with the line and column of the JSON
/// error), or holds a geometry that is not a polygon, or a non-finite coordinate.
pub fn read_geojson(path: &Path) -> Result<Vec<PolygonData>, Error> {
    parse_geojson(&read_text(path)?, path)
}

/// Parses GeoJSON `text`; `path` names it in the messages.
///
/// # Errors
/// As [`read_geojson`].
pub fn parse_geojson(text: &str, path: &Path) -> Result<Vec<PolygonData>, Error> {
    let doc: GeoJson = text.parse().map_err(|e| json_error(e, path))?;
    let mut out = Vec::new();
    match doc {
        GeoJson::Geometry(g) => add_geometry(&g, &Location::default(), path, &mut out)?,
        GeoJson::Feature(f) => add_feature(f.geometry.as_ref(), 0, path, &mut out)?,
        GeoJson::FeatureCollection(c) => {
            for (i, f) in c.features.iter().enumerate() {
                add_feature(f.geometry.as_ref(), i, path, &mut out)?;
            }
        }
    }
    Ok(out)
}

/// The error of a document that does not parse, at its line and column when JSON
/// says where.
fn json_error(e: geojson::Error, path: &Path) -> Error {
    match e {
        geojson::Error::MalformedGeoJson(j) if j.line() > 0 => {
            let at = Location {
                line: Some(j.line()),
                column: Some(j.column()),
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

/// The polygons of feature `index`.
fn add_feature(
    geometry: Option<&Geometry>,
    index: usize,
    path: &Path,
    out: &mut Vec<PolygonData>,
) -> Result<(), Error> {
    let at = Location {
        feature: Some(index),
        ..Location::default()
    };
    match geometry {
        Some(g) => add_geometry(g, &at, path, out),
        None => Ok(()),
    }
}

/// The polygons of `g`, numbered from the count already in `out` for this feature.
fn add_geometry(
    g: &Geometry,
    at: &Location,
    path: &Path,
    out: &mut Vec<PolygonData>,
) -> Result<(), Error> {
    match &g.value {
        GeometryValue::Polygon { coordinates } => out.push(polygon(coordinates, at.clone(), path)?),
        GeometryValue::MultiPolygon { coordinates } => {
            for (k, p) in coordinates.iter().enumerate() {
                let here = Location {
                    polygon: Some(k),
                    ..at.clone()
                };
                out.push(polygon(p, here, path)?);
            }
        }
        GeometryValue::GeometryCollection { geometries } => {
            for g in geometries {
                add_geometry(g, at, path, out)?;
            }
        }
        other => {
            let msg = format!("a {} is not a Polygon or MultiPolygon", other.type_name());
            return Err(Error::new(path, at.clone(), msg));
        }
    }
    Ok(())
}

/// One polygon's rings, x and y of each position (a third coordinate is dropped).
fn polygon(rings: &PolygonType, at: Location, path: &Path) -> Result<PolygonData, Error> {
    let rings = rings
        .iter()
        .map(|r| r.iter().map(|p| [p[0], p[1]]).collect())
        .collect();
    PolygonData::from_rings(rings, at, path)
}
