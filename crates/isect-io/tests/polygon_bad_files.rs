//! The polygon readers (GeoJSON, WKT) on bad and borderline files, each case a class:
//! positions with too few numbers (never a panic), polygons inside collections and
//! multipolygons named in every error, text after a WKT geometry, the library's
//! errors placed at their ring and vertex, files that hold no polygon, byte order
//! marks, non-finite WKT numbers; every error names the file and the position.
//! The texts are written here (parsed from memory under a file name, or written to
//! files under `CARGO_TARGET_TMPDIR` where the file itself matters).

use isect::shape::ConcavePolygon;
use isect_io::polygon::{load_polygons, parse_geojson, parse_wkt, read_polygons, PolygonData};
use isect_io::{scene, Error, Location};
use std::path::{Path, PathBuf};

/// The polygons of `text` read as the file `name` (its format from the extension),
/// built in f64.
fn load(name: &str, text: &str) -> Result<Vec<ConcavePolygon<f64>>, Error> {
    load_as::<f64>(name, text)
}

/// As [`load`] in precision `R`.
fn load_as<R: isect::math::Real>(name: &str, text: &str) -> Result<Vec<ConcavePolygon<R>>, Error> {
    let path = Path::new(name);
    read(name, text)?
        .iter()
        .map(|p| p.to_polygon::<R>(path))
        .collect()
}

/// The polygon data of `text` read as the file `name`.
fn read(name: &str, text: &str) -> Result<Vec<PolygonData>, Error> {
    let path = Path::new(name);
    match path.extension().and_then(|e| e.to_str()) {
        Some("wkt") => parse_wkt(text, path),
        _ => parse_geojson(text, path),
    }
}

/// The error of `text` read as `name` (which must be refused), as displayed; it must
/// name the file.
fn refused(name: &str, text: &str) -> (String, Error) {
    match load(name, text) {
        Ok(p) => panic!("{name} was read: {} polygons from {text}", p.len()),
        Err(e) => {
            let shown = e.to_string();
            assert!(shown.starts_with(name), "{shown} does not name {name}");
            (shown, e)
        }
    }
}

/// The displayed error of `text` read as `name`, which must contain `expected`.
fn assert_refused(name: &str, text: &str, expected: &str) -> Error {
    let (shown, e) = refused(name, text);
    assert!(shown.contains(expected), "{shown}\n  lacks: {expected}");
    e
}

/// A location of these fields.
fn at(
    feature: Option<usize>,
    polygon: Option<usize>,
    ring: Option<usize>,
    vertex: Option<usize>,
) -> Location {
    Location {
        feature,
        polygon,
        ring,
        vertex,
        ..Location::default()
    }
}

/// A square ring `[[x, y], ...]` of side 4 at `x`, closed, as GeoJSON.
fn square(x: i32) -> String {
    format!("[[{x},0],[{},0],[{},4],[{x},4],[{x},0]]", x + 4, x + 4)
}

/// A folder for the tests' files.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("polygon_bad_files");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

// ------------------------------------------------------- 1. short GeoJSON positions

