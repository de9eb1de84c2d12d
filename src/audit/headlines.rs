//! What a rescoring says, first: winner flips (on the shared subset, where the same queries are
//! scored under every target, and on all eligible queries), who ranks first under each target,
//! instability, excluded queries, contested credits and reading warnings. Every interval is the
//! report's paired percentile bootstrap, uncorrected for the number of pairs (said so).

use super::summary::Subset;
use super::table::RescoreTable;
use super::winners::WinnerRow;
use super::{Metric, Report};
use crate::headline::{Headline, count, difference, finding_on, from_warnings, percent, some_of};
use crate::model::Target;

/// The headlines of a rescoring report (unranked: see [`crate::headline::rank`]).
pub fn headlines(r: &Report) -> Vec<Headline> {
    let mut out = Vec::new();
    let counts = &r.reading.counts;
    if counts.ranked_lists == 0 {
        // Data without runs: read, and nothing scored — said first, never shown as a result. A
        // finding, not an alert: a release of the benchmark's data alone is not wrong data.
        out.push(Headline::finding(
            "No system's ranked lists were read: nothing was scored",
            format!(
                "the files hold {} and {} only; add the systems' ranked runs (runs.jsonl, per-hit rows, a TREC run, \
                 a LongMemEval retrieval log) to rescore them",
                count(counts.queries, "query", "queries"),
                count(counts.memories, "memory", "memories")
            ),
            RescoreTable::Coverage,
        ));
    }
    let method = format!(
        "{}% paired percentile bootstrap, B = {}, seed {}, no correction for the {} pair(s)",
        percent(r.settings.confidence),
        r.settings.bootstrap,
        r.settings.seed,
        pairs(r.systems.len())
    );
    out.extend(flip_headlines(r, &method));
    out.extend(leaders(r));
    out.extend(instability(r));
    out.extend(excluded(r));
    out.extend(unmapped(r));
    let contested: usize = r.contested_summary.iter().map(|c| c.contested).sum();
    if contested > 0 {
        let per: Vec<String> = r
            .contested_summary
            .iter()
            .filter(|c| c.contested > 0)
            .map(|c| format!("{}: {}", c.system, c.contested))
            .collect();
        out.push(Headline::finding(
            format!(
                "{} earn Source credit but not Canonical credit: the two rules disagree on them",
                count(contested, "ranked memory", "ranked memories")
            ),
            some_of(&per, 4),
            RescoreTable::ContestedSummary,
        ));
    }
    out.extend(from_warnings(r.reading.warnings.iter().chain(&r.scoring_warnings), RescoreTable::Warnings));
    out
}

fn pairs(systems: usize) -> usize {
    systems * systems.saturating_sub(1) / 2
}

/// The winner rows of `subset` whose pair and metric flip, one group per (pair, metric).
fn flips(rows: &[WinnerRow], subset: Subset) -> Vec<Vec<&WinnerRow>> {
    let mut groups: Vec<Vec<&WinnerRow>> = Vec::new();
    for row in rows.iter().filter(|w| w.subset == subset && w.flip) {
        match groups.iter_mut().find(|g| g[0].a == row.a && g[0].b == row.b && g[0].metric == row.metric) {
            Some(g) => g.push(row),
            None => groups.push(vec![row]),
        }
    }
    // nDCG first (the paper's headline metric), then the others in their order.
    groups.sort_by_key(|g| g[0].metric != Metric::Ndcg);
    groups
}

fn delta_of(w: &WinnerRow) -> Option<f64> {
    w.delta.or(w.delta_ndcg)
}

