//! One run evaluated against qrels the way trec_eval's main loop does it (`trec_eval.c`), and
//! its output printed in trec_eval's exact format.
//!
//! - The queries evaluated are the qrels queries (in byte order of their ids) that the run
//!   answers; run queries missing from the qrels are ignored, qrels queries the run does not
//!   answer are skipped — or, with `-c`, evaluated as a one-document ranking of a document
//!   nobody judged (trec_eval's `ceci_nest_pas_un_docno`), with `num_ret`, `utility`, `unj`,
//!   `rbp_resid` and `relstring` then reset to nothing retrieved, and every mean taken over
//!   all qrels queries.
//! - A query judged without any relevant document is evaluated (all its measures are 0).
//! - Summary: the mean over evaluated queries, the geometric mean for `gm_*`, sums for the
//!   counts; `num_rel` with `-c` counts the judgments with value > 0 of every qrels query.
//!
//! trec_eval 10.0 stops with an error when a qrels query has no results and `-c` is not given;
//! memaudit skips it, as trec_eval 9 and pytrec_eval do (and as trec_eval's help describes).

use rustc_hash::FxHashSet;
use serde::{Deserialize, Serialize};

use super::compute::{Computed, Context, MIN_GEO_MEAN, compute};
use super::files::{Qrels, QueryJudgments, Retrieved, Run};
use super::judged::{RankingOptions, judge};
use super::measure::{Average, Kind, Selection, TrecEvalVersion, ValueType};
use crate::error::{Error, IngestError, Location, Result};

/// trec_eval's options (`-c`, `-l`, `-M`, `-J`, `-N`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct EvalOptions {
    /// `-l`: the smallest relevance value that counts as relevant.
    pub relevance_level: i64,
    /// `-M`: evaluate only the first N documents of each ranking.
    pub max_per_topic: Option<usize>,
    /// `-J`: drop unjudged documents before evaluating.
    pub judged_only: bool,
    /// `-c`: average over every qrels query (a missing ranking scores 0).
    pub complete: bool,
    /// `-N`: documents in the collection (utility's last coefficient).
    pub num_docs_in_coll: i64,
    /// The trec_eval release reproduced.
    #[serde(default)]
    pub version: TrecEvalVersion,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            relevance_level: 1,
            max_per_topic: None,
            judged_only: false,
            complete: false,
            num_docs_in_coll: 0,
            version: TrecEvalVersion::V10,
        }
    }
}

/// A printed value: a number or a text (`runid`, `relstring`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    Number(f64),
    Text(String),
}

impl Value {
    pub fn number(&self) -> Option<f64> {
        match self {
            Value::Number(v) => Some(*v),
            Value::Text(_) => None,
        }
    }
}

/// One value column: its printed name and the measure it belongs to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValueName {
    pub name: String,
    pub measure: Kind,
    pub value_type: ValueType,
    /// Printed per query with `-q`.
    pub per_query: bool,
    /// Has a summary line.
    pub summary: bool,
}

/// One query's values, one per [`ValueName`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryValues {
    pub qid: String,
    /// The run has no ranking for this query (`-c` evaluated an empty one).
    pub missing: bool,
    pub values: Vec<Value>,
}

/// One run evaluated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunEvaluation {
    pub runid: String,
    pub names: Vec<ValueName>,
    pub queries: Vec<QueryValues>,
    /// One per name (`None` for names without a summary line).
    pub summary: Vec<Option<Value>>,
    /// Queries averaged over.
    pub num_q: usize,
    /// qrels queries the run does not answer (skipped, or zero with `-c`).
    pub missing_queries: Vec<String>,
    /// Run queries the qrels do not judge (never evaluated).
    pub unjudged_queries: Vec<String>,
    /// Retrieved documents the qrels do not list (counted once per run).
    pub unjudged_documents: u64,
}

impl RunEvaluation {
    /// The index of a value name (`map`, `P_10`).
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n.name == name)
    }
}

const BOGUS_DOCNO: &str = "ceci_nest_pas_un_docno";

/// Evaluates `run` against `qrels`.
pub fn evaluate(qrels: &Qrels, run: &Run, selection: &Selection, opts: &EvalOptions) -> Result<RunEvaluation> {
    let mut e = Evaluator::new(qrels, selection, opts, &run.name);
    for q in &run.queries {
        // A held run has each query once: nothing is given twice.
        e.query(&q.qid, &q.docs)?;
    }
    e.finish(&run.runid)
}

