//! Forest plot of a comparison's contrasts: one row per contrast a − b with its point estimate,
//! its interval, a zero line, significant rows (after multiplicity correction) in red with a
//! star, and optional group headers (rows sharing a group are drawn under one heading).
//!
//! Everything is placed by [`ForestLayout`] in pixels, so the viewer's click handling
//! ([`ForestLayout::row_at`]) uses exactly the numbers the drawing uses. Other forest-style
//! plots (the K-sweep's paired deltas, the ablation's ρ panel) draw through [`draw_forest`]
//! with their own [`Marks`]: a colour per row, dashed reference lines, a second interval.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::{Plot, PlotError, bold, ellipsize, err, nice_ticks, text, text_width, tick_label};

/// Significant contrasts.
pub const SIGNIFICANT: RGBColor = RGBColor(178, 24, 43);
/// Contrasts that are not significant.
pub const NOT_SIGNIFICANT: RGBColor = RGBColor(69, 104, 138);
/// The zero line.
pub const ZERO_LINE: RGBColor = RGBColor(120, 120, 120);
/// Background of every other row.
pub const STRIPE: RGBColor = RGBColor(243, 245, 248);
/// Background of the selected row.
pub const SELECTED: RGBColor = RGBColor(255, 236, 170);
/// Axis, ticks and group headings.
pub const INK: RGBColor = RGBColor(40, 45, 52);

/// Height of one row in pixels.
pub const ROW_H: i32 = 20;
const TITLE_H: i32 = 34;
const AXIS_H: i32 = 50;
const FONT: f64 = 12.5;
const PAD: i32 = 12;
const VALUES_W: i32 = 190;
/// Indent of grouped rows' labels, in pixels.
const INDENT: i32 = 10;

/// One contrast.
#[derive(Debug, Clone, PartialEq)]
pub struct ForestRow {
    /// Shown left of the row, e.g. `source_first − lossy`.
    pub label: String,
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
    /// Significant after multiplicity correction (drawn red, starred).
    pub significant: bool,
    /// Rows with the same group are drawn under one heading (consecutive rows only: sort
    /// them first).
    pub group: Option<String>,
}

/// Everything the forest plot shows.
#[derive(Debug, Clone, PartialEq)]
pub struct ForestPlot {
    pub title: String,
    /// The x axis, e.g. `difference a − b (mean of correct)`.
    pub x_label: String,
    pub rows: Vec<ForestRow>,
    /// Width in pixels (the height follows from the number of rows).
    pub width: u32,
    /// A row to highlight (index into `rows`).
    pub selected: Option<usize>,
}

/// Where one row is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowBox {
    /// Index into [`ForestPlot::rows`].
    pub index: usize,
    pub top: i32,
    pub bottom: i32,
    /// The row's centre line.
    pub y: i32,
}

/// The pixel layout of a forest plot.
#[derive(Debug, Clone, PartialEq)]
pub struct ForestLayout {
    pub width: i32,
    pub height: i32,
    /// Labels are right-aligned at this x.
    pub label_right: i32,
    /// Longest label shown, in characters (longer ones end in `…`).
    pub label_chars: usize,
    /// The data area (the x axis spans it).
    pub plot_left: i32,
    pub plot_right: i32,
    /// The numbers column (estimate and interval) starts here; `None` when too narrow.
    pub values_left: Option<i32>,
    /// The value range of the x axis.
    pub x_min: f64,
    pub x_max: f64,
    pub rows: Vec<RowBox>,
    /// Group headings: centre y and name.
    pub headers: Vec<(i32, String)>,
    /// The x axis line.
    pub axis_y: i32,
}

impl ForestLayout {
    pub fn new(plot: &ForestPlot) -> ForestLayout {
        ForestLayout::with_extent(plot, &[])
    }