/// Flips on the shared subset whose two sides both have an interval excluding 0 are alerts, one
/// each; the other shared-subset flips are summed up in one finding, and so are the flips on all
/// eligible queries that the shared subset does not confirm (the query sets make them).
fn flip_headlines(r: &Report, method: &str) -> Vec<Headline> {
    let mut out = Vec::new();
    let shared = flips(&r.winners, Subset::Shared);
    let (sure, unsure): (Vec<_>, Vec<_>) = shared.iter().partition(|g| both_sure(g));
    for g in &sure {
        let (a, b, metric) = (&g[0].a, &g[0].b, g[0].metric);
        out.push(Headline::alert(
            format!(
                "{a} beats {b} under {} but loses under {}: the winner flips ({}@{}, the same queries under every target)",
                targets_won(g, a),
                targets_won(g, b),
                metric.name(),
                r.settings.k
            ),
            format!("Δ = {a} − {b}: {}; {method}", deltas(g)),
            RescoreTable::Winners,
        ));
    }
    if !unsure.is_empty() {
        let names: Vec<String> = unsure.iter().map(|g| describe(g)).collect();
        out.push(Headline::finding(
            format!("{} winner flip(s) on the same queries rest on an interval that includes 0", unsure.len()),
            format!("{}; {method}", some_of(&names, 3)),
            RescoreTable::Winners,
        ));
    }
    let population: Vec<String> = flips(&r.winners, Subset::All)
        .iter()
        .filter(|g| !shared.iter().any(|s| s[0].a == g[0].a && s[0].b == g[0].b && s[0].metric == g[0].metric))
        .map(|g| describe(g))
        .collect();
    out.extend(finding_on(
        &population,
        3,
        |n| {
            format!(
                "{n} winner flip(s) on all eligible queries disappear on the shared subset: the query sets, not the credit rule, make them"
            )
        },
        RescoreTable::Winners,
    ));
    if shared.is_empty()
        && r.systems.len() > 1
        && r.compared_targets.len() > 1
        && r.winners.iter().any(|w| w.subset == Subset::Shared)
    {
        out.push(Headline::context(
            "No winner flips between credit targets on the shared subset",
            format!(
                "{} pair(s), targets {}",
                pairs(r.systems.len()),
                r.compared_targets.iter().map(|t| target_label(*t)).collect::<Vec<_>>().join(", ")
            ),
            RescoreTable::Winners,
        ));
    }
    out
}

/// Both winners of a flip rest on an interval that excludes 0.
fn both_sure(group: &[&WinnerRow]) -> bool {
    let (a, b) = (&group[0].a, &group[0].b);
    let sure = |name: &str| group.iter().any(|w| w.winner.as_deref() == Some(name) && w.significant);
    sure(a) && sure(b)
}

/// The targets under which `name` wins: `Raw and Source`.
fn targets_won(group: &[&WinnerRow], name: &str) -> String {
    group
        .iter()
        .filter(|w| w.winner.as_deref() == Some(name))
        .map(|w| target_label(w.target))
        .collect::<Vec<_>>()
        .join(" and ")
}

