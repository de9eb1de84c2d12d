//! The compliance report's plots, for the page and the report to attach: compliance against
//! depth per arm (one panel per group, with the cells' intervals, and the theory's curves when
//! its parameters are stated), and each arm's ECDF of
//! per-task compliance (one panel per group; BriefBench Fig. 2).

use super::analyse::ComplianceReport;
use super::dominance::DominanceMeasure;
use crate::attach::{Figure, figure};
use crate::plots::LinesPlot;
use crate::plots::ecdf::{EcdfLine, EcdfPlot};
use crate::plots::series::{Line, Point};

/// The most arms drawn in one plot, and the most groups given a plot: beyond, the title says
/// how many are drawn (every arm and group stays in the tables).
pub const MAX_PLOT_ARMS: usize = 30;
pub const MAX_PLOT_GROUPS: usize = 12;

/// The title's note when a plot draws only the first [`MAX_PLOT_ARMS`] of `arms`.
fn shown_of(arms: usize) -> String {
    if arms > MAX_PLOT_ARMS { format!(", the first {MAX_PLOT_ARMS} of {arms} arms") } else { String::new() }
}

/// Compliance against depth, one line per arm (the first [`MAX_PLOT_ARMS`]), for one group.
/// `None` without depth cells.
pub fn depth_plot(r: &ComplianceReport, group: &str) -> Option<LinesPlot> {
    let cells = r.depth.iter().filter(|d| d.group == group);
    let by_arm = crate::distinct::groups_first_seen(cells, |c| c.arm.as_str());
    if by_arm.is_empty() {
        return None;
    }
    let arms = by_arm.len();
    let mut lines: Vec<Line> = by_arm
        .into_iter()
        .take(MAX_PLOT_ARMS)
        .map(|(arm, cells)| Line {
            name: arm.to_string(),
            points: cells
                .iter()
                .map(|c| Point { x: Some(c.depth), y: Some(c.compliance), low: c.low, high: c.high })
                .collect(),
        })
        .collect();
    // The theory's curves at the stated s₀, ρ, q over the group's depths, without intervals.
    if let Some((s0, rho, q)) = r.settings.theory.parameters() {
        let depths: Vec<f64> = r.theory.iter().filter(|t| t.group == group).map(|t| t.depth).collect();
        let curve = |name: &str, f: &dyn Fn(f64) -> f64| Line {
            name: name.to_string(),
            points: depths.iter().map(|&d| Point { x: Some(d), y: Some(f(d)), low: None, high: None }).collect(),
        };
        if !depths.is_empty() {
            lines.push(curve("theory q^d", &|d| super::theory::structured(q, d)));
            lines.push(curve("theory s0^d rho^(d(d+1)/2)", &|d| super::theory::similarity_ceiling(s0, rho, d)));
        }
    }
    let b = &r.settings.bootstrap;
    Some(LinesPlot {
        title: format!(
            "Compliance by depth{} ({}% intervals){}",
            if group.is_empty() { String::new() } else { format!(", {group}") },
            b.confidence * 100.0,
            shown_of(arms)
        ),
        x_desc: "depth (causal hops)".into(),
        y_desc: "compliance".into(),
        lines,
        width: 720,
        height: 420,
    })
}

/// Each arm's ECDF of per-task compliance (the first [`MAX_PLOT_ARMS`]), for one group.
/// `None` without rows.
pub fn ecdf_plot(r: &ComplianceReport, group: &str) -> Option<EcdfPlot> {
    let steps = r.ecdf.iter().filter(|e| e.group == group && e.measure == DominanceMeasure::Compliance);
    let by_arm = crate::distinct::groups_first_seen(steps, |e| e.arm.as_str());
    if by_arm.is_empty() {
        return None;
    }
    let arms = by_arm.len();
    let lines = by_arm
        .into_iter()
        .take(MAX_PLOT_ARMS)
        .map(|(arm, steps)| EcdfLine {
            name: format!("{arm} (n = {})", steps.first().map_or(0, |s| s.n)),
            steps: steps.iter().map(|s| (s.value, s.cdf)).collect(),
        })
        .collect();
    Some(EcdfPlot {
        title: format!(
            "Per-task compliance ECDF{}{}",
            if group.is_empty() { String::new() } else { format!(", {group}") },
            shown_of(arms)
        ),
        x_desc: "compliance (right: better)".into(),
        lines,
        width: 720,
        height: 420,
    })
}

/// Every plot, as SVG: one per group, for the first [`MAX_PLOT_GROUPS`] groups (the last one's
/// title says how many there are when there are more).
pub fn figures(r: &ComplianceReport) -> Vec<Figure> {
    let groups = r.groups.len();
    let mut plots: Vec<LinesPlot> = r.groups.iter().take(MAX_PLOT_GROUPS).filter_map(|g| depth_plot(r, g)).collect();
    if groups > MAX_PLOT_GROUPS
        && let Some(last) = plots.last_mut()
    {
        last.title.push_str(&format!(" (plots of the first {MAX_PLOT_GROUPS} of {groups} groups)"));
    }
    let mut out: Vec<Figure> = plots.iter().map(figure).collect();
    out.extend(r.groups.iter().take(MAX_PLOT_GROUPS).filter_map(|g| ecdf_plot(r, g)).map(|p| figure(&p)));
    out
}
