//! Synthetic bundles: the viewer's demo and the benchmark inputs. Entirely generated (no real
//! benchmark text), deterministic for a seed, and shaped like a transformed memory store so
//! that credit targets matter: conversations of raw turns, canonical facts derived from most
//! turns, some session summaries descending from several turns, and systems that prefer raw
//! turns, canonical facts, or a mix — so winners flip between targets.
//!
//! `memaudit synth --queries N --systems S --depth D --seed X --out DIR` writes one.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value};

use crate::model::{Bundle, Evidence, Memory, Query, RankedItem, Run};

#[derive(Debug, Clone, PartialEq)]
pub struct SynthSpec {
    pub queries: usize,
    pub systems: usize,
    pub depth: usize,
    pub seed: u64,
    /// Add a few deliberate problems (query without evidence, dangling evidence, repeated ids,
    /// a run for an unknown query) so the reading summary has something to show.
    pub quirks: bool,
    /// Add a system with a store of its own ([`OWN_STORE_SYSTEM`]): its extracted facts are
    /// in its store only, and the other systems' facts and summaries in theirs (the turns are
    /// in every store) — TIAP's per-store targets.
    pub own_store: bool,
}

/// The name of the system with its own store.
pub const OWN_STORE_SYSTEM: &str = "extractor-store";

impl SynthSpec {
    /// The demo bundle shipped with the viewer (`static/demo/`).
    pub fn demo() -> Self {
        SynthSpec { queries: 120, systems: 3, depth: 30, seed: 20261122, quirks: true, own_store: true }
    }
}

const TOPICS: [&str; 12] = [
    "moved to a new apartment",
    "started a pottery class",
    "adopted a rescue dog",
    "changed jobs",
    "ran a half marathon",
    "visited their sister",
    "planted tomatoes",
    "bought a used car",
    "learned to bake bread",
    "joined a book club",
    "painted the kitchen",
    "booked a trip",
];
const WHEN: [&str; 6] = ["last week", "in March", "two years ago", "yesterday", "in the summer", "on Friday"];
const CATEGORIES: [&str; 3] = ["single-hop", "multi-hop", "temporal"];

/// System profiles: (name, skill, preference for canonical facts over raw turns).
const PROFILES: [(&str, f64, f64); 8] = [
    ("bm25-turns", 0.55, 0.15),
    ("dense-facts", 0.62, 0.85),
    ("hybrid-rrf", 0.60, 0.50),
    ("dense-turns", 0.58, 0.25),
    ("rerank-facts", 0.66, 0.75),
    ("summary-first", 0.50, 0.60),
    ("recency", 0.35, 0.40),
    ("random-ish", 0.20, 0.50),
];

