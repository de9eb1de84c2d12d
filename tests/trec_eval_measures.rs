//! `memaudit trec-eval` against trec_eval itself.
//!
//! Reference values: `tests/reference/trec_eval/reference.json`, written once by
//! `make_reference.py` with pytrec-eval-terrier 0.5.11 (trec_eval compiled as a Python
//! extension; its trec_eval is 9.0.8, so those cases run with `TrecEvalVersion::V9`). Inputs:
//! TREC files built by that script (graded and negative judgments, ties, comments, extra
//! fields, `#` in docnos, topics without relevant documents or without results), the TREC CAsT
//! pair of ir_measures and the ranx JSON fixtures (`../shared/fixtures/external`).
//!
//! trec_eval 10 (the default) differs from 9 only where `ireval::measure::TrecEvalVersion`
//! says; those differences are checked here against an independent formula and hand-computed
//! cases.

use crate::common;

use std::path::PathBuf;

use memaudit::ireval::evaluate::EvalOptions;
use memaudit::ireval::measure::{Selection, TrecEvalVersion};
use memaudit::ireval::{Qrels, Run, evaluate, read_qrels, read_run, trec_eval_text};
use serde_json::Value as Json;

const TOL: f64 = 1e-12;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/trec_eval")
}

fn reference() -> Json {
    serde_json::from_str(&std::fs::read_to_string(dir().join("reference.json")).unwrap()).unwrap()
}

