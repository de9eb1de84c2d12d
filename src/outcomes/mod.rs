//! Per-item outcomes of several arms (systems, memory policies, configurations) run on the same
//! items, read into long-form rows and validated as an item × arm matrix before any paired
//! test (see `docs/outcomes.md`).
//!
//! ```text
//! bytes ──ingest::decode──► text ──detect_outcome_format──► OutcomeFormat
//!       ──read_outcomes──► OutcomeTable (rows: every column as text + numeric values, line)
//!       ──infer_spec (or the user's Spec)──► Spec { key, arm, value, strata, judgment }
//!       ──pair / pair_for_test──► Paired { arms, items, values[item][arm], strata, report }
//! ```
//!
//! Readers never panic on user input: a malformed record is an [`IngestError`] naming the
//! file, line and field, and every convention applied (missing markers, arms taken from file
//! names, ineligible metrics) is a counted [`OutcomeWarnings`] entry.

mod advice;
pub mod inspect;
pub mod instance;
mod json;
pub mod judgments;
pub mod locomo;
pub mod mtel_trace;
pub mod pairing;
pub mod position;
pub mod spec;
pub(crate) mod tabular;
mod unpaired;
pub mod warnings;

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::audit::PerQueryRow;
use crate::choice::Choice;
use crate::error::{IngestError, Location};
use crate::ingest::{InputFile, Limits, file_stem};

pub use pairing::{
    ArmCoverage, DuplicateExample, Duplicates, DuplicatesSummary, Paired, PairingError, PairingOptions, PairingReport,
    pair, pair_for_test,
};
pub use spec::{JudgmentChoice, Spec, infer_spec};
pub use unpaired::{ArmValues, UnpairedValues, arm_values, group_label};
pub use warnings::{OutcomeWarning, OutcomeWarningKind, OutcomeWarnings};

crate::choice! {
    /// Every outcomes layout memaudit reads (detected from the content, or forced by the caller
    /// with [`ReadOptions::format`]), in the order detection considers them.
    pub enum OutcomeFormat {
        /// memaudit's own rescoring per-query rows (`memaudit rescore --format json`, its
        /// `per_query` array, JSONL of those rows, or the `per_query` CSV table).
        RescorePerQuery,
        /// Per-question judge records `{"question_id", "llm_judgments": {"judgment_1": true, …}}`.
        JudgeFile,
        /// reclaim-eval result JSONL (`pid`, `seed`, `policy` / `variant` / `arm`, `correct`, …).
        ReclaimEval,
        /// MTEL-Mem per-query records CSV (`run_id, query_index, {raw,source,canonical}_{metric}`).
        MtelRecords,
        /// MTEL-Mem per-query pipeline traces (JSONL: `query_index`, `returned_ids_topk`,
        /// `hit_ranks`, `f1_generated`, …), one run per file.
        MtelTrace,
        /// CSV `item, arm1, arm2, …`: the first column is the item, every other column an arm.
        WideCsv,
        /// CSV with a header row, one row per (item, arm): item columns, an arm column, values.
        LongCsv,
        /// JSON Lines (or a JSON array) of flat or nested objects, one per (item, arm).
        LongJson,
        /// An Inspect AI log: the `.eval` archive (zip) or the one-document `.json` log.
        InspectLog,
        /// LoCoMo answer files (mem0 `evals.py` family, MemOS/EverMemOS, Zep, …): records
        /// grouped by conversation, paired by (conversation, position).
        LocomoAnswers,
    }
}

impl OutcomeFormat {
    /// Parses a name as written by [`Choice::name`]; `-` may replace `_`.
    pub fn parse(s: &str) -> Option<OutcomeFormat> {
        <OutcomeFormat as Choice>::parse(&s.trim().to_ascii_lowercase().replace('-', "_"))
    }

