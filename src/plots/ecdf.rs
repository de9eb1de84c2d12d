//! Empirical CDFs of several samples on one axis (BriefBench Figs. 2, 4, 7): one step line per
//! sample, right-continuous (a vertical rise at each value, flat between), from 0 left of the
//! smallest value to 1 at the largest. A line whose values lie right of another's everywhere is
//! stochastically greater.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::series::series_color;
use super::{Plot, PlotError, err, series_legend};

/// One sample's ECDF: each distinct value, ascending, with the share at or below it.
#[derive(Debug, Clone, PartialEq)]
pub struct EcdfLine {
    pub name: String,
    pub steps: Vec<(f64, f64)>,
}

/// Several ECDFs on one axis.
#[derive(Debug, Clone, PartialEq)]
pub struct EcdfPlot {
    pub title: String,
    pub x_desc: String,
    pub lines: Vec<EcdfLine>,
    pub width: u32,
    pub height: u32,
}

impl EcdfPlot {
    /// The x range: every value, padded by 5% (a unit range around a single value).
    fn x_range(&self) -> (f64, f64) {
        let xs = self.lines.iter().flat_map(|l| l.steps.iter().map(|s| s.0)).filter(|x| x.is_finite());
        let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)));
        if !lo.is_finite() {
            return (0.0, 1.0);
        }
        let pad = if hi > lo { 0.05 * (hi - lo) } else { 0.5 };
        (lo - pad, hi + pad)
    }

    /// The vertices of a line's staircase from the left edge `lo` to the right edge `hi`.
    pub fn staircase(line: &EcdfLine, (lo, hi): (f64, f64)) -> Vec<(f64, f64)> {
        let mut pts = vec![(lo, 0.0)];
        let mut level = 0.0;
        for &(x, f) in line.steps.iter().filter(|s| s.0.is_finite() && s.1.is_finite()) {
            pts.push((x, level));
            pts.push((x, f));
            level = f;
        }
        pts.push((hi, level));
        pts
    }
}

impl Plot for EcdfPlot {
    crate::plot_frame!();

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        root.fill(&WHITE).map_err(err)?;
        let (lo, hi) = self.x_range();
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 16))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(52)
            .build_cartesian_2d(lo..hi, 0.0..1.02)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(self.x_desc.as_str())
            .y_desc("share at or below")
            .light_line_style(WHITE.mix(0.0))
            .x_label_formatter(&|x| format!("{x:.2}"))
            .y_label_formatter(&|y| format!("{y:.1}"))
            .draw()
            .map_err(err)?;
        for (i, line) in self.lines.iter().enumerate() {
            let color = series_color(i);
            // Widths differ from line to line, so steps that coincide stay visible.
            let width = 2 + (i % 3) as u32;
            let n = line.steps.last().map_or(0.0, |s| s.1);
            chart
                .draw_series(std::iter::once(PathElement::new(
                    Self::staircase(line, (lo, hi)),
                    color.mix(0.85).stroke_width(width),
                )))
                .map_err(err)?
                .label(if n > 0.0 { line.name.clone() } else { format!("{} (no values)", line.name) })
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
        }
        series_legend(&mut chart, SeriesLabelPosition::UpperLeft)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::{hex, plot_svg};

    #[test]
    fn one_staircase_per_sample_from_zero_to_one() {
        let line = |name: &str, steps: &[(f64, f64)]| EcdfLine { name: name.into(), steps: steps.to_vec() };
        let p = EcdfPlot {
            title: "Compliance ECDF".into(),
            x_desc: "compliance".into(),
            lines: vec![line("typed", &[(2.0 / 3.0, 0.25), (1.0, 1.0)]), line("bm25", &[(0.0, 0.5), (1.0, 1.0)])],
            width: 640,
            height: 400,
        };
        let stairs = EcdfPlot::staircase(&p.lines[0], (0.0, 1.1));
        assert_eq!(stairs, [(0.0, 0.0), (2.0 / 3.0, 0.0), (2.0 / 3.0, 0.25), (1.0, 0.25), (1.0, 1.0), (1.1, 1.0)]);
        let svg = plot_svg(&p).unwrap();
        for i in 0..2 {
            let stroke = format!("stroke=\"{}\"", hex(series_color(i)));
            assert!(svg.lines().any(|l| l.contains("<polyline") && l.contains(&stroke)), "line {i}");
        }
        assert!(svg.contains("typed") && svg.contains("bm25"));
        // No values at all still draws.
        let empty = EcdfPlot { lines: vec![line("none", &[])], ..p };
        assert!(plot_svg(&empty).is_ok());
    }
}
