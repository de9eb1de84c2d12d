//! Critical-difference diagram in Demšar's style (J. Demšar, "Statistical Comparisons of
//! Classifiers over Multiple Data Sets", JMLR 7, 2006, Fig. 1 and 2; the layout of Orange's
//! `graph_ranks`): a rank axis from 1 (best, left) to k, each arm hanging from its mean rank
//! with its label on the left (the better half) or on the right, the Nemenyi critical
//! difference as a ruler above the axis labelled with its value, and one thick bar per clique
//! of arms that are not significantly different.
//!
//! The numbers are the comparison's own (`friedman.mean_ranks`, `friedman.cd`,
//! `friedman.cliques`), so the diagram and the table agree. Everything is placed by
//! [`CdLayout`] in pixels; the viewer's click handling ([`CdLayout::arm_at`]) uses the same
//! boxes the drawing uses.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::{Plot, PlotError, bold, ellipsize, err, text, text_width};

/// Axis, labels and the lines from the axis to the labels.
pub const INK: RGBColor = RGBColor(30, 34, 40);
/// The clique bars.
pub const CLIQUE: RGBColor = RGBColor(20, 20, 20);
/// The CD ruler.
pub const RULER: RGBColor = RGBColor(178, 24, 43);
/// The selected arm.
pub const SELECTED: RGBColor = RGBColor(31, 120, 180);

const FONT: f64 = 13.0;
const ROW_H: i32 = 22;
const CLIQUE_GAP: i32 = 9;
const TITLE_H: i32 = 30;

/// One arm at its mean rank.
#[derive(Debug, Clone, PartialEq)]
pub struct CdArm {
    pub name: String,
    pub mean_rank: f64,
}

/// Everything the diagram shows.
#[derive(Debug, Clone, PartialEq)]
pub struct CdPlot {
    pub title: String,
    pub arms: Vec<CdArm>,
    /// The critical difference (Nemenyi), in ranks.
    pub cd: Option<f64>,
    /// Groups of arms not significantly different, by name (one bar each).
    pub cliques: Vec<Vec<String>>,
    pub width: u32,
    /// An arm to highlight (index into `arms`).
    pub selected: Option<usize>,
}

/// Which side an arm's label is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
}

/// Where one arm is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct ArmBox {
    /// Index into [`CdPlot::arms`].
    pub index: usize,
    pub side: Side,
    /// The arm's position on the axis.
    pub x_axis: i32,
    /// The y of its label row.
    pub y: i32,
    /// Where the horizontal line ends and the label starts (left labels end here, right ones
    /// start here).
    pub x_label: i32,
    /// The clickable box: the label and the line from the axis to it.
    pub hit: (i32, i32, i32, i32),
}

/// One clique bar.
#[derive(Debug, Clone, PartialEq)]
pub struct CliqueBar {
    pub x0: i32,
    pub x1: i32,
    pub y: i32,
    pub members: Vec<String>,
}

/// The pixel layout of a CD diagram.
#[derive(Debug, Clone, PartialEq)]
pub struct CdLayout {
    pub width: i32,
    pub height: i32,
    /// Ranks 1..=k on the axis.
    pub k: usize,
    pub axis_left: i32,
    pub axis_right: i32,
    pub axis_y: i32,
    /// The CD ruler's y (above the axis).
    pub ruler_y: i32,
    pub cliques: Vec<CliqueBar>,
    pub arms: Vec<ArmBox>,
    /// Longest label shown, in characters.
    pub label_chars: usize,
}

fn label(a: &CdArm, chars: usize) -> String {
    ellipsize(&a.name, chars)
}

