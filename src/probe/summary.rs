//! Batch summary of probe verdicts, and — when the notes carry outcomes (`correct`) — how well
//! the verdicts predict real recovery, for both modes side by side.
//!
//! * `silent_rate` = #silent-uncorrectable / n (`silent` in itemized mode,
//!   `uncorrectable_silent` in reference mode; reclaim-eval's `silent_failure_rate`), with a
//!   Wilson score interval ([`crate::stats::proportions::wilson_interval`]).
//! * `unflagged_rate` = (#silent + #partial_silent) / n: every note that fails without a signal.
//! * `modal_verdict`: the most frequent verdict, ties to the one seen first (reclaim-eval's
//!   `Counter.most_common(1)`); `any_silent`: some note is silent-uncorrectable.
//! * `by_verdict`: per verdict, the recovery rate = #correct / #notes with an outcome, Wilson
//!   interval.
//! * `confusion`: the probe as a classifier of recovery: positive prediction = `complete` /
//!   `correctable`, positive outcome = `correct`; precision = TP/(TP+FP), NPV = TN/(TN+FN),
//!   sensitivity = TP/(TP+FN), specificity = TN/(TN+FP), accuracy = (TP+TN)/n.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::warnings::ProbeWarnings;
use super::{Mode, NoteInput, NoteRow, Verdict, probe_note};
use crate::error::IngestError;
use crate::report::{Column, Table, num, opt};
use crate::stats::proportions::wilson_interval;

/// Counts and the silent-failure rate of one mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeSummary {
    pub mode: Mode,
    pub n: usize,
    /// Notes per verdict (every verdict of the mode, zeros included, in display order).
    pub counts: BTreeMap<Verdict, usize>,
    pub silent_n: usize,
    pub silent_rate: Option<f64>,
    pub silent_low: Option<f64>,
    pub silent_high: Option<f64>,
    /// Silent or silently partial notes.
    pub unflagged_n: usize,
    pub unflagged_rate: Option<f64>,
    pub unflagged_low: Option<f64>,
    pub unflagged_high: Option<f64>,
    pub modal_verdict: Option<Verdict>,
    pub any_silent: bool,
    /// Notes with an outcome (`correct`).
    pub with_outcome: usize,
    pub confidence: f64,
}

/// Recovery of the notes given one verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerdictRecovery {
    pub verdict: Verdict,
    /// Of the notes with this verdict and an outcome.
    #[serde(flatten)]
    pub recovery: Recovery,
}

/// How many notes with an outcome recovered, with the Wilson interval of the rate (flattened
/// into [`VerdictRecovery`] and [`PolicyVerdict`]: the keys `n`, `recovered`, `rate`, `low`,
/// `high`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recovery {
    /// Notes with an outcome.
    pub n: usize,
    pub recovered: usize,
    pub rate: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

impl Recovery {
    /// The recovery of these outcomes (true = recovered) at `confidence`.
    pub fn of(outcomes: &[bool], confidence: f64) -> Recovery {
        let recovered = outcomes.iter().filter(|&&c| c).count();
        let (rate, low, high) = rate(recovered, outcomes.len(), confidence);
        Recovery { n: outcomes.len(), recovered, rate, low, high }
    }
}

/// The probe's verdicts against outcomes (positive = predicted / actually recovered).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Confusion {
    pub n: usize,
    /// Predicted recoverable and recovered (TP).
    pub predicted_recover_recovered: usize,
    /// Predicted recoverable, not recovered (FP).
    pub predicted_recover_failed: usize,
    /// Predicted not recoverable, recovered anyway (FN).
    pub predicted_fail_recovered: usize,
    /// Predicted not recoverable and not recovered (TN).
    pub predicted_fail_failed: usize,
    pub accuracy: Option<f64>,
    pub precision: Option<f64>,
    pub npv: Option<f64>,
    pub sensitivity: Option<f64>,
    pub specificity: Option<f64>,
}

