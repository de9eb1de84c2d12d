//! Reading user files: format detection by content, gzip, and the readers for every supported
//! format (see `docs/formats.md`). Readers return records as [`crate::model::Bundle`] pieces
//! plus counted [`Warnings`]; a malformed record is an [`IngestError`] naming the file, line and
//! field. Nothing here panics on user input.

pub mod archive;
pub mod bundle;
pub mod delimited;
pub mod digest;
pub mod json;
pub mod locomo;
pub mod longmemeval;
pub mod records;
pub mod sniff;
mod source;
pub mod table;
pub mod trec;
pub mod trec_eval_files;
pub mod warnings;

use std::borrow::Cow;
use std::io::Read;

use serde::{Deserialize, Serialize};

use crate::error::{IngestError, Location};
use crate::model::Bundle;
#[cfg(not(target_arch = "wasm32"))]
pub use source::PathSource;
pub use source::{ByteSource, ChunkedSource, SharedSource, SourceBounds, share};
pub use warnings::{Severity, Warning, WarningKind, Warnings};

#[derive(Clone)]
enum Content {
    Held(Vec<u8>),
    Source(SharedSource),
}

/// One user file: its bytes held in memory (the browser's dropped files, the CLI's inputs), or a
/// [`ByteSource`] read on demand by the readers that stream.
#[derive(Clone)]
pub struct InputFile {
    pub name: String,
    content: Content,
    limits: Limits,
    /// Its SHA-256, when the caller computed it from the same bytes (see [`InputFile::with_sha256`]).
    sha256: Option<String>,
    /// Where a streamed file's SHA-256 is left by the first reader that reads it to its end,
    /// when it is hashed while read (see [`InputFile::hashed_while_read`]); shared by its copies.
    read_digest: Option<std::sync::Arc<ReadDigest>>,
}

/// The SHA-256 of a streamed file as its readers read it ([`InputFile::hashed_while_read`]).
#[derive(Default)]
struct ReadDigest {
    /// Left by the first reader that reads the file to its end.
    hex: std::sync::OnceLock<String>,
    /// Natively, the helper threads hashing what the readers read, each with whether its reader
    /// reached the end (then joining it gives `hex` at once; otherwise it is not waited for).
    #[cfg(not(target_arch = "wasm32"))]
    helpers: std::sync::Mutex<Vec<(std::sync::Arc<std::sync::atomic::AtomicBool>, std::thread::JoinHandle<()>)>>,
}

impl ReadDigest {
    /// The digest, once a reader read the file to its end (natively after its helper is done).
    fn get(&self) -> Option<String> {
        #[cfg(not(target_arch = "wasm32"))]
        {
            use std::sync::atomic::Ordering;
            let mut helpers = self.helpers.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let (ended, running): (Vec<_>, Vec<_>) = helpers.drain(..).partition(|(e, _)| e.load(Ordering::Acquire));
            *helpers = running;
            drop(helpers);
            for (_, h) in ended {
                let _ = h.join();
            }
        }
        self.hex.get().cloned()
    }
}

