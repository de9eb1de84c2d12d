//! Query-level instability between two targets for one system (TIAP Tables 4 and 15), on the
//! queries eligible under both targets:
//! - `ndcg_changed`: queries with |nDCG_b − nDCG_a| > 1e-12 (the paper's exact `!=`; the
//!   tolerance only absorbs float noise), `change_rate` = ndcg_changed / n;
//! - `hit_flips`: Hit@k differs (`hit_gained`: miss under a, hit under b; `hit_lost`: the
//!   reverse), with the exact McNemar p-value on (hit_lost, hit_gained);
//! - `top1_flips`: the rank-1 item is credited under one target only;
//! - `mean_diff_ndcg` = mean(nDCG_b − nDCG_a) with a paired percentile bootstrap interval.
//!
//! [`instability_by_category`] repeats the counts within each query category (TIAP §5.3).

use serde::{Deserialize, Serialize};

use super::{mean, target_pairs};
use crate::dataset::Dataset;
use crate::metrics::ListScore;
use crate::model::Target;
use crate::rescore::Rescored;
use crate::stats::bootstrap::Interval;
use crate::stats::deferred::MeanIntervals;
use crate::stats::mcnemar::mcnemar_exact;

/// Two floats differ when further apart than this.
pub const CHANGE_TOLERANCE: f64 = 1e-12;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InstabilityRow {
    pub system: String,
    pub a: Target,
    pub b: Target,
    pub n: usize,
    pub ndcg_changed: usize,
    pub change_rate: Option<f64>,
    pub hit_flips: usize,
    pub hit_gained: usize,
    pub hit_lost: usize,
    pub mcnemar_p: f64,
    pub top1_flips: usize,
    pub recall_changed: usize,
    pub mrr_changed: usize,
    pub mean_a: Option<f64>,
    pub mean_b: Option<f64>,
    pub mean_diff_ndcg: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
}

/// The (a, b) score pairs of one system on queries eligible under both targets.
pub fn paired(r: &Rescored, s: usize, a: Target, b: Target) -> Vec<(&ListScore, &ListScore)> {
    paired_in(r, s, a, b, 0..r.n_queries)
}

/// [`paired`] restricted to the given queries (indices below `r.n_queries`; others are skipped).
pub fn paired_in(
    r: &Rescored,
    s: usize,
    a: Target,
    b: Target,
    queries: impl IntoIterator<Item = usize>,
) -> Vec<(&ListScore, &ListScore)> {
    queries
        .into_iter()
        .filter(|&q| q < r.n_queries)
        .filter_map(|q| Some((r.cell(s, q, a).counted()?, r.cell(s, q, b).counted()?)))
        .collect()
}

/// The counts and means of one set of (a, b) score pairs: the one computation behind both
/// [`instability`] (all shared queries of a system) and [`instability_by_category`] (the
/// shared queries of one category).
#[derive(Debug, Clone, PartialEq)]
pub struct PairStats {
    pub n: usize,
    pub ndcg_changed: usize,
    pub change_rate: Option<f64>,
    pub hit_gained: usize,
    pub hit_lost: usize,
    pub top1_flips: usize,
    pub recall_changed: usize,
    pub mrr_changed: usize,
    pub mean_a: Option<f64>,
    pub mean_b: Option<f64>,
    /// nDCG_b − nDCG_a per pair, in the pairs' order (the bootstrap's input).
    pub diffs: Vec<f64>,
    pub mean_diff_ndcg: Option<f64>,
}

impl PairStats {
    /// Hit@k flips in either direction.
    pub fn hit_flips(&self) -> usize {
        self.hit_gained + self.hit_lost
    }
}

