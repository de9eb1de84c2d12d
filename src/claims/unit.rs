//! The claims check as one capability ([`Claims`]): `memaudit claims` and the viewer's
//! K-sweep & claims page. Each file is claims, per-query scores or a printed table by its
//! columns ([`detect_file_role`]) unless the caller states it.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::check::{Claim, ClaimSettings, read_claims};
use super::lint::read_lint_table;
use super::report::{ClaimsReport, claims_report};
use super::role::detect_file_role;
use super::table::{ClaimsTable, table};
use super::text;
use crate::capability::of_role;
use crate::capability::prelude::*;
use crate::distinct::first_seen;
use crate::ksweep::{ScoreColumns, ScoreTable, SweepSettings, read_scores, sweep};
use crate::printed::lint::{LintRow, LintSettings};
use crate::stats::bootstrap::Bootstrap;

/// The K-sweep of arms, claims recomputed from per-query scores, and the consistency linter.
pub struct Claims;

crate::fields! {
    /// The claims check's settings (the bootstrap's defaults are seed-000's: B = 10,000, seed 42).
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct ClaimsRequest {
        metric: Option<String> = None, label "score column",
            help "The score column (default: score, value, sem, correct, f1, … or the only numeric column).";
        contrasts as "contrast": Vec<(String, String)> = Vec::new(), via crate::fields::Pairs, label "contrasts",
            help "Contrasts of the K-sweep, A:B for A − B (repeatable; default: every pair of arms).";
        slack: f64 = 0.02, label "\u{0394}-stability slack",
            help "\u{0394}-stability slack, in the data's units (0.02 = 2pp for 0/1 scores).";
        base_k: Option<i64> = None, label "base K", help "The K other Ks are compared with (default: the smallest).";
        bootstrap: usize = 10_000, label "resamples", help "Bootstrap resamples of every interval.";
        seed: u64 = 42, label "seed", help "Seed of the ChaCha8 stream behind every interval.";
        confidence: f64 = 0.95, label "confidence", help "Confidence level of the intervals.";
        sweep as "no_sweep": bool = true, via crate::fields::Negated, label "skip the K-sweep",
            help "Skip the K-sweep (claims and linting only).";
    }
}

impl ClaimsRequest {
    pub fn bootstrap(&self) -> Bootstrap {
        Bootstrap { resamples: self.bootstrap, seed: self.seed, confidence: self.confidence }
    }
}

impl Validate for ClaimsRequest {
    fn validate(&self) -> Result<()> {
        self.bootstrap().validate(1)?;
        if self.slack.is_nan() || self.slack < 0.0 {
            return Err(Error::setting("slack", "must be ≥ 0"));
        }
        for (a, b) in &self.contrasts {
            if a.is_empty() || b.is_empty() {
                return Err(Error::setting("contrast", format!("`{a}:{b}`: use ARM_A:ARM_B")));
            }
        }
        Ok(())
    }
}

/// The files read, kept between runs.
#[derive(Debug, Clone, Default)]
pub struct LoadedClaims {
    pub scores: Option<ScoreTable>,
    pub claims: Vec<Claim>,
    pub tables: Vec<LintRow>,
    pub files: Vec<FileSummary>,
}

/// What the claims page needs of the loaded files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimsOverview {
    pub files: Vec<FileSummary>,
    /// The scores' numeric columns and the one used.
    pub metrics: Vec<String>,
    pub metric: Option<String>,
    /// The scores' arms (first seen) and K values (ascending).
    pub arms: Vec<String>,
    pub ks: Vec<i64>,
}

crate::files_read!(ClaimsOverview);

