//! The LoCoMo and LongMemEval importers on the real released files in `../shared`
//! (the LoCoMo file is CC BY-NC 4.0: read here as a test input only, never bundled).

use crate::common;

use common::{dataset, file, fixture};
use memaudit::conventions::Settings;
use memaudit::ingest::{Format, InputFile, WarningKind};
use memaudit::model::Target;
use memaudit::rescore::rescore;

#[test]
fn locomo_every_quirk_is_counted() {
    let ds = dataset(&[fixture("locomo-audit/locomo10.json")]);
    assert_eq!(ds.files[0].format, Format::Locomo);
    let turns = ds.memories.iter().filter(|m| m.raw).count();
    let obs = ds.memories.iter().filter(|m| m.canonical).count();
    assert_eq!(turns, 5882, "LoCoMo-10 has 5,882 turns");
    assert_eq!(ds.queries.len(), 1986, "LoCoMo-10 has 1,986 QA items");
    assert!(obs > 2000, "observations imported as canonical memories: {obs}");
    assert_eq!(turns + obs, ds.memories.len());

    let w = &ds.warnings;
    use WarningKind::*;
    // multi-id strings (4), zero padding "D30:05" (1), stray colon "D:11:26" (1)
    assert_eq!(w.count(EvidenceNormalized), 6);
    assert_eq!(w.count(EvidenceUnparseable), 1, "\"D\" in conv-42");
    assert_eq!(w.count(EvidenceDangling), 2, "D10:19 in conv-42 and D4:36 in conv-47");
    assert_eq!(w.count(DuplicateEvidence), 1, "[\"D4:5\",\"D4:5\",\"D5:5\"]");
    assert_eq!(w.count(QueryWithoutEvidence), 4);
    assert_eq!(w.count(AdversarialQuestion), 446);
    assert_eq!(w.count(LineageNormalized), 15, "10 list references + 5 comma-joined strings");
    assert_eq!(w.count(EvidenceWithoutMemory), 2);

    // normalised ids resolve to real turns
    let q = ds.queries.iter().find(|q| q.evidence.iter().any(|e| e.anchor == "conv-50/D30:5")).unwrap();
    assert!(ds.memory_index("conv-50/D30:5").is_some(), "{}", q.query_id);
    let multi = ds.queries.iter().find(|q| q.query_id == "conv-26/q37").unwrap();
    let anchors: Vec<&str> = multi.evidence.iter().map(|e| e.anchor.as_str()).collect();
    assert_eq!(anchors, ["conv-26/D8:6", "conv-26/D9:17"]);
    // category 5 keeps its adversarial answer
    let adv = ds.queries.iter().find(|q| q.category.as_deref() == Some("5")).unwrap();
    assert!(adv.answer.is_some());
}

