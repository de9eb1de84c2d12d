//! The CSV tables of a claims check (`memaudit claims --format csv --csv-table NAME`): the
//! claims, the linter's findings and the K-sweep's tables ([`crate::ksweep::table`]). The same
//! [`Table`]s feed the CLI and the viewer's exports and tables.

use super::ClaimsReport;
use crate::ksweep;
use crate::report::{Table, num, opt, serde_name};

/// The tables a claims check can be exported as (`--csv-table NAME`); the last three need the
/// K-sweep ([`ksweep::TABLES`]).
pub const TABLES: [&str; 5] = ["claims", "findings", "cells", "deltas", "stability"];

/// One table by name (`None` for an unknown name, and for a K-sweep table without a sweep).
pub fn table(report: &ClaimsReport, name: &str) -> Option<Table> {
    match name {
        "claims" => {
            let mut t = Table::new(
                "claims",
                &[
                    "claim_id",
                    "kind",
                    "arms",
                    "dataset",
                    "k",
                    "metric",
                    "run",
                    "reported",
                    "recomputed",
                    "difference",
                    "reported_ci_low",
                    "reported_ci_high",
                    "recomputed_ci_low",
                    "recomputed_ci_high",
                    "reported_n",
                    "n",
                    "verdict",
                    "reason",
                ],
            );
            for c in &report.claims {
                t.rows.push(vec![
                    c.claim_id.clone(),
                    serde_name(&c.kind),
                    c.arms.join(";"),
                    opt(&c.dataset),
                    opt(&c.k),
                    c.metric.clone(),
                    opt(&c.run),
                    c.reported.map_or_else(|| opt(&c.reported_text), |v| num(Some(v))),
                    c.recomputed.map_or_else(|| opt(&c.recomputed_text), |v| num(Some(v))),
                    num(c.difference),
                    num(c.reported_ci.map(|x| x[0])),
                    num(c.reported_ci.map(|x| x[1])),
                    num(c.recomputed_ci.map(|x| x[0])),
                    num(c.recomputed_ci.map(|x| x[1])),
                    opt(&c.reported_n),
                    opt(&c.n),
                    serde_name(&c.verdict),
                    c.reason.clone(),
                ]);
            }
            Some(t)
        }
        "findings" => {
            let mut t = Table::new(
                "findings",
                &[
                    "kind", "table", "row", "message", "expected", "found", "location", "run", "dataset", "field",
                    "arms", "k", "values",
                ],
            );
            for f in &report.findings {
                let join = |g: &dyn Fn(&crate::claims::FindingSide) -> String| {
                    f.sides.iter().map(g).collect::<Vec<_>>().join(";")
                };
                t.rows.push(vec![
                    serde_name(&f.kind),
                    opt(&f.table),
                    f.row.clone(),
                    f.message.clone(),
                    num(f.expected),
                    num(f.found),
                    opt(&f.location),
                    opt(&f.run),
                    opt(&f.dataset),
                    opt(&f.field),
                    join(&|s| s.arm.clone()),
                    join(&|s| opt(&s.k)),
                    join(&|s| s.value.clone()),
                ]);
            }
            Some(t)
        }
        _ => ksweep::table(report.sweep.as_ref()?, name),
    }
}
