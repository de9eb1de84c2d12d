//! Typed line records shared by the JSON readers, and the error path that turns a serde
//! failure into "file, line, field: what was expected".

use serde::Deserialize;
use serde::de::{self, DeserializeOwned, Deserializer, MapAccess, Visitor};
use std::fmt;

use crate::error::{IngestError, Location};
use crate::model::lenient;

/// One ranked item as written in a run: `"id"`, `17`, or `{"memory_id"|"id"|"corpus_id", "score"}`.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedEntry {
    pub id: compact_str::CompactString,
    pub score: Option<f64>,
}

impl<'de> Deserialize<'de> for RankedEntry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RankedEntry;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a memory id (string or integer) or an object with `memory_id` and optional `score`")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RankedEntry, E> {
                Ok(RankedEntry { id: v.into(), score: None })
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<RankedEntry, E> {
                Ok(RankedEntry { id: v.into(), score: None })
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RankedEntry, E> {
                Ok(RankedEntry { id: compact_str::ToCompactString::to_compact_string(&v), score: None })
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RankedEntry, E> {
                Ok(RankedEntry { id: compact_str::ToCompactString::to_compact_string(&v), score: None })
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RankedEntry, A::Error> {
                let mut id = None;
                let mut score = None;
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    match key.as_ref() {
                        "memory_id" | "id" | "corpus_id" | "retrieved_id" | "docno" => {
                            if id.is_some() {
                                return Err(de::Error::custom(format!("more than one id field (`{key}`)")));
                            }
                            id = Some(map.next_value_seed(IdSeed)?);
                        }
                        "score" => score = map.next_value::<Option<f64>>()?,
                        _ => {
                            map.next_value::<de::IgnoredAny>()?;
                        }
                    }
                }
                let id = id.ok_or_else(|| de::Error::missing_field("memory_id"))?;
                Ok(RankedEntry { id, score })
            }
        }
        d.deserialize_any(V)
    }
}

struct IdSeed;
impl<'de> de::DeserializeSeed<'de> for IdSeed {
    type Value = compact_str::CompactString;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<compact_str::CompactString, D::Error> {
        lenient::compact_id(d)
    }
}

/// LongMemEval retrieval results (`retrieval_results.ranked_items[].corpus_id`).
#[derive(Debug, Deserialize)]
pub struct LmeResults {
    pub ranked_items: Vec<RankedEntry>,
}

/// A run record in any of the three line forms; which fields are required depends on the form
/// the file was detected as (see [`super::bundle::RunForm`]).
#[derive(Debug, Deserialize, Default)]
pub struct RunRecord {
    #[serde(default, deserialize_with = "lenient::opt_id")]
    pub system: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_id")]
    pub query_id: Option<String>,
    #[serde(default)]
    pub ranked: Option<Vec<RankedEntry>>,
    #[serde(default)]
    pub scores: Option<Vec<Option<f64>>>,
    #[serde(default, deserialize_with = "lenient::opt_id")]
    pub retrieved_id: Option<String>,
    #[serde(default)]
    pub rank: Option<f64>,
    #[serde(default)]
    pub score: Option<f64>,
    #[serde(default, deserialize_with = "lenient::opt_id")]
    pub question_id: Option<String>,
    #[serde(default)]
    pub retrieval_results: Option<LmeResults>,
}

/// serde_json appends " at line L column C" to its messages; the location is reported
/// separately, so strip it.
pub fn strip_position(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg,
    }
}

/// Parses one JSON text as `T`; on failure parses again with path tracking to name the field.
/// `line` is the 1-based line of `text` within `file` (for whole-file documents, pass 0 and the
/// line reported by the parser is used).
pub fn parse<T: DeserializeOwned>(file: &str, line: usize, text: &str) -> Result<T, IngestError> {
    match serde_json::from_str::<T>(text) {
        Ok(v) => Ok(v),
        Err(_) => Err(explain::<T>(file, line, text)),
    }
}

