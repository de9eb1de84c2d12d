//! JSON readers: long JSON Lines (or a JSON array / grouped object of records), reclaim-eval
//! results, per-question judge files and memaudit's rescoring per-query rows.
//!
//! Nested objects are flattened with dotted keys (`llm_judgments.judgment_1`); booleans count
//! as 1/0; `null` is missing; arrays are kept as their compact JSON text (not numeric).

use std::collections::{HashMap, HashSet};

use serde::Deserialize;
use serde_json::Value;

use super::{Builder, OutcomeFormat, OutcomeRow, OutcomeWarningKind, parse_number};
use crate::audit::PerQueryRow;
use crate::error::{IngestError, Location};
use crate::ingest::file_stem;
use crate::ingest::records::{jsonl_lines, parse};

/// A JSON object with its members in document order (serde_json's map sorts them), a repeated
/// key refused.
type Ordered = crate::ingest::json::OrderedObject;

/// Fields that name the arm of a judge record; without any of them the arm is the file stem.
const JUDGE_ARM_FIELDS: [&str; 7] = ["arm", "system", "config", "configuration", "method", "variant", "policy"];
const RESCORE_KEYS: [&str; 4] = ["system", "query_id", "target", "eligible"];

fn has_key(members: &[(String, Value)], k: &str) -> bool {
    members.iter().any(|(m, _)| m == k)
}

/// The format of one record (a JSONL line or an array element).
fn classify_record(members: &[(String, Value)]) -> OutcomeFormat {
    let has = |k: &str| has_key(members, k);
    if has("llm_judgments") {
        OutcomeFormat::JudgeFile
    } else if RESCORE_KEYS.iter().all(|k| has(k)) {
        OutcomeFormat::RescorePerQuery
    } else if has("pid") && has("correct") && (has("policy") || has("variant") || has("arm")) {
        OutcomeFormat::ReclaimEval
    } else if super::mtel_trace::is_trace(has) {
        OutcomeFormat::MtelTrace
    } else {
        OutcomeFormat::LongJson
    }
}

/// Whether an object is a whole document rather than one record: it holds `per_query`,
/// `detailed_results`, or only arrays of objects (records grouped by a key).
fn is_document(members: &[(String, Value)]) -> bool {
    has_key(members, "per_query")
        || has_key(members, "detailed_results")
        || (!members.is_empty() && members.iter().all(|(_, v)| is_record_array(v)))
}

fn is_record_array(v: &Value) -> bool {
    matches!(v, Value::Array(a) if !a.is_empty() && a.iter().all(Value::is_object))
}

fn syntax_error(name: &str, line: usize, e: &serde_json::Error) -> IngestError {
    crate::ingest::json::error_at(name, line, e)
}

/// The first non-blank line, if it is a complete JSON object, with its line number.
fn first_line_object(text: &str) -> Option<(usize, Ordered)> {
    let (i, l) = text.lines().enumerate().find(|(_, l)| !l.trim().is_empty())?;
    serde_json::from_str::<Ordered>(l).ok().map(|o| (i + 1, o))
}

fn non_blank_lines(text: &str) -> usize {
    text.lines().filter(|l| !l.trim().is_empty()).count()
}

/// Detects the format of a JSON text (JSON Lines or one document).
pub(super) fn detect(name: &str, text: &str) -> Result<OutcomeFormat, IngestError> {
    if let Some((_, obj)) = first_line_object(text)
        && !(is_document(&obj.0) && non_blank_lines(text) == 1)
    {
        return Ok(classify_record(&obj.0));
    }
    let doc: Value = crate::ingest::json::from_str(text).map_err(|e| syntax_error(name, 0, &e))?;
    classify_document(name, text, &doc)
}

