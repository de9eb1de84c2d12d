//! Rendering a [`Report`] as tables: the same [`Table`]s feed the CLI's CSV and text output
//! and the viewer's tables and CSV exports, so every number on screen has a CLI twin.

pub mod compare;

use crate::audit::Report;
use crate::error::{Error, Result};

/// A named table of display strings (full precision for numbers).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Table {
    pub name: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// The tables a rescoring report can be exported as (`--table NAME`).
pub const TABLE_NAMES: [&str; 15] = [
    "summary",
    "per_query",
    "instability",
    "instability_by_category",
    "aggregations",
    "kendall_from_raw",
    "agreement",
    "winners",
    "recommendations",
    "contested",
    "contested_summary",
    "delta_distribution",
    "delta_histogram",
    "coverage",
    "warnings",
];

/// Full-precision number (shortest representation that round-trips), empty for `None`.
pub fn num(v: Option<f64>) -> String {
    v.map(|x| format!("{x}")).unwrap_or_default()
}

/// `true` or `false`.
pub fn flag(b: bool) -> String {
    if b { "true".into() } else { "false".into() }
}

/// The value as text, empty for `None`.
pub fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map(ToString::to_string).unwrap_or_default()
}

/// The name serde writes for a value (a unit variant's snake_case name: `within_rounding`),
/// empty when it is not a string.
pub fn serde_name<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

impl Table {
    /// An empty table with these column names.
    pub fn new(name: &str, headers: &[&str]) -> Table {
        Table { name: name.into(), headers: headers.iter().map(|h| h.to_string()).collect(), rows: Vec::new() }
    }

    /// RFC 4180 CSV with a header line.
    pub fn to_csv(&self) -> Result<String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let err = |e: csv::Error| Error::Output { what: format!("table {}", self.name), message: e.to_string() };
        w.write_record(&self.headers).map_err(err)?;
        for r in &self.rows {
            w.write_record(r).map_err(err)?;
        }
        let bytes = w.into_inner().map_err(|e| Error::Output { what: self.name.clone(), message: e.to_string() })?;
        String::from_utf8(bytes).map_err(|e| Error::Output { what: self.name.clone(), message: e.to_string() })
    }
}

