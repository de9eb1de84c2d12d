//! Qrels and runs as trec_eval reads them, plus the ranx / pytrec_eval dict-of-dicts JSON.
//!
//! TREC text (trec_eval 9.0.8 / 10.0 `get_qrels.c`, `get_trec_results.c`):
//! - qrels: `qid iter docno rel`, exactly four fields; `rel` an integer (negative: judged
//!   "unjudged", the pool was sampled).
//! - run: `qid Q0 docno rank sim runid`; fields after the sixth are ignored, `rank` is never
//!   read (trec_eval ranks by `sim`), the run id is the last line's.
//! - A line whose first non-blank character is `#` is a comment; blank lines are skipped. A
//!   docno may contain `#`.
//! - Queries are kept in byte order of their ids (trec_eval's `strcmp` order), judgments in
//!   byte order of their docnos.
//!
//! JSON (`ranx`, `pytrec_eval`, `ir_measures`): `{"qid": {"docno": value}}`; a qrels value is an
//! integer, a run value any finite number. A docno listed twice under one query is an error (a
//! JSON parser would keep only the last one, silently).
//!
//! Stricter than trec_eval, on purpose: a `sim` or `rel` that is not a number is refused with its
//! line (trec_eval's `atof`/`atol` read `abc` as 0); so are duplicate judgments, found when the
//! file is read.

use std::fmt;
use std::io::BufRead;

use compact_str::CompactString;
use rustc_hash::FxHashMap;
use serde::de::{self, DeserializeSeed, MapAccess, Visitor};

use crate::error::{IngestError, Location};
use crate::ingest::for_each_line;

/// Relevance values above this are refused (trec_eval allocates one counter per level).
pub const MAX_REL: i64 = 1_000_000;

/// What an IR-evaluation file holds, from its content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IrFileKind {
    TrecQrels,
    TrecRun,
    /// Dict-of-dicts JSON with a non-integer value: a run.
    JsonRun,
    /// Dict-of-dicts JSON whose values are all integers: qrels, or a run with integer scores.
    JsonIntegers,
}

/// One judged document.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgment {
    pub docno: CompactString,
    pub rel: i64,
    /// 1-based line in the file (0 in JSON).
    pub line: u32,
}

/// The judgments of one query, sorted by docno (bytes).
#[derive(Debug, Clone, PartialEq)]
pub struct QueryJudgments {
    pub qid: String,
    pub docs: Vec<Judgment>,
}

impl QueryJudgments {
    /// The relevance of `docno`, if judged.
    pub fn rel_of(&self, docno: &str) -> Option<i64> {
        self.docs.binary_search_by(|j| j.docno.as_str().cmp(docno)).ok().map(|i| self.docs[i].rel)
    }
}

/// A qrels file.
#[derive(Debug, Clone, PartialEq)]
pub struct Qrels {
    pub name: String,
    /// Sorted by qid (bytes).
    pub queries: Vec<QueryJudgments>,
    /// Comment lines skipped.
    pub comments: usize,
    pub lines: usize,
}

impl Qrels {
    pub fn query(&self, qid: &str) -> Option<&QueryJudgments> {
        self.queries.binary_search_by(|q| q.qid.as_str().cmp(qid)).ok().map(|i| &self.queries[i])
    }

    pub fn judgments(&self) -> usize {
        self.queries.iter().map(|q| q.docs.len()).sum()
    }
}

/// One retrieved document.
#[derive(Debug, Clone, PartialEq)]
pub struct Retrieved {
    pub docno: CompactString,
    pub sim: f64,
    /// 1-based line in the file (0 in JSON).
    pub line: u32,
}

/// The retrieved documents of one query, in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryResults {
    pub qid: String,
    pub docs: Vec<Retrieved>,
}

/// A run file.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub name: String,
    /// The run id: the last line's tag (trec_eval), or the file stem (JSON).
    pub runid: String,
    /// Sorted by qid (bytes).
    pub queries: Vec<QueryResults>,
    pub comments: usize,
    /// Lines with more than six fields (the extra fields are ignored, as trec_eval does).
    pub lines_with_extra_fields: usize,
    pub lines: usize,
}

impl Run {
    pub fn query(&self, qid: &str) -> Option<&QueryResults> {
        self.queries.binary_search_by(|q| q.qid.as_str().cmp(qid)).ok().map(|i| &self.queries[i])
    }

    pub fn retrieved(&self) -> usize {
        self.queries.iter().map(|q| q.docs.len()).sum()
    }
}

/// The lines of a TREC file that hold data: (1-based line number, line); comment and blank
/// lines skipped.
fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(i, l)| {
        let t = l.trim_start();
        (!t.is_empty() && !t.starts_with('#')).then_some((i + 1, l))
    })
}

/// The first `N` white-space separated fields of a line and how many there are in all, without
/// allocating (a 7M-line run is split 7M times). The fields are those of
/// `str::split_ascii_whitespace`; a field's end is found eight bytes at a time ([`field_end`]).
fn split_fields<const N: usize>(line: &str) -> ([&str; N], usize) {
    let bytes = line.as_bytes();
    let mut out = [""; N];
    let (mut n, mut i) = (0, 0);
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == bytes.len() {
            return (out, n);
        }
        let start = i;
        i = field_end(bytes, i);
        if n < N {
            // Both ends sit next to an ASCII byte or the line's ends: character boundaries.
            out[n] = &line[start..i];
        }
        n += 1;
    }
}