/// Builds the error for a text that failed to parse as `T`.
pub fn explain<T: DeserializeOwned>(file: &str, line: usize, text: &str) -> IngestError {
    let mut de = serde_json::Deserializer::from_str(text);
    let err = match serde_path_to_error::deserialize::<_, T>(&mut de) {
        Ok(_) => {
            return IngestError::new(Location::line(file, line.max(1)), "could not be read (trailing data?)");
        }
        Err(e) => e,
    };
    let path = err.path().to_string();
    let inner = err.into_inner();
    let at_line = if line == 0 { inner.line() } else { line };
    let mut loc = Location::line(file, at_line.max(1));
    let mut message = strip_position(&inner);
    if inner.is_syntax() || inner.is_eof() {
        message = format!("not valid JSON: {message} (column {})", inner.column());
    } else if let Some(rest) = message.strip_prefix("missing field `") {
        let field = rest.trim_end_matches('`').to_string();
        let full = if path == "." { field.clone() } else { format!("{path}.{field}") };
        loc = loc.with_field(full);
        message = format!("required field `{field}` is missing");
    }
    if path != "." && loc.field.is_none() {
        loc = loc.with_field(path);
    }
    IngestError::new(loc, message)
}

/// Iterates the non-blank lines of a JSONL text with 1-based line numbers, reporting progress
/// about every 4,096 lines.
pub fn jsonl_lines<'a>(text: &'a str, progress: &'a mut dyn FnMut(f64)) -> impl Iterator<Item = (usize, &'a str)> + 'a {
    let total = text.len().max(1) as f64;
    let base = text.as_ptr() as usize;
    text.lines().enumerate().filter_map(move |(i, l)| {
        if i % 4096 == 4095 {
            progress((l.as_ptr() as usize - base) as f64 / total);
        }
        let t = l.trim();
        if t.is_empty() { None } else { Some((i + 1, t)) }
    })
}

/// Where a JSONL reader's lines come from.
pub enum Lines<'a> {
    /// A text held whole; progress is its position in the text.
    Text(&'a str),
    /// A file read one line at a time ([`super::for_each_line`]): it is never held whole, and its
    /// budgets are counted as it is read. Progress is the stream's to report (see
    /// [`super::InputFile::reader_reporting`]).
    Stream(Stream<'a>),
}

/// A JSONL file as a stream, with the budgets its lines are counted against.
pub struct Stream<'a> {
    pub reader: Box<dyn std::io::BufRead + 'a>,
    /// Whether the stored bytes were gzip (over the byte budget, the text "decompresses to" more).
    pub gzip: bool,
    pub limits: super::Limits,
}

impl<'a> From<&'a str> for Lines<'a> {
    fn from(text: &'a str) -> Self {
        Lines::Text(text)
    }
}

/// Parses the non-blank lines of a JSONL text as `T` and hands each record, with its 1-based
/// line, to `each`, in line order. The first error in line order — a line that does not parse
/// as `T` ([`parse`]), or `each`'s — ends the read, exactly as reading one line at a time. A
/// stream over a budget ends it where the budget is passed, after the lines before.
///
/// Natively, more than [`PARALLEL_BATCH_BYTES`] of lines are parsed a batch of about that many
/// bytes at a time, each batch split across the cores ([`crate::parallel`]): parsing is most of a
/// reader's time. `each` runs on this thread, in order. In the browser, one line at a time.
pub fn each_record<'a, T: DeserializeOwned + Send>(
    file: &str,
    lines: impl Into<Lines<'a>>,
    progress: &mut dyn FnMut(f64),
    each: impl FnMut(usize, T) -> Result<(), IngestError>,
) -> Result<(), IngestError> {
    match lines.into() {
        Lines::Text(text) => each_record_in_batches(file, text, PARALLEL_BATCH_BYTES, progress, each),
        Lines::Stream(stream) => {
            each_streamed_record(file, stream, PARALLEL_BATCH_BYTES, crate::parallel::threads(), each)
        }
    }
}