    /// A human description for the reading summary.
    pub fn describe(self) -> &'static str {
        match self {
            OutcomeFormat::LongCsv => "long CSV (one row per item and arm)",
            OutcomeFormat::WideCsv => "wide CSV (first column the item, one column per arm)",
            OutcomeFormat::LongJson => "long JSON Lines (one object per item and arm)",
            OutcomeFormat::ReclaimEval => "reclaim-eval results (JSONL)",
            OutcomeFormat::JudgeFile => "per-question LLM-judge records (llm_judgments)",
            OutcomeFormat::MtelRecords => "MTEL-Mem per-query records (CSV)",
            OutcomeFormat::MtelTrace => "MTEL-Mem per-query pipeline trace (JSONL: returned ids, hit ranks, answer F1)",
            OutcomeFormat::RescorePerQuery => "memaudit rescoring per-query rows",
            OutcomeFormat::InspectLog => "Inspect AI evaluation log (.eval archive or .json)",
            OutcomeFormat::LocomoAnswers => "LoCoMo answers grouped by conversation (mem0 evals.py, MemOS, Zep, …)",
        }
    }
}

/// What a column holds, from all its present cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColumnKind {
    /// Every present cell is a finite number (or `true`/`false`), not all of them 0/1.
    Numeric,
    /// Every present cell is 0/1 or `true`/`false`.
    Binary,
    /// At least one present cell is not a number.
    Text,
}

/// One column of an [`OutcomeTable`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ColumnInfo {
    /// Column name (nested JSON keys joined with `.`, e.g. `llm_judgments.judgment_1`).
    pub name: String,
    /// What the present cells hold.
    pub kind: ColumnKind,
    /// Number of distinct texts among the present cells.
    pub distinct: usize,
    /// Rows where the cell is missing (absent, empty, `null`, or a missing marker).
    pub missing: usize,
}

/// One long-form row: one (item, arm) observation as read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutcomeRow {
    /// Every present cell as text (pairing keys, arms and strata are built from these).
    pub fields: BTreeMap<String, String>,
    /// Every present cell that is a finite number or a boolean (`true` = 1, `false` = 0).
    pub values: BTreeMap<String, f64>,
    /// 1-based line of the record in its file (the record's first line for multi-line JSON).
    pub line: usize,
    /// Index of the row's file in [`OutcomeTable::files`].
    pub file: usize,
}

/// One file that contributed rows to an [`OutcomeTable`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SourceFile {
    /// The file name as given.
    pub name: String,
    /// Its detected (or forced) format.
    pub format: OutcomeFormat,
    /// Whether it was gzip-compressed.
    pub gzip: bool,
    /// Its size in bytes as given.
    pub bytes: usize,
    /// How many long-form rows it produced.
    pub rows: usize,
    /// The configuration the file states at its top level, as (field, value): a JSON
    /// document's `config`, `configuration`, `system`, `method`, `variant`, `run_name` or
    /// `config.name`. Several files that all state distinct ones are named by them.
    #[serde(default)]
    pub stated: Option<(String, String)>,
    /// SHA-256 of the file as given (lower-case hex; empty when not computed).
    #[serde(default)]
    pub sha256: String,
}

/// Long-form outcomes read from one or several files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutcomeTable {
    /// The file name, or `"N files"` for several.
    pub name: String,
    /// The format of the (first) file; per file in [`OutcomeTable::files`].
    pub format: OutcomeFormat,
    /// The files read, in order.
    pub files: Vec<SourceFile>,
    /// Every column, in first-seen order.
    pub columns: Vec<ColumnInfo>,
    /// The rows, in file order.
    pub rows: Vec<OutcomeRow>,
    /// Conventions applied while reading, counted.
    pub warnings: OutcomeWarnings,
}

impl OutcomeTable {
    /// The column called `name`, if any.
    pub fn column(&self, name: &str) -> Option<&ColumnInfo> {
        self.columns.iter().find(|c| c.name == name)
    }

    /// Where a row came from (file and line), for messages.
    pub fn location(&self, row: &OutcomeRow) -> Location {
        let file = self.files.get(row.file).map_or(self.name.as_str(), |f| f.name.as_str());
        Location::line(file, row.line)
    }

