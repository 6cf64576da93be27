//! glTF 2.0 (`.gltf` with embedded `data:` or external buffers, `.glb`) through the
//! [`gltf`] crate's document and accessor readers. Every triangle primitive of every
//! mesh placed by the default scene's nodes (or the first scene, or, without a scene,
//! every mesh as it is) is merged into one mesh in scene coordinates, vertices at the
//! same position merged (exporters give each face its own vertices). A node whose
//! transform mirrors (negative determinant) has its triangles' winding reversed, as
//! the specification says, so a mirrored solid stays outward-facing.
//!
//! Everything the crate's readers assume is checked before they run, so a malformed
//! or truncated file is an error naming the node, mesh and primitive, never a panic:
//! accessor byte ranges; POSITION is `FLOAT` `VEC3` (quantized positions, from the
//! `KHR_mesh_quantization` extension, are refused); indices are `UNSIGNED_BYTE`,
//! `UNSIGNED_SHORT` or `UNSIGNED_INT` `SCALAR`; a `TRIANGLES` primitive has a multiple
//! of 3 indices (or vertices); points and lines are refused; the node hierarchy is a
//! set of trees (a node with two parents, or its own ancestor, is refused); node
//! transforms are affine, invertible, with unit rotations. Buffer URIs are
//! percent-decoded (`my%20cube.bin` is the file `my cube.bin`); `data:` URIs may be
//! base64 or percent-encoded.

use super::{MeshData, Welder};
use crate::error::{read_bytes, Error, Location};
use base64::Engine as _;
use glam::{DMat3, DMat4, DQuat, DVec3};
use gltf::accessor::{DataType, Dimensions};
use gltf::mesh::Mode;
use gltf::Accessor;
use std::path::Path;

/// Deepest node hierarchy followed.
pub const MAX_NODE_DEPTH: usize = 256;

/// How far from 1 a node's rotation quaternion may be (it is normalised within this).
const ROTATION_TOLERANCE: f64 = 1e-3;

/// Reads the glTF or GLB file at `path` (external buffers relative to it).
///
/// # Errors
/// The file or a buffer cannot be read or decoded, the document is invalid, an
/// accessor reaches past its buffer or has a type the reader does not take, a
/// primitive draws points or lines or an incomplete triangle, a node has two parents
/// or a transform that is not affine and invertible, or a position is not finite;
/// each naming the node, mesh and primitive.
pub fn read_gltf(path: &Path) -> Result<MeshData, Error> {
    parse_gltf(&read_bytes(path)?, path)
}

/// Parses glTF or GLB `bytes`; `path` names them in the messages, and external
/// buffers are read relative to its folder.
///
/// # Errors
/// As [`read_gltf`].
pub fn parse_gltf(bytes: &[u8], path: &Path) -> Result<MeshData, Error> {
    let file = open_checked(bytes).map_err(|e| Error::file(path, format!("glTF: {e}")))?;
    let buffers = load_buffers(&file, path)?;
    let mut reader = Reader {
        buffers: &buffers,
        path,
        mesh: MeshData::default(),
        welder: Welder::default(),
        parents: vec![None; file.nodes().len()],
    };
    let scene = file.default_scene().or_else(|| file.scenes().next());
    match scene {
        Some(scene) => {
            for node in scene.nodes() {
                let parent = Parent::Scene(scene.index());
                reader.add_node(&node, parent, DMat4::IDENTITY, 0)?;
            }
        }
        None => {
            for m in file.meshes() {
                reader.add_mesh(&m, None, DMat4::IDENTITY)?;
            }
        }
    }
    Ok(reader.mesh)
}

