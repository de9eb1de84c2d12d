//! The release audit as one capability ([`ReleaseAudit`]): `memaudit audit PATH…` and the
//! viewer's landing page.

use serde::{Deserialize, Serialize};

use super::edits::Edits;
use super::table::{ReleaseTable, table};
use super::triage::{FileStatus, FileTriage, ReleaseReport, triage};
use crate::capability::prelude::*;
use crate::ingest::archive::{ArchiveKind, open};

impl crate::capability::FilesRead for Vec<FileTriage> {}

/// Every file of a release triaged and routed to each analysis it feeds.
pub struct ReleaseAudit;

crate::fields! {
    /// The release audit's settings (each analysis runs under its own defaults).
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(default)]
    pub struct ReleaseRequest {
        only: Vec<String> = Vec::new(), label "analyses",
            help "Run only these analyses (e.g. compare, reclaim); every one that applies when none is named.";
        leave_out: Vec<String> = Vec::new(), via crate::fields::Entries, label "files left out",
            help "Files no analysis reads here (a file's name as the files table shows it, or a folder: every file below it); each is listed as left out.";
        apart: Vec<String> = Vec::new(), via crate::fields::Entries, label "files apart",
            help "Files (or folders) each analysis runs on in a group of their own, not with the files triage groups them with.";
        route: Vec<String> = Vec::new(), via crate::fields::Entries, label "routes",
            help "ANALYSIS:FILE entries (e.g. compare:results/a.csv): the file (or every file of the folder) goes to this analysis only, of those that recognise it.";
    }
    unlisted {
        /// Entries of the release's folders that were not read, each with why (a link to
        /// nothing, a link back up, a pipe): listed in the files table as `passed_over`. Set by
        /// the interface that walked the folders; not a setting.
        #[serde(skip)]
        passed_over: Vec<PassedOver> = Vec::new();
    }
}

/// An entry of a folder that was passed over, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PassedOver {
    /// The entry as the files table names files (`folder/path/below`).
    pub file: String,
    pub why: String,
}

impl ReleaseRequest {
    /// The edits of the triage this request states.
    pub fn edits(&self) -> Result<Edits> {
        Edits::parse(&self.leave_out, &self.apart, &self.route)
    }
}

