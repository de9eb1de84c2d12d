//! Per system × target means on two populations (TIAP §3.2, seed-001 §1.5):
//! - `all`: queries eligible for the target that the system scored (the "full run" mean;
//!   queries with an empty target are excluded, not scored 0);
//! - `shared`: queries eligible under every compared target (the shared-subset control, so
//!   score changes reflect the credited target set rather than the query population).
//!
//! nDCG means carry a percentile bootstrap interval.

use serde::{Deserialize, Serialize};

use super::{Metric, mean};
use crate::dataset::Dataset;
use crate::model::Target;
use crate::rescore::Rescored;
use crate::stats::bootstrap::Interval;
use crate::stats::deferred::MeanIntervals;

crate::choice! {
    /// The queries a mean is taken over.
    pub enum Subset {
        /// Every query eligible under the target.
        All,
        /// The shared subset: queries eligible under every compared target (TIAP's control).
        Shared,
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    pub system: String,
    pub target: Target,
    pub subset: Subset,
    pub n: usize,
    pub ndcg: Option<f64>,
    pub recall: Option<f64>,
    pub hit: Option<f64>,
    pub mrr: Option<f64>,
    pub top1: Option<f64>,
    pub ndcg_ci_low: Option<f64>,
    pub ndcg_ci_high: Option<f64>,
}

/// Whether query `q` is eligible under every compared target in system `s`'s store.
pub fn in_shared(r: &Rescored, compared: &[Target], s: usize, q: usize) -> bool {
    compared.iter().all(|&t| r.is_eligible(s, q, t))
}

/// The rows, without their nDCG intervals: each row asks for one in `intervals`, in row order
/// ([`with_intervals`] puts them in).
pub fn summary(ds: &Dataset, r: &Rescored, compared: &[Target], intervals: &mut MeanIntervals) -> Vec<SummaryRow> {
    let mut rows = Vec::new();
    for s in 0..r.n_systems {
        for &t in &r.targets {
            for &subset in Subset::ALL {
                let scores: Vec<_> = (0..r.n_queries)
                    .filter(|&q| subset == Subset::All || in_shared(r, compared, s, q))
                    .filter_map(|q| r.cell(s, q, t).counted())
                    .collect();
                let col = |m: Metric| -> Vec<f64> { scores.iter().map(|sc| m.of(sc)).collect() };
                let ndcg = col(Metric::Ndcg);
                rows.push(SummaryRow {
                    system: ds.systems[s].clone(),
                    target: t,
                    subset,
                    n: scores.len(),
                    ndcg: mean(&ndcg),
                    recall: mean(&col(Metric::Recall)),
                    hit: mean(&col(Metric::Hit)),
                    mrr: mean(&col(Metric::Mrr)),
                    top1: mean(&col(Metric::Top1)),
                    ndcg_ci_low: None,
                    ndcg_ci_high: None,
                });
                intervals.ask(ndcg);
            }
        }
    }
    rows
}

/// Each row's nDCG interval, in the order [`summary`] asked for them.
pub fn with_intervals(rows: &mut [SummaryRow], intervals: &[Option<Interval>]) {
    for (row, ci) in rows.iter_mut().zip(intervals) {
        row.ndcg_ci_low = ci.map(|c| c.low);
        row.ndcg_ci_high = ci.map(|c| c.high);
    }
}