/// Counts changes and flips over (a, b) score pairs (see the module doc for each definition).
pub fn pair_stats(pairs: &[(&ListScore, &ListScore)]) -> PairStats {
    let changed = |x: f64, y: f64| (x - y).abs() > CHANGE_TOLERANCE;
    let n = pairs.len();
    let diffs: Vec<f64> = pairs.iter().map(|(x, y)| y.ndcg - x.ndcg).collect();
    let ndcg_changed = pairs.iter().filter(|(x, y)| changed(x.ndcg, y.ndcg)).count();
    PairStats {
        n,
        ndcg_changed,
        change_rate: if n > 0 { Some(ndcg_changed as f64 / n as f64) } else { None },
        hit_gained: pairs.iter().filter(|(x, y)| x.hit == 0.0 && y.hit == 1.0).count(),
        hit_lost: pairs.iter().filter(|(x, y)| x.hit == 1.0 && y.hit == 0.0).count(),
        top1_flips: pairs.iter().filter(|(x, y)| x.top1 != y.top1).count(),
        recall_changed: pairs.iter().filter(|(x, y)| changed(x.recall, y.recall)).count(),
        mrr_changed: pairs.iter().filter(|(x, y)| changed(x.mrr, y.mrr)).count(),
        mean_a: mean(&pairs.iter().map(|(x, _)| x.ndcg).collect::<Vec<_>>()),
        mean_b: mean(&pairs.iter().map(|(_, y)| y.ndcg).collect::<Vec<_>>()),
        mean_diff_ndcg: mean(&diffs),
        diffs,
    }
}

/// The rows, without their intervals of the mean difference: each row asks for one in
/// `intervals`, in row order ([`with_intervals`] puts them in).
pub fn instability(
    ds: &Dataset,
    r: &Rescored,
    compared: &[Target],
    intervals: &mut MeanIntervals,
) -> Vec<InstabilityRow> {
    let mut rows = Vec::new();
    for s in 0..r.n_systems {
        for (a, b) in target_pairs(compared) {
            let st = pair_stats(&paired(r, s, a, b));
            rows.push(InstabilityRow {
                system: ds.systems[s].clone(),
                a,
                b,
                n: st.n,
                ndcg_changed: st.ndcg_changed,
                change_rate: st.change_rate,
                hit_flips: st.hit_flips(),
                hit_gained: st.hit_gained,
                hit_lost: st.hit_lost,
                mcnemar_p: mcnemar_exact(st.hit_lost as u64, st.hit_gained as u64),
                top1_flips: st.top1_flips,
                recall_changed: st.recall_changed,
                mrr_changed: st.mrr_changed,
                mean_a: st.mean_a,
                mean_b: st.mean_b,
                mean_diff_ndcg: st.mean_diff_ndcg,
                ci_low: None,
                ci_high: None,
            });
            intervals.ask(st.diffs);
        }
    }
    rows
}

/// Each row's interval of the mean nDCG difference, in the order [`instability`] asked for them.
pub fn with_intervals(rows: &mut [InstabilityRow], intervals: &[Option<Interval>]) {
    for (row, ci) in rows.iter_mut().zip(intervals) {
        row.ci_low = ci.map(|c| c.low);
        row.ci_high = ci.map(|c| c.high);
    }
}

/// The category name under which queries without a `category` are reported in
/// [`instability_by_category`] (they are never dropped). A query whose category is literally
/// this string is counted with them.
pub const NO_CATEGORY: &str = "(none)";

/// One row of `instability_by_category`: [`InstabilityRow`]'s counts restricted to the shared
/// queries of one category.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CategoryInstabilityRow {
    pub system: String,
    pub a: Target,
    pub b: Target,
    /// The query's `category`, or [`NO_CATEGORY`] for queries without one.
    pub category: String,
    pub n: usize,
    pub ndcg_changed: usize,
    pub change_rate: Option<f64>,
    pub hit_flips: usize,
    pub top1_flips: usize,
    pub mean_diff_ndcg: Option<f64>,
}

/// The query categories of a dataset, sorted by name, [`NO_CATEGORY`] last (when some query
/// has no category); with each, its query indices in dataset order.
pub fn categories(ds: &Dataset) -> Vec<(String, Vec<usize>)> {
    let mut by: std::collections::BTreeMap<&str, Vec<usize>> = std::collections::BTreeMap::new();
    let mut none = Vec::new();
    for (q, query) in ds.queries.iter().enumerate() {
        match query.category.as_deref() {
            Some(c) if c != NO_CATEGORY => by.entry(c).or_default().push(q),
            _ => none.push(q),
        }
    }
    let mut out: Vec<(String, Vec<usize>)> = by.into_iter().map(|(c, qs)| (c.to_string(), qs)).collect();
    if !none.is_empty() {
        out.push((NO_CATEGORY.to_string(), none));
    }
    out
}

