//! The human-readable rescoring report (`memaudit rescore --format table`).

use super::Report;

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
        out.push_str(&crate::text_table!(&r.coverage, |c| {
            "store of" => c.system.clone().unwrap_or_default(),
            "target" => c.target.clone(),
            "eligible" => c.eligible.to_string(),
            "zero_target" => c.zero_target.to_string(),
            "groups" => c.groups.to_string(),
            "memory kinds" => if c.target == "shared" {
                c.kinds.iter().map(|(k, n)| format!("{k}:{n}")).collect::<Vec<_>>().join(" ")
            } else {
                String::new()
            },
        }));
    } else {
        out.push_str(&crate::text_table!(&r.coverage, |c| {
            "target" => c.target.clone(),
            "eligible" => c.eligible.to_string(),
            "zero_target" => c.zero_target.to_string(),
            "groups" => c.groups.to_string(),
        }));
    }

    if !r.card.is_empty() {
        out.push_str("\n== Reporting card (TIAP Table 14): transforms, retrieval unit, target mapping, credit\n");
        out.push_str(&crate::text_table!(&r.card, |c| {
            "system" => c.system.clone(),
            "store: raw / derived / canonical" => format!("{} / {} / {}", c.raw, c.derived, c.canonical),
            "transforms" => if c.transforms { "yes".into() } else { "no".into() },
            "ranked (first k)" => c.ranked_kinds.iter().take(4).map(|(k, n)| format!("{k}:{n}")).collect::<Vec<_>>().join(" "),
            "mapping" => format!("{} ({} of {} derived with lineage)", c.mapping, c.derived_with_lineage, c.derived),
            "eligible raw / source / canonical" => [c.eligible_raw, c.eligible_source, c.eligible_canonical]
                .iter()
                .map(|e| e.map_or("-".into(), |n| n.to_string()))
                .collect::<Vec<_>>()
                .join(" / "),
        }));
        if let Some(c) = r.card.first() {
            out.push_str(&format!("credit: {}", c.credit));
            if c.queries_with_targets > 0 {
                out.push_str(&format!("; {} queries state their targets outright", c.queries_with_targets));
            }
            out.push('\n');
        }
    }

    out.push_str(&format!("\n== Means per system and target (nDCG {}% CI)\n", r.settings.confidence * 100.0));
    out.push_str(&crate::text_table!(&r.summary, |s| {
        "system" => s.system.clone(),
        "target" => s.target.name().into(),
        "subset" => s.subset.name().into(),
        "n" => s.n.to_string(),
        "nDCG" => fmt4(s.ndcg),
        "CI" => format!("[{}, {}]", fmt4(s.ndcg_ci_low), fmt4(s.ndcg_ci_high)),
        "recall" => fmt4(s.recall),
        "hit" => fmt4(s.hit),
        "MRR" => fmt4(s.mrr),
        "top1" => fmt4(s.top1),
    }));

    out.push_str("\n== Instability between targets (diff = b − a)\n");
    out.push_str(&crate::text_table!(&r.instability, |s| {
        "system" => s.system.clone(),
        "pair" => format!("{} vs {}", s.a, s.b),
        "n" => s.n.to_string(),
        "nDCG changed" => format!(
            "{} ({})",
            s.ndcg_changed,
            s.change_rate.map(|x| format!("{:.1}%", x * 100.0)).unwrap_or_default()
        ),
        "hit flips" => format!("{} (+{}/−{})", s.hit_flips, s.hit_gained, s.hit_lost),
        "top-1 flips" => s.top1_flips.to_string(),
        "mean diff" => fmt4(s.mean_diff_ndcg),
        "CI" => format!("[{}, {}]", fmt4(s.ci_low), fmt4(s.ci_high)),
    }));

    if !r.instability_by_category.is_empty() {
        out.push_str("\n== Instability per query category (diff = b − a)\n");
        out.push_str(&crate::text_table!(&r.instability_by_category, |s| {
            "system" => s.system.clone(),
            "pair" => format!("{} vs {}", s.a, s.b),
            "category" => s.category.clone(),
            "n" => s.n.to_string(),
            "nDCG changed" => format!(
                "{} ({})",
                s.ndcg_changed,
                s.change_rate.map(|x| format!("{:.1}%", x * 100.0)).unwrap_or_default()
            ),
            "hit flips" => s.hit_flips.to_string(),
            "top-1 flips" => s.top1_flips.to_string(),
            "mean diff" => fmt4(s.mean_diff_ndcg),
        }));
    }

    if !r.aggregations.is_empty() {
        out.push_str(
            "\n== Aggregations over the per-query nDCG triplet (TIAP App. B, Table 8; population: Raw-eligible \
             queries; Source/Canonical fall back to Raw where not eligible)\n",
        );
        out.push_str(&crate::text_table!(&r.aggregations, |a| {
            "system" => a.system.clone(),
            "n" => a.n.to_string(),
            "fallback S/C" => format!("{}/{}", a.source_fallback, a.canonical_fallback),
            "raw" => fmt4(a.raw),
            "source" => fmt4(a.source),
            "canonical" => fmt4(a.canonical),
            "arith" => fmt4(a.arith),
            "geom" => fmt4(a.geom),
            "min" => fmt4(a.min),
        }));
        out.push_str("\n== τ_d from the Raw ordering (discordant system pairs; exact ties never discordant)\n");
        out.push_str(&crate::text_table!(&r.kendall_from_raw, |k| {
            "aggregation" => k.aggregation.clone(),
            "tau_d / max" => format!("{} / {}", k.tau_d, k.max),
            "ties" => k.ties.to_string(),
            "order" => k.order.clone(),
        }));
    }

    if !r.agreement.is_empty() {
        out.push_str("\n== Agreement filtering: all three targets agree on Hit@k (spread = max − min nDCG)\n");
        out.push_str(&crate::text_table!(&r.agreement, |a| {
            "system" => a.system.clone(),
            "n" => a.n.to_string(),
            "kept" => format!("{} ({})", a.kept, a.retention.map(|x| format!("{:.1}%", x * 100.0)).unwrap_or_default()),
            "spread (kept)" => fmt4(a.spread_kept),
            "all-hit" => a.n_all_hit.to_string(),
            "spread (all-hit)" => fmt4(a.spread_all_hit),
        }));
    }

    use super::{Metric, Subset};
    let winners = |subset: Subset| {
        crate::text_table!(r.winners.iter().filter(|w| w.subset == subset && w.metric == Metric::Ndcg), |w| {
            "target" => w.target.name().into(),
            "pair" => format!("{} vs {}", w.a, w.b),
            "n" => w.n.to_string(),
            "delta nDCG" => fmt4(w.delta_ndcg),
            "CI" => format!("[{}, {}]", fmt4(w.ci_low), fmt4(w.ci_high)),
            "winner" => w.winner.clone().unwrap_or_else(|| "—".into()),
            "flip" => if w.flip { "FLIP".into() } else { String::new() },
        })
    };
    out.push_str("\n== Winners on the shared subset (queries eligible under every target for both; delta = a − b)\n");
    out.push_str(&winners(Subset::Shared));
    out.push_str("\n== Winners on all eligible queries (each target on its own queries; delta = a − b)\n");
    out.push_str(&winners(Subset::All));
    let hit_flip =
        |w: &&super::winners::WinnerRow| w.subset == Subset::Shared && w.metric == Metric::Hit && w.mcnemar_p.is_some();
    if r.winners.iter().any(|w| hit_flip(&w)) {
        out.push_str("\n== Hit flips on the shared subset (McNemar exact)\n");
        out.push_str(&crate::text_table!(r.winners.iter().filter(hit_flip), |w| {
            "target" => w.target.name().into(),
            "pair" => format!("{} vs {}", w.a, w.b),
            "n" => w.n.to_string(),
            "a only" => w.hit_a_only.map(|x| x.to_string()).unwrap_or_default(),
            "b only" => w.hit_b_only.map(|x| x.to_string()).unwrap_or_default(),
            "p" => fmt4(w.mcnemar_p),
        }));
    }

    out.push_str("\n== Design recommendation (best system per target and metric)\n");
    out.push_str(&crate::text_table!(&r.recommendations, |x| {
        "queries" => x.subset.name().into(),
        "target" => x.target.name().into(),
        "metric" => x.metric.name().into(),
        "n" => x.n.to_string(),
        "best" => match (&x.best, x.tied) {
            (Some(b), false) => b.clone(),
            (Some(b), true) => format!("{b} (tie)"),
            (None, _) => "—".into(),
        },
        "value" => fmt4(x.value),
        "margin" => fmt4(x.margin),
        "" => if x.changes_across_targets { "changes with target".into() } else { String::new() },
    }));

    if !r.curve.is_empty() {
        out.push_str("\n== Metrics at each cutoff (all eligible queries)\n");
        out.push_str(&crate::text_table!(r.curve.iter().filter(|c| c.subset == Subset::All), |c| {
            "system" => c.system.clone(),
            "target" => c.target.name().into(),
            "k" => c.k.to_string(),
            "n" => c.n.to_string(),
            "nDCG@k" => fmt4(c.ndcg),
            "Recall@k" => fmt4(c.recall),
            "Hit@k" => fmt4(c.hit),
            "MRR@k" => fmt4(c.mrr),
        }));
    }

    if !r.contested_summary.is_empty() {
        out.push_str("\n== Contested credits (Raw miss, Source and Canonical hit)\n");
        out.push_str(&crate::text_table!(&r.contested_summary, |c| {
            "system" => c.system.clone(),
            "raw-covered" => c.raw_covered.to_string(),
            "contested" => c.contested.to_string(),
        }));
    }

    out.push_str("\n== |ΔnDCG| between targets\n");
    out.push_str(&crate::text_table!(&r.delta_distribution, |d| {
        "system" => d.system.clone(),
        "pair" => format!("{} vs {}", d.a, d.b),
        "n" => d.n.to_string(),
        "mean |Δ|" => fmt4(d.mean_abs),
        "|Δ| ≥ 0.1" => d.share_ge_0_1.map(|x| format!("{:.1}%", x * 100.0)).unwrap_or_default(),
    }));
    out
}