/// Hands every line of `lines`, with its 1-based number, to `each`, in order (blank lines too:
/// the caller decides what they are). A text's lines report progress by their position; a
/// stream's are counted against its budgets as they are read ([`Budget`]).
pub fn each_line<'a>(
    file: &str,
    lines: impl Into<Lines<'a>>,
    progress: &mut dyn FnMut(f64),
    mut each: impl FnMut(usize, &str) -> Result<(), IngestError>,
) -> Result<(), IngestError> {
    match lines.into() {
        Lines::Text(text) => {
            let total = text.len().max(1) as f64;
            let base = text.as_ptr() as usize;
            for (i, l) in text.lines().enumerate() {
                if i % 4096 == 4095 {
                    progress((l.as_ptr() as usize - base) as f64 / total);
                }
                each(i + 1, l)?;
            }
            Ok(())
        }
        Lines::Stream(Stream { reader, gzip, limits }) => {
            let mut budget = Budget { file, limits, gzip, bytes: 0, rows: 0, lines: 0 };
            let reader = std::io::Read::take(reader, limits.max_bytes.saturating_add(1));
            super::for_each_line_counted(file, reader, |line, l, raw| {
                budget.count(raw, l.trim().is_empty())?;
                each(line, l)
            })
        }
    }
}

/// The batch of lines [`each_record`] parses at once, across the cores.
pub const PARALLEL_BATCH_BYTES: usize = 4 << 20;

fn each_record_in_batches<T: DeserializeOwned + Send>(
    file: &str,
    text: &str,
    batch_bytes: usize,
    progress: &mut dyn FnMut(f64),
    mut each: impl FnMut(usize, T) -> Result<(), IngestError>,
) -> Result<(), IngestError> {
    let mut lines = jsonl_lines(text, progress);
    if crate::parallel::threads() == 1 || text.len() <= batch_bytes {
        return lines.try_for_each(|(line, t)| each(line, parse(file, line, t)?));
    }
    let mut batch: Vec<(usize, &str)> = Vec::new();
    loop {
        batch.clear();
        let mut bytes = 0;
        while bytes < batch_bytes {
            let Some((line, t)) = lines.next() else { break };
            bytes += t.len();
            batch.push((line, t));
        }
        if batch.is_empty() {
            return Ok(());
        }
        parse_batch(file, &batch, &mut each)?;
    }
}

/// Parses a batch of lines (across the cores natively) and hands the records to `each` in order.
fn parse_batch<T: DeserializeOwned + Send>(
    file: &str,
    batch: &[(usize, &str)],
    each: &mut impl FnMut(usize, T) -> Result<(), IngestError>,
) -> Result<(), IngestError> {
    if crate::parallel::threads() == 1 || batch.len() < 2 {
        return batch.iter().try_for_each(|&(line, t)| each(line, parse(file, line, t)?));
    }
    let parsed = crate::parallel::map_per_thread(batch, |&(line, t)| parse::<T>(file, line, t));
    for (&(line, _), record) in batch.iter().zip(parsed) {
        each(line, record?)?;
    }
    Ok(())
}

/// The budgets of a stream, counted as its lines are read: the text's bytes as read (line ends
/// and a BOM included, as a file read whole counts them) and its non-blank lines.
struct Budget<'a> {
    file: &'a str,
    limits: super::Limits,
    gzip: bool,
    bytes: u64,
    rows: u64,
    /// Lines counted, blank ones too: the line of a refusal.
    lines: u64,
}

impl Budget<'_> {
    /// Counts one line of `raw` bytes; the refusal when it passes a budget.
    fn count(&mut self, raw: usize, blank: bool) -> Result<(), IngestError> {
        self.bytes += raw as u64;
        self.rows += u64::from(!blank);
        self.lines += 1;
        if self.bytes > self.limits.max_bytes {
            return Err(self.limits.too_many_bytes(self.file, if self.gzip { "decompresses to" } else { "holds" }));
        }
        if self.rows > self.limits.max_rows {
            return Err(self.limits.too_many_rows(self.file, "rows (lines)", Some(self.lines as usize)));
        }
        Ok(())
    }
}