impl std::fmt::Debug for InputFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let how = match self.content {
            Content::Held(_) => "held",
            Content::Source(_) => "streamed",
        };
        f.debug_struct("InputFile")
            .field("name", &self.name)
            .field("bytes", &self.len())
            .field("content", &how)
            .field("limits", &self.limits)
            .finish()
    }
}

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
fn is_json_document(text: &[u8]) -> bool {
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

fn without_bom(text: &[u8]) -> &[u8] {
    text.strip_prefix(UTF8_BOM).unwrap_or(text)
}

/// Whether the rows of the start of a text are rows of the whole: its kind ([`is_json_document`])
/// is known once its first line is whole (or it does not start with `{`). Then the rows of the
/// start are at most those of the whole, so a start over the budget is a whole over it.
fn rows_countable(start: &[u8]) -> bool {
    let t = without_bom(start).trim_ascii_start();
    t.first() != Some(&b'{') || t.contains(&b'\n')
}

/// The rows of `text`, counting no further than just past `stop`, and what they are: its
/// non-blank lines, or for a JSON document its `{` bytes (one per object; a `{` inside a string
/// counts too, so the count errs on the side of more rows).
fn count_rows(text: impl AsRef<[u8]>, stop: u64) -> (u64, &'static str, usize) {
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
enum Refusal {
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

/// Decompressed bytes a streamed file's format is detected from.
pub const HEAD_BYTES: usize = 64 * 1024;

impl InputFile {
    pub fn new(name: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Self {
        InputFile::with_content(name, Content::Held(bytes.into()))
    }

    /// A file read from `source` each time it is read.
    pub fn streamed(name: impl Into<String>, source: SharedSource) -> Self {
        InputFile::with_content(name, Content::Source(source))
    }

    fn with_content(name: impl Into<String>, content: Content) -> Self {
        InputFile { name: name.into(), content, limits: Limits::DEFAULT, sha256: None, read_digest: None }
    }

    /// The same streamed file, hashed by the first of its readers that reads it to its end, so
    /// that [`InputFile::sha256`] need not read it again: the CLI's streamed files (natively on
    /// a helper thread fed what the reader reads, so the file is read once and the reading does
    /// not wait) and the viewer's worker (in line: it reads a browser `File` again only by
    /// copying it again).
    pub fn hashed_while_read(mut self) -> Self {
        if matches!(self.content, Content::Source(_)) {
            self.read_digest = Some(std::sync::Arc::new(ReadDigest::default()));
        }
        self
    }

    /// Whether its SHA-256 is computed from the bytes its readers read ([`Self::hashed_while_read`]).
    pub fn hashes_while_read(&self) -> bool {
        self.read_digest.is_some()
    }

    /// The same file with its SHA-256 (lower-case hex) already computed by the caller from the
    /// very bytes it holds: the viewer's worker has the browser's native `crypto.subtle.digest`
    /// hash each file on another thread while it reads the next one, instead of hashing in
    /// WebAssembly on its only thread (BENCHMARKS.md, "Hashing beside the reading").
    /// [`InputFile::sha256`] then returns it as given.
    pub fn with_sha256(mut self, hex: String) -> Self {
        self.sha256 = Some(hex);
        self
    }

    /// The same file under other budgets.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Its budgets.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The refusal of a file read whole that is over its budgets, if it is (never for a streamed
    /// file: `trec-eval`'s readers hold one query at a time, and the line-by-line readers of
    /// [`read_into`] count its budgets as they read it).
    pub fn over_budget(&self) -> Option<IngestError> {
        match (&self.content, self.budgeted_text()) {
            (Content::Held(_), Err(Refusal::Budget(e))) => Some(e),
            _ => None,
        }
    }

    /// Refused when its stored size is over the byte budget.
    fn check_stored_size(&self) -> Result<(), IngestError> {
        if self.len() as u64 > self.limits.max_bytes {
            return Err(self.limits.too_many_bytes(&self.name, "holds"));
        }
        Ok(())
    }

    /// Its size in bytes as stored.
    pub fn len(&self) -> usize {
        match &self.content {
            Content::Held(b) => b.len(),
            Content::Source(s) => usize::try_from(s.len()).unwrap_or(usize::MAX),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn read_error(&self, e: std::io::Error) -> IngestError {
        IngestError::new(Location::file(&self.name), format!("could not be read: {e}"))
    }

    /// Its bytes as stored (a streamed file is read whole: readers that can, stream instead).
    pub fn bytes(&self) -> Result<Cow<'_, [u8]>, IngestError> {
        self.check_stored_size()?;
        match &self.content {
            Content::Held(b) => Ok(Cow::Borrowed(b)),
            Content::Source(s) => {
                let mut out = Vec::with_capacity(usize::try_from(s.len()).unwrap_or(0).min(1 << 30));
                s.open().and_then(|mut r| r.read_to_end(&mut out)).map_err(|e| self.read_error(e))?;
                Ok(Cow::Owned(out))
            }
        }
    }

    /// Its text: gzip undone, UTF-8 checked, a BOM dropped; and whether it was gzip.
    /// Its budgets ([`Limits`]) are checked here: the bytes before and after gzip, then the rows.
    pub fn text(&self) -> Result<(Cow<'_, str>, bool), IngestError> {
        Ok(self.budgeted_text()?)
    }

    /// [`Self::text`], telling a refusal for the budgets from one for the content.
    fn budgeted_text(&self) -> Result<(Cow<'_, str>, bool), Refusal> {
        self.check_stored_size().map_err(Refusal::Budget)?;
        let (text, gzip) = match &self.content {
            Content::Held(b) => decode_refusing(&self.name, b, self.limits)?,
            Content::Source(_) => {
                let bytes = self.bytes().map_err(Refusal::Content)?.into_owned();
                if bytes.starts_with(&[0x1f, 0x8b]) {
                    // Inflated into a text of its own: `into_owned` moves it.
                    let (text, gzip) = decode_refusing(&self.name, &bytes, self.limits)?;
                    (Cow::Owned(text.into_owned()), gzip)
                } else {
                    // The bytes read become the text, without a copy.
                    let mut text = String::from_utf8(bytes).map_err(|e| {
                        let err = e.utf8_error();
                        Refusal::Content(utf8_error(&self.name, e.as_bytes(), err))
                    })?;
                    if text.starts_with('\u{feff}') {
                        text.drain(..'\u{feff}'.len_utf8());
                    }
                    (Cow::Owned(text), false)
                }
            }
        };
        self.limits.check_rows(&self.name, text.as_bytes()).map_err(Refusal::Budget)?;
        Ok((text, gzip))
    }

    /// The start of its text, for detection: the whole text when it is held as plain text, else
    /// about [`HEAD_BYTES`] of it, cut after the last whole line.
    pub fn head_text(&self) -> Result<Cow<'_, str>, IngestError> {
        if let Content::Held(b) = &self.content
            && !b.starts_with(&[0x1f, 0x8b])
        {
            return Ok(decode_within(&self.name, b, self.limits.max_bytes)?.0);
        }
        let mut head = Vec::with_capacity(HEAD_BYTES);
        let (reader, _) = self.reader()?;
        reader.take(HEAD_BYTES as u64).read_to_end(&mut head).map_err(|e| self.read_error(e))?;
        if head.len() == HEAD_BYTES
            && let Some(end) = head.iter().rposition(|&b| b == b'\n')
        {
            head.truncate(end + 1);
        }
        let head = match String::from_utf8(head) {
            Ok(s) => s,
            Err(e) => {
                let err = e.utf8_error();
                // A character cut by the limit is not an error; a bad byte before it is.
                if err.error_len().is_some() {
                    return Err(utf8_error(&self.name, e.as_bytes(), err));
                }
                let mut b = e.into_bytes();
                b.truncate(err.valid_up_to());
                String::from_utf8(b).unwrap_or_default()
            }
        };
        Ok(Cow::Owned(head.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(head)))
    }

    /// Its bytes as a buffered stream, gzip undone (detected by its magic bytes); and whether it
    /// was gzip. Lines are read with [`for_each_line`].
    pub fn reader(&self) -> Result<(Box<dyn std::io::BufRead + '_>, bool), IngestError> {
        self.open_reader(None)
    }

    /// [`Self::reader`], calling `report` with the fraction of the stored bytes read so far.
    pub fn reader_reporting<'a>(
        &'a self,
        report: &'a mut dyn FnMut(f64),
    ) -> Result<(Box<dyn std::io::BufRead + 'a>, bool), IngestError> {
        self.open_reader(Some(report))
    }

    fn open_reader<'a>(
        &'a self,
        report: Option<&'a mut dyn FnMut(f64)>,
    ) -> Result<(Box<dyn std::io::BufRead + 'a>, bool), IngestError> {
        use std::io::BufRead;
        let raw: Box<dyn Read + 'a> = match &self.content {
            Content::Held(b) => Box::new(b.as_slice()),
            Content::Source(s) => {
                let raw = s.open().map_err(|e| self.read_error(e))?;
                match &self.read_digest {
                    Some(out) if out.hex.get().is_none() => Box::new(Hashing::new(raw, out)),
                    _ => raw,
                }
            }
        };
        let raw = Counted { inner: raw, read: 0, len: self.len().max(1) as f64, report };
        let mut raw = std::io::BufReader::with_capacity(1 << 16, raw);
        let gzip = raw.fill_buf().map_err(|e| self.read_error(e))?.starts_with(&[0x1f, 0x8b]);
        if gzip {
            let inflated = flate2::bufread::MultiGzDecoder::new(raw);
            Ok((Box::new(std::io::BufReader::with_capacity(1 << 16, GzipErrors(inflated))), true))
        } else {
            Ok((Box::new(raw), false))
        }
    }

    /// SHA-256 of its bytes as stored (lower-case hex), streamed for a streamed file.
    pub fn sha256(&self) -> Result<String, IngestError> {
        use sha2::Digest;
        if let Some(hex) = self.sha256.clone().or_else(|| self.read_digest.as_ref().and_then(|d| d.get())) {
            return Ok(hex);
        }
        match &self.content {
            Content::Held(b) => Ok(digest::sha256_hex(b)),
            Content::Source(s) => {
                let mut hasher = sha2::Sha256::new();
                let mut r = s.open().map_err(|e| self.read_error(e))?;
                let mut buf = vec![0u8; 1 << 16];
                loop {
                    let n = r.read(&mut buf).map_err(|e| self.read_error(e))?;
                    if n == 0 {
                        break;
                    }
                    hasher.update(&buf[..n]);
                }
                Ok(digest::lower_hex(&hasher.finalize()))
            }
        }
    }
}

/// Counts the bytes read from a stream and reports the fraction read (once per buffer fill).
struct Counted<'a, R> {
    inner: R,
    read: u64,
    len: f64,
    report: Option<&'a mut dyn FnMut(f64)>,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        if let Some(report) = self.report.as_mut() {
            report(self.read as f64 / self.len);
        }
        Ok(n)
    }
}

