//! The probe's plot from a report — the page draws it on canvas, the report to attach as SVG
//! ([`figures`]): the verdict counts of both modes side by side.

use super::summary::{ModeReport, ProbeReport};
use crate::attach::{Figure, figure};
use crate::plots::{VerdictBar, VerdictBars, VerdictGroup};

/// The verdict counts of the itemized and the reference mode on the same notes.
pub fn verdict_bars(r: &ProbeReport) -> VerdictBars {
    let side = &r.side_by_side;
    let modes: [(&str, &ModeReport); 2] = [("itemized", &side.itemized), ("reference", &side.reference)];
    VerdictBars {
        title: format!("Probe verdicts of {} notes, both modes", r.notes.len()),
        groups: modes
            .iter()
            .map(|(name, m)| VerdictGroup {
                name: name.to_string(),
                bars: m
                    .summary
                    .counts
                    .iter()
                    .map(|(v, c)| VerdictBar { verdict: v.name().to_string(), count: *c })
                    .collect(),
            })
            .collect(),
        width: 860,
        height: 380,
    }
}

/// The report's plots.
pub fn figures(r: &ProbeReport) -> Vec<Figure> {
    if r.notes.is_empty() { Vec::new() } else { vec![figure(&verdict_bars(r))] }
}
