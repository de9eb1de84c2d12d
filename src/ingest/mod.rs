//! Reading user files: format detection by content, gzip, and the readers for every supported
//! format (see `docs/formats.md`). Readers return records as [`crate::model::Bundle`] pieces
//! plus counted [`Warnings`]; a malformed record is an [`IngestError`] naming the file, line and
//! field. Nothing here panics on user input.

pub mod archive;
pub mod bundle;
pub mod delimited;
mod detect;
pub mod digest;
mod input;
pub mod json;
mod limits;
pub mod locomo;
pub mod longmemeval;
pub mod records;
mod run_pieces;
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
pub use detect::*;
pub use input::*;
pub use limits::*;
#[cfg(not(target_arch = "wasm32"))]
pub use source::PathSource;
pub use source::{ByteSource, ChunkedSource, SharedSource, SourceBounds, share};
pub use warnings::{Severity, Warning, WarningKind, Warnings};

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
///
/// Lines are found in the reader's own buffer (`fill_buf`) and given from there: only a line cut
/// by the buffer's end is copied (a 7M-line run would otherwise be copied line by line).
pub fn for_each_line_counted<R: std::io::BufRead>(
    name: &str,
    mut reader: R,
    mut each: impl FnMut(usize, &str, usize) -> Result<(), IngestError>,
) -> Result<(), IngestError> {
    let mut lines = LineNumbering::at(0, 0);
    // The start of a line cut by the end of the reader's buffer.
    let mut carry: Vec<u8> = Vec::new();
    loop {
        let buf = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                return Err(IngestError::new(
                    Location::line(name, lines.line_no + 1),
                    format!("could not be read: {e}"),
                ));
            }
        };
        if buf.is_empty() {
            if !carry.is_empty() {
                lines.give(name, &carry, &mut each)?;
            }
            return Ok(());
        }
        let mut start = 0;
        if !carry.is_empty() {
            let Some(end) = memchr::memchr(b'\n', buf) else {
                carry.extend_from_slice(buf);
                let n = buf.len();
                reader.consume(n);
                continue;
            };
            carry.extend_from_slice(&buf[..=end]);
            start = end + 1;
            lines.give(name, &carry, &mut each)?;
            carry.clear();
        }
        let first = start;
        for end in memchr::memchr_iter(b'\n', &buf[first..]) {
            let line = &buf[start..first + end + 1];
            start = first + end + 1;
            lines.give(name, line, &mut each)?;
        }
        carry.extend_from_slice(&buf[start..]);
        let n = buf.len();
        reader.consume(n);
    }
}

/// Where a line reader is in its file: lines given so far, and bytes before the next line.
pub(crate) struct LineNumbering {
    line_no: usize,
    offset: usize,
}

impl LineNumbering {
    /// At the start of a piece of a file: `lines_before` lines and `offset` bytes precede it.
    pub(crate) fn at(lines_before: usize, offset: usize) -> Self {
        LineNumbering { line_no: lines_before, offset }
    }

    /// Gives one line as read (its `\n` included, if any) to `each`, numbered, its end and any
    /// BOM dropped, checked as UTF-8.
    pub(crate) fn give(
        &mut self,
        name: &str,
        raw: &[u8],
        each: &mut impl FnMut(usize, &str, usize) -> Result<(), IngestError>,
    ) -> Result<(), IngestError> {
        self.line_no += 1;
        let (start, end) = self.text_within(raw);
        let text = std::str::from_utf8(&raw[start..end]).map_err(|e| {
            IngestError::new(
                Location::line(name, self.line_no),
                format!("not UTF-8 text (invalid byte at offset {})", self.offset + start + e.valid_up_to()),
            )
        })?;
        each(self.line_no, text, raw.len())?;
        self.offset += raw.len();
        Ok(())
    }

    /// [`Self::give`] for a line already known to be UTF-8 (a piece checked whole).
    pub(crate) fn give_text(
        &mut self,
        raw: &str,
        each: &mut impl FnMut(usize, &str, usize) -> Result<(), IngestError>,
    ) -> Result<(), IngestError> {
        self.line_no += 1;
        // Cut next to ASCII bytes or after the whole BOM: character boundaries.
        let (start, end) = self.text_within(raw.as_bytes());
        each(self.line_no, &raw[start..end], raw.len())?;
        self.offset += raw.len();
        Ok(())
    }