/// The first ASCII white-space byte at or after `from` (or the end). Eight bytes are looked at
/// together: `(w − 0x21…21) & !w & 0x80…80` marks a byte below `0x21` when every byte under it is
/// `0x21` or more (a borrow only runs upwards from a byte below `0x21`; a byte of `0x80` or more
/// keeps its mark off), so the lowest mark is the first byte below `0x21` — white space or some
/// other control byte, told apart by looking at it.
fn field_end(bytes: &[u8], from: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut i = from;
    while let Some(word) = bytes.get(i..i + 8) {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(word);
        let w = u64::from_le_bytes(eight);
        let marks = w.wrapping_sub(0x21 * ONES) & !w & (0x80 * ONES);
        if marks == 0 {
            i += 8;
            continue;
        }
        let at = i + (marks.trailing_zeros() / 8) as usize;
        if bytes[at].is_ascii_whitespace() {
            return at;
        }
        i = at + 1;
    }
    while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// Powers of ten that an `f64` holds exactly.
const EXACT_POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// A score as `str::parse::<f64>` reads it. Plain decimals of at most 15 digits (`12.345678`,
/// `-0.5`, `7`) are read here: their digits make an integer below 2⁵³ and their decimals a power
/// of ten below 10²³, both exact in an `f64`, so the one correctly rounded division is the
/// correctly rounded value (Clinger's fast path). Anything else (exponents, more digits, `inf`,
/// errors) is left to `str::parse`. Scores are most of a run's bytes after its ids.
fn parse_score(text: &str) -> Result<f64, std::num::ParseFloatError> {
    let bytes = text.as_bytes();
    let (negative, body) = match bytes.first() {
        Some(b'-') => (true, &bytes[1..]),
        Some(b'+') => (false, &bytes[1..]),
        _ => (false, bytes),
    };
    let (mut mantissa, mut digits, mut point) = (0u64, 0usize, None::<usize>);
    for (i, &c) in body.iter().enumerate() {
        match c {
            b'0'..=b'9' if digits < 15 => {
                mantissa = mantissa * 10 + u64::from(c - b'0');
                digits += 1;
            }
            b'.' if point.is_none() => point = Some(i),
            _ => return text.parse(),
        }
    }
    if digits == 0 {
        return text.parse();
    }
    let decimals = point.map_or(0, |p| body.len() - p - 1);
    let value = mantissa as f64 / EXACT_POWERS_OF_TEN[decimals];
    Ok(if negative { -value } else { value })
}

/// Detects an IR-evaluation file from its content (`None`: neither TREC nor dict-of-dicts JSON).
pub fn detect(text: &str) -> Option<IrFileKind> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') {
        return detect_json(text);
    }
    let (_, first) = data_lines(text).next()?;
    let fields: Vec<&str> = first.split_ascii_whitespace().collect();
    match fields.len() {
        4 if parse_rel(fields[3]).is_some() => Some(IrFileKind::TrecQrels),
        n if n >= 6 && fields[4].parse::<f64>().is_ok() => Some(IrFileKind::TrecRun),
        _ => None,
    }
}

/// Whether the first data lines of `text` all read as `kind` says (TREC lines only; a JSON
/// document is taken as detected): for a release's routing by content, where [`detect`]'s look
/// at the first line would take any four-column text ending in a number for qrels. Qrels lines
/// have four fields, an iteration that is a number or `Q0` and an integer relevance; run lines six
/// or more fields with a numeric score. trec_eval itself ignores the iteration: a file given to
/// trec-eval by hand is still read by [`detect`].
fn plausible(text: &str, kind: IrFileKind) -> bool {
    const LINES: usize = 50;
    const RUN_FIELDS_AT_MOST: usize = 10;
    let iteration = |f: &str| f.eq_ignore_ascii_case("q0") || f.parse::<i64>().is_ok();
    let line_ok = |l: &str| {
        let (f, n) = split_fields::<5>(l);
        match kind {
            IrFileKind::TrecQrels => n == 4 && iteration(f[1]) && parse_rel(f[3]).is_some(),
            // trec_eval reads six fields; a few more are tolerated, a token list is no run.
            IrFileKind::TrecRun => (6..=RUN_FIELDS_AT_MOST).contains(&n) && f[4].parse::<f64>().is_ok(),
            IrFileKind::JsonRun | IrFileKind::JsonIntegers => true,
        }
    };
    data_lines(text).take(LINES).all(|(_, l)| line_ok(l))
}

/// [`detect`] for routing by content: the kind only when the first data lines all read so
/// ([`plausible`]).
pub fn detect_routed(text: &str) -> Option<IrFileKind> {
    detect(text).filter(|&kind| plausible(text, kind))
}

