//! WKT through [`wkt`]: one geometry a line (blank lines skipped), each a POLYGON, a
//! MULTIPOLYGON or a GEOMETRYCOLLECTION of them; errors name the line.

use super::PolygonData;
use crate::error::{read_text, Error, Location};
use std::path::Path;
use std::str::FromStr;
use wkt::Wkt;

/// Reads the WKT file at `path`.
///
/// # Errors
/// The file cannot be read, a line is not WKT, holds a geometry that is not a
/// polygon, or a non-finite coordinate; each naming the line.
pub fn read_wkt(path: &Path) -> Result<Vec<PolygonData>, Error> {
    parse_wkt(&read_text(path)?, path)
}

/// Parses WKT `text`, one geometry a line; `path` names it in the messages.
///
/// # Errors
/// As [`read_wkt`].
pub fn parse_wkt(text: &str, path: &Path) -> Result<Vec<PolygonData>, Error> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = Location::line(i + 1);
        let geometry = Wkt::<f64>::from_str(line.trim())
            .map_err(|e| Error::new(path, at.clone(), format!("WKT: {e}")))?;
        add_geometry(&geometry, &at, path, &mut out)?;
    }
    Ok(out)
}

/// The polygons of `g`.
fn add_geometry(
    g: &Wkt<f64>,
    at: &Location,
    path: &Path,
    out: &mut Vec<PolygonData>,
) -> Result<(), Error> {
    match g {
        Wkt::Polygon(p) => out.push(polygon(p, at.clone(), path)?),
        Wkt::MultiPolygon(m) => {
            for (k, p) in m.polygons().iter().enumerate() {
                let here = Location {
                    polygon: Some(k),
                    ..at.clone()
                };
                out.push(polygon(p, here, path)?);
            }
        }
        Wkt::GeometryCollection(c) => {
            for g in c.geometries() {
                add_geometry(g, at, path, out)?;
            }
        }
        _ => {
            let msg = "the geometry is not a POLYGON or MULTIPOLYGON";
            return Err(Error::new(path, at.clone(), msg));
        }
    }
    Ok(())
}

/// One polygon's rings (x and y of each coordinate).
fn polygon(p: &wkt::types::Polygon<f64>, at: Location, path: &Path) -> Result<PolygonData, Error> {
    let rings = p
        .rings()
        .iter()
        .map(|r| r.coords().iter().map(|c| [c.x, c.y]).collect())
        .collect();
    PolygonData::from_rings(rings, at, path)
}
