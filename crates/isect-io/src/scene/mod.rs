//! Scene files: the JSON format of the `isect` command (described in its README),
//! parsed into library shapes through their validating constructors, with every
//! error turned into one message `FILE:LINE:COLUMN: FIELD.PATH: what is wrong`.
//!
//! A shape entry may reference a file instead of listing its data: in 3D
//! `{"type": "mesh_file", "path": "bunny.obj", "solid": true}` (OBJ, STL, glTF, as
//! [`crate::mesh::read_mesh`] reads them), in 2D `{"type": "polygon_file", "path":
//! "lake.geojson", "index": 0}` (GeoJSON or WKT, as [`crate::polygon::read_polygons`];
//! `index` picks one polygon of a file that holds several). The path is relative to
//! the scene file's folder; an error in the referenced file is reported at the
//! entry, with the referenced file's own message.

mod raw;

pub use raw::within_limit;

use crate::error::{Error, Location};
use glam::{DVec2, DVec3};
use isect::algo::gjk::GjkVector;
use isect::math::{Isometry, Pose2, Pose3};
use isect::query::dispatch::DispatchShape;
use isect::shape::{shape_2d, shape_3d, Ray};
use serde::de::DeserializeOwned;
use std::cell::RefCell;
use std::path::{Path, PathBuf};

/// A dimension of scenes: its vector, pose and shape types (all in `f64`).
pub trait SceneSpace: 'static {
    /// The vector type (`DVec2` or `DVec3`).
    type V: GjkVector<Scalar = f64, Pose = Self::Pose>;
    /// The pose type.
    type Pose: Isometry<Self::V>;
    /// The shape enum: any shape of the dimension, convex or composite.
    type S: DispatchShape<Self::V> + Clone + Sync;
    /// 2 or 3.
    const DIM: usize;
}

/// The plane.
pub struct D2;
/// Space.
pub struct D3;

impl SceneSpace for D2 {
    type V = DVec2;
    type Pose = Pose2<f64>;
    type S = shape_2d::AnyShape<f64>;
    const DIM: usize = 2;
}

impl SceneSpace for D3 {
    type V = DVec3;
    type Pose = Pose3<f64>;
    type S = shape_3d::AnyShape<f64>;
    const DIM: usize = 3;
}

thread_local! {
    /// The folder that file references of the scene being parsed are relative to.
    static BASE_DIR: RefCell<PathBuf> = RefCell::new(PathBuf::from("."));
    /// The files the scene being parsed references, in the order it names them.
    static REFERENCED: RefCell<Vec<PathBuf>> = const { RefCell::new(Vec::new()) };
}

/// `path` relative to the folder of the scene being parsed (noted as one of the
/// files the scene reads).
fn referenced(path: &str) -> PathBuf {
    let file = BASE_DIR.with(|b| b.borrow().join(path));
    REFERENCED.with(|r| r.borrow_mut().push(file.clone()));
    file
}

/// One shape of a scene, placed in the world.
pub struct SceneShape<Sp: SceneSpace> {
    /// Its id (from the file, or its index in the list when the file gives none).
    pub id: String,
    /// The shape, in its local frame.
    pub shape: Sp::S,
    /// Where it is.
    pub pose: Sp::Pose,
    /// Its velocity (per unit time), if the file gives one.
    pub velocity: Option<Sp::V>,
}

/// One ray of a scene.
pub struct SceneRay<Sp: SceneSpace> {
    /// Origin and direction.
    pub ray: Ray<Sp::V>,
    /// The longest `t` looked at (`f64::INFINITY` when the file gives none).
    pub max_t: f64,
}

/// A parsed scene of one dimension.
pub struct Scene<Sp: SceneSpace> {
    /// The shapes, in file order.
    pub shapes: Vec<SceneShape<Sp>>,
    /// The rays, in file order.
    pub rays: Vec<SceneRay<Sp>>,
    /// The files its entries reference (`mesh_file`, `polygon_file`), in the order
    /// they are named, as opened (relative to the scene's folder): the scene's inputs
    /// besides the scene file itself.
    pub files: Vec<PathBuf>,
}

