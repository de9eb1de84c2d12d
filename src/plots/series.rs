//! A line chart of series of points with interval bars, shared by the reclaim plot (RR against
//! integrity) and the K-sweep (score against K): one colour per series, a vertical bar with
//! caps per interval, points joined by a line on a numeric x axis, a legend under the chart.
//! Points without an x are drawn as one column per series instead.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::{PlotError, err, text};

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

/// The colour of the `i`-th series.
pub fn series_color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// One point: an x (or none: the series' column), a value and its interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub x: Option<f64>,
    pub y: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

/// One line of the chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub name: String,
    pub points: Vec<Point>,
}

/// Everything a chart needs besides its lines.
#[derive(Debug, Clone, PartialEq)]
pub struct Axes {
    pub title: String,
    pub x_desc: String,
    pub y_desc: String,
    /// The y range shown.
    pub y_range: (f64, f64),
    /// Decimals of the y tick labels.
    pub y_decimals: usize,
    /// Tick labels exactly at these x values (else plotters' own, with one decimal).
    pub x_ticks: Option<Vec<f64>>,
}

/// Whether any point has a finite x (a numeric x axis; else one column per series).
pub fn numeric(lines: &[Line]) -> bool {
    lines.iter().flat_map(|s| &s.points).any(|p| p.x.is_some_and(f64::is_finite))
}

/// The points drawn: those with a finite value and, on a numeric axis, a finite x.
pub fn drawn_points(lines: &[Line]) -> usize {
    let numeric = numeric(lines);
    lines
        .iter()
        .flat_map(|s| &s.points)
        .filter(|p| p.y.is_some_and(f64::is_finite) && (!numeric || p.x.is_some_and(f64::is_finite)))
        .count()
}

/// A y range covering every value and interval bound, padded by 8 %, and within `clamp` when
/// all of them are.
pub fn auto_range(lines: &[Line], clamp: (f64, f64)) -> (f64, f64) {
    let ys: Vec<f64> = lines
        .iter()
        .flat_map(|s| &s.points)
        .flat_map(|p| [p.y, p.low, p.high])
        .flatten()
        .filter(|v| v.is_finite())
        .collect();
    let lo = ys.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(lo.is_finite() && hi.is_finite()) {
        return clamp;
    }
    let span = if hi - lo > 1e-9 { hi - lo } else { 1.0 };
    let (a, b) = (lo - 0.08 * span, hi + 0.08 * span);
    if lo >= clamp.0 && hi <= clamp.1 { (a.max(clamp.0), b.min(clamp.1 + 0.05 * (clamp.1 - clamp.0))) } else { (a, b) }
}

/// Draws the chart onto `root` (filling it first).
pub fn draw_lines<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    axes: &Axes,
    lines: &[Line],
) -> Result<(), PlotError> {
    root.fill(&WHITE).map_err(err)?;
    let numeric = numeric(lines);
    let s_count = lines.len().max(1);
    // The legend goes under the plot (two columns), never over the points.
    let legend_rows = if numeric { lines.len().div_ceil(2) } else { 0 };
    let legend_h = if legend_rows > 0 { legend_rows as u32 * 18 + 8 } else { 0 };
    let (_, h) = root.dim_in_pixel();
    let (upper, lower) = root.split_vertically(h.saturating_sub(legend_h).max(1));
    let (x_lo, x_hi) = if numeric {
        let xs: Vec<f64> = lines.iter().flat_map(|s| &s.points).filter_map(|p| p.x).filter(|x| x.is_finite()).collect();
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
    let (y_lo, y_hi) = axes.y_range;
    let own_ticks = axes.x_ticks.as_ref().filter(|_| numeric);

    let mut chart = ChartBuilder::on(&upper)
        .caption(&axes.title, ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(if numeric { 40 } else { 58 })
        .y_label_area_size(52)
        .build_cartesian_2d(x_lo..x_hi, y_lo..y_hi)
        .map_err(err)?;
    let y_fmt = |y: &f64| format!("{y:.prec$}", prec = axes.y_decimals);
    let mut mesh = chart.configure_mesh();
    mesh.y_desc(axes.y_desc.as_str()).y_label_formatter(&y_fmt).disable_x_mesh().light_line_style(WHITE.mix(0.0));
    if numeric {
        mesh.x_desc(axes.x_desc.as_str()).x_label_formatter(&|x| format!("{x:.1}"));
        if own_ticks.is_some() {
            mesh.x_labels(0);
        }
    } else {
        mesh.x_labels(0);
    }
    mesh.draw().map_err(err)?;
    if let Some(ticks) = own_ticks {
        for t in ticks.iter().filter(|t| t.is_finite()) {
            let (px, py) = chart.backend_coord(&(*t, y_lo));
            root.draw(&PathElement::new(vec![(px, py), (px, py + 4)], RGBColor(40, 45, 52).stroke_width(1)))
                .map_err(err)?;
            root.draw_text(&format!("{t}"), &text(12.0, RGBColor(40, 45, 52), HPos::Center, VPos::Top), (px, py + 6))
                .map_err(err)?;
        }
    }

    for (si, s) in lines.iter().enumerate() {
        let color = series_color(si);
        let offset = (si as f64 - (s_count as f64 - 1.0) / 2.0) * dodge;
        let pts: Vec<(f64, &Point)> = s
            .points
            .iter()
            .filter(|p| p.y.is_some_and(f64::is_finite))
            .filter_map(|p| {
                if numeric { p.x.filter(|x| x.is_finite()).map(|x| (x + offset, p)) } else { Some((si as f64, p)) }
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
            let line: Vec<(f64, f64)> = pts.iter().map(|(x, p)| (*x, p.y.unwrap_or(0.0))).collect();
            chart.draw_series(std::iter::once(PathElement::new(line, color.mix(0.7).stroke_width(1)))).map_err(err)?;
        }
        chart
            .draw_series(pts.iter().map(|(x, p)| Circle::new((*x, p.y.unwrap_or(0.0)), 4, color.filled())))
            .map_err(err)?;
        if !numeric {
            let (px, py) = chart.backend_coord(&(si as f64, y_lo));
            root.draw_text(&s.name, &text(12.0, color, HPos::Center, VPos::Top), (px, py + 8)).map_err(err)?;
        }
    }
    if legend_rows > 0 {
        let (w, _) = lower.dim_in_pixel();
        let col_w = (w as i32 - 80) / 2;
        for (si, s) in lines.iter().enumerate() {
            let color = series_color(si);
            let (x, y) = (64 + (si % 2) as i32 * col_w, 6 + (si / 2) as i32 * 18 + 6);
            lower.draw(&Circle::new((x, y), 4, color.filled())).map_err(err)?;
            lower
                .draw_text(&s.name, &text(12.0, RGBColor(40, 45, 52), HPos::Left, VPos::Center), (x + 10, y))
                .map_err(err)?;
        }
    }
    Ok(())
}
