//! Per-system stores (TIAP defines the targets per store): a memory carrying `"system"` is in
//! that system's store only; memories without it are in every store. Checked on a hand-computed
//! toy and on LoCoMo with the observations split between two systems, against an independent
//! computation of each store's groups in this file.

use crate::common;

use common::file;
use memaudit::audit::{Rescore, Subset};
use memaudit::capability::{assign_roles, quiet, run_once};
use memaudit::conventions::Settings;
use memaudit::dataset::Dataset;
use memaudit::ingest::{InputFile, WarningKind, read_all};
use memaudit::model::{Run, Target};
use memaudit::rescore::rescore;

const QUERIES: &str = "{\"query_id\":\"q\",\"evidence\":[\"t1\",\"t2\"]}\n";

fn memories(with_systems: bool) -> String {
    let sys = |s: &str| if with_systems { format!(",\"system\":\"{s}\"") } else { String::new() };
    format!(
        "{{\"memory_id\":\"t1\",\"anchors\":[\"t1\"],\"raw\":true}}\n{{\"memory_id\":\"t2\",\"anchors\":[\"t2\"],\"raw\":true}}\n\
         {{\"memory_id\":\"fa1\",\"anchors\":[\"t1\"],\"canonical\":true{}}}\n\
         {{\"memory_id\":\"fb1\",\"anchors\":[\"t1\"],\"canonical\":true{}}}\n\
         {{\"memory_id\":\"fb2\",\"anchors\":[\"t2\"],\"canonical\":true{}}}\n",
        sys("A"),
        sys("B"),
        sys("B")
    )
}

const RUNS: &str = "{\"system\":\"A\",\"query_id\":\"q\",\"ranked\":[\"fa1\",\"t1\"]}\n\
                    {\"system\":\"B\",\"query_id\":\"q\",\"ranked\":[\"fb1\",\"fb2\"]}\n\
                    {\"system\":\"C\",\"query_id\":\"q\",\"ranked\":[\"t2\",\"t1\"]}\n";

fn rescored(m: &str, runs: &str) -> (Dataset, memaudit::rescore::Rescored) {
    let ds = Dataset::build(read_all(&[file("m.jsonl", m), file("q.jsonl", QUERIES), file("r.jsonl", runs)]).unwrap());
    let r = rescore(&ds, &Settings::default(), &mut |_| {});
    (ds, r)
}

/// A retrieves its only fact for t1: in its own store the canonical target has one group
/// (t2 has no canonical memory there), so nDCG = 1; scored against the union of stores it
/// would have two groups and nDCG 1 / (1 + 1/log2 3). C stores no fact: the query is not
/// Canonical-eligible for C, where the union would score it 0.
#[test]
fn targets_are_defined_per_store() {
    // C's store: the shared turns only.
    let (ds, r) = rescored(&memories(true), RUNS);
    assert!(ds.per_system_stores());
    let (a, b, c) = (0, 1, 2);
    let nd = |s: usize, t| r.cell(s, 0, t).score.as_ref().map(|x| x.ndcg);
    assert_eq!(nd(a, Target::Canonical), Some(1.0));
    assert_eq!(r.cell(a, 0, Target::Canonical).score.as_ref().unwrap().groups, 1);
    assert_eq!(nd(b, Target::Canonical), Some(1.0), "B finds both of its facts");
    assert!(!r.is_eligible(c, 0, Target::Canonical), "C has no canonical memory: excluded");
    assert_eq!(nd(c, Target::Canonical), None);
    // Raw and Source: the shared turns (plus each system's own facts under Source).
    assert!(r.is_eligible(c, 0, Target::Raw) && r.is_eligible(c, 0, Target::Source));
    assert_eq!(r.cell(a, 0, Target::Source).score.as_ref().unwrap().groups, 2);
    // One global store (no `system` on any memory): the union.
    let (ds1, r1) = rescored(&memories(false), RUNS);
    assert!(!ds1.per_system_stores());
    let union_a = r1.cell(a, 0, Target::Canonical).score.as_ref().unwrap().ndcg;
    assert!((union_a - 1.0 / (1.0 + 1.0 / 3f64.log2())).abs() < 1e-15);
    assert_eq!(r1.cell(c, 0, Target::Canonical).score.as_ref().unwrap().ndcg, 0.0, "the union scores C 0");
}

