//! The human-readable rules evaluation (`memaudit rules --format table`).

use super::RulesReport;

/// One line per rule (outcome, margin, temporal status), then the counts.
pub fn render_text(report: &RulesReport) -> String {
    let mut out = String::new();
    for v in &report.verdicts {
        let (id, kind, outcome, status) = (&v.rule_id, &v.kind, &v.outcome, &v.temporal.status);
        let margin = v.margin.map_or("-".into(), |m| format!("{m:+.4}"));
        let error = v.error.as_ref().map(|e| format!(" — {e}")).unwrap_or_default();
        out.push_str(&format!("{id:<28} {kind:<10} {outcome:<28} margin {margin:>10}  {status}{error}\n"));
    }
    out.push_str(&format!(
        "{} fired, {} not fired, {} errors, {} registered after their data\n",
        report.fired, report.not_fired, report.errors, report.registered_after_data
    ));
    if !report.exclusions.is_empty() {
        out.push_str(&format!(
            "\nexclusion ledger: {} exclusions, {} decided after the results they affect\n",
            report.exclusions.len(),
            report.exclusions_after_results
        ));
        for e in &report.exclusions {
            out.push_str(&format!(
                "  {:<28} {:<15} {}; affects {}; {}\n",
                e.item,
                e.status,
                e.timeline(),
                if e.affects.is_empty() { "-".to_string() } else { e.affects.join(", ") },
                e.reason
            ));
        }
    }
    out
}
