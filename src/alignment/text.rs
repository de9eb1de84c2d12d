//! The human-readable alignment report (`memaudit alignment --format table`).

use super::analyse::AlignmentReport;

fn f3(v: Option<f64>) -> String {
    v.map_or("-".into(), |x| format!("{x:.3}"))
}

/// Settings, the alignment classes, the coverage confound and run identity.
pub fn render_text(r: &AlignmentReport) -> String {
    let s = &r.settings;
    let mut out = format!(
        "Answer alignment: targets A = {}, B = {} on metric `{}` (a query counts for a target when the metric > 0); strong = score ≥ {}; \
         {} runs; averaging: {}\nCoverage confound: bootstrap over runs, {} resamples, seed {}, confidence {}\nRun identity: {}\n",
        s.target_a,
        s.target_b,
        s.metric,
        s.strong,
        r.runs.len(),
        s.averaging,
        s.bootstrap.resamples,
        s.bootstrap.seed,
        s.bootstrap.confidence,
        s.identity_method
    );
    if r.answers_unmatched > 0 {
        out.push_str(&format!("note: {} answer rows match no retrieval row (not used)\n", r.answers_unmatched));
    }
    for n in &r.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    out.push_str("\n== Alignment (queries eligible under both targets)\n");
    out.push_str(&crate::text_table!(&r.alignment, |a| {
        "group" => a.group.clone(),
        "run" => a.run.clone(),
        "class" => a.class.clone(),
        "n" => a.n.to_string(),
        "scored" => a.scored.to_string(),
        "mean score" => f3(a.mean_score),
        "positive" => f3(a.positive_share),
        "strong" => f3(a.strong_share),
    }));
    out.push_str("\n== Coverage confound (covered − uncovered)\n");
    out.push_str(&crate::text_table!(&r.coverage, |c| {
        "group" => c.group.clone(),
        "run" => c.run.clone(),
        "target" => c.target.clone(),
        "covered by" => c.covered_by.clone(),
        "n cov / uncov" => format!("{} / {}", c.covered_n, c.uncovered_n),
        "covered" => f3(c.covered_mean),
        "uncovered" => f3(c.uncovered_mean),
        "diff" => c.diff.map_or("-".into(), |d| format!("{d:+.3}")),
        "interval" => match (c.low, c.high) {
            (Some(l), Some(h)) => format!("[{l:+.3}, {h:+.3}]"),
            _ => String::new(),
        },
    }));
    out.push_str(&format!("\n== Run identity (identical per-query `{}`)\n", s.identity_metric));
    out.push_str(&crate::text_table!(&r.identity, |i| {
        "runs" => format!("{} ~ {}", i.run_a, i.run_b),
        "target" => i.target.clone(),
        "identical" => format!("{}/{}", i.identical, i.common),
        "share" => f3(i.share),
        "" => if i.flagged { "same run?".into() } else { String::new() },
    }));
    let count = |x: Option<usize>| x.map_or("-".into(), |x| x.to_string());
    out.push_str(&format!(
        "\n== Target shifts (`{}` on the queries eligible under both; large: |Δ| ≥ {}; flips of {})\n",
        s.shift_metric,
        s.shift_threshold,
        if s.flip_metrics.is_empty() { "none".to_string() } else { s.flip_metrics.join(", ") }
    ));
    out.push_str(&crate::text_table!(&r.shifts, |x| {
        "group" => x.group.clone(),
        "run" => x.run.clone(),
        "pair" => format!("{} vs {}", x.target_a, x.target_b),
        "shared" => x.shared.to_string(),
        "hit flips" => count(x.hit_flips),
        "top-1 flips" => count(x.top1_flips),
        "changed" => x.changed.to_string(),
        "rate" => f3(x.change_rate),
        "mean |Δ|" => f3(x.mean_abs_shift),
        "large" => f3(x.large_share),
    }));
    out.push_str(&format!(
        "\n== Target contrasts (`{}` on each run's queries with it under every target; B − A, {}% percentile bootstrap, {} resamples)\n",
        s.shift_metric,
        s.bootstrap.confidence * 100.0,
        s.bootstrap.resamples
    ));
    out.push_str(&crate::text_table!(&r.target_contrasts, |x| {
        "group" => x.group.clone(),
        "run" => x.run.clone(),
        "pair" => format!("{} vs {}", x.target_a, x.target_b),
        "n" => x.n.to_string(),
        "means" => format!("{} vs {}", f3(x.mean_a), f3(x.mean_b)),
        "B − A" => f3(x.diff),
        "interval" => match (x.low, x.high) { (Some(l), Some(h)) => format!("[{l:+.3}, {h:+.3}]"), _ => "-".into() },
    }));
    out.push_str(&format!("\n== Target aggregations: {}\n", s.aggregation_method));
    out.push_str(&crate::text_table!(&r.aggregations, |x| {
        "group" => x.group.clone(),
        "run" => x.run.clone(),
        "method" => x.method.clone(),
        "n" => x.n.to_string(),
        "mean" => f3(x.mean),
        "tau_d" => count(x.tau_d),
    }));
    out.push_str("\n== Winners (the run with the higher mean, per pair of a group's runs and method)\n");
    out.push_str(&crate::text_table!(&r.winners, |x| {
        "group" => x.group.clone(),
        "runs" => format!("{} vs {}", x.run_a, x.run_b),
        "method" => x.method.clone(),
        "means" => format!("{} vs {}", f3(x.mean_a), f3(x.mean_b)),
        "winner" => x.winner.clone(),
    }));
    out
}
