//! Judged results as vendors ship them, compared together without a script: four LoCoMo answer
//! families (`tests/reference/outcome_families/`, written in the released shapes by
//! `make_reference.py`, with per-arm accuracies and pairwise exact McNemar p-values from
//! statsmodels), the real Memobase file of the mem0 `evals.py` family and Inspect AI logs
//! (`../shared/fixtures/external`).

use crate::common;

use std::path::PathBuf;

use memaudit::capability::{FileRole, assign_roles, quiet, run_once};
use memaudit::compare::{Compare, CompareReport, CompareRequest, CompareSettings};
use memaudit::ingest::InputFile;
use memaudit::outcomes::{OutcomeFormat, OutcomeWarningKind, ReadOptions, read_outcome_files, read_outcomes};
use serde_json::Value;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/outcome_families")
}

fn family(name: &str) -> InputFile {
    let p = dir().join(name);
    InputFile::new(p.display().to_string(), std::fs::read(&p).unwrap())
}

const FILES: [&str; 4] = ["mem0_evals.json", "evermemos.json", "zep_grades.json", "audit_results.json"];

/// A comparison run through the capability, a refused pairing as its error value.
fn compared(
    roles: &[memaudit::capability::RoleFile],
    request: &CompareRequest,
    progress: memaudit::capability::Progress<'_>,
) -> Result<(memaudit::outcomes::OutcomeTable, memaudit::compare::CompareOutput), memaudit::error::Error> {
    let (loaded, report) = run_once::<Compare>(roles, request, progress)?;
    Ok((loaded, report.compared()?))
}

fn compare(files: Vec<InputFile>) -> Result<memaudit::compare::CompareOutput, memaudit::error::Error> {
    let roles = assign_roles::<Compare>(files.into_iter().map(|f| (f, Some(FileRole::Outcomes))).collect()).unwrap();
    let request =
        CompareRequest { settings: CompareSettings { bootstrap: 200, ..Default::default() }, ..Default::default() };
    compared(&roles, &request, &mut quiet()).map(|(_, r)| r)
}

#[test]
fn four_locomo_families_pair_by_conversation_and_position() {
    let reference: Value =
        serde_json::from_str(&std::fs::read_to_string(dir().join("reference.json")).unwrap()).unwrap();
    let table = read_outcome_files(&FILES.map(family), &ReadOptions::default()).unwrap();
    assert!(table.files.iter().all(|f| f.format == OutcomeFormat::LocomoAnswers));
    let out = compare(FILES.map(family).to_vec()).unwrap();
    let c = &out.comparison;
    assert_eq!(out.spec.key, ["conversation", "position"]);
    assert_eq!(out.spec.value, "verdict");
    assert_eq!(c.n_items as u64, reference["items"].as_u64().unwrap());
    // Arms are named by what tells the files apart: their names.
    let names: Vec<&str> = c.arms.iter().map(|a| a.arm.as_str()).collect();
    assert_eq!(names, ["mem0_evals", "evermemos", "zep_grades", "audit_results"]);
    for a in &c.arms {
        let want = reference["accuracy"][&a.arm].as_f64().unwrap();
        assert!((a.mean - want).abs() < 1e-12, "{}: {} vs {want}", a.arm, a.mean);
    }
    for want in reference["pairs"].as_array().unwrap() {
        let (a, b) = (want["a"].as_str().unwrap(), want["b"].as_str().unwrap());
        let p = c.pairs.iter().find(|p| p.a == a && p.b == b).unwrap_or_else(|| panic!("{a} vs {b}"));
        assert_eq!(p.b_count, want["a_only"].as_u64());
        assert_eq!(p.c_count, want["b_only"].as_u64());
        let mp = p.mcnemar_p.unwrap();
        assert!((mp - want["mcnemar_exact_p"].as_f64().unwrap()).abs() < 1e-12, "{a} vs {b}: {mp}");
    }
}

