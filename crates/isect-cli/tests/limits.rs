//! Bad and extreme input to the built `isect` binary: numbers beyond the library's
//! coordinate limit, ids that XML cannot carry or that clash with default ids, rays
//! that go nowhere, pictures too big to build, a long demo, and the edges of the
//! scene reader (end of file, byte order mark, columns). Each is refused with exit 2
//! and one message naming the file and position (nothing written), or answered
//! right; every SVG written is well-formed XML with only finite numbers.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `Real::MAX_COORD` for `f64`, as the messages print it.
const LIMIT: &str = "3.618502788666131e75";

/// Runs `isect ARGS` from the repository root.
fn isect(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_isect"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .output()
        .expect("the isect binary runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A fresh empty folder for one test's files.
fn scratch(test: &str) -> PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = format!("isect-limits-{}-{call}-{test}", std::process::id());
    let dir = std::env::temp_dir().join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Writes `text` as `dir/name` and returns its path as a string.
fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write file");
    path.to_str().expect("utf-8 path").to_string()
}

/// The files of `dir`, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `check` and `render` of the scene `text` both fail with exit 2 and one message
/// `FILE:LINE_COL: FIELD: ...WHAT...`; `render` writes nothing.
fn assert_refused(test: &str, text: &str, line_col: &str, field: &str, what: &str) {
    let dir = scratch(test);
    let scene = write(&dir, "scene.json", text);
    let svg = dir.join("out.svg");
    for args in [
        vec!["check", scene.as_str()],
        vec!["render", scene.as_str(), "-o", svg.to_str().unwrap()],
    ] {
        let out = isect(&args);
        let msg = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {msg}");
        assert!(
            msg.starts_with(&format!("isect: {scene}:{line_col}: {field}: ")),
            "{args:?}: want {line_col} {field}: {msg}"
        );
        assert!(msg.contains(what), "{args:?}: want {what:?}: {msg}");
        assert_eq!(msg.lines().count(), 1, "one line: {msg}");
        assert!(out.stdout.is_empty());
    }
    assert_eq!(files(&dir), ["scene.json"], "render wrote nothing");
    let _ = std::fs::remove_dir_all(dir);
}

/// Checks that `svg` is well-formed XML 1.0 as readers need it: only characters XML
/// allows, entity references that exist, quoted attributes, balanced tags. Also no
/// number in it is NaN or infinite.
fn assert_well_formed(svg: &str) {
    for (i, c) in svg.char_indices() {
        let allowed = matches!(c, '\t' | '\n' | '\r')
            || (' '..='\u{d7ff}').contains(&c)
            || ('\u{e000}'..='\u{fffd}').contains(&c)
            || c >= '\u{10000}';
        assert!(allowed, "character {c:?} at byte {i} is not allowed in XML");
    }
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find(['<', '&']) {
        assert_text(&rest[..start]);
        rest = &rest[start..];
        if rest.starts_with('&') {
            let end = rest.find(';').expect("an entity ends with ;");
            let entity = &rest[1..end];
            let known =
                ["amp", "lt", "gt", "quot", "apos"].contains(&entity) || entity.starts_with('#');
            assert!(known, "unknown entity &{entity};");
            rest = &rest[end + 1..];
            continue;
        }
        let end = tag_end(rest);
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop(), Some(name.trim()), "closing </{name}>");
            continue;
        }
        let self_closing = tag.ends_with('/');
        let body = tag.trim_end_matches('/');
        let name = body.split_whitespace().next().expect("tag name");
        assert_attributes(&body[name.len()..]);
        if !self_closing {
            stack.push(name);
        }
    }
    assert_text(rest);
    assert!(stack.is_empty(), "unclosed {stack:?}");
    for word in ["NaN", "inf"] {
        for (i, _) in svg.match_indices(word) {
            // Only ids (in titles) may hold these letters.
            let before = &svg[..i];
            let in_title = before.rfind("<title>") > before.rfind("</title>");
            assert!(in_title, "{word} outside a title at byte {i}");
        }
    }
}

