//! Routing and calibration as one capability ([`Calibration`]): `memaudit calibration` and the
//! viewer's calibration page. Every file is a table of per-item routing rows.

use serde::{Deserialize, Serialize};

use super::analyse::{CalibrationReport, analyse};
use super::read::{self, ColumnNames, Routed, looks_like_routing};
use super::table::{CalibrationTable, table};
use super::{AucPopulation, Route, Scale, text};
use crate::capability::prelude::*;
use crate::error::{IngestError, Location};

/// Routing and calibration diagnostics of a gated memory system.
pub struct Calibration;

/// Most bins of either kind.
pub const MAX_BINS: usize = 1_000;

crate::fields! {
    /// The calibration settings. Column names decide how files are read; the rest how they are
    /// analysed.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(default)]
    pub struct CalibrationRequest {
        confidence: Option<String> = None, label "confidence column",
            help "The confidence column.", column read::CONFIDENCE;
        scale: Scale = Scale::Probability, label "confidence is",
            help "What the confidence is: a probability, a log-probability (p = exp(c)), or any score (Platt only).";
        correct: Option<String> = None, label "outcome without memory",
            help "The outcome without memory, 0/1.", column read::CORRECT;
        with_memory: Option<String> = None, label "outcome with memory",
            help "The outcome with memory, 0/1.", column read::WITH_MEMORY;
        applied: Option<String> = None, label "applied column",
            help "Whether memory was applied, 0/1.", column read::APPLIED;
        item: Option<String> = None, label "item column",
            help "The item column (else file:line).", column read::ITEM;
        split: Option<String> = None, label "split column",
            help "A split column (e.g. seed or split): Platt scaling is fitted on one value and scored on the others.";
        fit: Vec<String> = Vec::new(), label "Platt fit on",
            help "Split values Platt scaling is fitted on, comma-separated; it is scored on every other split.";
        ece_bins: usize = 10, label "ECE bins",
            help "Equal-width bins of the ECE and the reliability diagram.";
        accuracy_bins: usize = 10, label "accuracy bins",
            help "Equal-count bins of the accuracy per confidence bin.";
        auc_population: AucPopulation = AucPopulation::All, label "AUC on",
            help "The items of the help-vs-hurt AUC.";
        route: Route = Route::Below, label "route when confidence is",
            help "The sweep's routing rule: memory when the confidence is below tau, or at least tau.";
        confidence_level: f64 = 0.95, label "interval level",
            help "Two-sided level of the AUC and Wilson intervals.";
        entries: Option<String> = None, label "retrieved entries column",
            help "The memory entries a routed item retrieved (ids separated by `;`, or a JSON array): each gets the item's utility for bank governance.",
            column read::ENTRIES;
        retire_delta: f64 = 0.05, label "retirement \u{03b4}",
            help "\u{03b4} of the retirement rule \u{00b5} + radius < 0 (TAG does not report it).";
        retire_radius: super::governance::Radius = super::governance::Radius::Published, label "retirement radius",
            help "published: \u{221a}(log(2/\u{03b4})/(2n)) as TAG prints it; textbook: \u{221a}(2 log(2/\u{03b4})/n), Hoeffding for utilities in [\u{2212}1, 1].";
        governance_splits: Vec<String> = Vec::new(), label "governance evidence from",
            help "Split values whose rows give the entries their evidence (TAG: fit/dev only), comma-separated; empty: every row.";
    }
    groups {
        /// How rows become cells: design columns pooled, the problem set ([`crate::cells`]).
        cells: crate::cells::CellSettings = crate::cells::CellSettings::default();
    }
}

impl Validate for CalibrationRequest {
    fn validate(&self) -> Result<()> {
        crate::stats::bootstrap::check_confidence(self.confidence_level)?;
        self.cells.validate()?;
        for (what, n) in [("ece-bins", self.ece_bins), ("accuracy-bins", self.accuracy_bins)] {
            if n == 0 || n > MAX_BINS {
                return Err(Error::setting(what, format!("must be between 1 and {MAX_BINS} (got {n})")));
            }
        }
        if !(self.retire_delta > 0.0 && self.retire_delta < 1.0) {
            return Err(Error::setting("retire_delta", format!("must be in (0, 1) (got {})", self.retire_delta)));
        }
        if !self.governance_splits.is_empty() && self.split.is_none() {
            return Err(Error::setting(
                "governance_splits",
                format!(
                    "the governance splits are values of the split column ({}): give it",
                    crate::fields::mention("split")
                ),
            ));
        }
        if !self.fit.is_empty() && self.split.is_none() {
            return Err(Error::setting(
                "fit",
                format!(
                    "Platt scaling needs the split column ({}) its fit split is a value of",
                    crate::fields::mention("split")
                ),
            ));
        }
        Ok(())
    }
}

