//! The CSV tables of a K-sweep (`memaudit claims --format csv --csv-table cells|deltas|
//! stability`): the same [`Table`]s feed the CLI and the viewer's exports and tables.

use super::KSweep;
use crate::report::{Table, flag, num, opt};

/// The tables a K-sweep can be exported as.
pub const TABLES: [&str; 3] = ["cells", "deltas", "stability"];

/// One table by name (`None` for an unknown name).
pub fn table(s: &KSweep, name: &str) -> Option<Table> {
    match name {
        "cells" => {
            let mut t = Table::new(
                "cells",
                &["run", "dataset", "arm", "k", "n", "mean", "ci_low", "ci_high", "wilson_low", "wilson_high"],
            );
            for c in &s.cells {
                t.rows.push(vec![
                    opt(&c.run),
                    opt(&c.dataset),
                    c.arm.clone(),
                    opt(&c.k),
                    c.stats.n.to_string(),
                    num(Some(c.stats.mean)),
                    num(Some(c.stats.ci_low)),
                    num(Some(c.stats.ci_high)),
                    num(c.stats.wilson_low),
                    num(c.stats.wilson_high),
                ]);
            }
            Some(t)
        }
        "deltas" => {
            let mut t = Table::new(
                "deltas",
                &[
                    "run",
                    "dataset",
                    "k",
                    "a",
                    "b",
                    "n_a",
                    "n_b",
                    "n_shared",
                    "mean_a",
                    "mean_b",
                    "delta",
                    "ci_low",
                    "ci_high",
                    "label",
                    "query_sets_differ",
                ],
            );
            for d in &s.deltas {
                t.rows.push(vec![
                    opt(&d.run),
                    opt(&d.dataset),
                    opt(&d.k),
                    d.a.clone(),
                    d.b.clone(),
                    d.stats.n_a.to_string(),
                    d.stats.n_b.to_string(),
                    d.stats.n_shared.to_string(),
                    num(Some(d.stats.mean_a)),
                    num(Some(d.stats.mean_b)),
                    num(Some(d.stats.delta)),
                    num(Some(d.stats.ci_low)),
                    num(Some(d.stats.ci_high)),
                    d.stats.label.name().into(),
                    flag(d.stats.query_sets_differ),
                ]);
            }
            Some(t)
        }
        "stability" => {
            let mut t = Table::new(
                "stability",
                &[
                    "run",
                    "dataset",
                    "a",
                    "b",
                    "base_k",
                    "k",
                    "delta_base",
                    "delta_k",
                    "change",
                    "slack",
                    "within",
                    "partial",
                ],
            );
            for r in &s.stability {
                t.rows.push(vec![
                    opt(&r.run),
                    opt(&r.dataset),
                    r.a.clone(),
                    r.b.clone(),
                    opt(&r.base_k),
                    opt(&r.k),
                    num(Some(r.delta_base)),
                    num(Some(r.delta_k)),
                    num(Some(r.change)),
                    num(Some(r.slack)),
                    flag(r.within),
                    flag(r.partial),
                ]);
            }
            Some(t)
        }
        _ => None,
    }
}
