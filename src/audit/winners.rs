//! System gaps and winner flips (TIAP Eq. 4, §3.3): for systems A, B, target t and metric m,
//! Δ_t(A, B) = mean m_t(A) − mean m_t(B) on paired queries, with a paired percentile bootstrap
//! interval. The winner is the system with the larger mean (`tie` when |Δ| ≤ 1e-12). A winner
//! flip is a sign change of Δ_t across targets: the pair has different non-tie winners under
//! two targets. `significant` marks an interval that excludes 0 (the paper attaches no
//! uncertainty to flips; winners resting on margins of 0.0004 exist in its Table 5).
//!
//! Two populations ([`Subset`]):
//! - `all`: per target, the queries eligible for t that both systems scored. Raw and
//!   Canonical winners are then decided on different query sets;
//! - `shared`: the queries eligible under every compared target for both systems (and
//!   scored by both) — TIAP's shared-subset control, the same queries under every target, so
//!   a flip reflects the credit rule and not the population.
//!
//! Hit rows also carry McNemar's exact test on the hit flips (queries one system hits and the
//! other misses; McNemar 1947, exact binomial form).

use serde::{Deserialize, Serialize};

use super::instability::CHANGE_TOLERANCE;
use super::summary::Subset;
use super::{Metric, mean};
use crate::dataset::Dataset;
use crate::model::Target;
use crate::rescore::Rescored;
use crate::stats::bootstrap::Interval;
use crate::stats::deferred::MeanIntervals;
use crate::stats::mcnemar::mcnemar_exact;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WinnerRow {
    pub target: Target,
    pub a: String,
    pub b: String,
    /// Paired queries.
    pub n: usize,
    pub mean_a: Option<f64>,
    pub mean_b: Option<f64>,
    /// mean nDCG of a − mean nDCG of b on the paired queries (nDCG rows; null for the others).
    pub delta_ndcg: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    /// The winning system's name, `tie`, or null when no query is paired.
    pub winner: Option<String>,
    pub significant: bool,
    /// The winner of this pair under this metric and subset differs across targets.
    pub flip: bool,
    /// The queries compared: `all` (eligible for this target) or `shared` (eligible under
    /// every compared target for both systems).
    #[serde(default = "all_subset")]
    pub subset: Subset,
    #[serde(default = "ndcg_metric")]
    pub metric: Metric,
    /// mean a − mean b of `metric`.
    #[serde(default)]
    pub delta: Option<f64>,
    /// Hit rows: paired queries a hits and b misses, and the reverse.
    #[serde(default)]
    pub hit_a_only: Option<usize>,
    #[serde(default)]
    pub hit_b_only: Option<usize>,
    /// Hit rows: McNemar's exact two-sided p on those discordant queries.
    #[serde(default)]
    pub mcnemar_p: Option<f64>,
}

fn all_subset() -> Subset {
    Subset::All
}

fn ndcg_metric() -> Metric {
    Metric::Ndcg
}

/// Whether query `q` is eligible under every compared target for both systems and scored by
/// both.
fn shared_pair(r: &Rescored, compared: &[Target], i: usize, j: usize, q: usize) -> bool {
    compared.iter().all(|&t| r.cell(i, q, t).counted().is_some() && r.cell(j, q, t).counted().is_some())
}

/// The rows of one (subset, metric), pairs in order, targets within a pair; with their
/// difference vectors (for the intervals).
fn rows_for(
    ds: &Dataset,
    r: &Rescored,
    compared: &[Target],
    subset: Subset,
    metric: Metric,
) -> (Vec<WinnerRow>, Vec<Vec<f64>>) {
    let mut rows = Vec::new();
    let mut vectors = Vec::new();
    for i in 0..r.n_systems {
        for j in i + 1..r.n_systems {
            let start = rows.len();
            for &t in &r.targets {
                let pairs: Vec<(f64, f64)> = (0..r.n_queries)
                    .filter(|&q| subset == Subset::All || shared_pair(r, compared, i, j, q))
                    .filter_map(|q| {
                        Some((metric.of(r.cell(i, q, t).counted()?), metric.of(r.cell(j, q, t).counted()?)))
                    })
                    .collect();
                let diffs: Vec<f64> = pairs.iter().map(|(a, b)| a - b).collect();
                let delta = mean(&diffs);
                let winner = delta.map(|d| {
                    if d.abs() <= CHANGE_TOLERANCE {
                        "tie".to_string()
                    } else if d > 0.0 {
                        ds.systems[i].clone()
                    } else {
                        ds.systems[j].clone()
                    }
                });
                let (hit_a_only, hit_b_only, mcnemar_p) = if metric == Metric::Hit {
                    let b = pairs.iter().filter(|(a, b)| *a > *b).count();
                    let c = pairs.iter().filter(|(a, b)| *a < *b).count();
                    (Some(b), Some(c), (!pairs.is_empty()).then(|| mcnemar_exact(b as u64, c as u64)))
                } else {
                    (None, None, None)
                };
                rows.push(WinnerRow {
                    target: t,
                    a: ds.systems[i].clone(),
                    b: ds.systems[j].clone(),
                    n: pairs.len(),
                    mean_a: mean(&pairs.iter().map(|p| p.0).collect::<Vec<_>>()),
                    mean_b: mean(&pairs.iter().map(|p| p.1).collect::<Vec<_>>()),
                    delta_ndcg: if metric == Metric::Ndcg { delta } else { None },
                    ci_low: None,
                    ci_high: None,
                    winner,
                    significant: false,
                    flip: false,
                    subset,
                    metric,
                    delta,
                    hit_a_only,
                    hit_b_only,
                    mcnemar_p,
                });
                vectors.push(diffs);
            }
            let decided: Vec<&String> =
                rows[start..].iter().filter_map(|w| w.winner.as_ref()).filter(|w| w.as_str() != "tie").collect();
            let flip = decided.windows(2).any(|w| w[0] != w[1]);
            for w in &mut rows[start..] {
                w.flip = flip;
            }
        }
    }
    (rows, vectors)
}