/// Verdicts of one policy (the `policy`/`variant` of the notes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PolicyVerdict {
    pub policy: String,
    pub verdict: Verdict,
    /// All notes of this policy with this verdict.
    pub notes: usize,
    /// Of those with an outcome.
    #[serde(flatten)]
    pub recovery: Recovery,
}

/// One mode's summary and, with outcomes, its validity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModeReport {
    pub summary: ProbeSummary,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub by_verdict: Option<Vec<VerdictRecovery>>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub confusion: Option<Confusion>,
    pub by_policy: Vec<PolicyVerdict>,
}

/// How the two modes' verdicts cross (and, with outcomes, how each cell recovered).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgreementCell {
    pub itemized: Verdict,
    pub reference: Verdict,
    pub notes: usize,
    pub n: usize,
    pub recovered: usize,
}

/// Both modes on the same notes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideBySide {
    pub itemized: ModeReport,
    pub reference: ModeReport,
    pub agreement: Vec<AgreementCell>,
}

/// Everything `memaudit probe` prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeReport {
    pub mode: Mode,
    pub notes: Vec<NoteRow>,
    pub summary: ProbeSummary,
    /// Present when some note has an outcome.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub by_verdict: Option<Vec<VerdictRecovery>>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub confusion: Option<Confusion>,
    pub by_policy: Vec<PolicyVerdict>,
    pub side_by_side: SideBySide,
    pub warnings: ProbeWarnings,
    /// Per note: items, tokens and highlight spans (`--details` only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub details: Option<Vec<super::unit::NoteDetail>>,
}

fn rate(x: usize, n: usize, confidence: f64) -> (Option<f64>, Option<f64>, Option<f64>) {
    if n == 0 {
        return (None, None, None);
    }
    let ci = wilson_interval(x as f64, n as f64, confidence);
    (Some(x as f64 / n as f64), ci.map(|c| c.low), ci.map(|c| c.high))
}

fn ratio(a: usize, b: usize) -> Option<f64> {
    if b == 0 { None } else { Some(a as f64 / b as f64) }
}

/// The summary of rows of one mode.
pub fn summarize(rows: &[NoteRow], mode: Mode, confidence: f64) -> ProbeSummary {
    let mut counts: BTreeMap<Verdict, usize> = mode.verdicts().iter().map(|v| (*v, 0)).collect();
    let mut first_seen: Vec<Verdict> = Vec::new();
    for r in rows {
        *counts.entry(r.verdict).or_insert(0) += 1;
        if !first_seen.contains(&r.verdict) {
            first_seen.push(r.verdict);
        }
    }
    let n = rows.len();
    let silent_n = rows.iter().filter(|r| r.verdict.is_silent_failure()).count();
    let unflagged_n = rows.iter().filter(|r| r.verdict.is_unflagged_failure()).count();
    let (silent_rate, silent_low, silent_high) = rate(silent_n, n, confidence);
    let (unflagged_rate, unflagged_low, unflagged_high) = rate(unflagged_n, n, confidence);
    let mut modal: Option<(Verdict, usize)> = None;
    for v in first_seen {
        let c = counts.get(&v).copied().unwrap_or(0);
        if modal.is_none_or(|(_, m)| c > m) {
            modal = Some((v, c));
        }
    }
    ProbeSummary {
        mode,
        n,
        counts,
        silent_n,
        silent_rate,
        silent_low,
        silent_high,
        unflagged_n,
        unflagged_rate,
        unflagged_low,
        unflagged_high,
        modal_verdict: modal.map(|(v, _)| v),
        any_silent: silent_n > 0,
        with_outcome: rows.iter().filter(|r| r.correct.is_some()).count(),
        confidence,
    }
}