impl CdLayout {
    pub fn new(plot: &CdPlot) -> CdLayout {
        let width = plot.width.clamp(360, 4000) as i32;
        let k = plot.arms.len().max(2);
        let longest = plot.arms.iter().map(|a| text_width(&a.name, FONT)).max().unwrap_or(40);
        let label_w = longest.clamp(40, width * 3 / 10);
        let label_chars = ((label_w as f64) / (FONT * 0.58)).floor().max(4.0) as usize;
        let axis_left = 16 + label_w + 28;
        let axis_right = (width - 16 - label_w - 28).max(axis_left + 60);
        let ruler_y = TITLE_H + 22;
        let axis_y = ruler_y + 34;
        let x = |r: f64| -> i32 {
            let f = (r - 1.0) / (k as f64 - 1.0);
            (axis_left as f64 + f.clamp(0.0, 1.0) * (axis_right - axis_left) as f64).round() as i32
        };

        let rank_of = |name: &str| plot.arms.iter().find(|a| a.name == name).map(|a| a.mean_rank);
        let mut cliques = Vec::new();
        for (i, c) in plot.cliques.iter().enumerate() {
            let ranks: Vec<f64> = c.iter().filter_map(|n| rank_of(n)).filter(|r| r.is_finite()).collect();
            let lo = ranks.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = ranks.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let (x0, x1) = if lo.is_finite() { (x(lo) - 4, x(hi) + 4) } else { (axis_left, axis_left) };
            cliques.push(CliqueBar { x0, x1, y: axis_y + 14 + i as i32 * CLIQUE_GAP, members: c.clone() });
        }
        let rows_top = axis_y + 14 + cliques.len() as i32 * CLIQUE_GAP + 14;

        // Best first; ties keep the given order.
        let mut order: Vec<usize> = (0..plot.arms.len()).collect();
        order.sort_by(|&a, &b| plot.arms[a].mean_rank.total_cmp(&plot.arms[b].mean_rank));
        let n_left = order.len().div_ceil(2);
        let n_right = order.len() - n_left;
        let mut arms = Vec::with_capacity(order.len());
        for (pos, &index) in order.iter().enumerate() {
            let a = &plot.arms[index];
            let x_axis = x(a.mean_rank);
            let lw = text_width(&label(a, label_chars), FONT) + 8;
            if pos < n_left {
                // The best arm gets the row nearest the axis.
                let y = rows_top + pos as i32 * ROW_H;
                let x_label = axis_left - 20;
                arms.push(ArmBox {
                    index,
                    side: Side::Left,
                    x_axis,
                    y,
                    x_label,
                    hit: (x_label - lw, y - ROW_H / 2, x_axis + 5, y + ROW_H / 2),
                });
            } else {
                // The worst arm gets the row nearest the axis.
                let j = pos - n_left;
                let y = rows_top + (n_right - 1 - j) as i32 * ROW_H;
                let x_label = axis_right + 20;
                arms.push(ArmBox {
                    index,
                    side: Side::Right,
                    x_axis,
                    y,
                    x_label,
                    hit: (x_axis - 5, y - ROW_H / 2, x_label + lw, y + ROW_H / 2),
                });
            }
        }
        let height = rows_top + n_left.max(1) as i32 * ROW_H + 8;
        CdLayout { width, height, k, axis_left, axis_right, axis_y, ruler_y, cliques, arms, label_chars }
    }

    /// The pixel x of a rank.
    pub fn x(&self, rank: f64) -> i32 {
        let f = (rank - 1.0) / (self.k as f64 - 1.0);
        (self.axis_left as f64 + f.clamp(0.0, 1.0) * (self.axis_right - self.axis_left) as f64).round() as i32
    }

    /// The arm whose label or connecting line is under a point (canvas pixels).
    pub fn arm_at(&self, x: f64, y: f64) -> Option<usize> {
        self.arms
            .iter()
            .find(|a| {
                let (x0, y0, x1, y1) = a.hit;
                x >= x0 as f64 && x <= x1 as f64 && y >= y0 as f64 && y < y1 as f64
            })
            .map(|a| a.index)
    }
}

impl Plot for CdPlot {
    fn size(&self) -> (u32, u32) {
        let l = CdLayout::new(self);
        (l.width as u32, l.height as u32)
    }

