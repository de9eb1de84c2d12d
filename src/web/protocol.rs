//! The messages between the page and the worker (see `docs/viewer.md`).
//!
//! Every request carries a [`JobId`] chosen by the page; every response names the job it
//! belongs to, so the page can ignore answers to requests it has superseded. One request may
//! produce several responses: any number of [`Response::Progress`], then exactly one result
//! ([`Response::Audited`], [`Response::Drilldown`], [`Response::Compared`],
//! [`Response::CompareItems`], [`Response::ProbeExplained`], [`Response::Probed`],
//! [`Response::Reclaimed`], [`Response::Analysed`]) or [`Response::Failed`].
//!
//! A message that does not decode (a programming error, or a corrupted message) arrives as
//! [`Request::Undecodable`] / [`Response::Undecodable`] with the decoder's message, so the page
//! shows it instead of the worker or the page panicking ([`super::codec`]).
//!
//! Each page talks to the one worker through its own fork of the bridge, so responses reach
//! the page that asked.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::codec::Packed;
use crate::ablation::{AblationColumns, AblationReport, AblationSettings, OutcomeScoring};
use crate::answers::{AnswerColumns, AnswerReport, AnswerSettings, DiffRow, Profile};
use crate::audit::{Drilldown, PerQueryRow, Report};
use crate::claims::ClaimsReport;
use crate::compare::{CompareSettings, Comparison, PairItem};
use crate::conventions::Settings;
use crate::error::Error;
pub use crate::file_role::FileRole;
use crate::outcomes::{ColumnInfo, OutcomeFormat, OutcomeWarnings, PairingOptions, PairingReport, Spec};
use crate::probe::{Highlight, ItemResult, Mode, NoteInput, NoteRow, ProbeReport};
use crate::reclaim::{ReclaimReport, ReclaimSettings};
use crate::rules::RulesReport;

/// Identifies one request of the page.
pub type JobId = u32;

/// A user file handed to the worker: the browser's `File` (or a fetched `Blob`) itself,
/// passed by structured clone and read inside the worker.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SourceFile {
    pub name: String,
    #[serde(with = "serde_wasm_bindgen::preserve")]
    pub blob: web_sys::Blob,
}

/// Page → worker.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Request {
    /// Read these files (any order; each format detected from its content; gzip accepted),
    /// build the dataset, keep it, and audit it under `settings`.
    Load { job: JobId, files: Vec<SourceFile>, settings: Settings },
    /// The same with the demo bundle compiled into the worker.
    LoadDemo { job: JobId, settings: Settings },
    /// Audit the kept dataset again under other settings (no file is read again).
    Rescore { job: JobId, settings: Settings },
    /// One system's ranked list for one query (indices into the report's `systems` and the
    /// query list of [`Audited::queries`]) from the kept dataset.
    Drilldown { job: JobId, settings: Settings, system: usize, query: usize },
    /// Comparison page: read outcome files (formats detected, or `format` forced), keep the
    /// table, and compare under `run` (its spec `None` = inferred).
    CompareLoad { job: JobId, files: Vec<SourceFile>, format: Option<OutcomeFormat>, run: CompareRun },
    /// Comparison page: a rescoring's per-query rows (`outcomes::from_per_query`) as the kept
    /// table, then compare.
    CompareRescoring { job: JobId, name: String, rows: Packed<Vec<PerQueryRow>>, run: CompareRun },
    /// Comparison page: compare the kept table again (other spec, options or settings).
    CompareRun { job: JobId, run: CompareRun },
    /// Comparison page: the items behind a contrast or an arm of the last comparison.
    CompareItems { job: JobId, selection: ItemSelection },
    /// Probe page: one pasted note, probed in both modes.
    ProbeNote { job: JobId, input: NoteInput },
    /// Probe page: read notes files (and probe keys, recognised by content), keep the notes,
    /// and report.
    ProbeLoad { job: JobId, files: Vec<SourceFile>, run: ProbeRun },
    /// Probe page: report the kept notes again (other mode, confidence or arm).
    ProbeRun { job: JobId, run: ProbeRun },
    /// Probe page: one kept note (index into the report's `notes`), in both modes.
    ProbeDetail { job: JobId, run: ProbeRun, index: usize },
    /// Reclaim page: read trial files (and probe keys), keep the trials, and analyse.
    ReclaimLoad { job: JobId, files: Vec<SourceFile>, run: ReclaimRun },
    /// Reclaim page: analyse the kept trials again.
    ReclaimRun { job: JobId, run: ReclaimRun },
    /// Answers, ablation, claims or rules page (which: the kind of `run`): read these files
    /// (formats and roles detected from their content), keep them and analyse; `files: None`
    /// analyses the kept files again under `run`.
    Analyse { job: JobId, files: Option<Vec<SourceFile>>, run: ToolRun },
    /// A page's message that did not decode (the worker answers [`Response::Undecodable`]).
    Undecodable { message: String },
}