#[test]
fn store_problems_are_counted_or_refused() {
    // A memory naming a system that has no run: counted.
    let m =
        memories(true) + "{\"memory_id\":\"fz\",\"anchors\":[\"t1\"],\"canonical\":true,\"system\":[\"Z\",\"A\"]}\n";
    let (ds, _) = rescored(&m, RUNS);
    assert_eq!(ds.warnings.count(WarningKind::MemorySystemWithoutRun), 1);
    // A retrieved memory of another store earns nothing and is counted.
    let runs = RUNS.replace("[\"fa1\",\"t1\"]", "[\"fb1\",\"fa1\"]");
    let (ds, r) = rescored(&memories(true), &runs);
    assert_eq!(ds.warnings.count(WarningKind::RankedIdOutsideStore), 1);
    assert!((r.cell(0, 0, Target::Canonical).score.as_ref().unwrap().ndcg - 1.0 / 3f64.log2()).abs() < 1e-15);
    // Every memory names other systems: the run of C has an empty store — refused, naming C.
    let only_named = "{\"memory_id\":\"fa1\",\"anchors\":[\"t1\"],\"canonical\":true,\"system\":\"A\"}\n\
                      {\"memory_id\":\"fb1\",\"anchors\":[\"t1\"],\"canonical\":true,\"system\":\"B\"}\n";
    let files = assign_roles::<Rescore>(vec![
        (InputFile::new("m.jsonl", only_named.as_bytes()), None),
        (InputFile::new("q.jsonl", QUERIES.as_bytes()), None),
        (InputFile::new("r.jsonl", RUNS.as_bytes()), None),
    ])
    .unwrap();
    let e = run_once::<Rescore>(&files, &Settings::default(), &mut quiet()).unwrap_err().to_string();
    assert!(e.contains("system `C`") && e.contains("\"system\": \"C\""), "{e}");
    // An empty list of systems is refused where it is written.
    let bad = "{\"memory_id\":\"x\",\"anchors\":[\"t1\"],\"system\":[]}\n";
    let e = read_all(&[file("m.jsonl", bad)]).unwrap_err();
    assert_eq!(e.location.line, Some(1));
    assert!(e.message.contains("omit `system`"), "{}", e.message);
}

/// LoCoMo: turns shared, observations split between two fact stores by id; each system
/// ranks its own store's memories of the conversation in a fixed pseudo-random order.
#[test]
fn locomo_with_a_store_per_system() {
    let mut loaded = read_all(&[common::fixture("locomo-audit/locomo10.json")]).unwrap();
    let hash = |s: &str| s.bytes().fold(1469598103934665603u64, |h, b| (h ^ b as u64).wrapping_mul(1099511628211));
    let owner = |id: &str| if hash(id) % 2 == 0 { "facts_a" } else { "facts_b" };
    for m in &mut loaded.bundle.memories {
        if m.canonical {
            m.systems = Some(vec![owner(&m.memory_id).to_string()]);
        }
    }
    let mut runs = Vec::new();
    for q in loaded.bundle.queries.iter().take(300) {
        let conv = q.query_id.split(':').next().unwrap_or("").to_string();
        for sys in ["facts_a", "facts_b"] {
            let mut ids: Vec<&str> = loaded
                .bundle
                .memories
                .iter()
                .filter(|m| m.systems.as_ref().is_none_or(|s| s[0] == sys))
                .filter(|m| {
                    m.memory_id.starts_with(&conv)
                        || m.anchors.iter().any(|a| q.evidence.iter().any(|e| &e.anchor == a))
                })
                .map(|m| m.memory_id.as_str())
                .collect();
            ids.sort_by_key(|id| hash(&format!("{sys}/{}/{id}", q.query_id)));
            ids.truncate(80);
            runs.push(Run {
                system: sys.to_string(),
                query_id: q.query_id.clone(),
                ranked: ids
                    .iter()
                    .map(|id| memaudit::model::RankedItem { memory_id: (*id).into(), score: None })
                    .collect(),
            });
        }
    }
    loaded.bundle.runs = runs;
    let ds = Dataset::build(loaded);
    assert_eq!(ds.systems, ["facts_a", "facts_b"]);
    let settings = Settings::default();
    let r = rescore(&ds, &settings, &mut |_| {});
    // Independent: each (system, query)'s canonical groups are the evidence anchors with a
    // canonical memory of that store; a hit is a member of a group within k.
    let mut differ = 0;
    for (s, sys) in ds.systems.iter().enumerate() {
        for q in 0..ds.queries.len() {
            let Some(list) = &ds.lists[s][q] else { continue };
            let in_store = |m: &memaudit::model::Memory| m.systems.as_ref().is_none_or(|v| v.contains(sys));
            let groups: Vec<Vec<&str>> = ds.queries[q]
                .evidence
                .iter()
                .map(|e| {
                    ds.memories
                        .iter()
                        .filter(|m| m.canonical && in_store(m) && m.anchors.contains(&e.anchor))
                        .map(|m| m.memory_id.as_str())
                        .collect::<Vec<_>>()
                })
                .filter(|g| !g.is_empty())
                .collect();
            let union_groups = ds.queries[q]
                .evidence
                .iter()
                .filter(|e| ds.memories.iter().any(|m| m.canonical && m.anchors.contains(&e.anchor)))
                .count();
            differ += (groups.len() != union_groups) as usize;
            let cell = r.cell(s, q, Target::Canonical);
            assert_eq!(cell.score.is_some(), !groups.is_empty(), "{sys} {}", ds.queries[q].query_id);
            if let Some(sc) = &cell.score {
                assert_eq!(sc.groups, groups.len());
                let top: Vec<&str> = list.items.iter().take(settings.k).map(|&i| ds.item_id(i)).collect();
                let hit = groups.iter().any(|g| g.iter().any(|m| top.contains(m)));
                assert_eq!(sc.hit, if hit { 1.0 } else { 0.0 }, "{sys} {}", ds.queries[q].query_id);
                let covered = groups.iter().filter(|g| g.iter().any(|m| top.contains(m))).count();
                assert!((sc.recall - covered as f64 / groups.len() as f64).abs() < 1e-15);
            }
        }
    }
    assert!(differ > 50, "the stores differ from their union on many queries ({differ})");
    // The report: coverage per store, winners on the shared subset.
    let report = memaudit::audit::audit(&ds, &r, &mut |_, _| {});
    let stores: Vec<&str> = report.coverage.iter().filter_map(|c| c.system.as_deref()).collect();
    assert!(stores.contains(&"facts_a") && stores.contains(&"facts_b"));
    let a_kinds = &report.coverage.iter().find(|c| c.system.as_deref() == Some("facts_a")).unwrap().kinds;
    assert!(a_kinds.iter().any(|(k, _)| k == "observation") && a_kinds.iter().any(|(k, _)| k == "turn"));
    let shared: Vec<_> = report.winners.iter().filter(|w| w.subset == Subset::Shared).collect();
    assert!(!shared.is_empty());
    let n = shared[0].n;
    assert!(
        shared.iter().filter(|w| w.metric == shared[0].metric).all(|w| w.n == n),
        "one population under every target"
    );
}

