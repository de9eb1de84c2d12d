//! The human-readable ablation analysis (`memaudit ablation --format table`).

use super::{AblationReport, CiRecord};
use crate::report::opt;

fn ci(c: &Option<CiRecord>) -> String {
    c.as_ref().map_or("-".into(), |c| format!("[{:.3}, {:.3}]", c.low, c.high))
}

/// One line per run and subset: pairs, the u histogram, the positive rate, ρ with both
/// intervals and the gate; then the warnings.
pub fn render_text(report: &AblationReport) -> String {
    let mut out =
        format!("gate: {}   ({} resamples, seed {})\n", report.gate, report.settings.bootstrap, report.settings.seed);
    for g in report.groups() {
        let nc = &g.noncircularity;
        out.push_str(&format!(
            "{:<20} {:<16} pairs {:>6}  u=-1/0/+1 {}/{}/{}  positive {:.3}  rho {}  pair {}  query {}  {}\n",
            g.run,
            opt(&g.subset),
            g.rates.pairs,
            g.rates.histogram.harmful,
            g.rates.histogram.neutral,
            g.rates.histogram.helpful,
            g.rates.positive_rate,
            nc.rho.map_or("-".into(), |r| format!("{r:+.3}")),
            ci(&nc.pair_ci),
            ci(&nc.query_ci),
            match nc.passes {
                Some(true) => "pass",
                Some(false) => "BREACH",
                None => "-",
            }
        ));
    }
    for w in report.warnings.iter() {
        out.push_str(&format!("warning: {} ({}): {}\n", w.message, w.count, w.examples.join("; ")));
    }
    out
}
