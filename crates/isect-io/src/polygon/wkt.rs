//! WKT, read here so that every error has its line and column: one geometry a line
//! (blank lines skipped), each a POLYGON, a MULTIPOLYGON or a GEOMETRYCOLLECTION of
//! them (nested), keywords in any case, with an optional dimension tag (`Z`, `M`,
//! `ZM`, also written `POLYGONZ`: the third and fourth numbers are read and ignored;
//! untagged positions may have 2 to 4 numbers) and an optional EWKT `SRID=n;` prefix
//! (ignored). `EMPTY` geometries and members are skipped; an `EMPTY` ring is kept
//! (and refused by the polygon's constructor, naming the ring). Refused at their
//! line and column: text after the geometry on its line, a geometry that does not
//! end on its line, a number that is not finite (`NaN`, `inf`, `1e400`), a position
//! with too few or too many numbers, any other geometry type; a file that holds no
//! polygon.

use super::{no_polygon, PolygonData};
use crate::error::strip_bom;
use crate::error::{read_text, Error, Location};
use std::path::Path;

/// How deep geometry collections may nest (deeper ones are refused, not followed
/// down the stack).
const MAX_NESTING: usize = 32;

/// How much of a bad token a message quotes.
const QUOTE_CHARS: usize = 32;

/// Reads the WKT file at `path`.
///
/// # Errors
/// The file cannot be read, a line is not WKT, holds a geometry that is not a
/// polygon, a non-finite number, or text after its geometry (each naming the line
/// and column), or the file holds no polygon.
pub fn read_wkt(path: &Path) -> Result<Vec<PolygonData>, Error> {
    parse_wkt(&read_text(path)?, path)
}

/// Parses WKT `text`, one geometry a line (a leading byte order mark skipped); `path`
/// names it in the messages.
///
/// # Errors
/// As [`read_wkt`].
pub fn parse_wkt(text: &str, path: &Path) -> Result<Vec<PolygonData>, Error> {
    let mut out = Vec::new();
    let mut geometries = 0;
    for (i, line) in strip_bom(text).lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        geometries += 1;
        let mut reader = LineReader {
            path,
            line: i + 1,
            s: Scan {
                text: line,
                at: Cursor { byte: 0, column: 1 },
            },
            next_polygon: 0,
            out: &mut out,
        };
        reader.line()?;
    }
    if out.is_empty() {
        let why = match geometries {
            0 => "it is empty",
            _ => "its geometries are all EMPTY",
        };
        return Err(no_polygon(path, why));
    }
    Ok(out)
}

/// A place in a line: its byte offset and its column (from 1, in characters).
#[derive(Clone, Copy)]
struct Cursor {
    byte: usize,
    column: usize,
}

/// The geometry types this reader takes.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Polygon,
    MultiPolygon,
    Collection,
}

/// Where a position is, for the messages: polygon (of a multipolygon or collection),
/// ring, vertex.
#[derive(Clone, Copy)]
struct Place {
    polygon: Option<usize>,
    ring: usize,
    vertex: usize,
}

impl Place {
    /// `polygon p, ring r, vertex v`.
    fn name(self) -> String {
        let polygon = match self.polygon {
            Some(p) => format!("polygon {p}, "),
            None => String::new(),
        };
        format!("{polygon}ring {}, vertex {}", self.ring, self.vertex)
    }

    /// ` (polygon p, ring r, vertex v)`.
    fn describe(self) -> String {
        format!(" ({})", self.name())
    }
}

/// Reads the geometry of one line.
struct LineReader<'a> {
    path: &'a Path,
    line: usize,
    s: Scan<'a>,
    /// The number of the line's next polygon (counted through multipolygons and
    /// collections).
    next_polygon: usize,
    out: &'a mut Vec<PolygonData>,
}

/// The characters that end a word (besides white space).
fn is_punctuation(c: char) -> bool {
    matches!(c, '(' | ')' | ',' | ';' | '=')
}

