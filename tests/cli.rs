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
    // Text starts with what the data says; each headline of the JSON is in it.
    assert!(table.starts_with("What the data says\n"), "{table}");
    for h in report["headlines"].as_array().unwrap() {
        assert!(table.contains(h["text"].as_str().unwrap()), "{h}");
    }
}

/// The rescoring's headlines restate the winners table: an alert flip is a pair and metric
/// whose shared-subset winners differ across targets with intervals excluding 0 on both sides,
/// and its evidence prints those rows' Δ and intervals.
#[test]
fn flip_headlines_restate_the_winners_rows() {
    let out = bin().arg("rescore").args(demo_args()).args(["--format", "json"]).output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let winners = v["winners"].as_array().unwrap();
    let shared_flips = |a: &str, b: &str, metric: &str| -> Vec<&Value> {
        winners
            .iter()
            .filter(|w| {
                w["subset"] == "shared" && w["flip"] == true && w["a"] == a && w["b"] == b && w["metric"] == metric
            })
            .collect()
    };
    let mut sure = 0;
    for (i, w) in winners.iter().enumerate() {
        if w["subset"] != "shared"
            || w["flip"] != true
            || winners[..i].iter().any(|x| {
                x["subset"] == "shared"
                    && x["flip"] == true
                    && x["a"] == w["a"]
                    && x["b"] == w["b"]
                    && x["metric"] == w["metric"]
            })
        {
            continue;
        }
        let rows = shared_flips(w["a"].as_str().unwrap(), w["b"].as_str().unwrap(), w["metric"].as_str().unwrap());
        let sig = |name: &Value| rows.iter().any(|r| r["winner"] == *name && r["significant"] == true);
        if sig(&w["a"]) && sig(&w["b"]) {
            sure += 1;
            let h = v["headlines"]
                .as_array()
                .unwrap()
                .iter()
                .find(|h| {
                    let t = h["text"].as_str().unwrap();
                    h["level"] == "alert"
                        && t.starts_with(&format!("{} beats {}", w["a"].as_str().unwrap(), w["b"].as_str().unwrap()))
                        && t.contains(&format!("({}@60,", w["metric"].as_str().unwrap()))
                })
                .unwrap_or_else(|| panic!("no alert for {w}"));
            for r in &rows {
                let d = r["delta"].as_f64().or(r["delta_ndcg"].as_f64()).unwrap();
                let part = format!(
                    "{d:+.3} [{:.3}, {:.3}], n = {}",
                    r["ci_low"].as_f64().unwrap(),
                    r["ci_high"].as_f64().unwrap(),
                    r["n"]
                );
                assert!(h["evidence"].as_str().unwrap().contains(&part), "{part} in {h}");
            }
        }
    }
    assert!(sure > 0, "the demo has a flip with both sides significant");
    let alerts = v["headlines"].as_array().unwrap().iter().filter(|h| h["level"] == "alert").count();
    assert_eq!(alerts, sure);
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
    for (page, name) in [
        ("compare", "outcomes.csv"),
        ("probe", "notes.jsonl"),
        ("reclaim", "trials.jsonl"),
        ("answers", "answers.jsonl"),
        ("ablation", "ablation.csv"),
        ("labels", "labels.csv"),
        ("calibration", "routing.csv"),
        ("alignment", "per_query.csv"),
        ("alignment", "answers.csv"),
        ("compliance", "compliance.csv"),
    ] {
        let dir = tmpdir(&format!("synth-{page}-{name}"));
        let out = bin().args(["synth", "--page", page, "--out"]).arg(&dir).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let fresh = std::fs::read(dir.join(name)).unwrap();
        let committed = std::fs::read(demo(&format!("{page}/{name}"))).unwrap();
        assert!(
            fresh == committed,
            "static/demo/{page}/{name} differs from `memaudit synth --page {page}`; regenerate it"
        );
    }
    // The pages whose demo is a committed reference fixture say so.
    let out = bin().args(["synth", "--page", "claims", "--out"]).arg(tmpdir("synth-claims")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("committed reference fixture"));
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
        (
            vec!["labels".into(), "--labels".into(), notes.clone(), "--confidence".into(), "1.5".into()],
            memaudit::label_audit::LabelsRequest {
                bootstrap: memaudit::stats::bootstrap::Bootstrap { resamples: 2000, seed: 1337, confidence: 1.5 },
                ..Default::default()
            }
            .validate()
            .unwrap_err(),
        ),
        (
            vec!["calibration".into(), "--input".into(), notes.clone(), "--ece-bins".into(), "0".into()],
            memaudit::calibration::CalibrationRequest { ece_bins: 0, ..Default::default() }.validate().unwrap_err(),
        ),
        (
            vec!["alignment".into(), "--input".into(), notes.clone(), "--strong".into(), "0".into()],
            memaudit::alignment::AlignmentRequest { strong: 0.0, ..Default::default() }.validate().unwrap_err(),
        ),
        (
            vec!["compliance".into(), "--input".into(), notes.clone(), "--power".into(), "1".into()],
            memaudit::compliance::ComplianceRequest { power: 1.0, ..Default::default() }.validate().unwrap_err(),
        ),
    ];
    assert_eq!(cases.len(), 12, "every subcommand with settings");
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