    /// Concatenates tables read from several files. With more than one table every row gains
    /// a `file` column (the file name without directory and extension; `source_file` if a
    /// `file` column already exists) so that files can act as arms or as key parts.
    pub fn concat(mut tables: Vec<OutcomeTable>) -> OutcomeTable {
        let n = tables.len();
        if n == 1
            && let Some(one) = tables.pop()
        {
            // One file is its own table: no file column, its rows and columns as read.
            return one;
        }
        let mut files = Vec::new();
        let mut rows = Vec::new();
        let mut warnings = OutcomeWarnings::default();
        let mut cols = Columns::default();
        let format = tables.first().map_or(OutcomeFormat::LongCsv, |t| t.format);
        let name =
            if n == 1 { tables.first().map(|t| t.name.clone()).unwrap_or_default() } else { format!("{n} files") };
        let file_col = if n <= 1 {
            None
        } else if tables.iter().all(|t| t.column("file").is_none()) {
            Some("file")
        } else if tables.iter().all(|t| t.column("source_file").is_none()) {
            Some("source_file")
        } else {
            None
        };
        let all_names: Vec<String> = tables.iter().flat_map(|t| t.files.iter().map(|f| f.name.clone())).collect();
        // Files that all state distinct configurations are named by them; else by their paths.
        let stated: Vec<&(String, String)> =
            tables.iter().flat_map(|t| t.files.iter().filter_map(|f| f.stated.as_ref())).collect();
        let by_config = n > 1
            && stated.len() == all_names.len()
            && stated.iter().map(|(_, v)| v).collect::<HashSet<_>>().len() == stated.len();
        let arm_names: HashMap<String, String> = if by_config {
            for (file, (field, value)) in all_names.iter().zip(&stated) {
                warnings.add(OutcomeWarningKind::ArmFromStatedConfig, || format!("{file} → `{value}` (its `{field}`)"));
            }
            all_names.iter().cloned().zip(stated.iter().map(|(_, v)| v.clone())).collect()
        } else {
            all_names.iter().cloned().zip(distinguishing_names(&all_names)).collect()
        };
        for t in tables {
            let offset = files.len();
            for c in &t.columns {
                cols.note(&c.name);
            }
            if let Some(fc) = file_col {
                cols.note(fc);
            }
            let stems: Vec<String> =
                t.files.iter().map(|f| arm_names.get(&f.name).cloned().unwrap_or_else(|| file_stem(&f.name))).collect();
            for mut r in t.rows {
                if let Some(fc) = file_col {
                    let stem = stems.get(r.file).cloned().unwrap_or_default();
                    r.fields.insert(fc.to_string(), stem);
                }
                r.file += offset;
                rows.push(r);
            }
            files.extend(t.files);
            warnings.extend(&t.warnings);
        }
        let columns = column_infos(&cols.order, &rows);
        OutcomeTable { name, format, files, columns, rows, warnings }
    }
}

/// The shortest part of each path that tells the files apart: the first folder level whose
/// names all differ (`fc-baseline/results/<config>/eval_results.json` → `<config>`), else the
/// file names without extensions; paths are compared from the folder nearest the file.
pub fn distinguishing_names(paths: &[String]) -> Vec<String> {
    let parts: Vec<Vec<&str>> =
        paths.iter().map(|p| p.split(['/', '\\']).filter(|s| !s.is_empty()).collect()).collect();
    let stems: Vec<String> = paths.iter().map(|p| file_stem(p)).collect();
    let distinct = |v: &[String]| v.iter().collect::<HashSet<_>>().len() == v.len();
    if paths.len() < 2 {
        return stems;
    }
    if distinct(&stems) {
        return without_common_affixes(stems);
    }
    let depth = parts.iter().map(Vec::len).min().unwrap_or(0);
    // Folder levels counted from the file upward (1 = the folder holding the file).
    for up in 1..depth {
        let level: Vec<String> = parts.iter().map(|p| p[p.len() - 1 - up].to_string()).collect();
        if distinct(&level) {
            return level;
        }
    }
    // Nothing tells them apart on its own: each path's shortest tail that no other path ends
    // with (`log_formats.eval` beside `log_formats.json`), else its whole path.
    let tail = |p: &[&str], k: usize| (p.len() >= k).then(|| p[p.len() - k..].join("/"));
    parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            (1..=p.len())
                .filter_map(|k| {
                    tail(p, k)
                        .filter(|t| parts.iter().enumerate().all(|(j, q)| j == i || tail(q, k).as_ref() != Some(t)))
                })
                .next()
                .unwrap_or_else(|| paths[i].clone())
        })
        .collect()
}