/// The reporting card (TIAP Table 14) of each store, counted by hand: A holds the two turns and
/// one fact, B the turns and two facts, C the turns only; a summary with no anchors in B's store
/// makes B's mapping partial and is said in a headline.
#[test]
fn the_reporting_card_describes_each_store() {
    use memaudit::audit::card::{Mapping, cards};
    let m = format!(
        "{}{}",
        memories(true),
        "{\"memory_id\":\"sb\",\"anchors\":[],\"kind\":\"summary\",\"system\":\"B\"}\n"
    );
    let (ds, r) = rescored(&m, RUNS);
    let card = cards(&ds, &r);
    let row = |s: &str| card.iter().find(|c| c.system == s).unwrap();
    let (a, b, c) = (row("A"), row("B"), row("C"));
    assert_eq!((a.memories, a.raw, a.derived, a.canonical), (3, 2, 1, 1));
    assert_eq!((b.memories, b.raw, b.derived, b.canonical, b.derived_with_lineage), (5, 2, 3, 2, 2));
    assert_eq!((c.memories, c.derived, c.transforms), (2, 0, false));
    assert_eq!((a.mapping, b.mapping, c.mapping), (Mapping::Explicit, Mapping::Partial, Mapping::NotNeeded));
    // A ranks its fact and a turn (no kind: named by the raw flag); C two turns.
    assert_eq!(a.ranked_kinds, [("derived".to_string(), 1), ("raw".to_string(), 1)]);
    assert_eq!(c.ranked_kinds, [("raw".to_string(), 2)]);
    // C has no canonical memory: not eligible under Canonical (as the coverage says).
    assert_eq!((c.eligible_raw, c.eligible_canonical), (Some(1), Some(0)));
    assert!(a.credit.starts_with("targets raw, source, canonical; k=60 unit=group"), "{}", a.credit);
    // The whole report carries the card, its table and the headline naming B.
    let files = [file("m.jsonl", &m), file("q.jsonl", QUERIES), file("r.jsonl", RUNS)];
    let roles = assign_roles::<Rescore>(files.into_iter().map(|f| (f, None)).collect()).unwrap();
    let (_, report) = run_once::<Rescore>(&roles, &Settings::default(), &mut quiet()).unwrap();
    assert_eq!(report.card, card);
    let t = memaudit::audit::table::table(&report, memaudit::audit::RescoreTable::Card);
    assert_eq!(t.rows.len(), 3);
    assert_eq!(t.rows[1][t.headers.iter().position(|h| h == "mapping").unwrap()], "partial");
    let hs = memaudit::audit::headlines::headlines(&report);
    let h = hs.iter().find(|h| h.text.contains("without lineage")).unwrap();
    assert!(h.evidence.contains("B (1 of 3 derived memories)"), "{}", h.evidence);
}
