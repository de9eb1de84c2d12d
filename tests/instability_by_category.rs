//! `instability_by_category` (TIAP §5.3) against an independent Python recomputation
//! (`tests/reference/categories/make_category_reference.py`): the demo bundle with some
//! categories removed (so `(none)` is exercised), at k = 60 and k = 5, every row compared.

use crate::common;

use std::path::PathBuf;

use common::dataset;
use memaudit::audit::{self, NO_CATEGORY};
use memaudit::conventions::Settings;
use memaudit::ingest::InputFile;
use serde_json::Value;

fn repo_file(rel: &str) -> InputFile {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel);
    InputFile::new(rel, std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

fn reference() -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/categories/category_reference.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn close(got: Option<f64>, want: &Value, what: &str) {
    match (got, want.as_f64()) {
        (Some(g), Some(w)) => assert!((g - w).abs() < 1e-12, "{what}: {g} vs {w}"),
        (None, None) => assert!(want.is_null(), "{what}"),
        (g, _) => panic!("{what}: {g:?} vs {want}"),
    }
}

#[test]
fn every_row_matches_the_python_reference() {
    let reference = reference();
    assert_eq!(reference["no_category"], NO_CATEGORY);
    let inputs = &reference["inputs"];
    let files: Vec<InputFile> =
        ["memories", "queries", "runs"].iter().map(|k| repo_file(inputs[*k].as_str().unwrap())).collect();
    let ds = dataset(&files);
    let cases = reference["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 2);
    for case in cases {
        let k = case["k"].as_u64().unwrap() as usize;
        let settings = Settings { k, bootstrap: case["bootstrap"].as_u64().unwrap() as usize, ..Settings::default() };
        let report = audit::run(&ds, &settings, &mut |_, _| {});
        let want = case["rows"].as_array().unwrap();
        let got = &report.instability_by_category;
        assert_eq!(got.len(), want.len(), "k={k}: row count");
        assert!(want.iter().any(|w| w["category"] == NO_CATEGORY && w["n"].as_u64() > Some(0)));
        // Same rows in the same order (system, pair, category sorted with `(none)` last).
        for (g, w) in got.iter().zip(want) {
            let what = format!("k={k} {}/{}-{}/{}", g.system, g.a, g.b, g.category);
            assert_eq!(g.system, w["system"].as_str().unwrap(), "{what}");
            assert_eq!(g.a.name(), w["a"].as_str().unwrap(), "{what}");
            assert_eq!(g.b.name(), w["b"].as_str().unwrap(), "{what}");
            assert_eq!(g.category, w["category"].as_str().unwrap(), "{what}");
            for (col, v) in
                [("n", g.n), ("ndcg_changed", g.ndcg_changed), ("hit_flips", g.hit_flips), ("top1_flips", g.top1_flips)]
            {
                assert_eq!(v as u64, w[col].as_u64().unwrap(), "{what} {col}");
            }
            close(g.change_rate, &w["change_rate"], &format!("{what} change_rate"));
            close(g.mean_diff_ndcg, &w["mean_diff_ndcg"], &format!("{what} mean_diff_ndcg"));
        }
    }
}
