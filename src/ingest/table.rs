//! Flat tables of text cells as a user ships them: CSV/TSV with a header row, JSON Lines of
//! objects, or a JSON array of objects (`null` is an empty cell; a number or boolean is read as
//! its JSON text; a nested object's keys are columns of their own, dotted: `autoeval_label.label`,
//! as the outcome reader reads them). Cells are trimmed. Used by the readers whose inputs are "a table
//! with named columns" (labels, calibration).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{IngestError, Location};
use crate::ingest::InputFile;

/// A file as a table of trimmed text cells with the line of each record (a JSON array element: its
/// position from 1).
#[derive(Debug, Clone, Default)]
pub struct Rows {
    pub headers: Vec<String>,
    pub records: Vec<(usize, Vec<String>)>,
}

fn cell_text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.trim().to_string(),
        other => other.to_string(),
    }
}

/// Reads a file as a table (CSV/TSV, JSON Lines or a JSON array of objects).
pub fn rows(file: &InputFile) -> std::result::Result<Rows, IngestError> {
    let (text, _) = file.text()?;
    let name = file.name.as_str();
    let first = text.trim_start().chars().next();
    if first == Some('[') {
        let doc: Value =
            crate::ingest::json::from_str(&text).map_err(|e| crate::ingest::json::error_at(name, 0, &e))?;
        let items = doc.as_array().map(Vec::as_slice).unwrap_or_default();
        let objects: Vec<(usize, &serde_json::Map<String, Value>)> = items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_object().map(|o| (i, o)).ok_or_else(|| {
                    IngestError::new(Location::file(name).with_field(format!("[{i}]")), "an element is not an object")
                })
            })
            .collect::<std::result::Result<_, _>>()?;
        check_cells(file, &objects)?;
        // Elements of a JSON array have no line: their index (from 1) stands in for it.
        return from_objects(file, objects.into_iter().map(|(i, o)| (i + 1, o)));
    }
    if first == Some('{') {
        let mut objects = Vec::new();
        let mut cells = 0u64;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let v: Value =
                crate::ingest::json::from_str(line).map_err(|e| crate::ingest::json::error_at(name, i + 1, &e))?;
            match v {
                Value::Object(o) => {
                    cells += o.len() as u64;
                    file.limits().check_cells(|| Location::line(name, i + 1), cells)?;
                    objects.push((i + 1, o))
                }
                _ => return Err(IngestError::new(Location::line(name, i + 1), "a line is not a JSON object")),
            }
        }
        return from_objects(file, objects.iter().map(|(l, o)| (*l, o)));
    }
    let data = crate::ingest::delimited::parse(name, &text, file.limits())?;
    Ok(Rows { headers: data.headers, records: data.records })
}

/// Refuses the objects of a JSON array past the file's cell budget, at the element that passed it
/// ([`crate::ingest::Limits::max_cells`]).
fn check_cells(file: &InputFile, objects: &[(usize, &serde_json::Map<String, Value>)]) -> Result<(), IngestError> {
    let mut cells = 0u64;
    for (i, o) in objects {
        cells += o.len() as u64;
        file.limits().check_cells(|| Location::file(&file.name).with_field(format!("[{i}]")), cells)?;
    }
    Ok(())
}

/// The keys of JSON objects as columns: each once, in the order first seen (a set, not a scan:
/// wide records can have many keys).
pub fn keys_first_seen<'a>(objects: impl IntoIterator<Item = &'a serde_json::Map<String, Value>>) -> Vec<String> {
    let mut headers: Vec<String> = Vec::new();
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for o in objects {
        for k in o.keys() {
            if seen.insert(k.as_str()) {
                headers.push(k.clone());
            }
        }
    }
    headers
}

/// One object's cells, nested objects flattened with dotted keys (`autoeval_label.label`) as the
/// outcome reader flattens them; an empty object is the cell `{}`, an array its JSON text.
/// A dotted key past [`crate::ingest::json::MAX_KEY_PATH`] bytes is refused (the message, for
/// the caller to locate).
fn flat_cells(prefix: &str, o: &serde_json::Map<String, Value>, out: &mut Vec<(String, String)>) -> Result<(), String> {
    for (k, v) in o {
        let key = if prefix.is_empty() { k.clone() } else { crate::ingest::json::key_path(prefix, k)? };
        match v {
            Value::Object(inner) if !inner.is_empty() => flat_cells(&key, inner, out)?,
            _ => out.push((key, cell_text(v))),
        }
    }
    Ok(())
}

