//! Contested credits for the semantic audit (TIAP §3.3, §4.4): every (system, query) where
//! Raw misses (the query has a Raw target and no raw group is hit within k) while both Source
//! and Canonical hit — the paper's §4.4 population ("Raw misses while *both* Source and
//! Canonical receive credit"). Each credited memory within k is listed with its rank, so the
//! rows can be exported as CSV and judged (supports / partial / does_not_support).

use serde::{Deserialize, Serialize};

use crate::dataset::Dataset;
use crate::model::Target;
use crate::rescore::Rescored;

use super::drilldown::{PerTarget, items_within_k};

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

/// The contested summary of every system and the contested rows, system by system. Natively the
/// systems are shared among the cores ([`crate::parallel`]); the rows keep system order.
pub fn contested(ds: &Dataset, r: &Rescored) -> (Vec<ContestedSummary>, Vec<ContestedRow>) {
    let all = [Target::Raw, Target::Source, Target::Canonical];
    if !all.iter().all(|t| r.targets.contains(t)) {
        return (Vec::new(), Vec::new());
    }
    let systems: Vec<usize> = (0..r.n_systems).collect();
    let mut summary = Vec::with_capacity(r.n_systems);
    let mut rows = Vec::new();
    for (s, mut system_rows) in crate::parallel::map_per_thread(&systems, |&s| contested_of_system(ds, r, s)) {
        summary.push(s);
        rows.append(&mut system_rows);
    }
    (summary, rows)
}

fn contested_of_system(ds: &Dataset, r: &Rescored, s: usize) -> (ContestedSummary, Vec<ContestedRow>) {
    let mut rows = Vec::new();
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
        let listed = |e: &PerTarget, repeated: bool| !repeated && (e.source || e.canonical);
        let Some(items) = items_within_k(ds, &r.settings, s, q, listed) else {
            continue;
        };
        let query = &ds.queries[q];
        for item in items {
            let source = item.eligible.source;
            let canonical = item.eligible.canonical;
            rows.push(ContestedRow {
                system: ds.systems[s].clone(),
                query_id: query.query_id.clone(),
                rank: item.rank,
                memory_id: item.memory_id,
                kind: item.kind,
                source,
                canonical,
                anchors: item.evidence_anchors.join("; "),
                text: item.text,
                query_text: query.text.clone(),
                answer: query.answer.clone(),
            });
        }
    }
    (ContestedSummary { system: ds.systems[s].clone(), raw_covered, contested: n }, rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::drilldown::drilldown;
    use crate::conventions::{RankOrder, Settings};
    use crate::synth::{SynthSpec, generate, to_jsonl};

    fn dataset(own_store: bool) -> Dataset {
        let spec = SynthSpec { queries: 60, systems: 4, depth: 25, seed: 11, quirks: true, own_store };
        let (m, q, r) = to_jsonl(&generate(&spec));
        Dataset::from_jsonl(&m, &q, &r)
    }

    /// The items within k are the drill-down's first k items, credits included; and the
    /// contested rows are those the whole drill-down gives (the items within k, not repeated,
    /// eligible under Source or Canonical, of each contested cell).
    #[test]
    fn items_within_k_and_contested_rows_equal_the_whole_drilldowns() {
        let mut contested_rows = 0;
        for own_store in [false, true] {
            let ds = dataset(own_store);
            for (k, order) in
                [(1, RankOrder::Saved), (5, RankOrder::TrecEval), (10, RankOrder::Saved), (40, RankOrder::Saved)]
            {
                let settings = Settings { k, order, bootstrap: 0, ..Settings::default() };
                for s in 0..ds.systems.len() {
                    for q in 0..ds.queries.len() {
                        let whole = drilldown(&ds, &settings, s, q).unwrap();
                        let within = items_within_k(&ds, &settings, s, q, |_, _| true).unwrap();
                        assert_eq!(within[..], whole.items[..whole.items.len().min(k)], "k {k}, system {s}, query {q}");
                    }
                }
                let r = crate::rescore::rescore(&ds, &settings, &mut |_| {});
                let (summary, rows) = contested(&ds, &r);
                let mut want = Vec::new();
                for (s, sum) in summary.iter().enumerate() {
                    assert_eq!(sum.system, ds.systems[s]);
                    let mut cells = 0;
                    for q in 0..ds.queries.len() {
                        let hit = |t| r.cell(s, q, t).counted().map(|c| c.hit > 0.0);
                        if hit(Target::Raw) != Some(false)
                            || hit(Target::Source) != Some(true)
                            || hit(Target::Canonical) != Some(true)
                        {
                            continue;
                        }
                        cells += 1;
                        let d = drilldown(&ds, &settings, s, q).unwrap();
                        for i in d.items.iter().filter(|i| i.within_k && !i.repeated) {
                            if i.eligible.source || i.eligible.canonical {
                                want.push((ds.systems[s].clone(), d.query_id.clone(), i.rank, i.memory_id.clone()));
                            }
                        }
                    }
                    assert_eq!(sum.contested, cells, "k {k}");
                }
                let got: Vec<_> =
                    rows.iter().map(|r| (r.system.clone(), r.query_id.clone(), r.rank, r.memory_id.clone())).collect();
                assert_eq!(got, want, "k {k}");
                contested_rows += rows.len();
            }
        }
        assert!(contested_rows > 0, "the synthetic bundles have contested credits");
    }
}
