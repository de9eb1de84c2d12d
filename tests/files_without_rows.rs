//! A file from which nothing could be read, given beside files that were read, is refused by
//! name in every analysis that reads several files of a kind: its system, rater or rules would
//! otherwise drop out unsaid. (Compare, answers, labels, compliance, calibration and alignment
//! have theirs beside their other reading tests.)

use std::path::PathBuf;

use memaudit::capability::{Capability, FileRole, assign_roles, quiet, run_once};
use memaudit::ingest::InputFile;

use crate::common::{file, fixture};

fn paper(name: &str) -> InputFile {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/paper_fixtures").join(name);
    InputFile::new(name, std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
}

/// The refusal of `files` (each with its role) under the default request.
fn refusal<C: Capability>(files: Vec<(InputFile, FileRole)>) -> String {
    let files = assign_roles::<C>(files.into_iter().map(|(f, r)| (f, Some(r))).collect()).unwrap();
    match run_once::<C>(&files, &C::Request::default(), &mut quiet()) {
        Ok(_) => panic!("{}: read without a word", C::TITLE),
        Err(e) => e.to_string(),
    }
}

fn named(e: &str, name: &str) {
    assert!(e.starts_with(&format!("{name}: ")), "the refusal names {name} first: {e}");
}

#[test]
fn ablation_traces() {
    let good = file("a.csv", "query_id,rank,base_score,ablated_score\nq1,1,1,0\nq1,2,1,1\nq2,1,0,0\n");
    let empty = file("b.csv", "query_id,rank,base_score,ablated_score\n");
    let e = refusal::<memaudit::ablation::Ablation>(vec![(good, FileRole::Traces), (empty, FileRole::Traces)]);
    named(&e, "b.csv");
    assert!(e.contains("no ablation pairs could be read from it"), "{e}");
}

#[test]
fn probe_notes_and_reclaim_trials() {
    let notes = "reclaim-eval/realworld_meta-llama_llama-3.1-8b-instruct_logic_t0.7_sonnetwriter.jsonl";
    let e = refusal::<memaudit::probe::Probe>(vec![
        (fixture(notes), FileRole::Notes),
        (file("empty.jsonl", ""), FileRole::Notes),
    ]);
    named(&e, "empty.jsonl");
    let trials = "reclaim-eval/srcconcl_llama_arith.jsonl";
    let e = refusal::<memaudit::reclaim::Reclaim>(vec![
        (fixture(trials), FileRole::Trials),
        (file("none.jsonl", "\n"), FileRole::Trials),
    ]);
    named(&e, "none.jsonl");
}

#[test]
fn claims_tables_and_scores() {
    let claims_header = "claim_id,kind,arms,reported\n";
    let e = refusal::<memaudit::claims::Claims>(vec![
        (paper("seed000_scores.csv"), FileRole::Scores),
        (paper("seed000_claims.csv"), FileRole::Claims),
        (file("more_claims.csv", claims_header), FileRole::Claims),
    ]);
    named(&e, "more_claims.csv");
    let e = refusal::<memaudit::claims::Claims>(vec![
        (paper("seed000_scores.csv"), FileRole::Scores),
        (paper("seed000_tables.csv"), FileRole::Table),
        (file("more_tables.csv", "id,estimate,n\n"), FileRole::Table),
    ]);
    named(&e, "more_tables.csv");
}

#[test]
fn rules_and_values() {
    let e = refusal::<memaudit::rules::Rules>(vec![
        (paper("seed000_rules.json"), FileRole::Rules),
        (paper("seed000_values.json"), FileRole::Values),
        (file("more_values.json", r#"{"values": {}}"#), FileRole::Values),
    ]);
    named(&e, "more_values.json");
    // An exclusion ledger may list none: it is read.
    let files = assign_roles::<memaudit::rules::Rules>(vec![
        (paper("seed000_rules.json"), Some(FileRole::Rules)),
        (paper("seed000_values.json"), Some(FileRole::Values)),
        (file("ledger.csv", "item,reason,excluded_at\n"), Some(FileRole::Exclusions)),
    ])
    .unwrap();
    let read = run_once::<memaudit::rules::Rules>(&files, &Default::default(), &mut quiet());
    assert!(read.is_ok(), "{:?}", read.err().map(|e| e.to_string()));
}
