//! The target mapping of a rescoring (TIAP App. H: "release target mappings alongside retrieval
//! traces"): for each query, the stored memories each target credits, exported next to the
//! scores in the shape of MTEL-Mem's `minimal_target_mappings.jsonl`, so that it can be read
//! back as a mapping ([`crate::ingest::Format::TargetMappings`]).
//!
//! ```text
//! raw_ids, source_ids, canonical_ids   ∪ g_t(a) over the query's groups under target t, in
//!                                      group order (evidence order), each group's members in
//!                                      store order, each id once; empty when the query is not
//!                                      eligible under t or t is not scored
//! system                               per-system stores only: the store the ids are in
//! ```
//!
//! Read back, a mapping credits each listed id on its own with grade 1 (MTEL-Mem's ID-level
//! variant): the same scores as a rescoring under the `id` unit with binary evidence; a rescoring
//! under the `group` unit or with graded evidence scores differently from its exported mapping.
//!
//! **Invariant**: the ids are exactly the members of [`QueryTargets`]' groups, the sets the
//! scores credit.

use serde::{Deserialize, Serialize};

use crate::dataset::Dataset;
use crate::model::Target;
use crate::rescore::Rescored;
use crate::targets::QueryTargets;

/// One query's credited ids under each target (one system's, with per-system stores).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MappingRow {
    /// The system whose store the ids are in (per-system stores only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    pub query_id: String,
    pub raw_ids: Vec<String>,
    pub source_ids: Vec<String>,
    pub canonical_ids: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
}

/// The mapping of every query (per system with per-system stores), in query order.
pub fn mapping(ds: &Dataset, r: &Rescored) -> Vec<MappingRow> {
    let stores = ds.stores();
    let settings = &r.settings;
    let mut rows = Vec::with_capacity(stores.len() * r.n_queries);
    for system in stores {
        for q in 0..r.n_queries {
            let qt = QueryTargets::build(ds, q as u32, settings.unit, settings.gain, system);
            let ids = |t: Target| -> Vec<String> {
                if !r.targets.contains(&t) {
                    return Vec::new();
                }
                crate::distinct::first_seen(qt.groups(t).iter().flat_map(|g| g.members.iter().copied()))
                    .into_iter()
                    .map(|m| ds.memories[m as usize].memory_id.clone())
                    .collect()
            };
            let query = &ds.queries[q];
            rows.push(MappingRow {
                system: system.map(|s| ds.systems[s].clone()),
                query_id: query.query_id.clone(),
                raw_ids: ids(Target::Raw),
                source_ids: ids(Target::Source),
                canonical_ids: ids(Target::Canonical),
                category: query.category.clone(),
            });
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conventions::{CreditUnit, Settings};

    /// The ids are the groups' members: a derived memory of two anchors is listed once under
    /// Source, the canonical one under Source and Canonical, the raw turns under Raw and Source.
    #[test]
    fn ids_are_the_groups_members() {
        let ds = crate::targets::fixture::store_with(
            r#"{"query_id":"q","evidence":["r1","r2"],"category":"multi"}
{"query_id":"none","evidence":["gone"]}"#,
        );
        for unit in [CreditUnit::Group, CreditUnit::Id] {
            let settings = Settings { unit, ..Settings::default() };
            let r = crate::rescore::rescore(&ds, &settings, &mut |_| {});
            let rows = mapping(&ds, &r);
            assert_eq!(rows.len(), 2);
            assert_eq!(rows[0].raw_ids, ["r1", "r2"]);
            assert_eq!(rows[0].source_ids, ["r1", "c1", "d1", "r2"]);
            assert_eq!(rows[0].canonical_ids, ["c1"]);
            assert_eq!(rows[0].category.as_deref(), Some("multi"));
            assert!(rows[1].raw_ids.is_empty() && rows[1].source_ids.is_empty() && rows[1].system.is_none());
        }
    }
}
