//! Answer rescoring against the reference scripts' behaviour (values computed once with
//! Python 3.11 and NLTK 3.9.1 by `tests/reference/answers/reference.py`): SQuAD v1.1,
//! MemoryAgentBench and LoCoMo on worked examples, the NLTK Porter stemmer on 15,495 words,
//! and LoCoMo's official scoring on all 1,986 LoCoMo-10 questions.

use crate::common;

use std::path::PathBuf;

use memaudit::answers::normalize::{locomo_normalize, py_split, squad_normalize};
use memaudit::answers::score::{LocomoRule, parse_output};
use memaudit::answers::{
    AnswerColumns, AnswerInput, AnswerSettings, AnswerWarningKind, Profile, diff, porter, read_answers,
    rescore_answers, score,
};
use memaudit::ingest::InputFile;
use serde_json::Value;

fn reference(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/answers").join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn worked_examples_match_the_python_scripts() {
    let doc: Value = serde_json::from_str(&reference("answers_reference.json")).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 45);
    for c in cases {
        let gold: Vec<String> = c["gold"].as_array().unwrap().iter().map(|g| g.as_str().unwrap().to_string()).collect();
        let pred = c["prediction"].as_str().unwrap();
        let input = AnswerInput {
            gold: &gold,
            prediction: pred,
            dataset: c["dataset"].as_str(),
            category: c["category"].as_i64(),
        };
        assert_eq!(squad_normalize(pred), c["squad_normalized"].as_str().unwrap(), "{pred:?}");
        assert_eq!(locomo_normalize(pred), c["locomo_normalized"].as_str().unwrap(), "{pred:?}");
        assert_eq!(parse_output(pred), c["parse_output"].as_str().unwrap(), "{pred:?}");
        // amem_f1 is checked against its own script's values (`amem_reference.json`).
        for &p in Profile::ALL.iter().filter(|p| **p != Profile::AmemF1) {
            let want = c[p.name()].as_f64().unwrap();
            let got = score(p, &input).score;
            assert!((got - want).abs() < 1e-12, "{} on {gold:?} / {pred:?}: {got} vs Python {want}", p.name());
        }
    }
}

#[test]
fn porter_matches_nltk_on_every_word_of_the_longmemeval_snapshot() {
    let tsv = reference("porter_nltk.tsv");
    let mut n = 0;
    let mut snowball_differs = 0;
    for line in tsv.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(porter::stem(f[0]), f[1], "stem of {:?}", f[0]);
        n += 1;
        snowball_differs += (f[2] == "0") as usize;
    }
    assert_eq!(n, 15_495);
    // Snowball English (rust-stemmers' algorithm) would disagree on 264 of them (docs/answers.md)
    assert_eq!(snowball_differs, 264);
}

/// The LoCoMo questions with, as the "prediction", the text of their first evidence turn.
fn locomo_pairs() -> Vec<(String, String, i64)> {
    let f = common::fixture("locomo-audit/locomo10.json");
    let doc: Value = serde_json::from_slice(&f.bytes().unwrap()).unwrap();
    let mut out = Vec::new();
    for conv in doc.as_array().unwrap() {
        let mut turns = std::collections::HashMap::new();
        for (k, v) in conv["conversation"].as_object().unwrap() {
            if let (true, Some(list)) = (k.starts_with("session_"), v.as_array()) {
                for t in list {
                    turns.insert(t["dia_id"].as_str().unwrap().to_string(), t["text"].as_str().unwrap().to_string());
                }
            }
        }
        for qa in conv["qa"].as_array().unwrap() {
            let gold = match qa.get("answer").or_else(|| qa.get("adversarial_answer")) {
                Some(Value::String(s)) => s.clone(),
                Some(v) => v.to_string(),
                None => String::new(),
            };
            let pred = qa["evidence"]
                .as_array()
                .and_then(|e| e.first())
                .and_then(|e| turns.get(e.as_str().unwrap_or_default()))
                .cloned()
                .unwrap_or_default();
            out.push((pred, gold, qa["category"].as_i64().unwrap()));
        }
    }
    out
}

