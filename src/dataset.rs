//! The validated, interned form of a bundle that the scorers use.
//!
//! Building it checks the lineage contract and the runs against the store and records every
//! problem as a counted warning (run query ids not in the queries, repeated ids in a ranked
//! list, ranked ids that are not stored, evidence anchors with no stored memory, queries
//! without a run, tied scores, memories flagged raw and canonical, ...). Memory ids, query ids
//! and systems become dense indices; a ranked item id `i < memories.len()` is a stored memory,
//! otherwise it indexes `unknown_ids`.

use rustc_hash::{FxHashMap, FxHashSet};
use serde::{Deserialize, Serialize};

use crate::ingest::{FileReport, Loaded, WarningKind, Warnings};
use crate::model::{Memory, Query, Target};

/// One saved ranked list, as item indices in saved order.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedList {
    pub items: Vec<u32>,
    /// Scores in the same order, when every item has one.
    pub scores: Option<Vec<f64>>,
}

#[derive(Debug, Clone)]
pub struct Dataset {
    pub memories: Vec<Memory>,
    /// Ranked ids that are not stored memories.
    pub unknown_ids: Vec<String>,
    pub queries: Vec<Query>,
    pub systems: Vec<String>,
    /// `lists[system][query]`
    pub lists: Vec<Vec<Option<RankedList>>>,
    /// Targets that can exist with this store (only Raw for TREC qrels).
    pub targets: Vec<Target>,
    pub files: Vec<FileReport>,
    pub warnings: Warnings,
    pub from_trec_qrels: bool,
    /// Per memory, the systems whose store holds it (`None`: every store). Empty when no
    /// memory names a system (one store shared by all systems).
    store_systems: Vec<Option<Vec<u32>>>,
    /// Systems with ranked lists whose store is empty (an error for the caller to report).
    pub empty_stores: Vec<String>,
    memory_index: FxHashMap<String, u32>,
    query_index: FxHashMap<String, u32>,
    /// anchor id -> stored memories descending from it, in store order
    anchor_members: FxHashMap<String, Vec<u32>>,
}

/// Counts shown in the reading summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    pub memories: usize,
    pub raw_memories: usize,
    pub canonical_memories: usize,
    pub multi_anchor_memories: usize,
    pub anchors: usize,
    pub queries: usize,
    pub queries_with_evidence: usize,
    pub systems: usize,
    pub ranked_lists: usize,
    pub ranked_items: usize,
    pub kinds: Vec<(String, usize)>,
}

