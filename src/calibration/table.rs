//! The tables of a calibration report (`memaudit calibration --format csv --table NAME`).

use super::analyse::{BinRow, CalibrationReport, CalibrationRow, LedgerRow, SweepRow};
use crate::report::{Column, Table, flag, num};

crate::choice! {
    /// The tables of a calibration report.
    pub enum CalibrationTable {
        /// Help / hurt per population.
        Ledger,
        /// Accuracy per confidence bin, without and with memory.
        Bins,
        /// Inject fraction and accuracy as the routing threshold varies.
        Sweep,
        /// ECE, Brier and log loss, raw and after Platt scaling, per split.
        Calibration,
        /// The reliability diagram's bins of every calibration row.
        Reliability,
        /// The items each split holds ([`crate::cells`]).
        Populations,
        /// The columns that are pooled or not used.
        CellColumns,
        /// Bank governance: each retrieved entry's utility and its retirement under both radii.
        Governance,
    }
}

const GOVERNANCE: &[Column<super::governance::EntryUtility>] = &crate::columns![super::governance::EntryUtility;
    /// The memory entry, as the rows name it.
    "entry" => |e| e.entry.clone(),
    /// Utility observations: routed items naming the entry, with both outcomes.
    "n" => |e| e.n.to_string(),
    /// Observations where memory turned a wrong answer right (X = +1).
    "helps" => |e| e.helps.to_string(),
    /// Observations where memory turned a right answer wrong (X = −1).
    "hurts" => |e| e.hurts.to_string(),
    /// The mean utility µ̂.
    "mean" => |e| num(Some(e.mean)),
    /// √(log(2/δ)/(2n)), TAG's radius.
    "radius_published" => |e| num(Some(e.radius_published)),
    /// √(2·log(2/δ)/n), Hoeffding's radius for utilities in [−1, 1].
    "radius_textbook" => |e| num(Some(e.radius_textbook)),
    /// µ̂ + the chosen radius.
    "ucb" => |e| num(Some(e.ucb)),
    /// Retired under the chosen radius: the upper bound is below 0.
    "retired" => |e| flag(e.retired),
    /// Retired under the other radius.
    "retired_other" => |e| flag(e.retired_other),
];

const LEDGER: &[Column<LedgerRow>] = &crate::columns![LedgerRow;
    /// all, applied (the items memory was applied to) or not_applied.
    "population" => |r| r.population.clone(),
    /// Items in the population.
    "n" => |r| r.n.to_string(),
    /// Items wrong without memory and right with it.
    "help" => |r| r.help.to_string(),
    /// Items right without memory and wrong with it.
    "hurt" => |r| r.hurt.to_string(),
    /// Items right with and without memory.
    "both_right" => |r| r.both_right.to_string(),
    /// Items wrong with and without memory.
    "both_wrong" => |r| r.both_wrong.to_string(),
    /// (help − hurt) / n: the accuracy memory adds.
    "delta_accuracy" => |r| num(r.delta_accuracy),
    /// Accuracy without memory.
    "accuracy_without" => |r| num(r.accuracy_without),
    /// Accuracy with memory.
    "accuracy_with" => |r| num(r.accuracy_with),
];

const BINS: &[Column<BinRow>] = &crate::columns![BinRow;
    /// The bin, 1 = the lowest confidences (equal-count bins; equal confidences stay in one bin).
    "bin" => |r| r.bin.to_string(),
    /// The lowest confidence in the bin.
    "confidence_low" => |r| num(Some(r.confidence_low)),
    /// The highest confidence in the bin.
    "confidence_high" => |r| num(Some(r.confidence_high)),
    /// Items in the bin.
    "n" => |r| r.n.to_string(),
    /// Accuracy without memory in the bin.
    "accuracy_without" => |r| num(Some(r.accuracy_without)),
    /// Its Wilson interval, lower bound.
    "without_low" => |r| num(r.without_low),
    /// Its Wilson interval, upper bound.
    "without_high" => |r| num(r.without_high),
    /// Accuracy with memory in the bin.
    "accuracy_with" => |r| num(r.accuracy_with),
    /// Its Wilson interval, lower bound.
    "with_low" => |r| num(r.with_low),
    /// Its Wilson interval, upper bound.
    "with_high" => |r| num(r.with_high),
    /// Share of the bin's items memory was applied to.
    "applied_share" => |r| num(r.applied_share),
];

const SWEEP: &[Column<SweepRow>] = &crate::columns![SweepRow;
    /// p: the threshold is this percentile of the confidence.
    "percentile" => |r| num(Some(r.percentile)),
    /// τ, the threshold: the p-th percentile (linear, type 7). Items are routed to memory when c < τ (or c ≥ τ, as the settings say).
    "tau" => |r| num(Some(r.tau)),
    /// Share of items routed to memory.
    "inject_fraction" => |r| num(Some(r.inject_fraction)),
    /// Accuracy of memory's outcome where routed and the baseline's elsewhere.
    "accuracy" => |r| num(Some(r.accuracy)),
    /// accuracy − the accuracy without memory.
    "delta" => |r| num(Some(r.delta)),
    /// Routed items wrong without memory and right with it.
    "help" => |r| r.help.to_string(),
    /// Routed items right without memory and wrong with it.
    "hurt" => |r| r.hurt.to_string(),
];

const CALIBRATION: &[Column<CalibrationRow>] = &crate::columns![CalibrationRow;
    /// raw (the confidence as a probability) or platt (after Platt scaling).
    "method" => |r| r.method.clone(),
    /// The split scored: all without a split column; pooled: … for the evaluation splits together.
    "split" => |r| r.split.clone(),
    /// Items scored.
    "n" => |r| r.n.to_string(),
    /// Expected calibration error: Σ n_b/N·|accuracy_b − confidence_b| over equal-width bins on [0, 1].
    "ece" => |r| num(r.ece),
    /// Brier score: mean (p − y)².
    "brier" => |r| num(r.brier),
    /// Log loss: −mean(y ln p + (1 − y) ln(1 − p)), p clipped to [1e-15, 1 − 1e-15].
    "log_loss" => |r| num(r.log_loss),
    /// Whether the row pools the evaluation splits.
    "pooled" => |r| flag(r.pooled),
];

/// One table of a calibration report.
pub fn table(r: &CalibrationReport, which: CalibrationTable) -> Table {
    let name = which.name();
    match which {
        CalibrationTable::Populations => r.populations.populations_table(name),
        CalibrationTable::CellColumns => r.populations.columns_table(name),
        CalibrationTable::Ledger => Table::of(name, LEDGER, &r.ledger),
        CalibrationTable::Governance => {
            Table::of(name, GOVERNANCE, r.governance.as_ref().map_or(&[][..], |g| &g.entries[..]))
        }
        CalibrationTable::Bins => Table::of(name, BINS, &r.bins),
        CalibrationTable::Sweep => Table::of(name, SWEEP, &r.sweep),
        CalibrationTable::Calibration => Table::of(name, CALIBRATION, &r.calibration),
        CalibrationTable::Reliability => {
            let mut t = Table::new(name, &["method", "split", "low", "high", "n", "mean_probability", "accuracy"]);
            for c in &r.calibration {
                for b in &c.reliability {
                    t.rows.push(vec![
                        c.method.clone(),
                        c.split.clone(),
                        num(Some(b.low)),
                        num(Some(b.high)),
                        b.n.to_string(),
                        num(b.mean_probability),
                        num(b.accuracy),
                    ]);
                }
            }
            t
        }
    }
}
