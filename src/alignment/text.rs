//! The human-readable alignment report (`memaudit alignment --format table`).

use super::analyse::AlignmentReport;
use crate::report::render_columns;

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
    let rows: Vec<Vec<String>> = r
        .alignment
        .iter()
        .map(|a| {
            vec![
                a.run.clone(),
                a.class.clone(),
                a.n.to_string(),
                a.scored.to_string(),
                f3(a.mean_score),
                f3(a.positive_share),
                f3(a.strong_share),
            ]
        })
        .collect();
    out.push_str(&render_columns(&["run", "class", "n", "scored", "mean score", "positive", "strong"], &rows));
    out.push_str("\n== Coverage confound (covered − uncovered)\n");
    let rows: Vec<Vec<String>> = r
        .coverage
        .iter()
        .map(|c| {
            vec![
                c.run.clone(),
                c.target.clone(),
                c.covered_by.clone(),
                format!("{} / {}", c.covered_n, c.uncovered_n),
                f3(c.covered_mean),
                f3(c.uncovered_mean),
                c.diff.map_or("-".into(), |d| format!("{d:+.3}")),
                match (c.low, c.high) {
                    (Some(l), Some(h)) => format!("[{l:+.3}, {h:+.3}]"),
                    _ => String::new(),
                },
            ]
        })
        .collect();
    out.push_str(&render_columns(
        &["run", "target", "covered by", "n cov / uncov", "covered", "uncovered", "diff", "interval"],
        &rows,
    ));
    out.push_str(&format!("\n== Run identity (identical per-query `{}`)\n", s.identity_metric));
    let rows: Vec<Vec<String>> = r
        .identity
        .iter()
        .map(|i| {
            vec![
                format!("{} ~ {}", i.run_a, i.run_b),
                i.target.clone(),
                format!("{}/{}", i.identical, i.common),
                f3(i.share),
                if i.flagged { "same run?".into() } else { String::new() },
            ]
        })
        .collect();
    out.push_str(&render_columns(&["runs", "target", "identical", "share", ""], &rows));
    out
}