#[test]
fn geojson_positions_with_fewer_than_two_numbers_are_errors_at_their_vertex() {
    // The reviewer's file: a 1-number position, vertex 1 of the outer ring.
    let e = assert_refused(
        "g1.geojson",
        r#"{"type":"Polygon","coordinates":[[[0,0],[1],[1,1],[0,0]]]}"#,
        "g1.geojson: ring 0, vertex 1: the position [1.0] has 1 number(s); a position needs at least 2",
    );
    assert_eq!(*e.location, at(None, None, Some(0), Some(1)));
    // An empty position. (As the first of the file, it makes the geojson crate read
    // the nesting one level off: refused at its JSON line and column.)
    assert_refused(
        "g0.geojson",
        r#"{"type":"Polygon","coordinates":[[[0,0],[4,0],[],[0,0]]]}"#,
        "g0.geojson: ring 0, vertex 2: the position [] has 0 number(s)",
    );
    assert_refused(
        "g00.geojson",
        r#"{"type":"Polygon","coordinates":[[[],[4,0],[4,4],[0,0]]]}"#,
        "g00.geojson:1:",
    );
    // In a hole of member 1 of a MultiPolygon of feature 2.
    let text = format!(
        r#"{{"type":"FeatureCollection","features":[
            {{"type":"Feature","properties":null,"geometry":null}},
            {{"type":"Feature","properties":null,"geometry":{{"type":"Polygon","coordinates":[{}]}}}},
            {{"type":"Feature","properties":null,"geometry":{{"type":"MultiPolygon","coordinates":[
                [{}], [{}, [[11,1],[12,1],[12],[11,2],[11,1]]]]}}}}]}}"#,
        square(0),
        square(0),
        square(10)
    );
    let e = assert_refused(
        "deep.geojson",
        &text,
        "deep.geojson: feature 2, polygon 1, ring 1, vertex 2: the position [12.0] has 1 number(s)",
    );
    assert_eq!(*e.location, at(Some(2), Some(1), Some(1), Some(2)));
    // In a geometry collection: polygon 1 of the collection.
    let text = format!(
        r#"{{"type":"GeometryCollection","geometries":[
            {{"type":"Polygon","coordinates":[{}]}},
            {{"type":"Polygon","coordinates":[[[0,0],[4,0],[4]]]}}]}}"#,
        square(0)
    );
    assert_refused(
        "gc.geojson",
        &text,
        "gc.geojson: polygon 1, ring 0, vertex 2: the position [4.0]",
    );
}

#[test]
fn geojson_altitudes_are_ignored_and_out_of_range_numbers_refused() {
    // A z (RFC 7946 altitude), and a fourth number, are read and dropped.
    let flat = load(
        "flat.geojson",
        &format!(r#"{{"type":"Polygon","coordinates":[{}]}}"#, square(0)),
    )
    .unwrap();
    let z = r#"{"type":"Polygon","coordinates":[[[0,0,5],[4,0,5],[4,4,5],[0,4,5],[0,0,5]]]}"#;
    let zm =
        r#"{"type":"Polygon","coordinates":[[[0,0,5,1],[4,0,5,1],[4,4,5,1],[0,4,5,1],[0,0,5,1]]]}"#;
    for (name, text) in [("z.geojson", z), ("zm.geojson", zm)] {
        let p = load(name, text).unwrap();
        assert_eq!((p.len(), p[0].area()), (1, flat[0].area()), "{name}");
        assert_eq!(p[0].outer(), flat[0].outer(), "{name}");
    }
    // JSON has no NaN nor infinity; a number beyond f64 stops the parser at it.
    let e = assert_refused(
        "big.geojson",
        r#"{"type":"Polygon","coordinates":[[[0,0],[1e400,0],[4,4],[0,0]]]}"#,
        "big.geojson:1:",
    );
    assert!(e.location.column.is_some(), "{e}");
}

// ------------------------------------------------- 2. members of collections named

#[test]
fn polygons_of_collections_are_numbered_in_their_locations() {
    // GeoJSON: a collection holding a Polygon and a MultiPolygon of two, in feature
    // 1; a lone Polygon in feature 2 has no number.
    let text = format!(
        r#"{{"type":"FeatureCollection","features":[
            {{"type":"Feature","properties":null,"geometry":null}},
            {{"type":"Feature","properties":null,"geometry":{{"type":"GeometryCollection","geometries":[
                {{"type":"Polygon","coordinates":[{}]}},
                {{"type":"MultiPolygon","coordinates":[[{}],[{}]]}}]}}}},
            {{"type":"Feature","properties":null,"geometry":{{"type":"Polygon","coordinates":[{}]}}}}]}}"#,
        square(0),
        square(10),
        square(20),
        square(30)
    );
    let found: Vec<_> = read("fc.geojson", &text)
        .unwrap()
        .iter()
        .map(|p| (p.location.feature, p.location.polygon, p.outer[0][0]))
        .collect();
    assert_eq!(
        found,
        [
            (Some(1), Some(0), 0.0),
            (Some(1), Some(1), 10.0),
            (Some(1), Some(2), 20.0),
            (Some(2), None, 30.0)
        ]
    );
    // WKT: a collection with a nested collection; numbered through, per line.
    let wkt = "POLYGON ((0 0, 4 0, 4 4, 0 0))\n\
               GEOMETRYCOLLECTION (POLYGON ((0 0, 4 0, 4 4, 0 0)), \
               GEOMETRYCOLLECTION (MULTIPOLYGON (((10 0, 14 0, 14 4, 10 0)), ((20 0, 24 0, 24 4, 20 0)))))";
    let found: Vec<_> = read("gc.wkt", wkt)
        .unwrap()
        .iter()
        .map(|p| (p.location.line, p.location.polygon, p.outer[0][0]))
        .collect();
    assert_eq!(
        found,
        [
            (Some(1), None, 0.0),
            (Some(2), Some(0), 0.0),
            (Some(2), Some(1), 10.0),
            (Some(2), Some(2), 20.0)
        ]
    );
}