fn classify_document(name: &str, text: &str, doc: &Value) -> Result<OutcomeFormat, IngestError> {
    if let Value::Object(m) = doc
        && m.get("per_query").is_some_and(Value::is_array)
    {
        return Ok(OutcomeFormat::RescorePerQuery);
    }
    let recs = document_records(name, doc, &object_lines(text, 3))?;
    let grouped: Vec<(&str, &serde_json::Map<String, Value>)> =
        recs.iter().filter_map(|r| r.group.as_deref().map(|g| (g, r.object))).collect();
    if grouped.len() == recs.len() && super::locomo::looks_like_answers(&grouped) {
        return Ok(OutcomeFormat::LocomoAnswers);
    }
    match recs.first() {
        Some(r) => {
            let members: Vec<(String, Value)> = r.object.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
            Ok(classify_record(&members))
        }
        None => Err(IngestError::new(Location::file(name), "the JSON document holds no records")),
    }
}

/// Reads a JSON text in `format`.
pub(super) fn read(name: &str, text: &str, format: OutcomeFormat, b: &mut Builder) -> Result<(), IngestError> {
    let is_lines = match first_line_object(text) {
        Some((_, obj)) => !(is_document(&obj.0) && non_blank_lines(text) == 1),
        None => false,
    };
    if format == OutcomeFormat::RescorePerQuery {
        return read_rescore(name, text, is_lines, b);
    }
    let mut judge_rows = 0;
    if is_lines {
        for (line, l) in jsonl_lines(text, &mut |_| {}) {
            let obj = serde_json::from_str::<Ordered>(l).map_err(|e| {
                if e.is_data() && !crate::ingest::json::is_repeated_key(&e) {
                    IngestError::new(Location::line(name, line), "expected one JSON object per line")
                } else {
                    syntax_error(name, line, &e)
                }
            })?;
            judge_rows += push_record(name, line, &obj.0, None, format, b)?;
        }
    } else {
        let doc: Value = crate::ingest::json::from_str(text).map_err(|e| syntax_error(name, 0, &e))?;
        b.stated = stated_config(&doc);
        let lines = object_lines(text, 3);
        for r in document_records(name, &doc, &lines)? {
            let members: Vec<(String, Value)> = r.object.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
            judge_rows += push_record(name, r.line, &members, r.group.as_deref(), format, b)?;
        }
    }
    if judge_rows > 0 {
        let stem = file_stem(name);
        b.warnings.add_n(OutcomeWarningKind::ArmFromFileName, judge_rows, || format!("{name} → arm `{stem}`"));
    }
    Ok(())
}

/// Top-level fields a results document states its configuration in, by preference.
const STATED_FIELDS: [&str; 6] = ["config", "configuration", "system", "method", "variant", "run_name"];

/// The configuration a document states at its top level: a short text (or number) under one of
/// [`STATED_FIELDS`], or `config.name` / `configuration.name`.
fn stated_config(doc: &Value) -> Option<(String, String)> {
    let m = doc.as_object()?;
    let text = |v: &Value| match v {
        Value::String(s) if !s.trim().is_empty() && s.chars().count() <= 80 => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    STATED_FIELDS.iter().find_map(|f| {
        let v = m.get(*f)?;
        text(v).map(|t| (f.to_string(), t)).or_else(|| v.get("name").and_then(text).map(|t| (format!("{f}.name"), t)))
    })
}

/// A record found in a JSON document, with the line where its object starts.
struct DocRecord<'a> {
    object: &'a serde_json::Map<String, Value>,
    line: usize,
    group: Option<String>,
}