impl Dataset {
    /// Validates and interns everything read. Never fails: problems become warnings.
    pub fn build(loaded: Loaded) -> Dataset {
        let Loaded { bundle, files, mut warnings, from_trec_qrels } = loaded;

        // Memories.
        let mut memories = Vec::with_capacity(bundle.memories.len());
        let mut memory_index = FxHashMap::default();
        memory_index.reserve(bundle.memories.len());
        for m in bundle.memories {
            if memory_index.contains_key(&m.memory_id) {
                warnings.add(WarningKind::DuplicateMemory, || format!("`{}`", m.memory_id));
                continue;
            }
            if m.anchors.is_empty() {
                warnings.add(WarningKind::MemoryWithoutAnchor, || format!("`{}`", m.memory_id));
            }
            if m.raw && m.canonical {
                warnings.add(WarningKind::RawAndCanonical, || format!("`{}`", m.memory_id));
            }
            let distinct: FxHashSet<&String> = m.anchors.iter().collect();
            if distinct.len() > 1 {
                warnings
                    .add(WarningKind::MultiAnchorMemory, || format!("`{}` → {} anchors", m.memory_id, distinct.len()));
            }
            memory_index.insert(m.memory_id.clone(), memories.len() as u32);
            memories.push(m);
        }
        let mut anchor_members: FxHashMap<String, Vec<u32>> = FxHashMap::default();
        for (i, m) in memories.iter().enumerate() {
            for (j, a) in m.anchors.iter().enumerate() {
                if m.anchors[..j].contains(a) {
                    continue;
                }
                anchor_members.entry(a.clone()).or_default().push(i as u32);
            }
        }

        // Queries.
        let mut queries = Vec::with_capacity(bundle.queries.len());
        let mut query_index = FxHashMap::default();
        for mut q in bundle.queries {
            if query_index.contains_key(&q.query_id) {
                warnings.add(WarningKind::DuplicateQuery, || format!("`{}`", q.query_id));
                continue;
            }
            let mut seen = FxHashSet::default();
            let before = q.evidence.len();
            q.evidence.retain(|e| seen.insert(e.anchor.clone()));
            if q.evidence.len() != before {
                warnings
                    .add_n(WarningKind::DuplicateEvidence, before - q.evidence.len(), || format!("`{}`", q.query_id));
            }
            if q.evidence.is_empty() && !from_trec_qrels && q.targets.is_none() {
                warnings.add(WarningKind::QueryWithoutEvidence, || format!("`{}`", q.query_id));
            }
            for e in &q.evidence {
                if !anchor_members.contains_key(&e.anchor) {
                    warnings.add(WarningKind::EvidenceWithoutMemory, || format!("`{}` in `{}`", e.anchor, q.query_id));
                }
            }
            query_index.insert(q.query_id.clone(), queries.len() as u32);
            queries.push(q);
        }

        // Explicit target mappings: every id they credit is a stored memory (raw when some raw
        // set lists it, canonical when some canonical set does).
        let explicit_targets = queries.iter().any(|q| q.targets.is_some());
        if explicit_targets {
            let mut added: FxHashMap<String, usize> = FxHashMap::default();
            for q in &queries {
                let Some(t) = &q.targets else { continue };
                for (ids, raw, canonical) in
                    [(&t.raw, true, false), (&t.source, false, false), (&t.canonical, false, true)]
                {
                    for id in ids {
                        if memory_index.contains_key(id) && !added.contains_key(id) {
                            continue;
                        }
                        let i = *added.entry(id.clone()).or_insert_with(|| {
                            memory_index.insert(id.clone(), memories.len() as u32);
                            memories.push(Memory {
                                memory_id: id.clone(),
                                anchors: vec![id.clone()],
                                raw: false,
                                canonical: false,
                                kind: Some("mapped_id".into()),
                                text: None,
                                systems: None,
                                extra: Default::default(),
                            });
                            memories.len() - 1
                        });
                        memories[i].raw |= raw;
                        memories[i].canonical |= canonical;
                    }
                }
            }
        }

        // Runs.
        let mut systems: Vec<String> = Vec::new();
        let mut system_index: FxHashMap<String, usize> = FxHashMap::default();
        let mut lists: Vec<Vec<Option<RankedList>>> = Vec::new();
        let mut unknown_ids: Vec<String> = Vec::new();
        let mut unknown_index: FxHashMap<String, u32> = FxHashMap::default();
        let n_mem = memories.len() as u32;
        let mut seen: FxHashSet<u32> = FxHashSet::default();
        // Unjudged documents per system (TREC qrels): one warning per run, not one per id.
        let mut unjudged: Vec<usize> = Vec::new();
        // The stored index of every ranked id, looked up on every core natively: most of this
        // loop's time on a large bundle. The loop below keeps its order and its warnings.
        let stored: Vec<Vec<Option<u32>>> = crate::parallel::map_per_thread(&bundle.runs, |run| {
            run.ranked.iter().map(|it| memory_index.get(it.memory_id.as_str()).copied()).collect()
        });
        for (run, stored) in bundle.runs.into_iter().zip(stored) {
            let Some(&q) = query_index.get(&run.query_id) else {
                warnings
                    .add(WarningKind::RunQueryUnknown, || format!("system `{}`, query `{}`", run.system, run.query_id));
                continue;
            };
            let s = *system_index.entry(run.system.clone()).or_insert_with(|| {
                systems.push(run.system.clone());
                lists.push(vec![None; queries.len()]);
                unjudged.push(0);
                systems.len() - 1
            });
            if lists[s][q as usize].is_some() {
                warnings
                    .add(WarningKind::DuplicateRun, || format!("system `{}`, query `{}`", run.system, run.query_id));
                continue;
            }
            let mut items = Vec::with_capacity(run.ranked.len());
            let all_scored = run.ranked.iter().all(|r| r.score.is_some());
            let mut scores =
                if all_scored && !run.ranked.is_empty() { Some(Vec::with_capacity(run.ranked.len())) } else { None };
            seen.clear();
            let mut repeated = 0usize;
            let mut not_stored = 0usize;
            let mut first_not_stored = None;
            for (item, stored) in run.ranked.into_iter().zip(stored) {
                let idx = match stored {
                    Some(i) => i,
                    None => {
                        not_stored += 1;
                        if first_not_stored.is_none() {
                            first_not_stored = Some(item.memory_id.clone());
                        }
                        match unknown_index.get(item.memory_id.as_str()) {
                            Some(&u) => n_mem + u,
                            None => {
                                let u = unknown_ids.len() as u32;
                                unknown_index.insert(item.memory_id.to_string(), u);
                                unknown_ids.push(item.memory_id.into_string());
                                n_mem + u
                            }
                        }
                    }
                };
                if !seen.insert(idx) {
                    repeated += 1;
                }
                if let (Some(sc), Some(v)) = (scores.as_mut(), item.score) {
                    sc.push(v);
                }
                items.push(idx);
            }
            if repeated > 0 {
                warnings.add_n(WarningKind::RepeatedRankedId, repeated, || {
                    format!("system `{}`, query `{}`: {repeated} repeat(s)", run.system, run.query_id)
                });
            }
            if not_stored > 0 && (from_trec_qrels || explicit_targets) {
                unjudged[s] += not_stored;
            } else if not_stored > 0 {
                warnings.add_n(WarningKind::RankedIdNotStored, not_stored, || {
                    format!(
                        "system `{}`, query `{}`: `{}`{}",
                        run.system,
                        run.query_id,
                        first_not_stored.unwrap_or_default(),
                        if not_stored > 1 { format!(" and {} more", not_stored - 1) } else { String::new() }
                    )
                });
            }
            if let Some(sc) = &scores {
                if sc.windows(2).any(|w| w[0] == w[1]) {
                    warnings
                        .add(WarningKind::TiedScores, || format!("system `{}`, query `{}`", run.system, run.query_id));
                }
                if sc.windows(2).any(|w| w[1] > w[0]) {
                    warnings.add(WarningKind::ScoresNotDescending, || {
                        format!("system `{}`, query `{}`", run.system, run.query_id)
                    });
                }
            }
            lists[s][q as usize] = Some(RankedList { items, scores });
        }
        for (s, &n) in unjudged.iter().enumerate().filter(|(_, n)| **n > 0) {
            warnings
                .add(WarningKind::UnjudgedDocuments, || format!("system `{}`: {n} retrieved documents", systems[s]));
        }
        for (s, sys_lists) in lists.iter().enumerate() {
            let missing = sys_lists.iter().filter(|l| l.is_none()).count();
            if missing > 0 {
                let first = sys_lists.iter().position(|l| l.is_none()).map(|q| queries[q].query_id.clone());
                warnings.add_n(WarningKind::QueryWithoutRun, missing, || {
                    format!("system `{}`: {missing} queries, e.g. `{}`", systems[s], first.unwrap_or_default())
                });
            }
        }

        // Per-system stores: a memory naming systems is in those systems' stores only.
        let mut store_systems: Vec<Option<Vec<u32>>> = Vec::new();
        let mut empty_stores = Vec::new();
        if memories.iter().any(|m| m.systems.is_some()) {
            let mut listed = vec![false; systems.len()];
            for m in &memories {
                store_systems.push(m.systems.as_ref().map(|names| {
                    let mut idx: Vec<u32> = Vec::with_capacity(names.len());
                    for n in names {
                        match system_index.get(n) {
                            Some(&s) => {
                                listed[s] = true;
                                if !idx.contains(&(s as u32)) {
                                    idx.push(s as u32);
                                }
                            }
                            None => warnings.add(WarningKind::MemorySystemWithoutRun, || {
                                format!("memory `{}` names system `{n}`", m.memory_id)
                            }),
                        }
                    }
                    idx
                }));
            }
            let shared = memories.iter().any(|m| m.systems.is_none());
            empty_stores =
                systems.iter().zip(&listed).filter(|(_, l)| !shared && !**l).map(|(s, _)| s.clone()).collect();
            // Ranked ids stored for other systems only earn nothing for this one.
            for (s, sys_lists) in lists.iter().enumerate() {
                for (q, list) in sys_lists.iter().enumerate() {
                    let Some(list) = list else { continue };
                    let outside = list
                        .items
                        .iter()
                        .filter(|&&i| {
                            store_systems
                                .get(i as usize)
                                .is_some_and(|st| st.as_ref().is_some_and(|v| !v.contains(&(s as u32))))
                        })
                        .count();
                    warnings.add_n(WarningKind::RankedIdOutsideStore, outside, || {
                        format!("system `{}`, query `{}`: {outside} id(s)", systems[s], queries[q].query_id)
                    });
                }
            }
        }
        if from_trec_qrels {
            for q in queries.iter().filter(|q| q.evidence.is_empty()) {
                warnings.add(WarningKind::JudgedWithoutRelevant, || format!("`{}`", q.query_id));
            }
        }

        let targets = if from_trec_qrels { vec![Target::Raw] } else { Target::ALL.to_vec() };
        Dataset {
            memories,
            unknown_ids,
            queries,
            systems,
            lists,
            targets,
            files,
            warnings,
            from_trec_qrels,
            store_systems,
            empty_stores,
            memory_index,
            query_index,
            anchor_members,
        }
    }