/// How to compare: the spec (`None`: inferred from the table), pairing tolerances and the
/// statistics' settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareRun {
    pub spec: Option<Spec>,
    pub options: PairingOptions,
    pub settings: CompareSettings,
}

/// What the items table shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ItemSelection {
    /// The contrast a − b (a forest-plot row).
    Pair { a: String, b: String },
    /// One arm's values (a CD-diagram arm).
    Arm { arm: String },
}

/// The probe report's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeRun {
    /// The mode of the `notes` rows and the headline summary (both modes are always reported).
    pub mode: Mode,
    /// Level of the Wilson intervals.
    pub confidence: f64,
    /// Keep only notes of this arm (e.g. `directed`).
    pub arm: Option<String>,
}

/// The reclaim analysis' settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReclaimRun {
    pub settings: ReclaimSettings,
    /// Keep only trials of this arm (reclaim-eval's tables use `directed`).
    pub arm: Option<String>,
}

/// What stage a long job is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Reading,
    Building,
    Scoring,
    Tables,
    /// Pairing outcome rows into an item × arm matrix.
    Pairing,
    /// Bootstrap, tests and ranks of a comparison.
    Comparing,
    /// Probing notes or analysing reclaim trials.
    Analysing,
}

/// Worker → page.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Response {
    /// `fraction` is the share of the whole job done (0..=1), `stage` says what runs now.
    Progress {
        job: JobId,
        phase: Phase,
        stage: String,
        fraction: f64,
    },
    /// The result of `Load`, `LoadDemo` or `Rescore`.
    Audited {
        job: JobId,
        result: Packed<Audited>,
    },
    Drilldown {
        job: JobId,
        drilldown: Box<Drilldown>,
    },
    /// The result of `CompareLoad`, `CompareRescoring` or `CompareRun`: a comparison, or the
    /// pairing's refusal with its report.
    Compared {
        job: JobId,
        result: Box<CompareResult>,
    },
    /// The items behind a contrast or an arm.
    CompareItems {
        job: JobId,
        items: Box<ItemsView>,
    },
    /// One note in both probe modes (`ProbeNote`, `ProbeDetail`).
    ProbeExplained {
        job: JobId,
        result: Box<LiveProbe>,
    },
    /// The result of `ProbeLoad` or `ProbeRun`.
    Probed {
        job: JobId,
        result: Box<ProbeBatch>,
    },
    /// The result of `ReclaimLoad` or `ReclaimRun`.
    Reclaimed {
        job: JobId,
        result: Box<ReclaimBatch>,
    },
    /// The result of `Analyse`.
    Analysed {
        job: JobId,
        result: Box<ToolResult>,
    },
    /// The job failed; `kept_previous` tells whether the worker still holds the dataset of an
    /// earlier successful load (so earlier results remain valid).
    Failed {
        job: JobId,
        error: Error,
        kept_previous: bool,
    },
    /// A message that did not decode (on either side): whatever was running is lost.
    Undecodable {
        message: String,
    },
}

impl Response {
    /// The job the response belongs to (`None`: an undecodable message, whose job is unknown).
    pub fn job(&self) -> Option<JobId> {
        match self {
            Response::Progress { job, .. }
            | Response::Audited { job, .. }
            | Response::Drilldown { job, .. }
            | Response::Compared { job, .. }
            | Response::CompareItems { job, .. }
            | Response::ProbeExplained { job, .. }
            | Response::Probed { job, .. }
            | Response::Reclaimed { job, .. }
            | Response::Analysed { job, .. }
            | Response::Failed { job, .. } => Some(*job),
            Response::Undecodable { .. } => None,
        }
    }
}

