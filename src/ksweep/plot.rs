//! Arms across K: the K-sweep (mean score against K, one line per arm with its interval bars;
//! [`KSweepPlot`]) and a forest-style plot of the paired deltas between arms at equal K,
//! coloured by seed-000's label — strict, boundary, directional, none ([`DeltaForest`], laid
//! out by [`ForestLayout`] so rows can be hit-tested).

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::ksweep::{Series, Significance};
use crate::plots::forest::{ForestLayout, ForestPlot, ForestRow, Marks, draw_with_legend};
use crate::plots::series::{Axes, Line, Point, auto_range, draw_lines};
use crate::plots::{Plot, PlotError};

/// Label colours: strict (the interval excludes 0), boundary (a bound at 0), directional (0
/// inside), none (point estimate 0).
pub fn label_color(label: Significance) -> RGBColor {
    match label {
        Significance::Strict => RGBColor(178, 24, 43),
        Significance::Boundary => RGBColor(214, 120, 0),
        Significance::Directional => RGBColor(69, 104, 138),
        Significance::None => RGBColor(130, 130, 130),
    }
}

/// The K-sweep of one panel (a run and dataset): one line per arm.
#[derive(Debug, Clone, PartialEq)]
pub struct KSweepPlot {
    pub title: String,
    /// The y axis, e.g. `mean sem`.
    pub y_label: String,
    pub series: Vec<Series>,
    pub width: u32,
    pub height: u32,
}

impl KSweepPlot {
    /// One chart line per arm (x = K, y = mean with its bootstrap interval).
    pub fn lines(&self) -> Vec<Line> {
        self.series
            .iter()
            .map(|s| Line {
                name: s.arm.clone(),
                points: s
                    .points
                    .iter()
                    .map(|p| Point { x: p.k.map(|k| k as f64), y: Some(p.mean), low: Some(p.low), high: Some(p.high) })
                    .collect(),
            })
            .collect()
    }

    /// The distinct K values, ascending.
    pub fn ks(&self) -> Vec<f64> {
        let mut ks: Vec<f64> =
            self.series.iter().flat_map(|s| &s.points).filter_map(|p| p.k).map(|k| k as f64).collect();
        ks.sort_by(f64::total_cmp);
        ks.dedup();
        ks
    }
}

impl Plot for KSweepPlot {
    crate::plot_frame!();

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let lines = self.lines();
        let axes = Axes {
            title: self.title.clone(),
            x_desc: "K (memories retrieved)".into(),
            y_desc: self.y_label.clone(),
            y_range: auto_range(&lines, (0.0, 1.0)),
            y_decimals: 2,
            x_ticks: Some(self.ks()),
        };
        draw_lines(root, &axes, &lines)
    }
}

/// One paired delta a − b at one K.
#[derive(Debug, Clone, PartialEq)]
pub struct DeltaPoint {
    /// Shown left of the row, e.g. `specialist − vanilla · K=5`.
    pub label: String,
    /// Rows with the same group (consecutive) share a heading, e.g. the dataset.
    pub group: Option<String>,
    pub delta: f64,
    pub low: f64,
    pub high: f64,
    pub significance: Significance,
}

impl DeltaPoint {
    /// The point as a forest plot's row (starred when strictly significant).
    fn forest_row(&self) -> ForestRow {
        ForestRow {
            label: self.label.clone(),
            estimate: self.delta,
            low: self.low,
            high: self.high,
            significant: self.significance == Significance::Strict,
            group: self.group.clone(),
        }
    }
}

/// Paired deltas as a forest plot coloured by label, with a legend line.
#[derive(Debug, Clone, PartialEq)]
pub struct DeltaForest {
    pub title: String,
    pub x_label: String,
    pub rows: Vec<DeltaPoint>,
    pub width: u32,
    pub selected: Option<usize>,
}

impl DeltaForest {
    /// The rows as a forest plot (its layout places and hit-tests them).
    pub fn forest(&self) -> ForestPlot {
        ForestPlot {
            title: self.title.clone(),
            x_label: self.x_label.clone(),
            rows: self.rows.iter().map(DeltaPoint::forest_row).collect(),
            width: self.width,
            selected: self.selected,
        }
    }

