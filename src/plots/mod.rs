//! Plots of audit results, drawn with plotters and generic over any
//! [`plotters::prelude::DrawingBackend`]: the viewer draws them on a `<canvas>` (plotters-canvas)
//! and exports the very same drawing as SVG ([`plotters::prelude::SVGBackend`]); the CLI can use
//! the SVG path too. Nothing here depends on the web.
//!
//! | module | plot |
//! |---|---|
//! | [`forest`] | one row per contrast a − b with its interval and a zero line |
//! | [`cd_diagram`] | Demšar's critical-difference diagram (mean ranks, CD ruler, cliques) |
//! | [`posterior`] | Jeffreys Beta posteriors of two binary arms, P(θa > θb) |
//! | [`verdicts`] | grouped bars of counts (the probe's verdicts, both modes side by side) |
//! | [`cutoffs`] | a metric against the cutoff k, one line per system |
//! | [`ecdf`] | empirical CDFs of several samples, one step line each |
//! | [`histogram`] | counts of non-negative values (the per-query |ΔnDCG|) in equal bins from 0 |
//! | [`reliability`] | lines on [0, 1]: a reliability diagram and accuracy per confidence bin |
//! | [`heatmap`] | a square matrix of shares between arms (a tournament's win rates), diverging colours |
//!
//! A plot of one capability's own data is drawn in that capability's folder with this shared
//! code (the reclaim curves in `reclaim/plot.rs`, the K-sweep in `ksweep/plot.rs`, the
//! ablation's u histogram and ρ rows in `ablation/`): nothing here imports a capability.
//!
//! [`series`] (lines with interval bars) and [`forest::draw_forest`] (forest-style rows) are
//! shared drawing code.
//!
//! Plots whose elements the viewer hit-tests (forest rows, CD-diagram arms) are laid out by a
//! layout struct ([`forest::ForestLayout`], [`cd_diagram::CdLayout`]) in pixels; the drawing
//! and the click handling use the same numbers.

pub mod cd_diagram;
pub mod cutoffs;
pub mod ecdf;
pub mod forest;
pub mod heatmap;
pub mod histogram;
pub mod posterior;
pub mod reliability;
pub mod series;
pub mod verdicts;

use std::fmt;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

pub use cd_diagram::{CdArm, CdLayout, CdPlot};
pub use cutoffs::{CutoffLine, CutoffPlot};
pub use forest::{ForestLayout, ForestPlot, ForestRow};
pub use heatmap::MatrixPlot;
pub use posterior::{PosteriorArm, PosteriorPlot};
pub use reliability::LinesPlot;
pub use verdicts::{VerdictBar, VerdictBars, VerdictGroup};

/// A drawing failure, as text (backend errors differ per backend).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlotError(pub String);

impl fmt::Display for PlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "could not draw the plot: {}", self.0)
    }
}

impl std::error::Error for PlotError {}

/// Any backend or drawing-area error as a [`PlotError`].
pub(crate) fn err<E: fmt::Debug>(e: E) -> PlotError {
    PlotError(format!("{e:?}"))
}

/// Draws the legend of a chart's labelled series at `position`: one style for every plot
/// (13 px labels on a light box).
pub(crate) fn series_legend<'a, DB: DrawingBackend + 'a, CT: plotters::coord::CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> Result<(), PlotError> {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.4))
        .label_font(("sans-serif", 13))
        .draw()
        .map_err(err)
}

/// A plot that knows its size and draws itself on any plotters backend.
pub trait Plot {
    /// Width and height in pixels (the canvas size; the SVG export uses the same).
    fn size(&self) -> (u32, u32);
    /// A one-line description (the canvas's accessible label).
    fn title(&self) -> String;
    /// Draws the plot onto `root` (filling it first). Call `root.present()` afterwards when the
    /// backend needs it ([`plot_svg`] does).
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError>;
}