fn from_objects<'a>(
    file: &InputFile,
    objects: impl Iterator<Item = (usize, &'a serde_json::Map<String, Value>)>,
) -> Result<Rows, IngestError> {
    let (name, limits) = (file.name.as_str(), file.limits());
    // Cells once flattened, under the file's cell budget (a nested object's leaves count).
    let mut total = 0u64;
    let mut headers: Vec<String> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut flat: Vec<(usize, Vec<(usize, String)>)> = Vec::new();
    // The record (from 1) that last set each column: a repeat within a record is seen at once.
    let mut set_by: Vec<usize> = Vec::new();
    for (n, (line, o)) in objects.enumerate() {
        let mut cells = Vec::with_capacity(o.len());
        flat_cells("", o, &mut cells).map_err(|m| IngestError::new(Location::line(name, line), m))?;
        total += cells.len() as u64;
        limits.check_cells(|| Location::line(name, line), total)?;
        let mut row: Vec<(usize, String)> = Vec::with_capacity(cells.len());
        for (key, text) in cells {
            let col = match index.get(&key) {
                Some(&c) => c,
                None => {
                    headers.push(key.clone());
                    set_by.push(0);
                    index.insert(key.clone(), headers.len() - 1);
                    headers.len() - 1
                }
            };
            // `{"a.b": 1, "a": {"b": 2}}`: two cells of one column, never one kept unsaid.
            if std::mem::replace(&mut set_by[col], n + 1) == n + 1 {
                return Err(IngestError::new(
                    Location::line(name, line).with_field(key.clone()),
                    format!("two fields are named `{key}` (nested objects are flattened with dotted keys)"),
                ));
            }
            row.push((col, text));
        }
        flat.push((line, row));
    }
    let width = headers.len();
    let records = flat
        .into_iter()
        .map(|(line, row)| {
            let mut rec = vec![String::new(); width];
            for (c, text) in row {
                rec[c] = text;
            }
            (line, rec)
        })
        .collect();
    Ok(Rows { headers, records })
}

/// The column a reader uses: the one `stated` names (an error naming the file, the setting —
/// `option`, a [`crate::fields::mention`] — and the file's columns when absent), else the first
/// of `aliases` present, else `None`.
pub fn find_column(
    file: &str,
    headers: &[String],
    stated: Option<&str>,
    aliases: &[&str],
    option: &str,
) -> crate::error::Result<Option<usize>> {
    match stated {
        Some(s) => headers.iter().position(|h| h == s).map(Some).ok_or_else(|| {
            crate::error::Error::Ingest(IngestError::new(
                Location::file(file).with_field(s.to_string()),
                format!(
                    "{option} names the column `{s}`, which this file does not have (its columns: {})",
                    headers.join(", ")
                ),
            ))
        }),
        None => Ok(aliases.iter().find_map(|a| headers.iter().position(|h| h == a))),
    }
}

/// [`find_column`] for a column the reader cannot do without: absent, an error naming the file,
/// the aliases looked for, the option that states it, and the file's columns.
pub fn required_column(
    file: &str,
    headers: &[String],
    stated: Option<&str>,
    aliases: &[&str],
    option: &str,
    what: &str,
) -> crate::error::Result<usize> {
    find_column(file, headers, stated, aliases, option)?.ok_or_else(|| {
        crate::error::Error::Ingest(IngestError::new(
            Location::file(file).with_field(what.to_string()),
            format!(
                "no {what} column (looked for {}): state it with {option} (the columns are: {})",
                aliases.join(", "),
                headers.join(", ")
            ),
        ))
    })
}

/// Whether a file reads as a table with, for each group of aliases, one of them as a column.
pub fn has_columns(file: &InputFile, groups: &[&[&str]]) -> bool {
    rows(file).is_ok_and(|r| groups.iter().all(|names| r.headers.iter().any(|h| names.contains(&h.as_str()))))
}

/// CSV cells read as missing (besides the empty cell). JSON has `null` instead; JSON strings
/// are never missing markers.
pub const MISSING_MARKERS: [&str; 7] = ["NA", "N/A", "n/a", "NaN", "nan", "null", "NULL"];

