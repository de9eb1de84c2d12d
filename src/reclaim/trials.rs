//! Per-trial result rows (one model call at reclaim time), read from JSONL.
//!
//! Accepted fields (aliases in parentheses; every field but the problem id is optional):
//!
//! | field | meaning |
//! |---|---|
//! | `pid` (`problem_id`, `example_idx`, `dialogue_id`) | problem id (the cluster of the problem-clustered bootstrap) |
//! | `policy` (`variant`, `condition`) | memory policy; `all` when absent (counted) |
//! | `integrity` (`g`) | integrity level g |
//! | `arm` (`correction`) | correction arm (`generic`, `directed`, ...) |
//! | `seed`, `model`, `task` | |
//! | `reply` (`raw_reply`) | the raw reply, re-scored strictly when the truth is known |
//! | `answer` (`parsed_answer`) | the stored parsed answer; `null` = no answer (abstain) |
//! | `correct` | the stored outcome (bool or 0/1) |
//! | `truth` (`y_true`, `correct_answer`, `true`) | the true answer y* |
//! | `stale` (`drift`, `y_stale`) | the stale (drift) value y′ |
//! | `options` | closed answer set (logic) |
//! | `kind` (`task_kind`) | `number`, `word` (`text`) or `time` |
//! | `attractor`, `bucket` | stored behaviour labels (`bucket` ∈ `true`/`recov`, `emit`, `abstain`/`abst`/`noans`, ...) |
//! | `flagged` | the reply hedged in prose ("unverified"), whatever its ANSWER line says |
//!
//! reclaim-eval's files carry no truth or stale value: they come from the probe keys by `pid`
//! (`correct`, `drift`, `options`, `kind`), and for deployed-memory rows (`memory_text`) of
//! problems the keys lack, the stale value comes from the file's `lossy@…` template note.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::score::{Answer, AnswerKind};
use crate::error::{IngestError, Location};
use crate::ingest::InputFile;
use crate::ingest::records::jsonl_lines;
use crate::probe::read::{ProbeKeys, template_conclusion};
use crate::probe::warnings::{ProbeWarningKind as W, ProbeWarnings};

/// One trial.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trial {
    pub file: String,
    pub line: usize,
    pub pid: String,
    /// The values of the columns the cells are keyed by beyond model, task, policy, g and arm
    /// (`prompt`, `n`, `budget`, `H`, …): set by the cells mechanism ([`crate::cells`]) from
    /// [`Self::other`]; empty as read.
    pub design: Vec<(String, String)>,
    /// The sweep columns the boundary analyses read by name ([`SWEEP_COLUMNS`]: `n`, `decoys`,
    /// `k_items`, `H`, …), whether or not they key a cell.
    #[serde(default)]
    pub sweep: Vec<(String, String)>,
    /// Every column this reader does not read, as text (`prompt`, `slot`, `n`, …): the
    /// candidates for design columns.
    #[serde(default)]
    pub other: Vec<(String, String)>,
    /// A hash of every field of the row (exact repeats).
    #[serde(default)]
    pub fingerprint: u64,
    pub policy: String,
    pub integrity: Option<f64>,
    pub arm: Option<String>,
    pub seed: Option<i64>,
    pub model: Option<String>,
    pub task: Option<String>,
    pub reply: Option<String>,
    /// The row has an `answer` field (so `answer: None` means "no answer").
    pub answer_given: bool,
    pub answer: Option<Answer>,
    pub correct: Option<bool>,
    pub truth: Option<Answer>,
    pub stale: Option<Answer>,
    pub options: Vec<String>,
    pub kind: AnswerKind,
    pub attractor: Option<bool>,
    pub bucket: Option<String>,
    /// The reply flags its uncertainty in prose (the file's `flagged`), a channel apart from
    /// its ANSWER line.
    #[serde(default)]
    pub flagged: Option<bool>,
    /// The carried memory note (deployed-memory rows).
    #[serde(default)]
    pub memory_text: Option<String>,
    /// The number strings of session 1 (`src_nums`, for the invented-number audit).
    #[serde(default)]
    pub src_nums: Option<Vec<String>>,
    /// Noise sweep: every relevant item kept (the recompute certificate passes).
    #[serde(default)]
    pub all_kept: Option<bool>,
    /// Cascade: each hop's correctness, the stored blast radius, whether an error was planted,
    /// and whether the memory kept the whole source.
    #[serde(default)]
    pub per_hop: Vec<bool>,
    #[serde(default)]
    pub blast: Option<f64>,
    #[serde(default)]
    pub planted: Option<bool>,
    #[serde(default)]
    pub source_complete: Option<bool>,
}

