//! What an alignment audit says, first: runs that look like the same run, the coverage confound
//! when its interval over runs excludes 0, and how answers differ between the A-only and B-only
//! queries.

use super::analyse::{AlignmentReport, CLASSES};
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
    // The runs of each group (the means over runs are within a group), counted once.
    let mut runs_of: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for a in r.alignment.iter().filter(|a| a.class == CLASSES[0] && a.run != "mean_of_runs" && a.run != "pooled") {
        *runs_of.entry(a.group.as_str()).or_default() += 1;
    }
    let runs_in = |group: &str| runs_of.get(group).copied().unwrap_or(0);
    let of_group = |group: &str| if group.is_empty() { String::new() } else { format!(" ({group})") };
    for c in r.coverage.iter().filter(|c| c.run == "mean_of_runs" || c.run == "mean_of_all_runs") {
        let all = c.run == "mean_of_all_runs";
        if let (Some(d), Some(l), Some(h)) = (c.diff, c.low, c.high) {
            let excludes = l > 0.0 || h < 0.0;
            hs.push(Headline::new(
                if excludes && !all { crate::headline::Level::Finding } else { crate::headline::Level::Context },
                format!(
                    "{} {} on the queries {} covers than on the others{}: {d:+.3} [{l:+.3}, {h:+.3}]",
                    c.target,
                    if excludes { if d > 0.0 { "scores higher" } else { "scores lower" } } else { "scores about the same" },
                    c.covered_by,
                    if all { " (every run, of every group)".to_string() } else { of_group(&c.group) },
                ),
                format!(
                    "mean over {} runs{} of covered − uncovered {}, {}% bootstrap over runs ({} resamples, seed {}): a coverage confound when it excludes 0",
                    if all { r.runs.len() } else { runs_in(&c.group) },
                    if all {
                        " of every group (each run's gap is within the run)".to_string()
                    } else if c.group.is_empty() {
                        String::new()
                    } else {
                        format!(" of {}", c.group)
                    },
                    s.metric,
                    s.bootstrap.confidence * 100.0,
                    s.bootstrap.resamples,
                    s.bootstrap.seed
                ),
                Some(AlignmentTable::Coverage.name()),
            ));
        }
    }
    // Each group's mean-of-runs rows by class, in the groups' order.
    let means: std::collections::HashMap<(&str, &str), &super::analyse::AlignmentRow> = r
        .alignment
        .iter()
        .filter(|a| a.run == "mean_of_runs")
        .map(|a| ((a.group.as_str(), a.class.as_str()), a))
        .collect();
    let groups =
        crate::distinct::first_seen(r.alignment.iter().filter(|a| a.run == "mean_of_runs").map(|a| a.group.as_str()));
    for g in groups {
        if let (Some(a), Some(b)) = (means.get(&(g, CLASSES[0])), means.get(&(g, CLASSES[1])))
            && let (Some(fa), Some(fb)) = (a.mean_score, b.mean_score)
        {
            hs.push(Headline::finding(
                format!(
                    "Queries only {} credits answer {} than those only {} credits{}: mean score {fa:.3} vs {fb:.3}",
                    s.target_a,
                    if fa >= fb { "better" } else { "worse" },
                    s.target_b,
                    of_group(g),
                ),
                format!(
                    "mean of per-run means over {} runs{}; {}-only n = {}, {}-only n = {}; strong (≥ {}) {:.3} vs {:.3}; no interval: per-run means",
                    runs_in(g),
                    if g.is_empty() { String::new() } else { format!(" of {g}") },
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
    }
    // Target shifts: how often switching A → B changes a run's metric, over the runs.
    let of_pair: Vec<&crate::alignment::shift::ShiftRow> =
        r.shifts.iter().filter(|x| x.run != "pooled" && x.target_a == s.target_a && x.target_b == s.target_b).collect();
    let rates: Vec<f64> = of_pair.iter().filter_map(|x| x.change_rate).collect();
    if let (Some(lo), Some(hi)) = (rates.iter().copied().reduce(f64::min), rates.iter().copied().reduce(f64::max))
        && hi > 0.0
    {
        hs.push(Headline::finding(
            format!(
                "Switching only the target from {} to {} changes `{}` on {} of the shared queries{}",
                s.target_a,
                s.target_b,
                s.shift_metric,
                if rates.len() == 1 {
                    format!("{:.1}%", 100.0 * lo)
                } else {
                    format!("{:.1}% to {:.1}%", 100.0 * lo, 100.0 * hi)
                },
                if rates.len() == 1 { String::new() } else { format!(" of {} runs", rates.len()) }
            ),
            format!(
                "queries eligible under both targets, per run; the ranked lists are the same; {} shared queries in all",
                of_pair.iter().map(|x| x.shared).sum::<usize>()
            ),
            AlignmentTable::Shifts,
        ));
    }
    // Aggregations: a method that orders the runs unlike A.
    let mut reordered: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for a in r.aggregations.iter().filter(|a| a.tau_d.is_some_and(|t| t > 0)) {
        if seen.insert((a.group.as_str(), a.method.as_str())) {
            let within = if a.group.is_empty() { String::new() } else { format!(" ({})", a.group) };
            reordered.push(format!("{}{within} τ_d {}", a.method, a.tau_d.unwrap_or(0)));
        }
    }
    if !reordered.is_empty() {
        let shown: Vec<String> = reordered.iter().take(6).cloned().collect();
        hs.push(Headline::finding(
            format!(
                "Ranked by mean `{}`, the runs change order away from {}'s under: {}{}",
                s.shift_metric,
                s.target_a,
                shown.join(", "),
                if reordered.len() > 6 { format!(" and {} more", reordered.len() - 6) } else { String::new() }
            ),
            format!(
                "τ_d: run pairs ordered opposite to {}'s order by mean `{}`{}",
                s.target_a,
                s.shift_metric,
                if s.group.is_some() { ", within each group" } else { "" }
            ),
            AlignmentTable::Aggregations,
        ));
    }
    // Winners: pairs of runs whose winner depends on the target alone (TIAP Table 5).
    // Each pair's rows under the targets, pairs in the table's order.
    let mut pairs: Vec<Vec<&super::aggregate::WinnerRow>> = Vec::new();
    let mut at: std::collections::HashMap<(&str, &str, &str), usize> = std::collections::HashMap::new();
    for w in r.winners.iter().filter(|w| r.targets.contains(&w.method)) {
        let i = *at.entry((w.group.as_str(), w.run_a.as_str(), w.run_b.as_str())).or_insert_with(|| {
            pairs.push(Vec::new());
            pairs.len() - 1
        });
        pairs[i].push(w);
    }
    let flipped: Vec<&Vec<&super::aggregate::WinnerRow>> = pairs
        .iter()
        .filter(|ws| {
            let won: std::collections::HashSet<&str> =
                ws.iter().map(|w| w.winner.as_str()).filter(|x| !x.is_empty() && *x != "tie").collect();
            won.len() > 1
        })
        .collect();
    for ws in flipped.iter().take(4) {
        let (g, a, b) = (&ws[0].group, &ws[0].run_a, &ws[0].run_b);
        let by_target: Vec<String> = ws
            .iter()
            .map(|w| format!("{} → {}", w.method, if w.winner.is_empty() { "—" } else { &w.winner }))
            .collect();
        hs.push(Headline::finding(
            format!("Which of {a} and {b} wins depends on the target: {}", by_target.join(", ")),
            format!(
                "mean `{}` of each run{}; {}",
                s.shift_metric,
                if g.is_empty() { String::new() } else { format!(" (group {g})") },
                if s.aggregate_on == super::aggregate::Subset::Shared {
                    "on the queries every run of the group has under every target"
                } else {
                    "each target on its own eligible queries"
                }
            ),
            AlignmentTable::Winners,
        ));
    }
    if flipped.len() > 4 {
        hs.push(Headline::finding(
            format!("{} more pairs of runs change winner with the target", flipped.len() - 4),
            "see the winners table".to_string(),
            AlignmentTable::Winners,
        ));
    }
    for n in &r.notes {
        hs.push(Headline::finding(n.clone(), "see the reading notes".to_string(), AlignmentTable::Alignment));
    }
    hs
}