impl Capability for Claims {
    const ANALYSIS: Analysis = Analysis::Claims;
    const TITLE: &'static str = "K-sweep & claims";
    const ABOUT: &'static str = "K-sweep of arms, claims recomputed from per-query scores, and the consistency linter.";
    const ROLES: &'static [FileRole] = &[FileRole::Scores, FileRole::Claims, FileRole::Table];
    const DEMO: &'static [Demo] = &[
        Demo::new("seed000_claims.csv", "tests/reference/paper_fixtures/seed000_claims.csv"),
        Demo::new("seed000_scores.csv", "tests/reference/paper_fixtures/seed000_scores.csv"),
        Demo::new("seed000_tables.csv", "tests/reference/paper_fixtures/seed000_tables.csv"),
    ];

    crate::capability_types!(
        request: ClaimsRequest, loaded: LoadedClaims, overview: ClaimsOverview,
        report: ClaimsReport, table: ClaimsTable
    );

    fn detect(file: &InputFile) -> Result<FileRole> {
        Ok(detect_file_role(file)?)
    }

    /// Claims (`claim_id` or `reported`) and printed tables; per-query scores complete them.
    fn recognise(s: &crate::ingest::sniff::Sniff<'_>) -> Option<crate::capability::Recognised> {
        use crate::capability::{Fit, Recognised};
        if !matches!(s.shape, crate::ingest::sniff::Shape::Table(_)) {
            return None;
        }
        match detect_file_role(s.input()).ok()? {
            FileRole::Scores => {
                use crate::answers::read::{ARM_ALIASES, ID_ALIASES};
                (s.has_column(&ARM_ALIASES) && s.has_column(&ID_ALIASES))
                    .then(|| Recognised::new(FileRole::Scores, Fit::Companion, "per-query scores of arms"))
            }
            role => Some(Recognised::new(role, Fit::Specific, role.describe())),
        }
    }

    fn load(files: &[RoleFile], request: &ClaimsRequest, progress: Progress<'_>) -> Result<LoadedClaims> {
        if files.is_empty() {
            return Err(Error::Empty(
                "nothing to check: give claims with per-query data, the data alone (K-sweep), or a printed table"
                    .into(),
            ));
        }
        progress(Phase::Reading, "reading claims, scores and tables", 0.0);
        let score_files: Vec<&RoleFile> = of_role(files, FileRole::Scores).collect();
        if score_files.len() > 1 {
            let names: Vec<&str> = score_files.iter().map(|f| f.file.name.as_str()).collect();
            return Err(Error::setting(
                "files",
                format!(
                    "several per-query score files ({}): keep one, or mark the others as tables or claims",
                    names.join(", ")
                ),
            ));
        }
        let mut out = LoadedClaims::default();
        for f in files {
            let records = match f.role {
                FileRole::Claims => {
                    let c = read_claims(&f.file)?;
                    let n = c.len();
                    out.claims.extend(c);
                    n
                }
                FileRole::Table => {
                    let rows = read_lint_table(&f.file)?;
                    let n = rows.len();
                    out.tables.extend(rows);
                    n
                }
                _ => {
                    let t =
                        read_scores(&f.file, &ScoreColumns { metric: request.metric.clone(), ..Default::default() })?;
                    let n = t.rows.len();
                    out.scores = Some(t);
                    n
                }
            };
            out.files.push(FileSummary::of(f, f.role.describe(), records)?);
        }
        crate::capability::refuse_files_without_records(
            out.files.iter().map(|s| (s.name.as_str(), s.records)),
            "claims, table rows or per-query scores",
        )?;
        if !out.claims.is_empty() && out.scores.is_none() {
            return Err(Error::setting(
                "files",
                "claims are recomputed from per-query scores: add the per-query scores file",
            ));
        }
        Ok(out)
    }

    fn reload(old: &ClaimsRequest, new: &ClaimsRequest) -> bool {
        old.metric != new.metric
    }

    fn overview(l: &LoadedClaims) -> ClaimsOverview {
        let (arms, ks) = match &l.scores {
            Some(t) => {
                let ks: BTreeSet<i64> = t.rows.iter().filter_map(|r| r.k).collect();
                (first_seen(t.rows.iter().map(|r| r.arm.clone())), ks.into_iter().collect())
            }
            None => (Vec::new(), Vec::new()),
        };
        ClaimsOverview {
            files: l.files.clone(),
            metrics: l.scores.as_ref().map(|t| t.metrics.clone()).unwrap_or_default(),
            metric: l.scores.as_ref().map(|t| t.default_metric.clone()),
            arms,
            ks,
        }
    }

    fn run(l: &LoadedClaims, request: &ClaimsRequest, progress: Progress<'_>) -> Result<ClaimsReport> {
        progress(Phase::Analysing, "K-sweep and intervals", 0.0);
        let sweep_out = match (&l.scores, request.sweep) {
            (Some(t), true) => {
                let mut s = SweepSettings::new(&t.default_metric);
                s.bootstrap = request.bootstrap;
                s.seed = request.seed;
                s.confidence = request.confidence;
                s.slack = request.slack;
                s.base_k = request.base_k;
                s.contrasts = request.contrasts.clone();
                Some(sweep(t, &s)?)
            }
            _ => None,
        };
        progress(Phase::Analysing, "claims and linting", 0.8);
        let settings =
            ClaimSettings { bootstrap: request.bootstrap, seed: request.seed, confidence: request.confidence };
        let report =
            claims_report(&l.claims, l.scores.as_ref(), &l.tables, sweep_out, &settings, &LintSettings::default());
        progress(Phase::Analysing, "done", 1.0);
        Ok(report)
    }

    crate::report_views!(table? table, headlines: super::headlines::headlines, text: text::render_text);

    fn figures(report: &ClaimsReport) -> Vec<crate::attach::Figure> {
        report.sweep.as_ref().map(crate::ksweep::figures::figures).unwrap_or_default()
    }
}