/// Hashes the bytes read from a stream; at its end, leaves their SHA-256 in `out` (see
/// [`InputFile::hashed_while_read`]). A reader dropped before the end leaves nothing.
/// Natively the bytes are hashed on a helper thread, fed copies of what is read through a
/// bounded channel (at most [`HASH_QUEUE`] buffers wait), so the reading does not wait for the
/// hash and the file is read once; in the browser's worker, in line.
struct Hashing<'a, R> {
    inner: R,
    #[cfg(not(target_arch = "wasm32"))]
    feed: Option<(std::sync::mpsc::SyncSender<Vec<u8>>, std::sync::Arc<std::sync::atomic::AtomicBool>)>,
    /// Buffers the helper has hashed, back for reuse (so the copies allocate once).
    #[cfg(not(target_arch = "wasm32"))]
    spare: Option<std::sync::mpsc::Receiver<Vec<u8>>>,
    #[cfg(target_arch = "wasm32")]
    hasher: Option<sha2::Sha256>,
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    out: &'a ReadDigest,
}

/// Buffers read but not yet hashed, at most (64 KiB each).
#[cfg(not(target_arch = "wasm32"))]
const HASH_QUEUE: usize = 64;

impl<'a, R> Hashing<'a, R> {
    fn new(inner: R, out: &'a std::sync::Arc<ReadDigest>) -> Self {
        #[cfg(not(target_arch = "wasm32"))]
        {
            use sha2::Digest;
            let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<u8>>(HASH_QUEUE);
            let (back, spare) = std::sync::mpsc::channel::<Vec<u8>>();
            let ended = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let (digest, done) = (std::sync::Arc::clone(out), std::sync::Arc::clone(&ended));
            let helper = std::thread::spawn(move || {
                let mut hasher = sha2::Sha256::new();
                // An empty buffer marks the end; a closed channel without it, a reader dropped early.
                while let Ok(chunk) = rx.recv() {
                    if chunk.is_empty() {
                        let _ = digest.hex.set(digest::lower_hex(&hasher.finalize()));
                        return;
                    }
                    hasher.update(&chunk);
                    let _ = back.send(chunk);
                }
            });
            out.helpers.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push((done, helper));
            Hashing { inner, feed: Some((tx, ended)), spare: Some(spare), out }
        }
        #[cfg(target_arch = "wasm32")]
        {
            Hashing { inner, hasher: Some(sha2::Digest::new()), out }
        }
    }
}

impl<R: Read> Read for Hashing<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let end = n == 0 && !buf.is_empty();
        #[cfg(not(target_arch = "wasm32"))]
        if n > 0 || end {
            if let Some((tx, _)) = &self.feed {
                let mut copy = self.spare.as_ref().and_then(|s| s.try_recv().ok()).unwrap_or_default();
                copy.clear();
                copy.extend_from_slice(&buf[..n]);
                if tx.send(copy).is_err() {
                    self.feed = None;
                }
            }
            if end && let Some((_, ended)) = self.feed.take() {
                ended.store(true, std::sync::atomic::Ordering::Release);
            }
        }
        #[cfg(target_arch = "wasm32")]
        {
            use sha2::Digest;
            if n > 0 {
                if let Some(h) = self.hasher.as_mut() {
                    h.update(&buf[..n]);
                }
            } else if end && let Some(h) = self.hasher.take() {
                let _ = self.out.hex.set(digest::lower_hex(&h.finalize()));
            }
        }
        Ok(n)
    }
}

/// What to do about a gzip stream that cannot be inflated.
const GZIP_ADVICE: &str = "the file may be cut short or damaged; compress it again, or give the file uncompressed";

/// Names a gzip stream's errors as such (the reader's callers only see `io::Error`).
struct GzipErrors<R>(R);

impl<R: Read> Read for GzipErrors<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf).map_err(|e| std::io::Error::new(e.kind(), format!("gzip data is corrupt: {e}: {GZIP_ADVICE}")))
    }
}

/// The UTF-8 byte order mark, dropped at the start of a file.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Calls `each(line_number, line)` for every line of `reader`, one line at a time: the file is
/// never held whole. Lines end at `\n` (a `\r` before it is dropped) and are numbered from 1; a
/// BOM at the start is dropped. A line that is not UTF-8 is an error naming the line and the
/// byte offset, as [`decode`] does.
pub fn for_each_line<R: std::io::BufRead>(
    name: &str,
    reader: R,
    mut each: impl FnMut(usize, &str) -> Result<(), IngestError>,
) -> Result<(), IngestError> {
    for_each_line_counted(name, reader, |line_no, line, _| each(line_no, line))
}

/// [`for_each_line`], also giving each line's length as read (its end and any BOM included).
pub fn for_each_line_counted<R: std::io::BufRead>(
    name: &str,
    mut reader: R,
    mut each: impl FnMut(usize, &str, usize) -> Result<(), IngestError>,
) -> Result<(), IngestError> {
    let mut buf = Vec::with_capacity(256);
    let mut line_no = 0usize;
    let mut offset = 0usize;
    loop {
        buf.clear();
        let n = reader
            .read_until(b'\n', &mut buf)
            .map_err(|e| IngestError::new(Location::line(name, line_no + 1), format!("could not be read: {e}")))?;
        if n == 0 {
            return Ok(());
        }
        line_no += 1;
        let mut line = buf.as_slice();
        let mut skipped = 0;
        if line_no == 1 && line.starts_with(UTF8_BOM) {
            line = &line[UTF8_BOM.len()..];
            skipped = UTF8_BOM.len();
        }
        if let Some(l) = line.strip_suffix(b"\n") {
            line = l.strip_suffix(b"\r").unwrap_or(l);
        }
        let text = std::str::from_utf8(line).map_err(|e| {
            IngestError::new(
                Location::line(name, line_no),
                format!("not UTF-8 text (invalid byte at offset {})", offset + skipped + e.valid_up_to()),
            )
        })?;
        each(line_no, text, n)?;
        offset += n;
    }
}