    /// The layout with the x axis also covering `extra` values (reference lines, second
    /// intervals).
    pub fn with_extent(plot: &ForestPlot, extra: &[f64]) -> ForestLayout {
        let width = plot.width.clamp(320, 4000) as i32;
        let values_left = (width >= 560).then_some(width - VALUES_W);
        let right_edge = values_left.unwrap_or(width) - PAD;
        // Grouped rows are indented under their heading: reserve the indent too.
        let longest = plot
            .rows
            .iter()
            .map(|r| text_width(&r.label, FONT) + if r.group.is_some() { INDENT + 2 } else { 0 })
            .max()
            .unwrap_or(40);
        let label_w = longest.clamp(40, width * 2 / 5);
        let label_chars = ((label_w as f64) / (FONT * 0.58)).floor().max(4.0) as usize;
        let label_right = PAD + label_w;
        let plot_left = label_right + PAD;
        let plot_right = right_edge.max(plot_left + 40);

        let finite: Vec<f64> = plot
            .rows
            .iter()
            .flat_map(|r| [r.estimate, r.low, r.high])
            .chain(extra.iter().copied())
            .filter(|v| v.is_finite())
            .chain(std::iter::once(0.0))
            .collect();
        let lo = finite.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let (x_min, x_max) = if hi - lo > 1e-12 {
            let pad = (hi - lo) * 0.06;
            (lo - pad, hi + pad)
        } else {
            (lo - 1.0, hi + 1.0)
        };

        let mut rows = Vec::with_capacity(plot.rows.len());
        let mut headers = Vec::new();
        let mut y = TITLE_H + 6;
        let mut last_group: Option<&str> = None;
        for (index, r) in plot.rows.iter().enumerate() {
            if let Some(g) = r.group.as_deref()
                && last_group != Some(g)
            {
                headers.push((y + ROW_H / 2, g.to_string()));
                y += ROW_H;
            }
            last_group = r.group.as_deref();
            rows.push(RowBox { index, top: y, bottom: y + ROW_H, y: y + ROW_H / 2 });
            y += ROW_H;
        }
        let axis_y = y + 4;
        ForestLayout {
            width,
            height: axis_y + AXIS_H,
            label_right,
            label_chars,
            plot_left,
            plot_right,
            values_left,
            x_min,
            x_max,
            rows,
            headers,
            axis_y,
        }
    }

    /// The pixel x of a value.
    pub fn x(&self, v: f64) -> i32 {
        let f = (v - self.x_min) / (self.x_max - self.x_min);
        (self.plot_left as f64 + f * (self.plot_right - self.plot_left) as f64).round() as i32
    }

    /// The row under a point (canvas pixels), if any: anywhere across the row's full width.
    pub fn row_at(&self, x: f64, y: f64) -> Option<usize> {
        if !(0.0..=self.width as f64).contains(&x) {
            return None;
        }
        self.rows.iter().find(|r| y >= r.top as f64 && y < r.bottom as f64).map(|r| r.index)
    }
}

/// The numbers of one row as text: `+0.052 [+0.021, +0.115] *`.
pub fn row_values(r: &ForestRow) -> String {
    let f = |v: f64| if v.is_finite() { format!("{v:+.3}") } else { "—".into() };
    format!("{} [{}, {}]{}", f(r.estimate), f(r.low), f(r.high), if r.significant { " *" } else { "" })
}

impl Plot for ForestPlot {
    fn size(&self) -> (u32, u32) {
        let l = ForestLayout::new(self);
        (l.width as u32, l.height as u32)
    }

    fn title(&self) -> String {
        self.title.clone()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let color = |_: usize, r: &ForestRow| if r.significant { SIGNIFICANT } else { NOT_SIGNIFICANT };
        draw_forest(root, self, &ForestLayout::new(self), &Marks { color: &color, refs: &[], secondary: &[] })
    }
}

/// A vertical reference line (a gate bound, a threshold): dashed, labelled under the title.
#[derive(Debug, Clone, PartialEq)]
pub struct RefLine {
    pub value: f64,
    pub label: String,
    pub color: RGBColor,
}

/// How a forest-style plot marks its rows.
pub struct Marks<'a> {
    /// The colour of a row by index (its label, interval, marker and numbers).
    pub color: &'a dyn Fn(usize, &ForestRow) -> RGBColor,
    /// Vertical reference lines besides the zero line.
    pub refs: &'a [RefLine],
    /// A second, thinner interval per row (by row index), drawn under the first.
    pub secondary: &'a [Option<(f64, f64)>],
}

