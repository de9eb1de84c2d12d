//! Answer alignment as one capability ([`Alignment`]): `memaudit alignment` and the viewer's
//! alignment page.

use serde::{Deserialize, Serialize};

use super::analyse::{AlignmentReport, analyse};
use super::read::{self, Joined, Names, looks_like_alignment};
use super::table::{AlignmentTable, table};
use super::text;
use crate::capability::prelude::*;
use crate::error::{IngestError, Location};
use crate::stats::bootstrap::Bootstrap;

/// Answer alignment of two credit targets, the coverage confound and run identity.
pub struct Alignment;

crate::fields! {
    /// The alignment settings.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(default)]
    pub struct AlignmentRequest {
        target_a: String = "raw".into(), label "target A", help "Target A.";
        target_b: String = "canonical".into(), label "target B", help "Target B.";
        metric: String = "hit".into(), label "retrieval metric",
            help "The retrieval metric column (a query counts for a target when it is > 0; `hit`: hit@k of the rescoring; in TIAP's records `T_hit_at_k`, `T_ndcg` under each target T). TIAP's Table 12 is on `hit` (hit@60); its coverage confound (§5.1, +0.086) is on `ndcg`.";
        run: Option<String> = None, label "run column", help "The run column.", column read::RUN;
        query: Option<String> = None, label "query column", help "The query column.", column read::QUERY;
        answer: Option<String> = None, label "answer score column",
            help "The answer score column, in [0, 1].", column read::ANSWER;
        strong: f64 = 0.5, label "strong answer at", help "An answer is strong at \u{2265} this score.";
        identity_threshold: f64 = 0.99, label "identity threshold",
            help "Two runs are flagged as one at or above this share of identical per-query metrics.";
        group: Option<String> = None, label "group runs by",
            help "A column whose values group the runs (TIAP: `dataset`): the target shifts are pooled, and the aggregations' runs ordered, within each group.";
        aggregate_on: super::aggregate::Subset = super::aggregate::Subset::Eligible, label "aggregate on",
            help "The queries of the aggregations and winners: `eligible`, each target's own eligible queries (TIAP Table 8); `shared`, those eligible under every target in every run of the group (TIAP Table 5's fixed shared subset).";
        shift_threshold: f64 = 0.1, label "large shift at",
            help "A query's metric shift between two targets counts as large at \u{2265} this |\u{0394}| (TIAP Figure 3: 0.1 nDCG).";
        filter: std::collections::BTreeMap<String, Vec<String>> = std::collections::BTreeMap::new(), via crate::fields::Filter,
            label "keep only",
            help "Keep only rows whose column has one of the values: COLUMN=v1,v2 (e.g. dataset=LoCoMo, or parser_max_facts=5 for TIAP's eight native runs); several columns given again or separated by ;.";
    }
    groups {
        /// Bootstrap over runs (the coverage confound).
        bootstrap: Bootstrap = Bootstrap { resamples: 2000, seed: 1337, confidence: 0.95 };
    }
}

impl Validate for AlignmentRequest {
    fn validate(&self) -> Result<()> {
        self.bootstrap.validate(0)?;
        if self.target_a.trim().is_empty() || self.target_b.trim().is_empty() || self.target_a == self.target_b {
            return Err(Error::setting("targets", "give two different targets (e.g. raw and canonical)"));
        }
        if !(self.strong > 0.0 && self.strong <= 1.0) {
            return Err(Error::setting("strong", format!("must be in (0, 1] (got {})", self.strong)));
        }
        if !(self.identity_threshold > 0.0 && self.identity_threshold <= 1.0) {
            return Err(Error::setting(
                "identity-threshold",
                format!("must be in (0, 1] (got {})", self.identity_threshold),
            ));
        }
        if !(self.shift_threshold > 0.0 && self.shift_threshold.is_finite()) {
            return Err(Error::setting(
                "shift-threshold",
                format!("must be a positive number (got {})", self.shift_threshold),
            ));
        }
        if self.metric.trim().is_empty() {
            return Err(Error::setting("metric", "name the metric column (e.g. hit)"));
        }
        Ok(())
    }
}

/// The joined rows and the files' summaries.
#[derive(Debug, Clone, Default)]
pub struct LoadedAlignment {
    pub joined: Joined,
    pub files: Vec<FileSummary>,
}

