//! Target shifts (TIAP §5.1 Table 4; Appendix A, Table 15 and Figure 3): how much switching only
//! the credit target changes a run's per-query scores, the ranked lists being the same.
//!
//! For a run and two targets A, B (every pair of the files' targets, in their order), on the
//! queries with the continuous metric m (nDCG) under both, i.e. eligible under both (`shared`):
//!
//! ```text
//! hit_flips   = #{q : hit_A(q) ≠ hit_B(q)}        (the binary hit@k; TIAP: k = 60)
//! top1_flips  = #{q : top1_A(q) ≠ top1_B(q)}
//! changed     = #{q : m_A(q) ≠ m_B(q)}             (compared exactly, as read)
//! change_rate = changed / shared
//! mean_shift  = mean (m_B − m_A),  mean_abs_shift = mean |m_B − m_A|
//! large_share = #{q : |m_B − m_A| ≥ t} / shared    (t = 0.1, TIAP Figure 3)
//! ```
//!
//! A `pooled` row per group sums the counts and pools the shifts over the group's runs (Figure 3
//! pools query–provider pairs). Each row carries the histogram of its |m_B − m_A| (Figure 3): 20
//! equal bins on [0, 1] ([`crate::plots::histogram::bins`]), on [0, ⌈max |Δ|⌉] for a metric whose
//! shifts exceed 1, so that no shift falls outside the bins. Flips are counted on queries with the flip metric under both
//! targets; a file without a hit or top-1 column leaves that count empty, never 0.
//! Reference: `tests/reference/alignment/make_shift_reference.py` (NumPy).

use serde::{Deserialize, Serialize};

use super::read::Joined;
use crate::plots::histogram::{HistogramBin, bins};
use crate::stats::bootstrap::mean;

/// The bins of a shift histogram.
pub const SHIFT_BINS: usize = 20;

/// One run's (or a group's `pooled`) shift between two targets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShiftRow {
    /// The run's value of the group column (`""` without one).
    pub group: String,
    /// The run, or `pooled` over the group's runs.
    pub run: String,
    pub target_a: String,
    pub target_b: String,
    /// Queries with the metric under both targets.
    pub shared: usize,
    pub hit_flips: Option<usize>,
    pub top1_flips: Option<usize>,
    /// Queries whose metric differs.
    pub changed: usize,
    pub change_rate: Option<f64>,
    pub mean_shift: Option<f64>,
    pub mean_abs_shift: Option<f64>,
    /// The share of shared queries with |m_B − m_A| ≥ the large-shift threshold.
    pub large_share: Option<f64>,
    /// The counts of |m_B − m_A| in [`SHIFT_BINS`] equal bins from 0 (TIAP Figure 3).
    #[serde(default)]
    pub bins: Vec<HistogramBin>,
}

/// What one (run or group, pair) accumulates.
#[derive(Default, Clone)]
struct Tally {
    hit: Option<usize>,
    top1: Option<usize>,
    changed: usize,
    shifts: Vec<f64>,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        let sum = |a: Option<usize>, b: Option<usize>| match (a, b) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
        };
        self.hit = sum(self.hit, other.hit);
        self.top1 = sum(self.top1, other.top1);
        self.changed += other.changed;
        self.shifts.extend_from_slice(&other.shifts);
    }

    fn row(&self, group: &str, run: &str, a: &str, b: &str, threshold: f64) -> ShiftRow {
        let shared = self.shifts.len();
        let share = |k: usize| (shared > 0).then(|| k as f64 / shared as f64);
        let abs: Vec<f64> = self.shifts.iter().map(|d| d.abs()).collect();
        ShiftRow {
            group: group.into(),
            run: run.into(),
            target_a: a.into(),
            target_b: b.into(),
            shared,
            hit_flips: self.hit,
            top1_flips: self.top1,
            changed: self.changed,
            change_rate: share(self.changed),
            mean_shift: mean(&self.shifts),
            mean_abs_shift: mean(&abs),
            large_share: share(abs.iter().filter(|d| **d >= threshold).count()),
            bins: bins(&abs, SHIFT_BINS, abs.iter().copied().fold(1.0, f64::max).ceil()),
        }
    }
}

