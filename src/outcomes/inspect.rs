//! Inspect AI evaluation logs (UK AISI `inspect_ai`): the `.eval` archive (a zip holding
//! `header.json` and `samples/<id>_epoch_<n>.json`) and the one-document `.json` log
//! (`{version, status, eval, results, samples: [...]}`).
//!
//! One row per (sample, epoch, scorer): `sample_id`, `epoch`, `scorer`, the eval's `model`,
//! `task` and `run_id`, the score as written (`score_value`) and as a number (`score`).
//! Inspect's letter grades become numbers as Inspect's own `value_to_float` does: `C`
//! (correct) = 1, `I` (incorrect) = 0, `P` (partial) = 0.5, `N` (no answer) = 0; numbers and
//! booleans are taken as they are. A sample without a score (`scores: {}`, an unscored log)
//! gives a row with the score missing, counted — never a 0.
//!
//! Written by hand over the `zip` crate: no crate reads Inspect's log schema.

use crate::fields::mention;
use std::io::Cursor;

use serde_json::Value;

use super::{Builder, OutcomeFormat, OutcomeTable, OutcomeWarningKind, Spec};
use crate::error::{IngestError, Location};

/// The first bytes of a zip archive (`PK\x03\x04`).
pub fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

/// Whether a JSON document is an Inspect log (`eval` and `samples` at its top level).
pub fn is_json_log(doc: &Value) -> bool {
    matches!(doc, Value::Object(m) if m.get("eval").is_some_and(Value::is_object) && m.contains_key("samples"))
}

/// Inspect's `value_to_float` for a score value; `None` when it is not a score.
pub fn score_number(v: &Value) -> Option<f64> {
    match v {
        Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        Value::Number(n) => n.as_f64().filter(|x| x.is_finite()),
        Value::String(s) => match s.trim() {
            "C" => Some(1.0),
            "I" => Some(0.0),
            "P" => Some(0.5),
            "N" => Some(0.0),
            t => super::parse_number(t),
        },
        _ => None,
    }
}

struct EvalInfo {
    model: String,
    task: String,
    run_id: String,
}

fn eval_info(header: &Value) -> EvalInfo {
    let e = &header["eval"];
    let text = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    EvalInfo { model: text("model"), task: text("task"), run_id: text("run_id") }
}

fn id_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The rows of one sample (`ordinal`: its 1-based position, the rows' "line").
fn push_sample(
    name: &str,
    where_: &str,
    ordinal: usize,
    info: &EvalInfo,
    sample: &Value,
    b: &mut Builder,
) -> Result<(), IngestError> {
    let at = || Location::file(name).with_field(where_.to_string());
    let id = sample.get("id").and_then(id_text).ok_or_else(|| IngestError::new(at(), "a sample without an `id`"))?;
    let epoch = sample.get("epoch").and_then(Value::as_u64).unwrap_or(1);
    let mut scores: Vec<(String, &Value)> = Vec::new();
    if let Some(Value::Object(m)) = sample.get("scores") {
        for (scorer, s) in m {
            match s.get("value") {
                // A scorer with several values (`{"accuracy": 1, "f1": 0.5}`): one score each.
                Some(Value::Object(vs)) => {
                    for (k, v) in vs {
                        scores.push((format!("{scorer}/{k}"), v));
                    }
                }
                Some(v) => scores.push((scorer.clone(), v)),
                None => {}
            }
        }
    }
    let base = |b: &mut Builder, scorer: &str| {
        let mut row = Builder::row(ordinal);
        b.set(&mut row, "sample_id", id.clone(), None);
        b.set(&mut row, "epoch", epoch.to_string(), Some(epoch as f64));
        // An unscored sample has no scorer (missing, not an empty scorer name).
        if !scorer.is_empty() {
            b.set(&mut row, "scorer", scorer.to_string(), None);
        }
        for (k, v) in [("model", &info.model), ("task", &info.task), ("run_id", &info.run_id)] {
            if !v.is_empty() {
                b.set(&mut row, k, v.clone(), None);
            }
        }
        row
    };
    if scores.is_empty() {
        let row = base(b, "");
        b.missing("score");
        b.warnings.add(OutcomeWarningKind::UnscoredSample, || format!("{name}: sample `{id}` epoch {epoch}"));
        b.push(row)?;
        return Ok(());
    }
    for (scorer, v) in scores {
        let mut row = base(b, &scorer);
        let text = match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        match score_number(v) {
            Some(x) => b.set(&mut row, "score", text.clone(), Some(x)),
            None => {
                return Err(IngestError::new(
                    Location::file(name).with_field(format!("{where_}.scores.{scorer}.value")),
                    format!("`{text}` is not a score (C, I, P, N, a number or true/false)"),
                ));
            }
        }
        b.set(&mut row, "score_value", text, None);
        b.push(row)?;
    }
    Ok(())
}

/// The task a one-document Inspect log evaluates (`eval.task`); `None` when it names none.
/// Logs of different tasks are different benchmarks, never one comparison.
pub fn task_of_log(doc: &Value) -> Option<String> {
    Some(eval_info(doc).task).filter(|t| !t.is_empty())
}

/// The task of an `.eval` archive, from its `header.json` (inflated under `limits`); `None`
/// when it names none or cannot be read.
pub fn task_of_archive(bytes: &[u8], limits: crate::ingest::Limits) -> Option<String> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).ok()?;
    let mut f = zip.by_name("header.json").ok()?;
    let data = crate::ingest::archive::entry_bytes("", "header.json", &mut f, limits).ok()?;
    task_of_log(&crate::ingest::json::from_str(std::str::from_utf8(&data).ok()?).ok()?)
}