pub fn generate(spec: &SynthSpec) -> Bundle {
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
    let mut memories: Vec<Memory> = Vec::new();
    // One conversation per 10 queries, 4 sessions of 12 turns each.
    let convs = spec.queries.div_ceil(10).max(1);
    let mut turns_of: Vec<Vec<String>> = Vec::new(); // per conversation: turn ids
    let mut facts_of: Vec<Vec<Vec<usize>>> = Vec::new(); // per conv, per turn: memory indices of facts
    let mut summary_of: Vec<Vec<Option<usize>>> = Vec::new(); // per conv, per turn: session summary
    let mut all_by_conv: Vec<Vec<usize>> = Vec::new();
    for c in 0..convs {
        let mut turns = Vec::new();
        let mut facts = Vec::new();
        let mut summaries = Vec::new();
        let mut all = Vec::new();
        for s in 1..=4 {
            let start = turns.len();
            for t in 1..=12 {
                let id = format!("conv{c}/D{s}:{t}");
                let topic = TOPICS[rng.random_range(0..TOPICS.len())];
                let when = WHEN[rng.random_range(0..WHEN.len())];
                let mut extra = Map::new();
                extra.insert("speaker".into(), Value::from(if t % 2 == 1 { "user" } else { "assistant" }));
                extra.insert("session".into(), Value::from(s));
                all.push(memories.len());
                memories.push(Memory {
                    memory_id: id.clone(),
                    anchors: vec![id.clone()],
                    raw: true,
                    canonical: false,
                    kind: Some("turn".into()),
                    text: Some(format!("Speaker {} mentions they {topic} {when}.", if t % 2 == 1 { "A" } else { "B" })),
                    systems: None,
                    extra,
                });
                let mut f = Vec::new();
                // 70% of turns yield 1-3 canonical facts.
                if rng.random_bool(0.7) {
                    for j in 0..rng.random_range(1..=3) {
                        f.push(memories.len());
                        all.push(memories.len());
                        memories.push(Memory {
                            memory_id: format!("conv{c}/fact:S{s}:T{t}:{j}"),
                            anchors: vec![id.clone()],
                            raw: false,
                            canonical: true,
                            kind: Some("fact".into()),
                            text: Some(format!("Fact: the user {topic} ({when}).")),
                            systems: None,
                            extra: Map::new(),
                        });
                    }
                }
                facts.push(f);
                turns.push(id);
            }
            // One session summary descending from every turn of the session (multi-anchor).
            let sum_idx = memories.len();
            all.push(sum_idx);
            memories.push(Memory {
                memory_id: format!("conv{c}/summary:S{s}"),
                anchors: turns[start..].to_vec(),
                raw: false,
                canonical: false,
                kind: Some("session_summary".into()),
                text: Some(format!("Summary of session {s}.")),
                systems: None,
                extra: Map::new(),
            });
            summaries.extend(std::iter::repeat_n(Some(sum_idx), 12));
        }
        turns_of.push(turns);
        facts_of.push(facts);
        summary_of.push(summaries);
        all_by_conv.push(all);
    }

    let mut queries = Vec::new();
    for qi in 0..spec.queries {
        let c = qi / 10;
        let cat = CATEGORIES[rng.random_range(0..CATEGORIES.len())];
        let n_ev = if cat == "multi-hop" { rng.random_range(2..=3) } else { 1 };
        let mut ev: Vec<usize> = Vec::new();
        while ev.len() < n_ev {
            let t = rng.random_range(0..turns_of[c].len());
            if !ev.contains(&t) {
                ev.push(t);
            }
        }
        let topic = TOPICS[rng.random_range(0..TOPICS.len())];
        queries.push(Query {
            query_id: format!("conv{c}/q{qi}"),
            evidence: ev.iter().map(|&t| Evidence { anchor: turns_of[c][t].clone(), grade: 1.0 }).collect(),
            category: Some(cat.into()),
            text: Some(format!("When did the user say they {topic}?")),
            answer: Some(WHEN[rng.random_range(0..WHEN.len())].into()),
            targets: None,
            extra: Map::new(),
        });
    }

    let mut runs = Vec::new();
    for (si, &(name, skill, pref)) in PROFILES.iter().cycle().take(spec.systems).enumerate() {
        let name = if si < PROFILES.len() { name.to_string() } else { format!("{name}-{si}") };
        for (qi, q) in queries.iter().enumerate() {
            let c = qi / 10;
            let mut ranked: Vec<usize> = Vec::new();
            for e in &q.evidence {
                let t = turns_of[c].iter().position(|id| *id == e.anchor).unwrap_or(0);
                // candidates for this anchor: the raw turn, its facts, its session summary
                if rng.random_bool(skill) {
                    let facts = &facts_of[c][t];
                    let pick_fact = !facts.is_empty() && rng.random_bool(pref);
                    let raw_idx = all_by_conv[c].iter().copied().find(|&m| memories[m].memory_id == e.anchor);
                    let first = if pick_fact { facts[rng.random_range(0..facts.len())] } else { raw_idx.unwrap_or(0) };
                    push_new(&mut ranked, first);
                    // sometimes the other form too, lower down
                    if rng.random_bool(0.4) {
                        if pick_fact {
                            if let Some(r) = raw_idx {
                                push_new(&mut ranked, r);
                            }
                        } else if !facts.is_empty() {
                            push_new(&mut ranked, facts[0]);
                        }
                    }
                }
                if let Some(sidx) = summary_of[c][t].filter(|_| rng.random_bool(0.15)) {
                    push_new(&mut ranked, sidx);
                }
            }
            // distractors from the same conversation
            let pool = &all_by_conv[c];
            while ranked.len() < spec.depth.min(pool.len()) {
                let m = pool[rng.random_range(0..pool.len())];
                if !ranked.contains(&m) {
                    ranked.push(m);
                }
            }
            // move the relevant items to random positions weighted toward the top
            let n_rel = ranked.len().min(q.evidence.len() * 3);
            for i in 0..n_rel {
                let spread = ((1.0 - skill) * spec.depth as f64).max(2.0) as usize;
                let to = rng.random_range(0..spread.min(ranked.len()));
                ranked.swap(i, to);
            }
            ranked.truncate(spec.depth);
            runs.push(scored_run(name.clone(), &q.query_id, ranked, &memories));
        }
    }

    if spec.quirks && !queries.is_empty() && !runs.is_empty() {
        queries[0].evidence.clear();
        let last = queries.len() - 1;
        queries[last].evidence.push(Evidence { anchor: "conv-missing/D1:1".into(), grade: 1.0 });
        let dup = runs[1].ranked[0].clone();
        runs[1].ranked.insert(2, dup);
        runs.push(Run {
            system: runs[0].system.clone(),
            query_id: "not-a-query".into(),
            ranked: vec![RankedItem { memory_id: memories[0].memory_id.as_str().into(), score: Some(1.0) }],
        });
    }
    if spec.own_store {
        add_own_store(spec, &mut memories, &queries, &mut runs, &turns_of);
    }
    Bundle { memories, queries, runs }
}