/// Recovery per verdict (`None` when no row has an outcome).
pub fn by_verdict(rows: &[NoteRow], mode: Mode, confidence: f64) -> Option<Vec<VerdictRecovery>> {
    if rows.iter().all(|r| r.correct.is_none()) {
        return None;
    }
    Some(
        mode.verdicts()
            .iter()
            .map(|&v| {
                let with: Vec<bool> = rows.iter().filter(|r| r.verdict == v).filter_map(|r| r.correct).collect();
                VerdictRecovery { verdict: v, recovery: Recovery::of(&with, confidence) }
            })
            .collect(),
    )
}

/// The probe against outcomes (`None` without outcomes).
pub fn confusion(rows: &[NoteRow]) -> Option<Confusion> {
    let pairs: Vec<(bool, bool)> =
        rows.iter().filter_map(|r| r.correct.map(|c| (r.verdict.predicts_recovery(), c))).collect();
    if pairs.is_empty() {
        return None;
    }
    let count = |p: bool, c: bool| pairs.iter().filter(|&&x| x == (p, c)).count();
    let (tp, fp, fneg, tn) = (count(true, true), count(true, false), count(false, true), count(false, false));
    Some(Confusion {
        n: pairs.len(),
        predicted_recover_recovered: tp,
        predicted_recover_failed: fp,
        predicted_fail_recovered: fneg,
        predicted_fail_failed: tn,
        accuracy: ratio(tp + tn, pairs.len()),
        precision: ratio(tp, tp + fp),
        npv: ratio(tn, tn + fneg),
        sensitivity: ratio(tp, tp + fneg),
        specificity: ratio(tn, tn + fp),
    })
}

/// Verdicts per policy, in first-seen policy order.
pub fn by_policy(rows: &[NoteRow], mode: Mode, confidence: f64) -> Vec<PolicyVerdict> {
    let mut policies: Vec<&str> = Vec::new();
    for r in rows {
        if let Some(p) = r.policy.as_deref()
            && !policies.contains(&p)
        {
            policies.push(p);
        }
    }
    let mut out = Vec::new();
    for p in policies {
        for &v in mode.verdicts() {
            let cell: Vec<&NoteRow> =
                rows.iter().filter(|r| r.policy.as_deref() == Some(p) && r.verdict == v).collect();
            if cell.is_empty() {
                continue;
            }
            let with: Vec<bool> = cell.iter().filter_map(|r| r.correct).collect();
            out.push(PolicyVerdict {
                policy: p.to_string(),
                verdict: v,
                notes: cell.len(),
                recovery: Recovery::of(&with, confidence),
            });
        }
    }
    out
}

fn mode_report(rows: &[NoteRow], mode: Mode, confidence: f64) -> ModeReport {
    ModeReport {
        summary: summarize(rows, mode, confidence),
        by_verdict: by_verdict(rows, mode, confidence),
        confusion: confusion(rows),
        by_policy: by_policy(rows, mode, confidence),
    }
}

/// Probes every note in both modes and summarises; `mode` decides the `notes` rows and the
/// top-level summary. `confidence` is the Wilson intervals' level (e.g. 0.95).
pub fn report(notes: &[NoteInput], mode: Mode, confidence: f64) -> Result<ProbeReport, IngestError> {
    let mut itemized = Vec::with_capacity(notes.len());
    let mut reference = Vec::with_capacity(notes.len());
    for n in notes {
        itemized.push(probe_note(n, Mode::Itemized)?.row);
        reference.push(probe_note(n, Mode::Reference)?.row);
    }
    let mut agreement: Vec<AgreementCell> = Vec::new();
    for &iv in Mode::Itemized.verdicts() {
        for &rv in Mode::Reference.verdicts() {
            let cell: Vec<Option<bool>> = itemized
                .iter()
                .zip(&reference)
                .filter(|(a, b)| a.verdict == iv && b.verdict == rv)
                .map(|(a, _)| a.correct)
                .collect();
            if cell.is_empty() {
                continue;
            }
            agreement.push(AgreementCell {
                itemized: iv,
                reference: rv,
                notes: cell.len(),
                n: cell.iter().flatten().count(),
                recovered: cell.iter().flatten().filter(|&&c| c).count(),
            });
        }
    }
    let side = SideBySide {
        itemized: mode_report(&itemized, Mode::Itemized, confidence),
        reference: mode_report(&reference, Mode::Reference, confidence),
        agreement,
    };
    let (rows, chosen) = match mode {
        Mode::Itemized => (itemized, &side.itemized),
        Mode::Reference => (reference, &side.reference),
    };
    Ok(ProbeReport {
        mode,
        summary: chosen.summary.clone(),
        by_verdict: chosen.by_verdict.clone(),
        confusion: chosen.confusion.clone(),
        by_policy: chosen.by_policy.clone(),
        notes: rows,
        side_by_side: side,
        warnings: ProbeWarnings::default(),
        details: None,
    })
}