impl LineReader<'_> {
    /// The line's geometry, with its optional `SRID=n;` prefix, and nothing after it.
    fn line(&mut self) -> Result<(), Error> {
        self.s.skip_space();
        let start = self.s.at;
        let word = self.s.word();
        if word.eq_ignore_ascii_case("SRID") && self.s.peek() == Some('=') {
            self.s.bump();
            let (column, srid) = (self.s.at.column, self.s.word());
            if srid.parse::<i64>().is_err() {
                let msg = format!("the SRID `{}` is not an integer", quote(srid));
                return Err(self.error_at(column, msg));
            }
            self.expect(';', || "after the SRID".to_string())?;
        } else {
            self.s.at = start;
        }
        self.geometry(0, false)?;
        self.s.skip_space();
        if self.s.peek().is_some() {
            let msg = format!(
                "text after the geometry: {} (a WKT file holds one geometry a line)",
                self.found()
            );
            return Err(self.error(msg));
        }
        Ok(())
    }

    /// One tagged geometry; `depth` is how many collections hold it, `member` whether
    /// one does (its polygons are then numbered).
    fn geometry(&mut self, depth: usize, member: bool) -> Result<(), Error> {
        self.s.skip_space();
        let column = self.s.at.column;
        let word = self.s.word();
        if word.is_empty() {
            let msg = format!(
                "expected a geometry type (POLYGON, MULTIPOLYGON, GEOMETRYCOLLECTION), found {}",
                self.found()
            );
            return Err(self.error(msg));
        }
        let (kind, base, tag) = match geometry_type(word) {
            Ok(Some(found)) => found,
            // Another type: said as the readers have said it, the column in words.
            Ok(None) => {
                let msg = format!(
                    "the geometry is not a POLYGON or MULTIPOLYGON (nor a GEOMETRYCOLLECTION \
                     of them): column {column} holds a {}",
                    word.to_ascii_uppercase()
                );
                return Err(Error::new(self.path, Location::line(self.line), msg));
            }
            Err(msg) => return Err(self.error_at(column, msg)),
        };
        // The tag as a separate word: `POLYGON Z`.
        let tag = match tag {
            Some(tag) => Some(tag),
            None => {
                self.s.skip_space();
                let before = self.s.at;
                let next = self.s.word().to_ascii_uppercase();
                match next.as_str() {
                    "Z" | "M" | "ZM" => Some(next),
                    _ => {
                        self.s.at = before;
                        None
                    }
                }
            }
        };
        // How many numbers a position has.
        let numbers = match tag.as_deref() {
            Some("ZM") => (4, 4),
            Some(_) => (3, 3),
            None => (2, 4),
        };
        let shape = Shape {
            name: format!("{base}{}", tag_suffix(tag.as_deref())),
            numbers,
        };
        if self.empty() {
            if kind == Kind::Polygon {
                self.next_polygon += 1;
            }
            return Ok(());
        }
        match kind {
            Kind::Polygon => {
                let number = member.then_some(self.next_polygon);
                self.next_polygon += 1;
                self.polygon(&shape, number)
            }
            Kind::MultiPolygon => {
                self.expect('(', || format!("after {}", shape.name))?;
                loop {
                    let k = self.next_polygon;
                    let number = Some(k);
                    self.next_polygon += 1;
                    if !self.empty() {
                        self.polygon(&shape, number)?;
                    }
                    if self.end_of_list(|| format!("after polygon {k}"))? {
                        return Ok(());
                    }
                }
            }
            Kind::Collection => {
                if depth >= MAX_NESTING {
                    let msg = format!("GEOMETRYCOLLECTIONs nested more than {MAX_NESTING} deep");
                    return Err(self.error_at(column, msg));
                }
                self.expect('(', || "after GEOMETRYCOLLECTION".to_string())?;
                let mut i = 0;
                loop {
                    self.geometry(depth + 1, true)?;
                    if self.end_of_list(|| format!("after member {i} of the GEOMETRYCOLLECTION"))? {
                        return Ok(());
                    }
                    i += 1;
                }
            }
        }
    }

    /// One polygon's rings, `( (x y, ...), ... )`, as polygon `number` of the line.
    fn polygon(&mut self, shape: &Shape, number: Option<usize>) -> Result<(), Error> {
        let mut place = Place {
            polygon: number,
            ring: 0,
            vertex: 0,
        };
        let within = match number {
            Some(p) => format!(" of polygon {p}"),
            None => String::new(),
        };
        self.expect('(', || format!("to open the rings{within}"))?;
        let mut rings = Vec::new();
        loop {
            place.vertex = 0;
            let mut ring = Vec::new();
            if !self.empty() {
                let ring_name = || format!("ring {}{within}", place.ring);
                self.expect('(', || format!("to open {}", ring_name()))?;
                loop {
                    ring.push(self.position(shape, place)?);
                    if self.end_of_list(|| {
                        format!("after vertex {} of {}", place.vertex, ring_name())
                    })? {
                        break;
                    }
                    place.vertex += 1;
                }
            }
            rings.push(ring);
            if self.end_of_list(|| format!("after ring {}{within}", place.ring))? {
                break;
            }
            place.ring += 1;
        }
        let at = Location {
            line: Some(self.line),
            polygon: number,
            ..Location::default()
        };
        self.out
            .push(PolygonData::from_rings(rings, at, self.path)?);
        Ok(())
    }

    /// One position: its x and y, the numbers after them read and dropped.
    fn position(&mut self, shape: &Shape, place: Place) -> Result<[f64; 2], Error> {
        self.s.skip_space();
        let start = self.s.at.column;
        let mut xy = [0.0; 2];
        let mut count = 0;
        loop {
            self.s.skip_space();
            match self.s.peek() {
                Some(c) if !is_punctuation(c) => {}
                _ => break,
            }
            let column = self.s.at.column;
            let word = self.s.word();
            let value = match word.parse::<f64>() {
                Ok(v) if v.is_finite() => v,
                Ok(_) => {
                    let msg = format!(
                        "`{}` is not a finite number{}",
                        quote(word),
                        place.describe()
                    );
                    return Err(self.error_at(column, msg));
                }
                Err(_) => {
                    let msg = format!("`{}` is not a number{}", quote(word), place.describe());
                    return Err(self.error_at(column, msg));
                }
            };
            if count < 2 {
                xy[count] = value;
            }
            count += 1;
        }
        if count == 0 {
            let msg = format!(
                "expected the x y of {}, found {}",
                place.name(),
                self.found()
            );
            return Err(self.error(msg));
        }
        let (least, most) = shape.numbers;
        if count < least || count > most {
            let needs = match shape.numbers {
                (2, 4) => "2 to 4 numbers (x y [z [m]])",
                (3, _) => "3 numbers (x y z, or x y m)",
                _ => "4 numbers (x y z m)",
            };
            let msg = format!(
                "a {} position has {needs}, this one has {count}{}",
                shape.name,
                place.describe()
            );
            return Err(self.error_at(start, msg));
        }
        Ok(xy)
    }

    /// Whether the next word is `EMPTY` (then read).
    fn empty(&mut self) -> bool {
        self.s.skip_space();
        let before = self.s.at;
        if self.s.word().eq_ignore_ascii_case("EMPTY") {
            return true;
        }
        self.s.at = before;
        false
    }

    /// After an element of a list: `,` (more follow: false) or `)` (the list ends:
    /// true); anything else is an error, `after` saying where.
    fn end_of_list(&mut self, after: impl FnOnce() -> String) -> Result<bool, Error> {
        self.s.skip_space();
        match self.s.peek() {
            Some(',') => {
                self.s.bump();
                Ok(false)
            }
            Some(')') => {
                self.s.bump();
                Ok(true)
            }
            _ => {
                let msg = format!("expected `,` or `)` {}, found {}", after(), self.found());
                Err(self.error(msg))
            }
        }
    }

    /// Reads `c`, or the error says what was found instead, `what` saying why `c`.
    fn expect(&mut self, c: char, what: impl FnOnce() -> String) -> Result<(), Error> {
        self.s.skip_space();
        if self.s.peek() == Some(c) {
            self.s.bump();
            return Ok(());
        }
        let msg = format!("expected `{c}` {}, found {}", what(), self.found());
        Err(self.error(msg))
    }

    /// What is at the cursor, for a message: the end of the line, a punctuation
    /// character, or a word.
    fn found(&self) -> String {
        let mut ahead = self.s;
        ahead.skip_space();
        match ahead.peek() {
            None => "the end of the line (a geometry must end on the line it starts)".into(),
            Some(c) if is_punctuation(c) => format!("`{c}`"),
            Some(_) => format!("`{}`", quote(ahead.word())),
        }
    }

    /// An error at the cursor's column.
    fn error(&self, message: String) -> Error {
        // At the next non-space character, where the problem is.
        let mut ahead = self.s;
        ahead.skip_space();
        self.error_at(ahead.at.column, message)
    }

    /// An error at `column` of the line. The column is in the message
    /// (`FILE:LINE: WKT: column C: ...`), the location holding the line only: the
    /// readers' WKT errors have kept the form `FILE:LINE: WKT: ...`.
    fn error_at(&self, column: usize, message: String) -> Error {
        let at = Location::line(self.line);
        Error::new(self.path, at, format!("WKT: column {column}: {message}"))
    }
}

