//! Scene files, read by [`isect_io::scene`] (the library users' scene reader too);
//! its errors become bad-input errors of the command.

use crate::error::CliError;
pub use isect_io::scene::{AnyScene, Scene};
use std::path::Path;

/// Reads and parses the scene file at `path` (files it references are relative to
/// its folder).
///
/// # Errors
/// A [`CliError`] with exit code 2: the file cannot be read, or one message
/// `FILE:LINE:COLUMN: FIELD.PATH: what is wrong` for the first bad value.
pub fn load(path: &Path) -> Result<AnyScene, CliError> {
    isect_io::scene::load(path).map_err(|e| CliError::input(e.to_string()))
}