/// An oracle that ranks each query's raw evidence turns first scores Raw nDCG 1; the same list
/// scores Source ≥ Raw on every query, since every LoCoMo anchor has its raw turn.
#[test]
fn locomo_oracle_runs_rescore_as_expected() {
    let base = dataset(&[fixture("locomo-audit/locomo10.json")]);
    let mut raw_oracle = String::new();
    let mut can_oracle = String::new();
    for q in &base.queries {
        let raw: Vec<String> = q
            .evidence
            .iter()
            .filter(|e| base.memory_index(&e.anchor).is_some())
            .map(|e| format!("\"{}\"", e.anchor))
            .collect();
        raw_oracle +=
            &format!("{{\"system\":\"raw-oracle\",\"query_id\":\"{}\",\"ranked\":[{}]}}\n", q.query_id, raw.join(","));
        let can: Vec<String> = q
            .evidence
            .iter()
            .flat_map(|e| base.anchor_members(&e.anchor).iter())
            .filter(|&&m| base.memories[m as usize].canonical)
            .map(|&m| format!("\"{}\"", base.memories[m as usize].memory_id))
            .collect();
        can_oracle += &format!(
            "{{\"system\":\"canonical-oracle\",\"query_id\":\"{}\",\"ranked\":[{}]}}\n",
            q.query_id,
            can.join(",")
        );
    }
    let ds = dataset(&[
        fixture("locomo-audit/locomo10.json"),
        file("raw.jsonl", &raw_oracle),
        file("can.jsonl", &can_oracle),
    ]);
    let r = rescore(&ds, &Settings::default(), &mut |_| {});
    let (mut raw_n, mut can_n) = (0, 0);
    for q in 0..ds.queries.len() {
        if let Some(s) = r.cell(0, q, Target::Raw).counted() {
            raw_n += 1;
            assert!((s.ndcg - 1.0).abs() < 1e-12, "{}", ds.queries[q].query_id);
            let src = r.cell(0, q, Target::Source).counted().unwrap();
            assert!(src.ndcg + 1e-12 >= s.ndcg);
        }
        if let Some(c) = r.cell(1, q, Target::Canonical).counted() {
            can_n += 1;
            assert_eq!(c.recall, 1.0, "{}", ds.queries[q].query_id);
            assert!(c.ndcg > 0.0);
        }
        // T_can ⊆ T_src: the canonical oracle hits Source whenever it hits Canonical
        if r.cell(1, q, Target::Canonical).counted().is_some_and(|c| c.hit == 1.0) {
            assert_eq!(r.cell(1, q, Target::Source).counted().unwrap().hit, 1.0);
        }
    }
    assert_eq!(raw_n, 1986 - 4, "every query with evidence has a Raw target");
    assert!(can_n > 1000 && can_n < raw_n, "canonical coverage {can_n}");

    // The per-category instability (TIAP §5.3): every LoCoMo category "1"…"5" has a row for
    // each (system, pair), and the categories' n and counts sum to the pair's shared n.
    let report = memaudit::audit::audit(&ds, &r, &mut |_, _| {});
    let cats = ["1", "2", "3", "4", "5"];
    assert_eq!(report.instability_by_category.len(), report.instability.len() * cats.len());
    for whole in &report.instability {
        let parts: Vec<_> = report
            .instability_by_category
            .iter()
            .filter(|c| c.system == whole.system && c.a == whole.a && c.b == whole.b)
            .collect();
        let names: Vec<&str> = parts.iter().map(|c| c.category.as_str()).collect();
        assert_eq!(names, cats, "{} {} vs {}", whole.system, whole.a, whole.b);
        assert_eq!(parts.iter().map(|c| c.n).sum::<usize>(), whole.n);
        assert_eq!(parts.iter().map(|c| c.ndcg_changed).sum::<usize>(), whole.ndcg_changed);
        assert_eq!(parts.iter().map(|c| c.hit_flips).sum::<usize>(), whole.hit_flips);
        assert_eq!(parts.iter().map(|c| c.top1_flips).sum::<usize>(), whole.top1_flips);
    }

    // Aggregations (TIAP App. B): both oracles' population is the 1,982 Raw-eligible queries,
    // Canonical falls back to Raw on the queries without a canonical target. The Raw oracle
    // scores (1, 1, C_q) with C_q = 1 on fallback queries, so its min is its Canonical mean,
    // its arithmetic mean (2 + Canonical)/3, and it keeps exactly the queries Canonical hits.
    assert_eq!(report.aggregations.len(), 2);
    for a in &report.aggregations {
        assert_eq!((a.n, a.source_fallback, a.canonical_fallback), (raw_n, 0, raw_n - can_n), "{}", a.system);
    }
    let ro = &report.aggregations[0];
    assert_eq!(ro.system, "raw-oracle");
    let (c, close) = (ro.canonical.unwrap(), |x: Option<f64>, y: f64| (x.unwrap() - y).abs() < 1e-12);
    assert!(close(ro.raw, 1.0) && close(ro.source, 1.0) && close(ro.min, c) && close(ro.arith, (2.0 + c) / 3.0));
    let can_hits = (0..ds.queries.len())
        .filter(|&q| r.cell(0, q, Target::Raw).counted().is_some())
        .filter(|&q| r.cell(0, q, Target::Canonical).counted().is_none_or(|s| s.hit == 1.0))
        .count();
    assert_eq!(report.agreement[0].kept, can_hits);
    assert_eq!(report.kendall_from_raw.len(), 5);
}