/// A line and a place in it.
#[derive(Clone, Copy)]
struct Scan<'a> {
    text: &'a str,
    at: Cursor,
}

impl<'a> Scan<'a> {
    /// The next character.
    fn peek(&self) -> Option<char> {
        self.text[self.at.byte..].chars().next()
    }

    /// Moves past the next character.
    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.at.byte += c.len_utf8();
            self.at.column += 1;
        }
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    /// The word at the cursor (up to white space or punctuation; empty when there is
    /// none), read.
    fn word(&mut self) -> &'a str {
        let start = self.at.byte;
        while self
            .peek()
            .is_some_and(|c| !c.is_whitespace() && !is_punctuation(c))
        {
            self.bump();
        }
        &self.text[start..self.at.byte]
    }
}

/// A geometry type as the messages name it, and its positions' number count.
struct Shape {
    name: String,
    numbers: (usize, usize),
}

/// A type word read: the kind, its name, the tag written in it.
type TypeWord = (Kind, &'static str, Option<String>);

/// ` Z`, ` M`, ` ZM` or nothing.
fn tag_suffix(tag: Option<&str>) -> &'static str {
    match tag {
        Some("Z") => " Z",
        Some("M") => " M",
        Some("ZM") => " ZM",
        _ => "",
    }
}

