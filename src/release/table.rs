//! The tables of a release audit (`memaudit audit --format csv --table NAME`).

use super::triage::{AnalysisRun, FileTriage, PrintedRow, ReleaseReport};
use crate::report::{Column, Table};

crate::choice! {
    /// The tables of a release audit.
    pub enum ReleaseTable {
        /// Every file: its shape, what recognised it, where it went and what became of it.
        Files,
        /// Every analysis run: its files, why they are together, and how it ended.
        Analyses,
        /// What every analysis says, most severe first, each naming its analysis.
        Headlines,
        /// Each printed number of the release's printed-numbers files against the run that holds
        /// it (`memaudit verify --printed`'s columns, with the file and the run).
        Printed,
    }
}

const FILES: &[Column<FileTriage>] = &crate::columns![FileTriage;
    "file" => |f| f.file.clone(),
    "bytes" => |f| f.bytes.to_string(),
    "shape" => |f| f.shape.clone(),
    "recognised" => |f| f
        .recognised
        .iter()
        .map(|r| format!("{} ({}, {}): {}", r.analysis, r.role, r.fit, r.evidence))
        .collect::<Vec<_>>()
        .join("; "),
    "routed" => |f| f.routed.join("; "),
    "status" => |f| f.status.to_string(),
    "note" => |f| f.note.clone(),
    "sha256" => |f| f.sha256.clone(),
];

const ANALYSES: &[Column<AnalysisRun>] = &crate::columns![AnalysisRun;
    "analysis" => |r| r.id.clone(),
    "title" => |r| r.title.clone(),
    "files" => |r| r.files.iter().map(|f| format!("{} ({})", f.file, f.role)).collect::<Vec<_>>().join("; "),
    "grouping" => |r| r.grouping.clone(),
    "status" => |r| r.status.to_string(),
    "headlines" => |r| r.headlines.len().to_string(),
    "message" => |r| r.message.clone(),
    "left_out" => |r| r.left_out.iter().map(|l| l.file.clone()).collect::<Vec<_>>().join("; "),
];

const PRINTED: &[Column<PrintedRow>] = &crate::columns![PrintedRow;
    "file" => |p| p.file.clone(),
    "run" => |p| p.run.clone(),
    "line" => |p| p.check.line.to_string(),
    "source" => |p| p.check.source.clone(),
    "analysis" => |p| p.check.analysis.clone(),
    "table" => |p| p.check.table.clone(),
    "row" => |p| p.check.row.clone(),
    "column" => |p| p.check.column.clone(),
    "printed" => |p| p.check.printed.clone(),
    "recomputed" => |p| crate::report::num(p.check.recomputed),
    "verdict" => |p| p.check.verdict.to_string(),
    "difference" => |p| crate::report::num(p.check.difference),
    "note" => |p| p.check.note.clone(),
    "convention" => |p| p.check.convention.clone(),
];

/// A headline with the analysis it comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct SaidBy {
    pub analysis: String,
    pub headline: crate::headline::Headline,
}

const HEADLINES: &[Column<SaidBy>] = &crate::columns![SaidBy;
    "analysis" => |h| h.analysis.clone(),
    "level" => |h| h.headline.level.to_string(),
    "text" => |h| h.headline.text.clone(),
    "evidence" => |h| h.headline.evidence.clone(),
    "table" => |h| h.headline.table.clone().unwrap_or_default(),
];

/// Every analysis's headlines, most severe first (stable within a level: the analyses' order).
pub fn said(r: &ReleaseReport) -> Vec<SaidBy> {
    let mut all: Vec<SaidBy> = r
        .analyses
        .iter()
        .flat_map(|a| a.headlines.iter().map(|h| SaidBy { analysis: a.id.clone(), headline: h.clone() }))
        .collect();
    all.sort_by_key(|s| s.headline.level);
    all
}

/// One table of a release audit.
pub fn table(r: &ReleaseReport, which: ReleaseTable) -> Table {
    match which {
        ReleaseTable::Files => Table::of(which.name(), FILES, &r.files),
        ReleaseTable::Analyses => Table::of(which.name(), ANALYSES, &r.analyses),
        ReleaseTable::Headlines => Table::of(which.name(), HEADLINES, &said(r)),
        ReleaseTable::Printed => Table::of(which.name(), PRINTED, &r.printed),
    }
}
