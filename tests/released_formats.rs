//! Retrieval results as their authors ship them, read by `memaudit rescore`: the TIAP
//! authors' target mappings with per-hit traces (MTEL-Mem's shape, written here by hand),
//! ranx / pytrec_eval JSON, TREC files as trec_eval's own test suite writes them, and the
//! refusal of a per-query records file with the subcommand that reads it.
//!
//! Expected values are computed by hand from the definitions (MTEL-Mem `core/metrics.py`:
//! binary ID-level nDCG with IDCG over min(|T|, k) ids, MRR, hit).

use crate::common;

use common::file;
use memaudit::conventions::Settings;
use memaudit::dataset::Dataset;
use memaudit::ingest::{Format, WarningKind, read_all};
use memaudit::model::Target;
use memaudit::rescore::rescore;

const MAPPINGS: &str = r#"{"benchmark":"toy","query_id":"Q1","source_fixture_id":"S1","category":"temporal","query_text":"When did the user move?","reference_answer":"2021","raw_ids":["turn_47"],"source_ids":["turn_47","obs_47_1","canon_47"],"canonical_ids":["canon_47"]}
{"benchmark":"toy","query_id":"Q2","source_fixture_id":"S2","category":"profile","query_text":"Where?","reference_answer":"Austin","raw_ids":["turn_88"],"source_ids":["turn_88","canon_88"],"canonical_ids":["canon_88"]}
"#;

const TRACE: &str = r#"{"benchmark":"toy","system":"demo","query_id":"Q1","retrieved_id":"canon_47","rank":1,"score":0.91}
{"benchmark":"toy","system":"demo","query_id":"Q1","retrieved_id":"turn_47","rank":2,"score":0.84}
{"benchmark":"toy","system":"demo","query_id":"Q1","retrieved_id":"other_1","rank":3,"score":0.11}
{"benchmark":"toy","system":"demo","query_id":"Q2","retrieved_id":"other_2","rank":1,"score":0.55}
{"benchmark":"toy","system":"demo","query_id":"Q2","retrieved_id":"canon_88","rank":2,"score":0.50}
"#;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn target_mappings_with_per_hit_traces_score_as_mtel_mem_defines() {
    let loaded = read_all(&[file("minimal_target_mappings.jsonl", MAPPINGS), file("trace.jsonl", TRACE)]).unwrap();
    assert_eq!(loaded.files[0].format, Format::TargetMappings);
    let ds = Dataset::build(loaded);
    let r = rescore(&ds, &Settings::default(), &mut |_| {});
    let l3 = 3f64.log2();
    let cell = |q: usize, t| r.cell(0, q, t).score.clone().unwrap();
    // Q1: raw turn_47 at rank 2; source: 2 of 3 ids at ranks 1, 2; canonical at rank 1.
    assert!(close(cell(0, Target::Raw).ndcg, 1.0 / l3));
    assert!(close(cell(0, Target::Raw).mrr, 0.5));
    assert!(close(cell(0, Target::Source).ndcg, (1.0 + 1.0 / l3) / (1.0 + 1.0 / l3 + 0.5)));
    assert!(close(cell(0, Target::Source).recall, 2.0 / 3.0));
    assert_eq!(cell(0, Target::Canonical).ndcg, 1.0);
    // Q2: raw missed; source canon_88 at rank 2 of 2 ids; canonical at rank 2.
    assert_eq!(cell(1, Target::Raw).ndcg, 0.0);
    assert!(close(cell(1, Target::Source).ndcg, (1.0 / l3) / (1.0 + 1.0 / l3)));
    assert!(close(cell(1, Target::Canonical).ndcg, 1.0 / l3));
    assert!(close(cell(1, Target::Canonical).mrr, 0.5));
    // The ids nobody maps are counted once for the run, not warned one by one.
    assert_eq!(ds.warnings.count(WarningKind::UnjudgedDocuments), 1);
    assert_eq!(ds.warnings.count(WarningKind::RankedIdNotStored), 0);
    assert_eq!(ds.warnings.count(WarningKind::QueryWithoutEvidence), 0);
    assert_eq!(ds.queries[0].text.as_deref(), Some("When did the user move?"));
}

#[test]
fn a_per_query_records_file_names_the_subcommand_that_reads_it() {
    let csv = "run_id,dataset,system_label,parser_max_facts,query_index,category,raw_eligible,raw_hit_at_k,raw_ndcg\n\
               r1,LoCoMo,lexical,1,1,2,True,1.0,0.38\n";
    let e = read_all(&[file("query_target_alignment.records.csv", csv)]).unwrap_err();
    assert!(e.message.contains("paired comparison (`outcomes`)"), "{}", e.message);
    let jsonl = "{\"run_id\": \"r1\", \"query_index\": 1, \"raw_eligible\": true, \"raw_ndcg\": 0.38}\n";
    let e = read_all(&[file("records.jsonl", jsonl)]).unwrap_err();
    assert!(e.message.contains("paired comparison (`outcomes`)"), "{}", e.message);
    let trace = "{\"query_index\": 1, \"tenant_id\": \"locomo_conv-26\", \"returned_ids_full\": [\"m1\"]}\n";
    let e = read_all(&[file("trace.jsonl", trace)]).unwrap_err();
    for said in ["minimal_target_mappings.jsonl", "run.sqlite", "expected_memory_ids", "read as outcomes", "line 1"] {
        assert!(e.to_string().contains(said), "{said}: {e}");
    }
}