/// The task of a one-document log too large to parse whole, from its head: the `"task"` string
/// of its `"eval"` object, which Inspect writes before the samples.
pub fn task_in_head(head: &str) -> Option<String> {
    let eval = head.find("\"eval\"")?;
    let rest = &head[eval..];
    let key = rest.find("\"task\"")?;
    let after = rest[key + "\"task\"".len()..].trim_start().strip_prefix(':')?.trim_start();
    let mut de = serde_json::Deserializer::from_str(after).into_iter::<String>();
    de.next()?.ok().filter(|t| !t.is_empty())
}

/// Reads an `.eval` archive.
///
/// Each entry is inflated under the file budget (`limits.max_bytes`, counted while inflating) and
/// the entries together under [`MAX_TOTAL_FACTOR`](crate::ingest::archive::MAX_TOTAL_FACTOR)
/// budgets, as the entries of any archive.
pub(crate) fn read_eval_archive(
    name: &str,
    bytes: &[u8],
    limits: crate::ingest::Limits,
    b: &mut Builder,
) -> Result<(), IngestError> {
    let bad =
        |e: String| IngestError::new(Location::file(name), format!("not a readable Inspect `.eval` archive: {e}"));
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| bad(e.to_string()))?;
    let total_limit = limits.max_bytes.saturating_mul(crate::ingest::archive::MAX_TOTAL_FACTOR);
    let mut total = 0u64;
    let mut read_json = |zip: &mut zip::ZipArchive<Cursor<&[u8]>>, entry: &str| -> Result<Value, IngestError> {
        let mut f = zip.by_name(entry).map_err(|e| bad(format!("{entry}: {e}")))?;
        let data = crate::ingest::archive::entry_bytes(name, entry, &mut f, limits)?;
        total += data.len() as u64;
        if total > total_limit {
            return Err(crate::ingest::too_large(name, "unpacks to", total_limit));
        }
        let text = String::from_utf8(data).map_err(|e| {
            IngestError::new(
                Location::file(name).with_field(entry.to_string()),
                format!("not UTF-8 text (invalid byte at offset {})", e.utf8_error().valid_up_to()),
            )
        })?;
        crate::ingest::json::from_str(&text).map_err(|e| {
            IngestError::new(Location::file(name).with_field(entry.to_string()), format!("not valid JSON: {e}"))
        })
    };
    let names: Vec<String> = zip.file_names().map(str::to_string).collect();
    if !names.iter().any(|n| n == "header.json") && !names.iter().any(|n| n.starts_with("samples/")) {
        return Err(bad("it has neither `header.json` nor `samples/` (is it an Inspect log?)".into()));
    }
    let info = if names.iter().any(|n| n == "header.json") {
        eval_info(&read_json(&mut zip, "header.json")?)
    } else {
        EvalInfo { model: String::new(), task: String::new(), run_id: String::new() }
    };
    let mut samples: Vec<(String, Value)> = Vec::new();
    for n in names.iter().filter(|n| n.starts_with("samples/") && n.ends_with(".json")) {
        samples.push((n.clone(), read_json(&mut zip, n)?));
    }
    // The archive's entry order is the order samples finished: sort by (id, epoch).
    samples.sort_by(|a, b| {
        let key =
            |v: &Value| (v.get("id").and_then(id_text).unwrap_or_default(), v.get("epoch").and_then(Value::as_u64));
        let (ka, kb) = (key(&a.1), key(&b.1));
        natural(&ka.0, &kb.0).then(ka.1.cmp(&kb.1))
    });
    for (i, (entry, s)) in samples.iter().enumerate() {
        push_sample(name, entry, i + 1, &info, s, b)?;
    }
    Ok(())
}

/// Reads a one-document `.json` Inspect log.
pub(crate) fn read_json_log(name: &str, doc: &Value, b: &mut Builder) -> Result<(), IngestError> {
    let info = eval_info(doc);
    let samples = doc.get("samples").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    if samples.is_empty() {
        return Err(IngestError::new(
            Location::file(name).with_field("samples"),
            "the Inspect log has no samples (logs written with --no-log-samples hold only the summary)",
        ));
    }
    for (i, s) in samples.iter().enumerate() {
        push_sample(name, &format!("samples[{i}]"), i + 1, &info, s, b)?;
    }
    Ok(())
}