crate::choice! {
    /// The tables of a probe report: `notes`, `by_verdict` (both modes), `by_policy` (both
    /// modes), `agreement`.
    pub enum ProbeTable {
        Notes,
        ByVerdict,
        ByPolicy,
        Agreement,
        /// Each mode's counts and rates (silent-uncorrectable, unflagged failure) with their
        /// intervals.
        Summary,
        /// Each mode's verdict as a predictor of recovery (notes with an outcome).
        Confusion,
    }
}

const SUMMARY: &[Column<ProbeSummary>] = &crate::columns![ProbeSummary;
    "mode" => |s| s.mode.name().into(),
    "n" => |s| s.n.to_string(),
    "silent_n" => |s| s.silent_n.to_string(),
    "silent_rate" => |s| num(s.silent_rate),
    "silent_low" => |s| num(s.silent_low),
    "silent_high" => |s| num(s.silent_high),
    "unflagged_n" => |s| s.unflagged_n.to_string(),
    "unflagged_rate" => |s| num(s.unflagged_rate),
    "unflagged_low" => |s| num(s.unflagged_low),
    "unflagged_high" => |s| num(s.unflagged_high),
    "modal_verdict" => |s| s.modal_verdict.map(|v| v.name().to_string()).unwrap_or_default(),
    "with_outcome" => |s| s.with_outcome.to_string(),
    "confidence" => |s| num(Some(s.confidence)),
];

/// One row of one mode: a policy × verdict row ([`PolicyVerdict`]), or the mode's confusion of
/// verdict (complete / correctable predict recovery) and outcome ([`Confusion`]).
pub struct ModeLine<'a, T> {
    pub mode: Mode,
    pub row: &'a T,
}

fn confusion_columns<'a>() -> [Column<ModeLine<'a, Confusion>>; 11] {
    crate::columns![ModeLine<'a, Confusion>;
        "mode" => |l| l.mode.name().into(),
        "n" => |l| l.row.n.to_string(),
        "predicted_recover_recovered" => |l| l.row.predicted_recover_recovered.to_string(),
        "predicted_recover_failed" => |l| l.row.predicted_recover_failed.to_string(),
        "predicted_fail_recovered" => |l| l.row.predicted_fail_recovered.to_string(),
        "predicted_fail_failed" => |l| l.row.predicted_fail_failed.to_string(),
        "accuracy" => |l| num(l.row.accuracy),
        "precision" => |l| num(l.row.precision),
        "npv" => |l| num(l.row.npv),
        "sensitivity" => |l| num(l.row.sensitivity),
        "specificity" => |l| num(l.row.specificity),
    ]
}

/// The notes table of `notes` (a page of them, on screen).
pub fn notes_table(notes: &[NoteRow]) -> Table {
    Table::of(ProbeTable::Notes.name(), NOTES, notes)
}

