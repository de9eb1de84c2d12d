//! `memaudit probe` and `memaudit reclaim` as a user runs them: JSON contract keys, CSV,
//! exit codes and error locations.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_memaudit"))
}

fn reclaim(name: &str) -> String {
    common::shared().join("fixtures/external/reclaim-eval").join(name).display().to_string()
}

fn tmp(name: &str, text: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("memaudit-cli-probe-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn run_json(args: &[&str]) -> Value {
    let out = bin().args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn has_keys(v: &Value, keys: &[&str], what: &str) {
    for k in keys {
        assert!(v.get(*k).is_some(), "{what} lacks `{k}`: {v}");
    }
}

#[test]
fn probe_json_has_the_contract_keys_with_outcomes() {
    let v = run_json(&[
        "probe",
        "--notes",
        &reclaim("realworld_meta-llama_llama-3.1-8b-instruct_arith_t0.7.jsonl"),
        "--keys",
        &reclaim("probe_keys_base16.json"),
        "--arm",
        "directed",
        "--format",
        "json",
    ]);
    let notes = v["notes"].as_array().unwrap();
    assert_eq!(notes.len(), 576);
    for n in notes {
        has_keys(n, &["note_id", "verdict", "items_total", "items_found", "stale_found", "tag_k", "tag_n"], "notes[]");
    }
    has_keys(&v["summary"], &["mode", "n", "counts", "silent_rate", "silent_low", "silent_high"], "summary");
    assert_eq!(v["summary"]["mode"], "itemized");
    assert_eq!(v["summary"]["n"], 576);
    let counts = v["summary"]["counts"].as_object().unwrap();
    let names: Vec<&str> = counts.keys().map(String::as_str).collect();
    for want in ["complete", "partial_tagged", "partial_silent", "silent", "loud"] {
        assert!(names.contains(&want), "{names:?}");
    }
    let by = v["by_verdict"].as_array().unwrap();
    for row in by {
        has_keys(row, &["verdict", "n", "recovered", "rate", "low", "high"], "by_verdict[]");
    }
    let complete = by.iter().find(|r| r["verdict"] == "complete").unwrap();
    let silent = by.iter().find(|r| r["verdict"] == "silent").unwrap();
    assert!(complete["rate"].as_f64().unwrap() >= 0.70 && silent["rate"].as_f64().unwrap() <= 0.05);
    // both modes side by side, with confusion
    has_keys(&v["side_by_side"], &["itemized", "reference", "agreement"], "side_by_side");
    has_keys(
        &v["side_by_side"]["reference"]["confusion"],
        &["n", "accuracy", "precision", "sensitivity", "specificity"],
        "confusion",
    );
    assert_eq!(v["side_by_side"]["reference"]["summary"]["counts"]["uncorrectable_silent"], 265);
    // The `summary` and `confusion` tables are each mode's `summary` and `confusion`, row for
    // row and column for column.
    let table = |name: &str| -> Vec<std::collections::HashMap<String, String>> {
        let out = bin()
            .args(["probe", "--notes", &reclaim("realworld_meta-llama_llama-3.1-8b-instruct_arith_t0.7.jsonl")])
            .args([
                "--keys",
                &reclaim("probe_keys_base16.json"),
                "--arm",
                "directed",
                "--format",
                "csv",
                "--table",
                name,
            ])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let mut r = csv::Reader::from_reader(out.stdout.as_slice());
        let headers = r.headers().unwrap().clone();
        r.records()
            .map(|rec| headers.iter().zip(rec.unwrap().iter()).map(|(h, c)| (h.to_string(), c.to_string())).collect())
            .collect()
    };
    let close = |cell: &str, want: &Value, what: &str| match want.as_f64() {
        Some(x) => assert!((cell.parse::<f64>().unwrap() - x).abs() < 1e-12, "{what}: {cell} vs {x}"),
        None => assert_eq!(cell, want.as_str().unwrap_or(""), "{what}"),
    };
    let (summary, confusion) = (table("summary"), table("confusion"));
    assert_eq!(summary.len(), 2);
    for (row, mode) in summary.iter().zip(["itemized", "reference"]) {
        let want = &v["side_by_side"][mode]["summary"];
        assert_eq!(row["mode"], mode);
        for key in [
            "n",
            "silent_n",
            "silent_rate",
            "silent_low",
            "silent_high",
            "unflagged_n",
            "unflagged_rate",
            "with_outcome",
        ] {
            close(&row[key], &want[key], &format!("{mode} {key}"));
        }
        close(&row["modal_verdict"], &want["modal_verdict"], &format!("{mode} modal_verdict"));
    }
    assert_eq!(confusion.len(), 2, "both modes have outcomes");
    for (row, mode) in confusion.iter().zip(["itemized", "reference"]) {
        let want = &v["side_by_side"][mode]["confusion"];
        for key in ["n", "predicted_recover_recovered", "predicted_fail_failed", "accuracy", "npv", "specificity"] {
            close(&row[key], &want[key], &format!("{mode} {key}"));
        }
    }
}

#[test]
fn probe_reference_mode_and_no_outcomes() {
    let notes = tmp(
        "notes.jsonl",
        concat!(
            r#"{"note_id":"a","note":"(Memory of an earlier session.) You concluded the total before tax was $55.","source":"notebooks at $4 each (7 bought) and pens at $2 each (9 bought)","stale":"$55"}"#,
            "\n",
            r#"{"note_id":"b","note":"The facts were: notebooks at $4 each (7 bought) and pens at $2 each (9 bought).","source":"notebooks at $4 each (7 bought) and pens at $2 each (9 bought)","stale":"$55"}"#,
            "\n"
        ),
    );
    let v = run_json(&["probe", "--notes", notes.to_str().unwrap(), "--mode", "reference", "--format", "json"]);
    assert_eq!(v["summary"]["mode"], "reference");
    assert_eq!(v["notes"][0]["verdict"], "uncorrectable_silent");
    assert_eq!(v["notes"][1]["verdict"], "correctable");
    assert_eq!(v["summary"]["silent_rate"], 0.5);
    assert!(v.get("by_verdict").is_none(), "no outcomes, no by_verdict");
    // details carry highlight spans
    let v = run_json(&["probe", "--notes", notes.to_str().unwrap(), "--format", "json", "--details"]);
    let h = v["details"][0]["highlights"].as_array().unwrap();
    assert!(h.iter().any(|x| x["role"] == "stale"), "{h:?}");
    has_keys(&h[0]["span"], &["start", "end", "byte_start", "byte_end"], "span");
    // CSV and text tables
    let out = bin().args(["probe", "--notes", notes.to_str().unwrap(), "--format", "csv"]).output().unwrap();
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(csv.starts_with("note_id,mode,verdict,items_total,items_found,stale_found,tag_k,tag_n"), "{csv}");
    let out = bin().args(["probe", "--notes", notes.to_str().unwrap()]).output().unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains("silent-failure rate"));
}

#[test]
fn probe_one_pasted_note() {
    let v = run_json(&[
        "probe",
        "--note",
        "Maria: 7 notebooks at $4, 9 pens at $2. Earlier total: $55.",
        "--source",
        "notebooks at $4 each (7 bought) and pens at $2 each (9 bought)",
        "--stale",
        "$55",
        "--format",
        "json",
    ]);
    assert_eq!(v["notes"][0]["verdict"], "complete");
    assert_eq!(v["notes"][0]["items_found"], 2);
    assert_eq!(v["notes"][0]["stale_found"], true);
}

#[test]
fn probe_errors_name_file_line_field() {
    let bad = tmp(
        "bad.jsonl",
        "{\"note_id\":\"a\",\"note\":\"x\",\"source\":\"a at $1 (2)\"}\n{\"note_id\":\"b\",\"note\":\"y\"}\n",
    );
    let out = bin().args(["probe", "--notes", bad.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.jsonl, line 2, field `source`"), "{err}");
    let out = bin().args(["probe", "--notes", "/nonexistent/notes.jsonl"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let out = bin().args(["probe"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "clap usage error");
}

#[test]
fn reclaim_json_keys_and_paper_cells() {
    let v = run_json(&[
        "reclaim",
        "--trials",
        &reclaim("realworld_meta-llama_llama-3.1-8b-instruct_arith_t0.7.jsonl"),
        "--keys",
        &reclaim("probe_keys_base16.json"),
        "--arm",
        "directed",
        "--contrast",
        "source_first_auto:langchain_summary",
        "--format",
        "json",
    ]);
    let cells = v["cells"].as_array().unwrap();
    for c in cells {
        has_keys(
            c,
            &[
                "model",
                "task",
                "policy",
                "integrity",
                "arm",
                "n",
                "recovered",
                "rr",
                "rr_low",
                "rr_high",
                "abstain_rate",
                "emit_rate",
                "attractor_per_n",
                "attractor_per_emission",
                "rescored",
                "rescore_disagrees",
            ],
            "cells[]",
        );
        has_keys(&c["attractor_per_n"], &["count", "denominator", "denominator_label", "rate"], "share");
    }
    let auto = cells.iter().find(|c| c["policy"] == "source_first_auto").unwrap();
    assert_eq!(auto["rr_low"], 0.4375);
    let d = &v["contrasts"][0];
    assert_eq!(d["delta"], 0.17708333333333334);
    assert_eq!(d["low"], 0.052083333333333336);
    assert_eq!(d["high"], 0.3020833333333333);
    has_keys(&v, &["worse_than_empty", "settings", "interval_method", "warnings"], "reclaim report");
    // CSV
    let out = bin()
        .args(["reclaim", "--trials", &reclaim("srcconcl_llama_arith.jsonl"), "--format", "csv", "--table", "cells"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        String::from_utf8(out.stdout).unwrap().starts_with("model,task,policy,integrity,arm,n,problems,recovered,rr,")
    );
    // a bad setting is exit code 2
    let out = bin()
        .args(["reclaim", "--trials", &reclaim("srcconcl_llama_arith.jsonl"), "--contrast", "nocolon"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn reclaim_abstain_rule_flag() {
    let grok = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/reference/reclaim_hedge/blank_strict_grok-4.3.head54.jsonl")
        .display()
        .to_string();
    let keys = reclaim("probe_keys_base16.json");
    let cell = |v: &Value, policy: &str| {
        v["cells"].as_array().unwrap().iter().find(|c| c["policy"] == policy).cloned().unwrap()
    };
    // default: strict, recorded in the settings and on every cell
    let strict = run_json(&["reclaim", "--trials", &grok, "--keys", &keys, "--format", "json"]);
    assert_eq!(strict["settings"]["abstain"], "strict");
    assert!(strict["abstain_method"].as_str().unwrap().starts_with("strict: "));
    let lossy = cell(&strict, "lossy");
    assert_eq!(
        (lossy["abstain_rule"].as_str(), lossy["emit"].as_u64(), lossy["abstain"].as_u64()),
        (Some("strict"), Some(17), Some(10))
    );
    // hedge: the five stale commits grok hedges in prose become abstentions; RR unchanged
    let hedge = run_json(&["reclaim", "--trials", &grok, "--keys", &keys, "--abstain", "hedge", "--format", "json"]);
    assert_eq!(hedge["settings"]["abstain"], "hedge");
    let lossy_h = cell(&hedge, "lossy");
    assert_eq!(
        (
            lossy_h["abstain_rule"].as_str(),
            lossy_h["emit"].as_u64(),
            lossy_h["abstain"].as_u64(),
            lossy_h["hedge_abstain"].as_u64()
        ),
        (Some("hedge"), Some(12), Some(15), Some(5))
    );
    assert_eq!(lossy_h["rr"], lossy["rr"]);
    assert_eq!(hedge["worse_than_empty"][0]["abstain_rule"], "hedge");
    // CSV carries the rule on every row
    let out = bin().args(["reclaim", "--trials", &grok, "--abstain", "hedge", "--format", "csv"]).output().unwrap();
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(csv.lines().next().unwrap().contains("abstain_rule,hedge_abstain,abstain_fallback,design"), "{csv}");
    assert!(csv.lines().skip(1).all(|l| l.contains(",hedge,")), "{csv}");
    // text output names the rule
    let out = bin().args(["reclaim", "--trials", &grok, "--abstain", "hedge"]).output().unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains("abstention: hedge"));
    // rows without replies: strict fallback, counted in a warning (never silent)
    let v = run_json(&[
        "reclaim",
        "--trials",
        &reclaim("srcconcl_llama_arith.jsonl"),
        "--abstain",
        "hedge",
        "--format",
        "json",
    ]);
    let w = v["warnings"]["items"].as_array().unwrap().iter().find(|w| w["kind"] == "hedge_no_reply").cloned().unwrap();
    assert_eq!(w["count"], 288);
    assert_eq!(
        v["cells"].as_array().unwrap().iter().map(|c| c["abstain_fallback"].as_u64().unwrap()).sum::<u64>(),
        288
    );
    let out = bin()
        .args(["reclaim", "--trials", &reclaim("srcconcl_llama_arith.jsonl"), "--abstain", "hedge"])
        .output()
        .unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains("note: abstain rule `hedge`: trials without reply text"));
    // an unknown rule is a usage error
    let out = bin().args(["reclaim", "--trials", &grok, "--abstain", "lenient"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}
