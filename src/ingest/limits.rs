//! The budgets of a file ([`Limits`]): bytes, rows and cells, checked while it is read, and the
//! refusal of a file over them.

use std::io::Read;

use serde::{Deserialize, Serialize};

use super::UTF8_BOM;
use crate::error::{IngestError, Location};

/// The budgets of one input file, checked while it is read, so that a file too large for the
/// machine is refused with its name and the limit instead of the process or the browser tab
/// running out of memory. Set per run: `--max-bytes` / `--max-rows` on every subcommand, the
/// viewer's "Input limits" setting; the defaults are [`Limits::DEFAULT`].
///
/// `trec-eval`'s streaming readers hold one query's list at a time and are bounded by neither;
/// JSON Lines read as a stream ([`read_into`]) are counted against both as they are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Most bytes of a file read whole, after gzip is undone (a gzip bomb stops here).
    pub max_bytes: u64,
    /// Most rows of a file read whole: its lines, or for a JSON document (a file that is one
    /// JSON value over several lines, or one line holding an array or object) its objects.
    pub max_rows: u64,
}

impl Limits {
    /// 1 GiB and 2,000,000 rows in the browser, whose WebAssembly memory (4 GiB at most) holds
    /// the file, its text and what is read from it; 4 GiB and 5,000,000 rows natively. The
    /// heaviest reader (the outcome tables of `compare`) takes about 1.6 kB per row natively, so
    /// the native defaults fit in 8 GiB of memory; see `docs/formats.md` § Limits.
    #[cfg(target_arch = "wasm32")]
    pub const DEFAULT: Limits = Limits { max_bytes: 1 << 30, max_rows: 2_000_000 };
    #[cfg(not(target_arch = "wasm32"))]
    pub const DEFAULT: Limits = Limits { max_bytes: 4 << 30, max_rows: 5_000_000 };

    /// The largest budgets accepted: 64 GiB and a billion rows (beyond them a setting is a typo).
    pub const CEILING: Limits = Limits { max_bytes: 64 << 30, max_rows: 1_000_000_000 };

    /// Both budgets are at least 1 and at most [`Limits::CEILING`].
    pub fn validate(&self) -> Result<(), crate::error::Error> {
        use crate::error::Error;
        if !(1..=Self::CEILING.max_bytes).contains(&self.max_bytes) {
            return Err(Error::setting(
                "max_bytes",
                format!("must be 1 to {} bytes (64 GiB)", Self::CEILING.max_bytes),
            ));
        }
        if !(1..=Self::CEILING.max_rows).contains(&self.max_rows) {
            return Err(Error::setting("max_rows", format!("must be 1 to {} rows", Self::CEILING.max_rows)));
        }
        Ok(())
    }

    /// The refusal of `file`, which `what` more than `self.max_bytes` bytes.
    pub fn too_many_bytes(&self, file: &str, what: &str) -> IngestError {
        too_large(file, what, self.max_bytes)
    }

    /// The cells (rows × columns) of a table read whole: [`CELLS_PER_ROW`] per row of the row
    /// budget. A table's memory grows with its cells (about 400 bytes each natively in an
    /// outcome table), so a wide table under the row budget is bounded too.
    pub fn max_cells(&self) -> u64 {
        self.max_rows.saturating_mul(CELLS_PER_ROW)
    }

    /// Refuses a table past [`Self::max_cells`] at `at` (where the count was passed).
    pub fn check_cells(&self, at: impl FnOnce() -> Location, cells: u64) -> Result<(), IngestError> {
        if cells <= self.max_cells() {
            return Ok(());
        }
        Err(IngestError::new(
            at(),
            format!(
                "holds more than {} cells (rows × columns; {CELLS_PER_ROW} per row of the row budget), the most read \
                 from one table here: raise the row budget ({}) if the machine has the memory (about 400 bytes per \
                 cell natively in an outcome table), or split the file",
                self.max_cells(),
                crate::fields::mention("max_rows")
            ),
        ))
    }

    /// Checks the rows of `text` (see [`Limits::max_rows`]) against the budget: a file's whole
    /// text, or the start of it (a start over the budget is a whole over it, see
    /// [`rows_countable`]).
    pub fn check_rows(&self, file: &str, text: &[u8]) -> Result<(), IngestError> {
        let (rows, unit, line) = count_rows(text, self.max_rows);
        if rows > self.max_rows {
            return Err(self.too_many_rows(file, unit, Some(line)));
        }
        Ok(())
    }