/// The document of `bytes`, validated. gltf-json 1.4's validation indexes the
/// accessor list with a primitive's POSITION index unchecked (a panic for a malformed
/// file), so those indices are checked first.
fn open_checked(bytes: &[u8]) -> Result<gltf::Gltf, String> {
    let file = gltf::Gltf::from_slice_without_validation(bytes).map_err(|e| e.to_string())?;
    let root = file.document.as_json();
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            for accessor in primitive.attributes.values() {
                if accessor.value() >= root.accessors.len() {
                    return Err(format!(
                        "mesh {m}, primitive {p}: accessor {} does not exist ({} accessors)",
                        accessor.value(),
                        root.accessors.len()
                    ));
                }
            }
        }
    }
    let document =
        gltf::Document::from_json(file.document.into_json()).map_err(|e| e.to_string())?;
    Ok(gltf::Gltf {
        document,
        blob: file.blob,
    })
}

/// Every buffer's bytes: the GLB chunk, a `data:` URI, or a file beside `path`.
fn load_buffers(file: &gltf::Gltf, path: &Path) -> Result<Vec<Vec<u8>>, Error> {
    file.buffers()
        .map(|buffer| {
            let at = |msg: String| Error::file(path, format!("buffer {}: {msg}", buffer.index()));
            let data = match buffer.source() {
                gltf::buffer::Source::Bin => file
                    .blob
                    .clone()
                    .ok_or_else(|| at("refers to the GLB binary chunk, which is missing".into()))?,
                gltf::buffer::Source::Uri(uri) if uri.starts_with("data:") => {
                    decode_data_uri(uri).map_err(at)?
                }
                gltf::buffer::Source::Uri(uri) => {
                    let name = percent_decode(uri)
                        .ok()
                        .and_then(|b| String::from_utf8(b).ok())
                        .ok_or_else(|| {
                            at(format!("URI `{uri}` is not a percent-encoded UTF-8 path"))
                        })?;
                    let file = path.parent().unwrap_or(Path::new(".")).join(&name);
                    std::fs::read(&file)
                        .map_err(|e| at(format!("cannot read {}: {e}", file.display())))?
                }
            };
            if data.len() < buffer.length() {
                return Err(at(format!(
                    "holds {} bytes, the document says {} (truncated)",
                    data.len(),
                    buffer.length()
                )));
            }
            Ok(data)
        })
        .collect()
}

/// The bytes of a `data:[<media type>][;base64],<data>` URI.
fn decode_data_uri(uri: &str) -> Result<Vec<u8>, String> {
    let (header, payload) = uri
        .split_once(',')
        .ok_or("a data URI without `,` before its data")?;
    if header.ends_with(";base64") {
        // Base64 may itself be percent-encoded (`%2B` for `+`).
        let payload = percent_decode(payload)?;
        base64::engine::general_purpose::STANDARD
            .decode(payload)
            .map_err(|e| format!("bad base64: {e}"))
    } else {
        percent_decode(payload)
    }
}

/// The bytes of percent-encoded `text` (RFC 3986: `%` and two hex digits is a byte).
fn percent_decode(text: &str) -> Result<Vec<u8>, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| {
                    format!(
                        "bad percent-encoding at byte {i}: `%` must be followed by two hex digits"
                    )
                })?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Ok(out)
}

/// Where a node was reached from.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Parent {
    /// A root of this scene.
    Scene(usize),
    /// A child of this node.
    Node(usize),
}

impl std::fmt::Display for Parent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Scene(s) => write!(f, "a root of scene {s}"),
            Self::Node(n) => write!(f, "a child of node {n}"),
        }
    }
}

/// The reading of one file's meshes into one [`MeshData`].
struct Reader<'a> {
    buffers: &'a [Vec<u8>],
    path: &'a Path,
    mesh: MeshData,
    welder: Welder,
    /// Where each node was first reached from (a node may have one parent).
    parents: Vec<Option<Parent>>,
}

