//! The calibration report's plots, for the page and the report to attach.

use super::analyse::CalibrationReport;
use crate::attach::{Figure, figure};
use crate::plots::LinesPlot;
use crate::plots::series::{Line, Point};

/// The reliability diagram: per calibration row (method, split) accuracy against the mean
/// predicted probability of each non-empty bin, and the diagonal. `None` without calibration.
pub fn reliability_plot(r: &CalibrationReport) -> Option<LinesPlot> {
    if r.calibration.is_empty() {
        return None;
    }
    let pt = |x: f64, y: f64| Point { x: Some(x), y: Some(y), low: None, high: None };
    let mut lines = vec![Line { name: "perfect calibration".into(), points: vec![pt(0.0, 0.0), pt(1.0, 1.0)] }];
    lines.extend(r.calibration.iter().map(|c| Line {
        name: format!("{}, split {}", c.method, c.split),
        points: c.reliability.iter().filter_map(|b| Some(pt(b.mean_probability?, b.accuracy?))).collect(),
    }));
    Some(LinesPlot {
        title: format!("Reliability diagram ({} equal-width bins)", r.settings.ece_bins),
        x_desc: "mean predicted probability".into(),
        y_desc: "accuracy".into(),
        lines,
        width: 720,
        height: 420,
    })
}

/// Accuracy per confidence bin at the bin's mean confidence, without and with memory, with
/// Wilson bars. `None` without bins.
pub fn bins_plot(r: &CalibrationReport) -> Option<LinesPlot> {
    if r.bins.is_empty() {
        return None;
    }
    let mid = |b: &super::analyse::BinRow| (b.confidence_low + b.confidence_high) / 2.0;
    let mut lines = vec![Line {
        name: "without memory".into(),
        points: r
            .bins
            .iter()
            .map(|b| Point { x: Some(mid(b)), y: Some(b.accuracy_without), low: b.without_low, high: b.without_high })
            .collect(),
    }];
    if r.bins.iter().any(|b| b.accuracy_with.is_some()) {
        lines.push(Line {
            name: "with memory".into(),
            points: r
                .bins
                .iter()
                .map(|b| Point { x: Some(mid(b)), y: b.accuracy_with, low: b.with_low, high: b.with_high })
                .collect(),
        });
    }
    Some(LinesPlot {
        title: format!("Accuracy per confidence bin ({} equal-count bins, Wilson intervals)", r.settings.accuracy_bins),
        x_desc: "confidence (bin midpoint)".into(),
        y_desc: "accuracy".into(),
        lines,
        width: 720,
        height: 420,
    })
}

/// Every plot, as SVG.
pub fn figures(r: &CalibrationReport) -> Vec<Figure> {
    bins_plot(r).iter().chain(reliability_plot(r).iter()).map(figure).collect()
}