/// Records of a document: an array of objects; `{"detailed_results": …}`; or an object whose
/// members are arrays of objects (records grouped by the member name, kept as `group`).
fn document_records<'a>(
    name: &str,
    doc: &'a Value,
    lines: &HashMap<Vec<Seg>, usize>,
) -> Result<Vec<DocRecord<'a>>, IngestError> {
    let line_of = |path: &[Seg]| lines.get(path).copied().unwrap_or(1);
    let mut out = Vec::new();
    let from_array = |arr: &'a [Value], base: Vec<Seg>, group: Option<&str>, out: &mut Vec<DocRecord<'a>>| {
        for (i, v) in arr.iter().enumerate() {
            let mut path = base.clone();
            path.push(Seg::Index(i));
            let line = line_of(&path);
            match v {
                Value::Object(o) => out.push(DocRecord { object: o, line, group: group.map(str::to_string) }),
                _ => {
                    return Err(IngestError::new(
                        Location::line(name, line).with_field(path_text(&path)),
                        "expected an object per record",
                    ));
                }
            }
        }
        Ok(())
    };
    match doc {
        Value::Array(a) => from_array(a, Vec::new(), None, &mut out)?,
        Value::Object(m) => {
            let (groups, base): (&serde_json::Map<String, Value>, Vec<Seg>) = match m.get("detailed_results") {
                Some(Value::Object(d)) => (d, vec![Seg::Key("detailed_results".into())]),
                Some(Value::Array(a)) => {
                    from_array(a, vec![Seg::Key("detailed_results".into())], None, &mut out)?;
                    return Ok(out);
                }
                _ => (m, Vec::new()),
            };
            let mut found = false;
            for (k, v) in groups {
                if let Value::Array(a) = v
                    && a.iter().any(Value::is_object)
                {
                    let mut path = base.clone();
                    path.push(Seg::Key(k.clone()));
                    from_array(a, path, Some(k), &mut out)?;
                    found = true;
                }
            }
            if !found {
                let keys: Vec<&str> = m.keys().map(String::as_str).take(12).collect();
                return Err(IngestError::new(
                    Location::file(name),
                    format!(
                        "a JSON object without per-item records (keys [{}]); outcomes go one object per \
                         line (JSONL), in a JSON array, or grouped as {{\"group\": [records]}}",
                        keys.join(", ")
                    ),
                ));
            }
        }
        _ => return Err(IngestError::new(Location::file(name), "expected JSON objects (one per item and arm)")),
    }
    Ok(out)
}

/// Adds one record as a row; returns 1 when a judge record got its arm from the file name.
fn push_record(
    name: &str,
    line: usize,
    members: &[(String, Value)],
    group: Option<&str>,
    format: OutcomeFormat,
    b: &mut Builder,
) -> Result<usize, IngestError> {
    let loc = |field: &str| Location::line(name, line).with_field(field);
    match format {
        OutcomeFormat::ReclaimEval => check_reclaim(members, &loc)?,
        OutcomeFormat::JudgeFile => check_judgments(members, &loc)?,
        _ => {}
    }
    let mut row = Builder::row(line);
    let mut seen = HashSet::new();
    let mut fields = Fields { row: &mut row, seen: &mut seen, b, loc: &loc };
    for (k, v) in members {
        if format == OutcomeFormat::JudgeFile && k == "llm_judgments" {
            fields.judgments(k, v)?;
        } else {
            fields.flatten(k, v)?;
        }
    }
    if let Some(g) = group
        && !seen.contains("group")
    {
        b.set(&mut row, "group", g.to_string(), parse_number(g));
    }
    let mut from_stem = 0;
    if format == OutcomeFormat::JudgeFile && !JUDGE_ARM_FIELDS.iter().any(|f| seen.contains(*f)) {
        b.set(&mut row, "arm", file_stem(name), None);
        from_stem = 1;
    }
    b.push(row)?;
    Ok(from_stem)
}

/// The fields of one record as they become its row's columns.
struct Fields<'a> {
    row: &'a mut OutcomeRow,
    /// The columns set so far (a name set twice is refused).
    seen: &'a mut HashSet<String>,
    b: &'a mut Builder,
    loc: &'a dyn Fn(&str) -> Location,
}