/// Draws a forest-style plot laid out by `l` (made from `plot`, with any extra extent).
pub fn draw_forest<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    plot: &ForestPlot,
    l: &ForestLayout,
    marks: &Marks<'_>,
) -> Result<(), PlotError> {
    root.fill(&WHITE).map_err(err)?;
    root.draw_text(&plot.title, &bold(15.0, INK, HPos::Center, VPos::Top), (l.width / 2, 8)).map_err(err)?;

    // Row backgrounds first (stripes, the selected row).
    for (i, b) in l.rows.iter().enumerate() {
        let fill = if plot.selected == Some(b.index) {
            Some(SELECTED)
        } else if i % 2 == 1 {
            Some(STRIPE)
        } else {
            None
        };
        if let Some(c) = fill {
            root.draw(&Rectangle::new([(0, b.top), (l.width, b.bottom)], c.filled())).map_err(err)?;
        }
    }
    for (y, name) in &l.headers {
        root.draw_text(&ellipsize(name, l.label_chars + 20), &bold(FONT, INK, HPos::Left, VPos::Center), (PAD, *y))
            .map_err(err)?;
    }
    if (l.x_min..=l.x_max).contains(&0.0) {
        let x0 = l.x(0.0);
        root.draw(&PathElement::new(vec![(x0, TITLE_H), (x0, l.axis_y)], ZERO_LINE.stroke_width(1))).map_err(err)?;
    }
    for r in marks.refs.iter().filter(|r| r.value.is_finite()) {
        let x = l.x(r.value);
        root.draw(&DashedPathElement::new(vec![(x, TITLE_H + 4), (x, l.axis_y)], 6, 4, r.color.stroke_width(2)))
            .map_err(err)?;
        root.draw_text(&r.label, &text(10.5, r.color, HPos::Center, VPos::Bottom), (x, TITLE_H + 4)).map_err(err)?;
    }
    for b in &l.rows {
        let Some(r) = plot.rows.get(b.index) else { continue };
        let color = (marks.color)(b.index, r);
        let indent = if r.group.is_some() { INDENT } else { 0 };
        root.draw_text(
            &ellipsize(&r.label, l.label_chars.saturating_sub(indent as usize / 6)),
            &text(FONT, color, HPos::Right, VPos::Center),
            (l.label_right, b.y),
        )
        .map_err(err)?;
        if let Some(Some((lo, hi))) = marks.secondary.get(b.index)
            && lo.is_finite()
            && hi.is_finite()
        {
            let (x0, x1) = (l.x(*lo), l.x(*hi));
            root.draw(&PathElement::new(vec![(x0, b.y + 5), (x1, b.y + 5)], color.mix(0.55).stroke_width(1)))
                .map_err(err)?;
        }
        if r.low.is_finite() && r.high.is_finite() {
            let (x0, x1) = (l.x(r.low), l.x(r.high));
            root.draw(&PathElement::new(vec![(x0, b.y), (x1, b.y)], color.stroke_width(2))).map_err(err)?;
            for x in [x0, x1] {
                root.draw(&PathElement::new(vec![(x, b.y - 4), (x, b.y + 4)], color.stroke_width(1))).map_err(err)?;
            }
        }
        if r.estimate.is_finite() {
            root.draw(&Circle::new((l.x(r.estimate), b.y), 4, color.filled())).map_err(err)?;
        }
        if let Some(vx) = l.values_left {
            root.draw_text(&row_values(r), &text(FONT - 0.5, color, HPos::Left, VPos::Center), (vx, b.y))
                .map_err(err)?;
        }
    }

    // The x axis.
    root.draw(&PathElement::new(vec![(l.plot_left, l.axis_y), (l.plot_right, l.axis_y)], INK.stroke_width(1)))
        .map_err(err)?;
    let ticks = nice_ticks(l.x_min, l.x_max, 7);
    for t in &ticks {
        let x = l.x(*t);
        root.draw(&PathElement::new(vec![(x, l.axis_y), (x, l.axis_y + 4)], INK.stroke_width(1))).map_err(err)?;
        root.draw_text(&tick_label(*t, &ticks), &text(11.5, INK, HPos::Center, VPos::Top), (x, l.axis_y + 7))
            .map_err(err)?;
    }
    root.draw_text(
        &plot.x_label,
        &text(12.5, INK, HPos::Center, VPos::Top),
        ((l.plot_left + l.plot_right) / 2, l.axis_y + 26),
    )
    .map_err(err)?;
    Ok(())
}

/// The size of a forest-style plot with a legend line under it.
pub fn size_with_legend(l: &ForestLayout) -> (u32, u32) {
    (l.width as u32, (l.height + LEGEND_H) as u32)
}

