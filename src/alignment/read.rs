//! Reading alignment inputs: tables (CSV/TSV, JSON Lines, JSON array) of per-query retrieval
//! metrics per target — `memaudit rescore --format csv --table per_query` rows (`system`,
//! `query_id`, `target`, `eligible`, `hit`, …) — and per-query answer scores (`f1` or `correct`)
//! per run. A file with a target column is retrieval rows, else answer rows. Rows are joined on
//! (run, query); nothing is matched loosely.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::error::{Error, IngestError, Location, Result};
use crate::fields::mention;
use crate::ingest::InputFile;
use crate::ingest::table::{is_missing, parse_bool, rows};
use crate::outcomes::parse_number;

/// Aliases of the run column.
pub const RUN: &[&str] = &["run", "system", "run_label", "run_id", "arm"];
/// Aliases of the query column.
pub const QUERY: &[&str] = &["query_id", "query_index", "query", "question_id", "qid"];
/// Aliases of the target column.
pub const TARGET: &[&str] = &["target"];
/// Aliases of the answer score column.
pub const ANSWER: &[&str] = &["f1", "answer_f1", "token_f1", "correct", "answer_correct", "score"];
/// Continuous per-query metrics run identity compares, in order of preference (a binary
/// metric such as hit@k agrees between different runs far too often to say they are one).
pub const CONTINUOUS: &[&str] = &["ndcg", "ndcg_at_k", "mrr", "recall", "map", "ap"];

/// What was read from one file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reading {
    pub file: String,
    /// `retrieval` or `answers`.
    pub kind: String,
    pub run: String,
    pub query: String,
    /// The metric or score column.
    pub value: String,
    pub records: usize,
}

/// Per (run, query): metric per target (`None`: not eligible) and the answer score.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Joined {
    pub runs: Vec<String>,
    pub targets: Vec<String>,
    /// (run, query) in first-seen order.
    pub keys: Vec<(String, String)>,
    /// Per key, per target: the metric on an eligible query.
    pub metric: Vec<HashMap<String, f64>>,
    /// Per key: the answer score.
    pub answer: Vec<Option<f64>>,
    /// The metric run identity compares (a continuous one when the files have one: `ndcg`),
    /// and per key, per target, its value on an eligible query.
    pub identity_metric: String,
    pub identity: Vec<HashMap<String, f64>>,
    /// Per (run, target), in first-seen order: the queries with a retrieval row (eligible or
    /// not), the populations a run's targets are compared on.
    pub rows_of: Vec<((String, String), Vec<String>)>,
    pub readings: Vec<Reading>,
    /// Answer rows with no retrieval row (counted, not used).
    pub answers_unmatched: usize,
}

/// Column options (`None`: the first alias present).
#[derive(Debug, Clone, Default)]
pub struct Names<'a> {
    pub run: Option<&'a str>,
    pub query: Option<&'a str>,
    pub metric: &'a str,
    pub answer: Option<&'a str>,
}

fn find(file: &str, h: &[String], stated: Option<&str>, aliases: &[&str], what: &str, option: &str) -> Result<usize> {
    let found = match stated {
        Some(s) => h.iter().position(|x| x == s),
        None => aliases.iter().find_map(|a| h.iter().position(|x| x == a)),
    };
    found.ok_or_else(|| {
        Error::Ingest(IngestError::new(
            Location::file(file).with_field(stated.unwrap_or(what).to_string()),
            format!(
                "no {what} column ({}): state it with {option} (the columns are: {})",
                stated.map_or_else(|| format!("looked for {}", aliases.join(", ")), |s| format!("`{s}` is not one")),
                h.join(", ")
            ),
        ))
    })
}

/// Whether a file looks like alignment input: a run and a query column, and a target column or
/// an answer score column.
pub fn looks_like_alignment(file: &InputFile) -> bool {
    rows(file).is_ok_and(|r| {
        let has = |names: &[&str]| r.headers.iter().any(|h| names.contains(&h.as_str()));
        has(RUN) && has(QUERY) && (has(TARGET) || has(ANSWER))
    })
}