/// One table of the report by name.
pub fn table(report: &Report, name: &str) -> Option<Table> {
    Some(match name {
        "summary" => {
            let mut t = Table::new(
                "summary",
                &[
                    "system",
                    "target",
                    "subset",
                    "n",
                    "ndcg",
                    "ndcg_ci_low",
                    "ndcg_ci_high",
                    "recall",
                    "hit",
                    "mrr",
                    "top1",
                ],
            );
            for r in &report.summary {
                t.rows.push(vec![
                    r.system.clone(),
                    r.target.name().into(),
                    r.subset.clone(),
                    r.n.to_string(),
                    num(r.ndcg),
                    num(r.ndcg_ci_low),
                    num(r.ndcg_ci_high),
                    num(r.recall),
                    num(r.hit),
                    num(r.mrr),
                    num(r.top1),
                ]);
            }
            t
        }
        "per_query" => {
            let mut t = Table::new(
                "per_query",
                &[
                    "system",
                    "query_id",
                    "target",
                    "eligible",
                    "ndcg",
                    "recall",
                    "hit",
                    "mrr",
                    "top1",
                    "has_run",
                    "groups",
                    "groups_hit",
                    "first_rank",
                    "category",
                ],
            );
            for r in &report.per_query {
                t.rows.push(vec![
                    r.system.clone(),
                    r.query_id.clone(),
                    r.target.name().into(),
                    flag(r.eligible),
                    num(r.ndcg),
                    num(r.recall),
                    num(r.hit),
                    num(r.mrr),
                    num(r.top1),
                    flag(r.has_run),
                    r.groups.to_string(),
                    r.groups_hit.to_string(),
                    r.first_rank.map(|x| x.to_string()).unwrap_or_default(),
                    opt(&r.category),
                ]);
            }
            t
        }
        "instability" => {
            let mut t = Table::new(
                "instability",
                &[
                    "system",
                    "a",
                    "b",
                    "n",
                    "ndcg_changed",
                    "change_rate",
                    "hit_flips",
                    "hit_gained",
                    "hit_lost",
                    "mcnemar_p",
                    "top1_flips",
                    "recall_changed",
                    "mrr_changed",
                    "mean_a",
                    "mean_b",
                    "mean_diff_ndcg",
                    "ci_low",
                    "ci_high",
                ],
            );
            for r in &report.instability {
                t.rows.push(vec![
                    r.system.clone(),
                    r.a.name().into(),
                    r.b.name().into(),
                    r.n.to_string(),
                    r.ndcg_changed.to_string(),
                    num(r.change_rate),
                    r.hit_flips.to_string(),
                    r.hit_gained.to_string(),
                    r.hit_lost.to_string(),
                    num(Some(r.mcnemar_p)),
                    r.top1_flips.to_string(),
                    r.recall_changed.to_string(),
                    r.mrr_changed.to_string(),
                    num(r.mean_a),
                    num(r.mean_b),
                    num(r.mean_diff_ndcg),
                    num(r.ci_low),
                    num(r.ci_high),
                ]);
            }
            t
        }
        "instability_by_category" => {
            let mut t = Table::new(
                "instability_by_category",
                &[
                    "system",
                    "a",
                    "b",
                    "category",
                    "n",
                    "ndcg_changed",
                    "change_rate",
                    "hit_flips",
                    "top1_flips",
                    "mean_diff_ndcg",
                ],
            );
            for r in &report.instability_by_category {
                t.rows.push(vec![
                    r.system.clone(),
                    r.a.name().into(),
                    r.b.name().into(),
                    r.category.clone(),
                    r.n.to_string(),
                    r.ndcg_changed.to_string(),
                    num(r.change_rate),
                    r.hit_flips.to_string(),
                    r.top1_flips.to_string(),
                    num(r.mean_diff_ndcg),
                ]);
            }
            t
        }
        "aggregations" => {
            let mut t = Table::new(
                "aggregations",
                &[
                    "system",
                    "population",
                    "fallback",
                    "n",
                    "source_fallback",
                    "canonical_fallback",
                    "raw",
                    "source",
                    "canonical",
                    "arith",
                    "geom",
                    "min",
                ],
            );
            for r in &report.aggregations {
                t.rows.push(vec![
                    r.system.clone(),
                    r.population.clone(),
                    r.fallback.clone(),
                    r.n.to_string(),
                    r.source_fallback.to_string(),
                    r.canonical_fallback.to_string(),
                    num(r.raw),
                    num(r.source),
                    num(r.canonical),
                    num(r.arith),
                    num(r.geom),
                    num(r.min),
                ]);
            }
            t
        }
        "kendall_from_raw" => {
            let mut t = Table::new("kendall_from_raw", &["aggregation", "systems", "tau_d", "max", "ties", "order"]);
            for r in &report.kendall_from_raw {
                t.rows.push(vec![
                    r.aggregation.clone(),
                    r.systems.to_string(),
                    r.tau_d.to_string(),
                    r.max.to_string(),
                    r.ties.to_string(),
                    r.order.clone(),
                ]);
            }
            t
        }
        "agreement" => {
            let mut t = Table::new(
                "agreement",
                &[
                    "system",
                    "population",
                    "fallback",
                    "n",
                    "kept",
                    "retention",
                    "spread_kept",
                    "n_all_hit",
                    "spread_all_hit",
                ],
            );
            for r in &report.agreement {
                t.rows.push(vec![
                    r.system.clone(),
                    r.population.clone(),
                    r.fallback.clone(),
                    r.n.to_string(),
                    r.kept.to_string(),
                    num(r.retention),
                    num(r.spread_kept),
                    r.n_all_hit.to_string(),
                    num(r.spread_all_hit),
                ]);
            }
            t
        }
        "winners" => {
            let mut t = Table::new(
                "winners",
                &[
                    "target",
                    "a",
                    "b",
                    "n",
                    "mean_a",
                    "mean_b",
                    "delta_ndcg",
                    "ci_low",
                    "ci_high",
                    "winner",
                    "significant",
                    "flip",
                ],
            );
            for r in &report.winners {
                t.rows.push(vec![
                    r.target.name().into(),
                    r.a.clone(),
                    r.b.clone(),
                    r.n.to_string(),
                    num(r.mean_a),
                    num(r.mean_b),
                    num(r.delta_ndcg),
                    num(r.ci_low),
                    num(r.ci_high),
                    opt(&r.winner),
                    flag(r.significant),
                    flag(r.flip),
                ]);
            }
            t
        }
        "recommendations" => {
            let mut t = Table::new(
                "recommendations",
                &[
                    "target",
                    "metric",
                    "n",
                    "best",
                    "value",
                    "runner_up",
                    "runner_up_value",
                    "margin",
                    "tied",
                    "ranking",
                    "changes_across_targets",
                ],
            );
            for r in &report.recommendations {
                t.rows.push(vec![
                    r.target.name().into(),
                    r.metric.name().into(),
                    r.n.to_string(),
                    opt(&r.best),
                    num(r.value),
                    opt(&r.runner_up),
                    num(r.runner_up_value),
                    num(r.margin),
                    flag(r.tied),
                    r.ranking.join(" > "),
                    flag(r.changes_across_targets),
                ]);
            }
            t
        }
        "contested" => {
            let mut t = Table::new(
                "contested",
                &[
                    "system",
                    "query_id",
                    "rank",
                    "memory_id",
                    "kind",
                    "source",
                    "canonical",
                    "anchors",
                    "text",
                    "query_text",
                    "answer",
                ],
            );
            for r in &report.contested {
                t.rows.push(vec![
                    r.system.clone(),
                    r.query_id.clone(),
                    r.rank.to_string(),
                    r.memory_id.clone(),
                    opt(&r.kind),
                    flag(r.source),
                    flag(r.canonical),
                    r.anchors.clone(),
                    opt(&r.text),
                    opt(&r.query_text),
                    opt(&r.answer),
                ]);
            }
            t
        }
        "contested_summary" => {
            let mut t = Table::new("contested_summary", &["system", "raw_covered", "contested"]);
            for r in &report.contested_summary {
                t.rows.push(vec![r.system.clone(), r.raw_covered.to_string(), r.contested.to_string()]);
            }
            t
        }
        "delta_distribution" => {
            let mut t =
                Table::new("delta_distribution", &["system", "a", "b", "n", "mean_abs", "median_abs", "share_ge_0_1"]);
            for r in &report.delta_distribution {
                t.rows.push(vec![
                    r.system.clone(),
                    r.a.name().into(),
                    r.b.name().into(),
                    r.n.to_string(),
                    num(r.mean_abs),
                    num(r.median_abs),
                    num(r.share_ge_0_1),
                ]);
            }
            t
        }
        "delta_histogram" => {
            let mut t = Table::new("delta_histogram", &["system", "a", "b", "low", "high", "count"]);
            for r in &report.delta_distribution {
                for b in &r.bins {
                    t.rows.push(vec![
                        r.system.clone(),
                        r.a.name().into(),
                        r.b.name().into(),
                        num(Some(b.low)),
                        num(Some(b.high)),
                        b.count.to_string(),
                    ]);
                }
            }
            t
        }
        "coverage" => {
            let mut t =
                Table::new("coverage", &["target", "queries", "eligible", "zero_target", "groups", "group_sizes"]);
            for r in &report.coverage {
                t.rows.push(vec![
                    r.target.clone(),
                    r.queries.to_string(),
                    r.eligible.to_string(),
                    r.zero_target.to_string(),
                    r.groups.to_string(),
                    r.group_sizes.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" "),
                ]);
            }
            t
        }
        "warnings" => {
            let mut t = Table::new("warnings", &["stage", "kind", "severity", "count", "message", "examples"]);
            for (stage, ws) in [("reading", &report.reading.warnings), ("scoring", &report.scoring_warnings)] {
                for w in ws {
                    t.rows.push(vec![
                        stage.into(),
                        serde_name(&w.kind),
                        format!("{:?}", w.severity).to_lowercase(),
                        w.count.to_string(),
                        w.message.clone(),
                        w.examples.join(" | "),
                    ]);
                }
            }
            t
        }
        _ => return None,
    })
}

