//! Reclaim rate (RR) against memory integrity g, one line per policy (and per arm, model or
//! task when the cells differ in those), each cell a point with its interval as a vertical bar
//! (Reclaim Evaluation, Kwon 2026, Fig. 2). Cells without an integrity are drawn as one column
//! per series instead.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::Cell;
use crate::plots::series::{Axes, Line, Point, draw_lines};
use crate::plots::{Plot, PlotError};

pub use crate::plots::series::PALETTE;

/// One cell.
#[derive(Debug, Clone, PartialEq)]
pub struct ReclaimPoint {
    pub integrity: Option<f64>,
    pub rr: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub n: usize,
}

/// The cells of one policy (and arm, model, task).
#[derive(Debug, Clone, PartialEq)]
pub struct ReclaimSeries {
    pub name: String,
    pub points: Vec<ReclaimPoint>,
}

/// Everything the plot shows.
#[derive(Debug, Clone, PartialEq)]
pub struct ReclaimPlot {
    pub title: String,
    pub series: Vec<ReclaimSeries>,
    pub width: u32,
    pub height: u32,
}

fn distinct<T: PartialEq + Clone>(it: impl Iterator<Item = T>) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for v in it {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

impl ReclaimPlot {
    /// The reclaim page's plot of a report: every cell, 860 × 440 pixels.
    pub fn of_report(r: &super::ReclaimReport) -> ReclaimPlot {
        ReclaimPlot::from_cells(
            format!(
                "Reclaim rate by policy and integrity ({})",
                if r.settings.bootstrap.cluster_by_problem { "problems resampled" } else { "trials resampled" }
            ),
            &r.cells,
            860,
            440,
        )
    }

    /// One series per policy, split further by arm, model and task where the cells differ in
    /// them; points in integrity order.
    pub fn from_cells(title: impl Into<String>, cells: &[Cell], width: u32, height: u32) -> ReclaimPlot {
        let many_arms = distinct(cells.iter().map(|c| c.key.arm.clone())).len() > 1;
        let many_models = distinct(cells.iter().map(|c| c.key.model.clone())).len() > 1;
        let many_tasks = distinct(cells.iter().map(|c| c.key.task.clone())).len() > 1;
        let name = |c: &Cell| {
            let mut parts = vec![c.key.policy.clone()];
            if many_arms {
                parts.push(c.key.arm.clone().unwrap_or_else(|| "—".into()));
            }
            if many_models {
                parts.push(c.key.model.clone().unwrap_or_else(|| "—".into()));
            }
            if many_tasks {
                parts.push(c.key.task.clone().unwrap_or_else(|| "—".into()));
            }
            parts.join(" · ")
        };
        let mut series: Vec<ReclaimSeries> = Vec::new();
        for c in cells {
            let n = name(c);
            let p = ReclaimPoint { integrity: c.key.integrity, rr: c.rr, low: c.rr_low, high: c.rr_high, n: c.n };
            match series.iter_mut().find(|s| s.name == n) {
                Some(s) => s.points.push(p),
                None => series.push(ReclaimSeries { name: n, points: vec![p] }),
            }
        }
        for s in &mut series {
            s.points.sort_by(|a, b| {
                a.integrity.unwrap_or(f64::NEG_INFINITY).total_cmp(&b.integrity.unwrap_or(f64::NEG_INFINITY))
            });
        }
        ReclaimPlot { title: title.into(), series, width, height }
    }

    /// The series as chart lines (x = integrity, y = RR).
    pub fn lines(&self) -> Vec<Line> {
        self.series
            .iter()
            .map(|s| Line {
                name: s.name.clone(),
                points: s.points.iter().map(|p| Point { x: p.integrity, y: p.rr, low: p.low, high: p.high }).collect(),
            })
            .collect()
    }

    /// Integrity on the x axis (else one column per series).
    pub fn numeric(&self) -> bool {
        crate::plots::series::numeric(&self.lines())
    }

    /// Points drawn (cells with a rate and, on a numeric axis, an integrity).
    pub fn drawn_points(&self) -> usize {
        crate::plots::series::drawn_points(&self.lines())
    }
}

impl Plot for ReclaimPlot {
    crate::plot_frame!();

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let axes = Axes {
            title: self.title.clone(),
            x_desc: "memory integrity g".into(),
            y_desc: "reclaim rate RR".into(),
            y_range: (0.0, 1.05),
            y_decimals: 1,
            x_ticks: None,
        };
        draw_lines(root, &axes, &self.lines())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::{hex, plot_svg, svg_texts};
    use crate::reclaim::{CellKey, Share};

    fn cell(policy: &str, g: Option<f64>, rr: f64, arm: &str) -> Cell {
        let share = Share { count: 0, denominator: 0, denominator_label: String::new(), rate: None };
        Cell {
            key: CellKey {
                model: Some("m".into()),
                task: None,
                policy: policy.into(),
                integrity: g,
                arm: Some(arm.into()),
            },
            design: Vec::new(),
            n: 24,
            problems: 8,
            recovered: (rr * 24.0) as usize,
            rr: Some(rr),
            rr_low: Some((rr - 0.1).max(0.0)),
            rr_high: Some((rr + 0.1).min(1.0)),
            rule_of_three_high: None,
            rule_of_three_low: None,
            answered_known: 24,
            abstain: 0,
            abstain_rate: None,
            emit: 0,
            emit_rate: None,
            attractor_per_n: share.clone(),
            attractor_per_emission: share,
            stale_known: 0,
            rescored: 0,
            rescore_disagrees: 0,
            abstain_rule: "strict".into(),
            hedge_abstain: 0,
            abstain_fallback: 0,
            ..Cell::default()
        }
    }

    fn circles(svg: &str, c: RGBColor) -> usize {
        svg.lines().filter(|l| l.contains("<circle") && l.contains(&format!("fill=\"{}\"", hex(c)))).count()
    }

    #[test]
    fn a_series_per_policy_and_arm_with_a_point_and_a_bar_per_cell() {
        let cells = vec![
            cell("lossy", Some(1.0), 1.0, "generic"),
            cell("lossy", Some(0.2), 0.3, "generic"),
            cell("source_first", Some(0.2), 0.9, "generic"),
            cell("lossy", Some(0.2), 0.2, "directed"),
        ];
        let p = ReclaimPlot::from_cells("RR", &cells, 760, 420);
        assert_eq!(p.series.len(), 3);
        assert_eq!(p.series[0].name, "lossy · generic");
        assert_eq!(p.series[0].points[0].integrity, Some(0.2), "sorted by integrity");
        assert!(p.numeric());
        assert_eq!(p.drawn_points(), 4);
        let svg = plot_svg(&p).unwrap();
        // Each series' points plus its legend marker.
        assert_eq!(circles(&svg, PALETTE[0]), 2 + 1);
        assert_eq!(circles(&svg, PALETTE[1]), 1 + 1);
        assert_eq!(circles(&svg, PALETTE[2]), 1 + 1);
        assert!(svg.contains("memory integrity g"));
    }

    #[test]
    fn cells_without_integrity_become_columns() {
        let cells = vec![cell("lossy", None, 0.0, "a"), cell("source_first", None, 1.0, "a")];
        let p = ReclaimPlot::from_cells("RR", &cells, 600, 360);
        assert!(!p.numeric());
        let svg = plot_svg(&p).unwrap();
        assert!(svg_texts(&svg).iter().any(|t| t == "source_first"));
        assert_eq!(circles(&svg, PALETTE[0]), 1);
        let empty = ReclaimPlot::from_cells("RR", &[], 600, 360);
        assert!(plot_svg(&empty).is_ok());
    }
}