/// Whether a cell is a missing value: empty, or a missing marker (`NA`, `null`, …).
pub fn is_missing(cell: &str) -> bool {
    cell.is_empty() || MISSING_MARKERS.contains(&cell)
}

/// A 0/1 cell: `true`, `1`, `1.0`, `yes` / `false`, `0`, `0.0`, `no` (any case).
pub fn parse_bool(cell: &str) -> Option<bool> {
    match cell.to_ascii_lowercase().as_str() {
        "true" | "1" | "1.0" | "yes" => Some(true),
        "false" | "0" | "0.0" | "no" => Some(false),
        _ => None,
    }
}

/// Where a counted problem was first seen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Example {
    pub file: String,
    pub line: usize,
    pub item: String,
    pub rater: String,
    pub detail: String,
}

/// A counted reading problem with its first examples.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    pub count: usize,
    pub examples: Vec<Example>,
}

impl Tally {
    /// Why nothing was left to use, located: `N rows left out, the first at FILE, line L:
    /// DETAIL` (`one` and `many`: what was counted, e.g. `row`, `rows`); `None` when nothing
    /// was left out.
    pub fn located(&self, one: &str, many: &str) -> Option<String> {
        let e = self.examples.first()?;
        let what = if self.count == 1 { one } else { many };
        Some(format!("{} {what} left out, the first at {}, line {}: {}", self.count, e.file, e.line, e.detail))
    }

    /// The first example in words, `first: FILE line L: DETAIL`; `None` when nothing was
    /// counted.
    pub fn first_seen(&self) -> Option<String> {
        let e = self.examples.first()?;
        Some(format!("first: {} line {}: {}", e.file, e.line, e.detail))
    }

    /// Counts one more, keeping the first five examples.
    pub fn add(&mut self, e: impl FnOnce() -> Example) {
        self.count += 1;
        if self.examples.len() < 5 {
            self.examples.push(e());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(name: &str, text: &str) -> Result<Rows, IngestError> {
        rows(&InputFile::new(name, text.as_bytes().to_vec()))
    }

    #[test]
    fn nested_objects_are_columns_of_their_own_with_dotted_keys() {
        // LongMemEval's judged answers: the judge and its verdict inside `autoeval_label`.
        let jsonl = "{\"question_id\": \"q1\", \"autoeval_label\": {\"model\": \"gpt-4o-mini\", \"label\": true}, \"x\": {}}\n\
                     {\"question_id\": \"q2\", \"autoeval_label\": {\"model\": \"gpt-4o-mini\", \"label\": false, \"why\": {\"short\": \" no \"}}, \"tags\": [1, 2]}\n";
        let t = read("judged.jsonl", jsonl).unwrap();
        // Keys in the order first seen (serde_json orders an object's keys by name).
        assert_eq!(
            t.headers,
            ["autoeval_label.label", "autoeval_label.model", "question_id", "x", "autoeval_label.why.short", "tags"]
        );
        assert_eq!(
            t.records[0],
            (1, vec!["true".into(), "gpt-4o-mini".into(), "q1".into(), "{}".into(), String::new(), String::new()])
        );
        assert_eq!(t.records[1].1[4], "no", "cells are trimmed");
        assert_eq!(t.records[1].1[5], "[1,2]");
        // A JSON array reads the same, elements numbered from 1.
        let array = format!("[{}]", jsonl.trim().lines().collect::<Vec<_>>().join(","));
        let a = read("judged.json", &array).unwrap();
        assert_eq!((a.headers.clone(), a.records.clone()), (t.headers, t.records));
    }

    #[test]
    fn a_deep_object_of_long_keys_is_refused_before_its_paths_are_built() {
        let obj = crate::ingest::json::key_path_bomb();
        let e = read("deep.jsonl", &format!("{{\"id\": 1}}\n{obj}\n")).unwrap_err();
        assert_eq!(e.location, Location::line("deep.jsonl", 2));
        assert!(e.message.contains("longer than 1000 bytes once flattened"), "{}", e.message);
    }

    #[test]
    fn a_dotted_key_met_again_by_flattening_is_refused_at_its_line() {
        let e = read("r.jsonl", "{\"id\": 1}\n{\"a.b\": 1, \"a\": {\"b\": 2}}\n").unwrap_err();
        assert_eq!(e.location, Location::line("r.jsonl", 2).with_field("a.b".to_string()));
        assert!(e.message.starts_with("two fields are named `a.b`"), "{}", e.message);
    }
}
