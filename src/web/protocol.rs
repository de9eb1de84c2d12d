//! The messages between the page and the worker (see `docs/viewer.md`).
//!
//! Every request carries a [`JobId`] chosen by the page; every response names the job it
//! belongs to, so the page can ignore answers to requests it has superseded. One request may
//! produce several responses: any number of [`Response::Progress`], then exactly one of
//! [`Response::Audited`], [`Response::Drilldown`] or [`Response::Failed`].

use serde::{Deserialize, Serialize};

use super::codec::Packed;
use crate::audit::{Drilldown, Report};
use crate::conventions::Settings;
use crate::error::Error;

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
}

/// What stage a long job is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Reading,
    Building,
    Scoring,
    Tables,
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
    /// The job failed; `kept_previous` tells whether the worker still holds the dataset of an
    /// earlier successful load (so earlier results remain valid).
    Failed {
        job: JobId,
        error: Error,
        kept_previous: bool,
    },
}

impl Response {
    pub fn job(&self) -> JobId {
        match self {
            Response::Progress { job, .. }
            | Response::Audited { job, .. }
            | Response::Drilldown { job, .. }
            | Response::Failed { job, .. } => *job,
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
