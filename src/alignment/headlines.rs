//! What an alignment audit says, first: runs that look like the same run, the coverage confound
//! when its interval over runs excludes 0, and how answers differ between the A-only and B-only
//! queries.

use super::analyse::AlignmentReport;
use super::table::AlignmentTable;
use crate::headline::Headline;

/// The headlines of an alignment report (unranked).
pub fn headlines(r: &AlignmentReport) -> Vec<Headline> {
    let s = &r.settings;
    let mut hs = r.populations.headlines(AlignmentTable::Populations, AlignmentTable::Populations);
    let mut same: Vec<(String, String, Vec<String>)> = Vec::new();
    for i in r.identity.iter().filter(|i| i.flagged) {
        match same.iter_mut().find(|(a, b, _)| *a == i.run_a && *b == i.run_b) {
            Some(entry) => entry.2.push(i.target.clone()),
            None => same.push((i.run_a.clone(), i.run_b.clone(), vec![i.target.clone()])),
        }
    }
    for (a, b, _) in same.iter().take(4) {
        hs.push(Headline::alert(
            format!("{a} and {b} have identical per-query {}: the same run under two names?", s.identity_metric),
            format!(
                "share of identical `{}` ≥ {} over every (query, target) both runs have",
                s.identity_metric, s.identity_threshold
            ),
            AlignmentTable::Identity,
        ));
    }
    if same.len() > 4 {
        hs.push(Headline::alert(
            format!("{} more run pairs have identical per-query metrics", same.len() - 4),
            "see the identity table".to_string(),
            AlignmentTable::Identity,
        ));
    }
    for c in r.coverage.iter().filter(|c| c.run == "mean_of_runs") {
        if let (Some(d), Some(l), Some(h)) = (c.diff, c.low, c.high) {
            let excludes = l > 0.0 || h < 0.0;
            hs.push(Headline::new(
                if excludes { crate::headline::Level::Finding } else { crate::headline::Level::Context },
                format!(
                    "{} {} on the queries {} covers than on the others: {d:+.3} [{l:+.3}, {h:+.3}]",
                    c.target,
                    if excludes { if d > 0.0 { "scores higher" } else { "scores lower" } } else { "scores about the same" },
                    c.covered_by
                ),
                format!(
                    "mean over {} runs of covered − uncovered {}, {}% bootstrap over runs ({} resamples, seed {}): a coverage confound when it excludes 0",
                    r.runs.len(),
                    s.metric,
                    s.bootstrap.confidence * 100.0,
                    s.bootstrap.resamples,
                    s.bootstrap.seed
                ),
                Some(AlignmentTable::Coverage.name()),
            ));
        }
    }
    let of = |class: &str| r.alignment.iter().find(|a| a.run == "mean_of_runs" && a.class == class);
    if let (Some(a), Some(b)) = (of("a_only"), of("b_only"))
        && let (Some(fa), Some(fb)) = (a.mean_score, b.mean_score)
    {
        hs.push(Headline::finding(
            format!(
                "Queries only {} credits answer {} than those only {} credits: mean score {fa:.3} vs {fb:.3}",
                s.target_a,
                if fa >= fb { "better" } else { "worse" },
                s.target_b
            ),
            format!(
                "mean of per-run means over {} runs; {}-only n = {}, {}-only n = {}; strong (≥ {}) {:.3} vs {:.3}; no interval: per-run means",
                r.runs.len(),
                s.target_a,
                a.n,
                s.target_b,
                b.n,
                s.strong,
                a.strong_share.unwrap_or(f64::NAN),
                b.strong_share.unwrap_or(f64::NAN)
            ),
            AlignmentTable::Alignment,
        ));
    }
    for n in &r.notes {
        hs.push(Headline::finding(n.clone(), "see the reading notes".to_string(), AlignmentTable::Alignment));
    }
    hs
}
