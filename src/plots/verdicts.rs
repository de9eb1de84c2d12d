//! Probe verdict counts as bars, one group per probe mode (itemized and reference side by
//! side), each bar labelled with its count and share; colours by what the verdict means
//! (recoverable green, flagged partial amber, silent partial orange, silent red, loud grey).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::{Plot, PlotError, bold, err, nice_ticks, text, tick_label};

pub const INK: RGBColor = RGBColor(40, 45, 52);
pub const GRID: RGBColor = RGBColor(228, 231, 235);

/// The colour of a verdict (by its snake_case name).
pub fn verdict_color(verdict: &str) -> RGBColor {
    match verdict {
        "complete" | "correctable" => RGBColor(46, 125, 50),
        "partial_tagged" => RGBColor(214, 160, 0),
        "partial_silent" => RGBColor(230, 110, 20),
        "silent" | "uncorrectable_silent" => RGBColor(178, 24, 43),
        _ => RGBColor(110, 122, 135),
    }
}

/// One bar.
#[derive(Debug, Clone, PartialEq)]
pub struct VerdictBar {
    pub verdict: String,
    pub count: usize,
}

/// The bars of one mode.
#[derive(Debug, Clone, PartialEq)]
pub struct VerdictGroup {
    pub name: String,
    pub bars: Vec<VerdictBar>,
}

impl VerdictGroup {
    pub fn total(&self) -> usize {
        self.bars.iter().map(|b| b.count).sum()
    }
}

/// Everything the chart shows.
#[derive(Debug, Clone, PartialEq)]
pub struct VerdictBars {
    pub title: String,
    pub groups: Vec<VerdictGroup>,
    pub width: u32,
    pub height: u32,
}

const LEFT: i32 = 52;
const TOP: i32 = 44;
const BOTTOM: i32 = 64;
const GROUP_GAP: i32 = 36;

/// A verdict name on up to two lines (`uncorrectable_silent` → `uncorrectable` / `silent`).
fn two_lines(verdict: &str) -> (String, Option<String>) {
    match verdict.split_once('_') {
        Some((a, b)) => (a.to_string(), Some(b.replace('_', " "))),
        None => (verdict.to_string(), None),
    }
}

impl Plot for VerdictBars {
    crate::plot_frame!();

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        draw_bars(root, self, &verdict_color, &two_lines)
    }
}

/// Draws grouped count bars with their counts and shares: `color` and `label` (one or two
/// lines under the bar) by bar name.
pub fn draw_bars<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &VerdictBars,
    color: &dyn Fn(&str) -> RGBColor,
    label: &dyn Fn(&str) -> (String, Option<String>),
) -> Result<(), PlotError> {
    root.fill(&WHITE).map_err(err)?;
    let (w, h) = (chart.width as i32, chart.height as i32);
    root.draw_text(&chart.title, &bold(15.0, INK, HPos::Center, VPos::Top), (w / 2, 8)).map_err(err)?;
    let (y0, y1) = (TOP, h - BOTTOM);
    let top = chart.groups.iter().flat_map(|g| &g.bars).map(|b| b.count).max().unwrap_or(0);
    let y_max = ((top as f64) * 1.15).max(1.0);
    let y = |v: f64| y1 - ((v / y_max) * (y1 - y0) as f64).round() as i32;

    let ticks: Vec<f64> = nice_ticks(0.0, y_max, 6).into_iter().filter(|t| t.fract() == 0.0).collect();
    for t in &ticks {
        let py = y(*t);
        root.draw(&PathElement::new(vec![(LEFT, py), (w - 10, py)], GRID.stroke_width(1))).map_err(err)?;
        root.draw_text(&tick_label(*t, &ticks), &text(11.0, INK, HPos::Right, VPos::Center), (LEFT - 6, py))
            .map_err(err)?;
    }
    root.draw(&PathElement::new(vec![(LEFT, y1), (w - 10, y1)], INK.stroke_width(1))).map_err(err)?;

    let n_bars: usize = chart.groups.iter().map(|g| g.bars.len()).sum::<usize>().max(1);
    let gaps = GROUP_GAP * (chart.groups.len() as i32 - 1).max(0);
    let slot = ((w - 10 - LEFT - gaps) as f64 / n_bars as f64).max(8.0);
    let mut x = LEFT as f64;
    for g in &chart.groups {
        let total = g.total();
        let gx0 = x;
        for b in &g.bars {
            let (bx0, bx1) = ((x + slot * 0.15) as i32, (x + slot * 0.85) as i32);
            let color = color(&b.verdict);
            if b.count > 0 {
                root.draw(&Rectangle::new([(bx0, y(b.count as f64)), (bx1, y1)], color.filled())).map_err(err)?;
            }
            let share =
                if total > 0 { format!(" ({:.0}%)", 100.0 * b.count as f64 / total as f64) } else { String::new() };
            let cx = (bx0 + bx1) / 2;
            root.draw_text(
                &format!("{}{share}", b.count),
                &text(11.5, INK, HPos::Center, VPos::Bottom),
                (cx, y(b.count as f64) - 3),
            )
            .map_err(err)?;
            let (l1, l2) = label(&b.verdict);
            root.draw_text(&l1, &text(11.5, color, HPos::Center, VPos::Top), (cx, y1 + 5)).map_err(err)?;
            if let Some(l2) = l2 {
                root.draw_text(&l2, &text(11.5, color, HPos::Center, VPos::Top), (cx, y1 + 19)).map_err(err)?;
            }
            x += slot;
        }
        root.draw_text(
            &format!("{} (n = {total})", g.name),
            &bold(12.5, INK, HPos::Center, VPos::Top),
            (((gx0 + x) / 2.0) as i32, y1 + 38),
        )
        .map_err(err)?;
        x += GROUP_GAP as f64;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::{hex, plot_svg, svg_texts};

    #[test]
    fn one_bar_per_nonzero_verdict_in_both_groups() {
        let g = |name: &str, bars: &[(&str, usize)]| VerdictGroup {
            name: name.into(),
            bars: bars.iter().map(|(v, c)| VerdictBar { verdict: v.to_string(), count: *c }).collect(),
        };
        let p = VerdictBars {
            title: "Verdicts".into(),
            groups: vec![
                g(
                    "itemized",
                    &[("complete", 474), ("partial_tagged", 0), ("partial_silent", 62), ("silent", 334), ("loud", 282)],
                ),
                g("reference", &[("correctable", 240), ("uncorrectable_silent", 530), ("uncorrectable_loud", 382)]),
            ],
            width: 760,
            height: 360,
        };
        let svg = plot_svg(&p).unwrap();
        let bars = |v: &str| {
            svg.lines()
                .filter(|l| l.contains("<rect") && l.contains(&format!("fill=\"{}\"", hex(verdict_color(v)))))
                .count()
        };
        assert_eq!(bars("complete"), 2, "complete + correctable share a colour");
        assert_eq!(bars("silent"), 2);
        assert_eq!(bars("partial_tagged"), 0, "a zero count draws no bar");
        assert_eq!(bars("loud"), 2);
        let texts = svg_texts(&svg);
        assert!(texts.iter().any(|t| t == "474 (41%)"), "{texts:?}");
        assert!(texts.iter().any(|t| t == "reference (n = 1152)"));
        let empty = VerdictBars { title: "t".into(), groups: vec![], width: 300, height: 200 };
        assert!(plot_svg(&empty).is_ok());
    }
}