impl Reader<'_> {
    /// The meshes of `node` and its children, placed by their transforms over `parent`.
    fn add_node(
        &mut self,
        node: &gltf::Node,
        from: Parent,
        parent: DMat4,
        depth: usize,
    ) -> Result<(), Error> {
        let at = Location {
            node: Some(node.index()),
            ..Location::default()
        };
        let fail = |msg: String| Error::new(self.path, at.clone(), msg);
        match self.parents.get(node.index()).copied().flatten() {
            Some(first) => {
                let what = if self.is_ancestor(node.index(), from) {
                    format!("is its own ancestor (a cycle: it is {from})")
                } else if first == from {
                    format!("is listed twice, as {from}")
                } else {
                    format!("has two parents: it is {first} and {from}")
                };
                return Err(fail(format!(
                    "the node {what}; glTF nodes form trees, each node has at most one parent"
                )));
            }
            None => self.parents[node.index()] = Some(from),
        }
        if depth > MAX_NODE_DEPTH {
            return Err(fail(format!("node hierarchy deeper than {MAX_NODE_DEPTH}")));
        }
        let world = parent * local_transform(node).map_err(fail)?;
        if let Some(m) = node.mesh() {
            self.add_mesh(&m, Some(node.index()), world)?;
        }
        for child in node.children() {
            self.add_node(&child, Parent::Node(node.index()), world, depth + 1)?;
        }
        Ok(())
    }

    /// Whether `node` is `from` or one of its ancestors.
    fn is_ancestor(&self, node: usize, mut from: Parent) -> bool {
        // Bounded: the parents recorded so far form trees (the first repeat stops here).
        for _ in 0..=self.parents.len() {
            match from {
                Parent::Scene(_) => return false,
                Parent::Node(n) if n == node => return true,
                Parent::Node(n) => match self.parents.get(n).copied().flatten() {
                    Some(p) => from = p,
                    None => return false,
                },
            }
        }
        false
    }

    /// The triangles of every primitive of `m`, placed by node `node` (if any) with
    /// the transform `world`.
    fn add_mesh(&mut self, m: &gltf::Mesh, node: Option<usize>, world: DMat4) -> Result<(), Error> {
        let linear = DMat3::from_mat4(world);
        let det = linear.determinant();
        if !(det.is_finite() && det != 0.0) {
            return Err(Error::new(
                self.path,
                Location {
                    node,
                    mesh: Some(m.index()),
                    ..Location::default()
                },
                format!(
                    "the node transforms of this mesh have determinant {det}: they flatten it \
                     (a zero scale) or are not finite"
                ),
            ));
        }
        // A mirroring transform turns the triangles inside out: the glTF 2.0 specification
        // makes the winding clockwise when the global transform's determinant is negative,
        // so the triangles are reversed to keep them counter-clockwise.
        let mirrored = det < 0.0;
        for primitive in m.primitives() {
            let at = Location {
                node,
                mesh: Some(m.index()),
                primitive: Some(primitive.index()),
                ..Location::default()
            };
            let fail = |msg: String| Error::new(self.path, at.clone(), msg);
            let positions = primitive
                .get(&gltf::Semantic::Positions)
                .ok_or_else(|| fail("has no POSITION attribute".into()))?;
            check_positions(&positions, self.buffers)
                .map_err(|m| fail(format!("POSITION: {m}")))?;
            let indices = primitive.indices();
            if let Some(indices) = &indices {
                check_indices(indices, self.buffers).map_err(|m| fail(format!("indices: {m}")))?;
            }
            let count = indices.as_ref().map_or(positions.count(), Accessor::count);
            check_count(primitive.mode(), count, indices.is_some()).map_err(&fail)?;
            let reader = primitive.reader(|b| self.buffers.get(b.index()).map(Vec::as_slice));
            let points: Vec<[f32; 3]> = reader
                .read_positions()
                .ok_or_else(|| fail("POSITION cannot be read".into()))?
                .collect();
            let order: Vec<u32> = match reader.read_indices() {
                Some(i) => i.into_u32().collect(),
                None => (0..points.len() as u32).collect(),
            };
            let triangles = assemble(primitive.mode(), &order).map_err(&fail)?;
            let mut ids = Vec::with_capacity(points.len());
            for (k, p) in points.iter().enumerate() {
                let q = world.transform_point3(DVec3::new(p[0].into(), p[1].into(), p[2].into()));
                let vertex_at = Location {
                    vertex: Some(k),
                    ..at.clone()
                };
                if !q.is_finite() {
                    let msg =
                        format!("position {k} is {p:?}, not finite (after the node transform)");
                    return Err(Error::new(self.path, vertex_at, msg));
                }
                ids.push(self.welder.add(&mut self.mesh, q.to_array(), || vertex_at));
            }
            for (k, t) in triangles.into_iter().enumerate() {
                if let Some(&bad) = t.iter().find(|&&i| i as usize >= points.len()) {
                    return Err(fail(format!(
                        "index {bad} is past the {} positions",
                        points.len()
                    )));
                }
                let [a, b, c] = t.map(|i| ids[i as usize]);
                self.mesh
                    .triangles
                    .push(if mirrored { [a, c, b] } else { [a, b, c] });
                self.mesh.triangle_locations.push(Location {
                    triangle: Some(k),
                    ..at.clone()
                });
            }
        }
        Ok(())
    }
}