/// The shifts of every run and pair of targets, then each group's pooled rows; `threshold`:
/// the large-shift threshold.
pub fn shifts(j: &Joined, threshold: f64) -> Vec<ShiftRow> {
    let pairs: Vec<(usize, usize)> =
        (0..j.targets.len()).flat_map(|a| (a + 1..j.targets.len()).map(move |b| (a, b))).collect();
    let (has_hit, has_top1) = (!j.flip_metrics.0.is_empty(), !j.flip_metrics.1.is_empty());
    let start = Tally { hit: has_hit.then_some(0), top1: has_top1.then_some(0), ..Tally::default() };
    // Per run, per pair.
    let mut tallies: Vec<Vec<Tally>> = vec![vec![start.clone(); pairs.len()]; j.runs.len()];
    for (i, &r) in j.key_run.iter().enumerate() {
        for (p, &(a, b)) in pairs.iter().enumerate() {
            let (ta, tb) = (&j.targets[a], &j.targets[b]);
            let (Some(&ma), Some(&mb)) = (j.identity[i].get(ta), j.identity[i].get(tb)) else { continue };
            let t = &mut tallies[r][p];
            t.shifts.push(mb - ma);
            t.changed += usize::from(ma != mb);
            if let (Some(fa), Some(fb)) = (j.flips[i].get(ta), j.flips[i].get(tb)) {
                let differ =
                    |x: Option<f64>, y: Option<f64>| usize::from(matches!((x, y), (Some(x), Some(y)) if x != y));
                if let Some(h) = t.hit.as_mut() {
                    *h += differ(fa.hit, fb.hit);
                }
                if let Some(h) = t.top1.as_mut() {
                    *h += differ(fa.top1, fb.top1);
                }
            }
        }
    }
    let mut rows = Vec::new();
    for (g, members) in j.groups() {
        for (p, &(a, b)) in pairs.iter().enumerate() {
            let (ta, tb) = (&j.targets[a], &j.targets[b]);
            let mut pooled = start.clone();
            for &r in &members {
                rows.push(tallies[r][p].row(g, &j.runs[r], ta, tb, threshold));
                pooled.add(&tallies[r][p]);
            }
            if members.len() > 1 {
                rows.push(pooled.row(g, "pooled", ta, tb, threshold));
            }
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alignment::read::Flips;
    use std::collections::HashMap;

    /// Two queries of one run under raw and canonical, by hand.
    #[test]
    fn flips_changes_and_shifts_by_hand() {
        let f = |h: f64, t: f64| Flips { hit: Some(h), top1: Some(t) };
        let j = Joined {
            flips: vec![
                HashMap::from([("raw".into(), f(1.0, 0.0)), ("canonical".into(), f(1.0, 1.0))]),
                HashMap::from([("raw".into(), f(0.0, 0.0)), ("canonical".into(), f(1.0, 1.0))]),
                HashMap::from([("raw".into(), f(1.0, 1.0))]),
            ],
            flip_metrics: ("hit_at_k".into(), "top1".into()),
            ..Joined::by_hand(&[(0.5, Some(0.5)), (0.2, Some(0.9)), (0.3, None)])
        };
        let rows = shifts(&j, 0.1);
        assert_eq!(rows.len(), 1, "one run, one pair, no pooled row");
        let r = &rows[0];
        assert_eq!((r.shared, r.hit_flips, r.top1_flips, r.changed), (2, Some(1), Some(2), 1));
        assert_eq!(r.change_rate, Some(0.5));
        assert!((r.mean_shift.unwrap() - 0.35).abs() < 1e-15);
        assert!((r.mean_abs_shift.unwrap() - 0.35).abs() < 1e-15);
        assert_eq!(r.large_share, Some(0.5));
        let counts: Vec<(f64, usize)> = r.bins.iter().filter(|b| b.count > 0).map(|b| (b.low, b.count)).collect();
        // As np.histogram: 0.9 − 0.2 = 0.7 lies below the edge 14 × 0.05 = 0.7000000000000001.
        assert_eq!(counts, [(0.0, 1), (0.65, 1)], "|Δ| = 0 and 0.9 − 0.2");
        assert_eq!((r.bins.len(), r.bins[19].high), (SHIFT_BINS, 1.0));
        // Without the flip columns the counts are empty, not 0.
        let j = Joined { flip_metrics: (String::new(), String::new()), ..j };
        let r = &shifts(&j, 0.1)[0];
        assert_eq!((r.hit_flips, r.top1_flips), (None, None));
    }
}
