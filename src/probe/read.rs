//! Readers for the probe's inputs:
//!
//! * **notes JSONL**, one note per line:
//!   `{note_id, note, source | source_items, stale, answer?, correct?, policy?, integrity?,
//!   budget?, arm?, source_kind?, pid?, seed?}` (aliases: `note_text`; `source_text`;
//!   `conclusion`, `stale_value`; `true_answer`; `variant`; `budget_chars`; `problem_id`;
//!   `task_kind`). `stale` may be a string or a number; `correct` a boolean or 0/1.
//! * **reclaim-eval deployed-memory rows** (`realworld_*.jsonl`: `seed, pid, variant,
//!   memory_text, src_nums, model, arm, answer, correct`), detected by `memory_text`. Each row is
//!   a note: id `pid/variant/arm/s<seed>`, policy = `variant`, outcome = `correct`. The
//!   source and stale value of a problem come from the probe keys
//!   (`probe_keys_base16.json`: `{task: [{pid, source, conclusion, correct, drift, kind,
//!   options}]}`) or, for problems the keys lack (reclaim-eval's generated `gen_a*`
//!   problems), from the file's own templated notes: the `source_first@…` note carries
//!   `The facts were: {source}. You were determining …` and the `lossy@…` note
//!   `You concluded … was {conclusion}.` (reclaim-eval `experiment.memory_note`; counted as
//!   `source_from_template`).
//!
//! Errors name the file, the line and the field; nothing here panics on user input.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::NoteInput;
use super::source::{ItemInput, SourceKind};
use super::warnings::{ProbeWarningKind as W, ProbeWarnings};
use crate::error::{IngestError, Location};
use crate::ingest::InputFile;
use crate::ingest::records::jsonl_lines;

/// One problem of the probe keys.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeKey {
    pub pid: String,
    /// The key list it came from (`arith`, `logic`).
    pub task: String,
    pub source: String,
    pub conclusion: String,
    /// The true answer (number or word), as JSON.
    pub correct: Option<Value>,
    /// The stale (drift) value, as JSON.
    pub drift: Option<Value>,
    /// `number` or `text`.
    pub kind: Option<String>,
    pub options: Vec<String>,
    pub question: Option<String>,
    pub locus: Option<String>,
}

impl ProbeKey {
    /// The source tokenizer the key's kind implies (`number` → line items, `text` → clauses).
    pub fn source_kind(&self) -> SourceKind {
        match self.kind.as_deref() {
            Some("number") => SourceKind::LineItems,
            Some("text") => SourceKind::Clauses,
            Some("time") => SourceKind::Times,
            _ => SourceKind::Auto,
        }
    }
}

/// Problem keys by pid.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProbeKeys {
    pub keys: Vec<ProbeKey>,
}

impl ProbeKeys {
    pub fn get(&self, pid: &str) -> Option<&ProbeKey> {
        self.keys.iter().find(|k| k.pid == pid)
    }
}

fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Reads `probe_keys_base16.json` (or any `{task: [key, ...]}` object, or a bare array).
pub fn read_probe_keys(file: &InputFile) -> Result<ProbeKeys, IngestError> {
    let (text, _) = file.text()?;
    let name = file.name.as_str();
    let doc: Value = crate::ingest::json::from_str(&text).map_err(|e| crate::ingest::json::error_at(name, 0, &e))?;
    let lists: Vec<(String, &Vec<Value>)> = match &doc {
        Value::Array(a) => vec![(String::new(), a)],
        Value::Object(m) => m
            .iter()
            .filter(|(k, _)| !k.starts_with('_'))
            .filter_map(|(k, v)| v.as_array().map(|a| (k.clone(), a)))
            .collect(),
        _ => Vec::new(),
    };
    if lists.is_empty() {
        return Err(IngestError::new(
            Location::file(name),
            "expected probe keys: a JSON object of task → [{pid, source, conclusion, ...}] (or an array of keys)",
        ));
    }
    let mut keys = Vec::new();
    for (task, list) in lists {
        for (i, v) in list.iter().enumerate() {
            let field = |f: &str| {
                let path = if task.is_empty() { format!("[{i}].{f}") } else { format!("{task}[{i}].{f}") };
                Location::file(name).with_field(path)
            };
            let Some(obj) = v.as_object() else {
                return Err(IngestError::new(field("").with_field(format!("{task}[{i}]")), "expected an object"));
            };
            let text_of = |f: &str, required: bool| -> Result<Option<String>, IngestError> {
                match obj.get(f) {
                    None | Some(Value::Null) if !required => Ok(None),
                    None | Some(Value::Null) => {
                        Err(IngestError::new(field(f), format!("required field `{f}` is missing")))
                    }
                    Some(v) => scalar_text(v)
                        .map(Some)
                        .ok_or_else(|| IngestError::new(field(f), "expected a string or a number")),
                }
            };
            let pid = text_of("pid", true)?.unwrap_or_default();
            let source = text_of("source", true)?.unwrap_or_default();
            let conclusion = match text_of("conclusion", false)? {
                Some(c) => c,
                None => match obj.get("drift") {
                    Some(Value::Number(n)) => format!("${}", python_g(n.as_f64().unwrap_or(0.0))),
                    Some(Value::String(s)) => s.clone(),
                    _ => String::new(),
                },
            };
            let options = match obj.get("options") {
                Some(Value::Array(a)) => a.iter().filter_map(scalar_text).collect(),
                _ => Vec::new(),
            };
            keys.push(ProbeKey {
                pid,
                task: task.clone(),
                source,
                conclusion,
                correct: obj.get("correct").cloned(),
                drift: obj.get("drift").cloned(),
                kind: text_of("kind", false)?,
                options,
                question: text_of("question", false)?,
                locus: text_of("locus", false)?,
            });
        }
    }
    Ok(ProbeKeys { keys })
}

/// Python's `format(x, "g")` for the values reclaim-eval formats (integers and short
/// decimals): integers without a decimal point, otherwise the shortest round-trip form.
pub fn python_g(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 { format!("{}", x as i64) } else { format!("{x}") }
}

/// What a notes file held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NotesFormat {
    /// memaudit notes JSONL (`note`).
    Notes,
    /// reclaim-eval deployed-memory rows (`memory_text`).
    ReclaimRealworld,
    /// Plain text, one note per paragraph, with a source file.
    PlainText,
}

/// The notes read from one file.
#[derive(Debug, Clone, Default)]
pub struct NotesRead {
    pub notes: Vec<NoteInput>,
    pub format: Option<NotesFormat>,
    pub notices: ProbeWarnings,
}

fn obj_line(name: &str, line: usize, text: &str) -> Result<Map<String, Value>, IngestError> {
    match crate::ingest::json::from_str(text) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(IngestError::new(Location::line(name, line), "expected a JSON object on this line")),
        Err(e) => Err(crate::ingest::json::error_at(name, line, &e)),
    }
}

/// Field access with file/line/field errors.
struct Fields<'a> {
    name: &'a str,
    line: usize,
    obj: &'a Map<String, Value>,
}

