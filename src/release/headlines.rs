//! What a release says: what was read and run, then every analysis's headlines, each naming
//! its analysis and files.

use super::table::{ReleaseTable, said};
use super::triage::{FileStatus, ReleaseReport, RunStatus};
use crate::headline::Headline;

/// The headlines of a release audit (unranked).
pub fn headlines(r: &ReleaseReport) -> Vec<Headline> {
    let mut hs = Vec::new();
    let count = |s: FileStatus| r.files.iter().filter(|f| f.status == s).count();
    let ran: Vec<&str> = r.analyses.iter().filter(|a| a.status == RunStatus::Ran).map(|a| a.id.as_str()).collect();
    hs.push(Headline::context(
        format!(
            "{} files: {} read, {} refused, {} waiting for the files they complete, {} not read{}{}; {} analyses ran{}",
            r.files.len() - count(FileStatus::Unpacked) - count(FileStatus::PassedOver),
            count(FileStatus::Read),
            count(FileStatus::Refused),
            count(FileStatus::Needs),
            count(FileStatus::NotRead),
            match count(FileStatus::LeftOut) {
                0 => String::new(),
                n => format!(", {n} left out by the settings"),
            },
            match count(FileStatus::PassedOver) {
                0 => String::new(),
                n => format!(" ({n} folder entries that are not files passed over)"),
            },
            ran.len(),
            if ran.is_empty() { String::new() } else { format!(" ({})", ran.join(", ")) }
        ),
        "each file routed by its content to every analysis that recognises it",
        ReleaseTable::Files,
    ));
    for a in r.analyses.iter().filter(|a| a.status == RunStatus::Refused) {
        hs.push(Headline::finding(
            format!("{} refused {}: {}", a.id, files_of(a), a.message),
            a.grouping.clone(),
            ReleaseTable::Analyses,
        ));
    }
    for a in r.analyses.iter().filter(|a| !a.left_out.is_empty()) {
        let names: Vec<&str> = a.left_out.iter().map(|l| l.file.rsplit('/').next().unwrap_or(&l.file)).collect();
        hs.push(Headline::finding(
            format!("{} could not read {} of its files and ran without them: {}", a.id, names.len(), shorten(&names)),
            a.left_out.iter().map(|l| l.message.as_str()).take(2).collect::<Vec<_>>().join("; "),
            ReleaseTable::Files,
        ));
    }
    let unread: Vec<&str> = r
        .files
        .iter()
        .filter(|f| f.status == FileStatus::NotRead && !f.note.starts_with("not data"))
        .map(|f| f.file.as_str())
        .collect();
    if !unread.is_empty() {
        hs.push(Headline::finding(
            format!("{} file(s) no analysis reads: {}", unread.len(), shorten(&unread)),
            "each listed with what it looks like and what the analyses of its shape need",
            ReleaseTable::Files,
        ));
    }
    let omitted: Vec<&str> = r.analyses.iter().filter(|a| a.report_omitted.is_some()).map(|a| a.id.as_str()).collect();
    if !omitted.is_empty() {
        hs.push(Headline::finding(
            format!("{} analyses' JSON reports are not embedded in this report: {}", omitted.len(), shorten(&omitted)),
            format!(
                "together they pass the {} a release's reports may take; each one's text, headlines and printed \
                 checks are kept, and its `report_omitted` names the command that gives its JSON report",
                crate::report::bytes(super::triage::EMBEDDED_REPORTS as u64)
            ),
            ReleaseTable::Analyses,
        ));
    }
    hs.extend(copies(r));
    hs.extend(namesakes(r));
    for s in said(r) {
        let a = r.analyses.iter().find(|a| a.id == s.analysis);
        let who = a.map_or(s.analysis.clone(), |a| format!("{} ({})", a.id, files_of(a)));
        hs.push(Headline {
            level: s.headline.level,
            text: format!("{who}: {}", s.headline.text),
            evidence: s.headline.evidence.clone(),
            table: Some(ReleaseTable::Headlines.name().to_string()),
        });
    }
    if !r.printed.is_empty() || !r.printed_findings.is_empty() {
        let check = crate::printed::PrintedCheck {
            analysis: crate::capability::Analysis::Audit,
            rows: r.printed.iter().map(|p| p.check.clone()).collect(),
            findings: r.printed_findings.clone(),
        };
        hs.extend(crate::printed::table::headlines(&check));
    }
    hs
}

/// The hashed files that went to an analysis (an archive's own row and files nothing reads
/// repeat no result).
fn analysed(r: &ReleaseReport) -> impl Iterator<Item = &super::triage::FileTriage> {
    r.files.iter().filter(|f| !f.sha256.is_empty() && f.status != FileStatus::Unpacked && !f.routed.is_empty())
}

/// Files whose bytes are those of another file of the release (same SHA-256): each copy is
/// read and analysed on its own, so the same results appear once per copy, not a second system.
/// Only files that went to an analysis count: copies nothing reads (a package's empty
/// `__init__.py` files) repeat no result.
fn copies(r: &ReleaseReport) -> Vec<Headline> {
    let same: Vec<Vec<&str>> = crate::distinct::groups_first_seen(analysed(r), |f| f.sha256.as_str())
        .into_iter()
        .filter(|(_, files)| files.len() > 1)
        .map(|(_, files)| files.iter().map(|f| f.file.as_str()).collect())
        .collect();
    if same.is_empty() {
        return Vec::new();
    }
    let copies: usize = same.iter().map(|names| names.len() - 1).sum();
    let groups: Vec<String> = same.iter().map(|names| names.join(" = ")).collect();
    // A caveat on the data, ranked with the findings: the copies' repeated headlines follow it.
    vec![Headline::finding(
        format!(
            "{copies} file(s) are byte-for-byte copies of another file of the release: each copy is read on its own, so its results repeat"
        ),
        format!("same SHA-256: {}", crate::headline::some_of(&groups, 3)),
        ReleaseTable::Files,
    )]
}

/// Files read by an analysis that share their name and size with another such file but not
/// their bytes (EverMemOS ships two `locomo10.json` of 2,805,255 bytes that differ in one image
/// URL): two analyses of nearly the same input, whose results may differ only by that edit.
fn namesakes(r: &ReleaseReport) -> Vec<Headline> {
    let base = |f: &&super::triage::FileTriage| f.file.rsplit(['/', '\\']).next().unwrap_or(&f.file).to_string();
    let groups: Vec<Vec<&str>> = crate::distinct::groups_first_seen(analysed(r), |f| (base(f), f.bytes))
        .into_iter()
        .filter(|(_, files)| files.iter().any(|f| f.sha256 != files[0].sha256))
        .map(|(_, files)| files.iter().map(|f| f.file.as_str()).collect())
        .collect();
    if groups.is_empty() {
        return Vec::new();
    }
    let shown: Vec<String> = groups.iter().map(|g| g.join(" ~ ")).collect();
    vec![Headline::finding(
        format!(
            "{} of the same name and size but other bytes: each is analysed on its own, its results may differ only by an edit",
            crate::headline::count(groups.len(), "group of files is", "groups of files are")
        ),
        format!("same name and size, another SHA-256: {}", crate::headline::some_of(&shown, 3)),
        ReleaseTable::Files,
    )]
}

/// An analysis's files, shortened: `a.csv`, `a.csv and 3 more`.
fn files_of(a: &super::triage::AnalysisRun) -> String {
    let names: Vec<&str> = a.files.iter().map(|f| f.file.rsplit('/').next().unwrap_or(&f.file)).collect();
    shorten(&names)
}

fn shorten(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [first, rest @ ..] => format!("{first} and {} more", rest.len()),
    }
}