    /// Whether memories name their systems (each system scored against its own store).
    pub fn per_system_stores(&self) -> bool {
        !self.store_systems.is_empty()
    }

    /// The stores targets are built from: each system's with per-system stores, else the one
    /// store every system shares (`None`).
    pub fn stores(&self) -> Vec<Option<usize>> {
        if self.per_system_stores() { (0..self.systems.len()).map(Some).collect() } else { vec![None] }
    }

    /// Whether stored memory `memory` is in `system`'s store.
    pub fn in_store(&self, memory: u32, system: usize) -> bool {
        match self.store_systems.get(memory as usize) {
            Some(Some(list)) => list.contains(&(system as u32)),
            _ => true,
        }
    }

    /// A topic of TREC qrels judged without a relevant document (scored 0, as trec_eval).
    pub fn judged_without_relevant(&self, query: usize) -> bool {
        self.from_trec_qrels && self.queries[query].evidence.is_empty()
    }

    /// The id of a ranked item (stored or not).
    pub fn item_id(&self, item: u32) -> &str {
        let n = self.memories.len() as u32;
        if item < n { &self.memories[item as usize].memory_id } else { &self.unknown_ids[(item - n) as usize] }
    }

    /// The stored memory behind a ranked item, if any.
    pub fn memory(&self, item: u32) -> Option<&Memory> {
        self.memories.get(item as usize)
    }