#[test]
fn locomo_official_scores_on_all_locomo10_questions() {
    let doc: Value = serde_json::from_str(&reference("locomo10_f1.json")).unwrap();
    let want: Vec<f64> =
        doc["scores"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().parse::<f64>().unwrap()).collect();
    let pairs = locomo_pairs();
    assert_eq!(pairs.len(), 1986);
    assert_eq!(want.len(), pairs.len());
    let mut exact = 0;
    for (i, ((pred, gold, cat), w)) in pairs.iter().zip(&want).enumerate() {
        let got = LocomoRule::of(Some(*cat)).score(pred, gold);
        assert!((got - w).abs() < 1e-12, "question {i} (category {cat}): {got} vs Python {w}");
        exact += (got == *w) as usize;
    }
    // bit-for-bit equal to the Python floats, not just close
    assert_eq!(exact, pairs.len());
    // and the stemmer agrees with NLTK on every LoCoMo token (via the scores above); the
    // token count is recorded for docs/answers.md
    let vocab: std::collections::BTreeSet<String> = pairs
        .iter()
        .flat_map(|(p, g, _)| {
            let mut v: Vec<String> = py_split(&locomo_normalize(p)).into_iter().map(String::from).collect();
            v.extend(py_split(&locomo_normalize(g)).into_iter().map(String::from));
            v
        })
        .collect();
    assert_eq!(vocab.len() as u64, doc["distinct_tokens"].as_u64().unwrap());
}

#[test]
fn reading_scoring_and_diff_end_to_end() {
    let text = "{\"query_id\":\"q1\",\"dataset\":\"ruler_qa1\",\"gold\":[\"The Louvre\"],\"output\":\"louvre museum\"}\n\
{\"query_id\":\"q2\",\"dataset\":\"ruler_qa1\",\"gold\":[\"Paris\"],\"output\":\"Thinking...\\nAnswer: Paris\",\"parsed_output\":\"Paris\"}\n\
{\"query_id\":\"q3\",\"dataset\":\"icl_banking77\",\"gold\":[\"card_arrival\"],\"output\":\"card_arrival\\nAnswer: refund\"}\n\
{\"query_id\":\"q4\",\"dataset\":\"ruler_qa1\",\"gold\":[\"x\"],\"output\":null}\n";
    let (rows, w) =
        read_answers(&InputFile::new("a.jsonl", text.as_bytes().to_vec()), &AnswerColumns::default()).unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(w.count(AnswerWarningKind::MissingPrediction), 1);
    let settings = AnswerSettings { profiles: vec![Profile::PaperSem, Profile::MabSem], f1_threshold: 0.5 };
    let rep = rescore_answers(&rows, &settings, w).unwrap();
    let verdicts: Vec<(bool, bool)> = rep.rows.iter().map(|r| (r.scores[0].correct, r.scores[1].correct)).collect();
    // q1: 'the louvre' not in 'louvre museum' (literal) but 'louvre' is (MAB)
    // q2: both find paris; q3: icl scores the parse 'refund' only (MAB), literal finds it in the raw text
    assert_eq!(verdicts, vec![(false, true), (true, true), (true, false)]);
    let d = diff(&rep, &rows, Profile::PaperSem, Profile::MabSem).unwrap();
    let ids: Vec<&str> = d.iter().map(|r| r.query_id.as_str()).collect();
    assert_eq!(ids, vec!["q1", "q3"]);
    assert_eq!(rep.disagreements[0].verdict_changes, 2);
    let json = serde_json::to_value(&rep).unwrap();
    assert_eq!(json["profiles"][1]["profile"], "mab_sem");
    assert_eq!(json["rows"][1]["scores"][1]["output"], "raw");
}

/// Several answer files, one with a header and no row: refused by name, never a system that
/// drops out of the scores unsaid; a rater's label file likewise.
#[test]
fn an_answer_or_label_file_without_rows_beside_others_is_refused() {
    use memaudit::answers::{Answers, AnswersRequest};
    use memaudit::capability::{FileRole, assign_roles, quiet, run_once};
    let x = InputFile::new("sysX.csv", b"query_id,prediction,gold\nq1,x,x\nq2,y,x\n".to_vec());
    let y = InputFile::new("sysY.csv", b"query_id,prediction,gold\n".to_vec());
    let files =
        assign_roles::<Answers>(vec![(x.clone(), Some(FileRole::Answers)), (y, Some(FileRole::Answers))]).unwrap();
    let e = run_once::<Answers>(&files, &AnswersRequest::default(), &mut quiet()).map(|_| ()).unwrap_err().to_string();
    assert!(e.starts_with("sysY.csv: no answer rows could be read from it"), "{e}");
    assert!(e.contains("give its rows, or leave the file out"), "{e}");
    // The other file alone is scored.
    let alone = assign_roles::<Answers>(vec![(x, Some(FileRole::Answers))]).unwrap();
    assert!(run_once::<Answers>(&alone, &AnswersRequest::default(), &mut quiet()).is_ok());

    use memaudit::label_audit::{Labels, LabelsRequest};
    let alice = InputFile::new("alice.csv", b"item,alice\ni1,yes\ni2,no\n".to_vec());
    let bob = InputFile::new("bob.csv", b"item,bob\n".to_vec());
    let files = assign_roles::<Labels>(vec![(alice, Some(FileRole::Labels)), (bob, Some(FileRole::Labels))]).unwrap();
    let e = run_once::<Labels>(&files, &LabelsRequest::default(), &mut quiet()).map(|_| ()).unwrap_err().to_string();
    assert!(e.starts_with("bob.csv: no label rows could be read from it"), "{e}");
}

