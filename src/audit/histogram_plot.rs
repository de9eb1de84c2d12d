//! The |ΔnDCG| histogram (TIAP Fig. 3): per-query absolute nDCG change between two credit
//! targets, as the 20 bins of [`crate::audit::DeltaDistribution`], with the 0.1 shift threshold
//! and the mean |Δ| marked.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::audit::{DeltaDistribution, HistogramBin};
pub use crate::plots::PlotError;
use crate::plots::{err, series_legend};

/// Bar fill (a muted blue that prints well).
pub const BAR_COLOR: RGBColor = RGBColor(52, 101, 164);
/// The |Δ| ≥ 0.1 threshold line.
pub const THRESHOLD_COLOR: RGBColor = RGBColor(204, 102, 0);
/// The mean |Δ| line.
pub const MEAN_COLOR: RGBColor = RGBColor(180, 30, 30);

/// Everything the histogram shows.
#[derive(Debug, Clone, PartialEq)]
pub struct HistogramPlot {
    pub title: String,
    pub bins: Vec<HistogramBin>,
    pub n: usize,
    pub mean_abs: Option<f64>,
    /// Where to draw the shift threshold (0.1 in the paper), if anywhere.
    pub threshold: Option<f64>,
}

impl HistogramPlot {
    /// The plot of one row of the report's `delta_distribution`.
    pub fn from_distribution(d: &DeltaDistribution) -> HistogramPlot {
        let who = if d.system == "all" { "all systems pooled".to_string() } else { d.system.clone() };
        HistogramPlot {
            title: format!("|ΔnDCG| {} → {} ({who}, n = {})", d.a, d.b, d.n),
            bins: d.bins.clone(),
            n: d.n,
            mean_abs: d.mean_abs,
            threshold: Some(crate::audit::distribution::SHIFT_THRESHOLD),
        }
    }
}

/// Draws the histogram onto `root` (filling it first). Call `root.present()` afterwards when
/// the backend needs it (SVG to a string does; [`histogram_svg`] does it for you).
pub fn draw_histogram<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    plot: &HistogramPlot,
) -> Result<(), PlotError> {
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
        .x_desc("|ΔnDCG| per query")
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

    if let Some(t) = plot.threshold.filter(|t| *t > 0.0 && *t < x_max) {
        chart
            .draw_series(std::iter::once(PathElement::new(vec![(t, 0.0), (t, y_max)], THRESHOLD_COLOR.stroke_width(2))))
            .map_err(err)?
            .label(format!("|Δ| = {t}"))
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], THRESHOLD_COLOR.stroke_width(2)));
    }
    if let Some(m) = plot.mean_abs {
        chart
            .draw_series(std::iter::once(PathElement::new(vec![(m, 0.0), (m, y_max)], MEAN_COLOR.stroke_width(2))))
            .map_err(err)?
            .label(format!("mean |Δ| = {m:.4}"))
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], MEAN_COLOR.stroke_width(2)));
    }
    if plot.threshold.is_some() || plot.mean_abs.is_some() {
        series_legend(&mut chart, SeriesLabelPosition::UpperRight)?;
    }
    Ok(())
}

/// The histogram's size on screen and in SVG: width, height in pixels.
pub const HISTOGRAM_SIZE: (u32, u32) = (760, 400);

impl crate::plots::Plot for HistogramPlot {
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

/// The histogram as a standalone SVG document of `width` × `height` pixels.
pub fn histogram_svg(plot: &HistogramPlot, width: u32, height: u32) -> Result<String, PlotError> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        draw_histogram(&root, plot)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::distribution::histogram;

    #[test]
    fn svg_has_one_bar_per_nonempty_bin() {
        let values = [0.0, 0.0, 0.02, 0.12, 0.5, 0.51, 0.52, 1.0];
        let bins = histogram(&values);
        let nonempty = bins.iter().filter(|b| b.count > 0).count();
        let plot = HistogramPlot {
            title: "|ΔnDCG| raw → canonical".into(),
            bins,
            n: values.len(),
            mean_abs: Some(0.33375),
            threshold: Some(0.1),
        };
        let svg = histogram_svg(&plot, 640, 400).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..80.min(svg.len())]);
        let fill = format!("fill=\"#{:02X}{:02X}{:02X}\"", BAR_COLOR.0, BAR_COLOR.1, BAR_COLOR.2);
        let bars = svg.lines().filter(|l| l.contains("<rect") && l.contains(&fill)).count();
        assert_eq!(bars, nonempty, "{svg}");
        assert!(svg.contains("raw → canonical"));
        assert!(svg.contains("mean |Δ| = 0.3338") || svg.contains("mean |Δ| = 0.3337"));
    }

    #[test]
    fn empty_distribution_still_draws_axes() {
        let plot = HistogramPlot { title: "empty".into(), bins: histogram(&[]), n: 0, mean_abs: None, threshold: None };
        let svg = histogram_svg(&plot, 300, 200).unwrap();
        assert!(svg.contains("queries"));
    }
}