impl Validate for ReleaseRequest {
    fn validate(&self) -> Result<()> {
        self.edits()?;
        for name in &self.only {
            match <Analysis as crate::choice::Choice>::parse(name.trim()) {
                Some(Analysis::Audit) => {
                    return Err(Error::setting(
                        "only",
                        "the release audit cannot run itself: name the analyses to run",
                    ));
                }
                Some(_) => {}
                None => {
                    let names: Vec<&str> =
                        Analysis::ALL.iter().filter(|a| **a != Analysis::Audit).map(|a| a.name()).collect();
                    return Err(Error::setting(
                        "only",
                        format!("`{name}` is not an analysis (the analyses: {})", names.join(", ")),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The release's files, archives opened, and the archives' own rows.
#[derive(Debug, Clone, Default)]
pub struct LoadedRelease {
    pub files: Vec<InputFile>,
    /// One row per archive given (its files follow it in [`Self::files`]).
    pub archives: Vec<FileTriage>,
}

impl Capability for ReleaseAudit {
    const ANALYSIS: Analysis = Analysis::Audit;
    const TITLE: &'static str = "Release";
    const ABOUT: &'static str = "Every file of a release (files, folders, archives) routed to each analysis it feeds, \
        each run, and what they say in one list.";
    const ROLES: &'static [FileRole] = &[FileRole::Release];
    /// The other pages' demos as one release: retrieval records, outcomes, compliance rows,
    /// trials and labels, each routed to its analysis.
    const DEMO: &'static [Demo] = &[
        Demo::new("memories.jsonl", "static/demo/memories.jsonl"),
        Demo::new("queries.jsonl", "static/demo/queries.jsonl"),
        Demo::new("runs.jsonl", "static/demo/runs.jsonl"),
        Demo::new("outcomes.csv", "static/demo/compare/outcomes.csv"),
        Demo::new("compliance.csv", "static/demo/compliance/compliance.csv"),
        Demo::new("trials.jsonl", "static/demo/reclaim/trials.jsonl"),
        Demo::new("labels.csv", "static/demo/labels/labels.csv"),
        Demo::new("README.md", "static/demo/README.md"),
    ];
    crate::capability_types!(
        request: ReleaseRequest, loaded: LoadedRelease, overview: Vec<FileTriage>,
        report: ReleaseReport, table: ReleaseTable
    );

    fn load(files: &[RoleFile], _request: &ReleaseRequest, progress: Progress<'_>) -> Result<LoadedRelease> {
        if files.is_empty() {
            return Err(Error::Empty("no files: give the files, folders or archives of a release".into()));
        }
        progress(Phase::Reading, "opening archives", 0.0);
        let mut out = LoadedRelease::default();
        for f in files {
            match ArchiveKind::of_name(&f.file.name) {
                Some(kind) => {
                    let mut row = FileTriage {
                        file: f.file.name.clone(),
                        bytes: f.file.len() as u64,
                        sha256: f.file.sha256().unwrap_or_default(),
                        shape: kind.describe().to_string(),
                        recognised: Vec::new(),
                        routed: Vec::new(),
                        status: FileStatus::Unpacked,
                        note: String::new(),
                    };
                    match open(&f.file, kind) {
                        Ok(opened) => {
                            row.note = format!("{} files unpacked", opened.files.len());
                            if !opened.skipped.is_empty() {
                                row.note.push_str(&format!(
                                    "; {} entries that are not files passed over: {}",
                                    opened.skipped.len(),
                                    opened.skipped.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
                                ));
                            }
                            out.files.extend(opened.files);
                        }
                        // One archive that cannot be opened is that archive's row, not the release's end.
                        Err(e) => {
                            row.status = FileStatus::NotRead;
                            row.note = e.to_string();
                        }
                    }
                    out.archives.push(row);
                }
                None => out.files.push(f.file.clone()),
            }
        }
        Ok(out)
    }

    fn overview(l: &LoadedRelease) -> Vec<FileTriage> {
        l.archives.clone()
    }

    fn run(l: &LoadedRelease, q: &ReleaseRequest, progress: Progress<'_>) -> Result<ReleaseReport> {
        let only: Vec<Analysis> =
            q.only.iter().filter_map(|n| <Analysis as crate::choice::Choice>::parse(n.trim())).collect();
        let (rows, analyses, (printed, printed_findings)) = triage(&l.files, &only, &q.edits()?, progress)?;
        let mut files = l.archives.clone();
        files.extend(rows);
        files.extend(q.passed_over.iter().map(|p| FileTriage {
            file: p.file.clone(),
            bytes: 0,
            sha256: String::new(),
            shape: "not a file".into(),
            recognised: Vec::new(),
            routed: Vec::new(),
            status: FileStatus::PassedOver,
            note: p.why.clone(),
        }));
        progress(Phase::Analysing, "done", 1.0);
        Ok(ReleaseReport { settings: q.clone(), files, analyses, printed, printed_findings })
    }

    crate::report_views!(table: table, headlines: super::headlines::headlines, text: super::text::render_text);

    /// Each analysis's own report (its headlines and text), or its refusal.
    fn sections(report: &ReleaseReport) -> Vec<(String, String)> {
        report
            .analyses
            .iter()
            .map(|a| (format!("{} \u{2014} {}", a.id, a.title), super::text::analysis_text(a)))
            .collect()
    }

    fn inputs(_overview: &Vec<FileTriage>, report: &ReleaseReport) -> Vec<crate::capability::InputInfo> {
        report
            .files
            .iter()
            .map(|f| crate::capability::InputInfo {
                name: f.file.clone(),
                role: f.status.name().to_string(),
                bytes: f.bytes,
                sha256: f.sha256.clone(),
            })
            .collect()
    }
}