/// A scene of either dimension.
pub enum AnyScene {
    /// `"dim": 2`.
    D2(Scene<D2>),
    /// `"dim": 3`.
    D3(Scene<D3>),
}

/// Reads and parses the scene file at `path`; files it references are relative to
/// its folder.
///
/// # Errors
/// The file cannot be read, or one message `FILE:LINE:COLUMN: FIELD.PATH: what is
/// wrong` for the first bad value (see [`Error`]).
pub fn load(path: &Path) -> Result<AnyScene, Error> {
    let text = crate::error::read_text(path)?;
    let base = path.parent().unwrap_or(Path::new("."));
    parse(&text, &path.display().to_string(), base)
}

/// Parses scene `text`; `name` prefixes the messages and files it references are
/// relative to `base_dir`.
///
/// # Errors
/// As [`load`].
pub fn parse(text: &str, name: &str, base_dir: &Path) -> Result<AnyScene, Error> {
    let previous = BASE_DIR.with(|b| b.replace(base_dir.to_path_buf()));
    let outer = REFERENCED.with(|r| r.take());
    let text = crate::error::strip_bom(text);
    let scene = parse_here(text, name);
    let files = REFERENCED.with(|r| r.replace(outer));
    BASE_DIR.with(|b| *b.borrow_mut() = previous);
    scene.map(|mut scene| {
        match &mut scene {
            AnyScene::D2(s) => s.files = files,
            AnyScene::D3(s) => s.files = files,
        }
        scene
    })
}

/// [`parse`] once the base folder is set.
fn parse_here(text: &str, name: &str) -> Result<AnyScene, Error> {
    let header: raw::Header = from_str(text, name)?;
    // The first pass read no file; the second names each once.
    REFERENCED.with(|r| r.borrow_mut().clear());
    match u8::from(header.dim) {
        2 => Ok(AnyScene::D2(from_str::<raw::Scene2>(text, name)?.into())),
        3 => Ok(AnyScene::D3(from_str::<raw::Scene3>(text, name)?.into())),
        // `raw::Header` only accepts 2 and 3.
        d => Err(Error::file(name, format!("dim {d} is not 2 or 3"))),
    }
}

/// An error at serde_json's `line`:`column` of the scene `text` called `name`.
fn at(text: &str, name: &str, line: usize, column: usize, message: String) -> Error {
    let location = Location {
        line: Some(line),
        column: Some(char_column(text, line, column)),
        ..Location::default()
    };
    Error::new(name, location, message)
}

/// serde_json's `column` (bytes of line `line` read, 0 at the start of a line: an
/// end of file just after a newline) as editors count it: characters, from 1.
fn char_column(text: &str, line: usize, column: usize) -> usize {
    let Some(row) = text.split('\n').nth(line.saturating_sub(1)) else {
        return column.max(1);
    };
    // The character that holds byte `column - 1` of the row is the one read last.
    let end = column.min(row.len());
    let chars = row.char_indices().take_while(|&(i, _)| i < end).count();
    chars.max(1)
}

/// Deserializes `text` as `T`, the first error as one located message.
fn from_str<T: DeserializeOwned>(text: &str, name: &str) -> Result<T, Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| located(text, name, e))?;
    de.end().map_err(|e| {
        let msg = format!("(top level): {}", bare_message(&e));
        at(text, name, e.line(), e.column(), msg)
    })?;
    Ok(value)
}

/// `FILE:LINE:COLUMN: FIELD.PATH: message` for a deserialization error.
fn located(text: &str, name: &str, e: serde_path_to_error::Error<serde_json::Error>) -> Error {
    let path = e.path().to_string();
    let path = if path == "." {
        "(top level)".to_string()
    } else {
        path
    };
    let inner = e.inner();
    let msg = format!("{path}: {}", bare_message(inner));
    at(text, name, inner.line(), inner.column(), msg)
}

/// serde_json's message without its trailing " at line L column C".
fn bare_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    full.strip_suffix(&suffix).unwrap_or(&full).to_string()
}
