//! CLI contract of `memaudit answers`, `ablation`, `claims` and `rules`: JSON keys (documented in
//! docs/formats.md §8), CSV headers, exit codes and error locations.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memaudit")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().unwrap()
}

fn json_of(args: &[&str]) -> Value {
    let out = run(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("memaudit-cli-tools-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn keys(v: &Value) -> Vec<&str> {
    v.as_object().unwrap().keys().map(String::as_str).collect()
}

const R: &str = "tests/reference/paper_fixtures/";

#[test]
fn answers_json_csv_and_diff() {
    let f = temp(
        "answers.jsonl",
        "{\"query_id\":\"q1\",\"dataset\":\"ruler_qa1\",\"gold\":[\"The Louvre\"],\"output\":\"louvre\"}\n\
{\"query_id\":\"q2\",\"dataset\":\"ruler_qa1\",\"gold\":[\"Paris\"],\"output\":\"Paris.\"}\n",
    );
    let p = f.to_str().unwrap();
    let v = json_of(&[
        "answers",
        "--input",
        p,
        "--profiles",
        "paper_sem,mab_sem,locomo_f1",
        "--diff",
        "paper_sem:mab_sem",
        "--format",
        "json",
    ]);
    let mut k = keys(&v);
    k.sort();
    assert_eq!(
        k,
        [
            "diff",
            "disagreements",
            "headlines",
            "memaudit_version",
            "populations",
            "profiles",
            "rows",
            "settings",
            "stated",
            "summary",
            "warnings"
        ]
    );
    assert_eq!(v["stated"], serde_json::json!([]), "no file states its own scores");
    assert_eq!(v["diff"].as_array().unwrap().len(), 1);
    assert_eq!(v["diff"][0]["query_id"], "q1");
    assert_eq!(v["rows"][0]["scores"][1]["profile"], "mab_sem");
    let mut rk = keys(&v["rows"][0]["scores"][0]);
    rk.sort();
    assert_eq!(rk, ["correct", "gold_index", "output", "profile", "score"]);
    let mut sk = keys(&v["summary"][0]);
    sk.sort();
    assert_eq!(sk, ["arm", "correct", "correct_rate", "dataset", "mean", "n", "profile"]);
    assert_eq!(v["profiles"][2]["profile"], "locomo_f1");
    let out = run(&["answers", "--input", p, "--format", "csv", "--table", "rows", "--profiles", "mab_sem"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("query_id,arm,dataset,category,file,line,mab_sem,mab_sem_correct\n"), "{text}");
    let out = run(&["answers", "--input", p, "--format", "csv", "--table", "diff", "--diff", "paper_sem:mab_sem"]);
    assert!(String::from_utf8(out.stdout).unwrap().starts_with("query_id,arm,dataset,file,line,a,b,score_a,score_b"));
    // errors: unknown profile (2), a bad cell names file, line and field (2), a missing file (1)
    assert_eq!(run(&["answers", "--input", p, "--profiles", "nope"]).status.code(), Some(2));
    let bad = temp("bad.csv", "query_id,gold,prediction,category\nq1,a,b,one\n");
    let out = run(&["answers", "--input", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("bad.csv, line 2, field `category`"), "{err}");
    assert_eq!(run(&["answers", "--input", "/nonexistent/a.csv"]).status.code(), Some(1));
}

#[test]
fn ablation_json_and_csv() {
    let input = format!("{R}noncircularity.csv");
    let v = json_of(&["ablation", "--input", &input, "--bootstrap", "200", "--format", "json"]);
    let mut k = keys(&v);
    k.sort();
    assert_eq!(k, ["gate", "headlines", "memaudit_version", "runs", "scoring", "settings", "specialist", "warnings"]);
    assert_eq!(v["gate"], "rho in [-0.15, 0.15]");
    let locomo = v["runs"].as_array().unwrap().iter().find(|r| r["overall"]["run"] == "phase7_locomo").unwrap();
    assert_eq!(locomo["breach"], true);
    assert_eq!(locomo["breaching_subsets"][0], "single_hop");
    let mut gk = keys(&locomo["overall"]["noncircularity"]);
    gk.sort();
    assert_eq!(
        gk,
        [
            "fisher_z",
            "gate",
            "margin",
            "n",
            "n_queries",
            "nonzero",
            "pair_ci",
            "passes",
            "query_ci",
            "rho",
            "rho2",
            "target",
            "unexplained"
        ]
    );
    let mut rk = keys(&locomo["overall"]["rates"]);
    rk.sort();
    assert_eq!(
        rk,
        [
            "answerer_calls",
            "base_correct",
            "base_correct_rate",
            "harmful_rate",
            "histogram",
            "k_values",
            "pairs",
            "positive_high",
            "positive_low",
            "positive_rate",
            "queries"
        ]
    );
    assert_eq!(v["settings"]["gate"]["kind"], "within");
    let out = run(&["ablation", "--input", &input, "--bootstrap", "100", "--gate", "pilot", "--format", "csv"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("run,subset,pairs,queries,u_harmful,u_neutral,u_helpful,positive_rate"), "{text}");
    assert_eq!(run(&["ablation", "--input", &input, "--gate", "wide"]).status.code(), Some(2));
    let bad = temp("abl.csv", "query_id,base_score,ablated_score\nq1,1,5\n");
    let out = run(&["ablation", "--input", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("abl.csv, line 2, field `ablated_score`"));
}

#[test]
fn claims_json_and_tables() {
    let (data, claims, tables) =
        (format!("{R}seed000_scores.csv"), format!("{R}seed000_claims.csv"), format!("{R}seed000_tables.csv"));
    let v = json_of(&[
        "claims",
        "--data",
        &data,
        "--claims",
        &claims,
        "--printed-table",
        &tables,
        "--contrast",
        "specialist:vanilla",
        "--bootstrap",
        "10000",
        "--format",
        "json",
    ]);
    let mut k = keys(&v);
    k.sort();
    assert_eq!(
        k,
        [
            "claims",
            "counts",
            "findings",
            "headlines",
            "lint_settings",
            "memaudit_version",
            "populations",
            "settings",
            "sweep",
            "warnings"
        ]
    );
    // Every claim that differs is an alert naming both numbers, in the claims' order; the
    // context line counts what holds from the JSON's own counts.
    let headlines = v["headlines"].as_array().unwrap();
    let differs: Vec<&serde_json::Value> =
        v["claims"].as_array().unwrap().iter().filter(|c| c["verdict"] == "differs").collect();
    assert!(!differs.is_empty());
    for (h, c) in headlines.iter().zip(differs.iter().take(4)) {
        assert_eq!(h["level"], "alert");
        let text = h["text"].as_str().unwrap();
        let id = c["claim_id"].as_str().unwrap();
        assert!(text.starts_with(&format!("Claim {id} differs")), "{text}");
        let recomputed = match c["recomputed_text"].as_str() {
            Some(t) => t.to_string(),
            None => format!("{:.3}", c["recomputed"].as_f64().unwrap()),
        };
        assert!(text.contains(&format!("{recomputed} recomputed")), "{text}");
        assert_eq!(h["table"], "claims");
    }
    let holds = v["counts"]["matches"].as_u64().unwrap() + v["counts"]["within_rounding"].as_u64().unwrap();
    assert!(
        headlines.iter().any(|h| h["level"] == "context"
            && h["text"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{holds} of {} claims hold", v["claims"].as_array().unwrap().len()))),
        "{headlines:?}"
    );
    let mut ck = keys(&v["claims"][0]);
    ck.sort();
    assert_eq!(
        ck,
        [
            "arms",
            "ci_verdict",
            "claim_id",
            "dataset",
            "difference",
            "file",
            "k",
            "kind",
            "line",
            "matching_runs",
            "metric",
            "n",
            "reason",
            "recomputed",
            "recomputed_ci",
            "recomputed_text",
            "reported",
            "reported_ci",
            "reported_n",
            "reported_text",
            "run",
            "runs",
            "source",
            "text",
            "verdict"
        ]
    );
    assert_eq!(v["counts"]["differs"], 4);
    let e1 = v["claims"].as_array().unwrap().iter().find(|c| c["claim_id"] == "t1_fc_vanilla").unwrap();
    assert_eq!((e1["verdict"].as_str(), e1["recomputed"].as_f64()), (Some("differs"), Some(24.0)));
    let mut sk = keys(&v["sweep"]);
    sk.sort();
    assert_eq!(sk, ["cells", "crossovers", "deltas", "series", "settings", "stability", "stability_summary"]);
    let mut dk = keys(&v["sweep"]["deltas"][0]);
    dk.sort();
    assert_eq!(
        dk,
        [
            "a",
            "b",
            "b_count",
            "c_count",
            "ci_high",
            "ci_low",
            "dataset",
            "delta",
            "k",
            "label",
            "mean_a",
            "mean_a_shared",
            "mean_b",
            "mean_b_shared",
            "n_a",
            "n_b",
            "n_shared",
            "query_sets_differ",
            "run"
        ]
    );
    let mut fk = keys(&v["findings"][0]);
    fk.sort();
    assert_eq!(
        fk,
        ["dataset", "expected", "field", "found", "kind", "location", "message", "row", "run", "sides", "table"]
    );
    assert!(
        v["findings"].as_array().unwrap().iter().any(|f| f["kind"] == "point_outside_ci" && f["table"] == "Table 2")
    );
    let out = run(&[
        "claims",
        "--data",
        &data,
        "--claims",
        &claims,
        "--bootstrap",
        "200",
        "--format",
        "csv",
        "--csv-table",
        "claims",
    ]);
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("claim_id,kind,arms,dataset,k,metric,run,reported,recomputed,difference")
    );
    let out = run(&["claims", "--data", &data, "--bootstrap", "200", "--format", "csv", "--csv-table", "deltas"]);
    assert!(String::from_utf8(out.stdout).unwrap().starts_with("run,dataset,k,a,b,n_a,n_b,n_shared"));
    // linting a table alone; errors
    let v = json_of(&["claims", "--printed-table", &tables, "--format", "json"]);
    assert_eq!(v["findings"].as_array().unwrap().len(), 9);
    assert_eq!(run(&["claims", "--claims", &claims]).status.code(), Some(2));
    assert_eq!(run(&["claims"]).status.code(), Some(2));
}

#[test]
fn claims_config_mismatch_and_duplicate_query_id() {
    // spec ran K = 10 with another prompt (seed-000's banking77 artifact); vanilla's q1 at K = 5
    // is given twice (lines 6 and 8).
    let f = temp(
        "fingerprints.csv",
        "arm,dataset,k,query_id,sem,prompt_hash\n\
         spec,icl_banking77,5,q1,1,icl\nspec,icl_banking77,5,q2,0,icl\n\
         spec,icl_banking77,10,q1,0,generic\nspec,icl_banking77,10,q2,0,generic\n\
         vanilla,icl_banking77,5,q1,1,icl\nvanilla,icl_banking77,5,q2,1,icl\nvanilla,icl_banking77,5,q1,0,icl\n\
         vanilla,icl_banking77,10,q1,1,icl\nvanilla,icl_banking77,10,q2,1,icl\n",
    );
    let p = f.to_str().unwrap();
    let v = json_of(&["claims", "--data", p, "--bootstrap", "200", "--format", "json"]);
    let kinds: Vec<(&str, &str)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["kind"].as_str().unwrap(), f["row"].as_str().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("config_mismatch", "icl_banking77/spec"),
            ("config_mismatch", "icl_banking77/k=10/spec-vanilla"),
            ("duplicate_query_id", "icl_banking77/k=5/vanilla/q1")
        ]
    );
    let m = &v["findings"][1];
    assert_eq!((m["dataset"].as_str(), m["field"].as_str()), (Some("icl_banking77"), Some("prompt_hash")));
    assert_eq!(m["sides"][0]["arm"], "spec");
    assert_eq!(m["sides"][1]["arm"], "vanilla");
    assert_eq!((m["sides"][0]["k"].as_i64(), m["sides"][0]["value"].as_str()), (Some(10), Some("generic")));
    assert_eq!(m["sides"][1]["value"], "icl");
    let mut sk = keys(&m["sides"][0]);
    sk.sort();
    assert_eq!(sk, ["arm", "k", "location", "value"]);
    let d = &v["findings"][2];
    assert_eq!(d["location"], format!("{p}, line 6; {p}, line 8"));
    let w = &v["warnings"]["items"][0];
    assert_eq!((w["kind"].as_str(), w["count"].as_u64()), (Some("duplicate_query_id"), Some(1)));
    assert!(w["examples"][0].as_str().unwrap().starts_with(&format!("{p}, line 6 and line 8")), "{w}");
    // the sweep used the first row only: vanilla K = 5 is n = 2, mean 1
    let cell = v["sweep"]["cells"].as_array().unwrap().iter().find(|c| c["arm"] == "vanilla" && c["k"] == 5).unwrap();
    assert_eq!((cell["n"].as_u64(), cell["mean"].as_f64()), (Some(2), Some(1.0)));
    // CSV: the findings table gains run, dataset, field, arms, k, values
    let out = run(&["claims", "--data", p, "--bootstrap", "200", "--format", "csv", "--csv-table", "findings"]);
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(
        csv.starts_with("kind,table,row,message,expected,found,location,run,dataset,field,arms,k,values\n"),
        "{csv}"
    );
    assert!(
        csv.lines().any(|l| l.starts_with("config_mismatch,")
            && l.ends_with(",icl_banking77,prompt_hash,spec;vanilla,10;10,generic;icl")),
        "{csv}"
    );
    // text: the warning is printed
    let out = run(&["claims", "--data", p, "--bootstrap", "200", "--no-sweep"]);
    let text = String::from_utf8(out.stdout).unwrap();
    // (named as the JSON and docs/formats.md name it, never by its Rust name)
    assert!(text.contains("duplicate_query_id") && text.contains("warning: query ids given twice"), "{text}");
    assert!(!text.contains("DuplicateQueryId"), "{text}");
    // a contrast limits the prompt comparison to its pair (vanilla:spec is the same pair)
    let v = json_of(&["claims", "--data", p, "--bootstrap", "200", "--contrast", "vanilla:spec", "--format", "json"]);
    assert!(v["findings"].as_array().unwrap().iter().any(|f| f["row"] == "icl_banking77/k=10/vanilla-spec"));
}

#[test]
fn rules_json_and_table() {
    let args = [
        "rules",
        "--rules",
        "tests/reference/paper_fixtures/seed000_rules.json",
        "--values",
        "tests/reference/paper_fixtures/seed000_values.json",
        "--git-log",
        "tests/reference/paper_fixtures/seed000_gitlog.txt",
        "--evaluated-at",
        "2026-11-22T00:00:00Z",
    ];
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    let v = json_of(&a);
    let mut k = keys(&v);
    k.sort();
    assert_eq!(
        k,
        [
            "errors",
            "exclusion_effects",
            "exclusions",
            "exclusions_after_results",
            "fired",
            "headlines",
            "memaudit_version",
            "not_fired",
            "registered_after_data",
            "verdicts"
        ]
    );
    assert_eq!(v["registered_after_data"], 1);
    let late =
        v["verdicts"].as_array().unwrap().iter().find(|r| r["temporal"]["status"] == "registered_after_data").unwrap();
    assert_eq!(v["headlines"][0]["level"], "alert");
    assert_eq!(
        v["headlines"][0]["text"],
        format!(
            "Rule {} was registered after the data it judges: it is not pre-registered",
            late["rule_id"].as_str().unwrap()
        )
    );
    let mut vk = keys(&v["verdicts"][0]);
    vk.sort();
    assert_eq!(
        vk,
        [
            "commit",
            "error",
            "evaluated_at",
            "fired",
            "inputs",
            "kind",
            "margin",
            "outcome",
            "provenance",
            "registered_at",
            "rule_hash",
            "rule_id",
            "temporal",
            "text",
            "totals",
            "tree"
        ]
    );
    assert_eq!(v["verdicts"][0]["evaluated_at"], "2026-11-22T00:00:00Z");
    assert_eq!(v["verdicts"][0]["provenance"], "pre-registered");
    let mut ik = keys(&v["verdicts"][0]["inputs"][0]);
    ik.sort();
    assert_eq!(ik, ["data_time", "data_time_from", "estimate", "high", "low", "name", "sha256", "source"]);
    let out = run(&args);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("rule_d") && text.contains("1 registered after their data"), "{text}");
    let bad = temp("rules.json", "{\"rules\": [{\"id\": \"r\", \"when\": {\"cmp\": [1, \"=>\", 2]}}]}");
    let out = run(&[
        "rules",
        "--rules",
        bad.to_str().unwrap(),
        "--values",
        "tests/reference/paper_fixtures/seed000_values.json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("rules[0].when.cmp[1]"));
}

#[test]
fn a_file_given_to_the_wrong_option_is_named_by_what_its_content_looks_like() {
    const FIXTURES: &str = "tests/reference/paper_fixtures";
    let stderr = |args: &[&str]| {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let scores = format!("{FIXTURES}/seed000_scores.csv");
    let err = stderr(&["claims", "--claims", &scores, "--data", &scores]);
    assert!(err.contains("seed000_scores.csv, line 2, field `claim_id`"), "{err}");
    assert!(err.contains("its content looks like a file for --data"), "{err}");
    let values = format!("{FIXTURES}/seed000_values.json");
    let err = stderr(&["rules", "--rules", &values, "--values", &values]);
    assert!(err.contains("its content looks like a file for --values"), "{err}");
    // A file that looks like nothing else (data) gets no hint.
    let rules = format!("{FIXTURES}/seed000_rules.json");
    let log = temp("not-a-log.txt", "hello\n");
    let err = stderr(&["rules", "--rules", &rules, "--values", &values, "--git-log", log.to_str().unwrap()]);
    assert!(err.contains("is not a commit line") && !err.contains("looks like"), "{err}");
}

/// A request's settings declared once (`memaudit::fields!`) are its subcommand's options: each
/// field is an option with the field's help; a value the field cannot read is refused naming
/// the option; a setting the core's message mentions is spelt as the option.
#[test]
fn declared_settings_are_the_subcommands_options() {
    use memaudit::fields::{Field, Fields};
    let declared: [(&str, Vec<&'static Field>); 9] = [
        ("calibration", memaudit::calibration::CalibrationRequest::fields()),
        ("alignment", memaudit::alignment::AlignmentRequest::fields()),
        ("ablation", memaudit::ablation::AblationRequest::fields()),
        ("compliance", memaudit::compliance::ComplianceRequest::fields()),
        ("labels", memaudit::label_audit::LabelsRequest::fields()),
        ("answers", memaudit::answers::AnswersRequest::fields()),
        ("probe", memaudit::probe::ProbeRequest::fields()),
        ("reclaim", memaudit::reclaim::ReclaimRequest::fields()),
        ("claims", memaudit::claims::ClaimsRequest::fields()),
    ];
    for (sub, fields) in declared {
        assert!(fields.len() >= 4, "{sub}: {} fields", fields.len());
        let out = run(&[sub, "--help"]);
        assert!(out.status.success());
        // Help lines are wrapped: compare with white space folded.
        let help = String::from_utf8(out.stdout).unwrap().split_whitespace().collect::<Vec<_>>().join(" ");
        for f in fields {
            let option = format!("--{} ", f.name.replace('_', "-"));
            assert!(help.contains(&option), "{sub}: {option} missing from --help");
            let first_words: String =
                f.help.trim_end_matches('.').split_whitespace().take(4).collect::<Vec<_>>().join(" ");
            assert!(help.contains(&first_words), "{sub}: the help of {option} ({first_words}) missing");
            for c in f.candidates {
                assert!(help.contains(c), "{sub}: {option} does not list the column `{c}` it looks for");
            }
        }
    }
    let routing = "static/demo/calibration/routing.csv";
    let out = run(&["calibration", "--input", routing, "--ece-bins", "many"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("'--ece-bins'") && err.contains("`many` is not a whole number"), "{err}");
    let out = run(&["ablation", "--input", routing, "--gate", "wide"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("'--gate'") && err.contains("use scale, pilot, abs:T or within:LO,HI"), "{err}");
    // The core mentions the split column; the command line calls it --split.
    let out = run(&["calibration", "--input", routing, "--fit", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("needs the split column (--split)"), "{err}");
    assert!(!err.contains('\u{2983}'), "a mention left unrendered: {err}");
    // Values given on the command line reach the request: the report's settings say so.
    let v = json_of(&["calibration", "--input", routing, "--ece-bins", "7", "--route", "at_least", "--format", "json"]);
    assert_eq!(v["settings"]["ece_bins"], 7);
    assert_eq!(v["settings"]["route"], "at_least");
    // An entry holding commas is given once per entry; a list of choices is comma-separated.
    let labels = "static/demo/labels/labels.csv";
    let v = json_of(&[
        "labels",
        "--labels",
        labels,
        "--collapse",
        "relevant=supports,partial",
        "--collapse",
        "irrelevant=does_not_support",
        "--bootstrap",
        "0",
        "--format",
        "json",
    ]);
    assert_eq!(
        v["settings"]["collapse"],
        serde_json::json!(["relevant=supports,partial", "irrelevant=does_not_support"])
    );
    let answers = "static/demo/answers/answers.jsonl";
    let v = json_of(&[
        "answers",
        "--input",
        answers,
        "--profiles",
        "squad_em,mab_f1",
        "--diff",
        "squad_em:mab_f1",
        "--format",
        "json",
    ]);
    assert_eq!(v["settings"]["profiles"], serde_json::json!(["squad_em", "mab_f1"]));
    assert!(v["diff"].is_array(), "the diff is listed: {}", v["diff"]);
    let out = run(&["answers", "--input", answers, "--diff", "squad_em"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("'--diff'") && err.contains("not two names as A:B"), "{err}");
    // Reclaim: repeated pairs, a choice and a flag of its bootstrap group reach the request.
    let trials = "static/demo/reclaim/trials.jsonl";
    let v = json_of(&[
        "reclaim",
        "--trials",
        trials,
        "--contrast",
        "source_first:lossy",
        "--contrast",
        "summary:blank",
        "--resampler",
        "chacha8",
        "--cluster-by-problem",
        "--bootstrap",
        "200",
        "--format",
        "json",
    ]);
    let s = &v["settings"];
    assert_eq!(s["contrasts"], serde_json::json!([["source_first", "lossy"], ["summary", "blank"]]));
    assert_eq!((s["bootstrap"]["engine"].as_str(), s["bootstrap"]["resamples"].as_u64()), (Some("chacha8"), Some(200)));
    assert_eq!(s["bootstrap"]["cluster_by_problem"], true);
    let out = run(&["reclaim", "--trials", trials, "--contrast", "source_first"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("'--contrast'") && err.contains("expected A:B"), "{err}");
    // Claims: the flag stated by its opposite (--no-sweep sets sweep = false).
    let scores = "tests/reference/paper_fixtures/seed000_scores.csv";
    let v = json_of(&["claims", "--data", scores, "--no-sweep", "--bootstrap", "100", "--format", "json"]);
    assert!(v["sweep"].is_null(), "no K-sweep: {}", v["sweep"]);
    let v = json_of(&["claims", "--data", scores, "--bootstrap", "100", "--seed", "7", "--format", "json"]);
    assert!(v["sweep"].is_object(), "the K-sweep by default");
    assert_eq!(v["settings"]["seed"], 7);
}

/// A release folder with a link to nothing, a link back up (a loop) and a named pipe: the audit
/// reads the rest, says what it passed over, and never waits on the pipe.
#[cfg(unix)]
#[test]
fn audit_passes_over_links_to_nothing_loops_and_pipes_and_says_so() {
    let dir = std::env::temp_dir().join(format!("memaudit-cli-audit-walk-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let release = dir.join("release");
    std::fs::create_dir_all(release.join("sub")).unwrap();
    std::fs::write(release.join("sub/outcomes.csv"), "item_id,arm,correct\nq1,a,1\nq1,b,0\nq2,a,1\nq2,b,1\n").unwrap();
    std::os::unix::fs::symlink("/nonexistent/memaudit", release.join("dangling")).unwrap();
    std::os::unix::fs::symlink("..", release.join("sub/up")).unwrap();
    let fifo = Command::new("mkfifo").arg(release.join("pipe")).status().is_ok_and(|s| s.success());
    let out = run(&["audit", release.to_str().unwrap(), "--format", "json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("release/dangling: passed over, it cannot be read"), "{err}");
    assert!(err.contains("release/sub/up: passed over, a link to a folder already read (a loop)"), "{err}");
    if fifo {
        assert!(err.contains("release/pipe: passed over, neither a file nor a folder"), "{err}");
    }
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let files: Vec<(&str, &str)> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["file"].as_str().unwrap(), f["status"].as_str().unwrap()))
        .collect();
    // The passed-over entries are in the report too, after the files read, each with why.
    let mut want = vec![("release/sub/outcomes.csv", "read"), ("release/dangling", "passed_over")];
    if fifo {
        want.push(("release/pipe", "passed_over"));
    }
    want.push(("release/sub/up", "passed_over"));
    assert_eq!(files, want);
    let up = v["files"].as_array().unwrap().iter().find(|f| f["file"] == "release/sub/up").unwrap();
    assert_eq!(up["note"], "a link to a folder already read (a loop)");
    let first = v["headlines"][0]["text"].as_str().unwrap_or_default();
    assert!(
        first.starts_with("1 files: 1 read") && first.contains("folder entries that are not files passed over"),
        "{first}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The CLI twin a page shows under a result ([`memaudit::command_line::twin`]), run as it is
/// written in a POSIX shell (a file name with a space and a quote, a filter, a problem set,
/// entries, pairs and cells settings), gives the report the core gives for the same request
/// in-process (the page's numbers).
#[cfg(unix)]
#[test]
fn the_pages_twin_command_run_in_a_shell_is_the_same_request() {
    use memaudit::capability::{Capability, InputInfo};
    use memaudit::command_line::twin;
    use memaudit::fields::Fields;

    fn check<C: Capability>(demo: &str, role: &str, request: &C::Request) {
        let dir = std::env::temp_dir().join(format!("memaudit-twin-{}-{}", std::process::id(), C::ANALYSIS.name()));
        std::fs::create_dir_all(&dir).unwrap();
        let name = format!("rows of 'it' {}", std::path::Path::new(demo).file_name().unwrap().to_string_lossy());
        std::fs::copy(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(demo), dir.join(&name)).unwrap();
        let files = [InputInfo { name, role: role.into(), bytes: 0, sha256: String::new() }];
        let command = twin::<C>(request, &files);
        let rest = command.strip_prefix("memaudit ").unwrap();
        let line = format!("'{}' {rest} --format json", env!("CARGO_BIN_EXE_memaudit"));
        let out = Command::new("sh").arg("-c").arg(&line).current_dir(&dir).output().unwrap();
        assert!(out.status.success(), "{command}: {}", String::from_utf8_lossy(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let bytes = std::fs::read(dir.join(&files[0].name)).unwrap();
        let role = <memaudit::capability::FileRole as memaudit::choice::Choice>::parse(role).unwrap();
        let input = memaudit::ingest::InputFile::new(files[0].name.clone(), bytes);
        let roled = memaudit::capability::assign_roles::<C>(vec![(input, Some(role))]).unwrap();
        let (_, report) =
            memaudit::capability::run_once::<C>(&roled, request, &mut memaudit::capability::quiet()).unwrap();
        // Both read by the same JSON parser (its float reading is not always to the last bit).
        let page = serde_json::to_string(&memaudit::capability::report_envelope::<C>(&report)).unwrap();
        assert_eq!(v, serde_json::from_str::<Value>(&page).unwrap(), "{command}");
    }

    let mut calibration = memaudit::calibration::CalibrationRequest { ece_bins: 7, ..Default::default() };
    calibration.route = memaudit::calibration::Route::AtLeast;
    calibration.cells.problems = Some(vec!["p000".into(), "p001".into(), "p002".into(), "p003".into()]);
    check::<memaudit::calibration::Calibration>("static/demo/calibration/routing.csv", "routing", &calibration);

    let mut compliance = memaudit::compliance::ComplianceRequest::default();
    compliance.filter.insert("arm".into(), vec!["none".into(), "dense".into()]);
    compliance.bootstrap.resamples = 50;
    compliance.item = Some("task".into());
    compliance.cells.common_items = true;
    check::<memaudit::compliance::Compliance>("static/demo/compliance/compliance.csv", "compliance_rows", &compliance);

    let mut labels = memaudit::label_audit::LabelsRequest::default();
    labels.set_text("collapse", "relevant=supports,partial; irrelevant=does_not_support").unwrap();
    labels.set_text("bootstrap", "0").unwrap();
    check::<memaudit::label_audit::Labels>("static/demo/labels/labels.csv", "labels", &labels);

    let mut reclaim = memaudit::reclaim::ReclaimRequest::default();
    reclaim.set_text("contrast", "source_first:lossy, summary:blank").unwrap();
    reclaim.set_text("bootstrap", "200").unwrap();
    reclaim.set_text("cluster_by_problem", "true").unwrap();
    reclaim.cells.problems = Some(vec!["p00".into(), "p01".into(), "p02".into()]);
    reclaim.cells.common_items = true;
    check::<memaudit::reclaim::Reclaim>("static/demo/reclaim/trials.jsonl", "trials", &reclaim);
}

/// `memaudit answers --show-item`: a query's rows as the file states them, each arm's
/// prediction with MemoryAgentBench's parse and its score under every profile, checked against
/// the Python reference scripts' values (`tests/reference/answers/answers_reference.json`).
#[test]
fn answers_show_item_gives_each_arms_prediction_parse_and_reference_scores() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let doc: Value =
        serde_json::from_slice(&std::fs::read(root.join("tests/reference/answers/answers_reference.json")).unwrap())
            .unwrap();
    let cases = doc["cases"].as_array().unwrap();
    // Two arms answer each query: arm `a` as reference case 2i, arm `b` as case 2i+1, under the
    // gold of case 2i (so `b`'s scores are the reference's only when both golds agree).
    let dir = std::env::temp_dir().join(format!("memaudit-answers-show-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("answers.jsonl");
    let mut text = String::new();
    for (i, c) in cases.iter().enumerate() {
        let mut row = serde_json::json!({
            "query_id": format!("q{i}"), "arm": "ref", "question": format!("question {i}"),
            "gold": c["gold"], "prediction": c["prediction"],
        });
        for k in ["dataset", "category"] {
            if !c[k].is_null() {
                row[k] = c[k].clone();
            }
        }
        text.push_str(&format!("{row}\n"));
    }
    std::fs::write(&path, &text).unwrap();
    let profiles = ["paper_sem", "mab_sem", "mab_f1", "squad_em", "squad_f1", "locomo_f1"];
    for (i, c) in cases.iter().enumerate().step_by(7) {
        let v = json_of(&["answers", "--input", path.to_str().unwrap(), "--show-item", &format!("q{i}")]);
        assert_eq!(v["item"], format!("q{i}"));
        let shared: Vec<(String, String)> = v["shared"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| (f["column"].as_str().unwrap().into(), f["text"].as_str().unwrap().into()))
            .collect();
        assert!(shared.contains(&("question".into(), format!("question {i}"))), "{shared:?}");
        let row = &v["arms"][0]["rows"][0];
        assert_eq!(v["arms"][0]["arm"], "ref");
        assert_eq!(row["at"], format!("{}:{}", path.display(), i + 1));
        let field = |col: &str| {
            row["fields"]
                .as_array()
                .unwrap()
                .iter()
                .find(|f| f["column"] == col)
                .map(|f| f["text"].as_str().unwrap().to_string())
        };
        assert_eq!(field("prediction").as_deref(), c["prediction"].as_str(), "case {i}");
        assert_eq!(field("parsed").as_deref(), c["parse_output"].as_str(), "case {i}: MemoryAgentBench's parse");
        for p in profiles {
            let text = field(&format!("score {p}")).unwrap();
            let score: f64 = text.trim_end_matches(" (correct)").parse().unwrap();
            assert!((score - c[p].as_f64().unwrap()).abs() < 1e-12, "case {i} {p}: {text} vs {}", c[p]);
            let binary = ["paper_sem", "mab_sem", "squad_em"].contains(&p);
            let correct = if binary { score == 1.0 } else { score >= 0.5 };
            assert_eq!(text.ends_with(" (correct)"), correct, "case {i} {p}: {text}");
        }
    }
    // CSV: a row per cell under `arm, at, column, text`; an unknown query is refused (exit 2).
    let out = run(&["answers", "--input", path.to_str().unwrap(), "--show-item", "q0", "--format", "csv"]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("arm,at,column,text\n"));
    let out = run(&["answers", "--input", path.to_str().unwrap(), "--show-item", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the answers have no query `nope`"));
    std::fs::remove_dir_all(&dir).ok();
}

/// A query repeated within a cell with other scores is refused with the fix in the CLI's
/// words: the settings named as the options that set them (`--split-by`, `--pool`). Memobase's
/// released LoCoMo answers, read with the question as the id: the same question is asked twice
/// in one conversation file with different BLEU scores. Read as the files' own scores (the
/// default), the repeats are answers that differ, counted apart with `--repeats first`; with only
/// `llm_score` named as the files' own scores, `bleu_score` is an ordinary column that differs
/// between the two rows: a design column, and the refusal names the options.
#[test]
fn a_refused_repeat_names_the_options_that_split_or_pool() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/fixtures/external/memobase/memobase_eval_0503_3000.json");
    let path = path.to_str().unwrap();
    let args = [
        "answers",
        "--input",
        path,
        "--id-column",
        "question",
        "--gold-column",
        "answer",
        "--prediction-column",
        "response",
        "--repeats",
        "first",
    ];
    let v = json_of(&[&args[..], &["--format", "json"]].concat());
    let kinds: Vec<(&str, u64)> = v["warnings"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["kind"].as_str().unwrap(), w["count"].as_u64().unwrap()))
        .collect();
    // 11 repeated questions, of which 6 answer otherwise (another response, gold or own score;
    // counted with Python over (conversation, question, category)).
    assert!(kinds.contains(&("conflicting_repeat", 6)) && kinds.contains(&("duplicate_query", 5)), "{kinds:?}");
    let out = run(&[&args[..], &["--stated-columns", "llm_score"]].concat());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 11179, field `query`"), "{err}");
    assert!(err.contains("split the cells by it (--split-by), or pool it (--pool)"), "{err}");
    assert!(!err.contains("  "), "no run of spaces from a broken line: {err}");
}
