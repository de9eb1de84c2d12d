//! `aggregations`, `kendall_from_raw` and `agreement` (TIAP App. B, Table 8) against an
//! independent Python recomputation from the CLI's `per_query` rows
//! (`tests/reference/aggregation/make_aggregation_reference.py`): the demo bundle at k = 60
//! and k = 5, every row and column compared (counts and orders exactly, numbers to 1e-12);
//! and on the real LoCoMo-10 file (test input only) with three synthetic systems rebuilt here
//! exactly as `tests/reference/aggregation/make_locomo_reference.py` builds them.

use crate::common;

use std::path::PathBuf;

use common::{dataset, file, fixture};
use memaudit::audit;
use memaudit::conventions::Settings;
use memaudit::ingest::InputFile;
use serde_json::Value;

fn repo_file(rel: &str) -> InputFile {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel);
    InputFile::new(rel, std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

fn reference() -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/aggregation/aggregation_reference.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Compares a serialised row to the reference row key by key: numbers (floats) to 1e-12,
/// everything else (strings, counts, nulls) exactly, and the same key set.
fn same_row(got: &Value, want: &Value, what: &str) {
    let (g, w) = (got.as_object().unwrap(), want.as_object().unwrap());
    let mut gk: Vec<&String> = g.keys().collect();
    let mut wk: Vec<&String> = w.keys().collect();
    gk.sort();
    wk.sort();
    assert_eq!(gk, wk, "{what}: keys");
    for (k, wv) in w {
        let gv = &g[k];
        match (gv, wv) {
            (Value::Number(a), Value::Number(b)) if a.is_f64() || b.is_f64() => {
                let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
                assert!((a - b).abs() < 1e-12, "{what} {k}: {a} vs {b}");
            }
            _ => assert_eq!(gv, wv, "{what} {k}"),
        }
    }
}

#[test]
fn every_row_matches_the_python_reference() {
    let reference = reference();
    let inputs = &reference["inputs"];
    let files: Vec<InputFile> =
        ["memories", "queries", "runs"].iter().map(|k| repo_file(inputs[*k].as_str().unwrap())).collect();
    let ds = dataset(&files);
    let cases = reference["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 2);
    for case in cases {
        let k = case["k"].as_u64().unwrap() as usize;
        let settings = Settings { k, bootstrap: case["bootstrap"].as_u64().unwrap() as usize, ..Settings::default() };
        let report = serde_json::to_value(audit::run(&ds, &settings, &mut |_, _| {})).unwrap();
        for table in ["aggregations", "kendall_from_raw", "agreement"] {
            let (got, want) = (report[table].as_array().unwrap(), case[table].as_array().unwrap());
            assert!(!want.is_empty(), "k={k} {table}: empty reference");
            assert_eq!(got.len(), want.len(), "k={k} {table}: row count");
            for (i, (g, w)) in got.iter().zip(want).enumerate() {
                same_row(g, w, &format!("k={k} {table}[{i}]"));
            }
        }
        // The demo exercises the Canonical fallback.
        assert!(case["aggregations"].as_array().unwrap().iter().all(|r| r["canonical_fallback"].as_u64() > Some(0)));
    }
}

fn fnv1a64(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[test]
fn locomo_matches_the_python_reference() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/aggregation/locomo_reference.json");
    let reference: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let base = dataset(&[fixture("locomo-audit/locomo10.json")]);
    let depth = reference["depth"].as_u64().unwrap() as usize;
    let mut runs = String::new();
    for sys in reference["systems"].as_array().unwrap() {
        let (name, shift) = (sys["name"].as_str().unwrap(), sys["shift"].as_u64().unwrap() as u32);
        for q in &base.queries {
            let tenant = q.query_id.split('/').next().unwrap_or("");
            let evidence: Vec<&str> = q.evidence.iter().map(|e| e.anchor.as_str()).collect();
            let seed = fnv1a64(&format!("{name}|{}", q.query_id));
            let mut keyed: Vec<(u64, &str)> = base
                .memories
                .iter()
                .filter(|m| m.memory_id.split('/').next() == Some(tenant))
                .map(|m| {
                    let key = splitmix64(fnv1a64(&m.memory_id) ^ seed);
                    let relevant = evidence.contains(&m.memory_id.as_str())
                        || m.anchors.iter().any(|a| evidence.contains(&a.as_str()));
                    (if relevant { key >> shift } else { key }, m.memory_id.as_str())
                })
                .collect();
            keyed.sort();
            let ranked: Vec<String> = keyed.iter().take(depth).map(|(_, id)| format!("\"{id}\"")).collect();
            runs += &format!(
                "{{\"system\":\"{name}\",\"query_id\":\"{}\",\"ranked\":[{}]}}\n",
                q.query_id,
                ranked.join(",")
            );
        }
    }
    let ds = dataset(&[fixture("locomo-audit/locomo10.json"), file("runs.jsonl", &runs)]);
    let settings = Settings { k: reference["k"].as_u64().unwrap() as usize, bootstrap: 0, ..Settings::default() };
    let report = serde_json::to_value(audit::run(&ds, &settings, &mut |_, _| {})).unwrap();
    for table in ["aggregations", "kendall_from_raw", "agreement"] {
        let (got, want) = (report[table].as_array().unwrap(), reference[table].as_array().unwrap());
        assert_eq!(got.len(), want.len(), "LoCoMo {table}: row count");
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            same_row(g, w, &format!("LoCoMo {table}[{i}]"));
        }
    }
}