/// Two files without an arm column that answer the same questions are two systems (Memobase's
/// two released runs, `memobase_eval_0503_3000.json` and `…_0710_3000.json`): each is its own
/// arm, named from its path and said, never one system's rows refused as repeats. Files that
/// share no question (one system's shards) stay one arm.
#[test]
fn files_answering_the_same_questions_are_systems_of_their_own() {
    use memaudit::answers::{AnswerWarningKind, Answers, AnswersRequest};
    use memaudit::capability::{FileRole, assign_roles, quiet, run_once};
    let run = |files: Vec<InputFile>| {
        let files = assign_roles::<Answers>(files.into_iter().map(|f| (f, Some(FileRole::Answers))).collect()).unwrap();
        run_once::<Answers>(&files, &AnswersRequest::default(), &mut quiet()).map(|(_, r)| r)
    };
    let a = InputFile::new("runs/eval_0503.csv", b"query_id,prediction,gold\nq1,Paris,Paris\nq2,Rome,Milan\n".to_vec());
    let b = InputFile::new("runs/eval_0710.csv", b"query_id,prediction,gold\nq1,Lyon,Paris\nq2,Milan,Milan\n".to_vec());
    let r = run(vec![a, b]).unwrap();
    let arms: std::collections::BTreeSet<_> = r.rows.iter().filter_map(|x| x.arm.clone()).collect();
    assert_eq!(arms.into_iter().collect::<Vec<_>>(), ["eval_0503", "eval_0710"]);
    assert_eq!(r.warnings.count(AnswerWarningKind::ArmFromFile), 2);
    let of = |arm: &str| r.summary.iter().find(|s| s.arm.as_deref() == Some(arm)).map(|s| s.n).unwrap();
    assert_eq!((of("eval_0503"), of("eval_0710")), (2, 2));
    // Shards of one system: no question in both, one arm as before.
    let s1 = InputFile::new("part1.csv", b"query_id,prediction,gold\nq1,Paris,Paris\n".to_vec());
    let s2 = InputFile::new("part2.csv", b"query_id,prediction,gold\nq2,Milan,Milan\n".to_vec());
    let r = run(vec![s1, s2]).unwrap();
    assert!(r.rows.iter().all(|x| x.arm.is_none()));
    assert_eq!(r.warnings.count(AnswerWarningKind::ArmFromFile), 0);
}

