//! The tables of a claims check (`memaudit claims --format csv --table NAME`): the claims, the
//! linter's findings and the K-sweep's tables ([`crate::ksweep::table`]). The same [`Table`]s
//! feed the CLI and the viewer's exports and tables.

use super::{ClaimResult, ClaimsReport, Finding, FindingSide};
use crate::error::{Error, Result};
use crate::ksweep::{self, SweepTable};
use crate::report::{Column, Table, num, opt, serde_name};

crate::choice! {
    /// The tables a claims check can be exported as (`--table NAME`); the last three need the
    /// K-sweep.
    pub enum ClaimsTable {
        Claims,
        Findings,
        Cells,
        Deltas,
        Stability,
        /// The queries each (arm, K) cell of the per-query scores holds ([`crate::cells`]).
        Populations,
    }
}

const CLAIMS: &[Column<ClaimResult>] = &crate::columns![ClaimResult;
    "claim_id" => |c| c.claim_id.clone(),
    "kind" => |c| serde_name(&c.kind),
    "arms" => |c| c.arms.join(";"),
    "dataset" => |c| opt(&c.dataset),
    "k" => |c| opt(&c.k),
    "metric" => |c| c.metric.clone(),
    "run" => |c| opt(&c.run),
    "reported" => |c| c.reported.map_or_else(|| opt(&c.reported_text), |v| num(Some(v))),
    "recomputed" => |c| c.recomputed.map_or_else(|| opt(&c.recomputed_text), |v| num(Some(v))),
    "difference" => |c| num(c.difference),
    "reported_ci_low" => |c| num(c.reported_ci.map(|x| x[0])),
    "reported_ci_high" => |c| num(c.reported_ci.map(|x| x[1])),
    "recomputed_ci_low" => |c| num(c.recomputed_ci.map(|x| x[0])),
    "recomputed_ci_high" => |c| num(c.recomputed_ci.map(|x| x[1])),
    "reported_n" => |c| opt(&c.reported_n),
    "n" => |c| opt(&c.n),
    "verdict" => |c| serde_name(&c.verdict),
    "reason" => |c| c.reason.clone(),
];

/// The sides of a finding joined with `;`.
fn sides(f: &Finding, g: fn(&FindingSide) -> String) -> String {
    f.sides.iter().map(g).collect::<Vec<_>>().join(";")
}

const FINDINGS: &[Column<Finding>] = &crate::columns![Finding;
    "kind" => |f| serde_name(&f.kind),
    "table" => |f| opt(&f.table),
    "row" => |f| f.row.clone(),
    "message" => |f| f.message.clone(),
    "expected" => |f| num(f.expected),
    "found" => |f| num(f.found),
    "location" => |f| opt(&f.location),
    "run" => |f| opt(&f.run),
    "dataset" => |f| opt(&f.dataset),
    "field" => |f| opt(&f.field),
    "arms" => |f| sides(f, |s| s.arm.clone()),
    "k" => |f| sides(f, |s| opt(&s.k)),
    "values" => |f| sides(f, |s| s.value.clone()),
];

/// One table of a claims check; a K-sweep table needs the sweep (`--data`, without `--no-sweep`).
pub fn table(report: &ClaimsReport, which: ClaimsTable) -> Result<Table> {
    let sweep = |t: SweepTable| {
        report.sweep.as_ref().map(|s| ksweep::table(s, t)).ok_or_else(|| {
            Error::setting(
                "table",
                format!(
                    "the {} table needs the K-sweep: give per-query data (and do not turn off {})",
                    t.name(),
                    crate::fields::mention("no_sweep")
                ),
            )
        })
    };
    match which {
        ClaimsTable::Claims => Ok(Table::of(which.name(), CLAIMS, &report.claims)),
        ClaimsTable::Findings => Ok(Table::of(which.name(), FINDINGS, &report.findings)),
        ClaimsTable::Populations => Ok(report.populations.populations_table(which.name())),
        ClaimsTable::Cells => sweep(SweepTable::Cells),
        ClaimsTable::Deltas => sweep(SweepTable::Deltas),
        ClaimsTable::Stability => sweep(SweepTable::Stability),
    }
}