fn fmt4(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.4}")).unwrap_or_else(|| "—".into())
}

/// Aligns columns of a small text table.
pub(crate) fn render_columns(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            widths[i] = widths[i].max(c.chars().count());
        }
    }
    let line = |cells: Vec<String>| -> String {
        cells
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{c:<w$}", w = widths[i]))
            .collect::<Vec<_>>()
            .join("  ")
            .trim_end()
            .to_string()
    };
    let mut out = line(headers.iter().map(|s| s.to_string()).collect());
    out.push('\n');
    out.push_str(&widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>().join("  "));
    out.push('\n');
    for r in rows {
        out.push_str(&line(r.clone()));
        out.push('\n');
    }
    out
}

/// The human-readable report (`--format table`).
pub fn render_text(r: &Report) -> String {
    let mut out = String::new();
    out.push_str(&format!("memaudit {} — credit-target rescoring\n", r.memaudit_version));
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
    let rows: Vec<Vec<String>> = r
        .coverage
        .iter()
        .map(|c| vec![c.target.clone(), c.eligible.to_string(), c.zero_target.to_string(), c.groups.to_string()])
        .collect();
    out.push_str(&render_columns(&["target", "eligible", "zero_target", "groups"], &rows));

    out.push_str(&format!("\n== Means per system and target (nDCG {}% CI)\n", r.settings.confidence * 100.0));
    let rows: Vec<Vec<String>> = r
        .summary
        .iter()
        .map(|s| {
            vec![
                s.system.clone(),
                s.target.name().into(),
                s.subset.clone(),
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

    out.push_str("\n== Winners (delta = a − b, paired queries)\n");
    let rows: Vec<Vec<String>> = r
        .winners
        .iter()
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
        .collect();
    out.push_str(&render_columns(&["target", "pair", "n", "delta nDCG", "CI", "winner", "flip"], &rows));

    out.push_str("\n== Design recommendation (best system per target and metric)\n");
    let rows: Vec<Vec<String>> = r
        .recommendations
        .iter()
        .map(|x| {
            vec![
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
    out.push_str(&render_columns(&["target", "metric", "n", "best", "value", "margin", ""], &rows));

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