#[test]
fn longmemeval_snapshot_uses_has_answer_turns() {
    let ds = dataset(&[fixture("BriefBench/longmemeval_s_cleaned_snapshot.json")]);
    assert_eq!(ds.files[0].format, Format::LongMemEvalSnapshot);
    assert_eq!(ds.queries.len(), 12);
    let q = ds.queries.iter().find(|q| q.query_id == "cc5ded98").unwrap();
    assert_eq!(q.category.as_deref(), Some("knowledge-update"));
    assert_eq!(q.evidence.len(), 2, "one has_answer turn in each of the two answer sessions");
    for e in &q.evidence {
        assert!(e.anchor.starts_with("answer_a5b68517_"), "{}", e.anchor);
        let m = &ds.memories[ds.memory_index(&e.anchor).unwrap() as usize];
        assert!(m.raw && m.kind.as_deref() == Some("turn"));
        // the session memory descends from the turn: Source credit, not Raw
        let members = ds.anchor_members(&e.anchor);
        assert_eq!(members.len(), 2, "the turn and its session");
    }
    assert_eq!(ds.warnings.count(WarningKind::EvidenceFallback), 0);
    assert_eq!(ds.warnings.count(WarningKind::QueryWithoutEvidence), 0);
    // 307 turns carry has_answer (true or false); evidence turns are the true ones
    let evidence: usize = ds.queries.iter().map(|q| q.evidence.len()).sum();
    assert!(evidence >= 12);
}

