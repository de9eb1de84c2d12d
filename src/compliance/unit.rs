//! Decision compliance as one capability ([`Compliance`]): `memaudit compliance` and the viewer's
//! compliance page. Every file is a table of per-task rows of arms.

use serde::{Deserialize, Serialize};

use super::analyse::{ComplianceReport, analyse};
use super::read::{self, ColumnNames, Tasks, looks_like_compliance};
use super::table::{ComplianceTable, table};
use super::text;
use crate::capability::prelude::*;
use crate::error::{IngestError, Location};
use crate::stats::bootstrap::Bootstrap;

/// Decision compliance measures of memory arms.
pub struct Compliance;

/// Most resamples of a compliance report: every statistic of a group is kept per resample.
pub const MAX_COMPLIANCE_RESAMPLES: usize = 20_000;

crate::fields! {
    /// The compliance settings. Column names, the filter and the groups decide how files are
    /// read; the rest how they are analysed.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(default)]
    pub struct ComplianceRequest {
        arm: Option<String> = None, label "arm column", help "The arm column.", column read::ARM;
        compliance: Option<String> = None, label "compliance column",
            help "The compliance column, 0/1 or a rate in [0, 1].", column read::COMPLIANCE;
        recall: Option<String> = None, label "recall column",
            help "The retrieval recall column, in [0, 1].", column read::RECALL;
        tokens: Option<String> = None, label "tokens column", help "The tokens column.", column read::TOKENS;
        depth: Option<String> = None, label "depth column", help "The depth column.", column read::DEPTH;
        item: Option<String> = None, label "task id column",
            help "The task id column; without one, rows are told apart by position only.", column read::ITEM;
        group: Vec<String> = Vec::new(), label "group by",
            help "Columns whose values are analysed apart, comma-separated (e.g. dataset,model).";
        focus: Option<String> = None, label "focus arm",
            help "The arm compared with the others (margins, crossover, power).";
        against: Vec<String> = Vec::new(), label "against",
            help "The arms the focus is compared with, comma-separated (default: every other arm).";
        claimed_effect: Option<f64> = None, label "claimed effect",
            help "The difference in compliance the comparisons are claimed to detect (flags those too small).";
        power: f64 = 0.8, label "target power", help "Target power of the power table.";
        filter: std::collections::BTreeMap<String, Vec<String>> = std::collections::BTreeMap::new(), via crate::fields::Filter,
            label "keep only",
            help "Keep only rows whose column has one of the values: COLUMN=v1,v2 (e.g. dataset=dcbench,swebench); several columns given again or separated by ;.";
    }
    groups {
        /// Bootstrap resamples (0: delta-method and Wilson intervals only; at most 20,000), seed
        /// and the level of every interval (the power table's alpha is 1 − it).
        bootstrap: Bootstrap = Bootstrap { resamples: 10_000, seed: 1337, confidence: 0.95 };
        /// How rows become cells: design columns pooled or split by ([`crate::cells`]).
        cells: crate::cells::CellSettings = crate::cells::CellSettings::default();
        /// The theory's parameters s₀, ρ, q: its curves beside the depth cells and margins
        /// ([`super::theory`]).
        theory: super::theory::TheorySettings = super::theory::TheorySettings::default();
    }
}

impl Validate for ComplianceRequest {
    fn validate(&self) -> Result<()> {
        self.bootstrap.validate(0)?;
        self.cells.validate()?;
        self.theory.validate()?;
        if self.bootstrap.resamples > MAX_COMPLIANCE_RESAMPLES {
            return Err(Error::setting(
                "bootstrap",
                format!(
                    "must be at most {MAX_COMPLIANCE_RESAMPLES} resamples for compliance (got {})",
                    self.bootstrap.resamples
                ),
            ));
        }
        if !(self.power > 0.0 && self.power < 1.0) {
            return Err(Error::setting("power", format!("must be strictly between 0 and 1 (got {})", self.power)));
        }
        if let Some(e) = self.claimed_effect
            && !(e > 0.0 && e <= 1.0)
        {
            return Err(Error::setting("claimed-effect", format!("must be in (0, 1] (got {e})")));
        }
        if !self.against.is_empty() && self.focus.is_none() {
            return Err(Error::setting(
                "against",
                format!("needs {}, the arm compared with them", crate::fields::mention("focus")),
            ));
        }
        if let Some(f) = &self.focus
            && self.against.contains(f)
        {
            return Err(Error::setting("against", format!("lists the focus arm `{f}` itself")));
        }
        for (c, v) in &self.filter {
            if v.is_empty() {
                return Err(Error::setting("filter", format!("`{c}` has no values (expected COLUMN=v1,v2)")));
            }
        }
        Ok(())
    }
}

impl ComplianceRequest {
    fn reads_differently(&self, o: &ComplianceRequest) -> bool {
        (
            &self.arm,
            &self.compliance,
            &self.recall,
            &self.tokens,
            &self.depth,
            &self.item,
            &self.group,
            &self.filter,
            &self.cells,
        ) != (&o.arm, &o.compliance, &o.recall, &o.tokens, &o.depth, &o.item, &o.group, &o.filter, &o.cells)
    }
}

