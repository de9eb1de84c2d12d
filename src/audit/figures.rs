//! The rescoring's plots from a report — the page draws them on canvas (one at a time, with
//! pickers), the report to attach as SVG ([`figures`]): the |ΔnDCG| histogram of each system
//! and target pair, and each target's metrics against the cutoff k (`--k 1,5,10,60`).

use super::{DeltaDistribution, HistogramPlot, Metric, Report, Subset};
use crate::attach::{Figure, figure};
use crate::model::Target;
use crate::plots::{CutoffLine, CutoffPlot};

/// The histogram of one row of the report's `delta_distribution`.
pub fn histogram_plot(d: &DeltaDistribution) -> HistogramPlot {
    let who = if d.system == "all" { "all systems pooled".to_string() } else { d.system.clone() };
    HistogramPlot {
        title: format!("|ΔnDCG| {} → {} ({who}, n = {})", d.a, d.b, d.n),
        x_label: "|ΔnDCG| per query".into(),
        bins: d.bins.clone(),
        n: d.n,
        mean_abs: d.mean_abs,
        threshold: Some(super::distribution::SHIFT_THRESHOLD),
    }
}

/// `metric` against the cutoff k under `target`, one line per system (all eligible queries);
/// `None` without several cutoffs.
pub fn cutoff_plot(r: &Report, target: Target, metric: Metric) -> Option<CutoffPlot> {
    if r.curve.is_empty() {
        return None;
    }
    let mut ks: Vec<usize> = r.curve.iter().map(|c| c.k).collect();
    ks.sort_unstable();
    ks.dedup();
    let lines = r
        .systems
        .iter()
        .map(|sys| CutoffLine {
            system: sys.clone(),
            points: ks
                .iter()
                .map(|&k| {
                    let row = r
                        .curve
                        .iter()
                        .find(|c| c.system == *sys && c.target == target && c.k == k && c.subset == Subset::All);
                    (k, row.and_then(|c| c.value(metric)))
                })
                .collect(),
        })
        .collect();
    let label = match metric {
        Metric::Ndcg => "nDCG@k",
        Metric::Recall => "Recall@k",
        Metric::Hit => "Hit@k",
        Metric::Mrr => "MRR@k",
        Metric::Top1 => "top-1",
    };
    Some(CutoffPlot {
        title: format!("{label} by cutoff, {} target (all eligible queries)", target.name()),
        y_label: label.to_string(),
        lines,
        width: 720,
        height: 380,
    })
}

/// Every histogram, then nDCG and Recall against k under each target (with several cutoffs).
pub fn figures(r: &Report) -> Vec<Figure> {
    let mut out: Vec<Figure> = r.delta_distribution.iter().map(|d| figure(&histogram_plot(d))).collect();
    for &t in &r.targets {
        for m in [Metric::Ndcg, Metric::Recall] {
            if let Some(p) = cutoff_plot(r, t, m) {
                out.push(figure(&p));
            }
        }
    }
    out
}