impl<'a> Fields<'a> {
    fn loc(&self, f: &str) -> Location {
        Location::line(self.name, self.line).with_field(f)
    }
    /// The first present (non-null) alias.
    fn get(&self, aliases: &[&'a str]) -> Option<(&'a str, &'a Value)> {
        aliases.iter().find_map(|&a| self.obj.get(a).filter(|v| !v.is_null()).map(|v| (a, v)))
    }
    fn text(&self, aliases: &[&'a str]) -> Result<Option<String>, IngestError> {
        match self.get(aliases) {
            None => Ok(None),
            Some((f, v)) => {
                scalar_text(v).map(Some).ok_or_else(|| IngestError::new(self.loc(f), "expected a string or a number"))
            }
        }
    }
    fn string(&self, aliases: &[&'a str]) -> Result<Option<String>, IngestError> {
        match self.get(aliases) {
            None => Ok(None),
            Some((_, Value::String(s))) => Ok(Some(s.clone())),
            Some((f, _)) => Err(IngestError::new(self.loc(f), "expected a string")),
        }
    }
    fn flag(&self, aliases: &[&'a str]) -> Result<Option<bool>, IngestError> {
        match self.get(aliases) {
            None => Ok(None),
            Some((_, Value::Bool(b))) => Ok(Some(*b)),
            Some((_, Value::Number(n))) if n.as_f64() == Some(1.0) => Ok(Some(true)),
            Some((_, Value::Number(n))) if n.as_f64() == Some(0.0) => Ok(Some(false)),
            Some((f, _)) => Err(IngestError::new(self.loc(f), "expected true/false (or 1/0)")),
        }
    }
    fn number(&self, aliases: &[&'a str]) -> Result<Option<f64>, IngestError> {
        match self.get(aliases) {
            None => Ok(None),
            Some((f, Value::Number(n))) => {
                n.as_f64().map(Some).ok_or_else(|| IngestError::new(self.loc(f), "expected a number"))
            }
            Some((f, Value::String(s))) => {
                s.trim().parse::<f64>().map(Some).map_err(|_| IngestError::new(self.loc(f), "expected a number"))
            }
            Some((f, _)) => Err(IngestError::new(self.loc(f), "expected a number")),
        }
    }
    fn count(&self, aliases: &[&'a str]) -> Result<Option<u64>, IngestError> {
        match self.get(aliases) {
            None => Ok(None),
            Some((f, v)) => {
                v.as_u64().map(Some).ok_or_else(|| IngestError::new(self.loc(f), "expected a non-negative integer"))
            }
        }
    }
    fn int(&self, aliases: &[&'a str]) -> Result<Option<i64>, IngestError> {
        match self.get(aliases) {
            None => Ok(None),
            Some((f, v)) => v.as_i64().map(Some).ok_or_else(|| IngestError::new(self.loc(f), "expected an integer")),
        }
    }
}

/// The source text plain-text notes were written from (`--source-file FILE`): its name and text.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceText {
    pub name: String,
    pub text: String,
}

/// Whether a text is plain prose rather than JSON (its first non-blank character is not `{` or
/// `[`): plain-text notes or a source text.
pub fn is_plain_text(text: &str) -> bool {
    text.trim_start_matches('\u{feff}').trim_start().chars().next().is_some_and(|c| c != '{' && c != '[')
}

/// Reads a notes file (memaudit notes JSONL or reclaim-eval realworld rows, detected from the
/// first line; plain text is refused without a source, see [`read_notes_with_source`]). `keys`
/// gives sources and stale values by `pid` for realworld rows.
pub fn read_notes(file: &InputFile, keys: Option<&ProbeKeys>) -> Result<NotesRead, IngestError> {
    read_notes_with_source(file, keys, None)
}

/// Reads a notes file: memaudit notes JSONL or reclaim-eval realworld rows (detected from the
/// first line), or plain text with one note per paragraph (blank lines between notes) whose
/// source is `source`. `keys` gives sources and stale values by `pid` for realworld rows.
pub fn read_notes_with_source(
    file: &InputFile,
    keys: Option<&ProbeKeys>,
    source: Option<&SourceText>,
) -> Result<NotesRead, IngestError> {
    let (text, _) = file.text()?;
    let name = file.name.as_str();
    if is_plain_text(&text) {
        return read_paragraphs(name, &text, source);
    }
    let mut progress = |_: f64| {};
    let lines: Vec<(usize, &str)> = jsonl_lines(&text, &mut progress).collect();
    let Some(&(first_line, first)) = lines.first() else {
        return Err(IngestError::new(Location::file(name), "the file is empty"));
    };
    let first_obj = obj_line(name, first_line, first)?;
    if first_obj.contains_key("memory_text") {
        read_realworld(name, &lines, keys)
    } else if first_obj.contains_key("note") || first_obj.contains_key("note_text") {
        read_note_lines(name, &lines)
    } else {
        let keys: Vec<&str> = first_obj.keys().map(String::as_str).take(12).collect();
        Err(IngestError::new(
            Location::line(name, first_line),
            format!(
                "expected probe notes (`note`, `source`, `stale`) or reclaim-eval realworld rows (`memory_text`); found keys [{}]",
                keys.join(", ")
            ),
        ))
    }
}

/// Plain-text notes: every paragraph (lines up to a blank line) is one note, `paragraph k`, its
/// origin the paragraph's first line; every note's source is `source` (parsed as `auto`).
fn read_paragraphs(name: &str, text: &str, source: Option<&SourceText>) -> Result<NotesRead, IngestError> {
    let Some(source) = source else {
        return Err(IngestError::new(
            Location::file(name),
            format!(
                "plain-text notes (one note per paragraph) need the source text they were written from: give it \
                 ({}, plain text), or write notes JSONL with a `source` per note",
                crate::fields::mention("source_file")
            ),
        ));
    };
    if source.text.trim().is_empty() {
        return Err(IngestError::new(Location::file(&source.name), "the source file is empty"));
    }
    let mut out = NotesRead { format: Some(NotesFormat::PlainText), ..NotesRead::default() };
    let mut paragraph: Vec<&str> = Vec::new();
    let mut start = 0usize;
    let flush = |paragraph: &mut Vec<&str>, start: usize, out: &mut NotesRead| -> Result<(), IngestError> {
        if paragraph.is_empty() {
            return Ok(());
        }
        let k = out.notes.len() + 1;
        let input = NoteInput {
            note_id: format!("paragraph {k}"),
            note: paragraph.join("\n"),
            source: Some(source.text.trim().to_string()),
            origin: Some(Location::line(name, start)),
            ..NoteInput::default()
        };
        input.items()?;
        out.notes.push(input);
        paragraph.clear();
        Ok(())
    };
    for (i, line) in text.trim_start_matches('\u{feff}').lines().enumerate() {
        if line.trim().is_empty() {
            flush(&mut paragraph, start, &mut out)?;
        } else {
            if paragraph.is_empty() {
                start = i + 1;
            }
            paragraph.push(line.trim_end());
        }
    }
    flush(&mut paragraph, start, &mut out)?;
    if out.notes.is_empty() {
        return Err(IngestError::new(Location::file(name), "the file holds no note (no non-blank line)"));
    }
    Ok(out)
}

fn read_note_lines(name: &str, lines: &[(usize, &str)]) -> Result<NotesRead, IngestError> {
    let mut out = NotesRead { format: Some(NotesFormat::Notes), ..NotesRead::default() };
    let mut seen: HashMap<String, usize> = HashMap::new();
    for &(line, text) in lines {
        let obj = obj_line(name, line, text)?;
        let f = Fields { name, line, obj: &obj };
        let note = f
            .string(&["note", "note_text"])?
            .ok_or_else(|| IngestError::new(f.loc("note"), "required field `note` is missing"))?;
        let note_id = match f.text(&["note_id", "id"])? {
            Some(id) => id,
            None => {
                out.notices.add(W::NoteIdMissing, || format!("{name}, line {line}"));
                format!("line {line}")
            }
        };
        if let Some(prev) = seen.insert(note_id.clone(), line) {
            out.notices.add(W::NoteIdDuplicate, || format!("{name}, line {line}: `{note_id}` (first at line {prev})"));
        }
        let source_kind = match f.string(&["source_kind", "task_kind"])? {
            None => SourceKind::Auto,
            Some(s) => SourceKind::parse(&s).ok_or_else(|| {
                IngestError::new(
                    f.loc("source_kind"),
                    format!("unknown `{s}` (use auto, line_items, times or clauses)"),
                )
            })?,
        };
        let source_items = match f.get(&["source_items"]) {
            None => None,
            Some((fname, v)) => Some(serde_json::from_value::<Vec<ItemInput>>(v.clone()).map_err(|_| {
                IngestError::new(
                    f.loc(fname),
                    "expected a list of items: strings, or objects {label, words, numbers, times, text, kind}",
                )
            })?),
        };
        let input = NoteInput {
            note_id,
            note,
            source: f.string(&["source", "source_text"])?,
            source_items,
            source_kind,
            stale: f.text(&["stale", "conclusion", "stale_value"])?,
            answer: f.text(&["answer", "true_answer"])?,
            correct: f.flag(&["correct"])?,
            policy: f.text(&["policy", "variant"])?,
            integrity: f.number(&["integrity"])?,
            budget: f.count(&["budget", "budget_chars"])?,
            arm: f.text(&["arm"])?,
            pid: f.text(&["pid", "problem_id"])?,
            seed: f.int(&["seed"])?,
            origin: Some(Location::line(name, line)),
        };
        // a note without any usable source is an error here, where the line is known
        input.items()?;
        out.notes.push(input);
    }
    Ok(out)
}

static FACTS_RE: LazyLock<Regex> = LazyLock::new(|| {
    // ok: constant pattern, exercised by the tests
    Regex::new(r"(?s)The facts were: (.*?)\. You were determining").expect("valid pattern") // ok: constant pattern, exercised by the tests
});
static CONCLUDED_RE: LazyLock<Regex> = LazyLock::new(|| {
    // ok: constant pattern, exercised by the tests
    Regex::new(r"(?s)You concluded .* was (.+?)\.\s*$").expect("valid pattern") // ok: constant pattern, exercised by the tests
});

/// The source a reclaim-eval `source_first` template note carries, if it is one.
pub fn template_source(note: &str) -> Option<String> {
    FACTS_RE.captures(note).and_then(|c| c.get(1)).map(|m| m.as_str().to_string())
}

/// The conclusion a reclaim-eval `lossy` (g < 0.2) template note carries, if it is one.
pub fn template_conclusion(note: &str) -> Option<String> {
    CONCLUDED_RE.captures(note).and_then(|c| c.get(1)).map(|m| m.as_str().to_string())
}

fn read_realworld(name: &str, lines: &[(usize, &str)], keys: Option<&ProbeKeys>) -> Result<NotesRead, IngestError> {
    let mut out = NotesRead { format: Some(NotesFormat::ReclaimRealworld), ..NotesRead::default() };
    struct Row {
        line: usize,
        pid: String,
        variant: String,
        note: String,
        arm: Option<String>,
        seed: Option<i64>,
        answer: Option<String>,
        correct: Option<bool>,
    }
    let mut rows = Vec::with_capacity(lines.len());
    // first pass: rows, and sources / conclusions from the templated notes
    let mut derived_src: HashMap<String, (String, usize)> = HashMap::new();
    let mut derived_concl: HashMap<String, (String, usize)> = HashMap::new();
    for &(line, text) in lines {
        let obj = obj_line(name, line, text)?;
        let f = Fields { name, line, obj: &obj };
        let note = f
            .string(&["memory_text"])?
            .ok_or_else(|| IngestError::new(f.loc("memory_text"), "required field `memory_text` is missing"))?;
        let pid = f.text(&["pid"])?.ok_or_else(|| IngestError::new(f.loc("pid"), "required field `pid` is missing"))?;
        let variant = f.text(&["variant", "policy"])?.unwrap_or_default();
        if variant.starts_with("source_first@")
            && let Some(s) = template_source(&note)
        {
            check_same(&mut out.notices, &mut derived_src, &pid, s, name, line);
        }
        if variant.starts_with("lossy@")
            && let Some(c) = template_conclusion(&note)
        {
            check_same(&mut out.notices, &mut derived_concl, &pid, c, name, line);
        }
        rows.push(Row {
            line,
            pid,
            variant,
            note,
            arm: f.text(&["arm"])?,
            seed: f.int(&["seed"])?,
            answer: f.text(&["answer"])?,
            correct: f.flag(&["correct"])?,
        });
    }
    let mut ids: HashMap<String, usize> = HashMap::new();
    let mut noted: std::collections::HashSet<String> = std::collections::HashSet::new();
    for r in rows {
        let key = keys.and_then(|k| k.get(&r.pid));
        let (source, kind) = match key {
            Some(k) => (k.source.clone(), k.source_kind()),
            None => match derived_src.get(&r.pid) {
                Some((s, at)) => {
                    if noted.insert(r.pid.clone()) {
                        out.notices.add(W::SourceFromTemplate, || format!("{name}, line {at}: `{}`", r.pid));
                    }
                    (s.clone(), SourceKind::Auto)
                }
                None => {
                    return Err(IngestError::new(
                        Location::line(name, r.line).with_field("pid"),
                        format!(
                            "no source for problem `{}`: give the probe keys (probe_keys_base16.json) or keep its source_first@0.1 rows in the file",
                            r.pid
                        ),
                    ));
                }
            },
        };
        let stale = match key {
            Some(k) if !k.conclusion.is_empty() => Some(k.conclusion.clone()),
            _ => derived_concl.get(&r.pid).map(|(c, _)| c.clone()),
        };
        if stale.is_none() && noted.insert(format!("stale:{}", r.pid)) {
            out.notices.add(W::StaleUnknown, || format!("{name}, line {}: `{}`", r.line, r.pid));
        }
        let mut note_id = format!(
            "{}/{}/{}/s{}",
            r.pid,
            r.variant,
            r.arm.as_deref().unwrap_or("-"),
            r.seed.map_or_else(|| "-".to_string(), |s| s.to_string())
        );
        if let Some(prev) = ids.insert(note_id.clone(), r.line) {
            out.notices
                .add(W::NoteIdDuplicate, || format!("{name}, line {}: `{note_id}` (first at line {prev})", r.line));
            note_id = format!("{note_id}#{}", r.line);
        }
        out.notes.push(NoteInput {
            note_id,
            note: r.note,
            source: Some(source),
            source_items: None,
            source_kind: kind,
            stale,
            answer: r.answer,
            correct: r.correct,
            policy: Some(r.variant),
            integrity: None,
            budget: None,
            arm: r.arm,
            pid: Some(r.pid),
            seed: r.seed,
            origin: Some(Location::line(name, r.line)),
        });
    }
    Ok(out)
}

fn check_same(
    notices: &mut ProbeWarnings,
    map: &mut HashMap<String, (String, usize)>,
    pid: &str,
    value: String,
    name: &str,
    line: usize,
) {
    match map.get(pid) {
        Some((v, first)) if *v != value => {
            notices.add(W::TemplateMismatch, || format!("{name}, line {line}: `{pid}` (first at line {first})"));
        }
        Some(_) => {}
        None => {
            map.insert(pid.to_string(), (value, line));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> InputFile {
        InputFile::new(name, text.as_bytes().to_vec())
    }

    #[test]
    fn notes_jsonl() {
        let text = r#"{"note_id":"a","note":"x","source":"notebooks at $4 each (7 bought)","stale":55,"correct":1,"budget":200}
{"note":"y","source_items":["pens at $2 (9)"],"stale":"$55","policy":"lossy","integrity":0.1}
{"note_id":"a","note":"z","source":"Ben is not the manager","source_kind":"logic","correct":false}"#;
        let r = read_notes(&file("n.jsonl", text), None).unwrap();
        assert_eq!(r.notes.len(), 3);
        assert_eq!(r.notes[0].stale.as_deref(), Some("55"));
        assert_eq!(r.notes[0].correct, Some(true));
        assert_eq!(r.notes[0].budget, Some(200));
        assert_eq!(r.notes[1].note_id, "line 2");
        assert_eq!(r.notes[2].source_kind, SourceKind::Clauses);
        assert_eq!(r.notices.count(W::NoteIdMissing), 1);
        assert_eq!(r.notices.count(W::NoteIdDuplicate), 1);
    }

    #[test]
    fn errors_name_line_and_field() {
        let e = read_notes(&file("n.jsonl", "{\"note\":\"x\",\"source\":\"a at $1 (2)\"}\n{\"note\":\"y\"}"), None)
            .unwrap_err();
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("source")));
        let e =
            read_notes(&file("n.jsonl", "{\"note\":\"x\",\"source\":\"a\",\"correct\":\"yes\"}"), None).unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("correct"));
        let e = read_notes(&file("n.jsonl", "{\"note\":\"x\",\"source_items\":[true]}"), None).unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("source_items"));
        let e = read_notes(&file("n.jsonl", "{\"note\":\"x\",\"source_items\":[\"\"]}"), None).unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("source_items[0]"));
        let e = read_notes(&file("n.jsonl", "{\"foo\":1}"), None).unwrap_err();
        assert!(e.message.contains("foo"));
        let e = read_notes(&file("n.jsonl", "{\"note\":\"x\",\n"), None).unwrap_err();
        assert!(e.message.starts_with("not valid JSON"));
        assert!(read_notes(&file("n.jsonl", "  \n"), None).unwrap_err().message.contains("empty"));
    }

    #[test]
    fn realworld_rows_with_template_sources() {
        let text = r#"{"seed":0,"pid":"g","variant":"lossy@0.1","memory_text":"(Memory of an earlier session.) You concluded the total before tax was $41.","arm":"directed","answer":null,"correct":false}
{"seed":0,"pid":"g","variant":"source_first@0.1","memory_text":"(Memory of an earlier session.) The facts were: staplers at $2 each (11 bought) and gloves at $2 each (3 bought). You were determining the total before tax; the earlier answer may be off.","arm":"directed","answer":28.0,"correct":true}"#;
        let r = read_notes(&file("rw.jsonl", text), None).unwrap();
        assert_eq!(r.format, Some(NotesFormat::ReclaimRealworld));
        assert_eq!(
            r.notes[0].source.as_deref(),
            Some("staplers at $2 each (11 bought) and gloves at $2 each (3 bought)")
        );
        assert_eq!(r.notes[0].stale.as_deref(), Some("$41"));
        assert_eq!(r.notes[0].note_id, "g/lossy@0.1/directed/s0");
        assert_eq!(r.notes[1].answer.as_deref(), Some("28.0"));
        assert_eq!(r.notices.count(W::SourceFromTemplate), 1, "once per problem");
        let e =
            read_notes(&file("rw.jsonl", &text.lines().next().unwrap().replace("\"g\"", "\"h\"")), None).unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("pid"));
    }

    #[test]
    fn keys_file() {
        let k = read_probe_keys(&file(
            "k.json",
            r#"{"_provenance":{"x":1},"arith":[{"pid":"p","source":"a at $1 (2)","drift":55.0,"kind":"number","options":[]}],
               "logic":[{"pid":"q","source":"Ben is not the manager","conclusion":"Ben","kind":"text","options":["Ana","Ben"]}]}"#,
        ))
        .unwrap();
        assert_eq!(k.get("p").unwrap().conclusion, "$55");
        assert_eq!(k.get("q").unwrap().options, vec!["Ana", "Ben"]);
        assert_eq!(k.get("q").unwrap().source_kind(), SourceKind::Clauses);
        let e = read_probe_keys(&file("k.json", r#"{"arith":[{"source":"x"}]}"#)).unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("arith[0].pid"));
        assert!(read_probe_keys(&file("k.json", "3")).is_err());
        assert_eq!(python_g(55.0), "55");
        assert_eq!(python_g(27.5), "27.5");
    }
}
