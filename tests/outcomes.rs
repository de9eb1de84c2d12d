//! The outcomes reader and the pairing validator (`memaudit::outcomes`): every accepted format
//! on small inline examples, errors naming file/line/field, the real reclaim-eval and
//! BriefBench files in `../shared/fixtures/external`, memaudit's own rescoring rows, and
//! property tests that the readers never panic.

use crate::common;

use std::io::Write;

use memaudit::audit::Report;
use memaudit::conventions::Settings;
use memaudit::dataset::Dataset;
use memaudit::error::IngestError;
use memaudit::ingest::{InputFile, read_all};
use memaudit::outcomes::*;
use proptest::prelude::*;

fn read(name: &str, text: &str) -> Result<OutcomeTable, IngestError> {
    read_outcomes(&common::file(name, text), &ReadOptions::default())
}

fn read_as(name: &str, text: &str, format: OutcomeFormat) -> Result<OutcomeTable, IngestError> {
    read_outcomes(&common::file(name, text), &ReadOptions { format: Some(format) })
}

fn gzip(text: &str) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(text.as_bytes()).unwrap();
    enc.finish().unwrap()
}

fn strict() -> PairingOptions {
    PairingOptions::default()
}

fn where_(e: &IngestError) -> (&str, Option<usize>, Option<&str>) {
    (e.location.file.as_str(), e.location.line, e.location.field.as_deref())
}

// ---------------------------------------------------------------------------------------------
// Every format, inline.

#[test]
fn long_csv_end_to_end() {
    let text = "task_id,system,dataset,correct\nt1,bm25,a,1\nt1,dense,a,0\nt2,bm25,b,0\nt2,dense,b,1\nt3,bm25,b,1\nt3,dense,b,1\n";
    let t = read("results.csv", text).unwrap();
    assert_eq!(t.format, OutcomeFormat::LongCsv);
    let spec = infer_spec(&t);
    assert_eq!(
        (spec.key.as_slice(), spec.arm.as_slice(), spec.value.as_str()),
        (&["task_id".to_string()][..], &["system".to_string()][..], "correct")
    );
    assert_eq!(spec.strata, ["dataset"]);
    let p = pair_for_test(&t, &spec, &strict()).unwrap();
    assert_eq!(p.arms, ["bm25", "dense"]);
    assert_eq!(p.items, ["t1", "t2", "t3"]);
    assert_eq!(p.values, [[Some(1.0), Some(0.0)], [Some(0.0), Some(1.0)], [Some(1.0), Some(1.0)]]);
    assert_eq!(p.strata[1]["dataset"], "b");
}

#[test]
fn long_jsonl_nested_and_booleans() {
    let text = r#"{"item": "q1", "config": "A", "eval": {"passed": true, "score": 0.5}}
{"item": "q1", "config": "B", "eval": {"passed": false, "score": 0.25}}
{"item": "q2", "config": "A", "eval": {"passed": true, "score": 1}}
{"item": "q2", "config": "B", "eval": {"passed": true, "score": 0.75}}
"#;
    let t = read("runs.jsonl", text).unwrap();
    assert_eq!(t.format, OutcomeFormat::LongJson);
    assert_eq!(t.column("eval.passed").unwrap().kind, ColumnKind::Binary);
    let spec = infer_spec(&t);
    assert_eq!(spec.value, "eval.passed");
    assert_eq!(spec.arm, ["config"]);
    let p = pair_for_test(&t, &spec, &strict()).unwrap();
    assert_eq!(p.values, [[Some(1.0), Some(0.0)], [Some(1.0), Some(1.0)]]);
    let p = pair_for_test(&t, &Spec::new(&["item"], &["config"], "eval.score"), &strict()).unwrap();
    assert_eq!(p.values[0], [Some(0.5), Some(0.25)]);
}

#[test]
fn wide_csv_detected_or_forced() {
    let text = "question,bm25,dense,hybrid\nq1,1,0,1\nq2,0,0,1\nq3,1,1,0\n";
    let t = read("wide.csv", text).unwrap();
    assert_eq!(t.format, OutcomeFormat::WideCsv);
    let p = pair_for_test(&t, &infer_spec(&t), &strict()).unwrap();
    assert_eq!(p.arms, ["bm25", "dense", "hybrid"]);
    assert_eq!(p.values[1], [Some(0.0), Some(0.0), Some(1.0)]);
    // A wide file whose item column repeats is read long unless forced.
    let text = "question,bm25,dense\nq1,1,0\nq1,0,1\n";
    assert_eq!(read("w.csv", text).unwrap().format, OutcomeFormat::LongCsv);
    let t = read_as("w.csv", text, OutcomeFormat::WideCsv).unwrap();
    let e = pair_for_test(&t, &infer_spec(&t), &strict()).unwrap_err();
    assert!(e.to_string().contains("does not identify one row per arm"), "{e}");
    // And a file detected wide can be forced long.
    let t = read_as("w.csv", "question,bm25,dense\nq1,1,0\n", OutcomeFormat::LongCsv).unwrap();
    assert_eq!((t.format, t.rows.len()), (OutcomeFormat::LongCsv, 1));
}

