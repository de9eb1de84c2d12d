//! The tables of a K-sweep (`memaudit claims --format csv --table cells|deltas|stability`): the
//! same [`Table`]s feed the CLI and the viewer's exports and tables.

use super::{Cell, DeltaRow, KSweep, StabilityRow};
use crate::report::{Column, Table, flag, num, opt};

crate::choice! {
    /// The tables of a K-sweep.
    pub enum SweepTable {
        Cells,
        Deltas,
        Stability,
    }
}

const CELLS: &[Column<Cell>] = &crate::columns![Cell;
    "run" => |c| opt(&c.run),
    "dataset" => |c| opt(&c.dataset),
    "arm" => |c| c.arm.clone(),
    "k" => |c| opt(&c.k),
    "n" => |c| c.stats.n.to_string(),
    "mean" => |c| num(Some(c.stats.mean)),
    "ci_low" => |c| num(Some(c.stats.ci_low)),
    "ci_high" => |c| num(Some(c.stats.ci_high)),
    "wilson_low" => |c| num(c.stats.wilson_low),
    "wilson_high" => |c| num(c.stats.wilson_high),
];

const DELTAS: &[Column<DeltaRow>] = &crate::columns![DeltaRow;
    "run" => |d| opt(&d.run),
    "dataset" => |d| opt(&d.dataset),
    "k" => |d| opt(&d.k),
    "a" => |d| d.a.clone(),
    "b" => |d| d.b.clone(),
    "n_a" => |d| d.stats.n_a.to_string(),
    "n_b" => |d| d.stats.n_b.to_string(),
    "n_shared" => |d| d.stats.n_shared.to_string(),
    "mean_a" => |d| num(Some(d.stats.mean_a)),
    "mean_b" => |d| num(Some(d.stats.mean_b)),
    "delta" => |d| num(Some(d.stats.delta)),
    "ci_low" => |d| num(Some(d.stats.ci_low)),
    "ci_high" => |d| num(Some(d.stats.ci_high)),
    "label" => |d| d.stats.label.name().into(),
    "query_sets_differ" => |d| flag(d.stats.query_sets_differ),
];

const STABILITY: &[Column<StabilityRow>] = &crate::columns![StabilityRow;
    "run" => |r| opt(&r.run),
    "dataset" => |r| opt(&r.dataset),
    "a" => |r| r.a.clone(),
    "b" => |r| r.b.clone(),
    "base_k" => |r| opt(&r.base_k),
    "k" => |r| opt(&r.k),
    "delta_base" => |r| num(Some(r.delta_base)),
    "delta_k" => |r| num(Some(r.delta_k)),
    "change" => |r| num(Some(r.change)),
    "slack" => |r| num(Some(r.slack)),
    "within" => |r| flag(r.within),
    "partial" => |r| flag(r.partial),
];

/// One table of a K-sweep.
pub fn table(s: &KSweep, which: SweepTable) -> Table {
    match which {
        SweepTable::Cells => Table::of(which.name(), CELLS, &s.cells),
        SweepTable::Deltas => Table::of(which.name(), DELTAS, &s.deltas),
        SweepTable::Stability => Table::of(which.name(), STABILITY, &s.stability),
    }
}
