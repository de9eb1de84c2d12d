//! Reclaim analysis as one capability ([`Reclaim`]): `memaudit reclaim` and the viewer's
//! reclaim page.

use serde::{Deserialize, Serialize};

use super::analysis::{ReclaimReport, ReclaimSettings, analyze};
use super::table::{ReclaimTable, reclaim_table, render_text};
use super::trials::{Trial, read_trials};
use crate::capability::prelude::*;
use crate::distinct::first_seen;
use crate::probe::unit::{looks_like_probe_keys, read_keys};
use crate::probe::warnings::ProbeWarnings;

/// Reclaim rates per cell with bootstrap intervals, strict re-scoring, worse-than-empty.
pub struct Reclaim;

crate::fields! {
    /// The reclaim analysis' settings.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct ReclaimRequest {
        arm: Option<String> = None, label "arm",
            help "Keep only trials of this arm (reclaim-eval's tables use directed).";
        /// A reading option.
        #[serde(default)]
        item: Option<String> = None, label "item column",
            help "The column identifying the problem in rows without a pid (reclaim-eval's size/noise sweeps and cascade files: e.g. store).";
    }
    groups {
        settings: ReclaimSettings = ReclaimSettings::default();
        /// How trials become cells: design columns pooled or keyed, the problem set, common
        /// problems only ([`crate::cells`]).
        #[serde(default)]
        cells: crate::cells::CellSettings = crate::cells::CellSettings::default();
    }
}

impl Validate for ReclaimRequest {
    fn validate(&self) -> Result<()> {
        self.settings.bootstrap.validate()?;
        self.cells.validate()?;
        for (a, b) in &self.settings.contrasts {
            if a.is_empty() || b.is_empty() {
                return Err(Error::setting("contrast", format!("`{a}:{b}`: use POLICY_A:POLICY_B")));
            }
        }
        Ok(())
    }
}

/// Refuses a contrast, or a stated worse-than-empty policy, that names a policy no trial has
/// (with the policies there are).
fn check_policies(trials: &[Trial], s: &super::ReclaimSettings) -> Result<()> {
    let policies = first_seen(trials.iter().map(|t| t.policy.as_str()));
    let known = |p: &str| policies.contains(&p);
    let list = || policies.join(", ");
    for (a, b) in &s.contrasts {
        if let Some(p) = [a, b].into_iter().find(|p| !known(p)) {
            return Err(Error::setting(
                "contrast",
                format!("`{a}:{b}` names the policy `{p}`, which no trial has (the policies: {})", list()),
            ));
        }
    }
    let defaults = super::ReclaimSettings::default();
    for (setting, p, default) in
        [("lossy", &s.lossy_policy, &defaults.lossy_policy), ("blank", &s.blank_policy, &defaults.blank_policy)]
    {
        if p != default && !known(p) {
            return Err(Error::setting(setting, format!("no trial has the policy `{p}` (the policies: {})", list())));
        }
    }
    Ok(())
}

/// The trials read, kept between runs.
#[derive(Debug, Clone, Default)]
pub struct LoadedTrials {
    pub trials: Vec<Trial>,
    pub notices: ProbeWarnings,
    pub files: Vec<FileSummary>,
}

/// What the reclaim page needs of the loaded trials.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReclaimOverview {
    pub files: Vec<FileSummary>,
    /// Distinct arms among the trials, first seen first (for the arm filter).
    pub arms: Vec<String>,
    /// Trials read (before the arm filter).
    pub trials_read: usize,
}

crate::files_read!(ReclaimOverview);

impl Capability for Reclaim {
    const ANALYSIS: Analysis = Analysis::Reclaim;
    const TITLE: &'static str = "Reclaim";
    const ABOUT: &'static str = "Reclaim rates per cell with bootstrap intervals, strict re-scoring, worse-than-empty.";
    const ROLES: &'static [FileRole] = &[FileRole::Trials, FileRole::Keys];
    const DEMO: &'static [Demo] = &[Demo::new("trials.jsonl", "static/demo/reclaim/trials.jsonl")];

    crate::capability_types!(
        request: ReclaimRequest, loaded: LoadedTrials, overview: ReclaimOverview,
        report: ReclaimReport, table: ReclaimTable
    );

    fn detect(file: &InputFile) -> Result<FileRole> {
        Ok(if looks_like_probe_keys(file) { FileRole::Keys } else { FileRole::Trials })
    }