#[test]
fn reclaim_eval_inline() {
    let text = r#"{"pid": "notebooks", "policy": "lossy", "seed": 0, "correct": false, "answer": 55.0}
{"pid": "notebooks", "policy": "source_first", "seed": 0, "correct": true, "answer": 46.0}
{"pid": "notebooks", "policy": "lossy", "seed": 1, "correct": false, "answer": null}
{"pid": "notebooks", "policy": "source_first", "seed": 1, "correct": true, "answer": 46.0}
"#;
    let t = read("srcconcl.jsonl", text).unwrap();
    assert_eq!(t.format, OutcomeFormat::ReclaimEval);
    let spec = infer_spec(&t);
    assert_eq!(
        (spec.key.as_slice(), spec.arm.as_slice()),
        (&["pid".to_string(), "seed".to_string()][..], &["policy".to_string()][..])
    );
    let p = pair_for_test(&t, &spec, &strict()).unwrap();
    assert_eq!(p.items, ["notebooks | 0", "notebooks | 1"]);
    assert_eq!(p.item_keys[1], ["notebooks", "1"]);
}

#[test]
fn judge_files_one_per_configuration() {
    let a = r#"{"question_id": "conv-26_qa1", "category": 1, "llm_judgments": {"judgment_1": true, "judgment_2": true, "judgment_3": false}}
{"question_id": "conv-26_qa2", "category": 2, "llm_judgments": {"judgment_1": false, "judgment_2": false, "judgment_3": true}}
"#;
    let b = r#"{"question_id": "conv-26_qa2", "category": 2, "llm_judgments": {"judgment_1": true, "judgment_2": true, "judgment_3": true}}
{"question_id": "conv-26_qa1", "category": 1, "llm_judgments": {"judgment_1": false, "judgment_2": true, "judgment_3": false}}
"#;
    let files = [common::file("judged/mem0.jsonl", a), InputFile::new("judged/zep.jsonl.gz", gzip(b))];
    let t = read_outcome_files(&files, &ReadOptions::default()).unwrap();
    assert_eq!(t.format, OutcomeFormat::JudgeFile);
    assert!(t.files[1].gzip);
    assert_eq!(t.warnings.count(OutcomeWarningKind::ArmFromFileName), 4);
    let spec = infer_spec(&t);
    assert_eq!(spec.arm, ["arm"]);
    assert_eq!(spec.key, ["question_id"]);
    assert_eq!(spec.judgment, Some(JudgmentChoice::Majority));
    let p = pair_for_test(&t, &spec, &strict()).unwrap();
    assert_eq!(p.arms, ["mem0", "zep"]);
    assert_eq!(p.items, ["conv-26_qa1", "conv-26_qa2"]);
    assert_eq!(p.values, [[Some(1.0), Some(0.0)], [Some(0.0), Some(1.0)]]);
    let first = spec.clone().with_judgment(JudgmentChoice::Judgment(1));
    let p = pair_for_test(&t, &first, &strict()).unwrap();
    assert_eq!(p.values, [[Some(1.0), Some(0.0)], [Some(0.0), Some(1.0)]]);
    let third = spec.with_judgment(JudgmentChoice::Judgment(3));
    assert_eq!(pair_for_test(&t, &third, &strict()).unwrap().values[0], [Some(0.0), Some(0.0)]);
}

#[test]
fn judge_majority_tie_is_zero_and_counted() {
    let a = "{\"question_id\":\"q1\",\"llm_judgments\":{\"judgment_1\":true,\"judgment_2\":false}}\n";
    let b = "{\"question_id\":\"q1\",\"llm_judgments\":{\"judgment_1\":true,\"judgment_2\":true}}\n";
    let t =
        read_outcome_files(&[common::file("a.jsonl", a), common::file("b.jsonl", b)], &ReadOptions::default()).unwrap();
    let p = pair_for_test(&t, &infer_spec(&t), &strict()).unwrap();
    assert_eq!(p.values, [[Some(0.0), Some(1.0)]]);
    let w = p.report.warnings.get(OutcomeWarningKind::JudgmentTie).unwrap();
    assert_eq!(w.count, 1);
    assert!(w.examples[0].contains("a.jsonl, line 1"), "{:?}", w.examples);
}

/// A file with a header and no row is refused by name: beside other files it would take its
/// system out of the comparison unsaid (the files are the arms), alone it leaves nothing.
#[test]
fn a_file_without_rows_is_refused_not_dropped() {
    let a = "query_id,correct\nq1,1\nq2,0\n";
    let empty = "query_id,correct\n";
    let c = "query_id,correct\nq1,1\nq2,1\n";
    let files = [common::file("sysA.csv", a), common::file("sysB.csv", empty), common::file("sysC.csv", c)];
    let e = read_outcome_files(&files, &ReadOptions::default()).unwrap_err();
    let text = e.to_string();
    assert!(text.starts_with("sysB.csv: holds no outcome rows"), "{text}");
    assert!(text.contains("leave the file out"), "{text}");
    let alone = read_outcome_files(&[common::file("sysB.csv", empty)], &ReadOptions::default()).unwrap_err();
    assert!(alone.to_string().contains("there is nothing to compare"), "{alone}");
    // The other files alone read as before.
    let t = read_outcome_files(&[files[0].clone(), files[2].clone()], &ReadOptions::default()).unwrap();
    assert_eq!(t.rows.len(), 4);
}

