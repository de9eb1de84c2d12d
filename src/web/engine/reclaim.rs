//! The reclaim page's worker logic: read trial files (and probe keys, recognised by their
//! content), keep the trials, and analyse them exactly as `memaudit reclaim --format json`
//! does.

use crate::error::Error;
use crate::ingest::InputFile;
use crate::probe::warnings::ProbeWarnings;
use crate::reclaim::{self, Trial};

use super::ProgressFn;
use super::probe::{Split, split_keys};
use crate::web::protocol::{FileNote, Phase, ReclaimBatch, ReclaimRun};

/// Holds the trials of the last successful load.
#[derive(Debug, Default)]
pub struct ReclaimEngine {
    trials: Option<Vec<Trial>>,
    files: Vec<FileNote>,
    notices: ProbeWarnings,
}

fn check(run: &ReclaimRun) -> Result<(), Error> {
    run.settings.bootstrap.check().map_err(|m| Error::setting("bootstrap", m))?;
    if run.settings.bootstrap.resamples > 1_000_000 {
        return Err(Error::setting("bootstrap", "at most 1,000,000 resamples"));
    }
    for (a, b) in &run.settings.contrasts {
        if a.is_empty() || b.is_empty() {
            return Err(Error::setting("contrast", "use POLICY_A:POLICY_B"));
        }
    }
    Ok(())
}

impl ReclaimEngine {
    pub fn new() -> Self {
        ReclaimEngine::default()
    }

    pub fn has_trials(&self) -> bool {
        self.trials.is_some()
    }

    /// Reads trial files (probe keys recognised by content and applied to every file), keeps
    /// the trials, and analyses them.
    pub fn load(
        &mut self,
        files: Vec<InputFile>,
        run: &ReclaimRun,
        progress: ProgressFn<'_>,
    ) -> Result<ReclaimBatch, Error> {
        check(run)?;
        progress(Phase::Reading, "reading trials", 0.0);
        let Split { rest: files, keys, key_files: mut notes } = split_keys(files)?;
        if files.is_empty() {
            return Err(Error::Empty("no trial file: drop reclaim-eval result rows (JSONL)".into()));
        }
        let mut trials = Vec::new();
        let mut notices = ProbeWarnings::default();
        for f in &files {
            let read = reclaim::read_trials(f, keys.as_ref())?;
            notes.push(FileNote { name: f.name.clone(), kind: "trials".into(), records: read.trials.len() });
            trials.extend(read.trials);
            notices.extend(&read.notices);
        }
        let batch = analyse(&trials, &notices, &notes, run, progress)?;
        self.trials = Some(trials);
        self.files = notes;
        self.notices = notices;
        Ok(batch)
    }

    /// Analyses the kept trials under other settings.
    pub fn run(&self, run: &ReclaimRun, progress: ProgressFn<'_>) -> Result<ReclaimBatch, Error> {
        check(run)?;
        let trials = self.trials.as_ref().ok_or_else(|| Error::Empty("no trials loaded yet".into()))?;
        analyse(trials, &self.notices, &self.files, run, progress)
    }
}

fn analyse(
    trials: &[Trial],
    notices: &ProbeWarnings,
    files: &[FileNote],
    run: &ReclaimRun,
    progress: ProgressFn<'_>,
) -> Result<ReclaimBatch, Error> {
    progress(Phase::Analysing, "cells and bootstrap intervals", 0.3);
    let mut arms: Vec<String> = Vec::new();
    for t in trials {
        if let Some(a) = &t.arm
            && !arms.contains(a)
        {
            arms.push(a.clone());
        }
    }
    let chosen: Vec<Trial> = match &run.arm {
        Some(arm) => reclaim::filter_arm(trials.to_vec(), arm),
        None => trials.to_vec(),
    };
    if chosen.is_empty() {
        return Err(Error::Empty("no trials to analyse (check the arm filter)".into()));
    }
    let mut report = reclaim::analyze(&chosen, &run.settings);
    // As the CLI: the reading notices first, then the analysis' own warnings.
    let mut warnings = notices.clone();
    warnings.extend(&report.warnings);
    report.warnings = warnings;
    progress(Phase::Analysing, "done", 1.0);
    Ok(ReclaimBatch {
        files: files.to_vec(),
        report,
        arms,
        trials_read: trials.len(),
        trials_used: chosen.len(),
        total_ms: 0.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reclaim::{Engine, ReclaimSettings};

    const TRIALS: &str = "\
{\"pid\": \"p1\", \"policy\": \"lossy\", \"integrity\": 1.0, \"arm\": \"directed\", \"correct\": true, \"seed\": 0}\n\
{\"pid\": \"p2\", \"policy\": \"lossy\", \"integrity\": 1.0, \"arm\": \"directed\", \"correct\": false, \"seed\": 0}\n\
{\"pid\": \"p1\", \"policy\": \"lossy\", \"integrity\": 0.2, \"arm\": \"generic\", \"correct\": false, \"seed\": 0}\n\
{\"pid\": \"p2\", \"policy\": \"source_first\", \"integrity\": 0.2, \"arm\": \"directed\", \"correct\": true, \"seed\": 0}\n";

    #[test]
    fn load_run_and_filter() {
        let mut e = ReclaimEngine::new();
        let run = ReclaimRun { settings: ReclaimSettings::default(), arm: None };
        let b = e.load(vec![InputFile::new("t.jsonl", TRIALS.as_bytes())], &run, &mut |_, _, _| {}).unwrap();
        assert_eq!(b.trials_read, 4);
        assert_eq!(b.arms, ["directed", "generic"]);
        assert_eq!(b.report.cells.len(), 3);
        let direct = reclaim::analyze(
            &reclaim::read_trials(&InputFile::new("t.jsonl", TRIALS.as_bytes()), None).unwrap().trials,
            &ReclaimSettings::default(),
        );
        assert_eq!(b.report.cells, direct.cells);
        let mut chacha = run.clone();
        chacha.settings.bootstrap.engine = Engine::ChaCha8;
        chacha.arm = Some("directed".into());
        let b = e.run(&chacha, &mut |_, _, _| {}).unwrap();
        assert_eq!(b.trials_used, 3);
        assert!(b.report.interval_method.to_lowercase().contains("chacha"), "{}", b.report.interval_method);
        let mut hedge = run.clone();
        hedge.settings.abstain = crate::reclaim::AbstainRule::Hedge;
        let b = e.run(&hedge, &mut |_, _, _| {}).unwrap();
        assert_eq!(b.report.settings.abstain, crate::reclaim::AbstainRule::Hedge);
        assert!(b.report.cells.iter().all(|c| c.abstain_rule == "hedge"));
        assert_eq!(
            b.report.warnings.count(crate::probe::warnings::ProbeWarningKind::HedgeNoReply),
            4,
            "no reply text: the strict fallback is counted"
        );
        let mut bad = run.clone();
        bad.settings.bootstrap.resamples = 0;
        assert!(matches!(e.run(&bad, &mut |_, _, _| {}), Err(Error::Setting { .. })));
        let broken = InputFile::new("b.jsonl", b"{\"pid\": \n".to_vec());
        assert!(matches!(e.load(vec![broken], &run, &mut |_, _, _| {}), Err(Error::Ingest(_))));
        assert!(e.has_trials(), "a bad file keeps the trials");
    }
}