/// The kind of the type word `word` (any case), its name, and the tag written in it
/// (`POLYGONZ`); `None` for another geometry type; the message refusing a word that
/// is no geometry type.
fn geometry_type(word: &str) -> Result<Option<TypeWord>, String> {
    let upper = word.to_ascii_uppercase();
    const TAKEN: [(&str, Kind); 3] = [
        ("GEOMETRYCOLLECTION", Kind::Collection),
        ("MULTIPOLYGON", Kind::MultiPolygon),
        ("POLYGON", Kind::Polygon),
    ];
    const OTHER: [&str; 12] = [
        "POINT",
        "MULTIPOINT",
        "LINESTRING",
        "MULTILINESTRING",
        "CIRCULARSTRING",
        "COMPOUNDCURVE",
        "CURVEPOLYGON",
        "MULTICURVE",
        "MULTISURFACE",
        "POLYHEDRALSURFACE",
        "TRIANGLE",
        "TIN",
    ];
    let tag_of = |base: &str| -> Option<Option<String>> {
        let rest = upper.strip_prefix(base)?;
        match rest {
            "" => Some(None),
            "Z" | "M" | "ZM" => Some(Some(rest.to_string())),
            _ => None,
        }
    };
    for (base, kind) in TAKEN {
        if let Some(tag) = tag_of(base) {
            return Ok(Some((kind, base, tag)));
        }
    }
    for base in OTHER {
        if tag_of(base).is_some() {
            return Ok(None);
        }
    }
    Err(format!(
        "`{}` is not a WKT geometry type (POLYGON, MULTIPOLYGON, GEOMETRYCOLLECTION)",
        quote(word)
    ))
}

/// `word`, cut to [`QUOTE_CHARS`] characters.
fn quote(word: &str) -> String {
    match word.char_indices().nth(QUOTE_CHARS) {
        Some((i, _)) => format!("{}…", &word[..i]),
        None => word.to_string(),
    }
}
