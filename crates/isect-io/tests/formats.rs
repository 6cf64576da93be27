//! The file readers on small files in `tests/data/` (written by hand or by a short
//! script, described in each test): valid meshes and polygons read into shapes that
//! answer as the geometry says (a ray onto the unit cube, polygon areas), in f32 and
//! f64; truncated, malformed, NaN, degenerate, wrongly wound, holed and multi files;
//! every bad file gives an error naming the file and the position, never a panic.

use isect::query::{ProjectPoint, RayCast};
use isect::shape::{ConcavePolygon, Ray, TriMesh, TriMeshFlags};
use isect_io::mesh::{load_trimesh, read_mesh};
use isect_io::polygon::{load_polygons, read_polygons};
use isect_io::scene::{self, AnyScene};
use std::path::{Path, PathBuf};

/// A file of `tests/data/`.
fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// The message of reading `name` as a mesh, which must fail and name the file.
fn mesh_error(name: &str) -> String {
    match read_mesh(&data(name)).and_then(|m| m.to_trimesh::<f64>(&data(name), TriMeshFlags::OPEN))
    {
        Ok(m) => panic!("{name} was read: {} triangles", m.triangle_count()),
        Err(e) => {
            let text = e.to_string();
            assert!(text.contains(name), "{text} does not name {name}");
            text
        }
    }
}

/// The message of reading `name` as polygons, which must fail and name the file.
fn polygon_error(name: &str) -> String {
    match load_polygons::<f64>(&data(name)) {
        Ok(p) => panic!("{name} was read: {} polygons", p.len()),
        Err(e) => {
            let text = e.to_string();
            assert!(text.contains(name), "{text} does not name {name}");
            text
        }
    }
}

/// The cube of half extent 1 about `center` answers as a cube: 12 triangles, a ray
/// along x from 5 before its face hits at t = 4 with normal -x, and its centre is
/// inside when the mesh is solid.
fn assert_unit_cube_f64(mesh: &TriMesh<f64>, center: glam::DVec3, what: &str) {
    assert_eq!(mesh.triangle_count(), 12, "{what}");
    let ray = Ray::new(center - glam::DVec3::X * 5.0, glam::DVec3::X).unwrap();
    let hit = mesh
        .cast_ray(&ray, 100.0)
        .unwrap_or_else(|| panic!("{what}: no hit"));
    assert!((hit.t - 4.0).abs() < 1e-12, "{what}: t = {}", hit.t);
    assert!(
        (hit.normal + glam::DVec3::X).length() < 1e-12,
        "{what}: {:?}",
        hit.normal
    );
}

/// As [`assert_unit_cube_f64`] in f32 (the files hold small integers: exact too).
fn assert_unit_cube_f32(mesh: &TriMesh<f32>, center: glam::Vec3, what: &str) {
    assert_eq!(mesh.triangle_count(), 12, "{what}");
    let ray = Ray::new(center - glam::Vec3::X * 5.0, glam::Vec3::X).unwrap();
    let hit = mesh
        .cast_ray(&ray, 100.0)
        .unwrap_or_else(|| panic!("{what}: no hit"));
    assert!((hit.t - 4.0).abs() < 1e-5, "{what}: t = {}", hit.t);
}

#[test]
fn valid_meshes_read_as_the_cube_in_both_precisions() {
    let origin = glam::DVec3::ZERO;
    // cube.gltf and cube.glb place the mesh with a node translation (10, 0, 0).
    let placed = glam::DVec3::new(10.0, 0.0, 0.0);
    for (name, center) in [
        ("cube.obj", origin),
        ("two_objects.obj", origin),
        ("cube_ascii.stl", origin),
        ("cube_binary.stl", origin),
        ("cube.gltf", placed),
        ("cube_external.gltf", placed),
        ("cube.glb", placed),
    ] {
        let solid = load_trimesh::<f64>(&data(name), TriMeshFlags::SOLID)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(solid.is_solid());
        assert_unit_cube_f64(&solid, center, name);
        assert!(
            solid.project_local_point(center, true).is_inside,
            "{name}: centre not inside"
        );
        let single = load_trimesh::<f32>(&data(name), TriMeshFlags::OPEN).unwrap();
        assert_unit_cube_f32(&single, center.as_vec3(), name);
    }
}