/// The query ids of a qrels or run file (TREC lines: each line's first field; dict-of-dicts
/// JSON: its keys); `None` when it is neither or cannot be read. One pass, no judgment kept.
pub fn query_ids(text: &str) -> Option<std::collections::HashSet<String>> {
    match detect(text)? {
        IrFileKind::TrecQrels | IrFileKind::TrecRun => {
            Some(data_lines(text).filter_map(|(_, l)| l.split_ascii_whitespace().next()).map(str::to_string).collect())
        }
        // Its keys only: the documents under each are passed over, never kept.
        IrFileKind::JsonRun | IrFileKind::JsonIntegers => {
            serde_json::from_str::<std::collections::HashMap<String, de::IgnoredAny>>(text)
                .ok()
                .map(|m| m.into_keys().collect())
        }
    }
}

/// A dict-of-dicts document (checked on a bounded prefix: the first query's documents).
fn detect_json(text: &str) -> Option<IrFileKind> {
    let head = {
        let mut end = text.len().min(64 * 1024);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        &text[..end]
    };
    let mut de = serde_json::Deserializer::from_str(head);
    let mut probe = Probe::default();
    // The prefix may end mid-document: what was seen before the cut decides.
    let _ = de::Deserializer::deserialize_map(&mut de, ProbeOuter(&mut probe));
    match (probe.queries, probe.numbers, probe.non_integer, probe.other) {
        (q, n, _, false) if q > 0 && n > 0 => {
            Some(if probe.non_integer { IrFileKind::JsonRun } else { IrFileKind::JsonIntegers })
        }
        _ => None,
    }
}

#[derive(Default)]
struct Probe {
    queries: usize,
    numbers: usize,
    non_integer: bool,
    other: bool,
}

struct ProbeOuter<'a>(&'a mut Probe);

impl<'de> Visitor<'de> for ProbeOuter<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object of objects")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(_k) = map.next_key::<de::IgnoredAny>()? {
            self.0.queries += 1;
            map.next_value_seed(ProbeInner(self.0))?;
        }
        Ok(())
    }
}

struct ProbeInner<'a>(&'a mut Probe);

impl<'de> DeserializeSeed<'de> for ProbeInner<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ProbeInner<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object of numbers")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(_k) = map.next_key::<de::IgnoredAny>()? {
            match map.next_value::<serde_json::Value>()? {
                serde_json::Value::Number(n) => {
                    self.0.numbers += 1;
                    if n.as_i64().is_none() && n.as_u64().is_none() {
                        self.0.non_integer = true;
                    }
                }
                _ => self.0.other = true,
            }
        }
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.0.other = true;
        Ok(())
    }
}

/// An integer relevance (`2`, `2.0`); `None` for anything else.
fn parse_rel(s: &str) -> Option<i64> {
    if let Ok(v) = s.parse::<i64>() {
        return Some(v);
    }
    let v: f64 = s.parse().ok()?;
    (v.is_finite() && v.fract() == 0.0 && v.abs() < 9.0e15).then_some(v as i64)
}

fn check_rel(file: &str, line: usize, field_text: &str) -> Result<i64, IngestError> {
    let at = || Location::line(file, line).with_field("rel");
    let rel = parse_rel(field_text).ok_or_else(|| {
        IngestError::new(
            at(),
            format!(
                "`{field_text}` is not an integer relevance value (trec_eval reads the integer \
                 part only: write the judgment as an integer)"
            ),
        )
    })?;
    if rel > MAX_REL {
        return Err(IngestError::new(at(), format!("relevance {rel} is above the largest supported value {MAX_REL}")));
    }
    Ok(rel)
}

/// One data line of a TREC qrels file, as trec_eval reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QrelsLine<'a> {
    pub line: usize,
    pub qid: &'a str,
    /// The second field (trec_eval's `iter`, ignored in the `qrels` format).
    pub iter: &'a str,
    pub docno: &'a str,
    pub rel: i64,
}

/// One data line of a qrels file, checked (comments and blank lines are the caller's:
/// [`comment_or_blank`]).
pub(crate) fn qrels_line<'a>(name: &str, line_no: usize, line: &'a str) -> Result<QrelsLine<'a>, IngestError> {
    let (f, count) = split_fields::<4>(line);
    if count != 4 {
        let hint = if count >= 6 { " — this looks like a run line; give the qrels first, then the run" } else { "" };
        return Err(IngestError::new(
            Location::line(name, line_no),
            format!("a qrels line has 4 fields (qid iter docno rel), this one has {count}{hint}"),
        ));
    }
    Ok(QrelsLine { line: line_no, qid: f[0], iter: f[1], docno: f[2], rel: check_rel(name, line_no, f[3])? })
}

/// `Some(true)` for a comment line, `Some(false)` for a blank one, `None` for a data line.
pub(crate) fn comment_or_blank(line: &str) -> Option<bool> {
    let t = line.trim_start();
    if t.is_empty() { Some(false) } else { t.starts_with('#').then_some(true) }
}

