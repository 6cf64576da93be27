//! Runs the built `isect` binary on the example scenes and on bad files: exit
//! codes, the JSON answers against pairs derived from each scene's geometry, and
//! the SVG output.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `isect ARGS` from the repository root.
fn isect(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_isect"))
        .args(args)
        .current_dir(repo_root())
        .output()
        .expect("the isect binary runs")
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn stdout_json(out: &Output) -> Value {
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {text}"))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A fresh empty folder for one test's files. A counter makes every call's folder its
/// own: two tests that picked the same name (both `huge`) once ran at the same time
/// and removed each other's files.
fn scratch(test: &str) -> PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = format!("isect-cli-{}-{call}-{test}", std::process::id());
    let dir = std::env::temp_dir().join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `(a, b, depth)` of every pair `check` reports, in its order.
fn check_pairs(scene: &str) -> Vec<(String, String, f64)> {
    let out = isect(&["check", scene]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc = stdout_json(&out);
    doc["pairs"]
        .as_array()
        .expect("pairs is a list")
        .iter()
        .map(|p| {
            let s = |k: &str| p[k].as_str().expect("id").to_string();
            (s("a"), s("b"), p["depth"].as_f64().expect("depth"))
        })
        .collect()
}

/// Asserts the reported pairs are exactly `expected` `(a, b, depth)`, in order;
/// a `None` depth is only checked to be positive.
fn assert_pairs(scene: &str, expected: &[(&str, &str, Option<f64>)]) {
    let got = check_pairs(scene);
    let names: Vec<(&str, &str)> = got
        .iter()
        .map(|(a, b, _)| (a.as_str(), b.as_str()))
        .collect();
    let want: Vec<(&str, &str)> = expected.iter().map(|(a, b, _)| (*a, *b)).collect();
    assert_eq!(names, want, "pairs of {scene}");
    for ((a, b, depth), (_, _, want)) in got.iter().zip(expected) {
        match want {
            Some(d) => assert!((depth - d).abs() < 1e-9, "{a}-{b}: depth {depth}, want {d}"),
            None => assert!(*depth > 0.0, "{a}-{b}: depth {depth} should be > 0"),
        }
    }
}

#[test]
fn check_shapes_2d_finds_the_designed_pairs() {
    assert_pairs(
        "examples/scenes/shapes_2d.json",
        &[
            // Unit discs with centres 1.5 apart overlap by 0.5.
            ("ball_a", "ball_b", Some(0.5)),
            // The box's right face (x = 6) touches the disc's leftmost point.
            ("box", "ball_c", Some(0.0)),
            // The capsule's lowest point (y = 3.5) is 0.25 below the segment.
            ("capsule", "segment", Some(0.25)),
            // The polygon's left edge (x = 11.5) cuts into the triangle.
            ("triangle", "polygon", None),
        ],
    );
}

#[test]
fn check_touching_2d_reports_touching_and_not_a_small_gap() {
    assert_pairs(
        "examples/scenes/touching_2d.json",
        &[
            // Unit squares sharing the face x = 1.
            ("left", "right", Some(0.0)),
            // A rounded square whose bottom (y = 1) lies on the left square's top.
            ("left", "rounded", Some(0.0)),
            // The stick's top (y = 0.25) is 0.15 above the pebble's bottom (y = 0.1).
            ("stick", "pebble", Some(0.15)),
        ],
    );
}

#[test]
fn check_shapes_3d_finds_the_designed_pairs() {
    assert_pairs(
        "examples/scenes/shapes_3d.json",
        &[
            // Unit sphere and unit cube centred 1.5 apart overlap by 0.5 along x.
            ("ball", "cube", Some(0.5)),
            // The cone's base rim (radius 1, centre x = 6.2) reaches x = 5.2 < 5.5.
            ("cylinder", "cone", None),
            // The segment runs through the capsule's axis: depth is the radius.
            ("capsule", "segment", Some(0.5)),
            // The tetrahedron pokes 0.5 through the triangle's plane z = 0.
            ("triangle", "tetrahedron", Some(0.5)),
        ],
    );
}

#[test]
fn check_touching_3d_reports_resting_contacts_only() {
    assert_pairs(
        "examples/scenes/touching_3d.json",
        &[
            // Everything below rests on the floor's top face y = 0 or on the crate's top y = 2.
            ("floor", "crate", Some(0.0)),
            ("floor", "ball", Some(0.0)),
            ("floor", "can", Some(0.0)),
            ("crate", "crate_on_crate", Some(0.0)),
        ],
    );
}

#[test]
fn check_gives_unit_normals_from_a_to_b() {
    let out = isect(&["check", "examples/scenes/shapes_2d.json"]);
    let doc = stdout_json(&out);
    // Ball b is to the right of ball a.
    let n = &doc["pairs"][0]["normal"];
    assert!((n[0].as_f64().unwrap() - 1.0).abs() < 1e-12 && n[1].as_f64().unwrap().abs() < 1e-12);
    assert_eq!(doc["dim"], 2);
    assert_eq!(doc["shapes"], 9);
}

#[test]
fn check_output_is_the_same_on_every_run() {
    let first = isect(&["check", "examples/scenes/shapes_3d.json"]).stdout;
    let second = isect(&["check", "examples/scenes/shapes_3d.json"]).stdout;
    assert!(!first.is_empty());
    assert_eq!(first, second);
}

#[test]
fn check_text_format_is_for_people() {
    let out = isect(&[
        "check",
        "examples/scenes/shapes_2d.json",
        "--format",
        "text",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("4 intersecting pair(s) among 9 shapes (2D)"),
        "{text}"
    );
    assert!(text.contains("ball_a - ball_b: depth 0.5"), "{text}");
}

/// Writes `text` as `name` in a scratch folder and returns its path.
fn bad_file(test: &str, name: &str, text: &str) -> (PathBuf, PathBuf) {
    let dir = scratch(test);
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write scene");
    (dir, path)
}

/// `check` on `text` fails with exit 2 and one message naming the file, the
/// line and column, and the field path.
fn assert_bad(test: &str, text: &str, line_col: &str, field: &str, what: &str) {
    let (dir, path) = bad_file(test, "scene.json", text);
    let p = path.to_str().expect("utf-8 path");
    let out = isect(&["check", p]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let msg = stderr(&out);
    assert!(msg.contains(&format!("{p}:{line_col}: {field}: ")), "{msg}");
    assert!(msg.contains(what), "{msg}");
    assert_eq!(msg.lines().count(), 1, "one message: {msg}");
    assert!(out.stdout.is_empty());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_json_names_line_and_column() {
    // A trailing comma inside the first shape (line 2, column 43).
    let text =
        "{\"dim\": 2, \"shapes\": [\n  {\"shape\": {\"type\": \"ball\", \"radius\": 1},}\n]}";
    assert_bad("json", text, "2:43", "shapes", "key must be a string");
}

#[test]
fn unknown_shape_type_names_the_type_field() {
    let text = "{\"dim\": 2, \"shapes\": [\n  {\"shape\": {\"type\": \"blob\", \"radius\": 1}}\n]}";
    assert_bad(
        "unknown",
        text,
        "2:27",
        "shapes[0].shape.type",
        "unknown variant `blob`",
    );
}

#[test]
fn negative_radius_names_the_shape() {
    let text = "{\"dim\": 3, \"shapes\": [\n  {\"shape\": {\"type\": \"ball\", \"radius\": 1}},\n  {\"shape\": {\"type\": \"ball\", \"radius\": -2}}\n]}";
    assert_bad(
        "negative",
        text,
        "3:43",
        "shapes[1].shape",
        "`radius` is -2",
    );
}

#[test]
fn non_convex_polygon_names_the_vertex() {
    // A square with its right edge pushed in to (1, 0.5): vertex 2 is reflex.
    let text = "{\"dim\": 2, \"shapes\": [\n  {\"shape\": {\"type\": \"convex_polygon\",\n   \"points\": [[0,0],[2,0],[1,0.5],[2,2],[0,2]]}}\n]}";
    assert_bad(
        "convex",
        text,
        "3:48",
        "shapes[0].shape",
        "not convex at vertex 2",
    );
}

#[test]
fn wrong_vector_length_and_dimension_are_refused() {
    let text = "{\"dim\": 3, \"shapes\": [{\"shape\": {\"type\": \"ball\", \"radius\": 1}, \"position\": [1, 2]}]}";
    assert_bad(
        "length",
        text,
        "1:81",
        "shapes[0].position",
        "expected an array of length 3",
    );
    assert_bad(
        "dim",
        "{\"dim\": 4, \"shapes\": []}",
        "1:9",
        "dim",
        "must be 2 or 3",
    );
}

/// A scene with one cube at x = 5 turned by the quaternion `quat` (text).
fn cube_with_quat(quat: &str) -> String {
    format!(
        "{{\"dim\": 3, \"shapes\": [\n  {{\"shape\": {{\"type\": \"cuboid\", \"half_extents\": [1, 1, 1]}},\n   \"position\": [5, 0, 0], \"rotation\": {{\"quat\": {quat}}}}}\n]}}"
    )
}

#[test]
fn off_unit_quaternions_are_refused_with_their_length() {
    // The error stands just past the end of the rotation object, as every object
    // error does (line 3: its `}` is column 60 for a quaternion written in 12
    // characters, so the error names column 61).
    for (quat, what) in [
        ("[0, 0, 0, 2]", "quaternion has length 2,"),
        ("[0, 0, 0, 0]", "quaternion has length 0,"),
        ("[0.5, 0, 0, 0]", "quaternion has length 0.5,"),
        ("[0, 0, 0, 0.001]", "quaternion has length 0.001,"),
        ("[0, 0, 0, 1.001]", "quaternion has length 1.001,"),
    ] {
        let col = 61 + quat.len() - 12;
        let text = cube_with_quat(quat);
        assert_bad(
            "quat",
            &text,
            &format!("3:{col}"),
            "shapes[0].rotation",
            what,
        );
    }
}

#[test]
fn quaternions_written_with_few_digits_are_normalised() {
    // |q| = 0.99999 (four digits), within the text tolerance.
    let (dir, path) = bad_file(
        "quat-ok",
        "scene.json",
        &cube_with_quat("[0, 0, 0.7071, 0.7071]"),
    );
    let out = isect(&["check", path.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn duplicate_ids_are_refused() {
    let ball = "{\"id\": \"a\", \"shape\": {\"type\": \"ball\", \"radius\": 1}}";
    let text = format!("{{\"dim\": 2, \"shapes\": [{ball}, {ball}]}}");
    assert_bad("dup", &text, "1:128", "shapes", "duplicate id `a`");
}

#[test]
fn missing_file_exits_2() {
    let out = isect(&["check", "examples/scenes/no_such_scene.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no_such_scene.json: cannot read"),
        "{}",
        stderr(&out)
    );
}

/// `(id, t)` of the hits `ray ARGS` prints.
fn ray_hits(args: &[&str]) -> Vec<(String, f64)> {
    let mut all = vec!["ray"];
    all.extend_from_slice(args);
    let out = isect(&all);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc = stdout_json(&out);
    let hits = doc["hits"].as_array().expect("hits is a list");
    hits.iter()
        .map(|h| {
            (
                h["id"].as_str().unwrap().to_string(),
                h["t"].as_f64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn ray_along_the_x_axis_hits_shapes_in_order() {
    let scene = "examples/scenes/shapes_2d.json";
    let hits = ray_hits(&[scene, "--from", "-5,0", "--dir", "1,0", "--all"]);
    // Left faces on y = 0: discs at x = -1, 0.5 and 6, the box at 4, the
    // triangle at 10, the polygon at 11.5.
    let want = [
        ("ball_a", 4.0),
        ("ball_b", 5.5),
        ("box", 9.0),
        ("ball_c", 11.0),
    ];
    let want = want.iter().chain(&[("triangle", 15.0), ("polygon", 16.5)]);
    let got: Vec<(&str, f64)> = hits.iter().map(|(id, t)| (id.as_str(), *t)).collect();
    for ((id, t), (wid, wt)) in got.iter().zip(want.clone()) {
        assert_eq!(id, wid);
        assert!((t - wt).abs() < 1e-9, "{id}: t {t}, want {wt}");
    }
    assert_eq!(got.len(), want.count());
    // Without --all: only the closest; --max-t 3 stops short of it.
    assert_eq!(
        ray_hits(&[scene, "--from", "-5,0", "--dir", "1,0"]).len(),
        1
    );
    let none = ray_hits(&[scene, "--from", "-5,0", "--dir", "1,0", "--max-t", "3"]);
    assert!(none.is_empty());
}

#[test]
fn ray_in_3d_hits_the_sphere_first() {
    let scene = "examples/scenes/shapes_3d.json";
    let hits = ray_hits(&[scene, "--from", "-5,0,0", "--dir", "2,0,0"]);
    // t is in units of the direction (length 2): the sphere's surface is 4 away.
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].0, "ball");
    assert!((hits[0].1 - 2.0).abs() < 1e-9);
}

#[test]
fn ray_options_that_do_not_fit_the_scene_exit_2() {
    let scene = "examples/scenes/shapes_2d.json";
    let out = isect(&["ray", scene, "--from", "-5,0,0", "--dir", "1,0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--from has 3 component(s) but the scene is 2D"));
    let out = isect(&[
        "ray", scene, "--from", "-5,0", "--dir", "1,0", "--max-t", "-1",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = isect(&["ray", scene, "--from", "a,b", "--dir", "1,0"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `render SCENE -o DIR/out.svg`; returns the output and the SVG path.
fn render(test: &str, scene: &str) -> (Output, PathBuf, PathBuf) {
    let dir = scratch(test);
    let svg = dir.join("out.svg");
    let out = isect(&["render", scene, "-o", svg.to_str().expect("utf-8 path")]);
    (out, svg, dir)
}

/// Only `expected` is left in `dir`: no temporary file survives.
fn assert_only_files(dir: &Path, expected: &[&str]) {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, expected);
}

#[test]
fn render_draws_one_element_per_shape() {
    for (scene, shapes, segments) in [
        ("examples/scenes/shapes_2d.json", 9, 1),
        ("examples/scenes/touching_2d.json", 7, 0),
        ("examples/scenes/shapes_3d.json", 9, 1),
        ("examples/scenes/touching_3d.json", 6, 0),
    ] {
        let (out, svg, dir) = render("render", scene);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = std::fs::read_to_string(&svg).expect("svg written");
        assert!(text.starts_with("<svg "), "{scene}");
        assert!(text.trim_end().ends_with("</svg>"), "{scene}");
        // Regions as polygons, segments (flat outlines) as polylines.
        let regions = text.matches("<polygon class=\"shape\"").count();
        let flat = text.matches("<polyline class=\"shape\"").count();
        assert_eq!(regions + flat, shapes, "{scene}");
        assert_eq!(flat, segments, "{scene}: the segments");
        assert_readable_svg(&text);
        // Each element that opens closes (no half-written tags).
        assert_eq!(text.matches("<g ").count(), text.matches("</g>").count());
        assert_only_files(&dir, &["out.svg"]);
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn render_draws_contacts_and_ray_hits() {
    let (out, svg, dir) = render("render-marks", "examples/scenes/shapes_2d.json");
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read_to_string(svg).expect("svg written");
    // Four touching pairs; both rays hit (the x-axis ray and the upward one).
    assert_eq!(text.matches("class=\"contact\"").count(), 4);
    assert_eq!(text.matches("class=\"hit\"").count(), 2);
    // ball_b is the only shape with a velocity.
    assert_eq!(text.matches("class=\"velocity\"").count(), 1);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn render_of_a_bad_scene_writes_nothing() {
    let (dir, path) = bad_file("render-bad", "bad.json", "{\"dim\": 2, \"shapes\": [}");
    let svg = dir.join("out.svg");
    let args = [
        "render",
        path.to_str().unwrap(),
        "-o",
        svg.to_str().unwrap(),
    ];
    let out = isect(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bad.json:1:"), "{}", stderr(&out));
    assert_only_files(&dir, &["bad.json"]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn render_to_an_unwritable_path_exits_1() {
    let dir = scratch("render-unwritable");
    let svg = dir.join("no_such_folder").join("out.svg");
    let out = isect(&[
        "render",
        "examples/scenes/shapes_2d.json",
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot write"), "{}", stderr(&out));
    assert_only_files(&dir, &[]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn demo_runs_small_and_writes_its_svg() {
    let dir = scratch("demo");
    let svg = dir.join("tmp.svg");
    let args = [
        "demo",
        "--shapes",
        "200",
        "--frames",
        "20",
        "-o",
        svg.to_str().unwrap(),
    ];
    let out = isect(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&svg).expect("svg written");
    assert!(text.starts_with("<svg ") && text.trim_end().ends_with("</svg>"));
    // The last 2D frame: every convex shape outlined (segments as polylines), and the
    // four composites (ground, concave polygon, polyline, compound) as groups of paths.
    let convex = text.matches("<polygon class=\"shape\"").count();
    assert_eq!(
        convex + text.matches("<polyline class=\"shape\"").count(),
        200
    );
    assert_readable_svg(&text);
    assert_eq!(text.matches("<g class=\"shape\"").count(), 4);
    assert_eq!(text.matches("fill-rule=\"evenodd\"").count(), 1);
    let summary = String::from_utf8_lossy(&out.stdout);
    for phase in [
        "2D: 200 shapes",
        "3D: 200 shapes",
        "with 4 composites: heightfield ground, concave polygon with a hole",
        "with 3 composites: heightfield ground, solid octahedron mesh",
        "of which with a composite",
        "update()",
        "broad phase",
        "narrow phase",
    ] {
        assert!(summary.contains(phase), "{phase} missing from {summary}");
    }
    // The progress bar stays hidden when stderr is not a terminal.
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    assert_only_files(&dir, &["tmp.svg"]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn demo_refuses_a_third_dimension_and_too_many_shapes() {
    assert_eq!(isect(&["demo", "--dim", "4"]).status.code(), Some(2));
    let out = isect(&["demo", "--shapes", "100000000"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--shapes"));
}

#[test]
fn bench_prints_every_query_kind() {
    let out = isect(&["bench", "--seconds", "0.01", "--shapes", "50"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    for kind in [
        "ray-box",
        "ball-ball",
        "box-box",
        "GJK",
        "world frame (2D",
        "world frame (3D",
    ] {
        assert!(text.contains(kind), "{kind} missing from {text}");
    }
    assert_eq!(isect(&["bench", "--seconds", "-1"]).status.code(), Some(2));
}

#[test]
fn render_replaces_an_existing_file_whole() {
    let dir = scratch("render-replace");
    let svg = dir.join("out.svg");
    std::fs::write(&svg, "old contents").expect("write");
    let out = isect(&[
        "render",
        "examples/scenes/touching_2d.json",
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&svg).expect("svg");
    assert!(text.starts_with("<svg ") && !text.contains("old contents"));
    assert_only_files(&dir, &["out.svg"]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn ray_normal_on_the_cone_side_faces_the_ray() {
    let scene = "examples/scenes/shapes_3d.json";
    // Cone at x = 6.2 (radius 0.5 at mid-height): a ray along y = z = 0 enters its
    // side at x = 5.7, where the outward normal is (-2, 1, 0) / sqrt(5). Cast from
    // close by (5.6) the normal is right; from -5 it comes back as (±1, 0, 0).
    for from in ["5.6,0,0", "-5,0,0"] {
        let out = isect(&["ray", scene, "--from", from, "--dir", "1,0,0", "--all"]);
        let doc = stdout_json(&out);
        let hits = doc["hits"].as_array().expect("hits");
        let hit = hits
            .iter()
            .find(|h| h["id"] == "cone")
            .expect("the cone is hit");
        let nx = hit["normal"][0].as_f64().unwrap();
        assert!(
            (nx + 2.0 / 5f64.sqrt()).abs() < 1e-6,
            "from {from}: normal {}",
            hit["normal"]
        );
    }
}

// ---------------------------------------------------------------- composites

#[test]
fn check_composites_2d_finds_the_designed_pairs() {
    assert_pairs(
        "examples/scenes/composites_2d.json",
        &[
            // The notch's edges lie 0.56 from the disc's centre (radius 0.6); the
            // pebble in the hole (0.25 from its edges) is not reported.
            ("frame", "notch_ball", Some(0.04)),
            // The box's bottom face lies on the terrain's flat segment y = -3.5.
            ("terrain", "crate", Some(0.0)),
            // The disc rests on the heightfield's peak sample (14, -1.5).
            ("hills", "rider", Some(0.0)),
            // The dumbbell's right disc reaches x = -6, the post's left face is -6.5.
            ("dumbbell", "post", Some(0.5)),
        ],
    );
}

#[test]
fn check_composites_3d_finds_the_designed_pairs() {
    assert_pairs(
        "examples/scenes/composites_3d.json",
        &[
            // The sphere (centre x = 1.2, radius 0.5) covers the vertex (1, 0, 0).
            ("octahedron", "ball", Some(0.3)),
            // The box's bottom face y = 1 rests on the top vertex (0, 1, 0).
            ("octahedron", "crate", Some(0.0)),
            // The sphere rests on the flat cell of the ground (y = -3).
            ("ground", "pebble", Some(0.0)),
            // The sphere rests on the compound's second cube (top y = 0.5).
            ("l_block", "marble", Some(0.0)),
        ],
    );
}

/// `check` on a scene written from `text`: the pairs `(a, b, depth)`.
fn check_text(test: &str, text: &str) -> Vec<(String, String, f64)> {
    let (dir, path) = bad_file(test, "scene.json", text);
    let pairs = check_pairs(path.to_str().expect("utf-8 path"));
    let _ = std::fs::remove_dir_all(dir);
    pairs
}

#[test]
fn closed_polyline_has_no_inside_and_open_mesh_is_a_surface() {
    // A square loop around a small disc (not touching: a polyline has no
    // interior), and a disc crossing its right side x = 2.
    let text = r#"{"dim": 2, "shapes": [
      {"id": "loop", "shape": {"type": "polyline", "closed": true,
        "vertices": [[-2, -2], [2, -2], [2, 2], [-2, 2]]}},
      {"id": "inside", "shape": {"type": "ball", "radius": 0.5}},
      {"id": "crossing", "shape": {"type": "ball", "radius": 0.5}, "position": [2.25, 0]}
    ]}"#;
    let pairs = check_text("loop", text);
    assert_eq!(pairs.len(), 1, "{pairs:?}");
    assert_eq!(
        (pairs[0].0.as_str(), pairs[0].1.as_str()),
        ("loop", "crossing")
    );
    // The disc spans x in [1.75, 2.75]: moving it 0.25 along +x clears the side
    // (0.75 the other way), so the depth is the shorter way out.
    assert!((pairs[0].2 - 0.25).abs() < 1e-9, "{pairs:?}");

    // An open square of two triangles in the plane y = 0: a sphere resting on it, a
    // sphere 0.1 below it (not reported), and one crossing it from below, pushed
    // out downwards by 0.1 (an open mesh is a two-sided surface).
    let text = r#"{"dim": 3, "shapes": [
      {"id": "sheet", "shape": {"type": "trimesh",
        "vertices": [[-1, 0, -1], [1, 0, -1], [1, 0, 1], [-1, 0, 1]],
        "triangles": [[0, 2, 1], [0, 3, 2]]}},
      {"id": "above", "shape": {"type": "ball", "radius": 0.5}, "position": [0.5, 0.5, -0.2]},
      {"id": "far", "shape": {"type": "ball", "radius": 0.5}, "position": [0.6, -0.6, 0.7]},
      {"id": "below", "shape": {"type": "ball", "radius": 0.5}, "position": [-0.5, -0.4, 0.2]}
    ]}"#;
    let pairs = check_text("sheet", text);
    let names: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(a, b, _)| (a.as_str(), b.as_str()))
        .collect();
    assert_eq!(names, [("sheet", "above"), ("sheet", "below")]);
    assert!(pairs[0].2.abs() < 1e-9, "touching: {pairs:?}");
    assert!((pairs[1].2 - 0.1).abs() < 1e-9, "crossing: {pairs:?}");
}

#[test]
fn compound_parts_take_3d_rotations_and_heightfields_take_rows() {
    // A 3D compound of a box turned 90° about z (half extents 1 x 0.25 become
    // 0.25 x 1) touching a ball at (0, 1.5, 0) from below; a 2 x 2 heightfield.
    let text = r#"{"dim": 3, "shapes": [
      {"id": "post", "shape": {"type": "compound", "parts": [
        {"shape": {"type": "cuboid", "half_extents": [1, 0.25, 0.25]},
         "rotation": {"axis": [0, 0, 1], "angle": 1.5707963267948966}}]}},
      {"id": "ball", "shape": {"type": "ball", "radius": 0.5}, "position": [0, 1.5, 0]},
      {"id": "flat", "shape": {"type": "heightfield", "rows": 2, "cols": 2,
        "heights": [0, 0, 0, 0], "scale": [10, 1, 10]}, "position": [0, -1, 0]}
    ]}"#;
    let pairs = check_text("rotated-part", text);
    let names: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(a, b, _)| (a.as_str(), b.as_str()))
        .collect();
    // The post's bottom (y = -1) lies on the flat ground: touching too.
    assert_eq!(names, [("post", "ball"), ("post", "flat")]);
    for (a, b, depth) in &pairs {
        assert!(depth.abs() < 1e-9, "{a}-{b}: depth {depth}");
    }
}

/// The 1-based `line:column` just past the first `needle` on line `line`.
fn after(text: &str, line: usize, needle: &str) -> String {
    let l = text.lines().nth(line - 1).expect("line exists");
    let col = l.find(needle).expect("needle on the line") + needle.len() + 1;
    format!("{line}:{col}")
}

#[test]
fn self_intersecting_concave_polygon_names_the_edges() {
    // A bow tie: edge 0 ((0,0)-(2,2)) crosses edge 2 ((2,0)-(0,2)).
    let text = "{\"dim\": 2, \"shapes\": [\n  {\"shape\": {\"type\": \"concave_polygon\", \"outer\": [[0,0],[2,2],[2,0],[0,2]]}}\n]}";
    let at = after(text, 2, "[0,2]]}");
    assert_bad(
        "bowtie",
        text,
        &at,
        "shapes[0].shape",
        "ConcavePolygon: edge starting at vertex 0 crosses edge starting at vertex 2",
    );
    // A hole outside the outer ring names the hole's first vertex (index 4).
    let text = "{\"dim\": 2, \"shapes\": [\n  {\"shape\": {\"type\": \"concave_polygon\", \"outer\": [[0,0],[4,0],[4,4],[0,4]],\n   \"holes\": [[[5,5],[6,5],[6,6]]]}}\n]}";
    let at = after(text, 3, "[6,6]]]}");
    assert_bad(
        "hole-out",
        text,
        &at,
        "shapes[0].shape",
        "vertex 4 belongs to a hole outside",
    );
}

#[test]
fn mesh_index_out_of_range_names_triangle_and_vertex() {
    let text = "{\"dim\": 3, \"shapes\": [\n  {\"shape\": {\"type\": \"trimesh\", \"vertices\": [[0,0,0],[1,0,0],[0,1,0]],\n   \"triangles\": [[0,1,2],[0,1,3]]}}\n]}";
    let at = after(text, 3, "[0,1,3]]}");
    assert_bad(
        "index",
        text,
        &at,
        "shapes[0].shape",
        "TriMesh: triangle 1 uses vertex 3, but there are 3 vertices",
    );
    // A negative index is not a vertex index at all.
    let text = "{\"dim\": 3, \"shapes\": [\n  {\"shape\": {\"type\": \"trimesh\", \"vertices\": [[0,0,0],[1,0,0],[0,1,0]],\n   \"triangles\": [[0,1,-1]]}}\n]}";
    let at = after(text, 3, "[[0,1,-1]]}");
    assert_bad(
        "negative-index",
        text,
        &at,
        "shapes[0].shape",
        "integer `-1`, expected u32",
    );
}

#[test]
fn open_mesh_marked_solid_names_the_boundary_edge() {
    // A tetrahedron missing its face (1, 2, 3): edge 2 → 1 of triangle 0 is a boundary.
    let text = "{\"dim\": 3, \"shapes\": [\n  {\"shape\": {\"type\": \"trimesh\", \"solid\": true,\n   \"vertices\": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]],\n   \"triangles\": [[0,2,1],[0,1,3],[0,3,2]]}}\n]}";
    let at = after(text, 4, "[0,3,2]]}");
    assert_bad(
        "open-solid",
        text,
        &at,
        "shapes[0].shape",
        "TriMesh: not closed at edge 2 → 1 of triangle 0",
    );
    // The same mesh closed but wound inside out.
    let text = "{\"dim\": 3, \"shapes\": [\n  {\"shape\": {\"type\": \"trimesh\", \"solid\": true,\n   \"vertices\": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]],\n   \"triangles\": [[0,1,2],[0,3,1],[0,2,3],[1,3,2]]}}\n]}";
    let at = after(text, 4, "[1,3,2]]}");
    assert_bad(
        "inside-out",
        text,
        &at,
        "shapes[0].shape",
        "negative volume",
    );
}

#[test]
fn non_finite_heights_are_refused_where_they_stand() {
    // JSON has no NaN: the token is a syntax error at its first character.
    let text = "{\"dim\": 2, \"shapes\": [\n  {\"shape\": {\"type\": \"heightfield\", \"heights\": [0, NaN, 1], \"scale\": [1, 1]}}\n]}";
    let at = after(text, 2, "[0, ");
    assert_bad("nan", text, &at, "shapes", "expected value");
    // A literal beyond f64's range stops at its last digit.
    let text = "{\"dim\": 2, \"shapes\": [\n  {\"shape\": {\"type\": \"heightfield\", \"heights\": [0, 1e999, 1], \"scale\": [1, 1]}}\n]}";
    let at = after(text, 2, "[0, 1e99");
    assert_bad(
        "huge",
        text,
        &at,
        "shapes[0].shape.heights[1]",
        "number out of range",
    );
    // A scale beyond the library's `Real::MAX_COORD`: the library names it and the limit.
    let text = "{\"dim\": 2, \"shapes\": [\n  {\"shape\": {\"type\": \"heightfield\", \"heights\": [0, 1e300, 1], \"scale\": [1, 1e300]}}\n]}";
    let at = after(text, 2, "1e300]}");
    assert_bad(
        "overflow-2d",
        text,
        &at,
        "shapes[0].shape",
        "HeightField: `scale` has magnitude 1e300, beyond the limit",
    );
    let text = "{\"dim\": 3, \"shapes\": [\n  {\"shape\": {\"type\": \"heightfield\", \"rows\": 2, \"cols\": 2,\n   \"heights\": [0, 0, -1e300, 0], \"scale\": [1, 1e300, 1]}}\n]}";
    let at = after(text, 3, "1]}");
    assert_bad(
        "overflow-3d",
        text,
        &at,
        "shapes[0].shape",
        "HeightField: `scale` has magnitude 1e300, beyond the limit",
    );
    // A grid whose size does not match its heights.
    let text = "{\"dim\": 3, \"shapes\": [\n  {\"shape\": {\"type\": \"heightfield\", \"rows\": 2, \"cols\": 3,\n   \"heights\": [0, 0, 0, 0], \"scale\": [1, 1, 1]}}\n]}";
    let at = after(text, 3, "1]}");
    assert_bad("grid", text, &at, "shapes[0].shape", "`heights.len()` is 4");
}

#[test]
fn bad_polylines_and_compounds_are_refused() {
    let cases = [
        // A segment index past the last vertex.
        (
            "seg",
            r#""type": "polyline", "vertices": [[0,0],[1,0]], "segments": [[0,2]]"#,
            "Polyline: `segments` is 2, must be in [0, vertex count)",
        ),
        // Both ways of giving the segments.
        (
            "both",
            r#""type": "polyline", "vertices": [[0,0],[1,0],[1,1]], "closed": true, "segments": [[0,1]]"#,
            "either `closed` or `segments`, not both",
        ),
        // A repeated vertex makes a zero-length segment.
        (
            "repeat",
            r#""type": "polyline", "vertices": [[0,0],[1,0],[1,0]]"#,
            "vertex 2",
        ),
        // A composite cannot be a compound's part.
        (
            "part",
            r#""type": "compound", "parts": [{"shape": {"type": "polyline", "vertices": [[0,0],[1,0]]}}]"#,
            "a compound part must be a convex shape, not a Polyline",
        ),
        (
            "empty",
            r#""type": "compound", "parts": []"#,
            "`parts` is empty",
        ),
    ];
    for (name, shape, what) in cases {
        let text = format!("{{\"dim\": 2, \"shapes\": [\n  {{\"shape\": {{{shape}}}}}\n]}}");
        let at = after(&text, 2, &format!("{shape}}}"));
        assert_bad(name, &text, &at, "shapes[0].shape", what);
    }
}

#[test]
fn render_draws_composites_with_their_parts() {
    let (out, svg, dir) = render("render-composites", "examples/scenes/composites_2d.json");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&svg).expect("svg written");
    assert!(text.starts_with("<svg ") && text.trim_end().ends_with("</svg>"));
    assert_eq!(text.matches("<g ").count(), text.matches("</g>").count());
    // Five convex shapes as polygons, five composites as groups.
    assert_eq!(text.matches("<polygon class=\"shape\"").count(), 5);
    assert_eq!(text.matches("<g class=\"shape\"").count(), 5);
    // The concave polygon: outer ring and hole in one even-odd path (two closed
    // subpaths), its convex pieces as faint lines.
    let frame = group(&text, "frame (ConcavePolygon)");
    assert!(frame.contains("fill-rule=\"evenodd\""), "{frame}");
    assert_eq!(path_of(&frame, "fill").matches('Z').count(), 2, "{frame}");
    assert!(
        path_of(&frame, "piece").matches('Z').count() >= 2,
        "{frame}"
    );
    // The terrain chain (6 vertices, 5 segments), the fence (2 segments), the
    // hills (one chain of 5 samples): lines, no fill.
    assert_eq!(
        path_of(&group(&text, "terrain (Polyline)"), "line")
            .matches('M')
            .count(),
        5
    );
    assert_eq!(
        path_of(&group(&text, "fence (Polyline)"), "line")
            .matches('M')
            .count(),
        2
    );
    let hills = path_of(&group(&text, "hills (HeightField)"), "line");
    assert_eq!(
        (hills.matches('M').count(), hills.matches('L').count()),
        (1, 4)
    );
    // The dumbbell's three parts, filled by the non-zero rule (their union).
    let dumbbell = group(&text, "dumbbell (Compound)");
    assert_eq!(path_of(&dumbbell, "fill").matches('Z').count(), 3);
    assert!(dumbbell.contains("fill-rule=\"nonzero\""));
    // Four contacts; the three rays hit (the dumbbell, the hole's edge, the fence).
    assert_eq!(text.matches("class=\"contact\"").count(), 4);
    assert_eq!(text.matches("class=\"hit\"").count(), 3);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn render_draws_mesh_edges_and_heightfield_wireframe() {
    let (out, svg, dir) = render("render-mesh", "examples/scenes/composites_3d.json");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&svg).expect("svg written");
    assert_eq!(text.matches("<polygon class=\"shape\"").count(), 4);
    assert_eq!(text.matches("<g class=\"shape\"").count(), 3);
    // The octahedron: 12 distinct edges over the union of its 8 projected triangles.
    let mesh = group(&text, "octahedron (TriMesh)");
    assert_eq!(path_of(&mesh, "line").matches('M').count(), 12);
    assert_eq!(path_of(&mesh, "fill").matches('Z').count(), 8);
    // The 3 x 3 ground: 8 triangles, each drawn as a closed line.
    let ground = group(&text, "ground (HeightField)");
    assert_eq!(path_of(&ground, "line").matches('M').count(), 8);
    assert_eq!(text.matches("class=\"contact\"").count(), 4);
    assert_eq!(text.matches("class=\"hit\"").count(), 2);
    let _ = std::fs::remove_dir_all(dir);
}

/// The `<g class="shape">` group whose title is `title`.
fn group(svg: &str, title: &str) -> String {
    let start = svg
        .find(&format!("<g class=\"shape\"><title>{title}</title>"))
        .unwrap_or_else(|| panic!("no group {title}"));
    let end = svg[start..].find("</g>").expect("group closes") + start;
    svg[start..end].to_string()
}

/// The `d` attribute of the path of class `class` in `group`.
fn path_of(group: &str, class: &str) -> String {
    let tag = format!("<path class=\"{class}\" d=\"");
    let start = group
        .find(&tag)
        .unwrap_or_else(|| panic!("no {class} path"))
        + tag.len();
    let end = group[start..].find('"').expect("attribute closes") + start;
    group[start..end].to_string()
}

/// `(id, t, normal)` of the hits of `ray SCENE --from FROM --dir DIR --all`.
fn ray_all(scene: &str, from: &str, dir: &str) -> Vec<(String, f64, Vec<f64>)> {
    let out = isect(&["ray", scene, "--from", from, "--dir", dir, "--all"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc = stdout_json(&out);
    let hits = doc["hits"].as_array().expect("hits");
    hits.iter()
        .map(|h| {
            let normal = h["normal"].as_array().expect("normal");
            (
                h["id"].as_str().expect("id").to_string(),
                h["t"].as_f64().expect("t"),
                normal.iter().map(|x| x.as_f64().expect("number")).collect(),
            )
        })
        .collect()
}

/// Asserts the hits are `(id, t, normal)` in order.
fn assert_hits(got: &[(String, f64, Vec<f64>)], want: &[(&str, f64, &[f64])]) {
    assert_eq!(got.len(), want.len(), "{got:?}");
    for ((id, t, n), (wid, wt, wn)) in got.iter().zip(want) {
        assert_eq!(id, wid);
        assert!((t - wt).abs() < 1e-9, "{id}: t {t}, want {wt}");
        let off: f64 = n.iter().zip(*wn).map(|(a, b)| (a - b).abs()).sum();
        assert!(off < 1e-9, "{id}: normal {n:?}, want {wn:?}");
    }
}

#[test]
fn ray_hits_composites_in_2d() {
    let scene = "examples/scenes/composites_2d.json";
    // From inside the hole (outside the solid) to its right edge x = 1, then on to
    // the rider's disc (centre (14, -1), radius 0.5).
    let hits = ray_all(scene, "0.5,-1", "1,0");
    assert_hits(
        &hits,
        &[("frame", 0.5, &[-1.0, 0.0]), ("rider", 13.0, &[-1.0, 0.0])],
    );
    // Down onto the terrain's segment (-5, -3)-(-3, -3.5) at x = -4: y = -3.25;
    // its normal is (0.5, 2) normalised, facing the ray.
    let n = [0.5 / 4.25f64.sqrt(), 2.0 / 4.25f64.sqrt()];
    assert_hits(&ray_all(scene, "-4,0", "0,-1"), &[("terrain", 3.25, &n)]);
    // Down onto the hills between samples (10, -2) and (12, -2.5): y = -2.25 at x = 11.
    let hits = ray_all(scene, "11,5", "0,-1");
    assert_eq!((hits.len(), hits[0].0.as_str()), (1, "hills"));
    assert!((hits[0].1 - 7.25).abs() < 1e-9, "{hits:?}");
    // Along y = 2: the dumbbell's left disc (x = -10), the post (x = -6.5), the
    // frame's top-left corner (-2, 2) grazed (boundaries belong to their shapes;
    // a vertex has no single normal, so only t is checked) and the fence's lower
    // end (9, 2).
    let hits = ray_all(scene, "-12,2", "1,0");
    let got: Vec<(&str, f64)> = hits.iter().map(|(id, t, _)| (id.as_str(), *t)).collect();
    let want = [
        ("dumbbell", 2.0),
        ("post", 5.5),
        ("frame", 10.0),
        ("fence", 21.0),
    ];
    assert_eq!(got.len(), want.len(), "{got:?}");
    for ((id, t), (wid, wt)) in got.iter().zip(want) {
        assert_eq!(*id, wid);
        assert!((t - wt).abs() < 1e-9, "{id}: t {t}, want {wt}");
    }
}

#[test]
fn ray_hits_composites_in_3d() {
    let scene = "examples/scenes/composites_3d.json";
    // Along the x axis: the octahedron's vertex (-1, 0, 0) at t = 4 (a vertex: any
    // normal of its cone; only t is checked), the sphere at x = 0.7, the compound's
    // first cube at x = 3.5.
    let hits = ray_all(scene, "-5,0,0", "1,0,0");
    let ids: Vec<(&str, f64)> = hits.iter().map(|(id, t, _)| (id.as_str(), *t)).collect();
    assert_eq!(ids.len(), 3, "{ids:?}");
    for ((id, t), (wid, wt)) in
        ids.iter()
            .zip([("octahedron", 4.0), ("ball", 5.7), ("l_block", 8.5)])
    {
        assert_eq!(*id, wid);
        assert!((t - wt).abs() < 1e-9, "{id}: t {t}, want {wt}");
    }
    // Down onto the ground's sloped triangle through (0, 0, 4), (4, 1, 4), (4, 0, 0)
    // (local, scale applied): y = (x + z) / 4 - 1 = 0.5 at (3, 3), so world y = -2.5.
    let n = [-1.0 / 18f64.sqrt(), 4.0 / 18f64.sqrt(), -1.0 / 18f64.sqrt()];
    assert_hits(&ray_all(scene, "3,5,3", "0,-1,0"), &[("ground", 7.5, &n)]);
    // From inside the solid octahedron: a hit at t = 0 with a zero normal.
    assert_hits(
        &ray_all(scene, "0,0,0.2", "0,0,1"),
        &[("octahedron", 0.0, &[0.0, 0.0, 0.0])],
    );
}

/// `check --format json` on `text`: the first pair's `(a, b, depth, normal)`.
fn first_pair(test: &str, text: &str) -> (String, String, f64, Vec<f64>) {
    let (dir, path) = bad_file(test, "scene.json", text);
    let out = isect(&["check", path.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(dir);
    let doc = stdout_json(&out);
    let p = &doc["pairs"][0];
    let normal = p["normal"].as_array().expect("a pair");
    (
        p["a"].as_str().expect("a").to_string(),
        p["b"].as_str().expect("b").to_string(),
        p["depth"].as_f64().expect("depth"),
        normal.iter().map(|x| x.as_f64().expect("number")).collect(),
    )
}

/// A 2D scene: a U-shaped concave polygon with a disc wedged between its arms
/// (0.1 of overlap on each side), everything scaled by `s` and moved to `(o, o)`;
/// the disc first when `disc_first`.
fn wedged_disc(s: f64, o: f64, disc_first: bool) -> String {
    let p = |x: f64, y: f64| format!("[{}, {}]", x * s, y * s);
    let u = [
        p(-3., 0.),
        p(3., 0.),
        p(3., 3.),
        p(1., 3.),
        p(1., 1.),
        p(-1., 1.),
    ];
    let u = [&u[..], &[p(-1., 3.), p(-3., 3.)]].concat().join(", ");
    let poly = format!(
        "{{\"id\": \"u\", \"shape\": {{\"type\": \"concave_polygon\", \"outer\": [{u}]}}, \"position\": [{o}, {o}]}}"
    );
    // The gap between the arms is 2 wide: a disc of radius 1.1 centred in it.
    let disc = format!(
        "{{\"id\": \"disc\", \"shape\": {{\"type\": \"ball\", \"radius\": {}}}, \"position\": [{}, {}]}}",
        1.1 * s,
        o,
        o + 2.5 * s
    );
    let (a, b) = if disc_first {
        (disc, poly)
    } else {
        (poly, disc)
    };
    format!("{{\"dim\": 2, \"shapes\": [{a}, {b}]}}")
}

#[test]
fn composite_contacts_scale_and_mirror() {
    for (s, o) in [(1.0, 0.0), (1e-4, 0.0), (1e5, 0.0), (1.0, 1e5), (1e-3, 1e4)] {
        let (a, b, depth, n) = first_pair("wedged", &wedged_disc(s, o, false));
        assert_eq!((a.as_str(), b.as_str()), ("u", "disc"));
        // The arms' inner faces x = ±1 each cut 0.1 into the disc (radius 1.1).
        let tol = 1e-9 * (1.0 + o.abs() / s);
        assert!(
            (depth / s - 0.1).abs() < tol,
            "scale {s}, offset {o}: depth {depth}"
        );
        assert!(
            (n[0].abs() - 1.0).abs() < 1e-9 && n[1].abs() < 1e-9,
            "{n:?}"
        );
        // The same pair listed the other way: same depth, opposite normal.
        let (a2, b2, depth2, n2) = first_pair("wedged-swap", &wedged_disc(s, o, true));
        assert_eq!((a2.as_str(), b2.as_str()), ("disc", "u"));
        assert!((depth2 - depth).abs() <= 1e-12 * depth.abs().max(1.0));
        assert!(
            (n2[0] + n[0]).abs() < 1e-12 && (n2[1] + n[1]).abs() < 1e-12,
            "{n:?} vs {n2:?}"
        );
    }
}

#[test]
fn mesh_contacts_hold_at_huge_and_tiny_scales() {
    // The octahedron of composites_3d.json scaled by `s` and moved to (o, o, o), a
    // sphere of radius 0.5 s centred 1.2 s along x: 0.3 s deep at the vertex.
    for (s, o) in [(1e-4, 0.0), (1e5, 0.0), (1.0, 1e5)] {
        let v = |x: f64, y: f64, z: f64| format!("[{}, {}, {}]", x * s, y * s, z * s);
        let vertices = [
            v(1., 0., 0.),
            v(-1., 0., 0.),
            v(0., 1., 0.),
            v(0., -1., 0.),
            v(0., 0., 1.),
            v(0., 0., -1.),
        ]
        .join(", ");
        let text = format!(
            r#"{{"dim": 3, "shapes": [
              {{"id": "octahedron", "position": [{o}, {o}, {o}], "shape": {{"type": "trimesh",
                "solid": true, "vertices": [{vertices}],
                "triangles": [[0, 2, 4], [1, 4, 2], [0, 5, 2], [1, 2, 5],
                              [0, 4, 3], [1, 3, 4], [0, 3, 5], [1, 5, 3]]}}}},
              {{"id": "ball", "shape": {{"type": "ball", "radius": {r}}}, "position": [{x}, {o}, {o}]}}
            ]}}"#,
            r = 0.5 * s,
            x = o + 1.2 * s
        );
        let (a, b, depth, n) = first_pair("octa-scale", &text);
        assert_eq!((a.as_str(), b.as_str()), ("octahedron", "ball"));
        let tol = 1e-9 * (1.0 + o.abs() / s);
        assert!(
            (depth / s - 0.3).abs() < tol,
            "scale {s}, offset {o}: depth {depth}"
        );
        assert!((n[0] - 1.0).abs() < 1e-9, "{n:?}");
    }
}

#[test]
fn shape_whose_box_overflows_at_its_pose_is_refused_in_place() {
    // A valid mesh at a position beyond the library's `Real::MAX_COORD` (its box would
    // overflow): the entry's one pose check names the position and the limit.
    let text = "{\"dim\": 3, \"shapes\": [\n  {\"shape\": {\"type\": \"trimesh\", \"vertices\": [[0,0,0],[1e70,0,0],[0,1,0]],\n   \"triangles\": [[0,1,2]]}, \"position\": [1e308, 0, 0]}\n]}";
    // The reader stands on the token after the entry: the list's `]` on line 4.
    assert_bad(
        "overflow-pose",
        text,
        "4:1",
        "shapes[0]",
        "entry: `position` has magnitude 1e308, beyond the limit",
    );
    // The same for a convex disc in 2D, second in the list.
    let text = "{\"dim\": 2, \"shapes\": [{\"shape\": {\"type\": \"ball\", \"radius\": 1}},\n  {\"shape\": {\"type\": \"ball\", \"radius\": 1}, \"position\": [1e308, 0]}\n]}";
    assert_bad(
        "overflow-disc",
        text,
        "3:1",
        "shapes[1]",
        "entry: `position` has magnitude 1e308, beyond the limit",
    );
}

/// The ```json blocks of the README.
fn readme_json_blocks() -> Vec<String> {
    let readme = std::fs::read_to_string(repo_root().join("crates/isect-cli/README.md"))
        .expect("README readable");
    let mut blocks = Vec::new();
    let mut rest = readme.as_str();
    while let Some(start) = rest.find("```json\n") {
        let body = &rest[start + 8..];
        let end = body.find("```").expect("block closes");
        blocks.push(body[..end].to_string());
        rest = &body[end + 3..];
    }
    blocks
}

#[test]
fn readme_scene_examples_are_valid_and_the_bad_one_is_refused() {
    let dir = scratch("readme");
    let path = dir.join("scene.json");
    let p = path.to_str().expect("utf-8 path");
    let run = |text: &str| {
        std::fs::write(&path, text).expect("write");
        isect(&["check", p])
    };
    let (mut entries, mut scenes) = (0, 0);
    for block in readme_json_blocks() {
        let block = block.trim();
        if block.contains("\"pairs\"") || block.contains("\"hits\"") {
            continue; // an output of `check` or `ray`
        }
        if block.starts_with("{\"dim\"") || block.starts_with("{\n  \"dim\"") {
            // A whole scene: the README's bad example is the only one refused.
            let out = run(block);
            let bad = block.contains("[[0,1,3]]");
            assert_eq!(out.status.code(), Some(if bad { 2 } else { 0 }), "{block}");
            scenes += 1;
        } else if block.starts_with("{ \"id\"") || block.starts_with("[ {") {
            // One shape entry or a list of them: valid in 2D or in 3D.
            let list = if block.starts_with('[') {
                block.to_string()
            } else {
                format!("[{block}]")
            };
            let ok = ["2", "3"].iter().any(|dim| {
                let out = run(&format!("{{\"dim\": {dim}, \"shapes\": {list}}}"));
                out.status.code() == Some(0)
            });
            assert!(ok, "README example refused in 2D and in 3D: {block}");
            entries += 1;
        }
    }
    // The examples of concave_polygon, polyline, heightfield (2), trimesh, compound.
    assert!(entries >= 6, "{entries} entry examples found");
    // The format's first example and the bad `mesh.json`.
    assert_eq!(scenes, 2);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_reader_that_goes_away_is_not_a_crash() {
    // stdout's reading end is closed before the command prints (`isect ... | head -0`).
    let mut child = Command::new(env!("CARGO_BIN_EXE_isect"))
        .args(["check", "examples/scenes/composites_2d.json"])
        .current_dir(repo_root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the isect binary runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("waits");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
}

/// Scene entries may reference mesh and polygon files, relative to the scene file
/// (not to the working folder): a ball of radius 1 at x = 1.5 overlaps the cube
/// [-1, 1]³ read from an OBJ file by 0.5, two 4×4 GeoJSON squares 3.5 apart by 0.5; a bad referenced file is reported at
/// the entry with its own file and line.
#[test]
fn scenes_reference_mesh_and_polygon_files() {
    let dir = scratch("file_refs");
    let cube =
        "v -1 -1 -1\nv 1 -1 -1\nv 1 1 -1\nv -1 1 -1\nv -1 -1 1\nv 1 -1 1\nv 1 1 1\nv -1 1 1\n\
                f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";
    std::fs::create_dir_all(dir.join("meshes")).unwrap();
    std::fs::write(dir.join("meshes/cube.obj"), cube).unwrap();
    let square = r#"{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,4],[0,4],[0,0]]]}"#;
    std::fs::write(dir.join("square.geojson"), square).unwrap();
    let mesh = |id: &str, x: f64| {
        format!(
            r#"{{"id":"{id}","shape":{{"type":"mesh_file","path":"meshes/cube.obj","solid":true}},"position":[{x},0,0]}}"#
        )
    };
    let ball = r#"{"id":"b","shape":{"type":"ball","radius":1},"position":[1.5,0,0]}"#;
    let scene3 = format!(r#"{{"dim":3,"shapes":[{},{ball}]}}"#, mesh("a", 0.0));
    std::fs::write(dir.join("meshes3.json"), scene3).unwrap();
    let poly = |id: &str, x: f64| {
        format!(
            r#"{{"id":"{id}","shape":{{"type":"polygon_file","path":"square.geojson"}},"position":[{x},0]}}"#
        )
    };
    let scene2 = format!(
        r#"{{"dim":2,"shapes":[{},{}]}}"#,
        poly("p", 0.0),
        poly("q", 3.5)
    );
    std::fs::write(dir.join("polygons2.json"), scene2).unwrap();
    for scene in ["meshes3.json", "polygons2.json"] {
        let path = dir.join(scene);
        let got = check_pairs(path.to_str().unwrap());
        assert_eq!(got.len(), 1, "{scene}: {got:?}");
        assert!((got[0].2 - 0.5).abs() < 1e-9, "{scene}: {got:?}");
    }
    std::fs::write(
        dir.join("meshes/cube.obj"),
        cube.replace("v 1 1 1", "v 1 nan 1"),
    )
    .unwrap();
    let out = isect(&["check", dir.join("meshes3.json").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(
        e.contains("meshes3.json:1:") && e.contains("cube.obj:7: vertex coordinate 1"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The points of every `<polygon ... points="...">` of `svg`, in pixels.
fn polygon_points(svg: &str) -> Vec<Vec<(f64, f64)>> {
    svg.split("<polygon ")
        .skip(1)
        .map(|rest| {
            let points = rest
                .split("points=\"")
                .nth(1)
                .expect("points")
                .split('"')
                .next()
                .unwrap();
            points
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').expect("x,y");
                    (x.parse().expect("x"), y.parse().expect("y"))
                })
                .collect()
        })
        .collect()
}

/// Every polygon of `svg` is a region (3 distinct points or more, some area), no path
/// is a lone point, and elements balance: what ImageMagick's reader needs (it aborts
/// on 2-point polygons).
fn assert_readable_svg(svg: &str) {
    for ring in polygon_points(svg) {
        let mut distinct = ring.clone();
        distinct.sort_by(|a, b| a.partial_cmp(b).unwrap());
        distinct.dedup();
        assert!(
            distinct.len() >= 3,
            "polygon of {} distinct points: {ring:?}",
            distinct.len()
        );
        let twice_area: f64 = (0..ring.len())
            .map(|i| {
                let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
                a.0 * b.1 - b.0 * a.1
            })
            .sum();
        assert!(twice_area.abs() > 0.0, "flat polygon {ring:?}");
    }
    assert!(!svg.contains(" d=\"\""), "an empty path");
    assert_eq!(svg.matches("<g ").count(), svg.matches("</g>").count());
}

/// Whether a real ImageMagick is installed (not a stand-in), to open the pictures.
fn imagemagick() -> bool {
    Command::new("convert")
        .arg("-version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("ImageMagick"))
        .unwrap_or(false)
}

/// Every example scene, in every view (3D), renders to an SVG whose polygons are all
/// regions (segments and shapes seen edge-on are polylines or lines), and which
/// ImageMagick converts to PNG where it is installed.
#[test]
fn rendered_svgs_open_in_imagemagick_from_every_view() {
    let dir = scratch("readable");
    let magick = imagemagick();
    for scene in std::fs::read_dir(repo_root().join("examples/scenes")).unwrap() {
        let scene = scene.unwrap().path();
        let views: &[&str] = if scene.to_string_lossy().contains("_3d") {
            &["z", "x", "y"]
        } else {
            &["z"]
        };
        for view in views {
            let svg = dir.join(format!(
                "{}_{view}.svg",
                scene.file_stem().unwrap().to_string_lossy()
            ));
            let out = isect(&[
                "render",
                scene.to_str().unwrap(),
                "--view",
                view,
                "-o",
                svg.to_str().unwrap(),
            ]);
            assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
            let text = std::fs::read_to_string(&svg).unwrap();
            assert_readable_svg(&text);
            if magick {
                let png = svg.with_extension("png");
                let out = Command::new("convert")
                    .arg(&svg)
                    .arg(&png)
                    .output()
                    .unwrap();
                assert!(
                    out.status.success() && png.exists(),
                    "{}: {}",
                    svg.display(),
                    stderr(&out)
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--view` turns the picture: a box of half extents (1, 2, 3) spans 2 × 4 seen
/// along z (x right, y up), 6 × 4 along x (−z right, y up), 2 × 6 along y (x right,
/// −z up); the SVG's size follows (900 px for the longer side, 20 px margins). A ray
/// along −z from z = 10 onto the box's face z = 3 starts below its hit in the top view
/// (−z is up) and left of it in the side view (−z is right): the views are not mirrored.
#[test]
fn render_view_draws_3d_scenes_from_each_axis() {
    let dir = scratch("view");
    let scene = dir.join("box.json");
    let text = r#"{"dim":3,"shapes":[{"id":"box","shape":{"type":"cuboid","half_extents":[1,2,3]}}],
                   "rays":[{"from":[0,0,10],"dir":[0,0,-1]}]}"#;
    std::fs::write(&scene, text).unwrap();
    // (view, spans of the box, sign of the ray's drawn x2 − x1 and y2 − y1 in pixels).
    for (view, span, dx, dy) in [
        ("z", [2.0, 4.0], 0.0_f64, 0.0_f64),
        ("x", [13.0, 4.0], 1.0, 0.0),
        ("y", [2.0, 13.0], 0.0, -1.0),
    ] {
        let svg = dir.join(format!("{view}.svg"));
        let out = isect(&[
            "render",
            scene.to_str().unwrap(),
            "--view",
            view,
            "-o",
            svg.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = std::fs::read_to_string(&svg).unwrap();
        let scale = 860.0 / f64::max(span[0], span[1]);
        let size = |name: &str| -> f64 {
            let v = text
                .split(&format!(" {name}=\""))
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            v.parse().unwrap()
        };
        let want = [span[0] * scale + 40.0, span[1] * scale + 40.0];
        // The SVG rounds its size up to whole pixels.
        let got = [size("width"), size("height")];
        assert!(
            (0..2).all(|i| (got[i] - want[i]).abs() <= 1.0),
            "--view {view}: {got:?}, want {want:?}"
        );
        let ray = text.split("<g class=\"ray\"><line ").nth(1).expect("a ray");
        let attr = |name: &str| -> f64 {
            let v = ray
                .split(&format!("{name}=\""))
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            v.parse().unwrap()
        };
        let (rx, ry) = (attr("x2") - attr("x1"), attr("y2") - attr("y1"));
        assert_eq!(
            (rx.signum() * dx.abs(), ry.signum() * dy.abs()),
            (dx, dy),
            "--view {view}: ray ({rx}, {ry})"
        );
    }
    let scene2 = repo_root().join("examples/scenes/shapes_2d.json");
    let out = isect(&[
        "render",
        scene2.to_str().unwrap(),
        "--view",
        "x",
        "-o",
        dir.join("2d.svg").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--view x needs a 3d scene"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A picture over the size cap is refused with a message and nothing is written
/// (render); the demo still prints its summary and refuses the picture alike.
#[test]
fn huge_pictures_are_refused_not_written() {
    let dir = scratch("huge");
    let svg = dir.join("out.svg");
    let out = isect(&[
        "render",
        "examples/scenes/shapes_2d.json",
        "--max-svg-mb",
        "0",
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    // Refused by the estimate made before any outline is built.
    assert!(
        stderr(&out).contains("the SVG would be larger than 0 MB: its 9 shapes take about"),
        "{}",
        stderr(&out)
    );
    assert_only_files(&dir, &[]);
    // 40,000 balls: about 60 MB of SVG at 1.5 kB a ball, refused under a 16 MB cap.
    let balls: Vec<String> = (0..40_000)
        .map(|i| {
            format!(
                r#"{{"shape":{{"type":"ball","radius":0.4}},"position":[{},{}]}}"#,
                i % 200,
                i / 200
            )
        })
        .collect();
    let scene = dir.join("balls.json");
    std::fs::write(
        &scene,
        format!(r#"{{"dim":2,"shapes":[{}]}}"#, balls.join(",")),
    )
    .unwrap();
    let out = isect(&[
        "render",
        scene.to_str().unwrap(),
        "--max-svg-mb",
        "16",
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("larger than 16 MB"),
        "{}",
        stderr(&out)
    );
    assert!(!svg.exists());
    let out = isect(&[
        "demo",
        "--shapes",
        "50",
        "--frames",
        "2",
        "--max-svg-mb",
        "0",
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stdout).contains("2D: 50 shapes"));
    assert!(!svg.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `isect classics` runs every classic test's worked example with the answers that the
/// geometry gives (issue 16: the worked examples run without dev-dependencies).
#[test]
fn classics_prints_every_classic_test_with_its_answer() {
    let out = isect(&["classics"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("\n== ").count(), 5, "{text}");
    for answer in [
        "t_enter: 1.0, t_exit: 2.0",
        "box falling 5 units first touches at t = Some(0.4)",
        "three planes x=1, y=2, z=3 meet at Some(Vec3(1.0, 2.0, 3.0))",
        "first touches at t = Some(0.75)",
        "pipeline, 6 triangles in a row: colliding pairs [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]",
        "cube hull: 8 vertices, 6 faces; (0.5,0.5,1) inside: true",
        "parallel ray: None",
    ] {
        assert!(text.contains(answer), "missing {answer:?} in\n{text}");
    }
    assert!(
        !text.contains("seed 0"),
        "the examples are named by what they do"
    );
}

/// `stack --scene SCENE [EXTRA...] -o DIR/stack.svg`: the output, its summary line
/// (stdout), the SVG path and the folder.
fn stack(test: &str, scene: &str, extra: &[&str]) -> (Output, String, PathBuf, PathBuf) {
    let dir = scratch(test);
    let svg = dir.join("stack.svg");
    let mut args = vec![
        "stack",
        "--scene",
        scene,
        "-o",
        svg.to_str().expect("utf-8 path"),
    ];
    args.extend_from_slice(extra);
    let out = isect(&args);
    let summary = String::from_utf8_lossy(&out.stdout).trim_end().to_string();
    (out, summary, svg, dir)
}

/// The number written after `key ` in `summary` (`top-box drift 1.05e-4 m`).
fn summary_number(summary: &str, key: &str) -> f64 {
    let (_, rest) = summary
        .split_once(&format!("{key} "))
        .unwrap_or_else(|| panic!("no {key:?} in {summary}"));
    let word = rest.split_whitespace().next().expect("a number");
    word.parse()
        .unwrap_or_else(|e| panic!("{word:?} after {key:?} ({e}): {summary}"))
}

#[test]
fn stack_box_stacks_stand_still_and_are_drawn_with_their_manifolds() {
    // Ten unit boxes on a box (3D) or a polygon (2D) floor for 10 s at 60 Hz: the top
    // box drifts under 1% of its size (1 cm), every body slower than 0.01 m/s.
    for scene in ["3d-stack-box", "2d-stack-polygon"] {
        let (out, summary, svg, dir) = stack("stack", scene, &[]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(
            summary.starts_with(&format!("{scene}: 11 bodies, 600 steps, ")),
            "{summary}"
        );
        assert!(
            summary_number(&summary, "top-box drift") < 0.01,
            "{summary}"
        );
        assert!(summary_number(&summary, "max speed") < 0.01, "{summary}");
        assert!(summary.ends_with("stands and is still"), "{summary}");
        let text = std::fs::read_to_string(&svg).expect("svg written");
        assert!(text.starts_with("<svg ") && text.trim_end().ends_with("</svg>"));
        assert_eq!(
            text.matches("<polygon class=\"shape\"").count(),
            11,
            "{scene}"
        );
        // At least one point for each of the ten contacts (floor–box, box–box), as
        // many as stderr reports.
        let marks = text.matches("<g class=\"contact\">").count();
        assert!((10..=40).contains(&marks), "{scene}: {marks} contact marks");
        assert!(
            stderr(&out).contains(&format!("(11 bodies, {marks} contact points)")),
            "{}",
            stderr(&out)
        );
        assert_readable_svg(&text);
        assert_only_files(&dir, &["stack.svg"]);
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn stack_lists_its_scenes_and_refuses_bad_options() {
    let out = isect(&["stack", "--list"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let names = String::from_utf8_lossy(&out.stdout).into_owned();
    let names: Vec<&str> = names.lines().collect();
    for name in [
        "3d-stack-grid-mesh",
        "3d-cone-lying-heightfield",
        "2d-stack-polyline",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    for (scene, extra, message) in [
        ("3d-stack-nowhere", &[][..], "no scene"),
        ("2d-stack-polygon", &["--view", "x"][..], "needs a 3D scene"),
        ("3d-stack-box", &["--steps", "1000000"][..], "more than"),
    ] {
        let (out, _, svg, dir) = stack("stack-bad", scene, extra);
        assert_eq!(out.status.code(), Some(2), "{scene} {extra:?}");
        assert!(stderr(&out).contains(message), "{}", stderr(&out));
        assert!(!svg.exists(), "nothing written for {scene} {extra:?}");
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn stack_default_scene_stands() {
    // No --scene: the 3D stack on the 20 × 20-quad mesh floor.
    let dir = scratch("stack-default");
    let svg = dir.join("stack.svg");
    let out = isect(&["stack", "-o", svg.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        summary.starts_with("3d-stack-grid-mesh: 11 bodies"),
        "{summary}"
    );
    assert!(
        summary_number(&summary, "top-box drift") < 0.01,
        "{summary}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
