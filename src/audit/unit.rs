//! Credit-target rescoring as one capability ([`Rescore`]): `memaudit rescore` / `drilldown`
//! and the viewer's rescoring page.

use serde::{Deserialize, Serialize};

use super::table::{RescoreTable, table};
use super::{Drilldown, Report, audit_unfinished, drilldown};
use crate::capability::prelude::*;
use crate::capability::{Unfinished, fingerprints_while, nothing_loaded};
use crate::conventions::Settings;
use crate::dataset::Dataset;
use crate::ingest::{self, Loaded, Role};
use crate::rescore::rescore;

/// Share of a load's progress given to building the dataset (reading takes the rest).
const BUILD_SHARE: f64 = 0.1;
/// Within a run, the share of rescoring (the rest is tables and bootstrap intervals).
const SCORING_SHARE: f64 = 0.45;
/// Within the rest, the share of the tables (the bootstrap intervals take the rest).
const TABLES_SHARE: f64 = 0.2;

/// Credit-target rescoring (TIAP): saved ranked outputs rescored under Raw, Source and
/// Canonical credit, with the audit tables.
pub struct Rescore;

impl Validate for Settings {
    fn validate(&self) -> Result<()> {
        Settings::validate(self)
    }
}

/// One query, for the drill-down picker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryInfo {
    pub id: String,
    pub text: Option<String>,
    pub category: Option<String>,
}

/// What a rescoring page needs of the loaded dataset: its queries (in index order) and systems.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RescoreOverview {
    pub queries: Vec<QueryInfo>,
    pub systems: Vec<String>,
}

/// One system's ranked list for one query (`memaudit drilldown --system S --query Q`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DrilldownQuery {
    pub system: String,
    pub query: String,
}

fn role_of(r: FileRole) -> Role {
    match r {
        FileRole::Memories => Role::Memories,
        FileRole::Queries | FileRole::Qrels => Role::Queries,
        FileRole::Runs => Role::Runs,
        _ => Role::Any,
    }
}

/// The rescoring's input files, from its report (`reading.files`: name, format, size, SHA-256).
pub fn input_files(report: &Report) -> Vec<crate::attach::InputInfo> {
    report
        .reading
        .files
        .iter()
        .map(|f| crate::attach::InputInfo {
            name: f.name.clone(),
            role: crate::report::serde_name(&f.format),
            bytes: f.bytes as u64,
            sha256: f.sha256.clone(),
        })
        .collect()
}

/// Rescoring's inputs are read from its report.
impl crate::capability::FilesRead for RescoreOverview {}

