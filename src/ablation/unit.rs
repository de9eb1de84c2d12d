//! Counterfactual-ablation analysis as one capability ([`Ablation`]): `memaudit ablation` and
//! the viewer's ablation page (several files: pairs concatenated, warnings merged).

use serde::{Deserialize, Serialize};

use super::analyse::{AblationReport, AblationSettings, analyse};
use super::read::{AblationColumns, AblationWarnings, OutcomeScoring, PairRow, read_ablation};
use super::table::{AblationTable, table};
use super::text;
use crate::capability::prelude::*;

/// Utilities, labels, the u histogram, positive rates and the non-circularity panel.
pub struct Ablation;

crate::fields! {
    /// The ablation settings: how texts become outcomes, the analysis, the columns.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct AblationRequest {
    }
    groups {
        /// How texts become 0/1 outcomes when a trace has predictions instead of scores.
        scoring: OutcomeScoring = OutcomeScoring::default();
        settings: AblationSettings = AblationSettings::default();
        columns: AblationColumns = AblationColumns::default();
    }
}

impl Validate for AblationRequest {
    fn validate(&self) -> Result<()> {
        self.settings.validate()?;
        if !(0.0..=1.0).contains(&self.scoring.f1_threshold) {
            return Err(Error::setting("f1_threshold", "must be in [0, 1]"));
        }
        Ok(())
    }
}

/// The ablation pairs read, kept between runs.
#[derive(Debug, Clone, Default)]
pub struct LoadedPairs {
    pub pairs: Vec<PairRow>,
    pub warnings: AblationWarnings,
    pub files: Vec<FileSummary>,
}

/// Share of a run's progress reported before the bootstraps.
const SETUP_SHARE: f64 = 0.05;

impl Capability for Ablation {
    const ANALYSIS: Analysis = Analysis::Ablation;
    const TITLE: &'static str = "Ablation";
    const ABOUT: &'static str =
        "Counterfactual ablation: utilities, labels, u histogram, positive rates, non-circularity ρ(u, s).";
    const ROLES: &'static [FileRole] = &[FileRole::Traces];
    const DEMO: &'static [Demo] = &[Demo::new("ablation.csv", "static/demo/ablation/ablation.csv")];
    crate::capability_types!(
        request: AblationRequest, loaded: LoadedPairs, overview: Vec<FileSummary>,
        report: AblationReport, table: AblationTable
    );

    /// Ablation traces: a base and an ablated score column.
    fn recognise(s: &crate::ingest::sniff::Sniff<'_>) -> Option<crate::capability::Recognised> {
        use super::read::{ABLATED_ALIASES, BASE_ALIASES};
        use crate::capability::{Fit, Recognised};
        (s.has_column(&BASE_ALIASES) && s.has_column(&ABLATED_ALIASES)).then(|| {
            Recognised::new(FileRole::Traces, Fit::Specific, "a base and an ablated score column").by_columns(s)
        })
    }

    fn load(files: &[RoleFile], request: &AblationRequest, progress: Progress<'_>) -> Result<LoadedPairs> {
        if files.is_empty() {
            return Err(Error::Empty("no ablation traces: give traces (CSV or JSONL)".into()));
        }
        progress(Phase::Reading, "reading ablation traces", 0.0);
        let mut out = LoadedPairs::default();
        let mut counts = Vec::new();
        for f in files {
            let (pairs, warnings) = read_ablation(&f.file, &request.columns, &request.scoring)?;
            out.files.push(FileSummary::of(f, "ablation traces", pairs.len())?);
            counts.push((f.file.name.as_str(), pairs.len()));
            out.pairs.extend(pairs);
            out.warnings.extend(&warnings);
        }
        crate::capability::refuse_files_without_records(counts, "ablation pairs")?;
        Ok(out)
    }

    /// Traces with texts are scored while reading: another profile reads them again.
    fn reload(old: &AblationRequest, new: &AblationRequest) -> bool {
        old.columns != new.columns || old.scoring != new.scoring
    }

    fn overview(l: &LoadedPairs) -> Vec<FileSummary> {
        l.files.clone()
    }

    fn run(l: &LoadedPairs, request: &AblationRequest, progress: Progress<'_>) -> Result<AblationReport> {
        progress(Phase::Analysing, "utilities, rates and bootstrap intervals of ρ", 0.0);
        let mut report = analyse(&l.pairs, &request.settings, l.warnings.clone(), &mut |stage, f| {
            progress(Phase::Analysing, stage, SETUP_SHARE + (1.0 - SETUP_SHARE) * f.clamp(0.0, 1.0))
        })?;
        report.scoring = Some(request.scoring.clone());
        Ok(report)
    }

    crate::report_views!(table: table, headlines: super::headlines::headlines, text: text::render_text);

    fn figures(report: &AblationReport) -> Vec<crate::attach::Figure> {
        super::figures::figures(report)
    }
}