const NOTES: &[Column<NoteRow>] = &crate::columns![NoteRow;
    "note_id" => |n| n.note_id.clone(),
    "mode" => |n| n.mode.name().into(),
    "verdict" => |n| n.verdict.name().into(),
    "items_total" => |n| n.items_total.to_string(),
    "items_found" => |n| n.items_found.to_string(),
    "stale_found" => |n| n.stale_found.to_string(),
    "tag_k" => |n| opt(&n.tag_k),
    "tag_n" => |n| opt(&n.tag_n),
    "tag_variant" => |n| opt(&n.tag_variant),
    "tag_agrees" => |n| opt(&n.tag_agrees),
    "missing" => |n| n.missing.join(" | "),
    "note_chars" => |n| n.note_chars.to_string(),
    "budget" => |n| opt(&n.budget),
    "over_budget" => |n| opt(&n.over_budget),
    "policy" => |n| opt(&n.policy),
    "integrity" => |n| opt(&n.integrity),
    "arm" => |n| opt(&n.arm),
    "correct" => |n| opt(&n.correct),
    "explanation" => |n| n.explanation.clone(),
    "invented" => |n| n.invented.as_ref().map_or(String::new(), |v| v.join(" ")),
];

/// One verdict of one mode with its recovery.
pub struct VerdictLine<'a> {
    pub mode: &'a ModeReport,
    pub verdict: Verdict,
    pub recovery: Option<&'a VerdictRecovery>,
}

fn verdict_columns<'a>() -> [Column<VerdictLine<'a>>; 8] {
    crate::columns![VerdictLine<'a>;
        "mode" => |l| l.mode.summary.mode.name().into(),
        "verdict" => |l| l.verdict.name().into(),
        "notes" => |l| l.mode.summary.counts.get(&l.verdict).copied().unwrap_or(0).to_string(),
        "n" => |l| l.recovery.map(|x| x.recovery.n.to_string()).unwrap_or_default(),
        "recovered" => |l| l.recovery.map(|x| x.recovery.recovered.to_string()).unwrap_or_default(),
        "rate" => |l| num(l.recovery.and_then(|x| x.recovery.rate)),
        "low" => |l| num(l.recovery.and_then(|x| x.recovery.low)),
        "high" => |l| num(l.recovery.and_then(|x| x.recovery.high)),
    ]
}

fn policy_columns<'a>() -> [Column<ModeLine<'a, PolicyVerdict>>; 9] {
    crate::columns![ModeLine<'a, PolicyVerdict>;
        "mode" => |l| l.mode.name().into(),
        "policy" => |l| l.row.policy.clone(),
        "verdict" => |l| l.row.verdict.name().into(),
        "notes" => |l| l.row.notes.to_string(),
        "n" => |l| l.row.recovery.n.to_string(),
        "recovered" => |l| l.row.recovery.recovered.to_string(),
        "rate" => |l| num(l.row.recovery.rate),
        "low" => |l| num(l.row.recovery.low),
        "high" => |l| num(l.row.recovery.high),
    ]
}

const AGREEMENT: &[Column<AgreementCell>] = &crate::columns![AgreementCell;
    "itemized" => |a| a.itemized.name().into(),
    "reference" => |a| a.reference.name().into(),
    "notes" => |a| a.notes.to_string(),
    "n" => |a| a.n.to_string(),
    "recovered" => |a| a.recovered.to_string(),
];

