//! Reclaim rate (RR) against memory integrity g, one line per policy (and per arm, model or
//! task when the cells differ in those), each cell a point with its interval as a vertical bar
//! (Reclaim Evaluation, Kwon 2026, Fig. 2). Cells without an integrity are drawn as one column
//! per series instead.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::{Plot, PlotError, err, text};
use crate::reclaim::Cell;

/// Series colours (Tableau 10), in series order.
pub const PALETTE: [RGBColor; 10] = [
    RGBColor(78, 121, 167),
    RGBColor(242, 142, 43),
    RGBColor(225, 87, 89),
    RGBColor(118, 183, 178),
    RGBColor(89, 161, 79),
    RGBColor(237, 201, 72),
    RGBColor(176, 122, 161),
    RGBColor(255, 157, 167),
    RGBColor(156, 117, 95),
    RGBColor(186, 176, 172),
];

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
    /// One series per policy, split further by arm, model and task where the cells differ in
    /// them; points in integrity order.
    pub fn from_cells(title: impl Into<String>, cells: &[Cell], width: u32, height: u32) -> ReclaimPlot {
        let many_arms = distinct(cells.iter().map(|c| c.arm.clone())).len() > 1;
        let many_models = distinct(cells.iter().map(|c| c.model.clone())).len() > 1;
        let many_tasks = distinct(cells.iter().map(|c| c.task.clone())).len() > 1;
        let name = |c: &Cell| {
            let mut parts = vec![c.policy.clone()];
            if many_arms {
                parts.push(c.arm.clone().unwrap_or_else(|| "—".into()));
            }
            if many_models {
                parts.push(c.model.clone().unwrap_or_else(|| "—".into()));
            }
            if many_tasks {
                parts.push(c.task.clone().unwrap_or_else(|| "—".into()));
            }
            parts.join(" · ")
        };
        let mut series: Vec<ReclaimSeries> = Vec::new();
        for c in cells {
            let n = name(c);
            let p = ReclaimPoint { integrity: c.integrity, rr: c.rr, low: c.rr_low, high: c.rr_high, n: c.n };
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

    /// Integrity on the x axis (else one column per series).
    pub fn numeric(&self) -> bool {
        self.series.iter().flat_map(|s| &s.points).any(|p| p.integrity.is_some_and(f64::is_finite))
    }

    /// Points drawn (cells with a rate and, on a numeric axis, an integrity).
    pub fn drawn_points(&self) -> usize {
        let numeric = self.numeric();
        self.series
            .iter()
            .flat_map(|s| &s.points)
            .filter(|p| p.rr.is_some_and(f64::is_finite) && (!numeric || p.integrity.is_some_and(f64::is_finite)))
            .count()
    }
}

impl Plot for ReclaimPlot {
    fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    fn title(&self) -> String {
        self.title.clone()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        root.fill(&WHITE).map_err(err)?;
        let numeric = self.numeric();
        let s_count = self.series.len().max(1);
        // The legend goes under the plot (two columns), never over the points.
        let legend_rows = if numeric { self.series.len().div_ceil(2) } else { 0 };
        let legend_h = if legend_rows > 0 { legend_rows as u32 * 18 + 8 } else { 0 };
        let (_, h) = root.dim_in_pixel();
        let (upper, lower) = root.split_vertically(h.saturating_sub(legend_h).max(1));
        let (x_lo, x_hi) = if numeric {
            let xs: Vec<f64> = self
                .series
                .iter()
                .flat_map(|s| &s.points)
                .filter_map(|p| p.integrity)
                .filter(|x| x.is_finite())
                .collect();
            let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let span = if hi - lo > 1e-9 { hi - lo } else { 1.0 };
            (lo - 0.08 * span, hi + 0.08 * span)
        } else {
            (-0.6, s_count as f64 - 0.4)
        };
        let span = x_hi - x_lo;
        let dodge = if numeric { 0.012 * span } else { 0.0 };
        let cap = if numeric { 0.008 * span } else { 0.08 };

        let mut chart = ChartBuilder::on(&upper)
            .caption(&self.title, ("sans-serif", 16))
            .margin(12)
            .x_label_area_size(if numeric { 40 } else { 58 })
            .y_label_area_size(52)
            .build_cartesian_2d(x_lo..x_hi, 0.0..1.05)
            .map_err(err)?;
        let mut mesh = chart.configure_mesh();
        mesh.y_desc("reclaim rate RR")
            .y_label_formatter(&|y| format!("{y:.1}"))
            .disable_x_mesh()
            .light_line_style(WHITE.mix(0.0));
        if numeric {
            mesh.x_desc("memory integrity g").x_label_formatter(&|x| format!("{x:.1}"));
        } else {
            mesh.x_labels(0);
        }
        mesh.draw().map_err(err)?;

        for (si, s) in self.series.iter().enumerate() {
            let color = PALETTE[si % PALETTE.len()];
            let offset = (si as f64 - (s_count as f64 - 1.0) / 2.0) * dodge;
            let pts: Vec<(f64, &ReclaimPoint)> = s
                .points
                .iter()
                .filter(|p| p.rr.is_some_and(f64::is_finite))
                .filter_map(|p| {
                    if numeric {
                        p.integrity.filter(|x| x.is_finite()).map(|x| (x + offset, p))
                    } else {
                        Some((si as f64, p))
                    }
                })
                .collect();
            for (x, p) in &pts {
                if let (Some(lo), Some(hi)) = (p.low, p.high)
                    && lo.is_finite()
                    && hi.is_finite()
                {
                    chart
                        .draw_series([
                            PathElement::new(vec![(*x, lo), (*x, hi)], color.stroke_width(2)),
                            PathElement::new(vec![(*x - cap, lo), (*x + cap, lo)], color.stroke_width(1)),
                            PathElement::new(vec![(*x - cap, hi), (*x + cap, hi)], color.stroke_width(1)),
                        ])
                        .map_err(err)?;
                }
            }
            if numeric && pts.len() > 1 {
                let line: Vec<(f64, f64)> = pts.iter().map(|(x, p)| (*x, p.rr.unwrap_or(0.0))).collect();
                chart
                    .draw_series(std::iter::once(PathElement::new(line, color.mix(0.7).stroke_width(1))))
                    .map_err(err)?;
            }
            chart
                .draw_series(pts.iter().map(|(x, p)| Circle::new((*x, p.rr.unwrap_or(0.0)), 4, color.filled())))
                .map_err(err)?;
            if !numeric {
                let (px, py) = chart.backend_coord(&(si as f64, 0.0));
                root.draw_text(&s.name, &text(12.0, color, HPos::Center, VPos::Top), (px, py + 8)).map_err(err)?;
            }
        }
        if legend_rows > 0 {
            let (w, _) = lower.dim_in_pixel();
            let col_w = (w as i32 - 80) / 2;
            for (si, s) in self.series.iter().enumerate() {
                let color = PALETTE[si % PALETTE.len()];
                let (x, y) = (64 + (si % 2) as i32 * col_w, 6 + (si / 2) as i32 * 18 + 6);
                lower.draw(&Circle::new((x, y), 4, color.filled())).map_err(err)?;
                lower
                    .draw_text(&s.name, &text(12.0, RGBColor(40, 45, 52), HPos::Left, VPos::Center), (x + 10, y))
                    .map_err(err)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::{hex, plot_svg, svg_texts};
    use crate::reclaim::Share;

    fn cell(policy: &str, g: Option<f64>, rr: f64, arm: &str) -> Cell {
        let share = Share { count: 0, denominator: 0, denominator_label: String::new(), rate: None };
        Cell {
            model: Some("m".into()),
            task: None,
            policy: policy.into(),
            integrity: g,
            arm: Some(arm.into()),
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
