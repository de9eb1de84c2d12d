//! `memaudit compare` as a user runs it: the JSON contract, refusal of unpaired data, exports.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_memaudit"))
}

fn reclaim(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/fixtures/external/reclaim-eval")
        .join(name)
        .display()
        .to_string()
}

/// `memaudit compare --outcomes FILE ARGS…`, which must succeed: its JSON.
fn compare_json(file: &std::path::Path, args: &[&str]) -> Value {
    let out = bin().arg("compare").arg("--outcomes").arg(file).args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn tmp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("memaudit-cmp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn json_contract_on_reclaim_eval() {
    let out = bin()
        .args([
            "compare",
            "--outcomes",
            &reclaim("srcconcl_llama_arith.jsonl"),
            "--bootstrap",
            "2000",
            "--format",
            "json",
        ])
        .args(["--item", "pid,seed", "--arm", "policy", "--value", "correct", "--control", "lossy"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    for k in ["arm", "n", "mean", "ci_low", "ci_high", "wilson_low", "wilson_high"] {
        assert!(v["arms"][0].get(k).is_some(), "arms[0].{k}");
    }
    for k in [
        "a",
        "b",
        "n_pairs",
        "mean_a",
        "mean_b",
        "diff",
        "ci_low",
        "ci_high",
        "ci_method",
        "b_count",
        "c_count",
        "mcnemar_p",
        "cohen_h",
        "p_superiority",
        "p_holm",
    ] {
        assert!(v["pairs"][0].get(k).is_some(), "pairs[0].{k}");
    }
    for k in
        ["k", "n_blocks", "chi2", "chi2_tie_corrected", "p", "p_tie_corrected", "mean_ranks", "cd", "alpha", "cliques"]
    {
        assert!(v["friedman"].get(k).is_some(), "friedman.{k}");
    }
    assert_eq!(v["n_items"], 96);
    assert_eq!(v["settings"]["bootstrap"], 2000);
    assert_eq!(v["settings"]["seed"], 1337);
    // b_count = a right & b wrong; diff = a − b
    for p in v["pairs"].as_array().unwrap() {
        let d = p["mean_a"].as_f64().unwrap() - p["mean_b"].as_f64().unwrap();
        assert!((d - p["diff"].as_f64().unwrap()).abs() < 1e-12);
        let bc = p["b_count"].as_f64().unwrap() - p["c_count"].as_f64().unwrap();
        assert!((bc / 96.0 - d).abs() < 1e-12, "(b − c)/n = diff for binary pairs");
    }
    // lossy never recovers, source_first always does: mean ranks 3 vs 1 direction
    let ranks = v["friedman"]["mean_ranks"].as_array().unwrap();
    let rank = |arm: &str| ranks.iter().find(|r| r["arm"] == arm).unwrap()["mean_rank"].as_f64().unwrap();
    assert!(rank("source_first") < rank("lossy"));
    assert_eq!(v["friedman"]["control"], "lossy");
    assert!(v["pairing"]["is_paired"].as_bool().unwrap());
    assert_eq!(v["spec"]["key"], serde_json::json!(["pid", "seed"]));
    // The headlines count the contrasts that differ after Holm from the pairs themselves, and
    // name each (up to three) with its interval and Holm p.
    let pairs = v["pairs"].as_array().unwrap();
    let significant: Vec<&Value> = pairs.iter().filter(|p| p["significant"] == true).collect();
    let headlines = v["headlines"].as_array().unwrap();
    let count = format!("{} of {} contrasts differ after the Holm correction", significant.len(), pairs.len());
    assert!(headlines.iter().any(|h| h["text"].as_str().unwrap().starts_with(&count)), "{count}: {headlines:?}");
    for p in significant.iter().take(3) {
        let interval = format!("[{:.3}, {:.3}], n = 96", p["ci_low"].as_f64().unwrap(), p["ci_high"].as_f64().unwrap());
        assert!(
            headlines.iter().any(|h| h["table"] == "pairs" && h["evidence"].as_str().unwrap().contains(&interval)),
            "{interval}: {headlines:?}"
        );
    }
    let levels: Vec<&str> = headlines.iter().map(|h| h["level"].as_str().unwrap()).collect();
    let mut sorted = levels.clone();
    sorted.sort_by_key(|l| ["alert", "finding", "context"].iter().position(|x| x == l).unwrap());
    assert_eq!(levels, sorted, "most severe first");
}

#[test]
fn unpaired_data_is_refused_with_a_fix() {
    let brief =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/external/BriefBench/all_rows_claude.jsonl");
    let out = bin().arg("compare").arg("--outcomes").arg(&brief).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("does not pair rows by position"), "{err}");
    assert!(err.contains("Each arm without pairing"), "{err}");
    // With JSON asked for, the refusal is also a document: each arm without pairing.
    let out = bin()
        .arg("compare")
        .arg("--outcomes")
        .arg(&brief)
        .args(["--value", "correct", "--bootstrap", "200", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["refused"].as_str().unwrap().contains("--pair-by-position"));
    assert_eq!(v["memaudit_version"], env!("CARGO_PKG_VERSION"));
    let arms = v["unpaired"]["arms"].as_array().unwrap();
    assert_eq!(arms.len(), 9);
    assert_eq!(
        (arms[0]["arm"].as_str(), arms[0]["n"].as_u64(), arms[0]["successes"].as_f64()),
        (Some("bm25"), Some(216), Some(127.0))
    );
    // a key that leaves duplicates: refused, and the message names the fix
    let out = bin()
        .args(["compare", "--outcomes", &reclaim("srcconcl_llama_arith.jsonl"), "--item", "pid"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--key pid,seed"));
    // … the fix as the message spells it, and under `--item`, the option's other name
    for option in ["--key", "--item"] {
        let out = bin()
            .args(["compare", "--outcomes", &reclaim("srcconcl_llama_arith.jsonl"), option, "pid,seed"])
            .args(["--bootstrap", "200", "--format", "json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{option}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // … and accepted with an explicit, labelled aggregation
    let out = bin()
        .args(["compare", "--outcomes", &reclaim("srcconcl_llama_arith.jsonl"), "--item", "pid", "--aggregate", "mean"])
        .args(["--bootstrap", "500", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["n_items"], 32);
    assert!(v["pairing"]["value"].as_str().unwrap().contains("mean"));
}

#[test]
fn wide_csv_percentile_latex_and_items() {
    let csv = tmp(
        "wide.csv",
        "item,alpha,beta,gamma\nq1,0.9,0.5,0.1\nq2,0.8,0.6,0.3\nq3,0.7,0.65,0.2\nq4,0.95,0.4,0.35\nq5,0.6,0.62,0.1\nq6,0.85,0.3,0.4\n",
    );
    let out = bin()
        .arg("compare")
        .arg("--outcomes")
        .arg(&csv)
        .args(["--ci", "percentile", "--bootstrap", "1000", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["pairs"].as_array().unwrap().len(), 3);
    assert_eq!(v["pairs"][0]["test"], "wilcoxon_signed_rank");
    assert!(v["pairs"][0]["mcnemar_p"].is_null(), "McNemar only for binary arms");
    assert!(v["arms"][0]["wilson_low"].is_null(), "Wilson only for 0/1 values");
    let out = bin()
        .arg("compare")
        .arg("--outcomes")
        .arg(&csv)
        .args(["--format", "latex", "--bootstrap", "500"])
        .output()
        .unwrap();
    let tex = String::from_utf8(out.stdout).unwrap();
    assert!(tex.contains("\\begin{tabular}") && tex.contains("alpha") && tex.contains("seed=1337"));
    let out = bin()
        .arg("compare")
        .arg("--outcomes")
        .arg(&csv)
        .args(["--items", "alpha,gamma", "--bootstrap", "500"])
        .output()
        .unwrap();
    let out: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((out["a"].as_str(), out["b"].as_str()), (Some("alpha"), Some("gamma")));
    assert!(out["memaudit_version"].is_string(), "the version envelope");
    let items = &out["items"];
    assert_eq!(items.as_array().unwrap().len(), 6);
    assert!((items[0]["diff"].as_f64().unwrap() - 0.8).abs() < 1e-12, "largest |diff| first");
    // The same items as CSV (the viewer's export): the arms' values under their names, row for
    // row as the JSON lists them.
    let out = bin()
        .arg("compare")
        .arg("--outcomes")
        .arg(&csv)
        .args(["--items", "alpha,gamma", "--bootstrap", "500", "--format", "csv"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("item,alpha,gamma,diff,group"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 6);
    for (row, want) in rows.iter().zip(items.as_array().unwrap()) {
        assert_eq!(row[0], want["item"].as_str().unwrap());
        for (cell, key) in row[1..4].iter().zip(["a", "b", "diff"]) {
            let v: f64 = cell.parse().unwrap();
            assert!((v - want[key].as_f64().unwrap()).abs() < 1e-12, "{key} of {}", row[0]);
        }
    }
}

#[test]
fn stratified_and_cluster_resampling() {
    for (mode, by) in [("cluster", "pid"), ("stratified", "pid")] {
        let out = bin()
            .args(["compare", "--outcomes", &reclaim("srcconcl_llama_arith.jsonl"), "--item", "pid,seed"])
            .args(["--resample", mode, "--by", by, "--bootstrap", "500", "--format", "json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{mode}: {}", String::from_utf8_lossy(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["settings"]["resampling"]["kind"], mode);
    }
    let out = bin()
        .args([
            "compare",
            "--outcomes",
            &reclaim("srcconcl_llama_arith.jsonl"),
            "--resample",
            "cluster",
            "--by",
            "nope",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`nope`"));
}

/// TAG's target-hit localization (seed-003 §B3, Table 7 text): 800 rows of a repaired vs a
/// corrupted bank under fixed retrieval, 14 helps and 8 hurts, all in the 105 rows whose
/// retrieval hit an edited entry: the one-sided randomization p of S = 6 is 0.002232, and the
/// text and the strata CSV show it.
#[test]
fn target_hit_localization_reproduces_tag() {
    let mut csv = String::from("item,target_hit,arm,correct\n");
    for i in 0..800 {
        let hit = i < 105;
        let (repair, corrupt) = match i {
            0..14 => (1, 0),
            14..22 => (0, 1),
            _ if i % 5 == 0 => (0, 0),
            _ => (1, 1),
        };
        csv.push_str(&format!("r{i},{},repair,{repair}\nr{i},{},corrupt,{corrupt}\n", u8::from(hit), u8::from(hit)));
    }
    let p = tmp("tag_localization.csv", &csv);
    let args = |fmt: &str| {
        let mut a: Vec<String> = ["compare", "--outcomes", &p.display().to_string(), "--item", "item", "--arm", "arm"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        a.extend(
            [
                "--value",
                "correct",
                "--strata",
                "target_hit",
                "--per",
                "target_hit",
                "--reference",
                "corrupt",
                "--bootstrap",
                "1000",
                "--format",
                fmt,
            ]
            .map(String::from),
        );
        a
    };
    let out = bin().args(args("json")).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let overall = &v["pairs"][0];
    assert_eq!((overall["b_count"].as_u64(), overall["c_count"].as_u64()), (Some(14), Some(8)));
    // The exact McNemar of (14, 8) and the sign-flip permutation test agree on 0/1 arms.
    assert!((overall["permutation_p"].as_f64().unwrap() - overall["mcnemar_p"].as_f64().unwrap()).abs() < 1e-12);
    let strata = v["by_stratum"].as_array().unwrap();
    let hit = strata.iter().find(|s| s["value"] == "1").unwrap();
    let pair = &hit["pairs"][0];
    assert_eq!(hit["n_items"], 105);
    assert!((pair["interaction_p_greater"].as_f64().unwrap() - 0.002232).abs() < 5e-7, "{pair}");
    assert!((pair["interaction_expected"].as_f64().unwrap() - 105.0 * 6.0 / 800.0).abs() < 1e-12);
    let heads = v["headlines"].as_array().unwrap();
    assert!(
        heads.iter().any(|h| h["text"].as_str().unwrap().contains("where target_hit = 1")),
        "a localization headline: {heads:?}"
    );
    let text = String::from_utf8(bin().args(args("table")).output().unwrap().stdout).unwrap();
    assert!(text.contains("== Contrasts per target_hit") && text.contains("p perm."), "{text}");
    let csv_out =
        String::from_utf8(bin().args(args("csv")).args(["--table", "strata"]).output().unwrap().stdout).unwrap();
    assert!(csv_out.starts_with("column,value,n_items,a,b,"));
    assert!(csv_out.lines().count() == 3, "{csv_out}");
}

/// A compute-matched control that equals its baseline on every item (TAG's retry on SVAMP and
/// ASDiv, seed-003 §B7 item 12) is named as degenerate; arms that differ are not.
#[test]
fn a_control_equal_to_its_baseline_is_named_degenerate() {
    let mut csv = String::from("item,baseline,retry,gated\n");
    for i in 0..60 {
        let base = u8::from(i % 3 != 0);
        let gated = if i % 7 == 0 { 1 - base } else { base };
        csv.push_str(&format!("q{i},{base},{base},{gated}\n"));
    }
    let p = tmp("degenerate.csv", &csv);
    let out = bin()
        .args(["compare", "--outcomes", &p.display().to_string(), "--bootstrap", "500", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let texts: Vec<&str> = v["headlines"].as_array().unwrap().iter().map(|h| h["text"].as_str().unwrap()).collect();
    let degenerate: Vec<&&str> = texts.iter().filter(|t| t.contains("same outcome on every item")).collect();
    assert_eq!(degenerate.len(), 1, "{texts:?}");
    assert!(degenerate[0].starts_with("baseline and retry"), "{texts:?}");
}

/// Compute-matched controls (TAG App. A: "Retry controls use matched second-pass compute"):
/// `--cost calls` gives each arm's mean calls, and `--matched retry:gated` compares the control's
/// cost with the arm's: a retry at 2 calls per item is not matched to a gate at about 1.3.
#[test]
fn compute_matched_controls_compare_costs() {
    let mut csv = String::from("item,arm,correct,calls\n");
    for i in 0..90 {
        let base = u8::from(i % 4 != 0);
        let routed = i % 3 == 0;
        csv.push_str(&format!("q{i},baseline,{base},1\n"));
        csv.push_str(&format!("q{i},retry,{},2\n", if i % 11 == 0 { 1 - base } else { base }));
        csv.push_str(&format!("q{i},gated,{},{}\n", if routed { 1 } else { base }, if routed { 2 } else { 1 }));
    }
    let p = tmp("costs.csv", &csv);
    let run = |extra: &[&str]| {
        bin()
            .args([
                "compare",
                "--outcomes",
                &p.display().to_string(),
                "--item",
                "item",
                "--arm",
                "arm",
                "--value",
                "correct",
            ])
            .args(["--bootstrap", "500"])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = run(&["--cost", "calls", "--matched", "retry:gated", "--format", "json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let cost = &v["costs"][0];
    assert_eq!(cost["column"], "calls");
    let mean = |arm: &str| {
        cost["arms"].as_array().unwrap().iter().find(|a| a["arm"] == arm).unwrap()["mean"].as_f64().unwrap()
    };
    assert_eq!((mean("baseline"), mean("retry")), (1.0, 2.0));
    assert!((mean("gated") - 120.0 / 90.0).abs() < 1e-12);
    let m = &cost["matched"][0];
    assert_eq!(
        (m["control"].as_str(), m["arm"].as_str(), m["differs"].as_bool()),
        (Some("retry"), Some("gated"), Some(true))
    );
    assert!((m["diff"].as_f64().unwrap() - (2.0 - 120.0 / 90.0)).abs() < 1e-12);
    let texts: Vec<String> =
        v["headlines"].as_array().unwrap().iter().map(|h| h["text"].as_str().unwrap().to_string()).collect();
    assert!(texts.iter().any(|t| t == "retry is not compute-matched to gated: its calls differ"), "{texts:?}");
    let csv_out = String::from_utf8(
        run(&["--cost", "calls", "--matched", "retry:gated", "--format", "csv", "--table", "matched"]).stdout,
    )
    .unwrap();
    assert!(
        csv_out
            .starts_with("column,control,arm,control_mean,arm_mean,diff,ci_low,ci_high,differs\ncalls,retry,gated,2,"),
        "{csv_out}"
    );
    // A matched control without a cost column, an unknown arm and an unknown column are refused.
    for (args, want) in [
        (vec!["--matched", "retry:gated"], "--cost"),
        (vec!["--cost", "calls", "--matched", "retry:nope"], "`nope` is not an arm"),
        (vec!["--cost", "tokens"], "no column `tokens`"),
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

/// The baseline ladder (seed-000 §5 item 7, §1.11: BM25 beats the specialist by +13 to +22pp on
/// three of four datasets): a method that does worse than the plain BM25 arm, its interval
/// excluding 0, is an alert; one that does not is not named; `--baseline` states another arm.
#[test]
fn a_method_that_loses_to_bm25_is_an_alert() {
    let mut csv = String::from("item,BM25,specialist,hybrid\n");
    for i in 0..100 {
        let bm25 = u8::from(i % 100 < 65);
        let spec = u8::from(i % 100 < 43);
        let hybrid = u8::from(i % 100 < 63 || i % 100 == 99);
        csv.push_str(&format!("q{i},{bm25},{spec},{hybrid}\n"));
    }
    let p = tmp("ladder.csv", &csv);
    let run = |extra: &[&str]| -> Vec<String> {
        let out = bin()
            .args(["compare", "--outcomes", &p.display().to_string(), "--bootstrap", "1000", "--format", "json"])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["headlines"].as_array().unwrap().iter().map(|h| h["text"].as_str().unwrap().to_string()).collect()
    };
    let texts = run(&[]);
    let ladder: Vec<&String> = texts.iter().filter(|t| t.contains("plain baseline")).collect();
    assert_eq!(ladder.len(), 1, "{texts:?}");
    assert_eq!(ladder[0], "specialist does worse than the plain baseline BM25");
    // Stated otherwise: against `hybrid` the specialist also loses; BM25 does not.
    let texts = run(&["--baseline", "hybrid"]);
    let ladder: Vec<&String> = texts.iter().filter(|t| t.contains("plain baseline")).collect();
    assert_eq!(ladder.len(), 1, "{texts:?}");
    assert!(ladder[0].starts_with("specialist"), "{texts:?}");
}

/// `--rename OLD=NEW` shows an arm under another name in every table and export; the numbers
/// are those of the arm as read. An arm the rows do not have, or two arms given one name, is
/// refused naming `--rename`, never merged or ignored.
#[test]
fn arms_are_renamed_in_every_output_and_never_merged() {
    let mut csv = String::from("item,arm,correct\n");
    for i in 0..30 {
        for (j, arm) in ["oracle_bc_on_budget_500_run", "oracle_bc_on_budget_1000_run", "bm25"].iter().enumerate() {
            csv.push_str(&format!("q{i},{arm},{}\n", u8::from((i * (j + 2)) % 5 < 3)));
        }
    }
    let file = tmp("rename.csv", &csv);
    let run = |extra: &[&str]| {
        let out = bin()
            .args(["compare", "--outcomes"])
            .arg(&file)
            .args(["--bootstrap", "300", "--format", "json"])
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, plain, err) = run(&[]);
    assert_eq!(code, Some(0), "{err}");
    let (code, renamed, err) = run(&[
        "--rename",
        "oracle_bc_on_budget_500_run=budget 500",
        "--rename",
        "oracle_bc_on_budget_1000_run=budget 1000",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let plain: Value = serde_json::from_str(&plain).unwrap();
    let renamed: Value = serde_json::from_str(&renamed).unwrap();
    let arms = |v: &Value| {
        v["arms"].as_array().unwrap().iter().map(|a| a["arm"].as_str().unwrap().to_string()).collect::<Vec<_>>()
    };
    assert_eq!(arms(&renamed), ["budget 500", "budget 1000", "bm25"]);
    // The same numbers, arm for arm and contrast for contrast.
    for (a, b) in plain["arms"].as_array().unwrap().iter().zip(renamed["arms"].as_array().unwrap()) {
        assert_eq!(a["mean"], b["mean"]);
        assert_eq!(a["ci_low"], b["ci_low"]);
    }
    for (a, b) in plain["pairs"].as_array().unwrap().iter().zip(renamed["pairs"].as_array().unwrap()) {
        assert_eq!((&a["diff"], &a["mcnemar_p"], &a["ci_low"]), (&b["diff"], &b["mcnemar_p"], &b["ci_low"]));
    }
    assert_eq!(renamed["pairs"][0]["a"], "budget 500");
    let spec = renamed["spec"].to_string();
    assert!(spec.contains("arm `oracle_bc_on_budget_500_run` shown as `budget 500` (as stated)"), "{spec}");
    // The CSV export carries the new names.
    let out = bin()
        .args(["compare", "--outcomes"])
        .arg(&file)
        .args(["--bootstrap", "300", "--format", "csv", "--table", "pairs", "--rename", "bm25=BM25"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(",BM25,") || text.contains("BM25\n") || text.contains(",BM25"), "{text}");
    assert!(!text.contains("bm25"), "{text}");
    // An arm the rows do not have.
    let (code, _, err) = run(&["--rename", "bm-25=BM25"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--rename") && err.contains("no arm `bm-25`") && err.contains("`bm25`"), "{err}");
    // Two arms given one name would merge them: refused.
    let (code, _, err) = run(&["--rename", "oracle_bc_on_budget_500_run=bm25"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("would both be called `bm25`"), "{err}");
    let (code, _, err) = run(&["--rename", "bm25=x", "--rename", "oracle_bc_on_budget_500_run=x"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("two arms are renamed `x`"), "{err}");
}

/// Arms tied for the best mean are named together in the headline, never one picked.
#[test]
fn arms_tied_for_the_best_mean_are_named_together() {
    let mut csv = String::from("item,arm,correct\n");
    for i in 0..20 {
        for arm in ["sys_a", "sys_b", "sys_c", "worse"] {
            let v = if arm == "worse" { u8::from(i % 3 == 0) } else { u8::from(i % 2 == 0) };
            csv.push_str(&format!("q{i},{arm},{v}\n"));
        }
    }
    let file = tmp("ties.csv", &csv);
    let out = bin()
        .args(["compare", "--outcomes"])
        .arg(&file)
        .args(["--bootstrap", "200", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let texts: Vec<&str> = v["headlines"].as_array().unwrap().iter().map(|h| h["text"].as_str().unwrap()).collect();
    assert!(texts.contains(&"3 arms share the highest mean over 20 items: sys_a, sys_b, sys_c"), "{texts:?}");
    assert!(!texts.iter().any(|t| t.contains("has the highest mean")), "{texts:?}");
    // Four arms: the Friedman test is headlined. Two arms: the contrast is the test, and the
    // Friedman numbers stay in the JSON only.
    assert!(texts.iter().any(|t| t.contains("Friedman test")), "{texts:?}");
    let two: String =
        csv.lines().filter(|l| !l.contains("sys_c") && !l.contains("worse")).map(|l| format!("{l}\n")).collect();
    let v = compare_json(&tmp("two.csv", &two), &["--bootstrap", "200", "--format", "json"]);
    let texts: Vec<&str> = v["headlines"].as_array().unwrap().iter().map(|h| h["text"].as_str().unwrap()).collect();
    assert!(!texts.iter().any(|t| t.contains("Friedman")), "{texts:?}");
    assert_eq!(v["friedman"]["k"], 2);
}

#[test]
fn one_system_file_is_summarised_overall_and_per_category() {
    // Memobase's released LoCoMo judge file: one system, no arm column. Its summary is the
    // result (exit 0), overall and per category, each with Wilson and Clopper–Pearson.
    let f = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/fixtures/external/memobase/memobase_eval_0503_3000.json");
    let v = compare_json(&f, &["--per", "category", "--bootstrap", "200", "--format", "json"]);
    assert!(v["refused"].as_str().unwrap().contains("one system's"), "{}", v["refused"]);
    assert!(v["headlines"][0]["text"].as_str().unwrap().starts_with("One arm only (`memobase_eval_0503_3000`)"));

    // The counts read here from the file itself: {conversation: [{category, llm_score}, …]}.
    let doc: Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
    let mut want: std::collections::BTreeMap<String, (u64, u64)> = Default::default();
    for rows in doc.as_object().unwrap().values() {
        for r in rows.as_array().unwrap() {
            let c = match &r["category"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            for key in ["(all rows)".to_string(), format!("category={c}")] {
                let e = want.entry(key).or_default();
                e.0 += 1;
                e.1 += r["llm_score"].as_u64().unwrap();
            }
        }
    }
    // The Wilson score interval in closed form (Wilson 1927), z for 95%.
    let z: f64 = 1.959963984540054;
    let wilson = |s: f64, n: f64| {
        let p = s / n;
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
        (centre - half, centre + half)
    };
    let arms = v["unpaired"]["arms"].as_array().unwrap();
    assert_eq!(arms.len(), want.len(), "{arms:?}");
    for a in arms {
        assert_eq!(a["arm"], "memobase_eval_0503_3000");
        let key = a["group"].as_str().unwrap_or("(all rows)").to_string();
        let (n, s) = want[&key];
        assert_eq!((a["n"].as_u64(), a["successes"].as_f64()), (Some(n), Some(s as f64)), "{key}");
        let (lo, hi) = wilson(s as f64, n as f64);
        assert!((a["wilson_low"].as_f64().unwrap() - lo).abs() < 1e-12, "{key}");
        assert!((a["wilson_high"].as_f64().unwrap() - hi).abs() < 1e-12, "{key}");
        let (cl, ch) = (a["clopper_pearson_low"].as_f64().unwrap(), a["clopper_pearson_high"].as_f64().unwrap());
        assert!(cl < s as f64 / n as f64 && ch > s as f64 / n as f64, "{key}");
    }
    // The whole file first: 1,540 questions, 1,092 judged right (70.9%).
    assert_eq!((arms[0]["group"].as_str(), arms[0]["n"].as_u64()), (None, Some(1540)));

    // As text, on standard output; a `--per` column the file lacks is said, not dropped.
    let out =
        bin().arg("compare").arg("--outcomes").arg(&f).args(["--per", "nope", "--bootstrap", "200"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Clopper–Pearson") && text.contains("not grouped: per: there is no column `nope`"), "{text}");
}

#[test]
fn one_system_judge_file_gives_its_judges_agreement() {
    // A judge file of one system in locomo-audit's shape (three judgments per question, two
    // records missing one); reference values from statsmodels' fleiss_kappa
    // (tests/reference/judges/make_reference.py).
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/judges");
    let f = dir.join("judge_file.json");
    let want: Value = serde_json::from_slice(&std::fs::read(dir.join("reference.json")).unwrap()).unwrap();
    let v = compare_json(&f, &["--bootstrap", "2000", "--format", "json"]);
    let j = &v["unpaired"]["judges"][0];
    assert_eq!(j["arm"], "judge_file");
    assert_eq!(j["judgments"], serde_json::json!(["judgment_1", "judgment_2", "judgment_3"]));
    for key in ["items", "incomplete", "unanimous"] {
        assert_eq!(j[key], want[key], "{key}");
    }
    let close = |a: &Value, b: &Value| (a.as_f64().unwrap() - b.as_f64().unwrap()).abs() < 1e-12;
    assert!(close(&j["kappa"], &want["fleiss_kappa"]), "{j}");
    assert!(close(&j["observed"], &want["observed"]) && close(&j["expected"], &want["expected"]), "{j}");
    for (a, b) in j["shares"].as_array().unwrap().iter().zip(want["shares"].as_array().unwrap()) {
        assert!(close(a, b), "{j}");
    }
    let (lo, k, hi) =
        (j["kappa_low"].as_f64().unwrap(), j["kappa"].as_f64().unwrap(), j["kappa_high"].as_f64().unwrap());
    assert!(lo < k && k < hi && hi - lo < 0.5, "{j}");
    assert!(j["interval"].as_str().unwrap().contains("2000 resamples"), "{j}");
    // κ ≈ 0.59 is below 0.6: a finding, pointing at the judges table.
    let h = v["headlines"].as_array().unwrap().iter().find(|h| h["table"] == "judges").expect("a judges headline");
    assert_eq!(h["level"], "finding");
    assert!(h["text"].as_str().unwrap().starts_with("The 3 judgments of `judge_file` agree on 87 of 118 items"), "{h}");

    // The same numbers as CSV and as text.
    let out = bin()
        .arg("compare")
        .arg("--outcomes")
        .arg(&f)
        .args(["--bootstrap", "2000", "--format", "csv", "--table", "judges"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let csv = String::from_utf8_lossy(&out.stdout);
    assert!(csv.starts_with("arm,judgments,items,incomplete,unanimous,unanimous_share,fleiss_kappa,"), "{csv}");
    assert!(csv.contains("judge_file,judgment_1;judgment_2;judgment_3,118,2,87,"), "{csv}");
    let out = bin().arg("compare").arg("--outcomes").arg(&f).args(["--bootstrap", "200"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("== Judges' agreement") && text.contains("2 item(s) with some verdicts missing"), "{text}");
}

#[test]
fn each_judgment_of_one_system_is_an_arm() {
    // `--judgment each` on one system's judge file (no arm column): the judges are compared
    // item by item, arms named after the file.
    let f = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/judges/judge_file.json");
    let v = compare_json(&f, &["--judgment", "each", "--allow-incomplete", "--bootstrap", "500", "--format", "json"]);
    assert!(v["refused"].is_null(), "{}", v["refused"]);
    let arms: Vec<&str> = v["arms"].as_array().unwrap().iter().map(|a| a["arm"].as_str().unwrap()).collect();
    assert_eq!(arms, ["judge_file/judgment_1", "judge_file/judgment_2", "judge_file/judgment_3"]);
    // The items with every judgment: each judge's mean is its share of 1s there.
    let want: Value = serde_json::from_slice(
        &std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/judges/reference.json"))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(v["n_items"], want["items"]);
    for (a, s) in v["arms"].as_array().unwrap().iter().zip(want["shares"].as_array().unwrap()) {
        assert!((a["mean"].as_f64().unwrap() - s.as_f64().unwrap()).abs() < 1e-12, "{a}");
    }
    assert_eq!(v["judges"][0]["items"], want["items"]);
}

/// `--show-item`: one item as the files state it. Checked against the files read directly
/// here: LoCoMo answer files of two vendors, item `conversation | position` (1-based).
#[test]
fn show_item_gives_the_items_text_as_each_file_states_it() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/outcome_families");
    let (mem0, ever) = (dir.join("mem0_evals.json"), dir.join("evermemos.json"));
    let read = |p: &PathBuf| -> Value { serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap() };
    let (m, e) = (read(&mem0), read(&ever));
    for (conv, pos) in [("0", 1usize), ("0", 2), ("1", 1)] {
        let item = format!("{conv} | {pos}");
        let out = bin()
            .args(["compare", "--outcomes"])
            .args([&mem0, &ever])
            .args(["--show-item", &item, "--items", "evermemos,mem0_evals"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["item"], item.as_str());
        let m_rec = &m[conv][pos - 1];
        let e_rec = &e["detailed_results"][format!("locomo_exp_user_{conv}")][pos - 1];
        // Both files state the same question: shared, once.
        assert_eq!(m_rec["question"], e_rec["question"], "the fixture's vendors answer one question");
        let shared =
            |col: &str| v["shared"].as_array().unwrap().iter().find(|f| f["column"] == col).map(|f| f["text"].clone());
        assert_eq!(shared("question"), Some(m_rec["question"].clone()), "{item}");
        // Each arm's own cells, in the order asked, each row at its record's line.
        let arms = v["arms"].as_array().unwrap();
        assert_eq!(arms.iter().map(|a| a["arm"].as_str().unwrap()).collect::<Vec<_>>(), ["evermemos", "mem0_evals"]);
        let cell = |arm: &Value, col: &str| {
            arm["rows"][0]["fields"].as_array().unwrap().iter().find(|f| f["column"] == col).map(|f| f["text"].clone())
        };
        assert_eq!(cell(&arms[0], "generated_answer"), Some(e_rec["generated_answer"].clone()), "{item}");
        assert_eq!(cell(&arms[1], "response"), Some(m_rec["response"].clone()), "{item}");
        for (arm, path) in [(&arms[0], &ever), (&arms[1], &mem0)] {
            let at = arm["rows"][0]["at"].as_str().unwrap();
            let line: usize = at.rsplit(':').next().unwrap().parse().unwrap();
            assert!(at.starts_with(&path.display().to_string()), "{at}");
            let text = std::fs::read_to_string(path).unwrap();
            let record: Vec<&str> = text.lines().skip(line - 1).take(2).collect();
            assert_eq!(record[0].trim(), "{", "{at}: the record's first line");
            assert!(record[1].contains(m_rec["question"].as_str().unwrap()), "{at}: {record:?}");
        }
        // As CSV (the viewer's export): a row per cell, the shared ones first with no arm.
        let out = bin()
            .args(["compare", "--outcomes"])
            .args([&mem0, &ever])
            .args(["--show-item", &item, "--items", "evermemos,mem0_evals", "--format", "csv"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let mut reader = csv::Reader::from_reader(out.stdout.as_slice());
        assert_eq!(reader.headers().unwrap(), vec!["arm", "at", "column", "text"]);
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        let mut want: Vec<[String; 4]> = v["shared"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                [String::new(), String::new(), f["column"].as_str().unwrap().into(), f["text"].as_str().unwrap().into()]
            })
            .collect();
        for a in arms {
            for r in a["rows"].as_array().unwrap() {
                for f in r["fields"].as_array().unwrap() {
                    want.push([
                        a["arm"].as_str().unwrap().into(),
                        r["at"].as_str().unwrap().into(),
                        f["column"].as_str().unwrap().into(),
                        f["text"].as_str().unwrap().into(),
                    ]);
                }
            }
        }
        let got: Vec<[String; 4]> = rows.iter().map(|r| [0, 1, 2, 3].map(|i| r[i].to_string())).collect();
        assert_eq!(got, want, "{item}");
    }
    // An item the comparison does not have is refused, naming the key.
    let out =
        bin().args(["compare", "--outcomes"]).args([&mem0, &ever]).args(["--show-item", "9 | 99"]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no item `9 | 99`") && err.contains("conversation, position"), "{err}");
}

/// Thirty arms: the headline of the best mean names the twelve best, best first, and says the
/// rest are in the arms table; the Friedman groups name a few arms each.
#[test]
fn many_arms_headlines_name_the_best_few() {
    let mut text = String::from("item_id,system,score\n");
    for i in 0..20 {
        for a in 0..30 {
            text.push_str(&format!("q{i},s{a:02},{}\n", (a * 3 + i * 7) % 11 + a));
        }
    }
    let f = tmp("thirty_arms.csv", &text);
    let v = compare_json(&f, &["--bootstrap", "200", "--format", "json"]);
    let h = v["headlines"].as_array().unwrap();
    let best = h.iter().find(|h| h["text"].as_str().unwrap().contains("has the highest mean")).unwrap();
    let evidence = best["evidence"].as_str().unwrap();
    assert!(evidence.starts_with("means of the 12 best of 30 arms: "), "{evidence}");
    let listed: Vec<(String, f64)> = evidence["means of the 12 best of 30 arms: ".len()..]
        .split(';')
        .next()
        .unwrap()
        .split(", ")
        .map(|p| {
            let (a, m) = p.rsplit_once(' ').unwrap();
            (a.to_string(), m.parse().unwrap())
        })
        .collect();
    assert_eq!(listed.len(), 12);
    let mut arms: Vec<(String, f64)> = v["arms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["arm"].as_str().unwrap().to_string(), a["mean"].as_f64().unwrap()))
        .collect();
    arms.sort_by(|x, y| y.1.total_cmp(&x.1));
    for ((got, m), (want, w)) in listed.iter().zip(&arms) {
        assert_eq!(got, want);
        assert!((m - w).abs() < 5e-4, "{got}: {m} vs {w}");
    }
    assert!(best["text"].as_str().unwrap().starts_with(&arms[0].0));
}

/// Each arm's mean win rate and Copeland score, and each pair's win rate, equal NumPy's from
/// the rows (`tests/reference/tournament/make_tournament_reference.py`), with higher and with
/// lower values better; the CSV tables carry the same columns.
#[test]
fn tournament_columns_equal_numpy() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/tournament");
    let want: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("tournament.json")).unwrap()).unwrap();
    let file = dir.join("outcomes.csv");
    for (key, extra) in [("higher_is_better", &[][..]), ("lower_is_better", &["--lower-is-better"][..])] {
        let mut args =
            vec!["--key", "item", "--arm", "arm", "--value", "score", "--bootstrap", "200", "--format", "json"];
        args.extend(extra);
        let got = compare_json(&file, &args);
        let arms = got["arms"].as_array().unwrap();
        assert_eq!(arms.len(), 5);
        for a in arms {
            let w = &want[key]["arms"][a["arm"].as_str().unwrap()];
            let rate = a["win_rate"].as_f64().unwrap();
            assert!((rate - w["win_rate"].as_f64().unwrap()).abs() < 1e-12, "{key} {a}");
            assert_eq!(a["copeland"], w["copeland"], "{key} {}", a["arm"]);
        }
        for p in got["pairs"].as_array().unwrap() {
            let name = format!("{}|{}", p["a"].as_str().unwrap(), p["b"].as_str().unwrap());
            let w = want[key]["pairs"][&name].as_f64().unwrap();
            assert!((p["win_rate"].as_f64().unwrap() - w).abs() < 1e-12, "{key} {name}");
        }
    }
    let out = bin()
        .args(["compare", "--outcomes"])
        .arg(&file)
        .args(["--key", "item", "--arm", "arm", "--value", "score", "--bootstrap", "200"])
        .args(["--format", "csv", "--table", "arms"])
        .output()
        .unwrap();
    let csv = String::from_utf8_lossy(&out.stdout);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    assert!(header.ends_with(&["win_rate", "copeland"]), "{header:?}");
}