    pub fn memory_index(&self, id: &str) -> Option<u32> {
        self.memory_index.get(id).copied()
    }

    pub fn query_index(&self, id: &str) -> Option<u32> {
        self.query_index.get(id).copied()
    }

    pub fn system_index(&self, name: &str) -> Option<usize> {
        self.systems.iter().position(|s| s == name)
    }

    /// Stored memories descending from an anchor (empty when none).
    pub fn anchor_members(&self, anchor: &str) -> &[u32] {
        self.anchor_members.get(anchor).map_or(&[], |v| v.as_slice())
    }

    pub fn counts(&self) -> Counts {
        let mut kinds: FxHashMap<&str, usize> = FxHashMap::default();
        for m in &self.memories {
            *kinds.entry(m.kind.as_deref().unwrap_or("(none)")).or_default() += 1;
        }
        let mut kinds: Vec<(String, usize)> = kinds.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        kinds.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Counts {
            memories: self.memories.len(),
            raw_memories: self.memories.iter().filter(|m| m.raw).count(),
            canonical_memories: self.memories.iter().filter(|m| m.canonical).count(),
            multi_anchor_memories: self.memories.iter().filter(|m| m.anchors.len() > 1).count(),
            anchors: self.anchor_members.len(),
            queries: self.queries.len(),
            queries_with_evidence: self.queries.iter().filter(|q| !q.evidence.is_empty()).count(),
            systems: self.systems.len(),
            ranked_lists: self.lists.iter().flatten().filter(|l| l.is_some()).count(),
            ranked_items: self.lists.iter().flatten().flatten().map(|l| l.items.len()).sum(),
            kinds,
        }
    }
}