/// The rows read and the files' summaries.
#[derive(Debug, Clone, Default)]
pub struct LoadedTasks {
    pub tasks: Tasks,
    pub files: Vec<FileSummary>,
}

impl Capability for Compliance {
    const ANALYSIS: Analysis = Analysis::Compliance;
    const TITLE: &'static str = "Compliance";
    const ABOUT: &'static str = "Decision compliance of memory arms (BriefBench): use factor kappa = compliance/recall and return on tokens with delta-method and bootstrap intervals, depth slopes, crossover, power.";
    const ROLES: &'static [FileRole] = &[FileRole::ComplianceRows];
    const DEMO: &'static [Demo] = &[Demo::new("compliance.csv", "static/demo/compliance/compliance.csv")];
    crate::capability_types!(
        request: ComplianceRequest, loaded: LoadedTasks, overview: Vec<FileSummary>,
        report: ComplianceReport, table: ComplianceTable
    );

    fn detect(file: &InputFile) -> Result<FileRole> {
        if looks_like_compliance(file) {
            Ok(FileRole::ComplianceRows)
        } else {
            Err(Error::Ingest(IngestError::new(
                Location::file(&file.name),
                "not per-task compliance rows: a CSV/TSV, JSON Lines or JSON array with an arm column \
                 (arm, system, method, condition) and a compliance column (compliance_rate, compliance, comply, …)",
            )))
        }
    }

    /// Rows with an arm and a compliance column.
    fn recognise(s: &crate::ingest::sniff::Sniff<'_>) -> Option<crate::capability::Recognised> {
        use crate::capability::{Fit, Recognised};
        (s.has_column(super::read::ARM) && s.has_column(super::read::COMPLIANCE)).then(|| {
            Recognised::new(FileRole::ComplianceRows, Fit::Specific, "an arm and a compliance column").by_columns(s)
        })
    }

    fn load(files: &[RoleFile], q: &ComplianceRequest, progress: Progress<'_>) -> Result<LoadedTasks> {
        progress(Phase::Reading, "reading compliance rows", 0.0);
        let names = ColumnNames {
            arm: q.arm.as_deref(),
            compliance: q.compliance.as_deref(),
            recall: q.recall.as_deref(),
            tokens: q.tokens.as_deref(),
            depth: q.depth.as_deref(),
            item: q.item.as_deref(),
            group: &q.group,
            filter: &q.filter,
        };
        let mut tasks = Tasks::default();
        let mut files_out = Vec::new();
        for (i, f) in files.iter().enumerate() {
            let before = tasks.rows.len();
            tasks.add(&f.file, &names)?;
            files_out.push(FileSummary::of(f, "compliance rows", tasks.rows.len() - before)?);
            progress(Phase::Reading, &f.file.name, (i + 1) as f64 / files.len() as f64);
        }
        crate::capability::refuse_files_without_records(
            tasks.readings.iter().map(|r| (r.file.as_str(), r.records)),
            "compliance rows",
        )?;
        // A filter value no row holds is a typo, never a silently smaller selection.
        for (c, vals) in &q.filter {
            let held = tasks.filter_values.get(c).cloned().unwrap_or_default();
            if let Some(v) = vals.iter().find(|v| !held.contains(*v)) {
                let kept = if tasks.rows.is_empty() {
                    format!("{} kept none of {} rows: ", crate::fields::mention("filter"), tasks.filtered_out)
                } else {
                    String::new()
                };
                return Err(Error::setting(
                    "filter",
                    format!(
                        "{kept}no row has `{v}` in column `{c}` (its values: {})",
                        crate::cells::some_of(&held.iter().map(|x| format!("`{x}`")).collect::<Vec<_>>())
                    ),
                ));
            }
        }
        if tasks.rows.is_empty() {
            return Err(Error::Empty(if tasks.filtered_out > 0 {
                format!(
                    "no compliance rows: {} kept none of {} rows",
                    crate::fields::mention("filter"),
                    tasks.filtered_out
                )
            } else {
                let why = tasks
                    .missing
                    .located("row", "rows")
                    .unwrap_or_else(|| "the files hold no rows below their header".into());
                format!("no compliance rows with an arm and a compliance value: {why}")
            }));
        }
        tasks.form_cells(&q.cells)?;
        Ok(LoadedTasks { tasks, files: files_out })
    }

    fn reload(old: &ComplianceRequest, new: &ComplianceRequest) -> bool {
        old.reads_differently(new)
    }

    fn overview(l: &LoadedTasks) -> Vec<FileSummary> {
        l.files.clone()
    }

    fn run(l: &LoadedTasks, q: &ComplianceRequest, progress: Progress<'_>) -> Result<ComplianceReport> {
        progress(Phase::Analysing, "compliance measures", 0.0);
        let r = analyse(&l.tasks, q)?;
        progress(Phase::Analysing, "done", 1.0);
        Ok(r)
    }

    crate::report_views!(table: table, headlines: super::headlines::headlines, text: text::render_text);

    fn figures(report: &ComplianceReport) -> Vec<crate::attach::Figure> {
        super::figures::figures(report)
    }
}
