//! Mesh files that the readers once read wrongly, hung on or panicked on, each built
//! in the test (in a fresh temporary folder) and read as a class: glTF accessor
//! types, node graphs, mirroring transforms, split vertices, buffer URIs and
//! primitive sizes; STL with several solids, a count that disagrees with the size,
//! and ASCII files read as binary; OBJ errors without their line, and coordinates
//! rounded to f32. Every refusal names the file and the position in it.

use isect::query::{ProjectPoint, RayCast};
use isect::shape::{Ray, TriMesh, TriMeshFlags};
use isect_io::mesh::{load_trimesh, read_mesh, MeshData};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// A fresh folder for one test's files, removed at the end.
struct Dir(PathBuf);

impl Dir {
    fn new(test: &str) -> Self {
        let dir = std::env::temp_dir().join(format!(
            "isect-io-mesh-bad-files-{}-{test}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }

    /// Writes `bytes` to the file `name`; its path.
    fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The message of reading `path` into a mesh (with `flags`), which must fail and
/// name the file.
fn error_with(path: &Path, flags: TriMeshFlags) -> String {
    let name = path.file_name().unwrap().to_str().unwrap();
    match read_mesh(path).and_then(|m| m.to_trimesh::<f64>(path, flags)) {
        Ok(m) => panic!("{name} was read: {} triangles", m.triangle_count()),
        Err(e) => {
            let text = e.to_string();
            assert!(text.contains(name), "{text} does not name {name}");
            text
        }
    }
}

/// The message of reading `path` as an open mesh.
fn error(path: &Path) -> String {
    error_with(path, TriMeshFlags::OPEN)
}

/// Asserts that `text` contains every one of `parts`.
#[track_caller]
fn assert_has(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "`{text}` lacks `{part}`");
    }
}

/// The solid mesh of `path`, which must read.
fn solid(path: &Path) -> TriMesh<f64> {
    load_trimesh::<f64>(path, TriMeshFlags::SOLID).unwrap_or_else(|e| panic!("{e}"))
}

/// The mesh data of `path`, which must read.
fn data(path: &Path) -> MeshData {
    read_mesh(path).unwrap_or_else(|e| panic!("{e}"))
}

/// The solid cube of half extent 1 about `center`: 12 triangles, a ray along x
/// from 5 before it hits at t = 4 with normal -x, and the centre is inside.
#[track_caller]
fn assert_cube(mesh: &TriMesh<f64>, center: glam::DVec3) {
    assert!(mesh.is_solid());
    assert_eq!(mesh.triangle_count(), 12);
    let ray = Ray::new(center - glam::DVec3::X * 5.0, glam::DVec3::X).unwrap();
    let hit = mesh.cast_ray(&ray, 100.0).expect("no hit");
    assert!((hit.t - 4.0).abs() < 1e-12, "t = {}", hit.t);
    assert!(
        (hit.normal + glam::DVec3::X).length() < 1e-12,
        "{:?}",
        hit.normal
    );
    assert!(mesh.project_local_point(center, true).is_inside);
}

// ---------------------------------------------------------------------------------
// glTF

/// The corners of the cube of half extent 1.
const CUBE: [[f32; 3]; 8] = [
    [-1.0, -1.0, -1.0],
    [1.0, -1.0, -1.0],
    [1.0, 1.0, -1.0],
    [-1.0, 1.0, -1.0],
    [-1.0, -1.0, 1.0],
    [1.0, -1.0, 1.0],
    [1.0, 1.0, 1.0],
    [-1.0, 1.0, 1.0],
];

/// Its 12 outward triangles.
const CUBE_INDICES: [u32; 36] = [
    0, 3, 2, 0, 2, 1, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0,
    4, 3, 4, 7,
];

/// Little-endian `f32` triples.
fn f32_bytes(points: &[[f32; 3]]) -> Vec<u8> {
    points
        .iter()
        .flatten()
        .flat_map(|c| c.to_le_bytes())
        .collect()
}

/// `indices` stored as glTF component type `component`.
fn index_bytes(indices: &[u32], component: u32) -> Vec<u8> {
    indices
        .iter()
        .flat_map(|&i| match component {
            5120 => (i as i8).to_le_bytes().to_vec(),
            5121 => (i as u8).to_le_bytes().to_vec(),
            5122 => (i as i16).to_le_bytes().to_vec(),
            5123 => (i as u16).to_le_bytes().to_vec(),
            5125 => i.to_le_bytes().to_vec(),
            5126 => (i as f32).to_le_bytes().to_vec(),
            _ => unreachable!(),
        })
        .collect()
}

/// A buffer view's bytes and stride.
type View = (Vec<u8>, Option<usize>);

/// Writes the glTF file `name` in `dir`: `doc` with `asset`, one buffer (`uri`, by
/// default `NAME.bin` beside it, holding `views` 4-byte aligned) and its views.
fn write_gltf(dir: &Dir, name: &str, mut doc: Value, views: &[View], uri: Option<&str>) -> PathBuf {
    let mut bin = Vec::new();
    let mut buffer_views = Vec::new();
    for (bytes, stride) in views {
        while bin.len() % 4 != 0 {
            bin.push(0);
        }
        let mut view = json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": bytes.len()});
        if let Some(stride) = stride {
            view["byteStride"] = json!(stride);
        }
        buffer_views.push(view);
        bin.extend_from_slice(bytes);
    }
    let bin_name = format!("{name}.bin");
    dir.write(&bin_name, &bin);
    doc["asset"] = json!({"version": "2.0"});
    doc["buffers"] = json!([{"byteLength": bin.len(), "uri": uri.unwrap_or(&bin_name)}]);
    doc["bufferViews"] = json!(buffer_views);
    dir.write(name, serde_json::to_string_pretty(&doc).unwrap())
}

/// A POSITION accessor of `count` FLOAT VEC3 in view `view` (the cube's bounds).
fn positions(view: usize, count: usize) -> Value {
    json!({"bufferView": view, "componentType": 5126, "count": count, "type": "VEC3",
           "min": [-1, -1, -1], "max": [1, 1, 1]})
}

/// The cube as one indexed primitive (indices of type `component`) placed by
/// `nodes` (node 0 the scene's root): the document and its views.
fn cube_gltf(nodes: Value, component: u32) -> (Value, Vec<View>) {
    let doc = json!({
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": nodes,
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "mode": 4}]}],
        "accessors": [
            positions(0, 8),
            {"bufferView": 1, "componentType": component, "count": 36, "type": "SCALAR"}
        ]
    });
    let views = vec![
        (f32_bytes(&CUBE), None),
        (index_bytes(&CUBE_INDICES, component), None),
    ];
    (doc, views)
}

