//! Conversions between the library's [`ConcavePolygon`] and [`geo_types`]' `Polygon`
//! and `MultiPolygon` (the types of the `geo` ecosystem: shapely-like operations,
//! projections, the `geojson`, `wkt` and `shapefile` crates).

use super::open_ring;
use geo_types::{Coord, LineString, MultiPolygon, Polygon};
use isect::math::{Real, Vector};
use isect::shape::{ConcavePolygon, ShapeError};

/// The [`ConcavePolygon`] of a geo-types polygon (closed rings, either winding, holes
/// kept), through [`ConcavePolygon::new`].
///
/// # Errors
/// The constructor's [`ShapeError`] (NaN, self-intersecting, degenerate, ...).
pub fn polygon_from_geo<R: Real>(p: &Polygon<f64>) -> Result<ConcavePolygon<R>, ShapeError> {
    let ring = |l: &LineString<f64>| -> Vec<R::V2> {
        open_ring(l.0.iter().map(|c| [c.x, c.y]).collect())
            .into_iter()
            .map(|c| {
                R::V2::ZERO
                    .with(0, R::from_f64(c[0]))
                    .with(1, R::from_f64(c[1]))
            })
            .collect()
    };
    ConcavePolygon::new(ring(p.exterior()), p.interiors().iter().map(ring).collect())
}

/// One [`ConcavePolygon`] per member of a geo-types multipolygon.
///
/// # Errors
/// The first member's [`ShapeError`].
pub fn polygons_from_geo<R: Real>(
    m: &MultiPolygon<f64>,
) -> Result<Vec<ConcavePolygon<R>>, ShapeError> {
    m.0.iter().map(polygon_from_geo).collect()
}

/// The geo-types polygon of `p` (rings closed, exterior counter-clockwise as the
/// library keeps it).
pub fn polygon_to_geo<R: Real>(p: &ConcavePolygon<R>) -> Polygon<f64> {
    let ring = |r: &[R::V2]| -> LineString<f64> {
        r.iter()
            .map(|v| Coord {
                x: v.get(0).to_f64(),
                y: v.get(1).to_f64(),
            })
            .collect()
    };
    Polygon::new(ring(p.outer()), p.holes().iter().map(|h| ring(h)).collect())
}

/// The geo-types multipolygon of `polygons`.
pub fn polygons_to_geo<R: Real>(polygons: &[ConcavePolygon<R>]) -> MultiPolygon<f64> {
    MultiPolygon(polygons.iter().map(polygon_to_geo).collect())
}
