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
pub const ANSWER: &[&str] = &["f1", "answer_f1", "token_f1", "correct", "answer_correct", "score", "qa_f1_generated"];
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
    /// Rows left out by the filter.
    #[serde(default)]
    pub filtered_out: usize,
}

/// Per (run, query): metric per target (`None`: not eligible) and the answer score.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Joined {
    pub runs: Vec<String>,
    pub targets: Vec<String>,
    /// (run, query) in first-seen order.
    pub keys: Vec<(String, String)>,
    /// Per key: its run's index in `runs`.
    pub key_run: Vec<usize>,
    /// Per key, per target: the metric on an eligible query.
    pub metric: Vec<HashMap<String, f64>>,
    /// Per key: the answer score.
    pub answer: Vec<Option<f64>>,
    /// The metric run identity compares (a continuous one when the files have one: `ndcg`),
    /// and per key, per target, its value on an eligible query.
    pub identity_metric: String,
    pub identity: Vec<HashMap<String, f64>>,
    /// Per key, per target, on an eligible query: the binary hit and top-1 (when the files have
    /// `hit`/`hit_at_k` and `top1` columns), the flips of the target shifts.
    pub flips: Vec<HashMap<String, Flips>>,
    /// The columns the flips were read from (`hit`, `top1`; empty when absent).
    pub flip_metrics: (String, String),
    /// Per run (in `runs` order): its value of the group column (`dataset`), or `""`.
    pub group_of: Vec<String>,
    /// The column the runs are grouped by: the stated `group`, else `dataset` when it completes
    /// the query and each run is on one of its values ([`Joined::grouped_by_dataset`]).
    pub group_column: Option<String>,
    /// Whether the runs were grouped by `dataset` without a stated `group` (said in a note).
    pub grouped_by_dataset: bool,
    /// Per (run, target), in first-seen order: the queries with a retrieval row (eligible or
    /// not), the populations a run's targets are compared on.
    pub rows_of: Vec<((String, String), Vec<String>)>,
    pub readings: Vec<Reading>,
    /// Answer rows with no retrieval row (counted, not used).
    pub answers_unmatched: usize,
}

/// A query's binary hit and top-1 under one target, where the file has them.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Flips {
    pub hit: Option<f64>,
    pub top1: Option<f64>,
}

/// The hit columns of the target shifts, in order of preference (`T_hit_at_k` in wide rows).
pub const HIT: &[&str] = &["hit", "hit_at_k"];
/// The top-1 column of the target shifts.
pub const TOP1: &[&str] = &["top1"];

/// Column options (`None`: the first alias present).
#[derive(Debug, Clone)]
pub struct Names<'a> {
    pub run: Option<&'a str>,
    pub query: Option<&'a str>,
    pub metric: &'a str,
    pub answer: Option<&'a str>,
    /// The column that groups runs (`dataset`): runs are compared within its values.
    pub group: Option<&'a str>,
    /// Keep only rows whose column has one of the values.
    pub filter: &'a std::collections::BTreeMap<String, Vec<String>>,
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

/// Whether a file looks like alignment input: a run and a query column, and a target column, a
/// `T_eligible` column per target, or an answer score column.
pub fn looks_like_alignment(file: &InputFile) -> bool {
    rows(file).is_ok_and(|r| {
        let has = |names: &[&str]| r.headers.iter().any(|h| names.contains(&h.as_str()));
        has(RUN) && has(QUERY) && (is_retrieval(&r.headers) || has(ANSWER))
    })
}

/// The targets of a wide file (TIAP's `query_target_alignment.records.csv`): a column
/// `T_eligible` per target `T`, its metrics beside it (`T_hit_at_k`, `T_ndcg`, …), in column
/// order; empty for any other file.
pub fn wide_targets(h: &[String]) -> Vec<String> {
    h.iter().filter_map(|c| c.strip_suffix("_eligible")).filter(|t| !t.is_empty()).map(String::from).collect()
}

/// The column of `metric` under the wide target `t`: `t_metric`, else `t_metric_at_k` (TIAP's
/// `raw_hit_at_k` is the metric `hit`).
fn wide_column(h: &[String], t: &str, metric: &str) -> Option<usize> {
    [format!("{t}_{metric}"), format!("{t}_{metric}_at_k")].iter().find_map(|c| h.iter().position(|x| x == c))
}

