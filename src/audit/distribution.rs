//! Distribution of per-query |ΔnDCG| between two targets (TIAP Fig. 3 and App. A: "per-query
//! |ΔnDCG| when switching from Raw to Canonical", the share of query–provider pairs shifting by
//! at least 0.1, and the mean |Δ|), per system and pooled over systems (`system` = `all`), on
//! the queries eligible under both targets. Twenty bins of width 0.05 on [0, 1]; the last bin
//! includes 1.

use serde::{Deserialize, Serialize};

use super::{mean, target_pairs};
use crate::dataset::Dataset;
use crate::model::Target;
use crate::rescore::Rescored;
use crate::stats::quantile::median;

use super::instability::paired;

pub const BINS: usize = 20;
pub const SHIFT_THRESHOLD: f64 = 0.1;

pub use crate::plots::histogram::HistogramBin;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeltaDistribution {
    /// A system name, or `all` for the pooled distribution.
    pub system: String,
    pub a: Target,
    pub b: Target,
    pub n: usize,
    pub mean_abs: Option<f64>,
    pub median_abs: Option<f64>,
    /// Share of queries with |Δ| ≥ 0.1.
    pub share_ge_0_1: Option<f64>,
    pub bins: Vec<HistogramBin>,
}

/// The |Δ| of `values` in [`BINS`] bins of 0.05 on [0, 1].
pub fn histogram(values: &[f64]) -> Vec<HistogramBin> {
    crate::plots::histogram::bins(values, BINS, 1.0)
}

fn describe(system: String, a: Target, b: Target, abs: Vec<f64>) -> DeltaDistribution {
    let n = abs.len();
    DeltaDistribution {
        system,
        a,
        b,
        n,
        mean_abs: mean(&abs),
        median_abs: median(&abs),
        share_ge_0_1: if n > 0 {
            Some(abs.iter().filter(|&&d| d >= SHIFT_THRESHOLD - 1e-12).count() as f64 / n as f64)
        } else {
            None
        },
        bins: histogram(&abs),
    }
}

pub fn delta_distribution(ds: &Dataset, r: &Rescored, compared: &[Target]) -> Vec<DeltaDistribution> {
    let mut out = Vec::new();
    for (a, b) in target_pairs(compared) {
        let mut pooled = Vec::new();
        for s in 0..r.n_systems {
            let abs: Vec<f64> = paired(r, s, a, b).iter().map(|(x, y)| (y.ndcg - x.ndcg).abs()).collect();
            pooled.extend_from_slice(&abs);
            out.push(describe(ds.systems[s].clone(), a, b, abs));
        }
        out.push(describe("all".to_string(), a, b, pooled));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_cover_the_unit_interval() {
        let h = histogram(&[0.0, 0.049, 0.05, 0.5, 0.999, 1.0]);
        assert_eq!(h.len(), BINS);
        assert_eq!(h[0].count, 2);
        assert_eq!(h[1].count, 1);
        assert_eq!(h[10].count, 1);
        assert_eq!(h[19].count, 2);
        let d = describe("x".into(), Target::Raw, Target::Canonical, vec![0.0, 0.1, 0.3, 0.05]);
        assert_eq!(d.share_ge_0_1, Some(0.5));
        assert!((d.mean_abs.unwrap() - 0.1125).abs() < 1e-15);
    }
}