impl Capability for Alignment {
    const ANALYSIS: Analysis = Analysis::Alignment;
    const TITLE: &'static str = "Alignment";
    const ABOUT: &'static str =
        "Answer alignment of two credit targets (TIAP Table 12), the coverage confound and run identity.";
    const ROLES: &'static [FileRole] = &[FileRole::AlignmentRows];
    const DEMO: &'static [Demo] = &[
        Demo::new("per_query.csv", "static/demo/alignment/per_query.csv"),
        Demo::new("answers.csv", "static/demo/alignment/answers.csv"),
    ];
    crate::capability_types!(
        request: AlignmentRequest, loaded: LoadedAlignment, overview: Vec<FileSummary>,
        report: AlignmentReport, table: AlignmentTable
    );

    fn detect(file: &InputFile) -> Result<FileRole> {
        if looks_like_alignment(file) {
            Ok(FileRole::AlignmentRows)
        } else {
            Err(Error::Ingest(IngestError::new(
                Location::file(&file.name),
                "not alignment input: a table with a run and a query column, and a target column (per-query metrics) \
                 or an answer score column (f1, correct)",
            )))
        }
    }

    /// Per-query target metrics (a run, a query and a `target` column); answer scores per run
    /// and query complete them.
    fn recognise(s: &crate::ingest::sniff::Sniff<'_>) -> Option<crate::capability::Recognised> {
        use super::read::{ANSWER, QUERY, RUN, TARGET};
        use crate::capability::{Fit, Recognised};
        if !(s.has_column(RUN) && s.has_column(QUERY)) {
            return None;
        }
        if s.has_column(TARGET) {
            Some(Recognised::new(FileRole::AlignmentRows, Fit::Specific, "per-query metrics under each target"))
        } else if !super::read::wide_targets(s.columns()).is_empty() {
            Some(Recognised::new(
                FileRole::AlignmentRows,
                Fit::Specific,
                "per-query metrics per target in columns (TIAP's records)",
            ))
        } else if s.has_column(ANSWER) {
            Some(Recognised::new(FileRole::AlignmentRows, Fit::Companion, "answer scores per run and query"))
        } else {
            None
        }
    }

    fn load(files: &[RoleFile], q: &AlignmentRequest, progress: Progress<'_>) -> Result<LoadedAlignment> {
        progress(Phase::Reading, "reading per-query metrics and answers", 0.0);
        let names = Names {
            run: q.run.as_deref(),
            query: q.query.as_deref(),
            metric: &q.metric,
            answer: q.answer.as_deref(),
            group: q.group.as_deref(),
            filter: &q.filter,
        };
        let inputs: Vec<&InputFile> = files.iter().map(|f| &f.file).collect();
        let joined = Joined::read(&inputs, &names)?;
        crate::capability::refuse_files_without_records(
            joined.readings.iter().map(|r| (r.file.as_str(), r.records)),
            "retrieval or answer rows",
        )?;
        let files = files
            .iter()
            .map(|f| {
                let reading = joined.readings.iter().find(|r| r.file == f.file.name);
                FileSummary::of(
                    f,
                    reading.map_or("table".to_string(), |r| format!("{} rows", r.kind)),
                    reading.map_or(0, |r| r.records),
                )
            })
            .collect::<Result<_>>()?;
        Ok(LoadedAlignment { joined, files })
    }

    fn reload(old: &AlignmentRequest, new: &AlignmentRequest) -> bool {
        (&old.metric, &old.run, &old.query, &old.answer, &old.filter, &old.group)
            != (&new.metric, &new.run, &new.query, &new.answer, &new.filter, &new.group)
    }

    fn overview(l: &LoadedAlignment) -> Vec<FileSummary> {
        l.files.clone()
    }

    fn run(l: &LoadedAlignment, q: &AlignmentRequest, progress: Progress<'_>) -> Result<AlignmentReport> {
        progress(Phase::Analysing, "alignment", 0.0);
        for (setting, t) in [("target_a", &q.target_a), ("target_b", &q.target_b)] {
            if !l.joined.targets.contains(t) {
                return Err(Error::setting(
                    setting,
                    format!("no row has the target `{t}` (the targets: {})", l.joined.targets.join(", ")),
                ));
            }
        }
        let r = analyse(&l.joined, q);
        progress(Phase::Analysing, "done", 1.0);
        Ok(r)
    }

    crate::report_views!(table: table, headlines: super::headlines::headlines, text: text::render_text);

    fn figures(report: &AlignmentReport) -> Vec<crate::attach::Figure> {
        super::figures::figures(report)
    }
}
