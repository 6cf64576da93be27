//! Shapes from files, through `isect-io`: triangle meshes from OBJ, STL and glTF, and
//! polygons with holes from GeoJSON and WKT (the format by the file's extension). A
//! missing file is a `FileNotFoundError`; a file that cannot be read as shapes is a
//! `FileError` (a `ValueError`) naming the file, the position in it and what is wrong.

use isect::shape::TriMeshFlags;
use isect::{d2_f64 as d2, d3_f64 as d3};
use pyo3::create_exception;
use pyo3::exceptions::{PyFileNotFoundError, PyValueError};
use pyo3::prelude::*;
use std::path::PathBuf;

create_exception!(
    isect,
    FileError,
    PyValueError,
    "A file could not be read as shapes; the message names the file, the position in it and what is wrong."
);

/// A missing file, or the reader's error.
fn file_error(path: &std::path::Path, e: isect_io::Error) -> PyErr {
    if path.exists() {
        FileError::new_err(e.to_string())
    } else {
        PyFileNotFoundError::new_err(format!("{}: no such file", path.display()))
    }
}

/// The triangle mesh of an OBJ, STL or glTF file (every triangle of every object in
/// it), as a `TriMesh`; `solid=True` makes it a closed solid (checked, as `TriMesh`
/// checks it).
#[pyfunction]
#[pyo3(signature = (path, solid=false))]
pub fn load_mesh(py: Python<'_>, path: PathBuf, solid: bool) -> PyResult<Py<PyAny>> {
    let flags = if solid {
        TriMeshFlags::SOLID
    } else {
        TriMeshFlags::OPEN
    };
    let mesh = py
        .detach(|| isect_io::mesh::load_trimesh::<f64>(&path, flags))
        .map_err(|e| file_error(&path, e))?;
    crate::shape::wrap3(py, d3::AnyShape::from(mesh))
}

/// The polygons of a GeoJSON or WKT file (a multipolygon gives one per part; closing
/// vertices are dropped), as a list of `Polygon`.
#[pyfunction]
pub fn load_polygons(py: Python<'_>, path: PathBuf) -> PyResult<Vec<Py<PyAny>>> {
    let polygons = py
        .detach(|| isect_io::polygon::load_polygons::<f64>(&path))
        .map_err(|e| file_error(&path, e))?;
    polygons
        .into_iter()
        .map(|p| crate::shape::wrap2(py, d2::AnyShape::from(p)))
        .collect()
}

/// The file functions and `FileError`, for the module to register.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(load_mesh, m)?)?;
    m.add_function(wrap_pyfunction!(load_polygons, m)?)?;
    m.add("FileError", m.py().get_type::<FileError>())?;
    Ok(())
}