    /// reclaim-eval result rows; probe keys complete them.
    fn recognise(s: &crate::ingest::sniff::Sniff<'_>) -> Option<crate::capability::Recognised> {
        use crate::capability::{Fit, Recognised};
        use crate::outcomes::OutcomeFormat;
        let text = s.text.as_deref()?;
        if s.doc.as_ref().is_some_and(crate::probe::unit::is_probe_keys) {
            return Some(Recognised::new(FileRole::Keys, Fit::Companion, "probe keys (pid \u{2192} source, truth)"));
        }
        let format = crate::outcomes::detect_outcome_format(&s.file.name, text, s.file.limits()).ok()?;
        if format != OutcomeFormat::ReclaimEval {
            return None;
        }
        // Trials of one layout are analysed together; without a `model` column the model is
        // named only by the file, and files of two models are never pooled.
        let r = Recognised::new(FileRole::Trials, Fit::Specific, format.describe()).by_columns(s);
        Some(if s.has_column(&["model"]) { r } else { r.by_layout(&s.file.name) })
    }

    /// Probe keys are applied to every trials file.
    fn load(files: &[RoleFile], request: &ReclaimRequest, progress: Progress<'_>) -> Result<LoadedTrials> {
        progress(Phase::Reading, "reading trials", 0.0);
        let (keys, mut summaries) = read_keys(files)?;
        let mut trials = Vec::new();
        let mut notices = ProbeWarnings::default();
        let mut counts = Vec::new();
        for f in files.iter().filter(|f| f.role == FileRole::Trials) {
            let read = read_trials(&f.file, keys.as_ref(), request.item.as_deref())?;
            summaries.push(FileSummary::of(f, "trials", read.trials.len())?);
            counts.push((f.file.name.as_str(), read.trials.len()));
            trials.extend(read.trials);
            notices.extend(&read.notices);
        }
        crate::capability::refuse_files_without_records(counts.iter().copied(), "trials")?;
        if counts.is_empty() {
            return Err(Error::Empty("no trials file: give one (reclaim-eval result rows, JSONL)".into()));
        }
        progress(Phase::Reading, "trials read", 1.0);
        Ok(LoadedTrials { trials, notices, files: summaries })
    }

    fn reload(old: &ReclaimRequest, new: &ReclaimRequest) -> bool {
        old.item != new.item
    }

    fn overview(l: &LoadedTrials) -> ReclaimOverview {
        ReclaimOverview {
            files: l.files.clone(),
            arms: first_seen(l.trials.iter().filter_map(|t| t.arm.clone())),
            trials_read: l.trials.len(),
        }
    }

    fn run(l: &LoadedTrials, request: &ReclaimRequest, progress: Progress<'_>) -> Result<ReclaimReport> {
        progress(Phase::Analysing, "cells and bootstrap intervals", 0.0);
        if let Some(arm) = &request.arm {
            let arms = first_seen(l.trials.iter().filter_map(|t| t.arm.clone()));
            if arms.is_empty() {
                return Err(Error::setting(
                    "arm",
                    format!("there is no arm column in these trials (`arm` or `correction`): `{arm}` cannot be kept"),
                ));
            }
            if !arms.contains(arm) {
                return Err(Error::setting("arm", format!("no trial has arm `{arm}` (the arms: {})", arms.join(", "))));
            }
        }
        let chosen: Vec<Trial> = match &request.arm {
            Some(arm) => l.trials.iter().filter(|t| t.arm.as_deref() == Some(arm.as_str())).cloned().collect(),
            None => l.trials.clone(),
        };
        if chosen.is_empty() {
            return Err(Error::Empty("no trials to analyse: the trials files hold no trial".into()));
        }
        check_policies(&chosen, &request.settings)?;
        let formed = super::cells::form(chosen, &request.cells, request.settings.pool_design, request.item.as_deref())?;
        if formed.trials.is_empty() {
            return Err(Error::Empty(format!(
                "no trials left to analyse: {}",
                formed
                    .excluded
                    .excluded
                    .iter()
                    .map(|e| format!("{} left out ({})", e.rows, e.reason))
                    .collect::<Vec<_>>()
                    .join("; ")
            )));
        }
        let chosen = formed.trials;
        let mut report = analyze(&chosen, &request.settings);
        let populations = std::mem::take(&mut report.populations);
        report.populations = crate::cells::CellReport {
            what: populations.what,
            populations: populations.populations,
            mismatches: populations.mismatches,
            ..crate::cells::CellReport::new(
                &request.cells,
                formed.design,
                crate::cells::Populations::default(),
                formed.excluded,
            )
        };
        // The reading notices first, then the analysis' own warnings.
        let mut warnings = l.notices.clone();
        warnings.extend(&report.warnings);
        report.warnings = warnings;
        report.trials = chosen.len();
        progress(Phase::Analysing, "done", 1.0);
        Ok(report)
    }

    crate::report_views!(table: reclaim_table, headlines: super::headlines::headlines, text: render_text);

    fn figures(report: &ReclaimReport) -> Vec<crate::attach::Figure> {
        super::figures::figures(report)
    }
}
