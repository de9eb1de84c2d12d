//! System gaps and winner flips (TIAP Eq. 4, §3.3): for systems A, B and target t,
//! Δ_t(A, B) = mean nDCG_t(A) − mean nDCG_t(B) on the queries eligible for t that both systems
//! scored (paired), with a paired percentile bootstrap interval. The winner is the system with
//! the larger mean (`tie` when |Δ| ≤ 1e-12). A winner flip is a sign change of Δ_t across
//! targets: the pair has different non-tie winners under two targets. `significant` marks an
//! interval that excludes 0 (the paper attaches no uncertainty to flips; winners resting on
//! margins of 0.0004 exist in its Table 5).

use serde::{Deserialize, Serialize};

use super::instability::CHANGE_TOLERANCE;
use super::mean;
use crate::dataset::Dataset;
use crate::model::Target;
use crate::rescore::Rescored;
use crate::stats::Resampler;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WinnerRow {
    pub target: Target,
    pub a: String,
    pub b: String,
    pub n: usize,
    pub mean_a: Option<f64>,
    pub mean_b: Option<f64>,
    /// mean nDCG of a − mean nDCG of b on the paired queries.
    pub delta_ndcg: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    /// The winning system's name, `tie`, or null when no query is paired.
    pub winner: Option<String>,
    pub significant: bool,
    /// The winner of this pair differs across targets.
    pub flip: bool,
}

pub fn winners(ds: &Dataset, r: &Rescored, resampler: &mut Resampler) -> Vec<WinnerRow> {
    let mut rows = Vec::new();
    let mut vectors: Vec<Vec<f64>> = Vec::new();
    for i in 0..r.n_systems {
        for j in i + 1..r.n_systems {
            let start = rows.len();
            for &t in &r.targets {
                let pairs: Vec<(f64, f64)> = (0..r.n_queries)
                    .filter_map(|q| Some((r.cell(i, q, t).counted()?.ndcg, r.cell(j, q, t).counted()?.ndcg)))
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
                rows.push(WinnerRow {
                    target: t,
                    a: ds.systems[i].clone(),
                    b: ds.systems[j].clone(),
                    n: pairs.len(),
                    mean_a: mean(&pairs.iter().map(|p| p.0).collect::<Vec<_>>()),
                    mean_b: mean(&pairs.iter().map(|p| p.1).collect::<Vec<_>>()),
                    delta_ndcg: delta,
                    ci_low: None,
                    ci_high: None,
                    winner,
                    significant: false,
                    flip: false,
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
    let refs: Vec<&[f64]> = vectors.iter().map(Vec::as_slice).collect();
    for (row, ci) in rows.iter_mut().zip(resampler.mean_ci_many(&refs, r.settings.confidence)) {
        row.ci_low = ci.map(|c| c.low);
        row.ci_high = ci.map(|c| c.high);
        row.significant = ci.is_some_and(|c| c.low > 0.0 || c.high < 0.0);
    }
    rows
}
