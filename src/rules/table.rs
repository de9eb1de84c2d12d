//! The CSV table of a rules evaluation (`memaudit rules --format csv`): the same [`Table`]
//! feeds the CLI and the viewer's export and table.

use super::RulesReport;
use crate::report::{Table, num, opt};

/// The tables a rules evaluation can be exported as.
pub const TABLES: [&str; 1] = ["verdicts"];

/// One table by name (`None` for an unknown name): `verdicts`, one row per rule.
pub fn table(report: &RulesReport, name: &str) -> Option<Table> {
    if name != "verdicts" {
        return None;
    }
    let mut t = Table::new(
        "verdicts",
        &["rule_id", "kind", "fired", "outcome", "margin", "temporal", "registered", "inputs", "error"],
    );
    for v in &report.verdicts {
        t.rows.push(vec![
            v.rule_id.clone(),
            v.kind.clone(),
            opt(&v.fired),
            v.outcome.clone(),
            num(v.margin),
            v.temporal.status.clone(),
            opt(&v.temporal.registered),
            v.inputs.iter().map(|i| i.name.as_str()).collect::<Vec<_>>().join(";"),
            opt(&v.error),
        ]);
    }
    Some(t)
}