/// A run evaluated one query at a time, as its rankings are read
/// ([`crate::ingest::trec_eval_files::read_run_blocks`]): only the values are kept, never the
/// rankings, so memory follows the largest query rather than the run. [`Self::finish`] gives
/// [`evaluate`]'s result to the bit, whatever the order the queries came in: the values are
/// summed in the qrels' order.
pub struct Evaluator<'a> {
    qrels: &'a Qrels,
    selection: &'a Selection,
    opts: EvalOptions,
    ranking: RankingOptions,
    ctx: Context,
    names: Vec<ValueName>,
    run_name: String,
    /// Each qrels query's values (by position), once evaluated.
    values: Vec<Option<Vec<Value>>>,
    /// Every query the run ranks.
    seen: FxHashSet<String>,
    unjudged_queries: Vec<String>,
    unjudged_documents: u64,
}

impl<'a> Evaluator<'a> {
    pub fn new(qrels: &'a Qrels, selection: &'a Selection, opts: &EvalOptions, run_name: &str) -> Self {
        let ranking = RankingOptions {
            relevance_level: opts.relevance_level,
            max_per_topic: opts.max_per_topic,
            judged_only: opts.judged_only,
            float_scores: opts.version == TrecEvalVersion::V9,
        };
        let ctx = Context {
            relevance_level: opts.relevance_level,
            num_docs_in_coll: opts.num_docs_in_coll,
            version: opts.version,
        };
        let mut names = Vec::new();
        for m in &selection.measures {
            for n in &m.names {
                names.push(ValueName {
                    name: n.clone(),
                    measure: m.kind,
                    value_type: m.kind.value_type(),
                    per_query: m.kind.per_query(),
                    summary: m.kind != Kind::Relstring,
                });
            }
        }
        Evaluator {
            qrels,
            selection,
            opts: *opts,
            ranking,
            ctx,
            names,
            run_name: run_name.to_string(),
            values: vec![None; qrels.queries.len()],
            seen: FxHashSet::default(),
            unjudged_queries: Vec::new(),
            unjudged_documents: 0,
        }
    }

    /// Evaluates one query's ranking (its documents in file order). `Ok(false)`, nothing done,
    /// when the query was given before: its documents are not together in the file, and only
    /// the whole run can be evaluated ([`evaluate`]).
    pub fn query(&mut self, qid: &str, docs: &[Retrieved]) -> std::result::Result<bool, IngestError> {
        if self.seen.contains(qid) {
            return Ok(false);
        }
        self.seen.insert(qid.to_string());
        let Ok(i) = self.qrels.queries.binary_search_by(|q| q.qid.as_str().cmp(qid)) else {
            self.unjudged_queries.push(qid.to_string());
            return Ok(true);
        };
        let judged = &self.qrels.queries[i];
        let rr = judge(judged, docs, &self.ranking).map_err(|d| duplicate(&self.run_name, judged, d))?;
        self.unjudged_documents += rr.num_nonpool as u64;
        self.values[i] = Some(self.values_of(&rr));
        Ok(true)
    }

    /// The values of one judged ranking (a `runid` value is filled in by [`Self::finish`]).
    fn values_of(&self, rr: &super::judged::JudgedRanking) -> Vec<Value> {
        let mut values = Vec::with_capacity(self.names.len());
        for m in &self.selection.measures {
            match compute(m, rr, &self.ctx, "") {
                Computed::Numbers(v) => values.extend(v.into_iter().map(Value::Number)),
                Computed::Text(t) => values.push(Value::Text(t)),
            }
        }
        values
    }