/// Whether a table holds per-query retrieval metrics: a `target` column (long rows) or a
/// `T_eligible` column per target (wide rows).
fn is_retrieval(h: &[String]) -> bool {
    h.iter().any(|c| c == "target") || !wide_targets(h).is_empty()
}

/// One retrieval cell as read: its place, its (run, query) and target, and the texts of its
/// eligibility, metric and identity metric.
struct Cell<'a> {
    name: &'a str,
    line: usize,
    run: &'a str,
    query: &'a str,
    target: &'a str,
    eligible: Option<(&'a str, &'a str)>,
    metric: (&'a str, &'a str),
    identity: &'a str,
    /// The hit and top-1 cells: (column, text), absent when the file has no such column.
    hit: Option<(&'a str, &'a str)>,
    top1: Option<(&'a str, &'a str)>,
    /// The run's group value (`""` without a group column).
    group: (&'a str, &'a str),
    /// The row's `dataset`, when that column completes the query.
    dataset: Option<&'a str>,
}

/// The joined rows being built, with the lookups that keep the building linear.
#[derive(Default)]
struct Builder {
    j: Joined,
    index: HashMap<(String, String), usize>,
    rows_at: HashMap<(String, String), usize>,
    run_index: HashMap<String, usize>,
    /// With queries keyed by dataset: (run, query as written) → its key, `None` when the run has
    /// that query in two datasets (answer rows without a dataset column are joined through it).
    by_plain_query: HashMap<(String, String), Option<usize>>,
    /// Per run: where its group value was first read (file, line).
    group_at: Vec<(String, usize)>,
    /// Per run: its one `dataset` (`None`: a row without one, or two values).
    dataset_of: Vec<Option<String>>,
    targets_seen: std::collections::HashSet<String>,
}

impl Builder {
    /// Adds one (run, query, target) cell: its population, and its metric when eligible.
    fn add(&mut self, c: Cell<'_>) -> Result<()> {
        let j = &mut self.j;
        let key = (c.run.to_string(), c.query.to_string());
        let tg = c.target.to_string();
        let run = match self.run_index.get(&key.0) {
            Some(&r) => r,
            None => {
                self.run_index.insert(key.0.clone(), j.runs.len());
                j.runs.push(key.0.clone());
                j.group_of.push(c.group.1.to_string());
                self.group_at.push((c.name.to_string(), c.line));
                self.dataset_of.push(c.dataset.map(str::to_string));
                j.runs.len() - 1
            }
        };
        if self.dataset_of[run].as_deref() != c.dataset {
            self.dataset_of[run] = None;
        }
        if j.group_of[run] != c.group.1 {
            let (file, line) = &self.group_at[run];
            return Err(Error::Ingest(IngestError::new(
                Location::line(c.name, c.line).with_field(c.group.0.to_string()),
                format!(
                    "run `{}` is in two groups: `{}` here, `{}` at {file}, line {line}; runs are compared within a group, so \
                     a run must have one value of the group column (or filter to one)",
                    key.0, c.group.1, j.group_of[run]
                ),
            )));
        }
        if self.targets_seen.insert(tg.clone()) {
            j.targets.push(tg.clone());
        }
        let cell = (key.0.clone(), tg.clone());
        match self.rows_at.get(&cell) {
            Some(&i) => j.rows_of[i].1.push(key.1.clone()),
            None => {
                self.rows_at.insert(cell.clone(), j.rows_of.len());
                j.rows_of.push((cell, vec![key.1.clone()]));
            }
        }
        let at = *self.index.entry(key.clone()).or_insert_with(|| {
            j.keys.push(key.clone());
            j.key_run.push(run);
            j.metric.push(HashMap::new());
            j.identity.push(HashMap::new());
            j.flips.push(HashMap::new());
            j.answer.push(None);
            j.keys.len() - 1
        });
        let (metric_column, metric_text) = c.metric;
        let is_eligible = match c.eligible {
            Some((column, text)) => parse_bool(text).ok_or_else(|| {
                Error::Ingest(IngestError::new(
                    Location::line(c.name, c.line).with_field(column.to_string()),
                    format!("`{text}` is not true or false"),
                ))
            })?,
            None => !is_missing(metric_text),
        };
        if !is_eligible || is_missing(metric_text) {
            return Ok(());
        }
        let v = parse_number(metric_text).ok_or_else(|| {
            Error::Ingest(IngestError::new(
                Location::line(c.name, c.line).with_field(metric_column.to_string()),
                format!("`{metric_text}` is not a number"),
            ))
        })?;
        if let Some(x) = (!is_missing(c.identity)).then(|| parse_number(c.identity)).flatten() {
            j.identity[at].insert(tg.clone(), x);
        }
        let flip = |cell: Option<(&str, &str)>| -> Result<Option<f64>> {
            match cell {
                Some((column, text)) if !is_missing(text) => parse_number(text).map(Some).ok_or_else(|| {
                    Error::Ingest(IngestError::new(
                        Location::line(c.name, c.line).with_field(column.to_string()),
                        format!("`{text}` is not a number"),
                    ))
                }),
                _ => Ok(None),
            }
        };
        let flips = Flips { hit: flip(c.hit)?, top1: flip(c.top1)? };
        if flips != Flips::default() {
            j.flips[at].insert(tg.clone(), flips);
        }
        if j.metric[at].insert(tg.clone(), v).is_some() {
            return Err(Error::Ingest(IngestError::new(
                Location::line(c.name, c.line).with_field(metric_column.to_string()),
                format!("run `{}` query `{}` target `{tg}` appears twice", key.0, key.1),
            )));
        }
        Ok(())
    }
}