    pub fn layout(&self) -> ForestLayout {
        ForestLayout::new(&self.forest())
    }
}

impl Plot for DeltaForest {
    crate::plot_frame!(forest);

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let forest = self.forest();
        let l = ForestLayout::new(&forest);
        // The forest keeps the rows' order: row i is self.rows[i].
        let color = |i: usize, _: &ForestRow| {
            self.rows.get(i).map_or(label_color(Significance::None), |r| label_color(r.significance))
        };
        let legend: Vec<(String, RGBColor)> =
            [Significance::Strict, Significance::Boundary, Significance::Directional, Significance::None]
                .into_iter()
                .map(|s| (s.name().to_string(), label_color(s)))
                .collect();
        draw_with_legend(root, &forest, &l, &Marks { color: &color, refs: &[], secondary: &[] }, &legend)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ksweep::SeriesPoint;
    use crate::plots::{hex, plot_svg, svg_texts};

    fn series(arm: &str, pts: &[(i64, f64)]) -> Series {
        Series {
            run: None,
            dataset: Some("ruler_qa1".into()),
            arm: arm.into(),
            points: pts
                .iter()
                .map(|(k, m)| SeriesPoint { k: Some(*k), mean: *m, low: m - 0.05, high: m + 0.05, n: 100 })
                .collect(),
        }
    }

    #[test]
    fn ksweep_draws_a_point_and_a_bar_per_arm_and_k_with_ticks_at_each_k() {
        let p = KSweepPlot {
            title: "ruler_qa1".into(),
            y_label: "mean sem".into(),
            series: vec![series("specialist", &[(5, 0.43), (10, 0.52)]), series("vanilla", &[(5, 0.35), (10, 0.44)])],
            width: 700,
            height: 380,
        };
        assert_eq!(p.ks(), vec![5.0, 10.0]);
        let svg = plot_svg(&p).unwrap();
        let circles = |c: RGBColor| svg.lines().filter(|l| l.contains("<circle") && l.contains(&hex(c))).count();
        // two points + the legend marker per arm
        assert_eq!(circles(crate::plots::series::series_color(0)), 3);
        assert_eq!(circles(crate::plots::series::series_color(1)), 3);
        let texts = svg_texts(&svg);
        for t in ["5", "10", "specialist", "K (memories retrieved)"] {
            assert!(texts.iter().any(|x| x == t), "{t}: {texts:?}");
        }
    }

    #[test]
    fn delta_forest_colours_rows_by_label_and_hit_tests_them() {
        let row = |label: &str, d: f64, lo: f64, hi: f64, s| DeltaPoint {
            label: label.into(),
            group: Some("ruler_qa1".into()),
            delta: d,
            low: lo,
            high: hi,
            significance: s,
        };
        let p = DeltaForest {
            title: "deltas".into(),
            x_label: "a − b".into(),
            rows: vec![
                row("s − v · K=5", 0.08, 0.02, 0.15, Significance::Strict),
                row("s − v · K=10", 0.0789, 0.0, 0.1579, Significance::Boundary),
                row("s − e · K=5", 0.05, -0.02, 0.12, Significance::Directional),
                row("s − v · K=20", 0.0, -0.05, 0.05, Significance::None),
            ],
            width: 800,
            selected: None,
        };
        let svg = plot_svg(&p).unwrap();
        let markers = |c: RGBColor| svg.lines().filter(|l| l.contains("<circle") && l.contains(&hex(c))).count();
        for s in [Significance::Strict, Significance::Boundary, Significance::Directional, Significance::None] {
            assert_eq!(markers(label_color(s)), 2, "{s:?}: a row marker and a legend marker");
        }
        assert!(svg_texts(&svg).iter().any(|t| t == "boundary"));
        let l = p.layout();
        for b in &l.rows {
            assert_eq!(l.row_at(400.0, b.y as f64), Some(b.index));
        }
        assert_eq!(p.size().1 as i32, l.height + crate::plots::forest::LEGEND_H);
    }
}
