//! A histogram of non-negative values on equal bins from 0 (the |ΔnDCG| of a change of credit
//! target, TIAP Figure 3), with a threshold line and the mean marked.
//!
//! Binning, as NumPy's `np.histogram(values, bins=n, range=(0, high))`: bin i is
//! [i·w, (i+1)·w) with w = high / n, the last bin includes `high`; a value's bin is
//! ⌊v / w⌋, moved by one where floating point put it across an edge (NumPy's own correction).
//! Reference: `tests/reference/alignment/make_shift_reference.py` (`np.histogram`).

use plotters::coord::Shift;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use super::{PlotError, err, series_legend};

/// One bin: values in [low, high) (the last bin includes its high).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistogramBin {
    pub low: f64,
    pub high: f64,
    pub count: usize,
}

/// One bin of a histogram with what it is the histogram of: a row of a table that lists every
/// bin of every histogram.
pub struct BinOf<'a, T> {
    pub of: &'a T,
    pub bin: &'a HistogramBin,
}

/// Every bin of every item's histogram (`bins`), item by item.
pub fn bins_of<'a, T>(
    items: impl IntoIterator<Item = &'a T>,
    bins: impl Fn(&'a T) -> &'a [HistogramBin],
) -> Vec<BinOf<'a, T>> {
    items.into_iter().flat_map(|of| bins(of).iter().map(move |bin| BinOf { of, bin })).collect()
}

/// The counts of `values` in `n` equal bins on [0, high] (`n` ≥ 1, `high` > 0); a value outside
/// the range (or not a number) is counted in no bin.
pub fn bins(values: &[f64], n: usize, high: f64) -> Vec<HistogramBin> {
    let n = n.max(1);
    let width = high / n as f64;
    let edge = |i: usize| if i == n { high } else { i as f64 * width };
    let mut out: Vec<HistogramBin> =
        (0..n).map(|i| HistogramBin { low: edge(i), high: edge(i + 1), count: 0 }).collect();
    for &v in values {
        if !(0.0..=high).contains(&v) {
            continue;
        }
        let mut i = ((v / width).floor() as usize).min(n - 1);
        if v < edge(i) {
            i -= 1;
        } else if i + 1 < n && v >= edge(i + 1) {
            i += 1;
        }
        out[i].count += 1;
    }
    out
}

/// Bar fill (a muted blue that prints well).
pub const BAR_COLOR: RGBColor = RGBColor(52, 101, 164);
/// The threshold line.
pub const THRESHOLD_COLOR: RGBColor = RGBColor(204, 102, 0);
/// The mean line.
pub const MEAN_COLOR: RGBColor = RGBColor(180, 30, 30);
/// The histogram's size on screen and in SVG: width, height in pixels.
pub const HISTOGRAM_SIZE: (u32, u32) = (760, 400);

/// Everything the histogram shows.
#[derive(Debug, Clone, PartialEq)]
pub struct HistogramPlot {
    pub title: String,
    /// The x axis (`|ΔnDCG| per query`).
    pub x_label: String,
    pub bins: Vec<HistogramBin>,
    pub n: usize,
    pub mean_abs: Option<f64>,
    /// Where to draw the shift threshold (0.1 in the paper), if anywhere.
    pub threshold: Option<f64>,
}