#[test]
fn bad_obj_files_name_the_line() {
    let lines = |name: &str| std::fs::read_to_string(data(name)).unwrap().lines().count();
    let e = mesh_error("truncated.obj");
    assert!(
        e.contains(&format!(
            "truncated.obj:{}: face has 2 corners",
            lines("truncated.obj")
        )),
        "{e}"
    );
    let e = mesh_error("nan.obj");
    assert!(
        e.contains("nan.obj:3: vertex coordinate 0 is `NaN`, not finite in f32"),
        "{e}"
    );
    let e = mesh_error("bad_index.obj");
    assert!(
        e.contains(&format!("bad_index.obj:{}:", lines("bad_index.obj")))
            && e.contains("names vertex 9"),
        "{e}"
    );
    // Beyond the library's coordinate limit in f32 (1.3e8), the constructor's error
    // is placed at the line of the vertex.
    let e = match load_trimesh::<f32>(&data("huge.obj"), TriMeshFlags::OPEN) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("huge.obj was read in f32"),
    };
    assert!(e.contains("huge.obj:8: TriMesh"), "{e}");
    assert!(load_trimesh::<f64>(&data("huge.obj"), TriMeshFlags::OPEN).is_ok());
    let e = mesh_error("malformed.obj");
    assert!(
        e.contains("malformed.obj:4: vertex coordinate 1 is `x`, not a number"),
        "{e}"
    );
}

#[test]
fn bad_stl_files_name_the_facet() {
    let e = mesh_error("nan.stl");
    assert!(e.contains("triangle 3, vertex 1: corner 1"), "{e}");
    let e = mesh_error("truncated.stl");
    assert!(
        e.contains("triangle 5: STL: the file ends inside this facet (truncated)"),
        "{e}"
    );
    let e = mesh_error("malformed_ascii.stl");
    assert!(e.contains("STL"), "{e}");
}

#[test]
fn bad_gltf_files_name_the_mesh_and_primitive() {
    let e = mesh_error("truncated_buffer.gltf");
    assert!(e.contains("buffer 0") && e.contains("truncated"), "{e}");
    let e = mesh_error("bad_accessor.gltf");
    assert!(
        e.contains("mesh 0, primitive 0: POSITION: 20 elements"),
        "{e}"
    );
    let e = mesh_error("lines.gltf");
    assert!(
        e.contains("mesh 0, primitive 0: draws Lines, not triangles"),
        "{e}"
    );
    let e = mesh_error("nan.gltf");
    assert!(
        e.contains("mesh 0, primitive 0, vertex 1: position 1"),
        "{e}"
    );
    for name in ["truncated.gltf", "truncated.glb"] {
        let e = mesh_error(name);
        assert!(e.contains("glTF"), "{e}");
    }
}

#[test]
fn unknown_or_missing_files_are_refused() {
    let e = mesh_error("square_hole.geojson");
    assert!(e.contains("unknown mesh format `.geojson`"), "{e}");
    let e = mesh_error("no_such_file.obj");
    assert!(e.contains("cannot read"), "{e}");
    let e = polygon_error("cube.obj");
    assert!(e.contains("unknown polygon format `.obj`"), "{e}");
}

/// Area of `p`, and whether `point` is inside.
fn area_and_inside(p: &ConcavePolygon<f64>, x: f64, y: f64) -> (f64, bool) {
    (
        p.area(),
        p.project_local_point(glam::DVec2::new(x, y), true)
            .is_inside,
    )
}

#[test]
fn geojson_polygons_keep_holes_and_split_multipolygons() {
    // A 4×4 square with a 2×2 hole, rings closed: the repeat is dropped.
    let square = load_polygons::<f64>(&data("square_hole.geojson")).unwrap();
    assert_eq!(square.len(), 1);
    assert_eq!((square[0].outer().len(), square[0].holes().len()), (4, 1));
    assert_eq!(area_and_inside(&square[0], 2.0, 2.0), (12.0, false));
    assert_eq!(area_and_inside(&square[0], 0.5, 2.0), (12.0, true));
    // Clockwise outer ring, counter-clockwise hole: the same polygon.
    let cw = load_polygons::<f64>(&data("clockwise.geojson")).unwrap();
    assert_eq!(area_and_inside(&cw[0], 2.0, 2.0), (12.0, false));
    // A feature without geometry (skipped), a MultiPolygon of two (one holed), an
    // open-ring triangle: three polygons in file order, with their features.
    let raw = read_polygons(&data("multi.geojson")).unwrap();
    let at: Vec<_> = raw
        .iter()
        .map(|p| (p.location.feature, p.location.polygon))
        .collect();
    assert_eq!(
        at,
        [(Some(1), Some(0)), (Some(1), Some(1)), (Some(2), None)]
    );
    let areas: Vec<f64> = load_polygons::<f64>(&data("multi.geojson"))
        .unwrap()
        .iter()
        .map(|p| p.area())
        .collect();
    assert_eq!(areas, [16.0, 3.0, 4.5]);
    let single = load_polygons::<f32>(&data("multi.geojson")).unwrap();
    assert_eq!(
        single.iter().map(|p| p.area()).collect::<Vec<f32>>(),
        [16.0, 3.0, 4.5]
    );
}