/// Every format memaudit reads, as detected from the content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// One JSON object `{"memories": [...], "queries": [...], "runs": [...]}`.
    BundleJson,
    /// memaudit `memories.jsonl`.
    MemoriesJsonl,
    /// memaudit `queries.jsonl`.
    QueriesJsonl,
    /// memaudit `runs.jsonl`, one ranked list per line.
    RunsJsonl,
    /// Flat per-hit rows `{system, query_id, retrieved_id, rank, score}`.
    HitsJsonl,
    /// LongMemEval retrieval log (`retrieval_results.ranked_items[].corpus_id`).
    LongMemEvalLog,
    /// TREC run `qid Q0 docno rank score tag`.
    TrecRun,
    /// TREC qrels `qid iter docno rel`.
    TrecQrels,
    /// ranx / pytrec_eval run `{"qid": {"docno": score}}`.
    JsonRun,
    /// MTEL-Mem target mappings: per query `raw_ids`, `source_ids`, `canonical_ids` (JSONL).
    TargetMappings,
    /// ranx / pytrec_eval qrels `{"qid": {"docno": rel}}`.
    JsonQrels,
    /// LoCoMo `locomo10.json`.
    Locomo,
    /// LongMemEval data, native parallel-array layout (`haystack_sessions`).
    LongMemEval,
    /// LongMemEval data, BriefBench snapshot layout (`{questions: [{sessions: [...]}]}`).
    LongMemEvalSnapshot,
}

impl Format {
    /// One record per line, each read on its own: JSON Lines and TREC text (a streamed file of
    /// these is never held whole).
    pub fn reads_line_by_line(self) -> bool {
        matches!(
            self,
            Format::MemoriesJsonl
                | Format::QueriesJsonl
                | Format::TargetMappings
                | Format::RunsJsonl
                | Format::HitsJsonl
                | Format::LongMemEvalLog
                | Format::TrecRun
                | Format::TrecQrels
        )
    }

    pub fn describe(self) -> &'static str {
        match self {
            Format::BundleJson => "memaudit bundle (one JSON object)",
            Format::MemoriesJsonl => "memaudit memories (JSONL)",
            Format::QueriesJsonl => "memaudit queries (JSONL)",
            Format::RunsJsonl => "memaudit runs, ranked lists (JSONL)",
            Format::HitsJsonl => "memaudit runs, per-hit rows (JSONL)",
            Format::LongMemEvalLog => "LongMemEval retrieval log (JSONL)",
            Format::TrecRun => "TREC run",
            Format::TrecQrels => "TREC qrels",
            Format::JsonRun => "run as {qid: {docno: score}} JSON (ranx, pytrec_eval)",
            Format::TargetMappings => "MTEL-Mem target mappings (raw_ids, source_ids, canonical_ids; JSONL)",
            Format::JsonQrels => "qrels as {qid: {docno: rel}} JSON (ranx, pytrec_eval)",
            Format::Locomo => "LoCoMo data (locomo10.json)",
            Format::LongMemEval => "LongMemEval data (native layout)",
            Format::LongMemEvalSnapshot => "LongMemEval data (snapshot layout)",
        }
    }

    /// What the file provides.
    pub fn provides(self) -> Provides {
        match self {
            Format::BundleJson => Provides { memories: true, queries: true, runs: true },
            Format::MemoriesJsonl => Provides { memories: true, queries: false, runs: false },
            Format::QueriesJsonl | Format::TargetMappings => Provides { memories: false, queries: true, runs: false },
            Format::RunsJsonl | Format::HitsJsonl | Format::LongMemEvalLog | Format::TrecRun | Format::JsonRun => {
                Provides { memories: false, queries: false, runs: true }
            }
            Format::TrecQrels
            | Format::JsonQrels
            | Format::Locomo
            | Format::LongMemEval
            | Format::LongMemEvalSnapshot => Provides { memories: true, queries: true, runs: false },
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Provides {
    pub memories: bool,
    pub queries: bool,
    pub runs: bool,
}

/// What the caller expects a file to hold (the CLI's `--memories/--queries/--runs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Memories,
    Queries,
    Runs,
    Any,
}

impl Role {
    fn accepts(self, format: Format) -> bool {
        let p = format.provides();
        match self {
            Role::Any => true,
            Role::Memories => p.memories,
            Role::Queries => p.queries,
            Role::Runs => p.runs,
        }
    }
}

/// What was read from one file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileReport {
    pub name: String,
    pub format: Format,
    pub format_description: String,
    pub gzip: bool,
    pub bytes: usize,
    /// Lines or top-level records read.
    pub records: usize,
    pub memories: usize,
    pub queries: usize,
    pub runs: usize,
    /// SHA-256 of the file as given (lower-case hex; before gzip is undone).
    #[serde(default)]
    pub sha256: String,
}

/// Everything read from a set of files, before validation.
#[derive(Debug, Clone, Default)]
pub struct Loaded {
    pub bundle: Bundle,
    pub files: Vec<FileReport>,
    pub warnings: Warnings,
    /// The store came from TREC qrels: only the Raw target exists and ranked ids missing from
    /// the qrels are unjudged rather than unknown.
    pub from_trec_qrels: bool,
}

/// Progress of a long read, for the viewer's progress bar.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub stage: String,
    /// 0..=1 within the stage.
    pub fraction: f64,
}

/// Reads files in any order, detecting each one's format.
pub fn read_all(files: &[InputFile]) -> Result<Loaded, IngestError> {
    let mut loaded = Loaded::default();
    for f in files {
        read_into(f, Role::Any, &mut loaded, &mut |_| {})?;
    }
    Ok(loaded)
}

/// Reads one file into `loaded`, checking that its detected format can play `role`. A streamed
/// file ([`InputFile::streamed`]) of JSON Lines or TREC text is read one line at a time and
/// never held whole (its budgets are counted as it is read); any other file is read whole,
/// then parsed.
pub fn read_into(
    file: &InputFile,
    role: Role,
    loaded: &mut Loaded,
    progress: &mut dyn FnMut(Progress),
) -> Result<(), IngestError> {
    // A streamed file of JSON Lines or TREC text is read one line at a time, never whole: its
    // format is known from its first line (see `detect_json_object`, `trec_eval_files::detect`).
    let streamed_format = match &file.content {
        Content::Source(_) => {
            file.check_stored_size()?;
            detect(&file.name, &file.head_text()?).ok().filter(|f| f.reads_line_by_line())
        }
        Content::Held(_) => None,
    };
    let (format, whole) = match streamed_format {
        Some(format) => (format, None),
        None => {
            let (text, gzip) = file.text()?;
            let mut format = detect(&file.name, &text)?;
            // An all-integer {qid: {docno: n}} JSON given as qrels (`--qrels`) is qrels, whatever its name.
            if format == Format::JsonRun
                && role == Role::Queries
                && crate::ingest::trec_eval_files::detect(&text)
                    == Some(crate::ingest::trec_eval_files::IrFileKind::JsonIntegers)
            {
                format = Format::JsonQrels;
            }
            (format, Some((text, gzip)))
        }
    };
    if !role.accepts(format) {
        return Err(IngestError::new(
            Location::file(&file.name),
            format!(
                "expected {} but the content is {}",
                match role {
                    Role::Memories => "memories",
                    Role::Queries => "queries",
                    Role::Runs => "runs",
                    Role::Any => "any format",
                },
                format.describe()
            ),
        ));
    }
    let before = (loaded.bundle.memories.len(), loaded.bundle.queries.len(), loaded.bundle.runs.len());
    let name = file.name.as_str();
    let mut report_progress = |fraction: f64| {
        progress(Progress { stage: format!("reading {name}"), fraction });
    };
    let (records, gzip) = match &whole {
        Some((text, gzip)) => (read_format(name, format, text.as_ref().into(), loaded, &mut report_progress)?, *gzip),
        None => {
            let (reader, gzip) = file.reader_reporting(&mut report_progress)?;
            let lines = records::Lines::Stream(records::Stream { reader, gzip, limits: file.limits });
            (read_format(name, format, lines, loaded, &mut |_| {})?, gzip)
        }
    };
    report_progress(1.0);
    loaded.files.push(FileReport {
        name: file.name.clone(),
        format,
        format_description: format.describe().to_string(),
        gzip,
        bytes: file.len(),
        records,
        memories: loaded.bundle.memories.len() - before.0,
        queries: loaded.bundle.queries.len() - before.1,
        runs: loaded.bundle.runs.len() - before.2,
        sha256: String::new(),
    });
    Ok(())
}