    /// The refusal of `file`, which holds more than `self.max_rows` of `unit` (`rows (lines)`,
    /// `JSON objects`).
    /// `line` is the line of the first row past the budget, where known.
    pub fn too_many_rows(&self, file: &str, unit: &str, line: Option<usize>) -> IngestError {
        IngestError::new(
            line.map_or_else(|| Location::file(file), |l| Location::line(file, l)),
            format!(
                "holds more than {} {}, the most read from one file here: raise the budget ({}) if the machine \
                 has the memory (about 1.6 kB per row natively for outcome tables), or split the file",
                self.max_rows,
                unit,
                crate::fields::mention("max_rows")
            ),
        )
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// Whether `text` is one JSON document rather than lines of records: it starts with `[`, or
/// with `{` and its first line is not a whole JSON value (JSON Lines' first line is).
pub(super) fn is_json_document(text: &[u8]) -> bool {
    let t = without_bom(text).trim_ascii_start();
    match t.first() {
        Some(b'[') => true,
        Some(b'{') => {
            let first = t.split(|&b| b == b'\n').next().unwrap_or_default();
            serde_json::from_slice::<serde::de::IgnoredAny>(first).is_err()
        }
        _ => false,
    }
}

pub(super) fn without_bom(text: &[u8]) -> &[u8] {
    text.strip_prefix(UTF8_BOM).unwrap_or(text)
}

/// Whether the rows of the start of a text are rows of the whole: its kind ([`is_json_document`])
/// is known once its first line is whole (or it does not start with `{`). Then the rows of the
/// start are at most those of the whole, so a start over the budget is a whole over it.
pub(super) fn rows_countable(start: &[u8]) -> bool {
    let t = without_bom(start).trim_ascii_start();
    t.first() != Some(&b'{') || t.contains(&b'\n')
}

/// The rows of `text`, counting no further than just past `stop`, and what they are: its
/// non-blank lines, or for a JSON document its `{` bytes (one per object; a `{` inside a string
/// counts too, so the count errs on the side of more rows).
pub(super) fn count_rows(text: impl AsRef<[u8]>, stop: u64) -> (u64, &'static str, usize) {
    let text = text.as_ref();
    let json = is_json_document(text);
    let unit = if json { "JSON objects" } else { "rows (lines)" };
    let line_at = |offset: usize| memchr::memchr_iter(b'\n', &text[..offset.min(text.len())]).count() + 1;
    // memchr finds the separators a word at a time: this count runs over every file read.
    if json {
        let mut rows = 0u64;
        let mut last = 0;
        for at in memchr::memchr_iter(b'{', text) {
            rows += 1;
            last = at;
            if rows > stop {
                break;
            }
        }
        (rows, unit, line_at(last))
    } else {
        let (mut rows, mut line) = (0u64, 0usize);
        let mut start = 0;
        let ends = memchr::memchr_iter(b'\n', text).chain(std::iter::once(text.len()));
        for end in ends {
            line += 1;
            if text[start..end].iter().any(|b| !b.is_ascii_whitespace()) {
                rows += 1;
                if rows > stop {
                    break;
                }
            }
            start = (end + 1).min(text.len());
        }
        (rows, unit, line)
    }
}

/// Cells of a table per row of the row budget ([`Limits::max_cells`]): 25,000,000 natively
/// (about 10 GB as outcome tables), 10,000,000 in the viewer.
pub const CELLS_PER_ROW: u64 = 5;

/// Why a file read whole was refused: over its budgets ([`Limits`]), or for its content.
#[derive(Debug)]
pub(super) enum Refusal {
    Budget(IngestError),
    Content(IngestError),
}

impl From<Refusal> for IngestError {
    fn from(r: Refusal) -> Self {
        match r {
            Refusal::Budget(e) | Refusal::Content(e) => e,
        }
    }
}

/// The whole of `reader`, or `None` when it holds more than `max_bytes` (read no further than
/// one byte past them).
pub fn read_at_most(reader: impl Read, max_bytes: u64) -> std::io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::new();
    reader.take(max_bytes.saturating_add(1)).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= max_bytes).then_some(bytes))
}

/// The whole of a file's text from `reader`, refused past `max_bytes` (read no further than one
/// byte past them); a read error is located where the text breaks off ([`super::unreadable`]).
pub fn read_text_at_most(name: &str, reader: impl Read, max_bytes: u64) -> Result<Vec<u8>, IngestError> {
    let mut bytes = Vec::new();
    if let Err(e) = reader.take(max_bytes.saturating_add(1)).read_to_end(&mut bytes) {
        return Err(super::unreadable(name, &bytes, &e));
    }
    if bytes.len() as u64 > max_bytes {
        return Err(too_large(name, "holds", max_bytes));
    }
    Ok(bytes)
}

/// The refusal of a file over a byte budget ([`Limits::max_bytes`]).
pub fn too_large(name: &str, what: &str, limit: u64) -> IngestError {
    IngestError::new(
        Location::file(name),
        format!(
            "{what} more than {} bytes ({:.1} GiB), the largest file read here: raise the budget ({}) if the \
             machine has the memory, split the file, or evaluate TREC runs with trec-eval, which reads them line \
             by line",
            limit,
            limit as f64 / f64::from(1u32 << 30),
            crate::fields::mention("max_bytes")
        ),
    )
}