#[test]
fn bad_geojson_files_name_the_feature_or_line() {
    let e = polygon_error("degenerate.geojson");
    assert!(
        e.contains("degenerate.geojson: feature 1: ConcavePolygon"),
        "{e}"
    );
    let e = polygon_error("bowtie.geojson");
    assert!(
        e.contains("bowtie.geojson: feature 1: ConcavePolygon"),
        "{e}"
    );
    let e = polygon_error("linestring.geojson");
    assert!(
        e.contains("feature 1: a LineString is not a Polygon or MultiPolygon"),
        "{e}"
    );
    // JSON has no NaN: the parser stops at it, at its line and column.
    let e = polygon_error("nan.geojson");
    assert!(
        e.contains("nan.geojson:15:") && e.contains("GeoJSON"),
        "{e}"
    );
    let e = polygon_error("truncated.geojson");
    assert!(e.contains("truncated.geojson:") && e.contains("EOF"), "{e}");
}

#[test]
fn wkt_polygons_and_errors() {
    let polygons = load_polygons::<f64>(&data("polygons.wkt")).unwrap();
    let areas: Vec<f64> = polygons.iter().map(|p| p.area()).collect();
    assert_eq!(areas, [12.0, 4.0, 4.5]);
    let raw = read_polygons(&data("polygons.wkt")).unwrap();
    let at: Vec<_> = raw
        .iter()
        .map(|p| (p.location.line, p.location.polygon))
        .collect();
    assert_eq!(
        at,
        [(Some(1), None), (Some(3), Some(0)), (Some(3), Some(1))]
    );
    let e = polygon_error("truncated.wkt");
    assert!(e.contains("truncated.wkt:2: WKT"), "{e}");
    let e = polygon_error("nan.wkt");
    assert!(e.contains("nan.wkt:2: WKT"), "{e}");
    let e = polygon_error("degenerate.wkt");
    assert!(e.contains("degenerate.wkt:1: ConcavePolygon"), "{e}");
    let e = polygon_error("point.wkt");
    assert!(
        e.contains("point.wkt:1: the geometry is not a POLYGON"),
        "{e}"
    );
}

#[test]
fn geo_types_round_trip() {
    use isect_io::polygon::geo::{
        polygon_from_geo, polygon_to_geo, polygons_from_geo, polygons_to_geo,
    };
    let polygons = load_polygons::<f64>(&data("multi.geojson")).unwrap();
    let multi = polygons_to_geo(&polygons);
    assert_eq!(multi.0.len(), 3);
    // geo-types closes the rings; reading them back drops the repeat again.
    assert_eq!(multi.0[1].exterior().0.len(), 5);
    let back = polygons_from_geo::<f64>(&multi).unwrap();
    for (a, b) in polygons.iter().zip(&back) {
        assert_eq!((a.outer(), a.holes()), (b.outer(), b.holes()));
    }
    let single = polygon_from_geo::<f32>(&polygon_to_geo(&polygons[1])).unwrap();
    assert_eq!(single.area(), 3.0);
    let ring = vec![(0.0, 0.0), (f64::NAN, 0.0), (1.0, 1.0)];
    let nan = geo_types::Polygon::new(geo_types::LineString::from(ring), vec![]);
    assert!(polygon_from_geo::<f64>(&nan).is_err());
}

