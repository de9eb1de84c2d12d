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
    /// The file as dropped (an archive's entries as archive/path).
    "file" => |f| f.file.clone(),
    /// Its size in bytes (after gzip is undone for a .gz).
    "bytes" => |f| f.bytes.to_string(),
    /// What it looks like: a table and its columns, a JSON object and its keys, text, binary.
    "shape" => |f| f.shape.clone(),
    /// Every analysis that recognised it: analysis (role, fit): the evidence.
    "recognised" => |f| f
        .recognised
        .iter()
        .map(|r| format!("{} ({}, {}): {}", r.analysis, r.role, r.fit, r.evidence))
        .collect::<Vec<_>>()
        .join("; "),
    /// The analyses it went to.
    "routed" => |f| f.routed.join("; "),
    /// read, refused, needs (a companion without the files it completes), not_read, unpacked (an archive), left_out, passed_over.
    "status" => |f| f.status.to_string(),
    /// What became of it, in words.
    "note" => |f| f.note.clone(),
    /// SHA-256 of its bytes as given.
    "sha256" => |f| f.sha256.clone(),
];

const ANALYSES: &[Column<AnalysisRun>] = &crate::columns![AnalysisRun;
    /// The analysis run, numbered when it runs on several groups.
    "analysis" => |r| r.id.clone(),
    /// What it is.
    "title" => |r| r.title.clone(),
    /// Its files with their roles.
    "files" => |r| r.files.iter().map(|f| format!("{} ({})", f.file, f.role)).collect::<Vec<_>>().join("; "),
    /// Why these files are together.
    "grouping" => |r| r.grouping.clone(),
    /// ran or refused.
    "status" => |r| r.status.to_string(),
    /// How many headlines it says.
    "headlines" => |r| r.headlines.len().to_string(),
    /// Why it refused (empty when it ran).
    "message" => |r| r.message.clone(),
    /// Files it could not read and ran without.
    "left_out" => |r| r.left_out.iter().map(|l| l.file.clone()).collect::<Vec<_>>().join("; "),
];

const PRINTED: &[Column<PrintedRow>] = &crate::columns![PrintedRow;
    /// The printed-numbers file.
    "file" => |p| p.file.clone(),
    /// The analysis run it is checked against.
    "run" => |p| p.run.clone(),
    /// The entry's line in the file.
    "line" => |p| p.check.line.to_string(),
    /// Where the paper prints it (table, row).
    "source" => |p| p.check.source.clone(),
    /// The analysis the entry names.
    "analysis" => |p| p.check.analysis.clone(),
    /// The report table it names.
    "table" => |p| p.check.table.clone(),
    /// The row's keys as written.
    "row" => |p| p.check.row.clone(),
    /// The column it names.
    "column" => |p| p.check.column.clone(),
    /// The number as printed.
    "printed" => |p| p.check.printed.clone(),
    /// The report's cell, in full precision.
    "recomputed" => |p| crate::report::num(p.check.recomputed),
    /// matches, within_rounding (off by one unit in the last printed place), differs, not_computed, other_analysis.
    "verdict" => |p| p.check.verdict.to_string(),
    /// recomputed − printed, on the printed scale (×100 for a percentage).
    "difference" => |p| crate::report::num(p.check.difference),
    /// Why it was not computed, or how it was read.
    "note" => |p| p.check.note.clone(),
    /// For a number that does not match: the conventions under which the data gives the printed value exactly.
    "convention" => |p| p.check.convention.clone(),
];

/// A headline with the analysis it comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct SaidBy {
    pub analysis: String,
    pub headline: crate::headline::Headline,
}

const HEADLINES: &[Column<SaidBy>] = &crate::columns![SaidBy;
    /// The analysis that says it.
    "analysis" => |h| h.analysis.clone(),
    /// alert (a conclusion does not hold as stated), finding (a result to weigh), or context.
    "level" => |h| h.headline.level.to_string(),
    /// What it says.
    "text" => |h| h.headline.text.clone(),
    /// The numbers behind it.
    "evidence" => |h| h.headline.evidence.clone(),
    /// The analysis's table that holds them.
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