/// Each row's interval of the mean difference and whether it excludes 0, in the order
/// [`winners`] asked for them.
pub fn with_intervals(rows: &mut [WinnerRow], intervals: &[Option<Interval>]) {
    for (row, ci) in rows.iter_mut().zip(intervals) {
        row.ci_low = ci.map(|c| c.low);
        row.ci_high = ci.map(|c| c.high);
        row.significant = ci.is_some_and(|c| c.low > 0.0 || c.high < 0.0);
    }
}

/// Every winner row: nDCG on `all` first (the rows memaudit has always written), then nDCG on
/// `shared`, then every other metric on `all` and `shared`; without their intervals: each row
/// asks for one in `intervals`, in row order ([`with_intervals`] puts them in).
pub fn winners(ds: &Dataset, r: &Rescored, compared: &[Target], intervals: &mut MeanIntervals) -> Vec<WinnerRow> {
    let mut out = Vec::new();
    let mut order = vec![(Subset::All, Metric::Ndcg), (Subset::Shared, Metric::Ndcg)];
    for m in Metric::ALL.into_iter().filter(|m| *m != Metric::Ndcg) {
        order.push((Subset::All, m));
        order.push((Subset::Shared, m));
    }
    for (subset, metric) in order {
        let (rows, vectors) = rows_for(ds, r, compared, subset, metric);
        vectors.into_iter().for_each(|v| intervals.ask(v));
        out.extend(rows);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conventions::Settings;
    use crate::rescore::rescore;

    /// Raw is eligible on q1..q3, Canonical on q1 only. Under `all`, Raw is decided on three
    /// queries and Canonical on one: a wins Raw (q2, q3), b wins Canonical (q1) — a flip that
    /// is only the populations differing. On the shared subset (q1) b wins both.
    #[test]
    fn the_shared_subset_removes_a_population_flip() {
        let m = "{\"memory_id\":\"t1\",\"anchors\":[\"t1\"],\"raw\":true}\n{\"memory_id\":\"t2\",\"anchors\":[\"t2\"],\"raw\":true}\n\
                 {\"memory_id\":\"t3\",\"anchors\":[\"t3\"],\"raw\":true}\n{\"memory_id\":\"c1\",\"anchors\":[\"t1\"],\"canonical\":true}\n";
        let q = "{\"query_id\":\"q1\",\"evidence\":[\"t1\"]}\n{\"query_id\":\"q2\",\"evidence\":[\"t2\"]}\n{\"query_id\":\"q3\",\"evidence\":[\"t3\"]}\n";
        let runs = "{\"system\":\"a\",\"query_id\":\"q1\",\"ranked\":[\"x\",\"t1\"]}\n{\"system\":\"a\",\"query_id\":\"q2\",\"ranked\":[\"t2\"]}\n\
                    {\"system\":\"a\",\"query_id\":\"q3\",\"ranked\":[\"t3\"]}\n{\"system\":\"b\",\"query_id\":\"q1\",\"ranked\":[\"c1\",\"t1\"]}\n\
                    {\"system\":\"b\",\"query_id\":\"q2\",\"ranked\":[\"x\"]}\n{\"system\":\"b\",\"query_id\":\"q3\",\"ranked\":[\"x\"]}\n";
        let ds = Dataset::from_jsonl(m, q, runs);
        let r = rescore(&ds, &Settings { bootstrap: 200, ..Settings::default() }, &mut |_| {});
        let compared = vec![Target::Raw, Target::Canonical];
        let rows = winners(&ds, &r, &compared, &mut MeanIntervals::new(200, 1, 0.95));
        let get = |subset, metric, t| {
            rows.iter().find(|w| w.subset == subset && w.metric == metric && w.target == t).unwrap()
        };
        let all_raw = get(Subset::All, Metric::Ndcg, Target::Raw);
        let all_can = get(Subset::All, Metric::Ndcg, Target::Canonical);
        assert_eq!((all_raw.n, all_can.n), (3, 1));
        assert_eq!((all_raw.winner.as_deref(), all_can.winner.as_deref()), (Some("a"), Some("b")));
        assert!(all_raw.flip);
        let sh_raw = get(Subset::Shared, Metric::Ndcg, Target::Raw);
        assert_eq!(sh_raw.n, 1);
        // q1 Raw: a finds t1 at rank 2 (1/log2 3), b at rank 2 as well: a tie.
        assert_eq!(sh_raw.winner.as_deref(), Some("tie"));
        assert!(!sh_raw.flip, "no flip on the same queries");
        // Hit flips on all Raw queries: a hits q2, q3 that b misses; none the other way.
        let hit = get(Subset::All, Metric::Hit, Target::Raw);
        assert_eq!((hit.hit_a_only, hit.hit_b_only), (Some(2), Some(0)));
        assert_eq!(hit.mcnemar_p, Some(0.5));
        // The first rows are the nDCG rows on `all`, as before.
        assert!(rows[..2].iter().all(|w| w.subset == Subset::All && w.metric == Metric::Ndcg));
        assert_eq!(rows[0].delta_ndcg, rows[0].delta);
    }
}