/// The node's own transform, checked: a matrix must be affine (last row 0, 0, 0, 1),
/// a rotation a unit quaternion (normalised within [`ROTATION_TOLERANCE`]).
fn local_transform(node: &gltf::Node) -> Result<DMat4, String> {
    match node.transform() {
        gltf::scene::Transform::Matrix { matrix } => {
            let m = DMat4::from_cols_array_2d(&matrix.map(|c| c.map(f64::from)));
            let row = m.row(3);
            if row != glam::DVec4::W {
                return Err(format!(
                    "matrix has last row {:?}, not (0, 0, 0, 1): glTF node matrices are affine",
                    row.to_array()
                ));
            }
            Ok(m)
        }
        gltf::scene::Transform::Decomposed {
            translation,
            rotation,
            scale,
        } => {
            let q = DQuat::from_array(rotation.map(f64::from));
            let length = q.length();
            let off = (length - 1.0).abs();
            if off.is_nan() || off > ROTATION_TOLERANCE {
                return Err(format!(
                    "rotation {rotation:?} has length {length}, not 1: glTF rotations are unit quaternions"
                ));
            }
            Ok(DMat4::from_scale_rotation_translation(
                DVec3::from_array(scale.map(f64::from)),
                q / length,
                DVec3::from_array(translation.map(f64::from)),
            ))
        }
    }
}

/// The number of `count` indices (or vertices, `indexed` false) suits `mode`.
fn check_count(mode: Mode, count: usize, indexed: bool) -> Result<(), String> {
    let what = if indexed {
        "indices"
    } else {
        "vertices (no indices)"
    };
    match mode {
        Mode::Triangles if count % 3 != 0 => Err(format!(
            "TRIANGLES with {count} {what}, not a multiple of 3 (the last triangle is incomplete)"
        )),
        Mode::TriangleStrip | Mode::TriangleFan if count < 3 => Err(format!(
            "{} with {count} {what}: draws no triangle",
            mode_name(mode)
        )),
        Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan => Ok(()),
        other => Err(format!("draws {other:?}, not triangles")),
    }
}

/// The specification's name of `mode`.
fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Points => "POINTS",
        Mode::Lines => "LINES",
        Mode::LineLoop => "LINE_LOOP",
        Mode::LineStrip => "LINE_STRIP",
        Mode::Triangles => "TRIANGLES",
        Mode::TriangleStrip => "TRIANGLE_STRIP",
        Mode::TriangleFan => "TRIANGLE_FAN",
    }
}

/// Triangles of a primitive of `mode` drawing `order`.
fn assemble(mode: Mode, order: &[u32]) -> Result<Vec<[u32; 3]>, String> {
    Ok(match mode {
        Mode::Triangles => order.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect(),
        // Every second strip triangle is reversed to keep the winding; triangles
        // repeating an index join strips (they have no area) and are left out.
        Mode::TriangleStrip => order
            .windows(3)
            .enumerate()
            .filter(|(_, w)| w[0] != w[1] && w[1] != w[2] && w[0] != w[2])
            .map(|(i, w)| {
                if i % 2 == 0 {
                    [w[0], w[1], w[2]]
                } else {
                    [w[1], w[0], w[2]]
                }
            })
            .collect(),
        Mode::TriangleFan => order
            .windows(2)
            .skip(1)
            .map(|w| [order[0], w[0], w[1]])
            .collect(),
        other => return Err(format!("draws {other:?}, not triangles")),
    })
}

