//! The K-sweep's plots from a sweep — the claims page draws them on canvas (one panel at a
//! time), the report to attach as SVG ([`figures`]): score against K per arm with intervals,
//! one panel per (run, dataset), and the paired deltas at equal K coloured by their label.

use super::KSweep;
use super::{DeltaForest, DeltaPoint, KSweepPlot};
use crate::attach::{Figure, figure};
use crate::distinct::first_seen;

/// The key of a (run, dataset) panel.
pub fn panel_key(run: &Option<String>, dataset: &Option<String>) -> String {
    format!("{}/{}", run.clone().unwrap_or_default(), dataset.clone().unwrap_or_default())
}

/// The name of a (run, dataset) panel: `run A · ruler_qa1`.
pub fn panel_name(run: &Option<String>, dataset: &Option<String>) -> String {
    match (run, dataset) {
        (Some(r), Some(d)) => format!("run {r} · {d}"),
        (Some(r), None) => format!("run {r}"),
        (None, Some(d)) => d.clone(),
        (None, None) => "all rows".into(),
    }
}

/// Every panel of the sweep and the deltas, for the report to attach.
pub fn figures(s: &KSweep) -> Vec<Figure> {
    let keys = first_seen(s.series.iter().map(|x| panel_key(&x.run, &x.dataset)));
    let mut out: Vec<Figure> = keys.iter().filter_map(|k| ksweep_plot(s, k)).map(|p| figure(&p)).collect();
    if !s.deltas.is_empty() {
        out.push(figure(&delta_forest(s)));
    }
    out
}

/// The panel `key` (the first panel when no series has that key).
pub fn ksweep_plot(s: &KSweep, key: &str) -> Option<KSweepPlot> {
    let first = s.series.first()?;
    let key = if s.series.iter().any(|x| panel_key(&x.run, &x.dataset) == key) {
        key.to_string()
    } else {
        panel_key(&first.run, &first.dataset)
    };
    let series: Vec<_> = s.series.iter().filter(|x| panel_key(&x.run, &x.dataset) == key).cloned().collect();
    let name = series.first().map(|x| panel_name(&x.run, &x.dataset)).unwrap_or_default();
    Some(KSweepPlot {
        title: format!(
            "{name}: mean {} by K with {:.0}% bootstrap intervals",
            s.settings.metric,
            s.settings.confidence * 100.0
        ),
        y_label: format!("mean {}", s.settings.metric),
        series,
        width: 1000,
        height: 420,
    })
}

/// The paired deltas at equal K, one row each, grouped by panel.
pub fn delta_forest(s: &KSweep) -> DeltaForest {
    DeltaForest {
        title: format!(
            "Paired deltas a \u{2212} b at equal K ({:.0}% paired bootstrap intervals)",
            s.settings.confidence * 100.0
        ),
        x_label: format!("a \u{2212} b (mean {} on the shared queries)", s.settings.metric),
        rows: s
            .deltas
            .iter()
            .map(|d| DeltaPoint {
                label: format!("{} \u{2212} {}{}", d.a, d.b, d.k.map(|k| format!(" · K={k}")).unwrap_or_default()),
                group: Some(panel_name(&d.run, &d.dataset)),
                delta: d.stats.delta,
                low: d.stats.ci_low,
                high: d.stats.ci_high,
                significance: d.stats.label,
            })
            .collect(),
        width: 1000,
        selected: None,
    }
}