/// One query, for the drill-down picker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryInfo {
    pub id: String,
    pub text: Option<String>,
    pub category: Option<String>,
}

/// Milliseconds spent per phase of a job.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    pub read_ms: f64,
    pub build_ms: f64,
    pub audit_ms: f64,
    pub total_ms: f64,
}

/// A finished audit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Audited {
    pub report: Report,
    /// The dataset's queries in index order (sent after a load; `None` after a rescore, when
    /// the list is unchanged).
    pub queries: Option<Vec<QueryInfo>>,
    pub timing: Timing,
}

/// One column of a kept outcome table, with its first distinct texts (for filters).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ColumnView {
    pub info: ColumnInfo,
    /// Up to [`COLUMN_VALUES`] distinct texts, in first-seen order.
    pub values: Vec<String>,
}

/// How many distinct texts of a column the page gets.
pub const COLUMN_VALUES: usize = 60;

/// One file of a kept outcome table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutcomeFileView {
    pub name: String,
    pub format: OutcomeFormat,
    pub gzip: bool,
    pub bytes: usize,
    pub rows: usize,
}

/// The kept outcome table as the comparison page shows it (sent after a load).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableInfo {
    pub name: String,
    pub files: Vec<OutcomeFileView>,
    pub columns: Vec<ColumnView>,
    pub rows: usize,
    pub warnings: OutcomeWarnings,
    /// What `infer_spec` proposes, with its reasons.
    pub inferred: Spec,
    /// The table came from the rescoring page.
    pub from_rescoring: bool,
}

/// A comparison, or why there is none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum CompareOutcome {
    /// The arms were compared.
    Compared { comparison: Box<Comparison>, pairing: Box<PairingReport> },
    /// The pairing refused a paired test: what is wrong and how to fix it (verbatim from the
    /// core), with the pairing report when the rows could be placed.
    Refused { message: String, pairing: Option<Box<PairingReport>> },
}

/// The answer to a comparison request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareResult {
    /// The kept table, after a load (`None` after a re-run: unchanged).
    pub table: Option<TableInfo>,
    /// The spec used (inferred when none was given).
    pub spec: Spec,
    pub options: PairingOptions,
    pub outcome: CompareOutcome,
    /// Milliseconds: reading (loads only), pairing and comparing.
    pub read_ms: f64,
    pub total_ms: f64,
}

/// One item of an arm (a CD-diagram click): its value and its rank among the arms on that item
/// (1 = best, ties averaged).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArmItem {
    pub item: String,
    pub value: f64,
    pub rank: f64,
    pub group: Option<String>,
}

/// The items behind a selection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ItemsView {
    /// `items_for_pair`: largest |a − b| first.
    Pair { a: String, b: String, items: Vec<PairItem> },
    /// The arm's value on every item, in item order.
    Arm { arm: String, items: Vec<ArmItem> },
}

/// One note as the probe shows it in one mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeView {
    pub note: String,
    pub row: NoteRow,
    pub items: Vec<ItemResult>,
    pub highlights: Vec<Highlight>,
}

/// One note in both modes (an error text when the note cannot be probed, e.g. no source).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LiveProbe {
    pub itemized: Result<ProbeView, String>,
    pub reference: Result<ProbeView, String>,
}

/// A file the probe or reclaim page read, and what it was taken for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileNote {
    pub name: String,
    /// `notes`, `reclaim-eval realworld rows`, `probe keys`, `trials`.
    pub kind: String,
    /// Records read from it.
    pub records: usize,
}

/// A probe batch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeBatch {
    pub files: Vec<FileNote>,
    pub report: ProbeReport,
    /// Distinct arms among the kept notes (for the arm filter).
    pub arms: Vec<String>,
    /// Notes read (before the arm filter).
    pub notes_read: usize,
    pub total_ms: f64,
}

