//! The answers page's analysis: `memaudit answers` on the page's files (several files: rows
//! concatenated, warnings merged).

use crate::answers::{AnswerSettings, AnswerWarnings, diff, read_answers, rescore_answers};
use crate::error::Error;
use crate::ingest::InputFile;

use super::ProgressFn;
use super::tools::nothing;
use crate::web::protocol::{AnswersBatch, AnswersRun, FileNote, Phase};

/// Reads the answer rows and scores them under the run's profiles (and the diff's two).
pub fn analyse(files: &[InputFile], run: &AnswersRun, progress: ProgressFn<'_>) -> Result<AnswersBatch, Error> {
    if files.is_empty() {
        return Err(nothing("answer files"));
    }
    let mut profiles = run.settings.profiles.clone();
    for p in run.diff.iter().flat_map(|(a, b)| [*a, *b]) {
        if !profiles.contains(&p) {
            profiles.push(p);
        }
    }
    let settings = AnswerSettings { profiles, f1_threshold: run.settings.f1_threshold };
    settings.validate()?;
    let mut rows = Vec::new();
    let mut warnings = AnswerWarnings::default();
    let mut notes = Vec::new();
    for f in files {
        let (r, w) = read_answers(f, &run.columns)?;
        notes.push(FileNote { name: f.name.clone(), kind: "answers".into(), records: r.len() });
        rows.extend(r);
        warnings.extend(&w);
    }
    progress(Phase::Analysing, "scoring under every profile", 0.4);
    let report = rescore_answers(&rows, &settings, warnings)?;
    let diff = run.diff.map(|(a, b)| diff(&report, &rows, a, b)).transpose()?;
    progress(Phase::Analysing, "done", 1.0);
    Ok(AnswersBatch { files: notes, report, diff, total_ms: 0.0 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answers::{AnswerColumns, Profile};

    const ROWS: &str = "{\"query_id\":\"q1\",\"dataset\":\"ruler_qa1\",\"gold\":[\"The Louvre\"],\"output\":\"louvre museum\"}\n\
{\"query_id\":\"q2\",\"dataset\":\"ruler_qa1\",\"gold\":[\"Paris\"],\"output\":\"Thinking...\\nAnswer: Paris\"}\n\
{\"query_id\":\"q3\",\"dataset\":\"icl_banking77\",\"gold\":[\"card_arrival\"],\"output\":\"card_arrival\\nAnswer: refund\"}\n";

    #[test]
    fn equals_the_core_and_adds_the_diff_profiles() {
        let f = vec![InputFile::new("a.jsonl", ROWS.as_bytes())];
        let run = AnswersRun {
            settings: AnswerSettings { profiles: vec![Profile::SquadF1], f1_threshold: 0.5 },
            diff: Some((Profile::PaperSem, Profile::MabSem)),
            columns: AnswerColumns::default(),
        };
        let b = analyse(&f, &run, &mut |_, _, _| {}).unwrap();
        assert_eq!(b.report.settings.profiles, [Profile::SquadF1, Profile::PaperSem, Profile::MabSem]);
        let ids: Vec<&str> = b.diff.as_ref().unwrap().iter().map(|d| d.query_id.as_str()).collect();
        assert_eq!(ids, ["q1", "q3"]);
        let (rows, w) = read_answers(&f[0], &AnswerColumns::default()).unwrap();
        let direct = rescore_answers(&rows, &b.report.settings, w).unwrap();
        assert_eq!(b.report, direct);
        assert!(matches!(analyse(&[], &run, &mut |_, _, _| {}), Err(Error::Empty(_))));
        let bad = AnswersRun { settings: AnswerSettings { profiles: vec![], f1_threshold: 0.5 }, diff: None, ..run };
        assert!(matches!(analyse(&f, &bad, &mut |_, _, _| {}), Err(Error::Setting { .. })));
        let broken = vec![InputFile::new("b.csv", "query_id,gold,prediction,category\nq1,a,b,one\n".as_bytes())];
        match analyse(&broken, &AnswersRun { diff: None, ..bad_run() }, &mut |_, _, _| {}) {
            Err(Error::Ingest(e)) => {
                assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("category")))
            }
            other => panic!("{other:?}"),
        }
    }

    fn bad_run() -> AnswersRun {
        AnswersRun { settings: AnswerSettings::default(), diff: None, columns: AnswerColumns::default() }
    }
}