/// `Raw +0.026 [0.004, 0.048], n = 754; Canonical …`.
fn deltas(group: &[&WinnerRow]) -> String {
    group
        .iter()
        .filter_map(|w| {
            Some(format!("{} {}", target_label(w.target), difference(delta_of(w)?, w.ci_low, w.ci_high, w.n)))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// `a vs b (ndcg: a under Raw, b under Canonical)`.
fn describe(group: &[&WinnerRow]) -> String {
    let (a, b) = (&group[0].a, &group[0].b);
    format!(
        "{a} vs {b} ({}: {a} under {}, {b} under {})",
        group[0].metric.name(),
        targets_won(group, a),
        targets_won(group, b)
    )
}

fn target_label(t: Target) -> &'static str {
    match t {
        Target::Raw => "Raw",
        Target::Source => "Source",
        Target::Canonical => "Canonical",
    }
}

/// Who ranks first under each target (nDCG, shared subset when there is one).
fn leaders(r: &Report) -> Vec<Headline> {
    if r.systems.len() < 2 {
        return Vec::new();
    }
    let subset =
        if r.recommendations.iter().any(|x| x.subset == Subset::Shared) { Subset::Shared } else { Subset::All };
    let rows: Vec<_> = r
        .recommendations
        .iter()
        .filter(|x| x.subset == subset && x.metric == Metric::Ndcg && x.best.is_some())
        .collect();
    if rows.is_empty() {
        return Vec::new();
    }
    let bests: Vec<&str> = rows.iter().filter_map(|x| x.best.as_deref()).collect();
    let same = bests.iter().all(|b| *b == bests[0]) && !rows.iter().any(|x| x.tied);
    let evidence = rows
        .iter()
        .map(|x| {
            format!(
                "{} {} {:.3}{}",
                target_label(x.target),
                x.best.as_deref().unwrap_or(""),
                x.value.unwrap_or(f64::NAN),
                match (&x.runner_up, x.margin) {
                    (Some(ru), Some(m)) => format!(" (+{m:.3} over {ru})"),
                    _ => String::new(),
                }
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    let n = rows[0].n;
    let scope = format!(
        "nDCG@{}, {}, n = {n}",
        r.settings.k,
        if subset == Subset::Shared { "shared subset" } else { "all eligible queries" }
    );
    let text = if same {
        format!("{} has the highest mean under every credit target", bests[0])
    } else {
        "The system with the highest mean depends on the credit target".to_string()
    };
    vec![Headline::context(
        text,
        format!("{evidence}; {scope}; margins without intervals: see the winners table"),
        RescoreTable::Recommendations,
    )]
}

/// The system whose per-query nDCG changes most often between two targets.
fn instability(r: &Report) -> Vec<Headline> {
    let Some(row) = r
        .instability
        .iter()
        .filter(|i| i.change_rate.is_some())
        .max_by(|x, y| x.change_rate.unwrap_or(0.0).total_cmp(&y.change_rate.unwrap_or(0.0)))
    else {
        return Vec::new();
    };
    let rate = row.change_rate.unwrap_or(0.0);
    if row.ndcg_changed == 0 {
        return vec![Headline::context(
            "No query's nDCG changes between credit targets",
            format!("{} queries compared per system and target pair", row.n),
            RescoreTable::Instability,
        )];
    }
    let diff = row
        .mean_diff_ndcg
        .map(|d| format!("; mean change {}", difference(d, row.ci_low, row.ci_high, row.n)))
        .unwrap_or_default();
    vec![Headline::finding(
        format!(
            "{:.0}% of {}'s queries change nDCG between {} and {}",
            rate * 100.0,
            row.system,
            target_label(row.a),
            target_label(row.b)
        ),
        format!("{} of {} queries; {} hit flip(s){diff}", row.ndcg_changed, row.n, row.hit_flips),
        RescoreTable::Instability,
    )]
}

/// Queries no system can be scored on under a target (excluded, never scored 0).
fn excluded(r: &Report) -> Vec<Headline> {
    let rows: Vec<String> = r
        .coverage
        .iter()
        .filter(|c| c.zero_target > 0 && c.target != "shared")
        .map(|c| {
            format!(
                "{}{}: {} of {} eligible",
                c.system.as_ref().map(|s| format!("{s} ")).unwrap_or_default(),
                c.target,
                c.eligible,
                c.queries
            )
        })
        .collect();
    if rows.is_empty() {
        return Vec::new();
    }
    // Without ranked lists there are no means: said as what scoring would do.
    let text = if r.reading.counts.ranked_lists == 0 {
        "Some queries have no relevant memory under a target: a system's means would leave them out, not score them 0"
    } else {
        "Some queries have no relevant memory under a target: they are left out of its means, not scored 0"
    };
    vec![Headline::context(text, some_of(&rows, 4), RescoreTable::Coverage)]
}

/// Systems whose store transforms memory without recording, for every derived memory, the
/// turns it came from (the reporting card's mapping): Source and Canonical credit cannot reach
/// a derived memory without lineage, so those targets under-credit them.
fn unmapped(r: &Report) -> Vec<Headline> {
    use super::card::Mapping;
    let short: Vec<String> = r
        .card
        .iter()
        .filter(|c| matches!(c.mapping, Mapping::Partial | Mapping::None))
        .map(|c| format!("{} ({} of {} derived memories)", c.system, c.derived - c.derived_with_lineage, c.derived))
        .collect();
    if short.is_empty() {
        return Vec::new();
    }
    vec![Headline::finding(
        format!(
            "{} derived memories without lineage: Source and Canonical cannot credit them",
            count(short.len(), "system stores", "systems store")
        ),
        format!("without anchors: {}", crate::headline::some_of(&short, 4)),
        RescoreTable::Card,
    )]
}