#[test]
fn scenes_reference_mesh_and_polygon_files_relative_to_themselves() {
    let AnyScene::D3(meshes) = scene::load(&data("scene_meshes.json")).unwrap() else {
        panic!("not 3D");
    };
    let kinds: Vec<_> = meshes.shapes.iter().map(|s| s.shape.kind_name()).collect();
    assert_eq!(kinds, ["TriMesh"; 3]);
    let AnyScene::D2(polygons) = scene::load(&data("scene_polygons.json")).unwrap() else {
        panic!("not 2D");
    };
    let kinds: Vec<_> = polygons
        .shapes
        .iter()
        .map(|s| s.shape.kind_name())
        .collect();
    assert_eq!(kinds, ["ConcavePolygon"; 3]);
    // Loaded from another folder through a relative path, the references still resolve.
    let relative = Path::new("tests/data/scene_meshes.json");
    if Path::new(env!("CARGO_MANIFEST_DIR")) == std::env::current_dir().unwrap() {
        assert!(scene::load(relative).is_ok());
    }
}

#[test]
fn a_bad_referenced_file_is_reported_at_the_scene_entry() {
    let message = |name: &str| {
        scene::load(&data(name))
            .err()
            .map(|e| e.to_string())
            .unwrap()
    };
    let e = message("scene_bad_mesh.json");
    assert!(
        e.contains("scene_bad_mesh.json:") && e.contains("shapes[1].shape"),
        "{e}"
    );
    assert!(e.contains("nan.obj:3: vertex coordinate 0"), "{e}");
    let e = message("scene_ambiguous_polygon.json");
    assert!(e.contains("holds 3 polygons; give `index`"), "{e}");
    let e = message("scene_missing_file.json");
    assert!(e.contains("no_such.obj: cannot read"), "{e}");
}

/// SplitMix64, the tests' seeded generator (as `isect/tests/support/rng.rs`).
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

/// Parses `bytes` as the file `name` with the parser of its format; returns the
/// error text, if any.
fn read_damaged(name: &str, bytes: &[u8]) -> Option<String> {
    use isect_io::mesh::{parse_gltf, parse_obj, parse_stl};
    use isect_io::polygon::{parse_geojson, parse_wkt};
    let path = Path::new(name);
    let text = || String::from_utf8_lossy(bytes).into_owned();
    let polygons = |r: Result<Vec<isect_io::polygon::PolygonData>, isect_io::Error>| {
        r.and_then(|ps| {
            ps.iter()
                .try_for_each(|p| p.to_polygon::<f64>(path).map(|_| ()))
        })
    };
    let mesh = |r: Result<isect_io::mesh::MeshData, isect_io::Error>| {
        r.and_then(|m| m.to_trimesh::<f32>(path, TriMeshFlags::OPEN).map(|_| ()))
    };
    let result = match path.extension().and_then(|e| e.to_str()) {
        Some("obj") => mesh(parse_obj(&text(), path)),
        Some("stl") => mesh(parse_stl(bytes, path)),
        Some("gltf" | "glb") => mesh(parse_gltf(bytes, path)),
        Some("geojson") => polygons(parse_geojson(&text(), path)),
        _ => polygons(parse_wkt(&text(), path)),
    };
    result.err().map(|e| e.to_string())
}

/// Files up to this size are cut at every length.
const MAX_EVERY_LENGTH: usize = 800;

/// Every valid file cut at every length, and with seeded bytes overwritten: the reader
/// returns (a shape or an error naming the file), never panics.
#[test]
fn damaged_files_never_panic() {
    let names = [
        "cube.obj",
        "cube_ascii.stl",
        "cube_binary.stl",
        "cube.gltf",
        "cube.glb",
        "square_hole.geojson",
        "multi.geojson",
        "polygons.wkt",
    ];
    let mut rng = Rng(16);
    let mut refused = 0;
    for name in names {
        let bytes = std::fs::read(data(name)).unwrap();
        // Every length of a small file; of a larger one, the ends and seeded lengths.
        let n = bytes.len();
        let lengths: Vec<usize> = if n <= MAX_EVERY_LENGTH {
            (0..n).collect()
        } else {
            let seeded = (0..MAX_EVERY_LENGTH / 2).map(|_| rng.below(n));
            (0..64).chain(n - 64..n).chain(seeded).collect()
        };
        let mut cases: Vec<Vec<u8>> = lengths.iter().map(|&k| bytes[..k].to_vec()).collect();
        for _ in 0..300 {
            let mut b = bytes.clone();
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(b.len());
                b[i] = b"0123456789.-eE ,()[]{}\"/\n\x00\xff"[rng.below(27)];
            }
            cases.push(b);
        }
        for case in &cases {
            if let Some(e) = read_damaged(name, case) {
                assert!(e.contains(name), "{e}");
                refused += 1;
            }
        }
    }
    assert!(refused > 1000, "only {refused} damaged files refused");
}