    /// Where the text of the current line lies in its bytes as read: without a BOM at the start
    /// of the file, and without its end (`\n`, or `\r\n`).
    fn text_within(&self, raw: &[u8]) -> (usize, usize) {
        let start = if self.line_no == 1 && raw.starts_with(UTF8_BOM) { UTF8_BOM.len() } else { 0 };
        let mut line = &raw[start..];
        if let Some(l) = line.strip_suffix(b"\n") {
            line = l.strip_suffix(b"\r").unwrap_or(l);
        }
        (start, start + line.len())
    }
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
        Format::TargetMappingsJson => bundle::read_target_mappings_json(name, whole(lines)?, loaded),
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
    IngestError::new(
        Location::line(name, line_after(inflated)),
        format!("gzip data is corrupt: {e} ({}, of {compressed} compressed bytes): {GZIP_ADVICE}", how_far(inflated)),
    )
}

/// How far a text went before its stream broke off: `before any text`, `after 812 bytes of text`.
fn how_far(text: &[u8]) -> String {
    if text.is_empty() { "before any text".to_string() } else { format!("after {} bytes of text", text.len()) }
}

/// A stream that failed after `text` was read from it, located at the line the text breaks off
/// in (a gzip stream cut short or damaged).
pub(crate) fn unreadable(name: &str, text: &[u8], e: &std::io::Error) -> IngestError {
    IngestError::new(Location::line(name, line_after(text)), format!("could not be read ({}): {e}", how_far(text)))
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

    /// The lines as `read_until` gives them, one copied at a time: what
    /// [`for_each_line_counted`] did before it read the buffer in place.
    fn lines_one_at_a_time(name: &str, bytes: &[u8]) -> Result<Vec<(usize, String, usize)>, IngestError> {
        use std::io::BufRead;
        let (mut reader, mut out, mut buf, mut offset) = (bytes, Vec::new(), Vec::new(), 0);
        loop {
            buf.clear();
            let n = reader.read_until(b'\n', &mut buf).unwrap();
            if n == 0 {
                return Ok(out);
            }
            let mut line = buf.as_slice();
            let mut skipped = 0;
            if out.is_empty() && line.starts_with(UTF8_BOM) {
                line = &line[3..];
                skipped = 3;
            }
            if let Some(l) = line.strip_suffix(b"\n") {
                line = l.strip_suffix(b"\r").unwrap_or(l);
            }
            let text = std::str::from_utf8(line).map_err(|e| {
                IngestError::new(
                    Location::line(name, out.len() + 1),
                    format!("not UTF-8 text (invalid byte at offset {})", offset + skipped + e.valid_up_to()),
                )
            })?;
            out.push((out.len() + 1, text.to_string(), n));
            offset += n;
        }
    }

    #[test]
    fn lines_read_in_the_buffer_equal_lines_copied_one_at_a_time() {
        let inputs: [&[u8]; 6] = [
            b"\xEF\xBB\xBFq1 Q0 d1 1 2.5 r\r\nq1 Q0 d2 2 1.5 r\n\n  \nlast without end",
            b"",
            b"\n\n\n",
            b"a\nb\xC3\xA9\nc\xFF\nd\n",
            b"one long line that is cut by every buffer size below\nshort\n",
            b"\xEF\xBB",
        ];
        for bytes in inputs {
            let expected = lines_one_at_a_time("f", bytes);
            for capacity in 1..=bytes.len() + 2 {
                let mut got = Vec::new();
                let read =
                    for_each_line_counted("f", std::io::BufReader::with_capacity(capacity, bytes), |n, l, raw| {
                        got.push((n, l.to_string(), raw));
                        Ok(())
                    });
                match (&expected, read) {
                    (Ok(lines), Ok(())) => assert_eq!(&got, lines, "capacity {capacity}"),
                    (Err(e), Err(g)) => {
                        assert_eq!((&g.location, &g.message), (&e.location, &e.message), "capacity {capacity}")
                    }
                    (e, g) => panic!("capacity {capacity}: expected {e:?}, got {g:?}"),
                }
            }
        }
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
        // So does the look at its head that detection takes (`rescore -i` on a cut `.gz`).
        let head = InputFile::new("t.csv.gz", cut).head_text().unwrap_err();
        let line = head.location.line.expect("a line");
        assert!(line > 100 && line < 3000, "{head}");
        assert!(
            head.message.contains("could not be read (after ") && head.message.contains("gzip data is corrupt"),
            "{head}"
        );
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