impl Joined {
    /// Per run (in `runs` order), the indices of its keys, in file order.
    pub fn keys_by_run(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); self.runs.len()];
        for (i, &r) in self.key_run.iter().enumerate() {
            out[r].push(i);
        }
        out
    }

    /// The groups of runs (by the group column; one group `""` without one), in first-seen
    /// order, each with its runs' indices.
    pub fn groups(&self) -> Vec<(&str, Vec<usize>)> {
        let mut at: HashMap<&str, usize> = HashMap::new();
        let mut groups: Vec<(&str, Vec<usize>)> = Vec::new();
        for (r, g) in self.group_of.iter().enumerate() {
            let i = *at.entry(g.as_str()).or_insert_with(|| {
                groups.push((g.as_str(), Vec::new()));
                groups.len() - 1
            });
            groups[i].1.push(r);
        }
        groups
    }
}

#[cfg(test)]
impl Joined {
    /// One run `r` of queries q1, q2, … with their metric under `raw` and, where given,
    /// `canonical` (in `identity`, the shifts' and contrasts' metric): a join written by hand.
    pub fn by_hand(metric: &[(f64, Option<f64>)]) -> Joined {
        let identity = metric
            .iter()
            .map(|&(r, c)| {
                let mut x = HashMap::from([("raw".to_string(), r)]);
                x.extend(c.map(|c| ("canonical".to_string(), c)));
                x
            })
            .collect();
        Joined {
            runs: vec!["r".into()],
            targets: vec!["raw".into(), "canonical".into()],
            keys: (1..=metric.len()).map(|i| ("r".into(), format!("q{i}"))).collect(),
            key_run: vec![0; metric.len()],
            identity,
            group_of: vec![String::new()],
            ..Joined::default()
        }
    }
}

/// The `dataset` column that completes the query (TIAP's records number each dataset's queries
/// from 1: query 1 of LoCoMo is not query 1 of LongMemEval-S), when the query column is not
/// stated.
fn dataset_column(h: &[String], names: &Names<'_>) -> Option<usize> {
    if names.query.is_some() {
        return None;
    }
    h.iter().position(|x| x == "dataset")
}

/// A row's query: `dataset | query` with a dataset column, else the query as written.
fn query_key<'r>(rec: &'r [String], query: usize, dataset: Option<usize>) -> std::borrow::Cow<'r, str> {
    match dataset {
        Some(d) => std::borrow::Cow::Owned(format!("{} | {}", rec[d], rec[query])),
        None => std::borrow::Cow::Borrowed(rec[query].as_str()),
    }
}

