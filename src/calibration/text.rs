//! The human-readable calibration report (`memaudit calibration --format table`).

use super::analyse::CalibrationReport;
use crate::report::render_columns;

fn f4(v: Option<f64>) -> String {
    v.map_or("-".into(), |x| format!("{x:.4}"))
}

/// Settings, the ledger, the AUC, the bins, the sweep and the calibration rows.
pub fn render_text(r: &CalibrationReport) -> String {
    let s = &r.settings;
    let mut out = format!(
        "Routing and calibration: {} items ({} rows left out: no confidence or outcome)\n\
         Settings: scale {}; ECE {} equal-width bins; accuracy in {} equal-count bins; AUC on {} items; route when the \
         confidence is {} tau; {}% intervals (AUC DeLong, accuracies Wilson); Platt fitted on {}; quantiles {}\n",
        r.items,
        r.missing.count,
        s.scale,
        s.ece_bins,
        s.accuracy_bins,
        s.auc_population,
        if s.route == super::Route::Below { "below" } else { "at least" },
        s.confidence_level * 100.0,
        if s.fit.is_empty() { "nothing (no --fit)".to_string() } else { s.fit.join(", ") },
        s.quantiles
    );
    for n in &r.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    out.push_str("\n== Help / hurt\n");
    let rows: Vec<Vec<String>> = r
        .ledger
        .iter()
        .map(|l| {
            vec![
                l.population.clone(),
                l.n.to_string(),
                l.help.to_string(),
                l.hurt.to_string(),
                f4(l.delta_accuracy),
                f4(l.accuracy_without),
                f4(l.accuracy_with),
            ]
        })
        .collect();
    out.push_str(&render_columns(&["population", "n", "help", "hurt", "delta acc", "acc without", "acc with"], &rows));
    match (&r.auc, &r.auc_note) {
        (Some(a), _) => out.push_str(&format!(
            "\nAUC of the confidence, help vs hurt: {:.4} [{}, {}] (DeLong), {} helps, {} hurts\n",
            a.auc,
            f4(a.low),
            f4(a.high),
            a.positives,
            a.negatives
        )),
        (None, Some(n)) => out.push_str(&format!("\nAUC of the confidence, help vs hurt: none ({n})\n")),
        _ => {}
    }
    out.push_str("\n== Accuracy per confidence bin\n");
    let rows: Vec<Vec<String>> = r
        .bins
        .iter()
        .map(|b| {
            vec![
                b.bin.to_string(),
                format!("[{:.4}, {:.4}]", b.confidence_low, b.confidence_high),
                b.n.to_string(),
                format!("{:.4} [{}, {}]", b.accuracy_without, f4(b.without_low), f4(b.without_high)),
                format!("{} [{}, {}]", f4(b.accuracy_with), f4(b.with_low), f4(b.with_high)),
                f4(b.applied_share),
            ]
        })
        .collect();
    out.push_str(&render_columns(&["bin", "confidence", "n", "acc without", "acc with", "applied"], &rows));
    if !r.sweep.is_empty() {
        out.push_str("\n== Routing threshold sweep\n");
        let rows: Vec<Vec<String>> = r
            .sweep
            .iter()
            .map(|w| {
                vec![
                    format!("p{}", w.percentile),
                    format!("{:.4}", w.tau),
                    format!("{:.4}", w.inject_fraction),
                    format!("{:.4}", w.accuracy),
                    format!("{:+.4}", w.delta),
                    format!("{}/{}", w.help, w.hurt),
                ]
            })
            .collect();
        out.push_str(&render_columns(&["percentile", "tau", "inject", "accuracy", "delta", "help/hurt"], &rows));
    }
    if !r.calibration.is_empty() {
        out.push_str("\n== Calibration\n");
        let rows: Vec<Vec<String>> = r
            .calibration
            .iter()
            .map(|c| vec![c.method.clone(), c.split.clone(), c.n.to_string(), f4(c.ece), f4(c.brier), f4(c.log_loss)])
            .collect();
        out.push_str(&render_columns(&["method", "split", "n", "ECE", "Brier", "log loss"], &rows));
        if let Some(p) = &r.platt {
            out.push_str(&format!(
                "Platt: p = 1/(1 + exp(-({:.6}·c + {:.6}))), fitted on {} ({} items, {} Newton steps)\n",
                p.a,
                p.b,
                p.fit_on.join(", "),
                p.n,
                p.iterations
            ));
        }
    }
    out.push_str(&r.populations.text());
    out
}