#[cfg(test)]
impl Dataset {
    /// A dataset from the three JSONL texts of a bundle (memories, queries, runs), read as the
    /// files `m.jsonl`, `q.jsonl` and `r.jsonl`: the tests' bundles.
    pub(crate) fn from_jsonl(memories: &str, queries: &str, runs: &str) -> Dataset {
        use crate::ingest::{InputFile, read_all};
        let files = [
            InputFile::new("m.jsonl", memories.as_bytes()),
            InputFile::new("q.jsonl", queries.as_bytes()),
            InputFile::new("r.jsonl", runs.as_bytes()),
        ];
        // ok: test-only; a test bundle that does not read is a broken test.
        Dataset::build(read_all(&files).expect("the test bundle reads"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ds(m: &str, q: &str, r: &str) -> Dataset {
        Dataset::from_jsonl(m, q, r)
    }

    #[test]
    fn every_problem_is_counted() {
        let d = ds(
            r#"{"memory_id":"t1","anchors":["t1"],"raw":true}
{"memory_id":"t1","anchors":["t1"],"raw":true}
{"memory_id":"x","anchors":["t1","t2"],"raw":true,"canonical":true}"#,
            r#"{"query_id":"q1","evidence":["t1","t1","nowhere"]}
{"query_id":"q2","evidence":[]}"#,
            r#"{"system":"s","query_id":"q1","ranked":[{"memory_id":"t1","score":1},{"memory_id":"zz","score":1},{"memory_id":"t1","score":2}]}
{"system":"s","query_id":"q9","ranked":[]}"#,
        );
        use WarningKind::*;
        let w = &d.warnings;
        assert_eq!(w.count(DuplicateMemory), 1);
        assert_eq!(w.count(RawAndCanonical), 1);
        assert_eq!(w.count(MultiAnchorMemory), 1);
        assert_eq!(w.count(DuplicateEvidence), 1);
        assert_eq!(w.count(EvidenceWithoutMemory), 1);
        assert_eq!(w.count(QueryWithoutEvidence), 1);
        assert_eq!(w.count(RunQueryUnknown), 1);
        assert_eq!(w.count(RepeatedRankedId), 1);
        assert_eq!(w.count(RankedIdNotStored), 1);
        assert_eq!(w.count(TiedScores), 1);
        assert_eq!(w.count(ScoresNotDescending), 1);
        assert_eq!(w.count(QueryWithoutRun), 1);
        assert_eq!(d.item_id(d.lists[0][0].as_ref().unwrap().items[1]), "zz");
        assert_eq!(d.anchor_members("t2"), &[1]);
        assert_eq!(d.counts().ranked_items, 3);
    }
}