    /// The evaluation, once every query was given; `runid` is the run's (its last line's tag).
    pub fn finish(mut self, runid: &str) -> Result<RunEvaluation> {
        let (qrels, opts) = (self.qrels, self.opts);
        let bogus = [Retrieved { docno: BOGUS_DOCNO.into(), sim: 1.0, line: 0 }];
        let mut queries = Vec::new();
        let mut missing_queries = Vec::new();
        let mut sums = vec![0.0f64; self.names.len()];
        for (i, judged) in qrels.queries.iter().enumerate() {
            let (mut values, missing) = match self.values[i].take() {
                Some(v) => (v, false),
                None => {
                    missing_queries.push(judged.qid.clone());
                    // trec_eval 9 only divides by every qrels query (below).
                    if !opts.complete || opts.version == TrecEvalVersion::V9 {
                        continue;
                    }
                    let rr = judge(judged, &bogus, &self.ranking).map_err(|d| duplicate(&self.run_name, judged, d))?;
                    let mut values = self.values_of(&rr);
                    // trec_eval resets these after scoring the placeholder document, by printed
                    // name: `utility_2,-1,0,0` and `relstring_20` keep the placeholder's values.
                    for (v, n) in values.iter_mut().zip(&self.names) {
                        if n.name == "num_ret"
                            || n.name == "utility"
                            || n.name.starts_with("unj")
                            || n.name == "rbp_resid"
                        {
                            *v = Value::Number(0.0);
                        } else if n.name == "relstring" {
                            *v = Value::Text(String::new());
                        }
                    }
                    (values, true)
                }
            };
            for (v, n) in values.iter_mut().zip(&self.names) {
                if n.measure == Kind::Runid {
                    *v = Value::Text(runid.to_string());
                }
            }
            for (s, v) in sums.iter_mut().zip(&values) {
                if let Value::Number(x) = v {
                    *s += x;
                }
            }
            queries.push(QueryValues { qid: judged.qid.clone(), missing, values });
        }
        let mut ranked: Vec<String> = self.seen.into_iter().collect();
        ranked.sort_unstable();
        if queries.is_empty() {
            return Err(Error::Empty(format!(
                "no query of the run `{runid}` ({}) is in the qrels `{}` (run queries: {}; qrels queries: {})",
                self.run_name,
                qrels.name,
                sample(ranked.iter().map(String::as_str)),
                sample(qrels.queries.iter().map(|q| q.qid.as_str())),
            )));
        }
        let evaluated = queries.len();
        let n = if opts.complete { qrels.queries.len() } else { evaluated };
        let summary = self
            .names
            .iter()
            .zip(&sums)
            .map(|(name, &sum)| summary_value(name, sum, n, evaluated, qrels, runid, &opts))
            .collect();
        self.unjudged_queries.sort_unstable();
        Ok(RunEvaluation {
            runid: runid.to_string(),
            names: self.names,
            queries,
            summary,
            num_q: n,
            missing_queries,
            unjudged_queries: self.unjudged_queries,
            unjudged_documents: self.unjudged_documents,
        })
    }
}

fn summary_value(
    name: &ValueName,
    sum: f64,
    n: usize,
    evaluated: usize,
    qrels: &Qrels,
    runid: &str,
    opts: &EvalOptions,
) -> Option<Value> {
    let nf = n as f64;
    Some(Value::Number(match name.measure.average() {
        Average::None => {
            return (name.measure == Kind::Runid).then(|| Value::Text(runid.to_string()));
        }
        Average::Mean => {
            if n > 0 {
                sum / nf
            } else {
                sum
            }
        }
        Average::Geometric => {
            let mut s = sum;
            if opts.complete {
                s += (n - evaluated) as f64 * MIN_GEO_MEAN.ln();
            }
            (s / nf).exp()
        }
        Average::Sum => sum,
        Average::Count => nf,
        Average::NumRel => {
            if opts.complete {
                qrels.queries.iter().map(|q| q.docs.iter().filter(|d| d.rel > 0).count()).sum::<usize>() as f64
            } else {
                sum
            }
        }
    }))
}

fn sample<'a>(ids: impl Iterator<Item = &'a str>) -> String {
    let v: Vec<&str> = ids.take(4).collect();
    if v.is_empty() { "none".into() } else { format!("{}…", v.join(", ")) }
}

fn duplicate(run_name: &str, judged: &QueryJudgments, d: super::judged::DuplicateDocument) -> IngestError {
    let at = if d.lines.1 > 0 { Location::line(run_name, d.lines.1 as usize) } else { Location::file(run_name) };
    IngestError::new(
        at.with_field("docno"),
        format!(
            "query `{}` retrieves document `{}` twice{} (trec_eval refuses a ranking with a repeated document: keep its best-scored line)",
            judged.qid,
            d.docno,
            if d.lines.0 > 0 { format!(" (also line {})", d.lines.0) } else { String::new() }
        ),
    )
}

