//! Posterior densities of two binary arms: with a Jeffreys prior Beta(½, ½), an arm with s
//! successes in n trials has posterior Beta(s + ½, n − s + ½)
//! ([`crate::stats::posterior::jeffreys_density`]); the title gives P(θa > θb)
//! ([`crate::stats::posterior::posterior_superiority`], the arms treated as independent).

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{Plot, PlotError, err, series_legend};
use crate::stats::posterior::{jeffreys_density, posterior_superiority};

/// Arm a's curve.
pub const COLOR_A: RGBColor = RGBColor(31, 120, 180);
/// Arm b's curve.
pub const COLOR_B: RGBColor = RGBColor(227, 119, 0);

/// Points per curve.
const GRID: usize = 600;

/// One binary arm: successes out of n.
#[derive(Debug, Clone, PartialEq)]
pub struct PosteriorArm {
    pub name: String,
    pub successes: f64,
    pub n: f64,
}

/// Two arms' posteriors.
#[derive(Debug, Clone, PartialEq)]
pub struct PosteriorPlot {
    pub a: PosteriorArm,
    pub b: PosteriorArm,
    pub width: u32,
    pub height: u32,
}

impl PosteriorPlot {
    /// P(θa > θb) under independent Jeffreys posteriors (`None` for invalid counts).
    pub fn p_superiority(&self) -> Option<f64> {
        posterior_superiority(self.a.successes, self.a.n, self.b.successes, self.b.n)
    }

    /// The density curve of an arm on the grid (open interval (0, 1)).
    pub fn curve(arm: &PosteriorArm) -> Vec<(f64, f64)> {
        (0..GRID)
            .map(|i| {
                let t = (i as f64 + 0.5) / GRID as f64;
                let d = jeffreys_density(arm.successes, arm.n, t);
                (t, if d.is_finite() { d } else { 0.0 })
            })
            .collect()
    }
}

impl Plot for PosteriorPlot {
    fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    fn title(&self) -> String {
        match self.p_superiority() {
            Some(p) => format!("Jeffreys posteriors: P(θ {} > θ {}) = {p:.4}", self.a.name, self.b.name),
            None => format!("Jeffreys posteriors of {} and {}", self.a.name, self.b.name),
        }
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        root.fill(&WHITE).map_err(err)?;
        let ca = Self::curve(&self.a);
        let cb = Self::curve(&self.b);
        let top = ca.iter().chain(&cb).map(|p| p.1).fold(0.0, f64::max);
        let y_max = if top > 0.0 { top * 1.08 } else { 1.0 };
        let mut chart = ChartBuilder::on(root)
            .caption(self.title(), ("sans-serif", 16))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(0.0..1.0, 0.0..y_max)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("success rate θ")
            .y_desc("posterior density")
            .x_labels(11)
            .light_line_style(WHITE.mix(0.0))
            .x_label_formatter(&|x| format!("{x:.1}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()
            .map_err(err)?;
        for (arm, curve, color) in [(&self.a, &ca, COLOR_A), (&self.b, &cb, COLOR_B)] {
            let mut area: Vec<(f64, f64)> = Vec::with_capacity(curve.len() + 2);
            area.push((curve.first().map_or(0.0, |p| p.0), 0.0));
            area.extend(curve.iter().copied());
            area.push((curve.last().map_or(1.0, |p| p.0), 0.0));
            chart.draw_series(std::iter::once(Polygon::new(area, color.mix(0.18).filled()))).map_err(err)?;
            let mean = (arm.successes + 0.5) / (arm.n + 1.0);
            chart
                .draw_series(std::iter::once(PathElement::new(curve.clone(), color.stroke_width(2))))
                .map_err(err)?
                .label(format!("{}: {} of {} (posterior mean {mean:.3})", arm.name, arm.successes, arm.n))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
        }
        series_legend(&mut chart, SeriesLabelPosition::UpperLeft)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::{hex, plot_svg};

    /// Arms as (name, successes, n), and the size.
    fn two_arms(a: (&str, f64, f64), b: (&str, f64, f64), (width, height): (u32, u32)) -> PosteriorPlot {
        let arm = |(name, successes, n): (&str, f64, f64)| PosteriorArm { name: name.into(), successes, n };
        PosteriorPlot { a: arm(a), b: arm(b), width, height }
    }

    #[test]
    fn two_curves_and_the_superiority_in_the_title() {
        let p = two_arms(("source_first", 96.0, 96.0), ("source_plus_conclusion", 91.0, 96.0), (760, 380));
        let ps = p.p_superiority().unwrap();
        assert!(ps > 0.9 && ps < 1.0, "{ps}");
        let svg = plot_svg(&p).unwrap();
        assert!(svg.contains(&format!("= {ps:.4}")), "title with P: {}", &svg[..400]);
        for c in [COLOR_A, COLOR_B] {
            let curves = svg
                .lines()
                .filter(|l| l.contains("<polyline") && l.contains(&format!("stroke=\"{}\"", hex(c))))
                .count();
            assert!(curves >= 1, "curve {c:?}");
        }
        // All-success and all-failure arms have unbounded Jeffreys densities at the ends: the
        // grid stays inside (0, 1) and every point is finite.
        assert!(PosteriorPlot::curve(&p.a).iter().all(|(_, d)| d.is_finite()));
    }

    #[test]
    fn invalid_counts_still_draw() {
        let p = two_arms(("a", 5.0, 0.0), ("b", 1.0, 2.0), (400, 300));
        assert_eq!(p.p_superiority(), None);
        assert!(plot_svg(&p).is_ok());
    }
}