impl Joined {
    /// Reads every file: retrieval files first (they define the (run, query) keys), then the
    /// answer files joined onto them.
    pub fn read(files: &[&InputFile], names: &Names<'_>) -> Result<Joined> {
        let mut j = Joined::default();
        let mut index: HashMap<(String, String), usize> = HashMap::new();
        let mut rows_at: HashMap<(String, String), usize> = HashMap::new();
        // The runs and targets seen, for a lookup per row (their order is `j.runs`, `j.targets`).
        let (mut runs_seen, mut targets_seen) =
            (std::collections::HashSet::<String>::new(), std::collections::HashSet::<String>::new());
        let tables: Vec<(&InputFile, crate::ingest::table::Rows)> =
            files.iter().map(|f| rows(f).map(|t| (*f, t))).collect::<std::result::Result<_, _>>()?;
        let is_retrieval = |t: &crate::ingest::table::Rows| t.headers.iter().any(|h| h == "target");
        for (f, t) in tables.iter().filter(|(_, t)| is_retrieval(t)) {
            let name = f.name.as_str();
            let h = &t.headers;
            let run = find(name, h, names.run, RUN, "run", &mention("run"))?;
            let query = find(name, h, names.query, QUERY, "query", &mention("query"))?;
            let target = find(name, h, None, TARGET, "target", "")?;
            let metric = find(name, h, Some(names.metric), &[], "metric", &mention("metric"))?;
            let eligible = h.iter().position(|x| x == "eligible");
            // Run identity: a continuous metric of the file (the chosen one when it is).
            let identity = CONTINUOUS
                .iter()
                .find_map(|c| h.iter().position(|x| x == c))
                .or_else(|| CONTINUOUS.contains(&h[metric].as_str()).then_some(metric))
                .unwrap_or(metric);
            if j.identity_metric.is_empty() {
                j.identity_metric = h[identity].clone();
            }
            j.readings.push(Reading {
                file: name.into(),
                kind: "retrieval".into(),
                run: h[run].clone(),
                query: h[query].clone(),
                value: h[metric].clone(),
                records: t.records.len(),
            });
            for (line, rec) in &t.records {
                let key = (rec[run].clone(), rec[query].clone());
                let tg = rec[target].clone();
                if key.0.is_empty() || key.1.is_empty() || tg.is_empty() {
                    return Err(Error::Ingest(IngestError::new(
                        Location::line(name, *line).with_field(if key.0.is_empty() {
                            h[run].clone()
                        } else if key.1.is_empty() {
                            h[query].clone()
                        } else {
                            h[target].clone()
                        }),
                        "the run, the query and the target must be given on every retrieval row",
                    )));
                }
                if runs_seen.insert(key.0.clone()) {
                    j.runs.push(key.0.clone());
                }
                if targets_seen.insert(tg.clone()) {
                    j.targets.push(tg.clone());
                }
                let cell = (key.0.clone(), tg.clone());
                match rows_at.get(&cell) {
                    Some(&i) => j.rows_of[i].1.push(key.1.clone()),
                    None => {
                        rows_at.insert(cell.clone(), j.rows_of.len());
                        j.rows_of.push((cell, vec![key.1.clone()]));
                    }
                }
                let at = *index.entry(key.clone()).or_insert_with(|| {
                    j.keys.push(key.clone());
                    j.metric.push(HashMap::new());
                    j.identity.push(HashMap::new());
                    j.answer.push(None);
                    j.keys.len() - 1
                });
                let is_eligible = match eligible {
                    Some(e) => parse_bool(&rec[e]).ok_or_else(|| {
                        Error::Ingest(IngestError::new(
                            Location::line(name, *line).with_field(h[e].clone()),
                            format!("`{}` is not true or false", rec[e]),
                        ))
                    })?,
                    None => !is_missing(&rec[metric]),
                };
                if !is_eligible || is_missing(&rec[metric]) {
                    continue;
                }
                let v = parse_number(&rec[metric]).ok_or_else(|| {
                    Error::Ingest(IngestError::new(
                        Location::line(name, *line).with_field(h[metric].clone()),
                        format!("`{}` is not a number", rec[metric]),
                    ))
                })?;
                if let Some(x) = (!is_missing(&rec[identity])).then(|| parse_number(&rec[identity])).flatten() {
                    j.identity[at].insert(tg.clone(), x);
                }
                if j.metric[at].insert(tg.clone(), v).is_some() {
                    return Err(Error::Ingest(IngestError::new(
                        Location::line(name, *line).with_field(h[target].clone()),
                        format!("run `{}` query `{}` target `{tg}` appears twice", key.0, key.1),
                    )));
                }
            }
        }
        if j.keys.is_empty() {
            return Err(Error::Empty(
                "no retrieval rows: give per-query metrics with a `target` column (the rescoring's `per_query` table)"
                    .into(),
            ));
        }
        for (f, t) in tables.iter().filter(|(_, t)| !is_retrieval(t)) {
            let name = f.name.as_str();
            let h = &t.headers;
            let run = find(name, h, names.run, RUN, "run", &mention("run"))?;
            let query = find(name, h, names.query, QUERY, "query", &mention("query"))?;
            let answer = find(name, h, names.answer, ANSWER, "answer score", &mention("answer"))?;
            j.readings.push(Reading {
                file: name.into(),
                kind: "answers".into(),
                run: h[run].clone(),
                query: h[query].clone(),
                value: h[answer].clone(),
                records: t.records.len(),
            });
            for (line, rec) in &t.records {
                if is_missing(&rec[answer]) {
                    continue;
                }
                let v = parse_number(&rec[answer]).filter(|v| (0.0..=1.0).contains(v)).ok_or_else(|| {
                    Error::Ingest(IngestError::new(
                        Location::line(name, *line).with_field(h[answer].clone()),
                        format!("`{}` is not an answer score in [0, 1]", rec[answer]),
                    ))
                })?;
                match index.get(&(rec[run].clone(), rec[query].clone())) {
                    Some(&at) => {
                        if j.answer[at].replace(v).is_some() {
                            return Err(Error::Ingest(IngestError::new(
                                Location::line(name, *line).with_field(h[query].clone()),
                                format!("run `{}` query `{}` has two answer scores", rec[run], rec[query]),
                            )));
                        }
                    }
                    None => j.answers_unmatched += 1,
                }
            }
        }
        Ok(j)
    }
}