impl Fields<'_> {
    /// A column named `key` not set before (else a refusal naming it, with `hint`).
    fn claim(&mut self, key: &str, hint: &str) -> Result<(), IngestError> {
        if self.seen.insert(key.to_string()) {
            Ok(())
        } else {
            Err(IngestError::new((self.loc)(key), format!("two fields are named `{key}`{hint}")))
        }
    }

    /// `v` under `key`, nested objects flattened with dotted keys.
    fn flatten(&mut self, key: &str, v: &Value) -> Result<(), IngestError> {
        if let Value::Object(m) = v
            && !m.is_empty()
        {
            for (k, inner) in m {
                let path = crate::ingest::json::key_path(key, k)
                    .map_err(|e| IngestError::new((self.loc)(&key.chars().take(60).collect::<String>()), e))?;
                self.flatten(&path, inner)?;
            }
            return Ok(());
        }
        self.claim(key, " (nested objects are flattened with dotted keys)")?;
        let row = &mut *self.row;
        match v {
            Value::Null => self.b.missing(key),
            Value::Bool(x) => self.b.set(row, key, x.to_string(), Some(if *x { 1.0 } else { 0.0 })),
            Value::Number(n) => self.b.set(row, key, n.to_string(), n.as_f64().filter(|x| x.is_finite())),
            Value::String(s) => self.b.set(row, key, s.clone(), parse_number(s)),
            Value::Array(_) | Value::Object(_) => {
                let text = serde_json::to_string(v).unwrap_or_default();
                self.b.set(row, key, text, None)
            }
        }
        Ok(())
    }

    /// A judge file's `llm_judgments`: one 0/1 column per judge run (`key.run`).
    fn judgments(&mut self, key: &str, v: &Value) -> Result<(), IngestError> {
        let Value::Object(m) = v else { return Ok(()) };
        for (j, jv) in m {
            let col = format!("{key}.{j}");
            self.claim(&col, "")?;
            match judgment(jv).map_err(|msg| IngestError::new((self.loc)(&col), msg))? {
                Some(x) => self.b.set(self.row, &col, x.to_string(), Some(if x { 1.0 } else { 0.0 })),
                None => self.b.missing(&col),
            }
        }
        Ok(())
    }
}

/// A judgment as a boolean: `true`/`false`, 0/1, or the words true/false, yes/no,
/// correct/incorrect/wrong (any case). `None` for `null`.
fn judgment(v: &Value) -> Result<Option<bool>, String> {
    match v {
        Value::Null => Ok(None),
        Value::Bool(b) => Ok(Some(*b)),
        Value::Number(n) => match n.as_f64() {
            Some(1.0) => Ok(Some(true)),
            Some(0.0) => Ok(Some(false)),
            _ => Err(format!("judgment {n} is not true/false or 0/1")),
        },
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" | "correct" | "1" => Ok(Some(true)),
            "false" | "no" | "incorrect" | "wrong" | "0" => Ok(Some(false)),
            _ => Err(format!("judgment `{s}` is not true/false")),
        },
        _ => Err("a judgment must be true or false".to_string()),
    }
}

fn check_judgments(members: &[(String, Value)], loc: &dyn Fn(&str) -> Location) -> Result<(), IngestError> {
    for (k, v) in members {
        if k != "llm_judgments" {
            continue;
        }
        let Value::Object(m) = v else {
            return Err(IngestError::new(
                loc(k),
                "expected an object of judgments {\"judgment_1\": true, \"judgment_2\": false, …}",
            ));
        };
        for (j, jv) in m {
            judgment(jv).map_err(|msg| IngestError::new(loc(&format!("{k}.{j}")), msg))?;
        }
    }
    Ok(())
}

/// reclaim-eval records: `pid` (string or number) and `correct` (boolean, 0/1 or null) are
/// required; `seed` must be an integer, `integrity` a number and `arm`/`policy`/`variant`
/// strings when present.
fn check_reclaim(members: &[(String, Value)], loc: &dyn Fn(&str) -> Location) -> Result<(), IngestError> {
    let get = |k: &str| members.iter().find(|(m, _)| m == k).map(|(_, v)| v);
    match get("pid") {
        Some(Value::String(_)) | Some(Value::Number(_)) => {}
        Some(_) => return Err(IngestError::new(loc("pid"), "the problem id must be a string or a number")),
        None => return Err(IngestError::new(loc("pid"), "required field `pid` is missing")),
    }
    match get("correct") {
        Some(Value::Bool(_)) | Some(Value::Null) => {}
        Some(Value::Number(n)) if matches!(n.as_f64(), Some(x) if x == 0.0 || x == 1.0) => {}
        Some(v) => return Err(IngestError::new(loc("correct"), format!("expected true or false, found {v}"))),
        None => return Err(IngestError::new(loc("correct"), "required field `correct` is missing")),
    }
    if let Some(v) = get("seed")
        && !(v.is_u64() || v.is_i64() || v.is_null())
    {
        return Err(IngestError::new(loc("seed"), format!("the seed must be an integer, found {v}")));
    }
    if let Some(v) = get("integrity")
        && !(v.is_number() || v.is_null())
    {
        return Err(IngestError::new(loc("integrity"), format!("integrity must be a number, found {v}")));
    }
    for k in ["arm", "policy", "variant"] {
        if let Some(v) = get(k)
            && !(v.is_string() || v.is_null())
        {
            return Err(IngestError::new(loc(k), format!("`{k}` must be a string, found {v}")));
        }
    }
    Ok(())
}