const MTEL: &str = "run_id,dataset,system_label,parser_max_facts,query_index,category,category_label,qa_f1_generated,\
raw_eligible,raw_hit_at_k,raw_top1,raw_mrr,raw_ndcg,source_eligible,source_hit_at_k,source_top1,source_mrr,source_ndcg,\
canonical_eligible,canonical_hit_at_k,canonical_top1,canonical_mrr,canonical_ndcg\n\
run-a,locomo,bm25,5,0,1,multi-hop,0.5,True,True,False,0.5,0.63,True,True,True,1.0,1.0,False,,,,\n\
run-a,locomo,bm25,5,1,2,single-hop,0.0,True,False,False,0.0,0.0,True,True,False,0.25,0.43,True,True,False,0.25,0.43\n\
run-b,locomo,dense,5,0,1,multi-hop,0.7,True,True,True,1.0,1.0,True,True,True,1.0,1.0,False,,,,\n\
run-b,locomo,dense,5,1,2,single-hop,0.2,True,True,False,0.5,0.5,True,True,True,1.0,0.9,True,False,False,0.0,0.0\n";

#[test]
fn mtel_records_reshaped() {
    let t = read("query_target_alignment.records.csv", MTEL).unwrap();
    assert_eq!(t.format, OutcomeFormat::MtelRecords);
    assert_eq!(t.rows.len(), 12, "4 lines × 3 targets");
    let spec = infer_spec(&t);
    assert_eq!(spec.arm, ["run_id", "target"]);
    assert_eq!(spec.key, ["dataset", "query_index"]);
    assert_eq!(spec.value, "ndcg");
    let p = pair(&t, &spec, &strict()).unwrap();
    assert_eq!(
        p.arms,
        ["run-a/raw", "run-a/source", "run-a/canonical", "run-b/raw", "run-b/source", "run-b/canonical"]
    );
    assert_eq!(p.items, ["locomo | 0", "locomo | 1"]);
    // Query 0 is not canonical-eligible: missing, not 0.
    assert_eq!(p.values[0][2], None);
    assert_eq!(p.values[1][2], Some(0.43));
    assert!(!p.report.is_paired);
    let e = pair_for_test(&t, &spec, &strict()).unwrap_err();
    assert!(e.to_string().contains("no value for 1 items"), "{e}");
    let p = pair_for_test(&t, &spec, &PairingOptions { allow_incomplete: true, ..strict() }).unwrap();
    assert_eq!(p.items, ["locomo | 1"]);
    // One target, by system label, on hit@k: fully paired.
    let raw =
        Spec::new(&["dataset", "query_index"], &["system_label", "target"], "hit_at_k").with_filter("target", &["raw"]);
    let p = pair_for_test(&t, &raw, &strict()).unwrap();
    assert_eq!(p.arms, ["bm25/raw", "dense/raw"]);
    assert_eq!(p.values, [[Some(1.0), Some(1.0)], [Some(0.0), Some(1.0)]]);
    assert_eq!(p.report.rows_filtered, 8);
}

/// memaudit's own rescoring of the demo bundle, through every container the rows come in.
fn demo_report() -> Report {
    let files = common::demo_files();
    let ds = Dataset::build(read_all(&files).unwrap());
    memaudit::audit::run(&ds, &Settings::default(), &mut |_, _| {})
}