/// The records of a stream, counted against its budgets ([`Budget`]) as its lines are read.
/// With one thread each line is parsed as it is read; natively the lines are gathered into
/// batches of about `batch_bytes` ([`parse_batch`]). A line past a budget ends the read after
/// the lines before it (their errors come first).
fn each_streamed_record<T: DeserializeOwned + Send>(
    file: &str,
    stream: Stream<'_>,
    batch_bytes: usize,
    threads: usize,
    mut each: impl FnMut(usize, T) -> Result<(), IngestError>,
) -> Result<(), IngestError> {
    let Stream { reader, gzip, limits } = stream;
    let mut budget = Budget { file, limits, gzip, bytes: 0, rows: 0, lines: 0 };
    // Read no further than one byte past the byte budget: a line without an end (a gzip bomb
    // of one line) is not held past it either.
    let reader = std::io::Read::take(reader, limits.max_bytes.saturating_add(1));
    if threads == 1 {
        return super::for_each_line_counted(file, reader, |line, l, raw| {
            let t = l.trim();
            budget.count(raw, t.is_empty())?;
            if t.is_empty() { Ok(()) } else { each(line, parse(file, line, t)?) }
        });
    }
    // One buffer for the batch's text; each line is a range of it.
    let mut text = String::with_capacity(batch_bytes.min(PARALLEL_BATCH_BYTES) + 4096);
    let mut spans: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
    let mut flush = |text: &mut String, spans: &mut Vec<(usize, std::ops::Range<usize>)>| {
        let batch: Vec<(usize, &str)> = spans.iter().map(|(line, r)| (*line, &text[r.clone()])).collect();
        let out = parse_batch(file, &batch, &mut each);
        text.clear();
        spans.clear();
        out
    };
    super::for_each_line_counted(file, reader, |line, l, raw| {
        let t = l.trim();
        if let Err(over) = budget.count(raw, t.is_empty()) {
            flush(&mut text, &mut spans)?;
            return Err(over);
        }
        if !t.is_empty() {
            let start = text.len();
            text.push_str(t);
            spans.push((line, start..text.len()));
            if text.len() >= batch_bytes {
                flush(&mut text, &mut spans)?;
            }
        }
        Ok(())
    })?;
    flush(&mut text, &mut spans)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Memory;

    #[test]
    fn ranked_entries_in_every_spelling() {
        let v: Vec<RankedEntry> =
            serde_json::from_str(r#"["a", 7, {"memory_id":"b","score":1.5}, {"corpus_id":"c"}]"#).unwrap();
        assert_eq!(v[0], RankedEntry { id: "a".into(), score: None });
        assert_eq!(v[1].id, "7");
        assert_eq!(v[2], RankedEntry { id: "b".into(), score: Some(1.5) });
        assert_eq!(v[3].id, "c");
        assert!(serde_json::from_str::<Vec<RankedEntry>>(r#"[{"score":1}]"#).is_err());
    }

    /// Batches across the cores give the records, and the first error, of one line at a time.
    #[test]
    fn batched_records_and_errors_equal_one_line_at_a_time() {
        fn one_at_a_time(text: &str) -> (Vec<(usize, Memory)>, Option<IngestError>) {
            let mut out = Vec::new();
            for (line, t) in jsonl_lines(text, &mut |_| {}) {
                match parse::<Memory>("m.jsonl", line, t) {
                    Ok(m) if m.memory_id == "refused" => {
                        return (out, Some(IngestError::new(Location::line("m.jsonl", line), "refused")));
                    }
                    Ok(m) => out.push((line, m)),
                    Err(e) => return (out, Some(e)),
                }
            }
            (out, None)
        }
        fn batched(text: &str, batch_bytes: usize) -> (Vec<(usize, Memory)>, Option<IngestError>) {
            let mut out = Vec::new();
            let r = each_record_in_batches("m.jsonl", text, batch_bytes, &mut |_| {}, |line, m: Memory| {
                if m.memory_id == "refused" {
                    return Err(IngestError::new(Location::line("m.jsonl", line), "refused"));
                }
                out.push((line, m));
                Ok(())
            });
            (out, r.err())
        }
        let good = |i: usize| format!("{{\"memory_id\": \"m{i}\", \"anchors\": [\"a{}\"], \"raw\": true}}\n", i % 7);
        let mut clean = String::new();
        for i in 0..300 {
            clean.push_str(&good(i));
            if i % 50 == 0 {
                clean.push_str("\n  \n");
            }
        }
        // A bad line, then a refusal by the caller and another bad line in the same batch.
        let mut bad = clean.clone();
        bad.push_str("{\"memory_id\": \"x\", \"anchors\": [\"a\"], \"raw\": \"yes\"}\n{\"memory_id\": \"refused\", \"anchors\": []}\n{oops\n");
        let mut refused = clean.clone();
        refused.push_str("{\"memory_id\": \"refused\", \"anchors\": []}\n{\"memory_id\": \"x\", \"raw\": \"yes\"}\n");
        // The same text as a stream, on one thread and in batches.
        fn streamed(text: &str, batch_bytes: usize, threads: usize) -> (Vec<(usize, Memory)>, Option<IngestError>) {
            let mut out = Vec::new();
            let stream =
                Stream { reader: Box::new(text.as_bytes()), gzip: false, limits: crate::ingest::Limits::DEFAULT };
            let r = each_streamed_record("m.jsonl", stream, batch_bytes, threads, |line, m: Memory| {
                if m.memory_id == "refused" {
                    return Err(IngestError::new(Location::line("m.jsonl", line), "refused"));
                }
                out.push((line, m));
                Ok(())
            });
            (out, r.err())
        }
        for text in [&clean, &bad, &refused] {
            let want = one_at_a_time(text);
            for batch_bytes in [1, 90, 1000, 7000, text.len() - 1, text.len()] {
                assert_eq!(batched(text, batch_bytes), want, "batches of {batch_bytes} bytes");
                for threads in [1, 2] {
                    assert_eq!(streamed(text, batch_bytes, threads), want, "stream, {threads} threads, {batch_bytes}");
                }
            }
        }
        // Past a budget: the lines before it are read, then the refusal, on one thread or more.
        for threads in [1, 2] {
            for (limits, message) in [
                (crate::ingest::Limits { max_bytes: 1 << 20, max_rows: 5 }, "holds more than 5 rows (lines)"),
                (crate::ingest::Limits { max_bytes: 200, max_rows: 100 }, "holds more than 200 bytes"),
            ] {
                let mut read = 0;
                let stream = Stream { reader: Box::new(clean.as_bytes()), gzip: false, limits };
                let err = each_streamed_record("m.jsonl", stream, 90, threads, |_, _: Memory| {
                    read += 1;
                    Ok(())
                })
                .unwrap_err();
                assert!(err.message.starts_with(message), "{threads} threads: {err}");
                let before = if limits.max_rows == 5 { 5 } else { 200 / good(0).len() };
                assert_eq!(read, before, "{threads} threads, {message}");
            }
        }
        assert_eq!(one_at_a_time(&clean).0.len(), 300);
        assert_eq!(one_at_a_time(&bad).1.unwrap().location.field.as_deref(), Some("raw"));
        assert_eq!(one_at_a_time(&refused).1.unwrap().message, "refused");
    }

    #[test]
    fn errors_name_line_and_field() {
        let e = parse::<Memory>("m.jsonl", 7, r#"{"memory_id":"a","anchors":"x","raw":"yes"}"#).unwrap_err();
        assert_eq!(e.location.line, Some(7));
        assert_eq!(e.location.field.as_deref(), Some("raw"));
        let e = parse::<Memory>("m.jsonl", 3, r#"{"memory_id":"a"}"#).unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("anchors"));
        assert!(e.message.contains("missing"));
        let e = parse::<Memory>("m.jsonl", 2, r#"{"memory_id":"a","anchors":["x"],}"#).unwrap_err();
        assert!(e.message.starts_with("not valid JSON"), "{}", e.message);
        let e = parse::<RunRecord>("r.jsonl", 9, r#"{"system":"s","ranked":["a",{"score":2}]}"#).unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("ranked[1].memory_id"), "{e}");
    }
}
