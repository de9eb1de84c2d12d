//! The human-readable answer rescoring (`memaudit answers --format table`).

use super::AnswerReport;
use crate::report::opt;

/// Means per profile, arm and dataset; the disagreements of every pair of profiles; the files'
/// own scores against each profile; the diff's rows; the warnings.
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
    for c in &report.stated {
        let how = match c.kind {
            super::StatedKind::Verdict => format!(
                "agree on {} of {} (kappa {})",
                c.agree,
                c.n,
                c.kappa.map(|k| format!("{k:.4}")).unwrap_or_else(|| "undefined".into())
            ),
            super::StatedKind::Score => {
                format!("equal on {} of {}, mean |diff| {:.4}", c.agree, c.n, c.mean_abs_difference.unwrap_or(0.0))
            }
        };
        out.push_str(&format!(
            "stated {} ({}) {} vs {}: {:.4} vs {:.4} (correct {:.4}); {how}\n",
            c.column,
            c.kind.name(),
            opt(&c.arm),
            c.profile.name(),
            c.stated_mean,
            c.profile_mean,
            c.profile_correct_rate
        ));
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
