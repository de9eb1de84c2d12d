//! The human-readable claims check (`memaudit claims --format table`).

use super::ClaimsReport;
use crate::report::opt;

/// One line per claim with its verdict, the counts, the linter's findings, the warnings and the
/// K-sweep's paired deltas.
pub fn render_text(report: &ClaimsReport) -> String {
    let mut out = String::new();
    for c in &report.claims {
        out.push_str(&format!(
            "{:<24} {:<16} reported {:>10} recomputed {:>10}  {}{}\n",
            c.claim_id,
            serde_name(&c.kind),
            c.reported.map_or_else(|| opt(&c.reported_text), |v| v.to_string()),
            c.recomputed.map_or_else(|| opt(&c.recomputed_text), |v| format!("{v:.4}")),
            serde_name(&c.verdict),
            if c.reason.is_empty() { String::new() } else { format!(" — {}", c.reason) }
        ));
    }
    let n = &report.counts;
    if !report.claims.is_empty() {
        out.push_str(&format!(
            "{} matches, {} within rounding, {} differ, {} cannot be computed\n",
            n.matches, n.within_rounding, n.differs, n.cannot_compute
        ));
    }
    for f in &report.findings {
        out.push_str(&format!("{} [{}] {}: {}\n", serde_name(&f.kind), opt(&f.table), f.row, f.message));
    }
    for w in report.warnings.iter() {
        out.push_str(&format!("warning: {} ({}): {}\n", w.message, w.count, w.examples.join("; ")));
    }
    if let Some(s) = &report.sweep {
        for d in &s.deltas {
            out.push_str(&format!(
                "delta {}−{} {} k={}: {:+.4} [{:+.4}, {:+.4}] n={} {}\n",
                d.a,
                d.b,
                opt(&d.dataset),
                d.k.map_or("-".into(), |k| k.to_string()),
                d.stats.delta,
                d.stats.ci_low,
                d.stats.ci_high,
                d.stats.n_shared,
                serde_name(&d.stats.label)
            ));
        }
    }
    out
}

/// A value as the JSON report and `docs/formats.md` name it (`within_rounding`, `off_grid`), never
/// its Rust name.
fn serde_name<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_and_findings_are_named_as_the_json_names_them() {
        assert_eq!(serde_name(&super::super::check::Verdict::WithinRounding), "within_rounding");
        assert_eq!(serde_name(&crate::printed::lint::LintKind::OffGrid), "off_grid");
    }
}
