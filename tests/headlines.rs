//! The headlines say what the report's own numbers say: each test runs a capability on a demo
//! or a small file, then checks a headline against the rows it summarises (counts, intervals,
//! which level), so a headline that overstates or misreads its evidence fails.

use std::path::PathBuf;

use memaudit::capability::{Capability, FileRole, assign_roles, headlines, quiet, run_once};
use memaudit::headline::{Headline, Level};
use memaudit::ingest::InputFile;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn file(path: &str) -> (InputFile, Option<FileRole>) {
    let p = root().join(path);
    let name = p.file_name().unwrap().to_string_lossy().into_owned();
    (InputFile::new(name, std::fs::read(&p).unwrap()), None)
}

fn run<C: Capability>(files: Vec<(InputFile, Option<FileRole>)>, request: &C::Request) -> (C::Report, Vec<Headline>) {
    let files = assign_roles::<C>(files).unwrap();
    let (_, report) = run_once::<C>(&files, request, &mut quiet()).unwrap();
    let hs = headlines::<C>(&report);
    (report, hs)
}

fn levels_ranked(hs: &[Headline]) {
    assert!(hs.windows(2).all(|w| w[0].level <= w[1].level), "most severe first: {hs:?}");
}

#[test]
fn probe_silent_notes_are_an_alert_with_their_wilson_interval() {
    let req = memaudit::probe::ProbeRequest::default();
    let (r, hs) = run::<memaudit::probe::Probe>(vec![file("static/demo/probe/notes.jsonl")], &req);
    levels_ranked(&hs);
    let s = &r.summary;
    assert!(s.silent_n > 0);
    let h = &hs[0];
    assert_eq!(h.level, Level::Alert);
    assert!(h.text.starts_with(&format!("{} of {} notes", s.silent_n, s.n)), "{}", h.text);
    let interval = format!("[{:.3}, {:.3}]", s.silent_low.unwrap(), s.silent_high.unwrap());
    assert!(h.evidence.contains(&interval) && h.evidence.contains("Wilson"), "{}", h.evidence);
}

#[test]
fn ablation_alerts_exactly_the_runs_whose_rho_breaches_the_gate() {
    let mut req = memaudit::ablation::AblationRequest::default();
    req.settings.bootstrap = 500;
    let (r, hs) = run::<memaudit::ablation::Ablation>(vec![file("static/demo/ablation/ablation.csv")], &req);
    levels_ranked(&hs);
    for run in &r.runs {
        let name = &run.overall.run;
        let alert = hs.iter().any(|h| h.level == Level::Alert && h.text.starts_with(&format!("Run {name}:")));
        let breach = run.overall.noncircularity.passes == Some(false) || !run.breaching_subsets.is_empty();
        assert_eq!(alert, breach, "run {name}");
    }
    assert!(r.runs.iter().any(|x| x.overall.noncircularity.passes == Some(false)), "the demo has a breach");
}

#[test]
fn reclaim_counts_worse_than_empty_cells_from_their_intervals() {
    let req = memaudit::reclaim::ReclaimRequest::default();
    let (r, hs) = run::<memaudit::reclaim::Reclaim>(vec![file("static/demo/reclaim/trials.jsonl")], &req);
    let worse = r.worse_than_empty.iter().filter(|w| w.difference.low.is_some_and(|l| l > 0.0)).count();
    let reverse = r.worse_than_empty.iter().filter(|w| w.reverses).count();
    let h = hs.iter().find(|h| h.table.as_deref() == Some("worse_than_empty")).unwrap();
    assert!(
        h.text.contains(&format!("in {worse} of {} cells", r.worse_than_empty.len()))
            && h.text.ends_with(&format!("{reverse} reverse")),
        "{}",
        h.text
    );
    assert_eq!(h.level, if worse > 0 { Level::Finding } else { Level::Context });
}

#[test]
fn answers_alert_when_the_best_arm_changes_with_the_rule_and_not_on_ties() {
    let rows = [
        ("q1", "a", "Paris", "The answer is Paris."),
        ("q1", "b", "Paris", "Lyon"),
        ("q2", "a", "blue", "red"),
        ("q2", "b", "blue", "blue"),
        ("q3", "a", "cat", "It is a cat"),
        ("q3", "b", "cat", "dog"),
    ];
    let text: String = rows
        .iter()
        .map(|(q, arm, gold, out)| {
            format!("{{\"query_id\":\"{q}\",\"arm\":\"{arm}\",\"gold\":[\"{gold}\"],\"output\":\"{out}\"}}\n")
        })
        .collect();
    let req = memaudit::answers::AnswersRequest::default();
    let (_, hs) = run::<memaudit::answers::Answers>(vec![(InputFile::new("answers.jsonl", text), None)], &req);
    // paper_sem: a 2 of 3, b 1 of 3; squad_em: a 0, b 1.
    let h = &hs[0];
    assert_eq!((h.level, h.text.as_str()), (Level::Alert, "The most accurate arm depends on the answer-scoring rule"));
    assert!(h.evidence.contains("paper_sem: a 0.667") && h.evidence.contains("squad_em: b 0.333"), "{}", h.evidence);
    // Equal arms are a tie, never a flip.
    let tie: String = ["a", "b"]
        .iter()
        .map(|arm| format!("{{\"query_id\":\"q1\",\"arm\":\"{arm}\",\"gold\":[\"Paris\"],\"output\":\"Paris\"}}\n"))
        .collect();
    let (_, hs) = run::<memaudit::answers::Answers>(vec![(InputFile::new("answers.jsonl", tie), None)], &req);
    assert!(hs.iter().all(|h| h.level != Level::Alert), "{hs:?}");
}

#[test]
fn trec_eval_names_the_queries_a_run_leaves_out() {
    let te = "tests/reference/trec_eval";
    let files = vec![
        (file(&format!("{te}/test.qrels")).0, Some(FileRole::Qrels)),
        (file(&format!("{te}/run_a.run")).0, Some(FileRole::Runs)),
    ];
    let req = memaudit::ireval::TrecEvalRequest::default();
    let (r, hs) = run::<memaudit::ireval::TrecEval>(files, &req);
    let e = &r.runs[0].evaluation;
    assert!(!e.missing_queries.is_empty());
    let h = hs.iter().find(|h| h.text.contains("answers no query")).unwrap();
    assert!(h.text.contains(&format!("for {} of the judged queries", e.missing_queries.len())), "{}", h.text);
    assert!(h.evidence.contains(&e.missing_queries[0]));
    let none = hs.iter().find(|h| h.text.contains("have no relevant document")).unwrap();
    assert!(none.text.starts_with(&format!("{} of {}", r.qrels.queries_without_relevant, r.qrels.queries)));
}