#[test]
fn errors_in_collections_name_the_polygon() {
    // The reviewer's GeoJSON: polygon 1 of a bare collection overlaps itself.
    let text = format!(
        r#"{{"type":"GeometryCollection","geometries":[
            {{"type":"Polygon","coordinates":[{}]}},
            {{"type":"Polygon","coordinates":[[[10,0],[14,0],[14,4],[10,0],[12,1]]]}}]}}"#,
        square(0)
    );
    let e = assert_refused(
        "gc.geojson",
        &text,
        "gc.geojson: polygon 1: ConcavePolygon: edge starting at ring 0, vertex ",
    );
    assert_eq!(*e.location, at(None, Some(1), None, None));
    // A geometry of another type, member 1 of a collection of feature 0.
    let text = format!(
        r#"{{"type":"Feature","properties":null,"geometry":{{"type":"GeometryCollection","geometries":[
            {{"type":"Polygon","coordinates":[{}]}}, {{"type":"Point","coordinates":[1,2]}}]}}}}"#,
        square(0)
    );
    assert_refused(
        "point.geojson",
        &text,
        "point.geojson: feature 0: a Point (member 1 of a GeometryCollection) is not a Polygon or MultiPolygon",
    );
    // WKT: the reviewer's collection and multipolygon, polygon 1 with 2 distinct points.
    assert_refused(
        "gc.wkt",
        "GEOMETRYCOLLECTION (POLYGON ((0 0, 4 0, 4 4, 0 0)), POLYGON ((10 0, 14 0, 10 0)))",
        "gc.wkt: line 1, polygon 1: ConcavePolygon: ring 0: needs at least 3 distinct points, got 2",
    );
    assert_refused(
        "multi.wkt",
        "\nMULTIPOLYGON (((0 0, 4 0, 4 4, 0 0)), ((10 0, 14 0, 10 0)))",
        "multi.wkt: line 2, polygon 1: ConcavePolygon: ring 0: needs at least 3",
    );
    // A syntax error inside a member names the polygon, ring and vertex in words.
    assert_refused(
        "member.wkt",
        "MULTIPOLYGON (((0 0, 4 0, 4 4, 0 0)), ((10 0, 14 x, 14 4, 10 0)))",
        "member.wkt:1: WKT: column 50: `x` is not a number (polygon 1, ring 0, vertex 1)",
    );
    assert_refused(
        "point.wkt",
        "GEOMETRYCOLLECTION (POLYGON ((0 0, 4 0, 4 4, 0 0)), POINT (1 2))",
        "point.wkt:1: the geometry is not a POLYGON or MULTIPOLYGON (nor a GEOMETRYCOLLECTION of them): column 53 holds a POINT",
    );
}

// ------------------------------------------------------- 3. text after WKT geometry