#[test]
fn gltf_accessor_types_are_checked_before_the_readers_run() {
    let dir = Dir::new("accessor_types");
    // Unsigned indices of every width read; signed and float ones are refused (the
    // gltf crate's reader reached `unreachable!()` on them).
    for component in [5121, 5123, 5125] {
        let (doc, views) = cube_gltf(json!([{"mesh": 0}]), component);
        let path = write_gltf(&dir, &format!("i{component}.gltf"), doc, &views, None);
        assert_cube(&solid(&path), glam::DVec3::ZERO);
    }
    for (component, name) in [(5120, "BYTE"), (5122, "SHORT"), (5126, "FLOAT")] {
        let (doc, views) = cube_gltf(json!([{"mesh": 0}]), component);
        let path = write_gltf(&dir, &format!("i{component}.gltf"), doc, &views, None);
        let e = error(&path);
        assert_has(
            &e,
            &[
                "node 0, mesh 0, primitive 0: indices: are ",
                &format!("{name} ({component}) SCALAR"),
                "UNSIGNED_BYTE (5121), UNSIGNED_SHORT (5123) or UNSIGNED_INT (5125) SCALAR",
            ],
        );
    }
    // Indices that are not SCALAR (12 VEC3 of UNSIGNED_SHORT).
    let (mut doc, views) = cube_gltf(json!([{"mesh": 0}]), 5123);
    doc["accessors"][1]["type"] = json!("VEC3");
    doc["accessors"][1]["count"] = json!(12);
    let path = write_gltf(&dir, "ivec3.gltf", doc, &views, None);
    assert_has(
        &error(&path),
        &["primitive 0: indices: are UNSIGNED_SHORT (5123) VEC3"],
    );

    // POSITION must be FLOAT VEC3: integer (quantized) and normalized positions,
    // tightly packed or strided, and other vector sizes are refused, not read as f32.
    let quantized = |component: u32, size: usize, stride: usize| -> Vec<u8> {
        let mut bytes = Vec::new();
        for p in CUBE {
            let start = bytes.len();
            for c in p {
                let v = (c + 1.0) as u32;
                bytes.extend_from_slice(&index_bytes(&[v], component)[..size]);
            }
            bytes.resize(start + stride, 0);
        }
        bytes
    };
    let cases: [(&str, Value, View, &str); 6] = [
        (
            "u16s12",
            json!({"componentType": 5123}),
            (quantized(5123, 2, 12), Some(12)),
            "is UNSIGNED_SHORT (5123) VEC3",
        ),
        (
            "u16s8",
            json!({"componentType": 5123}),
            (quantized(5123, 2, 8), Some(8)),
            "is UNSIGNED_SHORT (5123) VEC3",
        ),
        (
            "u16tight",
            json!({"componentType": 5123}),
            (quantized(5123, 2, 6), None),
            "is UNSIGNED_SHORT (5123) VEC3",
        ),
        (
            "u8n",
            json!({"componentType": 5121, "normalized": true}),
            (quantized(5121, 1, 4), Some(4)),
            "is normalized UNSIGNED_BYTE (5121) VEC3",
        ),
        (
            "vec2",
            json!({"type": "VEC2"}),
            (f32_bytes(&CUBE)[..64].to_vec(), None),
            "is FLOAT (5126) VEC2",
        ),
        (
            "vec4",
            json!({"type": "VEC4"}),
            (vec![0; 128], None),
            "is FLOAT (5126) VEC4",
        ),
    ];
    for (name, change, view, says) in cases {
        let (mut doc, mut views) = cube_gltf(json!([{"mesh": 0}]), 5123);
        for (k, v) in change.as_object().unwrap() {
            doc["accessors"][0][k] = v.clone();
        }
        views[0] = view;
        let path = write_gltf(&dir, &format!("p{name}.gltf"), doc, &views, None);
        let e = error(&path);
        assert_has(
            &e,
            &[
                "node 0, mesh 0, primitive 0: POSITION: ",
                says,
                "glTF positions are FLOAT (5126) VEC3",
            ],
        );
    }
}