/// The index of the `>` that ends the tag at the start of `s` (outside quotes).
fn tag_end(s: &str) -> usize {
    let mut quote = None;
    for (i, c) in s.char_indices().skip(1) {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '<') => panic!("< inside a tag: {}", &s[..i]),
            (None, '>') => return i,
            _ => {}
        }
    }
    panic!("unterminated tag {s:.40}")
}

/// Text between tags: no markup character left raw.
fn assert_text(text: &str) {
    assert!(!text.contains('>'), "raw > in text {text:?}");
}

/// `name="value"` pairs, values without `<` or a raw `&`.
fn assert_attributes(mut s: &str) {
    loop {
        s = s.trim_start();
        if s.is_empty() {
            return;
        }
        let eq = s
            .find('=')
            .unwrap_or_else(|| panic!("attribute without = {s:?}"));
        let name = s[..eq].trim();
        assert!(
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_alphanumeric() || "-:_".contains(c)),
            "attribute name {name:?}"
        );
        let value = &s[eq + 1..];
        let q = value.chars().next().expect("a quoted value");
        assert!(q == '"' || q == '\'', "unquoted attribute {name}");
        let end = value[1..].find(q).expect("closing quote") + 1;
        let v = &value[1..end];
        assert!(!v.contains('<'), "< in attribute {name}");
        for (i, _) in v.match_indices('&') {
            let entity = &v[i + 1..v[i..].find(';').expect("entity end") + i];
            assert!(
                ["amp", "lt", "gt", "quot", "apos"].contains(&entity) || entity.starts_with('#')
            );
        }
        s = &value[end + 1..];
    }
}