/// Names that share a long prefix or suffix (ten characters or more, cut at a `-`, `_`, `.` or
/// space) keep only the part that differs: `…_20251212-0340.jsonl.eval-results-gpt-4o-mini` and
/// `…-gpt-4o` become `4o-mini` and `4o`.
fn without_common_affixes(names: Vec<String>) -> Vec<String> {
    const MIN: usize = 10;
    let is_sep = |c: char| matches!(c, '-' | '_' | '.' | ' ');
    let first = names[0].clone();
    // The longest prefix of `first` shared by every name, ending right after a separator.
    let mut prefix = 0;
    for (i, c) in first.char_indices() {
        let end = i + c.len_utf8();
        if !names.iter().all(|n| n.get(..end) == Some(&first[..end])) {
            break;
        }
        if is_sep(c) {
            prefix = end;
        }
    }
    let mut suffix = 0;
    for (i, c) in first.char_indices().rev() {
        let start = first.len() - i;
        if !names.iter().all(|n| n.len() >= start && n.get(n.len() - start..) == Some(&first[i..])) {
            break;
        }
        if is_sep(c) {
            suffix = start;
        }
    }
    let prefix = if prefix >= MIN { prefix } else { 0 };
    let suffix = if suffix >= MIN { suffix } else { 0 };
    let cut: Vec<String> = names
        .iter()
        .map(|n| if n.len() > prefix + suffix { n[prefix..n.len() - suffix].to_string() } else { String::new() })
        .collect();
    let distinct = cut.iter().collect::<HashSet<_>>().len() == cut.len();
    if (prefix > 0 || suffix > 0) && distinct && cut.iter().all(|c| !c.is_empty()) { cut } else { names }
}

/// How to read a file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadOptions {
    /// Force a format instead of detecting it (e.g. [`OutcomeFormat::WideCsv`] or
    /// [`OutcomeFormat::LongCsv`] when the layout detection guesses wrong).
    pub format: Option<OutcomeFormat>,
}

/// Reads one outcomes file (gzip accepted, format detected from the content unless forced).
pub fn read_outcomes(file: &InputFile, opts: &ReadOptions) -> Result<OutcomeTable, IngestError> {
    // Inspect's `.eval` logs are zip archives: read before any text decoding.
    let bytes = file.bytes()?;
    if inspect::is_zip(&bytes) && opts.format.is_none_or(|f| f == OutcomeFormat::InspectLog) {
        let mut b = Builder::new(&file.name).with_limits(file.limits());
        inspect::read_eval_archive(&file.name, &bytes, file.limits(), &mut b)?;
        return Ok(b.finish(OutcomeFormat::InspectLog, false, file.len()));
    }
    let (text, gzip) = file.text()?;
    let format = match opts.format {
        Some(f) => f,
        None => detect_outcome_format(&file.name, &text, file.limits())?,
    };
    let mut b = Builder::new(&file.name).with_limits(file.limits());
    match format {
        OutcomeFormat::LongCsv | OutcomeFormat::WideCsv | OutcomeFormat::MtelRecords => {
            tabular::read(&file.name, &text, format, &mut b)?
        }
        OutcomeFormat::RescorePerQuery if !looks_json(&text) => tabular::read(&file.name, &text, format, &mut b)?,
        OutcomeFormat::InspectLog => {
            let doc: serde_json::Value = crate::ingest::json::from_str(&text).map_err(|e| {
                IngestError::new(Location::line(&file.name, e.line().max(1)), format!("not valid JSON: {e}"))
            })?;
            inspect::read_json_log(&file.name, &doc, &mut b)?
        }
        OutcomeFormat::LongJson
        | OutcomeFormat::ReclaimEval
        | OutcomeFormat::JudgeFile
        | OutcomeFormat::RescorePerQuery => json::read(&file.name, &text, format, &mut b)?,
        OutcomeFormat::MtelTrace => {
            json::read(&file.name, &text, OutcomeFormat::LongJson, &mut b)?;
            mtel_trace::annotate(&mut b.rows, &mut b.warnings, &file.name);
            for c in mtel_trace::DERIVED {
                b.cols.note(c);
            }
        }
        OutcomeFormat::LocomoAnswers => {
            json::read(&file.name, &text, OutcomeFormat::LongJson, &mut b)?;
            let used = locomo::annotate(&mut b.rows, &mut b.warnings, &file.name);
            for c in ["conversation", "position", "verdict"] {
                b.cols.note(c);
            }
            if used.is_none() {
                return Err(IngestError::new(
                    Location::file(&file.name),
                    "LoCoMo answers without a verdict: no record has `llm_score`, `grade`, `is_correct`, `correct`, \
                     `score`, `llm_judgments` or `judgments` (give the judged file, not the answers before judging)",
                ));
            }
        }
    }
    Ok(b.finish(format, gzip, file.len()))
}

