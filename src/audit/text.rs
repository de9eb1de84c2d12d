//! The human-readable rescoring report (`memaudit rescore --format table`).

use super::Report;
use crate::report::render_columns;

fn fmt4(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.4}")).unwrap_or_else(|| "—".into())
}

/// The human-readable report (`--format table`).
pub fn render_text(r: &Report) -> String {
    let mut out = String::new();
    out.push_str(&format!("memaudit {} — credit-target rescoring\n", crate::VERSION));
    out.push_str(&format!("conventions: {}\n", r.conventions));
    out.push_str(&format!("multi-anchor rule: {}\n\n", r.multi_anchor_rule));

    out.push_str("== Reading\n");
    for f in &r.reading.files {
        out.push_str(&format!(
            "  {}: {}{} — {} records ({} memories, {} queries, {} runs)\n",
            f.name,
            f.format_description,
            if f.gzip { ", gzip" } else { "" },
            f.records,
            f.memories,
            f.queries,
            f.runs
        ));
    }
    let c = &r.reading.counts;
    out.push_str(&format!(
        "  {} memories ({} raw, {} canonical, {} multi-anchor), {} queries ({} with evidence), {} systems, {} ranked lists, {} ranked items\n",
        c.memories, c.raw_memories, c.canonical_memories, c.multi_anchor_memories, c.queries, c.queries_with_evidence, c.systems, c.ranked_lists, c.ranked_items
    ));
    for w in r.reading.warnings.iter().chain(&r.scoring_warnings) {
        out.push_str(&format!(
            "  [{}] {} × {}{}\n",
            format!("{:?}", w.severity).to_lowercase(),
            w.count,
            w.message,
            w.examples.first().map(|e| format!(" (e.g. {e})")).unwrap_or_default()
        ));
    }

    out.push_str("\n== Coverage\n");
    if r.coverage.iter().any(|c| c.system.is_some()) {
        // One store per system: each system's rows with its store's memory kinds.
        let rows: Vec<Vec<String>> = r
            .coverage
            .iter()
            .map(|c| {
                vec![
                    c.system.clone().unwrap_or_default(),
                    c.target.clone(),
                    c.eligible.to_string(),
                    c.zero_target.to_string(),
                    c.groups.to_string(),
                    if c.target == "shared" {
                        c.kinds.iter().map(|(k, n)| format!("{k}:{n}")).collect::<Vec<_>>().join(" ")
                    } else {
                        String::new()
                    },
                ]
            })
            .collect();
        out.push_str(&render_columns(
            &["store of", "target", "eligible", "zero_target", "groups", "memory kinds"],
            &rows,
        ));
    } else {
        let rows: Vec<Vec<String>> = r
            .coverage
            .iter()
            .map(|c| vec![c.target.clone(), c.eligible.to_string(), c.zero_target.to_string(), c.groups.to_string()])
            .collect();
        out.push_str(&render_columns(&["target", "eligible", "zero_target", "groups"], &rows));
    }

    out.push_str(&format!("\n== Means per system and target (nDCG {}% CI)\n", r.settings.confidence * 100.0));
    let rows: Vec<Vec<String>> = r
        .summary
        .iter()
        .map(|s| {
            vec![
                s.system.clone(),
                s.target.name().into(),
                s.subset.name().into(),
                s.n.to_string(),
                fmt4(s.ndcg),
                format!("[{}, {}]", fmt4(s.ndcg_ci_low), fmt4(s.ndcg_ci_high)),
                fmt4(s.recall),
                fmt4(s.hit),
                fmt4(s.mrr),
                fmt4(s.top1),
            ]
        })
        .collect();
    out.push_str(&render_columns(
        &["system", "target", "subset", "n", "nDCG", "CI", "recall", "hit", "MRR", "top1"],
        &rows,
    ));

    out.push_str("\n== Instability between targets (diff = b − a)\n");
    let rows: Vec<Vec<String>> = r
        .instability
        .iter()
        .map(|s| {
            vec![
                s.system.clone(),
                format!("{} vs {}", s.a, s.b),
                s.n.to_string(),
                format!(
                    "{} ({})",
                    s.ndcg_changed,
                    s.change_rate.map(|x| format!("{:.1}%", x * 100.0)).unwrap_or_default()
                ),
                format!("{} (+{}/−{})", s.hit_flips, s.hit_gained, s.hit_lost),
                s.top1_flips.to_string(),
                fmt4(s.mean_diff_ndcg),
                format!("[{}, {}]", fmt4(s.ci_low), fmt4(s.ci_high)),
            ]
        })
        .collect();
    out.push_str(&render_columns(
        &["system", "pair", "n", "nDCG changed", "hit flips", "top-1 flips", "mean diff", "CI"],
        &rows,
    ));

    if !r.instability_by_category.is_empty() {
        out.push_str("\n== Instability per query category (diff = b − a)\n");
        let rows: Vec<Vec<String>> = r
            .instability_by_category
            .iter()
            .map(|s| {
                vec![
                    s.system.clone(),
                    format!("{} vs {}", s.a, s.b),
                    s.category.clone(),
                    s.n.to_string(),
                    format!(
                        "{} ({})",
                        s.ndcg_changed,
                        s.change_rate.map(|x| format!("{:.1}%", x * 100.0)).unwrap_or_default()
                    ),
                    s.hit_flips.to_string(),
                    s.top1_flips.to_string(),
                    fmt4(s.mean_diff_ndcg),
                ]
            })
            .collect();
        out.push_str(&render_columns(
            &["system", "pair", "category", "n", "nDCG changed", "hit flips", "top-1 flips", "mean diff"],
            &rows,
        ));
    }

    if !r.aggregations.is_empty() {
        out.push_str(
            "\n== Aggregations over the per-query nDCG triplet (TIAP App. B, Table 8; population: Raw-eligible \
             queries; Source/Canonical fall back to Raw where not eligible)\n",
        );
        let rows: Vec<Vec<String>> = r
            .aggregations
            .iter()
            .map(|a| {
                vec![
                    a.system.clone(),
                    a.n.to_string(),
                    format!("{}/{}", a.source_fallback, a.canonical_fallback),
                    fmt4(a.raw),
                    fmt4(a.source),
                    fmt4(a.canonical),
                    fmt4(a.arith),
                    fmt4(a.geom),
                    fmt4(a.min),
                ]
            })
            .collect();
        out.push_str(&render_columns(
            &["system", "n", "fallback S/C", "raw", "source", "canonical", "arith", "geom", "min"],
            &rows,
        ));
        out.push_str("\n== τ_d from the Raw ordering (discordant system pairs; exact ties never discordant)\n");
        let rows: Vec<Vec<String>> = r
            .kendall_from_raw
            .iter()
            .map(|k| {
                vec![k.aggregation.clone(), format!("{} / {}", k.tau_d, k.max), k.ties.to_string(), k.order.clone()]
            })
            .collect();
        out.push_str(&render_columns(&["aggregation", "tau_d / max", "ties", "order"], &rows));
    }

    if !r.agreement.is_empty() {
        out.push_str("\n== Agreement filtering: all three targets agree on Hit@k (spread = max − min nDCG)\n");
        let rows: Vec<Vec<String>> = r
            .agreement
            .iter()
            .map(|a| {
                vec![
                    a.system.clone(),
                    a.n.to_string(),
                    format!("{} ({})", a.kept, a.retention.map(|x| format!("{:.1}%", x * 100.0)).unwrap_or_default()),
                    fmt4(a.spread_kept),
                    a.n_all_hit.to_string(),
                    fmt4(a.spread_all_hit),
                ]
            })
            .collect();
        out.push_str(&render_columns(&["system", "n", "kept", "spread (kept)", "all-hit", "spread (all-hit)"], &rows));
    }

    use super::{Metric, Subset};
    let winner_rows = |subset: Subset| -> Vec<Vec<String>> {
        r.winners
            .iter()
            .filter(|w| w.subset == subset && w.metric == Metric::Ndcg)
            .map(|w| {
                vec![
                    w.target.name().into(),
                    format!("{} vs {}", w.a, w.b),
                    w.n.to_string(),
                    fmt4(w.delta_ndcg),
                    format!("[{}, {}]", fmt4(w.ci_low), fmt4(w.ci_high)),
                    w.winner.clone().unwrap_or_else(|| "—".into()),
                    if w.flip { "FLIP".into() } else { String::new() },
                ]
            })
            .collect()
    };
    let head = ["target", "pair", "n", "delta nDCG", "CI", "winner", "flip"];
    out.push_str("\n== Winners on the shared subset (queries eligible under every target for both; delta = a − b)\n");
    out.push_str(&render_columns(&head, &winner_rows(Subset::Shared)));
    out.push_str("\n== Winners on all eligible queries (each target on its own queries; delta = a − b)\n");
    out.push_str(&render_columns(&head, &winner_rows(Subset::All)));
    let hits: Vec<Vec<String>> = r
        .winners
        .iter()
        .filter(|w| w.subset == Subset::Shared && w.metric == Metric::Hit && w.mcnemar_p.is_some())
        .map(|w| {
            vec![
                w.target.name().into(),
                format!("{} vs {}", w.a, w.b),
                w.n.to_string(),
                w.hit_a_only.map(|x| x.to_string()).unwrap_or_default(),
                w.hit_b_only.map(|x| x.to_string()).unwrap_or_default(),
                fmt4(w.mcnemar_p),
            ]
        })
        .collect();
    if !hits.is_empty() {
        out.push_str("\n== Hit flips on the shared subset (McNemar exact)\n");
        out.push_str(&render_columns(&["target", "pair", "n", "a only", "b only", "p"], &hits));
    }

    out.push_str("\n== Design recommendation (best system per target and metric)\n");
    let rows: Vec<Vec<String>> = r
        .recommendations
        .iter()
        .map(|x| {
            vec![
                x.subset.name().into(),
                x.target.name().into(),
                x.metric.name().into(),
                x.n.to_string(),
                match (&x.best, x.tied) {
                    (Some(b), false) => b.clone(),
                    (Some(b), true) => format!("{b} (tie)"),
                    (None, _) => "—".into(),
                },
                fmt4(x.value),
                fmt4(x.margin),
                if x.changes_across_targets { "changes with target".into() } else { String::new() },
            ]
        })
        .collect();
    out.push_str(&render_columns(&["queries", "target", "metric", "n", "best", "value", "margin", ""], &rows));

    if !r.curve.is_empty() {
        out.push_str("\n== Metrics at each cutoff (all eligible queries)\n");
        let rows: Vec<Vec<String>> = r
            .curve
            .iter()
            .filter(|c| c.subset == Subset::All)
            .map(|c| {
                vec![
                    c.system.clone(),
                    c.target.name().into(),
                    c.k.to_string(),
                    c.n.to_string(),
                    fmt4(c.ndcg),
                    fmt4(c.recall),
                    fmt4(c.hit),
                    fmt4(c.mrr),
                ]
            })
            .collect();
        out.push_str(&render_columns(&["system", "target", "k", "n", "nDCG@k", "Recall@k", "Hit@k", "MRR@k"], &rows));
    }

    if !r.contested_summary.is_empty() {
        out.push_str("\n== Contested credits (Raw miss, Source and Canonical hit)\n");
        let rows: Vec<Vec<String>> = r
            .contested_summary
            .iter()
            .map(|c| vec![c.system.clone(), c.raw_covered.to_string(), c.contested.to_string()])
            .collect();
        out.push_str(&render_columns(&["system", "raw-covered", "contested"], &rows));
    }

    out.push_str("\n== |ΔnDCG| between targets\n");
    let rows: Vec<Vec<String>> = r
        .delta_distribution
        .iter()
        .map(|d| {
            vec![
                d.system.clone(),
                format!("{} vs {}", d.a, d.b),
                d.n.to_string(),
                fmt4(d.mean_abs),
                d.share_ge_0_1.map(|x| format!("{:.1}%", x * 100.0)).unwrap_or_default(),
            ]
        })
        .collect();
    out.push_str(&render_columns(&["system", "pair", "n", "mean |Δ|", "|Δ| ≥ 0.1"], &rows));
    out
}