impl CalibrationRequest {
    fn reads_differently(&self, o: &CalibrationRequest) -> bool {
        (
            &self.item,
            &self.confidence,
            &self.correct,
            &self.with_memory,
            &self.applied,
            &self.split,
            &self.cells,
            &self.entries,
        ) != (&o.item, &o.confidence, &o.correct, &o.with_memory, &o.applied, &o.split, &o.cells, &o.entries)
    }
}

/// The rows read and the files' summaries.
#[derive(Debug, Clone, Default)]
pub struct LoadedRouting {
    pub routed: Routed,
    pub files: Vec<FileSummary>,
}

impl Capability for Calibration {
    const ANALYSIS: Analysis = Analysis::Calibration;
    const TITLE: &'static str = "Calibration";
    const ABOUT: &'static str = "Routing and calibration of a gated memory: help/hurt, AUC of the confidence (DeLong), accuracy per confidence bin, the routing-threshold sweep, ECE/Brier/log loss raw and Platt.";
    const ROLES: &'static [FileRole] = &[FileRole::Routing];
    const DEMO: &'static [Demo] = &[Demo::new("routing.csv", "static/demo/calibration/routing.csv")];
    crate::capability_types!(
        request: CalibrationRequest, loaded: LoadedRouting, overview: Vec<FileSummary>,
        report: CalibrationReport, table: CalibrationTable
    );

    fn detect(file: &InputFile) -> Result<FileRole> {
        if looks_like_routing(file) {
            Ok(FileRole::Routing)
        } else {
            Err(Error::Ingest(IngestError::new(
                Location::file(&file.name),
                "not per-item routing rows: a CSV/TSV, JSON Lines or JSON array with a confidence column \
                 (confidence, score, answer_logprob_mean, …) and an outcome column (correct, baseline_correct, …)",
            )))
        }
    }

    /// Rows with a confidence and an outcome column (a bare `score` as the confidence: generic).
    fn recognise(s: &crate::ingest::sniff::Sniff<'_>) -> Option<crate::capability::Recognised> {
        use super::read::{CONFIDENCE, CORRECT};
        use crate::capability::{Fit, Recognised};
        if !(s.has_column(CONFIDENCE) && s.has_column(CORRECT)) {
            return None;
        }
        let named = CONFIDENCE.iter().filter(|c| **c != "score" && **c != "c").copied().collect::<Vec<_>>();
        let fit = if s.has_column(&named) { Fit::Specific } else { Fit::Generic };
        Some(Recognised::new(FileRole::Routing, fit, "a confidence and an outcome column").by_columns(s))
    }

    fn load(files: &[RoleFile], q: &CalibrationRequest, progress: Progress<'_>) -> Result<LoadedRouting> {
        progress(Phase::Reading, "reading routing rows", 0.0);
        let names = ColumnNames {
            item: q.item.as_deref(),
            confidence: q.confidence.as_deref(),
            correct: q.correct.as_deref(),
            with_memory: q.with_memory.as_deref(),
            applied: q.applied.as_deref(),
            split: q.split.as_deref(),
            entries: q.entries.as_deref(),
        };
        let mut routed = Routed::default();
        let mut files_out = Vec::new();
        for (i, f) in files.iter().enumerate() {
            let before = routed.items.len();
            routed.add(&f.file, &names)?;
            files_out.push(FileSummary::of(f, "routing rows", routed.items.len() - before)?);
            progress(Phase::Reading, &f.file.name, (i + 1) as f64 / files.len() as f64);
        }
        crate::capability::refuse_files_without_records(
            routed.readings.iter().map(|r| (r.file.as_str(), r.records)),
            "routing rows",
        )?;
        routed.form_cells(&q.cells)?;
        if routed.items.is_empty() {
            let why = routed
                .missing
                .located("row", "rows")
                .unwrap_or_else(|| "the files hold no rows below their header".into());
            return Err(Error::Empty(format!("no routing rows with a confidence and an outcome: {why}")));
        }
        Ok(LoadedRouting { routed, files: files_out })
    }

    fn reload(old: &CalibrationRequest, new: &CalibrationRequest) -> bool {
        old.reads_differently(new)
    }

    fn overview(l: &LoadedRouting) -> Vec<FileSummary> {
        l.files.clone()
    }

    fn run(l: &LoadedRouting, q: &CalibrationRequest, progress: Progress<'_>) -> Result<CalibrationReport> {
        progress(Phase::Analysing, "routing and calibration", 0.0);
        let r = analyse(&l.routed, q)?;
        progress(Phase::Analysing, "done", 1.0);
        Ok(r)
    }

    crate::report_views!(table: table, headlines: super::headlines::headlines, text: text::render_text);

    fn figures(report: &CalibrationReport) -> Vec<crate::attach::Figure> {
        super::figures::figures(report)
    }
}