/// Reads the records of `format` from `lines`: a text held whole, or a stream for the formats
/// read line by line ([`Format::reads_line_by_line`]; the others need the whole text).
fn read_format(
    name: &str,
    format: Format,
    lines: records::Lines<'_>,
    loaded: &mut Loaded,
    progress: &mut dyn FnMut(f64),
) -> Result<usize, IngestError> {
    let whole = |lines| whole_text(name, format, lines);
    match format {
        Format::MemoriesJsonl => bundle::read_memories(name, lines, loaded, progress),
        Format::QueriesJsonl => bundle::read_queries(name, lines, loaded, progress),
        Format::TargetMappings => bundle::read_target_mappings(name, lines, loaded, progress),
        Format::RunsJsonl | Format::HitsJsonl | Format::LongMemEvalLog => {
            bundle::read_runs(name, lines, loaded, progress)
        }
        Format::TrecRun => trec::read_run(name, lines, loaded, progress),
        Format::TrecQrels => trec::read_qrels(name, lines, loaded, progress),
        Format::BundleJson => bundle::read_bundle_json(name, whole(lines)?, loaded),
        Format::JsonRun => trec::read_json_run(name, whole(lines)?, loaded),
        Format::JsonQrels => trec::read_json_qrels(name, whole(lines)?, loaded),
        Format::Locomo => locomo::read(name, whole(lines)?, loaded),
        Format::LongMemEval | Format::LongMemEvalSnapshot => longmemeval::read(name, whole(lines)?, format, loaded),
    }
}

/// The text of a format read whole (a stream of one is a caller's mistake, reported as such).
fn whole_text<'a>(name: &str, format: Format, lines: records::Lines<'a>) -> Result<&'a str, IngestError> {
    match lines {
        records::Lines::Text(text) => Ok(text),
        records::Lines::Stream(_) => Err(IngestError::new(
            Location::file(name),
            format!("is {}, which is not read one line at a time", format.describe()),
        )),
    }
}

/// Undoes gzip (by magic bytes, not by name) and checks UTF-8 (a BOM is dropped), within the
/// default byte budget ([`Limits::DEFAULT`]).
pub fn decode<'a>(name: &str, bytes: &'a [u8]) -> Result<(Cow<'a, str>, bool), IngestError> {
    decode_within(name, bytes, Limits::DEFAULT.max_bytes)
}

/// [`decode`], refusing gzip that inflates to more than `max_bytes`.
pub fn decode_within<'a>(name: &str, bytes: &'a [u8], max_bytes: u64) -> Result<(Cow<'a, str>, bool), IngestError> {
    Ok(decode_refusing(name, bytes, Limits { max_bytes, max_rows: u64::MAX })?)
}

/// [`decode_within`] under both budgets, telling a refusal for them from bad content. The rows
/// of a gzip stream are counted while it is inflated; those of plain text are counted by the
/// caller.
fn decode_refusing<'a>(name: &str, bytes: &'a [u8], limits: Limits) -> Result<(Cow<'a, str>, bool), Refusal> {
    let (raw, gzip): (Cow<'a, [u8]>, bool) = if bytes.starts_with(&[0x1f, 0x8b]) {
        (Cow::Owned(inflate(name, bytes, limits)?), true)
    } else {
        (Cow::Borrowed(bytes), false)
    };
    let text = match raw {
        Cow::Borrowed(b) => {
            Cow::Borrowed(std::str::from_utf8(b).map_err(|e| Refusal::Content(utf8_error(name, b, e)))?)
        }
        Cow::Owned(b) => Cow::Owned(String::from_utf8(b).map_err(|e| {
            let err = e.utf8_error();
            Refusal::Content(utf8_error(name, e.as_bytes(), err))
        })?),
    };
    let text = match text {
        Cow::Borrowed(s) => Cow::Borrowed(s.strip_prefix('\u{feff}').unwrap_or(s)),
        Cow::Owned(s) => match s.strip_prefix('\u{feff}') {
            Some(rest) => Cow::Owned(rest.to_string()),
            None => Cow::Owned(s),
        },
    };
    Ok((text, gzip))
}

/// Inflated bytes after which the rows of a gzip stream are first counted; then at twice as
/// many, and so on (each count reads the text so far: twice the final size at most in all).
const FIRST_ROW_COUNT: usize = 16 << 20;

/// Undoes gzip within the budgets: inflating stops past `limits.max_bytes`, and the rows are
/// counted as the text grows ([`FIRST_ROW_COUNT`]), so a gzip bomb, even one of short valid
/// rows, is refused instead of exhausting memory, after about the rows allowed rather than at
/// its full size.
fn inflate(name: &str, bytes: &[u8], limits: Limits) -> Result<Vec<u8>, Refusal> {
    let mut stream = flate2::read::MultiGzDecoder::new(bytes).take(limits.max_bytes.saturating_add(1));
    let mut out = Vec::new();
    let mut count_at = FIRST_ROW_COUNT;
    loop {
        // Up to the next count, then the rows so far.
        let want = count_at.saturating_sub(out.len()) as u64;
        let got = match (&mut stream).take(want).read_to_end(&mut out) {
            Ok(got) => got,
            Err(e) => return Err(Refusal::Content(corrupt_gzip(name, bytes.len(), &out, &e))),
        };
        if got == 0 && want > 0 {
            break;
        }
        if out.len() >= count_at {
            count_at = count_at.saturating_mul(2);
            if limits.max_rows < u64::MAX && rows_countable(&out) {
                limits.check_rows(name, &out).map_err(Refusal::Budget)?;
            }
        }
    }
    if out.len() as u64 > limits.max_bytes {
        return Err(Refusal::Budget(too_large(name, "decompresses to", limits.max_bytes)));
    }
    Ok(out)
}