/// Whether a stream's first non-blank byte opens a JSON object (looked at in the buffered
/// prefix, nothing consumed).
fn opens_json_object(reader: &mut dyn BufRead, name: &str) -> Result<bool, IngestError> {
    let buf = reader.fill_buf().map_err(|e| crate::ingest::unreadable(name, &[], &e))?;
    let buf = buf.strip_prefix(crate::ingest::UTF8_BOM).unwrap_or(buf);
    Ok(buf.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{'))
}

/// The whole of a stream as text (a JSON document is parsed whole), refused past `max_bytes`.
fn stream_text(name: &str, reader: &mut dyn BufRead, max_bytes: u64) -> Result<String, IngestError> {
    let bytes = crate::ingest::read_text_at_most(name, reader, max_bytes)?;
    Ok(crate::ingest::decode_within(name, &bytes, max_bytes)?.0.into_owned())
}

/// Reads a qrels file (TREC text or dict-of-dicts JSON).
pub fn read_qrels(name: &str, text: &str) -> Result<Qrels, IngestError> {
    if text.trim_start().starts_with('{') {
        return read_json_qrels(name, text);
    }
    read_qrels_from(name, &mut text.as_bytes(), u64::MAX)
}

/// Reads a qrels file from a stream, one line at a time (a JSON document is read whole, up to
/// `max_bytes`).
pub fn read_qrels_from(name: &str, reader: &mut dyn BufRead, max_bytes: u64) -> Result<Qrels, IngestError> {
    if opens_json_object(reader, name)? {
        return read_json_qrels(name, &stream_text(name, reader, max_bytes)?);
    }
    let mut index: FxHashMap<String, usize> = FxHashMap::default();
    let mut queries: Vec<QueryJudgments> = Vec::new();
    let (mut n, mut comments) = (0, 0);
    // The second field's first value, and whether another follows (judgment groups).
    let (mut first_iter, mut several_iters) = (None::<String>, false);
    for_each_line(name, reader, |line_no, line| {
        if let Some(comment) = comment_or_blank(line) {
            comments += comment as usize;
            return Ok(());
        }
        let l = qrels_line(name, line_no, line)?;
        match &first_iter {
            None => first_iter = Some(l.iter.to_string()),
            Some(f) => several_iters |= f != l.iter,
        }
        let qi = match index.get(l.qid) {
            Some(&qi) => qi,
            None => {
                queries.push(QueryJudgments { qid: l.qid.to_string(), docs: Vec::new() });
                index.insert(l.qid.to_string(), queries.len() - 1);
                queries.len() - 1
            }
        };
        queries[qi].docs.push(Judgment { docno: l.docno.into(), rel: l.rel, line: l.line as u32 });
        n += 1;
        Ok(())
    })?;
    if n == 0 {
        return Err(IngestError::new(Location::file(name), "the qrels file has no judgments"));
    }
    finish_qrels(name, queries, comments, n, several_iters)
}

/// `several_iters`: the second field takes several values (said with a repeated judgment: the
/// lines are likely judgment groups, trec_eval's `-R qrels_jg`).
fn finish_qrels(
    name: &str,
    mut queries: Vec<QueryJudgments>,
    comments: usize,
    lines: usize,
    several_iters: bool,
) -> Result<Qrels, IngestError> {
    queries.sort_by(|a, b| a.qid.cmp(&b.qid));
    for q in &mut queries {
        q.docs.sort_by(|a, b| a.docno.cmp(&b.docno).then(a.line.cmp(&b.line)));
        if let Some(w) = q.docs.windows(2).find(|w| w[0].docno == w[1].docno) {
            let at = if w[1].line > 0 { Location::line(name, w[1].line as usize) } else { Location::file(name) };
            return Err(IngestError::new(
                at.with_field("docno"),
                format!(
                    "query `{}` judges document `{}` twice{} (trec_eval refuses duplicate judgments: keep one){}",
                    q.qid,
                    w[0].docno,
                    if w[0].line > 0 { format!(" (also line {})", w[0].line) } else { String::new() },
                    if several_iters {
                        "; the second field takes several values here: these look like judgment groups of several \
                         assessors (trec_eval's `-R qrels_jg`), which is not read here: keep one group's lines"
                    } else {
                        ""
                    }
                ),
            ));
        }
    }
    Ok(Qrels { name: name.to_string(), queries, comments, lines })
}

/// One data line of a TREC run file, as trec_eval reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunLine<'a> {
    pub line: usize,
    pub qid: &'a str,
    pub docno: &'a str,
    /// The rank column as written (trec_eval never reads it).
    pub rank: &'a str,
    pub sim: f64,
    pub tag: &'a str,
    /// Fields after the sixth were present (and are ignored).
    pub extra_fields: bool,
}

/// One data line of a run file, checked.
pub(crate) fn run_line<'a>(name: &str, line_no: usize, line: &'a str) -> Result<RunLine<'a>, IngestError> {
    let (f, count) = split_fields::<6>(line);
    if count < 6 {
        let hint =
            if count == 4 { " — this looks like a qrels line; give the qrels first, then the run" } else { "" };
        return Err(IngestError::new(
            Location::line(name, line_no),
            format!("a run line has 6 fields (qid Q0 docno rank sim runid), this one has {count}{hint}"),
        ));
    }
    let sim: f64 = parse_score(f[4]).map_err(|_| {
        IngestError::new(Location::line(name, line_no).with_field("sim"), format!("`{}` is not a number", f[4]))
    })?;
    if !sim.is_finite() {
        return Err(IngestError::new(Location::line(name, line_no).with_field("sim"), "is not a finite number"));
    }
    Ok(RunLine { line: line_no, qid: f[0], docno: f[2], rank: f[3], sim, tag: f[5], extra_fields: count > 6 })
}