/// Draws a forest-style plot and, under it, a legend line: a marker and a name per entry.
pub fn draw_with_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    plot: &ForestPlot,
    l: &ForestLayout,
    marks: &Marks<'_>,
    entries: &[(String, RGBColor)],
) -> Result<(), PlotError> {
    draw_forest(root, plot, l, marks)?;
    let y = l.height + LEGEND_H / 2 - 4;
    let mut x = l.plot_left;
    for (name, color) in entries {
        root.draw(&Circle::new((x, y), 4, color.filled())).map_err(err)?;
        root.draw_text(name, &text(12.0, INK, HPos::Left, VPos::Center), (x + 8, y)).map_err(err)?;
        x += 24 + text_width(name, 12.0);
    }
    Ok(())
}

/// Height of a legend line under a forest-style plot.
pub const LEGEND_H: i32 = 24;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::{hex, plot_svg, svg_texts};

    fn row(label: &str, est: f64, sig: bool, group: Option<&str>) -> ForestRow {
        ForestRow {
            label: label.into(),
            estimate: est,
            low: est - 0.1,
            high: est + 0.1,
            significant: sig,
            group: group.map(str::to_string),
        }
    }

    fn count_fill(svg: &str, tag: &str, c: RGBColor) -> usize {
        let fill = format!("fill=\"{}\"", hex(c));
        svg.lines().filter(|l| l.contains(tag) && l.contains(&fill)).count()
    }

    #[test]
    fn one_marker_per_row_significant_in_red_with_a_zero_line() {
        let plot = ForestPlot {
            title: "Contrasts".into(),
            x_label: "difference a − b".into(),
            rows: vec![row("a − b", -0.9, true, None), row("a − c", -0.5, true, None), row("b − c", 0.05, false, None)],
            width: 760,
            selected: Some(1),
        };
        let svg = plot_svg(&plot).unwrap();
        assert!(svg.starts_with("<svg"));
        assert_eq!(count_fill(&svg, "<circle", SIGNIFICANT), 2, "{svg}");
        assert_eq!(count_fill(&svg, "<circle", NOT_SIGNIFICANT), 1);
        assert!(svg.contains(&format!("stroke=\"{}\"", hex(ZERO_LINE))), "zero line");
        assert_eq!(count_fill(&svg, "<rect", SELECTED), 1, "selected row");
        let texts = svg_texts(&svg);
        for label in ["a − b", "a − c", "b − c"] {
            assert!(texts.iter().any(|t| t == label), "{label}: {texts:?}");
        }
        assert!(texts.iter().any(|t| t == "-0.900 [-1.000, -0.800] *"), "values column: {texts:?}");
    }

    #[test]
    fn layout_hit_tests_the_rows_it_draws_and_groups_add_headings() {
        let plot = ForestPlot {
            title: "t".into(),
            x_label: "x".into(),
            rows: vec![
                row("x − y", 0.2, false, Some("x")),
                row("x − z", 0.3, true, Some("x")),
                row("y − z", 0.1, false, Some("y")),
            ],
            width: 600,
            selected: None,
        };
        let l = ForestLayout::new(&plot);
        assert_eq!(l.headers.len(), 2);
        for b in &l.rows {
            assert_eq!(l.row_at(l.width as f64 / 2.0, b.y as f64), Some(b.index));
        }
        assert_eq!(l.row_at(10.0, l.headers[0].0 as f64), None, "a heading is not a row");
        assert_eq!(l.row_at(10.0, (l.axis_y + 10) as f64), None);
        assert!(l.x(0.0) > l.plot_left && l.x(0.0) < l.plot_right);
        let svg = plot_svg(&plot).unwrap();
        assert!(svg_texts(&svg).iter().any(|t| t == "y"), "heading drawn");
        let (_, h) = plot.size();
        assert_eq!(h as i32, l.height);
    }

    #[test]
    fn non_finite_values_do_not_break_the_plot() {
        let mut r = row("a − b", f64::NAN, false, None);
        r.low = f64::NAN;
        let plot = ForestPlot { title: "t".into(), x_label: "x".into(), rows: vec![r], width: 400, selected: None };
        let svg = plot_svg(&plot).unwrap();
        assert_eq!(count_fill(&svg, "<circle", NOT_SIGNIFICANT), 0);
        let empty = ForestPlot { title: "t".into(), x_label: "x".into(), rows: vec![], width: 400, selected: None };
        assert!(plot_svg(&empty).is_ok());
    }
}