/// The trials read from one file.
#[derive(Debug, Clone, Default)]
pub struct TrialsRead {
    pub trials: Vec<Trial>,
    pub notices: ProbeWarnings,
}

fn answer_of(v: &Value) -> Option<Answer> {
    match v {
        Value::Number(n) => n.as_f64().map(Answer::Number),
        Value::String(s) => {
            let t = s.trim();
            match t.trim_start_matches('$').replace(',', "").parse::<f64>() {
                Ok(x) if !t.is_empty() && t.chars().any(|c| c.is_ascii_digit()) && !t.contains(':') => {
                    Some(Answer::Number(x))
                }
                _ => Some(Answer::Text(s.clone())),
            }
        }
        _ => None,
    }
}

fn kind_of(s: &str) -> Option<AnswerKind> {
    match s.trim().to_ascii_lowercase().as_str() {
        "number" | "numeric" | "arith" => Some(AnswerKind::Number),
        "word" | "text" | "logic" | "option" => Some(AnswerKind::Word),
        "time" | "multiwoz" => Some(AnswerKind::Time),
        _ => None,
    }
}

struct Row<'a> {
    name: &'a str,
    line: usize,
    obj: Map<String, Value>,
    /// The keys in document order.
    order: Vec<String>,
}

impl<'a> Row<'a> {
    fn loc(&self, f: &str) -> Location {
        Location::line(self.name, self.line).with_field(f)
    }
    fn get(&self, aliases: &[&'static str]) -> Option<(&'static str, &Value)> {
        aliases.iter().find_map(|&a| self.obj.get(a).map(|v| (a, v)))
    }
    fn present(&self, aliases: &[&'static str]) -> Option<(&'static str, &Value)> {
        self.get(aliases).filter(|(_, v)| !v.is_null())
    }
    fn text(&self, aliases: &[&'static str]) -> Result<Option<String>, IngestError> {
        match self.present(aliases) {
            None => Ok(None),
            Some((_, Value::String(s))) => Ok(Some(s.clone())),
            Some((_, Value::Number(n))) => Ok(Some(n.to_string())),
            Some((f, _)) => Err(IngestError::new(self.loc(f), "expected a string or a number")),
        }
    }
    fn number(&self, aliases: &[&'static str]) -> Result<Option<f64>, IngestError> {
        match self.present(aliases) {
            None => Ok(None),
            Some((f, Value::Number(n))) => {
                n.as_f64().map(Some).ok_or_else(|| IngestError::new(self.loc(f), "expected a number"))
            }
            Some((f, Value::String(s))) => {
                s.trim().parse().map(Some).map_err(|_| IngestError::new(self.loc(f), "expected a number"))
            }
            Some((f, _)) => Err(IngestError::new(self.loc(f), "expected a number")),
        }
    }
    fn flag(&self, aliases: &[&'static str]) -> Result<Option<bool>, IngestError> {
        match self.present(aliases) {
            None => Ok(None),
            Some((_, Value::Bool(b))) => Ok(Some(*b)),
            Some((_, Value::Number(n))) if n.as_f64() == Some(1.0) => Ok(Some(true)),
            Some((_, Value::Number(n))) if n.as_f64() == Some(0.0) => Ok(Some(false)),
            Some((f, _)) => Err(IngestError::new(self.loc(f), "expected true/false (or 1/0)")),
        }
    }
    fn strings(&self, aliases: &[&'static str]) -> Result<Option<Vec<String>>, IngestError> {
        match self.present(aliases) {
            None => Ok(None),
            Some((f, Value::Array(a))) => a
                .iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s.clone()),
                    Value::Number(n) => Ok(n.to_string()),
                    _ => Err(IngestError::new(self.loc(f), "expected a list of strings or numbers")),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some((f, _)) => Err(IngestError::new(self.loc(f), "expected a list of strings or numbers")),
        }
    }
    fn flags(&self, aliases: &[&'static str]) -> Result<Vec<bool>, IngestError> {
        match self.present(aliases) {
            None => Ok(Vec::new()),
            Some((f, Value::Array(a))) => a
                .iter()
                .map(|v| match v {
                    Value::Bool(b) => Ok(*b),
                    Value::Number(n) if n.as_f64() == Some(1.0) => Ok(true),
                    Value::Number(n) if n.as_f64() == Some(0.0) => Ok(false),
                    _ => Err(IngestError::new(self.loc(f), "expected a list of true/false")),
                })
                .collect(),
            Some((f, _)) => Err(IngestError::new(self.loc(f), "expected a list of true/false")),
        }
    }
    fn int(&self, aliases: &[&'static str]) -> Result<Option<i64>, IngestError> {
        match self.present(aliases) {
            None => Ok(None),
            Some((f, v)) => v.as_i64().map(Some).ok_or_else(|| IngestError::new(self.loc(f), "expected an integer")),
        }
    }
    fn answer(&self, aliases: &[&'static str]) -> Result<Option<Answer>, IngestError> {
        match self.present(aliases) {
            None => Ok(None),
            Some((f, v)) => {
                answer_of(v).map(Some).ok_or_else(|| IngestError::new(self.loc(f), "expected a number or a string"))
            }
        }
    }
}

/// The sweep columns of reclaim-eval's size, noise and cascade files that the boundary analyses
/// read by name (the size sweep along `n`, the noise sweep along `decoys`, the certificate's
/// `k_items = n`, the cascade's `H`). Whether a column keys the cells is not decided here: the
/// cells mechanism ([`crate::cells::design`]) finds design columns from the data.
pub const SWEEP_COLUMNS: [&str; 8] = ["n", "n_relevant", "budget", "k_items", "decoys", "store", "H", "planted"];

/// Every column this reader reads (its aliases included); every other column is a candidate
/// design column.
pub const READ_COLUMNS: &[&str] = &[
    "pid",
    "problem_id",
    "example_idx",
    "dialogue_id",
    "policy",
    "variant",
    "condition",
    "integrity",
    "g",
    "arm",
    "correction",
    "seed",
    "model",
    "task",
    "reply",
    "raw_reply",
    "answer",
    "parsed_answer",
    "correct",
    "reclaim",
    "truth",
    "y_true",
    "correct_answer",
    "true",
    "stale",
    "drift",
    "y_stale",
    "options",
    "kind",
    "task_kind",
    "attractor",
    "bucket",
    "flagged",
    "memory_text",
    "src_nums",
    "all_kept",
    "per_hop",
    "blast",
    "source_complete",
];

/// A JSON value as the text of a cell.
fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Reads trial rows (JSONL). `keys` supply truth, stale value, options and kind by `pid`.
/// `item` names the column that identifies the problem in rows without a `pid` (reclaim-eval's
/// sweeps: e.g. `store`).
pub fn read_trials(file: &InputFile, keys: Option<&ProbeKeys>, item: Option<&str>) -> Result<TrialsRead, IngestError> {
    let (text, _) = file.text()?;
    let name = file.name.as_str();
    let mut progress = |_: f64| {};
    let mut out = TrialsRead::default();
    let mut rows = Vec::new();
    for (line, t) in jsonl_lines(&text, &mut progress) {
        let members = match serde_json::from_str::<crate::ingest::json::OrderedObject>(t) {
            Ok(o) => o.0,
            Err(e) if e.is_data() && !crate::ingest::json::is_repeated_key(&e) => {
                return Err(IngestError::new(Location::line(name, line), "expected a JSON object on this line"));
            }
            Err(e) => return Err(crate::ingest::json::error_at(name, line, &e)),
        };
        let order = members.iter().map(|(k, _)| k.clone()).collect();
        rows.push(Row { name, line, obj: members.into_iter().collect(), order });
    }
    if rows.is_empty() {
        return Err(IngestError::new(Location::file(name), "the file is empty"));
    }
    // stale values from lossy template notes (deployed-memory rows)
    let mut template_stale: HashMap<String, String> = HashMap::new();
    for r in &rows {
        if let (Some(Value::String(note)), Ok(Some(pid)), Ok(Some(v))) =
            (r.obj.get("memory_text"), r.text(&["pid", "problem_id"]), r.text(&["variant", "policy"]))
            && v.starts_with("lossy@")
            && let Some(c) = template_conclusion(note)
        {
            template_stale.entry(pid).or_insert(c);
        }
    }
    for r in rows {
        let sweep: Vec<(String, String)> = SWEEP_COLUMNS
            .iter()
            .filter(|c| Some(**c) != item)
            .filter_map(|c| r.obj.get(*c).filter(|v| !v.is_null()).map(|v| (c.to_string(), value_text(v))))
            .collect();
        let other: Vec<(String, String)> = r
            .order
            .iter()
            .filter(|k| !READ_COLUMNS.contains(&k.as_str()) && Some(k.as_str()) != item)
            .map(|k| (k.clone(), r.obj.get(k).map(value_text).unwrap_or_default()))
            .collect();
        let texts: Vec<(&str, String)> = r.obj.iter().map(|(k, v)| (k.as_str(), v.to_string())).collect();
        let fingerprint = crate::cells::fingerprint(texts.iter().map(|(k, v)| (*k, v.as_str())));
        let pid = match item {
            Some(col) => match r.obj.get(col) {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Number(n)) => n.to_string(),
                _ => {
                    return Err(IngestError::new(
                        Location::line(name, r.line).with_field(col),
                        format!(
                            "the item column `{col}` ({}) is missing on this row, or not a string or number",
                            crate::fields::mention("item")
                        ),
                    ));
                }
            },
            None => r.text(&["pid", "problem_id", "example_idx", "dialogue_id"])?.ok_or_else(|| {
                let hint = if sweep.is_empty() {
                    String::new()
                } else {
                    format!(
                        " — these rows look like a reclaim-eval sweep (columns {}): say which column \
                         identifies the problem with {item} (e.g. {item} store); cells are then keyed by the \
                         design columns found in the data",
                        sweep.iter().map(|(c, _)| format!("`{c}`")).collect::<Vec<_>>().join(", "),
                        item = crate::fields::mention("item")
                    )
                };
                IngestError::new(r.loc("pid"), format!("required field `pid` is missing{hint}"))
            })?,
        };
        let policy = match r.text(&["policy", "variant", "condition"])? {
            Some(p) => p,
            None => {
                out.notices.add(W::PolicyMissing, || format!("{name}, line {}", r.line));
                "all".to_string()
            }
        };
        let key = keys.and_then(|k| k.get(&pid));
        let answer_given = r.get(&["answer", "parsed_answer"]).is_some();
        let answer = r.answer(&["answer", "parsed_answer"])?;
        let mut truth = r.answer(&["truth", "y_true", "correct_answer", "true"])?;
        if truth.is_none() {
            truth = key.and_then(|k| k.correct.as_ref()).and_then(answer_of);
        }
        let mut stale = r.answer(&["stale", "drift", "y_stale"])?;
        if stale.is_none() {
            stale = key
                .and_then(|k| k.drift.as_ref())
                .and_then(answer_of)
                .or_else(|| template_stale.get(&pid).and_then(|c| answer_of(&Value::String(c.clone()))));
        }
        let options: Vec<String> = match r.present(&["options"]) {
            Some((_, Value::Array(a))) => a
                .iter()
                .filter_map(|v| match v {
                    Value::String(s) => Some(s.clone()),
                    Value::Number(n) => Some(n.to_string()),
                    _ => None,
                })
                .collect(),
            Some((f, _)) => return Err(IngestError::new(r.loc(f), "expected a list of options")),
            None => key.map(|k| k.options.clone()).unwrap_or_default(),
        };
        let stated_kind = match r.text(&["kind", "task_kind"])? {
            Some(k) => Some(kind_of(&k).ok_or_else(|| {
                IngestError::new(r.loc("kind"), format!("unknown kind `{k}` (use number, word or time)"))
            })?),
            None => None,
        };
        let kind = stated_kind.or_else(|| key.and_then(|k| k.kind.as_deref()).and_then(kind_of)).unwrap_or_else(|| {
            if !options.is_empty() {
                AnswerKind::Word
            } else {
                match truth.as_ref().or(answer.as_ref()) {
                    Some(Answer::Text(s)) if super::score::normalise_time_text(s).is_some() => AnswerKind::Time,
                    Some(Answer::Text(_)) => AnswerKind::Word,
                    _ => AnswerKind::Number,
                }
            }
        });
        // only the row's own `task` groups cells (a key's task list would split generated problems off)
        let task = r.text(&["task"])?;
        out.trials.push(Trial {
            file: name.to_string(),
            line: r.line,
            pid,
            design: Vec::new(),
            sweep,
            other,
            fingerprint,
            policy,
            integrity: r.number(&["integrity", "g"])?,
            arm: r.text(&["arm", "correction"])?,
            seed: r.int(&["seed"])?,
            model: r.text(&["model"])?,
            task,
            reply: r.text(&["reply", "raw_reply"])?,
            answer_given,
            answer,
            correct: r.flag(&["correct", "reclaim"])?,
            truth,
            stale,
            options,
            kind,
            attractor: r.flag(&["attractor"])?,
            bucket: r.text(&["bucket"])?,
            flagged: r.flag(&["flagged"])?,
            memory_text: r.text(&["memory_text"])?,
            src_nums: r.strings(&["src_nums"])?,
            all_kept: r.flag(&["all_kept"])?,
            per_hop: r.flags(&["per_hop"])?,
            blast: r.number(&["blast"])?,
            planted: r.flag(&["planted"])?,
            source_complete: r.flag(&["source_complete"])?,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> InputFile {
        InputFile::new("t.jsonl", text.as_bytes().to_vec())
    }

    #[test]
    fn rows_in_every_shape() {
        let text = r#"{"pid":"notebooks","integrity":0.1,"arm":"directed","policy":"lossy","answer":55.0,"correct":false,"seed":0,"model":"m"}
{"pid":"p","policy":"blank","seed":1,"bucket":"abstain","attractor":false,"answer":null,"reply":"I cannot say.","truth":46,"drift":55}
{"pid":"roles","variant":"mem0","answer":"Ana","correct":true,"options":["Ana","Ben"]}
{"dialogue_id":"d1","policy":"lossy","true":"17:15","drift":"18:00","reply":"ANSWER: 6:00 pm"}"#;
        let r = read_trials(&file(text), None, None).unwrap();
        assert_eq!(r.trials.len(), 4);
        let t = &r.trials[0];
        assert_eq!(
            (t.integrity, t.arm.as_deref(), t.answer.clone()),
            (Some(0.1), Some("directed"), Some(Answer::Number(55.0)))
        );
        assert_eq!(t.kind, AnswerKind::Number);
        assert!(r.trials[1].answer_given && r.trials[1].answer.is_none());
        assert_eq!(r.trials[1].stale, Some(Answer::Number(55.0)));
        assert_eq!(r.trials[2].kind, AnswerKind::Word);
        assert_eq!(r.trials[3].kind, AnswerKind::Time);
        assert_eq!(r.trials[3].pid, "d1");
    }

    #[test]
    fn errors_and_notices() {
        let e = read_trials(&file(r#"{"policy":"x"}"#), None, None).unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("pid"));
        let e = read_trials(&file("{\"pid\":\"a\"}\n{\"pid\":\"a\",\"correct\":\"maybe\"}"), None, None).unwrap_err();
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("correct")));
        let e = read_trials(&file(r#"{"pid":"a","kind":"colour"}"#), None, None).unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("kind"));
        let r = read_trials(&file(r#"{"pid":"a","correct":true}"#), None, None).unwrap();
        assert_eq!(r.notices.count(W::PolicyMissing), 1);
        assert!(read_trials(&file("[1]"), None, None).is_err());
        assert!(read_trials(&file(""), None, None).is_err());
    }
}
