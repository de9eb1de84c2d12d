//! Design recommendations (TIAP §3.3): "the memory store or configuration that appears best
//! under a chosen metric and scoring target". For each target and metric, systems are ranked
//! by their mean on the queries eligible for that target that *every* system scored (so the
//! ranking compares like with like), and the row flags when the best system changes across
//! targets for that metric. `shared` rows rank on the queries eligible under every compared
//! target for every system: the same queries under every target (TIAP's shared-subset
//! control).

use serde::{Deserialize, Serialize};

use super::summary::Subset;
use super::{Metric, mean};
use crate::dataset::Dataset;
use crate::model::Target;
use crate::rescore::Rescored;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecommendationRow {
    pub target: Target,
    pub metric: Metric,
    pub n: usize,
    pub best: Option<String>,
    pub value: Option<f64>,
    pub runner_up: Option<String>,
    pub runner_up_value: Option<f64>,
    pub margin: Option<f64>,
    /// The best and the runner-up have the same mean (|margin| ≤ 1e-12): no single best.
    pub tied: bool,
    /// All systems, best first (ties keep input order).
    pub ranking: Vec<String>,
    pub means: Vec<Option<f64>>,
    pub changes_across_targets: bool,
    /// `all` (queries every system scored under this target) or `shared` (eligible under every
    /// compared target for every system).
    #[serde(default = "all_subset")]
    pub subset: Subset,
}

fn all_subset() -> Subset {
    Subset::All
}

/// `all` rows first (the rows memaudit has always written), then `shared` rows.
pub fn recommendations(ds: &Dataset, r: &Rescored, compared: &[Target]) -> Vec<RecommendationRow> {
    let mut rows = recommendations_on(ds, r, compared, Subset::All);
    rows.extend(recommendations_on(ds, r, compared, Subset::Shared));
    rows
}

fn recommendations_on(ds: &Dataset, r: &Rescored, compared: &[Target], subset: Subset) -> Vec<RecommendationRow> {
    let mut rows = Vec::new();
    if r.n_systems == 0 {
        return rows;
    }
    let every = |q: usize, targets: &[Target]| {
        (0..r.n_systems).all(|s| targets.iter().all(|&t| r.cell(s, q, t).counted().is_some()))
    };
    for &t in &r.targets {
        let common: Vec<usize> = (0..r.n_queries)
            .filter(|&q| match subset {
                Subset::All => every(q, &[t]),
                Subset::Shared => every(q, compared),
            })
            .collect();
        for m in Metric::ALL {
            let means: Vec<Option<f64>> = (0..r.n_systems)
                .map(|s| {
                    let v: Vec<f64> =
                        common.iter().filter_map(|&q| r.cell(s, q, t).counted().map(|c| m.of(c))).collect();
                    mean(&v)
                })
                .collect();
            let mut order: Vec<usize> = (0..r.n_systems).collect();
            order.sort_by(|&a, &b| {
                means[b].unwrap_or(f64::NEG_INFINITY).total_cmp(&means[a].unwrap_or(f64::NEG_INFINITY)).then(a.cmp(&b))
            });
            let have = !common.is_empty();
            let margin = match (order.first().and_then(|&s| means[s]), order.get(1).and_then(|&s| means[s])) {
                (Some(a), Some(b)) if have => Some(a - b),
                _ => None,
            };
            let best = order.first().copied().filter(|_| have);
            let second = order.get(1).copied().filter(|_| have);
            rows.push(RecommendationRow {
                target: t,
                metric: m,
                n: common.len(),
                best: best.map(|s| ds.systems[s].clone()),
                value: best.and_then(|s| means[s]),
                runner_up: second.map(|s| ds.systems[s].clone()),
                runner_up_value: second.and_then(|s| means[s]),
                margin,
                tied: margin.is_some_and(|m| m.abs() <= super::instability::CHANGE_TOLERANCE),
                ranking: order.iter().map(|&s| ds.systems[s].clone()).collect(),
                means,
                changes_across_targets: false,
                subset,
            });
        }
    }
    for m in Metric::ALL {
        let bests: Vec<&String> = rows.iter().filter(|r| r.metric == m).filter_map(|r| r.best.as_ref()).collect();
        let changes = bests.windows(2).any(|w| w[0] != w[1]);
        for row in rows.iter_mut().filter(|r| r.metric == m) {
            row.changes_across_targets = changes;
        }
    }
    rows
}