/// One table of a probe report.
pub fn probe_table(r: &ProbeReport, which: ProbeTable) -> Table {
    let name = which.name();
    let modes = [&r.side_by_side.itemized, &r.side_by_side.reference];
    match which {
        ProbeTable::Notes => Table::of(name, NOTES, &r.notes),
        ProbeTable::ByVerdict => {
            let rows: Vec<VerdictLine<'_>> = modes
                .iter()
                .flat_map(|m| {
                    m.summary.mode.verdicts().iter().map(move |&verdict| VerdictLine {
                        mode: m,
                        verdict,
                        recovery: m.by_verdict.as_ref().and_then(|b| b.iter().find(|x| x.verdict == verdict)),
                    })
                })
                .collect();
            Table::of(name, &verdict_columns(), &rows)
        }
        ProbeTable::ByPolicy => {
            let rows: Vec<ModeLine<'_, PolicyVerdict>> = modes
                .iter()
                .flat_map(|m| m.by_policy.iter().map(move |row| ModeLine { mode: m.summary.mode, row }))
                .collect();
            Table::of(name, &policy_columns(), &rows)
        }
        ProbeTable::Agreement => Table::of(name, AGREEMENT, &r.side_by_side.agreement),
        ProbeTable::Summary => Table::of(name, SUMMARY, modes.iter().map(|m| &m.summary)),
        ProbeTable::Confusion => {
            let rows: Vec<ModeLine<'_, Confusion>> = modes
                .iter()
                .filter_map(|m| m.confusion.as_ref().map(|row| ModeLine { mode: m.summary.mode, row }))
                .collect();
            Table::of(name, &confusion_columns(), &rows)
        }
    }
}

/// A table as aligned plain text (columns padded to their widest cell, in characters).
pub fn render_table(t: &Table) -> String {
    let mut widths: Vec<usize> = t.headers.iter().map(|h| h.chars().count()).collect();
    for r in &t.rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: &[String]| {
        let mut s = String::new();
        for (i, (c, w)) in cells.iter().zip(&widths).enumerate() {
            if i > 0 {
                s.push_str("  ");
            }
            s.push_str(c);
            if i + 1 < cells.len() {
                s.extend(std::iter::repeat_n(' ', w.saturating_sub(c.chars().count())));
            }
        }
        s.push('\n');
        s
    };
    let mut out = line(&t.headers);
    for r in &t.rows {
        out.push_str(&line(r));
    }
    out
}

fn pct(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.2}")).unwrap_or_else(|| "—".into())
}

