//! What a write-time probe says, first: how many notes lost their source silently (with its
//! Wilson interval), how often a verdict predicts recovery, which policy is worst, and the
//! verdict counts.

use super::summary::ProbeReport;
use super::summary::ProbeTable;
use crate::headline::{Headline, estimate, from_warnings, percent};

/// The headlines of a probe report (unranked: see [`crate::headline::rank`]).
pub fn headlines(r: &ProbeReport) -> Vec<Headline> {
    let s = &r.summary;
    let mut hs = Vec::new();
    let wilson = format!("{}% Wilson interval", percent(s.confidence));
    if s.n > 0 {
        if let Some(rate) = s.silent_rate {
            let text = format!(
                "{} of {} notes ({:.1}%) dropped the source silently: no source item or prefix is left, the stale conclusion is",
                s.silent_n,
                s.n,
                rate * 100.0
            );
            let evidence = format!("silent rate {}; {wilson}", estimate(rate, s.silent_low, s.silent_high));
            hs.push(if s.silent_n > 0 {
                Headline::alert(text, evidence, ProbeTable::Notes)
            } else {
                Headline::context(text, evidence, ProbeTable::Notes)
            });
        }
        if let Some(rate) = s.unflagged_rate
            && s.unflagged_n > s.silent_n
        {
            hs.push(Headline::finding(
                format!("{} of {} notes lose source items without saying so", s.unflagged_n, s.n),
                format!(
                    "unflagged rate {} (silent and partial_silent); {wilson}",
                    estimate(rate, s.unflagged_low, s.unflagged_high)
                ),
                ProbeTable::Notes,
            ));
        }
        let counts = s.counts.iter().map(|(v, n)| format!("{} {n}", v.name())).collect::<Vec<_>>().join(", ");
        hs.push(Headline::context(format!("{} notes probed ({} mode)", s.n, s.mode.name()), counts, ProbeTable::Notes));
    }
    if let Some(by) = &r.by_verdict {
        let rows: Vec<String> = by
            .iter()
            .filter(|v| v.recovery.n > 0)
            .filter_map(|v| {
                Some(format!("{} {}", v.verdict.name(), estimate(v.recovery.rate?, v.recovery.low, v.recovery.high)))
            })
            .collect();
        if !rows.is_empty() {
            hs.push(Headline::finding(
                format!("Recovery by verdict on the {} notes with an outcome", s.with_outcome),
                format!("{}; {wilson}", rows.join("; ")),
                ProbeTable::ByVerdict,
            ));
        }
    }
    if let Some(c) = &r.confusion
        && let Some(acc) = c.accuracy
    {
        hs.push(Headline::context(
            format!("The verdict predicts recovery for {:.0}% of {} notes", acc * 100.0, c.n),
            format!(
                "predicted recover: {} recovered, {} failed; predicted fail: {} recovered, {} failed",
                c.predicted_recover_recovered,
                c.predicted_recover_failed,
                c.predicted_fail_recovered,
                c.predicted_fail_failed
            ),
            ProbeTable::Agreement,
        ));
    }
    hs.extend(from_warnings(r.warnings.iter(), ProbeTable::Notes));
    hs
}
