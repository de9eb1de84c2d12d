//! The tables of an alignment report (`memaudit alignment --format csv --table NAME`).

use super::aggregate::{AggregationRow, WinnerRow};
use super::analyse::{AlignmentReport, AlignmentRow, CoverageRow, IdentityRow};
use super::contrast::ContrastRow;
use super::shift::ShiftRow;
use crate::plots::histogram::{BinOf, bins_of};
use crate::report::{Column, Table, flag, num};

crate::choice! {
    /// The tables of an alignment report.
    pub enum AlignmentTable {
        /// Per run and class (A-only, B-only, both, neither): mean answer score, positive and strong shares.
        Alignment,
        /// A target's metric on covered vs uncovered queries.
        Coverage,
        /// The share of identical per-query metrics of two runs.
        Identity,
        /// The queries each run's targets have rows for ([`crate::cells`]).
        Populations,
        /// Per run and pair of targets: hit and top-1 flips, queries whose metric changed, |Δ|
        /// (TIAP Tables 4, 15 and Figure 3).
        Shifts,
        /// Per run: the mean metric per target, B with A as fallback and the aggregations, τ_d
        /// (TIAP Table 8).
        Aggregations,
        /// Per pair of a group's runs and method: the run with the higher mean (TIAP Table 5).
        Winners,
        /// Per run and pair of targets on the run's shared subset: the means and B − A with a
        /// bootstrap interval (TIAP Table 2).
        TargetContrasts,
        /// Per row of `shifts`, the counts of |shift| in 20 equal bins from 0 (TIAP Figure 3).
        ShiftHistogram,
    }
}

const ALIGNMENT: &[Column<AlignmentRow>] = &crate::columns![AlignmentRow;
    "group" => |r| r.group.clone(),
    "run" => |r| r.run.clone(),
    "class" => |r| r.class.clone(),
    "n" => |r| r.n.to_string(),
    "scored" => |r| r.scored.to_string(),
    "mean_score" => |r| num(r.mean_score),
    "positive_share" => |r| num(r.positive_share),
    "strong_share" => |r| num(r.strong_share),
];

const COVERAGE: &[Column<CoverageRow>] = &crate::columns![CoverageRow;
    "group" => |r| r.group.clone(),
    "run" => |r| r.run.clone(),
    "target" => |r| r.target.clone(),
    "covered_by" => |r| r.covered_by.clone(),
    "covered_n" => |r| r.covered_n.to_string(),
    "covered_mean" => |r| num(r.covered_mean),
    "uncovered_n" => |r| r.uncovered_n.to_string(),
    "uncovered_mean" => |r| num(r.uncovered_mean),
    "diff" => |r| num(r.diff),
    "low" => |r| num(r.low),
    "high" => |r| num(r.high),
];

const IDENTITY: &[Column<IdentityRow>] = &crate::columns![IdentityRow;
    "run_a" => |r| r.run_a.clone(),
    "run_b" => |r| r.run_b.clone(),
    "target" => |r| r.target.clone(),
    "common" => |r| r.common.to_string(),
    "identical" => |r| r.identical.to_string(),
    "share" => |r| num(r.share),
    "flagged" => |r| flag(r.flagged),
    "metric" => |r| r.metric.clone(),
];

const SHIFTS: &[Column<ShiftRow>] = &crate::columns![ShiftRow;
    "group" => |r| r.group.clone(),
    "run" => |r| r.run.clone(),
    "target_a" => |r| r.target_a.clone(),
    "target_b" => |r| r.target_b.clone(),
    "shared" => |r| r.shared.to_string(),
    "hit_flips" => |r| r.hit_flips.map(|x| x.to_string()).unwrap_or_default(),
    "top1_flips" => |r| r.top1_flips.map(|x| x.to_string()).unwrap_or_default(),
    "changed" => |r| r.changed.to_string(),
    "change_rate" => |r| num(r.change_rate),
    "mean_shift" => |r| num(r.mean_shift),
    "mean_abs_shift" => |r| num(r.mean_abs_shift),
    "large_share" => |r| num(r.large_share),
];

const CONTRASTS: &[Column<ContrastRow>] = &crate::columns![ContrastRow;
    "group" => |r| r.group.clone(),
    "run" => |r| r.run.clone(),
    "target_a" => |r| r.target_a.clone(),
    "target_b" => |r| r.target_b.clone(),
    "n" => |r| r.n.to_string(),
    "mean_a" => |r| num(r.mean_a),
    "mean_b" => |r| num(r.mean_b),
    "diff" => |r| num(r.diff),
    "low" => |r| num(r.low),
    "high" => |r| num(r.high),
];

const AGGREGATIONS: &[Column<AggregationRow>] = &crate::columns![AggregationRow;
    "group" => |r| r.group.clone(),
    "run" => |r| r.run.clone(),
    "method" => |r| r.method.clone(),
    "n" => |r| r.n.to_string(),
    "mean" => |r| num(r.mean),
    "tau_d" => |r| r.tau_d.map(|x| x.to_string()).unwrap_or_default(),
];

const WINNERS: &[Column<WinnerRow>] = &crate::columns![WinnerRow;
    "group" => |r| r.group.clone(),
    "run_a" => |r| r.run_a.clone(),
    "run_b" => |r| r.run_b.clone(),
    "method" => |r| r.method.clone(),
    "mean_a" => |r| num(r.mean_a),
    "mean_b" => |r| num(r.mean_b),
    "winner" => |r| r.winner.clone(),
];

/// A bin of the |shift| histogram of a row of `shifts`.
fn shift_bin_columns<'a>() -> [Column<BinOf<'a, ShiftRow>>; 8] {
    crate::columns![BinOf<'a, ShiftRow>;
        "group" => |r| r.of.group.clone(),
        "run" => |r| r.of.run.clone(),
        "target_a" => |r| r.of.target_a.clone(),
        "target_b" => |r| r.of.target_b.clone(),
        "low" => |r| num(Some(r.bin.low)),
        "high" => |r| num(Some(r.bin.high)),
        "count" => |r| r.bin.count.to_string(),
        "share" => |r| num((r.of.shared > 0).then(|| r.bin.count as f64 / r.of.shared as f64)),
    ]
}

/// One table of an alignment report.
pub fn table(r: &AlignmentReport, which: AlignmentTable) -> Table {
    let name = which.name();
    match which {
        AlignmentTable::Alignment => Table::of(name, ALIGNMENT, &r.alignment),
        AlignmentTable::Coverage => Table::of(name, COVERAGE, &r.coverage),
        AlignmentTable::Identity => Table::of(name, IDENTITY, &r.identity),
        AlignmentTable::Populations => r.populations.populations_table(name),
        AlignmentTable::Shifts => Table::of(name, SHIFTS, &r.shifts),
        AlignmentTable::Aggregations => Table::of(name, AGGREGATIONS, &r.aggregations),
        AlignmentTable::Winners => Table::of(name, WINNERS, &r.winners),
        AlignmentTable::TargetContrasts => Table::of(name, CONTRASTS, &r.target_contrasts),
        AlignmentTable::ShiftHistogram => {
            Table::of(name, &shift_bin_columns(), &bins_of(&r.shifts, |shift| &shift.bins))
        }
    }
}
