//! Every capability's readers on hostile bytes: arbitrary bytes, and valid inputs with random
//! edits, read as each capability reads its files (roles detected from the content) and run
//! with default settings. Each must end in a result or an error — never a panic (a panic in the
//! browser kills the worker) — and an input error must name its file. The deterministic
//! counterpart of the `fuzz/` targets, run in CI.

use crate::common;

use memaudit::capability::{Capability, assign_roles, quiet, run_once};
use memaudit::error::Error;
use memaudit::ingest::InputFile;
use proptest::prelude::*;

/// Small valid inputs, one list of files per capability (as a user would drop them).
fn seeds() -> Vec<(&'static str, Vec<(&'static str, String)>)> {
    let head = |text: &str, n: usize| text.lines().take(n).collect::<Vec<_>>().join("\n") + "\n";
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/reference/paper_fixtures/");
    let read = |name: &str| std::fs::read_to_string(format!("{fixtures}{name}")).unwrap();
    vec![
        ("compare", vec![("outcomes.csv", "item_id,arm,correct\nq1,a,1\nq1,b,0\nq2,a,1\nq2,b,1\nq3,a,0\nq3,b,1\n".into())]),
        (
            "probe",
            vec![(
                "notes.jsonl",
                concat!(
                    r#"{"note_id": "n1", "note": "You concluded the total was $55.", "source": "notebooks at $4 each (7 bought) and pens at $2 each (9 bought)", "stale": "$55", "correct": false}"#,
                    "\n",
                    r#"{"note_id": "n3", "note": "Ben is NOT the manager; Cleo is the auditor.", "source": "Ben is not the manager, and Cleo is the auditor", "source_kind": "clauses", "stale": "Ben", "correct": true}"#,
                    "\n"
                )
                .into(),
            )],
        ),
        (
            "reclaim",
            vec![(
                "trials.jsonl",
                concat!(
                    r#"{"pid": "p1", "policy": "lossy", "reply": "55", "correct": false, "truth": "46", "stale": "55"}"#,
                    "\n",
                    r#"{"pid": "p2", "policy": "full", "reply": "46", "correct": true, "truth": "46", "stale": "55"}"#,
                    "\n"
                )
                .into(),
            )],
        ),
        (
            "answers",
            vec![(
                "answers.jsonl",
                concat!(
                    r#"{"query_id": "q1", "gold": ["Paris", "the city of Paris"], "prediction": "Answer: Paris", "category": 1}"#,
                    "\n",
                    r#"{"query_id": "q2", "gold": "7 May 2023", "prediction": "on 7 May", "dataset": "icl_x"}"#,
                    "\n"
                )
                .into(),
            )],
        ),
        ("ablation", vec![("traces.csv", head(&read("noncircularity.csv"), 40))]),
        (
            "claims",
            vec![
                ("claims.csv", head(&read("seed000_claims.csv"), 4)),
                ("scores.csv", head(&read("seed000_scores.csv"), 60)),
            ],
        ),
        (
            "rules",
            vec![
                ("rules.json", read("seed000_rules.json")),
                ("values.json", read("seed000_values.json")),
                ("exclusions.csv", read("seed000_exclusions.csv")),
            ],
        ),
        ("trec-eval", vec![("test.qrels", "1 0 d1 1\n1 0 d2 0\n2 0 d3 2\n".into()), ("run.txt", "1 Q0 d1 1 2.0 t\n1 Q0 d9 2 1.0 t\n2 Q0 d3 1 0.5 t\n".into())]),
        (
            "labels",
            vec![(
                "labels.csv",
                "item,rater,label\nc1,a,supports\nc1,b,partial\nc2,a,does_not_support\nc2,b,does_not_support\nc3,a,partial\nc3,b,partial\n".into(),
            )],
        ),
        (
            "calibration",
            vec![(
                "routing.csv",
                "item,confidence,correct,with_memory,applied\nq1,0.9,1,1,0\nq2,0.2,0,1,1\nq3,0.7,1,0,0\nq4,0.4,0,0,1\nq5,0.55,1,1,1\n".into(),
            )],
        ),
        (
            "alignment",
            vec![
                (
                    "per_query.csv",
                    "system,query_id,target,eligible,hit\nr1,q1,raw,true,1\nr1,q1,canonical,true,0\nr1,q2,raw,true,0\nr1,q2,canonical,true,1\nr2,q1,raw,true,1\nr2,q1,canonical,false,\n".into(),
                ),
                ("answers.csv", "system,query_id,f1\nr1,q1,0.5\nr1,q2,0\nr2,q1,1\n".into()),
            ],
        ),
        (
            "compliance",
            vec![(
                "rows.jsonl",
                "{\"arm\":\"a\",\"depth\":1,\"compliance_rate\":1,\"recall\":1,\"total_tokens\":900}\n{\"arm\":\"a\",\"depth\":2,\"compliance_rate\":0.5,\"recall\":0.5,\"total_tokens\":1200}\n{\"arm\":\"b\",\"depth\":1,\"compliance_rate\":0,\"recall\":0,\"total_tokens\":800}\n{\"arm\":\"b\",\"depth\":2,\"compliance_rate\":1,\"recall\":1,\"total_tokens\":1000}\n".into(),
            )],
        ),
    ]
}

