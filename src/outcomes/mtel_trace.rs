//! MTEL-Mem's per-query pipeline traces (`artifacts/runs/…/trace*.jsonl.gz`): one JSON line per
//! query with the ids the pipeline returned (`returned_ids_topk`, `returned_ids_full`), the ids
//! it expected (`expected_memory_ids`, grouped by `expected_group_sizes`), the ranks at which it
//! found them (`hit_ranks`, 1-based) and the generated answer's scores (`f1_generated`).
//!
//! Read as one run's per-query outcomes, with rank columns derived from `hit_ranks`:
//!
//! ```text
//! hit             = 1 if hit_ranks is not empty, else 0
//! top1            = 1 if 1 ∈ hit_ranks, else 0
//! first_rank      = min(hit_ranks)                      (missing when empty)
//! reciprocal_rank = 1 / min(hit_ranks), 0 when empty
//! returned        = |returned_ids_topk| (else |returned_ids_full|)
//! ```
//!
//! The expected ids are the pipeline's own credit set: in the released LoCoMo runs checked, its
//! hit and top-1 rates equal the authors' `source_family` rows (`target_rescore*.summary.txt`).
//! Raw and Canonical credit need the run's memory catalog (each id's kind and source turn),
//! which the trace does not hold: rescoring it is refused with what to ask the authors for
//! ([`crate::ingest`]).

use serde_json::Value;

use super::{OutcomeRow, OutcomeWarningKind, OutcomeWarnings};

/// The columns this reading adds.
pub const DERIVED: [&str; 5] = ["hit", "top1", "first_rank", "reciprocal_rank", "returned"];

/// Whether a record's keys are a pipeline trace's.
pub fn is_trace(has: impl Fn(&str) -> bool) -> bool {
    has("query_index") && (has("returned_ids_topk") || has("returned_ids_full"))
}

fn ranks(text: &str) -> Option<Vec<f64>> {
    match serde_json::from_str::<Value>(text).ok()? {
        Value::Array(a) => a.iter().map(|v| v.as_f64().filter(|x| x.is_finite() && *x >= 1.0)).collect(),
        _ => None,
    }
}

fn length(text: &str) -> Option<usize> {
    match serde_json::from_str::<Value>(text).ok()? {
        Value::Array(a) => Some(a.len()),
        _ => None,
    }
}

fn put(r: &mut OutcomeRow, col: &str, v: f64) {
    r.fields.insert(col.into(), v.to_string());
    r.values.insert(col.into(), v);
}

/// Adds the derived rank columns to the rows of one trace. A row without `hit_ranks` (or with
/// one that is not a list of ranks ≥ 1) gets none of them and is counted in a warning: missing,
/// never a miss.
pub fn annotate(rows: &mut [OutcomeRow], warnings: &mut OutcomeWarnings, file: &str) {
    for r in rows.iter_mut() {
        let returned =
            ["returned_ids_topk", "returned_ids_full"].iter().find_map(|c| r.fields.get(*c).and_then(|t| length(t)));
        if let Some(n) = returned {
            put(r, "returned", n as f64);
        }
        match r.fields.get("hit_ranks").map(|t| ranks(t)) {
            Some(Some(ranks)) => {
                let first = ranks.iter().copied().fold(f64::INFINITY, f64::min);
                let found = first.is_finite();
                put(r, "hit", f64::from(u8::from(found)));
                put(r, "top1", f64::from(u8::from(found && first == 1.0)));
                put(r, "reciprocal_rank", if found { 1.0 / first } else { 0.0 });
                if found {
                    put(r, "first_rank", first);
                }
            }
            other => {
                let line = r.line;
                let why = if other.is_none() { "no `hit_ranks`" } else { "`hit_ranks` is not a list of ranks ≥ 1" };
                warnings.add(OutcomeWarningKind::TraceWithoutRanks, || {
                    format!("{file}, line {line}: {why}: its rank columns are missing")
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{OutcomeFormat, infer_spec, read_text};

    /// Three queries in the trace's shape: found at ranks 1 and 4; found at rank 3 only; not
    /// found; and a fourth line without `hit_ranks`.
    const TRACE: &str = r#"{"query_index": 1, "tenant_id": "t1", "category_label": "Temporal", "query": "When?", "expected_memory_ids": ["m1", "m2"], "expected_group_sizes": [2], "returned_ids_topk": ["m1", "x", "y", "m2"], "hit_ranks": [1, 4], "f1_generated": 0.5, "two_pass_performed": false}
{"query_index": 2, "tenant_id": "t1", "category_label": "Single-hop", "query": "Who?", "expected_memory_ids": ["m3"], "expected_group_sizes": [1], "returned_ids_topk": ["x", "y", "m3", "z"], "hit_ranks": [3], "f1_generated": 1.0, "two_pass_performed": true}
{"query_index": 3, "tenant_id": "t1", "category_label": "Temporal", "query": "Where?", "expected_memory_ids": ["m4"], "expected_group_sizes": [1], "returned_ids_topk": ["x", "y", "z", "w"], "hit_ranks": [], "f1_generated": 0.0, "two_pass_performed": false}
{"query_index": 4, "tenant_id": "t1", "category_label": "Temporal", "query": "How?", "expected_memory_ids": ["m5"], "expected_group_sizes": [1], "returned_ids_topk": ["x"], "f1_generated": 0.25, "two_pass_performed": false}
"#;

    #[test]
    fn rank_columns_from_hit_ranks_and_the_answer_f1_as_value() {
        let t = read_text("trace.jsonl", TRACE).unwrap();
        assert_eq!(t.format, OutcomeFormat::MtelTrace);
        let col = |q: usize, c: &str| t.rows[q].values.get(c).copied();
        assert_eq!(
            (col(0, "hit"), col(0, "top1"), col(0, "first_rank"), col(0, "reciprocal_rank")),
            (Some(1.0), Some(1.0), Some(1.0), Some(1.0))
        );
        assert_eq!((col(1, "hit"), col(1, "top1"), col(1, "first_rank")), (Some(1.0), Some(0.0), Some(3.0)));
        assert!((col(1, "reciprocal_rank").unwrap() - 1.0 / 3.0).abs() < 1e-15);
        assert_eq!(
            (col(2, "hit"), col(2, "top1"), col(2, "first_rank"), col(2, "reciprocal_rank")),
            (Some(0.0), Some(0.0), None, Some(0.0))
        );
        // No hit_ranks: missing, never a miss, and said.
        assert_eq!((col(3, "hit"), col(3, "reciprocal_rank")), (None, None));
        assert_eq!(col(3, "returned"), Some(1.0));
        let w = t.warnings.get(super::OutcomeWarningKind::TraceWithoutRanks).expect("the line without ranks is said");
        assert_eq!(w.count, 1);
        assert!(w.examples[0].contains("trace.jsonl, line 4"), "{:?}", w.examples);
        // The spec: one line per query, the answer F1 (never a pipeline flag such as
        // `two_pass_performed`), strata by category.
        let spec = infer_spec(&t);
        assert_eq!(spec.key, ["tenant_id", "query_index"]);
        assert_eq!(spec.value, "f1_generated");
        assert!(spec.arm.is_empty(), "one file, one run: {:?}", spec.arm);
    }
}