/// `%6.4f` as glibc prints it (a NaN from 0/0 on x86-64 prints as `-nan`).
fn double(v: f64) -> String {
    if v.is_nan() { "  -nan".to_string() } else { format!("{v:6.4}") }
}

fn printed(name: &ValueName, qid: &str, v: &Value) -> String {
    match (v, name.value_type) {
        (Value::Text(t), _) if name.measure == Kind::Relstring => format!("{:<22}\t{qid}\t'{t}'\n", name.name),
        (Value::Text(t), _) => format!("{:<22}\t{qid}\t{t}\n", name.name),
        // trec_eval casts to long: truncation toward zero.
        (Value::Number(x), ValueType::Long) => format!("{:<22}\t{qid}\t{}\n", name.name, *x as i64),
        (Value::Number(x), _) => format!("{:<22}\t{qid}\t{}\n", name.name, double(*x)),
    }
}

/// What trec_eval prints: with `per_query` (`-q`) each query's values first, then (unless
/// `summary` is false, `-n`) the summary over `all`.
pub fn trec_eval_text(e: &RunEvaluation, per_query: bool, summary: bool) -> String {
    let mut out = String::new();
    if per_query {
        for q in &e.queries {
            for (name, v) in e.names.iter().zip(&q.values) {
                if name.per_query {
                    out.push_str(&printed(name, &q.qid, v));
                }
            }
        }
    }
    if summary {
        for (name, v) in e.names.iter().zip(&e.summary) {
            if let Some(v) = v {
                out.push_str(&printed(name, "all", v));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::trec_eval_files::{read_qrels, read_run};

    fn sel(specs: &[&str]) -> Selection {
        Selection::parse(&specs.iter().map(|s| s.to_string()).collect::<Vec<_>>(), TrecEvalVersion::V10).unwrap()
    }

    #[test]
    fn zero_relevant_queries_are_averaged_and_missing_ones_skipped_unless_complete() {
        let qrels = read_qrels("q", "1 0 a 1\n2 0 b 0\n3 0 c 1\n").unwrap();
        let run = read_run("r", "1 Q0 a 1 1.0 t\n2 Q0 b 1 1.0 t\n9 Q0 z 1 1.0 t\n").unwrap();
        // trec_eval's order: num_q, num_rel, recip_rank.
        let e = evaluate(&qrels, &run, &sel(&["recip_rank", "num_q", "num_rel"]), &EvalOptions::default()).unwrap();
        // Queries 1 (RR 1) and 2 (judged, nothing relevant: RR 0) are averaged; 3 is skipped.
        assert_eq!(e.summary[2], Some(Value::Number(0.5)));
        assert_eq!(e.summary[0], Some(Value::Number(2.0)));
        assert_eq!(
            (e.missing_queries.clone(), e.unjudged_queries.clone()),
            (vec!["3".to_string()], vec!["9".to_string()])
        );
        let c = evaluate(
            &qrels,
            &run,
            &sel(&["recip_rank", "num_q", "num_rel"]),
            &EvalOptions { complete: true, ..Default::default() },
        )
        .unwrap();
        assert_eq!(c.summary[2], Some(Value::Number(1.0 / 3.0)));
        assert_eq!(c.summary[0], Some(Value::Number(3.0)));
        assert_eq!(c.summary[1], Some(Value::Number(2.0)));
        let text = trec_eval_text(&c, true, true);
        assert!(text.starts_with("num_rel               \t1\t1\nrecip_rank            \t1\t1.0000\n"), "{text}");
        assert!(text.contains("num_q                 \tall\t3\n"), "{text}");
    }

    #[test]
    fn no_overlap_is_an_error_naming_both_files() {
        let qrels = read_qrels("q.txt", "1 0 a 1\n").unwrap();
        let run = read_run("r.txt", "2 Q0 a 1 1.0 t\n").unwrap();
        let e = evaluate(&qrels, &run, &sel(&["map"]), &EvalOptions::default()).unwrap_err().to_string();
        assert!(e.contains("q.txt") && e.contains("r.txt"), "{e}");
    }
}