/// Reads several outcomes files and concatenates them ([`OutcomeTable::concat`]); e.g. one
/// judge file per configuration, or one long CSV per system.
pub fn read_outcome_files(files: &[InputFile], opts: &ReadOptions) -> Result<OutcomeTable, IngestError> {
    let mut tables = Vec::with_capacity(files.len());
    for f in files {
        tables.push(read_outcomes(f, opts)?);
    }
    if tables.is_empty() {
        return Err(IngestError::new(Location::file("(no file)"), "no outcomes file given"));
    }
    // A file that holds no row would drop out unsaid: beside others, its system vanishes from
    // the comparison when the files are the arms; alone, nothing is left to compare.
    if let Some(empty) = tables.iter().find(|t| t.rows.is_empty()) {
        let (what, fix) = if tables.len() > 1 {
            (
                "beside the other files it would drop out unsaid (with it, its system, when the files are the arms)",
                "give its rows, or leave the file out",
            )
        } else {
            ("there is nothing to compare", "give a file with one row per item and system")
        };
        return Err(IngestError::new(
            Location::file(&empty.name),
            format!("holds no outcome rows (nothing below its header or in its records): {what}; {fix}"),
        ));
    }
    let mut table = OutcomeTable::concat(tables);
    if table.files.len() > 1 && table.files.iter().all(|f| f.format == OutcomeFormat::LocomoAnswers) {
        locomo::align_table(&mut table);
    }
    Ok(table)
}

/// Detects which outcomes layout a (decoded) text holds, from its content only, under the file's
/// budgets (a CSV is parsed whole to tell its layout).
pub fn detect_outcome_format(name: &str, text: &str, limits: Limits) -> Result<OutcomeFormat, IngestError> {
    if text.trim().is_empty() {
        return Err(IngestError::new(Location::file(name), "the file is empty"));
    }
    if looks_json(text) {
        if looks_like_inspect_log(text) {
            return Ok(OutcomeFormat::InspectLog);
        }
        json::detect(name, text)
    } else {
        tabular::detect(name, text, limits)
    }
}

/// A one-document Inspect log (`{"version", "status", "eval": {...}, "samples": [...]}`),
/// checked on the whole document when its start names `eval`.
fn looks_like_inspect_log(text: &str) -> bool {
    let head: String = text.chars().take(4096).collect();
    head.trim_start().starts_with('{')
        && head.contains("\"eval\"")
        && serde_json::from_str::<serde_json::Value>(text).is_ok_and(|d| inspect::is_json_log(&d))
}

