//! The ablation's u histogram: three bars per group — u = −1 (harmful: correct only without the
//! memory), 0 (neutral), +1 (helpful: the label y = 1) — one group per run or subset, or all
//! pairs pooled, each bar labelled with its count and share (seed-000 §3.2).

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::ablation::UHistogram;
use crate::plots::verdicts::{VerdictBar, VerdictBars, VerdictGroup, draw_bars};
use crate::plots::{Plot, PlotError};

/// u = −1.
pub const HARMFUL: RGBColor = RGBColor(178, 24, 43);
/// u = 0.
pub const NEUTRAL: RGBColor = RGBColor(110, 122, 135);
/// u = +1.
pub const HELPFUL: RGBColor = RGBColor(46, 125, 50);

/// The bars' names, in drawing order.
pub const BARS: [&str; 3] = ["harmful", "neutral", "helpful"];

/// The colour of a bar by name.
pub fn bar_color(bar: &str) -> RGBColor {
    match bar {
        "harmful" => HARMFUL,
        "helpful" => HELPFUL,
        _ => NEUTRAL,
    }
}

fn bar_label(bar: &str) -> (String, Option<String>) {
    let u = match bar {
        "harmful" => "u = \u{2212}1",
        "helpful" => "u = +1",
        _ => "u = 0",
    };
    (u.to_string(), Some(bar.to_string()))
}

/// One group of three bars.
#[derive(Debug, Clone, PartialEq)]
pub struct UtilityGroup {
    pub name: String,
    pub histogram: UHistogram,
}

/// Everything the plot shows.
#[derive(Debug, Clone, PartialEq)]
pub struct UtilityPlot {
    pub title: String,
    pub groups: Vec<UtilityGroup>,
    pub width: u32,
    pub height: u32,
}

impl UtilityPlot {
    /// The groups pooled into one (counts added).
    pub fn pooled(name: &str, groups: &[UtilityGroup]) -> UtilityGroup {
        let mut h = UHistogram::default();
        for g in groups {
            h.harmful += g.histogram.harmful;
            h.neutral += g.histogram.neutral;
            h.helpful += g.histogram.helpful;
        }
        UtilityGroup { name: name.to_string(), histogram: h }
    }

    fn bars(&self) -> VerdictBars {
        let groups = self
            .groups
            .iter()
            .map(|g| {
                let h = g.histogram;
                let counts = [h.harmful, h.neutral, h.helpful];
                VerdictGroup {
                    name: g.name.clone(),
                    bars: BARS
                        .iter()
                        .zip(counts)
                        .map(|(b, count)| VerdictBar { verdict: b.to_string(), count })
                        .collect(),
                }
            })
            .collect();
        VerdictBars { title: self.title.clone(), groups, width: self.width, height: self.height }
    }
}

impl Plot for UtilityPlot {
    crate::plot_frame!();

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        draw_bars(root, &self.bars(), &bar_color, &bar_label)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::{hex, plot_svg, svg_texts};

    fn group(name: &str, harmful: usize, neutral: usize, helpful: usize) -> UtilityGroup {
        UtilityGroup { name: name.into(), histogram: UHistogram { harmful, neutral, helpful } }
    }

    #[test]
    fn three_bars_per_group_with_counts_and_the_harmful_bar_in_red() {
        let groups = vec![group("phase7_mab", 141, 5196, 573), group("phase7_locomo", 26, 1273, 366)];
        let p = UtilityPlot { title: "u".into(), groups: groups.clone(), width: 760, height: 360 };
        let svg = plot_svg(&p).unwrap();
        let rects = |c: RGBColor| svg.lines().filter(|l| l.contains("<rect") && l.contains(&hex(c))).count();
        assert_eq!((rects(HARMFUL), rects(NEUTRAL), rects(HELPFUL)), (2, 2, 2));
        let texts = svg_texts(&svg);
        assert!(texts.iter().any(|t| t == "141 (2%)"), "{texts:?}");
        assert!(texts.iter().any(|t| t == "u = \u{2212}1"));
        assert!(texts.iter().any(|t| t == "phase7_locomo (n = 1665)"));
        let pooled = UtilityPlot::pooled("all runs", &groups);
        assert_eq!(pooled.histogram, UHistogram { harmful: 167, neutral: 6469, helpful: 939 });
        let empty = UtilityPlot { title: "u".into(), groups: vec![group("none", 0, 0, 0)], width: 400, height: 300 };
        assert_eq!(
            plot_svg(&empty).unwrap().lines().filter(|l| l.contains("<rect") && l.contains(&hex(HARMFUL))).count(),
            0
        );
    }
}