/// Reads a run file (TREC text or dict-of-dicts JSON; the JSON run id is the file stem).
pub fn read_run(name: &str, text: &str) -> Result<Run, IngestError> {
    if text.trim_start().starts_with('{') {
        return read_json_run(name, text);
    }
    read_run_from(name, &mut text.as_bytes(), u64::MAX)
}

/// Reads a run file from a stream, one line at a time: a 264 MB run is never held whole (a JSON
/// document is read whole, up to `max_bytes`). Only the retrieved documents are kept, one compact
/// string each; a query whose documents stand in several places of the file has them all, in file
/// order.
pub fn read_run_from(name: &str, reader: &mut dyn BufRead, max_bytes: u64) -> Result<Run, IngestError> {
    if opens_json_object(reader, name)? {
        return read_json_run(name, &stream_text(name, reader, max_bytes)?);
    }
    let mut index: FxHashMap<String, usize> = FxHashMap::default();
    let mut queries: Vec<QueryResults> = Vec::new();
    let facts = read_run_blocks(name, reader, max_bytes, &mut |qid, docs| {
        match index.get(qid) {
            Some(&qi) => queries[qi].docs.append(docs),
            None => {
                index.insert(qid.to_string(), queries.len());
                queries.push(QueryResults { qid: qid.to_string(), docs: std::mem::take(docs) });
            }
        }
        Ok(Flow::Go)
    })?
    .ok_or_else(|| IngestError::new(Location::file(name), "the run was not read to its end"))?;
    queries.sort_by(|a, b| a.qid.cmp(&b.qid));
    Ok(Run {
        name: facts.name,
        runid: facts.runid,
        queries,
        comments: facts.comments,
        lines_with_extra_fields: facts.lines_with_extra_fields,
        lines: facts.lines,
    })
}

/// What a run file holds besides its rankings.
#[derive(Debug, Clone, PartialEq)]
pub struct RunFacts {
    pub name: String,
    /// The last line's tag (trec_eval), or the file stem (JSON).
    pub runid: String,
    pub comments: usize,
    /// Lines with more than six fields (the extra fields are ignored, as trec_eval does).
    pub lines_with_extra_fields: usize,
    /// Data lines: the documents retrieved.
    pub lines: usize,
}

/// What the consumer of a query block says: read on, or stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Go,
    Stop,
}

/// The consumer of a run's query blocks ([`read_run_blocks`]).
pub type QueryBlock<'a> = dyn FnMut(&str, &mut Vec<Retrieved>) -> Result<Flow, IngestError> + 'a;

/// Reads a run one query block at a time, so that a caller can use each query's ranking and
/// forget it: `each(qid, docs)` is called each time the run's query changes, and at the end, with
/// that block's documents in file order (the caller may take them). A query whose lines are not
/// together in the file comes in several blocks: telling them apart is the caller's. A JSON run is
/// read whole and given one block per query, in id order. `Ok(None)` when `each` stopped.
pub fn read_run_blocks(
    name: &str,
    reader: &mut dyn BufRead,
    max_bytes: u64,
    each: &mut QueryBlock<'_>,
) -> Result<Option<RunFacts>, IngestError> {
    if opens_json_object(reader, name)? {
        let mut run = read_json_run(name, &stream_text(name, reader, max_bytes)?)?;
        for q in &mut run.queries {
            if each(&q.qid, &mut q.docs)? == Flow::Stop {
                return Ok(None);
            }
        }
        return Ok(Some(RunFacts {
            name: run.name,
            runid: run.runid,
            comments: run.comments,
            lines_with_extra_fields: run.lines_with_extra_fields,
            lines: run.lines,
        }));
    }
    super::run_pieces::read_run_in_pieces(name, reader, super::run_pieces::PIECE_BYTES, each)
}

/// `{qid: {docno: value}}` as read, in file order.
pub type DictOfDicts = Vec<(String, Vec<(String, f64)>)>;

/// `{qid: {docno: value}}` with its values as read (line 0: JSON has no line per entry).
pub fn read_dict_of_dicts(name: &str, text: &str, integers: bool) -> Result<DictOfDicts, IngestError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let read = de::Deserializer::deserialize_map(&mut de, Outer { integers }).and_then(|v| de.end().map(|_| v));
    read.map_err(|e| {
        let line = e.line();
        let msg = crate::ingest::records::strip_position(&e);
        let loc = if line > 0 { Location::line(name, line) } else { Location::file(name) };
        IngestError::new(
            loc,
            format!("{msg} (expected {{\"qid\": {{\"docno\": {}}}}})", if integers { "rel" } else { "score" }),
        )
    })
}

struct Outer {
    integers: bool,
}

