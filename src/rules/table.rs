//! The tables of a rules evaluation (`memaudit rules --format csv --table NAME`): the same
//! [`Table`] feeds the CLI and the viewer's export and table.

use super::{RuleVerdict, RulesReport};
use crate::report::{Column, Table, num, opt};

crate::choice! {
    /// The tables a rules evaluation can be exported as.
    pub enum RulesTable {
        /// One row per rule.
        Verdicts = "verdicts",
    }
}

const VERDICTS: &[Column<RuleVerdict>] = &crate::columns![RuleVerdict;
    "rule_id" => |v| v.rule_id.clone(),
    "kind" => |v| v.kind.clone(),
    "fired" => |v| opt(&v.fired),
    "outcome" => |v| v.outcome.clone(),
    "margin" => |v| num(v.margin),
    "temporal" => |v| v.temporal.status.clone(),
    "registered" => |v| opt(&v.temporal.registered),
    "inputs" => |v| v.inputs.iter().map(|i| i.name.as_str()).collect::<Vec<_>>().join(";"),
    "error" => |v| opt(&v.error),
];

/// One table of a rules evaluation.
pub fn table(report: &RulesReport, which: RulesTable) -> Table {
    match which {
        RulesTable::Verdicts => Table::of(which.name(), VERDICTS, &report.verdicts),
    }
}
