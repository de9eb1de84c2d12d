//! Contested credits for the semantic audit (TIAP §3.3, §4.4): every (system, query) where
//! Raw misses (the query has a Raw target and no raw group is hit within k) while both Source
//! and Canonical hit — the paper's §4.4 population ("Raw misses while *both* Source and
//! Canonical receive credit"). Each credited memory within k is listed with its rank, so the
//! rows can be exported as CSV and judged (supports / partial / does_not_support).

use serde::{Deserialize, Serialize};

use crate::dataset::Dataset;
use crate::model::Target;
use crate::rescore::Rescored;

use super::drilldown::drilldown;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContestedRow {
    pub system: String,
    pub query_id: String,
    pub rank: usize,
    pub memory_id: String,
    pub kind: Option<String>,
    /// Credited (eligible) under Source.
    pub source: bool,
    /// Credited (eligible) under Canonical.
    pub canonical: bool,
    /// The evidence anchors this memory descends from, joined with "; ".
    pub anchors: String,
    pub text: Option<String>,
    pub query_text: Option<String>,
    pub answer: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContestedSummary {
    pub system: String,
    /// Queries scored with a Raw target.
    pub raw_covered: usize,
    /// Of those, Raw miss ∧ Source hit ∧ Canonical hit.
    pub contested: usize,
}

pub fn contested(ds: &Dataset, r: &Rescored) -> (Vec<ContestedSummary>, Vec<ContestedRow>) {
    let mut summary = Vec::new();
    let mut rows = Vec::new();
    let all = [Target::Raw, Target::Source, Target::Canonical];
    if !all.iter().all(|t| r.targets.contains(t)) {
        return (summary, rows);
    }
    for s in 0..r.n_systems {
        let mut raw_covered = 0;
        let mut n = 0;
        for q in 0..r.n_queries {
            let Some(raw) = r.cell(s, q, Target::Raw).counted() else {
                continue;
            };
            raw_covered += 1;
            let hit = |t| r.cell(s, q, t).counted().is_some_and(|c| c.hit > 0.0);
            if raw.hit > 0.0 || !hit(Target::Source) || !hit(Target::Canonical) {
                continue;
            }
            n += 1;
            let Some(d) = drilldown(ds, &r.settings, s, q) else {
                continue;
            };
            let query = &ds.queries[q];
            for item in d.items.iter().filter(|i| i.within_k && !i.repeated) {
                let source = item.eligible.source;
                let canonical = item.eligible.canonical;
                if !(source || canonical) {
                    continue;
                }
                rows.push(ContestedRow {
                    system: ds.systems[s].clone(),
                    query_id: query.query_id.clone(),
                    rank: item.rank,
                    memory_id: item.memory_id.clone(),
                    kind: item.kind.clone(),
                    source,
                    canonical,
                    anchors: item.evidence_anchors.join("; "),
                    text: item.text.clone(),
                    query_text: query.text.clone(),
                    answer: query.answer.clone(),
                });
            }
        }
        summary.push(ContestedSummary { system: ds.systems[s].clone(), raw_covered, contested: n });
    }
    (summary, rows)
}
