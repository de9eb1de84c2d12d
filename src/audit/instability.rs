//! Query-level instability between two targets for one system (TIAP Tables 4 and 15), on the
//! queries eligible under both targets:
//! - `ndcg_changed`: queries with |nDCG_b − nDCG_a| > 1e-12 (the paper's exact `!=`; the
//!   tolerance only absorbs float noise), `change_rate` = ndcg_changed / n;
//! - `hit_flips`: Hit@k differs (`hit_gained`: miss under a, hit under b; `hit_lost`: the
//!   reverse), with the exact McNemar p-value on (hit_lost, hit_gained);
//! - `top1_flips`: the rank-1 item is credited under one target only;
//! - `mean_diff_ndcg` = mean(nDCG_b − nDCG_a) with a paired percentile bootstrap interval.

use serde::{Deserialize, Serialize};

use super::{mean, target_pairs};
use crate::dataset::Dataset;
use crate::metrics::ListScore;
use crate::model::Target;
use crate::rescore::Rescored;
use crate::stats::Resampler;
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
    (0..r.n_queries).filter_map(|q| Some((r.cell(s, q, a).counted()?, r.cell(s, q, b).counted()?))).collect()
}

pub fn instability(ds: &Dataset, r: &Rescored, compared: &[Target], resampler: &mut Resampler) -> Vec<InstabilityRow> {
    let mut rows = Vec::new();
    let mut vectors: Vec<Vec<f64>> = Vec::new();
    let changed = |x: f64, y: f64| (x - y).abs() > CHANGE_TOLERANCE;
    for s in 0..r.n_systems {
        for (a, b) in target_pairs(compared) {
            let pairs = paired(r, s, a, b);
            let n = pairs.len();
            let diffs: Vec<f64> = pairs.iter().map(|(x, y)| y.ndcg - x.ndcg).collect();
            let hit_gained = pairs.iter().filter(|(x, y)| x.hit == 0.0 && y.hit == 1.0).count();
            let hit_lost = pairs.iter().filter(|(x, y)| x.hit == 1.0 && y.hit == 0.0).count();
            let ndcg_changed = pairs.iter().filter(|(x, y)| changed(x.ndcg, y.ndcg)).count();
            rows.push(InstabilityRow {
                system: ds.systems[s].clone(),
                a,
                b,
                n,
                ndcg_changed,
                change_rate: if n > 0 { Some(ndcg_changed as f64 / n as f64) } else { None },
                hit_flips: hit_gained + hit_lost,
                hit_gained,
                hit_lost,
                mcnemar_p: mcnemar_exact(hit_lost as u64, hit_gained as u64),
                top1_flips: pairs.iter().filter(|(x, y)| x.top1 != y.top1).count(),
                recall_changed: pairs.iter().filter(|(x, y)| changed(x.recall, y.recall)).count(),
                mrr_changed: pairs.iter().filter(|(x, y)| changed(x.mrr, y.mrr)).count(),
                mean_a: mean(&pairs.iter().map(|(x, _)| x.ndcg).collect::<Vec<_>>()),
                mean_b: mean(&pairs.iter().map(|(_, y)| y.ndcg).collect::<Vec<_>>()),
                mean_diff_ndcg: mean(&diffs),
                ci_low: None,
                ci_high: None,
            });
            vectors.push(diffs);
        }
    }
    let refs: Vec<&[f64]> = vectors.iter().map(Vec::as_slice).collect();
    for (row, ci) in rows.iter_mut().zip(resampler.mean_ci_many(&refs, r.settings.confidence)) {
        row.ci_low = ci.map(|c| c.low);
        row.ci_high = ci.map(|c| c.high);
    }
    rows
}