/// Reads and runs `files` as capability `C` reads them: the refusal, if any, as text.
fn survives<C: Capability>(files: &[(String, Vec<u8>)]) -> Result<(), String> {
    let inputs = files.iter().map(|(n, b)| (InputFile::new(n.clone(), b.clone()), None)).collect();
    let outcome = assign_roles::<C>(inputs).and_then(|f| run_once::<C>(&f, &C::Request::default(), &mut quiet()));
    match outcome {
        Ok(_) => Ok(()),
        Err(Error::Ingest(e)) => {
            assert!(!e.location.file.is_empty(), "{} error without a file: {}", C::ANALYSIS, e.message);
            assert!(!e.message.is_empty());
            Err(e.to_string())
        }
        Err(e) => Err(e.to_string()),
    }
}

fn run_as(capability: &str, files: &[(String, Vec<u8>)]) -> Result<(), String> {
    use memaudit::{
        ablation, alignment, answers, calibration, claims, compare, compliance, ireval, label_audit, probe, reclaim,
        rules,
    };
    match capability {
        "compare" => survives::<compare::Compare>(files),
        "probe" => survives::<probe::Probe>(files),
        "reclaim" => survives::<reclaim::Reclaim>(files),
        "answers" => survives::<answers::Answers>(files),
        "ablation" => survives::<ablation::Ablation>(files),
        "claims" => survives::<claims::Claims>(files),
        "rules" => survives::<rules::Rules>(files),
        "trec-eval" => survives::<ireval::TrecEval>(files),
        "labels" => survives::<label_audit::Labels>(files),
        "calibration" => survives::<calibration::Calibration>(files),
        "alignment" => survives::<alignment::Alignment>(files),
        "compliance" => survives::<compliance::Compliance>(files),
        other => panic!("no capability {other}"),
    }
}

#[test]
fn the_seeds_are_read() {
    assert_eq!(seeds().len(), 12, "every capability has a seed (the strategies below draw 0..12)");
    // The seeds themselves must be accepted, or the mutations below test only refusals.
    // MEMAUDIT_FUZZ_SEEDS=fuzz/seeds writes each seed as the fuzz targets read it (files joined by
    // 0xFF) to DIR/<capability>/seed: the seed corpus of `fuzz/` (see fuzz/README.md).
    let seed_dir = std::env::var_os("MEMAUDIT_FUZZ_SEEDS");
    for (capability, files) in seeds() {
        let files: Vec<(String, Vec<u8>)> = files.into_iter().map(|(n, t)| (n.to_string(), t.into_bytes())).collect();
        assert_eq!(run_as(capability, &files), Ok(()), "{capability}");
        if let Some(dir) = &seed_dir {
            let dir = std::path::Path::new(dir).join(capability.replace('-', "_"));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("seed"), files.iter().map(|(_, b)| b.as_slice()).collect::<Vec<_>>().join(&0xffu8))
                .unwrap();
        }
    }
}