/// Per-category breakdown of [`instability`] (TIAP §5.3, "Target sensitivity is broad across
/// query types"; seed-001 §1.7 "Per-category change rate" and §5 item 4): for each system,
/// each pair of compared targets (a, b) — the same pairs, in the same order, as
/// `instability` — and each query category (see [`categories`]; queries without a category
/// form the category [`NO_CATEGORY`]), on the queries of that category eligible under both a
/// and b:
/// - `n`: how many such queries (0 when none: the row is kept, `change_rate` and
///   `mean_diff_ndcg` are `None`);
/// - `ndcg_changed`: queries whose nDCG differs (the same test as `instability`, the paper's
///   exact `!=` up to [`CHANGE_TOLERANCE`]), `change_rate` = ndcg_changed / n;
/// - `hit_flips`: Hit@k differs; `top1_flips`: the rank-1 item is credited under one target
///   only;
/// - `mean_diff_ndcg` = mean(nDCG_b − nDCG_a).
///
/// The counts come from [`pair_stats`], the same function as `instability`'s, so for each
/// (system, a, b) the categories' `n`, `ndcg_changed`, `hit_flips` and `top1_flips` sum to
/// the `instability` row's. No interval is computed per category.
pub fn instability_by_category(ds: &Dataset, r: &Rescored, compared: &[Target]) -> Vec<CategoryInstabilityRow> {
    let cats = categories(ds);
    let mut rows = Vec::new();
    for s in 0..r.n_systems {
        for (a, b) in target_pairs(compared) {
            for (category, queries) in &cats {
                let st = pair_stats(&paired_in(r, s, a, b, queries.iter().copied()));
                rows.push(CategoryInstabilityRow {
                    system: ds.systems[s].clone(),
                    a,
                    b,
                    category: category.clone(),
                    n: st.n,
                    ndcg_changed: st.ndcg_changed,
                    change_rate: st.change_rate,
                    hit_flips: st.hit_flips(),
                    top1_flips: st.top1_flips,
                    mean_diff_ndcg: st.mean_diff_ndcg,
                });
            }
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::compared_targets;
    use crate::conventions::Settings;
    use crate::rescore::rescore;

    /// One system, single-anchor queries, ranks 1–2 only, so every nDCG is 1, 0 or
    /// L = 1/log2(3) (credit at rank 2). Category A: qa1 [c1, r1], qa2 [r2, c2], qa3 [c3];
    /// category B: qb1 [r4, c4], qb2 [r5] (r5 has no canonical descendant: not eligible for
    /// Canonical); category C: qc1 without evidence (eligible nowhere); no category: qn1 [x]
    /// (a miss under every target).
    fn bundle() -> Dataset {
        let mut m = String::new();
        for id in ["r1", "r2", "r3", "r4", "r5", "r6", "x"] {
            m += &format!("{{\"memory_id\":\"{id}\",\"anchors\":[\"{id}\"],\"raw\":true}}\n");
        }
        for i in [1, 2, 3, 4, 6] {
            m += &format!("{{\"memory_id\":\"c{i}\",\"anchors\":[\"r{i}\"],\"canonical\":true}}\n");
        }
        let q = [
            ("qa1", "r1", Some("A")),
            ("qa2", "r2", Some("A")),
            ("qa3", "r3", Some("A")),
            ("qb1", "r4", Some("B")),
            ("qb2", "r5", Some("B")),
            ("qn1", "r6", None),
        ]
        .iter()
        .map(|(id, ev, cat)| {
            let cat = cat.map(|c| format!(",\"category\":\"{c}\"")).unwrap_or_default();
            format!("{{\"query_id\":\"{id}\",\"evidence\":[\"{ev}\"]{cat}}}\n")
        })
        .collect::<String>()
            + "{\"query_id\":\"qc1\",\"evidence\":[],\"category\":\"C\"}\n";
        let runs = [
            ("qa1", "\"c1\",\"r1\""),
            ("qa2", "\"r2\",\"c2\""),
            ("qa3", "\"c3\""),
            ("qb1", "\"r4\",\"c4\""),
            ("qb2", "\"r5\""),
            ("qn1", "\"x\""),
            ("qc1", "\"x\""),
        ]
        .iter()
        .map(|(q, ranked)| format!("{{\"system\":\"s\",\"query_id\":\"{q}\",\"ranked\":[{ranked}]}}\n"))
        .collect::<String>();
        Dataset::from_jsonl(&m, &q, &runs)
    }

    #[test]
    fn per_category_counts_by_hand() {
        let ds = bundle();
        let settings = Settings { bootstrap: 0, ..Settings::default() };
        let r = rescore(&ds, &settings, &mut |_| {});
        let compared = compared_targets(&r);
        assert_eq!(compared, [Target::Raw, Target::Source, Target::Canonical]);
        let rows = instability_by_category(&ds, &r, &compared);
        let l = 1.0 / 3f64.log2();
        use Target::{Canonical as C, Raw as R, Source as S};
        // (a, b, category, n, ndcg_changed, change_rate, hit_flips, top1_flips, mean_diff_ndcg)
        type Want = (Target, Target, &'static str, usize, usize, Option<f64>, usize, usize, Option<f64>);
        #[rustfmt::skip]
        let want: [Want; 12] = [
            (R, S, "A", 3, 2, Some(2.0 / 3.0), 1, 2, Some((2.0 - l) / 3.0)),
            (R, S, "B", 2, 0, Some(0.0), 0, 0, Some(0.0)),
            (R, S, "C", 0, 0, None, 0, 0, None),
            (R, S, "(none)", 1, 0, Some(0.0), 0, 0, Some(0.0)),
            (R, C, "A", 3, 3, Some(1.0), 1, 3, Some(1.0 / 3.0)),
            (R, C, "B", 1, 1, Some(1.0), 0, 1, Some(l - 1.0)),
            (R, C, "C", 0, 0, None, 0, 0, None),
            (R, C, "(none)", 1, 0, Some(0.0), 0, 0, Some(0.0)),
            (S, C, "A", 3, 1, Some(1.0 / 3.0), 0, 1, Some((l - 1.0) / 3.0)),
            (S, C, "B", 1, 1, Some(1.0), 0, 1, Some(l - 1.0)),
            (S, C, "C", 0, 0, None, 0, 0, None),
            (S, C, "(none)", 1, 0, Some(0.0), 0, 0, Some(0.0)),
        ];
        assert_eq!(rows.len(), want.len());
        let close = |x: Option<f64>, y: Option<f64>| match (x, y) {
            (Some(x), Some(y)) => (x - y).abs() < 1e-12,
            (None, None) => true,
            _ => false,
        };
        for (row, w) in rows.iter().zip(want) {
            let what = format!("{} vs {} / {}", w.0, w.1, w.2);
            assert_eq!((row.system.as_str(), row.a, row.b, row.category.as_str()), ("s", w.0, w.1, w.2), "{what}");
            assert_eq!((row.n, row.ndcg_changed, row.hit_flips, row.top1_flips), (w.3, w.4, w.6, w.7), "{what}");
            assert!(close(row.change_rate, w.5), "{what}: change_rate {:?}", row.change_rate);
            assert!(close(row.mean_diff_ndcg, w.8), "{what}: mean_diff {:?}", row.mean_diff_ndcg);
        }

        // The categories partition the overall rows.
        for whole in instability(&ds, &r, &compared, &mut MeanIntervals::new(0, 1, 0.95)) {
            let parts: Vec<_> = rows.iter().filter(|c| c.a == whole.a && c.b == whole.b).collect();
            assert_eq!(parts.iter().map(|c| c.n).sum::<usize>(), whole.n);
            assert_eq!(parts.iter().map(|c| c.ndcg_changed).sum::<usize>(), whole.ndcg_changed);
            assert_eq!(parts.iter().map(|c| c.hit_flips).sum::<usize>(), whole.hit_flips);
            assert_eq!(parts.iter().map(|c| c.top1_flips).sum::<usize>(), whole.top1_flips);
        }
    }

    #[test]
    fn categories_sort_by_name_with_the_sentinel_last() {
        let ds = bundle();
        let cats: Vec<(String, usize)> = categories(&ds).into_iter().map(|(c, qs)| (c, qs.len())).collect();
        let want = [("A", 3), ("B", 2), ("C", 1), (NO_CATEGORY, 1)];
        assert_eq!(cats, want.map(|(c, n)| (c.to_string(), n)));
    }
}
