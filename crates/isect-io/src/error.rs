//! [`Error`]: what went wrong reading a file, where (the file, and the line, feature,
//! ring or vertex as the format has them) and why, in one message.

use std::fmt;
use std::path::{Path, PathBuf};

/// Where in a file a problem is. Every field is optional: a reader fills what its
/// format has (a line for OBJ and WKT, a feature, polygon, ring and vertex for
/// GeoJSON, a node, mesh and primitive for glTF). Indices count from 0; lines and columns
/// from 1, as editors show them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Location {
    /// Line of the text, from 1.
    pub line: Option<usize>,
    /// Column of the line, from 1.
    pub column: Option<usize>,
    /// GeoJSON feature (or top-level geometry) index.
    pub feature: Option<usize>,
    /// Polygon of a multipolygon (or of a geometry collection).
    pub polygon: Option<usize>,
    /// Ring of a polygon: 0 is the exterior, 1.. the holes.
    pub ring: Option<usize>,
    /// Vertex of a ring or mesh.
    pub vertex: Option<usize>,
    /// Triangle of a mesh (STL facet, glTF triangle of its primitive).
    pub triangle: Option<usize>,
    /// glTF node (that places the mesh, or whose hierarchy is malformed).
    pub node: Option<usize>,
    /// glTF mesh index.
    pub mesh: Option<usize>,
    /// glTF primitive of the mesh.
    pub primitive: Option<usize>,
}

impl Location {
    /// Line `line` (from 1).
    pub fn line(line: usize) -> Self {
        Self {
            line: Some(line),
            ..Self::default()
        }
    }

    /// Whether no field is set.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fields = [
            ("line", self.line),
            ("column", self.column),
            ("feature", self.feature),
            ("node", self.node),
            ("mesh", self.mesh),
            ("primitive", self.primitive),
            ("polygon", self.polygon),
            ("ring", self.ring),
            ("triangle", self.triangle),
            ("vertex", self.vertex),
        ];
        let parts: Vec<String> = fields
            .iter()
            .filter_map(|(name, v)| v.map(|v| format!("{name} {v}")))
            .collect();
        f.write_str(&parts.join(", "))
    }
}

/// A file that could not be read or does not hold a valid shape: the file, the
/// location in it, and a message (for a refused shape, the library's
/// [`ShapeError`](isect::ShapeError) message). Displays as `FILE: LOCATION: MESSAGE`.
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    /// The file (as given to the reader, or a name for text read from memory).
    pub path: PathBuf,
    /// Where in the file (boxed: the error stays small to move around).
    pub location: Box<Location>,
    /// What is wrong.
    pub message: String,
}

impl Error {
    /// An error in `path` at `location`.
    pub fn new(path: impl AsRef<Path>, location: Location, message: impl Into<String>) -> Self {
        Self {
            path: path.as_ref().to_path_buf(),
            location: Box::new(location),
            message: message.into(),
        }
    }

    /// An error about the whole file (cannot be read, unknown format).
    pub fn file(path: impl AsRef<Path>, message: impl Into<String>) -> Self {
        Self::new(path, Location::default(), message)
    }
}

/// `FILE:LINE[:COLUMN]: MESSAGE` for a position in the text (the form compilers
/// use, which editors link), `FILE: LOCATION: MESSAGE` for a structural one (feature,
/// ring, vertex), `FILE: MESSAGE` for the whole file.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at: &Location = &self.location;
        let text_only = Location {
            line: at.line,
            column: at.column,
            ..Location::default()
        };
        match (at.line, at.column) {
            (Some(line), column) if *at == text_only => {
                write!(f, "{}:{line}", self.path.display())?;
                if let Some(column) = column {
                    write!(f, ":{column}")?;
                }
            }
            _ if at.is_empty() => write!(f, "{}", self.path.display())?,
            _ => write!(f, "{}: {at}", self.path.display())?,
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for Error {}

/// The file's bytes, or an error naming it.
pub(crate) fn read_bytes(path: &Path) -> Result<Vec<u8>, Error> {
    std::fs::read(path).map_err(|e| Error::file(path, format!("cannot read: {e}")))
}

/// `text` without a leading UTF-8 byte order mark (some Windows editors write one; no
/// format read here has one in its grammar). Every text parser starts here, so
/// lines and columns count from the first character after it, as editors show them.
pub(crate) fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The file's text, or an error naming it (also for text that is not UTF-8).
pub(crate) fn read_text(path: &Path) -> Result<String, Error> {
    let bytes = read_bytes(path)?;
    String::from_utf8(bytes).map_err(|e| {
        Error::file(
            path,
            format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        )
    })
}