#[test]
fn wkt_text_after_the_geometry_is_refused_at_its_column() {
    let two = "POLYGON ((0 0, 4 0, 4 4, 0 0)) POLYGON ((10 0, 14 0, 14 4, 10 0))";
    assert_refused(
        "two.wkt",
        two,
        "two.wkt:1: WKT: column 32: text after the geometry: `POLYGON` (a WKT file holds one geometry a line)",
    );
    assert_refused(
        "junk.wkt",
        "POLYGON ((0 0, 4 0, 4 4, 0 0))\nPOLYGON ((0 0, 4 0, 4 4, 0 0)) junk",
        "junk.wkt:2: WKT: column 32: text after the geometry: `junk`",
    );
    assert_refused(
        "semi.wkt",
        "POLYGON ((0 0, 4 0, 4 4, 0 0));",
        "semi.wkt:1: WKT: column 31: text after the geometry: `;`",
    );
    assert_refused(
        "paren.wkt",
        "MULTIPOLYGON (((0 0, 4 0, 4 4, 0 0))))",
        "paren.wkt:1: WKT: column 38: text after the geometry: `)`",
    );
    // One geometry a line, each read: the same two polygons on two lines.
    let lines = two.replacen(") P", ")\nP", 1);
    assert_eq!(load("two_lines.wkt", &lines).unwrap().len(), 2);
    // A geometry broken over two lines is refused where the first line ends.
    assert_refused(
        "split.wkt",
        "POLYGON ((0 0, 4 0,\n 4 4, 0 0))",
        "split.wkt:1: WKT: column 20: expected the x y of ring 0, vertex 2, found the end of the line (a geometry must end on the line it starts)",
    );
    assert_refused(
        "open.wkt",
        "POLYGON ((0 0, 4 0, 4 4, 0 0)",
        "open.wkt:1: WKT: column 30: expected `,` or `)` after ring 0, found the end of the line",
    );
}

// ------------------------------------------- 4. library errors at ring and vertex

#[test]
fn constructor_errors_name_the_ring_and_the_vertex_in_the_ring() {
    let polygon = |rings: &str| {
        format!(
            r#"{{"type":"Feature","properties":null,"geometry":{{"type":"Polygon","coordinates":[{rings}]}}}}"#
        )
    };
    // The reviewer's hole crossing the outer ring: vertex 6 counted through the rings
    // (the outer ring's closing repeat dropped) is vertex 2 of ring 1.
    let e = assert_refused(
        "badhole.geojson",
        &polygon("[[0,0],[4,0],[4,4],[0,4],[0,0]],[[1,1],[5,1],[5,2],[1,2],[1,1]]"),
        "badhole.geojson: feature 0: ConcavePolygon: edge starting at ring 0, vertex 1 crosses edge starting at ring 1, vertex 2",
    );
    assert_eq!(*e.location, at(Some(0), None, None, None));
    // A hole outside the outer ring: its first vertex.
    assert_refused(
        "outside.geojson",
        &polygon(&format!("{},{},{}", square(0), "[[1,1],[2,1],[2,2],[1,1]]", "[[10,1],[11,1],[11,2],[10,1]]")),
        "outside.geojson: feature 0: ConcavePolygon: ring 2, vertex 0 belongs to a hole outside the outer ring",
    );
    // Too few distinct points, in hole 2 (ring 1 is fine).
    assert_refused(
        "few.geojson",
        &polygon(&format!(
            "{},{},{}",
            square(0),
            "[[1,1],[2,1],[2,2],[1,1]]",
            "[[3,3],[3.5,3],[3,3]]"
        )),
        "few.geojson: feature 0: ConcavePolygon: ring 2: needs at least 3 distinct points, got 2",
    );
    // An empty ring (GeoJSON and WKT).
    assert_refused(
        "emptyring.geojson",
        r#"{"type":"Polygon","coordinates":[[]]}"#,
        "emptyring.geojson: ConcavePolygon: ring 0: needs at least 3 distinct points, got 0",
    );
    assert_refused(
        "emptyring.wkt",
        "POLYGON ((0 0, 4 0, 4 4, 0 0), EMPTY)",
        "emptyring.wkt:1: ConcavePolygon: ring 1: needs at least 3 distinct points, got 0",
    );
    // A flat hole, the second one.
    assert_refused(
        "flat.geojson",
        &polygon(&format!("{},{},{}", square(0), "[[1,1],[2,1],[2,2],[1,1]]", "[[3,3],[3.2,3.2],[3.5,3.5],[3,3]]")),
        "flat.geojson: feature 0: ConcavePolygon: ring 2: zero area: a hole's points lie on one line",
    );
    // A flat outer ring, in WKT: the line, and ring 0 in words.
    assert_refused(
        "flat.wkt",
        "POLYGON ((0 0, 1 1, 2 2, 0 0))",
        "flat.wkt:1: ConcavePolygon: ring 0: zero area",
    );
    // A self-crossing member of a WKT multipolygon.
    assert_refused(
        "bowtie.wkt",
        "MULTIPOLYGON (((0 0, 4 0, 4 4, 0 0)), ((0 0, 4 4, 4 0, 0 4, 0 0)))",
        "bowtie.wkt: line 1, polygon 1: ConcavePolygon: edge starting at ring 0, vertex ",
    );
    // A coordinate beyond the scalar type's limit, in f64 and in f32 (where 1e300
    // is not even finite): its ring and vertex.
    let huge = r#"{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,4],[0,4]],[[1,1],[2,1],[2,1e300],[1,1]]]}"#;
    for e in [
        load_as::<f64>("huge.geojson", huge).err().unwrap(),
        load_as::<f32>("huge.geojson", huge).err().unwrap(),
    ] {
        let shown = e.to_string();
        assert!(
            shown.starts_with("huge.geojson: ConcavePolygon: ring 1, vertex 2 has magnitude 1e300, beyond the limit"),
            "{shown}"
        );
    }
    let e = load_as::<f32>("big.wkt", "POLYGON ((0 0, 1e9 0, 4 4, 0 0))")
        .err()
        .unwrap();
    assert!(
        e.to_string()
            .starts_with("big.wkt:1: ConcavePolygon: ring 0, vertex 1 has magnitude 1e9"),
        "{e}"
    );
    assert!(load_as::<f64>("big.wkt", "POLYGON ((0 0, 1e9 0, 4 4, 0 0))").is_ok());
}

