//! Target coverage (TIAP Table 1 and §1.5): per target, how many queries are eligible, how
//! many have an empty target (excluded, not scored 0), and the group sizes; plus the shared
//! subset across compared targets. A lineage fingerprint: runs whose contracts differ (group
//! sizes, coverage) stand out here. With per-system stores there is one set of rows per
//! system (its store's targets), each with the memory kinds of that store.

use rustc_hash::FxHashMap;
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
    /// The system whose store the row describes (per-system stores only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    /// The memory kinds of that store with their counts, most frequent first (per-system
    /// stores only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<(String, usize)>,
}

fn store_kinds(ds: &Dataset, system: usize) -> Vec<(String, usize)> {
    let mut kinds: FxHashMap<&str, usize> = FxHashMap::default();
    for (i, m) in ds.memories.iter().enumerate() {
        if ds.in_store(i as u32, system) {
            *kinds.entry(m.kind.as_deref().unwrap_or("(none)")).or_default() += 1;
        }
    }
    let mut kinds: Vec<(String, usize)> = kinds.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    kinds.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    kinds
}

/// The rows of one store: `system` `None` is the one store every system shares.
fn store_rows(ds: &Dataset, r: &Rescored, compared: &[Target], system: Option<usize>) -> Vec<CoverageRow> {
    let settings: &Settings = &r.settings;
    let n = r.n_queries;
    let name = system.map(|s| ds.systems[s].clone());
    let kinds = system.map(|s| store_kinds(ds, s)).unwrap_or_default();
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
            system: name.clone(),
            kinds: kinds.clone(),
        })
        .collect();
    let s = system.unwrap_or(0);
    // Without systems nothing was scored; eligibility is then the store's: a query with at
    // least one group under t (never "0 eligible" for a file of queries and memories alone).
    let eligible = |qt: &QueryTargets, q: usize, t: Target| {
        if r.n_systems == 0 { qt.eligible(t) } else { r.is_eligible(s, q, t) }
    };
    let mut shared = 0;
    for q in 0..n {
        let qt = QueryTargets::build(ds, q as u32, settings.unit, settings.gain, system);
        shared += usize::from(compared.iter().all(|&t| eligible(&qt, q, t)));
        for (row, &t) in rows.iter_mut().zip(&r.targets) {
            let groups = qt.groups(t);
            if !eligible(&qt, q, t) {
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
    rows.push(CoverageRow {
        target: "shared".to_string(),
        queries: n,
        eligible: shared,
        zero_target: n - shared,
        groups: 0,
        group_sizes: Vec::new(),
        system: name,
        kinds,
    });
    rows
}

pub fn coverage(ds: &Dataset, r: &Rescored, compared: &[Target]) -> Vec<CoverageRow> {
    ds.stores().into_iter().flat_map(|s| store_rows(ds, r, compared, s)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conventions::Settings;

    /// Queries and memories without any system's lists: eligibility is the store's (a query with
    /// evidence in the store is eligible), not "0 of n" because nothing was scored.
    #[test]
    fn without_systems_eligibility_is_the_stores() {
        let ds = crate::targets::fixture::store_with(
            r#"{"query_id":"q1","evidence":["r1"]}
{"query_id":"q2","evidence":["gone"]}"#,
        );
        let settings = Settings::default();
        let r = crate::rescore::rescore(&ds, &settings, &mut |_| {});
        assert_eq!(r.n_systems, 0);
        let rows = coverage(&ds, &r, &r.targets);
        let of = |t: &str| rows.iter().find(|c| c.target == t).map(|c| (c.eligible, c.zero_target)).unwrap();
        for target in ["raw", "source", "canonical", "shared"] {
            assert_eq!(of(target), (1, 1), "{target}");
        }
    }
}
