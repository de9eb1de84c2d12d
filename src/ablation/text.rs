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
    if !report.specialist.is_empty() {
        out.push_str("specialist diagnostics (y from u; score above the threshold predicts y = 1):\n");
    }
    let f = |x: Option<f64>| x.map_or("-".into(), |v| format!("{v:.3}"));
    for d in &report.specialist {
        let auc = d.auroc.as_ref();
        out.push_str(&format!(
            "{:<20} {:<16} pairs {:>6}  +/- {}/{}  pos_weight {}  median +/- {}/{}  AUROC {} [{}, {}]  F1 {} vs all-positive {}  rho(score, retrieval) {}\n",
            d.run,
            opt(&d.split),
            d.pairs,
            d.positives,
            d.negatives,
            f(d.pos_weight),
            f(d.positive_median),
            f(d.negative_median),
            f(auc.map(|a| a.auc)),
            f(auc.and_then(|a| a.low)),
            f(auc.and_then(|a| a.high)),
            f(d.f1),
            f(d.all_positive_f1),
            f(d.rho_retrieval),
        ));
    }
    for w in report.warnings.iter() {
        out.push_str(&format!("warning: {} ({}): {}\n", w.message, w.count, w.examples.join("; ")));
    }
    out
}
