//! Delimited text (CSV, TSV, semicolons) read whole into a header and trimmed records: the
//! delimiter picked from the header line, each record with the line it starts on (counted from
//! byte offsets: CR, CRLF, LF, BOM and quoted newlines alike), duplicate and empty column names
//! refused, the cells counted against the file's [`Limits`].

use std::collections::HashSet;

use crate::error::{IngestError, Location};
use crate::ingest::Limits;

/// A parsed CSV: trimmed header names and records with their 1-based line.
pub struct CsvData {
    pub headers: Vec<String>,
    pub records: Vec<(usize, Vec<String>)>,
}

/// Picks the delimiter from the header line: `,` unless the header has none and has tabs
/// (TSV) or semicolons.
fn delimiter(text: &str) -> u8 {
    let header = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    if header.contains(',') {
        b','
    } else if header.contains('\t') {
        b'\t'
    } else if header.contains(';') {
        b';'
    } else {
        b','
    }
}

/// Line numbers from byte offsets: the csv crate counts a CRLF file's lines one too early, so the
/// line of a record is the number of `\n` before its first byte, plus one (quoted newlines,
/// CR, CRLF and LF files alike).
struct Lines<'a> {
    text: &'a [u8],
    /// Offset counted up to, and the line there.
    at: usize,
    line: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        Lines { text: text.as_bytes(), at: 0, line: 1 }
    }

    /// The line of byte `offset` (offsets asked in increasing order are counted once). A record
    /// of a CRLF file starts, for the csv crate, at the `\n` of the line end before it: line-end
    /// bytes at `offset` are stepped over first.
    fn of(&mut self, offset: usize) -> usize {
        let mut offset = offset.min(self.text.len());
        while offset < self.text.len() && matches!(self.text[offset], b'\r' | b'\n') {
            offset += 1;
        }
        if offset < self.at {
            return 1 + memchr::memchr_iter(b'\n', &self.text[..offset]).count();
        }
        self.line += memchr::memchr_iter(b'\n', &self.text[self.at..offset]).count();
        self.at = offset;
        self.line
    }
}

fn csv_error(name: &str, e: &csv::Error, lines: &mut Lines<'_>) -> IngestError {
    let line = e.position().map_or(1, |p| lines.of(p.byte() as usize)).max(1);
    let message = match e.kind() {
        csv::ErrorKind::Utf8 { .. } => "not UTF-8 text".to_string(),
        _ => format!("not valid CSV: {e}"),
    };
    IngestError::new(Location::line(name, line), message)
}

/// Parses a CSV text with a header row. Every record must have as many fields as the header;
/// past the cell budget (header included) the text is refused ([`Limits::max_cells`]).
pub fn parse(name: &str, text: &str, limits: Limits) -> Result<CsvData, IngestError> {
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter(text))
        .has_headers(true)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut lines = Lines::new(text);
    let raw_headers = reader.headers().map_err(|e| csv_error(name, &e, &mut lines))?.clone();
    let header_line = raw_headers.position().map_or(1, |p| lines.of(p.byte() as usize)).max(1);
    let headers: Vec<String> = raw_headers.iter().map(|h| h.trim().to_string()).collect();
    let mut seen = HashSet::new();
    for (i, h) in headers.iter().enumerate() {
        if h.is_empty() {
            return Err(IngestError::new(
                Location::line(name, header_line).with_field(format!("column {}", i + 1)),
                "empty column name in the header row",
            ));
        }
        if !seen.insert(h.as_str()) {
            return Err(IngestError::new(
                Location::line(name, header_line).with_field(h.clone()),
                format!("column `{h}` appears twice in the header row"),
            ));
        }
    }
    if headers.len() < 2 {
        return Err(IngestError::new(
            Location::line(name, header_line),
            format!(
                "only one column (`{}`): this CSV needs a header row with at least an item \
                 column and a value column, separated by commas",
                headers.first().map_or("", String::as_str)
            ),
        ));
    }
    limits.check_cells(|| Location::line(name, header_line), headers.len() as u64)?;
    let mut cells = headers.len() as u64;
    let mut records = Vec::new();
    for rec in reader.records() {
        let rec = rec.map_err(|e| csv_error(name, &e, &mut lines))?;
        let line = rec.position().map_or(1, |p| lines.of(p.byte() as usize)).max(1);
        cells += rec.len() as u64;
        limits.check_cells(|| Location::line(name, line), cells)?;
        // A line with nothing but blanks carries no data (like a blank JSONL line).
        if rec.len() == 1 && rec.get(0).is_some_and(|c| c.trim().is_empty()) {
            continue;
        }
        if rec.len() != headers.len() {
            let (field, message) = if rec.len() < headers.len() {
                (
                    headers[rec.len()].clone(),
                    format!(
                        "the row has {} fields but the header has {}: no cell for `{}`",
                        rec.len(),
                        headers.len(),
                        headers[rec.len()]
                    ),
                )
            } else {
                (
                    format!("column {}", headers.len() + 1),
                    format!("the row has {} fields but the header has {}", rec.len(), headers.len()),
                )
            };
            return Err(IngestError::new(Location::line(name, line).with_field(field), message));
        }
        records.push((line, rec.iter().map(|c| c.trim().to_string()).collect()));
    }
    Ok(CsvData { headers, records })
}
