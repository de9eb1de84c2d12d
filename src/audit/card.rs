//! TIAP's reporting card (App. H, Table 14): for each system, the four things its paper should
//! state for a retrieval score to be read — whether its memory **transforms** what was said
//! (derived memories in its store), its retrieval **unit** (what its ranked items are), the
//! **target mapping** (whether derived memories carry their lineage to the source turns, and
//! whether queries state their targets), and the **credit** rule (which targets receive credit,
//! under which unit, gain, discount, tie order and cutoff, and on how many eligible queries).
//!
//! ```text
//! store         memories in the system's store (all memories without per-system stores):
//!               raw turns, derived (not raw), canonical
//! transforms    derived > 0
//! ranked_kinds  the kinds of the first k items of its lists as saved, most frequent first; an id
//!               that is not a stored memory counts as `(not stored)`, a memory without a kind
//!               as `raw` or `derived`
//! mapping       explicit (every derived memory names its anchors) | partial | none |
//!               not needed (no derived memory); queries_with_targets counts the queries that
//!               state their targets outright (then the mapping is the file's)
//! credit        the targets scored with the conventions (Settings::describe); eligible_* the
//!               queries eligible for the system under each target
//! ```

use serde::{Deserialize, Serialize};

use crate::dataset::Dataset;
use crate::model::Target;
use crate::rescore::Rescored;

/// The kind of a ranked id that is not a stored memory.
pub const NOT_STORED: &str = "(not stored)";

crate::choice! {
    /// Whether derived memories carry their lineage.
    pub enum Mapping {
        /// Every derived memory names the source turns it descends from.
        Explicit,
        /// Some do.
        Partial,
        /// None does: no derived memory can be credited under Source or Canonical.
        None,
        /// The store holds raw turns only.
        NotNeeded,
    }
}

/// One system's reporting card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardRow {
    pub system: String,
    pub memories: usize,
    pub raw: usize,
    pub derived: usize,
    pub canonical: usize,
    pub transforms: bool,
    /// (kind, items) of the items ranked within k, most frequent first.
    pub ranked_kinds: Vec<(String, usize)>,
    /// Derived memories that name at least one anchor.
    pub derived_with_lineage: usize,
    pub mapping: Mapping,
    /// Queries that state their targets outright (`targets` in the queries file).
    pub queries_with_targets: usize,
    /// The targets scored, in words with the conventions.
    pub credit: String,
    /// Queries eligible for this system under each target (`None`: the target is not scored).
    pub eligible_raw: Option<usize>,
    pub eligible_source: Option<usize>,
    pub eligible_canonical: Option<usize>,
}

/// The card of every system, in system order.
pub fn cards(ds: &Dataset, r: &Rescored) -> Vec<CardRow> {
    let k = r.settings.k;
    let targets: Vec<&str> = r.targets.iter().map(|t| t.name()).collect();
    let credit = format!("targets {}; {}", targets.join(", "), r.settings.describe());
    let queries_with_targets = ds.queries.iter().filter(|q| q.targets.is_some()).count();
    (0..ds.systems.len())
        .map(|s| {
            let (mut memories, mut raw, mut canonical, mut with_lineage) = (0, 0, 0, 0);
            for (i, m) in ds.memories.iter().enumerate() {
                if !ds.in_store(i as u32, s) {
                    continue;
                }
                memories += 1;
                raw += m.raw as usize;
                canonical += m.canonical as usize;
                with_lineage += (!m.raw && !m.anchors.is_empty()) as usize;
            }
            let derived = memories - raw;
            // Times each item is ranked (an array increment per item), then their kinds.
            let mut ranked = vec![0usize; ds.memories.len() + ds.unknown_ids.len()];
            for list in ds.lists.get(s).into_iter().flatten().flatten() {
                for &item in list.items.iter().take(k) {
                    if let Some(n) = ranked.get_mut(item as usize) {
                        *n += 1;
                    }
                }
            }
            let mut kinds: rustc_hash::FxHashMap<&str, usize> = rustc_hash::FxHashMap::default();
            for (item, &n) in ranked.iter().enumerate().filter(|(_, n)| **n > 0) {
                let kind = match ds.memory(item as u32) {
                    Some(m) => m.kind.as_deref().unwrap_or(if m.raw { "raw" } else { "derived" }),
                    None => NOT_STORED,
                };
                *kinds.entry(kind).or_default() += n;
            }
            let mut ranked_kinds: Vec<(String, usize)> = kinds.into_iter().map(|(k, n)| (k.to_string(), n)).collect();
            ranked_kinds.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            let mapping = match (derived, with_lineage) {
                (0, _) => Mapping::NotNeeded,
                (d, l) if l == d => Mapping::Explicit,
                (_, 0) => Mapping::None,
                _ => Mapping::Partial,
            };
            let eligible = |t: Target| {
                r.targets
                    .contains(&t)
                    .then(|| (0..r.n_queries).filter(|&q| s < r.n_systems && r.is_eligible(s, q, t)).count())
            };
            CardRow {
                system: ds.systems[s].clone(),
                memories,
                raw,
                derived,
                canonical,
                transforms: derived > 0,
                ranked_kinds,
                derived_with_lineage: with_lineage,
                mapping,
                queries_with_targets,
                credit: credit.clone(),
                eligible_raw: eligible(Target::Raw),
                eligible_source: eligible(Target::Source),
                eligible_canonical: eligible(Target::Canonical),
            }
        })
        .collect()
}