#[derive(Deserialize)]
struct PerQueryDoc {
    per_query: Vec<PerQueryRow>,
}

/// memaudit rescoring rows: the whole `rescore --format json` report (its `per_query`), a
/// JSON array of rows, or JSONL of rows. Typed: a wrong field is an error naming its path.
fn read_rescore(name: &str, text: &str, is_lines: bool, b: &mut Builder) -> Result<(), IngestError> {
    if is_lines {
        for (line, l) in jsonl_lines(text, &mut |_| {}) {
            let r: PerQueryRow = parse(name, line, l)?;
            push_per_query(name, line, &r, b);
        }
        return Ok(());
    }
    let trimmed = text.trim_start();
    let lines = object_lines(text, 2);
    let (rows, base): (Vec<PerQueryRow>, Vec<Seg>) = if trimmed.starts_with('[') {
        (parse(name, 0, text)?, Vec::new())
    } else {
        let doc: PerQueryDoc = parse(name, 0, text)?;
        (doc.per_query, vec![Seg::Key("per_query".into())])
    };
    for (i, r) in rows.iter().enumerate() {
        let mut path = base.clone();
        path.push(Seg::Index(i));
        let line = lines.get(&path).copied().unwrap_or(1);
        push_per_query(name, line, r, b);
    }
    Ok(())
}

/// One rescoring row: `system`, `query_id`, `target`, `eligible`, the metrics (missing when not
/// eligible), `has_run`, `groups`, `groups_hit`, `first_rank`, `category`.
pub(super) fn push_per_query(name: &str, line: usize, r: &PerQueryRow, b: &mut Builder) {
    let mut row = Builder::row(line);
    let flag = |x: bool| (x.to_string(), Some(if x { 1.0 } else { 0.0 }));
    b.set(&mut row, "system", r.system.clone(), None);
    b.set(&mut row, "query_id", r.query_id.clone(), parse_number(&r.query_id));
    b.set(&mut row, "target", r.target.name().to_string(), None);
    let (t, v) = flag(r.eligible);
    b.set(&mut row, "eligible", t, v);
    for (col, m) in [("ndcg", r.ndcg), ("recall", r.recall), ("hit", r.hit), ("mrr", r.mrr), ("top1", r.top1)] {
        match m {
            Some(x) if r.eligible && x.is_finite() => b.set(&mut row, col, format!("{x}"), Some(x)),
            Some(_) if !r.eligible => {
                b.missing(col);
                b.warnings.add(OutcomeWarningKind::IneligibleMetricIgnored, || {
                    format!("{name}, line {line}, field `{col}` ({} / {})", r.system, r.query_id)
                });
            }
            _ => b.missing(col),
        }
    }
    let (t, v) = flag(r.has_run);
    b.set(&mut row, "has_run", t, v);
    b.set(&mut row, "groups", r.groups.to_string(), Some(r.groups as f64));
    b.set(&mut row, "groups_hit", r.groups_hit.to_string(), Some(r.groups_hit as f64));
    match r.first_rank {
        Some(k) => b.set(&mut row, "first_rank", k.to_string(), Some(k as f64)),
        None => b.missing("first_rank"),
    }
    match &r.category {
        Some(c) => b.set(&mut row, "category", c.clone(), parse_number(c)),
        None => b.missing("category"),
    }
    b.rows.push(row);
}

/// One step of a JSON path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Seg {
    Key(String),
    Index(usize),
}

fn path_text(path: &[Seg]) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            Seg::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