/// A system whose store holds the turns and its own extracted facts (one per turn, for about
/// half of the turns; a different lineage from the shared facts), drawn from its own random
/// stream so the other systems' data stay as they were.
fn add_own_store(
    spec: &SynthSpec,
    memories: &mut Vec<Memory>,
    queries: &[Query],
    runs: &mut Vec<Run>,
    turns_of: &[Vec<String>],
) {
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed.wrapping_add(1));
    let others: Vec<String> = {
        let mut seen: Vec<String> = Vec::new();
        for r in runs.iter() {
            if !seen.contains(&r.system) {
                seen.push(r.system.clone());
            }
        }
        seen
    };
    for m in memories.iter_mut().filter(|m| !m.raw) {
        m.systems = Some(others.clone());
    }
    let mut own: Vec<Vec<Option<usize>>> = Vec::new(); // per conv, per turn: its extracted fact
    let mut store_of_conv: Vec<Vec<usize>> = Vec::new();
    for (c, turns) in turns_of.iter().enumerate() {
        let mut per_turn = Vec::new();
        let mut store: Vec<usize> = memories
            .iter()
            .enumerate()
            .filter(|(_, m)| m.raw && m.memory_id.starts_with(&format!("conv{c}/")))
            .map(|(i, _)| i)
            .collect();
        for (t, id) in turns.iter().enumerate() {
            if rng.random_bool(0.5) {
                per_turn.push(Some(memories.len()));
                store.push(memories.len());
                memories.push(Memory {
                    memory_id: format!("conv{c}/extracted:{t}"),
                    anchors: vec![id.clone()],
                    raw: false,
                    canonical: true,
                    kind: Some("extracted_fact".into()),
                    text: Some("Extracted fact.".into()),
                    systems: Some(vec![OWN_STORE_SYSTEM.to_string()]),
                    extra: Map::new(),
                });
            } else {
                per_turn.push(None);
            }
        }
        own.push(per_turn);
        store_of_conv.push(store);
    }
    for (qi, q) in queries.iter().enumerate() {
        let c = qi / 10;
        let mut ranked: Vec<usize> = Vec::new();
        for e in &q.evidence {
            let Some(t) = turns_of[c].iter().position(|id| *id == e.anchor) else { continue };
            if rng.random_bool(0.6) {
                match own[c][t] {
                    Some(f) if rng.random_bool(0.8) => push_new(&mut ranked, f),
                    _ => {
                        if let Some(r) = memories.iter().position(|m| m.memory_id == e.anchor) {
                            push_new(&mut ranked, r);
                        }
                    }
                }
            }
        }
        let pool = &store_of_conv[c];
        while ranked.len() < spec.depth.min(pool.len()) {
            push_new(&mut ranked, pool[rng.random_range(0..pool.len())]);
        }
        for i in 0..ranked.len().min(q.evidence.len()) {
            let to = rng.random_range(0..(spec.depth / 3).max(2).min(ranked.len()));
            ranked.swap(i, to);
        }
        ranked.truncate(spec.depth);
        runs.push(scored_run(OWN_STORE_SYSTEM.to_string(), &q.query_id, ranked, memories));
    }
}

/// A run of the memories at `ranked` (indices into `memories`), scored from 1 down by rank.
fn scored_run(system: String, query_id: &str, ranked: Vec<usize>, memories: &[Memory]) -> Run {
    let n = ranked.len();
    Run {
        system,
        query_id: query_id.to_string(),
        ranked: ranked
            .into_iter()
            .enumerate()
            .map(|(i, m)| RankedItem {
                memory_id: memories[m].memory_id.as_str().into(),
                score: Some(((n - i) as f64 / n as f64 * 1000.0).round() / 1000.0),
            })
            .collect(),
    }
}

fn push_new(ranked: &mut Vec<usize>, m: usize) {
    if !ranked.contains(&m) {
        ranked.push(m);
    }
}

/// The three JSONL files of a bundle (memories, queries, runs), one record per line.
pub fn to_jsonl(bundle: &Bundle) -> (String, String, String) {
    fn lines<T: serde::Serialize>(items: &[T]) -> String {
        let mut out = String::new();
        for i in items {
            // Serialising plain data structures to a String cannot fail.
            if let Ok(s) = serde_json::to_string(i) {
                out.push_str(&s);
                out.push('\n');
            }
        }
        out
    }
    (lines(&bundle.memories), lines(&bundle.queries), lines(&bundle.runs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_well_formed() {
        let spec = SynthSpec { queries: 30, systems: 3, depth: 20, seed: 7, quirks: false, own_store: false };
        let a = generate(&spec);
        assert_eq!(a, generate(&spec));
        assert_eq!(a.queries.len(), 30);
        assert_eq!(a.runs.len(), 90);
        assert!(a.runs.iter().all(|r| r.ranked.len() == 20));
        assert!(a.memories.iter().any(|m| m.canonical) && a.memories.iter().any(|m| m.anchors.len() > 1));
    }
}