/// A session-granular LongMemEval retrieval log (ids as LongMemEval writes them, `noans_`
/// aliases included) scores Source but never Raw.
#[test]
fn longmemeval_session_log_earns_source_credit_only() {
    let base = dataset(&[fixture("BriefBench/longmemeval_s_cleaned_snapshot.json")]);
    let mut log = String::new();
    for q in &base.queries {
        let sessions: Vec<String> = q.extra["answer_session_ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| format!("{{\"corpus_id\":\"{}\"}}", s.as_str().unwrap()))
            .collect();
        log += &format!(
            "{{\"question_id\":\"{}\",\"retrieval_results\":{{\"ranked_items\":[{}]}}}}\n",
            q.query_id,
            sessions.join(",")
        );
    }
    let ds = dataset(&[fixture("BriefBench/longmemeval_s_cleaned_snapshot.json"), file("session_bm25.jsonl", &log)]);
    assert_eq!(ds.systems, ["session_bm25"]);
    let r = rescore(&ds, &Settings::default(), &mut |_| {});
    for q in 0..ds.queries.len() {
        assert_eq!(r.cell(0, q, Target::Raw).counted().unwrap().hit, 0.0);
        let src = r.cell(0, q, Target::Source).counted().unwrap();
        assert_eq!(src.recall, 1.0, "every evidence turn's session retrieved");
        assert!(r.cell(0, q, Target::Canonical).counted().is_none(), "no canonical memories");
    }
}

#[test]
fn data_without_runs_is_read_and_said_to_score_nothing() {
    // The LongMemEval snapshot alone: 12 queries and their sessions, no system's ranked lists.
    let files = [fixture("BriefBench/longmemeval_s_cleaned_snapshot.json")];
    let roles = memaudit::capability::assign_roles::<memaudit::audit::unit::Rescore>(
        files.iter().map(|f| (f.clone(), None)).collect(),
    )
    .unwrap();
    let (_, r) = memaudit::capability::run_once::<memaudit::audit::unit::Rescore>(
        &roles,
        &Settings::default(),
        &mut memaudit::capability::quiet(),
    )
    .unwrap();
    assert_eq!(r.reading.counts.ranked_lists, 0);
    let hs = memaudit::capability::headlines::<memaudit::audit::unit::Rescore>(&r);
    assert_eq!(hs[0].text, "No system's ranked lists were read: nothing was scored");
    assert!(hs[0].evidence.starts_with("the files hold 12 queries and 1754 memories only"), "{}", hs[0].evidence);
    // Data alone is not wrong data: a finding, and no headline speaks of means that do not exist.
    assert_eq!(hs[0].level, memaudit::headline::Level::Finding);
    assert!(hs.iter().all(|h| !h.text.contains("left out of its means")), "{hs:?}");
}

/// LoCoMo's repository ships each conversation as a file of its own (`locomo10_v2/26.json`:
/// the conversation's keys, observations and `qa` at the top level, no `sample_id`). Split from
/// `locomo10.json` in that shape here, the ten files read together give the same memories,
/// queries, evidence and warnings as the one file, each conversation named after its file.
#[test]
fn locomo_conversations_in_files_of_their_own_read_as_the_one_file() {
    let whole = fixture("locomo-audit/locomo10.json");
    let base = dataset(std::slice::from_ref(&whole));
    let convs: Vec<serde_json::Value> = serde_json::from_slice(&whole.bytes().unwrap()).unwrap();
    let mut files = Vec::new();
    for c in &convs {
        let mut flat = serde_json::Map::new();
        for part in ["conversation", "observation", "session_summary", "event_summary"] {
            if let Some(obj) = c[part].as_object() {
                flat.extend(obj.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
        }
        flat.insert("qa".into(), c["qa"].clone());
        let n = c["sample_id"].as_str().unwrap().strip_prefix("conv-").unwrap();
        files.push(InputFile::new(format!("locomo10_v2/{n}.json"), serde_json::to_vec_pretty(&flat).unwrap()));
    }
    files.reverse(); // as the zip lists them: 50.json first
    let split = dataset(&files);
    assert!(split.files.iter().all(|f| f.format == Format::Locomo));
    let memories = |d: &memaudit::dataset::Dataset| {
        let mut v: Vec<_> = d
            .memories
            .iter()
            .map(|m| (m.memory_id.clone(), m.anchors.clone(), m.raw, m.canonical, m.text.clone()))
            .collect();
        v.sort();
        v
    };
    let queries = |d: &memaudit::dataset::Dataset| {
        let mut v: Vec<_> = d
            .queries
            .iter()
            .map(|q| {
                let ev: Vec<String> = q.evidence.iter().map(|e| e.anchor.clone()).collect();
                (q.query_id.clone(), ev, q.answer.clone(), q.category.clone(), q.text.clone())
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(memories(&split).len(), 8423);
    assert_eq!(memories(&split), memories(&base));
    assert_eq!(queries(&split), queries(&base));
    use WarningKind::*;
    for kind in [
        EvidenceNormalized,
        EvidenceUnparseable,
        EvidenceDangling,
        DuplicateEvidence,
        QueryWithoutEvidence,
        AdversarialQuestion,
        LineageNormalized,
        EvidenceWithoutMemory,
    ] {
        assert_eq!(split.warnings.count(kind), base.warnings.count(kind), "{kind:?}");
    }
    assert_eq!(split.warnings.count(SampleFromFileName), 10);
    assert_eq!(base.warnings.count(SampleFromFileName), 0);

    // A fault in such a file is located at the file's own field path.
    let bad = file(
        "locomo10_v2/7.json",
        "{\n \"speaker_a\": \"A\",\n \"speaker_b\": \"B\",\n \"session_1\": [{\"speaker\": \"A\", \"dia_id\": \"X1\", \"text\": \"hi\"}],\n \"qa\": []\n}",
    );
    let Err(e) = memaudit::ingest::read_all(&[bad]) else { panic!("a bad dia_id is refused") };
    let e = e.to_string();
    assert!(e.contains("locomo10_v2/7.json") && e.contains("session_1[0].dia_id") && e.contains("`X1`"), "{e}");
}
