//! Metrics at several cutoffs (`--k 1,5,10,60`): the same saved lists rescored at each k, and
//! per system, target and population the means of nDCG@k, Recall@k, Hit@k, MRR@k and top-1
//! — the Recall@k / nDCG@k curve the viewer draws. Every other table is at the largest k.

use serde::{Deserialize, Serialize};

use super::summary::{Subset, in_shared};
use super::{Metric, mean};
use crate::conventions::Settings;
use crate::dataset::Dataset;
use crate::model::Target;
use crate::rescore::rescore;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CurveRow {
    pub system: String,
    pub target: Target,
    pub subset: Subset,
    pub k: usize,
    /// Queries averaged over.
    pub n: usize,
    pub ndcg: Option<f64>,
    pub recall: Option<f64>,
    pub hit: Option<f64>,
    pub mrr: Option<f64>,
    pub top1: Option<f64>,
}

impl CurveRow {
    pub fn value(&self, m: Metric) -> Option<f64> {
        match m {
            Metric::Ndcg => self.ndcg,
            Metric::Recall => self.recall,
            Metric::Hit => self.hit,
            Metric::Mrr => self.mrr,
            Metric::Top1 => self.top1,
        }
    }
}

/// The curve at `settings.curve` (empty when it has no cutoffs): rows by k, then system,
/// target and subset.
pub fn curve(ds: &Dataset, settings: &Settings, compared: &[Target], progress: &mut dyn FnMut(f64)) -> Vec<CurveRow> {
    let mut rows = Vec::new();
    let n_k = settings.curve.len();
    for (i, &k) in settings.curve.iter().enumerate() {
        progress(i as f64 / n_k.max(1) as f64);
        let at_k = Settings { k, curve: Vec::new(), ..settings.clone() };
        let r = rescore(ds, &at_k, &mut |_| {});
        for s in 0..r.n_systems {
            for &t in &r.targets {
                for &subset in Subset::ALL {
                    let scores: Vec<_> = (0..r.n_queries)
                        .filter(|&q| subset == Subset::All || in_shared(&r, compared, s, q))
                        .filter_map(|q| r.cell(s, q, t).counted())
                        .collect();
                    let m = |m: Metric| mean(&scores.iter().map(|x| m.of(x)).collect::<Vec<_>>());
                    rows.push(CurveRow {
                        system: ds.systems[s].clone(),
                        target: t,
                        subset,
                        k,
                        n: scores.len(),
                        ndcg: m(Metric::Ndcg),
                        recall: m(Metric::Recall),
                        hit: m(Metric::Hit),
                        mrr: m(Metric::Mrr),
                        top1: m(Metric::Top1),
                    });
                }
            }
        }
    }
    progress(1.0);
    rows
}