impl<'de> Visitor<'de> for Outer {
    type Value = DictOfDicts;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object {\"qid\": {\"docno\": number}}")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out: DictOfDicts = Vec::new();
        let mut seen: FxHashMap<String, ()> = FxHashMap::default();
        while let Some(qid) = map.next_key::<String>()? {
            if seen.insert(qid.clone(), ()).is_some() {
                return Err(de::Error::custom(format!("query `{qid}` appears twice")));
            }
            let docs = map.next_value_seed(Inner { qid: &qid, integers: self.integers })?;
            out.push((qid, docs));
        }
        Ok(out)
    }
}

struct Inner<'a> {
    qid: &'a str,
    integers: bool,
}

impl<'de> DeserializeSeed<'de> for Inner<'_> {
    type Value = Vec<(String, f64)>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Inner<'_> {
    type Value = Vec<(String, f64)>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "an object {{\"docno\": number}} for query `{}`", self.qid)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut docs = Vec::new();
        let mut seen: FxHashMap<String, ()> = FxHashMap::default();
        while let Some(doc) = map.next_key::<String>()? {
            let v: f64 = map.next_value().map_err(|_: A::Error| {
                de::Error::custom(format!("query `{}`, document `{doc}`: the value is not a number", self.qid))
            })?;
            if !v.is_finite() {
                return Err(de::Error::custom(format!(
                    "query `{}`, document `{doc}`: the value is not finite",
                    self.qid
                )));
            }
            if self.integers && v.fract() != 0.0 {
                return Err(de::Error::custom(format!(
                    "query `{}`, document `{doc}`: relevance {v} is not an integer",
                    self.qid
                )));
            }
            if seen.insert(doc.clone(), ()).is_some() {
                return Err(de::Error::custom(format!(
                    "query `{}` lists document `{doc}` twice (a JSON reader would keep only the last value)",
                    self.qid
                )));
            }
            docs.push((doc, v));
        }
        Ok(docs)
    }
}

fn read_json_qrels(name: &str, text: &str) -> Result<Qrels, IngestError> {
    let dict = read_dict_of_dicts(name, text, true)?;
    let mut lines = 0;
    let mut queries = Vec::with_capacity(dict.len());
    for (qid, docs) in dict {
        let mut judged = Vec::with_capacity(docs.len());
        for (docno, rel) in docs {
            if rel > MAX_REL as f64 {
                return Err(IngestError::new(
                    Location::file(name).with_field(format!("{qid}.{docno}")),
                    format!("relevance {rel} is above the largest supported value {MAX_REL}"),
                ));
            }
            judged.push(Judgment { docno: docno.into(), rel: rel as i64, line: 0 });
            lines += 1;
        }
        queries.push(QueryJudgments { qid, docs: judged });
    }
    if lines == 0 {
        return Err(IngestError::new(Location::file(name), "the qrels file has no judgments"));
    }
    finish_qrels(name, queries, 0, lines, false)
}

