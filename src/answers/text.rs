//! The human-readable answer rescoring (`memaudit answers --format table`).

use super::AnswerReport;
use crate::report::opt;

/// Means per profile, arm and dataset; the disagreements of every pair of profiles; the diff's
/// rows; the warnings.
pub fn render_text(report: &AnswerReport) -> String {
    let mut out =
        format!("{:<10} {:<20} {:<24} {:>6} {:>8} {:>8}\n", "profile", "arm", "dataset", "n", "mean", "correct");
    for s in &report.summary {
        out.push_str(&format!(
            "{:<10} {:<20} {:<24} {:>6} {:>8.4} {:>8}\n",
            s.profile.name(),
            opt(&s.arm),
            s.dataset.clone().unwrap_or_else(|| "(all)".into()),
            s.n,
            s.mean,
            s.correct
        ));
    }
    for d in &report.disagreements {
        out.push_str(&format!("{} vs {}: {} of {} verdicts differ\n", d.a.name(), d.b.name(), d.verdict_changes, d.n));
    }
    for r in report.diff.iter().flatten() {
        out.push_str(&format!(
            "  {} ({}, line {}): {} {} vs {}\n",
            r.query_id,
            r.file,
            r.line,
            r.a.name(),
            r.score_a,
            r.score_b
        ));
    }
    out.push_str(&report.populations.text());
    for w in report.warnings.iter() {
        out.push_str(&format!("warning: {} ({}): {}\n", w.message, w.count, w.examples.join("; ")));
    }
    out
}
