//! The alignment statistics of [`super::read::Joined`] rows.
//!
//! * **Answer alignment** (TIAP Table 12): on the queries eligible under both targets A and B,
//!   each query's class — A-only (metric_A > 0, metric_B = 0), B-only, both, neither — and per
//!   class the mean answer score, the positive share (score > 0) and the strong share
//!   (score ≥ the strong threshold, 0.5). Per run, then across runs two ways, both shown: the
//!   mean of the per-run means (TIAP: "each F1 or strong value is the mean of per-run means")
//!   and pooled over every query.
//! * **Coverage confound** (TIAP §5.1): a target's mean metric on its eligible queries that the
//!   other target also covers vs those it does not, per run; the mean difference over runs with
//!   a percentile bootstrap over runs (runs are the unit).
//! * **Run identity**: for two runs and a target, the share of their common eligible queries with
//!   bitwise-equal metrics; flagged at or above the identity threshold.

use serde::{Deserialize, Serialize};

use super::AlignmentRequest;
use super::aggregate::{
    AggregationRow, MAX_ORDERED_RUNS, MAX_WINNER_RUNS, Subset, WinnerRow, aggregations, fallback_name,
};
use super::contrast::{ContrastRow, contrasts};
use super::read::{Joined, Reading};
use super::shift::{ShiftRow, shifts};
use crate::stats::bootstrap::{Resampler, mean};

/// The classes of a query under two targets.
pub const CLASSES: [&str; 4] = ["a_only", "b_only", "both", "neither"];

/// One class of one run (or `mean_of_runs`, `pooled`: over the runs of its group).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AlignmentRow {
    /// The run's group (its `dataset`); empty when the runs are one group.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub group: String,
    pub run: String,
    pub class: String,
    /// Queries of the class.
    pub n: usize,
    /// Of them, with an answer score.
    pub scored: usize,
    pub mean_score: Option<f64>,
    pub positive_share: Option<f64>,
    pub strong_share: Option<f64>,
}

/// A target's metric on covered vs uncovered queries of one run (or the summary over the runs
/// of its group).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CoverageRow {
    /// The run's group (its `dataset`); empty when the runs are one group.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub group: String,
    pub run: String,
    pub target: String,
    /// The other target, whose eligibility defines "covered".
    pub covered_by: String,
    pub covered_n: usize,
    pub covered_mean: Option<f64>,
    pub uncovered_n: usize,
    pub uncovered_mean: Option<f64>,
    /// covered − uncovered.
    pub diff: Option<f64>,
    /// On the summary row (`run` = `mean_of_runs`): the bootstrap interval over runs.
    pub low: Option<f64>,
    pub high: Option<f64>,
}

/// Two runs' per-query metrics compared: per target, and over every target together
/// (`target` = `all`, the row that can be flagged).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IdentityRow {
    pub run_a: String,
    pub run_b: String,
    pub target: String,
    pub common: usize,
    pub identical: usize,
    pub share: Option<f64>,
    pub flagged: bool,
    /// The metric compared (`ndcg`; a binary metric is compared but never flagged).
    #[serde(default)]
    pub metric: String,
}

/// Settings printed with every result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub target_a: String,
    pub target_b: String,
    pub metric: String,
    pub strong: f64,
    pub identity_threshold: f64,
    pub bootstrap: crate::stats::bootstrap::Bootstrap,
    pub averaging: String,
    /// The metric run identity compares, and how.
    #[serde(default)]
    pub identity_metric: String,
    #[serde(default)]
    pub identity_method: String,
    /// The rows kept (`--filter`): column → values; absent when every row was read.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub filter: std::collections::BTreeMap<String, Vec<String>>,
    /// The column grouping the runs (the stated `group`, or `dataset` for runs each on one
    /// dataset of TIAP's records); absent when every run is one group. The means over runs, the
    /// pooled shifts and the run orders are within each group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// The target shifts: the continuous metric compared (`ndcg`), the hit and top-1 columns
    /// whose flips are counted (`""`: none), and the large-shift threshold.
    #[serde(default)]
    pub shift_metric: String,
    #[serde(default)]
    pub flip_metrics: Vec<String>,
    #[serde(default)]
    pub shift_threshold: f64,
    /// How the aggregations are formed, in words.
    #[serde(default)]
    pub aggregation_method: String,
    /// The queries of the aggregations: `eligible` or `shared`.
    #[serde(default)]
    pub aggregate_on: Subset,
}

