//! A metric against the cutoff k (`--k 1,5,10,60`): one line per system, for one credit target
//! — the Recall@k / nDCG@k curve of a rescoring.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::series::{Axes, Line, Point, draw_lines};
use super::{Plot, PlotError};

/// One system's means at each cutoff.
#[derive(Debug, Clone, PartialEq)]
pub struct CutoffLine {
    pub system: String,
    /// (k, mean), k ascending.
    pub points: Vec<(usize, Option<f64>)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CutoffPlot {
    pub title: String,
    /// e.g. `nDCG@k`.
    pub y_label: String,
    pub lines: Vec<CutoffLine>,
    pub width: u32,
    pub height: u32,
}

impl CutoffPlot {
    pub fn chart_lines(&self) -> Vec<Line> {
        self.lines
            .iter()
            .map(|l| Line {
                name: l.system.clone(),
                points: l.points.iter().map(|&(k, y)| Point { x: Some(k as f64), y, low: None, high: None }).collect(),
            })
            .collect()
    }

    fn ks(&self) -> Vec<f64> {
        let mut ks: Vec<f64> = self.lines.iter().flat_map(|l| l.points.iter().map(|p| p.0 as f64)).collect();
        ks.sort_by(f64::total_cmp);
        ks.dedup();
        ks
    }
}

impl Plot for CutoffPlot {
    crate::plot_frame!();

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let axes = Axes {
            title: self.title.clone(),
            x_desc: "cutoff k".into(),
            y_desc: self.y_label.clone(),
            y_range: (0.0, 1.0),
            y_decimals: 2,
            x_ticks: Some(self.ks()),
        };
        draw_lines(root, &axes, &self.chart_lines())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::{plot_svg, svg_texts};

    #[test]
    fn draws_one_line_per_system_with_the_cutoffs_as_ticks() {
        let plot = CutoffPlot {
            title: "nDCG@k, canonical".into(),
            y_label: "nDCG@k".into(),
            lines: vec![
                CutoffLine { system: "bm25".into(), points: vec![(1, Some(0.1)), (5, Some(0.3)), (60, Some(0.5))] },
                CutoffLine { system: "dense".into(), points: vec![(1, Some(0.2)), (5, None), (60, Some(0.6))] },
            ],
            width: 640,
            height: 360,
        };
        let svg = plot_svg(&plot).unwrap();
        let texts = svg_texts(&svg);
        for t in ["bm25", "dense", "1", "5", "60", "cutoff k"] {
            assert!(texts.iter().any(|x| x == t), "{t} in {texts:?}");
        }
    }
}
