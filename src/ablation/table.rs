//! The tables of an ablation analysis (`memaudit ablation --format csv --table NAME`): the same
//! [`Table`] feeds the CLI and the viewer's export and table.

use super::{AblationReport, GroupAblation};
use crate::report::{Column, Table, num, opt};

crate::choice! {
    /// The tables an ablation analysis can be exported as.
    pub enum AblationTable {
        /// One row per run and per subset ([`AblationReport::groups`]) with the u histogram,
        /// the positive rate, ρ with both intervals and the gate.
        Groups,
    }
}

const GROUPS: &[Column<GroupAblation>] = &crate::columns![GroupAblation;
    "run" => |g| g.run.clone(),
    "subset" => |g| opt(&g.subset),
    "pairs" => |g| g.rates.pairs.to_string(),
    "queries" => |g| g.rates.queries.to_string(),
    "u_harmful" => |g| g.rates.histogram.harmful.to_string(),
    "u_neutral" => |g| g.rates.histogram.neutral.to_string(),
    "u_helpful" => |g| g.rates.histogram.helpful.to_string(),
    "positive_rate" => |g| num(Some(g.rates.positive_rate)),
    "positive_low" => |g| num(Some(g.rates.positive_low)),
    "positive_high" => |g| num(Some(g.rates.positive_high)),
    "base_correct_rate" => |g| num(Some(g.rates.base_correct_rate)),
    "rho_n" => |g| g.noncircularity.n.to_string(),
    "rho" => |g| num(g.noncircularity.rho),
    "rho_pair_low" => |g| num(g.noncircularity.pair_ci.as_ref().map(|c| c.low)),
    "rho_pair_high" => |g| num(g.noncircularity.pair_ci.as_ref().map(|c| c.high)),
    "rho_query_low" => |g| num(g.noncircularity.query_ci.as_ref().map(|c| c.low)),
    "rho_query_high" => |g| num(g.noncircularity.query_ci.as_ref().map(|c| c.high)),
    "gate_passes" => |g| opt(&g.noncircularity.passes),
    "gate_margin" => |g| num(g.noncircularity.margin),
];

/// One table of an ablation analysis.
pub fn table(report: &AblationReport, which: AblationTable) -> Table {
    match which {
        AblationTable::Groups => {
            let groups: Vec<&GroupAblation> = report.groups().collect();
            Table::of(which.name(), GROUPS, groups.iter().copied())
        }
    }
}
