//! Routing and calibration as one capability ([`Calibration`]): `memaudit calibration` and the
//! viewer's calibration page. Every file is a table of per-item routing rows.

use serde::{Deserialize, Serialize};

use super::analyse::{CalibrationReport, analyse};
use super::read::{ColumnNames, Routed, looks_like_routing};
use super::table::{CalibrationTable, table};
use super::{AucPopulation, Route, Scale, text};
use crate::capability::{Analysis, Capability, FileRole, FileSummary, Phase, Progress, RoleFile, Validate, no_detail};
use crate::error::{Error, IngestError, Location, Result};
use crate::ingest::InputFile;
use crate::report::Table;

/// Routing and calibration diagnostics of a gated memory system.
pub struct Calibration;

/// Most bins of either kind.
pub const MAX_BINS: usize = 1_000;

/// `memaudit calibration` settings. Column names decide how files are read; the rest how they
/// are analysed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CalibrationRequest {
    pub item: Option<String>,
    pub confidence: Option<String>,
    pub correct: Option<String>,
    pub with_memory: Option<String>,
    pub applied: Option<String>,
    pub split: Option<String>,
    /// Split values Platt scaling is fitted on (scored on every other split).
    pub fit: Vec<String>,
    pub scale: Scale,
    /// Equal-width bins of the ECE and the reliability diagram.
    pub ece_bins: usize,
    /// Equal-count bins of the accuracy per confidence bin.
    pub accuracy_bins: usize,
    pub auc_population: AucPopulation,
    pub route: Route,
    /// Two-sided level of the AUC and Wilson intervals.
    pub confidence_level: f64,
    /// How rows become cells: design columns pooled, the problem set ([`crate::cells`]).
    pub cells: crate::cells::CellSettings,
}

impl Default for CalibrationRequest {
    fn default() -> Self {
        CalibrationRequest {
            item: None,
            confidence: None,
            correct: None,
            with_memory: None,
            applied: None,
            split: None,
            fit: Vec::new(),
            scale: Scale::Probability,
            ece_bins: 10,
            accuracy_bins: 10,
            auc_population: AucPopulation::All,
            route: Route::Below,
            confidence_level: 0.95,
            cells: crate::cells::CellSettings::default(),
        }
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
        if !self.fit.is_empty() && self.split.is_none() {
            return Err(Error::setting(
                "fit",
                "Platt scaling needs the split column (--split) its fit split is a value of",
            ));
        }
        Ok(())
    }
}

impl CalibrationRequest {
    fn reads_differently(&self, o: &CalibrationRequest) -> bool {
        (&self.item, &self.confidence, &self.correct, &self.with_memory, &self.applied, &self.split, &self.cells)
            != (&o.item, &o.confidence, &o.correct, &o.with_memory, &o.applied, &o.split, &o.cells)
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
    const ROLES: &'static [FileRole] = &[FileRole::Routing];

    type Request = CalibrationRequest;
    type Loaded = LoadedRouting;
    type Overview = Vec<FileSummary>;
    type Report = CalibrationReport;
    type Table = CalibrationTable;
    type Detail = ();
    type DetailView = ();

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

    fn load(files: &[RoleFile], q: &CalibrationRequest, progress: Progress<'_>) -> Result<LoadedRouting> {
        progress(Phase::Reading, "reading routing rows", 0.0);
        let names = ColumnNames {
            item: q.item.as_deref(),
            confidence: q.confidence.as_deref(),
            correct: q.correct.as_deref(),
            with_memory: q.with_memory.as_deref(),
            applied: q.applied.as_deref(),
            split: q.split.as_deref(),
        };
        let mut routed = Routed::default();
        let mut files_out = Vec::new();
        for (i, f) in files.iter().enumerate() {
            let before = routed.items.len();
            routed.add(&f.file, &names)?;
            files_out.push(FileSummary::of(f, "routing rows", routed.items.len() - before)?);
            progress(Phase::Reading, &f.file.name, (i + 1) as f64 / files.len() as f64);
        }
        routed.form_cells(&q.cells)?;
        if routed.items.is_empty() {
            return Err(Error::Empty("no routing rows with a confidence and an outcome".into()));
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

    fn detail(_: Option<&LoadedRouting>, _: &CalibrationRequest, _: &()) -> Result<()> {
        no_detail::<Self>()
    }

    fn table(report: &CalibrationReport, which: CalibrationTable) -> Result<Table> {
        Ok(table(report, which))
    }

    fn figures(report: &CalibrationReport) -> Vec<crate::attach::Figure> {
        super::figures::figures(report)
    }

    fn inputs(overview: &Vec<FileSummary>, _report: &CalibrationReport) -> Vec<crate::attach::InputInfo> {
        crate::attach::of_summaries(overview)
    }

    fn headlines(report: &CalibrationReport) -> Vec<crate::headline::Headline> {
        super::headlines::headlines(report)
    }

    fn render_text(report: &CalibrationReport) -> String {
        text::render_text(report)
    }
}