#[test]
fn different_questions_at_one_position_are_never_merged() {
    let zep = std::fs::read_to_string(dir().join("zep_grades.json")).unwrap();
    let mut doc: Value = serde_json::from_str(&zep).unwrap();
    doc["locomo_experiment_user_3"][2]["question"] = Value::String("A question the others do not ask?".into());
    let bad = InputFile::new("zep_grades.json", serde_json::to_vec(&doc).unwrap());
    // Matched by text, the new question is an item of its own that the other file lacks.
    let table = read_outcome_files(&[family("mem0_evals.json"), bad.clone()], &ReadOptions::default()).unwrap();
    assert_eq!(table.warnings.count(OutcomeWarningKind::QuestionsAlignedByText), 1, "{:?}", table.warnings);
    let e = compare(vec![family("mem0_evals.json"), bad]).unwrap_err().to_string();
    assert!(e.contains("arm `mem0_evals` has no rows for 1 items (first: `3 | 12`)"), "{e}");
    assert!(e.contains("matched across files by conversation and question text"), "{e}");
    assert!(
        !e.contains("aggregate") && !e.contains("pair_by_position"),
        "never suggest merging distinct questions: {e}"
    );
}

/// mem0's `evals.py` writes each conversation's questions as its workers finish, so two runs
/// list the same questions in different orders (its released `exp_data_0-0_200` run and the
/// `exp_data_0-10_2000` results): paired by place, one question's verdict would meet another's.
/// They are paired by text, said, and the McNemar counts are those of the true pairs.
#[test]
fn reordered_locomo_answer_files_pair_by_question_text() {
    let record = |q: &str, gold: &str, score: u8| serde_json::json!({"question": q, "answer": gold, "response": "r", "category": "1", "llm_score": score});
    let a = serde_json::json!({"0": [record("a?", "x", 1), record("b?", "y", 0), record("c?", "z", 1),
        record("d?", "w", 1)]});
    // Run B: another order; verdicts a 0, b 1, c 1, d 0.
    let b = serde_json::json!({"0": [record("c?", "z", 1), record("d?", "w", 0), record("a?", "x", 0),
        record("b?", "y", 1)]});
    let files = || {
        vec![
            InputFile::new("run_a/results.json", serde_json::to_vec(&a).unwrap()),
            InputFile::new("run_b/results.json", serde_json::to_vec(&b).unwrap()),
        ]
    };
    let table = read_outcome_files(&files(), &ReadOptions::default()).unwrap();
    let w = table.warnings.get(OutcomeWarningKind::QuestionsAlignedByText).expect("said");
    assert_eq!(w.count, 4);
    assert!(w.examples[0].contains("run_b/results.json, line") && w.examples[0].contains("question 1 → 3"), "{w:?}");
    let c = compare(files()).unwrap().comparison;
    assert_eq!(c.n_items, 4);
    let p = &c.pairs[0];
    // True pairs: a (1, 0), b (0, 1), c (1, 1), d (1, 0): A alone right twice, B alone once.
    // By place they would be (1, 1), (0, 0), (1, 0), (1, 1).
    assert_eq!((p.b_count, p.c_count), (Some(2), Some(1)));
}

#[test]
fn the_released_memobase_file_reads_as_locomo_answers() {
    let t = read_outcomes(&common::fixture("memobase/memobase_eval_0503_3000.json"), &ReadOptions::default()).unwrap();
    assert_eq!(t.format, OutcomeFormat::LocomoAnswers);
    assert_eq!(t.rows.len(), 1540);
    // Conversation "1"'s first question is at position 1, with its own verdict.
    let r = t.rows.iter().find(|r| r.fields.get("conversation").map(String::as_str) == Some("0")).unwrap();
    assert_eq!(r.fields["position"], "1");
    assert_eq!(r.values["verdict"], r.values["llm_score"]);
    assert_eq!(t.column("conversation").unwrap().distinct, 10);
}

#[test]
fn inspect_eval_archives_are_read_scored_or_not() {
    let scored = common::fixture("inspect/2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval");
    let unscored = common::fixture("inspect/2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval");
    let t = read_outcomes(&scored, &ReadOptions::default()).unwrap();
    assert_eq!(t.format, OutcomeFormat::InspectLog);
    assert_eq!(t.rows.len(), 10);
    assert_eq!(t.rows[0].fields["sample_id"], "1");
    assert_eq!(t.rows[0].fields["model"], "openai/gpt-4o-mini");
    let correct: f64 = t.rows.iter().map(|r| r.values["score"]).sum();
    assert_eq!(correct, 8.0, "accuracy 0.8, as the log's own results say");
    let u = read_outcomes(&unscored, &ReadOptions::default()).unwrap();
    assert_eq!(u.rows.len(), 10);
    assert!(u.rows.iter().all(|r| !r.values.contains_key("score")), "unscored samples are missing, never 0");
    assert_eq!(u.warnings.count(OutcomeWarningKind::UnscoredSample), 10);
    // Together: the same model and task, told apart by file; the unscored log has no values.
    let e = compare(vec![scored, unscored]).unwrap_err().to_string();
    assert!(e.contains("dPiJifoWeEQBrfWsAopzWr") && !e.contains("dPiJifoWeEQBrfWsAopzWr/"), "{e}");
    assert!(e.contains("10 Inspect samples carry no score") && e.contains("inspect score"), "{e}");
}