/// The table with every `P` (partial) grade of an Inspect log credited `credit` instead of
/// Inspect's 0.5, and the spec stating it; refused when no file is an Inspect log or the value
/// is not the Inspect `score` (the setting would change nothing, silently).
pub fn with_partial_credit(table: &OutcomeTable, spec: &Spec, credit: f64) -> Result<(OutcomeTable, Spec), String> {
    if !(0.0..=1.0).contains(&credit) {
        return Err(format!("{} {credit}: the credit of a `P` grade must lie in [0, 1]", mention("partial_credit")));
    }
    let inspect: Vec<bool> = table.files.iter().map(|f| f.format == OutcomeFormat::InspectLog).collect();
    if !inspect.iter().any(|&b| b) {
        return Err(format!(
            "{} applies to the `P` grades of Inspect logs; none of these files is one",
            mention("partial_credit")
        ));
    }
    if spec.value != "score" {
        return Err(format!(
            "{} applies to Inspect's `score`, but the value read is `{}` (leave {} unstated)",
            mention("partial_credit"),
            spec.value,
            mention("value")
        ));
    }
    let mut out = table.clone();
    let mut n = 0usize;
    for r in &mut out.rows {
        if inspect.get(r.file).copied().unwrap_or(false) && r.fields.get("score_value").is_some_and(|v| v.trim() == "P")
        {
            r.values.insert("score".into(), credit);
            n += 1;
        }
    }
    let mut spec = spec.clone();
    spec.reasons.push(format!("`P` (partial) grades scored {credit} (`partial_credit`): {n} scores"));
    Ok((out, spec))
}

/// Sample ids in natural order (`2` before `10`).
fn natural(a: &str, b: &str) -> std::cmp::Ordering {
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => x.total_cmp(&y),
        _ => a.cmp(b),
    }
}

#[cfg(test)]
mod task_tests {
    use super::*;

    #[test]
    fn the_task_of_a_log_from_its_document_or_its_head() {
        let doc: Value =
            serde_json::from_str(r#"{"eval": {"task": "popularity", "model": "m"}, "samples": []}"#).unwrap();
        assert_eq!(task_of_log(&doc).as_deref(), Some("popularity"));
        let head = r#"{"version": 2, "status": "success", "eval": {"run_id": "r", "task": "mmlu \"5\"", "model"#;
        assert_eq!(task_in_head(head).as_deref(), Some("mmlu \"5\""));
        assert_eq!(task_in_head(r#"{"eval": {"model": "m"#), None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letter_grades_are_inspects_value_to_float() {
        for (v, want) in
            [("C", Some(1.0)), ("I", Some(0.0)), ("P", Some(0.5)), ("N", Some(0.0)), ("0.25", Some(0.25)), ("x", None)]
        {
            assert_eq!(score_number(&Value::String(v.into())), want, "{v}");
        }
        assert_eq!(score_number(&Value::Bool(true)), Some(1.0));
        assert_eq!(score_number(&serde_json::json!(3)), Some(3.0));
        assert_eq!(score_number(&Value::Null), None);
    }

    #[test]
    fn an_eval_log_is_inflated_under_the_file_budget() {
        use std::io::Write;
        let sample = format!(
            "{{\"id\": 1, \"epoch\": 1, \"scores\": {{\"match\": {{\"value\": \"C\"}}}}, \"pad\": \"{}\"}}",
            "x".repeat(4096)
        );
        let mut buf = Cursor::new(Vec::new());
        {
            let mut z = zip::ZipWriter::new(&mut buf);
            let opts = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
            z.start_file("header.json", opts).unwrap();
            z.write_all(b"{\"eval\": {\"task\": \"t\", \"model\": \"m\", \"run_id\": \"r\"}}").unwrap();
            z.start_file("samples/1_epoch_1.json", opts).unwrap();
            z.write_all(sample.as_bytes()).unwrap();
            z.finish().unwrap();
        }
        let bytes = buf.into_inner();
        let small = crate::ingest::Limits { max_bytes: 1024, ..crate::ingest::Limits::DEFAULT };
        let mut b = Builder::new("log.eval").with_limits(small);
        let e = read_eval_archive("log.eval", &bytes, small, &mut b).unwrap_err();
        assert_eq!(e.location.file, "log.eval/samples/1_epoch_1.json");
        assert!(e.message.starts_with("unpacks to more than 1024 bytes"), "{}", e.message);
        // Under the default budget the same log is read.
        let mut b = Builder::new("log.eval");
        read_eval_archive("log.eval", &bytes, crate::ingest::Limits::DEFAULT, &mut b).unwrap();
    }
}