#[test]
fn gltf_node_graphs_must_be_trees() {
    let dir = Dir::new("node_graphs");
    let read = |name: &str, nodes: Value, roots: Value| {
        let (mut doc, views) = cube_gltf(nodes, 5123);
        doc["scenes"] = json!([{"nodes": roots}]);
        error(&write_gltf(&dir, name, doc, &views, None))
    };
    // Each node lists the next twice: 2^64 paths to the mesh, which the reader
    // followed one by one (a hang); the repeat is refused at once.
    let mut nodes: Vec<Value> = (0..64)
        .map(|i| json!({"children": [i + 1, i + 1]}))
        .collect();
    nodes.push(json!({"mesh": 0}));
    let started = std::time::Instant::now();
    let e = read("dag.gltf", json!(nodes), json!([0]));
    assert!(started.elapsed().as_secs() < 10);
    assert_has(
        &e,
        &[
            "dag.gltf: node 64: the node is listed twice, as a child of node 63",
            "each node has at most one parent",
        ],
    );
    // Two different parents, and a root that is also a child.
    let e = read(
        "two_parents.gltf",
        json!([{"children": [2]}, {"children": [2]}, {"mesh": 0}]),
        json!([0, 1]),
    );
    assert_has(
        &e,
        &["node 2: the node has two parents: it is a child of node 0 and a child of node 1"],
    );
    let e = read(
        "root_and_child.gltf",
        json!([{"mesh": 0, "children": [1]}, {"mesh": 0}]),
        json!([0, 1]),
    );
    assert_has(
        &e,
        &["node 1: the node has two parents: it is a child of node 0 and a root of scene 0"],
    );
    let e = read("root_twice.gltf", json!([{"mesh": 0}]), json!([0, 0]));
    assert_has(
        &e,
        &["node 0: the node is listed twice, as a root of scene 0"],
    );
    // Cycles: a node its own child, and through another node.
    let e = read(
        "self.gltf",
        json!([{"mesh": 0, "children": [0]}]),
        json!([0]),
    );
    assert_has(
        &e,
        &["node 0: the node is its own ancestor (a cycle: it is a child of node 0)"],
    );
    let e = read(
        "cycle.gltf",
        json!([{"mesh": 0, "children": [1]}, {"children": [0]}]),
        json!([0]),
    );
    assert_has(
        &e,
        &["node 0: the node is its own ancestor (a cycle: it is a child of node 1)"],
    );
    // A chain deeper than the reader follows (256) is refused at the node past it.
    let depth = 256;
    let mut chain: Vec<Value> = (0..depth + 10)
        .map(|i| json!({"children": [i + 1]}))
        .collect();
    chain.push(json!({"mesh": 0}));
    let e = read("deep.gltf", json!(chain), json!([0]));
    assert_has(
        &e,
        &[&format!(
            "deep.gltf: node {}: node hierarchy deeper than {depth}",
            depth + 1
        )],
    );
    // A mesh placed by two nodes (instancing) is fine: two cubes.
    let (mut doc, views) = cube_gltf(
        json!([{"mesh": 0}, {"mesh": 0, "translation": [5, 0, 0]}]),
        5123,
    );
    doc["scenes"] = json!([{"nodes": [0, 1]}]);
    let two = data(&write_gltf(&dir, "instanced.gltf", doc, &views, None));
    assert_eq!((two.vertices.len(), two.triangles.len()), (16, 24));
}