/// Everything `memaudit alignment` reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AlignmentReport {
    pub settings: Settings,
    pub runs: Vec<String>,
    pub targets: Vec<String>,
    pub readings: Vec<Reading>,
    pub answers_unmatched: usize,
    pub alignment: Vec<AlignmentRow>,
    pub coverage: Vec<CoverageRow>,
    pub identity: Vec<IdentityRow>,
    /// Per run (and pooled per group) and pair of targets: flips, changes and shifts of the
    /// per-query metric (TIAP Tables 4 and 15, Figure 3).
    #[serde(default)]
    pub shifts: Vec<ShiftRow>,
    /// Per run and pair of targets, on the run's queries with the metric under every target:
    /// the means and the mean difference B − A with a bootstrap interval (TIAP Table 2).
    #[serde(default)]
    pub target_contrasts: Vec<ContrastRow>,
    /// Per run: the mean metric under each target, B with A as fallback and the aggregations
    /// of every target, with τ_d from A's run order (TIAP Table 8).
    #[serde(default)]
    pub aggregations: Vec<AggregationRow>,
    /// Per pair of a group's runs and method: the run with the higher mean (TIAP Table 5).
    #[serde(default)]
    pub winners: Vec<WinnerRow>,
    pub notes: Vec<String>,
    /// The queries each (run, target) has a row for, and a run's targets on different queries
    /// ([`crate::cells`]).
    #[serde(default)]
    pub populations: crate::cells::CellReport,
}

fn class(a: f64, b: f64) -> &'static str {
    match (a > 0.0, b > 0.0) {
        (true, false) => CLASSES[0],
        (false, true) => CLASSES[1],
        (true, true) => CLASSES[2],
        (false, false) => CLASSES[3],
    }
}

fn row(group: &str, run: &str, class: &str, n: usize, scores: &[f64], strong: f64) -> AlignmentRow {
    let share = |f: &dyn Fn(f64) -> bool| mean(&scores.iter().map(|&s| f64::from(u8::from(f(s)))).collect::<Vec<_>>());
    AlignmentRow {
        group: group.into(),
        run: run.into(),
        class: class.into(),
        n,
        scored: scores.len(),
        mean_score: mean(scores),
        positive_share: share(&|s| s > 0.0),
        strong_share: share(&|s| s >= strong),
    }
}

/// The most run pairs the run-identity table compares (each pair a row per target and one over
/// all targets): 200,000 pairs, about 630 runs.
pub const MAX_IDENTITY_PAIRS: usize = 200_000;

