//! Scene files: the JSON format (described in the crate's README), parsed into
//! library shapes through their validating constructors, with every error turned
//! into one message `FILE:LINE:COLUMN: FIELD.PATH: what is wrong`.

mod raw;

use crate::error::CliError;
use crate::space::{Space, D2, D3};
use isect::shape::Ray;
use serde::de::DeserializeOwned;
use std::path::Path;

/// One shape of a scene, placed in the world.
pub struct SceneShape<Sp: Space> {
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
pub struct SceneRay<Sp: Space> {
    /// Origin and direction.
    pub ray: Ray<Sp::V>,
    /// The longest `t` looked at (`f64::INFINITY` when the file gives none).
    pub max_t: f64,
}

/// A parsed scene of one dimension.
pub struct Scene<Sp: Space> {
    /// The shapes, in file order.
    pub shapes: Vec<SceneShape<Sp>>,
    /// The rays, in file order.
    pub rays: Vec<SceneRay<Sp>>,
}

/// A scene of either dimension.
pub enum AnyScene {
    /// `"dim": 2`.
    D2(Scene<D2>),
    /// `"dim": 3`.
    D3(Scene<D3>),
}

/// Reads and parses the scene file at `path`.
///
/// # Errors
/// A [`CliError`] with exit code 2: the file cannot be read, or one message
/// `FILE:LINE:COLUMN: FIELD.PATH: what is wrong` for the first bad value.
pub fn load(path: &Path) -> Result<AnyScene, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("{}: cannot read: {e}", path.display())))?;
    parse(&text, &path.display().to_string())
}

/// Parses scene `text`; `name` prefixes the messages.
///
/// # Errors
/// As [`load`].
pub fn parse(text: &str, name: &str) -> Result<AnyScene, CliError> {
    let header: raw::Header = from_str(text, name)?;
    match u8::from(header.dim) {
        2 => Ok(AnyScene::D2(from_str::<raw::Scene2>(text, name)?.into())),
        3 => Ok(AnyScene::D3(from_str::<raw::Scene3>(text, name)?.into())),
        // `raw::Header` only accepts 2 and 3.
        d => Err(CliError::input(format!("{name}: dim {d} is not 2 or 3"))),
    }
}

/// Deserializes `text` as `T`, the first error as one located message.
fn from_str<T: DeserializeOwned>(text: &str, name: &str) -> Result<T, CliError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| located(name, e))?;
    de.end().map_err(|e| {
        CliError::input(format!(
            "{name}:{}:{}: (top level): {}",
            e.line(),
            e.column(),
            bare_message(&e)
        ))
    })?;
    Ok(value)
}

/// `FILE:LINE:COLUMN: FIELD.PATH: message` for a deserialization error.
fn located(name: &str, e: serde_path_to_error::Error<serde_json::Error>) -> CliError {
    let path = e.path().to_string();
    let path = if path == "." {
        "(top level)".to_string()
    } else {
        path
    };
    let inner = e.inner();
    CliError::input(format!(
        "{name}:{}:{}: {path}: {}",
        inner.line(),
        inner.column(),
        bare_message(inner)
    ))
}

/// serde_json's message without its trailing " at line L column C".
fn bare_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    full.strip_suffix(&suffix).unwrap_or(&full).to_string()
}