fn read(case: &str, path: &str) -> String {
    let p = if matches!(case, "ir_measures" | "ranx") {
        common::shared().join("fixtures/external").join(path)
    } else {
        dir().join(path)
    };
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn options(case: &Json, version: TrecEvalVersion) -> EvalOptions {
    let o = &case["options"];
    EvalOptions {
        relevance_level: o["relevance_level"].as_i64().unwrap_or(1),
        judged_only: o["judged_docs_only_flag"].as_bool().unwrap_or(false),
        version,
        ..EvalOptions::default()
    }
}

fn inputs(name: &str, case: &Json, run: &str) -> (Qrels, Run) {
    let qrels_path = case["qrels"].as_str().unwrap();
    let qrels = read_qrels(qrels_path, &read(name, qrels_path)).unwrap();
    (qrels, read_run(run, &read(name, run)).unwrap())
}

/// pytrec_eval names a parameterised single-value measure without its parameters.
fn our_name(spec: &str, key: &str) -> String {
    match spec.split_once('.') {
        Some((m, p)) if key == m => format!("{m}_{p}"),
        _ => key.to_string(),
    }
}

#[test]
fn every_value_equals_trec_eval_9_through_pytrec_eval() {
    let r = reference();
    let mut checked = 0;
    for (name, case) in r["cases"].as_object().unwrap() {
        for (run_name, expected) in case["runs"].as_object().unwrap() {
            let (qrels, run) = inputs(name, case, run_name);
            for (spec, topics) in expected["per_measure"].as_object().unwrap() {
                let selection = Selection::parse(std::slice::from_ref(spec), TrecEvalVersion::V9).unwrap();
                let e = evaluate(&qrels, &run, &selection, &options(case, TrecEvalVersion::V9)).unwrap();
                let topics = topics.as_object().unwrap();
                let ours: Vec<&str> = e.queries.iter().map(|q| q.qid.as_str()).collect();
                let mut theirs: Vec<&str> = topics.keys().map(String::as_str).collect();
                theirs.sort_unstable();
                assert_eq!(ours, theirs, "{name} {run_name} {spec}: evaluated topics");
                for q in &e.queries {
                    for (key, want) in topics[&q.qid].as_object().unwrap() {
                        let ours_name = our_name(spec, key);
                        let i = e.index_of(&ours_name).unwrap_or_else(|| panic!("{spec}: no value {ours_name}"));
                        let got = q.values[i].number().unwrap();
                        // JSON has no NaN: 0/0 (a topic -J left empty) is written "nan".
                        if want.as_str() == Some("nan") {
                            assert!(got.is_nan(), "{name} {run_name} topic {} {ours_name}: {got}, not NaN", q.qid);
                            checked += 1;
                            continue;
                        }
                        let want = want.as_f64().unwrap();
                        assert!(
                            (got - want).abs() <= TOL,
                            "{name} {run_name} topic {} {ours_name}: memaudit {got}, trec_eval {want}",
                            q.qid
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 15_000, "only {checked} values checked");
}

#[test]
fn official_summary_prints_what_trec_eval_prints() {
    let r = reference();
    for (name, case) in r["cases"].as_object().unwrap() {
        for (run_name, expected) in case["runs"].as_object().unwrap() {
            let (qrels, run) = inputs(name, case, run_name);
            let selection = Selection::parse(&[], TrecEvalVersion::V9).unwrap();
            let e = evaluate(&qrels, &run, &selection, &options(case, TrecEvalVersion::V9)).unwrap();
            assert_eq!(
                trec_eval_text(&e, false, true),
                expected["official_summary"].as_str().unwrap(),
                "{name} {run_name}"
            );
        }
    }
}

/// Interpolated precision at recall point x, from its definition: with c the cutoff (the
/// number of relevant documents x of R stands for), the best precision at any rank at or below
/// the c-th relevant document retrieved; 0 when fewer than c are retrieved.
fn interpolated(rels: &[bool], c: usize) -> f64 {
    let relret: Vec<usize> = rels
        .iter()
        .scan(0, |n, &r| {
            *n += r as usize;
            Some(*n)
        })
        .collect();
    let total = relret.last().copied().unwrap_or(0);
    if c > total || total == 0 {
        return 0.0;
    }
    let from = relret.iter().position(|&n| n >= c.max(1)).unwrap();
    (from..rels.len()).map(|i| relret[i] as f64 / (i + 1) as f64).fold(0.0, f64::max)
}

#[test]
fn trec_eval_10_rounds_recall_cutoffs_to_the_nearest_integer() {
    let r = reference();
    for (name, case) in r["cases"].as_object().unwrap() {
        if case["options"]["judged_docs_only_flag"].as_bool() == Some(true) {
            continue;
        }
        for run_name in case["runs"].as_object().unwrap().keys() {
            let (qrels, run) = inputs(name, case, run_name);
            let level = options(case, TrecEvalVersion::V10).relevance_level;
            for version in [TrecEvalVersion::V9, TrecEvalVersion::V10] {
                let selection = Selection::parse(&["iprec_at_recall".into()], version).unwrap();
                let e = evaluate(&qrels, &run, &selection, &options(case, version)).unwrap();
                for q in &e.queries {
                    let judged = qrels.query(&q.qid).unwrap();
                    let num_rel = judged.docs.iter().filter(|d| d.rel >= level).count();
                    let mut docs: Vec<_> = run.query(&q.qid).unwrap().docs.iter().collect();
                    let key = |s: f64| if version == TrecEvalVersion::V9 { s as f32 as f64 } else { s };
                    docs.sort_by(|a, b| key(b.sim).partial_cmp(&key(a.sim)).unwrap().then(b.docno.cmp(&a.docno)));
                    let rels: Vec<bool> =
                        docs.iter().map(|d| judged.rel_of(&d.docno).is_some_and(|r| r >= level)).collect();
                    for (i, v) in q.values.iter().enumerate() {
                        let x = i as f64 / 10.0;
                        let c = match version {
                            TrecEvalVersion::V10 => (x * num_rel as f64).round() as usize,
                            TrecEvalVersion::V9 => (x * num_rel as f64 + 0.9) as usize,
                        };
                        let want = interpolated(&rels, c);
                        assert!(
                            (v.number().unwrap() - want).abs() < 1e-12,
                            "{name} {run_name} {} {version} x={x}",
                            q.qid
                        );
                    }
                }
            }
        }
    }
}

fn eval_text(qrels: &str, run: &str, specs: &[&str], opts: EvalOptions, per_query: bool) -> String {
    let qrels = read_qrels("q", qrels).unwrap();
    let run = read_run("r", run).unwrap();
    let s = Selection::parse(&specs.iter().map(|s| s.to_string()).collect::<Vec<_>>(), opts.version).unwrap();
    trec_eval_text(&evaluate(&qrels, &run, &s, &opts).unwrap(), per_query, true)
}

/// Hand-computed: gains `1=3,2=9` on a ranking [rel 1, rel 0, rel 2, unjudged], with judgments
/// of levels 0, 1, 2 and one more level-2 document never retrieved; utility 2·relret − nonrel
/// = 2·2 − 2.
#[test]
fn ndcg_with_level_gains_by_hand() {
    let qrels = "1 0 a 1\n1 0 b 0\n1 0 c 2\n1 0 d 2\n";
    let run = "1 Q0 a 1 4 r\n1 Q0 b 2 3 r\n1 Q0 c 3 2 r\n1 Q0 x 4 1 r\n";
    let dcg = 3.0 + 9.0 / 4f64.log2();
    let ideal = 9.0 + 9.0 / 3f64.log2() + 3.0 / 4f64.log2();
    let text = eval_text(qrels, run, &["ndcg.1=3,2=9", "relstring", "utility.2,-1,0,0"], EvalOptions::default(), true);
    let want = format!(
        "relstring             \t1\t'102-'\nutility_2,-1,0,0      \t1\t2.0000\nndcg_1=3,2=9          \t1\t{:6.4}\nutility_2,-1,0,0      \tall\t2.0000\nndcg_1=3,2=9          \tall\t{:6.4}\n",
        dcg / ideal,
        dcg / ideal
    );
    assert_eq!(text, want);
}

/// `-c`: a qrels topic without results scores 0 and is averaged in; trec_eval 10 prints it per
/// query (a ranking of one document nobody judged, `num_ret` reset to 0), trec_eval 9 does not.
#[test]
fn complete_averaging_by_version() {
    let qrels = "1 0 a 1\n2 0 b 1\n";
    let run = "1 Q0 a 1 1 r\n";
    for version in [TrecEvalVersion::V10, TrecEvalVersion::V9] {
        let opts = EvalOptions { complete: true, version, ..EvalOptions::default() };
        let text = eval_text(qrels, run, &["map", "num_ret", "num_q", "gm_map"], opts, true);
        let per_query_2 = "num_ret               \t2\t0\nmap                   \t2\t0.0000\n";
        assert_eq!(text.contains(per_query_2), version == TrecEvalVersion::V10, "{version}\n{text}");
        assert!(text.contains("num_q                 \tall\t2\n"), "{text}");
        assert!(text.contains("map                   \tall\t0.5000\n"), "{text}");
        // exp((log 1 + log 1e-5) / 2)
        assert!(text.contains(&format!("gm_map                \tall\t{:6.4}\n", (1e-5f64.ln() / 2.0).exp())), "{text}");
    }
}

#[test]
fn the_cli_prints_trec_eval_output_byte_for_byte() {
    let r = reference();
    let case = &r["cases"]["default"];
    let expected = case["runs"]["run_a.run"]["official_summary"].as_str().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_memaudit"))
        .current_dir(dir())
        .args(["trec-eval", "--trec-eval-version", "9", "test.qrels", "run_a.run"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
    // What trec_eval would not print goes to stderr: here the topic no run answers.
    assert!(String::from_utf8_lossy(&out.stderr).contains("t29"));
    // trec_eval's attached option values and ir-measures names.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_memaudit"))
        .current_dir(dir())
        .args(["trec-eval", "-mP.5", "-m", "nDCG@10", "-l2", "-M50", "test.qrels", "run_a.run"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().map(|l| l.split('\t').next().unwrap().trim()).collect::<Vec<_>>(), ["P_5", "ndcg_cut_10"]);
}

#[test]
fn refusals_name_the_file_line_and_fix() {
    let run = |args: &[&str], files: &[(&str, &str)]| {
        let tmp = std::env::temp_dir().join(format!("memaudit-te-{}", std::process::id()));
        std::fs::create_dir_all(&tmp).unwrap();
        for (n, t) in files {
            std::fs::write(tmp.join(n), t).unwrap();
        }
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_memaudit"))
            .current_dir(&tmp)
            .arg("trec-eval")
            .args(args)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).to_string())
    };
    let (code, err) = run(&["q", "r"], &[("q", "1 0 a 1\n"), ("r", "1 Q0 a 1 1.0 t\n1 Q0 a 2 0.5 t\n")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("r, line 2") && err.contains("twice"), "{err}");
    let (_, err) = run(&["r", "q"], &[("q", "1 0 a 1\n"), ("r", "1 Q0 a 1 1.0 t\n")]);
    assert!(err.contains("run line") || err.contains("qrels line"), "{err}");
    let (_, err) = run(&["-m", "nope", "q", "r"], &[("q", "1 0 a 1\n"), ("r", "1 Q0 a 1 1.0 t\n")]);
    assert!(err.contains("unknown measure `nope`"), "{err}");
}