/// The query column(s) as the readings name them.
fn query_name(h: &[String], query: usize, dataset: Option<usize>) -> String {
    match dataset {
        Some(d) => format!("{} × {}", h[d], h[query]),
        None => h[query].clone(),
    }
}

/// A stated filter (`column=value,…`) on one file: the columns' positions and the values kept.
fn filter_columns<'a>(
    name: &str,
    h: &[String],
    filter: &'a std::collections::BTreeMap<String, Vec<String>>,
) -> Result<Vec<(usize, &'a Vec<String>)>> {
    filter
        .iter()
        .map(|(c, vals)| {
            h.iter().position(|x| x == c).map(|i| (i, vals)).ok_or_else(|| {
                Error::Ingest(IngestError::new(
                    Location::file(name).with_field(c.clone()),
                    format!("no column `{c}` to filter on (the columns are: {})", h.join(", ")),
                ))
            })
        })
        .collect()
}

impl Joined {
    /// Reads every file: retrieval files first (they define the (run, query) keys; long rows
    /// with a `target` column, or TIAP's wide records with `T_eligible` and `T_metric` per
    /// target), then the answer scores joined onto them (from answer files, and from a
    /// retrieval file's own answer column). Rows outside a stated filter are counted and left
    /// out.
    pub fn read(files: &[&InputFile], names: &Names<'_>) -> Result<Joined> {
        let mut b = Builder::default();
        let mut held: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> = Default::default();
        let tables: Vec<(&InputFile, crate::ingest::table::Rows)> =
            files.iter().map(|f| rows(f).map(|t| (*f, t))).collect::<std::result::Result<_, _>>()?;
        for (f, t) in tables.iter().filter(|(_, t)| is_retrieval(&t.headers)) {
            let name = f.name.as_str();
            let h = &t.headers;
            let run = find(name, h, names.run, RUN, "run", &mention("run"))?;
            let query = find(name, h, names.query, QUERY, "query", &mention("query"))?;
            let dataset = dataset_column(h, names);
            let filter = filter_columns(name, h, names.filter)?;
            let long = h.iter().position(|x| x == "target");
            let group = match names.group {
                Some(g) => Some(find(name, h, Some(g), &[], "group", &mention("group"))?),
                None => None,
            };
            // Per target: its eligibility, metric and identity columns.
            let columns: Vec<(Option<String>, Option<usize>, usize, usize)> = match long {
                Some(_) => {
                    let metric = find(name, h, Some(names.metric), &[], "metric", &mention("metric"))?;
                    let identity = CONTINUOUS
                        .iter()
                        .find_map(|c| h.iter().position(|x| x == c))
                        .or_else(|| CONTINUOUS.contains(&h[metric].as_str()).then_some(metric))
                        .unwrap_or(metric);
                    vec![(None, h.iter().position(|x| x == "eligible"), metric, identity)]
                }
                None => wide_targets(h)
                    .into_iter()
                    .map(|tg| {
                        let metric = wide_column(h, &tg, names.metric).ok_or_else(|| {
                            Error::Ingest(IngestError::new(
                                Location::file(name).with_field(format!("{tg}_{}", names.metric)),
                                format!(
                                    "no `{tg}_{m}` (or `{tg}_{m}_at_k`) column for the metric `{m}` under the target \
                                     `{tg}`: state the metric with {} (the columns are: {})",
                                    mention("metric"),
                                    h.join(", "),
                                    m = names.metric
                                ),
                            ))
                        })?;
                        let identity = CONTINUOUS.iter().find_map(|c| wide_column(h, &tg, c)).unwrap_or(metric);
                        let eligible = h.iter().position(|x| *x == format!("{tg}_eligible"));
                        Ok((Some(tg), eligible, metric, identity))
                    })
                    .collect::<Result<_>>()?,
            };
            // Per target: its hit and top-1 columns, where the file has them.
            let flip_columns: Vec<(Option<usize>, Option<usize>)> = columns
                .iter()
                .map(|(target, ..)| match target {
                    Some(tg) => (wide_column(h, tg, "hit"), wide_column(h, tg, "top1")),
                    None => (
                        HIT.iter().find_map(|c| h.iter().position(|x| x == c)),
                        TOP1.iter().find_map(|c| h.iter().position(|x| x == c)),
                    ),
                })
                .collect();
            if b.j.flip_metrics == (String::new(), String::new()) {
                let strip = |i: Option<usize>| {
                    i.map(|i| {
                        let column = &h[i];
                        match &columns[0].0 {
                            Some(tg) => column.strip_prefix(&format!("{tg}_")).unwrap_or(column).to_string(),
                            None => column.clone(),
                        }
                    })
                    .unwrap_or_default()
                };
                b.j.flip_metrics = (strip(flip_columns[0].0), strip(flip_columns[0].1));
            }
            if b.j.identity_metric.is_empty() {
                let (target, _, _, identity) = &columns[0];
                let column = &h[*identity];
                b.j.identity_metric = match target {
                    Some(tg) => column.strip_prefix(&format!("{tg}_")).unwrap_or(column).to_string(),
                    None => column.clone(),
                };
            }
            let mut reading = Reading {
                file: name.into(),
                kind: "retrieval".into(),
                run: h[run].clone(),
                query: query_name(h, query, dataset),
                value: columns.iter().map(|(_, _, m, _)| h[*m].clone()).collect::<Vec<_>>().join(", "),
                records: t.records.len(),
                filtered_out: 0,
            };
            for (line, rec) in &t.records {
                for (c, _) in &filter {
                    held.entry(h[*c].clone()).or_default().insert(rec[*c].clone());
                }
                if filter.iter().any(|(c, vals)| !vals.contains(&rec[*c])) {
                    reading.filtered_out += 1;
                    continue;
                }
                let q = query_key(rec, query, dataset);
                for ((target, eligible, metric, identity), (hit, top1)) in columns.iter().zip(&flip_columns) {
                    let tg = match (target, long) {
                        (Some(tg), _) => tg.as_str(),
                        (None, Some(t)) => rec[t].as_str(),
                        (None, None) => "",
                    };
                    if rec[run].is_empty() || rec[query].is_empty() || tg.is_empty() {
                        let field = if rec[run].is_empty() {
                            h[run].clone()
                        } else if rec[query].is_empty() {
                            h[query].clone()
                        } else {
                            long.map_or_else(String::new, |t| h[t].clone())
                        };
                        return Err(Error::Ingest(IngestError::new(
                            Location::line(name, *line).with_field(field),
                            "the run, the query and the target must be given on every retrieval row",
                        )));
                    }
                    b.add(Cell {
                        name,
                        line: *line,
                        run: &rec[run],
                        query: &q,
                        target: tg,
                        eligible: eligible.map(|e| (h[e].as_str(), rec[e].as_str())),
                        metric: (h[*metric].as_str(), rec[*metric].as_str()),
                        identity: &rec[*identity],
                        hit: hit.map(|i| (h[i].as_str(), rec[i].as_str())),
                        top1: top1.map(|i| (h[i].as_str(), rec[i].as_str())),
                        group: group.map_or(("", ""), |g| (h[g].as_str(), rec[g].as_str())),
                        dataset: dataset.map(|d| rec[d].as_str()),
                    })?;
                }
                if dataset.is_some()
                    && let Some(&at) = b.index.get(&(rec[run].clone(), q.clone().into_owned()))
                {
                    let slot = b.by_plain_query.entry((rec[run].clone(), rec[query].clone())).or_insert(Some(at));
                    if *slot != Some(at) {
                        *slot = None;
                    }
                }
            }
            b.j.readings.push(reading);
        }
        check_filter(names.filter, &held)?;
        let Builder { mut j, index, by_plain_query, dataset_of, .. } = b;
        j.group_column = names.group.map(str::to_string);
        // TIAP's records number each dataset's queries anew, and each run is on one dataset:
        // runs of different datasets share no query, and a mean over runs would pool datasets.
        // Unless a group is stated, such runs are grouped by their dataset (said in a note).
        if names.group.is_none()
            && let Some(each) = dataset_of.iter().cloned().collect::<Option<Vec<String>>>()
            && each.iter().collect::<std::collections::HashSet<_>>().len() > 1
        {
            j.group_of = each;
            j.group_column = Some("dataset".into());
            j.grouped_by_dataset = true;
        }
        if j.keys.is_empty() {
            let filtered: usize = j.readings.iter().map(|r| r.filtered_out).sum();
            return Err(Error::Empty(if filtered > 0 {
                format!("no retrieval rows: {} kept none of {filtered} rows", mention("filter"))
            } else {
                "no retrieval rows: give per-query metrics with a `target` column (the rescoring's `per_query` table), \
                 or a `T_eligible` column per target (TIAP's records)"
                    .into()
            }));
        }
        // Answer scores: from the answer files, and from a retrieval file's own answer column.
        for (f, t) in &tables {
            let name = f.name.as_str();
            let h = &t.headers;
            let retrieval = is_retrieval(h);
            let answer = match (retrieval, names.answer) {
                (false, _) => find(name, h, names.answer, ANSWER, "answer score", &mention("answer"))?,
                (true, Some(stated)) => match h.iter().position(|x| x == stated) {
                    Some(i) => i,
                    None => continue,
                },
                (true, None) => match ANSWER.iter().find_map(|a| h.iter().position(|x| x == a)) {
                    Some(i) => i,
                    None => continue,
                },
            };
            let run = find(name, h, names.run, RUN, "run", &mention("run"))?;
            let query = find(name, h, names.query, QUERY, "query", &mention("query"))?;
            let dataset = dataset_column(h, names);
            let filter = filter_columns(name, h, names.filter)?;
            if retrieval {
                if let Some(r) = j.readings.iter_mut().find(|r| r.file == name) {
                    r.value = format!("{}; answers: {}", r.value, h[answer]);
                }
            } else {
                j.readings.push(Reading {
                    file: name.into(),
                    kind: "answers".into(),
                    run: h[run].clone(),
                    query: query_name(h, query, dataset),
                    value: h[answer].clone(),
                    records: t.records.len(),
                    filtered_out: 0,
                });
            }
            for (line, rec) in &t.records {
                if is_missing(&rec[answer]) {
                    continue;
                }
                if filter.iter().any(|(c, vals)| !vals.contains(&rec[*c])) {
                    if !retrieval && let Some(r) = j.readings.last_mut() {
                        r.filtered_out += 1;
                    }
                    continue;
                }
                let v = parse_number(&rec[answer]).filter(|v| (0.0..=1.0).contains(v)).ok_or_else(|| {
                    Error::Ingest(IngestError::new(
                        Location::line(name, *line).with_field(h[answer].clone()),
                        format!("`{}` is not an answer score in [0, 1]", rec[answer]),
                    ))
                })?;
                let at = match index.get(&(rec[run].clone(), query_key(rec, query, dataset).into_owned())) {
                    Some(&at) => Some(at),
                    // Retrieval rows keyed by dataset and query, answer rows by query alone: the
                    // run's one row of that query, never one of two.
                    None if dataset.is_none() => match by_plain_query.get(&(rec[run].clone(), rec[query].clone())) {
                        Some(Some(at)) => Some(*at),
                        Some(None) => {
                            return Err(Error::Ingest(IngestError::new(
                                Location::line(name, *line).with_field(h[query].clone()),
                                format!(
                                    "run `{}` has query `{}` in two datasets: give the answer rows a `dataset` column",
                                    rec[run], rec[query]
                                ),
                            )));
                        }
                        None => None,
                    },
                    None => None,
                };
                match at {
                    Some(at) => {
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

/// A filter value no row holds is a typo, never a silently smaller selection.
fn check_filter(
    filter: &std::collections::BTreeMap<String, Vec<String>>,
    held: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
) -> Result<()> {
    for (c, vals) in filter {
        let values = held.get(c).cloned().unwrap_or_default();
        if let Some(v) = vals.iter().find(|v| !values.contains(*v)) {
            let values: Vec<String> = values.iter().map(|x| format!("`{x}`")).collect();
            return Err(Error::setting(
                "filter",
                format!("no retrieval row has `{v}` in column `{c}` (its values: {})", crate::cells::some_of(&values)),
            ));
        }
    }
    Ok(())
}
