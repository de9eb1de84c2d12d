//! The compliance report's plots, for the page and the report to attach: compliance against
//! depth per arm (one panel per group, with the cells' intervals).

use super::analyse::ComplianceReport;
use crate::attach::{Figure, figure};
use crate::plots::LinesPlot;
use crate::plots::series::{Line, Point};

/// Compliance against depth, one line per arm, for one group. `None` without depth cells.
pub fn depth_plot(r: &ComplianceReport, group: &str) -> Option<LinesPlot> {
    let cells: Vec<_> = r.depth.iter().filter(|d| d.group == group).collect();
    if cells.is_empty() {
        return None;
    }
    let mut lines: Vec<Line> = Vec::new();
    for c in cells {
        let p = Point { x: Some(c.depth), y: Some(c.compliance), low: c.low, high: c.high };
        match lines.iter_mut().find(|l| l.name == c.arm) {
            Some(l) => l.points.push(p),
            None => lines.push(Line { name: c.arm.clone(), points: vec![p] }),
        }
    }
    let b = &r.settings.bootstrap;
    Some(LinesPlot {
        title: format!(
            "Compliance by depth{} ({}% intervals)",
            if group.is_empty() { String::new() } else { format!(", {group}") },
            b.confidence * 100.0
        ),
        x_desc: "depth (causal hops)".into(),
        y_desc: "compliance".into(),
        lines,
        width: 720,
        height: 420,
    })
}

/// Every plot, as SVG.
pub fn figures(r: &ComplianceReport) -> Vec<Figure> {
    r.groups.iter().filter_map(|g| depth_plot(r, g)).map(|p| figure(&p)).collect()
}
