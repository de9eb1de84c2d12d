//! Target sets per query: the relevance groups under Raw, Source and Canonical.
//!
//! For query q with evidence anchors a₁..aₙ and a target t (TIAP Eqs. 1–3), the group of
//! anchor a is g_t(a) = { stored m : a ∈ ℓ(m) ∧ admits_t(m) }. Empty groups are dropped; the
//! query is eligible for t when at least one group remains. With the `id` credit unit every
//! memory in ∪ g_t(a) is its own group (the MTEL-Mem package's ID-level variant), with the
//! highest grade of the anchors it descends from.
//!
//! Per-system stores (memories naming their `system`): the groups of system s are built from
//! s's store only, g_t^s(a) = { m ∈ store(s) : a ∈ ℓ(m) ∧ admits_t(m) } (TIAP defines the
//! targets per store), so eligibility is per (system, query).

use rustc_hash::FxHashMap;

use crate::conventions::{CreditUnit, Gain};
use crate::dataset::Dataset;
use crate::model::Target;

/// One relevance group.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The evidence anchor (group unit) or the memory id (id unit).
    pub label: String,
    /// Gain after the gain convention.
    pub gain: f64,
    /// Stored memories in the group, in store order.
    pub members: Vec<u32>,
}

/// The groups of one query under every target, with a lookup from a memory to its groups.
#[derive(Debug, Clone, Default)]
pub struct QueryTargets {
    groups: [Vec<Group>; 3],
    /// memory -> start of its `[raw, source, canonical]` group lists in `flat`
    lookup: FxHashMap<u32, [(u32, u32); 3]>,
    flat: Vec<u32>,
}

pub fn target_slot(t: Target) -> usize {
    match t {
        Target::Raw => 0,
        Target::Source => 1,
        Target::Canonical => 2,
    }
}

/// The targets `ds` scores, each with its slot.
fn scored_slots(ds: &Dataset) -> impl Iterator<Item = (Target, usize)> + '_ {
    Target::ALL.iter().copied().filter(|t| ds.targets.contains(t)).map(|t| (t, target_slot(t)))
}

impl QueryTargets {
    /// Explicit target sets (MTEL-Mem mappings): each listed id that is in the store is its own
    /// group of grade 1, whatever the credit unit (the mappings carry no anchors to group by).
    fn explicit(
        ds: &Dataset,
        explicit: &crate::model::ExplicitTargets,
        gain: Gain,
        in_store: impl Fn(u32) -> bool,
    ) -> QueryTargets {
        let mut groups: [Vec<Group>; 3] = Default::default();
        let mut per_mem: FxHashMap<u32, [Vec<u32>; 3]> = FxHashMap::default();
        for (t, ti) in scored_slots(ds) {
            for id in explicit.of(t) {
                let Some(m) = ds.memory_index(id) else { continue };
                if !in_store(m) || per_mem.get(&m).is_some_and(|l| !l[ti].is_empty()) {
                    continue;
                }
                let g = groups[ti].len() as u32;
                per_mem.entry(m).or_default()[ti].push(g);
                groups[ti].push(Group { label: id.clone(), gain: gain.of(1.0), members: vec![m] });
            }
        }
        Self::assemble(groups, per_mem)
    }

    /// The groups of `query`; with per-system stores, in `system`'s store (`None`: every stored
    /// memory).
    pub fn build(ds: &Dataset, query: u32, unit: CreditUnit, gain: Gain, system: Option<usize>) -> QueryTargets {
        let in_store = |m: u32| system.is_none_or(|s| ds.in_store(m, s));
        let q = &ds.queries[query as usize];
        if let Some(explicit) = &q.targets {
            return Self::explicit(ds, explicit, gain, in_store);
        }
        let mut groups: [Vec<Group>; 3] = Default::default();
        // memory -> per target list of groups
        let mut per_mem: FxHashMap<u32, [Vec<u32>; 3]> = FxHashMap::default();
        for (t, ti) in scored_slots(ds) {
            match unit {
                CreditUnit::Group => {
                    for e in &q.evidence {
                        let members: Vec<u32> = ds
                            .anchor_members(&e.anchor)
                            .iter()
                            .copied()
                            .filter(|&m| {
                                let mem = &ds.memories[m as usize];
                                in_store(m) && t.admits(mem.raw, mem.canonical)
                            })
                            .collect();
                        if members.is_empty() {
                            continue;
                        }
                        let g = groups[ti].len() as u32;
                        for &m in &members {
                            per_mem.entry(m).or_default()[ti].push(g);
                        }
                        groups[ti].push(Group { label: e.anchor.clone(), gain: gain.of(e.grade), members });
                    }
                }
                CreditUnit::Id => {
                    let mut best: Vec<(u32, f64)> = Vec::new();
                    let mut pos: FxHashMap<u32, usize> = FxHashMap::default();
                    for e in &q.evidence {
                        for &m in ds.anchor_members(&e.anchor) {
                            let mem = &ds.memories[m as usize];
                            if !in_store(m) || !t.admits(mem.raw, mem.canonical) {
                                continue;
                            }
                            match pos.get(&m) {
                                Some(&i) => best[i].1 = best[i].1.max(e.grade),
                                None => {
                                    pos.insert(m, best.len());
                                    best.push((m, e.grade));
                                }
                            }
                        }
                    }
                    for (m, grade) in best {
                        let g = groups[ti].len() as u32;
                        per_mem.entry(m).or_default()[ti].push(g);
                        groups[ti].push(Group {
                            label: ds.memories[m as usize].memory_id.clone(),
                            gain: gain.of(grade),
                            members: vec![m],
                        });
                    }
                }
            }
        }
        Self::assemble(groups, per_mem)
    }