/// A gzip stream that cannot be inflated, located at the line of the text it breaks off in
/// (`inflated`: the text read before the error) and said in the words of what to do.
fn corrupt_gzip(name: &str, compressed: usize, inflated: &[u8], e: &std::io::Error) -> IngestError {
    let line = line_after(inflated);
    let cut = if inflated.is_empty() {
        "before any text".to_string()
    } else {
        format!("after {} bytes of text", inflated.len())
    };
    IngestError::new(
        Location::line(name, line),
        format!("gzip data is corrupt: {e} ({cut}, of {compressed} compressed bytes): {GZIP_ADVICE}"),
    )
}

/// The 1-based line a text continues in after `before`.
fn line_after(before: &[u8]) -> usize {
    before.iter().filter(|&&b| b == b'\n').count() + 1
}

fn utf8_error(name: &str, bytes: &[u8], e: std::str::Utf8Error) -> IngestError {
    let at = e.valid_up_to();
    let line = line_after(&bytes[..at]);
    IngestError::new(Location::line(name, line), format!("not UTF-8 text (invalid byte at offset {at})"))
}

/// Detects a file's format from its content (never from its name alone).
pub fn detect(name: &str, text: &str) -> Result<Format, IngestError> {
    let trimmed = text.trim_start();
    let Some(first) = trimmed.chars().next() else {
        return Err(IngestError::new(Location::file(name), "the file is empty"));
    };
    match first {
        '[' => detect_json_array(name, trimmed),
        '{' => match trec::detect(name, text) {
            Some(f) => Ok(f),
            None => detect_json_object(name, text),
        },
        _ => trec::detect(name, text).ok_or_else(|| trec::not_trec(name, text)),
    }
}

