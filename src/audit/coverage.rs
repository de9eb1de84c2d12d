//! Target coverage (TIAP Table 1 and §1.5): per target, how many queries are eligible, how
//! many have an empty target (excluded, not scored 0), and the group sizes; plus the shared
//! subset across compared targets. A lineage fingerprint: runs whose contracts differ (group
//! sizes, coverage) stand out here.

use serde::{Deserialize, Serialize};

use crate::conventions::Settings;
use crate::dataset::Dataset;
use crate::model::Target;
use crate::rescore::Rescored;
use crate::targets::QueryTargets;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CoverageRow {
    /// `raw`, `source`, `canonical`, or `shared` (eligible under every compared target).
    pub target: String,
    pub queries: usize,
    pub eligible: usize,
    pub zero_target: usize,
    pub groups: usize,
    /// Group-size histogram: index i counts groups with i + 1 members; the last entry is "≥ 5".
    pub group_sizes: Vec<usize>,
}

pub fn coverage(ds: &Dataset, r: &Rescored, compared: &[Target]) -> Vec<CoverageRow> {
    let settings: &Settings = &r.settings;
    let n = r.n_queries;
    let mut rows: Vec<CoverageRow> = r
        .targets
        .iter()
        .map(|t| CoverageRow {
            target: t.name().to_string(),
            queries: n,
            eligible: 0,
            zero_target: 0,
            groups: 0,
            group_sizes: vec![0; 5],
        })
        .collect();
    for q in 0..n {
        let qt = QueryTargets::build(ds, q as u32, settings.unit, settings.gain);
        for (row, &t) in rows.iter_mut().zip(&r.targets) {
            let groups = qt.groups(t);
            if groups.is_empty() {
                row.zero_target += 1;
            } else {
                row.eligible += 1;
            }
            row.groups += groups.len();
            for g in groups {
                row.group_sizes[(g.members.len().max(1) - 1).min(4)] += 1;
            }
        }
    }
    let shared = (0..n).filter(|&q| compared.iter().all(|&t| r.is_eligible(q, t))).count();
    rows.push(CoverageRow {
        target: "shared".to_string(),
        queries: n,
        eligible: shared,
        zero_target: n - shared,
        groups: 0,
        group_sizes: Vec::new(),
    });
    rows
}
