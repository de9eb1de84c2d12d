//! The ablation's plots from a report — the page draws them on canvas, the report to attach
//! as SVG ([`figures`]).

use super::analyse::{AblationReport, Target};
use super::{RhoPlot, RhoRow, UtilityGroup, UtilityPlot};
use crate::attach::{Figure, figure};

/// The report's plots: ρ with its intervals and the gate, and the u histogram per run.
pub fn figures(r: &AblationReport) -> Vec<Figure> {
    if r.runs.is_empty() {
        return Vec::new();
    }
    vec![figure(&rho_plot(r)), figure(&utility_plot(r, "runs"))]
}

/// ρ per run and subset with both intervals and the gate (the ablation page's plot).
pub fn rho_plot(r: &AblationReport) -> RhoPlot {
    let s = &r.settings;
    let rows = r
        .groups()
        .map(|g| {
            let nc = &g.noncircularity;
            RhoRow {
                label: g.subset.clone().unwrap_or_else(|| g.run.clone()),
                group: g.subset.as_ref().map(|_| format!("{} by subset", g.run)),
                rho: nc.rho,
                pair: nc.pair_ci.as_ref().map(|c| (c.low, c.high)),
                query: nc.query_ci.as_ref().map(|c| (c.low, c.high)),
                passes: nc.passes,
            }
        })
        .collect();
    RhoPlot {
        title: format!(
            "\u{03c1}({}, retrieval score) with {:.0}% bootstrap intervals; gate {}",
            if s.target == Target::Y { "y" } else { "u" },
            s.confidence * 100.0,
            r.gate
        ),
        x_label: "Spearman \u{03c1} (mid-ranks for ties)".into(),
        rows,
        gate: s.gate,
        width: 1000,
    }
}

/// The u histogram: per run (`runs`), `pooled`, or per `subsets` (the page's choice).
pub fn utility_plot(r: &AblationReport, mode: &str) -> UtilityPlot {
    let runs: Vec<UtilityGroup> = r
        .runs
        .iter()
        .map(|r| UtilityGroup { name: r.overall.run.clone(), histogram: r.overall.rates.histogram })
        .collect();
    let groups = match mode {
        "pooled" => vec![UtilityPlot::pooled("all runs pooled", &runs)],
        "subsets" => r
            .runs
            .iter()
            .flat_map(|r| {
                let subs = r.subsets.iter().map(|g| UtilityGroup {
                    name: format!("{} · {}", g.run, g.subset.clone().unwrap_or_default()),
                    histogram: g.rates.histogram,
                });
                let own = r
                    .subsets
                    .is_empty()
                    .then(|| UtilityGroup { name: r.overall.run.clone(), histogram: r.overall.rates.histogram });
                own.into_iter().chain(subs).collect::<Vec<_>>()
            })
            .collect(),
        _ => runs,
    };
    UtilityPlot { title: "Utility u of each (query, memory) pair".into(), groups, width: 1000, height: 380 }
}