/// Two MTEL-Mem pipeline traces as a reviewer drops them: routed to the paired comparison by
/// their content, one run per file, paired by query, the answer F1 compared; `hit` from
/// `hit_ranks` on request.
#[test]
fn pipeline_traces_are_compared_as_one_run_per_file() {
    use memaudit::capability::{FileRole, assign_roles, quiet, run_once};
    use memaudit::compare::{Compare, CompareRequest};
    use memaudit::ingest::InputFile;
    let line = |q: usize, ranks: &str, f1: f64| {
        format!(
            "{{\"query_index\": {q}, \"tenant_id\": \"t\", \"category_label\": \"c{}\", \"returned_ids_topk\": [\"a\", \"b\"], \"hit_ranks\": {ranks}, \"f1_generated\": {f1}, \"two_pass_performed\": false}}\n",
            q % 2
        )
    };
    let a: String = (1..=6).map(|q| line(q, if q % 3 == 0 { "[]" } else { "[1]" }, 0.5)).collect();
    let b: String = (1..=6).map(|q| line(q, if q % 2 == 0 { "[2]" } else { "[]" }, 0.25)).collect();
    let files = assign_roles::<Compare>(vec![
        (InputFile::new("lexical/trace.jsonl", a.into_bytes()), None),
        (InputFile::new("minilm/trace.jsonl", b.into_bytes()), None),
    ])
    .unwrap();
    assert!(files.iter().all(|f| f.role == FileRole::Outcomes));
    let (_, r) = run_once::<Compare>(&files, &CompareRequest::default(), &mut quiet()).unwrap();
    let json = serde_json::to_value(&r).unwrap();
    let arms: Vec<(String, f64)> = json["arms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["arm"].as_str().unwrap().to_string(), a["mean"].as_f64().unwrap()))
        .collect();
    assert_eq!(arms.len(), 2, "{arms:?}");
    assert!(arms.iter().any(|(_, m)| *m == 0.5) && arms.iter().any(|(_, m)| *m == 0.25), "the answer F1: {arms:?}");
    let q = CompareRequest {
        spec: memaudit::compare::SpecChoice { value: Some("hit".into()), ..Default::default() },
        ..CompareRequest::default()
    };
    let (_, r) = run_once::<Compare>(&files, &q, &mut quiet()).unwrap();
    let json = serde_json::to_value(&r).unwrap();
    let means: Vec<f64> = json["arms"].as_array().unwrap().iter().map(|a| a["mean"].as_f64().unwrap()).collect();
    assert!(means.contains(&(4.0 / 6.0)) && means.contains(&0.5), "hit: {means:?}");
}

#[test]
fn ranx_json_and_trec_test_suite_files_rescore() {
    let shared = common::fixture("ranx/qrels.json");
    let run = common::fixture("ranx/run.json");
    let ds = Dataset::build(read_all(&[shared, run]).unwrap());
    assert_eq!(ds.systems, ["run"]);
    let r = rescore(&ds, &Settings::default(), &mut |_| {});
    // ranx's fixture ranks every relevant document first: nDCG 1 on both queries.
    for q in 0..ds.queries.len() {
        assert_eq!(r.cell(0, q, Target::Raw).score.as_ref().unwrap().ndcg, 1.0);
    }
    // trec_eval's own test files: comment lines, a run line with extra fields, '#' in docnos;
    // a topic judged without a relevant document is scored 0 and kept in the mean.
    let qrels = "# comment here\nt1 0 doc#1 1\n# and here\nt1 0 doc#2 0\nt2 0 doc#3 0\n";
    let run =
        "t1 Q0 doc#2 1 0.9 sys extra fields\nt1 Q0 doc#1 2 0.8 sys\nt2 Q0 doc#3 1 0.5 sys\nt2 Q0 doc#9 2 0.4 sys\n";
    let ds = Dataset::build(read_all(&[file("q.qrels", qrels), file("r.run", run)]).unwrap());
    let r = rescore(&ds, &Settings::default(), &mut |_| {});
    let t2 = ds.query_index("t2").unwrap() as usize;
    assert!(r.is_eligible(0, t2, Target::Raw));
    assert_eq!(r.cell(0, t2, Target::Raw).score.as_ref().unwrap().mrr, 0.0);
    assert_eq!(ds.warnings.count(WarningKind::JudgedWithoutRelevant), 1);
    assert_eq!(ds.warnings.count(WarningKind::UnjudgedDocuments), 1, "one count for the run");
    let unjudged = ds.warnings.get(WarningKind::UnjudgedDocuments).unwrap();
    assert_eq!(unjudged.examples, ["system `sys`: 1 retrieved documents"]);
}