/// A reclaim analysis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReclaimBatch {
    pub files: Vec<FileNote>,
    /// As `memaudit reclaim --format json` prints it (reading notices merged into `warnings`).
    pub report: ReclaimReport,
    /// Distinct arms among the kept trials (for the arm filter).
    pub arms: Vec<String>,
    /// Trials read (before the arm filter) and analysed.
    pub trials_read: usize,
    pub trials_used: usize,
    pub total_ms: f64,
}

/// What one of the issue-5 pages asks the worker to do with its files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ToolRun {
    Answers(AnswersRun),
    Ablation(AblationRun),
    Claims(ClaimsRun),
    Rules(RulesRun),
}

/// The answer to [`ToolRun`] (the same kind).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ToolResult {
    Answers(AnswersBatch),
    Ablation(AblationBatch),
    Claims(Box<ClaimsBatch>),
    Rules(RulesBatch),
}

/// Answers page: `memaudit answers --profiles … --f1-threshold … [--diff A:B]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnswersRun {
    pub settings: AnswerSettings,
    /// The two profiles of the diff (scored even when not chosen, as the CLI does).
    pub diff: Option<(Profile, Profile)>,
    pub columns: AnswerColumns,
}

/// A rescoring of answer rows (several files: rows concatenated, warnings merged).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnswersBatch {
    pub files: Vec<FileNote>,
    /// As `memaudit answers --format json` prints it (without `diff`).
    pub report: AnswerReport,
    pub diff: Option<Vec<DiffRow>>,
    pub total_ms: f64,
}

/// Ablation page: `memaudit ablation --target … --gate … --bootstrap … --seed … --profile …`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AblationRun {
    pub settings: AblationSettings,
    pub scoring: OutcomeScoring,
    pub columns: AblationColumns,
}

/// An ablation analysis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AblationBatch {
    pub files: Vec<FileNote>,
    pub report: AblationReport,
    pub scoring: OutcomeScoring,
    pub total_ms: f64,
}

/// A file of the claims or rules page and what it was taken for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoleFile {
    pub name: String,
    pub role: FileRole,
    /// What its content looks like (the role unless overridden).
    pub detected: FileRole,
    /// Records read (rows, claims, rules, values, commits; bytes for data files).
    pub records: usize,
    pub sha256: String,
}

/// Claims page: `memaudit claims --metric … --contrast … --slack … --base-k … --bootstrap …
/// --seed … --confidence … [--no-sweep]`, the files' roles overridden by name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimsRun {
    pub roles: BTreeMap<String, FileRole>,
    pub metric: Option<String>,
    pub contrasts: Vec<(String, String)>,
    pub slack: f64,
    pub base_k: Option<i64>,
    pub bootstrap: usize,
    pub seed: u64,
    pub confidence: f64,
    pub sweep: bool,
}

impl Default for ClaimsRun {
    fn default() -> Self {
        ClaimsRun {
            roles: BTreeMap::new(),
            metric: None,
            contrasts: Vec::new(),
            slack: 0.02,
            base_k: None,
            bootstrap: 10_000,
            seed: 42,
            confidence: 0.95,
            sweep: true,
        }
    }
}

/// A claims check with its K-sweep and lint findings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimsBatch {
    pub files: Vec<RoleFile>,
    /// As `memaudit claims --format json` prints it.
    pub report: ClaimsReport,
    /// The scores' numeric columns and the one used.
    pub metrics: Vec<String>,
    pub metric: Option<String>,
    /// The scores' arms (first seen) and K values (ascending).
    pub arms: Vec<String>,
    pub ks: Vec<i64>,
    pub total_ms: f64,
}

/// Rules page: `memaudit rules --rules … --values … [--git-log …] [--data …] --evaluated-at …`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RulesRun {
    pub roles: BTreeMap<String, FileRole>,
    /// Stamped on every verdict (the page sends the time of the request).
    pub evaluated_at: Option<String>,
}

/// Rule verdicts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RulesBatch {
    pub files: Vec<RoleFile>,
    /// As `memaudit rules --format json` prints it.
    pub report: RulesReport,
    pub total_ms: f64,
}
