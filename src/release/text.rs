//! The human-readable release audit (`memaudit audit --format table`): the files, the analyses,
//! then each analysis's own report.

use super::triage::{AnalysisRun, ReleaseReport, RunStatus};

/// Files, analyses, then each analysis's report under its heading.
pub fn render_text(r: &ReleaseReport) -> String {
    let mut out = format!(
        "Release: {} files, {} analyses run ({} refused)\n\nFiles\n",
        r.files.len(),
        r.analyses.iter().filter(|a| a.status == RunStatus::Ran).count(),
        r.analyses.iter().filter(|a| a.status == RunStatus::Refused).count()
    );
    out.push_str(&crate::text_table!(&r.files, |f| {
        "file" => f.file.clone(),
        "status" => f.status.to_string(),
        "routed" => f.routed.join(", "),
        "note" => f.note.clone(),
    }));
    out.push_str("\nAnalyses\n");
    out.push_str(&crate::text_table!(&r.analyses, |a| {
        "analysis" => a.id.clone(),
        "status" => a.status.to_string(),
        "files" => a.files.len().to_string(),
        "grouping" => a.grouping.clone(),
    }));
    for a in &r.analyses {
        out.push_str(&format!("\n== {} ({}) ==\n", a.id, a.title));
        out.push_str(&analysis_text(a));
    }
    out
}

/// One analysis of a release: its files, why they are together, what was left out, then its
/// headlines and its own text report (or its refusal). The text report's section and the report
/// to attach's ([`crate::capability::Capability::sections`]).
pub fn analysis_text(a: &AnalysisRun) -> String {
    let names: Vec<&str> = a.files.iter().map(|f| f.file.as_str()).collect();
    let mut out = format!("Files: {}\nTogether: {}\n", names.join(", "), a.grouping);
    for l in &a.left_out {
        out.push_str(&format!("Left out (could not be read): {}\n", l.message));
    }
    match a.status {
        RunStatus::Refused => out.push_str(&format!("Refused: {}\n", a.message)),
        RunStatus::Ran => {
            out.push_str(&crate::headline::render_text(&a.headlines));
            out.push_str(&a.text);
            if !a.text.ends_with('\n') {
                out.push('\n');
            }
        }
    }
    out
}
