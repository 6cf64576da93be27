//! glTF 2.0 (`.gltf` with embedded `data:` or external buffers, `.glb`) through the
//! [`gltf`] crate's document and accessor readers. Every triangle primitive of every
//! mesh placed by the default scene's nodes (or the first scene, or, without a scene,
//! every mesh as it is) is merged into one mesh in scene coordinates. Accessor byte
//! ranges are checked before reading, so a malformed or truncated file is an error
//! naming the mesh and primitive, never a panic.

use super::MeshData;
use crate::error::{read_bytes, Error, Location};
use base64::Engine as _;
use glam::{DMat4, DVec3, Mat4};
use gltf::mesh::Mode;
use gltf::Accessor;
use std::path::Path;

/// Deepest node hierarchy followed (a cycle in a malformed file stops here).
pub const MAX_NODE_DEPTH: usize = 256;

/// Reads the glTF or GLB file at `path` (external buffers relative to it).
///
/// # Errors
/// The file or a buffer cannot be read or decoded, the document is invalid, an
/// accessor reaches past its buffer, a primitive draws points or lines, or a position
/// is not finite; each naming the mesh and primitive.
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
    let mut mesh = MeshData::default();
    let scene = file.default_scene().or_else(|| file.scenes().next());
    match scene {
        Some(scene) => {
            for node in scene.nodes() {
                add_node(&node, DMat4::IDENTITY, 0, &buffers, path, &mut mesh)?;
            }
        }
        None => {
            for m in file.meshes() {
                add_mesh(&m, DMat4::IDENTITY, &buffers, path, &mut mesh)?;
            }
        }
    }
    Ok(mesh)
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
                    let (_, payload) = uri
                        .split_once(";base64,")
                        .ok_or_else(|| at("a data URI that is not base64".into()))?;
                    base64::engine::general_purpose::STANDARD
                        .decode(payload)
                        .map_err(|e| at(format!("bad base64: {e}")))?
                }
                gltf::buffer::Source::Uri(uri) => {
                    let file = path.parent().unwrap_or(Path::new(".")).join(uri);
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

/// The meshes of `node` and its children, placed by their transforms over `parent`.
fn add_node(
    node: &gltf::Node,
    parent: DMat4,
    depth: usize,
    buffers: &[Vec<u8>],
    path: &Path,
    mesh: &mut MeshData,
) -> Result<(), Error> {
    if depth > MAX_NODE_DEPTH {
        let msg = format!("node hierarchy deeper than {MAX_NODE_DEPTH} (a cycle?)");
        return Err(Error::file(path, msg));
    }
    let local = Mat4::from_cols_array_2d(&node.transform().matrix()).as_dmat4();
    let world = parent * local;
    if let Some(m) = node.mesh() {
        add_mesh(&m, world, buffers, path, mesh)?;
    }
    for child in node.children() {
        add_node(&child, world, depth + 1, buffers, path, mesh)?;
    }
    Ok(())
}

/// The triangles of every primitive of `m`, transformed by `world`.
fn add_mesh(
    m: &gltf::Mesh,
    world: DMat4,
    buffers: &[Vec<u8>],
    path: &Path,
    mesh: &mut MeshData,
) -> Result<(), Error> {
    for primitive in m.primitives() {
        let at = Location {
            mesh: Some(m.index()),
            primitive: Some(primitive.index()),
            ..Location::default()
        };
        let fail = |msg: String| Error::new(path, at.clone(), msg);
        let positions = primitive
            .get(&gltf::Semantic::Positions)
            .ok_or_else(|| fail("has no POSITION attribute".into()))?;
        check_accessor(&positions, buffers).map_err(|m| fail(format!("POSITION: {m}")))?;
        if let Some(indices) = primitive.indices() {
            check_accessor(&indices, buffers).map_err(|m| fail(format!("indices: {m}")))?;
        }
        let reader = primitive.reader(|b| buffers.get(b.index()).map(Vec::as_slice));
        let points: Vec<[f32; 3]> = reader
            .read_positions()
            .ok_or_else(|| fail("POSITION cannot be read".into()))?
            .collect();
        let order: Vec<u32> = match reader.read_indices() {
            Some(i) => i.into_u32().collect(),
            None => (0..points.len() as u32).collect(),
        };
        let triangles = assemble(primitive.mode(), &order).map_err(fail)?;
        let base = mesh.vertices.len() as u32;
        for (k, p) in points.iter().enumerate() {
            let q = world.transform_point3(DVec3::new(p[0].into(), p[1].into(), p[2].into()));
            if !q.is_finite() {
                let msg = format!("position {k} is {p:?}, not finite (after the node transform)");
                return Err(Error::new(
                    path,
                    Location {
                        vertex: Some(k),
                        ..at
                    },
                    msg,
                ));
            }
            mesh.vertices.push(q.to_array());
            mesh.vertex_locations.push(Location {
                vertex: Some(k),
                ..at.clone()
            });
        }
        for t in triangles {
            if let Some(&bad) = t.iter().find(|&&i| i as usize >= points.len()) {
                return Err(fail(format!(
                    "index {bad} is past the {} positions",
                    points.len()
                )));
            }
            mesh.triangles.push(t.map(|i| base + i));
        }
    }
    Ok(())
}

/// Triangles of a primitive of `mode` drawing `order`.
fn assemble(mode: Mode, order: &[u32]) -> Result<Vec<[u32; 3]>, String> {
    Ok(match mode {
        Mode::Triangles => order.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect(),
        // Every second strip triangle is reversed to keep the winding.
        Mode::TriangleStrip => order
            .windows(3)
            .enumerate()
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