enum Frame {
    Array(usize),
    /// The last key read, and whether a key (rather than a value) comes next.
    Object(Option<String>, bool),
}

/// The 1-based line where each value at path depth ≤ `max_depth` starts (keyed by its path).
/// Used on text that already parsed as JSON; on anything else it returns whatever it found,
/// never panicking.
fn object_lines(text: &str, max_depth: usize) -> HashMap<Vec<Seg>, usize> {
    let bytes = text.as_bytes();
    let mut out = HashMap::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut line = 1;
    let mut i = 0;
    // A value (rather than a key, a separator or a closing bracket) may start next.
    let mut pending = true;
    let current_path = |stack: &[Frame]| -> Vec<Seg> {
        stack
            .iter()
            .map(|f| match f {
                Frame::Array(i) => Seg::Index(*i),
                Frame::Object(k, _) => Seg::Key(k.clone().unwrap_or_default()),
            })
            .collect()
    };
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\n' {
            line += 1;
        }
        if pending && !c.is_ascii_whitespace() && c != b']' && c != b'}' {
            if stack.len() <= max_depth {
                out.insert(current_path(&stack), line);
            }
            pending = false;
        }
        match c {
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                let end = i.min(bytes.len());
                if let Some(Frame::Object(key, expect_key)) = stack.last_mut()
                    && *expect_key
                {
                    let raw = text.get(start..(end + 1).min(text.len())).unwrap_or("");
                    *key =
                        Some(serde_json::from_str::<String>(raw).unwrap_or_else(|_| raw.trim_matches('"').to_string()));
                }
            }
            b':' => {
                if let Some(Frame::Object(_, expect_key)) = stack.last_mut() {
                    *expect_key = false;
                }
                pending = true;
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object(_, expect_key)) => *expect_key = true,
                Some(Frame::Array(n)) => {
                    *n += 1;
                    pending = true;
                }
                None => {}
            },
            b'{' => stack.push(Frame::Object(None, true)),
            b'[' => {
                stack.push(Frame::Array(0));
                pending = true;
            }
            b'}' | b']' => {
                stack.pop();
            }
            _ => {}
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{ColumnKind, ReadOptions, read_outcomes, read_text as read};
    use super::*;
    use crate::ingest::InputFile;

    #[test]
    fn a_deep_object_of_long_keys_is_refused_before_its_paths_are_built() {
        let obj = crate::ingest::json::key_path_bomb();
        let text = format!("{{\"item\": \"a\", \"arm\": \"x\", \"correct\": 1, \"deep\": {obj}}}\n");
        let e = read("deep.jsonl", &text).unwrap_err();
        assert_eq!(e.location.line, Some(1));
        assert!(e.message.contains("longer than 1000 bytes once flattened"), "{}", e.message);
    }

    #[test]
    fn long_jsonl_flattens_and_counts_booleans() {
        let text = "{\"item\":\"q1\",\"arm\":\"a\",\"correct\":true,\"meta\":{\"len\":3,\"tag\":{\"x\":\"y\"}},\"ids\":[1,2],\"note\":null}\n\n\
{\"item\":\"q1\",\"arm\":\"b\",\"correct\":false,\"meta\":{\"len\":4.5}}\n";
        let t = read("l.jsonl", text).unwrap();
        assert_eq!(t.format, OutcomeFormat::LongJson);
        let r = &t.rows[0];
        assert_eq!(r.values["correct"], 1.0);
        assert_eq!(r.values["meta.len"], 3.0);
        assert_eq!(r.fields["meta.tag.x"], "y");
        assert_eq!(r.fields["ids"], "[1,2]");
        assert!(!r.values.contains_key("ids"));
        assert_eq!(t.rows[1].line, 3);
        assert_eq!(t.rows[1].values["correct"], 0.0);
        let names: Vec<&str> = t.columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["item", "arm", "correct", "meta.len", "meta.tag.x", "ids", "note"]);
        assert_eq!(t.column("correct").unwrap().kind, ColumnKind::Binary);
        assert_eq!(t.column("note").unwrap().missing, 2);
        assert_eq!(t.column("meta.tag.x").unwrap().missing, 1);
    }

    #[test]
    fn jsonl_errors_name_line_and_field() {
        let e = read("l.jsonl", "{\"item\":\"a\",\"arm\":\"x\"}\n{\"item\": \"b\", \"arm\": }\n").unwrap_err();
        assert_eq!(e.location.line, Some(2));
        assert!(e.message.starts_with("not valid JSON"), "{e}");
        let e = read("l.jsonl", "{\"item\":\"a\"}\n[1,2]\n").unwrap_err();
        assert_eq!(e.location.line, Some(2));
        assert!(e.message.contains("one JSON object per line"), "{e}");
        let e = read("l.jsonl", "{\"item\":\"a\"}\n{\"a.b\":1,\"a\":{\"b\":2}}\n").unwrap_err();
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("a.b")));
        let e = read("l.jsonl", "{\"item\":\"a\"}\n{\"x\":1,\"x\":2}\n").unwrap_err();
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("x")));
    }

    #[test]
    fn json_array_and_grouped_documents() {
        let text =
            "[\n  {\"item\": \"a\", \"arm\": \"x\", \"v\": 1},\n  {\"item\": \"a\", \"arm\": \"y\", \"v\": 0}\n]\n";
        let t = read("a.json", text).unwrap();
        assert_eq!((t.rows.len(), t.rows[1].line), (2, 3));
        let text = "{\n \"g1\": [\n  {\"item\": \"a\", \"arm\": \"x\"},\n  {\"item\": \"b\", \"arm\": \"x\"}\n ],\n \"g2\": [{\"item\": \"c\", \"arm\": \"x\"}]\n}";
        let t = read("g.json", text).unwrap();
        assert_eq!(t.rows.len(), 3);
        assert_eq!((t.rows[1].fields["group"].as_str(), t.rows[1].line), ("g1", 4));
        assert_eq!((t.rows[2].fields["group"].as_str(), t.rows[2].line), ("g2", 6));
        let e = read("g.json", "[{\"a\": 1},\n 7]").unwrap_err();
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("[1]")));
        let e = read("g.json", "{\"a\": 1,\n \"b\": 2}").unwrap_err();
        assert!(e.message.contains("without per-item records"), "{e}");
        let e = read("g.json", "{\"a\": 1,\n \"b\": }").unwrap_err();
        assert_eq!(e.location.line, Some(2));
    }

    #[test]
    fn reclaim_records_are_checked() {
        let ok = "{\"pid\":\"notebooks\",\"seed\":0,\"policy\":\"lossy\",\"correct\":false,\"answer\":55.0}\n";
        let t = read("r.jsonl", ok).unwrap();
        assert_eq!(t.format, OutcomeFormat::ReclaimEval);
        assert_eq!(t.rows[0].values["correct"], 0.0);
        for (bad, field) in [
            (ok.replace("false", "\"no\""), "correct"),
            (ok.replace("\"seed\":0", "\"seed\":0.5"), "seed"),
            (ok.replace("\"lossy\"", "3"), "policy"),
            (ok.replace("\"notebooks\"", "[1]"), "pid"),
        ] {
            let text = format!("{ok}{bad}");
            let e = read("r.jsonl", &text).unwrap_err();
            assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some(field)), "{bad}");
        }
        let e = read_outcomes(
            &InputFile::new("r.jsonl", "{\"seed\":0,\"policy\":\"p\",\"correct\":true}\n"),
            &ReadOptions { format: Some(OutcomeFormat::ReclaimEval) },
        )
        .unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("pid"));
    }

    #[test]
    fn judge_records() {
        let text = "{\"question_id\":\"q1\",\"category\":2,\"llm_judgments\":{\"judgment_1\":true,\"judgment_2\":false,\"judgment_3\":true}}\n\
{\"question_id\":\"q2\",\"category\":1,\"llm_judgments\":{\"judgment_1\":\"CORRECT\",\"judgment_2\":0,\"judgment_3\":null}}\n";
        let t = read("runs/mem0-v2.jsonl", text).unwrap();
        assert_eq!(t.format, OutcomeFormat::JudgeFile);
        assert_eq!(t.rows[0].fields["arm"], "mem0-v2");
        assert_eq!(t.rows[1].values["llm_judgments.judgment_1"], 1.0);
        assert!(!t.rows[1].values.contains_key("llm_judgments.judgment_3"));
        assert_eq!(t.warnings.count(OutcomeWarningKind::ArmFromFileName), 2);
        let named = text.replace("{\"question_id\":\"q1\"", "{\"system\":\"zep\",\"question_id\":\"q1\"");
        let t = read("x.jsonl", &named).unwrap();
        assert!(!t.rows[0].fields.contains_key("arm"));
        assert_eq!(t.rows[1].fields["arm"], "x");
        let bad = text.replace("\"judgment_2\":0", "\"judgment_2\":\"maybe\"");
        let e = read("j.jsonl", &bad).unwrap_err();
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("llm_judgments.judgment_2")));
        let e = read("j.jsonl", "{\"question_id\":\"q1\",\"llm_judgments\":[true]}\n").unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("llm_judgments"));
    }

    #[test]
    fn evermemos_judge_document() {
        let text = r#"{
  "total_questions": 2,
  "accuracy": 0.5,
  "detailed_results": {
    "conv-26": [
      {
        "question_id": "conv-26_qa1",
        "llm_judgments": {"judgment_1": true, "judgment_2": true}
      },
      {
        "question_id": "conv-26_qa2",
        "llm_judgments": {"judgment_1": false, "judgment_2": true}
      }
    ]
  },
  "metadata": {"model": "gpt-4o-mini"}
}"#;
        let t = read("evermemos/eval_results.json", text).unwrap();
        assert_eq!(t.format, OutcomeFormat::JudgeFile);
        assert_eq!(t.rows.len(), 2);
        assert_eq!((t.rows[1].line, t.rows[1].fields["group"].as_str()), (10, "conv-26"));
        assert_eq!(t.rows[0].fields["arm"], "eval_results");
    }

    #[test]
    fn rescore_rows_in_every_container() {
        let row = r#"{"system":"bm25","query_id":"q1","target":"raw","eligible":true,"ndcg":0.5,"recall":1.0,"hit":1.0,"mrr":0.5,"top1":0.0,"has_run":true,"groups":1,"groups_hit":1,"first_rank":2,"category":"single"}"#;
        let inel = r#"{"system":"bm25","query_id":"q1","target":"canonical","eligible":false,"ndcg":null,"recall":null,"hit":null,"mrr":null,"top1":null,"has_run":true,"groups":0,"groups_hit":0,"first_rank":null,"category":null}"#;
        let report = format!("{{\"memaudit_version\":\"0.1.0\",\"per_query\":[{row},\n{inel}],\"summary\":[]}}");
        for text in [format!("{row}\n{inel}\n"), format!("[{row},\n{inel}]"), report] {
            let t = read("r.json", &text).unwrap();
            assert_eq!(t.format, OutcomeFormat::RescorePerQuery, "{text}");
            assert_eq!(t.rows.len(), 2);
            assert_eq!(t.rows[0].values["ndcg"], 0.5);
            assert!(!t.rows[1].values.contains_key("ndcg"));
            assert_eq!(t.rows[1].line, 2);
        }
        let bad = format!("{{\"per_query\":[{row},\n{}]}}", inel.replace("\"canonical\"", "\"sideways\""));
        let e = read("r.json", &bad).unwrap_err();
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("per_query[1].target")));
        let e = read("r.jsonl", &format!("{row}\n{}\n", row.replace("\"groups\":1,", ""))).unwrap_err();
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("groups")));
    }

    #[test]
    fn object_lines_on_odd_text() {
        let l = object_lines("{\"a\\\"b\": [\n{\"x\": \"}\"}, {}]}", 3);
        assert_eq!(l.get(&vec![Seg::Key("a\"b".into()), Seg::Index(0)]), Some(&2));
        assert_eq!(l.get(&vec![Seg::Key("a\"b".into()), Seg::Index(1)]), Some(&2));
        // Never panics on garbage.
        let _ = object_lines("\"\\", 3);
        let _ = object_lines("}}]]{[\"", 3);
    }
}
