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
    }
}

const LEDGER: &[Column<LedgerRow>] = &crate::columns![LedgerRow;
    "population" => |r| r.population.clone(),
    "n" => |r| r.n.to_string(),
    "help" => |r| r.help.to_string(),
    "hurt" => |r| r.hurt.to_string(),
    "both_right" => |r| r.both_right.to_string(),
    "both_wrong" => |r| r.both_wrong.to_string(),
    "delta_accuracy" => |r| num(r.delta_accuracy),
    "accuracy_without" => |r| num(r.accuracy_without),
    "accuracy_with" => |r| num(r.accuracy_with),
];

const BINS: &[Column<BinRow>] = &crate::columns![BinRow;
    "bin" => |r| r.bin.to_string(),
    "confidence_low" => |r| num(Some(r.confidence_low)),
    "confidence_high" => |r| num(Some(r.confidence_high)),
    "n" => |r| r.n.to_string(),
    "accuracy_without" => |r| num(Some(r.accuracy_without)),
    "without_low" => |r| num(r.without_low),
    "without_high" => |r| num(r.without_high),
    "accuracy_with" => |r| num(r.accuracy_with),
    "with_low" => |r| num(r.with_low),
    "with_high" => |r| num(r.with_high),
    "applied_share" => |r| num(r.applied_share),
];

const SWEEP: &[Column<SweepRow>] = &crate::columns![SweepRow;
    "percentile" => |r| num(Some(r.percentile)),
    "tau" => |r| num(Some(r.tau)),
    "inject_fraction" => |r| num(Some(r.inject_fraction)),
    "accuracy" => |r| num(Some(r.accuracy)),
    "delta" => |r| num(Some(r.delta)),
    "help" => |r| r.help.to_string(),
    "hurt" => |r| r.hurt.to_string(),
];

const CALIBRATION: &[Column<CalibrationRow>] = &crate::columns![CalibrationRow;
    "method" => |r| r.method.clone(),
    "split" => |r| r.split.clone(),
    "n" => |r| r.n.to_string(),
    "ece" => |r| num(r.ece),
    "brier" => |r| num(r.brier),
    "log_loss" => |r| num(r.log_loss),
    "pooled" => |r| flag(r.pooled),
];

/// One table of a calibration report.
pub fn table(r: &CalibrationReport, which: CalibrationTable) -> Table {
    let name = which.name();
    match which {
        CalibrationTable::Populations => r.populations.populations_table(name),
        CalibrationTable::CellColumns => r.populations.columns_table(name),
        CalibrationTable::Ledger => Table::of(name, LEDGER, &r.ledger),
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