#[test]
fn gltf_mirroring_transforms_reverse_the_winding() {
    let dir = Dir::new("mirroring");
    let placed = glam::DVec3::new(10.0, 0.0, 0.0);
    let mirror_matrix = json!([-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 0, 0, 1]);
    for (name, nodes) in [
        (
            "scale.gltf",
            json!([{"mesh": 0, "scale": [-1, 1, 1], "translation": [10, 0, 0]}]),
        ),
        ("matrix.gltf", json!([{"mesh": 0, "matrix": mirror_matrix}])),
        // Mirrored by the parent, not the node of the mesh.
        (
            "parent.gltf",
            json!([{"scale": [1, 1, -1], "translation": [10, 0, 0], "children": [1]}, {"mesh": 0}]),
        ),
        // Two mirrors make a rotation: the winding stays.
        (
            "twice.gltf",
            json!([{"scale": [-1, 1, 1], "children": [1]}, {"mesh": 0, "scale": [1, -1, 1], "translation": [-10, 0, 0]}]),
        ),
        (
            "plain.gltf",
            json!([{"mesh": 0, "translation": [10, 0, 0]}]),
        ),
    ] {
        let (doc, views) = cube_gltf(nodes, 5123);
        let path = write_gltf(&dir, name, doc, &views, None);
        assert_cube(&solid(&path), placed);
    }
    // Transforms that are not rigid-and-scale are refused, naming the node.
    for (name, node, says) in [
        (
            "flat.gltf",
            json!({"mesh": 0, "scale": [1, 1, 0]}),
            "node 0, mesh 0: the node transforms of this mesh have determinant 0",
        ),
        (
            "projective.gltf",
            json!({"mesh": 0, "matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]}),
            "node 0: matrix has last row [0.0, 0.0, 0.0, 0.0], not (0, 0, 0, 1)",
        ),
        (
            "quaternion.gltf",
            json!({"mesh": 0, "rotation": [0, 0, 1, 1]}),
            "node 0: rotation [0.0, 0.0, 1.0, 1.0] has length 1.414",
        ),
    ] {
        let (doc, views) = cube_gltf(json!([node]), 5123);
        assert_has(&error(&write_gltf(&dir, name, doc, &views, None)), &[says]);
    }
    // A rotation off unit length by f32 rounding is normalised.
    let half = std::f32::consts::FRAC_1_SQRT_2;
    let (doc, views) = cube_gltf(
        json!([{"mesh": 0, "rotation": [0, 0, half, half * 1.000_001]}]),
        5123,
    );
    let mesh = solid(&write_gltf(&dir, "near_unit.gltf", doc, &views, None));
    assert!(mesh.project_local_point(glam::DVec3::ZERO, true).is_inside);
}

#[test]
fn separate_vertices_per_face_are_merged_and_negative_zero_is_zero() {
    let dir = Dir::new("split_vertices");
    // The cube as exporters write it: 4 vertices per face, 24 in all.
    let faces = [
        [0, 3, 2, 1],
        [4, 5, 6, 7],
        [0, 1, 5, 4],
        [1, 2, 6, 5],
        [2, 3, 7, 6],
        [3, 0, 4, 7],
    ];
    let mut points = Vec::new();
    let mut indices = Vec::new();
    for f in faces {
        let base = points.len() as u32;
        points.extend(f.map(|k| CUBE[k]));
        indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    let (mut doc, _) = cube_gltf(json!([{"mesh": 0, "translation": [10, 0, 0]}]), 5123);
    doc["accessors"][0]["count"] = json!(24);
    let views = vec![
        (f32_bytes(&points), None),
        (index_bytes(&indices, 5123), None),
    ];
    let path = write_gltf(&dir, "split.gltf", doc, &views, None);
    let m = data(&path);
    assert_eq!(m.vertices.len(), 8, "24 vertices merged into 8");
    assert_cube(&solid(&path), glam::DVec3::new(10.0, 0.0, 0.0));

    // A tetrahedron whose last facet writes its zeros as -0, in each format.
    let tet = [
        [0.0f32, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
    ];
    let faces = [[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]];
    let negate_zeros = |p: [f32; 3]| p.map(|c| if c == 0.0 { -0.0 } else { c });
    let triangles: Vec<[[f32; 3]; 3]> = faces
        .iter()
        .enumerate()
        .map(|(k, f)| f.map(|v| if k == 3 { negate_zeros(tet[v]) } else { tet[v] }))
        .collect();
    let ascii = ascii_stl(&[("t", &triangles[..])]);
    assert!(ascii.contains("vertex -0 -0 -0"));
    let binary = binary_stl(b"tet", triangles.len() as u32, &triangles);
    let mut obj = String::new();
    for p in tet {
        obj += &format!("v {} {} {}\n", p[0], p[1], p[2]);
    }
    obj += "f 1 3 2\nf 1 2 4\nf 2 3 4\n";
    for p in [tet[0], tet[3], tet[2]] {
        let q = negate_zeros(p);
        obj += &format!("v {:?} {:?} {:?}\n", q[0], q[1], q[2]);
    }
    obj += "f 5 6 7\n";
    assert!(obj.contains("v -0.0 -0.0 -0.0"));
    for (name, bytes) in [
        ("tet_ascii.stl", ascii.into_bytes()),
        ("tet_binary.stl", binary),
        ("tet.obj", obj.into_bytes()),
    ] {
        let path = dir.write(name, bytes);
        let m = data(&path);
        assert_eq!(m.vertices.len(), 4, "{name}: {:?}", m.vertices);
        // Merged vertices are stored as +0.
        assert!(
            m.vertices.iter().flatten().all(|c| c.is_sign_positive()),
            "{name}"
        );
        let mesh = solid(&path);
        assert!(
            mesh.project_local_point(glam::DVec3::splat(0.1), true)
                .is_inside,
            "{name}"
        );
    }

    // An open surface asked to be solid: the error names where the triangle was read
    // (glTF node, mesh, primitive and triangle; OBJ face line; STL facet and line)
    // and the edge's two vertices by coordinates and location.
    let (doc, views) = cube_gltf(json!([{"mesh": 0}]), 5123);
    let mut views = views;
    views[1] = (index_bytes(&CUBE_INDICES[..30], 5123), None);
    let mut doc = doc;
    doc["accessors"][1]["count"] = json!(30);
    let path = write_gltf(&dir, "open.gltf", doc, &views, None);
    let e = error_with(&path, TriMeshFlags::SOLID);
    assert_has(
        &e,
        &[
            "open.gltf: node 0, mesh 0, primitive 0, triangle ",
            "not closed at edge",
            "in the file, the edge from (",
            "(node 0, mesh 0, primitive 0, vertex ",
        ],
    );
    let path = dir.write(
        "open.obj",
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\n# no more faces\nf 2 3 4\n",
    );
    let e = error_with(&path, TriMeshFlags::SOLID);
    assert_has(&e, &["in the file, the edge from (", " (line "]);
    assert!(
        ["open.obj:5: ", "open.obj:6: ", "open.obj:8: "]
            .iter()
            .any(|l| e.contains(l)),
        "{e}"
    );
    let open: Vec<[[f32; 3]; 3]> = triangles[..3].to_vec();
    let path = dir.write("open.stl", ascii_stl(&[("open", &open[..])]));
    let e = error_with(&path, TriMeshFlags::SOLID);
    assert_has(
        &e,
        &[
            "open.stl: line ",
            ", triangle ",
            "in the file, the edge from (",
        ],
    );
}

#[test]
fn gltf_buffer_uris_are_percent_decoded() {
    let dir = Dir::new("uris");
    let (doc, views) = cube_gltf(json!([{"mesh": 0}]), 5123);
    // `my cube.gltf.bin` is written beside it; the URI encodes the space.
    let path = write_gltf(
        &dir,
        "my cube.gltf",
        doc.clone(),
        &views,
        Some("my%20cube.gltf.bin"),
    );
    assert_cube(&solid(&path), glam::DVec3::ZERO);
    // A data: URI, base64 or percent-encoded.
    let bin = std::fs::read(dir.0.join("my cube.gltf.bin")).unwrap();
    let percent: String = bin.iter().map(|b| format!("%{b:02X}")).collect();
    let mut plain = doc.clone();
    plain["asset"] = json!({"version": "2.0"});
    plain["buffers"] = json!([{"byteLength": bin.len(), "uri": format!("data:application/octet-stream,{percent}")}]);
    plain["bufferViews"] = json!([
        {"buffer": 0, "byteOffset": 0, "byteLength": 96},
        {"buffer": 0, "byteOffset": 96, "byteLength": 72}
    ]);
    let path = dir.write("percent_data.gltf", plain.to_string());
    assert_cube(&solid(&path), glam::DVec3::ZERO);
    // A bad escape is refused, naming the buffer.
    let path = write_gltf(&dir, "bad.gltf", doc.clone(), &views, Some("my%2gcube.bin"));
    assert_has(
        &error(&path),
        &["bad.gltf: buffer 0: URI `my%2gcube.bin` is not a percent-encoded UTF-8 path"],
    );
    plain["buffers"][0]["uri"] = json!("data:application/octet-stream,%G0");
    let path = dir.write("bad_data.gltf", plain.to_string());
    assert_has(
        &error(&path),
        &["bad_data.gltf: buffer 0: bad percent-encoding at byte 0"],
    );
}

#[test]
fn gltf_primitives_must_draw_whole_triangles() {
    let dir = Dir::new("primitive_sizes");
    let with = |name: &str, mode: u32, indices: Option<&[u32]>| {
        let (mut doc, mut views) = cube_gltf(json!([{"mesh": 0}]), 5123);
        doc["meshes"][0]["primitives"][0]["mode"] = json!(mode);
        match indices {
            Some(i) => {
                doc["accessors"][1]["count"] = json!(i.len());
                views[1] = (index_bytes(i, 5123), None);
            }
            None => {
                doc["meshes"][0]["primitives"][0]
                    .as_object_mut()
                    .unwrap()
                    .remove("indices");
            }
        }
        write_gltf(&dir, name, doc, &views, None)
    };
    let e = error(&with("four.gltf", 4, Some(&[0, 3, 2, 0])));
    assert_has(
        &e,
        &["four.gltf: node 0, mesh 0, primitive 0: TRIANGLES with 4 indices, not a multiple of 3"],
    );
    let e = error(&with("thirtyfive.gltf", 4, Some(&CUBE_INDICES[..35])));
    assert_has(&e, &["TRIANGLES with 35 indices, not a multiple of 3"]);
    let e = error(&with("unindexed.gltf", 4, None));
    assert_has(
        &e,
        &["TRIANGLES with 8 vertices (no indices), not a multiple of 3"],
    );
    let e = error(&with("strip2.gltf", 5, Some(&[0, 1])));
    assert_has(
        &e,
        &["primitive 0: TRIANGLE_STRIP with 2 indices: draws no triangle"],
    );
    let e = error(&with("fan2.gltf", 6, Some(&[0, 1])));
    assert_has(
        &e,
        &["primitive 0: TRIANGLE_FAN with 2 indices: draws no triangle"],
    );
    for (mode, name) in [
        (0, "Points"),
        (1, "Lines"),
        (2, "LineLoop"),
        (3, "LineStrip"),
    ] {
        let e = error(&with(
            &format!("mode{mode}.gltf"),
            mode,
            Some(&CUBE_INDICES),
        ));
        assert_has(&e, &[&format!("primitive 0: draws {name}, not triangles")]);
    }
    // Strips and fans draw their triangles; a strip's joining triangles (a repeated
    // index, no area) are left out.
    let m = data(&with(
        "strip.gltf",
        5,
        Some(&[0, 1, 3, 2, 2, 4, 4, 5, 7, 6]),
    ));
    assert_eq!(m.triangles.len(), 4);
    let m = data(&with("fan.gltf", 6, Some(&[0, 1, 2, 3])));
    assert_eq!(m.triangles.len(), 2);
}

// ---------------------------------------------------------------------------------
// STL

/// An ASCII STL of `solids` (name, triangles), `solid NAME` lines as given.
fn ascii_stl(solids: &[(&str, &[[[f32; 3]; 3]])]) -> String {
    let mut s = String::new();
    for (name, triangles) in solids {
        s += &format!("solid {name}\n");
        for t in triangles.iter() {
            s += " facet normal 0 0 0\n  outer loop\n";
            for v in t {
                s += &format!("   vertex {} {} {}\n", v[0], v[1], v[2]);
            }
            s += "  endloop\n endfacet\n";
        }
        s += &format!("endsolid {name}\n");
    }
    s
}

/// A binary STL with header `header`, the count `count` and `triangles`.
fn binary_stl(header: &[u8], count: u32, triangles: &[[[f32; 3]; 3]]) -> Vec<u8> {
    let mut b = header.to_vec();
    b.resize(80, b' ');
    b.extend(count.to_le_bytes());
    for t in triangles {
        b.extend([0u8; 12]);
        b.extend(f32_bytes(t));
        b.extend([0u8; 2]);
    }
    b
}

/// The outward facets of the tetrahedron (0, 0, 0), x, y, z.
fn tetrahedron() -> Vec<[[f32; 3]; 3]> {
    let v = [
        [0.0f32, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
    ];
    [[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]]
        .iter()
        .map(|f| f.map(|k| v[k]))
        .collect()
}

#[test]
fn ascii_stl_reads_every_solid() {
    let dir = Dir::new("solids");
    let tet = tetrahedron();
    // Two solids: both read (the second was dropped).
    let path = dir.write("two.stl", ascii_stl(&[("a", &tet[..1]), ("b", &tet[1..2])]));
    assert_eq!(data(&path).triangles.len(), 2);
    // The tetrahedron in three solids is one closed mesh.
    let path = dir.write(
        "three.stl",
        ascii_stl(&[("a", &tet[..1]), ("b", &tet[1..3]), ("c", &tet[3..])]),
    );
    assert_eq!(solid(&path).triangle_count(), 4);
    // An empty solid among them is fine; text after the last `endsolid` is not.
    let none: &[[[f32; 3]; 3]] = &[];
    let path = dir.write(
        "empty_solid.stl",
        ascii_stl(&[("a", &tet[..]), ("empty", none)]),
    );
    assert_eq!(data(&path).triangles.len(), 4);
    let text = ascii_stl(&[("a", &tet[..])]) + "garbage\n";
    let lines = text.lines().count();
    let e = error(&dir.write("garbage.stl", text));
    assert_has(
        &e,
        &[&format!(
            "garbage.stl:{lines}: STL: expected `solid` (or the end of the file), found `garbage`"
        )],
    );
    // A missing `endsolid` (a truncated file) is refused at the last line.
    let text = ascii_stl(&[("a", &tet[..])]).replace("endsolid a\n", "");
    let lines = text.lines().count();
    let e = error(&dir.write("noend.stl", text));
    assert_has(
        &e,
        &[&format!(
            "noend.stl: line {lines}, triangle 4: STL: the file ends before `endsolid` (truncated)"
        )],
    );
}

#[test]
fn binary_stl_size_must_match_its_count() {
    let dir = Dir::new("binary_count");
    let tet = tetrahedron();
    let e = error(&dir.write("under.stl", binary_stl(b"bin", 1, &tet[..2])));
    assert_has(
        &e,
        &["under.stl: STL: the header says 1 triangle (84 + 50·1 = 134 bytes), the file has 184 bytes, 50 more"],
    );
    let e = error(&dir.write("zero.stl", binary_stl(b"bin", 0, &tet)));
    assert_has(
        &e,
        &["the header says 0 triangles (84 + 50·0 = 84 bytes), the file has 284 bytes, 200 more"],
    );
    let e = error(&dir.write("over.stl", binary_stl(b"bin", 5, &tet[..2])));
    assert_has(
        &e,
        &["over.stl: triangle 2: STL: the file ends before this facet (truncated): the header says 5 triangles (84 + 50·5 = 334 bytes), the file has 184 bytes"],
    );
    let mut cut = binary_stl(b"bin", 4, &tet);
    cut.truncate(84 + 50 * 3 + 20);
    let e = error(&dir.write("cut.stl", cut));
    assert_has(
        &e,
        &[
            "cut.stl: triangle 3: STL: the file ends inside this facet (truncated)",
            "254 bytes",
        ],
    );
    // Trailing bytes after the last record are refused too.
    let mut extra = binary_stl(b"bin", 4, &tet);
    extra.extend(b"\n\n");
    assert_has(
        &error(&dir.write("extra.stl", extra)),
        &["the file has 286 bytes, 2 more"],
    );
    let e = error(&dir.write("short.stl", b"bin"));
    assert_has(&e, &["short.stl: STL: 3 bytes: too short for a binary STL"]);
    // The right count reads.
    assert_eq!(
        solid(&dir.write("ok.stl", binary_stl(b"bin", 4, &tet))).triangle_count(),
        4
    );
}

#[test]
fn ascii_stl_is_told_from_binary_by_size_and_keyword() {
    let dir = Dir::new("detection");
    let tet = tetrahedron();
    let text = ascii_stl(&[("t", &tet[..])]);
    // No name, a tab, upper case, leading blank lines, a byte order mark, CRLF: all
    // ASCII (they were read as binary and called truncated).
    for (name, variant) in [
        ("noname.stl", text.replacen("solid t\n", "solid\n", 1)),
        ("tab.stl", text.replacen("solid t", "solid\tt", 1)),
        ("upper.stl", text.to_uppercase()),
        (
            "mixed.stl",
            text.replace("outer loop", "Outer Loop")
                .replacen("solid", "Solid", 1),
        ),
        ("blank.stl", format!("\n\n  {text}")),
        ("bom.stl", format!("\u{feff}{text}")),
        ("crlf.stl", text.replace('\n', "\r\n")),
    ] {
        let path = dir.write(name, &variant);
        assert_eq!(solid(&path).triangle_count(), 4, "{name}");
    }
    // `solid` alone: ASCII, and truncated.
    let e = error(&dir.write("solid_only.stl", "solid"));
    assert_has(
        &e,
        &["solid_only.stl: line 1, triangle 0: STL: the file ends before `endsolid`"],
    );
    // `solidity` is not `solid`: a binary file (here too short for its count).
    let e = error(&dir.write("solidity.stl", text.replacen("solid t", "solidity", 1)));
    assert_has(&e, &["solidity.stl: triangle ", "the header says"]);
    // A binary file whose header starts with `solid` and whose size matches is binary.
    let path = dir.write(
        "solid_header.stl",
        binary_stl(b"solid exported by CAD\n", 4, &tet),
    );
    assert_eq!(solid(&path).triangle_count(), 4);
    // ... and with a wrong count it is refused as binary, with the numbers.
    let mut b = binary_stl(b"solid exported by CAD\n", 4, &tet);
    b.truncate(200);
    let e = error(&dir.write("solid_header_cut.stl", b));
    assert_has(
        &e,
        &[
            "the header says 4 triangles",
            "it starts with `solid` but holds binary data",
        ],
    );
    // ASCII errors name the line and the facet.
    let bad = text.replacen("outer loop", "outer lop", 2);
    let e = error(&dir.write("bad.stl", bad));
    assert_has(
        &e,
        &["bad.stl: line 3, triangle 0: STL: expected `loop`, found `lop`"],
    );
    let bad = text.replacen("vertex 1 0 0", "vertex 1 x 0", 1);
    let line = bad.lines().position(|l| l.contains(" x ")).unwrap() + 1;
    let e = error(&dir.write("badnum.stl", bad));
    assert_has(
        &e,
        &[&format!(
            "badnum.stl: line {line}, triangle 0: STL: vertex coordinate 1 is `x`, not a number"
        )],
    );
    let bad = text.replacen("vertex 1 0 0", "vertex 1 nan 0", 1);
    let e = error(&dir.write("nan.stl", bad));
    assert_has(
        &e,
        &[&format!(
            "nan.stl: line {line}, triangle 0, vertex 2: corner 2 is [1.0, NaN, 0.0], not finite"
        )],
    );
}

// ---------------------------------------------------------------------------------
// OBJ

/// Three vertices and a face, then `bad` at line 5; the file's error.
fn obj_error(dir: &Dir, name: &str, bad: &str) -> String {
    let text = format!("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\n{bad}\nf 1 2 3\n");
    error(&dir.write(name, text))
}

#[test]
fn obj_errors_name_the_line_and_quote_it() {
    let dir = Dir::new("obj_errors");
    // What tobj refused without a position (or accepted, then panicked on).
    for (name, bad, says) in [
        (
            "w0.obj",
            "v 1 2 3 0",
            "vertex weight w is `0`: the coordinates are divided by w, which must not be 0",
        ),
        (
            "wbad.obj",
            "v 1 0 0 abc",
            "vertex weight w is `abc`, not a number",
        ),
        (
            "winf.obj",
            "v 1e300 0 0 1e-300",
            "vertex divided by its weight w = `1e-300` is [inf, 0.0, 0.0], not finite",
        ),
        (
            "colour2.obj",
            "v 0 0 0 1 1",
            "vertex has 5 values: 3 coordinates, then none, a weight w or 3 colour values",
        ),
        ("colour4.obj", "v 0 0 0 1 1 1 1", "vertex has 7 values"),
        (
            "colourbad.obj",
            "v 0 0 0 1 x 1",
            "vertex colour value 1 is `x`, not a number",
        ),
        (
            "pos.obj",
            "v 0 x 0",
            "vertex coordinate 1 is `x`, not a number",
        ),
        ("short.obj", "v 0 0", "vertex has 2 coordinates, needs 3"),
        (
            "nan.obj",
            "v NaN 0 0",
            "vertex coordinate 0 is `NaN`, not finite in f32 or f64",
        ),
        (
            "inf.obj",
            "v 1e999 0 0",
            "vertex coordinate 0 is `1e999`, not finite",
        ),
        ("vt.obj", "vt 0", "texture coordinate has 1 values, needs 2"),
        (
            "vtbad.obj",
            "vt 0 y",
            "texture coordinate value 1 is `y`, not a number",
        ),
        ("vn.obj", "vn 0 0", "normal has 2 values, needs 3"),
        (
            "four.obj",
            "f 1/1/1/1 2 3",
            "face corner `1/1/1/1` has more than 3 indices",
        ),
        (
            "vtoor.obj",
            "f 1/5 2/5 3/5",
            "face corner `1/5` names texture coordinate 5, but 1 are defined before it",
        ),
        (
            "vtzero.obj",
            "f 1/0 2/1 3/1",
            "face corner `1/0` names texture coordinate 0",
        ),
        (
            "vtneg.obj",
            "f 1/-2 2/1 3/1",
            "face corner `1/-2` names texture coordinate -2",
        ),
        (
            "vtnum.obj",
            "f 1/x 2 3",
            "face corner `1/x`: texture coordinate index `x` is not a number",
        ),
        (
            "vnoor.obj",
            "f 1//7 2//7 3//7",
            "face corner `1//7` names normal 7, but 0 are defined before it",
        ),
        (
            "voor.obj",
            "f 1 2 4",
            "face corner `4` names vertex 4, but 3 vertices are defined before it",
        ),
        (
            "vnone.obj",
            "f /1 2 3",
            "face corner `/1` does not start with a vertex index",
        ),
        (
            "corners.obj",
            "f 1 2",
            "face has 2 corners, needs at least 3",
        ),
    ] {
        let e = obj_error(&dir, name, bad);
        assert_has(&e, &[&format!("{name}:5: {says}"), &format!(": `{bad}`")]);
    }
    // A statement continued with `\` is reported at its first line.
    let e = error(&dir.write("cont.obj", "v 0 0 0\nv 1 \\\n 0 \\\n x\nf 1 2 3\n"));
    assert_has(
        &e,
        &["cont.obj:2: vertex coordinate 2 is `x`, not a number: `v 1 "],
    );
    let e = error(&dir.write("cont_end.obj", "v 0 0 0\nv 1 0 \\"));
    assert_has(
        &e,
        &["cont_end.obj:2: the file ends inside a statement continued with `\\`"],
    );
}

#[test]
fn obj_statements_tobj_misread_are_read_right() {
    let dir = Dir::new("obj_statements");
    let text = "\
# a comment
o first
v 0 0 0 # origin
v 2 0 0 2
v 0 1 0 0.5 0.5 0.5
v 0 0 \\
  1
vt 0 0
vn 0 0 1
usemtl
usemtl named material
mtllib missing.mtl
g second
s off
l 1 2 3 4
f 1/1/1 3/1/1 2/1/1 # first face
f 1//1 2//1 4//1
f -3/-1 -2/-1 -1/-1
f 1 4 3
";
    let path = dir.write("tricky.obj", text);
    let m = data(&path);
    // `v 2 0 0 2` is (1, 0, 0); the colours are not coordinates; `l` draws nothing.
    assert_eq!(
        m.vertices,
        [
            [0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0]
        ]
    );
    assert_eq!(m.triangles.len(), 4);
    let lines: Vec<Option<usize>> = m.triangle_locations.iter().map(|l| l.line).collect();
    assert_eq!(lines, [Some(16), Some(17), Some(18), Some(19)]);
    assert_eq!(solid(&path).triangle_count(), 4);
    // Vertices are located at the line that first wrote them.
    let vertex_lines: Vec<Option<usize>> = m.vertex_locations.iter().map(|l| l.line).collect();
    assert_eq!(vertex_lines, [Some(3), Some(5), Some(4), Some(6)]);
}

#[test]
fn obj_coordinates_are_read_in_f64() {
    let dir = Dir::new("obj_f64");
    let path = dir.write(
        "prec.obj",
        "v 1000000 0 0\nv 1000000.01 0 0\nv 1000000 0.01 0\nf 1 2 3\n",
    );
    let m = data(&path);
    assert_eq!(
        m.vertices,
        [
            [1_000_000.0, 0.0, 0.0],
            [1_000_000.01, 0.0, 0.0],
            [1_000_000.0, 0.01, 0.0]
        ]
    );
    let mesh = load_trimesh::<f64>(&path, TriMeshFlags::OPEN).unwrap();
    assert_eq!(mesh.vertices()[1].x, 1_000_000.01);
    // 0.1 is not an f32: kept as the f64 nearest to it.
    let path = dir.write("tenth.obj", "v 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\nf 1 2 3\n");
    assert_eq!(data(&path).vertices[0][0], 0.1);
}

// A byte order mark before the first statement is skipped by every text reader (the
// OBJ reader read it as part of the first line's keyword and dropped that vertex), and
// error lines count from the first line after it.
#[test]
fn obj_after_a_byte_order_mark_keeps_its_first_line() {
    let dir = Dir::new("obj_bom");
    let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
    let plain = solid(&dir.write("plain.obj", text));
    let marked = solid(&dir.write("bom.obj", format!("\u{feff}{text}")));
    assert_eq!(marked.vertices(), plain.vertices());
    assert_eq!(marked.indices(), plain.indices());
    let e = error(&dir.write("bombad.obj", format!("\u{feff}{text}v 0 y 0\n")));
    assert_has(&e, &["bombad.obj:9: ", "`v 0 y 0`"]);
}