impl Capability for Rescore {
    const ANALYSIS: Analysis = Analysis::Rescore;
    const TITLE: &'static str = "Rescoring";
    const ABOUT: &'static str = "Rescore saved ranked outputs under the Raw, Source and Canonical credit targets.";
    /// Its TREC (and, for rescoring, JSON Lines) readers take a file one line at a time.
    const STREAMS: bool = true;
    const SPLITS_INTERVALS: bool = true;
    const ROLES: &'static [FileRole] =
        &[FileRole::Retrieval, FileRole::Memories, FileRole::Queries, FileRole::Runs, FileRole::Qrels];
    const DEMO: &'static [Demo] = &[
        Demo::new("memories.jsonl", "static/demo/memories.jsonl"),
        Demo::new("queries.jsonl", "static/demo/queries.jsonl"),
        Demo::new("runs.jsonl", "static/demo/runs.jsonl"),
    ];
    crate::capability_types!(
        request: Settings, loaded: Dataset, overview: RescoreOverview,
        report: Report, table: RescoreTable, detail: DrilldownQuery => Drilldown
    );

    /// Retrieval data of a rescoring (bundles, memories, queries, runs, LoCoMo, LongMemEval),
    /// by folder; a TREC run or qrels completes them (alone, it is an IR evaluation's).
    fn recognise(s: &crate::ingest::sniff::Sniff<'_>) -> Option<crate::capability::Recognised> {
        use crate::capability::{Fit, Recognised};
        use crate::ingest::Format;
        let text = s.text.as_deref()?;
        let format = ingest::detect(&s.file.name, text).ok()?;
        let fit = match format {
            Format::TrecRun | Format::TrecQrels | Format::JsonRun | Format::JsonQrels => {
                // Routed by content: TREC lines only when their first lines all read so.
                crate::ingest::trec_eval_files::detect_routed(text)?;
                Fit::Companion
            }
            _ => Fit::Specific,
        };
        // A folder's files make one rescoring: datasets of two folders are never pooled.
        Some(Recognised::new(FileRole::Retrieval, fit, format.describe()).by_folder(&s.file.name))
    }

    fn load(files: &[RoleFile], _settings: &Settings, progress: Progress<'_>) -> Result<Dataset> {
        if files.is_empty() {
            return Err(Error::Empty("no input files: give memories, queries and runs (or one bundle)".into()));
        }
        // The same file given twice (e.g. one bundle as --memories and --queries) is read once.
        let mut unique: Vec<&RoleFile> = Vec::new();
        for f in files {
            if !unique.iter().any(|u| u.file.name == f.file.name) {
                unique.push(f);
            }
        }
        let total: f64 = unique.iter().map(|f| f.file.len().max(1) as f64).sum();
        let (read, hashes) = fingerprints_while(&unique, || -> Result<Loaded> {
            let mut done = 0.0;
            let mut loaded = Loaded::default();
            for f in &unique {
                let size = f.file.len().max(1) as f64;
                let start = done;
                ingest::read_into(&f.file, role_of(f.role), &mut loaded, &mut |p| {
                    let share = (1.0 - BUILD_SHARE) * (start + p.fraction.clamp(0.0, 1.0) * size) / total;
                    progress(Phase::Reading, &p.stage, share);
                })?;
                done += size;
            }
            Ok(loaded)
        });
        let mut loaded = read?;
        for (f, sha256) in unique.iter().zip(hashes?) {
            if let Some(r) = loaded.files.iter_mut().find(|r| r.name == f.file.name) {
                r.sha256 = sha256;
            }
        }
        progress(Phase::Building, "checking and indexing", 1.0 - BUILD_SHARE);
        let ds = Dataset::build(loaded);
        if ds.queries.is_empty() {
            return Err(Error::Empty(
                "no queries were read: add a queries file (queries.jsonl), TREC qrels, or LoCoMo / LongMemEval data"
                    .into(),
            ));
        }
        if let Some(system) = ds.empty_stores.first() {
            return Err(Error::Setting {
                setting: "memories".into(),
                message: format!(
                    "system `{system}` has ranked lists but nothing in its store: every memory names other systems. \
                     Give its memories \"system\": \"{system}\" (or leave `system` out of memories every system stores){}",
                    if ds.empty_stores.len() > 1 {
                        format!("; also {}", ds.empty_stores[1..].join(", "))
                    } else {
                        String::new()
                    }
                ),
            });
        }
        progress(Phase::Building, "checked and indexed", 1.0);
        Ok(ds)
    }

    fn overview(ds: &Dataset) -> RescoreOverview {
        RescoreOverview {
            queries: ds
                .queries
                .iter()
                .map(|q| QueryInfo { id: q.query_id.clone(), text: q.text.clone(), category: q.category.clone() })
                .collect(),
            systems: ds.systems.clone(),
        }
    }

    fn run(ds: &Dataset, settings: &Settings, progress: Progress<'_>) -> Result<Report> {
        Ok(Self::run_unfinished(ds, settings, progress)?.compute())
    }

    /// The intervals of the summary, instability and winner rows are left to compute
    /// ([`super::audit_unfinished`]): most of a large audit's time.
    fn run_unfinished(ds: &Dataset, settings: &Settings, progress: Progress<'_>) -> Result<Unfinished<Report>> {
        let r = rescore(ds, settings, &mut |f| {
            progress(Phase::Scoring, "scoring ranked lists", SCORING_SHARE * f.clamp(0.0, 1.0))
        });
        let tables = SCORING_SHARE + (1.0 - SCORING_SHARE) * TABLES_SHARE;
        let unfinished = audit_unfinished(ds, &r, &mut |stage, f| {
            progress(Phase::Tables, stage, SCORING_SHARE + (tables - SCORING_SHARE) * f.clamp(0.0, 1.0))
        });
        let n = unfinished.intervals.len();
        progress(Phase::Tables, &format!("{n} bootstrap intervals"), tables);
        Ok(unfinished)
    }

    fn detail(ds: Option<&Dataset>, settings: &Settings, d: &DrilldownQuery) -> Result<Drilldown> {
        let ds = ds.ok_or_else(nothing_loaded)?;
        let s = ds.system_index(&d.system).ok_or_else(|| {
            Error::setting("system", format!("no system `{}` (have: {})", d.system, ds.systems.join(", ")))
        })?;
        let q = ds.query_index(&d.query).ok_or_else(|| Error::setting("query", format!("no query `{}`", d.query)))?;
        drilldown(ds, settings, s, q as usize).ok_or_else(|| {
            Error::Empty(format!("no ranked list to show for system `{}`, query `{}`", d.system, d.query))
        })
    }

    crate::report_views!(table: table, headlines: super::headlines::headlines, text: super::text::render_text);

    fn figures(report: &Report) -> Vec<crate::attach::Figure> {
        super::figures::figures(report)
    }

    fn inputs(_overview: &RescoreOverview, report: &Report) -> Vec<crate::attach::InputInfo> {
        input_files(report)
    }
}