    fn title(&self) -> String {
        self.title.clone()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let l = CdLayout::new(self);
        root.fill(&WHITE).map_err(err)?;
        root.draw_text(&self.title, &bold(15.0, INK, HPos::Center, VPos::Top), (l.width / 2, 6)).map_err(err)?;

        // CD ruler, from rank 1, labelled with its value.
        if let Some(cd) = self.cd.filter(|c| c.is_finite() && *c > 0.0) {
            let (x0, x1) = (l.x(1.0), l.x(1.0 + cd));
            let y = l.ruler_y;
            root.draw(&PathElement::new(vec![(x0, y), (x1, y)], RULER.stroke_width(2))).map_err(err)?;
            for x in [x0, x1] {
                root.draw(&PathElement::new(vec![(x, y - 5), (x, y + 5)], RULER.stroke_width(2))).map_err(err)?;
            }
            root.draw_text(&format!("CD = {cd:.3}"), &bold(12.5, RULER, HPos::Left, VPos::Bottom), (x0, y - 7))
                .map_err(err)?;
        }

        // The rank axis: a tick at every whole rank (labelled) and a short one at every half.
        root.draw(&PathElement::new(vec![(l.axis_left, l.axis_y), (l.axis_right, l.axis_y)], INK.stroke_width(2)))
            .map_err(err)?;
        for i in 0..=(2 * (l.k - 1)) {
            let r = 1.0 + i as f64 / 2.0;
            let x = l.x(r);
            let whole = i % 2 == 0;
            let len = if whole { 8 } else { 4 };
            root.draw(&PathElement::new(vec![(x, l.axis_y - len), (x, l.axis_y)], INK.stroke_width(1))).map_err(err)?;
            if whole {
                root.draw_text(&format!("{r:.0}"), &text(12.0, INK, HPos::Center, VPos::Bottom), (x, l.axis_y - 10))
                    .map_err(err)?;
            }
        }

        // Arms: a line down from the mean rank, then out to the label.
        for a in &l.arms {
            let Some(arm) = self.arms.get(a.index) else { continue };
            let color = if self.selected == Some(a.index) { SELECTED } else { INK };
            let w = if self.selected == Some(a.index) { 3 } else { 1 };
            root.draw(&PathElement::new(
                vec![(a.x_axis, l.axis_y), (a.x_axis, a.y), (a.x_label, a.y)],
                color.stroke_width(w),
            ))
            .map_err(err)?;
            let rank = if arm.mean_rank.is_finite() { format!("{:.2}", arm.mean_rank) } else { "—".into() };
            let (h, x_name, x_rank, h_rank) = match a.side {
                Side::Left => (HPos::Right, a.x_label - 4, a.x_label + 2, HPos::Left),
                Side::Right => (HPos::Left, a.x_label + 4, a.x_label - 2, HPos::Right),
            };
            root.draw_text(&label(arm, l.label_chars), &text(FONT, color, h, VPos::Center), (x_name, a.y))
                .map_err(err)?;
            root.draw_text(&rank, &text(10.5, color, h_rank, VPos::Bottom), (x_rank, a.y - 2)).map_err(err)?;
        }

        // Clique bars on top of the connecting lines, as in Demšar's figures.
        for c in &l.cliques {
            root.draw(&Rectangle::new([(c.x0, c.y - 2), (c.x1.max(c.x0 + 4), c.y + 3)], CLIQUE.filled()))
                .map_err(err)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::{hex, plot_svg, svg_texts};

    fn plot(ranks: &[(&str, f64)], cliques: &[&[&str]]) -> CdPlot {
        CdPlot {
            title: "Mean ranks".into(),
            arms: ranks.iter().map(|(n, r)| CdArm { name: n.to_string(), mean_rank: *r }).collect(),
            cd: Some(0.338),
            cliques: cliques.iter().map(|c| c.iter().map(|s| s.to_string()).collect()).collect(),
            width: 760,
            selected: None,
        }
    }

    #[test]
    fn one_label_per_arm_one_bar_per_clique_and_the_ruler_value() {
        let p = plot(
            &[("lossy", 2.974), ("source_first", 1.474), ("source_plus_conclusion", 1.552)],
            &[&["source_first", "source_plus_conclusion"]],
        );
        let svg = plot_svg(&p).unwrap();
        let texts = svg_texts(&svg);
        for a in &p.arms {
            assert_eq!(texts.iter().filter(|t| **t == a.name).count(), 1, "{}: {texts:?}", a.name);
        }
        let bars =
            svg.lines().filter(|l| l.contains("<rect") && l.contains(&format!("fill=\"{}\"", hex(CLIQUE)))).count();
        assert_eq!(bars, p.cliques.len());
        assert!(texts.iter().any(|t| t == "CD = 0.338"));
        assert!(texts.iter().any(|t| t == "1.47"), "mean rank shown");
    }

    #[test]
    fn labels_split_left_and_right_and_hit_boxes_find_the_arm() {
        let names: Vec<(String, f64)> = (0..7).map(|i| (format!("arm{i}"), 1.0 + i as f64 * 0.9)).collect();
        let refs: Vec<(&str, f64)> = names.iter().map(|(n, r)| (n.as_str(), *r)).collect();
        let p = plot(&refs, &[&["arm0", "arm1"], &["arm1", "arm2", "arm3"], &["arm5", "arm6"]]);
        let l = CdLayout::new(&p);
        assert_eq!(l.arms.iter().filter(|a| a.side == Side::Left).count(), 4);
        assert_eq!(l.arms.iter().filter(|a| a.side == Side::Right).count(), 3);
        assert_eq!(l.cliques.len(), 3);
        // Left labels: best nearest the axis; right labels: worst nearest the axis.
        let left: Vec<&ArmBox> = l.arms.iter().filter(|a| a.side == Side::Left).collect();
        assert!(left.windows(2).all(|w| w[0].y < w[1].y && w[0].x_axis < w[1].x_axis));
        let worst = l.arms.iter().find(|a| a.index == 6).unwrap();
        assert_eq!(worst.y, left[0].y);
        for a in &l.arms {
            let (x0, y0, x1, _) = a.hit;
            assert_eq!(l.arm_at(((x0 + x1) / 2) as f64, (y0 + 2) as f64), Some(a.index));
            assert_eq!(l.arm_at(a.x_label as f64, a.y as f64), Some(a.index));
        }
        assert_eq!(l.arm_at(1.0, 1.0), None);
        let svg = plot_svg(&p).unwrap();
        let bars =
            svg.lines().filter(|s| s.contains("<rect") && s.contains(&format!("fill=\"{}\"", hex(CLIQUE)))).count();
        assert_eq!(bars, 3);
    }

    #[test]
    fn degenerate_inputs_draw() {
        let mut p = plot(&[("only", 1.0)], &[]);
        p.cd = None;
        assert!(plot_svg(&p).is_ok());
        let mut q = plot(&[("a", f64::NAN), ("b", 1.5)], &[&["a", "b"]]);
        q.cd = Some(f64::INFINITY);
        assert!(plot_svg(&q).is_ok());
    }
}