/// [`Plot::size`] and [`Plot::title`] of a plot whose `width`, `height` and `title` fields say
/// them, written once inside its `impl Plot`: `crate::plot_frame!();`. A forest-style plot
/// with a legend line under it, sized by its `layout()`: `crate::plot_frame!(forest);`.
#[macro_export]
macro_rules! plot_frame {
    () => {
        fn size(&self) -> (u32, u32) {
            (self.width, self.height)
        }

        $crate::plot_frame!(@title);
    };
    (forest) => {
        fn size(&self) -> (u32, u32) {
            $crate::plots::forest::size_with_legend(&self.layout())
        }

        $crate::plot_frame!(@title);
    };
    (@title) => {
        fn title(&self) -> String {
            self.title.clone()
        }
    };
}

/// The plot as a standalone SVG document of its own size.
pub fn plot_svg<P: Plot>(plot: &P) -> Result<String, PlotError> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, plot.size()).into_drawing_area();
        plot.draw(&root)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// `#RRGGBB`, as the SVG backend writes colours (for tests and legends).
pub fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// A text style: `size` pixels, `color`, anchored at (h, v).
pub(crate) fn text(size: f64, color: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    ("sans-serif", size).into_font().color(&color).pos(Pos::new(h, v))
}

/// A bold text style.
pub(crate) fn bold(size: f64, color: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    ("sans-serif", size).into_font().style(FontStyle::Bold).color(&color).pos(Pos::new(h, v))
}

/// Rough width of `s` in pixels at font size `size` (sans-serif averages about 0.58 em per
/// character); used to reserve label space, never for hit-testing text exactly.
pub(crate) fn text_width(s: &str, size: f64) -> i32 {
    (s.chars().count() as f64 * size * 0.58).ceil() as i32
}

/// `s` cut to at most `max` characters, with `…` when cut.
pub(crate) fn ellipsize(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// "Nice" tick values (1, 2, 2.5 or 5 × 10^k steps) covering `[lo, hi]`, at most about
/// `max_ticks` of them. Empty for a non-finite or empty range.
pub fn nice_ticks(lo: f64, hi: f64, max_ticks: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo || max_ticks < 2 {
        return Vec::new();
    }
    let raw = (hi - lo) / (max_ticks - 1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * mag).find(|s| *s >= raw).unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    // Round away the float noise of i × step (0.6000000000000001 → 0.6).
    let scale = 10f64.powi((-step.log10().floor()).clamp(0.0, 12.0) as i32 + 2);
    (first..=last).map(|i| (i as f64 * step * scale).round() / scale).collect()
}

/// The text content of every `<text>` element of an SVG written by plotters (for tests).
pub fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|rest| {
            let body = rest.split_once('>')?.1;
            let content = body.split_once("</text>")?.0;
            Some(
                content
                    .trim()
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&quot;", "\"")
                    .replace("&apos;", "'")
                    .replace("&amp;", "&"),
            )
        })
        .collect()
}

/// A tick label with as many decimals as the step needs.
pub fn tick_label(v: f64, ticks: &[f64]) -> String {
    let step = ticks.windows(2).map(|w| w[1] - w[0]).fold(f64::INFINITY, f64::min);
    let decimals = if step.is_finite() && step > 0.0 { (-step.log10().floor()).clamp(0.0, 6.0) as usize } else { 2 };
    let decimals = if step.is_finite() && (step * 10f64.powi(decimals as i32)).fract().abs() > 1e-6 {
        decimals + 1
    } else {
        decimals
    };
    format!("{v:.decimals$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_nice_and_cover_the_range() {
        assert_eq!(nice_ticks(0.0, 1.0, 6), vec![0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        let t = nice_ticks(-1.05, 0.12, 7);
        assert!(t.contains(&0.0), "{t:?}");
        assert!(t.iter().all(|v| (-1.05..=0.12).contains(v)));
        assert!(nice_ticks(1.0, 1.0, 5).is_empty());
        assert!(nice_ticks(f64::NAN, 1.0, 5).is_empty());
        assert_eq!(tick_label(0.25, &[0.0, 0.25, 0.5]), "0.25");
        assert_eq!(tick_label(2.0, &[1.0, 2.0, 3.0]), "2");
        assert_eq!(ellipsize("abcdef", 4), "abc…");
        assert_eq!(ellipsize("abc", 4), "abc");
    }
}
