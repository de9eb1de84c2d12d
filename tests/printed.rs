//! `memaudit verify --printed`: a paper's printed numbers against the recomputed report. The
//! printed file and each entry's verdict come from `tests/reference/printed/
//! make_printed_reference.py` (Python's own rounding of the NumPy values of the alignment
//! reference), on the generated TIAP-shaped records.

use std::process::Command;

use serde_json::Value;

use crate::common;

fn memaudit(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_memaudit")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().unwrap()
}

const PRINTED: &str = "tests/reference/printed/printed.csv";
const RECORDS: &str = "tests/reference/alignment/records.csv";
/// The run the reference values are of.
const ALIGNMENT: [&str; 7] = ["alignment", "--input", RECORDS, "--group", "dataset", "--metric", "ndcg"];

#[test]
fn each_printed_number_gets_the_verdict_python_gives_it() {
    let args = [&["verify", "--printed", PRINTED][..], &ALIGNMENT, &["--format", "json"]].concat();
    let out = memaudit(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    let want: Value =
        serde_json::from_str(&std::fs::read_to_string("tests/reference/printed/expected.json").unwrap()).unwrap();
    assert_eq!(got["analysis"], "alignment");
    let rows = got["rows"].as_array().unwrap();
    let want = want.as_array().unwrap();
    assert_eq!(rows.len(), want.len());
    for (r, w) in rows.iter().zip(want) {
        assert_eq!(r["line"], w["line"]);
        assert_eq!(r["verdict"], w["verdict"], "line {}: {r}", w["line"]);
    }
    // The reasons are said; the recomputed value is the table's.
    assert!(rows[7]["note"].as_str().unwrap().contains("no row of `aggregations`"), "{}", rows[7]);
    assert!(rows[8]["note"].as_str().unwrap().contains("add `target_b=…`"), "{}", rows[8]);
    assert!(rows[0]["recomputed"].as_f64().unwrap() > 0.08);
    // Headlines: the one that differs is an alert naming it.
    let h = &got["headlines"][0];
    assert_eq!(h["level"], "alert");
    assert!(h["text"].as_str().unwrap().starts_with("1 of 10 printed numbers differ"), "{h}");
    assert!(h["evidence"].as_str().unwrap().contains("Table 15: shifts"), "{h}");

    // The same as the analysis with --printed; CSV has the check's columns.
    let csv = memaudit(&[&ALIGNMENT[..], &["--printed", PRINTED, "--format", "csv"]].concat());
    let text = String::from_utf8(csv.stdout).unwrap();
    assert!(
        text.starts_with(
            "line,source,analysis,table,row,column,printed,recomputed,verdict,difference,note,convention\n"
        ),
        "{text}"
    );
    assert_eq!(text.lines().count(), 11);
}

#[test]
fn a_printed_file_that_cannot_be_read_names_its_line_and_verify_needs_an_analysis() {
    let dir = std::env::temp_dir().join(format!("memaudit-printed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, "table,column,printed\nshifts,changed,about 47\n").unwrap();
    let out = memaudit(&["verify", "--printed", bad.to_str().unwrap(), "alignment", "--input", RECORDS]);
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        e.contains("bad.csv") && e.contains("line 2") && e.contains("`about 47` is not a number as printed"),
        "{e}"
    );
    let out = memaudit(&["verify", "--printed", bad.to_str().unwrap(), "synth", "--out", "x"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("`memaudit verify` takes an analysis"));
}

/// A number that differs is given the convention that would print it: a share printed as a
/// percentage without its sign, and a difference with its sign reversed (the values from the
/// NumPy reference of the same records).
#[test]
fn a_number_that_differs_names_the_convention_that_gives_it() {
    let reference: Value =
        serde_json::from_str(&std::fs::read_to_string("tests/reference/alignment/shift_reference.json").unwrap())
            .unwrap();
    let find = |table: &str, keys: &[(&str, &str)]| -> Value {
        reference[table]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| keys.iter().all(|(k, v)| r[*k].as_str() == Some(*v)))
            .unwrap()
            .clone()
    };
    let shift =
        find("shifts", &[("group", "LoCoMo"), ("run", "pooled"), ("target_a", "raw"), ("target_b", "canonical")]);
    let rate = shift["change_rate"].as_f64().unwrap();
    let contrast = find("target_contrasts", &[("run", "lex"), ("target_a", "raw"), ("target_b", "canonical")]);
    let diff = contrast["diff"].as_f64().unwrap();
    assert!(diff.abs() > 0.01, "a difference whose sign shows: {diff}");
    let dir = std::env::temp_dir().join(format!("memaudit-printed-conventions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("printed.csv");
    std::fs::write(
        &file,
        format!(
            "source,table,row,column,printed\n\
             Table 15,shifts,group=LoCoMo; run=pooled; target_a=raw; target_b=canonical,change_rate,{:.1}\n\
             Table 2,target_contrasts,run=lex; target_a=raw; target_b=canonical,diff,{:.3}\n",
            rate * 100.0,
            -diff
        ),
    )
    .unwrap();
    let args = [&["verify", "--printed", file.to_str().unwrap()][..], &ALIGNMENT, &["--format", "json"]].concat();
    let out = memaudit(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = got["rows"].as_array().unwrap();
    assert_eq!(rows[0]["verdict"], "differs");
    assert!(rows[0]["convention"].as_str().unwrap().contains("percentage without its sign"), "{}", rows[0]);
    assert_eq!(rows[1]["verdict"], "differs");
    assert!(rows[1]["convention"].as_str().unwrap().contains("sign reversed"), "{}", rows[1]);
    assert!(got["headlines"][0]["evidence"].as_str().unwrap().contains("given by"), "{}", got["headlines"][0]);
}

/// Printed numbers that cannot all be right, whatever the data: a delta that is not the
/// difference of its two printed means is a finding of `verify`, with its file and line.
#[test]
fn printed_numbers_that_contradict_each_other_are_a_finding() {
    let dir = std::env::temp_dir().join(format!("memaudit-printed-lint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("table2.csv");
    std::fs::write(
        &file,
        "source,table,row,column,printed\n\
         Table 2,target_contrasts,run=lex; target_a=raw; target_b=canonical,mean_a,0.2120\n\
         Table 2,target_contrasts,run=lex; target_a=raw; target_b=canonical,mean_b,0.3870\n\
         Table 2,target_contrasts,run=lex; target_a=raw; target_b=canonical,diff,+0.195\n",
    )
    .unwrap();
    let args = [&["verify", "--printed", file.to_str().unwrap()][..], &ALIGNMENT, &["--format", "json"]].concat();
    let out = memaudit(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    let findings = got["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0]["kind"], "delta_not_difference");
    assert!(findings[0]["location"].as_str().unwrap().ends_with("table2.csv, line 2"), "{}", findings[0]);
    let said = got["headlines"]
        .as_array()
        .unwrap()
        .iter()
        .any(|h| h["level"] == "alert" && h["text"].as_str().unwrap().contains("contradict each other"));
    assert!(said, "{}", got["headlines"]);
}

/// BriefBench Table 34 (why tasks failed), written from the paper's text
/// (`tests/reference/printed/briefbench_table34.csv`), checked on the authors' released rows as
/// shipped: all 16 printed percentages match the recomputed shares.
#[test]
fn briefbench_table_34_holds_on_the_released_rows() {
    let rows = common::shared().join("fixtures/external/BriefBench/all_rows_claude.jsonl");
    let rows = rows.to_str().unwrap();
    let out = memaudit(&[
        "verify",
        "--printed",
        "tests/reference/printed/briefbench_table34.csv",
        "compliance",
        "--input",
        rows,
        "--pool",
        "dataset,spec_variant",
        "--bootstrap",
        "0",
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = got["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 16);
    for r in rows {
        assert_eq!(r["verdict"], "matches", "{r}");
    }
    // brief_graph_3hop: 29% never retrieved, as printed (a failure = compliance below 1).
    let brief =
        rows.iter().find(|r| r["row"] == "arm=brief_graph_3hop" && r["column"] == "not_retrieved_share").unwrap();
    assert!((brief["recomputed"].as_f64().unwrap() - 0.29).abs() < 0.005, "{brief}");
}