/// One Inspect log is one arm, its model's (by scorer when it has several); several logs are
/// told apart by model only when each has its own, else by file.
#[test]
fn inspect_logs_are_told_apart_by_what_differs_between_them() {
    let log = |name: &str, model: &str, scorers: &[&str]| {
        let samples: Vec<String> = (1..=4)
            .map(|i| {
                let scores: Vec<String> = scorers
                    .iter()
                    .map(|s| format!(r#""{s}": {{"value": "{}"}}"#, if i % 2 == 0 { "C" } else { "I" }))
                    .collect();
                format!(r#"{{"id": {i}, "epoch": 1, "scores": {{{}}}}}"#, scores.join(", "))
            })
            .collect();
        let text = format!(
            r#"{{"version": 2, "eval": {{"task": "t", "model": "{model}", "run_id": "{name}"}}, "samples": [{}]}}"#,
            samples.join(", ")
        );
        InputFile::new(name, text.into_bytes())
    };
    let spec_of = |files: Vec<InputFile>| {
        let t = read_outcome_files(&files, &ReadOptions::default()).unwrap();
        memaudit::outcomes::spec::infer_spec(&t).arm
    };
    assert_eq!(spec_of(vec![log("a.json", "m1", &["match"])]), ["model"], "one log, one arm");
    assert_eq!(spec_of(vec![log("a.json", "m1", &["match", "includes"])]), ["model", "scorer"]);
    assert_eq!(spec_of(vec![log("a.json", "m1", &["match"]), log("b.json", "m2", &["match"])]), ["model"]);
    // Two logs of one model beside a third: the model does not tell the logs apart.
    let three = vec![log("a.json", "m1", &["match"]), log("b.json", "m1", &["match"]), log("c.json", "m2", &["match"])];
    assert_eq!(spec_of(three.clone()), ["file"]);
    let c = compare(three).unwrap();
    assert_eq!(c.comparison.arms.len(), 3);
}

/// Arms that share one item: no paired comparison, but each arm is shown on its own (a refused
/// pairing with its unpaired summary), never a refused analysis.
#[test]
fn arms_sharing_one_item_are_each_shown_on_their_own() {
    let a = InputFile::new("a.csv", b"query_id,correct\nq1,1\nq2,0\nq3,1\n".to_vec());
    let b = InputFile::new("b.csv", b"query_id,correct\nq1,0\nq4,1\nq5,1\n".to_vec());
    let roles = assign_roles::<Compare>(vec![(a, Some(FileRole::Outcomes)), (b, Some(FileRole::Outcomes))]).unwrap();
    let mut request = CompareRequest::default();
    request.options.allow_incomplete = true;
    request.spec.key = Some(vec!["query_id".into()]);
    let (_, report) = run_once::<Compare>(&roles, &request, &mut quiet()).unwrap();
    let CompareReport::Refused(r) = report else { panic!("compared on one item") };
    assert!(r.message.contains("one item (`q1`) is observed in every arm"), "{}", r.message);
    let u = r.unpaired.expect("each arm on its own");
    assert_eq!(u.arms.iter().map(|x| (x.arm.as_str(), x.n)).collect::<Vec<_>>(), [("a", 3), ("b", 3)]);
}

#[test]
fn contrasts_read_treatment_minus_reference() {
    let roles = assign_roles::<Compare>(FILES.map(|f| (family(f), Some(FileRole::Outcomes))).to_vec()).unwrap();
    let settings = CompareSettings { bootstrap: 200, reference: Some("evermemos".into()), ..Default::default() };
    let request = CompareRequest { settings, ..Default::default() };
    let c = compared(&roles, &request, &mut quiet()).unwrap().1.comparison;
    // Every contrast with the reference has it as b; the others keep arm order.
    let pairs: Vec<(&str, &str)> = c.pairs.iter().map(|p| (p.a.as_str(), p.b.as_str())).collect();
    assert_eq!(
        pairs,
        [
            ("mem0_evals", "evermemos"),
            ("mem0_evals", "zep_grades"),
            ("mem0_evals", "audit_results"),
            ("zep_grades", "evermemos"),
            ("audit_results", "evermemos"),
            ("zep_grades", "audit_results"),
        ]
    );
    let zep_vs_ever = &c.pairs[3];
    assert!((zep_vs_ever.diff - (zep_vs_ever.mean_a - zep_vs_ever.mean_b)).abs() < 1e-15);
    assert!(zep_vs_ever.diff < 0.0, "zep answers fewer questions right than evermemos");
    let bad = CompareRequest {
        settings: CompareSettings { reference: Some("nope".into()), ..Default::default() },
        ..Default::default()
    };
    assert!(compared(&roles, &bad, &mut quiet()).unwrap_err().to_string().contains("no arm named `nope`"));
}

#[test]
fn degenerate_comparisons_are_refused_or_warned() {
    use memaudit::compare::{CompareInput, compare as run_compare};
    let one = CompareInput {
        arms: vec!["a".into(), "b".into()],
        items: vec!["q".into()],
        values: vec![vec![1.0, 0.0]],
        groups: None,
        per: None,
    };
    let e = run_compare(&one, &CompareSettings { bootstrap: 100, ..Default::default() }, &mut |_, _| {}).unwrap_err();
    assert!(e.to_string().contains("one item"), "{e}");
    let constant = CompareInput {
        arms: vec!["a".into(), "b".into()],
        items: vec!["q1".into(), "q2".into(), "q3".into()],
        values: vec![vec![1.0, 1.0]; 3],
        groups: None,
        per: None,
    };
    let c = run_compare(&constant, &CompareSettings { bootstrap: 100, ..Default::default() }, &mut |_, _| {}).unwrap();
    assert!(c.notes.iter().any(|n| n.contains("cannot differ")), "{:?}", c.notes);
}

/// BriefBench's per-attempt rows carry no task id: paired by position only when asked, and only
/// because the rows' descriptions agree row by row across arms; a disagreement is refused by
/// position, arms, column and values.
#[test]
fn id_less_rows_pair_by_position_only_when_asked_and_consistent() {
    let rows = common::fixture("BriefBench/all_rows_claude.jsonl");
    let ask = |order: Option<Vec<String>>, allow: bool, file: InputFile| {
        let roles = assign_roles::<Compare>(vec![(file, Some(FileRole::Outcomes))]).unwrap();
        let mut request =
            CompareRequest { settings: CompareSettings { bootstrap: 200, ..Default::default() }, ..Default::default() };
        request.pair_by_position = order;
        request.options.allow_incomplete = allow;
        compared(&roles, &request, &mut quiet()).map(|(_, r)| r)
    };
    let e = ask(None, false, rows.clone()).unwrap_err().to_string();
    let e = memaudit::fields::render_mentions(&e, memaudit::command_line::word);
    assert!(e.contains("--pair-by-position"), "{e}");
    let out = ask(Some(vec![]), true, rows.clone()).unwrap();
    assert_eq!(out.spec.key, ["position"]);
    assert_eq!(out.comparison.n_items, 96, "random_context has the first 96 attempts only");
    assert_eq!(out.comparison.arms.len(), 9);
    // Reorder one arm's rows: position 1 of `dense` is no longer a dcbench attempt.
    let text = String::from_utf8(rows.bytes().unwrap().into_owned()).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let dense_first = lines.iter().position(|l| l.contains("\"arm\": \"dense\"")).unwrap();
    let dense_synth = lines.iter().position(|l| l.contains("\"arm\": \"dense\"") && l.contains("synthetic")).unwrap();
    lines.swap(dense_first, dense_synth);
    let shuffled = InputFile::new("all_rows_claude.jsonl", lines.join("\n").into_bytes());
    let e = ask(Some(vec!["dataset".into()]), true, shuffled).unwrap_err().to_string();
    assert!(e.contains("row 1 of arm `dense`") && e.contains("dataset = `synthetic`"), "{e}");
}

/// An Inspect `.json` log in Inspect's shape with `C`/`I`/`P` grades: `P` is 0.5 by default
/// (Inspect's `value_to_float`), and `--partial-credit` sets it; the setting is stated in the
/// spec and refused where it would change nothing.
#[test]
fn inspect_partial_grades_are_stated_and_settable() {
    let log = |model: &str, grades: &[&str]| {
        let samples: Vec<Value> = grades
            .iter()
            .enumerate()
            .map(|(i, g)| serde_json::json!({"id": i + 1, "epoch": 1, "scores": {"match": {"value": g}}}))
            .collect();
        let doc = serde_json::json!({
            "version": 2, "status": "success",
            "eval": {"task": "recall", "model": model, "run_id": "r"},
            "results": {"scores": []}, "samples": samples,
        });
        InputFile::new(format!("{}.json", model.replace('/', "_")), serde_json::to_vec(&doc).unwrap())
    };
    let files = vec![log("m/a", &["C", "P", "I", "P", "C"]), log("m/b", &["P", "I", "I", "C", "C"])];
    let roles = assign_roles::<Compare>(files.into_iter().map(|f| (f, Some(FileRole::Outcomes))).collect()).unwrap();
    let run = |credit: Option<f64>| {
        let request = CompareRequest {
            settings: CompareSettings { bootstrap: 200, ..Default::default() },
            partial_credit: credit,
            ..Default::default()
        };
        compared(&roles, &request, &mut quiet()).map(|(_, r)| r)
    };
    let means = |out: &memaudit::compare::CompareOutput| -> Vec<(String, f64)> {
        out.comparison.arms.iter().map(|a| (a.arm.clone(), a.mean)).collect()
    };
    // Hand counts: a = (2 C + 2 P) / 5, b = (2 C + 1 P) / 5.
    let default = run(None).unwrap();
    assert_eq!(means(&default), [("m/a".to_string(), 3.0 / 5.0), ("m/b".to_string(), 2.5 / 5.0)]);
    assert!(default.spec.reasons.iter().any(|r| r.contains("P = 0.5")), "{:?}", default.spec.reasons);
    let zero = run(Some(0.0)).unwrap();
    assert_eq!(means(&zero), [("m/a".to_string(), 2.0 / 5.0), ("m/b".to_string(), 2.0 / 5.0)]);
    assert!(zero.spec.reasons.iter().any(|r| r.contains("scored 0 (`partial_credit`): 3 scores")), "{:?}", zero.spec);
    let one = run(Some(1.0)).unwrap();
    assert_eq!(means(&one), [("m/a".to_string(), 4.0 / 5.0), ("m/b".to_string(), 3.0 / 5.0)]);
    // Binary again with P = 0 or 1: McNemar's discordant counts follow the credit.
    let p = &one.comparison.pairs[0];
    assert_eq!((p.a.as_str(), p.b.as_str()), ("m/a", "m/b"));
    assert_eq!((p.b_count, p.c_count), (Some(1), Some(0)), "a = 1,1,0,1,1 and b = 1,0,0,1,1: only item 2 differs");
    assert_eq!(default.comparison.pairs[0].b_count, None, "P = 0.5 is not binary: no McNemar");
    let e = run(Some(1.5)).unwrap_err().to_string();
    assert!(e.contains("partial_credit") && e.contains("[0, 1]"), "{e}");
    let locomo = assign_roles::<Compare>(vec![(family("zep_grades.json"), Some(FileRole::Outcomes))]).unwrap();
    let request = CompareRequest { partial_credit: Some(0.0), ..Default::default() };
    let e = compared(&locomo, &request, &mut quiet()).unwrap_err().to_string();
    assert!(e.contains("none of these files is one"), "{e}");
}

/// Rows without an item id cannot be paired without assuming an order, but each arm's interval
/// is always given with the refusal: every row one observation of its arm. BriefBench's
/// per-attempt `correct` against statsmodels' Wilson and Clopper–Pearson intervals
/// (`tests/reference/unpaired_arms/make_reference.py`).
#[test]
fn id_less_rows_give_per_arm_intervals_without_pairing() {
    let reference: Value =
        serde_json::from_str(include_str!("reference/unpaired_arms/reference.json")).expect("reference JSON");
    let rows = common::fixture("BriefBench/all_rows_claude.jsonl");
    let roles = assign_roles::<Compare>(vec![(rows, Some(FileRole::Outcomes))]).unwrap();
    let request = CompareRequest {
        settings: CompareSettings { bootstrap: 300, ..Default::default() },
        spec: memaudit::compare::SpecChoice { value: Some("correct".into()), ..Default::default() },
        ..Default::default()
    };
    let report = run_once::<Compare>(&roles, &request, &mut quiet()).unwrap().1;
    let CompareReport::Refused(refused) = &report else { panic!("not refused: {report:?}") };
    let Some(u) = &refused.unpaired else { panic!("no per-arm summary: {refused:?}") };
    let want = reference["arms"].as_array().unwrap();
    assert_eq!(u.arms.len(), want.len());
    assert!(u.too_few.is_empty() && u.missing.is_empty());
    for (got, want) in u.arms.iter().zip(want) {
        assert_eq!(got.arm, want["arm"].as_str().unwrap());
        assert_eq!(got.n as u64, want["n"].as_u64().unwrap(), "{}", got.arm);
        assert_eq!(got.successes, Some(want["successes"].as_f64().unwrap()), "{}", got.arm);
        let close = |a: Option<f64>, b: &Value| (a.unwrap() - b.as_f64().unwrap()).abs() < 1e-9;
        assert!(close(got.wilson_low, &want["wilson"][0]) && close(got.wilson_high, &want["wilson"][1]), "{}", got.arm);
        assert!(
            close(got.clopper_pearson_low, &want["clopper_pearson"][0])
                && close(got.clopper_pearson_high, &want["clopper_pearson"][1]),
            "{}",
            got.arm
        );
        assert!(got.ci_low <= got.mean && got.mean <= got.ci_high, "{}: bootstrap interval holds the mean", got.arm);
    }
    // The message states the summary (the CLI prints it), with no contrast between arms.
    let text = refused.to_error().to_string();
    assert!(text.contains("Each arm without pairing") && text.contains("No contrast without pairing"), "{text}");
}

/// Several verdicts per item as separate arms (`--judgment each`): EverMemOS's three
/// `llm_judgments` become `evermemos/judgment_k`, Zep's single `grade` stays one arm; per-arm
/// accuracy and every pairwise exact McNemar equal statsmodels
/// (`tests/reference/outcome_families/each_judgment_reference.py`).
#[test]
fn several_verdicts_per_item_as_separate_arms() {
    let reference: Value =
        serde_json::from_str(&std::fs::read_to_string(dir().join("each_judgment.json")).unwrap()).unwrap();
    let files = vec![family("evermemos.json"), family("zep_grades.json")];
    let roles = assign_roles::<Compare>(files.into_iter().map(|f| (f, Some(FileRole::Outcomes))).collect()).unwrap();
    let mut request =
        CompareRequest { settings: CompareSettings { bootstrap: 200, ..Default::default() }, ..Default::default() };
    request.spec.judgment = Some(memaudit::outcomes::JudgmentChoice::Each);
    let out = compared(&roles, &request, &mut quiet()).unwrap().1;
    let c = &out.comparison;
    assert_eq!(c.n_items as u64, reference["items"].as_u64().unwrap());
    let names: Vec<&str> = c.arms.iter().map(|a| a.arm.as_str()).collect();
    assert_eq!(names, ["evermemos/judgment_1", "evermemos/judgment_2", "evermemos/judgment_3", "zep_grades"]);
    for a in &c.arms {
        let want = reference["accuracy"][&a.arm].as_f64().unwrap();
        assert!((a.mean - want).abs() < 1e-12, "{}: {} vs {want}", a.arm, a.mean);
    }
    assert_eq!(c.pairs.len(), reference["pairs"].as_array().unwrap().len());
    for want in reference["pairs"].as_array().unwrap() {
        let (a, b) = (want["a"].as_str().unwrap(), want["b"].as_str().unwrap());
        let p = c.pairs.iter().find(|p| p.a == a && p.b == b).unwrap_or_else(|| panic!("{a} vs {b}"));
        assert_eq!((p.b_count, p.c_count), (want["a_only"].as_u64(), want["b_only"].as_u64()), "{a} vs {b}");
        assert!((p.mcnemar_p.unwrap() - want["mcnemar_exact_p"].as_f64().unwrap()).abs() < 1e-12, "{a} vs {b}");
    }
    assert!(out.spec.reasons.iter().any(|r| r.contains("(`judgment` = each)")), "{:?}", out.spec.reasons);
    // The majority (the default) is one arm per file again.
    request.spec.judgment = None;
    let majority = compared(&roles, &request, &mut quiet()).unwrap().1;
    assert_eq!(majority.comparison.arms.len(), 2);
}

/// Files that each state their configuration at the top level (`"config": "hybrid-k10"`, or
/// `"config": {"name": …}`) are arms named by it, with a note; when two state the same one, or
/// one states none, the path names them as before.
#[test]
fn files_are_named_by_the_configuration_they_state() {
    let base: Value = serde_json::from_str(&std::fs::read_to_string(dir().join("evermemos.json")).unwrap()).unwrap();
    let with = |path: &str, config: Value| {
        let mut doc = base.clone();
        doc["config"] = config;
        InputFile::new(path, serde_json::to_vec(&doc).unwrap())
    };
    let a = with("fc-baseline/results/run1/eval_results.json", Value::String("hybrid-k10".into()));
    let b = with("fc-baseline/results/run2/eval_results.json", serde_json::json!({"name": "dense-k5", "k": 5}));
    let t = read_outcome_files(&[a.clone(), b.clone()], &ReadOptions::default()).unwrap();
    assert_eq!(t.files[1].stated, Some(("config.name".to_string(), "dense-k5".to_string())));
    assert_eq!(t.warnings.count(OutcomeWarningKind::ArmFromStatedConfig), 2);
    let out = compare(vec![a.clone(), b]).unwrap();
    let names: Vec<&str> = out.comparison.arms.iter().map(|x| x.arm.as_str()).collect();
    assert_eq!(names, ["hybrid-k10", "dense-k5"]);
    // The same stated configuration twice: named by their paths.
    let same = with("fc-baseline/results/run2/eval_results.json", Value::String("hybrid-k10".into()));
    let t = read_outcome_files(&[a, same], &ReadOptions::default()).unwrap();
    assert_eq!(t.warnings.count(OutcomeWarningKind::ArmFromStatedConfig), 0);
    let files: Vec<&str> = t
        .rows
        .iter()
        .map(|r| r.fields["file"].as_str())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(files, ["run1", "run2"]);
}

/// One vendor's judged LoCoMo file (Zep's released `zep_locomo_grades.json` shape) is one
/// system: the refusal to pair says so and never offers the conversation key (`group`) or the
/// category as the arm.
#[test]
fn one_locomo_answer_file_is_one_system() {
    let e = compare(vec![family("zep_grades.json")]).unwrap_err().to_string();
    assert!(e.contains("candidates: none"), "{e}");
    assert!(e.contains("the rows seem to be one system's"), "{e}");
    // With its questions' categories (Zep's released file has them), its result is its summary,
    // whole and per category (as LoCoMo papers print it), the grouping said; never per
    // conversation (`group`).
    assert!(!e.contains("also per `group`"), "{e}");
    let mut zep: Value =
        serde_json::from_str(&std::fs::read_to_string(dir().join("zep_grades.json")).unwrap()).unwrap();
    let mut per: std::collections::BTreeMap<String, (u64, u64)> = Default::default();
    for records in zep.as_object_mut().unwrap().values_mut() {
        for (i, r) in records.as_array_mut().unwrap().iter_mut().enumerate() {
            r["category"] = Value::from(i % 4 + 1);
            let e = per.entry(r["category"].to_string()).or_default();
            e.0 += u64::from(r["grade"].as_bool().unwrap());
            e.1 += 1;
        }
    }
    let e =
        compare(vec![InputFile::new("zep_grades.json", serde_json::to_vec(&zep).unwrap())]).unwrap_err().to_string();
    assert!(e.contains("one arm: also per `category` (the data's strata"), "{e}");
    for (category, (right, n)) in per {
        let line = e.lines().find(|l| l.starts_with(&format!("zep_grades · category={category} "))).expect(&category);
        let want = format!("{n}  {:.3}", right as f64 / n as f64);
        assert!(line.split_whitespace().collect::<Vec<_>>().join("  ").contains(&want), "{line} vs {want}");
    }
}