proptest! {
    #![proptest_config(common::proptest_config(256))]

    #[test]
    fn arbitrary_bytes_never_panic(which in 0usize..12, bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let (capability, files) = &seeds()[which];
        // The bytes alone, and the bytes in place of the first file next to the valid others.
        let _ = run_as(capability, &[("f.jsonl".to_string(), bytes.clone())]);
        let mut with: Vec<(String, Vec<u8>)> = files.iter().map(|(n, t)| (n.to_string(), t.clone().into_bytes())).collect();
        with[0].1 = bytes;
        let _ = run_as(capability, &with);
    }

    #[test]
    fn edited_inputs_never_panic(
        which in 0usize..12,
        file in 0usize..2,
        ops in proptest::collection::vec((any::<u8>(), any::<usize>(), prop::sample::select(vec!['{', '}', '[', ']', '"', ',', ':', ';', '1', '-', 'e', ' ', '\n', 'n', 'é', '\u{0}', '$', '('])), 1..12),
    ) {
        let (capability, files) = &seeds()[which];
        let mut files: Vec<(String, Vec<u8>)> = files.iter().map(|(n, t)| (n.to_string(), t.clone().into_bytes())).collect();
        let i = file % files.len();
        files[i].1 = common::mutate(&String::from_utf8_lossy(&files[i].1), &ops).into_bytes();
        let _ = run_as(capability, &files);
    }
}

/// The release audit of `files`: a report or an error naming a file, never a panic.
fn release_survives(files: &[(String, Vec<u8>)]) {
    let inputs: Vec<(InputFile, Option<memaudit::capability::FileRole>)> =
        files.iter().map(|(n, b)| (InputFile::new(n.clone(), b.clone()), None)).collect();
    let Ok(files) = assign_roles::<memaudit::release::ReleaseAudit>(inputs) else { return };
    match run_once::<memaudit::release::ReleaseAudit>(&files, &Default::default(), &mut quiet()) {
        Ok((_, report)) => assert!(report.files.len() >= files.len(), "every file is listed"),
        Err(Error::Ingest(e)) => assert!(!e.location.file.is_empty()),
        Err(_) => {}
    }
}

proptest! {
    #![proptest_config(common::proptest_config(32))]

    /// Archives of arbitrary bytes, and every seed dropped at once with one edited: the release
    /// audit triages and runs them without a panic.
    #[test]
    fn a_release_of_hostile_files_never_panics(
        name in prop::sample::select(vec!["x.zip", "x.tar", "x.tar.gz", "x.eval", "x.jsonl"]),
        bytes in proptest::collection::vec(any::<u8>(), 0..300),
        which in 0usize..12,
        ops in proptest::collection::vec((any::<u8>(), any::<usize>(), prop::sample::select(vec!['{', '}', '"', ',', '\n', '1', 'é'])), 1..8),
    ) {
        let mut all: Vec<(String, Vec<u8>)> = vec![(name.to_string(), bytes)];
        for (i, (capability, files)) in seeds().into_iter().enumerate() {
            for (n, t) in files {
                let t = if i == which { common::mutate(&t, &ops) } else { t };
                all.push((format!("{capability}/{n}"), t.into_bytes()));
            }
        }
        release_survives(&all);
    }
}

/// Printed-numbers files for a small comparison (`memaudit verify --printed`).
const PRINTED: &str = "source,analysis,table,row,column,printed\nT1,compare,arms,arm=a,mean,0.75\nT1,,pairs,,p,−0.5\n";

proptest! {
    #![proptest_config(common::proptest_config(256))]

    /// A printed file of arbitrary bytes or with random edits is read or refused naming its file,
    /// and whatever is read is checked against a report without a panic.
    #[test]
    fn printed_numbers_files_never_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..300),
        ops in proptest::collection::vec((any::<u8>(), any::<usize>(), prop::sample::select(vec![',', ';', '=', '"', '\n', '%', '.', '-', '1', 'é', '\u{2212}'])), 1..12),
    ) {
        let outcomes = InputFile::new("o.csv", b"item_id,arm,correct\nq1,a,1\nq1,b,0\nq2,a,1\nq2,b,1\n".to_vec());
        let files = assign_roles::<memaudit::compare::Compare>(vec![(outcomes, None)]).unwrap();
        let (_, report) = run_once::<memaudit::compare::Compare>(&files, &Default::default(), &mut quiet()).unwrap();
        for text in [bytes, common::mutate(PRINTED, &ops).into_bytes()] {
            match memaudit::printed::read(&InputFile::new("printed.csv", text)) {
                Ok(entries) => {
                    let check = memaudit::printed::check::<memaudit::compare::Compare>(&report, &entries);
                    prop_assert_eq!(check.rows.len(), entries.len());
                }
                Err(Error::Ingest(e)) => prop_assert_eq!(e.location.file.as_str(), "printed.csv"),
                Err(e) => prop_assert!(false, "not an input error: {}", e),
            }
        }
    }
}
