//! Means with intervals per (run, dataset, arm, K), the K-sweep series, paired deltas at equal
//! K with seed-000's significance labels, the Δ-stability check and crossovers.

use crate::distinct::first_seen;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::read::{ScoreRow, ScoreTable};
use crate::error::{Error, Result};
use crate::stats::Resampler;
use crate::stats::proportions::wilson_interval;

/// seed-000 §1.9's labels of a paired delta and its interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Significance {
    /// The interval excludes 0 (lower > 0 or upper < 0): "robust", strictly significant.
    Strict,
    /// A bound equals 0: touches zero, not strictly significant.
    Boundary,
    /// The interval contains 0 inside, point estimate ≠ 0.
    Directional,
    /// Point estimate 0 ("s. (point at 0)").
    None,
}

impl Significance {
    /// The label's name (`strict`, `boundary`, `directional`, `none`), as serde writes it.
    pub fn name(self) -> &'static str {
        match self {
            Significance::Strict => "strict",
            Significance::Boundary => "boundary",
            Significance::Directional => "directional",
            Significance::None => "none",
        }
    }

    /// Labels (delta, [low, high]); values within `eps` of 0 count as 0.
    pub fn of(delta: f64, low: f64, high: f64, eps: f64) -> Significance {
        if delta.abs() <= eps {
            Significance::None
        } else if low > eps || high < -eps {
            Significance::Strict
        } else if low.abs() <= eps || high.abs() <= eps {
            Significance::Boundary
        } else {
            Significance::Directional
        }
    }

    /// The CI overlaps zero: contains it inside, or also touches it when `touch_counts`.
    pub fn overlaps_zero(self, touch_counts: bool) -> bool {
        match self {
            Significance::Strict => false,
            Significance::Boundary => touch_counts,
            Significance::Directional | Significance::None => true,
        }
    }
}

/// Settings of a K-sweep, recorded with it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepSettings {
    /// The metric column.
    pub metric: String,
    pub bootstrap: usize,
    pub seed: u64,
    pub confidence: f64,
    /// Contrasts a − b; empty: every pair of arms in first-seen order.
    pub contrasts: Vec<(String, String)>,
    /// Δ-stability: |Δ_K − Δ_base| ≤ slack passes.
    pub slack: f64,
    /// The K the others are compared with (`None`: the smallest).
    pub base_k: Option<i64>,
    /// |x| ≤ eps counts as 0 for the labels.
    pub eps: f64,
}

impl SweepSettings {
    pub fn new(metric: &str) -> SweepSettings {
        SweepSettings {
            metric: metric.to_string(),
            bootstrap: 10_000,
            seed: 42,
            confidence: 0.95,
            contrasts: Vec::new(),
            slack: 0.02,
            base_k: None,
            eps: 1e-9,
        }
    }

    pub fn validate(&self) -> Result<()> {
        crate::stats::bootstrap::Bootstrap { resamples: self.bootstrap, seed: self.seed, confidence: self.confidence }
            .validate(1)?;
        if self.slack.is_nan() || self.slack < 0.0 {
            return Err(Error::setting("slack", "must be ≥ 0"));
        }
        Ok(())
    }
}

/// The mean of one arm in one cell, with its intervals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellStats {
    pub n: usize,
    pub mean: f64,
    /// Percentile bootstrap interval of the mean.
    pub ci_low: f64,
    pub ci_high: f64,
    pub binary: bool,
    pub successes: Option<f64>,
    pub wilson_low: Option<f64>,
    pub wilson_high: Option<f64>,
}

/// A paired delta a − b on the queries both arms have.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeltaStats {
    pub n_a: usize,
    pub n_b: usize,
    pub n_shared: usize,
    /// Each arm's mean over all its queries (what a table of means shows).
    pub mean_a: f64,
    pub mean_b: f64,
    /// Each arm's mean over the shared queries.
    pub mean_a_shared: f64,
    pub mean_b_shared: f64,
    /// mean over shared queries of a − b.
    pub delta: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub label: Significance,
    /// The arms were not run on the same queries.
    pub query_sets_differ: bool,
    /// Paired binary outcomes: `b_count` = a right & b wrong, `c_count` = a wrong & b right.
    pub b_count: Option<usize>,
    pub c_count: Option<usize>,
}