/// Computes the report.
pub fn analyse(j: &Joined, q: &AlignmentRequest) -> AlignmentReport {
    let (ta, tb) = (q.target_a.as_str(), q.target_b.as_str());
    let mut notes = Vec::new();
    for t in [ta, tb] {
        if !j.targets.iter().any(|x| x == t) {
            notes.push(format!("no row has target `{t}` (the targets: {})", j.targets.join(", ")));
        }
    }
    // Alignment per run, then over the runs of each group: the mean of the per-run means and
    // pooled over their queries (never across groups: they are different query sets).
    let groups = j.groups();
    let mut alignment = Vec::new();
    let mut per_run: Vec<Vec<AlignmentRow>> = Vec::new();
    let mut per_run_scores: Vec<Vec<(usize, Vec<f64>)>> = Vec::new();
    // Each run's keys, in file order: one pass over the keys, not one per run.
    let keys_of = j.keys_by_run();
    for (r, (run, keys)) in j.runs.iter().zip(&keys_of).enumerate() {
        let mut classes: Vec<(usize, Vec<f64>)> = vec![(0, Vec::new()); 4];
        for &i in keys {
            let (Some(&a), Some(&b)) = (j.metric[i].get(ta), j.metric[i].get(tb)) else { continue };
            let c = CLASSES.iter().position(|x| *x == class(a, b)).unwrap_or(3);
            classes[c].0 += 1;
            if let Some(s) = j.answer[i] {
                classes[c].1.push(s);
            }
        }
        let rows: Vec<AlignmentRow> = classes
            .iter()
            .enumerate()
            .map(|(c, (n, s))| row(&j.group_of[r], run, CLASSES[c], *n, s, q.strong))
            .collect();
        alignment.extend(rows.iter().cloned());
        per_run.push(rows);
        per_run_scores.push(classes);
    }
    for (g, members) in &groups {
        for (c, name) in CLASSES.iter().enumerate() {
            let of = |f: fn(&AlignmentRow) -> Option<f64>| {
                mean(&members.iter().filter_map(|&r| f(&per_run[r][c])).collect::<Vec<_>>())
            };
            alignment.push(AlignmentRow {
                group: (*g).into(),
                run: "mean_of_runs".into(),
                class: (*name).into(),
                n: members.iter().map(|&r| per_run[r][c].n).sum(),
                scored: members.iter().map(|&r| per_run[r][c].scored).sum(),
                mean_score: of(|r| r.mean_score),
                positive_share: of(|r| r.positive_share),
                strong_share: of(|r| r.strong_share),
            });
        }
        for (c, name) in CLASSES.iter().enumerate() {
            let n = members.iter().map(|&r| per_run_scores[r][c].0).sum();
            let scores: Vec<f64> = members.iter().flat_map(|&r| per_run_scores[r][c].1.iter().copied()).collect();
            alignment.push(row(g, "pooled", name, n, &scores, q.strong));
        }
    }
    if j.answer.iter().all(Option::is_none) {
        notes.push("no answer scores: give a file with per-query f1 or correct per run".into());
    }
    // Coverage confound: per run, then the mean over the runs of each group.
    let mut coverage = Vec::new();
    let mut resampler: Resampler = q.bootstrap.resampler();
    for (t, other) in [(ta, tb), (tb, ta)] {
        let mut diffs: Vec<Option<f64>> = Vec::new();
        for (r, (run, keys)) in j.runs.iter().zip(&keys_of).enumerate() {
            let (mut cov, mut unc) = (Vec::new(), Vec::new());
            for &i in keys {
                if let Some(&v) = j.metric[i].get(t) {
                    if j.metric[i].contains_key(other) { cov.push(v) } else { unc.push(v) }
                }
            }
            let (cm, um) = (mean(&cov), mean(&unc));
            let diff = cm.zip(um).map(|(a, b)| a - b);
            diffs.push(diff);
            coverage.push(CoverageRow {
                group: j.group_of[r].clone(),
                run: run.clone(),
                target: t.into(),
                covered_by: other.into(),
                covered_n: cov.len(),
                covered_mean: cm,
                uncovered_n: unc.len(),
                uncovered_mean: um,
                diff,
                low: None,
                high: None,
            });
        }
        // Per group, then (with two groups or more) over every run: each run's gap is within the
        // run, so a mean over runs of several datasets is defined (TIAP §5.1's +0.086 is over
        // the four main runs of both datasets); it is listed last, as `mean_of_all_runs`.
        let all: Vec<usize> = (0..j.runs.len()).collect();
        let mut summaries: Vec<(&str, &[usize], &str)> =
            groups.iter().map(|(g, m)| (*g, m.as_slice(), "mean_of_runs")).collect();
        if groups.len() > 1 {
            summaries.push(("", &all, "mean_of_all_runs"));
        }
        for (g, members, label) in summaries {
            let diffs: Vec<f64> = members.iter().filter_map(|&r| diffs[r]).collect();
            let ci = if diffs.len() >= 2 { resampler.mean_ci(&diffs, q.bootstrap.confidence) } else { None };
            coverage.push(CoverageRow {
                group: g.into(),
                run: label.into(),
                target: t.into(),
                covered_by: other.into(),
                covered_n: 0,
                covered_mean: None,
                uncovered_n: 0,
                uncovered_mean: None,
                diff: mean(&diffs),
                low: ci.map(|c| c.low),
                high: ci.map(|c| c.high),
            });
        }
    }
    // Run identity: the full vector of a continuous metric over every (query, target) both runs
    // have; a binary metric (hit@k) agrees between different runs too often to flag.
    let binary = j.identity.iter().flat_map(|m| m.values()).all(|v| *v == 0.0 || *v == 1.0);
    let identity_method = if binary {
        format!(
            "not flagged: `{}` is binary (0/1), and two different runs agree on most queries' hits; give a continuous per-query metric (ndcg) to compare runs",
            j.identity_metric
        )
    } else {
        format!(
            "`{}` on every (query, target) both runs have, compared bit for bit; flagged at a share ≥ {} over every target together",
            j.identity_metric, q.identity_threshold
        )
    };
    if binary && !j.keys.is_empty() {
        notes.push(identity_method.clone());
    }
    let mut identity = Vec::new();
    let mut by_run: Vec<std::collections::HashMap<&str, usize>> = vec![Default::default(); j.runs.len()];
    for (i, (k, &r)) in j.keys.iter().zip(&j.key_run).enumerate() {
        by_run[r].insert(k.1.as_str(), i);
    }
    let pairs = j.runs.len().saturating_mul(j.runs.len().saturating_sub(1)) / 2;
    let compared = if pairs > MAX_IDENTITY_PAIRS {
        notes.push(format!(
            "run identity not computed: {} runs make {pairs} pairs, more than {MAX_IDENTITY_PAIRS}, the most compared \
             pairwise here; give fewer runs at once to compare them",
            j.runs.len()
        ));
        0
    } else {
        j.runs.len()
    };
    for a in 0..compared {
        for b in a + 1..compared {
            let (mut all_common, mut all_same) = (0, 0);
            for t in &j.targets {
                let (mut common, mut same) = (0, 0);
                for (query, &ia) in &by_run[a] {
                    let Some(&ib) = by_run[b].get(query) else { continue };
                    if let (Some(x), Some(y)) = (j.identity[ia].get(t), j.identity[ib].get(t)) {
                        common += 1;
                        same += usize::from(x.to_bits() == y.to_bits());
                    }
                }
                all_common += common;
                all_same += same;
                identity.push(IdentityRow {
                    run_a: j.runs[a].clone(),
                    run_b: j.runs[b].clone(),
                    target: t.clone(),
                    common,
                    identical: same,
                    share: (common > 0).then(|| same as f64 / common as f64),
                    flagged: false,
                    metric: j.identity_metric.clone(),
                });
            }
            let share = (all_common > 0).then(|| all_same as f64 / all_common as f64);
            identity.push(IdentityRow {
                run_a: j.runs[a].clone(),
                run_b: j.runs[b].clone(),
                target: "all".into(),
                common: all_common,
                identical: all_same,
                share,
                flagged: !binary && share.is_some_and(|s| s >= q.identity_threshold),
                metric: j.identity_metric.clone(),
            });
        }
    }
    if j.grouped_by_dataset {
        notes.push(format!(
            "the runs are grouped by their `dataset` ({}): each run is on one dataset, whose queries are numbered anew, \
             so the means over runs, the pooled shifts and the run orders are per dataset; state the setting `group` \
             to group them otherwise",
            crate::cells::some_of(&groups.iter().map(|(g, m)| format!("{g}: {} runs", m.len())).collect::<Vec<_>>())
        ));
    }
    if let Some((g, members)) = groups.iter().find(|(_, m)| m.len() > MAX_ORDERED_RUNS) {
        notes.push(format!(
            "the aggregations' τ_d is not computed for {}: {} runs, more than {MAX_ORDERED_RUNS}, the most whose order is \
             compared pair by pair here; group the runs (the setting `group`) or filter them",
            if g.is_empty() { "the runs".to_string() } else { format!("group `{g}`") },
            members.len(),
        ));
    }
    if let Some((g, members)) = groups.iter().find(|(_, m)| m.len() > MAX_WINNER_RUNS) {
        notes.push(format!(
            "no winners for {}: {} runs, more than {MAX_WINNER_RUNS}, the most whose pairs are listed; group the runs (the setting `group`) or filter them",
            if g.is_empty() { "the runs".to_string() } else { format!("group `{g}`") },
            members.len(),
        ));
    }
    let fallback = fallback_name(ta, tb);
    let aggregated = aggregations(j, ta, tb, q.aggregate_on);
    let (target_contrasts, note) = contrasts(j, &q.bootstrap);
    notes.extend(note);
    notes.extend(aggregated.unshared.iter().cloned());
    AlignmentReport {
        settings: Settings {
            target_a: ta.into(),
            target_b: tb.into(),
            metric: q.metric.clone(),
            strong: q.strong,
            identity_threshold: q.identity_threshold,
            bootstrap: q.bootstrap,
            averaging: "mean_of_runs: the mean of the per-run values (TIAP Table 12); pooled: over every query".into(),
            identity_metric: j.identity_metric.clone(),
            identity_method,
            filter: q.filter.clone(),
            group: j.group_column.clone(),
            shift_metric: j.identity_metric.clone(),
            flip_metrics: [&j.flip_metrics.0, &j.flip_metrics.1]
                .into_iter()
                .filter(|m| !m.is_empty())
                .cloned()
                .collect(),
            shift_threshold: q.shift_threshold,
            aggregation_method: match q.aggregate_on {
                Subset::Eligible => format!(
                    "per run, the mean `{m}` under each target on its eligible queries; {fallback}: {tb} where eligible, else {ta}, \
                     on {ta}'s eligible queries; arithmetic_mean, geometric_mean, minimum: of each query's `{m}` under every target \
                     ({tb} as {fallback}), on the queries eligible under all but {tb}; tau_d: the run pairs ordered opposite to {ta}'s \
                     order{within} (ties not counted)",
                    m = j.identity_metric,
                    within = if j.group_column.is_some() { " within each group" } else { "" },
                ),
                Subset::Shared => format!(
                    "per run, every method on the same queries: those eligible under every target in every run{of} (the shared \
                     subset); the mean `{m}` under each target, {fallback} (= {tb} here), arithmetic_mean, geometric_mean and \
                     minimum of each query's `{m}` under every target; tau_d: the run pairs ordered opposite to {ta}'s order (ties \
                     not counted)",
                    m = j.identity_metric,
                    of = if j.group_column.is_some() { " of the group" } else { "" },
                ),
            },
            aggregate_on: q.aggregate_on,
        },
        runs: j.runs.clone(),
        targets: j.targets.clone(),
        readings: j.readings.clone(),
        answers_unmatched: j.answers_unmatched,
        alignment,
        coverage,
        identity,
        shifts: shifts(j, q.shift_threshold),
        target_contrasts,
        aggregations: aggregated.rows,
        winners: aggregated.winners,
        notes,
        populations: {
            let cells: Vec<crate::cells::CellItems> = j
                .rows_of
                .iter()
                .map(|((run, target), queries)| crate::cells::CellItems {
                    cell: target.clone(),
                    panel: run.clone(),
                    rows: queries.len(),
                    items: Some(queries.clone()),
                })
                .collect();
            crate::cells::CellReport::of_populations(&cells, "queries")
        },
    }
}
