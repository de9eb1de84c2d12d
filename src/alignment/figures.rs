//! The alignment's plots — the page draws them on canvas (one at a time, with a picker), the
//! report to attach as SVG ([`figures`]): the |shift| histogram (TIAP Figure 3) of a row of
//! `shifts`; attached, those of each group's pooled rows (a group of one run: its rows).

use std::collections::HashSet;

use super::AlignmentReport;
use super::shift::ShiftRow;
use crate::attach::{Figure, figure};
use crate::plots::histogram::HistogramPlot;

/// The histogram of one row of the report's `shifts`, the metric named and the large-shift
/// threshold marked.
pub fn shift_plot(row: &ShiftRow, metric: &str, threshold: f64) -> HistogramPlot {
    let group = if row.group.is_empty() { String::new() } else { format!("{}, ", row.group) };
    HistogramPlot {
        title: format!("|Δ{metric}| {} → {} ({group}{}, n = {})", row.target_a, row.target_b, row.run, row.shared),
        x_label: format!("|Δ{metric}| per query"),
        bins: row.bins.clone(),
        n: row.shared,
        mean_abs: row.mean_abs_shift,
        threshold: Some(threshold),
    }
}

/// Whether each row of `shifts` sums up its group: a `pooled` row, or a row of a group of one
/// run (a (group, pair) without a pooled row).
pub fn summary_rows(shifts: &[ShiftRow]) -> Vec<bool> {
    let pooled: HashSet<(&str, &str, &str)> = shifts
        .iter()
        .filter(|p| p.run == "pooled")
        .map(|p| (p.group.as_str(), p.target_a.as_str(), p.target_b.as_str()))
        .collect();
    shifts
        .iter()
        .map(|r| r.run == "pooled" || !pooled.contains(&(r.group.as_str(), r.target_a.as_str(), r.target_b.as_str())))
        .collect()
}

/// The histogram of each summary row ([`summary_rows`]).
pub fn figures(r: &AlignmentReport) -> Vec<Figure> {
    let s = &r.settings;
    let summary = summary_rows(&r.shifts);
    r.shifts
        .iter()
        .zip(summary)
        .filter(|(_, sums)| *sums)
        .map(|(row, _)| figure(&shift_plot(row, &s.shift_metric, s.shift_threshold)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(group: &str, run: &str) -> ShiftRow {
        ShiftRow {
            group: group.into(),
            run: run.into(),
            target_a: "raw".into(),
            target_b: "canonical".into(),
            shared: 2,
            hit_flips: None,
            top1_flips: None,
            changed: 1,
            change_rate: Some(0.5),
            mean_shift: Some(0.1),
            mean_abs_shift: Some(0.1),
            large_share: Some(0.5),
            bins: crate::plots::histogram::bins(&[0.0, 0.2], 20, 1.0),
        }
    }

    #[test]
    fn a_group_is_summed_by_its_pooled_row_or_its_only_run() {
        let shifts = [row("A", "x"), row("A", "y"), row("A", "pooled"), row("B", "z")];
        assert_eq!(summary_rows(&shifts), [false, false, true, true]);
        let p = shift_plot(&shifts[3], "ndcg", 0.1);
        assert_eq!(p.title, "|Δndcg| raw → canonical (B, z, n = 2)");
        assert!(crate::plots::plot_svg(&p).unwrap().contains("|Δndcg| per query"));
    }
}