/// Memobase's LoCoMo answers as released (mem0's `evals.py` shape: `{"1": [{question, answer,
/// response, category, …}], …}`, no question id): every question is read, named
/// `conversation/position`, and the naming is said. Counted with Python: 1,540 questions in 10
/// conversations, each with a response and an answer.
#[test]
fn locomo_answers_grouped_by_conversation_are_named_by_their_place() {
    use memaudit::answers::{Answers, AnswersRequest};
    use memaudit::capability::{FileRole, assign_roles, quiet, run_once};
    let path = common::shared().join("fixtures/external/memobase/memobase_eval_0503_3000.json");
    let file = InputFile::new("memobase_eval_0503_3000.json", std::fs::read(path).unwrap());
    let (rows, w) = read_answers(&file, &AnswerColumns::default()).unwrap();
    assert_eq!(rows.len(), 1540);
    assert_eq!(w.count(AnswerWarningKind::PositionalIds), 1540);
    // Conversation "1"'s first question is `1/1`.
    let first = rows.iter().find(|r| r.query_id == "1/1").unwrap();
    assert_eq!(first.gold, vec!["19 January, 2023"]);
    assert_eq!(first.prediction, "19 January 2023");
    let ids: std::collections::HashSet<&str> = rows.iter().map(|r| r.query_id.as_str()).collect();
    assert_eq!(ids.len(), 1540, "every question has its own name");
    let files = assign_roles::<Answers>(vec![(file.clone(), Some(FileRole::Answers))]).unwrap();
    let (_, report) = run_once::<Answers>(&files, &AnswersRequest::default(), &mut quiet()).unwrap();
    assert_eq!(report.rows.len(), 1540);
    let said = memaudit::capability::headlines::<Answers>(&report);
    assert!(
        said.iter().any(|h| h.text == "1540 questions carry no id: each is named conversation/position"),
        "{said:?}"
    );

    // Two files that list different questions at one place: matched by text, each question is
    // its own item (never one question's answers scored as another's), and said.
    let a = InputFile::new("a.json", br#"{"0": [{"question": "Q one?", "answer": "x", "response": "x"}]}"#.to_vec());
    let b = InputFile::new("b.json", br#"{"0": [{"question": "Q two?", "answer": "x", "response": "y"}]}"#.to_vec());
    let files =
        assign_roles::<Answers>(vec![(a.clone(), Some(FileRole::Answers)), (b.clone(), Some(FileRole::Answers))])
            .unwrap();
    let (_, r) = run_once::<Answers>(&files, &AnswersRequest::default(), &mut quiet()).unwrap();
    let ids: Vec<(&str, &str)> = r.rows.iter().map(|x| (x.file.as_str(), x.query_id.as_str())).collect();
    assert_eq!(ids, [("a.json", "0/1"), ("b.json", "0/2")]);
    assert_eq!(r.warnings.count(AnswerWarningKind::QuestionsAlignedByText), 1);
    // Without its question text, b's record cannot be matched: refused, naming both places.
    let bare = InputFile::new(
        "b.json",
        br#"{"0": [{"question": "Q two?", "answer": "x", "response": "y"}, {"answer": "z", "response": "z"}]}"#
            .to_vec(),
    );
    let files = assign_roles::<Answers>(vec![(a, Some(FileRole::Answers)), (bare, Some(FileRole::Answers))]).unwrap();
    let e = run_once::<Answers>(&files, &AnswersRequest::default(), &mut quiet()).map(|_| ()).unwrap_err().to_string();
    assert!(e.starts_with("b.json, line 1, field `question`: question 0/1"), "{e}");
    assert!(e.contains("`Q two?` here but `Q one?` in a.json, line 1"), "{e}");
}

/// Two runs of mem0's `evals.py` list conversation 0's questions in different orders (its
/// released `exp_data_0-0_200` run and the `exp_data_0-10_2000` results, which also drop the
/// category-5 questions): their answers are matched by question text, said, never refused or
/// matched by place. A record without its question cannot be matched: refused as before.
#[test]
fn reordered_locomo_answer_files_are_matched_by_question_text() {
    use memaudit::answers::{AnswerWarningKind, Answers, AnswersRequest};
    use memaudit::capability::{FileRole, assign_roles, quiet, run_once};
    let run = |files: Vec<InputFile>| {
        let files = assign_roles::<Answers>(files.into_iter().map(|f| (f, Some(FileRole::Answers))).collect()).unwrap();
        run_once::<Answers>(&files, &AnswersRequest::default(), &mut quiet()).map(|(_, r)| r)
    };
    let rec = |q: &str, gold: &str, response: &str, category: u8| serde_json::json!({"question": q, "answer": gold, "response": response, "category": category});
    let first = serde_json::json!({"0": [rec("Where?", "Paris", "Paris", 1), rec("Adversarial?", "", "no", 5),
        rec("When?", "May", "June", 2), rec("Who?", "Ann", "Ann", 1)]});
    let second = serde_json::json!({"0": [rec("Who?", "Ann", "Bob", 1), rec("Where?", "Paris", "Paris", 1),
        rec("When?", "May", "May", 2)]});
    let files = |second: &serde_json::Value| {
        vec![
            InputFile::new("exp_0-0/results.json", serde_json::to_vec(&first).unwrap()),
            InputFile::new("exp_0-10/results.json", serde_json::to_vec(second).unwrap()),
        ]
    };
    let r = run(files(&second)).unwrap();
    let w = r.warnings.get(AnswerWarningKind::QuestionsAlignedByText).expect("said");
    // `When?` is third in both files and keeps its place; the two others move.
    assert_eq!(w.count, 2);
    assert!(w.examples[0].starts_with("exp_0-10/results.json, line 1: question 0/1 → 0/4"), "{w:?}");
    // Each question has one id in both files: `Who?` is 0/4, as the first file places it.
    // Each question has one id in both files (the responses tell the rows apart): `Who?` is 0/4,
    // as the first file places it.
    let id_of = |arm: &str, response: &str| {
        r.rows
            .iter()
            .find(|x| x.arm.as_deref() == Some(arm) && x.parsed.trim().eq_ignore_ascii_case(response))
            .map(|x| x.query_id.clone())
    };
    for (first, second, id) in [("Paris", "Paris", "0/1"), ("June", "May", "0/3"), ("Ann", "Bob", "0/4")] {
        assert_eq!(id_of("exp_0-0", first).as_deref(), Some(id), "{first}");
        assert_eq!(id_of("exp_0-10", second).as_deref(), Some(id), "{second}");
    }
    // A record without its question text: refused, naming the place.
    let mut bare = second.clone();
    bare["0"][0].as_object_mut().unwrap().remove("question");
    let e = run(files(&bare)).map(|_| ()).unwrap_err().to_string();
    assert!(e.contains("cannot be matched by position"), "{e}");
}

/// Arms that answer different questions (mem0's released runs: 199 questions of one
/// conversation beside 1,540 of ten) are ranked by their shares only with that said: the
/// ranking headline names the populations, never a bare "most accurate arm".
#[test]
fn arms_on_different_questions_are_ranked_with_that_said() {
    use memaudit::answers::{Answers, AnswersRequest};
    use memaudit::capability::{FileRole, assign_roles, quiet, run_once};
    let a = InputFile::new("a.csv", b"query_id,prediction,gold\nq1,Paris,Paris\nq2,Rome,Rome\nq3,x,Oslo\n".to_vec());
    let b = InputFile::new("b.csv", b"query_id,prediction,gold\nq1,Paris,Paris\nq2,Milan,Rome\n".to_vec());
    let files = assign_roles::<Answers>(vec![(a, Some(FileRole::Answers)), (b, Some(FileRole::Answers))]).unwrap();
    let (_, r) = run_once::<Answers>(&files, &AnswersRequest::default(), &mut quiet()).unwrap();
    let said = memaudit::capability::headlines::<Answers>(&r);
    let ranking = said.iter().find(|h| h.text.contains("most accurate arm")).expect("a ranking");
    assert!(ranking.text.contains("most accurate arm, on different questions,"), "{ranking:?}");
    assert!(ranking.evidence.contains("the arms answer different questions (a n = 3, b n = 2)"), "{ranking:?}");
}

/// Zep's released LoCoMo files (`getzep/zep-papers`): `zep_locomo_responses.json`
/// `{question, answer, golden_answer, duration_ms}` and `zep_locomo_grades.json`, the same
/// answers with `grade` and `category`. `answer` is the model's, `golden_answer` the gold (said);
/// the second file answers every question as the first does: one run, read once, never two
/// arms of one system — from the grades file, which also states `grade` (the judge's verdict,
/// shown beside the rules) and the categories.
#[test]
fn zeps_released_answers_are_read_once_with_their_gold() {
    use memaudit::answers::{AnswerWarningKind, Answers, AnswersRequest};
    use memaudit::capability::{FileRole, assign_roles, quiet, run_once};
    let responses = serde_json::json!({
        "locomo_experiment_user_0": [
            {"question": "Where?", "answer": "Paris", "golden_answer": "Paris", "duration_ms": 10},
            {"question": "When?", "answer": "June", "golden_answer": "May", "duration_ms": 12}],
        "locomo_experiment_user_1": [
            {"question": "Who?", "answer": "Ann", "golden_answer": "Ann", "duration_ms": 9}]});
    let mut grades = responses.clone();
    for records in grades.as_object_mut().unwrap().values_mut() {
        for r in records.as_array_mut().unwrap() {
            let o = r.as_object_mut().unwrap();
            o.remove("duration_ms");
            let right = o["answer"] == o["golden_answer"];
            o.insert("grade".into(), right.into());
            o.insert("category".into(), 4.into());
        }
    }
    let file = |name: &str, v: &serde_json::Value| {
        (InputFile::new(name, serde_json::to_vec(v).unwrap()), Some(FileRole::Answers))
    };
    let files = assign_roles::<Answers>(vec![
        file("data/zep_locomo_responses.json", &responses),
        file("data/zep_locomo_grades.json", &grades),
    ])
    .unwrap();
    let (_, r) = run_once::<Answers>(&files, &AnswersRequest::default(), &mut quiet()).unwrap();
    assert_eq!(r.rows.len(), 3, "read once");
    assert!(r.rows.iter().all(|x| x.arm.is_none() && x.file == "data/zep_locomo_grades.json"));
    assert!(r.rows.iter().all(|x| x.category == Some(4)));
    assert_eq!(r.warnings.count(AnswerWarningKind::AnswerBesideGoldenAnswer), 2);
    let same = r.warnings.get(AnswerWarningKind::SameAnswersAsFile).expect("said");
    assert_eq!(
        same.examples,
        [
            "data/zep_locomo_responses.json answers its 3 questions as data/zep_locomo_grades.json does: read once, from data/zep_locomo_grades.json, which also states `grade` and categories"
        ]
    );
    // The judge's grade beside every rule: 2 of 3 graded right, as squad_em counts them.
    let grade = r
        .stated
        .iter()
        .find(|c| c.column == "grade" && c.profile == memaudit::answers::Profile::SquadEm)
        .expect("grade stated");
    assert_eq!((grade.kind, grade.n, grade.agree), (memaudit::answers::StatedKind::Verdict, 3, 3));
    assert!((grade.stated_mean - 2.0 / 3.0).abs() < 1e-12);
    // Scored against `golden_answer`: two of three exactly right.
    let em = r.summary.iter().find(|s| s.profile == memaudit::answers::Profile::SquadEm).unwrap();
    assert_eq!((em.correct, em.n), (2, 3));
}

/// The `amem_f1` profile against A-Mem's `calculate_metrics` F1 (re-typed in
/// `tests/reference/answers/amem_reference.py`, checked against mem0's copy of it): every worked
/// example plus the cases where its tokenizer differs (token sets, `.,!?` only, Python's
/// white space).
#[test]
fn amem_f1_matches_the_a_mem_script() {
    let doc: Value = serde_json::from_str(&reference("amem_reference.json")).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 55);
    for c in cases {
        let gold: Vec<String> = c["gold"].as_array().unwrap().iter().map(|g| g.as_str().unwrap().to_string()).collect();
        let pred = c["prediction"].as_str().unwrap();
        let input = AnswerInput { gold: &gold, prediction: pred, dataset: None, category: None };
        let want = c["amem_f1"].as_f64().unwrap();
        let got = score(Profile::AmemF1, &input).score;
        assert!((got - want).abs() < 1e-12, "amem_f1 on {gold:?} / {pred:?}: {got} vs Python {want}");
    }
}

/// mem0's released LoCoMo results shape (`evals.py`: `{"0": [{question, answer, response,
/// category, bleu_score, f1_score, llm_score}]}`): the files' own scores are read as stated,
/// said, kept out of the design columns, and compared with every profile — `f1_score` written
/// by A-Mem's F1 is `amem_f1` on every row, `llm_score` is a verdict with its agreement.
#[test]
fn a_files_own_scores_are_shown_beside_the_profiles() {
    use memaudit::answers::{AnswerWarningKind, Answers, AnswersRequest, AnswersTable, StatedKind};
    use memaudit::capability::{FileRole, assign_roles, quiet, run_once};
    let records = [
        ("When did Jon lose his job?", "19 January, 2023", "Jon lost it on 19 January 2023.", 2, 1),
        ("Where did Gina go?", "Paris", "She went to Rome", 4, 0),
        ("What does Jon like?", "dancing, painting", "Dancing and painting, dancing.", 1, 1),
        ("Who called?", "Ann", "Ann!", 4, 1),
    ];
    let rows: Vec<serde_json::Value> = records
        .iter()
        .map(|(q, gold, response, category, llm)| {
            let f1 = score(
                Profile::AmemF1,
                &AnswerInput { gold: &[gold.to_string()], prediction: response, dataset: None, category: None },
            )
            .score;
            serde_json::json!({"question": q, "answer": gold, "response": response, "category": category.to_string(),
                "bleu_score": 0.25, "f1_score": f1, "llm_score": llm})
        })
        .collect();
    let doc = serde_json::json!({ "0": rows });
    let file = InputFile::new("results.json", serde_json::to_vec(&doc).unwrap());
    let files = assign_roles::<Answers>(vec![(file, Some(FileRole::Answers))]).unwrap();
    let (_, r) = run_once::<Answers>(&files, &AnswersRequest::default(), &mut quiet()).unwrap();
    let said = r.warnings.get(AnswerWarningKind::StatedScores).expect("the stated columns are said");
    assert_eq!(
        said.examples,
        ["results.json: bleu_score (scores, 4 rows), f1_score (scores, 4 rows), llm_score (0/1, 4 rows)"]
    );
    let of = |col: &str, p: Profile| r.stated.iter().find(|c| c.column == col && c.profile == p).unwrap();
    let f1 = of("f1_score", Profile::AmemF1);
    assert_eq!((f1.kind, f1.n, f1.agree), (StatedKind::Score, 4, 4));
    assert_eq!(f1.max_abs_difference, Some(0.0));
    assert!(of("f1_score", Profile::SquadF1).agree < 4, "SQuAD's multiset F1 differs on the repeated word");
    let llm = of("llm_score", Profile::PaperSem);
    assert_eq!((llm.kind, llm.n, llm.stated_only, llm.profile_only), (StatedKind::Verdict, 4, Some(2), Some(0)));
    assert!((llm.stated_mean - 0.75).abs() < 1e-12);
    // Never design columns, and in the rows table as `stated_<column>`.
    let p = &r.populations;
    let named =
        p.keyed.iter().chain(&p.pooled).map(|c| c.column.as_str()).chain(p.unused.iter().map(|c| c.column.as_str()));
    assert!(named.clone().all(|c| !c.ends_with("_score")), "{:?}", named.collect::<Vec<_>>());
    let t = memaudit::answers::table(&r, AnswersTable::Rows).unwrap();
    assert!(t.headers.iter().any(|h| h == "stated_llm_score"), "{:?}", t.headers);
    let hs = memaudit::capability::headlines::<Answers>(&r);
    assert!(hs.iter().any(|h| h.text == "The files' own f1_score is amem_f1 on every answer"), "{hs:?}");
    assert!(
        hs.iter().any(|h| h.text.starts_with("The files' own llm_score counts 75.0% of 4 answers correct")),
        "{hs:?}"
    );
    // A column named as the files' own scores must hold numbers, refused at its line otherwise.
    let bad = InputFile::new(
        "a.csv",
        b"query_id,prediction,gold,verdict
q1,x,x,1
q2,y,x,maybe
"
        .to_vec(),
    );
    let columns = AnswerColumns { stated: vec!["verdict".into()], ..AnswerColumns::default() };
    let e = read_answers(&bad, &columns).unwrap_err();
    assert_eq!((e.location.line, e.location.field.as_deref()), (Some(3), Some("verdict")), "{e}");
    let columns = AnswerColumns { stated: vec!["nope".into()], ..AnswerColumns::default() };
    assert!(read_answers(&bad, &columns).unwrap_err().to_string().contains("no column `nope`"));
}

/// Memobase's released LoCoMo results (`memobase_eval_0503_3000.json`, written by mem0's
/// `evals.py`): its own `f1_score` is A-Mem's F1, and `amem_f1` reproduces it on all 1,540
/// answers (|Δ| ≤ 1e-6); its `llm_score` is a verdict (70.9% correct, 1,092 of 1,540, counted
/// with Python: `sum(r["llm_score"] for g in d.values() for r in g)`).
#[test]
fn memobases_own_f1_score_is_a_mems_f1_on_every_answer() {
    use memaudit::answers::{Answers, AnswersRequest, StatedKind};
    use memaudit::capability::{FileRole, assign_roles, quiet, run_once};
    let path = common::shared().join("fixtures/external/memobase/memobase_eval_0503_3000.json");
    let file = InputFile::new("memobase_eval_0503_3000.json", std::fs::read(path).unwrap());
    let files = assign_roles::<Answers>(vec![(file, Some(FileRole::Answers))]).unwrap();
    let (_, r) = run_once::<Answers>(&files, &AnswersRequest::default(), &mut quiet()).unwrap();
    let of = |col: &str, p: Profile| r.stated.iter().find(|c| c.column == col && c.profile == p).unwrap();
    let f1 = of("f1_score", Profile::AmemF1);
    assert_eq!((f1.kind, f1.n, f1.agree), (StatedKind::Score, 1540, 1540));
    assert!(f1.max_abs_difference.unwrap() <= 1e-6);
    assert!(of("f1_score", Profile::SquadF1).agree < 1540);
    let llm = of("llm_score", Profile::LocomoF1);
    assert_eq!((llm.kind, llm.n), (StatedKind::Verdict, 1540));
    assert!((llm.stated_mean * 1540.0 - 1092.0).abs() < 1e-6, "{}", llm.stated_mean * 1540.0);
}

/// LongMemEval's released shapes: a hypothesis file (`question_id`, `hypothesis`; no gold) and
/// the dataset (`question_id`, `question_type`, `question`, `answer`, the haystack). The gold
/// answers, question types and questions come from the dataset by question id (said per file);
/// a question the dataset lacks is unknown, never scored 0; the judge's `autoeval_label.label`
/// of an evaluated file is its own verdict. A dataset beside files that all state their gold is
/// said unused.
#[test]
fn longmemeval_hypotheses_take_their_gold_from_the_dataset() {
    use memaudit::answers::{AnswerWarningKind, Answers, AnswersRequest, StatedKind};
    use memaudit::capability::{FileRole, assign_roles, quiet, run_once};
    let dataset = serde_json::json!([
        {"question_id": "q1", "question_type": "temporal-reasoning", "question": "When did I move?", "answer": "2021",
         "question_date": "2023/05/30", "haystack_sessions": [[{"role": "user", "content": "I moved in 2021."}]]},
        {"question_id": "q2", "question_type": "knowledge-update", "question": "Which city?", "answer": "Lisbon",
         "question_date": "2023/05/30", "haystack_sessions": []},
        {"question_id": "q3_abs", "question_type": "knowledge-update", "question": "What pet?", "answer": 3,
         "question_date": "2023/05/30", "haystack_sessions": []}
    ]);
    let hyp = "{\"question_id\":\"q1\",\"hypothesis\":\"You moved in 2021.\"}\n\
               {\"question_id\":\"q2\",\"hypothesis\":\"Porto\"}\n\
               {\"question_id\":\"q3_abs\",\"hypothesis\":\"3\"}\n\
               {\"question_id\":\"q9\",\"hypothesis\":\"?\"}\n";
    let evaluated: String = hyp
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["autoeval_label"] = serde_json::json!({"model": "gpt-4o-2024-08-06", "label": i != 1});
            format!("{v}\n")
        })
        .collect();
    let data = InputFile::new("data/longmemeval_oracle.json", serde_json::to_vec(&dataset).unwrap());
    let run = |files: Vec<InputFile>| {
        let files = assign_roles::<Answers>(files.into_iter().map(|f| (f, Some(FileRole::Answers))).collect()).unwrap();
        run_once::<Answers>(&files, &AnswersRequest::default(), &mut quiet()).map(|(_, r)| r).unwrap()
    };
    let r = run(vec![InputFile::new("out/hyp.jsonl.eval-results-gpt-4o", evaluated.into_bytes()), data.clone()]);
    assert_eq!(r.rows.len(), 3, "q9 is in no file of gold answers");
    let no_gold = r.warnings.get(AnswerWarningKind::NoGold).expect("said");
    assert_eq!(no_gold.examples, ["out/hyp.jsonl.eval-results-gpt-4o, line 4: q9 (in no file of gold answers)"]);
    let from = r.warnings.get(AnswerWarningKind::GoldFromFile).expect("said");
    assert_eq!(
        from.examples,
        [
            "out/hyp.jsonl.eval-results-gpt-4o: the gold answers of its 3 questions from data/longmemeval_oracle.json, by query id"
        ]
    );
    let datasets: Vec<Option<&str>> = r.rows.iter().map(|x| x.dataset.as_deref()).collect();
    assert_eq!(datasets, [Some("temporal-reasoning"), Some("knowledge-update"), Some("knowledge-update")]);
    let em = |ds: Option<&str>| {
        r.summary.iter().find(|s| s.profile == Profile::SquadEm && s.dataset.as_deref() == ds).map(|s| (s.correct, s.n))
    };
    // q3_abs: the numeric gold 3 against "3".
    assert_eq!((em(Some("knowledge-update")), em(None)), (Some((1, 2)), Some((1, 3))));
    let judge = r.stated.iter().find(|c| c.column == "autoeval_label.label" && c.profile == Profile::SquadEm).unwrap();
    assert_eq!((judge.kind, judge.n, judge.stated_only), (StatedKind::Verdict, 3, Some(1)));

    // Answer files that state their gold: the dataset is said unused.
    let own = InputFile::new("own.csv", b"query_id,prediction,gold\nq1,2021,2021\n".to_vec());
    let r = run(vec![own, data.clone()]);
    assert_eq!(r.warnings.count(AnswerWarningKind::GoldFileUnused), 1);
    assert_eq!(r.rows.len(), 1);
    // Gold answers alone: nothing to score, refused naming the file and what it lacks.
    let files = assign_roles::<Answers>(vec![(data, Some(FileRole::Answers))]).unwrap();
    let e = run_once::<Answers>(&files, &AnswersRequest::default(), &mut quiet()).map(|_| ()).unwrap_err().to_string();
    assert!(e.starts_with("data/longmemeval_oracle.json: no prediction column (looked for prediction,"), "{e}");
    assert!(e.contains("give the answer files with it"), "{e}");
}
