//! `isect` for Python: the native module `isect._isect`, re-exported by the package
//! `isect` (`python/isect/__init__.py`). Every class and function is written once over
//! the dimension ([`dim::Dim`]); 3D classes are `Shape` and its kinds, 2D classes end
//! in `2d` or have 2D names (`Circle`, `Polygon`). All arithmetic is `f64`.
//!
//! Errors: a bad shape or value is a `ValueError` carrying the library's message, a
//! wrong type, array shape or dtype a `TypeError`, a world's refusal a `WorldError`
//! (a `ValueError`), a file that cannot be read as shapes a `FileError` (a `ValueError`).
//! A NaN or infinite pose, point or ray is not an error: the queries answer
//! it with the library's documented miss, row by row in the batch functions.

mod batch;
mod character;
mod convert;
mod dim;
mod files;
mod pose;
mod query;
mod results;
mod shape;
mod world;

use pyo3::prelude::*;

#[pymodule]
fn _isect(m: &Bound<'_, PyModule>) -> PyResult<()> {
    shape::register(m)?;
    pose::register(m)?;
    results::register(m)?;
    query::register(m)?;
    batch::register(m)?;
    world::register(m)?;
    character::register(m)?;
    files::register(m)?;
    Ok(())
}