/// memaudit's rescoring rows ([`crate::audit::Report::per_query`]) as an outcomes table, without
/// going through JSON. `line` is the row's 1-based position in `rows`.
pub fn from_per_query(name: &str, rows: &[PerQueryRow]) -> OutcomeTable {
    let mut b = Builder::new(name);
    for (i, r) in rows.iter().enumerate() {
        json::push_per_query(name, i + 1, r, &mut b);
    }
    b.finish(OutcomeFormat::RescorePerQuery, false, 0)
}

fn looks_json(text: &str) -> bool {
    matches!(text.trim_start().chars().next(), Some('{') | Some('['))
}

pub use crate::ingest::table::MISSING_MARKERS;

/// The numeric reading of a text cell: a finite number, or `true`/`false` (any case) as 1/0.
pub fn parse_number(s: &str) -> Option<f64> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("true") {
        return Some(1.0);
    }
    if t.eq_ignore_ascii_case("false") {
        return Some(0.0);
    }
    // Rust also parses `inf`/`NaN`; those are not values.
    let starts_ok = t.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+' || c == '.');
    if !starts_ok {
        return None;
    }
    t.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Column order, first seen first.
#[derive(Debug, Default)]
pub(crate) struct Columns {
    pub order: Vec<String>,
    index: HashSet<String>,
}

impl Columns {
    pub fn note(&mut self, name: &str) {
        if !self.index.contains(name) {
            self.index.insert(name.to_string());
            self.order.push(name.to_string());
        }
    }
}

/// Collects rows and columns of one file.
#[derive(Debug)]
pub(crate) struct Builder {
    pub name: String,
    pub cols: Columns,
    pub rows: Vec<OutcomeRow>,
    pub warnings: OutcomeWarnings,
    /// See [`SourceFile::stated`].
    pub stated: Option<(String, String)>,
    /// The file's budgets; its cells ([`Limits::max_cells`]) are counted by [`Builder::set`]
    /// and checked by [`Builder::push`].
    pub limits: Limits,
    cells: u64,
}

impl Builder {
    pub fn new(name: &str) -> Builder {
        Builder {
            name: name.to_string(),
            cols: Columns::default(),
            rows: Vec::new(),
            warnings: OutcomeWarnings::default(),
            stated: None,
            limits: Limits::DEFAULT,
            cells: 0,
        }
    }

    /// The same builder under a file's budgets.
    pub fn with_limits(mut self, limits: Limits) -> Builder {
        self.limits = limits;
        self
    }

    /// Adds a row; refused past the cell budget (a wide file's rows are many cells each).
    pub fn push(&mut self, row: OutcomeRow) -> Result<(), IngestError> {
        let line = row.line;
        self.rows.push(row);
        self.limits.check_cells(|| Location::line(&self.name, line), self.cells)
    }

    /// A new empty row at `line`.
    pub fn row(line: usize) -> OutcomeRow {
        OutcomeRow { fields: BTreeMap::new(), values: BTreeMap::new(), line, file: 0 }
    }

    /// Sets a present cell (declaring the column).
    pub fn set(&mut self, row: &mut OutcomeRow, col: &str, text: String, value: Option<f64>) {
        self.cols.note(col);
        self.cells += 1;
        if let Some(v) = value {
            row.values.insert(col.to_string(), v);
        }
        row.fields.insert(col.to_string(), text);
    }

    /// Declares a column whose cell is missing in this row.
    pub fn missing(&mut self, col: &str) {
        self.cols.note(col);
    }

    pub fn finish(self, format: OutcomeFormat, gzip: bool, bytes: usize) -> OutcomeTable {
        let columns = column_infos(&self.cols.order, &self.rows);
        OutcomeTable {
            name: self.name.clone(),
            format,
            files: vec![SourceFile {
                name: self.name,
                format,
                gzip,
                bytes,
                rows: self.rows.len(),
                stated: self.stated,
                sha256: String::new(),
            }],
            columns,
            rows: self.rows,
            warnings: self.warnings,
        }
    }
}