/// The probe report as text: one line per note, then the summary and, with outcomes, the
/// recovery per verdict of both modes.
pub fn render_text(r: &ProbeReport) -> String {
    let mut out = String::new();
    let mut notes = Table::new("notes", &["note_id", "verdict", "k/N", "stale", "tag", "explanation"]);
    for n in &r.notes {
        notes.rows.push(vec![
            n.note_id.clone(),
            n.verdict.name().into(),
            format!("{}/{}", n.items_found, n.items_total),
            if n.stale_found { "kept".into() } else { "—".into() },
            match (n.tag_k, n.tag_n) {
                (Some(k), Some(nn)) => format!("{k} of {nn}"),
                _ => "—".into(),
            },
            n.explanation.clone(),
        ]);
    }
    out.push_str(&render_table(&notes));
    let s = &r.summary;
    out.push_str(&format!("\n{} probe, {} notes: ", s.mode.name(), s.n));
    out.push_str(&s.counts.iter().map(|(v, c)| format!("{} {c}", v.name())).collect::<Vec<_>>().join(", "));
    out.push_str(&format!(
        "\nsilent-failure rate {} [{}, {}] (Wilson {:.0}%); modal verdict {}; {}\n",
        pct(s.silent_rate),
        pct(s.silent_low),
        pct(s.silent_high),
        s.confidence * 100.0,
        s.modal_verdict.map_or("—", |v| v.name()),
        if s.any_silent { "SILENT FAILURE present" } else { "no silent failure" }
    ));
    for m in [&r.side_by_side.itemized, &r.side_by_side.reference] {
        if let Some(bv) = &m.by_verdict {
            out.push_str(&format!("\nrecovery by verdict ({} mode):\n", m.summary.mode.name()));
            let mut t = Table::new("by_verdict", &["verdict", "n", "recovered", "rate", "95% CI"]);
            for (verdict, v) in bv.iter().map(|b| (b.verdict, &b.recovery)) {
                t.rows.push(vec![
                    verdict.name().into(),
                    v.n.to_string(),
                    v.recovered.to_string(),
                    pct(v.rate),
                    if v.n == 0 { "—".into() } else { format!("[{}, {}]", pct(v.low), pct(v.high)) },
                ]);
            }
            out.push_str(&render_table(&t));
            if let Some(c) = &m.confusion {
                out.push_str(&format!(
                    "as a predictor of recovery: accuracy {}, precision {}, NPV {}, sensitivity {}, specificity {} (n={})\n",
                    pct(c.accuracy),
                    pct(c.precision),
                    pct(c.npv),
                    pct(c.sensitivity),
                    pct(c.specificity),
                    c.n
                ));
            }
        }
    }
    for w in r.warnings.iter() {
        out.push_str(&format!("note: {} ({}): {}\n", w.message, w.count, w.examples.join("; ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "notebooks at $4 each (7 bought) and pens at $2 each (9 bought)";

    fn note(id: &str, text: &str, correct: Option<bool>) -> NoteInput {
        let mut n = NoteInput::new(id, text).with_source(SRC).with_stale("$55");
        n.correct = correct;
        n.policy = Some(if id.starts_with('l') { "lossy".into() } else { "source_first".into() });
        n
    }

    #[test]
    fn summary_rates_and_recovery() {
        let notes = vec![
            note("l1", "You concluded the total before tax was $55.", Some(false)),
            note("l2", "You concluded the total before tax was $55.", Some(false)),
            note("s1", "The facts were: notebooks at $4 each (7 bought) and pens at $2 each (9 bought).", Some(true)),
            note("s2", "7 notebooks at $4 and 9 pens at $2", Some(false)),
        ];
        let r = report(&notes, Mode::Itemized, 0.95).unwrap();
        assert_eq!(r.summary.n, 4);
        assert_eq!(r.summary.counts[&Verdict::Silent], 2);
        assert_eq!(r.summary.counts[&Verdict::Complete], 2);
        assert_eq!(r.summary.counts[&Verdict::Loud], 0);
        assert_eq!(r.summary.silent_rate, Some(0.5));
        let w = wilson_interval(2.0, 4.0, 0.95).unwrap();
        assert_eq!((r.summary.silent_low, r.summary.silent_high), (Some(w.low), Some(w.high)));
        assert_eq!(r.summary.modal_verdict, Some(Verdict::Silent), "tie: first seen");
        assert!(r.summary.any_silent);
        let bv = r.by_verdict.as_ref().unwrap();
        assert_eq!(
            (bv[0].verdict, bv[0].recovery.n, bv[0].recovery.recovered, bv[0].recovery.rate),
            (Verdict::Complete, 2, 1, Some(0.5))
        );
        let c = r.confusion.as_ref().unwrap();
        assert_eq!((c.predicted_recover_recovered, c.predicted_recover_failed, c.predicted_fail_failed), (1, 1, 2));
        assert_eq!(c.precision, Some(0.5));
        assert_eq!(c.sensitivity, Some(1.0));
        // reference: the paraphrased complete note is "uncorrectable_loud" (no $55 in it)
        let rr = &r.side_by_side.reference;
        assert_eq!(rr.summary.counts[&Verdict::Correctable], 1);
        assert_eq!(rr.summary.counts[&Verdict::UncorrectableLoud], 1);
        assert_eq!(r.by_policy.len(), 2);
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["summary"]["counts"]["complete"], 2);
        assert!(json["by_verdict"].is_array());
        // without outcomes there is no recovery table
        let plain: Vec<NoteInput> = notes
            .into_iter()
            .map(|mut n| {
                n.correct = None;
                n
            })
            .collect();
        let r = report(&plain, Mode::Reference, 0.95).unwrap();
        assert!(r.by_verdict.is_none() && r.confusion.is_none());
        assert!(serde_json::to_value(&r).unwrap().get("by_verdict").is_none());
    }
}