/// `memaudit report SUB …` prints one self-contained HTML file: the headlines of the JSON,
/// every table, the plots inline, the input files with their SHA-256; no script, no request;
/// user text escaped. `--markdown` and `--plots DIR` write the other forms.
#[test]
fn report_to_attach_is_self_contained() {
    use sha2::Digest;
    let out = bin().arg("report").arg("rescore").args(demo_args()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = String::from_utf8(out.stdout).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    for forbidden in ["<script", "src=\"http", "href=\"http", "@import", "url("] {
        assert!(!html.contains(forbidden), "{forbidden}");
    }
    assert!(html.contains("Content-Security-Policy\" content=\"default-src 'none'"));
    let json: Value = serde_json::from_slice(
        &bin().arg("rescore").args(demo_args()).args(["--format", "json"]).output().unwrap().stdout,
    )
    .unwrap();
    for h in json["headlines"].as_array().unwrap() {
        let text = h["text"]
            .as_str()
            .unwrap()
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('\'', "&#39;");
        assert!(html.contains(&text), "{text}");
    }
    for name in ["memories.jsonl", "queries.jsonl", "runs.jsonl"] {
        let sha = format!("{:x}", sha2::Sha256::digest(std::fs::read(demo(name)).unwrap()));
        assert!(html.contains(&sha), "{name} {sha}");
    }
    for table in ["summary", "winners", "instability", "coverage"] {
        assert!(html.contains(&format!("<h3 id=\"table-{table}\">")), "{table}");
    }
    let figures = html.matches("<figure>").count();
    assert_eq!(figures, json["delta_distribution"].as_array().unwrap().len(), "one histogram per distribution");
    assert!(!html.contains("<?xml"), "SVG inlined without its XML declaration");

    // An arm name with markup is text in the report.
    let dir = tmpdir("attach");
    let csv = dir.join("outcomes.csv");
    std::fs::write(&csv, "item,arm,correct\n1,<script>alert(1)</script>,1\n1,b,0\n2,<script>alert(1)</script>,0\n2,b,0\n3,<script>alert(1)</script>,1\n3,b,1\n").unwrap();
    let plots = dir.join("plots");
    let md = dir.join("report.md");
    let out = bin()
        .args(["compare", "--outcomes"])
        .arg(&csv)
        .args(["--bootstrap", "200", "--html", "-", "--markdown"])
        .arg(&md)
        .arg("--plots")
        .arg(&plots)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = String::from_utf8(out.stdout).unwrap();
    assert!(!html.contains("<script>"), "markup escaped");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    let svgs: Vec<_> =
        std::fs::read_dir(&plots).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert!(svgs.iter().any(|f| f.starts_with("01-contrasts") && f.ends_with(".svg")), "{svgs:?}");
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(md.starts_with("# memaudit compare report"));
    assert!(md.contains("## What the data says") && md.contains("| arm | n | mean |"), "{md}");
    // `report` takes an analysis.
    let out = bin().args(["report", "synth", "--out"]).arg(dir.join("x")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `--plots DIR` writes every plot the page draws: the histograms, and with several cutoffs
/// nDCG and Recall against k under each target.
#[test]
fn plots_include_the_cutoff_curves() {
    let dir = tmpdir("plots-k");
    let out = bin()
        .arg("rescore")
        .args(demo_args())
        .args(["--k", "5,60", "--format", "json", "--plots"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    let histograms = v["delta_distribution"].as_array().unwrap().len();
    let targets = v["targets"].as_array().unwrap().len();
    assert_eq!(names.len(), histograms + 2 * targets, "{names:?}");
    assert_eq!(names.iter().filter(|n| n.contains("recall-k-by-cutoff")).count(), targets, "{names:?}");
    for n in &names {
        let svg = std::fs::read_to_string(dir.join(n)).unwrap();
        assert!(svg.contains("<svg") && svg.trim_end().ends_with("</svg>"), "{n}");
    }
}

/// Rescoring and trec-eval read a file on disk as a stream, and a pipe (`<(zcat runs.gz)`)
/// whole: a stream is opened once for its format, once for the records and once for the
/// fingerprint, and a pipe gives its bytes once. Both give the report of the same bytes in a file.
#[cfg(unix)]
#[test]
fn a_pipe_is_read_whole_and_gives_the_files_report() {
    let dir = tmpdir("pipe");
    let fifo = dir.join("runs.fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let runs = std::fs::read(demo("runs.jsonl")).unwrap();
    let writer = {
        let (fifo, runs) = (fifo.clone(), runs.clone());
        std::thread::spawn(move || std::fs::write(fifo, runs).unwrap())
    };
    let rescore = |runs: &str| {
        let out = bin()
            .args(["rescore", "-m", &demo("memories.jsonl"), "-q", &demo("queries.jsonl"), "-r", runs])
            .args(["--bootstrap", "200", "--format", "json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap().replace(runs, "RUNS")
    };
    let piped = rescore(&fifo.display().to_string());
    writer.join().unwrap();
    assert_eq!(piped, rescore(&demo("runs.jsonl")));
    assert!(piped.contains(&memaudit::rules::sha256_hex(&runs)), "the pipe's fingerprint is that of its bytes");

    // trec-eval streams its files too: a piped run was split between the format detection and
    // the reading (and the fingerprint), and refused.
    let qrels = dir.join("qrels.txt");
    std::fs::write(&qrels, "q1 0 d1 1\nq1 0 d7 1\nq2 0 d3 2\n").unwrap();
    let run: String = (0..3000).map(|i| format!("q{} Q0 d{} {} {} tag\n", 1 + i % 2, i, i + 1, 3000 - i)).collect();
    let run_file = dir.join("run.trec");
    std::fs::write(&run_file, &run).unwrap();
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, run).unwrap())
    };
    let trec_eval = |run: &std::path::Path| {
        let out = bin()
            .args(["trec-eval", "-m", "map", "-m", "num_ret", "-m", "P.10"])
            .arg(&qrels)
            .arg(run)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let piped = trec_eval(&fifo);
    writer.join().unwrap();
    assert_eq!(piped, trec_eval(&run_file));
    assert!(piped.contains("num_ret") && piped.contains("3000"), "{piped}");
}

/// trec_eval's options this tool does not support are refused by name, never as unknown
/// arguments: `-Z`, `-D`, `-o`, and the relevance formats other than `qrels`.
#[test]
fn trec_eval_options_not_supported_are_refused_by_name() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/trec_eval");
    for (args, said) in [
        (vec!["-Z", "zscores_file"], "-Z: z-scores"),
        (vec!["-D", "2"], "-D: trec_eval's debug output"),
        (vec!["-o"], "-o: trec_eval's old output format"),
        (vec!["-R", "qrels_jg"], "-R qrels_jg: only the `qrels` relevance format"),
    ] {
        let out =
            bin().arg("trec-eval").args(&args).arg(dir.join("test.qrels")).arg(dir.join("run_a.run")).output().unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(said), "{args:?}: {err}");
    }
}

/// `trec-eval --reference RUN` is the comparison's reference run: every contrast with it reads
/// other − reference (the setting was once read and left unused).
#[test]
fn trec_eval_compares_against_the_stated_reference_run() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/trec_eval");
    let pairs = |reference: Option<&str>| {
        let mut cmd = bin();
        cmd.args(["trec-eval", "--format", "json", "--bootstrap", "200"]);
        if let Some(r) = reference {
            cmd.args(["--reference", r]);
        }
        let out =
            cmd.arg(dir.join("test.qrels")).arg(dir.join("run_a.run")).arg(dir.join("run_b.run")).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let pairs = ["/report/comparison/comparison/pairs", "/comparison/comparison/pairs"]
            .iter()
            .find_map(|p| v.pointer(p))
            .cloned();
        let pairs = pairs.unwrap_or_else(|| panic!("no comparison pairs in {v}"));
        pairs
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["a"].as_str().unwrap().to_string(),
                    p["b"].as_str().unwrap().to_string(),
                    p["diff"].as_f64().unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    for reference in ["runA", "runB"] {
        let got = pairs(Some(reference));
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].1, reference, "the reference is b (other − reference): {got:?}");
    }
    let (a, b) = (pairs(Some("runA")), pairs(Some("runB")));
    assert!((a[0].2 + b[0].2).abs() < 1e-12, "the same contrast, read the other way: {a:?} {b:?}");
}
