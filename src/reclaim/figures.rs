//! The reclaim report's plots, for the page and the report to attach: reclaim rate against
//! integrity (every cell), and against the swept store size or decoys (one line per policy and
//! fixed design values, with the points' intervals).

use super::ReclaimPlot;
use super::analysis::ReclaimReport;
use crate::attach::{Figure, figure};
use crate::plots::LinesPlot;
use crate::plots::series::{Line, Point};

/// Reclaim rate against the swept `variable` (`n` or `decoys`); `None` without such a sweep.
pub fn sweep_plot(r: &ReclaimReport, variable: &str) -> Option<LinesPlot> {
    let sweeps: Vec<_> = r.boundaries.sweeps.iter().filter(|s| s.variable == variable).collect();
    if sweeps.is_empty() {
        return None;
    }
    let lines = sweeps
        .iter()
        .map(|s| Line {
            name: [s.key.model.clone().unwrap_or_default(), s.key.policy.clone(), s.fixed.clone()]
                .into_iter()
                .filter(|x| !x.is_empty())
                .collect::<Vec<_>>()
                .join(" "),
            points: s.points.iter().map(|p| Point { x: Some(p.x), y: p.rr, low: p.low, high: p.high }).collect(),
        })
        .collect();
    let what = if variable == "n" { "store size (items)" } else { "decoys" };
    Some(LinesPlot {
        title: format!("Reclaim rate vs {what} ({})", r.interval_method),
        x_desc: what.into(),
        y_desc: "reclaim rate".into(),
        lines,
        width: 720,
        height: 420,
    })
}

/// Every plot, as SVG.
pub fn figures(r: &ReclaimReport) -> Vec<Figure> {
    let mut out = vec![figure(&ReclaimPlot::of_report(r))];
    out.extend(["n", "decoys"].iter().filter_map(|v| sweep_plot(r, v)).map(|p| figure(&p)));
    out
}