/// Mean and intervals of `values`.
pub fn cell_stats(values: &[f64], resampler: &mut Resampler, confidence: f64) -> Option<CellStats> {
    let n = values.len();
    if n == 0 {
        return None;
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    let ci = resampler.mean_ci(values, confidence)?;
    let binary = values.iter().all(|v| *v == 0.0 || *v == 1.0);
    let successes = binary.then(|| values.iter().sum::<f64>());
    let wilson = successes.and_then(|s| wilson_interval(s, n as f64, confidence));
    let (wilson_low, wilson_high) = (wilson.map(|w| w.low), wilson.map(|w| w.high));
    Some(CellStats { n, mean, ci_low: ci.low, ci_high: ci.high, binary, successes, wilson_low, wilson_high })
}

/// The paired delta of two arms' per-query values (inner join on the query id, in `a`'s
/// order); `None` without shared queries.
pub fn paired_delta(
    a: &[(String, f64)],
    b: &[(String, f64)],
    resampler: &mut Resampler,
    confidence: f64,
    eps: f64,
) -> Option<DeltaStats> {
    let b_of: BTreeMap<&str, f64> = b.iter().map(|(q, v)| (q.as_str(), *v)).collect();
    let shared: Vec<(f64, f64)> = a.iter().filter_map(|(q, x)| b_of.get(q.as_str()).map(|y| (*x, *y))).collect();
    if shared.is_empty() {
        return None;
    }
    let diffs: Vec<f64> = shared.iter().map(|(x, y)| x - y).collect();
    let n = shared.len() as f64;
    let delta = diffs.iter().sum::<f64>() / n;
    let ci = resampler.mean_ci(&diffs, confidence)?;
    let binary = shared.iter().all(|(x, y)| [*x, *y].iter().all(|v| *v == 0.0 || *v == 1.0));
    let mean = |v: &[(String, f64)]| v.iter().map(|(_, x)| x).sum::<f64>() / v.len() as f64;
    let a_ids: BTreeSet<&str> = a.iter().map(|(q, _)| q.as_str()).collect();
    Some(DeltaStats {
        n_a: a.len(),
        n_b: b.len(),
        n_shared: shared.len(),
        mean_a: mean(a),
        mean_b: mean(b),
        mean_a_shared: shared.iter().map(|s| s.0).sum::<f64>() / n,
        mean_b_shared: shared.iter().map(|s| s.1).sum::<f64>() / n,
        delta,
        ci_low: ci.low,
        ci_high: ci.high,
        label: Significance::of(delta, ci.low, ci.high, eps),
        query_sets_differ: a_ids.len() != b_of.len() || shared.len() != a_ids.len(),
        b_count: binary.then(|| shared.iter().filter(|(x, y)| *x == 1.0 && *y == 0.0).count()),
        c_count: binary.then(|| shared.iter().filter(|(x, y)| *x == 0.0 && *y == 1.0).count()),
    })
}

/// One cell of the sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    pub run: Option<String>,
    pub dataset: Option<String>,
    pub arm: String,
    pub k: Option<i64>,
    #[serde(flatten)]
    pub stats: CellStats,
}

/// A plot-ready point of a series.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeriesPoint {
    pub k: Option<i64>,
    pub mean: f64,
    pub low: f64,
    pub high: f64,
    pub n: usize,
}

/// Score vs K of one arm on one dataset (one line of the K-sweep plot).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Series {
    pub run: Option<String>,
    pub dataset: Option<String>,
    pub arm: String,
    pub points: Vec<SeriesPoint>,
}

/// A paired delta between two arms at one K.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeltaRow {
    pub run: Option<String>,
    pub dataset: Option<String>,
    pub k: Option<i64>,
    pub a: String,
    pub b: String,
    #[serde(flatten)]
    pub stats: DeltaStats,
}

/// Δ at one K against Δ at the base K, for one dataset and contrast.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StabilityRow {
    pub run: Option<String>,
    pub dataset: Option<String>,
    pub a: String,
    pub b: String,
    pub base_k: Option<i64>,
    pub k: Option<i64>,
    pub delta_base: f64,
    pub delta_k: f64,
    /// |Δ_K − Δ_base|.
    pub change: f64,
    pub slack: f64,
    pub within: bool,
    /// Either delta rests on arms with different query sets (a partial cell).
    pub partial: bool,
}