#[test]
fn rescoring_per_query_rows() {
    let report = demo_report();
    let direct = from_per_query("report", &report.per_query);
    let json = serde_json::to_string(&report).unwrap();
    let pretty = serde_json::to_string_pretty(&report).unwrap();
    let per_query_array = serde_json::to_string_pretty(&report.per_query).unwrap();
    let jsonl: String = report.per_query.iter().map(|r| serde_json::to_string(r).unwrap() + "\n").collect();
    let csv = memaudit::audit::table::table(&report, memaudit::audit::RescoreTable::PerQuery).to_csv().unwrap();
    for (name, text) in [
        ("report.json", json.as_str()),
        ("report.pretty.json", &pretty),
        ("per_query.json", &per_query_array),
        ("per_query.jsonl", &jsonl),
        ("per_query.csv", &csv),
    ] {
        let t = read(name, text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(t.format, OutcomeFormat::RescorePerQuery, "{name}");
        assert_eq!(t.rows.len(), report.per_query.len(), "{name}");
        // serde_json parses floats to within one ulp (its `float_roundtrip` feature is off);
        // CSV numbers are exact.
        let close = |x: f64, y: f64| (x - y).abs() <= 4.0 * f64::EPSILON * x.abs().max(1.0);
        assert_eq!(t.rows.len(), direct.rows.len(), "{name}: rows");
        for (a, b) in t.rows.iter().zip(&direct.rows) {
            assert_eq!(a.fields.keys().collect::<Vec<_>>(), b.fields.keys().collect::<Vec<_>>(), "{name}");
            assert_eq!(a.values.keys().collect::<Vec<_>>(), b.values.keys().collect::<Vec<_>>(), "{name}");
            for (k, v) in &a.values {
                assert!(close(*v, b.values[k]), "{name} {k}: {v} vs {}", b.values[k]);
            }
            for (k, v) in &a.fields {
                assert!(a.values.contains_key(k) || *v == b.fields[k], "{name} {k}");
            }
            if name.ends_with(".csv") {
                assert_eq!((&a.fields, &a.values), (&b.fields, &b.values), "{name}");
                assert_eq!(a.line, b.line + 1, "{name}: the header is line 1");
            }
        }
    }
    // Pretty JSON: each row's line is where its object starts.
    let t = read("report.pretty.json", &pretty).unwrap();
    let line = t.rows[1].line;
    assert!(pretty.lines().nth(line - 1).unwrap().trim_start().starts_with('{'), "line {line}");
    assert!(t.rows[1].line > t.rows[0].line);

    let spec = infer_spec(&direct);
    assert_eq!(spec.arm, ["system", "target"]);
    assert_eq!(spec.key, ["query_id"]);
    assert_eq!(spec.value, "ndcg");
    let p = pair(&direct, &spec, &strict()).unwrap();
    assert_eq!(p.report.n_arms, report.systems.len() * report.targets.len());
    // Every value is the report's own number; non-eligible rows are missing, never 0.
    for r in &report.per_query {
        let a = p.arm_index(&format!("{}/{}", r.system, r.target.name())).unwrap();
        let i = p.items.iter().position(|q| *q == r.query_id).unwrap();
        assert_eq!(p.values[i][a], if r.eligible { r.ndcg } else { None });
    }
    let eligible_everywhere = p.values.iter().filter(|v| v.iter().all(Option::is_some)).count();
    assert_eq!(p.report.complete_items, eligible_everywhere);
    if eligible_everywhere < p.items.len() {
        let e = pair_for_test(&direct, &spec, &strict()).unwrap_err();
        let m = cli_words(&e.to_string());
        assert!(m.contains("missing, not 0") && m.contains("--allow-incomplete"), "{m}");
        let q = pair_for_test(&direct, &spec, &PairingOptions { allow_incomplete: true, ..strict() }).unwrap();
        assert_eq!(q.items.len(), eligible_everywhere);
    }
    // Systems compared on Raw only: every query with a Raw group is there for every system.
    let raw = spec.clone().with_filter("target", &["raw"]);
    let p = pair(&direct, &raw, &strict()).unwrap();
    assert_eq!(p.arms.len(), report.systems.len());
    assert!(p.arm_values(0).iter().flatten().all(|v| (0.0..=1.0).contains(v)));
}

#[test]
fn gzip_is_accepted_for_every_reader() {
    let t =
        read_outcomes(&InputFile::new("w.csv.gz", gzip("item,bm25,dense\nq1,1,0\nq2,0,1\n")), &ReadOptions::default())
            .unwrap();
    assert_eq!((t.format, t.files[0].gzip, t.rows.len()), (OutcomeFormat::WideCsv, true, 4));
    let t = read_outcomes(&InputFile::new("m.csv.gz", gzip(MTEL)), &ReadOptions::default()).unwrap();
    assert_eq!(t.format, OutcomeFormat::MtelRecords);
    let e = read_outcomes(&InputFile::new("bad.gz", vec![0x1f, 0x8b, 1, 2, 3]), &ReadOptions::default()).unwrap_err();
    assert!(e.message.contains("gzip"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Errors name file, line and field.

#[test]
fn every_reader_error_names_file_line_and_field() {
    let cases: Vec<(&str, String, Option<OutcomeFormat>, usize, &str)> = vec![
        ("long.csv", "item,arm,correct\nq1,a,1\nq1,b\n".into(), None, 3, "correct"),
        ("long.csv", "item,arm,item\nq1,a,1\n".into(), None, 1, "item"),
        ("wide.csv", "item,bm25,dense\nq1,1,high\n".into(), Some(OutcomeFormat::WideCsv), 2, "dense"),
        ("long.jsonl", "{\"item\":\"q1\"}\n{\"item\":\"q2\",\"m\":{\"x\":1},\"m.x\":2}\n".into(), None, 2, "m.x"),
        (
            "reclaim.jsonl",
            "{\"pid\":\"p\",\"seed\":0,\"policy\":\"a\",\"correct\":true}\n{\"pid\":\"p\",\"seed\":\"one\",\"policy\":\"b\",\"correct\":true}\n".into(),
            None,
            2,
            "seed",
        ),
        (
            "judge.jsonl",
            "{\"question_id\":\"q1\",\"llm_judgments\":{\"judgment_1\":true}}\n\n{\"question_id\":\"q2\",\"llm_judgments\":{\"judgment_1\":\"perhaps\"}}\n".into(),
            None,
            3,
            "llm_judgments.judgment_1",
        ),
        ("records.csv", MTEL.replace("0.5,0.63", "0.5,n.d."), None, 2, "raw_ndcg"),
        ("records.csv", MTEL.replace("run-b,locomo,dense,5,1,", "run-b,locomo,dense,5,,"), None, 5, "query_index"),
        (
            "per_query.csv",
            "system,query_id,target,eligible,ndcg\ns,q1,raw,true,0.5\ns,q1,sideways,true,0.5\n".into(),
            None,
            3,
            "target",
        ),
        (
            "per_query.jsonl",
            "{\"system\":\"s\",\"query_id\":\"q\",\"target\":\"raw\",\"eligible\":\"yes\",\"has_run\":true,\"groups\":1,\"groups_hit\":0}\n".into(),
            None,
            1,
            "eligible",
        ),
    ];
    for (name, text, format, line, field) in cases {
        let e = read_outcomes(&common::file(name, &text), &ReadOptions { format }).unwrap_err();
        assert_eq!(where_(&e), (name, Some(line), Some(field)), "{name}: {e}");
        assert!(e.to_string().starts_with(&format!("{name}, line {line}, field `{field}`")), "{e}");
    }
    // Syntax errors name the line (and the column in the message).
    let e = read("bad.jsonl", "{\"a\":1}\n{\"a\":}\n").unwrap_err();
    assert_eq!(where_(&e), ("bad.jsonl", Some(2), None));
    assert!(e.message.contains("column"), "{e}");
}

#[test]
fn pairing_errors_name_file_line_and_field() {
    let t = read_outcome_files(
        &[common::file("a.csv", "item,arm,answer\nq1,x,1\n"), common::file("b.csv", "item,arm,answer\nq1,y,Ana\n")],
        &ReadOptions::default(),
    )
    .unwrap();
    let PairingError::Record(e) = pair(&t, &Spec::new(&["item"], &["arm"], "answer"), &strict()).unwrap_err() else {
        panic!()
    };
    assert_eq!(where_(&e), ("b.csv", Some(2), Some("answer")));
    let t = read("k.jsonl", "{\"item\":\"q1\",\"arm\":\"x\",\"v\":1}\n{\"arm\":\"y\",\"v\":1}\n").unwrap();
    let PairingError::Record(e) = pair(&t, &Spec::new(&["item"], &["arm"], "v"), &strict()).unwrap_err() else {
        panic!()
    };
    assert_eq!(where_(&e), ("k.jsonl", Some(2), Some("item")));
}

// ---------------------------------------------------------------------------------------------
// Real files: reclaim-eval (counts from the fixtures README) and BriefBench.

const REALWORLD_ARITH: &str = "reclaim-eval/realworld_meta-llama_llama-3.1-8b-instruct_arith_t0.7.jsonl";
const REALWORLD_LOGIC: &str = "reclaim-eval/realworld_meta-llama_llama-3.1-8b-instruct_logic_t0.7_sonnetwriter.jsonl";
const GROK_FIX: &str = "reclaim-eval/fix_x-ai_grok-4.3-20260430_arith.jsonl";
const SRCCONCL: &str = "reclaim-eval/srcconcl_llama_arith.jsonl";

fn fixture(rel: &str) -> OutcomeTable {
    read_outcomes(&common::fixture(rel), &ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn reclaim_eval_row_counts() {
    for (rel, rows) in [(REALWORLD_ARITH, 1152), (REALWORLD_LOGIC, 240), (GROK_FIX, 576), (SRCCONCL, 288)] {
        let t = fixture(rel);
        assert_eq!(t.format, OutcomeFormat::ReclaimEval, "{rel}");
        assert_eq!(t.rows.len(), rows, "{rel}");
        assert_eq!(t.column("correct").unwrap().kind, ColumnKind::Binary, "{rel}");
        assert_eq!(t.column("correct").unwrap().missing, 0, "{rel}");
    }
    assert_eq!(fixture(REALWORLD_ARITH).column("src_nums").unwrap().missing, 1152 - 960);
}

#[test]
fn reclaim_srcconcl_pairs_by_pid_and_seed() {
    let t = fixture(SRCCONCL);
    let spec = Spec::new(&["pid", "seed"], &["policy"], "correct");
    let p = pair_for_test(&t, &spec, &strict()).unwrap();
    assert_eq!(p.arms, ["lossy", "source_first", "source_plus_conclusion"]);
    assert_eq!(p.items.len(), 96, "32 pids × 3 seeds");
    assert!(p.report.is_paired);
    assert_eq!(p.report.duplicates.cells, 0);
    let correct: f64 = p.values.iter().flatten().flatten().sum();
    assert_eq!(correct, 187.0);
    // The inferred spec is the same.
    let inferred = infer_spec(&t);
    assert_eq!((inferred.key.clone(), inferred.arm.clone(), inferred.value.clone()), (spec.key, spec.arm, spec.value));
    assert!(
        inferred.reasons.iter().any(|r| r == "arm = `policy` (3 values: lossy, source_first, source_plus_conclusion)"),
        "{:?}",
        inferred.reasons
    );

    // Key pid alone: three seeds per (pid, policy) → refused, then averaged on request.
    let by_pid = Spec::new(&["pid"], &["policy"], "correct");
    let e = pair_for_test(&t, &by_pid, &strict()).unwrap_err();
    let PairingError::Unpaired { message, report } = &e else { panic!("{e:?}") };
    let message = &cli_words(message);
    // The example in docs/outcomes.md §5, verbatim (as the command line words it).
    assert_eq!(
        message,
        "the pairing key (`pid`) does not identify one row per arm: 96 (item, arm) cells hold several rows (192 extra \
         rows), e.g. item `notebooks`, arm `lossy`: reclaim-eval/srcconcl_llama_arith.jsonl lines 1, 2, 3. Columns that \
         differ within those rows: `seed` (3 values), `answer` (70 values). Fix: adding `seed` (--key pid,seed) gives \
         one row per (item, arm), 96 of 96 items in every arm. Or set --aggregate to `mean` to average the repeated rows \
         of each (item, arm) (e.g. several seeds per item): the value becomes a mean."
    );
    assert_eq!((report.duplicates.cells, report.duplicates.surplus_rows), (96, 192));
    assert_eq!(report.duplicates.examples[0].rows.len(), 3);
    assert_eq!(report.duplicates.examples[0].rows[0].file, SRCCONCL);
    assert!(message.contains("adding `seed` (--key pid,seed)"), "{message}");
    assert!(message.contains("--aggregate to `mean`"), "{message}");
    let mean = PairingOptions { duplicates: Duplicates::Mean, ..strict() };
    let p = pair_for_test(&t, &by_pid, &mean).unwrap();
    assert_eq!(p.items.len(), 32);
    assert!(p.report.value.starts_with("mean of `correct`"), "{}", p.report.value);
    assert!(
        p.values
            .iter()
            .flatten()
            .flatten()
            .all(|v| [0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0].iter().any(|x| (x - v).abs() < 1e-12))
    );
    assert_eq!(p.report.warnings.count(OutcomeWarningKind::DuplicatesAveraged), 96);
}

#[test]
fn reclaim_realworld_pairs_by_variant() {
    for (rel, pids, variants) in [(REALWORLD_ARITH, 32, 6), (REALWORLD_LOGIC, 8, 5)] {
        let t = fixture(rel);
        // (pid, seed) leaves the prompt arm (generic / directed) as a repetition.
        let e = pair_for_test(&t, &Spec::new(&["pid", "seed"], &["variant"], "correct"), &strict()).unwrap_err();
        let m = cli_words(&e.to_string());
        assert!(m.contains("adding `arm` (--key pid,seed,arm)"), "{m}");
        let spec = Spec::new(&["pid", "seed", "arm"], &["variant"], "correct").with_strata(&["arm"]);
        let p = pair_for_test(&t, &spec, &strict()).unwrap();
        assert_eq!((p.items.len(), p.arms.len()), (pids * 3 * 2, variants), "{rel}");
        assert_eq!(p.strata[0]["arm"], "generic");
        let inferred = infer_spec(&t);
        assert_eq!(inferred.arm, ["variant"], "{rel}");
        assert_eq!(inferred.key, ["seed", "pid", "arm"], "{rel}");
        assert_eq!(inferred.value, "correct");
        // Averaging the two prompt arms per (pid, seed) on request.
        let mean = PairingOptions { duplicates: Duplicates::Mean, ..strict() };
        let p = pair_for_test(&t, &Spec::new(&["pid", "seed"], &["variant"], "correct"), &mean).unwrap();
        assert_eq!(p.items.len(), pids * 3);
    }
}

#[test]
fn reclaim_grok_fix_pairs_by_policy() {
    let t = fixture(GROK_FIX);
    let e = pair_for_test(&t, &Spec::new(&["pid", "seed"], &["policy"], "correct"), &strict()).unwrap_err();
    let m = cli_words(&e.to_string());
    assert!(m.contains("72 (item, arm) cells hold several rows (504 extra rows)"), "{m}");
    assert!(m.contains("--key pid,seed,integrity,arm"), "{m}");
    let spec = infer_spec(&t);
    assert_eq!(spec.arm, ["policy"]);
    assert_eq!(spec.key, ["pid", "seed", "integrity", "arm"]);
    assert_eq!(spec.strata, ["integrity", "arm"]);
    let p = pair_for_test(&t, &spec, &strict()).unwrap();
    assert_eq!(p.arms, ["lossy", "source_first", "lossy_padded"]);
    assert_eq!(p.items.len(), 8 * 3 * 4 * 2);
    // `model` differs with the policy (lossy_padded ran as `…_arith`): as a key part it would
    // split every item across arms.
    let split = Spec::new(&["pid", "seed", "integrity", "arm", "model"], &["policy"], "correct");
    let e = pair_for_test(&t, &split, &strict()).unwrap_err();
    assert!(e.to_string().contains("no item has a value in every arm"), "{e}");
    // One integrity level.
    let low = Spec::new(&["pid", "seed", "arm"], &["policy"], "correct").with_filter("integrity", &["0.1"]);
    assert_eq!(pair_for_test(&t, &low, &strict()).unwrap().items.len(), 48);
}

const BRIEFBENCH: &str = "BriefBench/all_rows_claude.jsonl";

#[test]
fn briefbench_rows_without_item_ids_are_refused() {
    let t = fixture(BRIEFBENCH);
    assert_eq!((t.format, t.rows.len()), (OutcomeFormat::LongJson, 1824));
    let spec = infer_spec(&t);
    assert_eq!((spec.arm.as_slice(), spec.value.as_str()), (&["arm".to_string()][..], "correct"));
    assert!(spec.key.is_empty(), "{:?}", spec.key);
    assert!(spec.reasons.iter().any(|r| r.contains("no column identifies the item")), "{:?}", spec.reasons);
    let e = pair_for_test(&t, &spec, &strict()).unwrap_err();
    let m = e.to_string();
    assert!(m.contains("no pairing key"), "{m}");
    assert!(m.contains("order within each (`dataset`, arm) group"), "{m}");
    assert!(m.contains("dataset = dcbench: 42, dataset = swebench: 54, dataset = synthetic: 120"), "{m}");
    assert!(m.contains("memaudit does not pair rows by position"), "{m}");

    // Any key built from its columns leaves repeated or unpaired items: every subset of the
    // categorical columns, and all columns but the arm and the value together.
    let cats = ["dataset", "model", "depth", "spec_variant", "chain_recovered"];
    for mask in 1u32..(1 << cats.len()) {
        let key: Vec<&str> = cats.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, c)| *c).collect();
        // --allow-incomplete does not help either: the refusal is about repeated rows.
        let opts = PairingOptions { allow_incomplete: mask % 2 == 0, ..strict() };
        let e = pair_for_test(&t, &Spec::new(&key, &["arm"], "correct"), &opts).unwrap_err();
        let PairingError::Unpaired { message, report } = &e else { panic!("{key:?}: {e:?}") };
        assert!(report.duplicates.cells > 0, "{key:?}");
        assert!(message.contains("does not identify one row per arm"), "{key:?}: {message}");
        assert!(message.contains("memaudit does not pair rows by position"), "{key:?}: {message}");
    }
    let all: Vec<&str> = t.columns.iter().map(|c| c.name.as_str()).filter(|c| *c != "arm" && *c != "correct").collect();
    let e = pair_for_test(&t, &Spec::new(&all, &["arm"], "correct"), &strict()).unwrap_err();
    let PairingError::Unpaired { report, .. } = &e else { panic!("{e:?}") };
    assert!(report.complete_items < report.n_items, "{report:?}");
    assert!(e.to_string().contains("memaudit does not pair rows by position"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Properties: the readers never panic; the validator's counts are consistent.

/// Valid inputs of every format, mutated character by character.
fn seeds() -> Vec<String> {
    vec![
        "item,arm,correct\nq1,a,1\nq1,b,0\n".into(),
        "question,bm25,dense\nq1,1,0\nq2,0,NA\n".into(),
        "{\"pid\":\"p\",\"seed\":0,\"policy\":\"lossy\",\"correct\":true,\"answer\":null}\n{\"pid\":\"p\",\"seed\":0,\"policy\":\"sf\",\"correct\":false}\n".into(),
        "{\"question_id\":\"q\",\"llm_judgments\":{\"judgment_1\":true,\"judgment_2\":false}}\n".into(),
        "{\n \"detailed_results\": {\"c\": [\n  {\"question_id\": \"q\", \"llm_judgments\": {\"judgment_1\": true}}\n ]}\n}".into(),
        MTEL.lines().take(3).collect::<Vec<_>>().join("\n"),
        "system,query_id,target,eligible,ndcg\ns,q,raw,true,0.5\ns,q,canonical,false,\n".into(),
        "{\"per_query\":[{\"system\":\"s\",\"query_id\":\"q\",\"target\":\"raw\",\"eligible\":true,\"ndcg\":1,\"has_run\":true,\"groups\":1,\"groups_hit\":1}]}".into(),
        "[{\"item\":\"a\",\"arm\":\"x\",\"v\":{\"w\":[1,2]}}]".into(),
    ]
}

/// The first 20 lines of real files (reclaim-eval, BriefBench, and the demo rescoring CSV).
fn real_heads() -> &'static [String; 3] {
    static HEADS: std::sync::OnceLock<[String; 3]> = std::sync::OnceLock::new();
    HEADS.get_or_init(|| {
        let head = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap().lines().take(20).collect::<Vec<_>>().join("\n");
        let csv =
            memaudit::audit::table::table(&demo_report(), memaudit::audit::RescoreTable::PerQuery).to_csv().unwrap();
        [
            head(common::fixture(GROK_FIX).bytes().unwrap().into_owned()),
            head(common::fixture(BRIEFBENCH).bytes().unwrap().into_owned()),
            head(csv.into_bytes()),
        ]
    })
}

/// Reads with every format (detected and forced); whatever reads is inferred and paired.
fn exercise(name: &str, bytes: &[u8]) {
    let mut formats: Vec<Option<OutcomeFormat>> = vec![None];
    formats.extend(OutcomeFormat::ALL.iter().copied().map(Some));
    for format in formats {
        if let Ok(t) = read_outcomes(&InputFile::new(name, bytes.to_vec()), &ReadOptions { format }) {
            let spec = infer_spec(&t);
            for opts in [strict(), PairingOptions { duplicates: Duplicates::Mean, allow_incomplete: true }] {
                if let Ok(p) = pair(&t, &spec, &opts) {
                    check_report(&p);
                }
                let _ = pair_for_test(&t, &spec, &opts);
            }
        }
    }
}

fn check_report(p: &Paired) {
    let r = &p.report;
    assert_eq!(p.items.len(), p.values.len());
    assert_eq!(r.n_arms, p.arms.len());
    for (a, cov) in r.arms.iter().enumerate() {
        assert_eq!(cov.items_present + cov.items_without_row + cov.items_without_value, r.n_items);
        assert_eq!(cov.items_present, p.values.iter().filter(|v| v[a].is_some()).count());
    }
    assert!(r.complete_items <= r.n_items);
    assert_eq!(r.is_paired, r.message.is_none());
}

proptest! {
    #![proptest_config(common::proptest_config(256))]

    #[test]
    fn readers_never_panic_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        exercise("x", &bytes);
    }

    #[test]
    fn readers_never_panic_on_mutated_input(
        which in 0usize..9,
        ops in proptest::collection::vec((any::<u8>(), any::<usize>(), proptest::char::any()), 0..12),
    ) {
        let s = common::mutate(&seeds()[which % 9], &ops);
        exercise("m", s.as_bytes());
    }

    #[test]
    fn readers_never_panic_on_mutated_real_lines(
        which in 0usize..3,
        line in 0usize..20,
        ops in proptest::collection::vec((any::<u8>(), any::<usize>(), proptest::char::any()), 1..8),
    ) {
        let heads = real_heads();
        let lines: Vec<&str> = heads[which].lines().collect();
        let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        let i = line % out.len();
        out[i] = common::mutate(&out[i], &ops);
        exercise("real", out.join("\n").as_bytes());
    }

    #[test]
    fn readers_never_panic_on_structured_noise(
        lines in proptest::collection::vec(
            prop_oneof![
                Just("{".to_string()), Just("}".to_string()), Just("[".to_string()), Just("]".to_string()),
                Just("\"a\":".to_string()), Just(",".to_string()), Just("\"llm_judgments\"".to_string()),
                Just("\"per_query\":".to_string()), Just("null".to_string()), Just("true".to_string()),
                Just("1e400".to_string()), Just("\\\"".to_string()), Just("NA".to_string()), Just("\n".to_string()),
                "[a-z_,;\t\"]{0,6}",
            ],
            0..40,
        ),
    ) {
        exercise("n", lines.concat().as_bytes());
    }

    #[test]
    fn pairing_counts_are_consistent(
        cells in proptest::collection::vec((0u8..6, 0u8..3, proptest::option::of(0u8..2)), 0..40),
        mean in any::<bool>(),
        allow in any::<bool>(),
    ) {
        let mut text = String::from("item,arm,correct\n");
        for (i, a, v) in &cells {
            text.push_str(&format!("q{i},arm{a},{}\n", v.map(|v| v.to_string()).unwrap_or_default()));
        }
        let t = read_as("p.csv", &text, OutcomeFormat::LongCsv).unwrap();
        let spec = Spec::new(&["item"], &["arm"], "correct");
        let opts = PairingOptions { duplicates: if mean { Duplicates::Mean } else { Duplicates::Refuse }, allow_incomplete: allow };
        let p = pair(&t, &spec, &opts).unwrap();
        check_report(&p);
        match pair_for_test(&t, &spec, &opts) {
            Ok(q) => {
                prop_assert!(q.values.iter().all(|v| v.iter().all(Option::is_some)));
                prop_assert!(q.arms.len() >= 2 && !q.items.is_empty());
                prop_assert!(p.report.is_paired || allow);
            }
            Err(PairingError::Unpaired { message, report }) => {
                prop_assert!(!report.is_paired);
                prop_assert!(!message.is_empty());
            }
            Err(e) => prop_assert!(false, "unexpected {e:?}"),
        }
    }
}

/// A message as the command line prints it: a setting it mentions named by its option.
fn cli_words(message: &str) -> String {
    memaudit::fields::render_mentions(message, memaudit::command_line::word)
}

/// One stray cell that is not a number (`inf`) makes a column of outcomes text: the refusal
/// names the column, the cell and its line instead of "every column holds text".
#[test]
fn a_column_of_numbers_with_one_stray_cell_is_named_with_the_cell() {
    let t = read("nan.csv", "query_id,arm,correct\nq1,a,1\nq1,b,0\nq2,a,NaN\nq2,b,1\nq3,a,inf\nq3,b,0\n").unwrap();
    let e = pair_for_test(&t, &infer_spec(&t), &strict()).unwrap_err().to_string();
    assert!(e.contains("column `correct` holds numbers in 4 of its 5 cells, but not `inf` (nan.csv, line 6)"), "{e}");
    assert!(e.contains("leave it empty (or NA) to count it missing"), "{e}");
}
