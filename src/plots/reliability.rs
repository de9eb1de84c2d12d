//! A calibration audit's plots: the reliability diagram (accuracy against the mean predicted
//! probability per bin, one line per method and split, and the diagonal of perfect
//! calibration) and the accuracy per confidence bin (without and with memory, Wilson bars).

use plotters::coord::Shift;
use plotters::prelude::*;

use super::series::{Axes, Line, draw_lines};
use super::{Plot, PlotError};

/// Lines on [0, 1] × [0, 1]-ish axes, drawn by [`draw_lines`].
#[derive(Debug, Clone, PartialEq)]
pub struct LinesPlot {
    pub title: String,
    pub x_desc: String,
    pub y_desc: String,
    pub lines: Vec<Line>,
    pub width: u32,
    pub height: u32,
}

impl Plot for LinesPlot {
    crate::plot_frame!();

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let axes = Axes {
            title: self.title.clone(),
            x_desc: self.x_desc.clone(),
            y_desc: self.y_desc.clone(),
            y_range: (0.0, 1.0),
            y_decimals: 1,
            x_ticks: None,
        };
        draw_lines(root, &axes, &self.lines)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::series::Point;
    use crate::plots::{plot_svg, svg_texts};

    #[test]
    fn draws_its_lines_and_labels() {
        let p = |x: f64, y: f64| Point { x: Some(x), y: Some(y), low: None, high: None };
        let plot = LinesPlot {
            title: "Reliability".into(),
            x_desc: "mean predicted probability".into(),
            y_desc: "accuracy".into(),
            lines: vec![
                Line { name: "perfect calibration".into(), points: vec![p(0.0, 0.0), p(1.0, 1.0)] },
                Line { name: "raw, split 1".into(), points: vec![p(0.2, 0.1), p(0.7, 0.8)] },
            ],
            width: 600,
            height: 400,
        };
        let texts = svg_texts(&plot_svg(&plot).unwrap());
        for t in ["perfect calibration", "raw, split 1", "accuracy"] {
            assert!(texts.iter().any(|x| x == t), "{t} in {texts:?}");
        }
    }
}