/// Renders `text` as a scene and returns the SVG (which must be well-formed).
fn render_ok(test: &str, text: &str, extra: &[&str]) -> String {
    let dir = scratch(test);
    let scene = write(&dir, "scene.json", text);
    let svg = dir.join("out.svg");
    let mut args = vec!["render", scene.as_str(), "-o", svg.to_str().unwrap()];
    args.extend_from_slice(extra);
    let out = isect(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let picture = std::fs::read_to_string(&svg).expect("svg written");
    assert_well_formed(&picture);
    // A real reader too, where one is installed (librsvg refuses invalid XML).
    let png = dir.join("out.png");
    if let Ok(out) = Command::new("rsvg-convert")
        .arg(&svg)
        .arg("-o")
        .arg(&png)
        .output()
    {
        assert!(out.status.success(), "rsvg-convert: {}", stderr(&out));
    }
    let _ = std::fs::remove_dir_all(dir);
    picture
}

fn ball(extra: &str) -> String {
    format!(r#"{{"shape": {{"type": "ball", "radius": 1}}{extra}}}"#)
}

/// Item 1: velocities, angles and rotation axes get the same limit as positions;
/// each is refused where its entry or rotation ends, naming the field.
#[test]
fn numbers_beyond_the_coordinate_limit_are_refused_where_they_stand() {
    // Two balls flying apart at ±1e308 once drew `width="NaN"`.
    let v1 = ball(r#", "velocity": [1e308, 0]"#);
    let v2 = ball(r#", "position": [5, 0], "velocity": [-1e308, 0]"#);
    // An entry's own numbers are checked once it is read: the reader stands on the
    // token after it (here the next entry, line 3).
    let text = format!("{{\"dim\": 2, \"shapes\": [\n{v1},\n{v2}]}}");
    assert_refused(
        "velocity",
        &text,
        "3:1",
        "shapes[0]",
        &format!("entry: `velocity` has magnitude 1e308, beyond the limit {LIMIT}"),
    );
    let v = ball(r#", "velocity": [0, 0, -4e75]"#);
    assert_refused(
        "velocity3",
        &format!("{{\"dim\": 3, \"shapes\": [{v}]}}"),
        &format!("1:{}", 23 + v.len()),
        "shapes[0]",
        "`velocity` has magnitude 4e75",
    );
    let a = ball(r#", "angle": 1e300"#);
    assert_refused(
        "angle",
        &format!("{{\"dim\": 2, \"shapes\": [{a}]}}"),
        &format!("1:{}", 23 + a.len()),
        "shapes[0]",
        "`angle` has magnitude 1e300",
    );
    let r = ball(r#", "rotation": {"axis": [1, 0, 0], "angle": -1e200}"#);
    assert_refused(
        "rot-angle",
        &format!("{{\"dim\": 3, \"shapes\": [{r}]}}"),
        &format!("1:{}", 22 + r.len()),
        "shapes[0].rotation",
        "`rotation.angle` has magnitude 1e200",
    );
    // An axis whose length overflows was once "rotation axis is zero".
    let r = ball(r#", "rotation": {"axis": [1e200, 1e200, 0], "angle": 1}"#);
    assert_refused(
        "rot-axis",
        &format!("{{\"dim\": 3, \"shapes\": [{r}]}}"),
        &format!("1:{}", 22 + r.len()),
        "shapes[0].rotation",
        "`rotation.axis` has magnitude 1e200",
    );
    let part = r#"{"shape": {"type": "ball", "radius": 1}, "angle": 1e100}"#;
    let c = format!(r#"{{"shape": {{"type": "compound", "parts": [{part}]}}}}"#);
    assert_refused(
        "part-angle",
        &format!("{{\"dim\": 2, \"shapes\": [{c}]}}"),
        &format!("1:{}", 22 + c.len()),
        "shapes[0].shape",
        "Compound: parts[0]: `angle` has magnitude 1e100",
    );
}

/// Item 1 and 4 in scene files: a ray of the file beyond the limit, or with a zero
/// direction, is refused naming the ray.
#[test]
fn scene_rays_beyond_the_limit_or_without_direction_are_refused() {
    let shapes = format!("[{}]", ball(""));
    for (ray, what) in [
        (
            r#"{"from": [-1e300, 0], "dir": [1, 0]}"#,
            "`from` has magnitude 1e300",
        ),
        (
            r#"{"from": [0, 0], "dir": [1e80, 0]}"#,
            "`dir` has magnitude 1e80",
        ),
        (r#"{"from": [0, 0], "dir": [0, 0]}"#, "`dir` is zero"),
    ] {
        let head = format!("{{\"dim\": 2, \"shapes\": {shapes}, \"rays\": [");
        let text = format!("{head}{ray}]}}");
        let col = head.len() + ray.len() + 1;
        assert_refused("ray", &text, &format!("1:{col}"), "rays[0]", what);
    }
}

/// Item 1: the largest velocities and positions allowed still draw, with finite
/// numbers only.
#[test]
fn the_largest_allowed_numbers_draw_finite_pictures() {
    let text = format!(
        "{{\"dim\": 2, \"shapes\": [{}, {}], \"rays\": [{{\"from\": [-3e75, 0], \"dir\": [3e75, 1]}}]}}",
        ball(r#", "position": [3.6e75, -3.6e75], "velocity": [3.6e75, 3.6e75]"#),
        ball(r#", "position": [-3.6e75, 3.6e75], "velocity": [-3.6e75, -3.6e75], "angle": 3e75"#),
    );
    let svg = render_ok("largest", &text, &[]);
    assert!(svg.contains("class=\"velocity\""));
    let header = svg.lines().next().unwrap();
    assert!(header.contains("width=\"900\""), "{header}");
}

/// Item 2: ids with characters XML forbids (controls) or reserves (markup) give a
/// well-formed SVG: the markup escaped, the controls replaced by U+FFFD.
#[test]
fn ids_with_control_and_markup_characters_give_well_formed_svg() {
    let ids = [
        r#"a\u0001b"#,
        r#"tab\there\u001f\u000b"#,
        r#"<&>\"'"#,
        r#"\uffff end"#,
    ];
    let shapes: Vec<String> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| ball(&format!(r#", "id": "{id}", "position": [{}, 0]"#, 3 * i)))
        .collect();
    let text = format!("{{\"dim\": 2, \"shapes\": [{}]}}", shapes.join(", "));
    let svg = render_ok("ctl", &text, &[]);
    assert!(
        svg.contains("<title>a\u{fffd}b (Ball)</title>"),
        "{svg:.2000}"
    );
    assert!(svg.contains("<title>tab\there\u{fffd}\u{fffd} (Ball)</title>"));
    assert!(svg.contains("<title>&lt;&amp;&gt;&quot;&apos; (Ball)</title>"));
    assert!(svg.contains("<title>\u{fffd} end (Ball)</title>"));
}

/// Item 3: a shape without `id` is named by its index; an explicit id equal to
/// another shape's default id is refused, whichever comes first.
#[test]
fn explicit_ids_that_clash_with_default_ids_are_refused() {
    let text = format!(
        "{{\"dim\": 2, \"shapes\": [{}, {}]}}",
        ball(""),
        ball(r#", "id": "0""#)
    );
    let end = text.len();
    assert_refused(
        "default-first",
        &text,
        &format!("1:{end}"),
        "shapes",
        "duplicate id `0` (shapes 0 and 1): shape 0 has no `id` and is named by its index",
    );
    let text = format!(
        "{{\"dim\": 2, \"shapes\": [{}, {}]}}",
        ball(r#", "id": "1""#),
        ball(r#", "position": [5, 0]"#)
    );
    let end = text.len();
    assert_refused(
        "default-second",
        &text,
        &format!("1:{end}"),
        "shapes",
        "duplicate id `1` (shapes 0 and 1): shape 1 has no `id`",
    );
    // Default ids that clash with nothing stay as they were.
    let dir = scratch("default-ok");
    let text = format!(
        "{{\"dim\": 2, \"shapes\": [{}, {}, {}]}}",
        ball(""),
        ball(r#", "id": "x", "position": [1, 0]"#),
        ball(r#", "position": [2, 0]"#)
    );
    let scene = write(&dir, "scene.json", &text);
    let out = isect(&["check", &scene, "--format", "text"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("0 - x: depth 1") && text.contains("x - 2: depth 1"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Item 4: `ray --from/--dir` beyond the limit README states, or a zero `--dir`, are
/// bad options (exit 2) named in the message; within the limit the answer is right.
#[test]
fn ray_options_beyond_the_limit_or_zero_are_refused() {
    let scene = "examples/scenes/shapes_2d.json";
    for (from, dir, what) in [
        (
            "-1e300,0",
            "1,0",
            format!("`--from` has magnitude 1e300, beyond the limit {LIMIT}"),
        ),
        ("0,0", "1,-1e76", "`--dir` has magnitude 1e76".to_string()),
        ("0,0", "0,0", "--dir is zero".to_string()),
        ("0,0", "-0,0", "--dir is zero".to_string()),
    ] {
        let out = isect(&["ray", scene, "--from", from, "--dir", dir]);
        assert_eq!(out.status.code(), Some(2), "{from} {dir}: {}", stderr(&out));
        assert!(stderr(&out).contains(&what), "{}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
    // ball_a (unit disc at the origin) is the first shape on the x axis, from far.
    let out = isect(&["ray", scene, "--from", "-1e9,0", "--dir", "1,0"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(doc["hits"][0]["id"], "ball_a", "{doc}");
}

/// Item 7: `--format text` prints small `t` (and depths, points) with their
/// significant digits, not as 0; noise in a unit normal still prints as 0.
#[test]
fn text_output_keeps_the_digits_of_small_numbers() {
    let dir = scratch("tiny");
    // A disc of radius 1 at x = 5: a ray from the origin with |dir| = 1e9 hits at
    // t = 4e-9.
    let text = format!(
        "{{\"dim\": 2, \"shapes\": [{}]}}",
        ball(r#", "position": [5, 0]"#)
    );
    let scene = write(&dir, "scene.json", &text);
    let out = isect(&[
        "ray", &scene, "--from", "0,0", "--dir", "1e9,0", "--format", "text",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(": t 4e-9, point (4, 0), normal (-1, 0)"),
        "{text}"
    );
    // Tiny shapes: a micrometre disc overlapping another by 0.25 µm.
    let text = format!(
        "{{\"dim\": 2, \"shapes\": [{}, {}]}}",
        r#"{"id": "a", "shape": {"type": "ball", "radius": 1e-6}}"#,
        r#"{"id": "b", "shape": {"type": "ball", "radius": 1e-6}, "position": [1.75e-6, 0]}"#
    );
    let scene = write(&dir, "tiny.json", &text);
    let out = isect(&["check", &scene, "--format", "text"]);
    let text = stdout(&out);
    assert!(
        text.contains("a - b: depth 2.5e-7, normal (1, 0), points (1e-6, 0) (7.5e-7, 0)"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Item 5: a long 2D demo keeps its rotations unit (it once failed after some
/// thousands of frames with exit 1 and "World: World:").
#[test]
fn a_long_demo_keeps_its_rotations_unit() {
    let dir = scratch("long-demo");
    let svg = dir.join("demo.svg");
    let out = isect(&[
        "demo",
        "--shapes",
        "1",
        "--frames",
        "20000",
        "--dim",
        "2",
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("20000 frames"), "{}", stdout(&out));
    assert_well_formed(&std::fs::read_to_string(&svg).expect("svg"));
    let _ = std::fs::remove_dir_all(dir);
}

/// Item 6: one shape too big to draw is refused before its outline is built,
/// naming the shape, what makes it big, and what to do; nothing is written.
#[test]
fn one_huge_shape_is_refused_before_it_is_drawn() {
    let dir = scratch("huge-shape");
    let svg = dir.join("out.svg");
    // A 1000 × 1000 heightfield: 1,996,002 triangles, some 180 MB of outlines.
    let n = 1000;
    let heights = vec!["0"; n * n].join(",");
    let text = format!(
        r#"{{"dim": 3, "shapes": [{{"id": "ground", "shape": {{"type": "heightfield", "rows": {n}, "cols": {n}, "heights": [{heights}], "scale": [10, 1, 10]}}}}]}}"#
    );
    let scene = write(&dir, "hf.json", &text);
    let start = std::time::Instant::now();
    let out = isect(&["render", &scene, "-o", svg.to_str().unwrap()]);
    let msg = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{msg}");
    assert!(
        msg.contains("the SVG would be larger than 64 MB: shape `ground` (a HeightField of 1000 × 1000 points, 1996002 triangles) alone takes about"),
        "{msg}"
    );
    assert!(
        msg.contains("nothing was written: draw it with fewer rows and columns, or raise the limit with --max-svg-mb"),
        "{msg}"
    );
    assert!(start.elapsed().as_secs() < 60, "refused early");
    assert_eq!(files(&dir), ["hf.json"]);
    // A mesh of 20,000 triangles under a 1 MB cap, among small shapes.
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    for i in 0..10_000 {
        let x = i as f64;
        vertices.push(format!("[{x},0,0],[{x},1,0]"));
        if i > 0 {
            let (a, b, c, d) = (2 * i - 2, 2 * i - 1, 2 * i, 2 * i + 1);
            triangles.push(format!("[{a},{c},{b}],[{b},{c},{d}]"));
        }
    }
    let text = format!(
        r#"{{"dim": 3, "shapes": [{}, {{"id": "strip", "shape": {{"type": "trimesh", "vertices": [{}], "triangles": [{}]}}}}]}}"#,
        ball(""),
        vertices.join(","),
        triangles.join(",")
    );
    let scene = write(&dir, "mesh.json", &text);
    let out = isect(&[
        "render",
        &scene,
        "-o",
        svg.to_str().unwrap(),
        "--max-svg-mb",
        "1",
    ]);
    let msg = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{msg}");
    assert!(
        msg.contains("shape `strip` (a TriMesh of 19998 triangles) alone"),
        "{msg}"
    );
    assert!(!svg.exists());
    // Raised as the message says, the picture is drawn.
    let raise = msg.split("--max-svg-mb ").nth(1).expect("a size").trim();
    let out = isect(&[
        "render",
        &scene,
        "-o",
        svg.to_str().unwrap(),
        "--max-svg-mb",
        raise,
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "--max-svg-mb {raise}: {}",
        stderr(&out)
    );
    assert_well_formed(&std::fs::read_to_string(&svg).expect("svg"));
    let _ = std::fs::remove_dir_all(dir);
}

/// Item 7: errors at the end of a file name column 1 (columns count from 1), and
/// columns count characters, not bytes.
#[test]
fn columns_count_characters_from_one() {
    for (text, line_col, field) in [
        ("", "1:1", "(top level)"),
        ("\n", "2:1", "(top level)"),
        ("{\"dim\": 2, \"shapes\": [\n", "2:1", "shapes"),
    ] {
        assert_refused("eof", text, line_col, field, "EOF while parsing");
    }
    // `é` is two bytes: the bad radius ends at column 60 (character 60).
    let text = r#"{"dim": 2, "shapes": [{"id": "ééé", "shape": {"type": "ball", "radius": -1}}]}"#;
    let col = text.find("}}").unwrap() - 3 + 1 + 1;
    assert_refused(
        "utf8",
        text,
        &format!("1:{col}"),
        "shapes[0].shape",
        "`radius` is -1",
    );
}

/// Item 7: a UTF-8 byte order mark before the scene is skipped; columns count from
/// the first character after it.
#[test]
fn a_byte_order_mark_is_accepted() {
    let dir = scratch("bom");
    let text = format!(
        "\u{feff}{{\"dim\": 2, \"shapes\": [{}]}}",
        ball(r#", "id": "only""#)
    );
    let scene = write(&dir, "scene.json", &text);
    let out = isect(&["check", &scene]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(doc["shapes"], 1);
    let _ = std::fs::remove_dir_all(dir);
    assert_refused(
        "bom-bad",
        "\u{feff}{\"dim\": 5}",
        "1:10",
        "dim",
        "must be 2 or 3",
    );
}

/// Item 7: `render` refuses to write its picture over the scene file (by any path)
/// or over a file the scene references; both stay as they were.
#[test]
fn render_never_writes_over_its_inputs() {
    let dir = scratch("inputs");
    let obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    let mesh = write(&dir, "tri.obj", obj);
    let text = r#"{"dim": 3, "shapes": [{"shape": {"type": "mesh_file", "path": "tri.obj"}}]}"#;
    let scene = write(&dir, "scene.json", text);
    let other = format!("{}/./scene.json", dir.display());
    for target in [scene.as_str(), other.as_str(), mesh.as_str()] {
        let out = isect(&["render", &scene, "-o", target]);
        let msg = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{target}: {msg}");
        assert!(
            msg.contains(&format!("-o {target} is the input file")),
            "{msg}"
        );
        assert!(msg.contains("would be overwritten"), "{msg}");
    }
    assert_eq!(std::fs::read_to_string(&scene).unwrap(), text);
    assert_eq!(std::fs::read_to_string(&mesh).unwrap(), obj);
    assert_eq!(files(&dir), ["scene.json", "tri.obj"]);
    let _ = std::fs::remove_dir_all(dir);
}