fn read_json_run(name: &str, text: &str) -> Result<Run, IngestError> {
    let dict = read_dict_of_dicts(name, text, false)?;
    let mut queries: Vec<QueryResults> = dict
        .into_iter()
        .map(|(qid, docs)| QueryResults {
            qid,
            docs: docs.into_iter().map(|(docno, sim)| Retrieved { docno: docno.into(), sim, line: 0 }).collect(),
        })
        .collect();
    let lines = queries.iter().map(|q| q.docs.len()).sum();
    if lines == 0 {
        return Err(IngestError::new(Location::file(name), "the run has no results"));
    }
    queries.sort_by(|a, b| a.qid.cmp(&b.qid));
    Ok(Run {
        name: name.to_string(),
        runid: crate::ingest::file_stem(name),
        queries,
        comments: 0,
        lines_with_extra_fields: 0,
        lines,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_qrels_stream_cut_short_names_the_line_it_breaks_off_in() {
        use std::io::Write;
        // `{"q0": {"d…": 1},` one query a line, then `}`.
        let lines: Vec<String> =
            (0..4000u64).map(|i| format!("\"q{i}\": {{\"d{}\": 1}}", i.wrapping_mul(2654435761) % 100_003)).collect();
        let text = format!("{{{}\n}}\n", lines.join(",\n"));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(text.as_bytes()).unwrap();
        let mut cut = gz.finish().unwrap();
        cut.truncate(cut.len() / 2);
        let mut reader = std::io::BufReader::new(flate2::read::GzDecoder::new(&cut[..]));
        let e = read_qrels_from("q.json.gz", &mut reader, 1 << 30).unwrap_err();
        let line = e.location.line.expect("a line");
        assert!(line > 100 && line < 4000, "{e}");
        assert!(e.message.starts_with("could not be read (after "), "{e}");
    }

    #[test]
    fn comments_extra_fields_and_hash_in_docnos() {
        let run = read_run(
            "r",
            "# a comment\n  # indented comment\n1 Q0 doc#3 1 2.5 tagA extra field\n\n1 Q0 d2 2 1.5 tagB\n",
        )
        .unwrap();
        assert_eq!((run.comments, run.lines_with_extra_fields, run.lines), (2, 1, 2));
        assert_eq!(run.runid, "tagB", "the last line's run id, as trec_eval");
        assert_eq!(run.queries[0].docs[0].docno, "doc#3");
        let q = read_qrels("q", "# c\n1 0 doc#3 2\n1 0 a -1\n").unwrap();
        assert_eq!(q.queries[0].docs.iter().map(|d| d.docno.as_str()).collect::<Vec<_>>(), ["a", "doc#3"]);
        assert_eq!(q.queries[0].rel_of("doc#3"), Some(2));
    }

    #[test]
    fn a_run_is_given_by_query_block_in_file_order() {
        let text = "# c\n1 Q0 a 1 2 R\n1 Q0 b 2 1 R\n2 Q0 c 1 1 R\n\n1 Q0 d 3 0 S\n";
        let mut blocks: Vec<(String, Vec<String>)> = Vec::new();
        let facts = read_run_blocks("r", &mut text.as_bytes(), u64::MAX, &mut |q, docs| {
            blocks.push((q.to_string(), docs.iter().map(|d| d.docno.to_string()).collect()));
            Ok(Flow::Go)
        })
        .unwrap()
        .unwrap();
        let want = [("1", vec!["a", "b"]), ("2", vec!["c"]), ("1", vec!["d"])];
        assert_eq!(blocks, want.map(|(q, d)| (q.to_string(), d.into_iter().map(String::from).collect())));
        assert_eq!((facts.runid.as_str(), facts.comments, facts.lines), ("S", 1, 4));
        // The held reader puts the blocks of one query together, in file order.
        let run = read_run("r", text).unwrap();
        assert_eq!(run.queries[0].docs.iter().map(|d| d.docno.as_str()).collect::<Vec<_>>(), ["a", "b", "d"]);
        // Stopped at the second block: nothing more is read or refused.
        let mut seen = 0;
        let stopped = read_run_blocks("r", &mut format!("{text}x\n").as_bytes(), u64::MAX, &mut |_, _| {
            seen += 1;
            Ok(if seen == 2 { Flow::Stop } else { Flow::Go })
        });
        assert_eq!((stopped.unwrap(), seen), (None, 2));
        // A JSON run comes one block per query, in id order.
        let mut qids = Vec::new();
        read_run_blocks("r.json", &mut &br#"{"b": {"x": 1.5}, "a": {"y": 0.5}}"#[..], u64::MAX, &mut |q, _| {
            qids.push(q.to_string());
            Ok(Flow::Go)
        })
        .unwrap();
        assert_eq!(qids, ["a", "b"]);
    }

    #[test]
    fn refusals_name_line_and_field() {
        let e = read_qrels("q", "1 0 a 1\n1 0 b x\n").unwrap_err();
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("rel")));
        let e = read_qrels("q", "1 0 a 1\n1 0 a 0\n").unwrap_err();
        assert!(e.message.contains("twice") && e.message.contains("line 1"), "{}", e.message);
        assert!(!e.message.contains("judgment groups"), "{}", e.message);
        // trec_eval's `qrels.123`: the same document under iterations 0, 1, 2 (three assessors).
        let e = read_qrels("qrels.123", "301 0 a 0\n301 0 b 1\n301 1 a 1\n").unwrap_err();
        assert_eq!(e.location.line, Some(3));
        assert!(e.message.contains("judgment groups") && e.message.contains("-R qrels_jg"), "{}", e.message);
        let e = read_run("r", "1 Q0 a 1 x t\n").unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("sim"));
        let e = read_qrels("q", "1 Q0 a 1 0.5 t\n").unwrap_err();
        assert!(e.message.contains("run line"), "{}", e.message);
        let e = read_run("r", "1 0 a 1\n").unwrap_err();
        assert!(e.message.contains("qrels line"), "{}", e.message);
        assert!(read_qrels("q", "1 0 a 0.5\n").unwrap_err().message.contains("integer"));
        assert!(read_qrels("q", "# only\n").unwrap_err().message.contains("no judgments"));
    }

    #[test]
    fn dict_of_dicts_json() {
        let q = read_qrels("qrels.json", r#"{"q2": {"d1": 1}, "q1": {"d3": 3, "d1": 0}}"#).unwrap();
        assert_eq!(q.queries[0].qid, "q1");
        assert_eq!(q.queries[0].docs[0].docno, "d1");
        let r = read_run("dir/run.json", r#"{"q1": {"d3": 0.3, "d1": 0.1}}"#).unwrap();
        assert_eq!(r.runid, "run");
        assert_eq!(r.queries[0].docs.len(), 2);
        let e = read_run("r.json", "{\"q1\": {\"d1\": 0.3,\n \"d1\": 0.2}}").unwrap_err();
        assert!(e.message.contains("twice") && e.location.line == Some(2), "{e}");
        assert!(read_qrels("q.json", r#"{"q1": {"d1": 0.5}}"#).unwrap_err().message.contains("integer"));
        assert!(read_run("r.json", r#"{"q1": {"d1": "x"}}"#).unwrap_err().message.contains("not a number"));
    }

    /// Scores in the shapes runs print them, and shapes around the fast path's edges.
    fn score_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        prop_oneof![
            // Plain decimals, 1 to 20 digits (the fast path stops at 15), a point anywhere.
            ("[-+]?", "[0-9]{1,20}", proptest::option::of(0usize..21)).prop_map(|(sign, digits, point)| {
                match point {
                    Some(p) if p <= digits.len() => format!("{sign}{}.{}", &digits[..p], &digits[p..]),
                    _ => format!("{sign}{digits}"),
                }
            }),
            // Exponents, special values, and text that is not a number.
            "[-+]?[0-9]{0,4}(\\.[0-9]{0,4})?([eE][-+]?[0-9]{1,3})?",
            "[-+.0-9eEinfatyINFATY]{0,8}",
            any::<f64>().prop_map(|x| x.to_string()),
            any::<f32>().prop_map(|x| format!("{x:.6}")),
        ]
    }

    proptest::proptest! {
        #[test]
        fn scores_are_read_as_str_parse_reads_them(text in score_text()) {
            let ours = parse_score(&text).map(f64::to_bits).map_err(|e| e.to_string());
            let std = text.parse::<f64>().map(f64::to_bits).map_err(|e| e.to_string());
            proptest::prop_assert_eq!(ours, std, "{}", text);
        }

        #[test]
        fn fields_are_those_of_split_ascii_whitespace(line in "[a-c \t\x0c\r\x01\x1f!\u{e9}\u{a0}\u{2003}]{0,40}") {
            let want: Vec<&str> = line.split_ascii_whitespace().collect();
            let (first, n) = split_fields::<3>(&line);
            proptest::prop_assert_eq!(n, want.len());
            for (i, f) in first.iter().enumerate() {
                proptest::prop_assert_eq!(*f, want.get(i).copied().unwrap_or(""));
            }
        }
    }

    #[test]
    fn a_fields_end_is_the_first_white_space_byte_whatever_the_bytes_around_it() {
        let first_white =
            |b: &[u8], from: usize| (from..b.len()).find(|&i| b[i].is_ascii_whitespace()).unwrap_or(b.len());
        for len in 0..20 {
            for at in 0..len {
                for byte in 0..=255u8 {
                    // Every byte at every place, after plain bytes, control bytes or high bytes.
                    for fill in [b'a', 0x01, 0x20, 0x80, 0xff] {
                        let mut b = vec![fill; len];
                        b[at] = byte;
                        for from in [0, at] {
                            assert_eq!(field_end(&b, from), first_white(&b, from), "{b:?} from {from}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn scores_at_the_fast_paths_edges() {
        for text in [
            "0",
            "-0",
            "-0.0",
            "+0.5",
            "0.1",
            "100.000000",
            "99.950123",
            "123456789012345",
            "1234567890123456",
            "0.000000000000001",
            "0.0000000000000001",
            "9007199254740993",
            ".5",
            "5.",
            ".",
            "-",
            "+",
            "",
            "1.2.3",
            "1e5",
            "inf",
            "NaN",
            "12345678901234.5",
            "999999999999999",
        ] {
            let ours = parse_score(text).map(f64::to_bits).map_err(|e| e.to_string());
            assert_eq!(ours, text.parse::<f64>().map(f64::to_bits).map_err(|e| e.to_string()), "{text}");
        }
    }

    #[test]
    fn detection() {
        assert_eq!(detect("# c\n1 0 a 1\n"), Some(IrFileKind::TrecQrels));
        // Four columns ending in a number are not qrels for routing unless the iteration is one.
        let config = "# agent dataset backbone n\nrag.yaml data/qa.yaml gpt-4.1-mini 100\n";
        assert_eq!(detect(config), Some(IrFileKind::TrecQrels));
        assert!(!plausible(config, IrFileKind::TrecQrels));
        assert!(plausible("1 0 a 1\n1 Q0 b 0\n2 00 c 2\n", IrFileKind::TrecQrels));
        assert!(!plausible("1 0 a 1\n1 0 b\n", IrFileKind::TrecQrels));
        assert!(plausible("1 Q0 a 1 2.5 r\n1 Q0 b 2 1 r\n", IrFileKind::TrecRun));
        assert!(!plausible("1 Q0 a 1 2.5 r\n1 Q0 b 2 x r\n", IrFileKind::TrecRun));
        // A SPLADE topic (a query id and its weighted tokens, repeated) whose tokens are numbers.
        assert_eq!(detect("2000138\t1 1 1 1 1 1 1 1 1 1 1 1\n"), Some(IrFileKind::TrecRun));
        assert!(!plausible("2000138\t1 1 1 1 1 1 1 1 1 1 1 1\n", IrFileKind::TrecRun));
        assert_eq!(detect("1 Q0 a 1 2.0 t x y\n"), Some(IrFileKind::TrecRun));
        assert_eq!(detect(r#"{"q": {"d": 0.5}}"#), Some(IrFileKind::JsonRun));
        assert_eq!(detect(r#"{"q": {"d": 1, "e": 0}}"#), Some(IrFileKind::JsonIntegers));
        assert_eq!(detect(r#"{"memories": []}"#), None);
        assert_eq!(detect("hello world\n"), None);
    }
}