/// Draws the histogram onto `root` (filling it first).
fn draw_histogram<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, plot: &HistogramPlot) -> Result<(), PlotError> {
    root.fill(&WHITE).map_err(err)?;
    let x_max = plot.bins.last().map_or(1.0, |b| b.high.max(1e-9));
    let y_top = plot.bins.iter().map(|b| b.count).max().unwrap_or(0);
    // Headroom above the tallest bar; at least 1 so an empty plot still has an axis.
    let y_max = ((y_top as f64) * 1.1).ceil().max(1.0);

    let mut chart = ChartBuilder::on(root)
        .caption(&plot.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(56)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc(plot.x_label.as_str())
        .y_desc("queries")
        .x_labels(11)
        .x_label_formatter(&|x| format!("{x:.1}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(err)?;

    chart
        .draw_series(plot.bins.iter().filter(|b| b.count > 0).map(|b| {
            let mut r = Rectangle::new([(b.low, 0.0), (b.high, b.count as f64)], BAR_COLOR.mix(0.85).filled());
            r.set_margin(0, 0, 1, 1);
            r
        }))
        .map_err(err)?;

    let threshold =
        plot.threshold.filter(|t| *t > 0.0 && *t < x_max).map(|t| (t, THRESHOLD_COLOR, format!("|Δ| = {t}")));
    let mean = plot.mean_abs.map(|m| (m, MEAN_COLOR, format!("mean |Δ| = {m:.4}")));
    for (x, color, label) in threshold.into_iter().chain(mean) {
        chart
            .draw_series(std::iter::once(PathElement::new(vec![(x, 0.0), (x, y_max)], color.stroke_width(2))))
            .map_err(err)?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
    }
    if plot.threshold.is_some() || plot.mean_abs.is_some() {
        series_legend(&mut chart, SeriesLabelPosition::UpperRight)?;
    }
    Ok(())
}

impl super::Plot for HistogramPlot {
    fn size(&self) -> (u32, u32) {
        HISTOGRAM_SIZE
    }
    fn title(&self) -> String {
        self.title.clone()
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        draw_histogram(root, self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::{hex, plot_svg};

    #[test]
    fn bins_follow_numpy_at_the_edges() {
        // np.histogram([0, .049, .05, .5, .999, 1], bins=20, range=(0, 1))[0]
        let h = bins(&[0.0, 0.049, 0.05, 0.5, 0.999, 1.0], 20, 1.0);
        let counts: Vec<usize> = h.iter().map(|b| b.count).collect();
        assert_eq!(counts, [2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
        // 0.6 - 0.4 = 0.19999999999999996 lies below the edge 0.2, 0.3 * 3 = 0.8999999999999999 below
        // 0.9; np.histogram([0.6 - 0.4, 0.3 * 3, 1.5, -0.1], bins=10, range=(0, 1)) → bins 1 and 8.
        let h = bins(&[0.6 - 0.4, 0.3 * 3.0, 1.5, -0.1], 10, 1.0);
        assert_eq!(h.iter().map(|b| b.count).collect::<Vec<_>>(), [0, 1, 0, 0, 0, 0, 0, 0, 1, 0]);
        assert_eq!(h[9].high, 1.0);
    }

    #[test]
    fn svg_has_one_bar_per_nonempty_bin() {
        let values = [0.0, 0.0, 0.02, 0.12, 0.5, 0.51, 0.52, 1.0];
        let bins = bins(&values, 20, 1.0);
        let nonempty = bins.iter().filter(|b| b.count > 0).count();
        let plot = HistogramPlot {
            title: "|ΔnDCG| raw → canonical".into(),
            x_label: "|ΔnDCG| per query".into(),
            bins,
            n: values.len(),
            mean_abs: Some(0.33375),
            threshold: Some(0.1),
        };
        let svg = plot_svg(&plot).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..80.min(svg.len())]);
        let fill = format!("fill=\"{}\"", hex(BAR_COLOR));
        let bars = svg.lines().filter(|l| l.contains("<rect") && l.contains(&fill)).count();
        assert_eq!(bars, nonempty, "{svg}");
        assert!(svg.contains("raw → canonical"));
        assert!(svg.contains("mean |Δ| = 0.3338") || svg.contains("mean |Δ| = 0.3337"));
    }

    #[test]
    fn empty_distribution_still_draws_axes() {
        let plot = HistogramPlot {
            title: "empty".into(),
            x_label: "x".into(),
            bins: bins(&[], 20, 1.0),
            n: 0,
            mean_abs: None,
            threshold: None,
        };
        assert!(plot_svg(&plot).unwrap().contains("queries"));
    }
}