/// Column statistics over all rows.
pub(crate) fn column_infos(order: &[String], rows: &[OutcomeRow]) -> Vec<ColumnInfo> {
    let mut out = Vec::with_capacity(order.len());
    for name in order {
        let mut distinct: HashSet<&str> = HashSet::new();
        let mut missing = 0;
        let mut all_numeric = true;
        let mut all_binary = true;
        for r in rows {
            match r.fields.get(name) {
                None => missing += 1,
                Some(t) => {
                    distinct.insert(t.as_str());
                    match r.values.get(name) {
                        Some(&v) => all_binary &= v == 0.0 || v == 1.0,
                        None => {
                            all_numeric = false;
                            all_binary = false;
                        }
                    }
                }
            }
        }
        let kind = if !all_numeric {
            ColumnKind::Text
        } else if all_binary && !distinct.is_empty() {
            ColumnKind::Binary
        } else {
            ColumnKind::Numeric
        };
        out.push(ColumnInfo { name: name.clone(), kind, distinct: distinct.len(), missing });
    }
    out
}

/// Distinct texts of a column, in first-seen order, with their counts (for messages).
pub(crate) fn distinct_values<'a>(rows: &'a [OutcomeRow], col: &str) -> Vec<(&'a str, usize)> {
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut out: Vec<(&str, usize)> = Vec::new();
    for r in rows {
        if let Some(t) = r.fields.get(col) {
            match index.get(t.as_str()) {
                Some(&i) => out[i].1 += 1,
                None => {
                    index.insert(t.as_str(), out.len());
                    out.push((t.as_str(), 1));
                }
            }
        }
    }
    out
}

