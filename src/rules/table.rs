//! The tables of a rules evaluation (`memaudit rules --format csv --table NAME`): the same
//! [`Table`] feeds the CLI and the viewer's export and table.

use super::exclusions::{ExclusionCheck, ExclusionEffect};
use super::{RuleVerdict, RulesReport};
use crate::report::{Column, Table, num, opt};

crate::choice! {
    /// The tables a rules evaluation can be exported as.
    pub enum RulesTable {
        /// One row per rule.
        Verdicts,
        /// The exclusion ledger, checked.
        Exclusions,
        /// Each rule reading a value an exclusion withdraws, judged with and without it.
        ExclusionEffects,
    }
}

const EFFECTS: &[Column<ExclusionEffect>] = &crate::columns![ExclusionEffect;
    /// The exclusion's item, as written in the ledger.
    "item" => |e| e.item.clone(),
    "rule_id" => |e| e.rule_id.clone(),
    /// The values of the exclusion the rule reads.
    "withdraws" => |e| e.withdraws.join(";"),
    /// The rule's outcome on every value read (the exclusion not applied).
    "outcome_with" => |e| e.outcome_with.clone(),
    "margin_with" => |e| num(e.margin_with),
    /// The outcome with the values withdrawn: a count leaves out their items, its at-least as written.
    "outcome_without" => |e| e.outcome_without.clone(),
    "margin_without" => |e| num(e.margin_without),
    /// The exclusion changes the rule's outcome.
    "changes" => |e| e.changes.to_string(),
    /// Why the rule cannot be judged without the values.
    "error_without" => |e| opt(&e.error_without),
];

const EXCLUSIONS: &[Column<ExclusionCheck>] = &crate::columns![ExclusionCheck;
    "item" => |e| e.item.clone(),
    "reason" => |e| e.reason.clone(),
    "affects" => |e| e.affects.join(";"),
    "decided" => |e| opt(&e.decided),
    "decided_from" => |e| opt(&e.decided_from),
    "data_time" => |e| opt(&e.data_time),
    "data_time_from" => |e| opt(&e.data_time_from),
    "status" => |e| e.status.clone(),
    "rules" => |e| e.rules.join(";"),
    "after_registration_of" => |e| e.after_registration_of.join(";"),
    "location" => |e| e.location.clone(),
];

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
        RulesTable::Exclusions => Table::of(which.name(), EXCLUSIONS, &report.exclusions),
        RulesTable::ExclusionEffects => Table::of(which.name(), EFFECTS, &report.exclusion_effects),
    }
}