/// How many datasets keep Δ within the slack, per contrast and K.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StabilitySummary {
    pub run: Option<String>,
    pub a: String,
    pub b: String,
    pub base_k: Option<i64>,
    pub k: Option<i64>,
    pub within: usize,
    pub datasets: usize,
    pub within_datasets: Vec<String>,
}

/// An arm ahead of another at K but below the other's score at the next K (seed-000 §4.2.2:
/// the specialist at K = 5 scores less than vanilla at K = 10).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Crossover {
    pub run: Option<String>,
    pub dataset: Option<String>,
    pub arm: String,
    pub k: Option<i64>,
    pub mean: f64,
    pub other: String,
    pub other_k: Option<i64>,
    pub other_mean: f64,
}

/// The whole sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KSweep {
    pub settings: SweepSettings,
    pub cells: Vec<Cell>,
    pub series: Vec<Series>,
    pub deltas: Vec<DeltaRow>,
    pub stability: Vec<StabilityRow>,
    pub stability_summary: Vec<StabilitySummary>,
    pub crossovers: Vec<Crossover>,
}

type Key = (Option<String>, Option<String>); // (run, dataset)

/// Per-query (query, value) of one arm in one (run, dataset, K) cell.
pub fn cell_values(rows: &[&ScoreRow], metric: &str) -> Vec<(String, f64)> {
    rows.iter().filter_map(|r| r.values.get(metric).map(|v| (r.query_id.clone(), *v))).collect()
}