/// The outcomes of a file's text under the default options (for the readers' tests).
#[cfg(test)]
pub(crate) fn read_text(name: &str, text: &str) -> Result<OutcomeTable, IngestError> {
    read_outcomes(&InputFile::new(name, text.as_bytes().to_vec()), &ReadOptions::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(name: &str, text: &str) -> Result<OutcomeTable, IngestError> {
        read_text(name, text)
    }

    #[test]
    fn numbers_and_booleans() {
        assert_eq!(parse_number(" 0.5 "), Some(0.5));
        assert_eq!(parse_number("True"), Some(1.0));
        assert_eq!(parse_number("false"), Some(0.0));
        assert_eq!(parse_number("-3e2"), Some(-300.0));
        assert_eq!(parse_number("inf"), None);
        assert_eq!(parse_number("NaN"), None);
        assert_eq!(parse_number("1e999"), None);
        assert_eq!(parse_number("abc"), None);
        assert_eq!(parse_number(""), None);
    }

    #[test]
    fn format_names_round_trip() {
        for &f in OutcomeFormat::ALL {
            assert_eq!(OutcomeFormat::parse(f.name()), Some(f));
            assert!(!f.describe().is_empty());
        }
        assert_eq!(OutcomeFormat::parse("wide-csv"), Some(OutcomeFormat::WideCsv));
        assert_eq!(OutcomeFormat::parse("nope"), None);
    }

    #[test]
    fn detects_every_format() {
        let cases = [
            ("item,arm,correct\na,x,1\n", OutcomeFormat::LongCsv),
            ("item,bm25,dense\na,1,0\nb,0,1\n", OutcomeFormat::WideCsv),
            ("{\"item\":\"a\",\"arm\":\"x\",\"correct\":true}\n", OutcomeFormat::LongJson),
            ("{\"pid\":\"p\",\"seed\":0,\"policy\":\"lossy\",\"correct\":true}\n", OutcomeFormat::ReclaimEval),
            ("{\"question_id\":\"q\",\"llm_judgments\":{\"judgment_1\":true}}\n", OutcomeFormat::JudgeFile),
            ("run_id,query_index,raw_eligible,raw_ndcg\nr,1,True,0.5\n", OutcomeFormat::MtelRecords),
            (
                r#"{"query_index": 1, "returned_ids_topk": ["a"], "hit_ranks": [1], "f1_generated": 1.0}"#,
                OutcomeFormat::MtelTrace,
            ),
            ("system,query_id,target,eligible,ndcg\ns,q,raw,true,1\n", OutcomeFormat::RescorePerQuery),
            ("{\"per_query\": []}", OutcomeFormat::RescorePerQuery),
            (
                "{\n \"conv-1\": [{\"question_id\":\"q\",\"llm_judgments\":{\"judgment_1\":true}}]\n}",
                OutcomeFormat::JudgeFile,
            ),
            ("[{\"item\":\"a\",\"arm\":\"x\",\"v\":1}]", OutcomeFormat::LongJson),
        ];
        for (text, want) in cases {
            assert_eq!(detect_outcome_format("f", text, Limits::DEFAULT).unwrap(), want, "{text}");
        }
        assert!(detect_outcome_format("f", "  \n", Limits::DEFAULT).unwrap_err().message.contains("empty"));
    }

    #[test]
    fn column_kinds_and_missing() {
        let t = read("a.csv", "item,arm,correct,score,note\na,x,1,0.5,hi\nb,x,0,,NA\nc,x,true,2,\n").unwrap();
        let kinds: Vec<(&str, ColumnKind, usize, usize)> =
            t.columns.iter().map(|c| (c.name.as_str(), c.kind, c.distinct, c.missing)).collect();
        assert_eq!(
            kinds,
            vec![
                ("item", ColumnKind::Text, 3, 0),
                ("arm", ColumnKind::Text, 1, 0),
                ("correct", ColumnKind::Binary, 3, 0),
                ("score", ColumnKind::Numeric, 2, 1),
                ("note", ColumnKind::Text, 1, 2),
            ]
        );
        assert_eq!(t.warnings.count(OutcomeWarningKind::MissingMarker), 1);
        assert_eq!(t.rows[2].values["correct"], 1.0);
        assert_eq!(t.rows[1].line, 3);
    }

    #[test]
    fn arms_are_named_by_the_part_that_tells_files_apart() {
        let names = |v: &[&str]| distinguishing_names(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(
            names(&["fc-baseline/results/mem0/eval_results.json", "fc-baseline/results/zep/eval_results.json"]),
            ["mem0", "zep"]
        );
        assert_eq!(names(&["runs/bm25.jsonl", "runs/dense.jsonl"]), ["bm25", "dense"]);
        assert_eq!(names(&["a/x/r.json", "b/x/r.json"]), ["a", "b"]);
        assert_eq!(names(&["r.json", "sub/r.json"]), ["r.json", "sub/r.json"]);
        // Inspect's test logs: stems and folders repeat, the shortest distinct tails do not.
        assert_eq!(
            names(&["t/a/log_formats.eval", "t/a/log_formats.json", "t/b/x_popularity.eval", "t/c/x_popularity.eval"]),
            ["log_formats.eval", "log_formats.json", "b/x_popularity.eval", "c/x_popularity.eval"]
        );
        // LongMemEval judge logs differing by judge only.
        let log = "longmemeval_s_cleaned.json_retrievallog_turn_flat-stella_20251212-0340.jsonl.eval-results-";
        assert_eq!(names(&[&format!("{log}gpt-4o-mini"), &format!("{log}gpt-4o")]), ["4o-mini", "4o"]);
        assert_eq!(
            names(&["run_bm25_final", "run_dense_final"]),
            ["run_bm25_final", "run_dense_final"],
            "short affixes stay"
        );
    }

    #[test]
    fn concat_adds_a_file_column() {
        let a = read("runs/bm25.csv", "item,correct\nq1,1\n").unwrap();
        let b = read("runs/dense.csv.gz", "item,correct\nq1,0\n").unwrap();
        let t = OutcomeTable::concat(vec![a, b]);
        assert_eq!(t.name, "2 files");
        assert_eq!(t.rows[1].fields["file"], "dense");
        assert_eq!(t.rows[1].file, 1);
        assert_eq!(t.location(&t.rows[1]).to_string(), "runs/dense.csv.gz, line 2");
        assert_eq!(t.column("file").unwrap().distinct, 2);
    }
}