/// Looks at the keys near the start of a document (a bounded prefix, so detection stays cheap
/// on large files).
pub(crate) fn prefix(text: &str, n: usize) -> &str {
    if text.len() <= n {
        return text;
    }
    let mut end = n;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

fn detect_json_array(name: &str, text: &str) -> Result<Format, IngestError> {
    let head = prefix(text, 256 * 1024);
    if head.contains("\"haystack_sessions\"") || head.contains("\"haystack_session_ids\"") {
        return Ok(Format::LongMemEval);
    }
    if head.contains("\"conversation\"") && (head.contains("\"qa\"") || head.contains("\"sample_id\"")) {
        return Ok(Format::Locomo);
    }
    if head.contains("\"qa\"") && head.contains("\"evidence\"") {
        return Ok(Format::Locomo);
    }
    Err(IngestError::new(
        Location::file(name),
        "a JSON array, but neither LoCoMo (`conversation`, `qa`) nor LongMemEval \
         (`haystack_sessions`) data; memaudit records go one per line (JSONL) or in \
         {\"memories\", \"queries\", \"runs\"}",
    ))
}

fn detect_json_object(name: &str, text: &str) -> Result<Format, IngestError> {
    // JSONL when the first non-blank line is a complete JSON object.
    let (line_no, first_line) =
        text.lines().enumerate().find(|(_, l)| !l.trim().is_empty()).map(|(i, l)| (i + 1, l)).unwrap_or((1, ""));
    match serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(first_line) {
        Ok(obj) => classify_object_keys(name, line_no, &obj, text),
        Err(_) => {
            // A multi-line JSON document: decide from the keys near the start.
            let head = prefix(text, 256 * 1024);
            if head.contains("\"questions\"") && head.contains("\"sessions\"") {
                Ok(Format::LongMemEvalSnapshot)
            } else if bundle::is_bundle_object(head) {
                Ok(Format::BundleJson)
            } else if serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok() {
                Err(IngestError::new(
                    Location::file(name),
                    "a JSON object without `memories`, `queries` or `runs` (nor LongMemEval `questions`)",
                ))
            } else {
                let e = serde_json::from_str::<serde::de::IgnoredAny>(first_line).err();
                Err(IngestError::new(
                    Location::line(name, line_no),
                    format!(
                        "not valid JSON{}",
                        e.map(|e| format!(": {}", records::strip_position(&e))).unwrap_or_default()
                    ),
                ))
            }
        }
    }
}

fn classify_object_keys(
    name: &str,
    line: usize,
    obj: &serde_json::Map<String, serde_json::Value>,
    _text: &str,
) -> Result<Format, IngestError> {
    let has = |k: &str| obj.contains_key(k);
    if has("memories") || has("queries") || has("runs") {
        return Ok(Format::BundleJson);
    }
    if has("questions") && obj.get("questions").is_some_and(|q| q.is_array()) {
        return Ok(Format::LongMemEvalSnapshot);
    }
    if has("retrieval_results") {
        return Ok(Format::LongMemEvalLog);
    }
    if has("haystack_sessions") {
        return Err(IngestError::new(
            Location::line(name, line),
            "LongMemEval data must be one JSON array (the released layout), not one question per line",
        ));
    }
    if has("memory_id") && has("anchors") {
        return Ok(Format::MemoriesJsonl);
    }
    if has("query_id") && (has("raw_ids") || has("source_ids") || has("canonical_ids")) {
        return Ok(Format::TargetMappings);
    }
    if has("returned_ids_full") || has("returned_ids_topk") {
        return Err(IngestError::new(
            Location::line(name, line),
            "an MTEL-Mem per-query pipeline trace: it holds the ids the pipeline returned and the ids it expected \
             (`expected_memory_ids`, its own Source-family credit), not the memory catalog that says which ids are \
             Raw turns and which are Canonical facts, so it cannot be rescored under the three targets. Its \
             per-query hit, top-1, reciprocal rank and answer F1 are read as outcomes. To rescore, ask the authors for this run's `minimal_target_mappings.jsonl` \
             (`raw_ids`, `source_ids`, `canonical_ids` per query) with the per-hit trace (`{system, query_id, \
             retrieved_id, rank, score}` lines), or its `run.sqlite` catalog",
        ));
    }
    if has("raw_eligible") || has("raw_ndcg") || has("raw_hit_at_k") {
        return Err(IngestError::new(
            Location::line(name, line),
            "per-query scores under each target (a records file), not ranked lists: they are the outcomes of a \
             paired comparison (`outcomes`)",
        ));
    }
    if has("query_id") && has("evidence") {
        return Ok(Format::QueriesJsonl);
    }
    if has("ranked") {
        return Ok(Format::RunsJsonl);
    }
    if has("retrieved_id") {
        return Ok(Format::HitsJsonl);
    }
    let keys: Vec<&str> = obj.keys().map(String::as_str).take(12).collect();
    let hint = if has("memory_id") {
        " (a memory line needs `anchors`)"
    } else if has("query_id") && !has("system") {
        " (a query line needs `evidence`)"
    } else if has("system") {
        " (a run line needs `ranked` or `retrieved_id`)"
    } else {
        ""
    };
    Err(IngestError::new(
        Location::line(name, line),
        format!("unrecognised record with keys [{}]{hint}", keys.join(", ")),
    ))
}

/// The folder part of a file's name (`a/b` of `a/b/c.json`; empty without one).
pub fn folder_of(name: &str) -> &str {
    name.rsplit_once(['/', '\\']).map_or("", |(d, _)| d)
}

/// The file name without directories and extensions (used as a system name when a run format
/// carries none).
pub fn file_stem(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let base = base.strip_suffix(".gz").unwrap_or(base);
    match base.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && ext.len() <= 6 => stem.to_string(),
        _ => base.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gzip_bytes(text: &[u8]) -> Vec<u8> {
        use std::io::Write;
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(text).unwrap();
        enc.finish().unwrap()
    }

    /// Bytes handed out 3 at a time.
    fn trickle(bytes: Vec<u8>) -> ChunkedSource {
        ChunkedSource::new(bytes, 3)
    }

    fn lines_of(file: &InputFile) -> Result<Vec<(usize, String)>, IngestError> {
        let mut out = Vec::new();
        for_each_line(&file.name, file.reader()?.0, |n, l| {
            out.push((n, l.to_string()));
            Ok(())
        })?;
        Ok(out)
    }

    #[test]
    fn inflating_stops_at_the_limit() {
        let bomb = gzip_bytes(&vec![b'\n'; 10_000]);
        let bytes = |max_bytes| Limits { max_bytes, max_rows: u64::MAX };
        assert_eq!(inflate("b.gz", &bomb, bytes(10_000)).unwrap().len(), 10_000);
        let err = IngestError::from(inflate("b.gz", &bomb, bytes(9_999)).unwrap_err());
        assert_eq!(err.location, Location::file("b.gz"));
        assert!(err.message.starts_with("decompresses to more than"), "{}", err.message);
    }

    #[test]
    fn a_gzip_bomb_of_short_rows_is_refused_by_its_rows_before_its_size() {
        // 100 MiB of rows inflated from about 100 kB: over a budget of 1,000 rows long before
        // the 64 MiB byte budget is reached.
        let bomb = gzip_bytes("q1,a,1\n".repeat(15_000_000).as_bytes());
        let err =
            IngestError::from(inflate("b.gz", &bomb, Limits { max_bytes: 64 << 20, max_rows: 1_000 }).unwrap_err());
        assert!(err.message.starts_with("holds more than 1000 rows (lines)"), "{}", err.message);
        // Located at the first row past the budget.
        assert_eq!(err.location, Location::line("b.gz", 1001));
        // A JSON Lines file whose first line is not whole at the first count is counted at the end.
        let one_line = gzip_bytes(format!("{{\"a\": \"{}\"}}\n{{\"a\": 1}}\n", "{".repeat(20 << 20)).as_bytes());
        let text = inflate("l.gz", &one_line, Limits { max_bytes: 64 << 20, max_rows: 2 }).unwrap();
        assert_eq!(count_rows(&text, u64::MAX).0, 2);
    }

    #[test]
    fn rows_are_lines_or_the_objects_of_a_json_document() {
        // Lines with text; blank lines and a missing last newline are handled.
        assert_eq!(count_rows("a\nb\n\n  \nc", u64::MAX).0, 3);
        // The line where the count stopped: the first row past the budget (blank lines count).
        assert_eq!(count_rows("a\n\nb\nc\n", 1).2, 3);
        assert_eq!(count_rows("[{\"a\": 1},\n {\"a\": 2},\n {\"a\": 3}]", 1).2, 2);
        assert_eq!(count_rows("a\nb\n", u64::MAX).0, 2);
        assert_eq!(count_rows("", u64::MAX).0, 0);
        // JSON Lines are lines even though each opens an object.
        assert_eq!(count_rows("{\"a\": {\"b\": 1}}\n{\"a\": 2}\n", u64::MAX).0, 2);
        // A JSON document counts its objects, on one line or several.
        assert_eq!(count_rows("[{\"a\": 1}, {\"a\": 2}, {\"a\": 3}]", u64::MAX).0, 3);
        assert_eq!(count_rows("{\n  \"runs\": [\n    {\"q\": 1},\n    {\"q\": 2}\n  ]\n}\n", u64::MAX).0, 3);
        // Counting stops just past the budget.
        assert_eq!(count_rows("x\n".repeat(1000), 10).0, 11);
    }

    #[test]
    fn a_file_over_its_budgets_is_refused_with_its_name() {
        let text = "item,arm,correct\nq1,a,1\nq1,b,0\n";
        let tight = |max_bytes, max_rows| InputFile::new("o.csv", text).with_limits(Limits { max_bytes, max_rows });
        assert!(tight(1 << 20, 3).text().is_ok());
        let rows = tight(1 << 20, 2).text().unwrap_err();
        assert_eq!(rows.location, Location::line("o.csv", 3));
        assert!(rows.message.starts_with("holds more than 2 rows (lines)"), "{}", rows.message);
        let bytes = tight(10, 100).text().unwrap_err();
        assert!(bytes.message.starts_with("holds more than 10 bytes"), "{}", bytes.message);
        // A gzip bomb stops at the byte budget, held or streamed.
        let bomb = gzip_bytes(&"q1,a,1\n".repeat(100_000).into_bytes());
        let limits = Limits { max_bytes: 50_000, max_rows: u64::MAX };
        for f in [InputFile::new("b.gz", bomb.clone()), InputFile::streamed("b.gz", share(trickle(bomb.clone())))] {
            let e = f.with_limits(limits).text().unwrap_err();
            assert!(e.message.starts_with("decompresses to more than 50000 bytes"), "{}", e.message);
        }
        // Detection that could not read the file reports the budget, not the content.
        assert_eq!(tight(1 << 20, 2).over_budget().map(|e| e.message), Some(rows.message.clone()));
        assert!(tight(1 << 20, 3).over_budget().is_none());
        assert!(InputFile::new("x", b"\xff\xfe".to_vec()).over_budget().is_none());
        assert!(InputFile::new("b.gz", bomb).with_limits(limits).over_budget().is_some());
        assert!(Limits { max_bytes: 0, max_rows: 1 }.validate().is_err());
        assert!(Limits { max_bytes: 1, max_rows: Limits::CEILING.max_rows + 1 }.validate().is_err());
        assert!(Limits::DEFAULT.validate().is_ok());
    }

    #[test]
    fn streamed_lines_equal_the_text_lines() {
        let text = "\u{feff}a b\r\n\n  # c\nd\u{e9} e\nlast";
        let want: Vec<(usize, String)> =
            decode("t", text.as_bytes()).unwrap().0.lines().enumerate().map(|(i, l)| (i + 1, l.to_string())).collect();
        for bytes in [text.as_bytes().to_vec(), gzip_bytes(text.as_bytes())] {
            let held = InputFile::new("t", bytes.clone());
            let streamed = InputFile::streamed("t", share(trickle(bytes.clone())));
            assert_eq!(lines_of(&held).unwrap(), want);
            assert_eq!(lines_of(&streamed).unwrap(), want);
            assert_eq!(streamed.sha256().unwrap(), held.sha256().unwrap());
            assert_eq!(streamed.bytes().unwrap(), held.bytes().unwrap());
            assert_eq!(streamed.text().unwrap(), held.text().unwrap());
            assert_eq!(streamed.len(), bytes.len());
        }
    }

    #[test]
    fn streamed_errors_name_the_line_and_offset_as_decode_does() {
        let bytes = b"ok\nalso ok\nbad \xff here\n".to_vec();
        let whole = decode("t", &bytes).unwrap_err();
        let streamed = lines_of(&InputFile::streamed("t", share(trickle(bytes)))).unwrap_err();
        assert_eq!(streamed, whole);
        assert_eq!(whole.location.line, Some(3));
        assert!(whole.message.contains("offset 15"), "{}", whole.message);

        let mut corrupt = gzip_bytes(b"a\nb\n");
        let n = corrupt.len();
        corrupt.truncate(n - 6);
        let err = lines_of(&InputFile::new("t.gz", corrupt)).unwrap_err();
        assert!(err.message.contains("gzip data is corrupt"), "{}", err.message);
    }

    #[test]
    fn a_gzip_stream_cut_short_is_located_at_the_line_it_breaks_off_in() {
        let text: String = (0..3000u64).map(|i| format!("q{i},{}\n", i.wrapping_mul(2654435761) % 100_003)).collect();
        let mut cut = gzip_bytes(text.as_bytes());
        cut.truncate(cut.len() / 2);
        let held = decode("t.csv.gz", &cut).unwrap_err();
        let streamed = lines_of(&InputFile::streamed("t.csv.gz", share(trickle(cut.clone())))).unwrap_err();
        for err in [&held, &streamed] {
            let line = err.location.line.expect("a line");
            assert!(line > 100 && line < 3000, "{err}");
            assert!(err.message.contains("gzip data is corrupt"), "{err}");
        }
        // The whole file's refusal says how far the text went and what to do.
        assert!(held.message.contains("bytes of text") && held.message.contains("compress it again"), "{held}");
    }

    #[test]
    fn the_head_of_a_streamed_file_ends_at_a_whole_line() {
        // Lines of two-byte characters: the limit falls inside a character and inside a line.
        let line = "\u{e9}".repeat(99) + "\n";
        let text = line.repeat(HEAD_BYTES / line.len() + 10);
        let f = InputFile::streamed("t", share(trickle(gzip_bytes(text.as_bytes()))));
        let head = f.head_text().unwrap();
        assert!(head.len() <= HEAD_BYTES && head.len() > HEAD_BYTES - line.len(), "{}", head.len());
        assert!(head.ends_with('\n') && text.starts_with(head.as_ref()));
        let bad = InputFile::streamed("t", share(trickle(b"a\n\xff\n".to_vec())));
        assert_eq!(bad.head_text().unwrap_err().location.line, Some(2));
    }

    #[test]
    fn detects_by_content() {
        let cases = [
            (r#"{"memory_id":"a","anchors":["a"],"raw":true}"#, Format::MemoriesJsonl),
            (r#"{"query_id":"q","evidence":["a"]}"#, Format::QueriesJsonl),
            (r#"{"system":"s","query_id":"q","ranked":["a"]}"#, Format::RunsJsonl),
            (r#"{"system":"s","query_id":"q","retrieved_id":"a","rank":1}"#, Format::HitsJsonl),
            (r#"{"question_id":"q","retrieval_results":{"ranked_items":[]}}"#, Format::LongMemEvalLog),
            ("{\n \"memories\": [],\n \"queries\": [] }", Format::BundleJson),
            (r#"{"memories":[],"queries":[],"runs":[]}"#, Format::BundleJson),
            ("{\n \"title\": \"x\",\n \"runs\": [] }", Format::BundleJson),
            ("q1 Q0 d1 1 2.5 run\n", Format::TrecRun),
            ("q1 0 d1 1\n", Format::TrecQrels),
        ];
        for (text, want) in cases {
            assert_eq!(detect("f", text).unwrap(), want, "{text}");
        }
    }

    #[test]
    fn unrecognised_names_file_line_and_keys() {
        let e = detect("x.jsonl", "\n{\"foo\": 1}\n").unwrap_err();
        assert_eq!(e.location.line, Some(2));
        assert!(e.message.contains("foo"), "{}", e.message);
        assert!(detect("e", "   ").unwrap_err().message.contains("empty"));
    }

    #[test]
    fn a_summary_with_a_nested_queries_key_is_not_a_bundle() {
        // The shape of the TIAP authors' `target_rescore.json`: per-target counts named `queries`.
        let summary = "{\n \"requested_top_k\": 60,\n \"targets\": {\"raw_turn\": {\"queries\": 329}}\n}";
        let e = detect("target_rescore.json", summary).unwrap_err();
        assert!(e.message.starts_with("a JSON object without `memories`, `queries` or `runs`"), "{}", e.message);
        // Cut before its end, a document whose start shows none at its top level falls back to the
        // start's text.
        assert!(bundle::is_bundle_object("{\"title\": \"x\", \"runs\": [1, 2"));
        assert!(!bundle::is_bundle_object("{\"title\": {\"queries\": 1}}"));
    }

    #[test]
    fn gzip_is_detected_by_magic() {
        use std::io::Write;
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(b"{\"query_id\":\"q\",\"evidence\":[\"a\"]}\n").unwrap();
        let gz = enc.finish().unwrap();
        let (text, gzip) = decode("q.jsonl.gz", &gz).unwrap();
        assert!(gzip);
        assert_eq!(detect("q", &text).unwrap(), Format::QueriesJsonl);
        let e = decode("bad.gz", &[0x1f, 0x8b, 0, 1, 2]).unwrap_err();
        assert!(e.message.contains("gzip"));
    }

    #[test]
    fn non_utf8_names_line() {
        let e = decode("b", b"ok\nok\n\xff\xfe").unwrap_err();
        assert_eq!(e.location.line, Some(3));
    }

    #[test]
    fn stems() {
        assert_eq!(file_stem("dir/bm25.jsonl.gz"), "bm25");
        assert_eq!(file_stem("run.trec"), "run");
        assert_eq!(file_stem("noext"), "noext");
    }
}