/// Runs the sweep over every (run, dataset, arm, K) of the table.
pub fn sweep(table: &ScoreTable, settings: &SweepSettings) -> Result<KSweep> {
    settings.validate()?;
    if !table.metrics.contains(&settings.metric) {
        return Err(Error::setting("metric", format!("no numeric column `{}`", settings.metric)));
    }
    let mut resampler = Resampler::new(settings.bootstrap, settings.seed);
    let groups: Vec<Key> = first_seen(table.rows.iter().map(|r| (r.run.clone(), r.dataset.clone())));
    let arms: Vec<String> = first_seen(table.rows.iter().map(|r| r.arm.clone()));
    let contrasts: Vec<(String, String)> = if settings.contrasts.is_empty() {
        let mut c = Vec::new();
        for (i, a) in arms.iter().enumerate() {
            for b in &arms[i + 1..] {
                c.push((a.clone(), b.clone()));
            }
        }
        c
    } else {
        for (a, b) in &settings.contrasts {
            for x in [a, b] {
                if !arms.contains(x) {
                    return Err(Error::setting("contrast", format!("no arm `{x}` (arms: {})", arms.join(", "))));
                }
            }
        }
        settings.contrasts.clone()
    };
    let mut out = KSweep {
        settings: settings.clone(),
        cells: Vec::new(),
        series: Vec::new(),
        deltas: Vec::new(),
        stability: Vec::new(),
        stability_summary: Vec::new(),
        crossovers: Vec::new(),
    };
    for (run, dataset) in &groups {
        let in_group: Vec<&ScoreRow> = table
            .rows
            .iter()
            .filter(|r| &r.run == run && &r.dataset == dataset && r.values.contains_key(&settings.metric))
            .collect();
        let mut ks: Vec<Option<i64>> = first_seen(in_group.iter().map(|r| r.k));
        ks.sort();
        let values = |arm: &str, k: Option<i64>| -> Vec<(String, f64)> {
            let rows: Vec<&ScoreRow> = in_group.iter().copied().filter(|r| r.arm == arm && r.k == k).collect();
            cell_values(&rows, &settings.metric)
        };
        let mut means: BTreeMap<(String, Option<i64>), f64> = BTreeMap::new();
        for arm in &arms {
            let mut points = Vec::new();
            for &k in &ks {
                let v: Vec<f64> = values(arm, k).into_iter().map(|(_, x)| x).collect();
                if let Some(stats) = cell_stats(&v, &mut resampler, settings.confidence) {
                    points.push(SeriesPoint {
                        k,
                        mean: stats.mean,
                        low: stats.ci_low,
                        high: stats.ci_high,
                        n: stats.n,
                    });
                    means.insert((arm.clone(), k), stats.mean);
                    out.cells.push(Cell { run: run.clone(), dataset: dataset.clone(), arm: arm.clone(), k, stats });
                }
            }
            if !points.is_empty() {
                out.series.push(Series { run: run.clone(), dataset: dataset.clone(), arm: arm.clone(), points });
            }
        }
        let mut by_k: BTreeMap<(usize, Option<i64>), DeltaStats> = BTreeMap::new();
        for (ci, (a, b)) in contrasts.iter().enumerate() {
            for &k in &ks {
                if let Some(stats) =
                    paired_delta(&values(a, k), &values(b, k), &mut resampler, settings.confidence, settings.eps)
                {
                    by_k.insert((ci, k), stats.clone());
                    out.deltas.push(DeltaRow {
                        run: run.clone(),
                        dataset: dataset.clone(),
                        k,
                        a: a.clone(),
                        b: b.clone(),
                        stats,
                    });
                }
            }
            let base_k = settings
                .base_k
                .map(Some)
                .unwrap_or_else(|| ks.iter().copied().find(|k| by_k.contains_key(&(ci, *k))).flatten());
            let Some(base) = by_k.get(&(ci, base_k)) else { continue };
            for &k in ks.iter().filter(|k| **k != base_k) {
                if let Some(d) = by_k.get(&(ci, k)) {
                    let change = (d.delta - base.delta).abs();
                    out.stability.push(StabilityRow {
                        run: run.clone(),
                        dataset: dataset.clone(),
                        a: a.clone(),
                        b: b.clone(),
                        base_k,
                        k,
                        delta_base: base.delta,
                        delta_k: d.delta,
                        change,
                        slack: settings.slack,
                        within: change <= settings.slack + settings.eps,
                        partial: d.query_sets_differ || base.query_sets_differ,
                    });
                }
            }
        }
        // crossovers: a ahead of b at K, below b at the next K
        for (i, &k) in ks.iter().enumerate() {
            let Some(&next) = ks.get(i + 1) else { continue };
            for a in &arms {
                for b in arms.iter().filter(|b| *b != a) {
                    if let (Some(&ma), Some(&mb), Some(&mb_next)) =
                        (means.get(&(a.clone(), k)), means.get(&(b.clone(), k)), means.get(&(b.clone(), next)))
                        && ma > mb
                        && ma < mb_next
                    {
                        out.crossovers.push(Crossover {
                            run: run.clone(),
                            dataset: dataset.clone(),
                            arm: a.clone(),
                            k,
                            mean: ma,
                            other: b.clone(),
                            other_k: next,
                            other_mean: mb_next,
                        });
                    }
                }
            }
        }
    }
    // summaries over datasets per (run, contrast, base K, K)
    type SummaryKey = (Option<String>, String, String, Option<i64>, Option<i64>);
    let mut summary: BTreeMap<SummaryKey, (usize, usize, Vec<String>)> = BTreeMap::new();
    for s in &out.stability {
        let e = summary.entry((s.run.clone(), s.a.clone(), s.b.clone(), s.base_k, s.k)).or_default();
        e.1 += 1;
        if s.within {
            e.0 += 1;
            e.2.push(s.dataset.clone().unwrap_or_default());
        }
    }
    out.stability_summary = summary
        .into_iter()
        .map(|((run, a, b, base_k, k), (within, datasets, within_datasets))| StabilitySummary {
            run,
            a,
            b,
            base_k,
            k,
            within,
            datasets,
            within_datasets,
        })
        .collect();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_seed_000() {
        // Table 2: +8 [2, 15] robust; +7 [0, 15] boundary; +5 [−2, 12] directional; 0 [−4, 4]
        assert_eq!(Significance::of(8.0, 2.0, 15.0, 1e-9), Significance::Strict);
        assert_eq!(Significance::of(7.0, 0.0, 15.0, 1e-9), Significance::Boundary);
        assert_eq!(Significance::of(5.0, -2.0, 12.0, 1e-9), Significance::Directional);
        assert_eq!(Significance::of(0.0, -4.0, 4.0, 1e-9), Significance::None);
        assert_eq!(Significance::of(-3.0, -6.0, -1.0, 1e-9), Significance::Strict);
        assert_eq!(Significance::of(-3.0, -6.0, 0.0, 1e-9), Significance::Boundary);
        assert!(Significance::Boundary.overlaps_zero(true) && !Significance::Boundary.overlaps_zero(false));
    }
}
