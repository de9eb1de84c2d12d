//! The human-readable calibration report (`memaudit calibration --format table`).

use super::analyse::CalibrationReport;

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
        if s.fit.is_empty() { "nothing (`fit` not stated)".to_string() } else { s.fit.join(", ") },
        s.quantiles
    );
    for n in &r.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    out.push_str("\n== Help / hurt\n");
    out.push_str(&crate::text_table!(&r.ledger, |l| {
        "population" => l.population.clone(),
        "n" => l.n.to_string(),
        "help" => l.help.to_string(),
        "hurt" => l.hurt.to_string(),
        "delta acc" => f4(l.delta_accuracy),
        "acc without" => f4(l.accuracy_without),
        "acc with" => f4(l.accuracy_with),
    }));
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
    out.push_str(&crate::text_table!(&r.bins, |b| {
        "bin" => b.bin.to_string(),
        "confidence" => format!("[{:.4}, {:.4}]", b.confidence_low, b.confidence_high),
        "n" => b.n.to_string(),
        "acc without" => format!("{:.4} [{}, {}]", b.accuracy_without, f4(b.without_low), f4(b.without_high)),
        "acc with" => format!("{} [{}, {}]", f4(b.accuracy_with), f4(b.with_low), f4(b.with_high)),
        "applied" => f4(b.applied_share),
    }));
    if !r.sweep.is_empty() {
        out.push_str("\n== Routing threshold sweep\n");
        out.push_str(&crate::text_table!(&r.sweep, |w| {
            "percentile" => format!("p{}", w.percentile),
            "tau" => format!("{:.4}", w.tau),
            "inject" => format!("{:.4}", w.inject_fraction),
            "accuracy" => format!("{:.4}", w.accuracy),
            "delta" => format!("{:+.4}", w.delta),
            "help/hurt" => format!("{}/{}", w.help, w.hurt),
        }));
    }
    if !r.calibration.is_empty() {
        out.push_str("\n== Calibration\n");
        out.push_str(&crate::text_table!(&r.calibration, |c| {
            "method" => c.method.clone(),
            "split" => c.split.clone(),
            "n" => c.n.to_string(),
            "ECE" => f4(c.ece),
            "Brier" => f4(c.brier),
            "log loss" => f4(c.log_loss),
        }));
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
    if let Some(g) = &r.governance {
        out.push_str(&format!(
            "\n== Bank governance (\u{3b4} = {}, {} radius; evidence from {}; {} of {} rows naming entries used)\n",
            g.delta,
            g.radius.name(),
            if g.splits.is_empty() { "every row".to_string() } else { g.splits.join(", ") },
            g.rows_used,
            g.rows_with_entries
        ));
        out.push_str(&crate::text_table!(&g.entries, |e| {
            "entry" => e.entry.clone(),
            "n" => e.n.to_string(),
            "helps" => e.helps.to_string(),
            "hurts" => e.hurts.to_string(),
            "mean" => format!("{:+.4}", e.mean),
            "ucb" => format!("{:+.4}", e.ucb),
            "retired" => e.retired.to_string(),
            "retired (other radius)" => e.retired_other.to_string(),
        }));
    }
    out
}
