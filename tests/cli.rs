//! The CLI as a user runs it: JSON contract keys, CSV tables, exit codes and error messages.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_memaudit"))
}

fn demo(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("static/demo").join(name).display().to_string()
}

fn demo_args() -> Vec<String> {
    vec![
        "-m".into(),
        demo("memories.jsonl"),
        "-q".into(),
        demo("queries.jsonl"),
        "-r".into(),
        demo("runs.jsonl"),
        "--bootstrap".into(),
        "500".into(),
    ]
}

fn tmpdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("memaudit-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn json_has_the_contract_arrays_and_keys() {
    let out = bin().arg("rescore").args(demo_args()).args(["--format", "json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let contract: [(&str, &[&str]); 8] = [
        ("per_query", &["system", "query_id", "target", "eligible", "ndcg", "recall", "hit", "mrr"]),
        ("summary", &["system", "target", "subset", "n", "ndcg", "recall", "hit", "mrr"]),
        (
            "instability",
            &[
                "system",
                "a",
                "b",
                "n",
                "ndcg_changed",
                "hit_flips",
                "top1_flips",
                "mean_diff_ndcg",
                "ci_low",
                "ci_high",
            ],
        ),
        ("winners", &["target", "a", "b", "delta_ndcg", "winner"]),
        (
            "instability_by_category",
            &[
                "system",
                "a",
                "b",
                "category",
                "n",
                "ndcg_changed",
                "change_rate",
                "hit_flips",
                "top1_flips",
                "mean_diff_ndcg",
            ],
        ),
        (
            "aggregations",
            &[
                "system",
                "population",
                "fallback",
                "n",
                "source_fallback",
                "canonical_fallback",
                "raw",
                "source",
                "canonical",
                "arith",
                "geom",
                "min",
            ],
        ),
        ("kendall_from_raw", &["aggregation", "systems", "tau_d", "max", "ties", "order"]),
        (
            "agreement",
            &[
                "system",
                "population",
                "fallback",
                "n",
                "kept",
                "retention",
                "spread_kept",
                "n_all_hit",
                "spread_all_hit",
            ],
        ),
    ];
    for (array, keys) in contract {
        let rows = v[array].as_array().unwrap_or_else(|| panic!("{array} missing"));
        assert!(!rows.is_empty(), "{array} empty");
        for k in keys {
            assert!(rows[0].get(*k).is_some(), "{array}[0].{k} missing");
        }
    }
    for t in v["per_query"].as_array().unwrap() {
        assert!(["raw", "source", "canonical"].contains(&t["target"].as_str().unwrap()));
    }
    let subsets: Vec<&str> = v["summary"].as_array().unwrap().iter().map(|r| r["subset"].as_str().unwrap()).collect();
    assert!(subsets.contains(&"all") && subsets.contains(&"shared"));
    assert_eq!(v["settings"]["k"], 60);
    assert_eq!(v["settings"]["seed"], 1337);
    assert_eq!(v["settings"]["bootstrap"], 500);
    // instability diff = b − a
    let row = &v["instability"][0];
    let d = row["mean_b"].as_f64().unwrap() - row["mean_a"].as_f64().unwrap();
    assert!((d - row["mean_diff_ndcg"].as_f64().unwrap()).abs() < 1e-12);
    // winners delta = a − b
    let w = &v["winners"][0];
    let d = w["mean_a"].as_f64().unwrap() - w["mean_b"].as_f64().unwrap();
    assert!((d - w["delta_ndcg"].as_f64().unwrap()).abs() < 1e-12);
}

#[test]
fn same_seed_same_numbers_other_seed_other_intervals() {
    let run = |seed: &str| {
        let out = bin().arg("rescore").args(demo_args()).args(["--format", "json", "--seed", seed]).output().unwrap();
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let (a, b, c) = (run("7"), run("7"), run("8"));
    assert_eq!(a["instability"], b["instability"]);
    assert_ne!(a["instability"][0]["ci_low"], c["instability"][0]["ci_low"]);
    assert_eq!(a["instability"][0]["mean_diff_ndcg"], c["instability"][0]["mean_diff_ndcg"]);
}

#[test]
fn csv_tables_and_out_dir() {
    let out = bin().arg("rescore").args(demo_args()).args(["--format", "csv", "--table", "winners"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with(
        "target,a,b,n,mean_a,mean_b,delta_ndcg,ci_low,ci_high,winner,significant,flip,subset,metric,delta,hit_a_only,hit_b_only,mcnemar_p\n"
    ));
    let out = bin()
        .arg("rescore")
        .args(demo_args())
        .args(["--format", "csv", "--table", "instability_by_category"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("system,a,b,category,n,ndcg_changed,change_rate,hit_flips,top1_flips,mean_diff_ndcg\n"));
    for (table, header) in [
        (
            "aggregations",
            "system,population,fallback,n,source_fallback,canonical_fallback,raw,source,canonical,arith,geom,min\n",
        ),
        ("kendall_from_raw", "aggregation,systems,tau_d,max,ties,order\n"),
        ("agreement", "system,population,fallback,n,kept,retention,spread_kept,n_all_hit,spread_all_hit\n"),
    ] {
        let out = bin().arg("rescore").args(demo_args()).args(["--format", "csv", "--table", table]).output().unwrap();
        assert!(out.status.success(), "{table}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.starts_with(header), "{table}: {text}");
        // A header and a row per system (four in the demo) or per aggregation (five).
        assert_eq!(text.lines().count(), if table == "kendall_from_raw" { 6 } else { 5 }, "{table}");
    }
    let dir = tmpdir("out");
    let out =
        bin().arg("rescore").args(demo_args()).args(["--format", "table", "--out-dir"]).arg(&dir).output().unwrap();
    assert!(out.status.success());
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains("conventions: k=60 unit=group"), "settings printed with results");
    assert!(table.contains("== Aggregations over the per-query nDCG triplet"), "aggregation section");
    assert!(table.contains("== Agreement filtering"), "agreement section");
    for table in memaudit::audit::RescoreTable::ALL {
        let name = table.name();
        assert!(dir.join(format!("{name}.csv")).is_file(), "{name}.csv");
    }
    let report: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert!(report["contested"].as_array().is_some_and(|c| !c.is_empty()));
}

#[test]
fn errors_name_file_line_and_field_and_exit_2() {
    let dir = tmpdir("err");
    let runs = dir.join("runs.jsonl");
    std::fs::write(
        &runs,
        "{\"system\":\"s\",\"query_id\":\"q\",\"ranked\":[\"a\"]}\n{\"system\":\"s\",\"ranked\":[\"a\"]}\n",
    )
    .unwrap();
    let out = bin()
        .args(["rescore", "-m", &demo("memories.jsonl"), "-q", &demo("queries.jsonl"), "-r"])
        .arg(&runs)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("runs.jsonl, line 2, field `query_id`"), "{err}");
    // a file in the wrong role
    let out = bin().args(["rescore", "-m", &demo("runs.jsonl"), "-q", &demo("queries.jsonl")]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected memories"));
    // bad settings
    let out = bin().arg("rescore").args(demo_args()).args(["--k", "0"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`k`"));
}

#[test]
fn import_writes_a_bundle_that_rescoring_reads() {
    let dir = tmpdir("import");
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/external");
    let out = bin()
        .args(["import", "longmemeval"])
        .arg(shared.join("BriefBench/longmemeval_s_cleaned_snapshot.json"))
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let q = std::fs::read_to_string(dir.join("queries.jsonl")).unwrap();
    assert_eq!(q.lines().count(), 12);
    // a wrong benchmark name is refused
    let out = bin()
        .args(["import", "locomo"])
        .arg(shared.join("BriefBench/longmemeval_s_cleaned_snapshot.json"))
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // the imported files load as memaudit bundles
    let out = bin()
        .args(["rescore", "--format", "json", "--bootstrap", "10", "-m"])
        .arg(dir.join("memories.jsonl"))
        .arg("-q")
        .arg(dir.join("queries.jsonl"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["reading"]["counts"]["queries"], 12);
}

#[test]
fn drilldown_marks_items() {
    let out = bin()
        .arg("drilldown")
        .args(demo_args())
        .args(["--system", "dense-facts", "--query", "conv0/q1", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["items"][0]["rank"], 1);
    assert_eq!(v["targets"].as_array().unwrap().len(), 3);
    let out =
        bin().arg("drilldown").args(demo_args()).args(["--system", "nope", "--query", "conv0/q1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn committed_demo_is_reproducible_from_the_generator() {
    let dir = tmpdir("synth");
    let out = bin().args(["synth", "--out"]).arg(&dir).output().unwrap();
    assert!(out.status.success());
    for name in ["memories.jsonl", "queries.jsonl", "runs.jsonl"] {
        let fresh = std::fs::read(dir.join(name)).unwrap();
        let committed = std::fs::read(demo(name)).unwrap();
        assert!(fresh == committed, "static/demo/{name} differs from `memaudit synth` output; regenerate it");
    }
}

/// An invalid setting is refused before any file is read, exit 2, with exactly the message of
/// the core request's `validate` — the call the viewer's pages make before they send a job, so
/// the CLI and the viewer refuse it with the same words.
#[test]
fn invalid_settings_are_refused_with_the_cores_message() {
    use memaudit::capability::Validate;
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/paper_fixtures");
    let f = |name: &str| fixtures.join(name).display().to_string();
    let dir = tmpdir("invalid");
    let notes = dir.join("n.jsonl");
    std::fs::write(&notes, "{\"note_id\":\"n\",\"note\":\"x\",\"source\":\"a b\"}\n").unwrap();
    let notes = notes.display().to_string();
    let probe = memaudit::probe::ProbeRequest { confidence: 1.5, ..Default::default() };
    let mut reclaim = memaudit::reclaim::ReclaimRequest::default();
    reclaim.settings.bootstrap.resamples = 0;
    let cases: Vec<(Vec<String>, memaudit::error::Error)> = vec![
        (
            [vec!["rescore".to_string()], demo_args(), vec!["--k".into(), "0".into()]].concat(),
            memaudit::conventions::Settings { k: 0, ..Default::default() }.validate().unwrap_err(),
        ),
        (
            vec!["compare".into(), "--outcomes".into(), notes.clone(), "--alpha".into(), "0.7".into()],
            memaudit::compare::CompareRequest {
                settings: memaudit::compare::CompareSettings { alpha: 0.7, ..Default::default() },
                ..Default::default()
            }
            .validate()
            .unwrap_err(),
        ),
        (
            vec!["probe".into(), "--notes".into(), notes.clone(), "--confidence".into(), "1.5".into()],
            probe.validate().unwrap_err(),
        ),
        (
            vec!["reclaim".into(), "--trials".into(), notes.clone(), "--bootstrap".into(), "0".into()],
            reclaim.validate().unwrap_err(),
        ),
        (
            vec![
                "claims".into(),
                "--data".into(),
                f("seed000_scores.csv"),
                "--no-sweep".into(),
                "--confidence".into(),
                "1.5".into(),
            ],
            memaudit::claims::ClaimsRequest { confidence: 1.5, sweep: false, ..Default::default() }
                .validate()
                .unwrap_err(),
        ),
        (
            vec!["ablation".into(), "--input".into(), f("noncircularity.csv"), "--confidence".into(), "2".into()],
            memaudit::ablation::AblationRequest {
                settings: memaudit::ablation::AblationSettings { confidence: 2.0, ..Default::default() },
                ..Default::default()
            }
            .validate()
            .unwrap_err(),
        ),
        (
            vec!["answers".into(), "--input".into(), notes.clone(), "--f1-threshold".into(), "2".into()],
            memaudit::answers::AnswersRequest {
                settings: memaudit::answers::AnswerSettings { f1_threshold: 2.0, ..Default::default() },
                ..Default::default()
            }
            .validate()
            .unwrap_err(),
        ),
        (
            vec![
                "rules".into(),
                "--rules".into(),
                f("seed000_rules.json"),
                "--values".into(),
                f("seed000_values.json"),
                "--evaluated-at".into(),
                "garbage".into(),
            ],
            memaudit::rules::RulesRequest { evaluated_at: Some("garbage".into()) }.validate().unwrap_err(),
        ),
    ];
    assert_eq!(cases.len(), 8, "every subcommand with settings");
    for (args, want) in cases {
        let out = bin().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim(), format!("memaudit: error: {want}"), "{args:?}");
    }
}

#[test]
fn csv_cells_are_spreadsheet_safe_and_text_is_terminal_safe() {
    let dir = tmpdir("hostile-ids");
    let (qrels, run) = (dir.join("q.txt"), dir.join("r.txt"));
    std::fs::write(&qrels, "=1+1 0 d1 1\n\x1b[31mq 0 d1 1\n").unwrap();
    std::fs::write(&run, "=1+1 Q0 d1 1 1.0 t\n\x1b[31mq Q0 d1 1 1.0 t\n").unwrap();
    let run_cli = |extra: &[&str]| {
        let mut args = vec!["trec-eval", "-q", "-m", "P.1"];
        args.extend(extra);
        let out = bin().args(&args).arg(&qrels).arg(&run).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let csv = run_cli(&["--format", "csv", "--table", "per_query"]);
    assert!(csv.contains("'=1+1"), "{csv}");
    assert!(!csv.lines().any(|l| l.starts_with("=1+1") || l.contains(",=1+1")), "{csv}");
    let raw = run_cli(&["--format", "csv", "--table", "per_query", "--csv-raw"]);
    assert!(raw.contains("=1+1") && !raw.contains("'=1+1"), "{raw}");
    let text = run_cli(&[]);
    assert!(!text.contains('\x1b') && text.contains("\\u{1b}[31mq"), "{text}");
}

#[test]
fn a_comparison_without_a_value_column_names_the_file() {
    let dir = tmpdir("no-value");
    let f = dir.join("answers_only.csv");
    std::fs::write(&f, "item_id,arm,answer\nq1,a,x\nq1,b,y\nq2,a,x\nq2,b,z\n").unwrap();
    let out = bin().args(["compare", "--outcomes"]).arg(&f).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("no value column chosen in {}", f.display())), "{err}");
    assert!(err.contains("every column holds text"), "{err}");
}