// ------------------------------------------------------------- 5. no polygon at all

#[test]
fn files_without_a_polygon_are_refused_alike() {
    let none = "the file holds no polygon";
    for (name, text) in [
        ("empty.wkt", ""),
        ("blank.wkt", "\n  \n\t\n"),
        ("empty.wkt", "POLYGON EMPTY"),
        ("memp.wkt", "MULTIPOLYGON EMPTY"),
        ("gcempty.wkt", "GEOMETRYCOLLECTION EMPTY"),
        (
            "members.wkt",
            "MULTIPOLYGON (EMPTY, EMPTY)\nGEOMETRYCOLLECTION (POLYGON EMPTY)",
        ),
        ("empty.geojson", ""),
        ("blank.geojson", " \n"),
        ("norings.geojson", r#"{"type":"Polygon","coordinates":[]}"#),
        (
            "emptymulti.geojson",
            r#"{"type":"MultiPolygon","coordinates":[]}"#,
        ),
        (
            "gc.geojson",
            r#"{"type":"GeometryCollection","geometries":[]}"#,
        ),
        (
            "fc.geojson",
            r#"{"type":"FeatureCollection","features":[]}"#,
        ),
        (
            "null.geojson",
            r#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":null,"geometry":null}]}"#,
        ),
    ] {
        let (shown, e) = refused(name, text);
        assert!(shown.starts_with(&format!("{name}: {none} (")), "{shown}");
        assert!(e.location.is_empty(), "{shown}");
        // The same from the file, through the extension.
        let path = scratch(name);
        std::fs::write(&path, text).unwrap();
        let e = read_polygons(&path).err().unwrap().to_string();
        assert!(e.contains(none), "{e}");
    }
    // Empty members next to polygons are skipped, keeping their numbers.
    let p = read("some.wkt", "MULTIPOLYGON (EMPTY, ((0 0, 4 0, 4 4, 0 0)))").unwrap();
    assert_eq!((p.len(), p[0].location.polygon), (1, Some(1)));
    let text = format!(
        r#"{{"type":"MultiPolygon","coordinates":[[{}],[],[{}]]}}"#,
        square(0),
        square(10)
    );
    let p = read("some.geojson", &text).unwrap();
    let numbers: Vec<_> = p.iter().map(|p| p.location.polygon).collect();
    assert_eq!(numbers, [Some(0), Some(2)]);
}

#[test]
fn a_scene_referencing_a_file_without_polygon_says_so() {
    let file = scratch("nothing.wkt");
    std::fs::write(&file, "MULTIPOLYGON EMPTY\n").unwrap();
    let scene_file = scratch("scene_nothing.json");
    let json = r#"{"dim": 2, "shapes": [{"id": "p", "shape": {"type": "polygon_file", "path": "nothing.wkt"}}]}"#;
    std::fs::write(&scene_file, json).unwrap();
    let e = scene::load(&scene_file).err().unwrap().to_string();
    assert!(e.contains("nothing.wkt: the file holds no polygon"), "{e}");
    assert!(!e.contains("give `index`"), "{e}");
}

// ------------------------------------------------------------- 6. byte order marks

#[test]
fn a_byte_order_mark_is_skipped() {
    let wkt = "POLYGON ((0 0, 4 0, 4 4, 0 0))";
    let geojson = format!(r#"{{"type":"Polygon","coordinates":[{}]}}"#, square(0));
    for (name, text) in [("bom.wkt", wkt.to_string()), ("bom.geojson", geojson)] {
        let plain = load(name, &text).unwrap();
        let path = scratch(name);
        std::fs::write(&path, format!("\u{feff}{text}\n")).unwrap();
        let marked = load_polygons::<f64>(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(marked.len(), 1);
        assert_eq!(marked[0].outer(), plain[0].outer());
    }
    // Columns count from after the mark.
    assert_refused(
        "bomnan.wkt",
        "\u{feff}POLYGON ((0 0, NaN 0, 4 4, 0 0))",
        "bomnan.wkt:1: WKT: column 16:",
    );
}

// ------------------------------------------------------------ 7. non-finite WKT

#[test]
fn wkt_non_finite_and_bad_numbers_are_named_at_their_column() {
    for (word, column) in [
        ("NaN", 16),
        ("nan", 16),
        ("inf", 16),
        ("-Infinity", 16),
        ("1e400", 16),
    ] {
        let text = format!("POLYGON ((0 0, {word} 0, 4 4, 0 0))");
        assert_refused(
            "nan.wkt",
            &text,
            &format!("nan.wkt:1: WKT: column {column}: `{word}` is not a finite number (ring 0, vertex 1)"),
        );
    }
    assert_refused(
        "y.wkt",
        "POLYGON ((0 0, 4 0, 4 4, 0 0), (1 1, 2 1, 2 NaN, 1 1))",
        "y.wkt:1: WKT: column 45: `NaN` is not a finite number (ring 1, vertex 2)",
    );
    assert_refused(
        "word.wkt",
        "POLYGON ((0 0, 4 zero, 4 4, 0 0))",
        "word.wkt:1: WKT: column 18: `zero` is not a number (ring 0, vertex 1)",
    );
    // Positions of the wrong size for the tag, or none for a comma pair.
    assert_refused(
        "one.wkt",
        "POLYGON ((0 0, 4, 4 4, 0 0))",
        "one.wkt:1: WKT: column 16: a POLYGON position has 2 to 4 numbers (x y [z [m]]), this one has 1 (ring 0, vertex 1)",
    );
    assert_refused(
        "z.wkt",
        "POLYGON Z ((0 0 1, 4 0, 4 4 1, 0 0 1))",
        "z.wkt:1: WKT: column 20: a POLYGON Z position has 3 numbers (x y z, or x y m), this one has 2 (ring 0, vertex 1)",
    );
    assert_refused(
        "comma.wkt",
        "POLYGON ((0 0,, 4 4, 0 0))",
        "comma.wkt:1: WKT: column 15: expected the x y of ring 0, vertex 1, found `,`",
    );
}

// --------------------------------------------------------------- other WKT forms

#[test]
fn wkt_tags_case_and_srid_are_read_and_unknown_words_refused() {
    let area = |name: &str, text: &str| -> Vec<f64> {
        load(name, text)
            .unwrap_or_else(|e| panic!("{e}"))
            .iter()
            .map(|p| p.area())
            .collect()
    };
    assert_eq!(area("lower.wkt", "polygon ((0 0, 4 0, 4 4, 0 0))"), [8.0]);
    assert_eq!(
        area("z.wkt", "POLYGON Z ((0 0 1, 4 0 1, 4 4 1, 0 0 1))"),
        [8.0]
    );
    assert_eq!(
        area("z2.wkt", "POLYGONZ ((0 0 1, 4 0 1, 4 4 1, 0 0 1))"),
        [8.0]
    );
    assert_eq!(
        area("z3.wkt", "POLYGON ((0 0 1, 4 0 1, 4 4 1, 0 0 1))"),
        [8.0]
    );
    assert_eq!(
        area("m.wkt", "POLYGON M ((0 0 1, 4 0 1, 4 4 1, 0 0 1))"),
        [8.0]
    );
    assert_eq!(
        area(
            "zm.wkt",
            "POLYGON ZM ((0 0 1 2, 4 0 1 2, 4 4 1 2, 0 0 1 2))"
        ),
        [8.0]
    );
    assert_eq!(
        area(
            "mz.wkt",
            "multipolygon z (((0 0 1, 4 0 1, 4 4 1, 0 0 1)), EMPTY)"
        ),
        [8.0]
    );
    assert_eq!(
        area("srid.wkt", "SRID=4326;POLYGON ((0 0, 4 0, 4 4, 0 0))"),
        [8.0]
    );
    assert_eq!(area("tight.wkt", "POLYGON((0 0,4 0,4 4,0 0))\r\n"), [8.0]);
    assert_refused(
        "srid.wkt",
        "SRID=x;POLYGON ((0 0, 4 0, 4 4, 0 0))",
        "srid.wkt:1: WKT: column 6: the SRID `x` is not an integer",
    );
    assert_refused(
        "garbage.wkt",
        "hello world",
        "garbage.wkt:1: WKT: column 1: `hello` is not a WKT geometry type",
    );
    assert_refused(
        "pt.wkt",
        "POINT (1 2)",
        "pt.wkt:1: the geometry is not a POLYGON or MULTIPOLYGON",
    );
    // Collections nested without end are refused, not followed down the stack.
    let deep = "GEOMETRYCOLLECTION (".repeat(100_000);
    assert_refused(
        "deep.wkt",
        &deep,
        "deep.wkt:1: WKT: column 641: GEOMETRYCOLLECTIONs nested more than 32 deep",
    );
}

// ----------------------------------------------------------------- damaged texts

/// SplitMix64, the tests' seeded generator.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Texts with collections, tags, holes and short positions, cut at every length and
/// with seeded characters replaced: the readers return polygons or an error naming
/// the file, never panic; an error at a line says which.
#[test]
fn damaged_texts_never_panic() {
    let texts = [
        (
            "c.wkt",
            "\u{feff}SRID=4326;GEOMETRYCOLLECTION Z (POLYGON Z ((0 0 1, 4 0 1, 4 4 1, 0 0 1)), \
             MULTIPOLYGON (EMPTY, ((10 0, 14 0, 14 4, 10 4, 10 0), (11 1, 12 1, 12 2, 11 1))))\n\
             POLYGON ((0 0, 4 0, 4 4, 0 0))",
        ),
        (
            "c.geojson",
            r#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":null,
              "geometry":{"type":"GeometryCollection","geometries":[{"type":"Polygon",
              "coordinates":[[[0,0,1],[4,0],[4,4],[0,4],[0,0]],[[1,1],[2,1],[2,2],[1,1]]]},
              {"type":"MultiPolygon","coordinates":[[],[[[10,0],[14,0],[14,4],[10,0]]]]}]}}]}"#,
        ),
    ];
    let alphabet: Vec<char> = "0123456789.-eE ,()[]{}\":;=\nNaZMEPTY\u{feff}é"
        .chars()
        .collect();
    let mut rng = Rng(5);
    let mut refused = 0;
    for (name, text) in texts {
        let chars: Vec<char> = text.chars().collect();
        let mut cases: Vec<String> = (0..chars.len())
            .map(|k| chars[..k].iter().collect())
            .collect();
        for _ in 0..2000 {
            let mut c = chars.clone();
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(c.len());
                c[i] = alphabet[rng.below(alphabet.len())];
            }
            cases.push(c.into_iter().collect());
        }
        for case in &cases {
            let result = std::panic::catch_unwind(|| load(name, case).map(|p| p.len()));
            match result {
                Err(_) => panic!("{name} panicked on {case:?}"),
                Ok(Ok(n)) => assert!(n > 0, "{name}: no polygon from {case:?}"),
                Ok(Err(e)) => {
                    let shown = e.to_string();
                    assert!(shown.starts_with(name), "{shown}");
                    refused += 1;
                }
            }
        }
    }
    assert!(refused > 2000, "only {refused} damaged texts refused");
}
