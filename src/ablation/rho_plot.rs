//! The ablation's non-circularity panel as a plot: Spearman's ρ(u, retrieval score) per run and
//! subset with its pair-level bootstrap interval (thick) and query-clustered interval (thin),
//! the pre-set gate's bounds as dashed lines, and rows that breach the gate in red.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::ablation::Gate;
use crate::plots::forest::{
    ForestLayout, ForestPlot, ForestRow, Marks, NOT_SIGNIFICANT, RefLine, SIGNIFICANT, draw_with_legend,
};
use crate::plots::{Plot, PlotError};

/// Gate lines.
pub const GATE: RGBColor = RGBColor(214, 120, 0);
/// Rows without a verdict (no ρ).
pub const UNDECIDED: RGBColor = RGBColor(130, 130, 130);

/// One run or subset.
#[derive(Debug, Clone, PartialEq)]
pub struct RhoRow {
    pub label: String,
    /// The run, for subset rows (a heading).
    pub group: Option<String>,
    pub rho: Option<f64>,
    pub pair: Option<(f64, f64)>,
    pub query: Option<(f64, f64)>,
    /// Passes the gate (`None`: no ρ).
    pub passes: Option<bool>,
}

/// Everything the plot shows.
#[derive(Debug, Clone, PartialEq)]
pub struct RhoPlot {
    pub title: String,
    pub x_label: String,
    pub rows: Vec<RhoRow>,
    pub gate: Gate,
    pub width: u32,
}

impl RhoPlot {
    /// The gate's bounds as reference lines.
    pub fn gate_lines(&self) -> Vec<RefLine> {
        let (lo, hi) = match self.gate {
            Gate::AbsBelow { limit } => (-limit, limit),
            Gate::Within { low, high } => (low, high),
        };
        [lo, hi].into_iter().map(|v| RefLine { value: v, label: format!("gate {v:+}"), color: GATE }).collect()
    }

    fn forest(&self) -> ForestPlot {
        let nan = f64::NAN;
        ForestPlot {
            title: self.title.clone(),
            x_label: self.x_label.clone(),
            rows: self
                .rows
                .iter()
                .map(|r| ForestRow {
                    label: r.label.clone(),
                    estimate: r.rho.unwrap_or(nan),
                    low: r.pair.map_or(nan, |p| p.0),
                    high: r.pair.map_or(nan, |p| p.1),
                    // Colours say pass/breach (no significance star).
                    significant: false,
                    group: r.group.clone(),
                })
                .collect(),
            width: self.width,
            selected: None,
        }
    }

    /// The layout (its x axis covers the gate and both intervals).
    pub fn layout(&self) -> ForestLayout {
        let mut extra: Vec<f64> = self.gate_lines().iter().map(|g| g.value).collect();
        extra.extend(self.rows.iter().filter_map(|r| r.query).flat_map(|q| [q.0, q.1]));
        ForestLayout::with_extent(&self.forest(), &extra)
    }
}

impl Plot for RhoPlot {
    crate::plot_frame!(forest);

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let forest = self.forest();
        let l = self.layout();
        let color = |i: usize, _: &ForestRow| match self.rows.get(i).and_then(|r| r.passes) {
            Some(true) => NOT_SIGNIFICANT,
            Some(false) => SIGNIFICANT,
            None => UNDECIDED,
        };
        let secondary: Vec<Option<(f64, f64)>> = self.rows.iter().map(|r| r.query).collect();
        let refs = self.gate_lines();
        let legend = [
            ("passes the gate".to_string(), NOT_SIGNIFICANT),
            ("breaches the gate".to_string(), SIGNIFICANT),
            ("thick: pair CI, thin: query CI".to_string(), UNDECIDED),
        ];
        draw_with_legend(root, &forest, &l, &Marks { color: &color, refs: &refs, secondary: &secondary }, &legend)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::{hex, plot_svg, svg_texts};

    #[test]
    fn gate_lines_and_breaching_rows_in_red() {
        let row = |label: &str, group: Option<&str>, rho: f64, passes: bool| RhoRow {
            label: label.into(),
            group: group.map(str::to_string),
            rho: Some(rho),
            pair: Some((rho - 0.05, rho + 0.05)),
            query: Some((rho - 0.06, rho + 0.06)),
            passes: Some(passes),
        };
        let p = RhoPlot {
            title: "rho".into(),
            x_label: "rho(u, s)".into(),
            rows: vec![
                row("phase7_mab", None, 0.051, true),
                row("phase7_locomo", None, 0.174, false),
                row("single_hop", Some("phase7_locomo"), 0.182, false),
                row("multi_hop", Some("phase7_locomo"), -0.024, true),
            ],
            gate: Gate::SCALE,
            width: 800,
        };
        let l = p.layout();
        assert!(l.x_min <= -0.15 && l.x_max >= 0.15, "the gate is on the axis");
        let svg = plot_svg(&p).unwrap();
        let markers = |c: RGBColor| svg.lines().filter(|x| x.contains("<circle") && x.contains(&hex(c))).count();
        assert_eq!(markers(SIGNIFICANT), 2 + 1);
        assert_eq!(markers(NOT_SIGNIFICANT), 2 + 1);
        let texts = svg_texts(&svg);
        assert!(texts.iter().any(|t| t == "gate -0.15") && texts.iter().any(|t| t == "gate +0.15"), "{texts:?}");
        assert!(svg.contains(&format!("stroke=\"{}\"", hex(GATE))));
        let pilot = RhoPlot { gate: Gate::PILOT, rows: vec![], ..p };
        assert!(plot_svg(&pilot).is_ok());
    }
}