    /// The lookup from memories to their groups (higher gains first).
    fn assemble(groups: [Vec<Group>; 3], per_mem: FxHashMap<u32, [Vec<u32>; 3]>) -> QueryTargets {
        let mut flat = Vec::new();
        let mut lookup = FxHashMap::default();
        lookup.reserve(per_mem.len());
        for (m, mut lists) in per_mem {
            let mut entry = [(0u32, 0u32); 3];
            for ti in 0..3 {
                // Higher gains first, so the matching prefers them (binary: evidence order).
                let gs = &groups[ti];
                lists[ti].sort_by(|&a, &b| gs[b as usize].gain.total_cmp(&gs[a as usize].gain).then(a.cmp(&b)));
                entry[ti] = (flat.len() as u32, lists[ti].len() as u32);
                flat.extend_from_slice(&lists[ti]);
            }
            lookup.insert(m, entry);
        }
        QueryTargets { groups, lookup, flat }
    }

    pub fn groups(&self, t: Target) -> &[Group] {
        &self.groups[target_slot(t)]
    }

    pub fn eligible(&self, t: Target) -> bool {
        !self.groups[target_slot(t)].is_empty()
    }

    pub fn gains(&self, t: Target) -> Vec<f64> {
        self.groups(t).iter().map(|g| g.gain).collect()
    }

    /// Groups the ranked item belongs to under `t` (empty for no credit).
    pub fn groups_of(&self, item: u32, t: Target) -> &[u32] {
        match self.lookup.get(&item) {
            Some(e) => {
                let (start, len) = e[target_slot(t)];
                &self.flat[start as usize..(start + len) as usize]
            }
            None => &[],
        }
    }
}

/// A small store for the tests of the modules that build targets.
#[cfg(test)]
pub(crate) mod fixture {
    use crate::dataset::Dataset;
    use crate::ingest::{InputFile, read_all};

    /// Two raw turns `r1`, `r2`, a canonical memory `c1` of `r1`, a derived memory `d1` of both,
    /// and `queries` (JSON Lines).
    pub(crate) fn store_with(queries: &str) -> Dataset {
        Dataset::build(
            read_all(&[
                InputFile::new(
                    "m.jsonl",
                    br#"{"memory_id":"r1","anchors":["r1"],"raw":true}
{"memory_id":"c1","anchors":["r1"],"canonical":true}
{"memory_id":"r2","anchors":["r2"],"raw":true}
{"memory_id":"d1","anchors":["r1","r2"]}"#
                        .to_vec(),
                ),
                InputFile::new("q.jsonl", queries.as_bytes().to_vec()),
            ])
            .unwrap(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ds() -> Dataset {
        fixture::store_with(r#"{"query_id":"q","evidence":["r1","r2"]}"#)
    }

    #[test]
    fn groups_per_target() {
        let d = ds();
        let qt = QueryTargets::build(&d, 0, CreditUnit::Group, Gain::Linear, None);
        let labels = |t| qt.groups(t).iter().map(|g: &Group| g.label.clone()).collect::<Vec<_>>();
        assert_eq!(labels(Target::Raw), ["r1", "r2"]);
        assert_eq!(labels(Target::Source), ["r1", "r2"]);
        assert_eq!(labels(Target::Canonical), ["r1"]);
        assert_eq!(qt.groups(Target::Source)[0].members, vec![0, 1, 3]);
        let d1 = d.memory_index("d1").unwrap();
        assert_eq!(qt.groups_of(d1, Target::Source), &[0, 1]);
        assert!(qt.groups_of(d1, Target::Raw).is_empty());
        assert!(qt.groups_of(99, Target::Source).is_empty());
    }

    #[test]
    fn id_unit_makes_each_memory_a_group() {
        let d = ds();
        let qt = QueryTargets::build(&d, 0, CreditUnit::Id, Gain::Linear, None);
        assert_eq!(qt.groups(Target::Source).len(), 4);
        assert_eq!(qt.groups(Target::Raw).len(), 2);
        assert_eq!(qt.groups(Target::Canonical).len(), 1);
    }
}