/// The specification's name of a component type, and its code.
fn type_name(t: DataType) -> String {
    let (name, code) = match t {
        DataType::I8 => ("BYTE", 5120),
        DataType::U8 => ("UNSIGNED_BYTE", 5121),
        DataType::I16 => ("SHORT", 5122),
        DataType::U16 => ("UNSIGNED_SHORT", 5123),
        DataType::U32 => ("UNSIGNED_INT", 5125),
        DataType::F32 => ("FLOAT", 5126),
    };
    format!("{name} ({code})")
}

/// The specification's name of an accessor type.
fn dimensions_name(d: Dimensions) -> &'static str {
    match d {
        Dimensions::Scalar => "SCALAR",
        Dimensions::Vec2 => "VEC2",
        Dimensions::Vec3 => "VEC3",
        Dimensions::Vec4 => "VEC4",
        Dimensions::Mat2 => "MAT2",
        Dimensions::Mat3 => "MAT3",
        Dimensions::Mat4 => "MAT4",
    }
}

/// A POSITION accessor the reader takes: `FLOAT` `VEC3`, in its buffer.
fn check_positions(a: &Accessor, buffers: &[Vec<u8>]) -> Result<(), String> {
    if a.data_type() != DataType::F32 || a.dimensions() != Dimensions::Vec3 || a.normalized() {
        return Err(format!(
            "is {}{} {}, but glTF positions are FLOAT (5126) VEC3 (quantized positions, \
             KHR_mesh_quantization, are not supported)",
            if a.normalized() { "normalized " } else { "" },
            type_name(a.data_type()),
            dimensions_name(a.dimensions()),
        ));
    }
    check_accessor(a, buffers)
}

/// An index accessor the reader takes: `UNSIGNED_BYTE`, `UNSIGNED_SHORT` or
/// `UNSIGNED_INT` `SCALAR`, in its buffer.
fn check_indices(a: &Accessor, buffers: &[Vec<u8>]) -> Result<(), String> {
    let unsigned = matches!(a.data_type(), DataType::U8 | DataType::U16 | DataType::U32);
    if !unsigned || a.dimensions() != Dimensions::Scalar {
        return Err(format!(
            "are {} {}, but glTF indices are UNSIGNED_BYTE (5121), UNSIGNED_SHORT (5123) \
             or UNSIGNED_INT (5125) SCALAR",
            type_name(a.data_type()),
            dimensions_name(a.dimensions()),
        ));
    }
    check_accessor(a, buffers)
}

/// The accessor's bytes lie inside its view and the view inside its buffer (the
/// reader would otherwise find nothing, or wrap around on a zero count).
fn check_accessor(a: &Accessor, buffers: &[Vec<u8>]) -> Result<(), String> {
    if a.sparse().is_some() {
        return Err("sparse accessors are not supported".into());
    }
    let view = a.view().ok_or("has no buffer view")?;
    if a.count() == 0 {
        return Err("has no elements".into());
    }
    let stride = view.stride().unwrap_or(a.size());
    if stride < a.size() {
        return Err(format!(
            "stride {stride} is below the element size {}",
            a.size()
        ));
    }
    let end = (a.count() - 1)
        .checked_mul(stride)
        .and_then(|x| x.checked_add(a.offset()))
        .and_then(|x| x.checked_add(a.size()));
    let view_end = view.offset().checked_add(view.length());
    let buffer_len = buffers.get(view.buffer().index()).map_or(0, Vec::len);
    match (end, view_end) {
        (Some(end), Some(view_end)) if end <= view.length() && view_end <= buffer_len => Ok(()),
        _ => Err(format!(
            "{} elements from byte {} reach past buffer view {} ({} bytes at {}) or its buffer ({} bytes)",
            a.count(),
            a.offset(),
            view.index(),
            view.length(),
            view.offset(),
            buffer_len
        )),
    }
}
